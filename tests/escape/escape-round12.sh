#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 12 (red14): the seccomp programs.
# - A rule compares a syscall argument as 64 bits; the kernel reads many
#   arguments as int or unsigned int and drops the high word. The always-on
#   layer's @always-core rules (setrlimit/prlimit64 of RLIMIT_CORE, kept at
#   1 so that a piped core_pattern's helper never runs as host root for a
#   crash) compared the resource with SCMP_CMP_EQ 4: setrlimit(
#   0xffffffff00000004, {0, 0}) was RLIMIT_CORE to the kernel and no match
#   to the filter, so the limit went to 0 (the pipe reopened). The resource
#   is now compared in its low 32 bits (SCMP_CMP_MASKED_EQ 0xffffffff), as
#   the layer's socket-family and ioctl-request rules already were.
# - The rewritten (range tree) and stacked programs against libseccomp's, on
#   the real kernel rather than the unit test's interpreter: every syscall
#   number of x86_64, x32 and i386 (int $0x80) and the arguments the rules
#   compare, through a USER_NOTIF filter so no allowed call runs
#   (seccomp-kernel-verdicts.c); plus the high-word check above for every
#   narrow argument a layer rule compares.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }

# core.py MODE: the call MODE makes (a raw syscall, the resource's high word
# set where MODE says hi), then RLIMIT_CORE as (soft, hard)
cat > "$TMP/core.py" <<'EOF'
import ctypes, resource, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
class RL(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
hi = 0xffffffff00000000
mode = sys.argv[1]
new = RL(0, 0)
if mode == "setrlimit-hi":
    r = libc.syscall(ctypes.c_long(160), ctypes.c_ulong(hi | 4), ctypes.byref(new))
elif mode == "prlimit-hi":
    r = libc.syscall(ctypes.c_long(302), ctypes.c_ulong(0), ctypes.c_ulong(hi | 4), ctypes.byref(new), None)
elif mode == "nofile-hi":
    new = RL(64, 64)
    r = libc.syscall(ctypes.c_long(160), ctypes.c_ulong(hi | 7), ctypes.byref(new))
    print(r, resource.getrlimit(resource.RLIMIT_NOFILE))
    sys.exit(0)
print(r, resource.getrlimit(resource.RLIMIT_CORE))
EOF
inside() { tsbx --ro-bind "$TMP/core.py:/core.py" -- python3 /core.py "$1" 2>&1 | tail -1; }

# --- control: outside (no filter) the kernel takes the high-word call as
# RLIMIT_CORE (soft and hard to 0)
control "core-high-word: outside, setrlimit(0xffffffff00000004, {0,0}) sets RLIMIT_CORE" \
        "$(sh -c 'ulimit -c 1; exec python3 "$1" setrlimit-hi' sh "$TMP/core.py" 2>&1)" "0 (0, 0)"
control "core-high-word: outside, prlimit64(0, 0xffffffff00000004, {0,0}) sets RLIMIT_CORE" \
        "$(sh -c 'ulimit -c 1; exec python3 "$1" prlimit-hi' sh "$TMP/core.py" 2>&1)" "0 (0, 0)"
is "core-high-word: sbx run: setrlimit(0xffffffff00000004, {0,0}) succeeds without effect (1:1 stays)" \
        "$(inside setrlimit-hi)" "0 (1, 1)"
is "core-high-word: sbx run: prlimit64(0, 0xffffffff00000004, {0,0}) succeeds without effect" \
        "$(inside prlimit-hi)" "0 (1, 1)"
control "core-high-word: sbx run: the high word reaches the kernel for other limits (nofile to 64)" \
        "$(inside nofile-hi)" "0 (64, 64)"

# --- the same in a persistent sandbox: the exec service (init's filter,
# inherited) and a join by setns (the layer from the state dir)
if sx create --bind "$TMP/core.py:/core.py" c12 >/dev/null 2>&1; then
        is "core-high-word: sbx exec (exec service): setrlimit high word, 1:1 stays" \
                "$(sx exec c12 -- python3 /core.py setrlimit-hi 2>&1 | tail -1)" "0 (1, 1)"
        is "core-high-word: sbx exec (exec service): prlimit64 high word, 1:1 stays" \
                "$(sx exec c12 -- python3 /core.py prlimit-hi 2>&1 | tail -1)" "0 (1, 1)"
        # without the exec service's socket, exec joins by setns
        mv "$STATE/sandboxes/c12/exec.sock" "$STATE/sandboxes/c12/exec.sock.moved"
        is "core-high-word: sbx exec (join by setns): prlimit64 high word, 1:1 stays" \
                "$(sx exec c12 -- python3 /core.py prlimit-hi 2>/dev/null | tail -1)" "0 (1, 1)"
        sx rm -f c12 >/dev/null 2>&1
else
        not_ok "core-high-word: sbx create c12: $(sx create --bind "$TMP/core.py:/core.py" c12x 2>&1 | tail -1)"
        skip "core-high-word: no sandbox"; skip "core-high-word: no sandbox"
fi

# --- the programs' verdicts on the real kernel (the programs are the same
# for every uid: the root run does it, the unprivileged one once by hand)
if [ -z "${SBX_SECCOMP_VERDICTS:-}" ] || [ ! -x "$SBX_SECCOMP_VERDICTS" ]; then
        skip "seccomp-kernel-verdicts: SBX_SECCOMP_VERDICTS not built"
        skip "seccomp-kernel-verdicts: SBX_SECCOMP_VERDICTS not built"
elif ! is_root && [ -z "${SBX_SECCOMP_VERDICTS_UNPRIV:-}" ]; then
        skip "seccomp-kernel-verdicts: same programs as the root run (SBX_SECCOMP_VERDICTS_UNPRIV=1 to run)"
        skip "seccomp-kernel-verdicts: same programs as the root run (SBX_SECCOMP_VERDICTS_UNPRIV=1 to run)"
else
        out=$(timeout -k 5 300 "$SBX_SECCOMP_VERDICTS" 2>&1); st=$?
        printf '%s\n' "$out" | grep -v '^DIFF control' | head -30 | sed 's/^/# /'
        if [ "$st" = 77 ]; then
                skip "seccomp-kernel-verdicts: $out"; skip "seccomp-kernel-verdicts: $out"
        else
                like "control: seccomp-kernel-verdicts: the harness sees the no-network layer's AF_INET refusal" \
                        "$out" "control: [1-9][0-9]* verdicts differ"
                is "seccomp-kernel-verdicts: stacked = libseccomp's pair for every probe, no high-word allow (exit 0)" \
                        "$st $(printf '%s\n' "$out" | tail -1)" "0 0 verdicts differ"
        fi
fi

done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 14 (red16): attacks from inside a sandbox.
# Found and fixed:
# - a file as the command's stdin (`sbx run CMD < file`, `sbx exec -i`,
#   `docker exec -i`) was handed over as it is: through /proc/self/fd/0 the
#   sandbox reopened it for writing and fchmod/futimens worked on the
#   read-only fd, so a rootless sandbox (the caller's uid) rewrote, chmod'ed
#   and touched a host file outside every mount it was given (as root: one
#   writable by others). It gets a pipe now, filled by a relay outside
#   (launch/stdio-guard.c); the caller's offset is where the command stopped.
# - file status flags of the caller's terminal (sbx run without -t): an
#   O_NONBLOCK set inside stayed on the operator's terminal (the open file
#   description is the shell's too): later readers got EAGAIN. Put back now.
# - the mode of the caller's terminal (sbx run without -t): a rootless sandbox
#   has the caller's uid and owns the terminal: fchmod(0, 0666) left it
#   readable and writable by every local user. Put back now.
# - the no-libc front end (exec-front.c) copied the arguments of a request
#   larger than one record (64 KiB) with strlen() in the loop's bound: 2 x
#   100 KB of arguments to sbx exec spun it for 40 s (17 s CPU) on the host.
# - gaps17: a FIFO of the caller's as sbx exec's stdin (-i) or stdout kept
#   the mode the command gave it (rootless: fchmod 0666); put back now as sbx
#   run does (its O_NONBLOCK: round 15). 100,000 arguments to sbx exec were refused
#   with "exceed 4194304 bytes" (the exec service's request holds 65,536
#   strings); such an exec joins now, the kernel's E2BIG is the only limit.
# Held (guards): TIOCSCTTY on the caller's terminal, personality() in sbx
# exec (service and setns), kernel info (kallsyms, modules, syslog,
# sched_debug, timer_list).
. "$(dirname "$0")/lib.sh"

export SBX_WORKSPACE_ROOT=$TMP/ws
STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
cat > "$TMP/r14.py" <<'PY'
import ctypes, fcntl, os, sys, termios
libc = ctypes.CDLL(None, use_errno=True)
def err(f):
    try:
        f()
        return "OK"
    except OSError as e:
        return __import__("errno").errorcode[e.errno]
what = sys.argv[1]
if what == "stdin":
    # reopen fd 0 for writing, chmod and touch it; then read it
    r = [os.readlink("/proc/self/fd/0").split(":")[0]]
    def reopen():
        fd = os.open("/proc/self/fd/0", os.O_WRONLY | os.O_APPEND)
        os.write(fd, b"written-inside\n")
        os.close(fd)
    r.append(err(reopen))
    r.append(err(lambda: os.fchmod(0, 0o600)))
    r.append(err(lambda: os.utime(0, (0, 0))))
    sys.stderr.write(" ".join(r) + "\n")
    sys.stdout.write(sys.stdin.readline())
elif what == "nonblock":
    fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)
elif what == "fifo":
    # fd N (a FIFO of the caller's): fchmod 0666, O_NONBLOCK on, then what the flags say
    fd = int(sys.argv[2])
    r = err(lambda: os.fchmod(fd, 0o666))
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    sys.stderr.write(r + (" nonblock" if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK else " blocking") + "\n")
elif what == "chmod":
    print(err(lambda: os.fchmod(0, 0o666)))
elif what == "flags":
    print("nonblock" if fcntl.fcntl(0, fcntl.F_GETFL) & os.O_NONBLOCK else "blocking")
elif what == "sctty":
    # the caller's terminal (fd 0), then a pty of our own
    def own():
        m, s = os.openpty()
        fcntl.ioctl(s, termios.TIOCSCTTY, 0)
    print(err(lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0)), err(lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 1)),
          err(own) if len(sys.argv) < 3 else "")
elif what == "personality":
    out = []
    for p in (0x0040000, 0x0400000):        # ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC
        r = libc.personality(ctypes.c_uint(p))
        out.append("OK" if r >= 0 else __import__("errno").errorcode[ctypes.get_errno()])
        libc.personality(ctypes.c_uint(0))
    out.append("%08x" % libc.personality(ctypes.c_uint(0xffffffff)))  # the query
    print(" ".join(out))
elif what == "syslog":
    libc.syscall.restype = ctypes.c_long
    r = libc.syscall(103, 10, None, 0)      # SYSLOG_ACTION_SIZE_BUFFER
    print("OK" if r >= 0 else __import__("errno").errorcode[ctypes.get_errno()])
PY
P=$TMP/r14.py
R=(--ro-bind "$P:/r14.py")

# --- a file as stdin
F=$TMP/stdin-file
mkin() { printf 'line1\nline2\nline3\n' > "$F"; chmod 666 "$F"; touch -d @1700000000 "$F"; }
fstate() { echo "$(stat -c '%a %Y' "$F") $(md5sum < "$F" | cut -c1-8)"; }
mkin
want=$(fstate)
python3 "$P" stdin < "$F" >/dev/null 2>&1
control "outside, a process reopens its stdin file for writing, chmods and touches it" \
        "$([ "$(fstate)" != "$want" ] && grep -c written-inside "$F")" 1
mkin
out=$(timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r14.py stdin < "$F" 2>"$TMP/err")
is "stdin-file (run): the host file is not written, chmod'ed or touched through fd 0" "$(fstate)" "$want"
like "stdin-file (run): fd 0 is a pipe" "$(cat "$TMP/err")" '^pipe '
control "stdin-file (run): the command reads the file" "$out" line1
# A FIFO of the caller's as the command's stdin (-i) or stdout, open read-write
# on fd 7 (our shell's open file description, as a `while read ...; done <
# fifo` loop's): after the exec its mode and flags are what they were. $1: 0
# (stdin) or 1; the rest: the command, which runs /r14.py fifo $1.
# Prints: what fchmod 0666 said inside, the flags inside, then after it ended
# the FIFO's mode and the flags of our description.
fifo_after() {
        local fd=$1; shift
        rm -f "$TMP/fifo"; mkfifo -m 600 "$TMP/fifo"
        exec 7<>"$TMP/fifo"
        if [ "$fd" = 0 ]; then "$@" <&7 2>"$TMP/ferr" >/dev/null; else "$@" >&7 2>"$TMP/ferr"; fi
        echo "$(tail -1 "$TMP/ferr") $(stat -c %a "$TMP/fifo") $(python3 "$P" flags <&7)"
        exec 7<&-
}
control "fifo: outside, fchmod 0666 and O_NONBLOCK of a FIFO stay" "$(fifo_after 0 python3 "$P" fifo 0)" \
        "OK nonblock 666 nonblock"
# r14: execs through init's exec service; r14j: an exec allowlist, so that
# each exec joins with setns
if sx create "${R[@]}" r14 >/dev/null && sx create "${R[@]}" --exec-allow '*' r14j >/dev/null; then
        for how in "r14 service" "r14j setns"; do
                set -- $how
                mkin
                out=$(sx exec -i "$1" -- python3 /r14.py stdin < "$F" 2>"$TMP/err")
                is "stdin-file (exec -i, $2): the host file is unchanged" "$(fstate)" "$want"
                is "stdin-file (exec -i, $2): fd 0 is a pipe, the command reads the file" \
                        "$(cut -d' ' -f1 "$TMP/err") $out" "pipe line1"
                is "personality-exec ($2): ADDR_NO_RANDOMIZE and READ_IMPLIES_EXEC refused (EPERM), personality 0" \
                        "$(sx exec "$1" -- python3 /r14.py personality)" "EPERM EPERM 00000000"
                # gaps17: the mode (rootless: the sandbox has the caller's
                # uid and owns the FIFO) and O_NONBLOCK are put back when
                # sbx exec returns (service: by the front end, setns: the full sbx)
                like "fifo-restored (exec -i, $2): a FIFO as stdin has its mode and flags back (rootless: fchmod 0666 worked inside)" \
                        "$(fifo_after 0 sx exec -i "$1" -- python3 /r14.py fifo 0)" "^$(is_root && echo '(OK|EPERM)' || echo OK) nonblock 600 blocking$"
        done
        like "fifo-restored (exec, service): ... a FIFO as stdout too" \
                "$(fifo_after 1 sx exec r14 -- python3 /r14.py fifo 1)" "^$(is_root && echo '(OK|EPERM)' || echo OK) nonblock 600 blocking$"
        # 100,000 arguments: more strings than one request of the exec service
        # holds (65,536), once refused with a text naming its size limit
        # ("exceed 4194304 bytes"): such an exec joins (the kernel's limit only)
        is "exec-many-args: sbx exec with 100,000 arguments runs (a sandbox whose execs go through the exec service)" \
                "$(sx exec r14 -- sh -c 'echo $#' sh $(seq 100000) 2>&1)" 100000
        # the front end (a warm sandbox: the execs above) copies arguments
        # that do not fit one record; it was quadratic in each one's length
        b=$(head -c 128000 /dev/zero | tr '\0' x)
        is "exec-front-argv: sbx exec with 4 x 128,000-byte arguments (the front end's copy) runs within 30 s" \
                "$(timeout -k 5 30 "$SBX" exec --state-dir "$STATE" r14 -- sh -c 'echo ${#1} ${#2} ${#3} ${#4}' sh "$b" "$b" "$b" "$b")" \
                "128000 128000 128000 128000"
        # the kernel's limit in the sandbox (a quarter of its stack rlimit):
        # more than that, but less than one request and sbx's own limit (its
        # stack rlimit 32 MiB here): 126, E2BIG named
        kb=$(sx exec r14 -- sh -c 'ulimit -s' 2>&1)
        if [[ $kb =~ ^[0-9]+$ ]] && [ "$kb" -le 12288 ]; then
                big=(); for i in $(seq $((kb * 256 / 128000 + 2))); do big+=("$b"); done
                out=$(ulimit -s 32768; sx exec r14 -- true "${big[@]}" 2>&1); st=$?
                like "exec-many-args: beyond the kernel's limit in the sandbox (${#big[@]} x 128,000 bytes, stack ${kb} KiB): 126, E2BIG named" \
                        "$st:$out" "^126:sbx exec: exec 'true': Argument list too long"
        else
                skip "exec-many-args: beyond the kernel's limit (the sandbox's stack rlimit is '$kb' KiB: more than one request would need)"
        fi
        control "stdin-file: without -i fd 0 is /dev/null" "$(sx exec r14 -- readlink /proc/self/fd/0 < "$F")" /dev/null
else
        not_ok "stdin-file: sbx create"
fi
sx rm -f r14 r14j >/dev/null 2>&1
control "personality: outside both are set" "$(python3 "$P" personality)" "OK OK 00000000"
mkdir -p "$TMP/bin"
ln -sf "$(readlink -f "$SBX")" "$TMP/bin/docker"
if timeout -k 5 60 "$SBX" create "${R[@]}" r14d >/dev/null; then
        mkin
        out=$(timeout -k 5 60 "$TMP/bin/docker" exec -i r14d python3 /r14.py stdin < "$F" 2>"$TMP/err")
        is "stdin-file (docker exec -i): the host file is unchanged" "$(fstate)" "$want"
        is "stdin-file (docker exec -i): fd 0 is a pipe, the command reads the file" \
                "$(cut -d' ' -f1 "$TMP/err") $out" "pipe line1"
        timeout 60 "$SBX" rm -f r14d >/dev/null
else
        not_ok "stdin-file: sbx create for docker exec"
fi
# the caller's offset: where the command stopped reading, as with the file itself
mkin
is "stdin-file: the caller's offset is where the command stopped (dd of 6 bytes, then cat)" \
        "$({ timeout 60 "$SBX" run --no-tty -- dd bs=6 count=1 status=none >/dev/null; cat; } < "$F" | tr '\n' ' ')" "line2 line3 "
is "stdin-file: a loop reading the file around sbx run reads every line" \
        "$(while read -r l; do printf '%s ' "$l"; timeout 60 "$SBX" run --no-tty -- true; done < "$F")" "line1 line2 line3 "
is "stdin-file: a command that reads nothing leaves no relay behind" \
        "$(seq 1 200000 > "$TMP/big"; timeout 60 "$SBX" run --no-tty -- true < "$TMP/big"; sleep 0.2; pgrep -c -P $$ -f "$SBX run" )" 0

# --- the caller's terminal (sbx run without -t)
c="python3 $P nonblock; python3 $P flags"
is "tty-nonblock-restored: O_NONBLOCK set inside is taken off the terminal when sbx returns" \
        "$(script -qec "timeout 60 $SBX run --no-tty ${R[*]} -- python3 /r14.py nonblock; python3 $P flags" /dev/null </dev/null | tr -d '\r')" blocking
control "outside, O_NONBLOCK set on the terminal stays" \
        "$(script -qec "$c" /dev/null </dev/null | tr -d '\r')" nonblock
# modes: the terminal's before, what fchmod(0, 0666) said, after
tmode() { script -qec "stat -L -c %a /dev/stdin; $1; stat -L -c %a /dev/stdin" /dev/null </dev/null | tr -d '\r' | tr '\n' ' '; }
out=$(tmode "timeout 60 $SBX run --no-tty ${R[*]} -- python3 /r14.py chmod")
like "tty-mode-restored: the terminal's mode is its own again when sbx returns (rootless: fchmod 0666 worked inside)" \
        "$out" '^([0-7]+) (OK|EPERM) \1 $'
like "control: outside, fchmod 0666 of the terminal stays" "$(tmode "python3 $P chmod")" '^6[0-2]0 OK 666 $'
is "tiocsctty: the caller's terminal cannot become the sandbox's (EPERM, also with force); a pty of its own can" \
        "$(script -qec "timeout 60 $SBX run --no-tty ${R[*]} -- python3 /r14.py sctty" /dev/null </dev/null | tr -d '\r')" \
        "EPERM EPERM OK"
if is_root; then
        control "outside, root (CAP_SYS_ADMIN) takes the terminal with force" \
                "$(script -qec "setsid -w python3 $P sctty x" /dev/null </dev/null | tr -d '\r')" "EPERM OK "
else
        control "outside, root takes the terminal with force" "" "" "needs root"
fi

# --- kernel info from inside
ALLOW=$TMP/allow-all.json               # only sbx's always-on layer stays
printf '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[]}\n' > "$ALLOW"
inside() { timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" "$@"; }
is "kernel-info: /proc/kallsyms shows no address" "$(inside -- sh -c 'awk "\$1 !~ /^0+\$/" /proc/kallsyms | wc -l')" 0
if [ -e /proc/modules ]; then
        is "kernel-info: /proc/modules shows no address" "$(inside -- sh -c 'grep -vc " 0x0*$" /proc/modules')" 0
else
        skip "kernel-info: /proc/modules (this kernel has no modules)"
fi
is "kernel-info: /proc/sched_debug and /proc/timer_list are empty" \
        "$(inside -- sh -c 'cat /proc/sched_debug /proc/timer_list 2>/dev/null | wc -c')" 0
is "kernel-info: syslog (the kernel log) is refused (EPERM)" "$(inside -- python3 /r14.py syslog)" EPERM
if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ]; then
        is "kernel-info: ... also under a profile allowing every call (dmesg_restrict: no CAP_SYSLOG of the host)" \
                "$(inside --seccomp-profile "$ALLOW" -- python3 /r14.py syslog 2>/dev/null)" EPERM
else
        skip "kernel-info: syslog under a profile allowing every call (kernel.dmesg_restrict is 0 here: the profile's choice)"
fi
if is_root; then
        control "outside, root reads kallsyms addresses and the kernel log size" \
                "$([ "$(awk '$1 !~ /^0+$/' /proc/kallsyms | head -1 | wc -l)" = 1 ] && python3 "$P" syslog)" OK
else
        control "outside, root reads kallsyms addresses and the kernel log size" "" "" "needs root"
fi
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 13 (red15).
# - sbx-runc's own device rule (oci-seccomp.c: in place of a device cgroup when
#   the process may hold CAP_MKNOD and there is no cgroup) had mask and value
#   swapped; libseccomp compares (arg & mask) == (value & mask), so it still
#   refused char and block nodes, and whiteouts (char 0:0) too, which a device
#   cgroup allows. Probed as root in a mount namespace with no cgroup mounts.
#   A spec's linux.seccomp rule on mknod's mode and device (value = mask,
#   valueTwo = the masked result) gives runc's and crun's verdicts, both ways.
# - Unicode bidirectional controls in the names, symlink targets and patch
#   lines sbx diff shows (Trojan Source): quoted now, as C1 controls were.
# - sbx's error messages quoting a sandbox's #! line: C1 and bidi controls and
#   bytes that are not UTF-8 went out raw; '?' now, as C0 controls were.
. "$(dirname "$0")/lib.sh"
. "$SBX_SOURCE_ROOT/tests/oci/oci-lib.sh"

if is_root && busybox_static >/dev/null; then
        T=$(mktemp -d /tmp/sbx-esc13.XXXXXX)
        chmod 755 "$T"
        on_exit 'for id in $(ls "$T/root" 2>/dev/null); do "$SBX_RUNC" --root "$T/root" delete -f "$id" >/dev/null 2>&1; done
                 rm -rf "$T"'
        make_rootfs "$T/rootfs"
        bundle() {
                mkdir -p "$T/b-$1"
                ROOTFS=$T/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$T/b-$1" "$2" || echo "# mkconfig $1 failed"
                echo "$T/b-$1"
        }
        # mk: each node's exit status and message: "c13=0 c15=1:Operation not permitted ..."
        mk='for n in "c13 c 1 3" "c15 c 1 5" "c00 c 0 0" "b70 b 7 0" "p p"; do set -- $n; x=$1; shift
            m=$(mknod /dev/$x "$@" 2>&1); printf "%s=%s " $x "$?${m:+:${m##*: }}"; done'
        devcfg="c['ociVersion']='1.0.2'
c['process']['args']=['sh','-c','''$mk''']
for k in c['process']['capabilities']: c['process']['capabilities'][k].append('CAP_MKNOD')"
        rt() { (cd "$1" && timeout -k 5 30 "$2" --root "$T/$3" run "$4" </dev/null 2>&1 | tail -1); }
        # --- a spec's mknod rules: sbx-runc against crun on the same config.json
        # sec NAME RULES: RULES the args of one rule per call, mode at 1 (mknod) / 2 (mknodat)
        sec() {
                bundle "$1" "$devcfg
m,d=$2
c['linux']['seccomp']={'defaultAction':'SCMP_ACT_ALLOW','syscalls':[
  {'names':['mknod'],'action':'SCMP_ACT_ERRNO','errnoRet':95,'args':[dict(a,index=1) for a in m]+[dict(a,index=2) for a in d]},
  {'names':['mknodat'],'action':'SCMP_ACT_ERRNO','errnoRet':95,'args':[dict(a,index=2) for a in m]+[dict(a,index=3) for a in d]}]}" >/dev/null
        }
        chr="{'value':61440,'valueTwo':8192,'op':'SCMP_CMP_MASKED_EQ'}"
        sec refuse "([$chr],[])"
        sec allow13 "([$chr],[{'value':259,'op':'SCMP_CMP_NE'}])"
        sec swapped "([{'value':8192,'valueTwo':61440,'op':'SCMP_CMP_MASKED_EQ'}],[])"
        want_refuse="c13=1:Operation not supported c15=1:Operation not supported c00=1:Operation not supported b70=0 p=0 "
        want_allow13="c13=0 c15=1:Operation not supported c00=1:Operation not supported b70=0 p=0 "
        want_swapped="c13=1:Operation not supported c15=1:Operation not supported c00=1:Operation not supported b70=1:Operation not supported p=0 "
        for b in refuse allow13 swapped; do
                w=want_$b
                is "oci-seccomp-mknod: sbx-runc, linux.seccomp $b (mask 0170000, S_IFCHR; major:minor)" \
                        "$(rt "$T/b-$b" "$SBX_RUNC" root "m$b")" "${!w}"
                if command -v runc >/dev/null; then
                        control "runc gives the same verdicts ($b)" "$(rt "$T/b-$b" runc runc "r$b")" "${!w}"
                else
                        skip "control: runc gives the same verdicts ($b) (runc not installed)"
                fi
                # crun refuses a hybrid host's cgroups: without the v2 mount, no cgroup
                if command -v crun >/dev/null; then
                        control "crun gives the same verdicts ($b)" "$(cd "$T/b-$b" && unshare -m --propagation private \
                                sh -c 'umount /sys/fs/cgroup/unified 2>/dev/null; exec timeout -k 5 30 crun --cgroup-manager=disabled --root "$1" run "$2"' \
                                sh "$T/crun" "c$b" </dev/null 2>&1 | tail -1)" "${!w}"
                else
                        skip "control: crun gives the same verdicts ($b) (crun not installed)"
                fi
        done
        # --- sbx-runc's own device rule: a host without a devices hierarchy (a
        # mount namespace of ours where it is unmounted), CAP_MKNOD, no spec filter
        bundle dev "$devcfg" >/dev/null
        if awk '$5 == "/sys/fs/cgroup/devices" { f = 1 } END { exit !f }' /proc/self/mountinfo; then
                got=$(unshare -m --propagation private sh -c 'umount -R /sys/fs/cgroup &&
                        cd "$1" && timeout -k 5 30 "$2" --root "$3/root" --debug run nodev </dev/null 2>&1' \
                        sh "$T/b-dev" "$SBX_RUNC" "$T")
                like "oci-device-rule: no devices hierarchy: the device cgroup is replaced by seccomp" "$got" \
                        'mknod of block and character devices is refused by seccomp instead'
                is "oci-device-rule: ... char 1:5 and block 7:0 refused (EPERM); a whiteout (0:0) and a fifo made" \
                        "$(printf '%s\n' "$got" | tail -1)" \
                        "c13=1:Operation not permitted c15=1:Operation not permitted c00=0 b70=1:Operation not permitted p=0 "
                control "with the devices hierarchy the cgroup allows what it lists" \
                        "$(rt "$T/b-dev" "$SBX_RUNC" root dev)" "c13=0 c15=0 c00=0 b70=0 p=0 "
        else
                skip "oci-device-rule: no v1 devices hierarchy at /sys/fs/cgroup/devices to hide"
        fi
        # --- setsid/fork games against delete -f: a container without a pid
        # namespace of its own (hostPID, a pod's shared one) whose processes
        # hop (each starts the next and exits, a new pid every few ms): a
        # listing of its pids is stale before the signals go out. Held: none
        # is left after delete -f, nor its cgroup.
        printf '#!/bin/sh\nsh /hop.sh & exit 0\n' > "$T/rootfs/hop.sh"
        bundle hop "c['process']['args']=['sh','-c','sh /hop.sh; exec sleep 1000']
c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='pid']" >/dev/null
        (cd "$T/b-hop" && timeout -k 5 30 "$SBX_RUNC" --root "$T/root" run -d hop </dev/null >/dev/null 2>&1)
        hpid=$("$SBX_RUNC" --root "$T/root" state hop 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])' 2>/dev/null)
        hcg=$(sed -n 's/^[0-9]*:pids://p' "/proc/${hpid:-0}/cgroup" 2>/dev/null)
        hdir=/sys/fs/cgroup/pids$hcg
        s1=$(grep -vx "$hpid" "$hdir/cgroup.procs" 2>/dev/null | sort); sleep 0.3
        s2=$(grep -vx "$hpid" "$hdir/cgroup.procs" 2>/dev/null | sort)
        if [ -n "$hcg" ] && [ -n "$s1$s2" ]; then
                control "oci-hop-delete: the hopping process changes pid" "$([ "$s1" != "$s2" ] && echo changed)" changed
                "$SBX_RUNC" --root "$T/root" delete -f hop >/dev/null 2>&1
                sleep 0.5
                is "oci-hop-delete: no process of a hopping chain outlives delete -f (no pid namespace), nor its cgroup" \
                        "$(grep -lx "[0-9]*:pids:$hcg" /proc/[0-9]*/cgroup 2>/dev/null | wc -l):$([ -d "$hdir" ] && echo cgroup-left)" "0:"
        else
                skip "oci-hop-delete: no pids cgroup for the container here"
                "$SBX_RUNC" --root "$T/root" delete -f hop >/dev/null 2>&1
        fi
else
        skip "oci-seccomp-mknod, oci-device-rule: need root and a static busybox (sbx-runc runs as root)"
fi

# --- bidirectional controls (Trojan Source, CVE-2021-42574) in what a sandbox
# writes and sbx diff shows the operator for review before sbx commit: U+202E
# (RLO) printed raw reverses the rest of its line on a terminal that does bidi
# (VTE, Konsole, mlterm): 'A <RLO>hs.txt' reads as 'A txt.sh', a symlink's
# '-> target' is reordered, a patch line's code reads otherwise than it runs.
# Names, targets and patch lines are now quoted (\342\200\256), JSON gets
# \u202e; C1 controls already were. Root and rootless.
st13=$TMP/state13
ws13=$TMP/ws13
mkdir -p "$ws13"
printf 'access = "user"\n' > "$ws13/conf.py"
sx13() { timeout -k 5 60 "$SBX" "$1" --state-dir "$st13" "${@:2}"; }
if sx13 create --name bidi --workspace "$ws13" --workspace-mode overlay >/dev/null 2>&1; then
        sx13 exec bidi -- python3 -c '
import os
os.chdir("/workspace")
open("\u202ehs.txt", "w").write("x")
open("plain.txt", "w").write("x")
os.symlink("/etc/\u2066shadow\u2069", "lnk")
open("conf.py", "w").write("access = \"user\u202e \u2066# admin\u2069 \u2066\"\nok = 1\n")
' >/dev/null 2>&1
        out=$(sx13 diff --name-status bidi 2>&1)
        is "diff-bidi-name: no raw bidirectional control from a name or target in sbx diff" \
                "$(printf '%s' "$out" | grep -c $'\u202e\|\u2066\|\u2069')" 0
        like "diff-bidi-name: ... the name is printed quoted" "$out" '^A "\\342\\200\\256hs\.txt"$'
        like "diff-bidi-name: ... and the symlink's target" "$out" '^A lnk -> "/etc/\\342\\201\\246shadow\\342\\201\\251"$'
        like "diff-bidi-name: control: a plain name is printed as it is" "$out" '^A plain\.txt$'
        # the patch: quoted on a terminal only (script(1) gives sbx diff one)
        pt=$(script -qec "$(printf '%q ' timeout -k 5 60 "$SBX" diff --state-dir "$st13" bidi)" /dev/null 2>&1 | tr -d '\r')
        is "diff-bidi-patch: no raw bidirectional control from a changed line on the terminal" \
                "$(printf '%s' "$pt" | grep -c $'\u202e\|\u2066\|\u2069')" 0
        like "diff-bidi-patch: ... the line is printed quoted after its mark" "$pt" \
                '^\+"access = \\"user\\342\\200\\256 \\342\\201\\246# admin'
        like "diff-bidi-patch: control: a plain changed line is printed as it is" "$pt" '^\+ok = 1$'
        js=$(sx13 diff --json bidi 2>&1)
        is "diff-bidi-json: no raw bidirectional control in sbx diff --json" \
                "$(printf '%s' "$js" | grep -c $'\u202e\|\u2066\|\u2069')" 0
        is "diff-bidi-json: ... the JSON says the same names (\\u202e, \\u2066)" \
                "$(printf '%s' "$js" | python3 -c 'import json,sys; print(sorted(c["path"] + c.get("target", "") for c in json.load(sys.stdin)) == sorted(["\u202ehs.txt", "plain.txt", "conf.py", "lnk/etc/\u2066shadow\u2069"]))' 2>&1)" True
        sx13 rm -f bidi >/dev/null 2>&1
else
        skip "diff-bidi-*: no persistent sandbox with an overlay workspace here ($(sx13 create --name bidi2 --workspace "$ws13" --workspace-mode overlay 2>&1 | head -1))"
fi

# --- signals and process groups against a persistent sandbox's init, from
# inside (root and rootless): SIGSTOP, SIGSEGV and SIGKILL to pid 1 are
# dropped by the kernel (pid 1 of its namespace, no handler; init's own
# handlers count only senders outside, section 4); a process that makes
# itself a child subreaper and double-forks a setsid daemon (its own session
# and process group, reparented to the subreaper, not init) does not outlive
# sbx stop: the pid namespace ends with init.
if sx13 create --name sig >/dev/null 2>&1; then
        ipid=$(sx13 inspect sig | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["initPid"])')
        out=$(sx13 exec sig -- sh -c 'kill -STOP 1; a=$?; kill -SEGV 1; b=$?; kill -KILL 1; echo "$a$b$? $(sed -n "s/^State:.\(.\).*/\1/p" /proc/1/status)"' 2>&1)
        like "init-signals-inside: SIGSTOP, SIGSEGV, SIGKILL to pid 1 are sent (0) and leave init running (S or R, not T)" "$out" '^000 [SR]$' 
        is "init-signals-inside: ... the next exec runs" "$(timeout 20 "$SBX" exec --state-dir "$st13" sig -- echo alive 2>&1)" alive
        kill -STOP "$ipid"
        for i in $(seq 50); do grep -q '^State:.T' /proc/$ipid/status && break; sleep 0.1; done
        control "SIGSTOP from the host stops init (T)" "$(sed -n 's/^State:.\(.\).*/\1/p' /proc/$ipid/status)" T
        kill -CONT "$ipid"
        mark="sleep 3$$"
        sx13 exec sig -- python3 -c '
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)        # PR_SET_CHILD_SUBREAPER
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", [sys.argv[1], "1000"])
    os._exit(0)
time.sleep(0.5)
' "$mark" >/dev/null 2>&1 &
        for i in $(seq 50); do pgrep -f "^$mark 1000\$" >/dev/null && break; sleep 0.1; done
        control "subreaper-setsid: the daemon runs before sbx stop" "$(pgrep -fc "^$mark 1000\$")" 1
        sx13 stop sig >/dev/null 2>&1
        for i in $(seq 50); do pgrep -f "^$mark 1000\$" >/dev/null || break; sleep 0.1; done
        is "subreaper-setsid: no process of it is left after sbx stop" "$(pgrep -fc "^$mark 1000\$")" 0
        wait
        sx13 rm -f sig >/dev/null 2>&1
else
        skip "init-signals-inside, subreaper-setsid: no persistent sandbox here"
fi

# --- sbx's own messages quoting what a sandbox chose (the #! interpreter of
# its file): C0 controls and DEL were already '?', but a C1 CSI (U+009B as
# UTF-8, or the raw byte: a CSI to a terminal that takes 8-bit controls),
# a bidirectional control and bytes that are not UTF-8 went out raw. Now '?'
# per byte as well (error.c, sbx_text_scrub). sbx run and sbx exec.
printf '#!/nonexist\xc2\x9b2J\xe2\x80\xaeX\x9bY\n' > "$TMP/c1.sh"
chmod 755 "$TMP/c1.sh"
raw() { printf '%s' "$1" | LC_ALL=C grep -c $'\xc2\x9b\|\xe2\x80\xae\|\x9b'; }
out=$(timeout -k 5 60 "$SBX" run --ro-bind "$TMP/c1.sh:/c1.sh" -- /c1.sh 2>&1)
is "msg-c1-bidi (sbx run): no raw C1, bidi control or stray byte from the sandbox in sbx's message" "$(raw "$out")" 0
like "msg-c1-bidi (sbx run): control: the message still names the interpreter, '?' per byte" "$out" \
        "interpreter '/nonexist\?\?2J\?\?\?X\?Y'"
if sx13 create --name msg >/dev/null 2>&1; then
        sx13 exec msg -- sh -c "printf '#!/nonexist\302\2332J\342\200\256X\233Y\n' > /tmp/s; chmod 755 /tmp/s" >/dev/null 2>&1
        out=$(sx13 exec msg -- /tmp/s 2>&1)
        is "msg-c1-bidi (sbx exec): no raw C1, bidi control or stray byte in sbx's message" "$(raw "$out")" 0
        like "msg-c1-bidi (sbx exec): control: the message still names the interpreter" "$out" \
                "interpreter '/nonexist\?\?2J\?\?\?X\?Y'"
        sx13 rm -f msg >/dev/null 2>&1
else
        skip "msg-c1-bidi (sbx exec): no persistent sandbox here"
fi

done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 15 (red17): attacks from inside a sandbox on the path
# OpenClaw uses (docker exec -i into a persistent sandbox), sbx exec and sbx run.
# Found and fixed:
# - a pipe or socket as the command's stdin/stdout/stderr is handed over as
#   it is (only a file or a terminal goes through a relay): its open file
#   description is the caller's shell's too, and the file status flags a
#   command set there stayed after sbx returned. An O_NONBLOCK set inside
#   ended the operator's `... | while read l; do sbx run|exec ...; done`
#   after the first line (bash: read error: Resource temporarily
#   unavailable; the other lines silently skipped) and made a later `cat`
#   of the same pipe fail. Round 14 put back a terminal's flags only. Now
#   fds 0-2's flags are read before the command starts and put back when it
#   ends: sbx run (supervise.c), sbx exec/docker exec by the service and by
#   setns (join.c), the front end's warm exec (exec-front.c).
# - (the lead) a file as an exec's stdout/stderr: the front end's relay
#   spliced the pipe into it, and splice(2) takes the shared file offset when
#   it starts and stores it back when it returns, without write(2)'s lock;
#   blocked for the whole command, it put the offset back, and the caller's
#   writes meanwhile (its shell's echo; the front end's own error message
#   when init died: escape-execsvc's one CI flake) were overwritten. The
#   relay reads and writes now.
# Held (guards): the caller's stdio socket (node's, OpenClaw's docker exec)
# names the gateway by SO_PEERPIDFD, but pidfd_getfd of its fds, a signal
# and its namespaces through that pidfd are refused by the kernel, also
# under a profile allowing every call; 300 orphans double-forked by an exec
# are reaped by init; an exec's umask, cwd and environment do not reach the
# next exec; nice 19 on sbx run's autogroup stays the sandbox's.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
cat > "$TMP/r15.py" <<'PY'
import fcntl, os, socket, subprocess, sys
what = sys.argv[1]
def zombies():
    n = 0
    for d in os.listdir("/proc"):
        try:
            n += d.isdigit() and "\nState:\tZ" in open("/proc/%s/status" % d).read()
        except OSError:
            pass
    return n
if what == "nb":                # O_NONBLOCK on fd N (what a command may do to its own fd)
    fd = int(sys.argv[2])
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    sys.stderr.write("set\n")
elif what == "flags":
    fd = int(sys.argv[2])
    print("nonblock" if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK else "blocking")
elif what == "sock":            # CMD with a socket as stdin and stdout (node's child stdio)
    a, b = socket.socketpair()
    subprocess.run(sys.argv[2:], stdin=b, stdout=b, stderr=subprocess.DEVNULL, timeout=60)
    print("nonblock" if fcntl.fcntl(b.fileno(), fcntl.F_GETFL) & os.O_NONBLOCK else "blocking")
elif what == "holder":          # DIR CMD...: the caller (the gateway) holds DIR at fd 9; CMD's stdin is a socket to it
    a, b = socket.socketpair()
    os.dup2(os.open(sys.argv[2], os.O_PATH | os.O_DIRECTORY), 9, inheritable=False)
    r = subprocess.run(sys.argv[3:], stdin=b, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    print(r.stdout.decode().strip())
elif what == "peer":            # the socket's peer (the caller) by SO_PEERPIDFD: its fd 9, a signal, its netns
    import ctypes, errno
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    e = lambda r: "OK" if r >= 0 else errno.errorcode[ctypes.get_errno()]
    try:
        pidfd = int.from_bytes(socket.socket(fileno=os.dup(0)).getsockopt(socket.SOL_SOCKET, 77, 4), "little")
    except OSError as x:
        print("peerpidfd=" + errno.errorcode[x.errno]); sys.exit()
    fd = libc.syscall(438, pidfd, 9, 0)                                 # pidfd_getfd
    print("getfd=" + (e(fd) if fd < 0 else open(os.open("secret", os.O_RDONLY, dir_fd=fd)).read().strip()),
          "signal=" + e(libc.syscall(424, pidfd, 0, None, 0)),          # pidfd_send_signal, signal 0
          "netns=" + e(libc.ioctl(pidfd, 0xFF04, 0)))                   # PIDFD_GET_NET_NAMESPACE
elif what == "orphans":         # N double-forked orphans (init reaps them), then the zombies we see
    import time
    for _ in range(int(sys.argv[2])):
        if os.fork() == 0:
            if os.fork() == 0:
                os._exit(0)
            os._exit(0)
        os.wait()
    time.sleep(1)
elif what == "zombies":
    print(zombies())
elif what == "unreaped":        # N children of ours that exit and are not waited for
    import time
    for _ in range(int(sys.argv[2])):
        if os.fork() == 0:
            os._exit(0)
    time.sleep(0.5)
    print(zombies())
PY
P=$TMP/r15.py
R=(--ro-bind "$P:/r15.py")
lines() { { echo a; sleep 0.2; echo b; sleep 0.2; echo c; }; }
# loop CMD...: a `while read` loop running CMD for its first line; the
# producer writes the second only after CMD returned (and the loop's read
# waits on an empty pipe): the words the loop read
loop() {
        local m=$TMP/took.$RANDOM
        { echo a; for _ in $(seq 600); do [ -e "$m" ] && break; sleep 0.1; done; sleep 0.3; echo b; } |
                while read -r l; do printf '%s ' "$l"; [ "$l" != a ] || "$@" 2>/dev/null; touch "$m"; done
}

# --- the caller's pipes and sockets keep their file status flags
control "outside, O_NONBLOCK set on a shared stdin pipe stays (the next reader gets EAGAIN)" \
        "$(lines | { read -r x; python3 "$P" nb 0 2>/dev/null; python3 "$P" flags 0; })" nonblock
is "pipe-nonblock (run): O_NONBLOCK set inside on stdin is taken off the caller's pipe; set inside worked" \
        "$(lines | { read -r x; timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0 2>&1; python3 "$P" flags 0; } | tr '\n' ' ')" \
        "set blocking "
is "pipe-nonblock (run): a while-read loop around sbx run reads every line" \
        "$(loop timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0)" \
        "a b "
is "pipe-nonblock (run): ... and on stdout" \
        "$( (timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 1 2>/dev/null; python3 "$P" flags 1) | cat)" blocking
control "outside, O_NONBLOCK set on a socket as stdin stays" "$(python3 "$P" sock python3 "$P" nb 0)" nonblock
is "socket-nonblock (run): ... a socket's is taken off again" \
        "$(python3 "$P" sock timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0)" blocking
{ timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- sh -c 'echo a; sleep 0.8; echo b' </dev/null & sleep 0.3; echo one; wait; echo two; } > "$TMP/off.log"
is "file-offset (run): the caller's writes beside a relayed file stdout are kept" "$(tr '\n' ' ' < "$TMP/off.log")" "a one b two "
mkdir -p "$TMP/bin"
ln -sf "$(readlink -f "$SBX")" "$TMP/bin/docker"
# r15: execs through init's exec service (plain: the front end's warm path;
# docker exec: the full sbx); r15j: an exec allowlist, so each exec joins by setns
if sx create "${R[@]}" r15 >/dev/null && sx create "${R[@]}" --exec-allow '*' r15j >/dev/null; then
        for how in "exec -i r15 service" "exec -i r15j setns"; do
                set -- $how
                is "pipe-nonblock ($1 $2, $4): a while-read loop around it reads every line" \
                        "$(loop sx "$1" "$2" "$3" -- python3 /r15.py nb 0)" \
                        "a b "
                is "pipe-nonblock ($1 $2, $4): stdout's flags too" \
                        "$( (sx "$1" "$3" -- python3 /r15.py nb 1 2>/dev/null; python3 "$P" flags 1) | cat)" blocking
                is "socket-nonblock ($1 $2, $4): a socket as stdin (node's child stdio) gets its flags back" \
                        "$(python3 "$P" sock timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "$2" "$3" -- python3 /r15.py nb 0)" \
                        blocking
                # a file as stdout goes through a relay; the caller's shell
                # writes into the same open file meanwhile: nothing of
                # either overwritten (the front end's relay blocked in
                # splice(2) put the file offset back to 0 at the end)
                { sx "$1" "$3" -- sh -c 'echo a; sleep 0.8; echo b' </dev/null & sleep 0.3; echo one; wait; echo two; } > "$TMP/off.log"
                is "file-offset ($1 $2, $4): the caller's writes beside a relayed file stdout are kept" \
                        "$(tr '\n' ' ' < "$TMP/off.log")" "a one b two "
        done
else
        not_ok "pipe-nonblock: sbx create"
fi
sx rm -f r15 r15j >/dev/null 2>&1
# the drop-in (the default state root, as OpenClaw's docker has it)
if timeout -k 5 60 "$SBX" create "${R[@]}" r15d >/dev/null; then
        is "pipe-nonblock (docker exec -i): a while-read loop around it reads every line" \
                "$(loop timeout -k 5 60 "$TMP/bin/docker" exec -i r15d python3 /r15.py nb 0)" \
                "a b "
        is "socket-nonblock (docker exec -i): a socket as stdin and stdout, as OpenClaw's node gives it" \
                "$(python3 "$P" sock timeout -k 5 60 "$TMP/bin/docker" exec -i r15d python3 /r15.py nb 0)" blocking
        timeout 60 "$SBX" rm -f r15d >/dev/null
else
        not_ok "pipe-nonblock: sbx create for docker exec"
fi

# --- guards (held on main)
# The caller's socket (node's child stdio: OpenClaw's docker exec) names its
# peer, the gateway, by SO_PEERPIDFD (Linux 6.5): a pidfd of a host process
# of the sandbox's own uid (rootless). The kernel refuses what it could do:
# pidfd_getfd (ptrace access: the caller in another user namespace without
# CAP_SYS_PTRACE over the gateway's, commoncap), a signal (a pid namespace
# that is no descendant of the sandbox's: EINVAL), the gateway's namespaces
# (the same ptrace check: EACCES); also under a profile allowing every call.
mkdir -p "$TMP/gw"
echo "gateway-secret-$$" > "$TMP/gw/secret"
chmod -R a+rX "$TMP/gw"
ALLOW=$TMP/allow-all.json               # only sbx's always-on layer stays
printf '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[]}\n' > "$ALLOW"
out=$(python3 "$P" holder "$TMP/gw" python3 "$P" peer)
if [ "${out#peerpidfd=}" != "$out" ]; then
        skip "gateway-pidfd: no SO_PEERPIDFD on this kernel ($out)"
else
        control "outside, a process of the caller's uid takes the caller's fd, signals it and opens its netns" \
                "$out" "getfd=gateway-secret-$$ signal=OK netns=OK"
        want="getfd=EPERM signal=EINVAL netns=EACCES"
        is "gateway-pidfd (run): the caller's fd, a signal and its netns through its pidfd are refused" \
                "$(python3 "$P" holder "$TMP/gw" timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py peer)" "$want"
        is "gateway-pidfd (run, a profile allowing every call): ... refused too" \
                "$(python3 "$P" holder "$TMP/gw" timeout -k 5 60 "$SBX" run --no-tty --seccomp-profile "$ALLOW" "${R[@]}" -- python3 /r15.py peer)" "$want"
        if timeout -k 5 60 "$SBX" create --seccomp-profile "$ALLOW" "${R[@]}" r15g >/dev/null; then
                is "gateway-pidfd (docker exec -i, a profile allowing every call): ... refused too" \
                        "$(python3 "$P" holder "$TMP/gw" timeout -k 5 60 "$TMP/bin/docker" exec -i r15g python3 /r15.py peer)" "$want"
                timeout 60 "$SBX" rm -f r15g >/dev/null
        else
                not_ok "gateway-pidfd: sbx create"
        fi
fi
# init reaps the orphans an exec leaves (its zombies would hold pids until
# the pids limit); an exec's umask, cwd and environment stay its own
if sx create "${R[@]}" r15z >/dev/null; then
        control "a process that does not wait for its children leaves them zombies (the count sees them)" \
                "$(sx exec r15z -- python3 /r15.py unreaped 50)" 50
        sx exec r15z -- python3 /r15.py orphans 300
        is "orphans-reaped: 300 orphans double-forked by an exec leave no zombie in the sandbox" \
                "$(sx exec r15z -- python3 /r15.py zombies)" 0
        sx exec r15z -- sh -c 'umask 0; cd /tmp; export R15_LEAK=1'
        is "exec-state: the next exec has the sandbox's umask, workdir, environment" \
                "$(sx exec r15z -- sh -c 'echo $(umask) $(pwd) ${R15_LEAK:-unset}')" "0022 /workspace unset"
        sx rm -f r15z >/dev/null
else
        not_ok "orphans-reaped: sbx create"
fi
# a sandbox's autogroup (its CPU share under CFS) is its own: sbx run's pid 1
# has a session of its own, so nice 19 written to /proc/self/autogroup
# inside leaves the caller's session's autogroup alone
if [ ! -e /proc/self/autogroup ]; then
        skip "autogroup: this kernel has no autogroups (CONFIG_SCHED_AUTOGROUP)"
else
control "outside, a child writing /proc/self/autogroup sets its session's (the caller's)" \
        "$(setsid bash -c 'sh -c "echo 19 > /proc/self/autogroup"; cut -d" " -f3 /proc/self/autogroup')" 19
is "autogroup: nice 19 set inside sbx run leaves the caller's session's autogroup at its nice" \
        "$(setsid bash -c "n=\$(cut -d' ' -f3 /proc/self/autogroup); timeout -k 5 60 '$SBX' run --no-tty -- sh -c 'echo 19 > /proc/self/autogroup' >/dev/null 2>&1; echo \$((\$(cut -d' ' -f3 /proc/self/autogroup) - n))")" 0
fi

done_testing

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
# Held (guards): orphans double-forked by an exec are reaped by init (no
# zombie left); an exec's umask, cwd and environment do not reach the next
# exec; unshare(CLONE_NEWUSER) inside is EPERM; a setsid daemon left by
# docker exec (SIGTERM ignored) does not outlive docker stop, and docker
# start runs none of it again.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
cat > "$TMP/r15.py" <<'PY'
import fcntl, os, socket, subprocess, sys
what = sys.argv[1]
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
PY
P=$TMP/r15.py
R=(--ro-bind "$P:/r15.py")
lines() { { echo a; sleep 0.2; echo b; sleep 0.2; echo c; }; }
# loop CMD...: a `while read` loop running CMD for each line of a producer
# that writes the next line only after CMD returned (and the loop's read
# waits on an empty pipe): the words the loop read
loop() {
        local m=$TMP/took.$RANDOM
        { echo a; for n in b c; do
                for _ in $(seq 600); do [ -e "$m" ] && break; sleep 0.1; done
                rm -f "$m"; sleep 0.3; echo "$n"
          done; } | while read -r l; do printf '%s ' "$l"; "$@" 2>/dev/null; touch "$m"; done
}

# --- the caller's pipes and sockets keep their file status flags
control "outside, O_NONBLOCK set on a shared stdin pipe stays (the next reader gets EAGAIN)" \
        "$(lines | { read -r x; python3 "$P" nb 0 2>/dev/null; python3 "$P" flags 0; })" nonblock
is "pipe-nonblock (run): O_NONBLOCK set inside on stdin is taken off the caller's pipe; set inside worked" \
        "$(lines | { read -r x; timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0 2>&1; python3 "$P" flags 0; } | tr '\n' ' ')" \
        "set blocking "
is "pipe-nonblock (run): a while-read loop around sbx run reads every line" \
        "$(loop timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0)" \
        "a b c "
is "pipe-nonblock (run): ... and on stdout" \
        "$( (timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 1 2>/dev/null; python3 "$P" flags 1) | cat)" blocking
control "outside, O_NONBLOCK set on a socket as stdin stays" "$(python3 "$P" sock python3 "$P" nb 0)" nonblock
is "socket-nonblock (run): ... a socket's is taken off again" \
        "$(python3 "$P" sock timeout -k 5 60 "$SBX" run --no-tty "${R[@]}" -- python3 /r15.py nb 0)" blocking
mkdir -p "$TMP/bin"
ln -sf "$(readlink -f "$SBX")" "$TMP/bin/docker"
# r15: execs through init's exec service (plain: the front end's warm path;
# docker exec: the full sbx); r15j: an exec allowlist, so each exec joins by setns
if sx create "${R[@]}" r15 >/dev/null && sx create "${R[@]}" --exec-allow '*' r15j >/dev/null; then
        for how in "exec -i r15 service" "exec -i r15j setns"; do
                set -- $how
                is "pipe-nonblock ($1 $2, $4): a while-read loop around it reads every line" \
                        "$(loop sx "$1" "$2" "$3" -- python3 /r15.py nb 0)" \
                        "a b c "
                is "pipe-nonblock ($1 $2, $4): stdout's flags too" \
                        "$( (sx "$1" "$3" -- python3 /r15.py nb 1 2>/dev/null; python3 "$P" flags 1) | cat)" blocking
                is "socket-nonblock ($1 $2, $4): a socket as stdin (node's child stdio) gets its flags back" \
                        "$(python3 "$P" sock timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "$2" "$3" -- python3 /r15.py nb 0)" \
                        blocking
        done
else
        not_ok "pipe-nonblock: sbx create"
fi
sx rm -f r15 r15j >/dev/null 2>&1
# the drop-in (the default state root, as OpenClaw's docker has it)
if timeout -k 5 60 "$SBX" create "${R[@]}" r15d >/dev/null; then
        is "pipe-nonblock (docker exec -i): a while-read loop around it reads every line" \
                "$(loop timeout -k 5 60 "$TMP/bin/docker" exec -i r15d python3 /r15.py nb 0)" \
                "a b c "
        is "socket-nonblock (docker exec -i): a socket as stdin and stdout, as OpenClaw's node gives it" \
                "$(python3 "$P" sock timeout -k 5 60 "$TMP/bin/docker" exec -i r15d python3 /r15.py nb 0)" blocking
        timeout 60 "$SBX" rm -f r15d >/dev/null
else
        not_ok "pipe-nonblock: sbx create for docker exec"
fi

done_testing

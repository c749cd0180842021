#!/bin/bash
# SPDX-License-Identifier: MIT
# The caller's terminal after `sbx exec -i NAME -- CMD` without -t (and
# `docker exec -i`, which OpenClaw runs): a process the command left running
# in the persistent sandbox held the caller's /dev/pts/N as its stdin and
# stdout. It read what the user typed into their shell later and switched
# the terminal's echo off. Now the command gets pipes and a relay of sbx's,
# outside the sandbox, copies between them and the terminal while the
# command runs (launch/stdio-guard.c). A real pty (tty-caller.py, the "user"):
# each path that hands the caller's stdio to a sandbox, both directions (the
# command in the foreground still reads what is typed; a process left behind
# reads EOF and cannot touch the terminal, and the keystrokes reach the
# user's shell), with the same probe run outside a sandbox as the control.
# ^D, ^C, exit statuses and -t as before. sbx-runc exec: escape-oci.sh.
. "$(dirname "$0")/lib.sh"

CALLER=$(dirname "$0")/tty-caller.py
if ! python3 -c 'import os; os.openpty()' 2>/dev/null; then
        echo "1..0 # SKIP no pty can be made here (python3 os.openpty)"
        exit 0
fi
BOX=tty-$$
sx() { timeout -k 5 60 "$SBX" "$@"; }
on_exit "timeout 30 '$SBX' rm -f $BOX >/dev/null 2>&1; rm -rf '$TMP'"
if ! sx create "$BOX" >/dev/null; then
        not_ok "create a persistent sandbox"
        done_testing
fi
mkdir -p "$TMP/bin"
ln -s "$(readlink -f "$SBX")" "$TMP/bin/docker"
DOCKER=$TMP/bin/docker

# The process left behind: a second after the command returned it notes
# what its stdin and stdout are, turns the terminal's echo off through its
# stdout (a terminal's fd 1 is read-write), reads its stdin for 3 s, then
# its stdout for 1 s.
bg() {
        echo "exec 3<&0 4>&1; (sleep 1; readlink /proc/self/fd/3 >$1/bg.fd; readlink /proc/self/fd/4 >>$1/bg.fd; stty -echo <&4 2>/dev/null
                timeout 3 cat <&3 >$1/bg.read 2>/dev/null; timeout 1 cat <&4 >>$1/bg.read 2>/dev/null
                touch $1/bg.done) >/dev/null 2>&1 & echo started"
}
# user_leaves WHERE CMD...: CMD, run at a terminal, leaves bg() behind (its
# files in WHERE: the sandbox's /tmp, else a host dir); then the user types
# "later-secret" into the terminal. Sets $out (tty-caller's report) and $left.
user_leaves() {
        local where=$1 until
        shift
        if [ "$where" = /tmp ]; then
                sx exec "$BOX" rm -f /tmp/bg.fd /tmp/bg.read /tmp/bg.done 2>/dev/null
                until="'$SBX' exec $BOX test -e /tmp/bg.done"
        else
                rm -f "$where"/bg.*
                until="test -e $where/bg.done"
        fi
        out=$(timeout -k 5 60 python3 "$CALLER" --later later-secret --wait "${WAIT:-20}" --until "$until" \
                --ignore "sbx: exec: sandbox '$BOX' has no exec service" -- "$@")
        if [ "$where" = /tmp ]; then
                left=$(sx exec "$BOX" sh -c 'cut -d: -f1 /tmp/bg.fd | tr "\n" " "; echo "read=[$(cat /tmp/bg.read)]"' 2>/dev/null)
        else
                left=$(cut -d: -f1 "$where/bg.fd" 2>/dev/null | tr '\n' ' '; echo "read=[$(cat "$where/bg.read" 2>/dev/null)]")
        fi
}
field() { printf '%s\n' "$out" | sed -n "s/^$1: //p"; }

# --- control: the same process outside a sandbox, holding the terminal
# (it ignores the SIGHUP the terminal's session leader's exit sends: in
# a sandbox the command has a session of its own)
user_leaves "$TMP" sh -c "trap '' HUP; $(bg "$TMP")"
like "control: a process left holding the terminal reads what the user types next" "$left" \
        '^/dev/pts/[0-9]+ /dev/pts/[0-9]+ read=\[later-secret\]$'
control "... and turned its echo off; the user's shell got nothing" "$(field echo) $(field shell)" "off ''"

# --- every path that hands the caller's stdio to a sandbox
# (the sbx front end falls back to the full sbx on a terminal)
paths=("front end, exec service" "join (no exec service)" "docker exec -i" "docker exec (stdout only)")
sock=$(state_base)/sandboxes/$BOX/exec.sock
for i in 0 1 2 3; do
        p=${paths[$i]}
        case $i in
        0|1) cmd=("$SBX" exec -i "$BOX" --) ;;
        2) cmd=("$DOCKER" exec -i "$BOX") ;;
        3) cmd=("$DOCKER" exec "$BOX") ;;
        esac
        [ "$i" = 1 ] && mv "$sock" "$sock.moved"
        if [ "$i" != 3 ]; then
                out=$(timeout -k 5 60 python3 "$CALLER" --input typed-1 --wait 0.1 \
                        --ignore "sbx: exec: sandbox '$BOX' has no exec service" -- "${cmd[@]}" \
                        sh -c 'read l; echo "got=$l"; echo err >&2; exit 3')
                is "tty-fg-read ($p): the command reads what the user types; output, stderr, status as before" \
                        "$(field status) $(field out)" "3 'typed-1\\ngot=typed-1\\nerr\\n'"
        fi
        user_leaves /tmp "${cmd[@]}" sh -c "$(bg /tmp)"
        is "tty-bg-stdin ($p): the command's output reaches the terminal, its status as before" \
                "$(field status) $(field out)" "0 'started\\n'"
        want=pipe
        [ "$i" = 3 ] && want=/dev/null
        is "tty-bg-stdin ($p): a process left behind has pipes, not the terminal, and reads nothing typed later" \
                "$left" "$want pipe read=[]"
        is "tty-bg-stdin ($p): ... what the user types next reaches the user's shell" "$(field shell)" "'later-secret\\n'"
        is "tty-bg-modes ($p): ... and it cannot turn the terminal's echo off" "$(field echo)" on
        [ "$i" = 1 ] && mv "$sock.moved" "$sock"
done

# --- ^D, ^C, -t as before
out=$(timeout -k 5 60 python3 "$CALLER" --input abc --key '\x04' --wait 0.1 -- "$SBX" exec -i "$BOX" -- \
        sh -c 'cat; echo "cat=$?"')
is "tty-eof: ^D ends the command's input (cat exits 0)" "$(field status) $(field out)" "0 'abc\\nabc\\ncat=0\\n'"
out=$(timeout -k 5 60 python3 "$CALLER" --key '\x03' --wait 0.1 -- "$SBX" exec -i "$BOX" -- sleep 30)
is "tty-sigint: ^C reaches the command (130)" "$(field status)" 130
out=$(timeout -k 5 60 python3 "$CALLER" --input typed-t --wait 0.1 -- "$SBX" exec -it "$BOX" -- \
        sh -c 'read l; echo "got=$l"; tty; exit 5')
like "tty-t: -t still gives the command a pty of the sandbox's own (status as before)" \
        "$(field status) $(field out)" "^5 'typed-t\\\\ngot=typed-t\\\\n/dev/pts/[0-9]+\\\\n'$"

# --- sbx's own messages on the caller's terminal: an error naming what the
# sandbox chose (the #! interpreter of its file) carried its ESC and CR raw
sx exec "$BOX" python3 -c 'import os; open("/tmp/s", "w").write("#!/nonexist\x1b[2J\rX\n"); os.chmod("/tmp/s", 0o755)'
for c in "$SBX exec $BOX --" "$DOCKER exec $BOX"; do
        # shellcheck disable=SC2086
        out=$(timeout -k 5 60 $c /tmp/s 2>&1)
        is "msg-terminal ($(basename "${c%% *}") exec): no raw control byte from the sandbox in sbx's message" \
                "$(printf '%s' "$out" | tr -dc '\r\033' | wc -c)" 0
        like "msg-terminal ($(basename "${c%% *}") exec): control: the message still names the interpreter" "$out" \
                "resolve its interpreter '/nonexist.\[2J.X'"
done

# --- sbx run: its pid namespace ends with the command, so nothing it left
# holds the terminal once sbx returned (the terminal is passed as before)
mkdir -m 777 "$TMP/w"
timeout -k 5 60 "$SBX" run --no-tty --bind "$TMP/w:/w" -- touch /w/can-write
control "sbx run: the sandbox can write the bound dir" "$(ls "$TMP/w")" can-write
WAIT=3 user_leaves "$TMP/w" "$SBX" run --no-tty --bind "$TMP/w:/w" -- sh -c "$(bg /w)"
is "tty-run: sbx run --no-tty: what the command left is gone with it; the user's shell gets the keystrokes" \
        "$(field status) $(field shell) $(field echo) $([ -e "$TMP/w/bg.done" ] && echo ran || echo killed)" \
        "0 'later-secret\\n' on killed"

done_testing

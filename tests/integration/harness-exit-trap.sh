#!/bin/bash
# SPDX-License-Identifier: MIT
# The shell tests' EXIT trap (tap.sh on_exit; lib.sh's removes $TMP) runs in
# the test script's own shell only. bash also runs a script's EXIT trap in
# the child it forked for `cmd &` when a signal reaches that child before it
# exec'd cmd: escape-exec-front's early SIGTERMs to `sbx exec ... &` made such
# a child remove $TMP, and with it the state dir of the test's running
# sandbox (1 run in 5-8 under load: "sandbox fe is gone"). No sbx needed.
. "$(dirname "$0")/lib.sh"

N=100
# signal N background jobs at once, as a test does: cmd & kill -TERM $!
# (a short sleep: a TERM that reaches the child in bash's own handler can be
# lost, and the child then execs sleep regardless)
term_jobs() { for _ in $(seq $N); do sleep 0.3 & kill -TERM $! 2>/dev/null; wait $! 2>/dev/null; done; }

# control: a plain EXIT trap does run in such children (the race on_exit closes)
children=$(bash -c "$(declare -f term_jobs); N=$N"'; m=$$; trap "read -r p _ </proc/self/stat; [ \$p = $m ] || echo child" EXIT
        term_jobs' 2>/dev/null | grep -c child)
if [ "$children" -gt 0 ]; then
        ok "control: a plain EXIT trap ran in $children of $N signalled children before their exec"
else
        skip "control: this bash ran no EXIT trap in $N signalled children (the race did not show)"
fi

touch "$TMP/mark"
term_jobs
is "on_exit: lib.sh's trap (rm -rf \$TMP) ran in none of $N signalled children" \
        "$(test -f "$TMP/mark" && echo kept)" kept

# ... and still runs in the script itself, whichever way it ends
for how in 'true' 'exit 3' 'kill -TERM $$'; do
        d=$(bash -c '. "$1"; echo "$TMP"; '"$how" _ "$(dirname "$0")/lib.sh" 2>/dev/null)
        is "on_exit: the script's own end ($how) removes its \$TMP" "$(test -n "$d" && test ! -e "$d" && echo gone)" gone
done
rc=$(bash -c '. "$1"; exit 3' _ "$(dirname "$0")/lib.sh" >/dev/null 2>&1; echo $?)
is "on_exit: the script's exit status is kept" "$rc" 3
d=$(bash -c '. "$1"; on_exit "echo own >&2"; echo "$TMP"' _ "$(dirname "$0")/lib.sh" 2>"$TMP/own")
is "on_exit again (a test's own cleanup): that runs, and \$TMP is still removed" \
        "$(cat "$TMP/own"; test -n "$d" && test ! -e "$d" && echo gone)" "own
gone"

# A script that is pid 1 of its own pid namespace (sandbox-lib.sh) gets a
# SIGTERM from outside (meson's timeout) too, and removes its $TMP with the
# runtime dir lib.sh made inside it; without a handler pid 1 ignored it and
# was SIGKILLed, leaving /dev/shm/sbx-test.* behind.
if unshare --help 2>/dev/null | grep -q -- --kill-child; then
        own_user=()
        [ "$(id -u)" = 0 ] || own_user=(--map-current-user)
        rm -f "$TMP/pid1"
        unshare "${own_user[@]}" --pid --fork --mount-proc --kill-child bash -c \
                'unset XDG_RUNTIME_DIR; . "$1"; echo "$$ $TMP $XDG_RUNTIME_DIR" > "$2.new"; mv "$2.new" "$2"; sleep 60 & wait' \
                _ "$(dirname "$0")/lib.sh" "$TMP/pid1" >/dev/null 2>&1 &
        up=$!
        for _ in $(seq 100); do [ -s "$TMP/pid1" ] && break; sleep 0.05; done
        read -r nspid d x < "$TMP/pid1"
        is "pid 1 of a pid namespace: its runtime dir is inside its \$TMP" "$nspid ${x#"$d"/}" "1 xdg"
        kill -TERM "$(pgrep -P "$up" | head -1)"
        for _ in $(seq 100); do kill -0 "$up" 2>/dev/null || break; sleep 0.05; done
        if kill -0 "$up" 2>/dev/null; then
                not_ok "... SIGTERM from outside ends it"
                kill -KILL "$up"
        else ok "... SIGTERM from outside ends it"; fi
        wait "$up" 2>/dev/null
        is "... and its \$TMP (with the runtime dir) is removed" "$(test -n "$d" && test ! -e "$d" && echo gone)" gone
else
        for _ in 1 2 3; do skip "no unshare --kill-child (util-linux too old)"; done
fi
done_testing

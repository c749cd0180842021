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
done_testing

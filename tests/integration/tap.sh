# SPDX-License-Identifier: MIT
# TAP helpers of the shell tests (sourced by lib.sh, net-lib.sh and the e2e
# test): on_exit, ok, not_ok, skip, is, like, unlike, done_testing.
# on_exit CMD: the script's EXIT trap, run by the script's own shell only.
# bash also runs a script's EXIT trap in the child it forked for `cmd &` when
# a signal reaches that child before it exec'd cmd (bash 5.2: nearly every
# `cmd & kill -TERM $!`): the child would remove $TMP (with the state of
# every sandbox the test made) while the test goes on. The pid is the
# kernel's (/proc/self/stat, read by the shell itself): such a child can still
# see the parent's pid as its first $BASHPID (bash 5.2). harness-exit-trap.sh.
# SIGINT, SIGTERM and SIGHUP (meson's timeout, ^C) end the script through
# that trap too: a handler also lets them reach a script that is pid 1 of its
# own pid namespace (sandbox-lib.sh), which ignores a signal it has none for
# and was then SIGKILLed, leaving its $TMP and state behind.
# After CMD, whatever calls on_exit again: $_on_exit_always (lib.sh: remove
# its $TMP, with the runtime dir in it; a test's own trap replaced that).
on_exit() {
        trap "_on_exit_pid=; read -r _on_exit_pid _ </proc/self/stat 2>/dev/null
[ \"\${_on_exit_pid:-\$\$}\" != $$ ] || { $1
eval \"\${_on_exit_always:-}\"
}" EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        trap 'exit 129' HUP
}
tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
# is DESC GOT WANT
is() {
        if [ "$2" = "$3" ]; then ok "$1"; else
                not_ok "$1"; printf '#   got: %s\n#  want: %s\n' "$2" "$3" | head -20
        fi
}
# like DESC GOT REGEX (grep -E)
like() {
        if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else
                not_ok "$1"; printf '#   got: %s\n#  want: /%s/\n' "$2" "$3" | head -20
        fi
}
unlike() {
        if printf '%s\n' "$2" | grep -Eq -- "$3"; then
                not_ok "$1"; printf '#   got: %s\n#  must not match: /%s/\n' "$2" "$3" | head -20
        else ok "$1"; fi
}
done_testing() { echo "1..$tap_n"; exit $tap_failed; }

# SPDX-License-Identifier: MIT
# Helpers for the persistent-sandbox tests (issue 4), on top of lib.sh.

# The test runs in a pid namespace of its own (with its /proc), so the
# checks that count sbx-init processes or look for leftovers count this
# test's alone, never those of another job on the machine; when it ends, the
# kernel kills whatever it left. Its sandboxes' pids are the ones sbx shows
# (sbx runs in the same namespace). Unprivileged, the pid namespace needs a
# user namespace: one that maps the user to itself (-c), so sbx still runs
# as that user, unprivileged, with its own user namespaces nested below.
if [ -z "${SBX_TEST_PIDNS:-}" ] && unshare --help 2>/dev/null | grep -q -- --kill-child; then
        export SBX_TEST_PIDNS=1
        own_user=()
        [ "$(id -u)" = 0 ] || own_user=(--map-current-user)
        exec unshare "${own_user[@]}" --pid --fork --mount-proc --kill-child "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

# Every test uses its own state root, so parallel lanes and leftovers of
# other tests never meet.
export SBX_STATE="$TMP/state"
sbx() { "$SBX" "$1" --state-dir "$SBX_STATE" "${@:2}"; }
# For `... &`: the background job is sbx itself (signals reach it), not a subshell.
sbx_exec_bg() { exec "$SBX" exec --state-dir "$SBX_STATE" "$@"; }
sbx_create() { "$SBX" create --state-dir "$SBX_STATE" "$@"; }
sbx_run() { "$SBX" run --state-dir "$SBX_STATE" "$@"; }
WS_ROOT="$TMP/ws"
mkdir -p "$WS_ROOT"
export SBX_WORKSPACE_ROOT="$WS_ROOT"
ROOT="$SBX_STATE/sandboxes"

# A json field of one sandbox from `sbx ls --json`: field NAME KEY
field() {
        sbx ls --json | python3 -c 'import json,sys
for s in json.load(sys.stdin):
    if s["name"] == sys.argv[1]: print(s[sys.argv[2]])' "$1" "$2"
}
# Is the host pid alive (and not a zombie)?
# Alive = exists and is neither a zombie nor exiting (status read once, so a
# process reaped between two reads is not counted).
alive() {
        local st
        [ -n "$1" ] && [ "$1" != 0 ] || return 1
        st=$(grep '^State:' "/proc/$1/status" 2>/dev/null) || return 1
        case "$st" in *Z*|*X*) return 1 ;; esac
}
# Live sbx-init processes (this test's: see the pid namespace above).
inits() { local n=0 p; for p in $(pgrep -x sbx-init || true); do alive "$p" && n=$((n + 1)); done; echo $n; }
# inits, polled for up to 5 s until it equals $1: an init being killed takes a
# moment to exit under load, while a leaked one still fails the comparison.
inits_settle() {
        local n i
        for i in $(seq 50); do n=$(inits); [ "$n" = "$1" ] && break; sleep 0.1; done
        echo "$n"
}
# Live processes whose command line contains TEXT (zombies do not count:
# this host's pid 1 does not reap orphans).
live_count() {
        local n=0 p
        for p in $(pgrep -f "$1" || true); do alive "$p" && n=$((n + 1)); done
        echo $n
}
gone() { for _ in $(seq 50); do [ "$(live_count "$1")" = 0 ] && return 0; sleep 0.1; done; return 1; }
# mounts of the host whose line mentions TEXT
host_mounts() { grep -c -- "$1" /proc/self/mountinfo || true; }
# mtime games need GNU touch
age_busy() { touch -d "$2" "$ROOT/$1/busy"; }

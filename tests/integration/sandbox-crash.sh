#!/bin/bash
# SPDX-License-Identifier: MIT
# Crash safety (issue 4): sbx killed with SIGKILL at every stage of create
# and start, and a sandbox's init killed, followed by ls / prune: no process,
# no mount, no cgroup, no state is left, and workspace data survives.
. "$(dirname "$0")/sandbox-lib.sh"

state_names() { ls -A "$ROOT" 2>/dev/null | grep -v '^\.' | sort | tr '\n' ' '; }
inits_before=$(inits)
mounts_before=$(mount_count)

# --- SIGKILL of sbx create at 12 points in time (0 to 150 ms in)
delays="0 0.002 0.005 0.01 0.015 0.02 0.03 0.04 0.06 0.08 0.1 0.15"
i=0
for d in $delays; do
        i=$((i + 1))
        "$SBX" create --state-dir "$SBX_STATE" "c$i" >/dev/null 2>&1 & pid=$!
        sleep "$d"
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
done
sbx ls >/dev/null
listed=$(sbx ls -q | tr '\n' ' ')
is "after SIGKILLs during create + ls: the state dirs are exactly the sandboxes ls lists" "$(state_names)" "$listed"
for n in $(sbx ls -q); do
        s=$(field "$n" state)
        [ "$s" = running ] || [ "$s" = stopped ] || [ "$s" = created ] || not_ok "$n: unexpected state $s"
done
running=$(sbx ls --json | python3 -c 'import json,sys; print(sum(1 for s in json.load(sys.stdin) if s["state"]=="running"))')
is "every live sbx-init belongs to a listed running sandbox" "$(( $(inits_settle $((inits_before + running))) - inits_before ))" "$running"
for n in $(sbx ls -q); do
        if [ "$(field "$n" state)" = running ]; then
                is "a create that finished before the kill works: $n" "$(sbx exec "$n" -- echo ok)" ok
        fi
done
sbx rm -f $(sbx ls -q) >/dev/null 2>&1
is "after rm -f of the survivors: no sbx-init left" "$(inits_settle "$inits_before")" "$inits_before"
is "... no state dir left" "$(state_names)" ""
is "... no host mount left under the test's dirs" "$(host_mounts "$TMP")" 0

# --- a leftover of a create killed right after mkdir (no lock file yet)
mkdir -p "$ROOT/half"
sbx ls >/dev/null
is "ls removes a state dir a create left before its lock file" "$(state_names)" ""

# --- SIGKILL of sbx start at several points (the workspace data stays)
sbx_create st >/dev/null
echo precious > "$WS_ROOT/st/file"
for d in 0 0.005 0.01 0.02 0.04 0.08; do
        sbx stop st >/dev/null
        "$SBX" start --state-dir "$SBX_STATE" st >/dev/null 2>&1 & pid=$!
        sleep "$d"
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        s=$(field st state)
        case "$s" in
        running) [ "$(sbx exec st -- cat /workspace/file)" = precious ] || not_ok "start killed after $d s: running but broken" ;;
        stopped) ;;
        *) not_ok "start killed after $d s: state $s" ;;
        esac
done
ok "SIGKILL of sbx start at 6 points: the sandbox is running or stopped, never half"
sbx start st >/dev/null 2>&1
is "... and starts again" "$(sbx exec st -- cat /workspace/file)" precious
is "... with one init" "$(( $(inits_settle $((inits_before + 1))) - inits_before ))" 1

# --- SIGKILL of init
sbx exec st -- sh -c 'sleep 31501 >/dev/null 2>&1 &'
init=$(field st initPid)
kill -KILL "$init"
for _ in $(seq 30); do alive "$init" || break; sleep 0.1; done
gone "sleep 31501" && ok "init killed: the sandbox's processes die with it" || not_ok "init killed: processes die"
is "ls shows the sandbox stopped" "$(field st state)" stopped
sbx exec st -- true 2>/dev/null; rc=$?
is "exec into it fails cleanly (125)" "$rc" 125
is "no host mount under the test's state or workspace dirs" "$(host_mounts "$TMP")" 0
sbx prune --idle-hours 0 --max-age-days 0 > "$TMP/pruned"
is "prune removes a sandbox whose init crashed" "$(cat "$TMP/pruned")" st
is "... no state dir left" "$(state_names)" ""
is "... no sbx-init left" "$(inits_settle "$inits_before")" "$inits_before"
is "... the workspace data stays" "$(cat "$WS_ROOT/st/file")" precious

# --- ls-stale-socket: SIGKILL of init while a host process holds a copy of
# its exec service's listening socket (pidfd_getfd): the socket still
# listens, the sandbox is dead all the same (ls went by the socket before)
sbx_create held >/dev/null
init=$(field held initPid)
ino=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["svc_ino"])' "$ROOT/held/sandbox.json")
fdn=$(for f in /proc/$init/fd/*; do [ "$(readlink "$f")" = "socket:[$ino]" ] && basename "$f"; done)
python3 -c 'import ctypes, os, sys, time
fd = ctypes.CDLL(None, use_errno=True).syscall(438, os.pidfd_open(int(sys.argv[1])), int(sys.argv[2]), 0)
print("held" if fd >= 0 else "refused", flush=True)
time.sleep(30)' "$init" "${fdn:-3}" >"$TMP/holder" 2>&1 & holder=$!
for _ in $(seq 50); do [ -s "$TMP/holder" ] && break; sleep 0.1; done
if [ "$(cat "$TMP/holder")" = held ]; then
        is "control: with init alive and its socket copied, ls says running" "$(field held state)" running
        kill -KILL "$init"
        for _ in $(seq 30); do alive "$init" || break; sleep 0.1; done
        is "ls-stale-socket: init killed, its socket still listening (held on the host)" \
                "$(grep -c " $ino " /proc/net/unix)" 1
        is "... ls shows the sandbox stopped" "$(field held state)" stopped
        is "... and so does ls --json after a second look (the cache)" "$(field held state)" stopped
else
        skip "ls-stale-socket: pidfd_getfd of init's socket refused here ($(cat "$TMP/holder"))"
        skip "ls-stale-socket"; skip "ls-stale-socket"; skip "ls-stale-socket"
fi
kill $holder 2>/dev/null; wait $holder 2>/dev/null
sbx rm -f held >/dev/null

# --- SIGKILL of init, then a create of the same name reuses nothing stale
sbx_create again >/dev/null
kill -KILL "$(field again initPid)"; sleep 0.3
sbx_run --name again -- echo revived > "$TMP/out" 2>&1
is "run --name on a sandbox whose init died restarts it" "$(cat "$TMP/out")" revived
sbx rm -f again >/dev/null
is "no sbx-init left at the end" "$(inits_settle "$inits_before")" "$inits_before"
is "no state left at the end" "$(state_names)" ""
done_testing

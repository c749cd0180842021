#!/bin/bash
# SPDX-License-Identifier: MIT
# Concurrency (issue 4): N parallel `sbx run --name X` (create on first use,
# exec afterwards) make exactly one sandbox and all succeed; parallel creates
# of one name: one wins, the others fail cleanly; prune never removes a
# sandbox with a running exec; idle/age rules.
. "$(dirname "$0")/sandbox-lib.sh"

inits_before=$(inits)

N=12
for i in $(seq $N); do
        ( sbx_run --name shared -- sh -c "echo run-$i" > "$TMP/out.$i" 2>&1; echo $? > "$TMP/rc.$i" ) &
done
wait
fails=0
for i in $(seq $N); do
        [ "$(cat "$TMP/rc.$i")" = 0 ] && [ "$(cat "$TMP/out.$i")" = "run-$i" ] || fails=$((fails + 1))
done
is "$N parallel 'sbx run --name shared': all succeed with their own output" "$fails" 0
is "... exactly one sandbox exists" "$(sbx ls -q | tr '\n' ' ')" "shared "
n_inits=$(( $(inits_settle $((inits_before + 1))) - inits_before ))
is "... with exactly one init" "$n_inits" 1
if [ "$n_inits" != 1 ]; then
        for p in $(pgrep -x sbx-init); do echo "# sbx-init $p: $(ps -o ppid=,lstart=,stat= -p "$p")"; done
        echo "# recorded: $(field shared initPid)"
fi
id1=$(field shared id)
sbx_run --name shared -- true
is "a later run --name reuses it (same id)" "$(field shared id)" "$id1"
sbx_run --name shared -- sh -c 'exit 3'; rc=$?
is "run --name: the command's exit status" "$rc" 3

# parallel plain creates of one name: exactly one wins
for i in $(seq 8); do ( sbx_create dup > /dev/null 2>&1; echo $? > "$TMP/crc.$i" ) & done
wait
is "8 parallel 'sbx create dup': exactly one succeeds" "$(cat "$TMP"/crc.* | grep -c '^0$')" 1
is "... the others exit 1 (exists)" "$(cat "$TMP"/crc.* | grep -c '^1$')" 7

# parallel creates of distinct names (issue 16: they start at the same time,
# each under its own lock) while ls runs: all succeed, each is its own
# sandbox, and ls never shows one half made. Two lists run: a list that
# locked a new dir before its creator did once removed it as a dead create's
# leftover (the create failed with no message).
( for _ in $(seq 40); do sbx ls --json; done > "$TMP/ls-during" 2>&1 ) &
lsjob=$!
( for _ in $(seq 40); do sbx ls -q; done > /dev/null 2>&1 ) &
for i in $(seq 10); do ( sbx_create "p$i" > "$TMP/pid.$i" 2>&1; echo $? > "$TMP/prc.$i" ) & done
wait
is "10 parallel creates of distinct names all succeed" "$(cat "$TMP"/prc.* | grep -c '^0$')" 10
for i in $(seq 10); do
        [ "$(cat "$TMP/prc.$i")" = 0 ] || echo "# create p$i: exit $(cat "$TMP/prc.$i"): $(head -c 600 "$TMP/pid.$i")"
done
python3 - "$TMP/ls-during" > "$TMP/ls-check" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
bad = 0
for doc in re.split(r'(?m)^\[', text)[1:]:
    for s in json.loads('[' + doc):
        if s['name'].startswith('p') and (s['state'] != 'running' or s['initPid'] <= 0):
            bad += 1
print(bad)
EOF
is "... ls during them lists only finished, running ones" "$(cat "$TMP/ls-check")" 0
sbx ls --json > "$TMP/ls-after"
is "... ls lists 10 running with 10 ids and 10 inits" \
   "$(python3 -c 'import json,sys; l=[s for s in json.load(open(sys.argv[1])) if s["name"].startswith("p")]; print(len(l), len({s["id"] for s in l}), len({s["initPid"] for s in l if s["state"] == "running"}))' "$TMP/ls-after")" \
   "10 10 10"
fails=0
for i in $(seq 10); do [ "$(sbx exec "p$i" -- sh -c 'echo ok')" = ok ] || fails=$((fails + 1)); done
is "... an exec into each works" "$fails" 0
for i in $(seq 10); do sbx rm -f "p$i" > /dev/null & done
wait
is "... parallel rm -f removes them all" "$(sbx ls -q | grep -c '^p')" 0

# rm -f --all kills every init first, then removes each (16 sandboxes, one
# read of the state root for trash, issue 16 target 5): all gone, no init, nothing of theirs
# left in the state dir, in any cgroup hierarchy or in the mount table --
# also where inits were killed, stopped (SIGSTOP), frozen (pause) or the
# sandbox stopped before, and where a killed remover left its trash dir
ALL=$TMP/all-state
mkdir -m 0711 "$ALL"
for i in $(seq 16); do "$SBX" create --state-dir "$ALL" "a$i" > /dev/null & done
wait
all_json=$("$SBX" ls --state-dir "$ALL" --json)
all_pids=$(echo "$all_json" | python3 -c 'import json,sys; print(" ".join(str(s["initPid"]) for s in json.load(sys.stdin)))')
is "16 parallel creates for rm -f --all: 16 running" "$(echo "$all_json" | grep -c '"state": "running"')" 16
all_cgroups=$(for i in $(seq 16); do python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("cgroup") or "")' \
        "$ALL/sandboxes/a$i/sandbox.json"; done | sed -n 's|^/sys/fs/cgroup/\([^/]*/\)\{0,1\}\(.*sbx-run-.*\)$|\2|p' | sort -u)
n=0
for cg in $all_cgroups; do for h in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do [ -d "$h$cg" ] && { n=$((n + 1)); break; }; done; done
[ -z "$all_cgroups" ] || is "(control) each of their cgroups exists before the rm" "$n" "$(echo "$all_cgroups" | wc -l)"
pid_of() { echo "$all_json" | python3 -c 'import json,sys; print([s["initPid"] for s in json.load(sys.stdin) if s["name"] == sys.argv[1]][0])' "$1"; }
kill -9 "$(pid_of a3)" "$(pid_of a7)"
kill -STOP "$(pid_of a5)"
"$SBX" pause --state-dir "$ALL" a9 > /dev/null 2>&1
"$SBX" stop --state-dir "$ALL" a11 > /dev/null 2>&1
# a remover killed after setting a dir aside (renamed .rm-*, its lock let go)
mkdir -p "$ALL/sandboxes/.rm-0011223344556677/run/upper"
touch "$ALL/sandboxes/.rm-0011223344556677/sandbox.json"
out=$("$SBX" rm --state-dir "$ALL" -f --all); rc=$?
is "rm -f --all: exit 0" "$rc" 0
is "rm -f --all names the 16 it removed, each once" "$(echo "$out" | sort -V | tr '\n' ' ')" "$(seq 16 | sed 's/^/a/' | tr '\n' ' ')"
n=0
for p in $all_pids; do alive "$p" && n=$((n + 1)); done
is "... their 16 inits are dead (killed, stopped, frozen ones included)" "$n" 0
is "... none is listed, no state is left (no .rm- trash, no listing cache)" \
        "$(ls -A "$ALL/sandboxes" | grep -v '^\.lock$\|^\.by-id$'; ls "$ALL/sandboxes/.by-id"; "$SBX" ls --state-dir "$ALL" -q)" ""
is "... no mount under the state dir" "$(grep -c " $ALL" /proc/self/mountinfo)" 0
left=0
for cg in $all_cgroups; do
        for h in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do [ -d "$h$cg" ] && left=$((left + 1)); done
done
if [ -n "$all_cgroups" ]; then
        is "... none of their $(echo "$all_cgroups" | wc -l) cgroups is left in any hierarchy" "$left" 0
else
        skip "no cgroup recorded for these sandboxes (rootless without a delegated cgroup)"
fi

# prune: idle and age rules, never with a running exec
sbx_create idle >/dev/null
sbx_create fresh >/dev/null
age_busy idle "3 hours ago"
age_busy shared "3 hours ago"
age_busy dup "3 hours ago"
"$SBX" exec --state-dir "$SBX_STATE" dup -- sleep 3 & execpid=$!
sleep 0.5
# the exec just touched dup's last-use time: make it old again
age_busy dup "3 hours ago"
sbx prune --idle-hours 2 --max-age-days 0 > "$TMP/pruned"
is "prune --idle-hours 2 removes the idle ones, not one with a running exec" \
        "$(sort "$TMP/pruned" | tr '\n' ' ')" "idle shared "
is "... dup (busy) and fresh remain" "$(sbx ls -q | tr '\n' ' ')" "dup fresh "
wait $execpid
is "... and the running exec finished normally" "$?" 0
sbx prune --idle-hours 0 --max-age-days 0 > "$TMP/pruned"
is "prune with both rules 0 (disabled) removes nothing" "$(cat "$TMP/pruned")" ""
python3 - "$ROOT/fresh/sandbox.json" <<'PY'
import json, sys, time
p = sys.argv[1]; d = json.load(open(p)); d["created_ms"] = int(time.time() * 1000) - 3 * 86400 * 1000
json.dump(d, open(p, "w"))
PY
sbx prune --idle-hours 0 --max-age-days 2 --dry-run > "$TMP/pruned"
is "prune --dry-run names what it would remove" "$(cat "$TMP/pruned")" "would remove fresh"
sbx prune --idle-hours 0 --max-age-days 2 > "$TMP/pruned"
is "prune --max-age-days 2 removes one created 3 days ago" "$(cat "$TMP/pruned")" fresh
sbx rm -f dup >/dev/null
is "no sbx-init left" "$(inits_settle "$inits_before")" "$inits_before"
is "no state left" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""

# config hash and recreate
sbx_create --config-hash aaa --label sbx.agent=main cfg >/dev/null
is "--config-hash is recorded" "$(field cfg configHash)" aaa
sbx exec cfg -- sh -c 'echo x > /tmp/marker'
echo data > "$WS_ROOT/cfg/keep"
old=$(field cfg id)
sbx recreate --agent main >/dev/null
like "recreate --agent: a new sandbox (new id)" "$(field cfg id)" '^[0-9a-f]{64}$'
[ "$(field cfg id)" != "$old" ] && ok "... the id changed" || not_ok "... the id changed"
sbx exec cfg -- cat /tmp/marker >/dev/null 2>&1; rc=$?
is "... its processes and tmpfs are fresh" "$rc" 1
is "... the workspace data stays" "$(sbx exec cfg -- cat /workspace/keep)" data
is "... labels and hash are kept" "$(field cfg configHash)" aaa
sbx rm -f cfg >/dev/null

# a later run --name asking for another config: ls says changed, recreate applies it
sbx_run --name chg -- true
is "ls: config unchanged after the first run" "$(field chg configChanged)" False
is "run --name with other options still runs in the existing sandbox" \
        "$(sbx_run --name chg --hostname other -- hostname)" sbx
is "ls: config changed" "$(field chg configChanged)" True
like "ls table says changed" "$(sbx ls)" "chg .* changed"
sbx recreate chg >/dev/null
is "recreate applies the requested config" "$(sbx exec chg -- hostname)" other
is "ls: config unchanged after recreate" "$(field chg configChanged)" False
sbx rm -f chg >/dev/null
# --- a busy name holds nobody else up: while another sbx holds sandbox lk's
# lock (here flock(1), as a start, stop or rm of it would), create lk fails at
# once saying it exists, and an rm of lk waits for that lock without the state
# root's lock, so a create of another name goes on meanwhile.
sbx_create lk >/dev/null
# the holder is one process, a sleep that took the lock itself: with
# `flock FILE sleep 60` the sleep inherited flock(1)'s locked fd, so killing
# flock left the lock held and the rm below waited out the whole minute
python3 -c 'import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
os.set_inheritable(fd, True)
os.execvp("sleep", ["sleep", "60"])' "$ROOT/lk/lock" & holder=$!
for _ in $(seq 100); do flock -n "$ROOT/lk/lock" true || break; sleep 0.05; done
sbx_create lk >/dev/null 2>"$TMP/err"; rc=$?
is "busy-name create: exit 1 while lk's lock is held" "$rc" 1
like "... saying it exists" "$(cat "$TMP/err")" "sandbox 'lk' already exists"
alive $holder && ok "... without waiting for the lock's holder (still holding it)" || not_ok "... without waiting for the holder"
sbx rm -f lk >/dev/null 2>"$TMP/rm.err" & rmpid=$!
# the rm is blocked on lk's lock: a waiter (->) on its inode in /proc/locks
ino=$(stat -c %i "$ROOT/lk/lock")
for _ in $(seq 200); do grep -q -- "-> FLOCK.*:$ino " /proc/locks && break; sleep 0.05; done
like "busy-name rm: waits on lk's lock" "$(grep -- '->' /proc/locks)" ":$ino "
flock -n "$ROOT/.lock" true && ok "... with the state root's lock free" || not_ok "... with the state root's lock free"
like "... a create of another name runs meanwhile" "$(sbx_create lk2 2>&1)" '^[0-9a-f]{64}$'
alive $rmpid && ok "... (the rm still waits)" || not_ok "... (the rm still waits)"
kill $holder; wait $holder 2>/dev/null
wait $rmpid; is "... and removes lk once the lock is free" "$?" 0
is "lk is gone, lk2 is there" "$(test -e "$ROOT/lk" && echo lk; sbx ls -q)" lk2
sbx rm -f lk2 >/dev/null
done_testing

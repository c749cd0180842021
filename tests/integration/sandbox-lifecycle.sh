#!/bin/bash
# SPDX-License-Identifier: MIT
# Persistent sandboxes (issue 4): create, exec, processes that outlive an
# exec, init reaping orphans, exit codes, signals, killing the exec client,
# stop/start/rm leaving nothing behind, rm racing exec.
. "$(dirname "$0")/sandbox-lib.sh"

mounts_before=$(mount_count)
id=$(sbx_create box 2>"$TMP/err"); rc=$?
is "create: exit 0" "$rc" 0
like "create prints a 64-hex id" "$id" '^[0-9a-f]{64}$'
is "create: the state dir exists" "$(test -d "$ROOT/box" && echo yes)" yes
is "create: the default workspace is made under the workspace root" "$(test -d "$WS_ROOT/box" && echo yes)" yes
sbx_create box >/dev/null 2>"$TMP/err"; rc=$?
is "create of an existing name: exit 1" "$rc" 1
like "... saying it exists" "$(cat "$TMP/err")" "already exists"
sbx_create 'bad/name' >/dev/null 2>"$TMP/err"; rc=$?
is "create with an invalid name: exit 2" "$rc" 2
init=$(field box initPid)
alive "$init" && ok "init runs on the host as pid $init" || not_ok "init runs"
is "init is sbx-init" "$(cat /proc/$init/comm)" "sbx-init"
rss=$(awk '/VmRSS/ {print $2}' /proc/$init/status)
[ "$rss" -le 256 ] && ok "init RSS ${rss} KiB <= 256 KiB" || not_ok "init RSS ${rss} KiB <= 256 KiB"
is "a running sandbox adds no host mount" "$(host_mounts "$TMP")" 0

# --- exec basics
is "exec: stdout passes through" "$(sbx exec box -- echo hello)" hello
is "exec: the sandbox's pid 1 is init" "$(sbx exec box -- cat /proc/1/comm)" sbx-init
is "exec: default workdir /workspace" "$(sbx exec box -- pwd)" /workspace
is "exec -w" "$(sbx exec -w /tmp box -- pwd)" /tmp
is "exec -e" "$(sbx exec -e FOO=bar box -- sh -c 'echo $FOO')" bar
# --network container:NAME of `sbx run --state-dir D` finds NAME among D's
# sandboxes (it looked in the default root); the default root (here an
# empty one) has no box
mkdir -p "$TMP/xdg-empty" && chmod 700 "$TMP/xdg-empty"
box_net=$(sbx exec box -- readlink /proc/self/ns/net)
is "run --state-dir D --network container:box joins D's box" \
        "$(XDG_RUNTIME_DIR=$TMP/xdg-empty sbx_run --network container:box --dangerously-allow-container-namespace-join \
                -- readlink /proc/self/ns/net 2>&1)" "$box_net"
out=$(XDG_RUNTIME_DIR=$TMP/xdg-empty "$SBX" run --network container:box --dangerously-allow-container-namespace-join \
        -- true 2>&1); rc=$?
is "... without --state-dir: exit 125, No such sandbox (once, no errno text after it)" "$rc/$out" \
        "125/sbx run: network 'container:box': No such sandbox: box"
printf 'A=1\n# comment\n\nB=two words\n' > "$TMP/envf"
is "exec --env-file" "$(sbx exec --env-file "$TMP/envf" box -- sh -c 'echo "$A|$B"')" "1|two words"
if [ "$(id -u)" = 0 ]; then
        is "exec -u (root: 65536 ids mapped)" "$(sbx exec -u 1000:1000 box -- id -u 2>&1)" 1000
else
        sbx exec -u 1000:1000 box -- id -u >/dev/null 2>"$TMP/err"; rc=$?
        is "exec -u to an id unprivileged sbx cannot map: 125" "$rc" 125
        like "... naming the step" "$(cat "$TMP/err")" "setresgid|setresuid"
fi
sbx exec box -- sh -c 'exit 7'; is "exec: the command's exit status" "$?" 7
sbx exec box -- /nonexistent 2>/dev/null; is "exec: command not found -> 127" "$?" 127
sbx exec box -- sh -c 'kill -SEGV $$'; is "exec: killed by SIGSEGV -> 139" "$?" 139
sbx exec nosuch -- true 2>"$TMP/err"; rc=$?
is "exec into a missing sandbox: exit 1" "$rc" 1
like "... 'No such sandbox'" "$(cat "$TMP/err")" "No such sandbox"
# a failed exec/create prints its cause on one line (the errno's text), as sbx run does
# (as root -u 1000 takes the setns join, else init's exec service)
joinu=""; [ "$(id -u)" = 0 ] && joinu="-u 1000:1000"
for u in "" ${joinu:+"$joinu"}; do
        sbx exec $u -w /nonexistent box -- true 2>"$TMP/err"; rc=$?
        is "exec $u -w /nonexistent: exit 125" "$rc" 125
        is "... one line naming the path and the cause" "$(cat "$TMP/err")" \
                "sbx exec: --workdir: chdir '/nonexistent': No such file or directory"
        sbx exec $u box -- /nonexistent 2>"$TMP/err"
        is "exec $u of a missing command: one line naming it and the cause" "$(cat "$TMP/err")" \
                "sbx exec: resolve '/nonexistent' in the sandbox: No such file or directory"
done
is "control: the same workdir that exists works" "$(sbx exec -w /tmp box -- pwd)" /tmp
is "exec: stdin is /dev/null without -i" "$(echo data | sbx exec box -- cat)" ""
is "exec -i: stdin passes through" "$(echo data | sbx exec -i box -- cat)" data
is "exec: no capabilities" "$(sbx exec box -- grep CapEff /proc/self/status)" "$(printf 'CapEff:\t0000000000000000')"
is "exec: no_new_privs" "$(sbx exec box -- grep NoNewPrivs /proc/self/status)" "$(printf 'NoNewPrivs:\t1')"
like "exec: seccomp filter installed" "$(sbx exec box -- grep Seccomp: /proc/self/status)" "Seccomp:[[:space:]]+2"
is "exec: the sandbox's pid namespace (init's host pid $init is not visible)" \
        "$(sbx exec box -- sh -c "test -e /proc/$init && echo visible || echo hidden")" hidden
if command -v script >/dev/null; then
        out=$(script -qc "'$SBX' exec --state-dir '$SBX_STATE' -t box -- tty" /dev/null </dev/null | tr -d '\r\000')
        like "exec -t: a terminal from the sandbox's own devpts" "$out" '/dev/pts/[0-9]+$'
else
        skip "exec -t: script(1) is not installed"
fi
is "exec without -t: no terminal" "$(sbx exec box -- sh -c 'tty || true')" "not a tty"
is "exec by id prefix" "$(sbx exec "${id:0:12}" -- echo byid)" byid
is "exec by full id" "$(sbx exec "$id" -- echo byid)" byid

# --- a background process outlives its exec, and the next one sees and kills it
sbx exec box -- sh -c 'sleep 31401 >/dev/null 2>&1 &'
# (under load the forked shell may not have exec'd sleep yet: wait for it)
for _ in $(seq 30); do [ "$(sbx exec box -- sh -c 'ps -eo comm | grep -c sleep')" = 1 ] && break; sleep 0.1; done
is "background process outlives the exec that started it" "$(sbx exec box -- pgrep -c -x sleep)" 1
is "... is visible in the sandbox's ps" "$(sbx exec box -- sh -c 'ps -eo comm | grep -c sleep')" 1
sbx exec box -- pkill -f 'sleep 31401'; sleep 0.3
is "... and killable from the next exec" "$(sbx exec box -- pgrep -c -f 'sleep 31401')" 0
# --- init reaps orphans
sbx exec box -- sh -c '(sleep 0.2 &) ; sleep 0.1'
sleep 0.6
is "init reaps orphans (no zombie in the sandbox)" "$(sbx exec box -- sh -c 'ps -eo stat | grep -c ^Z')" 0

# --- killing the exec client kills what it started
sbx_exec_bg box -- sleep 31402 & pid=$!
sleep 0.5
kill -TERM $pid; wait $pid; rc=$?
is "SIGTERM to the exec client: 143" "$rc" 143
gone "sleep 31402" && ok "... the process inside died" || not_ok "... the process inside died"
sbx_exec_bg box -- sh -c 'sleep 31403; true' & pid=$!
sleep 0.5
kill -TERM $pid; wait $pid
gone "sleep 31403" && ok "SIGTERM reaches the command's whole process group" || not_ok "SIGTERM reaches the process group"
sbx_exec_bg box -- sleep 31404 & pid=$!
sleep 0.5
kill -KILL $pid; wait $pid 2>/dev/null
gone "sleep 31404" && ok "SIGKILL of the exec client kills the process inside" || not_ok "SIGKILL of the client kills the process inside"
busy=$(sbx exec box -- sleep 2 & sleep 0.5; field box runningExecs); wait
is "ls counts a running exec" "$busy" 1

# --- ls
like "ls lists it as running" "$(sbx ls)" "box +${id:0:12} +running"
is "ls --json: state" "$(field box state)" running
is "ls --json: config unchanged" "$(field box configChanged)" False

# --- stop / start
is "ls --json: never stopped: exitCode -1, finishedMs 0" "$(field box exitCode) $(field box finishedMs)" "-1 0"
sbx exec box -- sh -c 'sleep 31405 >/dev/null 2>&1 &'
echo keep > "$WS_ROOT/box/data"
sbx stop box >/dev/null; rc=$?
is "stop: exit 0" "$rc" 0
alive "$init" && not_ok "stop: init is gone" || ok "stop: init is gone"
gone "sleep 31405" && ok "stop: every sandbox process is gone" || not_ok "stop: every sandbox process is gone"
is "stop: state stopped" "$(field box state)" stopped
like "stop: exitCode 143 (init: 128+SIGTERM), finishedMs set" "$(field box exitCode) $(field box finishedMs)" '^143 [1-9][0-9]{12}$'
sbx exec box -- true 2>"$TMP/err"; rc=$?
is "exec into a stopped sandbox fails (125)" "$rc" 125
like "... saying it is not running" "$(cat "$TMP/err")" "not running"
sbx start box >/dev/null
is "start: running again" "$(sbx exec box -- cat /workspace/data)" keep

# --- rm
sbx rm box 2>"$TMP/err"; rc=$?
is "rm of a running sandbox without -f fails" "$rc" 125
like "... and says to use -f" "$(cat "$TMP/err")" "-f"
init=$(field box initPid)
sbx rm -f box >/dev/null; rc=$?
is "rm -f: exit 0" "$rc" 0
alive "$init" && not_ok "rm -f: init is gone" || ok "rm -f: init is gone"
is "rm -f: no state dir left" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""
is "rm -f: no id link left" "$(ls -A "$ROOT/.by-id")" ""
is "rm -f: the workspace data stays" "$(cat "$WS_ROOT/box/data")" keep
is "no host mount under the test's state or workspace dirs" "$(host_mounts "$TMP")" 0
sbx rm -f box 2>"$TMP/err"; rc=$?
is "rm of a missing sandbox: exit 1" "$rc" 1
like "... 'No such sandbox'" "$(cat "$TMP/err")" "No such sandbox"

# --- rm -f racing exec: execs end cleanly (ok, killed, or no such sandbox)
sbx_create race >/dev/null
for i in $(seq 6); do (sbx exec race -- sleep 5.0314 >/dev/null 2>&1; echo $? >> "$TMP/race") & done
sleep 0.3
sbx rm -f race >/dev/null & rmpid=$!
for i in $(seq 6); do (sbx exec race -- true >/dev/null 2>&1; echo $? >> "$TMP/race") & done
wait
bad=$(grep -vxE '0|1|125|137' "$TMP/race" | tr '\n' ' ')
is "rm -f racing 12 execs: every exec returns 0, 1, 125 or 137" "$bad" ""
is "rm -f racing execs: the sandbox is gone" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""
is "... and so are its processes" "$(live_count 'sleep 5.0314')" 0

# --- --no-start, then start; pause/unpause
sbx_create --no-start --label a=b --label team=x lazy >/dev/null
is "--no-start: state created" "$(field lazy state)" created
is "--filter label=" "$(sbx ls -q --filter label=team=x)" lazy
is "--filter on a missing label" "$(sbx ls -q --filter label=team=y)" ""
sbx start lazy >/dev/null
sbx exec lazy -- sh -c 'sleep 31406 >/dev/null 2>&1 &'
sbx pause lazy >/dev/null
is "pause: state paused" "$(field lazy state)" paused
p=$(pgrep -f 'sleep 31406' | head -1)
# issue 15: stopped by SIGSTOP, or frozen by the cgroup freezer where the
# sandbox has one (v1 freezer.state, v2 cgroup.events; frozen v1 tasks show D)
frozen_state() {
        local fz v2
        fz=$(awk -F: '$2=="freezer"{print $3}' /proc/$1/cgroup)
        v2=$(awk -F: '$1=="0"{print $3}' /proc/$1/cgroup)
        if [ -n "$fz" ] && [ "$fz" != / ]; then cat "/sys/fs/cgroup/freezer$fz/freezer.state"
        elif [ -n "$v2" ] && [ "$v2" != / ] && [ -e "/sys/fs/cgroup$v2/cgroup.events" ]; then
                grep -q 'frozen 1' "/sys/fs/cgroup$v2/cgroup.events" && echo FROZEN
        fi
}
like "pause: processes are stopped (or their cgroup frozen)" \
        "$(grep State: /proc/$p/status) $(frozen_state $p)" "stopped|T|FROZEN"
sbx unpause lazy >/dev/null
like "unpause: processes run" "$(grep State: /proc/$p/status)" "sleeping|S"
sbx rm -f lazy >/dev/null
gone "sleep 31406" && ok "rm -f of a sandbox: its processes are gone" || not_ok "rm -f: processes gone"
# --setup-command and --exec-allow on a persistent sandbox: the setup ran
# once in it, the record's strings are its own (no double free)
sbx_create --setup-command 'touch /tmp/setup-ran' --exec-allow '/usr/bin/*' --exec-allow '/bin/*' setup >/dev/null 2>"$TMP/setup.err"; rc=$?
is "create --setup-command --exec-allow: exit 0" "$rc" 0
is "create --setup-command: the setup ran inside before the first exec" "$(sbx exec setup -- ls /tmp 2>&1)" setup-ran
sbx rm -f setup >/dev/null
out=$(sbx_create --setup-command 'exit 3' failing 2>&1); rc=$?
is "create with a failing --setup-command: exit 125" "$rc" 125
like "the error names the setupCommand and its status" "$out" "setupCommand 'exit 3' failed with exit status 3"
is "the failed create left no sandbox" "$(sbx ls -q)" ""
is "nothing left in the state root" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""
# --- ls keeps its columns aligned with a long name; rm --all
long=a-very-long-sandbox-name-that-is-longer-than-the-name-column-of-ls
sbx_create --no-start "$long" >/dev/null
sbx_create --no-start short >/dev/null
sbx_create short2 >/dev/null
out=$(sbx ls)
cols=$(awk 'NR == 1 { print index($0, "ID") } NR > 1 { print index($0, $2) }' <<<"$out" | sort -u)
is "ls: the ID column starts at one offset on every row despite a long name" "$(wc -l <<<"$cols")" 1
like "ls: the long name is shown whole" "$out" "$long "
sbx rm --all >/dev/null 2>"$TMP/err"; rc=$?
is "rm --all without -f: a running sandbox makes it fail (exit 125)" "$rc" 125
is "rm --all without -f: the stopped ones are gone, the running one stays" "$(sbx ls -q)" short2
sbx rm -f --all short2 >/dev/null 2>"$TMP/err"; rc=$?
is "rm --all with a NAME: bad usage" "$rc" 2
like "... saying to give one of them" "$(cat "$TMP/err")" "give one of them"
out=$(sbx rm -f --all); rc=$?
is "rm -f --all: exit 0" "$rc" 0
is "rm -f --all: prints each removed name" "$out" short2
is "rm -f --all: no sandbox is left" "$(sbx ls -q)" ""
is "rm -f --all: nothing left in the state root" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""
is "rm -f --all with nothing to remove: exit 0" "$(sbx rm -f --all; echo $?)" 0
sbx rm --bogus x 2>/dev/null; is "rm with an unknown option: bad usage (2)" "$?" 2
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx run --scope (issue 4 + the policy engine): the scope's sandbox is the
# one OpenClaw would use (its container name, workspace and labels, as
# `sbx explain` resolves them), created on first use, shared by parallel
# runs, exec'd into afterwards; sessions of session scope get their own.
. "$(dirname "$0")/sandbox-lib.sh"

OC="$TMP/oc"
mkdir -p "$OC/agent-main"
cat > "$OC/openclaw.json" <<JSON
{ agents: { defaults: { sandbox: { mode: "all", scope: "session", workspaceRoot: "$OC/sandboxes" } },
            list: [ { id: "main", workspace: "$OC/agent-main" } ] } }
JSON
export HOME="$OC"
run_scope() { "$SBX" run --state-dir "$SBX_STATE" --config "$OC/openclaw.json" "$@" 2>>"$TMP/notes"; }

for i in $(seq 8); do
        ( run_scope --scope agent --agent main -- sh -c "echo run-$i" > "$TMP/out.$i"; echo $? > "$TMP/rc.$i" ) &
done
wait
fails=0
for i in $(seq 8); do [ "$(cat "$TMP/rc.$i")" = 0 ] && [ "$(cat "$TMP/out.$i")" = "run-$i" ] || fails=$((fails + 1)); done
is "8 parallel 'sbx run --scope agent --agent main': all succeed" "$fails" 0
is "... one sandbox" "$(sbx ls -q | wc -l | tr -d ' ')" 1
name=$(sbx ls -q)
like "... named as OpenClaw names it" "$name" '^openclaw-sbx-workspace-[0-9a-f]{32}$'
sed 's/scope: "session"/scope: "agent"/' "$OC/openclaw.json" > "$OC/agent.json"
want=$("$SBX" explain --config "$OC/agent.json" --agent main --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["containerName"], d["scopeKey"])')
is "... the container name and scope key 'sbx explain' resolves for scope agent" \
        "$name $(sbx ls --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["labels"]["openclaw.sessionKey"])')" "$want"
like "... an agent-scope key" "$(sbx ls --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["labels"]["openclaw.sessionKey"])')" '^agent:main:workspace:[0-9a-f]{32}$'
like "... its workspace is the scope's dir under workspaceRoot" "$(field "$name" workspace)" "^$OC/sandboxes/workspace-[0-9a-f]{32}$"
run_scope --scope agent --agent main -- sh -c 'echo kept > /workspace/f; sleep 31601 >/dev/null 2>&1 &'
is "a later run execs into the same sandbox (a process from the last run is there)" \
        "$(run_scope --scope agent --agent main -- pgrep -c -x sleep)" 1
is "... and the workspace file is on the host" "$(cat "$(field "$name" workspace)/f")" kept
run_scope --scope session --agent main --session s1 -- true
run_scope --scope session --agent main --session s2 -- true
is "session scope: one sandbox per session" "$(sbx ls -q | wc -l | tr -d ' ')" 3
run_scope --scope shared -- true
like "shared scope: openclaw-sbx-shared" "$(sbx ls -q | tr '\n' ' ')" "openclaw-sbx-shared"
old=$(field "$name" id)
sbx recreate --agent main >/dev/null
[ "$(field "$name" id)" != "$old" ] && ok "recreate --agent main rebuilds its sandboxes" || not_ok "recreate --agent main"
is "... the workspace data stays" "$(run_scope --scope agent --agent main -- cat /workspace/f)" kept
run_scope --scope galaxy -- true 2>/dev/null; rc=$?
is "--scope with a bad value: exit 2" "$rc" 2
sbx rm -f $(sbx ls -q) >/dev/null
is "nothing left" "$(ls -A "$ROOT" | grep -v '^\.' || true)" ""
done_testing

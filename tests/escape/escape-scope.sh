#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (red team round 6): one OpenClaw session against the others.
# OpenClaw runs many sessions' tools through sbx (scope session / agent /
# shared, `docker exec` into a persistent sandbox); the model of one session
# runs code in its own sandbox and aims at another session's or agent's
# sandbox, data or later execs. Each attack runs from inside, with a control.
. "$(dirname "$0")/lib.sh"

export HOME=$TMP/home
mkdir -p "$HOME/.openclaw"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$TMP/run}
mkdir -p "$XDG_RUNTIME_DIR"
STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
secret=$TMP/host-secret
mkdir -p "$secret"
echo "scope-secret-$$" > "$secret/s"
chmod 755 "$secret"
chmod 644 "$secret/s"

# --- a shared-scope sandbox plants the workspace of another scope. OpenClaw
# mounts the whole workspaceRoot read-write at a shared-scope sandbox's
# /workspace (docker-surface.md 1.5); every other session's and agent's
# workspace dir (<workspaceRoot>/<slug>) lies in it. Replaced by a symlink to
# a host directory, it was followed when that scope's sandbox was created
# next: the victim's /workspace was the host directory, readable and
# writable (as root through the idmapped mount: as the directory's owner).
# A mount source whose last component is a symlink is refused now.
wsroot=$TMP/wsroot
mkdir -p "$wsroot"
cat > "$TMP/oc.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session', workspaceRoot: '$wsroot' } },
            list: [ { id: 'main', default: true }, { id: 'pub', sandbox: { scope: 'shared' } } ] } }
J
victim() { sx create --scope session --config "$TMP/oc.json" --agent main --session "agent:main:$1" 2>&1 | grep -v ' note: '; }
vdir() {
        "$SBX" explain --config "$TMP/oc.json" --agent main --session "agent:main:$1" --json 2>/dev/null |
                python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["hostWorkspaceDir"], d["containerName"])'
}
if sx create --scope shared --config "$TMP/oc.json" --agent pub --session agent:pub:attacker >/dev/null 2>&1; then
        read -r vws vname < <(vdir victim)
        read -r cws cname < <(vdir control)
        control "the shared sandbox's /workspace is the workspaceRoot (it sees the other scopes' dirs)" \
                "$(mkdir -p "$cws" && sx exec openclaw-sbx-shared -- ls /workspace 2>/dev/null)" "$(basename "$cws")"
        out=$(sx exec openclaw-sbx-shared -- ln -s "$secret" "/workspace/$(basename "$vws")" 2>&1)
        is "the shared sandbox replaced the victim's workspace dir with a symlink to a host directory" \
                "$out|$(readlink "$vws")" "|$secret"
        out=$(victim victim)
        like "scope-shared-plant-workspace: the victim scope's sandbox is refused, the symlink named" \
                "$out" "is a symbolic link .*$(basename "$vws")|$(basename "$vws").*is a symbolic link"
        is "scope-shared-plant-workspace: ... and no sandbox of it reads or writes the host directory" \
                "$(sx exec "$vname" -- sh -c 'cat /workspace/s; echo pwn > /workspace/w' 2>/dev/null; ls "$secret")" s
        out=$(victim control)
        like "control: the same create with its real workspace dir works" "$out" '^[0-9a-f]{64}$'
        is "control: ... and its /workspace is that dir" \
                "$(echo "ws-$$" > "$cws/f" && sx exec "$cname" -- cat /workspace/f 2>&1 | grep -v ' note: ')" "ws-$$"
else
        not_ok "create the shared-scope sandbox"
fi

# --- the same through the docker front end, as OpenClaw calls it: the
# workspace (-v <root>/<slug>:/workspace) and its nested skills bind
# (-v <root>/<slug>/skills:/workspace/skills:ro), planted by a sandbox that
# has <root> at /workspace.
IMAGE=openclaw-sandbox:bookworm-slim
if "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        D=$TMP/bin/docker
        mkdir -p "$TMP/bin"
        ln -s "$(readlink -f "$SBX")" "$D"
        droot=$TMP/droot
        mkdir -p "$droot/ws-c/skills"
        dc() { timeout -k 5 60 "$D" create --read-only "$@" "$IMAGE" sleep infinity 2>&1; }
        if dc --name d-shared -v "$droot:/workspace" >/dev/null && "$D" start d-shared >/dev/null 2>&1; then
                "$D" exec d-shared sh -c "ln -s $secret /workspace/ws-a; mkdir -p /workspace/ws-b && ln -s $secret /workspace/ws-b/skills" >/dev/null 2>&1
                is "the docker sandbox planted both (ws-a, ws-b/skills are symlinks to the host directory)" \
                        "$(readlink "$droot/ws-a")|$(readlink "$droot/ws-b/skills")" "$secret|$secret"
                like "scope-docker-plant-workspace: docker create -v <root>/ws-a:/workspace is refused" \
                        "$(dc --name d-a -v "$droot/ws-a:/workspace:z")" 'ws-a.*is a symbolic link'
                like "scope-docker-plant-skills: docker create -v <root>/ws-b/skills:/workspace/skills:ro is refused" \
                        "$(dc --name d-b -v "$droot/ws-b:/workspace:z" -v "$droot/ws-b/skills:/workspace/skills:ro,z")" \
                        'skills.*is a symbolic link'
                is "... neither sandbox exists" "$("$D" ps -a --format '{{.Names}}' 2>/dev/null | grep -c '^d-[ab]$')" 0
                # round 7: a link in an earlier component, and a missing source
                # below it (docker makes a missing source: it made it through the
                # link, in the host directory, and bound that)
                like "scope-docker-plant-earlier: docker create -v <root>/ws-a/new:/workspace (ws-a a planted link) is refused" \
                        "$(dc --name d-e -v "$droot/ws-a/new:/workspace:z")" "ws-a' is a symbolic link"
                is "scope-docker-plant-earlier: ... nothing made through the link in the host directory, no sandbox" \
                        "$(ls -A "$secret" | grep -c '^new$'):$("$D" ps -a --format '{{.Names}}' 2>/dev/null | grep -c '^d-e$')" 0:0
                like "control: the same create with real directories works" \
                        "$(dc --name d-c -v "$droot/ws-c:/workspace:z" -v "$droot/ws-c/skills:/workspace/skills:ro,z")" '^[0-9a-f]{64}$'
        else
                not_ok "docker create/start of the planting sandbox"
        fi
        for n in d-shared d-a d-b d-c d-e; do "$D" rm -f "$n" >/dev/null 2>&1; done
else
        skip "scope-docker-plant-*: image $IMAGE not built here (the e2e lane builds it)"
fi

# --- another session's later exec in the same sandbox: its memory. Execs into
# one sandbox share its user; /proc/PID/mem needs only ptrace_may_access, which
# the filter's refusal of ptrace(2) does not cover. Under an agent's rules
# each exec is its own Landlock domain, and Landlock refuses access to a
# process of another domain: no exec writes another's memory (not even
# under the same allowlist). Without rules the execs of a sandbox are one
# trust domain, as the processes of one Docker container are (SECURITY.md).
cat > "$TMP/oc-tight.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'agent', workspaceRoot: '$TMP/wsroot2' } },
            list: [ { id: 'open', default: true },
                    { id: 'tight', tools: { exec: { security: 'allowlist', safeBins: ['sleep', 'python3'] } } } ] } }
J
memprobe='import os
for p in os.listdir("/proc"):
    if p.isdigit() and open("/proc/%s/cmdline" % p).read().startswith("sleep"):
        try: os.close(os.open("/proc/%s/mem" % p, os.O_RDWR)); print("OPEN")
        except OSError as e: print(e.strerror)'
for agent in tight open; do
        if sx create --scope agent --config "$TMP/oc-tight.json" --agent $agent >/dev/null 2>&1; then
                box=$(sx ls --json | python3 -c 'import json,sys
print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")==sys.argv[1]][0])' $agent)
                sx exec "$box" -- sleep 20 >/dev/null 2>&1 &
                sp=$!
                for _ in $(seq 50); do sx exec "$box" -- python3 -c "$memprobe" 2>/dev/null | grep -q . && break; sleep 0.1; done
                got=$(sx exec "$box" -- python3 -c "$memprobe" 2>&1 | grep -v ' note: ')
                kill $sp 2>/dev/null; wait $sp 2>/dev/null
                if [ $agent = tight ]; then
                        is "scope-exec-mem: under an allowlist, another exec's /proc/PID/mem cannot be opened for writing" \
                                "$got" "Permission denied"
                else
                        control "without rules the same open works (one trust domain, as in Docker)" "$got" OPEN
                fi
        else
                not_ok "create the $agent agent's sandbox"
        fi
done

# --- pids: one session's fork bomb in a shared sandbox. The sandbox's pids cap
# (1024 by default, its cgroup) counts every session's processes: the others'
# execs into that sandbox fail while it holds them (as under Docker's
# --pids-limit), but no other sandbox is touched.
pids_ok=$("$SBX" doctor --json 2>/dev/null | python3 -c 'import json, sys
c = json.load(sys.stdin)["cgroup"]; print(int("pids" in (c.get("available") or "").split() and bool(c.get("limits_enforceable"))))' 2>/dev/null)
if is_root && [ "$pids_ok" = 1 ]; then
        if sx create --name bomb >/dev/null 2>&1 && sx create --name calm >/dev/null 2>&1; then
                sx exec bomb -- python3 -c 'import os, time
n = 0
while True:
    try: pid = os.fork()
    except OSError as e: print(n, e.strerror, flush=True); break
    if pid == 0: time.sleep(20); os._exit(0)
    n += 1
time.sleep(15)' > "$TMP/bomb.out" 2>&1 &
                bp=$!
                for _ in $(seq 200); do [ -s "$TMP/bomb.out" ] && break; sleep 0.1; done
                like "the fork bomb stopped at the sandbox's pids cap" "$(cat "$TMP/bomb.out")" '^10[0-9][0-9] Resource temporarily unavailable$'
                out=$(sx exec bomb -- /bin/echo ran 2>&1); rc=$?
                control "meanwhile an exec into the same sandbox fails (the cap counts every session's processes)" \
                        "$rc" 125
                like "scope-pids-message: ... and its message names the sandbox's pids limit, not exec slots" \
                        "$out" "^sbx exec: exec: sandbox 'bomb' is at its pids limit \(1024 processes\): its init could not fork the command"
                is "scope-pids-neighbour: meanwhile another sandbox runs its execs" "$(sx exec calm -- /bin/echo ran 2>&1)" ran
                kill $bp 2>/dev/null; wait $bp 2>/dev/null
                sx rm -f bomb calm >/dev/null 2>&1
        else
                not_ok "create the two sandboxes of the pids test"
        fi
else
        skip "scope-pids-neighbour: the default pids cap needs a pids cgroup controller sbx can use (root here)"
fi

sx rm -f --all >/dev/null 2>&1
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 14: the agent's policy on persistent sandboxes. `sbx create --scope`
# records the agent and its rules; every `sbx exec` is decided before fork
# against them (126, rule and config key named, audited) and runs under the
# same Landlock ruleset as the sandbox's init, so grandchildren are held too
# (EACCES from the kernel). Each rule both ways, root and rootless.
. "$(dirname "$0")/sandbox-lib.sh"

need_landlock
export HOME=$TMP/home
mkdir -p "$HOME"
cfg=$TMP/openclaw.json
cat > "$cfg" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'lister', tools: { exec: { security: 'allowlist', safeBins: ['ls', 'cat'] } } },
                    { id: 'denier', tools: { exec: { security: 'deny' } } },
                    { id: 'family', tools: { deny: ['exec'] } },
                    { id: 'reader', tools: { deny: ['write', 'edit', 'apply_patch'] } } ] } }
J
pol() { python3 -c 'import json,sys; d=json.load(sys.stdin)[0]["policy"]
for k in sys.argv[1].split("."): d=d[k]
print(d)' "$1"; }
mk() { sbx_create --scope session --config "$cfg" "$@" 2>/dev/null | tail -1; }

# explain says which case applies
out=$("$SBX" explain --config "$cfg" --agent lister 2>&1)
like "explain: the allowlist case and its key" "$out" "exec security: +allowlist \(agents.entries.lister.tools.exec.security\)"
out=$("$SBX" explain --config "$cfg" --agent main 2>&1)
like "explain: unset = no exec restriction, as OpenClaw" "$out" "not configured \(tools.exec.security unset\)"

# allowlist agent
id=$(mk --agent lister --session agent:lister:t1)
like "create --scope: created" "$id" '^[0-9a-f]{64}$'
name=$(sbx ls -q | head -1)
insp=$(sbx inspect "$name")
is "inspect: policy openclaw" "$(pol policy <<<"$insp")" openclaw
is "inspect: the agent" "$(pol agent <<<"$insp")" lister
is "inspect: exec allowlist" "$(pol rules.exec <<<"$insp")" allowlist
like "inspect: a sha256 policy hash" "$(pol hash <<<"$insp")" '^[0-9a-f]{64}$'
like "ls --json: the same policy" "$(sbx ls --json)" '"hash": "[0-9a-f]{64}"'
out=$(sbx exec "$name" -- ls /workspace 2>&1); rc=$?
is "allowlist: a safe bin (ls) runs" "$rc" 0
out=$(sbx exec "$name" -- id 2>&1); rc=$?
is "allowlist: a command not on it is refused before fork (126)" "$rc" 126
like "the refusal names the rule and the config key" "$out" "'/usr/bin/id' matches no pattern of agents.entries.lister.tools.exec.security"
out=$(sbx exec "$name" -- sh -c 'ls / >/dev/null && echo ran-ls' 2>&1); rc=$?
is "allowlist: sh (OpenClaw's wrapper) runs an allowed grandchild" "$out" ran-ls
out=$(sbx exec "$name" -- sh -c 'id' 2>&1); rc=$?
is "grandchild not on the list: sh reports 126" "$rc" 126
like "... because the kernel said EACCES" "$out" "id: Permission denied"
out=$(sbx exec "$name" -- sh -c 'cat /bin/ls > /tmp/myls; chmod +x /tmp/myls; /tmp/myls /' 2>&1); rc=$?
like "a copy of an allowed binary in /tmp is refused (EACCES)" "$out" "Permission denied"
out=$(sbx exec "$name" -- sh -c 'cd /tmp && rm -f l && ln -s /usr/bin/id l 2>/dev/null || true; /usr/bin/env' 2>&1); rc=$?
like "env (not allowed) refused" "$out" "Permission denied"
if [ -x /usr/bin/python3 ]; then
        out=$(sbx exec "$name" -- sh -c 'python3 -c "import os; os.execv(\"/usr/bin/id\", [\"id\"])"' 2>&1); rc=$?
        like "python3 is not on the list either (EACCES)" "$out" "python3: Permission denied"
else
        skip "python3 not installed"
fi
out=$(sbx exec "$name" -- sh -c 'c=i; ${c}d; $(printf "%sd" i)' 2>&1); rc=$?
like "an obfuscated name is still refused by the kernel" "$out" "Permission denied"
audit="$ROOT/$name/audit.jsonl"
like "audit: the allowed exec" "$(cat "$audit")" '"argv":\["ls","/workspace"\].*"decision":"allow"'
like "audit: the refused exec, with agent and scope key" "$(cat "$audit")" '"agent":"lister".*"argv":\["id"\].*"decision":"deny"'

# the exec log: every execve/execveat of the tree, grandchildren included
logs=$(sbx logs --exec "$name")
like "logs --exec: the grandchild sh ran, with its pid and verdict" "$logs" '^[0-9T:.Z-]+ [0-9]+ +deny +/usr/bin/id +\[ "id" \]'
like "logs --exec: the allowed grandchild" "$logs" ' [0-9]+ +allow +/usr/bin/ls '
like "logs --exec: the decision sbx exec made before fork" "$logs" ' sbx +deny +/usr/bin/id'
like "audit: exec-seen records carry pid, path and argv" "$(cat "$audit")" '"event":"exec-seen".*"pid":[0-9]+,"path":"/bin/id","argv":\["id"\]'
# names not UTF-8 in an argv (0xff, a lone 0xc3, an overlong '/', a surrogate
# in UTF-8): every audit line and sbx logs --exec --json stay valid UTF-8 JSON
# (decoded strictly) and keep the bytes (\udcXX, PEP 383); so does explain --json
strict_lines() { python3 -c 'import json, sys
n = 0
for line in sys.stdin.buffer.read().decode("utf-8").splitlines():
    d = json.loads(line)
    n += any(a.encode("utf-8", "surrogateescape").hex() == sys.argv[1] for a in d.get("argv") or [])
print(n)' "$1"; }
u8=2f6e6f70652dffc3c0afeda080
sbx exec "$name" -- ls "$(printf '/nope-\xff\xc3\xc0\xaf\xed\xa0\x80')" >/dev/null 2>&1
like "audit-utf8: every audit line is valid JSON, the argv's bytes kept" "$(strict_lines $u8 <"$audit" 2>&1)" '^[1-9][0-9]*$'
like "logs-exec-json-utf8: sbx logs --exec --json is valid JSON, the argv's bytes kept" \
        "$(sbx logs --exec --json "$name" | strict_lines $u8 2>&1)" '^[1-9][0-9]*$'
is "explain-json-utf8: sbx explain --json is valid JSON, the session key's bytes kept" \
        "$("$SBX" explain --json --config "$cfg" --session "$(printf 'agent:main:\xff\xc3')" 2>&1 | python3 -c 'import json, sys
print(json.loads(sys.stdin.buffer.read().decode("utf-8"))["sessionKey"].encode("utf-8", "surrogateescape").hex())' 2>&1)" \
        6167656e743a6d61696e3affc3
# the listener's process is ours: the one holding this sandbox's audit log
listener_of() {
        local p
        for p in $(pgrep -x sbx-exec-log); do
                ls -l "/proc/$p/fd" 2>/dev/null | grep -q "$ROOT/$1/audit.jsonl" && echo "$p"
        done
}
sbx exec "$name" -- sh -c 'i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done; ls / >/dev/null; echo "ls: $?"' \
        >"$TMP/fc.out" 2>&1 &
fc=$!
l=""
for i in $(seq 50); do l=$(listener_of "$name"); [ -n "$l" ] && break; sleep 0.1; done
if [ -n "$l" ]; then
        ok "the exec log's listener runs outside the sandbox (host pid $l)"
        # a listener of an earlier exec may still be on its way out: look for up to 5 s
        fds=""
        for i in $(seq 50); do
                for p in $(listener_of "$name"); do
                        fds=$(ls -l "/proc/$p/fd" 2>/dev/null)
                        case $fds in *"seccomp notify"*) l=$p; break ;; esac
                done
                case $fds in *"seccomp notify"*) break ;; esac
                sleep 0.1
        done
        like "... it holds the seccomp listener" "$fds" "seccomp notify"
        kill "$l"
        wait "$fc"
        like "listener killed: the next exec fails closed (ENOSYS)" "$(cat "$TMP/fc.out")" "ls: Function not implemented"
else
        not_ok "the exec log's listener runs outside the sandbox"
        skip "no listener"
        skip "no listener"
        wait "$fc"
fi
out=$(sbx exec "$name" -- sh -c 'ls -d /'); rc=$?
is "after that, the next exec starts a new exec log and runs" "$out" "/"
like "... and is logged by it" "$(sbx logs --exec "$name" | tail -1)" ' allow +/usr/bin/ls '
l2=$(listener_of "$name")
like "one exec log process serves the sandbox (outside it)" "$l2" '^[0-9]+$'
out=$(sbx logs --exec plain-missing 2>&1); rc=$?
is "logs of a missing sandbox: exit 1" "$rc" 1

# security deny: every exec refused; the exec tool denied: the same (the seed's hole)
id=$(mk --agent denier --session agent:denier:t1)
d=$(sbx ls --json | python3 -c 'import json,sys; print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")=="denier"][0])')
out=$(sbx exec "$d" -- ls / 2>&1); rc=$?
is "tools.exec.security deny: refused (126)" "$rc" 126
like "... naming the key" "$out" "agents.entries.denier.tools.exec.security"
out=$(sbx_run --scope session --agent family --session agent:family:x --config "$cfg" -- cat /etc/hostname 2>&1); rc=$?
is "sbx run --scope with the exec tool denied: refused (126)" "$rc" 126
like "... naming the tool pipeline" "$out" "tool policy: 'exec' \(alias bash\) removed"

# read-only workspace where the agent has no write tool, both ways
id=$(mk --agent reader --session agent:reader:t1)
r=$(sbx ls --json | python3 -c 'import json,sys; print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")=="reader"][0])')
is "reader: readOnlyWorkspace recorded" "$(sbx inspect "$r" | pol rules.readOnlyWorkspace)" True
out=$(sbx exec "$r" -- sh -c 'echo x > /workspace/f' 2>&1); rc=$?
if [ "$rc" != 0 ]; then ok "reader: a write to /workspace fails"; else not_ok "reader: a write to /workspace fails"; fi
like "... with EROFS (the workspace mount is read-only; Landlock under it)" "$out" "Read-only file system"
out=$(sbx exec "$r" -- sh -c 'echo x > /tmp/f && cat /tmp/f' 2>&1)
is "reader: /tmp stays writable" "$out" x

# the config changes: the sandbox is flagged stale, recreate clears it
is "before the change: not stale" "$(sbx inspect "$name" | pol stale)" False
sed -i "s/safeBins: \['ls', 'cat'\]/safeBins: ['ls']/" "$cfg"
is "config changed: inspect flags the sandbox stale" "$(sbx inspect "$name" | pol stale)" True
like "ls shows it stale" "$(sbx ls)" "$name .* stale "
out=$(sbx exec "$name" -- cat /etc/hostname 2>&1); rc=$?
is "stale: the new rules apply on top at once (cat refused, 126)" "$rc" 126
like "... by the current config" "$out" "'/usr/bin/cat' matches no pattern"
out=$(sbx exec "$name" -- sh -c 'cat /etc/hostname' 2>&1); rc=$?
like "stale: grandchildren too (a second Landlock domain, EACCES)" "$out" "cat: Permission denied"
out=$(sbx exec "$name" -- ls / 2>&1); rc=$?
is "stale: what both allow still runs" "$rc" 0
sbx rm -f "$name" >/dev/null
id=$(mk --agent lister --session agent:lister:t1)
is "created again: the new rules, not stale" "$(sbx inspect "$name" | pol stale)" False
out=$(sbx exec "$name" -- cat /etc/hostname 2>&1); rc=$?
is "the new rules hold (cat removed from safeBins)" "$rc" 126
cp "$cfg" "$cfg.bak"
echo '{ agents: ' >"$cfg"
out=$(sbx exec "$name" -- ls / 2>&1); rc=$?
is "openclaw.json unreadable now: the exec is refused (125), never unrestricted" "$rc" 125
like "... with the config error" "$out" "openclaw.json"
cp "$cfg.bak" "$cfg"
out=$(sbx exec "$name" -- ls / 2>&1); rc=$?
is "control: the same config again, the exec runs" "$rc" 0

# no agent: today's behaviour, shown as policy none
sbx_create plain >/dev/null
is "no agent: policy none" "$(sbx inspect plain | pol policy)" none
out=$(sbx exec plain -- id -u 2>&1); rc=$?
is "no agent: any command runs" "$rc" 0
out=$(sbx logs --exec plain 2>&1); rc=$?
is "no agent: no exec log (usage error)" "$rc" 2
like "... saying why" "$out" "policy: none"
unlike "no agent: no exec log listener" "$(listener_of plain)" "[0-9]"


# the drop-in: docker create with OpenClaw's openclaw.sessionKey label
# The image is a tiny one of our own (dash and sleep) in a private store: these
# checks are about the label and the record, not about OpenClaw's image.
. "$(dirname "$0")/tiny-rootfs.sh"
IMAGE=sbx-ci/policy:1
export SBX_IMAGE_DIR=$TMP/store
tiny_rootfs "$SBX_IMAGE_DIR/images/sbx-ci+policy@1/rootfs" /usr/bin/dash /usr/bin/sleep
printf '{"ref":"x","config":{"Env":["PATH=/usr/bin:/bin"]}}\n' > "$SBX_IMAGE_DIR/images/sbx-ci+policy@1/image.json"
if "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        mkdir -p "$TMP/bin"
        ln -sf "$(readlink -f "$SBX")" "$TMP/bin/docker"
        D="$TMP/bin/docker"
        echo '{ agents: ' >"$TMP/bad.json"
        out=$(OPENCLAW_CONFIG_PATH=$TMP/bad.json "$D" create --name dk1 \
              --label openclaw.sessionKey=agent:lister:main "$IMAGE" sleep infinity 2>&1); rc=$?
        is "docker create, invalid openclaw.json: exit 125" "$rc" 125
        like "... with the config error" "$out" "bad.json"
        out=$(OPENCLAW_CONFIG_PATH=$cfg "$D" create --name dk2 --label openclaw.sessionKey=agent:lister:main \
              "$IMAGE" sleep infinity 2>&1); rc=$?
        is "docker create with the label: created" "$rc" 0
        like "docker inspect: the Sbx key has the policy hash" "$("$D" inspect -f '{{json .Sbx}}' dk2)" '"hash": ?"[0-9a-f]{64}"'
        "$D" rm -f dk2 >/dev/null 2>&1
else
        skip "image $IMAGE not built here (the e2e lane builds it): docker create checks"
        skip "image $IMAGE not built here"
        skip "image $IMAGE not built here"
        skip "image $IMAGE not built here"
fi

# proc-title: the exec log daemon forked by an exec shows the host (ps, any
# user) its name and the sandbox's, nothing of that exec's argv or environment
id=$(mk --agent lister --session agent:lister:title)
tname=$(sbx ls --json | python3 -c 'import json, sys
print([s["name"] for s in json.load(sys.stdin) if s["id"] == sys.argv[1]][0])' "$id")
secret=s3cret-$$
SBX_T_ENV=$secret sbx exec -e "SBX_T_ARG=$secret" "$tname" -- ls / >/dev/null 2>&1
l=""
for i in $(seq 50); do l=$(listener_of "$tname"); [ -n "$l" ] && break; sleep 0.1; done
if [ -n "$l" ]; then
        is "proc-title: the exec log daemon's cmdline is 'sbx-exec-log NAME'" \
                "$(tr '\0' ' ' <"/proc/$l/cmdline")" "sbx-exec-log $tname "
        is "... its environ is empty (no SBX_T_ENV of the exec that forked it)" "$(tr '\0' '\n' <"/proc/$l/environ" | wc -c)" 0
        is "... the value given on that exec's command line is nowhere in either" \
                "$(cat "/proc/$l/cmdline" "/proc/$l/environ" | tr '\0' '\n' | grep -c "$secret")" 0
        sbx exec "$tname" -- ls /nonexistent-after-title >/dev/null 2>&1
        like "... and it still logs every exec (its config is intact)" \
                "$(sbx logs --exec "$tname" 2>&1 | grep -c nonexistent-after-title)" '^[1-9]'
        # control: the forking sbx exec's own cmdline has the value (its
        # output, far more than a pipe holds, waits for a reader that sleeps first)
        SBX_T_ENV=$secret sbx_exec_bg -e "SBX_T_ARG=$secret" "$tname" -- ls -R /usr > >(sleep 3; cat >/dev/null) & ep=$!
        sleep 0.5
        like "control: the sbx exec that forks such a daemon has the value in its cmdline" \
                "$(tr '\0' ' ' <"/proc/$ep/cmdline")" "$secret"
        wait $ep
else
        not_ok "proc-title: the exec log daemon of '$tname' was not found"
fi

sbx rm -f --all >/dev/null 2>&1 || for n in $(sbx ls -q); do sbx rm -f "$n" >/dev/null; done
gone=yes
for i in $(seq 50); do [ -z "$(listener_of "$name")" ] && break; sleep 0.1; done
is "rm: the sandbox's exec log process is gone with it" "$(listener_of "$name")" ""
done_testing

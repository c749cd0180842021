#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 6 with the policy engine: `sbx run --agent` checks that the exec tool
# survives the tool pipeline, derives the kernel rules from the resolved tool
# set, applies the agent's exec approvals; `sbx explain --json` shows the
# derived rules. Each derived rule in both directions, from a grandchild.
. "$(dirname "$0")/lib.sh"

need_landlock
cfg=$TMP/openclaw.json
cat > "$cfg" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'noexec', tools: { deny: ['exec'] } },
                    { id: 'bashless', tools: { deny: ['bash'] } },
                    { id: 'reader', tools: { deny: ['write', 'edit', 'apply_patch',
                                                   'web_search', 'web_fetch', 'x_search', 'browser'] } },
                    { id: 'fetcher', tools: { deny: ['write', 'edit', 'apply_patch'],
                                              sandbox: { tools: { alsoAllow: ['web_fetch'] } } } } ] } }
J
cat > "$TMP/approvals.json" <<'J'
{"version": 1, "agents": {"main": {"security": "allowlist", "allowlist": ["/bin/sh", "/sbx-probe"]}}}
J
export HOME=$TMP/home
mkdir -p "$HOME"
AUDIT=$TMP/audit.jsonl
run() { sbxp --no-tty --config "$cfg" --audit-log "$AUDIT" "$@" 2>&1 | grep -v '^sbx run: note:'; return "${PIPESTATUS[0]}"; }
nested() {
        local opts=()
        while [ "$1" != -- ]; do opts+=("$1"); shift; done
        run "${opts[@]}" -- /bin/sh -c "sh -c '$2'"
}

out=$(run --agent noexec -- /sbx-probe exit 0); rc=$?
is "agent whose tools deny exec: refused before fork (126)" "$rc" 126
like "the refusal names the pipeline layer and config key" "$out" "tool policy: 'exec' \(alias bash\) removed by agents.noexec.tools.allow \(agents.entries.noexec.tools.deny\)"
out=$(run --agent noexec -- /nonexistent); rc=$?
is "exec removed: refused (126) even for a command that does not exist" "$rc" 126
out=$(run --agent bashless -- /sbx-probe exit 0); rc=$?
is "denying the alias bash removes exec too" "$rc" 126
like "the audit log has the deny with agent, session and scope key" "$(tail -1 "$AUDIT")" \
        '"event":"exec","agent":"bashless","session":"agent:bashless:main","scopeKey":"[^"]+".*"decision":"deny"'

is "main (all tools): a grandchild writes /workspace" "$(nested --agent main -- '/sbx-probe write /workspace/f x')" OK
is "reader (no fs-write tool): a grandchild's write to /workspace gets EROFS (read-only mount; Landlock under it)" \
        "$(nested --agent reader -- '/sbx-probe write /workspace/f x')" EROFS
is "reader: tmpfs /tmp stays writable" "$(nested --agent reader -- '/sbx-probe write /tmp/f x')" OK
is "main (web tools removed by the default sandbox tool policy, network none): AF_INET gets EAFNOSUPPORT" \
        "$(nested --agent main -- '/sbx-probe socket inet')" EAFNOSUPPORT
is "reader (no network tool, network none): AF_INET gets EAFNOSUPPORT" \
        "$(nested --agent reader -- '/sbx-probe socket inet')" EAFNOSUPPORT
is "fetcher (web_fetch allowed in the sandbox): AF_INET works" "$(nested --agent fetcher -- '/sbx-probe socket inet')" OK
is "fetcher (no fs-write tool): write refused" "$(nested --agent fetcher -- '/sbx-probe write /workspace/f x')" EROFS

is "main with approvals allowlist: allowed chain runs" \
        "$(nested --agent main --exec-approvals "$TMP/approvals.json" -- '/sbx-probe exit 0 && echo ran')" ran
is "main with approvals allowlist: a grandchild's exec of /usr/bin/id gets EACCES" \
        "$(nested --agent main --exec-approvals "$TMP/approvals.json" -- '/sbx-probe exec /usr/bin/id')" EACCES
out=$(run --agent main --exec-approvals "$TMP/approvals.json" -- /usr/bin/id); rc=$?
is "main with approvals allowlist: a top-level command off the list exits 126" "$rc" 126
mkdir -p "$HOME/.openclaw"
cp "$TMP/approvals.json" "$HOME/.openclaw/exec-approvals.json"
out=$(run --agent main -- /usr/bin/id); rc=$?
is "--agent reads ~/.openclaw/exec-approvals.json by default" "$rc" 126

json=$("$SBX" explain --config "$cfg" --agent reader --json)
rules=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)["derivedRules"]
print(d["exec"]["allowed"], d["readOnlyFs"]["applies"], d["readOnlyFs"]["enforcedBy"],
      d["denyInetSockets"]["applies"], d["denyInetSockets"]["enforcedBy"], d["unenforceable"])')
is "explain --json: derivedRules for reader" "$rules" "True True landlock True seccomp []"
rules=$("$SBX" explain --config "$cfg" --agent noexec --json | python3 -c '
import json, sys
d = json.load(sys.stdin)["derivedRules"]
print(d["exec"]["allowed"], d["exec"]["configKey"], d["readOnlyFs"]["applies"])')
is "explain --json: derivedRules for noexec (exec removed, names the key)" "$rules" \
        "False agents.entries.noexec.tools.deny False"
like "explain (human): the derived rules" "$("$SBX" explain --config "$cfg" --agent reader 2>/dev/null)" \
        "read-only fs: +yes \(Landlock\): no fs-write tool: write"
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 6: exec decided before fork, the derived kernel rules (Landlock
# read-only fs, Landlock exec allowlist, seccomp socket families) and the
# audit log. Every rule in both directions, the denied action from a child of
# a child inside the sandbox (sh -c 'sh -c ...'), with the errno only that
# rule gives.
. "$(dirname "$0")/lib.sh"
: "${SBX_DENY_SYSCALLS:?SBX_DENY_SYSCALLS must point at the built deny-syscalls}"

# nested OPTS... -- 'SHELL CMD': the command runs in a grandchild of the sandbox's pid 1.
nested() {
        local opts=()
        while [ "$1" != -- ]; do opts+=("$1"); shift; done
        sbxp --no-tty "${opts[@]}" -- /bin/sh -c "sh -c '$2'" 2>&1
}

if ! abi=$("$SBX" doctor --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("landlockAbi", 0))' 2>/dev/null); then
        abi=0
fi
have_landlock=yes
if ! "$SBX" run --no-tty --read-only-fs -- /bin/true 2>/dev/null; then
        have_landlock=no
fi

ws=$TMP/ws
mkdir -p "$ws" "$TMP/data"
chmod 777 "$ws" "$TMP/data"
printf '#!/bin/sh\necho script-ran\n' > "$ws/sh.sh"
printf '#!/bin/bash\necho bash-ran\n' > "$ws/bash.sh"
ln -s /usr/bin/id "$ws/idlink"
cp "$SBX_PROBE" "$ws/probe-copy"
chmod 755 "$ws/sh.sh" "$ws/bash.sh" "$ws/probe-copy"
AUDIT=$TMP/audit.jsonl
rm -f "$AUDIT"
chmod 777 "$TMP"

# ---------------------------------------------------------- read-only fs
if [ $have_landlock = yes ]; then
        is "read-only-fs off: a grandchild writes /workspace (rw)" \
                "$(nested --workspace "$ws" --workspace-access rw -- '/sbx-probe write /workspace/f x')" OK
        is "read-only-fs: a grandchild's write to a rw /workspace gets EROFS (the mount is made read-only; Landlock under it)" \
                "$(nested --workspace "$ws" --workspace-access rw --read-only-fs -- '/sbx-probe write /workspace/g x')" EROFS
        is "read-only-fs: nothing was written to the host workspace" "$(ls "$ws" | grep -c '^g$')" 0
        is "a read-only mount alone gives EROFS (the errno differs from Landlock's)" \
                "$(nested --workspace "$ws" --workspace-access ro -- '/sbx-probe write /workspace/h x')" EROFS
        is "read-only-fs: mkdir in the overlaid /workspace gets EROFS" \
                "$(nested --workspace "$ws" --read-only-fs -- '/sbx-probe mkdir /workspace/d')" EROFS
        is "read-only-fs off: mkdir in the overlaid /workspace works" \
                "$(nested --workspace "$ws" -- '/sbx-probe mkdir /workspace/d')" OK
        is "read-only-fs off: a rw --bind is writable" \
                "$(nested --bind "$TMP/data:/data" -- '/sbx-probe write /data/f x')" OK
        is "read-only-fs: a rw --bind gets EROFS" \
                "$(nested --bind "$TMP/data:/data" --read-only-fs -- '/sbx-probe write /data/g x')" EROFS
        is "read-only-fs: tmpfs /tmp stays writable" \
                "$(nested --read-only-fs -- '/sbx-probe write /tmp/f x')" OK
        is "read-only-fs: an explicit --tmpfs stays writable" \
                "$(nested --read-only-fs --tmpfs /scratch -- '/sbx-probe write /scratch/f x')" OK
        is "read-only-fs: /dev/null stays writable" \
                "$(nested --read-only-fs -- '/sbx-probe write /dev/null x')" OK
else
        for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "read-only-fs: Landlock not available (ABI $abi)"; done
fi

if [ $have_landlock = yes ]; then
        is "no fd leaks with Landlock + allowlist (ruleset, view and exec fds stay in sbx)" \
                "$(sbxp --no-tty --read-only-fs --exec-allow /sbx-probe -- /sbx-probe fds | cut -d' ' -f1 | tr '\n' ' ')" "0 1 2 "
else
        skip "fd leaks with Landlock: Landlock not available (ABI $abi)"
fi

# ------------------------------------------------------- network sockets
is "deny-network-sockets off: AF_INET socket works" "$(nested -- '/sbx-probe socket inet')" OK
is "deny-network-sockets: AF_INET socket from a grandchild gets EAFNOSUPPORT" \
        "$(nested --deny-network-sockets -- '/sbx-probe socket inet')" EAFNOSUPPORT
is "deny-network-sockets: AF_INET6 gets EAFNOSUPPORT" \
        "$(nested --deny-network-sockets -- '/sbx-probe socket inet6')" EAFNOSUPPORT
is "deny-network-sockets: AF_UNIX still works" "$(nested --deny-network-sockets -- '/sbx-probe socket unix')" OK

# ------------------------------------------------- exec allowlist, inside
A=(--workspace "$ws" --workspace-access rw --exec-allow /bin/sh --exec-allow /sbx-probe --exec-allow /usr/bin/cp
   --exec-allow /workspace/bash.sh)
if [ $have_landlock = yes ]; then
        like "no allowlist: a grandchild execs /usr/bin/id" "$(nested --workspace "$ws" -- '/sbx-probe exec /usr/bin/id')" '^uid=0'
        is "exec-allow: a grandchild's exec of /usr/bin/id gets EACCES" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /usr/bin/id')" EACCES
        is "exec-allow: an allowed binary runs from a grandchild" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /sbx-probe exit 0 && echo ran')" ran
        is "no allowlist: a copy of the probe in /workspace runs" \
                "$(nested --workspace "$ws" -- '/sbx-probe exec /workspace/probe-copy exit 0 && echo ran')" ran
        is "exec-allow: a copy of an allowed binary elsewhere gets EACCES" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /workspace/probe-copy exit 0')" EACCES
        is "exec-allow: a symlink to a denied binary gets EACCES" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /workspace/idlink')" EACCES
        is "exec-allow: an allowed script whose #! interpreter (bash) is not allowed gets EACCES" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /workspace/bash.sh')" EACCES
        is "exec-allow: a script not on the list gets EACCES even with an allowed interpreter" \
                "$(nested "${A[@]}" -- '/sbx-probe exec /workspace/sh.sh')" EACCES
        is "no allowlist: a binary written into /tmp runs" \
                "$(nested --workspace "$ws" -- 'cp /sbx-probe /tmp/p && /sbx-probe exec /tmp/p exit 0 && echo ran')" ran
        is "exec-allow: a binary written into /tmp gets EACCES" \
                "$(nested "${A[@]}" -- 'cp /sbx-probe /tmp/p && /sbx-probe exec /tmp/p exit 0')" EACCES
        is "exec-allow + bash allowed: the bash script runs" \
                "$(nested "${A[@]}" --exec-allow /usr/bin/bash -- '/workspace/bash.sh')" bash-ran
        is "exec-allow: a glob's directory grants what it matches (/bin/STAR -> /usr/bin)" \
                "$(nested --exec-allow '/bin/*' --exec-allow /sbx-probe -- '/sbx-probe exec /usr/bin/true && echo ran')" ran
else
        for i in $(seq 12); do skip "exec allowlist in the sandbox: Landlock not available (ABI $abi)"; done
fi

# ------------------------------------- exec allowlist, decided before fork
before=$(leftovers)
out=$("$SBX" run --no-tty --audit-log "$AUDIT" --exec-allow /sbx-probe -- /usr/bin/id 2>&1); rc=$?
is "top-level: a denied command exits 126" "$rc" 126
like "top-level: the message names the rule and the option" "$out" "exec-allow: '/usr/bin/id' matches no pattern of --exec-allow"
is "top-level: a refusal leaves no run dir behind" "$(leftovers)" "$before"
out=$("$SBX" run --no-tty --workspace "$ws" --exec-allow /usr/bin/cp -- /workspace/idlink 2>&1); rc=$?
is "top-level: a symlink to a denied binary exits 126" "$rc" 126
like "top-level: decided on the symlink's target" "$out" "'/usr/bin/id' matches no pattern"
out=$(sbxp --no-tty --workspace "$ws" --exec-allow /sbx-probe -- /workspace/probe-copy exit 0 2>&1); rc=$?
is "top-level: a copy of an allowed binary exits 126" "$rc" 126
out=$("$SBX" run --no-tty --workspace "$ws" --exec-allow /workspace/bash.sh --exec-allow /bin/sh -- /workspace/bash.sh 2>&1); rc=$?
is "top-level: a script with a denied interpreter exits 126" "$rc" 126
like "top-level: the message names the interpreter" "$out" "interpreter '/usr/bin/bash' of '/workspace/bash.sh'"
out=$("$SBX" run --no-tty --workspace "$ws" --exec-allow /workspace/sh.sh --exec-allow /bin/sh -- ./sh.sh 2>&1); rc=$?
is "top-level: an allowed script with an allowed interpreter runs (PATH-less ./ lookup)" "$rc:$out" "0:script-ran"
out=$("$SBX" run --no-tty --exec-allow '/bin/*' -- id -u 2>&1); rc=$?
is "top-level: PATH lookup + a glob on the symlinked /bin matches /usr/bin/id" "$rc:$out" "0:0"
out=$("$SBX" run --no-tty --exec-allow 'id' -- id 2>&1); rc=$?
is "a bare name is not a pattern (OpenClaw): usage error" "$rc" 2
out=$("$SBX" run --no-tty -- /nonexistent 2>&1); rc=$?
is "top-level: a missing command exits 127, from the parent" "$rc" 127

# ------------------------------------------- exec-approvals.json (spec §5.4)
cat > "$TMP/approvals.json" <<'EOF'
{"version": 1, "defaults": {"security": "full"},
 "agents": {"*": {"allowlist": ["/bin/sh"]},
            "main": {"security": "allowlist", "allowlist": [{"id": "1", "pattern": "/usr/bin/id"}]},
            "ops": {"security": "deny"},
            "bogus": {"security": "sometimes"}}}
EOF
out=$("$SBX" run --no-tty --exec-approvals "$TMP/approvals.json" -- id -u 2>&1); rc=$?
is "approvals: main's allowlist entry runs" "$rc:$out" "0:0"
out=$("$SBX" run --no-tty --exec-approvals "$TMP/approvals.json" -- sh -c 'echo ok' 2>&1); rc=$?
is "approvals: the \"*\" entries count for every agent" "$rc:$out" "0:ok"
out=$("$SBX" run --no-tty --exec-approvals "$TMP/approvals.json" -- cat /etc/hostname 2>&1); rc=$?
is "approvals: a command off the allowlist exits 126" "$rc" 126
like "approvals: the message names the file and the allowlist keys" "$out" 'approvals.json: agents\["\*"\].allowlist \+ agents.main.allowlist'
mkdir -p "$TMP/home"
echo "{ agents: { list: [ { id: 'main', default: true }, { id: 'ops' }, { id: 'bogus' } ] } }" > "$TMP/oc.json"
agent() { HOME=$TMP/home "$SBX" run --no-tty --config "$TMP/oc.json" --exec-approvals "$TMP/approvals.json" "$@" 2>&1 |
          grep -v '^sbx run: note:'; return "${PIPESTATUS[0]}"; }
out=$(agent --agent ops -- id); rc=$?
is "approvals: security=deny refuses every command" "$rc" 126
like "approvals: the deny names agents.ops.security" "$out" "security=deny \(.*approvals.json: agents.ops.security\)"
out=$(agent --agent bogus -- cat /etc/hostname); rc=$?
is "approvals: an invalid security value is dropped (falls back to defaults: full)" "$rc:$out" "0:sbx"
echo '{"version": 2}' > "$TMP/v2.json"
out=$("$SBX" run --no-tty --exec-approvals "$TMP/v2.json" -- id 2>&1); rc=$?
is "approvals: an unsupported version is refused, not ignored" "$rc" 2
ln -s "$TMP/approvals.json" "$TMP/link.json"
out=$("$SBX" run --no-tty --exec-approvals "$TMP/link.json" -- id 2>&1); rc=$?
like "approvals: a symlinked file is refused (OpenClaw)" "$rc:$out" "^125:.*symlink"

# ------------------------------------------------------------ audit log
rm -f "$AUDIT"
sbxp --no-tty --audit-log "$AUDIT" --exec-allow /sbx-probe -- /sbx-probe exit 3; rc=$?
is "audit: the workload's exit status" "$rc" 3
"$SBX" run --no-tty --audit-log "$AUDIT" --exec-allow /sbx-probe -- /usr/bin/id >/dev/null 2>&1
sbxp --no-tty --audit-log "$AUDIT" --timeout 1 -- /sbx-probe sleep 10 >/dev/null 2>&1
sbxp --no-tty --audit-log "$AUDIT" -- /sbx-probe segv >/dev/null 2>&1
sbxp --no-tty --audit-log "$AUDIT" -- /sbx-probe x32 getpid >/dev/null 2>&1
summary=$(python3 - "$AUDIT" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    keys = {"time", "event", "agent", "session", "scopeKey"}
    assert keys <= set(r), r
    if r["event"] == "exec":
        print("exec", r["decision"], r["resolved"], " ".join(r["argv"]), r["configKey"], r["rule"])
    elif r["event"] == "start":
        print("start", r["pid"] > 0)
    elif r["event"] == "exit":
        print("exit", r.get("exitCode", ""), r.get("signal", ""), r["status"])
    else:
        print(r["event"])
EOF
)
want="exec allow /sbx-probe /sbx-probe exit 3 --exec-allow exec-allow: '/sbx-probe' matches --exec-allow pattern '/sbx-probe'
start True
exit 3  3
exec deny /usr/bin/id /usr/bin/id --exec-allow exec-allow: '/usr/bin/id' matches no pattern of --exec-allow
exec allow /sbx-probe /sbx-probe sleep 10 None no exec allowlist: every command may run
start True
timeout
exit  9 124
exec allow /sbx-probe /sbx-probe segv None no exec allowlist: every command may run
start True
exit  11 139
exec allow /sbx-probe /sbx-probe x32 getpid None no exec allowlist: every command may run
start True
seccomp-kill
exit  31 159"
is "audit: records match what happened (decisions, start, exit, timeout, signal, seccomp kill)" "$summary" "$want"
is "audit: the log is private (0600)" "$(stat -c %a "$AUDIT")" 600

# An OOM kill is logged (needs the cgroup v2 memory controller).
rm -f "$TMP/oom.jsonl"
out=$(timeout 60 "$SBX" run --no-tty --audit-log "$TMP/oom.jsonl" --memory 32m --memory-swap 32m -- \
        /bin/sh -c 'x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done' 2>&1); rc=$?
if [ $rc = 125 ] && printf '%s' "$out" | grep -q "cannot be enforced"; then
        like "audit: a plan failure after the decision is logged as setup-error" "$(tail -1 "$TMP/oom.jsonl")" \
                '"event":"setup-error".*cannot be enforced.*"status":125'
        skip "audit: OOM kill record: memory limits cannot be enforced on this host (see sbx doctor)"
else
        like "audit: an OOM kill is logged" "$(grep -c '"event":"oom"' "$TMP/oom.jsonl")" '^1$'
        like "audit: then the exit record with SIGKILL" "$(tail -1 "$TMP/oom.jsonl")" '"event":"exit".*"signal":9'
fi

# ------------------------------------------ Landlock absent: refuse or degrade
out=$("$SBX_DENY_SYSCALLS" landlock_create_ruleset "$SBX" run --no-tty --read-only-fs --exec-allow /bin/sh -- /bin/sh -c true 2>&1); rc=$?
is "no Landlock: --read-only-fs is refused (125), not silently dropped" "$rc" 125
like "no Landlock: the refusal names the rules it cannot enforce" "$out" "cannot enforce read-only file system \(--read-only-fs\), exec allowlist \(--exec-allow\)"
out=$("$SBX_DENY_SYSCALLS" landlock_create_ruleset "$SBX" run --no-tty --workspace "$ws" --workspace-access rw \
        --read-only-fs --landlock best-effort -- /bin/sh -c '(echo x > /workspace/degraded) 2>/dev/null && echo wrote || echo refused' 2>&1); rc=$?
is "no Landlock + best-effort: runs" "$rc" 0
like "no Landlock + best-effort: says what is NOT enforced" "$out" "NOT enforced: read-only file system"
like "no Landlock + best-effort: the workspace mount is still read-only (only Landlock's part is missing)" "$out" "refused"
out=$("$SBX_DENY_SYSCALLS" landlock_create_ruleset "$SBX" run --no-tty --exec-allow /bin/sh --landlock best-effort -- /usr/bin/id 2>&1); rc=$?
is "no Landlock + best-effort: the before-fork decision still refuses" "$rc" 126
like "no Landlock: sbx doctor names the rules it cannot enforce" \
        "$("$SBX_DENY_SYSCALLS" landlock_create_ruleset "$SBX" doctor 2>&1)" "CANNOT enforce the derived rules read-only file system"

done_testing

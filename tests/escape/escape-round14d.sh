#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 14d (red16b): host-side operations on what a sandbox
# wrote or swaps while the host works on it, root and rootless. Nothing was
# found; each attack is kept as a guard with a control:
# - sbx diff (piped, --name-status) of names holding a newline or a CR: a
#   name "x<LF>A forged" would forge a change line for a script reading the
#   list. Quoted, one line per change.
# - sbx commit while the sandbox swaps a changed directory for a symlink to a
#   host directory (absolute: meaningless inside, real on the host) in a
#   loop: nothing written through it (openat2 RESOLVE_BENEATH|NO_SYMLINKS).
# - the exec decision under --exec-allow while the sandbox swaps the command's
#   symlink between an allowed and a refused binary (rename(2) loop): what ran
#   is always what was decided (the decided fd is executed), never the other.
# - the same with a script rewritten in place between #!/usr/bin/true and
#   #!/usr/bin/id: the interpreter run is the one decided; and a PATH lookup
#   of "true" through a sandbox-writable dir where a copy of id comes and
#   goes: refused or /usr/bin/true, never the copy.
# - the audit log fed argv with quotes, a newline followed by a forged JSON
#   record and a byte that is not UTF-8, by sbx run (refused and allowed) and
#   by a grandchild's execve (the exec log's listener): every line parses
#   strictly, no forged record, the argv round-trips exactly.
. "$(dirname "$0")/lib.sh"

export SBX_WORKSPACE_ROOT=$TMP/sbxws
STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
chmod -R a+rX "$TMP" 2>/dev/null
cleanup_r14d() { for n in d14 c14 e14 s14; do sx rm -f "$n" >/dev/null 2>&1; done; }
on_exit cleanup_r14d

# --- sbx diff: names with LF and CR, piped -------------------------------
W=$TMP/wd
mkdir -p "$W"
echo base > "$W/f"
if sx create --workspace "$W" --workspace-mode overlay d14 >/dev/null 2>&1; then
        sx exec d14 -- sh -c 'cd /workspace && : > "$(printf "x\nA forged")" && : > "$(printf "y\rz")" && : > plain' 2>/dev/null
        out=$(sx diff --name-status d14 2>&1)
        is "diff-newline-name: one line per change (3)" "$(printf '%s\n' "$out" | wc -l)" 3
        is "diff-newline-name: no forged 'A forged' line" "$(printf '%s\n' "$out" | grep -cx 'A forged')" 0
        is "diff-newline-name: no bare CR in the list" "$(printf '%s' "$out" | tr -dc '\r' | wc -c)" 0
        like "diff-newline-name: the names are there, quoted" "$out" 'A "x\\nA forged"'
        control "diff-newline-name: a plain name is printed as it is" "$(printf '%s\n' "$out" | grep -cx 'A plain')" 1
else
        not_ok "diff-newline-name: sbx create --workspace-mode overlay"
fi

# --- sbx commit while a changed dir is swapped for a symlink to the host --
W2=$TMP/wc
mkdir -p "$W2"
T=$SECRET_DIR/commit-target
mkdir -p "$T"
chmod 777 "$T"
if sx create --workspace "$W2" --workspace-mode overlay c14 >/dev/null 2>&1; then
        sx exec c14 -- sh -c "cd /workspace && mkdir -p dd && echo pwned > dd/x &&
                (i=0; while [ \$i -lt 3000 ]; do mv dd dd.d; ln -s '$T' dd; rm dd; mv dd.d dd; i=\$((i+1)); done) \
                        >/dev/null 2>&1 & echo \$! > /tmp/r14d-loop.pid" 2>/dev/null
        ok_commits=0
        for _ in 1 2 3 4 5 6; do
                sx commit c14 >/dev/null 2>&1 && ok_commits=$((ok_commits + 1))
        done
        is "commit-symlink-race: nothing written into the host dir the symlink names" "$(ls -A "$T" | wc -l)" 0
        ok "commit-symlink-race: $ok_commits of 6 commits applied during the swaps"
        # control: the symlink committed at rest is a real path on the host
        # (the swap loop stopped first: under load it outlived a fixed sleep)
        sx exec c14 -- sh -c "kill \$(cat /tmp/r14d-loop.pid) 2>/dev/null; sleep 0.2; cd /workspace; rm -rf dd dd.d; ln -s '$T' dl" 2>/dev/null
        sx commit c14 >/dev/null 2>&1
        control "commit-symlink-race: the committed symlink leads to the host dir" "$(readlink "$W2/dl")" "$T"
else
        not_ok "commit-symlink-race: sbx create --workspace-mode overlay"
fi

# --- the exec decision while the command's symlink is swapped -------------
W3=$TMP/we
mkdir -p "$W3"
chmod 777 "$W3"
if ! "$SBX" run --no-tty --read-only-fs -- /bin/true 2>/dev/null; then
        skip "exec-symlink-race: --exec-allow needs Landlock (not available here)"
        skip "exec-shebang-race: --exec-allow needs Landlock (not available here)"
        skip "exec-path-race: --exec-allow needs Landlock (not available here)"
elif sx create --workspace "$W3" --exec-allow /usr/bin/true --exec-allow /workspace/s \
        --exec-allow '/usr/bin/python3*' e14 >/dev/null 2>&1; then
        sx exec e14 -- /usr/bin/python3 -c '
import os, sys
if os.fork(): sys.exit(0)
os.setsid()
open("/workspace/s", "w").write("#!/usr/bin/true\n")
os.chmod("/workspace/s", 0o755)
fd = os.open("/workspace/s", os.O_WRONLY)
os.mkdir("/workspace/bin")
open("/workspace/bin/idcopy", "wb").write(open("/usr/bin/id", "rb").read())
os.chmod("/workspace/bin/idcopy", 0o755)
for i in range(300000):
    os.link("/workspace/bin/idcopy", "/workspace/bin/true")
    os.symlink("/usr/bin/id", "/workspace/c2"); os.rename("/workspace/c2", "/workspace/cmd")
    os.pwrite(fd, b"#!/usr/bin/id  \n", 0)
    os.unlink("/workspace/bin/true")
    os.symlink("/usr/bin/true", "/workspace/c3"); os.rename("/workspace/c3", "/workspace/cmd")
    os.pwrite(fd, b"#!/usr/bin/true\n", 0)
' 2>/dev/null
        sleep 0.3
        for what in /workspace/cmd /workspace/s true; do
                ran=0 refused=0 fine=0
                for _ in $(seq 1 25); do
                        out=$(sx exec -e PATH=/workspace/bin:/usr/bin e14 -- $what 2>&1)
                        rc=$?
                        case "$out" in
                        *uid=* | id:*) ran=$((ran + 1)) ;;
                        *"refused by policy"*) [ $rc = 126 ] && refused=$((refused + 1)) ;;
                        "") [ $rc = 0 ] && fine=$((fine + 1)) ;;
                        esac
                done
                case $what in
                */cmd) name=exec-symlink-race ;;
                */s) name=exec-shebang-race ;;
                *) name=exec-path-race ;;
                esac
                is "$name: /usr/bin/id never ran ($fine ran true, $refused refused 126)" $ran 0
                is "$name: every exec either ran the decided file or was refused" $((fine + refused)) 25
        done
        control "exec-symlink-race: /usr/bin/id itself is refused (126)" \
                "$(sx exec e14 -- /usr/bin/id >/dev/null 2>&1; echo $?)" 126
        control "exec-path-race: PATH through the workspace finds the sandbox's copy of id, refused (126)" \
                "$(sx exec -e PATH=/workspace/bin:/usr/bin e14 -- idcopy 2>&1 | grep -c "'/workspace/bin/idcopy'")" 1
else
        not_ok "exec-symlink-race: sbx create --exec-allow"
fi

# --- the audit log: argv chosen to forge records --------------------------
A=$TMP/audit.jsonl
INJ=$'"}\n{"event":"forged","decision":"allow"}'
BAD=$'\xff\xc3'
"$SBX" run --no-tty --audit-log "$A" --exec-allow /usr/bin/true -- /usr/bin/false "$INJ" "$BAD" >/dev/null 2>&1
rc_refused=$?
"$SBX" run --no-tty --audit-log "$A" --exec-allow /usr/bin/true -- /usr/bin/true "$INJ" "$BAD" >/dev/null 2>&1
rc_allowed=$?
# a grandchild's execve, as the exec log's listener (outside) reads it from
# the process's memory: an agent's sandbox (every exec is logged)
mkdir -p "$TMP/aw" "$TMP/home"
cat > "$TMP/oc.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'agent' } }, list: [ { id: 'main', workspace: '$TMP/aw' } ] } }
J
AG=$(HOME=$TMP/home sx create --scope agent --agent main --config "$TMP/oc.json" 2>/dev/null | tail -1)
if [ -n "$AG" ]; then
        HOME=$TMP/home sx exec "$AG" -- /usr/bin/python3 -c \
                'import os, sys; os.execv("/usr/bin/true", ["true", sys.argv[1], os.fsencode(sys.argv[2])])' "$INJ" "$BAD" \
                >/dev/null 2>&1
        rc_seen=$?
        HOME=$TMP/home sx logs --exec --json "$AG" >> "$A" 2>/dev/null
        human=$(HOME=$TMP/home sx logs --exec "$AG" 2>/dev/null)
        is "audit-forge: sbx logs --exec prints one line per record (exec, exec-seen)" \
                "$(printf '%s\n' "$human" | wc -l)" 2
        is "audit-forge: no line of sbx logs --exec starts a forged record" \
                "$(printf '%s\n' "$human" | grep -c '^{')" 0
        sx rm -f "$AG" >/dev/null 2>&1
else
        rc_seen=x
        not_ok "audit-forge: sbx create --scope agent"
fi
is "audit-forge: the refused command exits 126, the allowed ones 0" "$rc_refused $rc_allowed $rc_seen" "126 0 0"
res=$(python3 - "$A" "$INJ" <<'PY'
import json, sys
path, inj = sys.argv[1], sys.argv[2]
bad = b"\xff\xc3"
lines = open(path, "rb").read().split(b"\n")
strict = forged = match = 0
for raw in lines:
    if not raw:
        continue
    try:
        o = json.loads(raw.decode("utf-8", "strict"))
    except Exception:
        strict += 1
        continue
    if o.get("event") == "forged" or o.get("decision") == "allow" and o.get("event") not in ("exec", "exec-seen"):
        forged += 1
    argv = o.get("argv") or []
    if len(argv) >= 3 and argv[-2] == inj and argv[-1].encode("utf-8", "surrogateescape") == bad:
        match += 1
seen = sum(1 for raw in lines if raw and b'"exec-seen"' in raw and b'"true"' in raw and b'\\udcff' in raw)
print(strict, forged, match, seen)
PY
)
set -- $res
is "audit-forge: every line is strict UTF-8 JSON" "${1:-x}" 0
is "audit-forge: no forged record" "${2:-x}" 0
cmp_ge() { [ "${1:-0}" -ge "$2" ] && echo yes || echo "no ($1)"; }
control "audit-forge: the argv round-trips exactly (sbx run refused, allowed and start; the listener's exec-seen)" \
        "$(cmp_ge "${3:-0}" 4)" yes
is "audit-forge: the grandchild's execve is logged by the listener (exec-seen)" "$(cmp_ge "${4:-0}" 1)" yes

done_testing

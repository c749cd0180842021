#!/bin/bash
# SPDX-License-Identifier: MIT
# The OpenClaw annotations' three guarantees (org.sbx.openclaw.config +
# org.sbx.policy.agent), each both ways:
#  1. the file an annotation names (a pod author's value, read by the
#     runtime as root) is read only under the rule: a regular file owned by
#     root or the runtime's user, writable by no group or other, no symlink
#     in its path, readable by others in directories others can search unless under an --annotation-config-dir
#     (then only there); every refusal reads exactly as a missing file;
#  2. start and exec apply the rules recorded at create (policy.json in the
#     state dir), never openclaw.json as edited since;
#  3. every decision (create, start, exec; allowed and refused) is in
#     <root>/<id>/audit.jsonl, sbx's audit record format, or in the
#     operator's --audit-log / $SBX_RUNC_AUDIT_LOG (kept after delete). ~10 s.
. "$(dirname "$0")/oci-lib.sh"
need_root
need_agent_rules
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/sbx-oci-rules.XXXXXX)
chmod 755 "$T"
on_exit 'for id in $(ls "$T/root" 2>/dev/null); do rt delete -f "$id" >/dev/null 2>&1; done; rm -rf "$T"'
make_rootfs "$T/rootfs"
mkdir -p "$T/rootfs/opt" "$T/etc"
cp "$T/rootfs/bin/busybox" "$T/rootfs/opt/busybox"     # a binary no allowlist names
export HOME=$T/home; mkdir -p "$HOME"                  # no exec-approvals.json of the caller's
unset SBX_RUNC_ANNOTATION_CONFIG_DIRS SBX_RUNC_AUDIT_LOG
rt() { "$SBX_RUNC" --root "$T/root" "$@"; }
# each container's cgroup is named after this run (other checkouts may run this test at once)
LISTER="{ agents: { list: [ { id: 'main', default: true },
  { id: 'lister', tools: { exec: { security: 'allowlist', safeBins: ['cat'] } } } ] } }"
FULL="{ agents: { list: [ { id: 'main', default: true }, { id: 'lister' } ] } }"
# cfg FILE TEXT: a root-owned 0644 config
cfg() { printf '%s\n' "$2" > "$1"; chmod 0644 "$1"; chown 0:0 "$1"; }
# bundle NAME CONFIG-PATH [ARGS(python list)] -> $T/b-NAME, agent lister
bundle() {
        local b=$T/b-$1
        mkdir -p "$b"
        ROOTFS=$T/rootfs python3 "$HERE/mkconfig.py" "$b" "c['process']['args']=${3:-['true']}
c['annotations']={'org.sbx.openclaw.config':'$2','org.sbx.policy.agent':'lister'}
c['linux']['cgroupsPath']='/sbx-runc/rules-$$-$1'" || echo "# mkconfig failed for $1"
        echo "$b"
}
# create NAME CONFIG-PATH [runtime options...] -> $out $st (the message with the path replaced by P in $msg)
create() {
        local id=$1 path=$2 b; shift 2
        b=$(bundle "$id" "$path" "['sleep','60']")
        (cd "$b" && rt "$@" create "$id" >"$T/create.out" 2>&1 </dev/null); st=$?
        out=$(cat "$T/create.out"); msg=${out//"$path"/P}
}

# ---------------------------------------------------------------- 1. the file rule
cfg "$T/etc/ok.json" "$LISTER"
create ok "$T/etc/ok.json"
is "rule: a root-owned 0644 file with no symlink in its path is read (control)" "$st" 0
rt delete -f ok >/dev/null 2>&1
create missing "$T/etc/nope.json"
is "rule: a missing file fails create (exit 1)" "$st" 1
like "... 'No such file', the rule named" "$out" "org.sbx.openclaw.config '$T/etc/nope.json': No such file or directory, or it is not a regular file sbx-runc may read"
want=$msg
[ ! -e "$T/root/missing" ] && ok "... nothing left behind" || not_ok "... nothing left behind"

# refused NAME PATH WHY [runtime options]: fails, the same message as a missing file
refused() {
        local name=$1 path=$2 why=$3; shift 3
        create "$name" "$path" "$@"
        is "rule: $why: refused (exit 1)" "$st" 1
        is "rule: $why: the message is the missing file's (existence not told)" "$msg" "$want"
        [ ! -e "$T/root/$name" ] || not_ok "rule: $why: left behind"
}
ln -s ok.json "$T/etc/link.json"
refused link "$T/etc/link.json" "a symlink to an allowed file"
mkdir -p "$T/real"; cfg "$T/real/c.json" "$LISTER"; ln -s real "$T/dirlink"
refused dirlink "$T/dirlink/c.json" "a symlink in a directory component"
create dirlink-ctl "$T/real/c.json"
is "rule: the same file by its real path is read (control)" "$st" 0
rt delete -f dirlink-ctl >/dev/null 2>&1
cfg "$T/etc/gw.json" "$LISTER"; chmod 0664 "$T/etc/gw.json"
refused gw "$T/etc/gw.json" "a group-writable file"
cfg "$T/etc/ow.json" "$LISTER"; chmod 0646 "$T/etc/ow.json"
refused ow "$T/etc/ow.json" "an other-writable file"
cfg "$T/etc/nobody.json" "$LISTER"; chown 65534:65534 "$T/etc/nobody.json"
refused nobody "$T/etc/nobody.json" "a file owned by another user (uid 65534)"
printf 'root:$6$SECRETsalt$hash:19000:0:99999:7:::\n' > "$T/etc/shadow"; chmod 0600 "$T/etc/shadow"
refused secret "$T/etc/shadow" "a root-only (0600) file without an --annotation-config-dir"
unlike "... nothing of its content is shown" "$out" 'SECRET|invalid character'
refused hostshadow /etc/shadow "the host's /etc/shadow"
refused devnull /dev/null "a character device"
mkfifo "$T/etc/fifo"
out=$(cd "$(bundle fifo "$T/etc/fifo")" && timeout 10 "$SBX_RUNC" --root "$T/root" create fifo 2>&1 </dev/null); st=$?
is "rule: a FIFO fails at once, as a missing file" "$st:${out//"$T/etc/fifo"/P}" "1:$want"
refused dotdot "$T/etc/../etc/link.json" "a symlink reached through '..'"
# \$include: the files it names are taken under the same rule (else the rule is a name away)
mkdir -p "$T/inc"; cfg "$T/inc/main.json" "{ \$include: './agents.json5' }"
cfg "$T/inc/agents.json5" "$LISTER"
create inc-ctl "$T/inc/main.json"
is "rule: \$include of a root-owned 0644 file with one link is read (control)" "$st" 0
rt delete -f inc-ctl >/dev/null 2>&1
# included_refused NAME WHY: the included file as it is now makes create fail, the file named
included_refused() {
        create "$1" "$T/inc/main.json"
        is "rule: \$include of $2: refused (exit 1)" "$st" 1
        like "... as missing" "$out" "included file '$T/inc/agents.json5': No such file or directory, or not one"
        unlike "... nothing of its content is shown" "$out" 'SECRET|invalid character'
        [ ! -e "$T/root/$1" ] || not_ok "rule: \$include of $2: left behind"
}
chmod 0664 "$T/inc/agents.json5"; included_refused inc-gw "a group-writable file"
chmod 0644 "$T/inc/agents.json5"; chown 65534 "$T/inc/agents.json5"; included_refused inc-nobody "another user's file"
rm -f "$T/inc/agents.json5"; ln "$T/etc/shadow" "$T/inc/agents.json5"
included_refused inc-hardlink "a hardlink to a root-only file"
rm -f "$T/inc/agents.json5"; cfg "$T/inc/real.json5" "$LISTER"; ln -s real.json5 "$T/inc/agents.json5"
included_refused inc-symlink "a symlink"
rm -f "$T/inc/agents.json5"; mkfifo "$T/inc/agents.json5"
create inc-fifo "$T/inc/main.json" </dev/null
is "rule: \$include of a FIFO: refused at once (exit 1)" "$st" 1
mkdir -m 0700 "$T/private"; cfg "$T/private/c.json" "$LISTER"
refused private "$T/private/c.json" "a 0644 file in a 0700 directory (not every user's)"
chmod 0711 "$T/private"
create private-ctl "$T/private/c.json"
is "rule: the same file once its directory is searchable by others is read (control)" "$st" 0
rt delete -f private-ctl >/dev/null 2>&1

# --annotation-config-dir: only files beneath it, root-only ones too
D=$T/allowed; mkdir -p "$D/sub"; cfg "$D/sub/c.json" "$LISTER"; chmod 0600 "$D/sub/c.json"
create indir "$D/sub/c.json" --annotation-config-dir "$D"
is "dir: a 0600 file beneath --annotation-config-dir is read" "$st" 0
rt delete -f indir >/dev/null 2>&1
refused outdir "$T/etc/ok.json" "a file outside --annotation-config-dir (read without it)" --annotation-config-dir "$D"
refused escape "$D/../etc/ok.json" "'..' out of --annotation-config-dir" --annotation-config-dir "$D"
refused prefix "${D}x/c.json" "a sibling sharing its name as a prefix" --annotation-config-dir "$D"
ln -s "$T/etc/ok.json" "$D/link.json"
refused dirsym "$D/link.json" "a symlink beneath --annotation-config-dir" --annotation-config-dir "$D"
# a hardlink: whoever may write a config dir could link any file of its filesystem there
ln "$T/etc/shadow" "$D/hardlink.json"
refused hardlink "$D/hardlink.json" "a hardlink beneath --annotation-config-dir to a root-only file" \
        --annotation-config-dir "$D"
unlike "... nothing of its content is shown" "$out" 'SECRET|invalid character'
rm -f "$D/hardlink.json"
ln "$T/etc/ok.json" "$T/etc/ok-link.json"
refused hardlink2 "$T/etc/ok.json" "a file with a second link (st_nlink 2), without a config dir"
rm -f "$T/etc/ok-link.json"
create hardlink-ctl "$T/etc/ok.json"
is "rule: the same file with its second link gone is read (control)" "$st" 0
rt delete -f hardlink-ctl >/dev/null 2>&1
b=$(bundle envdir "$D/sub/c.json" "['true']")
out=$(cd "$b" && SBX_RUNC_ANNOTATION_CONFIG_DIRS="/nonexistent:$D" rt run envdir 2>&1 </dev/null); st=$?
is "dir: \$SBX_RUNC_ANNOTATION_CONFIG_DIRS (second entry) works the same" "$st:$out" "0:"
b=$(bundle envout "$T/etc/ok.json" "['true']")
out=$(cd "$b" && SBX_RUNC_ANNOTATION_CONFIG_DIRS="$D" rt run envout 2>&1 </dev/null); st=$?
is "dir: ... and refuses outside it" "$st:${out//"$T/etc/ok.json"/P}" "1:$want"
out=$(rt --annotation-config-dir relative/dir list 2>&1); st=$?
is "dir: a relative --annotation-config-dir is refused (exit 1)" "$st" 1

# rootless (uid 65534, its own user namespace): the runtime's own uid owns the file too
if command -v setpriv >/dev/null; then
        R=$T/rl; mkdir -p "$R/b" "$R/xdg"; chmod -R a+rX "$T/rootfs"
        cfg "$R/own.json" "$LISTER"; chown 65534:65534 "$R/own.json"
        cfg "$R/other.json" "$LISTER"; chown 1:1 "$R/other.json"
        chown -R 65534:65534 "$R/b" "$R/xdg"
        rl() {  # rl CONFIG -> the run's output and status
                (cd "$R/b" && setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$R" XDG_RUNTIME_DIR="$R/xdg" \
                        CFG="$1" ROOTFS="$T/rootfs" sh -c '
                        rm -f config.json && '"$SBX_RUNC"' spec --rootless && python3 -c "
import json, os
c = json.load(open(\"config.json\"))
c[\"root\"][\"path\"] = os.environ[\"ROOTFS\"]
c[\"process\"][\"terminal\"] = False
c[\"process\"][\"args\"] = [\"/opt/busybox\", \"echo\", \"ran\"]
c[\"annotations\"] = {\"org.sbx.openclaw.config\": os.environ[\"CFG\"], \"org.sbx.policy.agent\": \"lister\"}
json.dump(c, open(\"config.json\", \"w\"))" && '"$SBX_RUNC"' run rl' 2>&1 </dev/null)
        }
        out=$(rl "$R/own.json"); st=$?
        like "rootless: a file of the runtime's own uid is read (the agent's rule refuses the command)" "$st:$out" \
                "^1:.*exec refused by policy: .*'/opt/busybox' matches no pattern"
        out=$(rl "$R/other.json"); st=$?
        is "rootless: a file of another user (uid 1) is refused as a missing one" "$st:${out//"$R/other.json"/P}" "1:$want"
        # exec in a rootless container: the recorded rules, the exec log's listener, the audit log
        out=$(cd "$R/b" && setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$R" XDG_RUNTIME_DIR="$R/xdg" sh -c '
                R='"$SBX_RUNC"'
                sed -i "s|\"/opt/busybox\", \"echo\", \"ran\"|\"sleep\", \"60\"|" config.json
                sed -i "s|$0|$1|" config.json
                $R run -d rl2 </dev/null >/dev/null 2>&1 || echo run-failed
                $R exec rl2 sh -c "/opt/busybox echo gc-ran; cat /etc/passwd >/dev/null && echo cat-ok"
                $R exec rl2 /opt/busybox echo ran; echo "status=$?"
                cat "$XDG_RUNTIME_DIR/sbx-runc/rl2/audit.jsonl"
                $R delete -f rl2' "$R/other.json" "$R/own.json" 2>&1)
        like "rootless exec: a grandchild not on the allowlist gets EACCES" "$out" '/opt/busybox: Permission denied'
        like "rootless exec: ... one on it runs" "$out" 'cat-ok'
        like "rootless exec: a command not on it is refused (255)" "$out" 'status=255'
        like "rootless exec: the listener logged the refused grandchild" "$out" '"event":"exec-seen".*"path":"/opt/busybox".*"decision":"deny"'
else
        for i in 1 2 3 4 5 6; do skip "rootless: setpriv missing"; done
fi

# ------------------------------------------- 2. exec applies the rules recorded at create
C=$T/etc/live.json
cfg "$C" "$LISTER"
sum_at_create=$(sha256sum "$C" | cut -d' ' -f1)
b=$(bundle live "$C" "['sleep','60']")
(cd "$b" && rt run -d live) >/dev/null 2>&1 </dev/null
out=$(rt exec live /opt/busybox echo ran 2>&1); st=$?
is "recorded: exec of a binary not on the allowlist is refused (255)" "$st" 255
cfg "$C" "$FULL"                                   # the config now allows every exec
out=$(rt exec live /opt/busybox echo ran 2>&1); st=$?
is "recorded: after openclaw.json is edited to allow it, exec still refuses (255)" "$st" 255
like "... the recorded rule named" "$out" "exec refused by policy: .*'/opt/busybox' matches no pattern"
out=$(rt exec live cat /etc/passwd 2>&1); st=$?; out=${out%%$'\n'*}
is "recorded: a safe bin still runs" "$st:$out" "0:root:x:0:0:root:/root:/bin/sh"
b=$(bundle live2 "$C" "['sleep','60']")
(cd "$b" && rt run -d live2) >/dev/null 2>&1 </dev/null
out=$(rt exec live2 /opt/busybox echo ran 2>&1); st=$?
is "recorded: a container created after the edit gets the new rules (control)" "$st:$out" "0:ran"
cfg "$C" "$LISTER"                                 # the reverse: narrowed after create
out=$(rt exec live2 /opt/busybox echo ran 2>&1); st=$?
is "recorded: a narrowing edit does not reach a running container either (recreate it)" "$st:$out" "0:ran"
rm -f "$C"
out=$(rt exec live cat /etc/passwd 2>&1); st=$?; out=${out%%$'\n'*}
is "recorded: exec does not read openclaw.json (deleted: still works)" "$st:$out" "0:root:x:0:0:root:/root:/bin/sh"
out=$(rt exec live /opt/busybox echo ran 2>&1); st=$?
is "recorded: ... and still refuses" "$st" 255
grep -q '"exec_allow":\["/bin/sh","/bin/cat"' "$T/root/live/policy.json" && ok "recorded: policy.json holds the allowlist" ||
        not_ok "recorded: policy.json holds the allowlist: $(cat "$T/root/live/policy.json")"
is "recorded: policy.json names the config's sha256 at create (compare to find containers on older rules)" \
        "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["configSha256"], p["config"], p["agent"])' "$T/root/live/policy.json")" \
        "$sum_at_create $C lister"
is "recorded: policy.json is 0600" "$(stat -c %a "$T/root/live/policy.json")" 600
mv "$T/root/live/policy.json" "$T/policy.saved"
out=$(rt exec live cat /etc/passwd 2>&1); st=$?; out=${out%%$'\n'*}
is "recorded: without policy.json exec fails closed (255)" "$st" 255
like "... saying to recreate the container" "$out" "recreate the container"
mv "$T/policy.saved" "$T/root/live/policy.json"

# --------------------------------------------------------------- 3. the audit log
A=$T/root/live/audit.jsonl
rt exec live cat /etc/passwd >/dev/null 2>&1
rt exec live /opt/busybox echo ran >/dev/null 2>&1
out=$(rt exec live sh -c '/opt/busybox echo grandchild-ran; cat /etc/passwd >/dev/null && echo cat-ok' 2>&1)
like "exec log: a grandchild not on the allowlist is refused (EACCES)" "$out" '/opt/busybox: Permission denied'
like "exec log: ... a grandchild on it runs" "$out" 'cat-ok'
[ -f "$A" ] && ok "audit: <root>/<id>/audit.jsonl exists" || not_ok "audit: <root>/<id>/audit.jsonl exists"
is "audit: it is 0600" "$(stat -c %a "$A" 2>/dev/null)" 600
python3 - "$A" > "$T/audit.check" <<'P'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
def has(**kw):
    return any(all((r.get(k) == v if not callable(v) else v(r.get(k))) for k, v in kw.items()) for r in recs)
print("create-allow", has(event="exec", decision="allow", argv=["sleep", "60"]))
print("start", has(event="start", argv=["sleep", "60"]))
print("exec-allow", has(event="exec", decision="allow", argv=["cat", "/etc/passwd"], resolved=lambda f: f and f.endswith("cat") or f == "/bin/busybox"))
print("exec-deny", has(event="exec", decision="deny", argv=["/opt/busybox", "echo", "ran"], configKey=lambda k: bool(k)))
print("exec-exit", has(event="exit"))
print("seen-deny", has(event="exec-seen", decision="deny", path="/opt/busybox", argv=["/opt/busybox", "echo", "grandchild-ran"]))
print("seen-allow", has(event="exec-seen", decision="allow", argv=["cat", "/etc/passwd"]))
print("agent", all(r.get("agent") == "lister" for r in recs))
P
for k in create-allow start exec-allow exec-deny exec-exit seen-deny seen-allow agent; do
        is "audit: $k record" "$(grep "^$k " "$T/audit.check" | cut -d' ' -f2)" True
done
b=$(bundle denied "$T/etc/ok.json" "['/opt/busybox','echo','x']")
out=$(cd "$b" && rt create denied 2>&1 </dev/null); st=$?
is "audit: a create refused by the rules fails (exit 1), nothing left (its refusal is the error)" "$st:$(ls "$T/root" | grep -c '^denied$')" "1:0"
b=$T/b-plain; mkdir -p "$b"
ROOTFS=$T/rootfs python3 "$HERE/mkconfig.py" "$b" "c['process']['args']=['sleep','60']
c['linux']['cgroupsPath']='/sbx-runc/rules-$$-plain'"
(cd "$b" && rt run -d plain) >/dev/null 2>&1 </dev/null
rt exec plain true >/dev/null 2>&1
[ -d "$T/root/plain" ] && [ ! -e "$T/root/plain/audit.jsonl" ] && [ ! -e "$T/root/plain/policy.json" ] &&
        ok "audit: a container without the annotations has no audit.jsonl or policy.json (control)" ||
        not_ok "audit: a container without the annotations has no audit.jsonl or policy.json (control)"
rt delete -f live >/dev/null 2>&1
[ ! -e "$T/root/live" ] && ok "audit: delete removes the state dir, audit.jsonl with it" ||
        not_ok "audit: delete removes the state dir: $(ls "$T/root/live")"

# --audit-log FILE (or $SBX_RUNC_AUDIT_LOG): one log kept after delete, refused creates too
L=$T/audit-all.jsonl
b=$(bundle kdenied "$T/etc/ok.json" "['/opt/busybox','echo','x']")
(cd "$b" && rt --audit-log "$L" create kdenied >/dev/null 2>&1 </dev/null); st=$?
is "audit-log: a create refused by the rules fails (exit 1), nothing left in the state root" \
        "$st:$(ls "$T/root" | grep -c '^kdenied$')" "1:0"
b=$(bundle kept "$T/etc/ok.json" "['sleep','60']")
(cd "$b" && SBX_RUNC_AUDIT_LOG=$L rt run -d kept >/dev/null 2>&1 </dev/null)
SBX_RUNC_AUDIT_LOG=$L rt exec kept /opt/busybox echo ran >/dev/null 2>&1
rt --audit-log "$L" exec kept cat /etc/passwd >/dev/null 2>&1
rt delete -f kept >/dev/null 2>&1
b=$(bundle ran "$T/etc/ok.json" "['sh','-c','exit 3']")
(cd "$b" && rt --audit-log "$L" run ran >/dev/null 2>&1 </dev/null); st=$?
is "audit-log: run returns the process's status" "$st" 3
[ ! -e "$T/root/kept/audit.jsonl" ] && ok "audit-log: nothing is written in the state dir then" ||
        not_ok "audit-log: nothing is written in the state dir then"
python3 - "$L" > "$T/audit2.check" <<'P'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
def has(**kw):
    return any(all(r.get(k) == v for k, v in kw.items()) for r in recs)
print("refused-create", has(container="kdenied", event="exec", decision="deny", argv=["/opt/busybox", "echo", "x"]))
print("create", has(container="kept", event="exec", decision="allow", argv=["sleep", "60"]))
print("exec-deny", has(container="kept", event="exec", decision="deny", argv=["/opt/busybox", "echo", "ran"]))
print("exec-allow", has(container="kept", event="exec", decision="allow", argv=["cat", "/etc/passwd"]))
print("run-start", has(container="ran", event="start", argv=["sh", "-c", "exit 3"]))
print("run-exit", has(container="ran", event="exit", exitCode=3))
print("every-record-named", all(r.get("container") in ("kdenied", "kept", "ran") for r in recs))
P
for k in refused-create create exec-deny exec-allow run-start run-exit every-record-named; do
        is "audit-log: $k (kept after delete)" "$(grep "^$k " "$T/audit2.check" | cut -d' ' -f2)" True
done
is "audit-log: the file is 0600" "$(stat -c %a "$L" 2>/dev/null)" 600
out=$(rt --audit-log relative.jsonl list 2>&1); st=$?
is "audit-log: a relative path is refused (exit 1)" "$st" 1
# odd files as --audit-log: refused at once with the path named, nothing written through them
mkfifo "$T/audit.fifo"
b=$(bundle kfifo "$T/etc/ok.json" "['true']")
out=$(cd "$b" && timeout 20 "$SBX_RUNC" --root "$T/root" --audit-log "$T/audit.fifo" create kfifo 2>&1 </dev/null); st=$?
is "audit-log: a FIFO fails create at once (exit 1), nothing left" "$st:$(ls "$T/root" | grep -c '^kfifo$')" "1:0"
like "... the path named" "$out" "--audit-log: '$T/audit.fifo' is a FIFO no process reads, or a socket"
echo keep > "$T/audit.victim"; ln -s "$T/audit.victim" "$T/audit.link"
b=$(bundle klink "$T/etc/ok.json" "['true']")
out=$(cd "$b" && rt --audit-log "$T/audit.link" create klink 2>&1 </dev/null); st=$?
is "audit-log: a symlink fails create (exit 1), nothing left" "$st:$(ls "$T/root" | grep -c '^klink$')" "1:0"
is "... its target is not written" "$(cat "$T/audit.victim")" keep
done_testing

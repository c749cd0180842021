#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx's hardening as opt-in OCI annotations (issue 15):
#   org.sbx.openclaw.config + org.sbx.policy.agent [+ org.sbx.policy.session]:
#     the agent's derived rules, as the docker drop-in gives its sandboxes
#     (exec allowlist: before clone3 + Landlock; read-only fs: Landlock;
#     no inet sockets: seccomp), in the container's process and in `exec`;
#   org.sbx.seccomp=default: sbx's always-on seccomp layer on top.
# Each rule both ways from inside the container (the same bundle without the
# annotation is the control, and runc runs that one too: without
# annotations the container gets exactly what config.json says). Bad values
# fail create naming the annotation, exit 1, in --log JSON, nothing left.
. "$(dirname "$0")/oci-lib.sh"
need_root
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
"$SBX_BUILD_ROOT/sbx" run --no-tty --read-only-fs -- /bin/true 2>/dev/null ||
        { echo "1..0 # SKIP Landlock is not available here (the agent's file rules need it; sbx doctor says why)"; exit 0; }
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/sbx-oci-annot.XXXXXX)
chmod 755 "$T"   # without --annotation-config-dir the config's dirs must be searchable by others
on_exit 'for id in $(ls "$T/root" 2>/dev/null); do rt delete -f "$id" >/dev/null 2>&1; done; rm -rf "$T"'
make_rootfs "$T/rootfs"
ln -sf busybox "$T/rootfs/bin/nc"; ln -sf busybox "$T/rootfs/bin/unshare"
mkdir -p "$T/rootfs/opt" "$T/rw"
cp "$T/rootfs/bin/busybox" "$T/rootfs/opt/busybox"     # a binary no allowlist names
cp "$SBX_PROBE" "$T/rootfs/bin/sbx-probe"
export HOME=$T/home; mkdir -p "$HOME"                  # no exec-approvals.json of the caller's
rt() { "$SBX_RUNC" --root "$T/root" "$@"; }
CFG=$T/openclaw.json
cat > "$CFG" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'lister', tools: { exec: { security: 'allowlist', safeBins: ['cat'] } } },
                    { id: 'mapper', tools: { exec: { security: 'allowlist', safeBins: ['cat', 'sbx-probe'] } } },
                    { id: 'family', tools: { deny: ['exec'] } },
                    { id: 'reader', tools: { deny: ['write', 'edit', 'apply_patch'] } },
                    { id: 'netter', sandbox: { docker: { network: 'bridge' } } } ] } }
J
# bundle NAME ANNOTATIONS(python dict) [ARGS(python list)] -> $T/b-NAME
bundle() {
        local b=$T/b-$1
        mkdir -p "$b"
        ROOTFS=$T/rootfs python3 "$HERE/mkconfig.py" "$b" "c['process']['args']=${3:-$PROBE}
c['process']['noNewPrivileges']=False
c['mounts'].append({'destination':'/rw','type':'bind','source':'$T/rw','options':['rbind','rw']})
c['annotations']=$2" || echo "# mkconfig failed for $1"
        echo "$b"
}
pol() { echo "{'org.sbx.openclaw.config':'$CFG','org.sbx.policy.agent':'$1'$2}"; }
# every rule, probed: exec of a file no allowlist names, a write to a rw
# bind and to a tmpfs, an AF_INET socket, a user namespace, no_new_privs
PROBE="['sh','-c','cat /etc/passwd >/dev/null && echo cat-ran; /opt/busybox echo busybox-copy-ran; echo x > /rw/f && echo rw-write-ok; echo y > /tmp/t && echo tmp-write-ok; nc 127.0.0.1 1 </dev/null; unshare -U true && echo userns-ok; grep NoNewPrivs /proc/self/status']"
runit() { out=$(cd "$1" && rt run "$2" 2>&1 </dev/null); st=$?; }
# probe NAME ANNOTATIONS [ARGS]: bundle + run, output in $out, status in $st
probe() { local b; b=$(bundle "$@"); runit "$b" "$1"; }

# --- without annotations: exactly config.json, the same as runc ---
b=$(bundle none "{}")
runit "$b" none
like "no annotation: a binary of the rootfs runs" "$out" 'busybox-copy-ran'
like "no annotation: the rw bind is writable" "$out" 'rw-write-ok'
like "no annotation: an AF_INET socket is made (refused by the port only)" "$out" 'Connection refused|Network is unreachable'
like "no annotation: a user namespace can be made" "$out" 'userns-ok'
like "no annotation: noNewPrivileges false is kept" "$out" 'NoNewPrivs:[[:space:]]+0'
if command -v runc >/dev/null; then
        ctl=$(cd "$b" && runc --root "$T/runc" run ctl 2>&1 </dev/null)
        is "no annotation: the container sees what runc's sees (control)" "$(sort <<<"$out")" "$(sort <<<"$ctl")"
else
        skip "no annotation: runc as control: runc not installed"
fi

# --- exec allowlist (tools.exec.security allowlist + safeBins) ---
probe lister "$(pol lister)"
is "allowlist: the container runs" "$st" 0
like "allowlist: a safe bin (cat) runs" "$out" 'cat-ran'
like "allowlist: a binary not on it fails with EACCES (Landlock)" "$out" '/opt/busybox: Permission denied'
unlike "allowlist: ... and did not run" "$out" 'busybox-copy-ran'
like "agent rules: no_new_privs is set (Landlock needs it)" "$out" 'NoNewPrivs:[[:space:]]+1'
like "agent without network tools: AF_INET fails with EAFNOSUPPORT (seccomp)" "$out" 'Address family not supported'
like "agent rules only: no always-on layer without org.sbx.seccomp (user ns allowed)" "$out" 'userns-ok'
b=$(bundle lister-cmd "$(pol lister)" "['/opt/busybox','echo','ran']")
out=$(cd "$b" && rt --log "$T/lc.json" --log-format json create lister-cmd 2>&1 </dev/null); st=$?
is "allowlist: a process.args[0] not on it fails create (exit 1)" "$st" 1
like "... decided before clone3, the rule and its config key named" "$out" "exec refused by policy: .*'/opt/busybox' matches no pattern of agents.entries.lister.tools.exec.security"
[ ! -e "$T/root/lister-cmd" ] && ok "... nothing left behind" || not_ok "... nothing left behind"

# exec into it: the same rules
b=$(bundle lister-d "$(pol lister)" "['sleep','60']")
(cd "$b" && rt run -d lister-d) >/dev/null 2>&1 </dev/null
out=$(rt exec lister-d cat /etc/passwd 2>&1); st=$?
is "exec, allowlist: a safe bin runs" "$st $out" '0 root:x:0:0:root:/root:/bin/sh'
out=$(rt exec lister-d /opt/busybox echo ran 2>&1); st=$?
is "exec, allowlist: a command not on it could not be started (255, as runc)" "$st" 255
like "... refused before fork, rule named" "$out" "exec refused by policy: .*'/opt/busybox' matches no pattern"
out=$(rt exec lister-d sh -c '/opt/busybox echo ran; nc 127.0.0.1 1 </dev/null' 2>&1)
like "exec, allowlist: a grandchild not on it fails with EACCES (Landlock)" "$out" '/opt/busybox: Permission denied'
like "exec: the socket rule holds too" "$out" 'Address family not supported'
rt delete -f lister-d >/dev/null 2>&1
b=$(bundle none-d "{}" "['sleep','60']")
(cd "$b" && rt run -d none-d) >/dev/null 2>&1 </dev/null
out=$(rt exec none-d sh -c '/opt/busybox echo ran; nc 127.0.0.1 1 </dev/null' 2>&1)
like "exec, no annotation: the same command runs" "$out" '^ran'
unlike "exec, no annotation: the socket is made" "$out" 'Address family not supported'
rt delete -f none-d >/dev/null 2>&1

# --- exec removed by the tool policy: every exec refused ---
b=$(bundle family "$(pol family)")
out=$(cd "$b" && rt create family 2>&1 </dev/null); st=$?
is "exec tool denied: create fails (exit 1)" "$st" 1
like "... naming the rule and key" "$out" "exec refused by policy: tool policy: 'exec' .*agents.entries.family.tools.deny"
[ ! -e "$T/root/family" ] && ok "... nothing left behind" || not_ok "... nothing left behind"

# --- no fs-write tool: read-only file system (read-only mounts, Landlock) ---
probe reader "$(pol reader)"
like "read-only fs: a write to the rw bind fails (EROFS: the mount is made read-only)" "$out" "can't create /rw/f: Read-only file system"
like "read-only fs: the tmpfs stays writable" "$out" 'tmp-write-ok'
like "read-only fs: exec is not restricted (no exec security set)" "$out" 'busybox-copy-ran'

# --- a network the agent may use: no socket rule ---
probe netter "$(pol netter)"
unlike "docker.network bridge: AF_INET is not refused" "$out" 'Address family not supported'
like "... and the socket is made" "$out" 'Connection refused|Network is unreachable'

# --- a session key ---
probe sess "$(pol lister ",'org.sbx.policy.session':'agent:lister:s1'")"
is "org.sbx.policy.session: the container runs" "$st" 0
like "org.sbx.policy.session: the agent's rules apply" "$out" '/opt/busybox: Permission denied'

# --- org.sbx.seccomp=default: the always-on layer on top of config.json's ---
probe always "{'org.sbx.seccomp':'default'}"
like "seccomp=default: unshare(CLONE_NEWUSER) fails with EPERM" "$out" 'unshare.*Operation not permitted'
unlike "... it did not happen" "$out" 'userns-ok'
like "seccomp=default: everything else as config.json says" "$out" 'busybox-copy-ran'
b=$(bundle always2 "{'org.sbx.seccomp':'default'}")
python3 - "$b/config.json" <<'P'
import json, sys
c = json.load(open(sys.argv[1]))
c['linux']['seccomp'] = {'defaultAction': 'SCMP_ACT_ALLOW', 'syscalls': [
    {'names': ['mkdir', 'mkdirat'], 'action': 'SCMP_ACT_ERRNO', 'errnoRet': 1}]}
c['process']['args'] = ['sh', '-c', 'mkdir /tmp/d; unshare -U true && echo userns-ok']
json.dump(c, open(sys.argv[1], 'w'))
P
runit "$b" always2
like "seccomp=default with linux.seccomp: config.json's rule holds" "$out" "mkdir: can't create directory '/tmp/d': Operation not permitted"
like "... and the always-on layer too" "$out" 'unshare.*Operation not permitted'

# syscalls newer than libseccomp (escape-kernel.sh seccomp-new-*): on top of
# an allow-by-default linux.seccomp the layer refuses them (EPERM for the
# mount API's open_tree_attr, ENOSYS for the others); without the annotation
# config.json's filter alone decides, as in runc (the control)
NEWSYS='for s in open_tree_attr statmount futex_requeue; do echo $s=$(sbx-probe try-syscall $s); done'
for a in none default; do
        [ $a = default ] && ann="{'org.sbx.seccomp':'default'}" || ann="{}"
        b=$(bundle newsys-$a "$ann")
        python3 - "$b/config.json" "$NEWSYS" <<'P'
import json, sys
c = json.load(open(sys.argv[1]))
c['linux']['seccomp'] = {'defaultAction': 'SCMP_ACT_ALLOW', 'syscalls': []}
c['process']['args'] = ['sh', '-c', sys.argv[2]]
json.dump(c, open(sys.argv[1], 'w'))
P
        runit "$b" newsys-$a
        eval "newsys_$a=\$(echo \$out)"
done
outside=$(for s in open_tree_attr statmount futex_requeue; do echo $s=$("$SBX_PROBE" try-syscall $s); done)
is "no annotation, allow-all linux.seccomp: new syscalls reach the kernel, as outside" "$newsys_none" "$(echo $outside)"
is "seccomp=default on an allow-all linux.seccomp: open_tree_attr EPERM, statmount ENOSYS, futex_requeue as outside" \
        "$newsys_default" "open_tree_attr=EPERM statmount=ENOSYS futex_requeue=$("$SBX_PROBE" try-syscall futex_requeue)"

# --- rootless (spec --rootless: the caller's own user namespace), uid 65534 ---
if command -v setpriv >/dev/null; then
        mkdir -p "$T/rl"; chmod 755 "$T"; chmod -R a+rX "$T/rootfs" "$CFG"; chown 65534:65534 "$T/rl"
        out=$(cd "$T/rl" && setpriv --reuid 65534 --regid 65534 --clear-groups \
                env HOME="$T/rl" XDG_RUNTIME_DIR="$T/rl/xdg" CFG="$CFG" ROOTFS="$T/rootfs" sh -c '
                mkdir -p "$XDG_RUNTIME_DIR" && '"$SBX_RUNC"' spec --rootless && python3 -c "
import json, os
c = json.load(open(\"config.json\"))
c[\"root\"][\"path\"] = os.environ[\"ROOTFS\"]
c[\"process\"][\"terminal\"] = False
c[\"process\"][\"args\"] = [\"sh\", \"-c\", \"cat /etc/passwd >/dev/null && echo cat-ran; /opt/busybox echo busybox-copy-ran; nc 127.0.0.1 1 </dev/null\"]
c[\"annotations\"] = {\"org.sbx.openclaw.config\": os.environ[\"CFG\"], \"org.sbx.policy.agent\": \"lister\"}
json.dump(c, open(\"config.json\", \"w\"))" && '"$SBX_RUNC"' run rl1' 2>&1)
        like "rootless, allowlist: a safe bin runs" "$out" 'cat-ran'
        like "rootless, allowlist: a binary not on it fails with EACCES (Landlock)" "$out" '/opt/busybox: Permission denied'
        like "rootless: the socket rule holds" "$out" 'Address family not supported'
else
        skip "rootless: setpriv missing"
fi

# --- bad values: create fails naming the annotation, exit 1, --log JSON, nothing left ---
echo "{ agents: { list: [ { id: 'x' " > "$T/bad.json5"
bad() {
        local name=$1 ann=$2 want=$3 b out st
        b=$(bundle "bad-$name" "$ann")
        rm -f "$T/log.json"
        out=$(cd "$b" && rt --log "$T/log.json" --log-format json create "bad-$name" 2>&1 </dev/null); st=$?
        is "bad $name: create fails (exit 1)" "$st" 1
        like "bad $name: the error names it" "$out" "$want"
        like "bad $name: the error is in --log as JSON" "$(cat "$T/log.json" 2>/dev/null)" '^\{"level":"error","msg":"config.json: annotations'
        [ ! -e "$T/root/bad-$name" ] && ok "bad $name: nothing left behind" || not_ok "bad $name: nothing left behind"
}
bad missing-file "{'org.sbx.openclaw.config':'$T/nope.json','org.sbx.policy.agent':'main'}" \
        "org.sbx.openclaw.config '$T/nope.json'.*No such file"
bad unknown-agent "$(pol nobody)" "org.sbx.policy.agent 'nobody': unknown agent id \"nobody\""
bad json5 "{'org.sbx.openclaw.config':'$T/bad.json5','org.sbx.policy.agent':'main'}" \
        "org.sbx.openclaw.config '$T/bad.json5'.*JSON5 parse error"
bad unknown-key "{'org.sbx.policy.agnet':'main'}" "annotations.org.sbx.policy.agnet: unknown sbx annotation"
bad seccomp-value "{'org.sbx.seccomp':'strict'}" "annotations.org.sbx.seccomp: 'strict': the only value is 'default'"
bad agent-alone "{'org.sbx.policy.agent':'main'}" "annotations.org.sbx.policy.agent: needs org.sbx.openclaw.config"
bad config-alone "{'org.sbx.openclaw.config':'$CFG'}" "annotations.org.sbx.openclaw.config: needs org.sbx.policy.agent"
# the container's writable rootfs: an allowed file lies on it, so it kept
# exec, and a file the container wrote there (/opt) could be mapped
# executable (LD_PRELOAD into an allowed program). The rootfs is noexec, its
# /bin, /usr, /lib* and the allowed files' directories bound read-only.
MAP="['sh','-c','cat /bin/busybox > /opt/lib.so; sbx-probe mmap-exec /opt/lib.so; sbx-probe mmap-exec /bin/busybox; echo x > /opt/w && cat /opt/w']
c['root']['readonly']=False"
probe mapper "$(pol mapper)" "$MAP"
is "rootfs-mmap-exec: under an allowlist a file written to the rootfs is not mapped executable (EPERM); /bin's is; /opt stays writable" \
        "$(echo $out)" "EPERM OK x"
probe mapfree "{}" "$MAP"
control "rootfs-mmap-exec: without annotations the same file is mapped (the attack)" "$(echo $out)" "OK OK x"
done_testing

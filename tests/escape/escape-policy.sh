#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 14): ways around an agent's rules in a persistent
# sandbox (sbx create --scope + sbx exec, the path OpenClaw uses through the
# drop-in) and in sbx run. Each attack runs from inside, as a grandchild of the
# command sbx decided on, with a control that the same step is allowed where
# the rule does not forbid it.
. "$(dirname "$0")/lib.sh"

need_landlock
export HOME=$TMP/home
mkdir -p "$HOME/.openclaw"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$TMP/run}
STATE=$TMP/state
cfg=$TMP/openclaw.json
cat > "$cfg" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'tight', tools: { exec: { security: 'allowlist', safeBins: ['ls', 'python3'] } } },
                    { id: 'reader', tools: { deny: ['write', 'edit', 'apply_patch'] } } ] } }
J
# the exec approvals file's allowlist for that agent (spec §5.4): the probe
cat > "$HOME/.openclaw/exec-approvals.json" <<'J'
{ "version": 1, "agents": { "tight": { "allowlist": [ { "pattern": "/sbx-probe" } ] } } }
J
sx() { "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
mk() {
        sx create --scope session --config "$cfg" --ro-bind "$SBX_PROBE:/sbx-probe" "$@" >/dev/null 2>&1 &&
                sx ls --json | python3 -c 'import json,sys
print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")==sys.argv[1]][0])' "$2"
}
in_box() { timeout -k 5 60 "$SBX" exec --state-dir "$STATE" "$box" -- "$@" 2>&1; }

box=$(mk --agent tight)
if [ -z "$box" ]; then
        not_ok "create the allowlist sandbox"
        done_testing
fi

# --- the probe (approvals allowlist) runs; id (not allowed) is refused by the kernel
control "an allowed grandchild runs (ls from the probe)" "$(in_box /sbx-probe exec /usr/bin/ls -d /)" "/"
is "exec-denied-binary: /usr/bin/id from an allowed process: EACCES" "$(in_box /sbx-probe exec /usr/bin/id)" EACCES
is "exec-dotdot-path: /usr/bin/../bin/id decided on the file: 126 before fork" \
        "$(in_box /usr/bin/../bin/id >/dev/null; echo $?)" 126

# --- copies, links, scripts written into /tmp
is "exec-copied-binary: a copy of ls in /tmp is not ls: EACCES" \
        "$(in_box sh -c 'python3 -c "import shutil; shutil.copy(\"/usr/bin/ls\", \"/tmp/ls2\")"; /sbx-probe exec /tmp/ls2 -d /')" EACCES
is "exec-symlink-to-denied: /tmp/l -> /usr/bin/id: EACCES" \
        "$(in_box sh -c 'python3 -c "import os; os.symlink(\"/usr/bin/id\", \"/tmp/l\")"; /sbx-probe exec /tmp/l')" EACCES
control "a symlink to an allowed binary runs it" \
        "$(in_box python3 -c 'import os; os.symlink("/usr/bin/ls", "/tmp/k"); os.execv("/tmp/k", ["ls", "-d", "/"])')" "/"
is "exec-script-in-tmp: a #!/bin/sh script written to /tmp: EACCES" \
        "$(in_box sh -c 'printf "#!/bin/sh\necho ran\n" > /tmp/s; python3 -c "import os; os.chmod(\"/tmp/s\", 0o755)"; /sbx-probe exec /tmp/s')" EACCES
control "the same script read by the allowed shell runs" "$(in_box sh -c 'printf "echo ran\n" > /tmp/s2; sh /tmp/s2')" ran

# --- what Landlock's path rules cannot see
memfd='
import os, sys
fd = os.memfd_create("x", 0)
os.write(fd, open("/usr/bin/id", "rb").read())
try:
    os.execve(fd if sys.argv[1] == "fd" else "/proc/self/fd/%d" % fd, ["id"], {})
except OSError as e:
    print(e.strerror)
'
is "exec-memfd: fexecve of a memfd holding id: refused" "$(in_box python3 -c "$memfd" fd)" "Permission denied"
is "exec-memfd-proc-path: the same through /proc/self/fd: refused" "$(in_box python3 -c "$memfd" path)" "Permission denied"
control "a memfd still works as memory" \
        "$(in_box python3 -c 'import os; fd = os.memfd_create("x", 0); os.write(fd, b"ok"); print(os.pread(fd, 2, 0).decode())')" ok
# --- what the loader maps: Landlock decides execve, not mmap(PROT_EXEC).
# LD_PRELOAD (here through docker exec -e / sbx exec -e, or set by any shell)
# made an allowed program map a library the sandbox wrote, and run its code:
# every mount the sandbox can write is noexec under an allowlist.
libc=$(ldd /usr/bin/ls | grep -o '/[^ ]*libc\.so[^ ]*' | head -1)
maps='import sys; print(sum(1 for l in open("/proc/self/maps") if sys.argv[1] in l and " r-x" in l))'
for dir in /tmp /workspace /run; do
        out=$(timeout -k 5 60 "$SBX" exec --state-dir "$STATE" -e LD_PRELOAD=$dir/x.so "$box" -- \
                sh -c "python3 -c 'import shutil, sys; shutil.copy(sys.argv[1], sys.argv[2])' $libc $dir/x.so 2>/dev/null; \
                       python3 -c '$maps' $dir/x.so" 2>&1)
        like "exec-preload-${dir#/}: LD_PRELOAD of a library written to $dir into an allowed program: not mapped" \
                "$(echo "$out" | tr '\n' ' ')" 'cannot be preloaded.* 0 $'
done
out=$(timeout -k 5 60 "$SBX" exec --state-dir "$STATE" "$box" -- python3 -c 'import mmap, os, shutil, sys
shutil.copy(sys.argv[1], "/tmp/y.so")
f = os.open("/tmp/y.so", os.O_RDONLY)
try:
    mmap.mmap(f, 4096, prot=mmap.PROT_READ | mmap.PROT_EXEC); print("mapped")
except OSError as e:
    print(e.strerror)' "$libc" 2>&1)
is "exec-mmap-tmp: mmap(PROT_EXEC) of a file the sandbox wrote: EPERM (noexec)" "$out" "Operation not permitted"
control "without an allowlist the preloaded copy is mapped executable (the attack)" \
        "$(timeout -k 5 60 "$SBX" run -- /bin/sh -c "cat $libc > /tmp/x.so; LD_PRELOAD=/tmp/x.so python3 -c '$maps' /tmp/x.so" 2>&1)" 1
# A writable root (--writable-root; an image with a writable layer): an
# allowed file lies on it, so it kept exec, and a library written anywhere
# on it was mapped. The root is noexec; the image's system directories and
# the allowed files' directories are bound onto themselves read-only.
# (as root: rootless, overlayfs refuses the host's / as a lower layer)
if is_root; then
        py=$(readlink -f /usr/bin/python3)
        # (the run's layers off the root's file system: overlayfs takes no
        # upper inside its lower)
        wr_xdg=$(mktemp -d /dev/shm/sbx-wr.XXXXXX)
        wr() { XDG_RUNTIME_DIR=$wr_xdg timeout -k 5 60 "$SBX" run --rootfs / --writable-root "$@"; }
        wr_preload="python3 -c 'import shutil, sys; shutil.copy(sys.argv[1], \"/opt/x.so\")' $libc; LD_PRELOAD=/opt/x.so python3 -c '$maps' /opt/x.so"
        out=$(wr --exec-allow /usr/bin/dash --exec-allow "$py" -- /bin/sh -c "$wr_preload" 2>&1)
        like "exec-preload-writable-root: LD_PRELOAD of a library written to the writable root (/opt): not mapped" \
                "$(echo "$out" | tr '\n' ' ')" 'cannot be preloaded.* 0 $'
        control "exec-preload-writable-root: without an allowlist the same preload is mapped (the attack)" \
                "$(wr -- /bin/sh -c "$wr_preload" 2>&1)" 1
        control "exec-preload-writable-root: the root stays writable elsewhere, allowed programs and their libraries run" \
                "$(wr --exec-allow /usr/bin/dash --exec-allow "$py" -- \
                        /bin/sh -c 'echo ok > /etc/w && python3 -c "import ssl; print(open(\"/etc/w\").read().strip())"' 2>&1)" ok
        rm -rf "$wr_xdg"
else
        skip "exec-preload-writable-root: rootless, / is no overlay lower"
        skip "exec-preload-writable-root: rootless"
        skip "exec-preload-writable-root: rootless"
fi
mkdir -p "$TMP/ws-exec"
printf '#!/bin/sh\necho ran\n' > "$TMP/ws-exec/tool"
chmod 755 "$TMP/ws-exec/tool"
control "a writable mount where the allowlist lets files run keeps exec (/workspace/*)" \
        "$(timeout -k 5 60 "$SBX" run --workspace "$TMP/ws-exec" --exec-allow /usr/bin/dash --exec-allow '/workspace/*' \
                -- /bin/sh -c /workspace/tool 2>&1)" ran
control "the same library where it was installed is mapped (libc: 1 executable mapping)" \
        "$(in_box python3 -c "$maps" "$libc")" 1
is "exec-proc-fd-of-allowed: even an allowed binary through /proc/self/fd: refused (no magic links)" \
        "$(in_box python3 -c 'import os
fd = os.open("/usr/bin/ls", os.O_RDONLY)
try: os.execv("/proc/self/fd/%d" % fd, ["ls"])
except OSError as e: print(e.strerror)')" "Permission denied"
loader=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null || true)
if [ -e /lib64/ld-linux-x86-64.so.2 ]; then
        is "exec-loader-as-program: ld.so /usr/bin/id (the loader is executable for every binary): refused" \
                "$(in_box /sbx-probe exec /lib64/ld-linux-x86-64.so.2 /usr/bin/id)" EACCES
        out=$("$SBX" run --no-tty --ro-bind "$SBX_PROBE:/sbx-probe" --exec-allow /sbx-probe -- \
              /sbx-probe exec /lib64/ld-linux-x86-64.so.2 /usr/bin/id 2>&1)
        is "exec-loader-as-program (sbx run --exec-allow): refused" "$out" EACCES
else
        skip "no /lib64/ld-linux-x86-64.so.2 here"
        skip "no /lib64/ld-linux-x86-64.so.2 here"
fi
out=$("$SBX" run --no-tty --exec-allow /usr/bin/python3 -- python3 -c "$memfd" fd 2>&1)
is "exec-memfd (sbx run --exec-allow): refused" "$out" "Permission denied"

# --- the exec log cannot be reached or silenced from inside
is "listener-not-inside: no seccomp listener fd in the sandbox's processes" \
        "$(in_box python3 -c 'import glob, os
n = 0
for f in glob.glob("/proc/[0-9]*/fd/*"):
    try: n += "seccomp" in os.readlink(f)
    except OSError: pass
print(n)')" 0
is "listener-not-inside: the listener's process is not in the sandbox" \
        "$(in_box sh -c 'cat /proc/[0-9]*/comm 2>/dev/null' | grep -c sbx-exec-log)" 0

# --- read-only workspace for an agent without write tools
# --- the exec log's path is the sandbox's: printed by `sbx logs --exec` on
# the operator's terminal, a name with CR, ESC and LF erased the line above
# and forged a line of its own
in_box python3 -c 'import os
try: os.execv("/tmp/x\r\x1b[2K\x1b[1A\x1b[2Kforged\n2026 1 allow /usr/bin/ls", ["x"])
except OSError: pass
try: os.execv(b"/tmp/c1", [b"c1\xc2\x9b2J\x9b2J\x7f"])
except OSError: pass' >/dev/null
logs=$(sx logs --exec "$box")
is "logs-terminal: no raw CR or ESC from a sandbox's path reaches the terminal" "$(printf '%s' "$logs" | tr -dc '\r\033' | wc -c)" 0
is "logs-terminal: no C1 control (CSI) or DEL from its argv either" \
        "$(printf '%s' "$logs" | LC_ALL=C grep -c $'\x9b\\|\x7f')" 0
like "logs-terminal: ... the path is printed quoted, on its one line" "$logs" \
        ' not-found +"/tmp/x\\r\\033\[2K\\033\[1A\\033\[2Kforged\\n2026 1 allow /usr/bin/ls" +\[ "x" \]$'
like "logs-terminal: control: a plain path is printed as it is" "$logs" ' allow +/usr/bin/python3'
is "logs-json-terminal: no C1 control (CSI) or DEL from its argv in sbx logs --exec --json" \
        "$(sx logs --exec --json "$box" | LC_ALL=C grep -c $'\xc2\x9b\\|\x7f')" 0
like "logs-json-terminal: control: the record is there, escaped" "$(sx logs --exec --json "$box")" 'c1\\u009b2J'

rbox=$(mk --agent reader)
ws=$(sx inspect "$rbox" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["workspace"])')
box=$rbox
for what in "write /workspace/new x" "mkdir /workspace/d"; do
        # shellcheck disable=SC2086
        like "ro-workspace: $what: EROFS (the read-only mount; Landlock's EACCES under it)" \
                "$(in_box /sbx-probe $what)" '^(EROFS|EACCES)$'
done
like "ro-workspace: a symlink into /workspace: refused" \
        "$(in_box python3 -c 'import os
try: os.symlink("/etc", "/workspace/h")
except OSError as e: print(e.strerror)')" "^(Read-only file system|Permission denied)$"
# Landlock's write rights do not cover metadata: chmod, utimes and user
# xattrs of the host's workspace files went through.
echo keep > "$ws/keep"
chmod 644 "$ws/keep"
before=$(stat -c '%a %Y' "$ws/keep")
for op in 'os.chmod(p, 0)' 'os.utime(p, (1000, 1000))' 'os.setxattr(p, "user.x", b"1")'; do
        is "ro-workspace-meta: ${op%%(*}: EROFS" "$(in_box python3 -c "import os
p = '/workspace/keep'
try: $op; print('changed')
except OSError as e: print(e.strerror)")" "Read-only file system"
done
is "ro-workspace-meta: the host file's mode and mtime are unchanged" "$(stat -c '%a %Y' "$ws/keep")" "$before"
# A --tmpfs under /workspace (docker.tmpfs /workspace/.cache) is mounted
# before the workspace, which then hides it; Landlock still let writes to
# that path through, into the host's workspace. The workspace mount is
# read-only now. And a bind on the workspace (its mountpoint made in it)
# makes it read-only only after that bind.
mkdir -p "$TMP/rows/cache"
echo keep > "$TMP/rows/keep"
out=$(timeout -k 5 60 "$SBX" run --read-only-fs --workspace "$TMP/rows" --workspace-access rw --tmpfs /workspace/cache \
        -- /bin/sh -c 'echo x > /workspace/cache/a' 2>&1)
is "ro-workspace-hidden-tmpfs: a write to a --tmpfs the workspace hides does not reach the host" \
        "$(ls -A "$TMP/rows/cache" | wc -l)" 0
out=$(timeout -k 5 60 "$SBX" run --read-only-fs --workspace "$TMP/rows" --workspace-access rw \
        --ro-bind "$TMP/ws-exec:/workspace/newdir" -- /bin/sh -c 'ls /workspace/newdir; chmod 0 /workspace/keep' 2>&1)
like "ro-workspace-nested-bind: with a bind made in it, the workspace is read-only after it (chmod: EROFS)" \
        "$(echo "$out" | tr '\n' ' ')" "^tool .*Read-only file system"
is "ro-workspace-nested-bind: ... the host file's mode is unchanged" "$(stat -c %a "$TMP/rows/keep")" 644
control "ro-workspace-meta: chmod in /tmp still works" \
        "$(in_box python3 -c 'import os; open("/tmp/m", "w"); os.chmod("/tmp/m", 0o600); print(oct(os.stat("/tmp/m").st_mode & 0o777))')" 0o600
is "ro-workspace: nothing reached the host workspace" "$(ls -A "$ws" | grep -c -e new -e '^d$' -e '^h$')" 0
control "ro-workspace: /tmp stays writable" "$(in_box /sbx-probe write /tmp/f x)" OK

# An agent that loses its write tools, or gets an exec allowlist, after its
# persistent sandbox was created: the sandbox's mounts stay as they were
# made, and Landlock alone covered neither chmod/utimes (write rights) nor
# mmap(PROT_EXEC) of a library the sandbox wrote (EXECUTE right). The exec
# gets its own copy of the mount table with the flags the new rules need.
# (/tmp:exec: docker.tmpfs entries are noexec without it, as Docker's.)
cfg2=$TMP/openclaw-late.json
cat > "$cfg2" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session', docker: { tmpfs: ['/tmp:exec', '/var/tmp', '/run'] } } },
            list: [ { id: 'main', default: true }, { id: 'late' } ] } }
J
sx create --scope session --config "$cfg2" --agent late --ro-bind "$SBX_PROBE:/sbx-probe" >/dev/null 2>&1
box=$(sx ls --json | python3 -c 'import json,sys
print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")=="late"][0])')
ws=$(sx inspect "$box" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["workspace"])')
echo keep > "$ws/keep"
chmod 644 "$ws/keep"
late_probe='import mmap, os, shutil, sys
shutil.copy(sys.argv[1], "/tmp/y.so")
try: mmap.mmap(os.open("/tmp/y.so", os.O_RDONLY), 4096, prot=mmap.PROT_READ | mmap.PROT_EXEC); print("mapped")
except OSError as e: print(e.strerror)
try: os.chmod("/workspace/keep", 0o600); print("chmod")
except OSError as e: print(e.strerror)
try: os.chmod("/workspace/keep", 0o644)
except OSError: pass'
control "stale-rules: before the change the sandbox maps its own library and chmods the workspace" \
        "$(in_box python3 -c "$late_probe" "$libc" | tr '\n' ' ')" "mapped chmod "
sed -i "s/{ id: 'late' }/{ id: 'late', tools: { deny: ['write', 'edit', 'apply_patch'], exec: { security: 'allowlist', safeBins: ['ls', 'python3'] } } }/" "$cfg2"
is "stale-rules-mmap-chmod: after the config took write and set an allowlist: EPERM (noexec), EROFS" \
        "$(in_box python3 -c "$late_probe" "$libc" | tr '\n' ' ')" "Operation not permitted Read-only file system "
is "stale-rules-chmod: the host file's mode is unchanged" "$(stat -c %a "$ws/keep")" 644
out=$(timeout -k 5 60 "$SBX" exec --state-dir "$STATE" -e LD_PRELOAD=/tmp/y.so "$box" -- \
        python3 -c "$maps" /tmp/y.so 2>&1)
like "stale-rules-preload: LD_PRELOAD of the library it wrote: not mapped" "$(echo "$out" | tr '\n' ' ')" 'cannot be preloaded.* 0 $'
control "stale-rules: /tmp stays writable, allowed programs run" \
        "$(in_box python3 -c 'open("/tmp/w", "w").write("ok"); print(open("/tmp/w").read())')" ok
# ... and a writable root (--writable-root) holding the allowed files: as at
# create, the exec's copy of the root is noexec, its system directories bound
# read-only (root: overlayfs refuses the host's / as a rootless lower)
if is_root; then
        cfg3=$TMP/openclaw-late-root.json
        cat > "$cfg3" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } }, list: [ { id: 'main', default: true }, { id: 'lateroot' } ] } }
J
        wr_xdg=$(mktemp -d /dev/shm/sbx-wr.XXXXXX)
        XDG_RUNTIME_DIR=$wr_xdg sx create --scope session --config "$cfg3" --agent lateroot --rootfs / --writable-root >/dev/null 2>&1
        rbox=$(sx ls --json | python3 -c 'import json,sys
print([s["name"] for s in json.load(sys.stdin) if s["policy"].get("agent")=="lateroot"][0])')
        root_map='import mmap, os, shutil, sys
shutil.copy(sys.argv[1], "/opt/y.so")
try: mmap.mmap(os.open("/opt/y.so", os.O_RDONLY), 4096, prot=mmap.PROT_READ | mmap.PROT_EXEC); print("mapped")
except OSError as e: print(e.strerror)
import ssl; open("/etc/w", "w").write("ok"); print(open("/etc/w").read())'
        rin() { XDG_RUNTIME_DIR=$wr_xdg timeout -k 5 60 "$SBX" exec --state-dir "$STATE" "$rbox" -- "$@" 2>&1; }
        control "stale-rules-writable-root: before the change a library written to /opt is mapped" \
                "$(rin python3 -c "$root_map" "$libc" | tr '\n' ' ')" "mapped ok "
        sed -i "s/{ id: 'lateroot' }/{ id: 'lateroot', tools: { exec: { security: 'allowlist', safeBins: ['ls', 'python3'] } } }/" "$cfg3"
        is "stale-rules-writable-root: after an allowlist was set: EPERM (noexec root); /etc stays writable, ssl loads" \
                "$(rin python3 -c "$root_map" "$libc" | tr '\n' ' ')" "Operation not permitted ok "
        sx rm -f "$rbox" >/dev/null 2>&1
        rm -rf "$wr_xdg"
else
        skip "stale-rules-writable-root: rootless, / is no overlay lower"
        skip "stale-rules-writable-root: rootless"
fi

sx ls -q | while read -r n; do sx rm -f "$n" >/dev/null 2>&1; done
done_testing

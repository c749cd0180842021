#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): reaching host files outside the granted mounts,
# writing where the sandbox may only read, and what leaks through fds and cwd.
. "$(dirname "$0")/lib.sh"

ws="$TMP/ws"
mkdir -m 755 "$ws"
echo inside > "$ws/file"
secret="$SECRET_DIR/secret"

# --- direct path: the host secret's own path does not exist inside
control "the host can read the secret" "$("$SBX_PROBE" read "$secret")" "host-secret-$$"
is "host-file-direct-path: ENOENT inside" "$(tsbx -- /sbx-probe open "$secret")" ENOENT

# --- .. out of /workspace (and out of a bind)
is "dotdot-out-of-workspace: /workspace/../../..$secret is ENOENT" \
        "$(tsbx --workspace "$ws" -- /sbx-probe open "/workspace/../../..$secret")" ENOENT
is "dotdot-out-of-bind: /data/../..$secret is ENOENT" \
        "$(tsbx --ro-bind "$ws:/data" -- /sbx-probe open "/data/../..$secret")" ENOENT

# --- symlinks planted in the workspace pointing outside
ln -s "$secret" "$ws/abs-link"
ln -s "../../../../../../../..$secret" "$ws/rel-link"
ln -s / "$ws/root-link"
control "the planted symlink reaches the secret on the host" "$(cat "$ws/abs-link")" "host-secret-$$"
for m in none ro rw; do
        is "symlink-planted-absolute ($m): resolves inside, ENOENT" \
                "$(tsbx --workspace "$ws" --workspace-access $m -- /sbx-probe open /workspace/abs-link)" ENOENT
        is "symlink-planted-relative ($m): resolves inside, ENOENT" \
                "$(tsbx --workspace "$ws" --workspace-access $m -- /sbx-probe open /workspace/rel-link)" ENOENT
        is "symlink-planted-to-root ($m): /workspace/root-link$secret is ENOENT" \
                "$(tsbx --workspace "$ws" --workspace-access $m -- /sbx-probe open "/workspace/root-link$secret")" ENOENT
done
# a bind whose source is a symlink: the source is resolved on the host by sbx
# (the caller's choice), its destination inside cannot be redirected out
is "bind-destination-through-symlink: --bind onto a symlinked place inside stays inside" \
        "$(tsbx --workspace "$ws" --bind "$SECRET_DIR:/workspace/root-link/x" -- /sbx-probe read /x/secret 2>&1 | tail -1)" \
        "host-secret-$$"
is "... and nothing appeared on the host under the symlink's target" "$(ls -A / | grep -c '^x$')" 0

# --- a bind source of openclaw.json swapped for a symlink after the policy
# check: the workspace is the sandbox's to write, so a sandbox can flip a
# bind source's parent between a directory and a symlink to a blocked place
# (here ~/.ssh). sbx binds the path the check judged, following no symlink.
bt=$TMP/bindtoctou
mkdir -p "$bt/home/.ssh/b" "$bt/x/a/b"
echo "ssh-secret-$$" > "$bt/home/.ssh/b/secret"
echo inside > "$bt/x/a/b/ok"
ln -s "$bt/home/.ssh" "$bt/x/evil"
cat > "$bt/oc.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', docker: { binds: ['$bt/x/a/b:/data:ro'],
  dangerouslyAllowExternalBindSources: true } } }, list: [ { id: 'main', default: true } ] } }
J
brun() { HOME=$bt/home timeout 60 "$SBX" run --no-tty --config "$bt/oc.json" --agent main -- /bin/sh -c 'cat /data/*' 2>&1 </dev/null | grep -v ' note: '; }
control "the bind works while its source is a directory" "$(brun)" inside
"$SBX_PROBE" flip "$bt/x/a" "$bt/x/evil" 0 >/dev/null   # once: a is the symlink now
like "control: the policy check refuses the source while it leads to ~/.ssh" "$(brun)" 'never mount'
"$SBX_PROBE" flip "$bt/x/a" "$bt/x/evil" 0 >/dev/null   # back
"$SBX_PROBE" flip "$bt/x/a" "$bt/x/evil" 4 >/dev/null & fp=$!
got=0 refused=0
for i in $(seq 40); do
        case "$(brun)" in
        *ssh-secret*) got=$((got + 1)) ;;
        *"never mount"*) refused=$((refused + 1)) ;;
        esac
done
wait $fp
is "bind-source-swapped-after-check: no run bound ~/.ssh (40 runs while the source flips)" "$got" 0
like "control: the flip was live (the check saw the symlink in some runs: $refused)" "$refused" '^[1-9]'

# --- hard links: the sandbox cannot link a file from another mount into the workspace
is "hardlink-from-rootfs-into-workspace: EXDEV" \
        "$(tsbx --workspace "$ws" --workspace-access rw -- /sbx-probe link /usr/bin/env /workspace/env)" EXDEV
control "the same link(2) within one filesystem works" \
        "$(tsbx --workspace "$ws" --workspace-access rw -- /sbx-probe link /workspace/file /workspace/file2)" OK
rm -f "$ws/file2"

# --- /proc/*/root and /proc/*/cwd
is "proc-1-root: /proc/1/root$secret is ENOENT (pid 1 is the sandbox)" \
        "$(tsbx -- /sbx-probe open "/proc/1/root$secret")" ENOENT
sleep 60 & host_pid=$!
control "outside, /proc/<pid>/root of a host process reaches the secret" "$("$SBX_PROBE" open "/proc/$host_pid/root$secret")" OK
is "proc-hostpid-root: /proc/<host pid>/root is ENOENT" "$(tsbx -- /sbx-probe open "/proc/$host_pid/root$secret")" ENOENT
is "proc-hostpid-cwd: /proc/<host pid>/cwd is ENOENT" "$(tsbx -- /sbx-probe open "/proc/$host_pid/cwd")" ENOENT
kill $host_pid; wait $host_pid 2>/dev/null
is "proc-self-root: /proc/self/root$secret is ENOENT" "$(tsbx -- /sbx-probe open "/proc/self/root$secret")" ENOENT

# --- leaked cwd: start sbx from inside the secret dir
out=$(cd "$SECRET_DIR" && tsbx -w / -- /sbx-probe open secret)
is "leaked-cwd: a relative path from the caller's cwd is ENOENT inside" "$out" ENOENT
is "leaked-cwd: /proc/1/cwd is the workdir, not the caller's cwd" \
        "$(cd "$SECRET_DIR" && tsbx -w /tmp -- /bin/readlink /proc/1/cwd)" /tmp
control "outside, the relative path works from that cwd" "$(cd "$SECRET_DIR" && "$SBX_PROBE" open secret)" OK

# --- leaked fds: an fd of a host file open in the caller
exec 7<"$secret" 8<"$SECRET_DIR"
is "leaked-fd: /proc/self/fd/7 (host secret open in the caller) is ENOENT" "$(tsbx -- /sbx-probe open /proc/self/fd/7)" ENOENT
is "leaked-fd: openat via fd 8 (host dir open in the caller) fails" "$(tsbx -- /bin/sh -c 'cat <&8' 2>&1 | grep -c host-secret)" 0
control "outside, fd 7 reads the secret" "$("$SBX_PROBE" read /proc/self/fd/7)" "host-secret-$$"
# the workdir through such an fd (CVE-2024-21626's class: an OpenClaw exec
# tool's workdir, an image's WorkingDir): chdir happened while the caller's fd
# was still open (CLOEXEC, not closed), the cwd was the host dir
out=$(tsbx -w /proc/self/fd/8 -- /bin/sh -c 'cat secret' 2>&1); rc=$?
like "leaked-fd-workdir: -w /proc/self/fd/8 (host dir open in the caller) is refused (125), named" "$rc|$out" \
        "^125\|.*--workdir: chdir '/proc/self/fd/8': outside the root"
unlike "leaked-fd-workdir: ... the host dir is never the cwd" "$out" "host-secret"
reached=
for n in 3 4 5 6 9 10 11 12; do
        out=$(tsbx -w /proc/self/fd/$n -- /bin/sh -c 'pwd; cat secret' 2>&1)
        case $out in *host-secret*|*"getcwd() failed"*) reached+=" $n" ;; esac
done
is "leaked-fd-workdir: no -w /proc/self/fd/N (3..12) of sbx's own is a cwd outside the root" "$reached" ""
control "outside, a chdir through fd 8 reads the secret" "$(cd /proc/self/fd/8 2>/dev/null && cat secret)" "host-secret-$$"
exec 7<&- 8<&-

# --- stdout/stderr redirected to a host file: the sandbox gets a pipe, never
# the file (which it could read whole through /proc/self/fd/1, or truncate)
log=$TMP/caller.log
printf 'earlier-line-%s\n' "$$" > "$log"
chmod 644 "$log"
cat > "$TMP/stdio-reader.py" <<'PY'
import os, sys
try:
    fd = os.open("/proc/self/fd/1", os.O_RDONLY | os.O_NONBLOCK)
    try:
        data = os.read(fd, 4096)
    except BlockingIOError:
        data = b""
    sys.stderr.write("read:%r\n" % data)
except OSError as e:
    sys.stderr.write("open:%s\n" % e.strerror)
for n in (1, 2):
    sys.stderr.write("fd%d:%s\n" % (n, os.readlink("/proc/self/fd/%d" % n).split(":")[0]))
try:
    os.ftruncate(1, 0)
    sys.stderr.write("truncated\n")
except OSError as e:
    sys.stderr.write("ftruncate:%s\n" % e.strerror)
print("out-line")
PY
cp "$log" "$TMP/ctl.log"
python3 "$TMP/stdio-reader.py" >> "$TMP/ctl.log" 2> "$TMP/ctl.err"
control "outside, a process appending to a log reads it whole and truncates it" \
        "$(grep -c -e "earlier-line-$$" -e '^truncated' "$TMP/ctl.err")" 2
tsbx --no-tty --ro-bind "$TMP/stdio-reader.py:/r.py" -- python3 /r.py >> "$log" 2> "$TMP/run.err" </dev/null
is "stdio-file (run): fd 1 and 2 are pipes, not the host file" "$(grep -c '^fd[12]:pipe$' "$TMP/run.err")" 2
is "stdio-file (run): the log's earlier content is not read, it is not truncated" \
        "$(grep -c -e "earlier-line-$$" -e '^truncated' "$TMP/run.err")" 0
is "stdio-file (run): the output is appended after the earlier content" \
        "$(tr '\n' ' ' < "$log")" "earlier-line-$$ out-line "
# the guard cannot be set up (no fd left for its pipe): sbx refuses to run
# rather than hand the sandbox the file (the full sbx's guard; the front end
# falls back to it)
# (sbx itself: a wrapper script around it, as fault-injection's, needs fds of its own first)
if [ "$(head -c 2 "$SBX")" != "#!" ]; then
        (ulimit -n 4; exec "$SBX" run -- touch /tmp/ran) > "$TMP/noguard.out" 2> "$TMP/noguard.err"; rc=$?
        is "stdio-file: a guard that cannot be set up is fatal (125), naming why" \
                "$rc $(grep -c 'cannot put a pipe between a sandbox and the file' "$TMP/noguard.err")" "125 1"
else
        skip "stdio-file: a guard that cannot be set up: \$SBX is a wrapper script that needs fds of its own"
fi
st=$TMP/stdio-state
if timeout 60 "$SBX" create --state-dir "$st" --name stdio --ro-bind "$TMP/stdio-reader.py:/r.py" >/dev/null 2>&1; then
        timeout 60 "$SBX" exec --state-dir "$st" stdio -- python3 /r.py >> "$log" 2> "$TMP/exec.err"
        is "stdio-file (exec): fd 1 and 2 are pipes, not the host file" "$(grep -c '^fd[12]:pipe$' "$TMP/exec.err")" 2
        is "stdio-file (exec): nothing read, nothing truncated, the output appended" \
                "$(grep -c -e "earlier-line-$$" -e '^truncated' "$TMP/exec.err") $(tr '\n' ' ' < "$log")" \
                "0 earlier-line-$$ out-line out-line "
        timeout 60 "$SBX" exec --state-dir "$st" stdio -- /bin/sh -c '(sleep 1; echo late-line) &' >> "$log"
        sleep 2
        is "stdio-file (exec): a background process's later output still reaches the file" "$(tail -n 1 "$log")" late-line
        control "with a pipe as stdout (not a file) it is passed as before" \
                "$(timeout 60 "$SBX" exec --state-dir "$st" stdio -- /bin/sh -c 'readlink /proc/self/fd/1 | cut -d: -f1')" pipe
        timeout 60 "$SBX" rm -f --state-dir "$st" stdio >/dev/null 2>&1
else
        not_ok "stdio-file: sbx create"
fi

# --- open_by_handle_at ("shocker")
if is_root; then
        control "outside (root), open_by_handle_at opens a file from its handle" "$("$SBX_PROBE" handle /etc/hostname)" OK
else
        control "outside, open_by_handle_at" "" "" "needs CAP_DAC_READ_SEARCH outside"
fi
is "open-by-handle-at (shocker): name_to_handle_at is refused with EPERM" "$(tsbx -- /sbx-probe handle /sbx-probe)" EPERM
is "open-by-handle-at: a forged handle is refused with EPERM" "$(tsbx -- /sbx-probe try-syscall open_by_handle_at)" EPERM

# --- writes to read-only places
is "write-ro-bind: EROFS" "$(tsbx --ro-bind "$ws:/data" -- /sbx-probe write /data/file x)" EROFS
is "write-ro-workspace: EROFS" "$(tsbx --workspace "$ws" --workspace-access ro -- /sbx-probe write /workspace/file x)" EROFS
is "write-ro-bind: the host file is unchanged" "$(cat "$ws/file")" inside
for p in /x /usr/bin/sbx-x /etc/passwd /bin/sh /lib/x; do
        is "write-image-root: $p is EROFS" "$(tsbx -- /sbx-probe write "$p" x)" EROFS
done
is "write-root-tmpfs-mkdir: a new top-level dir is EROFS" "$(tsbx -- /sbx-probe mkdir /newdir)" EROFS
rootfs="$TMP/rootfs"
mkdir -p "$rootfs/bin" "$rootfs/etc"
cp "$SBX_PROBE" "$rootfs/bin/sbx-probe"
echo image > "$rootfs/etc/f"
is "write-image-rootfs: the --rootfs image is EROFS" "$(timeout 60 "$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe write /etc/f x)" EROFS
is "write-image-rootfs: the image is unchanged" "$(cat "$rootfs/etc/f")" image
control "a write to /tmp inside works" "$(tsbx -- /sbx-probe write /tmp/x x)" OK

# --- /proc/self/exe overwrite (CVE-2019-5736): the sbx binary is unchanged
sum_before=$(sha256sum < "$SBX")
is "proc-self-exe-overwrite: pid 1 is the command, sbx never runs inside" "$(tsbx -- /bin/sh -c 'readlink /proc/1/exe')" /usr/bin/dash
like "proc-self-exe-overwrite: /proc/self/exe (a host file, unmapped owner) cannot be opened for writing" \
        "$(tsbx -- /sbx-probe write-open /proc/self/exe)" '^(EACCES|EROFS)$'
is "proc-self-exe-overwrite: a program the sandbox owns: ETXTBSY while it runs" \
        "$(tsbx --workspace "$ws" --workspace-access rw -- /bin/sh -c 'cp /sbx-probe /workspace/p && /workspace/p write-open /proc/self/exe; rm -f /workspace/p')" ETXTBSY
out=$(timeout 60 "$SBX" run --ro-bind "$SBX:/sbx" --ro-bind "$SBX_PROBE:/sbx-probe" -- /sbx-probe write-open /sbx)
like "proc-self-exe-overwrite: a bind of the sbx binary is not writable" "$out" '^(EACCES|EROFS)$'
is "proc-self-exe-overwrite: the host's sbx binary is unchanged" "$(sha256sum < "$SBX")" "$sum_before"

# --- tmpfs-noexec (round 4): --tmpfs PATH:noexec (docker's option; OpenClaw's
# docker.tmpfs and `docker create --tmpfs` pass it) was accepted and ignored:
# a file written there ran. Both directions, from inside: exec and a
# PROT_EXEC mapping of it fail with noexec, work without it (the control) and
# with exec after it (docker's last-one-wins).
nx() { tsbx --tmpfs "$1" -- /bin/sh -c 'cp /sbx-probe /t/p && { /sbx-probe exec /t/p exit 0; echo "rc=$?"; /sbx-probe mmap-exec /t/p; }' 2>&1 | tr '\n' ' '; }
is "tmpfs-noexec: exec (EACCES) and mmap PROT_EXEC (EPERM) of a file written there fail" "$(nx /t:noexec,size=8m)" "EACCES rc=1 EPERM "
is "tmpfs-noexec: exec,noexec is noexec (the last one wins)" "$(nx /t:exec,noexec)" "EACCES rc=1 EPERM "
control "the same file runs on a --tmpfs without noexec" "$(nx /t)" "rc=0 OK "
control "... and on one with noexec,exec" "$(nx /t:noexec,exec)" "rc=0 OK "
# tmpfs-docker-default: Docker mounts a --tmpfs noexec unless it says exec, so
# an agent's docker.tmpfs (passed to docker as --tmpfs) is noexec under sbx
# too; ':exec' grants exec, and sbx run's own --tmpfs stays exec (above).
cat > "$TMP/tmpfs-agent.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', docker: { tmpfs: ['/t', '/x:exec'] } } },
            list: [ { id: 'main', default: true } ] } }
J
nxa() { HOME=$TMP tsbx --config "$TMP/tmpfs-agent.json" --agent main -- /bin/sh -c "cp /sbx-probe $1/p && { /sbx-probe exec $1/p exit 0; echo \"rc=\$?\"; /sbx-probe mmap-exec $1/p; }" 2>/dev/null | tr '\n' ' '; }
is "tmpfs-docker-default: an agent's docker.tmpfs entry without options is noexec, as Docker's" "$(nxa /t)" "EACCES rc=1 EPERM "
control "... and one with :exec runs the same file" "$(nxa /x)" "rc=0 OK "

# --- bind-source-earlier-link (round 7): a mount source whose *earlier*
# component a sandbox can replace. An operator's bind lies below a workspace
# a sandbox writes (here: $pws, rw in a first sandbox); that sandbox replaces
# the directory 'sub' on the source's path with a symlink to the host's
# secret dir. realpath followed it (only a link as the last component was
# refused) and the next sandbox got the host's file; now every component is
# opened following no symlink, for sbx run, sbx create and docker create -v
# alike, and the error names the link.
pws=$TMP/pws
mkdir -m 755 "$pws" "$pws/sub" && cp "$SECRET_DIR/secret" "$pws/sub/secret" && echo mine > "$pws/sub/secret"
control "the bind of a file below a real directory works" \
        "$(tsbx --ro-bind "$pws/sub/secret:/x" -- cat /x 2>&1)" mine
tsbx --workspace "$pws" --workspace-access rw -- /bin/sh -c \
        "rm -r /workspace/sub && ln -s '$SECRET_DIR' /workspace/sub" >/dev/null 2>&1
control "the sandbox replaced 'sub' with a symlink to the host's secret dir" "$(readlink "$pws/sub")" "$SECRET_DIR"
out=$(tsbx --ro-bind "$pws/sub/secret:/x" -- cat /x 2>&1); rc=$?
is "bind-source-earlier-link: sbx run --ro-bind through it is refused (125), the host file never read" \
        "$rc:$(printf %s "$out" | grep -c "host-secret")" 125:0
like "bind-source-earlier-link: ... naming the link" "$out" "'$pws/sub' is a symbolic link \(to '$SECRET_DIR'\)"
out=$(timeout 60 "$SBX" create --state-dir "$TMP/pst" --name pbox --ro-bind "$pws/sub/secret:/x" 2>&1); rc=$?
is "bind-source-earlier-link: sbx create --ro-bind through it is refused (125), no sandbox made" \
        "$rc:$(ls "$TMP/pst/sandboxes" 2>/dev/null | grep -c pbox)" 125:0
out=$(timeout 60 "$SBX" create --state-dir "$TMP/pst" --name pbox --workspace "$pws/sub" 2>&1); rc=$?
is "bind-source-earlier-link: sbx create --workspace of the link itself is refused (125)" "$rc" 125
mkdir -m 755 "$pws/sub2" && echo x > "$pws/sub2/f"
ln -s "$SECRET_DIR" "$pws/sub2/in"
out=$(tsbx --workspace "$pws/sub2/in/.." --workspace-access ro -- ls /workspace 2>&1); rc=$?
is "bind-source-earlier-link: a link followed by '..' is refused too (125)" "$rc" 125
control "... while the same workspace without the link works" \
        "$(tsbx --workspace "$pws/sub2" --workspace-access ro -- ls /workspace 2>&1 | tr '\n' ' ')" "f in "
rm -rf "$pws"

# --- the system's own links (a link directly in /, /usr or /var, root's, in a
# root-only directory) are followed by the parent, as docker -v follows them;
# a sandbox cannot plant one there. Any other link stays refused (above).
if [ -L /bin ] && [ "$(stat -c %u /bin)" = 0 ]; then
        is "bind-source-system-link: --ro-bind /bin/true (through /bin -> $(readlink /bin)) runs" \
                "$(tsbx --ro-bind /bin/true:/x -- /x 2>&1; echo $?)" 0
else
        skip "bind-source-system-link: /bin is not a root-owned symlink on this host"
fi
if [ -L /var/run ] && [ -d /run ]; then
        is "bind-source-system-link: --ro-bind /var/run is /run's tree" \
                "$(tsbx --ro-bind /var/run:/x -- ls -di /x 2>&1 | cut -d' ' -f1)" "$(ls -di /run | cut -d' ' -f1)"
else
        skip "bind-source-system-link: /var/run is not a symlink on this host"
fi
mkdir -m 755 "$TMP/sl" "$TMP/sl/real" && ln -s real "$TMP/sl/link"
out=$(tsbx --ro-bind "$TMP/sl/link:/x" -- true 2>&1); rc=$?
is "bind-source-system-link: a root-owned link outside /, /usr, /var is still refused (125)" "$rc" 125
rm -rf "$TMP/sl"


# --- setuid/setgid files (@always-setid-files): a sandbox writes an rw
# workspace as its owner on the host (root's dir: as host root), so a setuid
# bit set inside was a setuid program on the host. Every call that sets
# S_ISUID/S_ISGID fails EPERM; the same calls without them go through.
sw=$TMP/setid; mkdir -m 755 "$sw"
out=$(tsbx --workspace "$sw" --workspace-access rw -- /bin/sh -c '
        cp /bin/true /workspace/x && chmod 755 /workspace/x && echo plain-ok
        chmod u+s /workspace/x 2>/dev/null; echo "suid=$?"
        chmod g+s /workspace/x 2>/dev/null; echo "sgid=$?"
        /usr/bin/python3 -c "
import ctypes, os
def t(name, f):
    try:
        f(); print(name, \"ok\")
    except OSError as e:
        print(name, e.errno)
t(\"open-creat-plain\", lambda: os.close(os.open(\"/workspace/p\", os.O_CREAT | os.O_WRONLY, 0o755)))
t(\"open-creat-suid\", lambda: os.close(os.open(\"/workspace/s\", os.O_CREAT | os.O_WRONLY, 0o4755)))
t(\"open-creat-sgid\", lambda: os.close(os.open(\"/workspace/g\", os.O_CREAT | os.O_WRONLY, 0o2755)))
t(\"fchmod-suid\", lambda: os.fchmod(os.open(\"/workspace/p\", os.O_RDONLY), 0o4755))
libc = ctypes.CDLL(None, use_errno=True)
class How(ctypes.Structure):
    _fields_ = [(\"flags\", ctypes.c_uint64), (\"mode\", ctypes.c_uint64), (\"resolve\", ctypes.c_uint64)]
h = How(os.O_CREAT | os.O_WRONLY, 0o4755, 0)
r = libc.syscall(437, -100, b\"/workspace/o2\", ctypes.byref(h), ctypes.sizeof(h))
print(\"openat2\", ctypes.get_errno() if r < 0 else \"ok\")
" 2>&1' 2>&1)
is "setid-files: chmod 755 of a workspace file works" "$(echo "$out" | grep -c '^plain-ok$')" 1
is "setid-files: chmod u+s fails (EPERM, exit 1)" "$(echo "$out" | grep '^suid=')" "suid=1"
is "setid-files: chmod g+s fails" "$(echo "$out" | grep '^sgid=')" "sgid=1"
if [ -x /usr/bin/python3 ]; then
        is "setid-files: open(O_CREAT, 0755) works" "$(echo "$out" | grep '^open-creat-plain')" "open-creat-plain ok"
        is "setid-files: open(O_CREAT, 04755) is EPERM" "$(echo "$out" | grep '^open-creat-suid')" "open-creat-suid 1"
        is "setid-files: open(O_CREAT, 02755) is EPERM" "$(echo "$out" | grep '^open-creat-sgid')" "open-creat-sgid 1"
        is "setid-files: fchmod 04755 is EPERM" "$(echo "$out" | grep '^fchmod-suid')" "fchmod-suid 1"
        is "setid-files: openat2 is ENOSYS (its mode is out of seccomp's reach)" "$(echo "$out" | grep '^openat2')" "openat2 38"
else
        skip "setid-files: no /usr/bin/python3 for the open/fchmod/openat2 probes"
fi
is "setid-files: no setuid or setgid file on the host" "$(find "$sw" -perm /6000 | wc -l)" 0
rm -rf "$sw"

is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

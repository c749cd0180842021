#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx run: /workspace and /agent with --workspace-access none|ro|rw, and
# --rootfs (issue 2).
. "$(dirname "$0")/lib.sh"

ws="$TMP/ws"
mkdir -m 755 "$ws" "$ws/sub"
echo original > "$ws/file"
echo deep > "$ws/sub/deep"

# --- default: an empty, writable per-run workspace
is "default workspace is empty" "$("$SBX" run -- /bin/ls -A /workspace)" ""
is "default workspace is writable" "$(sbxp -- /sbx-probe write /workspace/new x)" OK
is "default workdir is /workspace" "$("$SBX" run -- /bin/pwd)" /workspace

# --- none: overlay, the lower dir never changes
out=$(sbxp --workspace "$ws" -- /bin/sh -c '
        /sbx-probe write /workspace/created data; echo changed > /workspace/file;
        echo more >> /workspace/sub/deep; rm /workspace/sub/deep 2>&1 && echo removed;
        cat /workspace/file; ls /workspace | tr "\n" " "')
like "none: writes work inside" "$out" 'OK'
like "none: a modified file reads back inside" "$out" 'changed'
like "none: files can be removed inside" "$out" 'removed'
is "none: the lower file is unchanged on the host" "$(cat "$ws/file")" original
is "none: the removed file still exists on the host" "$(cat "$ws/sub/deep")" deep
[ ! -e "$ws/created" ] && ok "none: a created file does not appear on the host" ||
        not_ok "none: a created file does not appear on the host"
like "none: the lower dir's files are visible" "$("$SBX" run --workspace "$ws" -- /bin/cat /workspace/sub/deep)" deep
# a bind below /workspace, its mountpoint missing: made in the overlay,
# never in the lower dir (as root rw and ro ones are made on the host, docker's rule)
mkdir -p "$TMP/nb"; echo nb >"$TMP/nb/f"
is "none: a bind below /workspace whose mountpoint is missing is there" \
        "$("$SBX" run --workspace "$ws" --ro-bind "$TMP/nb:/workspace/nb/x" -- /bin/cat /workspace/nb/x/f 2>&1)" nb
[ ! -e "$ws/nb" ] && ok "none: ... its mountpoint was not made in the lower dir on the host" ||
        not_ok "none: ... its mountpoint was not made in the lower dir on the host"
out=$(sbxp -u 1000:1000 --workspace "$ws" -- /sbx-probe write /workspace/by-user x)
is "none: --user 1000 can write at the workspace top" "$out" OK
is "none: no upper layer survives the run" "$(leftovers)" ""
# The upper/work layers of a one-shot run are on a tmpfs of the sandbox's own
# (issue 16): while it runs, its run dir on the host holds the lock and two
# empty mountpoints, and what the workload writes is nowhere in the state dir.
sd="$TMP/statedir"; mkdir -m 700 "$sd"
"$SBX" run --state-dir "$sd" --workspace "$ws" -- /bin/sh -c \
        'printf "%s-%s" scratch data > /workspace/marker; sleep 2' & bg=$!
for _ in $(seq 100); do [ -n "$(ls -A "$sd"/run-*/upper 2>/dev/null)" ] || [ -e "$sd"/run-*/root ] && break; sleep 0.05; done
sleep 0.3
is "none: the run dir holds only lock, root and upper" "$(cd "$sd"/run-* 2>/dev/null && ls -A | sort | tr '\n' ' ')" "lock root upper "
is "none: the host's upper dir is an empty mountpoint" "$(ls -A "$sd"/run-*/upper 2>&1)" ""
is "none: the workload's writes are not in the state dir" "$(grep -rl scratch-data "$sd" 2>/dev/null)" ""
kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null
is "none: the run dir is gone after the run" "$(ls -A "$sd" | grep '^run-')" ""
out=$(sbxp --state-dir "$sd" -u 1000:1000 -- /bin/sh -c 'echo x > /workspace/f && stat -c "%u %a" /workspace /workspace/f')
is "none, default workspace: the scratch upper belongs to the sandbox user" "$out" "1000 755
1000 644"

# --- ro
out=$(sbxp --workspace "$ws" --workspace-access ro -- /sbx-probe write /workspace/x x)
is "ro: /workspace writes fail with EROFS" "$out" EROFS
is "ro: /agent writes fail with EROFS" "$(sbxp --workspace "$ws" --workspace-access ro -- /sbx-probe write /agent/x x)" EROFS
is "ro: /agent shows the directory" "$("$SBX" run --workspace "$ws" --workspace-access ro -- /bin/cat /agent/file)" original
is "ro: /workspace shows the directory" "$("$SBX" run --workspace "$ws" --workspace-access ro -w / -- /bin/cat /workspace/file)" original
is "none: there is no /agent" "$(sbxp --workspace "$ws" -- /sbx-probe open /agent)" ENOENT

# --- rw: writes go through to the host directory
out=$(sbxp --workspace "$ws" --workspace-access rw -- /bin/sh -c '
        /sbx-probe write /workspace/through yes; echo appended >> /workspace/file; echo $?')
is "rw: writes succeed inside" "$out" "OK
0"
is "rw: a created file appears on the host" "$(cat "$ws/through" 2>&1)" yes
is "rw: a modified file is modified on the host" "$(tail -1 "$ws/file")" appended
is "rw: files created inside are owned by the directory's owner on the host" \
        "$(stat -c %u:%g "$ws/through")" "$(stat -c %u:%g "$ws")"
out=$(sbxp -u 1000:1000 --workspace "$ws" --workspace-access rw -- /bin/sh -c '
        /sbx-probe write /workspace/by-1000 yes; stat -c %u /workspace/file')
is "rw: --user 1000 writes through, and sees the owner's files as its own" "$out" "OK
1000"
is "rw: ... and its files land owned by the directory's owner" "$(stat -c %u "$ws/by-1000")" "$(stat -c %u "$ws")"

# symlinks inside the workspace cannot point the sandbox outside
ln -s /etc "$ws/etc-link"
is "a symlink to /etc in the workspace resolves inside the sandbox" \
        "$(sbxp --workspace "$ws" -- /sbx-probe open /workspace/etc-link/shadow)" ENOENT

# --- --rootfs: a directory with the static probe as its only program
rootfs="$TMP/rootfs"
mkdir -p "$rootfs/bin" "$rootfs/etc" "$rootfs/tmp"
cp "$SBX_PROBE" "$rootfs/bin/sbx-probe"
echo "image-hosts" > "$rootfs/etc/hosts"
echo "image-file" > "$rootfs/etc/image-file"
ln -s bin "$rootfs/sbin"
out=$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe hostname); rc=$?
is "--rootfs: the image's program runs" "$out" sbx
is "--rootfs: exit 0" "$rc" 0
is "--rootfs: PATH lookup inside the image (sbin -> bin)" "$("$SBX" run --rootfs "$rootfs" -- sbx-probe hostname)" sbx
is "--rootfs: the image's /etc files are visible" "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe read /etc/image-file)" image-file
like "--rootfs: /etc/hosts is the generated one" "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe read /etc/hosts)" localhost
is "--rootfs: the image is read-only" "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe write /bin/x x)" EROFS
is "--rootfs: host /usr is not there" "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe open /usr/bin/env)" ENOENT
is "--rootfs: the image's /etc/hosts is unchanged" "$(cat "$rootfs/etc/hosts")" image-hosts
ln -s / "$rootfs/escape"
is "--rootfs: an absolute symlink in the image resolves inside" \
        "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe open /escape/etc/shadow)" ENOENT
mkdir -p "$rootfs/var/lib"
is "--rootfs with /var but no /var/tmp: runs, without that default tmpfs" \
        "$("$SBX" run --rootfs "$rootfs" -- /bin/sbx-probe open /var/tmp)" ENOENT
err=$("$SBX" run --rootfs "$rootfs" --tmpfs /var/tmp -- /bin/sbx-probe hostname 2>&1); rc=$?
is "--rootfs without /var/tmp but an explicit --tmpfs /var/tmp: exit 125" "$rc" 125
like "... naming the mount" "$err" "/var/tmp"
err=$("$SBX" run --rootfs "$rootfs/etc/hosts" -- /bin/true 2>&1); rc=$?
is "--rootfs on a file exits 125" "$rc" 125
# issue 14: the first command is the sandbox's file, not the host's: its
# /proc/self/exe names the sandbox path, on the read-only mount, and cannot be
# reopened for writing.
exews=$TMP/exe-ws
mkdir -p "$exews"
cp "$SBX_PROBE" "$exews/probe"
chmod 755 "$exews" "$exews/probe"
is "/proc/self/exe of the first command: the sandbox path, on the ro workspace" \
        "$("$SBX" run --no-tty --workspace "$exews" --workspace-access ro -- /workspace/probe self-exe)" "/workspace/probe ro"
out=$("$SBX" run --no-tty --workspace "$exews" --workspace-access ro -- /workspace/probe write-open /proc/self/exe)
like "... and it cannot be reopened for writing" "$out" "^(EROFS|ETXTBSY|EACCES)$"
is "control: the same binary in a rw workspace is on a rw mount" \
        "$("$SBX" run --no-tty --workspace "$exews" --workspace-access rw -- /workspace/probe self-exe)" "/workspace/probe rw"
# Overlay xattrs a sandbox plants in its rw workspace (SECURITY.md §1,
# "overlay xattrs"): the kernel lets the files' owner set user.overlay.*, so
# a later overlay view (--workspace-access none) of the same dir sees them.
# What that can do, measured: metacopy makes that one file unreadable there
# (EPERM: userxattr mounts refuse metacopy; EIO for a value
# it cannot parse), the others read as before;
# trusted.overlay.* (what a root overlay would obey) cannot be set at all.
xw=$TMP/xattr-ws
mkdir -m 755 "$xw"
echo meta >"$xw/meta"; echo plain >"$xw/plain"
setx='import os, sys
for a in sys.argv[1:]:
    f, n = a.split("=")
    try: os.setxattr("/workspace/" + f, n, b"y"); print(f, n, "set")
    except OSError as e: print(f, n, os.strerror(e.errno))'
if ! python3 -c "import os; os.setxattr('$xw/plain', 'user.probe', b'1')" 2>/dev/null; then
        skip "overlay xattrs: $TMP has no user xattrs"; skip "overlay xattrs"; skip "overlay xattrs"; skip "overlay xattrs"
else
        out=$("$SBX" run --no-tty --workspace "$xw" --workspace-access rw -- python3 -c "$setx" \
                meta=user.overlay.metacopy plain=trusted.overlay.metacopy plain=trusted.overlay.redirect)
        is "overlay xattrs: a rw sandbox may set user.overlay.* on its files, never trusted.overlay.* (EPERM)" \
                "$out" "$(printf '%s\n' 'meta user.overlay.metacopy set' \
                        'plain trusted.overlay.metacopy Operation not permitted' \
                        'plain trusted.overlay.redirect Operation not permitted')"
        like "overlay xattrs: a later overlay view refuses that one file (EPERM; EIO for a bad value), reads the others" \
                "$("$SBX" run --no-tty --workspace "$xw" -- /bin/sh -c 'cat /workspace/meta 2>&1; cat /workspace/plain' | tr '\n' ' ')" \
                '^cat: /workspace/meta: (Operation not permitted|Input/output error) plain $'
        is "overlay xattrs: ... and cannot set trusted.overlay.* through the overlay either" \
                "$("$SBX" run --no-tty --workspace "$xw" -- python3 -c "$setx" plain=trusted.overlay.opaque)" \
                "plain trusted.overlay.opaque Operation not permitted"
        python3 -c "import os; os.removexattr('$xw/meta', 'user.overlay.metacopy')"
        is "control: the xattr removed on the host (setfattr -x), the overlay view reads the file" \
                "$("$SBX" run --no-tty --workspace "$xw" -- cat /workspace/meta 2>&1)" meta
fi
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

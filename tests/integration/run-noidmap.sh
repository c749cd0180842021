#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 15, portability: as root on a file system without idmapped mounts
# (ramfs here; NFS, initramfs and tmpfs on Linux < 6.3 alike), a workspace
# directory sbx created itself is given to the sandbox's mapped owner and
# works; a directory the user owns is refused with the reason and the fix,
# nothing left behind. The ramfs is mounted in a private mount namespace this
# script makes (unshare -m), so the host's mount table is never touched.
# Before lib.sh: its temporary dirs are made (and removed at exit) by the inner run only.
if [ "$(id -u)" != 0 ]; then
        echo "1..0 # SKIP not root: the fallback is for root (unprivileged sbx needs no idmapped mount)"
        exit 0
fi
if [ -z "${SBX_NOIDMAP_INNER:-}" ]; then
        SBX_NOIDMAP_INNER=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
R=$TMP/ramfs
mkdir -p "$R"
mount -t ramfs ramfs "$R" || { echo "1..0 # SKIP cannot mount ramfs"; exit 0; }
on_exit 'umount "$R"; rm -rf "$TMP"'
is "the test file system is ramfs" "$(stat -f -c %T "$R")" ramfs

# --agent: OpenClaw's per-sandbox workspace under $HOME/.openclaw/sandboxes, created by sbx
export HOME=$R/home
mkdir -p "$HOME"
cat >"$R/openclaw.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } }, list: [ { id: 'main', default: true } ] } }
J
out=$("$SBX" run --no-tty --config "$R/openclaw.json" --agent main -- \
        sh -c 'echo hi >/workspace/f && cat /workspace/f' 2>"$TMP/err"); rc=$?
is "sbx run --agent on ramfs: the workspace sbx creates works (exit $rc, $(grep -v note: "$TMP/err" | head -c 300))" "$rc/$out" 0/hi
ws=$(ls -d "$HOME"/.openclaw/sandboxes/workspace-* 2>/dev/null | head -1)
owner=$(stat -c %u "$ws" 2>/dev/null)
like "  ... it was given to the sandbox's mapped owner (uid $owner, not 0)" "$owner" '^[1-9][0-9]*$'
out=$("$SBX" run --no-tty --config "$R/openclaw.json" --agent main -- sh -c 'echo again >/workspace/g && cat /workspace/g' 2>/dev/null); rc=$?
is "  ... and the next run uses it as it is (exit $rc)" "$rc/$out" 0/again

# sbx create: <workspace root>/NAME, created by sbx, rw: writes land in the directory
export SBX_WORKSPACE_ROOT=$R/ws
st=$TMP/state
if "$SBX" create --state-dir "$st" noidmap >/dev/null 2>"$TMP/err"; then
        out=$("$SBX" exec --state-dir "$st" noidmap -- sh -c 'echo data >/workspace/out && id -u' 2>&1); rc=$?
        is "sbx create on ramfs: the sandbox writes its workspace (exit $rc)" "$rc" 0
        is "  ... the file is in the directory, owned by the sandbox's mapped uid" \
                "$(cat "$R/ws/noidmap/out" 2>/dev/null)/$(stat -c %u "$R/ws/noidmap/out" 2>/dev/null)" \
                "data/$(stat -c %u "$R/ws/noidmap")"
        "$SBX" rm -f --state-dir "$st" noidmap >/dev/null 2>&1
else
        not_ok "sbx create on ramfs: $(cat "$TMP/err")"
        skip "no sandbox"
fi

# a directory the user owns: refused, with the reason and the fix, nothing left
mkdir "$R/mine"
echo keep >"$R/mine/file"
before=$(leftovers)
"$SBX" run --workspace "$R/mine" --workspace-access rw -- true 2>"$TMP/err"; rc=$?
is "a user's directory on ramfs (rw): refused with 125" "$rc" 125
like "  ... naming the file system and the missing idmapped mounts" "$(cat "$TMP/err")" "ramfs\) has no idmapped mounts"
like "  ... and the fix" "$(cat "$TMP/err")" "fix: run sbx unprivileged, chown [0-9]+:[0-9]+"
is "  ... the directory is not chowned" "$(stat -c %u:%g "$R/mine")" 0:0
is "  ... no run state left behind" "$(leftovers)" "$before"
for a in ro none; do
        "$SBX" run --workspace "$R/mine" --workspace-access $a -- true 2>/dev/null; rc=$?
        is "  ... also with --workspace-access $a (exit $rc)" "$rc" 125
done
# control: the same directory on a file system with idmapped mounts still works
# through one, and keeps its owner
mkdir "$TMP/mine2"
out=$("$SBX" run --workspace "$TMP/mine2" --workspace-access rw -- sh -c 'echo x >/workspace/y && echo ok' 2>&1); rc=$?
if [ "$rc" = 0 ]; then
        is "control: $(stat -f -c %T "$TMP") with idmapped mounts: works, owner kept" "$out/$(stat -c %u "$TMP/mine2")" ok/0
else
        skip "control: $(stat -f -c %T "$TMP") has no idmapped mounts either ($out)"
fi
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Reviewable workspace changes (issue 4): --workspace-mode overlay, sbx diff,
# commit, reset: additions, modifications, deletions, renames, permissions,
# opaque directories, and symlinks pointing outside (never followed).
. "$(dirname "$0")/sandbox-lib.sh"

W="$TMP/real"
OUT="$TMP/outside"
mkdir -p "$W/dir" "$W/gone" "$W/ldir" "$OUT"
echo one > "$W/a.txt"
echo keep > "$W/same.txt"
echo old > "$W/dir/mod.txt"
echo bye > "$W/del.txt"
echo x > "$W/gone/inside"
echo r > "$W/ren-from"
echo exe > "$W/perm.sh"; chmod 644 "$W/perm.sh"
echo secret > "$OUT/secret"
ln -s "$OUT" "$W/outlink"           # a symlink in the workspace pointing outside
snapshot() { (cd "$W" && find . -printf '%p %m %y\n' | sort && cat a.txt dir/mod.txt 2>/dev/null); }

sbx_create --workspace "$W" --workspace-mode overlay ov >/dev/null; rc=$?
is "create --workspace-mode overlay" "$rc" 0
sbx exec ov -- sh -c '
        echo two >> /workspace/a.txt
        echo new > /workspace/new.txt
        mkdir -p /workspace/newdir/sub && echo deep > /workspace/newdir/sub/f
        echo changed > /workspace/dir/mod.txt
        rm /workspace/del.txt
        rm -r /workspace/gone
        mv /workspace/ren-from /workspace/ren-to
        chmod 755 /workspace/perm.sh
        ln -s /etc/passwd /workspace/evil-link
        rm /workspace/outlink && mkdir /workspace/outlink && echo planted > /workspace/outlink/planted
        rm -r /workspace/ldir && mkdir /workspace/ldir && echo fresh > /workspace/ldir/n'
before=$(snapshot)
is "writes in the sandbox do not reach the real workspace" "$(cat "$W/a.txt")" one
like "the sandbox sees its own writes" "$(sbx exec ov -- cat /workspace/a.txt | tr '\n' ' ')" "one two"

sbx diff --name-status ov > "$TMP/diff"
expect="M a.txt
D del.txt
M dir/mod.txt
A evil-link -> /etc/passwd
D gone
D gone/inside
A ldir/n
A newdir
A newdir/sub
A newdir/sub/f
A new.txt
M outlink (symlink -> directory)
A outlink/planted
M perm.sh (mode 0644 -> 0755)
D ren-from
A ren-to"
is "diff lists additions, modifications, deletions, a rename as D+A, a mode change" \
        "$(sort -k2 "$TMP/diff")" "$(echo "$expect" | sort -k2)"
sbx diff ov > "$TMP/patch"
like "diff shows a unified diff of text files" "$(cat "$TMP/patch")" '^\+two$'
like "... with a/ b/ labels" "$(cat "$TMP/patch")" '^--- a/a.txt'
sbx diff --json ov > "$TMP/json"
is "diff --json: the same number of entries" \
        "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$TMP/json")" 16

# a PATH with '..' names nothing under /workspace: refused, nothing applied
out=$(sbx commit ov new.txt ../a.txt 2>&1); rc=$?
is "commit PATH with '..': exit 2, the PATH named" "$rc|$out" "2|sbx commit: PATH '../a.txt': a path under /workspace without '..'"
is "... nothing applied (new.txt not there yet)" "$(test -e "$W/new.txt" && echo present || echo absent)" absent
# commit a subset
sbx commit ov new.txt dir >/dev/null; rc=$?
is "commit PATHS: exit 0" "$rc" 0
is "... applied new.txt" "$(cat "$W/new.txt")" new
is "... applied dir/mod.txt" "$(cat "$W/dir/mod.txt")" changed
is "... left a.txt alone" "$(cat "$W/a.txt")" one
unlike "... and diff no longer lists them" "$(sbx diff --name-status ov)" 'new.txt|dir/mod.txt'

# commit everything
sbx commit ov > "$TMP/commit"; rc=$?
is "commit: exit 0" "$rc" 0
is "commit: modification" "$(cat "$W/a.txt" | tr '\n' ' ')" "one two "
is "commit: deletion of a file" "$(test -e "$W/del.txt" && echo present || echo absent)" absent
is "commit: deletion of a dir" "$(test -e "$W/gone" && echo present || echo absent)" absent
is "commit: rename (old name gone)" "$(test -e "$W/ren-from" && echo present || echo absent)" absent
is "commit: rename (new name)" "$(cat "$W/ren-to")" r
is "commit: nested new dirs" "$(cat "$W/newdir/sub/f")" deep
is "commit: permissions" "$(stat -c %a "$W/perm.sh")" 755
is "commit: an outside-pointing symlink is copied as a link" "$(readlink "$W/evil-link")" /etc/passwd
is "commit: the symlink to outside was replaced by the dir, not followed" "$(test -L "$W/outlink" && echo link || echo dir)" dir
is "... the file landed inside the workspace" "$(cat "$W/outlink/planted")" planted
is "... nothing was written outside" "$(ls "$OUT")" secret
is "commit: an opaque dir replaces the old contents" "$(ls "$W/ldir")" n
is "commit: no temp files left" "$(find "$W" -name '.sbx-commit*' | wc -l)" 0
is "after commit, diff is empty" "$(sbx diff --name-status ov)" ""
is "the sandbox still sees the same files" "$(sbx exec ov -- cat /workspace/ren-to)" r

# reset
sbx exec ov -- sh -c 'echo scratch > /workspace/scratch; rm /workspace/same.txt'
like "diff shows new work" "$(sbx diff --name-status ov | tr '\n' ' ')" "D same.txt.*A scratch|A scratch.*D same.txt"
sbx reset ov; rc=$?
is "reset: exit 0" "$rc" 0
is "reset: diff is empty" "$(sbx diff --name-status ov)" ""
is "reset: the sandbox sees the real workspace again" "$(sbx exec ov -- cat /workspace/same.txt)" keep
is "reset: the sandbox runs again" "$(field ov state)" running
is "reset never touches the real workspace" "$(cat "$W/same.txt")" keep

# changes survive stop/start
sbx exec ov -- sh -c 'echo later > /workspace/later'
sbx stop ov >/dev/null && sbx start ov >/dev/null
is "uncommitted changes survive stop + start" "$(sbx exec ov -- cat /workspace/later)" later
is "... and still show in diff" "$(sbx diff --name-status ov)" "A later"
sbx rm -f ov >/dev/null
is "rm drops uncommitted changes, never the real workspace" "$(cat "$W/ren-to"; test -e "$W/later" && echo leaked)" r

# diff on a direct-mode sandbox is refused
sbx_create direct >/dev/null
sbx diff direct 2>"$TMP/err"; rc=$?
is "diff on a sandbox without overlay: exit 2" "$rc" 2
like "... saying why" "$(cat "$TMP/err")" "overlay"
sbx rm -f direct >/dev/null
done_testing

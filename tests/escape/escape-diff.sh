#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite: sbx diff and sbx commit read a running sandbox's upper layer
# on the host (--workspace-mode overlay). The sandbox writes that layer while
# they read it, so it can swap a file it changed for a symlink to a host file
# or for a FIFO between the walk (lstat) and the read. Neither may make sbx
# read a host file on its behalf (a patch of the host's secret) or hang.
. "$(dirname "$0")/lib.sh"

st=$TMP/state
ws=$TMP/ws
mkdir -m 755 "$ws" "$ws/zz"
printf 'hi\n' > "$ws/f"
printf 'lower\n' > "$ws/zz/secret"
for i in $(seq -w 40); do printf 'old\n' > "$ws/m$i"; done
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$st" "${@:2}"; }
if ! sx create --name dbox --workspace "$ws" --workspace-mode overlay --label "u8=$(printf 'a\xff\xc3')" >/dev/null 2>&1; then
        not_ok "create an overlay sandbox"
        done_testing
fi
upper=$(ls -d "$st"/sandboxes/dbox/run-*/upper 2>/dev/null | head -1)
# flip PATH A B...: in the background inside, PATH (now what A is to be)
# becomes each of A B... in turn
flip() {
        sx exec dbox -- python3 -c "
import os, sys
os.rename(sys.argv[1], sys.argv[2])
if os.fork() == 0:
    os.setsid()
    while True:
        for x in sys.argv[2:]:
            os.rename(x, sys.argv[1])
            os.rename(sys.argv[1], x)
" "$@" >/dev/null 2>&1
}
# swap PATH OTHER: in the background inside, exchange the two for ever
# (renameat2 RENAME_EXCHANGE: PATH always exists, half the time each)
swap() {
        sx exec dbox -- python3 -c "
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = (p.encode() for p in sys.argv[1:3])
if libc.renameat2(-100, a, -100, b, 2) != 0:
    sys.exit('renameat2: ' + os.strerror(ctypes.get_errno()))
if os.fork() == 0:
    os.setsid()
    null = os.open('/dev/null', os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while True:
        libc.renameat2(-100, a, -100, b, 2)
" "$@" 2>&1
}
unflip() { sx exec dbox -- sh -c 'kill -9 -1' >/dev/null 2>&1; sleep 0.2; }

# --- a directory above a changed file swapped for a symlink to a host dir:
# zz/secret is changed (the walk sees zz as a directory), then zz is a
# symlink to the dir of the host's secret while 40 earlier patches print
sx exec dbox -- sh -c 'for f in /workspace/m*; do echo new > $f; done
rm -r /workspace/zz && mkdir /workspace/zz && echo yo > /workspace/zz/secret' >/dev/null 2>&1
sx exec dbox -- ln -s "$SECRET_DIR" /workspace/.l >/dev/null 2>&1
control "before the flip, sbx diff shows the change under zz as a patch" \
        "$(sx diff dbox | grep -c '^+yo$')" 1
out=$(swap /workspace/zz /workspace/.l)
is "the sandbox swaps zz and its symlink (RENAME_EXCHANGE)" "$out" ""
reached=0
for i in $(seq 60); do
        case "$(timeout 2 cat "$upper/zz/secret" 2>/dev/null)" in *host-secret-*) reached=$((reached + 1)) ;; esac
done
like "control: the flip is live: a host reader of the upper layer's path reaches the secret ($reached of 60)" \
        "$reached" '^[1-9]'
# at least 30 runs; on until one run caught zz as a directory (the control:
# ~10 % of runs here, so 30 alone missed it in ~4 % of CI runs), at most 300
leaked=0 patched=0 runs=0
while [ $runs -lt 300 ] && { [ $runs -lt 30 ] || [ $patched = 0 ]; }; do
        runs=$((runs + 1))
        out=$(timeout 20 "$SBX" diff --state-dir "$st" dbox 2>&1)
        case "$out" in *host-secret-*) leaked=$((leaked + 1)) ;; esac
        case "$out" in *'+yo'*) patched=$((patched + 1)) ;; esac
done
is "diff-upper-dir-symlink-swap: no sbx diff printed the host file ($runs runs while zz flips)" "$leaked" 0
like "control: sbx diff still showed the patch while zz was a directory ($patched of $runs)" "$patched" '^[1-9]'
unflip

# --- the changed file itself swapped for a symlink to the host file or a FIFO
sx exec dbox -- python3 -c "
import os
open('/workspace/f', 'w').write('yo\n')
os.symlink('$SECRET_DIR/secret', '/workspace/.b')
os.mkfifo('/workspace/.c')
" >/dev/null 2>&1
flip /workspace/f /workspace/.a /workspace/.b /workspace/.c
leaked=0 hung=0
for i in $(seq 60); do
        out=$(timeout 10 "$SBX" diff --state-dir "$st" dbox 2>&1)
        [ $? = 124 ] && hung=$((hung + 1))
        case "$out" in *host-secret-*) leaked=$((leaked + 1)) ;; esac
done
is "diff-upper-symlink-swap: no sbx diff printed the host file (60 runs while f flips)" "$leaked" 0
is "diff-upper-fifo-swap: no sbx diff hung on the FIFO" "$hung" 0
hung=0
for i in $(seq 10); do
        timeout 10 "$SBX" commit --state-dir "$st" dbox >/dev/null 2>&1
        [ $? = 124 ] && hung=$((hung + 1))
done
is "commit-upper-fifo-swap: no sbx commit hung on the FIFO (10 runs)" "$hung" 0
is "commit-upper-symlink-swap: the host secret was never copied into the workspace" \
        "$(grep -rl "host-secret-" "$ws" 2>/dev/null | wc -l)" 0
unflip
# --- names the sandbox chose, printed by sbx diff on the operator's terminal
# (the review before commit): a name with CR, ESC and LF erased the line of
# a change above it (M .bashrc) and forged one of its own
sx exec dbox -- python3 -c 'open("/workspace/zz\r\x1b[2K\x1b[1A\x1b[2Kok\nA harmless.txt", "w").write("x")
open("/workspace/plain.txt", "w").write("x")' >/dev/null 2>&1
out=$(sx diff --name-status dbox 2>&1)
is "diff-name-terminal: no raw CR or ESC from a file name reaches the terminal" "$(printf '%s' "$out" | tr -dc '\r\033' | wc -c)" 0
like "diff-name-terminal: ... the name is printed quoted, on its one line" "$out" \
        '^A "zz\\r\\033\[2K\\033\[1A\\033\[2Kok\\nA harmless.txt"$'
like "diff-name-terminal: control: a plain name is printed as it is" "$out" '^A plain.txt$'
# the same names as JSON: json-c escapes C0 controls, not C1 (U+009B is a
# CSI to terminals that take 8-bit controls) or DEL
sx exec dbox -- python3 -c 'open(b"/workspace/c1\xc2\x9b2J\x7f", "w").write("x")' >/dev/null 2>&1
sx diff --json dbox > "$TMP/c1.json" 2>&1
is "diff-json-terminal: no raw C1 control or DEL in sbx diff --json" \
        "$(LC_ALL=C grep -c $'\xc2\x9b\\|\x7f' "$TMP/c1.json")" 0
is "diff-json-terminal: ... the JSON still names the file exactly" \
        "$(python3 -c 'import json,sys
for c in json.load(open(sys.argv[1])):
    if c["path"].startswith("c1"): print(ascii(c["path"]))' "$TMP/c1.json")" "'c1\\x9b2J\\x7f'"
# names that are not UTF-8 (0xff, a lone 0xc3, an overlong '/', a surrogate
# in UTF-8): every JSON output is valid UTF-8 JSON (decoded strictly, not by
# Python's surrogateescape stdin) and keeps the exact bytes (\udcXX, PEP 383)
strict_json() { python3 -c 'import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
b = lambda s: s.encode("utf-8", "surrogateescape").hex()
exec(sys.argv[1])' "$1"; }
sx exec dbox -- python3 -c 'for n in (b"u8-\xff", b"u8-\xc3", b"u8-\xc0\xaf", b"u8-\xed\xa0\x80"):
    open(b"/workspace/" + n, "w").write("x")' >/dev/null 2>&1
is "diff-json-utf8: sbx diff --json parses with names not UTF-8, each name's bytes kept" \
        "$(sx diff --json dbox 2>&1 | strict_json 'print(*sorted(b(c["path"]) for c in d if c["path"].startswith("u8-")))' 2>&1)" \
        "75382dc0af 75382dc3 75382deda080 75382dff"
is "ls-json-utf8: sbx ls --json parses with a label not UTF-8, its bytes kept" \
        "$(sx ls --json 2>&1 | strict_json 'print(b([x for x in d if x["name"] == "dbox"][0]["labels"]["u8"]))' 2>&1)" 61ffc3
is "inspect-utf8: sbx inspect parses with a label not UTF-8, its bytes kept" \
        "$(sx inspect dbox 2>&1 | strict_json 'print(b(d[0]["labels"]["u8"]))' 2>&1)" 61ffc3
# the docker drop-in's inspect (its state under $XDG_RUNTIME_DIR/sbx)
mkdir -p "$TMP/xdg" && chmod 700 "$TMP/xdg"
if XDG_RUNTIME_DIR=$TMP/xdg timeout 60 "$SBX" create --name u8box --label "u8=$(printf 'a\xff\xc3')" >/dev/null 2>&1; then
        is "docker-inspect-utf8: docker inspect parses with a label not UTF-8, its bytes kept" \
                "$(XDG_RUNTIME_DIR=$TMP/xdg "$SBX" docker inspect u8box 2>&1 | strict_json 'print(b(d[0]["Config"]["Labels"]["u8"]))' 2>&1)" 61ffc3
        XDG_RUNTIME_DIR=$TMP/xdg timeout 60 "$SBX" rm -f u8box >/dev/null 2>&1
else
        not_ok "create a sandbox with a label not UTF-8 for docker inspect"
fi
is "diff-json-utf8: control: a plain UTF-8 name stays as it is" \
        "$(sx diff --json dbox 2>&1 | strict_json 'print([c["path"] for c in d if c["path"] == "plain.txt"])' 2>&1)" "['plain.txt']"
sx rm -f dbox >/dev/null 2>&1

# --- what the sandbox shapes in its layer for sbx diff and sbx commit to
# walk and copy on the host (a sandbox of its own, a workspace of its own)
ws2=$TMP/ws2
mkdir -m 755 "$ws2"
printf 'keep\n' > "$ws2/del"
if ! sx create --name cbox --workspace "$ws2" --workspace-mode overlay >/dev/null 2>&1; then
        not_ok "create a second overlay sandbox"
        done_testing
fi
up2() { ls -d "$st"/sandboxes/cbox/run-*/upper 2>/dev/null | head -1; }
# a sparse file: 2 GiB that cost the layer a few KiB; sbx commit wrote every
# zero of it into the host's workspace (truncate -s 1T filled the host disk)
sx exec cbox -- sh -c 'truncate -s 2G /workspace/sparse
printf head | dd of=/workspace/sparse conv=notrunc 2>/dev/null
printf mid | dd of=/workspace/sparse bs=1 seek=1000000000 conv=notrunc 2>/dev/null
head -c 300000 /dev/urandom > /workspace/dense' >/dev/null 2>&1
kib() { echo $(( $(stat -c '%b * %B' "$1" 2>/dev/null || echo 0) / 1024 )); }
like "control: the sandbox's 2 GiB sparse file costs its layer under 1 MiB ($(kib "$(up2)/sparse") KiB)" \
        "$(kib "$(up2)/sparse")" '^[0-9]{1,3}$'
out=$(timeout 120 "$SBX" commit --state-dir "$st" cbox sparse dense 2>&1)
is "commit-sparse: sbx commit applies the sparse and the dense file" "$out" "2 changes applied"
like "commit-sparse: the committed file costs the workspace under 1 MiB, not 2 GiB ($(kib "$ws2/sparse") KiB)" \
        "$(kib "$ws2/sparse")" '^[0-9]{1,3}$'
is "commit-sparse: ... with the sandbox's size" "$(stat -c %s "$ws2/sparse" 2>/dev/null)" 2147483648
is "commit-sparse: ... and its bytes where it wrote them" \
        "$(head -c 4 "$ws2/sparse" 2>/dev/null)$(dd if="$ws2/sparse" bs=1 skip=1000000000 count=3 2>/dev/null)" headmid
control "a dense file is copied byte for byte" "$(cmp "$ws2/dense" "$(up2)/dense" 2>&1 && echo same)" same
# FIFOs, sockets: never committed; sbx commit stopped at the first one with
# an error, after the changes sorted before it (a) and before the ones after
# it (z) and every deletion
sx exec cbox -- python3 -c '
import os, socket
open("/workspace/a", "w").write("a\n")
os.mkfifo("/workspace/m")
socket.socket(socket.AF_UNIX).bind("/workspace/n")
open("/workspace/z", "w").write("z\n")
os.unlink("/workspace/del")' >/dev/null 2>&1
control "sbx diff lists the FIFO and the socket" "$(sx diff --name-status cbox 2>&1 | grep -c '^A [mn]$')" 2
out=$(sx commit cbox 2>&1)
like "commit-special-files: sbx commit succeeds, the FIFO and socket skipped" "$out" \
        '^3 changes applied, 2 skipped'
is "commit-special-files: ... every other change applied (a, z added, del deleted)" \
        "$(cat "$ws2/a" "$ws2/z" 2>&1; ls "$ws2/del" 2>/dev/null)" "$(printf 'a\nz')"
is "commit-special-files: ... no FIFO or socket in the workspace" "$(find "$ws2" ! -type f ! -type d | wc -l)" 0
# the review must name what a commit deletes: a directory of the workspace
# replaced by a file was one line, 'M notes', and sbx commit then removed
# every file under it; a directory deleted and made again (opaque) listed
# only its first level
mkdir -p "$ws2/notes/deep" "$ws2/odir/sub"
echo 1 > "$ws2/notes/a"; echo 2 > "$ws2/notes/deep/b"; echo 3 > "$ws2/odir/sub/c"
sx exec cbox -- sh -c 'rm -rf /workspace/notes /workspace/odir && echo x > /workspace/notes && mkdir /workspace/odir' \
        >/dev/null 2>&1
sx diff --name-status cbox > "$TMP/tc.out" 2>&1
is "diff-type-change: sbx diff says the directory became a file" \
        "$(grep -x 'M notes (directory -> file)' "$TMP/tc.out")" 'M notes (directory -> file)'
is "diff-type-change: ... and lists each file under it that commit deletes" \
        "$(grep '^D notes/' "$TMP/tc.out" | tr '\n' ' ')" "D notes/a D notes/deep D notes/deep/b "
is "diff-opaque-deep: a file two levels under a re-made directory is listed" \
        "$(grep -x 'D odir/sub/c' "$TMP/tc.out")" 'D odir/sub/c'
sx commit cbox notes odir >/dev/null 2>&1
control "commit deletes what was listed: notes is a file, odir empty" \
        "$(cat "$ws2/notes" 2>&1; ls -A "$ws2/odir" 2>&1)" x
is "diff-type-change: nothing left to list after the commit" "$(sx diff --name-status cbox 2>&1 | grep -c -e notes -e odir)" 0
# a workspace file the sandbox replaced by a symlink to a host file: the
# review said 'M log', and after the commit whatever appends to the
# workspace's log on the host writes the host file
printf 'log\n' > "$ws2/log"
printf 'host\n' > "$TMP/hostfile"
sx exec cbox -- sh -c "rm /workspace/log && ln -s '$TMP/hostfile' /workspace/log" >/dev/null 2>&1
is "diff-symlink-target: sbx diff shows where the symlink points" \
        "$(sx diff --name-status cbox 2>&1 | grep '^M log')" "M log -> $TMP/hostfile (file -> symlink)"
like "diff-symlink-target: ... --json too" "$(sx diff --json cbox 2>&1)" '"target": ".*hostfile"'
sx commit cbox log >/dev/null 2>&1
echo appended >> "$ws2/log"
control "after the commit a host append to the workspace's log writes the host file" \
        "$(tail -1 "$TMP/hostfile")" appended
rm -f "$ws2/log"
# a text file that grows once sbx diff has checked it: 1 MiB of text when
# sbx read it (the sandbox sees the read as the file's atime changing), then
# 64 GiB (ftruncate: zeros behind the text, no cost to the layer) when
# diff(1), which holds both files in memory, read it to its end: every byte
# of the host's memory, as root, in no cgroup (here: a 3 GB ulimit -v)
printf 'old\n' > "$ws2/grow"
sx exec cbox -- python3 -c '
import os, time
fd = os.open("/workspace/grow", os.O_RDWR | os.O_TRUNC)
os.write(fd, (b"x" * 1023 + b"\n") * 1024)
if os.fork():
    os._exit(0)
os.setsid()
null = os.open("/dev/null", os.O_RDWR)
for i in (0, 1, 2):
    os.dup2(null, i)
while True:
    os.ftruncate(fd, 1 << 20)
    os.utime(fd, (0, time.time()))
    a0 = os.fstat(fd).st_atime_ns
    while os.fstat(fd).st_atime_ns == a0:
        pass
    os.ftruncate(fd, 1 << 36)
    time.sleep(1)' >/dev/null 2>&1
sleep 0.5
out=$( (ulimit -v 3000000; head -c 8 "$(up2)/grow" >/dev/null; sleep 0.2
        timeout 60 diff -u "$ws2/grow" "$(up2)/grow" 2>&1 >/dev/null) )
like "control: a host diff(1) of the layer's file after a first read (sbx's check) reads what it grows to" \
        "$out" 'memory exhausted'
exhausted=0 patched=0
for i in 1 2 3; do
        sleep 1.2
        (ulimit -v 3000000; timeout 60 "$SBX" diff --state-dir "$st" cbox > "$TMP/grow.out" 2>&1)
        # what diff(1) read past the text: zeros in its output, or its end
        if grep -q exhausted "$TMP/grow.out" || [ "$(tr -cd '\0' < "$TMP/grow.out" | wc -c)" != 0 ]; then
                exhausted=$((exhausted + 1))
        fi
        grep -q '^+xxxxxxxx' "$TMP/grow.out" && patched=$((patched + 1))
done
is "diff-patch-grows: sbx diff's diff(1) never read past the text it was given (3 runs)" "$exhausted" 0
like "diff-patch-grows: ... it printed the patch of the text it read ($patched of 3)" "$patched" '^[1-3]$'
is "control: the sandbox did grow the file after the read" "$(stat -c %s "$(up2)/grow")" 68719476736
sx exec cbox -- sh -c 'kill -9 -1' >/dev/null 2>&1
sleep 0.2
rm -f "$ws2/grow"
sx exec cbox -- rm -f /workspace/grow >/dev/null 2>&1
# a tree as deep as the sandbox likes (it can chdir down): sbx diff and sbx
# commit walked it with a 21 KiB stack frame per level and died of SIGSEGV
# at some 400 levels (8 MiB stack), so no change could be reviewed or
# committed. 1200 levels need ~2,500 fds (2 per level).
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then
        skip "diff-deep-tree: the walk needs 2 fds per level, ulimit -n is $(ulimit -n)"
else
        sx exec cbox -- python3 -c '
import os
os.chdir("/workspace")
for i in range(1200):
    os.mkdir("d"); os.chdir("d")
open("leaf", "w").write("x")' >/dev/null 2>&1
        control "the layer holds the 1200-level tree" "$(find "$(up2)" -name leaf | tr -cd / | wc -c)" \
                "$(( $(printf %s "$(up2)" | tr -cd / | wc -c) + 1201 ))"
        out=$( (ulimit -s 8192; timeout 120 "$SBX" diff --state-dir "$st" --name-status cbox 2>&1); echo "rc=$?")
        like "diff-deep-tree: sbx diff (8 MiB stack) lists the deepest file" "$out" '(d/){1200}leaf'
        like "diff-deep-tree: ... and exits 0" "$out" 'rc=0$'
        out=$( (ulimit -s 8192; timeout 120 "$SBX" commit --state-dir "$st" cbox d 2>&1); echo "rc=$?")
        like "commit-deep-tree: sbx commit applies it and exits 0" "$out" '^1201 changes applied'$'\n''rc=0$'
        is "commit-deep-tree: ... the leaf in the workspace" "$(find "$ws2" -name leaf | tr -cd / | wc -c)" \
                "$(( $(printf %s "$ws2" | tr -cd / | wc -c) + 1201 ))"
fi
sx rm -f cbox >/dev/null 2>&1

# --- a file and a directory of mode 000 in the layer: without root sbx reads
# the layer as the caller and cannot open them. sbx diff and sbx commit exited
# 125 with "open upper dir 'd0'" (no reason), and a commit copied the changes
# sorted before the file and then stopped (half-applied). Now: refused before
# anything is applied, naming the path, the reason and the mode; as root read.
zws=$TMP/zws
mkdir -m 755 "$zws" && echo keep > "$zws/keep"
if sx create --name zbox --workspace "$zws" --workspace-mode overlay >/dev/null 2>&1; then
        sx exec zbox -- sh -c 'echo a > /workspace/0first; echo y > /workspace/f0; chmod 000 /workspace/f0
echo z > /workspace/later' >/dev/null 2>&1
        like "diff-mode000-file: sbx diff lists a file of mode 000" "$(sx diff --name-status zbox 2>&1)" '^A f0$'
        out=$(sx commit zbox 2>&1); rc=$?
        if is_root; then
                is "commit-mode000-file: as root sbx commit reads it and applies all 3 changes" "$rc:$out" "0:3 changes applied"
                is "commit-mode000-file: ... the file's bytes" "$(cat "$zws/f0" 2>&1)" y
        else
                is "commit-mode000-file: rootless, sbx commit refuses (exit 125)" "$rc" 125
                like "commit-mode000-file: ... naming the path, the reason and the mode" "$out" \
                        "the file 'f0' in the sandbox's upper layer cannot be read: Permission denied, mode 0000"
                is "commit-mode000-file: ... before applying anything (0first, later not in the workspace)" \
                        "$(ls "$zws")" keep
                sx exec zbox -- chmod 0600 /workspace/f0 >/dev/null 2>&1
                out=$(sx commit zbox 2>&1); rc=$?
                is "commit-mode000-file: control: once readable, sbx commit applies all 3 changes" "$rc:$out" \
                        "0:3 changes applied"
        fi
        sx exec zbox -- sh -c 'mkdir /workspace/d0 && echo x > /workspace/d0/f && chmod 000 /workspace/d0' >/dev/null 2>&1
        out=$(sx diff --name-status zbox 2>&1); rc=$?
        if is_root; then
                like "diff-mode000-dir: as root sbx diff lists the file in a directory of mode 000" "$out" '^A d0/f$'
                out=$(sx commit zbox 2>&1); rc=$?
                is "commit-mode000-dir: as root sbx commit applies it" "$rc:$(cat "$zws/d0/f" 2>&1)" 0:x
        else
                is "diff-mode000-dir: rootless, sbx diff of a directory of mode 000 fails (125)" "$rc" 125
                like "diff-mode000-dir: ... naming the path, the reason and the mode" "$out" \
                        "the directory 'd0' in the sandbox's upper layer cannot be read: Permission denied, mode 0000"
                out=$(sx commit zbox 2>&1); rc=$?
                like "commit-mode000-dir: sbx commit refuses it the same way" "$rc:$out" \
                        "^125:.*the directory 'd0' in the sandbox's upper layer cannot be read: Permission denied"
                is "commit-mode000-dir: ... and applies nothing" "$(ls "$zws" | grep -c d0)" 0
                sx exec zbox -- sh -c 'chmod 0400 /workspace/d0' >/dev/null 2>&1
                like "diff-mode400-dir: a directory that can be listed but not entered is refused too, never left out" \
                        "$(sx diff --name-status zbox 2>&1)" "the directory 'd0' .* cannot be read: Permission denied, mode 0400"
                sx exec zbox -- chmod 0700 /workspace/d0 >/dev/null 2>&1
                out=$(sx commit zbox 2>&1); rc=$?
                is "commit-mode000-dir: control: once readable, sbx commit applies it" "$rc:$(cat "$zws/d0/f" 2>&1)" 0:x
        fi
        sx rm -f zbox >/dev/null 2>&1
else
        not_ok "create the sandbox of the mode 000 tests"
fi

# --- the review is what is committed: sbx commit applied the layer as it was
# when commit ran, so a running sandbox could change a reviewed file between
# sbx diff and sbx commit. sbx diff --digest names what it listed; sbx commit
# --expect copies every file aside, takes the digest of the copies, and
# applies them only if it is the one reviewed. Deterministic first (a change
# after the review), then against a file flipping in place between the
# reviewed text and another while commit runs.
xws=$TMP/xws
mkdir -m 755 "$xws" && echo hi > "$xws/b"
if sx create --name xbox --workspace "$xws" --workspace-mode overlay >/dev/null 2>&1; then
        sx exec xbox -- sh -c 'echo good > /workspace/b; echo new > /workspace/n' >/dev/null 2>&1
        dg=$(sx diff --digest --name-status xbox 2>&1 | sed -n 's/^digest //p')
        like "diff-digest: sbx diff --digest prints the digest of what it listed" "$dg" '^sha256:[0-9a-f]{64}$'
        is "diff-digest: ... the same in --json" \
                "$(sx diff --digest --json xbox 2>&1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')" "$dg"
        sx exec xbox -- sh -c 'echo evil > /workspace/b' >/dev/null 2>&1
        out=$(sx commit --expect "$dg" xbox 2>&1); rc=$?
        is "commit-expect-changed: a file changed after the review is refused (125)" "$rc" 125
        like "commit-expect-changed: ... naming the digest reviewed and the one found" "$out" \
                "commit --expect $dg: the sandbox's changes are now sha256:[0-9a-f]{64}, not the ones reviewed; nothing was committed"
        is "commit-expect-changed: ... nothing applied, no staging dir left" "$(ls -A "$xws" | tr '\n' ' ')$(cat "$xws/b")" "b hi"
        # in place, as fast as it can: good, evil, good, ...
        sx exec xbox -- sh -c 'echo good > /workspace/b' >/dev/null 2>&1
        dg=$(sx diff --digest --name-status xbox 2>&1 | sed -n 's/^digest //p')
        sx exec xbox -- python3 -c "
import os
if os.fork() == 0:
    os.setsid()
    fd = os.open('/workspace/b', os.O_RDWR)
    while True:
        os.pwrite(fd, b'evil\n', 0)
        os.pwrite(fd, b'good\n', 0)
" >/dev/null 2>&1
        evil_plain=0 evil_expect=0 ok_expect=0
        for i in $(seq 40); do
                echo hi > "$xws/b"; rm -f "$xws/n"
                sx commit xbox b >/dev/null 2>&1 && [ "$(cat "$xws/b")" = evil ] && evil_plain=$((evil_plain + 1))
        done
        for i in $(seq 40); do
                echo hi > "$xws/b"; rm -f "$xws/n"
                if sx commit --expect "$dg" xbox >/dev/null 2>&1; then
                        ok_expect=$((ok_expect + 1))
                        [ "$(cat "$xws/b")" = good ] || evil_expect=$((evil_expect + 1))
                fi
        done
        sx exec xbox -- sh -c 'kill -9 -1' >/dev/null 2>&1; sleep 0.2
        like "control: without --expect, sbx commit during the flip committed the unreviewed text ($evil_plain of 40)" \
                "$evil_plain" '^[1-9][0-9]*$'
        is "commit-expect-flip: with --expect, never the unreviewed text ($ok_expect of 40 commits applied, each the reviewed one)" \
                "$evil_expect" 0
        sx rm -f xbox >/dev/null 2>&1
else
        not_ok "create the sandbox of the commit --expect tests"
fi

# --- directories the sandbox made unlistable, unsearchable or read-only in
# its upper layer (modes 000, 0400, 0500, nested): rootless, sbx rm (without
# CAP_DAC_OVERRIDE) failed with "remove its state dir" and left the layer on
# the host. Now the removal makes each directory the owner's (by fd, never
# following a symlink) and removes everything; a symlink in the layer to a
# host directory of mode 0500 is removed, its target neither changed nor
# emptied.
rws=$TMP/rws
mkdir -m 755 "$rws" "$TMP/rtarget" && echo keep > "$TMP/rtarget/keep" && chmod 0500 "$TMP/rtarget"
if sx create --name rbox --workspace "$rws" --workspace-mode overlay >/dev/null 2>&1; then
        sx exec rbox -- sh -c "cd /workspace && mkdir -p a/b c d/e/f && echo x > a/b/f && echo y > c/g && echo z > d/e/f/h
ln -s '$TMP/rtarget' d/e/link && ln -s '$TMP/rtarget' top-link
chmod 000 a/b && chmod 0400 a && chmod 0500 c && chmod 0 d/e/f && chmod 0500 d/e && chmod 0 d" >/dev/null 2>&1
        rdir=$(ls -d "$st"/sandboxes/rbox/run-*/upper 2>/dev/null | head -1)
        if ! is_root && [ -n "$rdir" ]; then
                cp -a "$rdir" "$TMP/rcopy"
                out=$(rm -rf "$TMP/rcopy" 2>&1); rc=$?
                like "control: rootless, rm -rf of a copy of that layer fails (the modes keep the owner out)" \
                        "$rc:$out" '^1:.*Permission denied'
                chmod -R u+rwx "$TMP/rcopy" 2>/dev/null; rm -rf "$TMP/rcopy"
        else
                control "rm -rf of a copy of the layer fails" "" "" "root's CAP_DAC_OVERRIDE ignores the modes"
        fi
        out=$(sx rm -f rbox 2>&1); rc=$?
        is "rm-unreadable-dirs: sbx rm removes a layer with directories of mode 000, 0400, 0500 (exit 0)" "$rc:$out" 0:rbox
        is "rm-unreadable-dirs: ... nothing of the sandbox left in the state dir" \
                "$(ls -A "$st/sandboxes" | grep -v -e '^\.lock$' -e '^\.by-id$' -e '^\.ls' | grep -c .)" 0
        is "rm-unreadable-dirs: ... the symlinks' host target untouched (mode 0500, its file kept)" \
                "$(stat -c %a "$TMP/rtarget"):$(cat "$TMP/rtarget/keep")" 500:keep
else
        not_ok "create the sandbox of the sbx rm tests"
fi
chmod 0755 "$TMP/rtarget"
is "no sandbox left" "$(ls "$st/sandboxes" 2>/dev/null | grep -c -e dbox -e cbox -e zbox -e rbox -e xbox)" 0
done_testing

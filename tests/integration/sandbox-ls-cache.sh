#!/bin/bash
# SPDX-License-Identifier: MIT
# The listing cache (issue 16 target 5): <root>/.ls-cache never changes what
# sbx ls shows. Truncated, garbage, bit-flipped, empty, planted symlink,
# FIFO, directory, group/other-readable and other-owner caches give the
# output of a listing without one (and a symlink's target is never written);
# a record replaced behind its back is seen;
# an init killed with SIGKILL shows as stopped with a warm cache, also when
# its socket inode is another listener's (inode reuse); a sandbox
# removed and made again under its name, a stop, a changed config and
# creates/removes racing with ls are seen as they are.
. "$(dirname "$0")/sandbox-lib.sh"

CACHE="$ROOT/.ls-cache"
# the table with its ages (which move with the clock) left out
ls_table() { sbx ls | sed -E 's/[0-9]+[a-z]* ago */AGE /g'; }
# ls, every form, with any cache there is
ls_all() {
        sbx ls --json
        ls_table
        sbx ls -q
        sbx ls --json --filter label=team=x
}
# the same with no cache before each command (each writes one again)
ls_nocache() {
        local f
        for f in "sbx ls --json" ls_table "sbx ls -q" "sbx ls --json --filter label=team=x"; do
                rm -rf "$CACHE"
                $f
        done
}

sbx_create --label team=x a >/dev/null
sbx_create b >/dev/null
sbx_create --no-start c >/dev/null
sbx_run --name d -- true
sbx_run --name d --hostname other -- true     # d: configChanged true
sbx_create e >/dev/null
sbx stop e >/dev/null
# a running exec (runningExecs 1) for the whole test
sbx_exec_bg a -- sleep 600 & execpid=$!
for _ in $(seq 50); do [ "$(field a runningExecs)" = 1 ] && break; sleep 0.1; done
# entries changed within 2 s of a listing are not stored (coarse timestamps)
sleep 2.2
ref=$(ls_nocache)
is "d's config changed (the case is there)" "$(field d configChanged)" True
is "a has a running exec (the case is there)" "$(field a runningExecs)" 1
sbx ls >/dev/null
[ -f "$CACHE" ] && [ ! -L "$CACHE" ] && ok "ls writes $CACHE" || not_ok "ls writes $CACHE"
is "... mode 0600, owned by the caller" "$(stat -c '%a %u' "$CACHE" 2>/dev/null)" "600 $(id -u)"
is "a warm cache: the same output" "$(ls_all)" "$ref"
if command -v strace >/dev/null; then
        opened=$(strace -f -e trace=openat -o /dev/stdout "$SBX" ls --state-dir "$SBX_STATE" --json 2>/dev/null |
                 grep -c 'sandbox.json' || true)
        is "a warm cache: ls opens no record" "$opened" 0
else
        skip "strace not installed: cannot see which files ls opens"
fi
good=$TMP/good-cache
cp "$CACHE" "$good"
size=$(stat -c %s "$good")

# --- broken caches: each gives the output of no cache, and is replaced
check_broken() {    # DESC (the cache is in place)
        is "$1: the same output" "$(ls_all)" "$ref"
        if [ -f "$CACHE" ] && [ ! -L "$CACHE" ] && cmp -s "$CACHE" "$good"; then
                ok "$1: replaced by a good cache"
        else
                not_ok "$1: replaced by a good cache"
        fi
}
head -c $((size / 2)) "$good" > "$CACHE"; check_broken "truncated to half"
head -c 20 "$good" > "$CACHE"; check_broken "truncated into the header"
: > "$CACHE"; check_broken "empty"
head -c "$size" /dev/urandom > "$CACHE"; check_broken "random bytes of the same size"
{ head -c 32 "$good"; head -c $((size - 32)) /dev/urandom; } > "$CACHE"; check_broken "a good header, a garbage body"
cp "$good" "$CACHE"
printf '\xff' | dd of="$CACHE" bs=1 seek=$((size / 2)) conv=notrunc status=none
check_broken "one byte changed in the middle"
cp "$good" "$CACHE"; printf 'more' >> "$CACHE"; check_broken "bytes appended"
cp "$good" "$CACHE"; chmod 0644 "$CACHE"; check_broken "group/other-readable (0644)"
rm -f "$CACHE"; mkfifo "$CACHE"
is "a FIFO: the same output (and ls does not hang)" \
        "$(timeout 20 "$SBX" ls --state-dir "$SBX_STATE" --json)" "$(printf '%s\n' "$ref" | sed -n '1,/^]$/p')"
rm -f "$CACHE"
mkdir "$CACHE"
is "a directory: the same output" "$(ls_all)" "$ref"
rmdir "$CACHE"

# a planted symlink: never followed for reading nor writing
victim=$TMP/victim
cp "$good" "$victim"
ln -s "$victim" "$CACHE"
vsum=$(sha256sum < "$victim")
is "a symlink to a cache: the same output" "$(ls_all)" "$ref"
is "... its target is not written" "$(sha256sum < "$victim")" "$vsum"
[ -L "$CACHE" ] && not_ok "... the symlink is replaced" || ok "... the symlink is replaced"
victim2=$TMP/victim2
echo keep > "$victim2"
rm -f "$ROOT/.ls-cache.tmp"; ln -s "$victim2" "$ROOT/.ls-cache.tmp"
cp "$good" "$CACHE"; printf '\x00' | dd of="$CACHE" bs=1 seek=40 conv=notrunc status=none
is "a symlink planted as the temp file: the same output" "$(ls_all)" "$ref"
is "... its target is not written" "$(cat "$victim2")" keep

# A forged cache: a's label team=x changed to team=z, checksum redone (what
# ls-cache.c checks). Taken as the caller's own 0600 file (as trusted as its
# records: the root is the caller's private dir), so the checks below that
# ignore it as 0644 or another owner's are not vacuous.
# forge OUT [COUNT]: with COUNT, a's label count (1) is set to COUNT instead.
forge() {
        python3 - "$good" "$1" "${2:-}" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
old = struct.pack("<I", 4) + b"team" + struct.pack("<I", 1) + b"x"
assert d.count(old) == 1, "label not found"
if sys.argv[3]:
    old = struct.pack("<I", 1) + old
    assert d.count(old) == 1, "label count not found"
    d = d.replace(old, struct.pack("<I", int(sys.argv[3])) + old[4:])
else:
    d = d.replace(old, old[:-1] + b"z")
M = 2**64 - 1
def checksum(b):
    h = 0x9e3779b97f4a7c15 ^ len(b)
    i = 0
    while len(b) - i >= 8:
        h = ((h ^ int.from_bytes(b[i:i + 8], "little")) * 0x100000001b3) & M
        h ^= h >> 29
        i += 8
    for c in b[i:]:
        h = ((h ^ c) * 0x100000001b3) & M
    return h ^ (h >> 32)
d[24:32] = struct.pack("<Q", checksum(bytes(d[32:])))
open(sys.argv[2], "wb").write(d)
PY
}
forged=$TMP/forged-cache
forge "$forged"
install -m 0600 "$forged" "$CACHE"
like "control: the caller's own forged cache is read (a's label shows as z)" "$(sbx ls --json)" '"team": "z"'
install -m 0644 "$forged" "$CACHE"
is "a forged cache, group/other-readable: the same output" "$(ls_all)" "$ref"
if [ "$(id -u)" = 0 ]; then
        install -m 0600 -o 65534 -g 65534 "$forged" "$CACHE"
        is "a forged cache owned by another user: the same output" "$(ls_all)" "$ref"
        is "... replaced by the caller's" "$(stat -c %u "$CACHE")" 0
else
        skip "another owner's cache: needs root to chown"
fi
# a checksummed entry whose counts exceed what it holds (the caller's own
# file, read as trusted): ignored, never indexed
for count in 2 1000 2147483647 4294967295; do
        forge "$forged" "$count"
        install -m 0600 "$forged" "$CACHE"
        is "a forged cache, a's label count $count: the same output" "$(ls_all 2>&1)" "$ref"
done

# --- a record replaced (as sbx writes it: a rename) with its old mtime put
# back: the dir's identity moved, so the cache is not used for it
sbx ls >/dev/null
python3 - "$ROOT/e/sandbox.json" <<'PY'
import json, os, sys
p = sys.argv[1]
st = os.stat(p)
r = json.load(open(p))
r["labels"] = {"team": "q"}
open(p + ".new", "w").write(json.dumps(r, indent=2))
os.chmod(p + ".new", 0o600)
os.replace(p + ".new", p)
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
PY
is "a record replaced under a warm cache (its mtime kept): ls shows the new one" \
        "$(sbx ls -q --filter label=team=q)" e

# --- a killed init with a warm cache: stopped, like without a cache
sbx ls >/dev/null
cp "$CACHE" "$good"
pid=$(field b initPid)
kill -KILL "$pid"
for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
cp "$good" "$CACHE"   # the cache from before the kill
is "init killed, warm cache: b is stopped" "$(field b state)" stopped
is "... initPid 0" "$(field b initPid)" 0
is "... its exec fails as on a stopped sandbox" "$(sbx exec b -- true >/dev/null 2>&1; echo $?)" \
        "$(sbx exec e -- true >/dev/null 2>&1; echo $?)"

# --- a dead init's exec service socket inode now another listener's (inode
# numbers come back after 2^32): a daemon's stream socket, simulated by
# recording its inode; stopped, not running
sbx_create g >/dev/null
pid=$(field g initPid)
kill -KILL "$pid"
for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
print(os.fstat(s.fileno()).st_ino, flush=True)
time.sleep(600)' "$TMP/daemon.sock" > "$TMP/daemon.ino" & daemon=$!
for _ in $(seq 50); do [ -s "$TMP/daemon.ino" ] && break; sleep 0.1; done
python3 - "$ROOT/g/sandbox.json" "$(cat "$TMP/daemon.ino")" <<'PY'
import json, os, sys
p = sys.argv[1]
r = json.load(open(p))
r["svc_ino"] = int(sys.argv[2])
open(p + ".new", "w").write(json.dumps(r, indent=2))
os.chmod(p + ".new", 0o600)
os.replace(p + ".new", p)
PY
grep -q ":.* 00010000 0001 .* $(cat "$TMP/daemon.ino") " /proc/net/unix &&
        ok "the daemon's socket listens with that inode (the case is there)" ||
        not_ok "the daemon's socket listens with that inode (the case is there)"
is "init dead, its socket inode another listener's: g is stopped" "$(field g state)" stopped
kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
sbx rm -f g >/dev/null

# --- removed and made again under the same name: the new one
sleep 2.2
sbx ls >/dev/null
old=$(field c id)
sbx rm -f c >/dev/null
sbx_create --label team=y c >/dev/null
new=$(sbx inspect c | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
[ "$new" != "$old" ] && ok "c made again: a new id" || not_ok "c made again: a new id"
is "ls shows the new c" "$(field c id)" "$new"
is "... with its labels" "$(sbx ls -q --filter label=team=y)" c
sbx stop d >/dev/null
is "a stop after the cache was written shows" "$(field d state)" stopped

# --- creates and removes racing with ls
sleep 2.2
sbx ls >/dev/null
expect=$(sbx ls -q | tr '\n' ' ')
(
        for i in 1 2 3 4 5 6; do
                sbx_create "r$i" >/dev/null 2>&1
                sbx rm -f "r$((i - 1))" >/dev/null 2>&1
        done
        sbx rm -f r6 >/dev/null 2>&1
) & racer=$!
bad=0 runs=0
while kill -0 "$racer" 2>/dev/null; do
        out=$(sbx ls --json) || { bad=$((bad + 1)); continue; }
        runs=$((runs + 1))
        printf '%s' "$out" | python3 -c '
import json, sys
l = json.load(sys.stdin)
names = {s["name"] for s in l}
for s in l:
    assert s["state"] in ("running", "stopped", "created"), s
    assert len(s["id"]) == 64, s
for n in sys.argv[1].split():
    assert n in names, n
assert all(n in sys.argv[1].split() or n.startswith("r") for n in names), names
' "$expect" || bad=$((bad + 1))
done
wait "$racer"
is "ls during creates and removes: always whole, the others always there ($runs listings)" "$bad" 0
is "after them: the same as without a cache" "$(ls_all)" "$(ls_nocache)"

kill "$execpid" 2>/dev/null; wait "$execpid" 2>/dev/null
sbx rm -f --all >/dev/null
is "rm -f --all: nothing listed" "$(sbx ls -q)" ""
is "... and no cache left" "$(ls -A "$ROOT" | grep -c '^\.ls-cache' || true)" 0
done_testing

#!/bin/bash
# TAP: sbx rootfs import/ls/inspect/rm against archives built by rootfs-mkarchive.py.
# Runs as the caller: as root ownership is kept, unprivileged it maps to the caller.
set -u
SBX=${SBX:?SBX must point at the built binary}
SRC=${SBX_SOURCE_ROOT:?}
MK="python3 $SRC/tests/integration/rootfs-mkarchive.py"
T=$(mktemp -d /tmp/sbx-rootfs-test.XXXXXX)
export SBX_IMAGE_DIR=$T/store
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && sed 's/^/# /' <<<"$2"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

for k in docker oci oci-index no-name traversal-dotdot whiteout-dotdot outer-symlink manifest-escape traversal-abs through-symlink \
         hardlink-outside bad-digest truncated bad-manifest not-tar; do
        $MK "$k" "$T/$k.tar" || { echo "Bail out! cannot build test archive $k"; exit 1; }
done

out=$("$SBX" rootfs import "$T/docker.tar" 2>&1); rc=$?
check "docker-save archive with 3 layers imports" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | sed 's/^/# /'
R=$SBX_IMAGE_DIR/images/sbx-test+docker@v1/rootfs
check "a later layer's file replaces the earlier one" test "$(cat "$R/etc/hostname" 2>/dev/null)" = layer2
check "whiteout .wh.remove-me deletes etc/remove-me, etc/keep stays" \
        bash -c "[ ! -e '$R/etc/remove-me' ] && [ -f '$R/etc/keep' ]"
check "opaque directory hides the lower layer's entries" \
        bash -c "[ ! -e '$R/opq/old1' ] && [ ! -e '$R/opq/old2' ] && [ \"\$(cat '$R/opq/new')\" = new ]"
check "whiteout of a directory removes it recursively" \
        bash -c "[ ! -e '$R/usr/share/doc' ] && [ -d '$R/usr/share' ]"
check "hard link inside the layer is one inode" \
        test "$(stat -c %i "$R/etc/hostname-link" 2>/dev/null)" = "$(stat -c %i "$R/etc/hostname2" 2>/dev/null)"
check "symlinks are stored verbatim (-> /, -> .., -> /etc/passwd)" \
        bash -c "[ \"\$(readlink '$R/rootlink')\" = / ] && [ \"\$(readlink '$R/uplink')\" = .. ] &&
                 [ \"\$(readlink '$R/etc/passwd-link')\" = /etc/passwd ]"
check "device node is skipped and reported" \
        bash -c "[ ! -e '$R/dev/null' ] && grep -q 'skipped device node /dev/null' <<<'$out'"
check "setuid and setgid bits are stripped and reported" \
        bash -c "[ \"\$(stat -c %a '$R/usr/bin/su-like')\" = 755 ] && [ \"\$(stat -c %a '$R/usr/bin/sg-like')\" = 755 ] &&
                 grep -q 'stripped setuid/setgid bits from /usr/bin/su-like' <<<'$out'"
check "a 0555 directory keeps its mode and its content" \
        bash -c "[ \"\$(stat -c %a '$R/restricted')\" = 555 ] && [ \"\$(cat '$R/restricted/inside')\" = in ]"
if [ "$(id -u)" = 0 ]; then
        check "as root numeric ownership is kept (1234:2345)" test "$(stat -c %u:%g "$R/owned")" = 1234:2345
else
        check "unprivileged, files belong to the caller" test "$(stat -c %u "$R/owned")" = "$(id -u)"
fi
check "fifo is recreated as a fifo" test -p "$R/run-fifo"
check "no whiteout marker reaches the flattened root" test -z "$(find "$R" -name '.wh.*')"
check "record has layers in order and the image config" python3 -c "
import json,subprocess,sys
r=json.loads(subprocess.check_output(['$SBX','rootfs','inspect','sbx-test/docker:v1']))
c=r['config']
assert len(r['layers'])==3 and all(l.startswith('sha256:') for l in r['layers']), r['layers']
assert c['WorkingDir']=='/home/sandbox' and c['User']=='sandbox' and c['Cmd']==['sleep','infinity'], c
assert 'FOO=bar' in c['Env'] and r['rootfs']=='$R', r
assert r['import_notes']=={'setuid_stripped':2,'devices_skipped':1}, r['import_notes']"
check "ls --json lists the image" python3 -c "
import json,subprocess
a=json.loads(subprocess.check_output(['$SBX','rootfs','ls','--json']))
assert [x['ref'] for x in a]==['sbx-test/docker:v1'], a"

listing() { (cd "$1" && find . -printf '%p %y %m %s %l\n' | sort); }
out=$("$SBX" rootfs import "$T/oci.tar" 2>&1)
check "gzip-compressed OCI layout with gzip layers imports" test $? -eq 0
O=$SBX_IMAGE_DIR/images/sbx-test+oci@v2/rootfs
d=$(diff <(listing "$R") <(listing "$O") 2>&1)
if [ -z "$d" ] && [ -d "$O" ]; then ok "OCI and docker archives of the same layers give the same tree"
else nok "OCI and docker archives of the same layers give the same tree" "$d"; fi
out=$("$SBX" rootfs import "$T/oci-index.tar" 2>&1)
check "nested OCI index: the linux/amd64 manifest is chosen" \
        test -f "$SBX_IMAGE_DIR/images/sbx-test+nested@v3/rootfs/etc/keep"
nl=$(ls "$SBX_IMAGE_DIR/layers" | wc -l)
"$SBX" rootfs import --name other/name:1 "$T/docker.tar" 2>/dev/null
check "same layers under another name are stored once" test "$(ls "$SBX_IMAGE_DIR/layers" | wc -l)" = "$nl"
check "flattened files are hard links into the layer store" \
        test "$(stat -c %h "$SBX_IMAGE_DIR/images/other+name@1/rootfs/etc/keep")" -ge 3
cat "$T/docker.tar" | "$SBX" rootfs import --name piped - 2>/dev/null
check "import from standard input (-), tag defaults to latest" test -f "$SBX_IMAGE_DIR/images/piped@latest/rootfs/etc/keep"
"$SBX" rootfs import --name registry.local:5000/team/img:v9 "$T/docker.tar" 2>/dev/null
p=$("$SBX" rootfs inspect registry.local:5000/team/img:v9 | python3 -c 'import json,sys; print(json.load(sys.stdin)["rootfs"])')
check "a registry host:port name gets a root path without ':' or ',' (overlayfs-safe)" \
        eval '[ -f "$p/etc/keep" ] && [ "${p#"$SBX_IMAGE_DIR"}" = "/images/registry.local%5000+team+img@v9/rootfs" ]'
"$SBX" rootfs rm registry.local:5000/team/img:v9 >/dev/null
"$SBX" rootfs import "$T/docker.tar" 2>/dev/null
check "re-import replaces the image in place" test "$("$SBX" rootfs ls | grep -c '^sbx-test/docker:v1 ')" = 1

# Refused archives: clear message, non-zero, nothing left behind.
snapshot() { (cd "$SBX_IMAGE_DIR" && find images layers tmp -maxdepth 2 | sort); }
refuse() {
        local kind=$1 pat=$2 before after o rc
        before=$(snapshot)
        o=$("$SBX" rootfs import "$T/$kind.tar" 2>&1); rc=$?
        after=$(snapshot)
        if [ $rc -ne 0 ] && grep -q -- "$pat" <<<"$o" && [ "$before" = "$after" ] &&
           [ -z "$(ls -A "$SBX_IMAGE_DIR/tmp")" ]; then
                ok "$kind archive is refused: $pat"
        else
                nok "$kind archive is refused: $pat" "rc=$rc
$o
$(diff <(echo "$before") <(echo "$after"))"
        fi
}
refuse traversal-dotdot "contains '..': refused"
refuse traversal-abs "absolute entry name '/tmp/sbx-abs-escaped' refused"
check "absolute entry wrote nothing on the host" test ! -e /tmp/sbx-abs-escaped
refuse through-symlink "'esc' is not a directory (symlinks are never followed)"
check "entry through a symlink wrote nothing on the host" test ! -e /tmp/sbx-symlink-escaped
refuse whiteout-dotdot "whiteout 'etc/.wh...' names no entry: refused"
refuse outer-symlink "open 'manifest.json': No such file"
refuse manifest-escape "archive member 'x.json'"
refuse hardlink-outside "target is not an earlier entry"
refuse bad-digest "digest mismatch"
refuse truncated "Truncated tar archive"
refuse bad-manifest "manifest.json' is not valid JSON"
refuse not-tar "Unrecognized archive format"
refuse no-name "pass --name NAME"
o=$(: | "$SBX" rootfs import - 2>&1); rc=$?
check "empty input is refused" eval '[ $rc -ne 0 ] && grep -q "empty\|Unrecognized\|not a tar" <<<"$o"'
o=$(SBX_IMAGE_DIR=$T/store2 "$SBX" rootfs import "$T/bad-digest.tar" 2>&1); rc=$?
check "corrupt layer not yet in the store: refused after extraction, store left empty" \
        eval '[ $rc -ne 0 ] && grep -q "digest mismatch" <<<"$o" && [ -z "$(find "$T/store2" -mindepth 2)" ]'

o=$("$SBX" rootfs inspect no-such-image 2>&1); rc=$?
check "missing image: 'No such image: no-such-image:latest' and how to create it" \
        eval '[ $rc -ne 0 ] && grep -q "No such image: no-such-image:latest" <<<"$o" && grep -q "sbx rootfs build" <<<"$o"'
"$SBX" rootfs inspect 'Bad/NAME' >/dev/null 2>&1
check "invalid name is a usage error (exit 2)" test $? -eq 2
"$SBX" rootfs rm sbx-test/docker:v1 other/name:1 piped >/dev/null
check "rm removes the images" bash -c "! '$SBX' rootfs inspect sbx-test/docker:v1 >/dev/null 2>&1 &&
        [ ! -e '$SBX_IMAGE_DIR/images/sbx-test+docker@v1' ]"
check "layers still used by another image are kept" test "$(ls "$SBX_IMAGE_DIR/layers" | wc -l)" -gt 0
"$SBX" rootfs rm sbx-test/oci:v2 sbx-test/nested:v3 >/dev/null
check "the last rm drops the unused layers" test -z "$(ls -A "$SBX_IMAGE_DIR/layers")"
"$SBX" rootfs rm sbx-test/oci:v2 >/dev/null 2>&1
check "rm of a missing image fails" test $? -ne 0
# a work dir an import or build left when it was killed (Ctrl-C) is taken back
# by the next one; one a running import or build holds (its lock) stays
mkdir -p "$SBX_IMAGE_DIR/tmp/00000000deadbeef/rootfs/usr" "$SBX_IMAGE_DIR/tmp/00000000cafef00d"
flock "$SBX_IMAGE_DIR/tmp/00000000cafef00d" sleep 30 &
fpid=$!
for _ in $(seq 50); do grep -q "$(stat -c %i "$SBX_IMAGE_DIR/tmp/00000000cafef00d")" /proc/locks && break; sleep 0.05; done
"$SBX" rootfs import --name sbx-test/again:v1 "$T/docker.tar" >/dev/null 2>&1
check "a killed import's work dir is removed by the next import" test ! -e "$SBX_IMAGE_DIR/tmp/00000000deadbeef"
check "... one a running import holds (locked) stays" test -d "$SBX_IMAGE_DIR/tmp/00000000cafef00d"
kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null
check "... and the import leaves none of its own" test "$(ls -A "$SBX_IMAGE_DIR/tmp")" = 00000000cafef00d
rmdir "$SBX_IMAGE_DIR/tmp/00000000cafef00d"
"$SBX" rootfs rm sbx-test/again:v1 >/dev/null 2>&1
h=$("$SBX" rootfs --help)
helpwords() {
        for w in build import ls inspect rm --packages --mirror --suite --user --print-mirror --name --json; do
                grep -q -- "$w" <<<"$h" || return 1
        done
}
check "--help names every subcommand and option" helpwords
echo "1..$n"

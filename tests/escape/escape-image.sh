#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite: hostile image content read by sbx on the host. An image (or
# the archive it comes in) is its author's: a FIFO where sbx reads a file
# (a layer of the archive, the image's /etc/passwd for --user NAME) must be
# refused at once, never block sbx (a hung import or run); a sparse entry
# must not become zeros on the host's disk.
. "$(dirname "$0")/lib.sh"

MK="python3 $SBX_SOURCE_ROOT/tests/integration/rootfs-mkarchive.py"
export SBX_IMAGE_DIR=$TMP/store

# --- import: the layer the manifest names is a FIFO
$MK fifo-layer "$TMP/fifo-layer.tar"
$MK docker "$TMP/docker.tar"
control "a plain docker-save archive imports" \
        "$(timeout 60 "$SBX" rootfs import "$TMP/docker.tar" >/dev/null 2>&1; echo $?)" 0
out=$(timeout 20 "$SBX" rootfs import "$TMP/fifo-layer.tar" 2>&1); rc=$?
is "image-fifo-layer: the import fails at once (125, not a timeout)" "$rc" 125
like "image-fifo-layer: ... naming the member that is not a regular file" "$out" "'l.tar' is not a regular file"
is "image-fifo-layer: no image was stored" "$("$SBX" rootfs ls 2>/dev/null | grep -c sbx-test/fifo)" 0

# --- run --image of an image whose config names its User: the image's
# /etc/passwd is a FIFO
img() {   # img DIR TAG: an image of DIR (the probe as /bin/sbx-probe), User imguser
        mkdir -p "$1/bin" "$1/etc" "$1/tmp"
        cp "$SBX_PROBE" "$1/bin/sbx-probe"
        $MK tree "$TMP/$2.tar" "$1" "sbx-test/$2:v1" imguser &&
                timeout 60 "$SBX" rootfs import "$TMP/$2.tar" >/dev/null 2>&1
}
printf 'root:x:0:0::/:/bin/sh\nimguser:x:1234:1234::/:/bin/sh\n' > "$TMP/pw"
mkdir -p "$TMP/plain/etc" "$TMP/fifo/etc"
cp "$TMP/pw" "$TMP/plain/etc/passwd"
mkfifo "$TMP/fifo/etc/passwd"
if img "$TMP/plain" plain && img "$TMP/fifo" fifo; then
        control "the image's User, in its regular /etc/passwd, runs the command" \
                "$(timeout 60 "$SBX" run --image sbx-test/plain:v1 -- /bin/sbx-probe ids 2>&1 | cut -d' ' -f1,2)" \
                "ruid=1234 euid=1234"
        is "control: the stored image's /etc/passwd is a FIFO" \
                "$(stat -c %F "$SBX_IMAGE_DIR"/images/sbx-test+fifo@v1/rootfs/etc/passwd 2>&1)" fifo
        out=$(timeout 20 "$SBX" run --image sbx-test/fifo:v1 -- /bin/sbx-probe ids 2>&1); rc=$?
        is "image-fifo-passwd: the image's User fails at once (125, not a timeout)" "$rc" 125
        like "image-fifo-passwd: ... saying the user is not in the image's /etc/passwd" "$out" "User 'imguser' is not in"
        is "image-fifo-passwd: a numeric --user (no lookup) still runs" \
                "$(timeout 60 "$SBX" run --image sbx-test/fifo:v1 -u 1234 -- /bin/sbx-probe ids 2>&1 | cut -d' ' -f1)" \
                "ruid=1234"
else
        not_ok "import the two test images"
fi

# --- import: a sparse entry (GNU/pax sparse map): a 2 GiB file of which a
# few bytes are data, in an archive of some 30 KiB. libarchive's
# archive_read_data() fills the holes with zeros: the store got 2 GiB of
# them (a 1 TB entry filled the host's disk from a 30 KiB download)
mkdir -p "$TMP/sp/etc"
echo sparse-host > "$TMP/sp/etc/hostname"
truncate -s 2G "$TMP/sp/big"
printf mid | dd of="$TMP/sp/big" bs=1 seek=1000000000 conv=notrunc 2>/dev/null
kib() { echo $(( $(stat -c '%b * %B' "$1" 2>/dev/null || echo 0) / 1024 )); }
if tar --sparse --format=pax -cf "$TMP/sp.layer" -C "$TMP/sp" . 2>/dev/null &&
        $MK layer "$TMP/sp.tar" "$TMP/sp.layer" sbx-test/sparse:v1; then
        like "control: the archive is small ($(stat -c %s "$TMP/sp.tar") bytes)" "$(stat -c %s "$TMP/sp.tar")" \
                '^[0-9]{1,6}$'
        out=$(timeout 120 "$SBX" rootfs import "$TMP/sp.tar" 2>&1); rc=$?
        is "image-sparse-entry: the import succeeds" "$rc" 0
        f=$SBX_IMAGE_DIR/images/sbx-test+sparse@v1/rootfs/big
        like "image-sparse-entry: the stored file costs under 1 MiB, not 2 GiB ($(kib "$f") KiB)" "$(kib "$f")" \
                '^[0-9]{1,3}$'
        is "image-sparse-entry: ... with its size and its data where the archive put it" \
                "$(stat -c %s "$f" 2>&1) $(dd if="$f" bs=1 skip=1000000000 count=3 2>/dev/null)" "2147483648 mid"
        control "a plain file of the same layer is stored byte for byte" \
                "$(cat "$SBX_IMAGE_DIR/images/sbx-test+sparse@v1/rootfs/etc/hostname" 2>&1)" sparse-host
        "$SBX" rootfs rm sbx-test/sparse:v1 >/dev/null 2>&1
else
        skip "image-sparse-entry: GNU tar cannot make a sparse archive here"
fi

# --- import limits: a compression bomb (a layer of some 100 KiB of gzip that
# inflates to 128 MiB of tar: the same ratio makes terabytes of a few MB),
# more entries than allowed, an entry of more than 128 path components. Each is
# refused naming its limit, and nothing of it is left in the store (no image,
# no layer, no work directory); the same archive under a larger limit imports.
python3 - "$TMP/bomb.layer" <<'P'
import io, sys, tarfile
class Zeros(io.RawIOBase):
    def __init__(self, n): self.n = n
    def readable(self): return True
    def readinto(self, b):
        k = min(len(b), self.n); b[:k] = bytes(k); self.n -= k; return k
with tarfile.open(sys.argv[1], "w:gz", compresslevel=9) as tf:
    ti = tarfile.TarInfo("zeros"); ti.size = 128 << 20
    tf.addfile(ti, io.BufferedReader(Zeros(ti.size)))
P
layers_now() { ls "$SBX_IMAGE_DIR/layers" 2>/dev/null | wc -l; }
if $MK layer "$TMP/bomb.tar" "$TMP/bomb.layer" sbx-test/bomb:v1; then
        like "control: the bomb's archive is small ($(stat -c %s "$TMP/bomb.tar") bytes)" "$(stat -c %s "$TMP/bomb.tar")" '^[0-9]{1,6}$'
        nl=$(layers_now)
        out=$(timeout 120 "$SBX" rootfs import --max-bytes 32m "$TMP/bomb.tar" 2>&1); rc=$?
        is "image-import-bomb: refused (125)" "$rc" 125
        like "image-import-bomb: ... naming the limit" "$out" \
                "layer sha256:[0-9a-f]{12}: more than 33554432 bytes unpacked \(the limit of unpacked bytes, --max-bytes\): refused"
        is "image-import-bomb: ... nothing stored: no image, no new layer, no work directory" \
                "$("$SBX" rootfs ls 2>/dev/null | grep -c sbx-test/bomb):$(layers_now):$(ls -A "$SBX_IMAGE_DIR/tmp" 2>/dev/null | wc -l)" \
                "0:$nl:0"
        out=$(timeout 120 "$SBX" rootfs import --max-bytes 1g "$TMP/bomb.tar" 2>&1); rc=$?
        control "the same archive imports under --max-bytes 1g (128 MiB of zeros)" \
                "$rc:$(stat -c %s "$SBX_IMAGE_DIR/images/sbx-test+bomb@v1/rootfs/zeros" 2>&1)" 0:134217728
        "$SBX" rootfs rm sbx-test/bomb:v1 >/dev/null 2>&1
else
        not_ok "make the compression bomb's archive"
fi
python3 - "$TMP/many.layer" "$TMP/deep.layer" "$TMP/deep-ok.layer" <<'P'
import io, sys, tarfile
def tar(path, names):
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tf:
        for n in names:
            tf.addfile(tarfile.TarInfo(n), io.BytesIO(b""))
tar(sys.argv[1], ["f%05d" % i for i in range(3000)])
tar(sys.argv[2], ["d/" * 129 + "f"])
tar(sys.argv[3], ["d/" * 127 + "f"])
P
if $MK layer "$TMP/many.tar" "$TMP/many.layer" sbx-test/many:v1 &&
        $MK layer "$TMP/deep.tar" "$TMP/deep.layer" sbx-test/deep:v1 &&
        $MK layer "$TMP/deep-ok.tar" "$TMP/deep-ok.layer" sbx-test/deepok:v1; then
        nl=$(layers_now)
        out=$(timeout 120 "$SBX" rootfs import --max-entries 1000 "$TMP/many.tar" 2>&1); rc=$?
        like "image-import-entries: 3000 entries under --max-entries 1000 are refused (125), naming the limit" "$rc:$(echo $out)" \
                "^125:.*layer sha256:[0-9a-f]{12}: more than 1000 entries \(the limit of archive entries, --max-entries\): refused"
        is "image-import-entries: ... nothing stored" \
                "$("$SBX" rootfs ls 2>/dev/null | grep -c sbx-test/many):$(layers_now):$(ls -A "$SBX_IMAGE_DIR/tmp" 2>/dev/null | wc -l)" \
                "0:$nl:0"
        control "the same archive imports under the default limit" \
                "$(timeout 120 "$SBX" rootfs import "$TMP/many.tar" >/dev/null 2>&1; echo $?):$(ls "$SBX_IMAGE_DIR/images/sbx-test+many@v1/rootfs" 2>/dev/null | wc -l)" \
                0:3000
        out=$(timeout 120 "$SBX" rootfs import "$TMP/deep.tar" 2>&1); rc=$?
        like "image-import-depth: an entry of 130 path components is refused (125), naming the limit" "$rc:$(echo $out)" \
                "^125:.*has more than 128 path components \(the limit of path depth\)"
        is "image-import-depth: ... nothing stored" \
                "$("$SBX" rootfs ls 2>/dev/null | grep -c sbx-test/deep):$(ls -A "$SBX_IMAGE_DIR/tmp" 2>/dev/null | wc -l)" 0:0
        control "an entry of 128 path components imports" \
                "$(timeout 120 "$SBX" rootfs import "$TMP/deep-ok.tar" >/dev/null 2>&1; echo $?)" 0
        "$SBX" rootfs rm sbx-test/many:v1 sbx-test/deepok:v1 >/dev/null 2>&1
else
        not_ok "make the archives of the entry and depth limits"
fi
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

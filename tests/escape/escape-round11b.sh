#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 11b: the host side. What runs on the host (or in the
# runtime before the container's first instruction) and reads what an image,
# a bundle or a sandbox controls. Each blocked case is asserted with what
# only the defence gives, beside a control where it does not apply.
. "$(dirname "$0")/lib.sh"
. "$SBX_SOURCE_ROOT/tests/oci/oci-lib.sh"

# --- OCI linux.maskedPaths through the image's /dev/null (runc
# CVE-2025-31133): a file is masked by binding the root's /dev/null over
# it. A config with no /dev mount leaves /dev/null the image's (and a /dev
# shared with a neighbour can swap it): a symlink to the masked file itself
# bound it over itself, so /proc/timer_list (the host's timers, with the
# names and pids of host processes) read through. Only the null device 1:3,
# not followed, is used; anything else refuses the container.
if is_root && busybox_static >/dev/null 2>&1 && [ -r /proc/timer_list ]; then
        O=$TMP/mask
        mkdir -p "$O"
        make_rootfs "$O/rootfs" >/dev/null 2>&1
        mrun() { # mrun NAME [extra python]: run the probe, $out and $st
                mkdir -p "$O/b-$1"
                ROOTFS=$O/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$O/b-$1" \
                        "c['mounts']=[m for m in c['mounts'] if not m['destination'].startswith('/dev')]
c['linux']['maskedPaths']=['/proc/timer_list']
c['process']['args']=['/bin/sh','-c','echo now=\$(grep -sc \"^now at\" /proc/timer_list)']
${2:-}" || echo "# mkconfig $1 failed"
                out=$(cd "$O/b-$1" && timeout -k 5 30 "$SBX_RUNC" --root "$O/root" run "$1-$$" 2>&1 </dev/null); st=$?
        }
        mrun unmasked "c['linux']['maskedPaths']=[]"
        control "unmasked, /proc/timer_list is read in the container" "$st $out" "0 now=1"
        mknod -m 666 "$O/rootfs/dev/null" c 1 3
        mrun nulldev
        like "control: masked with the image's null device (EACCES: the root is nodev): nothing read" "$st $out" "^0 now=0?$"
        rm -f "$O/rootfs/dev/null"; ln -s /proc/timer_list "$O/rootfs/dev/null"
        mrun selflink
        is "mask-devnull-symlink: /dev/null a symlink to the masked file: refused (exit 1)" "$st" 1
        like "mask-devnull-symlink: ... naming the mask and /dev/null, nothing of the file read" "$out" \
                "^sbx-runc: mount: mask '/proc/timer_list' \(the root's /dev/null is not the null device 1:3\)"
        rm -f "$O/rootfs/dev/null"; : > "$O/rootfs/dev/null"
        mrun regular
        like "mask-devnull-regular: /dev/null an image's regular file: refused" "$st $out" "^1 .*not the null device"
        rm -f "$O/rootfs/dev/null"; mknod -m 666 "$O/rootfs/dev/null" c 1 5
        mrun zero
        like "mask-devnull-other-device: /dev/null the zero device (1:5): refused" "$st $out" "^1 .*not the null device"
        is "mask-devnull: no container state left by the refusals" "$(ls "$O/root" 2>/dev/null | wc -l)" 0
else
        for i in 1 2 3 4 5 6 7; do skip "mask-devnull: needs root, a static busybox and /proc/timer_list"; done
fi

# --- sbx-runc exec -u UID[:GID]: (uid_t) -1 is "leave unchanged" to
# setresuid, and sscanf's %u read "-1" and 4294967295 as it, so the
# process stayed root; "1000x" was 1000. Digits only, below 4294967295 (as
# process.user.uid in config.json), else exec is refused (255).
if is_root && busybox_static >/dev/null 2>&1; then
        O=$TMP/user
        mkdir -p "$O/b"
        make_rootfs "$O/rootfs" >/dev/null 2>&1
        ROOTFS=$O/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$O/b" "c['process']['args']=['sleep','300']" ||
                echo "# mkconfig user failed"
        (cd "$O/b" && timeout -k 5 30 "$SBX_RUNC" --root "$O/root" run -d "user-$$" </dev/null >/dev/null 2>&1)
        ux() { out=$(timeout -k 5 30 "$SBX_RUNC" --root "$O/root" exec -u "$1" "user-$$" id -u 2>&1); st=$?; }
        ux 1000
        control "exec -u 1000 runs as uid 1000" "$st $out" "0 1000"
        ux 1000:2000
        control "exec -u 1000:2000 runs as uid 1000" "$st $out" "0 1000"
        for u in -1 4294967295 1000:4294967295 1000x; do
                ux "$u"
                like "exec-user-unchanged-id: exec -u $u is refused (255), naming it, nothing run" "$st $out" \
                        "^255 sbx-runc: --user '$u': UID\[:GID\], numbers below 4294967295"
        done
        "$SBX_RUNC" --root "$O/root" delete -f "user-$$" >/dev/null 2>&1
else
        for i in 1 2 3 4 5 6; do skip "exec-user-unchanged-id: needs root and a static busybox"; done
fi

# --- held: the same /dev/null symlink in an image under `sbx run --image`
# (root and rootless): sbx's /dev is its own tmpfs with its own nodes, so
# the image's /dev never reaches the mask: /dev/null is the null device and
# /proc/timer_list reads nothing.
if busybox_static >/dev/null 2>&1; then
        img=sbx-test/r11b-null-$$:v1
        rm -rf "$TMP/nimg"; make_rootfs "$TMP/nimg" >/dev/null 2>&1
        ln -s /proc/timer_list "$TMP/nimg/dev/null"
        python3 "$SBX_SOURCE_ROOT/tests/integration/rootfs-mkarchive.py" tree "$TMP/nimg.tar" "$TMP/nimg" "$img" >/dev/null 2>&1
        control "the image's archive holds dev/null -> /proc/timer_list" \
                "$(tar -xOf "$TMP/nimg.tar" --wildcards '*/layer.tar' | tar -tvf - ./dev/null 2>/dev/null | grep -o -- '-> .*')" \
                "-> /proc/timer_list"
        if timeout 60 "$SBX" rootfs import "$TMP/nimg.tar" >/dev/null 2>&1; then
                out=$(timeout -k 5 60 "$SBX" run --image "$img" -- sh -c \
                        'stat -c "%F %t:%T" /dev/null; echo now=$(grep -sc "^now at" /proc/timer_list)' 2>&1)
                is "image-devnull-symlink: under sbx run --image /dev/null is the null device, the mask holds" \
                        "$(echo $out)" "character special file 1:3 now=0"
                "$SBX" rootfs rm "$img" >/dev/null 2>&1
        else
                not_ok "image-devnull-symlink: the image imports"
        fi
else
        for i in 1 2; do skip "image-devnull-symlink: needs a static busybox"; done
fi

# --- held: linux.sysctl keys that leave their namespace's subtree through
# '/' or '..' ("net.ipv4/../../kernel.X" passed the "net.*" prefix rule as a
# string) are refused by name before anything is made; the host's knob is
# unchanged.
if is_root && busybox_static >/dev/null 2>&1; then
        O=$TMP/sysctl
        mkdir -p "$O"
        make_rootfs "$O/rootfs" >/dev/null 2>&1
        knob=/proc/sys/kernel/printk_ratelimit_burst
        old=$(cat $knob)
        for key in 'net.ipv4/../../kernel/printk_ratelimit_burst' 'net.ipv4..kernel.printk_ratelimit_burst'; do
                rm -rf "$O/b"; mkdir -p "$O/b"
                ROOTFS=$O/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$O/b" \
                        "c['linux']['sysctl']={'$key':'$((old + 1))'}" || echo "# mkconfig sysctl failed"
                out=$(cd "$O/b" && timeout -k 5 30 "$SBX_RUNC" --root "$O/root" run "sy-$$" 2>&1 </dev/null); st=$?
                like "sysctl-dotdot: '$key' is refused naming it" "$st $out" "^1 .*linux\.sysctl\.$(printf '%s' "$key" | sed 's/\./\\./g'): bad sysctl name"
        done
        is "sysctl-dotdot: the host's kernel.printk_ratelimit_burst is unchanged" "$(cat $knob)" "$old"
else
        for i in 1 2 3; do skip "sysctl-dotdot: needs root and a static busybox"; done
fi

# --- held: a layer whose pax extended header claims 6 GiB (the archive is
# 900 KiB): libarchive refuses it as a malformed layer before allocating,
# exit 125, nothing stored.
python3 - "$TMP/pax.tar" <<'PY'
import sys, importlib.util, os
spec = importlib.util.spec_from_file_location('mk', os.environ['SBX_SOURCE_ROOT'] + '/tests/integration/rootfs-mkarchive.py')
mk = importlib.util.module_from_spec(spec); spec.loader.exec_module(mk)
size = 6 << 30
b = bytearray(512)
b[0:12] = b'PaxHeaders/x'
b[100:108] = b'0000644\0'; b[108:116] = b'0000000\0'; b[116:124] = b'0000000\0'
b[124:136] = bytes([0x80]) + size.to_bytes(11, 'big')
b[136:148] = b'00000000000\0'; b[156:157] = b'x'; b[257:263] = b'ustar\0'; b[263:265] = b'00'
b[148:156] = b' ' * 8
b[148:156] = ('%06o\0 ' % sum(b)).encode()
layer = bytes(b) + b'9 a=bcde\n' * 100000 + bytes(1024)
open(sys.argv[1], 'wb').write(mk.docker([layer], tags=('sbx-test/r11b-pax:v1',)))
PY
out=$(timeout 60 "$SBX" rootfs import "$TMP/pax.tar" 2>&1); st=$?
like "import-pax-huge: a 6 GiB pax header is refused (125) as a malformed layer" "$st $(echo $out)" "^125 .*malformed or truncated"
is "import-pax-huge: ... nothing stored" "$("$SBX" rootfs ls 2>/dev/null | grep -c r11b-pax)" 0

# --- --root-layer-dir DIR (a persistent writable root): sbx made DIR/upper
# with mkdir-if-missing, then chown(2)ed it by path and wrote the sandbox's
# /etc files into DIR/upper/etc. In a DIR another user can write, "upper"
# planted as a symlink gave its target (any host directory) to the sandbox
# ids and filled it. Now DIR must be the caller's and not group/world-
# writable (as the state dir), and upper/work are opened without following
# before anything is changed through their fds.
if busybox_static >/dev/null 2>&1; then
        img=sbx-test/r11b-layer-$$:v1
        rm -rf "$TMP/limg"; make_rootfs "$TMP/limg" >/dev/null 2>&1
        python3 "$SBX_SOURCE_ROOT/tests/integration/rootfs-mkarchive.py" tree "$TMP/limg.tar" "$TMP/limg" "$img" >/dev/null 2>&1
        timeout 60 "$SBX" rootfs import "$TMP/limg.tar" >/dev/null 2>&1 || echo "# import $img failed"
        lrun() { out=$(timeout -k 5 60 "$SBX" run --image "$img" --writable-root --root-layer-dir "$1" -- sh -c "$2" 2>&1); st=$?; }
        V=$TMP/victim; mkdir -p "$V"; chmod 755 "$V"; echo host > "$V/f"
        owner() { stat -c %u:%g "$V"; }
        before=$(owner)
        lrun "$TMP/L-ok" 'echo kept > /kept'
        lrun "$TMP/L-ok" 'cat /kept'
        control "a fresh --root-layer-dir keeps the root's writes across runs" "$st $out" "0 kept"
        mkdir -m 755 "$TMP/L-link"; ln -s "$V" "$TMP/L-link/upper"
        lrun "$TMP/L-link" 'true'
        like "root-layer-upper-symlink: DIR/upper a symlink: refused (125), naming it" "$st $out" \
                "^125 .*--writable-root: open '$TMP/L-link/upper' \(a directory, not a symlink\)"
        is "root-layer-upper-symlink: ... its target keeps its owner, nothing written into it" "$(owner) $(ls "$V")" "$before f"
        mkdir -m 777 "$TMP/L-open"
        lrun "$TMP/L-open" 'true'
        like "root-layer-dir-writable: a world-writable DIR is refused (125), naming the rule" "$st $out" \
                "^125 .*--root-layer-dir '$TMP/L-open': must be owned by uid $(id -u) and not group/world-writable"
        is "root-layer-dir-writable: ... nothing made in it" "$(ls -A "$TMP/L-open")" ""
        if is_root; then
                mkdir -m 755 "$TMP/L-other"; chown 65534 "$TMP/L-other"
                setpriv --reuid 65534 --regid 65534 --clear-groups ln -s "$V" "$TMP/L-other/upper"
                lrun "$TMP/L-other" 'true'
                like "root-layer-dir-other-user: a DIR of uid 65534 with upper -> a root dir: refused (125)" "$st $out" \
                        "^125 .*--root-layer-dir '$TMP/L-other': must be owned by uid 0"
                is "root-layer-dir-other-user: ... the root dir is not given to the sandbox ids, nothing written" \
                        "$(owner) $(ls "$V")" "$before f"
        else
                for i in 1 2; do skip "root-layer-dir-other-user: needs root (a dir of another uid)"; done
        fi
        "$SBX" rootfs rm "$img" >/dev/null 2>&1
else
        for i in 1 2 3 4 5 6 7; do skip "root-layer-dir: needs a static busybox"; done
fi

done_testing

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

done_testing

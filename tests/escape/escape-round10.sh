#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 10: kernel objects a sandbox could hold or reach past
# its limits on this (cgroup v1) host: io_uring (every entry point, not only
# io_uring_setup), epoll watches (a per-user budget shared by every sandbox
# of one host uid), and hostile OCI process.rlimits for sbx-runc (raising a
# hard limit, an unknown type, soft above hard: refused, nothing created).
# The cgroup v2 attacks of this round run in the guest: tests/vm/cgroup-escape.sh.
# Each blocked call is asserted with the errno only the restriction gives,
# with a control where the restriction does not apply.
. "$(dirname "$0")/lib.sh"
. "$SBX_SOURCE_ROOT/tests/oci/oci-lib.sh"

# --- io_uring: setup, enter and register by number (425-427 on x86_64,
# the same on every 64-bit ABI). Outside, with fd 0 / a NULL params, the
# kernel's own errors (EFAULT; EOPNOTSUPP: fd 0 is no ring); inside, EPERM
# from the filter for all three, so a ring passed in by a neighbour (fd
# over a unix socket) cannot be driven either.
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ]; then
        for pair in "425 io_uring_setup EFAULT" "426 io_uring_enter EOPNOTSUPP" "427 io_uring_register EOPNOTSUPP"; do
                set -- $pair
                control "outside, $2 with bad arguments fails with $3" "$("$SBX_PROBE" syscall-nr "$1")" "$3"
                is "io-uring-$2: refused with EPERM inside" "$(tsbx -- /sbx-probe syscall-nr "$1")" EPERM
        done
else
        skip "io-uring: kernel.io_uring_disabled is set on this host (no control possible)"
fi

# --- epoll watches: fs.epoll.max_user_watches is one budget per host uid
# (every rootless sandbox of the caller, and all root sandboxes, share it);
# each watch costs ~160 bytes of kernel memory
# (not exhausted here: no probe holds epoll watches yet; reported)
ew=$(cat /proc/sys/fs/epoll/max_user_watches 2>/dev/null || echo 0)
skip "epoll-watches: fs.epoll.max_user_watches=$ew per host uid, ~$((ew / 6000)) MB of kernel memory: not exhausted by a test"

# --- OCI process.rlimits from a hostile config.json (sbx-runc as root):
# a hard limit above the runtime's own, an unknown type, soft above hard.
# Each is refused with the limit named, and no container is left behind.
if is_root && busybox_static >/dev/null 2>&1; then
        O=$TMP/oci
        mkdir -p "$O"
        make_rootfs "$O/rootfs" >/dev/null 2>&1
        rl() { # rl NAME RLIMIT-JSON CMD: run it, $out and $st
                mkdir -p "$O/b-$1"
                ROOTFS=$O/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$O/b-$1" \
                        "c['process']['args']=['/bin/sh','-c','$3']
c['process']['rlimits']=[$2]" || echo "# mkconfig $1 failed"
                out=$(cd "$O/b-$1" && timeout -k 5 30 "$SBX_RUNC" --root "$O/root" run "$1" 2>&1 </dev/null); st=$?
        }
        rl nofile "{'type':'RLIMIT_NOFILE','hard':1073741824,'soft':1073741824}" 'ulimit -n'
        is "oci-rlimits: a hard RLIMIT_NOFILE above the runtime's fails create (exit 1, as runc)" "$st" 1
        like "oci-rlimits: ... naming the limit and EPERM" "$out" 'process\.rlimits nofile=1073741824.*Operation not permitted'
        rl nproc "{'type':'RLIMIT_NPROC','hard':18446744073709551615,'soft':18446744073709551615}" 'ulimit -u'
        is "oci-rlimits: an unlimited RLIMIT_NPROC above the runtime's hard limit fails create (exit 1, as runc)" "$st" 1
        rl bogus "{'type':'RLIMIT_BOGUS','hard':1,'soft':1}" 'true'
        like "oci-rlimits: an unknown type is refused naming its key ($st)" "$st $out" "^1 .*process\.rlimits\[0\]: unknown rlimit type 'RLIMIT_BOGUS'"
        rl inverted "{'type':'RLIMIT_NOFILE','hard':100,'soft':200}" 'ulimit -n'
        like "oci-rlimits: soft above hard fails create (EINVAL)" "$st $out" '^1 .*nofile=200:100.*Invalid argument'
        is "oci-rlimits: no container state left by the refusals" "$(ls "$O/root" 2>/dev/null | wc -l)" 0
        rl lower "{'type':'RLIMIT_NOFILE','hard':100,'soft':50}" 'ulimit -n; ulimit -Hn'
        control "oci-rlimits: a lower limit is applied (50 100)" "$(echo $out)" "50 100"
        # Decided (SECURITY.md "OCI process.rlimits"): the bundle decides, as
        # with runc; a bundle without process.rlimits gets the runtime's own
        # limits, not sbx run's caps. Run under known ones: they are what the
        # container sees (RLIMIT_NPROC 777, RLIMIT_CORE 4096 blocks).
        mkdir -p "$O/b-none"
        ROOTFS=$O/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$O/b-none" \
                "c['process']['args']=['/bin/sh','-c','ulimit -u; ulimit -Hu; ulimit -c']
c['process'].pop('rlimits', None)" || echo "# mkconfig none failed"
        out=$(cd "$O/b-none" && timeout -k 5 30 prlimit --nproc=777:777 --core=2097152:2097152 \
                "$SBX_RUNC" --root "$O/root" run none 2>&1 </dev/null)
        is "oci-rlimits: no process.rlimits: the runtime's own limits (nproc 777, core 4096 KiB), as runc" \
                "$(echo $out)" "777 777 4096"
else
        for i in 1 2 3 4 5 6 7 8; do skip "oci-rlimits: needs root and a static busybox"; done
fi

done_testing

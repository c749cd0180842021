# SPDX-License-Identifier: MIT
# Shared by the oci suite: a busybox-static bundle, the runtime under test.
# SBX_RUNC: <build>/sbx-runc (the argv[0] symlink meson makes).
. "$SBX_SOURCE_ROOT/tests/integration/tap.sh"
SBX_RUNC=${SBX_RUNC:-$SBX_BUILD_ROOT/sbx-runc}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/sbx-oci-test-$(id -u)}
mkdir -p -m 0700 "$XDG_RUNTIME_DIR" 2>/dev/null

need_root() { [ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root"; exit 0; }; }
# an OpenClaw agent's rules in a container need a static busybox rootfs and Landlock
need_agent_rules() {
        busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
        "$SBX_BUILD_ROOT/sbx" run --no-tty --read-only-fs -- /bin/true 2>/dev/null ||
                { echo "1..0 # SKIP Landlock is not available here (the agent's rules need it; sbx doctor says why)"; exit 0; }
}

busybox_static() {
        local b
        for b in /bin/busybox /usr/bin/busybox; do
                [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && { echo "$b"; return 0; }
        done
        return 1
}

# make_rootfs DIR: a busybox-static root with the usual applets
make_rootfs() {
        local d=$1 bb
        bb=$(busybox_static) || return 1
        mkdir -p "$d/bin" "$d/proc" "$d/dev" "$d/sys" "$d/tmp" "$d/etc" "$d/root"
        cp "$bb" "$d/bin/busybox"
        for a in sh true false echo cat ls id sleep ps grep hostname mount touch mkdir \
                 printf head tail wc env stat mknod umask ulimit readlink kill tr awk; do
                ln -sf busybox "$d/bin/$a"
        done
        echo 'root:x:0:0:root:/root:/bin/sh' > "$d/etc/passwd"
        echo 'root:x:0:' > "$d/etc/group"
}

# versus_runc TAG [CLEANUP]: the set-up of a test that runs each bundle under
# sbx-runc and, where installed, runc (oci-escape16, oci-escape17): a scratch
# dir $T, a cgroup parent $CG for this run, a busybox rootfs $T/rootfs, RUNTIMES,
# and at exit CLEANUP (shell text, run first), every container deleted, $CG's
# cgroups and $T removed.
versus_runc() {
        HERE=$SBX_SOURCE_ROOT/tests/oci
        T=$(mktemp -d "/tmp/sbx-oci-$1.XXXXXX")
        chmod 755 "$T"
        CG=sbx-oci-$1-${T##*.}
        on_exit "${2:+$2; }"'for r in sbx runc; do for id in $(ls "$T/root-$r" 2>/dev/null); do rt_$r delete -f "$id" >/dev/null 2>&1; done; done; rmdir /sys/fs/cgroup/*/"$CG" /sys/fs/cgroup/"$CG" 2>/dev/null; rm -rf "$T"'
        make_rootfs "$T/rootfs"
        RUNTIMES=(sbx)
        command -v runc >/dev/null && RUNTIMES+=(runc) || echo "# runc not installed: no runc verdicts"
}
rt_sbx() { timeout -k 5 30 "$SBX_RUNC" --root "$T/root-sbx" "$@"; }
rt_runc() { timeout -k 5 30 runc --root "$T/root-runc" "$@"; }
# bundle NAME 'python statements' -> $T/b-NAME (rootfs $ROOTFS or $T/rootfs,
# cgroup below this run's; python -S: its start is most of such a test's time)
bundle() {
        local b=$T/b-$1
        mkdir -p "$b"
        ROOTFS=${ROOTFS:-$T/rootfs} python3 -S "$HERE/mkconfig.py" "$b" "$2
c['linux']['cgroupsPath']='/$CG/$1'" || echo "# mkconfig failed for $1"
        echo "$b"
}

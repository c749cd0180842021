# SPDX-License-Identifier: MIT
# Shared helpers of the escape suite (sourced): the integration TAP helpers
# plus what the attacks need. Each subtest is one named attack; the outcome
# asserted is the specific errno (or observation) that proves it was blocked,
# and where possible a positive control runs the same probe where the
# restriction does not apply, so that the test can fail.
. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.sh"
is_root() { [ "$(id -u)" = 0 ]; }
# control DESC GOT WANT: a positive control; when it cannot be made (not root)
# the reason is printed as a SKIP, never a pass.
control() {
        local desc=$1 got=$2 want=$3 why=${4:-}
        if [ -n "$why" ]; then skip "control: $desc ($why)"; else is "control: $desc" "$got" "$want"; fi
}
# A per-test secret on the host, outside every bind.
SECRET_DIR=$(mktemp -d "$TMP/secret.XXXXXX")
chmod 755 "$SECRET_DIR"
echo "host-secret-$$" > "$SECRET_DIR/secret"
chmod 644 "$SECRET_DIR/secret"
# pty_word CMD: CMD run by script(1) on a pty of its own (the caller's
# terminal as sbx sees it), the last word it printed (an errno name or OK)
pty_word() { script -qec "$1" /dev/null | tr -dc 'A-Z\n' | tail -1; }
# run with a timeout so that nothing hangs: tsbx [OPTIONS] -- CMD
tsbx() { timeout -k 5 60 "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" "$@"; }
# Mounts under our own dirs: other users of the host mount and unmount too,
# so the whole table is not a stable measure. (sbx's mounts would live under
# the state dir, our binds' sources under $TMP.)
our_mounts() { grep -c -e "$TMP" -e "$XDG_RUNTIME_DIR" -e " /scratch " /proc/self/mountinfo; }
# The sandbox cgroups of this test's own runs. Other jobs on the host make and
# remove sbx-run-* cgroups all the time (each empty for a moment, before its
# child moves in and after it exits), so a host-wide count or glob is not a
# measure. own_cgroups_init (before the runs to count; it exports
# SBX_CGROUP_ROOT and sets cg_problem, cg_sub):
#  - root on cgroup v1 (hybrid hosts, CI): a sub-hierarchy sbx-esc-$$ in each
#    v1 hierarchy sbx uses, removed on exit, where every later run of the test
#    makes its cgroup (as tests/integration/cgroup-limits.sh): own_cgroups
#    lists every cgroup below it;
#  - a caller sbx makes no cgroup for (not root on cgroup v1): cg_problem is
#    `sbx doctor`'s reason; own_cgroups lists nothing;
#  - otherwise (cgroup v2): own_cgroups lists the sbx-run-* cgroups owned by
#    our uid (as root, other root jobs' too).
own_cgroups_init() {
        local j m
        j=$("$SBX" doctor --json | python3 -c 'import json, sys
c = json.load(sys.stdin)["cgroup"]
print(c.get("hierarchy") or "-", c.get("problem") or "")
for h in c.get("v1") or []: print(h["mount"])')
        cg_problem=$(head -1 <<<"$j" | cut -s -d" " -f2-)
        cg_sub= cg_made=
        [ -z "$cg_problem" ] && [ "$(head -1 <<<"$j" | cut -d" " -f1)" = v1 ] && is_root || return 0
        cg_sub=sbx-esc-$$
        for m in $(tail -n +2 <<<"$j"); do
                mkdir "$m/$cg_sub" || continue
                [ -e "$m/cpuset.cpus" ] && cat "$m/cpuset.cpus" >"$m/$cg_sub/cpuset.cpus" && cat "$m/cpuset.mems" >"$m/$cg_sub/cpuset.mems"
                cg_made="$cg_made $m/$cg_sub"
        done
        [ -n "$cg_made" ] || { cg_sub=; return 0; }
        on_exit 'for d in $cg_made; do find "$d" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null; rmdir "$d"; done'
        SBX_CGROUP_ROOT=${cg_made# }
        export SBX_CGROUP_ROOT=${SBX_CGROUP_ROOT%% *}
}
# own_cgroups [FIND TESTS...]: one line per cgroup of ours (see above)
own_cgroups() {
        local d
        if [ -n "$cg_sub" ]; then
                for d in $cg_made; do find "$d" -mindepth 1 -type d "$@"; done
        elif [ -z "$cg_problem" ]; then
                find /sys/fs/cgroup -maxdepth 6 -type d -name 'sbx-run-*' -user "$(id -u)" "$@" 2>/dev/null
        fi
}
# busybox_image NAME:TAG: a static busybox image (sh, sleep, mkfifo, chmod;
# the probe at /sbx-probe) imported into sbx's store, and $D the docker front
# end (a link named docker); false where there is no static busybox.
busybox_image() {
        local bb img=$TMP/img-${1//[:\/]/-}
        bb=$(for b in /bin/busybox /usr/bin/busybox; do [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && echo "$b" && break; done)
        [ -n "$bb" ] && mkdir -p "$img/bin" && cp "$bb" "$img/bin/busybox" && cp "$SBX_PROBE" "$img/sbx-probe" &&
                for l in sh sleep mkfifo chmod; do ln -s busybox "$img/bin/$l" || return 1; done &&
                python3 "$(dirname "${BASH_SOURCE[0]}")/../integration/rootfs-mkarchive.py" tree "$img.tar" "$img" "$1" \
                        >/dev/null 2>&1 &&
                timeout 60 "$SBX" rootfs import "$img.tar" >/dev/null 2>&1 || return 1
        D=$TMP/bin/docker
        mkdir -p "$TMP/bin"
        ln -sf "$(readlink -f "$SBX")" "$D"
}

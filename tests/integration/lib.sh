# SPDX-License-Identifier: MIT
# TAP helpers for the integration tests of `sbx run` (sourced).
# Environment (tests/meson.build): SBX, SBX_PROBE, SBX_SOURCE_ROOT, SBX_BUILD_ROOT.
set -u
: "${SBX:?SBX must point at the built sbx binary}"
: "${SBX_PROBE:?SBX_PROBE must point at the built sbx-probe}"
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

# sbx run with the probe at /sbx-probe: sbxp [OPTIONS] -- /sbx-probe ARGS
sbxp() { "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" "$@"; }

# The state dir sbx uses for this caller (see runtime/launch/statedir.c).
is_tmpfs() { [ "$(stat -f -c %T "$1" 2>/dev/null)" = tmpfs ]; }
state_base() {
        if [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -w "$XDG_RUNTIME_DIR" ]; then echo "$XDG_RUNTIME_DIR/sbx"
        elif [ "$(id -u)" = 0 ] && is_tmpfs /run; then echo /run/sbx
        elif is_tmpfs /dev/shm && [ -w /dev/shm ]; then echo "/dev/shm/sbx-$(id -u)"
        elif [ "$(id -u)" = 0 ]; then echo /run/sbx
        else echo "/tmp/sbx-$(id -u)"; fi
}
# need_landlock: the whole file is skipped (exit 77) where sbx cannot enforce
# its Landlock rules (--read-only-fs) on this kernel.
need_landlock() {
        if ! "$SBX" run --no-tty --read-only-fs -- /bin/true 2>/dev/null; then
                echo "1..0 # SKIP Landlock is not available here (sbx doctor says why)"
                exit 77
        fi
}
# Nothing left in the state dir (no run-* directories).
leftovers() { ls -A "$(state_base)" 2>/dev/null | grep '^run-' || true; }
mount_count() { wc -l < /proc/self/mountinfo; }
# The caller's mount table is the host's: other jobs mount and unmount in it
# too, so a count before and after is not a measure. mounts_snapshot FILE
# keeps each mount's id and mount point; new_mounts FILE [TRIES] prints the
# mounts not in FILE, re-read every 0.2 s up to TRIES times (default 1) until
# there are none: other jobs' mounts gone again, other jobs' unmounts do not
# count, a mount of ours that stays is printed (and so are other jobs' that
# stay that long: then the check fails, never passes by a count that evens out).
mounts_snapshot() { cut -d' ' -f1,5 /proc/self/mountinfo | sort > "$1"; }
new_mounts() {
        local i out
        for i in $(seq "${2:-1}"); do
                out=$(cut -d' ' -f1,5 /proc/self/mountinfo | sort | comm -13 "$1" -)
                [ -z "$out" ] && return 0
                [ "$i" = "${2:-1}" ] || sleep 0.2
        done
        printf '%s\n' "$out"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sbx-test.XXXXXX")
chmod 755 "$TMP"
# A private runtime dir, so that "nothing left behind" only sees our runs and
# not those of other sbx users on the machine (root's default is shared).
# Inside $TMP: one dir to remove, also the one a killed test leaves.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
        mkdir -m 700 "$TMP/xdg"
        export XDG_RUNTIME_DIR=$TMP/xdg
fi
_on_exit_always='rm -rf "$TMP"'
on_exit :

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
# Mounts of this test's own: every sandbox's tree (its root, workspace
# layers, template holders) lives below the state dir or this test's $TMP, so a
# mount that leaked out of a sandbox names one of them in its mountinfo line.
# Counting every line of the caller's namespace failed whenever anything else
# on the host mounted or unmounted meanwhile (another test, a build, podman).
mount_count() { grep -cF -e "$TMP" -e "$(state_base)" /proc/self/mountinfo || true; }

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

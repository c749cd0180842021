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

#!/bin/bash
# Run a TAP script as an unprivileged uid (nobody) when we are root; as a
# non-root caller run it directly. Exit 77 (skip) if that uid cannot reach the build.
script=$1; shift
if [ "$(id -u)" != 0 ]; then exec bash "$script" "$@"; fi
command -v setpriv >/dev/null || { echo "1..0 # SKIP setpriv (util-linux) not installed"; exit 0; }
if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$SBX"; then
        echo "1..0 # SKIP uid 65534 cannot execute $SBX (build directory not world-readable)"
        exit 0
fi
cd /tmp || exit 1
exec setpriv --reuid=65534 --regid=65534 --clear-groups \
        env -u SBX_IMAGE_DIR HOME=/tmp/sbx-unpriv-home.$$ bash "$script" "$@"

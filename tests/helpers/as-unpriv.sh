#!/bin/bash
# SPDX-License-Identifier: MIT
# Re-run a test script as an unprivileged uid (suite integration-unpriv).
# As root: create (once) the dedicated user sbx-ci, give it a private HOME and
# XDG_RUNTIME_DIR for this run, and exec the script through setpriv with that
# uid, its gid and groups. Not root: the plain integration lane already ran
# unprivileged, so this lane has nothing to add: exit 77 (skip).
#
# as-unpriv.sh [--subids] SCRIPT ARGS...: --subids also gives sbx-ci a
# subordinate id range (65536 uids and gids in /etc/subuid, /etc/subgid) if
# it has none, as for any user of rootless podman; like the user itself it
# stays (idempotent, and another run may be using it). The range starts
# after every range those files hold (at least 100000), so it overlaps none.
set -eu
subids=
if [ "${1:-}" = --subids ]; then
        subids=1
        shift
fi
script=$1
shift
if [ "$(id -u)" != 0 ]; then
        echo "1..0 # SKIP not root: the plain test of this lane already ran as the unprivileged uid $(id -u)"
        exit 77
fi
user=sbx-ci
# Tests run two at a time (the escape lane): one useradd/usermod at a time.
exec 8>/run/lock/sbx-ci-user.lock
flock 8
if ! id "$user" >/dev/null 2>&1; then
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user" ||
                { echo "1..0 # SKIP cannot create the user $user"; exit 77; }
fi
uid=$(id -u "$user")
if [ -n "$subids" ]; then
        start=$(cat /etc/subuid /etc/subgid 2>/dev/null |
                awk -F: 'BEGIN { m = 100000 } NF == 3 && $2 + $3 > m { m = $2 + $3 } END { print m }')
        range=$start-$((start + 65535))
        add=()
        grep -q "^$user:" /etc/subuid 2>/dev/null || add+=(--add-subuids "$range")
        grep -q "^$user:" /etc/subgid 2>/dev/null || add+=(--add-subgids "$range")
        if [ ${#add[@]} -gt 0 ] && ! usermod "${add[@]}" "$user"; then
                echo "1..0 # SKIP cannot give $user a subordinate id range (usermod ${add[*]})"
                exit 77
        fi
fi
exec 8>&-
home=$(mktemp -d /tmp/sbx-ci-home.XXXXXX)
trap 'rm -rf "$home"' EXIT
mkdir -m 700 "$home/run"
chown -R "$user:" "$home"
chmod 755 "$home"
# Everything the test reads must be reachable by that uid.
for f in "$script" "$SBX" ${SBX_PROBE:+"$SBX_PROBE"}; do
        if ! setpriv --reuid "$uid" --regid "$(id -g "$user")" --init-groups test -r "$f"; then
                echo "1..0 # SKIP $f is not readable by $user (check the permissions of its directories)"
                exit 77
        fi
done
# A clean environment: only the SBX_* variables meson set (paths of the
# built programs) cross over.
mapfile -t sbx_vars < <(env | grep '^SBX[A-Z_]*=' || true)
setpriv --reuid "$uid" --regid "$(id -g "$user")" --init-groups \
        env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$home/run" \
        TMPDIR="$home" LANG=C.UTF-8 "${sbx_vars[@]}" \
        bash "$script" "$@"

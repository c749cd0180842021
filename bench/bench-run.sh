#!/bin/bash
# SPDX-License-Identifier: MIT
# Cold start of a fully isolated /bin/true: sbx run vs unshare vs bwrap (and,
# as root where installed, crun and runc on an OCI bundle with the same view),
# paired and interleaved (one of each per round, order rotated), N rounds:
# each tool's median and the median of its per-round ratios to unshare. As
# root it also runs the comparison rootless (sbx, unshare, bwrap), as the
# unprivileged user sbx-ci (created by the integration tests' as-unpriv.sh,
# or here) through setpriv. --before OLD adds another sbx binary (say, main
# before a change) to every round, so that before/after are paired too.
#
#   bench/bench-run.sh [-n N] [--mode root|rootless|both] [--before OLD] [SBX]
set -u
N=200
MODE=both
OLD=
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        --mode) MODE=$2; shift 2 ;;
        --before) OLD=$(realpath "$2"); shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) SBX=$1; shift ;;
        esac
done
. "$(dirname "$0")/lib.sh"
bench_sbx "${SBX:-}"

# bwrap with the same view sbx gives: host /usr etc. read-only, merged-usr symlinks.
bwrap_args=(--unshare-all --die-with-parent --new-session)
for d in usr bin sbin lib lib64 lib32 libx32; do
        if [ -L /$d ]; then bwrap_args+=(--symlink "$(readlink /$d)" /$d)
        elif [ -d /$d ]; then bwrap_args+=(--ro-bind /$d /$d); fi
done
bwrap_args+=(--proc /proc --dev /dev --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run)

# crun and runc (root only, where installed): an OCI bundle with the same
# view (host /usr read-only, merged-/usr symlinks, /proc, /dev, tmpfs), the
# runtime's default namespaces (pid, net, ipc, uts, mount) plus cgroup.
tools=(sbx unshare)
[ -z "$OLD" ] || tools+=(before)
# a peer that is not installed is left out, never timed as a failing command
if command -v bwrap >/dev/null; then tools+=(bwrap)
else echo "# bwrap: not installed (apt-get install bubblewrap), left out" >&2; fi
bundle=
if [ "$(id -u)" = 0 ] && [ -z "${BENCH_INNER:-}" -o "${BENCH_LABEL:-}" = root ]; then
        for rt in crun runc; do
                command -v $rt >/dev/null || continue
                if [ -z "$bundle" ]; then
                        bundle=$(mktemp -d /dev/shm/sbx-bench-oci.XXXXXX)
                        mkdir -p "$bundle/rootfs/usr" "$bundle/rootfs/proc" "$bundle/rootfs/dev" \
                                "$bundle/rootfs/tmp" "$bundle/rootfs/etc"
                        for d in bin sbin lib lib64 lib32 libx32; do
                                [ -L /$d ] && ln -s "$(readlink /$d)" "$bundle/rootfs/$d"
                        done
                        python3 - "$bundle/config.json" <<'PY'
import json, sys
c = {"ociVersion": "1.0.2", "root": {"path": "rootfs", "readonly": True},
     "process": {"terminal": False, "user": {"uid": 0, "gid": 0}, "args": ["/bin/true"], "cwd": "/",
                 "env": ["PATH=/usr/bin:/bin"], "noNewPrivileges": True,
                 "capabilities": {k: [] for k in ("bounding", "effective", "permitted", "inheritable", "ambient")}},
     "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"},
                {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755"]},
                {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev"]},
                {"destination": "/usr", "type": "bind", "source": "/usr", "options": ["rbind", "ro"]}],
     "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount", "cgroup")],
               "maskedPaths": ["/proc/kcore", "/proc/keys"], "readonlyPaths": ["/proc/sys"]}}
json.dump(c, open(sys.argv[1], "w"))
PY
                        trap 'rm -rf "$bundle"' EXIT
                fi
                # the cgroup-v1 notice crun prints on this hybrid host is the only stderr
                if $rt run --bundle "$bundle" "bench-$$-probe" >/dev/null 2>&1; then tools+=($rt)
                else echo "# $rt: cannot run the bundle here, left out" >&2; fi
        done
fi

run_round() {   # prints one time per tool (microseconds, in tools' order) for one round
        local i=$1 t0 t1 name k=${#tools[@]}
        local -A us
        local order=("${tools[@]}")
        # rotate the order each round so no tool always runs first
        order=("${order[@]:$((i % k))}" "${order[@]:0:$((i % k))}")
        for name in "${order[@]}"; do
                t0=$EPOCHREALTIME
                case $name in
                sbx) XDG_RUNTIME_DIR=$state_sbx "$SBX" run -- /bin/true ;;
                before) XDG_RUNTIME_DIR=$state_old "$OLD" run -- /bin/true ;;
                unshare) unshare -Urmpnif --mount-proc /bin/true ;;
                bwrap) bwrap "${bwrap_args[@]}" /bin/true ;;
                crun|runc) $name run --bundle "$bundle" "bench-$$-$i" >/dev/null 2>&1 ;;
                esac >/dev/null         # a file as stdout would cost sbx its relay (stdio-guard.c)
                t1=$EPOCHREALTIME
                us[$name]=$(( (${t1/./} - ${t0/./}) ))
        done
        for name in "${tools[@]}"; do printf '%s ' "${us[$name]}"; done
        echo
}

bench() {       # bench LABEL: N interleaved rounds in the current identity
        local f c=1
        # each sbx binary its own state root on a tmpfs (as sbx's defaults,
        # /run/sbx and /dev/shm/sbx-UID, are): nothing shared with other
        # users of the machine, and two binaries' template holders do not
        # stop each other's (a holder of another binary is collected when
        # one is built: SECURITY.md 5a) every round
        state_sbx=$(mktemp -d /dev/shm/sbx-bench-state.XXXXXX)
        state_old=$(mktemp -d /dev/shm/sbx-bench-state.XXXXXX)
        f=$(mktemp)
        for _ in 1 2 3 4 5; do run_round 0 >/dev/null; done       # warm the page cache
        for i in $(seq "$N"); do run_round "$i" >> "$f"; done
        printf '%-9s N=%-4d load %s\n' "$1" "$N" "$(cut -d' ' -f1-3 /proc/loadavg)"
        for name in "${tools[@]}"; do
                # unshare is column 2: the median of per-round ratios, and the ratio of medians
                printf '  %-8s %7.2f ms  paired %5.2fx  (medians %5.2fx)\n' "$name" \
                        "$(awk -v c=$c '{ print $c / 1000 }' "$f" | median)" \
                        "$(awk -v c=$c '{ print $c / $2 }' "$f" | median)" \
                        "$(awk -v c=$c '{ print $c }' "$f" | median | awk -v u="$(awk '{ print $2 }' "$f" | median)" '{ print $1 / u }')"
                c=$((c + 1))
        done
        rm -f "$f"
        XDG_RUNTIME_DIR=$state_sbx "$SBX" rm -f --all >/dev/null 2>&1
        [ -z "$OLD" ] || XDG_RUNTIME_DIR=$state_old "$OLD" rm -f --all >/dev/null 2>&1
        rm -rf "$state_sbx" "$state_old"
}

if [ "${1:-}" = --inner ]; then shift; fi
if [ "${BENCH_INNER:-}" = 1 ]; then bench "$BENCH_LABEL"; exit 0; fi

echo "# $(uname -r), $(nproc) cpus, $(date -u +%FT%TZ)"
[ -n "$bundle" ] || [ "$(id -u)" != 0 ] || echo "# crun/runc: not installed, left out"
if [ "$(id -u)" = 0 ]; then
        [ "$MODE" = rootless ] || BENCH_INNER=1 BENCH_LABEL=root bench root
        if [ "$MODE" != root ]; then
                id sbx-ci >/dev/null 2>&1 ||
                        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin sbx-ci
                # No XDG_RUNTIME_DIR: sbx then uses its tmpfs default, as it would
                # with a real login session's /run/user/UID.
                home=$(mktemp -d /tmp/sbx-bench.XXXXXX)
                chown sbx-ci: "$home"
                setpriv --reuid sbx-ci --regid "$(id -g sbx-ci)" --init-groups \
                        env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" \
                        BENCH_INNER=1 BENCH_LABEL=rootless bash "$0" -n "$N" ${OLD:+--before "$OLD"} "$SBX"
                rm -rf "$home"
        fi
else
        BENCH_INNER=1 BENCH_LABEL=rootless bench rootless
fi

#!/bin/bash
# SPDX-License-Identifier: MIT
# Cold start of a fully isolated /bin/true: sbx run vs unshare vs bwrap,
# paired and interleaved (one of each per round, order rotated), N rounds,
# medians and ratios to unshare. As root it also runs the same comparison
# rootless, as the unprivileged user sbx-ci (created by the integration tests'
# as-unpriv.sh, or here) through setpriv.
#
#   bench/bench-run.sh [-n N] [--mode root|rootless|both] [SBX]
set -u
N=200
MODE=both
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        --mode) MODE=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) SBX=$1; shift ;;
        esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
SBX=${SBX:-$top/build/sbx}
[ -x "$SBX" ] || { echo "bench: $SBX is not built (ninja -C build)" >&2; exit 1; }
SBX=$(realpath "$SBX")

# bwrap with the same view sbx gives: host /usr etc. read-only, merged-usr symlinks.
bwrap_args=(--unshare-all --die-with-parent --new-session)
for d in usr bin sbin lib lib64 lib32 libx32; do
        if [ -L /$d ]; then bwrap_args+=(--symlink "$(readlink /$d)" /$d)
        elif [ -d /$d ]; then bwrap_args+=(--ro-bind /$d /$d); fi
done
bwrap_args+=(--proc /proc --dev /dev --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run)

run_round() {   # prints "sbx unshare bwrap" in microseconds for one round
        local i=$1 t0 t1 name
        local -A us
        local order=(sbx unshare bwrap)
        # rotate the order each round so no tool always runs first
        order=("${order[@]:$((i % 3))}" "${order[@]:0:$((i % 3))}")
        for name in "${order[@]}"; do
                t0=$EPOCHREALTIME
                case $name in
                sbx) "$SBX" run -- /bin/true ;;
                unshare) unshare -Urmpnif --mount-proc /bin/true ;;
                bwrap) bwrap "${bwrap_args[@]}" /bin/true ;;
                esac
                t1=$EPOCHREALTIME
                us[$name]=$(( (${t1/./} - ${t0/./}) ))
        done
        echo "${us[sbx]} ${us[unshare]} ${us[bwrap]}"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

bench() {       # bench LABEL: N interleaved rounds in the current identity
        local f
        f=$(mktemp)
        for _ in 1 2 3 4 5; do run_round 0 >/dev/null; done       # warm the page cache
        for i in $(seq "$N"); do run_round "$i" >> "$f"; done
        local s u b
        s=$(awk '{ print $1 }' "$f" | median)
        u=$(awk '{ print $2 }' "$f" | median)
        b=$(awk '{ print $3 }' "$f" | median)
        rm -f "$f"
        awk -v l="$1" -v n="$N" -v s="$s" -v u="$u" -v b="$b" 'BEGIN {
                printf "%-9s N=%-4d  sbx %7.2f ms (%.2fx)   unshare %7.2f ms (1.00x)   bwrap %7.2f ms (%.2fx)\n",
                       l, n, s / 1000, s / u, u / 1000, b / 1000, b / u }'
}

if [ "${1:-}" = --inner ]; then shift; fi
if [ "${BENCH_INNER:-}" = 1 ]; then bench "$BENCH_LABEL"; exit 0; fi

echo "# $(uname -r), $(nproc) cpus, $(date -u +%FT%TZ)"
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
                        BENCH_INNER=1 BENCH_LABEL=rootless bash "$0" -n "$N" "$SBX"
                rm -rf "$home"
        fi
else
        BENCH_INNER=1 BENCH_LABEL=rootless bench rootless
fi

#!/bin/bash
# SPDX-License-Identifier: MIT
# Where an idle persistent sandbox's kernel memory goes (issue 16 target 5):
# for each SBX given, in a fresh state dir and workspace root on /dev/shm,
# create N sandboxes (P callers at once) inside a cgroup-v1 memory group made
# for the run, then print per sandbox:
#   - memcg: the growth of the group's memory.usage_in_bytes (what the
#     kernel charged: kmem and the shmem of files; the sandboxes stay in the
#     caller's memory cgroup when no memory limit asks for one of their own);
#   - Slab, PageTables, KernelStack, Percpu, Shmem of /proc/meminfo and their
#     sum without Shmem ("kobj", every kernel object, charged or not;
#     system-wide: other jobs move it, so N of a few hundred or more);
#   - the slab caches that grew most (/proc/slabinfo: objects x object size,
#     per sandbox), the top T of them.
# Then rm -f --all and a check that nothing is left. -u USER: the creates and
# the rm run as USER (rootless sandboxes; setpriv, still inside the group).
#
#   bench/bench-memslab.sh [-n N] [-p P] [-t T] [-u USER] SBX...        (root)
set -u
N=300
P=4
T=25
AS=()
BINS=()
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        -p) P=$2; shift 2 ;;
        -t) T=$2; shift 2 ;;
        -u) AS=(setpriv --reuid "$2" --regid "$(id -g "$2")" --clear-groups); shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) BINS+=("$1"); shift ;;
        esac
done
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }
[ ${#BINS[@]} -gt 0 ] || { bench_sbx ""; BINS=("$SBX"); }

bench_memcg sbx-bench-memslab
STATE=
SBXNOW=
cleanup() {
        [ -n "$STATE" ] && "${AS[@]}" "$SBXNOW" rm --state-dir "$STATE" -f --all >/dev/null 2>&1; [ -n "$STATE" ] && rm -rf "$STATE" "$STATE.ws"
        rm -f /tmp/sbx-memslab.$$.*
        bench_restore
}
trap cleanup EXIT
trap 'exit 1' INT TERM

slab() { awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo | sort > "$1"; }
mi() { awk '$1 ~ /^(Slab|PageTables|KernelStack|Percpu|Shmem):$/ { printf "%s ", $2 }' /proc/meminfo; }

echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), N=$N, $P creating at once"
for b in "${BINS[@]}"; do
        SBXNOW=$b
        STATE=$(mktemp -d /dev/shm/sbx-bench-memslab.XXXXXX)
        chmod 711 "$STATE"; mkdir "$STATE.ws"
        [ ${#AS[@]} -gt 0 ] && chown "${AS[2]}:${AS[4]}" "$STATE" "$STATE.ws"
        # one sandbox first: the state root's template holders are built once, not per sandbox
        SBX_WORKSPACE_ROOT=$STATE.ws "${AS[@]}" "$b" create --state-dir "$STATE" warm >/dev/null || exit 1
        sync; sleep 1
        u0=$(usage); m0=$(mi); slab /tmp/sbx-memslab.$$.0
        seq "$N" | SBX_WORKSPACE_ROOT=$STATE.ws xargs -P "$P" -I{} "${AS[@]}" "$b" create --state-dir "$STATE" "idle{}" >/dev/null ||
                { echo "bench: a create failed" >&2; exit 1; }
        sleep 1
        u1=$(usage); m1=$(mi); slab /tmp/sbx-memslab.$$.1
        echo "## $b${AS[2]:+ as uid ${AS[2]}}"
        awk -v n="$N" -v du=$((u1 - u0)) -v a="$m0" -v b="$m1" 'BEGIN {
                split(a, x, " "); split(b, y, " ");
                # /proc/meminfo order: Shmem, Slab, KernelStack, PageTables, Percpu
                printf "per sandbox KiB: memcg %.1f  kobj %.1f (Slab %.1f PageTables %.1f KernelStack %.1f Percpu %.1f)  Shmem %.1f\n",
                       du / n, (y[2] + y[3] + y[4] + y[5] - x[2] - x[3] - x[4] - x[5]) / n, (y[2] - x[2]) / n, (y[4] - x[4]) / n,
                       (y[3] - x[3]) / n, (y[5] - x[5]) / n, (y[1] - x[1]) / n }'
        join /tmp/sbx-memslab.$$.0 /tmp/sbx-memslab.$$.1 |
                awk -v n="$N" '{ d = ($3 - $2) / n; if (d > 0) printf "%-28s %8.2f KiB\n", $1, d / 1024 }' |
                sort -k2 -gr | head -"$T"
        "${AS[@]}" "$b" rm --state-dir "$STATE" -f --all >/dev/null || echo "bench: rm -f --all failed" >&2
        left=$( { "${AS[@]}" "$b" ls --state-dir "$STATE" -q; find "$STATE/sandboxes" -mindepth 1 -maxdepth 1 ! -name .lock ! -name .by-id;
                  find "$STATE/sandboxes/.by-id" -mindepth 1; grep " $STATE" /proc/self/mountinfo; } 2>/dev/null | wc -l)
        echo "left after rm -f --all: $left entries"
        rm -rf "$STATE" "$STATE.ws"; STATE=
done

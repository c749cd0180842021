#!/bin/bash
# SPDX-License-Identifier: MIT
# Many idle persistent sandboxes (issue 16): for each N (default 1 100 1000),
# in a fresh state dir on /dev/shm:
#   - create N sandboxes one after the other: total time and rate per second;
#   - memory per sandbox, kernel objects included: the growth of
#     memory.usage_in_bytes of a cgroup-v1 memory group this bench makes
#     around itself (slab, page tables, tmpfs pages, the inits; kmem is
#     charged there), and MemAvailable's drop beside it (noisy on a shared
#     machine);
#   - `sbx ls --json` of all N (median of 5);
#   - `sbx exec LAST -- /bin/true` against an exec into a sandbox that is
#     alone in its own state dir, paired and alternated, median of the
#     per-pair ratios (K pairs);
#   - `sbx rm -f --all`, then that nothing is left: no sbx-init of ours, no
#     entry in the state dir, no mount under it, memory back near where it was.
#
#   bench/bench-scale.sh [-k K] [SBX] [N ...]       (root)
set -u
K=20
SIZES=()
while [ $# -gt 0 ]; do
        case $1 in
        -k) K=$2; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        [0-9]*) SIZES+=("$1"); shift ;;
        *) SBX=$1; shift ;;
        esac
done
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1 100 1000)
. "$(dirname "$0")/lib.sh"
bench_sbx "${SBX:-}"
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }

us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
avail() { awk '/MemAvailable/ {print $2}' /proc/meminfo; }

# Our own memory group, under the one we were started in (never above it).
CG=
mine=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
if [ -n "$mine" ] && [ -d "/sys/fs/cgroup/memory$mine" ]; then
        CG=/sys/fs/cgroup/memory${mine%/}/sbx-bench-scale-$$
        mkdir "$CG" 2>/dev/null && echo $$ > "$CG/cgroup.procs" || CG=
fi
usage() { if [ -n "$CG" ]; then echo $(($(cat "$CG/memory.usage_in_bytes") / 1024)); else echo 0; fi; }

ALONE=$(mktemp -d /dev/shm/sbx-bench-alone.XXXXXX)
chmod 711 "$ALONE"
STATE=
cleanup() {
        [ -n "$STATE" ] && "$SBX" rm --state-dir "$STATE" -f --all >/dev/null 2>&1 && rm -rf "$STATE"
        "$SBX" rm --state-dir "$ALONE" -f --all >/dev/null 2>&1; rm -rf "$ALONE"
        if [ -n "$CG" ]; then
                echo $$ > "${CG%/*}/cgroup.procs"
                rmdir "$CG" 2>/dev/null
        fi
}
trap cleanup EXIT
"$SBX" create --state-dir "$ALONE" alone >/dev/null || exit 1

echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)," \
     "memory group: ${CG:-none (MemAvailable only)}"
printf '%7s %9s %8s %12s %12s %10s %10s %10s %11s %9s %s\n' N "create s" "per s" "KiB/sbx cg" "KiB/sbx avail" \
        "ls ms" "exec ms" "alone ms" "last/alone" "rm s" left
for n in "${SIZES[@]}"; do
        STATE=$(mktemp -d /dev/shm/sbx-bench-scale.XXXXXX)
        chmod 711 "$STATE"
        sync; u0=$(usage); a0=$(avail)
        t0=$(us)
        for i in $(seq "$n"); do
                "$SBX" create --state-dir "$STATE" "idle$i" >/dev/null ||
                        { echo "bench: create idle$i failed" >&2; exit 1; }
        done
        t1=$(us)
        u1=$(usage); a1=$(avail)
        : > "$STATE.ls"
        for _ in 1 2 3 4 5; do
                l0=$(us); "$SBX" ls --state-dir "$STATE" --json >/dev/null; echo $(($(us) - l0)) >> "$STATE.ls"
        done
        : > "$STATE.ex"
        for j in $(seq "$K"); do
                for w in $(( j % 2 )) $(( (j + 1) % 2 )); do
                        e0=$(us)
                        if [ "$w" = 0 ]; then "$SBX" exec --state-dir "$STATE" "idle$n" -- /bin/true
                        else "$SBX" exec --state-dir "$ALONE" alone -- /bin/true; fi
                        e[$w]=$(($(us) - e0))
                done
                echo "${e[0]} ${e[1]}" >> "$STATE.ex"
        done
        r0=$(us)
        "$SBX" rm --state-dir "$STATE" -f --all >/dev/null || echo "bench: rm -f --all failed" >&2
        r1=$(us)
        sleep 1; u2=$(usage)
        # what is left: sandboxes listed, anything under the (empty) sandboxes/ dir,
        # mounts under the state dir, processes whose cgroup or cwd names it
        left=$( { "$SBX" ls --state-dir "$STATE" -q; find "$STATE/sandboxes" -mindepth 1 -maxdepth 1 ! -name .lock ! -name .by-id; find "$STATE/sandboxes/.by-id" -mindepth 1;
                  grep " $STATE" /proc/self/mountinfo; } 2>/dev/null | wc -l)
        [ -n "$CG" ] && left="$left entries; memory +$((u2 - u0)) KiB after rm" || left="$left entries"
        awk -v n="$n" -v ct=$((t1 - t0)) -v du=$((u1 - u0)) -v da=$((a0 - a1)) \
            -v ls="$(median < "$STATE.ls")" -v ex="$(awk '{print $1}' "$STATE.ex" | median)" \
            -v al="$(awk '{print $2}' "$STATE.ex" | median)" -v ra="$(awk '{print $1/$2}' "$STATE.ex" | median)" \
            -v rm=$((r1 - r0)) -v left="$left" -v cg="$CG" 'BEGIN {
                printf "%7d %9.2f %8.1f %12s %12.0f %10.1f %10.2f %10.2f %10.2fx %9.2f %s\n", n, ct / 1e6,
                       n / (ct / 1e6), cg == "" ? "-" : sprintf("%.0f", du / n), da / n, ls / 1000, ex / 1000,
                       al / 1000, ra, rm / 1e6, left }'
        rm -rf "$STATE" "$STATE.ls" "$STATE.ex"
        STATE=
done

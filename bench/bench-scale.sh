#!/bin/bash
# SPDX-License-Identifier: MIT
# Many idle persistent sandboxes (issue 16): for each N (default 1 100 1000),
# in a fresh state dir (and workspace root) on /dev/shm:
#   - create N sandboxes, P callers at once (-p P, default 1: one after the
#     other): total time and rate per second, and the rate of the last tenth
#     of them alone (the rate at N: the average hides how it falls with N);
#     beside it the host's CPU time per create over those last ones
#     (/proc/stat: everything that ran, other helpers included) and the
#     share of it that was pid 1's (on this VM the session machinery, whose
#     CPU grows with the number of tasks on the host; not part of sbx);
#   - memory per sandbox, kernel objects included: the growth of
#     memory.usage_in_bytes of a cgroup-v1 memory group this bench makes
#     around itself (what the creates charge there: namespaces, task structs,
#     cgroup structs, record files) plus the usage of every sandbox's own
#     memory cgroup (what init and its mounts charge after it moved there:
#     mount and tmpfs objects, page tables, init's pages); beside it the
#     drop of MemAvailable and the growth of Slab+PageTables+KernelStack
#     (system-wide: noisy on a shared machine);
#   - `sbx ls --json` of all N (median of 5; beside it the first of them,
#     which finds no listing cache yet and writes it; and the CPU time of a
#     sixth, `perf stat -e task-clock`);
#   - `sbx exec LAST -- /bin/true` against an exec into a sandbox that is
#     alone in its own state dir, paired and alternated, median of the
#     per-pair ratios (K pairs);
#   - `sbx rm -f --all` (wall; CPU of it and its removers, `perf stat`; the
#     host's CPU meanwhile minus pid 1's), then that nothing is left: no sandbox listed, no
#     entry in the state dir, no mount under it, no sandbox cgroup, memory
#     back near where it was.
# Host limits the run needs (namespaces per user, pids, threads) are raised
# for the run only when they are lower than 2N + 1000, and restored at exit.
#
#   bench/bench-scale.sh [-k K] [-p P] [SBX] [N ...]       (root)
set -u
K=20
P=1
SIZES=()
while [ $# -gt 0 ]; do
        case $1 in
        -k) K=$2; shift 2 ;;
        -p) P=$2; shift 2 ;;
        -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
        [0-9]*) SIZES+=("$1"); shift ;;
        *) SBX=$1; shift ;;
        esac
done
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1 100 1000)
. "$(dirname "$0")/lib.sh"
bench_sbx "${SBX:-}"
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }

us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
# CPU time of the whole host, in USER_HZ ticks (10 ms), from /proc/stat
host_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $6 + $7 + $8; exit }' /proc/stat; }
pid1_ticks() { sed 's/.*) //' /proc/1/stat | awk '{ print $12 + $13 }'; }
kobj() { awk '$1 ~ /^(Slab|PageTables|KernelStack):$/ {s += $2} END {print s}' /proc/meminfo; }

# Our own memory group, under the one we were started in (never above it).
bench_memcg sbx-bench-scale
# KiB charged to the memory cgroups of the sandboxes in state dir $1 (sbx
# names a sandbox's cgroup sbx-<its run dir>, below sbx.slice or $SBX_CGROUP_ROOT)
sandbox_usage() {
        local base=/sys/fs/cgroup/memory/sbx.slice
        find "$1/sandboxes" -mindepth 2 -maxdepth 2 -name 'run-*' -printf "$base/sbx-%f/memory.usage_in_bytes\n" |
                xargs -r cat 2>/dev/null | awk '{ s += $1 } END { print int(s / 1024) }'
}

# Host limits: raised (never lowered) for the run, restored at exit (raise, lib.sh).
max=0
for n in "${SIZES[@]}"; do [ "$n" -gt "$max" ] && max=$n; done
need=$((2 * max + 1000))
for ns in user pid net mnt ipc uts cgroup; do raise /proc/sys/user/max_${ns}_namespaces $need; done
raise /proc/sys/kernel/pid_max $need
raise /proc/sys/kernel/threads-max $need

ALONE=$(mktemp -d /dev/shm/sbx-bench-alone.XXXXXX)
chmod 711 "$ALONE"
STATE=
cleanup() {
        [ -n "$STATE" ] && "$SBX" rm --state-dir "$STATE" -f --all >/dev/null 2>&1 && rm -rf "$STATE" "$STATE.ws"
        "$SBX" rm --state-dir "$ALONE" -f --all >/dev/null 2>&1; rm -rf "$ALONE" "$ALONE.ws"
        bench_restore
}
trap cleanup EXIT
trap 'exit 1' INT TERM
SBX_WORKSPACE_ROOT=$ALONE.ws "$SBX" create --state-dir "$ALONE" alone >/dev/null || exit 1

echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), $P creating at once," \
     "memory group: ${CG:-none (MemAvailable only)}"
printf '%7s %9s %8s %8s %8s %6s %11s %10s %10s %10s %10s %10s %10s %10s %11s %9s %9s %9s %s\n' N "create s" "per s" "last/s" "cpu ms" "pid 1" "KiB cgroups" \
        "KiB avail" "KiB kobj" "ls 1st ms" "ls ms" "ls cpu ms" "exec ms" "alone ms" "last/alone" "rm s" "rm cpu s" "rm host s" left
for n in "${SIZES[@]}"; do
        STATE=$(mktemp -d /dev/shm/sbx-bench-scale.XXXXXX)
        chmod 711 "$STATE"
        mkdir "$STATE.ws"
        sync
        u0=$(usage); a0=$(meminfo MemAvailable); k0=$(kobj)
        t0=$(us)
        # all but the last tenth, then the last tenth alone, timed, with the
        # host's CPU time (/proc/stat) and pid 1's (/proc/1/stat) meanwhile
        first=$((n - (n + 9) / 10))
        { [ "$first" -eq 0 ] || seq "$first" | SBX_WORKSPACE_ROOT=$STATE.ws xargs -P "$P" -I{} "$SBX" create --state-dir "$STATE" "idle{}" >/dev/null; } ||
                { echo "bench: a create failed" >&2; exit 1; }
        tl=$(us); h0c=$(host_ticks); p0c=$(pid1_ticks)
        seq $((first + 1)) "$n" | SBX_WORKSPACE_ROOT=$STATE.ws xargs -P "$P" -I{} "$SBX" create --state-dir "$STATE" "idle{}" >/dev/null ||
                { echo "bench: a create failed" >&2; exit 1; }
        t1=$(us); h1c=$(host_ticks); p1c=$(pid1_ticks)
        u1=$(($(usage) + $(sandbox_usage "$STATE"))); a1=$(meminfo MemAvailable); k1=$(kobj)
        : > "$STATE.ls"
        for _ in 1 2 3 4 5; do
                l0=$(us); "$SBX" ls --state-dir "$STATE" --json >/dev/null; echo $(($(us) - l0)) >> "$STATE.ls"
        done
        lscpu=$(perf stat -x, -e task-clock -o /dev/fd/3 "$SBX" ls --state-dir "$STATE" --json 3>&1 >/dev/null 2>/dev/null |
                awk -F, '$3 ~ /task-clock/ { print $1; exit }')
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
        runs=$(find "$STATE/sandboxes" -mindepth 2 -maxdepth 2 -name 'run-*' -printf 'sbx-%f\n')
        h0=$(host_ticks); p0=$(pid1_ticks); r0=$(us)
        rmcpu=$(perf stat -x, -e task-clock -o /dev/fd/3 "$SBX" rm --state-dir "$STATE" -f --all 3>&1 >/dev/null |
                awk -F, '$3 ~ /task-clock/ { print $1; exit }')
        r1=$(us); h1=$(host_ticks); p1=$(pid1_ticks)
        [ -n "$rmcpu" ] || echo "bench: rm -f --all failed" >&2
        sleep 1; u2=$(usage)
        # what is left: sandboxes listed, anything under the (empty) sandboxes/ dir,
        # mounts under the state dir, cgroups of its sandboxes in any hierarchy
        left=$( { "$SBX" ls --state-dir "$STATE" -q; find "$STATE/sandboxes" -mindepth 1 -maxdepth 1 ! -name .lock ! -name .by-id; find "$STATE/sandboxes/.by-id" -mindepth 1;
                  grep " $STATE" /proc/self/mountinfo
                  for c in $runs; do ls -d /sys/fs/cgroup/*/sbx.slice/"$c"; done; } 2>/dev/null | wc -l)
        [ -n "$CG" ] && left="$left entries; memory +$((u2 - u0)) KiB after rm" || left="$left entries"
        awk -v n="$n" -v ct=$((t1 - t0)) -v du=$((u1 - u0)) -v da=$((a0 - a1)) -v dk=$((k1 - k0)) \
            -v ls="$(median < "$STATE.ls")" -v ls1="$(head -1 "$STATE.ls")" -v ex="$(awk '{print $1}' "$STATE.ex" | median)" \
            -v al="$(awk '{print $2}' "$STATE.ex" | median)" -v ra="$(awk '{print $1/$2}' "$STATE.ex" | median)" \
            -v rm=$((r1 - r0)) -v left="$left" -v cg="$CG" -v nl=$((n - first)) -v tl=$((t1 - tl)) \
            -v host=$(( (h1c - h0c) * 10 )) -v pid1=$(( (p1c - p0c) * 10 )) -v lscpu="${lscpu:-0}" -v rmcpu="${rmcpu:-0}" \
            -v rmhost=$(( (h1 - h0 - (p1 - p0)) * 10 )) 'BEGIN {
                printf "%7d %9.2f %8.1f %8.1f %8.2f %5.0f%% %11s %10.0f %10.0f %10.1f %10.1f %10.1f %10.2f %10.2f %10.2fx %9.2f %9.2f %9.2f %s\n", n, ct / 1e6,
                       n / (ct / 1e6), nl / (tl / 1e6), host / nl, (host > 0 ? 100 * pid1 / host : 0), cg == "" ? "-" : sprintf("%.0f", du / n), da / n, dk / n, ls1 / 1000, ls / 1000, lscpu, ex / 1000,
                       al / 1000, ra, rm / 1e6, rmcpu / 1000, rmhost / 1000, left }'
        rm -rf "$STATE" "$STATE.ls" "$STATE.ex" "$STATE.ws"
        STATE=
done

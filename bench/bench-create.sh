#!/bin/bash
# SPDX-License-Identifier: MIT
# Create rate of persistent sandboxes, two sbx binaries paired (issue 16
# target 5): per round and per N, each binary (order alternated round by
# round) creates N sandboxes, P callers at once, in a fresh state dir and
# workspace root on /dev/shm (as bench-scale.sh), under
# `perf stat -e task-clock` (the CPU of the whole batch, the sandboxes'
# start included); then `sbx rm -f --all` and the dir removed. Prints per
# round the wall time and CPU per create of each and their ratios (B/A);
# at the end the medians of the ratios and of the figures.
#
#   bench/bench-create.sh [-r ROUNDS] [-p P] A B [N ...]      (root)
set -u
ROUNDS=5
P=4
while [ $# -gt 0 ]; do
        case $1 in
        -r) ROUNDS=$2; shift 2 ;;
        -p) P=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) break ;;
        esac
done
[ $# -ge 2 ] || { echo "usage: bench-create.sh [-r ROUNDS] [-p P] A B [N ...]" >&2; exit 2; }
A=$1 B=$2
shift 2
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1 100 1000)
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }

trap 'exit 130' INT TERM

us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
# one batch: "wall_us cpu_ms" for N creates by SBX
batch() {
        local sbx=$1 n=$2 d t0 t1 cpu
        d=$(mktemp -d /dev/shm/sbx-bench-create.XXXXXX)
        # (a subshell: its own traps) its sandboxes and dirs go however it ends
        trap "$(printf '%q rm --state-dir %q -f --all >/dev/null 2>&1; rm -rf %q %q' "$sbx" "$d" "$d" "$d.ws")" EXIT
        trap 'exit 130' INT TERM
        chmod 711 "$d"
        t0=$(us)
        cpu=$(seq "$n" | SBX_WORKSPACE_ROOT=$d.ws perf stat -x, -e task-clock -o /dev/stdout \
                xargs -P "$P" -I{} "$sbx" create --state-dir "$d" "c{}" 2>/dev/null |
                awk -F, '$3 == "task-clock" || $3 ~ /task-clock/ { print $1; exit }')
        t1=$(us)
        [ "$("$sbx" ls --state-dir "$d" -q 2>/dev/null | wc -l)" = "$n" ] || { echo "bench: creates failed ($sbx, $n)" >&2; exit 1; }
        echo "$((t1 - t0)) $cpu"
}

printf '# %s UTC, load %s, %s host threads, P=%s\n# A=%s\n# B=%s\n' "$(date -u +%H:%M:%S)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f2)" "$P" "$A" "$B"
printf '%6s %5s %11s %11s %9s %9s %9s %9s %7s %7s\n' N round "A ms/create" "B ms/create" "A /s" "B /s" \
        "A cpu ms" "B cpu ms" "wall B/A" "cpu B/A"
for n in "${SIZES[@]}"; do
        rows=()
        for r in $(seq "$ROUNDS"); do
                if [ $((r % 2)) = 1 ]; then a=$(batch "$A" "$n") || exit 1; b=$(batch "$B" "$n") || exit 1
                else b=$(batch "$B" "$n") || exit 1; a=$(batch "$A" "$n") || exit 1; fi
                row=$(echo "$a $b" | awk -v n="$n" -v r="$r" '{
                        printf "%6d %5d %11.2f %11.2f %9.0f %9.0f %9.2f %9.2f %7.3f %7.3f\n", n, r,
                                $1 / 1000 / n, $3 / 1000 / n, n * 1e6 / $1, n * 1e6 / $3, $2 / n, $4 / n,
                                $3 / $1, $4 / $2 }')
                echo "$row"
                rows+=("$row")
        done
        printf '%s\n' "${rows[@]}" | awk -v n="$n" '
                function med(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                        return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
                { for (c = 3; c <= 10; c++) v[c, NR] = $c; k = NR }
                END { printf "%6d %5s", n, "med"
                      for (c = 3; c <= 10; c++) { for (i = 1; i <= k; i++) x[i] = v[c, i]; m = med(x, k)
                              printf (c <= 4 ? " %11.2f" : c <= 6 ? " %9.0f" : c <= 8 ? " %9.2f" : " %7.3f"), m }
                      printf "\n" }'
done

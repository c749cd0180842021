#!/bin/bash
# SPDX-License-Identifier: MIT
# Create rate of persistent sandboxes, two sbx binaries paired (issue 16
# target 5): per round and per N, each binary (order alternated round by
# round) creates N sandboxes, P callers at once, in a fresh state dir and
# workspace root on /dev/shm (as bench-scale.sh), under
# `perf stat -e task-clock` (the CPU of the whole batch, the sandboxes'
# start included); then (session 15) `sbx ls --json` three times (the
# first writes the listing cache; the third is measured) and
# `sbx rm -f --all`, each under `perf stat -e task-clock` (the command and
# its children: rm's removers; not the dying inits' own exit, nor kernel
# threads), and the dir removed. Prints per round the wall time and CPU per
# create of each and their ratios (B/A), then per listed and per removed
# sandbox the CPU of each (µs) and the ratios, rm's wall time and the
# host's CPU (/proc/stat, everything that ran, other helpers included)
# minus pid 1's (/proc/1/stat: on this VM the session machinery, whose CPU
# grows with the number of tasks) over the rm, per removed sandbox; at the
# end the medians of the ratios and of the figures.
#
#   bench/bench-create.sh [-r ROUNDS] [-p P] A B [N ...]      (root)
#   RM_ENV_A / RM_ENV_B: env assignments (VAR=VALUE ...) for A's / B's
#   rm, to pair a setting of one binary against another
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
host_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $6 + $7 + $8; exit }' /proc/stat; }
pid1_ticks() { sed 's/.*) //' /proc/1/stat | awk '{ print $12 + $13 }'; }
# task-clock ms of a command (its stdout to /dev/null)
cpu_of() { perf stat -x, -e task-clock -o /dev/fd/3 "$@" 3>&1 >/dev/null 2>/dev/null |
        awk -F, '$3 ~ /task-clock/ { print $1; exit }'; }
# one batch: "wall_us cpu_ms ls_cpu_ms rm_cpu_ms rm_wall_us rm_host_ms" for N creates by SBX
batch() {
        local sbx=$1 n=$2 rmenv=$3 d t0 t1 cw cpu lscpu rmcpu h0 p0 h1 p1
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
        cw=$((t1 - t0))
        [ "$("$sbx" ls --state-dir "$d" -q 2>/dev/null | wc -l)" = "$n" ] || { echo "bench: creates failed ($sbx, $n)" >&2; exit 1; }
        # the listing cache skips dirs changed in the last 2 s: let them age
        sleep 2.1
        "$sbx" ls --state-dir "$d" --json >/dev/null; "$sbx" ls --state-dir "$d" --json >/dev/null
        lscpu=$(cpu_of "$sbx" ls --state-dir "$d" --json)
        h0=$(host_ticks) p0=$(pid1_ticks) t0=$(us)
        # shellcheck disable=SC2086
        rmcpu=$(cpu_of env $rmenv "$sbx" rm --state-dir "$d" -f --all)
        t1=$(us) h1=$(host_ticks) p1=$(pid1_ticks)
        { [ -z "$(ls -A "$d/sandboxes" 2>/dev/null | grep -v '^\.lock$\|^\.by-id$\|^\.ls-cache$')" ] &&
                [ -z "$(ls -A "$d/sandboxes/.by-id" 2>/dev/null)" ]; } ||
                { echo "bench: rm -f --all left something ($sbx, $n): $(ls -A "$d/sandboxes" | head -3)" >&2; exit 1; }
        echo "$cw $cpu $lscpu $rmcpu $((t1 - t0)) $(( (h1 - h0 - (p1 - p0)) * 10 ))"
}

printf '# %s UTC, load %s, %s host threads, P=%s\n# A=%s\n# B=%s\n' "$(date -u +%H:%M:%S)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f2)" "$P" "$A" "$B"
printf '%6s %5s %11s %11s %9s %9s %9s %9s %7s %7s | %8s %8s %7s | %8s %8s %7s %8s %8s %7s %8s %8s\n' N round \
        "A ms/create" "B ms/create" "A /s" "B /s" "A cpu ms" "B cpu ms" "wall B/A" "cpu B/A" \
        "A ls µs" "B ls µs" "ls B/A" "A rm µs" "B rm µs" "rm B/A" "A rm s" "B rm s" "wall B/A" "A hostµs" "B hostµs"
for n in "${SIZES[@]}"; do
        rows=()
        for r in $(seq "$ROUNDS"); do
                if [ $((r % 2)) = 1 ]; then a=$(batch "$A" "$n" "${RM_ENV_A:-}") || exit 1; b=$(batch "$B" "$n" "${RM_ENV_B:-}") || exit 1
                else b=$(batch "$B" "$n" "${RM_ENV_B:-}") || exit 1; a=$(batch "$A" "$n" "${RM_ENV_A:-}") || exit 1; fi
                row=$(echo "$a $b" | awk -v n="$n" -v r="$r" '{
                        printf "%6d %5d %11.2f %11.2f %9.0f %9.0f %9.2f %9.2f %7.3f %7.3f | %8.1f %8.1f %7.3f | %8.1f %8.1f %7.3f %8.3f %8.3f %7.3f %8.0f %8.0f\n", n, r,
                                $1 / 1000 / n, $7 / 1000 / n, n * 1e6 / $1, n * 1e6 / $7, $2 / n, $8 / n,
                                $7 / $1, $8 / $2,
                                $3 * 1000 / n, $9 * 1000 / n, $9 / $3,
                                $4 * 1000 / n, $10 * 1000 / n, $10 / $4, $5 / 1e6, $11 / 1e6, $11 / $5,
                                $6 * 1000 / n, $12 * 1000 / n }')
                echo "$row"
                rows+=("$row")
        done
        printf '%s\n' "${rows[@]}" | awk -v n="$n" '
                function med(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                        return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
                { for (c = 3; c <= 23; c++) v[c, NR] = $c; k = NR }
                END { printf "%6d %5s", n, "med"
                      for (c = 3; c <= 23; c++) { if (c == 11 || c == 15) { printf " |"; continue }
                              for (i = 1; i <= k; i++) x[i] = v[c, i]; m = med(x, k)
                              f = " %8.1f"
                              if (c <= 4) f = " %11.2f"; else if (c <= 6) f = " %9.0f"; else if (c <= 8) f = " %9.2f"
                              else if (c <= 10 || c == 14 || c == 18 || c == 21) f = " %7.3f"
                              else if (c == 19 || c == 20) f = " %8.3f"; else if (c >= 22) f = " %8.0f"
                              printf f, m }
                      printf "\n" }'
done

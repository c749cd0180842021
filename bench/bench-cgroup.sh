#!/bin/bash
# SPDX-License-Identifier: MIT
# bench-cgroup.sh [-n N] [path/to/sbx]: what a sandbox's cgroup costs on `sbx run -- /bin/true`
# (issue 15). Three rows, interleaved round by round (order rotated), N rounds:
#   none:    SBX_DEFAULT_PIDS_LIMIT=0, no limits: no cgroup at all (the baseline);
#   default: no option: the default pids cap (1024), i.e. one cgroup per sandbox (on cgroup v1,
#            one directory in each of the 7 hierarchies, the child moved in by pid);
#   limits:  --memory 256m --pids-limit 100 --cpus 1.
# Prints each row's median wall time and the median of its per-round ratios to `none`.
set -u
. "$(dirname "$0")/lib.sh"
bench_args 60 "$@"
bench_sbx "${ARGS[0]:-}"
bench_state_dir
trap 'rm -rf "$STATE"' EXIT
now() { date +%s%N; }
run_row() {
        case $1 in
        none) SBX_DEFAULT_PIDS_LIMIT=0 "$SBX" run --state-dir "$STATE" -- /bin/true ;;
        default) "$SBX" run --state-dir "$STATE" -- /bin/true ;;
        limits) "$SBX" run --state-dir "$STATE" --memory 256m --pids-limit 100 --cpus 1 -- /bin/true ;;
        esac >/dev/null         # a file as stdout would cost sbx its relay (stdio-guard.c)
}
rows=(none default limits)
declare -A t
for ((i = 0; i < N; i++)); do
        for ((k = 0; k < 3; k++)); do
                r=${rows[$(((i + k) % 3))]}
                s=$(now)
                run_row "$r" || { echo "bench-cgroup: $r failed" >&2; exit 1; }
                t[$r,$i]=$(( $(now) - s ))
        done
done
hier=$("$SBX" doctor --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cgroup"]["hierarchy"])')
echo "# $(date -u +%H:%M) UTC, load $(cut -d' ' -f1 /proc/loadavg), uid $(id -u), cgroup $hier, N=$N"
for r in "${rows[@]}"; do
        med=$(for ((i = 0; i < N; i++)); do echo "${t[$r,$i]}"; done | median)
        ratio=$(for ((i = 0; i < N; i++)); do awk -v a="${t[$r,$i]}" -v b="${t[none,$i]}" 'BEGIN { print a / b }'; done | median)
        printf '%-8s %8.2f ms  paired %.3fx\n' "$r" "$(awk -v m="$med" 'BEGIN { print m / 1e6 }')" "$ratio"
done

#!/bin/bash
# SPDX-License-Identifier: MIT
# Where a cold `sbx run -- /bin/true` spends its wall time, stage by stage
# (parent start-up, clone3, id maps, mounts, pivot_root + old-root detach,
# caps/Landlock/seccomp, exec, exit and namespace teardown, clean-up), beside
# `unshare -Urmpnif --mount-proc /bin/true`, interleaved, N rounds, medians.
# With several SBX binaries (say, before and after a change) each is profiled
# in the same recording, round by round. Root (perf record -a).
#
#   bench/profile-stages.sh [-n N] [SBX ...]
set -u
. "$(dirname "$0")/lib.sh"
bench_args 40 "$@"
bench_bins
SBXS=("${BINS[@]}")
command -v perf >/dev/null || { echo "bench: perf (linux-perf) is needed" >&2; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), N=$N, $(date -u +%FT%TZ)"
perf record -q -a -o "$d/perf.data" \
        -e raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_process_exec,sched:sched_process_exit,sched:sched_process_fork \
        -- bash -c 'n=$1; shift; for i in $(seq "$n"); do for s in "$@"; do "$s" run -- /bin/true; done;
                    unshare -Urmpnif --mount-proc /bin/true; done' _ "$N" "${SBXS[@]}" 2>/dev/null
perf script -i "$d/perf.data" -F comm,pid,tid,time,event,trace 2>/dev/null > "$d/perf.txt"
python3 "$(dirname "$0")/profile-stages.py" "$d/perf.txt" "${SBXS[@]}"

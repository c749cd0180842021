#!/bin/bash
# SPDX-License-Identifier: MIT
# Cold `sbx run -- /bin/true` with the state dir on disk and on tmpfs, for one
# or two sbx binaries (before/after a change), with `unshare -Urmpnif
# --mount-proc /bin/true` beside: every round runs each command once, the
# order rotated; medians and medians of per-round ratios (to unshare, and
# after/before). The disk state dir is under /var/tmp, the tmpfs one under
# /dev/shm; both made here and removed.
#
#   bench/bench-statedir.sh [-n N] [SBX_BEFORE] SBX_AFTER
set -u
. "$(dirname "$0")/lib.sh"
bench_args 100 "$@"
bench_bins
disk=$(mktemp -d /var/tmp/sbx-bench-sd.XXXXXX)
mem=$(mktemp -d /dev/shm/sbx-bench-sd.XXXXXX)
trap 'rm -rf "$disk" "$mem"' EXIT
echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), N=$N, disk: $(stat -f -c %T "$disk"), $(date -u +%FT%TZ)"
labels=() cmds=()
for fs in disk mem; do
        for b in "${BINS[@]}"; do
                labels+=("$fs $b")
                cmds+=("XDG_RUNTIME_DIR=${!fs} $b run -- /bin/true")
        done
done
labels+=(unshare); cmds+=("unshare -Urmpnif --mount-proc /bin/true")
k=${#cmds[@]} f=$(mktemp)
for i in $(seq "$N"); do
        t=()
        for j in $(seq 0 $((k - 1))); do
                c=$(((i + j) % k)) t0=$EPOCHREALTIME
                eval "${cmds[$c]}" || exit 1
                t1=$EPOCHREALTIME
                t[$c]=$((${t1/./} - ${t0/./}))
        done
        echo "${t[*]}" >> "$f"
done
for c in $(seq 1 $k); do
        printf '%-60s %7.2f ms  paired %5.2fx unshare\n' "${labels[$((c - 1))]}" \
                "$(awk -v c=$c '{ print $c / 1000 }' "$f" | median)" "$(awk -v c=$c -v k=$k '{ print $c / $k }' "$f" | median)"
done
if [ ${#BINS[@]} = 2 ]; then
        printf 'after/before, paired: disk %.2fx, tmpfs %.2fx\n' "$(awk '{ print $2 / $1 }' "$f" | median)" \
                "$(awk '{ print $4 / $3 }' "$f" | median)"
fi
rm -f "$f"

#!/bin/bash
# SPDX-License-Identifier: MIT
# The kernel's memory floor of an idle sandbox (issue 16 target 5: <= 256 KiB
# each, all kernel objects included). bench/mem-floor.c (built here with
# cc -static; not part of sbx) holds N idle processes, each in a set of new
# namespaces and nothing of sbx; per set, per process:
#   - memcg: the growth of memory.usage_in_bytes of a cgroup-v1 memory group
#     this bench makes around itself (what the kernel charges to a memcg);
#   - avail: the drop of MemAvailable (everything, charged or not; system-wide,
#     so other jobs add noise: use a large N);
#   - kobj:  the growth of Slab + PageTables + KernelStack + Percpu.
# The sets: a plain process; each namespace alone; the 7 of `sbx run`
# (user mount pid net ipc uts cgroup); the same without net; the 7 with a
# pivot_root'd tmpfs root holding /usr and /proc (sbx's least root).
#
#   bench/bench-memfloor.sh [-n N] [SETS...]        (root)
set -u
N=1000
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) break ;;
        esac
done
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(- U Um Up Un Ui Ut Uc Umpitc Umpnitc Umpnitcr)
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }
command -v cc >/dev/null || { echo "bench: needs cc" >&2; exit 1; }
BIN=$(mktemp /tmp/mem-floor.XXXXXX)
IDLE=$(mktemp /tmp/mem-idle.XXXXXX)
cc -O2 -static -o "$BIN" "$(dirname "$0")/mem-floor.c" || exit 1
cc -O2 -static -nostdlib -fno-stack-protector -o "$IDLE" "$(dirname "$0")/mem-idle.c" || exit 1
chmod 755 "$IDLE"

. "$(dirname "$0")/lib.sh"
kobj() { awk '$1 ~ /^(Slab|PageTables|KernelStack|Percpu):$/ {s += $2} END {print s}' /proc/meminfo; }
bench_memcg sbx-bench-memfloor
cleanup() {
        rm -f "$BIN" "$IDLE"
        bench_restore
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for ns in user pid net mnt ipc uts cgroup; do raise /proc/sys/user/max_${ns}_namespaces $((N + 1000)) >/dev/null; done

echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), N=$N," \
     "memory group: ${CG:-none}"
printf '%-10s %10s %10s %10s\n' set "memcg KiB" "avail KiB" "kobj KiB"
for set in "${SETS[@]}"; do
        sync; echo 2 > /proc/sys/vm/drop_caches; sleep 1
        u0=$(usage); a0=$(meminfo MemAvailable); k0=$(kobj)
        coproc FLOOR { "$BIN" "$N" "$set" "$IDLE"; }
        read -r line <&"${FLOOR[0]}"
        if [ "$line" != ready ]; then echo "$set: failed" >&2; continue; fi
        sleep 1
        u1=$(usage); a1=$(meminfo MemAvailable); k1=$(kobj)
        echo go >&"${FLOOR[1]}"
        wait "$FLOOR_PID"
        awk -v s="$set" -v n="$N" -v u=$((u1 - u0)) -v a=$((a0 - a1)) -v k=$((k1 - k0)) \
                'BEGIN { printf "%-10s %10.1f %10.1f %10.1f\n", s, u / n, a / n, k / n }'
        sleep 2         # RCU and the netns clean-up work of the last set
done

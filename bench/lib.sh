# SPDX-License-Identifier: MIT
# Shared by the bench scripts (sourced): the sbx under test and medians.

# bench_sbx [PATH]: sets SBX to PATH, $SBX or build/sbx, absolute; exits if not built.
bench_sbx() {
        local top
        top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
        SBX=${1:-${SBX:-$top/build/sbx}}
        [ -x "$SBX" ] || { echo "bench: $SBX is not built (ninja -C build)" >&2; exit 1; }
        SBX=$(realpath "$SBX")
}

# bench_args N "$@": the options every bench takes: -n N (N rounds; the first argument is the
# default), -h/--help (the script's opening comment); the other arguments, in order, into ARGS.
bench_args() {
        N=$1
        shift
        ARGS=()
        while [ $# -gt 0 ]; do
                case $1 in
                -n) N=$2; shift 2 ;;
                -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
                *) ARGS+=("$1"); shift ;;
                esac
        done
}

# bench_bins: the sbx binaries ARGS names (absolute), else the one bench_sbx finds, into BINS
bench_bins() {
        BINS=()
        for b in "${ARGS[@]}"; do
                BINS+=("$(realpath "$b")")
        done
        [ ${#BINS[@]} -gt 0 ] || { bench_sbx; BINS=("$SBX"); }
}

# bench_state_dir: a fresh sbx state dir in STATE (on /dev/shm where it can), others may enter it
bench_state_dir() {
        STATE=$(mktemp -d /dev/shm/sbx-bench.XXXXXX 2>/dev/null || mktemp -d)
        chmod 711 "$STATE"
}

# median of the numbers on stdin, one a line (0 when there are none)
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Memory figures of the benches that count what idle processes cost (bench-scale.sh,
# bench-memfloor.sh). meminfo KEY: a /proc/meminfo value in KiB.
meminfo() { awk -v k="$1" '$1 == k ":" {print $2}' /proc/meminfo; }
# bench_memcg NAME: a cgroup-v1 memory group NAME-<pid> under the one this shell was started in
# (never above it), this shell moved into it, in CG ("" where there is none); usage: its
# memory.usage_in_bytes in KiB (0 without one).
bench_memcg() {
        local mine
        CG=
        mine=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
        if [ -n "$mine" ] && [ -d "/sys/fs/cgroup/memory$mine" ]; then
                CG=/sys/fs/cgroup/memory${mine%/}/$1-$$
                mkdir "$CG" 2>/dev/null && echo $$ > "$CG/cgroup.procs" || CG=
        fi
}
usage() { if [ -n "$CG" ]; then echo $(($(cat "$CG/memory.usage_in_bytes") / 1024)); else echo 0; fi; }
# raise FILE MIN: a host limit raised (never lowered) for the run, the old value in SAVED;
# bench_restore (at exit): this shell out of CG, CG removed, every raised limit put back.
SAVED=()
raise() {
        local v
        v=$(cat "$1" 2>/dev/null) || return 0
        [ "$v" -lt "$2" ] || return 0
        SAVED+=("$1=$v")
        echo "$2" > "$1" && echo "# raised $1 from $v to $2 for this run"
}
bench_restore() {
        if [ -n "${CG:-}" ]; then
                echo $$ > "${CG%/*}/cgroup.procs"
                rmdir "$CG" 2>/dev/null
        fi
        for s in "${SAVED[@]}"; do echo "${s#*=}" > "${s%%=*}"; done
}

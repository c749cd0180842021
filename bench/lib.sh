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

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

# median of the numbers on stdin, one a line (0 when there are none)
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

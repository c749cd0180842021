#!/bin/bash
# SPDX-License-Identifier: MIT
# bench-oci.sh [-n ROUNDS] [SBX]: the OCI runtime's own work on one bundle,
# `sbx-runc run --bundle B id` (create + start + wait + delete of /bin/true)
# against `runc run` on the same bundle, paired per round (alternating which
# goes first), medians of each and of the per-round ratio sbx/runc. Target
# (issue 15): <= 0.6x runc. A busybox-static rootfs, runtime-spec defaults
# (pid, ipc, uts, mount, network namespaces; proc, dev, devpts, shm). Run as
# any other uid it is the rootless bundle (`runc spec --rootless`'s shape: a
# user namespace mapping the caller to 0), both runtimes with --rootless true;
# as root: `setpriv --reuid U --regid G --clear-groups bash bench/bench-oci.sh`.
. "$(dirname "$0")/lib.sh"
bench_args 30 "$@"
bench_bins
ROOTLESS=()
USERNS=
if [ "$(id -u)" != 0 ]; then
        ROOTLESS=(--rootless true)
        USERNS="c['linux']['namespaces'].append({'type': 'user'});
c['linux']['uidMappings']=[{'containerID': 0, 'hostID': $(id -u), 'size': 1}];
c['linux']['gidMappings']=[{'containerID': 0, 'hostID': $(id -g), 'size': 1}]"
        export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/sbx-bench-oci-$(id -u)}
fi
command -v runc >/dev/null || { echo "bench-oci: runc not installed"; exit 1; }
RUNC_BIN=$(dirname "${BINS[0]}")/sbx-runc
[ -x "$RUNC_BIN" ] || { echo "bench-oci: $RUNC_BIN missing (ninja -C build makes it)"; exit 1; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /dev/shm/sbx-bench-oci.XXXXXX)
trap 'rm -rf "$T"' EXIT
SBX_SOURCE_ROOT=$TOP SBX_BUILD_ROOT=$(dirname "$RUNC_BIN") . "$TOP/tests/oci/oci-lib.sh" >/dev/null
make_rootfs "$T/rootfs" || { echo "bench-oci: no static busybox"; exit 1; }
mkdir -p "$T/b"
ROOTFS=$T/rootfs python3 "$TOP/tests/oci/mkconfig.py" "$T/b" "c['process']['args']=['true']
$USERNS"
ns() { date +%s%N; }
one() {         # one RUNTIME ID -> ns
        local t0 t1
        t0=$(ns)
        "$@" >/dev/null 2>&1 </dev/null || echo "bench-oci: $* failed" >&2
        t1=$(ns)
        echo $((t1 - t0))
}
: > "$T/s"; : > "$T/r"; : > "$T/q"
for i in $(seq "$N"); do
        if [ $((i % 2)) = 0 ]; then
                s=$(one "$RUNC_BIN" "${ROOTLESS[@]}" --root "$T/rs" run --bundle "$T/b" s$i)
                r=$(one runc "${ROOTLESS[@]}" --root "$T/rr" run --bundle "$T/b" r$i)
        else
                r=$(one runc "${ROOTLESS[@]}" --root "$T/rr" run --bundle "$T/b" r$i)
                s=$(one "$RUNC_BIN" "${ROOTLESS[@]}" --root "$T/rs" run --bundle "$T/b" s$i)
        fi
        echo "$s" >> "$T/s"; echo "$r" >> "$T/r"
        awk -v s="$s" -v r="$r" 'BEGIN { printf "%.4f\n", s / r }' >> "$T/q"
done
ms() { median < "$1" | awk '{ printf "%.2f", $1 / 1e6 }'; }
echo "$([ -n "$USERNS" ] && echo rootless || echo root)   rounds: $N   sbx-runc run: $(ms "$T/s") ms   runc run: $(ms "$T/r") ms   median ratio sbx/runc: $(median < "$T/q")"

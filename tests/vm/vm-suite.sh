#!/bin/bash
# Host side of the 'vm' suite: boot one cgroup-v2-only guest (run-in-vm.sh)
# and run cgroup-suite.sh, cgroup-escape.sh, then oci-suite.sh (sbx-runc and podman on v2,
# bundles prepared here on the host) in it; add the TAP plan. SKIPs only
# when QEMU cannot be installed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CGTEST=${CGTEST:-${SBX_BUILD_ROOT:?}/tests/vm/cgtest}
export SBX_RUNC=${SBX_RUNC:-$SBX_BUILD_ROOT/sbx-runc}
log=$(mktemp)
# host /tmp is the guest's read-only lower layer: the bundles are seen there
OCI_DIR=$(mktemp -d /tmp/sbx-vm-oci.XXXXXX)
export OCI_DIR
trap 'rm -f "$log"; rm -rf "$OCI_DIR"' EXIT
if ! "$here/run-in-vm.sh" --prepare >"$log" 2>&1; then
        if ! command -v qemu-system-x86_64 >/dev/null; then
                echo "1..0 # SKIP QEMU cannot be installed here: $(tail -n1 "$log")"
                exit 0
        fi
        sed 's/^/# /' "$log"
        echo "not ok 1 - prepare the VM (kernel/busybox download and cache)"
        echo "1..1"
        exit 1
fi
oci=1
bash "$here/oci-suite.sh" prepare "$OCI_DIR" >"$log" 2>&1 || { sed 's/^/# /' "$log"; oci=0; }
# shellcheck disable=SC2016  # expanded in the guest
"$here/run-in-vm.sh" --timeout "${SBX_VM_TIMEOUT:-1080}" -e CGTEST -e SBX -e SBX_RUNC -e SBX_SOURCE_ROOT \
        -e SBX_BUILD_ROOT -e OCI_DIR -e OCI="$oci" -- bash -c '
                bash "$0/cgroup-suite.sh"; a=$?
                bash "$0/cgroup-escape.sh" || a=1
                if [ "$OCI" = 1 ]; then bash "$0/oci-suite.sh" run "$OCI_DIR"; b=$?
                else echo "not ok - prepare the OCI bundles (host)"; b=1; fi
                exit $((a | b))' "$here" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
n=$(grep -cE '^(ok|not ok)( |$)' "$log")
if [ "$rc" = 0 ]; then echo "ok - guest suite finished"
else echo "not ok - guest suite exited $rc (124 timeout, 125 VM failure)"; fi
echo "1..$((n + 1))"
[ "$rc" = 0 ]

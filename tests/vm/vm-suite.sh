#!/bin/bash
# Host side of the 'vm' suite: boot one cgroup-v2-only guest (run-in-vm.sh)
# and run cgroup-suite.sh in it; add the TAP plan. SKIPs only when QEMU
# cannot be installed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CGTEST=${CGTEST:-${SBX_BUILD_ROOT:?}/tests/vm/cgtest}
log=$(mktemp); trap 'rm -f "$log"' EXIT
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
"$here/run-in-vm.sh" --timeout "${SBX_VM_TIMEOUT:-540}" -e CGTEST -e SBX -- \
        bash "$here/cgroup-suite.sh" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
n=$(grep -cE '^(ok|not ok)( |$)' "$log")
if [ "$rc" = 0 ]; then echo "ok - guest suite finished"
else echo "not ok - guest suite exited $rc (124 timeout, 125 VM failure)"; fi
echo "1..$((n + 1))"
[ "$rc" = 0 ]

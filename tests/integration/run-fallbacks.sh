#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx run when kernel interfaces are missing (fault injection with
# deny-syscalls, STYLE §F.25): every fallback either gives the same
# isolation, or sbx stops with 125 naming what is missing. Never weaker.
. "$(dirname "$0")/lib.sh"
: "${SBX_DENY_SYSCALLS:?SBX_DENY_SYSCALLS must point at the built deny-syscalls}"
deny() { "$SBX_DENY_SYSCALLS" "$@"; }

# the helper works: the denied call fails with ENOSYS, others do not
is "deny-syscalls: a denied call fails with ENOSYS" "$(deny getcwd "$SBX_PROBE" try-syscall getcwd)" ENOSYS
is "deny-syscalls: other calls are untouched" "$(deny getcwd "$SBX_PROBE" try-syscall close)" EBADF

# close_range missing: the /proc/self/fd sweep still closes everything
exec 7</etc/hostname
out=$(deny close_range "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" -- /sbx-probe fds | awk '{ print $1 }' | tr '\n' ' ')
is "without close_range, still only fds 0 1 2 reach the sandbox" "$out" "0 1 2 "
exec 7<&-

# clone3 missing: clone() makes the same namespaces
out=$(deny clone3 "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" -- /sbx-probe pidns); rc=$?
is "without clone3, sbx falls back to clone(): exit 0" "$rc" 0
like "without clone3, the command is still pid 1 of a new pid ns" "$out" '^pid=1 ppid=0 sid=1 procs=1$'
is "without clone3, still only lo" "$(deny clone3 "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" -- /sbx-probe ifaces)" "lo up"
map=$(deny clone3 "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" -- /sbx-probe uidmap)
unlike "without clone3, still no 0 -> 0 id map" "$map" '^ *0 +0 '

# no fallback (by design): openat2 and mount_setattr guard the mount recipe
for call in openat2 mount_setattr open_tree; do
        err=$(deny $call "$SBX" run -- /bin/true 2>&1); rc=$?
        is "without $call, sbx refuses with 125" "$rc" 125
        like "without $call, the message names the step" "$err" '(mount|bind|root|workspace|tmpfs|proc)'
done
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

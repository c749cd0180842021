#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 11 (red13): from inside a sandbox. SysV IPC objects are
# kernel and shmem memory that no process owns: they outlive the process
# that made them (in a persistent sandbox until sbx rm), the OOM killer
# cannot free them, and a new IPC namespace's defaults bound nothing
# (32,000 queues of ~1.1 MiB, 10^9 semaphores, 16 EiB of segments). Each
# kind is now bounded to about the /dev/shm size (launch/ipc-limits.c).
# Controls: the same calls in a fresh IPC namespace outside (the kernel's
# defaults) go past the bound. Plus what held: realtime scheduling and a
# negative nice value inside.
. "$(dirname "$0")/lib.sh"

F=$SBX_SOURCE_ROOT/tests/escape/round11-probe.py
STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws       # the sandbox's workspace goes with the test
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
fill() { timeout -k 5 60 "$SBX" run --ro-bind "$F:/round11-probe.py" -- python3 /round11-probe.py "$@"; }
# outside, in an IPC namespace of our own (the kernel's defaults): root
# directly, a plain user in a user namespace of its own
if is_root; then ns=(unshare -i); why=
elif unshare -Uri true 2>/dev/null; then ns=(unshare -Uri); why=
else ns=(false); why="unprivileged user namespaces are off"
fi
outside() { "${ns[@]}" python3 "$F" "$@"; }
outside_sh() { "${ns[@]}" sh -c "$@"; }

# --- message queues: one-byte messages cost a 64-byte kernel object each,
# 16,384 of them fit a queue (~1.1 MiB); measured before: 32 queues held
# 36 MiB of slab from a 9 MiB process. kernel.msgmni is 56 inside.
is "sysv-msg: the 57th message queue is refused (ENOSPC: kernel.msgmni)" "$(fill msg 57)" "ENOSPC 56"
control "sysv-msg: 57 queues in a fresh IPC namespace outside" "$(outside msg 57)" "OK 57" "$why"

# --- shared memory: one segment up to 64 MiB (kernel.shmmax), all of them
# together 64 MiB (kernel.shmall), the size of the sandbox's /dev/shm
is "sysv-shm: a 64 MiB segment is made" "$(fill shm 67108864 1)" "OK 1"
is "sysv-shm: a segment one byte over 64 MiB is refused (EINVAL: kernel.shmmax)" "$(fill shm 67108865 1)" "EINVAL 0"
control "sysv-shm: that segment in a fresh IPC namespace outside" "$(outside shm 67108865 1)" "OK 1" "$why"
is "sysv-shm: a second 40 MiB segment is refused (ENOSPC: kernel.shmall)" "$(fill shm 41943040 2)" "ENOSPC 1"
control "sysv-shm: two 40 MiB segments outside" "$(outside shm 41943040 2)" "OK 2" "$why"
# --- semaphores: 64 bytes each, 1,048,576 in all (kernel.sem SEMMNS)
is "sysv-sem: 32 sets of 32,000 semaphores are made" "$(fill sem 32000 32)" "OK 32"
is "sysv-sem: the 33rd is refused (ENOSPC: SEMMNS)" "$(fill sem 32000 33)" "ENOSPC 32"
control "sysv-sem: 33 sets outside" "$(outside sem 32000 33)" "OK 33" "$why"

# --- the same namespace for every exec into a persistent sandbox: the
# bound holds there, and what an exec left stays counted after it exits
mkdir -p "$STATE"
if sx create --ro-bind "$F:/round11-probe.py" r11ipc >/dev/null; then
        is "sysv-msg-persistent: an exec makes 40 queues and exits" "$(sx exec r11ipc -- python3 /round11-probe.py msg 40)" "OK 40"
        is "sysv-msg-persistent: the next exec gets only the rest (ENOSPC)" \
                "$(sx exec r11ipc -- python3 /round11-probe.py msg 40)" "ENOSPC 16"
        # a segment nobody attached stays for a later exec (as under
        # Docker), and counts: the next one may not take the same again
        is "sysv-shm-persistent: an exec makes a 40 MiB segment (key 0x5b11) and exits" \
                "$(sx exec r11ipc -- python3 /round11-probe.py shm-make 0x5b11)" "OK 1"
        is "sysv-shm-persistent: a later exec finds it" "$(sx exec r11ipc -- python3 /round11-probe.py shm-find 0x5b11)" "OK 1"
        is "sysv-shm-persistent: ... and cannot make another 40 MiB (ENOSPC: kernel.shmall)" \
                "$(sx exec r11ipc -- python3 /round11-probe.py shm 41943040 1)" "ENOSPC 0"
        sx rm -f r11ipc >/dev/null
else
        not_ok "sysv-msg-persistent: create a persistent sandbox"
        for i in 1 2 3 4; do skip "sysv-persistent: no sandbox"; done
fi

# --- any sandbox user (ipc14): rootless, a user other than 0 (docker's
# --user, OpenClaw's default: the workspace owner) maps one id and no root,
# and only the IPC namespace's root may write its limits; that namespace is
# now owned by a user namespace of sbx's mapping 0 to the caller, the
# sandbox's nested in it (launch.c spawn_via_helper). As root the sandbox's
# root writes them before the switch to 1000. The same bounds, both ways.
fillu() { timeout -k 5 60 "$SBX" run --user 1000:1000 --ro-bind "$F:/round11-probe.py" -- python3 /round11-probe.py "$@"; }
is "sysv-user: --user 1000 runs as 1000 with kernel.msgmni 56" \
        "$(timeout -k 5 60 "$SBX" run --user 1000:1000 -- sh -c 'id -u; cat /proc/sys/kernel/msgmni' | tr '\n' ' ')" "1000 56 "
is "sysv-user-msg: as 1000, 56 queues are made, the 57th is refused (ENOSPC: kernel.msgmni)" "$(fillu msg 57)" "ENOSPC 56"
is "sysv-user-shm: as 1000, a 64 MiB segment is made" "$(fillu shm 67108864 1)" "OK 1"
is "sysv-user-shm: as 1000, one byte over 64 MiB is refused (EINVAL: kernel.shmmax)" "$(fillu shm 67108865 1)" "EINVAL 0"
is "sysv-user-shm: as 1000, a second 40 MiB segment is refused (ENOSPC: kernel.shmall)" "$(fillu shm 41943040 2)" "ENOSPC 1"
is "sysv-user-sem: as 1000, 32 sets of 32,000 are made, the 33rd is refused (ENOSPC: SEMMNS)" "$(fillu sem 32000 33)" "ENOSPC 32"
# the sandbox's uid is the IPC namespace's root now (on the host): what
# keeps it from raising the bounds is the read-only /proc/sys (mount.c)
is "sysv-user-sysctl: as 1000, kernel.msgmni cannot be raised inside (EROFS)" "$(fillu sysctl msgmni 32000)" EROFS
is "sysv-user-sysctl: as 0 neither (EROFS)" "$(fill sysctl msgmni 32000)" EROFS
control "sysv-user-sysctl: the IPC namespace's root outside raises it in a fresh one" \
        "$(outside sysctl msgmni 32000)" OK "$why"
# the other ways in: a persistent sandbox as 1000 (sbx create --user, as
# docker create --user), its exec service and a join by setns (an exec
# allowlist takes the join), and SBX_SPAWN_COPY (the forked spawner)
if sx create --user 1000:1000 --ro-bind "$F:/round11-probe.py" r11user >/dev/null; then
        is "sysv-user-persistent: an exec as 1000 makes 40 queues and exits" \
                "$(sx exec r11user -- python3 /round11-probe.py msg 40)" "OK 40"
        is "sysv-user-persistent: the next gets only the rest (ENOSPC)" \
                "$(sx exec r11user -- python3 /round11-probe.py msg 40)" "ENOSPC 16"
        sx rm -f r11user >/dev/null
else
        not_ok "sysv-user-persistent: sbx create --user 1000:1000"
        skip "sysv-user-persistent: no sandbox"
fi
if sx create --user 1000:1000 --exec-allow '*' --ro-bind "$F:/round11-probe.py" r11join >/dev/null; then
        is "sysv-user-join: an exec by setns (exec allowlist) as 1000: the 57th queue ENOSPC" \
                "$(sx exec r11join -- python3 /round11-probe.py msg 57)" "ENOSPC 56"
        sx rm -f r11join >/dev/null
else
        not_ok "sysv-user-join: sbx create --user 1000:1000 --exec-allow '*'"
fi
# --network container:NAME: rootless the sandbox shares NAME's user
# namespace (NAME as 1000 too); its IPC namespace comes from that one's
# parent, the IPC owner NAME was made in. (NAME is looked up in the default
# state root, whatever `sbx run --state-dir` says: a root of the test's own.)
mkdir -m 700 -p "$TMP/xdg11"
xs() { XDG_RUNTIME_DIR=$TMP/xdg11 timeout -k 5 60 "$SBX" "$@"; }
if xs create --user 1000:1000 r11net >/dev/null; then
        is "sysv-user-container-net: --network container:NAME as 1000: the 57th queue ENOSPC" \
                "$(xs run --network container:r11net --dangerously-allow-container-namespace-join --user 1000:1000 \
                        --ro-bind "$F:/round11-probe.py" -- python3 /round11-probe.py msg 57)" "ENOSPC 56"
        is "sysv-user-container-net: ... its own IPC namespace, not NAME's" \
                "$(xs exec r11net -- python3 -c 'print(open("/proc/sysvipc/msg").read().count("\n") - 1)' 2>&1)" 0
        xs rm -f r11net >/dev/null
else
        not_ok "sysv-user-container-net: sbx create --user 1000:1000"
fi
is "sysv-user-template: SBX_TEMPLATE=1 (the spawner enters the holder first) as 1000: the 57th queue ENOSPC" \
        "$(SBX_TEMPLATE=1 fillu msg 57)" "ENOSPC 56"
is "sysv-user-no-template: SBX_TEMPLATE=0 as 1000: the 57th queue ENOSPC" "$(SBX_TEMPLATE=0 fillu msg 57)" "ENOSPC 56"
is "sysv-user-copy: SBX_SPAWN_COPY=1 as 1000: the 57th queue ENOSPC" "$(SBX_SPAWN_COPY=1 fillu msg 57)" "ENOSPC 56"
is "sysv-user-helper: --timeout (a forked spawner) as 1000: the 57th queue ENOSPC" \
        "$(timeout -k 5 60 "$SBX" run --timeout 50 --user 1000:1000 --ro-bind "$F:/round11-probe.py" -- python3 /round11-probe.py msg 57)" "ENOSPC 56"

# --- not bounded (known): the kernel's TCP memory (net.ipv4.tcp_mem) is one
# budget for the whole host, all network namespaces; a --network none
# sandbox's loopback connections fill it like any other (SECURITY.md,
# section 10). Measured, not exhausted (it would stall the host's TCP).
kib=$(timeout -k 5 60 "$SBX" run --network none --ro-bind "$F:/round11-probe.py" -- python3 /round11-probe.py tcp 8)
high=$(awk '{ print int($3 * 4 / 1024) }' /proc/sys/net/ipv4/tcp_mem 2>/dev/null)
skip "tcp-mem-global: not bounded: 8 loopback connections of a --network none sandbox took $((${kib:-0} / 1024)) MiB of the host's tcp_mem (its limit: $high MiB)"

# --- held: realtime scheduling (RLIMIT_RTPRIO 0, no CAP_SYS_NICE) and a
# negative nice value (RLIMIT_NICE 0) are refused inside; root outside may
is "sched-fifo: SCHED_FIFO is refused inside (EPERM)" "$(fill fifo)" EPERM
is "sched-nice: a negative nice value is refused inside (EACCES)" "$(fill nice)" EACCES
if is_root; then
        control "sched-fifo: root outside gets SCHED_FIFO" "$(python3 "$F" fifo)" OK
        control "sched-nice: root outside gets nice -5" "$(python3 "$F" nice)" OK
else
        control "sched-fifo" "" "" "needs root outside"
        control "sched-nice" "" "" "needs root outside"
fi

done_testing

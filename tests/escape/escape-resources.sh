#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): resource exhaustion. Processes (--ulimit nproc,
# --pids-limit), fds (--ulimit nofile), disk (tmpfs size), memory (--memory:
# on a host without the cgroup v2 memory controller sbx refuses unless
# --limits best-effort; real OOM kills are tested in the vm lane).
. "$(dirname "$0")/lib.sh"

cg_mode=$("$SBX" doctor --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("cgroup_mode", "?"))' 2>/dev/null || echo "?")

# --- processes
control "outside, 40 forks succeed" "$("$SBX_PROBE" exhaust-procs 40)" "40 OK"
out=$(tsbx --ulimit nproc=32 -- /sbx-probe exhaust-procs 1000)
like "fork-bomb-nproc: --ulimit nproc=32 stops forking with EAGAIN below 32" "$out" '^([0-9]|[12][0-9]|3[01]) EAGAIN$'
marker="sbx-bomb-$$-$RANDOM"
timeout -k 5 60 "$SBX" run --ulimit nproc=64 --timeout 3 -- /bin/sh -c 'b() { b | b & }; b; sleep 30' "$marker" >/dev/null 2>&1; rc=$?
is "fork-bomb-shell: a shell fork bomb under nproc=64 ends with the --timeout (124)" "$rc" 124
sleep 0.5
is "fork-bomb-shell: no process of it is left on the host" "$(pgrep -fc "$marker")" 0
out=$("$SBX" run --pids-limit 32 -- /bin/true 2>&1); rc=$?
if [ "$rc" = 0 ]; then
        out=$(tsbx --pids-limit 32 -- /sbx-probe exhaust-procs 1000)
        like "fork-bomb-pids: --pids-limit 32 stops forking with EAGAIN" "$out" '^([0-9]|[12][0-9]|3[01]) EAGAIN$'
else
        is "fork-bomb-pids: without a pids controller --pids-limit is refused (125)" "$rc" 125
        like "fork-bomb-pids: ... naming the option and the fix" "$out" 'pids-limit.*best-effort'
fi

# --- file descriptors
control "outside, 200 fds can be opened" "$("$SBX_PROBE" exhaust-fds 200)" "200 OK"
like "fd-exhaustion: --ulimit nofile=64 stops at EMFILE" "$(tsbx --ulimit nofile=64 -- /sbx-probe exhaust-fds 100000)" '^6[0-4] EMFILE$'
like "fd-exhaustion: the hard limit cannot be raised inside" \
        "$("$SBX" run --ulimit nofile=64:64 -- /bin/sh -c 'ulimit -n 65 2>&1; echo rc=$?')" 'rc=[1-9]'

# --- disk
is "disk-tmpfs: a --tmpfs size=1m fills up with ENOSPC" "$(tsbx --tmpfs /scratch:size=1m -- /sbx-probe fill /scratch/f 100000)" "1024 ENOSPC"
like "disk-default-tmp: the default /tmp is bounded too" \
        "$(tsbx -- /bin/sh -c 'grep " /tmp " /proc/self/mountinfo')" 'size=[0-9]+k'
like "disk-root: the root tmpfs is read-only and small" \
        "$(tsbx -- /bin/sh -c 'grep " / / " /proc/self/mountinfo')" '^[0-9]+ [0-9]+ [0-9:]+ / / ro.*size=[0-9]+k'
# the default workspace's upper layer is a tmpfs of the run's own mount
# namespace: 8 MiB written there never reach the state dir's file system
# (the host's /run as root), and go with the sandbox
sb=$(state_base)
mkdir -p "$sb"
before=$(du -sk "$sb" | cut -f1)
tsbx -- /bin/sh -c 'head -c 8388608 /dev/zero > /workspace/big && sleep 1.5' &
wp=$!
sleep 0.8
during=$(du -sk "$sb" | cut -f1)
wait $wp
is "disk-workspace: 8 MiB written to the default workspace do not grow the state dir (${before} -> ${during} KiB)" \
        "$(( during - before < 4096 ))" 1
head -c 8388608 /dev/zero > "$sb/.sbx-du-control"
control "the same 8 MiB written into the state dir show in its size" \
        "$(( $(du -sk "$sb" | cut -f1) - before >= 8000 ))" 1
rm -f "$sb/.sbx-du-control"

# --- memory
out=$("$SBX" run --memory 64m -- /bin/true 2>&1); rc=$?
if [ "$rc" = 0 ]; then
        out=$(tsbx --memory 32m --memory-swap 32m -- /bin/sh -c 'head -c 200000000 /dev/zero | tail > /dev/null; echo $?')
        like "memory-bomb: over --memory 32m the workload is OOM-killed" "$out" '^(137|1)$'
else
        is "memory-bomb: without a memory controller --memory is refused (125)" "$rc" 125
        like "memory-bomb: ... naming the option and the reason" "$out" 'memory.*(hybrid|controller).*best-effort'
        out=$("$SBX" run --limits best-effort --memory 64m -- /bin/true 2>&1); rc=$?
        is "memory-bomb: --limits best-effort runs without it" "$rc" 0
        like "memory-bomb: ... and warns" "$out" 'warning.*memory'
fi
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

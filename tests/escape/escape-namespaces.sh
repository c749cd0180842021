#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): other processes (signals, ptrace, /proc), namespace
# and mount escapes, mount propagation both ways, cgroup, /sys and /proc/sys.
. "$(dirname "$0")/lib.sh"

# --- other processes
sleep 120 & host_pid=$!
control "outside, kill(host pid, 0) works" "$("$SBX_PROBE" kill $host_pid 0)" OK
is "signal-host-pid: kill(host pid, SIGKILL) is ESRCH inside" "$(tsbx -- /sbx-probe kill $host_pid 9)" ESRCH
tsbx -- /bin/sh -c '/sbx-probe kill -1 9' >/dev/null
is "signal-all: kill(-1, SIGKILL) reaches only the sandbox (the host process lives)" \
        "$(kill -0 $host_pid && echo alive)" "alive"
control "outside, ptrace attach of our own child works" "$("$SBX_PROBE" ptrace $host_pid)" OK
is "ptrace-host-pid: PTRACE_ATTACH is refused with EPERM" "$(tsbx -- /sbx-probe ptrace $host_pid)" EPERM
is "ptrace-pid1: PTRACE_ATTACH of the sandbox's own init is refused with EPERM" \
        "$(tsbx -- /bin/sh -c '/sbx-probe ptrace 1')" EPERM
is "proc-visibility: /proc/<host pid> is ENOENT" "$(tsbx -- /sbx-probe open /proc/$host_pid/status)" ENOENT
like "proc-visibility: the sandbox sees only itself" "$(tsbx -- /sbx-probe pidns)" '^pid=1 ppid=0 sid=1 procs=1$'
like "proc-visibility: sbx (the supervisor) is not visible: no process is named sbx" \
        "$(tsbx -- /bin/sh -c 'cat /proc/[0-9]*/comm' | tr '\n' ' ')" '^((sh|dash|cat) )+$'
kill $host_pid; wait $host_pid 2>/dev/null

# --- namespaces
control "outside, clone(CLONE_NEWUSER) works" "$("$SBX_PROBE" userns)" OK
like "nested-userns: clone(CLONE_NEWUSER) is refused" "$(tsbx -- /sbx-probe userns)" '^(ENOSPC|EPERM)$'
is "nested-userns: unshare(2) is refused with EPERM" "$(tsbx -- /sbx-probe try-syscall unshare)" EPERM
is "nested-userns: unshare -U (the tool) fails" "$(tsbx -- /bin/sh -c 'unshare -U true 2>/dev/null; echo $?')" 1
is "setns: refused with EPERM" "$(tsbx -- /sbx-probe try-syscall setns)" EPERM
is "setns: the host's /proc/1/ns is not reachable (pid 1 is the sandbox)" \
        "$(tsbx -- /bin/sh -c 'nsenter -t 1 -m true 2>/dev/null; echo $?')" 1
if is_root || unshare -Urm true 2>/dev/null; then
        d=$(mktemp -d "$TMP/m.XXXXXX")
        control "mount(tmpfs) works where the caller has CAP_SYS_ADMIN (unshare -Urm)" \
                "$(unshare -Urm "$SBX_PROBE" mount-tmpfs "$d")" OK
else
        control "mount(tmpfs) in a user namespace" "" "" "unprivileged user namespaces are off"
fi
is "mount: mount(tmpfs) on /tmp is refused with EPERM" "$(tsbx -- /sbx-probe mount-tmpfs /tmp)" EPERM
is "umount: umount2(/workspace) is refused with EPERM (the lower mount would show)" "$(tsbx -- /sbx-probe umount /workspace)" EPERM
is "umount: umount2(/proc/sys) is refused with EPERM" "$(tsbx -- /sbx-probe umount /proc/sys)" EPERM
for sc in pivot_root chroot open_tree move_mount fsopen mount_setattr; do
        is "pivot-chroot-newmount: $sc is refused with EPERM" "$(tsbx -- /sbx-probe try-syscall $sc)" EPERM
done
if is_root; then
        control "outside (root), chroot(bad pointer) fails only on the pointer" "$("$SBX_PROBE" try-syscall chroot)" EFAULT
else
        control "outside, chroot" "" "" "needs CAP_SYS_CHROOT outside"
fi
is "chroot-escape: chroot . && cd ../../.. fails at chroot" \
        "$(tsbx -- /bin/sh -c 'cd /tmp && chroot . /bin/true 2>/dev/null; echo $?')" 125

# --- mount propagation, sandbox -> host
before=$(our_mounts)
tsbx --tmpfs /scratch -- /bin/sh -c 'sleep 1' & spid=$!
sleep 0.5
is "propagation-out: no sandbox mount appears on the host while it runs" "$(our_mounts)" "$before"
wait $spid
is "propagation-out: none after" "$(our_mounts)" "$before"

# --- mount propagation, host -> sandbox: a mount made under a bound dir after start
if is_root; then
        d=$(mktemp -d "$TMP/prop.XXXXXX")
        chmod 755 "$d"
        mkdir "$d/sub"
        tsbx --bind "$d:/data" -- /bin/sh -c 'i=0; while [ ! -e /data/go ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
                ls -A /data/sub; grep -c " /data/sub " /proc/self/mountinfo' > "$TMP/prop.out" & spid=$!
        sleep 0.7
        mount -t tmpfs sbx-prop-test "$d/sub"
        echo marker > "$d/sub/marker"
        touch "$d/go"
        wait $spid
        control "the host sees its new mount" "$(cat "$d/sub/marker")" marker
        is "propagation-in: a host mount made after start under a bind does not appear inside" "$(cat "$TMP/prop.out")" 0
        umount "$d/sub"
else
        skip "propagation-in: making a host mount needs root"
fi

# --- cgroups
is "cgroup-escape: there is no /sys/fs/cgroup to write cgroup.procs into" \
        "$(tsbx -- /sbx-probe write /sys/fs/cgroup/cgroup.procs 1)" ENOENT
is "cgroup-escape: the parent's cgroup.procs through /proc/self/cgroup's path" \
        "$(tsbx -- /bin/sh -c 'p=$(cut -d: -f3 /proc/self/cgroup | head -1); /sbx-probe write "/sys/fs/cgroup$p/../cgroup.procs" 1')" ENOENT
is "cgroup-escape: mounting cgroup2 is refused (mount EPERM)" "$(tsbx -- /sbx-probe try-syscall mount)" EPERM
like "cgroup-escape: /proc/self/cgroup shows a namespaced root" "$(tsbx -- /bin/cat /proc/self/cgroup)" '^0::/$'
# issue 16: on cgroup v1 the sandbox joins its cgroups itself, through the
# hierarchies' "tasks" files the launcher opened before clone3; none of those
# descriptors may reach the workload (with one it could move itself out).
fd_links='for f in /proc/$$/fd/*; do readlink "$f"; done'
if is_root && [ -f /sys/fs/cgroup/pids/tasks ]; then
        control "outside, a descriptor of a cgroup tasks file shows in /proc/<pid>/fd" \
                "$(sh -c "exec 9>>/sys/fs/cgroup/pids/tasks; $fd_links" | grep -c '^/sys/fs/cgroup/.*/tasks$')" 1
else
        control "a descriptor of a cgroup v1 tasks file outside" "" "" "needs root and a cgroup v1 pids hierarchy"
fi
is "cgroup-join-fds: no descriptor of a cgroup file is open in the sandbox's pid 1 (the shell)" \
        "$(tsbx -- /bin/sh -c "$fd_links" | grep -c -e cgroup -e tasks)" 0
if is_root && [ "$("$SBX" doctor --json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["cgroup"]["hierarchy"])' 2>/dev/null)" = v1 ]; then
        tsbx -- /bin/sh -c '/bin/sleep 30.16'$$' & wait' >/dev/null 2>&1 & run=$!
        pid=
        for i in $(seq 100); do pid=$(pgrep -f "^/bin/sleep 30\\.16$$\$" | head -1); [ -n "$pid" ] && break; sleep 0.05; done
        like "cgroup-join: what the sandbox forks is in the run's pids cgroup (host view)" \
                "$(grep ':pids:' /proc/$pid/cgroup 2>/dev/null)" ':pids:/.*sbx-run-[A-Za-z0-9]+$'
        like "cgroup-join: ... and in its freezer cgroup" \
                "$(grep ':freezer:' /proc/$pid/cgroup 2>/dev/null)" ':freezer:/.*sbx-run-[A-Za-z0-9]+$'
        is "cgroup-join: the sandbox's pids cgroup caps it (pids.max)" \
                "$(cat "/sys/fs/cgroup/pids$(grep ':pids:' /proc/$pid/cgroup | cut -d: -f3)/pids.max" 2>/dev/null)" 1024
        [ -n "$pid" ] && kill "$pid"
        wait $run 2>/dev/null
else
        skip "cgroup-join: the v1 self-join needs root on a cgroup v1 host"
fi

# --- /sys and /proc/sys
is "sys-write: /sys/kernel/uevent_helper is ENOENT (no /sys)" "$(tsbx -- /sbx-probe write /sys/kernel/uevent_helper /x)" ENOENT
is "procsys-write: /proc/sys/kernel/core_pattern is EROFS" "$(tsbx -- /sbx-probe write /proc/sys/kernel/core_pattern '|/x')" EROFS
is "procsys-write: /proc/sys/vm/drop_caches is EROFS" "$(tsbx -- /sbx-probe write /proc/sys/vm/drop_caches 3)" EROFS
if [ -e /proc/sysrq-trigger ]; then
        is "procsys-write: /proc/sysrq-trigger is EROFS" "$(tsbx -- /sbx-probe write /proc/sysrq-trigger h)" EROFS
else
        skip "no /proc/sysrq-trigger on this kernel"
fi
like "procsys-write: /proc/kcore is hidden" "$(tsbx -- /sbx-probe read /proc/kcore | head -c 10)" '^(OK|EACCES|EPERM|ENOENT|)$'

is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

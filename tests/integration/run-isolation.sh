#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx run: every isolation property checked from inside with sbx-probe, and
# where it makes sense the same probe outside, so a property that holds on
# the host anyway cannot pass for one sbx provides (issue 2).
. "$(dirname "$0")/lib.sh"

host_max_userns=$(cat /proc/sys/user/max_user_namespaces)
field() { printf '%s\n' "$1" | awk -v k="$2" '$1 == k { print $2 }'; }

# --- capabilities, no_new_privs, seccomp
inside=$(sbxp -- /sbx-probe caps)
outside=$("$SBX_PROBE" caps)
for k in CapEff CapPrm CapInh CapBnd CapAmb; do
        is "$k is empty inside" "$(field "$inside" $k)" 0000000000000000
done
is "NoNewPrivs is set inside" "$(field "$inside" NoNewPrivs)" 1
is "a seccomp filter is installed inside" "$(field "$inside" Seccomp)" 2
if [ "$(id -u)" = 0 ]; then
        unlike "outside (root), CapBnd is not empty" "$(field "$outside" CapBnd)" '^0+$'
else
        skip "outside capability check needs root (the unprivileged caller has none)"
fi
[ "$(field "$outside" NoNewPrivs)" = 0 ] && ok "outside, NoNewPrivs is not set" ||
        skip "the test runner itself runs with no_new_privs"
out=$(sbxp -u 1000:1000 -- /sbx-probe caps)
is "--user 1000:1000: CapEff is empty" "$(field "$out" CapEff)" 0000000000000000
is "--user 1000:1000: CapBnd is empty" "$(field "$out" CapBnd)" 0000000000000000

# --- seccomp in both directions: the same call with the same bad arguments
for pair in "mount EFAULT EPERM" "setns EBADF EPERM" "unshare EINVAL EPERM" "keyctl E EPERM" \
            "perf_event_open E EPERM" "userfaultfd E EPERM" "io_uring_setup E EPERM" "bpf E EPERM"; do
        set -- $pair
        in=$(sbxp -- /sbx-probe try-syscall "$1")
        is "seccomp: $1 is refused with EPERM inside" "$in" "$3"
        if [ "$2" != E ]; then
                out=$("$SBX_PROBE" try-syscall "$1")
                is "seccomp: $1 outside fails only on its bad arguments ($2)" "$out" "$2"
        fi
done
is "seccomp: allowed read(-1) fails with EBADF inside" "$(sbxp -- /sbx-probe try-syscall read)" EBADF
is "seccomp: allowed getcwd(bad pointer) fails with EFAULT inside" "$(sbxp -- /sbx-probe try-syscall getcwd)" EFAULT
is "seccomp: allowed close(-1) fails with EBADF inside" "$(sbxp -- /sbx-probe try-syscall close)" EBADF

# --- no nested user namespace, even through clone(CLONE_NEWUSER)
is "outside, clone(CLONE_NEWUSER) works" "$("$SBX_PROBE" userns)" OK
like "inside, clone(CLONE_NEWUSER) is refused (ENOSPC: limit 0; EPERM: seccomp)" "$(sbxp -- /sbx-probe userns)" '^(ENOSPC|EPERM)$'
is "the host's user.max_user_namespaces is untouched" "$(cat /proc/sys/user/max_user_namespaces)" "$host_max_userns"

# --- user namespace: sandbox uid 0 is never host uid 0
map=$(sbxp -- /sbx-probe uidmap)
unlike "no id map line maps 0 to host 0" "$map" '^ *0 +0 '
if [ "$(id -u)" = 0 ]; then
        like "as root, sandbox 0 maps onto a 65536-id subordinate range" "$(echo "$map" | head -1)" '^ *0 +[1-9][0-9]* +65536$'
else
        like "unprivileged, sandbox 0 is the caller" "$(echo "$map" | head -1)" "^ *0 +$(id -u) +1\$"
fi
out=$(sbxp -u 1000:1000 -- /bin/id)
is "--user 1000:1000 runs as that user" "$out" "uid=1000(sandbox) gid=1000(sandbox) groups=1000(sandbox)"
out=$("$SBX" run -- /bin/id -G)
unlike "no host supplementary group 0 leaks in as root" "$out" '(^| )0 .*0|65534'

# --- mounts
mi=$(sbxp -- /sbx-probe mounts)
rootopts=$(printf '%s\n' "$mi" | awk '$5 == "/" { print $6 }')
like "/ is read-only" "$rootopts" '^ro'
like "/usr is read-only" "$(printf '%s\n' "$mi" | awk '$5 == "/usr" { print $6 }')" '^ro'
like "/workspace is an overlay (userxattr)" "$(printf '%s\n' "$mi" | awk '$5 == "/workspace"')" 'overlay.*userxattr'
like "/proc/sys is read-only" "$(printf '%s\n' "$mi" | awk '$5 == "/proc/sys" { print $6 }')" '^ro'
unlike "there is no /sys" "$(printf '%s\n' "$mi" | awk '{ print $5 }')" '^/sys'
unlike "no host path of the state dir is visible" "$(printf '%s\n' "$mi" | awk '{ print $5 }')" 'run-'
is "write to /usr fails with EROFS" "$(sbxp -- /sbx-probe write /usr/sbx-test x)" EROFS
is "write to / fails with EROFS" "$(sbxp -- /sbx-probe write /sbx-test x)" EROFS
is "write to /etc fails with EROFS" "$(sbxp -- /sbx-probe write /etc/passwd x)" EROFS
is "write to /tmp works" "$(sbxp -- /sbx-probe write /tmp/x x)" OK
if [ -e /proc/sysrq-trigger ]; then
        is "write to /proc/sysrq-trigger fails with EROFS" "$(sbxp -- /sbx-probe write /proc/sysrq-trigger h)" EROFS
else
        skip "this kernel has no /proc/sysrq-trigger"
fi
is "/proc/kcore is masked (empty or absent)" "$(sbxp -- /bin/sh -c 'test -s /proc/kcore && echo visible || echo hidden')" hidden
is "/proc/keys is masked" "$(sbxp -- /bin/sh -c 'wc -c < /proc/keys')" 0
is "/proc/sys/kernel/hostname cannot be written" "$(sbxp -- /sbx-probe write /proc/sys/kernel/hostname x)" EROFS
is "/etc/shadow does not exist inside" "$(sbxp -- /sbx-probe open /etc/shadow)" ENOENT
is "/dev/null works" "$(sbxp -- /sbx-probe write /dev/null x)" OK
is "/dev has only the minimal nodes" "$("$SBX" run -- /bin/ls /dev | tr '\n' ' ')" \
        "fd full null ptmx pts random shm stderr stdin stdout tty urandom zero "
out=$("$SBX" run -- /bin/sh -c 'ls /dev | tr "\n" " "')
unlike "no host block devices in /dev" "$out" '(sd|vd|nvme|loop)[a-z0-9]'
is "/dev/shm is writable" "$(sbxp -- /sbx-probe write /dev/shm/x x)" OK
out=$("$SBX" run --tmpfs /scratch:size=1m -- /bin/sh -c 'head -c 2000000 /dev/zero > /scratch/f 2>&1; echo $?; ls /tmp 2>&1 | head -1')
like "--tmpfs size limit is enforced" "$(echo "$out" | head -1)" '^[1-9]'
like "--tmpfs replaces the default /tmp" "$out" 'No such file'

# propagation: a mount made inside does not reach the caller
# (lib.sh new_mounts: other jobs' mounts come and go; read once the command
# runs (its mounts all made), for up to 2 s of its 4.) Another job's mount
# made in that window and kept (a podman store's overlay) shows too: up to 3
# tries, each with a new snapshot and a new sandbox; a leak of sbx's shows in
# every one.
for try in 1 2 3; do
        mounts_snapshot "$TMP/mounts-before"
        "$SBX" run -- /bin/sh -c "sleep 4; : mnt-$$" & pid=$!
        for _ in $(seq 50); do pgrep -f "^/bin/sh -c sleep 4; : mnt-$$\$" >/dev/null && break; sleep 0.1; done
        new=$(new_mounts "$TMP/mounts-before" 10)
        wait $pid
        [ -z "$new" ] && break
        echo "# try $try of 3: new mounts while it ran: $(tr '\n' ' ' <<<"$new")"
done
is "no sandbox mount appears in the caller's namespace while it runs" "$new" ""

# --- network: only lo, up, nothing reachable
is "only lo, and it is up" "$(sbxp -- /sbx-probe ifaces)" "lo up"
outside=$("$SBX_PROBE" ifaces | wc -l)
[ "$outside" -gt 1 ] && ok "outside, the host has more interfaces than lo" || skip "the host has only lo"
is "connecting out fails with ENETUNREACH" "$(sbxp -- /sbx-probe connect 1.1.1.1 80)" ENETUNREACH
out=$(sbxp -- /bin/sh -c '/sbx-probe connect 127.0.0.1 9')
is "lo answers (connection refused, not unreachable)" "$out" ECONNREFUSED

# --- pid namespace
like "the command is pid 1 and alone" "$(sbxp -- /sbx-probe pidns)" '^pid=1 ppid=0 sid=1 procs=1$'
is "host processes are invisible" "$(sbxp -- /sbx-probe open /proc/$$/status)" ENOENT

# --- fds: nothing beyond stdio reaches the sandbox
exec 7</etc/hostname 8>"$TMP/fd8"
out=$(sbxp -- /sbx-probe fds | awk '{ print $1 }' | tr '\n' ' ')
is "only fds 0 1 2 reach the sandbox (7 and 8 were open)" "$out" "0 1 2 "
out=$("$SBX_PROBE" fds | awk '{ print $1 }' | tr '\n' ' ')
like "outside, the probe does see fds 7 and 8" "$out" '7 8'
exec 7<&- 8>&-

# --- uts, environment
is "default hostname" "$(sbxp -- /sbx-probe hostname)" sbx
is "--hostname" "$(sbxp --hostname box1 -- /sbx-probe hostname)" box1
like "/etc/hosts names the hostname" "$("$SBX" run --hostname box2 -- /bin/cat /etc/hosts)" 'box2'
export SBX_TEST_SECRET=leak
env_in=$(sbxp -e FOO=bar -e LANG=en_US.UTF-8 -- /sbx-probe env | sort | tr '\n' ' ')
is "clean environment: defaults plus --env only" "$env_in" \
        "FOO=bar HOME=/root LANG=en_US.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "
unset SBX_TEST_SECRET
is "--workdir" "$(sbxp -w /tmp -- /bin/pwd)" /tmp
is "--ulimit nofile=64" "$("$SBX" run --ulimit nofile=64 -- /bin/sh -c 'ulimit -n')" 64
is "--ulimit nofile=32:48 hard" "$("$SBX" run --ulimit nofile=32:48 -- /bin/sh -c 'ulimit -Hn')" 48
out=$("$SBX" run --ulimit nofile=2000000000 -- true 2>&1); st=$?
like "--ulimit above fs.nr_open: refused, naming the limit and the hard limit" "$st:$out" \
        '^[1-9][0-9]*:sbx run: --ulimit nofile=2000000000:2000000000: setrlimit above the hard limit \(hard limit [0-9]+\)'
is "a new session: the command leads it" "$("$SBX" run -- /bin/sh -c 'ps -o sid= -p 1 2>/dev/null | tr -d " " || echo 1')" 1

is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

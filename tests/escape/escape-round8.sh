#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 8: attacks no other file of the suite made, from
# inside `sbx run`, a persistent sandbox (`sbx create` + `sbx exec`, through
# init's exec service and by setns) and the docker front end (`docker
# create/start/exec`). Each blocked call is asserted with the errno only the
# restriction gives and, where one can be made, a control where the
# restriction does not apply; calls a sandbox may make are asserted to work.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws       # the sandboxes' workspaces go with the test
export XDG_DATA_HOME=$TMP/data          # so does the image store of the docker part
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
probe() { "$SBX_PROBE" "$@" </dev/null 2>&1; }
ALLOW=$TMP/allow-all.json               # a profile allowing every call: only sbx's always-on layer stays
printf '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[]}\n' > "$ALLOW"

# --- personality(): ADDR_NO_RANDOMIZE turns ASLR off for what the process
# execs next (an exploit's helper), READ_IMPLIES_EXEC makes every readable
# mapping executable. Docker's list: only the query and PER_LINUX(32) values.
control "outside, personality(ADDR_NO_RANDOMIZE) works" "$(probe personality 0x40000)" OK
is "personality-aslr-off: personality(ADDR_NO_RANDOMIZE) is refused with EPERM" \
        "$(tsbx -- /sbx-probe personality 0x40000 2>&1)" EPERM
is "personality-read-implies-exec: personality(READ_IMPLIES_EXEC) is refused with EPERM" \
        "$(tsbx -- /sbx-probe personality 0x400000 2>&1)" EPERM
is "personality: the query (0xffffffff) and PER_LINUX32 still work" \
        "$(tsbx -- /sbx-probe personality 0xffffffff 2>&1) $(tsbx -- /sbx-probe personality 8 2>&1)" "OK OK"

# --- prctl(PR_SET_MM): rewrite where the kernel thinks argv, the stack or
# the exe are (CRIU's restore); needs CAP_SYS_RESOURCE, which nobody keeps
out=$(probe prctl-mm)
if [ "$out" = OK ]; then
        control "outside (CAP_SYS_RESOURCE), PR_SET_MM of argv's start to its own value works" "$out" OK
else
        skip "control: PR_SET_MM outside needs CAP_SYS_RESOURCE (got $out)"
fi
is "prctl-set-mm: PR_SET_MM is refused with EPERM" "$(tsbx -- /sbx-probe prctl-mm 2>&1)" EPERM
is "prctl-set-mm: ... under a profile allowing every call too (no capability)" \
        "$(tsbx --seccomp-profile "$ALLOW" -- /sbx-probe prctl-mm 2>&1)" EPERM

# --- a time namespace: the clocks of CLOCK_MONOTONIC/BOOTTIME offset for the
# sandbox's children (timestamps in logs, timeouts of host-visible work)
if is_root; then
        control "outside (root), unshare(CLONE_NEWTIME) works" "$(probe unshare-time)" OK
else
        skip "control: unshare(CLONE_NEWTIME) outside needs root"
fi
is "time-namespace: unshare(CLONE_NEWTIME) is refused with EPERM" "$(tsbx -- /sbx-probe unshare-time 2>&1)" EPERM
is "time-namespace: ... under a profile allowing every call too (no CAP_SYS_ADMIN)" \
        "$(tsbx --seccomp-profile "$ALLOW" -- /sbx-probe unshare-time 2>&1)" EPERM

# --- syscall numbers no table knows: the filter must neither let them reach
# a handler nor kill the caller for them (the x32 range without its bit)
for nr in 1000 512 547; do
        is "syscall-unknown-$nr: ENOSYS inside, as outside ($(probe syscall-nr $nr))" \
                "$(tsbx -- /sbx-probe syscall-nr $nr 2>&1)" ENOSYS
done

# --- the kernel keyring: a key in the caller's session keyring (an ssh or
# kerberos secret) is not the sandbox's: keyctl is refused by the always-on
# layer, under any profile, and /proc/keys does not list it
keys() {
        probe key-session /bin/sh -c "
                $SBX_PROBE key-read \$SBX_KEY_ID
                timeout -k 5 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe -- /sbx-probe key-read \$SBX_KEY_ID
                timeout -k 5 60 $SBX run --seccomp-profile $ALLOW --ro-bind $SBX_PROBE:/sbx-probe -- /sbx-probe key-read \$SBX_KEY_ID
                timeout -k 5 60 $SBX run -- /bin/grep -c sbx-test-key /proc/keys
                timeout -k 5 60 $SBX create --state-dir $STATE --seccomp-profile $ALLOW --ro-bind $SBX_PROBE:/sbx-probe keys >/dev/null &&
                        timeout -k 5 60 $SBX exec --state-dir $STATE keys /sbx-probe key-read \$SBX_KEY_ID
                timeout -k 5 60 $SBX rm -f --state-dir $STATE keys >/dev/null" 2>&1 | tr '\n' ' '
}
out=$(keys)
control "the caller reads its own key" "${out%% *}" host-key-secret
if printf '%s' "$out" | grep -q 'Disk quota exceeded'; then
        # a caller with a session keyring of its own has the sandbox's new
        # one charged to the sandbox's host uid (one for every root
        # sandbox of the host: kernel.keys.maxkeys, maxbytes), see SECURITY.md
        skip "keyring-host-key: the sandboxes' host uid is over its key quota ($(grep "^ *$(tsbx -- /bin/sh -c 'cat /proc/self/uid_map' | awk '{print $2}'):" /proc/key-users 2>/dev/null | tr -s ' '))"
else
        is "keyring-host-key: sbx run, sbx run under a profile allowing every call, /proc/keys, sbx exec: EPERM EPERM 0 EPERM" \
                "${out#* }" "EPERM EPERM 0 EPERM "
fi

# --- two persistent sandboxes, A and B, and the host: SysV IPC, POSIX
# message queues, /dev/shm and abstract unix sockets are per sandbox (ipc,
# mount and network namespaces); an exec into A shares A's (the control)
K=$((0x5b000000 + $$ % 65536))
probe sysv rm $K >/dev/null; probe mq rm /sbx-r8-$$ >/dev/null
if sx create --ro-bind "$SBX_PROBE:/sbx-probe" ra >/dev/null && sx create --ro-bind "$SBX_PROBE:/sbx-probe" rb >/dev/null; then
        control "the host makes a SysV segment (key $K) and a message queue" \
                "$(probe sysv make $K) $(probe mq make /sbx-r8-$$)" "OK OK"
        is "ipc-host: neither is found from inside (ENOENT ENOENT)" \
                "$(sx exec ra -- /bin/sh -c "/sbx-probe sysv find $K; /sbx-probe mq find /sbx-r8-$$" | tr '\n' ' ')" "ENOENT ENOENT "
        probe sysv rm $K >/dev/null; probe mq rm /sbx-r8-$$ >/dev/null
        control "sandbox A makes its own (same key, same name)" \
                "$(sx exec ra -- /bin/sh -c "/sbx-probe sysv make $K; /sbx-probe mq make /sbx-r8-$$" | tr '\n' ' ')" "OK OK "
        control "... a later exec into A finds them" \
                "$(sx exec ra -- /bin/sh -c "/sbx-probe sysv find $K; /sbx-probe mq find /sbx-r8-$$" | tr '\n' ' ')" "OK OK "
        is "ipc-between-sandboxes: sandbox B finds neither (ENOENT ENOENT)" \
                "$(sx exec rb -- /bin/sh -c "/sbx-probe sysv find $K; /sbx-probe mq find /sbx-r8-$$" | tr '\n' ' ')" "ENOENT ENOENT "
        is "ipc-host: the host finds neither of A's (ENOENT ENOENT)" "$(probe sysv find $K) $(probe mq find /sbx-r8-$$)" "ENOENT ENOENT"
        # /dev/shm
        echo "host-shm-$$" > "/dev/shm/sbx-r8-$$" 2>/dev/null
        sx exec ra -- /bin/sh -c "echo a-shm > /dev/shm/r8-a"
        control "/dev/shm: a later exec into A reads its file" "$(sx exec ra -- /bin/cat /dev/shm/r8-a)" a-shm
        is "shm-between-sandboxes: B has no such file (ENOENT)" "$(sx exec rb -- /sbx-probe read /dev/shm/r8-a)" ENOENT
        if [ -e "/dev/shm/sbx-r8-$$" ]; then
                is "shm-host: the host's /dev/shm file is not in the sandbox's (ENOENT)" \
                        "$(sx exec ra -- /sbx-probe read /dev/shm/sbx-r8-$$)" ENOENT
                is "shm-host: nothing of A's reached the host's /dev/shm" "$(ls /dev/shm/r8-a 2>&1 >/dev/null | grep -c 'No such')" 1
                rm -f "/dev/shm/sbx-r8-$$"
        else
                skip "shm-host: the host has no writable /dev/shm"
        fi
        # abstract unix sockets: A listens
        sx exec ra -- /sbx-probe listen abstract "sbx-r8-$$" > "$TMP/listen.out" 2>&1 &
        lp=$!
        for _ in $(seq 50); do grep -q . "$TMP/listen.out" && break; sleep 0.1; done
        control "an abstract socket A listens on takes a connection from A" \
                "$(sx exec ra -- /sbx-probe connect-abstract "sbx-r8-$$")" OK
        is "abstract-between-sandboxes: from B it is ECONNREFUSED (B's own namespace)" \
                "$(sx exec rb -- /sbx-probe connect-abstract "sbx-r8-$$")" ECONNREFUSED
        is "abstract-host: from the host it is ECONNREFUSED" "$(probe connect-abstract "sbx-r8-$$")" ECONNREFUSED
        sx exec ra -- /sbx-probe kill -1 9 >/dev/null 2>&1
        wait $lp 2>/dev/null
        # signals: B cannot name A's processes; kill -1 in B leaves A running
        sx exec ra -- /bin/sleep 4$$ >/dev/null 2>&1 &
        sp=$!
        for _ in $(seq 50); do spid=$(pgrep -f "^/bin/sleep 4$$\$" | head -1); [ -n "$spid" ] && break; sleep 0.1; done
        is "signal-other-sandbox: B's kill(<A's sleep, host pid>, 0) is ESRCH" \
                "$(sx exec rb -- /sbx-probe kill "${spid:-1}" 0)" ESRCH
        sx exec rb -- /sbx-probe kill -1 9 >/dev/null 2>&1
        is "signal-other-sandbox: after kill(-1, SIGKILL) in B, A's command runs" "$(kill -0 "$spid" 2>&1 && echo alive)" alive
        # hostname: the sandbox's, never the host's, and it cannot change it
        unlike "uts: the sandbox's hostname is its own, not the host's" "$(sx exec ra -- /sbx-probe hostname)" "^$(hostname)\$"
        is "uts-sethostname: sethostname inside is EPERM (no CAP_SYS_ADMIN)" \
                "$(sx exec ra -- python3 -c "import socket
try:
    socket.sethostname('pwned-$$'); print('OK')
except OSError as e: print(e.errno == 1 and 'EPERM' or e)" 2>&1)" EPERM
        unlike "uts-sethostname: the host's name is unchanged" "$(hostname)" "pwned-$$"
        # ptrace/process_vm_readv of another exec's process: refused by the
        # default profile; init (not dumpable) refuses it even under a profile
        # allowing every call
        is "ptrace-other-exec: PTRACE_ATTACH of another sbx exec's process is EPERM" \
                "$(sx exec ra -- /bin/sh -c "/sbx-probe ptrace \$(pgrep -f '^/bin/sleep 4$$\$')")" EPERM
        is "process-vm-readv: refused with EPERM" "$(sx exec ra -- /sbx-probe try-syscall process_vm_readv)" EPERM
        kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
        # processes left running: a daemon (setsid, double fork, SIGHUP
        # ignored) in A does not outlive sbx rm
        sx exec ra -- /bin/sh -c "setsid sh -c 'trap \"\" HUP TERM; exec /bin/sleep 3$$' </dev/null >/dev/null 2>&1 &"
        sleep 0.5
        control "the daemon runs (host view)" "$(pgrep -fc "^/bin/sleep 3$$\$")" 1
        sx rm -f ra >/dev/null
        settle() { for _ in $(seq 50); do [ "$(pgrep -fc "^/bin/sleep 3$$\$")" = 0 ] && return; sleep 0.1; done; }
        settle
        is "outlive-rm: no process of A is left after sbx rm -f" "$(pgrep -fc "^/bin/sleep 3$$\$")" 0
        sx rm -f rb >/dev/null
else
        not_ok "create two persistent sandboxes"
fi

# --- a persistent sandbox under a profile allowing every call: its init is
# still out of reach (not dumpable, in no one's pid namespace but its own)
if sx create --seccomp-profile "$ALLOW" --ro-bind "$SBX_PROBE:/sbx-probe" ru >/dev/null; then
        is "init-any-profile: ptrace of init (pid 1) is EPERM (init is not dumpable)" \
                "$(sx exec ru -- /sbx-probe ptrace 1)" EPERM
        is "init-any-profile: pidfd_getfd of init's fds is EPERM" "$(sx exec ru -- /sbx-probe getfd 1)" EPERM
        is "init-any-profile: /proc/1/exe (sbx-init) cannot be opened for writing (EACCES)" \
                "$(sx exec ru -- /sbx-probe write-open /proc/1/exe)" EACCES
        is "init-any-profile: /proc/1/environ cannot be read (EACCES)" \
                "$(sx exec ru -- /sbx-probe read /proc/1/environ)" EACCES
        control "under that profile one exec's process ptraces another's (one trust domain)" \
                "$(sx exec ru -- /bin/sh -c '/bin/sleep 30 & /sbx-probe ptrace $!; kill $!')" OK
        sx rm -f ru >/dev/null
else
        not_ok "create a persistent sandbox with a profile allowing every call"
fi

# --- CVE-2019-5736 through sbx-init: a "#!/proc/self/exe" script run by
# `sbx exec` (init's exec service: init forks, the child execs it) runs the
# child's own exe, sbx-init, inside the sandbox, dumpable: a process of the
# sandbox then reaches its /proc/<pid>/exe. That was the host's sbx-init
# (rootless: a build or install of the caller's own, which the sandbox's
# root may write); init now runs from a sealed memfd copy.
INIT=${SBX_BUILD_ROOT:-}/runtime/sandbox/sbx-init
if [ ! -f "$INIT" ]; then
        skip "exe-shebang-init: no sbx-init in the build tree"
elif sx create --ro-bind "$SBX_PROBE:/sbx-probe" re >/dev/null; then
        sx exec re -- /bin/sh -c 'printf "#!/proc/self/exe\n" > /workspace/evil && chmod +x /workspace/evil'
        # grab_init PATTERN N: up to N execs of the script while the probe
        # stops each new process and opens its exe if it names PATTERN
        grab_init() {
                sx exec re -- /sbx-probe grab-exe 50 "$1" > "$TMP/grab.out" 2>&1 &
                local gp=$! i=0
                while ! grep -q ready "$TMP/grab.out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
                for _ in $(seq "$2"); do
                        grep -q GOT "$TMP/grab.out" && break
                        sx exec re -- /workspace/evil >/dev/null 2>&1
                done
                sx exec re -- /sbx-probe kill -1 15 >/dev/null
                wait $gp 2>/dev/null
                grep -v ready "$TMP/grab.out" | cut -d' ' -f1-2
        }
        control "the script runs sbx-init inside the sandbox" "$(sx exec re -- /workspace/evil 2>&1 | grep -c 'pid 1 of a persistent sandbox')" 1
        like "control: a process of the sandbox reaches the sbx-init it ran, the sealed copy (the race is won)" \
                "$(grab_init memfd:sbx-init 150)" "^GOT /memfd:sbx-init"
        is "exe-shebang-init: none reaches the host's sbx-init through /proc/<pid>/exe (40 runs)" \
                "$(grab_init "$(readlink -f "$INIT")" 40)" nothing
        if is_root; then
                out=$(sx exec -u 1 re -- /workspace/evil 2>&1); rc=$?
                is "exe-shebang-join: by setns (exec -u 1) the script is refused before the fork (127)" "$rc" 127
                like "exe-shebang-join: ... naming the interpreter it did not resolve" "$out" "interpreter '/proc/self/exe'"
        else
                skip "exe-shebang-join: another user needs a subordinate id range (root here)"
                skip "exe-shebang-join: the message"
        fi
        ipid=$(sx inspect re | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["initPid"])')
        is "exe-sealed-init: init's exe (host view) is sealed against writes, growth and shrinking" \
                "$(python3 -c 'import fcntl,os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); print(fcntl.fcntl(fd, 1034) & 0xe)' "/proc/$ipid/exe" 2>&1)" 14
        sx rm -f re >/dev/null
else
        not_ok "create a persistent sandbox for the sbx-init test"
fi

# --- descriptors and environment the caller holds: none reach the command,
# whichever way it enters (run, exec through init's service, exec by setns,
# docker exec); the caller has fd 7 on a host secret and fd 8 on a host dir
exec 7<"$SECRET_DIR/secret" 8<"$SECRET_DIR"
export SBX_R8_CALLER_SECRET=leak-$$
fds_env() { "$@" /bin/sh -c '/sbx-probe fds | cut -d" " -f1 | tr "\n" " "; /sbx-probe env | grep -c SBX_R8_CALLER'; }
is "fds-env (run): only 0 1 2, none of the caller's variables" "$(fds_env tsbx --)" "0 1 2 0"
if sx create --ro-bind "$SBX_PROBE:/sbx-probe" rf >/dev/null; then
        is "fds-env (exec, service): only 0 1 2, none of the caller's variables" "$(fds_env sx exec rf --)" "0 1 2 0"
        if is_root; then
                is "fds-env (exec -u 1, by setns): only 0 1 2, none of the caller's variables" \
                        "$(fds_env sx exec -u 1 rf --)" "0 1 2 0"
        else
                skip "fds-env (exec by setns): another user needs a subordinate id range (root here)"
        fi
        sx rm -f rf >/dev/null
else
        not_ok "create a persistent sandbox for the fd test"
fi
if busybox_image sbx-test/r8:v1; then
        if timeout 60 "$D" create --name r8-d-$$ sbx-test/r8:v1 sleep infinity >/dev/null 2>&1 &&
           timeout 60 "$D" start r8-d-$$ >/dev/null 2>&1; then
                is "fds-env (docker exec): only 0 1 2, none of the caller's variables" \
                        "$(fds_env timeout 60 "$D" exec r8-d-$$)" "0 1 2 0"
                is "docker-init: /proc/1/exe (sbx-init) cannot be opened for writing (EACCES)" \
                        "$(timeout 60 "$D" exec r8-d-$$ /sbx-probe write-open /proc/1/exe)" EACCES
                is "docker-keyring: keyctl is EPERM" "$(timeout 60 "$D" exec r8-d-$$ /sbx-probe try-syscall keyctl)" EPERM
                is "docker-cgroup-release-agent: no /sys (so no cgroup v1 release_agent or cgroup.procs)" \
                        "$(timeout 60 "$D" exec r8-d-$$ /sbx-probe read /sys/fs/cgroup/cgroup.procs)" ENOENT
                # ip_forward of the sandbox's own network namespace: a
                # write that truncates meets the read-only /proc/sys first
                # (EROFS), a plain O_WRONLY open the missing CAP_NET_ADMIN
                like "docker-procsys: /proc/sys (its own netns's ip_forward) is read-only" \
                        "$(timeout 60 "$D" exec r8-d-$$ /bin/sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' 2>&1)" "Read-only file system"
                is "docker-procsys: ... not writable without truncation (EACCES), /proc/sysrq-trigger absent" \
                        "$(timeout 60 "$D" exec r8-d-$$ /bin/sh -c '/sbx-probe write-open /proc/sys/net/ipv4/ip_forward; /sbx-probe write-open /proc/sysrq-trigger' | tr '\n' ' ')" "EACCES ENOENT "
                timeout 60 "$D" rm -f r8-d-$$ >/dev/null 2>&1
        else
                not_ok "docker create/start of a busybox image"
        fi
else
        skip "fds-env (docker exec): no static busybox or the test image did not import"
        skip "docker-init: no test image"
        skip "docker-keyring: no test image"
        skip "docker-cgroup-release-agent: no test image"
        skip "docker-procsys: no test image"
        skip "docker-procsys: no test image"
fi
exec 7<&- 8<&-
unset SBX_R8_CALLER_SECRET

# --- setgroups: the caller's supplementary groups (rootless: still checked
# by the kernel as overflow ids) cannot be dropped to escape a "group may not
# read" permission, nor others taken
is "setgroups: /proc/self/setgroups is deny" "$(tsbx -- /bin/cat /proc/self/setgroups)" deny
is "setgroups: setgroups([]) is EPERM" \
        "$(tsbx -- python3 -c 'import os
try:
    os.setgroups([]); print("OK")
except OSError as e: print(e.errno == 1 and "EPERM" or e)' 2>&1)" EPERM

is "no sandbox left" "$(sx ls -q 2>/dev/null)" ""
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

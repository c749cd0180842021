#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): privileged kernel interfaces, sockets, devices,
# setuid binaries, terminal injection.
. "$(dirname "$0")/lib.sh"

# --- privileged kernel interfaces: the call with arguments that make an
# allowed call fail harmlessly; inside, the filter's EPERM. Root outside gets
# the harmless errno (the control); unprivileged outside the kernel's own
# capability check may answer EPERM too, so the control is skipped there.
for pair in "keyctl EOPNOTSUPP" "add_key EFAULT" "request_key EFAULT" "bpf EINVAL" \
            "perf_event_open EFAULT" "userfaultfd EINVAL" "io_uring_setup EFAULT" \
            "init_module -" "finit_module -" "delete_module -" "kexec_load -" "kexec_file_load -" \
            "reboot EINVAL" "clock_settime EFAULT" "settimeofday EFAULT" "swapon EFAULT" "acct EFAULT" \
            "process_vm_readv EINVAL" "kcmp ESRCH" "quotactl EFAULT" "iopl -" "ioperm -" \
            "open_by_handle_at EFAULT" "name_to_handle_at EFAULT"; do
        set -- $pair
        out=$("$SBX_PROBE" try-syscall "$1")
        if [ "$2" = - ]; then
                # modules/kexec/iopl may be compiled out (ENOSYS) or capability-checked
                like "control: outside, $1 fails only for lack of support or privilege" "$out" '^(ENOSYS|EPERM|EFAULT|EBADF|EINVAL|ENOEXEC)$'
        elif is_root; then
                control "outside (root), $1 with bad arguments fails with $2" "$out" "$2"
        elif [ "$out" != EPERM ]; then
                control "outside (unprivileged), $1 with bad arguments fails with $2" "$out" "$2"
        else
                control "outside, $1" "" "" "unprivileged outside, the kernel may answer EPERM itself"
        fi
        is "kernel-$1: refused with EPERM inside" "$(tsbx -- /sbx-probe try-syscall "$1")" EPERM
done

# --- other syscall ABIs: the filter lists only the native one, so the i386
# ABI (int 0x80 from a 64-bit process, where the native rules do not apply)
# and x32 numbers kill the process (SIGSYS: 128+31)
if [ "$(uname -m)" = x86_64 ]; then
        out=$("$SBX_PROBE" int80 unshare-user 2>&1)
        if [ "$out" = OK ]; then
                control "outside, unshare(CLONE_NEWUSER) through int 0x80 works" "$out" OK
        else
                control "outside, int 0x80 unshare" "" "" "no i386 ABI or no user namespaces here ($out)"
        fi
        tsbx -- /sbx-probe int80 unshare-user >/dev/null 2>&1
        is "seccomp-i386-int80: unshare(CLONE_NEWUSER) by int 0x80 is killed with SIGSYS" "$?" 159
        tsbx -- /sbx-probe x32 getpid >/dev/null 2>&1
        is "seccomp-x32: an x32 syscall number is killed with SIGSYS" "$?" 159
        control "the same process's native getpid works" "$(tsbx -- /sbx-probe pidns | cut -d' ' -f1)" pid=1
else
        skip "seccomp-i386-int80/x32: not x86_64"
fi

# --- syscalls newer than libseccomp: no profile can name them, so under a
# user's allow-by-default profile the always-on layer answers ENOSYS (libc
# falls back) and EPERM for the mount API's open_tree_attr; known syscalls
# (futex_requeue, libseccomp's newest) still reach the kernel. Under the
# default profile its own ENOSYS answers, as before.
echo '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[]}' > "$TMP/allow-all.json"
for trio in "statmount EFAULT ENOSYS" "open_tree_attr EFAULT EPERM" "file_getattr EINVAL ENOSYS"; do
        set -- $trio
        out=$("$SBX_PROBE" try-syscall "$1")
        if [ "$out" = ENOSYS ]; then
                control "outside, $1" "" "" "kernel $(uname -r) has no $1"
        else
                control "outside, $1 with bad arguments fails with $2" "$out" "$2"
        fi
        is "seccomp-new-$1: under an allow-by-default profile, $3" \
                "$(tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe try-syscall "$1")" "$3"
        is "seccomp-new-$1-default: under the default profile, ENOSYS" "$(tsbx -- /sbx-probe try-syscall "$1")" ENOSYS
done
control "under that profile, futex_requeue (the newest syscall libseccomp knows) reaches the kernel (EINVAL, as outside)" \
        "$(tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe try-syscall futex_requeue)" \
        "$("$SBX_PROBE" try-syscall futex_requeue | sed 's/^ENOSYS$/kernel-without-futex_requeue/')"
is "seccomp-new-known-mount-api: ... while open_tree keeps the layer's EPERM" \
        "$(tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe try-syscall open_tree)" EPERM
if [ "$(uname -m)" = x86_64 ]; then
        tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe x32 getpid >/dev/null 2>&1
        is "seccomp-new-x32: under that profile, x32 numbers are still killed with SIGSYS" "$?" 159
fi

# --- memfd_secret: its pages leave the kernel's direct map (split for good,
# host-wide) and block the host's hibernation; Docker's default profile does
# not list it. Refused by the default profile and by the always-on layer
# under a profile that allows everything; memfd_create goes through.
out=$("$SBX_PROBE" try-syscall memfd_secret)
if [ "$out" = ENOSYS ]; then
        control "outside, memfd_secret" "" "" "kernel $(uname -r) has no secretmem (or secretmem.enable=0)"
else
        control "outside, memfd_secret with bad flags fails with EINVAL" "$out" EINVAL
fi
is "kernel-memfd_secret: refused with EPERM inside (default profile)" "$(tsbx -- /sbx-probe try-syscall memfd_secret)" EPERM
is "kernel-memfd_secret-any-profile: refused with EPERM under an allow-by-default profile (the always-on layer)" \
        "$(tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe try-syscall memfd_secret)" EPERM
control "inside, memfd_create reaches the kernel (EFAULT, as outside) under both profiles" \
        "$("$SBX_PROBE" try-syscall memfd_create):$(tsbx -- /sbx-probe try-syscall memfd_create):$(tsbx --seccomp-profile "$TMP/allow-all.json" -- /sbx-probe try-syscall memfd_create)" \
        EFAULT:EFAULT:EFAULT

# --- sockets: raw, packet, vsock refused; netlink opens but cannot change anything
for fam in raw packet vsock; do
        if is_root; then
                control "outside (root), a $fam socket opens" "$("$SBX_PROBE" socket $fam)" OK
        else
                control "outside, $fam socket" "" "" "needs CAP_NET_RAW outside"
        fi
        is "socket-$fam: refused with EPERM" "$(tsbx -- /sbx-probe socket $fam)" EPERM
done
control "inside, ordinary inet and unix sockets open" "$(tsbx -- /sbx-probe socket inet)$(tsbx -- /sbx-probe socket unix)" OKOK
# AF_VSOCK is confined by no network namespace: a profile that admits every
# family (docker's seccompProfile in openclaw.json, --seccomp-profile) let a
# --network none sandbox talk to the hypervisor. The always-on layer refuses it.
python3 - "$SBX_SOURCE_ROOT/seccomp-profiles/default.json" > "$TMP/allsock.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
d["syscalls"] = [g for g in d["syscalls"] if g["names"] != ["socket"]]
d["syscalls"].append({"names": ["socket"], "action": "SCMP_ACT_ALLOW"})
json.dump(d, sys.stdout)
P
if [ "$("$SBX_PROBE" socket vsock)" = OK ]; then
        is "socket-vsock-any-profile: under a profile admitting every family, AF_VSOCK is refused (EAFNOSUPPORT)" \
                "$(tsbx --seccomp-profile "$TMP/allsock.json" -- /sbx-probe socket vsock)" EAFNOSUPPORT
        control "... while that profile's other families open (netlink)" \
                "$(tsbx --seccomp-profile "$TMP/allsock.json" -- /sbx-probe socket netlink)" OK
else
        skip "socket-vsock-any-profile: no AF_VSOCK on this host"
fi
if command -v ip >/dev/null; then
        is "socket-netlink: changing a link through rtnetlink is refused (no CAP_NET_ADMIN)" \
                "$("$SBX" run -- /bin/sh -c 'ip link set lo down 2>&1 | grep -c "Operation not permitted"')" 1
        is "socket-netlink: adding a link is refused" \
                "$("$SBX" run -- /bin/sh -c 'ip link add sbx0 type dummy 2>&1 | grep -c "Operation not permitted"')" 1
else
        skip "no ip(8) on this host"
fi

# --- devices
is "mknod: a char device node is refused with EPERM" "$(tsbx -- /sbx-probe mknod /tmp/null)" EPERM
is "mknod: in the workspace too" "$(tsbx -- /sbx-probe mknod /workspace/null)" EPERM
is "device-host-disk: /dev/vda-like nodes are absent (ENOENT)" "$(tsbx -- /sbx-probe open /dev/vda)$(tsbx -- /sbx-probe open /dev/sda)" ENOENTENOENT
is "device-host-mem: /dev/mem, /dev/kmsg, /dev/console absent" \
        "$(for d in mem kmsg console; do tsbx -- /sbx-probe open /dev/$d; done | tr '\n' ' ')" "ENOENT ENOENT ENOENT "
if is_root; then
        ws="$TMP/dev"
        mkdir -m 755 "$ws"
        mknod -m 666 "$ws/null" c 1 3
        control "outside, the planted device node opens for writing" "$("$SBX_PROBE" write-open "$ws/null")" OK
        for m in none ro rw; do
                is "device-planted ($m): a device node in the workspace cannot be opened (nodev): EACCES" \
                        "$(tsbx --workspace "$ws" --workspace-access $m -- /sbx-probe write-open /workspace/null)" EACCES
        done
else
        skip "device-planted: making a device node needs root"
fi

# --- setuid binaries: no_new_privs and nosuid mounts
rootfs="$TMP/rootfs"
mkdir -p "$rootfs/bin" "$rootfs/etc"
cp "$SBX_PROBE" "$rootfs/bin/probe"
cp "$SBX_PROBE" "$rootfs/bin/suid"
chmod 4755 "$rootfs/bin/suid"
if is_root; then
        cp "$SBX_PROBE" "$TMP/suid-nobody"
        chown 65534 "$TMP/suid-nobody"
        chmod 4755 "$TMP/suid-nobody"
        control "outside, a setuid binary does change the euid" \
                "$(setpriv --reuid 1000 --regid 1000 --clear-groups "$TMP/suid-nobody" ids)" \
                "ruid=1000 euid=65534 suid=65534 rgid=1000 egid=1000 sgid=1000"
else
        control "outside, setuid" "" "" "needs root to make a setuid binary of another user"
fi
is "setuid-in-image: a setuid-root binary of the image runs with the caller's ids" \
        "$(timeout 60 "$SBX" run --rootfs "$rootfs" -u 1000:1000 -- /bin/suid ids)" \
        "ruid=1000 euid=1000 suid=1000 rgid=1000 egid=1000 sgid=1000"
ws="$TMP/ws"
mkdir -m 755 "$ws"
cp "$SBX_PROBE" "$ws/suid"
chmod 4755 "$ws/suid"
for m in none ro rw; do
        is "setuid-in-workspace ($m): runs with the caller's ids" \
                "$(tsbx --workspace "$ws" --workspace-access $m -u 1000:1000 -- /workspace/suid ids)" \
                "ruid=1000 euid=1000 suid=1000 rgid=1000 egid=1000 sgid=1000"
done
is "setuid: NoNewPrivs is set for the workload" "$(tsbx -- /sbx-probe caps | awk '$1 == "NoNewPrivs" { print $2 }')" 1

# --- terminal injection (TIOCSTI) on the caller's tty: a pty from script(1)
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
        control "outside, TIOCSTI on the controlling tty works" \
                "$(pty_word "$SBX_PROBE tiocsti")" OK
        is "tiocsti (--no-tty, the caller's tty inherited): refused with EPERM" \
                "$(pty_word "timeout --foreground 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe --no-tty -- /sbx-probe tiocsti")" EPERM
        is "tiocsti (--tty, sbx's own pty): refused with EPERM" \
                "$(pty_word "timeout --foreground 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe --tty -- /sbx-probe tiocsti")" EPERM
        # TIOCSETD: N_NULL on the caller's terminal left the operator's shell
        # with no input or output once sbx returned (the probe asks for
        # N_TTY, which the terminal has: allowed, it changes nothing)
        control "outside, TIOCSETD on the controlling tty works" \
                "$(pty_word "$SBX_PROBE tiocsetd")" OK
        is "tiocsetd (--no-tty, the caller's tty inherited): refused with EPERM" \
                "$(pty_word "timeout --foreground 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe --no-tty -- /sbx-probe tiocsetd")" EPERM
        is "tiocsetd (--tty, sbx's own pty): refused with EPERM" \
                "$(pty_word "timeout --foreground 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe --tty -- /sbx-probe tiocsetd")" EPERM
        # TIOCLINUX (0x541c): on a virtual console subcode 3 pastes the
        # console's selection as input (the console's TIOCSTI); on a pty the
        # kernel answers ENOTTY, the filter refuses it before the tty does
        control "outside, TIOCLINUX on a pty reaches the tty layer (ENOTTY, not a console)" \
                "$(pty_word "$SBX_PROBE tioclinux")" ENOTTY
        for m in --no-tty --tty "--no-tty --seccomp-profile $TMP/allow-all.json"; do
                is "tioclinux (${m/$TMP\//}): refused with EPERM" \
                        "$(pty_word "timeout --foreground 60 $SBX run --ro-bind $SBX_PROBE:/sbx-probe $m -- /sbx-probe tioclinux")" EPERM
        done
        # the modes a command sets on the caller's terminal (--no-tty passes
        # it) stayed the operator's after sbx returned: echo off, no
        # canonical input. sbx puts them back.
        modes='stty -a | grep -o -e " -\?echo " -e " -\?icanon " | tr -d " \n"'
        control "outside, modes a program sets stay on the terminal" \
                "$(script -qec "stty -echo -icanon; $modes" /dev/null </dev/null | tr -d '\r')" "-icanon-echo"
        is "tty-modes-restored: after sbx run --no-tty, the modes its command set are undone" \
                "$(script -qec "timeout --foreground 60 $SBX run --no-tty -- stty -echo -icanon; $modes" /dev/null </dev/null | tr -d '\r')" "icanonecho"
        # Exclusive mode and stopped output are no modes: set by the command
        # on the terminal it was passed (echo | sbx run: stdout), they stayed
        # after sbx returned (every later open of the terminal by a process
        # without CAP_SYS_ADMIN, an ssh or sudo prompt, got EBUSY; the shell
        # printed nothing until ^Q). tty.py: excl-on | excl | flow-off | flow-on
        cat > "$TMP/tty.py" <<'PYEOF'
import fcntl, struct, sys, termios
fd, what = 1, sys.argv[1]
if what == "excl-on": fcntl.ioctl(fd, termios.TIOCEXCL); fcntl.ioctl(fd, termios.TCXONC, termios.TCOOFF)
elif what == "excl": open(sys.argv[2], "w").write("excl=%d" % struct.unpack("i", fcntl.ioctl(fd, 0x80045440, bytes(4)))[0])
elif what == "flow-on": fcntl.ioctl(fd, termios.TCXONC, termios.TCOON); fcntl.ioctl(fd, termios.TIOCNXCL)
PYEOF
        # after the command: exclusive mode (into a file), whether output
        # still reaches the terminal within 3 s (rc 0, or 124), then undo
        after="python3 $TMP/tty.py excl $TMP/tty.excl; timeout 3 sh -c 'echo marker'; echo \$? > $TMP/tty.rc; python3 $TMP/tty.py flow-on"
        rm -f "$TMP/tty.excl" "$TMP/tty.rc"
        timeout 60 script -qec "python3 $TMP/tty.py excl-on; $after" /dev/null </dev/null >/dev/null
        control "outside, exclusive mode and stopped output stay on the terminal" \
                "$(cat "$TMP/tty.excl" "$TMP/tty.rc" 2>&1 | tr '\n' ' ')" "excl=1124 "
        rm -f "$TMP/tty.excl" "$TMP/tty.rc"
        timeout 60 script -qec "echo | timeout --foreground 60 $SBX run --ro-bind $TMP/tty.py:/tty.py -- python3 /tty.py excl-on; $after" /dev/null </dev/null >/dev/null
        is "tty-excl-flow-restored: after echo | sbx run, the terminal is not exclusive and prints again" \
                "$(cat "$TMP/tty.excl" "$TMP/tty.rc" 2>&1 | tr '\n' ' ')" "excl=00 "
        is "tiocsti: the command runs in its own session (no controlling tty shared)" \
                "$(script -qec "timeout --foreground 60 $SBX run --no-tty -- /bin/sh -c 'ps -o tty= -p \$\$'" /dev/null | tr -d '\r ' | tail -1)" "?"
else
        skip "tiocsti: script(1) cannot make a pty here"
fi

is "no run directory left in the state dir" "$(leftovers)" ""
# A piped kernel.core_pattern (apport, systemd-coredump) runs its helper as
# host root for every crash in a sandbox, whatever RLIMIT_CORE is, except at
# exactly 1 (the kernel's recursion guard, also below a file dump's
# minimum). A sandbox's RLIMIT_CORE is 1:1, and a change of it (0 would open
# the pipe again) is answered with success and no effect.
core_py='import resource as r
r.setrlimit(r.RLIMIT_CORE, (0, 0)); a = r.getrlimit(r.RLIMIT_CORE)
r.setrlimit(r.RLIMIT_CORE, (r.RLIM_INFINITY, r.RLIM_INFINITY)); b = r.getrlimit(r.RLIMIT_CORE)
r.prlimit(0, r.RLIMIT_CORE, (0, 0)); print(a, b, r.prlimit(0, r.RLIMIT_CORE))'
is "core-helper-limit: RLIMIT_CORE is 1:1 and stays 1 after setrlimit to 0 or unlimited, and prlimit" \
        "$(tsbx -- python3 -c "$core_py" 2>&1)" "(1, 1) (1, 1) (1, 1)"
control "core-helper-limit: other limits still change (nofile down to 64)" \
        "$(tsbx -- python3 -c 'import resource as r; r.setrlimit(r.RLIMIT_NOFILE, (64, 64)); print(r.getrlimit(r.RLIMIT_NOFILE))' 2>&1)" "(64, 64)"
pattern=$(cat /proc/sys/kernel/core_pattern)
if [ "${pattern#|}" = "$pattern" ] && [ "${pattern#/}" = "$pattern" ]; then
        # a relative file pattern: the dump lands in the crashing process's cwd
        crash='cd /workspace && ulimit -c unlimited 2>/dev/null; sh -c "kill -SEGV \$\$"; ls /workspace | grep -c "^core" || true'
        mkdir -p "$TMP/core-ws"
        control "core-dump: with --ulimit core=unlimited the kernel dumps a crash (the dump the limit stops)" \
                "$(timeout -k 5 60 "$SBX" run --workspace "$TMP/core-ws" --ulimit core=unlimited -- /bin/sh -c "$crash" 2>/dev/null | tail -1)" 1
        is "core-dump: by default no dump, even after ulimit -c unlimited inside" \
                "$(timeout -k 5 60 "$SBX" run --workspace "$TMP/core-ws" -- /bin/sh -c "$crash" 2>/dev/null | tail -1)" 0
else
        skip "core-dump: core_pattern '$pattern' is not a relative file name"
        skip "core-dump: core_pattern '$pattern' is not a relative file name"
fi

done_testing

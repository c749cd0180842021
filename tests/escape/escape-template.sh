#!/bin/bash
# SPDX-License-Identifier: MIT
# Template holders (issue 16, runtime/launch/template.c): a sandbox run from a
# template cannot see, signal or enter its holder, cannot make the shared
# read-only root writable (every copied mount is locked in its user
# namespace), cannot unmount its way to the holder's procfs to any effect,
# and two sandboxes of one template cannot reach each other through it. Each
# attack from inside, with a control where the same call is allowed; then
# the same attacks by a process that HAS every capability in a nested user
# namespace of the template (template-caps.py), which the workload never has.
. "$(dirname "$0")/lib.sh"

tdir() { echo "$(state_base)/templates"; }
holder_pid() { head -1 "$(tdir)"/*/holder 2>/dev/null | cut -d' ' -f1; }

# From inside, without the probe (a bind of it would keep a rootless run
# off the template): python3 of the host's /usr, errno names.
py() {
        "$SBX" run -- /usr/bin/python3 -c "import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def r(x): print('OK' if x >= 0 else errno.errorcode[ctypes.get_errno()])
def t(f):
    try: f(); print('OK')
    except OSError as e: print(errno.errorcode[e.errno])
$1" 2>&1
}

"$SBX" rm -f --all >/dev/null 2>&1
"$SBX" run -- /bin/true
h=$(holder_pid)
if [ -n "$h" ] && [ "$(cat "/proc/$h/comm" 2>/dev/null)" = sbx-template ]; then ok "a run made a template holder"
else not_ok "a run made a template holder"; done_testing; fi

# --- seen and signalled from inside
control "the holder is visible on the host" "$(cat "/proc/$h/comm")" sbx-template
is "no process of the sandbox's /proc is the holder" \
        "$("$SBX" run -- /bin/sh -c 'cat /proc/[0-9]*/comm 2>/dev/null' | grep -c sbx-template || true)" 0
is "the holder's host pid is no process in the sandbox" "$(py "t(lambda: os.stat('/proc/$h'))")" ENOENT
control "kill -0 of the holder works from the host" "$(kill -0 "$h" 2>&1 && echo OK)" OK
is "kill of the holder's host pid from inside: no such process" "$(py "r(libc.kill($h, 9))")" ESRCH
is "pidfd_open of the holder's host pid from inside: no such process" "$(py "t(lambda: os.pidfd_open($h))")" ESRCH
like "ptrace of the holder's host pid from inside" "$(py "r(libc.ptrace(16, $h, None, None))")" "^(EPERM|ESRCH)$"
if [ "$(cat "/proc/$h/comm" 2>/dev/null)" = sbx-template ]; then ok "the holder still runs"; else not_ok "the holder still runs"; fi

# --- the shared read-only root, from inside (no capabilities)
is "remount of / read-write from inside" "$(py "r(libc.mount(None, b'/', None, 32 | 4096, None))")" EPERM
is "umount of /proc from inside" "$(py "r(libc.umount2(b'/proc', 2))")" EPERM
is "umount of /usr from inside" "$(py "r(libc.umount2(b'/usr', 2))")" EPERM
is "mount over / from inside" "$(py "r(libc.mount(b'none', b'/', b'tmpfs', 0, None))")" EPERM
is "write to the template's root" "$(py "t(lambda: os.mkdir('/planted'))")" EROFS
is "write to the template's /etc" "$(py "t(lambda: open('/etc/passwd', 'a'))")" EROFS
is "chmod of the template's /etc/passwd" "$(py "t(lambda: os.chmod('/etc/passwd', 0o777))")" EROFS
control "the sandbox's own /tmp is writable" "$(py "t(lambda: os.mkdir('/tmp/mine'))")" OK

# --- two sandboxes of one template
"$SBX" run -- /bin/sh -c 'echo a > /tmp/a; echo a > /workspace/a; echo a > /dev/shm/a; sleep 1.5' &
sleep 0.5
is "another sandbox of the template sees none of the first one's files" \
        "$("$SBX" run -- /bin/sh -c 'ls /tmp/a /workspace/a /dev/shm/a 2>/dev/null | wc -l')" 0
wait
is "both ran from the same holder" "$(holder_pid)" "$h"

# --- with every capability in a nested user namespace of the template
uid=$(awk '/^Uid:/ {print $2}' "/proc/$h/status")
gid=$(awk '/^Gid:/ {print $2}' "/proc/$h/status")
caps=$(python3 "$(dirname "$0")/template-caps.py" "$h" "$uid" "$gid" 2>&1)
r() { echo "$caps" | awk -v k="$1" '$1 == k {print $2}'; }
control "capabilities: a read-only tmpfs of its own is made" "$(r control-tmpfs-ro)" OK
control "capabilities: ... and remounted read-write" "$(r control-remount-rw)" OK
is "capabilities: remount of the template's / read-write (locked)" "$(r remount-root-rw)" EPERM
is "capabilities: remount of /usr read-write (locked)" "$(r remount-usr-rw)" EPERM
is "capabilities: umount of /usr (locked)" "$(r umount-usr)" EINVAL
is "capabilities: umount of the template's procfs (locked)" "$(r umount-template-proc)" EINVAL
is "capabilities: write to the template's root" "$(r write-root)" EROFS
is "capabilities: write to the template's /etc/passwd" "$(r write-etc)" EROFS
control "capabilities: its own procfs over the template's is mounted and unmounted" \
        "$(r mount-own-proc) $(r umount-own-proc)" "OK OK"
is "capabilities: what is beneath shows the holder as pid 1" "$(r revealed-pid1)" OK:sbx-template
is "capabilities: the holder's environment (not dumpable)" "$(r holder-environ)" EACCES
is "capabilities: the holder's memory" "$(r holder-mem)" EACCES
is "capabilities: the holder's descriptors" "$(r holder-fds)" EACCES
is "capabilities: the holder's root" "$(r holder-root)" EACCES
is "capabilities: ptrace of the holder" "$(r holder-ptrace)" EPERM

"$SBX" rm -f --all >/dev/null
for i in $(seq 50); do grep -q '^State:.*[RSDT]' "/proc/$h/status" 2>/dev/null || break; sleep 0.02; done
is "rm -f --all: no holder left" "$(grep -c '^State:.*[RSDT]' "/proc/$h/status" 2>/dev/null; ls -A "$(state_base)" | grep -c templates)" "0
0"
done_testing

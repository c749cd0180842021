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
. "$(dirname "$0")/template-lib.sh"
# Templates are used by default as root, rootless only on a host with many
# threads (mount.c, SBX_TEMPLATE_THREADS); these tests always want them.
export SBX_TEMPLATE=1
# and they need overlayfs layers on a detached mount (mount.c
# kernel_overlay_takes_detached_layers: Linux 6.15 on)
case $(uname -r) in
[0-5].* | 6.[0-9].* | 6.1[0-4].*)
        skip "template holders need Linux >= 6.15 (overlayfs layers on a detached mount); kernel $(uname -r) builds each run's root"
        done_testing ;;
esac

tdir() { echo "$(state_base)/templates"; }
holder_pid() { head -1 "$(tdir)"/*/holder 2>/dev/null | cut -d' ' -f1; }

# From inside, without the probe (a bind of it would keep a rootless run
# off the template): python3 of the host's /usr, errno names.
py() {
        "$SBX" run -- /usr/bin/python3 -c "$PY_PROBE
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

# --- root (session 10): no spawner. The holder has no user namespace of its
# own; sbx enters the holder's mount namespace for its clone and comes back
# (its own namespace, root and cwd); a failed return is fatal.
held_in_templates() {     # processes in any recorded holder's mount namespace, the holders aside
        local rec n=0
        for rec in "$(tdir)"/*/holder; do
                [ -f "$rec" ] || continue
                n=$((n + $(in_ns "$(head -1 "$rec" | cut -d' ' -f1)")))
        done
        echo $n
}
if is_root; then
        is "root: the holder has no user namespace of its own" \
                "$(readlink "/proc/$h/ns/user")" "$(readlink /proc/self/ns/user)"
        control "root: the holder has a mount namespace of its own" \
                "$([ "$(readlink "/proc/$h/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] && echo own)" own
        mkdir -p "$TMP/cwd here"
        (cd "$TMP/cwd here" && exec "$SBX" run -- /bin/sh -c 'echo up; exec sleep 3') > "$TMP/up" 2>&1 & pid=$!
        for i in $(seq 100); do grep -q up "$TMP/up" && break; sleep 0.05; done
        kid=
        for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do       # the sandbox: a pid namespace of its own
                [ "$(readlink "/proc/$c/ns/pid")" != "$(readlink /proc/self/ns/pid)" ] && kid=$c
        done
        is "root: while its sandbox runs, sbx is in its own mount namespace" \
                "$(readlink "/proc/$pid/ns/mnt")" "$(readlink /proc/self/ns/mnt)"
        is "root: ... with its own root" "$(readlink "/proc/$pid/root")" /
        is "root: ... and its own cwd" "$(readlink "/proc/$pid/cwd")" "$TMP/cwd here"
        control "root: the sandbox has a mount namespace of its own" \
                "$([ -n "$kid" ] && [ "$(readlink "/proc/$kid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] &&
                   [ "$(readlink "/proc/$kid/ns/mnt")" != "$(readlink "/proc/$h/ns/mnt")" ] && echo own)" own
        is "root: nothing but the holder is in its mount namespace" "$(in_ns "$h")" 0
        wait $pid
        # the return fails (fchdir refused after the setns back): fatal, the sandbox killed
        out=$("$SBX_DENY_SYSCALLS" fchdir "$SBX" run -- /bin/sh -c "exec /bin/sh -c 'sleep 5; :' sbx-tmpl-back-$$" 2>&1); rc=$?
        is "root: a failed return to sbx's own mount namespace is fatal (125)" "$rc" 125
        like "... and says so" "$out" "cannot return to the launcher's mount namespace"
        sleep 0.3
        is "... no sandbox survives" "$(pgrep -fc "sbx-tmpl-back-$$" || true)" 0
        is "... nothing is left in the holder's mount namespace" "$(in_ns "$h")" 0
        # setns refused: the run builds its root (one procfs on /proc), the same isolation
        out=$("$SBX_DENY_SYSCALLS" setns "$SBX" run -- /bin/sh -c 'grep -c " /proc [^ ]* - proc " /proc/self/mountinfo; grep ^CapEff /proc/self/status' 2>&1)
        is "root: without setns, a run builds its own root" "$out" "1
CapEff:	0000000000000000"
        control "root: from the template, /proc is over the holder's procfs" \
                "$("$SBX" run -- grep -c " /proc [^ ]* - proc " /proc/self/mountinfo)" 2
        is "... the next run works" "$("$SBX" run -- /bin/echo next)" next
else
        skip "root: sbx enters the holder's mount namespace itself (not root: a spawner does)"
fi

# --- crashes: kill -9 of sbx (and with it its spawner and the holder's
# starter: the whole process group) while a template is built, of the holder
# while it builds, and of sbx alone while a run starts: every next run works,
# no holder runs without a record, no sandbox survives.
marker="sbx-tmpl-k9-$$"
live() { grep -q '^State:.*[RSDT]' "/proc/$1/status" 2>/dev/null; }
pre=" $(pgrep -x sbx-template -u "$uid" | tr '\n' ' ') "
# a holder watches its template dir (inotify): "ino:HEX sdev:HEX" as the
# kernel prints it in fdinfo, so holders of other state roots (other users'
# runs on this host) are not counted as this test's
watch_id() { printf 'ino:%x sdev:%x' "$(stat -c %i "$1")" $(( ($(stat -c %Hd "$1") << 20) | $(stat -c %Ld "$1") )); }
orphans() {     # live holders made here that no record names
        local p d w n=0 ours
        ours=" $(for d in "$(tdir)"/*/; do [ -d "$d" ] && watch_id "$d" | tr ' ' '/'; echo; done | tr '\n' ' ') "
        for p in $(pgrep -x sbx-template -u "$uid"); do
                live "$p" || continue
                case "$pre" in *" $p "*) continue ;; esac
                w=$(grep -ho 'ino:[0-9a-f]* sdev:[0-9a-f]*' /proc/"$p"/fdinfo/* 2>/dev/null | head -n1 | tr ' ' '/')
                case "$ours" in *" $w "*) ;; *) continue ;; esac
                grep -qs "^$p " "$(tdir)"/*/holder || n=$((n + 1))
        done
        echo $n
}
bad=0
for delay in 0 0.001 0.002 0.003 0.005 0.008 0.012 0.02 0.04; do
        "$SBX" rm -f --all >/dev/null
        setsid "$SBX" run -- /bin/sh -c "exec /bin/sh -c 'sleep 5; :' $marker" >/dev/null 2>&1 & pid=$!
        sleep $delay
        kill -KILL -- -"$pid" 2>/dev/null
        wait $pid 2>/dev/null
        [ "$("$SBX" run -- /bin/echo next 2>&1)" = next ] || bad=$((bad + 1))
done
is "kill -9 of sbx's process group while a template is built: every next run works" "$bad" 0
sleep 0.3
is "... no holder runs without a record" "$(orphans)" 0
bad=0
for delay in 0 0.0005 0.001 0.002 0.004; do
        "$SBX" rm -f --all >/dev/null
        before=$(pgrep -x sbx-template -u "$uid" | tr '\n' ' ')
        ("$SBX" run -- /bin/echo built > "$TMP/k9out" 2>&1) & pid=$!
        sleep $delay
        for p in $(pgrep -x sbx-template -u "$uid"); do
                case " $before " in *" $p "*) ;; *) kill -KILL "$p" 2>/dev/null ;; esac
        done
        wait $pid
        [ "$(cat "$TMP/k9out")" = built ] || bad=$((bad + 1))
done
is "kill -9 of the holder while it builds: the run still works (without a template)" "$bad" 0
is "... and the next one too" "$("$SBX" run -- /bin/echo next)" next
# (40 random sub-10 ms delays: a spawner that outlived sbx once released a
# sandbox nobody would kill; fault-injection's random kills found it)
for delay in 0.001 0.002 0.003 0.005 0.008 $(for i in $(seq 40); do echo "0.00$((RANDOM % 10))"; done); do
        "$SBX" run -- /bin/sh -c "exec /bin/sh -c 'sleep 5; :' $marker" >/dev/null 2>&1 & pid=$!
        sleep $delay
        kill -KILL "$pid" 2>/dev/null
        wait $pid 2>/dev/null
done
sleep 0.5
is "kill -9 of sbx alone while a run from a template starts: no sandbox survives" "$(pgrep -fc "$marker" || true)" 0
is "... no process (a killed sbx) is left in a holder's mount namespace" "$(held_in_templates)" 0
is "... no holder runs without a record" "$(orphans)" 0
is "... the next run works" "$("$SBX" run -- /bin/echo next)" next

h=$(holder_pid)
if live "$h"; then ok "a holder runs before rm"; else not_ok "a holder runs before rm"; fi
"$SBX" rm -f --all >/dev/null
for i in $(seq 50); do live "$h" || break; sleep 0.02; done
is "rm -f --all: no holder left, no templates dir" "$(live "$h" && echo "$h runs"; ls -A "$(state_base)" | grep -c templates)" 0
done_testing

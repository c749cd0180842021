#!/bin/bash
# SPDX-License-Identifier: MIT
# Escapes from an OCI container run by sbx-runc as root (podman, containerd,
# Kubernetes): the container's root process and its image are hostile. The
# known runc/crun CVE classes, each with a control showing that the probe
# works where the defence does not apply (runc as control where it helps).
# Root only (the runtime under test runs as root; the rootless attacks run
# as uid 65534 from here, in a pid namespace of their own). ~15 s.
. "$(dirname "$0")/lib.sh"
. "$SBX_SOURCE_ROOT/tests/oci/oci-lib.sh"
need_root
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
T=$(mktemp -d /tmp/sbx-esc-oci.XXXXXX)
chmod 755 "$T"
trap 'for id in $(ls "$T/root" 2>/dev/null); do "$SBX_RUNC" --root "$T/root" delete -f "$id" >/dev/null 2>&1; done
      rm -rf "$T" "/tmp/sbx-runc-$VUID" "$TMP"' EXIT
make_rootfs "$T/rootfs"
cp "$SBX_PROBE" "$T/rootfs/sbx-probe"
rt() { timeout -k 5 30 "$SBX_RUNC" --root "$T/root" "$@"; }
# bundle NAME 'python statements' -> $T/b-NAME (tests/oci/mkconfig.py)
bundle() {
        mkdir -p "$T/b-$1"
        ROOTFS=$T/rootfs python3 "$SBX_SOURCE_ROOT/tests/oci/mkconfig.py" "$T/b-$1" "$2" || echo "# mkconfig $1 failed"
        echo "$T/b-$1"
}
# run BUNDLE ID [create options] -> $out, $st
runit() { local b=$1 id=$2; shift 2; out=$(cd "$b" && rt run "$@" "$id" 2>&1 </dev/null); st=$?; }

# --- linux.sysctl that no namespace of the container holds: the child
# writes sysctls before /proc is the container's, so they were the host's
# (kernel.core_pattern = host root). Probed with a harmless one, restored.
knob=/proc/sys/kernel/printk_ratelimit_burst
old=$(cat $knob)
b=$(bundle sysctl "c['linux']['sysctl']={'kernel.printk_ratelimit_burst':'$((old + 1))'}")
runit "$b" sysctl
is "sysctl-host: a sysctl of no namespace of the container is refused (exit 1)" "$st" 1
like "sysctl-host: ... naming linux.sysctl.<key>" "$out" 'linux\.sysctl\.kernel\.printk_ratelimit_burst: not in a namespace'
is "sysctl-host: the host's value is unchanged" "$(cat $knob)" "$old"
unshare --net --ipc --uts sh -c "echo $((old + 1)) > $knob"
control "a new network, ipc and uts namespace still writes that host sysctl" "$(cat $knob)" "$((old + 1))"
echo "$old" > $knob
b=$(bundle sysctlcp "c['linux']['sysctl']={'kernel.core_pattern':'|/bin/sh'}")
runit "$b" sysctlcp
like "sysctl-host: kernel.core_pattern is refused" "$st:$out" '^1:.*kernel\.core_pattern: not in a namespace'
b=$(bundle sysctljoin "c['linux']['sysctl']={'net.ipv4.ip_forward':'1'}
c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='network']+[{'type':'network','path':'/proc/self/ns/net'}]")
runit "$b" sysctljoin
like "sysctl-host: net.* in the host's network namespace joined by path is refused" "$st:$out" \
        '^1:.*linux\.sysctl\.net\.ipv4\.ip_forward: needs a net namespace of the container'
b=$(bundle sysctlok "c['process']['args']=['sh','-c','cat /proc/sys/kernel/shmmni /proc/sys/net/ipv4/ip_forward']
c['linux']['sysctl']={'kernel.shmmni':'1234','net.ipv4.ip_forward':'1'}")
runit "$b" sysctlok
is "sysctl: the container's own ipc and network sysctls are set" "$(echo $out)" "1234 1"

# --- SysV IPC bounds (ipc14, red13): a container's own IPC namespace gets
# sbx's (escape-round11.sh, SECURITY.md section 10) whatever process.user
# is; runc and crun leave the kernel's defaults (32,000 queues, 16 EiB of
# segments). linux.sysctl names a value: that one stays.
ipcv='cat /proc/sys/kernel/msgmni /proc/sys/kernel/shmmax; id -u'
b=$(bundle ipcuser "c['process']['args']=['sh','-c','$ipcv']
c['process']['user']={'uid':1000,'gid':1000}")
runit "$b" ipcuser
is "sysv-oci: a container's own IPC namespace is bounded, as user 1000 (msgmni 56, shmmax 64 MiB)" "$(echo $out)" \
        "56 67108864 1000"
b=$(bundle ipcsysctl "c['process']['args']=['sh','-c','$ipcv']
c['linux']['sysctl']={'kernel.msgmni':'100'}")
runit "$b" ipcsysctl
is "sysv-oci: ... linux.sysctl kernel.msgmni 100 is the value that stays" "$(echo $out)" "100 67108864 0"
if command -v runc >/dev/null; then
        out=$(cd "$T/b-ipcuser" && runc --root "$T/runc" run ipcuserr </dev/null 2>&1)
        control "runc leaves the kernel's defaults" "$(echo $out)" "32000 18446744073692774399 1000"
else
        skip "control: runc not installed"
fi

# --- --pid-file through a symlink planted at its temporary name (the
# runtime, root, writes it): the symlink's target is not written
echo precious > "$T/victim"
ln -s "$T/victim" "$T/pidf.sbx-tmp"
b=$(bundle pidf "c['process']['args']=['sleep','30']")
(cd "$b" && rt create --pid-file "$T/pidf" pidf) >/dev/null 2>&1
is "pid-file-symlink: the symlink's target is not written (create)" "$(cat "$T/victim")" precious
like "pid-file-symlink: the pid file is a file with the pid" "$(stat -c %F "$T/pidf"):$(cat "$T/pidf")" '^regular file:[1-9]'
ln -s "$T/victim" "$T/pidx.sbx-tmp"
rt exec -d --pid-file "$T/pidx" pidf true >/dev/null 2>&1
is "pid-file-symlink: the symlink's target is not written (exec)" "$(cat "$T/victim")" precious
ln -s "$T/victim2" "$T/plain"; echo x > "$T/plain"
control "a plain open of that name writes through the symlink" "$(cat "$T/victim2")" x

# --- runtime fds leaked into the container, and CVE-2024-21626: a leaked
# host directory fd as the process's cwd (process.cwd, exec --cwd)
# created: pid 1 is still the runtime (full capabilities, before its exec)
is "leaked-fds: a created container's init (the runtime) has no exe or fd the container can open" \
        "$(rt exec pidf sh -c 'for f in /proc/1/exe /proc/1/cwd /proc/1/fd/*; do readlink $f >/dev/null 2>&1 && echo "open $f"; done; echo done')" done
rt start pidf
sleep 0.1
is "leaked-fds: the started process has only stdio" "$(rt exec pidf ls /proc/1/fd | tr '\n' ' ')" "0 1 2 "
is "leaked-fds: an exec'd process has only stdio" "$(rt exec pidf sh -c 'ls /proc/$$/fd; true' 7</dev/null | tr '\n' ' ')" "0 1 2 "
escaped=""
for n in $(seq 3 24); do
        r=$(rt exec --cwd "/proc/self/fd/$n" pidf sh -c 'cat ../../../../../../../../'"$SECRET_DIR"'/secret' 2>&1)
        case $r in *host-secret*) escaped="$escaped exec:$n";; esac
done
for n in 3 4 5 6 7 8 9 10 11 12; do
        b=$(bundle cwd$n "c['process']['args']=['sh','-c','cat ../../../../../../../../$SECRET_DIR/secret']
c['process']['cwd']='/proc/self/fd/$n'")
        runit "$b" cwd$n
        case $out in *host-secret*) escaped="$escaped create:$n";; esac
done
is "leaked-cwd (CVE-2024-21626): no process.cwd /proc/self/fd/N reaches the host" "$escaped" ""
b=$(bundle cwdctl "c['process']['args']=['sh','-c','cat ../../../../../../../../$SECRET_DIR/secret']
c['process']['cwd']='/proc/self/fd/3'")
out=$(cd "$b" && rt run --preserve-fds 1 cwdctl 2>&1 </dev/null 3<"$SECRET_DIR"); st=$?
like "leaked-cwd: a process.cwd through a host directory fd the caller passes (--preserve-fds) is refused" \
        "$st:$out" "^125:.*process.cwd: chdir '/proc/self/fd/3': outside the root"
b2=$(bundle cwdpass "c['process']['args']=['sh','-c','cat /proc/self/fd/3/secret']")
out=$(cd "$b2" && rt run --preserve-fds 1 cwdpass 2>&1 </dev/null 3<"$SECRET_DIR")
control "a host directory fd the caller passes (--preserve-fds) does reach the container (the caller's grant)" \
        "$out" "host-secret-$$"
# --preserve-fds that is no count (round 5): atoi took "-5" as -5, and the
# child's close_range then began past every fd, so all the runtime's fds
# (this host directory) stayed open in the container
for v in -5 abc 1x; do
        out=$(cd "$b" && rt run --preserve-fds "$v" cwdneg 2>&1 </dev/null 3<"$SECRET_DIR"); st=$?
        rt delete -f cwdneg >/dev/null 2>&1
        like "preserve-fds-bad: --preserve-fds '$v' is refused (exit 1), naming it" "$st:$out" "^1:.*--preserve-fds '$v'"
        unlike "preserve-fds-bad: ... and the host directory on fd 3 never reaches the container" "$out" "host-secret"
done
out=$(cd "$b" && rt run --preserve-fds 0 cwdneg 2>&1 </dev/null 3<"$SECRET_DIR")
unlike "leaked-cwd: without --preserve-fds the caller's fd 3 is no process.cwd either (it was: chdir came before the fd closed)" \
        "$out" "host-secret"
# --- exec --process FILE and config.json that are no regular file (round 4):
# a FIFO blocked sbx-runc for good and /dev/zero grew it without end (both
# read whole by json_object_from_file); now they fail at once (255/1)
mkfifo "$T/pfifo"
printf '{"args":["true"],"cwd":"/","env":["PATH=/bin"],"user":{"uid":0,"gid":0}}\n' > "$T/proc.json"
for f in "$T/pfifo" /dev/zero; do
        out=$(timeout 10 "$SBX_RUNC" --root "$T/root" exec --process "$f" pidf 2>&1 </dev/null); st=$?
        like "process-not-regular: exec --process $(basename "$f") fails at once, naming it" "$st:$out" \
                "^255:.*'$f' is not a regular file"
done
out=$(timeout 10 "$SBX_RUNC" --root "$T/root" exec --process "$T/proc.json" pidf 2>&1 </dev/null); st=$?
control "exec --process of a regular process.json runs it" "$st:$out" "0:"
# a "\u0000" in a string was cut there (an env entry, an argument, a path
# shortened silently): refused naming the field
printf '{"args":["true"],"cwd":"/","env":["PATH=/bin","A=1\\u0000LD_PRELOAD=/x"],"user":{"uid":0,"gid":0}}\n' > "$T/procnul.json"
out=$(timeout 10 "$SBX_RUNC" --root "$T/root" exec --process "$T/procnul.json" pidf 2>&1 </dev/null); st=$?
like "string-nul: exec --process with a NUL inside an env entry is refused, naming it" "$st:$out" \
        '^255:.*env\[1\].*NUL'
mkdir -p "$T/b-cfgfifo"
mkfifo "$T/b-cfgfifo/config.json"
out=$(cd "$T/b-cfgfifo" && timeout 10 "$SBX_RUNC" --root "$T/root" create cfgfifo 2>&1 </dev/null); st=$?
like "config-not-regular: a FIFO as the bundle's config.json fails create at once" "$st:$out" '^1:.*config.json. is not a regular file'
is "config-not-regular: no state left" "$(ls "$T/root" 2>/dev/null | grep -c cfgfifo)" 0
rt delete -f pidf >/dev/null 2>&1

# --- CVE-2019-5736 through an interpreter: a file of the image whose
# '#!' names /proc/self/exe, run by `exec`, must not run (and expose) the
# runtime's binary; the probe in the container watches for it
printf '#!/proc/self/exe\n' > "$T/rootfs/evil"; chmod 755 "$T/rootfs/evil"
b=$(bundle shebang "c['process']['args']=['sleep','60']")
(cd "$b" && rt run -d shebang) </dev/null >/dev/null 2>&1
rt exec shebang /sbx-probe grab-exe 6 "$(readlink -f "$SBX")" > "$T/grab.out" 2>&1 &
gp=$!
sleep 0.3
for i in $(seq 20); do grep -q GOT "$T/grab.out" && break; rt exec shebang /evil >/dev/null 2>&1; done
rt exec shebang /sbx-probe kill -1 15 >/dev/null 2>&1
wait $gp 2>/dev/null
is "exe-shebang (CVE-2019-5736): '#!/proc/self/exe' never exposes the host's sbx binary" "$(grep -v ready "$T/grab.out")" nothing
like "control: '#!/proc/self/exe' run by the container's shell runs its own exe (busybox)" \
        "$(rt exec shebang sh -c 'exec /evil' 2>&1)" 'applet not found'
rt delete -f shebang >/dev/null 2>&1

# ... and the runtime's binary itself: what a process reaching the
# runtime's /proc/<pid>/exe holds (here the created container's init, the
# runtime before its exec) is a copy (a read-only bind of the binary as root,
# a sealed memfd rootless): written after the runtime is
# gone, it changes nothing (the host's sbx is unchanged)
sum=$(sha256sum < "$(readlink -f "$SBX")")
b=$(bundle sealed "c['process']['args']=['sleep','30']")
(cd "$b" && rt create sealed) </dev/null >/dev/null 2>&1
pid=$(rt state sealed | tr -d ' \n' | grep -o '"pid":[0-9]*' | cut -d: -f2)
exe=$(readlink "/proc/$pid/exe")
[ -n "$exe" ] && [ "$exe" != "$(readlink -f "$SBX")" ] && ok "exe-sealed: the runtime in the container runs from a copy ($exe)" ||
        not_ok "exe-sealed: the runtime in the container runs from a copy (got '$exe')"
exec 9<"/proc/$pid/exe"
rt delete -f sealed >/dev/null 2>&1
out=$( (printf x >> /proc/self/fd/9) 2>&1; echo "st=$?")
exec 9<&-
like "exe-sealed: the held exe cannot be written once the runtime is gone" "$out" 'st=1$'
is "exe-sealed: the host's sbx binary is unchanged" "$(sha256sum < "$(readlink -f "$SBX")")" "$sum"
cp "$(command -v sleep)" "$T/sleep-copy"
"$T/sleep-copy" 30 & cp_pid=$!
sleep 0.1
exec 9<"/proc/$cp_pid/exe"
kill $cp_pid; wait $cp_pid 2>/dev/null
out=$( (printf x >> /proc/self/fd/9) 2>&1; echo "st=$?")
exec 9<&-
control "a held exe of an unsealed binary is written once it is gone" "$out" st=0

# --- CVE-2021-30465 / CVE-2023-27561 class: mount destinations through
# symlinks of the image pointing out of the rootfs, and '..' in them
mkdir -p "$T/hostdir" "$T/src"; echo payload > "$T/src/p"
ln -s "$T/hostdir" "$T/rootfs/abs"
ln -s "../../../../../../../../$T/hostdir" "$T/rootfs/rel"
for d in /abs/x /rel/x /tmp/../../../abs/y /abs; do
        b=$(bundle mdst "c['process']['args']=['true']
c['mounts'].append({'destination':'$d','type':'bind','source':'$T/src','options':['rbind','ro']})")
        runit "$b" mdst
        is "mount-dst-symlink: a bind at '$d' leaves the host dir untouched" "$(ls -A "$T/hostdir")" ""
done
control "the unscoped (host) resolution of /abs/x is the host dir" "$(readlink -f "$T/rootfs/abs/x")" "$T/hostdir/x"

# --- CVE-2021-30465 proper: a container flips a directory of a volume it
# shares with the next container into a symlink out of the rootfs while
# that one is created with a mount destination through it
mkdir -p "$T/vol/d" "$T/racehost"; ln -s "$T/racehost" "$T/vol/l"
b=$(bundle flipper "c['process']['args']=['/sbx-probe','flip','/v/d','/v/l','8']
c['mounts'].append({'destination':'/v','type':'bind','source':'$T/vol','options':['rbind','rw']})")
(cd "$b" && rt run -d flipper) </dev/null >/dev/null 2>&1
b=$(bundle victim "c['process']['args']=['true']
c['mounts'].append({'destination':'/v','type':'bind','source':'$T/vol','options':['rbind','rw']})
c['mounts'].append({'destination':'/v/d/x','type':'tmpfs','source':'tmpfs','options':['size=1k']})")
okruns=0
for i in $(seq 25); do runit "$b" victim$i; [ "$st" = 0 ] && okruns=$((okruns + 1)); done
echo "# mount-race: $okruns of 25 creates succeeded"
host=0
for i in $(seq 2000); do mkdir -p "$T/vol/d/x" 2>/dev/null; [ -e "$T/racehost/x" ] && { host=1; break; }; done
rt delete -f flipper >/dev/null 2>&1
is "mount-race: 25 creates through a flipping volume dir never mount or create on the host" "$(ls -A "$T/racehost" | grep -v '^x$')" ""
control "the host's own resolution of that path lands on the host during the flip" "$host" 1
rm -rf "$T/racehost/x"
ls -A "$T/racehost" >/dev/null

# --- CVE-2019-16884 / 2019-19921 class: /proc of the image a symlink (proc
# mounted elsewhere): masked and read-only paths follow it
mv "$T/rootfs/proc" "$T/rootfs/proc.d"; mkdir "$T/rootfs/p"; ln -s /p "$T/rootfs/proc"
b=$(bundle procln "c['process']['args']=['sh','-c','wc -c < /p/timer_list; echo 1 > /p/sys/kernel/domainname']")
runit "$b" procln
like "proc-symlink: maskedPaths still mask (timer_list reads empty)" "$out" '^0'
like "proc-symlink: readonlyPaths still read-only (/proc/sys)" "$out" 'Read-only file system'
rm "$T/rootfs/proc"; rmdir "$T/rootfs/p"; mv "$T/rootfs/proc.d" "$T/rootfs/proc"

# --- a device node of the image (here /dev/kmsg's 1:11): runc's device
# cgroup denies it; sbx mounts the rootfs nodev (the container cannot mknod)
mknod "$T/rootfs/kmsg" c 1 11
b=$(bundle devimg "c['process']['args']=['sh','-c','echo sbx-escape-oci: a container wrote this > /kmsg; echo st=\$?; echo > /dev/null; echo null=\$?']")
runit "$b" devimg
like "device-in-image: a device node of the rootfs cannot be opened" "$out" 'st=1'
like "device-in-image: the runtime's own /dev nodes still work" "$out" 'null=0'
(echo "sbx escape-oci: control write" > "$T/rootfs/kmsg") 2>/dev/null
control "the node itself is a working device outside the container" "$?" 0
rm -f "$T/rootfs/kmsg"

# --- CVE-2022-0492: cgroup v1 release_agent from the container (this host
# is v1/hybrid): a rw cgroup mount shows the container's own cgroups only,
# and mounting a hierarchy needs CAP_SYS_ADMIN of the host
if [ -d /sys/fs/cgroup/pids ] && [ ! -e /sys/fs/cgroup/cgroup.controllers ]; then
        b=$(bundle cgv1 "c['mounts'].append({'destination':'/sys','type':'sysfs','source':'sysfs','options':['nosuid','noexec','nodev','ro']})
c['mounts'].append({'destination':'/sys/fs/cgroup','type':'cgroup','source':'cgroup','options':['nosuid','noexec','nodev','rw']})
c['process']['args']=['sh','-c','ls /sys/fs/cgroup/*/release_agent 2>&1; mkdir -p /tmp/m; mount -t cgroup -o pids cgroup /tmp/m 2>&1; echo st=\$?']")
        runit "$b" cgv1
        like "release-agent: no release_agent under the container's cgroup mount" "$out" 'release_agent: No such file'
        like "release-agent: mounting a v1 hierarchy is refused" "$out" 'st=[1-9]'
        b=$(bundle cgv1u "c['process']['args']=['sh','-c','mkdir -p /tmp/m; mount -t cgroup -o pids cgroup /tmp/m 2>&1; echo /x > /tmp/m/release_agent; echo st=\$?']
c['linux']['namespaces'].append({'type':'user'}); c['linux']['namespaces'].append({'type':'cgroup'})
c['linux']['uidMappings']=[{'containerID':0,'hostID':200000,'size':65536}]
c['linux']['gidMappings']=[{'containerID':0,'hostID':200000,'size':65536}]
c['process']['capabilities']={k: c['process']['capabilities'][k]+['CAP_SYS_ADMIN'] for k in ('bounding','effective','permitted')}")
        runit "$b" cgv1u
        # (with a cgroup namespace of its own it may mount the hierarchy: its root
        # is the container's cgroup, where there is no release_agent)
        like "release-agent: CAP_SYS_ADMIN of a user namespace cannot write release_agent" "$out" 'st=[1-9]'
        [ -e /sys/fs/cgroup/pids/release_agent ] && control "the host's pids hierarchy has a release_agent" yes yes ||
                skip "control: no release_agent on the host's pids hierarchy"
else
        skip "release-agent: not a cgroup v1/hybrid host"
fi

# --- CVE-2022-29162: an exec'd process (and the container's) has no
# inheritable or ambient capabilities the spec did not give; the runtime's
# environment does not reach it
b=$(bundle inh "c['process']['args']=['sleep','30']")
(cd "$b" && SBX_ESC_SECRET=leak rt run -d inh) </dev/null >/dev/null 2>&1
out=$(SBX_ESC_SECRET=leak rt exec inh sh -c 'grep -E "CapInh|CapAmb" /proc/self/status /proc/1/status; env; tr "\\0" "\\n" < /proc/1/environ' 2>&1)
unlike "exec-caps: no inheritable or ambient capability (exec'd process and init)" "$out" 'Cap(Inh|Amb):[[:space:]]+0*[1-9a-f]'
like "exec-caps: ... (both read)" "$(echo "$out" | grep -c 'Cap\(Inh\|Amb\)')" '^4$'
unlike "exec-env: the runtime's environment does not reach the container" "$out" 'SBX_ESC_SECRET'
rt delete -f inh >/dev/null 2>&1

# --- a startContainer hook's path is resolved in the container (spec): the
# image's file there must run as the container's process would (runc: its
# capabilities, user, no_new_privs, seccomp), never with the runtime's
mkdir -p "$T/hout"; chmod 777 "$T/hout"
printf '#!/bin/sh\n{ grep -E "CapEff|NoNewPrivs|Seccomp:" /proc/self/status; id -u; } > /out/$1\n' > "$T/rootfs/hook.sh"
chmod 755 "$T/rootfs/hook.sh"
hk="c['mounts'].append({'destination':'/out','type':'bind','source':'$T/hout','options':['rbind','rw']})"
b=$(bundle hook1 "$hk
c['hooks']={'startContainer':[{'path':'/hook.sh','args':['hook.sh','root']}]}")
runit "$b" hook1
like "start-hook: an image's startContainer hook has the container's capabilities, not the runtime's" \
        "$(cat "$T/hout/root" 2>&1)" $'CapEff:\t00000000200004eb\nNoNewPrivs:\t1'
b=$(bundle hook2 "$hk
c['process']['user']={'uid':1000,'gid':1000}; c['process']['noNewPrivileges']=False
c['linux']['seccomp']={'defaultAction':'SCMP_ACT_ALLOW','syscalls':[{'names':['mkdirat'],'action':'SCMP_ACT_ERRNO','errnoRet':1}]}
c['hooks']={'startContainer':[{'path':'/hook.sh','args':['hook.sh','user']}]}")
runit "$b" hook2
like "start-hook: ... its user and its seccomp filter" "$(cat "$T/hout/user" 2>&1 | tr '\n' ' ')" \
        'CapEff:.0000000000000000 NoNewPrivs:.0 Seccomp:.2 1000'
if command -v runc >/dev/null; then
        rm -f "$T/hout/root"
        (cd "$T/b-hook1" && runc --root "$T/runc" run hook1r </dev/null >/dev/null 2>&1)
        control "runc runs it with the container's capabilities too" "$(grep CapEff "$T/hout/root" 2>&1)" $'CapEff:\t00000000200004eb'
else
        skip "control: runc not installed"
fi

# --- the device cgroup (linux.resources.devices): podman runs containers
# as real root with CAP_MKNOD; a node made for the host's disk on the
# container's /dev tmpfs must not open (runc: deny all, the rules in order,
# then its default allow list: mknod of any node, the standard devices).
# The probe reads one byte of the disk; it never writes to it.
disk=
for d in /sys/block/*; do
        # one the host itself can read (a host may run under a device cgroup)
        case ${d##*/} in loop*|nbd*|sr*) continue;; esac
        [ -r "$d/dev" ] && head -c1 "/dev/${d##*/}" >/dev/null 2>&1 && { disk=$(cat "$d/dev"); break; }
done
if [ -z "$disk" ] || [ ! -d /sys/fs/cgroup/devices ]; then
        skip "devices-cgroup: needs a block device the host can read and a cgroup v1 devices hierarchy"
else
        dmaj=${disk%:*} dmin=${disk#*:}
        dcg="/sbx-esc-devcg-$$"
        cat > "$T/rootfs/devprobe.sh" <<EOF
mknod /dev/disk b $dmaj $dmin && echo node
[ "\$1" = wait ] && sleep 2
head -c1 /dev/disk >/dev/null && echo disk-read
[ "\$1" = write ] && : >>/dev/disk && echo disk-write-open
echo x >/dev/null && echo null; head -c4 /dev/zero | wc -c; head -c4 /dev/urandom | wc -c; test -c /dev/full && echo full
mknod /dev/null2 c 1 3 && echo x > /dev/null2 && echo null2
mknod /dev/kmsg2 c 1 11 && head -c0 /dev/kmsg2 && echo kmsg2
EOF
        # devcg NAME ARG 'extra rules' -> the bundle: CAP_MKNOD, podman's rule list
        devcg() {
                bundle "$1" "c['process']['args']=['sh','/devprobe.sh','$2']
c['process']['capabilities']={k:v+['CAP_MKNOD'] for k,v in c['process']['capabilities'].items()}
c['linux']['cgroupsPath']='$dcg'
c['linux']['resources']={'devices':[{'allow':False,'access':'rwm'}]+[$3]}"
        }
        b=$(devcg devcg - "")
        runit "$b" devcg
        like "devices-cgroup: mknod of the host's disk ($disk) on the /dev tmpfs succeeds (b *:* m)" "$out" $'^node\n'
        like "devices-cgroup: ... but opening it fails with EPERM" "$out" 'head: /dev/disk: Operation not permitted'
        unlike "devices-cgroup: ... it is not read" "$out" 'disk-read'
        like "devices-cgroup: /dev/null, /dev/zero, /dev/urandom, /dev/full work" "$out" $'\nnull\n4\n4\nfull\n'
        like "devices-cgroup: a node of an allowed device (c 1:3) made by mknod opens" "$out" $'\nnull2\n'
        like "devices-cgroup: a node of a device not allowed (c 1:11) does not open (EPERM)" "$out" \
                'kmsg2: Operation not permitted'
        b=$(devcg devcgr write "{'allow':True,'type':'b','major':$dmaj,'minor':$dmin,'access':'r'},{'allow':True,'type':'c','major':1,'minor':11,'access':'rw'}")
        runit "$b" devcgr
        like "devices-cgroup: a rule allowing the disk 'r' lets it be read" "$out" $'\ndisk-read\n'
        like "devices-cgroup: ... not opened for writing (EPERM)" "$out" 'can.t create /dev/disk: Operation not permitted'
        like "devices-cgroup: ... and c 1:11 allowed rw opens" "$out" $'\nkmsg2'
        # the list, read from the host while the container waits
        b=$(devcg devcgl wait "")
        (cd "$b" && rt run devcgl >/dev/null 2>&1 </dev/null) & sleep 1
        sbxlist=$(sort "/sys/fs/cgroup/devices$dcg/devices.list" 2>&1 | tr '\n' ' '); wait
        like "devices-cgroup: the container's devices.list is deny-all plus the allow list" "$sbxlist" \
                '^b \*:\* m c \*:\* m c 10:200 rwm c 136:\* rwm c 1:3 rwm c 1:5 rwm c 1:7 rwm c 1:8 rwm c 1:9 rwm c 5:0 rwm c 5:2 rwm $'
        if command -v runc >/dev/null; then
                (cd "$b" && runc --root "$T/runc" run devcglr >/dev/null 2>&1 </dev/null) & sleep 1
                runclist=$(sort "/sys/fs/cgroup/devices$dcg/devices.list" 2>&1 | tr '\n' ' '); wait
                is "devices-cgroup: ... runc's for the same bundle" "$sbxlist" "$runclist"
                b=$(devcg devcgc - "")
                (cd "$b" && runc --root "$T/runc" run devcgc 2>&1 </dev/null) > "$T/devcgc.out"
                like "control: runc refuses the disk the same way" "$(cat "$T/devcgc.out")" \
                        'head: /dev/disk: Operation not permitted'
        else
                skip "control: runc not installed"
        fi
        b=$(devcg devcga - "{'allow':True,'access':'rwm'}")
        runit "$b" devcga
        control "with every device allowed (type a) the same probe reads the disk" \
                "$(echo "$out" | head -2 | tr '\n' ' ')" "node disk-read "
        for h in /sys/fs/cgroup/*"$dcg"; do rmdir "$h" 2>/dev/null; done
fi

# --- pod annotations are the pod author's (Kubernetes): the config an
# annotation names is read by the runtime as root; a FIFO there (or a
# device) must fail create, never block it
mkfifo "$T/fifo"
b=$(bundle annfifo "c['annotations']={'org.sbx.openclaw.config':'$T/fifo','org.sbx.policy.agent':'main'}")
out=$(cd "$b" && timeout 10 "$SBX_RUNC" --root "$T/root" create annfifo 2>&1 </dev/null); st=$?
like "annotation-fifo: a FIFO as org.sbx.openclaw.config fails create at once" "$st:$out" '^1:.*is not a regular file'
timeout 1 cat "$T/fifo" >/dev/null 2>&1
control "opening that FIFO for reading blocks" "$?" 124

# --- container ids that name other paths, and a very long one
b=$(bundle ids "c['process']['args']=['true']")
bad=""
for id in ../escaped a/b . .. "$(printf 'x%.0s' $(seq 300))" "-flag" "$(printf 'a\nb')"; do
        (cd "$b" && rt create "$id") >/dev/null 2>&1 && bad="$bad [$id]"
done
is "container-id: ids with / or .., too long or not a name are refused" "$bad" ""
is "container-id: nothing was made beside --root" "$(ls -A "$T" | grep -c escaped)" 0

# --- linux.namespaces path of another type (the host's network namespace
# as the container's uts one) and a path that is no namespace
b=$(bundle nstype "c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='uts']+[{'type':'uts','path':'/proc/self/ns/net'}]; del c['hostname']")
runit "$b" nstype
[ "$st" -ne 0 ] && ok "ns-path-type: a network namespace given as the uts one fails create" || not_ok "ns-path-type: a network namespace given as the uts one fails create"
b=$(bundle nsfile "c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='network']+[{'type':'network','path':'$SECRET_DIR/secret'}]")
runit "$b" nsfile
[ "$st" -ne 0 ] && ok "ns-path-type: a file that is no namespace fails create" || not_ok "ns-path-type: a file that is no namespace fails create"
unshare --uts sh -c 'hostname ns-ok; exec sleep 20' & up=$!
sleep 0.2
b=$(bundle nsok "c['process']['args']=['hostname']; del c['hostname']
c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='uts']+[{'type':'uts','path':'/proc/$up/ns/uts'}]")
runit "$b" nsok
control "a uts namespace given as the uts one is joined" "$out" ns-ok
kill $up; wait $up 2>/dev/null

# --- linux.devices through symlinks of the image and '..': made in the
# container's /dev, never on the host
b=$(bundle devln "c['process']['args']=['true']
c['linux']['devices']=[{'path':'/abs/node','type':'c','major':1,'minor':3,'fileMode':0o666},
                       {'path':'/dev/../rel/node2','type':'c','major':1,'minor':3,'fileMode':0o666}]")
runit "$b" devln
is "devices-symlink: no device node made on the host through an image symlink" "$(ls -A "$T/hostdir")" ""

# --- a pid reused after the container's process died: state, exec, kill
# and delete must not take the new process for the container's
b=$(bundle reuse "c['process']['args']=['sleep','30']")
(cd "$b" && rt run -d reuse) </dev/null >/dev/null 2>&1
pid=$(rt state reuse | tr -d ' \n' | grep -o '"pid":[0-9]*' | cut -d: -f2)
kill -9 "$pid"; sleep 0.2
sleep 30 & victim=$!
sed -i "s/\"pid\":$pid,/\"pid\":$victim,/" "$T/root/reuse/state.json"
like "pid-reuse: state is stopped (the pid's start time is not the container's)" "$(rt state reuse)" '"status": ?"stopped"'
rt exec reuse true >/dev/null 2>&1; is "pid-reuse: exec is refused" "$?" 255
rt kill reuse KILL >/dev/null 2>&1; rt kill --all reuse KILL >/dev/null 2>&1
rt delete -f reuse >/dev/null 2>&1
sleep 0.1
kill -0 $victim 2>/dev/null && ok "pid-reuse: kill, kill --all and delete -f spare the process with the reused pid" ||
        not_ok "pid-reuse: kill, kill --all and delete -f spare the process with the reused pid"
kill $victim 2>/dev/null; wait $victim 2>/dev/null

# --- kill --all / delete of a rootless container without a pid namespace
# and without a cgroup: "its processes" were every process of the user
VUID=$((3000000 + $$ % 100000))
mkdir -p "$T/rl"; chown 65534:65534 "$T/rl"
cat > "$T/rl/killall.sh" <<EOF
cd $T/rl; export XDG_RUNTIME_DIR=$T/rl/xdg; mkdir -p \$XDG_RUNTIME_DIR
sleep 30 & CAN=\$!
$SBX_RUNC spec --rootless && python3 - <<'P'
import json; c = json.load(open('config.json')); c['root']['path'] = '$T/rootfs'; c['process']['terminal'] = False
c['process']['args'] = ['sleep', '30']; c['linux']['maskedPaths'] = []; c['linux']['readonlyPaths'] = []
c['mounts'] = [m for m in c['mounts'] if m['destination'] not in ('/proc', '/sys')]
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] != 'pid']
json.dump(c, open('config.json', 'w'))
P
$SBX_RUNC run -d ka </dev/null >/dev/null 2>&1 || echo "run failed"
$SBX_RUNC kill --all ka KILL; sleep 0.2
kill -0 \$CAN 2>/dev/null && echo "canary alive" || echo "canary killed"
$SBX_RUNC delete -f ka; sleep 0.2
kill -0 \$CAN 2>/dev/null && echo "canary alive" || echo "canary killed"
kill -9 -1; sleep 0.2
kill -0 \$CAN 2>/dev/null && echo "canary survives kill -1" || echo "canary killed by kill -1"
EOF
out=$(timeout 60 unshare --pid --fork --mount-proc setpriv --reuid 65534 --regid 65534 --clear-groups bash "$T/rl/killall.sh" 2>&1)
like "kill-all-no-pidns: kill --all spares the user's other processes" "$out" $'^canary alive\n'
like "kill-all-no-pidns: delete --force spares them" "$out" $'\ncanary alive\n'
like "control: kill -9 -1 as that user does kill them (the probe can fail)" "$out" 'canary killed by kill -1'

# --- the caller's terminal (escape-tty.sh): `exec` without a pty gives
# the process pipes, relayed while it runs (detached: until it ends); what
# it leaves behind reads nothing the user types later and cannot turn the
# terminal's echo off
for a in stty timeout readlink cut tr; do ln -sf busybox "$T/rootfs/bin/$a"; done
b=$(bundle tty "c['process']['args']=['sleep','120']")
(cd "$b" && rt create tty) >/dev/null 2>&1 </dev/null
rt start tty
BG='exec 3<&0 4>&1; (sleep 1; readlink /proc/self/fd/3 >/tmp/bg.fd; readlink /proc/self/fd/4 >>/tmp/bg.fd; stty -echo <&4 2>/dev/null
        timeout 3 cat <&3 >/tmp/bg.read 2>/dev/null; touch /tmp/bg.done) >/dev/null 2>&1 & echo started'
CALLER=$SBX_SOURCE_ROOT/tests/escape/tty-caller.py
out=$(timeout -k 5 60 python3 "$CALLER" --later later-secret --wait 20 --until "'$SBX_RUNC' --root '$T/root' exec tty test -e /tmp/bg.done" \
        -- "$SBX_RUNC" --root "$T/root" exec tty sh -c "$BG")
field() { printf '%s\n' "$out" | sed -n "s/^$1: //p"; }
is "tty-runc-exec: the process's output and status as before" "$(field status) $(field out)" "0 'started\\n'"
is "tty-runc-exec: a process left behind has pipes and reads nothing typed later" \
        "$(rt exec tty sh -c 'cut -d: -f1 /tmp/bg.fd | tr "\n" " "; echo "read=[$(cat /tmp/bg.read)]"')" "pipe pipe read=[]"
is "tty-runc-exec: ... the user's shell gets it, the terminal's echo stays on" "$(field shell) $(field echo)" "'later-secret\\n' on"
out=$(timeout -k 5 60 python3 "$CALLER" --input typed-1 --wait 0.1 -- "$SBX_RUNC" --root "$T/root" exec tty \
        sh -c 'read l; echo "got=$l"; exit 3')
is "tty-runc-exec: the process reads what the user types (status as before)" "$(field status) $(field out)" "3 'typed-1\\ngot=typed-1\\n'"
out=$(timeout -k 5 60 python3 "$CALLER" --later later-d --wait 20 --until "'$SBX_RUNC' --root '$T/root' exec tty test -s /tmp/d.read" \
        -- "$SBX_RUNC" --root "$T/root" exec -d tty sh -c 'read l; echo "got=$l $(readlink /proc/self/fd/0 | cut -d: -f1)" >/tmp/d.read')
is "tty-runc-exec-detach: a detached process reads the terminal through a pipe while it runs" \
        "$(field status) $(rt exec tty cat /tmp/d.read)" "0 got=later-d pipe"
rt delete -f tty >/dev/null 2>&1

# --- the state root (--root) another user made: its state is trusted (the
# pid is signalled, the config copy's poststop hooks run), so it is refused.
# The default root without $XDG_RUNTIME_DIR is per uid: /tmp/sbx-runc-<uid>.
plant() { # DIR: a fake container 'planted' whose poststop hook leaves $T/pwned
        mkdir -p "$1/planted"
        printf '{"id":"planted","pid":2147483000,"bundle":"/","created":"x","cgroup":"","startTime":0}' > "$1/planted/state.json"
        printf '%s' '{"ociVersion":"1.2.0","process":{"args":["true"],"cwd":"/"},"root":{"path":"/"},
"linux":{"namespaces":[{"type":"mount"}]},"hooks":{"poststop":[{"path":"/bin/sh","args":["sh","-c","touch '"$T"'/pwned"]}]}}' \
                > "$1/planted/config.json"
}
install -d -m 0777 "/tmp/sbx-runc-$VUID"; chown 65534 "/tmp/sbx-runc-$VUID"; plant "/tmp/sbx-runc-$VUID"
chmod 777 "$T"
out=$(env -u XDG_RUNTIME_DIR setpriv --reuid "$VUID" --regid "$VUID" --clear-groups "$SBX_RUNC" delete -f planted 2>&1)
like "state-root: another user's default root is refused, naming it" "$out" "--root '/tmp/sbx-runc-$VUID': owned by uid 65534"
[ ! -e "$T/pwned" ] && ok "state-root: the planted poststop hook did not run" || not_ok "state-root: the planted poststop hook did not run"
install -d -m 0711 "$T/own"; plant "$T/own"
rt() { timeout -k 5 30 "$SBX_RUNC" --root "$T/own" "$@"; }
rt delete -f planted >/dev/null 2>&1
control "a state dir in a root of our own is trusted: its poststop hook runs" "$([ -e "$T/pwned" ] && echo ran)" ran
chmod 755 "$T"
# --- ptys: config.json's devpts (newinstance, no max=, or a large one) drew
# on the host's whole pool (kernel.pty.max - reserve): one container opening
# /dev/ptmx until ENOSPC left no pty to other containers or sandboxes. It
# gets sbx's max= (an eighth of the pool), a smaller max= stays.
pool=$(( $(cat /proc/sys/kernel/pty/max) - $(cat /proc/sys/kernel/pty/reserve) ))
if [ "$pool" -gt 16 ] && [ "$pool" -le 8000 ]; then
        nf=$((pool + 64))
        b=$(bundle ptys "c['process']['args']=['/sbx-probe','charged','pty','0']
c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':$nf,'soft':$nf}]")
        runit "$b" ptys
        read -r n e <<<"$out"
        like "oci-devpts-max: a container's ptys stop with ENOSPC at an eighth of the pool of $pool ($n)" \
                "$n $e $(( n >= 1 && n <= pool / 8 ))" '^[0-9]+ ENOSPC 1$'
        b=$(bundle ptysbig "c['process']['args']=['/sbx-probe','charged','pty','0']
c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':$nf,'soft':$nf}]
for m in c['mounts']:
    if m['type'] == 'devpts': m['options'].append('max=$pool')")
        runit "$b" ptysbig
        read -r n e <<<"$out"
        like "oci-devpts-max: ... also when config.json asks for max=$pool ($n)" \
                "$n $e $(( n >= 1 && n <= pool / 8 ))" '^[0-9]+ ENOSPC 1$'
        b=$(bundle ptyssmall "c['process']['args']=['/sbx-probe','charged','pty','0']
for m in c['mounts']:
    if m['type'] == 'devpts': m['options'].append('max=5')")
        runit "$b" ptyssmall
        control "oci-devpts-max: a smaller max= of config.json's stays (5 ptys)" "$out" "5 ENOSPC"
else
        skip "oci-devpts-max: a pool of $pool ptys is not one a test can exhaust"
        skip "oci-devpts-max: a pool of $pool ptys"
        skip "oci-devpts-max: a pool of $pool ptys"
fi

done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# oci-suite.sh: sbx-runc on a pure cgroup v2 host (issue 15), in the same
# guest boot as cgroup-suite.sh.
#   oci-suite.sh prepare DIR   host: busybox rootfs + bundles (python3 is fast here,
#                              ~6 s per start in the TCG guest)
#   oci-suite.sh run DIR       guest, as root: the checks; TAP lines without
#                              numbers or plan (vm-suite.sh adds the plan)
# Each limit is checked from inside the container (its own cgroup2 mount,
# rooted at its cgroup by the cgroup namespace) and from the guest's
# cgroupfs, and enforced: OOM kill as exit status 137, fork refused at
# pids.max, cpu.max throttling. Then pause/resume (cgroup.freeze), kill --all,
# delete removing the cgroup; the systemd driver (--systemd-cgroup) against
# the host's own systemd booted as pid 1 of a pid + mount + cgroup namespace
# (the guest's pid 1 is busybox); podman driving sbx-runc, when podman runs.
set -u
mode=$1 D=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../oci/oci-lib.sh"

# bundle NAME 'python statements': config.json with the container's cgroup
# mounted read-only at /sys/fs/cgroup inside its own cgroup namespace
bundle() {
        mkdir -p "$D/$1"
        ROOTFS=$D/rootfs python3 "$HERE/../oci/mkconfig.py" "$D/$1" "
c['linux']['namespaces'].append({'type':'cgroup'})
c['mounts'].append({'destination':'/sys/fs/cgroup','type':'cgroup','source':'cgroup','options':['nosuid','noexec','nodev','ro']})
$2"
}

if [ "$mode" = prepare ]; then
        make_rootfs "$D/rootfs" || exit 1
        mkdir -p "$D/rootfs/sys/fs/cgroup"
        # every linux.resources kind sbx applies, at an absolute cgroupsPath
        bundle res "c['process']['args']=['sh','-c','for f in memory.max memory.swap.max pids.max cpu.max; do echo \$f=\$(cat /sys/fs/cgroup/\$f); done; cat /proc/self/cgroup; grep Cpus_allowed_list /proc/self/status; echo ready; while :; do :; done & sleep 1000 & wait']
c['linux']['cgroupsPath']='/sbx-oci/res1'
c['linux']['resources']={'memory':{'limit':67108864,'swap':100663296},'pids':{'limit':20},
  'cpu':{'shares':1024,'quota':20000,'period':100000,'cpus':'1','mems':'0'},'blockIO':{'weight':500}}" || exit 1
        bundle oom "c['process']['args']=['sh','-c','x=\$(head -c \$0 /dev/zero | tr \"\\\\0\" a); echo survived','100000000']
c['linux']['resources']={'memory':{'limit':33554432,'swap':33554432}}" || exit 1
        bundle small "c['process']['args']=['sh','-c','x=\$(head -c 8000000 /dev/zero | tr \"\\\\0\" a); echo small-ok']
c['linux']['resources']={'memory':{'limit':33554432,'swap':33554432}}" || exit 1
        bundle pids "c['process']['args']=['sh','-c','for i in \$(seq 40); do sleep 5 & done; echo forked-all']
c['linux']['cgroupsPath']='sbx-oci-rel/pids1'
c['linux']['resources']={'pids':{'limit':20}}" || exit 1
        # --systemd-cgroup: a scope in sbxtest.slice, the resources as unit properties
        bundle sd "c['process']['args']=['sh','-c','cat /proc/self/cgroup /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max; echo ready; sleep 1000']
c['linux']['cgroupsPath']='sbxtest.slice:sbx:sd1'
c['linux']['resources']={'memory':{'limit':67108864,'swap':100663296},'pids':{'limit':20},
  'cpu':{'shares':1024,'quota':20000,'period':100000,'cpus':'1','mems':'0'},'blockIO':{'weight':500}}" || exit 1
        bundle sdoom "c['process']['args']=['sh','-c','x=\$(head -c 40000000 /dev/zero | tr \"\\\\0\" a); echo survived']
c['linux']['resources']={'memory':{'limit':16777216,'swap':16777216}}" || exit 1
        bundle sdsleep "c['process']['args']=['sleep','1000']" || exit 1
        bundle sdbad "c['linux']['cgroupsPath']='/not/a/unit'" || exit 1
        # the device cgroup (BPF_CGROUP_DEVICE): CAP_MKNOD as under podman, its rule
        # list; /disk (written in the guest) names a block device of the guest
        cat > "$D/rootfs/devprobe.sh" <<'EOF'
[ -s /disk ] && mknod /dev/disk b $(cat /disk) && echo node-disk
[ -s /disk ] && head -c1 /dev/disk >/dev/null && echo disk-read
echo x >/dev/null && echo null; head -c4 /dev/zero | wc -c; head -c4 /dev/urandom | wc -c; test -c /dev/full && echo full
mknod /dev/null2 c 1 3 && echo x >/dev/null2 && echo null2
mknod /dev/kmsg2 c 1 11 && echo node-kmsg2
: >>/dev/kmsg2 && echo kmsg2-write
EOF
        for r in "devcg:" "devcgo:,{'allow':True,'type':'c','major':1,'minor':11,'access':'w'},{'allow':False,'type':'c','major':1,'minor':11,'access':'w'}" \
                 "devcgo2:,{'allow':False,'type':'c','major':1,'minor':11,'access':'w'},{'allow':True,'type':'c','major':1,'minor':11,'access':'w'}" \
                 "devcga:,{'allow':True,'access':'rwm'}"; do
                bundle "${r%%:*}" "c['process']['args']=['sh','/devprobe.sh']
c['process']['capabilities']={k:v+['CAP_MKNOD'] for k,v in c['process']['capabilities'].items()}
c['linux']['resources']={'devices':[{'allow':False,'access':'rwm'}${r#*:}]}" || exit 1
        done
        tar -C "$D/rootfs" -cf "$D/bb.tar" . || exit 1
        exit 0
fi

# ------------------------------------------------------------------ guest
CG=/sys/fs/cgroup
R=/run/sbx-oci-vm
rt() { "$SBX_RUNC" --root "$R" "$@"; }
fail=0
t() { d=$1; shift; if "$@"; then echo "ok - $d"; else echo "not ok - $d"; fail=1; fi; }
eq() { [ "$1" = "$2" ] || { echo "#   got: '$1'  want: '$2'"; return 1; }; }
has() { case $1 in *"$2"*) ;; *) echo "#   got: '$1'  want: *$2*"; return 1 ;; esac; }
state_of() { rt state "$1" 2>/dev/null | tr -d ' \n' | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p'; }
wait_for() { # wait_for CMD...: up to 10 s
        local i
        for i in $(seq 100); do "$@" && return 0; sleep 0.1; done
        return 1
}
mkdir -p "$R"
t0=$(cut -d' ' -f1 /proc/uptime)

# --- create: the limits in the guest's cgroupfs before the process runs ---
C=$CG/sbx-oci/res1
(cd "$D/res" && rt create res1 >/tmp/res1.out 2>&1 </dev/null)
t "create res1 (cgroupsPath /sbx-oci/res1, every resource kind)" eq "$(state_of res1)" created
t "host: memory.max = 64M" eq "$(cat $C/memory.max 2>&1)" 67108864
t "host: memory.swap.max = swap - limit = 32M" eq "$(cat $C/memory.swap.max 2>&1)" 33554432
t "host: pids.max = 20" eq "$(cat $C/pids.max 2>&1)" 20
t "host: cpu.max = quota period" eq "$(cat $C/cpu.max 2>&1)" "20000 100000"
t "host: cpu.weight = shares 1024 converted as runc does (39)" eq "$(cat $C/cpu.weight 2>&1)" 39
t "host: cpuset.cpus = 1, cpuset.mems = 0" eq "$(cat $C/cpuset.cpus $C/cpuset.mems 2>&1 | tr '\n' ' ')" "1 0 "
if [ -e $C/io.bfq.weight ]; then w="$(cat $C/io.bfq.weight)"; want="default 500"
else w="$(cat $C/io.weight 2>&1)"; want="default 4950"; fi
t "host: blockIO.weight 500 -> io weight ($want)" eq "$w" "$want"
pid=$(rt state res1 | tr -d ' \n' | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
t "host: the container's process is in $C before start" eq "$(cat /proc/$pid/cgroup 2>&1)" "0::/sbx-oci/res1"

# --- start: the same limits seen from inside ---
rt start res1
wait_for grep -q ready /tmp/res1.out
out=$(cat /tmp/res1.out)
t "inside: memory.max, memory.swap.max, pids.max, cpu.max of its own cgroup" \
        has "$out" $'memory.max=67108864\nmemory.swap.max=33554432\npids.max=20\ncpu.max=20000 100000'
t "inside: its cgroup is / (cgroup namespace)" has "$out" "0::/"
t "inside: pinned to cpu 1" has "$out" $'Cpus_allowed_list:\t1'
sleep 1.5
thr=$(sed -n 's/^nr_throttled //p' $C/cpu.stat)
t "host: the spinner is throttled by cpu.max (nr_throttled $thr)" [ "${thr:-0}" -gt 0 ]
procs=$(wc -l <$C/cgroup.procs)
t "host: the container's 3 processes are in its cgroup ($procs)" eq "$procs" 3

# --- pause / resume: cgroup.freeze ---
rt pause res1; st=$?
t "pause" eq "$st:$(state_of res1)" 0:paused
t "host: cgroup.freeze = 1, cgroup.events frozen 1" eq "$(cat $C/cgroup.freeze):$(grep frozen $C/cgroup.events)" "1:frozen 1"
u1=$(sed -n 's/^usage_usec //p' $C/cpu.stat); sleep 0.5; u2=$(sed -n 's/^usage_usec //p' $C/cpu.stat)
t "paused: the spinner uses no CPU ($u1 -> $u2 usec)" eq "$u1" "$u2"
rt resume res1; st=$?
t "resume" eq "$st:$(state_of res1)" 0:running
t "host: cgroup.freeze = 0, frozen 0" eq "$(cat $C/cgroup.freeze):$(grep frozen $C/cgroup.events)" "0:frozen 0"
sleep 0.5; u3=$(sed -n 's/^usage_usec //p' $C/cpu.stat)
t "resumed: the spinner runs again ($u2 -> $u3 usec)" [ "${u3:-0}" -gt "${u2:-0}" ]

# --- kill --all, delete ---
rt kill --all res1 KILL; st=$?
wait_for [ "$(state_of res1)" = stopped ]
t "kill --all KILL: stopped" eq "$st:$(state_of res1)" 0:stopped
t "host: no process left in the cgroup" eq "$(cat $C/cgroup.procs 2>&1)" ""
rt delete res1; st=$?
t "delete: exit 0, cgroup $C removed" eq "$st:$(ls -d $C 2>&1 >/dev/null | grep -c 'No such')" 0:1

# --- enforcement through run ---
(cd "$D/small" && rt run small1 >/tmp/o 2>&1 </dev/null); st=$?
t "run, memory 32M: an 8 MB shell variable fits" eq "$st:$(cat /tmp/o)" 0:small-ok
(cd "$D/oom" && rt run oom1 >/tmp/o 2>&1 </dev/null); st=$?
t "run, memory 32M (no swap): a 100 MB shell variable is OOM-killed (exit 137)" eq "$st" 137
t "the OOM-killed container's cgroup is gone after run" sh -c "! ls -d $CG/sbx-runc/oom1 2>/dev/null"
(cd "$D/pids" && rt run pids1 >/tmp/o 2>&1 </dev/null); st=$?
t "run, pids 20: fork fails at the cap" has "$(cat /tmp/o)" "can't fork"
t "run, pids 20: not all 40 children" sh -c "! grep -q forked-all /tmp/o"
t "relative cgroupsPath sbx-oci-rel/pids1: made under the hierarchy root, removed after run" \
        sh -c "! ls -d $CG/sbx-oci-rel/pids1 2>/dev/null && [ -d $CG/sbx-oci-rel ]"
# --- the device cgroup: a BPF_CGROUP_DEVICE program from linux.resources.devices ---
for d in /sys/block/*; do   # a block device the guest can read
        case ${d##*/} in loop*|nbd*|sr*) continue;; esac
        head -c1 "/dev/${d##*/}" >/dev/null 2>&1 && { tr : ' ' <"$d/dev" >"$D/rootfs/disk"; break; }
done
devrun() { (cd "$D/$1" && rt run "$1-1" >/tmp/o 2>&1 </dev/null); out=$(cat /tmp/o); }
devrun devcg
if [ -s "$D/rootfs/disk" ]; then
        t "devices: mknod of the guest's disk ($(cat "$D/rootfs/disk")) succeeds (b *:* m) but it does not open (EPERM)" \
                has "$out" $'node-disk\nhead: /dev/disk: Operation not permitted'
else
        echo "ok - devices: the guest's disk # SKIP no readable block device in the guest"
fi
t "devices: /dev/null, zero, urandom, full work; a mknod'ed c 1:3 opens; c 1:11 is made" \
        has "$out" $'null\n4\n4\nfull\nnull2\nnode-kmsg2\n'
t "devices: c 1:11 (not allowed) does not open (EPERM)" has "$out" "can't create /dev/kmsg2: Operation not permitted"
devrun devcgo
t "devices: allow c 1:11 w, then deny it w: the last rule wins (EPERM)" \
        has "$out" "can't create /dev/kmsg2: Operation not permitted"
devrun devcgo2
t "devices: deny c 1:11 w, then allow it w: the last rule wins (opens)" has "$out" kmsg2-write
devrun devcga
t "control: with every device allowed the same probe opens c 1:11 and reads the disk" \
        has "$out" "$([ -s "$D/rootfs/disk" ] && echo disk-read)"$'\nnull'
t "control: ... and c 1:11" has "$out" kmsg2-write
# --- the systemd cgroup driver: a real systemd (the host's /lib/systemd/systemd)
# as pid 1 of a pid + mount + cgroup namespace owning the subtree $SDC ---
SDC=$CG/sbx-systemd
systemd_checks() {
        local S=$SDC/sbxtest.slice/sbx-sd1.scope R2=/run/sbx-oci-sd out st pid i
        mkdir $SDC || return
        cat >/tmp/sd-init.sh <<'EOF2'
umount /sys/fs/cgroup && mount -t cgroup2 -o nsdelegate,memory_recursiveprot cgroup2 /sys/fs/cgroup || exit 1
mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system || exit 1
printf '[Unit]\nDescription=sbx test\nDefaultDependencies=no\n' >/run/systemd/system/sbx-test.target
mkdir -p /run/sbx-nogen
# only the units above and the built-in ones, no generators: a few seconds less under TCG
exec env container=sbx-test SYSTEMD_UNIT_PATH=/run/systemd/system SYSTEMD_GENERATOR_PATH=/run/sbx-nogen \
        SYSTEMD_ENVIRONMENT_GENERATOR_PATH=/run/sbx-nogen /lib/systemd/systemd --unit=sbx-test.target --log-target=console --log-level=warning
EOF2
        # (the forking unshare stays in the guest's root cgroup: a process in
        # $SDC itself would keep systemd from enabling controllers below it)
        unshare --pid --fork --mount --uts --mount-proc \
                sh -c 'echo $$ >"$0/cgroup.procs" && exec unshare --cgroup sh /tmp/sd-init.sh' $SDC >/tmp/sd.log 2>&1 &
        SD=
        for i in $(seq 300); do
                SD=$(head -1 $SDC/init.scope/cgroup.procs 2>/dev/null)
                [ -n "$SD" ] && break
                sleep 0.1
        done
        mkdir -p $SDC/sbx-caller
        # the runtime runs in systemd's namespaces, from a leaf of its subtree
        sdrun() { bash -c 'echo $$ >"$0" && exec nsenter -t "$1" -m -p -C -- "${@:2}"' $SDC/sbx-caller/cgroup.procs "$SD" "$@"; }
        for i in $(seq 100); do sdrun test -S /run/systemd/private && break; sleep 0.1; done
        out=$(sdrun systemctl is-system-running 2>&1)
        t "systemd runs as pid 1 of its namespaces (is-system-running: $out)" \
                sh -c "[ '$out' = running ] || [ '$out' = degraded ]" || { sed 's/^/# /' /tmp/sd.log; return; }
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup create --bundle "$D/sd" sd1 >/tmp/sd1.out 2>&1 </dev/null; st=$?
        t "--systemd-cgroup create, cgroupsPath sbxtest.slice:sbx:sd1 (exit $st)" eq "$st" 0 || sed 's/^/# /' /tmp/sd1.out
        out=$(sdrun systemctl show -p ActiveState,Delegate,Slice,MemoryMax,TasksMax,CPUWeight sbx-sd1.scope 2>&1 | sort | tr '\n' ' ')
        t "systemd: the scope sbx-sd1.scope is active, delegated, in sbxtest.slice, with the limits" \
                eq "$out" "ActiveState=active CPUWeight=39 Delegate=yes MemoryMax=67108864 Slice=sbxtest.slice TasksMax=20 "
        t "cgroupfs: memory.max, memory.swap.max, pids.max, cpu.max, cpu.weight, cpuset.cpus, io.weight of the scope" \
                eq "$(cat $S/memory.max $S/memory.swap.max $S/pids.max $S/cpu.max $S/cpu.weight $S/cpuset.cpus $S/io.weight 2>&1 | tr '\n' ' ')" \
                "67108864 33554432 20 20000 100000 39 1 default 4950 "
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup start sd1
        wait_for grep -q ready /tmp/sd1.out
        t "inside: its cgroup is / and the limits are its own" has "$(cat /tmp/sd1.out)" $'0::/\n67108864\n20'
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup pause sd1; st=$?
        t "pause: the scope's cgroup.freeze" eq "$st:$(cat $S/cgroup.freeze)" 0:1
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup resume sd1; st=$?
        t "resume" eq "$st:$(cat $S/cgroup.freeze)" 0:0
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup delete -f sd1; st=$?
        out=$(sdrun systemctl is-active sbx-sd1.scope 2>&1)
        t "delete -f: the scope is stopped ($out) and its cgroup gone" eq "$st:$out:$(ls -d $S 2>/dev/null)" "0:inactive:"
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup run --bundle "$D/sdoom" oom2 >/tmp/o 2>&1 </dev/null; st=$?
        t "--systemd-cgroup run, MemoryMax 16M: a 40 MB shell variable is OOM-killed (137)" eq "$st" 137
        t "its scope sbx-runc-oom2.scope is gone after run" sh -c "! ls -d $SDC/system.slice/sbx-runc-oom2.scope 2>/dev/null"
        # run: the runtime waits outside the scope (it joined it only for the clone)
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup run --bundle "$D/sdsleep" sl1 </dev/null >/tmp/sl1.out 2>&1 &
        local bg=$! S2=$SDC/system.slice/sbx-runc-sl1.scope
        scope_comms() { for p in $(cat $S2/cgroup.procs); do cat /proc/$p/comm; done 2>&1 | tr '\n' ' '; }
        # The runtime is in the scope only for the clone and leaves it right
        # after, and the container's process execs sleep: wait (up to 10 s)
        # for both, then look (a runtime that stays in the scope fails).
        scope_is_sleep() { [ "$(scope_comms)" = "sleep " ]; }
        wait_for scope_is_sleep
        t "run, default cgroupsPath: system.slice/sbx-runc-sl1.scope holds only the container's sleep" \
                eq "$(scope_comms)" "sleep "
        sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup kill sl1 KILL
        wait $bg; st=$?
        t "run: kill KILL -> exit 137, the scope is gone" eq "$st:$(ls -d $S2 2>/dev/null)" "137:"
        out=$(sdrun "$SBX_RUNC" --root $R2 --systemd-cgroup create --bundle "$D/sdbad" bad1 2>&1 </dev/null); st=$?
        t "a cgroupfs path with --systemd-cgroup fails create naming linux.cgroupsPath" \
                has "$st:$out" "1:sbx-runc: config.json: linux.cgroupsPath: cgroupsPath '/not/a/unit': with the systemd cgroup driver it must be 'slice:prefix:name'"
        t "nothing left of it" eq "$(sdrun sh -c "ls $R2 /sys/fs/cgroup/system.slice" | grep -c bad1)" 0
        kill -KILL "$(head -1 $SDC/init.scope/cgroup.procs)" 2>/dev/null
}
echo "# sbx-runc checks took $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s of guest time"
t0=$(cut -d' ' -f1 /proc/uptime)
systemd_checks
echo "# systemd driver checks took $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s of guest time"

# --- podman --runtime sbx-runc, on cgroup v2 ---
if ! command -v podman >/dev/null; then
        echo "ok - podman --memory/--pids-limit on cgroup v2 # SKIP podman not installed"
        exit $fail
fi
t1=$(cut -d' ' -f1 /proc/uptime)
mkdir -p /run/pm && cd /run/pm || exit 1    # conmon leaves a file 'oom' in its working dir
P=(podman --root /run/pm/store --runroot /run/pm/run --tmpdir /run/pm/tmp --storage-driver vfs
   --cgroup-manager cgroupfs --events-backend file --runtime "$SBX_RUNC")
U=(--network none --ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
"${P[@]}" import -q "$D/bb.tar" localhost/bb:latest >/tmp/pm.err 2>&1
t "podman import in the guest" eq "$?" 0 || sed 's/^/# /' /tmp/pm.err
out=$("${P[@]}" run --rm "${U[@]}" --memory 32m --memory-swap 32m --pids-limit 20 localhost/bb \
        sh -c 'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max; for i in $(seq 40); do sleep 5 & done; echo forked-all' 2>&1)
t "podman run --memory 32m --pids-limit 20: memory.max and pids.max inside" has "$out" $'33554432\n20'
t "podman run --pids-limit 20: fork fails at the cap" has "$out" "can't fork"
"${P[@]}" run --rm "${U[@]}" --memory 32m --memory-swap 32m localhost/bb \
        sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived' >/tmp/o 2>&1; st=$?
t "podman run --memory 32m: a 100 MB shell variable is OOM-killed (137)" eq "$st" 137
"${P[@]}" rm -af -t 0 >/dev/null 2>&1
t "podman: no container cgroup left" sh -c "! find $CG -name 'libpod-*' -type d | grep -q ."
echo "# podman checks took $(awk -v a="$t1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s of guest time"
exit $fail

#!/bin/bash
# SPDX-License-Identifier: MIT
# podman's run/exec/stop/kill options, each through sbx-runc and through
# crun (podman's default runtime here) as the control: what the container
# sees and the exit status must be the same under both, so a check that
# crun fails too is a broken check. Rootful only (oci-podman.sh covers
# rootless); an image imported from a busybox-static rootfs, podman's storage
# in a temp dir, no network. The host's hard nofile limit is below podman's
# default: every run passes --ulimit.
. "$(dirname "$0")/oci-lib.sh"
need_root
command -v podman >/dev/null || { echo "1..0 # SKIP podman not installed (.ci/bootstrap installs it)"; exit 0; }
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
T=$(mktemp -d /tmp/sbx-oci-matrix.XXXXXX)
P=(podman --root "$T/store" --runroot "$T/run" --tmpdir "$T/tmp" --cgroup-manager cgroupfs --events-backend file)
U=(--network none --ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
cleanup() {
        "${P[@]}" rm -af -t 0 >/dev/null 2>&1
        "${P[@]}" system reset -f >/dev/null 2>&1
        cd / && rm -rf "$T" 2>/dev/null || { umount -R "$T"/* 2>/dev/null; rm -rf "$T"; }
}
on_exit cleanup
cd "$T" || exit 1
make_rootfs "$T/rootfs"
ln -sf busybox "$T/rootfs/bin/uname"
tar -C "$T/rootfs" -cf "$T/bb.tar" .
"${P[@]}" import -q "$T/bb.tar" localhost/sbx-oci-matrix:latest >/dev/null 2>"$T/err" ||
        { cat "$T/err"; echo "Bail out! podman import failed"; exit 1; }
IMG=localhost/sbx-oci-matrix:latest
# the control runtime: crun where podman can drive it on this host, else runc
CONTROL=
for rt in crun runc; do
        command -v $rt >/dev/null || continue
        [ "$("${P[@]}" --runtime "$(command -v $rt)" run --rm "${U[@]}" $IMG echo ok 2>/dev/null)" = ok ] &&
                { CONTROL=$(command -v $rt); break; }
done
[ -n "$CONTROL" ] || echo "# neither crun nor runc runs under podman here: sbx's results are checked alone"
mkdir -p "$T/vol"; echo data > "$T/vol/f"

# check NAME 'expected-regex' PODMAN-RUN-ARGS...: runs `podman run --rm
# ARGS` under sbx-runc, and under the control; out+status must match the
# regex, and sbx's must equal the control's
check() {
        local name=$1 re=$2 sbx ctl; shift 2
        sbx=$("${P[@]}" --runtime "$SBX_RUNC" run --rm "${U[@]}" "$@" 2>&1 </dev/null; echo "status=$?")
        like "$name" "$(printf '%s' "$sbx" | tr '\n' ' ')" "$re"
        if [ -n "$CONTROL" ]; then
                ctl=$("${P[@]}" --runtime "$CONTROL" run --rm "${U[@]}" "$@" 2>&1 </dev/null; echo "status=$?")
                # runtime names in podman's error text are the only expected difference
                ctl=${ctl//$CONTROL/RUNTIME}; ctl=${ctl//$(basename "$CONTROL")/RUNTIME}
                sbx=${sbx//$SBX_RUNC/RUNTIME}; sbx=${sbx//sbx-runc/RUNTIME}
                if [ "$sbx" = "$ctl" ]; then ok "$name: same as $(basename "$CONTROL")"
                else not_ok "$name: same as $(basename "$CONTROL")"; printf "#   sbx: %s\n#   %s: %s\n" "$sbx" "$(basename "$CONTROL")" "$ctl"; fi
        fi
}
# statuses only (the message text is the runtime's own)
check_status() {
        local name=$1 want=$2 st ctl; shift 2
        "${P[@]}" --runtime "$SBX_RUNC" run --rm "${U[@]}" "$@" >/dev/null 2>&1 </dev/null; st=$?
        is "$name" "$st" "$want"
        if [ -n "$CONTROL" ]; then
                "${P[@]}" --runtime "$CONTROL" run --rm "${U[@]}" "$@" >/dev/null 2>&1 </dev/null; ctl=$?
                is "$name: same status as $(basename "$CONTROL")" "$st" "$ctl"
        fi
}

check "-u 1000:1001, HOME" 'uid=1000.* gid=1001.*HOME=/ status=0' -u 1000:1001 $IMG sh -c 'id; env | grep HOME'
check "-u root: HOME from the image's /etc/passwd" 'HOME=/root' $IMG sh -c 'env | grep HOME'
check "--cap-drop all" 'CapEff:[[:space:]]+0000000000000000' --cap-drop all $IMG grep CapEff /proc/self/status
check "--cap-add NET_ADMIN,SYS_TIME" 'CapEff:[[:space:]]+00000000820415fb' --cap-add NET_ADMIN,SYS_TIME $IMG grep CapEff /proc/self/status
check "--cap-drop CHOWN: chown fails (EPERM)" 'Operation not permitted.*status=1' --cap-drop CHOWN $IMG sh -c 'touch /tmp/f; chown 5 /tmp/f'
check "--cap-drop CHOWN control: with it chown works" '^status=0' $IMG sh -c 'touch /tmp/f; chown 5 /tmp/f'
check "-u 1000 --cap-add NET_BIND_SERVICE: ambient for a non-root user" 'CapAmb:[[:space:]]+0000000000000400' -u 1000 --cap-add NET_BIND_SERVICE $IMG grep CapAmb /proc/self/status
check "--read-only: / refuses writes" 'Read-only file system.*status=1' --read-only $IMG touch /x
check "--read-only: /tmp still writable" '^status=0' --read-only $IMG touch /tmp/x
check "--read-only --read-only-tmpfs=false: /tmp read-only too" 'Read-only file system' --read-only --read-only-tmpfs=false $IMG touch /tmp/x
check "--tmpfs /scratch:size=1m,mode=700" 'size=1024k.*mode=700.*700.*status=0' --tmpfs /scratch:size=1m,mode=700 $IMG sh -c 'grep " /scratch " /proc/mounts; stat -c %a /scratch'
check "--tmpfs noexec" 'Permission denied' --tmpfs /x:noexec $IMG sh -c 'cp /bin/busybox /x/b; /x/b true'
check "-v :ro: readable, writes fail (EROFS)" '^data.*Read-only file system' -v "$T/vol:/v:ro" $IMG sh -c 'cat /v/f; echo x > /v/g'
check "-v :rw,noexec" 'Permission denied' -v "$T/vol:/v:rw,noexec" $IMG sh -c 'cp /bin/busybox /v/b; /v/b true'
rm -f "$T/vol/b"
check "--pids-limit 10: fork fails at the cap" "can't fork" --pids-limit 10 $IMG sh -c 'for i in $(seq 20); do sleep 5 & done; wait'
check "--memory 32m: 100 MB is OOM-killed (137)" 'status=137' --memory 32m --memory-swap 32m $IMG sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived'
if [ ! -e /sys/fs/cgroup/cgroup.controllers ] && [ -d /sys/fs/cgroup/memory ]; then
        cgm=(-v /sys/fs/cgroup/memory:/cgm:ro)
        # the container's own memory cgroup, seen through the host's hierarchy
        mem='cat /cgm$(grep :memory: /proc/self/cgroup | cut -d: -f3)/memory.'
        check "--memory-reservation 20m (v1 soft limit)" '^20971520 ' --memory-reservation 20m "${cgm[@]}" $IMG sh -c "${mem}soft_limit_in_bytes"
        check "--memory-swappiness 10" '^10 ' --memory-swappiness 10 "${cgm[@]}" $IMG sh -c "${mem}swappiness"
        check "--oom-kill-disable" 'oom_kill_disable 1' --oom-kill-disable "${cgm[@]}" $IMG sh -c "${mem}oom_control"
        src=$(findmnt -no SOURCE / 2>/dev/null); pk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1)
        disk=/dev/${pk:-$(basename "${src:-none}")}
        if [ -b "$disk" ]; then
                mm=$(printf '%d:%d' 0x$(stat -c %t "$disk") 0x$(stat -c %T "$disk"))
                blk='cat /cgb$(grep :blkio: /proc/self/cgroup | cut -d: -f3)/blkio.throttle.'
                check "--device-read-bps $disk:1mb" "^$mm 1048576 " --device-read-bps "$disk:1mb" \
                        -v /sys/fs/cgroup/blkio:/cgb:ro $IMG sh -c "${blk}read_bps_device"
        else
                skip "--device-read-bps: no block device under / here"
        fi
else
        skip "--memory-reservation, --memory-swappiness, --oom-kill-disable: v1 checks (the vm lane covers v2)"
fi
check "--sysctl net.ipv4.ip_unprivileged_port_start=80" '^80' --sysctl net.ipv4.ip_unprivileged_port_start=80 $IMG cat /proc/sys/net/ipv4/ip_unprivileged_port_start
check "--sysctl kernel.msgmax=4096 (ipc namespace)" '^4096' --sysctl kernel.msgmax=4096 $IMG cat /proc/sys/kernel/msgmax
check "--hostname box" '^box' --hostname box $IMG hostname
check "--env A=1 --env B" '^A=1.B=two' --env A=1 --env B=two $IMG sh -c 'echo A=$A; echo B=$B'
check "-w /etc: the cwd" '^/etc ' -w /etc $IMG sh -c 'pwd'
check_status "-w of a missing directory: podman refuses it (126)" 126 -w /no/such $IMG true
check "--security-opt seccomp=unconfined" 'Seccomp:[[:space:]]+0' --security-opt seccomp=unconfined $IMG grep Seccomp: /proc/self/status
check "the default seccomp profile is on" 'Seccomp:[[:space:]]+2' $IMG grep Seccomp: /proc/self/status
check "--security-opt no-new-privileges" 'NoNewPrivs:[[:space:]]+1' --security-opt no-new-privileges $IMG grep NoNewPrivs /proc/self/status
check "no-new-privileges off by default" 'NoNewPrivs:[[:space:]]+0' $IMG grep NoNewPrivs /proc/self/status
check "--init: pid 1 is catatonit, the command under it" '^catatonit|^/run/podman-init' --init $IMG sh -c 'cat /proc/1/cmdline | tr "\0" " "'
check "--privileged: every capability podman's own bounding set has" 'CapEff:[[:space:]]+000001f' --privileged $IMG grep CapEff /proc/self/status
check "--ipc private, --uts private (hostname is the container's)" 'status=0' --ipc private $IMG true
check "--oom-score-adj 300" '^300' --oom-score-adj 300 $IMG cat /proc/self/oom_score_adj
check "--ulimit core=0:100" 'core file size +0 +100 ' --ulimit core=0:100 $IMG grep core /proc/self/limits
check "--cpu-shares 512 --cpus 0.5 start" 'status=0' --cpu-shares 512 --cpus 0.5 $IMG true
check "--device /dev/fuse style: --device /dev/null:/dev/mynull" 'ok' --device /dev/null:/dev/mynull $IMG sh -c 'echo x > /dev/mynull && echo ok'
check "--mount type=tmpfs,destination=/m,tmpfs-size=2m" 'size=2048k' --mount type=tmpfs,destination=/m,tmpfs-size=2m $IMG grep " /m " /proc/mounts
check "--mount type=bind,ro" '^data.*Read-only' --mount type=bind,source="$T/vol",destination=/b,ro=true $IMG sh -c 'cat /b/f; touch /b/x'
# runc 1.1 ignores linux.personality (crun and sbx apply it): no control
C=$CONTROL; [ "$(basename "${CONTROL:-x}")" = runc ] && CONTROL=
check "--personality LINUX32" '^i686' --personality LINUX32 $IMG uname -m
CONTROL=$C
check "--shm-size 1m" 'size=1024k' --shm-size 1m $IMG grep /dev/shm /proc/mounts
check_status "exit status 3 passes through" 3 $IMG sh -c 'exit 3'
check_status "a missing command: 127" 127 $IMG /nonexistent
check_status "not executable: 126" 126 $IMG /etc/passwd
check_status "a bad -w that is a file: 126/127 as podman maps it" "$("${P[@]}" --runtime "${CONTROL:-$SBX_RUNC}" run --rm "${U[@]}" -w /etc/passwd $IMG true >/dev/null 2>&1; echo $?)" -w /etc/passwd $IMG true
check_status "a runtime failure: 125 (unknown capability)" 125 --cap-add NOSUCHCAP $IMG true
check_status "killed by SIGKILL: 137" 137 $IMG sh -c 'sh -c "kill -9 \$\$"; exit $?'
check_status "killed by SIGTERM: 143" 143 $IMG sh -c 'sh -c "kill -15 \$\$"; exit $?'

# exec, stop, kill, rm -f on a running container, sbx-runc only
"${P[@]}" --runtime "$SBX_RUNC" run -d --name m1 "${U[@]}" $IMG sh -c 'trap "exit 3" USR1; trap "exit 0" TERM; while :; do sleep 0.2; done' >/dev/null 2>"$T/err"
is "run -d" "$("${P[@]}" inspect -f '{{.State.Status}}' m1 2>&1)" running
"${P[@]}" exec m1 sh -c 'exit 9' >/dev/null 2>&1; is "exec: exit status 9" "$?" 9
"${P[@]}" exec m1 /nonexistent >/dev/null 2>&1; is "exec: missing command 127" "$?" 127
"${P[@]}" exec m1 /etc/passwd >/dev/null 2>&1; is "exec: not executable 126" "$?" 126
is "exec -u 1000 -w /tmp -e X=1" "$("${P[@]}" exec -u 1000 -w /tmp -e X=1 m1 sh -c 'echo $(id -u) $(pwd) $X' 2>&1)" "1000 /tmp 1"
out=$(script -qec "${P[*]} exec -it m1 sh -c 'tty; exit 6'" /dev/null 2>&1); st=$?
like "exec -it: a terminal" "$out" '/dev/pts/'
is "exec -it: exit status" "$st" 6
"${P[@]}" kill -s USR1 m1 >/dev/null 2>&1
for i in $(seq 50); do [ "$("${P[@]}" inspect -f '{{.State.Status}}' m1 2>&1)" = exited ] && break; sleep 0.1; done
is "kill -s USR1: the trap's exit status" "$("${P[@]}" inspect -f '{{.State.ExitCode}}' m1 2>&1)" 3
"${P[@]}" rm m1 >/dev/null 2>&1
"${P[@]}" --runtime "$SBX_RUNC" run -d --name m2 "${U[@]}" $IMG sleep 300 >/dev/null 2>&1
"${P[@]}" kill m2 >/dev/null 2>&1
for i in $(seq 50); do [ "$("${P[@]}" inspect -f '{{.State.Status}}' m2 2>&1)" = exited ] && break; sleep 0.1; done
is "kill (SIGKILL): 137" "$("${P[@]}" inspect -f '{{.State.ExitCode}}' m2 2>&1)" 137
"${P[@]}" rm m2 >/dev/null 2>&1
"${P[@]}" --runtime "$SBX_RUNC" run -d --name m3 "${U[@]}" $IMG sh -c 'trap "exit 0" TERM; while :; do sleep 0.2; done' >/dev/null 2>&1
"${P[@]}" stop -t 5 m3 >/dev/null 2>&1
is "stop: SIGTERM, the trap's 0" "$("${P[@]}" inspect -f '{{.State.ExitCode}}' m3 2>&1)" 0
"${P[@]}" start m3 >/dev/null 2>&1
is "start again after stop" "$("${P[@]}" inspect -f '{{.State.Status}}' m3 2>&1)" running
"${P[@]}" rm -f -t 0 m3 >/dev/null 2>&1; is "rm -f of a running container" "$?" 0
is "rm -f: gone" "$("${P[@]}" ps -aq --filter name=m3 2>&1)" ""
done_testing

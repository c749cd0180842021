#!/bin/bash
# SPDX-License-Identifier: MIT
# The differential matrix (oci15): the same `podman run --rm OPTION IMG
# /probe` through sbx-runc and through the control runtime (crun where it
# runs; crun 1.8 refuses hybrid cgroup hosts such as this CI machine, so
# there runc 1.1), and what the process sees must be the same: ids and
# groups, the capability sets, no_new_privs, seccomp mode, signal masks,
# umask (/proc/self/status), hostname, env, cwd, oom_score_adj, rlimits,
# sysctls, every mount in /proc/self/mountinfo (point, options,
# propagation, fs type, super options; mount ids and peer group numbers
# dropped), the device nodes, the namespaces, the cgroup limits as read in
# the container, pid 1, the exit status. Each option's effect is also
# checked on sbx's output (a regex), so an option both runtimes ignore is
# no pass. What sbx does differently on purpose is normalised away below,
# each with its reason (README "sbx as an OCI runtime": deliberately
# different). Then podman's lifecycle commands (update, top, logs -t, ps
# states, pause/unpause, kill -s) on both, and sbx-runc's own update.
#
# As root: rootful podman. As another uid (oci-podman-diff-rootless, root
# runs it as sbx-ci through as-unpriv.sh --subids): rootless podman, a
# shorter list, with --userns keep-id.
. "$(dirname "$0")/oci-lib.sh"
command -v podman >/dev/null || { echo "1..0 # SKIP podman not installed (.ci/bootstrap installs it)"; exit 0; }
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
ROOTLESS=
if [ "$(id -u)" != 0 ]; then
        ROOTLESS=1
        command -v newuidmap >/dev/null || { echo "1..0 # SKIP rootless podman needs newuidmap (Debian uidmap)"; exit 0; }
fi
T=$(mktemp -d /tmp/sbx-oci-diff.XXXXXX)
P=(podman --root "$T/store" --runroot "$T/run" --tmpdir "$T/tmp" --cgroup-manager cgroupfs --events-backend file)
U=(--ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
NET=(--network none)
cleanup() {
        "${P[@]}" rm -af -t 0 >/dev/null 2>&1
        "${P[@]}" system reset -f >/dev/null 2>&1
        [ -n "$ROOTLESS" ] && [ -s "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid" ] &&
                kill "$(cat "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid")" 2>/dev/null
        cd / && rm -rf "$T" 2>/dev/null || { umount -R "$T"/* 2>/dev/null; rm -rf "$T"; }
}
on_exit cleanup
cd "$T" || exit 1
make_rootfs "$T/rootfs"
for a in sort sed seq; do ln -sf busybox "$T/rootfs/bin/$a"; done
cat > "$T/rootfs/probe" <<'EOF'
#!/bin/sh
echo "id: $(id)"
grep -E '^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp|SigBlk|SigIgn|Umask):' /proc/self/status
echo "hostname: $(hostname)"
echo "cwd: $(pwd)"
echo "oom_score_adj: $(cat /proc/self/oom_score_adj)"
env | grep -v -E '^(HOSTNAME|SHLVL|PWD|_|container_uuid)=' | sort | sed 's/^/env: /'
sed 1d /proc/self/limits | sed 's/^/limit: /'
for s in net/ipv4/ip_unprivileged_port_start kernel/msgmax net/ipv4/ping_group_range kernel/shmmax net/core/somaxconn; do
        echo "sysctl $s: $(cat /proc/sys/$s 2>&1)"
done
awk '{ p=""; for (i=7; $i!="-"; i++) { t=$i; sub(/:[0-9]+/,"",t); p=p" "t }; i++; so=$(i+2); if ($(i)=="overlay") so="-"; gsub(/,?(uid|gid)=[0-9]+/,"",so); print "mount: " $5 " " $6 p " - " $i " " so }' /proc/self/mountinfo | sort -u
for f in /dev/* /dev/pts/ptmx; do
        [ -e "$f" ] && echo "dev: $(stat -c '%n %F %t:%T %a %u:%g' "$f")"
done
ls -l /proc/self/ns | awk 'NF > 8 {print "ns: " $9}' | sort
for f in memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes memory/memory.soft_limit_in_bytes memory/memory.swappiness pids/pids.max cpu/cpu.cfs_quota_us cpu/cpu.cfs_period_us cpu/cpu.shares cpuset/cpuset.cpus memory.max pids.max cpu.max cpu.weight; do
        [ -e /sys/fs/cgroup/$f ] && echo "cgroup $f: $(cat /sys/fs/cgroup/$f 2>&1)"
done
echo "pid1: $(tr '\0' ' ' < /proc/1/cmdline)"
EOF
chmod 755 "$T/rootfs/probe"
tar -C "$T/rootfs" -cf "$T/bb.tar" .
"${P[@]}" import -q "$T/bb.tar" localhost/sbx-oci-diff:latest >/dev/null 2>"$T/err" ||
        { cat "$T/err"; echo "Bail out! podman import failed"; exit 1; }
IMG=localhost/sbx-oci-diff:latest
CONTROL=
for rt in crun runc; do
        command -v $rt >/dev/null || continue
        if [ "$("${P[@]}" --runtime "$(command -v $rt)" run --rm "${U[@]}" "${NET[@]}" $IMG echo ok 2>"$T/err")" = ok ]; then
                CONTROL=$(command -v $rt); break
        fi
        echo "# $rt cannot be podman's runtime here: $(head -1 "$T/err")"
done
[ -n "$CONTROL" ] || { echo "1..0 # SKIP neither crun nor runc runs under podman here: nothing to compare with"; exit 0; }
CN=$(basename "$CONTROL")
echo "# the control runtime: $CONTROL ($("$CONTROL" --version | head -1))"
# sbx's deliberate differences (README "sbx as an OCI runtime"), the same
# normalisation for both outputs: the id-named hostname; kernel.shmmax
# (sbx's IPC bounds, SECURITY.md ipc14; a --sysctl value is compared); the
# rootfs nodev; devpts max=; masked paths (read-only nosuid,noexec binds
# and size=0 tmpfs in sbx, rw in runc); the cgroup v1 tmpfs (sbx honours
# the mount's ro) and the name=systemd hierarchy (sbx joins the
# controllers' hierarchies only); device nodes bound rootless (sbx adds
# nosuid,noexec); rootless on cgroup v1 the caller's own cgroups, which
# runc binds read-only and sbx does not (the container has none).
cat > "$T/norm.sed" <<'EOF'
s/^hostname: [0-9a-f]\{12\}$/hostname: ID/
/^sysctl kernel\/shmmax: \(67108864\|18446744073692774399\)$/d
/^mount: \/ /s/,nodev//
/^mount: \/dev\/pts /s/,max=[0-9]*//
/^mount: \/\(proc\|sys\)\/[^ ]* .* - \(tmpfs\|devtmpfs\) /s/ .*//
/^mount: \/sys\/fs\/cgroup /s/ .*//
/^mount: \/sys\/fs\/cgroup\/systemd /d
/^mount: \/dev\/[a-z]* .* - devtmpfs /s/,nosuid,noexec//
EOF
[ -n "$ROOTLESS" ] && printf '%s\n' '/^mount: \/sys\/fs\/cgroup\/./d' '/^cgroup /d' >> "$T/norm.sed"

# diff NAME 'regex on sbx' PODMAN-RUN-ARGS...: the run through each runtime,
# normalised; equal, and sbx's output matches the regex
diff_run() {
        local name=$1 re=$2; shift 2
        "${P[@]}" --runtime "$SBX_RUNC" run --rm "${U[@]}" "${NET[@]}" "$@" >"$T/sbx.out" 2>&1 </dev/null; echo "status=$?" >>"$T/sbx.out"
        "${P[@]}" --runtime "$CONTROL" run --rm "${U[@]}" "${NET[@]}" "$@" >"$T/ctl.out" 2>&1 </dev/null; echo "status=$?" >>"$T/ctl.out"
        sed -i -e "s|$SBX_RUNC|RUNTIME|g; s|sbx-runc|RUNTIME|g; s|\r\$||" -f "$T/norm.sed" "$T/sbx.out"
        sed -i -e "s|$CONTROL|RUNTIME|g; s|$CN|RUNTIME|g; s|\r\$||" -f "$T/norm.sed" "$T/ctl.out"
        like "$name: its effect under sbx-runc" "$(tr '\n' ' ' < "$T/sbx.out")" "$re"
        # a mount stacked twice on one point (runc's own device bind under
        # podman's) reads as one; XSED: a documented difference of this check
        for f in "$T/sbx.out" "$T/ctl.out"; do
                sed -e "${XSED:-}" "$f" | awk '!seen[$0]++' > "$f.n" && mv "$f.n" "$f"
        done
        if diff "$T/ctl.out" "$T/sbx.out" >"$T/diff"; then
                ok "$name: what the process sees = $CN's"
        else
                not_ok "$name: what the process sees = $CN's"; sed "s/^/#   /" "$T/diff" | head -20
        fi
}
mkdir -p "$T/vol"; echo data > "$T/vol/f"
printf 'A=1\n# a comment\nB=two words\n' > "$T/env.list"
echo '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_ERRNO","errnoRet":1}]}' > "$T/sc.json"
PR=(sh -c '/probe; mkdir /tmp/x 2>&1; exit 3')

# options grouped so the matrix stays short (each pair of runs is ~1-3 s);
# a difference names its line in the diff printed
diff_run "defaults" 'CapEff:.00000000800405fb .*Seccomp:.2 .*status=3' $IMG "${PR[@]}"
diff_run "-u 1000:1001 --group-add 5 --group-add 6 --cap-drop all" \
        '^id: uid=1000.* gid=1001.* groups=5,6,1001.*Groups:.5 6 1001 .*CapBnd:.0000000000000000 ' \
        -u 1000:1001 --group-add 5 --group-add 6 --cap-drop all $IMG "${PR[@]}"
diff_run "--cap-add SYS_ADMIN --cap-drop CHOWN --security-opt no-new-privileges,seccomp=profile.json --ulimit --sysctl" \
        "CapEff:.00000000802405fa .*NoNewPrivs:.1 .*stack size +8388608 +16777216 .*core file size +0 +100 .*ping_group_range: 0.5 .*shmmax: 1000000 .*mkdir: can't create directory '/tmp/x': Operation not permitted" \
        --cap-add SYS_ADMIN --cap-drop CHOWN --security-opt no-new-privileges --security-opt "seccomp=$T/sc.json" \
        --ulimit core=0:100 --ulimit stack=8388608:16777216 \
        --sysctl "net.ipv4.ping_group_range=0 5" --sysctl kernel.shmmax=1000000 $IMG "${PR[@]}"
diff_run "--init --workdir --hostname --env-file --oom-score-adj" \
        'hostname: box cwd: /tmp oom_score_adj: 500 env: A=1 env: B=two words .*pid1: /run/podman-init -- sh -c' \
        --init --workdir /tmp --hostname box --env-file "$T/env.list" --oom-score-adj 500 $IMG "${PR[@]}"
# rootless, sbx's one seccomp rule refusing device nodes stays (README: no
# device cgroup without root), so Seccomp is 2 there where runc's is 0
XSED=; [ -n "$ROOTLESS" ] && XSED='/^Seccomp:/d'
diff_run "--privileged: honoured (every capability, no seccomp, the host's devices, /dev/ptmx the devpts link)" \
        'CapEff:.000001ff.*NoNewPrivs:.0 .*dev: /dev/ptmx symbolic link' --privileged $IMG "${PR[@]}"
XSED=
diff_run "--read-only --tmpfs size,mode,noexec -v :ro -v :z --mount bind,ro,rslave --device" \
        'mount: / ro,.*mount: /b ro,.*mount: /scratch rw,[a-z,]*noexec.* - tmpfs rw,size=1024k,mode=700 .*mount: /tmp rw.*mount: /v ro,.*mount: /z rw,.*dev: /dev/mynull character special file 1:3' \
        --read-only --tmpfs /scratch:size=1m,mode=700,noexec -v "$T/vol:/v:ro" -v "$T/vol:/z:z" \
        --mount "type=bind,source=$T/vol,destination=/b,ro=true,bind-propagation=rslave" \
        --device /dev/null:/dev/mynull:r $IMG "${PR[@]}"
# -v :rshared makes podman ask for rootfsPropagation shared: sbx makes the
# container's / shared, as the spec says; runc 1.1 leaves / private (README)
XSED='/^mount: \/ /s/ shared - / - /'
diff_run "--read-only --read-only-tmpfs=false --security-opt unmask=ALL -v :rshared" \
        'mount: / ro,[a-z,]* shared - .*mount: /proc rw[a-z,]* - proc rw mount: /r rw,[a-z,]* shared - .*mount: /run' \
        --read-only --read-only-tmpfs=false --security-opt unmask=ALL -v "$T/vol:/r:rshared" $IMG "${PR[@]}"
XSED=
diff_run "-t: /dev/console is the pty, owned by the user, group tty" '^/dev/pts/0 88:0 1000:5 88:0 1000:5 status=0' \
        -t -u 1000 $IMG sh -c 'tty; stat -c "%t:%T %u:%g" /dev/console "$(tty)"'
if [ -n "$ROOTLESS" ]; then
        # runc 1.1 makes the IPC namespace with the caller's gid (README)
        XSED='s|^\(dev: /dev/mqueue directory 0:0 1777 0:\)[0-9]*$|\1G|'
        diff_run "--userns keep-id (/dev/mqueue root's: made once root in the namespace)" \
                "id: uid=$(id -u).*dev: /dev/mqueue directory 0:0 1777 0:0" --userns keep-id $IMG "${PR[@]}"
        XSED=
        if command -v slirp4netns >/dev/null; then
                NET=(--network slirp4netns)
                diff_run "--network slirp4netns: its tap0 in the container's namespace" 'lo tap0 +status=0' \
                        $IMG sh -c 'sed 1,2d /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\n" " "'
                NET=(--network none)
        else
                skip "--network slirp4netns: slirp4netns is not installed here (rootless podman 4.3's network)"
        fi
else
        diff_run "--pids-limit --memory --cpus --cpu-shares --cpuset-cpus (as read in the container) --shm-size --cgroupns host" \
                'mount: /dev/shm .* - tmpfs rw,size=2048k .*memory.limit_in_bytes: 67108864 .*pids.max: 33 .*cfs_quota_us: 50000 .*cpu.shares: 300 .*cpuset.cpus: 0 ' \
                --pids-limit 33 --memory 64m --memory-swap 128m --cpus 0.5 --cpu-shares 300 --cpuset-cpus 0 \
                --shm-size 2m --cgroupns host $IMG "${PR[@]}"
        NET=(--network host)
        diff_run "--pid host --network host: the host's namespaces" \
                "^net:\\[$(stat -L -c %i /proc/self/ns/net)\\] pid:\\[$(stat -L -c %i /proc/self/ns/pid)\\] .*status=0" \
                --pid host $IMG sh -c 'readlink /proc/self/ns/net; readlink /proc/self/ns/pid; grep -E "^(Cap|NoNew|Seccomp)" /proc/self/status'
        NET=(--network none)
fi
# idmapped mounts: refused by sbx naming the option (runc 1.1 and crun 1.8 ignore "idmap")
out=$("${P[@]}" --runtime "$SBX_RUNC" run --rm "${U[@]}" "${NET[@]}" -v "$T/vol:/v:idmap" $IMG true 2>&1); st=$?
like "-v :idmap: refused, naming mounts[N].options[M] (documented)" "$st:$out" '^126:.*mounts\[[0-9]+\]\.options\[[0-9]+\]: idmapped mounts are not supported by sbx'

# --- lifecycle under podman, each runtime: ps states, top, logs -t, update,
# pause/unpause (v1 freezer), kill -s
life() {
        local rt=$1 out
        # sh forks once (the sleep) and then waits: a shell that forked a
        # `sleep 0.1` every 0.1 s showed up twice in `podman top` whenever top
        # read /proc between a fork and its exec (the child is still "sh -c
        # trap ..." then), and not at all when top ran before the runtime's
        # process had exec'd sh (top=0 and top=2 under load, session 16)
        "${P[@]}" --runtime "$rt" create --name lc "${U[@]}" "${NET[@]}" $IMG sh -c 'trap "exit 5" HUP; echo line1; sleep 1000 & wait' >/dev/null 2>&1
        out="created=$("${P[@]}" inspect -f '{{.State.Status}}' lc 2>&1)"
        "${P[@]}" start lc >/dev/null 2>&1
        out="$out running=$("${P[@]}" inspect -f '{{.State.Status}}' lc 2>&1)"
        # the sleep exec'd: sh is in `wait` from then on, nothing forks any more
        for i in $(seq 100); do "${P[@]}" top lc args 2>/dev/null | grep -qx 'sleep 1000 *' && break; sleep 0.1; done
        top=$("${P[@]}" top lc pid args 2>&1)
        out="$out top=$(grep -c 'sh -c trap' <<<"$top")+$(grep -cE '^ *[0-9]+ +sleep 1000 *$' <<<"$top")"
        out="$out logs=$("${P[@]}" logs -t lc 2>&1 | sed -n 's/^[0-9-]*T[0-9:.]*[-+Z][0-9:]* //p' | head -1)"
        out="$out exec=$(script -qec "${P[*]} exec -t -u 1000 -w /tmp -e Z=9 lc sh -c 'tty; stat -c %u:%g \$(tty); pwd; echo \$Z; grep CapEff /proc/self/status'" /dev/null 2>&1 | tr -d '\r' | tr -s '\n\t' '  ')"
        if [ -z "$ROOTLESS" ]; then
                "${P[@]}" update --memory 100m --cpus 0.25 lc >/dev/null 2>&1; out="$out update=$?"
                out="$out limits=$("${P[@]}" exec lc sh -c 'cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu.max' 2>&1 | tr '\n' ,)"
                "${P[@]}" pause lc >/dev/null 2>&1; out="$out pause=$? $("${P[@]}" inspect -f '{{.State.Status}}' lc 2>&1)"
                "${P[@]}" unpause lc >/dev/null 2>&1; out="$out unpause=$? $("${P[@]}" inspect -f '{{.State.Status}}' lc 2>&1)"
        fi
        "${P[@]}" kill -s HUP lc >/dev/null 2>&1
        for i in $(seq 50); do [ "$("${P[@]}" inspect -f '{{.State.Status}}' lc 2>&1)" = exited ] && break; sleep 0.1; done
        out="$out kill-HUP=$("${P[@]}" inspect -f '{{.State.Status}}:{{.State.ExitCode}}' lc 2>&1)"
        "${P[@]}" rm lc >/dev/null 2>&1; out="$out rm=$?"
        echo "$out"
}
sbx=$(life "$SBX_RUNC"); ctl=$(life "$CONTROL")
if [ -n "$ROOTLESS" ]; then
        like "podman create/start/top/logs -t/exec -t -u -w -e/kill -s HUP/rm under sbx-runc" "$sbx" \
                '^created=created running=running top=1\+1 logs=line1 exec=/dev/pts/[0-9]+ 1000:5 /tmp 9 CapEff: 0+ +kill-HUP=exited:5 rm=0$'
else
        like "podman create/start/top/logs -t/exec -t -u -w -e/update/pause/unpause/kill -s HUP/rm under sbx-runc" "$sbx" \
                '^created=created running=running top=1\+1 logs=line1 exec=/dev/pts/[0-9]+ 1000:5 /tmp 9 CapEff: 0+ +update=0 limits=104857600,25000, pause=0 paused unpause=0 running kill-HUP=exited:5 rm=0$'
fi
is "... the same as under $CN" "$sbx" "$ctl"

# --- sbx-runc update itself (runc's CLI: --resources FILE|-), root only
if [ -z "$ROOTLESS" ]; then
        R=("$SBX_RUNC" --root "$T/runc-root")
        mkdir -p "$T/b/rootfs" && cp -a "$T/rootfs/." "$T/b/rootfs/"
        (cd "$T/b" && "${R[@]}" spec && python3 - <<'EOF'
import json
c = json.load(open('config.json'))
c['process']['terminal'] = False
c['process']['args'] = ['sleep', '60']
c['linux']['resources'] = {'pids': {'limit': 40}}
json.dump(c, open('config.json', 'w'))
EOF
        ) >/dev/null 2>&1
        (cd "$T/b" && "${R[@]}" create up) >/dev/null 2>&1 </dev/null
        pid=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])' < "$T/runc-root/up/state.json" 2>/dev/null)
        pcg=$(grep -E '^[0-9]+:(pids|):' "/proc/$pid/cgroup" 2>/dev/null | head -1)
        case $pcg in
        *:pids:*) pmax=/sys/fs/cgroup/pids${pcg#*:pids:}/pids.max ;;
        *) pmax=/sys/fs/cgroup${pcg#0::}/pids.max ;;
        esac
        pids() { cat "$pmax" 2>&1; }
        is "sbx-runc create: linux.resources.pids.limit 40" "$(pids)" 40
        echo '{"pids":{"limit":70}}' | "${R[@]}" update --resources - up; st=$?
        is "update --resources - (stdin, as containerd's shim): the new limit" "$st:$(pids)" "0:70"
        echo '{"pids":{"limit":71}}' > "$T/res.json"
        "${R[@]}" update -r "$T/res.json" up; is "update -r FILE" "$?:$(pids)" "0:71"
        out=$("${R[@]}" update --pids-limit 5 up 2>&1); st=$?
        like "update --pids-limit (runc's per-limit flag): refused, naming it" "$st:$out" "^1:.*'--pids-limit' is not supported by sbx"
        out=$(echo '{"devices":[{"allow":true,"access":"rwm"}]}' | "${R[@]}" update -r - up 2>&1); st=$?
        like "update of linux.resources.devices: refused (create's device rules stay)" "$st:$out" '^1:.*linux.resources.devices: not changed by update'
        out=$(echo '{"pids":{"limit":"x"}}' | "${R[@]}" update -r - up 2>&1); st=$?
        like "update with a bad value: refused naming its path, the limit unchanged" "$st:$out:$(pids)" '^1:.*linux.resources.pids.limit.*:71$'
        out=$("${R[@]}" resume up 2>&1); st=$?
        like "resume of a container not paused: refused naming the verb and its state" "$st:$out" "^1:.*resume: container 'up' is created"
        "${R[@]}" kill up KILL >/dev/null 2>&1
        for i in $(seq 30); do "${R[@]}" state up 2>/dev/null | grep -q '"stopped"' && break; sleep 0.1; done
        "${R[@]}" kill up KILL >/dev/null 2>&1; st=$?
        "${R[@]}" kill --all up KILL >/dev/null 2>&1
        is "kill of a stopped container fails, kill --all of it succeeds (runc's exit statuses)" "$st:$?" "1:0"
        for v in pause resume update; do
                out=$(echo '{}' | "${R[@]}" $v $([ $v = update ] && echo -r -) up 2>&1); st=$?
                like "$v of a stopped container: refused naming the verb and its state" "$st:$out" "^1:.*$v: container 'up' is stopped"
        done
        "${R[@]}" delete -f up >/dev/null 2>&1
        out=$(echo '{}' | "${R[@]}" update -r - up 2>&1); st=$?
        like "update of a container that is gone: exit 1 naming it" "$st:$out" '^1:.*up'
        # features: the runtime-spec's features.md keys, as runc prints them
        ff=$("${R[@]}" features | python3 -c 'import json,sys; f=json.load(sys.stdin); print(" ".join(sorted(f)), " ".join(sorted(f["linux"])))' 2>&1)
        like "features: the spec's top-level and linux keys" "$ff" '^annotations hooks linux mountOptions ociVersionMax ociVersionMin apparmor capabilities cgroup mountExtensions namespaces seccomp selinux'
fi
done_testing

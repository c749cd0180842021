#!/bin/bash
# SPDX-License-Identifier: MIT
# Red team round 3 of the OCI contract (session 17): hostile bundles and the
# lifecycle contract, each check on sbx-runc and on runc (runc's verdict
# beside sbx's; where they differ the check names it and README's OCI
# section says why).
# 1. /dev/console (CVE-2025-52565 class): a racing process swaps the rootfs's
#    /dev/console between a file and a symlink to /proc/sys/kernel/core_pattern
#    while containers with process.terminal start; sbx bound the pty by path
#    after an lstat and lost the race (the pty over core_pattern inside the
#    container, 5 of 260 runs before the fix); now /dev/console is opened once
#    beneath the root, refused on procfs/sysfs, and the pty moved there by fd.
# 2. Lifecycle and state: state fields at each step, --pid-file,
#    --console-socket, delete --force of a running container, odd ids, the
#    hooks' state on stdin, exit codes of errors, features.
# 3. Hostile bundles: mount destinations climbing through rootfs symlinks,
#    '..' next to /proc, maskedPaths/readonlyPaths that are symlinks, devices
#    outside /dev and named with '..', sysctls no namespace of the container's
#    covers, rlimits above the hard limit, many additionalGids, namespaces
#    joined by a path to the host's.
# Root only. ~70 s at load 15 (most of it the python and runtime starts).
. "$(dirname "$0")/oci-lib.sh"
need_root
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
versus_runc esc17 'kill $RACER $CSOCK 2>/dev/null'
# run RT BUNDLE ID -> $out (stdout+stderr, CRs dropped), $st
runit() { local rt=$1 b=$2 id=$3; out=$(cd "$b" && rt_$rt run "$id" 2>&1 </dev/null | tr -d '\r'; exit ${PIPESTATUS[0]}); st=$?; }
fails() { # NAME: $st non-zero
        [ "$st" != 0 ] && ok "$1 (exit $st)" || not_ok "$1 (exit 0: $out)"
}

# ---------------------------------------------------------------- 1. console
# the rootfs's own /dev (no /dev tmpfs in config.json), writable, with a
# devpts at /dev/pts; console.lnk -> core_pattern, swapped with console
cons_rootfs() {
        local d=$T/crootfs-$1
        cp -a "$T/rootfs" "$d"
        mkdir -p "$d/dev/pts"
        ln -s pts/ptmx "$d/dev/ptmx"
        mknod -m 666 "$d/dev/null" c 1 3
        : > "$d/dev/console"
        ln -s /proc/sys/kernel/core_pattern "$d/dev/console.lnk"
        echo "$d"
}
CONS_ARGS="c['process']['terminal']=True
c['process']['args']=['sleep','30']
c['root']['readonly']=False
c['mounts']=[m for m in c['mounts'] if m['destination']!='/dev']"
# a console socket that takes every pty sent to it (and keeps it)
python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(8)
keep = []   # runc 1.1 fails create when the master is closed early
while True:
    c, _ = s.accept()
    try:
        keep += socket.recv_fds(c, 64, 4)[1]
    except OSError:
        pass
    c.close()
' "$T/csock" & CSOCK=$!
for i in $(seq 50); do [ -S "$T/csock" ] && break; sleep 0.1; done
# ccreate RT BUNDLE ID -> $st, $out; $cpid: the created process (its mount
# namespace is set up, the pty bound: looked at from the host)
ccreate() {
        out=$(cd "$2" && rt_$1 create --console-socket "$T/csock" "$3" 2>&1 </dev/null); st=$?
        cpid=$(rt_$1 state "$3" 2>/dev/null | grep -o '"pid": *[0-9]*' | grep -o '[0-9]*$')
}
for rt in "${RUNTIMES[@]}"; do
        R="[$rt]"
        # no race: /dev/console a symlink to a procfs file
        d=$(cons_rootfs $rt)
        mv "$d/dev/console.lnk" "$d/dev/console"
        b=$(ROOTFS=$d bundle csym-$rt "$CONS_ARGS")
        ccreate $rt "$b" csym
        if [ $rt = sbx ]; then
                like "$R console: /dev/console a symlink to /proc/sys/kernel/core_pattern fails create, naming it" \
                        "$st:$out" '^1:.*/dev/console is a symlink'
        else
                echo "# runc's verdict on /dev/console -> core_pattern: exit $st${cpid:+, pty on core_pattern: $(grep -c ' /proc/sys/kernel/core_pattern ' /proc/$cpid/mountinfo)}"
        fi
        rt_$rt delete -f csym >/dev/null 2>&1
        # control: the same bundle with /dev/console a file runs, the pty there
        rm "$d/dev/console"; : > "$d/dev/console"
        b=$(ROOTFS=$d bundle cfile-$rt "$CONS_ARGS")
        ccreate $rt "$b" cfile
        is "$R control: /dev/console a file: create runs, the pty (major 0x88) bound there" \
                "$st:$(stat -L -c %t "/proc/$cpid/root/dev/console" 2>&1)" "0:88"
        rt_$rt delete -f cfile >/dev/null 2>&1
        # the race
        rm -rf "$d"; d=$(cons_rootfs $rt)
        "$SBX_RENAME_RACE" "$d/dev/console" "$d/dev/console.lnk" & RACER=$!
        b=$(ROOTFS=$d bundle crace-$rt "$CONS_ARGS")
        won=0 refused=0 clean=0 other=0 n=15
        [ $rt = runc ] && n=5   # runc's verdict only
        for i in $(seq $n); do
                ccreate $rt "$b" crace$i
                if [ "$st" = 0 ] && grep -q ' /proc/sys/kernel/core_pattern ' "/proc/$cpid/mountinfo"; then
                        won=$((won + 1))
                elif [ "$st" = 0 ]; then
                        clean=$((clean + 1))
                elif [ "$st" = 1 ] && [[ "$out" == *console* ]]; then
                        refused=$((refused + 1))
                else
                        other=$((other + 1)); echo "# $R race run $i: $st ${out//$'\n'/ }"
                fi
                rt_$rt delete -f crace$i >/dev/null 2>&1
        done
        kill $RACER 2>/dev/null; wait $RACER 2>/dev/null
        echo "# $R console race, $n runs: won $won, clean $clean, refused $refused, other $other"
        if [ $rt = sbx ]; then
                is "$R console race: the pty never lands on /proc/sys/kernel/core_pattern ($n runs)" "$won" 0
                [ $((clean + refused)) -eq $n ] && ok "$R console race: each run either ran with the pty on /dev/console or was refused" ||
                        not_ok "$R console race: each run either ran or was refused ($other other)"
        fi
done
kill $CSOCK 2>/dev/null
echo "# console: ${SECONDS}s"

# ---------------------------------------------------------- 2. lifecycle
cat > "$T/consrecv.py" <<'EOF'
import os, socket, sys, select
# consrecv.py SOCK OUT: accept one connection, take the pty master, copy
# what it reads to OUT until EIO/EOF or 20 s
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[1] + ".ready", "w").close()
c, _ = s.accept()
msg, fds, _, _ = socket.recv_fds(c, 64, 1)
out = open(sys.argv[2], "wb")
out.write(b"name=" + msg + b"\n"); out.flush()
while select.select([fds[0]], [], [], 20)[0]:
    try:
        d = os.read(fds[0], 4096)
    except OSError:
        break
    if not d:
        break
    out.write(d); out.flush()
EOF
mkdir -p "$T/hk"; chmod 777 "$T/hk"
cat > "$T/hk/hook.sh" <<'EOF'
#!/bin/sh
read -r state
st=$(echo "$state" | grep -o '"status": *"[a-z]*"' | tr -d ' "' | cut -d: -f2)
pid=$(echo "$state" | grep -o '"pid": *[1-9][0-9]*' | tr -d ' "' | cut -d: -f2)
echo "$1:$st:${pid:+pid}" >> "$(dirname "$0")/$2.log"
EOF
chmod 755 "$T/hk/hook.sh"
declare -A KEYS HOOKS RLUP
for rt in "${RUNTIMES[@]}"; do
        R="[$rt]"
        b=$(bundle life-$rt "c['process']['args']=['sleep','30']")
        (cd "$b" && rt_$rt create --pid-file "$T/pid-$rt" life) >/dev/null 2>&1
        s=$(rt_$rt state life 2>/dev/null)
        KEYS[$rt]=$(echo "$s" | python3 -c 'import json,sys; print(" ".join(sorted(json.load(sys.stdin))))' 2>&1)
        pid=$(echo "$s" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])' 2>&1)
        is "$R create --pid-file: the file holds the state's pid, no newline" "$(cat "$T/pid-$rt" 2>&1)" "$pid"
        like "$R state after create: status created, bundle the bundle's absolute path" "$(echo "$s" | tr -d ' \n')" \
                "\"status\":\"created\".*\"bundle\":\"$b\""
        rt_$rt start life >/dev/null 2>&1
        s=$(rt_$rt state life 2>/dev/null | tr -d ' \n')
        like "$R state after start: running, the same pid" "$(echo "$s" | grep -o '"status":"[a-z]*"')$(echo "$s" | grep -o '"pid":[0-9]*')" "^\"status\":\"running\"\"pid\":$pid\$"
        rt_$rt delete life >/dev/null 2>&1; st=$?
        is "$R delete of a running container without --force: exit 1" "$st" 1
        rt_$rt delete --force life >/dev/null 2>&1; st=$?
        is "$R delete --force of a running container: exit 0" "$st" 0
        sleep 0.5   # gone, or a zombie of whoever reaps the runtime's orphans
        [ ! -e /proc/$pid ] || grep -q '^[0-9]* ([^)]*) Z' /proc/$pid/stat 2>/dev/null &&
                ok "$R ... its process is gone" || not_ok "$R ... its process is gone ($(cat /proc/$pid/stat 2>&1 | cut -c1-60))"
        rt_$rt state life >/dev/null 2>&1; is "$R ... state of it: exit 1" "$?" 1
        # stopped: the state's pid
        b=$(bundle stop-$rt "c['process']['args']=['true']")
        (cd "$b" && rt_$rt create stop && rt_$rt start stop) >/dev/null 2>&1; sleep 0.5
        s=$(rt_$rt state stop 2>/dev/null | tr -d ' \n')
        is "$R state of a stopped container: status stopped, pid 0" "$(echo "$s" | grep -o '"status":"[a-z]*"')$(echo "$s" | grep -o '"pid":[0-9]*')" '"status":"stopped""pid":0'
        rt_$rt delete stop >/dev/null 2>&1
        # ids
        for id in ../esc a/b 'x y' .. . "$(printf 'a%.0s' $(seq 300))" 'x;id'; do
                (cd "$b" && rt_$rt create "$id") >/dev/null 2>&1; st=$?
                is "$R create with id '${id:0:20}': exit 1" "$st" 1
                rt_$rt delete -f "$id" >/dev/null 2>&1
        done
        for id in A-b_c.1+2 0; do
                (cd "$b" && rt_$rt create "$id") >/dev/null 2>&1; st=$?
                is "$R create with id '$id': taken" "$st" 0
                rt_$rt delete -f -- "$id" >/dev/null 2>&1
        done
        ls "$T/root-$rt" | grep -q . && not_ok "$R ids: nothing left in --root ($(ls "$T/root-$rt"))" || ok "$R ids: nothing left in --root"
        # errors: exit 1
        (cd "$T" && rt_$rt create noconf) >/dev/null 2>&1; is "$R create without config.json: exit 1" "$?" 1
        echo '{' > "$T/bad.json"; mkdir -p "$T/bbad"; cp "$T/bad.json" "$T/bbad/config.json"
        (cd "$T/bbad" && rt_$rt create badjson) >/dev/null 2>&1; is "$R create with bad JSON: exit 1" "$?" 1
        rt_$rt start nosuch >/dev/null 2>&1; is "$R start of no such container: exit 1" "$?" 1
        rt_$rt kill nosuch KILL >/dev/null 2>&1; is "$R kill of no such container: exit 1" "$?" 1
        b=$(bundle nocmd-$rt "c['process']['args']=['/no/such/cmd']")
        runit $rt "$b" nocmd; fails "$R run of a missing command fails"
        rt_$rt delete -f nocmd >/dev/null 2>&1
        # terminal: --console-socket
        b=$(bundle tty-$rt "c['process']['terminal']=True
c['process']['args']=['sh','-c','tty; echo T=\$TERM']")
        (cd "$b" && rt_$rt create ttyno) >/dev/null 2>&1; is "$R terminal: create without --console-socket: exit 1" "$?" 1
        rm -f "$T/cs-$rt" "$T/cs-$rt.ready"
        python3 "$T/consrecv.py" "$T/cs-$rt" "$T/cs-$rt.out" & CR=$!
        for i in $(seq 50); do [ -e "$T/cs-$rt.ready" ] && break; sleep 0.1; done
        (cd "$b" && rt_$rt create --console-socket "$T/cs-$rt" tty) >/dev/null 2>&1; st=$?
        is "$R terminal: create --console-socket" "$st" 0
        rt_$rt start tty >/dev/null 2>&1
        wait $CR
        like "$R terminal: the pty's master reached the socket, the process's stdio is the pty" \
                "$(tr -d '\r' < "$T/cs-$rt.out" 2>&1)" $'^name=/dev/ptmx\n/dev/pts/0\nT=xterm'
        rt_$rt delete -f tty >/dev/null 2>&1
        # hooks: the state each gets on stdin
        b=$(bundle hooks-$rt "c['process']['args']=['true']
c['mounts'].append({'destination':'$T/hk','type':'bind','source':'$T/hk','options':['rbind','rw']})
for h in ('createRuntime','createContainer','startContainer','poststart','poststop'):
    c.setdefault('hooks',{}).setdefault(h,[]).append({'path':'$T/hk/hook.sh','args':['hook.sh',h,'$rt']})")
        (cd "$b" && rt_$rt create hk && rt_$rt start hk) >/dev/null 2>&1; sleep 0.5; rt_$rt delete hk >/dev/null 2>&1
        HOOKS[$rt]=$(sort "$T/hk/$rt.log" 2>&1 | tr '\n' ' ')
        # the spec: poststart runs after the process started ('running');
        # runc 1.1 passes 'created' there (its state is saved after)
        want=running; [ $rt = runc ] && want=created
        is "$R hooks: the status (and a pid but when stopped) each gets" "${HOOKS[$rt]}" \
                "createContainer:creating:pid createRuntime:creating:pid poststart:$want:pid poststop:stopped: startContainer:created:pid "
        # features
        like "$R features: JSON with ociVersionMin/Max and hooks" "$(rt_$rt features 2>&1 | tr -d ' \n')" \
                '"ociVersionMin":"1\.0\.0".*"ociVersionMax":"1\.[0-9.]+.*"hooks":\["prestart","createRuntime","createContainer","startContainer","poststart","poststop"\]'
done
echo "# lifecycle: ${SECONDS}s"
if [ -n "${KEYS[runc]}" ]; then
        missing=$(comm -13 <(tr ' ' '\n' <<<"${KEYS[sbx]}" | sort) <(tr ' ' '\n' <<<"${KEYS[runc]}" | sort) | tr '\n' ' ')
        is "state: sbx has every field runc's state has (runc: ${KEYS[runc]})" "$missing" ""
fi

# ------------------------------------------------------- 3. hostile bundles
mkdir -p "$T/hostdir" "$T/src"; echo bound > "$T/src/f"; echo HOSTSECRET > "$T/hsecret"; chmod 600 "$T/hsecret"
HR=$T/hrootfs
cp -a "$T/rootfs" "$HR"
ln -s "../../../../../../../..$T/hostdir" "$HR/escrel"
ln -s "$T/hostdir" "$HR/escabs"
ln -s /proc/sys "$HR/psys"
mkdir -p "$HR/inroot"; ln -s /inroot "$HR/inlink"
mkdir -p "$HR/data" "$HR/etc"; echo secret > "$HR/etc/secret"
ln -s /etc/secret "$HR/mlink"; ln -s /data "$HR/rolink"
pat=$(cat /proc/sys/kernel/core_pattern); fwd=$(cat /proc/sys/net/ipv4/ip_forward)
for rt in "${RUNTIMES[@]}"; do
        R="[$rt]"
        export ROOTFS=$HR
        # a destination through a rootfs symlink to a host path stays in the rootfs
        for l in escrel escabs; do
                b=$(bundle $l-$rt "c['root']['readonly']=False
c['process']['args']=['cat','/$l/m/f']
c['mounts'].append({'destination':'/$l/m','type':'bind','source':'$T/src','options':['rbind']})")
                runit $rt "$b" $l
                # runc makes the missing directories beneath the rootfs and
                # mounts there; sbx makes none through a symlink whose
                # target is missing and refuses (README)
                if [ $rt = sbx ]; then
                        like "$R mount at /$l/m (a rootfs symlink to $T/hostdir, missing in the rootfs) fails create, naming it" \
                                "$st:$out" "^1:.*bind '/$l/m'"
                else
                        is "$R mount at /$l/m (a rootfs symlink to $T/hostdir): bound beneath the rootfs" "$st:$out" "0:bound"
                fi
                is "$R ... nothing made or mounted on the host's $T/hostdir" \
                        "$(ls -A "$T/hostdir") $(grep -c " $T/hostdir" /proc/self/mountinfo)" " 0"
        done
        b=$(bundle inlink-$rt "c['process']['args']=['cat','/inroot/m/f']
c['mounts'].append({'destination':'/inlink/m','type':'bind','source':'$T/src','options':['rbind']})")
        runit $rt "$b" inlink
        is "$R control: mount at /inlink/m (a rootfs symlink to /inroot): bound at /inroot/m" "$st:$out" "0:bound"
        rmdir "$HR/inroot/m" 2>/dev/null
        # '..' after a symlink into /proc: lexically /sys/kernel, resolved /proc/sys/kernel
        b=$(bundle pdot-$rt "c['mounts'].append({'destination':'/psys/../sys/kernel','type':'bind','source':'$T/src','options':['rbind']})")
        runit $rt "$b" pdot
        fails "$R a bind at /psys/../sys/kernel (/psys -> /proc/sys) fails create"
        for d in /dev/../proc/sysrq-trigger /proc/self/../sysrq-trigger; do
                b=$(bundle pdd-$rt "c['mounts'].append({'destination':'$d','type':'bind','source':'$T/src/f','options':['bind']})")
                runit $rt "$b" pdd
                fails "$R a bind at $d fails create"
        done
        # maskedPaths / readonlyPaths that are symlinks: what they lead to is masked / read-only
        b=$(bundle mlink-$rt "c['root']['readonly']=False
c['process']['args']=['sh','-c','cat /etc/secret; echo; touch /data/x && echo data-rw; rm -f /data/x']
c['linux']['maskedPaths']=['/mlink']; c['linux']['readonlyPaths']=['/rolink']")
        runit $rt "$b" mlink
        like "$R a masked path that is a symlink: its target reads empty" "$st:$out" '^0:'$'\n'
        like "$R a read-only path that is a symlink: its target is read-only" "$out" 'Read-only file system'
        # devices outside /dev; a device named with '..' (user namespace: the host node is bound in)
        b=$(bundle devout-$rt "c['root']['readonly']=False
c['process']['args']=['sh','-c','echo x > /etc/mynull && echo w-ok; stat -c %t:%T /etc/mynull']
c['linux']['devices']=[{'path':'/etc/mynull','type':'c','major':1,'minor':3,'fileMode':0o666}]")
        runit $rt "$b" devout
        # sbx mounts the rootfs nodev (README): a node outside /dev is made but does not open
        want="0:w-ok 1:3"; [ $rt = sbx ] && want="0:sh: can't create /etc/mynull: Permission denied 1:3"
        is "$R a device at /etc/mynull (outside /dev): made in the rootfs" "$st:$(echo $out)" "$want"
        rm -f "$HR/etc/mynull"
        b=$(bundle devdot-$rt "c['process']['args']=['cat','/dev/../$T/hsecret']
c['linux']['namespaces'].append({'type':'user'})
c['linux']['uidMappings']=[{'containerID':0,'hostID':0,'size':65536}]
c['linux']['gidMappings']=[{'containerID':0,'hostID':0,'size':65536}]
c['linux']['devices']=[{'path':'/dev/../$T/hsecret','type':'c','major':1,'minor':3,'fileMode':0o666}]")
        runit $rt "$b" devdot
        [ $rt = sbx ] && unlike "$R a device named /dev/../$T/hsecret (user namespace) never shows the host file" "$out" HOSTSECRET
        [ $rt = sbx ] && like "$R ... refused at create, naming it" "$st:$out" "^1:.*linux.devices\\[0\\]\\.path: .* has a '\\.\\.' component"
        # runc 1.1.5 binds the host's file there: the container reads HOSTSECRET
        [ $rt = runc ] && echo "# runc's verdict on a device /dev/../$T/hsecret (user namespace): exit $st, ${out//$'\n'/ }"
        b=$(bundle devbig-$rt "c['process']['args']=['true']
c['linux']['devices']=[{'path':'/dev/big','type':'c','major':4096,'minor':1048576,'fileMode':0o666}]")
        runit $rt "$b" devbig
        if [ $rt = sbx ]; then
                fails "$R a device 4096:1048576 (past the kernel's 12:20 bits) fails create"
        else
                echo "# runc's verdict on a device 4096:1048576: exit $st (runc 1.1 makes another number)"
        fi
        # sysctls: the host's value (a write that got through would change nothing)
        for kv in "kernel.core_pattern=$pat" "vm.overcommit_memory=$(cat /proc/sys/vm/overcommit_memory)"; do
                b=$(bundle sysk-$rt "c['linux']['sysctl']={'${kv%%=*}':'''${kv#*=}'''}")
                runit $rt "$b" sysk
                fails "$R linux.sysctl ${kv%%=*} (no namespace of the container's) fails create"
                [ $rt = sbx ] && like "$R ... naming the key" "$out" "linux\\.sysctl\\.${kv%%=*}: not in a namespace"
        done
        b=$(bundle sysn-$rt "c['linux']['sysctl']={'net.ipv4.ip_forward':'$fwd'}
c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='network']")
        runit $rt "$b" sysn
        fails "$R linux.sysctl net.ipv4.ip_forward in the host's network namespace fails create"
        b=$(bundle sysnp-$rt "c['linux']['sysctl']={'net.ipv4.ip_forward':'$fwd'}
c['linux']['namespaces']=[n if n['type']!='network' else {'type':'network','path':'/proc/$$/ns/net'} for n in c['linux']['namespaces']]")
        runit $rt "$b" sysnp
        fails "$R linux.sysctl net.* with the network namespace joined at the test's /proc/PID/ns/net fails create"
        b=$(bundle sysipc-$rt "c['linux']['sysctl']={'kernel.shmmax':'$pat'}
c['linux']['namespaces']=[n for n in c['linux']['namespaces'] if n['type']!='ipc']")
        runit $rt "$b" sysipc
        fails "$R linux.sysctl kernel.shmmax in the host's ipc namespace fails create"
        b=$(bundle sysok-$rt "c['linux']['sysctl']={'kernel.shmmax':'12345','kernel.domainname':'esc17','net.ipv4.ip_forward':'1'}
c['process']['args']=['cat','/proc/sys/kernel/shmmax','/proc/sys/kernel/domainname','/proc/sys/net/ipv4/ip_forward']")
        runit $rt "$b" sysok
        is "$R control: kernel.shmmax, kernel.domainname, net.ipv4.ip_forward in the container's namespaces" "$st:$(echo $out)" "0:12345 esc17 1"
        is "$R ... the host's ip_forward unchanged" "$(cat /proc/sys/net/ipv4/ip_forward)" "$fwd"
        # rlimits: above fs.nr_open never; above our hard limit as that limit allows
        b=$(bundle rlhi-$rt "c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':$(( $(cat /proc/sys/fs/nr_open) + 1 )),'soft':1024}]")
        runit $rt "$b" rlhi; fails "$R RLIMIT_NOFILE hard above fs.nr_open fails"
        b=$(bundle rlsh-$rt "c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':1024,'soft':4096}]")
        runit $rt "$b" rlsh; fails "$R RLIMIT_NOFILE soft above hard fails"
        b=$(bundle rlup-$rt "c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':$(( $(ulimit -Hn) + 1 )),'soft':1024}]")
        runit $rt "$b" rlup; RLUP[$rt]=$st
        hn=$(ulimit -Hn)
        b=$(bundle rlok-$rt "c['process']['rlimits']=[{'type':'RLIMIT_NOFILE','hard':$hn,'soft':$hn}]
c['process']['args']=['sh','-c','ulimit -n']")
        runit $rt "$b" rlok; is "$R control: RLIMIT_NOFILE at our hard limit ($hn)" "$st:$out" "0:$hn"
        # additionalGids
        b=$(bundle g64-$rt "c['process']['user']['additionalGids']=list(range(1000,1064))
c['process']['args']=['sh','-c','id -G | wc -w']")
        runit $rt "$b" g64; is "$R 64 additionalGids: all set" "$st:$(echo $out)" "0:65"
        b=$(bundle g65k-$rt "c['process']['user']['additionalGids']=list(range(1000,1000+65537))")
        runit $rt "$b" g65k; fails "$R 65537 additionalGids (above NGROUPS_MAX) fail"
        b=$(bundle g65-$rt "c['process']['user']['additionalGids']=list(range(1000,1065))
c['process']['args']=['sh','-c','id -G | wc -w']")
        runit $rt "$b" g65
        if [ $rt = sbx ]; then
                like "$R 65 additionalGids: refused at create, naming the limit (runc takes up to 65536)" "$st:$out" \
                        '^1:.*additionalGids: more than 64 groups'
        else
                is "$R 65 additionalGids: all set" "$st:$(echo $out)" "0:66"
        fi
        # namespaces joined by a path to the host's
        b=$(bundle nshost-$rt "c['linux']['namespaces']=[n if n['type']!='network' else {'type':'network','path':'/proc/$$/ns/net'} for n in c['linux']['namespaces']]
c['process']['args']=['readlink','/proc/self/ns/net']")
        runit $rt "$b" nshost
        is "$R network namespace joined at the test's /proc/PID/ns/net: the host's (the config's choice, as runc)" "$st:$out" "0:$(readlink /proc/self/ns/net)"
        b=$(bundle nsfile-$rt "c['linux']['namespaces'].append({'type':'cgroup','path':'$T/hsecret'})")
        runit $rt "$b" nsfile; fails "$R a namespace path that is no namespace fails"
        unset ROOTFS
done

echo "# hostile bundles: ${SECONDS}s"
[ -n "${RLUP[runc]}" ] && is "RLIMIT_NOFILE hard one above ours: sbx's verdict is runc's" "${RLUP[sbx]}" "${RLUP[runc]}"
done_testing

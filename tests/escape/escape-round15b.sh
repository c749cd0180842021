#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 15b (cfgred17): openclaw.json docker.* values and
# docker create arguments where sbx differed from OpenClaw + docker. Found
# and fixed:
# - a tmpfs where the workspace, /agent or a bind is mounted (docker.tmpfs
#   "/workspace", --tmpfs DIR with -v X:DIR): docker refuses the container
#   ("Duplicate mount point"); sbx mounted both, the workspace on top.
#   Refused now, naming the path (run-config.c sbx_run_config_check_mounts).
# - docker.workdir other than /workspace: OpenClaw mounts the workspace
#   there (-v WS:WORKDIR); sbx kept it at /workspace and failed to chdir
#   (125). The workspace is mounted at docker.workdir now (run-policy.c).
# - docker.user / --user names ("root", "nobody:nogroup"): docker looks
#   them up in the container's /etc/passwd and /etc/group; sbx refused
#   every name. Now resolved as docker: in an image's files, and for the
#   default root in the files sbx generates for it (root, nobody; groups
#   root, nogroup), never the host's. A bare uid gets its passwd group, else
#   gid 0 (docker's), not gid = uid. A blank docker.user is unset (OpenClaw
#   passes no --user for it); sbx refused it (image-run.c sbx_rootfs_user).
# - docker.network "" and "default": OpenClaw passes no --network (resp.
#   --network default): docker's default bridge; sbx refused both. Bridge
#   now, with a note (run-policy.c, docker.c).
# - docker.memory/memorySwap/ulimits as OpenClaw passes them (run-policy.c):
#   strings trimmed (" 1g " was refused), a blank string, a blank ulimit
#   name and an object {} with neither soft nor hard pass nothing (sbx
#   refused the blanks, and set nofile=0 for {}: no exec at all), memory 0
#   is docker's "no limit" and memorySwap 0 "unset" (both refused).
# - docker.dns / extraHosts: OpenClaw skips blank entries, docker's CLI
#   trims the address, takes HOST=IP and [IPv6], and writes the canonical
#   address; sbx refused all four. Now as docker (hosts.c
#   sbx_docker_dns_normalize, sbx_docker_extra_host_normalize); a newline
#   inside is still refused.
# - docker exec -e 'X=a<newline>Y=evil': the drop-in read -e with the
#   env-file parser, so one argument became two variables (Y=evil, or
#   PATH=, LD_PRELOAD=, past any check of the names on the caller's side).
#   Docker sets one variable X, newline included: so does sbx now
#   (cli-docker.c exec_env, docker.c sbx_docker_env_add); a bad -e is
#   docker's flag error, 125.
# - docker.binds modes docker refuses ("bogus", "z,z", "ro,rw", "RO",
#   "ro,"): OpenClaw passes them verbatim and docker fails the create; sbx
#   ran, a writable bind for "bogus" and "z,z". Refused now (run-policy.c
#   docker_mount_mode_valid); docker's other modes (propagation, nocopy,
#   cached...) run, the bind kept private.
# - docker.capDrop with a name docker does not know: docker's create fails;
#   sbx ran (it drops every capability anyway). Refused now, naming it.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/agent-cfg.sh"

# --- a tmpfs where the workspace or /agent is mounted: docker's "Duplicate mount point"
cfg "tmpfs: ['/workspace', '/tmp']" "workspaceAccess: 'rw',"
like "tmpfs-dup-workspace: docker.tmpfs '/workspace' refused (2), naming it" "$(brun 'echo x > /workspace/g')" \
        "^2\|.*tmpfs '/workspace': Duplicate mount point"
is "... nothing written to the host workspace" "$(ls "$W")" f
cfg "tmpfs: ['/workspace//', '/tmp']" "workspaceAccess: 'rw',"
like "tmpfs-dup-workspace-slashes: '/workspace//' refused (2)" "$(brun true)" "^2\|.*Duplicate mount point"
cfg "tmpfs: ['/agent', '/tmp']" "workspaceAccess: 'ro',"
like "tmpfs-dup-agent: '/agent' over the ro workspace's /agent view refused (2)" "$(brun true)" "^2\|.*tmpfs '/agent': Duplicate"
cfg "workdir: '/work', tmpfs: ['/work', '/tmp']" "workspaceAccess: 'rw',"
like "tmpfs-dup-workdir: a tmpfs at docker.workdir (the workspace's mount point) refused (2)" "$(brun true)" \
        "^2\|.*tmpfs '/work': Duplicate mount point"
cfg "tmpfs: ['/workspace/sub', '/agent', '/tmp']" "workspaceAccess: 'rw',"
control "a tmpfs below the workspace, and /agent with no /agent view: mounted" \
        "$(brun 'grep -c -e " /workspace/sub tmpfs" -e " /agent tmpfs" /proc/self/mounts')" "0|2 "

# --- docker.workdir: the workspace is mounted there, as OpenClaw's -v WS:WORKDIR
cfg "workdir: '/work'" "workspaceAccess: 'rw',"
is "workdir-mount: the workspace at docker.workdir, the cwd, writable; no /workspace" \
        "$(brun 'pwd; cat f; echo w > g && cat /work/g; ls -d /workspace 2>&1 | grep -c "No such"')" "0|/work inside w 1 "
is "... written to the host workspace" "$(cat "$W/g" 2>&1)" w
rm -f "$W/g"
cfg "workdir: '/work'" "workspaceAccess: 'ro',"
like "workdir-mount-ro: read-only there (EROFS)" "$(brun 'cat /work/f; echo x > /work/g')" "^[12]\|inside .*Read-only file system"

# --- docker.user names: looked up in the sandbox's /etc/passwd and /etc/group
for u in root root:root 0:0; do
        cfg "user: '$u'"
        is "user-name '$u': uid 0, gid 0, no capabilities" "$(brun 'id -u; id -g; grep ^CapEff /proc/self/status')" \
                "0|0 0 CapEff:	0000000000000000 "
done
cfg "user: 'nobody:nogroup'"
is "user-name 'nobody:nogroup': 65534:65534, named so" "$(brun 'id')" \
        "0|uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup) "
cfg "user: '1000'"
is "user-bare-uid '1000': gid 0 as docker (no passwd line), not 1000" "$(brun 'id -u; id -g')" "0|1000 0 "
cfg "user: '1000:1000'"
control "'1000:1000': gid 1000" "$(brun 'id -u; id -g')" "0|1000 1000 "
cfg "user: ''"
is "user-blank: unset (OpenClaw passes no --user): uid 0" "$(brun 'id -u')" "0|0 "
cfg "user: 'daemon'"
like "user-name-unknown 'daemon': refused (2), not the host's daemon" "$(brun id)" \
        "^2\|.*docker.user 'daemon' is not in the sandbox's /etc/passwd"
cfg "user: 'root:wheel'"
like "user-group-unknown 'root:wheel': refused (2)" "$(brun id)" "^2\|.*group 'wheel' is not in the sandbox's /etc/group"
cfg "user: 'root:'"
like "user-empty-group 'root:': refused (2)" "$(brun id)" "^2\|.*empty user or group"

# --- docker.network "" and "default": docker's default network (bridge)
ifaces='tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | grep -vc "^lo$"'
for n in "" default; do
        cfg "network: '$n'"
        got=$(brun "$ifaces")
        if grep -q "^0|" <<<"$got"; then
                is "network '$n': docker's default bridge (one interface besides lo)" "$got" "0|1 "
        else
                like "network '$n': bridge (where this host cannot make one, its error, not a refusal of the value)" \
                        "$got" "^1[0-9][0-9]\|"
                unlike "... not refused as a value" "$got" "neither a mode"
        fi
done
cfg "network: 'none'"
control "network 'none': lo only" "$(brun "$ifaces")" "1|0 "

# --- docker.memory, memorySwap, ulimits as OpenClaw formats them for docker
lim='grep -E "^Max (open files|core)" /proc/self/limits | awk "{print \$(NF-2), \$(NF-1)}" | tr "\n" " "'
cfg ""
base=$(brun "$lim")
cfg "ulimits: { nofile: {}, core: '', ' ': 5 }"
is "ulimits-empty: {} / '' / a blank name pass nothing (as with no ulimits)" "$(brun "$lim")" "$base"
cfg "ulimits: { nofile: ' 100 ', core: { hard: 0 } }"
is "ulimits-trim: ' 100 ' is 100, {hard: 0} is 0:0" "$(brun "$lim")" "0|0 0 100 100  "
cfg "ulimits: { nofile: 100.5 }"
like "ulimits-fraction: refused (2), as docker refuses nofile=100.5" "$(brun true)" "^2\|.*nofile=100.5"
for m in "memory: ''" "memory: 0" "memorySwap: ''"; do
        cfg "$m"
        is "limits '$m': runs (OpenClaw passes no flag, or docker's 0 / -1)" "$(brun 'echo ok')" "0|ok "
done
# the limit itself: read from the host while the sandbox sleeps
memlimit() {
        local pid m tag=$$$RANDOM
        HOME=$TMP/home timeout -k 5 60 "$SBX" run --no-tty --config "$TMP/oc.json" --agent main -- sleep "3.$tag" \
                >/dev/null 2>&1 </dev/null &
        for _ in $(seq 50); do pid=$(pgrep -f "^sleep 3.$tag$") && break; sleep 0.1; done
        m=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3} $2 == "" {print "2:" $3}' "/proc/$pid/cgroup" 2>/dev/null | head -1)
        case "$m" in
        2:*) cat "/sys/fs/cgroup${m#2:}/memory.max" 2>/dev/null ;;
        ?*) cat "/sys/fs/cgroup/memory$m/memory.limit_in_bytes" 2>/dev/null ;;
        esac
        kill "$pid" 2>/dev/null
        wait
}
if is_root && [ -z "$("$SBX" doctor --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cgroup"].get("problem") or "")')" ]; then
        cfg "memory: ' 1g '"
        is "memory-trim: ' 1g ' limits to 1 GiB" "$(memlimit)" 1073741824
        cfg "memory: '512m'"
        control "memory '512m': 512 MiB" "$(memlimit)" 536870912
        for m in "memory: '1g', memorySwap: 0" "memory: '1g', memorySwap: ' -1 '"; do
                cfg "$m"
                is "limits '$m': runs (docker's unset swap / unlimited swap)" "$(brun 'echo ok')" "0|ok "
        done
else
        skip "limits memorySwap 0 / ' -1 ': no cgroup of sbx's own for this caller"
        skip "limits memorySwap 0 / ' -1 ': no cgroup of sbx's own for this caller"
        skip "memory-trim: no cgroup of sbx's own for this caller"
        skip "control: memory '512m': no cgroup of sbx's own for this caller"
fi

# --- dns and extraHosts as OpenClaw passes them and docker's CLI reads them
cfg "dns: ['', ' 1.1.1.1 ', '2001:DB8::1', '::ffff:9.9.9.9'], extraHosts: [' ', 'a=1.2.3.4', 'b:[fd00::5]', 'c: 5.6.7.8', 'd:::1']"
is "dns-extraHosts-docker-forms: blanks skipped, trimmed, HOST=IP, [IPv6], canonical addresses" \
        "$(brun 'grep -v "^#" /etc/resolv.conf; tail -n 4 /etc/hosts')" \
        "0|nameserver 1.1.1.1 nameserver 2001:db8::1 nameserver 9.9.9.9 1.2.3.4	a fd00::5	b 5.6.7.8	c ::1	d "
cfg "extraHosts: ['a:b:1.2.3.4']"
like "extraHosts-colon-host 'a:b:1.2.3.4': refused (2), as docker" "$(brun true)" "^2\|.*extraHosts.*'b:1.2.3.4' is neither"
cfg "extraHosts: ['a=1.2.3.4\\n5.6.7.8 evil']"
like "extraHosts-newline with '=': refused (2)" "$(brun 'cat /etc/hosts')" "^2\|.*neither an IP address"
cfg "dns: [' 1.1.1.1\\nnameserver 9.9.9.9']"
like "dns-newline (trimmed ends only): refused (2)" "$(brun 'cat /etc/resolv.conf')" "^2\|.*not an IPv4 or IPv6"

# --- binds modes: what docker's ValidateMountMode takes runs, the rest is refused
B=$W/bm
mkdir -p "$B"
chmod 777 "$B"
for m in bogus z,z ro,rw RO ro, ,ro; do
        cfg "binds: ['$B:/b:$m']" "workspaceAccess: 'rw',"
        like "binds-mode '$m': refused (2), as docker's invalid mode" "$(brun 'echo x > /b/g')" "^2\|.*docker.binds\[0\].*invalid mode"
done
is "... nothing written through them" "$(ls "$B")" ""
for m in "z|w" "ro,Z|EROFS" "rslave,ro|EROFS" "ro,cached,nocopy|EROFS" "rshared|w"; do
        cfg "binds: ['$B:/b:${m%%|*}']" "workspaceAccess: 'rw',"
        is "binds-mode '${m%%|*}': runs (${m#*|}), the bind not shared with the host" \
                "$(brun '{ echo x > /b/g; } 2>/dev/null && echo w || echo EROFS; rm -f /b/g; n=$(grep -c " /b .*shared:" /proc/self/mountinfo); echo $n')" \
                "0|${m#*|} 0 "
done

# --- capDrop: sbx drops everything; a name docker does not know fails docker's create
for cd in "'all'" "'CAP_NET_RAW'" "'net_raw'" "'ALL', 'chown'"; do
        cfg "capDrop: [$cd]"
        is "capDrop [$cd]: runs, no capabilities" "$(brun 'grep ^CapEff /proc/self/status')" "0|CapEff:	0000000000000000 "
done
cfg "capDrop: ['ALL', 'bogus']"
like "capDrop-unknown 'bogus': refused (2), as docker" "$(brun true)" "^2\|.*docker.capDrop\[1\] 'bogus'.*unknown capability"

# --- the drop-in: the same through docker create (the test image's own /etc/passwd)
if busybox_image sbx-test/r15b:v1; then
        dc() {
                local got rc
                got=$(timeout 20 "$D" create --name "r15b-dc-$$" "$@" sbx-test/r15b:v1 true 2>&1)
                rc=$?
                timeout 20 "$D" rm -f "r15b-dc-$$" >/dev/null 2>&1
                echo "rc=$rc $(tr '\n' ' ' <<<"$got")"
        }
        like "docker-create --tmpfs /workspace -v W:/workspace: refused (125), as docker" \
                "$(dc --tmpfs /workspace -v "$W:/workspace")" "^rc=125 .*Duplicate mount point"
        like "docker-create --tmpfs /d -v W:/d: refused (125)" "$(dc --tmpfs /d -v "$W:/d")" "^rc=125 .*tmpfs '/d': Duplicate"
        control "docker-create --tmpfs /workspace alone: created" "$(dc --tmpfs /workspace | cut -c1-5)" "rc=0 "
        like "docker-create --add-host a:b:1.2.3.4: refused (125)" "$(dc --add-host a:b:1.2.3.4)" "^rc=125 .*neither an IP"
        n=r15b-h-$$
        if timeout 60 "$D" create --name $n --network bridge --add-host 'x=1.2.3.4' --add-host 'y:[fd00::7]' \
                --dns ' 1.1.1.1 ' sbx-test/r15b:v1 sleep infinity >/dev/null 2>&1 && timeout 60 "$D" start $n >/dev/null 2>&1; then
                is "docker-create --add-host x=IP / y:[IPv6], --dns ' IP ': docker's forms" \
                        "$(timeout 60 "$D" exec $n /bin/sh -c 'tail -n 2 /etc/hosts; grep ^nameserver /etc/resolv.conf' | tr '\n' ' ')" \
                        "1.2.3.4	x fd00::7	y nameserver 1.1.1.1 "
        else
                skip "docker-create --add-host forms: no bridge network for this caller here"
        fi
        timeout 60 "$D" rm -f $n >/dev/null 2>&1
        n=r15b-e-$$
        if timeout 60 "$D" create --name $n sbx-test/r15b:v1 sleep infinity >/dev/null 2>&1 &&
                timeout 60 "$D" start $n >/dev/null 2>&1; then
                is "docker-exec-env-newline: -e 'X=a\\nY=evil' is one variable X (8 chars), no Y" \
                        "$(timeout 60 "$D" exec -e $'X=a\nY=evil' $n /bin/sh -c 'printf "%s|" "${Y:-unset}" "${#X}"')" "unset|8|"
                control "-e Y=evil sets Y" "$(timeout 60 "$D" exec -e Y=evil $n /bin/sh -c 'printf "%s|" "${Y:-unset}"')" "evil|"
                timeout 60 "$D" exec -e '=x' $n true >/dev/null 2>&1
                is "docker-exec-env-empty-name: -e '=x' is a flag error (125), as docker" "$?" 125
        else
                for i in 1 2 3; do not_ok "docker create/start for docker exec -e"; done
        fi
        timeout 60 "$D" rm -f $n >/dev/null 2>&1
        like "docker-create --user nosuch: refused (125), naming the image's passwd" "$(dc --user nosuch)" \
                "^rc=125 .*--user 'nosuch' is not in the image's /etc/passwd"
        # the image's /etc/passwd: a user of its own, resolved in it
        img=$TMP/img-u
        mkdir -p "$img/etc" "$img/bin"
        cp "$TMP/img-sbx-test-r15b-v1/bin/busybox" "$img/bin/" && for l in sh id sleep; do ln -sf busybox "$img/bin/$l"; done
        printf 'root:x:0:0:root:/root:/bin/sh\napp:x:4321:4322:app:/home/app:/bin/sh\n' >"$img/etc/passwd"
        printf 'root:x:0:\napp:x:4322:\nstaff:x:50:\n' >"$img/etc/group"
        if python3 "$(dirname "$0")/../integration/rootfs-mkarchive.py" tree "$img.tar" "$img" sbx-test/r15b-u:v1 >/dev/null 2>&1 &&
                timeout 60 "$SBX" rootfs import "$img.tar" >/dev/null 2>&1; then
                for u in "app|4321 4322" "app:staff|4321 50" "4321|4321 4322" "77|77 0"; do
                        n=r15b-u-$$
                        if timeout 60 "$D" create --name $n --user "${u%%|*}" sbx-test/r15b-u:v1 sleep infinity >/dev/null 2>&1 &&
                                timeout 60 "$D" start $n >/dev/null 2>&1; then
                                is "docker-user '${u%%|*}': resolved in the image's files (${u#*|})" \
                                        "$(timeout 60 "$D" exec $n /bin/sh -c 'echo $(id -u) $(id -g)')" "${u#*|}"
                        else
                                not_ok "docker create/start --user ${u%%|*}"
                        fi
                        timeout 60 "$D" rm -f $n >/dev/null 2>&1
                done
        else
                for i in 1 2 3 4; do skip "docker-user: the image with its own /etc/passwd did not import"; done
        fi
        n=r15b-n-$$
        got=$(timeout 60 "$D" create --name $n --network default sbx-test/r15b:v1 sleep infinity 2>&1)
        unlike "docker-create --network default: not refused as a value (docker's default bridge)" "$got" "neither a mode"
        timeout 60 "$D" rm -f $n >/dev/null 2>&1
else
        for i in $(seq 1 14); do skip "docker-create: no static busybox or the test image did not import"; done
fi

is "no sandbox left" "$("$SBX" ls -q 2>/dev/null)" ""
done_testing

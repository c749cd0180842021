#!/bin/bash
# SPDX-License-Identifier: MIT
# Every agents.*.sandbox.docker setting OpenClaw maps to a docker flag
# (openclaw-spec.md §1.3, §6.2; docker-surface.md §1.5), run through the
# docker entry point with the argv OpenClaw builds, each effect checked from
# inside the sandbox (docker exec) as real Docker would show it, and the
# values Docker refuses refused with exit 125 naming the flag. Also the mount
# sets of workspaceAccess none/ro/rw and scope shared. As root and (the
# integration-unpriv lane) as an unprivileged uid; the cgroup limits as root.
. "$(dirname "$0")/lib.sh"
IMAGE=openclaw-sandbox:bookworm-slim
# unprivileged: root's store, read only, when ours lacks the image (the e2e lane builds it as root)
if [ "$(id -u)" != 0 ] && ! "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1 &&
        SBX_IMAGE_DIR=/var/lib/sbx/images "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        export SBX_IMAGE_DIR=/var/lib/sbx/images
        borrowed=1
fi
if ! "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        echo "1..0 # SKIP image $IMAGE not in this user's image store (sbx rootfs build; the e2e lane builds it)"
        exit 0
fi
T=$(mktemp -d /tmp/sbx-docker-matrix.XXXXXX)
chmod 755 "$T"
mkdir -p "$T/bin" "$T/state/sandboxes/ws-s1/skills" "$T/state/sandboxes/ws-s2" "$T/agent" "$T/extra" \
        "$T/odd dir,x" "$T/skills"
ln -s "$(readlink -f "$SBX")" "$T/bin/docker"
D=$T/bin/docker
NAMES="m-all m-rw m-user m-env m-sec m-none m-ro m-rwa m-trap m-wd m-wdro m-shared m-lim m-cap m-join m-bad a-main a-lister a-quiet a-reader a-offline a-sbdeny a-webber"
cleanup() {
        for n in $NAMES; do "$D" rm -f "$n" >/dev/null 2>&1; done
        if [ -n "${NS:-}" ] && ip netns exec "$NS" true 2>/dev/null; then
                ip netns exec "$NS" "$D" rm -f m-br m-net >/dev/null 2>&1
                ip netns exec "$NS" "$D" network rm d11-matrix >/dev/null 2>&1
                ip netns del "$NS"
        fi
        rm -rf "$T"
}
on_exit cleanup
root=0
[ "$(id -u)" = 0 ] && root=1
: "${borrowed:=0}"
# OpenClaw's create prefix (docker-surface.md §1.5), then the setting's flags.
oc_create() {
        local name=$1
        shift
        printf 'LANG=C.UTF-8\nOPENCLAW_CLI=1\n' >"$T/$name.env"
        "$D" create --name "$name" --init --label openclaw.sandbox=1 --label "openclaw.sessionKey=agent:main:$name" \
                --label openclaw.mountFormatVersion=4 --label openclaw.configHash=h "$@"
}
# create (exit 0) + start; prints nothing
up() {
        local name=$1 out
        out=$(oc_create "$@" 2>&1) || { not_ok "create $name: $out"; return 1; }
        out=$("$D" start "$name" 2>&1) || { not_ok "start $name: $out"; return 1; }
}
x() { "$D" exec -i "$@" </dev/null 2>&1; }
# refused NAME-OF-CASE REGEX FLAGS...: create exits 125 naming the flag, nothing left
refused() {
        local what=$1 re=$2 out rc
        shift 2
        out=$(oc_create m-bad "$@" "$IMAGE" sleep infinity 2>&1); rc=$?
        is "$what: create exits 125" "$rc" 125
        like "$what: the message names it" "$out" "$re"
        "$D" inspect m-bad >/dev/null 2>&1 && { not_ok "$what: a refused create left m-bad"; "$D" rm -f m-bad >/dev/null; }
}
mi_opts() { awk -v d="$2" '$5==d {print $6}' <<<"$1"; }

# ---- the defaults OpenClaw passes (readOnlyRoot, tmpfs, network none, capDrop ALL, workdir, env)
ws=$T/state/sandboxes/ws-s1
echo hi >"$ws/f"
up m-all --read-only --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run --network none --user 0:0 --cap-drop ALL \
        --security-opt no-new-privileges --workdir /workspace -v "$ws:/workspace:z" -v "$ws/skills:/workspace/skills:ro,z" \
        --env-file "$T/m-all.env" "$IMAGE" sleep infinity
is "image: the image's root (os-release)" "$(x m-all sh -c '. /etc/os-release; echo $VERSION_CODENAME')" bookworm
is "image: inspect .Config.Image" "$("$D" inspect -f '{{.Config.Image}}' m-all)" "$IMAGE"
mi=$(x m-all cat /proc/self/mountinfo)
like "readOnlyRoot: / is mounted ro" "$(mi_opts "$mi" /)" '^ro'
like "readOnlyRoot: writing /usr fails with EROFS" "$(x m-all touch /usr/x)" 'Read-only file system'
for d in /tmp /var/tmp /run; do
        like "tmpfs $d: a tmpfs, rw,nosuid,nodev,noexec (docker's)" \
                "$(awk -v d=$d '$5==d {print $6, $9}' <<<"$mi")" '^rw,nosuid,nodev,noexec[^ ]* tmpfs$'
done
is "tmpfs: mode 1777, writable" "$(x m-all sh -c 'stat -c %a /tmp && touch /tmp/w && echo ok')" "$(printf '1777\nok')"
is "network none: only lo" "$(x m-all sh -c "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")" lo
is "user 0:0: uid and gid" "$(x m-all sh -c 'echo $(id -u):$(id -g)')" 0:0
is "capDrop ALL: CapEff, CapPrm, CapBnd, CapAmb all 0" \
        "$(x m-all sh -c 'grep -E "^Cap(Eff|Prm|Bnd|Amb)" /proc/self/status | cut -f2 | sort -u')" 0000000000000000
is "no-new-privileges: NoNewPrivs 1" "$(x m-all sh -c 'grep ^NoNewPrivs /proc/self/status | cut -f2')" 1
is "workdir: a plain exec starts in /workspace" "$(x m-all pwd)" /workspace
like "env (env-file): LANG and OPENCLAW_CLI" "$(x m-all env)" 'OPENCLAW_CLI=1'
is "HOME as docker sets it for uid 0 (/root, from the image's passwd)" "$(x m-all sh -c 'echo $HOME')" /root
id=$("$D" inspect -f '{{.Id}}' m-all)
is "hostname: the id's first 12 characters, as docker's; HOSTNAME too" "$(x m-all sh -c 'hostname; echo $HOSTNAME')" \
        "$(printf '%s\n%s' "${id:0:12}" "${id:0:12}")"
is "inspect .Config.Hostname: the same" "$("$D" inspect -f '{{.Config.Hostname}}' m-all)" "${id:0:12}"
is "binds z: /workspace is the host dir, rw" "$(x m-all cat /workspace/f)" hi
like "binds ro,z: the nested skills bind refuses writes (EROFS)" "$(x m-all touch /workspace/skills/x)" \
        'Read-only file system'
is "binds: nested ro sits on /workspace, ro in mountinfo" "$(mi_opts "$mi" /workspace/skills | cut -d, -f1)" ro
# setupCommand: OpenClaw's docker exec -i NAME /bin/sh -lc CMD, exit status passed back
out=$(x m-all /bin/sh -lc 'echo setup >/workspace/setup.txt; echo done'); rc=$?
is "setupCommand: runs as a login shell, output and exit 0" "$rc/$out" 0/done
is "setupCommand: its effect is in the workspace" "$(cat "$ws/setup.txt")" setup
x m-all /bin/sh -lc 'exit 3' >/dev/null
is "setupCommand: a failing one's exit status reaches OpenClaw" "$?" 3
# exec tool: -w and --env-file of each command
printf 'HOME=/workspace\nOPENCLAW_SHELL=exec\nOPENCLAW_PREPEND_PATH=/opt/x\nFOO=a b=c\n' >"$T/exec.env"
out=$("$D" exec -i -w /workspace/skills --env-file "$T/exec.env" m-all /bin/sh -lc \
        'export PATH="${OPENCLAW_PREPEND_PATH}:$PATH"; unset OPENCLAW_PREPEND_PATH; pwd; echo "$FOO|$HOME|${PATH%%:*}"' </dev/null)
is "exec tool: -w and the env-file (a value with spaces and '=')" "$out" "$(printf '/workspace/skills\na b=c|/workspace|/opt/x')"

# ---- readOnlyRoot false, custom workdir, odd bind paths, user from config
up m-rw --tmpfs /tmp:size=16m,mode=1770 --network none --user 1000:1000 --cap-drop ALL --workdir /srv \
        -v "$T/extra:/data:ro" -v "$T/odd dir,x:/odd dir,x:rw" "$IMAGE" sleep infinity
mi=$(x m-rw cat /proc/self/mountinfo)
if [ "$borrowed" = 1 ]; then
        skip "readOnlyRoot false, writes: the image is root's (unprivileged, its files are unmapped: copy-up fails EOVERFLOW; an image of one's own is writable)"
else
        is "readOnlyRoot false: the root is writable (as uid 1000: /var/tmp, 1777 in the image)" \
                "$(x m-rw sh -c 'mkdir -p /var/tmp/w && echo ok')" ok
fi
like "readOnlyRoot false: / is mounted rw" "$(mi_opts "$mi" /)" '^rw'

is "user 1000:1000: uid and gid" "$(x m-rw sh -c 'echo $(id -u):$(id -g)')" 1000:1000
is "HOME for uid 1000: the image's passwd entry (/home/sandbox)" "$(x m-rw sh -c 'echo $HOME')" /home/sandbox
is "capDrop ALL as uid 1000: CapBnd 0" "$(x m-rw sh -c 'grep ^CapBnd /proc/self/status | cut -f2')" 0000000000000000
is "workdir /srv: the cwd of a plain exec" "$(x m-rw pwd)" /srv
like "tmpfs /tmp:size=16m,mode=1770: size 16m in mountinfo" "$(awk '$5=="/tmp"' <<<"$mi")" 'size=16384k'
is "tmpfs mode=1770" "$(x m-rw stat -c %a /tmp)" 1770
like "binds :ro: EROFS" "$(x m-rw touch /data/x)" 'Read-only file system'
like "binds with a space and a comma in the path: in mountinfo (escaped)" "$(awk '{print $5}' <<<"$mi")" \
        '^/odd\\040dir,x$'
like "... the same mount is rw" "$(awk '$5=="/odd\\040dir,x" {print $6}' <<<"$mi")" '^rw'
# docker (runc) makes a workdir the image lacks (0755, root's) before the root is read-only
if [ "$borrowed" = 1 ]; then
        skip "workdir missing, writable root: the image is root's (unprivileged, copy-up of its /srv fails EOVERFLOW)"
        skip "workdir missing, writable root, restart: as above"
else
        up m-user --network none --user 1000:1000 --workdir /srv/app "$IMAGE" sleep infinity
        is "workdir missing in the image (/srv/app): made, 0755 root's, the cwd" \
                "$(x m-user sh -c 'stat -c "%a %U" .; pwd')" "$(printf '755 root\n/srv/app')"
        "$D" stop m-user >/dev/null 2>&1
        "$D" start m-user >/dev/null 2>&1
        is "... the same after stop and start" "$(x m-user pwd)" /srv/app
        "$D" rm -f m-user >/dev/null 2>&1
fi
up m-user --read-only --network none --user 1000:1000 --workdir /app/x "$IMAGE" sleep infinity
is "workdir missing with readOnlyRoot (/app/x): made, the root still read-only" \
        "$(x m-user sh -c 'pwd; touch /app/y 2>&1 | grep -c Read-only')" "$(printf '/app/x\n1')"
"$D" rm -f m-user >/dev/null 2>&1
# below an image directory (/srv): made in the container's layer, as docker
if [ "$borrowed" = 1 ]; then
        skip "workdir missing under an image dir with readOnlyRoot: the image is root's (unprivileged, copy-up of its /srv fails EOVERFLOW)"
        skip "... as above"
        skip "... as above"
else
        up m-user --read-only --network none --user 0:0 --workdir /srv/app "$IMAGE" sleep infinity
        is "workdir missing under an image dir with readOnlyRoot (/srv/app): made in the layer, the cwd" \
                "$(x m-user sh -c 'pwd; stat -c "%a %U" .')" "$(printf '/srv/app\n755 root')"
        like "... the root still read-only (EROFS in /srv and /usr)" \
                "$(x m-user sh -c 'touch /srv/y; touch /usr/y' | tr '\n' ' ')" 'Read-only file system.*Read-only file system'
        is "... the image itself has no /srv/app" \
                "$(test -e "$("$SBX" rootfs inspect "$IMAGE" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("rootfs",""))' 2>/dev/null)/srv/app"; echo $?)" 1
        "$D" rm -f m-user >/dev/null 2>&1
fi
# Docker has no user namespace: a rw bind of a host dir owned by the
# container's uid is writable there. sbx as root runs on subordinate ids and
# does not idmap binds (decided: SECURITY.md §1 "Rw binds of host-owned
# files"; README): the dir is nobody's inside and refuses the write (EACCES),
# where the workspace, idmapped to its owner, takes it (control).
if [ $root = 1 ]; then
        mkdir -p "$T/own" "$T/own-ws"; chown 1000:1000 "$T/own" "$T/own-ws"
        echo skill >"$T/skills/s.md"
        # OpenClaw's rw set for a workspace owned by uid 1000 (its --user):
        # the skills bind below /workspace, and one below the rw bind, their
        # mountpoints missing (the sandbox's ids cannot make them: EOVERFLOW,
        # EACCES; docker's daemon makes them as root)
        up m-user --network none --user 1000:1000 -v "$T/own-ws:/workspace" -v "$T/own:/own:rw" \
                -v "$T/skills:/workspace/.openclaw/sandbox-skills/skills:ro,z" -v "$T/skills:/own/deep/sk:ro" \
                "$IMAGE" sleep infinity
        is "nested binds: below the idmapped /workspace and below an rw bind, mountpoints missing: both there" \
                "$(x m-user sh -c 'cat /workspace/.openclaw/sandbox-skills/skills/s.md /own/deep/sk/s.md')" \
                "$(printf 'skill\nskill')"
        is "nested binds: the mountpoints made in the host directories, as docker makes them (root, 0755)" \
                "$(stat -c '%u %a' "$T/own-ws/.openclaw/sandbox-skills/skills" "$T/own/deep/sk")" "$(printf '0 755\n0 755')"
        mkdir -p "$T/own-ws2" "$T/trap"; chown 1000:1000 "$T/own-ws2"; ln -s "$T/trap" "$T/own-ws2/.openclaw"
        out=$(oc_create m-trap --network none --user 1000:1000 -v "$T/own-ws2:/workspace" \
                -v "$T/skills:/workspace/.openclaw/sk:ro" "$IMAGE" sleep infinity 2>&1 && "$D" start m-trap 2>&1)
        like "nested binds: a symlink in the workspace on the mountpoint's path is not followed (start refused)" \
                "$out" "bind mountpoint: open '\.openclaw' in '$T/own-ws2/\.openclaw/sk' \(a symlink or not a directory is not followed\)"
        is "nested binds: ... nothing made where it leads" "$(ls -A "$T/trap")" ""
        "$D" rm -f m-trap >/dev/null 2>&1
        is "binds rw: a dir host uid 1000 owns is not writable by --user 1000:1000 (EACCES; docker: writable)" \
                "$(x m-user sh -c 'touch /own/x 2>&1 | grep -o "Permission denied"; stat -c %u /own')" \
                "$(printf 'Permission denied\n65534')"
        is "control: the same uid's /workspace (idmapped to its owner) takes the write, owned by host uid 1000" \
                "$(x m-user sh -c 'touch /workspace/x && echo ok'; stat -c %u "$T/own-ws/x")" "$(printf 'ok\n1000')"
else
        skip "binds rw with host ownership: rootless, the caller's files are root's inside (rootless docker's rule too)"
        skip "binds rw ownership: as above"
fi

# ---- docker.workdir: OpenClaw mounts its workspace at the workdir (here
# /work, the image lacks it), its skills bind below; that -v is the
# workspace (as root idmapped: the sandbox user writes it, as under docker)
mkdir -p "$T/wd" "$T/wdro"
up m-wd --read-only --network none --user 0:0 --workdir /work -v "$T/wd:/work:z" \
        -v "$T/skills:/work/.openclaw/sandbox-skills/skills:ro,z" "$IMAGE" sleep infinity
is "workdir /work: the workspace is there, the cwd, writable; the write lands in the host dir" \
        "$(x m-wd sh -c 'pwd; echo w >w.txt && echo ok')/$(cat "$T/wd/w.txt" 2>&1)" "$(printf '/work\nok')/w"
is "workdir /work: inspect's Mounts has it at /work, RW" "$("$D" inspect -f '{{json .Mounts}}' m-wd | python3 -c '
import json, sys
print([(m["Destination"], m["RW"]) for m in json.load(sys.stdin)])')" \
        "[('/work', True), ('/work/.openclaw/sandbox-skills/skills', False)]"
up m-wdro --read-only --network none --user 0:0 --workdir /work -v "$T/wdro:/work:ro,z" "$IMAGE" sleep infinity
like "workdir /work, ro: writes refused (EROFS)" "$(x m-wdro touch /work/x)" "Read-only file system"
"$D" rm -f m-wd m-wdro >/dev/null 2>&1

# ---- env merge, dns, extraHosts
printf 'LANG=C.UTF-8\nA=1\nB=two words\nOPENCLAW_CLI=1\n' >"$T/e.env"
up m-env --network none --user 0:0 --dns 192.0.2.53 --dns 2001:db8::53 --add-host db.internal:192.0.2.10 \
        --add-host v6.internal:2001:db8::10 --env-file "$T/e.env" -e A=override "$IMAGE" sleep infinity
is "env: env-file then -e, later wins; spaces kept" "$(x m-env sh -c 'echo "$A|$B|$LANG"')" "override|two words|C.UTF-8"
is "dns: the nameserver lines of resolv.conf, in order" "$(x m-env sh -c 'grep ^nameserver /etc/resolv.conf')" \
        "$(printf 'nameserver 192.0.2.53\nnameserver 2001:db8::53')"
like "extraHosts: host:ip in /etc/hosts" "$(x m-env cat /etc/hosts)" '^192\.0\.2\.10[[:space:]]+db\.internal$'
like "extraHosts: an IPv6 address (host:a:b::c)" "$(x m-env cat /etc/hosts)" '^2001:db8::10[[:space:]]+v6\.internal$'
is "extraHosts: getent resolves it" "$(x m-env getent hosts db.internal | awk '{print $1}')" 192.0.2.10

# ---- ulimits, both forms OpenClaw writes (name=N and name=soft:hard)
up m-sec --network none --user 1000:1000 --ulimit nofile=1024:2048 --ulimit nproc=512 --ulimit core=0 \
        "$IMAGE" sleep infinity
is "ulimits nofile=1024:2048: soft and hard" "$(x m-sec bash -c 'echo $(ulimit -Sn) $(ulimit -Hn)')" "1024 2048"
is "ulimits nproc=512 (one value: soft = hard)" "$(x m-sec bash -c 'echo $(ulimit -Su) $(ulimit -Hu)')" "512 512"
is "ulimits core=0" "$(x m-sec bash -c 'echo $(ulimit -Sc) $(ulimit -Hc)')" "0 0"
is "ulimits: raising nofile above hard fails inside" "$(x m-sec bash -c 'ulimit -Hn 4096 2>/dev/null; echo $?')" 1

# ---- seccompProfile: a Docker-format profile, both directions
cat >"$T/seccomp.json" <<'EOF'
{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_ERRNO"}]}
EOF
up m-cap --tmpfs /tmp --network none --user 0:0 --cap-drop NET_RAW --security-opt no-new-privileges \
        --security-opt "seccomp=$T/seccomp.json" "$IMAGE" sleep infinity
like "seccompProfile: a syscall it denies fails with EPERM (docker's default errno)" "$(x m-cap mkdir /tmp/d)" \
        'Operation not permitted'
is "seccompProfile: others still work" "$(x m-cap sh -c 'touch /tmp/f && echo ok')" ok
is "capDrop [NET_RAW]: NET_RAW is not in the bounding set (sbx keeps none at all)" \
        "$(x m-cap python3 -c 'print((int(open("/proc/self/status").read().split("CapBnd:")[1].split()[0],16)>>13)&1)')" 0

# Docker keeps its 14 default capabilities unless dropped (capDrop [] or a
# list without ALL): sbx keeps none, decided (README, SECURITY.md §7), and
# inspect shows what holds. Both ways: root's chown to another owner needs
# CAP_CHOWN (EPERM), to its own ids it does not.
is "capDrop [NET_RAW] as uid 0: no capability at all (CapEff, CapBnd 0; docker would keep 14)" \
        "$(x m-cap sh -c 'grep -E "^Cap(Eff|Bnd)" /proc/self/status | cut -f2 | sort -u')" 0000000000000000
if [ $root = 1 ]; then
        is "capDrop [NET_RAW]: chown to another uid fails with EPERM; to its own ids works" \
                "$(x m-cap sh -c 'touch /tmp/c; chown 1:1 /tmp/c 2>&1 | grep -o "Operation not permitted"; chown 0:0 /tmp/c && echo own')" \
                "$(printf 'Operation not permitted\nown')"
else
        skip "capDrop chown: rootless, the sandbox maps one id (chown to another is EINVAL, unmapped)"
fi
is "capDrop [NET_RAW]: inspect .HostConfig.CapDrop is what holds" "$("$D" inspect -f '{{json .HostConfig.CapDrop}}' m-cap)" '["ALL"]'

# ---- refused as docker refuses them: exit 125, the flag named
refused "capDrop unknown" "--cap-drop 'BOGUS'.*unknown capability" --cap-drop BOGUS
refused "network host" "--network.*host" --network host
refused "network: a name no network has" "--network.*not found" --network no-such-net
refused "seccompProfile unconfined" "seccomp=unconfined" --security-opt seccomp=unconfined
refused "seccompProfile: a missing file" "/nonexistent.json" --security-opt seccomp=/nonexistent.json
refused "dns: not an address" "--dns.*not-an-ip" --dns not-an-ip
refused "extraHosts: not HOST:IP" "--add-host.*'nohost'" --add-host nohost
refused "ulimits: soft above hard" "--ulimit.*soft limit above hard" --ulimit nofile=2048:1024
refused "ulimits: an unknown name" "--ulimit.*bogus" --ulimit bogus=1
refused "memory below docker's 6MB minimum" "--memory.*6MB" --memory 4m
refused "memorySwap without memory" "--memory-swap.*Memory limit" --memory-swap 1g
refused "memorySwap below memory" "--memory-swap.*larger than memory" --memory 64m --memory-swap 32m
refused "cpus above the host's CPUs" "--cpus.*Range of CPUs" --cpus 100000
refused "pidsLimit: not a number" "--pids-limit" --pids-limit x
refused "user: a name not in the image's /etc/passwd (docker looks names up there)" "--user 'nosuchuser' is not in the image's /etc/passwd" --user nosuchuser
refused "binds: a relative source (OpenClaw refuses it too)" "-v 'rel:/x'" -v rel:/x
refused "binds: an unknown mode" "unsupported option 'bogus'" -v "$T/extra:/x:bogus"
refused "workdir: relative" "--workdir 'rel'" --workdir rel
refused "tmpfs: a bad size" "--tmpfs.*size" --tmpfs /t:size=xx
# network container:NAME (OpenClaw passes it only with its dangerouslyAllow
# override): docker accepts a NAME no container has at create and refuses it
# at start (moby#49371), with these two lines and exit 1
out=$(oc_create m-bad --network container:m-nosuch "$IMAGE" sleep infinity 2>&1); rc=$?
is "network container:NAME of a missing container: create accepts it, as docker ($out)" "$rc" 0
out=$("$D" start m-bad 2>&1); rc=$?
is "... start exits 1" "$rc" 1
is "... docker's error lines" "$out" \
        "$(printf 'Error response from daemon: No such container: m-nosuch\nError: failed to start containers: m-bad')"
"$D" rm -f m-bad >/dev/null 2>&1
up m-join --network container:m-all --user 0:0 --cap-drop ALL "$IMAGE" sleep infinity
is "network container:m-all: the same network namespace as m-all's" "$(x m-join readlink /proc/self/ns/net)" \
        "$(x m-all readlink /proc/self/ns/net)"
"$D" rm -f m-join >/dev/null 2>&1
# apparmorProfile: docker applies a profile only where the host has AppArmor
if [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ]; then
        refused "apparmorProfile (this host has AppArmor; sbx cannot load a profile)" "apparmor=" \
                --security-opt apparmor=openclaw-test
else
        out=$(oc_create m-bad --security-opt apparmor=openclaw-test "$IMAGE" sleep infinity 2>&1); rc=$?
        is "apparmorProfile on a host without AppArmor: accepted and not applied, as docker ($out)" "$rc" 0
        "$D" rm -f m-bad >/dev/null 2>&1
fi

# ---- workspaceAccess and scope: the mount sets OpenClaw passes (docker-surface.md §1.5)
sw=$T/state/sandboxes/ws-s2
echo agent >"$T/agent/a.txt"
echo sbx >"$sw/s.txt"
up m-none --read-only --network none --user 0:0 --workdir /workspace -v "$sw:/workspace:z" \
        -v "$sw/skills:/workspace/skills:ro,z" "$IMAGE" sleep infinity
is "workspaceAccess none: /workspace is the sandbox workspace, writable" \
        "$(x m-none sh -c 'cat s.txt; touch n && echo ok')" "$(printf 'sbx\nok')"
is "workspaceAccess none: the agent workspace is not there" "$(x m-none sh -c 'test -e /agent; echo $?')" 1
mkdir -p "$T/agent/.openclaw/sandbox-skills/skills"
up m-rwa --read-only --network none --user 0:0 --workdir /workspace -v "$T/agent:/workspace:z" \
        -v "$T/agent/.openclaw/sandbox-skills/skills:/workspace/.openclaw/sandbox-skills/skills:ro,z" "$IMAGE" sleep infinity
is "workspaceAccess rw: the agent workspace at /workspace, writes reach the host" \
        "$(x m-rwa sh -c 'cat a.txt; echo w >w.txt && echo ok')/$(cat "$T/agent/w.txt" 2>/dev/null)" "$(printf 'agent\nok')/w"
like "workspaceAccess rw: the nested skills bind is ro" "$(x m-rwa touch /workspace/.openclaw/sandbox-skills/skills/x)" \
        'Read-only file system'
up m-ro --read-only --network none --user 0:0 --workdir /workspace -v "$sw:/workspace:ro,z" -v "$T/agent:/agent:ro,z" \
        "$IMAGE" sleep infinity
like "workspaceAccess ro: /workspace refuses writes (EROFS)" "$(x m-ro touch /workspace/x)" 'Read-only file system'
like "workspaceAccess ro: /agent refuses writes (EROFS)" "$(x m-ro touch /agent/x)" 'Read-only file system'
is "workspaceAccess ro: both readable" "$(x m-ro sh -c 'cat /workspace/s.txt /agent/a.txt')" "$(printf 'sbx\nagent')"
mi=$(x m-ro cat /proc/self/mountinfo)
is "workspaceAccess ro: one mount each at /workspace and /agent, both ro (OpenClaw's host-backed check)" \
        "$(mi_opts "$mi" /workspace | cut -d, -f1) $(mi_opts "$mi" /agent | cut -d, -f1 | tr '\n' ' ')" "ro ro "
like "workspaceAccess ro: /agent is the agent workspace, not the sandbox one" "$(awk '$5=="/agent" {print $4}' <<<"$mi")" \
        "^$T/agent\$"
up m-shared --read-only --network none --user 0:0 --workdir /workspace -v "$T/state/sandboxes:/workspace:z" \
        "$IMAGE" sleep infinity
is "scope shared: /workspace is the whole workspace root (every session's dir)" \
        "$(x m-shared ls /workspace | tr '\n' ' ')" "ws-s1 ws-s2 "
is "scope shared: Mounts of inspect match" "$("$D" inspect -f '{{range .Mounts}}{{.Source}}{{end}}' m-shared)" \
        "$T/state/sandboxes"

# ---- the agent's rules on the docker exec path (issue 14): OpenClaw's
# config with per-agent tools.allow/deny, tools.sandbox.tools and elevated
# off. The drop-in knows the agent only from the openclaw.sessionKey label at
# create (agent:ID:...); the rules are recorded with the container and every
# docker exec into it runs under them, whatever that exec passes (-i, -w,
# -e, --env-file, -u) and whatever config its environment names.
cat >"$T/openclaw.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'lister', tools: { exec: { security: 'allowlist', safeBins: ['ls', 'cat'] },
                                             elevated: { enabled: false } } },
                    { id: 'quiet', tools: { exec: { security: 'allowlist', safeBins: ['ls', 'id'] } } },
                    { id: 'reader', tools: { deny: ['write', 'edit', 'apply_patch'] } },
                    { id: 'offline', tools: { deny: ['web_search', 'web_fetch', 'x_search', 'browser'] } },
                    { id: 'webber', tools: { sandbox: { tools: { alsoAllow: ['web_fetch'] } } } },
                    { id: 'sbdeny', tools: { sandbox: { tools: { deny: ['exec'] } } } } ] },
  tools: { elevated: { enabled: false } } }
J
# the same agents, no rules: what another agent's (looser) config would give
printf '{ agents: { list: [ { id: "main", default: true }, { id: "lister" } ] } }\n' >"$T/loose.json"
ag_up() { # AGENT NAME FLAGS...: created with OpenClaw's labels for that agent's session, started
        local agent=$1 name=$2 out
        shift 2
        out=$(OPENCLAW_CONFIG_PATH=$T/openclaw.json "$D" create --name "$name" --init --label openclaw.sandbox=1 \
                --label "openclaw.sessionKey=agent:$agent:main" --label openclaw.configHash=h --read-only \
                --tmpfs /tmp --network none --user 0:0 --cap-drop ALL --security-opt no-new-privileges \
                --workdir /workspace "$@" "$IMAGE" sleep infinity 2>&1) || { not_ok "create $name: $out"; return 1; }
        out=$("$D" start "$name" 2>&1) || { not_ok "start $name: $out"; return 1; }
}
# the exec tool's argv (docker-surface.md §1.8)
oc_exec() { # NAME COMMAND [docker exec flags before the name...]
        local name=$1 cmd=$2
        shift 2
        "$D" exec -i -w /workspace --env-file "$T/exec.env" "$@" "$name" /bin/sh -lc \
                "export PATH=\"\${OPENCLAW_PREPEND_PATH}:\$PATH\"; unset OPENCLAW_PREPEND_PATH; $cmd" </dev/null 2>&1
}
if ! "$SBX" run --no-tty --read-only-fs -- /bin/true 2>/dev/null; then
        for _ in $(seq 22); do skip "agent rules on docker exec: Landlock is not available here (sbx doctor says why)"; done
else
        mkdir -p "$T/aw-lister" "$T/aw-reader" "$T/aw-main" "$T/aw-offline"
        ag_up lister a-lister -v "$T/aw-lister:/workspace:z"
        # stdout only: the image's /etc/profile runs id, which the allowlist
        # refuses too (sh -l prints that on stderr at every exec)
        out=$(oc_exec a-lister 'ls /workspace >/dev/null && echo listed' 2>/dev/null); rc=$?
        is "lister (exec allowlist ls, cat): the exec tool's ls runs" "$rc/$(grep -v 'Permission denied\|Illegal number' <<<"$out")" 0/listed
        # OpenClaw wraps every command in a login shell (sh -lc, spec §6):
        # Debian's /etc/profile runs id -u (PATH for root or not). The
        # allowlist holds for it too (decided, README): refused, sh prints
        # that on stderr and root gets the non-root PATH; the operator's fix
        # is "id" in safeBins (sbx explain says so). Both ways:
        out=$(oc_exec a-lister 'echo "P=$PATH"')
        like "lister: sh -lc's /etc/profile runs id, refused (stderr: Permission denied)" "$out" 'id: Permission denied'
        like "... so root gets the profile's non-root PATH" "$out" '^P=/opt/x:/usr/local/bin:/usr/bin:/bin:'
        like "... and sbx explain names the fix" "$("$SBX" explain --config "$T/openclaw.json" --agent lister 2>&1)" \
                'add "id" to safeBins'
        ag_up quiet a-quiet
        out=$(oc_exec a-quiet 'ls -d /workspace; echo "$PATH"'); rc=$?
        is "control: with id in safeBins the login shell is quiet and root's PATH has sbin" "$rc/$out" \
                "0/$(printf '/workspace\n/opt/x:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')"
        "$D" rm -f a-quiet >/dev/null 2>&1
        out=$(oc_exec a-lister 'id -u'); rc=$?
        is "lister: the exec tool's id (not on the list): sh reports 126" "$rc" 126
        like "... because the kernel said EACCES (Landlock)" "$out" 'id: Permission denied'
        out=$("$D" exec a-lister id 2>&1); rc=$?
        is "lister: docker exec of id itself: refused before fork (126)" "$rc" 126
        like "... naming the rule's config key" "$out" "agents.entries.lister.tools.exec"
        out=$(oc_exec a-lister 'id -u' -u 0:0 -e PATH=/usr/local/bin:/usr/bin:/bin); rc=$?
        is "lister: with -u 0:0 and -e PATH: still 126" "$rc" 126
        out=$(OPENCLAW_CONFIG_PATH=$T/loose.json oc_exec a-lister 'id -u'); rc=$?
        is "lister: an exec whose environment names a looser config: still 126 (the rules are the container's)" \
                "$rc" 126
        cp /usr/bin/id "$T/aw-lister/myid" 2>/dev/null
        out=$(oc_exec a-lister './myid'); rc=$?
        like "lister: a copy of id in the workspace: refused (EACCES)" "$out" 'Permission denied'
        ag_up main a-main -v "$T/aw-main:/workspace:z"
        is "main (no rules): the same id runs" "$(oc_exec a-main 'id -u')" 0
        is "main: writes to the workspace" "$(oc_exec a-main 'echo w >w && cat w')" w
        ag_up reader a-reader -v "$T/aw-reader:/workspace:z"
        like "reader (no write tool): a write to the workspace fails (read-only)" \
                "$(oc_exec a-reader 'echo w >w')" 'Read-only file system|Permission denied'
        is "reader: ... nothing reached the host" "$(test -e "$T/aw-reader/w"; echo $?)" 1
        is "reader: /tmp (a tmpfs) stays writable" "$(oc_exec a-reader 'echo t >/tmp/t && cat /tmp/t')" t
        ag_up offline a-offline -v "$T/aw-offline:/workspace:z"
        sock='import socket
for f in (socket.AF_INET, socket.AF_INET6, socket.AF_UNIX):
    try: socket.socket(f); print(f.name, "ok")
    except OSError as e: print(f.name, e.strerror)'
        is "offline (no network tool, network none): inet sockets fail EAFNOSUPPORT, unix ones work" \
                "$(oc_exec a-offline "python3 -c '$sock'")" \
                "$(printf 'AF_INET Address family not supported by protocol\nAF_INET6 Address family not supported by protocol\nAF_UNIX ok')"
        ag_up webber a-webber -v "$T/aw-main:/workspace:z"
        is "webber (web_fetch allowed in the sandbox): all three can be made (network none has lo)" \
                "$(oc_exec a-webber "python3 -c '$sock'")" "$(printf 'AF_INET ok\nAF_INET6 ok\nAF_UNIX ok')"
        # sbx's always-on seccomp layer holds on the exec path of an agent's
        # container too (an exec with rules joins with its own filters)
        is "offline: chmod u+s of a file is refused (EPERM: the always-on layer), u+x works" \
                "$("$D" exec a-offline sh -c 'cat /dev/null >/tmp/s; chmod u+s /tmp/s 2>/dev/null; echo $?; chmod u+x /tmp/s; echo $?' 2>/dev/null)" \
                "$(printf '1\n0')"
        out=$(OPENCLAW_CONFIG_PATH=$T/openclaw.json "$D" create --name a-sbdeny --label openclaw.sessionKey=agent:sbdeny:main \
                --network none "$IMAGE" sleep infinity 2>&1) && out=$("$D" start a-sbdeny 2>&1)
        out=$(oc_exec a-sbdeny 'echo ran'); rc=$?
        is "sbdeny (tools.sandbox.tools deny exec): every exec refused (126)" "$rc" 126
        like "... naming the tool policy's key" "$out" "agents.entries.sbdeny.tools.sandbox.tools.deny"
        is "main (exec allowed): the same exec runs" "$(oc_exec a-main 'echo ran' 2>/dev/null)" ran
        "$D" rm -f a-main a-lister a-reader a-offline a-sbdeny a-webber >/dev/null 2>&1
fi

# ---- network bridge and a custom name (docker network create): as root in a
# private network namespace of this test's, so nothing of sbx's touches the host's
NS=sbxdM-$$
if [ $root = 1 ] && command -v ip >/dev/null && ip netns add "$NS" 2>/dev/null; then
        ip -n "$NS" link set lo up
        N() { ip netns exec "$NS" "$D" "$@"; }
        N network create d11-matrix >/dev/null
        N create --name m-br --network bridge --dns 192.0.2.53 "$IMAGE" sleep infinity >/dev/null &&
                N start m-br >/dev/null
        is "network bridge: lo and eth0 inside" "$(N exec m-br sh -c "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\n' ' '")" "eth0 lo "
        ip=$(N inspect -f '{{.NetworkSettings.IPAddress}}' m-br)
        like "network bridge: eth0 has inspect's address ($ip)" "$(N exec m-br cat /proc/net/fib_trie)" "${ip//./\\.}"
        is "network bridge: --dns still the resolv.conf" "$(N exec m-br grep ^nameserver /etc/resolv.conf)" "nameserver 192.0.2.53"
        N create --name m-net --network d11-matrix "$IMAGE" sleep infinity >/dev/null && N start m-net >/dev/null
        is "network NAME (docker network create): eth0 inside" "$(N exec m-net sh -c "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\n' ' '")" "eth0 lo "
        is "network NAME: inspect .HostConfig.NetworkMode" "$(N inspect -f '{{.HostConfig.NetworkMode}}' m-net)" d11-matrix
        N rm -f m-br m-net >/dev/null 2>&1
        N network rm d11-matrix >/dev/null 2>&1
        is "network: after rm the namespace holds only lo" "$(ip -n "$NS" -br link | awk '{print $1}')" lo
        ip netns del "$NS"
else
        for _ in 1 2 3 4 5 6; do skip "network bridge/NAME: needs root (ip netns add) for a private network namespace; net-persist.sh covers rootless pasta"; done
fi

# ---- cgroup limits (pidsLimit, memory, memorySwap, cpus): enforced or refused
if [ $root = 1 ] && ! "$SBX" doctor --json 2>/dev/null | grep -q 'limits are refused'; then
        up m-lim --network none --user 0:0 --pids-limit 40 --memory 48m --memory-swap 96m --cpus 0.5 \
                "$IMAGE" sleep infinity
        pid=$("$D" inspect -f '{{.State.Pid}}' m-lim)
        cg() { # the value of FILE in the sandbox's cgroup of CONTROLLER (v1) or v2
                local path
                if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
                        path=$(awk -F: '$1==0 {print $3}' /proc/"$pid"/cgroup); cat "/sys/fs/cgroup$path/$2"
                else
                        path=$(awk -F: -v c="$1" '$2 ~ "(^|,)"c"(,|$)" {print $3}' /proc/"$pid"/cgroup)
                        cat /sys/fs/cgroup/"$(awk -F: -v c="$1" '$2 ~ "(^|,)"c"(,|$)" {print $2}' /proc/"$pid"/cgroup)$path/$3"
                fi
        }
        if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
                is "pidsLimit 40: pids.max" "$(cg - pids.max)" 40
                is "memory 48m: memory.max" "$(cg - memory.max)" $((48 << 20))
                is "memorySwap 96m: memory.swap.max = swap - memory" "$(cg - memory.swap.max)" $((48 << 20))
                like "cpus 0.5: cpu.max" "$(cg - cpu.max)" '^50000 100000$'
        else
                is "pidsLimit 40: pids.max" "$(cg pids x pids.max)" 40
                is "memory 48m: memory.limit_in_bytes" "$(cg memory x memory.limit_in_bytes)" $((48 << 20))
                v=$(cg memory x memory.memsw.limit_in_bytes 2>/dev/null) &&
                        is "memorySwap 96m: memory.memsw.limit_in_bytes" "$v" $((96 << 20)) ||
                        skip "memorySwap: this kernel has no memsw accounting (swapaccount=0)"
                is "cpus 0.5: cpu.cfs_quota_us/cfs_period_us" \
                        "$(cg cpu x cpu.cfs_quota_us)/$(cg cpu x cpu.cfs_period_us)" 50000/100000
        fi
        like "pidsLimit 40: the 60 background sleeps of one shell meet EAGAIN inside" \
                "$(x m-lim bash -c 'for i in $(seq 60); do sleep 3 & done; wait')" 'Resource temporarily unavailable'
        is "pidsLimit 40: 10 are fine" "$(x m-lim bash -c 'for i in $(seq 10); do sleep 1 & done; wait; echo ok')" ok
        x m-lim python3 -c 'b = bytearray(200 << 20)' >/dev/null; rc=$?
        is "memory 48m: allocating 200 MiB inside is OOM-killed (137)" "$rc" 137
        is "memory 48m: 8 MiB is fine" "$(x m-lim python3 -c 'b = bytearray(8 << 20); print("ok")')" ok
else
        for _ in 1 2 3 4 5 6 7; do
                skip "cgroup limits: not enforceable by this caller here (rootless on cgroup v1: create/start refuses them, docker-shim.sh checks that)"
        done
fi
done_testing

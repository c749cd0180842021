#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 14b (cfgred16): a hostile openclaw.json's docker.* values
# through `sbx run --config F --agent A`, and hostile docker create arguments
# through the drop-in. Found and fixed:
# - a persistent sandbox's seccomp profile (docker --security-opt seccomp=FILE,
#   docker.seccompProfile) was read again from FILE at every start. Docker
#   reads the file once, at create. FILE in the sandbox's own workspace (or
#   anywhere it can write): the sandbox rewrote its profile and, after a
#   stop/start (OpenClaw starts a stopped container), ran under its own
#   filter. Create now keeps a copy in the state dir; every start loads it
#   (runtime/sandbox/sandbox.c).
# - seccompProfile "" (OpenClaw passes no --security-opt: docker's default
#   profile) failed the run; "builtin" (docker's name for its default
#   profile) and the drop-in's seccomp=builtin loaded a file "builtin" from
#   the cwd. Both are the default profile now (run-policy.c, docker.c).
# - a tmpfs on /proc or inside it (docker.tmpfs, --tmpfs): runc refuses it
#   (checkProcMount), so docker fails such a container; sbx mounted it and
#   hid the sandbox's /proc (or a part). Refused now (run-config.c).
# - network "CONTAINER:x" (any case but "container:") with
#   dangerouslyAllowContainerNamespaceJoin joined x's network namespace;
#   docker takes only "container:" as the join mode and fails the rest (a
#   network name, none has a ':'). Refused now (runtime/net/net.c).
# - the drop-in's -v SRC:DST:ro,rw was a writable bind (the last of ro/rw
#   won). Docker refuses a mode with two of ro/rw ("invalid mode"); OpenClaw
#   passes docker.binds verbatim and takes an "ro" among the options for
#   read-only (its fs tools refuse writes there, its mount check expects a
#   read-only mount), so the sandbox could write where OpenClaw's config
#   said read-only. Refused now as docker does (runtime/docker/docker.c).
# Guards (held on main): values that reach /etc/hosts and resolv.conf with a
# newline or a space, env values with a newline, user ids, tmpfs options, network and seccomp spellings,
# $include of /proc/self/environ (direct, by symlink) and include cycles, a
# __proto__ key in docker, container and network names with '/' or '..' in
# the drop-in.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/agent-cfg.sh"

# --- the seccomp profile of a persistent sandbox, rewritten by the sandbox
if busybox_image sbx-test/r14b:v1; then
        P=$TMP/pws
        mkdir -p "$P"
        chmod 777 "$P"
        # getcwd(1, 4096) is EFAULT when allowed; the profile makes it EACCES
        echo '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["getcwd"],"action":"SCMP_ACT_ERRNO","errnoRet":13}]}' >"$P/p.json"
        echo '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[]}' >"$P/allow.json"
        chmod 666 "$P"/*.json
        n=r14b-sc-$$
        if timeout 60 "$D" create --name $n --security-opt "seccomp=$P/p.json" -v "$P:/workspace" \
                sbx-test/r14b:v1 sleep infinity >/dev/null 2>&1 && timeout 60 "$D" start $n >/dev/null 2>&1; then
                is "seccomp-profile: the profile applies (getcwd EACCES)" \
                        "$(timeout 60 "$D" exec $n /sbx-probe try-syscall getcwd)" EACCES
                is "... the sandbox rewrites the profile file in its workspace" \
                        "$(timeout 60 "$D" exec $n /bin/sh -c 'cat /workspace/allow.json > /workspace/p.json && echo ok')" ok
                timeout 60 "$D" stop -t 1 $n >/dev/null 2>&1
                timeout 60 "$D" start $n >/dev/null 2>&1
                is "seccomp-profile-restart: after stop/start the profile read at create still applies (EACCES)" \
                        "$(timeout 60 "$D" exec $n /sbx-probe try-syscall getcwd)" EACCES
                timeout 60 "$D" rm -f $n >/dev/null 2>&1
                # control: the file did change, and a new create reads it (as docker's)
                if timeout 60 "$D" create --name $n --security-opt "seccomp=$P/p.json" sbx-test/r14b:v1 sleep infinity \
                        >/dev/null 2>&1 && timeout 60 "$D" start $n >/dev/null 2>&1; then
                        control "a new create reads the file as it is now (getcwd allowed: EFAULT)" \
                                "$(timeout 60 "$D" exec $n /sbx-probe try-syscall getcwd)" EFAULT
                else
                        not_ok "control: create/start with the rewritten profile"
                fi
                timeout 60 "$D" rm -f $n >/dev/null 2>&1
        else
                not_ok "docker create/start with a seccomp profile"
        fi
else
        for i in 1 2 3 4; do skip "seccomp-profile-restart: no static busybox or the test image did not import"; done
fi

# --- values that reach /etc/hosts and /etc/resolv.conf
cfg "extraHosts: ['a:1.2.3.4\\n5.6.7.8 evil']"
like "extraHosts-newline: refused (2), naming the entry" "$(brun 'cat /etc/hosts')" \
        "^2\|.*extraHosts entry 'a:1.2.3.4.5.6.7.8 evil'"
cfg "extraHosts: ['a b:1.2.3.4']"
like "extraHosts-space: refused (2)" "$(brun 'cat /etc/hosts')" "^2\|.*invalid host name 'a b'"
cfg "dns: ['1.1.1.1\\nnameserver 9.9.9.9']"
like "dns-newline: refused (2)" "$(brun 'cat /etc/resolv.conf')" "^2\|.*dns '1.1.1.1.nameserver 9.9.9.9': not an IPv4"
cfg "extraHosts: ['a:1.2.3.4'], dns: ['1.1.1.1']"
control "valid extraHosts and dns are one line each" "$(brun 'grep -c -e "^1.2.3.4.a$" -e "^nameserver 1.1.1.1$" /etc/hosts /etc/resolv.conf')" \
        "0|/etc/hosts:1 /etc/resolv.conf:1 "
cfg "env: { X: 'a\\nb' }"
like "env-newline: refused as OpenClaw's config does (2)" "$(brun 'echo "$X"')" \
        "^2\|.*docker.env.X: Docker sandbox backend requires portable environment names and single-line"

# --- user, tmpfs, network, seccomp spellings
cfg "user: 'root'"
is "user-name: 'root' is the sandbox's root (round 15b: names as docker)" "$(brun 'id -u')" "0|0 "
cfg "user: '4294967296:1'"
like "user-huge: refused (2)" "$(brun id)" "^2\|.*ids must be below 65536"
cfg "user: '0:0'"
is "user-0: uid 0 inside, no capabilities" "$(brun 'id -u; grep ^CapEff /proc/self/status')" "0|0 CapEff:	0000000000000000 "
cfg "tmpfs: ['/tmp:exec,suid,dev']"
like "tmpfs-suid-dev: refused (2), naming the option" "$(brun true)" "^2\|.*unknown option 'suid'"
cfg "tmpfs: ['/tmp/../etc']"
like "tmpfs-dotdot: refused (2)" "$(brun true)" "^2\|.*without '..'"
# a tmpfs on or inside /proc: runc (so docker, so OpenClaw's docker.tmpfs)
# refuses it; sbx hid the sandbox's /proc under it
cfg "tmpfs: ['/proc', '/tmp']"
like "tmpfs-over-proc: refused (2), as runc" "$(brun 'ls /proc/self/status')" "^2\|.*\"/proc\" cannot be mounted because it is not of type proc"
cfg "tmpfs: ['/proc/sys', '/tmp']"
like "tmpfs-inside-proc: refused (2), as runc" "$(brun 'ls /proc/sys')" "^2\|.*\"/proc/sys\" cannot be mounted because it is inside /proc"
cfg "tmpfs: ['/procx', '/tmp']"
control "a tmpfs at /procx: mounted, /proc still proc" "$(brun 'grep -c -e " /procx tmpfs" -e " /proc proc" /proc/self/mounts')" "0|2 "
cfg "tmpfs: ['/workspace', '/tmp']" "workspaceAccess: 'ro',"
like "tmpfs-over-workspace: refused (2), as docker's Duplicate mount point (round 15b)" \
        "$(brun 'cat /workspace/f; echo x > /workspace/g')" "^2\|.*tmpfs '/workspace': Duplicate mount point"
is "... nothing written to the host workspace" "$(ls "$W")" f
for n in " host" HOST "container:x" "../x" "a/b"; do
        cfg "network: '$n'"
        like "network '$n': refused (2)" "$(brun true)" "^2\|.*network"
done
cfg "network: 'CONTAINER:r14b-nosuch', dangerouslyAllowContainerNamespaceJoin: true"
like "network-join-case: 'CONTAINER:x' with the join override refused (2): docker takes it for a network name" \
        "$(brun true)" "^2\|.*the join mode is 'container:' in lower case"
cfg "network: 'container:r14b-nosuch', dangerouslyAllowContainerNamespaceJoin: true"
control "'container:x' with the override reaches the sandbox lookup" "$(brun true)" "125|sbx run: network 'container:r14b-nosuch': No such sandbox: r14b-nosuch "
for s in " unconfined" UNCONFINED; do
        cfg "seccompProfile: '$s'"
        like "seccompProfile '$s': refused (2)" "$(brun true)" "^2\|.*seccomp profile \"unconfined\" is blocked"
done

# --- a __proto__ key (JSON5 sets the object's prototype; OpenClaw's schema
# reads own keys only): its network and readOnlyRoot are not taken
cfg "'__proto__': { network: 'bridge', readOnlyRoot: false }"
is "docker-proto-key: no network but lo, the root read-only (EROFS)" \
        "$(brun 'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\n" " "; touch /x')" \
        "1|lo touch: cannot touch '/x': Read-only file system "

# --- seccompProfile "" and "builtin": OpenClaw passes no --security-opt for
# "", docker takes "builtin" for its default profile, never a file of that
# name (sbx refused "" and loaded ./builtin from its cwd)
mkdir -p "$TMP/cwd"
echo '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["getcwd"],"action":"SCMP_ACT_ERRNO","errnoRet":13}]}' >"$TMP/cwd/builtin"
cfg "seccompProfile: ''"
# (dash calls getcwd at start: "getcwd() failed: Permission denied" under the file's profile)
is "seccompProfile-empty: runs under the default profile (as OpenClaw + docker)" "$(brun 'echo ok')" "0|ok "
cfg "seccompProfile: 'builtin'"
is "seccompProfile-builtin: the default profile, not ./builtin" "$(cd "$TMP/cwd" && brun 'echo ok')" "0|ok "
cfg "seccompProfile: '$TMP/cwd/builtin'"
control "the same file named by its path applies (getcwd EACCES)" "$(cd "$TMP/cwd" && brun 'echo ok')" \
        "0|sh: 0: getcwd() failed: Permission denied ok "

# --- $include of /proc/self/environ, by path and by a symlink, and a cycle
mkdir -p "$TMP/inc"
ln -s /proc/self/environ "$TMP/inc/env.json5"
echo "{ agents: { defaults: { sandbox: { mode: 'all', docker: { \$include: '/proc/self/environ' } } } } }" >"$TMP/inc/a.json5"
echo "{ agents: { defaults: { sandbox: { mode: 'all', docker: { \$include: './env.json5' } } } } }" >"$TMP/inc/b.json5"
echo "{ \$include: './c.json5', agents: {} }" >"$TMP/inc/c.json5"
like "include-proc-environ: refused (2)" "$(CFG=$TMP/inc/a.json5 brun true)" "^2\|.*escapes the config directory"
like "include-symlink-environ: refused (2)" "$(CFG=$TMP/inc/b.json5 brun true)" "^2\|.*resolves outside the config directory"
like "include-cycle: refused (2)" "$(CFG=$TMP/inc/c.json5 brun true)" "^2\|.*circular include"

# --- the drop-in: names and values OpenClaw would pass on from a hostile
# config (the test image, so that the refusal is the value's, not the image's)
if [ -n "${D:-}" ]; then
        dc() {
                local got rc
                got=$(timeout 20 "$D" create --name "${DCN:-r14b-dc-$$}" "$@" sbx-test/r14b:v1 true 2>&1)
                rc=$?
                timeout 20 "$D" rm -f "r14b-dc-$$" >/dev/null 2>&1
                echo "rc=$rc $(tr '\n' ' ' <<<"$got")"
        }
        like "docker-create --tmpfs /proc: refused (125), as runc" "$(dc --tmpfs /proc)" "^rc=125 .*cannot be mounted because it is not of type proc"
        like "docker-create --add-host with a newline: refused (125)" "$(dc --add-host $'a:1.2.3.4\n5.6.7.8 evil')" "^rc=125 .*extraHosts entry"
        like "docker-create --dns with a newline: refused (125)" "$(dc --dns $'1.1.1.1\nnameserver 9.9.9.9')" "^rc=125 .*not an IPv4"
        like "docker-create --name ../../x: refused (125)" "$(DCN=../../x dc)" "^rc=125 .*sandbox name '../../x'"
        like "docker-create --network ../x: refused (125)" "$(dc --network ../x)" "^rc=125 .*network '../x'"
        n=r14b-b-$$
        if (cd "$TMP/cwd" && timeout 60 "$D" create --name $n --security-opt seccomp=builtin sbx-test/r14b:v1 \
                sleep infinity >/dev/null 2>&1) && timeout 60 "$D" start $n >/dev/null 2>&1; then
                is "docker-create --security-opt seccomp=builtin: docker's default profile, not ./builtin (getcwd EFAULT)" \
                        "$(timeout 60 "$D" exec $n /sbx-probe try-syscall getcwd)" EFAULT
        else
                not_ok "docker create/start with seccomp=builtin"
        fi
        timeout 60 "$D" rm -f $n >/dev/null 2>&1
        like "docker-create --security-opt seccomp=unconfined: refused (125)" "$(dc --security-opt seccomp=unconfined)" \
                "^rc=125 .*never runs without a seccomp filter"
        control "docker-create with none of them: created" "$(dc | cut -c1-5)" "rc=0 "
        # a forged bind mode: docker refuses two of ro/rw ("invalid mode");
        # OpenClaw passes docker.binds verbatim and takes an "ro" among the
        # options for read-only; sbx made "ro,rw" a writable bind
        V=$TMP/vol
        mkdir -p "$V"
        chmod 777 "$V"
        for m in ro,rw rw,ro ro,ro; do
                like "docker-create-bind-mode '-v V:/d:$m': refused (125), as docker" "$(dc -v "$V:/d:$m")" \
                        "^rc=125 .*invalid mode: ro/rw given more than once"
        done
        n=r14b-v-$$
        if timeout 60 "$D" create --name $n -v "$V:/d:ro,z" -v "$V:/w:z" sbx-test/r14b:v1 sleep infinity >/dev/null 2>&1 &&
                timeout 60 "$D" start $n >/dev/null 2>&1; then
                like "docker-bind 'ro,z' (OpenClaw's read-only form): EROFS inside" \
                        "$(timeout 60 "$D" exec $n /bin/sh -c 'echo x > /d/g' 2>&1)" "Read-only file system"
                control "docker-bind 'z': writable inside" "$(timeout 60 "$D" exec $n /bin/sh -c 'echo x > /w/g && echo w' 2>&1)" w
        else
                not_ok "docker create/start with binds ro,z and z"
                not_ok "control: docker-bind 'z'"
        fi
        timeout 60 "$D" rm -f $n >/dev/null 2>&1
else
        for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do skip "docker-create values: no static busybox or the test image did not import"; done
fi

is "no sandbox left" "$("$SBX" ls -q 2>/dev/null)" ""
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# podman driving sbx as its OCI runtime (issue 15): `podman --runtime
# <build>/sbx-runc` on an image imported from a local busybox-static tarball,
# with podman's own storage under a temp dir (nothing of the host's touched).
# This host's hard nofile limit is 20000 and the caller lacks
# CAP_SYS_RESOURCE, so podman's default rlimits cannot be applied (runc fails
# the same way): every run passes --ulimit nofile/nproc.
#
# As root: rootful podman. As any other uid (test oci-podman-rootless: root
# runs it as the user sbx-ci through as-unpriv.sh --subids): rootless podman,
# which runs conmon and sbx-runc as uid 0 of its own user namespace (the
# caller plus its /etc/subuid range), with no systemd (cgroupfs, file events)
# and no cgroup on a cgroup-v1 host: there the limit and pause checks SKIP;
# it also runs --userns keep-id, what OpenClaw's rootless podman backend uses.
. "$(dirname "$0")/oci-lib.sh"
command -v podman >/dev/null || { echo "1..0 # SKIP podman not installed (.ci/bootstrap installs it)"; exit 0; }
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
if [ "$(id -u)" = 0 ]; then
        ROOTLESS=
        RUNC_ROOT=/run/sbx-runc
else
        ROOTLESS=1
        command -v newuidmap >/dev/null || { echo "1..0 # SKIP rootless podman needs newuidmap (Debian uidmap)"; exit 0; }
        # sbx-runc's state root under rootless podman (runc's rule: uid 0 of a user namespace)
        RUNC_ROOT=$XDG_RUNTIME_DIR/sbx-runc
fi

T=$(mktemp -d /tmp/sbx-oci-podman.XXXXXX)
P=(podman --root "$T/store" --runroot "$T/run" --tmpdir "$T/tmp" --cgroup-manager cgroupfs
   --events-backend file --runtime "$SBX_RUNC")
U=(--network none --ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
cleanup() {
        "${P[@]}" rm -af -t 0 >/dev/null 2>&1
        "${P[@]}" system reset -f >/dev/null 2>&1
        # rootless podman's pause process (holds its user namespace), by pid
        [ -n "$ROOTLESS" ] && [ -s "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid" ] &&
                kill "$(cat "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid")" 2>/dev/null
        cd / && rm -rf "$T" 2>/dev/null || { umount -R "$T"/* 2>/dev/null; rm -rf "$T"; }
}
on_exit cleanup
# conmon writes a file 'oom' into podman's working directory when a container
# is OOM-killed (--memory below): ours, not the caller's (meson's build dir)
cd "$T" || exit 1
make_rootfs "$T/rootfs"
tar -C "$T/rootfs" -cf "$T/bb.tar" .
"${P[@]}" import -q "$T/bb.tar" localhost/sbx-oci-bb:latest >/dev/null 2>"$T/err" ||
        { cat "$T/err"; echo "Bail out! podman import failed"; exit 1; }
IMG=localhost/sbx-oci-bb:latest
is "podman's mode: $([ -n "$ROOTLESS" ] && echo rootless || echo rootful)" \
        "$("${P[@]}" info --format '{{.Host.Security.Rootless}}' 2>&1)" "$([ -n "$ROOTLESS" ] && echo true || echo false)"
# Limits and pause need a cgroup: rootful always; rootless only where the
# user has a delegated cgroup v2 (podman gives rootless containers none on v1)
NOCG=
[ -n "$ROOTLESS" ] && [ "$("${P[@]}" info --format '{{.Host.CgroupsVersion}}' 2>&1)" != v2 ] &&
        NOCG="rootless podman on cgroup v1 gives the container no cgroup (v1 has no delegation to unprivileged users): a host fact"
# podman's default pids limit (2048) goes into the container's cgroup
PL=()

out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" $IMG sh -c 'echo hello; exit 7' 2>&1); st=$?
is "run: exit status passes through" "$st" 7
is "run: output" "$out" hello
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" $IMG sh -c 'sh -c "kill -9 \$\$"; exit $?' 2>&1); st=$?
is "run: killed by a signal = 128+9" "$st" 137
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" $IMG /nonexistent 2>&1); st=$?
like "run: a missing command fails (127)" "$st" '^127$'
if [ -n "$NOCG" ]; then
        for i in 1 2 3 4; do skip "--pids-limit/--memory: $NOCG"; done
else
        out=$("${P[@]}" run --rm "${U[@]}" --pids-limit 20 $IMG sh -c 'for i in $(seq 40); do sleep 5 & done; echo forked-all' 2>&1); st=$?
        like "--pids-limit 20: fork fails at the cap (this host's cgroup controller)" "$out" "can't fork"
        unlike "--pids-limit 20: not all 40 children" "$out" 'forked-all'
        out=$("${P[@]}" run --rm "${U[@]}" --memory 32m --memory-swap 32m $IMG sh -c 'x=$(head -c 8000000 /dev/zero | tr "\0" a); echo small-ok' 2>&1); st=$?
        is "--memory 32m: 8 MB fits" "$out" small-ok
        out=$("${P[@]}" run --rm "${U[@]}" --memory 32m --memory-swap 32m $IMG sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived' 2>&1); st=$?
        is "--memory 32m: a 100 MB shell variable is OOM-killed (137)" "$st" 137
fi
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" --user 1000:1001 $IMG id 2>&1)
like "--user 1000:1001" "$out" "^uid=1000.* gid=1001"
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" $IMG sh -c 'grep CapEff /proc/self/status; echo $(hostname)' 2>&1)
like "root in the container has podman's default capability set, not all" "$out" 'CapEff:[[:space:]]+00000000800405fb'
mkdir -p "$T/vol"; echo data > "$T/vol/f"
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" -v "$T/vol:/v:ro" $IMG sh -c 'cat /v/f; echo x > /v/g' 2>&1); st=$?
like "-v :ro is readable" "$out" '^data'
like "-v :ro refuses writes (EROFS)" "$out" 'Read-only file system'
[ ! -e "$T/vol/g" ] && ok "-v :ro: nothing written on the host" || not_ok "-v :ro: nothing written on the host"
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" -v "$T/vol:/v" $IMG sh -c 'echo y > /v/g; cat /v/g' 2>&1)
is "-v rw writes through" "$(cat "$T/vol/g" 2>/dev/null)" y
# OpenClaw's rootless podman sandboxes: --userns keep-id[:uid=U,gid=G], so
# what the sandbox user writes to a bind is the caller's on the host
if [ -n "$ROOTLESS" ]; then
        out=$("${P[@]}" run --rm "${U[@]}" --userns keep-id $IMG id -u 2>&1)
        is "--userns keep-id: the caller's uid inside" "$out" "$(id -u)"
        mkdir -p "$T/kvol"
        "${P[@]}" run --rm "${U[@]}" --userns keep-id:uid=1000,gid=1000 -v "$T/kvol:/w" $IMG \
                sh -c 'id -u > /w/f' >/dev/null 2>&1
        is "--userns keep-id:uid=1000,gid=1000: uid 1000 inside, its file on a bind is the caller's" \
                "$(cat "$T/kvol/f" 2>&1) $(stat -c %u:%g "$T/kvol/f" 2>&1)" "1000 $(id -u):$(id -g)"
else
        for i in 1 2; do skip "--userns keep-id: a rootless podman mode (oci-podman-rootless runs it)"; done
fi
out=$("${P[@]}" run --rm "${U[@]}" "${PL[@]}" --read-only $IMG sh -c 'touch /x; echo st=$?; touch /tmp/y && echo tmp-ok' 2>&1)
like "--read-only: / refuses writes" "$out" 'Read-only file system'
like "--read-only: /tmp is a writable tmpfs" "$out" 'tmp-ok'
out=$(script -qec "${P[*]} run --rm -it ${U[*]} ${PL[*]} $IMG sh -c 'tty; sleep 0.3; exit 4'" /dev/null 2>&1); st=$?
like "-it: a terminal from the container's devpts" "$out" '/dev/pts/0'
is "-it: exit status" "$st" 4

"${P[@]}" run -d --name c1 "${U[@]}" "${PL[@]}" $IMG sh -c 'trap "exit 0" TERM; while :; do sleep 1; done' >/dev/null 2>"$T/err"
is "run -d" "$("${P[@]}" inspect -f '{{.State.Status}}' c1 2>&1)" running
# sbx-runc ran it: its own state for c1 (in its state root, which runc and
# crun do not use) says running, with the pid podman reports
is "the runtime is sbx-runc: its state of c1 is running with podman's pid" \
        "$("$SBX_RUNC" --root "$RUNC_ROOT" state "$("${P[@]}" inspect -f '{{.ID}}' c1 2>&1)" 2>&1 |
           python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["status"], s["pid"])' 2>&1)" \
        "running $("${P[@]}" inspect -f '{{.State.Pid}}' c1 2>&1)"
out=$("${P[@]}" exec c1 sh -c 'echo in-exec; exit 5' 2>&1); st=$?
is "exec: output" "$out" in-exec
is "exec: exit status" "$st" 5
out=$("${P[@]}" exec --user 1000 c1 id -u 2>&1)
is "exec --user" "$out" 1000
if [ -n "$NOCG" ]; then
        for i in 1 2 3 4 5; do skip "pause/unpause: $NOCG"; done
else
        out=$("${P[@]}" pause c1 2>&1); st=$?
        is "pause" "$st" 0
        is "pause: state paused" "$("${P[@]}" inspect -f '{{.State.Status}}' c1 2>&1)" paused
        out=$(timeout 5 "${P[@]}" exec c1 true 2>&1); st=$?
        [ $st -ne 0 ] && ok "pause: exec into a paused container is refused" || not_ok "pause: exec into a paused container is refused"
        out=$("${P[@]}" unpause c1 2>&1); st=$?
        is "unpause" "$st" 0
        is "unpause: running again" "$("${P[@]}" exec c1 echo alive 2>&1)" alive
fi
out=$("${P[@]}" exec c1 ps 2>&1)
like "exec: sees the container's processes (its pid namespace)" "$out" '^ *1 .*sh -c trap'
"${P[@]}" stop -t 5 c1 >/dev/null 2>&1
is "stop: SIGTERM ends a process that traps it" "$("${P[@]}" inspect -f '{{.State.ExitCode}}' c1 2>&1)" 0
"${P[@]}" rm c1 >/dev/null 2>&1
"${P[@]}" run -d --name c2 "${U[@]}" "${PL[@]}" $IMG sleep 300 >/dev/null 2>&1
start=$(date +%s)
"${P[@]}" stop -t 1 c2 >/dev/null 2>&1
is "stop: SIGKILL after the timeout (pid 1 ignores SIGTERM)" "$("${P[@]}" inspect -f '{{.State.ExitCode}}' c2 2>&1)" 137
C3=$("${P[@]}" run -d --name c3 "${U[@]}" "${PL[@]}" $IMG sleep 300 2>/dev/null)
[ -n "$C3" ] && [ -d "$RUNC_ROOT/$C3" ] && ok "run -d: sbx-runc holds c3's state in $RUNC_ROOT" ||
        not_ok "run -d: sbx-runc holds c3's state in $RUNC_ROOT"
"${P[@]}" rm -f -t 0 c3 >/dev/null 2>&1; st=$?
is "rm -f of a running container" "$st" 0
[ -n "$C3" ] && [ ! -e "$RUNC_ROOT/$C3" ] && ok "rm -f: no state left" || not_ok "rm -f: no state left"
"${P[@]}" rm -f c2 >/dev/null 2>&1
# a removed container's processes die with its pid namespace, a moment after rm returns
running() { pgrep -f 'sleep 300' | xargs -r ps -o args= -p 2>/dev/null | grep -c '^sleep 300$'; }
for i in $(seq 50); do [ "$(running)" = 0 ] && break; sleep 0.1; done
is "no container process left running" "$(running)" 0
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# containerd driving sbx (issue 15): a containerd of our own (its socket,
# root and state dirs in a temp dir; stopped after), `ctr image import` of a
# locally made docker-archive, `ctr run --runc-binary <build>/sbx-runc` with
# and without --tty, `ctr task exec/kill/delete`, and the runtime handler
# stanza a Kubernetes RuntimeClass `handler: sbx` uses
# ([plugins."io.containerd.grpc.v1.cri".containerd.runtimes.sbx], runtime_type
# io.containerd.runc.v2, options BinaryName): containerd must accept it, and
# ctr runs a container with exactly those runc-shim options
# (--runtime io.containerd.runc.v2 --runtime-config-path).
. "$(dirname "$0")/oci-lib.sh"
need_root
command -v containerd >/dev/null && command -v ctr >/dev/null ||
        { echo "1..0 # SKIP containerd not installed (.ci/bootstrap installs it)"; exit 0; }
command -v containerd-shim-runc-v2 >/dev/null || { echo "1..0 # SKIP containerd-shim-runc-v2 missing"; exit 0; }
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }

T=$(mktemp -d /tmp/sbx-oci-ctrd.XXXXXX)
SOCK=$T/containerd.sock
cat > "$T/config.toml" <<CONF
version = 2
root = "$T/root"
state = "$T/state"
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[debug]
  address = ""
[plugins."io.containerd.grpc.v1.cri".containerd]
  default_runtime_name = "runc"
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.sbx]
  runtime_type = "io.containerd.runc.v2"
  pod_annotations = ["org.sbx.*"]
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.sbx.options]
  BinaryName = "$SBX_RUNC"
  SystemdCgroup = false
CONF
cat > "$T/sbx-options.toml" <<CONF
BinaryName = "$SBX_RUNC"
SystemdCgroup = false
CONF
containerd --config "$T/config.toml" >"$T/containerd.log" 2>&1 &
CPID=$!
C=(ctr --address "$SOCK" --namespace sbx-oci-test)
cleanup() {
        for t in $("${C[@]}" task ls -q 2>/dev/null); do "${C[@]}" task kill -s KILL "$t" >/dev/null 2>&1; done
        sleep 0.3
        for t in $("${C[@]}" task ls -q 2>/dev/null); do "${C[@]}" task delete -f "$t" >/dev/null 2>&1; done
        for c in $("${C[@]}" container ls -q 2>/dev/null); do "${C[@]}" container delete "$c" >/dev/null 2>&1; done
        kill "$CPID" 2>/dev/null; wait "$CPID" 2>/dev/null
        # shims of our containerd (their -address is our socket), by pid
        for p in $(pgrep -f -- "-address $SOCK" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        umount -R "$T/state" "$T/root" 2>/dev/null
        grep -l "$T" /proc/mounts >/dev/null 2>&1 && awk -v t="$T" '$2 ~ "^"t {print $2}' /proc/mounts | sort -r | xargs -r umount -l
        rm -rf "$T"
        rmdir /run/containerd/runc/sbx-oci-test 2>/dev/null
}
on_exit cleanup
for i in $(seq 100); do [ -S "$SOCK" ] && "${C[@]}" version >/dev/null 2>&1 && break; sleep 0.1; done
"${C[@]}" version >/dev/null 2>&1 || { tail -5 "$T/containerd.log"; echo "Bail out! containerd did not start"; exit 1; }
ok "containerd (own socket and dirs) accepts the runtime handler 'sbx' stanza"

make_rootfs "$T/rootfs"
tar -C "$T/rootfs" -cf "$T/rootfs.tar" .
python3 "$(dirname "$0")/mkdockerarchive.py" "$T/rootfs.tar" localhost/sbx-oci-bb:latest "$T/image.tar"
out=$("${C[@]}" image import "$T/image.tar" 2>&1); st=$?
is "ctr image import of a docker-archive" "$st" 0
IMG=localhost/sbx-oci-bb:latest
R=(--runc-binary "$SBX_RUNC")

out=$("${C[@]}" run --rm "${R[@]}" $IMG c1 sh -c 'echo hello-ctr; exit 3' 2>&1); st=$?
is "ctr run: output" "$out" hello-ctr
is "ctr run: exit status" "$st" 3
out=$(script -qec "${C[*]} run --rm --tty ${R[*]} $IMG c2 sh -c 'tty; exit 6'" /dev/null 2>&1); st=$?
like "ctr run --tty: the process has a terminal" "$out" '/dev/pts/[0-9]'
is "ctr run --tty: exit status" "$st" 6

"${C[@]}" run -d "${R[@]}" $IMG c3 sh -c 'trap "exit 9" TERM; while :; do sleep 1; done' >/dev/null 2>&1
sleep 0.3
like "ctr task ls: running" "$("${C[@]}" task ls 2>&1)" 'c3 +[0-9]+ +RUNNING'
out=$("${C[@]}" task exec --exec-id e1 c3 sh -c 'echo in-exec; exit 4' 2>&1); st=$?
is "ctr task exec: output" "$out" in-exec
is "ctr task exec: exit status" "$st" 4
out=$(script -qec "${C[*]} task exec --tty --exec-id e2 c3 sh -c 'tty; exit 0'" /dev/null 2>&1)
like "ctr task exec --tty" "$out" '/dev/pts/[0-9]'
# task ps / metrics / pause / resume through sbx-runc's ps, its cgroup and freezer
"${C[@]}" task exec -d --exec-id e3 c3 sleep 100 >/dev/null 2>&1
# (pid 1's loop has a 'sleep 1' child most of the time: 2 or 3)
like "ctr task ps: the container's processes (pid 1, the exec, pid 1's sleep)" "$("${C[@]}" task ps c3 2>&1 | tail -n +2 | grep -c '^[0-9]')" '^[23]$'
like "ctr task metrics: the container's cgroup counters" "$("${C[@]}" task metrics c3 2>&1 | tr -s ' ' | tr '\n' ' ')" 'memory.usage_in_bytes [1-9][0-9]* .*pids.current [23] '
"${C[@]}" task pause c3 >/dev/null 2>&1
like "ctr task pause: PAUSED" "$("${C[@]}" task ls 2>&1)" 'c3 +[0-9]+ +PAUSED'
"${C[@]}" task resume c3 >/dev/null 2>&1
like "ctr task resume: RUNNING" "$("${C[@]}" task ls 2>&1)" 'c3 +[0-9]+ +RUNNING'
"${C[@]}" task kill -s TERM c3 >/dev/null 2>&1
for i in $(seq 50); do "${C[@]}" task ls 2>/dev/null | grep -Eq 'c3 +[0-9]+ +STOPPED' && break; sleep 0.1; done
like "ctr task kill -s TERM: stopped" "$("${C[@]}" task ls 2>&1)" 'c3 +[0-9]+ +STOPPED'
out=$("${C[@]}" task delete c3 2>&1); st=$?
is "ctr task delete" "$st" 0
like "ctr task delete: the exit status (trap TERM -> 9)" "$out" 'exit code 9'
unlike "ctr task delete: no task left" "$("${C[@]}" task ls -q 2>&1)" '^c3$'
"${C[@]}" container delete c3 >/dev/null 2>&1
# kill --all (runc kill --all through the shim): every process of the container
"${C[@]}" run -d "${R[@]}" $IMG c5 sh -c 'sleep 100 & sleep 200' >/dev/null 2>&1
sleep 0.3
"${C[@]}" task kill -a -s KILL c5 >/dev/null 2>&1
for i in $(seq 50); do "${C[@]}" task ls 2>/dev/null | grep -Eq 'c5 +[0-9]+ +STOPPED' && break; sleep 0.1; done
like "ctr task kill -a -s KILL: stopped" "$("${C[@]}" task ls 2>&1)" 'c5 +[0-9]+ +STOPPED'
like "ctr task delete: 137" "$("${C[@]}" task delete c5 2>&1)" 'exit code 137'
"${C[@]}" container delete c5 >/dev/null 2>&1

# the handler's options (BinaryName) through the runc shim, as Kubernetes would
out=$("${C[@]}" run --rm --runtime io.containerd.runc.v2 --runtime-config-path "$T/sbx-options.toml" \
        $IMG c4 sh -c 'echo via-handler; cat /proc/1/cmdline | tr "\0" " "' 2>&1); st=$?
like "runc shim with BinaryName = sbx-runc runs the container" "$out" 'via-handler'
[ -n "$(ls "$T/state/io.containerd.runtime.v2.task/sbx-oci-test" 2>/dev/null)" ] &&
        not_ok "no task state left after --rm" || ok "no task state left after --rm"
n=$(pgrep -fc "sleep 1" 2>/dev/null; true)
done_testing

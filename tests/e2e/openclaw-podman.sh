#!/bin/bash
# SPDX-License-Identifier: MIT
# End to end (issue 15): the real, unmodified OpenClaw 2026.9.6 with
# agents.defaults.sandbox.backend "podman" drives the real Debian podman,
# which runs every container with sbx-runc (<build>/sbx-runc) as its OCI
# runtime. No docker is on PATH. podman reads only this test's own
# containers.conf (CONTAINERS_CONF: runtime "sbx" = sbx-runc, cgroupfs, file
# events, default_ulimits below this host's hard nofile limit) and
# storage.conf (CONTAINERS_STORAGE_CONF: storage root and runroot under $T),
# so nothing of the host's podman is touched. The image
# openclaw-sandbox:bookworm-slim is the one sbx's store holds (the e2e lane
# builds it), imported into that storage from a tarball of its rootfs.
#
# OpenClaw's podman backend (dist/docker-*.mjs, podman-runtime) runs `podman
# info`, `image inspect`, `create --init ... --http-proxy=false`, `start`,
# `exec -i [--env-file]`, `inspect`, `rm -f`; as root podman is rootful, so
# no --userns keep-id. The checks are openclaw-lib.sh's, the ones the docker
# backend (openclaw.sh) passes: exec, second session, file tools, sandbox
# list, config change, recreate --all. Not the background-process check:
# killing a `podman exec` client leaves its process running in the container
# with runc as much as with sbx-runc (conmon keeps the exec session), a
# property of podman, not of the runtime.
. "$(dirname "$0")/openclaw-lib.sh"
# the argv[0] symlink itself (resolved, it would be plain sbx)
SBX_RUNC=${SBX_RUNC:-$SBX_BUILD_ROOT/sbx-runc}

if [ "$(id -u)" != 0 ] || ! command -v podman >/dev/null; then
        skip "OpenClaw through podman: needs root and podman (.ci/bootstrap installs it)"
        done_testing
fi

# ---------------------------------------------------------------- podman, configured to use sbx-runc
# podman's default nofile and nproc rlimits (1048576, 4194304) are above this
# host's hard limits (nofile 20000) and the caller may lack CAP_SYS_RESOURCE
# to raise them (runc fails the same way).
mkdir -p "$T/podman/tmp"
cat >"$T/podman/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
runtime = "sbx"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$T/podman/events.log"
tmp_dir = "$T/podman/tmp"
[engine.runtimes]
sbx = ["$SBX_RUNC"]
EOF
cat >"$T/podman/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$T/podman/store"
runroot = "$T/podman/run"
EOF
export CONTAINERS_CONF=$T/podman/containers.conf CONTAINERS_STORAGE_CONF=$T/podman/storage.conf
backend_cleanup() {
        podman rm -af -t 0 >/dev/null 2>&1
        podman system reset -f >/dev/null 2>&1
        umount -R "$T/podman/store/overlay" 2>/dev/null
}
is "no docker on PATH (OpenClaw can reach only podman)" "$(command -v docker)" ""
is "podman's OCI runtime is sbx-runc (podman info)" \
        "$(podman info --format '{{.Host.OCIRuntime.Name}} {{.Host.OCIRuntime.Path}} {{.Store.GraphRoot}}' 2>&1)" \
        "sbx $SBX_RUNC $T/podman/store"
rootfs=$("$SBX" rootfs inspect "$IMAGE" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rootfs"])')
t0=$(date +%s%N)
tar -C "$rootfs" -cf - . | podman import -q - "$IMAGE" >/dev/null 2>"$T/import.err"
is "podman import of $IMAGE from a tarball of sbx's image" "$(podman image inspect -f '{{.RepoTags}}' "$IMAGE" 2>&1)" \
        "[localhost/$IMAGE]"
echo "# podman import: $((($(date +%s%N) - t0) / 1000000)) ms"

# ---------------------------------------------------------------- the podman backend of the checks
# podman's containers, one line each: name|id|state|sessionKey|configHash
sb_ls() {
        podman ps -a --format json | python3 -c '
import json, sys
for c in json.load(sys.stdin):
    l = c.get("Labels") or {}
    print("%s|%s|%s|%s|%s" % (c["Names"][0], c["Id"], c["State"], l.get("openclaw.sessionKey", ""),
                              l.get("openclaw.configHash", "")))'
}
sb_exec() { podman exec "$@"; }
sb_stop() { podman stop -t 1 "$1"; }
sb_workspace() {
        podman inspect -f '{{range .Mounts}}{{if eq .Destination "/workspace"}}{{.Source}}{{end}}{{end}}' "$1"
}
SB_PREFIX=openclaw-sbx-podman- WHO=podman LS_WHAT="podman ps" EXEC_WHAT="podman exec" ENGINE=podman
export OC_BACKEND=podman

# ---------------------------------------------------------------- the checks
openclaw_start
check_first_exec
# sbx-runc ran OpenClaw's container: podman records runtime "sbx", and
# sbx-runc's own state of it (its state root, which runc and crun do not
# use) is running with the pid podman reports
is "podman inspect: the container's OCI runtime is sbx" "$(podman inspect -f '{{.OCIRuntime}}' "$N1" 2>&1)" sbx
is "sbx-runc state: OpenClaw's container is running, with podman's pid" \
        "$("$SBX_RUNC" state "$ID1" 2>&1 | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["status"], s["pid"])' 2>&1)" \
        "running $(podman inspect -f '{{.State.Pid}}' "$N1" 2>&1)"
check_second_exec
check_second_session
check_file_tools
check_list
check_config_change
check_recreate_all '^2$'
echo "# bench: first exec (new sandbox): turn ${FIRST_MS} ms; second exec (same sandbox): turn ${SECOND_MS} ms"
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# The docker entry point (issue 9) with the real binary, without OpenClaw:
# argv[0] dispatch, the error texts and exit codes OpenClaw parses, every
# --format template of docker-surface.md §2 on a live sandbox, inspect's
# Mounts against the sandbox's real mountinfo, exec status and signal
# forwarding, pause/unpause, ps filters, the self-probe answer.
. "$(dirname "$0")/lib.sh"
IMAGE=openclaw-sandbox:bookworm-slim
if ! "$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1; then
        echo "1..0 # SKIP image $IMAGE not built here (sbx rootfs build; the e2e lane builds it)"
        exit 0
fi
T=$(mktemp -d /tmp/sbx-docker-shim.XXXXXX)
chmod 755 "$T"
export XDG_RUNTIME_DIR=$T/run
mkdir -p "$T/run" "$T/bin" "$T/ws/skills"
ln -s "$(readlink -f "$SBX")" "$T/bin/docker"
D=$T/bin/docker
NS=sbxdH-$$
cleanup() {
        for n in c1 c2 c3 c4 c5; do "$D" rm -f "$n" >/dev/null 2>&1; done
        if ip netns exec "$NS" true 2>/dev/null; then
                ip netns exec "$NS" "$D" rm -f cx >/dev/null 2>&1
                ip netns del "$NS"
        fi
        rm -rf "$T" "$TMP"
}
on_exit cleanup
echo hello >"$T/ws/f.txt"
printf 'LANG=C.UTF-8\nOPENCLAW_CLI=1\n' >"$T/create.env"

# ---- errors OpenClaw parses
out=$("$D" inspect -f '{{.State.Running}}' nope 2>&1); rc=$?
is "inspect of a missing container: exit 1" "$rc" 1
like "inspect of a missing container: 'No such object'" "$out" '^Error: No such object: nope$'
out=$("$D" image inspect nope:none 2>&1); rc=$?
is "image inspect of a missing image: exit 1" "$rc" 1
like "image inspect of a missing image: 'No such image'" "$out" 'No such image: nope:none'
"$D" rm -f nope >/dev/null 2>&1
is "rm -f of a missing container: exit 0 (docker >= 23)" "$?" 0
out=$("$D" rm nope 2>&1); rc=$?
is "rm of a missing container: exit 1" "$rc" 1
like "rm of a missing container: 'No such container'" "$out" 'No such container: nope'
out=$("$D" create --privileged "$IMAGE" 2>&1); rc=$?
is "unknown create flag: exit 125 (the docker CLI's status for a flag error)" "$rc" 125
like "unknown create flag is named" "$out" 'unknown flag: --privileged'
out=$("$D" create --env-file "$T/none.env" "$IMAGE" 2>&1); rc=$?
is "create --env-file of a missing file: exit 125, the file and the reason" "$rc/$out" \
        "125/Error response from daemon: --env-file '$T/none.env': No such file or directory"
out=$("$D" create --security-opt "seccomp=$T/none.json" "$IMAGE" 2>&1); rc=$?
is "create --security-opt seccomp= of a missing file: exit 125, named as given" "$rc/$out" \
        "125/Error response from daemon: --security-opt 'seccomp=$T/none.json': opening seccomp profile '$T/none.json' failed: No such file or directory"
out=$("$D" create nope:none 2>&1); rc=$?
is "create of a missing image: exit 125, 'No such image' without an errno text" "$rc/${out%% (*}" \
        "125/Error response from daemon: No such image: nope:none"
out=$("$D" swarm init 2>&1); rc=$?
is "unknown subcommand: exit 1" "$rc" 1
like "unknown subcommand is named" "$out" 'unknown command: "swarm"'
# --network bridge is accepted and recorded. create does not start anything,
# but as root it runs in a private network namespace all the same, so that no
# host-side collection of sbx ever runs in the real one (net-persist.sh starts
# bridged containers, in namespaces of its own).
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns add "$NS" 2>/dev/null; then
        ip -n "$NS" link set lo up
        out=$(ip netns exec "$NS" "$D" create --name cx --network bridge "$IMAGE" sleep infinity 2>&1); rc=$?
        is "create --network bridge: exit 0" "$rc" 0
        like "create --network bridge: prints a 64-hex id" "$out" '^[0-9a-f]{64}$'
        is "create --network bridge: {{.HostConfig.NetworkMode}} is bridge" \
                "$(ip netns exec "$NS" "$D" inspect -f '{{.HostConfig.NetworkMode}}' cx 2>&1)" bridge
        ip netns exec "$NS" "$D" rm -f cx >/dev/null 2>&1
        is "create --network bridge, then rm -f: the namespace holds only lo" \
                "$(ip -n "$NS" -br link | awk '{print $1}')" lo
        ip netns del "$NS"
else
        for _ in 1 2 3 4; do skip "create --network bridge: needs root (ip netns add) for a private network namespace"; done
fi
is "a refused create leaves nothing behind" "$("$SBX" ls --json | tr -d ' \n')" "[]"
# A create that fails takes back the -v source directories it made, and only
# those: c4 holds the name, so each create below fails (125) after making
# $T/mk/a/b. In the second, strace holds the create at its first flock (the
# state root's lock, taken after the sources are made) while this test puts
# another directory at $T/mk/a/b, as a concurrent create of the same name
# would have: the rollback must leave that one alone.
"$D" create --name c4 --network none "$IMAGE" sleep infinity >/dev/null
out=$("$D" create --name c4 --network none -v "$T/mk/a/b:/w" "$IMAGE" sleep infinity 2>&1); rc=$?
is "create of a name in use: exit 125" "$rc" 125
is "... the -v source dirs it made ($T/mk/a/b) are taken back" "$(test -e "$T/mk"; echo $?)" 1
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
        # (LeakSanitizer cannot run under ptrace: an ASan build exits 1 at its end there)
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -qq -o /dev/null -f -e trace=flock -e inject=flock:delay_enter=2000000:when=1 \
                "$D" create --name c4 --network none -v "$T/mk/a/b:/w" "$IMAGE" sleep infinity >/dev/null 2>&1 &
        spid=$!
        for _ in $(seq 100); do [ -d "$T/mk/a/b" ] && break; sleep 0.02; done
        rmdir "$T/mk/a/b" && mkdir "$T/mk/a/b"
        wait "$spid"
        is "create held at its lock, then refused: exit 125" "$?" 125
        is "... a directory put at the made path since is not removed (identity, not path)" \
                "$(test -d "$T/mk/a/b"; echo $?)" 0
        rm -rf "$T/mk"
else
        skip "rollback identity: needs strace (to hold a create at its lock) and ptrace allowed"
        skip "rollback identity: as above"
fi
"$D" rm -f c4 >/dev/null
like "sbx docker is the same entry point" "$("$SBX" docker version --format '{{.Server.Version}}')" '^[0-9]'

# ---- create/start as OpenClaw does
id=$("$D" create --name c1 --init --label openclaw.sandbox=1 --label openclaw.configHash=h1 --read-only \
        --tmpfs /tmp --tmpfs /var/tmp:size=64m --tmpfs /run --network none --user 0:0 --cap-drop ALL \
        --security-opt no-new-privileges --workdir /workspace -v "$T/ws:/workspace:z" \
        -v "$T/ws/skills:/workspace/skills:ro,z" --env-file "$T/create.env" "$IMAGE" sleep infinity)
is "create: exit 0" "$?" 0
like "create prints a 64-hex id" "$id" '^[0-9a-f]{64}$'
is "created, not running" "$("$D" inspect -f '{{.State.Running}}' c1)" false
is "start prints the name" "$("$D" start c1)" c1
is "{{.State.Running}}" "$("$D" inspect -f '{{.State.Running}}' c1)" true
is "{{.Id}} by name" "$("$D" inspect --format '{{.Id}}' c1)" "$id"
is "{{ index .Config.Labels \"openclaw.configHash\" }}" \
        "$("$D" inspect -f '{{ index .Config.Labels "openclaw.configHash" }}' c1)" h1
# Docker's rule (its typed structs, then the JSON as maps with
# missingkey=error): index of a missing label is "" (map[string]string's
# zero value), .Config.Labels.x <no value>, a field no struct has an error
is "a missing label: index prints \"\", .Labels.x <no value> (Docker's)" \
        "$("$D" inspect -f '[{{ index .Config.Labels "x" }}] {{.Config.Labels.x}}' c1)" "[] <no value>"
out=$("$D" inspect -f '{{.State.Bogus}}' c1 2>&1); rc=$?
is "a field Docker has not: exit 1, 'map has no entry for key' (Docker's)" "$rc/$out" \
        "1/template parsing error: --format: map has no entry for key \"Bogus\" in '.State.Bogus'"
is "{{.Mounts}} as fmt prints Docker's []MountPoint (Name and Driver empty)" \
        "$("$D" inspect -f '{{.Mounts}}' c1)" \
        "[{bind  $T/ws /workspace  z true rprivate} {bind  $T/ws/skills /workspace/skills  ro,z false rprivate}]"
is "never stopped: ExitCode 0, FinishedAt Go's zero time, Health <nil>" \
        "$("$D" inspect -f '{{.State.ExitCode}} {{.State.FinishedAt}} {{.State.Health}}' c1)" "0 0001-01-01T00:00:00Z <nil>"
is "{{.Config.Image}}" "$("$D" inspect -f '{{.Config.Image}}' c1)" "$IMAGE"
# printf, parentheses and range ... else through the real inspect data (Go's outputs)
is "printf with widths and %d, a parenthesized index, range ... else" \
        "$("$D" inspect -f '{{printf "%-3s|%3d|%q" "ab" .State.ExitCode .Config.Image}} {{if eq (index .Config.Labels "x") ""}}nolabel{{end}} {{range .HostConfig.CapAdd}}{{.}}{{else}}nocaps{{end}}' c1)" \
        "ab |  0|\"$IMAGE\" nolabel nocaps"
out=$("$D" inspect -f '{{printf "%[1]s" .Id}}' c1 2>&1); rc=$?
like "a printf form not implemented: exit 1, named" "$rc/$out" "^1/template parsing error: --format: printf: .*not supported"
is "{{.Id}} {{.State.Running}} {{.State.Paused}}" \
        "$("$D" inspect -f '{{.Id}} {{.State.Running}} {{.State.Paused}}' "${id:0:12}")" "$id true false"
like "{{range .Config.Env}}{{println .}}{{end}} has the env-file" \
        "$("$D" inspect -f '{{range .Config.Env}}{{println .}}{{end}}' c1)" '^OPENCLAW_CLI=1$'
mounts=$("$D" inspect --format '{"Mounts":{{json .Mounts}},"Tmpfs":{{json .HostConfig.Tmpfs}}}' "$id")
is "Mounts and Tmpfs as docker prints them" "$mounts" \
        "{\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"$T/ws\",\"Destination\":\"/workspace\",\"Mode\":\"z\",\"RW\":true,\"Propagation\":\"rprivate\"},{\"Type\":\"bind\",\"Source\":\"$T/ws/skills\",\"Destination\":\"/workspace/skills\",\"Mode\":\"ro,z\",\"RW\":false,\"Propagation\":\"rprivate\"}],\"Tmpfs\":{\"/tmp\":\"\",\"/var/tmp\":\"size=64m\",\"/run\":\"\"}}"
# inspect's binds must be the sandbox's real mounts: one entry each in its
# mountinfo, same source root, same rw flag.
mi=$("$D" exec "$id" cat /proc/self/mountinfo)
like "mountinfo: /workspace is the host dir, rw" "$(echo "$mi" | awk '$5=="/workspace"')" " $T/ws /workspace rw,"
like "mountinfo: /workspace/skills is the host dir, ro" "$(echo "$mi" | awk '$5=="/workspace/skills"')" \
        " $T/ws/skills /workspace/skills ro,"
is "mountinfo: exactly one mount at /workspace" "$(echo "$mi" | awk '$5=="/workspace"' | wc -l)" 1
like "mountinfo: the tmpfs are there" "$(echo "$mi" | awk '$5=="/var/tmp" {print $9}')" '^tmpfs$'
unlike "mountinfo: no host tree of this machine in the sandbox" "$(echo "$mi" | awk '{print $5}')" '^/work(/|$)'

# ---- exec
out=$("$D" exec -i -w /workspace --env-file "$T/create.env" -e X=1 c1 /bin/sh -lc 'pwd; id -u; echo $X $LANG; cat f.txt; echo w >new.txt' </dev/null)
is "exec: output, workdir, env" "$out" "$(printf '/workspace\n0\n1 C.UTF-8\nhello')"
is "exec: writes land in the host workspace" "$(cat "$T/ws/new.txt")" w
"$D" exec c1 /bin/sh -c 'exit 7'
is "exec: the command's exit status" "$?" 7
"$D" exec c1 /nonexistent 2>/dev/null
is "exec: not found is 127" "$?" 127
# Docker's rule (docker run reference, "Exit status"): 127 when the command
# cannot be found (ENOENT, also of a #! interpreter; ENOTDIR), 126 when it
# exists but cannot be invoked: no x bit (EACCES), a directory, no binary
# format (ENOEXEC), a #! loop or a chain deeper than the kernel runs, a
# symlink loop (ELOOP). A chain of 5 interpreters is what the kernel still
# runs (exec_binprm: ELOOP at depth > 5): it runs here too. In the
# workspace: c1's /tmp is noexec (EACCES would hide the rest).
"$D" exec c1 /bin/sh -c 'mkdir /workspace/x && cd /workspace/x && printf "#!/workspace/x/loop\n" >loop && printf "#!/nonexistent/sh\n" >badint &&
        printf "\177ELF\n" >noformat && printf "#!/bin/sh\necho deep\n" >s0 &&
        for i in 1 2 3 4 5; do printf "#!/workspace/x/s$((i-1))\n" >s$i; done &&
        chmod 755 loop badint noformat s0 s1 s2 s3 s4 s5 && printf "x" >nox && mkdir -p dir &&
        ln -s sl2 sl1 && ln -s sl1 sl2'
out=
for c in loop:126 s5:126 sl1:126 nox:126 dir:126 noformat:126 badint:127 nox/x:127 missing:127 s4:0; do
        "$D" exec c1 "/workspace/x/${c%:*}" >/dev/null 2>&1
        out="$out ${c%:*}=$?"
done
is "exec: 126 for a command that cannot be invoked, 127 for one not found (Docker's rule); a 5-deep #! chain runs" \
        "$out" " loop=126 s5=126 sl1=126 nox=126 dir=126 noformat=126 badint=127 nox/x=127 missing=127 s4=0"
is "exec: ... the kernel agrees: a shell in the sandbox gets ELOOP for the loop and runs the chain" \
        "$("$D" exec c1 /bin/sh -c '/workspace/x/loop 2>&1; /workspace/x/s4')" "$(printf '/bin/sh: 1: /workspace/x/loop: Too many levels of symbolic links\ndeep')"
out=$("$D" exec c1 /bin/sh -c 'touch /workspace/skills/x' 2>&1); rc=$?
is "exec: the ro bind refuses writes (exit 1)" "$rc" 1
like "exec: ... with EROFS" "$out" 'Read-only file system'
out=$("$D" exec c1 /bin/sh -c 'touch /usr/x' 2>&1)
like "--read-only: the root is read-only" "$out" 'Read-only file system'
echo in-stdin | "$D" exec -i c1 cat >"$T/stdin.out"
is "exec -i passes stdin" "$(cat "$T/stdin.out")" in-stdin
echo ignored | "$D" exec c1 cat >"$T/stdin.out"
is "exec without -i: stdin is empty" "$(cat "$T/stdin.out")" ""
# A signal to the client reaches the process inside (OpenClaw's process kill).
"$D" exec c1 /bin/sh -c 'echo $$ >/tmp/bg.pid; exec sleep 1000' &
cpid=$!
for _ in $(seq 50); do "$D" exec c1 test -s /tmp/bg.pid && break; sleep 0.1; done
inner=$("$D" exec c1 cat /tmp/bg.pid)
like "background exec runs inside" "$("$D" exec c1 cat /proc/"$inner"/cmdline | tr '\0' ' ')" '^sleep 1000'
kill -TERM "$cpid"
wait "$cpid"
is "the client exits 143 on SIGTERM" "$?" 143
for _ in $(seq 50); do "$D" exec c1 test -e /proc/"$inner" || break; sleep 0.1; done
"$D" exec c1 test -e /proc/"$inner"
is "the process inside died with it" "$?" 1

# ---- pause, ps, labels, rm
is "pause prints the name" "$("$D" pause c1)" c1
is "{{.State.Paused}} while paused" "$("$D" inspect -f '{{.State.Paused}}' c1)" true
out=$("$D" exec c1 true 2>&1); rc=$?
is "exec into a paused container: exit 1" "$rc" 1
out=$("$D" pause c1 2>&1); rc=$?
is "pause of a paused container: exit 1, the daemon's text with the id, no summary line" "$rc/$out" \
        "1/Error response from daemon: Container $id is already paused"
is "unpause" "$("$D" unpause c1)" c1
out=$("$D" unpause c1 2>&1); rc=$?
is "unpause of a running container: exit 1, docker's text" "$rc/$out" "1/Error response from daemon: Container $id is not paused"
out=$("$D" pause nope 2>&1); rc=$?
is "pause of a missing container: exit 1, No such container" "$rc/$out" "1/Error response from daemon: No such container: nope"
# port: sbx publishes no ports (create -p is not implemented): Docker's
# answers for a container without any
out=$("$D" port c1 2>&1); rc=$?
is "port NAME: nothing published, nothing printed, exit 0" "$rc/$out" 0/
out=$("$D" port c1 9222/tcp 2>&1); rc=$?
is "port NAME PORT: exit 1, docker's 'No public port'" "$rc/$out" "1/Error: No public port '9222/tcp' published for c1"
out=$("$D" port nope 2>&1); rc=$?
is "port of a missing container: exit 1, No such container" "$rc/$out" "1/Error response from daemon: No such container: nope"
"$D" port >/dev/null 2>&1
is "port without a container: exit 1" "$?" 1
is "{{.State.Paused}} after unpause" "$("$D" inspect -f '{{.State.Paused}}' c1)" false
"$D" create --name c2 --label openclaw.sandboxBrowser=1 --network none "$IMAGE" >/dev/null
out=$("$D" pause c2 2>&1); rc=$?
is "pause of a created (not running) container: exit 1, docker's text" "$rc/$out" \
        "1/Error response from daemon: Container $("$D" inspect -f '{{.Id}}' c2) is not running"
is "ps --filter label=K=V --format {{.Names}} (-a: created too)" \
        "$("$D" ps -a --filter label=openclaw.sandboxBrowser=1 --format '{{.Names}}')" c2
is "ps without -a: only running" "$("$D" ps --filter label=openclaw.sandboxBrowser=1 --format '{{.Names}}')" ""
is "ps --filter label=K" "$("$D" ps -a --filter label=openclaw.sandbox --format '{{.Names}}')" c1
# Go's typed values (docker inspect runs the template on its structs): a nil
# slice prints [] and a nil map map[] (never <nil>); json prints both null
is "{{.HostConfig.CapAdd}}: [] as docker (a nil slice), not <nil>" "$("$D" inspect -f '{{.HostConfig.CapAdd}}' c1)" "[]"
is "{{json .HostConfig.CapAdd}}: null" "$("$D" inspect -f '{{json .HostConfig.CapAdd}}' c1)" null
is "{{.HostConfig.CapDrop}}" "$("$D" inspect -f '{{.HostConfig.CapDrop}}' c1)" "[ALL]"
is "{{.HostConfig.Tmpfs}} without --tmpfs: map[] (a nil map), json null" \
        "$("$D" inspect -f '{{.HostConfig.Tmpfs}} {{json .HostConfig.Tmpfs}}' c2)" "map[] null"
is "{{.HostConfig.Binds}} / {{.Config.Entrypoint}} without -v: [] [], json null null" \
        "$("$D" inspect -f '{{.HostConfig.Binds}} {{.Config.Entrypoint}} {{json .HostConfig.Binds}} {{json .Config.Entrypoint}}' c2)" "[] [] null null"
is "{{json .HostConfig.Binds}}: the -v specs as given" "$("$D" inspect -f '{{json .HostConfig.Binds}}' c1)" \
        "[\"$T/ws:/workspace:z\",\"$T/ws/skills:/workspace/skills:ro,z\"]"
is "HostConfig.Memory/MemorySwap/NanoCpus/PidsLimit unset: 0 0 0 <nil> (a nil pointer)" \
        "$("$D" inspect -f '{{.HostConfig.Memory}} {{.HostConfig.MemorySwap}} {{.HostConfig.NanoCpus}} {{.HostConfig.PidsLimit}}' c2)" "0 0 0 <nil>"
"$D" create --name c5 --memory 64m --memory-swap -1 --cpus 0.5 --pids-limit 50 --network none "$IMAGE" >/dev/null
is "... as create gave them (bytes, -1 unlimited swap, CPUs in 1e-9)" \
        "$("$D" inspect -f '{{.HostConfig.Memory}} {{.HostConfig.MemorySwap}} {{.HostConfig.NanoCpus}} {{.HostConfig.PidsLimit}}' c5)" "67108864 -1 500000000 50"
"$D" rm -f c5 >/dev/null
is "{{.State.Error}} {{.HostConfig.Privileged}}" "$("$D" inspect -f '{{.State.Error}}|{{.HostConfig.Privileged}}' c1)" "|false"
is "the whole inspect JSON has CapAdd, Tmpfs, Binds null as docker's" \
        "$("$D" inspect c2 | python3 -c 'import json,sys; h=json.load(sys.stdin)[0]["HostConfig"]; print(h["CapAdd"], h["Tmpfs"], h["Binds"])')" "None None None"
# docker ps as docker prints it: State is docker's word, Status its phrase,
# Command quoted (cut at 20 characters), newest first, filters of each kind
is "ps --format {{.Names}} {{.State}} {{.Status}}: docker's words" \
        "$("$D" ps -a --format '{{.Names}}|{{.State}}|{{.Status}}|{{.Command}}' | sed 's/Up [0-9]* seconds/Up N seconds/; s/Up Less than a second/Up N seconds/; s/Up 1 second/Up N seconds/')" \
        "$(printf 'c2|created|Created|""\nc1|running|Up N seconds|"sleep infinity"')"
is "ps {{.Label \"K\"}}: the label, \"\" when missing" \
        "$("$D" ps -a --format '{{.Names}}={{.Label "openclaw.configHash"}}')" "$(printf 'c2=\nc1=h1')"
is "ps --filter name=REGEX (with and without docker's /), status=, id=" \
        "$("$D" ps -a --filter 'name=^/c1$' --format '{{.Names}}'; "$D" ps -a --filter 'name=^c2$' --format '{{.Names}}'; "$D" ps -a --filter status=created --format '{{.Names}}'; "$D" ps -a --filter "id=${id:0:6}" --format '{{.Names}}')" \
        "$(printf 'c1\nc2\nc2\nc1')"
is "ps: filters of one kind match any, of two kinds all" \
        "$("$D" ps -a --filter name=c1 --filter name=c2 --filter status=running --format '{{.Names}}')" c1
is "ps --format 'table ...': a header row, cells aligned as docker's tabwriter" \
        "$("$D" ps -a --format 'table {{.Names}}\t{{.State}}')" "$(printf 'NAMES     STATE\nc2        created\nc1        running')"
like "ps without --format: docker's columns" "$("$D" ps | head -1)" \
        '^CONTAINER ID +IMAGE +COMMAND +CREATED +STATUS +PORTS +NAMES$'
is "ps --no-trunc -q: full ids" "$("$D" ps --no-trunc -q)" "$id"
is "ps {{json .}}: docker's keys" "$("$D" ps --format '{{json .}}' | python3 -c 'import json,sys; print(",".join(sorted(json.load(sys.stdin))))')" \
        "Command,CreatedAt,ID,Image,Labels,LocalVolumes,Mounts,Names,Networks,Ports,RunningFor,Size,State,Status"
out=$("$D" ps --filter bogus=1 2>&1); rc=$?
is "ps --filter of an unknown kind: exit 1, named" "$rc/$out" "1/Error response from daemon: invalid filter 'bogus' (sbx implements label=, name=, id=, status=)"
out=$("$D" ps --filter status=zzz 2>&1); rc=$?
is "ps --filter status=BAD: exit 1, named" "$rc/$out" "1/Error response from daemon: invalid filter 'status=zzz'"
like "sbx ls shows docker's containers with their labels" "$("$SBX" ls --json)" '"openclaw.configHash": *"h1"'
out=$("$D" rm c1 2>&1); rc=$?
is "rm of a running container without -f: exit 1" "$rc" 1
like "... docker's message" "$out" 'container is running'
is "rm -f" "$("$D" rm -f c1 c2)" "$(printf 'c1\nc2')"
is "rm -f keeps the workspace" "$(cat "$T/ws/f.txt")" hello
"$D" inspect c1 >/dev/null 2>&1
is "removed: inspect exit 1" "$?" 1

# ---- nested binds given child first are mounted parent first (docker does)
"$D" create --name c3 --network none -v "$T/ws/skills:/workspace/skills:ro" -v "$T/ws:/workspace" "$IMAGE" >/dev/null
"$D" start c3 >/dev/null
mi=$("$D" exec c3 cat /proc/self/mountinfo)
parent_id=$(echo "$mi" | awk '$5=="/workspace" {print $1}')
is "nested bind: /workspace/skills sits on /workspace" "$(echo "$mi" | awk '$5=="/workspace/skills" {print $2}')" "$parent_id"
"$D" rm -f c3 >/dev/null

# ---- limits this host cannot enforce: strict, named
if "$SBX" doctor --json 2>/dev/null | grep -q 'limits are refused'; then
        "$D" create --name c3 --memory 64m --network none "$IMAGE" >/dev/null 2>&1
        out=$("$D" start c3 2>&1); rc=$?
        is "an unenforceable --memory: start exit 1" "$rc" 1
        like "... naming the limit and the fix" "$out" 'memory.*SBX_DOCKER_LIMITS=best-effort'
        "$D" rm -f c3 >/dev/null 2>&1
elif [ "$(id -u)" = 0 ]; then
        # issue 15: enforced where the host can (as root on this v1/hybrid host too),
        # from inside, in both directions; docker exec runs inside the same limits
        "$D" create --name c3 --memory 32m --pids-limit 20 --network none "$IMAGE" >/dev/null 2>&1
        "$D" start c3 >/dev/null 2>&1
        "$D" exec c3 python3 -c 'b = bytearray(200 << 20)' >/dev/null 2>&1; rc=$?
        is "--memory 32m: docker exec allocating 200 MiB is OOM-killed (137)" "$rc" 137
        out=$("$D" exec c3 python3 -c 'b = bytearray(8 << 20); print("ok")' 2>&1); rc=$?
        is "... allocating 8 MiB works" "$rc/$out" 0/ok
        out=$("$D" exec c3 python3 -c '
import errno, os, time
n = 0
try:
    while n < 100:
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
    print("forked", n)
except OSError as e:
    print(errno.errorcode[e.errno], n)' 2>&1)
        like "--pids-limit 20: forks fail with EAGAIN below 20 ($out)" "$out" '^EAGAIN 1[0-9]$'
        "$D" rm -f c3 >/dev/null 2>&1
fi

# ---- --tmpfs is noexec unless it says exec, as Docker mounts it, kept in the
# record and held at every start (round 4: noexec was accepted and ignored)
"$D" create --name c3 --network none --tmpfs /tmp:noexec --tmpfs /var/tmp --tmpfs /run:size=8m,exec "$IMAGE" sleep infinity >/dev/null
"$D" start c3 >/dev/null
out=$("$D" exec c3 sh -c 'for d in /tmp /var/tmp /run; do cp /bin/true $d/t && $d/t; echo "$d=$?"; done' 2>/dev/null)
like "--tmpfs: /tmp:noexec and /var/tmp (no options, Docker's noexec) do not run a file written there (126); /run:exec runs it" \
        "$(echo $out)" '/tmp=126 /var/tmp=126 /run=0$'
is "docker stop -t 1: prints the name" "$("$D" stop -t 1 c3)" c3
# ExitCode: init's wait status as the kernel gives it, 143 after a stop
# (128+SIGTERM, as docker's --init), 137 for one killed; FinishedAt set
like "... {{.State.Status}} exited, ExitCode 143, FinishedAt set; ps's State exited, Status Exited (143) ... ago" \
        "$("$D" inspect -f '{{.State.Status}} {{.State.Running}} {{.State.ExitCode}} {{.State.FinishedAt}}' c3) $("$D" ps -a --filter name=c3 --format '{{.State}} {{.Status}}')" \
        '^exited false 143 20[0-9][0-9]-[0-9-]+T[0-9:.]+Z exited Exited \(143\) (Less than a second|[0-9]+ seconds?) ago$'
"$D" start c3 >/dev/null
is "... started again: running, ExitCode 0" "$("$D" inspect -f '{{.State.Status}} {{.State.ExitCode}}' c3)" "running 0"
kill -KILL "$("$D" inspect -f '{{.State.Pid}}' c3)"
for _ in $(seq 50); do [ "$("$D" inspect -f '{{.State.Running}}' c3)" = false ] && break; sleep 0.1; done
is "... its init killed (SIGKILL) outside sbx: exited, ExitCode 137, ps Exited (137)" \
        "$("$D" inspect -f '{{.State.Status}} {{.State.ExitCode}}' c3) $("$D" ps -a --filter name=c3 --format '{{.Status}}' | cut -d' ' -f1-2)" \
        "exited 137 Exited (137)"
is "docker stop of a stopped container: exit 0, the name (docker's)" "$("$D" stop c3; echo "rc=$?")" "$(printf 'c3\nrc=0')"
# -t 0: Docker's wait for the stop signal is 0 s, then SIGKILL: 137 (sbx waited 1 s, so 143)
"$D" start c3 >/dev/null
is "docker stop -t 0: prints the name, ExitCode 137, ps Exited (137) (SIGKILL at once, as Docker)" \
        "$("$D" stop -t 0 c3) $("$D" inspect -f '{{.State.Status}} {{.State.ExitCode}}' c3) $("$D" ps -a --filter name=c3 --format '{{.Status}}' | cut -d' ' -f1-2)" \
        "c3 exited 137 Exited (137)"
out=$("$D" stop nope 2>&1); rc=$?
is "docker stop of a missing container: exit 1, No such container" "$rc/$out" "1/Error response from daemon: No such container: nope"
out=$("$D" stop -t x c3 2>&1); rc=$?
is "docker stop -t x: exit 125 (a flag error), the flag named" "$rc/${out%%$'\n'*}" \
        "125/invalid argument \"x\" for \"-t, --time\" flag: want whole seconds, 0 to 86400"
"$D" start c3 >/dev/null
out=$("$D" exec c3 sh -c 'for d in /tmp /var/tmp /run; do cp /bin/true $d/t && $d/t; echo "$d=$?"; done' 2>/dev/null)
like "... the same after stop and start" "$(echo $out)" '/tmp=126 /var/tmp=126 /run=0$'
is "... inspect's HostConfig.Tmpfs keeps the option text" "$("$D" inspect -f '{{json .HostConfig.Tmpfs}}' c3)" \
        '{"/tmp":"noexec","/var/tmp":"","/run":"size=8m,exec"}'
"$D" rm -f c3 >/dev/null 2>&1

# ---- the Docker-outside-of-Docker self-probe
if [ -e /.dockerenv ] || [ -e /run/.containerenv ]; then
        self=$("$D" inspect --type container --format '{"Id":{{json .ID}},"Mounts":{{json .Mounts}},"Tmpfs":{{json .HostConfig.Tmpfs}}}' "$(hostname)")
        like "self-probe inspect: identity mount" "$self" '^\{"Id":"[0-9a-f]{64}","Mounts":\[\{"Type":"bind","Source":"/","Destination":"/","Mode":"","RW":true,"Propagation":"rprivate"\}\],"Tmpfs":null\}$'
        sid=$(echo "$self" | sed 's/^{"Id":"\([0-9a-f]*\)".*/\1/')
        is "self-probe exec runs on the host (same mount namespace)" \
                "$("$D" exec "$sid" readlink /proc/self/ns/mnt)" "$(readlink /proc/self/ns/mnt)"
else
        "$D" inspect --type container "$(hostname)" >/dev/null 2>&1
        is "no container markers: the hostname is no container" "$?" 1
fi
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# sbx run: exit-status contract and error paths (issue 2).
. "$(dirname "$0")/lib.sh"

mounts_snapshot "$TMP/mounts-before"

out=$("$SBX" run -- /bin/sh -c 'echo hello') ; rc=$?
is "a command runs and its output passes through" "$out" "hello"
is "exit status 0 passes through" "$rc" 0
"$SBX" run -- /bin/sh -c 'exit 3'; is "exit status 3 passes through" "$?" 3
sbxp -- /sbx-probe exit 42; is "the probe's exit status 42 passes through" "$?" 42

"$SBX" run -- /bin/true; is "a PATH lookup finds true" "$?" 0
err=$("$SBX" run -- no-such-command-xyz 2>&1); rc=$?
is "missing command exits 127" "$rc" 127
like "missing command: the message names it" "$err" "no-such-command-xyz"
err=$("$SBX" run -- /usr/bin/no-such-file 2>&1); is "missing absolute path exits 127" "$?" 127
err=$("$SBX" run -- /etc/hostname 2>&1); rc=$?
is "non-executable file exits 126" "$rc" 126
like "non-executable: the message names the path" "$err" "/etc/hostname"
err=$("$SBX" run -- /usr 2>&1); is "a directory as command exits 126" "$?" 126

# A #! script: execveat on a CLOEXEC fd cannot run it, sbx must fall back.
printf '#!/bin/sh\necho script-ran "$@"\n' > "$TMP/script.sh"; chmod 755 "$TMP/script.sh"
out=$("$SBX" run --ro-bind "$TMP/script.sh:/s.sh" -- /s.sh a b); rc=$?
is "a #! script runs with its arguments" "$out" "script-ran a b"

err=$("$SBX" run --rootfs "$TMP/nonexistent-rootfs" -- /bin/true 2>&1); rc=$?
is "bad --rootfs exits 125" "$rc" 125
like "bad --rootfs: the message names the path" "$err" "nonexistent-rootfs"
err=$("$SBX" run --workspace "$TMP/nonexistent-ws" -- /bin/true 2>&1); rc=$?
is "bad --workspace exits 125" "$rc" 125
like "bad --workspace: the message names the path" "$err" "nonexistent-ws"
touch "$TMP/plainfile"
err=$("$SBX" run --workspace "$TMP/plainfile" -- /bin/true 2>&1); rc=$?
is "a file as --workspace exits 125" "$rc" 125
mkdir -p "$TMP/ro-state"; chmod 555 "$TMP/ro-state"
if [ "$(id -u)" = 0 ]; then
        # root ignores mode bits: use a path below a regular file instead
        sd="$TMP/plainfile/state"
else
        sd="$TMP/ro-state/sub"
fi
err=$("$SBX" run --state-dir "$sd" -- /bin/true 2>&1); rc=$?
is "unwritable --state-dir exits 125" "$rc" 125
like "unwritable --state-dir: the message names the path" "$err" "$sd"
mkdir -m 777 "$TMP/open-state"
err=$("$SBX" run --state-dir "$TMP/open-state" -- /bin/true 2>&1); rc=$?
is "a world-writable --state-dir is refused with 125" "$rc" 125
like "world-writable --state-dir: the message names it" "$err" "open-state"
err=$("$SBX" run --bind "$TMP/missing-src:/x" -- /bin/true 2>&1); rc=$?
is "a missing --bind source exits 125" "$rc" 125
like "missing --bind: the message names the path" "$err" "missing-src"

# resource limits go through sbx_cgroup_prepare: enforced, or refused naming the limit
err=$("$SBX" run --memory 64m -- /bin/true 2>&1); rc=$?
if [ $rc = 0 ]; then ok "--memory 64m: enforced here, the command ran"
else
        is "--memory 64m where it cannot be enforced exits 125" "$rc" 125
fi
[ $rc = 0 ] || like "--memory: the refusal names the limit" "$err" "(memory|limit)"
"$SBX" run --memory 64m --limits best-effort -- /bin/true 2>/dev/null
is "--memory 64m --limits best-effort runs the command" "$?" 0

# A bind source below a directory only the caller may enter (as root: the
# sandbox's subordinate ids could not reach it, sbx must not need them to)
mkdir -m 700 "$TMP/private"; mkdir "$TMP/private/d"; echo private-data > "$TMP/private/d/f"
is "a bind from a 0700 directory of the caller works" "$("$SBX" run --ro-bind "$TMP/private/d:/p" -- /bin/cat /p/f)" private-data
is "the runtime dir is 0700 and sbx still works" "$(stat -c %a "$XDG_RUNTIME_DIR")/$("$SBX" run -- /bin/echo ok)" "700/ok"

"$SBX" run --bogus-option -- true 2>/dev/null; is "an unknown option exits 2" "$?" 2
"$SBX" run 2>/dev/null; is "no command exits 2" "$?" 2
"$SBX" run --ulimit nofile=abc -- true 2>/dev/null; is "a bad --ulimit exits 2" "$?" 2
"$SBX" run --workspace-access sometimes -- true 2>/dev/null; is "a bad --workspace-access exits 2" "$?" 2
out=$("$SBX" run --help); is "--help exits 0" "$?" 0
like "--help lists --workspace-access" "$out" "--workspace-access"

# issue 16: a plain run's child shares sbx's memory until its exec; the copy
# (SBX_SPAWN_COPY=1, as a run with a network or -t still gets) is the same sandbox
view='sed -E "s|^[0-9]+ [0-9]+ [0-9]+:[0-9]+ ||; s|fd/[0-9]+|fd/N|g" /proc/self/mountinfo;
      grep -E "^(Uid|Gid|Groups|Cap|NoNewPrivs|Seccomp|SigIgn|SigBlk)" /proc/self/status;
      ls -ln /etc /dev | sed -E "s/ [A-Z][a-z]{2} +[0-9]+ +[0-9:]+ / /"; ls /proc/self/fd; echo $$'
# Both with a template and without: rootless below 4,000 host threads the
# copy's forked spawner would not take the template the shared run takes
# (mount.c, session 14), so each pair says which root it wants.
for tmpl in 1 0; do
        shared=$(SBX_TEMPLATE=$tmpl "$SBX" run -- /bin/sh -c "$view" 2>&1); rc_s=$?
        copied=$(SBX_TEMPLATE=$tmpl SBX_SPAWN_COPY=1 "$SBX" run -- /bin/sh -c "$view" 2>&1); rc_c=$?
        is "shared and copied child (SBX_TEMPLATE=$tmpl): both run" "$rc_s/$rc_c" "0/0"
        is "shared and copied child (SBX_TEMPLATE=$tmpl): the same mounts, ids, capabilities, filters, files, fds" \
                "$shared" "$copied"
done
"$SBX" run -- /bin/sh -c 'exit 7'; rc_s=$?
SBX_SPAWN_COPY=1 "$SBX" run -- /bin/sh -c 'exit 7'; rc_c=$?
is "shared and copied child: the same exit status" "$rc_s/$rc_c" "7/7"
is "no run directory left in the state dir" "$(leftovers)" ""
# (lib.sh new_mounts: other jobs' mounts come and go; up to 5 s for them to go)
is "no mount left in the caller's mount namespace" "$(new_mounts "$TMP/mounts-before" 25)" ""
done_testing

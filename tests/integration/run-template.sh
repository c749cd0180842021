#!/bin/bash
# SPDX-License-Identifier: MIT
# Template holders (issue 16 targets 1 and 5, runtime/launch/template.c): the
# read-only root of `sbx run` is built once per template by a holder process
# and copied by each run. The holder is made on first use, reused, rebuilt
# after kill -9 or when a host file it bound changed, removed by `sbx rm -f
# --all` and when its template dir goes; a run from a template sees what a
# run without one (SBX_TEMPLATE=0) sees. Root and, via as-unpriv.sh, rootless.
. "$(dirname "$0")/lib.sh"
# Templates are used by default as root, rootless where the spawner runs on
# sbx's memory or on a host with many threads (mount.c, SBX_TEMPLATE_THREADS);
# these tests always want them.
export SBX_TEMPLATE=1
# and they need overlayfs layers on a detached mount (mount.c
# kernel_overlay_takes_detached_layers: Linux 6.15 on)
case $(uname -r) in
[0-5].* | 6.[0-9].* | 6.1[0-4].*)
        skip "template holders need Linux >= 6.15 (overlayfs layers on a detached mount); kernel $(uname -r) builds each run's root"
        done_testing ;;
esac

tdir() { echo "$(state_base)/templates"; }
holders() { ls "$(tdir)" 2>/dev/null | wc -l; }
# the pid recorded in the one template dir (or empty)
holder_pid() { head -1 "$(tdir)"/*/holder 2>/dev/null | cut -d' ' -f1; }
# a live holder (a killed one stays a zombie until it is reaped)
alive() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = sbx-template ] &&
          ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
live_holders() {
        local f
        for f in "$(tdir)"/*/holder; do [ -f "$f" ] && alive "$(head -1 "$f" | cut -d' ' -f1)" && echo; done | wc -l
}

"$SBX" rm -f --all >/dev/null 2>&1
is "no template before the first run" "$(holders)" 0
is "SBX_TEMPLATE=0: the root is built per run, no holder" \
        "$(SBX_TEMPLATE=0 "$SBX" run -- /bin/echo hi; holders)" "hi
0"
is "the first run works" "$("$SBX" run -- /bin/echo hi)" hi
is "... and leaves one template" "$(holders)" 1
# The run that builds a holder runs from it: rootless its spawner's setns()
# into a holder not yet exec'd (non-dumpable, its mm the initial user
# namespace's) failed, and that run built its own root (12 in 20, session 17;
# holder_build now waits for the exec). Three times: 2 procfs mounts each.
procfs='awk "\$5 == \"/proc\" && / - proc /" /proc/self/mountinfo | wc -l'
is "... and the run that built the holder ran from it (2 procfs on /proc), 3 times from none" \
        "$(for i in 1 2 3; do "$SBX" rm -f --all >/dev/null; "$SBX" run -- /bin/sh -c "$procfs"; done | tr '\n' ' ')" "2 2 2 "
if [ "$(id -u)" = 0 ]; then
        # as root sbx enters the holder's mount namespace itself (no spawner): always worth it
        is "without SBX_TEMPLATE, as root, a template is used at any thread count" \
                "$("$SBX" rm -f --all >/dev/null; SBX_TEMPLATE= "$SBX" run -- /bin/echo hi; holders)" "hi
1"
elif grep -qa __asan_init "$SBX_BUILD_ROOT/libexec/sbx" 2>/dev/null; then
        # launch.c shares_memory_until_exec(): a sanitizer build always copies
        skip "the rootless default: an ASan build's spawner never shares sbx's memory"
        skip "the rootless default: an ASan build's spawner never shares sbx's memory"
elif [ "$(awk '{split($4, a, "/"); print a[2]}' /proc/loadavg)" -lt 4000 ]; then
        # rootless (session 14): a template wherever the spawner runs on
        # sbx's memory, at any thread count; a forked spawner (a timeout,
        # a tty, ...) only from 4,000 host threads on
        is "without SBX_TEMPLATE, rootless, at a few threads on the host, a template is used (the spawner on sbx's memory)" \
                "$("$SBX" rm -f --all >/dev/null; SBX_TEMPLATE= "$SBX" run -- /bin/echo hi; holders)" "hi
1"
        # the host's thread count is other jobs' too: it must still be below
        # 4,000 after the run (sbx read it in between), else the check says nothing
        out=$("$SBX" rm -f --all >/dev/null; SBX_TEMPLATE= "$SBX" run --timeout 30 -- /bin/echo hi; holders)
        if [ "$(awk '{split($4, a, "/"); print a[2]}' /proc/loadavg)" -lt 4000 ]; then
                is "... but not for a run whose spawner would be a fork (--timeout)" "$out" "hi
0"
        else
                skip "... but not for a run whose spawner would be a fork (--timeout): the host passed 4,000 threads meanwhile"
        fi
        "$SBX" run -- /bin/true
else
        skip "the default below 4,000 host threads: this host has more"
        skip "the default below 4,000 host threads: this host has more"
fi
h1=$(holder_pid)
if alive "$h1"; then ok "its holder runs, named sbx-template"; else not_ok "its holder runs (pid '$h1')"; fi
is "the holder is pid 1 of a pid namespace of its own" "$(awk '/^NSpid:/ {print NF - 1, $NF}' "/proc/$h1/status")" "2 1"
is "the holder is not dumpable (its /proc files are host root's)" "$(stat -c %u "/proc/$h1/environ")" 0
if [ "$(id -u)" = 0 ]; then
        is "the holder holds one descriptor: the watch on its template dir" \
                "$(ls "/proc/$h1/fd" | wc -l) $(readlink "/proc/$h1/fd/0")" "1 anon_inode:inotify"
        is "the holder's environment is empty" "$(wc -c < "/proc/$h1/environ")" 0
        unlike "the holder does not run as host root" "$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$h1/status")" \
                '(^| )0( |$)'
else
        skip "the holder's descriptors and environment: only root may look (it is not dumpable)"
        skip "the holder's environment: only root may look"
        is "the holder runs as the caller" "$(awk '/^Uid:/ {print $2}' "/proc/$h1/status")" "$(id -u)"
fi
"$SBX" run -- /bin/true
is "a second run reuses the holder" "$(holder_pid)" "$h1"

# The same view with and without a template. The pids line is the shell's
# glob of /proc (no child running): the sandbox's pid namespace holds the
# shell alone. A count through a pipe (ls /proc | grep -c) saw 2 or 3
# processes, as the pipe's second child had started or not: 2 in 150 pairs
# of the rootless shared-vs-copied diff below (load ~11), the flake of
# session 17.
view='awk "!(\$5 == \"/proc\" && / - proc /) && !(\$5 == \"/workspace\" && / - tmpfs /)" /proc/self/mountinfo | cut -d" " -f5-10 | sed "s/fd\/[0-9]*/fd/g" | sort
awk "\$5 == \"/proc\" && / - proc /" /proc/self/mountinfo | wc -l
awk "\$5 == \"/workspace\" && / - tmpfs / {print \"scratch\", \$6, \$(NF)}" /proc/self/mountinfo
awk "\$5 == \"/workspace\" {print \$9}" /proc/self/mountinfo | tail -1
ls -la / /dev /etc /workspace | grep -v " proc$" | sed "s/ [A-Z][a-z][a-z] [ 0-9]* [0-9:]* / DATE /"
id; cat /proc/self/uid_map /proc/self/gid_map; set -- /proc/[0-9]*; echo "pids $*"
touch /x 2>&1; touch /etc/passwd 2>&1; touch /usr/x 2>&1; touch /dev/x 2>&1
echo w > /workspace/f && cat /workspace/f; echo t > /tmp/f && cat /tmp/f; echo s > /dev/shm/f && cat /dev/shm/f
head -c 4 /dev/zero | od -An -tx1; echo x > /dev/null && echo null-ok'
with=$("$SBX" run -- /bin/sh -c "$view" 2>&1)
without=$(SBX_TEMPLATE=0 "$SBX" run -- /bin/sh -c "$view" 2>&1)
# two lines differ by design: the template's own procfs lies beneath the run's
# /proc (two "/proc proc" mounts instead of one; both are counted above), and the
# workspace's scratch tmpfs (its upper and work dirs) lies beneath the /workspace
# overlay, which covers it (without a template it is in the old root, detached)
is "the view from a template is the view without (mounts, flags, files, ids, writes)" \
        "$(diff <(echo "$without" | sed '/^[0-9]$/d; /^scratch /d') <(echo "$with" | sed '/^[0-9]$/d; /^scratch /d'))" ""
is "... /workspace: the scratch tmpfs beneath the overlay (mode 700, size and inodes capped), none without" \
        "$(echo "$with" | sed -n 's/^scratch //p') | $(echo "$without" | sed -n 's/^scratch //p')" \
        "rw,nosuid,nodev,relatime rw,size=1048576k,nr_inodes=524288,mode=700,uid=$(test "$(id -u)" = 0 && echo 1879048192 || id -u),gid=$(test "$(id -u)" = 0 && echo 1879048192 || id -g) | "
is "... /proc: the run's procfs over the template's (2 procfs mounts, 1 without)" \
        "$(echo "$with" | sed -n 's/^\([0-9]\)$/\1/p' | head -1) $(echo "$without" | sed -n 's/^\([0-9]\)$/\1/p' | head -1)" "2 1"
is "... /proc: the sandbox's pid namespace shows its own shell alone (pid 1), with a template and without" \
        "$(echo "$with" | grep '^pids ') | $(echo "$without" | grep '^pids ')" "pids /proc/1 | pids /proc/1"
# Rootless (session 13) the spawner and the sandbox share sbx's memory
# (CLONE_VM | CLONE_VFORK, the sandbox CLONE_PARENT) where the run's child
# could (no tty, exec log, timeout...); SBX_SPAWN_COPY=1 takes the fork and
# the copy: the same sandbox either way, and the shared one is the one used
# (strace under a timeout: -f would follow a holder built meanwhile, which
# never exits).
if [ "$(id -u)" != 0 ]; then
        status='grep -E "^(Uid|Gid|Cap|NoNewPrivs|Seccomp)" /proc/self/status'
        shared=$("$SBX" run -- /bin/sh -c "$view; $status" 2>&1)
        copied=$(SBX_SPAWN_COPY=1 "$SBX" run -- /bin/sh -c "$view; $status" 2>&1)
        is "rootless: the spawner on sbx's memory gives the forked spawner's sandbox (view, ids, caps, seccomp)" \
                "$(diff <(echo "$copied") <(echo "$shared"))" ""
        like "... which has no effective capability" "$shared" "CapEff:	0000000000000000"
        if grep -qa __asan_init "$SBX_BUILD_ROOT/libexec/sbx" 2>/dev/null; then
                skip "which clone the spawner makes: an ASan build's never shares sbx's memory"
                skip "which clone the spawner makes: an ASan build's never shares sbx's memory"
        elif command -v strace >/dev/null; then
                like "... and is the one used: the spawner's clone is CLONE_VM|CLONE_VFORK|CLONE_PARENT" \
                        "$(timeout 30 strace -f -e trace=clone,clone3 -o /dev/stdout "$SBX" run -- /bin/true 2>&1)" \
                        "CLONE_VM\|CLONE_PIDFD\|CLONE_VFORK\|CLONE_PARENT\|CLONE_NEWNS"
                unlike "... SBX_SPAWN_COPY=1: a fork and a copy instead" \
                        "$(SBX_SPAWN_COPY=1 timeout 30 strace -f -e trace=clone,clone3 -o /dev/stdout "$SBX" run -- /bin/true 2>&1)" \
                        "CLONE_VM\|CLONE_PIDFD\|CLONE_VFORK\|CLONE_PARENT"
        else
                skip "strace is not installed: which clone the spawner makes"
                skip "strace is not installed: which clone the spawner makes"
        fi
fi
like "... / is read-only" "$with" "touch: cannot touch '/x': Read-only file system"
like "... /etc/passwd is read-only" "$with" "cannot touch '/etc/passwd': Read-only file system"
is "... and every run has its own /workspace, /tmp and /dev/shm" \
        "$("$SBX" run -- /bin/sh -c 'cat /workspace/f /tmp/f /dev/shm/f 2>&1 | wc -l; ls -A /workspace /tmp /dev/shm | grep -c f')" "3
0"
is "an option that changes the template's files makes another template" \
        "$("$SBX" run --hostname other-host -- /bin/cat /etc/hostname; holders)" "other-host
2"
is "... and the first still serves the default" "$("$SBX" run -- /bin/cat /etc/hostname; holders)" "sbx
2"

# kill -9 of the holder: the next run builds a new one (never fails).
"$SBX" rm -f --all >/dev/null
"$SBX" run -- /bin/true
h1=$(holder_pid)
kill -KILL "$h1"
for i in $(seq 50); do alive "$h1" || break; sleep 0.02; done
if alive "$h1"; then not_ok "kill -9 ends the holder"; else ok "kill -9 ends the holder"; fi
is "the next run after kill -9 works" "$("$SBX" run -- /bin/echo after)" after
h2=$(holder_pid)
if alive "$h2" && [ "$h2" != "$h1" ]; then ok "... with a new holder"; else not_ok "... with a new holder ($h1 -> $h2)"; fi

# Staleness: a host file the template bound is replaced (a bind keeps the old
# inode): the template is rebuilt. Root only: a private mount namespace puts
# another file over /etc/ld.so.cache for this test alone.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
        printf 'new-cache\n' > "$TMP/cache"
        got=$(unshare -m --propagation private /bin/sh -c \
                "mount --bind '$TMP/cache' /etc/ld.so.cache && '$SBX' run -- /bin/cat /etc/ld.so.cache" 2>&1)
        is "a replaced host file is seen by the next run (the template is rebuilt)" "$got" new-cache
        h3=$(holder_pid)
        for i in $(seq 50); do alive "$h2" || break; sleep 0.02; done
        if [ "$h3" != "$h2" ] && ! alive "$h2"; then ok "... by a new holder; the stale one is gone"
        else not_ok "... by a new holder; the stale one is gone ($h2 -> $h3)"; fi
        is "... and back: the host's own file again" "$("$SBX" run -- /bin/head -c 11 /etc/ld.so.cache)" "$(head -c 11 /etc/ld.so.cache)"
else
        skip "staleness: needs root for a private bind over /etc/ld.so.cache"
        skip "staleness: a new holder"
        skip "staleness: back to the host's file"
fi

# Concurrent first runs: all work, one holder.
"$SBX" rm -f --all >/dev/null
for i in 1 2 3 4 5 6; do ("$SBX" run -- /bin/echo "p$i" > "$TMP/par$i" 2>&1) & done
wait
is "six concurrent first runs all work" "$(cat "$TMP"/par? | sort | tr '\n' ' ')" "p1 p2 p3 p4 p5 p6 "
is "... and share one template" "$(holders)" 1
is "... with one live holder" "$(live_holders)" 1

# What the template does not cover runs as before, with no holder.
"$SBX" rm -f --all >/dev/null
ws=$TMP/ws; mkdir -p "$ws"; echo hostfile > "$ws/h"; chmod -R a+rX "$ws"
is "--workspace DIR: no template, same result" "$("$SBX" run --workspace "$ws" -- /bin/cat /workspace/h; holders)" "hostfile
0"
is "--writable-root: no template" "$("$SBX" run --writable-root -- /bin/sh -c 'touch /x && echo w'; holders)" "w
0"

# A holder keeps none of the caller's descriptors: a pipe on the stdout of
# the run that built it closes when sbx exits, also where close_range is
# refused (fault injection's filter).
"$SBX" rm -f --all >/dev/null
is "the run that builds a template closes its stdout pipe on exit" \
        "$(timeout 20 sh -c "'$SBX' run -- /bin/echo piped | cat"; echo "rc=$?")" "piped
rc=0"
if [ -n "${SBX_DENY_SYSCALLS:-}" ]; then
        "$SBX" rm -f --all >/dev/null
        is "... also with close_range refused" \
                "$(timeout 20 sh -c "'$SBX_DENY_SYSCALLS' close_range '$SBX' run -- /bin/echo piped | cat"; echo "rc=$?")" "piped
rc=0"
else
        skip "close_range refused: no deny-syscalls helper (SBX_DENY_SYSCALLS)"
fi

# Holders of another sbx binary (an older build, an upgrade: keys it alone
# makes) go when this one builds a holder, unless a run uses them (a shared
# flock on their `use` file from the acquire to the clone; here held by the
# test, as an older sbx mid-create would). Two copies of sbx: two binaries.
libexec=$(dirname "$SBX")/libexec/sbx
if [ -x "$libexec" ]; then
        for b in a b; do
                mkdir -p "$TMP/bin-$b/libexec" && cp "$SBX" "$TMP/bin-$b/sbx" && cp "$libexec" "$TMP/bin-$b/libexec/sbx"
        done
        chmod -R a+rX "$TMP"/bin-?
        key_of() { for k in "$(tdir)"/*/exe; do cmp -s "$k" "$1" && basename "$(dirname "$k")"; done; }
        "$SBX" rm -f --all >/dev/null
        "$TMP/bin-a/sbx" run -- /bin/true
        ka=$(ls "$(tdir)"); ha=$(holder_pid)
        is "binary a: one holder, its exe recorded" "$(holders) $(wc -l < "$(tdir)/$ka/exe")" "1 1"
        exec 9< "$(tdir)/$ka/use"
        flock -s 9
        is "binary b builds its own while a's is in use" "$("$TMP/bin-b/sbx" run -- /bin/echo b; holders)" "b
2"
        if alive "$ha" && [ -f "$(tdir)/$ka/holder" ]; then ok "... and a's holder in use stays"
        else not_ok "... and a's holder in use stays (pid $ha)"; fi
        exec 9<&-
        cp "$(tdir)/$ka/exe" "$TMP/exe-a"
        kb=$(ls "$(tdir)" | grep -vx "$ka")
        cp "$(tdir)/$kb/exe" "$TMP/exe-b"
        is "b's next holder (another key): a's, no longer in use, goes; b's first stays" \
                "$("$TMP/bin-b/sbx" run --hostname other-host -- /bin/echo b2; holders; [ -d "$(tdir)/$ka" ] && echo a-dir; [ -d "$(tdir)/$kb" ] && echo b-dir)" "b2
2
b-dir"
        for i in $(seq 50); do alive "$ha" || break; sleep 0.02; done
        if alive "$ha"; then not_ok "... a's holder is stopped"; else ok "... a's holder is stopped"; fi
        is "a run lets go of its holder once cloned (no shared lock left)" \
                "$(flock -n -x "$(tdir)/$kb/use" echo free)" free
        is "a again: works, builds its own; b's two, unused, go" \
                "$("$TMP/bin-a/sbx" run -- /bin/echo a; holders; key_of "$TMP/exe-a" | wc -l; key_of "$TMP/exe-b" | wc -l)" "a
1
1
0"
        "$SBX" rm -f --all >/dev/null
else
        for i in 1 2 3 4 5 6; do skip "holders of another binary: no $libexec to copy (an installed sbx)"; done
fi

# Removal: rm -f --all, and the template dir removed.
"$SBX" run -- /bin/true
h=$(holder_pid)
"$SBX" rm -f --all >/dev/null
for i in $(seq 50); do alive "$h" || break; sleep 0.02; done
if alive "$h"; then not_ok "rm -f --all ends the holder"; else ok "rm -f --all ends the holder"; fi
is "... and removes the templates dir" "$(ls -A "$(state_base)" | grep -c templates || true)" 0
"$SBX" run -- /bin/true
h=$(holder_pid)
rm -rf "$(tdir)"
for i in $(seq 100); do alive "$h" || break; sleep 0.02; done
if alive "$h"; then not_ok "removing the template dir ends its holder"; else ok "removing the template dir ends its holder"; fi
is "no run directory left" "$(leftovers)" ""
done_testing

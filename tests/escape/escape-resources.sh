#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): resource exhaustion. Processes (--ulimit nproc,
# --pids-limit), fds (--ulimit nofile), disk (tmpfs size), memory (--memory:
# on a host without the cgroup v2 memory controller sbx refuses unless
# --limits best-effort; real OOM kills are tested in the vm lane).
. "$(dirname "$0")/lib.sh"

cg_mode=$("$SBX" doctor --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("cgroup_mode", "?"))' 2>/dev/null || echo "?")

# --- processes
control "outside, 40 forks succeed" "$("$SBX_PROBE" exhaust-procs 40)" "40 OK"
out=$(tsbx --ulimit nproc=32 -- /sbx-probe exhaust-procs 1000)
like "fork-bomb-nproc: --ulimit nproc=32 stops forking with EAGAIN below 32" "$out" '^([0-9]|[12][0-9]|3[01]) EAGAIN$'
marker="sbx-bomb-$$-$RANDOM"
timeout -k 5 60 "$SBX" run --ulimit nproc=64 --timeout 3 -- /bin/sh -c 'b() { b | b & }; b; sleep 30' "$marker" >/dev/null 2>&1; rc=$?
is "fork-bomb-shell: a shell fork bomb under nproc=64 ends with the --timeout (124)" "$rc" 124
sleep 0.5
is "fork-bomb-shell: no process of it is left on the host" "$(pgrep -fc "$marker")" 0
# Without --ulimit nproc and without a pids cgroup (sbx's default cap of 1024
# is skipped on a host without the controller), RLIMIT_NPROC was sbx's own
# (root's 96363), above the host's kernel.pid_max (32768 here): one fork bomb
# took every pid on the host. A sandbox gets an eighth of the smaller of
# pid_max and threads-max. (The limit is checked before any fork: with the
# old one this test must not take the host's pids.)
hostpids=$(( $(cat /proc/sys/kernel/pid_max) < $(cat /proc/sys/kernel/threads-max) ?
             $(cat /proc/sys/kernel/pid_max) : $(cat /proc/sys/kernel/threads-max) ))
nproc=$(tsbx -- /bin/bash -c 'ulimit -Hu')
case $nproc in ''|*[!0-9]*) nproc=$(( hostpids + 1 )) ;; esac
like "fork-bomb-default-limit: the default RLIMIT_NPROC is at most an eighth of the host's $hostpids pids/threads ($nproc)" \
        "$(( nproc <= hostpids / 8 ))" '^1$'
if [ "$nproc" -le $(( hostpids / 8 )) ] && [ "$nproc" -le 4096 ]; then
        like "fork-bomb-default: with no limit given, forking stops with EAGAIN within that share" \
                "$(tsbx -- /sbx-probe exhaust-procs 4096)" "^[0-9]+ EAGAIN$"
        control "meanwhile and after, the host still forks" "$("$SBX_PROBE" exhaust-procs 40)" "40 OK"
else
        skip "fork-bomb-default: a share of $nproc processes is not one a test may take"
fi
out=$("$SBX" run --pids-limit 32 -- /bin/true 2>&1); rc=$?
if [ "$rc" = 0 ]; then
        out=$(tsbx --pids-limit 32 -- /sbx-probe exhaust-procs 1000)
        like "fork-bomb-pids: --pids-limit 32 stops forking with EAGAIN" "$out" '^([0-9]|[12][0-9]|3[01]) EAGAIN$'
else
        is "fork-bomb-pids: without a pids controller --pids-limit is refused (125)" "$rc" 125
        like "fork-bomb-pids: ... naming the option and the fix" "$out" 'pids-limit.*best-effort'
fi

# --- file descriptors
control "outside, 200 fds can be opened" "$("$SBX_PROBE" exhaust-fds 200)" "200 OK"
like "fd-exhaustion: --ulimit nofile=64 stops at EMFILE" "$(tsbx --ulimit nofile=64 -- /sbx-probe exhaust-fds 100000)" '^6[0-4] EMFILE$'
like "fd-exhaustion: the hard limit cannot be raised inside" \
        "$("$SBX" run --ulimit nofile=64:64 -- /bin/sh -c 'ulimit -n 65 2>&1; echo rc=$?')" 'rc=[1-9]'

# --- disk
is "disk-tmpfs: a --tmpfs size=1m fills up with ENOSPC" "$(tsbx --tmpfs /scratch:size=1m -- /sbx-probe fill /scratch/f 100000)" "1024 ENOSPC"
# A --tmpfs without size= (docker's --tmpfs /tmp; OpenClaw's default
# docker.tmpfs is /tmp /var/tmp /run, none with a size) got the kernel's
# default, half of RAM, each: sbx's default size for its path, else /tmp's.
like "disk-tmpfs-unsized: --tmpfs PATH without size= is bounded (512 MiB)" \
        "$(tsbx --tmpfs /scratch -- /bin/sh -c 'grep " /scratch " /proc/self/mountinfo')" ' - tmpfs .*size=524288k'
like "disk-tmpfs-unsized-run: --tmpfs /run without size= gets /run's default (16 MiB)" \
        "$(tsbx --tmpfs /run -- /bin/sh -c 'grep " /run " /proc/self/mountinfo')" ' - tmpfs .*size=16384k'
cat > "$TMP/tmpfs-agent.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', docker: { tmpfs: ['/tmp', '/var/tmp', '/cache'] } } },
            list: [ { id: 'main', default: true } ] } }
J
like "disk-tmpfs-agent: an agent's docker.tmpfs without sizes is bounded too" \
        "$(HOME=$TMP tsbx --config "$TMP/tmpfs-agent.json" --agent main -- /bin/sh -c 'grep -E " /(tmp|var/tmp|cache) " /proc/self/mountinfo | grep -c "size=524288k"' 2>&1)" '^3$'
like "disk-default-tmp: the default /tmp is bounded too" \
        "$(tsbx -- /bin/sh -c 'grep " /tmp " /proc/self/mountinfo')" 'size=[0-9]+k'
like "disk-root: the root tmpfs is read-only and small" \
        "$(tsbx -- /bin/sh -c 'grep " / / " /proc/self/mountinfo')" '^[0-9]+ [0-9]+ [0-9:]+ / / ro.*size=[0-9]+k'
# size= bounds a tmpfs's pages, not its inodes (the kernel's default: half
# of RAM in pages, ~1 KiB of kernel memory each): empty files filled memory
# past size=. Two inodes a page now.
empties='import os
n = 0
try:
    while n < 100000: open("/scratch/%d" % n, "w").close(); n += 1
    print(n, "OK")
except OSError as e: print(n, os.strerror(e.errno))'
like "disk-tmpfs-inodes: empty files in a --tmpfs size=1m stop with ENOSPC at 512 inodes" \
        "$(tsbx --tmpfs /scratch:size=1m -- python3 -c "$empties" 2>&1)" '^5[01][0-9] No space left on device$'
control "disk-tmpfs-inodes: the same 500 files fit a --tmpfs size=2m" \
        "$(tsbx --tmpfs /scratch:size=2m -- python3 -c "${empties/100000/500}" 2>&1)" "500 OK"
like "disk-tmpfs-inodes-default: /tmp, /var/tmp, /run, /dev/shm: two inodes a page" \
        "$(tsbx -- python3 -c 'import os
print(all(os.statvfs(p).f_files * 2048 <= os.statvfs(p).f_blocks * os.statvfs(p).f_frsize + 131072 for p in ("/tmp", "/var/tmp", "/run", "/dev/shm")))' 2>&1)" '^True$'
# The default workspace's upper layer (an overlay of a tmpfs of the run's
# own) had no size=: half of RAM, past every other bound.
like "disk-workspace-scratch: the default workspace holds at most 1 GiB and 512Ki inodes" \
        "$(tsbx -- python3 -c 'import os; v = os.statvfs("/workspace"); print(v.f_blocks * v.f_frsize <= 1 << 30, v.f_files <= 524288)' 2>&1)" '^True True$'
# the default workspace's upper layer is a tmpfs of the run's own mount
# namespace: 8 MiB written there never reach the state dir's file system
# (the host's /run as root), and go with the sandbox
sb=$(state_base)
mkdir -p "$sb"
before=$(du -sk "$sb" | cut -f1)
tsbx -- /bin/sh -c 'head -c 8388608 /dev/zero > /workspace/big && sleep 1.5' &
wp=$!
sleep 0.8
during=$(du -sk "$sb" | cut -f1)
wait $wp
is "disk-workspace: 8 MiB written to the default workspace do not grow the state dir (${before} -> ${during} KiB)" \
        "$(( during - before < 4096 ))" 1
head -c 8388608 /dev/zero > "$sb/.sbx-du-control"
control "the same 8 MiB written into the state dir show in its size" \
        "$(( $(du -sk "$sb" | cut -f1) - before >= 8000 ))" 1
rm -f "$sb/.sbx-du-control"

# --- disk through the host-side exec log: every execve in a sandbox created
# for an agent is logged by a listener outside it, into the state dir (on
# /run/sbx, a tmpfs, as root). A sandbox that execs in a loop must not grow
# that log without bound.
export HOME=$TMP/home
mkdir -p "$HOME/.openclaw"
cat > "$TMP/oc-audit.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } }, list: [ { id: 'main', default: true } ] } }
J
# --- records the audit log dropped: a record over 16 KiB was not written at
# all, so an exec whose argv held 16 KiB (a padded command; OpenClaw's 24.5 KB
# file-write helper) left no "exec" record, and a process hid its execve()s
# from the exec log with arguments of control characters (escaped \u00XX, six
# times their size). Every record is now written, its argv bounded (with the
# count and sha256 of the whole argv when cut).
hst=$TMP/hide-state
if "$SBX" create --state-dir "$hst" --scope session --config "$TMP/oc-audit.json" --agent main >/dev/null 2>&1; then
        hbox=$("$SBX" ls --state-dir "$hst" -q | head -1)
        hlog=$hst/sandboxes/$hbox/audit.jsonl
        pad=$(head -c 130000 /dev/zero | tr '\0' A)
        timeout -k 5 60 "$SBX" exec --state-dir "$hst" "$hbox" -- /bin/sh -c ": hide-$$ $pad" >/dev/null 2>&1
        want=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(b"/bin/sh\0-c\0" + sys.argv[1].encode() + b"\0").hexdigest())' ": hide-$$ $pad")
        is "audit-hide-argv: an exec with a 130 KB argv is recorded (argv cut, the sha256 of the whole, under 16 KiB)" \
                "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["event"] == "exec" and "hide-" + sys.argv[2] in " ".join(r["argv"]):
        print(r.get("argvTruncated"), r.get("argvCount"), r.get("argvSha256") == sys.argv[3], len(l) <= 16384)' "$hlog" $$ "$want")" \
                "True 3 True True"
        timeout -k 5 60 "$SBX" exec --state-dir "$hst" "$hbox" -- python3 -c 'import subprocess, sys
subprocess.run(["/bin/true", "plain-" + sys.argv[1]])
subprocess.run(["/bin/true", "ctl-" + sys.argv[1]] + ["\x01" * 255] * 30)' $$ >/dev/null 2>&1
        control "an exec-seen record of a plain execve from inside" \
                "$(grep -c "\"event\":\"exec-seen\".*\"plain-$$\"" "$hlog")" 1
        is "audit-hide-exec-seen: an execve with 30 arguments of control characters is in the exec log too" \
                "$(grep -c "\"event\":\"exec-seen\".*\"ctl-$$\"" "$hlog")" 1
        "$SBX" rm -f --state-dir "$hst" "$hbox" >/dev/null 2>&1
else
        not_ok "audit-hide: sbx create --scope session --agent main"
fi
ast=$TMP/audit-state
if "$SBX" create --state-dir "$ast" --scope session --config "$TMP/oc-audit.json" --agent main >/dev/null 2>&1; then
        abox=$("$SBX" ls --state-dir "$ast" -q | head -1)
        alog=$(ls "$ast"/sandboxes/"$abox"/audit.jsonl 2>/dev/null || echo "$ast/sandboxes/$abox/audit.jsonl")
        # 4000 failed execs with 32 arguments of 255 bytes: ~8.5 KiB of record each, ~34 MiB unbounded
        out=$(timeout -k 5 120 "$SBX" exec --state-dir "$ast" "$abox" -- python3 -c 'import os
a = ["A" * 255] * 32
n = 0
for i in range(4000):
    try: os.execv("/nonexistent", a)
    except OSError: n += 1
print(n)' 2>&1)
        is "audit-flood: the sandbox's 4000 execs all ran (and failed: ENOENT)" "$out" 4000
        size=$(stat -c %s "$alog")
        is "audit-flood: the exec log stops at its limit (16 MiB + at most 2 records): $size bytes" \
                "$(( size <= 16777216 + 32768 ))" 1
        control "the execs before the limit were logged (exec-seen records)" \
                "$(( $(grep -c '"event":"exec-seen"' "$alog") > 1000 ))" 1
        is "audit-flood: one exec-seen-limit record says the later ones are dropped" \
                "$(grep -c '"event":"exec-seen-limit"' "$alog")" 1
        timeout -k 5 60 "$SBX" exec --state-dir "$ast" "$abox" -- /bin/true >/dev/null 2>&1
        control "past the limit, sbx exec's own decision record is still written" \
                "$(tail -n 1 "$alog" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["event"], r["argv"])')" \
                "exec ['/bin/true']"
        "$SBX" rm -f --state-dir "$ast" "$abox" >/dev/null 2>&1
else
        not_ok "audit-flood: sbx create --scope session --agent main"
fi

# --- disk kept after rm: a persistent sandbox's upper layer (its workspace
# changes, in the state dir) is its to shape; a directory tree deeper than
# sbx's fd limit (1024, the usual soft limit) must still go with sbx rm
dst=$TMP/deep-state
mkdir -m 755 "$TMP/deep-ws"
if "$SBX" create --state-dir "$dst" --name deep --workspace "$TMP/deep-ws" --workspace-mode overlay >/dev/null 2>&1; then
        out=$(timeout -k 5 60 "$SBX" exec --state-dir "$dst" deep -- python3 -c 'import os
os.chdir("/workspace")
for i in range(3000):
    os.mkdir("d"); os.chdir("d")
open("f", "w").write("x")
print("ok")' 2>&1)
        is "deep-upper: the sandbox made a tree 3000 directories deep" "$out" ok
        control "the tree is in the state dir on the host" \
                "$(find "$dst" -name f -path '*/upper/d/d/*' 2>/dev/null | wc -l)" 1
        (ulimit -n 1024; timeout -k 5 120 "$SBX" rm -f --state-dir "$dst" deep >/dev/null 2>&1); rc=$?
        is "deep-upper: sbx rm (fd limit 1024) removes the sandbox" "$rc" 0
        is "deep-upper: ... and nothing of its upper layer is left in the state dir" \
                "$(find "$dst" -path '*/upper*' 2>/dev/null | wc -l)" 0
else
        not_ok "deep-upper: sbx create --workspace-mode overlay"
fi

# --- the state root's lock and a neighbour: sbx rm deleted a sandbox's state
# dir (its upper layers: as many files as the sandbox made) while holding the
# lock that every create and rm of every sandbox of the state root takes, so
# one session's sandbox with 100,000 empty files in its upper layer stalled
# the creates of every other session and agent for as long as the delete took
# (300,000: 5.5 s, against 20 ms). The dir is renamed aside under the lock and
# deleted after it: a create started during the rm ends before the rm does.
rst=$TMP/rm-state
mkdir -m 755 "$TMP/rm-ws"
if "$SBX" create --state-dir "$rst" --name fat --workspace "$TMP/rm-ws" --workspace-mode overlay >/dev/null 2>&1; then
        out=$(timeout -k 5 120 "$SBX" exec --state-dir "$rst" fat -- python3 -c 'import os
os.mkdir("/workspace/m"); os.chdir("/workspace/m")
for i in range(100000): open(str(i), "w").close()
print("ok")' 2>&1)
        is "rm-lock-neighbour: the sandbox made 100,000 files in its upper layer" "$out" ok
        ipid=$("$SBX" ls --state-dir "$rst" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["initPid"])')
        ( "$SBX" rm -f --state-dir "$rst" fat >/dev/null 2>&1; echo "rm $(date +%s.%N)" >> "$TMP/rm-order" ) &
        rp=$!
        # the create once the rm has stopped the sandbox (its init dead, a zombie at
        # most until this host's pid 1 reaps it; then the rm deletes)
        for _ in $(seq 400); do
                st=$(sed -n 's/^.*) \([A-Z]\).*/\1/p' "/proc/$ipid/stat" 2>/dev/null)
                [ -n "$ipid" ] && [ -n "$st" ] && [ "$st" != Z ] || break
                sleep 0.02
        done
        "$SBX" create --state-dir "$rst" --name neighbour --read-only >/dev/null 2>&1
        echo "create $(date +%s.%N)" >> "$TMP/rm-order"
        wait $rp
        is "rm-lock-neighbour: another sandbox's create during that rm ends before the rm (not after the delete)" \
                "$(cut -d' ' -f1 "$TMP/rm-order" | tr '\n' ' ')" "create rm "
        is "rm-lock-neighbour: ... and nothing of the removed sandbox is left in the state root" \
                "$(ls -A "$rst/sandboxes" | grep -vc '^\.by-id$\|^\.lock$\|^neighbour$\|^\.ls-cache')" 0
        control "the neighbour was created" "$("$SBX" ls --state-dir "$rst" -q 2>/dev/null | grep -c '^neighbour$')" 1
        "$SBX" rm -f --state-dir "$rst" neighbour >/dev/null 2>&1
else
        not_ok "rm-lock-neighbour: sbx create --workspace-mode overlay"
fi

# --- inotify: the kernel counts a sandbox's instances and watches against its
# user namespace's creator (host root, or rootless the caller: the gateway's
# own budget, fs.inotify.max_user_*). One sandbox holding all of them left
# every other process of that user (file watchers, tail -f, the template
# holders) with EMFILE/ENOSPC: it gets at most an eighth of each.
imax=$(cat /proc/sys/user/max_inotify_instances); wmax=$(cat /proc/sys/user/max_inotify_watches)
nfiles=$(( wmax / imax + 64 ))         # enough watches to take the whole budget with every instance
if [ "$imax" -le 1024 ] && [ "$nfiles" -le 20000 ]; then
        hold=$TMP/inotify-hold
        tsbx -- /bin/sh -c "mkdir /tmp/w && cd /tmp/w && seq $nfiles | xargs touch && exec /sbx-probe inotify $imax /tmp/w 3" > "$hold" 2>&1 &
        ip=$!
        for _ in $(seq 200); do [ -s "$hold" ] && break; sleep 0.1; done
        host=$("$SBX_PROBE" inotify 1 "$SECRET_DIR" 0)
        wait $ip
        read -r ins ierr nw werr < "$hold"
        like "inotify-instances: inside, instances work and stop with EMFILE at an eighth of $imax ($ins)" \
                "$ins $ierr $(( ins >= 1 && ins <= imax / 8 ))" '^[0-9]+ EMFILE 1$'
        like "inotify-watches: inside, watches work and stop with ENOSPC at an eighth of $wmax ($nw)" \
                "$nw $werr $(( nw >= 1 && nw <= wmax / 8 ))" '^[0-9]+ ENOSPC 1$'
        like "inotify-host: while the sandbox holds them, its creator's other processes still get an instance and watches" \
                "$host" '^1 OK [1-9][0-9]* OK$'
else
        skip "inotify-*: fs.inotify.max_user_instances=$imax / max_user_watches=$wmax too large to exhaust in a test"
fi

# --- POSIX message queues, queued signals, SHM_LOCKed memory: the kernel
# charges them to the sandbox's user namespace's creator too (host root, or
# rootless the gateway), against the creator's RLIMIT_MSGQUEUE,
# RLIMIT_SIGPENDING and RLIMIT_MEMLOCK. With the creator's limits one sandbox
# holding its mqueues / pending signals left the creator's other processes
# with EMFILE from mq_open and EAGAIN from sigqueue: it gets an eighth of each.
for kind in mqueue sigpending; do
        hold=$TMP/charged-$kind
        tsbx -- /sbx-probe charged $kind 3 > "$hold" 2>&1 &
        cp=$!
        for _ in $(seq 200); do [ -s "$hold" ] && break; sleep 0.1; done
        host=$("$SBX_PROBE" charged $kind 0)
        wait $cp
        case $kind in
        mqueue) lim=$(( $(ulimit -q) / 8 )); per=81920; err=EMFILE ;;
        sigpending) lim=$(( $(ulimit -i) / 8 )); per=1; err=EAGAIN ;;
        esac
        read -r n e < "$hold"
        like "charged-$kind: inside, $kind works and stops with $err within an eighth of the creator's limit ($n)" \
                "$n $e $(( n >= 1 && n * per <= lim ))" "^[0-9]+ $err 1\$"
        like "charged-$kind-host: while the sandbox holds its share, its creator's other processes still get $kind" \
                "$host" '^[1-9][0-9]* '
done
like "charged-limits: the sandbox cannot raise them back (hard = soft = an eighth)" \
        "$("$SBX" run -- /bin/bash -c 'ulimit -q $(( $(ulimit -q) + 1 )) 2>&1; echo rc=$?; ulimit -l unlimited 2>&1; echo rc=$?' | tr '\n' ' ')" \
        'not permitted rc=[1-9] .*not permitted rc=[1-9]'
is "charged-ulimit: an explicit --ulimit msgqueue is the run's own" \
        "$("$SBX" run --ulimit msgqueue=4096 -- /bin/bash -c 'echo $(ulimit -q)')" 4096

# --- fanotify: the same as inotify for its groups and marks
# (user.max_fanotify_*). The default profile refuses fanotify_init; a profile
# that allows it (docker's seccompProfile in openclaw.json, --seccomp-profile)
# let one sandbox take all of its creator's groups.
gmax=$(cat /proc/sys/user/max_fanotify_groups 2>/dev/null || echo 0)
mmax=$(cat /proc/sys/user/max_fanotify_marks 2>/dev/null || echo 0)
if [ "$gmax" -gt 0 ] && [ "$gmax" -le 4096 ] && [ "$("$SBX_PROBE" charged fanotify 0)" != "0 EPERM" ]; then
        python3 - "$SBX_SOURCE_ROOT/seccomp-profiles/default.json" > "$TMP/fanotify.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["syscalls"]:
    g["names"] = [n for n in g["names"] if not n.startswith("fanotify_")]
d["syscalls"].append({"names": ["fanotify_init", "fanotify_mark"], "action": "SCMP_ACT_ALLOW"})
json.dump(d, sys.stdout)
P
        is "fanotify-refused: the default profile refuses fanotify_init" "$(tsbx -- /sbx-probe charged fanotify 0)" "0 EPERM"
        hold=$TMP/charged-fanotify
        tsbx --seccomp-profile "$TMP/fanotify.json" -- /sbx-probe charged fanotify 3 > "$hold" 2>&1 &
        fp=$!
        for _ in $(seq 200); do [ -s "$hold" ] && break; sleep 0.1; done
        host=$("$SBX_PROBE" charged fanotify 0)
        wait $fp
        read -r n e < "$hold"
        like "fanotify-groups: allowed by a profile, groups work and stop with EMFILE at an eighth of $gmax ($n)" \
                "$n $e $(( n >= 1 && n <= gmax / 8 ))" '^[0-9]+ EMFILE 1$'
        like "fanotify-host: while the sandbox holds them, its creator's other processes still get groups" \
                "$host" '^[1-9][0-9]* '
        is "fanotify-marks: the sandbox's user.max_fanotify_marks is an eighth of $mmax" \
                "$(tsbx -- /bin/cat /proc/sys/user/max_fanotify_marks)" "$(( mmax / 8 ))"
else
        skip "fanotify-*: no unprivileged fanotify here, or user.max_fanotify_groups=$gmax too large to exhaust"
fi

# --- ptys: every devpts instance but the host's first draws from one pool
# (kernel.pty.max - kernel.pty.reserve). One sandbox opening /dev/ptmx until
# ENOSPC left none to other sandboxes (--tty, docker exec -t) or the host's
# containers: its devpts has max= an eighth of the pool.
pool=$(( $(cat /proc/sys/kernel/pty/max) - $(cat /proc/sys/kernel/pty/reserve) ))
if [ "$pool" -gt 0 ] && [ "$pool" -le 8000 ] && [ "$(ulimit -n)" -gt "$pool" ]; then
        hold=$TMP/charged-pty
        tsbx -- /sbx-probe charged pty 3 > "$hold" 2>&1 &
        pp=$!
        for _ in $(seq 200); do [ -s "$hold" ] && break; sleep 0.1; done
        other=$(tsbx -- /sbx-probe charged pty 0)
        tty=$(script -qec "$SBX run --tty -- /bin/echo tty-ok" /dev/null 2>&1 </dev/null)
        wait $pp
        read -r n e < "$hold"
        like "pty-pool: inside, ptys open and stop with ENOSPC at an eighth of the pool of $pool ($n)" \
                "$n $e $(( n >= 1 && n <= pool / 8 ))" '^[0-9]+ ENOSPC 1$'
        like "pty-other-sandbox: while one sandbox holds its share, another still opens ptys" "$other" '^[1-9][0-9]* '
        like "pty-tty-run: ... and sbx run --tty still gets its terminal" "$tty" 'tty-ok'
else
        skip "pty-*: a pool of $pool ptys (nofile $(ulimit -n)) is not one a test can exhaust"
fi

# --- native AIO: io_setup's events come from one pool for the whole host
# (fs.aio-max-nr). One sandbox took it all, and every host process's
# io_setup (databases, qemu) failed with EAGAIN: the always-on layer refuses
# io_setup with ENOSYS (libaio users fall back as on a kernel without it).
if [ "$("$SBX_PROBE" charged aio-one 0)" = "1 OK" ]; then
        is "aio-pool: io_setup inside: ENOSYS" "$(tsbx -- /sbx-probe charged aio 0)" "0 ENOSYS"
        hold=$TMP/charged-aio
        tsbx -- /sbx-probe charged aio 3 > "$hold" 2>&1 &
        ap=$!
        for _ in $(seq 200); do [ -s "$hold" ] && break; sleep 0.1; done
        is "aio-pool-host: meanwhile a host process still gets an AIO context" "$("$SBX_PROBE" charged aio-one 0)" "1 OK"
        wait $ap
else
        skip "aio-pool: no native AIO context outside either"
fi

# --- memory
out=$("$SBX" run --memory 64m -- /bin/true 2>&1); rc=$?
if [ "$rc" = 0 ]; then
        # the OOM killer may take the shell too (its choice): then sbx exits 137 and says why
        out=$(tsbx --memory 32m --memory-swap 32m -- /bin/sh -c 'head -c 200000000 /dev/zero | tail > /dev/null; echo $?' \
                2>"$TMP/mb.err"); rc=$?
        [ -z "$out" ] && [ "$rc" = 137 ] && grep -q 'killed: memory limit' "$TMP/mb.err" && out=137
        like "memory-bomb: over --memory 32m the workload is OOM-killed" "$out" '^(137|1)$'
else
        is "memory-bomb: without a memory controller --memory is refused (125)" "$rc" 125
        like "memory-bomb: ... naming the option and the reason" "$out" 'memory.*(hybrid|controller).*best-effort'
        out=$("$SBX" run --limits best-effort --memory 64m -- /bin/true 2>&1); rc=$?
        is "memory-bomb: --limits best-effort runs without it" "$rc" 0
        like "memory-bomb: ... and warns" "$out" 'warning.*memory'
fi
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

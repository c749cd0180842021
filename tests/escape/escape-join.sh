#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite: attacks from inside a running sandbox on the processes that
# join it later (sbx exec into a persistent sandbox, the path docker exec
# takes; sbx-runc exec into an OCI container). Between its capability drop
# and its exec, the joining child is sbx code in the sandbox's pid namespace,
# holding host fds (state dir, locks, cgroup) with /proc/<pid>/exe = the
# host's sbx binary: a process of the sandbox with the same ids (rootless,
# or an OCI container's root without a user namespace) must not be able to
# open it (CVE-2019-5736, runc's "leaky /proc/self/exe").
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
# grab NAME: the probe steps through every process that joins the sandbox
# (SIGSTOP, look at /proc/<pid>/exe and fd, SIGCONT) while 60 sbx exec run.
# Before the fix it got the host's sbx binary within ~2-20 joins.
grab() {
        local out=$TMP/grab.out i=0
        : > "$out"
        sx exec "$1" -- /sbx-probe grab-exe 8 "$(readlink -f "$SBX")" > "$out" 2>&1 &
        local gp=$!
        while ! grep -q ready "$out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        for i in $(seq 60); do
                grep -q GOT "$out" && break
                sx exec "$1" -- /bin/true
        done
        # SIGTERM to every process of the sandbox but init: the probe says "nothing"
        sx exec "$1" -- /sbx-probe kill -1 15 >/dev/null
        wait "$gp" 2>/dev/null
        grep -v ready "$out"
}

if sx create --ro-bind "$SBX_PROBE:/sbx-probe" --workspace-access none -e "SBX_TEST_TOKEN=tok-$$" jn >/dev/null; then
        # --- the record on the host holds the sandbox's environment
        rec=$STATE/sandboxes/jn/sandbox.json
        control "the record holds the environment the sandbox was given" "$(grep -c "tok-$$" "$rec")" 1
        is "record-secrets: sandbox.json is mode 600 (its dir is traversable by every uid)" "$(stat -c %a "$rec")" 600
        if is_root; then
                is "record-secrets: another uid cannot read it" \
                        "$(setpriv --reuid 65534 --regid 65534 --clear-groups cat "$rec" 2>/dev/null | grep -c "tok-$$")" 0
        else
                skip "record-secrets: reading as another uid needs root"
        fi
        is "join-exec-proc-exe: a joining sbx exec's /proc/<pid>/exe and fds cannot be opened from inside" \
                "$(grab jn)" nothing
        sx exec jn -- /sbx-probe grab-exe 6 sleep > "$TMP/ctl.out" 2>&1 &
        gp=$!
        sleep 0.5
        sx exec jn -- /bin/sleep 2
        wait $gp
        like "control: after its exec, the joined command is the sandbox's own (its exe opens)" \
                "$(cat "$TMP/ctl.out")" '^GOT /usr/bin/sleep'
        # --- argv the sandbox chooses, read by the host: never sbx's options
        is "exec-option-injection: options after the command are its arguments (-u, -w, --env)" \
                "$(sx exec jn /bin/sh -c 'echo "[$*] uid=$(id -u) cwd=$PWD A=${A:-}"' x -u 1000 -w /tmp --env A=1)" \
                "[-u 1000 -w /tmp --env A=1] uid=0 cwd=/workspace A="
        # --- sbx-init (pid 1) from inside: stopping the sandbox (all its
        # sessions' commands with it) by a signal init takes for one from
        # outside, or by rewriting init through /proc/1/mem
        running() { sx exec jn -- /bin/true && echo running; }
        is "init-forged-sigqueue: SIGTERM with a forged si_pid 0 (SI_QUEUE) is sent..." \
                "$(sx exec jn -- /sbx-probe sigqueue 1 15)" OK
        is "init-forged-sigqueue: ... and init ignores it (the sandbox runs)" "$(running)" running
        is "init-sigio: the kernel sends SIGTERM to init for us (F_SETOWN 1, F_SETSIG)..." \
                "$(sx exec jn -- /sbx-probe sigio 1 15)" OK
        is "init-sigio: ... and init ignores it (the sandbox runs)" "$(running)" running
        is "init-proc-mem: /proc/1/mem of sbx-init cannot be opened for writing" \
                "$(sx exec jn -- /sbx-probe write-open /proc/1/mem)" EACCES
        control "a process's own /proc/self/mem opens for writing" "$(sx exec jn -- /sbx-probe write-open /proc/self/mem)" OK
        # --- init's resource limits and scheduling from inside: a sandbox
        # process has init's ids, so the kernel let it set init's rlimits,
        # nice value, I/O priority and policy, which init's exec service hands
        # to every later exec of every session (none can undo them without a
        # capability); RLIMIT_CPU's hard limit made the kernel SIGKILL init
        hn=$(sx exec jn -- /bin/sh -c 'ulimit -Hn')
        other=$(sx exec jn -- /usr/bin/python3 -c '
import errno, os, resource as r
def t(f):
    try: f(); return "OK"
    except OSError as e: return errno.errorcode[e.errno]
print(t(lambda: r.prlimit(1, r.RLIMIT_NOFILE, (3, 3))), t(lambda: r.prlimit(1, r.RLIMIT_CPU, (1, 1))),
      t(lambda: os.setpriority(os.PRIO_PROCESS, 1, 19)), t(lambda: os.setpriority(os.PRIO_USER, 0, 19)),
      t(lambda: os.setpriority(os.PRIO_PGRP, 1, 19)),
      t(lambda: os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0))),
      t(lambda: os.sched_setparam(1, os.sched_param(0))))' 2>&1)
        is "init-rlimits: another process's (init's) RLIMIT_NOFILE and RLIMIT_CPU, nice (PRIO_PROCESS/USER/PGRP) and policy cannot be set" \
                "$other" "EPERM EPERM EPERM EPERM EPERM EPERM EPERM"
        is "init-ioprio: nor its I/O priority (ionice -c 3 -p 1)" \
                "$(sx exec jn -- /usr/bin/ionice -c 3 -p 1 2>&1 | grep -c 'Operation not permitted')" 1
        is "init-rlimits: a later exec gets the sandbox's limits, nice 0, SCHED_OTHER and no idle I/O class" \
                "$(sx exec jn -- /bin/sh -c 'ulimit -Hn; nice; chrt -p $$ | grep -o "SCHED_[A-Z]*"; ionice -p $$' 2>&1 | tr '\n' ' ')" \
                "$hn 0 SCHED_OTHER none: prio 0 "
        control "a process sets its own limits, nice value, policy and I/O class (setrlimit, nice, chrt, ionice CMD)" \
                "$(sx exec jn -- /bin/sh -c 'ulimit -n 64; ulimit -n; nice -n 5 nice; chrt -i 0 chrt -p 0 | grep -o "SCHED_[A-Z]*"; ionice -c 3 ionice' 2>&1 | tr '\n' ' ')" \
                "64 5 SCHED_IDLE idle "
        # ... what stays settable on init (affinity: an exec widens its own
        # again; /proc/1/oom_score_adj, the sandbox root's file) is put back
        # in each exec's child: pinned to one CPU and the OOM killer's first
        # choice, every later exec was too
        aff=$(sx exec jn -- /bin/grep Cpus_allowed_list /proc/self/status)
        oom=$(sx exec jn -- /bin/cat /proc/self/oom_score_adj)
        control "the sandbox's root sets init's OOM score adjustment and affinity (the kernel allows both)" \
                "$(sx exec jn -- /bin/sh -c 'echo 1000 > /proc/1/oom_score_adj && cat /proc/1/oom_score_adj; taskset -p 1 1 >/dev/null && grep Cpus_allowed_list /proc/1/status' 2>&1 | tr '\n' ' ')" \
                "1000 $(printf 'Cpus_allowed_list:\t0') "
        is "init-oom-affinity: a later exec gets the OOM score adjustment and CPUs of create, and so does init again" \
                "$(sx exec jn -- /bin/sh -c 'cat /proc/self/oom_score_adj; grep Cpus_allowed_list /proc/self/status; cat /proc/1/oom_score_adj' 2>&1 | tr '\n' ' ')" \
                "$oom $aff $oom "
        sleep 30 & sp=$!
        control "outside a sandbox a process of the same uid sets another's limits and nice value (what the filter stops)" \
                "$(python3 -c 'import os, resource as r, sys; p=int(sys.argv[1]); r.prlimit(p, r.RLIMIT_NOFILE, (5, 5)); os.setpriority(os.PRIO_PROCESS, p, 19); print(r.prlimit(p, r.RLIMIT_NOFILE)[0], os.getpriority(os.PRIO_PROCESS, p))' $sp 2>&1)" "5 19"
        kill $sp 2>/dev/null; wait $sp 2>/dev/null
        ipid=$(sx inspect jn | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["initPid"])')
        case "$ipid" in [1-9]*[0-9]) kill -TERM "$ipid" ;; *) ipid=0 ;; esac   # never kill(0)
        for i in $(seq 30); do kill -0 "$ipid" 2>/dev/null || break; sleep 0.1; done
        control "SIGTERM from outside (kill(1) of init's host pid) stops the sandbox within 3 s" \
                "$([ "$ipid" = 0 ] && echo "no init pid" || { kill -0 "$ipid" 2>/dev/null && echo running || echo stopped; })" stopped
        sx rm -f jn >/dev/null
else
        not_ok "create a persistent sandbox"
fi

# --- sbx-runc exec: an OCI container's root (no user namespace, config.json
# from `sbx-runc spec`) racing the runtime's exec; root only (it needs root)
runc=${SBX_BUILD_ROOT:-}/sbx-runc
bb=$(for b in /bin/busybox /usr/bin/busybox; do [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && echo "$b" && break; done)
if ! is_root; then
        skip "oci-exec-proc-exe: an OCI container without a user namespace needs root"
elif [ ! -x "$runc" ] || [ -z "$bb" ]; then
        skip "oci-exec-proc-exe: no sbx-runc or no static busybox"
else
        b=$TMP/bundle
        mkdir -p "$b/rootfs/bin"
        cp "$bb" "$b/rootfs/bin/busybox"
        ln -s busybox "$b/rootfs/bin/true"
        ln -s busybox "$b/rootfs/bin/sleep"
        cp "$SBX_PROBE" "$b/rootfs/sbx-probe"
        (cd "$b" && "$runc" spec) && python3 - "$b/config.json" <<'P'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["terminal"] = False
c["process"]["args"] = ["/sbx-probe", "sleep", "60"]
json.dump(c, open(sys.argv[1], "w"))
P
        R=("$runc" --root "$TMP/oci")
        if timeout 30 "${R[@]}" run -d -b "$b" jn-oci </dev/null >/dev/null 2>&1; then
                out=$TMP/oci.out
                timeout 20 "${R[@]}" exec jn-oci /sbx-probe grab-exe 8 "$(readlink -f "$runc")" > "$out" 2>&1 &
                gp=$!
                sleep 0.3
                for i in $(seq 60); do
                        grep -q GOT "$out" && break
                        timeout 10 "${R[@]}" exec jn-oci /bin/true
                done
                # SIGTERM to every process of the container but init: the probe says "nothing"
                timeout 10 "${R[@]}" exec jn-oci /sbx-probe kill -1 15 >/dev/null
                wait $gp 2>/dev/null
                is "oci-exec-proc-exe: container root cannot open /proc/<pid>/exe (the host's sbx-runc) of an exec" \
                        "$(grep -v ready "$out")" nothing
                timeout 20 "${R[@]}" exec jn-oci /sbx-probe grab-exe 6 busybox > "$out" 2>&1 &
                gp=$!
                sleep 0.3
                timeout 10 "${R[@]}" exec jn-oci /bin/sleep 2
                wait $gp
                like "control: the exec'd command itself is the container's (its exe opens)" \
                        "$(cat "$out")" '^GOT /bin/busybox'
                "${R[@]}" delete -f jn-oci >/dev/null 2>&1
        else
                not_ok "oci: sbx-runc run -d of a busybox bundle"
        fi
fi

# --- the audit log of a run whose argv holds a newline and a forged record
out=$(tsbx --audit-log "$TMP/audit.jsonl" -- /bin/true $'x\n{"event":"exit","exitCode":0,"forged":1}\r' 2>&1)
is "audit-log-injection: every line of the audit log is one JSON record, none forged" \
        "$(python3 -c 'import json,sys
recs = [json.loads(l) for l in open(sys.argv[1])]
print(len(recs) > 1 and all("forged" not in r for r in recs) and any("forged" in "".join(r.get("argv") or []) for r in recs))' "$TMP/audit.jsonl")" True
is "run-option-injection: --bind after the command is its argument" \
        "$(tsbx /bin/echo --bind /:/host -u 1000)" "--bind /:/host -u 1000"

# --- exec's workdir through a host directory fd open in the caller (the join:
# a sandbox with an exec allowlist is not run by its exec service): chdir came
# while that fd was still open, the command's cwd was the host dir
if sx create --exec-allow '*' wd >/dev/null 2>&1; then
        out=$(sx exec -w /proc/self/fd/3 wd -- /bin/sh -c 'cat secret' 2>&1 3<"$SECRET_DIR"); rc=$?
        like "exec-workdir-leaked-fd: -w /proc/self/fd/3 (a host dir of the caller's) is refused (125), named" \
                "$rc|$out" "^125\|.*--workdir: chdir '/proc/self/fd/3': outside the root"
        unlike "exec-workdir-leaked-fd: ... its files are never read" "$out" "host-secret"
        is "control: exec -w /tmp runs there" "$(sx exec -w /tmp wd -- /bin/pwd 2>&1)" /tmp
        sx rm -f wd >/dev/null
else
        not_ok "exec-workdir-leaked-fd: create a sandbox"
fi

is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

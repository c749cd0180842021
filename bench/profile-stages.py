#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-stage wall-time profile of cold `sbx run -- /bin/true` (and of
`unshare -Urmpnif --mount-proc /bin/true` beside it) from a system-wide
`perf record` of syscall enter/exit and process fork/exec/exit tracepoints
(about 1 us of overhead per syscall, far less than strace). Used by
bench/profile-stages.sh, which records and calls this; it reads the text of
`perf script -F comm,pid,tid,time,event,trace` and prints the median of every
stage per sbx binary (by path) and for unshare.

    profile-stages.py PERF_SCRIPT_TEXT SBX_PATH..."""
import re, sys, statistics as st
NR = {435:'clone3',165:'mount',155:'pivot_root',166:'umount2',317:'seccomp',322:'execveat',59:'execve',231:'exit_group',272:'unshare',247:'waitid',61:'wait4',56:'clone',308:'setns'}
rx = re.compile(r'^\s*(\S+)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\S+):\s+(.*)$')
ev = []
for line in open(sys.argv[1]):
    m = rx.match(line)
    if m: ev.append((m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4)) * 1e6, m.group(5), m.group(6)))
# per pid: list of (t, kind, nr/extra)
by = {}
parent_of = {}
fork_time = {}
execs = {}
for comm, pid, tid, t, e, tr in ev:
    if e == 'sched:sched_process_fork':
        m = re.search(r'pid=(\d+) .*child_pid=(\d+)', tr)
        if m: parent_of[int(m.group(2))] = int(m.group(1)); fork_time[int(m.group(2))] = t
        continue
    if e == 'sched:sched_process_exec':
        m = re.search(r'filename=(\S+)', tr); execs.setdefault(pid, []).append((t, m.group(1) if m else '?')); continue
    if e == 'sched:sched_process_exit':
        by.setdefault(tid, []).append((t, 'pexit', None)); continue
    m = re.search(r'NR (\d+)', tr)
    if not m: continue
    nr = int(m.group(1))
    if nr in NR:
        by.setdefault(tid, []).append((t, 'enter' if e.endswith('enter') else 'exit', NR[nr]))
def first(pid, kind, name, after=0):
    for t, k, n in by.get(pid, []):
        if t >= after and k == kind and n == name: return t
def last(pid, kind, name):
    r = None
    for t, k, n in by.get(pid, []):
        if k == kind and n == name: r = t
    return r
stages = {}
def add(k, v):
    if v is not None and v >= 0: stages.setdefault(k, []).append(v)
ours = set(sys.argv[2:])       # the sbx binaries profiled (others on the machine are not counted)
shells = {parent_of.get(pid) for pid, ex in execs.items() if ex[0][1] in ours}
for pid, ex in execs.items():
    name = ex[0][1]
    kids = [c for c, p in parent_of.items() if p == pid]
    if parent_of.get(pid) not in shells:
        continue
    if name in ours:
        L = name + ': '
        t0 = ex[0][0]
        c_in = first(pid, 'enter', 'clone3'); c_out = first(pid, 'exit', 'clone3')
        kid = [k for k in kids if by.get(k)]
        # issue 16, a template holder: a spawner (forked) enters the
        # holder's namespaces and clone3s the sandbox (CLONE_PARENT)
        spawner = [k for k in kid if first(k, 'enter', 'clone3') is not None and c_in is None]
        if spawner:
            sp = spawner[0]
            add(L + 'sbx 1a parent: exec -> fork of the spawner', fork_time[sp] - t0)
            add(L + 'sbx 1b spawner: forked -> setns', first(sp, 'enter', 'setns') - fork_time[sp])
            add(L + 'sbx 1c spawner: setns -> clone3', first(sp, 'enter', 'clone3') - first(sp, 'enter', 'setns'))
            c_in = first(sp, 'enter', 'clone3'); c_out = first(sp, 'exit', 'clone3')
            kid = [c for c, p in parent_of.items() if p == sp and by.get(c)]
        if c_in is None and not spawner:
            # issue 16, session 8: the child shares sbx's memory (clone with
            # CLONE_VM; rootless CLONE_VFORK, whose clone returns only at the
            # child's exec): "clone done" is the child's fork event
            ks = [c for c in kid if first(c, 'enter', 'execveat') is not None]
            if ks:
                kid = ks
                c_out = fork_time[ks[0]]
                c_in = max((t for t, kd, n in by.get(pid, []) if kd == 'enter' and n == 'clone' and t <= c_out),
                           default=None)
        if not kid or c_in is None: continue
        k = kid[0]
        m1 = first(k, 'enter', 'mount'); pv = first(k, 'enter', 'pivot_root'); um = first(k, 'exit', 'umount2')
        sc = first(k, 'enter', 'seccomp'); xe = first(k, 'enter', 'execveat'); xo = first(k, 'exit', 'execveat')
        ke = last(k, 'enter', 'exit_group'); kx = last(k, 'pexit', None)
        pw = last(pid, 'exit', 'waitid'); pe = last(pid, 'pexit', None)
        add(L + 'sbx 1 parent: exec -> clone3 (template: the spawner\'s; shared: clone)', c_in - t0)
        add(L + 'sbx 2 clone3 / clone (7 namespaces)', c_out - c_in)
        add(L + 'sbx 3 child start -> first mount (maps, lo, hostname)', m1 - c_out if m1 else None)
        add(L + 'sbx 4 mounts -> pivot_root', pv - m1 if pv and m1 else None)
        add(L + 'sbx 5 pivot_root + umount2 old root', um - pv if um and pv else None)
        add(L + 'sbx 6 caps, landlock, seccomp -> execveat', xe - um if xe and um else None)
        add(L + 'sbx 4-6 first mount -> execveat (mounts, pivot, caps, seccomp)', xe - m1 if xe and m1 else None)
        add(L + 'sbx 7 execveat + /bin/true runs', ke - xe if ke and xe else None)
        add(L + 'sbx 8 child exit (ns teardown) -> parent wakes', pw - ke if pw and ke else None)
        add(L + 'sbx 9 parent cleanup -> exit', pe - pw if pe and pw else None)
        add(L + 'sbx total exec -> exit', pe - t0 if pe else None)
    elif name.endswith('/unshare'):
        t0 = ex[0][0]
        u_in = first(pid, 'enter', 'unshare'); u_out = first(pid, 'exit', 'unshare')
        pe = last(pid, 'pexit', None)
        kid = [k for k in kids if by.get(k)]
        add('unshare 1 exec -> unshare()', u_in - t0 if u_in else None)
        add('unshare 2 unshare(7 ns)', u_out - u_in if u_in else None)
        if kid:
            k = kid[0]; ke = last(k, 'enter', 'exit_group'); m1 = first(k, 'enter', 'mount'); xe = first(k,'enter','execve')
            add('unshare 3 fork -> mount proc -> execve', xe - u_out if xe and u_out else None)
            add('unshare 4 execve + /bin/true', ke - xe if ke and xe else None)
            pw = last(pid, 'exit', 'wait4')
            add('unshare 5 child exit -> parent wakes', pw - ke if pw and ke else None)
        add('unshare total exec -> exit', pe - t0 if pe else None)
for k in sorted(stages):
    v = stages[k]
    print('%-55s n=%3d median %7.0f us' % (k, len(v), st.median(v)))

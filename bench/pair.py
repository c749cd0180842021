#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pair.py N CMD_A ::: CMD_B [::: CMD_C ...]: each round runs every command once (the order
reversed every other round), stdout and stderr on /dev/null; prints the load, each command's
median wall time and the median of its per-round ratios to CMD_A (paired, so a busy moment
costs every command of that round alike), and the same for its CPU time (user + system of the
command and of every process it waited for, from wait4). Leading NAME=VALUE words set that
command's environment (no env(1) in the timing). E.g.
  python3 bench/pair.py 500 OLD/sbx --version ::: build/sbx --version"""
import os, statistics, sys, time

if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
    sys.exit(__doc__)
n = int(sys.argv[1])
cmds, cur = [], []
for a in sys.argv[2:]:
    if a == ":::":
        cmds.append(cur)
        cur = []
    else:
        cur.append(a)
cmds.append(cur)
# leading NAME=VALUE words: that command's environment (no env(1) exec in the timing)
labels = [" ".join(c) for c in cmds]
envs = []
for c in cmds:
    e = dict(os.environ)
    while c and "=" in c[0] and not c[0].startswith("/"):
        k, v = c.pop(0).split("=", 1)
        e[k] = v
    envs.append(e)
null = open(os.devnull, "w")
t = [[] for _ in cmds]
cpu = [[] for _ in cmds]
for r in range(n):
    order = list(range(len(cmds)))
    if r % 2:
        order.reverse()
    for i in order:
        s = time.perf_counter()
        pid = os.posix_spawnp(cmds[i][0], cmds[i], envs[i],
                              file_actions=[(os.POSIX_SPAWN_DUP2, null.fileno(), 1),
                                            (os.POSIX_SPAWN_DUP2, null.fileno(), 2)])
        _, _, ru = os.wait4(pid, 0)
        t[i].append(time.perf_counter() - s)
        # CPU of the command and every process it waited for (user + system)
        cpu[i].append(ru.ru_utime + ru.ru_stime)
print("load", " ".join(open("/proc/loadavg").read().split()[:3]), " rounds", n)
for i, c in enumerate(cmds):
    ratio = statistics.median(a / b for a, b in zip(t[i], t[0]))
    cratio = statistics.median(a / b for a, b in zip(cpu[i], cpu[0]) if b > 0)
    print("%-60s %8.0f us  paired %.3f   CPU %6.0f us  paired %.3f" % (labels[i][:60], statistics.median(t[i]) * 1e6,
          ratio, statistics.median(cpu[i]) * 1e6, cratio))

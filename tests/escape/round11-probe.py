#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Probe of escape-round11.sh (SysV IPC, scheduling, TCP memory): prints "OK N" or "ERRNO N" (N: how
# many objects were made before the first failure).
#   msg N            make up to N message queues
#   shm SIZE COUNT   make up to COUNT segments of SIZE bytes (not attached)
#   sem NSEMS COUNT  make up to COUNT semaphore sets of NSEMS each
#   shm-make KEY     make a 40 MiB segment with KEY, never attached, and exit
#   shm-find KEY     look the segment KEY up
#   fifo | nice      sched_setscheduler(SCHED_FIFO 1) | setpriority(-5)
#   sysctl NAME V    write V to /proc/sys/kernel/NAME: OK or the errno
#   tcp N            N loopback TCP connections, each sender filled until
#                    EAGAIN, the receiver never reading: prints how many KiB
#                    the host-wide TCP memory counter (sockstat) grew
import ctypes, errno, os, socket, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def err():
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def fill(make, count):
    for n in range(count):
        if make() < 0:
            return "%s %d" % (err(), n)
    return "OK %d" % count


cmd, args = sys.argv[1], sys.argv[2:]
if cmd == "msg":
    print(fill(lambda: libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600), int(args[0])))
elif cmd == "shm":
    print(fill(lambda: libc.shmget(IPC_PRIVATE, int(args[0]), IPC_CREAT | 0o600), int(args[1])))
elif cmd == "sem":
    print(fill(lambda: libc.semget(IPC_PRIVATE, int(args[0]), IPC_CREAT | 0o600), int(args[1])))
elif cmd == "shm-make":
    print(fill(lambda: libc.shmget(int(args[0], 0), 40 << 20, IPC_CREAT | 0o600), 1))
elif cmd == "shm-find":
    print(fill(lambda: libc.shmget(int(args[0], 0), 0, 0), 1))
elif cmd in ("fifo", "nice"):
    try:
        if cmd == "fifo":
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        else:
            os.setpriority(os.PRIO_PROCESS, 0, -5)
        print("OK")
    except OSError as e:
        print(errno.errorcode[e.errno])
elif cmd == "sysctl":
    try:
        with open("/proc/sys/kernel/" + args[0], "w") as f:
            f.write(args[1])
        print("OK")
    except OSError as e:
        print(errno.errorcode[e.errno])
elif cmd == "tcp":
    def mem():
        for line in open("/proc/net/sockstat"):
            if line.startswith("TCP:"):
                f = line.split()
                return int(f[f.index("mem") + 1])
    m0, keep = mem(), []
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(64)
    for _ in range(int(args[0])):
        c = socket.socket()
        c.connect(ls.getsockname())
        keep += [c, ls.accept()[0]]
        c.setblocking(False)
        try:
            while c.send(b"x" * 65536):
                pass
        except BlockingIOError:
            pass
    print((mem() - m0) * os.sysconf("SC_PAGE_SIZE") >> 10)
else:
    sys.exit("usage: sysv-fill.py msg|shm|sem|shm-make|shm-find|fifo|nice|sysctl|tcp ARGS")

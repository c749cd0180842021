#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Hand-made requests to a sandbox's exec service (runtime/sandbox/exec-service.h),
# for escape-execsvc.sh: a well-formed one (which init must run only for a
# peer outside its pid namespace) and malformed ones (which it must drop,
# staying alive). Prints one word: "ran N" (the command ran, exit status N),
# "refused" (the connection ended without the command starting), or
# "connect-ERRNO".
#
#   execsvc-forge.py SOCKET INIT_PID KIND [ARGV...]
# KIND: valid | bad-magic | bad-version | few-fds | many-fds | no-nul |
#       count-mismatch | huge-len | short-data | header-only | garbage |
#       zero-argv; SBX_SVC_SEARCH requests (the `sbx` front end's: no exec
#       fd, the PATH to search as the last string): search (ARGV[0] may be a
#       bare name) | search-exec-fd (an exec fd too) | search-no-path
import errno
import os
import socket
import struct
import sys

MAGIC, VERSION = 0x53627845, 1


def main():
    path, init_pid, kind, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:] or ["/bin/true"]
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(path)
    except OSError as e:
        print("connect-" + errno.errorcode.get(e.errno, str(e.errno)))
        return
    s.settimeout(10)
    # the file to run, in the sandbox's tree (ARGV[0]: a path without absolute symlinks)
    search = kind.startswith("search")
    exe = os.open("/proc/%d/root%s" % (init_pid, argv[0] if not search else "/"), os.O_PATH)
    env = ["PATH=/usr/bin:/bin"]
    data = b"".join(x.encode() + b"\0" for x in ["/"] + argv + env)
    host, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    host.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    fds = [0, 1, 2, exe, child.fileno()]
    n_argv, version, magic, flags = len(argv), VERSION, MAGIC, 1 << 1
    if search:
        flags |= 1 << 4
        if kind != "search-no-path":
            data += b"/usr/bin:/bin\0"
        if kind != "search-exec-fd":
            fds = [0, 1, 2, child.fileno()]
    if kind == "bad-magic":
        magic = 0x41414141
    elif kind == "bad-version":
        version = 99
    elif kind == "few-fds":
        fds = fds[:3]
    elif kind == "many-fds":
        fds = fds + fds
    elif kind == "no-nul":
        data = data[:-1] + b"X"
    elif kind == "count-mismatch":
        n_argv += 5
    elif kind == "zero-argv":
        n_argv = 0
    length = len(data)
    if kind == "huge-len":
        length = 0xFFFFFFF0
    elif kind == "short-data":
        length = len(data) + 100
    try:
        if kind == "garbage":
            socket.send_fds(s, [os.urandom(200)], fds)
        else:
            socket.send_fds(s, [struct.pack("6I", magic, version, flags, n_argv, len(env), length)], fds)
            if kind != "header-only":
                for i in range(0, len(data), 65536):
                    s.send(data[i:i + 65536])
    except OSError:
        pass            # init hung up at once: what follows reads EOF
    child.close()
    os.close(exe)
    host.settimeout(10)
    try:
        rec = host.recv(16)
    except (socket.timeout, OSError):
        rec = b""
    if len(rec) != 16 or struct.unpack("4I", rec)[1] != 2:
        print("refused")
        return
    host.send(b"G")
    try:
        ex = s.recv(8)
    except (socket.timeout, OSError):
        ex = b""
    if len(ex) != 8:
        print("refused")
        return
    st = struct.unpack("Ii", ex)[1]
    print("ran %d" % ((st >> 8) & 0xFF if st & 0x7F == 0 else 128 + (st & 0x7F)))


main()

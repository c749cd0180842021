#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A hostile "sbx-init" for the `sbx` front end (runtime/sandbox/exec-front.c),
# for escape-exec-front.sh: it makes STATE/sandboxes/NAME look like a running
# sandbox (busy, lock, exec.fast, a listening exec.sock), takes the front
# end's request and answers it with KIND. Prints "ready" once listening, then
# one word on what it saw: "served" (it answered), "closed"/"kept" (fd-in-ready:
# whether the front end closed the fd it attached), "no-connection".
#
#   exec-front-fakeinit.py STATE NAME KIND
# KIND: eof | bad-ready | bad-status | short-status | stopped | fd-in-ready |
#       corrupt-fast (an exec.fast whose length lies: it must not be used) |
#       loose-fast (exec.fast readable by others: not sbx's, not used)
import os
import select
import socket
import struct
import sys

MAGIC, FAST_MAGIC, READY = 0x53627845, 0x74736146, 2


def main():
    state, name, kind = sys.argv[1:4]
    d = os.path.join(state, "sandboxes", name)
    os.makedirs(d, mode=0o711, exist_ok=True)
    for f in ("busy", "lock"):
        open(os.path.join(d, f), "w").close()
    strings = b"/\0/usr/bin:/bin\0PATH=/usr/bin:/bin\0"
    length = len(strings) + (7 if kind == "corrupt-fast" else 0)
    with open(os.path.join(d, "exec.fast"), "wb") as f:
        f.write(struct.pack("4I", FAST_MAGIC, 1, 1, length) + strings)
    os.chmod(os.path.join(d, "exec.fast"), 0o644 if kind == "loose-fast" else 0o600)
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    old = os.umask(0o077)
    ls.bind(os.path.join(d, "exec.sock"))
    os.umask(old)
    ls.listen(4)
    print("ready", flush=True)
    if not select.select([ls], [], [], 5)[0]:
        print("no-connection")
        return
    c, _ = ls.accept()
    msg, fds, _, _ = socket.recv_fds(c, 24, 8)
    if len(fds) != 4:
        print("bad-request")
        return
    c.recv(1 << 16)             # the request's strings (one record here)
    sync = socket.socket(fileno=fds[3])
    for fd in fds[:3]:
        os.close(fd)
    ready = struct.pack("4I", MAGIC, READY, 0, 0)
    if kind == "eof":
        sync.close()
        c.close()
        print("served", flush=True)
        return
    if kind == "bad-ready":
        sync.send(struct.pack("4I", 0x41414141, READY, 0, 0))
    elif kind == "bad-status":
        sync.send(ready)
        c.send(struct.pack("Ii", MAGIC, 0x137F))       # "stopped by signal 19": not an end
    elif kind == "short-status":
        sync.send(ready)
        c.send(b"abc")
    elif kind == "stopped":
        sync.send(ready)
        c.close()
        print("served", flush=True)
        return
    elif kind == "fd-in-ready":
        r, w = os.pipe()
        socket.send_fds(sync, [ready], [w])
        os.close(w)
        # EOF on r once every copy of w is closed: the front end's too
        seen = select.select([r], [], [], 5)[0] and os.read(r, 1) == b""
        print("closed" if seen else "kept", flush=True)
        c.send(struct.pack("Ii", MAGIC, 7 << 8))
        return
    print("served", flush=True)
    select.select([c], [], [], 5)       # until the front end hangs up


main()

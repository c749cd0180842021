/* SPDX-License-Identifier: MIT */
/* The exec service's own cost, without sbx's front end (issue 16, bench only):
 * a static client that sends init one request for FILE (opened through
 * /proc/<init>/root, as sbx does after its decision) with our stdio, and
 * exits with the command's status. No record, locks, policy or resolution:
 * what an exec costs when the front end is as cheap as a process can be.
 *
 *   exec-floor SOCKET INIT_PID FILE [ARGV0...]
 * Built by bench-exec-floor.sh (cc -static). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../runtime/sandbox/exec-service.h"

#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76
#endif

int main(int argc, char **argv) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        char data[4096], path[256], ctl[CMSG_SPACE(sizeof(int) * SBX_SVC_N_FDS)] = { 0 };
        struct sbx_svc_request h = { .magic = SBX_SVC_MAGIC, .version = SBX_SVC_VERSION, .n_env = 1 };
        struct sbx_svc_child m;
        struct sbx_svc_exit e;
        int sp[2], one = 1, conn, exe;
        size_t len = 0;

        if (argc < 4)
                return 2;
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
        snprintf(path, sizeof(path), "/proc/%s/root%s", argv[2], argv[3]);
        exe = open(path, O_PATH | O_CLOEXEC);
        conn = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (exe < 0 || conn < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0 ||
            setsockopt(sp[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0)
                return 125;
        if (setsockopt(sp[0], SOL_SOCKET, SO_PASSPIDFD, &one, sizeof(one)) == 0)
                h.flags |= SBX_SVC_NO_GO;
        /* workdir, argv, one env string */
        len += (size_t) snprintf(data, sizeof(data), "/") + 1;
        for (int i = argc > 4 ? 4 : 3; i < argc; i++, h.n_argv++)
                len += (size_t) snprintf(data + len, sizeof(data) - len, "%s", argv[i]) + 1;
        len += (size_t) snprintf(data + len, sizeof(data) - len, "PATH=/usr/bin:/bin") + 1;
        h.len = (uint32_t) len;
        h.flags |= SBX_SVC_STDIN_NULL;
        int fds[SBX_SVC_N_FDS] = { 0, 1, 2, exe, sp[1] };
        struct iovec iov = { &h, sizeof(h) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(fds));
        memcpy(CMSG_DATA(c), fds, sizeof(fds));
        if (connect(conn, (struct sockaddr *) &sa, sizeof(sa)) < 0 || sendmsg(conn, &mh, 0) != sizeof(h) ||
            send(conn, data, len, 0) != (ssize_t) len)
                return 125;
        close(sp[1]);
        if (recv(sp[0], &m, sizeof(m), 0) != sizeof(m) || m.type != SBX_SVC_READY)
                return 125;
        if (!(h.flags & SBX_SVC_NO_GO) && send(sp[0], (char[]) { SBX_SVC_GO }, 1, 0) != 1)
                return 125;
        if (recv(conn, &e, sizeof(e), 0) != sizeof(e))
                return 125;
        return (e.wstatus & 0x7f) ? 128 + (e.wstatus & 0x7f) : (e.wstatus >> 8) & 0xff;
}

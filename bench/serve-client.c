/* SPDX-License-Identifier: MIT */
/* serve-client: the client half of bench/serve-ceiling.c (issue 16 target 1,
 * session 16: what a warm sbx server or pre-made sandboxes would give). Not
 * part of sbx. A no-libc static binary, as the `sbx` front end is
 * (runtime/sandbox/nolibc.h), so its start costs what the front end's does:
 *
 *   serve-client SOCKET CMD [ARG...]
 *
 * connects to SOCKET (a path), sends CMD's argv (NUL-separated) with its
 * stdin, stdout and stderr (SCM_RIGHTS), reads the 4-byte wait status the
 * server answers and exits with it (128 + the signal of a killed command);
 * 111 on any failure of its own. */
#include "sandbox/nolibc.h"

#define AF_UNIX_K 1
#define SOCK_STREAM_K 1
#define SOCK_CLOEXEC_K 02000000

struct sockaddr_un_k {
        unsigned short family;
        char path[108];
};

_Noreturn void nolibc_main(long *sp) {
        long argc = sp[0];
        char **argv = (char **) (sp + 1);
        static char buf[8192];
        unsigned long n = 0;
        struct sockaddr_un_k sa = { .family = AF_UNIX_K };
        union {
                struct cmsg h;
                char b[sizeof(struct cmsg) + 3 * sizeof(int) + 4];
        } c;
        struct iov iov;
        struct mhdr m = { 0 };
        int fd, status = 0, *fds = (int *) (c.b + sizeof(struct cmsg));
        long r;

        if (argc < 3)
                quit(111);
        for (unsigned long i = 0; argv[1][i]; i++) {
                if (i + 1 >= sizeof(sa.path))
                        quit(111);
                sa.path[i] = argv[1][i];
        }
        for (long a = 2; a < argc; a++)
                for (unsigned long i = 0;; i++) {
                        if (n >= sizeof(buf))
                                quit(111);
                        buf[n++] = argv[a][i];
                        if (!argv[a][i])
                                break;
                }
        fd = (int) sys(SYS_socket, AF_UNIX_K, SOCK_STREAM_K | SOCK_CLOEXEC_K, 0, 0);
        if (fd < 0 || sys(SYS_connect, fd, &sa, sizeof(sa), 0) < 0)
                quit(111);
        c.h.len = sizeof(struct cmsg) + 3 * sizeof(int);
        c.h.level = SOL_SOCKET;
        c.h.type = SCM_RIGHTS;
        fds[0] = 0;
        fds[1] = 1;
        fds[2] = 2;
        iov.base = buf;
        iov.len = n;
        m.iov = &iov;
        m.iovlen = 1;
        m.control = c.b;
        m.controllen = (sizeof(struct cmsg) + 3 * sizeof(int) + 7) & ~7ul;
        if (sys(SYS_sendmsg, fd, &m, MSG_NOSIGNAL, 0) != (long) n)
                quit(111);
        do
                r = sys(SYS_read, fd, &status, sizeof(status), 0);
        while (r == -EINTR);
        if (r != sizeof(status))
                quit(111);
        if ((status & 0x7f) == 0)
                quit((status >> 8) & 0xff);
        quit(128 + (status & 0x7f));
}

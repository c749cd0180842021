/* SPDX-License-Identifier: MIT */
/* The caller's stdout and stderr, when they are files (a regular file, a
 * directory, a block device: anything with content beyond the stream), are
 * never handed to a sandbox. The sandbox would hold the host file itself: it
 * could read all of it by reopening /proc/self/fd/1 (a log it only appends
 * to, with whatever was in it before), ftruncate it, or learn its host path.
 * Instead sbx puts a pipe at that fd, for itself and everything it starts,
 * and a relay process outside every sandbox copies the pipe into the file
 * (splice) until the last writer is gone: a command's background processes
 * still write into the file after sbx returned, as they did, through the
 * pipe. Pipes, sockets, ttys and /dev/null are passed as they are. At exit
 * sbx waits (at most 5 s) until the relay has taken everything out of the
 * pipes, so that a caller reading the file after sbx returned sees all of it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"

static int guarded[2] = { -1, -1 };     /* the fds (1, 2) that are our pipes now */

static bool is_file(int fd) {
        struct stat st;

        return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode));
}

/* Copy one chunk from the pipe to the file: false at EOF or a dead file. */
static bool relay_chunk(int from, int to) {
        ssize_t n = splice(from, NULL, to, NULL, 1 << 16, 0);

        if (n < 0 && errno == EINTR)
                return true;
        if (n < 0 && errno == EINVAL)   /* no splice to this file: copy */
                return sbx_relay(from, to);
        return n > 0;
}

static _Noreturn void relay_main(const int from[2], const int to[2]) {
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);

        /* our own copies of the pipes' write ends would keep them open */
        for (int fd = 0; fd < 3; fd++)
                if (null >= 0)
                        (void) dup2(null, fd);
        (void) signal(SIGINT, SIG_IGN);
        (void) signal(SIGQUIT, SIG_IGN);
        (void) signal(SIGHUP, SIG_IGN);
        (void) signal(SIGPIPE, SIG_IGN);
        for (;;) {
                struct pollfd p[2];
                int n = 0, idx[2];

                for (int i = 0; i < 2; i++)
                        if (from[i] >= 0) {
                                p[n] = (struct pollfd) { .fd = from[i], .events = POLLIN };
                                idx[n++] = i;
                        }
                if (n == 0)
                        _exit(0);
                if (poll(p, (nfds_t) n, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        _exit(1);
                }
                for (int k = 0; k < n; k++)
                        if (p[k].revents && !relay_chunk(p[k].fd, to[idx[k]])) {
                                close(p[k].fd);
                                ((int *) from)[idx[k]] = -1;
                        }
        }
}

static void drain(void) {
        fflush(stdout);
        fflush(stderr);
        for (int i = 0; i < 500; i++) {
                bool left = false;
                for (int k = 0; k < 2; k++) {
                        int n = 0;
                        if (guarded[k] >= 0 && ioctl(guarded[k], FIONREAD, &n) == 0 && n > 0)
                                left = true;
                }
                if (!left)
                        return;
                (void) usleep(10000);
        }
}

int sbx_stdio_guard(void) {
        int from[2] = { -1, -1 }, to[2] = { -1, -1 };
        bool any = false;
        pid_t pid;

        for (int i = 0; i < 2; i++) {
                int fd = i + 1, p[2];
                if (!is_file(fd))
                        continue;
                if (pipe2(p, O_CLOEXEC) < 0)
                        return -errno;
                /* never in a closed 0..2 (sbx puts /dev/null there later) */
                for (int k = 0; k < 2; k++)
                        if (p[k] < 3) {
                                int moved = fcntl(p[k], F_DUPFD_CLOEXEC, 3);
                                close(p[k]);
                                p[k] = moved;
                        }
                if (p[0] < 0 || p[1] < 0)
                        return -EMFILE;
                to[i] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
                fflush(i ? stderr : stdout);
                if (to[i] < 0 || dup2(p[1], fd) < 0) {   /* dup2: not CLOEXEC, inherited */
                        int r = -errno;
                        close(p[0]);
                        close(p[1]);
                        return r;
                }
                close(p[1]);
                from[i] = p[0];
                guarded[i] = fd;
                any = true;
        }
        if (!any)
                return 0;
        pid = fork();
        if (pid == 0)
                relay_main(from, to);
        for (int i = 0; i < 2; i++) {
                if (from[i] >= 0)
                        close(from[i]);
                if (to[i] >= 0)
                        close(to[i]);
        }
        if (pid < 0)
                return -errno;
        (void) atexit(drain);
        return 1;
}

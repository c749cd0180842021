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
 * pipes, so that a caller reading the file after sbx returned sees all of it.
 *
 * The same for a file as stdin (`sbx run CMD < file`, `sbx exec -i`, `docker
 * exec -i`): through /proc/self/fd/0 the sandbox reopened the file for
 * writing, and fchmod/fchown/futimens work on a read-only fd: a rootless
 * sandbox (the caller's uid) rewrote and chmod'ed the caller's file, which
 * lies outside every mount it was given. It gets a pipe, which another relay
 * process fills from the file (through the caller's own open file
 * description, as the command read it before). At exit sbx stops that relay
 * and moves the file's offset back by what the pipe still holds: the caller's
 * offset is where the command stopped reading, as before (`while read l; do
 * sbx run -- true; done < list` still reads every line). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"

#define TTY_RELAY_FINISH_MS 5000      /* the tty relay's last copy, at most */

static int guarded[2] = { -1, -1 };     /* the fds (1, 2) that are our pipes now */
static int stdin_file = -1;             /* the caller's stdin file (its open file description) */
static int stdin_pipe = -1;             /* ... the read end of the pipe at fd 0 now */
static pid_t stdin_relay = -1;          /* ... the process filling it */
static pid_t stdin_owner = -1;          /* ... sbx itself (a fork of it that exits gives nothing back) */

/* fd itself, or (it is one of 0..2, a closed one sbx puts /dev/null at later)
 * a CLOEXEC copy above 2; fd is closed. -1: failed, errno set. */
static int above_stdio(int fd) {
        int moved;

        if (fd < 0 || fd > 2)
                return fd;
        moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        close(fd);
        return moved;
}

/* A CLOEXEC pipe, never at 0..2. */
static int pipe_high(int p[2]) {
        if (pipe2(p, O_CLOEXEC) < 0)
                return -1;
        p[0] = above_stdio(p[0]);
        p[1] = above_stdio(p[1]);
        if (p[0] >= 0 && p[1] >= 0)
                return 0;
        closep(&p[0]);
        closep(&p[1]);
        errno = EMFILE;
        return -1;
}

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

static _Noreturn void stdin_relay_main(int file, int to) {
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);

        /* nothing of the caller's but the file */
        for (int fd = 0; fd < 3; fd++)
                if (null >= 0)
                        (void) dup2(null, fd);
        (void) prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != stdin_owner)           /* sbx gone before the prctl */
                _exit(0);
        (void) signal(SIGINT, SIG_IGN);
        (void) signal(SIGQUIT, SIG_IGN);
        (void) signal(SIGHUP, SIG_IGN);
        (void) signal(SIGPIPE, SIG_IGN);
        for (;;) {
                ssize_t n = splice(file, NULL, to, NULL, 1 << 16, 0);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EINVAL) {         /* no splice from this file: copy */
                        if (!sbx_relay(file, to))
                                _exit(0);
                } else if (n <= 0) {                    /* EOF, the pipe's reader gone, a directory */
                        _exit(0);
                }
        }
}

/* At exit: the relay stopped, the caller's offset moved back over what the
 * command did not read (what the pipe still holds). */
static void stdin_give_back(void) {
        int n = 0;

        if (getpid() != stdin_owner)
                return;
        if (stdin_relay > 0) {
                (void) kill(stdin_relay, SIGKILL);
                while (waitpid(stdin_relay, NULL, 0) < 0 && errno == EINTR)
                        ;
                stdin_relay = -1;
        }
        if (stdin_pipe >= 0 && ioctl(stdin_pipe, FIONREAD, &n) == 0 && n > 0)
                (void) lseek(stdin_file, -(off_t) n, SEEK_CUR);
}

/* fd 0 a file: a pipe at 0 that a relay fills from it. 0 none, 1 made, -errno. */
static int guard_stdin(void) {
        int p[2], r;

        if (!is_file(STDIN_FILENO))
                return 0;
        if (pipe_high(p) < 0)
                return -errno;
        stdin_file = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
        stdin_pipe = fcntl(p[0], F_DUPFD_CLOEXEC, 3);
        if (stdin_file < 0 || stdin_pipe < 0 || dup2(p[0], STDIN_FILENO) < 0)   /* dup2: inherited */
                goto fail;
        stdin_owner = getpid();
        stdin_relay = fork();
        if (stdin_relay == 0) {
                close(p[0]);
                close(stdin_pipe);      /* a reader gone is EPIPE: the relay ends */
                stdin_relay_main(stdin_file, p[1]);
        }
        if (stdin_relay < 0)
                goto fail;
        close(p[0]);
        close(p[1]);
        (void) atexit(stdin_give_back);
        return 1;
fail:
        r = -errno;
        if (stdin_file >= 0 && dup2(stdin_file, STDIN_FILENO) < 0)
                r = -errno;
        closep(&stdin_file);
        closep(&stdin_pipe);
        close(p[0]);
        close(p[1]);
        return r;
}

int sbx_stdio_guard(void) {
        int from[2] = { -1, -1 }, to[2] = { -1, -1 };
        bool any = false;
        pid_t pid;
        int r;

        if ((r = guard_stdin()) < 0)
                return r;

        for (int i = 0; i < 2; i++) {
                int fd = i + 1, p[2];
                if (!is_file(fd))
                        continue;
                if (pipe_high(p) < 0)
                        return -errno;
                to[i] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
                fflush(i ? stderr : stdout);
                if (to[i] < 0 || dup2(p[1], fd) < 0) {   /* dup2: not CLOEXEC, inherited */
                        r = -errno;
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
                return r;
        pid = fork();
        if (pid == 0) {
                if (stdin_pipe >= 0)    /* stdin's, not ours */
                        close(stdin_pipe);
                relay_main(from, to);
        }
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

/* ---- the caller's terminal ----
 *
 * A terminal as fd 0, 1 or 2 is not handed to a sandbox either, unless the
 * command asked for a pty (-t: it gets a pty of the sandbox's own and sbx
 * relays). A process of the sandbox holding the caller's terminal (fd 1 of
 * a terminal reads as well as fd 0) reads what the user types after sbx
 * returned, the next commands of the user's shell and their passwords, and
 * changes the terminal's modes (echo off, raw), for as long as it lives: a
 * persistent sandbox keeps what a command left running. Docker gives such a
 * command pipes, and so does sbx: each terminal among the fds the command
 * gets becomes a pipe, and a relay process of ours, outside every sandbox,
 * copies between the pipes and the terminal for as long as the command
 * runs. Then our fds are the terminal again, and the relay copies what the
 * output pipes still hold (no more: a writer left running is not waited for)
 * and ends; what the sandbox kept holds pipes nobody reads (EPIPE) or writes
 * (EOF). The input ends at the terminal's end of file (^D: the command reads
 * EOF, for good, as with docker's pipe) and where the relay may not read the
 * terminal (a background job: SIGTTIN ignored, the read fails), where the
 * command used to take the keystrokes meant for the user's shell. fds 1 and 2
 * on the same terminal share one pipe, so that their order is kept. */

/* The relay's fds besides the terminal (its own 0-2, as they were ours). */
typedef struct tty_relay {
        int ctl;                /* the guard's socket: EOF = the command ended; may carry a pidfd */
        int in;                 /* the write end of the command's stdin, -1 */
        int out[2];             /* the read ends of fd 1's and fd 2's pipes, -1 */
        int pidfd;              /* detached: the command, whose end ends the relay */
        char buf[4096];         /* read from the terminal, not yet in the pipe */
        size_t len, off;
} tty_relay;

/* What a pipe holds now, copied to the terminal: the last output. */
static void relay_rest(int from, int to) {
        int n = 0;

        if (from < 0 || ioctl(from, FIONREAD, &n) < 0)
                return;
        while (n > 0) {
                char buf[4096];
                ssize_t r = read(from, buf, (size_t) n < sizeof(buf) ? (size_t) n : sizeof(buf));
                if (r <= 0)
                        return;
                for (ssize_t off = 0, w; off < r; off += w)
                        if ((w = write(to, buf + off, (size_t) (r - off))) <= 0)
                                return;
                n -= (int) r;
        }
}

static _Noreturn void relay_finish(const tty_relay *r) {
        relay_rest(r->out[0], STDOUT_FILENO);
        relay_rest(r->out[1], STDERR_FILENO);
        _exit(0);
}

/* The guard's word: a pidfd (detached: run until that process ends), or EOF. */
static void relay_ctl(tty_relay *r) {
        char b;
        int fd;
        ssize_t n = sbx_recv_fds(r->ctl, &b, 1, MSG_DONTWAIT, &fd, 1, NULL);

        if (n == -EAGAIN || n == -EINTR)
                return;
        if (fd >= 0 && r->pidfd < 0)
                r->pidfd = fd;
        else if (fd >= 0)
                close(fd);
        if (n > 0)
                return;
        if (r->pidfd < 0)
                relay_finish(r);
        close(r->ctl);          /* detached: the guard is gone, the command not */
        r->ctl = -1;
}

/* The terminal's input into the command's stdin pipe (non-blocking: a
 * command that does not read never blocks the relay). */
static void relay_in(tty_relay *r, bool readable) {
        if (readable && r->len == 0) {
                ssize_t n = read(STDIN_FILENO, r->buf, sizeof(r->buf));
                if (n < 0 && errno == EINTR)
                        return;
                if (n <= 0) {   /* ^D, a hang-up, or not ours to read (background) */
                        close(r->in);
                        r->in = -1;
                        return;
                }
                r->len = (size_t) n;
                r->off = 0;
        }
        while (r->off < r->len) {
                ssize_t w = write(r->in, r->buf + r->off, r->len - r->off);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0 && errno == EAGAIN)
                        return;
                if (w <= 0) {   /* nobody reads it any more */
                        close(r->in);
                        r->in = -1;
                        r->len = 0;
                        return;
                }
                r->off += (size_t) w;
        }
        r->len = 0;
}

static _Noreturn void relay_tty(tty_relay *r) {
        static const int ignored[] = { SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE, SIGTTIN, SIGTTOU };
        sigset_t none;

        for (size_t i = 0; i < ELEMENTSOF(ignored); i++)
                (void) signal(ignored[i], SIG_IGN);
        sigemptyset(&none);
        (void) sigprocmask(SIG_SETMASK, &none, NULL);
        for (;;) {
                struct pollfd p[6] = {
                        { .fd = r->ctl, .events = POLLIN },
                        { .fd = r->pidfd, .events = POLLIN },
                        { .fd = r->in >= 0 && r->len == 0 ? STDIN_FILENO : -1, .events = POLLIN },
                        { .fd = r->in >= 0 && r->len > 0 ? r->in : -1, .events = POLLOUT },
                        { .fd = r->out[0], .events = POLLIN },
                        { .fd = r->out[1], .events = POLLIN },
                };

                if (poll(p, ELEMENTSOF(p), -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        relay_finish(r);
                }
                for (int k = 0; k < 2; k++)
                        if (p[4 + k].revents && !sbx_relay(r->out[k], k + 1)) {
                                close(r->out[k]);
                                r->out[k] = -1;
                        }
                if (p[2].revents || p[3].revents)
                        relay_in(r, p[2].revents != 0);
                if (p[1].revents)
                        relay_finish(r);
                if (p[0].revents)
                        relay_ctl(r);
        }
}

static bool is_tty(int fd, struct stat *st) {
        return isatty(fd) && fstat(fd, st) == 0;
}

int sbx_tty_guard_start(sbx_tty_guard *g, bool with_stdin) {
        tty_relay r = { .ctl = -1, .in = -1, .out = { -1, -1 }, .pidfd = -1 };
        int give[3] = { -1, -1, -1 }, sp[2] = { -1, -1 }, p[2], e = 0;
        struct stat st[3];
        bool tty[3];
        pid_t pid;

        *g = (sbx_tty_guard) { .ctl = -EBADF, .saved = { -EBADF, -EBADF, -EBADF } };
        for (int fd = 0; fd < 3; fd++)
                tty[fd] = (fd > 0 || with_stdin) && is_tty(fd, &st[fd]);
        if (!tty[0] && !tty[1] && !tty[2])
                return 0;
        fflush(stdout);
        fflush(stderr);
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0 ||
            (sp[0] = above_stdio(sp[0])) < 0 || (sp[1] = above_stdio(sp[1])) < 0)
                goto fail;
        if (tty[0]) {
                if (pipe_high(p) < 0)
                        goto fail;
                give[0] = p[0];
                r.in = p[1];
        }
        for (int k = 0; k < 2; k++) {
                if (!tty[k + 1])
                        continue;
                if (k == 1 && tty[1] && st[1].st_rdev == st[2].st_rdev) {
                        give[2] = give[1];      /* one terminal: one pipe, in order */
                        continue;
                }
                if (pipe_high(p) < 0)
                        goto fail;
                give[k + 1] = p[1];
                r.out[k] = p[0];
        }
        for (int fd = 0; fd < 3; fd++)
                if (tty[fd] && (g->saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
                        goto fail;
        pid = fork();
        if (pid < 0)
                goto fail;
        if (pid == 0) {
                int keep[4] = { sp[1], r.in, r.out[0], r.out[1] }, null = open("/dev/null", O_RDWR | O_CLOEXEC);
                r.ctl = sp[1];
                /* nothing of the command's ends, nor the guard's, nor
                 * anything else we had (the pipes see their ends); the
                 * terminal as our 0-2, /dev/null for what is not guarded */
                close(sp[0]);
                for (int fd = 0; fd < 3; fd++) {
                        if (give[fd] >= 0 && (fd != 2 || give[2] != give[1]))
                                close(give[fd]);
                        if (!tty[fd] && null >= 0)
                                (void) dup2(null, fd);
                }
                sbx_close_all_but(keep, ELEMENTSOF(keep));
                for (int k = 0; k < 3; k++) {
                        int fd = k == 0 ? r.in : r.out[k - 1];
                        if (fd >= 0)
                                (void) fcntl(fd, F_SETFL, O_NONBLOCK);
                }
                relay_tty(&r);
        }
        closep(&sp[1]);
        closep(&r.in);
        closep(&r.out[0]);
        closep(&r.out[1]);
        for (int fd = 0; fd < 3; fd++)
                if (give[fd] >= 0 && dup2(give[fd], fd) < 0)
                        e = -errno;     /* cannot be: fd is open */
        for (int fd = 0; fd < 3; fd++)
                if (give[fd] >= 0 && (fd != 2 || give[2] != give[1]))
                        close(give[fd]);
        g->relay = pid;
        g->ctl = sp[0];
        if (e < 0) {
                sbx_tty_guard_stop(g);
                return e;
        }
        return 1;
fail:
        e = -errno;
        for (int fd = 0; fd < 3; fd++) {
                closep(&g->saved[fd]);
                g->saved[fd] = -EBADF;
                if (give[fd] >= 0 && (fd != 2 || give[2] != give[1]))
                        close(give[fd]);
        }
        closep(&sp[0]);
        closep(&sp[1]);
        closep(&r.in);
        closep(&r.out[0]);
        closep(&r.out[1]);
        return e < 0 ? e : -EIO;
}

/* Our fds 0-2 as they were. */
static void tty_guard_restore(sbx_tty_guard *g) {
        fflush(stdout);
        fflush(stderr);
        for (int fd = 0; fd < 3; fd++)
                if (g->saved[fd] >= 0) {
                        (void) dup2(g->saved[fd], fd);
                        closep(&g->saved[fd]);
                        g->saved[fd] = -EBADF;
                }
}

void sbx_tty_guard_stop(sbx_tty_guard *g) {
        struct pollfd p = { .fd = g->ctl, .events = POLLIN };
        int r;

        if (g->relay <= 0)
                return;
        tty_guard_restore(g);
        /* EOF to the relay; its end closes when it has finished */
        (void) shutdown(g->ctl, SHUT_WR);
        do
                r = poll(&p, 1, TTY_RELAY_FINISH_MS);
        while (r < 0 && errno == EINTR);
        /* stuck (a terminal stopped by ^S): it goes. After a setns into a
         * sandbox's user namespace we may not signal it: then it is left to
         * finish alone, never waited for */
        if (r == 0 && kill(g->relay, SIGKILL) < 0)
                (void) waitpid(g->relay, NULL, WNOHANG);
        else
                (void) waitpid(g->relay, NULL, 0);
        closep(&g->ctl);
        g->ctl = -EBADF;
        g->relay = 0;
}

int sbx_tty_guard_detach(sbx_tty_guard *g, int pidfd) {
        ssize_t n;

        if (g->relay <= 0)
                return 0;
        n = sbx_send_fds(g->ctl, "p", 1, &pidfd, 1);
        if (n != 1) {
                sbx_tty_guard_stop(g);
                return n < 0 ? (int) n : -EIO;
        }
        tty_guard_restore(g);
        closep(&g->ctl);
        g->ctl = -EBADF;
        g->relay = 0;
        return 1;
}

/* SPDX-License-Identifier: MIT */
/* Signals: SIGINT/SIGTERM/SIGHUP are forwarded to the sandbox's pid 1. A pid
 * namespace's init only receives signals it handles, so a second copy of the
 * same signal escalates to SIGKILL (which kills the whole namespace).
 * Timeout: SIGKILL to pid 1, i.e. the whole sandbox. Terminal: with a pty
 * the sandbox never holds an fd of the caller's terminal, so TIOCSTI from
 * inside can only inject into its own pty. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"

int sbx_supervise_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        p->tty = c->tty;
        /* Without --tty the command gets the caller's terminal itself, and
         * the modes it sets there (stty -echo -icanon, no ^C) would stay the
         * operator's after sbx returned: read them now, before the spawn (a
         * child that shares our memory has exec'd before sbx_supervise()
         * runs), and put them back when it ends. */
        p->passed_tty = -1;
        for (int fd = 0; fd <= 2 && !p->tty && p->passed_tty < 0; fd++)
                if (tcgetattr(fd, &p->passed_tio) == 0)
                        p->passed_tty = fd;
        /* The same for what no mode holds: exclusive mode (TIOCEXCL: every
         * later open of the terminal by a process without CAP_SYS_ADMIN,
         * the operator's ssh or sudo prompt, failed with EBUSY) and stopped
         * output (tcflow TCOOFF: the operator's shell printed nothing until
         * ^Q), on each of fds 0-2 that is a terminal. And its file status
         * flags: they belong to the open file description, which the
         * caller's shell shares, so an O_NONBLOCK set inside left every
         * later reader of the terminal (cat, read, a prompt) failing with
         * EAGAIN after sbx returned. */
        p->passed_ttys = p->passed_nxcl = 0;
        /* And the mode of each file among fds 0-2 (a file as stdin or
         * stdout is a pipe by now: stdio-guard.c): a rootless sandbox has
         * the caller's uid, owns the caller's terminal and FIFOs, and its
         * fchmod(0, 0666) left the operator's terminal readable and
         * writable by every local user after sbx returned. */
        for (int fd = 0; fd <= 2; fd++) {
                struct stat st;
                /* Round 15: not only a terminal's. A pipe or socket is
                 * passed as it is too, its open file description shared
                 * with the caller's shell: an O_NONBLOCK set inside ended
                 * `... | while read l; do sbx run ...; done` after the
                 * first line (read: EAGAIN) and made a later `cat` fail. */
                p->passed_fl[fd] = p->tty ? -1 : fcntl(fd, F_GETFL);
                p->passed_dev[fd] = (dev_t) -1;
                if (!p->tty && fstat(fd, &st) == 0) {
                        p->passed_dev[fd] = st.st_dev;
                        p->passed_ino[fd] = st.st_ino;
                        p->passed_mode[fd] = st.st_mode & 07777;
                }
        }
        for (int fd = 0; fd <= 2 && !p->tty; fd++) {
                struct termios tio;
                int excl = 0;
                if (tcgetattr(fd, &tio) < 0)
                        continue;
                p->passed_ttys |= 1u << fd;
                if (ioctl(fd, TIOCGEXCL, &excl) == 0 && !excl)
                        p->passed_nxcl |= 1u << fd;
        }
        /* A workload must not inherit our caller's SIG_IGN (nohup, & in a shell). */
        for (int s = 1; s < _NSIG && p->n_ignored_signals < ELEMENTSOF(p->ignored_signals); s++) {
                struct sigaction sa;
                if (s != SIGKILL && s != SIGSTOP && sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
                        p->ignored_signals[p->n_ignored_signals++] = s;
        }
        return 0;
}

/* The pty lives in the sandbox's devpts instance, so the sandbox sees a
 * normal /dev/pts/N terminal and never an fd of the caller's terminal.
 * A gid of (uint32_t) -1 keeps the group devpts gave it (its gid= option:
 * OCI containers, whose pty is uid:tty as with runc and crun). */
int sbx_tty_setup_child(uint32_t uid, uint32_t gid, int *ret_master, int *ret_slave, sbx_error *reterr) {
        int unlock = 0, master, slave;

        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (master < 0)
                return sbx_error_set(reterr, -errno, "tty: open '/dev/ptmx'");
        if (ioctl(master, TIOCSPTLCK, &unlock) < 0) {
                close(master);
                return sbx_error_set(reterr, -errno, "tty: unlock pty");
        }
        slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (slave < 0) {
                close(master);
                return sbx_error_set(reterr, -errno, "tty: open the pty peer");
        }
        if (fchown(slave, uid, gid) < 0) {
                close(master);
                close(slave);
                return sbx_error_set(reterr, -errno, "tty: chown the pty to %u:%u", uid, gid);
        }
        *ret_master = master;
        *ret_slave = slave;
        return 0;
}

void sbx_tty_attach(sbx_plan *p, int master) {
        struct winsize ws;
        struct termios tio;

        closep(&p->tty_master);
        p->tty_master = master;
        if (tcgetattr(STDIN_FILENO, &tio) == 0)
                (void) tcsetattr(master, TCSANOW, &tio);
        if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
                (void) ioctl(master, TIOCSWINSZ, &ws);
}

/* The signals a supervisor passes on to the sandboxed command (SIGWINCH: the pty's size). */
static void forwarded_signals(sigset_t *set) {
        sigemptyset(set);
        sigaddset(set, SIGINT);
        sigaddset(set, SIGTERM);
        sigaddset(set, SIGHUP);
        sigaddset(set, SIGWINCH);
}

bool sbx_tty_make_raw(int master, struct termios *saved) {
        struct termios tio;

        /* the sandbox's pty does the line discipline */
        if (master < 0 || tcgetattr(STDIN_FILENO, saved) < 0)
                return false;
        tio = *saved;
        cfmakeraw(&tio);
        return tcsetattr(STDIN_FILENO, TCSANOW, &tio) == 0;
}

int sbx_supervise_block_signals(sigset_t *ret_old) {
        sigset_t set;

        forwarded_signals(&set);
        sigaddset(&set, SIGCHLD);
        return RET_NERRNO(sigprocmask(SIG_BLOCK, &set, ret_old));
}

int sbx_supervise_signalfd(void) {
        sigset_t set;

        forwarded_signals(&set);
        return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static long long now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Copy what is readable from `from` to `to`; false on EOF/error. */
bool sbx_relay(int from, int to) {
        char buf[4096];
        ssize_t n = read(from, buf, sizeof(buf));

        if (n <= 0)
                return n < 0 && (errno == EAGAIN || errno == EINTR);
        for (ssize_t off = 0; off < n;) {
                ssize_t w = write(to, buf + off, n - off);
                if (w < 0) {
                        if (errno == EINTR || errno == EAGAIN)
                                continue;
                        return false;
                }
                off += w;
        }
        return true;
}

typedef struct supervisor {
        sbx_plan *p;
        int pidfd, sfd;
        bool stdin_open, master_open;
        int last_sig;
} supervisor;

/* Forward what arrived on the signalfd; a repeat of the same signal
 * escalates to SIGKILL (see the top of this file). */
static void forward_signals(supervisor *s) {
        struct signalfd_siginfo si;

        while (read(s->sfd, &si, sizeof(si)) == sizeof(si)) {
                if (si.ssi_signo == SIGWINCH) {
                        struct winsize ws;
                        if (s->p->tty_master >= 0 && ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
                                (void) ioctl(s->p->tty_master, TIOCSWINSZ, &ws);
                        continue;
                }
                (void) sys_pidfd_send_signal(s->pidfd, (int) si.ssi_signo == s->last_sig ? SIGKILL : (int) si.ssi_signo);
                s->last_sig = si.ssi_signo;
        }
}

/* Our stdin ended: the sandbox's terminal reads an end of file (VEOF). */
static void send_eof(int master) {
        struct termios tio;
        char eof = 4;

        if (tcgetattr(master, &tio) == 0 && tio.c_cc[VEOF])
                eof = (char) tio.c_cc[VEOF];
        (void) !write(master, &eof, 1);
}

/* Whatever the sandbox printed before it exited. */
static void drain_master(supervisor *s) {
        while (s->master_open) {
                struct pollfd m = { .fd = s->p->tty_master, .events = POLLIN };
                if (poll(&m, 1, 0) <= 0 || !(m.revents & POLLIN))
                        break;
                s->master_open = sbx_relay(s->p->tty_master, STDOUT_FILENO);
        }
}

static int reap(supervisor *s, sbx_error *reterr) {
        siginfo_t info = {};

        drain_master(s);
        if (waitid(P_PIDFD, s->pidfd, &info, WEXITED) < 0)
                return sbx_error_set(reterr, -errno, "supervise: waitid");
        return info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
}

static int kill_on_timeout(supervisor *s, sbx_error *reterr) {
        siginfo_t info = {};

        /* SIGKILL to pid 1 takes the whole pid namespace with it. */
        (void) sys_pidfd_send_signal(s->pidfd, SIGKILL);
        (void) waitid(P_PIDFD, s->pidfd, &info, WEXITED);
        sbx_error_set(reterr, -ETIMEDOUT, "--timeout: killed the sandbox after %u s", s->p->timeout_sec);
        return SBX_EXIT_TIMEOUT;
}

int sbx_supervise(sbx_plan *p, int pidfd, sbx_error *reterr) {
        supervisor s = { .p = p, .pidfd = pidfd, .stdin_open = p->tty_master >= 0, .master_open = p->tty_master >= 0 };
        long long deadline = p->timeout_sec ? now_ms() + p->timeout_sec * 1000LL : 0;
        struct termios saved;
        bool raw = false;
        int status;

        s.sfd = sbx_supervise_signalfd();
        if (s.sfd < 0)
                return sbx_error_set(reterr, -errno, "supervise: signalfd");
        raw = sbx_tty_make_raw(p->tty_master, &saved);
        for (;;) {
                struct pollfd pfd[4] = {
                        { .fd = pidfd, .events = POLLIN },
                        { .fd = s.sfd, .events = POLLIN },
                        { .fd = s.stdin_open ? STDIN_FILENO : -1, .events = POLLIN },
                        { .fd = s.master_open ? p->tty_master : -1, .events = POLLIN },
                };
                int timeout = -1, r;

                if (deadline) {
                        long long left = deadline - now_ms();
                        timeout = left > 0 ? (int) (left < 1000000 ? left : 1000000) : 0;
                }
                r = poll(pfd, ELEMENTSOF(pfd), timeout);
                if (r < 0 && errno != EINTR) {
                        status = sbx_error_set(reterr, -errno, "supervise: poll");
                        break;
                }
                if (deadline && now_ms() >= deadline) {
                        status = kill_on_timeout(&s, reterr);
                        break;
                }
                if (r <= 0)
                        continue;
                if (pfd[1].revents & POLLIN)
                        forward_signals(&s);
                if (pfd[3].revents & (POLLIN | POLLHUP | POLLERR))
                        s.master_open = sbx_relay(p->tty_master, STDOUT_FILENO);
                if (pfd[2].revents & (POLLIN | POLLHUP | POLLERR)) {
                        s.stdin_open = sbx_relay(STDIN_FILENO, p->tty_master);
                        if (!s.stdin_open)
                                send_eof(p->tty_master);
                }
                if (pfd[0].revents & POLLIN) {
                        status = reap(&s, reterr);
                        break;
                }
        }
        if (raw)
                (void) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        if (p->passed_tty >= 0 && p->tty_master < 0) {
                /* SIGTTOU blocked: sbx may be a background job by now */
                sigset_t ttou, old;
                sigemptyset(&ttou);
                sigaddset(&ttou, SIGTTOU);
                (void) sigprocmask(SIG_BLOCK, &ttou, &old);
                (void) tcsetattr(p->passed_tty, TCSANOW, &p->passed_tio);
                for (int fd = 0; fd <= 2; fd++) {
                        if (p->passed_nxcl & (1u << fd))
                                (void) ioctl(fd, TIOCNXCL);
                        if (!(p->passed_ttys & (1u << fd)))
                                continue;
                        (void) tcflow(fd, TCOON);
                }
                (void) sigprocmask(SIG_SETMASK, &old, NULL);
        }
        for (int fd = 0; fd <= 2; fd++) {
                struct stat st;
                int fl = fcntl(fd, F_GETFL);
                if (p->passed_fl[fd] >= 0 && fl >= 0 && fl != p->passed_fl[fd])
                        (void) fcntl(fd, F_SETFL, p->passed_fl[fd]);
                if (p->passed_dev[fd] != (dev_t) -1 && fstat(fd, &st) == 0 && st.st_dev == p->passed_dev[fd] &&
                    st.st_ino == p->passed_ino[fd] && (st.st_mode & 07777) != p->passed_mode[fd])
                        (void) fchmod(fd, p->passed_mode[fd]);
        }
        close(s.sfd);
        return status;
}

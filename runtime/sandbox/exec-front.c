/* SPDX-License-Identifier: MIT */
/* sbx: the front end (issue 16, target 2). A static binary without libc
 * (like sbx-init, nolibc.h) installed as `sbx`; it runs the warm
 * `sbx exec NAME -- CMD...` itself and hands every other command line,
 * unchanged (argv[0] included: `docker`, `sbx-runc`), to the full sbx
 * (libexec/sbx/sbx: runtime/main.c), by execve.
 *
 * Why: the full binary's start (ld.so relocating five shared libraries, glibc's
 * start-up) costs more CPU than the whole exec service's work; this one starts
 * in a few microseconds.
 *
 * What it does itself, exactly as the full `sbx exec` would (join.c,
 * exec-service.c): the shape `sbx exec [--state-dir DIR] [-i] NAME [--] CMD...`
 * with NAME a sandbox's name, whose state dir holds exec.fast (sbx start
 * writes it with the record while the sandbox runs and the exec service can
 * run its execs: no exec allowlist, no agent's policy, exec-service.h). It
 * takes the busy and sandbox locks as the full exec does (shared; the
 * sandbox lock until the command runs, or, for one that ends within
 * READY_LATER_MS, until its end), marks the sandbox used, sends
 * init the request with SBX_SVC_SEARCH (the child finds CMD in the sandbox's
 * PATH: nothing to decide on the host for such a sandbox), forwards
 * SIGINT/SIGTERM/SIGHUP to the command's process group (the same signal twice:
 * SIGKILL) and exits with init's word on the command's end, range-checked as
 * sbx_svc_exit_code() does. Nothing from init is trusted: the command's pidfd
 * is the kernel's (SO_PASSPIDFD), records are size- and magic-checked, fds
 * it may attach are closed.
 *
 * Everything else goes to the full sbx, which then produces every message and
 * status: another command or option, an id instead of a name, no exec.fast
 * (stopped, paused, a policy, an allowlist, an older sbx), a socket nobody
 * listens on, a kernel without SO_PASSPIDFD, a closed stdio fd, a terminal as
 * a stdio fd the command would get (the full sbx relays it); and a request
 * the child reports as failed before the command ran (workdir, exec: not
 * found, not executable), so that the error says what the full sbx says. */
#include <asm/ioctls.h>
#include <asm/stat.h>
#include <linux/stat.h>
#include <asm/statfs.h>
#include <linux/fcntl.h>
#include <linux/magic.h>
#include <linux/mman.h>
#include <linux/poll.h>
#include <linux/resource.h>
#include <linux/signal.h>
#include <linux/signalfd.h>

#include "build-config.h"
#include "exec-service.h"
#include "nolibc.h"
#include "state-root.h"

#define FRONT_TIMEOUT_MS 30000         /* as exec-service.c waits for init */
#define READY_LATER_MS 20              /* a command that ends sooner: one sleep (see wait_exit) */
#define AF_UNIX_K 1
#define SOCK_SEQPACKET_K 5
#define SOCK_CLOEXEC_K 02000000
#define SO_PASSCRED_K 16
#define SO_PASSPIDFD_K 76
#define SCM_CREDENTIALS_K 2
#define SCM_PIDFD_K 4
#define LOCK_SH_K 1
#define PIDFD_SIGNAL_PROCESS_GROUP_K (1UL << 2)
#define ECONNRESET_K 104

static char **g_argv, **g_envp;
static unsigned long g_oldmask;
static int g_masked;
static unsigned g_euid;
static int g_cwd = -1;          /* our working directory while we are in the sandbox's dir */

/* n bytes of s at `at`; the end of what was written */
static char *append(char *at, const char *s, unsigned long n) {
        for (unsigned long k = 0; k < n; k++)
                at[k] = s[k];
        return at + n;
}

static unsigned long slen(const char *s) {
        unsigned long n = 0;

        while (s[n])
                n++;
        return n;
}

static int streq(const char *a, const char *b) {
        while (*a && *a == *b)
                a++, b++;
        return *a == *b;
}

static const char *after(const char *s, const char *prefix) {
        while (*prefix && *s == *prefix)
                s++, prefix++;
        return *prefix ? 0 : s;
}

static void say(const char *s) {
        sys(SYS_write, 2, s, slen(s), 0);
}

/* "sbx exec: " + fmt with its one %s as name: the full sbx's words. */
static void fail_msg(const char *fmt, const char *name) {
        say("sbx exec: ");
        for (const char *p = fmt; *p; p++) {
                if (p[0] == '%' && p[1] == 's') {
                        say(name);
                        p++;
                } else
                        sys(SYS_write, 2, p, 1, 0);
        }
        say("\n");
}

/* ------------------------------------------------------------ the full sbx */

/* The full sbx: <our dir>/libexec/sbx (the build tree), the installed layout
 * relative to us (PREFIX/bin/sbx + PREFIX/libexec/sbx/sbx), the configured
 * prefix; never ourselves. */
static _Noreturn void full(void) {
        static const char *const rel[] = { "/libexec/sbx", "/" SBX_LIBEXECDIR_FROM_BINDIR "/sbx" };
        char self[4096], path[4200];
        struct stat me, st;
        long n;

        if (g_masked)
                sys(SYS_rt_sigprocmask, SIG_SETMASK, &g_oldmask, 0, 8);
        if (g_cwd >= 0 && sys(SYS_fchdir, g_cwd, 0, 0, 0) < 0)
                quit(125);      /* cannot happen: the full sbx must not run elsewhere */
        self[0] = '\0';
        n = sys(SYS_readlinkat, AT_FDCWD_K, "/proc/self/exe", self, sizeof(self) - 1);
        if (n > 0 && sys(SYS_newfstatat, AT_FDCWD_K, "/proc/self/exe", &me, 0) == 0) {
                self[n] = '\0';
                while (n > 0 && self[n - 1] != '/')
                        n--;
                self[n > 1 ? n - 1 : n] = '\0';
                for (unsigned i = 0; i < sizeof(rel) / sizeof(rel[0]) + 1; i++) {
                        if (!sbx_root_join(path, sizeof(path), i < 2 ? self : SBX_LIBEXECDIR, i < 2 ? rel[i] : "/sbx", ""))
                                continue;
                        if (sys(SYS_newfstatat, AT_FDCWD_K, path, &st, 0) < 0 || (st.st_dev == me.st_dev && st.st_ino == me.st_ino))
                                continue;
                        sys(SYS_execve, path, g_argv, g_envp, 0);
                }
        }
        say("sbx: the full sbx program was not found: not '");
        say(self);
        say("/libexec/sbx', '");
        say(self);
        say("/" SBX_LIBEXECDIR_FROM_BINDIR "/sbx' nor '" SBX_LIBEXECDIR "/sbx': install sbx with 'meson setup "
            "build --prefix PREFIX && ninja -C build install' (it goes to PREFIX/libexec/sbx), or run it from "
            "its build tree\n");
        quit(125);
}

/* ------------------------------------------------------------ the state dir */

static bool usable(const char *dir) {
        return sys(SYS_faccessat, AT_FDCWD_K, dir, 2 | 1, 0) == 0;  /* W_OK | X_OK */
}

static bool tmpfs(const char *dir) {
        struct statfs sf;

        return sys(SYS_statfs, dir, &sf, 0, 0) == 0 && (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC);
}

static const char *getenv_k(const char *key) {
        unsigned long n = slen(key);

        for (char **e = g_envp; *e; e++) {
                unsigned long i = 0;
                while (i < n && (*e)[i] == key[i])
                        i++;
                if (i == n && (*e)[n] == '=')
                        return *e + n + 1;
        }
        return 0;
}

/* A name, never a path: [a-zA-Z0-9][a-zA-Z0-9_.-]* (an id or anything else: the full sbx). */
static bool plain_name(const char *s) {
        unsigned long n = 0;

        for (; s[n]; n++) {
                char c = s[n];
                bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
                if (!alnum && (n == 0 || (c != '_' && c != '.' && c != '-')))
                        return false;
        }
        return n > 0 && n < 256;
}

/* Open and lock (shared) a lock file of the sandbox's dir, as sandbox.c's lock_file. */
static int lock_at(int dfd, const char *file) {
        struct stat st;
        int fd = (int) sys(SYS_openat, dfd, file, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);

        if (fd < 0)
                return -1;
        if (sys(SYS_flock, fd, LOCK_SH_K, 0, 0) < 0 || sys(SYS_fstat, fd, &st, 0, 0) < 0 || st.st_nlink == 0) {
                close_fd(fd);
                return -1;
        }
        return fd;
}

/* exec.fast, checked: its strings counted and terminated. Read into buf
 * when it fits (the usual few hundred bytes: no mapping to make), else mapped. */
static const struct sbx_svc_fast *load_fast(int dfd, char *buf, unsigned long buf_size, const char **ret_strings) {
        struct stat st;
        const struct sbx_svc_fast *f;
        unsigned long nul = 0;
        long fd = sys(SYS_openat, dfd, SBX_SVC_FAST_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);
        char *m;

        if (fd < 0)
                return 0;
        if (sys(SYS_fstat, fd, &st, 0, 0) < 0 || (st.st_mode & S_IFMT) != S_IFREG ||
            st.st_uid != g_euid || (st.st_mode & 077) ||
            st.st_size < (long) sizeof(*f) + 2 || st.st_size > (long) (sizeof(*f) + SBX_SVC_MAX_DATA)) {
                close_fd((int) fd);
                return 0;
        }
        if ((unsigned long) st.st_size <= buf_size) {
                m = buf;
                if (sys(SYS_read, fd, m, st.st_size, 0) != st.st_size)
                        m = 0;
        } else {
                m = (char *) sys6(SYS_mmap, 0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
                if ((unsigned long) m > -4096UL)
                        m = 0;
        }
        close_fd((int) fd);
        if (!m)
                return 0;
        f = (const struct sbx_svc_fast *) m;
        if (f->magic != SBX_SVC_FAST_MAGIC || f->version != SBX_SVC_VERSION ||
            f->len != st.st_size - sizeof(*f) || f->n_env > SBX_SVC_MAX_STRINGS || m[st.st_size - 1] != '\0')
                return 0;
        for (unsigned long i = sizeof(*f); i < (unsigned long) st.st_size; i++)
                nul += m[i] == '\0';
        if (nul != 2 + (unsigned long) f->n_env)
                return 0;
        *ret_strings = m + sizeof(*f);
        return f;
}

/* ------------------------------------------------------------ init's records */

/* One record from init's child on the sync socket: 0, -EPIPE (EOF) or -EPROTO/-ETIMEDOUT.
 * Any fd it carries is closed; the pidfd and pid are the kernel's. Without
 * ret_pidfd (the record only, already queued: the command ended) no control
 * data is taken: the kernel makes no pidfd and drops any fd attached. */
static int recv_child(int fd, int timeout_ms, struct sbx_svc_child *m, int *ret_pidfd, int *ret_pid) {
        union {
                struct cmsg h;
                char buf[256];
        } ctl;
        struct iov iov = { m, sizeof(*m) };
        struct mhdr mh = { .iov = &iov, .iovlen = 1, .control = &ctl, .controllen = sizeof(ctl) };
        struct pollfd p = { .fd = fd, .events = POLLIN };
        struct timespec_k {
                long sec, nsec;
        } ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
        long n, r = 1;
        int no_pidfd;

        if (!ret_pidfd) {
                ret_pidfd = &no_pidfd;
                mh.control = 0;
                mh.controllen = 0;
        } else
                do
                        r = sys6(SYS_ppoll, (long) &p, 1, (long) &ts, 0, 0, 0);
                while (r == -EINTR);
        *ret_pidfd = -1;
        if (ret_pid)
                *ret_pid = 0;
        n = sys(SYS_recvmsg, fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT, 0);
        if (n == 0)
                return -EPIPE;
        for (unsigned long o = 0; n > 0 && o + sizeof(struct cmsg) <= mh.controllen;) {
                struct cmsg *h = (struct cmsg *) (ctl.buf + o);
                int *data = (int *) (ctl.buf + o + sizeof(struct cmsg));
                if (h->len < sizeof(struct cmsg) || o + h->len > mh.controllen)
                        break;
                if (h->level == SOL_SOCKET && h->type == SCM_RIGHTS)
                        for (unsigned long k = 0; k < (h->len - sizeof(struct cmsg)) / sizeof(int); k++)
                                close_fd(data[k]);
                else if (h->level == SOL_SOCKET && h->type == SCM_PIDFD_K && h->len >= sizeof(struct cmsg) + 4) {
                        if (*ret_pidfd < 0)
                                *ret_pidfd = data[0];
                        else
                                close_fd(data[0]);
                } else if (h->level == SOL_SOCKET && h->type == SCM_CREDENTIALS_K &&
                           h->len >= sizeof(struct cmsg) + sizeof(struct peercred))
                        *ret_pid = ((struct peercred *) data)->pid;
                o += (h->len + 7) & ~7UL;
        }
        if (n != sizeof(*m) || (mh.flags & (MSG_TRUNC | (mh.control ? MSG_CTRUNC : 0))) || m->magic != SBX_SVC_MAGIC) {
                close_fd(*ret_pidfd);
                *ret_pidfd = -1;
                return r == 0 ? -ETIMEDOUT : -EPROTO;
        }
        return 0;
}

/* The command's process group (setsid made it the command's), else the
 * process, as join.c's signal_group. */
static void signal_group(int pidfd, int pid, int sig) {
        long r = sys(SYS_pidfd_send_signal, pidfd, sig, 0, PIDFD_SIGNAL_PROCESS_GROUP_K);

        if (r == 0)
                return;
        if (r == -EINVAL && sys(SYS_pidfd_send_signal, pidfd, 0, 0, 0) == 0 && sys(SYS_kill, -pid, sig, 0, 0) == 0)
                return;
        sys(SYS_pidfd_send_signal, pidfd, sig, 0, 0);
}

/* The child's READY (the command is about to run): from here on rm may take
 * the sandbox (and kill the command with it), so the sandbox lock goes;
 * the kernel attached the child's pid and a pidfd of it. 0, or -1: it
 * failed before the command ran (the full sbx says why). exited: the
 * command's end is already known (its pid is only checked before). */
static int take_ready(int sync, int lock, bool exited, int *ret_pidfd, int *ret_pid, const char *name) {
        struct sbx_svc_child m;
        int r = exited ? recv_child(sync, 0, &m, 0, 0) : recv_child(sync, FRONT_TIMEOUT_MS, &m, ret_pidfd, ret_pid);

        if (r == -EPIPE) {
                fail_msg(SBX_SVC_MSG_NOT_RUN, name);
                quit(125);
        }
        if (r == 0 && m.type == SBX_SVC_FAILED)
                return -1;      /* before the command ran: the full sbx says why */
        if (r < 0 || m.type != SBX_SVC_READY || (!exited && *ret_pid <= 0)) {
                fail_msg(r == 0 ? SBX_SVC_MSG_BAD_RECORD : "exec service: sandbox '%s'", name);
                quit(125);
        }
        close_fd(lock);
        return 0;
}

/* Sleep until init's word on the command's end, forwarding signals; the
 * exit status, or -1: the command never ran (the full sbx says why).
 * READY is taken READY_LATER_MS after the request, or at once when a
 * signal is to be forwarded, or after the end: a short command costs one
 * sleep, not two (the sandbox lock is held that much longer). */
static int wait_exit(int conn, int sync, int lock, int sfd, const char *name) {
        struct timespec_k {
                long sec, nsec;
        } later = { 0, READY_LATER_MS * 1000000L };
        struct sbx_svc_exit e;
        int last = 0, code, pidfd = -1, pid = 0;
        bool ready = false;
        long n;

        for (;;) {
                struct pollfd p[2] = { { .fd = conn, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
                struct signalfd_siginfo si;
                n = sys6(SYS_ppoll, (long) p, sfd >= 0 ? 2 : 1, ready ? 0 : (long) &later, 0, 0, 0);
                if (n < 0)
                        continue;
                if (n == 0 || (p[1].revents && !ready)) {
                        if (take_ready(sync, lock, false, &pidfd, &pid, name) < 0)
                                return -1;
                        ready = true;
                }
                while (sfd >= 0 && sys(SYS_read, sfd, &si, sizeof(si), 0) == sizeof(si)) {
                        int sig = (int) si.ssi_signo;
                        if (sig == SIGWINCH)
                                continue;
                        signal_group(pidfd, pid, sig == last ? SIGKILL : sig);
                        last = (int) si.ssi_signo;
                }
                if (p[0].revents)
                        break;
        }
        if (!ready && take_ready(sync, lock, true, &pidfd, &pid, name) < 0)
                return -1;
        n = sys6(SYS_recvfrom, conn, (long) &e, sizeof(e), MSG_DONTWAIT | MSG_TRUNC, 0, 0);
        if (n == 0 || n == -ECONNRESET_K) {
                fail_msg(SBX_SVC_MSG_STOPPED, name);
                return 125;
        }
        if (n != sizeof(e) || e.magic != SBX_SVC_MAGIC) {
                fail_msg(SBX_SVC_MSG_NO_STATUS, name);
                return 125;
        }
        code = sbx_svc_exit_code(e.wstatus);
        if (code < 0) {
                fail_msg(SBX_SVC_MSG_BAD_STATUS, name);
                return 125;
        }
        return code;
}

/* ------------------------------------------------------------ sbx exec */


/* A file as stdout or stderr is never sent to init (launch/stdio-guard.c
 * says why): the write end of a pipe goes instead, and a relay child of ours
 * copies the pipe into the file until the command and whatever it left
 * running have closed it. We keep the read ends to see them emptied before
 * we exit (at most 5 s), so that the caller finds all the output in the
 * file once we returned. */
static int g_drain[2] = { -1, -1 };
/* Round 15: the file status flags of the fds 0-2 init gets as they are (a
 * pipe, a socket: their open file description is the caller's shell's too),
 * read before the request and put back when the command ended: an
 * O_NONBLOCK set inside made the next `read` of the caller's `while read`
 * loop fail with EAGAIN. -1: not handed over, or a relay's pipe. */
static int g_fl[3] = { -1, -1, -1 };

/* read + write, not splice: splice(2) to a file takes the shared file
 * offset when it starts and stores it back when it returns, without the
 * lock write(2) takes: blocked on the empty pipe for the whole command, it
 * put the offset back to where the command started, and the next write
 * through the caller's open file (its shell's `echo`, our own error
 * message) overwrote what had been written meanwhile. */
static _Noreturn void relay(int from, int to) {
        char buf[16384];

        for (;;) {
                long n = sys(SYS_read, from, (long) buf, sizeof(buf), 0);
                if (n == -EINTR)
                        continue;
                if (n <= 0)
                        quit(0);
                for (long off = 0, w; off < n; off += w)
                        if ((w = sys(SYS_write, to, (long) (buf + off), n - off, 0)) <= 0)
                                quit(0);
        }
}

/* In a relay: every fd but 100 (the pipe) and 101 (the file). Above all
 * the pipes' write ends: a relay holding one never sees EOF and lives on,
 * and so does whatever reads the caller's output (a $(...) waited for it
 * for ever where close_range is missing or refused: fault-injection).
 * Without close_range, one close per fd up to the soft RLIMIT_NOFILE. */
static void close_all_but_relay(void) {
        struct { unsigned long cur, max; } lim = { 1024, 1024 };

        if (sys(SYS_close_range, 0, 99, 0, 0) == 0 && sys(SYS_close_range, 102, ~0U, 0, 0) == 0)
                return;
        sys(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long) &lim);
        for (unsigned long fd = 0; fd < lim.cur && fd < (1UL << 20); fd++)
                if (fd != 100 && fd != 101)
                        sys(SYS_close, (long) fd, 0, 0, 0);
}

/* What init gets as fd (1 or 2): fd itself, or a relayed pipe; -1 failed.
 * The relay is born with the forwarded signals blocked (^C leaves it to
 * drain) and is made before any other fd of ours exists (exec_fast step 0):
 * it holds copies of what is open until it closes them, and a copy of
 * the sync socket kept init's hang-up from reading as EOF (a loaded machine
 * runs the relay late). */
static int guard_fd(int fd, unsigned mode) {
        unsigned long block = (1UL << (SIGINT - 1)) | (1UL << (SIGTERM - 1)) | (1UL << (SIGHUP - 1)), old;
        unsigned t = mode & S_IFMT;
        int p[2];
        long pid;

        if (t != S_IFREG && t != S_IFDIR && t != S_IFBLK)
                return fd;
        if (sys(SYS_pipe2, (long) p, O_CLOEXEC, 0, 0) < 0)
                return -1;
        if (sys(SYS_rt_sigprocmask, SIG_BLOCK, &block, &old, 8) < 0) {
                close_fd(p[0]);
                close_fd(p[1]);
                return -1;
        }
        pid = sys(SYS_clone, SIGCHLD, 0, 0, 0);
        if (pid == 0) {         /* signals stay blocked: ^C leaves it to drain */
                if (sys(SYS_dup3, p[0], 100, 0, 0) < 0 || sys(SYS_dup3, fd, 101, 0, 0) < 0)
                        quit(1);
                close_all_but_relay();
                relay(100, 101);
        }
        sys(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
        if (pid < 0) {
                close_fd(p[0]);
                close_fd(p[1]);
                return -1;
        }
        g_drain[fd - 1] = p[0];
        return p[1];
}

/* Each of fds 0-2 the command got as it is (not a terminal, not a file): its
 * mode before the exec, put back at the end (leave), as the full sbx does
 * (join.c passed_stdio). A rootless sandbox has the caller's uid and owns
 * the caller's named FIFO (fchmod 0666). */
static struct {
        int on;
        unsigned long dev, ino;
        unsigned mode;
} g_passed[3];

static _Noreturn void leave(int status) {
        struct { long sec, nsec; } tick = { 0, 10000000 };

        for (int i = 0; i < 500; i++) {
                int left = 0, n;
                for (int k = 0; k < 2; k++)
                        if (g_drain[k] >= 0 && sys(SYS_ioctl, g_drain[k], 0x541B /* FIONREAD */, (long) &n, 0) == 0 &&
                            n > 0)
                                left = 1;
                if (!left)
                        break;
                sys(SYS_nanosleep, (long) &tick, 0, 0, 0);
        }
        for (int fd = 0; fd < 3; fd++) {
                long now = sys(SYS_fcntl, fd, F_GETFL, 0, 0);
                struct stat st;
                if (g_fl[fd] >= 0 && now >= 0 && now != g_fl[fd])
                        sys(SYS_fcntl, fd, F_SETFL, g_fl[fd], 0);
                if (g_passed[fd].on && sys(SYS_fstat, fd, &st, 0, 0) == 0 && st.st_dev == g_passed[fd].dev &&
                    st.st_ino == g_passed[fd].ino && (st.st_mode & 07777) != g_passed[fd].mode)
                        sys(SYS_fchmod, fd, g_passed[fd].mode, 0, 0);
        }
        quit(status);
}

static int exec_fast(const char *state, bool inherit_stdin, const char *name, char **cmd) {
        char root[4096], dir[4400];
        _Alignas(8) char fast[2048];
        struct {
                unsigned short family;          /* sockaddr_un */
                char path[108];
        } sa;
        const struct sbx_svc_fast *f;
        const char *fs, *workdir, *path, *env;
        struct sbx_svc_request h = { .magic = SBX_SVC_MAGIC, .version = SBX_SVC_VERSION };
        struct sbx_svc_child m;
        struct stat st, io[3];
        unsigned long len, off, n_argv = 0, need, all = 0, fwd, argv_len = 0;
        bool flat;
        int dfd, busy, lock, conn, sp[2], one = 1, sfd, r, out, err;
        char *data;

        if (!plain_name(name) || !cmd[0] || !cmd[0][0])
                return -1;
        g_euid = (unsigned) sys(SYS_geteuid, 0, 0, 0, 0);
        for (int fd = 0; fd < 3; fd++)
                if (sys(SYS_fstat, fd, &io[fd], 0, 0) < 0)
                        return -1;      /* a closed one: the full sbx puts /dev/null there */
        /* a terminal the command would get: the full sbx puts a relayed
         * pipe in between (launch/stdio-guard.c); a terminal is a person,
         * who does not notice its start-up. Only a character device can be
         * one (a file, directory or block device is relayed anyway: guard_fd) */
        /* a file as the command's stdin: the full sbx relays it through a
         * pipe (stdio-guard.c), as the file itself could be reopened for
         * writing through /proc/self/fd/0 */
        if (inherit_stdin && ((io[0].st_mode & S_IFMT) == S_IFREG || (io[0].st_mode & S_IFMT) == S_IFDIR ||
                              (io[0].st_mode & S_IFMT) == S_IFBLK))
                return -1;
        for (int fd = inherit_stdin ? 0 : 1; fd < 3; fd++) {
                char termios[64];
                unsigned t = io[fd].st_mode & S_IFMT;
                if (t == S_IFCHR && sys(SYS_ioctl, fd, TCGETS, termios, 0) == 0)
                        return -1;
                /* what the command gets as it is (a FIFO, a socket): its mode
                 * put back at the end (leave), as the full sbx does (join.c
                 * passed_stdio) */
                if (t != S_IFREG && t != S_IFDIR && t != S_IFBLK) {
                        g_passed[fd].on = 1;
                        g_passed[fd].dev = io[fd].st_dev;
                        g_passed[fd].ino = io[fd].st_ino;
                        g_passed[fd].mode = io[fd].st_mode & 07777;
                }
        }
        if (state) {
                if (state[0] != '/' || !sbx_root_join(root, sizeof(root), state, "/sandboxes", "") ||
                    slen(root) > 4096 - 256)
                        return -1;
                for (const char *s = state; *s; s++)
                        if (*s == ',' || *s == ':')
                                return -1;
        } else {
                static const sbx_root_probe probe = { usable, tmpfs };
                if (!sbx_root_default(root, sizeof(root), getenv_k("XDG_RUNTIME_DIR"),
                                      g_euid, &probe))
                        return -1;
        }
        if (!sbx_root_join(dir, sizeof(dir), root, "/", name))
                return -1;
        /* 0. a file as stdout/stderr: its relay, before any fd it could
         * inherit exists (guard_fd) */
        out = guard_fd(1, io[1].st_mode);
        err = out < 0 ? -1 : guard_fd(2, io[2].st_mode);
        if (err < 0)
                return -1;
        for (int fd = inherit_stdin ? 0 : 1; fd < 3; fd++)
                if ((fd == 1 ? out : fd == 2 ? err : 0) == fd)
                        g_fl[fd] = (int) sys(SYS_fcntl, fd, F_GETFL, 0, 0);
        dfd = (int) sys(SYS_openat, AT_FDCWD_K, dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
        /* ours and only ours, as sbx made it (else the full sbx decides) */
        if (dfd < 0 || sys(SYS_fstat, dfd, &st, 0, 0) < 0 || st.st_uid != g_euid || (st.st_mode & 022))
                return -1;
        /* 1. the locks, as the full exec takes them: busy for our whole life,
         * the sandbox's until the command runs (rm -f waits, then kills it) */
        busy = lock_at(dfd, "busy");
        lock = busy >= 0 ? lock_at(dfd, "lock") : -1;
        if (lock < 0 || !(f = load_fast(dfd, fast, sizeof(fast), &fs)))
                return -1;
        /* last used = the busy file's mtime */
        sys(SYS_utimensat, busy, 0, 0, 0);
        workdir = fs;
        path = workdir + slen(workdir) + 1;
        env = path + slen(path) + 1;
        /* 2. the request: workdir, argv, env, PATH */
        len = f->len;
        flat = true;            /* the kernel lays argv's strings end to end */
        for (; cmd[n_argv]; n_argv++) {
                flat = flat && cmd[n_argv] == cmd[0] + argv_len;
                argv_len += slen(cmd[n_argv]) + 1;
        }
        len += argv_len;
        if (len > SBX_SVC_MAX_DATA || n_argv + f->n_env > SBX_SVC_MAX_STRINGS)
                return -1;
        flat = flat && len <= SBX_SVC_CHUNK;
        /* 3. init's socket: ours, and listened on */
        if (sys6(SYS_newfstatat, dfd, (long) SBX_SVC_SOCKET, (long) &st, AT_SYMLINK_NOFOLLOW, 0, 0) < 0 ||
            (st.st_mode & S_IFMT) != S_IFSOCK || st.st_uid != g_euid)
                return -1;
        /* connect() takes a path: relative to the dir checked above (our
         * working directory until full() goes back; /proc/self/fd/N/ where
         * ours cannot be opened: a lookup of three /proc entries more) */
        sa.family = AF_UNIX_K;
        g_cwd = (int) sys(SYS_openat, AT_FDCWD_K, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
        if (g_cwd >= 0 && sys(SYS_fchdir, dfd, 0, 0, 0) == 0) {
                if (!sbx_root_join(sa.path, sizeof(sa.path), SBX_SVC_SOCKET, "", ""))
                        return -1;
        } else {
                char num[12], rev[12];
                int k = 0, j = 0;
                unsigned v = (unsigned) dfd;
                if (g_cwd >= 0)
                        close_fd(g_cwd);
                g_cwd = -1;
                do
                        rev[k++] = (char) ('0' + v % 10);
                while ((v /= 10) > 0);
                while (k > 0)
                        num[j++] = rev[--k];
                num[j] = '\0';
                if (!sbx_root_join(sa.path, sizeof(sa.path), "/proc/self/fd/", num, "/" SBX_SVC_SOCKET))
                        return -1;
        }
        /* everything ready before connect: init wakes to the whole request */
        if (sys(SYS_socketpair, AF_UNIX_K, SOCK_SEQPACKET_K | SOCK_CLOEXEC_K, 0, sp) < 0 ||
            sys6(SYS_setsockopt, sp[0], SOL_SOCKET, SO_PASSCRED_K, (long) &one, sizeof(one), 0) < 0 ||
            sys6(SYS_setsockopt, sp[0], SOL_SOCKET, SO_PASSPIDFD_K, (long) &one, sizeof(one), 0) < 0)
                return -1;      /* Linux < 6.5: the full sbx's GO round trip */
        /* the strings: one record of four pieces where they fit one (no
         * copy), else copied and cut into records of SBX_SVC_CHUNK */
        data = flat ? 0 : (char *) sys6(SYS_mmap, 0, (long) len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if ((unsigned long) data > -4096UL)
                return -1;
        if (data) {
                /* each string's length once: a bound of slen() in the loop's
                 * condition was computed again for every byte (the stores
                 * through `at` may alias the string), quadratic in its length:
                 * 2 x 100 KB of arguments spun the front end on the host for
                 * more than a minute (outside every limit of the sandbox) */
                char *at = append(data, workdir, slen(workdir) + 1);
                for (unsigned long i = 0; i < n_argv; i++)
                        at = append(at, cmd[i], slen(cmd[i]) + 1);
                at = append(at, env, (unsigned long) (fs + f->len - env));
                (void) append(at, path, slen(path) + 1);
        }
        /* forwarded signals wait for wait_exit() from here on */
        all = (1UL << (SIGINT - 1)) | (1UL << (SIGTERM - 1)) | (1UL << (SIGHUP - 1)) | (1UL << (SIGWINCH - 1)) |
              (1UL << (SIGCHLD - 1));
        if (sys(SYS_rt_sigprocmask, SIG_BLOCK, &all, &g_oldmask, 8) < 0)
                return -1;
        g_masked = 1;
        fwd = (1UL << (SIGINT - 1)) | (1UL << (SIGTERM - 1)) | (1UL << (SIGHUP - 1)) | (1UL << (SIGWINCH - 1));
        sfd = (int) sys(SYS_signalfd4, -1, &fwd, 8, O_CLOEXEC | O_NONBLOCK);
        {
                long mask = sys(SYS_umask, 0, 0, 0, 0);
                int fds[SBX_SVC_N_FDS - 1] = { 0, out, err, sp[1] };
                union {
                        struct cmsg h;
                        char buf[sizeof(struct cmsg) + sizeof(fds)];
                } ctl = { .h = { .len = sizeof(struct cmsg) + sizeof(fds), .level = SOL_SOCKET, .type = SCM_RIGHTS } };
                /* the header with the fds, then the strings in records of
                 * SBX_SVC_CHUNK: all in one sendmmsg (one wake-up of init) */
                struct iov iov[1 + SBX_SVC_MAX_DATA / SBX_SVC_CHUNK];
                struct {
                        struct mhdr h;
                        unsigned len;
                } mm[1 + SBX_SVC_MAX_DATA / SBX_SVC_CHUNK] = { 0 };
                unsigned long n_rec = 1;

                sys(SYS_umask, mask, 0, 0, 0);
                h.flags = SBX_SVC_SEARCH | SBX_SVC_NO_GO | SBX_SVC_UMASK | (inherit_stdin ? 0 : SBX_SVC_STDIN_NULL) |
                          ((uint32_t) (mask & 0777) << SBX_SVC_UMASK_SHIFT);
                h.n_argv = (uint32_t) n_argv;
                h.n_env = f->n_env;
                h.len = (uint32_t) len;
                for (unsigned i = 0; i < sizeof(fds); i++)
                        ctl.buf[sizeof(struct cmsg) + i] = ((char *) fds)[i];
                iov[0] = (struct iov) { &h, sizeof(h) };
                mm[0].h = (struct mhdr) { .iov = &iov[0], .iovlen = 1, .control = &ctl, .controllen = sizeof(ctl) };
                if (flat) {
                        iov[1] = (struct iov) { (void *) workdir, slen(workdir) + 1 };
                        iov[2] = (struct iov) { cmd[0], argv_len };
                        iov[3] = (struct iov) { (void *) env, (unsigned long) (fs + f->len - env) };
                        iov[4] = (struct iov) { (void *) path, slen(path) + 1 };
                        mm[1].h = (struct mhdr) { .iov = &iov[1], .iovlen = 4 };
                        n_rec = 2;
                }
                for (off = 0; data && off < len; off += need, n_rec++) {
                        need = len - off < SBX_SVC_CHUNK ? len - off : SBX_SVC_CHUNK;
                        iov[n_rec] = (struct iov) { data + off, need };
                        mm[n_rec].h = (struct mhdr) { .iov = &iov[n_rec], .iovlen = 1 };
                }
                conn = (int) sys(SYS_socket, AF_UNIX_K, SOCK_SEQPACKET_K | SOCK_CLOEXEC_K, 0, 0);
                if (conn < 0 ||
                    sys(SYS_connect, conn, &sa, sizeof(sa.family) + slen(sa.path) + 1, 0) < 0)
                        r = -1;         /* nobody listens: the full sbx says so and joins */
                else
                        r = (int) sys(SYS_sendmmsg, conn, mm, n_rec, MSG_NOSIGNAL);
                /* init has the pipes now (or nobody: the relays see EOF) */
                if (out > 2)
                        close_fd(out);
                if (err > 2)
                        close_fd(err);
                if (r <= 0 || mm[0].len != sizeof(h))
                        return -1;      /* nothing sent: the full sbx */
                /* the rest, if sendmmsg stopped early */
                for (unsigned long i = (unsigned long) r; i < n_rec; i++) {
                        long want = 0;
                        for (unsigned long k = 0; k < mm[i].h.iovlen; k++)
                                want += (long) mm[i].h.iov[k].len;
                        if (sys(SYS_sendmsg, conn, &mm[i].h, MSG_NOSIGNAL, 0) != want) {
                                fail_msg(SBX_SVC_MSG_NOT_RUN, name);
                                leave(125);
                        }
                }
        }
        close_fd(sp[1]);
        /* 4. the command's end (READY on the way: the kernel attaches the
         * child's pid and a pidfd of it) */
        r = wait_exit(conn, sp[0], lock, sfd, name);
        if (r < 0)
                return -1;      /* before the command ran: the full sbx says why */
        /* the exec itself failed after READY: nothing ran; the full sbx says why */
        if (recv_child(sp[0], 0, &m, 0, 0) == 0 && m.type == SBX_SVC_FAILED)
                return -1;
        leave(r);
}

_Noreturn void nolibc_main(long *sp) {
        int argc = (int) sp[0], i = 2;
        const char *state = 0, *base;
        bool inherit = false;

        g_argv = (char **) (sp + 1);
        g_envp = g_argv + argc + 1;
        base = g_argv[0] ? g_argv[0] : "";
        for (const char *s = base; *s; s++)
                if (*s == '/')
                        base = s + 1;
        /* only `sbx exec ...`: `docker exec` and every other command are the full sbx's */
        if (argc < 4 || streq(base, "docker") || streq(base, "sbx-runc") || !streq(g_argv[1], "exec"))
                full();
        for (; i < argc; i++) {
                const char *a = g_argv[i];
                if (streq(a, "--state-dir") && i + 1 < argc)
                        state = g_argv[++i];
                else if (after(a, "--state-dir="))
                        state = after(a, "--state-dir=");
                else if (streq(a, "-i") || streq(a, "--interactive"))
                        inherit = true;
                else
                        break;
        }
        if (i < argc && streq(g_argv[i], "--"))
                i++;
        if (i >= argc || g_argv[i][0] == '-')
                full();
        {
                const char *name = g_argv[i++];
                if (i < argc && streq(g_argv[i], "--"))
                        i++;
                if (i >= argc)
                        full();
                exec_fast(state, inherit, name, g_argv + i);
        }
        full();
}

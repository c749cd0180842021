/* SPDX-License-Identifier: MIT */
/* sbx-init: pid 1 of a persistent sandbox (issue 4). Built as its own tiny
 * static binary with no libc at all (-nostdlib, raw syscalls): an idle
 * sandbox costs one process of a few KiB of RSS.
 *
 * It runs after the launcher's whole child sequence (mounts, caps dropped,
 * no_new_privs, seccomp), so it holds no privilege. Its jobs:
 *   - keep the namespaces alive (they live as long as it does);
 *   - reap every orphan reparented to it (SIGCHLD -> wait4(-1, WNOHANG));
 *   - stop cleanly: SIGTERM/SIGINT/SIGHUP/SIGPWR *from outside the sandbox*
 *     (si_pid 0 in our pid namespace) -> SIGTERM to every process, reap them,
 *     exit when none is left or after the grace period (the kernel then
 *     SIGKILLs whatever remains, because pid 1 exited);
 *   - forward other signals from outside (SIGUSR1, ...) to every process.
 * Signals sent from inside the sandbox are ignored (only kill/tgkill from
 * outside count, see the loop), and we are not dumpable: a sandboxed process can
 * not stop its own sandbox by signalling pid 1.
 *
 * Handshake with `sbx create`/`start` (fd 0 is a socket to it, fd 1 a pipe,
 * fd 2 /dev/null): the launcher exec'd us with PR_SET_PDEATHSIG set, so we
 * die with sbx until we clear it. sbx first records our pid and start time,
 * then writes "G" with the exec service's listening socket attached; we clear
 * the parent-death signal, answer "R" and close 0-2. If sbx dies before "G"
 * we exit: no init ever runs unrecorded.
 *
 * The exec service (issue 16, exec-service.h): `sbx exec` connects to that
 * socket from the host, sends a request it decided on completely, and we
 * clone a child (CLONE_VM: see "The child's memory") that only sets up
 * stdio/tty/session/workdir and execs the
 * file sbx opened. Every restriction of the sandbox is inherited from us
 * (the launcher applied them to init): namespaces, cgroup, rlimits, user,
 * no capabilities, no_new_privs, Landlock, seccomp. We accept only peers
 * outside our pid namespace and check every count and length we read. */
#include <asm/ioctls.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/keyctl.h>
#include <linux/mman.h>
#include <linux/poll.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <linux/signalfd.h>
#include <linux/signal.h>
#include <linux/time.h>
#include <linux/wait.h>
#include <stddef.h>
#ifndef SI_USER
#define SI_USER 0
#endif
#ifndef SI_TKILL
#define SI_TKILL (-6)
#endif
#include <sys/syscall.h>

#include "exec-service.h"

#define STOP_GRACE_SEC 5

#include "nolibc.h"

/* ---------------------------------------------------------- exec service */

/* The execs in flight: the child's pid (0: free slot) and the connection
 * its exit status goes to; the child's memory (below) and the word the
 * kernel zeroes when the child leaves it. */
static struct exec_slot {
        int pid, conn;
        int ended, wstatus;             /* reaped, its status not sent yet */
        int in_use;                     /* the child's CLONE_CHILD_CLEARTID word */
        char *mem;                      /* its region until the child left it (0: none) */
        unsigned long mem_size;
} slots[SBX_SVC_MAX_EXECS];
/* Slots at or above it were never used: an idle init touches no page of
 * them (nor of the poll set, also static for that reason). */
static int slots_used;
static struct pollfd pfd[2 + SBX_SVC_MAX_EXECS];
static int pfd_slot[SBX_SVC_MAX_EXECS];

/* The child's memory (issue 16). The child is cloned with CLONE_VM: it
 * runs in our address space until its exec, on its own stack in a region
 * that also holds its request, so the clone copies none of our mappings
 * (no page tables to copy, no pages to write-protect, no TLB flush sent to
 * every CPU that ran us) and its exec has no copy to tear down. The kernel
 * zeroes the slot's in_use word when the child leaves our memory
 * (CLONE_CHILD_CLEARTID: at its exec, or its exit); only then is the region
 * ours again. One free region of REGION_SIZE is kept for the next request,
 * so that a warm exec unmaps nothing either (munmap flushes the TLB of
 * every CPU that ran us). Layout: a guard page, the child's stack, the
 * request (struct child_plan, the strings, argv, envp). A sandbox that never
 * runs an exec maps none. */
#define PAGE 4096UL
#define CHILD_STACK 32768UL
#define REGION_SIZE (PAGE + CHILD_STACK + 32768UL)
static char *spare_region;

/* What a process of the sandbox can still set on us, having our ids, and
 * our children would inherit: the CPU affinity (sched_setaffinity(1)) and
 * the OOM score adjustment (/proc/1/oom_score_adj, a file of the sandbox's
 * root as we are not dumpable). Read once, before any process of the
 * sandbox exists, and put back in each exec's child (and so on us: an
 * oom_score_adj write reaches every process sharing the memory). Lowering
 * another's limits, nice value, I/O priority or policy, which none could
 * raise back, is refused by the always-on filter instead. */
static unsigned long init_affinity[16];
static long init_affinity_len;
static char init_oom[16];
static long init_oom_len;

static void inherited_read(void) {
        long fd;

        init_affinity_len = sys(SYS_sched_getaffinity, 0, sizeof(init_affinity), init_affinity, 0);
        fd = sys(SYS_openat, AT_FDCWD_K, "/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC, 0);
        if (fd >= 0) {
                init_oom_len = sys(SYS_read, fd, init_oom, sizeof(init_oom) - 1, 0);
                sys(SYS_close, fd, 0, 0, 0);
        }
}

/* Best effort: a sandbox user who is not its root cannot write the file,
 * and then cannot write ours either. */
static void inherited_restore(void) {
        long fd;

        if (init_affinity_len > 0)
                sys(SYS_sched_setaffinity, 0, init_affinity_len, init_affinity, 0);
        if (init_oom_len <= 0)
                return;
        fd = sys(SYS_openat, AT_FDCWD_K, "/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC, 0);
        if (fd >= 0) {
                sys(SYS_write, fd, init_oom, init_oom_len, 0);
                sys(SYS_close, fd, 0, 0, 0);
        }
}

static char *region_get(unsigned long size) {
        char *m;

        if (size == REGION_SIZE && spare_region) {
                m = spare_region;
                spare_region = 0;
                return m;
        }
        m = (char *) sys6(SYS_mmap, 0, (long) size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if ((unsigned long) m > -4096UL)
                return 0;
        if (sys(SYS_mprotect, m, PAGE, PROT_NONE, 0) < 0) {
                sys(SYS_munmap, m, size, 0, 0);
                return 0;
        }
        return m;
}

static void region_put(char *m, unsigned long size) {
        if (size == REGION_SIZE && !spare_region)
                spare_region = m;
        else
                sys(SYS_munmap, m, size, 0, 0);
}

/* Take back the regions whose child has exec'd or exited. */
static void regions_collect(void) {
        for (int i = 0; i < slots_used; i++)
                if (slots[i].mem && __atomic_load_n(&slots[i].in_use, __ATOMIC_ACQUIRE) == 0) {
                        region_put(slots[i].mem, slots[i].mem_size);
                        slots[i].mem = 0;
                }
}

static void reap(void) {
        long pid;
        int st = 0;

        while ((pid = sys(SYS_wait4, -1, &st, WNOHANG, 0)) > 0)
                for (int i = 0; i < slots_used; i++)
                        if (slots[i].pid == pid && !slots[i].ended) {
                                slots[i].ended = 1;
                                slots[i].wstatus = st;
                        }
        regions_collect();
}

/* The reaped commands' statuses to their clients: the last thing before we
 * sleep again, so that a client woken by it does not wait for the rest of
 * our work. */
static void send_exits(void) {
        for (int i = 0; i < slots_used; i++)
                if (slots[i].ended) {
                        struct sbx_svc_exit e = { .magic = SBX_SVC_MAGIC, .wstatus = slots[i].wstatus };
                        /* never block on a slow client */
                        sys6(SYS_sendto, slots[i].conn, (long) &e, sizeof(e), MSG_NOSIGNAL | MSG_DONTWAIT, 0, 0);
                        close_fd(slots[i].conn);
                        slots[i].ended = 0;
                        slots[i].pid = 0;
                }
}

/* The kernel's siginfo layout prefix we need (rt_sigtimedwait). */
struct kinfo {
        int signo, err, code;
        int pid;
        char pad[128 - 4 * sizeof(int)];
};

/* Exits 128 + the stop signal (143 after sbx stop's SIGTERM), as docker's
 * --init (tini) does when its command dies of the signal it forwarded:
 * docker inspect's State.ExitCode of a stopped sandbox. */
static _Noreturn void stop(const unsigned long *all, int signo) {
        struct timespec ts = { .tv_sec = 1 };
        struct kinfo info;

        /* Everyone but us (kill(-1) skips the caller); the exec service's
         * clients get their commands' statuses as they are reaped. */
        sys(SYS_kill, -1, SIGTERM, 0, 0);
        for (int waited = 0; waited < STOP_GRACE_SEC;) {
                long r;
                reap();
                send_exits();
                if (sys(SYS_wait4, -1, 0, WNOHANG, 0) == -ECHILD)
                        quit(128 + signo);
                r = sys6(SYS_rt_sigtimedwait, (long) all, (long) &info, (long) &ts, 8, 0, 0);
                if (r == -EAGAIN)
                        waited++;
        }
        quit(128 + signo);
}

/* The client left before its command's exit (killed, or gave up): the
 * command dies with it, as with the parent-death signal of a joined exec.
 * The pid is not reaped yet (only reap() does that), so it is still ours. */
static void hangup(int i) {
        sys(SYS_kill, slots[i].pid, SIGKILL, 0, 0);
        close_fd(slots[i].conn);
        slots[i].pid = 0;
}

static long send_child(int sync, unsigned type, int step, long err, int pass_fd) {
        struct sbx_svc_child m = { .magic = SBX_SVC_MAGIC, .type = type, .step = step, .err = (int) -err };
        struct iov iov = { &m, sizeof(m) };
        union {
                struct cmsg h;
                char buf[sizeof(struct cmsg) + 8];
        } c = { .h = { .len = sizeof(struct cmsg) + sizeof(int), .level = SOL_SOCKET, .type = SCM_RIGHTS } };
        struct mhdr mh = { .iov = &iov, .iovlen = 1 };

        if (pass_fd >= 0) {
                *(int *) (c.buf + sizeof(struct cmsg)) = pass_fd;
                mh.control = &c;
                mh.controllen = sizeof(c);
        }
        return sys(SYS_sendmsg, sync, &mh, MSG_NOSIGNAL, 0);
}

static _Noreturn void child_fail(int sync, int step, long err, int status) {
        send_child(sync, SBX_SVC_FAILED, step, err, -1);
        quit(status);
}

/* SBX_SVC_SEARCH: argv[0] run as execvp runs it, with PATH path (an empty
 * entry: the working directory), in the sandbox's own tree. */
static long exec_search(const char *path, char **argv, char **envp) {
        char cand[4096];
        const char *name = argv[0], *s = path;
        long r, denied = 0;
        unsigned long nl = 0, dl, at;

        while (name[nl])
                if (name[nl++] == '/')
                        return sys(SYS_execve, name, argv, envp, 0);
        if (nl == 0)
                return -ENOENT;
        while (s) {
                for (dl = 0; s[dl] && s[dl] != ':'; dl++)
                        ;
                at = 0;
                if (dl == 0)
                        cand[at++] = '.';
                for (unsigned long i = 0; i < dl && at < sizeof(cand); i++)
                        cand[at++] = s[i];
                if (at + 1 + nl < sizeof(cand)) {
                        cand[at++] = '/';
                        for (unsigned long i = 0; i <= nl; i++)
                                cand[at++] = name[i];
                        r = sys(SYS_execve, cand, argv, envp, 0);
                        if (r == -EACCES)
                                denied = 1;
                        else if (r != -ENOENT && r != -ENOTDIR && r != -ENAMETOOLONG && r != -ELOOP)
                                return r;
                }
                s = s[dl] ? s + dl + 1 : 0;
        }
        return denied ? -EACCES : -ENOENT;
}

/* One request, as the child gets it (in its region). */
struct child_plan {
        int fds[SBX_SVC_N_FDS];
        unsigned flags;
        const char *workdir, *path;
        char **argv, **envp;
};

/* The cloned child: the fixed plan of one request. Everything that
 * restricts it was applied to init by the launcher and is inherited.
 * Until its exec it shares our memory (CLONE_VM) and touches nothing of
 * it but its stack and its plan; the fd table, the working directory and
 * umask, the signal mask and the session are its own (no CLONE_FILES,
 * CLONE_FS, CLONE_SIGHAND).
 * fds[SBX_SVC_FD_EXEC] is -1 with SBX_SVC_SEARCH: then path is the PATH. */
static _Noreturn void child(void *arg) {
        struct child_plan *p = arg;
        int *fds = p->fds;
        unsigned flags = p->flags;
        const char *workdir = p->workdir, *path = p->path;
        char **argv = p->argv, **envp = p->envp;
        unsigned long none = 0;
        int sync, in, unlock = 0;
        long r;
        char go = 0;

        /* above every number we dup onto */
        for (int i = 0; i < SBX_SVC_N_FDS; i++) {
                if (fds[i] < 0)
                        continue;
                r = sys(SYS_fcntl, fds[i], F_DUPFD_CLOEXEC, 16, 0);
                if (r < 0)
                        quit(125);
                fds[i] = (int) r;
        }
        sync = fds[SBX_SVC_FD_SYNC];
        sys(SYS_rt_sigprocmask, SIG_SETMASK, &none, 0, 8);
        inherited_restore();
        in = fds[SBX_SVC_FD_STDIN];
        if (flags & SBX_SVC_STDIN_NULL) {
                r = sys(SYS_openat, AT_FDCWD_K, "/dev/null", O_RDONLY | O_CLOEXEC, 0);
                if (r < 0)
                        child_fail(sync, SBX_SVC_STEP_STDIO, r, 125);
                in = (int) r;
        }
        if ((r = sys(SYS_dup3, in, 0, 0, 0)) < 0 || (r = sys(SYS_dup3, fds[SBX_SVC_FD_STDOUT], 1, 0, 0)) < 0 ||
            (r = sys(SYS_dup3, fds[SBX_SVC_FD_STDERR], 2, 0, 0)) < 0)
                child_fail(sync, SBX_SVC_STEP_STDIO, r, 125);
        /* A new session: no controlling terminal shared with the caller. */
        r = sys(SYS_setsid, 0, 0, 0, 0);
        if (r < 0)
                child_fail(sync, SBX_SVC_STEP_SESSION, r, 125);
        if (flags & SBX_SVC_TTY) {
                /* a pty of the sandbox's own devpts, owned by our user */
                long m = sys(SYS_openat, AT_FDCWD_K, "/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC, 0), s = -1;
                if (m < 0 || (r = sys(SYS_ioctl, m, TIOCSPTLCK, &unlock, 0)) < 0 ||
                    (s = r = sys(SYS_ioctl, m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC, 0)) < 0 ||
                    (r = sys(SYS_ioctl, s, TIOCSCTTY, 0, 0)) < 0)
                        child_fail(sync, SBX_SVC_STEP_TTY, m < 0 ? m : r, 125);
                for (int i = 0; i < 3; i++)
                        if ((r = sys(SYS_dup3, s, i, 0, 0)) < 0)
                                child_fail(sync, SBX_SVC_STEP_TTY, r, 125);
                if ((r = send_child(sync, SBX_SVC_PTY, 0, 0, (int) m)) < 0)
                        child_fail(sync, SBX_SVC_STEP_TTY, r, 125);
                close_fd((int) m);
                close_fd((int) s);
        }
        /* A fresh session keyring where the filter allows keyctl (the
         * default profile does not: then nothing in the sandbox can use
         * the one shared with init either). */
        sys(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0);
        if (flags & SBX_SVC_UMASK)
                sys(SYS_umask, (flags >> SBX_SVC_UMASK_SHIFT) & 0777, 0, 0, 0);
        r = sys(SYS_chdir, workdir, 0, 0, 0);
        if (r < 0)
                child_fail(sync, SBX_SVC_STEP_CHDIR, r, 125);
        /* Every fd of ours but 0-2 is CLOEXEC. The host takes a pidfd of us
         * (the kernel tells it our pid with this record, or gives it a
         * pidfd of us: then it does not answer), then says go. */
        r = send_child(sync, SBX_SVC_READY, 0, 0, -1);
        if (r < 0 || (!(flags & SBX_SVC_NO_GO) && (sys(SYS_read, sync, &go, 1, 0) != 1 || go != SBX_SVC_GO)))
                child_fail(sync, SBX_SVC_STEP_READY, r < 0 ? r : -EPIPE, 125);
        if (flags & SBX_SVC_SEARCH)
                r = exec_search(path, argv, envp);
        else
                r = sys6(SYS_execveat, fds[SBX_SVC_FD_EXEC], (long) "", (long) argv, (long) envp, AT_EMPTY_PATH_K, 0);
        child_fail(sync, SBX_SVC_STEP_EXEC, r, r == -ENOENT ? 127 : 126);
}

/* Read one request from connection c: header + fds, then its strings into
 * a fresh mapping; fork the child. Anything malformed: drop it all. */
static void serve_request(int c, int slot) {
        struct sbx_svc_request req;
        struct iov iov = { &req, sizeof(req) };
        union {
                struct cmsg h;
                char buf[sizeof(struct cmsg) * 2 + sizeof(int) * SBX_SVC_N_FDS * 2];
        } ctl;
        struct mhdr mh = { .iov = &iov, .iovlen = 1, .control = &ctl, .controllen = sizeof(ctl) };
        int fds[SBX_SVC_N_FDS * 2], n_fds = 0, nul = 0, search;
        unsigned long size = 0, off = 0, strings;
        char *mem = 0, *buf, **argv, **envp, *path = 0;
        struct child_plan *plan;
        long r, pid = -1;

        r = sys(SYS_recvmsg, c, &mh, MSG_CMSG_CLOEXEC, 0);
        /* every fd that arrived, whatever else is wrong */
        for (unsigned long o = 0; r >= 0 && o + sizeof(struct cmsg) <= mh.controllen;) {
                struct cmsg *h = (struct cmsg *) (ctl.buf + o);
                if (h->len < sizeof(struct cmsg) || o + h->len > mh.controllen)
                        break;
                if (h->level == SOL_SOCKET && h->type == SCM_RIGHTS)
                        for (unsigned long k = 0; k < (h->len - sizeof(struct cmsg)) / sizeof(int); k++) {
                                int fd = ((int *) (ctl.buf + o + sizeof(struct cmsg)))[k];
                                if (n_fds < SBX_SVC_N_FDS * 2)
                                        fds[n_fds++] = fd;
                                else
                                        close_fd(fd);
                        }
                o += (h->len + 7) & ~7UL;
        }
        search = r == sizeof(req) && (req.flags & SBX_SVC_SEARCH);
        if (r != sizeof(req) || (mh.flags & (MSG_TRUNC | MSG_CTRUNC)) || n_fds != SBX_SVC_N_FDS - search ||
            req.magic != SBX_SVC_MAGIC || req.version != SBX_SVC_VERSION || req.n_argv < 1 ||
            req.n_argv > SBX_SVC_MAX_STRINGS || req.n_env > SBX_SVC_MAX_STRINGS || req.len < 2 ||
            req.len > SBX_SVC_MAX_DATA)
                goto out;
        /* the region: guard page, stack, plan, the strings, the argv and envp arrays */
        strings = PAGE + CHILD_STACK + ((sizeof(*plan) + 15) & ~15UL);
        size = strings + ((req.len + 7) & ~7UL) + (req.n_argv + req.n_env + 2) * sizeof(char *);
        size = size <= REGION_SIZE ? REGION_SIZE : (size + PAGE - 1) & ~(PAGE - 1);
        mem = region_get(size);
        if (!mem)
                goto out;
        plan = (struct child_plan *) (mem + PAGE + CHILD_STACK);
        buf = mem + strings;
        while (off < req.len) {
                unsigned long want = req.len - off < SBX_SVC_CHUNK ? req.len - off : SBX_SVC_CHUNK;
                r = sys6(SYS_recvfrom, c, (long) (buf + off), (long) want, MSG_TRUNC, 0, 0);
                if (r <= 0 || (unsigned long) r > want)
                        goto out;
                off += (unsigned long) r;
        }
        if (buf[req.len - 1] != '\0')
                goto out;
        for (unsigned long i = 0; i < req.len; i++)
                nul += buf[i] == '\0';
        if ((unsigned long) nul != 1 + (unsigned long) req.n_argv + req.n_env + search)
                goto out;
        argv = (char **) (buf + ((req.len + 7) & ~7UL));
        envp = argv + req.n_argv + 1;
        {
                char *p = buf;
                while (*p)
                        p++;
                p++;                    /* after workdir */
                for (unsigned i = 0; i < req.n_argv + req.n_env; i++) {
                        char **dst = i < req.n_argv ? &argv[i] : &envp[i - req.n_argv];
                        *dst = p;
                        while (*p)
                                p++;
                        p++;
                }
                argv[req.n_argv] = 0;
                envp[req.n_env] = 0;
                path = p;       /* SBX_SVC_SEARCH: the last string */
        }
        for (int i = 0; i < SBX_SVC_N_FDS; i++)
                plan->fds[i] = !search ? fds[i] : i == SBX_SVC_FD_EXEC ? -1 : fds[i < SBX_SVC_FD_EXEC ? i : i - 1];
        plan->flags = req.flags;
        plan->workdir = buf;
        plan->path = path;
        plan->argv = argv;
        plan->envp = envp;
        slots[slot].in_use = 1;
        pid = nolibc_clone_on(CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD, mem + PAGE + CHILD_STACK,
                              &slots[slot].in_use, child, plan);
        if (pid == -EPERM || pid == -EINVAL || pid == -ENOSYS) {
                /* a filter that refuses CLONE_VM: a fork, its memory a copy of ours */
                slots[slot].in_use = 0;
                pid = nolibc_clone_on(SIGCHLD, mem + PAGE + CHILD_STACK, 0, child, plan);
        }
        /* no child (EAGAIN: the sandbox at its pids limit): the host is told why */
        if (pid < 0)
                send_child(plan->fds[SBX_SVC_FD_SYNC], SBX_SVC_FAILED, SBX_SVC_STEP_FORK, pid, -1);
out:
        for (int i = 0; i < n_fds; i++)
                close_fd(fds[i]);
        if (pid > 0) {
                slots[slot].pid = (int) pid;
                slots[slot].conn = c;
                slots[slot].mem = mem;
                slots[slot].mem_size = size;
                if (slot >= slots_used)
                        slots_used = slot + 1;
        } else {
                slots[slot].in_use = 0;
                if (mem)
                        region_put(mem, size);
                close_fd(c);   /* the client sees EOF: refused */
        }
}

static void serve(int lfd) {
        struct peercred cred = { .pid = -1 };
        struct timeval_k tv = { .sec = SBX_SVC_TIMEOUT_SEC };
        int len = sizeof(cred), slot = -1;
        long c = sys(SYS_accept4, lfd, 0, 0, O_CLOEXEC);

        if (c < 0)
                return;
        regions_collect();
        /* free: no command, and no child in the slot's region (one the
         * client hung up on may not have left it yet) */
        for (int i = 0; i < SBX_SVC_MAX_EXECS && slot < 0; i++)
                if (i >= slots_used || (slots[i].pid == 0 && !slots[i].mem))
                        slot = i;
        /* Only a peer outside our pid namespace (pid 0 here): the socket
         * lives where no sandboxed process can see it; this is the second
         * lock. Full: refused, the client says so. */
        if (slot < 0 || sys6(SYS_getsockopt, c, SOL_SOCKET, SO_PEERCRED, (long) &cred, (long) &len, 0) < 0 ||
            cred.pid != 0 || sys6(SYS_setsockopt, c, SOL_SOCKET, SO_RCVTIMEO, (long) &tv, sizeof(tv), 0) < 0) {
                close_fd((int) c);
                return;
        }
        serve_request((int) c, slot);
}

/* "G" on fd 0, with the exec service's listening socket attached (none: an
 * sbx without the service started us). */
static int handshake(int *ret_lfd) {
        char go = 0;
        struct iov iov = { &go, 1 };
        union {
                struct cmsg h;
                char buf[sizeof(struct cmsg) + 8];
        } ctl;
        struct mhdr mh = { .iov = &iov, .iovlen = 1, .control = &ctl, .controllen = sizeof(ctl) };

        *ret_lfd = -1;
        if (sys(SYS_recvmsg, 0, &mh, MSG_CMSG_CLOEXEC, 0) != 1 || go != 'G')
                return -1;
        if (mh.controllen >= sizeof(struct cmsg) + sizeof(int) && ctl.h.level == SOL_SOCKET &&
            ctl.h.type == SCM_RIGHTS && ctl.h.len == sizeof(struct cmsg) + sizeof(int))
                *ret_lfd = *(int *) (ctl.buf + sizeof(struct cmsg));
        return 0;
}

/* Our stack, in .bss (issue 16: memory of an idle sandbox): nolibc_main()
 * moves here and init_main() unmaps what the kernel mapped beside our
 * binary, none of which we use: its stack (argv, environment, auxv), from
 * 8 MiB below the stack pointer it gave us (the stack's limit; only the gap
 * to the mmap area lies below) up to the end of the strings on it (the last
 * one, AT_EXECFN's file name, ends 8 bytes below its top); and the vDSO
 * with its data pages (raw syscalls, no signal handler), the only mappings
 * of our mmap area: 1 MiB either side of AT_SYSINFO_EHDR. Their pages and
 * the page tables of both corners of the address space are freed. */
__attribute__((aligned(4096))) static char init_stack[16384];

static void drop_kernel_mappings(long *sp) {
        unsigned long *p = (unsigned long *) sp;
        unsigned long argc = *p++, top = 0, vdso = 0, lo;
        const char *execfn;

        p += argc + 1;                   /* argv, NULL */
        while (*p++)                     /* envp, NULL */
                ;
        for (; p[0] != 0; p += 2) {      /* auxv up to AT_NULL */
                if (p[0] == 33 /* AT_SYSINFO_EHDR */)
                        vdso = p[1] & ~4095UL;
                if (p[0] == 31 /* AT_EXECFN */) {
                        for (execfn = (const char *) p[1]; *execfn; execfn++)
                                ;
                        top = ((unsigned long) execfn + 1 + 8 + 4095) & ~4095UL;
                }
        }
        if (vdso > (1UL << 20))
                sys(SYS_munmap, vdso - (1UL << 20), 2UL << 20, 0, 0);
        if (!top)
                return;
        lo = ((unsigned long) sp & ~4095UL) - (8UL << 20);
        sys(SYS_munmap, lo, top - lo, 0, 0);
}

static _Noreturn void init_main(long *sp);

_Noreturn void nolibc_main(long *sp) {
        nolibc_on_stack(init_stack + sizeof(init_stack), (void (*)(long *)) init_main, sp);
}

static _Noreturn void init_main(long *sp) {
        unsigned long all = ~0UL;
        struct signalfd_siginfo info;
        int lfd, sfd;

        drop_kernel_mappings(sp);

        /* kill(-1) below must only ever reach a sandbox: refuse to run as
         * anything but pid 1 of a pid namespace. */
        if (sys(SYS_getpid, 0, 0, 0, 0) != 1) {
                static const char msg[] = "sbx-init: the pid 1 of a persistent sandbox, started by 'sbx create' "
                                          "and 'sbx start'; it does not run on its own (see 'sbx create --help')\n";
                sys(SYS_write, 2, (long) msg, sizeof(msg) - 1, 0);
                quit(127);
        }
        /* Not dumpable: the sandbox's processes have our ids, and through
         * /proc/1/mem could rewrite us (stop the sandbox from inside, or
         * answer its owner's signals as they please). ptrace is refused by
         * the filter; this closes /proc/1/mem, /proc/1/environ, /proc/1/fd
         * (the exec service's socket) and the like. The children we fork
         * inherit it until their exec. */
        if (sys(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0) < 0)
                quit(1);
        inherited_read();
        /* "G" on stdin: sbx recorded our pid (a crash cleanup can find us).
         * EOF: it died first; so do we (its parent-death signal may not
         * have reached us yet). */
        if (handshake(&lfd) < 0)
                quit(1);
        /* Outlive the sbx that launched us (see the top comment). */
        sys(SYS_prctl, PR_SET_PDEATHSIG, 0, 0, 0);
        sys(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8);
        sfd = (int) sys(SYS_signalfd4, -1, &all, 8, O_CLOEXEC | O_NONBLOCK);
        if (sfd < 0 || sys(SYS_write, 1, "R", 1, 0) != 1)
                quit(1);
        /* No fd of sbx's stays open: the sandbox holds nothing of the caller. */
        sys(SYS_close, 0, 0, 0, 0);
        sys(SYS_close, 1, 0, 0, 0);
        sys(SYS_close, 2, 0, 0, 0);
        sys(SYS_prctl, PR_SET_NAME, "sbx-init", 0, 0);

        for (;;) {
                int n = 0;

                send_exits();
                pfd[0] = (struct pollfd) { .fd = sfd, .events = POLLIN };
                pfd[1] = (struct pollfd) { .fd = lfd, .events = POLLIN };
                for (int i = 0; i < slots_used; i++)
                        if (slots[i].pid) {
                                pfd[2 + n] = (struct pollfd) { .fd = slots[i].conn, .events = POLLIN };
                                pfd_slot[n++] = i;
                        }
                if (sys6(SYS_ppoll, (long) pfd, 2 + n, 0, 0, 0, 0) < 0)
                        continue;
                for (int k = 0; k < n; k++)
                        if (pfd[2 + k].revents && slots[pfd_slot[k]].pid)
                                hangup(pfd_slot[k]);
                if (pfd[1].revents & POLLIN)
                        serve(lfd);
                while (sys(SYS_read, sfd, &info, sizeof(info), 0) == sizeof(info)) {
                        int sig = (int) info.ssi_signo;
                        if (sig == SIGCHLD) {
                                reap();
                                continue;
                        }
                        /* Only kill()/tgkill() from outside our pid namespace count:
                         * for those (SI_USER, SI_TKILL) the kernel fills in si_pid,
                         * 0 for a sender it cannot name here. Anything else may come
                         * from inside: sigqueue (SI_QUEUE and other negative codes)
                         * lets the sender write si_pid itself, and a signal the
                         * kernel raises (positive codes) can be aimed at us by any
                         * process, e.g. SIGIO with F_SETOWN 1 + F_SETSIG SIGTERM. */
                        if (info.ssi_pid != 0 || (info.ssi_code != SI_USER && info.ssi_code != SI_TKILL))
                                continue;
                        if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGPWR)
                                stop(&all, sig);
                        sys(SYS_kill, -1, sig, 0, 0);
                }
        }
}

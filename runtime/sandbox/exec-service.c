/* SPDX-License-Identifier: MIT */
/* sbx exec through the sandbox's init (issue 16; the records are in
 * exec-service.h, init's side in init.c).
 *
 * Why: a joined exec (join.c) pays for setns into seven namespaces, a
 * process migration into the sandbox's cgroups (cgroup v1: one write per
 * hierarchy, each waiting for an RCU grace period), a new Landlock ruleset
 * and a seccomp load. init already sits in all of them: a child it forks
 * inherits every one, so an exec costs a fork of a few-KiB process.
 *
 * The design: the listening socket is bound in the sandbox's state dir,
 * which only the host sees (socket mode 0700: its owner only, dir 0711, never mounted
 * into the sandbox), so only the sandbox's owner can connect; init also
 * refuses peers inside its pid namespace. The host decides everything as a
 * joined exec does (record, locks, argv/env/workdir, the command resolved
 * and decided in the sandbox's tree, through /proc/<init>/root) and sends
 * the request with the caller's stdio and the decided file's fd. init only
 * forks and runs the fixed plan. Nothing from init is trusted here: the
 * child's pid comes from the kernel (SCM_CREDENTIALS) and must be init's
 * child; a pty master must be a pty master; statuses and errnos are range
 * checked; any other fd is closed. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "launch/launch.h"
#include "util/util.h"
#include "exec-service.h"
#include "sandbox-internal.h"

#define SVC_TIMEOUT_MS 30000
#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76         /* Linux 6.5 */
#endif
#ifndef SCM_PIDFD
#define SCM_PIDFD 0x04
#endif

const char *sbx_exec_service_refusal(const sbx_sandbox *s) {
        if (s->policy.agent)
                return "an agent's policy: every exec goes through its exec log";
        if (s->config.exec_allow_set || s->config.exec_refused_rule)
                return "an exec allowlist: Landlock's execute rights are the command's";
        return NULL;
}

const char *sbx_sandbox_exec_via(const sbx_sandbox *s) {
        char path[PATH_MAX];
        struct stat st;

        if (s->state != SBX_SANDBOX_RUNNING || !s->state_dir)
                return NULL;
        if (sbx_exec_service_refusal(s))
                return "setns";
        if (s->exec_sock != SBX_EXEC_SOCK_UNKNOWN)
                return s->exec_sock == SBX_EXEC_SOCK_YES ? "service" : "setns";
        snprintf(path, sizeof(path), "%s/" SBX_SVC_SOCKET, s->state_dir);
        return lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) ? "service" : "setns";
}

int sbx_exec_service_describe(const sbx_record *rec, const char *dir, sbx_error *reterr) {
        const sbx_sandbox *s = &rec->s;
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_free_ char *buf = NULL;
        char *argv[] = { (char *) "sh", NULL }, path[PATH_MAX + 32], *at;
        sbx_run_config v = s->config;   /* a view: nothing here is freed */
        struct sbx_svc_fast f = { .magic = SBX_SVC_FAST_MAGIC, .version = SBX_SVC_VERSION };
        size_t len;
        int r;

        snprintf(path, sizeof(path), "%s/" SBX_SVC_FAST_FILE, dir);
        if (!rec->complete || rec->starting || s->state != SBX_SANDBOX_RUNNING || s->init_pid <= 0 ||
            sbx_exec_service_refusal(s)) {
                if (unlink(path) < 0 && errno != ENOENT)
                        return sbx_error_set(reterr, -errno, "sandbox '%s': remove '%s'", s->name, path);
                return 0;
        }
        /* what prepare() in join.c makes of a request with no options */
        v.argv = argv;
        v.tty = false;
        p = sbx_plan_new();
        if (!p)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        r = sbx_exec_prepare(p, &v, reterr);
        if (r < 0)
                return r;
        len = strlen(p->workdir) + 1 + strlen(p->path_env) + 1;
        for (size_t i = 0; p->envp[i]; i++, f.n_env++)
                len += strlen(p->envp[i]) + 1;
        if (len > SBX_SVC_MAX_DATA || f.n_env > SBX_SVC_MAX_STRINGS || !(buf = malloc(sizeof(f) + len)))
                return sbx_error_set(reterr, -E2BIG, "sandbox '%s': its environment exceeds %u bytes", s->name,
                                     SBX_SVC_MAX_DATA);
        f.len = (uint32_t) len;
        memcpy(buf, &f, sizeof(f));
        at = stpcpy(buf + sizeof(f), p->workdir) + 1;
        at = stpcpy(at, p->path_env) + 1;
        for (size_t i = 0; p->envp[i]; i++)
                at = stpcpy(at, p->envp[i]) + 1;
        /* 0600 in the host-only state dir: it holds the sandbox's environment */
        r = sbx_write_file_atomic(path, buf, sizeof(f) + len, 0600, false);
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': write '%s'", s->name, path);
        return 0;
}

/* <dir>/exec.sock by a path that fits sun_path whatever dir's length. */
static int service_addr(const char *dir, int *ret_dirfd, struct sockaddr_un *sa, sbx_error *reterr) {
        int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "exec service: open '%s'", dir);
        *sa = (struct sockaddr_un) { .sun_family = AF_UNIX };
        snprintf(sa->sun_path, sizeof(sa->sun_path), "/proc/self/fd/%d/" SBX_SVC_SOCKET, dfd);
        *ret_dirfd = dfd;
        return 0;
}

int sbx_exec_service_listen(const char *dir, int *ret_fd, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        struct sockaddr_un sa;
        mode_t old;
        int r;

        r = service_addr(dir, &dfd, &sa, reterr);
        if (r < 0)
                return r;
        (void) unlinkat(dfd, SBX_SVC_SOCKET, 0);
        fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "exec service: socket");
        old = umask(0077);
        r = bind(fd, (struct sockaddr *) &sa, sizeof(sa));
        umask(old);
        if (r < 0 || listen(fd, 64) < 0)
                return sbx_error_set(reterr, -errno, "exec service: listen on '%s/" SBX_SVC_SOCKET "'", dir);
        *ret_fd = TAKE_FD(fd);
        return 0;
}

int sbx_exec_service_connect(const char *dir, int *ret_fd, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        struct sockaddr_un sa;
        struct stat st;
        int r;

        r = service_addr(dir, &dfd, &sa, reterr);
        if (r < 0)
                return r;
        if (fstatat(dfd, SBX_SVC_SOCKET, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? -ENOENT : sbx_error_set(reterr, -errno, "exec service: '%s/%s'", dir,
                                                                 SBX_SVC_SOCKET);
        if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid())
                return sbx_error_set(reterr, -EPERM, "exec service: '%s/%s' is not our socket", dir, SBX_SVC_SOCKET);
        fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "exec service: socket");
        /* refused: nobody listens (an sbx-init older than its sbx) */
        if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0)
                return errno == ECONNREFUSED ? -ECONNREFUSED :
                       sbx_error_set(reterr, -errno, "exec service: connect to '%s/%s'", dir, SBX_SVC_SOCKET);
        *ret_fd = TAKE_FD(fd);
        return 0;
}

bool sbx_exec_service_fits(const sbx_plan *p) {
        size_t len = strlen(p->workdir) + 1, n = 0;

        for (; p->exec_argv[n]; n++)
                len += strlen(p->exec_argv[n]) + 1;
        for (size_t i = 0; p->envp[i]; i++, n++)
                len += strlen(p->envp[i]) + 1;
        return len <= SBX_SVC_MAX_DATA && n <= SBX_SVC_MAX_STRINGS;
}

/* workdir, argv, env: the request's strings. */
static char *request_data(const sbx_plan *p, uint32_t *ret_len, uint32_t *ret_argc, uint32_t *ret_envc) {
        size_t len = strlen(p->workdir) + 1, argc = 0, envc = 0;
        char *buf, *at;

        for (; p->exec_argv[argc]; argc++)
                len += strlen(p->exec_argv[argc]) + 1;
        for (; p->envp[envc]; envc++)
                len += strlen(p->envp[envc]) + 1;
        if (len > SBX_SVC_MAX_DATA || argc + envc > SBX_SVC_MAX_STRINGS || (at = buf = malloc(len)) == NULL)
                return NULL;
        at = stpcpy(at, p->workdir) + 1;
        for (size_t i = 0; i < argc; i++)
                at = stpcpy(at, p->exec_argv[i]) + 1;
        for (size_t i = 0; i < envc; i++)
                at = stpcpy(at, p->envp[i]) + 1;
        *ret_len = (uint32_t) len;
        *ret_argc = (uint32_t) argc;
        *ret_envc = (uint32_t) envc;
        return buf;
}

static int send_request(int conn, const sbx_plan *p, const sbx_exec_request *req, int sync_child, bool no_go,
                        sbx_error *reterr) {
        _cleanup_free_ char *data = NULL;
        struct sbx_svc_request h = { .magic = SBX_SVC_MAGIC, .version = SBX_SVC_VERSION };
        int fds[SBX_SVC_N_FDS] = { STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, p->exec_fd, sync_child };
        ssize_t sent;

        data = request_data(p, &h.len, &h.n_argv, &h.n_env);
        if (!data)
                return sbx_error_set(reterr, -E2BIG, "exec: the command and environment exceed %u bytes",
                                     SBX_SVC_MAX_DATA);
        mode_t mask = umask(0);

        umask(mask);
        h.flags = (req->tty ? SBX_SVC_TTY : 0) | (!req->tty && req->stdin_mode != SBX_STDIN_INHERIT ? SBX_SVC_STDIN_NULL : 0) |
                  (no_go ? SBX_SVC_NO_GO : 0) | SBX_SVC_UMASK | ((uint32_t) (mask & 0777) << SBX_SVC_UMASK_SHIFT);
        sent = sbx_send_fds(conn, &h, sizeof(h), fds, SBX_SVC_N_FDS);
        if (sent != sizeof(h))
                return sbx_error_set(reterr, sent < 0 ? (int) sent : -EIO, "exec service: send the request");
        for (uint32_t off = 0; off < h.len;) {
                size_t n = h.len - off < SBX_SVC_CHUNK ? h.len - off : SBX_SVC_CHUNK;
                if (send(conn, data + off, n, MSG_NOSIGNAL) != (ssize_t) n)
                        return sbx_error_set(reterr, -errno, "exec service: send the request");
                off += (uint32_t) n;
        }
        return 0;
}

/* The parent pid of a live process, from /proc/<pid>/stat (after the comm,
 * which may hold anything, up to its last ')'). */
static pid_t proc_ppid(pid_t pid) {
        char path[64], buf[1024], *rp;
        _cleanup_close_ int fd = -EBADF;
        ssize_t n;
        int ppid;
        char state;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
                return -1;
        buf[n] = '\0';
        rp = strrchr(buf, ')');
        if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2)
                return -1;
        return ppid;
}

/* One record from init's child; *ret_fd: the one fd it may carry, *ret_pid
 * and *ret_pidfd: the sender as the kernel names it (pidfd: with
 * SO_PASSPIDFD, else -EBADF). 0, -EPIPE (EOF), -ETIMEDOUT or -EPROTO.
 * Extra fds are closed. */
static int recv_child(int fd, int timeout_ms, struct sbx_svc_child *ret, int *ret_fd, pid_t *ret_pid,
                      int *ret_pidfd) {
        union {
                struct cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int) * 4) + CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
        } ctl;
        struct iovec iov = { ret, sizeof(*ret) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;
        int r;

        *ret_fd = *ret_pidfd = -EBADF;
        *ret_pid = 0;
        do
                r = poll(&pfd, 1, timeout_ms);
        while (r < 0 && errno == EINTR);
        n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (n == 0)
                return -EPIPE;
        for (struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                        for (size_t i = 0; i < k; i++) {
                                int got;
                                memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                                if (*ret_fd < 0 && i == 0)
                                        *ret_fd = got;
                                else
                                        close(got);
                        }
                } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_PIDFD &&
                           c->cmsg_len >= CMSG_LEN(sizeof(int)) && *ret_pidfd < 0) {
                        memcpy(ret_pidfd, CMSG_DATA(c), sizeof(int));
                } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
                           c->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
                        struct ucred cr;
                        memcpy(&cr, CMSG_DATA(c), sizeof(cr));
                        *ret_pid = cr.pid;
                }
        }
        if (n != sizeof(*ret) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || ret->magic != SBX_SVC_MAGIC) {
                closep(ret_fd);
                closep(ret_pidfd);
                *ret_fd = *ret_pidfd = -EBADF;
                return r == 0 ? -ETIMEDOUT : -EPROTO;
        }
        return 0;
}

/* A pty master of a devpts instance, and nothing else. */
static bool is_pty_master(int fd) {
        struct stat st;
        unsigned n;

        return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 5 && minor(st.st_rdev) == 2 &&
               ioctl(fd, TIOCGPTN, &n) == 0;
}

/* SBX_SVC_FAILED: the step's message, the status a joined exec gives. */
static int child_failed(const struct sbx_svc_child *m, const sbx_plan *p, sbx_error *reterr) {
        int err = m->err > 0 && m->err < 4096 ? -m->err : -EPROTO;

        switch (m->step) {
        case SBX_SVC_STEP_STDIO:
                return sbx_error_set(reterr, err, "exec: stdin/stdout/stderr in the sandbox"), SBX_EXIT_FAILURE;
        case SBX_SVC_STEP_TTY:
                return sbx_error_set(reterr, err, "tty: a pty from the sandbox's devpts"), SBX_EXIT_FAILURE;
        case SBX_SVC_STEP_SESSION:
                return sbx_error_set(reterr, err, "setsid"), SBX_EXIT_FAILURE;
        case SBX_SVC_STEP_CHDIR:
                return sbx_error_set(reterr, err, "--workdir: chdir '%s'", p->workdir), SBX_EXIT_FAILURE;
        case SBX_SVC_STEP_EXEC:
                sbx_error_set(reterr, err, "exec '%s'", p->exec_argv[0]);
                return err == -ENOENT ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_EXEC;
        default:
                return sbx_error_set(reterr, -EPROTO, SBX_SVC_MSG_BAD_RECORD),
                       SBX_EXIT_FAILURE;
        }
}

/* The child went without READY (ERR 0), or init could not fork it (ERR its errno):
 * init did not run the command. The sandbox at its pids limit is named as such. */
static int not_run(const sbx_record *rec, int err, sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup *cg = calloc(1, sizeof(*cg));
        uint64_t max = 0;
        int full = cg && rec->cgroup && sbx_cgroup_open_path(rec->cgroup, cg, NULL) == 0 &&
                   sbx_cgroup_pids_at_max(cg, &max) > 0;

        if (cg)
                closep(&cg->dirfd);
        if (full)
                return sbx_error_set(reterr, -EAGAIN, SBX_SVC_MSG_PIDS_MAX, rec->s.name, (unsigned long long) max),
                       SBX_EXIT_FAILURE;
        if (err < 0)
                return sbx_error_set(reterr, err, "exec: sandbox '%s': its init could not fork the command: %s",
                                     rec->s.name, strerror(-err)), SBX_EXIT_FAILURE;
        return sbx_error_set(reterr, -ECHILD, SBX_SVC_MSG_NOT_RUN, rec->s.name), SBX_EXIT_FAILURE;
}

/* Until the child says it is about to exec: its pty (-t), then READY. The
 * command's pidfd: the one the kernel attached (SO_PASSPIDFD: the child goes
 * on without waiting), else one we open from the pid the kernel named, check
 * to be a child of the sandbox's init, and only then let the child go on. */
static int wait_ready(int sync, const sbx_record *rec, sbx_plan *p, bool tty, bool no_go, int *ret_pidfd,
                      pid_t *ret_pid, sbx_error *reterr) {
        struct sbx_svc_child m;
        _cleanup_close_ int pidfd = -EBADF;
        int fd, r;
        pid_t pid;

        for (;;) {
                closep(&pidfd);
                r = recv_child(sync, SVC_TIMEOUT_MS, &m, &fd, &pid, &pidfd);
                if (r == -EPIPE)
                        return not_run(rec, 0, reterr);
                if (r < 0)
                        return sbx_error_set(reterr, r, "exec service: sandbox '%s'", rec->s.name), SBX_EXIT_FAILURE;
                if (m.type == SBX_SVC_PTY && tty && fd >= 0 && p->tty_master < 0 && is_pty_master(fd)) {
                        sbx_tty_attach(p, fd);
                        continue;
                }
                closep(&fd);
                fd = -EBADF;
                if (m.type == SBX_SVC_FAILED && m.step == SBX_SVC_STEP_FORK)
                        return not_run(rec, m.err > 0 && m.err < 4096 ? -m.err : -EPROTO, reterr);
                if (m.type == SBX_SVC_FAILED)
                        return child_failed(&m, p, reterr);
                /* (no pidfd with no_go: the command was reaped already) */
                if (m.type == SBX_SVC_READY && pid > 0)
                        break;
                return sbx_error_set(reterr, -EPROTO, SBX_SVC_MSG_BAD_RECORD),
                       SBX_EXIT_FAILURE;
        }
        if (!no_go) {
                pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
                /* checked after the pidfd exists: it stays that process */
                if (pidfd < 0 || proc_ppid(pid) != rec->s.init_pid)
                        return sbx_error_set(reterr, -ESRCH, "exec service: the command's process (pid %d) is not a "
                                             "child of sandbox '%s''s init", (int) pid, rec->s.name),
                               SBX_EXIT_FAILURE;
                if (send(sync, (char[]) { SBX_SVC_GO }, 1, MSG_NOSIGNAL) != 1)
                        return sbx_error_set(reterr, -errno, "exec service: start the command"), SBX_EXIT_FAILURE;
        }
        *ret_pidfd = TAKE_FD(pidfd);
        *ret_pid = pid;
        return 0;
}

/* init's word on how the command ended: 0-255, or 128 + signal. */
int sbx_exec_service_status(int conn, const char *name, sbx_error *reterr) {
        struct sbx_svc_exit e;
        struct pollfd pfd = { .fd = conn, .events = POLLIN };
        ssize_t n = -1;
        int r, code;

        do
                r = poll(&pfd, 1, SVC_TIMEOUT_MS);
        while (r < 0 && errno == EINTR);
        if (r > 0)
                n = recv(conn, &e, sizeof(e), MSG_DONTWAIT | MSG_TRUNC);
        if (n == 0 || (n < 0 && r > 0 && errno == ECONNRESET)) {
                sbx_error_set(reterr, -ECHILD, SBX_SVC_MSG_STOPPED, name);
                return SBX_EXIT_FAILURE;
        }
        if (n != sizeof(e) || e.magic != SBX_SVC_MAGIC)
                return sbx_error_set(reterr, r == 0 ? -ETIMEDOUT : -EPROTO, SBX_SVC_MSG_NO_STATUS, name),
                       SBX_EXIT_FAILURE;
        code = sbx_svc_exit_code(e.wstatus);
        if (code >= 0)
                return code;
        return sbx_error_set(reterr, -EPROTO, SBX_SVC_MSG_BAD_STATUS, name), SBX_EXIT_FAILURE;
}

int sbx_exec_service_run(int conn, const sbx_record *rec, sbx_plan *p, const sbx_exec_request *req, int *lockfd,
                         sbx_error *reterr) {
        _cleanup_close_ int sync_host = -EBADF, sync_child = -EBADF, pidfd = -EBADF;
        struct sbx_svc_child m;
        sigset_t oldmask;
        pid_t pid = 0;
        int fds[2], one = 1, status, fd = -EBADF, late_pidfd = -EBADF;
        bool no_go;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) < 0)
                return sbx_error_set(reterr, -errno, "exec service: socketpair"), SBX_EXIT_FAILURE;
        sync_host = fds[0];
        sync_child = fds[1];
        if (setsockopt(sync_host, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0)
                return sbx_error_set(reterr, -errno, "exec service: SO_PASSCRED"), SBX_EXIT_FAILURE;
        /* A pidfd of the child with its READY: it need not wait for us. */
        no_go = setsockopt(sync_host, SOL_SOCKET, SO_PASSPIDFD, &one, sizeof(one)) == 0;
        /* Forwarded signals wait for the supervisor from here on. */
        if (sbx_supervise_block_signals(&oldmask) < 0)
                return sbx_error_set(reterr, -errno, "exec: sigprocmask"), SBX_EXIT_FAILURE;
        if (send_request(conn, p, req, sync_child, no_go, reterr) < 0) {
                (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
                return SBX_EXIT_FAILURE;
        }
        closep(&sync_child);
        sync_child = -EBADF;
        status = wait_ready(sync_host, rec, p, req->tty, no_go, &pidfd, &pid, reterr);
        if (status != 0) {
                (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
                return status;
        }
        /* Running: rm may take the sandbox from here on (and kill it with it). */
        closep(lockfd);
        *lockfd = -EBADF;
        status = sbx_exec_supervise(pidfd, pid, p->tty_master, conn, rec->s.name, reterr);
        (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
        /* An exec that failed after READY: the child said why before exiting. */
        if (no_go && recv_child(sync_host, 0, &m, &fd, &pid, &late_pidfd) == 0 && m.type == SBX_SVC_FAILED)
                status = child_failed(&m, p, reterr);
        closep(&fd);
        closep(&late_pidfd);
        return status;
}

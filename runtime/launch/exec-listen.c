/* SPDX-License-Identifier: MIT */
/* The exec log (issue 14): a seccomp user-notification listener that sees
 * every execve/execveat of a joined exec's process tree, grandchildren
 * included, and logs it with pid, path, argv (bounded) and the verdict of
 * the sandbox's rules.
 *
 * Who holds the listener: a small process forked by `sbx exec` before it
 * joins the sandbox, so it lives in the host's namespaces, outside every
 * restriction of the sandbox, and is never reachable from inside (the
 * sandbox's init never holds it: init is inside). It outlives the client
 * (background processes of the exec keep being logged) and exits when the
 * kernel reports the filter unused (POLLHUP: the whole tree is gone). If it
 * dies, the kernel fails every later execve/execveat of the tree with ENOSYS:
 * exec fails closed.
 *
 * Landlock stays the boundary: what the listener reads from the target's
 * memory can change after it read it (TOCTOU, see SECURITY.md), so its
 * verdict is a record, not the enforcement. It answers CONTINUE for an
 * allowed exec, and EACCES for one the rules refuse (the same answer the
 * kernel's Landlock check would give, earlier; a path swapped after our read
 * still meets Landlock). */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "security/security.h"
#include "launch.h"

#define ARGV_MAX 32            /* arguments logged per exec */
#define ARG_MAX_LEN 256        /* bytes logged per argument */

#ifndef SECCOMP_IOCTL_NOTIF_RECV
#define SECCOMP_IOCTL_NOTIF_RECV SECCOMP_IOWR(0, struct seccomp_notif)
#define SECCOMP_IOCTL_NOTIF_SEND SECCOMP_IOWR(1, struct seccomp_notif_resp)
#define SECCOMP_IOCTL_NOTIF_ID_VALID SECCOMP_IOW(2, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif

/* A NUL-terminated string of the target at addr, read page by page (a
 * string may end just before an unmapped page). */
static int read_str(int mem, uint64_t addr, char *buf, size_t len) {
        size_t got = 0;

        if (!addr)
                return -EFAULT;
        while (got + 1 < len) {
                size_t chunk = 4096 - ((addr + got) & 4095);
                ssize_t n;
                if (chunk > len - 1 - got)
                        chunk = len - 1 - got;
                n = pread(mem, buf + got, chunk, (off_t) (addr + got));
                if (n <= 0)
                        return -EFAULT;
                if (memchr(buf + got, '\0', (size_t) n))
                        return 0;
                got += (size_t) n;
        }
        buf[len - 1] = '\0';
        return 1;       /* truncated */
}

typedef struct seen {
        char path[PATH_MAX];
        bool by_fd;                     /* execveat(fd, "", AT_EMPTY_PATH): path is the fd's */
        char args[ARGV_MAX][ARG_MAX_LEN];
        char *argv[ARGV_MAX + 1];
        bool truncated;
        char cwd[PATH_MAX];
} seen;

/* path and argv of one execve/execveat, from /proc/<pid>/mem. */
static int read_exec(const struct seccomp_notif *n, seen *s) {
        char p[64];
        _cleanup_close_ int mem = -EBADF;
        bool at = n->data.nr != (int) SYS_execve;
        uint64_t path = n->data.args[at ? 1 : 0], argv = n->data.args[at ? 2 : 1];
        ssize_t k;
        size_t i;

        snprintf(p, sizeof(p), "/proc/%u/mem", n->pid);
        mem = open(p, O_RDONLY | O_CLOEXEC);
        if (mem < 0)
                return -errno;
        if (read_str(mem, path, s->path, sizeof(s->path)) < 0)
                s->path[0] = '\0';
        /* execveat(fd, "", AT_EMPTY_PATH): the file is the fd */
        if (at && !s->path[0] && (int) n->data.args[0] >= 0) {
                snprintf(p, sizeof(p), "/proc/%u/fd/%d", n->pid, (int) n->data.args[0]);
                k = readlink(p, s->path, sizeof(s->path) - 1);
                s->path[k > 0 ? k : 0] = '\0';
                s->by_fd = true;
        }
        for (i = 0; argv && i < ARGV_MAX; i++) {
                uint64_t ptr = 0;
                if (pread(mem, &ptr, sizeof(ptr), (off_t) (argv + i * sizeof(ptr))) != sizeof(ptr) || !ptr)
                        break;
                if (read_str(mem, ptr, s->args[i], ARG_MAX_LEN) != 0)
                        s->truncated = true;
                s->argv[i] = s->args[i];
        }
        if (i == ARGV_MAX)
                s->truncated = true;
        s->argv[i] = NULL;
        /* relative to a directory fd (execveat), else to the cwd */
        if (at && s->path[0] != '/' && (int) n->data.args[0] >= 0)
                snprintf(p, sizeof(p), "/proc/%u/fd/%d", n->pid, (int) n->data.args[0]);
        else
                snprintf(p, sizeof(p), "/proc/%u/cwd", n->pid);
        k = readlink(p, s->cwd, sizeof(s->cwd) - 1);
        if (k <= 0 || s->cwd[0] != '/')
                snprintf(s->cwd, sizeof(s->cwd), "/");
        else
                s->cwd[k] = '\0';
        return 0;
}

static void answer(int lfd, const struct seccomp_notif *n, struct seccomp_notif_resp *resp, bool allow) {
        memset(resp, 0, sizeof(*resp));
        resp->id = n->id;
        if (allow)
                resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        else
                resp->error = -EACCES;
        (void) ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, resp);
}

/* Under an exec allowlist: a file Landlock's path rules cannot see. A memfd
 * or a deleted file has no path in the sandbox's tree, and /proc/PID/fd/N,
 * /proc/self/exe, /dev/fd/N are magic links to any open file (a memfd
 * included). As root the kernel refuses executable memfds too
 * (vm.memfd_noexec, launch.c); rootless this check is what stops them. */
static bool off_tree(const seen *s, char *rule, size_t len) {
        char abs[PATH_MAX * 2];

        if (s->path[0] == '/')
                snprintf(abs, sizeof(abs), "%s", s->path);
        else
                snprintf(abs, sizeof(abs), "%s/%s", s->cwd, s->path);
        if (strstr(abs, " (deleted)") || !strncmp(abs, "/memfd:", 7) || (s->by_fd && s->path[0] != '/')) {
                snprintf(rule, len, "exec allowlist: '%.200s' is not a file of the sandbox's tree (memfd or "
                         "deleted): Landlock cannot grant it, so it is refused", abs);
                return true;
        }
        if (!strncmp(abs, "/proc/", 6) || !strncmp(abs, "/dev/fd/", 8) || !strncmp(abs, "/dev/std", 8)) {
                snprintf(rule, len, "exec allowlist: '%.200s' goes through a /proc magic link: refused "
                         "(exec the file by its path)", abs);
                return true;
        }
        return false;
}

static bool allowlist_on(const sbx_run_config *c) {
        return c && c->exec_allow_set && !c->exec_refused_rule;
}

static void handle(int lfd, const sbx_run_config *c, const sbx_run_config *now, const sbx_audit *audit,
                   bool log_all, struct seccomp_notif *n, struct seccomp_notif_resp *resp, seen *s) {
        sbx_exec_verdict v = {};
        _cleanup_close_ int root = -EBADF;
        char p[64];

        memset(s, 0, sizeof(*s));
        if (read_exec(n, s) < 0 || ioctl(lfd, SECCOMP_IOCTL_NOTIF_ID_VALID, &n->id) < 0) {
                /* gone, or its memory unreadable: nothing to log; let the
                 * kernel (Landlock) decide, the request may be dead anyway */
                answer(lfd, n, resp, true);
                return;
        }
        snprintf(p, sizeof(p), "/proc/%u/root", n->pid);
        root = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (root < 0 || sbx_exec_decide_path(c, root, s->path, s->cwd, &v) < 0 || !v.decided) {
                v = (sbx_exec_verdict) { .decided = true, .allow = true };
                snprintf(v.rule, sizeof(v.rule), "not resolved by the exec log: left to Landlock");
        }
        if ((allowlist_on(c) || allowlist_on(now)) && off_tree(s, v.rule, sizeof(v.rule))) {
                v.allow = false;
                v.status = SBX_EXIT_CANNOT_EXEC;
                snprintf(v.file, sizeof(v.file), "%s", s->path);
                v.key[0] = '\0';
        }
        /* a stale sandbox: the current rules too, the first refusal wins */
        if (now && v.allow) {
                sbx_exec_verdict w = {};
                if (sbx_exec_decide_path(now, root, s->path, s->cwd, &w) == 0 && w.decided && !w.allow)
                        v = w;
        }
        if (log_all || !v.allow)
                (void) sbx_audit_exec_seen(audit, (int) n->pid, s->path, s->argv, s->truncated, &v);
        /* not found / not executable: the kernel says so itself */
        answer(lfd, n, resp, v.allow || v.status == SBX_EXIT_NOT_FOUND);
}

/* The serving loop, one process for one exec's tree (sbx run, a stale
 * sandbox) or for every exec of a sandbox (the daemon): the listener fds,
 * the daemon's listening socket and its pending connections, and the
 * sandbox's init pidfd (gone: exit once no tree is left). */
typedef struct server {
        int ep;
        int lsock;                      /* daemon: the listening socket, else -EBADF */
        char sock_path[PATH_MAX];       /* daemon: its path (unlinked when init is gone) */
        int init_pidfd;                 /* daemon: -EBADF once init is gone */
        unsigned n_listeners;
        const sbx_run_config *c, *now;
        const sbx_audit *audit;
        bool log_all;
} server;

enum { TAG_LISTENER = 1, TAG_CONN = 2, TAG_LSOCK = 3, TAG_INIT = 4 };

static int watch(server *sv, int fd, uint32_t tag) {
        struct epoll_event e = { .events = EPOLLIN, .data.u64 = ((uint64_t) tag << 32) | (uint32_t) fd };
        return epoll_ctl(sv->ep, EPOLL_CTL_ADD, fd, &e);
}

static void add_listener(server *sv, int lfd) {
        if (watch(sv, lfd, TAG_LISTENER) < 0) {
                close(lfd);     /* its tree's execs fail with ENOSYS: closed, not open */
                return;
        }
        sv->n_listeners++;
}

/* a connection: one SBX_SYNC_LISTENER record with the fd, then EOF */
static void take_conn(server *sv, int conn) {
        sbx_sync_msg msg;
        int lfd = -EBADF;

        if (sbx_sync_recv_fd(conn, 0, &msg, &lfd) == 0 && msg.type == SBX_SYNC_LISTENER && lfd >= 0)
                add_listener(sv, lfd);
        else if (lfd >= 0)
                close(lfd);
        close(conn);
}

static _Noreturn void serve(server *sv) {
        struct seccomp_notif_sizes sizes = {};
        struct seccomp_notif *n;
        struct seccomp_notif_resp *resp;
        seen *s;

        if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
                _exit(1);
        n = calloc(1, sizes.seccomp_notif > sizeof(*n) ? sizes.seccomp_notif : sizeof(*n));
        resp = calloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp : sizeof(*resp));
        s = malloc(sizeof(*s));
        if (!n || !resp || !s)
                _exit(1);
        for (;;) {
                struct epoll_event ev[16];
                int k;

                /* done: no tree left, and (daemon) no init to serve new ones */
                if (sv->n_listeners == 0 && sv->lsock < 0)
                        _exit(0);
                k = epoll_wait(sv->ep, ev, 16, -1);
                if (k < 0 && errno != EINTR)
                        _exit(1);
                for (int i = 0; i < k; i++) {
                        int fd = (int) (uint32_t) ev[i].data.u64;
                        switch (ev[i].data.u64 >> 32) {
                        case TAG_LSOCK: {
                                int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
                                if (conn >= 0 && watch(sv, conn, TAG_CONN) < 0)
                                        close(conn);
                                break;
                        }
                        case TAG_CONN:
                                (void) epoll_ctl(sv->ep, EPOLL_CTL_DEL, fd, NULL);
                                take_conn(sv, fd);
                                break;
                        case TAG_INIT:
                                /* the sandbox stopped: no new exec will come; take
                                 * what is queued, then stop listening */
                                for (int conn; (conn = accept4(sv->lsock, NULL, NULL, SOCK_CLOEXEC)) >= 0;)
                                        take_conn(sv, conn);
                                (void) unlink(sv->sock_path);
                                (void) epoll_ctl(sv->ep, EPOLL_CTL_DEL, sv->lsock, NULL);
                                (void) epoll_ctl(sv->ep, EPOLL_CTL_DEL, fd, NULL);
                                closep(&sv->lsock);
                                sv->lsock = -EBADF;
                                closep(&sv->init_pidfd);
                                sv->init_pidfd = -EBADF;
                                break;
                        case TAG_LISTENER:
                                if (ev[i].events & EPOLLIN) {
                                        memset(n, 0, sizes.seccomp_notif);
                                        if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, n) == 0)
                                                handle(fd, sv->c, sv->now, sv->audit, sv->log_all, n, resp, s);
                                } else if (ev[i].events & (EPOLLHUP | EPOLLERR)) {
                                        /* every process of that tree is gone */
                                        (void) epoll_ctl(sv->ep, EPOLL_CTL_DEL, fd, NULL);
                                        close(fd);
                                        sv->n_listeners--;
                                }
                                break;
                        default:
                                break;
                        }
                }
        }
}

/* The listener process's start: its own session (terminal signals are for
 * the command), quiet stdio (never hold the caller's pipes open), named:
 * "sbx-exec-log [NAME]" is all its cmdline and environ show, not the argv and
 * environment of the exec that forked it (a command line, --env values). */
static void become_listener(const char *name) {
        char title[128];
        int nul;

        (void) setsid();
        (void) prctl(PR_SET_NAME, "sbx-exec-log", 0, 0, 0);
        snprintf(title, sizeof(title), "sbx-exec-log%s%s", name ? " " : "", name ? name : "");
        (void) sbx_proc_set_title(title);
        for (int sig = 1; sig < _NSIG; sig++)
                if (sig != SIGKILL && sig != SIGSTOP)
                        (void) signal(sig, sig == SIGPIPE || sig == SIGINT || sig == SIGHUP ? SIG_IGN : SIG_DFL);
        nul = open("/dev/null", O_RDWR | O_CLOEXEC);
        for (int i = 0; nul >= 0 && i < 3; i++)
                (void) dup2(nul, i);
        if (nul > 2)
                close(nul);
        sbx_exec_resolve_set_proc_fd_dir(-1);
}


int sbx_exec_listener_start(const sbx_run_config *c, const sbx_run_config *now, const sbx_audit *audit, bool log_all,
                            int *ret_sock, pid_t *ret_pid, sbx_error *reterr) {
        int fds[2], r;
        pid_t pid;

        r = sbx_sync_pair(fds, reterr);
        if (r < 0)
                return r;
        /* The listener outlives us if the exec left processes behind (then
         * it is reparented); one fork, nobody waits for it (a zombie at most
         * until we exit). */
        pid = fork();
        if (pid < 0) {
                r = -errno;
                close(fds[0]);
                close(fds[1]);
                return sbx_error_set(reterr, r, "exec log: fork the listener");
        }
        if (pid == 0) {
                server sv = { .lsock = -EBADF, .init_pidfd = -EBADF, .c = c, .now = now, .audit = audit,
                              .log_all = log_all };
                int keep[2] = { fds[1], audit->fd };
                sbx_sync_msg msg;
                int lfd = -EBADF;
                close(fds[0]);
                sbx_close_all_but(keep, 2);
                become_listener(NULL);
                /* one listener, from the socket pair; then serve it */
                if (sbx_sync_recv_fd(fds[1], -1, &msg, &lfd) < 0 || msg.type != SBX_SYNC_LISTENER || lfd < 0)
                        _exit(0);       /* the exec never got that far */
                close(fds[1]);
                sv.ep = epoll_create1(EPOLL_CLOEXEC);
                if (sv.ep < 0)
                        _exit(1);
                add_listener(&sv, lfd);
                serve(&sv);
        }
        close(fds[1]);
        *ret_sock = fds[0];
        if (ret_pid)
                *ret_pid = pid;
        return 0;
}

/* ---- the per-sandbox daemon ---- */

#define LOG_SOCK "exec-log.sock"
#define LOG_LOCK "exec-log.lock"

static int connect_to(const char *path) {
        struct sockaddr_un a = { .sun_family = AF_UNIX };
        int fd;

        if (strlen(path) >= sizeof(a.sun_path))
                return -ENAMETOOLONG;
        strcpy(a.sun_path, path);
        fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if (connect(fd, (struct sockaddr *) &a, sizeof(a)) < 0) {
                int r = -errno;
                close(fd);
                return r;
        }
        return fd;
}

int sbx_exec_log_connect(const char *dir, const sbx_run_config *c, const sbx_audit *audit, int init_pidfd,
                         int *ret_conn, sbx_error *reterr) {
        struct sockaddr_un a = { .sun_family = AF_UNIX };
        char path[PATH_MAX], lock[PATH_MAX];
        _cleanup_close_ int lockfd = -EBADF, lsock = -EBADF, dirfd = -EBADF;
        int fd;
        pid_t pid;

        /* the state dir may be deeper than sun_path allows: name it by an fd */
        dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0)
                return sbx_error_set(reterr, -errno, "exec log: open '%s'", dir);
        snprintf(path, sizeof(path), "/proc/self/fd/%d/" LOG_SOCK, dirfd);
        /* the common case: it runs */
        fd = connect_to(path);
        if (fd >= 0) {
                *ret_conn = fd;
                return 0;
        }
        /* start it, one starter at a time */
        snprintf(lock, sizeof(lock), "%s/" LOG_LOCK, dir);
        lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0)
                return sbx_error_set(reterr, -errno, "exec log: lock '%s'", lock);
        fd = connect_to(path);
        if (fd >= 0) {
                *ret_conn = fd;
                return 0;
        }
        (void) unlink(path);    /* a dead daemon's */
        strcpy(a.sun_path, path);
        lsock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (lsock < 0 || bind(lsock, (struct sockaddr *) &a, sizeof(a)) < 0 || listen(lsock, 64) < 0)
                return sbx_error_set(reterr, -errno, "exec log: listen on '%s'", path);
        pid = fork();
        if (pid < 0)
                return sbx_error_set(reterr, -errno, "exec log: fork the daemon");
        if (pid == 0) {
                server sv = { .lsock = lsock, .init_pidfd = init_pidfd, .c = c, .audit = audit, .log_all = true };
                int keep[3] = { lsock, init_pidfd, audit->fd };
                snprintf(sv.sock_path, sizeof(sv.sock_path), "%s/" LOG_SOCK, dir);
                sbx_close_all_but(keep, 3);
                become_listener(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
                sv.ep = epoll_create1(EPOLL_CLOEXEC);
                if (sv.ep < 0 || watch(&sv, lsock, TAG_LSOCK) < 0 || watch(&sv, init_pidfd, TAG_INIT) < 0)
                        _exit(1);
                serve(&sv);
        }
        fd = connect_to(path);
        if (fd < 0)
                return sbx_error_set(reterr, fd, "exec log: connect to '%s'", path);
        *ret_conn = fd;
        return 0;
}

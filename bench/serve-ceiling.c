/* SPDX-License-Identifier: MIT */
/* serve-ceiling: throwaway servers that measure, by construction, the ceiling
 * of two designs for a cold `sbx run` (issue 16 target 1, session 16; figures
 * in bench/README.md "Target 1, session 16"). Not part of sbx, not secure:
 * no peer check, no policy, no rlimits/umask/cwd/signal handling.
 * bench-serve.sh builds it and times bench/serve-client.c against it.
 *
 *   serve-ceiling null SOCKET      answers "exited 0" at once: the floor of
 *                                  any server (the client's exec, connect,
 *                                  sendmsg of argv and 3 fds, one round trip)
 *   serve-ceiling fork SOCKET      (a) a warm sbx: fork a worker that runs
 *                                  the received argv through sbx's own
 *                                  main() (built with -DSBX_MAIN, linked with
 *                                  libsbx-core.a and runtime/main.c's main
 *                                  renamed): no exec, no ld.so, no glibc start
 *   serve-ceiling premade SOCKET K (b) K children kept waiting in fresh
 *                                  namespaces (sbx's 7, their own id map,
 *                                  / private, a new /proc); each accept()s
 *                                  one connection itself, hands it to the
 *                                  holder (for the exit status), puts the
 *                                  received fds on 0-2, sets no_new_privs and
 *                                  sbx's two precompiled seccomp filters
 *                                  (-DSBX_FILTERS) and execs argv; used once,
 *                                  the holder refills when it has nothing
 *                                  else to do (exit statuses first)
 *   serve-ceiling handover SOCKET K  (b) plus the parts of a real hand-over
 *                                  that premade leaves out (session 16,
 *                                  branch pool16, -DSBX_MAIN builds only):
 *                                  made by the holder per child before any
 *                                  run: a run dir (SOCKET.run.XXXXXX, root/ upper/),
 *                                  the per-run cgroup through sbx's own
 *                                  sbx_cgroup_prepare (the default pids cap,
 *                                  v1 cpu, freezer, pids here), joined by the
 *                                  child through sbx_cgroup_join_self, then a
 *                                  new cgroup ns, and 2 bind mounts (with the
 *                                  host's 24 and /proc: 27, a run's); per run,
 *                                  in the child: RLIMIT_CORE 1/1, every
 *                                  capability dropped (bounding set, capset),
 *                                  close_range(3, ~0), then as premade; per
 *                                  run, in the holder after the exit and
 *                                  before the answer (as `sbx run` before it
 *                                  exits): sbx_cgroup_cleanup (freeze, kill,
 *                                  thaw, rmdir on every hierarchy), the run
 *                                  dir removed, two audit lines appended
 *   serve-ceiling handover-late SOCKET K  the same, the teardown after the
 *                                  answer (the sandbox's pid namespace is
 *                                  empty once its pid 1 was reaped: nothing
 *                                  is left running in the cgroup)
 *   serve-ceiling handover-nocg SOCKET K  handover without the cgroup
 *   serve-ceiling handover-nocpu SOCKET K handover, the child not joining the
 *                                  v1 cpu hierarchy (the first one, where a
 *                                  default run's cgroup lands: its own CFS
 *                                  group) but the others
 *
 * The server answers each connection with the command's 4-byte wait status.
 * SIGTERM: it prints "served N cpu_self_us cpu_children_us minflt_self
 * minflt_children" (getrusage) on
 * stderr and exits, so a bench can charge the server's CPU to the runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static long served;
static volatile sig_atomic_t stop;

static _Noreturn void die(const char *what) {
        fprintf(stderr, "serve-ceiling: %s: %s\n", what, strerror(errno));
        _exit(111);
}

static void on_term(int sig) {
        (void) sig;
        stop = 1;
}

#ifdef SBX_MAIN
static void handover_report(void);
#endif

static void report(void) {
        struct rusage s, c;

        getrusage(RUSAGE_SELF, &s);
        getrusage(RUSAGE_CHILDREN, &c);
        fprintf(stderr, "served %ld %ld %ld %ld %ld\n", served,
                (long) (s.ru_utime.tv_sec + s.ru_stime.tv_sec) * 1000000 + s.ru_utime.tv_usec + s.ru_stime.tv_usec,
                (long) (c.ru_utime.tv_sec + c.ru_stime.tv_sec) * 1000000 + c.ru_utime.tv_usec + c.ru_stime.tv_usec,
                s.ru_minflt, c.ru_minflt);
#ifdef SBX_MAIN
        handover_report();
#endif
}

/* one request: argv (NUL-separated) and 3 fds; argv[] points into buf */
static int recv_request(int conn, char *buf, size_t size, char **argv, size_t max, int fds[3]) {
        union {
                struct cmsghdr h;
                char b[CMSG_SPACE(3 * sizeof(int))];
        } c;
        struct iovec iov = { buf, size - 1 };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof(c.b) };
        ssize_t n = recvmsg(conn, &m, MSG_CMSG_CLOEXEC);
        struct cmsghdr *h = CMSG_FIRSTHDR(&m);
        size_t argc = 0;

        if (n <= 0 || !h || h->cmsg_type != SCM_RIGHTS || h->cmsg_len != CMSG_LEN(3 * sizeof(int)))
                return -1;
        memcpy(fds, CMSG_DATA(h), 3 * sizeof(int));
        buf[n] = '\0';
        for (char *p = buf; p < buf + n && argc + 1 < max; p += strlen(p) + 1)
                argv[argc++] = p;
        argv[argc] = NULL;
        return (int) argc;
}

static int listen_on(const char *path) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
                die("socket");
        strcpy(sa.sun_path, path);
        (void) unlink(path);
        if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || listen(fd, 64) < 0)
                die(path);
        return fd;
}

static void answer(int conn, int status) {
        (void) !write(conn, &status, sizeof(status));
        close(conn);
        served++;
}

#ifdef SBX_MAIN
int sbx_real_main(int argc, char **argv);
#endif

static int serve_null_or_fork(int l, int do_fork) {
        static char buf[8192];
        char *argv[256];
        int fds[3];

        while (!stop) {
                int conn = accept4(l, NULL, NULL, SOCK_CLOEXEC), argc, status = 0;

                if (conn < 0) {
                        if (errno == EINTR)
                                continue;
                        die("accept");
                }
                argc = recv_request(conn, buf, sizeof(buf), argv, 256, fds);
                if (argc < 1) {
                        close(conn);
                        continue;
                }
                if (do_fork) {
                        pid_t pid = fork();

                        if (pid < 0)
                                die("fork");
                        if (pid == 0) {
                                signal(SIGTERM, SIG_DFL);
                                signal(SIGPIPE, SIG_DFL);
                                for (int i = 0; i < 3; i++)
                                        if (dup2(fds[i], i) < 0)
                                                _exit(111);
#ifdef SBX_MAIN
                                exit(sbx_real_main(argc, argv));
#else
                                execvp(argv[0], argv);
                                _exit(127);
#endif
                        }
                        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                                ;
                }
                for (int i = 0; i < 3; i++)
                        close(fds[i]);
                answer(conn, status);
        }
        report();
        return 0;
}

#ifdef SBX_FILTERS
#include "security/seccomp-precompiled.h"
#endif

static __attribute__((unused)) void load(const struct sock_filter *f, unsigned short len) {
        struct sock_fprog prog = { .len = len, .filter = (struct sock_filter *) f };

        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
                die("seccomp");
}

static void write_file(const char *path, const char *s) {
        int fd = open(path, O_WRONLY | O_CLOEXEC);

        if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t) strlen(s))
                die(path);
        close(fd);
}

/* a pre-made sandbox: set up, wait for one connection, exec it */
#ifdef SBX_MAIN
static int handover_mode, handover_nocg, handover_nocpu;
#include <linux/capability.h>
#include "util/util.h"
#include "cgroup/cgroup.h"
struct handover_slot {
        sbx_cgroup cg;
        int tasks[SBX_CGROUP_V1_MAX];
        char dir[300];
};
static char run_base[256];      /* the run dirs: SOCKET.run.XXXXXX, on the state dir's file system */
static struct handover_slot hs[64];
static int audit_fd = -1;

/* the holder, before the run: a run dir and the per-run cgroup */
static void handover_prepare(struct handover_slot *h) {
        sbx_limits lim;
        sbx_error e = {};
        char d[320];

        snprintf(h->dir, sizeof(h->dir), "%s.run.XXXXXX", run_base);
        if (!mkdtemp(h->dir))
                die("mkdtemp");
        snprintf(d, sizeof(d), "%s/root", h->dir);
        if (mkdir(d, 0700) < 0)
                die(d);
        snprintf(d, sizeof(d), "%s/upper", h->dir);
        if (mkdir(d, 0700) < 0)
                die(d);
        sbx_limits_init(&lim);
        for (int i = 0; i < SBX_CGROUP_V1_MAX; i++)
                h->tasks[i] = -1;
        h->cg.n_v1 = 0;
        h->cg.path[0] = '\0';
        h->cg.dirfd = -EBADF;
        if (!handover_nocg && sbx_cgroup_prepare(strrchr(h->dir, '/') + 1, &lim, &h->cg, &e) < 0) {
                errno = -e.code;
                die(e.msg);
        }
        if (!handover_nocg && sbx_cgroup_needs_attach(&h->cg) && sbx_cgroup_open_tasks(&h->cg, h->tasks, &e) < 0) {
                errno = -e.code;
                die(e.msg);
        }
}

/* the holder, after the exit, before the answer: sbx run's teardown */
static long td_n, td_cg[4096], td_rest[4096];
static int cmp_long(const void *a, const void *b) {
        return (*(const long *) a > *(const long *) b) - (*(const long *) a < *(const long *) b);
}
static long now_us(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}
/* the medians of the teardown's two parts, µs, for the report */
static void handover_report(void) {
        if (!td_n)
                return;
        qsort(td_cg, (size_t) td_n, sizeof(long), cmp_long);
        qsort(td_rest, (size_t) td_n, sizeof(long), cmp_long);
        fprintf(stderr, "  handover teardown (median of %ld): sbx_cgroup_cleanup %ld us, run dir + audit %ld us\n",
                td_n, td_cg[td_n / 2], td_rest[td_n / 2]);
}

static void handover_teardown(struct handover_slot *h, int status) {
        char d[320], line[400];
        int n;
        long t0 = now_us(), t1;

        for (unsigned i = 0; i < h->cg.n_v1; i++)
                if (h->tasks[i] >= 0)
                        close(h->tasks[i]);
        if (!handover_nocg)
                (void) sbx_cgroup_cleanup(&h->cg);
        t1 = now_us();
        snprintf(d, sizeof(d), "%s/root", h->dir);
        (void) rmdir(d);
        snprintf(d, sizeof(d), "%s/upper", h->dir);
        (void) rmdir(d);
        (void) rmdir(h->dir);
        n = snprintf(line, sizeof(line), "{\"event\":\"exit\",\"dir\":\"%s\",\"status\":%d}\n", h->dir,
                     status);
        (void) !write(audit_fd, line, (size_t) n);
        if (status >= 0 && td_n < 4096) {
                td_cg[td_n] = t1 - t0;
                td_rest[td_n++] = now_us() - t1;
        }
}

/* the child, before the run: join the cgroup, a new cgroup ns, the mounts */
static void handover_child_premake(struct handover_slot *h) {
        unsigned failed = 0;

        if (!handover_nocg && sbx_cgroup_needs_attach(&h->cg)) {
                int fds[SBX_CGROUP_V1_MAX];
                unsigned n = 0;

                /* handover-nocpu: every hierarchy but the cpu controller's */
                for (unsigned i = 0; i < h->cg.n_v1; i++)
                        if (!handover_nocpu || !sbx_cgroup_list_has(h->cg.v1_controllers[i], "cpu"))
                                fds[n++] = h->tasks[i];
                if (sbx_cgroup_join_self(fds, n, &failed) < 0)
                        die("join the cgroup");
                for (unsigned i = 0; i < h->cg.n_v1; i++)
                        close(h->tasks[i]);
                if (unshare(CLONE_NEWCGROUP) < 0)
                        die("unshare(CLONE_NEWCGROUP)");
        }
        for (int i = 0; i < 2; i++)
                if (mount("/usr", "/mnt", NULL, MS_BIND, NULL) < 0)
                        die("bind /usr on /mnt");
}

/* the child, per run: what exec.c does besides no_new_privs and seccomp */
static void handover_child_last(void) {
        struct rlimit core = { 1, 1 };
        struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
        struct __user_cap_data_struct data[2] = {};

        if (setrlimit(RLIMIT_CORE, &core) < 0)
                die("setrlimit");
        for (int c = 0; c <= CAP_LAST_CAP; c++)
                if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
                        die("PR_CAPBSET_DROP");
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 ||
            syscall(SYS_capset, &hdr, data) < 0)
                die("capset");
        if (syscall(SYS_close_range, 3, ~0U, 0) < 0)
                die("close_range");
}
#endif

static _Noreturn void premade_child(int l, int to_holder, uid_t uid, gid_t gid, int slot) {
        static char buf[8192];
        char map[64], *argv[256];
        int fds[3], conn;
        union {
                struct cmsghdr h;
                char b[CMSG_SPACE(sizeof(int))];
        } c;
        struct iovec iov = { "c", 1 };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof(c.b) };

        snprintf(map, sizeof(map), "0 %u 1", (unsigned) uid);
        write_file("/proc/self/uid_map", map);
        write_file("/proc/self/setgroups", "deny");
        snprintf(map, sizeof(map), "0 %u 1", (unsigned) gid);
        write_file("/proc/self/gid_map", map);
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                die("mount /proc");
#ifdef SBX_MAIN
        if (handover_mode)
                handover_child_premake(&hs[slot]);
#else
        (void) slot;
#endif
        /* waiting: everything above is off the run's path */
        do
                conn = accept4(l, NULL, NULL, SOCK_CLOEXEC);
        while (conn < 0 && errno == EINTR);
        if (conn < 0 || recv_request(conn, buf, sizeof(buf), argv, 256, fds) < 1)
                die("the request");
        c.h.cmsg_len = CMSG_LEN(sizeof(int));
        c.h.cmsg_level = SOL_SOCKET;
        c.h.cmsg_type = SCM_RIGHTS;
        memcpy(CMSG_DATA(&c.h), &conn, sizeof(int));
        if (sendmsg(to_holder, &m, 0) != 1)
                die("hand the connection over");
        for (int i = 0; i < 3; i++)
                if (dup2(fds[i], i) < 0)
                        die("stdio");
#ifdef SBX_MAIN
        if (handover_mode)
                handover_child_last();
#endif
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                die("no_new_privs");
#ifdef SBX_FILTERS
        load(sbx_precompiled_layer, sbx_precompiled_layer_len);
        load(sbx_precompiled_base, sbx_precompiled_base_len);
#endif
        execv(argv[0], argv);
        die(argv[0]);
}

struct slot {
        int pidfd, sock, conn;
        int hup;        /* the child closed its end (exec'd or died): stop polling it */
};

static struct slot slots[64];

static void spawn(struct slot *s, int l, int slot) {
        struct clone_args a = {
                .flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
                         CLONE_NEWCGROUP | CLONE_PIDFD,
                .exit_signal = SIGCHLD,
        };
        int sp[2];
        long pid;
        uid_t uid = geteuid();
        gid_t gid = getegid();

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
                die("socketpair");
#ifdef SBX_MAIN
        if (handover_mode)
                handover_prepare(&hs[slot]);
#endif
        a.pidfd = (unsigned long) &s->pidfd;
        pid = syscall(SYS_clone3, &a, sizeof(a));
        if (pid < 0)
                die("clone3");
        if (pid == 0) {
                signal(SIGTERM, SIG_DFL);
                signal(SIGPIPE, SIG_DFL);
                close(sp[0]);
                premade_child(l, sp[1], uid, gid, slot);
        }
        close(sp[1]);
        s->sock = sp[0];
        s->conn = -1;
        s->hup = 0;
}

static void take_conn(struct slot *s) {
        union {
                struct cmsghdr h;
                char b[CMSG_SPACE(sizeof(int))];
        } c;
        char x;
        struct iovec iov = { &x, 1 };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof(c.b) };
        struct cmsghdr *h;

        if (recvmsg(s->sock, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
                return;
        h = CMSG_FIRSTHDR(&m);
        if (h && h->cmsg_type == SCM_RIGHTS)
                memcpy(&s->conn, CMSG_DATA(h), sizeof(int));
#ifdef SBX_MAIN
        if (handover_mode && s->conn >= 0) {    /* the run's start, as sbx_audit_start */
                char line[80];
                int n = snprintf(line, sizeof(line), "{\"event\":\"start\",\"slot\":%d}\n", (int) (s - slots));
                (void) !write(audit_fd, line, (size_t) n);
        }
#endif
}

static int serve_premade(int l, int k) {
        struct slot *s = slots;
        struct pollfd p[128];

        if (k < 1 || k > 64)
                die("K: 1..64");
        for (int i = 0; i < k; i++)
                spawn(&s[i], l, i);
        while (!stop) {
                int empty = -1, r;

                for (int i = 0; i < k; i++) {
                        /* a closed end polls POLLHUP for ever: not a busy loop
                         * while the command runs */
                        p[2 * i] = (struct pollfd) { .fd = s[i].pidfd < 0 || s[i].hup ? -1 : s[i].sock, .events = POLLIN };
                        p[2 * i + 1] = (struct pollfd) { .fd = s[i].pidfd, .events = POLLIN };
                        if (s[i].pidfd < 0)
                                empty = i;
                }
                /* refill only when nothing else is to be done: an exit
                 * status is answered before the next clone3 */
                r = poll(p, 2 * k, empty >= 0 ? 0 : -1);
                if (r < 0) {
                        if (errno == EINTR)
                                continue;
                        die("poll");
                }
                if (r == 0 && empty >= 0) {
                        spawn(&s[empty], l, empty);
                        continue;
                }
                for (int i = 0; i < k; i++) {
                        siginfo_t si = { 0 };

                        if (s[i].pidfd < 0)
                                continue;
                        if (p[2 * i].revents & POLLIN)
                                take_conn(&s[i]);
                        if (p[2 * i].revents & (POLLHUP | POLLERR))
                                s[i].hup = 1;
                        if (!(p[2 * i + 1].revents & POLLIN))
                                continue;
                        take_conn(&s[i]);
                        if (waitid(P_PIDFD, s[i].pidfd, &si, WEXITED) < 0)
                                die("waitid");
#ifdef SBX_MAIN
                        if (handover_mode == 1)
                                handover_teardown(&hs[i], si.si_status);
#endif
                        if (s[i].conn >= 0)
                                answer(s[i].conn, si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8
                                                                           : si.si_status & 0x7f);
#ifdef SBX_MAIN
                        if (handover_mode == 2)
                                handover_teardown(&hs[i], si.si_status);
#endif
                        close(s[i].pidfd);
                        close(s[i].sock);
                        s[i].pidfd = -1;
                }
        }
        for (int i = 0; i < k; i++)
                if (s[i].pidfd >= 0)
                        (void) syscall(SYS_pidfd_send_signal, s[i].pidfd, SIGKILL, NULL, 0);
        for (int i = 0; i < k; i++)
                if (s[i].pidfd >= 0) {
                        (void) waitid(P_PIDFD, s[i].pidfd, &(siginfo_t) { 0 }, WEXITED);
#ifdef SBX_MAIN
                        if (handover_mode)
                                handover_teardown(&hs[i], -1);
#endif
                }
        report();
        return 0;
}

int main(int argc, char **argv) {
        struct sigaction sa = { .sa_handler = on_term };
        int l;

#ifdef SBX_MAIN
        /* sbx's template holder execs /proc/self/exe as "sbx-template" */
        if (argc == 1)
                return sbx_real_main(argc, argv);
#endif
        if (argc < 3)
                die("usage: serve-ceiling null|fork|premade|handover SOCKET [K]");
        sigaction(SIGTERM, &sa, NULL);  /* no SA_RESTART: accept/poll return EINTR */
        signal(SIGPIPE, SIG_IGN);
        l = listen_on(argv[2]);
        if (!strcmp(argv[1], "null"))
                return serve_null_or_fork(l, 0);
        if (!strcmp(argv[1], "fork"))
                return serve_null_or_fork(l, 1);
        if (!strcmp(argv[1], "premade"))
                return serve_premade(l, argc > 3 ? atoi(argv[3]) : 1);
#ifdef SBX_MAIN
        if (!strcmp(argv[1], "handover") || !strcmp(argv[1], "handover-late") ||
            !strcmp(argv[1], "handover-nocg") || !strcmp(argv[1], "handover-nocpu")) {
                char a[300];
                snprintf(run_base, sizeof(run_base), "%s", argv[2]);
                snprintf(a, sizeof(a), "%s.audit", argv[2]);
                audit_fd = open(a, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
                if (audit_fd < 0)
                        die(a);
                handover_mode = strcmp(argv[1], "handover-late") ? 1 : 2;
                handover_nocg = !strcmp(argv[1], "handover-nocg");
                handover_nocpu = !strcmp(argv[1], "handover-nocpu");
                return serve_premade(l, argc > 3 ? atoi(argv[3]) : 1);
        }
#endif
        die("mode");
}

/* SPDX-License-Identifier: MIT */
/* sbx exec: run a command inside a live sandbox.
 *
 * Steps (client = this sbx process):
 *   1. locks: busy (LOCK_SH, whole life: prune skips us) then the sandbox
 *      lock (LOCK_SH until the command runs: rm -f waits, then kills it);
 *   2. everything decided before the fork: argv/env/workdir/user/rlimits
 *      (sbx_exec_prepare, as for the first process), the seccomp BPF the
 *      sandbox was started with (compiled at start, read from its state dir),
 *      the cgroup dirfd, a pidfd of the sandbox's init checked against its
 *      recorded start time (a reused pid is never joined);
 *   3. setns(pidfd, USER|MNT|PID|NET|IPC|UTS|CGROUP) in one call (kernel
 *      >= 5.8): all or nothing, no half-joined state. The client itself joins
 *      (it is single-threaded and about to do nothing but supervise); its
 *      pid namespace for children becomes the sandbox's;
 *   4. clone3 into the cgroup (CLONE_INTO_CGROUP): the child is in every
 *      namespace and the cgroup from its first instruction;
 *   5. child: PR_SET_PDEATHSIG(SIGKILL) and a ppid check (the client is
 *      outside the child's pid ns, so getppid() is 0 while it lives), then
 *      the launcher's own final steps, sbx_exec_setup_child(): rlimits,
 *      setsid, keyring, caps + user, no_new_privs, fd sweep, chdir, seccomp,
 *      execveat. The sync socket reports a failure or closes on exec;
 *   6. client: forward SIGINT/SIGTERM/SIGHUP to the command's process group
 *      (a second copy escalates to SIGKILL), relay the pty with -t, return
 *      the exit status. If the client is killed, PR_SET_PDEATHSIG kills the
 *      command.
 * Why joining is safe: the joined process has full capabilities in the
 * sandbox's user namespace only until sbx_exec_setup_child() drops them all
 * (bounding set included) and installs the same filter as pid 1; it never
 * holds an fd of the host beyond stdio (close_range sweep), and as root the
 * supplementary groups are dropped before setns. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "launch/launch.h"
#include "build-config.h"
#include "util/util.h"
#include "sandbox-internal.h"
#include "exec-service.h"

#if defined(__SANITIZE_ADDRESS__)
/* LeakSanitizer checks at exit from a helper it forks, which would be born in
 * the sandbox's pid namespace (after setns) and could not attach to us: it
 * spins forever. Check for leaks before joining instead; that disables the
 * check at exit. */
void __lsan_do_leak_check(void);
#define leak_check_before_setns() __lsan_do_leak_check()
#else
#define leak_check_before_setns() do {} while (0)
#endif

#define JOIN_TIMEOUT_MS 30000
#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1UL << 2)   /* Linux 6.9 */
#endif
#define JOIN_NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)

/* One compiled filter the start wrote into the state dir: -ENOENT when it
 * is not there. */
static int read_bpf_file(const char *dir, const char *name, struct sock_filter **ret, unsigned short *ret_len,
                         sbx_error *reterr) {
        char path[PATH_MAX + 32];
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return errno == ENOENT ? -ENOENT : sbx_error_set(reterr, -errno, "seccomp filter '%s'", path);
        if (fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) ||
            st.st_size / sizeof(struct sock_filter) > 0xffff)
                return sbx_error_set(reterr, -EBADMSG, "seccomp filter '%s': bad size", path);
        *ret = malloc(st.st_size);
        if (!*ret)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (pread(fd, *ret, st.st_size, 0) != st.st_size) {
                free(*ret);
                *ret = NULL;
                return sbx_error_set(reterr, -EIO, "seccomp filter '%s': read", path);
        }
        *ret_len = (unsigned short) (st.st_size / sizeof(struct sock_filter));
        return 0;
}

/* The filters the sandbox's init runs under: the base and sbx's always-on
 * layer (with derived rules such as no inet sockets), both as the start
 * wrote them. A sandbox started by a version that wrote no layer file:
 * both compiled now, as the start did. */
static int load_bpf(const char *dir, const sbx_run_config *c, sbx_bpf *ret, sbx_error *reterr) {
        int r;

        r = read_bpf_file(dir, SBX_BPF_FILE, &ret->insns, &ret->len, reterr);
        if (r >= 0)
                r = read_bpf_file(dir, SBX_BPF_LAYER_FILE, &ret->layer_insns, &ret->layer_len, reterr);
        if (r == -ENOENT) {
                sbx_bpf_free(ret);
                *ret = (sbx_bpf) {};
                return sbx_seccomp_compile(&c->seccomp, ret, reterr);
        }
        if (r < 0)
                sbx_bpf_free(ret);
        return r;
}

/* The exec plan: the sandbox's config with the request's overrides, run
 * through the launcher's own sbx_exec_prepare; to join, also the caps, the
 * seccomp BPF and the cgroup (the exec service's command inherits them). */
static int prepare(const sbx_record *rec, const sbx_exec_request *req, bool join, sbx_plan **ret, sbx_error *reterr) {
        /* every fd -EBADF; exec_fd is set by sbx_exec_resolve_joined (issue 6) */
        _cleanup_(sbx_plan_freep) sbx_plan *p = sbx_plan_new();
        _cleanup_free_ char **env = NULL;
        sbx_run_config v = rec->s.config;      /* a view: nothing here is freed */
        int r;

        if (!p)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        env = calloc(v.n_env + req->n_env + 1, sizeof(char *));
        if (!env)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        for (size_t i = 0; i < v.n_env; i++)
                env[i] = v.envv[i];
        for (size_t i = 0; i < req->n_env; i++) {
                r = sbx_parse_env(req->envv[i], reterr);
                if (r < 0)
                        return r;
                env[v.n_env + i] = req->envv[i];
        }
        v.envv = env;
        v.n_env += req->n_env;
        v.argv = (char **) req->argv;
        if (req->workdir)
                v.workdir = (char *) req->workdir;
        if (req->uid != SBX_ID_UNSET) {
                v.uid = req->uid;
                v.gid = req->gid != SBX_ID_UNSET ? req->gid : req->uid;
        }
        v.tty = req->tty;
        p->uid = v.uid;
        p->gid = v.gid;
        if ((r = sbx_exec_prepare(p, &v, reterr)) < 0)
                return r;
        if (join && ((r = sbx_caps_prepare(p, reterr)) < 0 || (r = load_bpf(rec->s.state_dir, &v, &p->bpf, reterr)) < 0))
                return r;
        if (join && rec->cgroup) {
                r = sbx_cgroup_open_path(rec->cgroup, &p->cgroup, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "sandbox cgroup");
                /* cgroup v1 (issue 15): clone3 cannot enter it, and after
                 * setns the host's cgroupfs is out of sight: we join it
                 * ourselves now and the command inherits it (rm kills us
                 * with the sandbox, as it would anyway). */
                if (sbx_cgroup_needs_attach(&p->cgroup)) {
                        r = sbx_cgroup_join_v1(&p->cgroup, reterr);
                        if (r < 0)
                                return r;
                }
        }
        *ret = TAKE_PTR(p);
        return 0;
}

/* A second plan for the same command (the current rules of a stale
 * sandbox): process fields borrowed from p, its own exec target and Landlock. */
static sbx_plan *plan_view(const sbx_plan *p) {
        sbx_plan *v = sbx_plan_new();   /* every fd -EBADF: freeing it closes none of ours */

        if (!v)
                return NULL;
        v->argv = p->argv;
        v->envp = p->envp;
        v->path_env = p->path_env;
        v->workdir = p->workdir;
        v->uid = p->uid;
        v->gid = p->gid;
        return v;
}

static void plan_view_freep(sbx_plan **v) {
        if (!*v)
                return;
        (*v)->argv = (*v)->envp = NULL;        /* borrowed */
        (*v)->root_overlay.upper = NULL;
        *v = sbx_plan_free(*v);
}

static _Noreturn void child_main(const sbx_exec_plan *ep, int sync_fd, const sigset_t *oldmask, bool stdin_null) {
        sbx_error err = {};
        int status, fd;

        /* Die with the client; ppid 0 = it is alive (it is outside our pid ns). */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != 0)
                _exit(SBX_EXIT_FAILURE);
        for (int s = 1; s < _NSIG; s++)
                if (s != SIGKILL && s != SIGSTOP)
                        (void) signal(s, SIG_DFL);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        if (stdin_null && ep->tty_fd < 0) {
                fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
                if (fd < 0 || dup2(fd, STDIN_FILENO) < 0) {
                        sbx_error_set(&err, -errno, "stdin: open /dev/null in the sandbox");
                        (void) sbx_sync_send(sync_fd, 1, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                        _exit(SBX_EXIT_FAILURE);
                }
                close(fd);
        }
        status = sbx_exec_setup_child(ep, &err);
        /* #1: the failing step (success closes the CLOEXEC socket instead). */
        (void) sbx_sync_send(sync_fd, 1, SBX_SYNC_ERROR, status, &err);
        _exit(status);
}

/* The command's process group (setsid made it pid's), else the process. By
 * pidfd where the kernel can (6.9): through the exec service init reaps the
 * command, and a reaped pid may be reused. Else by pid while the pidfd shows
 * the process unreaped. */
static void signal_group(int pidfd, pid_t pid, int sig) {
        if (syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, PIDFD_SIGNAL_PROCESS_GROUP) == 0)
                return;
        if (errno == EINVAL && sys_pidfd_send_signal(pidfd, 0) == 0 && kill(-pid, sig) == 0)
                return;
        (void) sys_pidfd_send_signal(pidfd, sig);
}

/* Forward signals to the command's process group, relay the pty, reap (or,
 * through the exec service, read init's word on its end from status_conn). */
int sbx_exec_supervise(int pidfd, pid_t pid, int master, int status_conn, const char *name, sbx_error *reterr) {
        _cleanup_close_ int sfd = -EBADF;
        bool in_open = master >= 0, out_open = master >= 0, raw = false;
        struct termios saved;
        siginfo_t info = {};
        int last_sig = 0;

        sfd = sbx_supervise_signalfd();
        if (sfd < 0)
                return sbx_error_set(reterr, -errno, "exec: signalfd");
        raw = sbx_tty_make_raw(master, &saved);
        for (;;) {
                struct pollfd pfd[4] = {
                        { .fd = status_conn >= 0 ? status_conn : pidfd, .events = POLLIN },
                        { .fd = sfd, .events = POLLIN },
                        { .fd = in_open ? STDIN_FILENO : -1, .events = POLLIN },
                        { .fd = out_open ? master : -1, .events = POLLIN },
                };
                if (poll(pfd, 4, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        break;
                }
                if (pfd[1].revents & POLLIN) {
                        struct signalfd_siginfo si;
                        while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
                                int sig = (int) si.ssi_signo;
                                if (sig == SIGWINCH) {
                                        struct winsize ws;
                                        if (master >= 0 && ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
                                                (void) ioctl(master, TIOCSWINSZ, &ws);
                                        continue;
                                }
                                if (sig == last_sig)
                                        sig = SIGKILL;
                                last_sig = (int) si.ssi_signo;
                                signal_group(pidfd, pid, sig);
                        }
                }
                if (pfd[3].revents & (POLLIN | POLLHUP | POLLERR))
                        out_open = sbx_relay(master, STDOUT_FILENO);
                if (pfd[2].revents & (POLLIN | POLLHUP | POLLERR))
                        in_open = sbx_relay(STDIN_FILENO, master);
                if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                        while (out_open) {
                                struct pollfd m = { .fd = master, .events = POLLIN };
                                if (poll(&m, 1, 0) <= 0 || !(m.revents & POLLIN))
                                        break;
                                out_open = sbx_relay(master, STDOUT_FILENO);
                        }
                        break;
                }
        }
        if (raw)
                (void) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        if (status_conn >= 0)
                return sbx_exec_service_status(status_conn, name, reterr);
        if (waitid(P_PIDFD, pidfd, &info, WEXITED) < 0)
                return sbx_error_set(reterr, -errno, "exec: waitid");
        return info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
}

/* Lock, load, check: the sandbox runs and its init is the recorded one. */
static int open_sandbox(const char *ref, sbx_record **ret, int *ret_busy, int *ret_lock, int *ret_pidfd,
                        sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int busy = -EBADF, lockfd = -EBADF, pidfd = -EBADF;
        char name[SBX_SANDBOX_NAME_MAX + 1];
        int r;

        r = sbx_sandbox_resolve(ref, name, reterr);
        if (r < 0)
                return r;
        busy = sbx_sandbox_lock(name, SBX_BUSY_FILE, LOCK_SH, reterr);
        if (busy >= 0)
                lockfd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_SH, reterr);
        if (busy == -ENOENT || lockfd == -ENOENT)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref);
        if (busy < 0 || lockfd < 0)
                return busy < 0 ? busy : lockfd;
        r = sbx_record_load(name, &rec, reterr);
        if (r < 0)
                return r == -ENOENT ? sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref) : r;
        if (!rec->complete || rec->s.state != SBX_SANDBOX_RUNNING)
                return sbx_error_set(reterr, -ESRCH, "sandbox '%s' is not running (it is %s)", name,
                                     !rec->complete ? "being created" : sbx_sandbox_state_to_string(rec->s.state));
        pidfd = sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time);
        if (pidfd < 0)
                return sbx_error_set(reterr, -ESRCH,
                                     "sandbox '%s' is not running: its init (pid %d) exited; 'sbx start %s' restarts it",
                                     name, (int) rec->s.init_pid, name);
        /* last used = the busy file's mtime */
        (void) futimens(busy, NULL);
        *ret = TAKE_PTR(rec);
        *ret_busy = TAKE_FD(busy);
        *ret_lock = TAKE_FD(lockfd);
        *ret_pidfd = TAKE_FD(pidfd);
        return 0;
}

/* Whether init's exec service can run the request exactly as a joined exec
 * would. What it cannot do: another user than the sandbox's (init holds no
 * capability to switch), a sandbox with an agent's policy (every exec of the
 * tree goes through the exec log's seccomp listener, installed per exec) or
 * a stale one (the current rules add a Landlock domain), an exec allowlist
 * (the command's Landlock execute rights are computed per command; init's
 * domain has only those of the allowlist itself): sbx_exec_service_refusal. */
static bool service_usable(const sbx_record *rec, const sbx_exec_request *req) {
        const sbx_run_config *c = &rec->s.config;
        uint32_t gid = req->gid != SBX_ID_UNSET ? req->gid : req->uid;

        return !(req->uid != SBX_ID_UNSET && (req->uid != c->uid || gid != c->gid)) && !req->rules_now &&
               !sbx_exec_service_refusal(&rec->s);
}

#define SERVICE_NONE (-EAGAIN)  /* exec_by_service: the sandbox has no exec service or the request is
                                 * larger than one it takes: join it */

/* The exec service: decided here, in the sandbox's tree seen through
 * /proc/<init>/root, then run by init (exec-service.c). A sandbox started
 * before the service existed has no socket, an older sbx-init does not
 * listen on it: SERVICE_NONE, said so. */
static int exec_by_service(const sbx_record *rec, const sbx_exec_request *req, sbx_plan *p, int initfd, int *lockfd,
                           sbx_error *reterr) {
        _cleanup_close_ int rootfd = -EBADF, conn = -EBADF;
        sbx_exec_verdict verdict = {};
        char path[64];
        int r;

        snprintf(path, sizeof(path), "/proc/%d/root", (int) rec->s.init_pid);
        rootfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        /* still the recorded init once the fd exists: the tree is its */
        if (rootfd < 0 || sys_pidfd_send_signal(initfd, 0) < 0)
                return sbx_error_set(reterr, -ESRCH, "sandbox '%s' is not running: its init (pid %d) exited",
                                     rec->s.name, (int) rec->s.init_pid),
                       SBX_EXIT_FAILURE;
        r = sbx_exec_resolve_joined(p, &rec->s.config, rootfd, NULL, 0, &verdict, reterr);
        if (r != 0)
                return r;
        /* more than one request holds (100,000 arguments): joined, so that
         * the kernel's limit on execve's arguments is the only one (E2BIG,
         * 126), on both paths */
        if (!sbx_exec_service_fits(p))
                return SERVICE_NONE;
        /* connected only now: init waits for the request once it accepts */
        r = sbx_exec_service_connect(rec->s.state_dir, &conn, reterr);
        if (r == -ENOENT || r == -ECONNREFUSED) {
                fprintf(stderr, "sbx: exec: sandbox '%s' has no exec service (%s): joining it by setns; "
                        "'sbx stop %s && sbx start %s' gives it one\n", rec->s.name,
                        r == -ENOENT ? "started by an older sbx" : "its sbx-init is older than sbx",
                        rec->s.name, rec->s.name);
                return SERVICE_NONE;
        }
        if (r < 0)
                return SBX_EXIT_FAILURE;
        return sbx_exec_service_run(conn, rec, p, req, lockfd, reterr);
}

static int exec_in(const char *ref, const sbx_exec_request *req, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_(plan_view_freep) sbx_plan *pnow = NULL;
        _cleanup_close_ int lfd = -EBADF;
        _cleanup_close_ int busy = -EBADF, lockfd = -EBADF, initfd = -EBADF, childfd = -EBADF,
                            sync_parent = -EBADF, sync_child = -EBADF, master = -EBADF, slave = -EBADF;
        struct clone_args args = { .flags = CLONE_PIDFD, .exit_signal = SIGCHLD };
        _cleanup_(sbx_audit_close) sbx_audit audit = { .fd = -EBADF };
        _cleanup_close_ int procfd = -EBADF, listener_sock = -EBADF, pids_dir = -EBADF;
        _cleanup_free_ struct sock_filter *notify = NULL;
        unsigned short notify_len = 0;
        uint64_t cookie = 0;
        const char *writable[SBX_LANDLOCK_MAX_WRITABLE - 1];
        size_t n_writable = 0;
        sbx_exec_verdict verdict = {};
        sbx_exec_plan ep;
        sbx_sync_msg msg;
        sigset_t oldmask;
        int r, status;
        bool privileged;
        long pid;

        r = sbx_assert_single_threaded(reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        /* 1-2. locks, record, init pidfd; the plan, BPF and cgroup fd. */
        r = open_sandbox(ref, &rec, &busy, &lockfd, &initfd, reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        /* issue 16: through init's exec service wherever it can run the request */
        if (service_usable(rec, req)) {
                r = prepare(rec, req, false, &p, reterr);
                if (r < 0)
                        return r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
                r = exec_by_service(rec, req, p, initfd, &lockfd, reterr);
                if (r != SERVICE_NONE)
                        return r;
                p = sbx_plan_free(p);
        }
        r = prepare(rec, req, true, &p, reterr);
        if (r < 0)
                return r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
        /* the pids files, read if our clone fails: setns hides the host's cgroupfs */
        if (rec->cgroup)
                pids_dir = sbx_cgroup_pids_dir(&p->cgroup);
        /* issue 14: a sandbox with a policy logs every decision in its state dir */
        if (rec->s.policy.agent) {
                r = sbx_audit_open(&audit, NULL, rec->s.state_dir, reterr);
                if (r < 0)
                        return SBX_EXIT_FAILURE;
                audit.agent = rec->s.policy.agent;
                audit.session = rec->s.policy.session;
                audit.scope_key = rec->s.policy.scope_key;
        }
        /* ... and sees every exec of the command's tree (the exec log) */
        if (rec->s.policy.agent) {
                cookie = sbx_exec_cookie();
                r = sbx_seccomp_compile_exec_notify(cookie, &notify, &notify_len, reterr);
                /* the sandbox's exec log daemon; a stale sandbox's exec gets its
                 * own listener, with the current rules too */
                if (r >= 0 && !req->rules_now)
                        r = sbx_exec_log_connect(rec->s.state_dir, &rec->s.config, &audit, initfd, &listener_sock,
                                                 reterr);
                else if (r >= 0)
                        r = sbx_exec_listener_start(&rec->s.config, req->rules_now, &audit, true, &listener_sock, NULL,
                                                    reterr);
                if (r < 0)
                        return SBX_EXIT_FAILURE;
        }
        for (size_t i = 0; i < rec->s.n_mounts && n_writable < ELEMENTSOF(writable); i++)
                if (rec->s.mounts[i].type == SBX_SANDBOX_MOUNT_TMPFS)
                        writable[n_writable++] = rec->s.mounts[i].dst;
        if (sbx_sync_open(&sync_parent, &sync_child, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* As root: no host groups (gid 0) carried into the sandbox. */
        privileged = geteuid() == 0;
        if (privileged && setgroups(0, NULL) < 0)
                return sbx_error_set(reterr, -errno, "exec: drop supplementary groups"), SBX_EXIT_FAILURE;
        if (sbx_supervise_block_signals(&oldmask) < 0)
                return sbx_error_set(reterr, -errno, "exec: sigprocmask"), SBX_EXIT_FAILURE;
        /* The command's #! line and ELF loader are read through our own
         * /proc/self/fd: the sandbox's /proc will not show us. */
        procfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (procfd < 0)
                return sbx_error_set(reterr, -errno, "exec: open /proc/self/fd"), SBX_EXIT_FAILURE;
        sbx_exec_resolve_set_proc_fd_dir(procfd);
        /* 3. every namespace at once. */
        leak_check_before_setns();
        /* Not dumpable before we enter (after LeakSanitizer's check, which
         * ptraces us): the child clone3 makes below is in the sandbox's pid
         * namespace from its first instruction and copies this flag.
         * Rootless, setns changes no id and leaves us dumpable; the child's
         * own PR_SET_DUMPABLE comes in sbx_exec_setup_child, and until then
         * only its full capabilities in the sandbox's user namespace keep a
         * same-uid sandbox process from ptrace-attaching it (the kernel's
         * capability-subset rule). (As root, becoming the sandbox's root
         * below clears the flag too.) */
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "exec: prctl(PR_SET_DUMPABLE, 0)"), SBX_EXIT_FAILURE;
        /* A sandbox on network container:NAME has NAME's network namespace,
         * owned by NAME's user namespace, not its own: once inside its user
         * namespace we would have no right to it. Enter it first, still with
         * the host's credentials. (Without root such a sandbox shares NAME's
         * user namespace, which owns that network: the one setns does.) */
        bool net_first = rec->s.config.network == SBX_NETWORK_CONTAINER && geteuid() == 0;
        if (net_first && setns(initfd, CLONE_NEWNET) < 0)
                return sbx_error_set(reterr, -errno, "exec: setns into the network of sandbox '%s' (pid %d)",
                                     rec->s.name, (int) rec->s.init_pid),
                       SBX_EXIT_FAILURE;
        if (setns(initfd, JOIN_NS_FLAGS & ~(net_first ? CLONE_NEWNET : 0)) < 0)
                return sbx_error_set(reterr, -errno, "exec: setns into sandbox '%s' (pid %d)", rec->s.name,
                                     (int) rec->s.init_pid),
                       SBX_EXIT_FAILURE;
        /* As root our host uid 0 has no id in the sandbox: become its root
         * (capabilities in its user namespace are kept), so what we create
         * (the pty) is owned by mapped ids. */
        if (privileged && (sys_setresgid(0, 0, 0) < 0 || sys_setresuid(0, 0, 0) < 0))
                return sbx_error_set(reterr, -errno, "exec: become the sandbox's root"), SBX_EXIT_FAILURE;
        /* -t: a pty from the sandbox's own devpts (we see its /dev now). */
        if (req->tty && sbx_tty_setup_child(p->uid, p->gid, &master, &slave, reterr) < 0)
                return SBX_EXIT_FAILURE;
        if (master >= 0)
                sbx_tty_attach(p, TAKE_FD(master));
        /* issue 6: the command resolved now, inside the sandbox's root, and run by fd;
         * issue 14: decided on against the sandbox's rules, under its Landlock ruleset. */
        r = sbx_exec_resolve_joined(p, &rec->s.config, -EBADF, writable, n_writable, &verdict, reterr);
        if (verdict.decided)
                (void) sbx_audit_exec(&audit, req->argv, &verdict);
        if (r != 0)
                return r;
        /* A stale sandbox: the current rules decide too and add their own
         * Landlock domain on top (a change of openclaw.json only tightens
         * until the sandbox is recreated). */
        if (req->rules_now) {
                pnow = plan_view(p);
                if (!pnow)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory"), SBX_EXIT_FAILURE;
                /* a writable root (--writable-root, an image's writable layer):
                 * its exec_dirs under the current rules (exec-decide.c noexec_root) */
                pnow->read_only_root = rec->s.config.read_only_root;
                if (!pnow->read_only_root)
                        pnow->root_overlay.upper = "/";
                r = sbx_exec_resolve_joined(pnow, req->rules_now, -EBADF, writable, n_writable, &verdict, reterr);
                if (verdict.decided && !verdict.allow)
                        (void) sbx_audit_exec(&audit, req->argv, &verdict);
                if (r != 0)
                        return r;
        }
        sbx_exec_plan_from(p, &ep);
        ep.tty_fd = slave;
        ep.parent_outside_pidns = true;
        ep.landlock_now = pnow ? &pnow->landlock : NULL;
        /* rules the sandbox's mounts were not made for: the command's own copy of them */
        ep.mounts_ro_now = req->rules_now && req->rules_now->read_only_fs && !rec->s.config.read_only_fs;
        ep.mounts_noexec_now = req->rules_now && req->rules_now->exec_allow_set;
        if (ep.mounts_noexec_now && pnow->root_overlay.noexec) {
                ep.root_noexec_now = true;
                ep.root_exec_dirs_now = pnow->root_overlay.exec_dirs;
                ep.n_root_exec_dirs_now = pnow->root_overlay.n_exec_dirs;
        }
        ep.notify_insns = notify;
        ep.notify_len = notify_len;
        ep.notify_sock = sync_child;
        ep.notify_cookie = cookie;
        /* 4. the child starts inside the cgroup. */
        if (sbx_clone_into_cgroup(p, &args) < 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "exec: built without CLONE_INTO_CGROUP"), SBX_EXIT_FAILURE;
        args.pidfd = (uintptr_t) &childfd;
        pid = sys_clone3(&args);
        if (pid < 0) {
                uint64_t max = 0;
                int e = -errno;

                if (e == -EAGAIN && sbx_cgroup_pids_at_max_in(pids_dir, &max) > 0)
                        return sbx_error_set(reterr, e, SBX_SVC_MSG_PIDS_MAX_JOIN, rec->s.name, (unsigned long long) max),
                               SBX_EXIT_FAILURE;
                return sbx_error_set(reterr, e, "exec: clone3 into sandbox '%s'", rec->s.name), SBX_EXIT_FAILURE;
        }
        if (pid == 0) {
                close(sync_parent);
                /* 5. */
                child_main(&ep, sync_child, &oldmask, req->stdin_mode != SBX_STDIN_INHERIT);
        }
        closep(&sync_child);
        closep(&slave);
        /* #1: an error record, or EOF once the exec closed the child's end;
         * before that, with the exec log, the listener: passed on at once
         * (the command's own execveat waits for it). */
        r = sbx_sync_recv_fd(sync_parent, JOIN_TIMEOUT_MS, &msg, &lfd);
        if (r == 0 && msg.type == SBX_SYNC_LISTENER) {
                if (lfd < 0 || listener_sock < 0 ||
                    sbx_sync_send_fd(listener_sock, 1, SBX_SYNC_LISTENER, lfd) < 0) {
                        siginfo_t info;
                        (void) sys_pidfd_send_signal(childfd, SIGKILL);
                        (void) waitid(P_PIDFD, childfd, &info, WEXITED);
                        return sbx_error_set(reterr, -EPROTO, "exec: hand the exec log listener over"),
                               SBX_EXIT_FAILURE;
                }
                closep(&lfd);
                lfd = -EBADF;
                closep(&listener_sock);
                listener_sock = -EBADF;
                r = sbx_sync_recv(sync_parent, JOIN_TIMEOUT_MS, &msg);
        }
        closep(&lfd);
        lfd = -EBADF;
        if (r == 0 && msg.type == SBX_SYNC_ERROR) {
                siginfo_t info;
                *reterr = msg.error;
                if (reterr->code == 0)
                        reterr->code = -EIO;
                (void) waitid(P_PIDFD, childfd, &info, WEXITED);
                return msg.status > 0 && msg.status < 256 ? msg.status : SBX_EXIT_FAILURE;
        }
        if (r != -EPIPE) {
                siginfo_t info;
                (void) sys_pidfd_send_signal(childfd, SIGKILL);
                (void) waitid(P_PIDFD, childfd, &info, WEXITED);
                return sbx_error_set(reterr, r < 0 ? r : -EPROTO, "exec: sync #1"), SBX_EXIT_FAILURE;
        }
        /* Running: rm may take the sandbox from here on (and kill us with it). */
        closep(&lockfd);
        /* 6. */
        status = sbx_exec_supervise(childfd, (pid_t) pid, p->tty_master, -EBADF, rec->s.name, reterr);
        (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
        return status < 0 ? SBX_EXIT_FAILURE : status;
}

/* The mode of each of fds 0-2 the command gets as it is (a FIFO, named or
 * not, a socket; not a terminal, which is relayed, nor a file, a pipe by
 * now: stdio-guard.c), read before the exec and put back when it ended, as
 * sbx run's supervisor does (supervise.c). A rootless sandbox has the
 * caller's uid and owns the caller's named FIFO: its fchmod(0, 0666) left
 * the operator's FIFO writable by every local user after sbx returned.
 * (Their file status flags: round 15, below.) */
typedef struct passed_stdio {
        bool on[3];
        dev_t dev[3];
        ino_t ino[3];
        mode_t mode[3];
} passed_stdio;

static void passed_read(passed_stdio *ps, bool with_stdin) {
        for (int fd = 0; fd < 3; fd++) {
                struct stat st;
                ps->on[fd] = (fd > 0 || with_stdin) && !isatty(fd) && fstat(fd, &st) == 0;
                if (ps->on[fd]) {
                        ps->dev[fd] = st.st_dev;
                        ps->ino[fd] = st.st_ino;
                        ps->mode[fd] = st.st_mode & 07777;
                }
        }
}

static void passed_restore(const passed_stdio *ps) {
        for (int fd = 0; fd < 3; fd++) {
                struct stat st;
                if (ps->on[fd] && fstat(fd, &st) == 0 && st.st_dev == ps->dev[fd] && st.st_ino == ps->ino[fd] &&
                    (st.st_mode & 07777) != ps->mode[fd])
                        (void) fchmod(fd, ps->mode[fd]);
        }
}

/* The command gets our fds 0-2, but never the caller's terminal without
 * -t (a relay in between until it ended: launch/stdio-guard.c), on the
 * exec service's path and the join's alike; what it may change on the
 * others is put back (passed_stdio). */
int sbx_sandbox_exec(const char *ref, const sbx_exec_request *req, sbx_error *reterr) {
        sbx_tty_guard g = { .relay = 0 };
        passed_stdio ps = {};
        int r, fl[3];

        if (!req || !req->argv || !req->argv[0])
                return sbx_error_set(reterr, -EINVAL, "exec: no command given"), SBX_EXIT_USAGE;
        /* A closed fd 0-2 would be taken by the next file we open (a lock
         * file of the state dir, /proc/self/fd) and handed to the command.
         * /dev/null stands in (the lowest free fd is the closed one), as
         * docker exec gives. */
        for (int fd = 0; fd < 3; fd++)
                if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
                        return sbx_error_set(reterr, -EBADF, "exec: fd %d is closed and /dev/null cannot stand in", fd),
                               SBX_EXIT_FAILURE;
        /* Round 15: a pipe or socket among fds 0-2 is handed over as it is,
         * its open file description shared with the caller's shell: the
         * file status flags the command sets there (O_NONBLOCK: the next
         * `read` of a `while read` loop failed with EAGAIN) are put back
         * when it ends. (What it left running may still set them later.) */
        for (int fd = 0; fd < 3; fd++)
                fl[fd] = fcntl(fd, F_GETFL);
        if (!req->tty)          /* with -t it gets a pty of its own */
                passed_read(&ps, req->stdin_mode == SBX_STDIN_INHERIT);
        /* first: the relay must hold none of the locks and sockets to come */
        if (!req->tty && (r = sbx_tty_guard_start(&g, req->stdin_mode == SBX_STDIN_INHERIT)) < 0)
                return sbx_error_set(reterr, r, "exec: a pipe between the sandbox and the terminal"),
                       SBX_EXIT_FAILURE;
        r = exec_in(ref, req, reterr);
        sbx_tty_guard_stop(&g);
        for (int fd = 0; fd < 3; fd++) {
                int now = fcntl(fd, F_GETFL);
                if (fl[fd] >= 0 && now >= 0 && now != fl[fd])
                        (void) fcntl(fd, F_SETFL, fl[fd]);
        }
        passed_restore(&ps);
        return r;
}

/* SPDX-License-Identifier: MIT */
/* sbx run: parent_main() and child_main() as lists of named steps.
 *
 * The privilege-drop order, stated once (STYLE §D.17):
 *   mounts -> lo up -> hostname -> rlimits -> setsid + session keyring ->
 *   capabilities (bounding, user switch, all sets) -> no_new_privs ->
 *   close_range sweep -> command lookup -> seccomp -> execveat.
 * seccomp is last so the filter need not allow any setup call. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "exec.h"
#include "launch.h"
#include "macro.h"
#include "mount.h"
#include "netns.h"
#include "plan.h"
#include "supervise.h"
#include "sync.h"
#include "syscalls.h"
#include "userns.h"

#define SYNC_TIMEOUT_MS 30000

/* The launcher must be single-threaded: clone3 copies only the caller, and
 * a lock held by another thread would be held forever in the child. */
int sbx_assert_single_threaded(sbx_error *reterr) {
        char line[256];
        FILE *f = fopen("/proc/self/status", "re");
        int threads = -1;

        if (!f)
                return sbx_error_set(reterr, -errno, "startup: read /proc/self/status");
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Threads: %d", &threads) == 1)
                        break;
        fclose(f);
        if (threads != 1)
                return sbx_error_set(reterr, -EDEADLK, "startup: sbx must be single-threaded (found %d threads)", threads);
        return 0;
}

static _Noreturn void child_fail(int sync_fd, int status, const sbx_error *e) {
        /* #2: report the failing step, then die with a distinct status. */
        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, status, e);
        _exit(status);
}

static _Noreturn void child_main(const sbx_plan *p, int sync_fd, const sigset_t *oldmask) {
        sbx_error err = {};
        sbx_sync_msg msg;
        sbx_exec_plan ep;
        int status, master = -EBADF, slave = -EBADF;

        /* Die with sbx; the re-check below closes the race with an early exit. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        /* Default dispositions and mask: the workload starts clean. */
        for (int s = 1; s < _NSIG; s++)
                if (s != SIGKILL && s != SIGSTOP)
                        (void) signal(s, SIG_DFL);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        /* #1: wait for the id maps (EOF = the parent died). */
        if (sbx_sync_recv(sync_fd, SYNC_TIMEOUT_MS, &msg) < 0 || msg.seq != 1 || msg.type != SBX_SYNC_MAPS_WRITTEN)
                _exit(SBX_EXIT_FAILURE);
        /* Become the setup identity inside the new user namespace. */
        if (sbx_userns_setup_child(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        /* Mounts first: they need CAP_SYS_ADMIN in our namespaces. */
        if (sbx_mount_setup_child(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* Loopback up: needs CAP_NET_ADMIN. */
        if (sbx_netns_setup_child(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* Hostname: needs CAP_SYS_ADMIN in the uts namespace. */
        if (sethostname(p->hostname, strlen(p->hostname)) < 0) {
                sbx_error_set(&err, -errno, "--hostname: sethostname '%s'", p->hostname);
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        }
        /* #2: a terminal from our own devpts; the parent relays the master. */
        if (p->tty) {
                if (sbx_tty_setup_child(p->uid, p->gid, &master, &slave, &err) < 0)
                        child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
                if (sbx_sync_send_fd(sync_fd, 2, SBX_SYNC_PTY, master) < 0) {
                        sbx_error_set(&err, -errno, "sync #2: pass the pty to the parent");
                        child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
                }
                close(master);
        }
        /* rlimits, session, capabilities, no_new_privs, fds, seccomp, exec. */
        sbx_exec_plan_from(p, &ep);
        ep.tty_fd = slave;
        status = sbx_exec_setup_child(&ep, &err);
        child_fail(sync_fd, status, &err);
}

static int open_proc_pid(pid_t pid, sbx_error *reterr) {
        char path[32];
        int fd;

        snprintf(path, sizeof(path), "/proc/%d", (int) pid);
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        return fd < 0 ? sbx_error_set(reterr, -errno, "open %s", path) : fd;
}

static void pidfd_killp(int *pidfd) {
        if (*pidfd >= 0) {
                siginfo_t info;
                (void) sys_pidfd_send_signal(*pidfd, SIGKILL);
                (void) waitid(P_PIDFD, *pidfd, &info, WEXITED);
                close(*pidfd);
        }
}

/* One clone3 with every namespace; the cgroup is entered atomically. */
static int spawn(sbx_plan *p, int sync_child, int sync_parent, const sigset_t *oldmask, int *ret_pidfd,
                 sbx_error *reterr) {
        int pidfd = -EBADF;
        struct clone_args args = {
                .flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                         CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_PIDFD,
                .pidfd = (uintptr_t) &pidfd,
                .exit_signal = SIGCHLD,
        };
        long pid;

#if HAVE_CLONE_INTO_CGROUP
        if (p->cgroup.dirfd >= 0) {
                args.flags |= CLONE_INTO_CGROUP;
                args.cgroup = p->cgroup.dirfd;
        }
#else
        if (p->cgroup.dirfd >= 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "clone3: built without CLONE_INTO_CGROUP");
#endif
        pid = sys_clone3(&args);
        if (pid < 0)
                return sbx_error_set(reterr, -errno, "clone3 (user, mount, pid, net, ipc, uts, cgroup namespaces)");
        if (pid == 0) {
                close(sync_parent);
                child_main(p, sync_child, oldmask);
        }
        *ret_pidfd = pidfd;
        return (int) pid;
}

/* spawn -> id maps -> sync until the exec happened. Returns 0 with the
 * running child's pidfd in *ret_pidfd, or the exit status sbx should report
 * with *reterr filled. Shared by sbx_run() and persistent sandboxes
 * (sandbox.c), whose pid 1 is the sbx-init the plan execs. */
int sbx_launch_start(sbx_plan *p, const sigset_t *oldmask, int *ret_pidfd, sbx_error *reterr) {
        _cleanup_(pidfd_killp) int pidfd = -EBADF;
        _cleanup_close_ int sync_parent = -EBADF, sync_child = -EBADF, procfd = -EBADF;
        int fds[2], r;
        sbx_sync_msg msg;
        pid_t pid;

        r = sbx_sync_pair(fds, reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        sync_parent = fds[0];
        sync_child = fds[1];
        pid = spawn(p, sync_child, sync_parent, oldmask, &pidfd, reterr);
        if (pid < 0)
                return SBX_EXIT_FAILURE;
        closep(&sync_child);
        /* Maps from the /proc/<pid> dirfd: uid_map -> setgroups -> gid_map. */
        procfd = open_proc_pid(pid, reterr);
        if (procfd < 0)
                return SBX_EXIT_FAILURE;
        r = sbx_userns_write_maps(p, procfd, reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        /* #1: release the child. */
        r = sbx_sync_send(sync_parent, 1, SBX_SYNC_MAPS_WRITTEN, 0, NULL);
        if (r < 0)
                return sbx_error_set(reterr, r, "sync #1: release the child"), SBX_EXIT_FAILURE;
        /* #2 (--tty): the pty master; #3: an error record, or EOF once the
         * exec closed the child's end. */
        for (;;) {
                int passed = -EBADF;
                r = sbx_sync_recv_fd(sync_parent, SYNC_TIMEOUT_MS, &msg, &passed);
                if (r < 0 || msg.type != SBX_SYNC_PTY)
                        break;
                if (passed < 0 || !p->tty)
                        return sbx_error_set(reterr, -EPROTO, "sync #2: bad pty record"), SBX_EXIT_FAILURE;
                sbx_tty_attach(p, passed);
        }
        if (r == 0 && msg.type == SBX_SYNC_ERROR) {
                *reterr = msg.error;
                if (reterr->code == 0)
                        reterr->code = -EIO;
                return msg.status > 0 && msg.status < 256 ? msg.status : SBX_EXIT_FAILURE;
        }
        if (r == -ETIMEDOUT)
                return sbx_error_set(reterr, r, "sync #2: sandbox setup did not finish in %d s", SYNC_TIMEOUT_MS / 1000),
                       SBX_EXIT_FAILURE;
        if (r != -EPIPE)
                return sbx_error_set(reterr, r < 0 ? r : -EPROTO, "sync #2: unexpected record"), SBX_EXIT_FAILURE;
        *ret_pidfd = TAKE_FD(pidfd);
        return 0;
}

int sbx_run(const sbx_run_config *c, sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_(pidfd_killp) int pidfd = -EBADF;
        int status, r;
        sigset_t oldmask;

        /* Single-threaded, or the child could inherit a held lock. */
        r = sbx_assert_single_threaded(reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        /* Everything decided and allocated before clone3. */
        r = sbx_plan_prepare(c, &p, reterr);
        if (r < 0)
                return r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
        /* Block the forwarded signals now so none is lost before supervise. */
        if (sbx_supervise_block_signals(&oldmask) < 0)
                return sbx_error_set(reterr, -errno, "sigprocmask"), SBX_EXIT_FAILURE;
        /* clone3, maps, handshake: the command is running when this returns 0. */
        r = sbx_launch_start(p, &oldmask, &pidfd, reterr);
        if (r != 0) {
                (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
                return r;
        }
        /* Running: wait, forward, relay; then reap and tear down. */
        status = sbx_supervise(p, pidfd, reterr);
        (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
        return status < 0 ? SBX_EXIT_FAILURE : status;
}

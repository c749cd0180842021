/* SPDX-License-Identifier: MIT */
/* sbx run: parent_main() and child_main() as lists of named steps.
 *
 * The order in the child, stated once (STYLE §D.17):
 *   lo up -> hostname (neither needs the id map, so they overlap the parent
 *   writing it) -> open the host dirs (still with the creator's host ids) ->
 *   id maps -> setup identity -> no nested user namespaces -> mounts ->
 *   pty -> rlimits -> setsid + session keyring -> capabilities (bounding,
 *   user switch, all sets) -> no_new_privs -> Landlock -> close_range sweep
 *   -> seccomp -> execveat of the fd the parent decided on.
 * seccomp is last so the filter need not allow any setup call. */
#include <dirent.h>
#include <linux/keyctl.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build-config.h"      /* HAVE_CLONE_INTO_CGROUP */
#include "security/security.h"
#include "launch.h"
#include "util/util.h"
#include "mount.h"
#include "netns.h"
#include "container.h"
#include "userns.h"

#define SYNC_TIMEOUT_MS 30000

/* The launcher must be single-threaded: clone3 copies only the caller, and
 * a lock held by another thread would be held forever in the child. */
static int assert_single_threaded(sbx_error *reterr) {
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
        /* #3: report the failing step, then die with a distinct status. */
        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, status, e);
        _exit(status);
}

/* Does the child wait for #1? Root writes its id maps; a network is
 * attached. (On cgroup v1 the child joins its cgroups itself, issue 16.) */
static bool child_waits_for_parent(const sbx_plan *p) {
        return p->privileged || p->net.kind != SBX_NET_KIND_NONE;
}

static _Noreturn void child_main(const sbx_plan *p, int sync_fd, const sigset_t *oldmask) {
        sbx_error err = {};

        if (p->container)
                sbx_container_child_main(p, sync_fd, oldmask);
        sbx_sync_msg msg;
        sbx_exec_plan ep;
        sbx_mount_fds mfds;
        int status, master = -EBADF, slave = -EBADF;
        bool keyring_joined = false;

        /* Die with sbx. If sbx died before this, its end of the sync socket
         * is closed already: check, since getppid() is 0 in a new pid ns. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        if (sbx_sync_peer_gone(sync_fd))
                _exit(SBX_EXIT_FAILURE);
        /* issue 16: the holder's pidfd is the launcher's, not ours (and
         * CLOEXEC, as everything the launcher holds) */
        if (p->tmpl.used) {
                (void) close(p->tmpl.holder_pidfd);
                (void) close(p->tmpl.use_fd);
        }
        /* cgroup v1 (issues 15, 16): into every hierarchy before anything
         * else, by writing "0" to the "tasks" files the parent opened. We
         * are one thread: that moves the whole process, with no wait for
         * an RCU grace period (a move by pid through cgroup.procs waits). */
        if (sbx_cgroup_needs_attach(&p->cgroup)) {
                unsigned failed = 0;
                int r = sbx_cgroup_join_self(p->cgroup_tasks, p->cgroup.n_v1, &failed);
                if (r < 0) {
                        sbx_error_set(&err, r, "join the cgroup '%s'", p->cgroup.v1[failed]);
                        child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
                }
        }
        /* Default dispositions and mask: the workload starts clean. Handlers
         * do not survive exec, ignored signals do: reset those. */
        for (size_t i = 0; i < p->n_ignored_signals; i++)
                (void) signal(p->ignored_signals[i], SIG_DFL);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        /* Loopback up (CAP_NET_ADMIN) and the hostname (CAP_SYS_ADMIN in the
         * uts ns) need no id mapping: do them while the parent writes the maps. */
        if (p->net.kind != SBX_NET_KIND_JOIN && sbx_netns_setup_child(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        if (sethostname(p->hostname, strlen(p->hostname)) < 0) {
                sbx_error_set(&err, -errno, "--hostname: sethostname '%s'", p->hostname);
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        }
        /* issue 14: no executable memfd in our pid namespace (an exec
         * allowlist is on; sysctl writes need host root's ids, which we still
         * have; the handler sets the value of our own pid namespace). */
        if (p->memfd_noexec) {
                int fd = open("/proc/sys/vm/memfd_noexec", O_WRONLY | O_CLOEXEC);
                if (fd < 0 && errno != ENOENT)
                        child_fail(sync_fd, SBX_EXIT_FAILURE,
                                   &(sbx_error) { -errno, "exec allowlist: open /proc/sys/vm/memfd_noexec" });
                if (fd >= 0 && write(fd, "2", 1) != 1)
                        child_fail(sync_fd, SBX_EXIT_FAILURE,
                                   &(sbx_error) { -errno, "exec allowlist: set vm.memfd_noexec=2" });
                if (fd >= 0)
                        close(fd);
        }
        /* Host directories, opened while we still have the creator's ids. */
        if (sbx_mount_open_child(p, &mfds, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* #1: the id maps, from the parent (EOF = it died), or our own; with a
         * network (issue 7) the parent also attaches it before sending #1. */
        if (!p->privileged && p->net.kind != SBX_NET_KIND_JOIN && sbx_userns_write_own_maps(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        if (p->tmpl.host_proc > 0)     /* issue 16: the host's /proc, not needed any more */
                (void) close(p->tmpl.host_proc);
        if (child_waits_for_parent(p) &&
            (sbx_sync_recv(sync_fd, SYNC_TIMEOUT_MS, &msg) < 0 || msg.seq != 1 ||
             msg.type != SBX_SYNC_MAPS_WRITTEN))
                _exit(SBX_EXIT_FAILURE);
        /* cgroup v1: we joined the sandbox cgroups after clone, so
         * the cgroup namespace from clone is rooted at the launcher's: root
         * a new one at ours, as CLONE_INTO_CGROUP gives on v2. */
        if (sbx_cgroup_needs_attach(&p->cgroup) && unshare(CLONE_NEWCGROUP) < 0) {
                sbx_error_set(&err, -errno, "unshare(CLONE_NEWCGROUP) after joining the cgroup v1 hierarchies");
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        }
        /* A fresh anonymous session keyring (none of the caller's keys is
         * possessed in here), joined while we still have the creator's
         * ids: it is charged to the creator's key quota (host root's,
         * kernel.keys.root_maxkeys), not to the sandbox's mapped host uid,
         * which every root sandbox shares (kernel.keys.maxkeys, 200: sbx
         * create failed with EDQUOT after ~200 sandboxes). Nothing inside
         * may use it (the always-on filter refuses keyctl, add_key and
         * request_key). An OCI container joins its own after the switch,
         * as runc does (exec.c new_session). */
        if (!p->container) {
                if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
                        child_fail(sync_fd, SBX_EXIT_FAILURE,
                                   &(sbx_error) { -errno, "keyctl: join a new session keyring" });
                keyring_joined = true;
        }
        /* Become the setup identity inside the new user namespace. */
        if (sbx_userns_setup_child(p, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* The id change cleared the parent-death signal: again, and if sbx
         * died in between, nobody signalled us (issue 16: kill -9 stage test). */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        if (sbx_sync_peer_gone(sync_fd))
                _exit(SBX_EXIT_FAILURE);
        /* No nested user namespaces, the inotify share: by the kernel (needs ns root). */
        if (sbx_userns_limit_child(p, &mfds.proc, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* SysV IPC bounded to the /dev/shm size (ipc-limits.c): only the
         * IPC namespace's root may: as root or rootless as uid 0 that is
         * us; rootless as another uid (its single-id map has no root) our
         * host uid is the root of the IPC namespace's owner (ipc14,
         * spawn_via_helper; network container:NAME too, when NAME's user
         * namespace is nested in such an owner). */
        if ((p->privileged || p->uid == 0 || p->ipc_owner) && sbx_ipc_limit_child(mfds.proc, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        /* Mounts first: they need CAP_SYS_ADMIN in our namespaces. */
        if (sbx_mount_setup_child(p, &mfds, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
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
        ep.keyring_joined = keyring_joined;
        /* setupCommand: once, fully set up and restricted like the workload,
         * before it; a failure fails the run (and the parent removes it all). */
        if (p->setup_command && sbx_exec_setup_command_child(&ep, p->setup_command, &err) < 0)
                child_fail(sync_fd, SBX_EXIT_FAILURE, &err);
        ep.tty_fd = slave;
        ep.notify_sock = sync_fd;
        ep.parent_is_notify_sock = true;
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

pid_t sbx_pidfd_pid(int pidfd) {
        char path[64], line[128];
        FILE *f;
        pid_t pid = -1;

        snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
        f = fopen(path, "re");
        if (!f)
                return -1;
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Pid: %d", &pid) == 1)
                        break;
        fclose(f);
        return pid;
}

/* A sandbox cloned by a short-lived helper (a fork of ours) from inside
 * namespaces the launcher itself cannot enter, as a child of ours
 * (CLONE_PARENT); its pidfd comes back over a socket.
 *
 * network container:NAME without root: NAME's network namespace belongs to
 * NAME's user namespace, and only a process inside that one may enter it (an
 * unprivileged launcher has no CAP_SYS_ADMIN of its own, and a fresh user
 * namespace would have none over NAME's). So the helper enters NAME's user
 * and network namespaces and clones the sandbox there, with its own mount,
 * pid, ipc, uts and cgroup namespaces. The sandbox shares NAME's user
 * namespace (its ids, no new map): joining is the dangerous, explicit opt-in
 * this is for.
 *
 * issue 16, a template rootless (p->tmpl.used, not direct; as root spawn()
 * enters the holder's mount namespace itself): the helper (the "spawner") enters the
 * holder's user and mount namespaces (template.c) and clones the sandbox
 * with all seven new namespaces: its user namespace nested in the
 * template's, its mount table a copy of the holder's small one, every mount
 * locked. As root only the parent user namespace may write the id maps:
 * the spawner does, before it reports; the child waits for #1 as ever.
 * A failure before clone3 comes back with seq 0: the launcher then builds
 * the root itself.
 *
 * ipc14, rootless as a uid other than 0 (p->ipc_owner), from a template or
 * not: before the clone the helper makes a user namespace mapping 0 to the
 * caller and an IPC namespace it owns (sbx_ipc_owner_enter), and clones the
 * sandbox without CLONE_NEWIPC: the sandbox's user namespace is nested in
 * that one, and the child bounds the IPC namespace (ipc-limits.c). */
static int spawn_via_helper(sbx_plan *p, struct clone_args *args, int sync_child, int sync_parent,
                            const sigset_t *oldmask, int *ret_pidfd, sbx_error *reterr) {
        _cleanup_close_ int back_r = -EBADF, back_w = -EBADF, pidfd = -EBADF;
        bool tmpl = p->tmpl.used, ipc = p->ipc_owner;
        const char *what = tmpl ? "template" : ipc ? "ipc namespace" : "network container";
        sbx_sync_msg msg;
        siginfo_t info = {};
        int r;
        pid_t helper, pid;

        r = sbx_sync_open(&back_r, &back_w, reterr);
        if (r < 0)
                return r;
        pid_t launcher = getpid();
        helper = fork();
        if (helper < 0)
                return sbx_error_set(reterr, -errno, "%s: fork", what);
        if (helper == 0) {
                int child_pidfd = -EBADF, procdir = -EBADF, e = 0;
                sbx_error err = {};
                long c;

                /* Never outlive sbx (a sandbox cloned for a dead launcher
                 * would have nobody to kill it), and hold no end of its
                 * sync socket: the child's check that sbx is alive is that
                 * socket's other end. */
                if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != launcher)
                        _exit(SBX_EXIT_FAILURE);
                close(sync_parent);

                /* clone3 takes CLONE_PARENT only without an exit signal of its
                 * own: the child gets ours (SIGCHLD), sent to our parent */
                if (!tmpl && !ipc)
                        args->flags &= ~(uint64_t) (CLONE_NEWUSER | CLONE_NEWNET);
                if (ipc)
                        args->flags &= ~(uint64_t) CLONE_NEWIPC;
                args->flags |= CLONE_PARENT;
                args->exit_signal = 0;
                args->pidfd = (uintptr_t) &child_pidfd;
                if (tmpl || ipc) {
                        /* the host's /proc, for the child's maps: the
                         * template's shows only the holder */
                        procdir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
                        if (procdir < 0 || (tmpl && sbx_template_enter(p) < 0))
                                e = -errno;
                        else if (ipc && (e = sbx_ipc_owner_enter(procdir)) < 0)
                                sbx_error_set(&err, e, "%s: a user namespace mapping 0 to us and its IPC "
                                                       "namespace (the sandbox's)", what);
                } else {
                        /* ipc14: rootless as a uid other than 0, NAME (such a
                         * uid too) is nested in a user namespace mapping 0 to
                         * us: the sandbox's IPC namespace comes from there,
                         * and the child bounds it (this copy of the plan) */
                        if (!p->privileged && p->uid != 0 && sbx_ipc_owner_join(p->net.join_userns_fd) == 0) {
                                args->flags &= ~(uint64_t) CLONE_NEWIPC;
                                p->ipc_owner = true;
                        }
                        if (setns(p->net.join_userns_fd, CLONE_NEWUSER) < 0 || setns(p->net.join_fd, CLONE_NEWNET) < 0)
                                e = -errno;
                }
                if (e < 0) {
                        if (!err.code)
                                sbx_error_set(&err, e, tmpl ? "template: enter the holder's user and mount namespaces"
                                                            : "network container: enter the sandbox's user and network namespaces");
                        _exit(sbx_sync_send(back_w, 0, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
                }
                c = sys_clone3(args);
                if (c < 0) {
                        sbx_error_set(&err, -errno, tmpl ? "template: clone3 (user, mount, pid, net, ipc, uts, "
                                                           "cgroup namespaces) inside the template's user namespace"
                                                    : ipc ? "ipc namespace: clone3 (user, mount, pid, net, uts, "
                                                            "cgroup namespaces) inside the IPC namespace's user namespace"
                                                         : "network container: clone3 (mount, pid, ipc, uts, cgroup "
                                                           "namespaces) inside the sandbox's user namespace");
                        _exit(sbx_sync_send(back_w, 0, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
                }
                if (c == 0) {
                        close(back_w);
                        /* unprivileged, the child writes its own maps there */
                        p->tmpl.host_proc = procdir;
                        child_main(p, sync_child, oldmask);
                }
                /* the maps (only the template's user namespace may write
                 * them); the launcher releases the child */
                if (tmpl && p->privileged) {
                        char name[24];
                        int pfd;

                        snprintf(name, sizeof(name), "%ld", c);
                        pfd = openat(procdir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                        if (pfd < 0 || sbx_userns_write_maps(p, pfd, &err) < 0) {
                                if (pfd < 0)
                                        sbx_error_set(&err, -errno, "template: open /proc/%ld", c);
                                (void) sys_pidfd_send_signal(child_pidfd, SIGKILL);
                                _exit(sbx_sync_send(back_w, 1, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
                        }
                }
                _exit(sbx_sync_send_fd(back_w, 1, SBX_SYNC_MAPS_WRITTEN, child_pidfd) < 0);
        }
        closep(&back_w);
        back_w = -EBADF;
        r = sbx_sync_recv_fd(back_r, SYNC_TIMEOUT_MS, &msg, &pidfd);
        /* the spawner exits right after it reported: reaped later */
        if (tmpl && r >= 0 && msg.type != SBX_SYNC_ERROR)
                p->tmpl.spawner = helper;
        else
                (void) waitid(P_PID, (id_t) helper, &info, WEXITED);
        if (r >= 0 && msg.type == SBX_SYNC_ERROR) {
                *reterr = msg.error;
                if (tmpl && msg.seq == 0)
                        return -ESTALE;         /* no child: build the root ourselves */
                return reterr->code < 0 ? reterr->code : -EIO;
        }
        if (r < 0 || pidfd < 0 || (pid = sbx_pidfd_pid(pidfd)) <= 0)
                return sbx_error_set(reterr, r < 0 ? r : -ECHILD,
                                     "%s: no sandbox came back from the helper (status %d)", what, info.si_status);
        *ret_pidfd = TAKE_FD(pidfd);
        return (int) pid;
}

/* issue 16: the spawner reported and exits: reaped once the child runs. */
static void reap_spawner(sbx_plan *p) {
        if (p->tmpl.spawner > 0) {
                (void) waitpid(p->tmpl.spawner, NULL, 0);
                p->tmpl.spawner = 0;
        }
}

/* Through PROCFD, the child's /proc/<pid>: the id maps (privileged: they name a subordinate range
 * only we may write) and the network; then #1 releases the child. */
static int release_child(sbx_plan *p, pid_t pid, int procfd, int sync_parent, sbx_error *reterr) {
        int r = 0;

        if (p->privileged && !(p->tmpl.used && !p->tmpl.direct))  /* a spawner's template: it wrote them */
                r = sbx_userns_write_maps(p, procfd, reterr);
        if (r >= 0)
                r = sbx_net_attach_proc(&p->net, pid, procfd, reterr);
        if (r < 0)
                return r;
        r = sbx_sync_send(sync_parent, 1, SBX_SYNC_MAPS_WRITTEN, 0, NULL);
        return r < 0 ? sbx_error_set(reterr, r, "sync #1: release the child") : 0;
}

int sbx_clone_into_cgroup(const sbx_plan *p, struct clone_args *args) {
#if HAVE_CLONE_INTO_CGROUP
        if (p->cgroup.dirfd >= 0) {
                args->flags |= CLONE_INTO_CGROUP;
                args->cgroup = p->cgroup.dirfd;
        }
        return 0;
#else
        return p->cgroup.dirfd >= 0 ? -EOPNOTSUPP : 0;
#endif
}

/* An OCI container: the namespaces config.json asks for. Those it joins by
 * path (all but user) are entered by the launcher around the clone3 and left
 * again, as for network container:NAME below; the cgroup is entered
 * atomically when given. */
static int spawn_container(sbx_plan *p, struct clone_args *args, int cgroup_fd, int sync_child, int sync_parent,
                           const sigset_t *oldmask, int *ret_pidfd, sbx_error *reterr) {
        static const struct { int idx; int type; const char *file; } joinable[] = {
                { SBX_CTR_NS_IPC, CLONE_NEWIPC, "ipc" }, { SBX_CTR_NS_UTS, CLONE_NEWUTS, "uts" },
                { SBX_CTR_NS_NET, CLONE_NEWNET, "net" }, { SBX_CTR_NS_PID, CLONE_NEWPID, "pid_for_children" },
                { SBX_CTR_NS_CGROUP, CLONE_NEWCGROUP, "cgroup" }, { SBX_CTR_NS_TIME, CLONE_NEWTIME, "time_for_children" },
                { SBX_CTR_NS_MNT, CLONE_NEWNS, "mnt" },
        };
        const sbx_container *c = p->container;
        int own[ELEMENTSOF(joinable)], r = 0, pidfd = -EBADF;
        long pid = -1;

        args->flags = p->clone_flags | CLONE_PIDFD;
        args->pidfd = (uintptr_t) &pidfd;
        if (cgroup_fd >= 0) {
                args->flags |= CLONE_INTO_CGROUP;
                args->cgroup = (uint64_t) cgroup_fd;
        }
        for (size_t i = 0; i < ELEMENTSOF(joinable); i++) {
                char path[64];
                own[i] = -EBADF;
                if (c->join_fds[joinable[i].idx] < 0 || r < 0)
                        continue;
                snprintf(path, sizeof(path), "/proc/self/ns/%s", joinable[i].file);
                own[i] = open(path, O_RDONLY | O_CLOEXEC);
                if (own[i] < 0 || setns(c->join_fds[joinable[i].idx], joinable[i].type) < 0)
                        r = sbx_error_set(reterr, -errno, "linux.namespaces: join the %s namespace", joinable[i].file);
        }
        if (r >= 0) {
                pid = sys_clone3(args);
                if (pid < 0)
                        r = sbx_error_set(reterr, -errno, "clone3 (the namespaces in config.json)");
                else if (pid == 0) {
                        close(sync_parent);
                        child_main(p, sync_child, oldmask);
                }
        }
        /* back to our own namespaces, in reverse; a failure here is fatal */
        for (size_t i = ELEMENTSOF(joinable); i-- > 0;) {
                if (own[i] < 0)
                        continue;
                if (setns(own[i], joinable[i].type) < 0) {
                        dprintf(STDERR_FILENO, "sbx: cannot return to the runtime's %s namespace\n", joinable[i].file);
                        _exit(SBX_EXIT_FAILURE);
                }
                close(own[i]);
        }
        if (r < 0) {
                if (pid > 0)
                        pidfd_killp(&pidfd);
                return r;
        }
        *ret_pidfd = pidfd;
        return (int) pid;
}

/* The child has the cgroup v1 "tasks" fds now (it joins through them); we need them no more. */
static void close_cgroup_tasks(sbx_plan *p) {
        for (unsigned i = 0; i < SBX_CGROUP_V1_MAX; i++) {
                closep(&p->cgroup_tasks[i]);
                p->cgroup_tasks[i] = -EBADF;
        }
}

/* One clone3 with every namespace; the cgroup is entered atomically (v2), or the child joins it
 * first thing (v1). */
/* issue 16 (SECURITY.md 5b): when we serve the child nothing but its id maps
 * until its exec (no network to attach, no pty, setup command, exec log or
 * timeout), it need not be a copy of this process: it shares our memory on
 * its own stack, as posix_spawn's child does, and we touch nothing of ours
 * until it has exec'd or died. Rootless it maps itself and we sleep from the
 * clone on (CLONE_VFORK); as root see release_shared(). No page tables copied
 * and torn down again at its exec, no copy-on-write faults on either side.
 * Everything it changes is its own (fds, credentials, namespaces, signal
 * dispositions, mask) except the memory's dumpable flag, which we restore;
 * it allocates nothing. SBX_SPAWN_COPY=1 forces the copy (paired benchmarks). */
#if defined(__SANITIZE_ADDRESS__)
#  define SBX_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define SBX_ASAN 1
#  endif
#endif
static bool shares_memory_until_exec(const sbx_plan *p) {
#ifdef SBX_ASAN
        /* ASan keeps one shadow stack per thread and cannot follow a child
         * on a stack of its own in the same memory (it warns on the child's
         * stderr at every noreturn call): sanitizer builds take the copy */
        (void) p;
        return false;
#else
        return !p->tty && !p->setup_command && !p->notify_insns && !p->timeout_sec && getenv("SBX_SPAWN_COPY") == NULL;
#endif
}

/* issue 16, root: right after the clone, back from the holder's mount
 * namespace (template.c). Fatal when it fails: sbx never goes on in a
 * template's tree (the child, if any, is killed first). */
static void leave_template(const sbx_plan *p, struct sbx_template_back *back, int pidfd) {
        int fatal_fd = p->tmpl.fatal_fd;

        if (!back || sbx_template_leave(back) == 0)
                return;
        if (pidfd >= 0)
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        (void) !write(fatal_fd > 0 ? fatal_fd : STDERR_FILENO, "sbx: cannot return to the launcher's mount namespace\n", 53);
        _exit(SBX_EXIT_FAILURE);
}

struct shared_child {
        const sbx_plan *p;
        int sync_child, sync_parent;
        const sigset_t *oldmask;
        struct sbx_template_back back;  /* a copy: the parent's own changes when it leaves */
};

/* The child: none of the launcher's own namespace, root and cwd fds
 * (issue 16, root templates), nor its end of the sync socket. */
static void child_close_launcher_fds(const struct sbx_template_back *back, int sync_parent) {
        close(sync_parent);
        if (back && back->entered) {
                (void) close(back->mnt);
                (void) close(back->root);
                (void) close(back->cwd);
        }
}

static int shared_child_main(void *arg) {
        const struct shared_child *a = arg;

        child_close_launcher_fds(&a->back, a->sync_parent);
        child_main(a->p, a->sync_child, a->oldmask);
}

#define SHARED_CHILD_STACK (8u << 20)
#define SHARED_CHILD_GUARD 4096u

static int release_child(sbx_plan *p, pid_t pid, int procfd, int sync_parent, sbx_error *reterr);
static int child_error(int sync_parent, int status, sbx_error *reterr);

/* Root: the child waits for its maps (#1), so we cannot sleep from the
 * clone on. We run alongside it only for that: open /proc/<pid>, write the
 * maps, send #1 (syscalls on our own stack; nothing of the plan is written),
 * then sleep on a CLOEXEC pipe whose other end the child holds until its exec
 * (or death: its memory is released before its files). A failure kills the
 * child and still waits for that end before anything else runs here. (errno
 * is the child's too meanwhile: a failure's message may name another errno.) */
static long release_shared(sbx_plan *p, long pid, int pidfd, int exec_r, int sync_parent, sbx_error *reterr) {
        _cleanup_close_ int procfd = -EBADF;
        char c;
        int r;

        procfd = open_proc_pid((pid_t) pid, reterr);
        r = procfd < 0 ? procfd : release_child(p, (pid_t) pid, procfd, sync_parent, reterr);
        if (r < 0)
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        while (read(exec_r, &c, 1) < 0 && errno == EINTR)
                ;
        /* as kill_child(): the child's own error (#3), if it failed first */
        if (r < 0)
                return child_error(sync_parent, SBX_EXIT_FAILURE, reterr), r;
        p->spawn_released = true;
        return pid;
}

static long spawn_shared(sbx_plan *p, const struct clone_args *args, int sync_child, int sync_parent,
                         const sigset_t *oldmask, int *ret_pidfd, struct sbx_template_back *back,
                         sbx_error *reterr) {
        struct shared_child a = { .p = p, .sync_child = sync_child, .sync_parent = sync_parent, .oldmask = oldmask,
                                  .back = *back };
        int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), e, flags, exec_pipe[2] = { -EBADF, -EBADF };
        bool wait_release = child_waits_for_parent(p);
        void *stack;
        long pid;

        /* root: an end for the child to hold until its exec */
        if (wait_release && pipe2(exec_pipe, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, -errno, "spawn: pipe");
        stack = mmap(NULL, SHARED_CHILD_STACK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (stack == MAP_FAILED || mprotect(stack, SHARED_CHILD_GUARD, PROT_NONE) < 0) {
                e = -errno;
                if (stack != MAP_FAILED)
                        (void) munmap(stack, SHARED_CHILD_STACK);
                closep(&exec_pipe[0]);
                closep(&exec_pipe[1]);
                return sbx_error_set(reterr, e, "spawn: the child's stack");
        }
        /* without a release to wait for: we sleep from here (CLONE_VFORK) */
        flags = (int) args->flags | CLONE_VM | (wait_release ? 0 : CLONE_VFORK) | (int) args->exit_signal;
        pid = clone(shared_child_main, (char *) stack + SHARED_CHILD_STACK, flags, &a, ret_pidfd);
        e = -errno;
        if (pid > 0)            /* a failed clone: the caller leaves (or, ENOSYS, clones again first) */
                leave_template(p, back, *ret_pidfd);
        closep(&exec_pipe[1]);
        if (pid > 0 && wait_release)
                pid = release_shared(p, pid, *ret_pidfd, exec_pipe[0], sync_parent, reterr);
        else if (pid < 0)
                pid = sbx_error_set(reterr, e, "clone (user, mount, pid, net, ipc, uts, cgroup namespaces)");
        closep(&exec_pipe[0]);
        /* it has exec'd (its own memory now) or died: the stack is ours again */
        (void) munmap(stack, SHARED_CHILD_STACK);
        /* its PR_SET_DUMPABLE and id changes set the flag of this memory */
        if (dumpable >= 0)
                (void) prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
        return pid;
}

/* issue 16, session 13: a rootless run from a template whose child needs
 * nothing of ours until its exec (spawn_shared()'s conditions; rootless
 * the child writes its own maps and waits for no release). The spawner of
 * spawn_via_helper() without copies: it shares our memory on a stack of its
 * own while we sleep (CLONE_VFORK), enters the holder's user and mount
 * namespaces and clones the sandbox child the same way (CLONE_VM |
 * CLONE_VFORK | CLONE_PARENT: our child, sleeping in the spawner until the
 * child's exec or death); then it reports the child's pidfd over the sync
 * pair and exits, and we go on. At any moment one of the three runs on this
 * memory. The fork of sbx and the copy of the spawner for the child were
 * most of what a rootless template cost beyond the per-run root (paired,
 * ≈5 % more CPU, ≈80 more page faults per run: bench/README.md). The
 * spawner writes one thing of ours, the plan's host_proc for the child
 * (restored below), and the memory's dumpable flag (restored as in
 * spawn_shared()). */
struct shared_spawner {
        sbx_plan *p;
        bool tmpl;                      /* enter the template's holder (else only the IPC owner, ipc14) */
        unsigned long flags;
        int sync_child, sync_parent, back_w;
        const sigset_t *oldmask;
        pid_t launcher;
        char *child_stack;
};

static int shared_sandbox_main(void *arg) {
        const struct shared_spawner *a = arg;

        close(a->back_w);
        child_main(a->p, a->sync_child, a->oldmask);
}

static int shared_spawner_main(void *arg) {
        const struct shared_spawner *a = arg;
        int child_pidfd = -EBADF, procdir;
        sbx_error err = {};
        long c;

        /* as spawn_via_helper()'s spawner: never outlive sbx; no end of
         * its sync socket for the child */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != a->launcher)
                _exit(SBX_EXIT_FAILURE);
        close(a->sync_parent);
        /* the host's /proc, for the child's maps: the template's shows only the holder */
        procdir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (procdir < 0 || (a->tmpl && sbx_template_enter(a->p) < 0)) {
                sbx_error_set(&err, -errno, procdir < 0 ? "spawner: open /proc"
                                                        : "template: enter the holder's user and mount namespaces");
                _exit(sbx_sync_send(a->back_w, 0, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        /* ipc14: the IPC namespace's owner, mapping 0 to us (spawn_via_helper) */
        if (a->p->ipc_owner && (c = sbx_ipc_owner_enter(procdir)) < 0) {
                sbx_error_set(&err, (int) c, "%s: a user namespace mapping 0 to us and its IPC namespace (the "
                                             "sandbox's)", a->tmpl ? "template" : "ipc namespace");
                _exit(sbx_sync_send(a->back_w, 0, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        a->p->tmpl.host_proc = procdir;
        c = clone(shared_sandbox_main, a->child_stack, (int) a->flags, (void *) a, &child_pidfd);
        if (c < 0) {
                sbx_error_set(&err, -errno, "%s: clone (user, mount, pid, net, ipc, uts, cgroup namespaces) "
                                            "inside the %s user namespace", a->tmpl ? "template" : "ipc namespace",
                              a->tmpl ? "template's" : "IPC namespace's");
                _exit(sbx_sync_send(a->back_w, 0, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        /* the child has exec'd or died */
        _exit(sbx_sync_send_fd(a->back_w, 1, SBX_SYNC_MAPS_WRITTEN, child_pidfd) < 0);
}

static int spawn_template_shared(sbx_plan *p, const struct clone_args *args, int sync_child, int sync_parent,
                                 const sigset_t *oldmask, int *ret_pidfd, sbx_error *reterr) {
        _cleanup_close_ int back_r = -EBADF, back_w = -EBADF, pidfd = -EBADF;
        int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), host_proc = p->tmpl.host_proc, r;
        struct shared_spawner a = { .p = p, .tmpl = p->tmpl.used, .sync_child = sync_child,
                                    .sync_parent = sync_parent, .oldmask = oldmask, .launcher = getpid() };
        sbx_sync_msg msg;
        siginfo_t info = {};
        char *stacks;
        pid_t spawner, pid;

        r = sbx_sync_open(&back_r, &back_w, reterr);
        if (r < 0)
                return r;
        a.back_w = back_w;
        /* clone() takes CLONE_PARENT with no exit signal of its own: the
         * child gets the spawner's (SIGCHLD), sent to us */
        a.flags = (args->flags & ~(uint64_t) (CLONE_INTO_CGROUP | (p->ipc_owner ? CLONE_NEWIPC : 0))) | CLONE_VM |
                  CLONE_VFORK | CLONE_PARENT;
        stacks = mmap(NULL, 2 * SHARED_CHILD_STACK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (stacks == MAP_FAILED || mprotect(stacks, SHARED_CHILD_GUARD, PROT_NONE) < 0 ||
            mprotect(stacks + SHARED_CHILD_STACK, SHARED_CHILD_GUARD, PROT_NONE) < 0) {
                r = -errno;
                if (stacks != MAP_FAILED)
                        (void) munmap(stacks, 2 * SHARED_CHILD_STACK);
                return sbx_error_set(reterr, r, "%s: the spawner's and the child's stacks",
                                     a.tmpl ? "template" : "ipc namespace");
        }
        a.child_stack = stacks + 2 * SHARED_CHILD_STACK;
        spawner = clone(shared_spawner_main, stacks + SHARED_CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
        r = spawner < 0 ? -errno : 0;
        /* the spawner has exited: its report is in the socket */
        if (spawner > 0)
                (void) waitid(P_PID, (id_t) spawner, &info, WEXITED);
        (void) munmap(stacks, 2 * SHARED_CHILD_STACK);
        if (dumpable >= 0)
                (void) prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
        p->tmpl.host_proc = host_proc;
        if (r < 0)
                return sbx_error_set(reterr, r, "%s: clone the spawner", a.tmpl ? "template" : "ipc namespace");
        closep(&back_w);
        back_w = -EBADF;
        r = sbx_sync_recv_fd(back_r, SYNC_TIMEOUT_MS, &msg, &pidfd);
        if (r >= 0 && msg.type == SBX_SYNC_ERROR) {
                *reterr = msg.error;
                if (msg.seq == 0 && a.tmpl)
                        return -ESTALE;         /* no child: build the root ourselves */
                return reterr->code < 0 ? reterr->code : -EIO;
        }
        if (r < 0 || pidfd < 0 || (pid = sbx_pidfd_pid(pidfd)) <= 0)
                return sbx_error_set(reterr, r < 0 ? r : -ECHILD,
                                     "%s: no sandbox came back from the spawner (status %d)",
                                     a.tmpl ? "template" : "ipc namespace", info.si_status);
        *ret_pidfd = TAKE_FD(pidfd);
        return (int) pid;
}

/* A rootless template run's spawner (and child) on our memory
 * (spawn_template_shared), not a fork (spawn_via_helper). */
static bool rootless_spawner_shares(const sbx_plan *p, const struct clone_args *args) {
        return !p->privileged && !child_waits_for_parent(p) && !(args->flags & CLONE_INTO_CGROUP) &&
               shares_memory_until_exec(p);
}

/* release_from_spawn: sbx run's own launch, which lets a root run's child
 * share our memory (spawn_shared() then writes the maps and sends #1) */
static int spawn_clone(sbx_plan *p, int sync_child, int sync_parent, const sigset_t *oldmask, int *ret_pidfd,
                       bool release_from_spawn, sbx_error *reterr) {
        _cleanup_close_ int own_net = -EBADF;
        struct sbx_template_back back = { .mnt = -EBADF, .root = -EBADF, .cwd = -EBADF };
        int pidfd = -EBADF;
        struct clone_args args = {
                .flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                         CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_PIDFD,
                .pidfd = (uintptr_t) &pidfd,
                .exit_signal = SIGCHLD,
        };
        long pid;

        if (p->container)
                return spawn_container(p, &args, p->container->cgroup_fd, sync_child, sync_parent, oldmask, ret_pidfd, reterr);
        if (sbx_clone_into_cgroup(p, &args) < 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "clone3: built without CLONE_INTO_CGROUP");
        if (p->net.kind == SBX_NET_KIND_JOIN && p->net.join_userns_fd >= 0)
                return spawn_via_helper(p, &args, sync_child, sync_parent, oldmask, ret_pidfd, reterr);
        /* issue 16: a template holder's namespaces when there is a live,
         * fresh one (decided here, before any clone3); else the root is
         * built per run, below, to the same view. Not under an exec
         * allowlist as root: the child sets vm.memfd_noexec with host
         * root's ids, which a spawner in the template has given up.
         * Root (session 10): no spawner; we enter the holder's mount
         * namespace ourselves for the clone below and come back right
         * after it (leave_template). Rootless below SBX_TEMPLATE_THREADS
         * host threads (tmpl.shared_only, session 14) only where the
         * spawner runs on our memory: a forked one costs what it saves. */
        if (p->tmpl.eligible && p->net.kind == SBX_NET_KIND_NONE && !p->memfd_noexec &&
            (!p->tmpl.shared_only || rootless_spawner_shares(p, &args)) && sbx_template_acquire(p) >= 0 &&
            p->tmpl.direct) {
                if (sbx_template_enter_mnt(p, &back) < 0) {
                        p->tmpl.used = p->tmpl.direct = false;
                        closep(&p->tmpl.holder_pidfd);
                        p->tmpl.holder_pidfd = -EBADF;
                }
        } else if (p->tmpl.used) {
                sbx_error tmpl_err = {};
                struct clone_args targs = args;

                if (rootless_spawner_shares(p, &args))
                        pid = spawn_template_shared(p, &targs, sync_child, sync_parent, oldmask, ret_pidfd, &tmpl_err);
                else
                        pid = spawn_via_helper(p, &targs, sync_child, sync_parent, oldmask, ret_pidfd, &tmpl_err);
                if (pid >= 0) {
                        close_cgroup_tasks(p);
                        return (int) pid;
                }
                if (pid != -ESTALE) {
                        *reterr = tmpl_err;
                        return (int) pid;
                }
                p->tmpl.used = false;
                closep(&p->tmpl.holder_pidfd);
                p->tmpl.holder_pidfd = -EBADF;
        }
        /* ipc14: rootless as a uid other than 0, without a template: a
         * spawner makes the IPC namespace's owner and clones the sandbox
         * in it, on our memory where the child could share it (as
         * spawn_shared), else a fork */
        if (p->ipc_owner) {
                if (!child_waits_for_parent(p) && !(args.flags & CLONE_INTO_CGROUP) && shares_memory_until_exec(p))
                        pid = spawn_template_shared(p, &args, sync_child, sync_parent, oldmask, ret_pidfd, reterr);
                else
                        pid = spawn_via_helper(p, &args, sync_child, sync_parent, oldmask, ret_pidfd, reterr);
                if (pid >= 0)
                        close_cgroup_tasks(p);
                return (int) pid;
        }
        /* network container:NAME as root: the child is born in NAME's network
         * namespace. Only the launcher (host credentials) may enter it, so it
         * does, clones without CLONE_NEWNET, and returns to its own. */
        if (p->net.kind == SBX_NET_KIND_JOIN) {
                own_net = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
                if (own_net < 0)
                        return sbx_error_set(reterr, -errno, "network container: open /proc/self/ns/net");
                if (setns(p->net.join_fd, CLONE_NEWNET) < 0)
                        return sbx_error_set(reterr, -errno, "network container: enter the network namespace");
                args.flags &= ~(uint64_t) CLONE_NEWNET;
        }
        if (own_net < 0 && !(args.flags & CLONE_INTO_CGROUP) && p->net.kind == SBX_NET_KIND_NONE &&
            (!p->privileged || release_from_spawn) && shares_memory_until_exec(p)) {
                pid = spawn_shared(p, &args, sync_child, sync_parent, oldmask, &pidfd, &back, reterr);
                if (pid >= 0) {
                        close_cgroup_tasks(p);
                        *ret_pidfd = pidfd;
                        return (int) pid;
                }
                if (pidfd >= 0) {               /* a child was made: no second try */
                        pidfd_killp(&pidfd);
                        return (int) pid;
                }
                if (pid != -ENOSYS) {
                        leave_template(p, &back, -EBADF);
                        return (int) pid;
                }
                *reterr = (sbx_error) {};       /* clone filtered around us: the copy below */
        }
        pid = sys_clone3(&args);
        if (pid < 0 && errno == ENOSYS) {
                /* No clone3 (old kernel, or a seccomp filter around us): clone()
                 * gives the same namespaces and pidfd, but cannot enter a cgroup
                 * atomically, so with limits we refuse rather than start the
                 * sandbox outside its cgroup for a moment. */
                if (p->cgroup.dirfd >= 0) {
                        leave_template(p, &back, -EBADF);
                        return sbx_error_set(reterr, -ENOSYS,
                                             "clone3 is not available: cannot start the sandbox inside its cgroup");
                }
                pid = syscall(SYS_clone, (unsigned long) (args.flags | SIGCHLD), NULL, &pidfd, NULL, NULL);
        }
        if (pid != 0)
                leave_template(p, &back, pid > 0 ? pidfd : -EBADF);
        if (pid != 0 && own_net >= 0 && setns(own_net, CLONE_NEWNET) < 0) {
                /* Never go on in a sandbox's network: kill the child, fail. */
                int e = -errno;
                if (pid > 0)
                        pidfd_killp(&pidfd);
                return sbx_error_set(reterr, e, "network container: return to the launcher's network namespace");
        }
        if (pid < 0)
                return sbx_error_set(reterr, -errno, "clone3 (user, mount, pid, net, ipc, uts, cgroup namespaces)");
        if (pid == 0) {
                child_close_launcher_fds(&back, sync_parent);
                child_main(p, sync_child, oldmask);
        }
        close_cgroup_tasks(p);
        *ret_pidfd = pidfd;
        return (int) pid;
}

/* The clone, from a template holder or not; the holder (if any) no longer
 * in use by this run once it is done (a spawner still holding it until it
 * is reaped). */
static int spawn(sbx_plan *p, int sync_child, int sync_parent, const sigset_t *oldmask, int *ret_pidfd,
                 bool release_from_spawn, sbx_error *reterr) {
        int pid = spawn_clone(p, sync_child, sync_parent, oldmask, ret_pidfd, release_from_spawn, reterr);

        sbx_template_release(p);
        return pid;
}

/* After the child is gone: the error record it left, if any (#3). */
static int child_error(int sync_parent, int status, sbx_error *reterr) {
        sbx_sync_msg msg;

        if (sbx_sync_recv(sync_parent, 0, &msg) < 0 || msg.type != SBX_SYNC_ERROR)
                return status;
        *reterr = msg.error;
        if (reterr->code == 0)
                reterr->code = -EIO;
        return msg.status > 0 && msg.status < 256 ? msg.status : SBX_EXIT_FAILURE;
}

/* The launch failed half-way: kill and reap the child; it may have failed first, and then its
 * error record says why. */
static int kill_child(int pidfd, int sync_parent, sbx_error *reterr) {
        siginfo_t info;

        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        (void) waitid(P_PIDFD, pidfd, &info, WEXITED);
        return child_error(sync_parent, SBX_EXIT_FAILURE, reterr);
}

/* A descriptor the child passes in a record of TYPE, in *ret_fd; -EBADF there when the child died
 * or failed before (supervise reaps it, child_error() reports). STEP, WHAT and RECORD name it in
 * messages. */
static int receive_fd(int sync_parent, int type, const char *step, const char *what, const char *record,
                      int *ret_fd, sbx_error *reterr) {
        _cleanup_close_ int passed = -EBADF;
        sbx_sync_msg msg;
        int r;

        *ret_fd = -EBADF;
        r = sbx_sync_recv_fd(sync_parent, SYNC_TIMEOUT_MS, &msg, &passed);
        if (r == -EPIPE)
                return 0;
        if (r < 0)
                return sbx_error_set(reterr, r, "%s: receive %s", step, what);
        if (msg.type == SBX_SYNC_ERROR) {
                *reterr = msg.error;
                return -EIO;
        }
        if ((int) msg.type != type || passed < 0)
                return sbx_error_set(reterr, -EPROTO, "%s: bad %s record", step, record);
        *ret_fd = TAKE_FD(passed);
        return 0;
}

/* --tty: #2 carries the pty master from the sandbox's devpts. */
static int receive_pty(sbx_plan *p, int sync_parent, sbx_error *reterr) {
        int fd, r = receive_fd(sync_parent, SBX_SYNC_PTY, "sync #2", "the pty", "pty", &fd, reterr);

        if (r >= 0 && fd >= 0)
                sbx_tty_attach(p, fd);
        return r;
}

/* issue 14: the exec log's listener, from the child (before its exec), on
 * to the listener process. The child's failure before that: -EPIPE or its
 * error record (child_error() reports it). */
static int receive_listener(int sync_parent, int listener_sock, sbx_error *reterr) {
        _cleanup_close_ int passed = -EBADF;
        int r;

        r = receive_fd(sync_parent, SBX_SYNC_LISTENER, "sync", "the exec log listener", "exec log", &passed,
                       reterr);
        if (r < 0 || passed < 0)
                return r;
        r = sbx_sync_send_fd(listener_sock, 1, SBX_SYNC_LISTENER, passed);
        return r < 0 ? sbx_error_set(reterr, r, "exec log: hand the listener over") : 0;
}

/* The audit log (issue 6): opened first, so a refusal is logged too. */
static int audit_open(const sbx_run_config *c, sbx_audit *a, sbx_error *reterr) {
        char base[PATH_MAX];

        *a = (sbx_audit) { .fd = -EBADF, .agent = c->agent, .session = c->session, .scope_key = c->scope_key };
        sbx_statedir_base(c, base, sizeof(base));
        return sbx_audit_open(a, c->audit_log, base, reterr);
}

static void audit_closep(sbx_audit *a) {
        sbx_audit_close(a);
}

static void notice_unenforced(const sbx_run_config *c, const sbx_plan *p) {
        char m[SBX_ERROR_MSG_MAX + 320];

        /* --limits best-effort: never silently unlimited (issue 5). */
        if (p->cgroup.unenforced[0] && c->notice) {
                snprintf(m, sizeof(m), "warning: --limits best-effort: running without [%s]: %s",
                         p->cgroup.unenforced, p->cgroup.unenforced_reason);
                c->notice(m);
        }
        /* --landlock best-effort: never silently without the derived rules (issue 6). */
        if (p->landlock.unenforced[0] && c->notice) {
                snprintf(m, sizeof(m), "warning: --landlock best-effort: Landlock is not available, "
                         "NOT enforced: %s", p->landlock.unenforced);
                c->notice(m);
        }
}

/* Decide, plan, log the decision. Returns 0 or the exit status. */
static int plan_and_decide(const sbx_run_config *c, const sbx_audit *a, sbx_plan **ret, sbx_error *reterr) {
        sbx_exec_verdict v;
        int r;

        r = sbx_plan_prepare_decided(c, ret, &v, reterr);
        if (v.decided && sbx_audit_exec(a, c->argv, &v) < 0 && r >= 0)
                r = sbx_error_set(reterr, -EIO, "--audit-log: write the exec record");
        if (r >= 0)
                return 0;
        if (v.status)
                return v.status;
        r = r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
        /* allowed, then the rest of the plan failed: say so next to the decision */
        (void) sbx_audit_setup_error(a, r, reterr);
        return r;
}

int sbx_run(const sbx_run_config *c, sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_(pidfd_killp) int pidfd = -EBADF;
        _cleanup_close_ int sync_parent = -EBADF, sync_child = -EBADF, procfd = -EBADF, listener_sock = -EBADF;
        _cleanup_(audit_closep) sbx_audit audit = { .fd = -EBADF };
        int status, had, r;
        char oom[128];
        bool oom_kill = false;
        sigset_t oldmask;
        pid_t pid;

        /* Single-threaded, or the child could inherit a held lock; the audit log before any
         * decision: refusals are logged too. */
        if (assert_single_threaded(reterr) < 0 || audit_open(c, &audit, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* Everything decided and allocated before clone3, the exec first. */
        status = plan_and_decide(c, &audit, &p, reterr);
        if (status != 0)
                return status;
        notice_unenforced(c, p);
        /* issue 14: under an exec allowlist, the exec log sees every exec of
         * the tree and refuses what Landlock cannot see (memfds, the ELF
         * loader run as a program); its listener lives outside the sandbox. */
        if (c->exec_allow_set && !c->exec_refused_rule) {
                p->notify_cookie = sbx_exec_cookie();
                r = sbx_seccomp_compile_exec_notify(p->notify_cookie, &p->notify_insns, &p->notify_len, reterr);
                if (r >= 0)
                        r = sbx_exec_listener_start(c, NULL, &audit, false, &listener_sock, NULL, reterr);
                if (r < 0)
                        return SBX_EXIT_FAILURE;
        }
        if (sbx_sync_open(&sync_parent, &sync_child, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* Block the forwarded signals now so none is lost before supervise. */
        if (sbx_supervise_block_signals(&oldmask) < 0)
                return sbx_error_set(reterr, -errno, "sigprocmask"), SBX_EXIT_FAILURE;
        pid = spawn(p, sync_child, sync_parent, &oldmask, &pidfd, true, reterr);
        if (pid < 0)
                return SBX_EXIT_FAILURE;
        closep(&sync_child);
        (void) sbx_audit_start(&audit, pid, c->argv);
        /* Privileged: the maps name a subordinate range, which only we may
         * write, from the /proc/<pid> dirfd; then #1 releases the child.
         * Unprivileged, the child maps itself and nobody waits for anybody,
         * unless there is a network to attach first (issue 7: eth0 on the
         * bridge, or pasta), which goes into the child's namespace here.
         * (Done already when the child shares our memory: spawn_shared().) */
        if (child_waits_for_parent(p) && !p->spawn_released) {
                procfd = open_proc_pid(pid, reterr);
                if (procfd < 0)
                        return SBX_EXIT_FAILURE;
                if (release_child(p, pid, procfd, sync_parent, reterr) < 0)
                        return kill_child(pidfd, sync_parent, reterr);
        }
        reap_spawner(p);
        if (p->tty && receive_pty(p, sync_parent, reterr) < 0)
                return SBX_EXIT_FAILURE;
        if (p->notify_insns && receive_listener(sync_parent, listener_sock, reterr) < 0)
                return kill_child(pidfd, sync_parent, reterr);
        closep(&listener_sock);
        listener_sock = -EBADF;
        /* Running: wait, forward, relay. The child's CLOEXEC end closes at
         * exec; we do not wake up for that, a setup or exec error (#3) is
         * read once the child has exited. */
        status = sbx_supervise(p, pidfd, reterr);
        /* An OOM kill shows as SIGKILL; say why (before the cgroup goes away). */
        if (status >= 0 && sbx_cgroup_oom_message(&p->cgroup, &c->limits, oom, sizeof(oom)) == 1) {
                oom_kill = true;
                if (c->notice)
                        c->notice(oom);
        }
        (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
        if (status < 0)
                return SBX_EXIT_FAILURE;
        had = reterr->code;     /* set by supervise on --timeout: not a setup error */
        r = child_error(sync_parent, status, reterr);
        if (r != status || reterr->code != had)
                (void) sbx_audit_setup_error(&audit, r, reterr);
        (void) sbx_audit_exit(&audit, r, status == SBX_EXIT_TIMEOUT, oom_kill ? oom : NULL);
        return r;
}

/* ---- persistent sandboxes (sandbox.c): the launch without supervision ---- */

pid_t sbx_launch_spawn(sbx_plan *p, int sync_child, int sync_parent, const sigset_t *oldmask, int *ret_pidfd,
                       sbx_error *reterr) {
        return spawn(p, sync_child, sync_parent, oldmask, ret_pidfd, false, reterr);
}

int sbx_assert_single_threaded(sbx_error *reterr) {
        return assert_single_threaded(reterr);
}

/* clone3 + id maps, as sbx_run() does; the caller waits for its pid 1 in its
 * own way (sbx-init reports readiness on a pipe) and, if the child died,
 * reads the error record with sbx_launch_child_error(). */
int sbx_launch_start(sbx_plan *p, const sigset_t *oldmask, int *ret_pidfd, int *ret_sync, sbx_error *reterr) {
        _cleanup_(pidfd_killp) int pidfd = -EBADF;
        _cleanup_close_ int sync_parent = -EBADF, sync_child = -EBADF, procfd = -EBADF;
        int r;
        pid_t pid;

        if ((r = sbx_sync_open(&sync_parent, &sync_child, reterr)) < 0)
                return r;
        pid = spawn(p, sync_child, sync_parent, oldmask, &pidfd, false, reterr);
        if (pid < 0)
                return pid;
        closep(&sync_child);
        /* As in sbx_run(): cgroup v1, maps (root) and the network, then #1. */
        if (child_waits_for_parent(p)) {
                procfd = open_proc_pid(pid, reterr);
                if (procfd < 0)
                        return procfd;
                if ((r = release_child(p, pid, procfd, sync_parent, reterr)) < 0)
                        return r;
        }
        reap_spawner(p);
        *ret_pidfd = TAKE_FD(pidfd);
        *ret_sync = TAKE_FD(sync_parent);
        return 0;
}

int sbx_launch_child_error(int sync_parent, int status, sbx_error *reterr) {
        return child_error(sync_parent, status, reterr);
}

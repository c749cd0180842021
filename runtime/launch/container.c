/* SPDX-License-Identifier: MIT */
/* An OCI container through the launcher (runtime/oci is the front end).
 *
 * The plan holds exactly what config.json says: the rootfs bound onto itself
 * as the root, the spec's mounts in order, devices, masked and read-only
 * paths, the namespaces to create or join, the id maps, the process's
 * credentials. The child's order (runtime-spec "Lifecycle"):
 *   maps (#1) -> setup identity -> loopback, hostname, sysctls,
 *   oom_score_adj -> createRuntime point (#4 -> parent runs the prestart and
 *   createRuntime hooks -> #5) -> mounts + pivot_root -> pty (#2) ->
 *   personality -> ready (#6; parent-death signal cleared: the creator exits)
 *   -> block on the exec fifo until `start` -> rlimits -> session ->
 *   bounding set, groups, user, capability sets -> no_new_privs -> umask ->
 *   fds -> cwd -> seccomp -> execve of argv[0] looked up in the container.
 * With an agent's rules (c->rules): the exec decided before clone3 and the
 * decided file run, Landlock after no_new_privs (decide_exec, exec.c). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>

#include "launch.h"
#include "util/util.h"
#include "container.h"
#include "userns.h"
#include "mount.h"
#include "netns.h"
#include "userns.h"

#define SYNC_TIMEOUT_MS 30000

void sbx_container_init(sbx_container *c) {
        *c = (sbx_container) { .wait_fd = -EBADF, .cgroup_fd = -EBADF };
        for (size_t i = 0; i < _SBX_CTR_NS_MAX; i++)
                c->join_fds[i] = -EBADF;
        c->proc.umask = -1;
        c->proc.new_keyring = true;
}

/* ---------------------------------------------------------------- parent */

static sbx_mount_op *add_op(sbx_plan *p, sbx_mount_kind kind, const char *dst, const char *what, sbx_error *reterr) {
        sbx_mount_op *op = sbx_plan_add_mount(p, kind, dst, reterr);

        if (op)
                op->what = what ? sbx_plan_strdup(p, what) : op->dst;
        return op;
}

static unsigned sbx_flags_of(unsigned long ms) {
        return (ms & MS_RDONLY ? SBX_MNT_RO : 0) | (ms & MS_NOSUID ? SBX_MNT_NOSUID : 0) |
               (ms & MS_NODEV ? SBX_MNT_NODEV : 0) | (ms & MS_NOEXEC ? SBX_MNT_NOEXEC : 0);
}

/* A devpts of config.json's (newinstance: the pool every instance but the
 * host's first draws from) gets sbx's max= as its own gets (mount.c): a
 * larger max= or none let one container take every pty of the host. Every
 * other option as given. */
static const char *devpts_data(sbx_plan *p, const char *data) {
        long share = sbx_mount_pty_share(), max = share;
        char out[4096] = "", *copy, *save = NULL;
        size_t n = 0;

        copy = strdup(data ?: "");
        if (!copy)
                return NULL;
        for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
                if (!strncmp(o, "max=", 4)) {
                        char *end;
                        long v = strtol(o + 4, &end, 10);
                        if (!*end && v >= 0 && v < max)
                                max = v;
                        continue;
                }
                n += (size_t) snprintf(out + n, n < sizeof(out) ? sizeof(out) - n : 0, "%s,", o);
        }
        free(copy);
        if (n >= sizeof(out))
                return NULL;
        return sbx_plan_strdupf(p, "%smax=%ld", out, max);
}

static int plan_mount(sbx_plan *p, const sbx_ctr_mount *m, sbx_error *reterr) {
        sbx_mount_op *op;
        struct stat st;

        if (m->flags & MS_BIND) {
                if (stat(m->src, &st) < 0)
                        return sbx_error_set(reterr, -errno, "%s: bind source '%s'", m->what, m->src);
                op = add_op(p, SBX_MOUNT_BIND, m->dst, m->what, reterr);
                if (!op)
                        return -ENOMEM;
                op->src = sbx_plan_strdup(p, m->src);
                op->flags = sbx_flags_of(m->flags) | (S_ISDIR(st.st_mode) ? 0 : SBX_MNT_FILE) |
                            (m->on_proc_ok ? 0 : SBX_MNT_NOT_ON_PROC);
                op->nonrecursive = !m->recursive;
                op->propagation = m->propagation;
                return op->src ? 0 : sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        }
        op = add_op(p, SBX_MOUNT_FS, m->dst, m->what, reterr);
        if (!op)
                return -ENOMEM;
        op->fstype = sbx_plan_strdup(p, m->type);
        op->src = m->src ? sbx_plan_strdup(p, m->src) : NULL;
        op->data = m->data ? sbx_plan_strdup(p, m->data) : NULL;
        if (m->type && !strcmp(m->type, "devpts") && !(op->data = devpts_data(p, m->data)))
                return sbx_error_set(reterr, -ENOMEM, "%s: devpts options", m->what);
        op->ms_flags = m->flags;
        op->propagation = m->propagation;
        op->flags = (m->copyup ? SBX_MNT_COPYUP : 0) | (m->on_proc_ok ? 0 : SBX_MNT_NOT_ON_PROC);
        return op->fstype ? 0 : sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
}

static int plan_device(sbx_plan *p, const sbx_ctr_device *d, sbx_error *reterr) {
        sbx_mount_op *op = add_op(p, SBX_MOUNT_DEVICE, d->path, d->path, reterr);
        mode_t type = d->type == 'b' ? S_IFBLK : d->type == 'p' ? S_IFIFO : S_IFCHR;

        if (!op)
                return -ENOMEM;
        op->mode = type | (d->mode & 07777);
        op->dev = makedev(d->major, d->minor);
        op->dev_uid = d->uid;
        op->dev_gid = d->gid;
        op->src = sbx_plan_strdupf(p, "/dev/%s", d->path + (strncmp(d->path, "/dev/", 5) ? 0 : 5));
        return 0;
}

/* runtime-spec "Default Devices" and "Dev symbolic links". */
static int plan_default_dev(sbx_plan *p, const sbx_container *c, sbx_error *reterr) {
        static const struct { const char *name; unsigned major, minor; } defaults[] = {
                { "null", 1, 3 }, { "zero", 1, 5 }, { "full", 1, 7 },
                { "random", 1, 8 }, { "urandom", 1, 9 }, { "tty", 5, 0 },
        };
        static const char *const links[][2] = {
                { "dev/fd", "/proc/self/fd" }, { "dev/stdin", "/proc/self/fd/0" },
                { "dev/stdout", "/proc/self/fd/1" }, { "dev/stderr", "/proc/self/fd/2" },
                { "dev/ptmx", "pts/ptmx" },
        };
        int r;

        for (size_t i = 0; i < ELEMENTSOF(defaults); i++) {
                char path[32];
                bool given = false;

                snprintf(path, sizeof(path), "/dev/%s", defaults[i].name);
                for (size_t k = 0; k < c->n_devices; k++)
                        given = given || !strcmp(c->devices[k].path, path);
                /* a mount of config.json there already gives it (rootless
                 * podman --privileged binds every host device, /dev/null too) */
                for (size_t k = 0; k < c->n_mounts; k++)
                        given = given || !strcmp(c->mounts[k].dst, path);
                if (given)
                        continue;
                r = plan_device(p, &(sbx_ctr_device) { .path = path, .type = 'c', .major = defaults[i].major,
                                                       .minor = defaults[i].minor, .mode = 0666 }, reterr);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < c->n_devices; i++) {
                /* /dev/ptmx is always the link to the container's own devpts
                 * (below), as runc and crun make it: podman --privileged lists
                 * the host's 5:2 node among linux.devices */
                if (!strcmp(c->devices[i].path, "/dev/ptmx"))
                        continue;
                r = plan_device(p, &c->devices[i], reterr);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < ELEMENTSOF(links); i++) {
                sbx_mount_op *op = add_op(p, SBX_MOUNT_SYMLINK, links[i][0], NULL, reterr);
                if (!op || !(op->data = sbx_plan_strdup(p, links[i][1])))
                        return -ENOMEM;
        }
        return 0;
}

static int plan_paths(sbx_plan *p, sbx_mount_kind kind, char *const *paths, size_t n, sbx_error *reterr) {
        for (size_t i = 0; i < n; i++) {
                sbx_mount_op *op = add_op(p, kind, paths[i], paths[i], reterr);
                if (!op)
                        return -ENOMEM;
                op->flags = SBX_MNT_OPTIONAL;
        }
        return 0;
}

/* What the plan borrowed from the container, taken back before sbx_plan_free. */
static void unborrow(sbx_plan *p) {
        p->bpf = (sbx_bpf) {};
        p->argv = p->envp = NULL;
}

/* An agent's rules (c->rules): the process resolved in the container's file
 * system as the plan builds it and decided on now, before clone3, exactly as
 * for `sbx run` (exec-decide.c); the Landlock ruleset built with it. */
static int decide_exec(sbx_plan *p, const sbx_container *c, sbx_error *reterr) {
        sbx_exec_verdict v = {};
        int r;

        p->argv = c->proc.argv;
        p->envp = c->proc.envp;
        p->path_env = c->proc.path_env ?: "";
        p->workdir = c->proc.cwd ?: "/";
        r = sbx_exec_decide_prepare(p, c->rules, &v, reterr);
        if (v.decided && c->audit && sbx_audit_exec(c->audit, c->proc.argv, &v) < 0 && r >= 0)
                r = sbx_error_set(reterr, -EIO, "audit log: write the exec record");
        return r;
}

static int container_plan(const sbx_container *c, sbx_plan **ret, sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        bool dev_mounted = false;
        int r;

        p = sbx_plan_new();
        if (!p)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        p->container = c;
        p->clone_flags = c->clone_flags;
        /* with a new user namespace the IPC namespace is made by the child
         * once it is root there (below): its mqueue instance's root belongs
         * to whoever makes the namespace, which at clone3 is the runtime's
         * uid as the new namespace maps it (rootless podman --userns
         * keep-id: the caller's uid, not 0), as in runc */
        if ((c->clone_flags & CLONE_NEWUSER) && (c->clone_flags & CLONE_NEWIPC))
                p->clone_flags &= ~(uint64_t) CLONE_NEWIPC;
        p->root_bind = p->root_dir = c->rootfs;
        p->root_propagation = c->rootfs_propagation;
        p->no_pivot = c->no_pivot;
        p->read_only_root = c->rootfs_readonly;
        p->privileged = geteuid() == 0;
        p->uid = c->proc.uid;
        p->gid = c->proc.gid;
        p->tty = c->terminal;
        p->hostname = c->hostname;
        if (c->clone_flags & CLONE_NEWUSER) {
                if (!c->uid_map[0] || !c->gid_map[0])
                        return sbx_error_set(reterr, -EINVAL,
                                             "linux.uidMappings/gidMappings: a new user namespace needs both");
                snprintf(p->uid_map, sizeof(p->uid_map), "%s", c->uid_map);
                snprintf(p->gid_map, sizeof(p->gid_map), "%s", c->gid_map);
                p->setgroups_allow = p->privileged;
        }
        r = sbx_caps_prepare(p, reterr);
        if (r < 0)
                return r;
        if (c->clone_flags & CLONE_NEWNS) {
                for (size_t i = 0; i < c->n_mounts; i++) {
                        r = plan_mount(p, &c->mounts[i], reterr);
                        if (r < 0)
                                return r;
                        dev_mounted = dev_mounted || !strcmp(c->mounts[i].dst, "/dev");
                }
                /* runc makes the default devices on a /dev the spec mounts (a tmpfs) */
                if (dev_mounted && (r = plan_default_dev(p, c, reterr)) < 0)
                        return r;
                r = plan_paths(p, SBX_MOUNT_MASK, c->masked, c->n_masked, reterr);
                if (r >= 0)
                        r = plan_paths(p, SBX_MOUNT_READONLY, c->readonly, c->n_readonly, reterr);
                if (r < 0)
                        return r;
        }
        p->bpf = c->seccomp;     /* borrowed: cleared before sbx_plan_free */
        if (c->rules && (r = decide_exec(p, c, reterr)) < 0) {
                unborrow(p);
                return r;
        }
        *ret = TAKE_PTR(p);
        return 0;
}

static int write_text(int dirfd, const char *name, const char *text, sbx_error *reterr) {
        _cleanup_close_ int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
        size_t len = strlen(text);

        if (fd < 0 || write(fd, text, len) != (ssize_t) len)
                return sbx_error_set(reterr, -errno, "user namespace: write /proc/<pid>/%s", name);
        return 0;
}

static int container_maps(const sbx_plan *p, pid_t pid, sbx_error *reterr) {
        char path[32];
        _cleanup_close_ int procfd = -EBADF;
        int r;

        snprintf(path, sizeof(path), "/proc/%d", (int) pid);
        procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (procfd < 0)
                return sbx_error_set(reterr, -errno, "open %s", path);
        if (p->setgroups_allow)
                return (r = write_text(procfd, "uid_map", p->uid_map, reterr)) < 0 ? r
                                                                                    : write_text(procfd, "gid_map", p->gid_map, reterr);
        return sbx_userns_write_maps(p, procfd, reterr);
}

static void kill_wait(int pidfd) {
        siginfo_t info;

        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        (void) waitid(P_PIDFD, pidfd, &info, WEXITED);
}

int sbx_container_create(const sbx_container *c, pid_t *ret_pid, int *ret_pidfd, int *ret_pty, sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_close_ int sync_parent = -EBADF, sync_child = -EBADF, pidfd = -EBADF, pty = -EBADF;
        sbx_sync_msg msg;
        sigset_t all, old;
        int r, status = 0;
        pid_t pid;

        r = sbx_assert_single_threaded(reterr);
        if (r < 0)
                return r;
        r = container_plan(c, &p, reterr);
        if (r < 0)
                return r;
        r = sbx_sync_open(&sync_parent, &sync_child, reterr);
        if (r < 0)
                goto out;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        pid = sbx_launch_spawn(p, sync_child, sync_parent, &old, &pidfd, reterr);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (pid < 0) {
                r = pid;
                goto out;
        }
        closep(&sync_child);
        sync_child = -EBADF;
        r = 0;
        if (c->clone_flags & CLONE_NEWUSER) {
                r = container_maps(p, pid, reterr);
                if (r >= 0 && (r = sbx_sync_send(sync_parent, 1, SBX_SYNC_MAPS_WRITTEN, 0, NULL)) < 0)
                        sbx_error_set(reterr, r, "sync #1: release the child");
        }
        /* #4: the createRuntime point; #2: the pty; #6: ready. */
        while (r >= 0) {
                int passed = -EBADF;
                r = sbx_sync_recv_fd(sync_parent, SYNC_TIMEOUT_MS, &msg, &passed);
                if (r < 0) {
                        sbx_error_set(reterr, r, "container setup: no word from the child");
                        break;
                }
                if (msg.type == SBX_SYNC_ERROR) {
                        *reterr = msg.error;
                        r = reterr->code < 0 ? reterr->code : -EIO;
                        status = msg.status;
                        break;
                }
                if (msg.type == SBX_SYNC_PTY) {
                        closep(&pty);
                        pty = passed;
                        continue;
                }
                if (passed >= 0)
                        close(passed);
                if (msg.type == SBX_SYNC_HOOKS) {
                        r = c->on_create_runtime ? c->on_create_runtime(c->userdata, pid, reterr) : 0;
                        if (r >= 0 && (r = sbx_sync_send(sync_parent, 5, SBX_SYNC_CONTINUE, 0, NULL)) < 0)
                                sbx_error_set(reterr, r, "sync #5: continue after the hooks");
                        continue;
                }
                if (msg.type == SBX_SYNC_READY)
                        break;
                r = sbx_error_set(reterr, -EPROTO, "container setup: unexpected message %u", msg.type);
        }
        (void) status;
        if (r < 0) {
                kill_wait(pidfd);
                goto out;
        }
        *ret_pid = pid;
        *ret_pidfd = TAKE_FD(pidfd);
        *ret_pty = TAKE_FD(pty);
out:
        if (p)
                unborrow(p);
        return r;
}

/* ----------------------------------------------------------------- child */

static _Noreturn void fail(int sync_fd, const sbx_error *e) {
        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, e);
        _exit(SBX_EXIT_FAILURE);
}

/* "net.ipv4.ip_forward=1" -> /proc/sys/net/ipv4/ip_forward; the namespaced
 * sysctls are those of the writer's namespaces, which are the container's. */
static int write_sysctl(const char *kv, sbx_error *reterr) {
        char path[256];
        const char *eq = strchr(kv, '=');
        size_t klen = eq ? (size_t) (eq - kv) : 0, vlen;
        int fd;

        if (!eq || klen + 11 >= sizeof(path))
                return sbx_error_set(reterr, -EINVAL, "linux.sysctl: bad entry '%s'", kv);
        memcpy(path, "/proc/sys/", 10);
        for (size_t i = 0; i < klen; i++)
                path[10 + i] = kv[i] == '.' ? '/' : kv[i];
        path[10 + klen] = '\0';
        fd = open(path, O_WRONLY | O_CLOEXEC);
        vlen = strlen(eq + 1);
        if (fd < 0 || write(fd, eq + 1, vlen) != (ssize_t) vlen) {
                int r = -errno;
                if (fd >= 0)
                        close(fd);
                return sbx_error_set(reterr, r, "linux.sysctl: write '%.*s'", (int) klen, kv);
        }
        close(fd);
        return 0;
}

static int write_oom_score_adj(int v, sbx_error *reterr) {
        char buf[16];
        int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC), n;

        n = snprintf(buf, sizeof(buf), "%d", v);
        if (fd < 0 || write(fd, buf, (size_t) n) != n) {
                int r = -errno;
                if (fd >= 0)
                        close(fd);
                return sbx_error_set(reterr, r, "process.oomScoreAdj: write %d", v);
        }
        close(fd);
        return 0;
}

/* runtime-spec config-linux "Default Devices": with process.terminal,
 * /dev/console is the container's pty, bind-mounted there (as runc and crun
 * do; getty, systemd and `tty` on the console expect it). Nothing is looked
 * up by path twice (CVE-2025-52565: runc checked /dev/console and
 * /dev/pts/N, then mounted by path, and a symlink swapped in between, by the
 * image or a process sharing the rootfs, took the pty onto /proc/sys/... or
 * a /proc file onto the writable console): the source is the slave we hold
 * (its own fd, which must be a tty on a devpts), the target /dev/console is
 * opened once beneath the root (RESOLVE_IN_ROOT, no magic link; the leaf not
 * followed: a symlink there is refused), must be a file or device on
 * neither procfs nor sysfs, and the mount goes by fd (open_tree +
 * move_mount). */
static int bind_console(int slave, sbx_error *reterr) {
        _cleanup_close_ int rootfd = -EBADF, dfd = -EBADF, tfd = -EBADF, tree = -EBADF;
        struct statfs sf;
        struct stat st;
        int fd;

        if (fstat(slave, &st) < 0 || fstatfs(slave, &sf) < 0)
                return sbx_error_set(reterr, -errno, "process.terminal: the pty");
        if (!S_ISCHR(st.st_mode) || sf.f_type != DEVPTS_SUPER_MAGIC)
                return sbx_error_set(reterr, -ENODEV, "process.terminal: the pty is not on a devpts");
        rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);   /* the container's, pivoted or chrooted into */
        if (rootfd < 0)
                return sbx_error_set(reterr, -errno, "process.terminal: open /");
        dfd = sys_openat2(rootfd, "dev", O_PATH | O_DIRECTORY | O_CLOEXEC, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "process.terminal: open /dev");
        fd = openat(dfd, "console", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0)
                close(fd);
        else if (errno != EEXIST)
                return sbx_error_set(reterr, -errno, "process.terminal: make /dev/console");
        tfd = openat(dfd, "console", O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (tfd < 0 || fstat(tfd, &st) < 0 || fstatfs(tfd, &sf) < 0)
                return sbx_error_set(reterr, -errno, "process.terminal: open /dev/console");
        if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
                return sbx_error_set(reterr, S_ISLNK(st.st_mode) ? -ELOOP : -EISDIR,
                                     "process.terminal: /dev/console is a %s, not a file or device",
                                     S_ISLNK(st.st_mode) ? "symlink" : "directory");
        if (sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC)
                return sbx_error_set(reterr, -EPERM, "process.terminal: /dev/console leads onto %s: refused",
                                     sf.f_type == PROC_SUPER_MAGIC ? "procfs" : "sysfs");
        tree = open_tree(slave, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
        if (tree < 0 || move_mount(tree, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                return sbx_error_set(reterr, -errno, "process.terminal: bind the pty onto /dev/console");
        return 0;
}

_Noreturn void sbx_container_child_main(const sbx_plan *p, int sync_fd, const sigset_t *oldmask) {
        const sbx_container *c = p->container;
        sbx_error err = {};
        sbx_sync_msg msg;
        sbx_exec_plan ep;
        sbx_mount_fds mfds;
        int master = -EBADF, slave = -EBADF, status;
        char byte;
        ssize_t n;

        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        for (int s = 1; s < NSIG; s++)
                if (s != SIGKILL && s != SIGSTOP)
                        (void) signal(s, SIG_DFL);
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        /* A new user namespace: wait for its maps. Only then the host paths
         * (the rootfs, bind sources) are opened, still with the caller's ids,
         * so what may be opened does not depend on whether the parent has
         * written the maps yet: our capabilities in the new namespace cover
         * files owned by ids it maps (rootless podman --userns keep-id gives
         * the rootfs's directory to the container's root, mode 0700), and
         * none before (that race failed one such run in ~15). */
        if (c->clone_flags & CLONE_NEWUSER) {
                if (sbx_sync_recv(sync_fd, SYNC_TIMEOUT_MS, &msg) < 0 || msg.type != SBX_SYNC_MAPS_WRITTEN)
                        _exit(SBX_EXIT_FAILURE);
        }
        /* host paths before any id switch */
        if ((c->clone_flags & CLONE_NEWNS) && sbx_mount_open_child(p, &mfds, &err) < 0)
                fail(sync_fd, &err);
        if (c->clone_flags & CLONE_NEWUSER) {
                if (sys_setresgid(0, 0, 0) < 0 || sys_setresuid(0, 0, 0) < 0)
                        fail(sync_fd, &(sbx_error) { -errno, "user namespace: become root of the container's "
                                                             "namespace (is 0 in linux.uidMappings?)" });
                if ((c->clone_flags & CLONE_NEWIPC) && unshare(CLONE_NEWIPC) < 0)
                        fail(sync_fd, &(sbx_error) { -errno, "linux.namespaces: a new ipc namespace" });
                if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                        fail(sync_fd, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG)" });
        }
        if ((c->clone_flags & CLONE_NEWNET) && sbx_netns_setup_child(p, &err) < 0)
                fail(sync_fd, &err);
        if (c->hostname && sethostname(c->hostname, strlen(c->hostname)) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "hostname: sethostname" });
        if (c->domainname && setdomainname(c->domainname, strlen(c->domainname)) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "domainname: setdomainname" });
        /* ipc14: a container's own IPC namespace gets the SysV bounds of
         * every sbx sandbox (ipc-limits.c; runc and crun leave the kernel's
         * defaults, which bound nothing). We are its root here whatever
         * process.user says. linux.sysctl comes after: a value it names
         * (podman --sysctl kernel.shmmax=...) is the one that stays. */
        if ((c->clone_flags & CLONE_NEWIPC) && sbx_ipc_limit_child(-EBADF, &err) < 0)
                fail(sync_fd, &err);
        for (size_t i = 0; i < c->n_sysctl; i++)
                if (write_sysctl(c->sysctl[i], &err) < 0)
                        fail(sync_fd, &err);
        if (c->oom_score_adj_set && write_oom_score_adj(c->oom_score_adj, &err) < 0)
                fail(sync_fd, &err);
        /* #4: prestart and createRuntime hooks run now, in the runtime's
         * namespace, seeing our pid; #5 lets us go on. */
        if (c->on_create_runtime) {
                if (sbx_sync_send(sync_fd, 4, SBX_SYNC_HOOKS, 0, NULL) < 0 ||
                    sbx_sync_recv(sync_fd, SYNC_TIMEOUT_MS, &msg) < 0 || msg.type != SBX_SYNC_CONTINUE)
                        _exit(SBX_EXIT_FAILURE);
        }
        if ((c->clone_flags & CLONE_NEWNS) && sbx_mount_setup_child(p, &mfds, &err) < 0)
                fail(sync_fd, &err);
        if (!(c->clone_flags & CLONE_NEWNS) && chroot(c->rootfs) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "root.path: chroot (no mount namespace)" });
        if (c->terminal) {
                if (sbx_tty_setup_child(c->proc.uid, (uint32_t) -1, &master, &slave, &err) < 0)
                        fail(sync_fd, &err);
                if ((c->clone_flags & CLONE_NEWNS) && bind_console(slave, &err) < 0)
                        fail(sync_fd, &err);
                if (sbx_sync_send_fd(sync_fd, 2, SBX_SYNC_PTY, master) < 0)
                        fail(sync_fd, &(sbx_error) { -errno, "sync #2: pass the pty to the runtime" });
                close(master);
                /* the terminal is our stdio from now on, as with runc: the
                 * creator's stdio (a caller may wait for it to close, as
                 * containerd's shim does) is not held while we wait */
                for (int fd = 0; fd < 3; fd++)
                        if (dup2(slave, fd) < 0)
                                fail(sync_fd, &(sbx_error) { -errno, "terminal: make the pty our stdio" });
        }
        if (c->personality_set && personality(c->personality) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "linux.personality" });
        /* process.rlimits now, as runc sets them before it reports ready:
         * one the kernel refuses (a hard limit raised without
         * CAP_SYS_RESOURCE, nofile above fs.nr_open, soft above hard) fails
         * `create` (exit 1), not the process at `start`. exec.c sets the
         * same values again before the exec. */
        for (size_t i = 0; i < c->n_rlimits; i++) {
                struct rlimit rl = { .rlim_cur = c->rlimits[i].soft, .rlim_max = c->rlimits[i].hard };
                if (setrlimit(c->rlimits[i].resource, &rl) < 0) {
                        int e = errno;
                        err = (sbx_error) { -e };
                        snprintf(err.msg, sizeof(err.msg), "process.rlimits %s=%llu:%llu: setrlimit%s: %s",
                                 sbx_rlimit_name(c->rlimits[i].resource), (unsigned long long) rl.rlim_cur,
                                 (unsigned long long) rl.rlim_max,
                                 e == EPERM ? " above the hard limit (raising it needs CAP_SYS_RESOURCE; "
                                              "nofile never exceeds fs.nr_open)" : "", strerror(e));
                        fail(sync_fd, &err);
                }
        }
        /* #6: set up; the creator exits now, so no parent-death signal. */
        if (prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) < 0)
                fail(sync_fd, &(sbx_error) { -errno, "prctl(PR_SET_PDEATHSIG, 0)" });
        if (sbx_sync_send(sync_fd, 6, SBX_SYNC_READY, 0, NULL) < 0)
                _exit(SBX_EXIT_FAILURE);
        /* created -> running: `start` writes one byte into the fifo. */
        if (c->wait_fd >= 0) {
                while ((n = read(c->wait_fd, &byte, 1)) < 0 && errno == EINTR)
                        ;
                if (n != 1)
                        _exit(SBX_EXIT_FAILURE);
        }
        sbx_exec_plan_from(p, &ep);
        ep.proc = &c->proc;
        ep.argv = c->proc.argv;
        ep.envp = c->proc.envp;
        ep.workdir = c->proc.cwd ?: "/";
        ep.path_env = c->proc.path_env;
        ep.rlimits = c->rlimits;
        ep.n_rlimits = c->n_rlimits;
        if (!c->rules) {
                /* exactly config.json: argv[0] looked up at exec, no Landlock */
                ep.exec_argv = c->proc.argv;
                ep.exec_fd = -EBADF;
                ep.exec_path = NULL;
                ep.landlock = NULL;
        }
        ep.tty_fd = slave;
        status = sbx_exec_setup_child(&ep, &err);
        /* the runtime is gone: the error goes to stderr, as runc's init does */
        dprintf(STDERR_FILENO, "sbx-runc: %s: %s\n", err.msg, strerror(err.code < 0 ? -err.code : EIO));
        _exit(status);
}

/* runc's order: bounding set, keep capabilities across the user switch,
 * groups and ids, then the sets, then ambient. No securebits: uid 0 in the
 * container keeps the legacy root semantics the spec's sets describe. */
int sbx_caps_setup_container_child(int cap_last, const sbx_container_proc *proc, sbx_error *reterr) {
        struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
        struct __user_cap_data_struct data[2] = {};
        gid_t groups[64];

        /* every capability number the kernel could know, not only up to
         * cap_last: a cap_last read inside the container (a startContainer
         * hook, once in its mount namespace) came from a /proc the bundle
         * may have replaced ('5' kept CAP_SYS_ADMIN in the bounding set, and
         * an exec as uid 0 gets the whole bounding set); EINVAL past the
         * kernel's last */
        for (int c = 0; c < 64; c++)
                if (!(proc->caps[0] & (1ull << c)) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
                        return sbx_error_set(reterr, -errno, "process.capabilities.bounding: drop %d", c);
        if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "prctl(PR_SET_KEEPCAPS)");
        for (size_t i = 0; i < proc->n_groups; i++)
                groups[i] = proc->groups[i];
        if (syscall(SYS_setgroups, proc->n_groups, groups) < 0 && !(errno == EPERM && proc->n_groups == 0))
                return sbx_error_set(reterr, -errno, "process.user.additionalGids: setgroups");
        if (sys_setresgid(proc->gid, proc->gid, proc->gid) < 0)
                return sbx_error_set(reterr, -errno, "process.user.gid: setresgid(%u)", proc->gid);
        if (sys_setresuid(proc->uid, proc->uid, proc->uid) < 0)
                return sbx_error_set(reterr, -errno, "process.user.uid: setresuid(%u)", proc->uid);
        if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "prctl(PR_SET_KEEPCAPS, 0)");
        data[0].effective = (uint32_t) proc->caps[1];
        data[1].effective = (uint32_t) (proc->caps[1] >> 32);
        data[0].inheritable = (uint32_t) proc->caps[2];
        data[1].inheritable = (uint32_t) (proc->caps[2] >> 32);
        data[0].permitted = (uint32_t) proc->caps[3];
        data[1].permitted = (uint32_t) (proc->caps[3] >> 32);
        if (syscall(SYS_capset, &hdr, data) < 0)
                return sbx_error_set(reterr, -errno, "process.capabilities: capset");
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
                return sbx_error_set(reterr, -errno, "process.capabilities.ambient: clear");
        /* the kernel takes an ambient capability only if it is permitted
         * and inheritable; runc skips the others the same way */
        for (int c = 0; c <= cap_last; c++)
                if ((proc->caps[4] & proc->caps[3] & proc->caps[2] & (1ull << c)) &&
                    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0)
                        return sbx_error_set(reterr, -errno, "process.capabilities.ambient: raise %d", c);
        return 0;
}

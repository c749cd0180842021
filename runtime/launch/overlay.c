/* SPDX-License-Identifier: MIT */
/* /workspace (and /agent), with OpenClaw's workspaceAccess meaning:
 *   none: overlay, lower = the workspace dir (or an empty dir), upper/work
 *         on a tmpfs the child makes (a persistent sandbox: in its run dir,
 *         where sbx diff reads them); userxattr, as we mount inside a user
 *         namespace: the sandbox writes freely, the host dir never changes;
 *   ro:   the dir read-only at /workspace and at /agent;
 *   rw:   the dir itself, writes go through. As root the sandbox runs on
 *         subordinate ids, so the dir is attached through an idmapped mount
 *         (mount_setattr MOUNT_ATTR_IDMAP, made here in the parent, where we
 *         hold CAP_SYS_ADMIN over the file system) that maps the dir's owner
 *         to the sandbox user. Unprivileged, the caller is the sandbox user
 *         and a plain bind does. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "mount.h"

/* A throwaway user namespace whose map sends `inside` (the dir owner's host
 * id) to `outside` (the sandbox user's host id), as an fd for MOUNT_ATTR_IDMAP. */
static int idmap_userns(uid_t uid_in, uid_t uid_out, gid_t gid_in, gid_t gid_out, uint32_t count,
                        sbx_error *reterr) {
        struct clone_args args = { .flags = CLONE_NEWUSER, .exit_signal = SIGCHLD };
        char path[64], map[64];
        int fd = -EBADF, r = 0;
        pid_t pid;

        pid_t parent = getpid();

        pid = sys_clone3(&args);
        if (pid < 0 && errno == ENOSYS)
                /* No clone3 (old kernel, or a filter around us): clone() makes
                 * the same throwaway namespace; nothing here needs clone3. */
                pid = (pid_t) syscall(SYS_clone, (unsigned long) (CLONE_NEWUSER | SIGCHLD), NULL, NULL, NULL, NULL);
        if (pid < 0)
                return sbx_error_set(reterr, -errno, "workspace rw: clone a user namespace for the idmap");
        if (pid == 0) {
                /* Hold nothing of sbx (its lock fds among them) and never
                 * outlive it, even if it is killed before it kills us. */
                (void) close_range(0, ~0U, 0);
                if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
                        _exit(0);
                for (;;)
                        pause();
        }
        static const char *const files[] = { "uid_map", "gid_map" };
        for (int i = 0; i < 2 && r == 0; i++) {
                _cleanup_close_ int mfd = -EBADF;
                snprintf(path, sizeof(path), "/proc/%d/%s", pid, files[i]);
                snprintf(map, sizeof(map), "%u %u %u\n", i ? gid_in : uid_in, i ? gid_out : uid_out, count);
                mfd = open(path, O_WRONLY | O_CLOEXEC);
                if (mfd < 0 || write(mfd, map, strlen(map)) < 0)
                        r = sbx_error_set(reterr, -errno, "workspace rw: write %s", path);
        }
        if (r == 0) {
                snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
                fd = open(path, O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                        r = sbx_error_set(reterr, -errno, "workspace rw: open %s", path);
        }
        kill(pid, SIGKILL);
        (void) waitpid(pid, NULL, 0);
        return r < 0 ? r : fd;
}

/* A detached, idmapped clone of the workspace (owner -> sandbox user),
 * made in the parent where we hold CAP_SYS_ADMIN over the file system. */
static int idmapped_tree(sbx_plan *p, const char *ws, int userns, sbx_error *reterr) {
        _cleanup_close_ int tree = -EBADF;
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP, .userns_fd = userns };

        tree = open_tree(AT_FDCWD, ws, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
        if (tree < 0)
                return sbx_error_set(reterr, -errno, "--workspace '%s': clone mount", ws);
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
                return sbx_error_set(reterr, -errno,
                                     "--workspace '%s': an idmapped mount is not available here (needed as root "
                                     "to give the sandbox user access to the directory's files); "
                                     "run sbx unprivileged instead",
                                     ws);
        return TAKE_FD(tree);
}

/* As root: attach the workspace through idmapped mounts at dsts[]. */
static int prepare_idmapped(sbx_plan *p, const char *ws, const char *const *dsts, const unsigned *flags,
                            size_t n, sbx_error *reterr) {
        _cleanup_close_ int userns = -EBADF;
        struct stat st;

        if (stat(ws, &st) < 0)
                return sbx_error_set(reterr, -errno, "--workspace '%s': stat", ws);
        userns = idmap_userns(st.st_uid, p->host_uid + p->uid, st.st_gid, p->host_gid + p->gid, 1, reterr);
        if (userns < 0)
                return userns;
        for (size_t i = 0; i < n; i++) {
                sbx_mount_op *op;
                int tree = idmapped_tree(p, ws, userns, reterr);
                if (tree < 0)
                        return tree;
                op = sbx_plan_add_mount(p, SBX_MOUNT_DETACHED, dsts[i], reterr);
                if (!op) {
                        close(tree);
                        return -ENOMEM;
                }
                op->src_fd = tree;
                op->flags = flags[i];
                op->what = sbx_plan_strdup(p, ws);
        }
        return 0;
}

static const char *fs_name(const char *path, char *buf, size_t len) {
        struct statfs sf;

        if (statfs(path, &sf) < 0)
                return "?";
        switch ((unsigned long) sf.f_type) {
        case RAMFS_MAGIC:     return "ramfs";
        case TMPFS_MAGIC:     return "tmpfs";
        case NFS_SUPER_MAGIC: return "nfs";
        case 0x65735546:      return "fuse";
        default:
                snprintf(buf, len, "type 0x%lx", (unsigned long) sf.f_type);
                return buf;
        }
}

/* As root, with a workspace directory (issue 15 for the fallback):
 *   - already owned by the sandbox's mapped ids: a plain bind does (0);
 *   - else an idmapped mount maps its owner to the sandbox user (1);
 *   - the file system has no idmapped mounts (ramfs, NFS, tmpfs before 6.3:
 *     mount_setattr fails with EINVAL): a directory sbx created itself
 *     (c->workspace_sbx_owned) is given to the sandbox's mapped owner, the
 *     directory only (fchown through an O_NOFOLLOW fd, never recursive: a
 *     tree the sandbox once wrote could hold hard links to host files), and
 *     bound plainly (0); any other directory is refused with the reason. */
static int attach_as_root(sbx_plan *p, const sbx_run_config *c, const char *ws, const char *const *dsts,
                          const unsigned *flags, size_t n, sbx_error *reterr) {
        uid_t u = p->host_uid + p->uid;
        gid_t g = p->host_gid + p->gid;
        _cleanup_close_ int fd = -EBADF;
        struct utsname un = {};
        char fsbuf[32];
        struct stat st;
        int r;

        if (stat(ws, &st) < 0)
                return sbx_error_set(reterr, -errno, "--workspace '%s': stat", ws);
        if (st.st_uid == u && st.st_gid == g)
                return 0;
        r = prepare_idmapped(p, ws, dsts, flags, n, reterr);
        if (r >= 0)
                return 1;
        if (r != -EINVAL && r != -EPERM && r != -EOPNOTSUPP && r != -ENOSYS)
                return r;
        (void) uname(&un);
        if (!c->workspace_sbx_owned)
                return sbx_error_set(reterr, -EOPNOTSUPP, "--workspace '%s': this file system (%s) has no idmapped "
                                     "mounts on Linux %s, which sbx as root needs to give the sandbox user "
                                     "(host uid %u) access to a directory owned by uid %u; sbx chowns only "
                                     "directories it created itself; fix: run sbx unprivileged, chown %u:%u "
                                     "'%s', or use a file system with idmapped mounts (ext4, xfs, btrfs; "
                                     "tmpfs from Linux 6.3)", ws, fs_name(ws, fsbuf, sizeof(fsbuf)),
                                     un.release, (unsigned) u, (unsigned) st.st_uid, (unsigned) u,
                                     (unsigned) g, ws);
        fd = open(ws, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || fchown(fd, u, g) < 0)
                return sbx_error_set(reterr, -errno, "--workspace '%s': no idmapped mounts on this file "
                                     "system (%s): give the directory sbx created to the sandbox's "
                                     "mapped owner %u:%u", ws, fs_name(ws, fsbuf, sizeof(fsbuf)),
                                     (unsigned) u, (unsigned) g);
        return 0;
}

/* A plain bind of the workspace. From a template (issue 16, root) the
 * child cannot reach the host's path: the parent clones it, as root binds. */
static int add_ws_bind(sbx_plan *p, const char *ws, const char *dst, unsigned flags, sbx_error *reterr) {
        bool detach = p->privileged && p->tmpl.eligible;
        int tree = detach ? sbx_mount_detach_source(ws, flags, reterr) : -EBADF;
        sbx_mount_op *op;

        if (detach && tree < 0)
                return tree;
        op = sbx_plan_add_mount(p, detach ? SBX_MOUNT_DETACHED : SBX_MOUNT_BIND, dst, reterr);
        if (!op) {
                if (tree >= 0)
                        close(tree);
                return -ENOMEM;
        }
        op->src_fd = tree;
        op->src = op->what = sbx_plan_strdup(p, ws);
        op->flags = detach ? 0 : flags;         /* the parent applied them */
        return op->src ? 0 : sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
}

int sbx_overlay_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        _cleanup_free_ char *ws = NULL;
        struct stat st;
        sbx_mount_op *op;

        if (c->workspace) {
                int r = sbx_mount_source_resolve(c->workspace, "--workspace", &ws, reterr);
                if (r < 0)
                        return r;
                if (stat(ws, &st) < 0 || !S_ISDIR(st.st_mode))
                        return sbx_error_set(reterr, -ENOTDIR, "--workspace '%s': not a directory", c->workspace);
        } else if (!c->keep_layers && c->workspace_access == SBX_WORKSPACE_NONE)
                ws = NULL;      /* an empty dir on the child's scratch tmpfs */
        else if (asprintf(&ws, "%s/lower", p->state_dir) < 0)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");

        /* As root the sandbox's ids are not the owner's: go through idmapped
         * mounts for every mode (the default empty workspace is ours already),
         * unless attach_as_root() finds them unneeded or gives the dir over. */
        bool idmap = false;
        /* the workspace's place: /workspace, or docker's -v at --workdir */
        const char *wsd = c->workspace_dst ? c->workspace_dst + strspn(c->workspace_dst, "/") : "workspace";
        const char *const ws_dst[] = { wsd, "agent" };
        static const unsigned ro_flags[] = { SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV,
                                             SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV };
        static const unsigned rw_flags[] = { SBX_MNT_NOSUID | SBX_MNT_NODEV };

        switch (c->workspace_access) {
        case SBX_WORKSPACE_NONE: {
                /* issue 16, a persistent sandbox from a template (root): the
                 * child cannot reach the layers' paths; the parent clones
                 * the lower and the run dir, the child stages them (mount.c
                 * do_overlay_staged) */
                bool staged = p->privileged && p->tmpl.eligible && c->keep_layers;
                /* Idmapped: the lower layer is the idmapped mount attached at
                 * /workspace, and the overlay is stacked on top of it. */
                if (p->privileged && c->workspace) {
                        int r = attach_as_root(p, c, ws, ws_dst, ro_flags, 1, reterr);
                        if (r < 0)
                                return r;
                        idmap = r > 0;
                }
                if (staged && !idmap) {         /* so is a plain clone of it */
                        int r = add_ws_bind(p, ws, wsd, ro_flags[0], reterr);
                        if (r < 0)
                                return r;
                        idmap = true;
                }
                op = sbx_plan_add_mount(p, SBX_MOUNT_OVERLAY, wsd, reterr);
                if (!op)
                        return -ENOMEM;
                if (staged) {
                        op->src_fd = open_tree(AT_FDCWD, p->state_dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
                                                                       AT_SYMLINK_NOFOLLOW);
                        if (op->src_fd < 0)
                                return sbx_error_set(reterr, -errno, "workspace layers: clone mount of '%s'",
                                                     p->state_dir);
                }
                op->src = op->what = ws ? sbx_plan_strdup(p, ws) : NULL;
                if (idmap)
                        op->flags |= SBX_MNT_LOWER_IN_ROOT;
                op->upper = sbx_plan_strdupf(p, "%s/upper", p->state_dir);
                op->flags |= SBX_MNT_NOSUID | SBX_MNT_NODEV;
                if (c->keep_layers)
                        op->work = sbx_plan_strdupf(p, "%s/work", p->state_dir);
                else {
                        /* upper/work (and the default lower) on a tmpfs of the
                         * child's, mounted on "upper" in its mount ns only */
                        op->flags |= SBX_MNT_SCRATCH;
                        if (!ws)
                                op->what = "the default empty workspace";
                }
                if ((ws && !op->src) || !op->upper || (c->keep_layers && !op->work))
                        return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
                return 0;
        }
        case SBX_WORKSPACE_RO:
                if (p->privileged && c->workspace) {
                        int r = attach_as_root(p, c, ws, ws_dst, ro_flags, c->workspace_no_agent ? 1 : 2, reterr);
                        if (r != 0)
                                return r < 0 ? r : 0;
                }
                int b = add_ws_bind(p, ws, wsd, SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
                if (b < 0)
                        return b;
                if (c->workspace_no_agent)
                        return 0;
                return add_ws_bind(p, ws, "agent", SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
        case SBX_WORKSPACE_RW:
                if (p->privileged && c->workspace) {
                        int r = attach_as_root(p, c, ws, ws_dst, rw_flags, 1, reterr);
                        if (r != 0)
                                return r < 0 ? r : 0;
                }
                return add_ws_bind(p, ws, wsd, SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
        case _SBX_WORKSPACE_ACCESS_MAX:
        case _SBX_WORKSPACE_ACCESS_INVALID:
        default:
                return sbx_error_set(reterr, -EINVAL, "--workspace-access: invalid value");
        }
}

/* DIR/NAME, a layer: made if missing (an existing one kept where
 * may_exist), never through a symlink, and given to the sandbox ids
 * through its own fd. */
static int mkdir_layer(int dfd, const char *dir, const char *name, unsigned mode, bool may_exist, uid_t u, gid_t g,
                       bool chown_it, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;

        if (mkdirat(dfd, name, mode) < 0 && !(may_exist && errno == EEXIST))
                return sbx_error_set(reterr, -errno, "--writable-root: create '%s/%s'", dir, name);
        fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "--writable-root: open '%s/%s' (a directory, not a symlink)",
                                     dir, name);
        if (chown_it && fchown(fd, u, g) < 0)
                return sbx_error_set(reterr, -errno, "--writable-root: chown '%s/%s' to the sandbox ids", dir, name);
        return 0;
}

/* The directory the layers go in: the run's state dir, or the caller's
 * --root-layer-dir, which must be theirs alone (as the state dir): in a
 * directory another user can write, "upper" planted as a symlink had sbx
 * (root) chown its target to the sandbox ids and write the sandbox's /etc
 * files into it. */
static int open_layer_dir(const char *dir, bool persistent, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        if (persistent && mkdir(dir, 0711) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "--root-layer-dir: create '%s'", dir);
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "--root-layer-dir: open '%s' (a directory, not a symlink)", dir);
        if (st.st_uid != geteuid() || (st.st_mode & 022))
                return sbx_error_set(reterr, -EPERM,
                                     "--root-layer-dir '%s': must be owned by uid %u and not group/world-writable",
                                     dir, (unsigned) geteuid());
        return TAKE_FD(fd);
}

/* --writable-root over a rootfs (readOnlyRoot: false): the root is an
 * overlay, lower = the image, upper/work = root-upper/root-work in the
 * per-run state dir or upper/work in c->root_layer_dir (a persistent
 * sandbox's). The image is never written: overlayfs only writes the upper.
 * As root the sandbox runs on subordinate ids, to which the image's host
 * ids mean nothing (copy-up could not give a copied file its owner): the
 * lower layer is an idmapped clone of the image (its ids 0..N-1 shown as
 * the sandbox's), made here where we hold CAP_SYS_ADMIN over the file
 * system. Unprivileged only the caller's own files are mapped, so only an
 * image the caller owns (say, imported by them) is fully writable. */
int sbx_overlay_prepare_root(sbx_plan *p, const sbx_run_config *c, const char *rootfs, sbx_error *reterr) {
        const char *dir = c->root_layer_dir ?: p->state_dir;
        bool persistent = c->root_layer_dir, priv = p->privileged;
        int r;

        if (dir[0] != '/' || strpbrk(dir, ",:"))
                return sbx_error_set(reterr, -EINVAL, "root layer dir '%s': must be absolute, without ',' or ':'", dir);
        p->root_overlay.lower = sbx_plan_strdup(p, rootfs);
        p->root_overlay.upper = sbx_plan_strdupf(p, "%s/%s", dir, persistent ? "upper" : "root-upper");
        p->root_overlay.work = sbx_plan_strdupf(p, "%s/%s", dir, persistent ? "work" : "root-work");
        if (!p->root_overlay.lower || !p->root_overlay.upper || !p->root_overlay.work)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        p->root_overlay.is_volatile = !persistent;
        _cleanup_close_ int dfd = open_layer_dir(dir, persistent, reterr);
        if (dfd < 0)
                return dfd;
        /* The upper's root is the sandbox's "/": owned by sandbox root. */
        r = mkdir_layer(dfd, dir, persistent ? "upper" : "root-upper", 0755, persistent, p->host_uid, p->host_gid,
                        priv, reterr);
        if (r >= 0)
                r = mkdir_layer(dfd, dir, persistent ? "work" : "root-work", 0700, persistent, p->host_uid,
                                p->host_gid, priv, reterr);
        if (r < 0 || !priv)
                return r;
        _cleanup_close_ int userns = idmap_userns(0, p->host_uid, 0, p->host_gid, p->map_count, reterr);
        if (userns < 0)
                return userns;
        /* read-only too: nothing but overlayfs reads it, and it never writes a lower layer */
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
                                               MOUNT_ATTR_NODEV, .userns_fd = userns };
        _cleanup_close_ int tree = open_tree(AT_FDCWD, rootfs, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
        if (tree < 0)
                return sbx_error_set(reterr, -errno, "--writable-root: clone mount of '%s'", rootfs);
        if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
                return sbx_error_set(reterr, -errno, "--writable-root: idmap '%s' to the sandbox ids", rootfs);
        p->root_overlay.lower_tree = TAKE_FD(tree);
        return 0;
}

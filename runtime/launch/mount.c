/* SPDX-License-Identifier: MIT */
/* Mount namespace, STYLE §D.16. The parent decides the list of operations;
 * the child runs it against a fresh tmpfs and pivots into it.
 *
 * Why each step is safe:
 *  - "/" is made MS_PRIVATE|MS_REC before anything else, so no mount made
 *    here reaches the host and no host mount event reaches the sandbox.
 *  - Host sources are re-opened by the child in its own mount namespace with
 *    RESOLVE_NO_SYMLINKS (the parent canonicalised them), cloned with
 *    open_tree(OPEN_TREE_CLONE|AT_RECURSIVE) and restricted with
 *    mount_setattr(AT_RECURSIVE) *before* they become visible, so there is no
 *    window where a read-only bind is writable and no submount escapes the
 *    read-only flag (the failure mode of a non-recursive MS_REMOUNT).
 *  - Every destination is resolved inside the new root with
 *    RESOLVE_IN_ROOT|RESOLVE_NO_MAGICLINKS, so a symlink in a --rootfs cannot
 *    point a mount at the host's tree. We then mount through the fd.
 *  - pivot_root(".", ".") + umount2(MNT_DETACH) leaves no path to the old
 *    root; chroot alone would be escapable. (An OCI container's --no-pivot,
 *    for a root pivot_root cannot leave, is the exception: move_root.)
 *  - /proc gets Docker's masked and read-only paths; there is no /sys.
 *  - issue 16, from a template (template.c): the SBX_MNT_TEMPLATE ops were
 *    run once by the holder, which pivoted into them; our table is a copy of
 *    its table, every mount locked in our user namespace (less privileged
 *    than the holder's mount namespace: nested in its user namespace
 *    rootless, a child of the initial one as root; read-only
 *    stays read-only, nothing beneath is revealed). We run only the other
 *    ops, /proc first, and neither pivot nor detach: the host's table was
 *    never in our namespace. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/magic.h>

#include "util/util.h"
#include "mount.h"
#include "launch.h"

#define RESOLVE_ROOTED (RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)

static const char *const proc_masked[] = {
        "proc/acpi", "proc/asound", "proc/interrupts", "proc/kcore", "proc/keys",
        "proc/latency_stats", "proc/sched_debug", "proc/scsi", "proc/timer_list",
        "proc/timer_stats",
};
static const char *const proc_readonly[] = {
        "proc/bus", "proc/fs", "proc/irq", "proc/sys", "proc/sysrq-trigger",
};

/* ---------------------------------------------------------------- parent */

/* As root the parent clones the source itself (open_tree, with the
 * attributes applied before anything can see it) and the child only moves
 * the detached tree in: the sandbox's mapped ids need no access to the path,
 * and nothing is resolved twice. Unprivileged we cannot clone mounts in the
 * host namespace, so the child re-opens the canonical path in its own.
 * Note: a tree moved in this way carries no MNT_LOCK_* flags (those are set
 * when mounts are *copied* into a less privileged namespace), so sandbox
 * root with CAP_SYS_ADMIN in its user namespace could remount it writable.
 * The workload never has it (empty bounding set, locked securebits,
 * no_new_privs, no nested user namespaces, seccomp refuses mount), and even
 * then files owned by ids unmapped in the sandbox stay unwritable. */
int sbx_mount_detach_source(const char *src, unsigned flags, sbx_error *reterr) {
        struct mount_attr attr = { .attr_set = (flags & SBX_MNT_RO ? MOUNT_ATTR_RDONLY : 0) |
                                               (flags & SBX_MNT_NOSUID ? MOUNT_ATTR_NOSUID : 0) |
                                               (flags & SBX_MNT_NODEV ? MOUNT_ATTR_NODEV : 0) |
                                               (flags & SBX_MNT_NOEXEC ? MOUNT_ATTR_NOEXEC : 0) };
        _cleanup_close_ int sfd = -EBADF;
        int tree;

        /* src is canonical: a symlink in it now was planted since */
        sfd = sys_openat2(AT_FDCWD, src, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (sfd < 0)
                return sbx_error_set(reterr, -errno, "bind '%s': open without following symlinks", src);
        tree = open_tree(sfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
        if (tree < 0)
                return sbx_error_set(reterr, -errno, "bind '%s': clone mount", src);
        if (attr.attr_set && mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
                int r = -errno;
                close(tree);
                return sbx_error_set(reterr, r, "bind '%s': set mount attributes", src);
        }
        return tree;
}

static int add_bind(sbx_plan *p, const char *src, const char *dst, unsigned flags, sbx_error *reterr) {
        struct stat st;
        sbx_mount_op *op;
        int tree = -EBADF;

        if (stat(src, &st) < 0) {
                if (errno == ENOENT && (flags & SBX_MNT_OPTIONAL))
                        return 0;
                return sbx_error_set(reterr, -errno, "bind '%s'", src);
        }
        if (!S_ISDIR(st.st_mode))
                flags |= SBX_MNT_FILE;
        /* issue 16: a template's bind is cloned by the holder (or, without
         * one, by the child), never handed over: it must outlive this run */
        bool detach = p->privileged && !(flags & SBX_MNT_TEMPLATE);
        if (detach) {
                tree = sbx_mount_detach_source(src, flags, reterr);
                if (tree < 0)
                        return tree;
        }
        op = sbx_plan_add_mount(p, detach ? SBX_MOUNT_DETACHED : SBX_MOUNT_BIND, dst, reterr);
        if (!op) {
                if (tree >= 0)
                        close(tree);
                return -ENOMEM;
        }
        op->src_fd = tree;
        op->src = op->what = sbx_plan_strdup(p, src);
        /* the parent applied the attributes already */
        op->flags = detach ? (flags & (SBX_MNT_FILE | SBX_MNT_OPTIONAL)) : flags;
        return op->src ? 0 : sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
}

static int add_simple(sbx_plan *p, sbx_mount_kind kind, const char *dst, const char *data,
                      unsigned flags, unsigned mode, sbx_error *reterr) {
        sbx_mount_op *op = sbx_plan_add_mount(p, kind, dst, reterr);

        if (!op)
                return -ENOMEM;
        op->flags = flags;
        op->mode = mode;
        op->what = op->dst;
        if (data && !(op->data = sbx_plan_strdup(p, data)))
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        return 0;
}

/* The embedded default: host system dirs, read-only. On merged-/usr hosts
 * /bin, /lib* and /sbin are symlinks into /usr: recreate them as symlinks. */
static int prepare_host_root(sbx_plan *p, sbx_error *reterr) {
        static const char *const dirs[] = { "usr", "bin", "sbin", "lib", "lib64", "lib32", "libx32" };
        unsigned t = p->tmpl.eligible ? SBX_MNT_TEMPLATE : 0;
        int r;

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                char path[64], target[PATH_MAX];
                struct stat st;
                ssize_t n;

                snprintf(path, sizeof(path), "/%s", dirs[i]);
                if (lstat(path, &st) < 0)
                        continue;
                if (S_ISLNK(st.st_mode)) {
                        n = readlink(path, target, sizeof(target) - 1);
                        if (n < 0)
                                return sbx_error_set(reterr, -errno, "root: readlink '%s'", path);
                        target[n] = '\0';
                        r = add_simple(p, SBX_MOUNT_SYMLINK, dirs[i], target, t, 0, reterr);
                } else if (S_ISDIR(st.st_mode))
                        r = add_bind(p, path, dirs[i], SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV | t, reterr);
                else
                        continue;
                if (r < 0)
                        return r;
        }
        return 0;
}

/* --rootfs DIR: every top-level entry read-only, except what sbx provides. */
/* The image's top-level names a read-only root does not bind (sbx mounts
 * its own there; etc: an overlay, see prepare_etc()) */
static const char *const prepare_rootfs_skip[] = { "dev", "proc", "sys", "tmp", "run", "workspace", "agent", "etc" };

static int prepare_rootfs(sbx_plan *p, const char *rootfs, sbx_error *reterr) {
        const char *const *skip = prepare_rootfs_skip;
        _cleanup_free_ char *canon = realpath(rootfs, NULL);
        struct dirent **names = NULL;
        int n, r = 0;
        struct stat st;

        if (!canon)
                return sbx_error_set(reterr, -errno, "--rootfs '%s'", rootfs);
        if (stat(canon, &st) < 0 || !S_ISDIR(st.st_mode))
                return sbx_error_set(reterr, -ENOTDIR, "--rootfs '%s': not a directory", rootfs);
        n = scandir(canon, &names, NULL, alphasort);
        if (n < 0)
                return sbx_error_set(reterr, -errno, "--rootfs '%s': list", rootfs);
        for (int i = 0; i < n; i++) {
                const char *name = names[i]->d_name;
                char path[PATH_MAX], target[PATH_MAX];
                bool skipped = !strcmp(name, ".") || !strcmp(name, "..");
                ssize_t len;

                for (size_t k = 0; k < ELEMENTSOF(prepare_rootfs_skip); k++)
                        skipped = skipped || !strcmp(name, skip[k]);
                if (skipped || r < 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", canon, name);
                if (lstat(path, &st) < 0)
                        r = sbx_error_set(reterr, -errno, "--rootfs: stat '%s'", path);
                else if (S_ISLNK(st.st_mode)) {
                        len = readlink(path, target, sizeof(target) - 1);
                        if (len < 0)
                                r = sbx_error_set(reterr, -errno, "--rootfs: readlink '%s'", path);
                        else {
                                target[len] = '\0';
                                r = add_simple(p, SBX_MOUNT_SYMLINK, name, target, 0, 0, reterr);
                        }
                } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
                        r = add_bind(p, path, name, SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
        }
        for (int i = 0; i < n; i++)
                free(names[i]);
        free(names);
        return r;
}

static const char *generated_etc[][2] = {
        { "passwd", NULL }, { "group", NULL }, { "hosts", NULL },
        { "resolv.conf", NULL }, { "hostname", NULL }, { "nsswitch.conf", NULL },
};

/* The generated /etc files, in the order of generated_etc[]. */
static int etc_contents(sbx_plan *p, const sbx_run_config *c, const char *contents[static 6], sbx_error *reterr) {
        const char *hostname = c->hostname ?: "sbx";
        /* 65534 keeps its name (nobody, nogroup): a sandbox line before it
         * would rename it */
        bool su = c->uid && c->uid != 65534, sg = c->gid && c->gid != 65534;
        contents[0] = sbx_plan_strdupf(p, "root:x:0:0:root:/root:/bin/sh\n%s%s%s"
                                       "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
                                       su ? "sandbox:x:" : "",
                                       su ? sbx_plan_strdupf(p, "%u:%u:sandbox:/workspace:/bin/sh", c->uid, c->gid) : "",
                                       su ? "\n" : "");
        contents[1] = sbx_plan_strdupf(p, "root:x:0:\n%s%snogroup:x:65534:\n",
                                       sg ? sbx_plan_strdupf(p, "sandbox:x:%u:", c->gid) : "",
                                       sg ? "\n" : "");
        /* hosts and resolv.conf come from the network plan (runtime/net/hosts.c) */
        contents[2] = p->net.hosts;
        contents[3] = p->net.resolv_conf;
        contents[4] = sbx_plan_strdupf(p, "%s\n", hostname);
        contents[5] = "passwd: files\ngroup: files\nhosts: files dns\n";
        for (size_t i = 0; i < 6; i++)
                if (!contents[i])
                        return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        return 0;
}

/* A writable root's generated /etc file goes into the overlay's upper
 * layer (replacing what an earlier run of a persistent sandbox left). */
static int write_upper_etc(sbx_plan *p, const char *name, const char *contents, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        size_t len = strlen(contents);
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/etc", p->root_overlay.upper);
        if (mkdir(path, 0755) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "--writable-root: create '%s'", path);
        dfd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "--writable-root: open '%s'", path);
        (void) unlinkat(dfd, name, 0);
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, contents, len) != (ssize_t) len)
                return sbx_error_set(reterr, errno ? -errno : -EIO, "--writable-root: write '%s/%s'", path, name);
        if (p->privileged && (fchown(fd, p->host_uid, p->host_gid) < 0 ||
                              fchownat(dfd, "", p->host_uid, p->host_gid, AT_EMPTY_PATH) < 0))
                return sbx_error_set(reterr, -errno, "--writable-root: chown '%s/%s'", path, name);
        return 0;
}

/* Minimal /etc: the sandbox user, hosts, resolv.conf, hostname. Nothing
 * from the host's /etc except what is public and needed to run programs. */
static int prepare_etc(sbx_plan *p, const sbx_run_config *c, const char *rootfs, sbx_error *reterr) {
        const char *contents[ELEMENTSOF(generated_etc)];
        int r;

        r = etc_contents(p, c, contents, reterr);
        if (r < 0)
                return r;
        if (!rootfs) {
                /* issue 16: the file contents are part of the template's key */
                unsigned t = p->tmpl.eligible ? SBX_MNT_TEMPLATE : 0;
                r = add_simple(p, SBX_MOUNT_DIR, "etc", NULL, t, 0755, reterr);
                for (size_t i = 0; r >= 0 && i < ELEMENTSOF(contents); i++) {
                        char dst[64];
                        snprintf(dst, sizeof(dst), "etc/%s", generated_etc[i][0]);
                        r = add_simple(p, SBX_MOUNT_FILE, dst, contents[i], t, 0644, reterr);
                }
                if (r >= 0)
                        r = add_bind(p, "/etc/alternatives", "etc/alternatives",
                                     SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV | SBX_MNT_OPTIONAL | t, reterr);
                if (r >= 0)
                        r = add_bind(p, "/etc/ld.so.cache", "etc/ld.so.cache",
                                     SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV | SBX_MNT_OPTIONAL | t, reterr);
                return r;
        }
        /* --rootfs: the image's /etc stays (its users, groups and nsswitch.conf
         * too: an image's User is resolved against them); the network files
         * are ours. Read-only root: /etc is a read-only overlay (two lower
         * layers, no upper) of our files over the image's, so they are there
         * even where the image has none (docker-save images rarely do). A
         * writable root gets them in its upper layer. */
        if (!p->root_overlay.upper) {
                char img_etc[PATH_MAX], gen_etc[PATH_MAX];
                sbx_mount_op *op;
                struct stat st;

                for (size_t i = 2; i < 5; i++) {
                        char name[64];
                        snprintf(name, sizeof(name), "etc/%s", generated_etc[i][0]);
                        r = sbx_statedir_write(p, name, contents[i], reterr);
                        if (r < 0)
                                return r;
                }
                if ((size_t) snprintf(img_etc, sizeof(img_etc), "%s/etc", rootfs) >= sizeof(img_etc) ||
                    (size_t) snprintf(gen_etc, sizeof(gen_etc), "%.*s/etc", PATH_MAX - 64, p->state_dir) >= sizeof(gen_etc))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "--rootfs '%s': path too long", rootfs);
                if (lstat(img_etc, &st) < 0 || !S_ISDIR(st.st_mode))
                        /* no /etc in the image: ours alone, read-only */
                        return add_bind(p, gen_etc, "etc", SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
                op = sbx_plan_add_mount(p, SBX_MOUNT_OVERLAY, "etc", reterr);
                if (!op)
                        return -ENOMEM;
                op->src = op->what = sbx_plan_strdup(p, img_etc);
                op->upper = sbx_plan_strdup(p, gen_etc);    /* the top lower layer; no work dir */
                op->flags = SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV;
                return op->src && op->upper ? 0 : sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        }
        for (size_t i = 2; i < 5; i++) {
                char name[64], src[PATH_MAX], probe[PATH_MAX];
                struct stat st;

                snprintf(name, sizeof(name), "etc/%s", generated_etc[i][0]);
                if (p->root_overlay.upper) {
                        r = write_upper_etc(p, generated_etc[i][0], contents[i], reterr);
                        if (r < 0)
                                return r;
                        continue;
                }
                r = sbx_statedir_write(p, name, contents[i], reterr);
                if (r < 0)
                        return r;
                if ((size_t) snprintf(probe, sizeof(probe), "%s/%s", rootfs, name) >= sizeof(probe))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "--rootfs '%s': path too long", rootfs);
                if (lstat(probe, &st) < 0 || !S_ISREG(st.st_mode))
                        continue;
                if ((size_t) snprintf(src, sizeof(src), "%.*s/%s", PATH_MAX - 64, p->state_dir, name) >= sizeof(src))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "state dir '%s': path too long", p->state_dir);
                r = add_bind(p, src, name, SBX_MNT_RO | SBX_MNT_NOSUID | SBX_MNT_NODEV, reterr);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Every devpts instance but the host's first draws from one pool,
 * kernel.pty.max less kernel.pty.reserve (3072 by default): one sandbox
 * opening /dev/ptmx until ENOSPC left no pty to any other sandbox (sbx run
 * --tty, docker exec -t) nor to the host's containers. A sandbox's devpts
 * gets at most an eighth of the pool (max=). */
long sbx_mount_pty_share(void) {
        long max = sbx_read_sysctl("/proc/sys/kernel/pty/max"), reserve = sbx_read_sysctl("/proc/sys/kernel/pty/reserve");

        if (max <= 0)
                max = 4096;
        if (reserve < 0 || reserve >= max)
                reserve = 0;
        return (max - reserve) / 8 > 0 ? (max - reserve) / 8 : 1;
}

/* Minimal /dev: a few host device nodes (nosuid, noexec binds), our own
 * devpts and shm. */
static int prepare_dev(sbx_plan *p, sbx_error *reterr) {
        static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
        static const char *const links[][2] = {
                { "dev/ptmx", "pts/ptmx" }, { "dev/fd", "/proc/self/fd" },
                { "dev/stdin", "/proc/self/fd/0" }, { "dev/stdout", "/proc/self/fd/1" },
                { "dev/stderr", "/proc/self/fd/2" },
        };
        unsigned t = p->tmpl.eligible ? SBX_MNT_TEMPLATE : 0;
        char pts[96];
        int r;

        /* /dev is a directory of the (read-only) root tmpfs rather than a
         * tmpfs of its own: nothing needs to create files there (shm and pts
         * are their own mounts), and a tmpfs superblock costs more than the
         * rest of /dev together. */
        r = add_simple(p, SBX_MOUNT_DIR, "dev", NULL, t, 0755, reterr);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(nodes); i++) {
                char src[32], dst[32];
                snprintf(src, sizeof(src), "/dev/%s", nodes[i]);
                snprintf(dst, sizeof(dst), "dev/%s", nodes[i]);
                r = add_bind(p, src, dst, SBX_MNT_NOSUID | SBX_MNT_NOEXEC | t, reterr);
        }
        snprintf(pts, sizeof(pts), "newinstance,ptmxmode=0666,mode=0620,max=%ld", sbx_mount_pty_share());
        if (r >= 0)
                r = add_simple(p, SBX_MOUNT_DEVPTS, "dev/pts", pts, SBX_MNT_NOSUID | SBX_MNT_NOEXEC, 0755, reterr);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(links); i++)
                r = add_simple(p, SBX_MOUNT_SYMLINK, links[i][0], links[i][1], t, 0, reterr);
        if (r >= 0)
                r = add_simple(p, SBX_MOUNT_TMPFS, "dev/shm", "mode=1777,size=64m,nr_inodes=32768",
                               SBX_MNT_NOSUID | SBX_MNT_NODEV | SBX_MNT_NOEXEC, 01777, reterr);
        return r;
}

static int prepare_proc(sbx_plan *p, sbx_error *reterr) {
        int r = add_simple(p, SBX_MOUNT_PROC, "proc", NULL, SBX_MNT_NOSUID | SBX_MNT_NODEV | SBX_MNT_NOEXEC,
                           0555, reterr);

        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(proc_masked); i++)
                r = add_simple(p, SBX_MOUNT_MASK, proc_masked[i], NULL, SBX_MNT_OPTIONAL, 0, reterr);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(proc_readonly); i++)
                r = add_simple(p, SBX_MOUNT_READONLY, proc_readonly[i], NULL, SBX_MNT_OPTIONAL, 0, reterr);
        return r;
}

static int prepare_tmpfs(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        size_t n;
        const sbx_tmpfs *list = sbx_run_config_tmpfs(c, &n);
        int r;

        for (size_t i = 0; i < n; i++) {
                char data[SBX_TMPFS_OPTIONS_MAX];

                sbx_tmpfs_options(&list[i], data);
                /* The defaults are optional (an image without /var/tmp still runs);
                 * what the user asked for is not. */
                r = add_simple(p, SBX_MOUNT_TMPFS, list[i].path, data,
                               SBX_MNT_NOSUID | SBX_MNT_NODEV | (list[i].noexec ? SBX_MNT_NOEXEC : 0) |
                                       (c->tmpfs_set ? 0 : SBX_MNT_OPTIONAL),
                               list[i].mode, reterr);
                if (r < 0)
                        return r;
                p->mounts[p->n_mounts - 1].what = sbx_plan_strdupf(p, "--tmpfs %s", list[i].path);
        }
        return 0;
}

/* Make REL (a bind's mountpoint, "a/b/c") beneath the host directory
 * OUTER, following no symlink and leaving it by no "..": each component
 * made (0755, the caller's ids, as docker's daemon does) when missing, then
 * opened beneath the last; the leaf an empty file when FILE. */
static int premake_beneath(const char *outer, const char *rel, bool file, sbx_error *reterr) {
        _cleanup_close_ int dfd = sys_openat2(AT_FDCWD, outer, O_PATH | O_DIRECTORY | O_CLOEXEC,
                                              RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        const unsigned long long beneath = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        char buf[PATH_MAX], *save = NULL;

        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "bind mountpoint: open '%s' without following symlinks", outer);
        if (snprintf(buf, sizeof(buf), "%s", rel) >= (int) sizeof(buf))
                return sbx_error_set(reterr, -ENAMETOOLONG, "bind mountpoint '%s/%s'", outer, rel);
        for (char *comp = strtok_r(buf, "/", &save), *next; comp; comp = next) {
                next = strtok_r(NULL, "/", &save);
                if (!next && file) {
                        struct open_how how = { .flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
                                                .mode = 0644, .resolve = beneath };
                        int fd = (int) syscall(SYS_openat2, dfd, comp, &how, sizeof(how));
                        if (fd < 0)
                                return sbx_error_set(reterr, -errno, "bind mountpoint: create '%s/%s'", outer, rel);
                        close(fd);
                        return 0;
                }
                if (mkdirat(dfd, comp, 0755) < 0 && errno != EEXIST)
                        return sbx_error_set(reterr, -errno, "bind mountpoint: mkdir '%s' in '%s/%s'", comp, outer, rel);
                int nfd = sys_openat2(dfd, comp, O_PATH | O_DIRECTORY | O_CLOEXEC, beneath);
                if (nfd < 0)
                        return sbx_error_set(reterr, -errno, "bind mountpoint: open '%s' in '%s/%s' (a symlink or "
                                             "not a directory is not followed)", comp, outer, rel);
                close(dfd);
                dfd = nfd;
        }
        return 0;
}

/* A bind below another host mount of the caller's (the workspace, an
 * earlier bind: OpenClaw's skills bind below its rw workspace), whose
 * mountpoint is missing: docker's daemon makes it as root in the outer
 * mount's host directory. The child cannot: as root a sandbox runs on
 * subordinate ids, which may not write there (a bind of a host-owned
 * directory: EACCES; the workspace idmapped to a sandbox user other than
 * 0, made by the sandbox's root: EOVERFLOW), and a read-only outer refuses
 * it (EROFS). So, as root, the parent makes it beforehand beneath the outer
 * directory (premake_beneath), as docker does. OP is the new bind; the
 * candidates are the ops from FIRST (after the root, /etc, /dev, /proc and
 * the tmpfs): of the mounts whose destination holds OP's, the deepest, the
 * last of those at one place (the child's mount order), and only when it is
 * such a bind. An overlay workspace takes it in its upper layer, a tmpfs
 * in itself, as before. */
static int premake_nested(sbx_plan *p, size_t first, const sbx_mount_op *op, sbx_error *reterr) {
        const sbx_mount_op *outer = NULL;
        size_t olen = 0, dlen = strlen(op->dst);

        if (!p->privileged)
                return 0;
        for (size_t k = 0; k < p->n_mounts; k++) {
                const sbx_mount_op *o = &p->mounts[k];
                size_t len = strlen(o->dst);
                if (o == op || len == 0 || len >= dlen || op->dst[len] != '/' || strncmp(o->dst, op->dst, len) ||
                    len < olen)
                        continue;
                /* the mount the child sees there: ours only if it is the
                 * caller's host directory (not the root's binds, a tmpfs,
                 * nor the overlay a "none" workspace stacks on its lower) */
                bool host_dir = k >= first && (o->kind == SBX_MOUNT_BIND || o->kind == SBX_MOUNT_DETACHED) &&
                                o->what && o->what[0] == '/' && !(o->flags & SBX_MNT_FILE);
                outer = host_dir ? o : NULL;
                olen = len;
        }
        if (!outer)
                return 0;
        return premake_beneath(outer->what, op->dst + olen + 1, op->flags & SBX_MNT_FILE, reterr);
}

static int prepare_binds(sbx_plan *p, const sbx_run_config *c, size_t first, sbx_error *reterr) {
        char base[PATH_MAX];

        for (size_t i = 0; i < c->n_binds; i++) {
                /* a pinned source is the canonical path a policy check
                 * approved: resolving it again would follow a symlink
                 * planted since; add_bind opens it following none */
                const char *opt = c->binds[i].ro ? "--ro-bind" : "--bind";
                _cleanup_free_ char *canon = NULL;
                int r;

                if (c->binds[i].pinned && !(canon = strdup(c->binds[i].src)))
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                if (!canon && (r = sbx_mount_source_resolve(c->binds[i].src, "--bind", &canon, reterr)) < 0)
                        return r;
                /* the run's state dir base: dirname of its run dir */
                snprintf(base, sizeof(base), "%s", p->state_dir);
                if (strrchr(base, '/') > base)
                        *strrchr(base, '/') = '\0';
                if (p->state_dir[0] == '/' &&
                    (r = sbx_statedir_outside(canon, base, opt, reterr)) < 0)
                        return r;
                size_t n = p->n_mounts;
                r = add_bind(p, canon, c->binds[i].dst,
                             SBX_MNT_NOSUID | SBX_MNT_NODEV | (c->binds[i].ro ? SBX_MNT_RO : 0), reterr);
                if (r >= 0 && p->n_mounts > n)
                        r = premake_nested(p, first, &p->mounts[p->n_mounts - 1], reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "--bind");
        }
        return 0;
}

/* The number of threads on the host (/proc/loadavg's "running/total"), or 0. */
static unsigned host_threads(void) {
        char buf[128];
        unsigned running = 0, total = 0;
        int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

        if (fd >= 0)
                close(fd);
        if (n <= 0)
                return 0;
        buf[n] = '\0';
        return sscanf(buf, "%*s %*s %*s %u/%u", &running, &total) == 2 ? total : 0;
}

/* issue 16: can a template holder keep this run's read-only root? The host
 * root with sbx's own /etc and /dev, read-only, no network to attach, the
 * default empty workspace (its layers on the child's detached tmpfs), and
 * no user binds unless we are root (then they are detached trees the child
 * moves in). Everything else builds its root per run, as before.
 * Used when it pays: the template saves the mount recipe and pivot_root's
 * walk of every host thread (≈0.07-0.33 µs each). As root sbx enters the
 * holder's mount namespace itself, no spawner: ≈5 % less CPU already at
 * this host's ≈140 threads (session 10), so always. Rootless it costs a
 * spawner: on sbx's memory where the run's child may share it (session 13,
 * launch.c spawn_template_shared), which pays at any thread count (paired
 * against the per-run root, same binary: 0.83-0.91 wall, 0.95-0.96 CPU at
 * ≈200 host threads; session 14, bench/README.md), so always too (the
 * launcher checks that condition: tmpl.shared_only); a forked spawner (a
 * tty, a timeout, a setup command, an exec log) only from
 * SBX_TEMPLATE_THREADS threads on (a wash at a few hundred threads, a gain
 * from a few thousand: session 7). SBX_TEMPLATE=1 always, =0 never (the
 * tests of both paths, benchmarks). */
#define SBX_TEMPLATE_THREADS 4000

/* A template run's workspace overlay took its layers from a detached
 * tmpfs (mount_scratch; since session 12 that one is attached beneath the
 * overlay), and a persistent sandbox's still takes them from a detached
 * clone of its run dir (do_overlay_staged).
 * overlayfs accepts layers on a detached mount only from Linux 6.15
 * (clone_private_mount()'s check_mnt() refused them: EINVAL, e.g. on
 * Debian 12's 6.1, where the vm lane found every root run failing with
 * "mount overlay '/workspace': Invalid argument"). Older kernels build the
 * root per run, as before templates. */
static bool kernel_overlay_takes_detached_layers(void) {
        struct utsname u;
        unsigned major = 0, minor = 0;

        if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
                return false;
        return major > 6 || (major == 6 && minor >= 15);
}

static bool template_eligible(const sbx_plan *p, const sbx_run_config *c) {
        const char *env = getenv("SBX_TEMPLATE");

        if ((env && !strcmp(env, "0")) || !kernel_overlay_takes_detached_layers())
                return false;
        if (c->rootfs || !c->read_only_root || p->container || c->network != SBX_NETWORK_NONE)
                return false;
        /* the default empty workspace, its layers on the child's scratch tmpfs */
        if (!c->workspace && c->workspace_access == SBX_WORKSPACE_NONE && !c->keep_layers)
                return p->privileged || c->n_binds == 0;
        /* session 11, root only: a workspace directory read-only or
         * read-write (sbx create's default) is a detached tree the parent
         * clones (overlay.c), as root binds are; a persistent sandbox's
         * workspace overlay (--workspace-access none) too, its run dir
         * cloned beside it (do_overlay_staged). A one-shot run's overlay of
         * a directory: per run */
        if (!p->privileged)
                return false;
        return c->workspace_access != SBX_WORKSPACE_NONE ? c->workspace != NULL : c->keep_layers;
}

/* PATH is DIR or below it (both absolute, normalized). */
static bool path_at_or_below(const char *path, const char *dir) {
        size_t n = strlen(dir);

        while (n > 1 && dir[n - 1] == '/')
                n--;
        return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* docker's --workdir (c->make_dir) with a read-only root: missing in the
 * image below an image directory (/srv/app), which prepare_rootfs binds
 * read-only, so it could not be made there. Docker makes it in the
 * container's layer before the root turns read-only; so does sbx: such a
 * root is the writable root's overlay, made read-only at the end as every
 * read-only root (step 7 of the child). Resolved inside the image
 * (RESOLVE_IN_ROOT): a link in it never reaches a host path. */
static bool workdir_needs_layer(const char *rootfs, const sbx_run_config *c) {
        _cleanup_close_ int rootfd = -EBADF, fd = -EBADF;
        char top[NAME_MAX + 1];
        const char *path = c->make_dir, *slash;
        struct stat st;

        if (!path || path[0] != '/' || !path[1] || !(slash = strchr(path + 1, '/')) ||
            (size_t) (slash - path - 1) > NAME_MAX)
                return false;           /* "/" or a top-level dir: made in the root itself */
        snprintf(top, sizeof(top), "%.*s", (int) (slash - path - 1), path + 1);
        rootfd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (rootfd < 0 || fstatat(rootfd, top, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
                return false;           /* not an image directory: the root's tmpfs holds it */
        for (size_t i = 0; i < ELEMENTSOF(prepare_rootfs_skip); i++)
                if (!strcmp(top, prepare_rootfs_skip[i]))
                        return false;   /* a mount of sbx's own (tmpfs, /etc overlay, ...) */
        for (size_t i = 0; i < c->n_tmpfs; i++)
                if (path_at_or_below(path, c->tmpfs[i].path))
                        return false;
        for (size_t i = 0; i < c->n_binds; i++)
                if (path_at_or_below(path, c->binds[i].dst))
                        return false;
        fd = sys_openat2(rootfd, path + 1, O_PATH | O_CLOEXEC, RESOLVE_ROOTED);
        return fd < 0 && errno == ENOENT;
}

int sbx_mount_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        _cleanup_free_ char *rootfs = NULL;
        int r;

        if (template_eligible(p, c)) {
                const char *env = getenv("SBX_TEMPLATE");

                p->tmpl.shared_only = !p->privileged && !(env && !strcmp(env, "1")) &&
                                      host_threads() < SBX_TEMPLATE_THREADS;
                char base[PATH_MAX];
                sbx_statedir_base(c, base, sizeof(base));
                p->tmpl.dir = sbx_plan_strdupf(p, "%s/templates", c->template_base ?: base);
                p->tmpl.eligible = p->tmpl.dir != NULL;
        }

        if (c->rootfs) {
                rootfs = realpath(c->rootfs, NULL);
                if (!rootfs)
                        return sbx_error_set(reterr, -errno, "--rootfs '%s'", c->rootfs);
                /* writable: one overlay over the whole image; else read-only binds */
                r = c->read_only_root && !workdir_needs_layer(rootfs, c) ? prepare_rootfs(p, rootfs, reterr)
                                                                         : sbx_overlay_prepare_root(p, c, rootfs, reterr);
        } else
                r = prepare_host_root(p, reterr);
        if (r < 0)
                return r;
        /* /dev before /proc: masking binds /dev/null over files in /proc. */
        r = prepare_etc(p, c, rootfs, reterr);
        if (r >= 0)
                r = prepare_dev(p, reterr);
        if (r >= 0)
                r = prepare_proc(p, reterr);
        if (r >= 0)
                r = prepare_tmpfs(p, c, reterr);
        size_t first = p->n_mounts;   /* the caller's mounts from here */
        if (r >= 0)
                r = sbx_overlay_prepare(p, c, reterr);
        if (r >= 0)
                r = prepare_binds(p, c, first, reterr);
        return r;
}

/* ----------------------------------------------------------------- child */

static void fd_path(char buf[static 32], int fd) {
        snprintf(buf, 32, "/proc/self/fd/%d", fd);
}

/* Split "a/b/c" into parent "a/b" (or ".") and leaf "c". */
static void split_path(const char *path, char dir[static PATH_MAX], const char **ret_leaf) {
        const char *slash = strrchr(path, '/');

        if (!slash) {
                strcpy(dir, ".");
                *ret_leaf = path;
                return;
        }
        snprintf(dir, PATH_MAX, "%.*s", (int) (slash - path), path);
        *ret_leaf = slash + 1;
}

static int open_in_root(int rootfd, const char *path, int flags) {
        return sys_openat2(rootfd, path[0] ? path : ".", flags | O_CLOEXEC, RESOLVE_ROOTED);
}

/* mkdir -p inside the new root; every prefix resolved with RESOLVE_IN_ROOT. */
static int mkdir_in_root(int rootfd, const char *path, unsigned mode) {
        char prefix[PATH_MAX];
        size_t len = strlen(path);

        if (len >= sizeof(prefix))
                return -ENAMETOOLONG;
        for (size_t i = 0; i <= len; i++) {
                if (path[i] != '/' && path[i] != '\0')
                        continue;
                if (i == 0)
                        continue;
                memcpy(prefix, path, i);
                prefix[i] = '\0';
                char dir[PATH_MAX];
                const char *leaf;
                split_path(prefix, dir, &leaf);
                int dfd = open_in_root(rootfd, dir, O_PATH | O_DIRECTORY);
                if (dfd < 0)
                        return -errno;
                int r = mkdirat(dfd, leaf, mode);
                int e = errno;
                close(dfd);
                if (r < 0 && e != EEXIST)
                        return -e;
        }
        return 0;
}

/* The directory that is to hold PATH's last component (*ret_leaf), made when missing (mkdir -p)
 * and opened O_PATH; -errno. */
static int open_parent_in_root(int rootfd, const char *path, const char **ret_leaf) {
        char dir[PATH_MAX];
        int r, dfd;

        split_path(path, dir, ret_leaf);
        if (strcmp(dir, ".") && (r = mkdir_in_root(rootfd, dir, 0755)) < 0)
                return r;
        dfd = open_in_root(rootfd, dir, O_PATH | O_DIRECTORY);
        return dfd < 0 ? -errno : dfd;
}

static int create_file_in_root(int rootfd, const char *path, const char *data, unsigned mode) {
        const char *leaf;
        int dfd, fd, r;

        /* An existing file (say, in a read-only --rootfs) is a fine mountpoint. */
        fd = open_in_root(rootfd, path, O_PATH | O_NOFOLLOW);
        if (fd >= 0) {
                close(fd);
                return data ? -EEXIST : 0;
        }
        dfd = open_parent_in_root(rootfd, path, &leaf);
        if (dfd < 0)
                return dfd;
        fd = openat(dfd, leaf, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode);
        r = fd < 0 ? -errno : 0;
        close(dfd);
        if (fd >= 0) {
                size_t len = data ? strlen(data) : 0;
                if (len && write(fd, data, len) != (ssize_t) len)
                        r = -EIO;
                close(fd);
        }
        return r;
}

static unsigned attr_flags(unsigned flags) {
        return (flags & SBX_MNT_RO ? MOUNT_ATTR_RDONLY : 0) | (flags & SBX_MNT_NOSUID ? MOUNT_ATTR_NOSUID : 0) |
               (flags & SBX_MNT_NODEV ? MOUNT_ATTR_NODEV : 0) | (flags & SBX_MNT_NOEXEC ? MOUNT_ATTR_NOEXEC : 0);
}

static unsigned long ms_flags(unsigned flags) {
        return (flags & SBX_MNT_RO ? MS_RDONLY : 0) | (flags & SBX_MNT_NOSUID ? MS_NOSUID : 0) |
               (flags & SBX_MNT_NODEV ? MS_NODEV : 0) | (flags & SBX_MNT_NOEXEC ? MS_NOEXEC : 0);
}

/* SBX_MNT_NOT_ON_PROC: an OCI mount whose mountpoint (tfd, as resolved in
 * the root: an image's symlink may lead there) is on a procfs is refused,
 * as runc's checkProcMount refuses it (oci-config.c proc_place: the names) */
static int proc_guard(int tfd, unsigned flags) {
        struct statfs sf;

        if (!(flags & SBX_MNT_NOT_ON_PROC))
                return 0;
        if (fstatfs(tfd, &sf) < 0)
                return -errno;
        return sf.f_type == PROC_SUPER_MAGIC ? -EPERM : 0;
}

/* Attach tree (a detached mount) at dst inside the root, applying flags. */
static int attach_tree(int rootfd, int tree, const char *dst, unsigned flags, bool file) {
        struct mount_attr attr = { .attr_set = attr_flags(flags) };
        int tfd, r;

        if (attr.attr_set && mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) < 0)
                return -errno;
        r = file ? create_file_in_root(rootfd, dst, NULL, 0644) : mkdir_in_root(rootfd, dst, 0755);
        if (r < 0)
                return r;
        tfd = open_in_root(rootfd, dst, O_PATH | (file ? O_NOFOLLOW : O_DIRECTORY));
        if (tfd < 0)
                return -errno;
        r = proc_guard(tfd, flags);
        if (r == 0)
                r = move_mount(tree, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0 ? -errno : 0;
        close(tfd);
        return r;
}

static int set_propagation(int rootfd, const sbx_mount_op *op);

static int do_bind(int rootfd, const sbx_mount_op *op) {
        struct stat st;
        int sfd, tree, r;

        sfd = sys_openat2(AT_FDCWD, op->src, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (sfd < 0)
                return (errno == ENOENT && (op->flags & SBX_MNT_OPTIONAL)) ? 0 : -errno;
        if (fstat(sfd, &st) < 0 || (!!S_ISDIR(st.st_mode) == !!(op->flags & SBX_MNT_FILE))) {
                close(sfd);
                return -ENOTDIR;   /* changed type since the parent looked */
        }
        tree = open_tree(sfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
                                  (op->nonrecursive ? 0 : AT_RECURSIVE));
        r = tree < 0 ? -errno : 0;
        close(sfd);
        if (r < 0)
                return r;
        r = attach_tree(rootfd, tree, op->dst, op->flags, op->flags & SBX_MNT_FILE);
        close(tree);
        return r < 0 ? r : set_propagation(rootfd, op);
}

/* A container mount's propagation (config.json "rshared", "private", ...). */
static int set_propagation(int rootfd, const sbx_mount_op *op) {
        char target[32];
        int tfd, r;

        if (!op->propagation)
                return 0;
        tfd = open_in_root(rootfd, op->dst, O_PATH);
        if (tfd < 0)
                return -errno;
        fd_path(target, tfd);
        r = mount(NULL, target, NULL, op->propagation, NULL) < 0 ? -errno : 0;
        close(tfd);
        return r;
}

/* mkdir -p the mountpoint in the root and open it: the fd (> 0), 0 when an
 * optional mount's place cannot be made (a read-only --rootfs lacks it), or
 * a negative errno. */
static int open_mountpoint(int rootfd, const sbx_mount_op *op, unsigned mode) {
        int r = mkdir_in_root(rootfd, op->dst, mode), tfd;

        if (r < 0 && (op->flags & SBX_MNT_OPTIONAL) && (r == -EROFS || r == -ENOENT))
                return 0;
        if (r < 0)
                return r;
        tfd = open_in_root(rootfd, op->dst, O_PATH | O_DIRECTORY);
        return tfd < 0 ? -errno : tfd;
}

/* tmpcopyup: copy the tree at from into to (both dir fds), keeping modes,
 * owners and symlinks; bounded depth, no allocation (child). */
static int copy_tree(int from, int to, int depth) {
        char buf[4096];
        long n;

        if (depth > 16)
                return -ELOOP;
        while ((n = syscall(SYS_getdents64, from, buf, sizeof(buf))) > 0) {
                for (long off = 0; off < n;) {
                        struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type;
                                 char name[]; } *d = (void *) (buf + off);
                        struct stat st;
                        int r = 0;

                        off += d->reclen;
                        if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
                                continue;
                        if (fstatat(from, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                                return -errno;
                        if (S_ISDIR(st.st_mode)) {
                                int a, b;
                                if (mkdirat(to, d->name, st.st_mode & 07777) < 0 && errno != EEXIST)
                                        return -errno;
                                a = openat(from, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                                b = openat(to, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                                r = a < 0 || b < 0 ? -errno : copy_tree(a, b, depth + 1);
                                if (a >= 0)
                                        close(a);
                                if (b >= 0)
                                        close(b);
                        } else if (S_ISLNK(st.st_mode)) {
                                char target[PATH_MAX];
                                ssize_t len = readlinkat(from, d->name, target, sizeof(target) - 1);
                                if (len < 0)
                                        return -errno;
                                target[len] = '\0';
                                r = symlinkat(target, to, d->name) < 0 ? -errno : 0;
                        } else if (S_ISREG(st.st_mode)) {
                                int a = openat(from, d->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                                int b = openat(to, d->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                               st.st_mode & 07777);
                                char data[4096];
                                ssize_t k;
                                r = a < 0 || b < 0 ? -errno : 0;
                                while (r == 0 && (k = read(a, data, sizeof(data))) > 0)
                                        if (write(b, data, (size_t) k) != k)
                                                r = -EIO;
                                if (a >= 0)
                                        close(a);
                                if (b >= 0)
                                        close(b);
                        } else
                                continue;       /* devices, fifos, sockets: not copied */
                        if (r < 0)
                                return r;
                        if (fchownat(to, d->name, st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) < 0 && errno != EINVAL)
                                return -errno;
                }
        }
        return n < 0 ? -errno : 0;
}

/* config.json's mount of a file system type: the flags and data as given;
 * a file system cannot be mounted on a file, so the mountpoint is a dir. */
static int do_container_fs(int rootfd, const sbx_mount_op *op) {
        char target[32];
        int tfd, r;

        tfd = open_mountpoint(rootfd, op, 0755);
        if (tfd <= 0)
                return tfd;
        if ((r = proc_guard(tfd, op->flags)) < 0) {
                close(tfd);
                return r;
        }
        fd_path(target, tfd);
        if (op->flags & SBX_MNT_COPYUP) {
                /* what was there, before the tmpfs hides it */
                int old = open_in_root(rootfd, op->dst, O_RDONLY | O_DIRECTORY), fresh;
                if (old < 0) {
                        r = -errno;
                        close(tfd);
                        return r;
                }
                r = mount(op->src ?: op->fstype, target, op->fstype, op->ms_flags & ~(unsigned long) MS_RDONLY,
                          op->data) < 0 ? -errno : 0;
                if (r == 0) {
                        fresh = open_in_root(rootfd, op->dst, O_RDONLY | O_DIRECTORY);
                        r = fresh < 0 ? -errno : copy_tree(old, fresh, 0);
                        if (fresh >= 0)
                                close(fresh);
                }
                close(old);
                if (r == 0 && (op->ms_flags & MS_RDONLY))
                        r = mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0 ? -errno : 0;
        } else
                r = mount(op->src ?: op->fstype, target, op->fstype, op->ms_flags, op->data) < 0 ? -errno : 0;
        /* proc/sysfs/mqueue refuse some flags at mount time in a user ns:
         * apply read-only afterwards, as runc does */
        if (r == 0 && (op->ms_flags & MS_RDONLY)) {
                struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
                (void) mount_setattr(tfd, "", AT_EMPTY_PATH, &attr, sizeof(attr));
        }
        close(tfd);
        return r < 0 ? r : set_propagation(rootfd, op);
}

/* A device node: mknod as real root; in a user namespace (no mknod) the
 * host's node is bound onto an empty file, as runc does. */
static int do_device(int rootfd, const sbx_mount_op *op) {
        const char *leaf;
        int dfd, r;

        dfd = open_parent_in_root(rootfd, op->dst, &leaf);
        if (dfd < 0)
                return dfd;
        (void) unlinkat(dfd, leaf, 0);
        if (mknodat(dfd, leaf, op->mode, op->dev) == 0) {
                r = fchownat(dfd, leaf, op->dev_uid, op->dev_gid, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
                if (r == 0)
                        r = fchmodat(dfd, leaf, op->mode & 07777, 0) < 0 ? -errno : 0;
                close(dfd);
                return r;
        }
        if (errno != EPERM || !op->src) {
                r = -errno;
                close(dfd);
                return r;
        }
        close(dfd);
        /* bind the host node, which must be the node asked for: the same
         * type and number, opened once (no symlink in any component), the
         * tree cloned from that fd. The path is config.json's; a name that
         * leads to any other host file ('/dev/../etc/shadow') is no device
         * of the container's (oci-config.c refuses '..' too). */
        {
                struct stat st;
                int sfd, tree;

                sfd = sys_openat2(AT_FDCWD, op->src, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
                if (sfd < 0)
                        return -errno;
                r = fstat(sfd, &st) < 0 ? -errno : 0;
                if (r == 0 && ((st.st_mode & S_IFMT) != (op->mode & S_IFMT) || st.st_rdev != op->dev ||
                               !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))))
                        r = -ENODEV;
                tree = r < 0 ? -1 : open_tree(sfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
                if (r == 0 && tree < 0)
                        r = -errno;
                close(sfd);
                if (r < 0)
                        return r;
                r = attach_tree(rootfd, tree, op->dst, SBX_MNT_FILE | SBX_MNT_NOSUID | SBX_MNT_NOEXEC, true);
                close(tree);
                return r;
        }
}

static int do_fs(int rootfd, const sbx_mount_op *op, const char *fstype, const char *data) {
        char target[32];
        int tfd, r;

        tfd = open_mountpoint(rootfd, op, op->mode);
        if (tfd <= 0)
                return tfd;
        fd_path(target, tfd);
        r = mount(fstype, target, fstype, ms_flags(op->flags), data) < 0 ? -errno : 0;
        close(tfd);
        return r;
}

static void close_fd(int *fd);

/* /proc: the procfs the nesting guard made (userns.c; nosuid, nodev, noexec)
 * moved into place, else a new one. Only the first /proc takes it. */
static int do_proc(int rootfd, const sbx_mount_op *op, sbx_mount_fds *fds) {
        struct mount_attr attr = { .attr_set = attr_flags(op->flags) };
        int tfd, r;

        if (fds->proc < 0)
                return do_fs(rootfd, op, "proc", NULL);
        tfd = open_mountpoint(rootfd, op, op->mode);
        if (tfd <= 0)
                return tfd;
        r = mount_setattr(fds->proc, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0 ||
            move_mount(fds->proc, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0 ? -errno : 0;
        close(tfd);
        close_fd(&fds->proc);
        return r;
}

static int open_host_dir(const char *path) {
        return sys_openat2(AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
}

/* Overlay options name the layers as /proc/self/fd/N of fds opened here, so
 * no user-controlled path text (',' ':' '\\') ever reaches the option string. */
static void close_fd(int *fd) {
        if (*fd >= 0)
                close(*fd);
        *fd = -EBADF;
}

/* issue 16, a persistent sandbox from a template: the lower is attached at
 * the mountpoint already (SBX_MNT_LOWER_IN_ROOT); op->src_fd is the
 * parent's clone of the run dir. It is staged on the mountpoint, above the
 * lower (a layer must be in our mount table: overlayfs refuses a layer on
 * a tree of the host's anonymous namespace, EPERM), the overlay made
 * detached from the staged upper/work, the staging detached, and only then
 * the overlay attached: the run dir is never in the table the workload
 * gets. */
static int do_overlay_staged(int rootfd, const sbx_mount_op *op, sbx_mount_fds *fds) {
        int lower = -EBADF, upper = -EBADF, work = -EBADF, fs = -EBADF, mnt = -EBADF, tfd = -EBADF, r = 0;
        char l[32], u[32], w[32], stage[32];

        lower = open_in_root(rootfd, op->dst, O_PATH | O_DIRECTORY);
        if (lower < 0 || move_mount(op->src_fd, "", lower, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                r = -errno;
        if (r == 0 && ((upper = openat(op->src_fd, "upper", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
                       (work = openat(op->src_fd, "work", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0))
                r = -errno;
        if (r == 0) {
                fd_path(l, lower);
                fd_path(u, upper);
                fd_path(w, work);
                fs = fsopen("overlay", FSOPEN_CLOEXEC);
                if (fs < 0 || fsconfig(fs, FSCONFIG_SET_STRING, "lowerdir", l, 0) < 0 ||
                    fsconfig(fs, FSCONFIG_SET_STRING, "upperdir", u, 0) < 0 ||
                    fsconfig(fs, FSCONFIG_SET_STRING, "workdir", w, 0) < 0 ||
                    fsconfig(fs, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0 ||
                    fsconfig(fs, FSCONFIG_SET_FLAG, "volatile", NULL, 0) < 0 ||
                    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ||
                    (mnt = fsmount(fs, FSMOUNT_CLOEXEC, attr_flags(op->flags))) < 0)
                        r = -errno;
        }
        close_fd(&upper);
        close_fd(&work);
        close_fd(&fs);
        /* the staging goes whatever happened above (it was moved in when
         * lower's mountpoint took it) */
        fd_path(stage, op->src_fd);
        if (lower >= 0 && umount2(stage, MNT_DETACH) < 0 && r == 0)
                r = -errno;
        if (r == 0 && ((tfd = open_in_root(rootfd, op->dst, O_PATH | O_DIRECTORY)) < 0 ||
                       move_mount(mnt, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0))
                r = -errno;
        close_fd(&tfd);
        close_fd(&mnt);
        close_fd(&lower);
        close_fd(&fds->upper);          /* opened by path without a template: not used */
        close_fd(&fds->work);
        return r;
}

/* Overlay options name the layers as /proc/self/fd/N of fds opened here, so
 * no user-controlled path text (',' ':' '\\') ever reaches the option string. */
static int do_overlay(int rootfd, const sbx_mount_op *op, sbx_mount_fds *fds) {
        char data[160];
        int r;

        if (op->src_fd >= 0)
                return do_overlay_staged(rootfd, op, fds);

        if (!op->work && !(op->flags & SBX_MNT_SCRATCH)) {
                /* read-only, two lower layers: ours (etc_top) over the image's */
                if (fds->etc_top < 0 || fds->etc_bottom < 0)
                        return -EBADF;
                snprintf(data, sizeof(data), "lowerdir=/proc/self/fd/%d:/proc/self/fd/%d,userxattr",
                         fds->etc_top, fds->etc_bottom);
                r = do_fs(rootfd, op, "overlay", data);
                close_fd(&fds->etc_top);
                close_fd(&fds->etc_bottom);
                return r;
        }
        if (op->flags & SBX_MNT_LOWER_IN_ROOT) {
                fds->lower = open_in_root(rootfd, op->dst, O_PATH | O_DIRECTORY);
                if (fds->lower < 0)
                        return -errno;
        }
        if (fds->lower < 0 || fds->upper < 0 || fds->work < 0)
                return -EBADF;
        snprintf(data, sizeof(data),
                 "lowerdir=/proc/self/fd/%d,upperdir=/proc/self/fd/%d,workdir=/proc/self/fd/%d,userxattr,volatile",
                 fds->lower, fds->upper, fds->work);
        r = do_fs(rootfd, op, "overlay", data);
        close_fd(&fds->lower);
        close_fd(&fds->upper);
        close_fd(&fds->work);
        return r;
}

/* A clone of the mount at SRC (RECURSIVE: with the mounts below it), ATTR set on it before it is
 * visible, moved onto TFD. */
static int clone_onto(int src, bool recursive, struct mount_attr *attr, int tfd) {
        unsigned rec = recursive ? AT_RECURSIVE : 0;
        int tree, r = 0;

        tree = open_tree(src, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | rec);
        if (tree < 0 || mount_setattr(tree, "", AT_EMPTY_PATH | rec, attr, sizeof(*attr)) < 0 ||
            move_mount(tree, "", tfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                r = -errno;
        if (tree >= 0)
                close(tree);
        return r;
}

/* A masked or read-only path that is a symlink in the root (an image's) is
 * followed, beneath the root, as runc follows it: what it leads to is
 * masked or made read-only, not the link itself (which left the file it
 * names readable and writable). */
static int do_mask(int rootfd, const sbx_mount_op *op) {
        struct stat st;
        char target[32];
        int tfd, r;

        tfd = open_in_root(rootfd, op->dst, O_PATH);
        if (tfd < 0)
                return errno == ENOENT ? 0 : -errno;
        if (fstat(tfd, &st) < 0)
                r = -errno;
        else if (S_ISDIR(st.st_mode)) {
                fd_path(target, tfd);
                r = mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                          "size=0,nr_inodes=1,mode=0555") < 0 ? -errno : 0;
        } else {
                struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC };
                /* the root's /dev/null may be the image's (an OCI config
                 * without a /dev mount) or a shared volume's: a symlink to
                 * the masked file itself (/proc/timer_list) or any other
                 * would unmask it (runc CVE-2025-31133). Only the null
                 * device, not followed, is a mask. */
                int nfd = open_in_root(rootfd, "dev/null", O_PATH | O_NOFOLLOW);

                if (nfd < 0)
                        r = -errno;
                else if (fstat(nfd, &st) < 0)
                        r = -errno;
                else if (!S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3))
                        r = -ENODEV;
                else
                        r = clone_onto(nfd, false, &attr, tfd);
                if (nfd >= 0)
                        close(nfd);
        }
        close(tfd);
        return r;
}

static int do_readonly(int rootfd, const sbx_mount_op *op) {
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
        struct statx stx;
        int tfd, r;

        tfd = open_in_root(rootfd, op->dst, O_PATH);
        if (tfd < 0)
                return errno == ENOENT ? 0 : -errno;
        /* a mount of its own (an OCI container's cgroup tmpfs with its
         * binds): made read-only in place, not stacked on by a copy */
        if (statx(tfd, "", AT_EMPTY_PATH, 0, &stx) == 0 && (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
            (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
                r = mount_setattr(tfd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) < 0 ? -errno : 0;
        else
                r = clone_onto(tfd, true, &attr, tfd);
        close(tfd);
        return r;
}

static int do_symlink(int rootfd, const sbx_mount_op *op) {
        const char *leaf;
        int r, dfd = open_parent_in_root(rootfd, op->dst, &leaf);

        if (dfd < 0)
                return dfd;
        r = symlinkat(op->data, dfd, leaf) < 0 && errno != EEXIST ? -errno : 0;
        close(dfd);
        return r;
}

static int run_op(int rootfd, const sbx_mount_op *op, sbx_mount_fds *fds) {

        switch (op->kind) {
        case SBX_MOUNT_TMPFS:
                return do_fs(rootfd, op, "tmpfs", op->data);
        case SBX_MOUNT_BIND:
                return do_bind(rootfd, op);
        case SBX_MOUNT_DETACHED:
                /* Made by the parent in an anonymous mount namespace: it can
                 * only be moved (not cloned) into ours, once. */
                return attach_tree(rootfd, op->src_fd, op->dst, op->flags, op->flags & SBX_MNT_FILE);
        case SBX_MOUNT_OVERLAY:
                return do_overlay(rootfd, op, fds);
        case SBX_MOUNT_PROC:
                return do_proc(rootfd, op, fds);
        case SBX_MOUNT_DEVPTS:
                return do_fs(rootfd, op, "devpts", op->data);
        case SBX_MOUNT_MQUEUE:
                return do_fs(rootfd, op, "mqueue", NULL);
        case SBX_MOUNT_SYMLINK:
                return do_symlink(rootfd, op);
        case SBX_MOUNT_DIR:
                return mkdir_in_root(rootfd, op->dst, op->mode);
        case SBX_MOUNT_FILE:
                return create_file_in_root(rootfd, op->dst, op->data, op->mode);
        case SBX_MOUNT_MASK:
                return do_mask(rootfd, op);
        case SBX_MOUNT_READONLY:
                return do_readonly(rootfd, op);
        case SBX_MOUNT_FS:
                return do_container_fs(rootfd, op);
        case SBX_MOUNT_DEVICE:
                return do_device(rootfd, op);
        case _SBX_MOUNT_KIND_MAX:
        case _SBX_MOUNT_KIND_INVALID:
        default:
                return -EINVAL;
        }
}

static const char *const kind_names[_SBX_MOUNT_KIND_MAX] = {
        [SBX_MOUNT_TMPFS] = "mount tmpfs", [SBX_MOUNT_BIND] = "bind",
        [SBX_MOUNT_DETACHED] = "attach idmapped mount", [SBX_MOUNT_OVERLAY] = "mount overlay",
        [SBX_MOUNT_PROC] = "mount proc", [SBX_MOUNT_DEVPTS] = "mount devpts",
        [SBX_MOUNT_MQUEUE] = "mount mqueue", [SBX_MOUNT_SYMLINK] = "symlink",
        [SBX_MOUNT_DIR] = "mkdir", [SBX_MOUNT_FILE] = "create file",
        [SBX_MOUNT_MASK] = "mask", [SBX_MOUNT_READONLY] = "make read-only",
        [SBX_MOUNT_FS] = "mount", [SBX_MOUNT_DEVICE] = "create device",
};

int sbx_mount_open_child(const sbx_plan *p, sbx_mount_fds *ret, sbx_error *reterr) {
        sbx_mount_fds f = { .root_dir = -EBADF, .lower = -EBADF, .upper = -EBADF, .work = -EBADF,
                            .root_lower = -EBADF, .root_upper = -EBADF, .root_work = -EBADF,
                            .etc_top = -EBADF, .etc_bottom = -EBADF, .proc = -EBADF };

        /* issue 16: from a template, nothing of the host's tree is needed
         * (and none is in our mount table) */
        if (p->tmpl.used) {
                *ret = f;
                return 0;
        }
        f.root_dir = open_host_dir(p->root_dir);
        if (f.root_dir < 0)
                return sbx_error_set(reterr, -errno, "mount: open new root '%s'", p->root_dir);
        if (p->root_overlay.upper) {
                const char *bad = NULL;
                if (p->root_overlay.lower_tree < 0 && (f.root_lower = open_host_dir(p->root_overlay.lower)) < 0)
                        bad = p->root_overlay.lower;
                else if ((f.root_upper = open_host_dir(p->root_overlay.upper)) < 0)
                        bad = p->root_overlay.upper;
                else if ((f.root_work = open_host_dir(p->root_overlay.work)) < 0)
                        bad = p->root_overlay.work;
                if (bad) {
                        int r = -errno;
                        close_fd(&f.root_dir);
                        close_fd(&f.root_lower);
                        close_fd(&f.root_upper);
                        return sbx_error_set(reterr, r, "mount: root overlay layer '%s'", bad);
                }
        }
        for (size_t i = 0; i < p->n_mounts; i++) {
                const sbx_mount_op *op = &p->mounts[i];
                const char *bad = NULL;

                if (op->kind != SBX_MOUNT_OVERLAY)
                        continue;
                if (!op->work && !(op->flags & SBX_MNT_SCRATCH)) {
                        if (f.etc_top >= 0)
                                bad = "a second read-only overlay";
                        else if ((f.etc_top = open_host_dir(op->upper)) < 0)
                                bad = op->upper;
                        else if ((f.etc_bottom = open_host_dir(op->src)) < 0)
                                bad = op->src;
                } else if (f.upper >= 0)
                        bad = "a second overlay";
                else if (!(op->flags & SBX_MNT_LOWER_IN_ROOT) && op->src && (f.lower = open_host_dir(op->src)) < 0)
                        bad = op->src;
                else if ((f.upper = open_host_dir(op->upper)) < 0)
                        bad = op->upper;
                else if (op->work && (f.work = open_host_dir(op->work)) < 0)
                        bad = op->work;
                if (bad) {
                        int r = !strncmp(bad, "a second", 8) ? -EINVAL : -errno;
                        close_fd(&f.root_dir);
                        close_fd(&f.etc_top);
                        close_fd(&f.etc_bottom);
                        close_fd(&f.root_lower);
                        close_fd(&f.root_upper);
                        close_fd(&f.root_work);
                        close_fd(&f.lower);
                        close_fd(&f.upper);
                        close_fd(&f.work);
                        return sbx_error_set(reterr, r, "mount: overlay layer '%s' for '/%s'", bad, op->dst);
                }
        }
        *ret = f;
        return 0;
}

/* SBX_MNT_SCRATCH: a tmpfs attached on fds->upper (the run dir's "upper",
 * in our mount namespace only; from a template on the overlay's mountpoint,
 * beneath the overlay) holding the overlay's upper and work dirs
 * (and an empty lower for the default workspace), which replace fds->upper,
 * work (and lower). Nothing reaches the state dir's file system, and it all
 * goes with the mount namespace. The upper (the workspace's root) and the
 * empty lower belong to the sandbox user, as the state-dir layers do. */
/* The default workspace's upper layer (--workspace-access none, and the
 * overlay of sbx run without --keep-layers) had no size=: the kernel's half
 * of RAM, so one sandbox writing to /workspace took gigabytes of the host's
 * memory past /tmp's bound. 1 GiB, two inodes a page (sbx_tmpfs_inodes). */
#define SCRATCH_SIZE "1073741824"
#define SCRATCH_INODES "524288"

static int mount_scratch(const sbx_plan *p, int rootfd, const sbx_mount_op *op, sbx_mount_fds *fds,
                         sbx_error *reterr) {
        _cleanup_close_ int fs = -EBADF, mnt = -EBADF, at = -EBADF;
        const char *step = "fsopen";

        /* issue 16: from a template the run dir is not in our mount table:
         * the tmpfs goes on the overlay's own mountpoint, beneath the
         * overlay, which covers it (a detached one dissolved on its last
         * close, and that waited out an RCU grace period on every run) */
        if (fds->upper < 0 && !p->tmpl.used)
                return sbx_error_set(reterr, -EBADF, "mount: workspace scratch: no mountpoint");
        if (p->tmpl.used && (op->flags & SBX_MNT_LOWER_IN_ROOT))     /* it would cover its lower */
                return sbx_error_set(reterr, -EINVAL, "mount: workspace scratch over a lower at '/%s'", op->dst);
        if (p->tmpl.used && (at = open_in_root(rootfd, op->dst, O_PATH | O_DIRECTORY)) < 0)
                return sbx_error_set(reterr, -errno, "mount: workspace scratch: open '/%s'", op->dst);
        fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
        if (fs < 0 || (step = "create", fsconfig(fs, FSCONFIG_SET_STRING, "mode", "0700", 0) < 0) ||
            fsconfig(fs, FSCONFIG_SET_STRING, "size", SCRATCH_SIZE, 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_STRING, "nr_inodes", SCRATCH_INODES, 0) < 0 ||
            fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ||
            (step = "fsmount", mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)) < 0 ||
            (step = "attach", move_mount(mnt, "", p->tmpl.used ? at : fds->upper, "",
                                         MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) ||
            (step = "mkdir", mkdirat(mnt, "upper", 0755)) < 0 || mkdirat(mnt, "work", 0700) < 0 ||
            fchownat(mnt, "upper", p->uid, p->gid, AT_SYMLINK_NOFOLLOW) < 0 ||
            (!op->src && (mkdirat(mnt, "lower", 0755) < 0 ||
                          fchownat(mnt, "lower", p->uid, p->gid, AT_SYMLINK_NOFOLLOW) < 0)))
                return sbx_error_set(reterr, -errno, "mount: workspace scratch tmpfs: %s", step);
        close_fd(&fds->upper);
        fds->upper = openat(mnt, "upper", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        fds->work = openat(mnt, "work", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (!op->src && !(op->flags & SBX_MNT_LOWER_IN_ROOT))
                fds->lower = openat(mnt, "lower", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fds->upper < 0 || fds->work < 0 || (!op->src && fds->lower < 0))
                return sbx_error_set(reterr, -errno, "mount: workspace scratch tmpfs: open layers");
        return 0;
}

/* A fresh tmpfs, attached on fds->root_dir; returns the fd of its root. */
static int mount_root_tmpfs(sbx_mount_fds *fds, sbx_error *reterr) {
        int fs, mnt;

        fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
        if (fs < 0)
                return sbx_error_set(reterr, -errno, "mount: fsopen tmpfs for the root");
        if (fsconfig(fs, FSCONFIG_SET_STRING, "mode", "0755", 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_STRING, "size", "1m", 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_STRING, "nr_inodes", "4096", 0) < 0 ||
            fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
                int r = -errno;
                close(fs);
                return sbx_error_set(reterr, r, "mount: create the root tmpfs");
        }
        mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
        close(fs);
        if (mnt < 0)
                return sbx_error_set(reterr, -errno, "mount: fsmount the root tmpfs");
        if (move_mount(mnt, "", fds->root_dir, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
                int r = -errno;
                close(mnt);
                return sbx_error_set(reterr, r, "mount: attach the root tmpfs");
        }
        close_fd(&fds->root_dir);
        return mnt;
}

/* --writable-root over a rootfs: the overlay of the image and our layers is
 * the new root, attached on fds->root_dir like the tmpfs otherwise. Layers
 * are named by fds opened before the id switch (no path text in options). */
/* Under an exec allowlist (exec-decide.c noexec_root): each of DIRS (of the
 * image, relative), found beneath ROOTFD's mount without following a
 * symlink (the image's own, or one to the host) or crossing into another
 * mount (that one keeps its own flags), is bound onto itself read-only with
 * exec; then the root mount (overlay, or a container's rootfs) itself is
 * made noexec. Also for a stale sandbox's exec (exec.c). */
int sbx_mount_exec_binds(int rootfd, const char *const *dirs, size_t n, sbx_error *reterr) {
        struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
        struct mount_attr noexec = { .attr_set = MOUNT_ATTR_NOEXEC };

        for (size_t i = 0; i < n; i++) {
                _cleanup_close_ int fd = -EBADF, tree = -EBADF;

                fd = sys_openat2(rootfd, dirs[i], O_PATH | O_CLOEXEC,
                                 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV);
                if (fd < 0) {
                        if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
                                continue;       /* not in this image, a symlink (lib -> usr/lib), another mount */
                        return sbx_error_set(reterr, -errno, "mount: open '/%s' of the image", dirs[i]);
                }
                tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
                if (tree < 0 || mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro, sizeof(ro)) < 0 ||
                    move_mount(tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                        return sbx_error_set(reterr, -errno, "mount: bind '/%s' of the image read-only", dirs[i]);
        }
        if (mount_setattr(rootfd, "", AT_EMPTY_PATH, &noexec, sizeof(noexec)) < 0)
                return sbx_error_set(reterr, -errno, "mount: make the writable root noexec");
        return 0;
}

static int root_exec_binds(const sbx_plan *p, int rootfd, sbx_error *reterr) {
        return sbx_mount_exec_binds(rootfd, p->root_overlay.exec_dirs, p->root_overlay.n_exec_dirs, reterr);
}

static int mount_root_overlay(const sbx_plan *p, sbx_mount_fds *fds, sbx_error *reterr) {
        int lower = p->root_overlay.lower_tree >= 0 ? p->root_overlay.lower_tree : fds->root_lower;
        char l[32], u[32], w[32];
        int fs, mnt, r = 0;

        /* overlayfs takes no detached mount as a layer: attach the idmapped
         * image where the root goes; the overlay is stacked on top of it. */
        if (p->root_overlay.lower_tree >= 0 &&
            move_mount(lower, "", fds->root_dir, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                return sbx_error_set(reterr, -errno, "mount: attach the idmapped image '%s'", p->root_overlay.lower);
        fd_path(l, lower);
        fd_path(u, fds->root_upper);
        fd_path(w, fds->root_work);
        fs = fsopen("overlay", FSOPEN_CLOEXEC);
        if (fs < 0)
                return sbx_error_set(reterr, -errno, "mount: fsopen overlay for the root");
        if (fsconfig(fs, FSCONFIG_SET_STRING, "lowerdir", l, 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_STRING, "upperdir", u, 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_STRING, "workdir", w, 0) < 0 ||
            fsconfig(fs, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0 ||
            (p->root_overlay.is_volatile && fsconfig(fs, FSCONFIG_SET_FLAG, "volatile", NULL, 0) < 0) ||
            fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
                r = -errno;
        mnt = r < 0 ? -1 : fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
        if (r == 0 && mnt < 0)
                r = -errno;
        close(fs);
        close_fd(&fds->root_lower);
        close_fd(&fds->root_upper);
        close_fd(&fds->root_work);
        if (r < 0)
                return sbx_error_set(reterr, r, "mount: overlay of '%s' (upper '%s') as the root",
                                     p->root_overlay.lower, p->root_overlay.upper);
        if (move_mount(mnt, "", fds->root_dir, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
                r = -errno;
                close(mnt);
                return sbx_error_set(reterr, r, "mount: attach the root overlay");
        }
        close_fd(&fds->root_dir);
        if (p->root_overlay.noexec && (r = root_exec_binds(p, mnt, reterr)) < 0) {
                close(mnt);
                return r;
        }
        return mnt;
}

/* A container: its rootfs, bound onto itself (recursively), is the root;
 * nodev: a device node of the image is no device (runc's device cgroup
 * "deny all" for them: the container cannot mknod, and the nodes the
 * runtime makes live on the /dev mount of the spec). */
static int root_exec_binds(const sbx_plan *p, int rootfd, sbx_error *reterr);

static int mount_root_bind(const sbx_plan *p, sbx_mount_fds *fds, const char *path, sbx_error *reterr) {
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_NODEV };
        int tree = open_tree(fds->root_dir, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);

        if (tree < 0)
                return sbx_error_set(reterr, -errno, "mount: bind the rootfs '%s'", path);
        if (mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
                int r = -errno;
                close(tree);
                return sbx_error_set(reterr, r, "mount: the rootfs '%s' nodev", path);
        }
        if (move_mount(tree, "", fds->root_dir, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
                int r = -errno;
                close(tree);
                return sbx_error_set(reterr, r, "mount: attach the rootfs '%s'", path);
        }
        close_fd(&fds->root_dir);
        if (p->root_overlay.noexec) {
                int r = root_exec_binds(p, tree, reterr);
                if (r < 0) {
                        close(tree);
                        return r;
                }
        }
        return tree;
}

/* mountinfo's octal escapes (\040 and the like) undone, in place. */
static void unescape_mountinfo(char *s) {
        char *o = s;

        for (; *s; s++)
                if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
                    s[3] <= '7') {
                        *o++ = (char) ((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
                        s += 3;
                } else
                        *o++ = *s;
        *o = '\0';
}

/* true when path is at or beneath dir */
static bool path_beneath(const char *path, const char *dir) {
        size_t n = strlen(dir);

        return !strncmp(path, dir, n) && (path[n] == '/' || !path[n] || (n == 1 && dir[0] == '/'));
}

/* --no-pivot (runc's msMoveRoot), for a root pivot_root cannot leave (a
 * ramdisk): every mount outside the new root that is not one of its
 * ancestors is detached, deepest first (covered with an empty read-only
 * tmpfs where it cannot be: a locked mount of a rootless namespace), so
 * nothing but the ancestors' file systems stays beneath; then the rootfs
 * is moved onto "/" and we chroot into it. Weaker than pivot_root, as with
 * runc: the old root stays in the mount namespace, covered by the rootfs
 * ("..", even from a chroot escape, lands on the rootfs mount again: tested
 * in oci-conformance). The child has no allocator: a fixed buffer. */
static int move_root(int rootfd, const char *root, sbx_error *reterr) {
        static char info[1 << 20];
        size_t len = 0;
        ssize_t n;
        int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

        if (fd < 0)
                return sbx_error_set(reterr, -errno, "mount: --no-pivot: open /proc/self/mountinfo");
        while ((n = read(fd, info + len, sizeof(info) - 1 - len)) > 0)
                len += (size_t) n;
        close(fd);
        if (n < 0 || len >= sizeof(info) - 1)
                return sbx_error_set(reterr, n < 0 ? -errno : -E2BIG, "mount: --no-pivot: read /proc/self/mountinfo");
        info[len] = '\0';
        /* lines from the last: a mount is listed after the one it is on */
        for (char *end = info + len; end > info;) {
                char *line, *f[5], *sp;
                size_t k = 0;

                if (end[-1] == '\n')
                        *--end = '\0';
                for (line = end; line > info && line[-1] != '\n'; line--)
                        ;
                end = line;
                for (sp = line; k < 5 && sp; k++) {
                        f[k] = sp;
                        if ((sp = strchr(sp, ' ')))
                                *sp++ = '\0';
                }
                if (k < 5)
                        continue;
                unescape_mountinfo(f[4]);
                if (!strcmp(f[4], "/") || path_beneath(f[4], root) || path_beneath(root, f[4]))
                        continue;
                if (umount2(f[4], MNT_DETACH | UMOUNT_NOFOLLOW) == 0 || errno == ENOENT)
                        continue;
                if (errno != EINVAL && errno != EPERM)
                        return sbx_error_set(reterr, -errno, "mount: --no-pivot: detach '%s'", f[4]);
                if (mount("tmpfs", f[4], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k") < 0 &&
                    errno != ENOENT)
                        return sbx_error_set(reterr, -errno, "mount: --no-pivot: cover '%s'", f[4]);
        }
        if (fchdir(rootfd) < 0 || mount(".", "/", NULL, MS_MOVE, NULL) < 0)
                return sbx_error_set(reterr, -errno, "mount: --no-pivot: move '%s' onto /", root);
        if (chroot(".") < 0)
                return sbx_error_set(reterr, -errno, "mount: --no-pivot: chroot into '%s'", root);
        return 0;
}

/* Run the plan's ops at ROOTFD: all of them, or (a copy of a template's
 * table) all but the template's, and /proc first. Closes ROOTFD on failure. */
static int run_ops(const sbx_plan *p, int rootfd, bool from_template, sbx_mount_fds *fds, sbx_error *reterr) {
        for (size_t k = 0; k < (from_template ? 2 : 1) * p->n_mounts; k++) {
                /* from a template, a pass over /proc first: the ops name
                 * their targets as /proc/self/fd/N, and until ours is there
                 * /proc is the holder's, with no "self" for us */
                size_t i = k % p->n_mounts;
                const sbx_mount_op *op = &p->mounts[i];
                bool first_pass = from_template && k < p->n_mounts;
                int r;

                if (from_template && ((op->flags & SBX_MNT_TEMPLATE) || first_pass != (op->kind == SBX_MOUNT_PROC)))
                        continue;
                if (op->kind == SBX_MOUNT_OVERLAY && (op->flags & SBX_MNT_SCRATCH)) {
                        r = mount_scratch(p, rootfd, op, fds, reterr);
                        if (r < 0) {
                                close(rootfd);
                                return r;
                        }
                }
                r = run_op(rootfd, op, fds);
                if (r < 0) {
                        close(rootfd);
                        return sbx_error_set(reterr, r, "mount: %s '/%s'%s%s%s%s", kind_names[op->kind], op->dst,
                                             op->src ? " from '" : "", op->src ?: "", op->src ? "'" : "",
                                             op->kind == SBX_MOUNT_MASK && r == -ENODEV
                                                     ? " (the root's /dev/null is not the null device 1:3)"
                                             : (op->flags & SBX_MNT_NOT_ON_PROC) && r == -EPERM
                                                     ? " (its place is on the container's /proc: "
                                                       "runc's checkProcMount)"
                                                     : "");
                }
        }
        return 0;
}

/* issue 16: our mount table is a copy of a template holder's (read-only
 * root tmpfs, /usr and the rest bound, /etc, /dev nodes, the holder's own
 * procfs on /proc), every mount locked (copied into our less privileged
 * user namespace). Only the per-run ops remain: /proc over the holder's,
 * its masks, /dev/pts, /dev/shm, the tmpfs, /workspace, binds. No
 * pivot_root and no old root to detach: the host's table was never ours. */
static int setup_from_template(const sbx_plan *p, sbx_mount_fds *fds, sbx_error *reterr) {
        int rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), r;

        if (rootfd < 0)
                return sbx_error_set(reterr, -errno, "mount: open the template's root");
        r = run_ops(p, rootfd, true, fds, reterr);
        if (r < 0)
                return r;
        close(rootfd);
        close_fd(&fds->proc);
        return chdir("/") < 0 ? sbx_error_set(reterr, -errno, "mount: chdir /") : 0;
}

int sbx_mount_setup_child(const sbx_plan *p, sbx_mount_fds *fds, sbx_error *reterr) {
        int rootfd, r;

        if (p->tmpl.used)
                return setup_from_template(p, fds, reterr);

        /* 1. Nothing propagates either way from here on (a container's
         *    rootfsPropagation is applied once its tree is built). */
        if (mount(NULL, "/", NULL, (p->root_propagation & MS_SLAVE ? MS_SLAVE : MS_PRIVATE) | MS_REC, NULL) < 0)
                return sbx_error_set(reterr, -errno, "mount: make / private");
        /* 2. A fresh tmpfs is the new root; its mount fd is our handle on it. */
        rootfd = p->root_bind ? mount_root_bind(p, fds, p->root_bind, reterr)
               : p->root_overlay.upper ? mount_root_overlay(p, fds, reterr) : mount_root_tmpfs(fds, reterr);
        if (rootfd < 0)
                return rootfd;
        /* 3-5. The plan: rootfs, /etc, /dev, /proc, tmpfs, /workspace, binds. */
        r = run_ops(p, rootfd, false, fds, reterr);
        if (r < 0)
                return r;
        close_fd(&fds->proc);   /* not used: a plan without /proc */
        /* 6. pivot_root(".", "."): the old root ends up stacked on "/" and is
         *    detached at once; it was private since step 1. (--no-pivot:
         *    move_root.) */
        if (p->no_pivot) {
                r = move_root(rootfd, p->root_dir, reterr);
                close(rootfd);
                if (r < 0)
                        return r;
        } else {
                if (fchdir(rootfd) < 0 || sys_pivot_root(".", ".") < 0) {
                        r = -errno;
                        close(rootfd);
                        return sbx_error_set(reterr, r, "mount: pivot_root into '%s'", p->root_dir);
                }
                close(rootfd);
                if (umount2(".", MNT_DETACH) < 0)
                        return sbx_error_set(reterr, -errno, "mount: detach the old root");
        }
        if (chdir("/") < 0)
                return sbx_error_set(reterr, -errno, "mount: chdir /");
        if (p->root_propagation && mount(NULL, "/", NULL, p->root_propagation, NULL) < 0)
                return sbx_error_set(reterr, -errno, "mount: rootfsPropagation of /");
        /* 6b. docker's --workdir, when missing: made as runc makes the cwd,
         *     inside the new root, before it is read-only. A place that cannot
         *     hold it (a read-only image dir) is left to the chdir before exec,
         *     whose error names it. */
        if (p->make_dir && p->make_dir[0] == '/' && p->make_dir[1]) {
                int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (fd >= 0) {
                        (void) mkdir_in_root(fd, p->make_dir + 1, 0755);
                        close(fd);
                }
        }
        /* 7. Read-only root last: every mountpoint exists now. */
        if (p->read_only_root) {
                struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
                if (mount_setattr(AT_FDCWD, "/", 0, &attr, sizeof(attr)) < 0)
                        return sbx_error_set(reterr, -errno, "mount: make / read-only");
        }
        return 0;
}

/* issue 16: the template holder (template.c), in its own user, mount and pid
 * namespaces with its ids switched, ROOT_DIR its mountpoint opened before:
 * a fresh root tmpfs with the plan's SBX_MNT_TEMPLATE ops, a mountpoint for
 * every per-run op (nothing can be created once it is read-only), a procfs
 * of the holder's own pid namespace on /proc (a sandbox may mount a procfs
 * only where one is fully visible: this one shows the holder alone), the
 * root tmpfs read-only, then pivot_root and the old root detached: the
 * holder's table is that tree alone. Leaves cwd at the new /. */
int sbx_mount_template_build(const sbx_plan *p, int root_dir, sbx_error *reterr) {
        sbx_mount_fds fds = { .root_dir = root_dir, .lower = -EBADF, .upper = -EBADF, .work = -EBADF,
                              .root_lower = -EBADF, .root_upper = -EBADF, .root_work = -EBADF,
                              .etc_top = -EBADF, .etc_bottom = -EBADF, .proc = -EBADF };
        struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
        char target[32];
        int rootfd, tfd, r;

        if (mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0)
                return sbx_error_set(reterr, -errno, "template: make / private");
        rootfd = mount_root_tmpfs(&fds, reterr);
        if (rootfd < 0)
                return rootfd;
        for (size_t i = 0; i < p->n_mounts; i++) {
                const sbx_mount_op *op = &p->mounts[i];

                if (op->flags & SBX_MNT_TEMPLATE)
                        r = run_op(rootfd, op, &fds);
                else if (!strncmp(op->dst, "proc/", 5))
                        r = 0;          /* masks: on each run's own procfs */
                else if (op->kind == SBX_MOUNT_DETACHED || op->kind == SBX_MOUNT_BIND)
                        r = (op->flags & SBX_MNT_FILE) ? create_file_in_root(rootfd, op->dst, NULL, 0644)
                                                       : mkdir_in_root(rootfd, op->dst, 0755);
                else
                        r = mkdir_in_root(rootfd, op->dst, op->mode);
                if (r < 0 && !(op->flags & SBX_MNT_OPTIONAL)) {
                        close(rootfd);
                        return sbx_error_set(reterr, r, "template: %s '/%s'", kind_names[op->kind], op->dst);
                }
        }
        /* the holder's procfs, mounted while the host's is still visible */
        tfd = open_in_root(rootfd, "proc", O_PATH | O_DIRECTORY);
        if (tfd < 0) {
                r = -errno;
                close(rootfd);
                return sbx_error_set(reterr, r, "template: open /proc");
        }
        fd_path(target, tfd);
        r = mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0 ? -errno : 0;
        close(tfd);
        if (r == 0 && mount_setattr(rootfd, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
                r = -errno;
        if (r == 0 && (fchdir(rootfd) < 0 || sys_pivot_root(".", ".") < 0))
                r = -errno;
        close(rootfd);
        if (r == 0 && umount2(".", MNT_DETACH) < 0)
                r = -errno;
        if (r == 0 && chdir("/") < 0)
                r = -errno;
        return r < 0 ? sbx_error_set(reterr, r, "template: /proc, read-only root, pivot_root") : 0;
}

/* SPDX-License-Identifier: MIT */
/* Per-run state directory under $XDG_RUNTIME_DIR/sbx, /run/sbx (root),
 * /dev/shm/sbx-$UID or /tmp/sbx-$UID (base_dir() says which). One run, run-XXXXXX/:
 *   root/   mountpoint of the sandbox's tmpfs root (in the child's mount ns only)
 *   upper/  the /workspace overlay's upper layer (persistent sandbox), or where
 *           the child mounts its scratch tmpfs holding upper/work (one-shot run)
 *   work/   the overlay's work dir (persistent sandbox only)
 *   lower/  the empty default workspace (persistent sandbox, or ro/rw mode)
 *   etc/    generated files bound over a --rootfs's /etc (--rootfs only)
 * The directory is 0711 so the sandbox's mapped ids can reach the children
 * they own, and it never holds secrets. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <sys/file.h>
#include <sys/vfs.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"

static bool is_tmpfs(const char *path) {
        struct statfs sfs;

        return statfs(path, &sfs) == 0 && (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC);
}

/* Per-run state is volatile by nature, so it belongs on a tmpfs: the
 * overlay's upper/work dirs are created, used and removed within one run,
 * and on a disk file system the metadata traffic costs more than the rest
 * of the launch. Order: --state-dir; $XDG_RUNTIME_DIR/sbx; as root /run/sbx
 * when /run is a tmpfs (standard); /dev/shm/sbx-$UID when /dev/shm is one;
 * else /run/sbx (root) or /tmp/sbx-$UID. The default is chosen once a process: a run
 * asks three times (the audit log, the state dir, the launch), and must get one answer. */
/* The default without $XDG_RUNTIME_DIR: the same on every call of this uid
 * on this host (a session with XDG_RUNTIME_DIR and a cron job without it
 * use both): parent (returned) + "/" + leaf. */
static const char *default_without_xdg(char *leaf, size_t llen) {
        unsigned uid = (unsigned) geteuid();

        if (uid == 0 && is_tmpfs("/run"))
                return snprintf(leaf, llen, "sbx"), "/run";
        if (is_tmpfs("/dev/shm") && access("/dev/shm", W_OK | X_OK) == 0)
                return snprintf(leaf, llen, "sbx-%u", uid), "/dev/shm";
        if (uid == 0)
                return snprintf(leaf, llen, "sbx"), "/run";
        return snprintf(leaf, llen, "sbx-%u", uid), "/tmp";
}

int sbx_statedir_base(const sbx_run_config *c, char *buf, size_t len) {
        static char dflt[PATH_MAX];

        if (c->state_dir) {
                snprintf(buf, len, "%s", c->state_dir);
                return 0;
        }
        if (!dflt[0]) {
                const char *xdg = getenv("XDG_RUNTIME_DIR");

                if (xdg && xdg[0] == '/' && access(xdg, W_OK | X_OK) == 0)
                        snprintf(dflt, sizeof(dflt), "%s/sbx", xdg);
                else {
                        char leaf[32];
                        const char *parent = default_without_xdg(leaf, sizeof(leaf));
                        snprintf(dflt, sizeof(dflt), "%s/%s", parent, leaf);
                }
        }
        snprintf(buf, len, "%s", dflt);
        return 0;
}

/* path is dir or lies below it (both canonical) */
static bool path_within(const char *path, const char *dir) {
        size_t n = strlen(dir);

        if (!strcmp(dir, "/"))
                return true;
        return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* parent/leaf, a default state dir of this uid that another sbx of ours
 * may use (it need not exist yet: parent canonical, leaf appended). */
static int outside_default(const char *path, const char *parent, const char *leaf, const char *opt,
                           sbx_error *reterr) {
        _cleanup_free_ char *canon = realpath(parent, NULL);
        char dir[PATH_MAX];

        if (!canon || (size_t) snprintf(dir, sizeof(dir), "%s/%s", strcmp(canon, "/") ? canon : "", leaf) >=
                              sizeof(dir))
                return 0;
        if (path_within(path, dir) || path_within(dir, path))
                return sbx_error_set(reterr, -EPERM,
                                     "%s '%s': shows sbx's default state dir '%s' (every sandbox's record and exec "
                                     "service of another sbx of this user)", opt, path, dir);
        return 0;
}

int sbx_statedir_outside(const char *path, const char *base, const char *opt, sbx_error *reterr) {
        _cleanup_free_ char *canon = realpath(base, NULL);
        const char *xdg = getenv("XDG_RUNTIME_DIR"), *parent;
        char leaf[32], run_user[48];
        int r;

        if (!canon)
                return sbx_error_set(reterr, -errno, "state dir '%s'", base);
        if (path_within(path, canon) || path_within(canon, path))
                return sbx_error_set(reterr, -EPERM,
                                     "%s '%s': shows the sandbox sbx's state dir '%s' (every sandbox's record and "
                                     "exec service)", opt, path, canon);
        /* Not only ours: rootless, a sandbox that sees another state dir of
         * its user (a session's $XDG_RUNTIME_DIR/sbx, or /dev/shm/sbx-UID of
         * an sbx run without it) connects to those sandboxes' exec services
         * (init cannot tell it from the host: both are outside its pid
         * namespace, with its uid) and reads their records. A session's
         * XDG_RUNTIME_DIR is /run/user/UID where none is set here. */
        if (xdg && xdg[0] == '/' && (r = outside_default(path, xdg, "sbx", opt, reterr)) < 0)
                return r;
        snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned) geteuid());
        if ((r = outside_default(path, run_user, "sbx", opt, reterr)) < 0)
                return r;
        parent = default_without_xdg(leaf, sizeof(leaf));
        return outside_default(path, parent, leaf, opt, reterr);
}

static void remove_all_but_lock(int state_fd);

/* Remove one run dir, its lock file last: a collector killed half-way leaves
 * a dir that still has its (unlocked) lock, which the next run collects. */
static void remove_run_dir(int bfd, const char *name) {
        int fd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

        if (fd >= 0) {
                remove_all_but_lock(fd);
                close(fd);
        }
        (void) sbx_rm_rf_at(bfd, name);
}

/* Remove run dirs whose sbx died without cleaning up (SIGKILL): a live run
 * holds an exclusive flock on its run dir's "lock" file for its whole life.
 * A dir without a lock file is either being created (its creator holds a
 * shared flock on the base dir's ".create" file from mkdtemp until its lock
 * exists) or was left by a run killed at that moment or while removing its
 * own dir: removed when we can take ".create" exclusively. */
static void collect_stale(int bfd, bool nobody_creating) {
        DIR *d;
        struct dirent *de;
        int dfd = fcntl(bfd, F_DUPFD_CLOEXEC, 3);

        if (dfd < 0 || !(d = fdopendir(dfd))) {
                if (dfd >= 0)
                        close(dfd);
                return;
        }
        while ((de = readdir(d))) {
                char lock[NAME_MAX + 8];
                struct stat st;
                int lfd;

                if (strncmp(de->d_name, "run-", 4))
                        continue;
                snprintf(lock, sizeof(lock), "%s/lock", de->d_name);
                lfd = openat(bfd, lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                if (lfd < 0) {
                        if (errno == ENOENT && fstatat(bfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                            (nobody_creating || st.st_mtime + 60 < time(NULL)) &&
                            sbx_cgroup_remove_stale(de->d_name) != -EBUSY)
                                remove_run_dir(bfd, de->d_name);
                        continue;
                }
                /* An unlocked lock is a dead run, or one whose creator has
                 * made the file but not yet flocked it: only the first when
                 * nobody holds ".create" (or the dir is old). */
                if (flock(lfd, LOCK_EX | LOCK_NB) == 0 &&
                    (nobody_creating || (fstat(lfd, &st) == 0 && st.st_mtime + 60 < time(NULL))) &&
                    /* its cgroup (named after the run) first; while the dead
                     * run's processes are still dying, the next run collects */
                    sbx_cgroup_remove_stale(de->d_name) != -EBUSY)
                        remove_run_dir(bfd, de->d_name);
                close(lfd);
        }
        closedir(d);
}

int sbx_statedir_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        char base[PATH_MAX];
        _cleanup_close_ int bfd = -EBADF, create_fd = -EBADF;
        struct stat st;

        sbx_statedir_base(c, base, sizeof(base));
        if (base[0] != '/' || strlen(base) > PATH_MAX - 64 || strpbrk(base, ",:"))
                return sbx_error_set(reterr, -EINVAL, "state dir '%s': must be an absolute path without ',' or ':'", base);
        if (mkdir(base, 0711) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "state dir: create '%s'", base);
        bfd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (bfd < 0)
                return sbx_error_set(reterr, -errno, "state dir: open '%s'", base);
        if (fstat(bfd, &st) < 0)
                return sbx_error_set(reterr, -errno, "state dir: stat '%s'", base);
        if (st.st_uid != geteuid() || (st.st_mode & 022))
                return sbx_error_set(reterr, -EPERM,
                                     "state dir '%s': must be owned by uid %u and not group/world-writable",
                                     base, (unsigned) geteuid());
        /* ".create": exclusive while collecting, shared from mkdtemp until
         * our lock exists (see collect_stale); released on any exit. */
        create_fd = openat(bfd, ".create", O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        collect_stale(bfd, create_fd >= 0 && flock(create_fd, LOCK_EX | LOCK_NB) == 0);
        if (create_fd >= 0 && flock(create_fd, LOCK_SH) < 0)
                return sbx_error_set(reterr, -errno, "state dir: lock '%s/.create'", base);
        snprintf(p->state_dir, sizeof(p->state_dir), "%s/run-XXXXXX", base);
        if (!mkdtemp(p->state_dir)) {
                int r = -errno;
                p->state_dir[0] = '\0';
                return sbx_error_set(reterr, r, "state dir: create a run directory in '%s'", base);
        }
        p->state_fd = open(p->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (p->state_fd < 0)
                return sbx_error_set(reterr, -errno, "state dir: open '%s'", p->state_dir);
        p->lock_fd = openat(p->state_fd, "lock", O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        /* Blocking: another run's collect_stale() may hold this fresh lock for
         * a moment (it probes with LOCK_NB, sees our shared ".create" and lets
         * go without removing anything). Found by tests/escape/load.sh. */
        if (p->lock_fd < 0 || flock(p->lock_fd, LOCK_EX) < 0)
                return sbx_error_set(reterr, -errno, "state dir: lock '%s/lock'", p->state_dir);
        if (fchmod(p->state_fd, 0711) < 0)
                return sbx_error_set(reterr, -errno, "state dir: chmod '%s'", p->state_dir);
        /* Only what this run uses: on a disk file system each costs journal
         * traffic twice (made here, removed at the end). "upper" is the
         * workspace's upper layer, or where the child mounts its scratch
         * tmpfs (see sbx_overlay_prepare). */
        bool default_ws = !c->workspace, none = c->workspace_access == SBX_WORKSPACE_NONE;
        const struct { const char *name; bool used; } subdirs[] = {
                { "root", true },
                { "upper", true },
                { "work", none && c->keep_layers },
                { "lower", default_ws && (c->keep_layers || !none) },
                { "etc", c->rootfs != NULL },
        };
        for (size_t i = 0; i < ELEMENTSOF(subdirs); i++)
                if (subdirs[i].used && mkdirat(p->state_fd, subdirs[i].name, 0755) < 0)
                        return sbx_error_set(reterr, -errno, "state dir: create '%s/%s'", p->state_dir,
                                             subdirs[i].name);
        p->root_dir = sbx_plan_strdupf(p, "%s/root", p->state_dir);
        if (!p->root_dir)
                return sbx_error_set(reterr, -ENOMEM, "state dir: out of memory");
        return 0;
}

/* As root the sandbox runs on subordinate ids: give the layers it writes to
 * the sandbox user (upper, lower) and the mounter, sandbox root (work). */
int sbx_statedir_chown(sbx_plan *p, sbx_error *reterr) {
        uid_t u = p->host_uid + (p->privileged ? p->uid : 0);
        gid_t g = p->host_gid + (p->privileged ? p->gid : 0);

        if (!p->privileged)
                return 0;
        const struct { const char *name; uid_t u; gid_t g; } layers[] = {
                { "upper", u, g }, { "lower", u, g },
                { "work", p->host_uid, p->host_gid }, { "root", p->host_uid, p->host_gid },
        };
        for (size_t i = 0; i < ELEMENTSOF(layers); i++)
                if (fchownat(p->state_fd, layers[i].name, layers[i].u, layers[i].g, AT_SYMLINK_NOFOLLOW) < 0 &&
                    errno != ENOENT)    /* not made for this run */
                        return sbx_error_set(reterr, -errno, "state dir: chown layers in '%s' to the sandbox ids",
                                             p->state_dir);
        return 0;
}

int sbx_statedir_write(sbx_plan *p, const char *name, const char *contents, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        size_t len = strlen(contents);

        fd = openat(p->state_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, contents, len) != (ssize_t) len)
                return sbx_error_set(reterr, errno ? -errno : -EIO, "state dir: write '%s/%s'", p->state_dir, name);
        return 0;
}

/* How deep the removal recurses (an fd and a stack frame per level). A
 * directory deeper than that is moved up into the directory being removed
 * and removed from there in a later pass, so that a tree of any depth (a
 * sandbox's upper layer is the sandbox's to shape: 30000 levels take it a
 * second) goes with a bounded number of fds and stack instead of failing at
 * EMFILE and staying behind on the host. */
#define RM_DEPTH_MAX 64

typedef struct rm_ctx {
        dev_t dev;              /* never cross into another file system */
        int topfd;              /* the directory being removed */
        unsigned moved;         /* subtrees moved up into it in this pass */
        unsigned long seq;
} rm_ctx;

static int rm_dir_at(rm_ctx *c, int dirfd, const char *name, unsigned depth);

static int move_up(rm_ctx *c, int dirfd, const char *name) {
        char tmp[64];

        for (int i = 0; i < 16; i++) {
                snprintf(tmp, sizeof(tmp), ".sbx-rm.%lu", c->seq++);
                if (renameat2(dirfd, name, c->topfd, tmp, RENAME_NOREPLACE) == 0) {
                        c->moved++;
                        return 0;
                }
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

/* Remove what fd (taken) holds. */
static int rm_rf_children(rm_ctx *c, int fd, unsigned depth) {
        DIR *d;
        struct dirent *de;
        int r = 0;

        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return -errno;
        }
        while ((de = readdir(d))) {
                struct stat st;
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (S_ISDIR(st.st_mode) && st.st_dev == c->dev) {
                        if (depth >= RM_DEPTH_MAX && move_up(c, dirfd(d), de->d_name) == 0)
                                continue;
                        int q = rm_dir_at(c, dirfd(d), de->d_name, depth + 1);
                        if (q < 0 && r == 0)
                                r = q;
                } else if (!S_ISDIR(st.st_mode) && unlinkat(dirfd(d), de->d_name, 0) < 0 && r == 0)
                        r = -errno;
        }
        closedir(d);
        return r;
}

/* Open a directory to empty it, and make it the owner's to list, search and
 * change: what a sandbox created in its upper layer (or overlay's work/work)
 * may be mode 000, 0400 or 0500, which the owner without CAP_DAC_OVERRIDE
 * (rootless) can neither open, nor search, nor delete entries from. Nothing
 * here follows a symlink: the name is opened O_NOFOLLOW, the chmod of a name
 * that could not be opened is fchmodat2's AT_SYMLINK_NOFOLLOW (the entry
 * itself, by the parent's fd; none before Linux 6.6), the one of an opened
 * directory is by its fd. */
static int open_dir_to_remove(int dirfd, const char *name) {
        int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;

        if (fd < 0 && errno == EACCES) {
                (void) sbx_chmod_entry_at(dirfd, name, 0700);
                fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) == 0 && (st.st_mode & 0700) != 0700)
                (void) fchmod(fd, (st.st_mode & 07777) | 0700);
        return fd;
}

static int rm_dir_at(rm_ctx *c, int dirfd, const char *name, unsigned depth) {
        int fd = open_dir_to_remove(dirfd, name), r;

        if (fd < 0)
                return fd;
        r = rm_rf_children(c, fd, depth);
        if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && r == 0)
                r = -errno;
        return r;
}

int sbx_rm_rf_at(int dirfd, const char *name) {
        _cleanup_close_ int top = -EBADF;
        struct stat st;
        rm_ctx c;
        int r;

        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (!S_ISDIR(st.st_mode))
                return RET_NERRNO(unlinkat(dirfd, name, 0));
        top = open_dir_to_remove(dirfd, name);
        if (top < 0)
                return top;
        c = (rm_ctx) { .dev = st.st_dev, .topfd = top };
        /* pass after pass while the last one moved subtrees up: each pass
         * sees them 63 levels less deep */
        do {
                int fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                c.moved = 0;
                r = fd < 0 ? -errno : rm_rf_children(&c, fd, 0);
        } while (c.moved);
        if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && r == 0)
                r = -errno;
        return r;
}

static void remove_all_but_lock(int state_fd) {
        DIR *d;
        struct dirent *de;
        int dfd = state_fd >= 0 ? fcntl(state_fd, F_DUPFD_CLOEXEC, 3) : -1;

        if (dfd < 0 || !(d = fdopendir(dfd))) {
                if (dfd >= 0)
                        close(dfd);
                return;
        }
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, "lock"))
                        (void) sbx_rm_rf_at(state_fd, de->d_name);
        closedir(d);
}

void sbx_statedir_cleanup(sbx_plan *p) {
        if (p->state_dir[0]) {
                _cleanup_close_ int parent = -EBADF;
                char dir[PATH_MAX];
                char *slash;

                snprintf(dir, sizeof(dir), "%s", p->state_dir);
                slash = strrchr(dir, '/');
                /* Everything but the lock first: if sbx is killed while it
                 * removes the tree, the dir still has its (now unlocked) lock
                 * file and the next run collects it at once, instead of it
                 * looking like a run being created for a minute. */
                remove_all_but_lock(p->state_fd);
                if (slash) {
                        *slash = '\0';
                        parent = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                        if (parent >= 0)
                                (void) sbx_rm_rf_at(parent, slash + 1);
                }
                p->state_dir[0] = '\0';
        }
        closep(&p->state_fd);
        closep(&p->lock_fd);
}

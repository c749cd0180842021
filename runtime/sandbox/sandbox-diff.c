/* SPDX-License-Identifier: MIT */
/* Reviewable workspace changes (--workspace-mode overlay): /workspace is an
 * overlay whose lower layer is the real workspace and whose upper layer lives
 * in the sandbox's state dir. diff reads the upper from the host; commit
 * applies it to the real workspace; reset drops it.
 *
 * What the upper layer holds (overlayfs, userxattr mode, as the sandbox
 * mounts it inside its user namespace):
 *   - a file, symlink or dir: added, or replacing the lower entry;
 *   - a whiteout (char device 0:0, or a file with user.overlay.whiteout):
 *     the lower entry was deleted;
 *   - a dir with user.overlay.opaque=y: the lower dir's entries are hidden
 *     (it was deleted and made again).
 * A rename inside the sandbox shows up as a whiteout plus an addition.
 *
 * Why commit is safe against a hostile upper layer:
 *   - every path in the real workspace is resolved with openat2(
 *     RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS): no
 *     symlink (in the workspace or planted by the sandbox) is ever followed,
 *     so nothing outside the workspace is written or removed;
 *   - the upper layer is read the same way (files too: sbx diff's patches
 *     read them through sbx_sandbox_change_open(), never by path), and a
 *     file is read only if the open gives a regular file (O_NONBLOCK: a
 *     FIFO swapped in after the lstat does not hang diff or commit);
 *   - files are written to a temp file in the target dir, then renamed over
 *     the old entry: a reader (or an interrupted commit) sees the old or the
 *     new file, never half of one; a symlink is replaced, not written through;
 *   - set-id bits are dropped; devices, fifos and sockets are not committed
 *     (skipped and counted, the rest applied);
 *   - a sparse file is copied with its holes, so the workspace gets no more
 *     blocks than the layer holds;
 *   - the walk's frames hold no buffer, so a tree as deep as a path allows
 *     costs some hundred KiB of stack, not a crash. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "util/util.h"
#include "sandbox-internal.h"
#include "launch/launch.h"

#define RESOLVE_SAFE (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

typedef struct change_list {
        sbx_change *v;
        size_t n;
} change_list;

void sbx_changes_free(sbx_change *c, size_t n) {
        for (size_t i = 0; c && i < n; i++) {
                free(c[i].path);
                free(c[i].target);
        }
        free(c);
}

static int add_change(change_list *l, const char *path, sbx_change_kind kind, mode_t mode, mode_t old_mode,
                      bool content) {
        sbx_change *n = realloc(l->v, sizeof(*n) * (l->n + 1));

        if (!n)
                return -ENOMEM;
        l->v = n;
        n[l->n] = (sbx_change) { .path = strdup(path), .kind = kind, .mode = mode, .old_mode = old_mode,
                                 .content_changed = content };
        if (!n[l->n].path)
                return -ENOMEM;
        l->n++;
        return 0;
}

static int open_beneath(int rootfd, const char *rel, int flags) {
        return sys_openat2(rootfd, rel[0] ? rel : ".", flags | O_CLOEXEC, RESOLVE_SAFE);
}

/* A regular file beneath dirfd for reading: no symlink followed, and a FIFO
 * or device swapped in by the sandbox since it was lstat'ed neither blocks
 * (O_NONBLOCK) nor is read (-EINVAL). */
static int open_regular(int dirfd, const char *rel) {
        struct stat st;
        int fd = open_beneath(dirfd, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);

        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                return -EINVAL;
        }
        return fd;
}

static bool xattr_is(int dirfd, const char *name, const char *attr, const char *want) {
        char path[64], val[8];
        ssize_t n;
        int fd = sys_openat2(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, RESOLVE_SAFE);

        if (fd < 0)
                return false;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        n = getxattr(path, attr, val, sizeof(val) - 1);
        close(fd);
        if (n < 0)
                return false;
        val[n] = '\0';
        return !want || !strcmp(val, want);
}

static __attribute__((noinline)) bool is_opaque(int dirfd, const char *name) {
        return xattr_is(dirfd, name, "user.overlay.opaque", "y") || xattr_is(dirfd, name, "trusted.overlay.opaque", "y");
}

static __attribute__((noinline)) bool is_whiteout(int dirfd, const char *name, const struct stat *st) {
        if (S_ISCHR(st->st_mode) && st->st_rdev == 0)
                return true;
        return S_ISREG(st->st_mode) && st->st_size == 0 &&
               (xattr_is(dirfd, name, "user.overlay.whiteout", NULL) ||
                xattr_is(dirfd, name, "trusted.overlay.whiteout", NULL));
}

static bool same_bytes(int a, int b) {
        char x[8192], y[8192];

        for (;;) {
                ssize_t n = read(a, x, sizeof(x)), m;
                if (n < 0)
                        return false;
                m = read(b, y, (size_t) n ? (size_t) n : 1);
                if (n == 0)
                        return m == 0;
                if (m != n || memcmp(x, y, (size_t) n))
                        return false;
        }
}

/* Does the upper entry differ from the lower one (both lstat'ed)? */
static __attribute__((noinline)) bool content_differs(int up_dir, int low_dir, const char *name, const struct stat *u, const struct stat *l) {
        if ((u->st_mode & S_IFMT) != (l->st_mode & S_IFMT))
                return true;
        if (S_ISLNK(u->st_mode)) {
                char a[PATH_MAX], b[PATH_MAX];
                ssize_t na = readlinkat(up_dir, name, a, sizeof(a)), nb = readlinkat(low_dir, name, b, sizeof(b));
                return na != nb || na < 0 || memcmp(a, b, (size_t) na);
        }
        if (S_ISREG(u->st_mode)) {
                int fa, fb;
                bool same;
                if (u->st_size != l->st_size)
                        return true;
                fa = open_regular(up_dir, name);
                fb = open_regular(low_dir, name);
                same = fa >= 0 && fb >= 0 && same_bytes(fa, fb);
                if (fa >= 0)
                        close(fa);
                if (fb >= 0)
                        close(fb);
                return !same;
        }
        return false;
}

#define WALK_PATH_MAX PATH_MAX

/* Everything under a lower dir that the upper layer hides, each entry and
 * what lies below it (the review names every file a commit deletes): the
 * entries an opaque upper dir (up_dir) lacks, or all of them (up_dir -1:
 * the dir was replaced by a file or symlink). path[0..len) is the dir's
 * path; the same buffer as walk's, the same small frames. */
static int hidden_lower(change_list *l, int low_dir, char *path, size_t len, int up_dir, sbx_error *reterr) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd = openat(low_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

        if (fd < 0 || !(d = fdopendir(fd))) {
                if (fd >= 0)
                        close(fd);
                return 0;
        }
        while ((de = readdir(d))) {
                struct stat st, ust;
                size_t nlen;

                path[len] = '\0';
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (up_dir >= 0 && fstatat(up_dir, de->d_name, &ust, AT_SYMLINK_NOFOLLOW) == 0)
                        continue;     /* the upper has its own entry there */
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                nlen = len + (len ? 1 : 0) + strlen(de->d_name);
                if (nlen >= WALK_PATH_MAX)
                        return sbx_error_set(reterr, -ENAMETOOLONG, "diff: path too long under '%s'", path);
                snprintf(path + len, WALK_PATH_MAX - len, "%s%s", len ? "/" : "", de->d_name);
                if (add_change(l, path, SBX_CHANGE_DELETED, 0, st.st_mode, true) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                if (S_ISDIR(st.st_mode)) {
                        _cleanup_close_ int sub = openat(dirfd(d), de->d_name,
                                                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (sub >= 0 && (r = hidden_lower(l, sub, path, nlen, -1, reterr)) < 0)
                                return r;
                }
        }
        path[len] = '\0';
        return 0;
}

/* An entry of the upper layer sbx cannot read (without root sbx reads the layer
 * as the caller, and the sandbox may have made it mode 000): the path, the
 * reason, the mode, and the fix. Before anything is applied. */
static __attribute__((noinline)) int unreadable(sbx_error *reterr, int err, const char *what, const char *path,
                                                int mode) {
        char m[32] = "";

        if (mode >= 0)
                snprintf(m, sizeof(m), ", mode %04o", (unsigned) mode);
        return sbx_error_set(reterr, err,
                             "diff: %s '%s' in the sandbox's upper layer cannot be read: %s%s (sbx reads the layer "
                             "as uid %u; make it readable inside the sandbox, e.g. chmod u+rwx, or drop it with "
                             "sbx reset); sbx commit applies nothing while it is so",
                             what, path, strerror(-err), m, (unsigned) geteuid());
}

/* One directory of the upper layer. The sandbox chooses the depth (it can
 * chdir down as far as it likes), so a frame holds no buffer: the helpers
 * with PATH_MAX buffers are kept out of line, and the path is one buffer of
 * the caller's, grown and cut back here. Each level adds at least two bytes
 * to it, so the depth is bounded by its size (WALK_PATH_MAX / 2 levels of a
 * few hundred bytes each: a 21 KiB frame crashed sbx diff and sbx commit on
 * a 400-level tree). Two fds per level (the upper and lower dirs). A path
 * commit could not open (PATH_MAX or longer) fails the diff, so commit
 * refuses before it applies anything. */
static int walk(change_list *l, int up_dir, int low_dir, char *path, size_t len, sbx_error *reterr) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd = openat(up_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

        if (fd < 0) {
                struct stat st;
                int err = -errno;
                return unreadable(reterr, err, "the directory", len ? path : ".",
                                  fstat(up_dir, &st) == 0 ? (int) (st.st_mode & 07777) : -1);
        }
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return sbx_error_set(reterr, -errno, "diff: read upper dir '%s'", path);
        }
        while ((de = readdir(d))) {
                struct stat u, lo;
                bool have_lower;
                size_t nlen;

                path[len] = '\0';
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                nlen = len + (len ? 1 : 0) + strlen(de->d_name);
                if (nlen >= WALK_PATH_MAX)
                        return sbx_error_set(reterr, -ENAMETOOLONG, "diff: path too long under '%s'", path);
                snprintf(path + len, WALK_PATH_MAX - len, "%s%s", len ? "/" : "", de->d_name);
                /* gone since readdir: skipped; unreadable (a dir of mode 0400 the
                 * sandbox made, read without root): refused, never left out */
                if (fstatat(dirfd(d), de->d_name, &u, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno == ENOENT)
                                continue;
                        return unreadable(reterr, -errno, "the entry", path, -1);
                }
                have_lower = low_dir >= 0 && fstatat(low_dir, de->d_name, &lo, AT_SYMLINK_NOFOLLOW) == 0;
                if (is_whiteout(dirfd(d), de->d_name, &u)) {
                        if (have_lower && add_change(l, path, SBX_CHANGE_DELETED, 0, lo.st_mode, true) < 0)
                                return sbx_error_set(reterr, -ENOMEM, "out of memory");
                        if (have_lower && S_ISDIR(lo.st_mode)) {
                                _cleanup_close_ int gone = openat(low_dir, de->d_name,
                                                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                                if (gone >= 0 && (r = hidden_lower(l, gone, path, nlen, -1, reterr)) < 0)
                                        return r;
                        }
                        continue;
                }
                if (!have_lower)
                        r = add_change(l, path, SBX_CHANGE_ADDED, u.st_mode, 0, true);
                else if (S_ISDIR(u.st_mode) && S_ISDIR(lo.st_mode))
                        r = (u.st_mode & 07777) != (lo.st_mode & 07777)
                                ? add_change(l, path, SBX_CHANGE_MODIFIED, u.st_mode, lo.st_mode, false)
                                : 0;
                else {
                        bool content = content_differs(dirfd(d), low_dir, de->d_name, &u, &lo);
                        r = content || (u.st_mode & 07777) != (lo.st_mode & 07777)
                                ? add_change(l, path, SBX_CHANGE_MODIFIED, u.st_mode, lo.st_mode, content)
                                : 0;
                }
                if (r < 0)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                /* The review shows where a symlink points (a committed 'log ->
                 * ~/.bashrc' is written through by whatever appends to the
                 * workspace's log on the host): the target as the walk read it. */
                if (S_ISLNK(u.st_mode) && l->n > 0 && !strcmp(l->v[l->n - 1].path, path) && !l->v[l->n - 1].target) {
                        char t[PATH_MAX];
                        ssize_t k = readlinkat(dirfd(d), de->d_name, t, sizeof(t) - 1);
                        if (k >= 0) {
                                t[k] = '\0';
                                if (!(l->v[l->n - 1].target = strdup(t)))
                                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                        }
                }
                /* A lower dir replaced by a file or symlink: commit removes
                 * all of it, and the review lists all of it (a bare 'M notes'
                 * hid the deletion of every file under notes/). */
                if (have_lower && S_ISDIR(lo.st_mode) && !S_ISDIR(u.st_mode)) {
                        _cleanup_close_ int gone = openat(low_dir, de->d_name,
                                                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (gone >= 0 && (r = hidden_lower(l, gone, path, nlen, -1, reterr)) < 0)
                                return r;
                }
                if (S_ISDIR(u.st_mode)) {
                        _cleanup_close_ int sub_up = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        const int sub_err = errno;
                        _cleanup_close_ int sub_low = -EBADF;
                        bool opaque = is_opaque(dirfd(d), de->d_name);
                        if (sub_up < 0)
                                return unreadable(reterr, -sub_err, "the directory", path, (int) (u.st_mode & 07777));
                        if (have_lower && S_ISDIR(lo.st_mode))
                                sub_low = openat(low_dir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        /* Opaque: lower entries the upper lacks are deleted; the
                         * ones it has are compared as usual. */
                        if (opaque && sub_low >= 0) {
                                r = hidden_lower(l, sub_low, path, nlen, sub_up, reterr);
                                if (r < 0)
                                        return r;
                        }
                        r = walk(l, sub_up, sub_low, path, nlen, reterr);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

static int cmp_change(const void *a, const void *b) {
        return strcmp(((const sbx_change *) a)->path, ((const sbx_change *) b)->path);
}

/* The record, and fds of the upper and lower roots. */
static int open_layers(const char *ref, sbx_sandbox **ret_s, int *ret_up, int *ret_low, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        int r, up, low;

        r = sbx_sandbox_lookup(ref, &s, reterr);
        if (r < 0)
                return r;
        if (s->config.workspace_access != SBX_WORKSPACE_NONE || !s->workspace)
                return sbx_error_set(reterr, -ENOTSUP,
                                     "sandbox '%s' was not created with --workspace-mode overlay: its writes go "
                                     "straight to '%s'",
                                     s->name, s->workspace ?: "its workspace");
        if (!s->upper_dir)
                return sbx_error_set(reterr, -ENOENT, "sandbox '%s' has no changes (never started)", s->name);
        up = open(s->upper_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (up < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': open upper layer '%s'", s->name, s->upper_dir);
        low = open(s->workspace, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (low < 0) {
                r = -errno;
                close(up);
                return sbx_error_set(reterr, r, "sandbox '%s': open workspace '%s'", s->name, s->workspace);
        }
        *ret_up = up;
        *ret_low = low;
        *ret_s = TAKE_PTR(s);
        return 0;
}

int sbx_sandbox_diff(const char *ref, sbx_change **ret, size_t *ret_n, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        _cleanup_close_ int up = -EBADF, low = -EBADF;
        _cleanup_free_ char *path = NULL;
        change_list l = {};
        int r;

        r = open_layers(ref, &s, &up, &low, reterr);
        if (r < 0)
                return r;
        path = calloc(1, WALK_PATH_MAX);
        if (!path)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        r = walk(&l, up, low, path, 0, reterr);
        if (r < 0) {
                sbx_changes_free(l.v, l.n);
                return r;
        }
        if (l.n)
                qsort(l.v, l.n, sizeof(*l.v), cmp_change);
        *ret = l.v;
        *ret_n = l.n;
        return (int) l.n;
}

int sbx_sandbox_change_open(const sbx_sandbox *s, const char *path, bool upper, sbx_error *reterr) {
        const char *layer = upper ? s->upper_dir : s->workspace;
        _cleanup_close_ int root = -EBADF;
        int fd;

        if (!layer)
                return sbx_error_set(reterr, -ENOENT, "sandbox '%s' has no %s", s->name,
                                     upper ? "upper layer" : "workspace");
        root = open(layer, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (root < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': open '%s'", s->name, layer);
        fd = open_regular(root, path);
        if (fd < 0)
                return sbx_error_set(reterr, fd, "sandbox '%s': '%s' in %s is not a regular file reached without "
                                     "symlinks", s->name, path, upper ? "the upper layer" : "the workspace");
        return fd;
}

/* ---------------------------------------------------------------- commit */

/* dir/leaf of a change's path; a dir that does not fit is an error, never
 * cut short (a cut dir names another directory of the workspace). */
static int split(const char *path, char *dir, size_t len, const char **leaf) {
        const char *slash = strrchr(path, '/');

        if (!slash) {
                dir[0] = '\0';
                *leaf = path;
        } else {
                if ((size_t) (slash - path) >= len)
                        return -ENAMETOOLONG;
                memcpy(dir, path, (size_t) (slash - path));
                dir[slash - path] = '\0';
                *leaf = slash + 1;
        }
        return 0;
}

/* Replace dir/leaf with the temp entry sdir/tmp (a dir in the way is removed). */
static int replace_from(int sdir, const char *tmp, int dfd, const char *leaf) {
        struct stat st;

        if (renameat(sdir, tmp, dfd, leaf) == 0)
                return 0;
        if ((errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST) &&
            fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
                int r = sbx_rm_rf_at(dfd, leaf);
                if (r < 0)
                        return r;
                return RET_NERRNO(renameat(sdir, tmp, dfd, leaf));
        }
        return -errno;
}

static int replace(int dfd, const char *tmp, const char *leaf) {
        return replace_from(dfd, tmp, dfd, leaf);
}

/* dir/leaf becomes a directory of mode perm (a non-directory in the way is
 * removed); the owner only as root. */
static int make_dir(int ldir, const char *leaf, const char *path, mode_t perm, uid_t owner, gid_t group,
                    sbx_error *reterr) {
        struct stat lst;

        if (fstatat(ldir, leaf, &lst, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(lst.st_mode) &&
            unlinkat(ldir, leaf, 0) < 0)
                return sbx_error_set(reterr, -errno, "commit: replace '%s' with a directory", path);
        if (mkdirat(ldir, leaf, 0700) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "commit: mkdir '%s'", path);
        /* never through a symlink swapped in since the mkdir (the workspace
         * may be another sandbox's to write): the mode is the sandbox's choice */
        if (fchmodat(ldir, leaf, perm, AT_SYMLINK_NOFOLLOW) < 0)
                return sbx_error_set(reterr, -errno, "commit: chmod '%s'", path);
        if (geteuid() == 0)
                (void) fchownat(ldir, leaf, owner, group, AT_SYMLINK_NOFOLLOW);
        return 0;
}

/* udir/leaf, a regular file of the upper layer, copied (sparse) into a new
 * dfd/name of mode 0600 whose fd is returned; -errno with reterr set. */
static int copy_upper_file(int udir, const char *leaf, int dfd, const char *name, const char *path,
                           sbx_error *reterr) {
        _cleanup_close_ int in = open_regular(udir, leaf);
        int out, r;

        if (in < 0)
                return sbx_error_set(reterr, in, "commit: open '%s' in the upper layer as a regular file", path);
        out = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (out < 0)
                return sbx_error_set(reterr, -errno, "commit: create a temp file for '%s'", path);
        r = sbx_copy_sparse(in, out);
        if (r < 0) {
                close(out);
                (void) unlinkat(dfd, name, 0);
                return sbx_error_set(reterr, r, "commit: write '%s'", path);
        }
        return out;
}

/* udir/leaf, a symlink of the upper layer, made again as dfd/name (copied
 * as a link, never resolved); its target in target[PATH_MAX]. */
static int copy_upper_link(int udir, const char *leaf, int dfd, const char *name, const char *path,
                           char target[PATH_MAX], sbx_error *reterr) {
        ssize_t n = readlinkat(udir, leaf, target, PATH_MAX - 1);

        if (n < 0)
                return sbx_error_set(reterr, -errno, "commit: readlink '%s'", path);
        target[n] = '\0';
        if (symlinkat(target, dfd, name) < 0)
                return sbx_error_set(reterr, -errno, "commit: symlink '%s'", path);
        return 0;
}

static int apply_one(const sbx_change *c, int up, int low, uid_t owner, gid_t group, sbx_error *reterr) {
        char dir[PATH_MAX], tmp[64];
        const char *leaf;
        _cleanup_close_ int udir = -EBADF, ldir = -EBADF;
        struct stat st, lst;
        mode_t perm;
        int r;

        if (split(c->path, dir, sizeof(dir), &leaf) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "commit '%s': the path is too long", c->path);
        ldir = open_beneath(low, dir, O_RDONLY | O_DIRECTORY);
        if (ldir < 0 && c->kind == SBX_CHANGE_DELETED && (errno == ENOENT || errno == ENOTDIR))
                return 0;       /* gone with its parent (a dir replaced by a file) */
        if (ldir < 0)
                return sbx_error_set(reterr, -errno, "commit '%s': open '%s' in the workspace without following "
                                     "symlinks", c->path, dir[0] ? dir : ".");
        if (c->kind == SBX_CHANGE_DELETED) {
                if (fstatat(ldir, leaf, &lst, AT_SYMLINK_NOFOLLOW) < 0)
                        return errno == ENOENT ? 0 : sbx_error_set(reterr, -errno, "commit: stat '%s'", c->path);
                r = S_ISDIR(lst.st_mode) ? sbx_rm_rf_at(ldir, leaf) : RET_NERRNO(unlinkat(ldir, leaf, 0));
                return r < 0 ? sbx_error_set(reterr, r, "commit: delete '%s'", c->path) : 0;
        }
        udir = open_beneath(up, dir, O_RDONLY | O_DIRECTORY);
        if (udir < 0 || fstatat(udir, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return sbx_error_set(reterr, -errno, "commit '%s': read the upper layer", c->path);
        /* A FIFO, socket or device is not committed: skipped, not an error
         * (an error here stopped the commit half-way, with the changes
         * sorted before it applied and the rest, deletions included, not). */
        if (!S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))
                return 1;
        perm = st.st_mode & 01777;        /* no set-id bits */
        /* An existing entry keeps its owner; a new one gets the workspace's. */
        if (fstatat(ldir, leaf, &lst, AT_SYMLINK_NOFOLLOW) == 0) {
                owner = lst.st_uid;
                group = lst.st_gid;
        }
        if (S_ISDIR(st.st_mode))
                return make_dir(ldir, leaf, c->path, perm, owner, group, reterr);
        snprintf(tmp, sizeof(tmp), ".sbx-commit.%d.%u", (int) getpid(), (unsigned) random());
        if (S_ISLNK(st.st_mode)) {
                char target[PATH_MAX];
                if ((r = copy_upper_link(udir, leaf, ldir, tmp, c->path, target, reterr)) < 0)
                        return r;
                if (geteuid() == 0)
                        (void) fchownat(ldir, tmp, owner, group, AT_SYMLINK_NOFOLLOW);
        } else if (S_ISREG(st.st_mode)) {
                _cleanup_close_ int out = copy_upper_file(udir, leaf, ldir, tmp, c->path, reterr);
                if (out < 0)
                        return out;
                r = 0;
                if (geteuid() == 0 && fchown(out, owner, group) < 0)
                        r = -errno;
                if (r >= 0 && (fchmod(out, perm) < 0 || fsync(out) < 0))
                        r = -errno;
                if (r < 0) {
                        (void) unlinkat(ldir, tmp, 0);
                        return sbx_error_set(reterr, r, "commit: write '%s'", c->path);
                }
        }
        r = replace(ldir, tmp, leaf);
        if (r < 0) {
                (void) unlinkat(ldir, tmp, 0);
                return sbx_error_set(reterr, r, "commit: rename into place '%s'", c->path);
        }
        return 0;
}

static bool selected(const char *path, char *const *paths, size_t n) {
        if (n == 0)
                return true;
        for (size_t i = 0; i < n; i++) {
                const char *p = paths[i];
                size_t len;
                while (*p == '/')
                        p++;
                if (!strncmp(p, "workspace/", 10))
                        p += 10;
                len = strlen(p);
                while (len > 0 && p[len - 1] == '/')
                        len--;
                if (len == 0 || (!strncmp(path, p, len) && (path[len] == '\0' || path[len] == '/')))
                        return true;
        }
        return false;
}

/* Every file to be copied is opened once before anything is applied: one
 * sbx cannot read (mode 000 without root) refuses the whole commit, never
 * half of it. Other failures (a FIFO swapped in) are apply_one's. */
static int all_readable(const sbx_change *changes, size_t n, char *const *paths, size_t n_paths, int up,
                        sbx_error *reterr) {
        for (size_t i = 0; i < n; i++) {
                _cleanup_close_ int fd = -EBADF;
                if (changes[i].kind == SBX_CHANGE_DELETED || !S_ISREG(changes[i].mode) ||
                    !selected(changes[i].path, paths, n_paths))
                        continue;
                fd = open_regular(up, changes[i].path);
                if (fd == -EACCES || fd == -EPERM)
                        return sbx_error_set(reterr, fd,
                                             "commit: the file '%s' in the sandbox's upper layer cannot be read: "
                                             "%s, mode %04o (sbx reads the layer as uid %u; make it readable "
                                             "inside the sandbox, e.g. chmod u+r, or drop it with sbx reset); "
                                             "nothing was committed",
                                             changes[i].path, strerror(-fd), (unsigned) (changes[i].mode & 07777),
                                             (unsigned) geteuid());
        }
        return 0;
}

int sbx_sandbox_commit(const char *ref, char *const *paths, size_t n_paths, size_t *ret_skipped,
                       sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        _cleanup_close_ int up = -EBADF, low = -EBADF;
        sbx_change *changes = NULL;
        size_t n = 0;
        struct stat root;
        int r, applied = 0;
        size_t skipped = 0;

        r = sbx_sandbox_diff(ref, &changes, &n, reterr);
        if (r < 0)
                return r;
        r = open_layers(ref, &s, &up, &low, reterr);
        if (r < 0 || fstat(low, &root) < 0) {
                sbx_changes_free(changes, n);
                return r < 0 ? r : sbx_error_set(reterr, -errno, "commit: stat the workspace");
        }
        r = all_readable(changes, n, paths, n_paths, up, reterr);
        if (r < 0) {
                sbx_changes_free(changes, n);
                return r;
        }
        /* Additions and modifications parents first, then deletions children first. */
        for (size_t i = 0; r >= 0 && i < n; i++)
                if (changes[i].kind != SBX_CHANGE_DELETED && selected(changes[i].path, paths, n_paths)) {
                        r = apply_one(&changes[i], up, low, root.st_uid, root.st_gid, reterr);
                        applied += r == 0;
                        skipped += r > 0;
                }
        for (size_t i = n; r >= 0 && i > 0; i--)
                if (changes[i - 1].kind == SBX_CHANGE_DELETED && selected(changes[i - 1].path, paths, n_paths)) {
                        r = apply_one(&changes[i - 1], up, low, root.st_uid, root.st_gid, reterr);
                        applied += r >= 0;
                }
        sbx_changes_free(changes, n);
        if (ret_skipped)
                *ret_skipped = skipped;
        if (r >= 0)
                (void) syncfs(low);
        return r < 0 ? r : applied;
}

/* ---------------------------------------------------------------- digest */

#define DIGEST_CHUNK (64u << 10)

/* A file's content hash that does not depend on how it is laid out on disk
 * (the layer's tmpfs, the workspace's file system, sbx_copy_sparse's holes):
 * its size, then each 64 KiB chunk at its offset unless the chunk is all
 * zeros. A hole is skipped by SEEK_DATA, so a 1 TB sparse file costs what
 * its data costs, as in the copy. */
int sbx_content_hash(int fd, char hex[SBX_SHA256_HEX_SIZE]) {
        _cleanup_free_ uint8_t *buf = malloc(DIGEST_CHUNK);
        struct sbx_sha256 h;
        struct stat st;
        uint64_t size, off = 0;

        if (!buf)
                return -ENOMEM;
        if (fstat(fd, &st) < 0)
                return -errno;
        size = (uint64_t) st.st_size;
        sbx_sha256_init(&h);
        sbx_sha256_update(&h, &size, sizeof(size));
        while (off < size) {
                off_t d = lseek(fd, (off_t) off, SEEK_DATA);
                ssize_t k;

                if (d < 0 && errno == ENXIO)
                        break;
                if (d >= 0)
                        off = (uint64_t) d & ~(uint64_t) (DIGEST_CHUNK - 1);
                do
                        k = pread(fd, buf, DIGEST_CHUNK, (off_t) off);
                while (k < 0 && errno == EINTR);
                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                for (ssize_t i = 0; i < k; i++)
                        if (buf[i]) {
                                sbx_sha256_update(&h, &off, sizeof(off));
                                sbx_sha256_update(&h, buf, (size_t) k);
                                break;
                        }
                off += DIGEST_CHUNK;
        }
        sbx_sha256_final_hex(&h, hex);
        return 0;
}

static void digest_add(struct sbx_sha256 *h, sbx_change_kind kind, mode_t mode, const char *path,
                       const char *target, const char *content) {
        char head[32];
        int k = snprintf(head, sizeof(head), "%c %o ",
                         kind == SBX_CHANGE_ADDED ? 'A' : kind == SBX_CHANGE_DELETED ? 'D' : 'M', (unsigned) mode);

        sbx_sha256_update(h, head, (size_t) k);
        sbx_sha256_update(h, path, strlen(path) + 1);
        if (target)
                sbx_sha256_update(h, target, strlen(target) + 1);
        if (content)
                sbx_sha256_update(h, content, SBX_SHA256_HEX_SIZE - 1);
        sbx_sha256_update(h, "\n", 1);
}

static void digest_end(struct sbx_sha256 *h, char ret[SBX_CHANGES_DIGEST_SIZE]) {
        memcpy(ret, "sha256:", 7);
        sbx_sha256_final_hex(h, ret + 7);
}

int sbx_sandbox_diff_digest(const sbx_sandbox *s, sbx_change *c, size_t n,
                            char ret[SBX_CHANGES_DIGEST_SIZE], sbx_error *reterr) {
        _cleanup_close_ int up = -EBADF;
        struct sbx_sha256 h;

        if (!s->upper_dir)
                return sbx_error_set(reterr, -ENOENT, "sandbox '%s' has no upper layer", s->name);
        up = open(s->upper_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (up < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': open '%s'", s->name, s->upper_dir);
        sbx_sha256_init(&h);
        for (size_t i = 0; i < n; i++) {
                char hex[SBX_SHA256_HEX_SIZE];
                bool file = c[i].kind != SBX_CHANGE_DELETED && S_ISREG(c[i].mode);

                if (file) {
                        _cleanup_close_ int fd = open_regular(up, c[i].path);
                        int r = fd < 0 ? fd : sbx_content_hash(fd, hex);
                        if (r < 0)
                                return sbx_error_set(reterr, r,
                                                     "digest: read '%s' in the upper layer (it changed while "
                                                     "sbx read it? run sbx diff again)",
                                                     c[i].path);
                }
                if (file)
                        memcpy(c[i].content_hash, hex, sizeof(hex));
                digest_add(&h, c[i].kind, c[i].mode, c[i].path, c[i].target, file ? hex : NULL);
        }
        digest_end(&h, ret);
        return 0;
}

/* One change copied into the staging dir as entry "i" (a file or symlink),
 * its digest line taken of that copy; *ret_mode is what the upper layer
 * holds now (a directory's mode, a special file's type). */
static int stage_one(const sbx_change *c, size_t i, int up, int stagefd, struct sbx_sha256 *h,
                     mode_t *ret_mode, sbx_error *reterr) {
        char dir[PATH_MAX], name[32], hex[SBX_SHA256_HEX_SIZE], target[PATH_MAX];
        _cleanup_close_ int udir = -EBADF;
        const char *leaf;
        struct stat st;

        if (c->kind == SBX_CHANGE_DELETED) {
                digest_add(h, c->kind, c->mode, c->path, NULL, NULL);
                return 0;
        }
        if (split(c->path, dir, sizeof(dir), &leaf) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "commit '%s': the path is too long", c->path);
        udir = open_beneath(up, dir, O_RDONLY | O_DIRECTORY);
        if (udir < 0 || fstatat(udir, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return sbx_error_set(reterr, -ESTALE, "commit --expect: '%s' is gone from the upper layer: "
                                     "the changes are not the ones reviewed; nothing was committed", c->path);
        *ret_mode = st.st_mode;
        snprintf(name, sizeof(name), "%zu", i);
        if (S_ISLNK(st.st_mode)) {
                int r = copy_upper_link(udir, leaf, stagefd, name, c->path, target, reterr);
                if (r < 0)
                        return r;
                digest_add(h, c->kind, st.st_mode, c->path, target, NULL);
        } else if (S_ISREG(st.st_mode)) {
                _cleanup_close_ int out = copy_upper_file(udir, leaf, stagefd, name, c->path, reterr);
                int r;
                if (out < 0)
                        return out;
                r = sbx_content_hash(out, hex);
                if (r >= 0 && fchmod(out, st.st_mode & 01777) < 0)   /* no set-id bits */
                        r = -errno;
                if (r < 0)
                        return sbx_error_set(reterr, r, "commit: stage '%s'", c->path);
                digest_add(h, c->kind, st.st_mode, c->path, NULL, hex);
        } else
                digest_add(h, c->kind, st.st_mode, c->path, NULL, NULL);
        return 0;
}

/* Staged entry "i" into dir/leaf of the workspace, with its owner. */
static int place_staged(const sbx_change *c, size_t i, mode_t mode, int stagefd, int low, uid_t owner,
                        gid_t group, sbx_error *reterr) {
        char dir[PATH_MAX], name[32];
        _cleanup_close_ int ldir = -EBADF;
        const char *leaf;
        struct stat lst;
        int r;

        if (split(c->path, dir, sizeof(dir), &leaf) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "commit '%s': the path is too long", c->path);
        ldir = open_beneath(low, dir, O_RDONLY | O_DIRECTORY);
        if (ldir < 0)
                return sbx_error_set(reterr, -errno, "commit '%s': open '%s' in the workspace without following "
                                     "symlinks", c->path, dir[0] ? dir : ".");
        if (fstatat(ldir, leaf, &lst, AT_SYMLINK_NOFOLLOW) == 0) {
                owner = lst.st_uid;
                group = lst.st_gid;
        }
        if (S_ISDIR(mode))
                return make_dir(ldir, leaf, c->path, mode & 01777, owner, group, reterr);
        snprintf(name, sizeof(name), "%zu", i);
        if (geteuid() == 0)
                (void) fchownat(stagefd, name, owner, group, AT_SYMLINK_NOFOLLOW);
        r = replace_from(stagefd, name, ldir, leaf);
        return r < 0 ? sbx_error_set(reterr, r, "commit: rename into place '%s'%s", c->path,
                                     r == -EXDEV ? " (another file system inside the workspace)" : "")
                     : 0;
}

int sbx_sandbox_commit_expect(const char *ref, const char *expect, size_t *ret_skipped, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        _cleanup_close_ int up = -EBADF, low = -EBADF, stagefd = -EBADF;
        _cleanup_free_ mode_t *modes = NULL;
        char stage[64], got[SBX_CHANGES_DIGEST_SIZE];
        sbx_change *changes = NULL;
        struct sbx_sha256 h;
        struct stat root;
        size_t n = 0, skipped = 0;
        int r, applied = 0;

        r = sbx_sandbox_diff(ref, &changes, &n, reterr);
        if (r < 0)
                return r;
        r = open_layers(ref, &s, &up, &low, reterr);
        if (r >= 0 && fstat(low, &root) < 0)
                r = sbx_error_set(reterr, -errno, "commit: stat the workspace");
        if (r >= 0)
                r = all_readable(changes, n, NULL, 0, up, reterr);
        if (r >= 0 && !(modes = calloc(n + 1, sizeof(*modes))))
                r = sbx_error_set(reterr, -ENOMEM, "out of memory");
        /* 1. every file and symlink copied into a staging dir of the
         * workspace (the same file system: renamed into place in 3), the
         * digest taken of those copies */
        snprintf(stage, sizeof(stage), ".sbx-commit-stage.%d.%u", (int) getpid(), (unsigned) random());
        if (r >= 0 && (mkdirat(low, stage, 0700) < 0 ||
                       (stagefd = openat(low, stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0))
                r = sbx_error_set(reterr, -errno, "commit: create the staging directory '%s' in the workspace",
                                  stage);
        sbx_sha256_init(&h);
        for (size_t i = 0; r >= 0 && i < n; i++)
                r = stage_one(&changes[i], i, up, stagefd, &h, &modes[i], reterr);
        /* 2. the same changes as reviewed, or nothing */
        if (r >= 0) {
                digest_end(&h, got);
                if (strcmp(got, expect))
                        r = sbx_error_set(reterr, -ESTALE,
                                          "commit --expect %s: the sandbox's changes are now %s, not the ones "
                                          "reviewed; nothing was committed (run sbx diff again, or sbx stop the "
                                          "sandbox before the review)",
                                          expect, got);
        }
        /* 3. additions and modifications parents first, then deletions children first */
        for (size_t i = 0; r >= 0 && i < n; i++) {
                if (changes[i].kind == SBX_CHANGE_DELETED)
                        continue;
                if (!S_ISDIR(modes[i]) && !S_ISLNK(modes[i]) && !S_ISREG(modes[i])) {
                        skipped++;
                        continue;
                }
                r = place_staged(&changes[i], i, modes[i], stagefd, low, root.st_uid, root.st_gid, reterr);
                applied += r == 0;
        }
        for (size_t i = n; r >= 0 && i > 0; i--)
                if (changes[i - 1].kind == SBX_CHANGE_DELETED) {
                        r = apply_one(&changes[i - 1], up, low, root.st_uid, root.st_gid, reterr);
                        applied += r >= 0;
                }
        if (stagefd >= 0)
                (void) sbx_rm_rf_at(low, stage);
        sbx_changes_free(changes, n);
        if (ret_skipped)
                *ret_skipped = skipped;
        if (r >= 0)
                (void) syncfs(low);
        return r < 0 ? r : applied;
}

int sbx_sandbox_reset(const char *ref, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        _cleanup_(closedirp) DIR *d = NULL;
        _cleanup_close_ int up = -EBADF, low = -EBADF;
        struct dirent *de;
        bool running;
        int r;

        r = open_layers(ref, &s, &up, &low, reterr);
        if (r < 0)
                return r;
        /* The upper layer must not change under a mounted overlay. */
        running = s->state == SBX_SANDBOX_RUNNING || s->state == SBX_SANDBOX_PAUSED;
        if (running) {
                r = sbx_sandbox_stop(s->name, 2, reterr);
                if (r < 0)
                        return r;
        }
        d = fdopendir(TAKE_FD(up));
        if (!d)
                return sbx_error_set(reterr, -errno, "reset: read the upper layer");
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
                        r = sbx_rm_rf_at(dirfd(d), de->d_name);
                        if (r < 0)
                                return sbx_error_set(reterr, r, "reset: remove '%s' from the upper layer", de->d_name);
                }
        if (running)
                return sbx_sandbox_start(s->name, reterr);
        return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Safe extraction and layer application.
 *
 * Why this is safe against a hostile archive (the archive is untrusted input;
 * the store and the rest of the host are what we protect):
 *  - Entry names are normalised first; an absolute name or any ".." component
 *    refuses the whole archive, so no name can point outside the root.
 *  - Parents are opened one component at a time with O_PATH|O_DIRECTORY|
 *    O_NOFOLLOW relative to the root dirfd, so a symlink planted by an earlier
 *    entry (e.g. "a -> /") can never be traversed: "a/etc/passwd" fails with
 *    ENOTDIR and refuses the archive.
 *  - The last component is only ever touched by calls that do not follow it:
 *    openat(O_CREAT|O_EXCL|O_NOFOLLOW), mkdirat, symlinkat, mkfifoat,
 *    linkat(flags 0), fchownat/utimensat(AT_SYMLINK_NOFOLLOW), unlinkat.
 *    Modes are set through an fd opened O_NOFOLLOW, never by path.
 *  - Hard links resolve their target with the same walk, inside this tree.
 *  - Device nodes are never created (skipped and reported); setuid/setgid
 *    bits on files are stripped (reported). The launcher mounts the rootfs
 *    nosuid,nodev as well; this keeps the store itself free of both.
 *  - Symlink targets are stored verbatim: they are data for the sandbox,
 *    resolved later inside the sandbox's own root, never by this code.
 *  - A sparse entry is written as sparse (data blocks at their offsets, the
 *    size last), and a copied file keeps its holes (sbx_copy_sparse): the
 *    store holds no more blocks than the archive carried data.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-dl.h"
#include "util/util.h"
#include "tree.h"

static inline void closedirp(DIR **d) {
        if (*d)
                closedir(*d);
}
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Untrusted names go into messages printed on a terminal: no control bytes. */
static const char *printable(const char *s, char *buf, size_t len) {
        size_t i = 0;

        if (!s)
                s = "(null)";
        for (; *s && i + 1 < len; s++)
                buf[i++] = ((unsigned char) *s < 0x20 || *s == 0x7f) ? '?' : *s;
        buf[i] = '\0';
        return buf;
}

int sbx_path_normalize(const char *in, char *ret, size_t len, sbx_error *reterr) {
        char pb[160];
        unsigned depth = 0;
        size_t n = 0;

        if (!in)
                return sbx_error_set(reterr, -EINVAL, "archive entry without a name");
        if (in[0] == '/')
                return sbx_error_set(reterr, -EPERM, "absolute entry name '%s' refused",
                                     printable(in, pb, sizeof(pb)));
        for (const char *p = in; *p;) {
                const char *e = strchrnul(p, '/');
                size_t cl = (size_t) (e - p);

                if (cl == 2 && p[0] == '.' && p[1] == '.')
                        return sbx_error_set(reterr, -EPERM, "entry name '%s' contains '..': refused",
                                             printable(in, pb, sizeof(pb)));
                if (cl > 0 && !(cl == 1 && p[0] == '.')) {
                        if (++depth > SBX_TREE_DEPTH_MAX)
                                return sbx_error_set(reterr, -ENAMETOOLONG,
                                                     "entry name '%s' has more than %d path components "
                                                     "(the limit of path depth)",
                                                     printable(in, pb, sizeof(pb)), SBX_TREE_DEPTH_MAX);
                        if (cl > NAME_MAX || n + cl + 2 > len)
                                return sbx_error_set(reterr, -ENAMETOOLONG, "entry name '%s' is too long",
                                                     printable(in, pb, sizeof(pb)));
                        if (n > 0)
                                ret[n++] = '/';
                        memcpy(ret + n, p, cl);
                        n += cl;
                }
                p = *e ? e + 1 : e;
        }
        ret[n] = '\0';
        return 0;
}

/* Open the directory holding the last component of rel (normalised,
 * non-empty) without following symlinks; create missing parents if asked. */
static int open_parent(int rootfd, const char *rel, bool create, const char **ret_base, sbx_error *reterr) {
        _cleanup_close_ int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
        char comp[NAME_MAX + 1], pb[160];
        const char *p = rel;

        if (fd < 0)
                return sbx_error_set(reterr, -errno, "dup root fd: %s", strerror(errno));
        for (const char *slash; (slash = strchr(p, '/')); p = slash + 1) {
                size_t cl = (size_t) (slash - p);
                int nfd;

                memcpy(comp, p, cl);
                comp[cl] = '\0';
                if (create && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
                        return sbx_error_set(reterr, -errno, "create directory for '%s': %s",
                                             printable(rel, pb, sizeof(pb)), strerror(errno));
                nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (nfd < 0) {
                        if (errno == ENOTDIR || errno == ELOOP)
                                return sbx_error_set(
                                        reterr, -ENOTDIR,
                                        "'%s': '%s' is not a directory (symlinks are never followed)",
                                        printable(rel, pb, sizeof(pb)), comp);
                        return sbx_error_set(reterr, -errno, "open parent of '%s': %s",
                                             printable(rel, pb, sizeof(pb)), strerror(errno));
                }
                close(fd);
                fd = nfd;
        }
        *ret_base = p;
        return TAKE_FD(fd);
}

int sbx_tree_rm_rf_at(int parentfd, const char *name) {
        _cleanup_closedir_ DIR *d = NULL;
        struct dirent *de;
        struct stat st;
        int fd, r = 0;

        if (fstatat(parentfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (!S_ISDIR(st.st_mode))
                return unlinkat(parentfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
        fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        /* not searchable by its owner (unprivileged): the entry itself made
         * so, never a symlink's target (the name may have changed since) */
        if (fd < 0 && errno == EACCES && sbx_chmod_entry_at(parentfd, name, 0700) >= 0)
                fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        /* Unprivileged: entries of a 0555 directory cannot be unlinked. */
        if ((st.st_mode & 0700) != 0700)
                (void) fchmod(fd, 0700);
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return -errno;
        }
        while ((de = readdir(d))) {
                int k;

                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                k = sbx_tree_rm_rf_at(dirfd(d), de->d_name);
                if (k < 0 && r == 0)
                        r = k;
        }
        if (unlinkat(parentfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && r == 0)
                r = -errno;
        return r;
}

/* Directories are created owner-rwx so an unprivileged extractor can fill
 * them; the few whose final mode lacks that are fixed up at the end. */
struct mode_fixup {
        char *path;
        mode_t mode;
};
struct fixups {
        struct mode_fixup *v;
        size_t n, cap;
};

static void fixups_done(struct fixups *f) {
        for (size_t i = 0; i < f->n; i++)
                free(f->v[i].path);
        free(f->v);
}

static int fixups_add(struct fixups *f, const char *path, mode_t mode) {
        for (size_t i = 0; i < f->n; i++)
                if (!strcmp(f->v[i].path, path)) {
                        f->v[i].mode = mode;
                        return 0;
                }
        if (f->n == f->cap) {
                size_t cap = f->cap ? f->cap * 2 : 16;
                struct mode_fixup *v = realloc(f->v, cap * sizeof(*v));
                if (!v)
                        return -ENOMEM;
                f->v = v, f->cap = cap;
        }
        f->v[f->n].path = strdup(path);
        if (!f->v[f->n].path)
                return -ENOMEM;
        f->v[f->n++].mode = mode;
        return 0;
}

/* Children were added after parents: apply in reverse so a parent losing its
 * x bit does not lock us out of a child. A path replaced by a non-directory
 * (or symlink) since is skipped: O_NOFOLLOW|O_DIRECTORY refuses it. */
static int fixups_apply(struct fixups *f, int rootfd, sbx_error *reterr) {
        for (size_t i = f->n; i-- > 0;) {
                _cleanup_close_ int pfd = -EBADF, fd = -EBADF;
                const char *base;

                if (f->v[i].path[0] == '\0')
                        fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                else {
                        pfd = open_parent(rootfd, f->v[i].path, false, &base, NULL);
                        if (pfd < 0)
                                continue;
                        fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                }
                if (fd < 0)
                        continue;
                if (fchmod(fd, f->v[i].mode) < 0)
                        return sbx_error_set(reterr, -errno, "chmod '%s': %s", f->v[i].path,
                                             strerror(errno));
        }
        return 0;
}

static int write_all(int fd, const void *buf, size_t len) {
        const char *p = buf;

        while (len > 0) {
                ssize_t k = write(fd, p, len);
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += k, len -= (size_t) k;
        }
        return 0;
}

struct extract_ctx {
        struct archive *a;
        int rootfd;
        const struct sbx_extract_opts *o;
        struct sbx_extract_stats *stats;
        uint64_t unpacked_before; /* stats->unpacked when this archive began */
        struct fixups fix;
};

/* The limit of unpacked bytes, checked after every header and data block:
 * a compression bomb (a few MB of gzip or xz that inflate to terabytes of
 * tar) is stopped at the limit, whether the bytes are a file's data or
 * anything libarchive would otherwise skip on its own (an entry's data
 * sbx does not write: it is read here, block by block, see drain). */
static int check_unpacked(struct extract_ctx *c, sbx_error *reterr) {
        la_int64_t k = archive_filter_bytes(c->a, 0);

        c->stats->unpacked = c->unpacked_before + (k > 0 ? (uint64_t) k : 0);
        if (c->o->max_unpacked && c->stats->unpacked > c->o->max_unpacked)
                return sbx_error_set(reterr, -EFBIG,
                                     "more than %" PRIu64 " bytes unpacked (the limit of unpacked bytes, "
                                     "--max-bytes): refused, nothing imported",
                                     c->o->max_unpacked);
        return 0;
}

/* Read what is left of the entry's data, against the limit. */
static int drain(struct extract_ctx *c, const char *rel, sbx_error *reterr) {
        const void *buf;
        size_t len;
        la_int64_t off;
        int k, r;

        while ((k = archive_read_data_block(c->a, &buf, &len, &off)) == ARCHIVE_OK)
                if ((r = check_unpacked(c, reterr)) < 0)
                        return r;
        if (k != ARCHIVE_EOF)
                return sbx_error_set(reterr, -EBADMSG, "truncated or corrupt data in '%s': %s", rel,
                                     archive_error_string(c->a));
        return 0;
}

static void notice(const struct extract_ctx *c, const char *what, const char *rel, const char *why) {
        char msg[400], pb[300];

        if (!c->o->report)
                return;
        snprintf(msg, sizeof(msg), "%s /%s%s", what, printable(rel, pb, sizeof(pb)), why);
        sbx_progress_emit(c->o->progress, SBX_PROGRESS_NOTICE, "extract", 0, 0, 0, msg);
}

static int extract_file(struct extract_ctx *c, struct archive_entry *e, int pfd, const char *base,
                        const char *rel, mode_t perms, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        struct timespec ts[2] = {};
        const void *buf;
        size_t len;
        la_int64_t off;
        int r, k;

        r = sbx_tree_rm_rf_at(pfd, base);
        if (r < 0)
                return sbx_error_set(reterr, r, "replace '%s'", rel);
        fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "create '%s': %s", rel, strerror(errno));
        /* Block by block at the offsets the archive gives: a sparse entry
         * (GNU/pax sparse) keeps its holes. archive_read_data() filled them
         * with zeros, so a 20 KiB archive declaring a 1 TB sparse file wrote
         * 1 TB into the store. The size is set last (a hole at the end). */
        while ((k = archive_read_data_block(c->a, &buf, &len, &off)) == ARCHIVE_OK) {
                if (off < 0 || (uint64_t) off > (uint64_t) INT64_MAX - len)
                        return sbx_error_set(reterr, -EBADMSG, "corrupt data offset in '%s'", rel);
                if (len > 0 && lseek(fd, (off_t) off, SEEK_SET) < 0)
                        return sbx_error_set(reterr, -errno, "write '%s': %s", rel, strerror(errno));
                r = write_all(fd, buf, len);
                if (r < 0)
                        return sbx_error_set(reterr, r, "write '%s'", rel);
                c->stats->bytes += (uint64_t) len;
                if ((r = check_unpacked(c, reterr)) < 0)
                        return r;
        }
        if (k != ARCHIVE_EOF)
                return sbx_error_set(reterr, -EBADMSG, "truncated or corrupt data in '%s': %s", rel,
                                     archive_error_string(c->a));
        if (archive_entry_size_is_set(e) && archive_entry_size(e) >= 0 &&
            ftruncate(fd, (off_t) archive_entry_size(e)) < 0)
                return sbx_error_set(reterr, -errno, "size of '%s': %s", rel, strerror(errno));
        if (perms & (S_ISUID | S_ISGID)) {
                c->stats->setid_stripped++;
                notice(c, "stripped setuid/setgid bits from", rel, "");
                perms &= ~(mode_t) (S_ISUID | S_ISGID);
        }
        if (c->o->keep_owner && fchown(fd, archive_entry_uid(e), archive_entry_gid(e)) < 0)
                return sbx_error_set(reterr, -errno, "chown '%s': %s", rel, strerror(errno));
        if (fchmod(fd, perms) < 0)
                return sbx_error_set(reterr, -errno, "chmod '%s': %s", rel, strerror(errno));
        ts[0].tv_nsec = UTIME_OMIT;
        ts[1].tv_sec = archive_entry_mtime(e);
        ts[1].tv_nsec = archive_entry_mtime_nsec(e);
        (void) futimens(fd, ts);
        return 0;
}

static int extract_dir(struct extract_ctx *c, struct archive_entry *e, int pfd, const char *base,
                       const char *rel, mode_t perms, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;
        int r;

        perms &= ~(mode_t) S_ISUID;
        if (mkdirat(pfd, base, 0700) < 0) {
                if (errno != EEXIST)
                        return sbx_error_set(reterr, -errno, "mkdir '%s': %s", rel, strerror(errno));
                if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        return sbx_error_set(reterr, -errno, "stat '%s': %s", rel, strerror(errno));
                if (!S_ISDIR(st.st_mode)) {
                        r = sbx_tree_rm_rf_at(pfd, base);
                        if (r < 0 || mkdirat(pfd, base, 0700) < 0)
                                return sbx_error_set(reterr, r < 0 ? r : -errno, "replace '%s'", rel);
                }
        }
        fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "open '%s': %s", rel, strerror(errno));
        if (c->o->keep_owner && fchown(fd, archive_entry_uid(e), archive_entry_gid(e)) < 0)
                return sbx_error_set(reterr, -errno, "chown '%s': %s", rel, strerror(errno));
        if (fchmod(fd, perms | 0700) < 0)
                return sbx_error_set(reterr, -errno, "chmod '%s': %s", rel, strerror(errno));
        if ((perms & 0700) != 0700 && fixups_add(&c->fix, rel, perms) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return 0;
}

static int extract_hardlink(struct extract_ctx *c, const char *target, int pfd, const char *base,
                            const char *rel, sbx_error *reterr) {
        _cleanup_close_ int tpfd = -EBADF;
        char trel[PATH_MAX], pb[160];
        const char *tbase;
        int r;

        r = sbx_path_normalize(target, trel, sizeof(trel), reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "hard link '%s'", rel);
        if (trel[0] == '\0' || !strcmp(trel, rel))
                return sbx_error_set(reterr, -EPERM, "hard link '%s' points at itself or the root", rel);
        tpfd = open_parent(c->rootfd, trel, false, &tbase, reterr);
        if (tpfd == -ENOENT)
                return sbx_error_set(reterr, -ENOENT,
                                     "hard link '%s' -> '%s': target is not an earlier entry of %s", rel,
                                     printable(trel, pb, sizeof(pb)), c->o->what);
        if (tpfd < 0)
                return sbx_error_wrap(reterr, "hard link '%s'", rel);
        r = sbx_tree_rm_rf_at(pfd, base);
        if (r < 0)
                return sbx_error_set(reterr, r, "replace '%s'", rel);
        if (linkat(tpfd, tbase, pfd, base, 0) < 0) {
                if (errno == ENOENT)
                        return sbx_error_set(reterr, -ENOENT,
                                             "hard link '%s' -> '%s': target is not an earlier entry of %s",
                                             rel, printable(trel, pb, sizeof(pb)), c->o->what);
                return sbx_error_set(reterr, -errno, "hard link '%s' -> '%s': %s", rel,
                                     printable(trel, pb, sizeof(pb)), strerror(errno));
        }
        return 0;
}

/* A whiteout ".wh.X" may hide any X but "", "." and "..". */
static bool whiteout_target_valid(const char *name) {
        const char *t;

        if (strncmp(name, ".wh.", 4))
                return true;
        t = name + 4;
        return *t && strcmp(t, ".") && strcmp(t, "..");
}

static int extract_entry(struct extract_ctx *c, struct archive_entry *e, sbx_error *reterr) {
        _cleanup_close_ int pfd = -EBADF;
        char rel[PATH_MAX];
        const char *base, *hl, *lt;
        mode_t perms = archive_entry_perm(e) & 07777;
        int r;

        r = sbx_path_normalize(archive_entry_pathname(e), rel, sizeof(rel), reterr);
        if (r < 0)
                return r;
        if (rel[0] == '\0')
                return 0; /* "./": the root itself keeps our mode */
        pfd = open_parent(c->rootfd, rel, true, &base, reterr);
        if (pfd < 0)
                return pfd;
        /* ".wh." + "", "." or ".." would name the directory itself or its
         * parent when the whiteout is applied. */
        if (!whiteout_target_valid(base))
                return sbx_error_set(reterr, -EPERM, "whiteout '%s' names no entry: refused", rel);
        hl = archive_entry_hardlink(e);
        if (hl)
                return extract_hardlink(c, hl, pfd, base, rel, reterr);

        switch (archive_entry_filetype(e)) {
        case AE_IFREG:
                return extract_file(c, e, pfd, base, rel, perms, reterr);
        case AE_IFDIR:
                return extract_dir(c, e, pfd, base, rel, perms, reterr);
        case AE_IFLNK:
                lt = archive_entry_symlink(e);
                if (!lt || !*lt)
                        return sbx_error_set(reterr, -EBADMSG, "symlink '%s' has no target", rel);
                r = sbx_tree_rm_rf_at(pfd, base);
                if (r < 0)
                        return sbx_error_set(reterr, r, "replace '%s'", rel);
                if (symlinkat(lt, pfd, base) < 0)
                        return sbx_error_set(reterr, -errno, "symlink '%s': %s", rel, strerror(errno));
                if (c->o->keep_owner &&
                    fchownat(pfd, base, archive_entry_uid(e), archive_entry_gid(e), AT_SYMLINK_NOFOLLOW) < 0)
                        return sbx_error_set(reterr, -errno, "chown '%s': %s", rel, strerror(errno));
                return 0;
        case AE_IFIFO:
                r = sbx_tree_rm_rf_at(pfd, base);
                if (r < 0 || mkfifoat(pfd, base, perms & 0777) < 0)
                        return sbx_error_set(reterr, r < 0 ? r : -errno, "mkfifo '%s'", rel);
                if (c->o->keep_owner &&
                    fchownat(pfd, base, archive_entry_uid(e), archive_entry_gid(e), AT_SYMLINK_NOFOLLOW) < 0)
                        return sbx_error_set(reterr, -errno, "chown '%s': %s", rel, strerror(errno));
                return 0;
        case AE_IFCHR:
        case AE_IFBLK:
                c->stats->devices_skipped++;
                notice(c, "skipped device node", rel, " (the sandbox gets its own /dev)");
                return 0;
        case AE_IFSOCK:
                notice(c, "skipped socket", rel, "");
                return 0;
        default:
                return sbx_error_set(reterr, -EBADMSG, "entry '%s' has an unknown type", rel);
        }
}

int sbx_extract(struct archive *a, int rootfd, const struct sbx_extract_opts *o,
                struct sbx_extract_stats *stats, sbx_error *reterr) {
        struct extract_ctx c = {.a = a, .rootfd = rootfd, .o = o, .stats = stats,
                                .unpacked_before = stats->unpacked};
        struct archive_entry *e;
        int r = 0, k;

        for (;;) {
                k = archive_read_next_header(a, &e);
                if (k == ARCHIVE_EOF)
                        break;
                if (k != ARCHIVE_OK && k != ARCHIVE_WARN) {
                        r = sbx_error_set(reterr, -EBADMSG, "%s is malformed or truncated: %s", o->what,
                                          archive_error_string(a) ?: "unreadable header");
                        goto out;
                }
                if (o->max_entries && stats->entries >= o->max_entries)
                        r = sbx_error_set(reterr, -EFBIG,
                                          "more than %" PRIu64 " entries (the limit of archive entries, "
                                          "--max-entries): refused, nothing imported",
                                          o->max_entries);
                if (r >= 0)
                        r = check_unpacked(&c, reterr);
                if (r >= 0)
                        r = extract_entry(&c, e, reterr);
                if (r >= 0)
                        r = drain(&c, archive_entry_pathname(e) ?: "", reterr);
                if (r < 0) {
                        sbx_error_wrap(reterr, "%s", o->what);
                        goto out;
                }
                stats->entries++;
        }
        if (stats->entries == 0) {
                r = sbx_error_set(reterr, -EBADMSG, "%s is empty or not a tar archive", o->what);
                goto out;
        }
        r = fixups_apply(&c.fix, rootfd, reterr);
out:
        fixups_done(&c.fix);
        return r;
}

/* ---- layer application ---- */

struct apply_ctx {
        bool keep_owner;
        struct fixups fix;
        char path[PATH_MAX];
};

static int copy_entry(int srcfd, int dstfd, const char *name, const struct stat *st, bool keep_owner) {
        if (S_ISREG(st->st_mode)) {
                _cleanup_close_ int in = openat(srcfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                _cleanup_close_ int out = -EBADF;
                int r;

                if (in < 0)
                        return -errno;
                out = openat(dstfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (out < 0)
                        return -errno;
                r = sbx_copy_sparse(in, out);   /* a sparse file of the image stays sparse */
                if (r < 0)
                        return r;
                if (keep_owner && fchown(out, st->st_uid, st->st_gid) < 0)
                        return -errno;
                if (fchmod(out, st->st_mode & 07777) < 0)
                        return -errno;
                (void) futimens(out, (struct timespec[2]){st->st_atim, st->st_mtim});
                return 0;
        }
        if (S_ISLNK(st->st_mode)) {
                char target[PATH_MAX + 1];
                ssize_t k = readlinkat(srcfd, name, target, sizeof(target) - 1);

                if (k < 0)
                        return -errno;
                target[k] = '\0';
                if (symlinkat(target, dstfd, name) < 0)
                        return -errno;
        } else if (S_ISFIFO(st->st_mode)) {
                if (mkfifoat(dstfd, name, st->st_mode & 0777) < 0)
                        return -errno;
        } else
                return 0;
        if (keep_owner && fchownat(dstfd, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0)
                return -errno;
        return 0;
}

static int apply_dir(struct apply_ctx *c, int srcfd, int dstfd, size_t plen, unsigned depth,
                     sbx_error *reterr);
static int apply_subdir_contents(struct apply_ctx *c, int s, int d, const struct stat *st, size_t plen,
                                 unsigned depth, sbx_error *reterr);

static int apply_subdir(struct apply_ctx *c, int srcfd, int dstfd, const char *name, const struct stat *st,
                        size_t plen, unsigned depth, sbx_error *reterr) {
        _cleanup_close_ int s = -EBADF, d = -EBADF;
        struct stat dst;
        int r;

        if (fstatat(dstfd, name, &dst, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(dst.st_mode)) {
                r = sbx_tree_rm_rf_at(dstfd, name);
                if (r < 0)
                        return sbx_error_set(reterr, r, "replace '%s'", c->path);
        }
        if (mkdirat(dstfd, name, 0700) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "mkdir '%s': %s", c->path, strerror(errno));
        s = openat(srcfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        d = openat(dstfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (s < 0 || d < 0)
                return sbx_error_set(reterr, -errno, "open '%s': %s", c->path, strerror(errno));
        /* Unprivileged, a layer directory without u+rx (its recorded mode)
         * cannot be read: lend ourselves the bits for the walk, then restore. */
        if (geteuid() != 0 && (st->st_mode & 0500) != 0500) {
                if (fchmod(s, (st->st_mode & 07777) | 0500) < 0)
                        return sbx_error_set(reterr, -errno, "chmod layer directory '%s': %s", c->path,
                                             strerror(errno));
                r = apply_subdir_contents(c, s, d, st, plen, depth, reterr);
                (void) fchmod(s, st->st_mode & 07777);
                return r;
        }
        return apply_subdir_contents(c, s, d, st, plen, depth, reterr);
}

static int apply_subdir_contents(struct apply_ctx *c, int s, int d, const struct stat *st, size_t plen,
                                 unsigned depth, sbx_error *reterr) {
        if (c->keep_owner && fchown(d, st->st_uid, st->st_gid) < 0)
                return sbx_error_set(reterr, -errno, "chown '%s': %s", c->path, strerror(errno));
        if (fchmod(d, (st->st_mode & 07777) | 0700) < 0)
                return sbx_error_set(reterr, -errno, "chmod '%s': %s", c->path, strerror(errno));
        if ((st->st_mode & 0700) != 0700 && fixups_add(&c->fix, c->path, st->st_mode & 07777) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return apply_dir(c, s, d, plen, depth + 1, reterr);
}

/* A DIR stream of its own on the directory DFD (at PATH, DEPTH levels down, at most MAX). */
static int open_dir(int dfd, unsigned depth, unsigned max, const char *path, DIR **ret, sbx_error *reterr) {
        int fd;

        if (depth > max)
                return sbx_error_set(reterr, -ELOOP, "'%s' is nested too deeply", path);
        fd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
        if (fd < 0 || !(*ret = fdopendir(fd))) {
                if (fd >= 0)
                        close(fd);
                return sbx_error_set(reterr, -errno, "read '%s': %s", path, strerror(errno));
        }
        return 0;
}

static bool is_whiteout(const char *n) {
        return !strncmp(n, ".wh.", 4);
}

static int apply_dir(struct apply_ctx *c, int srcfd, int dstfd, size_t plen, unsigned depth,
                     sbx_error *reterr) {
        _cleanup_closedir_ DIR *d = NULL;
        struct dirent *de;
        int r;

        r = open_dir(srcfd, depth, SBX_TREE_DEPTH_MAX, c->path, &d, reterr);
        if (r < 0)
                return r;
        /* Pass 1: whiteouts hide lower layers only, so they go first; an
         * opaque marker empties the directory, ".wh.NAME" removes NAME. */
        while ((de = readdir(d)))
                if (!strcmp(de->d_name, ".wh..wh..opq")) {
                        _cleanup_closedir_ DIR *dd = NULL;
                        struct dirent *x;
                        int dfd = fcntl(dstfd, F_DUPFD_CLOEXEC, 3);

                        if (dfd < 0 || !(dd = fdopendir(dfd)))
                                return sbx_error_set(reterr, -errno, "opaque '%s': %s", c->path,
                                                     strerror(errno));
                        while ((x = readdir(dd)))
                                if (strcmp(x->d_name, ".") && strcmp(x->d_name, "..") &&
                                    (r = sbx_tree_rm_rf_at(dstfd, x->d_name)) < 0)
                                        return sbx_error_set(reterr, r, "opaque '%s'", c->path);
                }
        rewinddir(d);
        while ((de = readdir(d)))
                if (is_whiteout(de->d_name) && strncmp(de->d_name, ".wh..wh.", 8)) {
                        if (!whiteout_target_valid(de->d_name)) /* extraction refuses these */
                                return sbx_error_set(reterr, -EPERM, "whiteout '%s/%s' names no entry",
                                                     c->path, de->d_name);
                        r = sbx_tree_rm_rf_at(dstfd, de->d_name + 4);
                        if (r < 0)
                                return sbx_error_set(reterr, r, "whiteout '%s/%s'", c->path, de->d_name);
                }
        /* Pass 2: everything else replaces what the lower layers had. */
        rewinddir(d);
        while ((de = readdir(d))) {
                struct stat st;
                size_t nl = strlen(de->d_name);

                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || is_whiteout(de->d_name))
                        continue;
                if (plen + nl + 2 > sizeof(c->path))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "path under '%s' too long", c->path);
                if (plen > 0)
                        c->path[plen] = '/';
                memcpy(c->path + plen + (plen > 0), de->d_name, nl + 1);
                if (fstatat(srcfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        return sbx_error_set(reterr, -errno, "stat '%s': %s", c->path, strerror(errno));
                if (S_ISDIR(st.st_mode))
                        r = apply_subdir(c, srcfd, dstfd, de->d_name, &st, plen + nl + (plen > 0), depth,
                                         reterr);
                else {
                        r = sbx_tree_rm_rf_at(dstfd, de->d_name);
                        if (r >= 0 && linkat(srcfd, de->d_name, dstfd, de->d_name, 0) < 0)
                                r = copy_entry(srcfd, dstfd, de->d_name, &st, c->keep_owner);
                        if (r < 0)
                                r = sbx_error_set(reterr, r, "apply '%s'", c->path);
                }
                c->path[plen] = '\0';
                if (r < 0)
                        return r;
        }
        return 0;
}

int sbx_tree_apply_layer(int srcfd, int dstfd, bool keep_owner, sbx_error *reterr) {
        struct apply_ctx c = {.keep_owner = keep_owner};
        int r;

        r = apply_dir(&c, srcfd, dstfd, 0, 0, reterr);
        if (r >= 0)
                r = fixups_apply(&c.fix, dstfd, reterr);
        fixups_done(&c.fix);
        return r;
}

/* ---- walking ---- */

struct walk_ctx {
        int (*fn)(const char *path, const struct stat *st, void *userdata);
        void *userdata;
        char path[PATH_MAX];
};

static int walk_dir(struct walk_ctx *c, int dfd, size_t plen, unsigned depth, sbx_error *reterr) {
        _cleanup_closedir_ DIR *d = NULL;
        struct dirent *de;
        int r;

        r = open_dir(dfd, depth, 4 * SBX_TREE_DEPTH_MAX, c->path, &d, reterr);
        if (r < 0)
                return r;
        while ((de = readdir(d))) {
                struct stat st;
                size_t nl = strlen(de->d_name);

                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (plen + nl + 2 > sizeof(c->path))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "path under '%s' too long", c->path);
                c->path[plen] = '/';
                memcpy(c->path + plen + 1, de->d_name, nl + 1);
                if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        return sbx_error_set(reterr, -errno, "stat '%s': %s", c->path, strerror(errno));
                r = c->fn(c->path, &st, c->userdata);
                if (r >= 0 && S_ISDIR(st.st_mode)) {
                        _cleanup_close_ int sub =
                                openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (sub < 0)
                                return sbx_error_set(reterr, -errno, "open '%s': %s", c->path,
                                                     strerror(errno));
                        r = walk_dir(c, sub, plen + 1 + nl, depth + 1, reterr);
                }
                c->path[plen] = '\0';
                if (r < 0)
                        return r;
        }
        return 0;
}

int sbx_tree_walk(int rootfd, int (*fn)(const char *path, const struct stat *st, void *userdata),
                  void *userdata, sbx_error *reterr) {
        struct walk_ctx c = {.fn = fn, .userdata = userdata};

        return walk_dir(&c, rootfd, 0, 0, reterr);
}

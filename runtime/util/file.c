/* SPDX-License-Identifier: MIT */
/* Whole files: read one that must be a regular file of bounded size; write one so that a reader
 * sees the old content or the new, never a part. And a process's fds: all closed but a few. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

int sbx_read_file(const char *what, const char *path, size_t max, char **ret, size_t *ret_len,
                  sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;

        /* O_NONBLOCK: a FIFO (or a device) named here fails the check
         * below instead of blocking the open */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "cannot open %s '%s': %m", what, path);
        return sbx_read_fd(what, path, fd, max, ret, ret_len, reterr);
}

int sbx_open_trusted(int pfd, bool others_read) {
        char proc[64];
        struct stat st;
        int fd;

        if (pfd < 0)
                return -1;
        if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
            (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022) || (others_read && !(st.st_mode & S_IROTH))) {
                close(pfd);
                return -1;
        }
        /* the same inode, now for reading (O_NONBLOCK: never blocks) */
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
        fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        close(pfd);
        return fd < 0 ? -1 : fd;
}

int sbx_read_fd(const char *what, const char *path, int fd, size_t max, char **ret, size_t *ret_len,
                sbx_error *reterr) {
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        size_t len = 0, cap;

        if (fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "cannot stat %s '%s': %m", what, path);
        if (!S_ISREG(st.st_mode))
                return sbx_error_set(reterr, -EINVAL, "%s '%s' is not a regular file", what, path);
        if (st.st_size > (off_t) max)
                return sbx_error_set(reterr, -EFBIG, "%s '%s' is larger than %zu bytes", what, path, max);
        /* one byte more than the size: a file that grows meanwhile is seen to */
        cap = (size_t) st.st_size + 1;
        buf = malloc(cap + 1);
        if (!buf)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        for (;;) {
                ssize_t n;

                if (len == cap) {
                        size_t more = cap * 2 > max + 1 ? max + 1 : cap * 2;
                        char *b = realloc(buf, more + 1);

                        if (!b)
                                return sbx_error_set(reterr, -ENOMEM, "out of memory");
                        buf = b;
                        cap = more;
                }
                n = read(fd, buf + len, cap - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return sbx_error_set(reterr, -errno, "cannot read %s '%s': %m", what, path);
                if (n == 0)
                        break;
                len += (size_t) n;
                if (len > max)
                        return sbx_error_set(reterr, -EFBIG, "%s '%s' is larger than %zu bytes", what, path,
                                             max);
        }
        buf[len] = '\0';
        *ret = TAKE_PTR(buf);
        *ret_len = len;
        return 0;
}

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
/* chmod NAME in DIRFD itself, never what a symlink there points at. Linux < 6.6 has no
 * fchmodat2 (Debian 12's own kernel is 6.1): glibc's fchmodat with AT_SYMLINK_NOFOLLOW then
 * opens the entry O_PATH|O_NOFOLLOW, refuses a symlink (EOPNOTSUPP) and chmods the inode it
 * holds through /proc/self/fd, so a swap after the open changes nothing. */
int sbx_chmod_entry_at(int dirfd, const char *name, mode_t mode) {
        if (syscall(SYS_fchmodat2, dirfd, name, mode, AT_SYMLINK_NOFOLLOW) == 0)
                return 0;
        if (errno != ENOSYS)
                return -errno;
        return fchmodat(dirfd, name, mode, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

int sbx_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode, bool sync) {
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int fd = -EBADF;
        const char *base = strrchr(path, '/');
        int r = 0;

        /* the temporary file beside PATH (a rename does not cross file systems), hidden */
        if (asprintf(&tmp, "%.*s.%s.XXXXXX", base ? (int) (base + 1 - path) : 0, path,
                     base ? base + 1 : path) < 0)
                return -ENOMEM;
        fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return -errno;
        for (size_t off = 0; off < len && r == 0;) {
                ssize_t k = write(fd, (const char *) data + off, len - off);

                if (k < 0 && errno != EINTR)
                        r = -errno;
                else if (k > 0)
                        off += (size_t) k;
        }
        if (r == 0 && (fchmod(fd, mode) < 0 || (sync && fdatasync(fd) < 0) || rename(tmp, path) < 0))
                r = -errno;
        if (r < 0)
                (void) unlink(tmp);
        return r;
}

/* Close every fd but keep[] (>= 3). */
void sbx_close_all_but(const int *keep, size_t n) {
        int lo = 3;

        for (;;) {
                int next = -1;
                for (size_t i = 0; i < n; i++)
                        if (keep[i] >= lo && (next < 0 || keep[i] < next))
                                next = keep[i];
                if (next < 0) {
                        (void) close_range((unsigned) lo, ~0U, 0);
                        return;
                }
                if (next > lo)
                        (void) close_range((unsigned) lo, (unsigned) next - 1, 0);
                lo = next + 1;
        }
}

long sbx_read_sysctl(const char *path) {
        char buf[24] = {};
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

        if (fd >= 0)
                close(fd);
        return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* ---------------------------------------------------------------- sparse copy */

static int pwrite_all(int to, const char *buf, size_t n, off_t off) {
        while (n > 0) {
                ssize_t w = pwrite(to, buf, n, off);
                if (w < 0)
                        return -errno;
                buf += w, n -= (size_t) w, off += w;
        }
        return 0;
}

int sbx_copy_sparse(int from, int to) {
        char buf[65536];
        struct stat st;
        off_t data = 0, hole, end;

        if (fstat(from, &st) < 0)
                return -errno;
        end = st.st_size;
        while (data < end) {
                data = lseek(from, data, SEEK_DATA);
                if (data < 0) {
                        if (errno == ENXIO)     /* no data after this: a hole to the end */
                                break;
                        return -errno;
                }
                hole = lseek(from, data, SEEK_HOLE);
                if (hole < 0)
                        return -errno;
                if (hole > end)
                        hole = end;
                for (off_t off = data; off < hole;) {
                        size_t want = (size_t) (hole - off) < sizeof(buf) ? (size_t) (hole - off) : sizeof(buf);
                        ssize_t n = pread(from, buf, want, off);
                        int r;
                        if (n < 0)
                                return -errno;
                        if (n == 0) {   /* cut short meanwhile (its writer is running) */
                                end = off;
                                hole = off;
                                break;
                        }
                        r = pwrite_all(to, buf, (size_t) n, off);
                        if (r < 0)
                                return r;
                        off += n;
                }
                data = hole;
        }
        return RET_NERRNO(ftruncate(to, end));
}

/* SPDX-License-Identifier: MIT */
/* A host mount source (--workspace, --bind, docker -v) resolved with no
 * symlink in any component.
 *
 * Why: a sandbox (or another one) can write directories that lie on a
 * source's path: an operator's bind below an rw workspace, an agent's
 * workspace below a shared scope's workspaceRoot. Replacing a directory
 * there with a symlink redirected the mount to any host path (realpath
 * followed it; only a symlink as the last component was refused). The path
 * is now opened once, from /, with openat2(RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS), and the canonical path is read back from that fd
 * (/proc/self/fd/N): the object checked is the object named, and the
 * launcher reopens that name following no symlink again (mount.c), so a link
 * planted later is refused there. The one exception is the system's own
 * links (Debian's /bin -> usr/bin, /lib64, /var/run -> /run, /var/lock): a
 * link directly in /, /usr or /var, owned by root, in a directory owned by
 * root that no one else can write. No sandbox can plant one there (a
 * workspace or bind of those directories themselves is refused by bind
 * safety and never handed out rw by sbx), so the trusted parent replaces it
 * by its target and walks on, as docker -v does for such paths. Any other
 * link (a symlinked home, a link below a workspace) is not guessed at: the
 * error names the link and the path without links to give instead;
 * openclaw.json's roots are canonicalised when they are read
 * (runtime/agent/run-policy.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"

/* The first component of abs (absolute) that is a symlink, and its target. */
static bool first_link(const char *abs, char *link, size_t len, char *target, size_t tlen) {
        size_t n = strlen(abs);

        if (n >= len)
                return false;
        memcpy(link, abs, n + 1);
        for (char *p = link + 1;; p++) {
                if (*p == '/' || *p == '\0') {
                        char save = *p;
                        struct stat st;
                        *p = '\0';
                        if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode)) {
                                ssize_t k = readlink(link, target, tlen - 1);
                                target[k < 0 ? 0 : k] = '\0';
                                return true;
                        }
                        *p = save;
                        if (save == '\0')
                                return false;
                }
        }
}

/* A system link: directly in /, /usr or /var (the link's parent), the link
 * and that directory owned by root, the directory not group/other-writable. */
static bool system_link(const char *link) {
        static const char *const dirs[] = { "/", "/usr", "/var" };
        char parent[PATH_MAX];
        const char *slash = strrchr(link, '/');
        struct stat st, dst;
        size_t n;

        if (!slash)
                return false;
        n = slash == link ? 1 : (size_t) (slash - link);
        if (n >= sizeof(parent))
                return false;
        memcpy(parent, link, n);
        parent[n] = '\0';
        for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
                if (strcmp(parent, dirs[i]) != 0)
                        continue;
                return lstat(parent, &dst) == 0 && S_ISDIR(dst.st_mode) && dst.st_uid == 0 &&
                       !(dst.st_mode & (S_IWGRP | S_IWOTH)) && lstat(link, &st) == 0 &&
                       S_ISLNK(st.st_mode) && st.st_uid == 0;
        }
        return false;
}

/* abs with its first component link (a system link, target its text)
 * replaced by the target: absolute as is, relative to the link's parent. */
static bool replace_link(char *abs, size_t len, const char *link, const char *target) {
        char out[PATH_MAX];
        const char *rest = abs + strlen(link);
        int k;

        if (target[0] == '/')
                k = snprintf(out, sizeof(out), "%s%s", target, rest);
        else {
                const char *slash = strrchr(link, '/');
                int plen = slash == link ? 0 : (int) (slash - link);
                k = snprintf(out, sizeof(out), "%.*s/%s%s", plen, link, target, rest);
        }
        if (k < 0 || (size_t) k >= sizeof(out) || (size_t) k >= len)
                return false;
        memcpy(abs, out, (size_t) k + 1);
        return true;
}

int sbx_mount_source_resolve(const char *path, const char *opt, char **ret, sbx_error *reterr) {
        char abs[PATH_MAX], proc[64], canon[PATH_MAX + 1];
        _cleanup_close_ int fd = -EBADF;
        ssize_t k;

        if (!path || !path[0])
                return sbx_error_set(reterr, -EINVAL, "%s: empty path", opt);
        if (path[0] == '/') {
                if (snprintf(abs, sizeof(abs), "%s", path) >= (int) sizeof(abs))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "%s '%s': path too long", opt, path);
        } else {
                /* relative: to the caller's cwd, which getcwd gives without links */
                char cwd[PATH_MAX];
                if (!getcwd(cwd, sizeof(cwd)))
                        return sbx_error_set(reterr, -errno, "%s '%s': the current directory", opt, path);
                if (snprintf(abs, sizeof(abs), "%s/%s", cwd, path) >= (int) sizeof(abs))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "%s '%s': path too long", opt, path);
        }
        fd = sys_openat2(AT_FDCWD, abs, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        for (int hops = 0; fd < 0 && errno == ELOOP && hops < 8; hops++) {
                char link[PATH_MAX], target[PATH_MAX];
                if (!first_link(abs, link, sizeof(link), target, sizeof(target)) || !target[0] ||
                    !system_link(link) || !replace_link(abs, sizeof(abs), link, target)) {
                        errno = ELOOP;
                        break;
                }
                fd = sys_openat2(AT_FDCWD, abs, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        }
        if (fd < 0 && errno == ELOOP) {
                char link[PATH_MAX], target[PATH_MAX];
                _cleanup_free_ char *real = realpath(abs, NULL);
                if (!first_link(abs, link, sizeof(link), target, sizeof(target)))
                        snprintf(link, sizeof(link), "%s", abs), target[0] = '\0';
                return sbx_error_set(reterr, -ELOOP,
                                     "%s '%s': '%s' is a symbolic link (to '%s'): a mount source is never reached "
                                     "through a symlink in any component, which a sandbox may have planted in a "
                                     "directory it can write; give the path without links%s%s%s",
                                     opt, path, link, target, real ? " ('" : "", real ? real : "",
                                     real ? "', if that link is yours)" : "");
        }
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "%s '%s': %s", opt, path, strerror(errno));
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
        k = readlink(proc, canon, sizeof(canon) - 1);
        if (k <= 0 || k >= (ssize_t) sizeof(canon) - 1 || canon[0] != '/')
                return sbx_error_set(reterr, k < 0 ? -errno : -ENAMETOOLONG, "%s '%s': read its canonical path",
                                     opt, path);
        canon[k] = '\0';
        *ret = strdup(canon);
        return *ret ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
}

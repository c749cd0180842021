/* SPDX-License-Identifier: MIT */
/* Landlock: see landlock.h. Kernel documentation:
 * https://docs.kernel.org/userspace-api/landlock.html */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "security.h"
#include "util/util.h"

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

/* Every right that changes the file system, by the ABI that introduced it. */
static uint64_t write_rights(int abi) {
        uint64_t w = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                     LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                     LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                     LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                     LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;

        if (abi >= 2)
                w |= LANDLOCK_ACCESS_FS_REFER;
        if (abi >= 3)
                w |= LANDLOCK_ACCESS_FS_TRUNCATE;
        return w;
}

void sbx_landlock_init(sbx_landlock *l) {
        *l = (sbx_landlock) { .ruleset_fd = -EBADF };
}

int sbx_landlock_abi(void) {
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        return abi < 0 ? -errno : (int) abi;
}

const char *sbx_landlock_describe(const sbx_landlock_request *req, char *buf, unsigned len) {
        snprintf(buf, len, "%s%s%s", req->read_only_fs ? "read-only file system (--read-only-fs)" : "",
                 req->read_only_fs && req->exec_restrict ? ", " : "",
                 req->exec_restrict ? "exec allowlist (--exec-allow)" : "");
        return buf;
}

static int add_beneath(int ruleset, int fd, uint64_t access) {
        struct landlock_path_beneath_attr attr = { .allowed_access = access, .parent_fd = fd };
        return RET_NERRNO(syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0));
}

int sbx_landlock_prepare(sbx_landlock *l, const sbx_landlock_request *req, sbx_error *reterr) {
        struct landlock_ruleset_attr attr = {};
        char what[128];
        int abi, fd, r;

        if (!req->read_only_fs && !req->exec_restrict)
                return 0;
        sbx_landlock_describe(req, what, sizeof(what));
        abi = sbx_landlock_abi();
        if (abi < 1) {
                /* Never silently weaker: refuse, or say exactly what is lost. */
                if (!req->best_effort)
                        return sbx_error_set(reterr, abi < 0 ? abi : -EOPNOTSUPP,
                                             "landlock: not available, cannot enforce %s "
                                             "(--landlock best-effort runs without them)", what);
                snprintf(l->unenforced, sizeof(l->unenforced), "%s", what);
                return 0;
        }
        l->abi = abi;
        l->write_rights = req->read_only_fs ? write_rights(abi) : 0;
        attr.handled_access_fs = l->write_rights | (req->exec_restrict ? LANDLOCK_ACCESS_FS_EXECUTE : 0);
        l->handled = attr.handled_access_fs;
        fd = (int) syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "landlock: create ruleset");
        l->ruleset_fd = fd;     /* created with O_CLOEXEC by the kernel */
        /* EXECUTE on the allowlisted files (and loaders): inode rules, so they
         * hold through every bind of the same file in the sandbox. */
        for (unsigned i = 0; i < req->n_exec_files; i++) {
                r = add_beneath(fd, req->exec_files[i], LANDLOCK_ACCESS_FS_EXECUTE);
                if (r < 0)
                        return sbx_error_set(reterr, r, "landlock: add the execute rule #%u", i);
        }
        for (unsigned i = 0; i < req->n_exec_dirs; i++) {
                r = add_beneath(fd, req->exec_dirs[i], LANDLOCK_ACCESS_FS_EXECUTE);
                if (r < 0)
                        return sbx_error_set(reterr, r, "landlock: add the execute rule for dir #%u", i);
        }
        if (!req->read_only_fs)
                l->n_writable = 0;
        return 0;
}

int sbx_landlock_setup_child(const sbx_landlock *l, sbx_error *reterr) {
        int r;

        if (l->ruleset_fd < 0)
                return 0;
        /* The places that stay writable exist now (tmpfs mounted, root pivoted). */
        for (unsigned i = 0; i < l->n_writable; i++) {
                int fd = sys_openat2(AT_FDCWD, l->writable[i], O_PATH | O_DIRECTORY | O_CLOEXEC,
                                     RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
                if (fd < 0) {
                        if (l->writable_optional[i] && (errno == ENOENT || errno == ENOTDIR))
                                continue;
                        return sbx_error_set(reterr, -errno, "landlock: open the writable '%s'", l->writable[i]);
                }
                r = add_beneath(l->ruleset_fd, fd, l->write_rights);
                close(fd);
                if (r < 0)
                        return sbx_error_set(reterr, r, "landlock: add the write rule for '%s'", l->writable[i]);
        }
        /* The allowlisted files by path, as the sandbox sees them (overlays). */
        for (unsigned i = 0; i < l->n_exec_paths; i++) {
                int fd = sys_openat2(AT_FDCWD, l->exec_paths[i], O_PATH | O_CLOEXEC,
                                     RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
                if (fd < 0)
                        continue;       /* not there (the parent's inode rule still holds) */
                r = add_beneath(l->ruleset_fd, fd, LANDLOCK_ACCESS_FS_EXECUTE);
                close(fd);
                if (r < 0)
                        return sbx_error_set(reterr, r, "landlock: add the execute rule for '%s'", l->exec_paths[i]);
        }
        /* Needs no_new_privs (set before us); binds every later exec too. */
        if (syscall(SYS_landlock_restrict_self, l->ruleset_fd, 0) < 0)
                return sbx_error_set(reterr, -errno, "landlock: restrict_self");
        return 0;
}

void sbx_landlock_cleanup(sbx_landlock *l) {
        closep(&l->ruleset_fd);
        l->ruleset_fd = -EBADF;
}

/* SPDX-License-Identifier: MIT */
/* Landlock (issue 6): the derived file-system rules, enforced by the kernel
 * for the whole process tree of the sandbox.
 *
 *  - read-only file system: every write right is handled, and granted only
 *    beneath the tmpfs mounts and /dev, so writes to /workspace, binds and
 *    the root fail with EACCES even where the mount itself is read-write;
 *  - exec allowlist: LANDLOCK_ACCESS_FS_EXECUTE is handled, and granted only
 *    on the allowlisted files and the ELF loaders they need, so a copy of an
 *    allowed binary, a symlink to a denied one, a script whose interpreter is
 *    not allowed, a binary written into /tmp all fail with EACCES.
 *
 * sbx_landlock_prepare() (parent, before clone3) probes the ABI, creates the
 * ruleset and adds every rule for a file the parent can open (the exec
 * files, as the fds exec-resolve.c found). The writable places are tmpfs
 * mounts that exist only once the child has mounted them, so their rules
 * are added by sbx_landlock_setup_child() from paths fixed in the plan
 * (landlock_add_rule is one syscall, no allocation), then
 * landlock_restrict_self(): after no_new_privs, before seccomp. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define SBX_LANDLOCK_MAX_WRITABLE 64
#define SBX_LANDLOCK_MAX_EXEC 600

typedef struct sbx_landlock {
        int abi;                        /* probed: 0 = no Landlock */
        int ruleset_fd;                 /* -EBADF: nothing to enforce */
        uint64_t handled;               /* handled_access_fs */
        uint64_t write_rights;          /* granted beneath writable[] */
        const char *writable[SBX_LANDLOCK_MAX_WRITABLE];  /* sandbox paths (not owned) */
        bool writable_optional[SBX_LANDLOCK_MAX_WRITABLE];
        unsigned n_writable;
        /* EXECUTE again by canonical sandbox path, added in the child: the
         * parent's inode rules do not reach files seen through an overlay
         * (--image root, the /workspace overlay has its own inodes). */
        const char *exec_paths[SBX_LANDLOCK_MAX_EXEC];
        unsigned n_exec_paths;
        char unenforced[256];           /* best-effort without Landlock: the rules not enforced */
} sbx_landlock;

typedef struct sbx_landlock_request {
        bool read_only_fs;
        bool exec_restrict;
        const int *exec_files;          /* O_PATH fds granted EXECUTE (files) */
        unsigned n_exec_files;
        const int *exec_dirs;           /* O_PATH fds granted EXECUTE beneath (widened globs) */
        unsigned n_exec_dirs;
        bool best_effort;               /* --landlock best-effort */
} sbx_landlock_request;

void sbx_landlock_init(sbx_landlock *l);
/* The Landlock ABI version, or a negative errno (-ENOSYS, -EOPNOTSUPP). */
int sbx_landlock_abi(void);
/* Parent, before clone3. Refuses (-EOPNOTSUPP, naming the rules) when
 * Landlock is absent and the request is not best-effort; best-effort fills
 * l->unenforced instead. writable[] must be filled before (plan order). */
int sbx_landlock_prepare(sbx_landlock *l, const sbx_landlock_request *req, sbx_error *reterr);
/* Child, after no_new_privs, before seccomp; cwd-independent (paths are
 * absolute in the new root). Async-signal-safe, no allocation. */
int sbx_landlock_setup_child(const sbx_landlock *l, sbx_error *reterr);
void sbx_landlock_cleanup(sbx_landlock *l);
/* "read-only file system", "exec allowlist" as text, for explain/doctor. */
const char *sbx_landlock_describe(const sbx_landlock_request *req, char *buf, unsigned len);

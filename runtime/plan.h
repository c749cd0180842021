/* SPDX-License-Identifier: MIT */
/* The launch plan: everything the child needs, decided and allocated in the
 * parent before clone3 (STYLE §A.3). The child only reads it: no malloc, no
 * JSON, no libseccomp after clone. A later `sbx exec` builds an sbx_exec_plan
 * the same way and runs sbx_exec_setup_child() after setns(). */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"
#include "error.h"
#include "net.h"
#include "run-config.h"
#include "seccomp-filter.h"

typedef enum sbx_mount_kind {
        SBX_MOUNT_TMPFS,      /* fresh tmpfs at dst (data = options) */
        SBX_MOUNT_BIND,       /* clone of src_fd (recursive) at dst, flags applied recursively */
        SBX_MOUNT_DETACHED,   /* move the prepared detached tree src_fd (e.g. idmapped) to dst */
        SBX_MOUNT_OVERLAY,    /* overlay at dst, data = "lowerdir=..,upperdir=..,workdir=..,userxattr" */
        SBX_MOUNT_PROC,       /* proc of the new pid ns at dst */
        SBX_MOUNT_DEVPTS,     /* devpts newinstance at dst, plus dev/ptmx symlink */
        SBX_MOUNT_MQUEUE,     /* mqueue at dst */
        SBX_MOUNT_SYMLINK,    /* symlink dst -> data */
        SBX_MOUNT_DIR,        /* mkdir -p dst */
        SBX_MOUNT_FILE,       /* create dst with contents data (in a tmpfs we own) */
        SBX_MOUNT_MASK,       /* hide dst (/dev/null on files, empty ro tmpfs on dirs); skipped if absent */
        SBX_MOUNT_READONLY,   /* make the mount at dst read-only (bind onto itself); skipped if absent */
        _SBX_MOUNT_KIND_MAX,
        _SBX_MOUNT_KIND_INVALID = -EINVAL,
} sbx_mount_kind;

enum {
        SBX_MNT_RO       = 1 << 0,
        SBX_MNT_NOSUID   = 1 << 1,
        SBX_MNT_NODEV    = 1 << 2,
        SBX_MNT_NOEXEC   = 1 << 3,
        SBX_MNT_OPTIONAL = 1 << 4,   /* a missing source/target is not an error */
        SBX_MNT_FILE     = 1 << 5,   /* the source is not a directory: bind onto a file */
        SBX_MNT_LOWER_IN_ROOT = 1 << 6, /* OVERLAY: the lower layer is what is mounted at dst now */
};

typedef struct sbx_mount_op {
        sbx_mount_kind kind;
        unsigned flags;          /* SBX_MNT_* */
        int src_fd;              /* detached tree fd (DETACHED), else -EBADF */
        const char *src;         /* host path (BIND/OVERLAY lower), canonical, opened by the
                                  * child in its own mount ns with RESOLVE_NO_SYMLINKS */
        const char *upper, *work; /* OVERLAY: host paths of the upper and work dirs */
        const char *dst;         /* path relative to the new root, no leading '/' */
        const char *data;        /* fs options, symlink target or file contents */
        unsigned mode;           /* DIR/FILE mode */
        const char *what;        /* for error messages: the host path or option behind this op */
} sbx_mount_op;

typedef struct sbx_plan {
        /* identity */
        char state_dir[PATH_MAX];        /* per-run dir, removed by sbx_plan_free */
        int state_fd;                    /* O_DIRECTORY fd of state_dir */
        int lock_fd;                     /* flock held while the run lives (stale-dir collection) */
        const char *root_dir;            /* state_dir/root: where the new root is built */
        bool privileged;                 /* host root: map a subordinate id range */
        uid_t host_uid;                  /* first host id of the mapping */
        gid_t host_gid;
        uint32_t map_count;              /* ids mapped (1 unprivileged) */
        uint32_t uid, gid;               /* sandbox user */
        char uid_map[64], gid_map[64];   /* map text written by the parent */

        /* mounts, in order */
        sbx_mount_op *mounts;
        size_t n_mounts;
        bool read_only_root;
        /* --writable-root over a rootfs (overlay.c): the root is an overlay of
         * the image (lower), upper and work; upper == NULL: a tmpfs root. */
        struct {
                const char *lower, *upper, *work;
                int lower_tree;          /* as root: the image, idmapped to the sandbox ids */
                bool is_volatile;        /* per-run layers: no syncs needed */
        } root_overlay;
        char **owned;                    /* every string the plan allocated */
        size_t n_owned;

        /* process */
        const char *hostname;
        char **argv;                     /* NULL-terminated */
        char **envp;                     /* NULL-terminated, built by the parent */
        const char *path_env;            /* the sandbox's PATH value for command lookup */
        const char *workdir;
        const char *setup_command;       /* setupCommand, NULL = none */
        sbx_rlimit rlimits[SBX_RLIMITS_MAX];
        size_t n_rlimits;
        int cap_last;                    /* /proc/sys/kernel/cap_last_cap */

        /* kernel objects prepared in the parent */
        sbx_bpf bpf;
        sbx_cgroup cgroup;
        bool tty;                        /* the sandbox gets a pty from its own devpts */
        int tty_fd;                      /* child: the pty slave, -EBADF for none */
        int tty_master;                  /* parent: the master, received over the sync socket */

        int ignored_signals[64];         /* SIG_IGN in sbx, reset to SIG_DFL in the child */
        size_t n_ignored_signals;
        sbx_net_plan net;                /* network (issue 7): host side + rendered /etc files */

        unsigned timeout_sec;
        int sync_fd;                     /* child's end of the sync socket (in the child) */
} sbx_plan;

int sbx_plan_prepare(const sbx_run_config *c, sbx_plan **ret, sbx_error *reterr);
/* Closes every fd, removes the state dir. NULL-safe. Returns NULL. */
sbx_plan *sbx_plan_free(sbx_plan *p);
static inline void sbx_plan_freep(sbx_plan **p) {
        if (*p)
                *p = sbx_plan_free(*p);
}

/* Plan building blocks used by the facility *_prepare functions. */
const char *sbx_plan_strdup(sbx_plan *p, const char *s);
const char *sbx_plan_strdupf(sbx_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
sbx_mount_op *sbx_plan_add_mount(sbx_plan *p, sbx_mount_kind kind, const char *dst, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* Mount namespace: the new root (tmpfs + read-only host dirs or --rootfs),
 * /etc, /proc with masked paths, minimal /dev, tmpfs, /workspace, binds. */
#pragma once

#include "launch.h"

/* The ptys a sandbox's devpts may hold (max=): an eighth of the host's pool. */
long sbx_mount_pty_share(void);
/* Parent: build p->mounts from the config. */
int sbx_mount_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Parent, root: a detached clone of the canonical SRC (recursive, not
 * through a symlink) with FLAGS' attributes set, for the child to move in. */
int sbx_mount_detach_source(const char *src, unsigned flags, sbx_error *reterr);
/* Parent: /workspace and /agent ops (overlay.c). */
int sbx_overlay_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Parent: --writable-root over the canonical rootfs: p->root_overlay. */
int sbx_overlay_prepare_root(sbx_plan *p, const sbx_run_config *c, const char *rootfs, sbx_error *reterr);
/* Host directories the child needs, opened while it still has the
 * creator's host ids: as root the sandbox's own ids may not traverse the
 * path to the state dir (say $XDG_RUNTIME_DIR, mode 0700). */
typedef struct sbx_mount_fds {
        int root_dir;                    /* mountpoint of the new root */
        int lower, upper, work;          /* the /workspace overlay's layers, or -EBADF */
        int root_lower, root_upper, root_work; /* the root overlay's layers, or -EBADF */
        int etc_top, etc_bottom;         /* a read-only rootfs's /etc: ours over the image's */
        int proc;                        /* a detached procfs of our pid ns for /proc, or -EBADF */
} sbx_mount_fds;

/* Child, first thing after clone3, before switching ids. */
int sbx_mount_open_child(const sbx_plan *p, sbx_mount_fds *ret, sbx_error *reterr);
/* Child: make / private, build the root, run the ops, pivot_root, detach
 * the old root, make / read-only. Leaves cwd at the new /. Closes fds. */
int sbx_mount_setup_child(const sbx_plan *p, sbx_mount_fds *fds, sbx_error *reterr);
/* issue 16, a template holder (template.c): build the template's tree on
 * ROOT_DIR and pivot into it. */
int sbx_mount_template_build(const sbx_plan *p, int root_dir, sbx_error *reterr);

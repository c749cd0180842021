/* SPDX-License-Identifier: MIT */
/* Mount namespace: the new root (tmpfs + read-only host dirs or --rootfs),
 * /etc, /proc with masked paths, minimal /dev, tmpfs, /workspace, binds. */
#pragma once

#include "plan.h"

/* Parent: build p->mounts from the config. */
int sbx_mount_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Parent: /workspace and /agent ops (overlay.c). */
int sbx_overlay_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Child: make / private, build the root, run the ops, pivot_root, detach
 * the old root, make / read-only. Leaves cwd at the new /. */
int sbx_mount_setup_child(const sbx_plan *p, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* The per-run state directory: new-root mountpoint, overlay upper/work, the
 * default empty workspace, generated /etc files. Removed after every run. */
#pragma once

#include "plan.h"

int sbx_statedir_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
int sbx_statedir_chown(sbx_plan *p, sbx_error *reterr);
/* Write a file (contents) in the state dir, mode 0644. */
int sbx_statedir_write(sbx_plan *p, const char *name, const char *contents, sbx_error *reterr);
void sbx_statedir_cleanup(sbx_plan *p);
/* Remove dirfd/name recursively, staying on one file system. */
int sbx_rm_rf_at(int dirfd, const char *name);

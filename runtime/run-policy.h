/* SPDX-License-Identifier: MIT */
/* Resolved OpenClaw sandbox (policy/) -> struct sbx_run_config (the launcher's input).
 * The one place where the two stages meet; see the mapping table in run-policy.c. */
#pragma once

#include "config.h"
#include "resolve.h"
#include "run-config.h"

/* Fill c (already initialised) from r. notes (may be NULL) receives a line for every
 * setting sbx cannot reproduce exactly and how it handles it instead. Fails with
 * -EINVAL/-EPERM naming the config key when a setting cannot be honoured safely
 * (network other than "none", unsafe binds, unparsable limits). */
int sbx_policy_to_run_config(const sbx_resolved *r, sbx_run_config *c, sbx_strv *notes, sbx_error *reterr);

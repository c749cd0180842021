/* SPDX-License-Identifier: MIT */
#pragma once

#include "policy.h"

/* resolve-util.c: paths. The next segment of the path at *s ('/'s before it skipped; *ret_len
 * bytes), false at its end: for (s = p; sbx_policy_path_next(&s, &len); s += len). */
bool sbx_policy_path_next(const char **s, size_t *ret_len);
/* P with '.', '..' and '//' resolved, as an absolute path (a relative P is read from "/"), "/" when
 * nothing is left. */
char *sbx_policy_path_normalize(const char *p);
/* path.resolve(p): as is (no trimming, no ~), relative to the cwd ("" is the cwd) */
char *sbx_path_resolve(const char *p);

const sbx_agent_config *sbx_find_agent(const sbx_config *c, const char *agent_id);
/* resolve-sandbox.c: mode, scope, access, backend, root, docker, browser, prune */
int sbx_resolve_sandbox_settings(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r,
                                 sbx_error *reterr);
/* resolve-tools.c: sandbox tool policy and the pipeline verdicts */
int sbx_resolve_tool_policy(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r);

/* SPDX-License-Identifier: MIT */
#pragma once

#include "policy.h"

const sbx_agent_config *sbx_find_agent(const sbx_config *c, const char *agent_id);
/* resolve-sandbox.c: mode, scope, access, backend, root, docker, browser, prune */
int sbx_resolve_sandbox_settings(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r,
                                 sbx_error *reterr);
/* resolve-tools.c: sandbox tool policy and the pipeline verdicts */
int sbx_resolve_tool_policy(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r);

/* SPDX-License-Identifier: MIT */
/* OpenClaw's exec-approvals.json (spec §5.4), read for one agent: the
 * effective `security` and the allowlist patterns, for the exec decision
 * (exec-allow.h). Parent only; json-c objects do not outlive the loader.
 *
 * Shape: { version: 1, defaults?: {security, ...}, agents?: { "<id>"|"*":
 * {security, ..., allowlist: [ {pattern, ...} | "pattern" ] } } }.
 * Per field: the agent entry, else "*", else defaults, else the built-in
 * `full`; the allowlist is the "*" entries followed by the agent's; a legacy
 * agents.default counts as agents.main; invalid enum values are dropped.
 * Deviation, on purpose: OpenClaw treats invalid JSON or a version other
 * than 1 as an empty file; sbx refuses it (a security setting is never
 * dropped silently). */
#pragma once

#include <limits.h>
#include <stddef.h>

#include "error.h"

typedef enum sbx_exec_security {
        SBX_EXEC_SECURITY_FULL,
        SBX_EXEC_SECURITY_ALLOWLIST,
        SBX_EXEC_SECURITY_DENY,
        _SBX_EXEC_SECURITY_MAX,
        _SBX_EXEC_SECURITY_INVALID = -EINVAL,
} sbx_exec_security;

typedef struct sbx_exec_approvals {
        sbx_exec_security security;
        char security_key[256];         /* "FILE: agents.main.security" or "built-in default" */
        char allowlist_key[256];        /* "FILE: agents[\"*\"+\"main\"].allowlist" */
        char **patterns;                /* owned */
        size_t n_patterns;
} sbx_exec_approvals;

sbx_exec_security sbx_exec_security_from_string(const char *s);
const char *sbx_exec_security_to_string(sbx_exec_security s);
/* path NULL: ~/.openclaw/exec-approvals.json if it exists (else security
 * full, no list). Symlinks are refused, like OpenClaw. */
int sbx_exec_approvals_load(const char *path, const char *agent_id, sbx_exec_approvals *ret, sbx_error *reterr);
void sbx_exec_approvals_done(sbx_exec_approvals *a);

struct sbx_run_config;
/* Apply to a run: security deny -> every exec refused (exec_refused_rule);
 * allowlist -> the patterns become the exec allowlist (exec_allow_set even
 * when empty); full -> nothing. */
int sbx_run_config_apply_approvals(struct sbx_run_config *c, const char *path, const char *agent_id,
                                   sbx_error *reterr);

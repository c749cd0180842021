/* SPDX-License-Identifier: MIT */
/* runtime/agent/agent.h: the public interface of runtime/agent/ (see ARCHITECTURE.md). */
#pragma once

#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/util.h"
#include "policy/policy.h"
#include "launch/launch.h"

/* ---- from exec-approvals.h ---- */
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

/* ---- from run-policy.h ---- */
/* Resolved OpenClaw sandbox (policy/) -> struct sbx_run_config (the launcher's input).
 * The one place where the two stages meet; see the mapping table in run-policy.c. */


/* Fill c (already initialised) from r. notes (may be NULL) receives a line for every
 * setting sbx cannot reproduce exactly and how it handles it instead. Fails with
 * -EINVAL/-EPERM naming the config key when a setting cannot be honoured safely
 * (network other than "none", unsafe binds, unparsable limits). */
int sbx_policy_to_run_config(const sbx_resolved *r, sbx_run_config *c, sbx_strv *notes, sbx_error *reterr);

/* ---- from tool-rules.h ---- */
/* The kernel rules derived from a resolved tool policy (issue 6), and the
 * exec check of `sbx run --agent`. Pure except sbx_tool_rules_apply (reads
 * exec-approvals.json) and the Landlock probe in the JSON view.
 *
 *   exec (alias bash) removed by the pipeline -> every command refused (126)
 *   no fs-write tool (write, edit, apply_patch) -> read_only_fs (Landlock)
 *   no network tool (web_search, web_fetch, x_search, browser) and
 *     docker.network "none" -> deny_inet_sockets (seccomp)
 *   exec-approvals.json security allowlist -> exec allowlist (before fork +
 *     Landlock execute rights); deny -> every command refused */



struct json_object;

typedef struct sbx_tool_rules {
        bool exec_allowed;
        char exec_rule[512];            /* why exec is refused: pipeline layer */
        char exec_key[256];             /* config key behind it */
        bool read_only_fs;
        char read_only_why[512];
        bool deny_inet_sockets;
        char sockets_why[512];
} sbx_tool_rules;

void sbx_tool_rules_derive(const sbx_resolved *r, sbx_tool_rules *ret);
/* sbx run: r NULL = no --agent (only approvals, if a path is given). */
int sbx_tool_rules_apply(sbx_run_config *c, const sbx_resolved *r, const char *approvals_path, sbx_error *reterr);
/* sbx explain --json: adds "derivedRules" to o. */
int sbx_tool_rules_add_json(struct json_object *o, const sbx_resolved *r, const char *approvals_path);
/* sbx explain (human): the derived rules, one line each. */
void sbx_tool_rules_print(FILE *f, const sbx_resolved *r);

/* ---- from sandbox-rules.c ---- */
/* Persistent sandboxes (issue 14): the rules the operator explicitly
 * configured for the agent (tool pipeline, tools.exec.security + safeBins +
 * safeBinTrustedDirs, the exec-approvals allowlist), into c. Unset
 * tools.exec.security: no exec restriction. */
int sbx_sandbox_rules_apply(sbx_run_config *c, const sbx_resolved *r, const char *approvals_path,
                            sbx_error *reterr);
/* sbx explain: which case applies and why. */
void sbx_sandbox_rules_explain(FILE *f, const sbx_resolved *r);
/* sbx explain --json: adds "sandboxExec" to o. */
int sbx_sandbox_rules_add_json(struct json_object *o, const sbx_resolved *r);

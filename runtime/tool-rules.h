/* SPDX-License-Identifier: MIT */
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
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "resolve.h"
#include "run-config.h"

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

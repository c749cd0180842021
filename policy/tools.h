/* SPDX-License-Identifier: MIT */
/* The OpenClaw 2026.9.6 tool catalog and the layered tool-policy pipeline.
 * Pure functions over plain data; every verdict keeps the layer and config key
 * that decided it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

#define SBX_N_CORE_TOOLS 61
#define SBX_N_CHANNEL_TOOLS 26

extern const char *const sbx_core_tools[SBX_N_CORE_TOOLS + 1];
extern const char *const sbx_channel_tools[SBX_N_CHANNEL_TOOLS + 1];

/* trim + lower-case + aliases (bash->exec, apply-patch->apply_patch, cron->automations) */
char *sbx_tool_normalize(const char *name);
/* NULL-terminated members of a group ("group:fs"), or NULL if not a group */
const char *const *sbx_tool_group(const char *normalized);
/* allow list of a profile (NULL for unknown); "full" is ["*"] */
int sbx_tool_profile(const char *profile, sbx_strv *ret);
/* '*' glob, anchored; any other character is literal */
bool sbx_glob_match(const char *pattern, const char *s);
/* group/alias expansion of a list, de-duplicated, blank entries dropped */
int sbx_tool_expand(const sbx_strv *in, sbx_strv *ret);

typedef struct sbx_policy_layer {
        char *label;    /* OpenClaw's step label, e.g. "tools.profile (coding)" */
        bool has_allow; /* an allow list exists (empty = allow all) */
        sbx_strv allow, deny;
        char *allow_key, *deny_key; /* config keys behind the lists, for provenance */
} sbx_policy_layer;

void sbx_policy_layer_done(sbx_policy_layer *l);

typedef enum sbx_block_reason {
        SBX_BLOCK_NONE,
        SBX_BLOCK_DENY,      /* matched the layer's deny list */
        SBX_BLOCK_ALLOWLIST, /* not in the layer's allow list */
} sbx_block_reason;

/* Does one layer allow the tool? (deny wins; empty allow = all; write => apply_patch) */
sbx_block_reason sbx_policy_layer_check(const sbx_policy_layer *l, const char *tool,
                                        const char **ret_pattern);

/* SPDX-License-Identifier: MIT */
/* openclaw.json as plain C structs (stage 2 of config -> policy -> plan).
 * Filled by sbx_config_load() (config-load.c); no json_object survives it.
 * Every optional value remembers whether it was set, because OpenClaw's merge
 * rules are "agent value ?? defaults value ?? built-in default". */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define SBX_CONFIG_MAX_SIZE (2u * 1024u * 1024u)

typedef struct sbx_strv {
        char **v;
        size_t n;
        bool set; /* the array was present (even empty) */
} sbx_strv;

/* a JSON scalar that may be a string or a number (docker.memory, ulimits, ports) */
typedef struct sbx_scalar {
        bool set;
        bool is_str;
        char *str;
        double num;
} sbx_scalar;

typedef enum sbx_tri {
        SBX_UNSET = -1,
        SBX_FALSE = 0,
        SBX_TRUE = 1,
} sbx_tri;

typedef enum sbx_mode {
        SBX_MODE_OFF,
        SBX_MODE_NON_MAIN,
        SBX_MODE_ALL,
        _SBX_MODE_MAX,
        _SBX_MODE_INVALID = -EINVAL,
} sbx_mode;

typedef enum sbx_scope {
        SBX_SCOPE_SESSION,
        SBX_SCOPE_AGENT,
        SBX_SCOPE_SHARED,
        _SBX_SCOPE_MAX,
        _SBX_SCOPE_INVALID = -EINVAL,
} sbx_scope;

typedef enum sbx_access {
        SBX_ACCESS_NONE,
        SBX_ACCESS_RO,
        SBX_ACCESS_RW,
        _SBX_ACCESS_MAX,
        _SBX_ACCESS_INVALID = -EINVAL,
} sbx_access;

typedef struct sbx_kv {
        char *key;
        char *val;
} sbx_kv;

typedef struct sbx_env {
        bool set;
        sbx_kv *v;
        size_t n;
} sbx_env;

typedef struct sbx_ulimit {
        char *name;
        bool is_obj;      /* {soft, hard} */
        sbx_scalar value; /* string or number when !is_obj */
        bool has_soft, has_hard;
        double soft, hard;
} sbx_ulimit;

typedef struct sbx_ulimits {
        bool set;
        sbx_ulimit *v;
        size_t n;
} sbx_ulimits;

typedef struct sbx_docker_config {
        char *image, *container_prefix, *workdir;
        sbx_tri read_only_root;
        sbx_strv tmpfs;
        char *network, *user;
        sbx_strv cap_drop;
        sbx_env env;
        char *setup_command; /* arrays are joined with '\n' at load */
        sbx_scalar pids_limit, memory, memory_swap, cpus;
        char *gpus;
        sbx_ulimits ulimits;
        char *seccomp_profile, *apparmor_profile;
        sbx_strv dns, extra_hosts, binds;
        sbx_tri allow_reserved_targets, allow_external_binds, allow_ns_join;
} sbx_docker_config;

typedef struct sbx_browser_config {
        sbx_tri enabled, headless, novnc_enabled, allow_host_control, auto_start;
        char *image, *container_prefix, *network, *cdp_source_range;
        sbx_scalar cdp_port, vnc_port, novnc_port, auto_start_timeout_ms;
        sbx_strv binds;
} sbx_browser_config;

typedef struct sbx_prune_config {
        sbx_scalar idle_hours, max_age_days;
} sbx_prune_config;

typedef struct sbx_sandbox_config {
        bool set;
        int mode; /* sbx_mode or -1 unset */
        char *backend;
        int workspace_access; /* sbx_access or -1 */
        int scope;            /* sbx_scope or -1 */
        char *workspace_root;
        char *ssh_workspace_root; /* ssh.workspaceRoot (remote path) */
        bool has_docker, has_browser, has_prune;
        sbx_docker_config docker;
        sbx_browser_config browser;
        sbx_prune_config prune;
} sbx_sandbox_config;

typedef struct sbx_tool_lists {
        bool set;
        sbx_strv allow, also_allow, deny;
} sbx_tool_lists;

typedef struct sbx_tools_config {
        bool set;
        char *profile;
        sbx_tool_lists lists;           /* allow / alsoAllow / deny of this object */
        sbx_tool_lists sandbox;         /* .sandbox.tools */
        sbx_tool_lists subagents;       /* .subagents.tools (top level only) */
        sbx_tool_lists sender_wildcard; /* .toolsBySender["*"]: applies when no sender matches */
        bool has_exec, has_fs;
} sbx_tools_config;

typedef struct sbx_agent_config {
        char *id;        /* the entries key as written */
        char *workspace; /* raw, NULL when unset */
        sbx_sandbox_config sandbox;
        sbx_tools_config tools;
} sbx_agent_config;

typedef struct sbx_group_policy {
        char *channel; /* lower-case */
        char *group;   /* as written; "*" is the wildcard group */
        sbx_tool_lists tools;
        sbx_tool_lists sender_wildcard; /* toolsBySender["*"] of this group */
} sbx_group_policy;

typedef struct sbx_config {
        char *path;               /* file read, NULL for built-in defaults */
        sbx_agent_config *agents; /* agents.entries in file order */
        size_t n_agents;
        bool has_roster;
        bool ownership_explicit;
        char *retained_default; /* legacy default=true owner kept by the migration */
        char *defaults_workspace;
        sbx_sandbox_config defaults_sandbox;
        bool has_max_spawn_depth;
        double max_spawn_depth;
        sbx_tools_config tools;
        bool session_scope_global;
        sbx_group_policy *groups;
        size_t n_groups;
} sbx_config;

/* What the loader noticed: OpenClaw-style migration notes and validation issues. */
typedef struct sbx_config_diag {
        sbx_strv notes;  /* "Moved agents.list to keyed agents.entries." */
        sbx_strv issues; /* "agents.defaults.sandbox.scope: Invalid input ..." */
        bool parse_error;
} sbx_config_diag;

void sbx_strv_free(sbx_strv *l);
int sbx_strv_push(sbx_strv *l, const char *s);
bool sbx_strv_contains(const sbx_strv *l, const char *s);

/* Locate the config as OpenClaw does: explicit path, $OPENCLAW_CONFIG_PATH,
 * $OPENCLAW_STATE_DIR/openclaw.json, ~/.openclaw/openclaw.json. *ret is NULL when no
 * file exists (then OpenClaw's defaults apply). */
int sbx_config_find(const char *explicit_path, char **ret, sbx_error *reterr);

/* Parse (JSON5), migrate, validate and copy. text may be NULL for "no file". */
int sbx_config_load_text(const char *text, size_t len, sbx_config *ret, sbx_config_diag *diag,
                         sbx_error *reterr);
int sbx_config_load(const char *path, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr);

/* Rewrite legacy shapes into the current shape; *ret is the new JSON text (pretty-printed)
 * and *ret_changes lists what changed. Returns 0 when nothing needed changing. */
int sbx_config_migrate_text(const char *text, size_t len, char **ret, sbx_strv *ret_changes,
                            sbx_error *reterr);

/* the text parsed and pretty-printed, for diffs */
int sbx_config_canonical_text(const char *text, size_t len, char **ret);

void sbx_config_done(sbx_config *c);
void sbx_docker_config_done(sbx_docker_config *d);
void sbx_browser_config_done(sbx_browser_config *b);
void sbx_config_diag_done(sbx_config_diag *d);

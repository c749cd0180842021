/* SPDX-License-Identifier: MIT */
/* Stage 3: (config, agent, session) -> the effective sandbox and tool policy, exactly as
 * OpenClaw 2026.9.6 resolves them. Pure: reads the environment (HOME, cwd) but makes no
 * other syscalls. The result is plain data that the launcher (or explain) consumes. */
#pragma once

#include <stdbool.h>

#include "config.h"
#include "tools.h"

typedef struct sbx_request {
        const char *agent;   /* --agent, NULL = derive */
        const char *session; /* --session, NULL = the agent's main session */
        bool subagent;       /* --subagent: rewrite to a subagent key if needed */
} sbx_request;

typedef enum sbx_resolve_error {
        SBX_RESOLVE_UNKNOWN_AGENT = 1,
        SBX_RESOLVE_AGENT_SELECTION_REQUIRED,
        SBX_RESOLVE_MALFORMED_SESSION,
} sbx_resolve_error;

typedef struct sbx_mount {
        char *host_root, *container_root;
        bool writable;
        const char *source; /* "workspace", "agent", "bind" */
} sbx_mount;

typedef struct sbx_tool_verdict {
        bool allowed;
        char *layer; /* step label that removed it, NULL when allowed */
        char *key;   /* config key (or built-in list) responsible */
        char *fix;   /* the smallest change that would allow it */
} sbx_tool_verdict;

typedef struct sbx_resolved {
        char *agent_id;
        sbx_strv known_agents;
        char *requested_session_key, *session_key, *main_session_key;
        bool subagent;
        unsigned subagent_depth;
        const char *subagent_role; /* main | orchestrator | leaf */

        bool sandboxed;
        sbx_mode mode;
        sbx_scope scope;
        sbx_access workspace_access;
        char *backend, *workspace_root;
        char *ssh_workspace_root; /* remote root for the ssh backend */
        sbx_docker_config docker; /* fully resolved: unset members mean JSON null */
        sbx_browser_config browser;
        double prune_idle_hours, prune_max_age_days;

        char *agent_workspace_dir, *scope_key, *container_name, *host_workspace_dir, *container_workdir;
        const char *workspace_source; /* sandbox | agent | direct */
        sbx_mount *mounts;
        size_t n_mounts;

        bool has_sandbox_policy; /* only when sandboxed */
        sbx_strv sandbox_allow, sandbox_deny;
        const char *sandbox_allow_source, *sandbox_deny_source; /* agent | global | default */
        char *sandbox_allow_key, *sandbox_deny_key;

        sbx_policy_layer *layers; /* the pipeline as applied, in order */
        size_t n_layers;
        sbx_tool_verdict tools[SBX_N_CORE_TOOLS];
        sbx_tool_verdict channel_tools[SBX_N_CHANNEL_TOOLS];
} sbx_resolved;

/* On failure reterr->msg says why; ret_kind (may be NULL) gets a sbx_resolve_error. */
int sbx_resolve(const sbx_config *c, const sbx_request *req, sbx_resolved *ret, int *ret_kind,
                sbx_error *reterr);
void sbx_resolved_done(sbx_resolved *r);

/* ---- rules exposed for tests and other stages ---- */
char *sbx_strdup_trim(const char *s);
char *sbx_strdup_lower(const char *s);
char *sbx_normalize_agent_id(const char *s); /* "main" when unrepresentable */
char *sbx_home_dir(void);
char *sbx_state_dir(void);
char *sbx_expand_user_path(const char *p); /* ~ expansion + path.resolve */
char *sbx_default_agent_workspace(void);
char *sbx_slugify_session_key(const char *key);
char *sbx_container_name(const char *prefix, const char *slug);
char *sbx_scope_key(sbx_scope scope, const char *session_key, const char *agent_workspace_dir,
                    const char *agent_id);
char *sbx_bind_source(const char *bind); /* text before the first ':' */
bool sbx_bind_source_absolute(const char *src);
unsigned sbx_subagent_depth(const char *session_key);
bool sbx_is_subagent_key(const char *session_key);
/* "agent:<id>:<rest>" -> id (trimmed, lower-cased key), NULL when not an agent key */
char *sbx_session_key_agent(const char *key, bool *ret_malformed);

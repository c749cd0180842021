/* SPDX-License-Identifier: MIT */
/* policy/policy.h: the public interface of policy/ (see ARCHITECTURE.md). */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "util/util.h"

/* ---- from config.h ---- */
/* openclaw.json as plain C structs (stage 2 of config -> policy -> plan).
 * Filled by sbx_config_load() (config-load.c); no json_object survives it.
 * Every optional value remembers whether it was set, because OpenClaw's merge
 * rules are "agent value ?? defaults value ?? built-in default". */



#define SBX_CONFIG_MAX_SIZE (2u * 1024u * 1024u)


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
        /* .exec (spec §5.1): NULL / unset when not written */
        char *exec_security;            /* "deny" | "allowlist" | "full" */
        sbx_strv safe_bins, safe_bin_dirs;
        bool safe_bins_set, safe_bin_dirs_set;
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
        sbx_strv issues; /* "agents.defaults.sandbox.scope: Invalid input ..." (OpenClaw's words) */
        sbx_strv hints;  /* sbx's own help for them: "legacy: sandbox.perSession is now ..." */
        bool parse_error;
} sbx_config_diag;


/* Locate the config as OpenClaw does: explicit path, $OPENCLAW_CONFIG_PATH,
 * $OPENCLAW_STATE_DIR/openclaw.json, ~/.openclaw/openclaw.json. *ret is NULL when no
 * file exists (then OpenClaw's defaults apply). */
int sbx_config_find(const char *explicit_path, char **ret, sbx_error *reterr);

/* Parse (JSON5), migrate, validate and copy. text may be NULL for "no file". */
int sbx_config_load_text(const char *text, size_t len, sbx_config *ret, sbx_config_diag *diag,
                         sbx_error *reterr);
int sbx_config_load(const char *path, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr);
/* The same from fd (>= 0: opened by the caller under a rule, e.g. without following
 * symlinks; path names it in errors and is where $include paths are relative to). The
 * files it $includes are then read only if sbx_open_trusted takes them (one link, owned
 * by root or the caller, writable by no group or other; not followed if a symlink); any
 * other reads as a missing one. */
int sbx_config_load_fd(const char *path, int fd, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr);

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

/* ---- from tools.h ---- */
/* The OpenClaw 2026.9.6 tool catalog and the layered tool-policy pipeline.
 * Pure functions over plain data; every verdict keeps the layer and config key
 * that decided it. */



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
        /* allow/deny as the pipeline step matches them (renames, groups, aliases expanded,
         * repeats dropped): made once by sbx_policy_layer_expand, not once per tool checked */
        bool expanded;
        sbx_strv step_allow, step_deny;
} sbx_policy_layer;

void sbx_policy_layer_done(sbx_policy_layer *l);
/* Makes step_allow/step_deny from allow/deny (again, after either changes); -ENOMEM */
int sbx_policy_layer_expand(sbx_policy_layer *l);

typedef enum sbx_block_reason {
        SBX_BLOCK_NONE,
        SBX_BLOCK_DENY,      /* matched the layer's deny list */
        SBX_BLOCK_ALLOWLIST, /* not in the layer's allow list */
} sbx_block_reason;

/* Does one layer allow the tool? (deny wins; empty allow = all; write => apply_patch) */
sbx_block_reason sbx_policy_layer_check(const sbx_policy_layer *l, const char *tool,
                                        const char **ret_pattern);

/* ---- from resolve.h ---- */
/* Stage 3: (config, agent, session) -> the effective sandbox and tool policy, exactly as
 * OpenClaw 2026.9.6 resolves them. Pure: reads the environment (HOME, cwd) but makes no
 * other syscalls. The result is plain data that the launcher (or explain) consumes. */



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
        bool denied; /* key is a deny list that matched (else: an allow list that does not list it) */
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

        /* tools.exec (spec §5.1), agent value over the global one, field by field.
         * exec_security NULL: not configured (OpenClaw does not enforce its sandbox
         * default, so neither does sbx). Keys name where each value came from. */
        char *exec_security, *exec_security_key;
        sbx_strv safe_bins, safe_bin_dirs;
        char *safe_bins_key, *safe_bin_dirs_key;

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
/* The home, state and default workspace dirs read the environment with the loaded
 * config's env.vars applied (as OpenClaw's process environment has them after load);
 * sbx_process_state_dir reads the process environment alone (OpenClaw's module-load
 * constants: the default sandbox workspace root). */
const char *sbx_policy_getenv(const char *name);
char *sbx_home_dir(void);
char *sbx_state_dir(void);
char *sbx_process_state_dir(void);
char *sbx_expand_user_path(const char *p); /* ~ expansion + path.resolve */
/* -EINVAL: OPENCLAW_PROFILE is no valid profile name */
int sbx_default_agent_workspace(char **ret);
/* js-string.c: String.length and slice(0, n) in UTF-16 units (a split astral character
 * leaves its high surrogate in 3-byte form); JSON text with such surrogates (and an encoded
 * U+0000, C0 80) written as JSON escapes, as JavaScript prints them */
size_t sbx_js_length(const char *s);
size_t sbx_code_points(const char *s); /* zod 4's string length: code points */
char *sbx_js_slice(const char *s, size_t units);
char *sbx_json_text_js(const char *text);
size_t sbx_js_quote(char *buf, size_t size, const char *s); /* JSON.stringify(s), cut to size */
void sbx_sha256_hex_js(const char *s, char hex[65]); /* of Node's UTF-8 of the string */
char *sbx_slugify_session_key(const char *key);
char *sbx_container_name(const char *prefix, const char *slug);
char *sbx_scope_key(sbx_scope scope, const char *session_key, const char *agent_workspace_dir,
                    const char *agent_id);
char *sbx_bind_source(const char *bind); /* text before the first ':' */
/* a bind's options ("ro,z"): read-only when one of them, trimmed and lower-cased, is "ro"
 * (OpenClaw's reading); -ENOMEM on allocation failure */
int sbx_bind_options_read_only(const char *opts, bool *ret);
bool sbx_bind_source_absolute(const char *src);
unsigned sbx_subagent_depth(const char *session_key);
bool sbx_is_subagent_key(const char *session_key);
/* "agent:<id>:<rest>" -> id (trimmed, lower-cased key), NULL when not an agent key */
char *sbx_session_key_agent(const char *key, bool *ret_malformed);

/* ---- from json5.h ---- */
/* JSON5 front end of the policy engine (STYLE.md rule 21): openclaw.json text -> json-c tree.
 *
 * OpenClaw reads its config with the npm `json5` package (JSON5 1.0.0); sbx must read the same
 * file the same way, so this parser follows that package and is tested against it
 * (tests/unit/json5/oracle.jsonl). Where a json-c tree cannot hold what JavaScript can, sbx
 * keeps it in forms js-string.c prints back as JavaScript does, or refuses:
 *   - an unpaired UTF-16 surrogate escape ("\uD800" alone) in a string or key: its 3-byte
 *     form (ED A0..BF xx, "WTF-8");
 *   - U+0000 in a string or key ({"a\u0000b": "\0"}): C0 80, so C strings keep it and what
 *     follows it;
 *   - invalid UTF-8 anywhere in the input (Node would substitute U+FFFD): -EINVAL.
 * Numbers are JavaScript doubles: a value that is integral and inside int64 becomes a json-c
 * int ("1e3", "0x10", "2.0", "-0" -> 1000, 16, 2, 0), every other one a double, including
 * Infinity, -Infinity and NaN. Duplicate keys: the last value wins (at the first key's place).
 * Error positions are "line L col C" counted as json5 counts them (1-based line; column in
 * UTF-16 units of the offending character; a bad newline is reported at col 0 of the next
 * line; the end of input one column past the last character), so they match OpenClaw's
 * "JSON5: invalid character 'x' at L:C" messages for the same file.
 */



#define SBX_JSON5_MAX_SIZE (2u << 20) /* bytes */
#define SBX_JSON5_MAX_DEPTH 128       /* nested objects/arrays; the root container is 1 */

/* Parse JSON5 text as OpenClaw reads it (the npm `json5` package semantics) into a json-c tree.
 * On success *ret owns the new tree (json_object_put() it); the text "null" gives *ret = NULL,
 * json-c's null. *ret is untouched on failure.
 * Errors: -EINVAL (syntax, message "line L col C: ..."), -E2BIG (size or depth limit),
 * -ENOMEM. */
int sbx_json5_parse(const char *text, size_t len, struct json_object **ret, sbx_error *reterr);

/* ---- from policy-json.h ---- */
/* The resolved policy as the JSON object `sbx explain --json` prints (the fields of
 * ../shared/conformance/README.md, expect and expect_extra, plus sbx's provenance). */



struct json_object *sbx_resolved_to_json(const sbx_resolved *r, const sbx_config_diag *diag);

/* ---- from bind-safety.h ---- */
/* OpenClaw's runtime bind checks for r->docker.binds; -EPERM with reterr naming the bind
 * (its key docker.binds[N], the spec, and what the source is or leads to) and *ret_index
 * (optional) = N. The one decision: `sbx run`/`create` refuse with it, `sbx explain`
 * and `sbx check` report it (runtime/cli/cli-policy.c). */
/* ret_canonical (optional, r->docker.binds.n entries, each to be freed):
 * the canonical source each bind was judged by, so that the caller binds
 * exactly that path and never resolves the source again. */
int sbx_check_bind_safety(const sbx_resolved *r, char **ret_canonical, size_t *ret_index, sbx_error *reterr);

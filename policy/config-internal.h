/* SPDX-License-Identifier: MIT */
/* Shared between the loader stages (config-*.c). Not for other modules: no json-c
 * type may leak out of policy/config-*.c. */
#pragma once

#include <json-c/json.h>

#include "policy.h"

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

#define JPATH_DEPTH 32

typedef struct jpath {
        char buf[4096]; /* OpenClaw prints a path in full: a 1,000-character agent id too */
        size_t len;
        size_t stack[JPATH_DEPTH];
        size_t depth;
        bool plain; /* a channel plugin's JSON Schema issue: keys joined by "." as written */
} jpath;

void jpath_push_key(jpath *p, const char *key);
void jpath_push_index(jpath *p, size_t i);
void jpath_pop(jpath *p);
const char *jpath_str(const jpath *p);

struct vctx {
        sbx_config_diag *diag;
        const char *retained_default; /* the legacy default=true owner the migration kept */
        struct json_object *raw_list; /* agents.list as written, before the migration (or NULL) */
        jpath path;
        bool oom;
        bool plugin_schema; /* checking a plugin's JSON Schema: its validator's wording */
        /* an object's "Unrecognized key" issue, by the object's path depth: held until its members
         * are checked, as zod reports it after them (and before the object's refinements) */
        char *pending[JPATH_DEPTH];
};

void issue(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void note(sbx_config_diag *d, const char *msg);

/* config-migrate.c: OpenClaw's load-time migrations, in place. *ret_retained is the
 * legacy default agent kept for data ownership (may stay NULL). changes (may be NULL)
 * receives a line per rewrite, for 'sbx migrate'. */
int sbx_config_migrate_tree(struct json_object *root, sbx_config_diag *diag, char **ret_retained,
                            sbx_strv *changes);
/* config-validate.c */
void sbx_config_validate_tree(struct json_object *root, struct vctx *v);
/* config-plugins.c: the checks against OpenClaw's plugin registry (heartbeat targets, the
 * web_search provider, the memory slot) */
void sbx_config_validate_plugins(struct json_object *root, struct vctx *v);
/* a plugins.load.paths entry cannot be inspected: plugin-owned settings are kept unchecked */
bool sbx_config_plugins_preserved(struct json_object *root);
/* channel (a key of channels) is no bundled channel but plugin config names it */
bool sbx_config_stale_channel(struct json_object *root, const char *channel);
/* config-validate.c: o against bundled plugin ID's config schema (false: none) */
bool sbx_config_check_plugin_config(struct vctx *v, const char *id, struct json_object *o);

/* unicode-nfc.c: NFC of n code points into out (cap of them; SIZE_MAX when longer), and the
 * marks url.domainToASCII refuses first in a label, as node has them (unicode-nfc.h) */
size_t sbx_unicode_nfc(const uint32_t *in, size_t n, uint32_t *out, size_t cap);
bool sbx_unicode_is_mark(uint32_t cp);
/* config-include.c: replace every "$include" (relative to config_path's directory, never
 * outside it); *root may be replaced by a new tree. */
/* trusted: every included file under sbx_open_trusted's rule (sbx_config_load_fd). */
int sbx_config_resolve_includes(struct json_object **root, const char *config_path, bool trusted,
                                sbx_error *reterr);
/* config-env.c: env.vars usable for ${VAR} (name, value pairs), and the lookup */
int sbx_config_env_vars(struct json_object *root, sbx_strv *ret);
const char *sbx_config_env_lookup(const sbx_strv *vars, const char *name);
enum sbx_env_token { SBX_ENV_NONE, SBX_ENV_ESCAPED, SBX_ENV_SUBST };
/* at s: "$${NAME}" (an escape), "${NAME}" (a substitution) or neither; the name and the end */
enum sbx_env_token sbx_config_env_token(const char *s, const char **name, size_t *namelen, const char **end);
/* the env.vars of the config loaded last, as OpenClaw's process environment has them
 * (NULL: none; the loader clears them first) */
int sbx_config_env_apply(const sbx_strv *vars);
/* config-copy.c */
int sbx_config_copy_tree(struct json_object *root, sbx_config *ret);

static inline struct json_object *jget(struct json_object *o, const char *key) {
        struct json_object *v = NULL;
        if (!json_object_is_type(o, json_type_object))
                return NULL;
        return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static inline bool jhas(struct json_object *o, const char *key) {
        return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, NULL);
}

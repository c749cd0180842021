/* SPDX-License-Identifier: MIT */
/* Load-time migrations of OpenClaw 2026.9.6 (the ones that change what sbx resolves),
 * applied to the json-c tree before validation, plus the older clawdbot-era rewrites
 * that only 'sbx migrate' performs (2026.9.6 rejects those shapes at load). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "util/util.h"
#include "policy.h"

static void change(sbx_strv *changes, sbx_config_diag *diag, const char *msg) {
        note(diag, msg);
        if (changes)
                (void) sbx_strv_push(changes, msg);
}

/* session.mainKey: always "main" now; other values are ignored with a note. */
static void migrate_main_key(struct json_object *root, sbx_config_diag *diag, sbx_strv *changes) {
        struct json_object *session = jget(root, "session"), *mk = jget(session, "mainKey");
        if (!json_object_is_type(mk, json_type_string))
                return;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(mk));
        if (t && *t && strcmp(t, "main") != 0) {
                note(diag, "session.mainKey is ignored; main session is always \"main\".");
                if (changes) {
                        json_object_object_del(session, "mainKey");
                        (void) sbx_strv_push(
                                changes, "Removed session.mainKey (the main session is always \"main\").");
                }
        }
}

/* agents.defaults / agents.entries.* / agents.list[*] contextTokens: removed at load
 * (it cannot be represented per model; models.providers.<p>.models[].contextTokens). */
static void drop_context_tokens(struct json_object *o, const char *where, sbx_config_diag *diag,
                                sbx_strv *changes) {
        char msg[512];
        if (!jhas(o, "contextTokens"))
                return;
        json_object_object_del(o, "contextTokens");
        snprintf(msg, sizeof(msg), "Removed %s.contextTokens.", where);
        change(changes, diag, msg);
}

/* models.providers.<p>.contextTokens / contextWindow: baked into each of its explicit
 * models[] entries that lacks the key, then removed (removed alone when there are none). */
static void migrate_provider_budgets(struct json_object *root, sbx_config_diag *diag, sbx_strv *changes) {
        static const char *const KEYS[] = {"contextTokens", "contextWindow"};
        struct json_object *providers = jget(jget(root, "models"), "providers");
        char msg[640];

        if (!json_object_is_type(providers, json_type_object))
                return;
        json_object_object_foreach(providers, pid, prov) {
                if (!json_object_is_type(prov, json_type_object))
                        continue;
                for (size_t k = 0; k < ELEMENTSOF(KEYS); k++) {
                        if (!jhas(prov, KEYS[k]))
                                continue;
                        struct json_object *models = jget(prov, "models");
                        size_t n = json_object_is_type(models, json_type_array) ? json_object_array_length(models) : 0;
                        for (size_t i = 0; i < n; i++) {
                                struct json_object *m = json_object_array_get_idx(models, i);
                                if (!json_object_is_type(m, json_type_object) || jhas(m, KEYS[k]))
                                        continue;
                                json_object_object_add(m, KEYS[k], json_object_get(jget(prov, KEYS[k])));
                        }
                        json_object_object_del(prov, KEYS[k]);
                        snprintf(msg, sizeof(msg), n ? "Removed models.providers.%s.%s after baking it into explicit model entries."
                                                     : "Removed models.providers.%s.%s.",
                                 pid, KEYS[k]);
                        change(changes, diag, msg);
                }
        }
}

static void migrate_context_tokens(struct json_object *root, sbx_config_diag *diag, sbx_strv *changes) {
        struct json_object *agents = jget(root, "agents"), *entries = jget(agents, "entries"),
                           *list = jget(agents, "list");
        char where[320];
        migrate_provider_budgets(root, diag, changes);
        drop_context_tokens(jget(agents, "defaults"), "agents.defaults", diag, changes);
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, id, e) {
                        snprintf(where, sizeof(where), "agents.entries.%s", id);
                        drop_context_tokens(e, where, diag, changes);
                }
        }
        for (size_t i = 0; json_object_is_type(list, json_type_array) && i < json_object_array_length(list); i++) {
                snprintf(where, sizeof(where), "agents.list[%zu]", i);
                drop_context_tokens(json_object_array_get_idx(list, i), where, diag, changes);
        }
}

/* agents.list[] is convertible only when every entry is an object whose id is already
 * a canonical agent id, without duplicates (otherwise OpenClaw leaves it for the
 * validator, which rejects "list"). */
static bool list_convertible(struct json_object *list) {
        size_t n = json_object_array_length(list);
        for (size_t i = 0; i < n; i++) {
                struct json_object *e = json_object_array_get_idx(list, i), *id = jget(e, "id");
                if (!json_object_is_type(e, json_type_object) || !json_object_is_type(id, json_type_string))
                        return false;
                const char *s = json_object_get_string(id);
                _cleanup_free_ char *norm = sbx_normalize_agent_id(s);
                if (!*s || !norm || strcmp(norm, s) != 0)
                        return false;
                for (size_t j = 0; j < i; j++)
                        if (!strcmp(json_object_get_string(jget(json_object_array_get_idx(list, j), "id")),
                                    s))
                                return false;
        }
        return true;
}

static struct json_object *list_to_entries(struct json_object *list) {
        struct json_object *entries = json_object_new_object();
        for (size_t i = 0; entries && i < json_object_array_length(list); i++) {
                struct json_object *e = json_object_array_get_idx(list, i), *copy = json_object_new_object();
                if (!copy)
                        break;
                json_object_object_foreach(e, k, v) if (strcmp(k, "id") != 0)
                        json_object_object_add(copy, k, json_object_get(v));
                json_object_object_add(entries, json_object_get_string(jget(e, "id")), copy);
        }
        return entries;
}

static bool workspace_unset(struct json_object *entry) {
        struct json_object *w;
        if (!json_object_object_get_ex(entry, "workspace", &w))
                return true;
        if (!json_object_is_type(w, json_type_string))
                return false;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(w));
        return !t || !*t;
}

static int migrate_roster(struct json_object *root, sbx_config_diag *diag, char **ret_retained,
                          sbx_strv *changes) {
        struct json_object *agents, *entries, *list;
        bool converted = false, explicit_owner;

        if (jhas(root, "agents") && !json_object_is_type(jget(root, "agents"), json_type_object))
                return 0;
        agents = jget(root, "agents");
        if (!agents) {
                agents = json_object_new_object();
                if (!agents)
                        return -ENOMEM;
                json_object_object_add(root, "agents", agents);
        }
        explicit_owner = json_object_is_type(jget(agents, "ownership"), json_type_string) &&
                         !strcmp(json_object_get_string(jget(agents, "ownership")), "explicit");

        /* entries wins over list when both exist (list is then rejected by validation) */
        if (!jhas(agents, "entries") && json_object_is_type(list = jget(agents, "list"), json_type_array)) {
                if (!list_convertible(list))
                        return 0;
                entries = list_to_entries(list);
                if (!entries)
                        return -ENOMEM;
                json_object_object_del(agents, "list");
                json_object_object_add(agents, "entries", entries);
                converted = true;
        }
        entries = jget(agents, "entries");
        if (!entries && jhas(agents, "entries"))
                return 0; /* "entries": null is a roster OpenClaw keeps, and its schema refuses */
        if (!entries ||
            (json_object_is_type(entries, json_type_object) && json_object_object_length(entries) == 0)) {
                if (converted)
                        change(changes, diag, "Moved agents.list to keyed agents.entries.");
                if (!explicit_owner && !changes) {
                        struct json_object *e = json_object_new_object(), *m = json_object_new_object();
                        if (!e || !m)
                                return -ENOMEM;
                        json_object_object_add(e, "main", m);
                        json_object_object_add(agents, "entries", e);
                }
                return 0;
        }
        if (!json_object_is_type(entries, json_type_object))
                return 0;

        size_t n_valid = 0, n_marked = 0;
        const char *marked = NULL;
        bool bad_marker = false, all_unmarked = true;
        json_object_object_foreach(entries, id, e) {
                if (!json_object_is_type(e, json_type_object))
                        continue;
                n_valid++;
                struct json_object *d;
                if (json_object_object_get_ex(e, "default", &d)) {
                        if (!json_object_is_type(d, json_type_boolean))
                                bad_marker = true;
                        else if (json_object_get_boolean(d)) {
                                n_marked++;
                                marked = id;
                                all_unmarked = false;
                        }
                }
        }
        if (converted)
                change(changes, diag, "Moved agents.list to keyed agents.entries.");
        if (n_valid == 0 || bad_marker)
                return 0;

        bool valid_marker = !explicit_owner && n_marked == 1;
        const char *legacy_default = n_valid > 1 && valid_marker ? marked : NULL;

        if (converted && !legacy_default && !jhas(agents, "ownership") && n_valid > 1 && all_unmarked) {
                /* keep the first legacy agent on the workspace it used as the implicit default */
                struct json_object_iter it;
                json_object_object_foreachC(entries, it) {
                        if (!json_object_is_type(it.val, json_type_object))
                                continue;
                        if (workspace_unset(it.val)) {
                                struct json_object *dw = jget(jget(agents, "defaults"), "workspace");
                                _cleanup_free_ char *t =
                                        json_object_is_type(dw, json_type_string)
                                                ? sbx_strdup_trim(json_object_get_string(dw))
                                                : NULL;
                                _cleanup_free_ char *def = NULL;
                                if (!(t && *t)) {
                                        int k = sbx_default_agent_workspace(&def);
                                        if (k < 0)
                                                return k; /* -EINVAL: OPENCLAW_PROFILE */
                                }
                                json_object_object_add(it.val, "workspace",
                                                       json_object_new_string(t && *t ? t : def));
                                change(changes, diag,
                                       "Preserved the first legacy agent's existing workspace.");
                        }
                        break;
                }
        }
        if (changes)
                return 0; /* 'sbx migrate' keeps the (still accepted) default marker in the file */
        if (legacy_default) {
                *ret_retained = strdup(legacy_default);
                if (!*ret_retained)
                        return -ENOMEM;
                change(changes, diag, "Materialized legacy per-surface agent ownership.");
        }
        if (valid_marker) {
                json_object_object_foreach(entries, id2, e2) {
                        (void) id2;
                        if (json_object_is_type(e2, json_type_object))
                                json_object_object_del(e2, "default");
                }
                change(changes, diag, "Removed retired agents.entries.*.default markers.");
        }
        return 0;
}

/* ---- clawdbot-era shapes, rewritten only by 'sbx migrate' ---- */

static void rewrite_per_session(struct json_object *sandbox, const char *where, sbx_strv *changes) {
        struct json_object *ps;
        char msg[256];

        if (!json_object_object_get_ex(sandbox, "perSession", &ps))
                return;
        if (json_object_is_type(ps, json_type_boolean) && !jhas(sandbox, "scope")) {
                json_object_object_add(
                        sandbox, "scope",
                        json_object_new_string(json_object_get_boolean(ps) ? "session" : "shared"));
                snprintf(msg, sizeof(msg), "Rewrote %s.perSession=%s as %s.scope=\"%s\".", where,
                         json_object_get_boolean(ps) ? "true" : "false", where,
                         json_object_get_boolean(ps) ? "session" : "shared");
        } else
                snprintf(msg, sizeof(msg), "Removed %s.perSession (%s.scope is set).", where, where);
        json_object_object_del(sandbox, "perSession");
        (void) sbx_strv_push(changes, msg);
}

/* fill keys of src missing in dst (dst wins) */
static void merge_missing(struct json_object *dst, struct json_object *src) {
        json_object_object_foreach(src, k, v) if (!jhas(dst, k))
                json_object_object_add(dst, k, json_object_get(v));
}

static struct json_object *ensure_obj(struct json_object *parent, const char *key) {
        struct json_object *o = jget(parent, key);
        if (json_object_is_type(o, json_type_object))
                return o;
        o = json_object_new_object();
        json_object_object_add(parent, key, o);
        return o;
}

static void migrate_legacy_shapes(struct json_object *root, sbx_strv *changes) {
        struct json_object *agent = jget(root, "agent"), *routing = jget(root, "routing");
        struct json_object *agents;

        if (json_object_is_type(agent, json_type_object)) {
                agents = ensure_obj(root, "agents");
                merge_missing(ensure_obj(agents, "defaults"), agent);
                json_object_object_del(root, "agent");
                (void) sbx_strv_push(changes, "Moved top-level agent.* to agents.defaults.*.");
        }
        struct json_object *ra = jget(routing, "agents");
        if (json_object_is_type(ra, json_type_object)) {
                agents = ensure_obj(root, "agents");
                struct json_object *list = jget(agents, "list");
                struct json_object *entries = jget(agents, "entries");
                json_object_object_foreach(ra, id, cfg) {
                        if (!json_object_is_type(cfg, json_type_object))
                                continue;
                        _cleanup_free_ char *norm = sbx_normalize_agent_id(id);
                        char msg[300];
                        if (json_object_is_type(list, json_type_array)) {
                                struct json_object *e = json_object_new_object();
                                json_object_object_add(e, "id", json_object_new_string(norm ?: id));
                                merge_missing(e, cfg);
                                json_object_array_add(list, e);
                        } else {
                                if (!json_object_is_type(entries, json_type_object))
                                        entries = ensure_obj(agents, "entries");
                                merge_missing(ensure_obj(entries, norm ?: id), cfg);
                        }
                        snprintf(msg, sizeof(msg), "Moved routing.agents.%s to agents.entries.%s.", id,
                                 norm ?: id);
                        (void) sbx_strv_push(changes, msg);
                }
                json_object_object_del(routing, "agents");
                if (json_object_object_length(routing) == 0)
                        json_object_object_del(root, "routing");
        }
        agents = jget(root, "agents");
        rewrite_per_session(jget(jget(agents, "defaults"), "sandbox"), "agents.defaults.sandbox", changes);
        struct json_object *list = jget(agents, "list");
        for (size_t i = 0; json_object_is_type(list, json_type_array) && i < json_object_array_length(list);
             i++) {
                char where[64];
                snprintf(where, sizeof(where), "agents.list[%zu].sandbox", i);
                rewrite_per_session(jget(json_object_array_get_idx(list, i), "sandbox"), where, changes);
        }
        struct json_object *entries = jget(agents, "entries");
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, id, e) {
                        char where[160];
                        snprintf(where, sizeof(where), "agents.entries.%s.sandbox", id);
                        rewrite_per_session(jget(e, "sandbox"), where, changes);
                }
        }
}

/* A multi-agent roster without a marker needs explicit ownership (doctor's fix). */
static void migrate_ownership(struct json_object *root, sbx_strv *changes) {
        struct json_object *agents = jget(root, "agents"), *entries = jget(agents, "entries");
        if (!json_object_is_type(entries, json_type_object) || json_object_object_length(entries) < 2 ||
            jhas(agents, "ownership"))
                return;
        json_object_object_foreach(entries, id, e) {
                (void) id;
                if (json_object_get_boolean(jget(e, "default")))
                        return;
        }
        json_object_object_add(agents, "ownership", json_object_new_string("explicit"));
        (void) sbx_strv_push(changes,
                             "Set agents.ownership=\"explicit\" (multi-agent roster without a default).");
}

int sbx_config_migrate_tree(struct json_object *root, sbx_config_diag *diag, char **ret_retained,
                            sbx_strv *changes) {
        if (changes)
                migrate_legacy_shapes(root, changes);
        migrate_context_tokens(root, diag, changes);
        migrate_main_key(root, diag, changes);
        int r = migrate_roster(root, diag, ret_retained, changes);
        if (r >= 0 && changes)
                migrate_ownership(root, changes);
        return r;
}

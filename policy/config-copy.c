/* SPDX-License-Identifier: MIT */
/* Copy the validated, migrated json-c tree into struct sbx_config. Runs only after
 * validation succeeded, so types are known to be right; anything odd is skipped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "util/util.h"
#include "policy.h"

static int cp_str(struct json_object *o, const char *key, char **ret) {
        struct json_object *v = jget(o, key);
        if (!json_object_is_type(v, json_type_string))
                return 0;
        *ret = strdup(json_object_get_string(v));
        return *ret ? 0 : -ENOMEM;
}

static void cp_tri(struct json_object *o, const char *key, sbx_tri *ret) {
        struct json_object *v = jget(o, key);
        *ret = json_object_is_type(v, json_type_boolean)
                       ? (json_object_get_boolean(v) ? SBX_TRUE : SBX_FALSE)
                       : SBX_UNSET;
}

static int cp_scalar_val(struct json_object *v, sbx_scalar *ret) {
        if (json_object_is_type(v, json_type_string)) {
                ret->str = strdup(json_object_get_string(v));
                if (!ret->str)
                        return -ENOMEM;
                ret->is_str = true;
                ret->set = true;
        } else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
                ret->num = json_object_get_double(v);
                ret->set = true;
        }
        return 0;
}

static int cp_scalar(struct json_object *o, const char *key, sbx_scalar *ret) {
        return cp_scalar_val(jget(o, key), ret);
}

static int cp_strv(struct json_object *o, const char *key, sbx_strv *ret) {
        struct json_object *a = jget(o, key);
        if (!json_object_is_type(a, json_type_array))
                return 0;
        ret->set = true;
        for (size_t i = 0; i < json_object_array_length(a); i++) {
                struct json_object *s = json_object_array_get_idx(a, i);
                if (json_object_is_type(s, json_type_string) &&
                    sbx_strv_push(ret, json_object_get_string(s)) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int cp_lists(struct json_object *o, sbx_tool_lists *ret) {
        if (!json_object_is_type(o, json_type_object))
                return 0;
        ret->set = true;
        if (cp_strv(o, "allow", &ret->allow) < 0 || cp_strv(o, "alsoAllow", &ret->also_allow) < 0 ||
            cp_strv(o, "deny", &ret->deny) < 0)
                return -ENOMEM;
        return 0;
}

/* For the object O, a zeroed array of one entry of SIZE bytes per member and one more (*ret_set:
 * there was an object); 0 when O is not an object, -ENOMEM. */
static int members_alloc(struct json_object *o, size_t size, bool *ret_set, void *ret) {
        void *v;

        if (!json_object_is_type(o, json_type_object))
                return 0;
        v = calloc((size_t) json_object_object_length(o) + 1, size);
        if (!v)
                return -ENOMEM;
        *ret_set = true;
        memcpy(ret, &v, sizeof(v));
        return 1;
}

/* docker.env: the string members (others are left out). */
static int cp_env(struct json_object *env, sbx_docker_config *d) {
        int r = members_alloc(env, sizeof(sbx_kv), &d->env.set, &d->env.v);

        if (r <= 0)
                return r;
        json_object_object_foreach(env, k, v) {
                if (!json_object_is_type(v, json_type_string))
                        continue;
                d->env.v[d->env.n].key = strdup(k);
                d->env.v[d->env.n].val = strdup(json_object_get_string(v));
                if (!d->env.v[d->env.n].key || !d->env.v[d->env.n].val)
                        return -ENOMEM;
                d->env.n++;
        }
        return 0;
}

/* docker.ulimits: NAME -> a number or string, or {soft, hard}. */
static int cp_ulimits(struct json_object *ul, sbx_docker_config *d) {
        int r = members_alloc(ul, sizeof(sbx_ulimit), &d->ulimits.set, &d->ulimits.v);

        if (r <= 0)
                return r;
        r = 0;
        json_object_object_foreach(ul, k, v) {
                sbx_ulimit *u = &d->ulimits.v[d->ulimits.n++];
                u->name = strdup(k);
                if (!u->name)
                        return -ENOMEM;
                if (json_object_is_type(v, json_type_object)) {
                        u->is_obj = true;
                        struct json_object *s = jget(v, "soft"), *h = jget(v, "hard");
                        if ((u->has_soft = s != NULL))
                                u->soft = json_object_get_double(s);
                        if ((u->has_hard = h != NULL))
                                u->hard = json_object_get_double(h);
                } else
                        r |= cp_scalar_val(v, &u->value);
        }
        return r ? -ENOMEM : 0;
}

static int cp_docker(struct json_object *o, sbx_docker_config *d) {
        int r = 0;
        r |= cp_str(o, "image", &d->image);
        r |= cp_str(o, "containerPrefix", &d->container_prefix);
        r |= cp_str(o, "workdir", &d->workdir);
        cp_tri(o, "readOnlyRoot", &d->read_only_root);
        r |= cp_strv(o, "tmpfs", &d->tmpfs);
        r |= cp_str(o, "network", &d->network);
        r |= cp_str(o, "user", &d->user);
        r |= cp_strv(o, "capDrop", &d->cap_drop);
        if (cp_env(jget(o, "env"), d) < 0)
                return -ENOMEM;
        struct json_object *sc = jget(o, "setupCommand");
        if (json_object_is_type(sc, json_type_array)) {
                size_t len = 1;
                for (size_t i = 0; i < json_object_array_length(sc); i++)
                        len += strlen(json_object_get_string(json_object_array_get_idx(sc, i)) ?: "") + 1;
                d->setup_command = calloc(1, len);
                if (!d->setup_command)
                        return -ENOMEM;
                for (size_t i = 0; i < json_object_array_length(sc); i++) {
                        if (i)
                                strcat(d->setup_command, "\n");
                        strcat(d->setup_command,
                               json_object_get_string(json_object_array_get_idx(sc, i)) ?: "");
                }
        } else
                r |= cp_str(o, "setupCommand", &d->setup_command);
        r |= cp_scalar(o, "pidsLimit", &d->pids_limit);
        r |= cp_scalar(o, "memory", &d->memory);
        r |= cp_scalar(o, "memorySwap", &d->memory_swap);
        r |= cp_scalar(o, "cpus", &d->cpus);
        r |= cp_str(o, "gpus", &d->gpus);
        if (cp_ulimits(jget(o, "ulimits"), d) < 0)
                return -ENOMEM;
        r |= cp_str(o, "seccompProfile", &d->seccomp_profile);
        r |= cp_str(o, "apparmorProfile", &d->apparmor_profile);
        r |= cp_strv(o, "dns", &d->dns);
        r |= cp_strv(o, "extraHosts", &d->extra_hosts);
        r |= cp_strv(o, "binds", &d->binds);
        cp_tri(o, "dangerouslyAllowReservedContainerTargets", &d->allow_reserved_targets);
        cp_tri(o, "dangerouslyAllowExternalBindSources", &d->allow_external_binds);
        cp_tri(o, "dangerouslyAllowContainerNamespaceJoin", &d->allow_ns_join);
        return r ? -ENOMEM : 0;
}

static int cp_browser(struct json_object *o, sbx_browser_config *b) {
        int r = 0;
        cp_tri(o, "enabled", &b->enabled);
        cp_tri(o, "headless", &b->headless);
        cp_tri(o, "noVncEnabled", &b->novnc_enabled);
        cp_tri(o, "allowHostControl", &b->allow_host_control);
        cp_tri(o, "autoStart", &b->auto_start);
        r |= cp_str(o, "image", &b->image);
        r |= cp_str(o, "containerPrefix", &b->container_prefix);
        r |= cp_str(o, "network", &b->network);
        r |= cp_str(o, "cdpSourceRange", &b->cdp_source_range);
        r |= cp_scalar(o, "cdpPort", &b->cdp_port);
        r |= cp_scalar(o, "vncPort", &b->vnc_port);
        r |= cp_scalar(o, "noVncPort", &b->novnc_port);
        r |= cp_scalar(o, "autoStartTimeoutMs", &b->auto_start_timeout_ms);
        r |= cp_strv(o, "binds", &b->binds);
        return r ? -ENOMEM : 0;
}

static int lookup(const char *const *l, const char *s) {
        for (int i = 0; l[i]; i++)
                if (!strcmp(l[i], s))
                        return i;
        return -1;
}

static int cp_enum(struct json_object *o, const char *key, const char *const *vals) {
        struct json_object *v = jget(o, key);
        return json_object_is_type(v, json_type_string) ? lookup(vals, json_object_get_string(v)) : -1;
}

static int cp_sandbox(struct json_object *o, sbx_sandbox_config *s) {
        static const char *const modes[] = {"off", "non-main", "all", NULL};
        static const char *const scopes[] = {"session", "agent", "shared", NULL};
        static const char *const access[] = {"none", "ro", "rw", NULL};

        s->mode = s->scope = s->workspace_access = -1;
        s->docker.read_only_root = s->docker.allow_reserved_targets = s->docker.allow_external_binds =
                s->docker.allow_ns_join = SBX_UNSET;
        s->browser.enabled = s->browser.headless = s->browser.novnc_enabled = s->browser.allow_host_control =
                s->browser.auto_start = SBX_UNSET;
        if (!json_object_is_type(o, json_type_object))
                return 0;
        s->set = true;
        s->mode = cp_enum(o, "mode", modes);
        s->scope = cp_enum(o, "scope", scopes);
        s->workspace_access = cp_enum(o, "workspaceAccess", access);
        if (cp_str(o, "backend", &s->backend) < 0 || cp_str(o, "workspaceRoot", &s->workspace_root) < 0 ||
            cp_str(jget(o, "ssh"), "workspaceRoot", &s->ssh_workspace_root) < 0)
                return -ENOMEM;
        struct json_object *d = jget(o, "docker"), *b = jget(o, "browser"), *p = jget(o, "prune");
        if ((s->has_docker = json_object_is_type(d, json_type_object)) && cp_docker(d, &s->docker) < 0)
                return -ENOMEM;
        if ((s->has_browser = json_object_is_type(b, json_type_object)) && cp_browser(b, &s->browser) < 0)
                return -ENOMEM;
        if ((s->has_prune = json_object_is_type(p, json_type_object)) &&
            (cp_scalar(p, "idleHours", &s->prune.idle_hours) < 0 ||
             cp_scalar(p, "maxAgeDays", &s->prune.max_age_days) < 0))
                return -ENOMEM;
        return 0;
}

/* toolsBySender: without a sender identity only the wildcard can match: a key that trims to
 * "*", the last such one (compileToolsBySenderPolicy keeps the last) */
static int cp_sender_wildcard(struct json_object *by_sender, sbx_tool_lists *ret) {
        struct json_object *wild = NULL;
        if (!json_object_is_type(by_sender, json_type_object))
                return 0;
        json_object_object_foreach(by_sender, k, v) {
                _cleanup_free_ char *t = sbx_strdup_trim(k);
                if (!t)
                        return -ENOMEM;
                if (!strcmp(t, "*") && json_object_is_type(v, json_type_object))
                        wild = v;
        }
        return wild ? cp_lists(wild, ret) : 0;
}

static int cp_tools(struct json_object *o, sbx_tools_config *t) {
        if (!json_object_is_type(o, json_type_object))
                return 0;
        t->set = true;
        if (cp_str(o, "profile", &t->profile) < 0 || cp_lists(o, &t->lists) < 0 ||
            cp_lists(jget(jget(o, "sandbox"), "tools"), &t->sandbox) < 0 ||
            cp_lists(jget(jget(o, "subagents"), "tools"), &t->subagents) < 0 ||
            cp_sender_wildcard(jget(o, "toolsBySender"), &t->sender_wildcard) < 0)
                return -ENOMEM;
        t->has_exec = jget(o, "exec") != NULL;
        t->has_fs = jget(o, "fs") != NULL;
        struct json_object *ex = jget(o, "exec");
        if (!json_object_is_type(ex, json_type_object))
                return 0;
        t->safe_bins_set = jget(ex, "safeBins") != NULL;
        t->safe_bin_dirs_set = jget(ex, "safeBinTrustedDirs") != NULL;
        if (cp_str(ex, "security", &t->exec_security) < 0 || cp_strv(ex, "safeBins", &t->safe_bins) < 0 ||
            cp_strv(ex, "safeBinTrustedDirs", &t->safe_bin_dirs) < 0)
                return -ENOMEM;
        return 0;
}

/* The groups a channel's policy reads (resolveChannelGroups): the channel's own, unless the
 * "default" account (key "default", else the first whose trimmed lower-case form is) has
 * "groups", which then replace them; an empty object there still inherits the channel's
 * when the channel has at most one account. */
static struct json_object *channel_groups(struct json_object *cfg) {
        struct json_object *accounts = jget(cfg, "accounts"), *account = NULL, *g = NULL;

        if (json_object_is_type(accounts, json_type_object) &&
            !json_object_object_get_ex(accounts, "default", &account)) {
                json_object_object_foreach(accounts, k, v) {
                        _cleanup_free_ char *t = sbx_strdup_trim(k);
                        _cleanup_free_ char *l = t ? sbx_strdup_lower(t) : NULL;
                        if (l && !strcmp(l, "default")) {
                                account = v;
                                break;
                        }
                }
        }
        if (!json_object_is_type(account, json_type_object) || !json_object_object_get_ex(account, "groups", &g))
                return jget(cfg, "groups");
        if (json_object_is_type(g, json_type_object) && json_object_object_length(g) == 0 &&
            json_object_object_length(accounts) <= 1)
                return jget(cfg, "groups");
        return g;
}

static int cp_groups(struct json_object *channels, sbx_config *c) {
        if (!json_object_is_type(channels, json_type_object))
                return 0;
        json_object_object_foreach(channels, ch, cfg) {
                struct json_object *groups = channel_groups(cfg);
                if (!json_object_is_type(groups, json_type_object))
                        continue;
                json_object_object_foreach(groups, gid, g) {
                        /* an entry without tools still is the group's (resolveChannelGroupConfig
                         * stops at it: no policy, or the "*" group's, never the chat id's) */
                        struct json_object *tools = jget(g, "tools"), *bs = jget(g, "toolsBySender");
                        if (!json_object_is_type(g, json_type_object))
                                continue;
                        sbx_group_policy *n = realloc(c->groups, (c->n_groups + 1) * sizeof(*n));
                        if (!n)
                                return -ENOMEM;
                        c->groups = n;
                        sbx_group_policy *gp = &c->groups[c->n_groups++];
                        *gp = (sbx_group_policy){};
                        gp->channel = sbx_strdup_lower(ch);
                        gp->group = strdup(gid);
                        if (!gp->channel || !gp->group || cp_lists(tools, &gp->tools) < 0 ||
                            cp_sender_wildcard(bs, &gp->sender_wildcard) < 0)
                                return -ENOMEM;
                }
        }
        return 0;
}

int sbx_config_copy_tree(struct json_object *root, sbx_config *c) {
        struct json_object *agents = jget(root, "agents"), *defaults = jget(agents, "defaults");
        struct json_object *entries = jget(agents, "entries"), *v;

        *c = (sbx_config){};
        c->has_roster = json_object_is_type(entries, json_type_object);
        v = jget(agents, "ownership");
        c->ownership_explicit =
                json_object_is_type(v, json_type_string) && !strcmp(json_object_get_string(v), "explicit");
        if (cp_str(defaults, "workspace", &c->defaults_workspace) < 0 ||
            cp_sandbox(jget(defaults, "sandbox"), &c->defaults_sandbox) < 0)
                return -ENOMEM;
        v = jget(jget(defaults, "subagents"), "maxSpawnDepth");
        if ((c->has_max_spawn_depth =
                     json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
                c->max_spawn_depth = json_object_get_double(v);
        if (c->has_roster) {
                size_t n = (size_t) json_object_object_length(entries);
                c->agents = calloc(n + 1, sizeof(sbx_agent_config));
                if (!c->agents)
                        return -ENOMEM;
                json_object_object_foreach(entries, id, e) {
                        if (!json_object_is_type(e, json_type_object))
                                continue;
                        sbx_agent_config *a = &c->agents[c->n_agents++];
                        a->id = strdup(id);
                        if (!a->id || cp_str(e, "workspace", &a->workspace) < 0 ||
                            cp_sandbox(jget(e, "sandbox"), &a->sandbox) < 0 ||
                            cp_tools(jget(e, "tools"), &a->tools) < 0)
                                return -ENOMEM;
                }
        }
        if (cp_tools(jget(root, "tools"), &c->tools) < 0)
                return -ENOMEM;
        v = jget(jget(root, "session"), "scope");
        c->session_scope_global =
                json_object_is_type(v, json_type_string) && !strcmp(json_object_get_string(v), "global");
        return cp_groups(jget(root, "channels"), c);
}

/* ---- freeing ---- */

static void scalar_done(sbx_scalar *s) {
        free(s->str);
}

void sbx_docker_config_done(sbx_docker_config *d) {
        free(d->image);
        free(d->container_prefix);
        free(d->workdir);
        sbx_strv_free(&d->tmpfs);
        free(d->network);
        free(d->user);
        sbx_strv_free(&d->cap_drop);
        for (size_t i = 0; i < d->env.n; i++) {
                free(d->env.v[i].key);
                free(d->env.v[i].val);
        }
        free(d->env.v);
        free(d->setup_command);
        scalar_done(&d->pids_limit);
        scalar_done(&d->memory);
        scalar_done(&d->memory_swap);
        scalar_done(&d->cpus);
        free(d->gpus);
        for (size_t i = 0; i < d->ulimits.n; i++) {
                free(d->ulimits.v[i].name);
                scalar_done(&d->ulimits.v[i].value);
        }
        free(d->ulimits.v);
        free(d->seccomp_profile);
        free(d->apparmor_profile);
        sbx_strv_free(&d->dns);
        sbx_strv_free(&d->extra_hosts);
        sbx_strv_free(&d->binds);
}

void sbx_browser_config_done(sbx_browser_config *b) {
        free_many(b->image, b->container_prefix, b->network, b->cdp_source_range);
        scalar_done(&b->cdp_port);
        scalar_done(&b->vnc_port);
        scalar_done(&b->novnc_port);
        scalar_done(&b->auto_start_timeout_ms);
        sbx_strv_free(&b->binds);
}

static void sandbox_done(sbx_sandbox_config *s) {
        free(s->backend);
        free(s->workspace_root);
        free(s->ssh_workspace_root);
        sbx_docker_config_done(&s->docker);
        sbx_browser_config_done(&s->browser);
        scalar_done(&s->prune.idle_hours);
        scalar_done(&s->prune.max_age_days);
}

static void lists_done(sbx_tool_lists *l) {
        sbx_strv_free(&l->allow);
        sbx_strv_free(&l->also_allow);
        sbx_strv_free(&l->deny);
}

static void tools_done(sbx_tools_config *t) {
        free(t->profile);
        lists_done(&t->lists);
        lists_done(&t->sandbox);
        lists_done(&t->subagents);
        lists_done(&t->sender_wildcard);
        free(t->exec_security);
        sbx_strv_free(&t->safe_bins);
        sbx_strv_free(&t->safe_bin_dirs);
}

void sbx_config_done(sbx_config *c) {
        if (!c)
                return;
        free(c->path);
        for (size_t i = 0; i < c->n_agents; i++) {
                free_many(c->agents[i].id, c->agents[i].workspace);
                sandbox_done(&c->agents[i].sandbox);
                tools_done(&c->agents[i].tools);
        }
        free(c->agents);
        free(c->retained_default);
        free(c->defaults_workspace);
        sandbox_done(&c->defaults_sandbox);
        tools_done(&c->tools);
        for (size_t i = 0; i < c->n_groups; i++) {
                free_many(c->groups[i].channel, c->groups[i].group);
                lists_done(&c->groups[i].tools);
                lists_done(&c->groups[i].sender_wildcard);
        }
        free(c->groups);
        *c = (sbx_config){};
}

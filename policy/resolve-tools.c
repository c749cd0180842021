/* SPDX-License-Identifier: MIT */
/* Tool policy of OpenClaw 2026.9.6's conversation pipeline, in its order:
 *   tools.profile -> tools.allow (global) -> agents.<id>.tools.allow -> group tools.allow
 *   -> sandbox tools.allow (sandboxed sessions only) -> subagent tools.allow.
 * Every layer must allow a tool; a later layer never gives one back. Each verdict keeps
 * the layer, the config key and the smallest change that would allow the tool. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "resolve-internal.h"

static const char *const DEFAULT_SANDBOX_ALLOW[] = {
        "exec",
        "process",
        "read",
        "ls",
        "write",
        "edit",
        "apply_patch",
        "view_image",
        "sessions_list",
        "sessions_history",
        "sessions_search",
        "sessions_send",
        "sessions_spawn",
        "sessions_yield",
        "subagents",
        "session_status",
        NULL,
};
static const char *const DEFAULT_SANDBOX_DENY_CORE[] = {
        "browser", "canvas", "computer", "mobile_ui", "nodes", "automations", "gateway", NULL,
};
static const char *const SUBAGENT_DENY_ALWAYS[] = {
        "gateway",
        "agents_list",
        "openclaw",
        "session_status",
        "progress_card",
        "automations",
        "message",
        "sessions_send",
        "conversations_list",
        "conversations_send",
        "conversations_turn",
        NULL,
};
static const char *const SUBAGENT_DENY_LEAF[] = {
        "subagents", "sessions_list", "sessions_history", "sessions_search", "sessions_spawn", NULL,
};

static int push_all(sbx_strv *l, const char *const *v) {
        for (; *v; v++)
                if (sbx_strv_push(l, *v) < 0)
                        return -ENOMEM;
        return 0;
}

static int push_unique(sbx_strv *l, const char *s) {
        return sbx_strv_contains(l, s) ? 0 : sbx_strv_push(l, s);
}

static int copy_strv(const sbx_strv *src, sbx_strv *dst) {
        *dst = (sbx_strv){.set = src->set};
        for (size_t i = 0; i < src->n; i++)
                if (sbx_strv_push(dst, src->v[i]) < 0)
                        return -ENOMEM;
        dst->set = src->set;
        return 0;
}

static bool matches_any(const sbx_strv *patterns, const char *name) {
        for (size_t i = 0; i < patterns->n; i++)
                if (sbx_glob_match(patterns->v[i], name))
                        return true;
        return false;
}

/* ---- the sandbox tool policy (tools.sandbox.tools, agents.entries.*.tools.sandbox.tools) ---- */

typedef struct picked {
        const sbx_strv *values; /* NULL = not configured */
        const char *source;     /* agent | global | default */
        char key[96];
} picked;

static void pick(const char *field, const sbx_strv *agent, const sbx_strv *global, picked *p) {
        if (agent && agent->set) {
                p->values = agent;
                p->source = "agent";
                snprintf(p->key, sizeof(p->key), "agents.entries.*.tools.sandbox.tools.%s", field);
        } else if (global && global->set) {
                p->values = global;
                p->source = "global";
                snprintf(p->key, sizeof(p->key), "tools.sandbox.tools.%s", field);
        } else {
                p->values = NULL;
                p->source = "default";
                snprintf(p->key, sizeof(p->key), "tools.sandbox.tools.%s", field);
        }
}

static int sandbox_policy(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        const sbx_tool_lists *al = a && a->tools.sandbox.set ? &a->tools.sandbox : NULL;
        const sbx_tool_lists *gl = c->tools.sandbox.set ? &c->tools.sandbox : NULL;
        picked allow, also, deny;
        sbx_strv merged = {}, denyl = {}, explicit_allow = {}, tmp = {};
        int k = -ENOMEM;

        pick("allow", al ? &al->allow : NULL, gl ? &gl->allow : NULL, &allow);
        pick("alsoAllow", al ? &al->also_allow : NULL, gl ? &gl->also_allow : NULL, &also);
        pick("deny", al ? &al->deny : NULL, gl ? &gl->deny : NULL, &deny);

        for (size_t i = 0; allow.values && i < allow.values->n; i++)
                if (sbx_strv_push(&explicit_allow, allow.values->v[i]) < 0)
                        goto out;
        for (size_t i = 0; also.values && i < also.values->n; i++)
                if (sbx_strv_push(&explicit_allow, also.values->v[i]) < 0)
                        goto out;

        if (sbx_strv_uniq(&explicit_allow) < 0)
                goto out;

        /* allow: [] = no restriction; non-empty = allow + alsoAllow; unset = defaults + alsoAllow */
        if (allow.values) {
                if (allow.values->n > 0) {
                        for (size_t i = 0; i < allow.values->n; i++)
                                if (sbx_strv_push(&merged, allow.values->v[i]) < 0)
                                        goto out;
                        for (size_t i = 0; also.values && i < also.values->n; i++)
                                if (sbx_strv_push(&merged, also.values->v[i]) < 0)
                                        goto out;
                }
        } else {
                for (const char *const *d = DEFAULT_SANDBOX_ALLOW; *d; d++)
                        if (sbx_strv_push(&merged, *d) < 0)
                                goto out;
                for (size_t i = 0; also.values && i < also.values->n; i++)
                        if (sbx_strv_push(&merged, also.values->v[i]) < 0)
                                goto out;
        }
        if (sbx_strv_uniq(&merged) < 0) /* each entry once, as OpenClaw's Set (O(n log n)) */
                goto out;
        /* deny: configured (even []) replaces the defaults; the default deny list loses every
         * entry an explicit allow/alsoAllow pattern names */
        if (deny.values) {
                if (copy_strv(deny.values, &denyl) < 0)
                        goto out;
        } else {
                sbx_strv patterns = {};
                if (sbx_tool_expand(&explicit_allow, &patterns) < 0)
                        goto out;
                const char *const *lists[] = {DEFAULT_SANDBOX_DENY_CORE, sbx_channel_tools};
                for (size_t l = 0; l < 2; l++)
                        for (const char *const *d = lists[l]; *d; d++)
                                if (!matches_any(&patterns, *d) && sbx_strv_push(&denyl, *d) < 0) {
                                        sbx_strv_free(&patterns);
                                        goto out;
                                }
                sbx_strv_free(&patterns);
        }
        /* expand groups; "image" in deny also denies view_image; a non-empty allow gets view_image */
        if (sbx_tool_expand(&denyl, &r->sandbox_deny) < 0 || sbx_tool_expand(&merged, &r->sandbox_allow) < 0)
                goto out;
        if (matches_any(&r->sandbox_deny, "image") && !matches_any(&r->sandbox_deny, "view_image") &&
            sbx_strv_push(&r->sandbox_deny, "view_image") < 0)
                goto out;
        if (r->sandbox_allow.n > 0 && !sbx_strv_contains(&r->sandbox_deny, "view_image") &&
            !sbx_strv_contains(&r->sandbox_allow, "view_image") &&
            sbx_strv_push(&r->sandbox_allow, "view_image") < 0)
                goto out;
        r->sandbox_allow.set = r->sandbox_deny.set = true;

        /* the source of allow: an agent-level allow/alsoAllow beats a global one */
        picked *src = &allow;
        if (allow.values && !strcmp(allow.source, "agent"))
                src = &allow;
        else if (!strcmp(also.source, "agent"))
                src = &also;
        else if (allow.values && !strcmp(allow.source, "global"))
                src = &allow;
        else if (!strcmp(also.source, "global"))
                src = &also;
        r->sandbox_allow_source = src->source;
        r->sandbox_deny_source = deny.source;
        r->sandbox_allow_key = strdup(src->key);
        r->sandbox_deny_key = strdup(deny.key);
        r->has_sandbox_policy = true;
        k = r->sandbox_allow_key && r->sandbox_deny_key ? 0 : -ENOMEM;
out:
        sbx_strv_free(&merged);
        sbx_strv_free(&denyl);
        sbx_strv_free(&explicit_allow);
        sbx_strv_free(&tmp);
        return k;
}

/* ---- layers ---- */

static sbx_policy_layer *new_layer(sbx_resolved *r, const char *label) {
        sbx_policy_layer *n = realloc(r->layers, (r->n_layers + 1) * sizeof(*n));
        if (!n)
                return NULL;
        r->layers = n;
        sbx_policy_layer *l = &r->layers[r->n_layers++];
        *l = (sbx_policy_layer){};
        l->label = strdup(label);
        return l->label ? l : NULL;
}

/* pickSandboxToolPolicy: allow ∪ alsoAllow; alsoAllow alone = ["*", ...alsoAllow] */
static int add_lists_layer(sbx_resolved *r, const char *label, const sbx_tool_lists *t,
                           const char *key_base) {
        if (!t || !t->set)
                return 0;
        bool has_allow = t->allow.set || t->also_allow.n > 0;
        if (!has_allow && !t->deny.set)
                return 0;
        sbx_policy_layer *l = new_layer(r, label);
        if (!l)
                return -ENOMEM;
        l->has_allow = has_allow;
        if (has_allow) {
                if (t->also_allow.n == 0) {
                        if (copy_strv(&t->allow, &l->allow) < 0)
                                return -ENOMEM;
                } else {
                        if ((!t->allow.set || t->allow.n == 0) && sbx_strv_push(&l->allow, "*") < 0)
                                return -ENOMEM;
                        for (size_t i = 0; i < t->allow.n; i++)
                                if (sbx_strv_push(&l->allow, t->allow.v[i]) < 0)
                                        return -ENOMEM;
                        for (size_t i = 0; i < t->also_allow.n; i++)
                                if (sbx_strv_push(&l->allow, t->also_allow.v[i]) < 0)
                                        return -ENOMEM;
                        if (sbx_strv_uniq(&l->allow) < 0)
                                return -ENOMEM;
                }
                l->allow.set = true;
        }
        if (t->deny.set && copy_strv(&t->deny, &l->deny) < 0)
                return -ENOMEM;
        if (asprintf(&l->allow_key, "%s.%s", key_base, t->allow.set ? "allow" : "alsoAllow") < 0 ||
            asprintf(&l->deny_key, "%s.deny", key_base) < 0)
                return -ENOMEM;
        return 0;
}

static int add_profile_layer(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        const sbx_tools_config *at = a && a->tools.set ? &a->tools : NULL;
        const char *profile = at && at->profile ? at->profile : c->tools.profile;
        bool agent_owned = at && at->profile;
        const sbx_strv *also = at && at->lists.also_allow.set  ? &at->lists.also_allow
                               : c->tools.lists.also_allow.set ? &c->tools.lists.also_allow
                                                               : NULL;
        char label[96], base[160];
        sbx_strv list = {};

        if (!profile)
                return 0;
        if (sbx_tool_profile(profile, &list) < 0)
                return -ENOMEM;
        if (!list.set) {
                sbx_strv_free(&list);
                return 0;
        }
        snprintf(label, sizeof(label), "tools.profile (%s)", profile);
        sbx_policy_layer *l = new_layer(r, label);
        if (!l) {
                sbx_strv_free(&list);
                return -ENOMEM;
        }
        l->allow = list;
        l->has_allow = true;
        size_t from = l->allow.n; /* alsoAllow: each entry not yet in the list */
        for (size_t i = 0; also && i < also->n; i++)
                if (sbx_strv_push(&l->allow, also->v[i]) < 0)
                        return -ENOMEM;
        if (sbx_strv_uniq_from(&l->allow, from) < 0)
                return -ENOMEM;
        if (agent_owned)
                snprintf(base, sizeof(base), "agents.entries.%s.tools", r->agent_id);
        else
                snprintf(base, sizeof(base), "tools");
        if (asprintf(&l->allow_key, "%s.profile", base) < 0 ||
            asprintf(&l->deny_key, "%s.profile", base) < 0)
                return -ENOMEM;
        return 0;
}

/* channel group policy from the session key: agent:<id>:<channel>:group|channel:<groupId> */
static int add_group_layer(const sbx_config *c, sbx_resolved *r) {
        _cleanup_free_ char *raw = sbx_strdup_trim(r->session_key), *lower = NULL;
        if (!raw || !(lower = sbx_strdup_lower(raw)))
                return -ENOMEM;
        char *th = NULL;
        for (char *p = lower; (p = strstr(p, ":thread:")); p++)
                th = p;
        if (th)
                raw[th - lower] = '\0';

        /* split into at most 3 body parts: channel, kind, rest */
        char *body = raw;
        if (!strncasecmp(body, "agent:", 6)) {
                char *e = strchr(body + 6, ':');
                if (!e)
                        return 0;
                body = e + 1;
        }
        if (!strncasecmp(body, "subagent:", 9))
                body += 9;
        char *c1 = strchr(body, ':');
        if (!c1)
                return 0;
        char *c2 = strchr(c1 + 1, ':');
        if (!c2)
                return 0;
        _cleanup_free_ char *channel_raw = strndup(body, (size_t) (c1 - body));
        _cleanup_free_ char *kind = strndup(c1 + 1, (size_t) (c2 - c1 - 1));
        _cleanup_free_ char *gid = sbx_strdup_trim(c2 + 1);
        _cleanup_free_ char *channel = channel_raw ? sbx_strdup_lower(channel_raw) : NULL;
        _cleanup_free_ char *kindl = kind ? sbx_strdup_lower(kind) : NULL;
        if (!channel || !kindl || !gid)
                return -ENOMEM;
        if ((strcmp(kindl, "group") && strcmp(kindl, "channel")) || !*gid || !*channel)
                return 0;

        /* candidates: the id, id:topic:T, and the chat id for topic / sender scoped ids */
        sbx_strv cands = {};
        int k = 0;
        char *topic = strcasestr(gid, ":topic:"), *sender = strcasestr(gid, ":sender:");
        if (topic && sender && sender > topic) {
                k |= push_unique(&cands, gid);
                _cleanup_free_ char *ct = strndup(gid, (size_t) (sender - gid));
                _cleanup_free_ char *chat = strndup(gid, (size_t) (topic - gid));
                k |= push_unique(&cands, ct ?: "");
                k |= push_unique(&cands, chat ?: "");
        } else if (topic) {
                _cleanup_free_ char *chat = strndup(gid, (size_t) (topic - gid));
                k |= push_unique(&cands, gid);
                k |= push_unique(&cands, chat ?: "");
        } else if (sender) {
                _cleanup_free_ char *chat = strndup(gid, (size_t) (sender - gid));
                k |= push_unique(&cands, gid);
                k |= push_unique(&cands, chat ?: "");
        } else
                k |= push_unique(&cands, gid);
        if (k < 0) {
                sbx_strv_free(&cands);
                return -ENOMEM;
        }
        /* exact group id (first candidate that has an entry), else the "*" group; within a
         * group toolsBySender["*"] wins over tools */
        const sbx_group_policy *found = NULL, *wild = NULL;
        for (size_t i = 0; i < c->n_groups; i++)
                if (!strcmp(c->groups[i].channel, channel) && !strcmp(c->groups[i].group, "*"))
                        wild = &c->groups[i];
        for (size_t j = 0; j < cands.n && !found; j++)
                for (size_t i = 0; i < c->n_groups && !found; i++)
                        if (!strcmp(c->groups[i].channel, channel) &&
                            !strcmp(c->groups[i].group, cands.v[j]))
                                found = &c->groups[i];
        sbx_strv_free(&cands);
        const sbx_group_policy *nodes[2] = {found, wild};
        for (size_t i = 0; i < 2; i++) {
                const sbx_group_policy *g = nodes[i];
                char base[512];
                if (!g)
                        continue;
                if (g->sender_wildcard.set) {
                        snprintf(base, sizeof(base), "channels.%s.groups.%s.toolsBySender.*", g->channel,
                                 g->group);
                        return add_lists_layer(r, "group tools.allow", &g->sender_wildcard, base);
                }
                if (g->tools.set) {
                        snprintf(base, sizeof(base), "channels.%s.groups.%s.tools", g->channel, g->group);
                        return add_lists_layer(r, "group tools.allow", &g->tools, base);
                }
        }
        return 0;
}

static int add_sender_layer(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        char base[160];
        if (a && a->tools.sender_wildcard.set) {
                snprintf(base, sizeof(base), "agents.entries.%s.tools.toolsBySender.*", r->agent_id);
                return add_lists_layer(r, "tools.toolsBySender", &a->tools.sender_wildcard, base);
        }
        if (c->tools.sender_wildcard.set)
                return add_lists_layer(r, "tools.toolsBySender", &c->tools.sender_wildcard,
                                       "tools.toolsBySender.*");
        return 0;
}

static int add_sandbox_layer(sbx_resolved *r) {
        sbx_policy_layer *l = new_layer(r, "sandbox tools.allow");
        if (!l)
                return -ENOMEM;
        l->has_allow = true;
        if (copy_strv(&r->sandbox_allow, &l->allow) < 0 || copy_strv(&r->sandbox_deny, &l->deny) < 0)
                return -ENOMEM;
        l->allow_key = strdup(r->sandbox_allow_key);
        l->deny_key = strdup(r->sandbox_deny_key);
        return l->allow_key && l->deny_key ? 0 : -ENOMEM;
}

static int add_subagent_layer(const sbx_config *c, sbx_resolved *r) {
        const sbx_tool_lists *t = &c->tools.subagents;
        sbx_policy_layer *l = new_layer(r, "subagent tools.allow");
        if (!l)
                return -ENOMEM;
        if (push_all(&l->deny, SUBAGENT_DENY_ALWAYS) < 0 ||
            (!strcmp(r->subagent_role, "leaf") && push_all(&l->deny, SUBAGENT_DENY_LEAF) < 0))
                return -ENOMEM;
        for (size_t i = 0; t->deny.set && i < t->deny.n; i++)
                if (sbx_strv_push(&l->deny, t->deny.v[i]) < 0)
                        return -ENOMEM;
        if (t->allow.set) {
                l->has_allow = true;
                if (copy_strv(&t->allow, &l->allow) < 0)
                        return -ENOMEM;
                size_t from = l->allow.n;
                for (size_t i = 0; t->also_allow.set && i < t->also_allow.n; i++)
                        if (sbx_strv_push(&l->allow, t->also_allow.v[i]) < 0)
                                return -ENOMEM;
                if (sbx_strv_uniq_from(&l->allow, from) < 0)
                        return -ENOMEM;
        }
        l->allow_key = strdup("tools.subagents.tools.allow");
        l->deny_key = strdup("tools.subagents.tools.deny");
        return l->allow_key && l->deny_key ? 0 : -ENOMEM;
}

/* ---- verdicts with provenance and a fix-it ---- */

static bool in_list(const char *const *l, const char *s) {
        for (; *l; l++)
                if (!strcmp(*l, s))
                        return true;
        return false;
}

static int explain_block(const sbx_config *c, sbx_resolved *r, const sbx_policy_layer *l,
                         sbx_block_reason why, const char *tool, sbx_tool_verdict *v) {
        const char *key = why == SBX_BLOCK_DENY ? l->deny_key : l->allow_key;
        _cleanup_free_ char *named = NULL;
        int k;

        /* OpenClaw reports agent-level sandbox keys as agents.entries.*.…; name the agent */
        if (key && !strncmp(key, "agents.entries.*.", 17)) {
                if (asprintf(&named, "agents.entries.%s.%s", r->agent_id, key + 17) < 0)
                        return -ENOMEM;
                key = named;
        }
        v->layer = strdup(l->label);
        v->denied = why == SBX_BLOCK_DENY;
        if (!strcmp(l->label, "subagent tools.allow") && why == SBX_BLOCK_DENY) {
                bool configured = c->tools.subagents.deny.set && matches_any(&c->tools.subagents.deny, tool);
                if (configured) {
                        v->key = strdup("tools.subagents.tools.deny");
                        k = asprintf(&v->fix, "remove \"%s\" from tools.subagents.tools.deny", tool);
                } else if (in_list(SUBAGENT_DENY_LEAF, tool) && !in_list(SUBAGENT_DENY_ALWAYS, tool)) {
                        v->key = strdup("built-in sub-agent deny list (leaf role)");
                        k = asprintf(&v->fix,
                                     "raise agents.defaults.subagents.maxSpawnDepth above %u so this "
                                     "sub-agent may orchestrate",
                                     r->subagent_depth);
                } else {
                        v->key = strdup("built-in sub-agent deny list");
                        k = asprintf(&v->fix, "none: sub-agents never get \"%s\"", tool);
                }
        } else if (!strcmp(l->label, "sandbox tools.allow") &&
                   ((why == SBX_BLOCK_DENY && !strcmp(r->sandbox_deny_source, "default")) ||
                    (why == SBX_BLOCK_ALLOWLIST && !strcmp(r->sandbox_allow_source, "default")))) {
                v->key = strdup(why == SBX_BLOCK_DENY ? "tools.sandbox.tools.deny (built-in default)"
                                                      : "tools.sandbox.tools.allow (built-in default)");
                k = asprintf(&v->fix,
                             "add \"%s\" to tools.sandbox.tools.alsoAllow, or set the agent's sandbox.mode "
                             "to \"off\"",
                             tool);
        } else if (!strncmp(l->label, "tools.profile", 13)) {
                v->key = strdup(key ?: "tools.profile");
                k = asprintf(&v->fix, "add \"%s\" to %s.alsoAllow", tool,
                             strncmp(key ?: "", "agents.", 7) ? "tools" : "the agent's tools");
        } else if (why == SBX_BLOCK_DENY) {
                v->key = strdup(key ?: "?");
                k = asprintf(&v->fix, "remove the entry matching \"%s\" from %s", tool, key ?: "?");
        } else {
                v->key = strdup(key ?: "?");
                k = asprintf(&v->fix, "add \"%s\" to %s", tool, key ?: "?");
        }
        return k < 0 || !v->layer || !v->key ? -ENOMEM : 0;
}

static int decide(const sbx_config *c, sbx_resolved *r, const char *tool, sbx_tool_verdict *v) {
        *v = (sbx_tool_verdict){.allowed = true};
        for (size_t i = 0; i < r->n_layers; i++) {
                sbx_block_reason why = sbx_policy_layer_check(&r->layers[i], tool, NULL);
                if (why != SBX_BLOCK_NONE) {
                        v->allowed = false;
                        return explain_block(c, r, &r->layers[i], why, tool, v);
                }
        }
        return 0;
}

int sbx_resolve_tool_policy(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        char base[160];
        int k;

        if (r->sandboxed && (k = sandbox_policy(c, a, r)) < 0)
                return k;
        if ((k = add_profile_layer(c, a, r)) < 0)
                return k;
        if ((k = add_lists_layer(r, "tools.allow", &c->tools.lists, "tools")) < 0)
                return k;
        snprintf(base, sizeof(base), "agents.entries.%s.tools", r->agent_id);
        char label[160];
        snprintf(label, sizeof(label), "agents.%s.tools.allow", r->agent_id);
        if (a && a->tools.set && (k = add_lists_layer(r, label, &a->tools.lists, base)) < 0)
                return k;
        if ((k = add_group_layer(c, r)) < 0)
                return k;
        if ((k = add_sender_layer(c, a, r)) < 0)
                return k;
        if (r->sandboxed && (k = add_sandbox_layer(r)) < 0)
                return k;
        if (sbx_is_subagent_key(r->session_key) && (k = add_subagent_layer(c, r)) < 0)
                return k;
        for (size_t i = 0; i < r->n_layers; i++) /* the patterns once, not once per tool */
                if ((k = sbx_policy_layer_expand(&r->layers[i])) < 0)
                        return k;
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if ((k = decide(c, r, sbx_core_tools[i], &r->tools[i])) < 0)
                        return k;
        for (size_t i = 0; i < SBX_N_CHANNEL_TOOLS; i++)
                if ((k = decide(c, r, sbx_channel_tools[i], &r->channel_tools[i])) < 0)
                        return k;
        return 0;
}

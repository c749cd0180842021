/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

static const char *const MODE_NAMES[] = {"off", "non-main", "all"};
static const char *const SCOPE_NAMES[] = {"session", "agent", "shared"};
static const char *const ACCESS_NAMES[] = {"none", "ro", "rw"};

/* Numbers as JavaScript prints them: an integral value below 1e21 is written out in
 * full from its shortest round-trip digits (2**63 is 9223372036854776000). */
static struct json_object *jnum(double d) {
        if (isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0)
                return json_object_new_int64((int64_t) d);
        if (isfinite(d) && d == floor(d) && fabs(d) < 1e21) {
                char e[40], out[48];
                int prec;
                for (prec = 0; prec < 17; prec++) {
                        snprintf(e, sizeof(e), "%.*e", prec, d);
                        if (strtod(e, NULL) == d)
                                break;
                }
                snprintf(e, sizeof(e), "%.*e", prec, d);
                /* e is [-]D[.DDD]e+XX: the digits, then zeros up to the exponent */
                char *x = strchr(e, 'e');
                int exp10 = atoi(x + 1), n = 0;
                size_t o = 0;
                for (const char *c = e; c < x; c++)
                        if (*c == '-')
                                out[o++] = '-';
                        else if (*c != '.') {
                                out[o++] = *c;
                                n++;
                        }
                for (; n <= exp10; n++)
                        out[o++] = '0';
                out[o] = '\0';
                return json_object_new_double_s(d, out);
        }
        return json_object_new_double(d);
}

static struct json_object *jscalar(const sbx_scalar *s) {
        if (!s->set)
                return NULL;
        return s->is_str ? json_object_new_string(s->str) : jnum(s->num);
}

static struct json_object *jtri(sbx_tri t) {
        return t == SBX_UNSET ? NULL : json_object_new_boolean(t == SBX_TRUE);
}

static struct json_object *jstrv(const sbx_strv *l) {
        return l->set ? sbx_json_strings(l->v, l->n) : NULL;
}

static struct json_object *docker_json(const sbx_docker_config *d) {
        struct json_object *o = json_object_new_object(), *env = json_object_new_object(), *ul = NULL;

        json_object_object_add(o, "image", sbx_json_string(d->image));
        json_object_object_add(o, "containerPrefix", sbx_json_string(d->container_prefix));
        json_object_object_add(o, "workdir", sbx_json_string(d->workdir));
        json_object_object_add(o, "readOnlyRoot", jtri(d->read_only_root));
        json_object_object_add(o, "tmpfs", jstrv(&d->tmpfs));
        json_object_object_add(o, "network", sbx_json_string(d->network));
        json_object_object_add(o, "user", sbx_json_string(d->user));
        json_object_object_add(o, "capDrop", jstrv(&d->cap_drop));
        for (size_t i = 0; i < d->env.n; i++)
                json_object_object_add(env, d->env.v[i].key, json_object_new_string(d->env.v[i].val));
        json_object_object_add(o, "env", env);
        json_object_object_add(o, "setupCommand", sbx_json_string(d->setup_command));
        json_object_object_add(o, "pidsLimit", jscalar(&d->pids_limit));
        json_object_object_add(o, "memory", jscalar(&d->memory));
        json_object_object_add(o, "memorySwap", jscalar(&d->memory_swap));
        json_object_object_add(o, "cpus", jscalar(&d->cpus));
        json_object_object_add(o, "gpus", sbx_json_string(d->gpus));
        if (d->ulimits.set) {
                ul = json_object_new_object();
                for (size_t i = 0; i < d->ulimits.n; i++) {
                        const sbx_ulimit *u = &d->ulimits.v[i];
                        struct json_object *v;
                        if (u->is_obj) {
                                v = json_object_new_object();
                                if (u->has_soft)
                                        json_object_object_add(v, "soft", jnum(u->soft));
                                if (u->has_hard)
                                        json_object_object_add(v, "hard", jnum(u->hard));
                        } else
                                v = jscalar(&u->value);
                        json_object_object_add(ul, u->name, v);
                }
        }
        json_object_object_add(o, "ulimits", ul);
        json_object_object_add(o, "seccompProfile", sbx_json_string(d->seccomp_profile));
        json_object_object_add(o, "apparmorProfile", sbx_json_string(d->apparmor_profile));
        json_object_object_add(o, "dns", jstrv(&d->dns));
        json_object_object_add(o, "extraHosts", jstrv(&d->extra_hosts));
        json_object_object_add(o, "binds", jstrv(&d->binds));
        json_object_object_add(o, "dangerouslyAllowReservedContainerTargets",
                               jtri(d->allow_reserved_targets));
        json_object_object_add(o, "dangerouslyAllowExternalBindSources", jtri(d->allow_external_binds));
        json_object_object_add(o, "dangerouslyAllowContainerNamespaceJoin", jtri(d->allow_ns_join));
        return o;
}

static struct json_object *browser_json(const sbx_browser_config *b) {
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, "enabled", jtri(b->enabled));
        json_object_object_add(o, "image", sbx_json_string(b->image));
        json_object_object_add(o, "containerPrefix", sbx_json_string(b->container_prefix));
        json_object_object_add(o, "network", sbx_json_string(b->network));
        json_object_object_add(o, "cdpPort", jscalar(&b->cdp_port));
        json_object_object_add(o, "cdpSourceRange", sbx_json_string(b->cdp_source_range));
        json_object_object_add(o, "vncPort", jscalar(&b->vnc_port));
        json_object_object_add(o, "noVncPort", jscalar(&b->novnc_port));
        json_object_object_add(o, "headless", jtri(b->headless));
        json_object_object_add(o, "noVncEnabled", jtri(b->novnc_enabled));
        json_object_object_add(o, "allowHostControl", jtri(b->allow_host_control));
        json_object_object_add(o, "autoStart", jtri(b->auto_start));
        json_object_object_add(o, "autoStartTimeoutMs", jscalar(&b->auto_start_timeout_ms));
        json_object_object_add(o, "binds", jstrv(&b->binds));
        return o;
}

static struct json_object *source_json(const char *source, const char *key) {
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, "source", sbx_json_string(source));
        json_object_object_add(o, "key", sbx_json_string(key));
        return o;
}

struct json_object *sbx_resolved_to_json(const sbx_resolved *r, const sbx_config_diag *diag) {
        struct json_object *o = json_object_new_object(), *t, *prov;

        if (!o)
                return NULL;
        json_object_object_add(o, "error", json_object_new_boolean(0));
        json_object_object_add(o, "agentId", sbx_json_string(r->agent_id));
        json_object_object_add(o, "sandboxed", json_object_new_boolean(r->sandboxed));
        json_object_object_add(o, "mode", sbx_json_string(MODE_NAMES[r->mode]));
        json_object_object_add(o, "scope", sbx_json_string(SCOPE_NAMES[r->scope]));
        json_object_object_add(o, "backend", sbx_json_string(r->backend));
        json_object_object_add(o, "workspaceAccess", sbx_json_string(ACCESS_NAMES[r->workspace_access]));
        json_object_object_add(o, "workspaceRoot", sbx_json_string(r->workspace_root));
        json_object_object_add(o, "containerWorkdir",
                               r->sandboxed ? sbx_json_string(r->container_workdir) : NULL);
        json_object_object_add(o, "docker", docker_json(&r->docker));
        t = json_object_new_object();
        json_object_object_add(t, "idleHours", jnum(r->prune_idle_hours));
        json_object_object_add(t, "maxAgeDays", jnum(r->prune_max_age_days));
        json_object_object_add(o, "prune", t);
        t = json_object_new_object();
        prov = json_object_new_object();
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++) {
                json_object_object_add(t, sbx_core_tools[i], json_object_new_boolean(r->tools[i].allowed));
                if (!r->tools[i].allowed) {
                        struct json_object *p = json_object_new_object();
                        json_object_object_add(p, "layer", sbx_json_string(r->tools[i].layer));
                        json_object_object_add(p, "key", sbx_json_string(r->tools[i].key));
                        json_object_object_add(p, "fix", sbx_json_string(r->tools[i].fix));
                        json_object_object_add(prov, sbx_core_tools[i], p);
                }
        }
        json_object_object_add(o, "tools", t);

        /* expect_extra */
        json_object_object_add(o, "requestedSessionKey", sbx_json_string(r->requested_session_key));
        json_object_object_add(o, "sessionKey", sbx_json_string(r->session_key));
        json_object_object_add(o, "subagent", json_object_new_boolean(r->subagent));
        json_object_object_add(o, "mainSessionKey", sbx_json_string(r->main_session_key));
        json_object_object_add(o, "sandboxRequired", json_object_new_boolean(0));
        json_object_object_add(o, "knownAgents", jstrv(&r->known_agents));
        json_object_object_add(o, "agentWorkspaceDir", sbx_json_string(r->agent_workspace_dir));
        json_object_object_add(o, "scopeKey", sbx_json_string(r->scope_key));
        json_object_object_add(o, "containerName", sbx_json_string(r->container_name));
        json_object_object_add(o, "hostWorkspaceDir", sbx_json_string(r->host_workspace_dir));
        json_object_object_add(o, "workspaceSource", sbx_json_string(r->workspace_source));
        t = json_object_new_array();
        for (size_t i = 0; i < r->n_mounts; i++) {
                struct json_object *m = json_object_new_object();
                json_object_object_add(m, "hostRoot", sbx_json_string(r->mounts[i].host_root));
                json_object_object_add(m, "containerRoot", sbx_json_string(r->mounts[i].container_root));
                json_object_object_add(m, "writable", json_object_new_boolean(r->mounts[i].writable));
                json_object_object_add(m, "source", sbx_json_string(r->mounts[i].source));
                json_object_array_add(t, m);
        }
        json_object_object_add(o, "mounts", t);
        json_object_object_add(o, "browser", browser_json(&r->browser));
        if (r->has_sandbox_policy) {
                t = json_object_new_object();
                json_object_object_add(t, "allow", jstrv(&r->sandbox_allow));
                json_object_object_add(t, "deny", jstrv(&r->sandbox_deny));
                struct json_object *s = json_object_new_object();
                json_object_object_add(s, "allow",
                                       source_json(r->sandbox_allow_source, r->sandbox_allow_key));
                json_object_object_add(s, "deny", source_json(r->sandbox_deny_source, r->sandbox_deny_key));
                json_object_object_add(t, "sources", s);
        } else
                t = NULL;
        json_object_object_add(o, "sandboxToolPolicy", t);
        t = json_object_new_object();
        for (size_t i = 0; i < SBX_N_CHANNEL_TOOLS; i++)
                json_object_object_add(t, sbx_channel_tools[i],
                                       json_object_new_boolean(r->channel_tools[i].allowed));
        json_object_object_add(o, "channelTools", t);

        /* sbx's own additions */
        json_object_object_add(o, "subagentRole", sbx_json_string(r->subagent_role));
        t = json_object_new_array();
        for (size_t i = 0; i < r->n_layers; i++)
                json_object_array_add(t, json_object_new_string(r->layers[i].label));
        json_object_object_add(o, "pipeline", t);
        json_object_object_add(o, "removedBy", prov);
        t = json_object_new_array();
        for (size_t i = 0; diag && i < diag->notes.n; i++)
                json_object_array_add(t, json_object_new_string(diag->notes.v[i]));
        json_object_object_add(o, "notes", t);
        return o;
}

/* SPDX-License-Identifier: MIT */
/* Sandbox settings: each field is "agent ?? agents.defaults ?? built-in", except
 * docker.env / ulimits (key merge), docker.binds / browser.binds (concatenated,
 * defaults first) and scope "shared", which ignores the agent's docker, browser
 * and prune blocks entirely. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "resolve-internal.h"

static int dup_or(const char *a, const char *b, const char *def, char **ret) {
        const char *v = a ?: b ?: def;
        *ret = v ? strdup(v) : NULL;
        return v && !*ret ? -ENOMEM : 0;
}

static int strv_copy(const sbx_strv *a, const sbx_strv *b, const char *const *def, sbx_strv *ret) {
        const sbx_strv *src = a && a->set ? a : b && b->set ? b : NULL;
        *ret = (sbx_strv){};
        if (src) {
                ret->set = true;
                for (size_t i = 0; i < src->n; i++)
                        if (sbx_strv_push(ret, src->v[i]) < 0)
                                return -ENOMEM;
        } else if (def)
                for (; *def; def++)
                        if (sbx_strv_push(ret, *def) < 0)
                                return -ENOMEM;
        return 0;
}

static int scalar_copy(const sbx_scalar *a, const sbx_scalar *b, sbx_scalar *ret) {
        const sbx_scalar *src = a && a->set ? a : b && b->set ? b : NULL;
        *ret = (sbx_scalar){};
        if (!src)
                return 0;
        *ret = *src;
        ret->str = NULL;
        if (src->str && !(ret->str = strdup(src->str)))
                return -ENOMEM;
        return 0;
}

static sbx_tri tri_or(sbx_tri a, sbx_tri b, sbx_tri def) {
        return a != SBX_UNSET ? a : b != SBX_UNSET ? b : def;
}

static int env_put(sbx_env *e, const char *k, const char *v) {
        for (size_t i = 0; i < e->n; i++)
                if (!strcmp(e->v[i].key, k)) {
                        char *nv = strdup(v);
                        if (!nv)
                                return -ENOMEM;
                        free(e->v[i].val);
                        e->v[i].val = nv;
                        return 0;
                }
        sbx_kv *n = realloc(e->v, (e->n + 1) * sizeof(sbx_kv));
        if (!n)
                return -ENOMEM;
        e->v = n;
        e->v[e->n].key = strdup(k);
        e->v[e->n].val = strdup(v);
        if (!e->v[e->n].key || !e->v[e->n].val)
                return -ENOMEM;
        e->n++;
        return 0;
}

static int ulimit_put(sbx_ulimits *u, const sbx_ulimit *src) {
        sbx_ulimit copy = *src;
        copy.name = strdup(src->name);
        copy.value.str = src->value.str ? strdup(src->value.str) : NULL;
        if (!copy.name || (src->value.str && !copy.value.str))
                return -ENOMEM;
        for (size_t i = 0; i < u->n; i++)
                if (!strcmp(u->v[i].name, src->name)) {
                        free(u->v[i].name);
                        free(u->v[i].value.str);
                        u->v[i] = copy;
                        return 0;
                }
        sbx_ulimit *n = realloc(u->v, (u->n + 1) * sizeof(sbx_ulimit));
        if (!n)
                return -ENOMEM;
        u->v = n;
        u->v[u->n++] = copy;
        return 0;
}

static int resolve_docker(const sbx_docker_config *ag, const sbx_docker_config *gl, sbx_docker_config *d) {
        static const char *const tmpfs_def[] = {"/tmp", "/var/tmp", "/run", NULL};
        static const char *const cap_def[] = {"ALL", NULL};
        int r = 0;

        *d = (sbx_docker_config){};
        r |= dup_or(ag ? ag->image : NULL, gl ? gl->image : NULL, "openclaw-sandbox:bookworm-slim",
                    &d->image);
        r |= dup_or(ag ? ag->container_prefix : NULL, gl ? gl->container_prefix : NULL, "openclaw-sbx-",
                    &d->container_prefix);
        r |= dup_or(ag ? ag->workdir : NULL, gl ? gl->workdir : NULL, "/workspace", &d->workdir);
        d->read_only_root =
                tri_or(ag ? ag->read_only_root : SBX_UNSET, gl ? gl->read_only_root : SBX_UNSET, SBX_TRUE);
        r |= strv_copy(ag ? &ag->tmpfs : NULL, gl ? &gl->tmpfs : NULL, tmpfs_def, &d->tmpfs);
        d->tmpfs.set = true;
        r |= dup_or(ag ? ag->network : NULL, gl ? gl->network : NULL, "none", &d->network);
        r |= dup_or(ag ? ag->user : NULL, gl ? gl->user : NULL, NULL, &d->user);
        r |= strv_copy(ag ? &ag->cap_drop : NULL, gl ? &gl->cap_drop : NULL, cap_def, &d->cap_drop);
        d->cap_drop.set = true;

        /* env: base = defaults env or {LANG: C.UTF-8}; agent keys merged over it */
        d->env.set = true;
        if (gl && gl->env.set) {
                for (size_t i = 0; i < gl->env.n; i++)
                        r |= env_put(&d->env, gl->env.v[i].key, gl->env.v[i].val);
        } else
                r |= env_put(&d->env, "LANG", "C.UTF-8");
        if (ag && ag->env.set)
                for (size_t i = 0; i < ag->env.n; i++)
                        r |= env_put(&d->env, ag->env.v[i].key, ag->env.v[i].val);

        r |= dup_or(ag ? ag->setup_command : NULL, gl ? gl->setup_command : NULL, NULL, &d->setup_command);
        r |= scalar_copy(ag ? &ag->pids_limit : NULL, gl ? &gl->pids_limit : NULL, &d->pids_limit);
        r |= scalar_copy(ag ? &ag->memory : NULL, gl ? &gl->memory : NULL, &d->memory);
        r |= scalar_copy(ag ? &ag->memory_swap : NULL, gl ? &gl->memory_swap : NULL, &d->memory_swap);
        r |= scalar_copy(ag ? &ag->cpus : NULL, gl ? &gl->cpus : NULL, &d->cpus);
        {
                const char *g = ag && ag->gpus ? ag->gpus : gl ? gl->gpus : NULL;
                if (g) {
                        d->gpus = sbx_strdup_trim(g);
                        if (!d->gpus)
                                r |= -ENOMEM;
                        else if (!*d->gpus) {
                                free(d->gpus);
                                d->gpus = NULL;
                        }
                }
        }
        /* ulimits: agent keys merged over defaults, only when the agent has ulimits */
        if (ag && ag->ulimits.set) {
                d->ulimits.set = true;
                for (size_t i = 0; gl && gl->ulimits.set && i < gl->ulimits.n; i++)
                        r |= ulimit_put(&d->ulimits, &gl->ulimits.v[i]);
                for (size_t i = 0; i < ag->ulimits.n; i++)
                        r |= ulimit_put(&d->ulimits, &ag->ulimits.v[i]);
        } else if (gl && gl->ulimits.set) {
                d->ulimits.set = true;
                for (size_t i = 0; i < gl->ulimits.n; i++)
                        r |= ulimit_put(&d->ulimits, &gl->ulimits.v[i]);
        }
        r |= dup_or(ag ? ag->seccomp_profile : NULL, gl ? gl->seccomp_profile : NULL, NULL,
                    &d->seccomp_profile);
        r |= dup_or(ag ? ag->apparmor_profile : NULL, gl ? gl->apparmor_profile : NULL, NULL,
                    &d->apparmor_profile);
        r |= strv_copy(ag ? &ag->dns : NULL, gl ? &gl->dns : NULL, NULL, &d->dns);
        r |= strv_copy(ag ? &ag->extra_hosts : NULL, gl ? &gl->extra_hosts : NULL, NULL, &d->extra_hosts);
        /* binds: defaults first, then the agent's; empty means unset */
        for (size_t i = 0; gl && i < gl->binds.n; i++)
                r |= sbx_strv_push(&d->binds, gl->binds.v[i]);
        for (size_t i = 0; ag && i < ag->binds.n; i++)
                r |= sbx_strv_push(&d->binds, ag->binds.v[i]);
        d->binds.set = d->binds.n > 0;
        d->allow_reserved_targets = tri_or(ag ? ag->allow_reserved_targets : SBX_UNSET,
                                           gl ? gl->allow_reserved_targets : SBX_UNSET, SBX_UNSET);
        d->allow_external_binds = tri_or(ag ? ag->allow_external_binds : SBX_UNSET,
                                         gl ? gl->allow_external_binds : SBX_UNSET, SBX_UNSET);
        d->allow_ns_join =
                tri_or(ag ? ag->allow_ns_join : SBX_UNSET, gl ? gl->allow_ns_join : SBX_UNSET, SBX_UNSET);
        return r ? -ENOMEM : 0;
}

static void scalar_default(sbx_scalar *s, double def) {
        if (!s->set) {
                s->set = true;
                s->is_str = false;
                s->num = def;
        }
}

static int resolve_browser(const sbx_browser_config *ag, const sbx_browser_config *gl,
                           sbx_browser_config *b) {
        int r = 0;

        *b = (sbx_browser_config){};
        b->enabled = tri_or(ag ? ag->enabled : SBX_UNSET, gl ? gl->enabled : SBX_UNSET, SBX_FALSE);
        r |= dup_or(ag ? ag->image : NULL, gl ? gl->image : NULL, "openclaw-sandbox-browser:bookworm-slim",
                    &b->image);
        r |= dup_or(ag ? ag->container_prefix : NULL, gl ? gl->container_prefix : NULL,
                    "openclaw-sbx-browser-", &b->container_prefix);
        r |= dup_or(ag ? ag->network : NULL, gl ? gl->network : NULL, "openclaw-sandbox-browser",
                    &b->network);
        r |= scalar_copy(ag ? &ag->cdp_port : NULL, gl ? &gl->cdp_port : NULL, &b->cdp_port);
        scalar_default(&b->cdp_port, 9222);
        r |= dup_or(ag ? ag->cdp_source_range : NULL, gl ? gl->cdp_source_range : NULL, NULL,
                    &b->cdp_source_range);
        r |= scalar_copy(ag ? &ag->vnc_port : NULL, gl ? &gl->vnc_port : NULL, &b->vnc_port);
        scalar_default(&b->vnc_port, 5900);
        r |= scalar_copy(ag ? &ag->novnc_port : NULL, gl ? &gl->novnc_port : NULL, &b->novnc_port);
        scalar_default(&b->novnc_port, 6080);
        b->headless = tri_or(ag ? ag->headless : SBX_UNSET, gl ? gl->headless : SBX_UNSET, SBX_FALSE);
        b->novnc_enabled =
                tri_or(ag ? ag->novnc_enabled : SBX_UNSET, gl ? gl->novnc_enabled : SBX_UNSET, SBX_TRUE);
        b->allow_host_control = tri_or(ag ? ag->allow_host_control : SBX_UNSET,
                                       gl ? gl->allow_host_control : SBX_UNSET, SBX_FALSE);
        b->auto_start = tri_or(ag ? ag->auto_start : SBX_UNSET, gl ? gl->auto_start : SBX_UNSET, SBX_TRUE);
        r |= scalar_copy(ag ? &ag->auto_start_timeout_ms : NULL, gl ? &gl->auto_start_timeout_ms : NULL,
                         &b->auto_start_timeout_ms);
        if (!b->auto_start_timeout_ms.set || b->auto_start_timeout_ms.is_str ||
            !(b->auto_start_timeout_ms.num > 0)) {
                free(b->auto_start_timeout_ms.str);
                b->auto_start_timeout_ms = (sbx_scalar){};
                scalar_default(&b->auto_start_timeout_ms, 12000);
        }
        /* resolveTimerTimeoutMs: floored, at most MAX_TIMER_TIMEOUT_MS (Node's timers) */
        b->auto_start_timeout_ms.num = floor(b->auto_start_timeout_ms.num);
        if (b->auto_start_timeout_ms.num > 2147e6)
                b->auto_start_timeout_ms.num = 2147e6;
        if ((gl && gl->binds.set) || (ag && ag->binds.set)) {
                for (size_t i = 0; gl && i < gl->binds.n; i++)
                        r |= sbx_strv_push(&b->binds, gl->binds.v[i]);
                for (size_t i = 0; ag && i < ag->binds.n; i++)
                        r |= sbx_strv_push(&b->binds, ag->binds.v[i]);
                b->binds.set = true;
        }
        return r ? -ENOMEM : 0;
}

int sbx_resolve_sandbox_settings(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r,
                                 sbx_error *reterr) {
        const sbx_sandbox_config *gs = &c->defaults_sandbox, *as = a && a->sandbox.set ? &a->sandbox : NULL;
        int k;

        r->mode = as && as->mode >= 0 ? as->mode : gs->mode >= 0 ? gs->mode : SBX_MODE_OFF;
        r->scope = as && as->scope >= 0 ? as->scope : gs->scope >= 0 ? gs->scope : SBX_SCOPE_AGENT;
        r->workspace_access = as && as->workspace_access >= 0 ? as->workspace_access
                              : gs->workspace_access >= 0     ? gs->workspace_access
                                                              : SBX_ACCESS_NONE;
        {
                _cleanup_free_ char *ab = as && as->backend ? sbx_strdup_trim(as->backend) : NULL;
                _cleanup_free_ char *gb = gs->backend ? sbx_strdup_trim(gs->backend) : NULL;
                r->backend = strdup(ab && *ab ? ab : gb && *gb ? gb : "docker");
                if (!r->backend)
                        return -ENOMEM;
        }
        {
                const char *root = as && as->workspace_root ? as->workspace_root : gs->workspace_root;
                if (root) /* reported as written ("~" was expanded at load) */
                        r->workspace_root = strdup(root);
                else { /* DEFAULT_SANDBOX_WORKSPACE_ROOT: fixed when OpenClaw's modules load */
                        _cleanup_free_ char *state = sbx_process_state_dir();
                        if (state && asprintf(&r->workspace_root, "%s/sandboxes", state) < 0)
                                r->workspace_root = NULL;
                }
                if (!r->workspace_root)
                        return -ENOMEM;
        }
        bool shared = r->scope == SBX_SCOPE_SHARED;
        {
                /* ssh.workspaceRoot: absolute POSIX path, trailing '/' stripped */
                const char *sr = !shared && as && as->ssh_workspace_root ? as->ssh_workspace_root
                                                                         : gs->ssh_workspace_root;
                _cleanup_free_ char *t = sr ? sbx_strdup_trim(sr) : NULL;
                if (!t || !*t) {
                        free(t);
                        t = strdup("/tmp/openclaw-sandboxes");
                }
                if (!t)
                        return -ENOMEM;
                for (char *p = t; *p; p++)
                        if (*p == '\\')
                                *p = '/';
                size_t n = strlen(t);
                if (t[0] != '/') /* OpenClaw refuses this for every backend, not only ssh */
                        return sbx_error_set(
                                reterr, -EINVAL,
                                "%s.sandbox.ssh.workspaceRoot \"%s\": Sandbox SSH workspaceRoot must be an "
                                "absolute POSIX path",
                                !shared && as && as->ssh_workspace_root ? "agents.entries.<agent>"
                                                                        : "agents.defaults",
                                t);
                while (n > 1 && t[n - 1] == '/')
                        t[--n] = '\0';
                r->ssh_workspace_root = TAKE_PTR(t);
        }
        const sbx_sandbox_config *ad = shared ? NULL : as;
        k = resolve_docker(ad && ad->has_docker ? &ad->docker : NULL, gs->has_docker ? &gs->docker : NULL,
                           &r->docker);
        if (k < 0)
                return k;
        k = resolve_browser(ad && ad->has_browser ? &ad->browser : NULL,
                            gs->has_browser ? &gs->browser : NULL, &r->browser);
        if (k < 0)
                return k;
        const sbx_prune_config *ap = ad && ad->has_prune ? &ad->prune : NULL,
                               *gp = gs->has_prune ? &gs->prune : NULL;
        r->prune_idle_hours = ap && ap->idle_hours.set   ? ap->idle_hours.num
                              : gp && gp->idle_hours.set ? gp->idle_hours.num
                                                         : 24;
        r->prune_max_age_days = ap && ap->max_age_days.set   ? ap->max_age_days.num
                                : gp && gp->max_age_days.set ? gp->max_age_days.num
                                                             : 7;
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* Agent, session and sandbox resolution (OpenClaw 2026.9.6 `sandbox explain` order):
 *   1. agent: --agent (must be configured) / the session key's agent / the default;
 *   2. session key: main key, short names, the --subagent rewrite;
 *   3. sandboxed? mode + main-session comparison after alias canonicalisation;
 *   4. sandbox settings: agent entry over agents.defaults over built-ins;
 *   5. workspace layout: scope key, slug, dirs, container name, mounts;
 *   6. the tool-policy pipeline (resolve-tools.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"
#include "policy.h"
#include "resolve-internal.h"
#include <stdint.h>

static int known_agents(const sbx_config *c, sbx_strv *ret) {
        *ret = (sbx_strv){.set = true};
        if (c->n_agents == 0 && !c->has_roster)
                return sbx_strv_push(ret, "main");
        for (size_t i = 0; i < c->n_agents; i++) {
                _cleanup_free_ char *id = sbx_normalize_agent_id(c->agents[i].id);
                if (!id)
                        return -ENOMEM;
                if (!sbx_strv_contains(ret, id) && sbx_strv_push(ret, id) < 0)
                        return -ENOMEM;
        }
        return 0;
}

const sbx_agent_config *sbx_find_agent(const sbx_config *c, const char *agent_id) {
        for (size_t i = 0; i < c->n_agents; i++) {
                _cleanup_free_ char *id = sbx_normalize_agent_id(c->agents[i].id);
                if (id && !strcmp(id, agent_id))
                        return &c->agents[i];
        }
        return NULL;
}

/* The owner of legacy data (retained default=true agent) or the sole agent. The marker's
 * agent is matched by its normalised id, as OpenClaw does: an entries key "Work" with
 * default: true owns the legacy data of agent "work" (its workspace is the default one). */
static const char *legacy_owner(const sbx_config *c, const sbx_strv *known) {
        if (c->retained_default) {
                _cleanup_free_ char *id = sbx_normalize_agent_id(c->retained_default);
                for (size_t i = 0; id && i < known->n; i++)
                        if (!strcmp(known->v[i], id))
                                return known->v[i];
        }
        if (known->n == 1)
                return known->v[0];
        return NULL;
}

static int fail(int *ret_kind, int kind, sbx_error *reterr, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static int fail(int *ret_kind, int kind, sbx_error *reterr, const char *fmt, ...) {
        char msg[SBX_ERROR_MSG_MAX];
        va_list ap;

        if (ret_kind)
                *ret_kind = kind;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        return sbx_error_set(reterr, -EINVAL, "%s", msg);
}

static int resolve_agent(const sbx_config *c, const sbx_request *req, sbx_resolved *r, int *ret_kind,
                         sbx_error *reterr) {
        _cleanup_free_ char *explicit_id = NULL, *key_agent = NULL, *session = NULL;
        bool malformed = false;

        if (known_agents(c, &r->known_agents) < 0)
                return -ENOMEM;
        if (req->agent) {
                explicit_id = sbx_normalize_agent_id(req->agent);
                if (!explicit_id)
                        return -ENOMEM;
                if (!sbx_strv_contains(&r->known_agents, explicit_id))
                        return fail(ret_kind, SBX_RESOLVE_UNKNOWN_AGENT, reterr,
                                    "unknown agent id \"%s\" (see agents.entries in the config)",
                                    explicit_id);
        }
        session = sbx_strdup_trim(req->session ?: "");
        if (!session)
                return -ENOMEM;
        key_agent = sbx_session_key_agent(session, &malformed);
        if (malformed) /* OpenClaw's words; the key (any length) is not repeated, never cut at 512 bytes */
                return fail(ret_kind, SBX_RESOLVE_MALFORMED_SESSION, reterr,
                            "Malformed agent session key; refusing default-agent resolution "
                            "(expected agent:<id>:<rest>)");
        if (key_agent) {
                char *n = sbx_normalize_agent_id(key_agent);
                free(key_agent);
                key_agent = n;
                if (!key_agent)
                        return -ENOMEM;
        }
        if (key_agent && explicit_id && strcmp(key_agent, explicit_id) != 0)
                return fail(
                        ret_kind, SBX_RESOLVE_AGENT_SELECTION_REQUIRED, reterr,
                        "the session key belongs to agent \"%s\", not \"%s\"; pass a matching --agent or "
                        "session key",
                        key_agent, explicit_id);
        const char *id = key_agent ?: explicit_id ?: legacy_owner(c, &r->known_agents);
        if (!id) {
                if (r->known_agents.n == 0)
                        return fail(ret_kind, SBX_RESOLVE_AGENT_SELECTION_REQUIRED, reterr,
                                    "no agents configured");
                return fail(ret_kind, SBX_RESOLVE_AGENT_SELECTION_REQUIRED, reterr,
                            "multiple agents are configured (agents.ownership=\"explicit\") and none was "
                            "selected; pass --agent ID or an agent:<id>:... session key");
        }
        r->agent_id = strdup(id);
        if (!r->agent_id)
                return -ENOMEM;

        /* session key: main, verbatim (has ':' or is "global"), or agent:<id>:<short name> */
        if (!*session) {
                if (asprintf(&r->requested_session_key, "agent:%s:main", r->agent_id) < 0)
                        return -ENOMEM;
        } else if (strchr(session, ':') || !strcmp(session, "global")) {
                r->requested_session_key = strdup(session);
        } else {
                _cleanup_free_ char *mk = sbx_strdup_lower(session);
                if (!mk ||
                    asprintf(&r->requested_session_key, "agent:%s:%s", r->agent_id, *mk ? mk : "main") < 0)
                        return -ENOMEM;
        }
        if (!r->requested_session_key)
                return -ENOMEM;

        /* --subagent: subagent sessions are recognised only by the key's shape */
        if (req->subagent && sbx_subagent_depth(r->requested_session_key) == 0) {
                if (asprintf(&r->session_key, "agent:%s:subagent:00000000-0000-4000-8000-0000000000aa",
                             r->agent_id) < 0)
                        return -ENOMEM;
        } else if (!(r->session_key = strdup(r->requested_session_key)))
                return -ENOMEM;
        r->subagent = req->subagent || sbx_subagent_depth(r->session_key) > 0;
        /* A sub-agent key that is not agent-scoped ("subagent:x"): the spawn-depth lookup
         * (buildKeyCandidates) resolves its owner without the explicit agent, so it needs
         * a legacy owner or a sole agent, like a session with no agent at all. */
        if (sbx_is_subagent_key(r->session_key) && !legacy_owner(c, &r->known_agents)) {
                bool bad;
                _cleanup_free_ char *owner = sbx_session_key_agent(r->session_key, &bad);
                if (!owner)
                        return fail(ret_kind, SBX_RESOLVE_AGENT_SELECTION_REQUIRED, reterr,
                                    "multiple agents are configured and the sub-agent session key \"%s\" "
                                    "names none; use an agent:<id>:subagent:... key",
                                    r->session_key);
        }

        if (c->session_scope_global)
                r->main_session_key = strdup("global");
        else if (asprintf(&r->main_session_key, "agent:%s:main", r->agent_id) < 0)
                r->main_session_key = NULL;
        return r->main_session_key ? 0 : -ENOMEM;
}

/* canonicalizeMainSessionAlias with the main key fixed to "main" */
static char *canonical_session(const sbx_config *c, const char *agent_id, const char *key) {
        _cleanup_free_ char *raw = sbx_strdup_trim(key), *agent_main = NULL;
        size_t n;

        if (!raw)
                return NULL;
        n = strlen(raw);
        if (!*raw || (strcmp(raw, "main") != 0 && (n < 5 || strcmp(raw + n - 5, ":main") != 0)))
                return TAKE_PTR(raw);
        if (asprintf(&agent_main, "agent:%s:main", agent_id) < 0)
                return NULL;
        if (!strcmp(raw, "main") || !strcmp(raw, agent_main) || !strcmp(raw, "agent:main:main"))
                return strdup(c->session_scope_global ? "global" : agent_main);
        return TAKE_PTR(raw);
}

static int resolve_sandboxed(const sbx_config *c, sbx_resolved *r) {
        if (r->mode == SBX_MODE_OFF)
                r->sandboxed = false;
        else if (r->mode == SBX_MODE_ALL)
                r->sandboxed = true;
        else {
                _cleanup_free_ char *cmp = canonical_session(c, r->agent_id, r->session_key);
                _cleanup_free_ char *a = NULL, *b = NULL;
                if (!cmp || !(a = sbx_strdup_trim(cmp)) || !(b = sbx_strdup_trim(r->main_session_key)))
                        return -ENOMEM;
                r->sandboxed = strcmp(a, b) != 0;
        }
        return 0;
}

static char *workspace_dir_raw(const sbx_config *c, const sbx_agent_config *a, const char *agent_id,
                               const sbx_strv *known) {
        char *r = NULL;

        if (a && a->workspace) {
                _cleanup_free_ char *t = sbx_strdup_trim(a->workspace);
                if (t && *t)
                        return sbx_expand_user_path(t);
        }
        _cleanup_free_ char *fallback =
                c->defaults_workspace ? sbx_strdup_trim(c->defaults_workspace) : NULL;
        const char *owner = legacy_owner(c, known);
        if (owner && !strcmp(owner, agent_id)) {
                if (fallback && *fallback)
                        return sbx_expand_user_path(fallback);
                if (sbx_default_agent_workspace(&r) == -EINVAL)
                        errno = EINVAL; /* OPENCLAW_PROFILE */
                return r;
        }
        if (fallback && *fallback) {
                _cleanup_free_ char *base = sbx_expand_user_path(fallback);
                if (!base || asprintf(&r, "%s%s%s", base, strcmp(base, "/") ? "/" : "", agent_id) < 0)
                        return NULL;
                return r;
        }
        _cleanup_free_ char *state = sbx_state_dir();
        if (!state || asprintf(&r, "%s%sworkspace-%s", state, strcmp(state, "/") ? "/" : "", agent_id) < 0)
                return NULL;
        return r;
}

/* resolveAgentWorkspaceDir: the path with its NULs (C0 80 in sbx's strings) taken out
 * (stripNullBytes) */
static char *workspace_dir_for(const sbx_config *c, const sbx_agent_config *a, const char *agent_id,
                               const sbx_strv *known) {
        char *r = workspace_dir_raw(c, a, agent_id, known), *o = r;
        for (const char *p = r; p && *p;) {
                if ((unsigned char) p[0] == 0xC0 && (unsigned char) p[1] == 0x80)
                        p += 2;
                else
                        *o++ = *p++;
        }
        if (o)
                *o = 0;
        return r;
}

/* path.join(a, b) for a normalised a: an empty a adds nothing */
static char *path_join2(const char *a, const char *b) {
        char *r;
        if (asprintf(&r, "%s%s%s", a, !a[0] || a[strlen(a) - 1] == '/' ? "" : "/", b) < 0)
                return NULL;
        return r;
}

/* posix.normalize for container paths, trailing '/' removed, "/" for empty */
static char *container_path(const char *p) {
        size_t n = strlen(p), o = 0;
        char *out = malloc(n + 2);
        bool abs = p[0] == '/';
        if (!out)
                return NULL;
        size_t base = 0, len;
        if (abs)
                out[o++] = '/', base = 1;
        for (const char *s = p; sbx_policy_path_next(&s, &len); s += len) {
                if (len == 1 && s[0] == '.') {
                } else if (len == 2 && s[0] == '.' && s[1] == '.' && o > base) {
                        while (o > base && out[o - 1] != '/')
                                o--;
                        if (o > base)
                                o--;
                } else {
                        if (o > base)
                                out[o++] = '/';
                        memcpy(out + o, s, len);
                        o += len;
                }
        }
        out[o] = '\0';
        if (o == 0)
                strcpy(out, abs ? "/" : ".");
        if (!strcmp(out, "."))
                strcpy(out, "/");
        return out;
}

static int mount_set(sbx_resolved *r, const char *host, const char *container, bool writable,
                     const char *source) {
        /* hostRoot is path.resolve(host): neither trimmed nor ~-expanded, relative to the cwd */
        _cleanup_free_ char *cp = container_path(container), *hp = sbx_path_resolve(host);
        if (!cp || !hp)
                return -ENOMEM;
        for (size_t i = 0; i < r->n_mounts; i++)
                if (!strcmp(r->mounts[i].container_root, cp)) {
                        free(r->mounts[i].host_root);
                        r->mounts[i].host_root = TAKE_PTR(hp);
                        r->mounts[i].writable = writable;
                        r->mounts[i].source = source;
                        return 0;
                }
        sbx_mount *m = realloc(r->mounts, (r->n_mounts + 1) * sizeof(*m));
        if (!m)
                return -ENOMEM;
        r->mounts = m;
        r->mounts[r->n_mounts++] = (sbx_mount){
                .host_root = TAKE_PTR(hp),
                .container_root = TAKE_PTR(cp),
                .writable = writable,
                .source = source,
        };
        return 0;
}

/* agent_ws: the agent workspace as the layout resolves it again */
static int resolve_mounts(sbx_resolved *r, const char *workspace_dir, const char *agent_ws) {
        int k;
        if ((k = mount_set(r, workspace_dir, r->container_workdir, r->workspace_access != SBX_ACCESS_RO,
                           "workspace")) < 0)
                return k;
        if (r->workspace_access != SBX_ACCESS_NONE && strcmp(workspace_dir, agent_ws) != 0 &&
            (k = mount_set(r, agent_ws, "/agent", r->workspace_access != SBX_ACCESS_RO,
                           "agent")) < 0)
                return k;
        /* custom binds: the last bind per container path wins, at its first position */
        const sbx_strv *b = &r->docker.binds;
        for (size_t i = 0; i < b->n; i++) {
                const char *spec = b->v[i];
                _cleanup_free_ char *host = sbx_bind_source(spec); /* a drive letter is no separator */
                if (!host)
                        return -ENOMEM;
                if (!spec[strlen(host)])
                        continue; /* no ':' */
                const char *rest = spec + strlen(host) + 1, *c2 = strchr(rest, ':');
                _cleanup_free_ char *cont = c2 ? strndup(rest, (size_t) (c2 - rest)) : strdup(rest);
                const char *opts = c2 ? c2 + 1 : "";
                if (!cont)
                        return -ENOMEM;
                if (!*host || cont[0] != '/')
                        continue;
                bool ro;
                if ((k = sbx_bind_options_read_only(opts, &ro)) < 0)
                        return k;
                if ((k = mount_set(r, host, cont, !ro, "bind")) < 0)
                        return k;
        }
        return 0;
}

static char *ssh_runtime_id(const char *scope_key) {
        _cleanup_free_ char *t = sbx_strdup_trim(scope_key);
        char hex[65], *r;

        if (!t)
                return NULL;
        if (!*t) {
                free(t);
                if (!(t = strdup("session")))
                        return NULL;
        }
        size_t n = strlen(t);
        bool ws = n >= 43 && !strncasecmp(t + n - 43, ":workspace:", 11);
        for (size_t i = n >= 32 ? n - 32 : 0; ws && i < n; i++)
                if (!strchr("0123456789abcdefABCDEF", t[i]))
                        ws = false;
        if (ws) {
                sbx_sha256_hex_js(t, hex);
                return asprintf(&r, "openclaw-ssh-workspace-%.32s", hex) < 0 ? NULL : r;
        }
        _cleanup_free_ char *slug = sbx_slugify_session_key(t); /* "<base>-<sha8>": keep the base */
        if (!slug)
                return NULL;
        char *dash = strrchr(slug, '-');
        if (dash)
                *dash = '\0';
        uint32_t h = 5381;
        for (const unsigned char *p = (const unsigned char *) t; *p; p++)
                h = (h * 33) ^ *p;
        return asprintf(&r, "openclaw-ssh-%s-%x", slug, h) < 0 ? NULL : r;
}

static int resolve_layout(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        _cleanup_free_ char *raw_key = NULL, *sandbox_ws = NULL;

        errno = 0;
        r->agent_workspace_dir = workspace_dir_for(c, a, r->agent_id, &r->known_agents);
        if (!r->agent_workspace_dir)
                return errno == EINVAL ? -EINVAL : -ENOMEM;
        if (!strcmp(r->session_key, "global")) {
                if (asprintf(&raw_key, "agent:%s:main", r->agent_id) < 0)
                        return -ENOMEM;
        } else if (!(raw_key = strdup(r->session_key)))
                return -ENOMEM;
        r->scope_key = sbx_scope_key(r->scope, raw_key, r->agent_workspace_dir, r->agent_id);
        if (!r->scope_key)
                return -ENOMEM;
        _cleanup_free_ char *slug = sbx_slugify_session_key(r->scope_key);
        if (!slug)
                return -ENOMEM;
        _cleanup_free_ char *root = sbx_expand_user_path(r->workspace_root);
        if (!root)
                return -ENOMEM;
        sandbox_ws = r->scope == SBX_SCOPE_SHARED ? strdup(root) : path_join2(root, slug);
        if (!sandbox_ws)
                return -ENOMEM;
        /* the layout resolves the agent workspace once more (resolveUserPath: "a//b" is "a/b"
         * by then, where stripped NULs left it) */
        _cleanup_free_ char *agent_ws_t = sbx_strdup_trim(r->agent_workspace_dir);
        _cleanup_free_ char *agent_ws = agent_ws_t ? sbx_expand_user_path(agent_ws_t) : NULL;
        if (!agent_ws)
                return -ENOMEM;
        const char *workspace_dir = r->workspace_access == SBX_ACCESS_RW ? agent_ws : sandbox_ws;
        r->host_workspace_dir = strdup(r->sandboxed ? workspace_dir : agent_ws);
        if (!r->host_workspace_dir)
                return -ENOMEM;
        r->workspace_source = !r->sandboxed                          ? "direct"
                              : r->workspace_access == SBX_ACCESS_RW ? "agent"
                                                                     : "sandbox";

        bool docker = !strcasecmp(r->backend, "docker"), podman = !strcasecmp(r->backend, "podman");
        if (!r->sandboxed)
                return 0;
        if (docker || podman) {
                r->container_workdir = strdup(r->docker.workdir);
                if (!r->container_workdir)
                        return -ENOMEM;
                /* no workdir (docker.workdir ""): the backend has no workspace to mount */
                bool mounts = r->container_workdir[0] != '\0';
                _cleanup_free_ char *prefix = NULL;
                if (asprintf(&prefix, "%s%s", r->docker.container_prefix, podman ? "podman-" : "") < 0)
                        return -ENOMEM;
                r->container_name =
                        sbx_container_name(prefix, r->scope == SBX_SCOPE_SHARED ? "shared" : slug);
                if (!r->container_name)
                        return -ENOMEM;
                return mounts ? resolve_mounts(r, workspace_dir, agent_ws) : 0;
        }
        if (!strcasecmp(r->backend, "ssh")) {
                /* the remote runtime dir: posix.join(<ssh.workspaceRoot>, <runtime id>, "workspace"),
                 * which normalises ("/a/../b" is "/b") */
                _cleanup_free_ char *id = ssh_runtime_id(r->scope_key), *joined = NULL;
                if (!id || r->ssh_workspace_root[0] != '/')
                        return id ? 0 : -ENOMEM;
                if (asprintf(&joined, "%s/%s/workspace", r->ssh_workspace_root, id) < 0)
                        return -ENOMEM;
                if (!(r->container_workdir = container_path(joined)))
                        return -ENOMEM;
        }
        return 0;
}

/* tools.exec.{security,safeBins,safeBinTrustedDirs}: the agent's value
 * replaces the global one field by field (resolveExecConfig, spec §5.1). */
static int strv_dup(sbx_strv *dst, const sbx_strv *src) {
        for (size_t i = 0; i < src->n; i++)
                if (sbx_strv_push(dst, src->v[i]) < 0)
                        return -ENOMEM;
        return 0;
}

static char *exec_key(const sbx_agent_config *a, const char *field) {
        char *k = NULL;

        int n = a ? asprintf(&k, "agents.entries.%s.tools.exec.%s", a->id, field) :
                    asprintf(&k, "tools.exec.%s", field);
        if (n < 0)
                return NULL;
        return k;
}

static int resolve_exec_security(const sbx_config *c, const sbx_agent_config *a, sbx_resolved *r) {
        const sbx_agent_config *as = a && a->tools.exec_security ? a : NULL;
        const sbx_agent_config *ab = a && a->tools.safe_bins_set ? a : NULL;
        const sbx_agent_config *ad = a && a->tools.safe_bin_dirs_set ? a : NULL;
        const char *sec = as ? a->tools.exec_security : c->tools.exec_security;

        if (sec) {
                r->exec_security = strdup(sec);
                r->exec_security_key = exec_key(as, "security");
                if (!r->exec_security || !r->exec_security_key)
                        return -ENOMEM;
        }
        if (ab || c->tools.safe_bins_set) {
                r->safe_bins_key = exec_key(ab, "safeBins");
                if (!r->safe_bins_key || strv_dup(&r->safe_bins, ab ? &a->tools.safe_bins : &c->tools.safe_bins) < 0)
                        return -ENOMEM;
        }
        if (ad || c->tools.safe_bin_dirs_set) {
                r->safe_bin_dirs_key = exec_key(ad, "safeBinTrustedDirs");
                if (!r->safe_bin_dirs_key ||
                    strv_dup(&r->safe_bin_dirs, ad ? &a->tools.safe_bin_dirs : &c->tools.safe_bin_dirs) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int sbx_resolve(const sbx_config *c, const sbx_request *req, sbx_resolved *ret, int *ret_kind,
                sbx_error *reterr) {
        sbx_resolved r = {};
        int k;

        if (ret_kind)
                *ret_kind = 0;
        k = resolve_agent(c, req, &r, ret_kind, reterr);
        if (k < 0)
                goto fail;
        r.subagent_depth = sbx_subagent_depth(r.session_key);
        {
                double max = c->has_max_spawn_depth ? c->max_spawn_depth : 5;
                if (!(max >= 1))
                        max = 1;
                r.subagent_role = r.subagent_depth == 0    ? "main"
                                  : r.subagent_depth < max ? "orchestrator"
                                                           : "leaf";
        }
        const sbx_agent_config *a = sbx_find_agent(c, r.agent_id);
        k = sbx_resolve_sandbox_settings(c, a, &r, reterr);
        if (k < 0)
                goto fail;
        k = resolve_sandboxed(c, &r);
        if (k < 0)
                goto fail;
        k = resolve_layout(c, a, &r);
        if (k == -EINVAL) {
                k = sbx_error_set(reterr, k, "Invalid profile name: \"%s\" (OPENCLAW_PROFILE)",
                                  sbx_policy_getenv("OPENCLAW_PROFILE") ?: "");
                goto fail;
        }
        if (k < 0)
                goto fail;
        k = sbx_resolve_tool_policy(c, a, &r);
        if (k < 0)
                goto fail;
        k = resolve_exec_security(c, a, &r);
        if (k < 0)
                goto fail;
        *ret = r;
        return 0;
fail:
        sbx_resolved_done(&r);
        if (k == -ENOMEM)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return k;
}

void sbx_resolved_done(sbx_resolved *r) {
        if (!r)
                return;
        sbx_strv_free(&r->known_agents);
        free_many(r->agent_id, r->requested_session_key, r->session_key, r->main_session_key, r->backend, r->workspace_root,
                  r->ssh_workspace_root, r->agent_workspace_dir, r->scope_key, r->container_name,
                  r->host_workspace_dir, r->container_workdir);
        sbx_docker_config_done(&r->docker);
        sbx_browser_config_done(&r->browser);
        for (size_t i = 0; i < r->n_mounts; i++)
                free_many(r->mounts[i].host_root, r->mounts[i].container_root);
        free(r->mounts);
        sbx_strv_free(&r->sandbox_allow);
        sbx_strv_free(&r->sandbox_deny);
        free(r->exec_security);
        free(r->exec_security_key);
        sbx_strv_free(&r->safe_bins);
        sbx_strv_free(&r->safe_bin_dirs);
        free(r->safe_bins_key);
        free(r->safe_bin_dirs_key);
        free(r->sandbox_allow_key);
        free(r->sandbox_deny_key);
        for (size_t i = 0; i < r->n_layers; i++)
                sbx_policy_layer_done(&r->layers[i]);
        free(r->layers);
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++) {
                free(r->tools[i].layer);
                free(r->tools[i].key);
                free(r->tools[i].fix);
        }
        for (size_t i = 0; i < SBX_N_CHANNEL_TOOLS; i++) {
                free(r->channel_tools[i].layer);
                free(r->channel_tools[i].key);
                free(r->channel_tools[i].fix);
        }
        *r = (sbx_resolved){};
}

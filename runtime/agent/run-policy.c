/* SPDX-License-Identifier: MIT */
/* Mapping of OpenClaw's resolved docker settings onto sbx's launcher:
 *
 *   docker.readOnlyRoot   -> read_only_root
 *   workspaceAccess       -> none: the sandbox workspace dir, overlaid (writes stay in the run);
 *                            ro: the agent workspace, read-only at /workspace and /agent;
 *                            rw: the agent workspace itself, writable
 *   docker.workdir        -> workdir, and where the workspace is mounted (OpenClaw's -v WS:WORKDIR)
 *   docker.user "u:g"     -> uid/gid, names in the root's /etc/passwd, group (unset or blank:
 *                            0:0 without capabilities, not the workspace owner)
 *   docker.env            -> env, as written (2026.9.6 keeps explicitly configured names;
 *                            values were checked single-line and NUL-free at load)
 *   docker.tmpfs          -> tmpfs (replaces the launcher defaults)
 *   docker.binds          -> binds, after OpenClaw's bind safety checks; ":ro" among the
 *                            options makes a bind read-only, other options (z, Z, rw, a
 *                            propagation: the bind stays private) are ignored; a mode docker
 *                            refuses is refused (sbx_check_bind_safety)
 *   docker.network        -> none | bridge | container:NAME (sbx_run_config_set_network); host refused;
 *                            "" and "default": bridge, docker's default network
 *   docker.dns/extraHosts -> resolv.conf / hosts lines
 *   docker.ulimits        -> rlimits, as formatUlimitValue passes them (blank/{} skipped)
 *   docker.memory/memorySwap/pidsLimit/cpus -> cgroup limits (strings trimmed, blank or 0: none)
 *   docker.seccompProfile -> a Docker-format profile file layered under sbx's rules ("" and
 *                            "builtin": the default profile, as OpenClaw + docker)
 *   docker.capDrop        -> sbx always drops every capability (stricter than any capDrop);
 *                            a name docker does not know is refused, as docker's create
 *   docker.setupCommand   -> setup_command (run once before the command)
 *   docker.apparmorProfile, gpus, image -> not applied (noted)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/policy.h"
#include "util/util.h"
#include "agent.h"
#include "net/net.h"

static void add_note(sbx_strv *notes, const char *msg) {
        if (notes)
                (void) sbx_strv_push(notes, msg);
}

/* The text OpenClaw passes to docker for a string-or-number: a string
 * trimmed (normalizeDockerLimit, formatUlimitValue), a number as is. "" =
 * OpenClaw passes no flag. */
static int scalar_text(const sbx_scalar *s, char *buf, size_t len) {
        if (s->is_str) {
                const char *t = s->str + strspn(s->str, " \t\n\r\f\v");
                size_t n = strlen(t);
                while (n > 0 && strchr(" \t\n\r\f\v", t[n - 1]))
                        n--;
                return snprintf(buf, len, "%.*s", (int) n, t);
        }
        return snprintf(buf, len, "%.17g", s->num);
}

static bool blank(const char *s) {
        return !s[strspn(s, " \t\n\r\f\v")];
}

static int map_limits(const sbx_docker_config *d, sbx_run_config *c, sbx_error *e) {
        char buf[64];

        /* a blank string: OpenClaw passes no --memory/--memory-swap; 0:
         * docker's "no limit" (memory) and "unset" (swap) */
        if (d->memory.set && (scalar_text(&d->memory, buf, sizeof(buf)), buf[0]) && strcmp(buf, "0")) {
                if (sbx_parse_size(buf, &c->limits.memory) < 0 || c->limits.memory <= 0)
                        return sbx_error_set(e, -EINVAL,
                                             "docker.memory \"%s\": expected a size such as 512m", buf);
        }
        if (d->memory_swap.set && (scalar_text(&d->memory_swap, buf, sizeof(buf)), buf[0]) && strcmp(buf, "0")) {
                if (!strcmp(buf, "-1"))
                        c->limits.memory_swap = SBX_LIMIT_UNLIMITED;
                else if (sbx_parse_size(buf, &c->limits.memory_swap) < 0 || c->limits.memory_swap <= 0)
                        return sbx_error_set(e, -EINVAL, "docker.memorySwap \"%s\": expected a size or -1",
                                             buf);
        }
        if (d->pids_limit.set && !d->pids_limit.is_str)
                c->limits.pids = (int64_t) d->pids_limit.num;
        if (d->cpus.set) {
                scalar_text(&d->cpus, buf, sizeof(buf));
                if (sbx_parse_cpus(buf, &c->limits.cpu_millis) < 0)
                        return sbx_error_set(e, -EINVAL, "docker.cpus \"%s\": expected a positive number",
                                             buf);
        }
        return 0;
}

static int map_ulimits(const sbx_docker_config *d, sbx_run_config *c, sbx_error *e) {
        for (size_t i = 0; i < d->ulimits.n; i++) {
                const sbx_ulimit *u = &d->ulimits.v[i];
                char spec[160], v[64];
                sbx_rlimit rl;
                int r;

                /* formatUlimitValue: a blank name, a blank string and an
                 * object with neither side pass nothing; numbers below 0 are
                 * 0; a fraction reaches docker, which refuses it (so here) */
                if (blank(u->name))
                        continue;
                if (u->is_obj) {
                        double soft = u->soft > 0 ? u->soft : 0, hard = u->hard > 0 ? u->hard : 0;
                        if (!u->has_soft && !u->has_hard)
                                continue;
                        if (u->has_soft && u->has_hard)
                                snprintf(spec, sizeof(spec), "%s=%.17g:%.17g", u->name, soft, hard);
                        else
                                snprintf(spec, sizeof(spec), "%s=%.17g", u->name, u->has_soft ? soft : hard);
                } else {
                        sbx_scalar val = u->value;
                        if (!val.is_str && val.num < 0)
                                val.num = 0;
                        scalar_text(&val, v, sizeof(v));
                        if (!v[0])
                                continue;
                        snprintf(spec, sizeof(spec), "%s=%s", u->name, v);
                }
                r = sbx_parse_ulimit(spec, &rl, e);
                if (r < 0)
                        return sbx_error_wrap(e, "docker.ulimits.%s", u->name);
                r = sbx_run_config_add_rlimit(c, &rl);
                if (r < 0)
                        return sbx_error_set(e, r, "docker.ulimits.%s", u->name);
        }
        return 0;
}

/* docker.binds -> the run config's binds, each source the canonical path
 * sbx_check_bind_safety judged (canon[i]), pinned so the launcher opens it
 * as is, following no symlink. */
static int add_binds(const sbx_docker_config *d, char *const *canon, sbx_run_config *c, sbx_error *e) {
        int k;

        for (size_t i = 0; i < d->binds.n; i++) {
                const char *spec = d->binds.v[i];
                _cleanup_free_ char *src = sbx_bind_source(spec);
                if (!src)
                        return -ENOMEM;
                const char *rest = spec[strlen(src)] == ':' ? spec + strlen(src) + 1 : src;
                _cleanup_free_ char *dst = strdup(rest);
                if (!dst)
                        return -ENOMEM;
                char *opts = strchr(dst, ':');
                bool ro = false;
                if (opts) {
                        *opts++ = '\0';
                        if ((k = sbx_bind_options_read_only(opts, &ro)) < 0)
                                return k;
                }
                if (src[0] != '/' || dst[0] != '/')
                        return sbx_error_set(e, -EINVAL,
                                             "docker.binds[%zu] \"%s\": source and target must be absolute",
                                             i, spec);
                sbx_bind b = {.src = canon[i], .dst = dst, .ro = ro, .pinned = true};
                k = sbx_run_config_add_bind(c, &b);
                if (k < 0)
                        return sbx_error_set(e, k, "docker.binds[%zu]", i);
        }
        return 0;
}

static int map_mounts(const sbx_resolved *r, sbx_run_config *c, sbx_error *e) {
        const sbx_docker_config *d = &r->docker;
        int k;

        for (size_t i = 0; i < d->tmpfs.n; i++) {
                sbx_tmpfs t;
                k = sbx_parse_tmpfs_docker(d->tmpfs.v[i], &t, e);
                if (k < 0)
                        return sbx_error_wrap(e, "docker.tmpfs[%zu]", i);
                k = sbx_run_config_add_tmpfs(c, &t);
                free(t.path);
                if (k < 0)
                        return sbx_error_set(e, k, "docker.tmpfs[%zu]", i);
        }
        c->tmpfs_set = true;

        /* bind the canonical paths the check judged, not a source resolved
         * again later: a symlink swapped in since (the workspace is the
         * sandbox's to write) must not redirect a bind */
        char **canon = calloc(d->binds.n + 1, sizeof(char *));
        if (!canon)
                return -ENOMEM;
        k = sbx_check_bind_safety(r, canon, NULL, e);
        if (k >= 0)
                k = add_binds(d, canon, c, e);
        for (size_t i = 0; i < d->binds.n; i++)
                free(canon[i]);
        free(canon);
        return k < 0 ? k : 0;
}

/* A workspace path of openclaw.json's (the agent's workspace, or
 * <workspaceRoot>/<slug>): its directory is the operator's layout, read
 * from the config now, so links there (a symlinked home, /var/run -> /run)
 * are resolved here, by us; its last component lies in a directory a
 * sandbox may write (a shared scope's workspaceRoot) and is resolved by the
 * launcher following no symlink (sbx_mount_source_resolve). */
static char *config_workspace(const char *ws) {
        const char *slash = ws ? strrchr(ws, '/') : NULL;
        _cleanup_free_ char *dir = NULL, *real = NULL;
        char *out = NULL;

        if (!slash || slash == ws || !slash[1])
                return ws ? strdup(ws) : NULL;
        dir = strndup(ws, (size_t) (slash - ws));
        real = dir ? realpath(dir, NULL) : NULL;
        if (!real)
                return strdup(ws);
        if (asprintf(&out, "%s%s", strcmp(real, "/") ? real : "", slash) < 0)
                return NULL;
        return out;
}

int sbx_policy_to_run_config(const sbx_resolved *r, sbx_run_config *c, sbx_strv *notes, sbx_error *e) {
        const sbx_docker_config *d = &r->docker;
        char msg[512];
        int k;

        /* network first: "none", "bridge" and, with
         * dangerouslyAllowContainerNamespaceJoin, "container:NAME" exist; host
         * and anything else are refused naming the value (issue 7). */
        c->allow_container_join = d->allow_ns_join == SBX_TRUE;
        /* "" (OpenClaw passes no --network) and "default": docker's default
         * network, the bridge */
        const char *net = d->network;
        if (net && (!net[0] || !strcmp(net, "default"))) {
                snprintf(msg, sizeof(msg), "docker.network \"%s\" is docker's default network: bridge "
                         "(OpenClaw passes %s)", net, net[0] ? "--network default" : "no --network");
                add_note(notes, msg);
                net = "bridge";
        }
        k = sbx_run_config_set_network(c, net, c->allow_container_join, e);
        if (k < 0)
                return sbx_error_wrap(e, "docker.network");
        c->read_only_root = d->read_only_root != SBX_FALSE;
        /* sbx drops every capability whatever capDrop says; a name docker
         * does not know fails docker's create (OpenClaw passes each entry as
         * --cap-drop), so here too */
        for (size_t i = 0; i < d->cap_drop.n; i++) {
                const char *v = d->cap_drop.v[i];
                char name[64];
                snprintf(name, sizeof(name), "%s%s", strncasecmp(v, "CAP_", 4) ? "CAP_" : "", v);
                if (strcasecmp(v, "ALL") && (strlen(v) >= sizeof(name) - 4 || sbx_cap_from_name(name) < 0))
                        return sbx_error_set(e, -EINVAL, "docker.capDrop[%zu] '%s': docker refuses it: unknown "
                                             "capability: \"%s\"", i, v, name);
        }

        free(c->workspace);
        switch (r->workspace_access) {
        case SBX_ACCESS_RW:
                c->workspace = config_workspace(r->agent_workspace_dir);
                c->workspace_access = SBX_WORKSPACE_RW;
                break;
        case SBX_ACCESS_RO:
                c->workspace = config_workspace(r->agent_workspace_dir);
                c->workspace_access = SBX_WORKSPACE_RO;
                break;
        case SBX_ACCESS_NONE:
        default:
                c->workspace = config_workspace(r->host_workspace_dir);
                c->workspace_access = SBX_WORKSPACE_NONE;
                break;
        }
        if (!c->workspace)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (d->workdir) {
                free(c->workdir);
                if (!(c->workdir = strdup(d->workdir)))
                        return sbx_error_set(e, -ENOMEM, "out of memory");
                /* OpenClaw mounts the workspace at docker.workdir (-v
                 * WS:WORKDIR), not at /workspace: there too (sbx ran in a
                 * missing cwd and failed, 125) */
                free(c->workspace_dst);
                c->workspace_dst = NULL;
                if (d->workdir[0] != '/')
                        return sbx_error_set(e, -EINVAL, "docker.workdir '%s': must be absolute", d->workdir);
                if (strcmp(d->workdir, "/workspace") && !(c->workspace_dst = strdup(d->workdir)))
                        return sbx_error_set(e, -ENOMEM, "out of memory");
        }
        /* OpenClaw passes no --user for a blank one (the workspace owner's
         * then); names, and a bare uid's group, are docker's: looked up in
         * the root's /etc/passwd and /etc/group (sbx's generated ones for the
         * default root: root, nobody) */
        bool user = d->user && d->user[strspn(d->user, " \t\n\r\f\v")];
        if (user && (k = sbx_rootfs_user(c->rootfs, d->user, "docker.user", &c->uid, &c->gid, NULL, 0, e)) < 0)
                return k;
        c->user_set = user;
        for (size_t i = 0; i < d->env.n; i++) {
                _cleanup_free_ char *kv = NULL;
                if (asprintf(&kv, "%s=%s", d->env.v[i].key, d->env.v[i].val) < 0 ||
                    sbx_run_config_add_env(c, kv) < 0)
                        return sbx_error_set(e, -ENOMEM, "out of memory");
        }
        /* OpenClaw skips blank dns/extraHosts entries and passes the rest
         * as written; docker's CLI trims the address, takes HOST=IP and
         * [IPv6] too, and hands the daemon its canonical form */
        for (size_t i = 0; i < d->dns.n; i++) {
                _cleanup_free_ char *v = NULL;
                if (blank(d->dns.v[i]))
                        continue;
                if ((k = sbx_docker_dns_normalize(d->dns.v[i], &v, e)) < 0)
                        return sbx_error_wrap(e, "docker.dns[%zu]", i);
                if (sbx_run_config_add_dns(c, v) < 0)
                        return sbx_error_set(e, -ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < d->extra_hosts.n; i++) {
                _cleanup_free_ char *v = NULL;
                if (blank(d->extra_hosts.v[i]))
                        continue;
                if ((k = sbx_docker_extra_host_normalize(d->extra_hosts.v[i], &v, e)) < 0)
                        return sbx_error_wrap(e, "docker.extraHosts[%zu]", i);
                if (sbx_run_config_add_extra_host(c, v) < 0)
                        return sbx_error_set(e, -ENOMEM, "out of memory");
        }
        if ((k = map_ulimits(d, c, e)) < 0 || (k = map_limits(d, c, e)) < 0 || (k = map_mounts(r, c, e)) < 0)
                return k;
        if ((k = sbx_run_config_check_mounts(c, e)) < 0)
                return sbx_error_wrap(e, "docker.tmpfs");
        /* borrowed: r outlives the run. OpenClaw passes no --security-opt
         * for "" and docker takes "builtin" for its default profile, not a
         * file of that name: both get sbx's default profile */
        c->seccomp.profile_path = d->seccomp_profile && d->seccomp_profile[0] &&
                                                  strcmp(d->seccomp_profile, "builtin")
                                          ? d->seccomp_profile
                                          : NULL;

        if (d->apparmor_profile) {
                snprintf(msg, sizeof(msg),
                         "docker.apparmorProfile \"%s\" is not applied (sbx uses seccomp, "
                         "namespaces and no capabilities instead)",
                         d->apparmor_profile);
                add_note(notes, msg);
        }
        /* setupCommand: once, in the new sandbox, before the command (launch.c) */
        if (d->setup_command && !(c->setup_command = strdup(d->setup_command)))
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (d->gpus)
                add_note(notes, "docker.gpus is not supported; no GPU is passed through");
        if (!user)
                add_note(notes, "docker.user is unset: running as uid 0 inside the user namespace, with no "
                                "capabilities (OpenClaw would use the workspace owner)");
        return 0;
}

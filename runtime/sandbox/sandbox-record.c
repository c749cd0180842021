/* SPDX-License-Identifier: MIT */
/* The sandbox record (<root>/<name>/sandbox.json): written atomically (temp +
 * fsync + rename) so a crash leaves the old or the new version, never half of
 * one. Read strictly: a record that does not parse is treated as the leftover
 * of a crashed create and cleaned, never guessed at. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "sandbox-internal.h"

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_putp)

uint64_t sbx_now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

int sbx_sandbox_dir(const char *name, char *buf, size_t len) {
        int n = snprintf(buf, len, "%s/%s", sbx_sandbox_root(), name);

        return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

/* ---------------------------------------------------------------- config */

static int strv_copy(char ***dst, size_t *dst_n, char *const *src, size_t n) {
        *dst = NULL;
        *dst_n = 0;
        if (!n)
                return 0;
        *dst = calloc(n + 1, sizeof(char *));
        if (!*dst)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                (*dst)[i] = strdup(src[i]);
                if (!(*dst)[i])
                        return -ENOMEM;
                *dst_n = i + 1;
        }
        return 0;
}

static int str_copy(char **dst, const char *src) {
        *dst = src ? strdup(src) : NULL;
        return src && !*dst ? -ENOMEM : 0;
}

int sbx_run_config_copy(sbx_run_config *d, const sbx_run_config *s) {
        *d = *s;
        d->argv = NULL;
        d->rootfs = d->workspace = d->workspace_dst = d->workdir = d->hostname = d->state_dir = d->network_container = d->network_name = NULL;
        /* every owned pointer is copied, none shared: both copies are freed */
        d->root_layer_dir = d->setup_command = d->audit_log = d->template_base = d->make_dir = NULL;
        d->exec_allow_key = d->exec_refused_rule = d->exec_refused_key = NULL;
        d->exec_allow = NULL;
        d->n_exec_allow = 0;
        d->envv = d->dns = d->extra_hosts = NULL;
        d->n_env = d->n_dns = d->n_extra_hosts = d->n_binds = d->n_tmpfs = 0;
        d->binds = NULL;
        d->tmpfs = NULL;
        d->seccomp.profile_path = NULL;
        if (str_copy(&d->rootfs, s->rootfs) < 0 || str_copy(&d->workspace, s->workspace) < 0 ||
            str_copy(&d->workdir, s->workdir) < 0 || str_copy(&d->hostname, s->hostname) < 0 ||
            str_copy(&d->make_dir, s->make_dir) < 0 || str_copy(&d->workspace_dst, s->workspace_dst) < 0 ||
            str_copy(&d->state_dir, s->state_dir) < 0 ||
            str_copy(&d->network_container, s->network_container) < 0 ||
            str_copy(&d->network_name, s->network_name) < 0 ||
            str_copy(&d->root_layer_dir, s->root_layer_dir) < 0 ||
            str_copy(&d->template_base, s->template_base) < 0 ||
            str_copy(&d->setup_command, s->setup_command) < 0 || str_copy(&d->audit_log, s->audit_log) < 0 ||
            str_copy(&d->exec_allow_key, s->exec_allow_key) < 0 ||
            str_copy(&d->exec_refused_rule, s->exec_refused_rule) < 0 ||
            str_copy(&d->exec_refused_key, s->exec_refused_key) < 0 ||
            strv_copy(&d->exec_allow, &d->n_exec_allow, s->exec_allow, s->n_exec_allow) < 0 ||
            str_copy((char **) &d->seccomp.profile_path, s->seccomp.profile_path) < 0 ||
            strv_copy(&d->envv, &d->n_env, s->envv, s->n_env) < 0 ||
            strv_copy(&d->dns, &d->n_dns, s->dns, s->n_dns) < 0 ||
            strv_copy(&d->extra_hosts, &d->n_extra_hosts, s->extra_hosts, s->n_extra_hosts) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < s->n_binds; i++)
                if (sbx_run_config_add_bind(d, &s->binds[i]) < 0)
                        return -ENOMEM;
        for (size_t i = 0; i < s->n_tmpfs; i++)
                if (sbx_run_config_add_tmpfs(d, &s->tmpfs[i]) < 0)
                        return -ENOMEM;
        d->tmpfs_set = s->tmpfs_set;
        return 0;
}

static json_object *config_to_json(const sbx_run_config *c) {
        json_object *o = json_object_new_object(), *a, *l;

        json_object_object_add(o, "rootfs", sbx_json_string(c->rootfs));
        json_object_object_add(o, "read_only_root", json_object_new_boolean(c->read_only_root));
        json_object_object_add(o, "workspace", sbx_json_string(c->workspace));
        json_object_object_add(o, "workspace_access",
                               sbx_json_string(sbx_workspace_access_to_string(c->workspace_access)));
        json_object_object_add(o, "workspace_sbx_owned", json_object_new_boolean(c->workspace_sbx_owned));
        if (c->workspace_no_agent)
                json_object_object_add(o, "workspace_no_agent", json_object_new_boolean(true));
        if (c->make_dir)
                json_object_object_add(o, "make_dir", sbx_json_string(c->make_dir));
        if (c->workspace_dst)
                json_object_object_add(o, "workspace_dst", sbx_json_string(c->workspace_dst));
        json_object_object_add(o, "env", sbx_json_strings(c->envv, c->n_env));
        json_object_object_add(o, "workdir", sbx_json_string(c->workdir));
        json_object_object_add(o, "uid", json_object_new_int64(c->uid));
        json_object_object_add(o, "gid", json_object_new_int64(c->gid));
        json_object_object_add(o, "hostname", sbx_json_string(c->hostname));
        a = json_object_new_array();
        for (size_t i = 0; i < c->n_rlimits; i++) {
                json_object *r = json_object_new_object();
                json_object_object_add(r, "resource", json_object_new_int(c->rlimits[i].resource));
                json_object_object_add(r, "soft", json_object_new_uint64(c->rlimits[i].soft));
                json_object_object_add(r, "hard", json_object_new_uint64(c->rlimits[i].hard));
                json_object_array_add(a, r);
        }
        json_object_object_add(o, "rlimits", a);
        json_object_object_add(o, "tmpfs_set", json_object_new_boolean(c->tmpfs_set));
        a = json_object_new_array();
        for (size_t i = 0; i < c->n_tmpfs; i++) {
                json_object *t = json_object_new_object();
                json_object_object_add(t, "path", sbx_json_string(c->tmpfs[i].path));
                json_object_object_add(t, "size", json_object_new_uint64(c->tmpfs[i].size));
                json_object_object_add(t, "mode", json_object_new_int(c->tmpfs[i].mode));
                if (c->tmpfs[i].noexec) /* only when set: older records' hashes stay */
                        json_object_object_add(t, "noexec", json_object_new_boolean(true));
                json_object_array_add(a, t);
        }
        json_object_object_add(o, "tmpfs", a);
        a = json_object_new_array();
        for (size_t i = 0; i < c->n_binds; i++) {
                json_object *b = json_object_new_object();
                json_object_object_add(b, "src", sbx_json_string(c->binds[i].src));
                json_object_object_add(b, "dst", sbx_json_string(c->binds[i].dst));
                json_object_object_add(b, "ro", json_object_new_boolean(c->binds[i].ro));
                if (c->binds[i].pinned)
                        json_object_object_add(b, "pinned", json_object_new_boolean(true));
                json_object_array_add(a, b);
        }
        json_object_object_add(o, "binds", a);
        /* only when not "none": the hashes of older records stay valid */
        if (c->network != SBX_NETWORK_NONE)
                json_object_object_add(o, "network", json_object_new_string(sbx_network_mode_to_string(c->network)));
        if (c->network_name)
                json_object_object_add(o, "network_name", sbx_json_string(c->network_name));
        if (c->network == SBX_NETWORK_CONTAINER) {
                json_object_object_add(o, "network_container", sbx_json_string(c->network_container));
                json_object_object_add(o, "allow_container_join", json_object_new_boolean(c->allow_container_join));
        }
        json_object_object_add(o, "dns", sbx_json_strings(c->dns, c->n_dns));
        json_object_object_add(o, "extra_hosts", sbx_json_strings(c->extra_hosts, c->n_extra_hosts));
        l = json_object_new_object();
        json_object_object_add(l, "memory", json_object_new_int64(c->limits.memory));
        json_object_object_add(l, "memory_swap", json_object_new_int64(c->limits.memory_swap));
        json_object_object_add(l, "pids", json_object_new_int64(c->limits.pids));
        json_object_object_add(l, "cpu_millis", json_object_new_int64(c->limits.cpu_millis));
        json_object_object_add(l, "best_effort", json_object_new_boolean(c->limits.best_effort));
        json_object_object_add(o, "limits", l);
        json_object_object_add(o, "seccomp_profile", sbx_json_string(c->seccomp.profile_path));
        json_object_object_add(o, "deny_inet_sockets", json_object_new_boolean(c->seccomp.deny_inet_sockets));
        sbx_rules_config_add(o, c);
        return o;
}

char *sbx_run_config_to_json_text(const sbx_run_config *c) {
        _cleanup_json_ json_object *o = config_to_json(c);
        const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);

        return t ? strdup(t) : NULL;
}

/* Typed getters: a missing key is NULL/0/false; a wrong type is an error. */
static int get(json_object *o, const char *key, json_type type, json_object **ret) {
        json_object *v = NULL;

        *ret = NULL;
        if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, type) && !(type == json_type_double && json_object_is_type(v, json_type_int)))
                return -EBADMSG;
        *ret = v;
        return 0;
}

static int get_str(json_object *o, const char *key, char **ret) {
        json_object *v;
        int r = get(o, key, json_type_string, &v);

        *ret = NULL;
        if (r < 0 || !v)
                return r;
        *ret = strdup(json_object_get_string(v));
        return *ret ? 0 : -ENOMEM;
}

/* key's value, NULL when missing; a wrong type also gives NULL and sets *err. */
static json_object *get_typed(json_object *o, const char *key, json_type type, int *err) {
        json_object *v;

        if (get(o, key, type, &v) < 0) {
                *err = -EBADMSG;
                return NULL;
        }
        return v;
}

static int64_t get_i64(json_object *o, const char *key, int64_t def, int *err) {
        json_object *v = get_typed(o, key, json_type_int, err);

        return v ? json_object_get_int64(v) : def;
}

static uint64_t get_u64(json_object *o, const char *key, int *err) {
        json_object *v = get_typed(o, key, json_type_int, err);

        return v ? json_object_get_uint64(v) : 0;
}

static bool get_bool(json_object *o, const char *key, bool def, int *err) {
        json_object *v = get_typed(o, key, json_type_boolean, err);

        return v ? json_object_get_boolean(v) : def;
}

static int get_strv(json_object *o, const char *key, char ***ret, size_t *ret_n) {
        json_object *a;
        int r = get(o, key, json_type_array, &a);

        if (r < 0 || !a)
                return r;
        for (size_t i = 0; i < json_object_array_length(a); i++) {
                json_object *e = json_object_array_get_idx(a, i);
                char **nv;
                if (!json_object_is_type(e, json_type_string))
                        return -EBADMSG;
                nv = realloc(*ret, sizeof(char *) * (*ret_n + 2));
                if (!nv)
                        return -ENOMEM;
                *ret = nv;
                nv[*ret_n] = strdup(json_object_get_string(e));
                if (!nv[*ret_n])
                        return -ENOMEM;
                nv[++*ret_n] = NULL;
        }
        return 0;
}

static int config_from_json(json_object *o, sbx_run_config *c) {
        json_object *a, *l;
        char *s = NULL;
        int err = 0, r;

        sbx_run_config_init(c);
        if ((r = get_str(o, "rootfs", &c->rootfs)) < 0 || (r = get_str(o, "workspace", &c->workspace)) < 0 ||
            (r = get_str(o, "workdir", &c->workdir)) < 0 || (r = get_str(o, "hostname", &c->hostname)) < 0 ||
            (r = get_str(o, "seccomp_profile", (char **) &c->seccomp.profile_path)) < 0 ||
            (r = get_strv(o, "env", &c->envv, &c->n_env)) < 0 || (r = get_strv(o, "dns", &c->dns, &c->n_dns)) < 0 ||
            (r = get_strv(o, "extra_hosts", &c->extra_hosts, &c->n_extra_hosts)) < 0)
                return r;
        c->read_only_root = get_bool(o, "read_only_root", true, &err);
        c->workspace_sbx_owned = get_bool(o, "workspace_sbx_owned", false, &err);
        if ((r = get_str(o, "network", &s)) < 0)
                return r;
        c->network = s ? sbx_network_mode_from_string(s) : SBX_NETWORK_NONE;
        free(s);
        s = NULL;
        if (c->network < 0)
                return -EBADMSG;
        if ((r = get_str(o, "network_container", &c->network_container)) < 0 ||
            (r = get_str(o, "network_name", &c->network_name)) < 0)
                return r;
        c->allow_container_join = get_bool(o, "allow_container_join", false, &err);
        if (c->network == SBX_NETWORK_CONTAINER && !c->network_container)
                return -EBADMSG;
        if ((r = get_str(o, "workspace_access", &s)) < 0)
                return r;
        c->workspace_access = s ? sbx_workspace_access_from_string(s) : SBX_WORKSPACE_NONE;
        free(s);
        if (c->workspace_access < 0)
                return -EBADMSG;
        c->workspace_no_agent = get_bool(o, "workspace_no_agent", false, &err);
        if ((r = get_str(o, "make_dir", &c->make_dir)) < 0 ||
            (r = get_str(o, "workspace_dst", &c->workspace_dst)) < 0)
                return r;
        c->uid = (uint32_t) get_i64(o, "uid", 0, &err);
        c->gid = (uint32_t) get_i64(o, "gid", 0, &err);
        if ((r = get(o, "rlimits", json_type_array, &a)) < 0)
                return r;
        for (size_t i = 0; a && i < json_object_array_length(a) && i < SBX_RLIMITS_MAX; i++) {
                json_object *e = json_object_array_get_idx(a, i);
                c->rlimits[i].resource = (int) get_i64(e, "resource", 0, &err);
                c->rlimits[i].soft = get_u64(e, "soft", &err);
                c->rlimits[i].hard = get_u64(e, "hard", &err);
                c->n_rlimits = i + 1;
        }
        if ((r = get(o, "tmpfs", json_type_array, &a)) < 0)
                return r;
        for (size_t i = 0; a && i < json_object_array_length(a); i++) {
                json_object *e = json_object_array_get_idx(a, i);
                sbx_tmpfs t = { .size = get_u64(e, "size", &err), .mode = (unsigned) get_i64(e, "mode", 01777, &err),
                                .noexec = get_bool(e, "noexec", false, &err) };
                if ((r = get_str(e, "path", &t.path)) < 0 || !t.path)
                        return r < 0 ? r : -EBADMSG;
                r = sbx_run_config_add_tmpfs(c, &t);
                free(t.path);
                if (r < 0)
                        return r;
        }
        c->tmpfs_set = get_bool(o, "tmpfs_set", false, &err);
        if ((r = get(o, "binds", json_type_array, &a)) < 0)
                return r;
        for (size_t i = 0; a && i < json_object_array_length(a); i++) {
                json_object *e = json_object_array_get_idx(a, i);
                sbx_bind b = { .ro = get_bool(e, "ro", false, &err), .pinned = get_bool(e, "pinned", false, &err) };
                if ((r = get_str(e, "src", &b.src)) >= 0 && (r = get_str(e, "dst", &b.dst)) >= 0 && b.src && b.dst)
                        r = sbx_run_config_add_bind(c, &b);
                else if (r >= 0)
                        r = -EBADMSG;
                free(b.src);
                free(b.dst);
                if (r < 0)
                        return r;
        }
        if ((r = get(o, "limits", json_type_object, &l)) < 0)
                return r;
        if (l) {
                c->limits.memory = get_i64(l, "memory", SBX_LIMIT_UNSET, &err);
                c->limits.memory_swap = get_i64(l, "memory_swap", SBX_LIMIT_UNSET, &err);
                c->limits.pids = get_i64(l, "pids", SBX_LIMIT_UNSET, &err);
                c->limits.cpu_millis = get_i64(l, "cpu_millis", SBX_LIMIT_UNSET, &err);
                c->limits.best_effort = get_bool(l, "best_effort", false, &err);
        }
        c->seccomp.deny_inet_sockets = get_bool(o, "deny_inet_sockets", false, &err);
        r = sbx_rules_config_parse(o, c);
        return r < 0 ? r : err;
}

/* ---------------------------------------------------------------- record */

static const char *const state_names[_SBX_SANDBOX_STATE_MAX] = {
        [SBX_SANDBOX_CREATED] = "created", [SBX_SANDBOX_RUNNING] = "running",
        [SBX_SANDBOX_PAUSED] = "paused",   [SBX_SANDBOX_STOPPED] = "stopped",
};

const char *sbx_sandbox_state_to_string(sbx_sandbox_state s) {
        return sbx_index_to_name(state_names, ELEMENTSOF(state_names), s);
}

static sbx_sandbox_state state_from_string(const char *s) {
        return sbx_name_to_index(state_names, ELEMENTSOF(state_names), s);
}

static const char *const mode_names[_SBX_WORKSPACE_MODE_MAX] = {
        [SBX_WORKSPACE_MODE_DIRECT] = "direct", [SBX_WORKSPACE_MODE_OVERLAY] = "overlay",
};

SBX_DEFINE_NAME_TABLE(sbx_workspace_mode, sbx_workspace_mode, mode_names)

static void mounts_free(sbx_sandbox *s) {
        for (size_t i = 0; i < s->n_mounts; i++) {
                free(s->mounts[i].src);
                free(s->mounts[i].dst);
                free(s->mounts[i].options);
        }
        free(s->mounts);
        s->mounts = NULL;
        s->n_mounts = 0;
}

static int add_mount(sbx_sandbox *s, sbx_sandbox_mount_type type, const char *src, const char *dst, bool rw,
                     const char *options) {
        sbx_sandbox_mount *n = realloc(s->mounts, sizeof(*n) * (s->n_mounts + 1));

        if (!n)
                return -ENOMEM;
        s->mounts = n;
        n = &s->mounts[s->n_mounts];
        *n = (sbx_sandbox_mount) { .type = type, .rw = rw };
        if (str_copy(&n->src, src) < 0 || str_copy(&n->dst, dst) < 0 || str_copy(&n->options, options) < 0)
                return -ENOMEM;
        s->n_mounts++;
        return 0;
}

/* Mirrors runtime/launch/mount.c's order: tmpfs, /workspace (and /agent), binds. */
int sbx_record_fill_mounts(sbx_sandbox *s) {
        const sbx_run_config *c = &s->config;
        size_t n;
        const sbx_tmpfs *list = sbx_run_config_tmpfs(c, &n);
        int r = 0;

        mounts_free(s);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                char opts[SBX_TMPFS_OPTIONS_MAX];

                sbx_tmpfs_options(&list[i], opts);
                r = add_mount(s, SBX_SANDBOX_MOUNT_TMPFS, NULL, list[i].path, true, opts);
        }
        const char *wdst = c->workspace_dst ?: "/workspace";
        if (r >= 0 && c->workspace) {
                switch (c->workspace_access) {
                case SBX_WORKSPACE_NONE:
                        r = add_mount(s, SBX_SANDBOX_MOUNT_OVERLAY, c->workspace, wdst, true, NULL);
                        break;
                case SBX_WORKSPACE_RO:
                        r = add_mount(s, SBX_SANDBOX_MOUNT_BIND, c->workspace, wdst, false, NULL);
                        if (r >= 0 && !c->workspace_no_agent)
                                r = add_mount(s, SBX_SANDBOX_MOUNT_BIND, c->workspace, "/agent", false, NULL);
                        break;
                case SBX_WORKSPACE_RW:
                        r = add_mount(s, SBX_SANDBOX_MOUNT_BIND, c->workspace, wdst, true, NULL);
                        break;
                case _SBX_WORKSPACE_ACCESS_MAX:
                case _SBX_WORKSPACE_ACCESS_INVALID:
                default:
                        break;
                }
        }
        for (size_t i = 0; r >= 0 && i < c->n_binds; i++)
                r = add_mount(s, SBX_SANDBOX_MOUNT_BIND, c->binds[i].src, c->binds[i].dst, !c->binds[i].ro, NULL);
        return r;
}

int sbx_record_save(const sbx_record *rec, sbx_error *reterr) {
        const sbx_sandbox *s = &rec->s;
        _cleanup_json_ json_object *o = json_object_new_object();
        json_object *labels = json_object_new_object();
        char dir[PATH_MAX], path[PATH_MAX + 32];
        _cleanup_free_ char *text = NULL;
        int r;

        if (sbx_sandbox_dir(s->name, dir, sizeof(dir)) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "sandbox '%s': path too long", s->name);
        json_object_object_add(o, "version", json_object_new_int(SBX_RECORD_VERSION));
        json_object_object_add(o, "name", sbx_json_string(s->name));
        json_object_object_add(o, "id", sbx_json_string(s->id));
        json_object_object_add(o, "state", sbx_json_string(sbx_sandbox_state_to_string(s->state)));
        json_object_object_add(o, "complete", json_object_new_boolean(rec->complete));
        json_object_object_add(o, "starting", json_object_new_boolean(rec->starting));
        json_object_object_add(o, "crashed", json_object_new_boolean(rec->crashed));
        json_object_object_add(o, "created_ms", json_object_new_uint64(s->created_ms));
        json_object_object_add(o, "started_ms", json_object_new_uint64(s->started_ms));
        json_object_object_add(o, "finished_ms", json_object_new_uint64(s->finished_ms));
        json_object_object_add(o, "exit_status", json_object_new_int(s->exit_status));
        for (size_t i = 0; i < s->n_labels; i++)
                json_object_object_add(labels, s->labels[i].key, sbx_json_string(s->labels[i].value));
        json_object_object_add(o, "labels", labels);
        json_object_object_add(o, "config_hash", sbx_json_string(s->config_hash));
        json_object_object_add(o, "image", sbx_json_string(s->image));
        json_object_object_add(o, "workspace_mode",
                               sbx_json_string(sbx_workspace_mode_to_string(s->workspace_mode)));
        json_object_object_add(o, "run_dir", sbx_json_string(rec->run_dir));
        json_object_object_add(o, "cgroup", sbx_json_string(rec->cgroup ?: ""));
        json_object_object_add(o, "init_pid", json_object_new_int64(s->init_pid));
        json_object_object_add(o, "init_start_time", json_object_new_uint64(s->init_start_time));
        json_object_object_add(o, "svc_ino", json_object_new_uint64(rec->svc_ino));
        json_object_object_add(o, "ip_address", sbx_json_string(s->ip_address[0] ? s->ip_address : NULL));
        json_object_object_add(o, "gateway", sbx_json_string(s->gateway[0] ? s->gateway : NULL));
        json_object_object_add(o, "config", config_to_json(&s->config));
        if (s->policy.agent)
                json_object_object_add(o, "policy", sbx_policy_record_json(s));

        if (asprintf(&text, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                                            JSON_C_TO_STRING_SPACED)) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        snprintf(path, sizeof(path), "%s/%s", dir, SBX_RECORD_FILE);
        /* 0600: the record holds the sandbox's environment (the secrets a
         * gateway passes with -e), and its dir is traversable by anyone */
        r = sbx_write_file_atomic(path, text, strlen(text), 0600, true);
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': write record '%s'", s->name, path);
        /* issue 16: what `sbx exec` needs of it, for the front end */
        return sbx_exec_service_describe(rec, dir, reterr);
}

static int record_parse(json_object *o, sbx_record *rec) {
        sbx_sandbox *s = &rec->s;
        json_object *v, *cfg;
        _cleanup_free_ char *name = NULL, *id = NULL, *state = NULL, *hash = NULL, *mode = NULL, *run = NULL,
                            *cg = NULL, *ip = NULL, *gw = NULL;
        int err = 0, r;

        if (get_i64(o, "version", 0, &err) != SBX_RECORD_VERSION)
                return -EBADMSG;
        if ((r = get_str(o, "name", &name)) < 0 || (r = get_str(o, "id", &id)) < 0 ||
            (r = get_str(o, "state", &state)) < 0 || (r = get_str(o, "config_hash", &hash)) < 0 ||
            (r = get_str(o, "workspace_mode", &mode)) < 0 || (r = get_str(o, "run_dir", &run)) < 0 ||
            (r = get_str(o, "cgroup", &cg)) < 0 || (r = get_str(o, "image", &s->image)) < 0 ||
            (r = get_str(o, "ip_address", &ip)) < 0 || (r = get_str(o, "gateway", &gw)) < 0)
                return r;
        if ((ip && strlen(ip) >= sizeof(s->ip_address)) || (gw && strlen(gw) >= sizeof(s->gateway)))
                return -EBADMSG;
        strcpy(s->ip_address, ip ?: "");
        strcpy(s->gateway, gw ?: "");
        if (!name || !id || strlen(name) > SBX_SANDBOX_NAME_MAX || strlen(id) != SBX_SANDBOX_ID_LEN ||
            (hash && strlen(hash) > SBX_SANDBOX_HASH_MAX) || (run && strlen(run) >= sizeof(rec->run_dir)) ||
            (cg && strlen(cg) >= PATH_MAX))
                return -EBADMSG;
        strcpy(s->name, name);
        strcpy(s->id, id);
        strcpy(s->config_hash, hash ?: "");
        strcpy(rec->run_dir, run ?: "");
        if (cg && cg[0])
                rec->cgroup = TAKE_PTR(cg);
        s->state = state_from_string(state);
        s->workspace_mode = sbx_workspace_mode_from_string(mode);
        if (s->state < 0 || s->workspace_mode < 0)
                return -EBADMSG;
        rec->complete = get_bool(o, "complete", false, &err);
        rec->starting = get_bool(o, "starting", false, &err);
        rec->crashed = get_bool(o, "crashed", false, &err);
        s->created_ms = get_u64(o, "created_ms", &err);
        s->started_ms = get_u64(o, "started_ms", &err);
        s->finished_ms = get_u64(o, "finished_ms", &err);   /* 0, -1 in records older than them */
        s->exit_status = (int) get_i64(o, "exit_status", -1, &err);
        s->init_pid = (pid_t) get_i64(o, "init_pid", 0, &err);
        s->init_start_time = get_u64(o, "init_start_time", &err);
        rec->svc_ino = get_u64(o, "svc_ino", &err);
        if ((r = get(o, "labels", json_type_object, &v)) < 0)
                return r;
        if (v) {
                json_object_object_foreach(v, key, val) {
                        sbx_label *nl = realloc(s->labels, sizeof(*nl) * (s->n_labels + 1));
                        if (!nl)
                                return -ENOMEM;
                        s->labels = nl;
                        nl[s->n_labels].key = strdup(key);
                        nl[s->n_labels].value = strdup(json_object_get_string(val) ?: "");
                        s->n_labels++;
                        if (!nl[s->n_labels - 1].key || !nl[s->n_labels - 1].value)
                                return -ENOMEM;
                }
        }
        if ((r = get(o, "config", json_type_object, &cfg)) < 0 || !cfg)
                return r < 0 ? r : -EBADMSG;
        r = config_from_json(cfg, &s->config);
        if (r < 0)
                return r;
        r = sbx_policy_record_parse(o, s);
        if (r < 0)
                return r;
        return err;
}

/* <dir>/requested.json: the configuration a later create/run --name asked
 * for when it differed from the sandbox's own (ls: "changed"; recreate
 * applies it). */
#define SBX_REQUESTED_FILE "requested.json"
static int load_requested_at(int rootfd, const char *name, sbx_run_config *ret,
                             char hash[SBX_SANDBOX_HASH_MAX + 1]);

/* name/file below rootfd, or <root>/name/file when rootfd is AT_FDCWD */
static int record_path(int rootfd, const char *name, const char *file, char *buf, size_t len) {
        int n = rootfd == AT_FDCWD ? snprintf(buf, len, "%s/%s/%s", sbx_sandbox_root(), name, file)
                                   : snprintf(buf, len, "%s/%s", name, file);

        return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

/* The whole record text in one open and (for a record under 16 KiB, all
 * of them in practice) one read into the stack: a short read of a regular
 * file is its end. */
static json_object *record_read(int rootfd, const char *rel) {
        _cleanup_close_ int fd = openat(rootfd, rel, O_RDONLY | O_CLOEXEC);
        _cleanup_free_ char *heap = NULL;
        char stack[16384], *buf = stack;
        size_t len = 0, cap = sizeof(stack) - 1;
        ssize_t n;

        if (fd < 0)
                return NULL;
        for (;;) {
                n = read(fd, buf + len, cap - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return NULL;
                len += (size_t) n;
                if (len < cap)
                        break;
                if (cap >= (64u << 20))
                        return NULL;
                cap *= 2;
                char *nb = realloc(heap, cap + 1);
                if (!nb)
                        return NULL;
                if (!heap)
                        memcpy(nb, stack, len);
                heap = buf = nb;
        }
        buf[len] = '\0';
        return json_tokener_parse(buf);
}

void sbx_record_busy_at(int rootfd, const char *name, sbx_record *rec, struct stat *ret_busy) {
        char rel[PATH_MAX + 32];
        struct stat st;
        bool have_busy;

        /* last used = the busy file's mtime, touched by every exec. */
        have_busy = record_path(rootfd, name, SBX_BUSY_FILE, rel, sizeof(rel)) == 0 &&
                    fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0;
        rec->s.last_used_ms = have_busy
                ? (uint64_t) st.st_mtim.tv_sec * 1000 + (uint64_t) st.st_mtim.tv_nsec / 1000000
                : rec->s.created_ms;
        if (ret_busy) {
                if (!have_busy)
                        st = (struct stat) { .st_nlink = 0 };
                *ret_busy = st;
        }
}

int sbx_record_load_at(int rootfd, const char *name, struct stat *ret_busy, sbx_record **ret, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_json_ json_object *o = NULL;
        char dir[PATH_MAX], path[PATH_MAX + 32], rel[PATH_MAX + 32];
        int r;

        if (sbx_sandbox_dir(name, dir, sizeof(dir)) < 0 ||
            record_path(rootfd, name, SBX_RECORD_FILE, rel, sizeof(rel)) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "sandbox '%s': name too long", name);
        snprintf(path, sizeof(path), "%s/%s", dir, SBX_RECORD_FILE);
        o = record_read(rootfd, rel);
        if (!o) {
                r = faccessat(rootfd, rel, F_OK, 0) < 0 ? -errno : -EBADMSG;
                return sbx_error_set(reterr, r == -ENOENT ? -ENOENT : -EBADMSG, "sandbox '%s': %s record '%s'",
                                     name, r == -ENOENT ? "no" : "unreadable", path);
        }
        rec = calloc(1, sizeof(*rec));
        if (!rec)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        sbx_run_config_init(&rec->s.config);
        r = record_parse(o, rec);
        if (r < 0 || strcmp(rec->s.name, name))
                return sbx_error_set(reterr, r < 0 ? r : -EBADMSG, "sandbox '%s': invalid record '%s'", name, path);
        rec->s.state_dir = strdup(dir);
        if (rec->s.config.workspace)
                rec->s.workspace = strdup(rec->s.config.workspace);
        if (!rec->s.state_dir || (rec->s.config.workspace && !rec->s.workspace))
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (rec->run_dir[0] && rec->s.config.workspace_access == SBX_WORKSPACE_NONE &&
            asprintf(&rec->s.upper_dir, "%s/%s/upper", dir, rec->run_dir) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        sbx_record_busy_at(rootfd, name, rec, ret_busy);
        r = sbx_record_fill_mounts(&rec->s);
        if (r < 0)
                return sbx_error_set(reterr, r, "out of memory");
        {
                char requested[SBX_SANDBOX_HASH_MAX + 1];
                rec->s.config_changed = load_requested_at(rootfd, name, NULL, requested) == 0 &&
                                        strcmp(requested, rec->s.config_hash) != 0;
        }
        *ret = TAKE_PTR(rec);
        return 0;
}

int sbx_record_load(const char *name, sbx_record **ret, sbx_error *reterr) {
        return sbx_record_load_at(AT_FDCWD, name, NULL, ret, reterr);
}

static void sandbox_done(sbx_sandbox *s) {
        for (size_t i = 0; i < s->n_labels; i++) {
                free(s->labels[i].key);
                free(s->labels[i].value);
        }
        free(s->labels);
        free(s->image);
        mounts_free(s);
        free(s->workspace);
        free(s->state_dir);
        free(s->upper_dir);
        sbx_sandbox_policy_done(&s->policy);
        free((char *) s->config.seccomp.profile_path);
        s->config.seccomp.profile_path = NULL;
        sbx_run_config_free(&s->config);
}

sbx_record *sbx_record_free(sbx_record *r) {
        if (!r)
                return NULL;
        sandbox_done(&r->s);
        free(r->cgroup);
        free(r);
        return NULL;
}

/* A public record is the first member of sbx_record: free through it. */
sbx_sandbox *sbx_sandbox_free(sbx_sandbox *s) {
        if (s)
                sbx_record_free((sbx_record *) s);
        return NULL;
}

void sbx_sandbox_list_free(sbx_sandbox **l, size_t n) {
        for (size_t i = 0; l && i < n; i++)
                sbx_sandbox_free(l[i]);
        free(l);
}

const char *sbx_sandbox_label(const sbx_sandbox *s, const char *key) {
        for (size_t i = 0; i < s->n_labels; i++)
                if (!strcmp(s->labels[i].key, key))
                        return s->labels[i].value;
        return NULL;
}


int sbx_record_save_requested(const char *name, const sbx_run_config *c, const char *hash, sbx_error *reterr) {
        _cleanup_json_ json_object *o = json_object_new_object();
        char dir[PATH_MAX], path[PATH_MAX + 32];
        const char *text;
        int r;

        if (sbx_sandbox_dir(name, dir, sizeof(dir)) < 0)
                return sbx_error_set(reterr, -ENAMETOOLONG, "sandbox '%s': path too long", name);
        json_object_object_add(o, "config_hash", sbx_json_string(hash));
        json_object_object_add(o, "config", config_to_json(c));
        text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
        snprintf(path, sizeof(path), "%s/%s", dir, SBX_REQUESTED_FILE);
        r = sbx_write_file_atomic(path, text, strlen(text), 0600, false);
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': write '%s'", name, path);
        return 0;
}

static int load_requested_at(int rootfd, const char *name, sbx_run_config *ret,
                             char hash[SBX_SANDBOX_HASH_MAX + 1]) {
        _cleanup_json_ json_object *o = NULL;
        char rel[PATH_MAX + 32];
        _cleanup_free_ char *h = NULL;
        json_object *cfg;
        int r;

        if (record_path(rootfd, name, SBX_REQUESTED_FILE, rel, sizeof(rel)) < 0)
                return -ENAMETOOLONG;
        o = record_read(rootfd, rel);
        if (!o)
                return -ENOENT;
        if (get_str(o, "config_hash", &h) < 0 || !h || strlen(h) > SBX_SANDBOX_HASH_MAX ||
            get(o, "config", json_type_object, &cfg) < 0 || !cfg)
                return -EBADMSG;
        if (ret) {
                r = config_from_json(cfg, ret);
                if (r < 0) {
                        free((char *) ret->seccomp.profile_path);
                        ret->seccomp.profile_path = NULL;
                        sbx_run_config_free(ret);
                        return r;
                }
        }
        strcpy(hash, h);
        return 0;
}

int sbx_record_load_requested(const char *name, sbx_run_config *ret, char hash[SBX_SANDBOX_HASH_MAX + 1]) {
        return load_requested_at(AT_FDCWD, name, ret, hash);
}

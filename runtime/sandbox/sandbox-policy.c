/* SPDX-License-Identifier: MIT */
/* A sandbox's policy (issue 14): whose rules it enforces (agent, session,
 * scope key, openclaw.json), the rules as recorded in its config, their hash,
 * and whether the current openclaw.json still derives the same rules.
 *
 * In sandbox.json: "policy": {agent, session, scope_key, config_path, hash,
 * stale} (absent: no policy), and the rules inside "config" under keys that
 * are written only when set, so records and config hashes without a policy
 * stay byte-identical. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "util/util.h"
#include "sandbox-internal.h"

static const char *jget_str(json_object *o, const char *key) {
        json_object *v;

        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
                json_object_get_string(v) : NULL;
}

static int dup_or_null(char **dst, const char *src) {
        *dst = src ? strdup(src) : NULL;
        return src && !*dst ? -ENOMEM : 0;
}

void sbx_sandbox_policy_done(sbx_sandbox_policy *p) {
        free(p->agent);
        free(p->session);
        free(p->scope_key);
        free(p->config_path);
        *p = (sbx_sandbox_policy) {};
}

void sbx_sandbox_policy_stamp(const char *path, char buf[96]) {
        struct stat st;

        buf[0] = '\0';
        if (path && stat(path, &st) == 0)
                snprintf(buf, 96, "%llu:%lld:%lld.%09ld", (unsigned long long) st.st_ino, (long long) st.st_size,
                         (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

int sbx_sandbox_policy_copy(sbx_sandbox_policy *d, const sbx_sandbox_policy *s) {
        *d = (sbx_sandbox_policy) {};
        if (!s || !s->agent)
                return 0;
        memcpy(d->config_stamp, s->config_stamp, sizeof(d->config_stamp));
        if (dup_or_null(&d->agent, s->agent) < 0 || dup_or_null(&d->session, s->session) < 0 ||
            dup_or_null(&d->scope_key, s->scope_key) < 0 || dup_or_null(&d->config_path, s->config_path) < 0) {
                sbx_sandbox_policy_done(d);
                return -ENOMEM;
        }
        return 0;
}

/* ------------------------------------------------------------ the rules in config */

void sbx_rules_config_add(json_object *o, const sbx_run_config *c) {
        if (c->read_only_fs)
                json_object_object_add(o, "read_only_fs", json_object_new_boolean(true));
        if (c->exec_allow_set) {
                json_object *a = json_object_new_array();
                for (size_t i = 0; i < c->n_exec_allow; i++)
                        json_object_array_add(a, json_object_new_string(c->exec_allow[i]));
                json_object_object_add(o, "exec_allow", a);
                json_object_object_add(o, "exec_allow_key", sbx_json_string(c->exec_allow_key));
        }
        if (c->exec_refused_rule) {
                json_object_object_add(o, "exec_refused_rule", sbx_json_string(c->exec_refused_rule));
                json_object_object_add(o, "exec_refused_key", sbx_json_string(c->exec_refused_key));
        }
        if (c->landlock_best_effort)
                json_object_object_add(o, "landlock_best_effort", json_object_new_boolean(true));
}

int sbx_rules_config_parse(json_object *o, sbx_run_config *c) {
        json_object *v;

        if (json_object_object_get_ex(o, "read_only_fs", &v))
                c->read_only_fs = json_object_get_boolean(v);
        if (json_object_object_get_ex(o, "landlock_best_effort", &v))
                c->landlock_best_effort = json_object_get_boolean(v);
        if (json_object_object_get_ex(o, "exec_allow", &v)) {
                if (!json_object_is_type(v, json_type_array))
                        return -EBADMSG;
                c->exec_allow_set = true;
                for (size_t i = 0; i < json_object_array_length(v); i++) {
                        json_object *e = json_object_array_get_idx(v, i);
                        if (!json_object_is_type(e, json_type_string))
                                return -EBADMSG;
                        if (sbx_run_config_add_exec_allow(c, json_object_get_string(e)) < 0)
                                return -ENOMEM;
                }
                if (dup_or_null(&c->exec_allow_key, jget_str(o, "exec_allow_key")) < 0)
                        return -ENOMEM;
        }
        if (jget_str(o, "exec_refused_rule") &&
            (dup_or_null(&c->exec_refused_rule, jget_str(o, "exec_refused_rule")) < 0 ||
             dup_or_null(&c->exec_refused_key, jget_str(o, "exec_refused_key") ?: "") < 0))
                return -ENOMEM;
        return 0;
}

/* The rules as shown (and hashed). */
static json_object *rules_json(const sbx_run_config *c) {
        json_object *o = json_object_new_object(), *a;

        json_object_object_add(o, "exec", json_object_new_string(c->exec_refused_rule ? "deny" :
                                                                 c->exec_allow_set ? "allowlist" : "unrestricted"));
        if (c->exec_refused_rule) {
                json_object_object_add(o, "execRule", sbx_json_string(c->exec_refused_rule));
                json_object_object_add(o, "execKey", sbx_json_string(c->exec_refused_key));
        }
        if (c->exec_allow_set && !c->exec_refused_rule) {
                a = json_object_new_array();
                for (size_t i = 0; i < c->n_exec_allow; i++)
                        json_object_array_add(a, json_object_new_string(c->exec_allow[i]));
                json_object_object_add(o, "execAllowlist", a);
                json_object_object_add(o, "execAllowlistKey", sbx_json_string(c->exec_allow_key));
        }
        json_object_object_add(o, "readOnlyWorkspace", json_object_new_boolean(c->read_only_fs));
        json_object_object_add(o, "denyInetSockets", json_object_new_boolean(c->seccomp.deny_inet_sockets));
        json_object_object_add(o, "execLog", json_object_new_boolean(true));
        return o;
}

void sbx_sandbox_policy_hash(const sbx_sandbox_policy *p, const sbx_run_config *c,
                             char ret[SBX_POLICY_HASH_LEN + 1]) {
        json_object *o = json_object_new_object();
        const char *t;

        json_object_object_add(o, "agent", sbx_json_string(p->agent));
        json_object_object_add(o, "scopeKey", sbx_json_string(p->scope_key));
        json_object_object_add(o, "rules", rules_json(c));
        t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
        sbx_sha256_hex(t, strlen(t), ret);
        json_object_put(o);
}

/* ------------------------------------------------------------ record + views */

json_object *sbx_policy_record_json(const sbx_sandbox *s) {
        json_object *o;

        if (!s->policy.agent)
                return NULL;
        o = json_object_new_object();
        json_object_object_add(o, "agent", sbx_json_string(s->policy.agent));
        json_object_object_add(o, "session", sbx_json_string(s->policy.session));
        json_object_object_add(o, "scope_key", sbx_json_string(s->policy.scope_key));
        json_object_object_add(o, "config_path", sbx_json_string(s->policy.config_path));
        json_object_object_add(o, "hash", sbx_json_string(s->policy_hash));
        json_object_object_add(o, "stale", json_object_new_boolean(s->policy_stale));
        json_object_object_add(o, "config_stamp", sbx_json_string(s->policy.config_stamp));
        return o;
}

int sbx_policy_record_parse(json_object *o, sbx_sandbox *s) {
        json_object *v;
        const char *h;

        if (!json_object_object_get_ex(o, "policy", &v) || json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_object) || !jget_str(v, "agent"))
                return -EBADMSG;
        h = jget_str(v, "hash");
        if (!h || strlen(h) != SBX_POLICY_HASH_LEN)
                return -EBADMSG;
        snprintf(s->policy_hash, sizeof(s->policy_hash), "%s", h);
        if (dup_or_null(&s->policy.agent, jget_str(v, "agent")) < 0 ||
            dup_or_null(&s->policy.session, jget_str(v, "session")) < 0 ||
            dup_or_null(&s->policy.scope_key, jget_str(v, "scope_key")) < 0 ||
            dup_or_null(&s->policy.config_path, jget_str(v, "config_path")) < 0)
                return -ENOMEM;
        snprintf(s->policy.config_stamp, sizeof(s->policy.config_stamp), "%s", jget_str(v, "config_stamp") ?: "");
        s->policy_stale = json_object_object_get_ex(v, "stale", &v) && json_object_get_boolean(v);
        return 0;
}

void *sbx_sandbox_policy_json(const sbx_sandbox *s) {
        json_object *o = json_object_new_object();

        if (!s->policy.agent) {
                json_object_object_add(o, "policy", json_object_new_string("none"));
                return o;
        }
        json_object_object_add(o, "policy", json_object_new_string("openclaw"));
        json_object_object_add(o, "agent", sbx_json_string(s->policy.agent));
        json_object_object_add(o, "session", sbx_json_string(s->policy.session));
        json_object_object_add(o, "scopeKey", sbx_json_string(s->policy.scope_key));
        json_object_object_add(o, "config", sbx_json_string(s->policy.config_path));
        json_object_object_add(o, "hash", sbx_json_string(s->policy_hash));
        json_object_object_add(o, "stale", json_object_new_boolean(s->policy_stale));
        json_object_object_add(o, "rules", rules_json(&s->config));
        return o;
}

int sbx_sandbox_mark_policy(const char *ref, const char *current_hash, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int lockfd = -EBADF;
        char name[SBX_SANDBOX_NAME_MAX + 1];
        bool stale;
        int r;

        r = sbx_sandbox_resolve(ref, name, reterr);
        if (r < 0)
                return r;
        lockfd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_EX, reterr);
        if (lockfd < 0)
                return lockfd;
        r = sbx_record_load(name, &rec, reterr);
        if (r < 0)
                return r;
        stale = rec->s.policy.agent && current_hash && strcmp(current_hash, rec->s.policy_hash);
        if (stale != rec->s.policy_stale) {
                rec->s.policy_stale = stale;
                r = sbx_record_save(rec, reterr);
                if (r < 0)
                        return r;
        }
        return stale;
}

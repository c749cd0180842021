/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "util/util.h"
#include "launch/launch.h"

#define MAX_FILE (1 << 20)

static const char *const security_names[_SBX_EXEC_SECURITY_MAX] = {
        [SBX_EXEC_SECURITY_FULL] = "full",
        [SBX_EXEC_SECURITY_ALLOWLIST] = "allowlist",
        [SBX_EXEC_SECURITY_DENY] = "deny",
};

SBX_DEFINE_NAME_TABLE(sbx_exec_security, sbx_exec_security, security_names)

void sbx_exec_approvals_done(sbx_exec_approvals *a) {
        for (size_t i = 0; i < a->n_patterns; i++)
                free(a->patterns[i]);
        free(a->patterns);
        a->patterns = NULL;
        a->n_patterns = 0;
}

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}

static int read_file(const char *path, char **ret, sbx_error *reterr) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        ssize_t n;

        if (fd < 0)
                return sbx_error_set(reterr, -errno, "exec approvals '%s'%s", path,
                                     errno == ELOOP ? ": a symlink (refused)" : "");
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE)
                return sbx_error_set(reterr, -EINVAL, "exec approvals '%s': not a regular file of at most 1 MiB", path);
        buf = malloc(st.st_size + 1);
        if (!buf)
                return sbx_error_set(reterr, -ENOMEM, "exec approvals: out of memory");
        n = read(fd, buf, st.st_size);
        if (n != st.st_size)
                return sbx_error_set(reterr, n < 0 ? -errno : -EIO, "exec approvals '%s': read", path);
        buf[n] = '\0';
        *ret = TAKE_PTR(buf);
        return 0;
}

static json_object *agent_entry(json_object *agents, const char *id) {
        json_object *e = NULL;

        if (!agents)
                return NULL;
        if (json_object_object_get_ex(agents, id, &e) && json_object_is_type(e, json_type_object))
                return e;
        /* legacy agents.default counts as agents.main */
        if (!strcmp(id, "main") && json_object_object_get_ex(agents, "default", &e) &&
            json_object_is_type(e, json_type_object))
                return e;
        return NULL;
}

static sbx_exec_security security_of(json_object *o) {
        json_object *s;

        if (!o || !json_object_object_get_ex(o, "security", &s) || !json_object_is_type(s, json_type_string))
                return _SBX_EXEC_SECURITY_INVALID;
        return sbx_exec_security_from_string(json_object_get_string(s));   /* invalid values dropped */
}

static int add_patterns(sbx_exec_approvals *a, json_object *entry) {
        json_object *list, *p;
        size_t n;

        if (!entry || !json_object_object_get_ex(entry, "allowlist", &list) ||
            !json_object_is_type(list, json_type_array))
                return 0;
        n = json_object_array_length(list);
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(list, i);
                const char *pat = NULL;
                char **v;
                if (json_object_is_type(e, json_type_string))
                        pat = json_object_get_string(e);
                else if (json_object_is_type(e, json_type_object) && json_object_object_get_ex(e, "pattern", &p) &&
                         json_object_is_type(p, json_type_string))
                        pat = json_object_get_string(p);
                if (!pat || !*pat)
                        continue;
                v = realloc(a->patterns, (a->n_patterns + 1) * sizeof(char *));
                if (!v)
                        return -ENOMEM;
                a->patterns = v;
                if (!(a->patterns[a->n_patterns] = strdup(pat)))
                        return -ENOMEM;
                a->n_patterns++;
        }
        return 0;
}

int sbx_exec_approvals_load(const char *path, const char *agent_id, sbx_exec_approvals *ret, sbx_error *reterr) {
        _cleanup_(json_putp) json_object *root = NULL;
        _cleanup_free_ char *text = NULL, *def = NULL;
        json_object *agents = NULL, *defaults = NULL, *v, *levels[3];
        enum json_tokener_error jerr;
        json_tokener *tok;
        int r;

        *ret = (sbx_exec_approvals) { .security = SBX_EXEC_SECURITY_FULL };
        snprintf(ret->security_key, sizeof(ret->security_key), "built-in default (no exec-approvals.json)");
        if (!path) {
                const char *home = getenv("HOME");
                if (!home || asprintf(&def, "%s/.openclaw/exec-approvals.json", home) < 0)
                        return 0;
                if (access(def, F_OK) < 0)
                        return 0;
                path = def;
        }
        r = read_file(path, &text, reterr);
        if (r < 0)
                return r;
        tok = json_tokener_new_ex(16);
        if (!tok)
                return sbx_error_set(reterr, -ENOMEM, "exec approvals: out of memory");
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
        root = json_tokener_parse_ex(tok, text, (int) strlen(text) + 1);
        jerr = json_tokener_get_error(tok);
        json_tokener_free(tok);
        if (!root || jerr != json_tokener_success || !json_object_is_type(root, json_type_object))
                return sbx_error_set(reterr, -EINVAL, "exec approvals '%s': not a JSON object (%s)", path,
                                     json_tokener_error_desc(jerr));
        if (!json_object_object_get_ex(root, "version", &v) || !json_object_is_type(v, json_type_int) ||
            json_object_get_int(v) != 1)
                return sbx_error_set(reterr, -EINVAL, "exec approvals '%s': version: expected 1", path);
        if (json_object_object_get_ex(root, "agents", &agents) && !json_object_is_type(agents, json_type_object))
                agents = NULL;
        if (json_object_object_get_ex(root, "defaults", &defaults) && !json_object_is_type(defaults, json_type_object))
                defaults = NULL;
        levels[0] = agent_entry(agents, agent_id);
        levels[1] = agent_entry(agents, "*");
        levels[2] = defaults;
        for (int i = 0; i < 3; i++) {
                sbx_exec_security s = security_of(levels[i]);
                char where[128];
                if (s < 0)
                        continue;
                if (i == 0)
                        snprintf(where, sizeof(where), "agents.%s", agent_id);
                else
                        snprintf(where, sizeof(where), "%s", i == 1 ? "agents[\"*\"]" : "defaults");
                ret->security = s;
                snprintf(ret->security_key, sizeof(ret->security_key), "%s: %s.security", path, where);
                break;
        }
        if (add_patterns(ret, levels[1]) < 0 || add_patterns(ret, levels[0]) < 0) {
                sbx_exec_approvals_done(ret);
                return sbx_error_set(reterr, -ENOMEM, "exec approvals: out of memory");
        }
        snprintf(ret->allowlist_key, sizeof(ret->allowlist_key), "%s: agents[\"*\"].allowlist + agents.%s.allowlist",
                 path, agent_id);
        return 0;
}

int sbx_run_config_apply_approvals(sbx_run_config *c, const char *path, const char *agent_id, sbx_error *reterr) {
        sbx_exec_approvals a;
        char rule[512];
        int r;

        r = sbx_exec_approvals_load(path, agent_id, &a, reterr);
        if (r < 0)
                return r;
        switch (a.security) {
        case SBX_EXEC_SECURITY_DENY:
                snprintf(rule, sizeof(rule), "exec-approvals: security=deny");
                free(c->exec_refused_rule);
                free(c->exec_refused_key);
                c->exec_refused_rule = strdup(rule);
                c->exec_refused_key = strdup(a.security_key);
                r = c->exec_refused_rule && c->exec_refused_key ? 0 : -ENOMEM;
                break;
        case SBX_EXEC_SECURITY_ALLOWLIST:
                c->exec_allow_set = true;
                for (size_t i = 0; r >= 0 && i < a.n_patterns; i++)
                        r = sbx_run_config_add_exec_allow(c, a.patterns[i]);
                free(c->exec_allow_key);
                c->exec_allow_key = strdup(a.allowlist_key);
                if (!c->exec_allow_key)
                        r = -ENOMEM;
                break;
        case SBX_EXEC_SECURITY_FULL:
        case _SBX_EXEC_SECURITY_MAX:
        case _SBX_EXEC_SECURITY_INVALID:
        default:
                break;
        }
        sbx_exec_approvals_done(&a);
        return r < 0 ? sbx_error_set(reterr, r, "exec approvals: out of memory") : 0;
}

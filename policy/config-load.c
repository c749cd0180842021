/* SPDX-License-Identifier: MIT */
/* openclaw.json -> struct sbx_config, in OpenClaw 2026.9.6's order:
 *   1. read (size-capped) and parse JSON5 into a json-c tree;
 *   2. substitute ${VAR} (the environment, then the config's env.vars: config-env.c);
 *   3. load-time migrations (session.mainKey, agents.list -> agents.entries, retired
 *      default markers), each reported as a note like OpenClaw's;
 *   4. strict validation of every section sbx uses, each issue naming its JSON path;
 *   5. copy into plain C structs and drop the tree.
 * Sections sbx does not use are accepted untouched (only their key names are checked,
 * against the 2026.9.6 schema, because OpenClaw's root object is strict). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "config-internal.h"
#include "util/util.h"

/* ---- small containers ---- */


/* ---- JSON paths for messages: a.b[0]["odd key"] ---- */

/* OpenClaw's appendConfigPathSegment: a key matching /^[A-Za-z_$][A-Za-z0-9_$:-]*$/ is joined with
 * ".", any other as ["key"]. Inside a channel plugin's JSON Schema the validator's instancePath is
 * turned into a path by replacing "/" with "." (normalizeErrorPath) and appended to
 * "channels.<id>." as it is: keys stay as written (a "/" in one reads as "." too: the validator's
 * instancePath leaves it unescaped), and indices are ".N". */
void jpath_push_key(jpath *p, const char *key) {
        size_t before = p->len;
        bool ident = isalpha((unsigned char) key[0]) || key[0] == '_' || key[0] == '$';
        for (const char *c = key; *c && ident; c++)
                if (!isalnum((unsigned char) *c) && *c != '_' && *c != '$' && *c != '-' && *c != ':')
                        ident = false;
        int n = 0;
        if (p->plain) {
                if (p->len && p->len < sizeof(p->buf) - 1)
                        p->buf[p->len++] = '.';
                for (const char *c = key; *c && p->len < sizeof(p->buf) - 1; c++)
                        p->buf[p->len++] = *c == '/' ? '.' : *c;
                p->buf[p->len] = '\0';
        } else if (ident)
                n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "%s%s", p->len ? "." : "", key);
        else { /* [JSON.stringify(key)] */
                char q[sizeof(p->buf)];
                sbx_js_quote(q, sizeof(q), key);
                n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "[%s]", q);
        }
        if (n > 0)
                p->len = MIN(p->len + (size_t) n, sizeof(p->buf) - 1);
        p->stack[p->depth < JPATH_DEPTH ? p->depth : JPATH_DEPTH - 1] = before;
        p->depth++;
}

void jpath_push_index(jpath *p, size_t i) {
        size_t before = p->len;
        int n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, p->plain ? ".%zu" : "[%zu]", i);
        if (n > 0)
                p->len = MIN(p->len + (size_t) n, sizeof(p->buf) - 1);
        p->stack[p->depth < JPATH_DEPTH ? p->depth : JPATH_DEPTH - 1] = before;
        p->depth++;
}

void jpath_pop(jpath *p) {
        if (p->depth == 0)
                return;
        p->depth--;
        p->len = p->stack[p->depth < JPATH_DEPTH ? p->depth : JPATH_DEPTH - 1];
        p->buf[p->len] = '\0';
}

const char *jpath_str(const jpath *p) {
        return p->len ? p->buf : "<root>";
}

void issue(struct vctx *v, const char *fmt, ...) {
        char msg[1024], line[sizeof(v->path.buf) + 1024];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        snprintf(line, sizeof(line), "%s: %s", jpath_str(&v->path), msg);
        /* a key checked by hand and by the schema tables (config-shapes.h) may say it twice */
        if (sbx_strv_contains(&v->diag->issues, line))
                return;
        if (sbx_strv_push(&v->diag->issues, line) < 0)
                v->oom = true;
}

void note(sbx_config_diag *d, const char *msg) {
        if (d)
                (void) sbx_strv_push(&d->notes, msg);
}

/* ---- config file discovery ---- */

static char *path_join(const char *a, const char *b) {
        char *r;
        if (asprintf(&r, "%s/%s", a, b) < 0)
                return NULL;
        return r;
}

int sbx_config_find(const char *explicit_path, char **ret, sbx_error *reterr) {
        const char *e;
        _cleanup_free_ char *state = NULL, *cand = NULL;

        if (explicit_path) {
                *ret = strdup(explicit_path);
                return *ret ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        e = getenv("OPENCLAW_CONFIG_PATH");
        if (e && *e) {
                *ret = sbx_expand_user_path(e);
                return *ret ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        state = sbx_process_state_dir();
        if (!state)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        cand = path_join(state, "openclaw.json");
        if (!cand)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (access(cand, F_OK) == 0) {
                *ret = TAKE_PTR(cand);
                return 0;
        }
        free(cand);
        cand = sbx_expand_user_path("~/.openclaw/openclaw.json");
        if (cand && access(cand, F_OK) == 0) {
                *ret = TAKE_PTR(cand);
                return 0;
        }
        *ret = NULL;
        return 0;
}

/* ---- reading ---- */

/* ---- ${VAR} substitution (upper-case names only; $${VAR} escapes) ---- */

static char *substitute_env(const char *s, const sbx_strv *vars) {
        size_t cap = strlen(s) + 1, n = 0;
        char *o = malloc(cap);
        if (!o)
                return NULL;
        for (const char *p = s; *p;) {
                const char *add = p, *name, *end;
                size_t addlen = 1, skip = 1, namelen;
                _cleanup_free_ char *key = NULL;
                switch (sbx_config_env_token(p, &name, &namelen, &end)) {
                case SBX_ENV_ESCAPED: /* "${NAME}" as written */
                        add = p + 1;
                        addlen = skip = (size_t) (end - p - 1);
                        skip++;
                        break;
                case SBX_ENV_SUBST:
                        key = strndup(name, namelen);
                        if (!key) {
                                free(o);
                                return NULL;
                        }
                        const char *val = sbx_config_env_lookup(vars, key);
                        if (val && *val) { /* an empty value is a missing one: kept as written */
                                add = val;
                                addlen = strlen(val);
                        } else
                                addlen = (size_t) (end - p);
                        skip = (size_t) (end - p);
                        break;
                default:
                        break;
                }
                if (n + addlen + 1 > cap) {
                        cap = (cap + addlen) * 2;
                        char *no = realloc(o, cap);
                        if (!no) {
                                free(o);
                                return NULL;
                        }
                        o = no;
                }
                memcpy(o + n, add, addlen);
                n += addlen;
                p += skip;
        }
        o[n] = '\0';
        return o;
}

static int walk_substitute(struct json_object *o, const sbx_strv *vars);

/* One value of an object or array: a string with ${VAR} becomes a new string
 * (*ret; the caller puts it in place), anything else is walked (*ret NULL). */
static int substitute_value(struct json_object *v, const sbx_strv *vars, struct json_object **ret) {
        _cleanup_free_ char *s = NULL;

        *ret = NULL;
        if (!json_object_is_type(v, json_type_string) || !strstr(json_object_get_string(v), "${"))
                return walk_substitute(v, vars);
        s = substitute_env(json_object_get_string(v), vars);
        if (!s)
                return -ENOMEM;
        *ret = json_object_new_string(s);
        return 0;
}

static int walk_substitute(struct json_object *o, const sbx_strv *vars) {
        struct json_object *n;

        if (json_object_is_type(o, json_type_object)) {
                json_object_object_foreach(o, k, v) {
                        if (substitute_value(v, vars, &n) < 0)
                                return -ENOMEM;
                        if (n)
                                json_object_object_add(o, k, n);
                }
        } else if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        if (substitute_value(json_object_array_get_idx(o, i), vars, &n) < 0)
                                return -ENOMEM;
                        if (n)
                                json_object_array_put_idx(o, i, n);
                }
        }
        return 0;
}

/* ---- materialisation: "~" in path-like fields (OpenClaw's normalizeConfigPaths) ----
 * A string under a key ending in dir/path/paths/file/root/workspace (any case), or an
 * element of a "paths"/"pathPrepend" array, that starts with "~" (after trimming) is
 * replaced by its resolved absolute path. Everything else stays as written. */

static bool path_key(const char *k) {
        static const char *const suffixes[] = {"dir", "path", "paths", "file", "root", "workspace"};
        size_t n = strlen(k);
        for (size_t i = 0; i < ELEMENTSOF(suffixes); i++) {
                size_t m = strlen(suffixes[i]);
                if (n >= m && !strcasecmp(k + n - m, suffixes[i]))
                        return true;
        }
        return false;
}

static bool tilde_value(struct json_object *v) {
        if (!json_object_is_type(v, json_type_string))
                return false;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(v));
        return t && t[0] == '~' && (t[1] == '\0' || t[1] == '/' || t[1] == '\\');
}

static int expand_paths(struct json_object *o) {
        if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        if (expand_paths(json_object_array_get_idx(o, i)) < 0)
                                return -ENOMEM;
                return 0;
        }
        if (!json_object_is_type(o, json_type_object))
                return 0;
        json_object_object_foreach(o, k, v) {
                if (tilde_value(v) && path_key(k)) {
                        _cleanup_free_ char *p = sbx_expand_user_path(json_object_get_string(v));
                        if (!p)
                                return -ENOMEM;
                        json_object_object_add(o, k, json_object_new_string(p));
                } else if (json_object_is_type(v, json_type_array) &&
                           (!strcmp(k, "paths") || !strcmp(k, "pathPrepend"))) {
                        for (size_t i = 0; i < json_object_array_length(v); i++) {
                                struct json_object *e = json_object_array_get_idx(v, i);
                                if (!tilde_value(e))
                                        continue;
                                _cleanup_free_ char *p = sbx_expand_user_path(json_object_get_string(e));
                                if (!p)
                                        return -ENOMEM;
                                json_object_array_put_idx(v, i, json_object_new_string(p));
                        }
                } else if (expand_paths(v) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* ---- the pipeline ---- */

static void json_putp(struct json_object **o) {
        if (*o)
                json_object_put(*o);
}

static int load_tree(struct json_object *root, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr) {
        /* agents.list as written: OpenClaw names an agent's docker.env issue by it (sourceRaw) */
        __attribute__((cleanup(json_putp))) struct json_object *raw_list = NULL;
        _cleanup_free_ char *retained = NULL;
        _cleanup_(sbx_strv_free) sbx_strv vars = {};
        struct vctx v = {.diag = diag};
        int r;

        if (!json_object_is_type(root, json_type_object)) {
                issue(&v, "Invalid input: expected object, received %s",
                      root ? json_type_to_name(json_object_get_type(root)) : "null");
                goto invalid;
        }
        if (sbx_config_env_vars(root, &vars) < 0 || sbx_config_env_apply(&vars) < 0 ||
            walk_substitute(root, &vars) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (json_object_is_type(jget(jget(root, "agents"), "list"), json_type_array))
                raw_list = json_object_get(jget(jget(root, "agents"), "list"));
        v.raw_list = raw_list;
        r = sbx_config_migrate_tree(root, diag, &retained, NULL);
        if (r == -EINVAL)
                return sbx_error_set(reterr, r, "invalid config: Invalid profile name: \"%s\" (OPENCLAW_PROFILE)",
                                     sbx_policy_getenv("OPENCLAW_PROFILE") ?: "");
        if (r < 0)
                return sbx_error_set(reterr, r, "migrating the config");
        /* an agents.list id "__proto__" became an entry for the migration's count and markers
         * only: it is no key of OpenClaw's agents.entries after it (an assignment names the
         * prototype), so neither validated nor resolved */
        if (json_object_is_type(jget(jget(root, "agents"), "entries"), json_type_object))
                json_object_object_del(jget(jget(root, "agents"), "entries"), "__proto__");
        v.retained_default = retained;
        sbx_config_validate_tree(root, &v);
        if (v.oom)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (diag->issues.n > 0)
                goto invalid;
        if (expand_paths(root) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        r = sbx_config_copy_tree(root, ret);
        if (r < 0)
                return sbx_error_set(reterr, r, "copying the config");
        ret->retained_default = TAKE_PTR(retained);
        return 0;
invalid: {
        /* the message carries sbx's hint for the first issue (the issues stay OpenClaw's words) */
        const char *hint = NULL;
        size_t pl = strcspn(diag->issues.v[0], ":");

        for (size_t i = 0; i < diag->hints.n && !hint; i++)
                if (!strncmp(diag->hints.v[i], diag->issues.v[0], pl) && diag->hints.v[i][pl] == ':')
                        hint = diag->hints.v[i] + pl + 2;
        return sbx_error_set(reterr, -EINVAL, "invalid config: %s%s%s%s%s", diag->issues.v[0], hint ? " (" : "",
                             hint ?: "", hint ? ")" : "",
                             diag->issues.n > 1 ? " (and more, see 'sbx check')" : "");
}
}

/* A "__proto__" key never becomes a key of OpenClaw's config object (in JavaScript it
 * names the prototype): dropped wherever it is, value unchecked. */
static void drop_proto_keys(struct json_object *o) {
        if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        drop_proto_keys(json_object_array_get_idx(o, i));
                return;
        }
        if (!json_object_is_type(o, json_type_object))
                return;
        json_object_object_del(o, "__proto__");
        json_object_object_foreach(o, k, v) {
                (void) k;
                drop_proto_keys(v);
        }
}

/* ... except as an MCP server name written in the config file itself: mcp.servers and
 * nodeHost.mcp.servers keep "__proto__" as an own key (json5 defines it; an $include merge on
 * the way drops it) and their schema refuses it (McpServerNameSchema). */
static void reserved_mcp_names(struct json_object *root, sbx_config_diag *diag) {
        static const char *const AT[][3] = {{"mcp", "servers", NULL}, {"nodeHost", "mcp", "servers"}};
        for (size_t i = 0; i < ELEMENTSOF(AT); i++) {
                struct vctx v = {.diag = diag};
                struct json_object *o = root;
                bool merged = jhas(o, "$include");
                for (size_t j = 0; j < 3 && AT[i][j]; j++) {
                        o = jget(o, AT[i][j]);
                        jpath_push_key(&v.path, AT[i][j]);
                        merged = merged || jhas(o, "$include");
                }
                if (merged || !jhas(o, "__proto__"))
                        continue;
                jpath_push_key(&v.path, "__proto__");
                issue(&v, "MCP server name \"__proto__\" is reserved; rename the server");
        }
}

static int load_text_at(const char *text, size_t len, const char *path, bool trusted, sbx_config *ret,
                        sbx_config_diag *diag, sbx_error *reterr) {
        sbx_config_diag local = {};
        struct json_object *root = NULL;
        int r;

        if (!diag)
                diag = &local;
        *ret = (sbx_config){};
        if (sbx_config_env_apply(NULL) < 0) /* $include paths see the process environment */
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (!text) {
                /* no file: OpenClaw's defaults, i.e. the migrated empty object */
                root = json_object_new_object();
                if (!root)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
        } else {
                r = sbx_json5_parse(text, len, &root, reterr);
                if (r < 0) {
                        diag->parse_error = true;
                        sbx_error_wrap(reterr, "JSON5 parse error");
                        sbx_config_diag_done(&local);
                        return r;
                }
        }
        reserved_mcp_names(root, diag); /* what $include brings in has no such key */
        r = sbx_config_resolve_includes(&root, path, trusted, reterr);
        if (r < 0) {
                json_object_put(root);
                sbx_config_diag_done(&local);
                return r;
        }
        drop_proto_keys(root);
        r = load_tree(root, ret, diag, reterr);
        json_object_put(root);
        sbx_config_diag_done(&local);
        if (r < 0)
                sbx_config_done(ret);
        return r;
}

int sbx_config_load_text(const char *text, size_t len, sbx_config *ret, sbx_config_diag *diag,
                         sbx_error *reterr) {
        return load_text_at(text, len, NULL, false, ret, diag, reterr);
}

int sbx_config_load(const char *path, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr) {
        return sbx_config_load_fd(path, -EBADF, ret, diag, reterr);
}

int sbx_config_load_fd(const char *path, int fd, sbx_config *ret, sbx_config_diag *diag, sbx_error *reterr) {
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        int r;

        if (path) {
                r = fd >= 0 ? sbx_read_fd("config", path, fd, SBX_CONFIG_MAX_SIZE, &text, &len, reterr)
                            : sbx_read_file("config", path, SBX_CONFIG_MAX_SIZE, &text, &len, reterr);
                if (r < 0)
                        return r;
        }
        r = load_text_at(text, len, path, fd >= 0, ret, diag, reterr);
        if (r < 0) {
                if (path)
                        sbx_error_wrap(reterr, "%s", path);
                return r;
        }
        if (path) {
                ret->path = strdup(path);
                if (!ret->path) {
                        sbx_config_done(ret);
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                }
        }
        return 0;
}

void sbx_config_diag_done(sbx_config_diag *d) {
        if (!d)
                return;
        sbx_strv_free(&d->notes);
        sbx_strv_free(&d->issues);
        sbx_strv_free(&d->hints);
}

/* ---- sbx migrate ---- */

static char *pretty(struct json_object *o) {
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
        char *r;
        if (!s || asprintf(&r, "%s\n", s) < 0)
                return NULL;
        return r;
}

int sbx_config_canonical_text(const char *text, size_t len, char **ret) {
        struct json_object *root = NULL;
        int r = sbx_json5_parse(text, len, &root, NULL);
        if (r < 0)
                return r;
        *ret = pretty(root);
        json_object_put(root);
        return *ret ? 0 : -ENOMEM;
}

int sbx_config_migrate_text(const char *text, size_t len, char **ret, sbx_strv *ret_changes,
                            sbx_error *reterr) {
        struct json_object *root = NULL;
        _cleanup_free_ char *retained = NULL;
        int r;

        *ret_changes = (sbx_strv){};
        r = sbx_json5_parse(text, len, &root, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "JSON5 parse error");
        if (!json_object_is_type(root, json_type_object)) {
                json_object_put(root);
                return sbx_error_set(reterr, -EINVAL, "<root>: expected an object");
        }
        r = sbx_config_migrate_tree(root, NULL, &retained, ret_changes);
        if (r >= 0) {
                *ret = pretty(root);
                if (!*ret)
                        r = -ENOMEM;
        }
        json_object_put(root);
        if (r < 0)
                return sbx_error_set(reterr, r, "migrating");
        return (int) ret_changes->n;
}

/* SPDX-License-Identifier: MIT */
/* "$include" as OpenClaw 2026.9.6 resolves it (src/config/includes.ts), before ${VAR}
 * substitution and validation:
 *   - a string or an array of strings; paths are relative to the including file, taken as
 *     written (not trimmed, "~" is no home);
 *   - every file must lie inside the root config's directory, lexically and after
 *     realpath (a symlink cannot lead out); at most 10 levels; 2 MiB per file; cycles fail;
 *   - several files merge deeply in order (objects recursively, arrays concatenated,
 *     scalars: the later wins); keys beside "$include" are merged over the included value;
 *     a merge drops the keys __proto__, constructor and prototype from the objects it
 *     merges (a lone include without keys beside it is taken as it is).
 * Files are only read. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config-internal.h"
#include "policy.h"
#include "resolve-internal.h"
#include "util/util.h"

#define INCLUDE_MAX_DEPTH 10
#define INCLUDE_MAX_BYTES (2u * 1024u * 1024u)

struct inc {
        char root_dir[PATH_MAX];  /* the root config's directory, normalised */
        char root_real[PATH_MAX]; /* its realpath */
        sbx_strv chain;           /* files being processed, for cycle detection */
        bool trusted;             /* files only under sbx_open_trusted's rule */
        sbx_error *err;
};

static bool inside(const char *root, const char *p) {
        size_t n = strlen(root);
        if (!strcmp(root, "/"))
                return p[0] == '/';
        return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

/* keys mergeDeep drops from every plain object it merges (isBlockedObjectKey) */
static bool blocked_key(const char *k) {
        return !strcmp(k, "__proto__") || !strcmp(k, "constructor") || !strcmp(k, "prototype");
}

/* sanitizePlainObject: o without blocked keys, recursively through objects (not arrays) */
static struct json_object *sanitized(struct json_object *o) {
        if (!json_object_is_type(o, json_type_object))
                return json_object_get(o);
        struct json_object *c = json_object_new_object();
        if (!c)
                return NULL;
        json_object_object_foreach(o, k, v) {
                if (blocked_key(k))
                        continue;
                struct json_object *sv = sanitized(v);
                if (!sv && v) {
                        json_object_put(c);
                        return NULL;
                }
                json_object_object_add(c, k, sv);
        }
        return c;
}

/* mergeDeep (arrays "concat"): arrays concatenate, objects merge recursively without the
 * blocked keys, otherwise the source wins (JSON null too: json-c's null is a NULL object).
 * A new reference in *ret. */
static int merge(struct json_object *target, struct json_object *source, struct json_object **ret) {
        if (json_object_is_type(target, json_type_array) && json_object_is_type(source, json_type_array)) {
                struct json_object *a = json_object_new_array();
                for (size_t i = 0; a && i < json_object_array_length(target); i++)
                        json_object_array_add(a, json_object_get(json_object_array_get_idx(target, i)));
                for (size_t i = 0; a && i < json_object_array_length(source); i++)
                        json_object_array_add(a, json_object_get(json_object_array_get_idx(source, i)));
                *ret = a;
                return a ? 0 : -ENOMEM;
        }
        if (json_object_is_type(target, json_type_object) && json_object_is_type(source, json_type_object)) {
                struct json_object *o = sanitized(target);
                if (!o)
                        return -ENOMEM;
                json_object_object_foreach(source, k2, v2) {
                        struct json_object *old = NULL, *m = NULL;
                        if (blocked_key(k2))
                                continue;
                        if (json_object_object_get_ex(o, k2, &old) &&
                            (json_type_object != json_object_get_type(v2) ||
                             json_object_is_type(old, json_type_object))) {
                                if (merge(old, v2, &m) < 0) {
                                        json_object_put(o);
                                        return -ENOMEM;
                                }
                        } else if (!(m = sanitized(v2)) && v2) {
                                json_object_put(o);
                                return -ENOMEM;
                        }
                        json_object_object_add(o, k2, m);
                }
                *ret = o;
                return 0;
        }
        *ret = json_object_get(source);
        return 0;
}

static int process(struct inc *in, struct json_object *node, const char *base, int depth,
                   struct json_object **ret);

static int load_file(struct inc *in, const char *spec, const char *base, int depth,
                     struct json_object **ret) {
        _cleanup_free_ char *dir = strdup(base), *joined = NULL, *norm = NULL, *text = NULL;
        char real[PATH_MAX];
        struct json_object *parsed = NULL;
        int r;

        if (!dir)
                return -ENOMEM;
        if (strstr(spec, "\xc0\x80")) /* a NUL as json5.c holds it; OpenClaw checks it first */
                return sbx_error_set(in->err, -EINVAL, "$include: path must not contain null bytes");
        if (strlen(spec) >= 4096)
                return sbx_error_set(in->err, -EINVAL, "$include \"%.64s...\": path too long", spec);
        char *slash = strrchr(dir, '/');
        if (slash)
                *(slash == dir ? slash + 1 : slash) = '\0';
        /* path.resolve(dir, spec) + normalize: as written (no trimming; "~" is a name) */
        if (asprintf(&joined, "%s/%s", spec[0] == '/' ? "" : dir, spec) < 0)
                return -ENOMEM;
        norm = sbx_policy_path_normalize(joined);
        if (!norm)
                return -ENOMEM;
        if (!inside(in->root_dir, norm))
                return sbx_error_set(in->err, -EPERM, "$include \"%s\": escapes the config directory %s",
                                     spec, in->root_dir);
        if (realpath(norm, real) && !inside(in->root_real, real))
                return sbx_error_set(in->err, -EPERM,
                                     "$include \"%s\": resolves outside the config directory (symlink)",
                                     spec);
        if (sbx_strv_contains(&in->chain, norm))
                return sbx_error_set(in->err, -ELOOP, "$include \"%s\": circular include", spec);
        if (depth >= INCLUDE_MAX_DEPTH)
                return sbx_error_set(in->err, -ELOOP, "$include \"%s\": more than %d levels", spec,
                                     INCLUDE_MAX_DEPTH);

        size_t len;
        if (in->trusted) {
                /* the including config's rule (sbx_config_load_fd): a refusal reads as a missing file */
                _cleanup_close_ int fd = sbx_open_trusted(open(norm, O_PATH | O_NOFOLLOW | O_CLOEXEC), false);
                r = fd < 0 ? sbx_error_set(in->err, -ENOENT, "cannot open included file '%s': No such file or "
                                           "directory, or not one that may be read (one link, owned by root or "
                                           "the caller, writable by no group or other, not a symlink)", norm)
                           : sbx_read_fd("included file", norm, fd, INCLUDE_MAX_BYTES, &text, &len, in->err);
        } else
                r = sbx_read_file("included file", norm, INCLUDE_MAX_BYTES, &text, &len, in->err);
        if (r < 0)
                return sbx_error_wrap(in->err, "$include \"%s\"", spec);
        r = sbx_json5_parse(text, len, &parsed, in->err);
        if (r < 0)
                return sbx_error_wrap(in->err, "$include \"%s\"", spec);
        if (sbx_strv_push(&in->chain, norm) < 0) {
                json_object_put(parsed);
                return -ENOMEM;
        }
        r = process(in, parsed, norm, depth + 1, ret);
        free(in->chain.v[--in->chain.n]);
        in->chain.v[in->chain.n] = NULL;
        json_object_put(parsed);
        return r;
}

static int process_include(struct inc *in, struct json_object *node, const char *base, int depth,
                           struct json_object **ret) {
        struct json_object *spec = jget(node, "$include"), *included = NULL;
        int r;

        if (json_object_is_type(spec, json_type_string))
                r = load_file(in, json_object_get_string(spec), base, depth, &included);
        else if (json_object_is_type(spec, json_type_array)) {
                included = json_object_new_object();
                r = included ? 0 : -ENOMEM;
                for (size_t i = 0; r >= 0 && i < json_object_array_length(spec); i++) {
                        struct json_object *item = json_object_array_get_idx(spec, i), *one = NULL, *m = NULL;
                        if (!json_object_is_type(item, json_type_string)) {
                                r = sbx_error_set(in->err, -EINVAL, "$include[%zu]: expected a string", i);
                                break;
                        }
                        r = load_file(in, json_object_get_string(item), base, depth, &one);
                        if (r < 0)
                                break;
                        r = merge(included, one, &m);
                        json_object_put(one);
                        json_object_put(included);
                        included = m;
                }
        } else
                r = sbx_error_set(in->err, -EINVAL, "$include: expected a string or an array of strings");
        if (r < 0) {
                json_object_put(included);
                return r;
        }
        if (json_object_object_length(node) == 1) {
                *ret = included;
                return 0;
        }
        if (!json_object_is_type(included, json_type_object)) {
                json_object_put(included);
                return sbx_error_set(in->err, -EINVAL, "$include: keys beside it need an included object");
        }
        struct json_object *rest = json_object_new_object();
        json_object_object_foreach(node, k, v) {
                struct json_object *pv = NULL;
                if (!strcmp(k, "$include"))
                        continue;
                r = process(in, v, base, depth, &pv);
                if (r < 0) {
                        json_object_put(rest);
                        json_object_put(included);
                        return r;
                }
                json_object_object_add(rest, k, pv);
        }
        r = merge(included, rest, ret);
        json_object_put(rest);
        json_object_put(included);
        return r;
}

/* Returns a new reference in *ret (the tree with every $include resolved). */
static int process(struct inc *in, struct json_object *node, const char *base, int depth,
                   struct json_object **ret) {
        int r;

        if (json_object_is_type(node, json_type_array)) {
                struct json_object *a = json_object_new_array();
                for (size_t i = 0; a && i < json_object_array_length(node); i++) {
                        struct json_object *v = NULL;
                        r = process(in, json_object_array_get_idx(node, i), base, depth, &v);
                        if (r < 0) {
                                json_object_put(a);
                                return r;
                        }
                        json_object_array_add(a, v);
                }
                *ret = a;
                return a ? 0 : -ENOMEM;
        }
        if (!json_object_is_type(node, json_type_object)) {
                *ret = json_object_get(node);
                return 0;
        }
        if (jhas(node, "$include"))
                return process_include(in, node, base, depth, ret);
        struct json_object *o = json_object_new_object();
        json_object_object_foreach(node, k, v) {
                struct json_object *pv = NULL;
                r = o ? process(in, v, base, depth, &pv) : -ENOMEM;
                if (r < 0) {
                        json_object_put(o);
                        return r;
                }
                json_object_object_add(o, k, pv);
        }
        *ret = o;
        return 0;
}

static bool has_include(struct json_object *o) {
        if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        if (has_include(json_object_array_get_idx(o, i)))
                                return true;
        } else if (json_object_is_type(o, json_type_object)) {
                if (jhas(o, "$include"))
                        return true;
                json_object_object_foreach(o, k, v) {
                        (void) k;
                        if (has_include(v))
                                return true;
                }
        }
        return false;
}

int sbx_config_resolve_includes(struct json_object **root, const char *config_path, bool trusted,
                                sbx_error *reterr) {
        struct inc in = {.trusted = trusted, .err = reterr};
        _cleanup_free_ char *abs = NULL;
        struct json_object *out = NULL;
        int r;

        if (!has_include(*root))
                return 0;
        if (!config_path)
                return sbx_error_set(reterr, -EINVAL, "$include needs the config to be read from a file");
        abs = sbx_expand_user_path(config_path);
        if (!abs)
                return -ENOMEM;
        snprintf(in.root_dir, sizeof(in.root_dir), "%s", abs);
        char *slash = strrchr(in.root_dir, '/');
        if (slash)
                *(slash == in.root_dir ? slash + 1 : slash) = '\0';
        if (!realpath(in.root_dir, in.root_real))
                snprintf(in.root_real, sizeof(in.root_real), "%s", in.root_dir);
        if (sbx_strv_push(&in.chain, abs) < 0)
                return -ENOMEM;
        r = process(&in, *root, abs, 0, &out);
        sbx_strv_free(&in.chain);
        if (r < 0)
                return r == -ENOMEM ? sbx_error_set(reterr, -ENOMEM, "out of memory") : r;
        json_object_put(*root);
        *root = out;
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* Docker/OCI-format seccomp profile parser (see seccomp-profile.h).
 *
 * The input may be hostile (docker.seccompProfile is user-supplied and this
 * code is fuzzed by tests/fuzz/fuzz-seccomp-profile.c), so: capped size, a
 * depth-limited strict tokener that validates UTF-8, every key known, every
 * value type-checked and range-checked, and every error names the JSON path.
 *
 * What is evaluated here, once, in the parent:
 *   includes/excludes.caps     sbx drops every capability, so an entry that
 *                              includes caps never applies and one that
 *                              excludes caps always does;
 *   includes/excludes.arches   against the native architecture;
 *   includes/excludes.minKernel against the running kernel (uname).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/util.h"
#include "seccomp-embedded.h"
#include "security.h"

/* JSON paths for messages ("syscalls[12].args[0].valueTwo"); a path cut
 * short by the fixed buffer still points at the right place. */
#define PATH_LEN 96
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static inline bool streq(const char *a, const char *b) {
        return strcmp(a, b) == 0;
}

static inline bool startswith(const char *s, const char *prefix) {
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

typedef struct parse_ctx {
        const char *origin;
        unsigned flags;
        sbx_seccomp_profile *p;
        size_t rules_cap;
        sbx_error *reterr;
} parse_ctx;

static int perr(parse_ctx *c, int code, const char *jpath, const char *fmt, ...) _printf_(4, 5);
static int perr(parse_ctx *c, int code, const char *jpath, const char *fmt, ...) {
        char detail[SBX_ERROR_MSG_MAX];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(detail, sizeof(detail), fmt, ap);
        va_end(ap);
        return sbx_error_set(c->reterr, code, "seccomp profile '%s': %s: %s", c->origin, jpath, detail);
}

static int want_type(parse_ctx *c, json_object *o, json_type t, const char *jpath) {
        if (json_object_is_type(o, t))
                return 0;
        return perr(c, -EINVAL, jpath, "expected %s, got %s", json_type_to_name(t),
                    json_type_to_name(json_object_get_type(o)));
}

/* Reject keys outside allowed[] (NULL-terminated). */
static int check_keys(parse_ctx *c, json_object *obj, const char *jpath, const char *const *allowed) {
        json_object_object_foreach(obj, key, val) {
                bool ok = false;
                (void) val;
                for (size_t i = 0; allowed[i] && !ok; i++)
                        ok = streq(key, allowed[i]);
                if (!ok)
                        return perr(c, -EINVAL, jpath, "unknown key '%.64s'", key);
        }
        return 0;
}

/* A non-empty string of at most max bytes. */
static int get_string(parse_ctx *c, json_object *o, const char *jpath, size_t max, const char **ret) {
        const char *s;
        int r;

        r = want_type(c, o, json_type_string, jpath);
        if (r < 0)
                return r;
        s = json_object_get_string(o);
        if (s[0] == '\0')
                return perr(c, -EINVAL, jpath, "empty string");
        if ((size_t) json_object_get_string_len(o) > max ||
            strlen(s) != (size_t) json_object_get_string_len(o))
                return perr(c, -EINVAL, jpath, "string too long or contains NUL");
        *ret = s;
        return 0;
}

static int get_u64(parse_ctx *c, json_object *o, const char *jpath, uint64_t max, uint64_t *ret) {
        uint64_t v;
        int r;

        r = want_type(c, o, json_type_int, jpath);
        if (r < 0)
                return r;
        if (json_object_get_int64(o) < 0)
                return perr(c, -ERANGE, jpath, "negative number");
        v = json_object_get_uint64(o);
        if (v > max)
                return perr(c, -ERANGE, jpath, "%llu is out of range (max %llu)", (unsigned long long) v,
                            (unsigned long long) max);
        *ret = v;
        return 0;
}

/* JPATH.KEY into p2 (KEY alone at the top level, JPATH NULL). */
static void path_join(char p2[static PATH_LEN], const char *jpath, const char *key) {
        if (jpath)
                snprintf(p2, PATH_LEN, "%s.%s", jpath, key);
        else
                snprintf(p2, PATH_LEN, "%s", key);
}

/* An object with no keys outside allowed[] (NULL-terminated). */
static int want_object(parse_ctx *c, json_object *o, const char *jpath, const char *const *allowed) {
        int r = want_type(c, o, json_type_object, jpath);

        return r < 0 ? r : check_keys(c, o, jpath, allowed);
}

/* The member KEY of O, which must be there, as get_string() reads it; its path is left in p2. */
static int get_member_string(parse_ctx *c, json_object *o, const char *jpath, const char *key, size_t max,
                             char p2[static PATH_LEN], const char **ret) {
        json_object *v;

        path_join(p2, jpath, key);
        if (!json_object_object_get_ex(o, key, &v))
                return perr(c, -EINVAL, p2, "missing");
        return get_string(c, v, p2, max, ret);
}

/* Calls each() on every element of the array ARR at JPATH, with the element's path ("JPATH[i]"). */
typedef int (*element_fn)(parse_ctx *c, json_object *e, const char *jpath, size_t i, void *userdata);
static int each_element(parse_ctx *c, json_object *arr, const char *jpath, element_fn each, void *userdata) {
        char p2[PATH_LEN];
        int r;

        r = want_type(c, arr, json_type_array, jpath);
        if (r < 0)
                return r;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
                snprintf(p2, sizeof(p2), "%s[%zu]", jpath, i);
                r = each(c, json_object_array_get_idx(arr, i), p2, i, userdata);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Calls each() on every element of the array ARR at JPATH, each a string of at most MAX bytes. */
typedef int (*string_fn)(parse_ctx *c, const char *s, const char *jpath, void *userdata);
typedef struct each_string_ctx {
        size_t max;
        string_fn each;
        void *userdata;
} each_string_ctx;

static int each_string_element(parse_ctx *c, json_object *e, const char *jpath, size_t i, void *userdata) {
        each_string_ctx *x = userdata;
        const char *s;
        int r;

        (void) i;
        r = get_string(c, e, jpath, x->max, &s);
        return r < 0 ? r : x->each(c, s, jpath, x->userdata);
}

static int each_string(parse_ctx *c, json_object *arr, const char *jpath, size_t max, string_fn each,
                       void *userdata) {
        each_string_ctx x = {.max = max, .each = each, .userdata = userdata};

        return each_element(c, arr, jpath, each_string_element, &x);
}

/* "SCMP_ARCH_X86_64" -> libseccomp token, 0 if unknown. */
static uint32_t arch_from_name(const char *name) {
        char lower[32];
        size_t i;

        if (!startswith(name, "SCMP_ARCH_"))
                return 0;
        name += strlen("SCMP_ARCH_");
        for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
                lower[i] = (char) tolower((unsigned char) name[i]);
        if (name[i])
                return 0;
        lower[i] = '\0';
        return seccomp_arch_resolve_name(lower);
}

static int add_arch(parse_ctx *c, const char *name, const char *jpath, void *userdata) {
        uint32_t arch = arch_from_name(name);

        (void) userdata;
        if (arch == 0)
                return perr(c, -EINVAL, jpath, "unknown architecture '%.40s'", name);
        if (arch == seccomp_arch_native())
                return 0;
        if (!(c->flags & SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES))
                return perr(c, -EPERM, jpath,
                            "foreign architecture '%s' refused: sbx filters only the native ABI and "
                            "kills x32 and 32-bit syscalls (remove it from the profile)",
                            name);
        for (size_t i = 0; i < c->p->n_arches; i++)
                if (c->p->arches[i] == arch)
                        return 0;
        if (c->p->n_arches >= SBX_SECCOMP_ARCHES_MAX)
                return perr(c, -E2BIG, jpath, "too many architectures");
        c->p->arches[c->p->n_arches++] = arch;
        return 0;
}

static int parse_architectures(parse_ctx *c, json_object *arr) {
        return each_string(c, arr, "architectures", 32, add_arch, NULL);
}

/* One of archMap[].subArchitectures: known, and added when its entry is the native one. */
static int add_sub_arch(parse_ctx *c, const char *sub, const char *jpath, void *userdata) {
        uint32_t arch = *(const uint32_t *) userdata;

        if (arch_from_name(sub) == 0)
                return perr(c, -EINVAL, jpath, "unknown architecture '%.40s'", sub);
        if (arch != seccomp_arch_native())
                return 0;
        return add_arch(c, sub, jpath, NULL);
}

static int parse_arch_map_entry(parse_ctx *c, json_object *e, const char *jpath, size_t i, void *userdata) {
        static const char *const keys[] = {"architecture", "subArchitectures", NULL};
        char p2[PATH_LEN];
        json_object *subs;
        const char *name;
        uint32_t arch;
        int r;

        (void) i;
        (void) userdata;
        r = want_object(c, e, jpath, keys);
        if (r < 0)
                return r;
        r = get_member_string(c, e, jpath, "architecture", 32, p2, &name);
        if (r < 0)
                return r;
        arch = arch_from_name(name);
        if (arch == 0)
                return perr(c, -EINVAL, p2, "unknown architecture '%.40s'", name);
        if (!json_object_object_get_ex(e, "subArchitectures", &subs) || !subs)
                return 0;
        path_join(p2, jpath, "subArchitectures");
        return each_string(c, subs, p2, 32, add_sub_arch, &arch);
}

/* archMap: only the entry for the native architecture is used (the others
 * describe what Docker does on other hosts), but all must be well-formed. */
static int parse_arch_map(parse_ctx *c, json_object *arr) {
        return each_element(c, arr, "archMap", parse_arch_map_entry, NULL);
}

static int parse_action(parse_ctx *c, const char *s, bool have_errno, uint64_t errno_ret, const char *jpath,
                        uint32_t *ret) {
        static const struct {
                const char *name;
                uint32_t action;
        } table[] = {
                {"SCMP_ACT_ALLOW", SCMP_ACT_ALLOW},
                {"SCMP_ACT_KILL", SCMP_ACT_KILL},
                {"SCMP_ACT_KILL_PROCESS", SCMP_ACT_KILL_PROCESS},
                {"SCMP_ACT_KILL_THREAD", SCMP_ACT_KILL_THREAD},
                {"SCMP_ACT_LOG", SCMP_ACT_LOG},
                {"SCMP_ACT_TRAP", SCMP_ACT_TRAP},
        };

        if (streq(s, "SCMP_ACT_ERRNO")) {
                *ret = SCMP_ACT_ERRNO(have_errno ? (uint16_t) errno_ret : EPERM);
                return 0;
        }
        if (have_errno)
                return perr(c, -EINVAL, jpath, "an errno is only meaningful with SCMP_ACT_ERRNO, not %.40s",
                            s);
        for (size_t i = 0; i < ELEMENTSOF(table); i++)
                if (streq(s, table[i].name)) {
                        *ret = table[i].action;
                        return 0;
                }
        if (streq(s, "SCMP_ACT_TRACE") || streq(s, "SCMP_ACT_NOTIFY"))
                return perr(c, -EOPNOTSUPP, jpath,
                            "%s is not supported: sbx runs no tracer or seccomp listener", s);
        return perr(c, -EINVAL, jpath, "unknown action '%.40s'", s);
}

/* Up to three decimal digits at *s, advancing it; -EINVAL if none. */
static int parse_small_number(const char **s, unsigned *ret) {
        unsigned v = 0;
        int n = 0;

        while (isdigit((unsigned char) **s) && n < 4) {
                v = v * 10 + (unsigned) (**s - '0');
                (*s)++;
                n++;
        }
        if (n == 0 || n > 3)
                return -EINVAL;
        *ret = v;
        return 0;
}

/* "4.8" or "5.10.3" -> major * 1000 + minor. */
static int parse_kernel_version(const char *s, unsigned *ret) {
        unsigned major, minor, patch;

        if (parse_small_number(&s, &major) < 0 || *s++ != '.' || parse_small_number(&s, &minor) < 0)
                return -EINVAL;
        if (*s == '.' && (s++, parse_small_number(&s, &patch) < 0))
                return -EINVAL;
        if (*s != '\0')
                return -EINVAL;
        *ret = major * 1000 + minor;
        return 0;
}

static unsigned running_kernel(void) {
        struct utsname u;
        unsigned major = 0, minor = 0;

        if (uname(&u) < 0 || sscanf(u.release, "%3u.%3u", &major, &minor) != 2)
                return 0;
        return major * 1000 + minor;
}

static bool arch_name_is_native(const char *s) {
        /* Docker writes Go architecture names here ("amd64", "arm64", ...). */
        switch (seccomp_arch_native()) {
        case SCMP_ARCH_X86_64:
                return streq(s, "amd64") || streq(s, "x86_64") || streq(s, "SCMP_ARCH_X86_64");
        case SCMP_ARCH_AARCH64:
                return streq(s, "arm64") || streq(s, "aarch64") || streq(s, "SCMP_ARCH_AARCH64");
        default:
                return false;
        }
}

/* caps: an array of known capability names. */
static int check_cap(parse_ctx *c, const char *s, const char *jpath, void *userdata) {
        (void) userdata;
        if (!startswith(s, "CAP_") || sbx_cap_from_name(s) < 0)
                return perr(c, -EINVAL, jpath, "unknown capability '%s'", s);
        return 0;
}

static int note_native_arch(parse_ctx *c, const char *s, const char *jpath, void *userdata) {
        bool *native = userdata;

        (void) c;
        (void) jpath;
        *native = *native || arch_name_is_native(s);
        return 0;
}

/* One includes/excludes object: returns 1 if the entry applies on this host
 * as far as this object says (every present condition, read as includes or
 * excludes), 0 if not, <0 on error. */
static int parse_filter(parse_ctx *c, json_object *o, const char *jpath, bool includes) {
        static const char *const keys[] = {"arches", "caps", "minKernel", NULL};
        char p2[PATH_LEN];
        json_object *v;
        bool applies = true;
        int r;

        r = want_object(c, o, jpath, keys);
        if (r < 0)
                return r;

        if (json_object_object_get_ex(o, "caps", &v) && v) {
                path_join(p2, jpath, "caps");
                r = each_string(c, v, p2, 40, check_cap, NULL);
                if (r < 0)
                        return r;
                /* sbx holds no capabilities: "only with CAP_X" never applies,
                 * "not with CAP_X" always does. */
                if (json_object_array_length(v) > 0 && includes)
                        applies = false;
        }
        if (json_object_object_get_ex(o, "arches", &v) && v) {
                bool native = false;

                path_join(p2, jpath, "arches");
                r = each_string(c, v, p2, 32, note_native_arch, &native);
                if (r < 0)
                        return r;
                if (json_object_array_length(v) > 0 && (includes ? !native : native))
                        applies = false;
        }
        if (json_object_object_get_ex(o, "minKernel", &v) && v) {
                const char *s;
                unsigned want;

                path_join(p2, jpath, "minKernel");
                r = get_string(c, v, p2, 16, &s);
                if (r < 0)
                        return r;
                if (parse_kernel_version(s, &want) < 0)
                        return perr(c, -EINVAL, p2, "'%s' is not a kernel version like \"5.10\"", s);
                if (includes ? running_kernel() < want : running_kernel() >= want)
                        applies = false;
        }
        return applies;
}

static int parse_arg(parse_ctx *c, json_object *o, const char *jpath, struct scmp_arg_cmp *ret) {
        static const char *const keys[] = {"index", "op", "value", "valueTwo", NULL};
        static const struct {
                const char *name;
                enum scmp_compare op;
        } ops[] = {
                {"SCMP_CMP_EQ", SCMP_CMP_EQ}, {"SCMP_CMP_GE", SCMP_CMP_GE},
                {"SCMP_CMP_GT", SCMP_CMP_GT}, {"SCMP_CMP_LE", SCMP_CMP_LE},
                {"SCMP_CMP_LT", SCMP_CMP_LT}, {"SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ},
                {"SCMP_CMP_NE", SCMP_CMP_NE},
        };
        char p2[PATH_LEN];
        json_object *v;
        uint64_t index, value = 0, value_two = 0;
        const char *op;
        int r;

        r = want_object(c, o, jpath, keys);
        if (r < 0)
                return r;
        path_join(p2, jpath, "index");
        if (!json_object_object_get_ex(o, "index", &v))
                return perr(c, -EINVAL, p2, "missing");
        r = get_u64(c, v, p2, 5, &index);
        if (r < 0)
                return r;
        path_join(p2, jpath, "value");
        if (json_object_object_get_ex(o, "value", &v) && (r = get_u64(c, v, p2, UINT64_MAX, &value)) < 0)
                return r;
        path_join(p2, jpath, "valueTwo");
        if (json_object_object_get_ex(o, "valueTwo", &v) &&
            (r = get_u64(c, v, p2, UINT64_MAX, &value_two)) < 0)
                return r;
        r = get_member_string(c, o, jpath, "op", 32, p2, &op);
        if (r < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(ops); i++)
                if (streq(op, ops[i].name)) {
                        if (ops[i].op != SCMP_CMP_MASKED_EQ && value_two != 0)
                                return perr(c, -EINVAL, jpath,
                                            "valueTwo is only meaningful with SCMP_CMP_MASKED_EQ");
                        /* Docker: value is the mask, valueTwo the expected result. */
                        *ret = (struct scmp_arg_cmp){
                                .arg = (unsigned) index,
                                .op = ops[i].op,
                                .datum_a = value,
                                .datum_b = value_two,
                        };
                        return 0;
                }
        return perr(c, -EINVAL, p2, "unknown comparison '%.40s'", op);
}

static int push_rule(parse_ctx *c, const sbx_seccomp_rule *rule, const char *jpath) {
        if (c->p->n_rules >= SBX_SECCOMP_RULES_MAX)
                return perr(c, -E2BIG, jpath, "more than %d rules", SBX_SECCOMP_RULES_MAX);
        if (c->p->n_rules == c->rules_cap) {
                size_t cap = c->rules_cap ? c->rules_cap * 2 : 64;
                sbx_seccomp_rule *n = reallocarray(c->p->rules, cap, sizeof(*n));

                if (!n)
                        return perr(c, -ENOMEM, jpath, "out of memory");
                c->p->rules = n;
                c->rules_cap = cap;
        }
        c->p->rules[c->p->n_rules++] = *rule;
        return 0;
}

/* comment, group, reason: free text (Docker's own profile has "comment": ""). */
static int check_entry_text(parse_ctx *c, json_object *e, const char *jpath) {
        static const char *const text_keys[] = {"comment", "group", "reason"};
        char p2[PATH_LEN];
        json_object *v;
        int r;

        for (size_t i = 0; i < ELEMENTSOF(text_keys); i++) {
                if (!json_object_object_get_ex(e, text_keys[i], &v))
                        continue;
                path_join(p2, jpath, text_keys[i]);
                r = want_type(c, v, json_type_string, p2);
                if (r < 0)
                        return r;
                if (json_object_get_string_len(v) > 2048)
                        return perr(c, -EINVAL, p2, "longer than 2048 bytes");
        }
        return 0;
}

/* An action and its errno (ERRNO_KEY and ACTION_KEY of O, at JPATH; NULL at the top level). */
static int parse_action_of(parse_ctx *c, json_object *o, const char *jpath, const char *errno_key,
                           const char *action_key, uint32_t *ret) {
        char p2[PATH_LEN];
        json_object *v;
        uint64_t errno_ret = 0;
        bool have_errno = false;
        const char *s;
        int r;

        if (json_object_object_get_ex(o, errno_key, &v) && v) {
                path_join(p2, jpath, errno_key);
                r = get_u64(c, v, p2, 4095, &errno_ret);
                if (r < 0)
                        return r;
                have_errno = true;
        }
        r = get_member_string(c, o, jpath, action_key, 40, p2, &s);
        if (r < 0)
                return r;
        return parse_action(c, s, have_errno, errno_ret, p2, ret);
}

static int parse_entry_arg(parse_ctx *c, json_object *a, const char *jpath, size_t i, void *userdata) {
        sbx_seccomp_rule *tmpl = userdata;

        (void) i;
        return parse_arg(c, a, jpath, &tmpl->args[tmpl->n_args++]);
}

static int parse_entry_args(parse_ctx *c, json_object *e, const char *jpath, sbx_seccomp_rule *tmpl) {
        char p2[PATH_LEN];
        json_object *v;

        if (!json_object_object_get_ex(e, "args", &v) || !v)
                return 0;
        path_join(p2, jpath, "args");
        if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > ELEMENTSOF(tmpl->args))
                return perr(c, -E2BIG, p2, "more than %zu comparisons", ELEMENTSOF(tmpl->args));
        return each_element(c, v, p2, parse_entry_arg, tmpl);
}

/* includes/excludes: 1 if the entry applies on this host, 0 if not. */
static int entry_applies(parse_ctx *c, json_object *e, const char *jpath) {
        char p2[PATH_LEN];
        json_object *v;
        bool applies = true;
        int r;

        for (int inc = 1; inc >= 0; inc--) {
                const char *key = inc ? "includes" : "excludes";

                if (!json_object_object_get_ex(e, key, &v) || !v)
                        continue;
                path_join(p2, jpath, key);
                r = parse_filter(c, v, p2, inc);
                if (r < 0)
                        return r;
                applies = applies && r > 0;
        }
        return applies;
}

/* Resolve one name; an unknown name is an error, never skipped, but under
 * SBX_SECCOMP_PARSE_OCI (runc and crun skip a name libseccomp does not know:
 * a profile written for a newer kernel still loads). */
typedef struct name_ctx {
        bool applies;
        const sbx_seccomp_rule *tmpl;
} name_ctx;

static int add_name(parse_ctx *c, json_object *n, const char *jpath, size_t i, void *userdata) {
        const name_ctx *x = userdata;
        sbx_seccomp_rule rule = *x->tmpl;
        const char *s;
        int nr, r;

        (void) i;
        r = get_string(c, n, jpath, sizeof(rule.name) - 1, &s);
        if (r < 0)
                return r;
        nr = seccomp_syscall_resolve_name(s);
        if (nr == __NR_SCMP_ERROR && (c->flags & SBX_SECCOMP_PARSE_OCI)) {
                c->p->n_unknown++;
                return 0;
        }
        if (nr == __NR_SCMP_ERROR)
                return perr(c, -EINVAL, jpath, "unknown syscall '%s'", s);
        if (!x->applies)
                return 0;
        if (nr > c->p->max_nr)
                c->p->max_nr = nr;
        rule.nr = nr;
        strcpy(rule.name, s);
        return push_rule(c, &rule, jpath);
}

/* name or names[]: one rule per syscall. */
static int parse_entry_names(parse_ctx *c, json_object *e, const char *jpath, bool applies,
                             const sbx_seccomp_rule *tmpl) {
        name_ctx x = {.applies = applies, .tmpl = tmpl};
        char p2[PATH_LEN];
        json_object *names = NULL, *name = NULL;

        json_object_object_get_ex(e, "names", &names);
        json_object_object_get_ex(e, "name", &name);
        if (names && name)
                return perr(c, -EINVAL, jpath, "both 'name' and 'names' given");
        if (name) {
                path_join(p2, jpath, "name");
                return add_name(c, name, p2, 0, &x);
        }
        path_join(p2, jpath, "names");
        if (!names)
                return perr(c, -EINVAL, p2, "missing (no syscall named)");
        if (json_object_is_type(names, json_type_array) && json_object_array_length(names) == 0)
                return perr(c, -EINVAL, p2, "empty");
        return each_element(c, names, p2, add_name, &x);
}

static int parse_entry(parse_ctx *c, json_object *e, const char *jpath, size_t idx, void *userdata) {
        static const char *const keys[] = {
                "action",   "args", "comment", "errnoRet", "excludes", "group",
                "includes", "name", "names",   "reason",   NULL,
        };
        sbx_seccomp_rule tmpl = {.entry = (unsigned) idx};
        int r, applies;

        (void) userdata;
        r = want_object(c, e, jpath, keys);
        if (r < 0)
                return r;
        r = check_entry_text(c, e, jpath);
        if (r < 0)
                return r;
        r = parse_action_of(c, e, jpath, "errnoRet", "action", &tmpl.action);
        if (r < 0)
                return r;
        r = parse_entry_args(c, e, jpath, &tmpl);
        if (r < 0)
                return r;
        applies = entry_applies(c, e, jpath);
        if (applies < 0)
                return applies;
        /* Names last: an entry that does not apply still has its names checked. */
        return parse_entry_names(c, e, jpath, applies > 0, &tmpl);
}

/* The runtime-spec's `flags` (SBX_SECCOMP_PARSE_OCI): the seccomp(2) flags
 * crun takes; SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV and the rest are refused. */
static int parse_filter_flag(parse_ctx *c, json_object *f, const char *jpath, size_t i, void *userdata) {
        static const struct {
                const char *name;
                unsigned flag;
        } known[] = {
                {"SECCOMP_FILTER_FLAG_TSYNC", SECCOMP_FILTER_FLAG_TSYNC},
                {"SECCOMP_FILTER_FLAG_LOG", SECCOMP_FILTER_FLAG_LOG},
                {"SECCOMP_FILTER_FLAG_SPEC_ALLOW", SECCOMP_FILTER_FLAG_SPEC_ALLOW},
        };
        const char *s;
        int r;

        (void) i;
        (void) userdata;
        r = get_string(c, f, jpath, 64, &s);
        if (r < 0)
                return r;
        for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
                if (streq(s, known[k].name)) {
                        c->p->filter_flags |= known[k].flag;
                        return 0;
                }
        return perr(c, -EOPNOTSUPP, jpath,
                    "seccomp filter flag '%s' is not supported (SECCOMP_FILTER_FLAG_TSYNC, _LOG, _SPEC_ALLOW are)", s);
}

/* Keys Docker/runc know that sbx refuses to half-honour. */
static int reject_unsupported(parse_ctx *c, json_object *root) {
        json_object *v;

        if (json_object_object_get_ex(root, "flags", &v) && v && (c->flags & SBX_SECCOMP_PARSE_OCI)) {
                int r = each_element(c, v, "flags", parse_filter_flag, NULL);
                if (r < 0)
                        return r;
        } else if (json_object_object_get_ex(root, "flags", &v) && v &&
                   !(json_object_is_type(v, json_type_array) && json_object_array_length(v) == 0))
                return perr(c, -EOPNOTSUPP, "flags", "seccomp filter flags are not supported (use [])");
        if (json_object_object_get_ex(root, "listenerPath", &v) && v &&
            !(json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0))
                return perr(c, -EOPNOTSUPP, "listenerPath", "seccomp user notification is not supported");
        if (json_object_object_get_ex(root, "listenerMetadata", &v) && v &&
            !(json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0))
                return perr(c, -EOPNOTSUPP, "listenerMetadata",
                            "seccomp user notification is not supported");
        return 0;
}

static int parse_root(parse_ctx *c, json_object *root) {
        static const char *const keys[] = {
                "archMap", "architectures",    "comment",      "defaultAction", "defaultErrnoRet",
                "flags",   "listenerMetadata", "listenerPath", "syscalls",      NULL,
        };
        json_object *v;
        int r;

        r = want_object(c, root, "$", keys);
        if (r < 0)
                return r;
        r = reject_unsupported(c, root);
        if (r < 0)
                return r;
        if (json_object_object_get_ex(root, "comment", &v) &&
            (r = want_type(c, v, json_type_string, "comment")) < 0)
                return r;
        r = parse_action_of(c, root, NULL, "defaultErrnoRet", "defaultAction", &c->p->default_action);
        if (r < 0)
                return r;
        if (json_object_object_get_ex(root, "architectures", &v) && v && (r = parse_architectures(c, v)) < 0)
                return r;
        if (json_object_object_get_ex(root, "archMap", &v) && v && (r = parse_arch_map(c, v)) < 0)
                return r;
        if (!json_object_object_get_ex(root, "syscalls", &v) || !v)
                return 0;
        return each_element(c, v, "syscalls", parse_entry, NULL);
}

static void json_tokener_freep(json_tokener **t) {
        if (*t)
                json_tokener_free(*t);
}

static void json_object_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}

int sbx_seccomp_profile_parse(const char *buf, size_t len, const char *origin, unsigned flags,
                              sbx_seccomp_profile *ret, sbx_error *reterr) {
        _cleanup_(json_tokener_freep) json_tokener *tok = NULL;
        _cleanup_(json_object_putp) json_object *root = NULL;
        sbx_seccomp_profile p = {.max_nr = -1};
        parse_ctx c = {.origin = origin, .flags = flags, .p = &p, .reterr = reterr};
        enum json_tokener_error jerr;
        size_t end;
        int r;

        if (len > SBX_SECCOMP_PROFILE_SIZE_MAX)
                return perr(&c, -EFBIG, "$", "%zu bytes, more than the limit of %d", len,
                            SBX_SECCOMP_PROFILE_SIZE_MAX);
        tok = json_tokener_new_ex(SBX_SECCOMP_PROFILE_DEPTH_MAX);
        if (!tok)
                return perr(&c, -ENOMEM, "$", "out of memory");
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
        root = json_tokener_parse_ex(tok, buf, (int) len);
        jerr = json_tokener_get_error(tok);
        if (jerr == json_tokener_continue)
                return perr(&c, -EINVAL, "$", "truncated JSON");
        if (!root || jerr != json_tokener_success)
                return perr(&c, -EINVAL, "$", "invalid JSON at byte %zu: %s",
                            json_tokener_get_parse_end(tok), json_tokener_error_desc(jerr));
        for (end = json_tokener_get_parse_end(tok); end < len; end++)
                if (!strchr(" \t\r\n", buf[end]) || buf[end] == '\0')
                        return perr(&c, -EINVAL, "$", "trailing data at byte %zu", end);

        snprintf(p.origin, sizeof(p.origin), "%s", origin);
        r = parse_root(&c, root);
        if (r < 0) {
                sbx_seccomp_profile_done(&p);
                return r;
        }
        *ret = p;
        return 0;
}

int sbx_seccomp_profile_load_file(const char *path, unsigned flags, sbx_seccomp_profile *ret,
                                  sbx_error *reterr) {
        _cleanup_free_ char *buf = NULL;
        size_t n;
        int r;

        r = sbx_read_file("seccomp profile", path, SBX_SECCOMP_PROFILE_SIZE_MAX, &buf, &n, reterr);
        if (r < 0)
                return r;
        return sbx_seccomp_profile_parse(buf, n, path, flags, ret, reterr);
}

int sbx_seccomp_profile_load_embedded(const char *name, sbx_seccomp_profile *ret, sbx_error *reterr) {
        char origin[64];

        for (size_t i = 0; i < sbx_embedded_profiles_count; i++) {
                const sbx_embedded_profile *e = &sbx_embedded_profiles[i];

                if (!streq(e->name, name))
                        continue;
                snprintf(origin, sizeof(origin), "embedded %s.json", name);
                return sbx_seccomp_profile_parse((const char *) e->data, e->size, origin, 0, ret, reterr);
        }
        return sbx_error_set(reterr, -ENOENT, "seccomp: no embedded profile '%s'", name);
}

void sbx_seccomp_profile_done(sbx_seccomp_profile *p) {
        if (!p)
                return;
        free(p->rules);
        p->rules = NULL;
        p->n_rules = 0;
}

const char *sbx_seccomp_action_to_string(uint32_t action, char *buf, size_t len) {
        static const struct {
                uint32_t action;
                const char *text;
        } table[] = {
                {SCMP_ACT_ALLOW, "allow"},
                {SCMP_ACT_LOG, "log"},
                {SCMP_ACT_TRAP, "trap (SIGSYS)"},
                {SCMP_ACT_KILL_PROCESS, "kill process (SIGSYS)"},
                {SCMP_ACT_KILL_THREAD, "kill thread (SIGSYS)"},
        };
        uint32_t kind = action & SECCOMP_RET_ACTION_FULL;

        if (kind == SCMP_ACT_ERRNO(0)) {
                snprintf(buf, len, "errno %s", strerrorname_np(action & 0xffff) ?: "?");
                return buf;
        }
        for (size_t i = 0; i < ELEMENTSOF(table); i++)
                if (kind == table[i].action) {
                        snprintf(buf, len, "%s", table[i].text);
                        return buf;
                }
        snprintf(buf, len, "action 0x%08x", action);
        return buf;
}

/* SPDX-License-Identifier: MIT */
/* The Go text/template subset docker's --format needs (docker-surface.md §2),
 * evaluated over json-c data. Pure: no syscalls besides the output buffer.
 *
 *   text {{.A.B}} {{ index .M "k" }} {{json .X}} {{println .}} {{print .X}}
 *   {{printf "%-10s %d" .A .B}} {{(PIPE).Field}} {{eq (index .M "k") "v"}}
 *   {{range .L}}...{{else}}...{{end}} {{if P}}..{{else if P}}..{{else}}..{{end}} {{with P}}
 *   {{- trim -}}  PIPE | json  {{.M "k"}} (docker ps's .Label)
 *
 * Go's rules kept: a missing key of a Go map prints "<no value>", of a
 * struct it is an error (docker.h says which object is which), JSON null
 * prints "<nil>" (json prints null), booleans true/false, lists "[a b]",
 * maps "map[k:v]" with sorted keys, structs "{a b}". Anything else is an
 * error naming the action. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "docker.h"
#include "util/util.h"

#define MAX_DEPTH 16

/* A value: a json-c object (NULL = JSON null) or "no value" (missing key). */
typedef struct tval {
        json_object *o;
        bool missing;
} tval;

#define MAX_VARS 32

typedef struct tctx {
        FILE *out;
        const char *tmpl;
        sbx_error *reterr;
        int depth;
        /* variables in scope, innermost last: $ (the data), {{$x := P}},
         * range's $i/$k and $v; own: a value made for it (freed at pop) */
        struct tvar {
                char name[32];
                tval v;
                json_object *own;
        } vars[MAX_VARS];
        int n_vars;
} tctx;

static void vars_pop(tctx *t, int to) {
        while (t->n_vars > to) {
                t->n_vars--;
                json_object_put(t->vars[t->n_vars].own);
                t->vars[t->n_vars].own = NULL;
        }
}

/* What an object stands for (its json-c userdata, compared by address
 * only: other userdata, docker ps's rows', is never read here). */
static const char map_tags[2];
static const sbx_docker_tmpl_struct_shape *struct_tags[8];

void sbx_docker_tmpl_map(void *o, sbx_docker_tmpl_map_kind kind) {
        if (o)
                json_object_set_userdata(o, (void *) &map_tags[kind == SBX_TMPL_MAP_POINTER], NULL);
}

void sbx_docker_tmpl_struct(void *o, const sbx_docker_tmpl_struct_shape *shape) {
        size_t i;

        if (!o)
                return;
        for (i = 0; i < ELEMENTSOF(struct_tags) && struct_tags[i] && struct_tags[i] != shape; i++)
                ;
        if (i == ELEMENTSOF(struct_tags))
                return; /* more shapes than slots: printed as a map */
        struct_tags[i] = shape;
        json_object_set_userdata(o, (void *) shape, NULL);
}

/* "" for a zero string field (one object, kept for the process) */
static json_object *empty_string(void) {
        static json_object *empty;

        if (!empty)
                empty = json_object_new_string("");
        return empty;
}

/* -1: not a Go map; else its sbx_docker_tmpl_map_kind */
static int map_kind(json_object *o) {
        void *u = o && json_object_is_type(o, json_type_object) ? json_object_get_userdata(o) : NULL;

        return u == &map_tags[0] ? SBX_TMPL_MAP_STRING : u == &map_tags[1] ? SBX_TMPL_MAP_POINTER : -1;
}

static const sbx_docker_tmpl_struct_shape *struct_shape(json_object *o) {
        void *u = o && json_object_is_type(o, json_type_object) ? json_object_get_userdata(o) : NULL;

        for (size_t i = 0; u && i < ELEMENTSOF(struct_tags) && struct_tags[i]; i++)
                if (u == struct_tags[i])
                        return struct_tags[i];
        return NULL;
}

static int fail(tctx *t, const char *at, size_t len, const char *why) {
        return sbx_error_set(t->reterr, -EINVAL, "--format: %s in '%.*s'", why, (int) (len < 80 ? len : 80), at);
}

/* $name (with its '$'), its value owned by the scope if own */
static int vars_push(tctx *t, const char *name, size_t len, tval v, json_object *own) {
        if (t->n_vars >= MAX_VARS || len >= sizeof(t->vars[0].name)) {
                json_object_put(own);
                return fail(t, name, len, "too many variables or a name too long");
        }
        memcpy(t->vars[t->n_vars].name, name, len);
        t->vars[t->n_vars].name[len] = '\0';
        t->vars[t->n_vars].v = v;
        t->vars[t->n_vars].own = own;
        t->n_vars++;
        return 0;
}

/* .A.B.C from dot. Key match: exact, else case-insensitive (docker's
 * typed structs answer .ID for "Id"). */
static int field_path(tctx *t, tval dot, const char *p, size_t len, tval *ret) {
        tval v = dot;
        size_t i = 1; /* skip the first '.' */

        if (len == 1) {
                *ret = dot;
                return 0;
        }
        while (i <= len) {
                size_t j = i;
                char key[256];
                json_object *next = NULL;
                bool found = false;

                while (j < len && p[j] != '.')
                        j++;
                if (j == i || j - i >= sizeof(key))
                        return fail(t, p, len, "bad field name");
                memcpy(key, p + i, j - i);
                key[j - i] = '\0';
                if (v.missing || !v.o || !json_object_is_type(v.o, json_type_object)) {
                        /* Go: a field of nil/missing is <no value>; of a non-map an error. */
                        if (v.missing || !v.o) {
                                *ret = (tval) { .missing = true };
                                return 0;
                        }
                        return fail(t, p, len, "field of a non-object");
                }
                if (json_object_object_get_ex(v.o, key, &next))
                        found = true;
                else if (map_kind(v.o) >= 0)
                        ; /* a Go map: exact keys, a missing one is <no value> */
                else {
                        json_object_object_foreach(v.o, k, val) if (!strcasecmp(k, key)) {
                                next = val;
                                found = true;
                                break;
                        }
                }
                if (!found && struct_shape(v.o)) {
                        /* a field Docker's struct has and its JSON omits
                         * (omitempty): its zero value, "" or a nil pointer */
                        const sbx_docker_tmpl_struct_shape *sh = struct_shape(v.o);
                        for (size_t f = 0; sh->fields[f] && !found; f++)
                                if (!strcmp(sh->fields[f] + (sh->fields[f][0] == '*'), key)) {
                                        found = true;
                                        next = sh->fields[f][0] == '*' ? NULL : empty_string();
                                }
                }
                if (!found && map_kind(v.o) < 0) {
                        /* a struct field Docker's types lack, then no key
                         * of the JSON fallback (missingkey=error) */
                        char why[300];
                        snprintf(why, sizeof(why), "map has no entry for key \"%s\"", key);
                        return fail(t, p, len, why);
                }
                v = found ? (tval) { .o = next } : (tval) { .missing = true };
                i = j + 1;
        }
        *ret = v;
        return 0;
}

static void print_json(FILE *out, json_object *o) {
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        /* Go's encoder escapes <, > and & inside strings. */
        for (; *s; s++) {
                if (*s == '<')
                        fputs("\\u003c", out);
                else if (*s == '>')
                        fputs("\\u003e", out);
                else if (*s == '&')
                        fputs("\\u0026", out);
                else
                        fputc(*s, out);
        }
}

static int cmp_keys(const void *a, const void *b) {
        return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* fmt's %v. */
static void print_plain(FILE *out, tval v, int depth) {
        if (v.missing) {
                fputs("<no value>", out);
                return;
        }
        if (!v.o) {
                fputs("<nil>", out);
                return;
        }
        switch (json_object_get_type(v.o)) {
        case json_type_string:
                fwrite(json_object_get_string(v.o), 1, (size_t) json_object_get_string_len(v.o), out);
                break;
        case json_type_boolean:
                fputs(json_object_get_boolean(v.o) ? "true" : "false", out);
                break;
        case json_type_int:
                fprintf(out, "%lld", (long long) json_object_get_int64(v.o));
                break;
        case json_type_double:
                fprintf(out, "%g", json_object_get_double(v.o));
                break;
        case json_type_array:
                fputc('[', out);
                for (size_t i = 0; i < json_object_array_length(v.o); i++) {
                        if (i)
                                fputc(' ', out);
                        if (depth < MAX_DEPTH)
                                print_plain(out, (tval) { .o = json_object_array_get_idx(v.o, i) }, depth + 1);
                }
                fputc(']', out);
                break;
        case json_type_object: {
                const sbx_docker_tmpl_struct_shape *sh = struct_shape(v.o);
                if (sh) {
                        /* fmt's %v of a struct: values in field order; a
                         * pointer at the top "&{...}" (deeper fmt prints
                         * an address, which nothing here has) */
                        fputs(sh->pointer && depth == 0 ? "&{" : "{", out);
                        for (size_t i = 0; sh->fields[i]; i++) {
                                const char *f = sh->fields[i] + (sh->fields[i][0] == '*');
                                json_object *fv = NULL;
                                if (i)
                                        fputc(' ', out);
                                if (json_object_object_get_ex(v.o, f, &fv)) {
                                        if (depth < MAX_DEPTH)
                                                print_plain(out, (tval) { .o = fv }, depth + 1);
                                } else if (sh->fields[i][0] == '*')
                                        fputs("<nil>", out);
                        }
                        fputc('}', out);
                        break;
                }
                size_t n = (size_t) json_object_object_length(v.o), k = 0;
                const char **keys = calloc(n + 1, sizeof(char *));
                fputs("map[", out);
                if (keys) {
                        json_object_object_foreach(v.o, key, val) {
                                (void) val;
                                keys[k++] = key;
                        }
                        qsort(keys, k, sizeof(char *), cmp_keys);
                        for (size_t i = 0; i < k; i++) {
                                fprintf(out, "%s%s:", i ? " " : "", keys[i]);
                                if (depth < MAX_DEPTH)
                                        print_plain(out, (tval) { .o = json_object_object_get(v.o, keys[i]) },
                                                    depth + 1);
                        }
                        free(keys);
                }
                fputc(']', out);
                break;
        }
        case json_type_null:
        default:
                fputs("<nil>", out);
                break;
        }
}

/* One argument word: .Path, ., or "string" (returned as a temporary json
 * string the caller puts via *ret_owned). */
static const char *skip_ws(const char *p, const char *end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
                p++;
        return p;
}

static int eval_pipeline(tctx *t, const char *p, const char *end, tval dot, tval *ret_value, json_object **owned);

/* The ')' that closes the '(' at p (string literals skipped), or NULL. */
static const char *close_paren(const char *p, const char *end) {
        int depth = 0;

        for (; p < end; p++) {
                if (*p == '"') {
                        for (p++; p < end && *p != '"'; p++)
                                if (*p == '\\')
                                        p++;
                        if (p >= end)
                                return NULL;
                } else if (*p == '(')
                        depth++;
                else if (*p == ')' && --depth == 0)
                        return p;
        }
        return NULL;
}

static bool word_end(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '|' || c == ')';
}

static int parse_word(tctx *t, const char **pp, const char *end, tval dot, tval *ret, json_object **owned) {
        const char *p = *pp, *s = p;

        if (p >= end)
                return fail(t, s, 1, "missing argument");
        if (*p == '(') {
                /* (PIPE) and (PIPE).Field: Go's parenthesized pipeline, its value */
                const char *c = close_paren(p, end), *f;
                tval v = {};
                int r;
                if (!c)
                        return fail(t, s, (size_t) (end - s), "unclosed parenthesis");
                if (skip_ws(p + 1, c) == c)
                        return fail(t, s, (size_t) (c + 1 - s), "empty parenthesis");
                r = eval_pipeline(t, p + 1, c, dot, &v, owned);
                if (r < 0)
                        return r;
                for (f = c + 1; f < end && !word_end(*f);)
                        f++;
                *pp = f;
                if (f == c + 1) {
                        *ret = v;
                        return 0;
                }
                if (c[1] != '.')
                        return fail(t, s, (size_t) (f - s), "unexpected text after a parenthesis");
                return field_path(t, v, c + 1, (size_t) (f - c - 1), ret);
        }
        if (*p == '"') {
                char buf[512];
                size_t n = 0;
                for (p++; p < end && *p != '"'; p++) {
                        if (*p == '\\' && p + 1 < end) {
                                p++;
                                buf[n] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
                        } else
                                buf[n] = *p;
                        if (++n >= sizeof(buf))
                                return fail(t, s, (size_t) (end - s), "string too long");
                }
                if (p >= end)
                        return fail(t, s, (size_t) (end - s), "unterminated string");
                *owned = json_object_new_string_len(buf, (int) n);
                if (!*owned)
                        return sbx_error_set(t->reterr, -ENOMEM, "out of memory");
                *ret = (tval) { .o = *owned };
                *pp = p + 1;
                return 0;
        }
        if (*p == '.') {
                while (p < end && *p != ' ' && *p != '\t' && *p != '|' && *p != ')')
                        p++;
                *pp = p;
                return field_path(t, dot, s, (size_t) (p - s), ret);
        }
        if (*p == '$') {
                /* $name[.Field...]: the innermost variable of that name */
                const char *n = p + 1, *f;
                int i;
                while (n < end && (isalnum((unsigned char) *n) || *n == '_'))
                        n++;
                for (f = n; f < end && *f != ' ' && *f != '\t' && *f != '|' && *f != ')';)
                        f++;
                for (i = t->n_vars - 1; i >= 0; i--)
                        if (strlen(t->vars[i].name) == (size_t) (n - p) && !strncmp(t->vars[i].name, p, (size_t) (n - p)))
                                break;
                if (i < 0)
                        return fail(t, s, (size_t) (n - s), "undefined variable");
                *pp = f;
                if (f == n) {
                        *ret = t->vars[i].v;
                        return 0;
                }
                if (*n != '.')
                        return fail(t, s, (size_t) (f - s), "bad variable name");
                return field_path(t, t->vars[i].v, n, (size_t) (f - n), ret);
        }
        while (p < end && *p != ' ' && *p != '\t' && *p != '|' && *p != ')')
                p++;
        {
                /* the constants true, false and integers (eq .State.ExitCode 0) */
                size_t n = (size_t) (p - s);
                char num[24];
                char *e = NULL;
                if ((n == 4 && !strncmp(s, "true", 4)) || (n == 5 && !strncmp(s, "false", 5)))
                        *owned = json_object_new_boolean(n == 4);
                else if (n > 0 && n < sizeof(num) && strspn(s + (*s == '-'), "0123456789") == n - (*s == '-') &&
                         n > (size_t) (*s == '-')) {
                        memcpy(num, s, n);
                        num[n] = '\0';
                        *owned = json_object_new_int64(strtoll(num, &e, 10));
                } else
                        return fail(t, s, n, "unsupported argument (only .Field, ., \"string\", true, false, integers)");
                if (!*owned)
                        return sbx_error_set(t->reterr, -ENOMEM, "out of memory");
                *ret = (tval) { .o = *owned };
                *pp = p;
                return 0;
        }
}

/* index M "k" ["k2"...]: map key or array index; missing key = <no value>. */
static int do_index(tctx *t, const char **pp, const char *end, tval dot, tval *ret, json_object **owned) {
        json_object *key_owned = NULL;
        tval v, k;
        int r;

        r = parse_word(t, pp, end, dot, &v, owned);
        if (r < 0)
                return r;
        for (;;) {
                *pp = skip_ws(*pp, end);
                if (*pp >= end || **pp == '|')
                        break;
                r = parse_word(t, pp, end, dot, &k, &key_owned);
                if (r < 0)
                        return r;
                if (!k.o || !json_object_is_type(k.o, json_type_string)) {
                        json_object_put(key_owned);
                        return fail(t, *pp, 1, "index key must be a string");
                }
                if (v.missing || !v.o)
                        v = (tval) { .missing = true };
                else if (json_object_is_type(v.o, json_type_object)) {
                        json_object *n = NULL;
                        int kind = map_kind(v.o);
                        /* Go's index of a missing key: the map's zero
                         * value ("" of map[string]string, a nil pointer);
                         * of the JSON fallback's map[string]any <no value> */
                        if (json_object_object_get_ex(v.o, json_object_get_string(k.o), &n))
                                v = (tval) { .o = n };
                        else if (kind == SBX_TMPL_MAP_STRING) {
                                json_object_put(*owned);
                                *owned = json_object_new_string("");
                                v = (tval) { .o = *owned };
                        } else
                                v = kind == SBX_TMPL_MAP_POINTER ? (tval) { .o = NULL } : (tval) { .missing = true };
                } else {
                        json_object_put(key_owned);
                        return fail(t, *pp, 1, "index of a non-map");
                }
                json_object_put(key_owned);
                key_owned = NULL;
        }
        *ret = v;
        return 0;
}

/* Evaluate "CMD ARGS | CMD..." and print its value. range gets the value
 * back instead (ret_value). */
static bool truthy(tval v);

/* Go's eq on basic values: strings, booleans, numbers (an int equals a
 * float of its value); -1 for values it cannot compare (nil, lists, maps,
 * different kinds: Go's "incompatible types for comparison"). */
static int basic_eq(tval a, tval b) {
        json_type ta, tb;

        if (a.missing || b.missing || !a.o || !b.o)
                return -1;
        ta = json_object_get_type(a.o);
        tb = json_object_get_type(b.o);
        if ((ta == json_type_int || ta == json_type_double) && (tb == json_type_int || tb == json_type_double)) {
                if (ta == json_type_int && tb == json_type_int)
                        return json_object_get_int64(a.o) == json_object_get_int64(b.o);
                return json_object_get_double(a.o) == json_object_get_double(b.o);
        }
        if (ta != tb)
                return -1;
        if (ta == json_type_string)
                return !strcmp(json_object_get_string(a.o), json_object_get_string(b.o));
        if (ta == json_type_boolean)
                return json_object_get_boolean(a.o) == json_object_get_boolean(b.o);
        return -1;
}

/* not X, len X, eq X Y..., ne X Y (a piped value is the last argument, as
 * Go's): the result into *ret (a new object). */
static int call_fn(tctx *t, const char *w, size_t wl, const char **pp, const char *end, tval dot, const tval *piped,
                   const char *whole, json_object **ret) {
        tval args[8];
        json_object *tmp[8] = {};
        size_t n = 0;
        int r = 0, eq;

        while (*pp < end && **pp != '|') {
                if (n == ELEMENTSOF(args) - 1) {
                        r = fail(t, whole, (size_t) (end - whole), "too many arguments");
                        goto out;
                }
                r = parse_word(t, pp, end, dot, &args[n], &tmp[n]);
                if (r < 0)
                        goto out;
                n++;
                *pp = skip_ws(*pp, end);
        }
        if (piped)
                args[n++] = *piped;
        if (wl == 3 && !strncmp(w, "not", 3)) {
                if (n != 1)
                        r = fail(t, whole, (size_t) (end - whole), "not takes one argument");
                else
                        *ret = json_object_new_boolean(!truthy(args[0]));
        } else if (wl == 3 && !strncmp(w, "len", 3)) {
                json_type ty = n == 1 && !args[0].missing && args[0].o ? json_object_get_type(args[0].o) : json_type_null;
                if (n != 1 || (ty != json_type_array && ty != json_type_object && ty != json_type_string))
                        r = fail(t, whole, (size_t) (end - whole), "len of a value that is no list, map or string");
                else
                        *ret = json_object_new_int64(ty == json_type_array  ? (int64_t) json_object_array_length(args[0].o)
                                                     : ty == json_type_object ? json_object_object_length(args[0].o)
                                                                              : json_object_get_string_len(args[0].o));
        } else {
                bool ne = w[0] == 'n', any = false;
                if (n < 2 || (ne && n != 2)) {
                        r = fail(t, whole, (size_t) (end - whole), ne ? "ne takes two arguments" : "eq takes two or more arguments");
                        goto out;
                }
                for (size_t i = 1; i < n; i++) {
                        eq = basic_eq(args[0], args[i]);
                        if (eq < 0) {
                                r = fail(t, whole, (size_t) (end - whole), "incompatible types for comparison");
                                goto out;
                        }
                        any = any || eq;
                }
                *ret = json_object_new_boolean(ne ? !any : any);
        }
        if (r >= 0 && !*ret)
                r = sbx_error_set(t->reterr, -ENOMEM, "out of memory");
out:
        for (size_t i = 0; i < ELEMENTSOF(tmp); i++)
                json_object_put(tmp[i]);
        return r;
}

/* ---- print, println, printf: Go's fmt.Sprint, Sprintln, Sprintf ---- */

/* A function argument: a missing value is Go's nil interface there
 * (text/template's validateType), printed "<nil>". */
static tval arg_value(tval v) {
        return v.missing ? (tval) { .o = NULL } : v;
}

static bool is_string(tval v) {
        return !v.missing && v.o && json_object_is_type(v.o, json_type_string);
}

/* Go's name of a value's type, for fmt's %!verb(type=value) and EXTRA */
static const char *go_type(tval v) {
        switch (v.o ? json_object_get_type(v.o) : json_type_null) {
        case json_type_string: return "string";
        case json_type_boolean: return "bool";
        case json_type_int: return "int";
        case json_type_double: return "float64";
        case json_type_array: return "[]interface {}";
        case json_type_object: return "map[string]interface {}";
        case json_type_null:
        default: return NULL;
        }
}

/* fmt's "%!c(type=value)" for a verb the value's type has no meaning for */
static void bad_verb(FILE *out, char verb, tval v) {
        const char *ty = go_type(v);
        if (!ty) {
                fprintf(out, "%%!%c(<nil>)", verb);
                return;
        }
        fprintf(out, "%%!%c(%s=", verb, ty);
        print_plain(out, v, 0);
        fputc(')', out);
}

typedef struct fmt_spec {
        bool minus, plus, sharp, space, zero;
        int width, prec; /* -1: none */
} fmt_spec;

static size_t utf8_runes(const char *s, size_t n) {
        size_t r = 0;
        for (size_t i = 0; i < n; i++)
                r += ((unsigned char) s[i] & 0xc0) != 0x80;
        return r;
}

/* s padded to the width with spaces (fmt's padString: '-' pads on the
 * right; '0' does not pad a string, Go >= 1.23) */
static void pad_text(FILE *out, const fmt_spec *f, const char *s, size_t n, bool zero) {
        size_t runes = utf8_runes(s, n), pad = f->width > 0 && (size_t) f->width > runes ? (size_t) f->width - runes : 0;
        if (!f->minus)
                for (size_t i = 0; i < pad; i++)
                        fputc(zero ? '0' : ' ', out);
        fwrite(s, 1, n, out);
        if (f->minus)
                for (size_t i = 0; i < pad; i++)
                        fputc(' ', out);
}

/* fmt's fmtInteger: sign, '#' prefix, precision as minimum digits, then
 * the width ('0' pads after the sign when no precision is given) */
static void fmt_integer(FILE *out, const fmt_spec *f, long long v, int base, bool upper) {
        char digits[80], buf[128];
        const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long) v : (unsigned long long) v;
        int nd = 0, n = 0;

        do
                digits[nd++] = dig[u % (unsigned) base];
        while ((u /= (unsigned) base) && nd < 70);
        if (f->prec == 0 && v == 0)
                nd = 0;
        if (v < 0)
                buf[n++] = '-';
        else if (f->plus)
                buf[n++] = '+';
        else if (f->space)
                buf[n++] = ' ';
        if (f->sharp && base == 16)
                buf[n++] = '0', buf[n++] = upper ? 'X' : 'x';
        else if (f->sharp && base == 8 && !(f->prec > nd))
                buf[n++] = '0';
        else if (f->sharp && base == 2)
                buf[n++] = '0', buf[n++] = 'b';
        int zeros = f->prec > nd ? f->prec - nd : 0;
        if (f->zero && !f->minus && f->prec < 0 && f->width > n + nd)
                zeros = f->width - n - nd;
        for (; zeros > 0 && n < (int) sizeof(buf) - 72; zeros--)
                buf[n++] = '0';
        while (nd > 0)
                buf[n++] = digits[--nd];
        pad_text(out, f, buf, (size_t) n, false);
}

/* the shortest %g that reads back as d (Go's %v of a float64) */
static void fmt_float_shortest(char *buf, size_t n, double d) {
        for (int p = 1; p <= 17; p++) {
                snprintf(buf, n, "%.*g", p, d);
                if (strtod(buf, NULL) == d)
                        return;
        }
}

/* strconv.Quote for the ASCII escapes; other bytes as they are */
static void fmt_quote(FILE *out, const char *s, size_t n) {
        fputc('"', out);
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char) s[i];
                const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\t' ? "\\t"
                                : c == '\r' ? "\\r" : c == '\a' ? "\\a" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                                : c == '\v' ? "\\v" : NULL;
                if (esc)
                        fputs(esc, out);
                else if (c < 0x20 || c == 0x7f)
                        fprintf(out, "\\x%02x", c);
                else
                        fputc(c, out);
        }
        fputc('"', out);
}

/* a list or Go map whose every leaf is a string (not a struct: its
 * zero-valued fields are not all strings) */
static bool only_strings(tval v, int depth) {
        if (!v.o || depth > MAX_DEPTH)
                return false;
        switch (json_object_get_type(v.o)) {
        case json_type_string:
                return true;
        case json_type_array:
                for (size_t i = 0; i < json_object_array_length(v.o); i++)
                        if (!only_strings((tval) { .o = json_object_array_get_idx(v.o, i) }, depth + 1))
                                return false;
                return true;
        case json_type_object:
                if (struct_shape(v.o))
                        return false;
                json_object_object_foreach(v.o, k, val) {
                        (void) k;
                        if (!only_strings((tval) { .o = val }, depth + 1))
                                return false;
                }
                return true;
        default:
                return false;
        }
}

/* one verb of printf with its argument v */
/* What a memstream m (over *buf, *len) holds, closed, padded onto out and
 * freed. */
static int pad_stream(tctx *t, FILE *out, const fmt_spec *f, FILE *m, char *const *buf, const size_t *len) {
        fclose(m);
        if (!*buf)
                return sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
        pad_text(out, f, *buf, *len, false);
        free(*buf);
        return 0;
}

static int fmt_one(tctx *t, FILE *out, const fmt_spec *f, char verb, tval v, const char *whole, size_t wl) {
        json_type ty = v.o ? json_object_get_type(v.o) : json_type_null;
        char *buf = NULL;
        size_t len = 0;
        FILE *m;

        if (ty == json_type_array || ty == json_type_object) {
                /* fmt applies the verb, width and flags to each element:
                 * here %v of any, %s of strings only, neither with flags */
                if ((verb != 'v' && (verb != 's' || !only_strings(v, 0))) || f->plus || f->sharp || f->minus ||
                    f->zero || f->space || f->width >= 0 || f->prec >= 0)
                        return fail(t, whole, wl, "printf: a list, map or struct only as plain %v (or %s of strings)");
        }
        switch (verb) {
        case 'v':
        case 's':
        case 'q':
        case 'x':
        case 'X':
                if (ty == json_type_string) {
                        const char *str = json_object_get_string(v.o);
                        size_t n = (size_t) json_object_get_string_len(v.o);
                        if (verb == 'v' || verb == 's') {
                                size_t cut = n;
                                if (f->prec >= 0) /* precision: at most prec runes */
                                        for (size_t i = 0, r = 0; i < n; i++)
                                                if (((unsigned char) str[i] & 0xc0) != 0x80 && r++ == (size_t) f->prec) {
                                                        cut = i;
                                                        break;
                                                }
                                pad_text(out, f, str, cut, false);
                                return 0;
                        }
                        if (f->sharp || f->plus || f->space || f->prec >= 0)
                                return fail(t, whole, wl, "printf: flags and precision of %q, %x are not supported");
                        m = open_memstream(&buf, &len);
                        if (!m)
                                return sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
                        if (verb == 'q')
                                fmt_quote(m, str, n);
                        else
                                for (size_t i = 0; i < n; i++)
                                        fprintf(m, verb == 'x' ? "%02x" : "%02X", (unsigned char) str[i]);
                        return pad_stream(t, out, f, m, &buf, &len);
                }
                if (ty == json_type_int && (verb == 'x' || verb == 'X' || verb == 'v')) {
                        fmt_integer(out, f, (long long) json_object_get_int64(v.o), verb == 'v' ? 10 : 16, verb == 'X');
                        return 0;
                }
                if (verb == 'q' && ty == json_type_int)
                        return fail(t, whole, wl, "printf: %q of a number is not supported");
                if (verb == 'v' || (verb == 's' && (ty == json_type_array || ty == json_type_object))) {
                        if (ty == json_type_double) {
                                char num[40];
                                fmt_float_shortest(num, sizeof(num), json_object_get_double(v.o));
                                pad_text(out, f, num, strlen(num), false);
                                return 0;
                        }
                        m = open_memstream(&buf, &len);
                        if (!m)
                                return sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
                        print_plain(m, v, 0);
                        return pad_stream(t, out, f, m, &buf, &len);
                }
                break;
        case 'd':
        case 'o':
        case 'b':
                if (ty == json_type_int) {
                        fmt_integer(out, f, (long long) json_object_get_int64(v.o), verb == 'd' ? 10 : verb == 'o' ? 8 : 2,
                                    false);
                        return 0;
                }
                break;
        case 'c':
                if (ty == json_type_int) {
                        long long c = json_object_get_int64(v.o);
                        char u[5];
                        size_t n = 0;
                        if (c < 0 || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
                                c = 0xfffd;
                        if (c < 0x80)
                                u[n++] = (char) c;
                        else if (c < 0x800)
                                u[n++] = (char) (0xc0 | (c >> 6)), u[n++] = (char) (0x80 | (c & 0x3f));
                        else if (c < 0x10000)
                                u[n++] = (char) (0xe0 | (c >> 12)), u[n++] = (char) (0x80 | ((c >> 6) & 0x3f)),
                                u[n++] = (char) (0x80 | (c & 0x3f));
                        else
                                u[n++] = (char) (0xf0 | (c >> 18)), u[n++] = (char) (0x80 | ((c >> 12) & 0x3f)),
                                u[n++] = (char) (0x80 | ((c >> 6) & 0x3f)), u[n++] = (char) (0x80 | (c & 0x3f));
                        pad_text(out, f, u, n, false);
                        return 0;
                }
                break;
        case 't':
                if (ty == json_type_boolean) {
                        const char *b = json_object_get_boolean(v.o) ? "true" : "false";
                        pad_text(out, f, b, strlen(b), false);
                        return 0;
                }
                break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
                if (ty == json_type_double) {
                        /* the digits of |d| with C's conversion (Go's for
                         * f, e, g with a precision), then fmt's sign and
                         * padding ('0' after the sign) */
                        double d = json_object_get_double(v.o), ad = d < 0 ? -d : d;
                        int prec = f->prec >= 0 ? f->prec : 6;
                        char num[400], fb[420];
                        size_t n = 0;
                        if (f->sharp)
                                return fail(t, whole, wl, "printf: '#' with a float verb is not supported");
                        if ((verb == 'g' || verb == 'G') && f->prec < 0)
                                fmt_float_shortest(num, sizeof(num), ad); /* Go: the shortest that reads back */
                        else if (verb == 'f' || verb == 'F')
                                snprintf(num, sizeof(num), "%.*f", prec, ad);
                        else if (verb == 'e')
                                snprintf(num, sizeof(num), "%.*e", prec, ad);
                        else if (verb == 'E')
                                snprintf(num, sizeof(num), "%.*E", prec, ad);
                        else
                                snprintf(num, sizeof(num), verb == 'g' ? "%.*g" : "%.*G", prec ? prec : 1, ad);
                        if (d < 0 || (d == 0 && signbit(d)))
                                fb[n++] = '-';
                        else if (f->plus)
                                fb[n++] = '+';
                        else if (f->space)
                                fb[n++] = ' ';
                        size_t digits = strlen(num);
                        if (f->zero && !f->minus && f->width > 0)
                                while (n + digits < (size_t) f->width && n < sizeof(fb) - sizeof(num))
                                        fb[n++] = '0';
                        memcpy(fb + n, num, digits);
                        pad_text(out, f, fb, n + digits, false);
                        return 0;
                }
                break;
        default:
                return fail(t, whole, wl, "printf: unsupported verb (only v s q x X d o b c t f F e E g G and %%)");
        }
        bad_verb(out, verb, v);
        return 0;
}

/* Go's Sprintf: args[0] the format string, args[1..n) its operands */
static int go_sprintf(tctx *t, FILE *out, const tval *args, size_t n, const char *whole, size_t wl) {
        size_t ai = 1;
        const char *p, *e;

        if (n < 1 || !is_string(args[0]))
                return fail(t, whole, wl, "printf: the first argument must be a format string");
        p = json_object_get_string(args[0].o);
        e = p + json_object_get_string_len(args[0].o);
        while (p < e) {
                const char *pct = memchr(p, '%', (size_t) (e - p));
                fmt_spec f = { .width = -1, .prec = -1 };
                if (!pct) {
                        fwrite(p, 1, (size_t) (e - p), out);
                        break;
                }
                fwrite(p, 1, (size_t) (pct - p), out);
                p = pct + 1;
                for (; p < e && strchr("+-# 0", *p); p++)
                        switch (*p) {
                        case '+': f.plus = true; break;
                        case '-': f.minus = true; break;
                        case '#': f.sharp = true; break;
                        case ' ': f.space = true; break;
                        default: f.zero = true; break;
                        }
                if (p < e && (*p == '*' || *p == '['))
                        return fail(t, whole, wl, "printf: '*' widths and [n] argument indexes are not supported");
                for (; p < e && isdigit((unsigned char) *p); p++)
                        f.width = (f.width < 0 ? 0 : f.width) * 10 + (*p - '0') % 1000000;
                if (p < e && *p == '.') {
                        f.prec = 0;
                        for (p++; p < e && isdigit((unsigned char) *p); p++)
                                f.prec = f.prec * 10 + (*p - '0') % 1000000;
                        if (p < e && *p == '*')
                                return fail(t, whole, wl, "printf: '*' precisions are not supported");
                }
                if (f.width > 10000 || f.prec > 10000)
                        return fail(t, whole, wl, "printf: width or precision too large");
                if (p >= e) {
                        fputs("%!(NOVERB)", out);
                        break;
                }
                char verb = *p++;
                if (verb == '%') {
                        fputc('%', out);
                        continue;
                }
                if (ai >= n) {
                        fprintf(out, "%%!%c(MISSING)", verb);
                        continue;
                }
                int r = fmt_one(t, out, &f, verb, arg_value(args[ai++]), whole, wl);
                if (r < 0)
                        return r;
        }
        if (ai < n) {
                fputs("%!(EXTRA ", out);
                for (size_t i = ai; i < n; i++) {
                        tval v = arg_value(args[i]);
                        if (i > ai)
                                fputs(", ", out);
                        if (go_type(v))
                                fprintf(out, "%s=", go_type(v));
                        print_plain(out, v, 0);
                }
                fputc(')', out);
        }
        return 0;
}

/* print, println, printf or json of args (a piped value last, as Go's) as
 * a new string value: fmt's Sprint adds a space between two operands when
 * neither is a string, Sprintln between all and a newline at the end */
static int print_fn(tctx *t, const char *w, size_t wl, const tval *args, size_t n, const char *whole, size_t whole_len,
                    json_object **ret) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        int r = 0;

        if (!m)
                return sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
        if (wl == 4) { /* json */
                if (n != 1)
                        r = fail(t, whole, whole_len, "json takes one argument");
                else if (args[0].missing)
                        fputs("null", m);
                else
                        print_json(m, args[0].o);
        } else if (wl == 6) /* printf */
                r = go_sprintf(t, m, args, n, whole, whole_len);
        else
                for (size_t i = 0; i < n; i++) {
                        tval v = arg_value(args[i]);
                        if (i && (wl == 7 || (!is_string(arg_value(args[i - 1])) && !is_string(v))))
                                fputc(' ', m);
                        print_plain(m, v, 0);
                }
        if (wl == 7)
                fputc('\n', m);
        if (fclose(m) != 0 || !buf) {
                free(buf);
                return r < 0 ? r : sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
        }
        if (r >= 0) {
                *ret = json_object_new_string_len(buf, (int) len);
                if (!*ret)
                        r = sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
        }
        free(buf);
        return r;
}

static int eval_pipeline(tctx *t, const char *p, const char *end, tval dot, tval *ret_value, json_object **owned) {
        tval v = { .missing = true };
        bool have = false;
        int r;

        p = skip_ws(p, end);
        while (p < end) {
                const char *w = p;
                size_t wl;

                while (p < end && *p != ' ' && *p != '\t' && *p != '|')
                        p++;
                wl = (size_t) (p - w);
                p = skip_ws(p, end);
                if ((wl == 4 && !strncmp(w, "json", 4)) || (wl == 5 && !strncmp(w, "print", 5)) ||
                    (wl == 6 && !strncmp(w, "printf", 6)) || (wl == 7 && !strncmp(w, "println", 7))) {
                        /* each a string value (Go's functions return them) */
                        tval args[16];
                        json_object *tmp[16] = {}, *res = NULL;
                        size_t n = 0;
                        r = 0;
                        while (r >= 0 && p < end && *p != '|') {
                                if (n == ELEMENTSOF(args) - 1)
                                        r = fail(t, w, (size_t) (end - w), "too many arguments");
                                else
                                        r = parse_word(t, &p, end, dot, &args[n], &tmp[n]);
                                n += r >= 0;
                                p = skip_ws(p, end);
                        }
                        if (r >= 0 && have)
                                args[n++] = v;
                        if (r >= 0)
                                r = print_fn(t, w, wl, args, n, w, (size_t) (end - w), &res);
                        for (size_t i = 0; i < ELEMENTSOF(tmp); i++)
                                json_object_put(tmp[i]);
                        if (r < 0)
                                return r;
                        json_object_put(*owned);   /* v no longer needs it */
                        *owned = res;
                        v = (tval) { .o = res };
                } else if (wl == 5 && !strncmp(w, "index", 5)) {
                        if (have)
                                return fail(t, w, (size_t) (end - w), "index in a pipe");
                        r = do_index(t, &p, end, dot, &v, owned);
                        if (r < 0)
                                return r;
                } else if ((wl == 3 && (!strncmp(w, "not", 3) || !strncmp(w, "len", 3))) ||
                           (wl == 2 && (!strncmp(w, "eq", 2) || !strncmp(w, "ne", 2)))) {
                        json_object *res = NULL;
                        r = call_fn(t, w, wl, &p, end, dot, have ? &v : NULL, w, &res);
                        if (r < 0)
                                return r;
                        json_object_put(*owned);   /* v no longer needs it */
                        *owned = res;
                        v = (tval) { .o = res };
                } else if (wl > 0 && (w[0] == '.' || w[0] == '"' || w[0] == '(' || w[0] == '$' || w[0] == '-' ||
                                      isdigit((unsigned char) w[0]) || (wl == 4 && !strncmp(w, "true", 4)) ||
                                      (wl == 5 && !strncmp(w, "false", 5)))) {
                        if (have)
                                return fail(t, w, (size_t) (end - w), "a value in a pipe");
                        p = w;
                        r = parse_word(t, &p, end, dot, &v, owned);
                        if (r < 0)
                                return r;
                        /* .M "k": a method of one string argument, docker
                         * ps's {{.Label "k"}}: M is a map here, the key's
                         * value or "" (Go's zero string) */
                        p = skip_ws(p, end);
                        if (w[0] == '.' && p < end && *p == '"') {
                                json_object *key = NULL;
                                tval k;
                                if (v.missing || !v.o || !json_object_is_type(v.o, json_type_object))
                                        return fail(t, w, (size_t) (end - w), "arguments to a field that is no method");
                                r = parse_word(t, &p, end, dot, &k, &key);
                                if (r < 0)
                                        return r;
                                json_object *n = json_object_object_get(v.o, json_object_get_string(k.o));
                                json_object_put(key);
                                if (n)
                                        v = (tval) { .o = n };
                                else {
                                        *owned = json_object_new_string("");
                                        v = (tval) { .o = *owned };
                                }
                        }
                } else
                        return fail(t, w, wl ?: (size_t) (end - w), "unsupported function or action");
                have = true;
                p = skip_ws(p, end);
                if (p < end) {
                        if (*p != '|')
                                return fail(t, w, (size_t) (end - w), "unexpected text after the value");
                        p = skip_ws(p + 1, end);
                        if (p >= end)
                                return fail(t, w, (size_t) (end - w), "empty pipe stage");
                }
        }
        if (!have)
                return fail(t, end, 0, "empty action");
        if (ret_value)
                *ret_value = v;
        else
                print_plain(t->out, v, 0);
        return 0;
}

/* One action "{{...}}" starting at p: its inner text and where it ends. */
typedef struct action {
        const char *open;         /* "{{" */
        const char *in, *in_end;  /* inside, trimmed of "-" markers and spaces */
        const char *close_end;    /* after "}}" */
        bool trim_left, trim_right;
} action;

static int next_action(tctx *t, const char *p, const char *end, action *ret) {
        const char *o = NULL, *c;

        for (const char *q = p; q + 1 < end; q++)
                if (q[0] == '{' && q[1] == '{') {
                        o = q;
                        break;
                }
        if (!o)
                return 0;
        /* "}}" outside a string literal. */
        bool in_str = false;
        for (c = o + 2; c + 1 < end; c++) {
                if (*c == '"' && c[-1] != '\\')
                        in_str = !in_str;
                if (!in_str && c[0] == '}' && c[1] == '}')
                        break;
        }
        if (c + 1 >= end)
                return fail(t, o, (size_t) (end - o), "unclosed action");
        *ret = (action) { .open = o, .in = o + 2, .in_end = c, .close_end = c + 2 };
        if (ret->in < ret->in_end && ret->in[0] == '-' &&
            (ret->in + 1 == ret->in_end || ret->in[1] == ' ')) {
                ret->trim_left = true;
                ret->in++;
        }
        if (ret->in_end > ret->in && ret->in_end[-1] == '-' &&
            (ret->in_end - 1 == ret->in || ret->in_end[-2] == ' ')) {
                ret->trim_right = true;
                ret->in_end--;
        }
        ret->in = skip_ws(ret->in, ret->in_end);
        while (ret->in_end > ret->in && (ret->in_end[-1] == ' ' || ret->in_end[-1] == '\t'))
                ret->in_end--;
        return 1;
}

static bool is_keyword(const action *a, const char *kw) {
        size_t n = strlen(kw);
        return (size_t) (a->in_end - a->in) >= n && !strncmp(a->in, kw, n) &&
               (a->in + n == a->in_end || a->in[n] == ' ');
}

static void emit_text(tctx *t, const char *s, const char *e, bool trim_start, bool trim_end) {
        if (trim_start)
                s = skip_ws(s, e);
        if (trim_end)
                while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
                        e--;
        fwrite(s, 1, (size_t) (e - s), t->out);
}

/* Find the {{end}} matching a {{range}}/{{if}}/{{with}} whose body starts
 * at p; with ret_else, stop at a top-level {{else}} first (then *ret_else
 * is it, and *ret_end untouched). Returns 1 at an else, 0 at the end. */
static int find_branch(tctx *t, const char *p, const char *end, action *ret_else, action *ret_end) {
        int nest = 0;
        action a;
        int r;

        for (;;) {
                r = next_action(t, p, end, &a);
                if (r <= 0)
                        return r < 0 ? r : fail(t, p, (size_t) (end - p), "range, if or with without end");
                if (is_keyword(&a, "range") || is_keyword(&a, "if") || is_keyword(&a, "with"))
                        nest++;
                else if (ret_else && nest == 0 && is_keyword(&a, "else")) {
                        *ret_else = a;
                        return 1;
                } else if (is_keyword(&a, "end") && nest-- == 0) {
                        *ret_end = a;
                        return 0;
                }
                p = a.close_end;
        }
}

static int find_end(tctx *t, const char *p, const char *end, action *ret_end) {
        return find_branch(t, p, end, NULL, ret_end);
}

/* Go's truth (text/template's IsTrue): false, 0, nil, an empty string,
 * slice or map, and a missing value are false; a struct is true. */
static bool truthy(tval v) {
        if (v.missing || !v.o)
                return false;
        switch (json_object_get_type(v.o)) {
        case json_type_boolean:
                return json_object_get_boolean(v.o);
        case json_type_int:
                return json_object_get_int64(v.o) != 0;
        case json_type_double:
                return json_object_get_double(v.o) != 0;
        case json_type_string:
                return json_object_get_string_len(v.o) > 0;
        case json_type_array:
                return json_object_array_length(v.o) > 0;
        case json_type_object:
                return struct_shape(v.o) || json_object_object_length(v.o) > 0 || map_kind(v.o) < 0;
        case json_type_null:
        default:
                return false;
        }
}

static int run(tctx *t, const char *p, const char *end, tval dot, bool trim_start);

/* Where a body before action x ends: before x, less the white space "{{-" trims. */
static const char *body_end(const char *start, const action *x) {
        const char *e = x->open;

        if (x->trim_left)
                while (e > start && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
                        e--;
        return e;
}

/* {{if PIPE}}/{{with PIPE}} (a at it) ... [{{else [if PIPE]}} ...] {{end}}:
 * runs the first branch whose pipeline is true (with: dot is its value);
 * *ret_after is where the text after {{end}} starts, *ret_trim its trim. */
static int run_if(tctx *t, const action *a, const char *end, tval dot, const char **ret_after, bool *ret_trim) {
        bool with = is_keyword(a, "with");
        const char *cond = a->in + (with ? 4 : 2), *cond_end = a->in_end, *body = a->close_end;
        bool trim = a->trim_right, done = false;
        action last = {}, el;
        int r;

        r = find_end(t, a->close_end, end, &last);
        if (r < 0)
                return r;
        for (;;) {
                json_object *owned = NULL;
                tval v = {};
                int k = find_branch(t, body, last.close_end, &el, &(action) {});
                const char *stop;
                if (k < 0)
                        return k;
                stop = body_end(body, k == 1 ? &el : &last);
                if (!done && cond) {
                        r = eval_pipeline(t, cond, cond_end, dot, &v, &owned);
                        if (r >= 0 && truthy(v)) {
                                r = run(t, body, stop, with ? v : dot, trim);
                                done = true;
                        }
                } else if (!done) { /* a plain else */
                        r = run(t, body, stop, dot, trim);
                        done = true;
                }
                json_object_put(owned);
                if (r < 0)
                        return r;
                if (k != 1)
                        break;
                /* the next branch: "else if PIPE", "else with PIPE" or "else" */
                body = el.close_end;
                trim = el.trim_right;
                cond = NULL;
                {
                        const char *w = skip_ws(el.in + 4, el.in_end);
                        if (w + 2 <= el.in_end && !strncmp(w, "if", 2) && (w + 2 == el.in_end || w[2] == ' '))
                                cond = w + 2, with = false;
                        else if (w + 4 <= el.in_end && !strncmp(w, "with", 4) && (w + 4 == el.in_end || w[4] == ' '))
                                cond = w + 4, with = true;
                        else if (w != el.in_end)
                                return fail(t, el.in, (size_t) (el.in_end - el.in), "unsupported else");
                        cond_end = el.in_end;
                }
        }
        *ret_after = last.close_end;
        *ret_trim = last.trim_right;
        return 0;
}

/* One element of a range: $v1 (and $v2) declared for the body, which runs
 * with the element as dot. key: the index or map key, for "$k, $v :="
 * (freed here when unused). */
static int range_once(tctx *t, const action *a, const action *e, const char *v1, size_t l1,
                      const char *v2, size_t l2, json_object *key, tval el) {
        int vmark = t->n_vars, r = 0;

        if (v2) {
                r = vars_push(t, v1, l1, (tval) {}, key);
                key = NULL;
                if (r >= 0)
                        t->vars[t->n_vars - 1].v = (tval) { .o = t->vars[t->n_vars - 1].own };
                if (r >= 0)
                        r = vars_push(t, v2, l2, el, NULL);
        } else if (v1)
                r = vars_push(t, v1, l1, el, NULL);
        json_object_put(key);
        if (r >= 0)
                r = run(t, a->close_end, body_end(a->close_end, e), el, a->trim_right);
        vars_pop(t, vmark);
        return r;
}

static int run(tctx *t, const char *p, const char *end, tval dot, bool trim_start) {
        int mark = t->n_vars;
        action a;
        int r;

        if (++t->depth > MAX_DEPTH)
                return fail(t, p, (size_t) (end - p), "nested too deeply");
        for (;;) {
                r = next_action(t, p, end, &a);
                if (r < 0)
                        return r;
                if (r == 0) {
                        emit_text(t, p, end, trim_start, false);
                        break;
                }
                emit_text(t, p, a.open, trim_start, a.trim_left);
                trim_start = a.trim_right;
                if (is_keyword(&a, "range")) {
                        json_object *owned = NULL;
                        action e = {};
                        tval v;
                        const char *pipe = skip_ws(a.in + 5, a.in_end), *v1 = NULL, *v2 = NULL;
                        size_t l1 = 0, l2 = 0;
                        /* range $v := P, range $i, $v := P (index or key, element) */
                        if (*pipe == '$' && memmem(pipe, (size_t) (a.in_end - pipe), ":=", 2)) {
                                const char *q = pipe;
                                v1 = q;
                                while (q < a.in_end && *q != ',' && *q != ' ' && *q != ':')
                                        q++;
                                l1 = (size_t) (q - v1);
                                q = skip_ws(q, a.in_end);
                                if (q < a.in_end && *q == ',') {
                                        v2 = q = skip_ws(q + 1, a.in_end);
                                        while (q < a.in_end && *q != ' ' && *q != ':')
                                                q++;
                                        l2 = (size_t) (q - v2);
                                        q = skip_ws(q, a.in_end);
                                }
                                if (q + 2 > a.in_end || strncmp(q, ":=", 2) || l1 < 1 || (v2 && (l2 < 1 || *v2 != '$')))
                                        return fail(t, a.in, (size_t) (a.in_end - a.in), "bad range declaration");
                                pipe = q + 2;
                        }
                        r = eval_pipeline(t, pipe, a.in_end, dot, &v, &owned);
                        /* the body ends at a top-level {{else}} (run when
                         * nothing was ranged over: Go's range ... else) or
                         * at the {{end}} */
                        action el = {}, *body_stop = &e;
                        size_t n_iter = 0;
                        int has_else = r >= 0 ? find_branch(t, a.close_end, end, &el, &e) : 0;
                        if (has_else < 0)
                                r = has_else;
                        else if (has_else) {
                                body_stop = &el;
                                if (skip_ws(el.in + 4, el.in_end) != el.in_end)
                                        r = fail(t, el.in, (size_t) (el.in_end - el.in),
                                                 "range ... else if/with is not supported (write {{else}}{{if ...}}...{{end}})");
                                else
                                        r = find_end(t, el.close_end, end, &e);
                        }
                        if (r >= 0 && !v.missing && v.o && json_object_is_type(v.o, json_type_array)) {
                                n_iter = json_object_array_length(v.o);
                                for (size_t i = 0; r >= 0 && i < n_iter; i++) {
                                        r = range_once(t, &a, body_stop, v1, l1, v2, l2,
                                                       json_object_new_int64((int64_t) i),
                                                       (tval) { .o = json_object_array_get_idx(v.o, i) });
                                }
                        } else if (r >= 0 && !v.missing && v.o && json_object_is_type(v.o, json_type_object) &&
                                   !struct_shape(v.o)) {
                                /* Go ranges over a map in sorted key order */
                                size_t n = (size_t) json_object_object_length(v.o), k = 0;
                                const char **keys = calloc(n + 1, sizeof(char *));
                                if (!keys)
                                        r = sbx_error_set(t->reterr, -ENOMEM, "--format: out of memory");
                                else {
                                        json_object_object_foreach(v.o, key, val) {
                                                (void) val;
                                                keys[k++] = key;
                                        }
                                        qsort(keys, k, sizeof(char *), cmp_keys);
                                }
                                n_iter = k;
                                for (size_t i = 0; keys && r >= 0 && i < k; i++) {
                                        r = range_once(t, &a, body_stop, v1, l1, v2, l2, json_object_new_string(keys[i]),
                                                       (tval) { .o = json_object_object_get(v.o, keys[i]) });
                                }
                                free(keys);
                        } else if (r >= 0 && !v.missing && v.o)
                                r = fail(t, a.in, (size_t) (a.in_end - a.in), "range over a non-list");
                        /* nothing ranged over (empty, nil or no value): the else body, dot unchanged */
                        if (r >= 0 && has_else && n_iter == 0)
                                r = run(t, el.close_end, body_end(el.close_end, &e), dot, el.trim_right);
                        json_object_put(owned);
                        if (r < 0)
                                return r;
                        p = e.close_end;
                        trim_start = e.trim_right;
                        continue;
                }
                if (is_keyword(&a, "if") || is_keyword(&a, "with")) {
                        r = run_if(t, &a, end, dot, &p, &trim_start);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (is_keyword(&a, "end") || is_keyword(&a, "else") || is_keyword(&a, "define") ||
                    is_keyword(&a, "template"))
                        return fail(t, a.open, (size_t) (a.close_end - a.open), "unsupported action");
                if (a.in < a.in_end && a.in[0] == '/' )
                        ; /* a comment */
                else if (a.in < a.in_end && a.in[0] == '$' && memmem(a.in, (size_t) (a.in_end - a.in), ":=", 2)) {
                        /* {{$x := P}}: in scope to the end of the enclosing block */
                        const char *q = a.in, *as = memmem(a.in, (size_t) (a.in_end - a.in), ":=", 2);
                        json_object *owned = NULL;
                        tval v;
                        while (q < as && *q != ' ')
                                q++;
                        if (skip_ws(q, as) != as || q - a.in < 2)
                                return fail(t, a.in, (size_t) (a.in_end - a.in), "bad variable declaration");
                        r = eval_pipeline(t, as + 2, a.in_end, dot, &v, &owned);
                        if (r >= 0)
                                r = vars_push(t, a.in, (size_t) (q - a.in), v, owned);
                        else
                                json_object_put(owned);
                        if (r < 0)
                                return r;
                } else {
                        json_object *owned = NULL;
                        r = eval_pipeline(t, a.in, a.in_end, dot, NULL, &owned);
                        json_object_put(owned);
                        if (r < 0)
                                return r;
                }
                p = a.close_end;
        }
        vars_pop(t, mark);
        t->depth--;
        return 0;
}

int sbx_docker_template(const char *tmpl, const void *data, char **ret, sbx_error *reterr) {
        char *buf = NULL;
        size_t len = 0;
        tctx t = { .tmpl = tmpl, .reterr = reterr };
        int r;

        t.out = open_memstream(&buf, &len);
        if (!t.out)
                return sbx_error_set(reterr, -errno, "--format: out of memory");
        r = vars_push(&t, "$", 1, (tval) { .o = (json_object *) data }, NULL);
        if (r >= 0)
                r = run(&t, tmpl, tmpl + strlen(tmpl), (tval) { .o = (json_object *) data }, false);
        vars_pop(&t, 0);   /* what an error left in scope too */
        if (fclose(t.out) != 0 && r >= 0)
                r = sbx_error_set(reterr, -ENOMEM, "--format: out of memory");
        if (r < 0) {
                free(buf);
                return r;
        }
        *ret = buf;
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* INTERIM JSON5 reader (see json5.h): recursive descent straight into json-c.
 * Comments, trailing commas, identifier keys, single quotes, escapes and line
 * continuations, hex, leading/trailing '.', '+', Infinity and NaN. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json5.h"
#include "macro.h"

struct p {
        const char *s;
        size_t n, i;
        int depth;
        sbx_error *err;
};

static void where(const struct p *p, unsigned *line, unsigned *col) {
        *line = 1;
        *col = 1;
        for (size_t k = 0; k < p->i && k < p->n; k++) {
                if (p->s[k] == '\n') {
                        (*line)++;
                        *col = 1;
                } else
                        (*col)++;
        }
}

static int fail(struct p *p, const char *what) {
        unsigned line, col;

        where(p, &line, &col);
        return sbx_error_set(p->err, -EINVAL, "%u:%u: %s", line, col, what);
}

static int peekc(const struct p *p) {
        return p->i < p->n ? (unsigned char) p->s[p->i] : -1;
}

static int skip_ws(struct p *p) {
        while (p->i < p->n) {
                unsigned char c = p->s[p->i];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
                        p->i++;
                } else if (c == 0xc2 && p->i + 1 < p->n && (unsigned char) p->s[p->i + 1] == 0xa0) {
                        p->i += 2; /* NBSP */
                } else if (c == 0xef && p->i + 2 < p->n && (unsigned char) p->s[p->i + 1] == 0xbb &&
                           (unsigned char) p->s[p->i + 2] == 0xbf) {
                        p->i += 3; /* BOM */
                } else if (c == 0xe2 && p->i + 2 < p->n && (unsigned char) p->s[p->i + 1] == 0x80 &&
                           ((unsigned char) p->s[p->i + 2] == 0xa8 || (unsigned char) p->s[p->i + 2] == 0xa9)) {
                        p->i += 3; /* LS / PS */
                } else if (c == '/' && p->i + 1 < p->n && p->s[p->i + 1] == '/') {
                        while (p->i < p->n && p->s[p->i] != '\n')
                                p->i++;
                } else if (c == '/' && p->i + 1 < p->n && p->s[p->i + 1] == '*') {
                        const char *end = memmem(p->s + p->i + 2, p->n - p->i - 2, "*/", 2);
                        if (!end)
                                return fail(p, "unterminated comment");
                        p->i = (size_t) (end - p->s) + 2;
                } else
                        break;
        }
        return 0;
}

static int parse_value(struct p *p, struct json_object **ret);

struct buf {
        char *d;
        size_t n, cap;
};

static int buf_put(struct buf *b, const char *d, size_t n) {
        if (b->n + n + 1 > b->cap) {
                size_t cap = (b->cap ? b->cap * 2 : 32) + n;
                char *nd = realloc(b->d, cap);
                if (!nd)
                        return -ENOMEM;
                b->d = nd;
                b->cap = cap;
        }
        memcpy(b->d + b->n, d, n);
        b->n += n;
        b->d[b->n] = '\0';
        return 0;
}

static int put_utf8(struct buf *b, uint32_t cp) {
        char o[4];
        size_t n;

        if (cp < 0x80) {
                o[0] = (char) cp;
                n = 1;
        } else if (cp < 0x800) {
                o[0] = (char) (0xc0 | (cp >> 6));
                o[1] = (char) (0x80 | (cp & 0x3f));
                n = 2;
        } else if (cp < 0x10000) {
                o[0] = (char) (0xe0 | (cp >> 12));
                o[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
                o[2] = (char) (0x80 | (cp & 0x3f));
                n = 3;
        } else {
                o[0] = (char) (0xf0 | (cp >> 18));
                o[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
                o[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
                o[3] = (char) (0x80 | (cp & 0x3f));
                n = 4;
        }
        return buf_put(b, o, n);
}

static int hexval(int c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

static int read_hex(struct p *p, unsigned count, uint32_t *ret) {
        uint32_t v = 0;
        for (unsigned k = 0; k < count; k++) {
                int h = p->i < p->n ? hexval((unsigned char) p->s[p->i]) : -1;
                if (h < 0)
                        return fail(p, "bad hex escape");
                v = v * 16 + (uint32_t) h;
                p->i++;
        }
        *ret = v;
        return 0;
}

/* Quoted string; p->i at the quote. The result is NUL-terminated; *ret_len may hold NULs. */
static int parse_string(struct p *p, char **ret, size_t *ret_len) {
        struct buf b = {};
        char q = p->s[p->i++];
        int r;

        for (;;) {
                if (p->i >= p->n) {
                        free(b.d);
                        return fail(p, "unterminated string");
                }
                char c = p->s[p->i];
                if (c == q) {
                        p->i++;
                        break;
                }
                if (c == '\n' || c == '\r') {
                        free(b.d);
                        return fail(p, "unescaped line break in string");
                }
                if (c != '\\') {
                        r = buf_put(&b, &c, 1);
                        p->i++;
                        if (r < 0)
                                goto oom;
                        continue;
                }
                p->i++;
                if (p->i >= p->n) {
                        free(b.d);
                        return fail(p, "unterminated string");
                }
                c = p->s[p->i++];
                uint32_t cp = 0;
                switch (c) {
                case 'b': r = buf_put(&b, "\b", 1); break;
                case 'f': r = buf_put(&b, "\f", 1); break;
                case 'n': r = buf_put(&b, "\n", 1); break;
                case 'r': r = buf_put(&b, "\r", 1); break;
                case 't': r = buf_put(&b, "\t", 1); break;
                case 'v': r = buf_put(&b, "\v", 1); break;
                case '0':
                        if (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
                                free(b.d);
                                return fail(p, "octal escape not allowed");
                        }
                        r = buf_put(&b, "", 1);
                        break;
                case '\n': r = 0; break;
                case '\r':
                        if (p->i < p->n && p->s[p->i] == '\n')
                                p->i++;
                        r = 0;
                        break;
                case 'x':
                        if ((r = read_hex(p, 2, &cp)) < 0) {
                                free(b.d);
                                return r;
                        }
                        r = put_utf8(&b, cp);
                        break;
                case 'u':
                        if ((r = read_hex(p, 4, &cp)) < 0) {
                                free(b.d);
                                return r;
                        }
                        if (cp >= 0xd800 && cp < 0xdc00 && p->i + 1 < p->n && p->s[p->i] == '\\' &&
                            p->s[p->i + 1] == 'u') {
                                size_t save = p->i;
                                uint32_t lo = 0;
                                p->i += 2;
                                if (read_hex(p, 4, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000)
                                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                else
                                        p->i = save;
                        }
                        r = put_utf8(&b, cp);
                        break;
                default:
                        if (c >= '1' && c <= '9') {
                                free(b.d);
                                return fail(p, "digit escape not allowed");
                        }
                        if ((unsigned char) c == 0xe2 && p->i + 1 < p->n &&
                            (unsigned char) p->s[p->i] == 0x80 &&
                            ((unsigned char) p->s[p->i + 1] == 0xa8 || (unsigned char) p->s[p->i + 1] == 0xa9)) {
                                p->i += 2; /* escaped LS/PS: line continuation */
                                r = 0;
                                break;
                        }
                        r = buf_put(&b, &c, 1);
                }
                if (r < 0)
                        goto oom;
        }
        if (!b.d && buf_put(&b, "", 0) < 0)
                goto oom;
        *ret = b.d;
        *ret_len = b.n;
        return 0;
oom:
        free(b.d);
        return sbx_error_set(p->err, -ENOMEM, "out of memory");
}

static bool ident_start(unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool ident_part(unsigned char c) {
        return ident_start(c) || (c >= '0' && c <= '9');
}

static int parse_key(struct p *p, char **ret, size_t *ret_len) {
        int c = peekc(p);
        if (c == '"' || c == '\'')
                return parse_string(p, ret, ret_len);
        if (c < 0 || !ident_start((unsigned char) c))
                return fail(p, "expected a property name");
        size_t start = p->i;
        while (p->i < p->n && ident_part((unsigned char) p->s[p->i]))
                p->i++;
        *ret = strndup(p->s + start, p->i - start);
        if (!*ret)
                return sbx_error_set(p->err, -ENOMEM, "out of memory");
        *ret_len = p->i - start;
        return 0;
}

static int parse_number(struct p *p, struct json_object **ret) {
        bool neg = false;
        char tmp[128];
        size_t start;

        if (p->s[p->i] == '+' || p->s[p->i] == '-') {
                neg = p->s[p->i] == '-';
                p->i++;
        }
        if (p->i + 8 <= p->n && !memcmp(p->s + p->i, "Infinity", 8)) {
                p->i += 8;
                *ret = json_object_new_double(neg ? -INFINITY : INFINITY);
                return *ret ? 0 : -ENOMEM;
        }
        if (p->i + 3 <= p->n && !memcmp(p->s + p->i, "NaN", 3)) {
                p->i += 3;
                *ret = json_object_new_double(NAN);
                return *ret ? 0 : -ENOMEM;
        }
        if (p->i + 1 < p->n && p->s[p->i] == '0' && (p->s[p->i + 1] == 'x' || p->s[p->i + 1] == 'X')) {
                uint64_t v = 0;
                p->i += 2;
                start = p->i;
                while (p->i < p->n && hexval((unsigned char) p->s[p->i]) >= 0) {
                        v = v * 16 + (uint64_t) hexval((unsigned char) p->s[p->i]);
                        p->i++;
                }
                if (p->i == start)
                        return fail(p, "bad hex number");
                if (v <= INT64_MAX)
                        *ret = json_object_new_int64(neg ? -(int64_t) v : (int64_t) v);
                else
                        *ret = json_object_new_double(neg ? -(double) v : (double) v);
                return *ret ? 0 : -ENOMEM;
        }
        start = p->i;
        bool isint = true, digits = false;
        if (p->i < p->n && p->s[p->i] == '0' && p->i + 1 < p->n && p->s[p->i + 1] >= '0' && p->s[p->i + 1] <= '9')
                return fail(p, "leading zero in number");
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
                p->i++;
                digits = true;
        }
        if (p->i < p->n && p->s[p->i] == '.') {
                isint = false;
                p->i++;
                while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
                        p->i++;
                        digits = true;
                }
        }
        if (!digits)
                return fail(p, "bad number");
        if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
                isint = false;
                p->i++;
                if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
                        p->i++;
                size_t e = p->i;
                while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
                        p->i++;
                if (p->i == e)
                        return fail(p, "bad exponent");
        }
        size_t len = p->i - start;
        if (len + 2 > sizeof(tmp))
                return fail(p, "number too long");
        tmp[0] = neg ? '-' : '+';
        memcpy(tmp + 1, p->s + start, len);
        tmp[len + 1] = '\0';
        if (isint) {
                errno = 0;
                long long v = strtoll(tmp, NULL, 10);
                if (errno == 0) {
                        *ret = json_object_new_int64(v);
                        return *ret ? 0 : -ENOMEM;
                }
        }
        *ret = json_object_new_double(strtod(tmp, NULL));
        return *ret ? 0 : -ENOMEM;
}

static int parse_object(struct p *p, struct json_object **ret) {
        struct json_object *o = json_object_new_object();
        int r;

        if (!o)
                return -ENOMEM;
        p->i++;
        for (;;) {
                if ((r = skip_ws(p)) < 0)
                        goto out;
                if (peekc(p) == '}') {
                        p->i++;
                        break;
                }
                _cleanup_free_ char *key = NULL;
                size_t klen;
                if ((r = parse_key(p, &key, &klen)) < 0)
                        goto out;
                if ((r = skip_ws(p)) < 0)
                        goto out;
                if (peekc(p) != ':') {
                        r = fail(p, "expected ':'");
                        goto out;
                }
                p->i++;
                struct json_object *v = NULL;
                if ((r = parse_value(p, &v)) < 0)
                        goto out;
                json_object_object_add(o, key, v);
                if ((r = skip_ws(p)) < 0)
                        goto out;
                if (peekc(p) == ',') {
                        p->i++;
                        continue;
                }
                if (peekc(p) == '}') {
                        p->i++;
                        break;
                }
                r = fail(p, "expected ',' or '}'");
                goto out;
        }
        *ret = o;
        return 0;
out:
        json_object_put(o);
        return r;
}

static int parse_array(struct p *p, struct json_object **ret) {
        struct json_object *a = json_object_new_array();
        int r;

        if (!a)
                return -ENOMEM;
        p->i++;
        for (;;) {
                if ((r = skip_ws(p)) < 0)
                        goto out;
                if (peekc(p) == ']') {
                        p->i++;
                        break;
                }
                struct json_object *v = NULL;
                if ((r = parse_value(p, &v)) < 0)
                        goto out;
                json_object_array_add(a, v);
                if ((r = skip_ws(p)) < 0)
                        goto out;
                if (peekc(p) == ',') {
                        p->i++;
                        continue;
                }
                if (peekc(p) == ']') {
                        p->i++;
                        break;
                }
                r = fail(p, "expected ',' or ']'");
                goto out;
        }
        *ret = a;
        return 0;
out:
        json_object_put(a);
        return r;
}

static bool word(struct p *p, const char *w) {
        size_t l = strlen(w);
        if (p->i + l > p->n || memcmp(p->s + p->i, w, l) != 0)
                return false;
        if (p->i + l < p->n && ident_part((unsigned char) p->s[p->i + l]))
                return false;
        p->i += l;
        return true;
}

static int parse_value(struct p *p, struct json_object **ret) {
        int r, c;

        if ((r = skip_ws(p)) < 0)
                return r;
        if (++p->depth > SBX_JSON5_MAX_DEPTH)
                return fail(p, "nesting too deep");
        c = peekc(p);
        if (c == '{')
                r = parse_object(p, ret);
        else if (c == '[')
                r = parse_array(p, ret);
        else if (c == '"' || c == '\'') {
                char *s;
                size_t l;
                if ((r = parse_string(p, &s, &l)) >= 0) {
                        *ret = json_object_new_string_len(s, (int) l);
                        free(s);
                        r = *ret ? 0 : -ENOMEM;
                }
        } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') || c == 'I' || c == 'N')
                r = parse_number(p, ret);
        else if (word(p, "true"))
                r = (*ret = json_object_new_boolean(1)) ? 0 : -ENOMEM;
        else if (word(p, "false"))
                r = (*ret = json_object_new_boolean(0)) ? 0 : -ENOMEM;
        else if (word(p, "null")) {
                *ret = NULL;
                r = 0;
        } else
                r = fail(p, c < 0 ? "unexpected end of input" : "unexpected character");
        p->depth--;
        if (r == -ENOMEM)
                return sbx_error_set(p->err, -ENOMEM, "out of memory");
        return r;
}

int sbx_json5_parse(const char *text, size_t len, struct json_object **ret, sbx_error *reterr) {
        struct p p = { .s = text, .n = len, .err = reterr };
        struct json_object *v = NULL;
        int r;

        if (len > SBX_JSON5_MAX_SIZE)
                return sbx_error_set(reterr, -EFBIG, "input larger than %u bytes", SBX_JSON5_MAX_SIZE);
        if ((r = skip_ws(&p)) < 0)
                return r;
        if (p.i >= p.n)
                return fail(&p, "empty document");
        if ((r = parse_value(&p, &v)) < 0)
                return r;
        if ((r = skip_ws(&p)) < 0 || p.i < p.n) {
                json_object_put(v);
                return r < 0 ? r : fail(&p, "unexpected data after the value");
        }
        *ret = v;
        return 0;
}

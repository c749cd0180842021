/* SPDX-License-Identifier: MIT */
/* JSON5 -> json-c, following the npm `json5` package (see json5.h for the contract).
 *
 * Shape: the input is checked to be UTF-8 once, up front; then a recursive-descent parser walks
 * it one code point at a time. Every container is owned by a cleanup variable until it is
 * handed to its parent, so an error anywhere frees everything built so far. Strings are
 * decoded into one scratch buffer twice as long as the input (no JSON5 escape decodes to more
 * bytes than it occupies; a raw NUL, one byte, becomes C0 80), so parsing allocates only
 * json-c objects, one copy per object key and that buffer. */

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "json5-unicode.h"
#include "util/util.h"

#define EOI (-1) /* peek() at the end of the input */

struct parser {
        const uint8_t *p, *end;
        unsigned line, col; /* json5's position: line of, and UTF-16 column after, the last read */
        unsigned depth;
        char *scratch;     /* decoded string or number text; len + 1 bytes */
        locale_t c_locale; /* for strtod_l(), created on the first number */
        sbx_error *reterr;
};

static void json5_object_putp(struct json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json5_object_putp)

/* ---- code points ------------------------------------------------------------------------- */

/* Length of the UTF-8 sequence at s (at most n bytes), 0 if it is not well-formed: no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF. */
static size_t utf8_len(const uint8_t *s, size_t n) {
        uint8_t c = s[0];
        size_t k;
        uint32_t min, cp;

        if (c < 0x80)
                return 1;
        if (c >= 0xC2 && c <= 0xDF)
                k = 2, min = 0x80, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
                k = 3, min = 0x800, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
                k = 4, min = 0x10000, cp = c & 0x07;
        else
                return 0;
        if (n < k)
                return 0;
        for (size_t i = 1; i < k; i++) {
                if ((s[i] & 0xC0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return 0;
        return k;
}

/* The input has been validated: decode without checks. */
static int32_t decode(const uint8_t *s, size_t *ret_len) {
        size_t k = utf8_len(s, 4);
        int32_t cp;

        *ret_len = k;
        switch (k) {
        case 1:
                return s[0];
        case 2:
                cp = s[0] & 0x1F;
                break;
        case 3:
                cp = s[0] & 0x0F;
                break;
        default:
                cp = s[0] & 0x07;
                break;
        }
        for (size_t i = 1; i < k; i++)
                cp = (cp << 6) | (s[i] & 0x3F);
        return cp;
}

static size_t utf8_put(char *out, uint32_t cp) {
        if (cp < 0x80) {
                out[0] = (char) cp;
                return 1;
        }
        if (cp < 0x800) {
                out[0] = (char) (0xC0 | (cp >> 6));
                out[1] = (char) (0x80 | (cp & 0x3F));
                return 2;
        }
        if (cp < 0x10000) {
                out[0] = (char) (0xE0 | (cp >> 12));
                out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
                out[2] = (char) (0x80 | (cp & 0x3F));
                return 3;
        }
        out[0] = (char) (0xF0 | (cp >> 18));
        out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char) (0x80 | (cp & 0x3F));
        return 4;
}

static bool in_ranges(const struct json5_cp_range *r, size_t n, int32_t cp) {
        size_t lo = 0, hi = n;

        if (cp < 0)
                return false;
        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;

                if ((uint32_t) cp < r[mid].first)
                        hi = mid;
                else if ((uint32_t) cp > r[mid].last)
                        lo = mid + 1;
                else
                        return true;
        }
        return false;
}

static bool is_space(int32_t cp) {
        switch (cp) {
        case '\t':
        case '\v':
        case '\f':
        case ' ':
        case '\n':
        case '\r':
        case 0x00A0:
        case 0xFEFF:
        case 0x2028:
        case 0x2029:
                return true;
        default:
                return in_ranges(json5_space_separator, ELEMENTSOF(json5_space_separator), cp);
        }
}

/* Both tables include '$' and '_'; id_continue also ZWNJ and ZWJ, as json5's predicates do. */
static bool is_id_start(int32_t cp) {
        return in_ranges(json5_id_start, ELEMENTSOF(json5_id_start), cp);
}

static bool is_id_continue(int32_t cp) {
        return in_ranges(json5_id_continue, ELEMENTSOF(json5_id_continue), cp);
}

static bool is_digit(int32_t cp) {
        return cp >= '0' && cp <= '9';
}

static int hex_value(int32_t cp) {
        if (cp >= '0' && cp <= '9')
                return cp - '0';
        if (cp >= 'a' && cp <= 'f')
                return cp - 'a' + 10;
        if (cp >= 'A' && cp <= 'F')
                return cp - 'A' + 10;
        return -1;
}

/* ---- reading and errors ------------------------------------------------------------------ */

static int32_t peek(const struct parser *ps) {
        size_t k;

        if (ps->p >= ps->end)
                return EOI;
        if (*ps->p < 0x80)
                return *ps->p;
        return decode(ps->p, &k);
}

/* Consume one code point, moving the position the way json5 does: a newline starts the next
 * line at column 0, anything else adds its UTF-16 length, reading past the end adds 1. */
static int32_t advance(struct parser *ps) {
        size_t k;
        int32_t cp;

        if (ps->p >= ps->end) {
                ps->col++;
                return EOI;
        }
        if (*ps->p < 0x80)
                cp = *ps->p, k = 1;
        else
                cp = decode(ps->p, &k);
        ps->p += k;
        if (cp == '\n') {
                ps->line++;
                ps->col = 0;
        } else
                ps->col += cp > 0xFFFF ? 2 : 1;
        return cp;
}

/* The character json5 names in its message: quotes, backslash and controls escaped. */
static void describe_char(int32_t cp, char *buf, size_t size) {
        static const char *const names[] = {
                ['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n", ['\r'] = "\\r",
                ['\t'] = "\\t", ['\v'] = "\\v", [0] = "\\0",
        };

        if (cp >= 0 && (size_t) cp < ELEMENTSOF(names) && names[cp])
                snprintf(buf, size, "%s", names[cp]);
        else if (cp == '\'' || cp == '"' || cp == '\\')
                snprintf(buf, size, "\\%c", (char) cp);
        else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
                snprintf(buf, size, "\\x%02x", (unsigned) cp);
        else if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
                snprintf(buf, size, "\\u%04x", (unsigned) cp);
        else {
                size_t n = utf8_put(buf, (uint32_t) cp);
                buf[n] = 0;
        }
}

/* Consume the offending character and report it at its own position, in json5's words (so the
 * message matches OpenClaw's for the same file), then what was expected there. */
static int fail_char(struct parser *ps, const char *hint) {
        char what[16];
        int32_t cp = advance(ps);

        if (cp == EOI)
                return sbx_error_set(ps->reterr, -EINVAL, "line %u col %u: invalid end of input; %s",
                                     ps->line, ps->col, hint);
        describe_char(cp, what, sizeof(what));
        return sbx_error_set(ps->reterr, -EINVAL, "line %u col %u: invalid character '%s'; %s", ps->line,
                             ps->col, what, hint);
}

/* Whitespace and comments between tokens. An unterminated block comment is an error; a line
 * comment may end the input. */
static int skip_blank(struct parser *ps) {
        for (;;) {
                int32_t cp = peek(ps);

                if (is_space(cp)) {
                        advance(ps);
                        continue;
                }
                if (cp != '/')
                        return 0;
                advance(ps);
                cp = peek(ps);
                if (cp == '/') {
                        advance(ps);
                        for (;;) {
                                cp = peek(ps);
                                if (cp == EOI)
                                        return 0;
                                advance(ps);
                                if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029)
                                        break;
                        }
                } else if (cp == '*') {
                        bool done = false;

                        advance(ps);
                        while (!done) {
                                cp = peek(ps);
                                if (cp == EOI)
                                        return fail_char(ps, "unterminated /* comment");
                                advance(ps);
                                while (cp == '*' && peek(ps) == '*')
                                        advance(ps);
                                if (cp == '*' && peek(ps) == '/') {
                                        advance(ps);
                                        done = true;
                                }
                        }
                } else
                        return fail_char(ps, "'/' starts a comment only as // or /*");
        }
}

/* The rest of `word`, whose first character has been read, as json5 reads literals. */
static int expect_word(struct parser *ps, const char *word) {
        for (const char *w = word + 1; *w; w++) {
                if (peek(ps) != *w) {
                        char hint[32];

                        snprintf(hint, sizeof(hint), "expected %s", word);
                        return fail_char(ps, hint);
                }
                advance(ps);
        }
        return 0;
}

/* "\uXXXX" after the backslash and 'u' were read: four hex digits. */
static int read_hex(struct parser *ps, unsigned ndigits, uint32_t *ret) {
        uint32_t v = 0;

        for (unsigned i = 0; i < ndigits; i++) {
                int h = hex_value(peek(ps));

                if (h < 0)
                        return fail_char(ps, "expected a hex digit");
                advance(ps);
                v = (v << 4) | (uint32_t) h;
        }
        *ret = v;
        return 0;
}

/* ---- strings and keys -------------------------------------------------------------------- */

/* Builds UTF-8 from code points and UTF-16 units (\uXXXX escapes, which pair up into one
 * astral character the way a JavaScript string does). */
struct strbuf {
        char *buf;
        size_t len;
        uint32_t high;                /* a high surrogate waiting for its low half, or 0 */
};

/* A JavaScript string keeps what UTF-8 cannot hold; sbx's strings hold it in the forms
 * js-string.c prints back as JSON escapes: an unpaired surrogate in its 3-byte form
 * (ED A0..BF xx, "WTF-8"), U+0000 as C0 80 (so C strings keep it and what follows). */
static void flush_high(struct strbuf *s) {
        if (s->high) {
                s->len += utf8_put(s->buf + s->len, s->high);
                s->high = 0;
        }
}

static int put_cp(struct parser *ps, struct strbuf *s, uint32_t cp) {
        (void) ps;
        flush_high(s);
        if (cp == 0) {
                s->buf[s->len++] = (char) 0xC0;
                s->buf[s->len++] = (char) 0x80;
                return 0;
        }
        s->len += utf8_put(s->buf + s->len, cp);
        return 0;
}

static int put_unit(struct parser *ps, struct strbuf *s, uint32_t u) {
        if (u >= 0xD800 && u <= 0xDBFF) {
                flush_high(s);
                s->high = u;
                return 0;
        }
        if (u >= 0xDC00 && u <= 0xDFFF) {
                uint32_t high = s->high;

                if (!high) {
                        s->len += utf8_put(s->buf + s->len, u);
                        return 0;
                }
                s->high = 0;
                return put_cp(ps, s, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
        }
        return put_cp(ps, s, u);
}

/* One escape sequence, the backslash already read. */
static int read_escape(struct parser *ps, struct strbuf *s) {
        static const char simple[][2] = {
                {'b', '\b'}, {'f', '\f'}, {'n', '\n'}, {'r', '\r'}, {'t', '\t'}, {'v', '\v'},
        };
        int32_t cp = peek(ps);
        uint32_t v = 0;
        int r;

        for (size_t i = 0; i < ELEMENTSOF(simple); i++)
                if (cp == simple[i][0]) {
                        advance(ps);
                        return put_cp(ps, s, (uint32_t) simple[i][1]);
                }

        switch (cp) {
        case '0':
                advance(ps);
                if (is_digit(peek(ps))) /* no octal escapes: "\01" is an error */
                        return fail_char(ps, "octal escapes are not allowed");
                return put_cp(ps, s, 0);
        case 'x':
                advance(ps);
                r = read_hex(ps, 2, &v);
                return r < 0 ? r : put_cp(ps, s, v);
        case 'u':
                advance(ps);
                r = read_hex(ps, 4, &v);
                return r < 0 ? r : put_unit(ps, s, v);
        case '\r': /* line continuations produce nothing */
                advance(ps);
                if (peek(ps) == '\n')
                        advance(ps);
                return 0;
        case '\n':
        case 0x2028:
        case 0x2029:
                advance(ps);
                return 0;
        case EOI:
        case '1' ... '9':
                return fail_char(ps, "\\1..\\9 escapes are not allowed");
        default: /* any other character stands for itself */
                return put_cp(ps, s, (uint32_t) advance(ps));
        }
}

/* A quoted string; the current character is the opening quote. The decoded text lands in
 * ps->scratch, NUL-terminated; its length (which may include NULs) in *ret_len. */
static int read_string(struct parser *ps, size_t *ret_len) {
        struct strbuf s = {.buf = ps->scratch};
        int32_t quote = advance(ps);
        int r;

        for (;;) {
                int32_t cp = peek(ps);

                if (cp == quote) {
                        advance(ps);
                        break;
                }
                if (cp == '\\') {
                        advance(ps);
                        r = read_escape(ps, &s);
                } else if (cp == '\n' || cp == '\r' || cp == EOI)
                        return fail_char(
                                ps,
                                "strings cannot span lines (use \\n, or a backslash before the line break)");
                else /* U+2028/U+2029 included: JSON5 allows them raw in strings */
                        r = put_cp(ps, &s, (uint32_t) advance(ps));
                if (r < 0)
                        return r;
        }
        flush_high(&s);
        s.buf[s.len] = 0;
        *ret_len = s.len;
        return 0;
}

/* "\uXXXX" inside an identifier, the backslash read: must encode an identifier character. */
static int read_id_escape(struct parser *ps, bool first, uint32_t *ret) {
        uint32_t v = 0;
        int r;

        if (peek(ps) != 'u')
                return fail_char(ps, "only \\u escapes are allowed in keys");
        advance(ps);
        r = read_hex(ps, 4, &v);
        if (r < 0)
                return r;
        if (first ? !is_id_start((int32_t) v) : !is_id_continue((int32_t) v))
                /* json5 points at the backslash, five columns back */
                return sbx_error_set(ps->reterr, -EINVAL, "line %u col %u: invalid identifier character",
                                     ps->line, ps->col - 5);
        *ret = v;
        return 0;
}

/* An unquoted key: an ECMAScript IdentifierName, into ps->scratch. */
static int read_identifier(struct parser *ps) {
        struct strbuf s = {.buf = ps->scratch};

        for (bool first = true;; first = false) {
                int32_t cp = peek(ps);
                uint32_t v = 0;
                int r;

                if (cp == '\\') {
                        advance(ps);
                        r = read_id_escape(ps, first, &v);
                        if (r < 0)
                                return r;
                } else if (first ? is_id_start(cp) : is_id_continue(cp))
                        v = (uint32_t) advance(ps);
                else if (first)
                        return fail_char(ps, "expected a key (identifier or quoted string)");
                else
                        break;
                /* escapes above are never surrogates, so this cannot fail */
                (void) put_cp(ps, &s, v);
        }
        s.buf[s.len] = 0;
        return 0;
}

/* A property name; returns a private copy in *ret_key. */
static int read_key(struct parser *ps, char **ret_key) {
        size_t len;
        char *key;
        int r;

        if (peek(ps) == '"' || peek(ps) == '\'') {
                r = read_string(ps, &len);
                if (r < 0)
                        return r;
                (void) len; /* a NUL is C0 80 here: keys stay C strings */
        } else {
                r = read_identifier(ps);
                if (r < 0)
                        return r;
        }
        key = strdup(ps->scratch);
        if (!key)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        *ret_key = key;
        return 0;
}

/* ---- numbers ----------------------------------------------------------------------------- */

static void skip_digits(struct parser *ps) {
        while (is_digit(peek(ps)))
                advance(ps);
}

/* JavaScript has one number type; json-c has two. Integral values inside int64 become ints
 * (-0 becomes 0, as JSON.stringify shows it), everything else stays a double. */
static int number_object(struct parser *ps, double v, struct json_object **ret) {
        struct json_object *o;

        if (isfinite(v) && v == trunc(v) && v >= -0x1p63 && v < 0x1p63)
                o = json_object_new_int64((int64_t) v);
        else
                o = json_object_new_double(v);
        if (!o)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        *ret = o;
        return 0;
}

/* The rest of a decimal number, its first character (a digit or '.') current:
 * "5", ".5", "5.", "5.e3", "0.5e-1"; never "01" (the number ends after "0"). */
static int scan_decimal(struct parser *ps) {
        bool leading_dot = peek(ps) == '.';

        if (leading_dot) {
                advance(ps);
                if (!is_digit(peek(ps)))
                        return fail_char(ps, "expected a digit after '.'");
                skip_digits(ps);
        } else if (advance(ps) != '0')
                skip_digits(ps);

        if (!leading_dot && peek(ps) == '.') {
                advance(ps);
                skip_digits(ps);
        }
        if (peek(ps) == 'e' || peek(ps) == 'E') {
                advance(ps);
                if (peek(ps) == '+' || peek(ps) == '-')
                        advance(ps);
                if (!is_digit(peek(ps)))
                        return fail_char(ps, "expected a digit in the exponent");
                skip_digits(ps);
        }
        return 0;
}

/* "0x1F" and friends, the current character is the '0'. */
static int scan_hex(struct parser *ps) {
        advance(ps);
        advance(ps);
        if (hex_value(peek(ps)) < 0)
                return fail_char(ps, "expected a hex digit after 0x");
        while (hex_value(peek(ps)) >= 0)
                advance(ps);
        return 0;
}

static int read_number(struct parser *ps, struct json_object **ret) {
        double sign = 1;
        const uint8_t *start;
        int32_t cp = peek(ps);
        size_t n;
        int r;

        if (cp == '+' || cp == '-') {
                if (advance(ps) == '-')
                        sign = -1;
                cp = peek(ps);
        }
        if (cp == 'I' || cp == 'N') {
                advance(ps);
                r = expect_word(ps, cp == 'I' ? "Infinity" : "NaN");
                if (r < 0)
                        return r;
                return number_object(ps, cp == 'I' ? sign * INFINITY : NAN, ret);
        }

        start = ps->p;
        if (cp == '0' && ps->p + 1 < ps->end && (ps->p[1] == 'x' || ps->p[1] == 'X'))
                r = scan_hex(ps);
        else if (cp == '.' || is_digit(cp))
                r = scan_decimal(ps);
        else
                r = fail_char(ps, "expected a number");
        if (r < 0)
                return r;

        /* The token is ASCII; strtod rounds correctly (as JavaScript's Number() does) and reads
         * "0x..." too. A C locale keeps a caller's setlocale() from changing the decimal point. */
        n = (size_t) (ps->p - start);
        memcpy(ps->scratch, start, n);
        ps->scratch[n] = 0;
        if (ps->c_locale == (locale_t) 0) {
                ps->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t) 0);
                if (ps->c_locale == (locale_t) 0)
                        return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        }
        return number_object(ps, sign * strtod_l(ps->scratch, NULL, ps->c_locale), ret);
}

/* ---- values ------------------------------------------------------------------------------ */

static int read_value(struct parser *ps, struct json_object **ret);

static int enter(struct parser *ps) {
        advance(ps); /* the '{' or '[' */
        if (++ps->depth > SBX_JSON5_MAX_DEPTH)
                return sbx_error_set(ps->reterr, -E2BIG,
                                     "line %u col %u: nesting deeper than %u objects/arrays", ps->line,
                                     ps->col, SBX_JSON5_MAX_DEPTH);
        return 0;
}

/* One member of an object, "key: value", into OBJ. */
static int read_member(struct parser *ps, struct json_object *obj) {
        _cleanup_json_ struct json_object *val = NULL;
        _cleanup_free_ char *key = NULL;
        int r;

        r = read_key(ps, &key);
        if (r < 0)
                return r;
        r = skip_blank(ps);
        if (r < 0)
                return r;
        if (peek(ps) != ':')
                return fail_char(ps, "expected ':' after the key");
        advance(ps);
        r = skip_blank(ps);
        if (r < 0)
                return r;
        r = read_value(ps, &val);
        if (r < 0)
                return r;
        /* an existing key keeps its place and takes the new value: JSON.parse's rule */
        if (json_object_object_add(obj, key, val) < 0)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        val = NULL;
        return 0;
}

/* One element of an array into ARR. */
static int read_element(struct parser *ps, struct json_object *arr) {
        _cleanup_json_ struct json_object *val = NULL;
        int r;

        r = read_value(ps, &val);
        if (r < 0)
                return r;
        if (json_object_array_add(arr, val) < 0)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        val = NULL;
        return 0;
}

/* An object or an array (OBJECT says which; at its '{' or '['): members or elements separated by
 * ',', one trailing comma allowed (",}" and ",]" end it). */
static int read_container(struct parser *ps, bool object, struct json_object **ret) {
        _cleanup_json_ struct json_object *c = NULL;
        const char close = object ? '}' : ']';
        int r;

        r = enter(ps);
        if (r < 0)
                return r;
        c = object ? json_object_new_object() : json_object_new_array();
        if (!c)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");

        r = skip_blank(ps);
        if (r < 0)
                return r;
        while (peek(ps) != close) {
                r = object ? read_member(ps, c) : read_element(ps, c);
                if (r < 0)
                        return r;
                r = skip_blank(ps);
                if (r < 0)
                        return r;
                if (peek(ps) == close)
                        break;
                if (peek(ps) != ',')
                        return fail_char(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
                advance(ps);
                r = skip_blank(ps);
                if (r < 0)
                        return r;
        }
        advance(ps);
        ps->depth--;
        *ret = TAKE_PTR(c);
        return 0;
}

/* Any value, blanks before it already skipped. A null value is returned as NULL, as json-c
 * represents it. */
static int read_value(struct parser *ps, struct json_object **ret) {
        struct json_object *o;
        size_t len;
        int r;

        switch (peek(ps)) {
        case '{':
                return read_container(ps, true, ret);
        case '[':
                return read_container(ps, false, ret);
        case '"':
        case '\'':
                r = read_string(ps, &len);
                if (r < 0)
                        return r;
                o = json_object_new_string_len(ps->scratch, (int) len);
                break;
        case 'n':
                advance(ps);
                r = expect_word(ps, "null");
                if (r < 0)
                        return r;
                *ret = NULL;
                return 0;
        case 't':
        case 'f': {
                bool b = advance(ps) == 't';

                r = expect_word(ps, b ? "true" : "false");
                if (r < 0)
                        return r;
                o = json_object_new_boolean(b);
                break;
        }
        case 'I':
        case 'N':
        case '+':
        case '-':
        case '.':
        case '0':
        case '1' ... '9':
                return read_number(ps, ret);
        default:
                return fail_char(ps, "expected a value");
        }
        if (!o)
                return sbx_error_set(ps->reterr, -ENOMEM, "out of memory");
        *ret = o;
        return 0;
}

/* Rejects bytes Node would silently turn into U+FFFD, naming the first one. */
static int check_utf8(const uint8_t *s, size_t len, sbx_error *reterr) {
        struct parser pos = {.p = s, .end = s + len, .line = 1};

        for (size_t i = 0; i < len;) {
                size_t k = utf8_len(s + i, len - i);

                if (k == 0) {
                        pos.end = s + i;
                        while (pos.p < pos.end)
                                advance(&pos);
                        return sbx_error_set(reterr, -EINVAL, "line %u col %u: invalid UTF-8 (byte 0x%02x)",
                                             pos.line, pos.col + 1, s[i]);
                }
                i += k;
        }
        return 0;
}

int sbx_json5_parse(const char *text, size_t len, struct json_object **ret, sbx_error *reterr) {
        _cleanup_json_ struct json_object *root = NULL;
        _cleanup_free_ char *scratch = NULL;
        struct parser ps = {
                .p = (const uint8_t *) text,
                .end = (const uint8_t *) text + len,
                .line = 1,
                .reterr = reterr,
        };
        int r;

        if (!ret || (!text && len > 0))
                return sbx_error_set(reterr, -EINVAL, "no JSON5 text given");
        if (len > SBX_JSON5_MAX_SIZE)
                return sbx_error_set(reterr, -E2BIG, "input is %zu bytes, more than the %u allowed", len,
                                     SBX_JSON5_MAX_SIZE);
        r = check_utf8(ps.p, len, reterr);
        if (r < 0)
                return r;
        scratch = malloc(2 * len + 1); /* a raw NUL decodes to C0 80 */
        if (!scratch)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        ps.scratch = scratch;

        r = skip_blank(&ps);
        if (r >= 0)
                r = read_value(&ps, &root); /* an empty file fails here: end of input */
        if (r >= 0)
                r = skip_blank(&ps);
        if (r >= 0 && peek(&ps) != EOI)
                r = fail_char(&ps, "expected the end of input after the value");
        if (ps.c_locale != (locale_t) 0)
                freelocale(ps.c_locale);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(root);
        return 0;
}

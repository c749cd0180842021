/* SPDX-License-Identifier: MIT */
/* JSON5 -> json-c, following the npm `json5` package (see json5.h for the contract).
 *
 * Shape: the input is checked to be UTF-8 once, up front; then a recursive-descent parser walks
 * it one code point at a time. Every container is owned by a cleanup variable until it is
 * handed to its parent, so an error anywhere frees everything built so far. Strings are
 * decoded into one scratch buffer as long as the input (no JSON5 escape decodes to more bytes
 * than it occupies), so parsing allocates only json-c objects, one copy per object key and
 * that buffer. */

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json5.h"
#include "json5-unicode.h"
#include "macro.h"

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

static int32_t peek(const struct parser *P) {
        size_t k;

        if (P->p >= P->end)
                return EOI;
        if (*P->p < 0x80)
                return *P->p;
        return decode(P->p, &k);
}

/* Consume one code point, moving the position the way json5 does: a newline starts the next
 * line at column 0, anything else adds its UTF-16 length, reading past the end adds 1. */
static int32_t advance(struct parser *P) {
        size_t k;
        int32_t cp;

        if (P->p >= P->end) {
                P->col++;
                return EOI;
        }
        if (*P->p < 0x80)
                cp = *P->p, k = 1;
        else
                cp = decode(P->p, &k);
        P->p += k;
        if (cp == '\n') {
                P->line++;
                P->col = 0;
        } else
                P->col += cp > 0xFFFF ? 2 : 1;
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
static int fail_char(struct parser *P, const char *hint) {
        char what[16];
        int32_t cp = advance(P);

        if (cp == EOI)
                return sbx_error_set(P->reterr, -EINVAL, "line %u col %u: invalid end of input; %s", P->line,
                                     P->col, hint);
        describe_char(cp, what, sizeof(what));
        return sbx_error_set(P->reterr, -EINVAL, "line %u col %u: invalid character '%s'; %s", P->line,
                             P->col, what, hint);
}

/* Whitespace and comments between tokens. An unterminated block comment is an error; a line
 * comment may end the input. */
static int skip_blank(struct parser *P) {
        for (;;) {
                int32_t cp = peek(P);

                if (is_space(cp)) {
                        advance(P);
                        continue;
                }
                if (cp != '/')
                        return 0;
                advance(P);
                cp = peek(P);
                if (cp == '/') {
                        advance(P);
                        for (;;) {
                                cp = peek(P);
                                if (cp == EOI)
                                        return 0;
                                advance(P);
                                if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029)
                                        break;
                        }
                } else if (cp == '*') {
                        bool done = false;

                        advance(P);
                        while (!done) {
                                cp = peek(P);
                                if (cp == EOI)
                                        return fail_char(P, "unterminated /* comment");
                                advance(P);
                                while (cp == '*' && peek(P) == '*')
                                        advance(P);
                                if (cp == '*' && peek(P) == '/') {
                                        advance(P);
                                        done = true;
                                }
                        }
                } else
                        return fail_char(P, "'/' starts a comment only as // or /*");
        }
}

/* The rest of `word`, whose first character has been read, as json5 reads literals. */
static int expect_word(struct parser *P, const char *word) {
        for (const char *w = word + 1; *w; w++) {
                if (peek(P) != *w) {
                        char hint[32];

                        snprintf(hint, sizeof(hint), "expected %s", word);
                        return fail_char(P, hint);
                }
                advance(P);
        }
        return 0;
}

/* "\uXXXX" after the backslash and 'u' were read: four hex digits. */
static int read_hex(struct parser *P, unsigned ndigits, uint32_t *ret) {
        uint32_t v = 0;

        for (unsigned i = 0; i < ndigits; i++) {
                int h = hex_value(peek(P));

                if (h < 0)
                        return fail_char(P, "expected a hex digit");
                advance(P);
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
        unsigned high_line, high_col; /* where its escape starts */
        unsigned esc_line, esc_col;   /* where the escape being read starts */
};

static int unpaired(struct parser *P, uint32_t unit, unsigned line, unsigned col) {
        return sbx_error_set(P->reterr, -EINVAL,
                             "line %u col %u: string has an unpaired surrogate \\u%04X, which "
                             "UTF-8 cannot represent",
                             line, col, unit);
}

static int put_cp(struct parser *P, struct strbuf *s, uint32_t cp) {
        if (s->high)
                return unpaired(P, s->high, s->high_line, s->high_col);
        s->len += utf8_put(s->buf + s->len, cp);
        return 0;
}

static int put_unit(struct parser *P, struct strbuf *s, uint32_t u) {
        if (u >= 0xD800 && u <= 0xDBFF) {
                if (s->high)
                        return unpaired(P, s->high, s->high_line, s->high_col);
                s->high = u;
                s->high_line = s->esc_line;
                s->high_col = s->esc_col;
                return 0;
        }
        if (u >= 0xDC00 && u <= 0xDFFF) {
                uint32_t high = s->high;

                if (!high)
                        return unpaired(P, u, s->esc_line, s->esc_col);
                s->high = 0;
                return put_cp(P, s, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
        }
        return put_cp(P, s, u);
}

/* One escape sequence, the backslash already read. */
static int read_escape(struct parser *P, struct strbuf *s) {
        static const char simple[][2] = {
                {'b', '\b'}, {'f', '\f'}, {'n', '\n'}, {'r', '\r'}, {'t', '\t'}, {'v', '\v'},
        };
        int32_t cp = peek(P);
        uint32_t v = 0;
        int r;

        for (size_t i = 0; i < ELEMENTSOF(simple); i++)
                if (cp == simple[i][0]) {
                        advance(P);
                        return put_cp(P, s, (uint32_t) simple[i][1]);
                }

        switch (cp) {
        case '0':
                advance(P);
                if (is_digit(peek(P))) /* no octal escapes: "\01" is an error */
                        return fail_char(P, "octal escapes are not allowed");
                return put_cp(P, s, 0);
        case 'x':
                advance(P);
                r = read_hex(P, 2, &v);
                return r < 0 ? r : put_cp(P, s, v);
        case 'u':
                advance(P);
                r = read_hex(P, 4, &v);
                return r < 0 ? r : put_unit(P, s, v);
        case '\r': /* line continuations produce nothing */
                advance(P);
                if (peek(P) == '\n')
                        advance(P);
                return 0;
        case '\n':
        case 0x2028:
        case 0x2029:
                advance(P);
                return 0;
        case EOI:
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
                return fail_char(P, "\\1..\\9 escapes are not allowed");
        default: /* any other character stands for itself */
                return put_cp(P, s, (uint32_t) advance(P));
        }
}

/* A quoted string; the current character is the opening quote. The decoded text lands in
 * P->scratch, NUL-terminated; its length (which may include NULs) in *ret_len. */
static int read_string(struct parser *P, size_t *ret_len) {
        struct strbuf s = {.buf = P->scratch};
        int32_t quote = advance(P);
        int r;

        for (;;) {
                int32_t cp = peek(P);

                if (cp == quote) {
                        advance(P);
                        break;
                }
                if (cp == '\\') {
                        advance(P);
                        s.esc_line = P->line;
                        s.esc_col = P->col;
                        r = read_escape(P, &s);
                } else if (cp == '\n' || cp == '\r' || cp == EOI)
                        return fail_char(
                                P,
                                "strings cannot span lines (use \\n, or a backslash before the line break)");
                else /* U+2028/U+2029 included: JSON5 allows them raw in strings */
                        r = put_cp(P, &s, (uint32_t) advance(P));
                if (r < 0)
                        return r;
        }
        if (s.high)
                return unpaired(P, s.high, s.high_line, s.high_col);
        s.buf[s.len] = 0;
        *ret_len = s.len;
        return 0;
}

/* "\uXXXX" inside an identifier, the backslash read: must encode an identifier character. */
static int read_id_escape(struct parser *P, bool first, uint32_t *ret) {
        uint32_t v = 0;
        int r;

        if (peek(P) != 'u')
                return fail_char(P, "only \\u escapes are allowed in keys");
        advance(P);
        r = read_hex(P, 4, &v);
        if (r < 0)
                return r;
        if (first ? !is_id_start((int32_t) v) : !is_id_continue((int32_t) v))
                /* json5 points at the backslash, five columns back */
                return sbx_error_set(P->reterr, -EINVAL, "line %u col %u: invalid identifier character",
                                     P->line, P->col - 5);
        *ret = v;
        return 0;
}

/* An unquoted key: an ECMAScript IdentifierName, into P->scratch. */
static int read_identifier(struct parser *P) {
        struct strbuf s = {.buf = P->scratch};

        for (bool first = true;; first = false) {
                int32_t cp = peek(P);
                uint32_t v = 0;
                int r;

                if (cp == '\\') {
                        advance(P);
                        r = read_id_escape(P, first, &v);
                        if (r < 0)
                                return r;
                } else if (first ? is_id_start(cp) : is_id_continue(cp))
                        v = (uint32_t) advance(P);
                else if (first)
                        return fail_char(P, "expected a key (identifier or quoted string)");
                else
                        break;
                /* escapes above are never surrogates, so this cannot fail */
                (void) put_cp(P, &s, v);
        }
        s.buf[s.len] = 0;
        return 0;
}

/* A property name; returns a private copy in *ret_key. */
static int read_key(struct parser *P, char **ret_key) {
        size_t len;
        char *key;
        int r;

        if (peek(P) == '"' || peek(P) == '\'') {
                r = read_string(P, &len);
                if (r < 0)
                        return r;
                if (memchr(P->scratch, 0, len))
                        return sbx_error_set(P->reterr, -EINVAL,
                                             "line %u col %u: object key contains NUL (\\u0000), "
                                             "which sbx does not accept in keys",
                                             P->line, P->col);
        } else {
                r = read_identifier(P);
                if (r < 0)
                        return r;
        }
        key = strdup(P->scratch);
        if (!key)
                return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
        *ret_key = key;
        return 0;
}

/* ---- numbers ----------------------------------------------------------------------------- */

static void skip_digits(struct parser *P) {
        while (is_digit(peek(P)))
                advance(P);
}

/* JavaScript has one number type; json-c has two. Integral values inside int64 become ints
 * (-0 becomes 0, as JSON.stringify shows it), everything else stays a double. */
static int number_object(struct parser *P, double v, struct json_object **ret) {
        struct json_object *o;

        if (isfinite(v) && v == trunc(v) && v >= -0x1p63 && v < 0x1p63)
                o = json_object_new_int64((int64_t) v);
        else
                o = json_object_new_double(v);
        if (!o)
                return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
        *ret = o;
        return 0;
}

static int read_number(struct parser *P, struct json_object **ret) {
        const uint8_t *start;
        double sign = 1, v;
        int32_t cp = peek(P);
        bool leading_dot;
        size_t n;
        int r;

        if (cp == '+' || cp == '-') {
                if (advance(P) == '-')
                        sign = -1;
                cp = peek(P);
        }
        if (cp == 'I' || cp == 'N') {
                advance(P);
                r = expect_word(P, cp == 'I' ? "Infinity" : "NaN");
                if (r < 0)
                        return r;
                return number_object(P, cp == 'I' ? sign * INFINITY : NAN, ret);
        }

        start = P->p;
        leading_dot = cp == '.';
        if (leading_dot) { /* ".5": a digit must follow */
                advance(P);
                if (!is_digit(peek(P)))
                        return fail_char(P, "expected a digit after '.'");
                skip_digits(P);
        } else if (cp == '0') { /* "0", "0.5", "0e1", "0x1F"; never "01" */
                advance(P);
                cp = peek(P);
                if (cp == 'x' || cp == 'X') {
                        advance(P);
                        if (hex_value(peek(P)) < 0)
                                return fail_char(P, "expected a hex digit after 0x");
                        while (hex_value(peek(P)) >= 0)
                                advance(P);
                        goto convert;
                }
        } else if (is_digit(cp))
                skip_digits(P);
        else
                return fail_char(P, "expected a number");

        if (!leading_dot && peek(P) == '.') { /* "5." and "5.e3" are numbers */
                advance(P);
                skip_digits(P);
        }
        if (peek(P) == 'e' || peek(P) == 'E') {
                advance(P);
                if (peek(P) == '+' || peek(P) == '-')
                        advance(P);
                if (!is_digit(peek(P)))
                        return fail_char(P, "expected a digit in the exponent");
                skip_digits(P);
        }

convert:
        /* The token is ASCII; strtod rounds correctly (as JavaScript's Number() does) and reads
         * "0x..." too. A C locale keeps a caller's setlocale() from changing the decimal point. */
        n = (size_t) (P->p - start);
        memcpy(P->scratch, start, n);
        P->scratch[n] = 0;
        if (P->c_locale == (locale_t) 0) {
                P->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t) 0);
                if (P->c_locale == (locale_t) 0)
                        return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
        }
        v = strtod_l(P->scratch, NULL, P->c_locale);
        return number_object(P, sign * v, ret);
}

/* ---- values ------------------------------------------------------------------------------ */

static int read_value(struct parser *P, struct json_object **ret);

static int enter(struct parser *P) {
        advance(P); /* the '{' or '[' */
        if (++P->depth > SBX_JSON5_MAX_DEPTH)
                return sbx_error_set(P->reterr, -E2BIG,
                                     "line %u col %u: nesting deeper than %u objects/arrays", P->line,
                                     P->col, SBX_JSON5_MAX_DEPTH);
        return 0;
}

static int read_object(struct parser *P, struct json_object **ret) {
        _cleanup_json_ struct json_object *obj = NULL;
        int r;

        r = enter(P);
        if (r < 0)
                return r;
        obj = json_object_new_object();
        if (!obj)
                return sbx_error_set(P->reterr, -ENOMEM, "out of memory");

        r = skip_blank(P);
        if (r < 0)
                return r;
        while (peek(P) != '}') {
                _cleanup_json_ struct json_object *val = NULL;
                _cleanup_free_ char *key = NULL;

                r = read_key(P, &key);
                if (r < 0)
                        return r;
                r = skip_blank(P);
                if (r < 0)
                        return r;
                if (peek(P) != ':')
                        return fail_char(P, "expected ':' after the key");
                advance(P);
                r = skip_blank(P);
                if (r < 0)
                        return r;
                r = read_value(P, &val);
                if (r < 0)
                        return r;
                /* an existing key keeps its place and takes the new value: JSON.parse's rule */
                if (json_object_object_add(obj, key, val) < 0)
                        return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
                val = NULL;

                r = skip_blank(P);
                if (r < 0)
                        return r;
                if (peek(P) == '}')
                        break;
                if (peek(P) != ',')
                        return fail_char(P, "expected ',' or '}'");
                advance(P);
                r = skip_blank(P); /* one trailing comma: ",}" ends the object */
                if (r < 0)
                        return r;
        }
        advance(P);
        P->depth--;
        *ret = TAKE_PTR(obj);
        return 0;
}

static int read_array(struct parser *P, struct json_object **ret) {
        _cleanup_json_ struct json_object *arr = NULL;
        int r;

        r = enter(P);
        if (r < 0)
                return r;
        arr = json_object_new_array();
        if (!arr)
                return sbx_error_set(P->reterr, -ENOMEM, "out of memory");

        r = skip_blank(P);
        if (r < 0)
                return r;
        while (peek(P) != ']') {
                _cleanup_json_ struct json_object *val = NULL;

                r = read_value(P, &val);
                if (r < 0)
                        return r;
                if (json_object_array_add(arr, val) < 0)
                        return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
                val = NULL;

                r = skip_blank(P);
                if (r < 0)
                        return r;
                if (peek(P) == ']')
                        break;
                if (peek(P) != ',')
                        return fail_char(P, "expected ',' or ']'");
                advance(P);
                r = skip_blank(P); /* one trailing comma: ",]" ends the array */
                if (r < 0)
                        return r;
        }
        advance(P);
        P->depth--;
        *ret = TAKE_PTR(arr);
        return 0;
}

/* Any value, blanks before it already skipped. A null value is returned as NULL, as json-c
 * represents it. */
static int read_value(struct parser *P, struct json_object **ret) {
        struct json_object *o;
        size_t len;
        int r;

        switch (peek(P)) {
        case '{':
                return read_object(P, ret);
        case '[':
                return read_array(P, ret);
        case '"':
        case '\'':
                r = read_string(P, &len);
                if (r < 0)
                        return r;
                o = json_object_new_string_len(P->scratch, (int) len);
                break;
        case 'n':
                advance(P);
                r = expect_word(P, "null");
                if (r < 0)
                        return r;
                *ret = NULL;
                return 0;
        case 't':
        case 'f': {
                bool b = advance(P) == 't';

                r = expect_word(P, b ? "true" : "false");
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
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
                return read_number(P, ret);
        default:
                return fail_char(P, "expected a value");
        }
        if (!o)
                return sbx_error_set(P->reterr, -ENOMEM, "out of memory");
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
        struct parser P = {
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
        r = check_utf8(P.p, len, reterr);
        if (r < 0)
                return r;
        scratch = malloc(len + 1);
        if (!scratch)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        P.scratch = scratch;

        r = skip_blank(&P);
        if (r >= 0)
                r = read_value(&P, &root); /* an empty file fails here: end of input */
        if (r >= 0)
                r = skip_blank(&P);
        if (r >= 0 && peek(&P) != EOI)
                r = fail_char(&P, "expected the end of input after the value");
        if (P.c_locale != (locale_t) 0)
                freelocale(P.c_locale);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(root);
        return 0;
}

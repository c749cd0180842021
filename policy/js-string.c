/* SPDX-License-Identifier: MIT */
/* JavaScript string rules over sbx's UTF-8 strings: OpenClaw measures and cuts strings in
 * UTF-16 code units (String.length, slice), so a character outside the BMP counts twice and a
 * cut may split it, leaving a lone high surrogate. sbx writes such a lone surrogate as its
 * 3-byte form (ED A0..BF xx, "WTF-8"), and sbx_json_text_js prints it as JSON prints it:
 * "\udXXX". */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "policy.h"
#include "resolve-internal.h"

/* bytes and UTF-16 units of the sequence at s (a stray byte counts as one unit) */
static size_t seq_at(const unsigned char *s, size_t *ret_units) {
        size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xF0 && s[0] <= 0xF7 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
        for (size_t i = 1; i < n; i++)
                if ((s[i] & 0xC0) != 0x80) {
                        n = 1; /* truncated: the lead byte alone */
                        break;
                }
        *ret_units = n == 4 ? 2 : 1;
        return n;
}

size_t sbx_js_length(const char *s) {
        size_t units = 0, u;
        for (const unsigned char *p = (const unsigned char *) s; *p;) {
                p += seq_at(p, &u);
                units += u;
        }
        return units;
}

size_t sbx_code_points(const char *s) {
        size_t n = 0, u;
        for (const unsigned char *p = (const unsigned char *) s; *p; n++)
                p += seq_at(p, &u);
        return n;
}

char *sbx_js_slice(const char *s, size_t units) {
        const unsigned char *p = (const unsigned char *) s;
        size_t u, n, used = 0;
        char *r;

        while (*p && used < units) {
                n = seq_at(p, &u);
                if (used + u > units)
                        break; /* half of an astral character */
                used += u;
                p += n;
        }
        size_t len = (size_t) (p - (const unsigned char *) s);
        r = malloc(len + 4);
        if (!r)
                return NULL;
        memcpy(r, s, len);
        if (*p && used < units) { /* its high surrogate, alone */
                uint32_t cp = ((uint32_t) (p[0] & 0x07) << 18) | ((uint32_t) (p[1] & 0x3F) << 12) |
                              ((uint32_t) (p[2] & 0x3F) << 6) | (p[3] & 0x3F);
                uint32_t hi = 0xD800 + ((cp - 0x10000) >> 10);
                r[len++] = (char) (0xE0 | (hi >> 12));
                r[len++] = (char) (0x80 | ((hi >> 6) & 0x3F));
                r[len++] = (char) (0x80 | (hi & 0x3F));
        }
        r[len] = '\0';
        return r;
}

char *sbx_json_text_js(const char *text) {
        size_t n = strlen(text), o = 0;
        char *r = malloc(n * 3 + 1); /* C0 80 -> \u0000: 2 bytes -> 6 */
        if (!r)
                return NULL;
        for (const unsigned char *p = (const unsigned char *) text; *p;) {
                if (p[0] == 0xED && p[1] >= 0xA0 && p[1] <= 0xBF && (p[2] & 0xC0) == 0x80) {
                        unsigned unit = 0xD000u | ((unsigned) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
                        o += (size_t) sprintf(r + o, "\\u%04x", unit);
                        p += 3;
                } else if (p[0] == 0xC0 && p[1] == 0x80) {
                        memcpy(r + o, "\\u0000", 6);
                        o += 6;
                        p += 2;
                } else
                        r[o++] = (char) *p++;
        }
        r[o] = '\0';
        return r;
}

/* JSON.stringify(s) into buf (cut to size, always terminated): '"' and '\\' escaped, \b \f \n \r \t,
 * the other C0 controls and an encoded U+0000 (C0 80) as \u00XX, a lone surrogate as \udXXX; the
 * rest (DEL, U+2028/2029 too) as it is. OpenClaw writes path keys ("[...]") and quoted values so. */
size_t sbx_js_quote(char *buf, size_t size, const char *s) {
        size_t o = 0;
        char esc[8];

        if (!size)
                return 0;
#define PUT(str, len)                                                                                       \
        do {                                                                                                \
                size_t _l = (len);                                                                          \
                if (o + _l >= size)                                                                         \
                        goto out;                                                                           \
                memcpy(buf + o, (str), _l);                                                                 \
                o += _l;                                                                                    \
        } while (0)
        PUT("\"", 1);
        for (const unsigned char *p = (const unsigned char *) s; *p;) {
                const char *e = NULL;
                switch (*p) {
                case '"': e = "\\\""; break;
                case '\\': e = "\\\\"; break;
                case '\b': e = "\\b"; break;
                case '\f': e = "\\f"; break;
                case '\n': e = "\\n"; break;
                case '\r': e = "\\r"; break;
                case '\t': e = "\\t"; break;
                default: break;
                }
                if (e) {
                        PUT(e, 2);
                        p++;
                } else if (*p < 0x20) {
                        snprintf(esc, sizeof(esc), "\\u%04x", *p);
                        PUT(esc, 6);
                        p++;
                } else if (p[0] == 0xC0 && p[1] == 0x80) {
                        PUT("\\u0000", 6);
                        p += 2;
                } else if (p[0] == 0xED && p[1] >= 0xA0 && p[1] <= 0xBF && (p[2] & 0xC0) == 0x80) {
                        snprintf(esc, sizeof(esc), "\\u%04x",
                                 0xD000u | ((unsigned) (p[1] & 0x3F) << 6) | (p[2] & 0x3Fu));
                        PUT(esc, 6);
                        p += 3;
                } else {
                        PUT(p, 1);
                        p++;
                }
        }
        PUT("\"", 1);
#undef PUT
out:
        buf[o] = '\0';
        return o;
}

/* sha256 of the string as Node's UTF-8 encoder writes it (Buffer.from, createHash().update):
 * C0 80 is U+0000 (a zero byte), an unpaired surrogate U+FFFD (EF BF BD). */
void sbx_sha256_hex_js(const char *s, char hex[65]) {
        size_t n = strlen(s), o = 0;
        _cleanup_free_ char *b = malloc(n + 1);
        if (!b) {
                sbx_sha256_hex(s, n, hex);
                return;
        }
        for (const unsigned char *p = (const unsigned char *) s; *p;) {
                if (p[0] == 0xED && p[1] >= 0xA0 && p[1] <= 0xBF && (p[2] & 0xC0) == 0x80) {
                        memcpy(b + o, "\xef\xbf\xbd", 3);
                        o += 3;
                        p += 3;
                } else if (p[0] == 0xC0 && p[1] == 0x80) {
                        b[o++] = 0;
                        p += 2;
                } else
                        b[o++] = (char) *p++;
        }
        sbx_sha256_hex(b, o, hex);
}

#include "js-lower.h"

static bool in_ranges(const uint32_t (*r)[2], size_t n, uint32_t cp) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (cp < r[mid][0])
                        hi = mid;
                else if (cp > r[mid][1])
                        lo = mid + 1;
                else
                        return true;
        }
        return false;
}

static uint32_t lower_cp(uint32_t cp) {
        size_t lo = 0, hi = ELEMENTSOF(JS_LOWER);
        while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                const struct js_lower_run *r = &JS_LOWER[mid];
                if (cp < r->start)
                        hi = mid;
                else if (cp > r->end)
                        lo = mid + 1;
                else
                        return (cp - r->start) % r->stride ? cp : (uint32_t) ((int32_t) cp + r->delta);
        }
        return cp;
}

/* the code point of the sequence at s of n bytes (a stray byte stands for itself, marked) */
static uint32_t decode(const unsigned char *s, size_t n) {
        switch (n) {
        case 2:
                return (uint32_t) (s[0] & 0x1F) << 6 | (s[1] & 0x3F);
        case 3:
                return (uint32_t) (s[0] & 0x0F) << 12 | (uint32_t) (s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        case 4:
                return (uint32_t) (s[0] & 0x07) << 18 | (uint32_t) (s[1] & 0x3F) << 12 |
                       (uint32_t) (s[2] & 0x3F) << 6 | (s[3] & 0x3F);
        default:
                return s[0] < 0x80 ? s[0] : UINT32_MAX;
        }
}

static size_t encode(uint32_t cp, char *o) {
        if (cp < 0x80) {
                o[0] = (char) cp;
                return 1;
        }
        if (cp < 0x800) {
                o[0] = (char) (0xC0 | cp >> 6);
                o[1] = (char) (0x80 | (cp & 0x3F));
                return 2;
        }
        if (cp < 0x10000) {
                o[0] = (char) (0xE0 | cp >> 12);
                o[1] = (char) (0x80 | (cp >> 6 & 0x3F));
                o[2] = (char) (0x80 | (cp & 0x3F));
                return 3;
        }
        o[0] = (char) (0xF0 | cp >> 18);
        o[1] = (char) (0x80 | (cp >> 12 & 0x3F));
        o[2] = (char) (0x80 | (cp >> 6 & 0x3F));
        o[3] = (char) (0x80 | (cp & 0x3F));
        return 4;
}

static bool case_ignorable(uint32_t cp) {
        return in_ranges(JS_CASE_IGNORABLE, ELEMENTSOF(JS_CASE_IGNORABLE), cp);
}

static bool cased(uint32_t cp) {
        return in_ranges(JS_CASED, ELEMENTSOF(JS_CASED), cp);
}

/* Final_Sigma for the U+03A3 at cps[i]: a cased letter before it and none after it, case-
 * ignorable characters skipped on both sides. */
static bool final_sigma(const uint32_t *cps, size_t n, size_t i) {
        size_t j = i;
        while (j > 0 && case_ignorable(cps[j - 1]))
                j--;
        if (j == 0 || !cased(cps[j - 1]))
                return false;
        for (j = i + 1; j < n && case_ignorable(cps[j]); j++)
                ;
        return j == n || !cased(cps[j]);
}

/* String.prototype.toLowerCase over UTF-8 (node 24's Unicode data, policy/js-lower.h): one
 * code point to one, U+0130 to "i" U+0307, U+03A3 to U+03C2 at a word's end (Final_Sigma),
 * else U+03C3; stray bytes and lone surrogates are kept. */
char *sbx_strdup_lower(const char *s) {
        if (!s)
                return NULL;
        size_t n = strlen(s), m = 0, u;
        _cleanup_free_ uint32_t *cps = malloc((n + 1) * sizeof(uint32_t));
        _cleanup_free_ size_t *lens = malloc((n + 1) * sizeof(size_t));
        char *r = malloc(n * 2 + 1), *o = r;
        if (!cps || !lens || !r) {
                free(r);
                return NULL;
        }
        for (size_t i = 0; i < n; m++) {
                lens[m] = seq_at((const unsigned char *) s + i, &u);
                cps[m] = decode((const unsigned char *) s + i, lens[m]);
                i += lens[m];
        }
        const char *p = s;
        for (size_t k = 0; k < m; p += lens[k], k++) {
                uint32_t cp = cps[k];
                size_t l = lens[k];
                if (cp == UINT32_MAX || (cp >= 0xD800 && cp <= 0xDFFF) || (l == 2 && cp < 0x80) ||
                    (l == 3 && cp < 0x800) || (l == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
                        memcpy(o, p, lens[k]);
                        o += lens[k];
                } else if (cp == 0x130) {
                        *o++ = 'i';
                        o += encode(0x307, o);
                } else if (cp == 0x3A3)
                        o += encode(final_sigma(cps, m, k) ? 0x3C2 : 0x3C3, o);
                else
                        o += encode(lower_cp(cp), o);
        }
        *o = '\0';
        return r;
}

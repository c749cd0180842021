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

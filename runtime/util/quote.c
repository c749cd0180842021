/* SPDX-License-Identifier: MIT */
/* Text a sandbox chose (a file name in its workspace, the path it exec'd),
 * made safe to print on the operator's terminal: quoted as git quotes a
 * path when it holds anything but plain text. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A Unicode bidirectional control at s (ALM, LRM, RLM, LRE..RLO, LRI..PDI):
 * its code point, else 0. Printed raw, a name's override or isolate reorders
 * the rest of the operator's line (a symlink's "-> target", the next name on
 * it): these are quoted, as a C1 control is. */
static unsigned bidi_control(const unsigned char *s) {
        if (s[0] == 0xd8 && s[1] == 0x9c)
                return 0x061c;
        if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae)))
                return 0x2000 + (s[2] - 0x80);
        if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)
                return 0x2040 + (s[2] - 0x80);
        return 0;
}

/* The length of the UTF-8 sequence at s that prints (no C1 control, no
 * bidirectional control), else 0. */
static size_t printable_utf8(const unsigned char *s) {
        size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;

        if (n == 0 || (s[0] == 0xc2 && s[1] <= 0x9f) ||     /* C1: U+0080-U+009F */
            (s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||  /* overlong, surrogate */
            (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
                return 0;
        for (size_t i = 1; i < n; i++)
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
        return bidi_control(s) ? 0 : n;
}

static bool plain(const char *text, bool quotes, bool tabs) {
        const unsigned char *s = (const unsigned char *) text;

        for (size_t i = 0; s[i];) {
                size_t n = s[i] < 0x80 ? 1 : printable_utf8(s + i);
                if (n == 0 || (s[i] < 0x20 && !(tabs && s[i] == '\t')) || s[i] == 0x7f ||
                    (quotes && (s[i] == '"' || s[i] == '\\')))
                        return false;
                i += n;
        }
        return true;
}

void sbx_text_scrub(char *text) {
        unsigned char *s = (unsigned char *) text;

        for (size_t i = 0; s[i];) {
                size_t n = s[i] < 0x80 ? 1 : printable_utf8(s + i);
                if (n == 0) {                   /* not UTF-8, a C1 or bidi control: each of its bytes */
                        n = s[i] >= 0xc2 && s[i] <= 0xf4 ? (s[i] < 0xe0 ? 2 : s[i] < 0xf0 ? 3 : 4) : 1;
                        s[i++] = '?';
                        for (size_t j = 1; j < n && (s[i] & 0xc0) == 0x80; j++)
                                s[i++] = '?';
                        continue;
                }
                if (s[i] < 0x20 || s[i] == 0x7f)
                        s[i] = '?';
                i += n;
        }
}

bool sbx_text_plain(const char *text) {
        return plain(text, false, false);
}

bool sbx_text_plain_line(const char *text) {
        return plain(text, false, true);
}

char *sbx_quoted(const char *text) {
        const unsigned char *s = (const unsigned char *) text;
        size_t len = strlen(text), k = 0;
        char *out;

        if (plain(text, true, false))
                return strdup(text);
        out = malloc(len * 4 + 3);      /* \ooo per byte, the quotes, NUL */
        if (!out)
                return NULL;
        out[k++] = '"';
        for (size_t i = 0; i < len;) {
                static const char esc[] = "\a\b\t\n\v\f\r\"\\", letter[] = "abtnvfr\"\\";
                const char *e = s[i] ? strchr(esc, s[i]) : NULL;
                size_t n = s[i] < 0x80 ? 1 : printable_utf8(s + i);
                if (e) {
                        out[k++] = '\\';
                        out[k++] = letter[e - esc];
                        i++;
                } else if (n == 0 || s[i] < 0x20 || s[i] == 0x7f) {
                        k += (size_t) sprintf(out + k, "\\%03o", s[i]);
                        i++;
                } else {
                        memcpy(out + k, s + i, n);
                        k += n;
                        i += n;
                }
        }
        out[k++] = '"';
        out[k] = '\0';
        return out;
}

size_t sbx_json_escape_byte(const char *text, char out[6], size_t *consumed) {
        const unsigned char *s = (const unsigned char *) text;
        char u[16];
        size_t n = s[0] < 0x80 ? 1 : printable_utf8(s);

        if (s[0] == 0x7f) {
                memcpy(out, "\\u007f", 6);
                *consumed = 1;
                return 6;
        }
        if (n > 0) {
                memcpy(out, s, n);
                *consumed = n;
                return n;
        }
        if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {     /* C1 control: the code point */
                snprintf(u, sizeof(u), "\\u%04x", s[1]);
                memcpy(out, u, 6);
                *consumed = 2;
                return 6;
        }
        if (bidi_control(s)) {                                  /* the code point too */
                snprintf(u, sizeof(u), "\\u%04x", bidi_control(s));
                memcpy(out, u, 6);
                *consumed = s[0] == 0xd8 ? 2 : 3;
                return 6;
        }
        snprintf(u, sizeof(u), "\\udc%02x", s[0]);  /* not UTF-8: PEP 383's lone surrogate */
        memcpy(out, u, 6);
        *consumed = 1;
        return 6;
}

char *sbx_json_terminal_safe(const char *json) {
        size_t len = strlen(json), k = 0;
        char *out = malloc(len * 6 + 1);        /* a byte -> \udcXX at most */

        if (!out)
                return NULL;
        for (size_t i = 0, used; i < len; i += used)
                k += sbx_json_escape_byte(json + i, out + k, &used);
        out[k] = '\0';
        return out;
}

int sbx_json_puts(const char *json) {
        _cleanup_free_ char *safe = sbx_json_terminal_safe(json);

        return safe && puts(safe) >= 0 ? 0 : -ENOMEM;
}

static size_t utf8_chars(const char *s, size_t n) {
        size_t r = 0;

        for (size_t i = 0; i < n; i++)
                r += ((unsigned char) s[i] & 0xc0) != 0x80;
        return r;
}

void sbx_tabwrite(FILE *out, const char *text, size_t minwidth, size_t padding) {
        size_t widths[64] = { 0 };
        const char *p;

        for (p = text; *p;) {
                const char *eol = strchrnul(p, '\n'), *c = p;
                for (size_t col = 0; col < sizeof(widths) / sizeof(widths[0]); col++) {
                        const char *tab = memchr(c, '\t', (size_t) (eol - c));
                        size_t w;
                        if (!tab)
                                break;
                        w = utf8_chars(c, (size_t) (tab - c)) + padding;
                        if (w < minwidth)
                                w = minwidth;
                        if (w > widths[col])
                                widths[col] = w;
                        c = tab + 1;
                }
                p = *eol ? eol + 1 : eol;
        }
        for (p = text; *p;) {
                const char *eol = strchrnul(p, '\n'), *c = p;
                for (size_t col = 0;; col++) {
                        const char *tab = memchr(c, '\t', (size_t) (eol - c));
                        if (!tab || col >= sizeof(widths) / sizeof(widths[0])) {
                                fwrite(c, 1, (size_t) (eol - c), out);
                                break;
                        }
                        fwrite(c, 1, (size_t) (tab - c), out);
                        fprintf(out, "%*s", (int) (widths[col] - utf8_chars(c, (size_t) (tab - c))), "");
                        c = tab + 1;
                }
                fputc('\n', out);
                p = *eol ? eol + 1 : eol;
        }
}

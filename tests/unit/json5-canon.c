/* SPDX-License-Identifier: MIT */
/* See json5-canon.h and json5/canon.js for the format. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json5-canon.h"

#define ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

static void put_string(FILE *f, const char *s, size_t len) {
        static const char *const escapes['\\' + 1] = {
                ['"'] = "\\\"", ['\\'] = "\\\\", ['\b'] = "\\b", ['\f'] = "\\f",
                ['\n'] = "\\n", ['\r'] = "\\r", ['\t'] = "\\t",
        };

        fputc('"', f);
        for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char) s[i];
                const unsigned char *u = (const unsigned char *) s + i;

                if (c == 0xC0 && i + 1 < len && u[1] == 0x80) { /* U+0000 */
                        fputs("\\u0000", f);
                        i++;
                } else if (c == 0xED && i + 2 < len && u[1] >= 0xA0 && u[1] <= 0xBF) { /* a lone surrogate */
                        fprintf(f, "\\u%04x", 0xD000u | ((unsigned) (u[1] & 0x3F) << 6) | (u[2] & 0x3F));
                        i += 2;
                } else if (c < ELEMENTS(escapes) && escapes[c])
                        fputs(escapes[c], f);
                else if (c < 0x20)
                        fprintf(f, "\\u%04x", c);
                else
                        fputc(c, f);
        }
        fputc('"', f);
}

static void put_number(FILE *f, double d) {
        uint64_t bits;

        if (isnan(d))
                fputs("NaN", f);
        else if (isinf(d))
                fputs(d > 0 ? "Infinity" : "-Infinity", f);
        else if (d == trunc(d) && fabs(d) <= 9007199254740991.0)
                fprintf(f, "%lld", (long long) d);
        else {
                memcpy(&bits, &d, sizeof(bits));
                fprintf(f, "d:0x%016llx", (unsigned long long) bits);
        }
}

static int key_cmp(const void *a, const void *b) {
        return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static void put_value(FILE *f, struct json_object *o) {
        switch (json_object_get_type(o)) {
        case json_type_null:
                fputs("null", f);
                break;
        case json_type_boolean:
                fputs(json_object_get_boolean(o) ? "true" : "false", f);
                break;
        case json_type_int:
                put_number(f, (double) json_object_get_int64(o));
                break;
        case json_type_double:
                put_number(f, json_object_get_double(o));
                break;
        case json_type_string:
                put_string(f, json_object_get_string(o), (size_t) json_object_get_string_len(o));
                break;
        case json_type_array:
                fputc('[', f);
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        if (i)
                                fputc(',', f);
                        put_value(f, json_object_array_get_idx(o, i));
                }
                fputc(']', f);
                break;
        case json_type_object: {
                size_t n = (size_t) json_object_object_length(o), i = 0;
                const char **keys = calloc(n ? n : 1, sizeof(char *));

                if (!keys)
                        abort();
                json_object_object_foreach(o, k, v) {
                        (void) v;
                        keys[i++] = k;
                }
                qsort(keys, n, sizeof(char *), key_cmp);
                fputc('{', f);
                for (i = 0; i < n; i++) {
                        if (i)
                                fputc(',', f);
                        put_string(f, keys[i], strlen(keys[i]));
                        fputc(':', f);
                        put_value(f, json_object_object_get(o, keys[i]));
                }
                fputc('}', f);
                free(keys);
                break;
        }
        default:
                abort();
        }
}

char *json5_canon(struct json_object *o) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        if (!f)
                return NULL;
        put_value(f, o);
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

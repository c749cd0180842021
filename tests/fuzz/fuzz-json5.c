/* SPDX-License-Identifier: MIT */
/* libFuzzer target for policy/json5.c (STYLE.md rule 21: fuzz every parser).
 * Besides "no crash, no leak, no UB" (ASan/UBSan/LSan), it checks the contract:
 *   - failure: -EINVAL/-E2BIG with a message, *ret untouched;
 *   - success: every string is valid UTF-8 but for what OpenClaw keeps and sbx stores as
 *     modified UTF-8 (U+0000 as C0 80, an unpaired surrogate in its 3-byte form), and a tree
 *     without those survives a round trip: json-c's JSON text of it (JSON is JSON5) parses back to the same
 *     canonical value. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "../unit/json5-canon.h"

/* set when a string holds U+0000 or an unpaired surrogate: json-c prints those bytes raw,
 * which is no UTF-8 text to parse back (the unit oracle compares them with npm json5) */
static int modified_utf8;

static int utf8_valid(const unsigned char *s, size_t n) {
        for (size_t i = 0; i < n;) {
                unsigned char c = s[i];
                size_t k = c < 0x80                   ? 1
                           : (c == 0xC0 && i + 1 < n && s[i + 1] == 0x80) ? 2 /* U+0000 */
                           : (c >= 0xC2 && c <= 0xDF) ? 2
                           : (c >= 0xE0 && c <= 0xEF) ? 3
                           : (c >= 0xF0 && c <= 0xF4) ? 4
                                                      : 0;

                if (k == 0 || i + k > n)
                        return 0;
                if (c == 0xC0)
                        modified_utf8 = 1;
                for (size_t j = 1; j < k; j++)
                        if ((s[i + j] & 0xC0) != 0x80)
                                return 0;
                if (c == 0xED && s[i + 1] >= 0xA0)      /* an unpaired surrogate, kept */
                        modified_utf8 = 1;
                if ((c == 0xE0 && s[i + 1] < 0xA0) ||
                    (c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))
                        return 0;
                i += k;
        }
        return 1;
}

static void check_tree(struct json_object *o, unsigned depth) {
        switch (json_object_get_type(o)) {
        case json_type_string:
                if (!utf8_valid((const unsigned char *) json_object_get_string(o),
                                (size_t) json_object_get_string_len(o)))
                        abort();
                break;
        case json_type_array:
                if (depth >= SBX_JSON5_MAX_DEPTH)
                        abort();
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        check_tree(json_object_array_get_idx(o, i), depth + 1);
                break;
        case json_type_object: {
                if (depth >= SBX_JSON5_MAX_DEPTH)
                        abort();
                json_object_object_foreach(o, k, v) {
                        if (!utf8_valid((const unsigned char *) k, strlen(k)))
                                abort();
                        check_tree(v, depth + 1);
                }
                break;
        }
        default:
                break;
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct json_object *sentinel = (struct json_object *) 0x1, *o = sentinel, *again = NULL;
        sbx_error err = {};
        const char *json;
        char *c1, *c2;
        int r;

        r = sbx_json5_parse((const char *) data, size, &o, &err);
        if (r < 0) {
                if ((r != -EINVAL && r != -E2BIG) || err.code != r || !err.msg[0] || o != sentinel)
                        abort();
                return 0;
        }
        modified_utf8 = 0;
        check_tree(o, 0);
        if (modified_utf8) {
                json_object_put(o);
                return 0;
        }

        json = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
        if (!json || sbx_json5_parse(json, strlen(json), &again, &err) < 0)
                abort();
        c1 = json5_canon(o);
        c2 = json5_canon(again);
        if (!c1 || !c2 || strcmp(c1, c2) != 0)
                abort();
        free(c1);
        free(c2);
        json_object_put(again);
        json_object_put(o);
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* libFuzzer target for policy/json5.c (STYLE.md rule 21: fuzz every parser).
 * Besides "no crash, no leak, no UB" (ASan/UBSan/LSan), it checks the contract:
 *   - failure: -EINVAL/-E2BIG with a message, *ret untouched;
 *   - success: every string is valid UTF-8 and the tree survives a round trip: json-c's JSON
 *     text of it (JSON is JSON5) parses back to the same canonical value. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "../unit/json5-canon.h"

static int utf8_valid(const unsigned char *s, size_t n) {
        for (size_t i = 0; i < n;) {
                unsigned char c = s[i];
                size_t k = c < 0x80                   ? 1
                           : (c >= 0xC2 && c <= 0xDF) ? 2
                           : (c >= 0xE0 && c <= 0xEF) ? 3
                           : (c >= 0xF0 && c <= 0xF4) ? 4
                                                      : 0;

                if (k == 0 || i + k > n)
                        return 0;
                for (size_t j = 1; j < k; j++)
                        if ((s[i + j] & 0xC0) != 0x80)
                                return 0;
                if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0) ||
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
        check_tree(o, 0);

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

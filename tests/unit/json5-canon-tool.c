/* SPDX-License-Identifier: MIT */
/* Differential-testing driver (not a test): reads JSON lines {"in": "<JSON5 text>"} on stdin
 * and writes one line per input: {"ok": "<canonical value>"} or {"code": N, "msg": "..."}.
 * Used by tests/fuzz/json5-diff.js to compare sbx_json5_parse() with the npm json5 package. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "json5-canon.h"

int main(void) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;

        while ((n = getline(&line, &cap, stdin)) > 0) {
                struct json_object *req = json_tokener_parse(line), *in, *val = NULL, *out;
                sbx_error err = {};
                int r;

                if (!req || !json_object_object_get_ex(req, "in", &in)) {
                        fprintf(stderr, "json5-canon: bad request line\n");
                        return 2;
                }
                r = sbx_json5_parse(json_object_get_string(in), (size_t) json_object_get_string_len(in),
                                    &val, &err);
                out = json_object_new_object();
                if (r < 0) {
                        json_object_object_add(out, "code", json_object_new_int(r));
                        json_object_object_add(out, "msg", json_object_new_string(err.msg));
                } else {
                        char *c = json5_canon(val);

                        json_object_object_add(out, "ok", json_object_new_string(c));
                        free(c);
                        json_object_put(val);
                }
                puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN));
                fflush(stdout);
                json_object_put(out);
                json_object_put(req);
        }
        free(line);
        return 0;
}

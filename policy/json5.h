/* SPDX-License-Identifier: MIT */
/* JSON5 front end of the policy engine (STYLE.md rule 21): openclaw.json text -> json-c tree.
 *
 * OpenClaw reads its config with the npm `json5` package (JSON5 1.0.0); sbx must read the same
 * file the same way, so this parser follows that package and is tested against it
 * (tests/unit/json5/oracle.jsonl). Where a json-c tree cannot hold what JavaScript can, sbx
 * refuses instead of guessing:
 *   - an unpaired UTF-16 surrogate escape ("\uD800" alone) in a string or key: -EINVAL;
 *   - a NUL in an object key ({"a\u0000b": 1}; json-c keys are C strings): -EINVAL
 *     (NUL inside string values is kept: use json_object_get_string_len());
 *   - invalid UTF-8 anywhere in the input (Node would substitute U+FFFD): -EINVAL.
 * Numbers are JavaScript doubles: a value that is integral and inside int64 becomes a json-c
 * int ("1e3", "0x10", "2.0", "-0" -> 1000, 16, 2, 0), every other one a double, including
 * Infinity, -Infinity and NaN. Duplicate keys: the last value wins (at the first key's place).
 * Error positions are "line L col C" counted as json5 counts them (1-based line; column in
 * UTF-16 units of the offending character; a bad newline is reported at col 0 of the next
 * line; the end of input one column past the last character), so they match OpenClaw's
 * "JSON5: invalid character 'x' at L:C" messages for the same file.
 */
#pragma once

#include <stddef.h>
#include <json-c/json.h>

#include "error.h"

#define SBX_JSON5_MAX_SIZE (2u << 20) /* bytes */
#define SBX_JSON5_MAX_DEPTH 128       /* nested objects/arrays; the root container is 1 */

/* Parse JSON5 text as OpenClaw reads it (the npm `json5` package semantics) into a json-c tree.
 * On success *ret owns the new tree (json_object_put() it); the text "null" gives *ret = NULL,
 * json-c's null. *ret is untouched on failure.
 * Errors: -EINVAL (syntax, message "line L col C: ..."), -E2BIG (size or depth limit),
 * -ENOMEM. */
int sbx_json5_parse(const char *text, size_t len, struct json_object **ret, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* JSON5 text -> json-c objects.
 * INTERIM implementation by the policy engineer (issue 3) until the json5 branch lands;
 * on merge the json5 branch's version replaces this file. Same signature. */
#pragma once

#include <stddef.h>
#include <json-c/json.h>

#include "error.h"

#define SBX_JSON5_MAX_DEPTH 128
#define SBX_JSON5_MAX_SIZE (4u * 1024u * 1024u)

/* Parse one JSON5 value (the whole text). On success *ret owns a new json_object
 * (NULL for a literal null). Errors carry "line:col: what". */
int sbx_json5_parse(const char *text, size_t len, struct json_object **ret, sbx_error *reterr);

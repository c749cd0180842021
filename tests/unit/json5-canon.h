/* SPDX-License-Identifier: MIT */
/* Canonical text of a json-c tree made by sbx_json5_parse(), the same text
 * tests/unit/json5/canon.js computes from the npm json5 package's result. */
#pragma once

#include <json-c/json.h>

/* malloc'd string, NULL on ENOMEM. */
char *json5_canon(struct json_object *o);

/* SPDX-License-Identifier: MIT */
/* The resolved policy as the JSON object `sbx explain --json` prints (the fields of
 * ../shared/conformance/README.md, expect and expect_extra, plus sbx's provenance). */
#pragma once

#include <json-c/json.h>

#include "config.h"
#include "resolve.h"

struct json_object *sbx_resolved_to_json(const sbx_resolved *r, const sbx_config_diag *diag);

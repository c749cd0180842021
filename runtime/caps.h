/* SPDX-License-Identifier: MIT */
/* Capabilities: every set emptied before exec, root made powerless. */
#pragma once

#include "plan.h"

int sbx_caps_prepare(sbx_plan *p, sbx_error *reterr);
/* Child: lock securebits, drop the bounding set, switch to the sandbox user,
 * clear ambient/inheritable/permitted/effective. Async-signal-safe. */
int sbx_caps_setup_child(int cap_last, uint32_t uid, uint32_t gid, sbx_error *reterr);

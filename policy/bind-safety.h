/* SPDX-License-Identifier: MIT */
#pragma once

#include "resolve.h"

/* OpenClaw's runtime bind checks for r->docker.binds; -EPERM with reterr naming the bind. */
int sbx_check_bind_safety(const sbx_resolved *r, sbx_error *reterr);

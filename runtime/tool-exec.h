/* SPDX-License-Identifier: MIT */
/* Running a host tool (nft, pasta) from the launcher, issue 7: found in the
 * system directories only (never through $PATH), with a fixed environment,
 * stdin fed from a string, stdout discarded and the first part of stderr kept
 * for the error message. */
#pragma once

#include <stddef.h>

#include "error.h"

/* Absolute path of tool in /usr/sbin, /usr/bin, /sbin, /bin; -ENOENT if absent. */
int sbx_tool_find(const char *tool, char *ret_path, size_t len);
/* argv[0] is the tool's name; input may be NULL. Returns the exit status
 * (>= 0) or a negative errno; errbuf gets the tool's stderr (trimmed). Kills
 * the tool after timeout_ms. */
int sbx_tool_run(const char *const *argv, const char *input, unsigned timeout_ms,
                 char *errbuf, size_t errlen, sbx_error *reterr);

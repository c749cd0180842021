/* SPDX-License-Identifier: MIT */
/* The parent while the sandbox runs: pidfd wait, signal forwarding, timeout,
 * pty relay, exit status. */
#pragma once

#include <signal.h>

#include "plan.h"

/* Parent, before clone3: the pty pair when the sandbox gets a terminal. */
int sbx_supervise_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Parent, before clone3: block the forwarded signals (the child unblocks). */
int sbx_supervise_block_signals(sigset_t *ret_old);
/* Parent: run until the sandbox's pid 1 exits; return the exit status
 * (the command's, 128+N for signal N, SBX_EXIT_TIMEOUT on --timeout). */
int sbx_supervise(sbx_plan *p, int pidfd, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* The launcher's steps that persistent sandboxes (sandbox.c) reuse. */
#pragma once

#include <signal.h>

#include "plan.h"

/* -EDEADLK unless the process has exactly one thread (clone3/setns need it). */
int sbx_assert_single_threaded(sbx_error *reterr);
/* clone3 with every namespace -> id maps -> handshake until the plan's
 * command was exec'd. The caller blocked the forwarded signals (oldmask is
 * what the child restores). Returns 0 with the child's pidfd in *ret_pidfd,
 * or the exit status to report (125/126/127) with *reterr filled; on failure
 * the child is killed and reaped. */
int sbx_launch_start(sbx_plan *p, const sigset_t *oldmask, int *ret_pidfd, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* The launcher's steps that persistent sandboxes (sandbox.c) reuse. */
#pragma once

#include <signal.h>

#include "plan.h"

/* -EDEADLK unless the process has exactly one thread (clone3/setns need it). */
int sbx_assert_single_threaded(sbx_error *reterr);
/* clone3 with every namespace, then the id maps (as sbx_run() does). The
 * caller blocked the forwarded signals (oldmask is what the child restores).
 * Returns 0 with the child's pidfd and the parent's end of the sync socket;
 * the child runs the plan and execs its command without further handshake.
 * On failure the child is killed and reaped. */
int sbx_launch_start(sbx_plan *p, const sigset_t *oldmask, int *ret_pidfd, int *ret_sync, sbx_error *reterr);
/* After the child exited with status: the setup error it reported, if any
 * (fills *reterr, returns the status sbx should report), else status. */
int sbx_launch_child_error(int sync_parent, int status, sbx_error *reterr);
/* The pid a pidfd refers to (from /proc/self/fdinfo), -1 if unknown. */
pid_t sbx_pidfd_pid(int pidfd);

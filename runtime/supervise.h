/* SPDX-License-Identifier: MIT */
/* The parent while the sandbox runs: pidfd wait, signal forwarding, timeout,
 * pty relay, exit status. */
#pragma once

#include <signal.h>

#include "plan.h"

/* Parent, before clone3: whether the sandbox gets a terminal. */
int sbx_supervise_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Child, after /dev/pts is mounted: a pty pair in the sandbox's own devpts.
 * The slave is chowned to the sandbox user. Async-signal-safe. */
int sbx_tty_setup_child(uint32_t uid, uint32_t gid, int *ret_master, int *ret_slave, sbx_error *reterr);
/* Parent: adopt the master; copy the caller's termios and window size. */
void sbx_tty_attach(sbx_plan *p, int master);
/* Parent, before clone3: block the forwarded signals (the child unblocks). */
int sbx_supervise_block_signals(sigset_t *ret_old);
/* Parent: run until the sandbox's pid 1 exits; return the exit status
 * (the command's, 128+N for signal N, SBX_EXIT_TIMEOUT on --timeout). */
int sbx_supervise(sbx_plan *p, int pidfd, sbx_error *reterr);

/* Copy what is readable from `from` to `to`; false on EOF or error (pty relays). */
bool sbx_relay(int from, int to);

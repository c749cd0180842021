/* SPDX-License-Identifier: MIT */
/* The last steps before the workload runs, shared by `sbx run` (after the
 * mounts) and a future `sbx exec` (after setns into a running sandbox):
 * rlimits -> setsid + session keyring -> capabilities + user -> no_new_privs
 * -> close_range sweep -> command lookup -> chdir -> seccomp -> execveat. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

typedef struct sbx_exec_plan {
        char *const *argv;               /* NULL-terminated */
        char *const *envp;               /* NULL-terminated */
        const char *path_env;            /* PATH used to look argv[0] up, inside the sandbox */
        const char *workdir;
        const sbx_rlimit *rlimits;
        size_t n_rlimits;
        int cap_last;
        uint32_t uid, gid;
        const sbx_bpf *bpf;
        int tty_fd;                      /* pty slave: becomes fds 0-2 and the ctty; -EBADF = inherit */
        bool parent_outside_pidns;       /* sbx exec (join.c): the parent is outside our pid ns, so a
                                          * non-zero getppid() after PR_SET_PDEATHSIG means it died */
} sbx_exec_plan;

/* Parent: argv, env, workdir, rlimits and hostname into the plan. */
int sbx_exec_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* The sbx_exec_plan view of a run plan. */
void sbx_exec_plan_from(const sbx_plan *p, sbx_exec_plan *ret);

/* Child: never returns on success. On failure fills *reterr and returns the
 * exit status sbx should report (125 setup, 126 not executable, 127 not
 * found). Async-signal-safe, no allocation. */
int sbx_exec_setup_child(const sbx_exec_plan *e, sbx_error *reterr);

/* setupCommand (issue 8), child side, inside the sandbox's namespaces with
 * its mounts and network in place: fork, run `/bin/sh -lc cmd` through
 * sbx_exec_setup_child() (the same user, capabilities, no_new_privs, seccomp
 * and workdir as the workload), stdin /dev/null, stdout and stderr on our
 * fd 2, and wait for it. 0 when it exited 0; else a negative errno with
 * reterr naming setupCommand and the exit status or signal. Used by `sbx
 * run` before the command, and callable by a persistent sandbox's create.
 * Async-signal-safe, no allocation. */
int sbx_exec_setup_command_child(const sbx_exec_plan *e, const char *cmd, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* Command front ends dispatched from main.c. Each returns the process exit
 * status (see runtime/ERRORS.md); they may print, library code may not. */
#pragma once


int cli_run(int argc, char **argv);       /* cli-run.c */
int cli_explain(int argc, char **argv);   /* cli-policy.c */
int cli_check(int argc, char **argv);     /* cli-policy.c */
int cli_migrate(int argc, char **argv);   /* cli-policy.c */
int cli_doctor(int argc, char **argv);    /* cli-doctor.c */
int cli_rootfs(int argc, char **argv);    /* cli-rootfs.c */
int cli_docker(int argc, char **argv);    /* cli-docker.c: argv[0] is "docker" (issue 9) */

/* persistent sandboxes (issue 4): cli-sandbox.c */
int cli_run_dispatch(int argc, char **argv); /* sbx run: --name/--scope -> persistent, else cli_run */
int cli_create(int argc, char **argv);
int cli_exec(int argc, char **argv);
int cli_ls(int argc, char **argv);
int cli_start(int argc, char **argv);
int cli_stop(int argc, char **argv);
int cli_rm(int argc, char **argv);
int cli_pause(int argc, char **argv);        /* pause and unpause */
int cli_prune(int argc, char **argv);
int cli_recreate(int argc, char **argv);
int cli_diff(int argc, char **argv);
int cli_commit(int argc, char **argv);
int cli_reset(int argc, char **argv);

/* cli-run.c, shared with cli-sandbox.c */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include "launch/launch.h"
const struct option *sbx_cli_run_options(void);
int sbx_cli_run_apply(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e);

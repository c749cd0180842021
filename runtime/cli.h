/* SPDX-License-Identifier: MIT */
/* Command front ends dispatched from main.c. Each returns the process exit
 * status (see runtime/ERRORS.md); they may print, library code may not. */
#pragma once

enum {
        SBX_EXIT_USAGE = 2,        /* bad usage / invalid configuration */
        SBX_EXIT_FAILURE = 125,    /* sbx itself failed */
        SBX_EXIT_CANNOT_EXEC = 126,/* not executable, or refused by policy */
        SBX_EXIT_NOT_FOUND = 127,  /* command not found in the sandbox */
        SBX_EXIT_TIMEOUT = 124,    /* sbx run --timeout expired; the sandbox was killed */
};

int cli_run(int argc, char **argv);       /* cli-run.c */
int cli_explain(int argc, char **argv);   /* cli-policy.c */
int cli_check(int argc, char **argv);     /* cli-policy.c */
int cli_migrate(int argc, char **argv);   /* cli-policy.c */
int cli_doctor(int argc, char **argv);    /* cli-doctor.c */
int cli_rootfs(int argc, char **argv);    /* cli-rootfs.c */

/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER until the launcher lands (issue 2). */
#include <stdio.h>
#include "cli.h"
int cli_run(int argc, char **argv) {
        fprintf(stderr, "sbx run: not implemented yet\n");
        return SBX_EXIT_FAILURE;
}

/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER until sbx doctor lands (issue 5). */
#include <stdio.h>
#include "cli.h"
int cli_doctor(int argc, char **argv) {
        fprintf(stderr, "sbx doctor: not implemented yet\n");
        return SBX_EXIT_FAILURE;
}

/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER until the policy engine lands (issue 3). */
#include <stdio.h>
#include "cli.h"
static int todo(const char *what) {
        fprintf(stderr, "sbx %s: not implemented yet\n", what);
        return SBX_EXIT_FAILURE;
}
int cli_explain(int argc, char **argv) { return todo("explain"); }
int cli_check(int argc, char **argv) { return todo("check"); }
int cli_migrate(int argc, char **argv) { return todo("migrate"); }

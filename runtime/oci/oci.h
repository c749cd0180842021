/* SPDX-License-Identifier: MIT */
/* runtime/oci/oci.h: the public interface of runtime/oci/ (see ARCHITECTURE.md):
 * sbx as an OCI runtime with runc's command line. */
#pragma once

/* `sbx oci COMMAND ...` and sbx invoked as `sbx-runc` (argv[0] dispatch):
 * argv[0] is the program name, argv[1] the first global option or command. */
int cli_oci(int argc, char **argv);

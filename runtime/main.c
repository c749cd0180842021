/* SPDX-License-Identifier: MIT */
/* sbx: argv -> command dispatch. The only place that returns an exit status
 * to the OS; every command front end lives in runtime/cli-*.c. */
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "docker/docker.h"
#include "oci/oci.h"
#include "launch/launch.h"
#include "sandbox/sandbox.h"
#include "build-config.h"

/* The sbx commands (cli/cli-commands.c), then docker's. */
static const sbx_cli_cmd *find_command(const char *name) {
        for (size_t i = 0; sbx_cli_commands[i]; i++)
                if (sbx_cli_commands[i]->fn && !strcmp(sbx_cli_commands[i]->name, name))
                        return sbx_cli_commands[i];
        return strcmp(name, sbx_cmd_docker.name) ? NULL : &sbx_cmd_docker;
}

static void usage(FILE *f) {
        fprintf(f, "usage: sbx COMMAND [OPTIONS] [-- CMD [ARGS...]]\n"
                   "       sbx --help | --version | version [--json] | help COMMAND\n\ncommands:\n");
        for (size_t i = 0; sbx_cli_commands[i]; i++)
                if (sbx_cli_commands[i]->fn)
                        fprintf(f, "  %-10s %s\n", sbx_cli_commands[i]->name, sbx_cli_commands[i]->summary);
        fprintf(f, "  %-10s %s\n", sbx_cmd_docker.name, sbx_cmd_docker.summary);
        fprintf(f, "  %-10s %s\n", "oci", "an OCI runtime with runc's command line (also: sbx installed as 'sbx-runc')");
        fprintf(f, "\n'sbx COMMAND --help' describes each command; man sbx, sbx-run, sbx-sandbox, sbx-policy,\n"
                   "sbx-rootfs, sbx-doctor, sbx-network and sbx-docker describe them all.\n"
                   "Exit status: the command's own; 128+N if killed by signal N; 1 no such sandbox\n"
                   "(or NAME exists, for create); 2 bad usage or config; 124 sbx run --timeout expired;\n"
                   "125 sbx failed; 126 not executable or refused; 127 not found.\n");
}

/* The commands that hand the caller's stdio to a sandbox for the command's
 * life (run, exec; docker run, docker exec; as `sbx docker ...` or as
 * `docker`): never a host file (launch/stdio-guard.c). */
static bool hands_stdio(int argc, char **argv, bool docker) {
        int i = docker ? 1 : 1 + (argc > 1 && !strcmp(argv[1], "docker"));

        return argc > i && (!strcmp(argv[i], "run") || !strcmp(argv[i], "exec"));
}

int main(int argc, char **argv) {
        bool docker = argc > 0 && !strcmp(basename(argv[0]), "docker");
        int status, r;

        /* issue 16: a template holder, exec'd by itself (launch/template.c) */
        if (argc == 1 && !strcmp(argv[0], "sbx-template"))
                return sbx_template_holder_main();

        sbx_plan_set_container_opener(sbx_sandbox_open_ns);
        /* A file the guard cannot keep from the sandbox is a restriction
         * that cannot be applied: fatal, before anything runs. */
        if (hands_stdio(argc, argv, docker) && (r = sbx_stdio_guard()) < 0) {
                fprintf(stderr, "sbx: cannot put a pipe between a sandbox and the file on stdout/stderr: %s\n",
                        strerror(-r));
                return SBX_EXIT_FAILURE;
        }
        /* Installed or symlinked as "docker": the docker-compatible entry point. */
        if (docker)
                return cli_docker(argc, argv);
        /* Installed or symlinked as "sbx-runc": the OCI runtime (runc's CLI). */
        if (argc > 0 && !strcmp(basename(argv[0]), "sbx-runc"))
                return cli_oci(argc, argv);
        /* sbx help COMMAND: that command's --help */
        if (argc == 3 && !strcmp(argv[1], "help") && (find_command(argv[2]) || !strcmp(argv[2], "oci"))) {
                char *help_argv[] = { argv[2], "--help", NULL };
                return !strcmp(argv[2], "oci") ? cli_oci(2, help_argv) : find_command(argv[2])->fn(2, help_argv);
        }
        if (argc > 2 && !strcmp(argv[1], "help")) {
                fprintf(stderr, "sbx help: unknown command '%s' (see 'sbx --help')\n", argv[2]);
                return SBX_EXIT_USAGE;
        }
        if (sbx_cli_help_word(argc, argv, usage, &status))
                return status;
        if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
                bool json = argc > 2 && !strcmp(argv[2], "--json");
                if (argc > 2 + json) {
                        fprintf(stderr, "sbx %s: unexpected argument '%s'\n", argv[1], argv[2 + json]);
                        return SBX_EXIT_USAGE;
                }
                if (json)   /* a version string is [0-9A-Za-z.+-]: no escaping needed */
                        printf("{\"version\": \"%s\"}\n", SBX_VERSION);
                else
                        printf("sbx %s\n", SBX_VERSION);
                return 0;
        }
        if (!strcmp(argv[1], "oci"))
                return cli_oci(argc - 1, argv + 1);
        const sbx_cli_cmd *cmd = find_command(argv[1]);
        if (cmd)
                return cmd->fn(argc - 1, argv + 1);
        fprintf(stderr, "sbx: unknown command '%s' (see 'sbx --help')\n", argv[1]);
        return SBX_EXIT_USAGE;
}

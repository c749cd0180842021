/* SPDX-License-Identifier: MIT */
/* sbx: argv -> command dispatch. The only place that returns an exit status
 * to the OS; every command front end lives in runtime/cli-*.c. */
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "launch/launch.h"
#include "sandbox/sandbox.h"
#include "build-config.h"

struct command {
        const char *name;
        int (*fn)(int argc, char **argv);
        const char *help;
};

static const struct command commands[] = {
        { "run",     cli_run_dispatch, "run a command in a new sandbox (--name NAME: in a persistent one)" },
        { "create",  cli_create,  "create a persistent sandbox" },
        { "exec",    cli_exec,    "run a command in a running persistent sandbox" },
        { "ls",      cli_ls,      "list persistent sandboxes" },
        { "inspect", cli_inspect, "show a sandbox's record, its policy and rules (JSON)" },
        { "logs",    cli_logs,    "show every exec in a sandbox created for an agent (--exec)" },
        { "start",   cli_start,   "start a stopped sandbox" },
        { "stop",    cli_stop,    "stop a sandbox (keeps its record and workspace)" },
        { "rm",      cli_rm,      "remove a sandbox (keeps its workspace)" },
        { "pause",   cli_pause,   "suspend every process of a sandbox" },
        { "unpause", cli_pause,   "resume a paused sandbox" },
        { "prune",   cli_prune,   "remove idle, old or crashed sandboxes" },
        { "recreate", cli_recreate, "rebuild sandboxes from their configuration" },
        { "diff",    cli_diff,    "list a sandbox's workspace changes (--workspace-mode overlay)" },
        { "commit",  cli_commit,  "apply a sandbox's workspace changes to the real workspace" },
        { "reset",   cli_reset,   "discard a sandbox's workspace changes" },
        { "explain", cli_explain, "show the resolved sandbox settings and tool policy" },
        { "check",   cli_check,   "validate an openclaw.json" },
        { "migrate", cli_migrate, "rewrite a legacy openclaw.json to the current shape" },
        { "doctor",  cli_doctor,  "report what this host supports" },
        { "rootfs",  cli_rootfs,  "build, import, list and remove images" },
        { "network", cli_network, "create, list, inspect, update and remove named networks" },
        { "docker",  cli_docker,  "the docker CLI subset OpenClaw uses (also: sbx installed as 'docker')" },
};

static void usage(FILE *f) {
        fprintf(f, "usage: sbx COMMAND [OPTIONS] [-- CMD [ARGS...]]\n\ncommands:\n");
        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
                fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
        fprintf(f, "\n'sbx COMMAND --help' describes each command.\n"
                   "Exit status: the command's own; 128+N if killed by signal N;\n"
                   "2 bad usage or config; 125 sbx failed; 126 not executable or refused;\n"
                   "127 not found.\n");
}

int main(int argc, char **argv) {
        sbx_plan_set_container_opener(sbx_sandbox_open_ns);
        /* Installed or symlinked as "docker": the docker-compatible entry point. */
        if (argc > 0 && !strcmp(basename(argv[0]), "docker"))
                return cli_docker(argc, argv);
        if (argc < 2) {
                usage(stderr);
                return SBX_EXIT_USAGE;
        }
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
                usage(stdout);
                return 0;
        }
        if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
                printf("sbx %s\n", SBX_VERSION);
                return 0;
        }
        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
                if (!strcmp(argv[1], commands[i].name))
                        return commands[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "sbx: unknown command '%s' (see 'sbx --help')\n", argv[1]);
        return SBX_EXIT_USAGE;
}

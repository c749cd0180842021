/* SPDX-License-Identifier: MIT */
/* sbx: argv -> command dispatch. The only place that returns an exit status
 * to the OS; every command front end lives in runtime/cli-*.c. */
#include <json-c/json.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* ---- --json errors. The rule (README "Exit status"): a command that has a
 * --json option, given --json (or its -j) anywhere before "--", that exits
 * non-zero without having printed anything on stdout (a usage error found
 * before --json was parsed, a missing sandbox, a failure), prints one JSON
 * object on stdout after its message on stderr:
 *   {"error": true, "code": "USAGE"|"NOT_FOUND"|"FAILED"|"EXIT_N",
 *    "exitCode": N, "message": "<the stderr text, without 'sbx CMD: '>"}
 * explain/check print their own (with the config's issues) and keep them.
 * stderr is passed through as it is written; stdout only counted. */
static struct {
        FILE *err, *out;        /* the real streams */
        char text[2048];        /* what was written on stderr (its start) */
        size_t len;
        size_t out_bytes;
} jerr;

static ssize_t err_write(void *c, const char *buf, size_t n) {
        size_t k = n < sizeof(jerr.text) - 1 - jerr.len ? n : sizeof(jerr.text) - 1 - jerr.len;

        (void) c;
        memcpy(jerr.text + jerr.len, buf, k);
        jerr.len += k;
        return (ssize_t) fwrite(buf, 1, n, jerr.err);
}

static ssize_t out_write(void *c, const char *buf, size_t n) {
        (void) c;
        jerr.out_bytes += n;
        return (ssize_t) fwrite(buf, 1, n, jerr.out);
}

static bool wants_json(const sbx_cli_cmd *cmd, int argc, char **argv) {
        const sbx_cli_opt *o;
        char short_j = 0;
        bool has = false;

        for (sbx_cli_iter it = {}; cmd && (o = sbx_cli_next_opt(cmd, &it));)
                if (o->name && !strcmp(o->name, "json")) {
                        has = true;
                        short_j = (char) o->short_name;
                }
        for (int i = 1; has && i < argc && strcmp(argv[i], "--"); i++)
                if (!strcmp(argv[i], "--json") || (short_j && argv[i][0] == '-' && argv[i][1] == short_j &&
                                                   !argv[i][2]))
                        return true;
        return false;
}

/* The command (or sub-command: "rootfs ls") whose options argv has. */
static const sbx_cli_cmd *command_of(int argc, char **argv) {
        char name[128];

        if (argc > 2) {
                snprintf(name, sizeof(name), "%s %s", argv[1], argv[2]);
                for (size_t i = 0; sbx_cli_commands[i]; i++)
                        if (!strcmp(sbx_cli_commands[i]->name, name))
                                return sbx_cli_commands[i];
        }
        for (size_t i = 0; sbx_cli_commands[i]; i++)
                if (!strcmp(sbx_cli_commands[i]->name, argv[1]))
                        return sbx_cli_commands[i];
        return NULL;
}

static void json_streams_begin(void) {
        static const cookie_io_functions_t err_io = { .write = err_write }, out_io = { .write = out_write };
        FILE *e = fopencookie(NULL, "w", err_io), *o = fopencookie(NULL, "w", out_io);

        if (!e || !o) {
                if (e)
                        fclose(e);
                if (o)
                        fclose(o);
                return;
        }
        jerr.err = stderr;
        jerr.out = stdout;
        setvbuf(e, NULL, _IONBF, 0);
        stderr = e;
        stdout = o;
}

static int json_streams_end(int status) {
        if (!jerr.err)
                return status;
        fflush(stdout);
        fflush(stderr);
        stdout = jerr.out;
        stderr = jerr.err;
        if (status != 0 && jerr.out_bytes == 0) {
                json_object *o = json_object_new_object();
                char code[16], *msg = jerr.text, *p;
                const char *text;

                jerr.text[jerr.len] = '\0';
                /* "sbx CMD: " of the first line */
                if (!strncmp(msg, "sbx ", 4) && (p = strstr(msg, ": ")) && !memchr(msg, '\n', (size_t) (p - msg)))
                        msg = p + 2;
                while (jerr.len && jerr.text[jerr.len - 1] == '\n')
                        jerr.text[--jerr.len] = '\0';
                snprintf(code, sizeof(code), "EXIT_%d", status);
                json_object_object_add(o, "error", json_object_new_boolean(1));
                json_object_object_add(o, "code", json_object_new_string(status == SBX_EXIT_USAGE ? "USAGE"
                                                                         : status == 1           ? "NOT_FOUND"
                                                                         : status == SBX_EXIT_FAILURE ? "FAILED"
                                                                                                      : code));
                json_object_object_add(o, "exitCode", json_object_new_int(status));
                json_object_object_add(o, "message", json_object_new_string(msg));
                text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                 JSON_C_TO_STRING_NOSLASHESCAPE);
                _cleanup_free_ char *safe = sbx_json_terminal_safe(text);
                puts(safe ? safe : "{\"error\": true}");
                json_object_put(o);
        }
        fflush(stdout);
        return status;
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
                fprintf(stderr, "sbx: cannot put a pipe between a sandbox and the file on stdin/stdout/stderr: %s\n",
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
                bool json = false;
                for (int i = 2; i < argc; i++)
                        json = json || !strcmp(argv[i], "--json");
                if (argc > 2 + (argc > 2 && !strcmp(argv[2], "--json"))) {
                        if (json)
                                json_streams_begin();
                        fprintf(stderr, "sbx %s: unexpected argument '%s'\n", argv[1],
                                argv[2 + !strcmp(argv[2], "--json")]);
                        return json_streams_end(SBX_EXIT_USAGE);
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
        if (cmd && wants_json(command_of(argc, argv), argc, argv)) {
                json_streams_begin();
                return json_streams_end(cmd->fn(argc - 1, argv + 1));
        }
        if (cmd)
                return cmd->fn(argc - 1, argv + 1);
        fprintf(stderr, "sbx: unknown command '%s' (see 'sbx --help')\n", argv[1]);
        return SBX_EXIT_USAGE;
}

/* SPDX-License-Identifier: MIT */
/* sbx-gendoc: run by the build (meson custom_target) to write the man pages
 * and the shell completion from the option tables the parsers use, so
 * --help, man and completion cannot drift apart. Not installed.
 *
 *   sbx-gendoc man PAGE FILE     PAGE: sbx, sbx-run, sbx-sandbox, sbx-policy, sbx-rootfs,
 *                                sbx-doctor, sbx-network, sbx-docker
 *   sbx-gendoc bash FILE         bash completion for sbx
 *   sbx-gendoc zsh FILE          zsh completion (_sbx)
 *   sbx-gendoc options           every command's options, one a line: COMMAND<TAB>--NAME<TAB>ARG (- for none)<TAB>HELP
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "docker/docker.h"
#include "build-config.h"

static const sbx_cli_page pages[] = {
        { "sbx", "a native Linux sandbox runtime for AI agent gateways",
          "sbx runs the tools an agent gateway such as OpenClaw calls in sandboxes built directly from kernel "
          "primitives: one clone3 with new user, mount, pid, net, ipc, uts and cgroup namespaces, a read-only "
          "root, an overlay /workspace, no capabilities, no_new_privs, a seccomp filter and Landlock rules. It "
          "reads OpenClaw's own openclaw.json with the same semantics, so the gateway and sbx agree on which "
          "sessions are sandboxed and what they may do.\n\n"
          "Each command has its own --help; the pages below describe them with every option.\n\n"
          "Installed as (or symlinked to) a program named docker, sbx behaves as the docker CLI subset "
          "OpenClaw uses (sbx-docker(1)); the install makes no such link. Likewise 'sbx oci' (or sbx named "
          "sbx-runc) is an OCI runtime with runc's command line ('sbx oci --help').\n\n"
          "Files and environment: persistent sandboxes live under the state root (--state-dir; default "
          "$XDG_RUNTIME_DIR/sbx; else /run/sbx as root where /run is a tmpfs, /dev/shm/sbx-$UID, /run/sbx as "
          "root, /tmp/sbx-$UID); images in $SBX_IMAGE_DIR, /var/lib/sbx/images as root, "
          "$XDG_DATA_HOME/sbx/images or ~/.local/share/sbx/images otherwise; default workspaces in "
          "$SBX_WORKSPACE_ROOT, $XDG_DATA_HOME/sbx/workspaces or ~/.local/share/sbx/workspaces. sbx-init, pid 1 of every persistent sandbox, is found next to sbx or "
          "in PREFIX/libexec/sbx. The seccomp profiles are built in; their JSON sources are installed in "
          "PREFIX/share/sbx/seccomp.\n\n"
          "Exit status: the command's own; 128+N if killed by signal N; 1 no such sandbox (or NAME exists, for "
          "create); 2 bad usage or config; 124 sbx run --timeout expired; 125 sbx failed; 126 not executable or "
          "refused; 127 not found.",
          "sbx-run(1), sbx-sandbox(1), sbx-policy(1), sbx-rootfs(1), sbx-doctor(1), sbx-network(1), "
          "sbx-docker(1)" },
        { "sbx-run", "run a command in a new sandbox", NULL,
          "sbx(1), sbx-sandbox(1), sbx-policy(1), sbx-rootfs(1)" },
        { "sbx-sandbox", "persistent sandboxes: create, exec, ls, inspect, logs, start, stop, rm, pause, "
          "unpause, prune, recreate, diff, commit, reset",
          "A persistent sandbox keeps its namespaces, cgroup and workspace between commands: sbx-init is its "
          "pid 1, every sbx exec joins it. NAME is a sandbox's name, id or id prefix.",
          "sbx(1), sbx-run(1), sbx-docker(1)" },
        { "sbx-policy", "OpenClaw policy: explain, check, migrate",
          "These commands read openclaw.json (JSON5) as OpenClaw 2026.9.6 does: --config FILE, else "
          "$OPENCLAW_CONFIG_PATH, $OPENCLAW_STATE_DIR/openclaw.json, ~/.openclaw/openclaw.json.",
          "sbx(1), sbx-run(1)" },
        { "sbx-rootfs", "build, import, list, inspect and remove images", NULL, "sbx(1), sbx-run(1)" },
        { "sbx-doctor", "report what this host supports", NULL, "sbx(1)" },
        { "sbx-network", "named networks with an egress allowlist", NULL, "sbx(1), sbx-run(1), sbx-docker(1)" },
        { "sbx-docker", "the docker CLI subset OpenClaw drives, on sbx sandboxes", NULL,
          "sbx(1), sbx-sandbox(1), sbx-rootfs(1)" },
};

#define MAX_CMDS 64

/* Every command: sbx's, then docker's. */
static size_t all_commands(const sbx_cli_cmd **out) {
        const sbx_cli_cmd *const *docker = sbx_docker_commands();
        size_t n = 0;

        for (size_t i = 0; sbx_cli_commands[i] && n < MAX_CMDS; i++)
                out[n++] = sbx_cli_commands[i];
        for (size_t i = 0; docker[i] && n < MAX_CMDS; i++)
                out[n++] = docker[i];
        out[n] = NULL;
        return n;
}

static int man(const char *name, FILE *f) {
        const sbx_cli_cmd *all[MAX_CMDS + 1], *sel[MAX_CMDS + 1];
        size_t n = all_commands(all), k = 0;

        for (size_t p = 0; p < sizeof(pages) / sizeof(pages[0]); p++) {
                if (strcmp(pages[p].name, name))
                        continue;
                if (!strcmp(name, "sbx")) {
                        sbx_cli_man_index(f, &pages[p], all, SBX_VERSION);
                        return 0;
                }
                for (size_t i = 0; i < n; i++)
                        if (!strcmp(all[i]->page, name))
                                sel[k++] = all[i];
                sel[k] = NULL;
                sbx_cli_man(f, &pages[p], sel, SBX_VERSION);
                return 0;
        }
        fprintf(stderr, "sbx-gendoc: no man page '%s'\n", name);
        return 2;
}

static void print_opt_line(const sbx_cli_cmd *c, const sbx_cli_opt *o) {
        printf("%s\t--%s\t%s\t%s\n", c->name, o->name, o->arg ? o->arg : "-", o->help ? o->help : "");
}

int main(int argc, char **argv) {
        const sbx_cli_cmd *all[MAX_CMDS + 1];
        FILE *f = stdout;
        int r = 0;

        all_commands(all);
        if (argc == 2 && !strcmp(argv[1], "options")) {
                for (size_t i = 0; all[i]; i++) {
                        const sbx_cli_opt *o;
                        for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(all[i], &it));)
                                print_opt_line(all[i], o);
                }
                return 0;
        }
        if (argc < 3 || (strcmp(argv[1], "man") && strcmp(argv[1], "bash") && strcmp(argv[1], "zsh")) ||
            (!strcmp(argv[1], "man") && argc != 4)) {
                fprintf(stderr, "usage: sbx-gendoc man PAGE FILE | bash FILE | zsh FILE | options\n");
                return 2;
        }
        f = fopen(argv[argc - 1], "we");
        if (!f) {
                perror(argv[argc - 1]);
                return 1;
        }
        if (!strcmp(argv[1], "man"))
                r = man(argv[2], f);
        else if (!strcmp(argv[1], "bash"))
                sbx_cli_bash_completion(f, "sbx", all);
        else
                sbx_cli_zsh_completion(f, "sbx", all);
        if (fclose(f) != 0) {
                perror(argv[argc - 1]);
                return 1;
        }
        return r;
}

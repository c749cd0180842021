/* SPDX-License-Identifier: MIT */
/* docker argv -> sbx_docker_args. Pure: no syscalls, no allocation (the
 * result points into argv), so it is cheap to fuzz. The flag table is the
 * whole accepted surface; anything else is an error naming it. */
#include <stdio.h>
#include <string.h>

#include "docker.h"
#include "util/util.h"

#define V(verb) (1u << (verb))

typedef struct flag_def {
        const char *name;         /* long name without "--" */
        char short_name;          /* 0: none */
        const char *arg;          /* the argument's name; NULL: a boolean */
        sbx_docker_flag flag;
        unsigned verbs;           /* bit mask of sbx_docker_verb */
        const char *help;         /* for --help, the man page (sbx-docker(1)) and completion */
        const char *values;       /* completion (cli.h's sbx_cli_opt.values) */
} flag_def;

#define CREATE V(SBX_DOCKER_CREATE)
#define EXEC V(SBX_DOCKER_EXEC)
#define ALL_VERBS ((1u << _SBX_DOCKER_VERB_MAX) - 1)

static const flag_def flags[] = {
        { "name", 0, "NAME", SBX_DF_NAME, CREATE, "the sandbox's name (default: generated)", NULL },
        { "init", 0, NULL, SBX_DF_INIT, CREATE, "accepted: sbx-init is always pid 1 of a sandbox", NULL },
        { "label", 'l', "KEY=VALUE", SBX_DF_LABEL, CREATE, "a label (repeatable; openclaw.configHash is also the "
          "sandbox's configuration hash)", NULL },
        { "read-only", 0, NULL, SBX_DF_READ_ONLY, CREATE, "a read-only root (--read-only=false: a writable one)",
          NULL },
        { "tmpfs", 0, "PATH[:OPTIONS]", SBX_DF_TMPFS, CREATE, "a tmpfs at PATH (size=, mode=; noexec unless exec, as Docker)", NULL },
        { "network", 0, "MODE", SBX_DF_NETWORK, CREATE, "none, bridge (root: veth + NAT; otherwise pasta), "
          "container:NAME or NAME, a network of 'docker network'/'sbx network'; host is refused",
          "none bridge container:" },
        { "net", 0, "MODE", SBX_DF_NETWORK, CREATE, "the same as --network", "none bridge container:" },
        { "user", 'u', "UID[:GID]", SBX_DF_USER, CREATE | EXEC, "numeric user inside", NULL },
        { "cap-drop", 0, "CAP", SBX_DF_CAP_DROP, CREATE, "ALL or a capability name (unknown: exit 125); every one holds: a "
          "sandbox has no capabilities at all", NULL },
        { "security-opt", 0, "OPT", SBX_DF_SECURITY_OPT, CREATE, "no-new-privileges (always on), seccomp=FILE (a "
          "Docker-format profile; unconfined is refused), apparmor=unconfined, or apparmor=PROFILE on a host "
          "without AppArmor (docker ignores it there; sbx loads no AppArmor profile)",
          NULL },
        { "dns", 0, "ADDR", SBX_DF_DNS, CREATE, "a nameserver line in /etc/resolv.conf (repeatable)", NULL },
        { "add-host", 0, "HOST:IP", SBX_DF_ADD_HOST, CREATE, "a line in /etc/hosts (repeatable)", NULL },
        { "pids-limit", 0, "N", SBX_DF_PIDS_LIMIT, CREATE, "at most N processes and threads (cgroup v2; v1/hybrid as root)", NULL },
        { "memory", 'm', "SIZE", SBX_DF_MEMORY, CREATE, "memory limit (cgroup v2; v1/hybrid as root)", NULL },
        { "memory-swap", 0, "SIZE", SBX_DF_MEMORY_SWAP, CREATE, "memory + swap limit (-1: unlimited swap)", NULL },
        { "cpus", 0, "N", SBX_DF_CPUS, CREATE, "CPU time, in CPUs (cgroup v2; v1/hybrid as root)", NULL },
        { "ulimit", 0, "NAME=SOFT[:HARD]", SBX_DF_ULIMIT, CREATE, "a resource limit (repeatable)", NULL },
        { "workdir", 'w', "DIR", SBX_DF_WORKDIR, CREATE | EXEC, "working directory inside (absolute)", NULL },
        { "volume", 'v', "SRC:DST[:ro|rw|z|Z]", SBX_DF_VOLUME, CREATE, "bind SRC at DST (repeatable; z/Z are "
          "accepted and ignored)", "@file" },
        { "env", 'e', "KEY=VALUE", SBX_DF_ENV, CREATE | EXEC, "set a variable (repeatable; a bare KEY copies "
          "ours)", NULL },
        { "env-file", 0, "FILE", SBX_DF_ENV_FILE, CREATE | EXEC, "KEY=VALUE lines", "@file" },
        { "hostname", 'h', "NAME", SBX_DF_HOSTNAME, CREATE, "hostname inside", NULL },
        { "interactive", 'i', NULL, SBX_DF_INTERACTIVE, CREATE | EXEC, "exec: pass stdin through (a terminal: as a pipe "
          "sbx relays while the command runs, as docker's; create: accepted)", NULL },
        { "tty", 't', NULL, SBX_DF_TTY, CREATE | EXEC, "exec: a terminal from the sandbox's devpts (create: "
          "accepted)", NULL },
        { "detach", 'd', NULL, SBX_DF_DETACH, EXEC, "refused: sbx exec always waits for the command", NULL },
        { "format", 'f', "FORMAT", SBX_DF_FORMAT,
          V(SBX_DOCKER_INSPECT) | V(SBX_DOCKER_IMAGE_INSPECT) | V(SBX_DOCKER_VERSION),
          "render each object with a Go template, as docker does ({{.State.Running}}, {{json .Mounts}}, ...)",
          NULL },
        { "format", 0, "FORMAT", SBX_DF_FORMAT, V(SBX_DOCKER_PS), "render each sandbox with a Go template", NULL },
        { "type", 0, "TYPE", SBX_DF_TYPE, V(SBX_DOCKER_INSPECT), "container (the only type sbx has)", "container" },
        { "force", 'f', NULL, SBX_DF_FORCE, V(SBX_DOCKER_RM), "remove running sandboxes too; a missing one is "
          "not an error", NULL },
        { "all", 'a', NULL, SBX_DF_ALL, V(SBX_DOCKER_PS), "stopped sandboxes too", NULL },
        { "filter", 0, "KIND=VALUE", SBX_DF_FILTER, V(SBX_DOCKER_PS), "only sandboxes that match (repeatable): "
          "label=KEY[=VALUE], name=REGEX, id=PREFIX, status=created|running|paused|exited", NULL },
        { "quiet", 'q', NULL, SBX_DF_QUIET, V(SBX_DOCKER_PS), "ids only", NULL },
        { "no-trunc", 0, NULL, SBX_DF_NO_TRUNC, V(SBX_DOCKER_PS), "full ids and commands", NULL },
        { "time", 't', "SECONDS", SBX_DF_TIME, V(SBX_DOCKER_STOP), "seconds to wait after SIGTERM before SIGKILL "
          "(default 10)", NULL },
        { "help", 0, NULL, SBX_DF_HELP, ALL_VERBS, "show this help and exit", NULL },
};

static const char *const verb_names[_SBX_DOCKER_VERB_MAX] = {
        [SBX_DOCKER_CREATE] = "create",   [SBX_DOCKER_START] = "start",
        [SBX_DOCKER_EXEC] = "exec",       [SBX_DOCKER_INSPECT] = "inspect",
        [SBX_DOCKER_IMAGE_INSPECT] = "image inspect",
        [SBX_DOCKER_RM] = "rm",           [SBX_DOCKER_PS] = "ps",
        [SBX_DOCKER_PAUSE] = "pause",     [SBX_DOCKER_UNPAUSE] = "unpause",
        [SBX_DOCKER_PORT] = "port",       [SBX_DOCKER_STOP] = "stop",
        [SBX_DOCKER_VERSION] = "version", [SBX_DOCKER_HELP] = "help",
};

static const struct verb_doc {
        const char *usage, *summary, *text, *positional;
} verb_docs[_SBX_DOCKER_VERB_MAX] = {
        [SBX_DOCKER_CREATE] = { "[OPTIONS] IMAGE [CMD...]", "create a sandbox (not started)",
                                "Create a persistent sandbox whose root is IMAGE (an image of 'sbx rootfs'; "
                                "its Env are the defaults), not started, and print its id. Resource limits are enforced or create "
                                "fails (exit 125); SBX_DOCKER_LIMITS=best-effort runs without the ones this "
                                "host cannot enforce.", "@image" },
        [SBX_DOCKER_START] = { "NAME...", "start created or stopped sandboxes", NULL, "@sandbox" },
        [SBX_DOCKER_EXEC] = { "[OPTIONS] NAME CMD [ARGS...]", "run a command in a running sandbox",
                              "Run CMD in the sandbox NAME, as sbx exec; exit status: CMD's.", "@sandbox" },
        [SBX_DOCKER_INSPECT] = { "[-f FORMAT] [--type container] NAME...", "show sandboxes as docker inspect does",
                                 NULL, "@sandbox" },
        [SBX_DOCKER_IMAGE_INSPECT] = { "[-f FORMAT] IMAGE...", "show images of 'sbx rootfs' as docker does",
                                       NULL, "@image" },
        [SBX_DOCKER_RM] = { "[-f] NAME...", "remove sandboxes (their workspace dirs stay)", NULL, "@sandbox" },
        [SBX_DOCKER_PS] = { "[-a] [--filter KIND=VALUE] [--format FORMAT] [-q] [--no-trunc]", "list sandboxes",
                            "As docker ps: newest first, --format with {{.ID}} {{.Names}} {{.Image}} {{.Command}} "
                            "{{.CreatedAt}} {{.RunningFor}} {{.State}} {{.Status}} {{.Labels}} {{.Label \"K\"}} "
                            "{{.Networks}} {{.Ports}} {{.Mounts}}, 'table ...' with a header row, {{json .}}.",
                            "" },
        [SBX_DOCKER_PAUSE] = { "NAME...", "suspend every process of sandboxes", NULL, "@sandbox" },
        [SBX_DOCKER_UNPAUSE] = { "NAME...", "resume paused sandboxes", NULL, "@sandbox" },
        [SBX_DOCKER_PORT] = { "NAME [PRIVATE_PORT[/PROTO]]", "list published ports (sbx publishes none)",
                              "Docker's answer for a container without published ports: nothing (exit 0) for "
                              "NAME alone, 'No public port' (exit 1) for one port; an unknown NAME: 'No such "
                              "container' (exit 1).", "@sandbox" },
        [SBX_DOCKER_STOP] = { "[-t SECONDS] NAME...", "stop running sandboxes",
                              "SIGTERM to each sandbox's processes, SIGKILL after SECONDS (-t 0: SIGKILL at once, exit "
                              "code 137, as docker), as sbx stop; a sandbox "
                              "that is not running: nothing to do (exit 0, as docker).", "@sandbox" },
        [SBX_DOCKER_VERSION] = { "[-f FORMAT]", "print client and server versions", NULL, "" },
};

const sbx_cli_cmd *const *sbx_docker_commands(void) {
        static sbx_cli_opt opts[_SBX_DOCKER_VERB_MAX][ELEMENTSOF(flags) + 1];
        static sbx_cli_cmd cmds[_SBX_DOCKER_VERB_MAX];
        static char names[_SBX_DOCKER_VERB_MAX][32];
        static const sbx_cli_cmd *list[_SBX_DOCKER_VERB_MAX + 2];
        size_t n = 0;

        if (list[0])
                return list;
        list[n++] = &sbx_cmd_docker;
        for (int v = 0; v < _SBX_DOCKER_VERB_MAX; v++) {
                size_t k = 0;
                if (v == SBX_DOCKER_HELP)
                        continue;
                for (size_t i = 0; i < ELEMENTSOF(flags); i++)
                        if (flags[i].verbs & V(v))
                                opts[v][k++] = (sbx_cli_opt) { flags[i].name, flags[i].short_name, flags[i].arg,
                                                               (int) flags[i].flag, flags[i].help, flags[i].values };
                snprintf(names[v], sizeof(names[v]), "docker %s", verb_names[v]);
                cmds[v] = (sbx_cli_cmd) { .name = names[v], .page = "sbx-docker", .usage = verb_docs[v].usage,
                                          .summary = verb_docs[v].summary, .text = verb_docs[v].text,
                                          .opts = { opts[v], NULL }, .positional = verb_docs[v].positional };
                list[n++] = &cmds[v];
        }
        list[n++] = &sbx_cmd_docker_network;   /* cli-network.c: sbx network's records */
        return list;
}

const sbx_cli_cmd *sbx_docker_verb_command(sbx_docker_verb verb) {
        const sbx_cli_cmd *const *list = sbx_docker_commands();
        char name[32];

        if (verb < 0 || verb >= _SBX_DOCKER_VERB_MAX || verb == SBX_DOCKER_HELP)
                return NULL;
        snprintf(name, sizeof(name), "docker %s", verb_names[verb]);
        for (size_t i = 0; list[i]; i++)
                if (!strcmp(list[i]->name, name))
                        return list[i];
        return NULL;
}

const char *sbx_docker_flag_name(sbx_docker_flag f) {
        for (size_t i = 0; i < ELEMENTSOF(flags); i++)
                if (flags[i].flag == f)
                        return flags[i].name;
        return "?";
}

static const flag_def *find_long(const char *name, size_t len, sbx_docker_verb verb) {
        for (size_t i = 0; i < ELEMENTSOF(flags); i++)
                if ((flags[i].verbs & V(verb)) && strlen(flags[i].name) == len && !strncmp(flags[i].name, name, len))
                        return &flags[i];
        return NULL;
}

static const flag_def *find_short(char c, sbx_docker_verb verb) {
        for (size_t i = 0; i < ELEMENTSOF(flags); i++)
                if ((flags[i].verbs & V(verb)) && flags[i].short_name == c)
                        return &flags[i];
        return NULL;
}

static int push(sbx_docker_args *a, sbx_docker_flag f, const char *value, sbx_error *reterr) {
        if (a->n_opts >= SBX_DOCKER_OPTS_MAX)
                return sbx_error_set(reterr, -E2BIG, "docker %s: more than %d options", verb_names[a->verb],
                                     SBX_DOCKER_OPTS_MAX);
        a->opts[a->n_opts++] = (sbx_docker_opt) { .flag = f, .value = value };
        return 0;
}

/* A boolean given as --flag=VALUE: only true/false (docker's pflag also
 * takes 1/0). */
static int bool_value(const char *v, const char **ret) {
        if (!strcmp(v, "true") || !strcmp(v, "1"))
                *ret = "true";
        else if (!strcmp(v, "false") || !strcmp(v, "0"))
                *ret = "false";
        else
                return -EINVAL;
        return 0;
}

/* "--name[=value]" at argv[*i]. */
static int parse_long(sbx_docker_args *a, int argc, char **argv, int *i, sbx_error *reterr) {
        const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
        size_t len = eq ? (size_t) (eq - arg) : strlen(arg);
        const flag_def *d = find_long(arg, len, a->verb);
        const char *value;

        if (!d)
                return sbx_error_set(reterr, -EINVAL, "docker %s: unknown flag: --%.*s (sbx implements the subset "
                                     "OpenClaw uses; see 'sbx docker %s --help')",
                                     verb_names[a->verb], (int) len, arg, verb_names[a->verb]);
        if (!d->arg) {
                if (eq && bool_value(eq + 1, &value) < 0)
                        return sbx_error_set(reterr, -EINVAL, "docker %s: --%s: invalid boolean '%s'",
                                             verb_names[a->verb], d->name, eq + 1);
                return push(a, d->flag, eq ? value : "true", reterr);
        }
        if (eq)
                value = eq + 1;
        else if (*i + 1 < argc)
                value = argv[++*i];
        else
                return sbx_error_set(reterr, -EINVAL, "docker %s: flag needs an argument: --%s", verb_names[a->verb],
                                     d->name);
        return push(a, d->flag, value, reterr);
}

/* "-abc" or "-fVALUE" or "-f VALUE" at argv[*i]. */
static int parse_short(sbx_docker_args *a, int argc, char **argv, int *i, sbx_error *reterr) {
        const char *p = argv[*i] + 1;

        for (; *p; p++) {
                const flag_def *d = find_short(*p, a->verb);
                int r;

                if (!d)
                        return sbx_error_set(reterr, -EINVAL, "docker %s: unknown shorthand flag: '%c' in %s",
                                             verb_names[a->verb], *p, argv[*i]);
                if (!d->arg) {
                        r = push(a, d->flag, "true", reterr);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (p[1])
                        return push(a, d->flag, p[1] == '=' ? p + 2 : p + 1, reterr);
                if (*i + 1 >= argc)
                        return sbx_error_set(reterr, -EINVAL, "docker %s: flag needs an argument: '%c' in %s",
                                             verb_names[a->verb], *p, argv[*i]);
                return push(a, d->flag, argv[++*i], reterr);
        }
        return 0;
}

static int parse_verb(int argc, char **argv, sbx_docker_verb *ret, int *ret_next, sbx_error *reterr) {
        const char *v = argc > 0 ? argv[0] : NULL;

        *ret_next = 1;
        if (!v || !strcmp(v, "help") || !strcmp(v, "--help") || !strcmp(v, "-h")) {
                *ret = SBX_DOCKER_HELP;
                return 0;
        }
        if (!strcmp(v, "image") || !strcmp(v, "container")) {
                const char *sub = argc > 1 ? argv[1] : "";
                *ret_next = 2;
                if (!strcmp(v, "image") && !strcmp(sub, "inspect")) {
                        *ret = SBX_DOCKER_IMAGE_INSPECT;
                        return 0;
                }
                if (!strcmp(v, "container"))
                        for (int k = 0; k < _SBX_DOCKER_VERB_MAX; k++)
                                if (k != SBX_DOCKER_IMAGE_INSPECT && k != SBX_DOCKER_VERSION &&
                                    k != SBX_DOCKER_HELP && !strcmp(sub, verb_names[k])) {
                                        *ret = (sbx_docker_verb) k;
                                        return 0;
                                }
                return sbx_error_set(reterr, -EINVAL,
                                     "docker: unknown command: \"%s %s\" (sbx implements create, start, exec, "
                                     "inspect, image inspect, rm, ps, pause, unpause, stop, port, version, network)",
                                     v, sub);
        }
        for (int k = 0; k < _SBX_DOCKER_VERB_MAX; k++)
                if (k != SBX_DOCKER_IMAGE_INSPECT && !strcmp(v, verb_names[k])) {
                        *ret = (sbx_docker_verb) k;
                        return 0;
                }
        return sbx_error_set(reterr, -EINVAL,
                             "docker: unknown command: \"%s\" (sbx implements create, start, exec, inspect, "
                             "image inspect, rm, ps, pause, unpause, stop, port, version, network)",
                             v);
}

int sbx_docker_parse(int argc, char **argv, sbx_docker_args *ret, sbx_error *reterr) {
        bool stop_at_pos;
        int i, r;

        *ret = (sbx_docker_args) { .verb = _SBX_DOCKER_VERB_INVALID };
        r = parse_verb(argc, argv, &ret->verb, &i, reterr);
        if (r < 0)
                return r;
        /* create IMAGE CMD... and exec CONTAINER CMD...: the rest is the command's. */
        stop_at_pos = ret->verb == SBX_DOCKER_CREATE || ret->verb == SBX_DOCKER_EXEC;
        for (; i < argc; i++) {
                const char *arg = argv[i];

                if (!strcmp(arg, "--")) {
                        i++;
                        break;
                }
                if (arg[0] == '-' && arg[1] == '-' && arg[2])
                        r = parse_long(ret, argc, argv, &i, reterr);
                else if (arg[0] == '-' && arg[1])
                        r = parse_short(ret, argc, argv, &i, reterr);
                else if (stop_at_pos)
                        break;
                else if (ret->n_pos >= SBX_DOCKER_OPTS_MAX)
                        r = sbx_error_set(reterr, -E2BIG, "docker %s: more than %d arguments",
                                          verb_names[ret->verb], SBX_DOCKER_OPTS_MAX);
                else {
                        /* Interspersed positionals (inspect NAME -f X): collected. */
                        ret->posv[ret->n_pos++] = argv[i];
                        ret->pos = ret->posv;
                        r = 0;
                }
                if (r < 0)
                        return r;
        }
        /* create/exec: everything from the first positional on, verbatim. */
        if (i < argc) {
                if (ret->n_pos > 0)
                        return sbx_error_set(reterr, -EINVAL, "docker %s: '--' after a positional argument",
                                             verb_names[ret->verb]);
                ret->pos = &argv[i];
                ret->n_pos = (size_t) (argc - i);
        }
        return 0;
}
const char *sbx_docker_opt_last(const sbx_docker_args *a, sbx_docker_flag f) {
        for (size_t i = a->n_opts; i > 0; i--)
                if (a->opts[i - 1].flag == f)
                        return a->opts[i - 1].value;
        return NULL;
}

bool sbx_docker_opt_has(const sbx_docker_args *a, sbx_docker_flag f) {
        const char *v = sbx_docker_opt_last(a, f);
        return v && strcmp(v, "false");
}

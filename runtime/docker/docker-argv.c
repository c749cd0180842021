/* SPDX-License-Identifier: MIT */
/* docker argv -> sbx_docker_args. Pure: no syscalls, no allocation (the
 * result points into argv), so it is cheap to fuzz. The flag table is the
 * whole accepted surface; anything else is an error naming it. */
#include <string.h>

#include "docker.h"
#include "util/util.h"

#define V(verb) (1u << (verb))

typedef struct flag_def {
        const char *name;         /* long name without "--" */
        char short_name;          /* 0: none */
        bool takes_arg;
        sbx_docker_flag flag;
        unsigned verbs;           /* bit mask of sbx_docker_verb */
} flag_def;

#define CREATE V(SBX_DOCKER_CREATE)
#define EXEC V(SBX_DOCKER_EXEC)
#define ALL_VERBS ((1u << _SBX_DOCKER_VERB_MAX) - 1)

static const flag_def flags[] = {
        { "name", 0, true, SBX_DF_NAME, CREATE },
        { "init", 0, false, SBX_DF_INIT, CREATE },
        { "label", 'l', true, SBX_DF_LABEL, CREATE },
        { "read-only", 0, false, SBX_DF_READ_ONLY, CREATE },
        { "tmpfs", 0, true, SBX_DF_TMPFS, CREATE },
        { "network", 0, true, SBX_DF_NETWORK, CREATE },
        { "net", 0, true, SBX_DF_NETWORK, CREATE },
        { "user", 'u', true, SBX_DF_USER, CREATE | EXEC },
        { "cap-drop", 0, true, SBX_DF_CAP_DROP, CREATE },
        { "security-opt", 0, true, SBX_DF_SECURITY_OPT, CREATE },
        { "dns", 0, true, SBX_DF_DNS, CREATE },
        { "add-host", 0, true, SBX_DF_ADD_HOST, CREATE },
        { "pids-limit", 0, true, SBX_DF_PIDS_LIMIT, CREATE },
        { "memory", 'm', true, SBX_DF_MEMORY, CREATE },
        { "memory-swap", 0, true, SBX_DF_MEMORY_SWAP, CREATE },
        { "cpus", 0, true, SBX_DF_CPUS, CREATE },
        { "ulimit", 0, true, SBX_DF_ULIMIT, CREATE },
        { "workdir", 'w', true, SBX_DF_WORKDIR, CREATE | EXEC },
        { "volume", 'v', true, SBX_DF_VOLUME, CREATE },
        { "env", 'e', true, SBX_DF_ENV, CREATE | EXEC },
        { "env-file", 0, true, SBX_DF_ENV_FILE, CREATE | EXEC },
        { "hostname", 'h', true, SBX_DF_HOSTNAME, CREATE },
        { "interactive", 'i', false, SBX_DF_INTERACTIVE, CREATE | EXEC },
        { "tty", 't', false, SBX_DF_TTY, CREATE | EXEC },
        { "detach", 'd', false, SBX_DF_DETACH, EXEC },
        { "format", 'f', true, SBX_DF_FORMAT,
          V(SBX_DOCKER_INSPECT) | V(SBX_DOCKER_IMAGE_INSPECT) | V(SBX_DOCKER_VERSION) },
        { "format", 0, true, SBX_DF_FORMAT, V(SBX_DOCKER_PS) },
        { "type", 0, true, SBX_DF_TYPE, V(SBX_DOCKER_INSPECT) },
        { "force", 'f', false, SBX_DF_FORCE, V(SBX_DOCKER_RM) },
        { "all", 'a', false, SBX_DF_ALL, V(SBX_DOCKER_PS) },
        { "filter", 0, true, SBX_DF_FILTER, V(SBX_DOCKER_PS) },
        { "quiet", 'q', false, SBX_DF_QUIET, V(SBX_DOCKER_PS) },
        { "help", 0, false, SBX_DF_HELP, ALL_VERBS },
};

static const char *const verb_names[_SBX_DOCKER_VERB_MAX] = {
        [SBX_DOCKER_CREATE] = "create",   [SBX_DOCKER_START] = "start",
        [SBX_DOCKER_EXEC] = "exec",       [SBX_DOCKER_INSPECT] = "inspect",
        [SBX_DOCKER_IMAGE_INSPECT] = "image inspect",
        [SBX_DOCKER_RM] = "rm",           [SBX_DOCKER_PS] = "ps",
        [SBX_DOCKER_PAUSE] = "pause",     [SBX_DOCKER_UNPAUSE] = "unpause",
        [SBX_DOCKER_VERSION] = "version", [SBX_DOCKER_HELP] = "help",
};

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
        if (!d->takes_arg) {
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
                if (!d->takes_arg) {
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
                                     "inspect, image inspect, rm, ps, pause, unpause, version)",
                                     v, sub);
        }
        for (int k = 0; k < _SBX_DOCKER_VERB_MAX; k++)
                if (k != SBX_DOCKER_IMAGE_INSPECT && !strcmp(v, verb_names[k])) {
                        *ret = (sbx_docker_verb) k;
                        return 0;
                }
        return sbx_error_set(reterr, -EINVAL,
                             "docker: unknown command: \"%s\" (sbx implements create, start, exec, inspect, "
                             "image inspect, rm, ps, pause, unpause, version)",
                             v);
}

int sbx_docker_parse(int argc, char **argv, sbx_docker_args *ret, sbx_error *reterr) {
        bool stop_at_pos;
        int i, r;

        *ret = (sbx_docker_args) {};
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

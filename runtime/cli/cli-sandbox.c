/* SPDX-License-Identifier: MIT */
/* Front ends for persistent sandboxes: sbx create, exec, ls, start, stop, rm,
 * pause, unpause, prune, recreate, diff, commit, reset, and sbx run --name
 * (create on first use, exec afterwards). Options -> sandbox.h calls ->
 * printed results. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "util/util.h"
#include "policy/policy.h"
#include "agent/agent.h"
#include "sandbox/sandbox.h"

#define SANDBOX_OPT_BASE 1000

enum {
        OPT_NAME = SANDBOX_OPT_BASE, OPT_LABEL, OPT_WS_MODE, OPT_CONFIG_HASH, OPT_IMAGE, OPT_NO_START,
        OPT_WS_ROOT, OPT_SB_STATE_DIR, OPT_RM, OPT_ENV_FILE, OPT_SCOPE, OPT_AGENT, OPT_SESSION,
};

static const struct option sandbox_options[] = {
        { "name", required_argument, NULL, OPT_NAME },
        { "label", required_argument, NULL, OPT_LABEL },
        { "workspace-mode", required_argument, NULL, OPT_WS_MODE },
        { "config-hash", required_argument, NULL, OPT_CONFIG_HASH },
        { "image", required_argument, NULL, OPT_IMAGE },
        { "no-start", no_argument, NULL, OPT_NO_START },
        { "workspace-root", required_argument, NULL, OPT_WS_ROOT },
        { "rm", no_argument, NULL, OPT_RM },
        { "env-file", required_argument, NULL, OPT_ENV_FILE },
        { "scope", required_argument, NULL, OPT_SCOPE },
        {}
};

static int fail(const char *cmd, const sbx_error *e, int status) {
        char buf[SBX_ERROR_MSG_MAX + 64];

        fprintf(stderr, "sbx %s: %s\n", cmd, sbx_error_text(e, buf, sizeof(buf)));
        return status;
}

static int errno_status(int r) {
        return r == -EINVAL ? SBX_EXIT_USAGE : r == -ENOENT ? 1 : SBX_EXIT_FAILURE;
}

static int set_state_dir(const char *dir, const char *cmd) {
        char buf[PATH_MAX];
        sbx_error err = {};

        if (dir[0] != '/') {
                fprintf(stderr, "sbx %s: --state-dir '%s': must be absolute\n", cmd, dir);
                return SBX_EXIT_USAGE;
        }
        snprintf(buf, sizeof(buf), "%s/sandboxes", dir);
        if (sbx_sandbox_root_set(buf, &err) < 0)
                return fail(cmd, &err, SBX_EXIT_USAGE);
        return 0;
}

/* "--state-dir DIR" (the same as sbx run's) as the first option of any
 * sandbox command: sandboxes live in DIR/sandboxes. */
static int take_state_dir(int *argc, char ***argv, const char *cmd) {
        int r;

        if (*argc >= 3 && !strcmp((*argv)[1], "--state-dir")) {
                r = set_state_dir((*argv)[2], cmd);
                if (r)
                        return r;
                (*argv)[2] = (*argv)[0];
                *argv += 2;
                *argc -= 2;
        } else if (*argc >= 2 && !strncmp((*argv)[1], "--state-dir=", 12)) {
                r = set_state_dir((*argv)[1] + 12, cmd);
                if (r)
                        return r;
                (*argv)[1] = (*argv)[0];
                *argv += 1;
                *argc -= 1;
        }
        return 0;
}

/* ------------------------------------------------------------ create */

typedef struct create_args {
        sbx_run_config c;
        const char *name;
        sbx_label labels[64];
        size_t n_labels;
        sbx_sandbox_opts o;
        const char *ws_root;
        bool ws_access_set, rm;
        const char *scope, *agent, *session;
        sbx_sandbox_policy policy;    /* --scope: whose rules (strings not owned but config_path) */
} create_args;

static void create_args_done(create_args *a) {
        for (size_t i = 0; i < a->n_labels; i++)
                free(a->labels[i].key);
        free(a->policy.config_path);
        sbx_run_config_free(&a->c);
}

static int add_label(create_args *a, const char *spec, sbx_error *e) {
        const char *eq = strchr(spec, '=');

        if (a->n_labels >= ELEMENTSOF(a->labels))
                return sbx_error_set(e, -E2BIG, "--label: at most %zu labels", ELEMENTSOF(a->labels));
        if (eq == spec || !*spec)
                return sbx_error_set(e, -EINVAL, "--label '%s': expected KEY=VALUE", spec);
        a->labels[a->n_labels].key = eq ? strndup(spec, eq - spec) : strdup(spec);
        if (!a->labels[a->n_labels].key)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        a->labels[a->n_labels].value = (char *) (eq ? eq + 1 : "");
        a->n_labels++;
        return 0;
}

static int apply_sandbox_option(create_args *a, int opt, const char *arg, sbx_error *e) {
        switch (opt) {
        case OPT_NAME:
                a->name = arg;
                return 0;
        case OPT_LABEL:
                return add_label(a, arg, e);
        case OPT_WS_MODE:
                a->o.workspace_mode = sbx_workspace_mode_from_string(arg);
                if (a->o.workspace_mode < 0)
                        return sbx_error_set(e, -EINVAL, "--workspace-mode '%s': expected direct or overlay", arg);
                return 0;
        case OPT_CONFIG_HASH:
                a->o.config_hash = arg;
                return 0;
        case OPT_IMAGE:
                a->o.image = arg;
                return 0;
        case OPT_NO_START:
                a->o.start = false;
                return 0;
        case OPT_WS_ROOT:
                if (arg[0] != '/')
                        return sbx_error_set(e, -EINVAL, "--workspace-root '%s': must be absolute", arg);
                a->ws_root = arg;
                return 0;
        case OPT_RM:
                a->rm = true;
                return 0;
        case OPT_SCOPE:
                a->scope = arg;
                return 0;
        case OPT_AGENT:
                a->agent = arg;
                return 0;
        case OPT_SESSION:
                a->session = arg;
                return 0;
        default:
                return sbx_error_set(e, -EINVAL, "unknown option");
        }
}

/* run's options + ours, in one getopt_long table. */
static struct option *merged_options(int *ret_ws_access_val) {
        const struct option *run = sbx_cli_run_options();
        size_t n = 0, m = ELEMENTSOF(sandbox_options);
        struct option *all;

        while (run[n].name)
                n++;
        all = calloc(n + m, sizeof(*all));
        if (!all)
                return NULL;
        memcpy(all, run, n * sizeof(*all));
        memcpy(all + n, sandbox_options, m * sizeof(*all));
        for (size_t i = 0; i < n; i++)
                if (!strcmp(run[i].name, "workspace-access"))
                        *ret_ws_access_val = run[i].val;
        return all;
}

/* Parse [OPTIONS] up to the first non-option (or "--"). Returns optind or a
 * negative exit status. */
static int parse_create(create_args *a, int argc, char **argv, const char *cmd, void (*usage)(FILE *)) {
        _cleanup_free_ struct option *all = NULL;
        int ws_access_val = -1, opt, r;
        bool tty_set = false;
        sbx_error err = {};

        all = merged_options(&ws_access_val);
        if (!all)
                return -SBX_EXIT_FAILURE;
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "+he:w:u:", all, NULL)) != -1) {
                if (opt == 'h') {
                        usage(stdout);
                        return -256;
                }
                if (opt == '?' || opt == ':') {
                        fprintf(stderr, "sbx %s: bad option '%s' (see 'sbx %s --help')\n", cmd, argv[optind - 1], cmd);
                        return -SBX_EXIT_USAGE;
                }
                if (opt == ws_access_val)
                        a->ws_access_set = true;
                r = opt >= SANDBOX_OPT_BASE ? apply_sandbox_option(a, opt, optarg, &err)
                                            : sbx_cli_run_apply(&a->c, opt, optarg, &tty_set, &err);
                if (r < 0) {
                        if (r == -ENOMEM)
                                sbx_error_set(&err, r, "out of memory");
                        fail(cmd, &err, 0);
                        return -SBX_EXIT_USAGE;
                }
        }
        if (sbx_run_config_check_network(&a->c, &err) < 0) {
                sbx_error_wrap(&err, "--network");
                fail(cmd, &err, 0);
                return -SBX_EXIT_USAGE;
        }
        if (a->c.state_dir && set_state_dir(a->c.state_dir, cmd))
                return -SBX_EXIT_USAGE;
        return optind;
}

static int mkdir_p(const char *path) {
        char buf[PATH_MAX];

        snprintf(buf, sizeof(buf), "%s", path);
        for (char *s = buf + 1; *s; s++)
                if (*s == '/') {
                        *s = '\0';
                        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                                return -errno;
                        *s = '/';
                }
        return mkdir(buf, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* No --workspace: <workspace root>/<name>, persistent, mounted rw. */
static int default_workspace(create_args *a, sbx_error *e) {
        const char *root = a->ws_root ?: getenv("SBX_WORKSPACE_ROOT");
        const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
        char dir[PATH_MAX];
        int r;

        if (a->c.workspace) {
                if (!a->ws_access_set && a->o.workspace_mode == SBX_WORKSPACE_MODE_DIRECT)
                        a->c.workspace_access = SBX_WORKSPACE_RW;
                return 0;
        }
        if (root && root[0] == '/')
                snprintf(dir, sizeof(dir), "%s/%s", root, a->name);
        else if (xdg && xdg[0] == '/')
                snprintf(dir, sizeof(dir), "%s/sbx/workspaces/%s", xdg, a->name);
        else if (home && home[0] == '/')
                snprintf(dir, sizeof(dir), "%s/.local/share/sbx/workspaces/%s", home, a->name);
        else
                return sbx_error_set(e, -EINVAL, "no --workspace given and no $HOME for the default workspace root");
        r = mkdir_p(dir);
        if (r < 0)
                return sbx_error_set(e, r, "workspace '%s': create", dir);
        a->c.workspace = strdup(dir);
        if (!a->c.workspace)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (!a->ws_access_set && a->o.workspace_mode == SBX_WORKSPACE_MODE_DIRECT)
                a->c.workspace_access = SBX_WORKSPACE_RW;
        return 0;
}

static void create_usage(FILE *f) {
        fputs("usage: sbx create [OPTIONS] NAME\n"
              "\n"
              "Create a persistent sandbox NAME and start its init (pid 1 of its namespaces).\n"
              "Later commands run in it with 'sbx exec NAME -- CMD'. Prints the 64-hex id.\n"
              "Takes every sandbox option of 'sbx run' (see 'sbx run --help'; --timeout and\n"
              "--tty apply to sbx run only), and:\n"
              "  --workspace DIR           the directory behind /workspace (default:\n"
              "                            <workspace root>/NAME, created; kept by rm and prune)\n"
              "  --workspace-root DIR      default $SBX_WORKSPACE_ROOT, $XDG_DATA_HOME/sbx/workspaces,\n"
              "                            ~/.local/share/sbx/workspaces\n"
              "  --workspace-access MODE   rw (default for sbx create), ro, none (= overlay)\n"
              "  --workspace-mode MODE     direct (default) or overlay: /workspace is an overlay over\n"
              "                            DIR, writes stay in the sandbox until 'sbx commit'\n"
              "                            ('sbx diff' shows them, 'sbx reset' drops them)\n"
              "  --label KEY=VALUE         a label (repeatable; 'sbx ls --filter label=KEY=VALUE')\n"
              "  --config-hash HASH        record HASH as the configuration hash (default: computed)\n"
              "  --image REF               record the image reference (shown by ls)\n"
              "  --scope session|agent|shared [--agent ID] [--session KEY] [--config FILE]\n"
              "                            the sandbox OpenClaw would use for that scope (name, settings,\n"
              "                            labels) and the agent's rules for every exec in it (see 'sbx\n"
              "                            explain'); 'sbx inspect NAME' shows them and their hash\n"
              "  --no-start                only create the record (start with 'sbx start NAME')\n"
              "  --state-dir DIR           runtime state root (default $XDG_RUNTIME_DIR/sbx,\n"
              "                            /run/sbx as root, /tmp/sbx-$UID)\n"
              "Exit status: 0 created; 1 NAME exists; 2 bad usage; 125 sbx failed.\n",
              f);
}

static int scope_prepare(int argc, char **argv, create_args *a, sbx_resolved *res);
static const char *scan_opt(int argc, char **argv, const char *opt);

int cli_create(int argc, char **argv) {
        _cleanup_(create_args_done) create_args a = { .o.start = true };
        _cleanup_(sbx_resolved_done) sbx_resolved res = {};
        char id[SBX_SANDBOX_ID_LEN + 1];
        sbx_error err = {};
        int r;

        sbx_run_config_init(&a.c);
        if (scan_opt(argc, argv, "--scope")) {
                r = scope_prepare(argc, argv, &a, &res);
                if (r)
                        return r;
        }
        r = parse_create(&a, argc, argv, "create", create_usage);
        if (r < 0)
                return r == -256 ? 0 : -r;
        if (r < argc && (!a.name || res.container_name == a.name))
                a.name = argv[r++];
        if (!a.name || r != argc) {
                fprintf(stderr, "sbx create: expected exactly one NAME (usage: sbx create [OPTIONS] NAME)\n");
                return SBX_EXIT_USAGE;
        }
        if (!sbx_sandbox_name_valid(a.name)) {
                fprintf(stderr, "sbx create: name '%s': use [a-zA-Z0-9][a-zA-Z0-9_.-]*, at most %d characters\n",
                        a.name, SBX_SANDBOX_NAME_MAX);
                return SBX_EXIT_USAGE;
        }
        if (!res.container_name && default_workspace(&a, &err) < 0)
                return fail("create", &err, SBX_EXIT_FAILURE);
        a.o.labels = a.labels;
        a.o.n_labels = a.n_labels;
        r = sbx_sandbox_create(a.name, &a.c, &a.o, id, &err);
        if (r < 0)
                return fail("create", &err, r == -EEXIST ? 1 : errno_status(r));
        printf("%s\n", id);
        return 0;
}

/* ------------------------------------------------------------ exec */

static void exec_usage(FILE *f) {
        fputs("usage: sbx exec [OPTIONS] NAME [--] CMD [ARGS...]\n"
              "\n"
              "Run CMD inside the running sandbox NAME (a name, id or id prefix): its namespaces,\n"
              "cgroup, capabilities (none), no_new_privs, seccomp filter and rlimits.\n"
              "  -w, --workdir DIR     working directory (default: the sandbox's, /workspace)\n"
              "  -e, --env KEY=VALUE   set a variable on top of the sandbox's environment\n"
              "      --env-file FILE   KEY=VALUE lines (# comments; a bare KEY copies ours)\n"
              "  -u, --user UID[:GID]  numeric user (default: the sandbox's)\n"
              "  -i, --interactive     pass stdin through (default: /dev/null)\n"
              "  -t, --tty             a terminal from the sandbox's devpts\n"
              "Signals SIGINT/SIGTERM/SIGHUP go to CMD's process group; if sbx exec is killed,\n"
              "CMD is killed. Exit status: CMD's; 128+N if killed by signal N; 1 no such\n"
              "sandbox; 125 sbx failed or not running; 126 not executable; 127 not found.\n",
              f);
}

static int read_env_file(const char *path, char ***envv, size_t *n, sbx_error *e) {
        _cleanup_free_ char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        FILE *f = fopen(path, "re");

        if (!f)
                return sbx_error_set(e, -errno, "--env-file '%s'", path);
        while ((len = getline(&line, &cap, f)) >= 0) {
                char *s = line, **nv;
                while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
                        s[--len] = '\0';
                while (*s == ' ' || *s == '\t')
                        s++;
                if (!*s || *s == '#')
                        continue;
                nv = realloc(*envv, sizeof(char *) * (*n + 2));
                if (!nv) {
                        fclose(f);
                        return sbx_error_set(e, -ENOMEM, "out of memory");
                }
                *envv = nv;
                if (strchr(s, '='))
                        nv[*n] = strdup(s);
                else if (getenv(s)) {
                        if (asprintf(&nv[*n], "%s=%s", s, getenv(s)) < 0)
                                nv[*n] = NULL;
                } else
                        continue;
                if (!nv[*n] || sbx_parse_env(nv[*n], e) < 0) {
                        fclose(f);
                        return e->code ? sbx_error_wrap(e, "--env-file '%s'", path) : -ENOMEM;
                }
                nv[++*n] = NULL;
        }
        fclose(f);
        return 0;
}

static void strv_free_n(char **v, size_t n) {
        for (size_t i = 0; v && i < n; i++)
                free(v[i]);
        free(v);
}

int cli_exec(int argc, char **argv) {
        static const struct option opts[] = {
                { "workdir", required_argument, NULL, 'w' }, { "env", required_argument, NULL, 'e' },
                { "env-file", required_argument, NULL, OPT_ENV_FILE }, { "user", required_argument, NULL, 'u' },
                { "interactive", no_argument, NULL, 'i' }, { "tty", no_argument, NULL, 't' },
                { "help", no_argument, NULL, 'h' }, {}
        };
        sbx_exec_request req = { .uid = SBX_ID_UNSET, .gid = SBX_ID_UNSET, .stdin_mode = SBX_STDIN_NULL };
        _cleanup_(sbx_run_config_free) sbx_run_config now = {};
        char **envv = NULL;
        size_t n_env = 0;
        sbx_error err = {};
        const char *name;
        int opt, r;

        r = take_state_dir(&argc, &argv, "exec");
        if (r)
                return r;
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "+w:e:u:ith", opts, NULL)) != -1) {
                switch (opt) {
                case 'h':
                        exec_usage(stdout);
                        strv_free_n(envv, n_env);
                        return 0;
                case 'w':
                        if (optarg[0] != '/') {
                                fprintf(stderr, "sbx exec: --workdir '%s': must be absolute\n", optarg);
                                strv_free_n(envv, n_env);
                                return SBX_EXIT_USAGE;
                        }
                        req.workdir = optarg;
                        break;
                case 'e':
                case OPT_ENV_FILE: {
                        char **nv;
                        if (opt == OPT_ENV_FILE) {
                                r = read_env_file(optarg, &envv, &n_env, &err);
                        } else if ((r = sbx_parse_env(optarg, &err)) >= 0) {
                                nv = realloc(envv, sizeof(char *) * (n_env + 2));
                                r = nv ? 0 : -ENOMEM;
                                if (nv) {
                                        envv = nv;
                                        envv[n_env] = strdup(optarg);
                                        envv[++n_env] = NULL;
                                }
                        }
                        if (r < 0) {
                                strv_free_n(envv, n_env);
                                return fail("exec", &err, SBX_EXIT_USAGE);
                        }
                        break;
                }
                case 'u':
                        if (sbx_parse_user(optarg, &req.uid, &req.gid, &err) < 0) {
                                strv_free_n(envv, n_env);
                                return fail("exec", &err, SBX_EXIT_USAGE);
                        }
                        break;
                case 'i':
                        req.stdin_mode = SBX_STDIN_INHERIT;
                        break;
                case 't':
                        req.tty = true;
                        break;
                default:
                        fprintf(stderr, "sbx exec: bad option '%s' (see 'sbx exec --help')\n", argv[optind - 1]);
                        strv_free_n(envv, n_env);
                        return SBX_EXIT_USAGE;
                }
        }
        if (optind < argc && !strcmp(argv[optind], "--"))
                optind++;
        if (optind >= argc) {
                fprintf(stderr, "sbx exec: no sandbox given (usage: sbx exec [OPTIONS] NAME [--] CMD...)\n");
                strv_free_n(envv, n_env);
                return SBX_EXIT_USAGE;
        }
        name = argv[optind++];
        if (optind < argc && !strcmp(argv[optind], "--"))
                optind++;
        if (optind >= argc) {
                fprintf(stderr, "sbx exec: no command given (usage: sbx exec [OPTIONS] NAME [--] CMD...)\n");
                strv_free_n(envv, n_env);
                return SBX_EXIT_USAGE;
        }
        req.argv = argv + optind;
        req.envv = envv;
        req.n_env = n_env;
        /* issue 14: openclaw.json changed since create: its rules on top */
        r = cli_exec_rules_now(name, &now, &err);
        if (r < 0) {
                strv_free_n(envv, n_env);
                return fail("exec", &err, SBX_EXIT_FAILURE);
        }
        req.rules_now = r > 0 ? &now : NULL;
        r = sbx_sandbox_exec(name, &req, &err);
        strv_free_n(envv, n_env);
        if (err.code != 0 && (r == SBX_EXIT_FAILURE || r == SBX_EXIT_USAGE || r == SBX_EXIT_CANNOT_EXEC ||
                              r == SBX_EXIT_NOT_FOUND))
                return fail("exec", &err, !strncmp(err.msg, "No such sandbox", 15) ? 1 : r);
        return r;
}

/* ------------------------------------------------------------ ls */

static void fmt_age(uint64_t then_ms, char *buf, size_t len) {
        uint64_t now = (uint64_t) time(NULL) * 1000, d = now > then_ms ? (now - then_ms) / 1000 : 0;

        if (!then_ms)
                snprintf(buf, len, "-");
        else if (d < 120)
                snprintf(buf, len, "%llus ago", (unsigned long long) d);
        else if (d < 7200)
                snprintf(buf, len, "%llum ago", (unsigned long long) d / 60);
        else if (d < 172800)
                snprintf(buf, len, "%lluh ago", (unsigned long long) d / 3600);
        else
                snprintf(buf, len, "%llud ago", (unsigned long long) d / 86400);
}

/* issue 14: does the current openclaw.json derive other rules? (stale:
 * recreate applies them). Recorded, so every reader of the record sees it. */
static void check_policy(sbx_sandbox *s) {
        _cleanup_(sbx_run_config_free) sbx_run_config now = {};
        char hash[SBX_POLICY_HASH_LEN + 1];
        sbx_error e = {};
        int r;

        if (!s->policy.agent)
                return;
        r = cli_policy_now(s, &now, hash, &e);
        /* a config that cannot be read now counts as changed */
        r = sbx_sandbox_mark_policy(s->name, r > 0 ? hash : "unreadable", NULL);
        if (r >= 0)
                s->policy_stale = r > 0;
}

static json_object *sandbox_to_json(sbx_sandbox *s) {
        json_object *o = json_object_new_object(), *labels = json_object_new_object(), *mounts = json_object_new_array();

        json_object_object_add(o, "name", json_object_new_string(s->name));
        json_object_object_add(o, "id", json_object_new_string(s->id));
        json_object_object_add(o, "state", json_object_new_string(sbx_sandbox_state_to_string(s->state)));
        json_object_object_add(o, "createdMs", json_object_new_uint64(s->created_ms));
        json_object_object_add(o, "startedMs", json_object_new_uint64(s->started_ms));
        json_object_object_add(o, "lastUsedMs", json_object_new_uint64(s->last_used_ms));
        json_object_object_add(o, "configHash", json_object_new_string(s->config_hash));
        json_object_object_add(o, "configChanged", json_object_new_boolean(s->config_changed));
        json_object_object_add(o, "image", s->image ? json_object_new_string(s->image) : NULL);
        json_object_object_add(o, "workspace", s->workspace ? json_object_new_string(s->workspace) : NULL);
        json_object_object_add(o, "workspaceMode",
                               json_object_new_string(sbx_workspace_mode_to_string(s->workspace_mode)));
        json_object_object_add(o, "network", json_object_new_string(sbx_network_mode_to_string(s->config.network)));
        json_object_object_add(o, "networkName", s->config.network_name
                                                         ? json_object_new_string(s->config.network_name) : NULL);
        json_object_object_add(o, "networkContainer", s->config.network_container
                                                              ? json_object_new_string(s->config.network_container)
                                                              : NULL);
        json_object_object_add(o, "ipAddress", s->ip_address[0] ? json_object_new_string(s->ip_address) : NULL);
        json_object_object_add(o, "gateway", s->gateway[0] ? json_object_new_string(s->gateway) : NULL);
        json_object_object_add(o, "initPid", json_object_new_int(s->init_pid));
        json_object_object_add(o, "runningExecs", json_object_new_int((int) s->running_execs));
        json_object_object_add(o, "stateDir", json_object_new_string(s->state_dir));
        for (size_t i = 0; i < s->n_labels; i++)
                json_object_object_add(labels, s->labels[i].key, json_object_new_string(s->labels[i].value));
        json_object_object_add(o, "labels", labels);
        for (size_t i = 0; i < s->n_mounts; i++) {
                static const char *const types[] = { "bind", "tmpfs", "overlay" };
                json_object *m = json_object_new_object();
                json_object_object_add(m, "type", json_object_new_string(types[s->mounts[i].type]));
                json_object_object_add(m, "source", s->mounts[i].src ? json_object_new_string(s->mounts[i].src) : NULL);
                json_object_object_add(m, "destination", json_object_new_string(s->mounts[i].dst));
                json_object_object_add(m, "rw", json_object_new_boolean(s->mounts[i].rw));
                if (s->mounts[i].options)
                        json_object_object_add(m, "options", json_object_new_string(s->mounts[i].options));
                json_object_array_add(mounts, m);
        }
        json_object_object_add(o, "mounts", mounts);
        /* issue 14: whose rules it enforces, which, and their hash */
        json_object_object_add(o, "policy", sbx_sandbox_policy_json(s));
        return o;
}

static int parse_filter(const char *spec, sbx_label *ret) {
        const char *kv;

        if (strncmp(spec, "label=", 6))
                return -EINVAL;
        kv = spec + 6;
        ret->key = strndup(kv, strcspn(kv, "="));
        ret->value = strchr(kv, '=') ? (char *) strchr(kv, '=') + 1 : NULL;
        return ret->key && ret->key[0] ? 0 : -EINVAL;
}

int cli_ls(int argc, char **argv) {
        static const struct option opts[] = {
                { "json", no_argument, NULL, 'j' }, { "filter", required_argument, NULL, 'f' },
                { "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' }, {}
        };
        sbx_label filter[16];
        size_t n_filter = 0, n = 0;
        sbx_sandbox **list = NULL;
        bool json = false, quiet = false;
        sbx_error err = {};
        int opt, r;

        r = take_state_dir(&argc, &argv, "ls");
        if (r)
                return r;
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "jf:qh", opts, NULL)) != -1) {
                if (opt == 'h') {
                        printf("usage: sbx ls [--json] [-q] [--filter label=KEY[=VALUE]]...\n\n"
                               "List persistent sandboxes: state, age, last use, whether the configuration\n"
                               "changed since creation (a later 'sbx run --name' asked for another one;\n"
                               "'sbx recreate NAME' applies it), running execs. Sandboxes whose init died are\n"
                               "cleaned up (processes, cgroup) and shown as stopped (crashed).\n");
                        return 0;
                }
                if (opt == 'j')
                        json = true;
                else if (opt == 'q')
                        quiet = true;
                else if (opt == 'f' && n_filter < ELEMENTSOF(filter) && parse_filter(optarg, &filter[n_filter]) == 0)
                        n_filter++;
                else {
                        fprintf(stderr, "sbx ls: bad option or filter '%s' (expected --filter label=KEY[=VALUE])\n",
                                argv[optind - 1]);
                        return SBX_EXIT_USAGE;
                }
        }
        r = sbx_sandbox_list(filter, n_filter, &list, &n, &err);
        for (size_t i = 0; i < n_filter; i++)
                free(filter[i].key);
        if (r < 0)
                return fail("ls", &err, SBX_EXIT_FAILURE);
        for (size_t i = 0; i < n; i++)
                check_policy(list[i]);
        if (json) {
                json_object *a = json_object_new_array();
                for (size_t i = 0; i < n; i++)
                        json_object_array_add(a, sandbox_to_json(list[i]));
                printf("%s\n", json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
                json_object_put(a);
        } else if (quiet) {
                for (size_t i = 0; i < n; i++)
                        printf("%s\n", list[i]->name);
        } else {
                /* The NAME column is as wide as the longest name (docker widens
                 * its columns the same way), so every row stays aligned. */
                int w = 24;
                for (size_t i = 0; i < n; i++)
                        if ((int) strlen(list[i]->name) > w)
                                w = (int) strlen(list[i]->name);
                printf("%-*s %-12s %-9s %-9s %-9s %-7s %-5s %s\n", w, "NAME", "ID", "STATE", "CREATED", "USED",
                       "CONFIG", "EXECS", "WORKSPACE");
                for (size_t i = 0; i < n; i++) {
                        sbx_sandbox *s = list[i];
                        char created[32], used[32];
                        fmt_age(s->created_ms, created, sizeof(created));
                        fmt_age(s->last_used_ms, used, sizeof(used));
                        printf("%-*s %-12.12s %-9s %-9s %-9s %-7s %-5u %s%s\n", w, s->name, s->id,
                               sbx_sandbox_state_to_string(s->state), created, used,
                               s->policy_stale ? "stale" : s->config_changed ? "changed" : "ok", s->running_execs, s->workspace ?: "-",
                               s->workspace_mode == SBX_WORKSPACE_MODE_OVERLAY ? " (overlay)" : "");
                }
        }
        sbx_sandbox_list_free(list, n);
        return 0;
}

/* sbx inspect NAME...: the full record of each, as ls --json shows it. */
int cli_inspect(int argc, char **argv) {
        json_object *a;
        int status = 0, r;

        r = take_state_dir(&argc, &argv, "inspect");
        if (r)
                return r;
        if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
                printf("usage: sbx inspect NAME...\n\n"
                       "Print each sandbox as JSON (an array, as 'sbx ls --json'), with its policy: the\n"
                       "agent and scope key it was created for, the rules it enforces (exec allowlist or\n"
                       "deny, read-only workspace, socket deny), their hash, and whether the current\n"
                       "openclaw.json derives other rules (stale: 'sbx recreate' applies them).\n"
                       "\"policy\": \"none\" when it was created without an agent.\n");
                return argc < 2 ? SBX_EXIT_USAGE : 0;
        }
        a = json_object_new_array();
        for (int i = 1; i < argc; i++) {
                _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
                sbx_error err = {};
                r = sbx_sandbox_lookup(argv[i], &s, &err);
                if (r < 0) {
                        status = fail("inspect", &err, errno_status(r));
                        continue;
                }
                check_policy(s);
                json_object_array_add(a, sandbox_to_json(s));
        }
        printf("%s\n", json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
        json_object_put(a);
        return status;
}

/* sbx logs --exec NAME: the sandbox's exec records (issue 14). */
int cli_logs(int argc, char **argv) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        const char *ref = NULL;
        bool json = false, exec = false;
        char path[PATH_MAX + 32], line[65536];
        sbx_error err = {};
        FILE *f;
        int r;

        r = take_state_dir(&argc, &argv, "logs");
        if (r)
                return r;
        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--exec"))
                        exec = true;
                else if (!strcmp(argv[i], "--json"))
                        json = true;
                else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                        printf("usage: sbx logs --exec [--json] NAME\n\n"
                               "Every exec in a sandbox created for an agent (sbx create --scope, docker create\n"
                               "with openclaw.sessionKey): the commands sbx exec decided before fork (event\n"
                               "exec) and every execve/execveat of their process trees, grandchildren\n"
                               "included, as the exec log's seccomp listener saw them (event exec-seen): time,\n"
                               "pid, decision, path, argv. --json: the JSON Lines records as stored.\n");
                        return 0;
                } else if (!ref && argv[i][0] != '-')
                        ref = argv[i];
                else {
                        fprintf(stderr, "sbx logs: unexpected argument '%s'\n", argv[i]);
                        return SBX_EXIT_USAGE;
                }
        }
        if (!ref || !exec) {
                fprintf(stderr, "sbx logs: usage: sbx logs --exec [--json] NAME\n");
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_lookup(ref, &s, &err);
        if (r < 0)
                return fail("logs", &err, errno_status(r));
        if (!s->policy.agent) {
                fprintf(stderr, "sbx logs: sandbox '%s' has no policy (policy: none): its execs are not logged\n",
                        s->name);
                return SBX_EXIT_USAGE;
        }
        snprintf(path, sizeof(path), "%s/audit.jsonl", s->state_dir);
        f = fopen(path, "re");
        if (!f)
                return errno == ENOENT ? 0 : (fprintf(stderr, "sbx logs: %s: %s\n", path, strerror(errno)), 1);
        while (fgets(line, sizeof(line), f)) {
                json_object *o, *v;
                const char *ev;
                if (json) {
                        fputs(line, stdout);
                        continue;
                }
                o = json_tokener_parse(line);
                ev = o && json_object_object_get_ex(o, "event", &v) ? json_object_get_string(v) : "";
                if (!strcmp(ev, "exec") || !strcmp(ev, "exec-seen")) {
                        json_object *t = NULL, *pid = NULL, *d = NULL, *p = NULL, *a = NULL;
                        json_object_object_get_ex(o, "time", &t);
                        json_object_object_get_ex(o, "pid", &pid);
                        json_object_object_get_ex(o, "decision", &d);
                        json_object_object_get_ex(o, "resolved", &p);
                        if (!p)
                                json_object_object_get_ex(o, "path", &p);
                        json_object_object_get_ex(o, "argv", &a);
                        printf("%s %-7s %-9s %-24s %s\n", json_object_get_string(t),
                               pid ? json_object_get_string(pid) : "sbx", json_object_get_string(d),
                               p ? json_object_get_string(p) : "-", a ? json_object_to_json_string(a) : "[]");
                }
                json_object_put(o);
        }
        fclose(f);
        return 0;
}

/* ------------------------------------------------------------ simple verbs */

static int each_ref(int argc, char **argv, const char *cmd, const char *usage,
                    int (*fn)(const char *ref, const void *arg, sbx_error *e), const void *arg) {
        int status = 0;

        if (argc < 1) {
                fprintf(stderr, "sbx %s: no sandbox given (usage: %s)\n", cmd, usage);
                return SBX_EXIT_USAGE;
        }
        for (int i = 0; i < argc; i++) {
                sbx_error err = {};
                int r = fn(argv[i], arg, &err);
                if (r < 0)
                        status = fail(cmd, &err, errno_status(r));
                else
                        printf("%s\n", argv[i]);
        }
        return status;
}

static int do_start(const char *ref, const void *arg, sbx_error *e) {
        return sbx_sandbox_start(ref, e);
}

static int do_stop(const char *ref, const void *arg, sbx_error *e) {
        return sbx_sandbox_stop(ref, *(const unsigned *) arg, e);
}

static int do_rm(const char *ref, const void *arg, sbx_error *e) {
        return sbx_sandbox_remove(ref, *(const bool *) arg, e);
}

static int do_pause(const char *ref, const void *arg, sbx_error *e) {
        return *(const bool *) arg ? sbx_sandbox_pause(ref, e) : sbx_sandbox_unpause(ref, e);
}

static bool want_help(int argc, char **argv) {
        for (int i = 1; i < argc; i++)
                if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
                        return true;
        return false;
}

int cli_start(int argc, char **argv) {
        int r = take_state_dir(&argc, &argv, "start");

        if (r)
                return r;
        if (want_help(argc, argv)) {
                printf("usage: sbx start NAME...\n\nStart the init of stopped or created sandboxes.\n");
                return 0;
        }
        return each_ref(argc - 1, argv + 1, "start", "sbx start NAME...", do_start, NULL);
}

int cli_stop(int argc, char **argv) {
        unsigned timeout = 10;
        int r = take_state_dir(&argc, &argv, "stop");

        if (r)
                return r;
        if (want_help(argc, argv)) {
                printf("usage: sbx stop [-t SECONDS] NAME...\n\n"
                       "Stop sandboxes: SIGTERM to every process, SIGKILL after SECONDS (default 10).\n"
                       "The record, workspace and overlay changes stay; 'sbx start' restarts it.\n");
                return 0;
        }
        if (argc >= 3 && (!strcmp(argv[1], "-t") || !strcmp(argv[1], "--time"))) {
                char *end;
                unsigned long v = strtoul(argv[2], &end, 10);
                if (*end || end == argv[2] || v > 3600) {
                        fprintf(stderr, "sbx stop: -t '%s': expected seconds (0..3600)\n", argv[2]);
                        return SBX_EXIT_USAGE;
                }
                timeout = (unsigned) v;
                argv += 2;
                argc -= 2;
        }
        return each_ref(argc - 1, argv + 1, "stop", "sbx stop [-t SECONDS] NAME...", do_stop, &timeout);
}

/* sbx rm --all: every sandbox (the running ones need -f). */
static int rm_all(bool force) {
        sbx_sandbox **list = NULL;
        size_t n = 0;
        sbx_error err = {};
        int status = 0, r;

        r = sbx_sandbox_list(NULL, 0, &list, &n, &err);
        if (r < 0)
                return fail("rm", &err, SBX_EXIT_FAILURE);
        for (size_t i = 0; i < n; i++) {
                sbx_error e = {};
                r = sbx_sandbox_remove(list[i]->name, force, &e);
                if (r < 0)
                        status = fail("rm", &e, errno_status(r));
                else
                        printf("%s\n", list[i]->name);
        }
        sbx_sandbox_list_free(list, n);
        return status;
}

int cli_rm(int argc, char **argv) {
        static const struct option opts[] = {
                { "force", no_argument, NULL, 'f' }, { "all", no_argument, NULL, 'a' },
                { "help", no_argument, NULL, 'h' },  {}
        };
        bool force = false, all = false;
        int opt, r = take_state_dir(&argc, &argv, "rm");

        if (r)
                return r;
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "+fh", opts, NULL)) != -1) {
                switch (opt) {
                case 'h':
                        printf("usage: sbx rm [-f] NAME...\n"
                               "       sbx rm [-f] --all\n\n"
                               "Remove sandboxes: state dir, overlay changes, cgroup. A running one needs -f\n"
                               "(its processes are killed). The workspace directory is never removed.\n"
                               "--all removes every sandbox 'sbx ls' lists.\n");
                        return 0;
                case 'f':
                        force = true;
                        break;
                case 'a':
                        all = true;
                        break;
                default:
                        fprintf(stderr, "sbx rm: bad option '%s' (see 'sbx rm --help')\n", argv[optind - 1]);
                        return SBX_EXIT_USAGE;
                }
        }
        if (all && optind < argc) {
                fprintf(stderr, "sbx rm: --all and a NAME: give one of them\n");
                return SBX_EXIT_USAGE;
        }
        if (all)
                return rm_all(force);
        return each_ref(argc - optind, argv + optind, "rm", "sbx rm [-f] NAME... | sbx rm [-f] --all", do_rm, &force);
}

int cli_pause(int argc, char **argv) {
        bool pause = !strcmp(argv[0], "pause");
        int r = take_state_dir(&argc, &argv, argv[0]);

        if (r)
                return r;
        if (want_help(argc, argv)) {
                printf("usage: sbx %s NAME...\n\n%s every process of the sandbox (SIGSTOP/SIGCONT).\n", argv[0],
                       pause ? "Suspend" : "Resume");
                return 0;
        }
        return each_ref(argc - 1, argv + 1, argv[0], pause ? "sbx pause NAME..." : "sbx unpause NAME...", do_pause,
                        &pause);
}

/* ------------------------------------------------------------ prune */

static int parse_double(const char *s, double *ret) {
        char *end;

        errno = 0;
        *ret = strtod(s, &end);
        return errno || end == s || *end || *ret < 0 ? -EINVAL : 0;
}

int cli_prune(int argc, char **argv) {
        static const struct option opts[] = {
                { "idle-hours", required_argument, NULL, 'i' }, { "max-age-days", required_argument, NULL, 'a' },
                { "filter", required_argument, NULL, 'f' },      { "dry-run", no_argument, NULL, 'n' },
                { "help", no_argument, NULL, 'h' },              {}
        };
        sbx_prune_opts o = { .idle_hours = 24, .max_age_days = 7 };
        sbx_label filter[16];
        char **names = NULL;
        size_t n = 0;
        sbx_error err = {};
        int opt, r;

        r = take_state_dir(&argc, &argv, "prune");
        if (r)
                return r;
        optind = 1;
        opterr = 0;
        o.filter = filter;
        while ((opt = getopt_long(argc, argv, "nh", opts, NULL)) != -1) {
                switch (opt) {
                case 'h':
                        printf("usage: sbx prune [--idle-hours H] [--max-age-days D] [--filter label=K[=V]] "
                               "[--dry-run]\n\n"
                               "Remove sandboxes idle (no exec) longer than H hours (default 24) or created\n"
                               "more than D days ago (default 7), OpenClaw's prune rules; 0 disables a rule.\n"
                               "Sandboxes whose init crashed are removed too. A sandbox with a running exec\n"
                               "is never removed. Workspace directories are kept.\n");
                        return 0;
                case 'i':
                case 'a':
                        if (parse_double(optarg, opt == 'i' ? &o.idle_hours : &o.max_age_days) < 0) {
                                fprintf(stderr, "sbx prune: --%s '%s': expected a number >= 0\n",
                                        opt == 'i' ? "idle-hours" : "max-age-days", optarg);
                                return SBX_EXIT_USAGE;
                        }
                        break;
                case 'f':
                        if (o.n_filter >= ELEMENTSOF(filter) || parse_filter(optarg, &filter[o.n_filter]) < 0) {
                                fprintf(stderr, "sbx prune: --filter '%s': expected label=KEY[=VALUE]\n", optarg);
                                return SBX_EXIT_USAGE;
                        }
                        o.n_filter++;
                        break;
                case 'n':
                        o.dry_run = true;
                        break;
                default:
                        fprintf(stderr, "sbx prune: bad option '%s'\n", argv[optind - 1]);
                        return SBX_EXIT_USAGE;
                }
        }
        r = sbx_sandbox_prune(&o, &names, &n, &err);
        for (size_t i = 0; i < o.n_filter; i++)
                free(filter[i].key);
        if (r < 0)
                return fail("prune", &err, SBX_EXIT_FAILURE);
        for (size_t i = 0; i < n; i++) {
                printf("%s%s\n", o.dry_run ? "would remove " : "", names[i]);
                free(names[i]);
        }
        free(names);
        return 0;
}

/* ------------------------------------------------------------ recreate */

int cli_recreate(int argc, char **argv) {
        sbx_sandbox **list = NULL;
        size_t n = 0;
        sbx_label filter = {};
        bool all = false;
        int status = 0, r;
        sbx_error err = {};

        r = take_state_dir(&argc, &argv, "recreate");
        if (r)
                return r;
        if (want_help(argc, argv) || argc < 2) {
                printf("usage: sbx recreate (--all | --agent ID | --session KEY | NAME...)\n\n"
                       "Rebuild sandboxes from their recorded configuration (rm -f + create with the\n"
                       "same name, labels and workspace): processes end, workspace data stays.\n"
                       "--agent/--session select the sandboxes 'sbx run --scope' made for that agent or\n"
                       "session (labels sbx.agent, sbx.session).\n");
                return argc < 2 ? SBX_EXIT_USAGE : 0;
        }
        if (!strcmp(argv[1], "--all"))
                all = true;
        else if (!strcmp(argv[1], "--agent") && argc == 3) {
                filter.key = (char *) "sbx.agent";
                filter.value = argv[2];
        } else if (!strcmp(argv[1], "--session") && argc == 3) {
                filter.key = (char *) "sbx.session";
                filter.value = argv[2];
        } else {
                for (int i = 1; i < argc; i++) {
                        r = sbx_sandbox_recreate(argv[i], NULL, NULL, &err);
                        if (r < 0)
                                status = fail("recreate", &err, errno_status(r));
                        else
                                printf("%s\n", argv[i]);
                }
                return status;
        }
        r = sbx_sandbox_list(filter.key ? &filter : NULL, filter.key ? 1 : 0, &list, &n, &err);
        if (r < 0)
                return fail("recreate", &err, SBX_EXIT_FAILURE);
        (void) all;
        for (size_t i = 0; i < n; i++) {
                r = sbx_sandbox_recreate(list[i]->name, NULL, NULL, &err);
                if (r < 0)
                        status = fail("recreate", &err, errno_status(r));
                else
                        printf("%s\n", list[i]->name);
        }
        sbx_sandbox_list_free(list, n);
        return status;
}

/* ------------------------------------------------------------ run --name */

int cli_run_oneshot_rm(int argc, char **argv);

/* The value of --OPT X / --OPT=X before "--", or NULL. */
static const char *scan_opt(int argc, char **argv, const char *opt) {
        size_t n = strlen(opt);

        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
                if (!strcmp(argv[i], opt) && i + 1 < argc)
                        return argv[i + 1];
                if (!strncmp(argv[i], opt, n) && argv[i][n] == '=')
                        return argv[i] + n + 1;
        }
        return NULL;
}

static bool scan_flag(int argc, char **argv, const char *opt) {
        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
                if (!strcmp(argv[i], opt))
                        return true;
        return false;
}

/* --scope S [--agent A] [--session K] [--config F]: openclaw.json, resolved as
 * OpenClaw 2026.9.6 does with the scope forced to S, gives the sandbox's
 * name (OpenClaw's container name), its configuration and its labels. The
 * explicit sbx options are applied on top afterwards. */
static int scope_prepare(int argc, char **argv, create_args *a, sbx_resolved *res) {
        static const char *const scopes[] = { "session", "agent", "shared" };
        const char *scope_s = scan_opt(argc, argv, "--scope");
        sbx_request req = { .agent = scan_opt(argc, argv, "--agent"), .session = scan_opt(argc, argv, "--session"),
                            .subagent = scan_flag(argc, argv, "--subagent") };
        _cleanup_free_ char *path = NULL;
        sbx_config cfg = {};
        sbx_config_diag diag = {};
        sbx_strv notes = {};
        sbx_error e = {};
        int scope = -1, r;

        for (int i = 0; i < 3; i++)
                if (scope_s && !strcmp(scope_s, scopes[i]))
                        scope = i;
        if (scope < 0) {
                fprintf(stderr, "sbx run: --scope '%s': expected session, agent or shared\n", scope_s ?: "");
                return SBX_EXIT_USAGE;
        }
        r = sbx_config_find(scan_opt(argc, argv, "--config"), &path, &e);
        sbx_sandbox_policy_stamp(path, a->policy.config_stamp);
        if (r >= 0)
                r = sbx_config_load(path, &cfg, &diag, &e);
        if (r >= 0) {
                /* --scope wins over agents.defaults.sandbox.scope and the agent's own. */
                cfg.defaults_sandbox.scope = scope;
                for (size_t i = 0; i < cfg.n_agents; i++)
                        cfg.agents[i].sandbox.scope = scope;
                r = sbx_resolve(&cfg, &req, res, NULL, &e);
        }
        sbx_config_done(&cfg);
        sbx_config_diag_done(&diag);
        if (r < 0)
                return fail("run", &e, SBX_EXIT_USAGE);
        if (!res->container_name || !res->host_workspace_dir)
                return fprintf(stderr, "sbx run: agent %s: no sandbox container name (sandbox.backend '%s')\n",
                               res->agent_id, res->backend ?: ""), SBX_EXIT_USAGE;
        r = sbx_policy_to_run_config(res, &a->c, &notes, &e);
        for (size_t i = 0; i < notes.n; i++)
                fprintf(stderr, "sbx run: note: %s\n", notes.v[i]);
        sbx_strv_free(&notes);
        if (r < 0)
                return fprintf(stderr, "sbx run: agent %s: %s\n", res->agent_id, e.msg), SBX_EXIT_USAGE;
        /* issue 14: the agent's rules, for the whole sandbox and every exec into it */
        r = sbx_sandbox_rules_apply(&a->c, res, NULL, &e);
        if (r < 0)
                return fprintf(stderr, "sbx run: agent %s: %s\n", res->agent_id, e.msg), SBX_EXIT_USAGE;
        a->policy.agent = res->agent_id;
        a->policy.session = res->session_key;
        a->policy.scope_key = res->scope_key;
        a->policy.config_path = path ? realpath(path, NULL) : NULL;
        if (path && !a->policy.config_path)
                return fprintf(stderr, "sbx run: %s: %s\n", path, strerror(errno)), SBX_EXIT_FAILURE;
        a->o.policy = &a->policy;
        /* workspaceAccess none: OpenClaw's per-scope sandbox workspace, kept
         * across recreates, mounted read-write; with --workspace-mode overlay
         * the agent's real workspace under an overlay instead. */
        if (res->workspace_access == SBX_ACCESS_NONE) {
                bool overlay = scan_opt(argc, argv, "--workspace-mode") &&
                               !strcmp(scan_opt(argc, argv, "--workspace-mode"), "overlay");
                const char *ws = overlay ? res->agent_workspace_dir : res->host_workspace_dir;
                r = mkdir_p(ws);
                if (r < 0)
                        return fprintf(stderr, "sbx run: workspace '%s': %s\n", ws, strerror(-r)), SBX_EXIT_FAILURE;
                free(a->c.workspace);
                a->c.workspace = strdup(ws);
                if (!a->c.workspace)
                        return SBX_EXIT_FAILURE;
                a->c.workspace_access = overlay ? SBX_WORKSPACE_NONE : SBX_WORKSPACE_RW;
        }
        a->ws_access_set = true;
        a->name = res->container_name;
        a->o.image = res->docker.image;
        struct { const char *k, *v; } labels[] = {
                { "openclaw.sandbox", "1" }, { "openclaw.sessionKey", res->scope_key },
                { "sbx.agent", res->agent_id }, { "sbx.session", res->session_key }, { "sbx.scope", scopes[scope] },
        };
        for (size_t i = 0; i < ELEMENTSOF(labels); i++) {
                a->labels[a->n_labels].key = strdup(labels[i].k);
                a->labels[a->n_labels].value = (char *) labels[i].v;
                if (!a->labels[a->n_labels++].key)
                        return SBX_EXIT_FAILURE;
        }
        return 0;
}

/* sbx run --name NAME [sandbox options] -- CMD: create NAME on first use
 * (in parallel: exactly one creates, the others wait and join), then exec. */
int cli_run_persistent(int argc, char **argv) {
        _cleanup_(create_args_done) create_args a = { .o.start = true, .o.exist_ok = true };
        _cleanup_(sbx_run_config_free) sbx_run_config now = {};
        _cleanup_(sbx_resolved_done) sbx_resolved res = {};
        sbx_exec_request req = { .uid = SBX_ID_UNSET, .gid = SBX_ID_UNSET };
        const char *name_opt = scan_opt(argc, argv, "--name");
        sbx_error err = {};
        int r, cmd;

        sbx_run_config_init(&a.c);
        if (scan_opt(argc, argv, "--scope")) {
                r = scope_prepare(argc, argv, &a, &res);
                if (r)
                        return r;
        }
        r = parse_create(&a, argc, argv, "run", create_usage);
        if (r < 0)
                return r == -256 ? 0 : -r;
        if (a.scope && name_opt)
                a.name = name_opt;
        if (r >= argc) {
                fprintf(stderr, "sbx run: no command given (usage: sbx run --name NAME [OPTIONS] -- CMD...)\n");
                return SBX_EXIT_USAGE;
        }
        if (!sbx_sandbox_name_valid(a.name)) {
                fprintf(stderr, "sbx run: --name '%s': use [a-zA-Z0-9][a-zA-Z0-9_.-]*\n", a.name);
                return SBX_EXIT_USAGE;
        }
        if (!a.scope && default_workspace(&a, &err) < 0)
                return fail("run", &err, SBX_EXIT_FAILURE);
        a.o.labels = a.labels;
        a.o.n_labels = a.n_labels;
        cmd = r;
        r = sbx_sandbox_create(a.name, &a.c, &a.o, NULL, &err);
        if (r < 0)
                return fail("run", &err, errno_status(r) == 1 ? SBX_EXIT_FAILURE : errno_status(r));
        req.argv = argv + cmd;
        req.envv = NULL;
        req.tty = a.c.tty;
        req.stdin_mode = SBX_STDIN_INHERIT;
        r = cli_exec_rules_now(a.name, &now, &err);
        if (r < 0)
                return fail("run", &err, SBX_EXIT_FAILURE);
        req.rules_now = r > 0 ? &now : NULL;
        r = sbx_sandbox_exec(a.name, &req, &err);
        if (err.code != 0 && (r == SBX_EXIT_FAILURE || r == SBX_EXIT_CANNOT_EXEC || r == SBX_EXIT_NOT_FOUND))
                return fail("run", &err, r);
        return r;
}

/* sbx run: persistent when --name or --scope is given (and not --rm),
 * one-shot otherwise. */
int cli_run_dispatch(int argc, char **argv) {
        bool persistent = false;

        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
                if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                        int r = cli_run(argc, argv);
                        printf("\n"
                               "Persistent sandboxes (see 'sbx create --help'):\n"
                               "      --name NAME           run CMD in the sandbox NAME, creating it (with these\n"
                               "                            options) on first use; parallel runs share one sandbox\n"
                               "      --label KEY=VALUE --workspace-mode overlay --workspace-root DIR\n"
                               "                            as for sbx create, used when NAME is created\n"
                               "      --rm                  one-shot (the default without --name)\n"
                               "      --scope session|agent|shared [--agent ID] [--session KEY] [--config FILE]\n"
                               "                            the sandbox OpenClaw would use for that scope, from\n"
                               "                            openclaw.json: its container name, settings and labels;\n"
                               "                            created on first use, exec'd into afterwards\n");
                        return r;
                }
        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
                if (!strcmp(argv[i], "--rm"))
                        return cli_run_oneshot_rm(argc, argv);
                if (!strcmp(argv[i], "--name") || !strncmp(argv[i], "--name=", 7) || !strcmp(argv[i], "--scope") ||
                    !strncmp(argv[i], "--scope=", 8))
                        persistent = true;
        }
        return persistent ? cli_run_persistent(argc, argv) : cli_run(argc, argv);
}

/* sbx run --rm ...: the one-shot launcher (--rm is what it does anyway). */
int cli_run_oneshot_rm(int argc, char **argv) {
        int j = 0, i = 0;

        for (; i < argc && strcmp(argv[i], "--"); i++)
                if (strcmp(argv[i], "--rm"))
                        argv[j++] = argv[i];
        while (i < argc)
                argv[j++] = argv[i++];
        argv[j] = NULL;
        return cli_run(j, argv);
}

/* ------------------------------------------------------------ diff/commit/reset */

static char kind_letter(sbx_change_kind k) {
        return k == SBX_CHANGE_ADDED ? 'A' : k == SBX_CHANGE_DELETED ? 'D' : 'M';
}

static bool is_text_file(const char *path) {
        char buf[8192];
        struct stat st;
        ssize_t n;
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

        if (fd < 0)
                return errno == ENOENT;   /* absent side of an add/delete */
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
                close(fd);
                return false;
        }
        n = read(fd, buf, sizeof(buf));
        close(fd);
        return n >= 0 && !memchr(buf, '\0', (size_t) n);
}

/* Unified diff of one text file: the system's diff(1), labels a/ b/. */
static void show_patch(const sbx_sandbox *s, const sbx_change *c) {
        char old[PATH_MAX], new[PATH_MAX], la[PATH_MAX + 8], lb[PATH_MAX + 8];
        pid_t pid;

        if ((c->mode && !S_ISREG(c->mode)) || (c->old_mode && !S_ISREG(c->old_mode)) || !c->content_changed)
                return;
        snprintf(old, sizeof(old), "%s/%s", s->workspace, c->path);
        snprintf(new, sizeof(new), "%s/%s", s->upper_dir, c->path);
        if (c->kind == SBX_CHANGE_ADDED)
                snprintf(old, sizeof(old), "/dev/null");
        if (c->kind == SBX_CHANGE_DELETED)
                snprintf(new, sizeof(new), "/dev/null");
        if (!is_text_file(old) || !is_text_file(new) || access("/usr/bin/diff", X_OK) < 0)
                return;
        snprintf(la, sizeof(la), "a/%s", c->path);
        snprintf(lb, sizeof(lb), "b/%s", c->path);
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
                execl("/usr/bin/diff", "diff", "-u", "--label", la, "--label", lb, "--", old, new, (char *) NULL);
                _exit(127);
        }
        if (pid > 0)
                (void) waitpid(pid, NULL, 0);
}

int cli_diff(int argc, char **argv) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        bool json = false, patch = true;
        sbx_change *c = NULL;
        size_t n = 0;
        const char *ref = NULL;
        sbx_error err = {};
        int r;

        r = take_state_dir(&argc, &argv, "diff");
        if (r)
                return r;
        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--json"))
                        json = true;
                else if (!strcmp(argv[i], "--stat") || !strcmp(argv[i], "--name-status"))
                        patch = false;
                else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                        printf("usage: sbx diff [--json | --name-status] NAME\n\n"
                               "What the sandbox changed in its workspace (--workspace-mode overlay):\n"
                               "A added, M modified (content, type or permissions), D deleted; then a\n"
                               "unified diff of each changed text file. A rename is a D plus an A.\n");
                        return 0;
                } else if (!ref && argv[i][0] != '-')
                        ref = argv[i];
                else {
                        fprintf(stderr, "sbx diff: unexpected argument '%s'\n", argv[i]);
                        return SBX_EXIT_USAGE;
                }
        }
        if (!ref) {
                fprintf(stderr, "sbx diff: no sandbox given (usage: sbx diff [--json] NAME)\n");
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_diff(ref, &c, &n, &err);
        if (r < 0)
                return fail("diff", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r));
        if (json) {
                json_object *a = json_object_new_array();
                for (size_t i = 0; i < n; i++) {
                        static const char *const kinds[] = { "added", "modified", "deleted" };
                        json_object *o = json_object_new_object();
                        json_object_object_add(o, "path", json_object_new_string(c[i].path));
                        json_object_object_add(o, "change", json_object_new_string(kinds[c[i].kind]));
                        json_object_object_add(o, "mode", json_object_new_int((int) c[i].mode));
                        json_object_object_add(o, "oldMode", json_object_new_int((int) c[i].old_mode));
                        json_object_object_add(o, "contentChanged", json_object_new_boolean(c[i].content_changed));
                        json_object_array_add(a, o);
                }
                printf("%s\n", json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
                json_object_put(a);
        } else {
                for (size_t i = 0; i < n; i++) {
                        if (c[i].kind == SBX_CHANGE_MODIFIED && !c[i].content_changed)
                                printf("M %s (mode %04o -> %04o)\n", c[i].path, (unsigned) (c[i].old_mode & 07777),
                                       (unsigned) (c[i].mode & 07777));
                        else
                                printf("%c %s\n", kind_letter(c[i].kind), c[i].path);
                }
                if (patch && n && sbx_sandbox_lookup(ref, &s, NULL) == 0 && s->upper_dir)
                        for (size_t i = 0; i < n; i++)
                                show_patch(s, &c[i]);
        }
        sbx_changes_free(c, n);
        return 0;
}

int cli_commit(int argc, char **argv) {
        sbx_error err = {};
        int r;

        r = take_state_dir(&argc, &argv, "commit");
        if (r)
                return r;
        if (want_help(argc, argv) || argc < 2) {
                printf("usage: sbx commit NAME [PATH...]\n\n"
                       "Apply the sandbox's workspace changes (all, or those at or under PATHs,\n"
                       "relative to /workspace) to the real workspace, each file atomically (temp file\n"
                       "+ rename). Symlinks are copied as links and never followed; set-id bits are\n"
                       "dropped. The sandbox keeps running; 'sbx diff' is empty afterwards.\n");
                return argc < 2 ? SBX_EXIT_USAGE : 0;
        }
        r = sbx_sandbox_commit(argv[1], argv + 2, (size_t) (argc - 2), &err);
        if (r < 0)
                return fail("commit", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r));
        printf("%d change%s applied\n", r, r == 1 ? "" : "s");
        return 0;
}

int cli_reset(int argc, char **argv) {
        sbx_error err = {};
        int r;

        r = take_state_dir(&argc, &argv, "reset");
        if (r)
                return r;
        if (want_help(argc, argv) || argc != 2) {
                printf("usage: sbx reset NAME\n\n"
                       "Discard the sandbox's workspace changes. A running sandbox is restarted (its\n"
                       "processes end): the overlay must not change under a live mount.\n");
                return argc != 2 ? SBX_EXIT_USAGE : 0;
        }
        r = sbx_sandbox_reset(argv[1], &err);
        if (r < 0)
                return fail("reset", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r));
        return 0;
}

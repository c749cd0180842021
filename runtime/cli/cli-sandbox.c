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
#include <sys/mman.h>
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
        OPT_NAME = SANDBOX_OPT_BASE, OPT_LABEL, OPT_WS_MODE, OPT_CONFIG_HASH, OPT_NO_START,
        OPT_WS_ROOT, OPT_SB_STATE_DIR, OPT_RM, OPT_ENV_FILE, OPT_SCOPE, OPT_ALL, OPT_AGENT, OPT_SESSION,
        OPT_JSON, OPT_NAME_STATUS, OPT_STAT, OPT_IDLE_HOURS, OPT_MAX_AGE_DAYS, OPT_EXEC, OPT_DIGEST,
        OPT_EXPECT,
};

const sbx_cli_opt sbx_persistent_opts[] = {
        SBX_CLI_SECTION("Persistent sandboxes (sbx create; sbx run with --name or --scope)"),
        { "name", 0, "NAME", OPT_NAME, "sbx run: run CMD in the sandbox NAME, made with these options on first "
          "use; parallel runs share one sandbox (sbx create: the same as the NAME argument)", "@sandbox" },
        { "scope", 0, "SCOPE", OPT_SCOPE, "the sandbox OpenClaw would use for this scope of --agent/--session "
          "from openclaw.json (--config): its container name, settings and labels, and the agent's rules for "
          "every exec in it ('sbx inspect NAME' shows them); sbx run: made on first use, exec'd into "
          "afterwards", "session agent shared" },
        { "rm", 0, NULL, OPT_RM, "sbx run: one-shot, no persistent sandbox (the default without --name; refused with --name or --scope)", NULL },
        { "workspace-root", 0, "DIR", OPT_WS_ROOT, "without --workspace, the workspace is <workspace "
          "root>/NAME (created; kept by rm and prune); the root defaults to $SBX_WORKSPACE_ROOT, "
          "$XDG_DATA_HOME/sbx/workspaces, ~/.local/share/sbx/workspaces", "@dir" },
        { "workspace-mode", 0, "MODE", OPT_WS_MODE, "direct (default): /workspace is the workspace itself; "
          "overlay: an overlay over it, writes stay in the sandbox until 'sbx commit' ('sbx diff' shows "
          "them, 'sbx reset' drops them)", "direct overlay" },
        { "label", 0, "KEY=VALUE", OPT_LABEL, "a label (repeatable; 'sbx ls --filter label=KEY=VALUE')", NULL },
        { "config-hash", 0, "HASH", OPT_CONFIG_HASH, "record HASH as the configuration hash (default: computed "
          "from the options)", NULL },
        { "no-start", 0, NULL, OPT_NO_START, "only create the record (start it with 'sbx start NAME')", NULL },
        SBX_CLI_OPT_END
};

/* --state-dir and --help: every sandbox command but create (which has run's). */
static const sbx_cli_opt common_opts[] = {
        { "state-dir", 0, "DIR", OPT_SB_STATE_DIR, "the state root: sandboxes live in DIR/sandboxes (default "
          "$XDG_RUNTIME_DIR/sbx, /run/sbx as root, /tmp/sbx-$UID; the same as sbx run's)", "@dir" },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

/* The exit status of the commands that take sandbox NAMEs (errno_status). */
#define NAME_CMD_FOOTER "Exit status: 0 done; 1 no such sandbox (the others are still done); 2 bad usage; 125 sbx " \
                        "failed (the message names the sandbox and the step)."

/* One line: the message and, for a failed operation (125, 126, 127), its
 * cause as sbx run prints it (sbx_error_why: "chdir '/x': No such file or
 * directory"). A usage error (2, or 0: the caller exits 2 itself) or docker's
 * 1 (no such sandbox, the name exists) says all in its message. */
static int fail(const char *cmd, const sbx_error *e, int status) {
        char buf[SBX_ERROR_MSG_MAX + 64];
        bool why = status != 0 && status != 1 && status != SBX_EXIT_USAGE;
        const char *m = why ? sbx_error_why(e, buf, sizeof(buf)) : sbx_error_text(e, buf, sizeof(buf));
        /* a message may hold a name the sandbox chose (commit: the path) */
        _cleanup_free_ char *q = sbx_text_plain(m) ? NULL : sbx_quoted(m);

        fprintf(stderr, "sbx %s: %s\n", cmd, q ? q : m);
        return status;
}

/* A NAME sbx does not take, on one line (a newline or control in it quoted). */
static void bad_name(const char *cmd, const char *what, const char *name) {
        _cleanup_free_ char *q = sbx_text_plain(name) ? NULL : sbx_quoted(name);

        fprintf(stderr, "sbx %s: %s %s%s%s: use [a-zA-Z0-9][a-zA-Z0-9_.-]*, at most %d characters\n", cmd, what,
                q ? "" : "'", q ? q : name, q ? "" : "'", SBX_SANDBOX_NAME_MAX);
}

/* 1 (docker's status) only for a sandbox that does not exist: any other
 * missing file (a state dir, a bind source) is sbx failing, 125. */
static int errno_status(int r, const sbx_error *e) {
        if (r == -ENOENT && !strncmp(e->msg, "No such sandbox", 15))
                return 1;
        return r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
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

/* The next option of a sandbox command (getopt over cmd's tables, set up by
 * the caller with sbx_cli_getopt_init). --help and --state-dir are handled
 * here. Returns the option, -1 after the last one, or -2 with *status set
 * (0 after --help; 2 for a bad option or state dir). */
static int next_opt(const sbx_cli_cmd *cmd, const sbx_cli_getopt *g, int argc, char **argv, int *status) {
        for (;;) {
                int opt = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
                if (opt == 'h') {
                        sbx_cli_usage(stdout, cmd);
                        *status = 0;
                        return -2;
                }
                if (opt == OPT_SB_STATE_DIR) {
                        *status = set_state_dir(optarg, cmd->name);
                        if (*status)
                                return -2;
                        continue;
                }
                if (opt == '?' || opt == ':') {
                        sbx_cli_bad_option(cmd, g, argc, argv);
                        *status = SBX_EXIT_USAGE;
                        return -2;
                }
                return opt;
        }
}

/* Start parsing cmd's options (into g). */
static void opts_begin(const sbx_cli_cmd *cmd, sbx_cli_getopt *g) {
        sbx_cli_getopt_init(g, cmd->opts, cmd->in_order);
        optind = 1;
        opterr = 0;
}

/* A command with no options of its own: parse --state-dir/--help; returns
 * optind, or -1 with *status set. */
static int only_common_opts(const sbx_cli_cmd *cmd, int argc, char **argv, int *status) {
        sbx_cli_getopt g;
        int opt;

        opts_begin(cmd, &g);
        while ((opt = next_opt(cmd, &g, argc, argv, status)) >= 0)
                ;   /* the table has no other option */
        return opt == -2 ? -1 : optind;
}

/* A command on NAMEs that was given none: the error with cmd's usage line. */
static int no_sandbox_given(const sbx_cli_cmd *cmd) {
        char usage[256];

        fprintf(stderr, "sbx %s: no sandbox given (%s)\n", cmd->name,
                sbx_cli_usage_line(cmd, usage, sizeof(usage)));
        return SBX_EXIT_USAGE;
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
        default:
                return sbx_error_set(e, -EINVAL, "unknown option");
        }
}

/* The options of sbx create and sbx run --name: run's, then ours. */
static const sbx_cli_opt *const create_tables[] = { sbx_run_opts, sbx_persistent_opts, NULL };

/* sbx create / sbx run --name: --agent, --session, --subagent and --config
 * choose the OpenClaw session of --scope; without it they would be ignored,
 * so they are refused. Returns 0 or an exit status. */
static int policy_needs_scope(const char *cmd, int argc, char **argv) {
        static const char *const opts[] = { "--agent", "--session", "--subagent", "--config" };

        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
                for (size_t k = 0; k < ELEMENTSOF(opts); k++) {
                        size_t n = strlen(opts[k]);
                        if (!strncmp(argv[i], opts[k], n) && (!argv[i][n] || argv[i][n] == '=')) {
                                fprintf(stderr, "sbx %s: %s chooses the OpenClaw session of --scope; give "
                                                "--scope session|agent|shared too (or use sbx run %s for a "
                                                "one-shot sandbox)\n", cmd, opts[k], opts[k]);
                                return SBX_EXIT_USAGE;
                        }
                }
        return 0;
}

/* Parse [OPTIONS] up to the first non-option (or "--"). Returns optind or a
 * negative exit status (-256: --help was printed). */
static int parse_create(create_args *a, int argc, char **argv, const sbx_cli_cmd *cmd) {
        int image_val = sbx_cli_opt_val(sbx_run_opts, "image");
        int ws_access_val = sbx_cli_opt_val(sbx_run_opts, "workspace-access");
        int approvals_val = sbx_cli_opt_val(sbx_run_opts, "exec-approvals");
        const char *image = NULL;   /* --image: the root (--scope records OpenClaw's image only) */
        sbx_cli_getopt g;
        int opt, r;
        bool tty_set = false;
        sbx_error err = {};

        sbx_cli_getopt_init(&g, create_tables, true);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
                if (opt == 'h') {
                        sbx_cli_usage(stdout, cmd);
                        return -256;
                }
                if (opt == '?' || opt == ':') {
                        sbx_cli_bad_option(cmd, &g, argc, argv);
                        return -SBX_EXIT_USAGE;
                }
                if (opt == approvals_val) {
                        fprintf(stderr, "sbx %s: --exec-approvals is for one-shot sbx run; a persistent sandbox "
                                        "takes its agent's exec approvals with --scope\n", cmd->name);
                        return -SBX_EXIT_USAGE;
                }
                if (opt == ws_access_val)
                        a->ws_access_set = true;
                if (opt == image_val) {
                        /* the root, as for sbx run (applied after every option), and the record */
                        image = a->o.image = optarg;
                        continue;
                }
                r = opt >= SANDBOX_OPT_BASE ? apply_sandbox_option(a, opt, optarg, &err)
                                            : sbx_cli_run_apply(&a->c, opt, optarg, &tty_set, &err);
                if (r < 0) {
                        if (r == -ENOMEM)
                                sbx_error_set(&err, r, "out of memory");
                        fail(cmd->name, &err, 0);
                        return -SBX_EXIT_USAGE;
                }
        }
        if (sbx_run_config_check_network(&a->c, &err) < 0) {
                sbx_error_wrap(&err, "--network");
                fail(cmd->name, &err, 0);
                return -SBX_EXIT_USAGE;
        }
        if (image && a->c.rootfs) {
                fprintf(stderr, "sbx %s: --image and --rootfs: give one of them\n", cmd->name);
                return -SBX_EXIT_USAGE;
        }
        if (image && sbx_run_config_apply_image(&a->c, image, &err) < 0) {
                sbx_error_wrap(&err, "--image");
                fail(cmd->name, &err, 0);
                return -SBX_EXIT_FAILURE;
        }
        if (a->c.state_dir && set_state_dir(a->c.state_dir, cmd->name))
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

/* A create that failed takes back the default workspace directory it made
 * (default_workspace; only while empty, never its parents). */
static void undo_workspace(const create_args *a) {
        if (a->c.workspace && a->c.workspace_sbx_owned)
                (void) rmdir(a->c.workspace);
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
        a->c.workspace_sbx_owned = access(dir, F_OK) < 0;   /* sbx creates it now */
        r = mkdir_p(dir);
        if (r < 0)
                return sbx_error_set(e, r, "workspace '%s': create: %s", dir, strerror(-r));
        a->c.workspace = strdup(dir);
        if (!a->c.workspace)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (!a->ws_access_set && a->o.workspace_mode == SBX_WORKSPACE_MODE_DIRECT)
                a->c.workspace_access = SBX_WORKSPACE_RW;
        return 0;
}

const sbx_cli_cmd sbx_cmd_create = {
        .name = "create", .page = "sbx-sandbox", .fn = cli_create, .in_order = true, .positional = "",
        .usage = "[OPTIONS] NAME",
        .summary = "create a persistent sandbox",
        .text = "Create a persistent sandbox NAME and start its init (pid 1 of its namespaces). Later commands "
                "run in it with 'sbx exec NAME -- CMD'. Prints the 64-hex id.\n\n"
                "It takes the options of sbx run (--timeout and --tty apply to sbx run only) and those of "
                "persistent sandboxes. The workspace is --workspace DIR, else <workspace root>/NAME; sbx "
                "create mounts it read-write unless --workspace-access says otherwise (rw is its default; "
                "none = an overlay). --image NAME is the root, as for sbx run, and is recorded (sbx ls --json "
                "shows it). A --workspace or --bind source that is, holds or lies in the state dir (--state-dir; "
                "every sandbox's record and exec service) is refused.\n\n"
                "--scope session|agent|shared [--agent ID] [--session KEY] [--config FILE]: the sandbox "
                "OpenClaw would use for that scope (name, settings, labels) and the agent's rules for every "
                "exec in it (see 'sbx explain'); 'sbx inspect NAME' shows them and their hash. --agent, "
                "--session, --subagent and --config need --scope here.",
        .opts = { sbx_run_opts, sbx_persistent_opts, NULL },
        .footer = "Exit status: 0 created; 1 NAME exists; 2 bad usage; 125 sbx failed.",
};

static int scope_prepare(const char *cmd, int argc, char **argv, create_args *a, sbx_resolved *res);
static const char *scan_opt(int argc, char **argv, const char *opt);

int cli_create(int argc, char **argv) {
        _cleanup_(create_args_done) create_args a = { .o.start = true };
        _cleanup_(sbx_resolved_done) sbx_resolved res = {};
        char id[SBX_SANDBOX_ID_LEN + 1];
        sbx_error err = {};
        int r;

        sbx_run_config_init(&a.c);
        r = scan_opt(argc, argv, "--scope") ? scope_prepare("create", argc, argv, &a, &res)
                                            : policy_needs_scope("create", argc, argv);
        if (r)
                return r;
        r = parse_create(&a, argc, argv, &sbx_cmd_create);
        if (r < 0)
                return r == -256 ? 0 : -r;
        if (r < argc && (!a.name || res.container_name == a.name))
                a.name = argv[r++];
        if (!a.name || r != argc) {
                fprintf(stderr, "sbx create: expected exactly one NAME (usage: sbx create [OPTIONS] NAME)\n");
                return SBX_EXIT_USAGE;
        }
        if (!sbx_sandbox_name_valid(a.name)) {
                bad_name("create", "name", a.name);
                return SBX_EXIT_USAGE;
        }
        if (!res.container_name && default_workspace(&a, &err) < 0)
                return fail("create", &err, SBX_EXIT_FAILURE);
        a.o.labels = a.labels;
        a.o.n_labels = a.n_labels;
        r = sbx_sandbox_create(a.name, &a.c, &a.o, id, &err);
        if (r < 0) {
                undo_workspace(&a);
                return fail("create", &err, r == -EEXIST ? 1 : errno_status(r, &err));
        }
        printf("%s\n", id);
        return 0;
}

/* ------------------------------------------------------------ exec */

static const sbx_cli_opt exec_opts[] = {
        { "workdir", 'w', "DIR", 'w', "working directory (default: the sandbox's, /workspace)", NULL },
        { "env", 'e', "KEY=VALUE", 'e', "set a variable on top of the sandbox's environment (repeatable)", NULL },
        { "env-file", 0, "FILE", OPT_ENV_FILE, "KEY=VALUE lines (# comments; a bare KEY copies ours)", "@file" },
        { "user", 'u', "UID[:GID]", 'u', "numeric user (default: the sandbox's; another one is joined by setns, "
          "not run by the sandbox's exec service)", NULL },
        { "interactive", 'i', NULL, 'i', "pass stdin through (default: /dev/null); without -t a terminal as stdin, stdout or stderr reaches the command as a pipe sbx relays while it runs, and so does a file as stdin", NULL },
        { "tty", 't', NULL, 't', "a terminal from the sandbox's devpts", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_exec = {
        .name = "exec", .page = "sbx-sandbox", .fn = cli_exec, .in_order = true, .positional = "@sandbox",
        .usage = "[OPTIONS] NAME [--] CMD [ARGS...]",
        .summary = "run a command in a running persistent sandbox",
        .text = "Run CMD inside the running sandbox NAME (a name, id or id prefix): its namespaces, cgroup, "
                "capabilities (none), no_new_privs, seccomp filter and rlimits. The sandbox's init runs it "
                "(its exec service); where it cannot ('ls --json' field execVia: setns), sbx joins the sandbox "
                "by setns.",
        .opts = { exec_opts, common_opts, NULL },
        .footer = "Signals SIGINT/SIGTERM/SIGHUP go to CMD's process group; if sbx exec is killed, CMD is "
                  "killed.\n\nExit status: CMD's; 128+N if killed by signal N; 1 no such sandbox; 125 sbx "
                  "failed or not running; 126 not executable; 127 not found.",
};

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
        sbx_exec_request req = { .uid = SBX_ID_UNSET, .gid = SBX_ID_UNSET, .stdin_mode = SBX_STDIN_NULL };
        _cleanup_(sbx_run_config_free) sbx_run_config now = {};
        char **envv = NULL;
        size_t n_env = 0;
        sbx_error err = {};
        const char *name;
        sbx_cli_getopt g;
        int opt, r, status;

        opts_begin(&sbx_cmd_exec, &g);
        while ((opt = next_opt(&sbx_cmd_exec, &g, argc, argv, &status)) >= 0) {
                switch (opt) {
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
                        break;
                }
        }
        if (opt == -2) {
                strv_free_n(envv, n_env);
                return status;
        }
        if (optind < argc && !strcmp(argv[optind], "--"))
                optind++;
        if (optind >= argc || !argv[optind][0]) {
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

/* One sandbox as ls --json and inspect show it, written straight out. */
static void sandbox_write_json(sbx_jw *w, sbx_sandbox *s) {
        static const char *const types[] = { "bind", "tmpfs", "overlay" };
        json_object *policy;
        /* how init last ended, as a shell gives a status (128+N: signal N;
         * 143 after sbx stop), -1 if never or not seen */
        int ws = s->exit_status;
        long long exit_code = !s->finished_ms || ws < 0 ? -1 : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);

        /* in the order they are shown; 's': string (NULL: null), 'u'/'i': number, 'b': boolean */
        const struct {
                const char *key;
                char type;
                const char *s;
                long long n;
        } fields[] = {
                { "name", 's', s->name },
                { "id", 's', s->id },
                { "state", 's', sbx_sandbox_state_to_string(s->state) },
                { "createdMs", 'u', .n = (long long) s->created_ms },
                { "startedMs", 'u', .n = (long long) s->started_ms },
                { "lastUsedMs", 'u', .n = (long long) s->last_used_ms },
                { "finishedMs", 'u', .n = (long long) s->finished_ms },
                { "exitCode", 'i', .n = exit_code },
                { "configHash", 's', s->config_hash },
                { "configChanged", 'b', .n = s->config_changed },
                { "image", 's', s->image },
                { "workspace", 's', s->workspace },
                { "workspaceMode", 's', sbx_workspace_mode_to_string(s->workspace_mode) },
                { "network", 's', sbx_network_mode_to_string(s->config.network) },
                { "networkName", 's', s->config.network_name },
                { "networkContainer", 's', s->config.network_container },
                { "ipAddress", 's', s->ip_address[0] ? s->ip_address : NULL },
                { "gateway", 's', s->gateway[0] ? s->gateway : NULL },
                { "initPid", 'i', .n = s->init_pid },
                { "runningExecs", 'i', .n = (int) s->running_execs },
                /* issue 16: "service" (init's exec service) or "setns" (joined), null when not running */
                { "execVia", 's', sbx_sandbox_exec_via(s) },
                { "stateDir", 's', s->state_dir },
        };

        sbx_jw_begin(w, '{');
        for (size_t i = 0; i < ELEMENTSOF(fields); i++) {
                sbx_jw_key(w, fields[i].key);
                if (fields[i].type == 's')
                        sbx_jw_str(w, fields[i].s);
                else if (fields[i].type == 'u')
                        sbx_jw_u64(w, (unsigned long long) fields[i].n);
                else if (fields[i].type == 'i')
                        sbx_jw_i64(w, fields[i].n);
                else
                        sbx_jw_bool(w, fields[i].n != 0);
        }
        sbx_jw_key(w, "labels");
        sbx_jw_begin(w, '{');
        for (size_t i = 0; i < s->n_labels; i++) {
                sbx_jw_key(w, s->labels[i].key);
                sbx_jw_str(w, s->labels[i].value);
        }
        sbx_jw_end(w, '}');
        sbx_jw_key(w, "mounts");
        sbx_jw_begin(w, '[');
        for (size_t i = 0; i < s->n_mounts; i++) {
                sbx_jw_begin(w, '{');
                sbx_jw_key(w, "type");
                sbx_jw_str(w, types[s->mounts[i].type]);
                sbx_jw_key(w, "source");
                sbx_jw_str(w, s->mounts[i].src);
                sbx_jw_key(w, "destination");
                sbx_jw_str(w, s->mounts[i].dst);
                sbx_jw_key(w, "rw");
                sbx_jw_bool(w, s->mounts[i].rw);
                if (s->mounts[i].options) {
                        sbx_jw_key(w, "options");
                        sbx_jw_str(w, s->mounts[i].options);
                }
                sbx_jw_end(w, '}');
        }
        sbx_jw_end(w, ']');
        /* issue 14: whose rules it enforces, which, and their hash */
        sbx_jw_key(w, "policy");
        policy = sbx_sandbox_policy_json(s);
        sbx_jw_tree(w, policy);
        if (policy)
                json_object_put(policy);
        sbx_jw_end(w, '}');
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

static const sbx_cli_opt ls_opts[] = {
        { "json", 'j', NULL, 'j', "every field as JSON (an array of objects)", NULL },
        { "quiet", 'q', NULL, 'q', "names only, one a line", NULL },
        { "filter", 'f', "label=KEY[=VALUE]", 'f', "only sandboxes with this label (and value; repeatable: all "
          "must match)", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_ls = {
        .name = "ls", .page = "sbx-sandbox", .fn = cli_ls, .positional = "",
        .usage = "[--json] [-q] [--filter label=KEY[=VALUE]]...",
        .summary = "list persistent sandboxes",
        .text = "List persistent sandboxes: name, id, state, age, last use, whether the configuration changed "
                "since creation (a later 'sbx run --name' asked for another one; 'sbx recreate NAME' applies "
                "it) or, for a sandbox created for an agent, whether openclaw.json now derives other rules "
                "(stale: they apply on top of the recorded ones until a recreate), running execs, workspace. "
                "Sandboxes whose init died are cleaned up (processes, cgroup) "
                "and shown as stopped (crashed). The NAME column is as wide as the longest name.",
        .opts = { ls_opts, common_opts, NULL },
        .footer = "Exit status: 0 done; 2 bad usage; 125 sbx failed.",
};

int cli_ls(int argc, char **argv) {
        sbx_label filter[16];
        size_t n_filter = 0, n = 0;
        sbx_sandbox **list = NULL;
        bool json = false, quiet = false;
        sbx_error err = {};
        sbx_cli_getopt g;
        int opt, r, status;

        opts_begin(&sbx_cmd_ls, &g);
        while ((opt = next_opt(&sbx_cmd_ls, &g, argc, argv, &status)) >= 0) {
                if (opt == 'j')
                        json = true;
                else if (opt == 'q')
                        quiet = true;
                else if (opt == 'f' && n_filter < ELEMENTSOF(filter) && parse_filter(optarg, &filter[n_filter]) == 0)
                        n_filter++;
                else {
                        fprintf(stderr, "sbx ls: bad filter '%s' (expected --filter label=KEY[=VALUE])\n", optarg);
                        for (size_t i = 0; i < n_filter; i++)
                                free(filter[i].key);
                        return SBX_EXIT_USAGE;
                }
        }
        if (opt == -2) {
                for (size_t i = 0; i < n_filter; i++)
                        free(filter[i].key);
                return status;
        }
        if (optind < argc) {
                fprintf(stderr, "sbx ls: unexpected argument '%s'\n", argv[optind]);
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_list_brief(filter, n_filter, &list, &n, &err);
        for (size_t i = 0; i < n_filter; i++)
                free(filter[i].key);
        if (r < 0)
                return fail("ls", &err, SBX_EXIT_FAILURE);
        for (size_t i = 0; i < n; i++)
                check_policy(list[i]);
        if (json) {
                static char outbuf[1 << 16]; /* ~1.4 KB a sandbox: large writes */
                sbx_jw w = { .f = stdout };
                setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
                sbx_jw_begin(&w, '[');
                for (size_t i = 0; i < n; i++)
                        sandbox_write_json(&w, list[i]);
                sbx_jw_end(&w, ']');
                putchar('\n');
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

const sbx_cli_cmd sbx_cmd_inspect = {
        .name = "inspect", .page = "sbx-sandbox", .fn = cli_inspect, .in_order = true, .positional = "@sandbox",
        .usage = "NAME...",
        .summary = "show a sandbox's record, its policy and rules (JSON)",
        .text = "Print each sandbox as JSON (an array, as 'sbx ls --json'), with its policy: the agent and scope "
                "key it was created for, the rules it enforces (exec allowlist or deny, read-only workspace, "
                "socket deny), their hash, and whether the current openclaw.json derives other rules (stale: "
                "'sbx recreate' applies them). \"policy\": \"none\" when it was created without an agent.",
        .opts = { common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

/* sbx inspect NAME...: the full record of each, as ls --json shows it. */
int cli_inspect(int argc, char **argv) {
        sbx_jw w = {};
        char *text = NULL;
        size_t len = 0;
        int status = 0, r, first = only_common_opts(&sbx_cmd_inspect, argc, argv, &status);

        if (first < 0)
                return status;
        if (first >= argc)
                return no_sandbox_given(&sbx_cmd_inspect);
        /* the whole array in memory, then stdout: nothing of it before an error */
        w.f = open_memstream(&text, &len);
        if (!w.f)
                return fprintf(stderr, "sbx inspect: out of memory\n"), SBX_EXIT_FAILURE;
        sbx_jw_begin(&w, '[');
        for (int i = first; i < argc; i++) {
                _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
                sbx_error err = {};
                r = sbx_sandbox_lookup(argv[i], &s, &err);
                if (r < 0) {
                        status = fail("inspect", &err, errno_status(r, &err));
                        continue;
                }
                check_policy(s);
                sandbox_write_json(&w, s);
        }
        sbx_jw_end(&w, ']');
        fclose(w.f);
        printf("%s\n", text);
        free(text);
        return status;
}

static const sbx_cli_opt logs_opts[] = {
        { "exec", 0, NULL, OPT_EXEC, "the exec records (the only log there is; required)", NULL },
        { "json", 0, NULL, OPT_JSON, "the JSON Lines records as stored", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_logs = {
        .name = "logs", .page = "sbx-sandbox", .fn = cli_logs, .positional = "@sandbox",
        .usage = "--exec [--json] NAME",
        .summary = "show every exec in a sandbox created for an agent (--exec)",
        .text = "Every exec in a sandbox created for an agent (sbx create --scope, docker create with "
                "openclaw.sessionKey): the commands sbx exec decided before fork (event exec) and every "
                "execve/execveat of their process trees, grandchildren included, as the exec log's seccomp "
                "listener saw them (event exec-seen): time, pid, decision, path, argv.",
        .opts = { logs_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

/* sbx logs --exec NAME: the sandbox's exec records (issue 14). */
int cli_logs(int argc, char **argv) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        const char *ref = NULL;
        bool json = false, exec = false;
        char path[PATH_MAX + 32], line[65536];
        sbx_error err = {};
        sbx_cli_getopt g;
        FILE *f;
        int r, opt, status;

        opts_begin(&sbx_cmd_logs, &g);
        while ((opt = next_opt(&sbx_cmd_logs, &g, argc, argv, &status)) >= 0) {
                if (opt == OPT_EXEC)
                        exec = true;
                else
                        json = true;
        }
        if (opt == -2)
                return status;
        if (optind < argc)
                ref = argv[optind++];
        if (optind < argc) {
                fprintf(stderr, "sbx logs: unexpected argument '%s'\n", argv[optind]);
                return SBX_EXIT_USAGE;
        }
        if (!ref || !exec) {
                fprintf(stderr, "sbx logs: usage: sbx logs --exec [--json] NAME\n");
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_lookup(ref, &s, &err);
        if (r < 0)
                return fail("logs", &err, errno_status(r, &err));
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
                        /* records hold the sandbox's paths and argv: no raw C1 or DEL */
                        _cleanup_free_ char *safe = sbx_json_terminal_safe(line);
                        fputs(safe ? safe : "", stdout);
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
                        /* the path and argv are the sandbox's: argv as JSON (its C0
                         * controls escaped), quoted too if C1 or DEL are left */
                        const char *exe = p ? json_object_get_string(p) : NULL,
                                   *args = a ? json_object_to_json_string(a) : "[]";
                        _cleanup_free_ char *q = sbx_quoted(exe ? exe : "-"),
                                            *qa = sbx_text_plain(args) ? NULL : sbx_quoted(args);
                        printf("%s %-7s %-9s %-24s %s\n", json_object_get_string(t),
                               pid ? json_object_get_string(pid) : "sbx", json_object_get_string(d), q ? q : "?",
                               qa ? qa : args);
                }
                json_object_put(o);
        }
        fclose(f);
        return 0;
}

/* ------------------------------------------------------------ simple verbs */

static int each_ref(int argc, char **argv, const sbx_cli_cmd *cmd,
                    int (*fn)(const char *ref, const void *arg, sbx_error *e), const void *arg) {
        int status = 0;

        if (argc < 1)
                return no_sandbox_given(cmd);
        for (int i = 0; i < argc; i++) {
                sbx_error err = {};
                int r = fn(argv[i], arg, &err);
                if (r < 0)
                        status = fail(cmd->name, &err, errno_status(r, &err));
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

const sbx_cli_cmd sbx_cmd_start = {
        .name = "start", .page = "sbx-sandbox", .fn = cli_start, .in_order = true, .positional = "@sandbox",
        .usage = "NAME...",
        .summary = "start a stopped sandbox",
        .text = "Start the init of stopped or created sandboxes.",
        .opts = { common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_start(int argc, char **argv) {
        int status, i = only_common_opts(&sbx_cmd_start, argc, argv, &status);

        if (i < 0)
                return status;
        return each_ref(argc - i, argv + i, &sbx_cmd_start, do_start, NULL);
}

static const sbx_cli_opt stop_opts[] = {
        { "time", 't', "SECONDS", 't', "SIGKILL after SECONDS (0..3600, default 10; 0: SIGKILL at once, as "
          "docker stop -t 0)", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_stop = {
        .name = "stop", .page = "sbx-sandbox", .fn = cli_stop, .in_order = true, .positional = "@sandbox",
        .usage = "[-t SECONDS] NAME...",
        .summary = "stop a sandbox (keeps its record and workspace)",
        .text = "Stop sandboxes: SIGTERM to every process, SIGKILL after SECONDS (default 10; -t 0 sends SIGKILL "
                "at once: exit status 137, as Docker). The record, "
                "workspace and overlay changes stay; 'sbx start' restarts it.",
        .opts = { stop_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_stop(int argc, char **argv) {
        unsigned timeout = 10;
        sbx_cli_getopt g;
        int opt, status;

        opts_begin(&sbx_cmd_stop, &g);
        while ((opt = next_opt(&sbx_cmd_stop, &g, argc, argv, &status)) >= 0) {
                char *end;
                unsigned long v = strtoul(optarg, &end, 10);
                if (*end || end == optarg || v > 3600 || optarg[0] == '-') {
                        fprintf(stderr, "sbx stop: -t '%s': expected seconds (0..3600)\n", optarg);
                        return SBX_EXIT_USAGE;
                }
                timeout = (unsigned) v;
        }
        if (opt == -2)
                return status;
        return each_ref(argc - optind, argv + optind, &sbx_cmd_stop, do_stop, &timeout);
}

/* sbx rm --all: print each name as it is removed, an error as it happens. */
typedef struct rm_all_ctx {
        const char *const *refs;
        int status;
} rm_all_ctx;

static void rm_all_done(size_t i, int r, const sbx_error *e, void *userdata) {
        rm_all_ctx *c = userdata;

        if (r < 0)
                c->status = fail("rm", e, errno_status(r, e));
        else
                printf("%s\n", c->refs[i]);
}

/* sbx rm --all: every sandbox (the running ones need -f). */
static int rm_all(bool force) {
        sbx_sandbox **list = NULL;
        size_t n = 0;
        sbx_error err = {};
        _cleanup_free_ const char **refs = NULL;
        rm_all_ctx c = {};
        int status = 0, r;

        /* names, states and inits are all rm needs of the list: each removal
         * loads its record again, fresh and locked */
        r = sbx_sandbox_list_brief(NULL, 0, &list, &n, &err);
        if (r < 0)
                return fail("rm", &err, SBX_EXIT_FAILURE);
        /* -f: every init dies at once (their namespaces go in parallel in
         * the kernel), not one after the other as each is removed */
        if (force)
                sbx_sandbox_kill_all(list, n);
        refs = calloc(n + 1, sizeof(*refs));
        if (!refs) {
                sbx_sandbox_list_free(list, n);
                return fail("rm", &(sbx_error) { .code = -ENOMEM, .msg = "out of memory" }, SBX_EXIT_FAILURE);
        }
        for (size_t i = 0; i < n; i++)
                refs[i] = list[i]->name;
        c.refs = refs;
        (void) sbx_sandbox_remove_many(refs, n, force, rm_all_done, &c);
        status = c.status;
        sbx_sandbox_list_free(list, n);
        /* the listing cache the list above read (or wrote) names only removed
         * sandboxes now: a listing that finds none removes it */
        if (n && status == 0 && sbx_sandbox_list_brief(NULL, 0, &list, &n, &err) >= 0)
                sbx_sandbox_list_free(list, n);
        /* -f: and the template holders (issue 16) of the state root these
         * sandboxes were in: --state-dir DIR's (its creates made them), not
         * the default root's, which other runs of this user share */
        if (force) {
                const char *root = sbx_sandbox_root(), *slash = strrchr(root, '/');
                char base[PATH_MAX];

                snprintf(base, sizeof(base), "%.*s", slash && slash > root ? (int) (slash - root) : 1, root);
                r = sbx_template_remove_all(base);
                if (r < 0) {
                        fprintf(stderr, "sbx rm: remove the template holders in '%s/templates': %s\n", base,
                                strerror(-r));
                        status = SBX_EXIT_FAILURE;
                }
        }
        return status;
}

static const sbx_cli_opt rm_opts[] = {
        { "force", 'f', NULL, 'f', "remove running sandboxes too (their processes are killed)", NULL },
        { "all", 0, NULL, OPT_ALL, "remove every sandbox 'sbx ls' lists (instead of NAMEs); with -f also "
          "the template holders of that state root (--state-dir), which keep the read-only root of 'sbx run' and "
          "create", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_rm = {
        .name = "rm", .page = "sbx-sandbox", .fn = cli_rm, .in_order = true, .positional = "@sandbox",
        .usage = "[-f] NAME...\n[-f] --all",
        .summary = "remove a sandbox (keeps its workspace)",
        .text = "Remove sandboxes: state dir, overlay changes, cgroup. A running one needs -f (its processes "
                "are killed). The workspace directory is never removed.",
        .opts = { rm_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_rm(int argc, char **argv) {
        bool force = false, all = false;
        sbx_cli_getopt g;
        int opt, status;

        opts_begin(&sbx_cmd_rm, &g);
        while ((opt = next_opt(&sbx_cmd_rm, &g, argc, argv, &status)) >= 0) {
                if (opt == 'f')
                        force = true;
                else if (opt == OPT_ALL)
                        all = true;
        }
        if (opt == -2)
                return status;
        if (all && optind < argc) {
                fprintf(stderr, "sbx rm: --all and a NAME: give one of them\n");
                return SBX_EXIT_USAGE;
        }
        if (all)
                return rm_all(force);
        return each_ref(argc - optind, argv + optind, &sbx_cmd_rm, do_rm, &force);
}

const sbx_cli_cmd sbx_cmd_pause = {
        .name = "pause", .page = "sbx-sandbox", .fn = cli_pause, .in_order = true, .positional = "@sandbox",
        .usage = "NAME...",
        .summary = "suspend every process of a sandbox",
        .text = "Suspend every process of the sandboxes (SIGSTOP to each; 'sbx unpause' sends SIGCONT).",
        .opts = { common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

const sbx_cli_cmd sbx_cmd_unpause = {
        .name = "unpause", .page = "sbx-sandbox", .fn = cli_pause, .in_order = true, .positional = "@sandbox",
        .usage = "NAME...",
        .summary = "resume a paused sandbox",
        .text = "Resume every process of paused sandboxes.",
        .opts = { common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_pause(int argc, char **argv) {
        bool pause = !strcmp(argv[0], "pause");
        const sbx_cli_cmd *cmd = pause ? &sbx_cmd_pause : &sbx_cmd_unpause;
        int status, i = only_common_opts(cmd, argc, argv, &status);

        if (i < 0)
                return status;
        return each_ref(argc - i, argv + i, cmd, do_pause, &pause);
}

/* ------------------------------------------------------------ prune */

static int parse_double(const char *s, double *ret) {
        char *end;

        errno = 0;
        *ret = strtod(s, &end);
        return errno || end == s || *end || *ret < 0 ? -EINVAL : 0;
}

static const sbx_cli_opt prune_opts[] = {
        { "idle-hours", 0, "H", OPT_IDLE_HOURS, "remove sandboxes idle (no exec) longer than H hours (default 24; "
          "0 disables the rule)", NULL },
        { "max-age-days", 0, "D", OPT_MAX_AGE_DAYS, "remove sandboxes created more than D days ago (default 7; 0 "
          "disables the rule)", NULL },
        { "filter", 0, "label=KEY[=VALUE]", 'f', "only sandboxes with this label (repeatable)", NULL },
        { "dry-run", 'n', NULL, 'n', "print what would be removed, remove nothing", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_prune = {
        .name = "prune", .page = "sbx-sandbox", .fn = cli_prune, .positional = "",
        .usage = "[--idle-hours H] [--max-age-days D] [--filter label=K[=V]] [--dry-run]",
        .summary = "remove idle, old or crashed sandboxes",
        .text = "Remove sandboxes idle (no exec) longer than H hours or created more than D days ago, "
                "OpenClaw's prune rules. Sandboxes whose init crashed are removed too. A sandbox with a "
                "running exec is never removed. Workspace directories are kept. Then (not with --dry-run) "
                "what killed runs and sandboxes left on the host: their network pieces, and empty sbx-* "
                "cgroups the caller owns older than 60 s (on v2 or every v1 hierarchy; also those of runs "
                "whose state root is gone; never another user's or a live sandbox's).",
        .opts = { prune_opts, common_opts, NULL },
        .footer = "Exit status: 0 done; 2 bad usage; 125 sbx failed.",
};

int cli_prune(int argc, char **argv) {
        sbx_prune_opts o = { .idle_hours = 24, .max_age_days = 7 };
        sbx_label filter[16];
        char **names = NULL;
        size_t n = 0;
        sbx_error err = {};
        sbx_cli_getopt g;
        int opt, r, status;

        o.filter = filter;
        opts_begin(&sbx_cmd_prune, &g);
        while ((opt = next_opt(&sbx_cmd_prune, &g, argc, argv, &status)) >= 0) {
                switch (opt) {
                case OPT_IDLE_HOURS:
                case OPT_MAX_AGE_DAYS:
                        if (parse_double(optarg, opt == OPT_IDLE_HOURS ? &o.idle_hours : &o.max_age_days) < 0) {
                                fprintf(stderr, "sbx prune: --%s '%s': expected a number >= 0\n",
                                        opt == OPT_IDLE_HOURS ? "idle-hours" : "max-age-days", optarg);
                                status = SBX_EXIT_USAGE;
                                goto out;
                        }
                        break;
                case 'f':
                        if (o.n_filter >= ELEMENTSOF(filter) || parse_filter(optarg, &filter[o.n_filter]) < 0) {
                                fprintf(stderr, "sbx prune: --filter '%s': expected label=KEY[=VALUE]\n", optarg);
                                status = SBX_EXIT_USAGE;
                                goto out;
                        }
                        o.n_filter++;
                        break;
                case 'n':
                        o.dry_run = true;
                        break;
                default:
                        break;
                }
        }
        if (opt == -2)
                goto out;
        if (optind < argc) {
                fprintf(stderr, "sbx prune: unexpected argument '%s'\n", argv[optind]);
                status = SBX_EXIT_USAGE;
                goto out;
        }
        r = sbx_sandbox_prune(&o, &names, &n, &err);
        status = r < 0 ? fail("prune", &err, SBX_EXIT_FAILURE) : 0;
        for (size_t i = 0; i < n; i++) {
                printf("%s%s\n", o.dry_run ? "would remove " : "", names[i]);
                free(names[i]);
        }
        free(names);
out:
        for (size_t i = 0; i < o.n_filter; i++)
                free(filter[i].key);
        return status;
}

/* ------------------------------------------------------------ recreate */

static const sbx_cli_opt recreate_opts[] = {
        { "all", 0, NULL, OPT_ALL, "every sandbox", NULL },
        { "agent", 0, "ID", OPT_AGENT, "the sandboxes 'sbx run --scope' made for agent ID (label sbx.agent)", NULL },
        { "session", 0, "KEY", OPT_SESSION, "the sandboxes 'sbx run --scope' made for session KEY (label "
          "sbx.session)", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_recreate = {
        .name = "recreate", .page = "sbx-sandbox", .fn = cli_recreate, .in_order = true, .positional = "@sandbox",
        .usage = "NAME...\n--all | --agent ID | --session KEY",
        .summary = "rebuild sandboxes from their configuration",
        .text = "Rebuild sandboxes from their recorded configuration (rm -f + create with the same name, labels "
                "and workspace): processes end, workspace data stays. Give NAMEs or one selector.",
        .opts = { recreate_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_recreate(int argc, char **argv) {
        sbx_sandbox **list = NULL;
        size_t n = 0;
        sbx_label filter = {};
        int selectors = 0, status = 0, r, opt;
        sbx_error err = {};
        sbx_cli_getopt g;
        char usage[256];

        opts_begin(&sbx_cmd_recreate, &g);
        while ((opt = next_opt(&sbx_cmd_recreate, &g, argc, argv, &status)) >= 0) {
                selectors++;
                if (opt == OPT_AGENT || opt == OPT_SESSION) {
                        filter.key = (char *) (opt == OPT_AGENT ? "sbx.agent" : "sbx.session");
                        filter.value = optarg;
                }
        }
        if (opt == -2)
                return status;
        if (selectors + (optind < argc) != 1) {
                fprintf(stderr, "sbx recreate: give NAMEs, --all, --agent ID or --session KEY, one of them (%s)\n",
                        sbx_cli_usage_line(&sbx_cmd_recreate, usage, sizeof(usage)));
                return SBX_EXIT_USAGE;
        }
        if (optind < argc) {
                for (int i = optind; i < argc; i++) {
                        r = sbx_sandbox_recreate(argv[i], NULL, NULL, &err);
                        if (r < 0)
                                status = fail("recreate", &err, errno_status(r, &err));
                        else
                                printf("%s\n", argv[i]);
                }
                return status;
        }
        r = sbx_sandbox_list(filter.key ? &filter : NULL, filter.key ? 1 : 0, &list, &n, &err);
        if (r < 0)
                return fail("recreate", &err, SBX_EXIT_FAILURE);
        for (size_t i = 0; i < n; i++) {
                r = sbx_sandbox_recreate(list[i]->name, NULL, NULL, &err);
                if (r < 0)
                        status = fail("recreate", &err, errno_status(r, &err));
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
static int scope_prepare(const char *cmd, int argc, char **argv, create_args *a, sbx_resolved *res) {
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
                fprintf(stderr, "sbx %s: --scope '%s': expected session, agent or shared\n", cmd, scope_s ?: "");
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
                return fail(cmd, &e, SBX_EXIT_USAGE);
        if (!res->container_name || !res->host_workspace_dir)
                return fprintf(stderr, "sbx %s: agent %s: no sandbox container name (sandbox.backend '%s')\n", cmd,
                               res->agent_id, res->backend ?: ""), SBX_EXIT_USAGE;
        r = sbx_policy_to_run_config(res, &a->c, &notes, &e);
        for (size_t i = 0; i < notes.n; i++)
                fprintf(stderr, "sbx %s: note: %s\n", cmd, notes.v[i]);
        sbx_strv_free(&notes);
        if (r < 0)
                return fprintf(stderr, "sbx %s: agent %s: %s\n", cmd, res->agent_id, e.msg), SBX_EXIT_USAGE;
        /* issue 14: the agent's rules, for the whole sandbox and every exec into it */
        r = sbx_sandbox_rules_apply(&a->c, res, NULL, &e);
        if (r < 0)
                return fprintf(stderr, "sbx %s: agent %s: %s\n", cmd, res->agent_id, e.msg), SBX_EXIT_USAGE;
        a->policy.agent = res->agent_id;
        a->policy.session = res->session_key;
        a->policy.scope_key = res->scope_key;
        a->policy.config_path = path ? realpath(path, NULL) : NULL;
        if (path && !a->policy.config_path)
                return fprintf(stderr, "sbx %s: %s: %s\n", cmd, path, strerror(errno)), SBX_EXIT_FAILURE;
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
                        return fprintf(stderr, "sbx %s: workspace '%s': %s\n", cmd, ws, strerror(-r)), SBX_EXIT_FAILURE;
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
        r = scan_opt(argc, argv, "--scope") ? scope_prepare("run", argc, argv, &a, &res)
                                            : policy_needs_scope("run", argc, argv);
        if (r)
                return r;
        r = parse_create(&a, argc, argv, &sbx_cmd_run);
        if (r < 0)
                return r == -256 ? 0 : -r;
        if (a.scope && name_opt)
                a.name = name_opt;
        if (r >= argc) {
                fprintf(stderr, "sbx run: no command given (usage: sbx run --name NAME [OPTIONS] -- CMD...)\n");
                return SBX_EXIT_USAGE;
        }
        if (!sbx_sandbox_name_valid(a.name)) {
                bad_name("run", "--name", a.name);
                return SBX_EXIT_USAGE;
        }
        if (!a.scope && default_workspace(&a, &err) < 0)
                return fail("run", &err, SBX_EXIT_FAILURE);
        a.o.labels = a.labels;
        a.o.n_labels = a.n_labels;
        cmd = r;
        r = sbx_sandbox_create(a.name, &a.c, &a.o, NULL, &err);
        if (r < 0) {
                undo_workspace(&a);
                return fail("run", &err, errno_status(r, &err) == 1 ? SBX_EXIT_FAILURE : errno_status(r, &err));
        }
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
                        sbx_cli_usage(stdout, &sbx_cmd_run);
                        return 0;
                }
        bool rm = false;
        const char *which = NULL;

        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
                if (!strcmp(argv[i], "--rm"))
                        rm = true;
                if (!strcmp(argv[i], "--name") || !strncmp(argv[i], "--name=", 7) || !strcmp(argv[i], "--scope") ||
                    !strncmp(argv[i], "--scope=", 8)) {
                        persistent = true;
                        which = which ?: argv[i][2] == 'n' ? "--name" : "--scope";
                }
        }
        /* a sandbox both removed at the end and kept for the next run */
        if (rm && persistent) {
                fprintf(stderr, "sbx run: --rm and %s: %s makes a persistent sandbox that stays for the next run, "
                                "--rm one that goes; give one of them\n", which, which);
                return SBX_EXIT_USAGE;
        }
        if (rm)
                return cli_run_oneshot_rm(argc, argv);
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

static const char *type_name(mode_t m) {
        return S_ISDIR(m) ? "directory" : S_ISLNK(m) ? "symlink" : S_ISREG(m) ? "file" : "special file";
}

static char kind_letter(sbx_change_kind k) {
        return k == SBX_CHANGE_ADDED ? 'A' : k == SBX_CHANGE_DELETED ? 'D' : 'M';
}

#define PATCH_MAX (1 << 20)

/* A copy of a small text file (at most 1 MiB, no NUL) in a memfd of ours,
 * or -1. diff(1) reads this copy, never the file: the sandbox keeps
 * writing its layer while sbx diff runs, and a file that was 1 MiB of text
 * when it was checked could be 64 GiB (ftruncate, no cost to the layer: it
 * watches the file's atime for the check's read) when diff(1), which holds
 * both files in memory, read it to its end: every byte of the host's memory
 * went to one diff(1), as root, in no cgroup. */
static int text_snapshot(int fd) {
        _cleanup_free_ char *buf = malloc(PATCH_MAX + 1);
        size_t n = 0;
        int m;

        if (!buf)
                return -1;
        while (n < PATCH_MAX + 1) {
                ssize_t k = pread(fd, buf + n, PATCH_MAX + 1 - n, (off_t) n);
                if (k < 0)
                        return -1;
                if (k == 0)
                        break;
                n += (size_t) k;
        }
        if (n > PATCH_MAX || memchr(buf, '\0', n))
                return -1;
        m = memfd_create("sbx-diff", MFD_CLOEXEC);
        if (m < 0)
                return -1;
        for (size_t off = 0; off < n;) {
                ssize_t w = write(m, buf + off, n - off);
                if (w <= 0) {
                        close(m);
                        return -1;
                }
                off += (size_t) w;
        }
        return m;
}

/* diff(1)'s output on the operator's terminal: the file's lines are the
 * sandbox's text, and an escape sequence, a CR or a C1 control in one would
 * drive the terminal (set its title, move the cursor up and overwrite the
 * lines under review). A line holding anything but plain text (tabs are
 * plain) is printed as diff's mark and the rest quoted (sbx_quoted); piped
 * or redirected, the patch stays diff's bytes. Takes FD. */
static void patch_lines(int fd) {
        FILE *f = fdopen(fd, "r");
        _cleanup_free_ char *line = NULL;
        size_t cap = 0;
        ssize_t n;

        if (!f) {
                close(fd);
                return;
        }
        while ((n = getline(&line, &cap, f)) > 0) {
                bool nl = line[n - 1] == '\n';
                if (nl)
                        line[n - 1] = '\0';
                if (strlen(line) == (size_t) (n - nl) && sbx_text_plain_line(line)) {
                        fputs(line, stdout);
                } else {
                        _cleanup_free_ char *q = sbx_quoted(line + 1);
                        putchar(line[0] >= 0x20 && line[0] < 0x7f ? line[0] : '?');
                        fputs(q ? q : "\"?\"", stdout);
                }
                if (nl)
                        putchar('\n');
        }
        fclose(f);
        fflush(stdout);
}

/* Unified diff of one modified text file: the system's diff(1), labels a/
 * b/. Both versions are opened by sbx_sandbox_change_open() (no symlink
 * followed: a running sandbox may swap its file, or a directory above it,
 * for a symlink to a host file at any time), copied (text_snapshot), and
 * diff reads those copies, never a path or the sandbox's file. */
static void show_patch(const sbx_sandbox *s, const sbx_change *c, bool *raced) {
        char la[PATH_MAX + 8], lb[PATH_MAX + 8];
        _cleanup_close_ int ofd = -EBADF, nfd = -EBADF, oc = -EBADF, nc = -EBADF;
        pid_t pid;

        if (c->kind != SBX_CHANGE_MODIFIED || !S_ISREG(c->mode) || !S_ISREG(c->old_mode) || !c->content_changed)
                return;
        ofd = sbx_sandbox_change_open(s, c->path, false, NULL);
        nfd = sbx_sandbox_change_open(s, c->path, true, NULL);
        if (ofd < 0 || nfd < 0 || access("/usr/bin/diff", X_OK) < 0)
                return;
        oc = text_snapshot(ofd);
        nc = oc < 0 ? -EBADF : text_snapshot(nfd);
        if (oc < 0 || nc < 0)
                return;
        /* with --digest: the patch shows the bytes the digest covers, or none */
        if (c->content_hash[0]) {
                char hex[SBX_SHA256_HEX_SIZE];
                if (sbx_content_hash(nc, hex) < 0 || strcmp(hex, c->content_hash)) {
                        *raced = true;
                        return;
                }
        }
        _cleanup_free_ char *q = sbx_quoted(c->path);
        if (!q)
                return;
        snprintf(la, sizeof(la), "a/%s", q);
        snprintf(lb, sizeof(lb), "b/%s", q);
        /* On a terminal diff's lines go through sbx (patch_lines), never straight to it. */
        int out[2] = { -EBADF, -EBADF };
        if (isatty(STDOUT_FILENO) && pipe2(out, O_CLOEXEC) < 0)
                return;
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
                int o = fcntl(oc, F_DUPFD, 10), n = fcntl(nc, F_DUPFD, 10);
                if (o < 0 || n < 0 || dup2(o, 3) < 0 || dup2(n, 4) < 0 || (out[1] >= 0 && dup2(out[1], 1) < 0))
                        _exit(127);
                execl("/usr/bin/diff", "diff", "-u", "--label", la, "--label", lb, "--", "/proc/self/fd/3",
                      "/proc/self/fd/4", (char *) NULL);
                _exit(127);
        }
        if (out[1] >= 0)
                close(out[1]);
        if (pid > 0 && out[0] >= 0)
                patch_lines(out[0]);
        else if (out[0] >= 0)
                close(out[0]);
        if (pid > 0)
                (void) waitpid(pid, NULL, 0);
}

static const sbx_cli_opt diff_opts[] = {
        { "json", 0, NULL, OPT_JSON, "the changes as JSON (path, change, mode, oldMode, contentChanged)", NULL },
        { "name-status", 0, NULL, OPT_NAME_STATUS, "only the A/M/D lines, no unified diff", NULL },
        { "stat", 0, NULL, OPT_STAT, "the same as --name-status", NULL },
        { "digest", 0, NULL, OPT_DIGEST,
          "also the digest of the changes listed, for 'sbx commit --expect' (a last line 'digest sha256:...'; "
          "with --json an object {\"digest\", \"changes\"})", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_diff = {
        .name = "diff", .page = "sbx-sandbox", .fn = cli_diff, .positional = "@sandbox",
        .usage = "[--json | --name-status] [--digest] NAME",
        .summary = "list a sandbox's workspace changes (--workspace-mode overlay)",
        .text = "What the sandbox changed in its workspace (--workspace-mode overlay): A added, M modified "
                "(content, type or permissions; a type change is shown, as in 'M notes (directory -> file)'; a "
                "symlink shows its target, 'A log -> /home/u/.bashrc'), D "
                "deleted (every file under a deleted or replaced directory is listed, as commit deletes it); "
                "then a unified diff of each changed text file (on a terminal, a line holding a control character or a "
                "bidirectional control is printed quoted, as names are). A rename is a D plus an A. With --digest, the "
                "digest of what was listed (each change, each file's content): 'sbx commit --expect DIGEST' "
                "applies exactly those changes or nothing.",
        .opts = { diff_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_diff(int argc, char **argv) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        bool json = false, patch = true, digest = false;
        char dg[SBX_CHANGES_DIGEST_SIZE] = "";
        sbx_change *c = NULL;
        size_t n = 0;
        const char *ref = NULL;
        sbx_error err = {};
        sbx_cli_getopt g;
        int r, opt, status;

        opts_begin(&sbx_cmd_diff, &g);
        while ((opt = next_opt(&sbx_cmd_diff, &g, argc, argv, &status)) >= 0) {
                if (opt == OPT_JSON)
                        json = true;
                else if (opt == OPT_DIGEST)
                        digest = true;
                else
                        patch = false;
        }
        if (opt == -2)
                return status;
        if (optind < argc)
                ref = argv[optind++];
        if (optind < argc) {
                fprintf(stderr, "sbx diff: unexpected argument '%s'\n", argv[optind]);
                return SBX_EXIT_USAGE;
        }
        if (!ref) {
                fprintf(stderr, "sbx diff: no sandbox given (usage: sbx diff [--json] NAME)\n");
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_diff(ref, &c, &n, &err);
        if (r < 0)
                return fail("diff", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r, &err));
        /* the digest of the list printed below, its files read now: what
         * commit --expect will compare (before the patches, which only show
         * text files; a file changed meanwhile fails the commit) */
        if (digest && ((r = sbx_sandbox_lookup(ref, &s, &err)) < 0 ||
                       (r = sbx_sandbox_diff_digest(s, c, n, dg, &err)) < 0)) {
                sbx_changes_free(c, n);
                return fail("diff", &err, errno_status(r, &err));
        }
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
                        if (c[i].target)
                                json_object_object_add(o, "target", json_object_new_string(c[i].target));
                        json_object_array_add(a, o);
                }
                if (digest) {
                        json_object *top = json_object_new_object();
                        json_object_object_add(top, "digest", json_object_new_string(dg));
                        json_object_object_add(top, "changes", a);
                        a = top;
                }
                /* the paths are the sandbox's: no raw C1 control or DEL */
                _cleanup_free_ char *safe = sbx_json_terminal_safe(
                        json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
                json_object_put(a);
                if (!safe)
                        return fprintf(stderr, "sbx diff: out of memory\n"), SBX_EXIT_FAILURE;
                printf("%s\n", safe);
        } else {
                /* the names are the sandbox's: quoted where they are not plain text */
                for (size_t i = 0; i < n; i++) {
                        _cleanup_free_ char *q0 = sbx_quoted(c[i].path), *qt = NULL, *q = NULL;
                        if (!q0)
                                return fprintf(stderr, "sbx diff: out of memory\n"), SBX_EXIT_FAILURE;
                        /* a symlink shows where it points: "A log -> /home/u/.bashrc" */
                        if (c[i].target && !(qt = sbx_quoted(c[i].target)))
                                return fprintf(stderr, "sbx diff: out of memory\n"), SBX_EXIT_FAILURE;
                        if (asprintf(&q, "%s%s%s", q0, qt ? " -> " : "", qt ? qt : "") < 0)
                                return fprintf(stderr, "sbx diff: out of memory\n"), SBX_EXIT_FAILURE;
                        if (c[i].kind == SBX_CHANGE_MODIFIED &&
                            (c[i].mode & S_IFMT) != (c[i].old_mode & S_IFMT))
                                printf("M %s (%s -> %s)\n", q, type_name(c[i].old_mode), type_name(c[i].mode));
                        else if (c[i].kind == SBX_CHANGE_MODIFIED && !c[i].content_changed)
                                printf("M %s (mode %04o -> %04o)\n", q, (unsigned) (c[i].old_mode & 07777),
                                       (unsigned) (c[i].mode & 07777));
                        else
                                printf("%c %s\n", kind_letter(c[i].kind), q);
                }
                if (digest)
                        printf("digest %s\n", dg);
                bool raced = false;
                if (patch && n && (s || sbx_sandbox_lookup(ref, &s, NULL) == 0) && s->upper_dir)
                        for (size_t i = 0; i < n; i++)
                                show_patch(s, &c[i], &raced);
                if (raced) {
                        sbx_changes_free(c, n);
                        fprintf(stderr, "sbx diff: a file changed while sbx diff read it: its patch would not be "
                                        "what the digest covers; run sbx diff again (or sbx stop the sandbox "
                                        "first)\n");
                        return SBX_EXIT_FAILURE;
                }
        }
        sbx_changes_free(c, n);
        return 0;
}

static const sbx_cli_opt commit_opts[] = {
        { "expect", 0, "DIGEST", OPT_EXPECT,
          "apply the changes only if they are the ones 'sbx diff --digest' showed as DIGEST, else nothing "
          "(exit 125); not with PATHs", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_commit = {
        .name = "commit", .page = "sbx-sandbox", .fn = cli_commit, .in_order = true, .positional = "@sandbox",
        .usage = "[--expect DIGEST] NAME [PATH...]",
        .summary = "apply a sandbox's workspace changes to the real workspace",
        .text = "Apply the sandbox's workspace changes (all, or those at or under PATHs, relative to /workspace) "
                "to the real workspace, each file atomically (temp file + rename). Symlinks are copied as links "
                "and never followed; set-id bits are dropped; sparse files keep their holes; FIFOs, sockets and "
                "devices are skipped (counted). The sandbox keeps running; 'sbx diff' is empty afterwards but for "
                "those. Without --expect the changes applied are the layer as it is when commit runs, which a "
                "running sandbox can change after the review; with --expect DIGEST (from 'sbx diff --digest') "
                "every file is first copied aside and the digest taken of the copies, and a layer that is no "
                "longer what was reviewed is refused with nothing applied.",
        .opts = { commit_opts, common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_commit(int argc, char **argv) {
        sbx_error err = {};
        size_t skipped = 0;
        const char *expect = NULL;
        sbx_cli_getopt g;
        int r, status, opt, i;

        opts_begin(&sbx_cmd_commit, &g);
        while ((opt = next_opt(&sbx_cmd_commit, &g, argc, argv, &status)) >= 0)
                if (opt == OPT_EXPECT)
                        expect = optarg;
        if (opt == -2)
                return status;
        i = optind;
        if (i >= argc)
                return no_sandbox_given(&sbx_cmd_commit);
        if (expect && (strncmp(expect, "sha256:", 7) || strlen(expect) != SBX_CHANGES_DIGEST_SIZE - 1 ||
                       strspn(expect + 7, "0123456789abcdef") != SBX_SHA256_HEX_SIZE - 1)) {
                fprintf(stderr, "sbx commit: --expect '%s': not a digest of 'sbx diff --digest' (sha256:<64 hex>)\n",
                        expect);
                return SBX_EXIT_USAGE;
        }
        if (expect && i + 1 < argc) {
                fprintf(stderr, "sbx commit: --expect covers every change 'sbx diff --digest' listed: give no PATH\n");
                return SBX_EXIT_USAGE;
        }
        /* a PATH is relative to /workspace: one with a '..' component names
         * nothing there (it was taken and matched no change: "0 applied") */
        for (int k = i + 1; k < argc; k++)
                for (const char *c = argv[k]; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
                        if (!strncmp(c, "..", 2) && (c[2] == '\0' || c[2] == '/')) {
                                fprintf(stderr, "sbx commit: PATH '%s': a path under /workspace without '..'\n",
                                        argv[k]);
                                return SBX_EXIT_USAGE;
                        }
        r = expect ? sbx_sandbox_commit_expect(argv[i], expect, &skipped, &err)
                   : sbx_sandbox_commit(argv[i], argv + i + 1, (size_t) (argc - i - 1), &skipped, &err);
        if (r < 0)
                return fail("commit", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r, &err));
        if (skipped)
                printf("%d change%s applied, %zu skipped (FIFOs, sockets and devices are not committed)\n", r,
                       r == 1 ? "" : "s", skipped);
        else
                printf("%d change%s applied\n", r, r == 1 ? "" : "s");
        return 0;
}

const sbx_cli_cmd sbx_cmd_reset = {
        .name = "reset", .page = "sbx-sandbox", .fn = cli_reset, .in_order = true, .positional = "@sandbox",
        .usage = "NAME",
        .summary = "discard a sandbox's workspace changes",
        .text = "Discard the sandbox's workspace changes. A running sandbox is restarted (its processes end): "
                "the overlay must not change under a live mount.",
        .opts = { common_opts, NULL },
        .footer = NAME_CMD_FOOTER,
};

int cli_reset(int argc, char **argv) {
        sbx_error err = {};
        char usage[256];
        int r, status, i = only_common_opts(&sbx_cmd_reset, argc, argv, &status);

        if (i < 0)
                return status;
        if (argc - i != 1) {
                fprintf(stderr, "sbx reset: expected one NAME (%s)\n",
                        sbx_cli_usage_line(&sbx_cmd_reset, usage, sizeof(usage)));
                return SBX_EXIT_USAGE;
        }
        r = sbx_sandbox_reset(argv[i], &err);
        if (r < 0)
                return fail("reset", &err, r == -ENOTSUP ? SBX_EXIT_USAGE : errno_status(r, &err));
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* sbx run [OPTIONS] -- CMD [ARGS...]: options -> struct sbx_run_config -> sbx_run(). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "agent/agent.h"
#include "net/net.h"
#include "util/util.h"
#include "policy/policy.h"
#include "launch/launch.h"
#include "sandbox/sandbox.h"
#include <sys/stat.h>

enum {
        OPT_ROOTFS = 256, OPT_WORKSPACE, OPT_WS_ACCESS, OPT_HOSTNAME, OPT_ULIMIT, OPT_TMPFS, OPT_BIND,
        OPT_RO_BIND, OPT_WRITABLE_ROOT, OPT_DNS, OPT_ADD_HOST, OPT_NETWORK, OPT_MEMORY, OPT_MEMORY_SWAP,
        OPT_PIDS, OPT_CPUS, OPT_LIMITS, OPT_SECCOMP, OPT_TIMEOUT, OPT_TTY, OPT_NO_TTY, OPT_STATE_DIR,
        OPT_EXEC_ALLOW, OPT_READ_ONLY_FS, OPT_DENY_NET_SOCKETS, OPT_LANDLOCK, OPT_AUDIT_LOG,
        OPT_EXEC_APPROVALS, OPT_CONFIG, OPT_AGENT, OPT_SESSION, OPT_SUBAGENT,
        OPT_IMAGE, OPT_SETUP_COMMAND, OPT_ROOT_LAYER_DIR, OPT_ALLOW_NS_JOIN,
};

/* The options of sbx run, and (with cli-sandbox.c's) of sbx create and sbx run --name. */
const sbx_cli_opt sbx_run_opts[] = {
        SBX_CLI_SECTION("OpenClaw policy"),
        { "agent", 0, "ID", OPT_AGENT, "take the sandbox settings from openclaw.json as OpenClaw 2026.9.6 resolves "
          "them for this agent (with --session: that session; see 'sbx explain'); the options below, given "
          "explicitly, override them. A session OpenClaw would run unsandboxed (mode \"off\") is still "
          "sandboxed, with a note", NULL },
        { "session", 0, "KEY", OPT_SESSION, "the session key or short name whose settings to take (default: the "
          "agent's main session)", NULL },
        { "subagent", 0, NULL, OPT_SUBAGENT, "evaluate the session as a sub-agent session", NULL },
        { "config", 0, "FILE", OPT_CONFIG, "openclaw.json (default: $OPENCLAW_CONFIG_PATH, "
          "$OPENCLAW_STATE_DIR/openclaw.json, ~/.openclaw/openclaw.json)", "@file" },
        SBX_CLI_SECTION("Root and workspace"),
        { "rootfs", 0, "DIR", OPT_ROOTFS, "use DIR as the (read-only) root instead of the host's /usr, /bin, "
          "/lib*, /sbin", "@dir" },
        { "image", 0, "NAME[:TAG]", OPT_IMAGE, "an image from the store ('sbx rootfs ls') as the root; its Env "
          "(under --env), WorkingDir and User are the defaults", "@image" },
        { "workspace", 0, "DIR", OPT_WORKSPACE, "the directory behind /workspace (sbx run: default an empty "
          "per-run dir)", "@dir" },
        { "workspace-access", 0, "MODE", OPT_WS_ACCESS, "none: an overlay, writes stay in the sandbox (sbx run's "
          "default); ro: DIR read-only at /workspace and /agent; rw: DIR itself, writable", "none ro rw" },
        { "writable-root", 0, NULL, OPT_WRITABLE_ROOT, "with --rootfs/--image: a per-run overlay upper layer "
          "over the image (the image never changes); else the root tmpfs stays writable", NULL },
        { "root-layer-dir", 0, "DIR", OPT_ROOT_LAYER_DIR, "with --writable-root: keep the upper layer in "
          "DIR/upper (+ DIR/work) across runs (a persistent sandbox's root) instead of per run; DIR yours, "
          "not group/world-writable", "@dir" },
        { "setup-command", 0, "CMD", OPT_SETUP_COMMAND, "run `sh -lc CMD` once inside the sandbox before CMD; "
          "its output goes to stderr; failure: exit 125, nothing is left behind", NULL },
        { "bind", 0, "SRC[:DST[:ro|rw]]", OPT_BIND,
          "bind a host path (read-write unless :ro; not one that is, holds or lies in the state dir; repeatable)",
          "@file" },
        { "ro-bind", 0, "SRC[:DST]", OPT_RO_BIND, "same as --bind SRC:DST:ro", "@file" },
        { "tmpfs", 0, "PATH[:size=SIZE,mode=MODE,noexec]", OPT_TMPFS, "a tmpfs at PATH; replaces the default /tmp "
          "/var/tmp /run tmpfs", NULL },
        SBX_CLI_SECTION("Process"),
        { "env", 'e', "KEY=VALUE", 'e', "set a variable (the environment is otherwise clean; repeatable)", NULL },
        { "workdir", 'w', "DIR", 'w', "working directory inside (default /workspace)", NULL },
        { "user", 'u', "UID[:GID]", 'u', "numeric user inside (default 0:0 or the image's User; no "
          "capabilities either way)", NULL },
        { "hostname", 0, "NAME", OPT_HOSTNAME, "hostname inside (default sbx)", NULL },
        { "ulimit", 0, "NAME=SOFT[:HARD]", OPT_ULIMIT, "a resource limit, e.g. nofile=1024:2048, nproc=256, "
          "core=0 (repeatable)", NULL },
        { "timeout", 0, "SECONDS", OPT_TIMEOUT, "kill the whole sandbox after SECONDS (exit status 124)", NULL },
        { "tty", 0, NULL, OPT_TTY, "give the sandbox its own pty (default: when stdin is a tty)", NULL },
        { "no-tty", 0, NULL, OPT_NO_TTY, "no pty, even when stdin is a tty", NULL },
        { "state-dir", 0, "DIR", OPT_STATE_DIR, "where run and sandbox state lives (default $XDG_RUNTIME_DIR/sbx; "
          "else /run/sbx as root where /run is a tmpfs, /dev/shm/sbx-$UID, /run/sbx as root, /tmp/sbx-$UID)", "@dir" },
        SBX_CLI_SECTION("Network"),
        { "network", 0, "MODE", OPT_NETWORK, "none (default): only lo; bridge: egress through NAT (root: veth "
          "on the sbx0 bridge; otherwise pasta); container:NAME: the network namespace of the running "
          "persistent sandbox NAME (needs --dangerously-allow-container-namespace-join; without root the "
          "sandbox also shares NAME's user namespace); NAME: a network of 'sbx network' (its egress "
          "allowlist)", "none bridge container:" },
        { "dangerously-allow-container-namespace-join", 0, NULL, OPT_ALLOW_NS_JOIN, "allow --network "
          "container:NAME (OpenClaw's dangerouslyAllowContainerNamespaceJoin)", NULL },
        { "dns", 0, "ADDR", OPT_DNS, "a nameserver line in /etc/resolv.conf (repeatable)", NULL },
        { "add-host", 0, "NAME:IP", OPT_ADD_HOST, "a line in /etc/hosts (repeatable); IP host-gateway = the "
          "host's loopback, seen from the sandbox", NULL },
        SBX_CLI_SECTION("Resource limits (cgroup v2; cgroup v1/hybrid hosts as root)"),
        { "memory", 0, "SIZE", OPT_MEMORY, "memory limit, e.g. 512m", NULL },
        { "memory-swap", 0, "SIZE", OPT_MEMORY_SWAP, "memory + swap limit (-1: unlimited swap)", NULL },
        { "pids-limit", 0, "N", OPT_PIDS, "at most N processes and threads; 0 or -1: none. Without it every "
          "sandbox gets a default cap of 1024 where a pids controller is usable ($SBX_DEFAULT_PIDS_LIMIT=N "
          "changes it, 0 turns it off)", NULL },
        { "cpus", 0, "N", OPT_CPUS, "CPU time, in CPUs (e.g. 0.5)", NULL },
        { "limits", 0, "MODE", OPT_LIMITS, "strict (default): refuse to run when a limit cannot be enforced; "
          "best-effort: run without it", "strict best-effort" },
        SBX_CLI_SECTION("Exec policy and derived kernel rules (decided before any process is created)"),
        { "exec-allow", 0, "PATTERN", OPT_EXEC_ALLOW, "allow only matching executables (repeatable; OpenClaw "
          "allowlist syntax: absolute path or glob with * ** ?, or '*'); decided on the resolved file of CMD "
          "and of each #! interpreter, and enforced for every exec in the sandbox with Landlock's execute "
          "right", NULL },
        { "read-only-fs", 0, NULL, OPT_READ_ONLY_FS, "no writes except tmpfs and /dev, enforced with Landlock "
          "(EACCES), also where the mount is writable (/workspace, --bind)", NULL },
        { "deny-network-sockets", 0, NULL, OPT_DENY_NET_SOCKETS, "seccomp refuses AF_INET, AF_INET6, AF_PACKET "
          "and AF_NETLINK sockets", NULL },
        { "landlock", 0, "MODE", OPT_LANDLOCK, "enforce (default): refuse to run when Landlock cannot enforce the "
          "rules; best-effort: run without them, with a warning naming them", "enforce best-effort" },
        { "seccomp-profile", 0, "FILE", OPT_SECCOMP, "a Docker-format seccomp profile instead of the default (a "
          "persistent sandbox keeps the file as create read it)",
          "@file" },
        { "audit-log", 0, "FILE", OPT_AUDIT_LOG, "JSON Lines audit log (default: <state dir>/audit.jsonl)",
          "@file" },
        { "exec-approvals", 0, "FILE", OPT_EXEC_APPROVALS, "one-shot sbx run: OpenClaw exec-approvals.json "
          "(default with --agent: "
          "~/.openclaw/exec-approvals.json if present): security deny refuses every command, allowlist adds "
          "its patterns as --exec-allow", "@file" },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

static const sbx_cli_opt *const run_tables[] = { sbx_run_opts, NULL };

const sbx_cli_cmd sbx_cmd_run = {
        .name = "run", .page = "sbx-run", .fn = cli_run_dispatch, .in_order = true, .positional = "@command",
        .usage = "[OPTIONS] [--] CMD [ARGS...]\n--name NAME [OPTIONS] [--] CMD [ARGS...]\n"
                 "--scope session|agent|shared [--agent ID] [--session KEY] [OPTIONS] [--] CMD [ARGS...]",
        .summary = "run a command in a new sandbox (--name NAME: in a persistent one)",
        .text = "Run CMD in a new sandbox: new user, mount, pid, net, ipc, uts and cgroup namespaces; a "
                "read-only root (the host's /usr, /bin, /lib*, /sbin, or --rootfs/--image); /workspace; no "
                "capabilities, no_new_privs, the default seccomp profile. The sandbox and everything in it "
                "end with CMD.\n\n"
                "The default read-only root (no network to attach) is built once per template (its /etc "
                "files, binds and mountpoints) by a holder process under the state dir (templates/) and "
                "copied by each run: as root on Linux 6.15 or later (also a persistent sandbox's, with a "
                "workspace directory or overlay), rootless on Linux 6.15 or later for a run without -t, "
                "--timeout, a setup command or an exec log (with one of those: on a host with 4,000 threads or "
                "more); sbx rm -f --all removes the holders. SBX_TEMPLATE=1 uses templates for every such "
                "run, SBX_TEMPLATE=0 never (the same view either way).\n\n"
                "With --name or --scope, CMD runs in a persistent sandbox instead (see sbx create): made with "
                "these options on first use, exec'd into afterwards; parallel runs share one sandbox. --scope "
                "takes the sandbox OpenClaw would use for that scope from openclaw.json: its container name, "
                "settings and labels.",
        .opts = { sbx_run_opts, sbx_persistent_opts, NULL },
        .footer = "Exit status: CMD's own; 128+N if killed by signal N; 124 timeout; 2 bad usage; 125 sbx "
                  "failed (the message names the step and path); 126 not executable or refused by the exec "
                  "policy (the message names the rule); 127 not found.",
};

static int set_str(char **dst, const char *v) {
        free(*dst);
        *dst = strdup(v);
        return *dst ? 0 : -ENOMEM;
}

static int parse_u64(const char *s, int64_t min, int64_t max, int64_t *ret) {
        char *end;
        long long v;

        errno = 0;
        v = strtoll(s, &end, 10);
        if (errno || end == s || *end || v < min || v > max)
                return -EINVAL;
        *ret = v;
        return 0;
}

/* One option into the config; returns 0, or a negative errno with reterr set. */
static int apply_option(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e) {
        sbx_bind b;
        sbx_tmpfs t;
        sbx_rlimit rl;
        int64_t v;
        int r;

        switch (opt) {
        case OPT_ROOTFS:
                return set_str(&c->rootfs, arg);
        case OPT_WORKSPACE:
                return set_str(&c->workspace, arg);
        case OPT_WS_ACCESS:
                c->workspace_access = sbx_workspace_access_from_string(arg);
                if (c->workspace_access < 0)
                        return sbx_error_set(e, -EINVAL, "--workspace-access '%s': expected none, ro or rw", arg);
                return 0;
        case 'e':
                r = sbx_parse_env(arg, e);
                return r < 0 ? r : sbx_run_config_add_env(c, arg);
        case 'w':
                if (arg[0] != '/')
                        return sbx_error_set(e, -EINVAL, "--workdir '%s': must be absolute", arg);
                return set_str(&c->workdir, arg);
        case 'u':
                c->user_set = true;
                return sbx_parse_user(arg, &c->uid, &c->gid, e);
        case OPT_ROOT_LAYER_DIR:
                if (arg[0] != '/' || strpbrk(arg, ",:"))
                        return sbx_error_set(e, -EINVAL, "--root-layer-dir '%s': must be absolute, without ',' or ':'", arg);
                return set_str(&c->root_layer_dir, arg);
        case OPT_SETUP_COMMAND:
                if (!arg[0])
                        return sbx_error_set(e, -EINVAL, "--setup-command: empty command");
                return set_str(&c->setup_command, arg);
        case OPT_HOSTNAME:
                r = sbx_check_hostname("--hostname", arg, e);
                return r < 0 ? r : set_str(&c->hostname, arg);
        case OPT_ULIMIT:
                r = sbx_parse_ulimit(arg, &rl, e);
                return r < 0 ? r : sbx_run_config_add_rlimit(c, &rl);
        case OPT_TMPFS:
                r = sbx_parse_tmpfs(arg, &t, e);
                if (r < 0)
                        return r;
                r = sbx_run_config_add_tmpfs(c, &t);
                free(t.path);
                return r;
        case OPT_BIND:
        case OPT_RO_BIND:
                r = sbx_parse_bind(opt == OPT_RO_BIND ? "--ro-bind" : "--bind", arg, &b, e);
                if (r < 0)
                        return r;
                if (opt == OPT_RO_BIND)
                        b.ro = true;
                r = sbx_run_config_add_bind(c, &b);
                free(b.src);
                free(b.dst);
                return r;
        case OPT_WRITABLE_ROOT:
                c->read_only_root = false;
                return 0;
        case OPT_DNS:
                r = sbx_dns_parse(arg, e);
                if (r < 0)
                        return sbx_error_wrap(e, "--dns"), r;
                return sbx_run_config_add_dns(c, arg);
        case OPT_ADD_HOST: {
                sbx_extra_host h;
                r = sbx_extra_host_parse(arg, &h, e);
                if (r < 0)
                        return sbx_error_wrap(e, "--add-host"), r;
                return sbx_run_config_add_extra_host(c, arg);
        }
        case OPT_NETWORK:
                /* container:NAME: the override is checked once all options are in */
                r = sbx_run_config_set_network(c, arg, true, e);
                return r < 0 ? (sbx_error_wrap(e, "--network"), -EINVAL) : 0;
        case OPT_ALLOW_NS_JOIN:
                c->allow_container_join = true;
                return 0;
        case OPT_MEMORY:
        case OPT_MEMORY_SWAP:
                if (sbx_run_config_set_memory(c, opt == OPT_MEMORY_SWAP, arg, false) < 0)
                        return sbx_error_set(e, -EINVAL, "--%s '%s': expected a size such as 512m",
                                             opt == OPT_MEMORY ? "memory" : "memory-swap", arg);
                return 0;
        case OPT_PIDS:
                /* docker: 0 or -1 = unlimited, which also turns off sbx's default cap */
                if (!strcmp(arg, "-1") || !strcmp(arg, "0")) {
                        c->limits.pids = SBX_LIMIT_UNLIMITED;
                        return 0;
                }
                if (parse_u64(arg, 1, INT32_MAX, &v) < 0)
                        return sbx_error_set(e, -EINVAL, "--pids-limit '%s': expected a positive number, "
                                             "or 0/-1 for none", arg);
                c->limits.pids = v;
                return 0;
        case OPT_CPUS:
                if (sbx_parse_cpus(arg, &c->limits.cpu_millis) < 0)
                        return sbx_error_set(e, -EINVAL, "--cpus '%s': expected a positive number such as 0.5", arg);
                return 0;
        case OPT_LIMITS:
                if (strcmp(arg, "best-effort") && strcmp(arg, "strict"))
                        return sbx_error_set(e, -EINVAL, "--limits '%s': expected best-effort or strict", arg);
                c->limits.best_effort = !strcmp(arg, "best-effort");
                return 0;
        case OPT_SECCOMP:
                c->seccomp.profile_path = arg;
                return 0;
        case OPT_TIMEOUT:
                if (parse_u64(arg, 1, 31536000, &v) < 0)
                        return sbx_error_set(e, -EINVAL, "--timeout '%s': expected seconds (1..31536000)", arg);
                c->timeout_sec = v;
                return 0;
        case OPT_TTY:
        case OPT_NO_TTY:
                c->tty = opt == OPT_TTY;
                *tty_set = true;
                return 0;
        case OPT_CONFIG:
        case OPT_AGENT:
        case OPT_SESSION:
        case OPT_SUBAGENT:
                return 0; /* consumed by the policy pass */
        case OPT_STATE_DIR:
                if (arg[0] != '/')
                        return sbx_error_set(e, -EINVAL, "--state-dir '%s': must be absolute", arg);
                return set_str(&c->state_dir, arg);
        case OPT_EXEC_ALLOW:
                if (!arg[0] || (strcmp(arg, "*") && arg[0] != '/' && arg[0] != '~'))
                        return sbx_error_set(e, -EINVAL, "--exec-allow '%s': expected an absolute path, "
                                             "a glob such as /usr/bin/*, ~/..., or '*'", arg);
                return sbx_run_config_add_exec_allow(c, arg);
        case OPT_READ_ONLY_FS:
                c->read_only_fs = true;
                return 0;
        case OPT_DENY_NET_SOCKETS:
                c->seccomp.deny_inet_sockets = true;
                return 0;
        case OPT_LANDLOCK:
                if (strcmp(arg, "enforce") && strcmp(arg, "best-effort"))
                        return sbx_error_set(e, -EINVAL, "--landlock '%s': expected enforce or best-effort", arg);
                c->landlock_best_effort = !strcmp(arg, "best-effort");
                return 0;
        case OPT_AUDIT_LOG:
                if (!arg[0])
                        return sbx_error_set(e, -EINVAL, "--audit-log: empty path");
                return set_str(&c->audit_log, arg);
        default:
                return sbx_error_set(e, -EINVAL, "unknown option");
        }
}

/* --agent/--session: the OpenClaw-resolved sandbox as the base of the run config.
 * Returns 0 (nothing requested or applied), or an exit status. */
static int apply_policy(const char *cmd, const sbx_cli_opt *const *tables, int argc, char **argv,
                        sbx_run_config *c, sbx_resolved *r) {
        const char *config = NULL;
        sbx_request req = {};
        bool wanted = false, help = false;
        sbx_cli_getopt g;
        int opt;

        sbx_cli_getopt_init(&g, tables, true);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1)
                switch (opt) {
                case OPT_CONFIG: config = optarg; break;
                case OPT_AGENT: req.agent = optarg; wanted = true; break;
                case OPT_SESSION: req.session = optarg; wanted = true; break;
                case OPT_SUBAGENT: req.subagent = true; wanted = true; break;
                case 'h': help = true; break;
                default: break;
                }
        /* --config alone read nothing (a missing or broken file ran all
         * the same): an option that does nothing is refused */
        if (!wanted && config && !help) {
                fprintf(stderr, "sbx %s: --config '%s': openclaw.json is read only for --agent or --session "
                                "(give one, or drop --config)\n", cmd, config);
                return SBX_EXIT_USAGE;
        }
        if (!wanted)
                return 0;

        _cleanup_free_ char *path = NULL;
        sbx_config cfg = {};
        sbx_config_diag diag = {};
        sbx_strv notes = {};
        sbx_error e = {};
        char buf[SBX_ERROR_MSG_MAX];
        int k = sbx_config_find(config, &path, &e);
        if (k >= 0)
                k = sbx_config_load(path, &cfg, &diag, &e);
        if (k >= 0)
                k = sbx_resolve(&cfg, &req, r, NULL, &e);
        sbx_config_done(&cfg);
        sbx_config_diag_done(&diag);
        if (k < 0) {
                fprintf(stderr, "sbx %s: %s\n", cmd, sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        if (!r->sandboxed)
                fprintf(stderr, "sbx %s: note: OpenClaw would run session %s of agent %s on the host (sandbox mode "
                                "\"%s\"); sbx sandboxes it anyway with the agent's settings\n",
                        cmd, r->session_key, r->agent_id, r->mode == SBX_MODE_OFF ? "off" : "non-main");
        k = sbx_policy_to_run_config(r, c, &notes, &e);
        for (size_t i = 0; i < notes.n; i++)
                fprintf(stderr, "sbx %s: note: %s\n", cmd, notes.v[i]);
        sbx_strv_free(&notes);
        if (k < 0) {
                fprintf(stderr, "sbx %s: agent %s: %s\n", cmd, r->agent_id, sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        /* OpenClaw creates the sandbox workspace dir on first use; so do we (0700) */
        if (c->workspace_access == SBX_WORKSPACE_NONE && c->workspace && access(c->workspace, F_OK) < 0)
                c->workspace_sbx_owned = true;      /* ours: see sbx_run_config */
        if (c->workspace_access == SBX_WORKSPACE_NONE && c->workspace && mkdir(c->workspace, 0700) < 0 &&
            errno != EEXIST) {
                _cleanup_free_ char *parent = strdup(c->workspace);
                for (char *p = parent ? parent + 1 : NULL; p && (p = strchr(p, '/')); p++) {
                        *p = '\0';
                        (void) mkdir(parent, 0700);
                        *p = '/';
                }
                if (mkdir(c->workspace, 0700) < 0 && errno != EEXIST) {
                        fprintf(stderr, "sbx %s: cannot create the sandbox workspace %s: %m\n", cmd, c->workspace);
                        return SBX_EXIT_FAILURE;
                }
        }
        return 0;
}

static void print_notice(const char *msg) {
        fprintf(stderr, "sbx run: %s\n", msg);
}

int cli_run(int argc, char **argv) {
        _cleanup_(sbx_run_config_free) sbx_run_config c;
        _cleanup_(sbx_resolved_done) sbx_resolved resolved = {};
        sbx_error err = {};
        char buf[SBX_ERROR_MSG_MAX + 64];
        const char *approvals = NULL;
        bool tty_set = false;
        const char *image = NULL;
        sbx_cli_getopt g;
        int opt, r;

        sbx_run_config_init(&c);
        r = apply_policy("run", run_tables, argc, argv, &c, &resolved);
        if (r != 0)
                return r;
        sbx_cli_getopt_init(&g, run_tables, true);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
                if (opt == 'h') {
                        sbx_cli_usage(stdout, &sbx_cmd_run);
                        return 0;
                }
                if (opt == '?' || opt == ':') {
                        /* an option of sbx run --name (its --help lists it) */
                        const char *w = argv[optind - 1];
                        const sbx_cli_opt *o;
                        for (sbx_cli_iter it = {}; !strncmp(w, "--", 2) && (o = sbx_cli_next_opt(&sbx_cmd_run, &it));)
                                if (sbx_cli_opt_val(sbx_run_opts, o->name) < 0 &&
                                    !strncmp(w + 2, o->name, strlen(o->name)) &&
                                    (!w[2 + strlen(o->name)] || w[2 + strlen(o->name)] == '=')) {
                                        fprintf(stderr, "sbx run: --%s is for a persistent sandbox: give --name NAME "
                                                        "or --scope SCOPE too (see 'sbx run --help')\n", o->name);
                                        return SBX_EXIT_USAGE;
                                }
                        sbx_cli_bad_option(&sbx_cmd_run, &g, argc, argv);
                        return SBX_EXIT_USAGE;
                }
                if (opt == OPT_EXEC_APPROVALS) {
                        approvals = optarg;
                        continue;
                }
                if (opt == OPT_IMAGE) {
                        image = optarg;
                        continue;
                }
                r = apply_option(&c, opt, optarg, &tty_set, &err);
                if (r < 0) {
                        if (r == -ENOMEM)
                                sbx_error_set(&err, r, "out of memory");
                        fprintf(stderr, "sbx run: %s\n", sbx_error_text(&err, buf, sizeof(buf)));
                        return SBX_EXIT_USAGE;
                }
        }
        if (optind >= argc) {
                fprintf(stderr, "sbx run: no command given (usage: sbx run [OPTIONS] -- CMD [ARGS...])\n");
                return SBX_EXIT_USAGE;
        }
        if (image && c.rootfs) {
                fprintf(stderr, "sbx run: --image and --rootfs: give one of them\n");
                return SBX_EXIT_USAGE;
        }
        if (sbx_run_config_check_network(&c, &err) < 0) {
                fprintf(stderr, "sbx run: --network: %s\n", sbx_error_text(&err, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        /* --network container:NAME finds NAME among --state-dir's sandboxes
         * (as sbx create/exec and run --name do), not the default root's */
        if (c.state_dir) {
                char root[PATH_MAX];
                if ((size_t) snprintf(root, sizeof(root), "%s/sandboxes", c.state_dir) >= sizeof(root) ||
                    sbx_sandbox_root_set(root, &err) < 0) {
                        fprintf(stderr, "sbx run: --state-dir '%s': %s\n", c.state_dir,
                                err.code ? sbx_error_text(&err, buf, sizeof(buf)) : "path too long");
                        return SBX_EXIT_USAGE;
                }
        }
        /* After every option: explicit --env/--workdir/--user win over the image. */
        if (image && sbx_run_config_apply_image(&c, image, &err) < 0) {
                fprintf(stderr, "sbx run: --image: %s\n", sbx_error_text(&err, buf, sizeof(buf)));
                return SBX_EXIT_FAILURE;
        }
        c.argv = argv + optind;
        c.notice = print_notice;
        /* issue 6: the exec tool check, the derived kernel rules, the exec approvals. */
        r = sbx_tool_rules_apply(&c, resolved.agent_id ? &resolved : NULL, approvals, &err);
        if (r < 0) {
                fprintf(stderr, "sbx run: %s\n", sbx_error_text(&err, buf, sizeof(buf)));
                return r == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
        }
        if (!tty_set)
                c.tty = isatty(STDIN_FILENO);
        r = sbx_run(&c, &err);
        if (err.code != 0 && (r == SBX_EXIT_FAILURE || r == SBX_EXIT_USAGE || r == SBX_EXIT_CANNOT_EXEC ||
                              r == SBX_EXIT_NOT_FOUND || r == SBX_EXIT_TIMEOUT)) {
                /* a usage error (2): its message alone (ERRORS.md) */
                fprintf(stderr, "sbx run: %s\n", r == SBX_EXIT_USAGE ? sbx_error_text(&err, buf, sizeof(buf))
                                                                       : sbx_error_why(&err, buf, sizeof(buf)));
        }
        return r;
}

/* Shared with cli-sandbox.c: sbx create and sbx run --name take the same
 * sandbox options as sbx run. */
int sbx_cli_run_apply(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e) {
        return apply_option(c, opt, arg, tty_set, e);
}

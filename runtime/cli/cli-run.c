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
#include <sys/stat.h>

static void run_usage(FILE *f) {
        fputs("usage: sbx run [OPTIONS] -- CMD [ARGS...]\n"
              "\n"
              "Run CMD in a new sandbox: new user, mount, pid, net, ipc, uts and cgroup namespaces;\n"
              "a read-only root (the host's /usr, /bin, /lib*, /sbin, or --rootfs); /workspace;\n"
              "no capabilities, no_new_privs, the default seccomp profile.\n"
              "\n"
              "  --agent ID --session KEY  take the sandbox settings from openclaw.json as OpenClaw 2026.9.6\n"
              "                            resolves them for that agent/session (see 'sbx explain'); the\n"
              "                            options below, given explicitly, override them. A session OpenClaw\n"
              "                            would run unsandboxed (mode \"off\") is still sandboxed, with a note.\n"
              "      --subagent            evaluate the session as a sub-agent session\n"
              "      --config FILE         openclaw.json (default: $OPENCLAW_CONFIG_PATH, ~/.openclaw/openclaw.json)\n"
              "  --rootfs DIR              use DIR as the (read-only) root instead of the host's /usr etc.\n"
              "  --image NAME[:TAG]        an image from the store ('sbx rootfs ls') as the root; its Env\n"
              "                            (under --env), WorkingDir and User are the defaults\n"
              "  --workspace DIR           the directory behind /workspace (default: an empty per-run dir)\n"
              "  --workspace-access MODE   none: overlay, writes stay in the sandbox (default);\n"
              "                            ro: DIR read-only at /workspace and /agent; rw: DIR itself, writable\n"
              "  -e, --env KEY=VALUE       set a variable (the environment is otherwise clean)\n"
              "  -w, --workdir DIR         working directory inside (default /workspace)\n"
              "  -u, --user UID[:GID]      numeric user inside (default 0:0 or the image's User; no capabilities)\n"
              "      --hostname NAME       hostname inside (default sbx)\n"
              "      --ulimit NAME=SOFT[:HARD]  e.g. nofile=1024:2048, nproc=256, core=0\n"
              "      --tmpfs PATH[:size=SIZE,mode=MODE]  replaces the default /tmp /var/tmp /run tmpfs\n"
              "      --bind SRC[:DST[:ro|rw]]  bind a host path (read-write unless :ro)\n"
              "      --ro-bind SRC[:DST]   same as --bind SRC:DST:ro\n"
              "      --writable-root       with --rootfs/--image: a per-run overlay upper layer over the\n"
              "                            image (the image never changes); else the root tmpfs stays writable\n"
              "      --root-layer-dir DIR  with --writable-root: keep the upper layer in DIR/upper (+ DIR/work)\n"
              "                            across runs (a persistent sandbox's root) instead of per run\n"
              "      --setup-command CMD   run `sh -lc CMD` once inside the sandbox before CMD; its output\n"
              "                            goes to stderr; failure: exit 125, nothing is left behind\n"
              "      --network MODE        none (default): only lo; bridge: egress through NAT\n"
              "                            (root: veth on the sbx0 bridge; otherwise pasta);\n"
              "                            container:NAME: the network namespace of the running\n"
              "                            persistent sandbox NAME (needs the next option; without\n"
              "                            root the sandbox also shares NAME's user namespace)\n"
              "      --dangerously-allow-container-namespace-join  allow --network container:NAME\n"
              "                            (OpenClaw's dangerouslyAllowContainerNamespaceJoin)\n"
              "      --dns ADDR            nameserver line in /etc/resolv.conf (repeatable)\n"
              "      --add-host NAME:IP|NAME:host-gateway  line in /etc/hosts (repeatable);\n"
              "                            host-gateway = the host's loopback, seen from the sandbox\n"
              "      --memory SIZE --memory-swap SIZE --pids-limit N --cpus N   cgroup v2 limits\n"
              "      --limits best-effort  run even if limits cannot be enforced\n"
              "      --seccomp-profile FILE  a Docker-format seccomp profile instead of the default\n"
              "      --timeout SECONDS     kill the whole sandbox after SECONDS (exit status 124)\n"
              "      --tty / --no-tty      give the sandbox its own pty (default: when stdin is a tty)\n"
              "      --state-dir DIR       where per-run state lives (default $XDG_RUNTIME_DIR/sbx,\n"
              "                            /run/sbx as root, /tmp/sbx-$UID)\n"
              "\n"
              "Exec policy and derived kernel rules (decided before any process is created):\n"
              "      --exec-allow PATTERN  allow only matching executables (repeatable; OpenClaw allowlist\n"
              "                            syntax: absolute path or glob with * ** ?, or '*'); decided on the\n"
              "                            resolved file of CMD and of each #! interpreter, and enforced for\n"
              "                            every exec in the sandbox with Landlock's execute right\n"
              "      --read-only-fs        no writes except tmpfs and /dev, enforced with Landlock (EACCES),\n"
              "                            also where the mount is writable (/workspace, --bind)\n"
              "      --deny-network-sockets  seccomp refuses AF_INET/AF_INET6/AF_PACKET/AF_NETLINK sockets\n"
              "      --landlock MODE       enforce (default): refuse to run when Landlock cannot enforce the\n"
              "                            rules; best-effort: run without them, with a warning naming them\n"
              "      --audit-log FILE      JSON Lines audit log (default: <state dir>/audit.jsonl)\n"
              "      --exec-approvals FILE OpenClaw exec-approvals.json (default with --agent:\n"
              "                            ~/.openclaw/exec-approvals.json if present): security deny refuses\n"
              "                            every command, allowlist adds its patterns as --exec-allow\n"
              "  -h, --help                this text\n"
              "\n"
              "Exit status: CMD's own; 128+N if killed by signal N; 124 timeout; 2 bad usage;\n"
              "125 sbx failed (the message names the step and path); 126 not executable or refused by\n"
              "the exec policy (the message names the rule); 127 not found.\n",
              f);
}

enum {
        OPT_ROOTFS = 256, OPT_WORKSPACE, OPT_WS_ACCESS, OPT_HOSTNAME, OPT_ULIMIT, OPT_TMPFS, OPT_BIND,
        OPT_RO_BIND, OPT_WRITABLE_ROOT, OPT_DNS, OPT_ADD_HOST, OPT_NETWORK, OPT_MEMORY, OPT_MEMORY_SWAP,
        OPT_PIDS, OPT_CPUS, OPT_LIMITS, OPT_SECCOMP, OPT_TIMEOUT, OPT_TTY, OPT_NO_TTY, OPT_STATE_DIR,
        OPT_EXEC_ALLOW, OPT_READ_ONLY_FS, OPT_DENY_NET_SOCKETS, OPT_LANDLOCK, OPT_AUDIT_LOG,
        OPT_EXEC_APPROVALS, OPT_CONFIG, OPT_AGENT, OPT_SESSION, OPT_SUBAGENT,
        OPT_IMAGE, OPT_SETUP_COMMAND, OPT_ROOT_LAYER_DIR, OPT_ALLOW_NS_JOIN,
};

static const struct option options[] = {
        { "rootfs", required_argument, NULL, OPT_ROOTFS },
        { "image", required_argument, NULL, OPT_IMAGE },
        { "setup-command", required_argument, NULL, OPT_SETUP_COMMAND },
        { "root-layer-dir", required_argument, NULL, OPT_ROOT_LAYER_DIR },
        { "workspace", required_argument, NULL, OPT_WORKSPACE },
        { "workspace-access", required_argument, NULL, OPT_WS_ACCESS },
        { "env", required_argument, NULL, 'e' },
        { "workdir", required_argument, NULL, 'w' },
        { "user", required_argument, NULL, 'u' },
        { "hostname", required_argument, NULL, OPT_HOSTNAME },
        { "ulimit", required_argument, NULL, OPT_ULIMIT },
        { "tmpfs", required_argument, NULL, OPT_TMPFS },
        { "bind", required_argument, NULL, OPT_BIND },
        { "ro-bind", required_argument, NULL, OPT_RO_BIND },
        { "writable-root", no_argument, NULL, OPT_WRITABLE_ROOT },
        { "dns", required_argument, NULL, OPT_DNS },
        { "add-host", required_argument, NULL, OPT_ADD_HOST },
        { "network", required_argument, NULL, OPT_NETWORK },
        { "dangerously-allow-container-namespace-join", no_argument, NULL, OPT_ALLOW_NS_JOIN },
        { "memory", required_argument, NULL, OPT_MEMORY },
        { "memory-swap", required_argument, NULL, OPT_MEMORY_SWAP },
        { "pids-limit", required_argument, NULL, OPT_PIDS },
        { "cpus", required_argument, NULL, OPT_CPUS },
        { "limits", required_argument, NULL, OPT_LIMITS },
        { "seccomp-profile", required_argument, NULL, OPT_SECCOMP },
        { "timeout", required_argument, NULL, OPT_TIMEOUT },
        { "tty", no_argument, NULL, OPT_TTY },
        { "no-tty", no_argument, NULL, OPT_NO_TTY },
        { "state-dir", required_argument, NULL, OPT_STATE_DIR },
        { "exec-allow", required_argument, NULL, OPT_EXEC_ALLOW },
        { "read-only-fs", no_argument, NULL, OPT_READ_ONLY_FS },
        { "deny-network-sockets", no_argument, NULL, OPT_DENY_NET_SOCKETS },
        { "landlock", required_argument, NULL, OPT_LANDLOCK },
        { "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
        { "exec-approvals", required_argument, NULL, OPT_EXEC_APPROVALS },
        { "config", required_argument, NULL, OPT_CONFIG },
        { "agent", required_argument, NULL, OPT_AGENT },
        { "session", required_argument, NULL, OPT_SESSION },
        { "subagent", no_argument, NULL, OPT_SUBAGENT },
        { "help", no_argument, NULL, 'h' },
        {}
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
                r = sbx_parse_bind(arg, &b, e);
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
                if (opt == OPT_MEMORY_SWAP && !strcmp(arg, "-1")) {
                        c->limits.memory_swap = SBX_LIMIT_UNLIMITED;
                        return 0;
                }
                if (sbx_parse_size(arg, &v) < 0 || v <= 0)
                        return sbx_error_set(e, -EINVAL, "--%s '%s': expected a size such as 512m",
                                             opt == OPT_MEMORY ? "memory" : "memory-swap", arg);
                *(opt == OPT_MEMORY ? &c->limits.memory : &c->limits.memory_swap) = v;
                return 0;
        case OPT_PIDS:
                if (parse_u64(arg, 1, INT32_MAX, &v) < 0)
                        return sbx_error_set(e, -EINVAL, "--pids-limit '%s': expected a positive number", arg);
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
static int apply_policy(int argc, char **argv, sbx_run_config *c, sbx_resolved *r) {
        const char *config = NULL;
        sbx_request req = {};
        bool wanted = false;
        int opt;

        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "+he:w:u:", options, NULL)) != -1)
                switch (opt) {
                case OPT_CONFIG: config = optarg; break;
                case OPT_AGENT: req.agent = optarg; wanted = true; break;
                case OPT_SESSION: req.session = optarg; wanted = true; break;
                case OPT_SUBAGENT: req.subagent = true; wanted = true; break;
                default: break;
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
                fprintf(stderr, "sbx run: %s\n", sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        if (!r->sandboxed)
                fprintf(stderr, "sbx run: note: OpenClaw would run session %s of agent %s on the host (sandbox mode "
                                "\"%s\"); sbx sandboxes it anyway with the agent's settings\n",
                        r->session_key, r->agent_id, r->mode == SBX_MODE_OFF ? "off" : "non-main");
        k = sbx_policy_to_run_config(r, c, &notes, &e);
        for (size_t i = 0; i < notes.n; i++)
                fprintf(stderr, "sbx run: note: %s\n", notes.v[i]);
        sbx_strv_free(&notes);
        if (k < 0) {
                fprintf(stderr, "sbx run: agent %s: %s\n", r->agent_id, sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        /* OpenClaw creates the sandbox workspace dir on first use; so do we (0700) */
        if (c->workspace_access == SBX_WORKSPACE_NONE && c->workspace && mkdir(c->workspace, 0700) < 0 &&
            errno != EEXIST) {
                _cleanup_free_ char *parent = strdup(c->workspace);
                for (char *p = parent ? parent + 1 : NULL; p && (p = strchr(p, '/')); p++) {
                        *p = '\0';
                        (void) mkdir(parent, 0700);
                        *p = '/';
                }
                if (mkdir(c->workspace, 0700) < 0 && errno != EEXIST) {
                        fprintf(stderr, "sbx run: cannot create the sandbox workspace %s: %m\n", c->workspace);
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
        int opt, r;

        sbx_run_config_init(&c);
        r = apply_policy(argc, argv, &c, &resolved);
        if (r != 0)
                return r;
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, "+he:w:u:", options, NULL)) != -1) {
                if (opt == 'h') {
                        run_usage(stdout);
                        return 0;
                }
                if (opt == '?' || opt == ':') {
                        fprintf(stderr, "sbx run: bad option '%s' (see 'sbx run --help')\n", argv[optind - 1]);
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
                const char *text = sbx_error_text(&err, buf, sizeof(buf));
                fprintf(stderr, "sbx run: %s%s%s\n", text, err.code != -ETIMEDOUT ? ": " : "",
                        err.code != -ETIMEDOUT ? strerror(-err.code) : "");
        }
        return r;
}

/* Shared with cli-sandbox.c: sbx create and sbx run --name take the same
 * sandbox options as sbx run. */
const struct option *sbx_cli_run_options(void) {
        return options;
}

int sbx_cli_run_apply(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e) {
        return apply_option(c, opt, arg, tty_set, e);
}

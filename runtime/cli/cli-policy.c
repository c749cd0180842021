/* SPDX-License-Identifier: MIT */
/* sbx explain / check / migrate: front ends of the policy engine (policy/).
 * They load the config, call the pure resolver and print; nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "policy/policy.h"
#include "util/util.h"
#include "agent/agent.h"

#define MAX_U(a, b) ((a) > (b) ? (a) : (b))

static const char *const MODE_NAMES[] = {"off", "non-main", "all"};
static const char *const SCOPE_NAMES[] = {"session", "agent", "shared"};
static const char *const ACCESS_NAMES[] = {"none", "ro", "rw"};

static const char *resolve_code(int kind, const sbx_config_diag *d) {
        switch (kind) {
        case SBX_RESOLVE_UNKNOWN_AGENT:
                return "UNKNOWN_AGENT";
        case SBX_RESOLVE_AGENT_SELECTION_REQUIRED:
                return "AGENT_SELECTION_REQUIRED";
        case SBX_RESOLVE_MALFORMED_SESSION:
                return "AGENT_SELECTION_REQUIRED";
        default:
                return d && d->parse_error ? "JSON5_PARSE" : "INVALID_CONFIG";
        }
}

static int print_error(const char *cmd, bool json, const char *code, const sbx_error *e,
                       const sbx_config_diag *d) {
        char buf[SBX_ERROR_MSG_MAX];

        fprintf(stderr, "sbx %s: %s\n", cmd, sbx_error_text(e, buf, sizeof(buf)));
        for (size_t i = 1; d && i < d->issues.n; i++)
                fprintf(stderr, "  %s\n", d->issues.v[i]);
        for (size_t i = 0; d && i < d->hints.n; i++)
                if (!strstr(buf, strchr(d->hints.v[i], ':') + 2)) /* the message has the first */
                        fprintf(stderr, "  hint: %s\n", d->hints.v[i]);
        if (json) {
                struct json_object *o = json_object_new_object(), *issues = json_object_new_array();
                json_object_object_add(o, "error", json_object_new_boolean(1));
                json_object_object_add(o, "code", json_object_new_string(code));
                json_object_object_add(o, "message", json_object_new_string(buf));
                for (size_t i = 0; d && i < d->issues.n; i++)
                        json_object_array_add(issues, json_object_new_string(d->issues.v[i]));
                json_object_object_add(o, "issues", issues);
                if (d && d->hints.n) {
                        struct json_object *h = json_object_new_array();
                        for (size_t i = 0; i < d->hints.n; i++)
                                json_object_array_add(h, json_object_new_string(d->hints.v[i]));
                        json_object_object_add(o, "hints", h);
                }
                _cleanup_free_ char *safe = sbx_json_terminal_safe(json_object_to_json_string_ext(
                        o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
                puts(safe ? safe : "{\"error\": true}");
                json_object_put(o);
        }
        return SBX_EXIT_USAGE;
}

static int load(const char *cmd, const char *config, bool json, sbx_config *cfg, sbx_config_diag *diag) {
        _cleanup_free_ char *path = NULL;
        sbx_error e = {};
        int r;

        r = sbx_config_find(config, &path, &e);
        if (r >= 0)
                r = sbx_config_load(path, cfg, diag, &e);
        if (r < 0)
                return print_error(cmd, json, resolve_code(0, diag), &e, diag);
        return 0;
}

static const sbx_cli_opt config_opt[] = {
        { "config", 0, "FILE", 'c', "openclaw.json to read (default: $OPENCLAW_CONFIG_PATH, "
          "$OPENCLAW_STATE_DIR/openclaw.json, ~/.openclaw/openclaw.json)", "@file" },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

static const sbx_cli_opt explain_opts[] = {
        { "agent", 0, "ID", 'a', "agent id (default: from the session key, else the default agent)", NULL },
        { "session", 0, "KEY", 's', "session key or short name (default: the agent's main session)", NULL },
        { "subagent", 0, NULL, 'S', "evaluate as a sub-agent session of that agent", NULL },
        { "tool", 0, "NAME", 't', "explain one tool only", NULL },
        { "json", 0, NULL, 'j', "machine-readable output (the fields of the conformance README)", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_explain = {
        .name = "explain", .page = "sbx-policy", .fn = cli_explain, .positional = "",
        .usage = "[--config FILE] [--agent ID] [--session KEY] [--subagent] [--tool NAME] [--json]",
        .summary = "show the resolved sandbox settings and tool policy",
        .text = "Show the sandbox settings and tool policy OpenClaw 2026.9.6 would apply to a session: whether "
                "it is sandboxed, the workspace, network, image, the tool pipeline, the allowed tools, and for "
                "each removed tool the list that removed it (\"denied by\" a deny list, \"not allowed by\" an "
                "allow list or profile, with its pipeline step) and the smallest change that would allow it; "
                "then the kernel rules sbx run derives from the policy, and whether sbx run would refuse "
                "the sandbox for a docker.binds entry (bind safety: a blocked source, or one outside the "
                "workspaces as written or where it leads; the same check sbx run makes, naming the bind; "
                "runRefused in --json, null when it would run).",
        .opts = { explain_opts, config_opt, NULL },
        .footer = "Exit status: 0 resolved (also when sbx run would refuse the sandbox), 2 invalid config or "
                  "unknown agent/session.",
};

static const sbx_cli_opt check_opts[] = {
        { "json", 0, NULL, 'j', "machine-readable output: config, valid, errors, warnings, runRefused", NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_check = {
        .name = "check", .page = "sbx-policy", .fn = cli_check, .positional = "",
        .usage = "[--config FILE] [--json]",
        .summary = "validate an openclaw.json",
        .text = "Validate an openclaw.json as OpenClaw 2026.9.6 would: print migration notes and every error "
                "with its JSON path. Then, for each agent's main session, the bind safety sbx run applies to "
                "its docker.binds (a blocked source, one covering a blocked path, one outside the workspaces "
                "as written or where it leads): a bind sbx run would refuse is an error naming the agent, "
                "docker.binds[N], the bind and the path.",
        .opts = { check_opts, config_opt, NULL },
        .footer = "Exit status: 0 valid, 2 invalid or a bind sbx run would refuse.",
};

static const sbx_cli_opt migrate_opts[] = {
        { "write", 0, NULL, 'w', "replace the file (keeping FILE.bak) after checking that the result validates",
          NULL },
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_migrate = {
        .name = "migrate", .page = "sbx-policy", .fn = cli_migrate, .positional = "",
        .usage = "[--config FILE] [--write]",
        .summary = "rewrite a legacy openclaw.json to the current shape",
        .text = "Rewrite legacy (clawdbot-era) shapes that OpenClaw 2026.9.6 rejects into the current shape: "
                "top-level agent.* -> agents.defaults, routing.agents.<id> -> agents.entries.<id>, "
                "sandbox.perSession -> sandbox.scope, agents.list[] -> agents.entries. Prints the changes and a "
                "diff; --write replaces the file. Comments and JSON5 formatting are not preserved in the "
                "rewritten file.",
        .opts = { migrate_opts, config_opt, NULL },
        .footer = "Exit status: 0 done or nothing to do, 2 unreadable or still invalid.",
};

/* How a removed tool was removed: a deny list matched it, or an allow list
 * (a profile, an allowlist) does not list it. The key that follows is that
 * list, so the line never reads as if an allow list removed a tool. */
static const char *removed_how(const sbx_tool_verdict *v) {
        return v->denied ? "denied by" : "not allowed by";
}

static void print_human(const sbx_resolved *r, const char *tool) {
        printf("agent:      %s\nsession:    %s%s\n", r->agent_id, r->session_key,
               r->subagent ? " (sub-agent)" : "");
        printf("sandbox:    %s (mode=%s scope=%s workspaceAccess=%s backend=%s)\n",
               r->sandboxed ? "yes" : "no, runs on the host", MODE_NAMES[r->mode], SCOPE_NAMES[r->scope],
               ACCESS_NAMES[r->workspace_access], r->backend);
        if (r->sandboxed) {
                printf("workspace:  %s -> %s (%s)\n", r->host_workspace_dir, r->container_workdir ?: "-",
                       r->workspace_source);
                printf("network:    %s   readOnlyRoot: %s   image: %s\n", r->docker.network,
                       r->docker.read_only_root == SBX_TRUE ? "yes" : "no", r->docker.image);
                if (r->container_name)
                        printf("container:  %s\n", r->container_name);
                sbx_cli_network_explain(stdout, r->docker.network);   /* issue 18 */
        } else
                printf("workspace:  %s\n", r->agent_workspace_dir);
        printf("pipeline:  ");
        for (size_t i = 0; i < r->n_layers; i++)
                printf(" %s%s", i ? "-> " : "", r->layers[i].label);
        printf("%s\n", r->n_layers ? "" : " (no restrictions)");
        size_t allowed = 0;
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                allowed += r->tools[i].allowed;
        if (tool) {
                _cleanup_free_ char *n = sbx_tool_normalize(tool);
                for (size_t i = 0; n && i < SBX_N_CORE_TOOLS; i++)
                        if (!strcmp(sbx_core_tools[i], n)) {
                                const sbx_tool_verdict *v = &r->tools[i];
                                if (v->allowed)
                                        printf("tool %s:  allowed\n", n);
                                else
                                        printf("tool %s:  %s %s (pipeline step %s)\n  to allow: %s\n", n,
                                               removed_how(v), v->key, v->layer, v->fix);
                                return;
                        }
                printf("tool %s:  not a core tool of OpenClaw 2026.9.6\n", tool);
                return;
        }
        printf("allowed (%zu):", allowed);
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if (r->tools[i].allowed)
                        printf(" %s", sbx_core_tools[i]);
        printf("\n");
        /* removed tools, grouped by the layer and key that removed them */
        bool done[SBX_N_CORE_TOOLS] = {};
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++) {
                const sbx_tool_verdict *v = &r->tools[i];
                if (v->allowed || done[i])
                        continue;
                size_t n = 0;
                for (size_t j = i; j < SBX_N_CORE_TOOLS; j++)
                        n += !r->tools[j].allowed && !done[j] && !strcmp(r->tools[j].layer, v->layer) &&
                             !strcmp(r->tools[j].key, v->key);
                printf("%s %s (pipeline step %s) (%zu):", removed_how(v), v->key, v->layer, n);
                for (size_t j = i; j < SBX_N_CORE_TOOLS; j++)
                        if (!r->tools[j].allowed && !done[j] && !strcmp(r->tools[j].layer, v->layer) &&
                            !strcmp(r->tools[j].key, v->key)) {
                                printf(" %s", sbx_core_tools[j]);
                                done[j] = true;
                        }
                printf("\n  to allow %s: %s\n", n > 1 ? "one (e.g. the first)" : "it", v->fix);
        }
        printf("(sbx explain --tool NAME for one tool; --json for everything)\n");
}

/* Whether sbx run would refuse this resolved sandbox for one of its
 * docker.binds: the very check sbx run and create make
 * (sbx_check_bind_safety, runtime/agent/run-policy.c), nothing run.
 * Returns 0 allowed, 1 refused (*ret: {key, bind, message}, to put), < 0 no memory. */
static int bind_refusal(const sbx_resolved *r, const char *agent, struct json_object **ret) {
        sbx_error e = {};
        size_t i = 0;
        char key[64];

        *ret = NULL;
        int k = sbx_check_bind_safety(r, NULL, &i, &e);
        if (k >= 0)
                return 0;
        if (k != -EPERM || i >= r->docker.binds.n)
                return k;
        struct json_object *o = json_object_new_object();
        if (!o)
                return -ENOMEM;
        snprintf(key, sizeof(key), "docker.binds[%zu]", i);
        if (agent)
                json_object_object_add(o, "agent", sbx_json_string(agent));
        json_object_object_add(o, "key", json_object_new_string(key));
        json_object_object_add(o, "bind", sbx_json_string(r->docker.binds.v[i]));
        json_object_object_add(o, "message", sbx_json_string(e.msg));
        *ret = o;
        return 1;
}

static const char *refusal_message(struct json_object *o) {
        struct json_object *m = NULL;
        return o && json_object_object_get_ex(o, "message", &m) ? json_object_get_string(m) : "";
}

typedef struct explain_args {
        const char *config, *tool;
        sbx_request req;
        bool json;
} explain_args;

static int explain_opt(int opt, const char *arg, void *userdata) {
        explain_args *a = userdata;

        switch (opt) {
        case 'c':
                a->config = arg;
                break;
        case 'a':
                a->req.agent = arg;
                break;
        case 's':
                a->req.session = arg;
                break;
        case 'S':
                a->req.subagent = true;
                break;
        case 't':
                a->tool = arg;
                break;
        default:
                a->json = true;
                break;
        }
        return 0;
}

int cli_explain(int argc, char **argv) {
        explain_args a = {};
        int kind = 0, status, first = sbx_cli_parse(&sbx_cmd_explain, argc, argv, explain_opt, &a, &status);

        if (first < 0)
                return status;
        if (first < argc) {
                fprintf(stderr, "sbx explain: unexpected argument '%s'\n", argv[first]);
                return SBX_EXIT_USAGE;
        }

        sbx_config cfg = {};
        sbx_config_diag diag = {};
        sbx_resolved r = {};
        sbx_error e = {};
        struct json_object *refused = NULL; /* sbx run's refusal of a bind, or NULL */
        int ret = load("explain", a.config, a.json, &cfg, &diag);
        if (ret != 0)
                goto out;
        if (sbx_resolve(&cfg, &a.req, &r, &kind, &e) < 0) {
                ret = print_error("explain", a.json, resolve_code(kind, NULL), &e, NULL);
                goto out;
        }
        for (size_t i = 0; !a.json && i < diag.notes.n; i++)
                fprintf(stderr, "note: %s\n", diag.notes.v[i]);
        /* what sbx run decides about the binds, by its own check */
        if (bind_refusal(&r, NULL, &refused) < 0) {
                fprintf(stderr, "sbx explain: out of memory\n");
                ret = SBX_EXIT_FAILURE;
                goto out;
        }
        if (a.json) {
                struct json_object *o = sbx_resolved_to_json(&r, &diag);
                if (o)
                        json_object_object_add(o, "runRefused", TAKE_PTR(refused));
                /* issue 6: the kernel rules sbx run derives from this policy */
                if (o && (sbx_tool_rules_add_json(o, &r, NULL) < 0 || sbx_sandbox_rules_add_json(o, &r) < 0)) {
                        json_object_put(o);
                        o = NULL;
                }
                /* issue 18: the named network's record (allowlist) */
                if (o && r.sandboxed) {
                        struct json_object *net = sbx_cli_network_explain_json(r.docker.network);
                        if (net)
                                json_object_object_add(o, "networkRecord", net);
                }
                if (!o) {
                        fprintf(stderr, "sbx explain: out of memory\n");
                        ret = SBX_EXIT_FAILURE;
                        goto out;
                }
                _cleanup_free_ char *js = sbx_json_text_js(json_object_to_json_string_ext(
                        o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
                /* then what is left that is not UTF-8 (util.h): the output parses */
                _cleanup_free_ char *text = js ? sbx_json_terminal_safe(js) : NULL;
                json_object_put(o);
                if (!text) {
                        fprintf(stderr, "sbx explain: out of memory\n");
                        ret = SBX_EXIT_FAILURE;
                        goto out;
                }
                puts(text);
        } else {
                print_human(&r, a.tool);
                sbx_tool_rules_print(stdout, &r);   /* issue 6 */
                sbx_sandbox_rules_explain(stdout, &r);   /* issue 14 */
                if (refused)
                        printf("sbx run:    refused (exit 2): agent %s: %s\n", r.agent_id,
                               refusal_message(refused));
        }
out:
        json_object_put(refused);
        sbx_resolved_done(&r);
        sbx_config_done(&cfg);
        sbx_config_diag_done(&diag);
        return ret;
}

/* check and migrate: --config FILE and one flag (--json, --write). */
typedef struct config_flag {
        const char *config;
        bool flag;
} config_flag;

static int config_flag_opt(int opt, const char *arg, void *userdata) {
        config_flag *a = userdata;

        if (opt == 'c')
                a->config = arg;
        else
                a->flag = true;
        return 0;
}

int cli_check(int argc, char **argv) {
        config_flag args = {};
        int status;

        int first = sbx_cli_parse(&sbx_cmd_check, argc, argv, config_flag_opt, &args, &status);
        if (first < 0)
                return status;
        if (first < argc) {
                fprintf(stderr, "sbx check: unexpected argument '%s' (the file goes with --config)\n", argv[first]);
                return SBX_EXIT_USAGE;
        }
        const char *config = args.config;
        bool json = args.flag;
        _cleanup_free_ char *path = NULL;
        sbx_config cfg = {};
        sbx_config_diag diag = {};
        sbx_error e = {};
        int r = sbx_config_find(config, &path, &e);
        if (r >= 0)
                r = sbx_config_load(path, &cfg, &diag, &e);
        /* a valid config: each agent's main session through sbx run's bind
         * safety (one check, sbx_check_bind_safety); an agent that does not
         * resolve is explain's to report, not a bind refusal */
        struct json_object *refusals = json_object_new_array();
        if (!refusals)
                return fprintf(stderr, "sbx check: out of memory\n"), SBX_EXIT_FAILURE;
        for (size_t i = 0; r >= 0 && i < MAX_U(cfg.n_agents, (size_t) 1); i++) {
                sbx_request req = {.agent = cfg.n_agents ? cfg.agents[i].id : NULL};
                sbx_resolved res = {};
                sbx_error re = {};
                struct json_object *one = NULL;
                int k = sbx_resolve(&cfg, &req, &res, NULL, &re) < 0 ? 0 : bind_refusal(&res, res.agent_id, &one);
                sbx_resolved_done(&res);
                if (k < 0) {
                        json_object_put(refusals);
                        sbx_config_done(&cfg);
                        sbx_config_diag_done(&diag);
                        return fprintf(stderr, "sbx check: out of memory\n"), SBX_EXIT_FAILURE;
                }
                if (one)
                        json_object_array_add(refusals, one);
        }
        size_t n_refused = json_object_array_length(refusals);
        if (json) {
                struct json_object *o = json_object_new_object(), *a = json_object_new_array(),
                                   *n = json_object_new_array();
                char buf[SBX_ERROR_MSG_MAX];
                json_object_object_add(o, "config", path ? json_object_new_string(path) : NULL);
                json_object_object_add(o, "valid", json_object_new_boolean(r >= 0 && !n_refused));
                for (size_t i = 0; i < diag.issues.n; i++)
                        json_object_array_add(a, json_object_new_string(diag.issues.v[i]));
                for (size_t i = 0; i < n_refused; i++) {
                        struct json_object *x = json_object_array_get_idx(refusals, i), *ag = NULL;
                        json_object_object_get_ex(x, "agent", &ag);
                        snprintf(buf, sizeof(buf), "agent %s: %s", json_object_get_string(ag),
                                 refusal_message(x));
                        json_object_array_add(a, json_object_new_string(buf));
                }
                if (r < 0 && diag.issues.n == 0)
                        json_object_array_add(a,
                                              json_object_new_string(sbx_error_text(&e, buf, sizeof(buf))));
                for (size_t i = 0; i < diag.notes.n; i++)
                        json_object_array_add(n, json_object_new_string(diag.notes.v[i]));
                json_object_object_add(o, "errors", a);
                json_object_object_add(o, "warnings", n);
                if (diag.hints.n) {
                        struct json_object *h = json_object_new_array();
                        for (size_t i = 0; i < diag.hints.n; i++)
                                json_object_array_add(h, json_object_new_string(diag.hints.v[i]));
                        json_object_object_add(o, "hints", h);
                }
                /* the refusals of sbx run, one object each: agent, key, bind, message */
                json_object_object_add(o, "runRefused", json_object_get(refusals));
                _cleanup_free_ char *safe = sbx_json_terminal_safe(json_object_to_json_string_ext(
                        o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
                puts(safe ? safe : "{\"error\": true}");
                json_object_put(o);
        } else {
                for (size_t i = 0; i < diag.notes.n; i++)
                        printf("warning: %s\n", diag.notes.v[i]);
                if (r < 0) {
                        char buf[SBX_ERROR_MSG_MAX];
                        if (diag.issues.n == 0)
                                fprintf(stderr, "error: %s\n", sbx_error_text(&e, buf, sizeof(buf)));
                        for (size_t i = 0; i < diag.issues.n; i++)
                                fprintf(stderr, "error: %s\n", diag.issues.v[i]);
                        for (size_t i = 0; i < diag.hints.n; i++)
                                fprintf(stderr, "hint: %s\n", diag.hints.v[i]);
                } else if (n_refused) {
                        for (size_t i = 0; i < n_refused; i++) {
                                struct json_object *x = json_object_array_get_idx(refusals, i), *ag = NULL;
                                json_object_object_get_ex(x, "agent", &ag);
                                fprintf(stderr, "error: agent %s: %s (sbx run refuses it, exit 2)\n",
                                        json_object_get_string(ag), refusal_message(x));
                        }
                } else
                        printf("%s: valid (%zu agent%s)\n", path ?: "(no config file: OpenClaw defaults)",
                               cfg.n_agents, cfg.n_agents == 1 ? "" : "s");
        }
        json_object_put(refusals);
        sbx_config_done(&cfg);
        sbx_config_diag_done(&diag);
        return r < 0 || n_refused ? SBX_EXIT_USAGE : 0;
}

/* ---- migrate ---- */

/* a minimal line diff: lines only in the old text (-) and only in the new (+), in order */
static void print_diff(const char *a, const char *b) {
        sbx_strv la = {}, lb = {};
        for (int pass = 0; pass < 2; pass++) {
                const char *s = pass ? b : a;
                sbx_strv *l = pass ? &lb : &la;
                while (s && *s) {
                        const char *e = strchr(s, '\n');
                        size_t n = e ? (size_t) (e - s) : strlen(s);
                        _cleanup_free_ char *line = strndup(s, n);
                        if (line)
                                (void) sbx_strv_push(l, line);
                        s += n + (e ? 1 : 0);
                }
        }
        /* LCS table over lines (configs are small) */
        size_t n = la.n, m = lb.n;
        unsigned *t = calloc((n + 1) * (m + 1), sizeof(unsigned));
        if (t) {
                for (size_t i = n; i-- > 0;)
                        for (size_t j = m; j-- > 0;)
                                t[i * (m + 1) + j] =
                                        !strcmp(la.v[i], lb.v[j])
                                                ? t[(i + 1) * (m + 1) + j + 1] + 1
                                                : MAX_U(t[(i + 1) * (m + 1) + j], t[i * (m + 1) + j + 1]);
                size_t i = 0, j = 0;
                while (i < n || j < m) {
                        if (i < n && j < m && !strcmp(la.v[i], lb.v[j])) {
                                printf(" %s\n", la.v[i]);
                                i++, j++;
                        } else if (j < m && (i == n || t[i * (m + 1) + j + 1] >= t[(i + 1) * (m + 1) + j]))
                                printf("+%s\n", lb.v[j++]);
                        else
                                printf("-%s\n", la.v[i++]);
                }
                free(t);
        }
        sbx_strv_free(&la);
        sbx_strv_free(&lb);
}

int cli_migrate(int argc, char **argv) {
        config_flag args = {};
        int status, r;

        int first = sbx_cli_parse(&sbx_cmd_migrate, argc, argv, config_flag_opt, &args, &status);
        if (first < 0)
                return status;
        if (first < argc) {
                fprintf(stderr, "sbx migrate: unexpected argument '%s' (the file goes with --config)\n", argv[first]);
                return SBX_EXIT_USAGE;
        }
        const char *config = args.config;
        bool do_write = args.flag;
        _cleanup_free_ char *path = NULL, *text = NULL, *out = NULL;
        sbx_strv changes = {};
        sbx_error e = {};
        size_t len = 0;
        r = sbx_config_find(config, &path, &e);
        if (r < 0 || !path) {
                fprintf(stderr, "sbx migrate: no config file found (use --config FILE)\n");
                return SBX_EXIT_USAGE;
        }
        r = sbx_read_file("config", path, SBX_CONFIG_MAX_SIZE, &text, &len, &e);
        if (r < 0) {
                char buf[SBX_ERROR_MSG_MAX];
                fprintf(stderr, "sbx migrate: %s\n", sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        r = sbx_config_migrate_text(text, len, &out, &changes, &e);
        if (r < 0) {
                char buf[SBX_ERROR_MSG_MAX];
                fprintf(stderr, "sbx migrate: %s: %s\n", path, sbx_error_text(&e, buf, sizeof(buf)));
                return SBX_EXIT_USAGE;
        }
        if (changes.n == 0) {
                printf("%s: already in the current shape, nothing to migrate\n", path);
                sbx_strv_free(&changes);
                return 0;
        }
        for (size_t i = 0; i < changes.n; i++)
                printf("change: %s\n", changes.v[i]);
        printf("--- %s\n+++ %s (migrated)\n", path, path);
        _cleanup_free_ char *canon = NULL;
        (void) sbx_config_canonical_text(text, len, &canon);
        print_diff(canon ?: text, out);
        sbx_strv_free(&changes);

        /* the result must load cleanly before it may replace anything */
        sbx_config cfg = {};
        sbx_config_diag diag = {};
        r = sbx_config_load_text(out, strlen(out), &cfg, &diag, &e);
        if (r < 0) {
                char buf[SBX_ERROR_MSG_MAX];
                fprintf(stderr, "sbx migrate: the migrated config is still invalid: %s\n",
                        sbx_error_text(&e, buf, sizeof(buf)));
                for (size_t i = 1; i < diag.issues.n; i++)
                        fprintf(stderr, "  %s\n", diag.issues.v[i]);
                sbx_config_diag_done(&diag);
                return SBX_EXIT_USAGE;
        }
        sbx_config_done(&cfg);
        sbx_config_diag_done(&diag);
        if (!do_write) {
                printf("(dry run: pass --write to apply; a backup is kept as %s.bak)\n", path);
                return 0;
        }
        _cleanup_free_ char *bak = NULL;
        struct stat st;
        if (asprintf(&bak, "%s.bak", path) < 0 || stat(path, &st) < 0)
                return SBX_EXIT_FAILURE;
        r = sbx_write_file_atomic(bak, text, len, st.st_mode & 07777, true);
        if (r >= 0)
                r = sbx_write_file_atomic(path, out, strlen(out), st.st_mode & 07777, true);
        if (r < 0) {
                fprintf(stderr, "sbx migrate: writing '%s': %s\n", path, strerror(-r));
                return SBX_EXIT_FAILURE;
        }
        printf("wrote %s (backup: %s)\n", path, bak);
        return 0;
}

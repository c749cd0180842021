/* SPDX-License-Identifier: MIT */
/* sbx network: create, ls, inspect, update, rm named networks (issue 18), and
 * the same records as `docker network ...` for the docker drop-in. The
 * records and the allowlist rules are runtime/net's (network.c). */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "net/net.h"
#include "sandbox/sandbox.h"
#include "util/util.h"

enum { OPT_ALLOW = 0x100, OPT_ALLOW_CIDR, OPT_DNS, OPT_INTERNAL, OPT_NO_INTERNAL, OPT_JSON, OPT_DRIVER,
       OPT_LABEL, OPT_OPT };

static const sbx_cli_opt network_opts[] = {
        { "egress-allow", 0, "HOST[:PORT][,...]", OPT_ALLOW, "create/update: egress is an allowlist: names "
          "resolve only through sbx's resolver, which answers allowed names only (HOST exactly; *.DOMAIN any "
          "name below DOMAIN, never DOMAIN itself), and packets leave only to the addresses those answers "
          "returned (for their TTL); :PORT limits an entry to that TCP/UDP port (repeatable; update: replaces "
          "the list, '' clears it; create: an empty list is refused)", NULL },
        { "egress-allow-cidr", 0, "CIDR[:PORT][,...]", OPT_ALLOW_CIDR, "create/update: addresses packets may "
          "also leave to (repeatable; update: replaces the list)", NULL },
        { "dns", 0, "IP", OPT_DNS, "create: the resolver's upstream server (default: the host's)", NULL },
        { "internal", 0, NULL, OPT_INTERNAL, "create/update: no egress at all", NULL },
        { "no-internal", 0, NULL, OPT_NO_INTERNAL, "update: egress again (as the lists say)", NULL },
        { "json", 0, NULL, OPT_JSON, "ls: as JSON", NULL },
        { "quiet", 'q', NULL, 'q', "ls: names only", NULL },
        { "format", 'f', "FORMAT", 'f', "docker network ls/inspect: a Go template per network", NULL },
        { "force", 0, NULL, 'F', "docker network rm: accepted", NULL },
        SBX_CLI_SECTION("docker network create's flags a bridge network takes as they are"),
        { "driver", 0, "DRIVER", OPT_DRIVER, "bridge (the only driver)", "bridge" },
        { "label", 0, "KEY=VALUE", OPT_LABEL, "accepted, not recorded", NULL },
        { "opt", 0, "KEY=VALUE", OPT_OPT, "accepted, not recorded", NULL },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_network = {
        .name = "network", .page = "sbx-network", .fn = cli_network, .positional = "create update ls inspect rm",
        .usage = "create NAME [--egress-allow HOST[:PORT][,...]] [--egress-allow-cidr CIDR[:PORT][,...]] "
                 "[--dns IP] [--internal]\n"
                 "update NAME [--egress-allow LIST] [--egress-allow-cidr LIST] [--internal|--no-internal]\n"
                 "ls [--json] [-q]\ninspect NAME...\nrm NAME...",
        .summary = "create, list, inspect, update and remove named networks",
        .text = "create: a network on sbx's bridge. Without --egress-allow* and --internal its sandboxes reach "
                "anywhere (as 'bridge'). With them, egress is an allowlist (below), enforced as root on the host "
                "(nft table ip sbx) and without root inside the sandbox's own network namespace.\n\n"
                "update: replace the given lists; running sandboxes on NAME follow within a second. ls: list "
                "networks. inspect: print network records as a JSON array. rm: remove networks no sandbox "
                "uses.\n\n"
                "Select one with 'sbx run/create --network NAME' or docker.network: \"NAME\" in openclaw.json. "
                "Records are in $SBX_NETWORK_DIR, else /var/lib/sbx/networks as root, else "
                "${XDG_DATA_HOME:-~/.local/share}/sbx/networks.",
        .opts = { network_opts, NULL },
};

const sbx_cli_cmd sbx_cmd_docker_network = {
        .name = "docker network", .page = "sbx-docker", .positional = "create ls inspect rm",
        .usage = "create [--driver bridge] NAME\nls [-q] [--format FORMAT]\ninspect [-f FORMAT] NAME...\n"
                 "rm NAME...",
        .summary = "the networks of 'sbx network', as docker shows them",
        .text = "The records 'sbx network' keeps, in docker's output shapes ('sbx network' makes allowlist "
                "networks; docker network create makes open ones).",
        .opts = { network_opts, NULL },
};

typedef struct net_args {
        bool docker;
        bool json, quiet, internal_set, internal;
        const char *format;
        sbx_strv allow, allow_cidr, dns;
        bool allow_set, allow_cidr_set;
        bool bad_flag;          /* the command line did not parse (docker: the CLI's 125) */
} net_args;

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_object_ _cleanup_(json_putp)

static int fail(const net_args *a, const sbx_error *e) {
        char buf[SBX_ERROR_MSG_MAX + 64];

        if (a->docker && a->bad_flag) {
                fprintf(stderr, "%s\n", sbx_error_text(e, buf, sizeof(buf)));
                return 125;
        }
        if (a->docker) {
                fprintf(stderr, "Error response from daemon: %s\n", sbx_error_text(e, buf, sizeof(buf)));
                return 1;
        }
        fprintf(stderr, "sbx network: %s\n", sbx_error_text(e, buf, sizeof(buf)));
        return e->code == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
}

/* "a,b,c" appended entry by entry (empty entries skipped: "" clears a list) */
static int push_list(sbx_strv *l, const char *arg) {
        _cleanup_free_ char *copy = strdup(arg);
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
                if (*t && sbx_strv_push(l, t) < 0)
                        return -ENOMEM;
        return 0;
}

static int args_parse(int argc, char **argv, net_args *a, sbx_error *e) {
        sbx_cli_getopt g;
        int opt, k = 0;

        sbx_cli_getopt_init(&g, sbx_cmd_network.opts, false);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
                switch (opt) {
                case OPT_ALLOW:
                        a->allow_set = true;
                        k = push_list(&a->allow, optarg);
                        break;
                case OPT_ALLOW_CIDR:
                        a->allow_cidr_set = true;
                        k = push_list(&a->allow_cidr, optarg);
                        break;
                case OPT_DNS:
                        k = sbx_strv_push(&a->dns, optarg);
                        break;
                case OPT_INTERNAL:
                case OPT_NO_INTERNAL:
                        a->internal_set = true;
                        a->internal = opt == OPT_INTERNAL;
                        break;
                case OPT_JSON:
                        a->json = true;
                        break;
                case 'q':
                        a->quiet = true;
                        break;
                case 'f':
                        a->format = optarg;
                        break;
                case 'F':
                        break;
                case OPT_DRIVER:
                        if (strcmp(optarg, "bridge") != 0)
                                return sbx_error_set(e, -EINVAL, "--driver '%s': only 'bridge' is supported",
                                                     optarg);
                        break;
                case OPT_LABEL:
                case OPT_OPT:
                        break;
                case 'h':
                        sbx_cli_usage(stdout, a->docker ? &sbx_cmd_docker_network : &sbx_cmd_network);
                        return 1;
                default: {
                        char buf[128];
                        a->bad_flag = true;
                        return sbx_error_set(e, -EINVAL, "%s (see 'sbx network --help')",
                                             sbx_cli_bad_option_text(&g, argc, argv, buf, sizeof(buf)));
                }
                }
                if (k < 0)
                        return sbx_error_set(e, k, "out of memory");
        }
        return 0;
}

static void args_done(net_args *a) {
        sbx_strv_free(&a->allow);
        sbx_strv_free(&a->allow_cidr);
        sbx_strv_free(&a->dns);
}

static void strv_move(sbx_strv *dst, sbx_strv *src) {
        sbx_strv_free(dst);
        *dst = *src;
        *src = (sbx_strv) {};
}

/* docker network inspect's shape */
static json_object *docker_json(const sbx_network *n) {
        json_object *o = json_object_new_object(), *opts = json_object_new_object();

        json_object_object_add(o, "Name", json_object_new_string(n->name));
        json_object_object_add(o, "Id", json_object_new_string(n->id));
        json_object_object_add(o, "Created", json_object_new_string(n->created));
        json_object_object_add(o, "Scope", json_object_new_string("local"));
        json_object_object_add(o, "Driver", json_object_new_string("bridge"));
        json_object_object_add(o, "EnableIPv6", json_object_new_boolean(false));
        json_object_object_add(o, "Internal", json_object_new_boolean(n->internal));
        json_object_object_add(o, "Attachable", json_object_new_boolean(false));
        json_object_object_add(o, "Ingress", json_object_new_boolean(false));
        json_object_object_add(o, "Containers", json_object_new_object());
        if (n->allow.n) {
                _cleanup_free_ char *s = NULL;
                for (size_t i = 0; i < n->allow.n; i++) {
                        char *t = NULL;
                        if (asprintf(&t, "%s%s%s", s ?: "", s ? "," : "", n->allow.v[i]) < 0)
                                break;
                        free(s);
                        s = t;
                }
                json_object_object_add(opts, "sbx.egress-allow", json_object_new_string(s ?: ""));
        }
        json_object_object_add(o, "Options", opts);
        json_object_object_add(o, "Labels", json_object_new_object());
        json_object_object_add(o, "sbx", sbx_network_to_json(n));
        return o;
}

static int print_template(const char *tmpl, json_object *o, sbx_error *e);

/* create NAME: a network of the options; update NAME: the options that were
 * given, on top of the stored network. Either way saved. */
static int net_save(int argc, char **argv, net_args *a, bool create) {
        sbx_network n = {};
        sbx_error e = {};
        int k = 0;

        if (argc != 1)
                k = sbx_error_set(&e, -EINVAL, "%s: expected one NAME, got %d", create ? "create" : "update", argc);
        else if (create && strlen(argv[0]) >= sizeof(n.name))
                k = sbx_error_set(&e, -EINVAL, "network name '%s' is longer than %d", argv[0],
                                  SBX_NETWORK_NAME_MAX);
        else if (create)
                snprintf(n.name, sizeof(n.name), "%s", argv[0]);
        else
                k = sbx_network_load(argv[0], &n, &e);
        /* create --egress-allow "$EMPTY": an allowlist asked for, but an
         * empty one is no list at all (all egress): refused, never widened */
        if (k >= 0 && create && (a->allow_set || a->allow_cidr_set) && !a->allow.n && !a->allow_cidr.n &&
            !a->internal)
                k = sbx_error_set(&e, -EINVAL, "create: --egress-allow%s: an empty list would allow all egress; "
                                  "give a HOST or CIDR, or --internal for none",
                                  a->allow_set ? "" : "-cidr");
        if (k < 0)
                return fail(a, &e);
        if (create || a->internal_set)
                n.internal = a->internal;
        if (create || a->allow_set)
                strv_move(&n.allow, &a->allow);
        if (create || a->allow_cidr_set)
                strv_move(&n.allow_cidr, &a->allow_cidr);
        if (create || a->dns.n)
                strv_move(&n.dns, &a->dns);
        k = sbx_network_save(&n, create, &e);
        if (k >= 0 && create)
                printf("%s\n", a->docker ? n.id : n.name);
        sbx_network_done(&n);
        return k < 0 ? fail(a, &e) : 0;
}

static int net_ls(net_args *a) {
        _cleanup_json_object_ json_object *arr = json_object_new_array();
        sbx_network *v = NULL;
        size_t n = 0;
        sbx_error e = {};
        int k;

        k = sbx_network_list(&v, &n, &e);
        if (k < 0)
                return fail(a, &e);
        if (a->docker && !a->format && !a->quiet)
                printf("%-14s %-20s %-8s %s\n", "NETWORK ID", "NAME", "DRIVER", "SCOPE");
        if (a->docker && !a->format) {
                /* docker lists its predefined networks too */
                static const char *const builtin[][2] = { { "bridge", "bridge" }, { "none", "null" } };
                for (size_t i = 0; i < ELEMENTSOF(builtin); i++) {
                        char id[SBX_SHA256_HEX_SIZE];
                        sbx_sha256_hex(builtin[i][0], strlen(builtin[i][0]), id);
                        if (a->quiet)
                                printf("%.12s\n", id);
                        else
                                printf("%-14.12s %-20s %-8s %s\n", id, builtin[i][0], builtin[i][1], "local");
                }
        }
        for (size_t i = 0; i < n; i++) {
                if (a->json) {
                        json_object_array_add(arr, sbx_network_to_json(&v[i]));
                } else if (a->format) {
                        _cleanup_json_object_ json_object *o = docker_json(&v[i]);
                        if (print_template(a->format, o, &e) < 0) {
                                sbx_network_list_free(v, n);
                                return fail(a, &e);
                        }
                } else if (a->quiet && a->docker)
                        printf("%.12s\n", v[i].id);
                else if (a->quiet)
                        printf("%s\n", v[i].name);
                else if (a->docker)
                        printf("%-14.12s %-20s %-8s %s\n", v[i].id, v[i].name, "bridge", "local");
                else
                        printf("%-20s %-10s %zu names, %zu ranges\n", v[i].name,
                               v[i].internal ? "none" : sbx_network_enforced(&v[i]) ? "allowlist" : "any",
                               v[i].allow.n, v[i].allow_cidr.n);
        }
        if (!a->docker && !a->json && !a->quiet && n == 0)
                fprintf(stderr, "no networks ('sbx network create NAME' makes one)\n");
        if (a->json)
                (void) sbx_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
                                                                           JSON_C_TO_STRING_NOSLASHESCAPE));
        sbx_network_list_free(v, n);
        return 0;
}

static sbx_cli_template_fn template_fn;

static int print_template(const char *tmpl, json_object *o, sbx_error *e) {
        _cleanup_free_ char *out = NULL;
        int k;

        if (!template_fn)
                return sbx_error_set(e, -EINVAL, "--format is for 'docker network' (sbx network: --json)");
        k = template_fn(tmpl, o, &out, e);

        if (k < 0)
                return k;
        printf("%s\n", out);
        return 0;
}

static int net_inspect(int argc, char **argv, net_args *a) {
        _cleanup_json_object_ json_object *arr = json_object_new_array();
        sbx_error e = {};
        int r = 0;

        if (argc < 1) {
                sbx_error_set(&e, -EINVAL, "inspect: expected NAME...");
                return fail(a, &e);
        }
        for (int i = 0; i < argc; i++) {
                sbx_network n;
                if (sbx_network_load(argv[i], &n, &e) < 0) {
                        if (a->docker)
                                sbx_error_set(&e, -ENOENT, "network %s not found", argv[i]);
                        r = fail(a, &e);
                        continue;
                }
                json_object *o = a->docker ? docker_json(&n) : sbx_network_to_json(&n);
                if (a->format) {
                        if (print_template(a->format, o, &e) < 0)
                                r = fail(a, &e);
                        json_object_put(o);
                } else
                        json_object_array_add(arr, o);
                sbx_network_done(&n);
        }
        if (!a->format)
                (void) sbx_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
                                                                           JSON_C_TO_STRING_NOSLASHESCAPE));
        return r;
}

/* A network a sandbox record names cannot go (docker: "has active endpoints"). */
static int network_in_use(const char *name, char *who, size_t len) {
        sbx_sandbox **l = NULL;
        size_t n = 0;
        int found = 0;

        if (sbx_sandbox_list(NULL, 0, &l, &n, NULL) < 0)
                return 0;
        for (size_t i = 0; i < n && !found; i++)
                if (l[i]->config.network_name && strcmp(l[i]->config.network_name, name) == 0) {
                        snprintf(who, len, "%s", l[i]->name);
                        found = 1;
                }
        sbx_sandbox_list_free(l, n);
        return found;
}

static int net_rm(int argc, char **argv, net_args *a) {
        sbx_error e = {};
        char who[SBX_SANDBOX_NAME_MAX + 1];
        int r = 0;

        if (argc < 1) {
                sbx_error_set(&e, -EINVAL, "rm: expected NAME...");
                return fail(a, &e);
        }
        for (int i = 0; i < argc; i++) {
                if (sbx_network_name_check(argv[i], &e) >= 0 && network_in_use(argv[i], who, sizeof(who))) {
                        sbx_error_set(&e, -EBUSY, "error while removing network: network %s has active "
                                      "endpoints (sandbox '%s' uses it; remove it first)", argv[i], who);
                        r = fail(a, &e);
                        continue;
                }
                if (sbx_network_remove(argv[i], &e) < 0) {
                        r = fail(a, &e);
                        continue;
                }
                if (a->docker)
                        printf("%s\n", argv[i]);
        }
        return r;
}

static int network_main(int argc, char **argv, bool docker) {
        net_args a = { .docker = docker };
        const char *cmd = argc > 1 ? argv[1] : NULL;
        sbx_error e = {};
        int k, r;

        if (!cmd || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
                sbx_cli_usage(cmd ? stdout : stderr, docker ? &sbx_cmd_docker_network : &sbx_cmd_network);
                return cmd ? 0 : (docker ? 1 : SBX_EXIT_USAGE);
        }
        k = args_parse(argc - 1, argv + 1, &a, &e);
        if (k != 0) {
                args_done(&a);
                return k > 0 ? 0 : fail(&a, &e);
        }
        argc -= 1 + optind;
        argv += 1 + optind;
        if (!strcmp(cmd, "create"))
                r = net_save(argc, argv, &a, true);
        else if (!strcmp(cmd, "update") && !docker)
                r = net_save(argc, argv, &a, false);
        else if ((!strcmp(cmd, "ls") || !strcmp(cmd, "list")) && argc > 0) {
                sbx_error_set(&e, -EINVAL, "ls: unexpected argument '%s'", argv[0]);
                r = fail(&a, &e);
        } else if (!strcmp(cmd, "ls") || !strcmp(cmd, "list"))
                r = net_ls(&a);
        else if (!strcmp(cmd, "inspect"))
                r = net_inspect(argc, argv, &a);
        else if (!strcmp(cmd, "rm") || !strcmp(cmd, "remove"))
                r = net_rm(argc, argv, &a);
        else {
                sbx_error_set(&e, -EINVAL, "unknown command '%s' (create, %sls, inspect, rm)", cmd,
                              docker ? "" : "update, ");
                r = fail(&a, &e);
        }
        args_done(&a);
        return r;
}

int cli_network(int argc, char **argv) {
        return network_main(argc, argv, false);
}

int cli_network_docker(int argc, char **argv, sbx_cli_template_fn fn) {
        template_fn = fn;
        return network_main(argc, argv, true);
}

/* ---- sbx explain: the network an agent's docker.network names ---- */

static bool is_named(const char *network) {
        return network && strcmp(network, "none") && strcmp(network, "bridge") && strcasecmp(network, "host") &&
               strncasecmp(network, "container:", 10);
}

static void print_list(FILE *f, const char *label, const sbx_strv *l) {
        fprintf(f, "  %-14s", label);
        for (size_t i = 0; i < l->n; i++)
                fprintf(f, "%s%s", i ? ", " : "", l->v[i]);
        fprintf(f, "%s\n", l->n ? "" : "(none)");
}

void sbx_cli_network_explain(FILE *f, const char *network) {
        sbx_network n;
        sbx_error e = {};

        if (!is_named(network))
                return;
        if (sbx_network_load(network, &n, &e) < 0) {
                fprintf(f, "network %s: %s\n", network, e.msg);
                return;
        }
        if (!sbx_network_enforced(&n))
                fprintf(f, "network %s: egress to anywhere (no allowlist: as 'bridge')\n", network);
        else if (n.internal)
                fprintf(f, "network %s: no egress (--internal): no name resolves, nothing leaves\n", network);
        else {
                fprintf(f, "network %s: egress allowlist (names resolve through sbx's resolver)\n",
                        network);
                print_list(f, "names:", &n.allow);
                print_list(f, "ranges:", &n.allow_cidr);
        }
        if (n.dns.n)
                print_list(f, "upstream dns:", &n.dns);
        sbx_network_done(&n);
}

struct json_object *sbx_cli_network_explain_json(const char *network) {
        json_object *o;
        sbx_network n;
        sbx_error e = {};

        if (!is_named(network))
                return NULL;
        if (sbx_network_load(network, &n, &e) < 0) {
                o = json_object_new_object();
                json_object_object_add(o, "name", json_object_new_string(network));
                json_object_object_add(o, "error", json_object_new_string(e.msg));
                return o;
        }
        o = sbx_network_to_json(&n);
        sbx_network_done(&n);
        return o;
}

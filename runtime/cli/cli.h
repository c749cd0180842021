/* SPDX-License-Identifier: MIT */
/* Command front ends dispatched from main.c. Each returns the process exit
 * status (see runtime/ERRORS.md); they may print, library code may not. */
#pragma once


int cli_run(int argc, char **argv);       /* cli-run.c */
int cli_explain(int argc, char **argv);   /* cli-policy.c */
int cli_check(int argc, char **argv);     /* cli-policy.c */
int cli_migrate(int argc, char **argv);   /* cli-policy.c */
int cli_doctor(int argc, char **argv);    /* cli-doctor.c */
int cli_rootfs(int argc, char **argv);    /* cli-rootfs.c */
int cli_docker(int argc, char **argv);    /* cli-docker.c: argv[0] is "docker" (issue 9) */
int cli_network(int argc, char **argv);   /* cli-network.c: sbx network (issue 18) */
/* `docker network ...` (argv[0] "network"): docker's output shapes; fn renders --format. */
struct sbx_error;
typedef int (*sbx_cli_template_fn)(const char *tmpl, const void *data, char **ret, struct sbx_error *e);
int cli_network_docker(int argc, char **argv, sbx_cli_template_fn fn);
/* sbx explain: the record of the network docker.network names (nothing for the modes) */
#include <stdio.h>
void sbx_cli_network_explain(FILE *f, const char *network);
struct json_object *sbx_cli_network_explain_json(const char *network);

/* persistent sandboxes (issue 4): cli-sandbox.c */
int cli_run_dispatch(int argc, char **argv); /* sbx run: --name/--scope -> persistent, else cli_run */
int cli_create(int argc, char **argv);
int cli_exec(int argc, char **argv);
int cli_ls(int argc, char **argv);
int cli_inspect(int argc, char **argv);
int cli_logs(int argc, char **argv);
int cli_start(int argc, char **argv);
int cli_stop(int argc, char **argv);
int cli_rm(int argc, char **argv);
int cli_pause(int argc, char **argv);        /* pause and unpause */
int cli_prune(int argc, char **argv);
int cli_recreate(int argc, char **argv);
int cli_diff(int argc, char **argv);
int cli_commit(int argc, char **argv);
int cli_reset(int argc, char **argv);

/* cli-run.c, shared with cli-sandbox.c */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "launch/launch.h"
int sbx_cli_run_apply(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e);

/* cli-agent-rules.c (issue 14), shared with the docker front end. */
#include "sandbox/sandbox.h"
/* The agent's rules from openclaw.json into c, and whose they are into *ret
 * (owned: cli_policy_free). find: look the config up as OpenClaw does
 * (config_path = an explicit one or NULL); else read config_path (NULL:
 * OpenClaw's defaults). The agent is `agent`, else the one of scope_key
 * ("agent:<id>[:...]"); a scope key naming no agent ("shared") has no
 * single agent's rules. config_fd >= 0 (not with find): config_path opened
 * by the caller (runtime/oci: without following symlinks), read from there.
 * Returns 1 with rules, 0 for policy none (no agent,
 * or find found no config), <0 when the config cannot be read or resolved
 * (reterr names the file and key). */
int cli_agent_rules(const char *config_path, int config_fd, bool find, const char *scope_key, const char *agent,
                    const char *session, sbx_run_config *c, sbx_sandbox_policy *ret, sbx_error *reterr);
void cli_policy_free(sbx_sandbox_policy *p);
/* The rules s's agent gets now (a fresh config holding only them) and their
 * hash. 0: s has no policy; 1: *now filled (sbx_run_config_free it). */
int cli_policy_now(const sbx_sandbox *s, sbx_run_config *now, char hash[SBX_POLICY_HASH_LEN + 1], sbx_error *reterr);
/* Before an exec into ref: the rules its agent gets now, when openclaw.json
 * changed since create and derives other rules (1: *now filled, the sandbox
 * recorded stale; 0: nothing to add; <0: the config cannot be read now, the
 * exec must fail). *now must be sbx_run_config_init()ed; free it. */
int cli_exec_rules_now(const char *ref, sbx_run_config *now, sbx_error *reterr);

/* ------------------------------------------------------------ option tables
 * One table per command: every option with its argument name and help text.
 * The getopt_long array a parser uses, its --help, the man pages and the
 * bash/zsh completion are all made from these tables (cli-doc.c), so they
 * cannot drift apart; tests/unit/test-cli-opts.c fails when an option has no
 * help text. */

typedef struct sbx_cli_opt {
        const char *name;     /* long name without "--"; NULL: a section heading (help) or the end (both NULL) */
        int short_name;       /* 'e', or 0 */
        const char *arg;      /* argument name ("KEY=VALUE"), NULL for a flag */
        int val;              /* what getopt_long returns */
        const char *help;     /* wrapped when printed; "\n" forces a line break */
        const char *values;   /* completion: "a b c" (the accepted words), "@file", "@dir", "@sandbox",
                               * "@image", or NULL (anything) */
} sbx_cli_opt;

#define SBX_CLI_OPT_HELP { "help", 'h', NULL, 'h', "show this help and exit", NULL }
#define SBX_CLI_OPT_END { NULL, 0, NULL, 0, NULL, NULL }
#define SBX_CLI_SECTION(title) { NULL, 0, NULL, 0, title, NULL }

typedef struct sbx_cli_cmd {
        const char *name;       /* "run", "rootfs build", "docker create" */
        const char *page;       /* the man page that describes it: "sbx-run", "sbx-sandbox", ... */
        const char *usage;      /* after "sbx NAME": "[OPTIONS] -- CMD [ARGS...]"; "\n" separates forms */
        const char *summary;    /* one line, lower case, no full stop (sbx --help, man NAME) */
        const char *text;       /* what it does; "\n\n" separates paragraphs */
        const sbx_cli_opt *opts[4]; /* option tables in order, NULL-terminated */
        const char *footer;     /* after the options: notes, exit status */
        const char *positional; /* completion of non-option words: "@sandbox", "@image", "@file", "@command" */
        bool in_order;          /* options end at the first non-option word (getopt "+") */
        int (*fn)(int argc, char **argv); /* NULL: a sub-command reached through its parent */
} sbx_cli_cmd;

/* The option tables of sbx run (cli-run.c) and of persistent sandboxes
 * (cli-sandbox.c): sbx create and sbx run --name take both. */
extern const sbx_cli_opt sbx_run_opts[], sbx_persistent_opts[];

/* Every sbx command (cli-commands.c), NULL-terminated, in `sbx --help` order. */
extern const sbx_cli_cmd *const sbx_cli_commands[];
extern const sbx_cli_cmd sbx_cmd_run, sbx_cmd_create, sbx_cmd_exec, sbx_cmd_ls, sbx_cmd_inspect, sbx_cmd_logs,
        sbx_cmd_start, sbx_cmd_stop,
        sbx_cmd_rm, sbx_cmd_pause, sbx_cmd_unpause, sbx_cmd_prune, sbx_cmd_recreate, sbx_cmd_diff,
        sbx_cmd_commit, sbx_cmd_reset, sbx_cmd_explain, sbx_cmd_check, sbx_cmd_migrate, sbx_cmd_doctor,
        sbx_cmd_rootfs, sbx_cmd_rootfs_build, sbx_cmd_rootfs_import, sbx_cmd_rootfs_ls, sbx_cmd_rootfs_inspect,
        sbx_cmd_rootfs_rm, sbx_cmd_network, sbx_cmd_docker_network;

/* The getopt_long arrays of a list of tables (NULL-terminated), made once per
 * parse: longopts ends with a zero entry; shortopts starts with '+' when
 * in_order. */
#define SBX_CLI_GETOPT_MAX 96
typedef struct sbx_cli_getopt {
        struct option longopts[SBX_CLI_GETOPT_MAX + 1];
        char shortopts[2 * SBX_CLI_GETOPT_MAX + 2];
} sbx_cli_getopt;
void sbx_cli_getopt_init(sbx_cli_getopt *g, const sbx_cli_opt *const *tables, bool in_order);
/* Parse argv (argv[0] the command word) with c's option tables: --help prints
 * c's usage (*status 0); fn (may be NULL: the tables have no other option)
 * takes every other option; a bad option (sbx_cli_bad_option) or fn < 0:
 * *status 2. Returns the index of the first non-option word, or -1 with
 * *status set. */
int sbx_cli_parse(const sbx_cli_cmd *c, int argc, char **argv, int (*fn)(int opt, const char *arg, void *userdata),
                  void *userdata, int *status);
/* After getopt_long (opterr 0) returned '?' for g's tables: one line on
 * stderr naming the word at fault, "sbx CMD: bad option '--x'" (or an
 * ambiguous one, or a value missing after or given to an option), and
 * where the help is. */
void sbx_cli_bad_option(const sbx_cli_cmd *c, const sbx_cli_getopt *g, int argc, char **argv);
/* The same words without the command ("bad option '--x'"), into buf. */
const char *sbx_cli_bad_option_text(const sbx_cli_getopt *g, int argc, char **argv, char *buf, size_t len);
/* The options (not the headings) of c's tables, in order:
 *   for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(c, &it)); ) ... */
typedef struct sbx_cli_iter {
        size_t table;
        const sbx_cli_opt *next;
} sbx_cli_iter;
const sbx_cli_opt *sbx_cli_next_opt(const sbx_cli_cmd *c, sbx_cli_iter *it);
/* The getopt value of the option NAME in table, or -1. */
int sbx_cli_opt_val(const sbx_cli_opt *table, const char *name);

/* --help of a command: usage lines, text, the options (wrapped), the footer. */
void sbx_cli_usage(FILE *f, const sbx_cli_cmd *c);
/* A command word with sub-commands (sbx, sbx rootfs): none after it prints
 * usage on stderr (*status 2), --help, -h or help prints it on stdout
 * (*status 0); true then, false when argv[1] is for the caller. */
bool sbx_cli_help_word(int argc, char **argv, void (*usage)(FILE *f), int *status);
/* The first usage line only ("usage: sbx rm [-f] NAME..."), for error messages. */
const char *sbx_cli_usage_line(const sbx_cli_cmd *c, char *buf, size_t len);

/* Man pages and completion (cli-doc.c; run at build time by runtime/gendoc.c).
 * cmds: NULL-terminated, every command the page or script covers. */
typedef struct sbx_cli_page {
        const char *name;       /* "sbx-run" */
        const char *summary;    /* NAME section */
        const char *text;       /* DESCRIPTION before the commands */
        const char *see_also;   /* "sbx(1), sbx-sandbox(1)" */
} sbx_cli_page;
void sbx_cli_man(FILE *f, const sbx_cli_page *page, const sbx_cli_cmd *const *cmds, const char *version);
/* sbx(1): the page's text and one line per top-level command, naming its page. */
void sbx_cli_man_index(FILE *f, const sbx_cli_page *page, const sbx_cli_cmd *const *cmds, const char *version);
void sbx_cli_bash_completion(FILE *f, const char *prog, const sbx_cli_cmd *const *cmds);
void sbx_cli_zsh_completion(FILE *f, const char *prog, const sbx_cli_cmd *const *cmds);

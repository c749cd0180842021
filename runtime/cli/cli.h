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
#include "launch/launch.h"
const struct option *sbx_cli_run_options(void);
int sbx_cli_run_apply(sbx_run_config *c, int opt, const char *arg, bool *tty_set, sbx_error *e);

/* cli-agent-rules.c (issue 14), shared with the docker front end. */
#include "sandbox/sandbox.h"
/* The agent's rules from openclaw.json into c, and whose they are into *ret
 * (owned: cli_policy_free). find: look the config up as OpenClaw does
 * (config_path = an explicit one or NULL); else read config_path (NULL:
 * OpenClaw's defaults). The agent is `agent`, else the one of scope_key
 * ("agent:<id>[:...]"), else the default. Returns 1 with rules, 0 when find
 * found no config (policy none), <0 when the config cannot be read or
 * resolved (reterr names the file and key). */
int cli_agent_rules(const char *config_path, bool find, const char *scope_key, const char *agent,
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

/* SPDX-License-Identifier: MIT */
/* An agent's rules for a persistent sandbox, from openclaw.json (issue 14):
 * shared by `docker create` (the openclaw.sessionKey label), and by `sbx
 * exec` / `docker exec` (the rules the config derives now, to see whether a
 * sandbox is stale and to add the new rules on top). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "policy/policy.h"
#include "agent/agent.h"
#include "sandbox/sandbox.h"
#include "cli.h"

/* "agent:<id>:<rest>" or "agent:<id>": the agent; "shared" and anything else: none. */
static char *agent_of(const char *scope_key) {
        const char *id, *end;

        if (!scope_key || strncmp(scope_key, "agent:", 6))
                return NULL;
        id = scope_key + 6;
        end = strchr(id, ':');
        return end ? strndup(id, (size_t) (end - id)) : strdup(id);
}

int cli_agent_rules(const char *config_path, int config_fd, bool find, const char *scope_key, const char *agent,
                    const char *session, sbx_run_config *c, sbx_sandbox_policy *ret, sbx_error *reterr) {
        _cleanup_free_ char *path = NULL, *parsed_agent = NULL;
        _cleanup_(sbx_resolved_done) sbx_resolved res = {};
        sbx_config cfg = {};
        sbx_request req = {};
        int r;

        *ret = (sbx_sandbox_policy) {};
        /* A scope key naming no agent ("shared": one sandbox for every
         * agent) has no single agent's rules: policy none. */
        if (!agent && !(parsed_agent = agent_of(scope_key)))
                return 0;
        if (find) {
                r = sbx_config_find(config_path, &path, reterr);
                if (r < 0)
                        return r;
                if (!path)
                        return 0;       /* no openclaw.json: policy none */
        } else if (config_path && !(path = strdup(config_path)))
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        /* before reading: a change after this point shows as a new stamp */
        sbx_sandbox_policy_stamp(path, ret->config_stamp);
        r = sbx_config_load_fd(path, find ? -EBADF : config_fd, &cfg, NULL, reterr);
        if (r < 0) {
                sbx_config_done(&cfg);
                return r;
        }
        req.agent = agent ?: parsed_agent;
        /* a session scope key is the session key; an agent scope key names no session */
        req.session = session ?: (scope_key && parsed_agent && strchr(scope_key + 6, ':') ? scope_key : NULL);
        r = sbx_resolve(&cfg, &req, &res, NULL, reterr);
        sbx_config_done(&cfg);
        if (r < 0)
                return r;
        r = sbx_sandbox_rules_apply(c, &res, NULL, reterr);
        if (r < 0)
                return r;
        ret->agent = TAKE_PTR(res.agent_id);
        ret->session = TAKE_PTR(res.session_key);
        ret->scope_key = scope_key ? strdup(scope_key) : TAKE_PTR(res.scope_key);
        ret->config_path = path ? realpath(path, NULL) : NULL;
        if (path && !ret->config_path)
                return sbx_error_set(reterr, -errno, "%s", path);
        if (!ret->agent || !ret->scope_key)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return 1;
}

void cli_policy_free(sbx_sandbox_policy *p) {
        free(p->agent);
        free(p->session);
        free(p->scope_key);
        free(p->config_path);
        *p = (sbx_sandbox_policy) {};
}

int cli_policy_now(const sbx_sandbox *s, sbx_run_config *now, char hash[SBX_POLICY_HASH_LEN + 1], sbx_error *reterr) {
        sbx_sandbox_policy id = {};
        int r;

        if (!s->policy.agent)
                return 0;
        sbx_run_config_init(now);
        r = cli_agent_rules(s->policy.config_path, -EBADF, false, s->policy.scope_key, s->policy.agent, s->policy.session,
                            now, &id, reterr);
        if (r < 0) {
                sbx_error_wrap(reterr, "the policy of sandbox '%s' (agent %s)", s->name, s->policy.agent);
                sbx_run_config_free(now);
                return r;
        }
        sbx_sandbox_policy_hash(&s->policy, now, hash);
        cli_policy_free(&id);
        return 1;
}

int cli_exec_rules_now(const char *ref, sbx_run_config *now, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        char stamp[96], hash[SBX_POLICY_HASH_LEN + 1];
        int r;

        if (sbx_sandbox_lookup(ref, &s, NULL) < 0 || !s->policy.agent)
                return 0;       /* a missing sandbox: sbx_sandbox_exec says so */
        /* the cheap check first: the file as it was when the rules were derived */
        sbx_sandbox_policy_stamp(s->policy.config_path, stamp);
        if (!s->policy_stale && !strcmp(stamp, s->policy.config_stamp))
                return 0;
        r = cli_policy_now(s, now, hash, reterr);
        if (r <= 0)
                return r;       /* unreadable now: the exec fails closed */
        if (!strcmp(hash, s->policy_hash)) {
                sbx_run_config_free(now);
                sbx_run_config_init(now);
                return 0;
        }
        (void) sbx_sandbox_mark_policy(s->name, hash, NULL);
        return 1;
}

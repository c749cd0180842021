/* SPDX-License-Identifier: MIT */
/* sbx's hardening for an OpenClaw agent, opted into by annotations:
 *   org.sbx.openclaw.config=<openclaw.json>  org.sbx.policy.agent=<agentId>
 *   [org.sbx.policy.session=<sessionKey>]
 * The rules are the ones the docker drop-in gives that agent's sandboxes:
 * the same code path (runtime/cli cli_agent_rules -> runtime/agent
 * sbx_sandbox_rules_apply) into a run config, which the launcher enforces
 * in the container (runtime/launch container.c: exec decided before
 * clone3, Landlock) and oci-seccomp.c (the socket rule). The container's
 * shape (mounts, namespaces, resources, capabilities) stays config.json's;
 * no_new_privs is set, as in every sbx sandbox (Landlock needs it). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "oci-internal.h"

int oci_policy_prepare(oci_config *c, sbx_error *reterr) {
        sbx_sandbox_policy who = {};
        char path[2 * PATH_MAX + 2];
        int r;

        if (!c->policy_agent)
                return 0;
        /* a relative path is the bundle's, like root.path */
        snprintf(path, sizeof(path), "%s%s%s", c->policy_config[0] == '/' ? "" : c->bundle,
                 c->policy_config[0] == '/' ? "" : "/", c->policy_config);
        sbx_run_config_init(&c->rules);
        c->ctr.rules = &c->rules;
        r = cli_agent_rules(path, false, NULL, c->policy_agent, c->policy_session, &c->rules, &who, reterr);
        cli_policy_free(&who);
        if (r < 0)
                return sbx_error_wrap(reterr, "config.json: annotations org.sbx.openclaw.config '%s', "
                                      "org.sbx.policy.agent '%s'", c->policy_config, c->policy_agent), r;
        c->ctr.proc.no_new_privs = true;
        return 0;
}

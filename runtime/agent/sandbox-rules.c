/* SPDX-License-Identifier: MIT */
/* The rules of a persistent sandbox (issue 14): what the operator explicitly
 * configured for the agent, derived once at create and applied to the whole
 * sandbox (its init and every exec joined into it).
 *
 *   exec removed by the tool pipeline        -> every exec refused
 *   tools.exec.security "deny"                -> every exec refused
 *   tools.exec.security "allowlist"           -> exec allowlist: safeBins in
 *       /bin, /usr/bin and safeBinTrustedDirs, the exec-approvals allowlist of
 *       the agent (spec §5.5), and /bin/sh, the shell OpenClaw wraps every
 *       command in (`sh -lc`): what it runs is decided by the kernel (Landlock)
 *   tools.exec.security unset or "full"       -> no exec restriction (OpenClaw
 *       does not enforce its sandbox default, spec §5.3: neither does sbx)
 *   read-only fs and socket deny               -> as for sbx run --agent
 *
 * Deviation, on purpose: OpenClaw also checks a safe bin's arguments against
 * its profile; the kernel cannot, so a safe bin is allowed with any argv. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static const char *const default_safe_bins[] = { "cut", "uniq", "head", "tail", "tr", "wc", NULL };
static const char *const trusted_dirs[] = { "/bin", "/usr/bin", NULL };

#define WRAPPER_SHELL "/bin/sh"

static int refuse_all(sbx_run_config *c, const char *rule, const char *key) {
        free(c->exec_refused_rule);
        free(c->exec_refused_key);
        c->exec_refused_rule = strdup(rule);
        c->exec_refused_key = strdup(key ?: "");
        return c->exec_refused_rule && c->exec_refused_key ? 0 : -ENOMEM;
}

static int add_safe_bin(sbx_run_config *c, const char *dir, const char *bin) {
        char p[4096];
        size_t n = strlen(dir);

        /* a name, never a path or a glob: OpenClaw matches the base name */
        if (!bin[0] || strpbrk(bin, "/\\*?[~") || !dir[0] || dir[0] != '/')
                return 0;
        snprintf(p, sizeof(p), "%.*s/%s", (int) (n > 1 && dir[n - 1] == '/' ? n - 1 : n), dir, bin);
        return sbx_run_config_add_exec_allow(c, p);
}

int sbx_sandbox_rules_apply(sbx_run_config *c, const sbx_resolved *r, const char *approvals_path,
                            sbx_error *reterr) {
        sbx_exec_approvals a = {};
        sbx_tool_rules d;
        char key[512];
        int k = 0;

        sbx_tool_rules_derive(r, &d);
        c->read_only_fs = c->read_only_fs || d.read_only_fs;
        c->seccomp.deny_inet_sockets = c->seccomp.deny_inet_sockets || d.deny_inet_sockets;
        if (!d.exec_allowed)
                return refuse_all(c, d.exec_rule, d.exec_key) < 0 ? sbx_error_set(reterr, -ENOMEM, "out of memory") : 0;
        if (!r->exec_security || !strcmp(r->exec_security, "full"))
                return 0;
        if (!strcmp(r->exec_security, "deny")) {
                snprintf(key, sizeof(key), "tools.exec.security=deny");
                return refuse_all(c, key, r->exec_security_key) < 0 ? sbx_error_set(reterr, -ENOMEM, "out of memory")
                                                                     : 0;
        }
        if (strcmp(r->exec_security, "allowlist"))
                return sbx_error_set(reterr, -EINVAL, "%s: '%s': expected deny, allowlist or full",
                                     r->exec_security_key, r->exec_security);
        /* allowlist */
        k = sbx_exec_approvals_load(approvals_path, r->agent_id ?: "main", &a, reterr);
        if (k < 0)
                return k;
        c->exec_allow_set = true;
        k = sbx_run_config_add_exec_allow(c, WRAPPER_SHELL);
        for (size_t i = 0; k >= 0 && i < a.n_patterns; i++)
                k = sbx_run_config_add_exec_allow(c, a.patterns[i]);
        for (size_t b = 0; k >= 0 && (r->safe_bins_key ? b < r->safe_bins.n : default_safe_bins[b] != NULL); b++) {
                const char *bin = r->safe_bins_key ? r->safe_bins.v[b] : default_safe_bins[b];
                for (size_t i = 0; k >= 0 && trusted_dirs[i]; i++)
                        k = add_safe_bin(c, trusted_dirs[i], bin);
                for (size_t i = 0; k >= 0 && i < r->safe_bin_dirs.n; i++)
                        k = add_safe_bin(c, r->safe_bin_dirs.v[i], bin);
        }
        snprintf(key, sizeof(key), "%s (safeBins: %s; approvals: %s)", r->exec_security_key,
                 r->safe_bins_key ?: "built-in default", a.allowlist_key[0] ? a.allowlist_key : "none");
        free(c->exec_allow_key);
        c->exec_allow_key = strdup(key);
        sbx_exec_approvals_done(&a);
        if (k < 0 || !c->exec_allow_key)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return 0;
}

void sbx_sandbox_rules_explain(FILE *f, const sbx_resolved *r) {
        fprintf(f, "persistent sandbox (sbx create --scope, docker create with openclaw.sessionKey):\n");
        if (!r->exec_security)
                fprintf(f, "  exec security:   not configured (tools.exec.security unset): no exec restriction,\n"
                           "                   as OpenClaw (its sandbox default \"deny\" is not enforced)\n");
        else if (!strcmp(r->exec_security, "full"))
                fprintf(f, "  exec security:   full (%s): no exec restriction\n", r->exec_security_key);
        else if (!strcmp(r->exec_security, "deny"))
                fprintf(f, "  exec security:   deny (%s): every exec refused (126)\n", r->exec_security_key);
        else {
                fprintf(f, "  exec security:   allowlist (%s): only /bin/sh (OpenClaw's sh -lc), the\n"
                           "                   safe bins (%s) in /bin, /usr/bin",
                        r->exec_security_key, r->safe_bins_key ?: "built-in: cut uniq head tail tr wc");
                for (size_t i = 0; i < r->safe_bin_dirs.n; i++)
                        fprintf(f, ", %s", r->safe_bin_dirs.v[i]);
                fprintf(f, "\n                   and the exec-approvals allowlist run (Landlock, before fork);\n"
                           "                   note: sh -lc runs /etc/profile, which calls id -u (refused unless\n"
                           "                   allowed: add \"id\" to safeBins to keep the login PATH quiet)\n");
        }
}

int sbx_sandbox_rules_add_json(json_object *o, const sbx_resolved *r) {
        json_object *x = json_object_new_object();
        const char *sec = r->exec_security;

        if (!x)
                return -ENOMEM;
        json_object_object_add(x, "security", sec ? json_object_new_string(sec) : NULL);
        json_object_object_add(x, "securityKey", r->exec_security_key ? json_object_new_string(r->exec_security_key) : NULL);
        json_object_object_add(x, "enforced", json_object_new_string(
                !sec || !strcmp(sec, "full") ? "none: tools.exec.security is not deny or allowlist" :
                !strcmp(sec, "deny") ? "every exec refused (126)" :
                "exec allowlist: before fork (126) and Landlock (EACCES) for every process"));
        json_object_object_add(x, "safeBins",
                               r->safe_bins_key ? sbx_json_strings(r->safe_bins.v, r->safe_bins.n) : NULL);
        json_object_object_add(x, "safeBinsKey", r->safe_bins_key ? json_object_new_string(r->safe_bins_key) : NULL);
        json_object_object_add(x, "safeBinTrustedDirs",
                               sbx_json_strings(r->safe_bin_dirs.v, r->safe_bin_dirs.n));
        json_object_object_add(o, "sandboxExec", x);
        return 0;
}

/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "security/security.h"
#include "policy/policy.h"

static const char *const fs_write_tools[] = { "write", "edit", "apply_patch", NULL };
static const char *const network_tools[] = { "web_search", "web_fetch", "x_search", "browser", NULL };

static const sbx_tool_verdict *verdict(const sbx_resolved *r, const char *tool) {
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if (!strcmp(sbx_core_tools[i], tool))
                        return &r->tools[i];
        return NULL;
}

/* True when every tool of the list is removed; why lists who removed them. */
static bool all_removed(const sbx_resolved *r, const char *const *tools, char *why, size_t len) {
        size_t n = 0;

        why[0] = '\0';
        for (size_t i = 0; tools[i]; i++) {
                const sbx_tool_verdict *v = verdict(r, tools[i]);
                if (v && v->allowed) {
                        snprintf(why, len, "tool '%s' is allowed", tools[i]);
                        return false;
                }
                if (v && n < len)
                        n += snprintf(why + n, len - n, "%s%s (%s%s%s)", i ? ", " : "", tools[i],
                                      v->layer ?: "removed", v->key ? ": " : "", v->key ?: "");
        }
        return true;
}

void sbx_tool_rules_derive(const sbx_resolved *r, sbx_tool_rules *ret) {
        const sbx_tool_verdict *ex = verdict(r, "exec");
        const char *net = r->docker.network ?: "none";
        char tools_why[400];

        *ret = (sbx_tool_rules) { .exec_allowed = !ex || ex->allowed };
        if (!ret->exec_allowed) {
                snprintf(ret->exec_rule, sizeof(ret->exec_rule), "tool policy: 'exec' (alias bash) removed by %s",
                         ex->layer ?: "the tool pipeline");
                snprintf(ret->exec_key, sizeof(ret->exec_key), "%s", ex->key ?: "");
        }
        ret->read_only_fs = all_removed(r, fs_write_tools, tools_why, sizeof(tools_why));
        snprintf(ret->read_only_why, sizeof(ret->read_only_why), "%s%s",
                 ret->read_only_fs ? "no fs-write tool: " : "", tools_why);
        ret->deny_inet_sockets = all_removed(r, network_tools, tools_why, sizeof(tools_why)) && !strcmp(net, "none");
        if (ret->deny_inet_sockets)
                snprintf(ret->sockets_why, sizeof(ret->sockets_why), "docker.network \"none\" and no network tool: %s",
                         tools_why);
        else if (strcmp(net, "none"))
                snprintf(ret->sockets_why, sizeof(ret->sockets_why), "docker.network is \"%s\"", net);
        else
                snprintf(ret->sockets_why, sizeof(ret->sockets_why), "%s", tools_why);
}

int sbx_tool_rules_apply(sbx_run_config *c, const sbx_resolved *r, const char *approvals_path, sbx_error *reterr) {
        sbx_tool_rules d;

        if (r && r->agent_id) {
                c->agent = r->agent_id;
                c->session = r->session_key;
                c->scope_key = r->scope_key;
                sbx_tool_rules_derive(r, &d);
                if (!d.exec_allowed) {
                        free(c->exec_refused_rule);
                        free(c->exec_refused_key);
                        c->exec_refused_rule = strdup(d.exec_rule);
                        c->exec_refused_key = strdup(d.exec_key);
                        if (!c->exec_refused_rule || !c->exec_refused_key)
                                return sbx_error_set(reterr, -ENOMEM, "out of memory");
                }
                /* Derived rules only tighten: an explicit option cannot be undone here. */
                c->read_only_fs = c->read_only_fs || d.read_only_fs;
                c->seccomp.deny_inet_sockets = c->seccomp.deny_inet_sockets || d.deny_inet_sockets;
        }
        if (!approvals_path && !(r && r->agent_id))
                return 0;
        /* exec removed by the tool policy: that is the rule, approvals add nothing */
        if (c->exec_refused_rule)
                return 0;
        return sbx_run_config_apply_approvals(c, approvals_path, r && r->agent_id ? r->agent_id : "main", reterr);
}

static json_object *rule_json(bool on, const char *enforced_by, const char *why) {
        json_object *o = json_object_new_object();

        json_object_object_add(o, "applies", json_object_new_boolean(on));
        json_object_object_add(o, "enforcedBy", json_object_new_string(enforced_by));
        json_object_object_add(o, "why", json_object_new_string(why));
        return o;
}

int sbx_tool_rules_add_json(json_object *o, const sbx_resolved *r, const char *approvals_path) {
        json_object *d = json_object_new_object(), *ex = json_object_new_object(), *pats, *un;
        sbx_exec_approvals a = {};
        sbx_error e = {};
        sbx_tool_rules t;
        int abi = sbx_landlock_abi();
        bool approvals_ok;

        if (!d || !ex)
                return -ENOMEM;
        sbx_tool_rules_derive(r, &t);
        approvals_ok = sbx_exec_approvals_load(approvals_path, r->agent_id ?: "main", &a, &e) >= 0;
        json_object_object_add(ex, "allowed", json_object_new_boolean(t.exec_allowed));
        json_object_object_add(ex, "rule", t.exec_allowed ? NULL : json_object_new_string(t.exec_rule));
        json_object_object_add(ex, "configKey", t.exec_key[0] ? json_object_new_string(t.exec_key) : NULL);
        json_object_object_add(ex, "decidedBeforeFork", json_object_new_boolean(true));
        if (approvals_ok) {
                json_object_object_add(ex, "security",
                                       json_object_new_string(sbx_exec_security_to_string(a.security)));
                json_object_object_add(ex, "securityKey", json_object_new_string(a.security_key));
                pats = json_object_new_array();
                for (size_t i = 0; i < a.n_patterns; i++)
                        json_object_array_add(pats, json_object_new_string(a.patterns[i]));
                json_object_object_add(ex, "allowlist",
                                       a.security == SBX_EXEC_SECURITY_ALLOWLIST ? pats : (json_object_put(pats), NULL));
                if (a.security == SBX_EXEC_SECURITY_ALLOWLIST)
                        json_object_object_add(ex, "allowlistKey", json_object_new_string(a.allowlist_key));
        } else
                json_object_object_add(ex, "approvalsError", json_object_new_string(e.msg));
        json_object_object_add(d, "exec", ex);
        json_object_object_add(d, "readOnlyFs", rule_json(t.read_only_fs, "landlock", t.read_only_why));
        json_object_object_add(d, "denyInetSockets", rule_json(t.deny_inet_sockets, "seccomp", t.sockets_why));
        json_object_object_add(d, "execAllowlist",
                               rule_json(approvals_ok && a.security == SBX_EXEC_SECURITY_ALLOWLIST,
                                         "before fork + landlock",
                                         approvals_ok && a.security == SBX_EXEC_SECURITY_ALLOWLIST ?
                                         a.allowlist_key : "no exec-approvals allowlist"));
        json_object_object_add(d, "landlockAbi", json_object_new_int(abi > 0 ? abi : 0));
        /* Never silent: what this machine cannot enforce. */
        un = json_object_new_array();
        if (abi < 1 && t.read_only_fs)
                json_object_array_add(un, json_object_new_string("readOnlyFs"));
        if (abi < 1 && approvals_ok && a.security == SBX_EXEC_SECURITY_ALLOWLIST)
                json_object_array_add(un, json_object_new_string("execAllowlist (in-sandbox part)"));
        json_object_object_add(d, "unenforceable", un);
        json_object_object_add(o, "derivedRules", d);
        sbx_exec_approvals_done(&a);
        return 0;
}

void sbx_tool_rules_print(FILE *f, const sbx_resolved *r) {
        sbx_tool_rules t;
        int abi = sbx_landlock_abi();

        sbx_tool_rules_derive(r, &t);
        fprintf(f, "derived rules (sbx run --agent):\n");
        if (t.exec_allowed)
                fprintf(f, "  exec:            allowed, decided before fork on the resolved file\n");
        else {
                /* human text names the list first: "denied by <deny list>", never
                 * "removed by <...>.tools.allow" (the JSON rule keeps its shape) */
                const sbx_tool_verdict *v = verdict(r, "exec");
                fprintf(f, "  exec:            REFUSED (126): tool policy: 'exec' (alias bash) %s %s (pipeline step %s)\n",
                        v->denied ? "denied by" : "not allowed by", v->key ?: "?", v->layer ?: "?");
        }
        fprintf(f, "  read-only fs:    %s (Landlock%s): %s\n", t.read_only_fs ? "yes" : "no",
                t.read_only_fs && abi < 1 ? ", NOT available here: sbx run refuses" : "", t.read_only_why);
        fprintf(f, "  no inet sockets: %s (seccomp): %s\n", t.deny_inet_sockets ? "yes" : "no", t.sockets_why);
}

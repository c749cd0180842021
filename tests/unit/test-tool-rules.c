/* SPDX-License-Identifier: MIT */
/* Unit tests for the kernel rules derived from a resolved tool set
 * (runtime/agent/tool-rules.c, issue 6): a pure function of sbx_resolved. */
#include <string.h>

#include "agent/agent.h"
#include "policy/policy.h"
#include "unit.h"

static void set_tool(sbx_resolved *r, const char *name, bool allowed, char *layer, char *key) {
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if (!strcmp(sbx_core_tools[i], name)) {
                        r->tools[i] = (sbx_tool_verdict) { .allowed = allowed, .layer = layer, .key = key };
                        return;
                }
        ck_abort_msg("no tool %s", name);
}

static void all_allowed(sbx_resolved *r) {
        memset(r, 0, sizeof(*r));
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                r->tools[i].allowed = true;
}

START_TEST(test_all_tools_derive_no_restriction) {
        sbx_resolved r;
        sbx_tool_rules t;

        all_allowed(&r);
        sbx_tool_rules_derive(&r, &t);
        ck_assert(t.exec_allowed);
        ck_assert(!t.read_only_fs);
        ck_assert(!t.deny_inet_sockets);
}
END_TEST

START_TEST(test_exec_removed_names_layer_and_key) {
        sbx_resolved r;
        sbx_tool_rules t;

        all_allowed(&r);
        set_tool(&r, "exec", false, "agents.x.tools.allow", "agents.entries.x.tools.deny");
        sbx_tool_rules_derive(&r, &t);
        ck_assert(!t.exec_allowed);
        ck_assert_str_eq(t.exec_rule, "tool policy: 'exec' (alias bash) removed by agents.x.tools.allow");
        ck_assert_str_eq(t.exec_key, "agents.entries.x.tools.deny");
}
END_TEST

START_TEST(test_read_only_needs_every_fs_write_tool_removed) {
        sbx_resolved r;
        sbx_tool_rules t;

        all_allowed(&r);
        set_tool(&r, "write", false, "l", "k");
        set_tool(&r, "edit", false, "l", "k");
        sbx_tool_rules_derive(&r, &t);
        ck_assert(!t.read_only_fs);                       /* apply_patch still writes */
        ck_assert_str_eq(t.read_only_why, "tool 'apply_patch' is allowed");
        set_tool(&r, "apply_patch", false, "l", "k");
        sbx_tool_rules_derive(&r, &t);
        ck_assert(t.read_only_fs);
}
END_TEST

START_TEST(test_socket_denial_needs_no_network_tool_and_network_none) {
        static const char *const net[] = { "web_search", "web_fetch", "x_search", "browser" };
        sbx_resolved r;
        sbx_tool_rules t;

        all_allowed(&r);
        for (size_t i = 0; i < 4; i++)
                set_tool(&r, net[i], false, "l", "k");
        sbx_tool_rules_derive(&r, &t);
        ck_assert(t.deny_inet_sockets);                  /* network unset = "none" */
        r.docker.network = (char *) "bridge";
        sbx_tool_rules_derive(&r, &t);
        ck_assert(!t.deny_inet_sockets);
        ck_assert_str_eq(t.sockets_why, "docker.network is \"bridge\"");
        r.docker.network = NULL;
        set_tool(&r, "web_fetch", true, NULL, NULL);
        sbx_tool_rules_derive(&r, &t);
        ck_assert(!t.deny_inet_sockets);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_all_tools_derive_no_restriction, test_exec_removed_names_layer_and_key,
                                 test_read_only_needs_every_fs_write_tool_removed,
                                 test_socket_denial_needs_no_network_tool_and_network_none };

        return unit_main("tool-rules", "derive", 0, CK_NORMAL, tests, UNIT_N(tests));
}

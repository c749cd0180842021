/* SPDX-License-Identifier: MIT */
/* Unit tests of the policy engine (policy/): one test per rule of OpenClaw 2026.9.6
 * that sbx reproduces. Pure functions, so CK_FORK only isolates crashes here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "util/util.h"
#include "unit.h"

static void set_env(void) {
        setenv("HOME", "/tmp/sbx-unit-home", 1);
        unsetenv("OPENCLAW_STATE_DIR");
        unsetenv("OPENCLAW_HOME");
        unsetenv("OPENCLAW_PROFILE");
        unsetenv("OPENCLAW_WORKSPACE_DIR");
        unsetenv("OPENCLAW_CONFIG_PATH");
}

/* load + resolve; returns 0 or the negative errno, filling *ret */
static int resolve_text(const char *cfg_text, const char *agent, const char *session, bool sub,
                        sbx_resolved *ret, sbx_config_diag *diag) {
        sbx_config c = {};
        sbx_error e = {};
        sbx_request req = {.agent = agent, .session = session, .subagent = sub};
        int r;

        set_env();
        r = sbx_config_load_text(cfg_text, strlen(cfg_text), &c, diag, &e);
        if (r < 0)
                return r;
        r = sbx_resolve(&c, &req, ret, NULL, &e);
        sbx_config_done(&c);
        return r;
}

static bool tool_allowed(const sbx_resolved *r, const char *tool) {
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if (!strcmp(sbx_core_tools[i], tool))
                        return r->tools[i].allowed;
        ck_abort_msg("no tool %s", tool);
        return false;
}

static const sbx_tool_verdict *verdict(const sbx_resolved *r, const char *tool) {
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                if (!strcmp(sbx_core_tools[i], tool))
                        return &r->tools[i];
        return NULL;
}

/* the first validation issue for a config, or NULL when it is valid */
static char *first_issue(const char *cfg_text) {
        sbx_config c = {};
        sbx_config_diag d = {};
        sbx_error e = {};
        char *r = NULL;

        set_env();
        if (sbx_config_load_text(cfg_text, strlen(cfg_text), &c, &d, &e) < 0)
                r = strdup(d.issues.n ? d.issues.v[0] : e.msg);
        sbx_config_done(&c);
        sbx_config_diag_done(&d);
        return r;
}

/* ---- normalisation ---- */

START_TEST(test_agent_id_normalisation) {
        static const char *const cases[][2] = {
                {"main", "main"},  {" Work ", "work"}, {"ops_1-x", "ops_1-x"},
                {"M@in!", "m-in"}, {"!!!", "main"},    {"", "main"},
                {"-lead", "lead"}, {"a  b", "a-b"},    {"Ünïcode", "n-code"},
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *n = sbx_normalize_agent_id(cases[i][0]);
                ck_assert_str_eq(n, cases[i][1]);
                free(n);
        }
}
END_TEST

START_TEST(test_tool_name_normalisation_and_aliases) {
        static const char *const cases[][2] = {
                {" Read ", "read"},      {"BASH", "exec"},         {"apply-patch", "apply_patch"},
                {"cron", "automations"}, {"Group:FS", "group:fs"},
                /* String.prototype.toLowerCase beyond ASCII: the Kelvin sign, U+0130, fullwidth
                 * letters, a final sigma and an inner one */
                {"s\xe2\x84\xaaill_workshop", "skill_workshop"},
                {"\xc4\xb0mage", "i\xcc\x87mage"},
                {"\xef\xbc\xa5X", "\xef\xbd\x85x"},
                {"\xce\x91\xce\xa3", "\xce\xb1\xcf\x82"},
                {"\xce\x91\xce\xa3\xce\x91", "\xce\xb1\xcf\x83\xce\xb1"},
                {"\xce\xa3", "\xcf\x83"},
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *n = sbx_tool_normalize(cases[i][0]);
                ck_assert_str_eq(n, cases[i][1]);
                free(n);
        }
}
END_TEST

START_TEST(test_tool_groups_and_glob) {
        const char *const *fs = sbx_tool_group("group:fs");
        ck_assert_ptr_nonnull(fs);
        ck_assert_str_eq(fs[0], "ls");
        ck_assert_ptr_null(sbx_tool_group("group:plugins"));
        ck_assert(sbx_glob_match("web_*", "web_fetch"));
        ck_assert(sbx_glob_match("*_search", "memory_search"));
        ck_assert(!sbx_glob_match("sessions_?", "sessions_x")); /* '?' is literal */
        ck_assert(sbx_glob_match("*", "anything"));
        ck_assert(!sbx_glob_match("exec", "exec2"));
}
END_TEST

/* ---- session keys ---- */

START_TEST(test_session_key_agent_and_subagent_depth) {
        bool bad;
        char *a = sbx_session_key_agent("agent:Work:main", &bad);
        ck_assert_str_eq(a, "work");
        ck_assert(!bad);
        free(a);
        ck_assert_ptr_null(sbx_session_key_agent("agent:main", &bad));
        ck_assert(bad); /* malformed agent key */
        ck_assert_ptr_null(sbx_session_key_agent("global", &bad));
        ck_assert(!bad);
        ck_assert_uint_eq(sbx_subagent_depth("agent:main:subagent:a:subagent:b"), 2);
        ck_assert_uint_eq(sbx_subagent_depth("agent:main:main"), 0);
        ck_assert(sbx_is_subagent_key("subagent:x"));
        ck_assert(sbx_is_subagent_key("agent:main:SubAgent:x"));
        ck_assert(!sbx_is_subagent_key("agent:main:cron:subagent:x"));
}
END_TEST

START_TEST(test_non_main_is_exact_and_case_sensitive) {
        const char *cfg = "{agents:{defaults:{sandbox:{mode:'non-main'}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, NULL, "main", false, &r, NULL), 0);
        ck_assert(!r.sandboxed);
        ck_assert_str_eq(r.session_key, "agent:main:main");
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text(cfg, NULL, "agent:MAIN:Main", false, &r, NULL), 0);
        ck_assert(r.sandboxed);
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text(cfg, NULL, "agent:main:main:thread:1", false, &r, NULL), 0);
        ck_assert(r.sandboxed);
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text(cfg, NULL, "Home", false, &r, NULL), 0);
        ck_assert_str_eq(r.session_key, "agent:main:home"); /* short names are agent:<id>:<lower> */
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_subagent_rewrite_and_role) {
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text("{}", "main", NULL, true, &r, NULL), 0);
        ck_assert_str_eq(r.session_key, "agent:main:subagent:00000000-0000-4000-8000-0000000000aa");
        ck_assert_str_eq(r.subagent_role, "orchestrator"); /* default maxSpawnDepth 5 */
        ck_assert(!tool_allowed(&r, "session_status"));
        ck_assert(tool_allowed(&r, "sessions_spawn"));
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text("{agents:{defaults:{subagents:{maxSpawnDepth:1}}}}", "main", NULL,
                                      true, &r, NULL),
                         0);
        ck_assert_str_eq(r.subagent_role, "leaf");
        ck_assert(!tool_allowed(&r, "sessions_spawn"));
        ck_assert_str_eq(verdict(&r, "sessions_spawn")->layer, "subagent tools.allow");
        sbx_resolved_done(&r);
}
END_TEST

/* ---- slugs, scope keys, names ---- */

START_TEST(test_slug_rule) {
        char *s = sbx_slugify_session_key("agent:main");
        ck_assert_str_eq(s, "agent-main-f331f052");
        free(s);
        s = sbx_slugify_session_key("agent:main:main");
        ck_assert_str_eq(s, "agent-main-main-6d9217fe");
        free(s);
        s = sbx_slugify_session_key("   ");
        ck_assert(!strncmp(s, "session-", 8));
        free(s);
        /* workspace-qualified keys slug to workspace-<32 hex of the key> */
        s = sbx_slugify_session_key("agent:x:workspace:0123456789abcdef0123456789abcdef");
        ck_assert(!strncmp(s, "workspace-", 10));
        ck_assert_uint_eq(strlen(s), 42);
        free(s);
}
END_TEST

START_TEST(test_scope_key_and_container_name) {
        char hex[65];
        char *k = sbx_scope_key(SBX_SCOPE_SHARED, "agent:a:main", "/w", "a");
        ck_assert_str_eq(k, "shared");
        free(k);
        sbx_sha256_hex("/w", strlen("/w"), hex);
        k = sbx_scope_key(SBX_SCOPE_AGENT, "agent:a:main", "/w", "A");
        char want[128];
        snprintf(want, sizeof(want), "agent:a:workspace:%.32s", hex);
        ck_assert_str_eq(k, want);
        free(k);
        k = sbx_scope_key(SBX_SCOPE_SESSION, " agent:a:X ", "/w", "a");
        snprintf(want, sizeof(want), "agent:a:X:workspace:%.32s", hex);
        ck_assert_str_eq(k, want); /* session scope keeps the key's case */
        free(k);
        char *n = sbx_container_name("openclaw-sbx-", "shared");
        ck_assert_str_eq(n, "openclaw-sbx-shared");
        free(n);
        n = sbx_container_name("a-very-long-container-prefix-that-eats-the-budget-",
                               "workspace-0123456789abcdef0123456789abcdef");
        ck_assert_uint_eq(strlen(n), 63);
        ck_assert(strstr(n, "-workspace-0123456789abcdef0123456789abcdef-") != NULL); /* identity kept */
        free(n);
}
END_TEST

/* JavaScript string lengths and cuts (UTF-16 units; zod counts code points) */
START_TEST(test_js_string_units) {
        ck_assert_uint_eq(sbx_js_length("a\xc3\xbc\xf0\x9f\x99\x82"), 4);   /* a, u-umlaut, emoji (2 units) */
        ck_assert_uint_eq(sbx_code_points("a\xc3\xbc\xf0\x9f\x99\x82"), 3);
        char *s = sbx_js_slice("a\xf0\x9f\x99\x82" "b", 2);                      /* half the emoji */
        ck_assert_str_eq(s, "a\xed\xa0\xbd");                                    /* its high surrogate, U+D83D */
        char *j = sbx_json_text_js(s);
        ck_assert_str_eq(j, "a\\ud83d");
        free(j);
        free(s);
        s = sbx_js_slice("a\xf0\x9f\x99\x82" "b", 3);
        ck_assert_str_eq(s, "a\xf0\x9f\x99\x82");
        free(s);
        /* a prefix of 30 two-byte characters: cut by characters, never inside one */
        char prefix[64] = "";
        for (int i = 0; i < 30; i++)
                strcat(prefix, "\xc3\xbc");
        char *n = sbx_container_name(prefix, "workspace-0123456789abcdef0123456789abcdef");
        ck_assert_uint_eq(sbx_js_length(n), 63);
        ck_assert(!strncmp(n, "\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc-workspace-", 25));
        free(n);
}
END_TEST

START_TEST(test_sha256_known_vector) {
        char hex[65];
        sbx_sha256_hex("abc", strlen("abc"), hex);
        ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

/* ---- merge rules ---- */

START_TEST(test_docker_env_ulimit_bind_merge) {
        const char *cfg = "{agents:{defaults:{sandbox:{mode:'all',docker:{env:{A:'1'},ulimits:{nofile:{soft:"
                          "1,hard:2}},"
                          "binds:['/d:/d']}}},entries:{main:{sandbox:{docker:{env:{B:'2'},ulimits:{nproc:5},"
                          "binds:['/a:/a:ro'],image:'x'}}}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, "main", NULL, false, &r, NULL), 0);
        ck_assert_uint_eq(r.docker.env.n, 2); /* defaults env replaces LANG; agent keys merged */
        ck_assert_str_eq(r.docker.env.v[0].key, "A");
        ck_assert_str_eq(r.docker.env.v[1].key, "B");
        ck_assert_uint_eq(r.docker.ulimits.n, 2);
        ck_assert_uint_eq(r.docker.binds.n, 2);
        ck_assert_str_eq(r.docker.binds.v[0], "/d:/d"); /* defaults first */
        ck_assert_str_eq(r.docker.image, "x");
        ck_assert_uint_eq(r.n_mounts, 3);
        ck_assert(!r.mounts[2].writable);
        sbx_resolved_done(&r);
}
END_TEST

/* "/:/x" has no drive letter (only a letter before ':' is one); " RO " among the options is
 * read-only, for the explanation and for the run config alike */
START_TEST(test_bind_root_source_and_trimmed_ro) {
        const char *cfg = "{agents:{defaults:{sandbox:{mode:'all',docker:{binds:['/:/host:z, RO ','C:/w:/w',"
                          "'/e:/e:rw,roo']}}}}}";
        sbx_resolved r = {};
        bool ro;
        ck_assert_int_eq(resolve_text(cfg, "main", NULL, false, &r, NULL), 0);
        ck_assert_uint_eq(r.n_mounts, 4); /* workspace, /host, /w (source "C:/w"), /e */
        ck_assert_str_eq(r.mounts[1].host_root, "/");
        ck_assert_str_eq(r.mounts[1].container_root, "/host");
        ck_assert(!r.mounts[1].writable);
        ck_assert_str_eq(r.mounts[2].container_root, "/w");
        ck_assert_str_eq(r.mounts[3].container_root, "/e");
        ck_assert(r.mounts[3].writable);
        sbx_resolved_done(&r);
        ck_assert_int_eq(sbx_bind_options_read_only("z, Ro\t", &ro), 0);
        ck_assert(ro);
        ck_assert_int_eq(sbx_bind_options_read_only("rw,roo,r o", &ro), 0);
        ck_assert(!ro);
}
END_TEST

START_TEST(test_shared_scope_ignores_agent_docker_and_prune) {
        const char *cfg = "{agents:{defaults:{sandbox:{mode:'all',scope:'shared',docker:{image:'g'}}},"
                          "entries:{main:{sandbox:{docker:{image:'a',env:{X:'1'}},prune:{idleHours:1}}}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, "main", NULL, false, &r, NULL), 0);
        ck_assert_str_eq(r.docker.image, "g");
        ck_assert_uint_eq(r.docker.env.n, 1);
        ck_assert_str_eq(r.docker.env.v[0].key, "LANG");
        ck_assert(r.prune_idle_hours == 24);
        ck_assert_str_eq(r.scope_key, "shared");
        ck_assert_str_eq(r.container_name, "openclaw-sbx-shared");
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_defaults_and_setup_command_join) {
        sbx_resolved r = {};
        ck_assert_int_eq(
                resolve_text("{agents:{defaults:{sandbox:{docker:{setupCommand:['a','b'],gpus:'  '}}}}}",
                             NULL, NULL, false, &r, NULL),
                0);
        ck_assert_int_eq(r.mode, SBX_MODE_OFF);
        ck_assert_int_eq(r.scope, SBX_SCOPE_AGENT);
        ck_assert_str_eq(r.docker.setup_command, "a\nb");
        ck_assert_ptr_null(r.docker.gpus); /* blank gpus is unset */
        ck_assert_str_eq(r.workspace_root, "/tmp/sbx-unit-home/.openclaw/sandboxes");
        ck_assert_str_eq(r.agent_workspace_dir, "/tmp/sbx-unit-home/.openclaw/workspace");
        ck_assert(!r.sandboxed);
        ck_assert_ptr_null(r.container_name);
        sbx_resolved_done(&r);
}
END_TEST

/* ---- pipeline ---- */

START_TEST(test_pipeline_deny_wins_and_no_grant_back) {
        const char *cfg = "{tools:{allow:['read','exec'],deny:['exec']},agents:{entries:{main:{tools:{allow:"
                          "['*']}}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, NULL, NULL, false, &r, NULL), 0);
        ck_assert(tool_allowed(&r, "read"));
        ck_assert(!tool_allowed(&r, "exec"));
        ck_assert_str_eq(verdict(&r, "exec")->layer, "tools.allow");
        ck_assert_str_eq(verdict(&r, "exec")->key, "tools.deny");
        ck_assert(!tool_allowed(&r, "browser")); /* the agent's '*' gives nothing back */
        ck_assert_str_eq(verdict(&r, "browser")->key, "tools.allow");
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_write_allows_apply_patch_but_deny_write_does_not_deny_it) {
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text("{tools:{allow:['write']}}", NULL, NULL, false, &r, NULL), 0);
        ck_assert(tool_allowed(&r, "apply_patch"));
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text("{tools:{deny:['write']}}", NULL, NULL, false, &r, NULL), 0);
        ck_assert(tool_allowed(&r, "apply_patch"));
        ck_assert(!tool_allowed(&r, "write"));
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_sandbox_defaults_and_explicit_allow_lifts_default_deny) {
        sbx_resolved r = {};
        ck_assert_int_eq(
                resolve_text("{agents:{defaults:{sandbox:{mode:'all'}}}}", NULL, NULL, false, &r, NULL), 0);
        size_t n = 0;
        for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++)
                n += r.tools[i].allowed;
        ck_assert_uint_eq(n, 16);
        ck_assert(!tool_allowed(&r, "browser"));
        ck_assert_str_eq(r.sandbox_deny_source, "default");
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text("{agents:{defaults:{sandbox:{mode:'all'}}},tools:{sandbox:{tools:{"
                                      "alsoAllow:['browser']}}}}",
                                      NULL, NULL, false, &r, NULL),
                         0);
        ck_assert(tool_allowed(&r, "browser"));
        ck_assert_str_eq(r.sandbox_allow_source, "global");
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_profiles) {
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text("{tools:{profile:'minimal'}}", NULL, NULL, false, &r, NULL), 0);
        ck_assert(tool_allowed(&r, "session_status"));
        ck_assert(tool_allowed(&r, "gateway"));
        ck_assert(!tool_allowed(&r, "read"));
        ck_assert_str_eq(verdict(&r, "read")->layer, "tools.profile (minimal)");
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text("{tools:{profile:'messaging',alsoAllow:['read']}}", NULL, NULL, false,
                                      &r, NULL),
                         0);
        ck_assert(tool_allowed(&r, "read"));
        ck_assert(tool_allowed(&r, "message"));
        ck_assert(!tool_allowed(&r, "exec"));
        sbx_resolved_done(&r);
}
END_TEST

START_TEST(test_channel_group_policy) {
        const char *cfg = "{channels:{telegram:{groups:{'-100':{tools:{deny:['exec']}},'*':{tools:{deny:['"
                          "read']}}}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, NULL, "agent:main:telegram:group:-100", false, &r, NULL), 0);
        ck_assert(!tool_allowed(&r, "exec"));
        ck_assert(tool_allowed(&r, "read"));
        sbx_resolved_done(&r);
        ck_assert_int_eq(resolve_text(cfg, NULL, "agent:main:telegram:group:-200", false, &r, NULL), 0);
        ck_assert(tool_allowed(&r, "exec"));
        ck_assert(!tool_allowed(&r, "read")); /* the "*" group */
        sbx_resolved_done(&r);
}
END_TEST

/* ---- validation ---- */

static void expect_issue(const char *cfg, const char *prefix) {
        char *i = first_issue(cfg);
        ck_assert_msg(i != NULL, "config accepted: %s", cfg);
        ck_assert_msg(!strncmp(i, prefix, strlen(prefix)), "issue '%s' does not start with '%s'", i, prefix);
        free(i);
}

START_TEST(test_validation_errors_name_the_path) {
        expect_issue("{agents:{defaults:{sandbox:{scope:'sesion'}}}}",
                     "agents.defaults.sandbox.scope: Invalid input");
        expect_issue("{agents:{entries:{main:{sandbox:{docker:{network:'HOST'}}}}}}",
                     "agents.entries.main.sandbox.docker.network: Sandbox security: network mode \"host\"");
        expect_issue("{agents:{defaults:{sandbox:{docker:{network:'container:x'}}}}}",
                     "agents.defaults.sandbox.docker.network:");
        expect_issue("{agents:{defaults:{sandbox:{docker:{seccompProfile:'Unconfined'}}}}}",
                     "agents.defaults.sandbox.docker.seccompProfile:");
        expect_issue("{agents:{defaults:{sandbox:{docker:{binds:['data:/data']}}}}}",
                     "agents.defaults.sandbox.docker.binds[0]: Sandbox security: bind mount \"data:/data\" "
                     "uses a "
                     "non-absolute");
        expect_issue("{agents:{defaults:{sandbox:{prune:{idleHours:1.5}}}}}",
                     "agents.defaults.sandbox.prune.idleHours: Invalid input: expected int");
        expect_issue("{agents:{defaults:{sandbox:{prune:{maxAgeDays:-1}}}}}",
                     "agents.defaults.sandbox.prune.maxAgeDays: Too small");
        expect_issue("{agents:{defaults:{sandbox:{docker:{pidsLimit:0}}}}}",
                     "agents.defaults.sandbox.docker.pidsLimit:");
        expect_issue("{tools:{sandbox:{tools:{allow:['a'],alsoAllow:['b']}}}}",
                     "tools.sandbox.tools: tools policy cannot set both allow and alsoAllow");
        expect_issue("{tools:{profile:'superuser'}}", "tools.profile: Invalid input (allowed:");
        expect_issue(
                "{agents:{defaults:{sandbox:{docker:{env:{'1ABC':'x'}}}}}}",
                "agents.defaults.sandbox.docker.env[\"1ABC\"]: Docker sandbox backend requires portable");
        expect_issue("{agents:{entries:{main:{sandbox:{docker:{env:{M:'a\\nb'}}}}}}}",
                     "agents.entries.main.sandbox.docker.env.M:");
        expect_issue("{agents:{defaults:{sandbox:{isolation:'strict'}}}}",
                     "agents.defaults.sandbox: Unrecognized key: \"isolation\"");
        expect_issue("{agents:{entries:{a:{default:true},b:{default:true}}}}",
                     "agents.entries: agents.entries must contain at most one default=true entry (found 2)");
        expect_issue("{agents:{entries:{a:{},b:{}}}}", "agents.ownership: multi-agent rosters require");
        expect_issue("{channels:{teams:{}}}", "channels.teams: unknown channel id: teams");
        expect_issue("{channels:{discord:{groups:{}}}}",
                     "channels.discord: invalid config: must not have additional properties: \"groups\"");
        expect_issue("{channels:{line:{groups:{g:{tools:{}}}}}}", "channels.line.groups.g: invalid config");
        expect_issue("{agents:{defaults:{subagents:{maxSpawnDepth:6}}}}",
                     "agents.defaults.subagents.maxSpawnDepth: Too big");
        expect_issue("{tools:{exec:{host:'nowhere'}}}", "tools.exec.host: Invalid input");
}
END_TEST

START_TEST(test_legacy_shapes_rejected_with_path) {
        expect_issue("{agent:{sandbox:{mode:'all'}}}", "<root>: Unrecognized key: \"agent\"");
        expect_issue("{routing:{agents:{w:{}}}}", "<root>: Unrecognized key: \"routing\"");
        expect_issue("{agents:{defaults:{sandbox:{perSession:true}}}}",
                     "agents.defaults.sandbox: Unrecognized key: \"perSession\"");
        expect_issue("{agents:{entries:{main:{}},list:[{id:'x'}]}}", "agents: Unrecognized key: \"list\"");
        char *ok = first_issue("{session:{store:'x'},models:{}}");
        ck_assert_ptr_null(ok); /* unused sections are accepted */
}
END_TEST

/* ---- migration ---- */

START_TEST(test_list_migrates_to_entries_with_notes) {
        sbx_config_diag d = {};
        sbx_resolved r = {};
        ck_assert_int_eq(
                resolve_text("{agents:{list:[{id:'main',default:true},{id:'work',sandbox:{mode:'all'}}]}}",
                             "work", NULL, false, &r, &d),
                0);
        ck_assert(sbx_strv_contains(&d.notes, "Moved agents.list to keyed agents.entries."));
        ck_assert(sbx_strv_contains(&d.notes, "Removed retired agents.entries.*.default markers."));
        ck_assert_uint_eq(r.known_agents.n, 2);
        ck_assert(r.sandboxed);
        ck_assert_str_eq(r.agent_workspace_dir, "/tmp/sbx-unit-home/.openclaw/workspace-work");
        sbx_resolved_done(&r);
        sbx_config_diag_done(&d);
}
END_TEST

START_TEST(test_migrate_rewrites_legacy_shapes) {
        const char *in = "{agent:{sandbox:{mode:'all',perSession:true}},routing:{agents:{Work:{tools:{allow:"
                         "['read']}}}}}";
        char *out = NULL;
        sbx_strv changes = {};
        sbx_error e = {};
        ck_assert_int_gt(sbx_config_migrate_text(in, strlen(in), &out, &changes, &e), 0);
        sbx_config c = {};
        sbx_config_diag d = {};
        set_env();
        ck_assert_msg(sbx_config_load_text(out, strlen(out), &c, &d, &e) == 0,
                      "migrated config invalid: %s\n%s", e.msg, out);
        ck_assert_int_eq(c.defaults_sandbox.scope, SBX_SCOPE_SESSION);
        ck_assert_uint_eq(c.n_agents, 1);
        ck_assert_str_eq(c.agents[0].id, "work");
        sbx_config_done(&c);
        sbx_config_diag_done(&d);
        sbx_strv_free(&changes);
        free(out);
}
END_TEST

/* ---- JSON5 ---- */

START_TEST(test_json5_syntax) {
        struct json_object *o = NULL;
        sbx_error e = {};
        const char *ok = "// c\n{a:1,'b':'x\\\ny',c:0x1F,d:+6,e:.25,f:[1,2,],g:Infinity,/* x */h:null,}";
        ck_assert_int_eq(sbx_json5_parse(ok, strlen(ok), &o, &e), 0);
        ck_assert_int_eq(json_object_get_int(json_object_object_get(o, "c")), 31);
        ck_assert_str_eq(json_object_get_string(json_object_object_get(o, "b")), "xy");
        json_object_put(o);
        ck_assert_int_lt(sbx_json5_parse("", 0, &o, &e), 0);
        ck_assert_int_lt(sbx_json5_parse("{} {}", 5, &o, &e), 0);
        ck_assert_int_lt(sbx_json5_parse("{a:1", 4, &o, &e), 0);
        ck_assert_msg(strstr(e.msg, "line 1") != NULL, "no line/col in '%s'", e.msg);
}
END_TEST

START_TEST(test_config_discovery_order) {
        char dir[] = "/tmp/sbx-unit-find-XXXXXX";
        char path[256], *found = NULL;
        sbx_error e = {};

        ck_assert_ptr_nonnull(mkdtemp(dir));
        set_env();
        setenv("HOME", dir, 1);
        ck_assert_int_eq(sbx_config_find(NULL, &found, &e), 0);
        ck_assert_ptr_null(found); /* no file: OpenClaw's defaults */
        snprintf(path, sizeof(path), "%s/.openclaw", dir);
        ck_assert_int_eq(mkdir(path, 0700), 0);
        snprintf(path, sizeof(path), "%s/.openclaw/openclaw.json", dir);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs("{}", f);
        fclose(f);
        ck_assert_int_eq(sbx_config_find(NULL, &found, &e), 0);
        ck_assert_str_eq(found, path);
        free(found);
        setenv("OPENCLAW_CONFIG_PATH", "/nonexistent/x.json", 1);
        ck_assert_int_eq(sbx_config_find(NULL, &found, &e), 0);
        ck_assert_str_eq(found, "/nonexistent/x.json");
        free(found);
        ck_assert_int_eq(sbx_config_find("/explicit.json", &found, &e), 0);
        ck_assert_str_eq(found, "/explicit.json");
        free(found);
        unlink(path);
        snprintf(path, sizeof(path), "%s/.openclaw", dir);
        rmdir(path);
        rmdir(dir);
}
END_TEST

/* ${VAR} as parseEnvTokenAt reads it: "$${NAME}" is an escape and "${NAME}" a substitution only
 * when the text up to the next '}' is an env name; "$${name}" stays as written */
START_TEST(test_env_tokens_need_an_env_name) {
        const char *cfg = "{env:{vars:{ZA:'a'}},agents:{defaults:{sandbox:{mode:'all',"
                          "docker:{image:'$${za}|$${ZA}|${ZA}|$${a${ZA}|${ZMISSING}'}}}}}";
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text(cfg, NULL, NULL, false, &r, NULL), 0);
        ck_assert_str_eq(r.docker.image, "$${za}|${ZA}|a|$${aa|${ZMISSING}");
        sbx_resolved_done(&r);
}
END_TEST

/* an agents.list id "__proto__" counts for the migration's marker, then is no agent; as the kept
 * default owner it fails the references OpenClaw materializes for it */
START_TEST(test_proto_list_id_is_no_agent) {
        sbx_resolved r = {};
        ck_assert_int_eq(resolve_text("{agents:{ownership:'explicit',list:[{id:'main'},{id:'__proto__',"
                                      "subagents:{maxSpawnDepth:1}}]}}",
                                      "main", NULL, false, &r, NULL),
                         0);
        ck_assert_uint_eq(r.known_agents.n, 1);
        sbx_resolved_done(&r);
        char *i = first_issue("{agents:{list:[{id:'main'},{id:'__proto__',default:true}]}}");
        ck_assert_ptr_nonnull(i);
        ck_assert_msg(strstr(i, "Unknown agent id \"__proto__\""), "issue '%s'", i);
        free(i);
        ck_assert_ptr_null(first_issue("{agents:{list:[{id:'main',default:true},{id:'__proto__'}]}}"));
}
END_TEST

/* egress-proxy hosts through domain-to-ASCII's tables (idna-map.h): refused code points, mappings
 * to other non-ASCII text counted in the punycode, mappings to ASCII the label regex refuses, the
 * Bidi rule's classes */
START_TEST(test_egress_hosts_idna_tables) {
        static const struct {
                const char *host;
                bool ok;
        } cases[] = {
                {"b\u00fccher.de", true},        {"\u0378.example", false},     /* unassigned */
                {"\u3300.example", true},        {"a\u3235.example", false},    /* (特): '(' */
                {"\U00010d51\u0e01.com", true}, {"\ufef6-.com", false},        /* Garay is L; RTL ends in '-' */
                {"\u05d0\u05d1.example", true}, {"\u05d0a.example", false},   /* L in a RTL label */
        };
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
                char cfg[512];
                snprintf(cfg, sizeof(cfg), "{\"secrets\":{\"egressProxy\":{\"enabled\":true,\"allowedHosts\":[\"%s\"]}}}",
                         cases[k].host);
                char *i = first_issue(cfg);
                ck_assert_msg(cases[k].ok ? i == NULL : i != NULL, "%s: %s", cases[k].host, i ? i : "accepted");
                free(i);
        }
        /* a mapping to other text is measured as mapped: 20 x U+3300 (4 kana each) is over 63 */
        char cfg[512] = "{\"secrets\":{\"egressProxy\":{\"enabled\":true,\"allowedHosts\":[\"";
        for (int k = 0; k < 20; k++)
                strcat(cfg, "\\u3300");
        strcat(cfg, ".example\"]}}}");
        char *i = first_issue(cfg);
        ck_assert_ptr_nonnull(i);
        free(i);
}
END_TEST

/* UTS 46 puts a label in NFC after its mapping (policy/unicode-nfc.c): 39 x "e" U+0301 is 39 x
 * U+00E9 (its punycode fits 63; as written it would not), Hangul jamo are a syllable, U+09C7
 * U+09BE is the vowel sign U+09CB (a mark first); the marks refused first are domainToASCII's
 * (U+0C3C is no mark to it). Answers from the real OpenClaw. */
START_TEST(test_egress_hosts_nfc) {
        static const struct {
                const char *unit;
                int rep;
                bool ok;
        } cases[] = {
                {"e\u0301", 39, true},  {"\u1100\u1161", 39, true}, {"\u09c7\u09be", 1, false},
                {"a\u09c7\u09be", 1, true}, {"\u0301a", 1, false},   {"\u0c3ca", 1, true},
                {"\u0b3ca", 1, false},
        };
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
                char cfg[2048] = "{\"secrets\":{\"egressProxy\":{\"enabled\":true,\"allowedHosts\":[\"";
                for (int r = 0; r < cases[k].rep; r++)
                        strcat(cfg, cases[k].unit);
                strcat(cfg, ".example\"]}}}");
                char *i = first_issue(cfg);
                ck_assert_msg(cases[k].ok ? i == NULL : i != NULL, "%s x %d: %s", cases[k].unit, cases[k].rep, i ? i : "accepted");
                free(i);
        }
}
END_TEST

/* "agents": {"entries": null} is a roster OpenClaw keeps and its schema refuses (z.record), not
 * "no roster" (which becomes entries {main: {}}, accepted) */
START_TEST(test_entries_null_is_refused) {
        char *i = first_issue("{\"agents\":{\"entries\":null}}");
        ck_assert_ptr_nonnull(i);
        ck_assert_msg(strstr(i, "agents.entries") && strstr(i, "expected record, received null"), "%s", i);
        free(i);
        i = first_issue("{\"agents\":{}}");
        ck_assert_msg(i == NULL, "%s", i);
}
END_TEST

/* sbx_strv_uniq keeps each first occurrence in order (what push-if-absent gave); a layer's
 * patterns made once (sbx_policy_layer_expand) decide every tool as made per check */
START_TEST(test_uniq_and_layer_expand) {
        sbx_strv l = {};
        const char *in[] = {"b", "a", "b", "c", "a", "b"};
        for (size_t i = 0; i < 6; i++)
                ck_assert_int_eq(sbx_strv_push(&l, in[i]), 0);
        ck_assert_int_eq(sbx_strv_uniq(&l), 0);
        ck_assert_int_eq(l.n, 3);
        ck_assert_str_eq(l.v[0], "b");
        ck_assert_str_eq(l.v[1], "a");
        ck_assert_str_eq(l.v[2], "c");
        ck_assert_ptr_null(l.v[3]);
        sbx_strv_free(&l);
        /* from 3 on: the base's own repeats stay, later ones already present go */
        const char *in2[] = {"x", "x", "y", "x", "z", "y", "z", "w"};
        for (size_t i = 0; i < 8; i++)
                ck_assert_int_eq(sbx_strv_push(&l, in2[i]), 0);
        ck_assert_int_eq(sbx_strv_uniq_from(&l, 3), 0);
        ck_assert_int_eq(l.n, 5);
        ck_assert_str_eq(l.v[0], "x");
        ck_assert_str_eq(l.v[1], "x");
        ck_assert_str_eq(l.v[2], "y");
        ck_assert_str_eq(l.v[3], "z");
        ck_assert_str_eq(l.v[4], "w");
        ck_assert_ptr_null(l.v[5]);
        sbx_strv_free(&l);

        const char *allow[] = {"Exec", "group:fs", "exec", "update_plan", "canvas", "web_*", "group:fs"};
        const char *deny[] = {"Read", "WEB_*", "read"};
        for (int with_allow = 0; with_allow < 2; with_allow++) {
                sbx_policy_layer a = {.has_allow = with_allow}, b = {.has_allow = with_allow};
                for (size_t i = 0; i < ELEMENTSOF(allow); i++) {
                        ck_assert_int_eq(sbx_strv_push(&a.allow, allow[i]), 0);
                        ck_assert_int_eq(sbx_strv_push(&b.allow, allow[i]), 0);
                }
                for (size_t i = 0; i < ELEMENTSOF(deny); i++) {
                        ck_assert_int_eq(sbx_strv_push(&a.deny, deny[i]), 0);
                        ck_assert_int_eq(sbx_strv_push(&b.deny, deny[i]), 0);
                }
                ck_assert_int_eq(sbx_policy_layer_expand(&b), 0);
                ck_assert(b.expanded && !a.expanded);
                unsigned blocked = 0;
                for (size_t i = 0; i < SBX_N_CORE_TOOLS; i++) {
                        sbx_block_reason ra = sbx_policy_layer_check(&a, sbx_core_tools[i], NULL);
                        ck_assert_int_eq(ra, sbx_policy_layer_check(&b, sbx_core_tools[i], NULL));
                        blocked += ra != SBX_BLOCK_NONE;
                }
                /* a check that sees both outcomes: exec allowed, read denied */
                ck_assert_int_eq(sbx_policy_layer_check(&b, "exec", NULL), SBX_BLOCK_NONE);
                ck_assert_int_eq(sbx_policy_layer_check(&b, "read", NULL), SBX_BLOCK_DENY);
                ck_assert(blocked > 0 && blocked < SBX_N_CORE_TOOLS);
                sbx_policy_layer_done(&a);
                sbx_policy_layer_done(&b);
        }
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_uniq_and_layer_expand, test_agent_id_normalisation, test_tool_name_normalisation_and_aliases,
                                 test_tool_groups_and_glob, test_session_key_agent_and_subagent_depth,
                                 test_non_main_is_exact_and_case_sensitive, test_subagent_rewrite_and_role,
                                 test_slug_rule, test_scope_key_and_container_name, test_js_string_units,
                                 test_sha256_known_vector,
                                 test_docker_env_ulimit_bind_merge,
                                 test_bind_root_source_and_trimmed_ro,
                                 test_shared_scope_ignores_agent_docker_and_prune,
                                 test_defaults_and_setup_command_join,
                                 test_pipeline_deny_wins_and_no_grant_back,
                                 test_write_allows_apply_patch_but_deny_write_does_not_deny_it,
                                 test_sandbox_defaults_and_explicit_allow_lifts_default_deny, test_profiles,
                                 test_channel_group_policy, test_validation_errors_name_the_path,
                                 test_legacy_shapes_rejected_with_path,
                                 test_list_migrates_to_entries_with_notes,
                                 test_migrate_rewrites_legacy_shapes, test_json5_syntax,
                                 test_config_discovery_order, test_env_tokens_need_an_env_name,
                                 test_proto_list_id_is_no_agent, test_egress_hosts_idna_tables,
                                 test_egress_hosts_nfc, test_entries_null_is_refused };

        return unit_main("policy", "rules", 0, CK_NORMAL, tests, UNIT_N(tests));
}

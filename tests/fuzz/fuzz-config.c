/* SPDX-License-Identifier: MIT */
/* libFuzzer target: arbitrary bytes through the whole policy engine, i.e. the
 * openclaw.json loader (JSON5, migrations, validation, copy), the resolver for a
 * few agent/session requests, the JSON rendering, and 'sbx migrate'. Any crash,
 * leak or sanitizer report is a bug; rejections are fine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
        setenv("HOME", "/tmp/sbx-fuzz-home", 1);
        unsetenv("OPENCLAW_STATE_DIR");
        unsetenv("OPENCLAW_HOME");
        unsetenv("OPENCLAW_PROFILE");
        unsetenv("OPENCLAW_WORKSPACE_DIR");
        return 0;
}

static void resolve_one(const sbx_config *c, const sbx_config_diag *d, const char *agent,
                        const char *session, bool sub) {
        sbx_request req = {.agent = agent, .session = session, .subagent = sub};
        sbx_resolved r = {};
        sbx_error e = {};

        if (sbx_resolve(c, &req, &r, NULL, &e) == 0) {
                struct json_object *o = sbx_resolved_to_json(&r, d);
                json_object_put(o);
        }
        sbx_resolved_done(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = malloc(size + 1);
        sbx_config c = {};
        sbx_config_diag d = {};
        sbx_error e = {};

        if (!text)
                return 0;
        memcpy(text, data, size);
        text[size] = '\0';
        if (sbx_config_load_text(text, size, &c, &d, &e) == 0) {
                resolve_one(&c, &d, NULL, NULL, false);
                resolve_one(&c, &d, NULL, "agent:main:telegram:group:-1:topic:2:sender:3", false);
                resolve_one(&c, &d, c.n_agents ? c.agents[0].id : "main", "x", true);
                resolve_one(&c, &d, NULL, "global", false);
        }
        sbx_config_done(&c);
        sbx_config_diag_done(&d);

        char *out = NULL;
        sbx_strv changes = {};
        if (sbx_config_migrate_text(text, size, &out, &changes, &e) >= 0)
                free(out);
        sbx_strv_free(&changes);
        free(text);
        return 0;
}

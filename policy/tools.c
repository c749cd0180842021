/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "policy.h"

enum {
        P_MINIMAL = 1 << 0,
        P_CODING = 1 << 1,
        P_MESSAGING = 1 << 2,
};

/* src/agents/tool-catalog.ts of 2026.9.6: id, section, profiles, in group:openclaw
 * (arrays, not pointers: no relocation at start-up) */
static const struct tool_def {
        char id[32], section[16];
        unsigned profiles;
        bool openclaw;
} CATALOG[] = {
        {"ls", "fs", P_CODING, false},
        {"read", "fs", P_CODING, false},
        {"write", "fs", P_CODING, false},
        {"edit", "fs", P_CODING, false},
        {"apply_patch", "fs", P_CODING, false},
        {"exec", "runtime", P_CODING, false},
        {"process", "runtime", P_CODING, false},
        {"code_execution", "runtime", P_CODING, true},
        {"secrets", "runtime", P_CODING | P_MESSAGING, true},
        {"web_search", "web", P_CODING, true},
        {"web_fetch", "web", P_CODING, true},
        {"x_search", "web", P_CODING, true},
        {"memory_search", "memory", P_CODING, true},
        {"memory_get", "memory", P_CODING, true},
        {"sessions", "sessions", P_CODING | P_MESSAGING, true},
        {"sessions_list", "sessions", P_CODING | P_MESSAGING, true},
        {"sessions_history", "sessions", P_CODING | P_MESSAGING, true},
        {"sessions_search", "sessions", P_CODING | P_MESSAGING, true},
        {"conversations_list", "sessions", P_CODING | P_MESSAGING, true},
        {"conversations_send", "sessions", P_CODING | P_MESSAGING, true},
        {"conversations_turn", "sessions", P_CODING | P_MESSAGING, true},
        {"sessions_send", "sessions", P_CODING | P_MESSAGING, true},
        {"sessions_spawn", "sessions", P_CODING | P_MESSAGING, true},
        {"github_identity_status", "sessions", P_CODING, true},
        {"github_publish", "sessions", P_CODING, true},
        {"agents_wait", "sessions", P_CODING, true},
        {"sessions_yield", "sessions", P_CODING | P_MESSAGING, true},
        {"subagents", "sessions", P_CODING | P_MESSAGING, true},
        {"session_status", "sessions", P_MINIMAL | P_CODING | P_MESSAGING, true},
        {"suggest_task", "sessions", P_CODING, true},
        {"dismiss_task", "sessions", P_CODING, true},
        {"browser", "ui", 0, true},
        {"screen", "ui", P_CODING, true},
        {"theme", "ui", P_CODING | P_MESSAGING, true},
        {"dashboard", "ui", P_CODING, true},
        {"terminal", "ui", P_CODING, true},
        {"portal", "ui", P_CODING, true},
        {"canvas", "ui", 0, false},
        {"show_widget", "ui", 0, true},
        {"message", "messaging", P_MESSAGING, true},
        {"heartbeat_respond", "automation", 0, true},
        {"automations", "automation", P_CODING, true},
        {"gateway", "automation", P_MINIMAL | P_CODING | P_MESSAGING, true},
        {"plugins", "automation", P_CODING, true},
        {"openclaw", "automation", 0, true},
        {"nodes", "nodes", 0, true},
        {"computer", "nodes", 0, true},
        {"mobile_ui", "nodes", 0, true},
        {"agents_list", "agents", 0, true},
        {"get_goal", "agents", P_CODING, true},
        {"create_goal", "agents", P_CODING, true},
        {"update_goal", "agents", P_CODING, true},
        {"progress_card", "agents", P_CODING, true},
        {"ask_user", "agents", P_CODING | P_MESSAGING, true},
        {"skill_workshop", "agents", P_CODING, true},
        {"view_image", "media", P_CODING, true},
        {"image_generate", "media", P_CODING, true},
        {"music_generate", "media", P_CODING, true},
        {"video_generate", "media", P_CODING, true},
        {"tts", "media", 0, true},
        {"pdf", "media", 0, true},
};

const char *const sbx_core_tools[SBX_N_CORE_TOOLS + 1] = {
        "code_execution",
        "secrets",
        "web_search",
        "web_fetch",
        "x_search",
        "memory_search",
        "memory_get",
        "sessions",
        "sessions_list",
        "sessions_history",
        "sessions_search",
        "conversations_list",
        "conversations_send",
        "conversations_turn",
        "sessions_send",
        "sessions_spawn",
        "github_identity_status",
        "github_publish",
        "agents_wait",
        "sessions_yield",
        "subagents",
        "session_status",
        "suggest_task",
        "dismiss_task",
        "browser",
        "screen",
        "theme",
        "dashboard",
        "terminal",
        "portal",
        "show_widget",
        "message",
        "heartbeat_respond",
        "automations",
        "gateway",
        "plugins",
        "openclaw",
        "nodes",
        "computer",
        "mobile_ui",
        "agents_list",
        "get_goal",
        "create_goal",
        "update_goal",
        "progress_card",
        "ask_user",
        "skill_workshop",
        "view_image",
        "image_generate",
        "music_generate",
        "video_generate",
        "tts",
        "pdf",
        "ls",
        "read",
        "write",
        "edit",
        "apply_patch",
        "exec",
        "process",
        "canvas",
        NULL,
};

/* bundled chat channels (configurable ones, OpenClaw's order) */
const char *const sbx_channel_tools[SBX_N_CHANNEL_TOOLS + 1] = {
        "feishu", "googlechat",    "nostr",    "buzz",    "msteams",  "mattermost", "nextcloud-talk",
        "matrix", "raft",          "a2a",      "line",    "zalo",     "clickclack", "zalouser",
        "sms",    "synology-chat", "tlon",     "discord", "imessage", "irc",        "reef",
        "signal", "slack",         "telegram", "twitch",  "whatsapp", NULL,
};

#define N_SECTIONS 11
static const char SECTIONS[N_SECTIONS][16] = {
        "fs",        "runtime",    "web",   "memory", "sessions", "ui",
        "messaging", "automation", "nodes", "agents", "media",
};

/* group member tables, built once from CATALOG */
static const char *group_members[N_SECTIONS + 1][ELEMENTSOF(CATALOG) + 1];
static bool groups_built;

static void build_groups(void) {
        if (groups_built)
                return;
        size_t no = 0;
        for (size_t s = 0; s < N_SECTIONS; s++) {
                size_t n = 0;
                for (size_t i = 0; i < ELEMENTSOF(CATALOG); i++)
                        if (!strcmp(CATALOG[i].section, SECTIONS[s]))
                                group_members[s][n++] = CATALOG[i].id;
                group_members[s][n] = NULL;
        }
        for (size_t i = 0; i < ELEMENTSOF(CATALOG); i++)
                if (CATALOG[i].openclaw)
                        group_members[N_SECTIONS][no++] = CATALOG[i].id;
        group_members[N_SECTIONS][no] = NULL;
        groups_built = true;
}

const char *const *sbx_tool_group(const char *n) {
        if (strncmp(n, "group:", 6) != 0)
                return NULL;
        build_groups();
        if (!strcmp(n + 6, "openclaw"))
                return group_members[N_SECTIONS];
        for (size_t s = 0; s < N_SECTIONS; s++)
                if (!strcmp(n + 6, SECTIONS[s]))
                        return group_members[s];
        return NULL;
}

char *sbx_tool_normalize(const char *name) {
        _cleanup_free_ char *t = sbx_strdup_trim(name);
        char *s = t ? sbx_strdup_lower(t) : NULL;
        if (!s)
                return NULL;
        static const char *const aliases[][2] = {
                {"bash", "exec"},
                {"apply-patch", "apply_patch"},
                {"cron", "automations"},
        };
        for (size_t i = 0; i < ELEMENTSOF(aliases); i++)
                if (!strcmp(s, aliases[i][0])) {
                        free(s);
                        return strdup(aliases[i][1]);
                }
        return s;
}

int sbx_tool_profile(const char *profile, sbx_strv *ret) {
        unsigned bit;

        *ret = (sbx_strv){};
        if (!profile)
                return 0;
        if (!strcmp(profile, "full"))
                return sbx_strv_push(ret, "*");
        if (!strcmp(profile, "minimal"))
                bit = P_MINIMAL;
        else if (!strcmp(profile, "coding"))
                bit = P_CODING;
        else if (!strcmp(profile, "messaging"))
                bit = P_MESSAGING;
        else
                return 0;
        ret->set = true;
        for (size_t i = 0; i < ELEMENTSOF(CATALOG); i++)
                if ((CATALOG[i].profiles & bit) && sbx_strv_push(ret, CATALOG[i].id) < 0)
                        return -ENOMEM;
        if (bit != P_MINIMAL && sbx_strv_push(ret, "bundle-mcp") < 0)
                return -ENOMEM;
        return 0;
}

bool sbx_glob_match(const char *p, const char *s) {
        const char *star = NULL, *resume = NULL;

        while (*s) {
                if (*p == '*') {
                        star = p++;
                        resume = s;
                } else if (*p == *s) {
                        p++;
                        s++;
                } else if (star) {
                        p = star + 1;
                        s = ++resume;
                } else
                        return false;
        }
        while (*p == '*')
                p++;
        return *p == '\0';
}

/* Each list below is made by pushing every entry and dropping the repeats once at the end
 * (sbx_strv_uniq): the same list as pushing an entry only when not yet there, without n^2
 * compares for a long list. */
int sbx_tool_expand(const sbx_strv *in, sbx_strv *ret) {
        *ret = (sbx_strv){.set = true};
        for (size_t i = 0; in && i < in->n; i++) {
                _cleanup_free_ char *n = sbx_tool_normalize(in->v[i]);
                if (!n)
                        return -ENOMEM;
                if (!*n)
                        continue;
                const char *const *g = sbx_tool_group(n);
                if (g) {
                        for (; *g; g++)
                                if (sbx_strv_push(ret, *g) < 0)
                                        return -ENOMEM;
                } else if (sbx_strv_push(ret, n) < 0)
                        return -ENOMEM;
        }
        ret->set = true;
        return sbx_strv_uniq(ret);
}

static const char *match_any(const sbx_strv *patterns, const char *name) {
        for (size_t i = 0; i < patterns->n; i++)
                if (sbx_glob_match(patterns->v[i], name))
                        return patterns->v[i];
        return NULL;
}

/* Patterns as a pipeline step sees them: shipped renames (update_plan -> progress_card,
 * canvas -> canvas + show_widget), then group and alias expansion. */
static int step_patterns(const sbx_strv *in, sbx_strv *ret) {
        sbx_strv renamed = {};
        int r = 0;

        for (size_t i = 0; in && i < in->n && r >= 0; i++) {
                _cleanup_free_ char *n = sbx_tool_normalize(in->v[i]);
                if (!n)
                        r = -ENOMEM;
                else if (!strcmp(n, "update_plan"))
                        r = sbx_strv_push(&renamed, "progress_card");
                else {
                        r = sbx_strv_push(&renamed, n);
                        if (r >= 0 && !strcmp(n, "canvas"))
                                r = sbx_strv_push(&renamed, "show_widget");
                }
        }
        if (r >= 0)
                r = sbx_strv_uniq(&renamed);
        if (r >= 0)
                r = sbx_tool_expand(&renamed, ret);
        sbx_strv_free(&renamed);
        return r;
}

int sbx_policy_layer_expand(sbx_policy_layer *l) {
        sbx_strv_free(&l->step_allow);
        sbx_strv_free(&l->step_deny);
        l->expanded = false;
        if (step_patterns(&l->deny, &l->step_deny) < 0 ||
            step_patterns(l->has_allow ? &l->allow : NULL, &l->step_allow) < 0) {
                sbx_strv_free(&l->step_allow);
                sbx_strv_free(&l->step_deny);
                return -ENOMEM;
        }
        l->expanded = true;
        return 0;
}

sbx_block_reason sbx_policy_layer_check(const sbx_policy_layer *l, const char *tool,
                                        const char **ret_pattern) {
        sbx_strv allow_own = {}, deny_own = {};
        const sbx_strv *allow = &l->step_allow, *deny = &l->step_deny;
        sbx_block_reason r = SBX_BLOCK_NONE;
        const char *m;

        if (ret_pattern)
                *ret_pattern = NULL;
        if (!l->expanded) { /* not made by sbx_policy_layer_expand: made here, for this check */
                allow = &allow_own;
                deny = &deny_own;
                if (step_patterns(&l->deny, &deny_own) < 0 ||
                    step_patterns(l->has_allow ? &l->allow : NULL, &allow_own) < 0) {
                        r = SBX_BLOCK_DENY; /* fail closed on OOM */
                        goto out;
                }
        }
        if ((m = match_any(deny, tool))) {
                r = SBX_BLOCK_DENY;
                (void) m;
                goto out;
        }
        if (!l->has_allow || allow->n == 0)
                goto out;
        if (match_any(allow, tool))
                goto out;
        if (!strcmp(tool, "apply_patch") && match_any(allow, "write"))
                goto out;
        r = SBX_BLOCK_ALLOWLIST;
out:
        sbx_strv_free(&allow_own);
        sbx_strv_free(&deny_own);
        return r;
}

void sbx_policy_layer_done(sbx_policy_layer *l) {
        if (!l)
                return;
        free(l->label);
        sbx_strv_free(&l->allow);
        sbx_strv_free(&l->deny);
        free(l->allow_key);
        free(l->deny_key);
        sbx_strv_free(&l->step_allow);
        sbx_strv_free(&l->step_deny);
        *l = (sbx_policy_layer){};
}

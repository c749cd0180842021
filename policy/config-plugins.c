/* SPDX-License-Identifier: MIT */
/* The checks OpenClaw 2026.9.6 makes against its plugin registry once the schema passed
 * (validatePreparedConfigWithPlugins): heartbeat targets name a channel, the web_search
 * provider is one a plugin provides, an explicit memory slot names a plugin, a plugin's
 * config fits its schema. The registry
 * of a fresh install is fixed: the bundled plugins below, the official external catalog's
 * web_search providers, nothing installed; each bundled plugin's config is checked against
 * its JSON Schema (the "plugin" rows of config-shapes.h). A configured plugin load path that cannot be
 * inspected makes OpenClaw keep ("preserve") all of these as written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config-internal.h"
#include "util/util.h"
#include "policy.h"

/* resolveConfigWidePluginManifestRegistry({}): the ids of the bundled plugins */
static const char *const BUNDLED_PLUGINS[] = {
        "a2a", "active-memory", "admin-http-rpc", "alibaba", "anthropic", "apple-fm", "azure-speech", "beam",
        "bonjour", "browser", "canvas", "clawrouter", "code-mode-quickjs", "copilot-proxy", "crabbox",
        "cua-computer", "deepgram", "device-pair", "document-extract", "elevenlabs", "fal", "file-transfer",
        "geolocation", "github", "github-copilot", "google", "huggingface", "imap", "linux-node", "litellm",
        "llm-task", "lmstudio", "logbook", "memory-core", "memory-wiki", "microsoft", "microsoft-foundry",
        "migrate-claude", "migrate-hermes", "minimax", "nvidia", "oc-path", "ollama", "onepassword", "openai",
        "opencode-go", "openrouter", "policy", "reef", "runway", "senseaudio", "session-share", "sglang",
        "talk-voice", "telegram", "together", "tts-local-cli", "vault", "vllm", "web-readability", "webhooks",
        "workboard", "xai", NULL,
};
/* the web_search providers those plugins declare (google, minimax, ollama, xai) */
static const char *const ACTIVE_SEARCH[] = {"gemini", "grok", "minimax", "ollama", NULL};
/* resolveWebSearchInstallCatalogEntries: provider id, then its plugin */
static const char *const CATALOG_SEARCH[][2] = {
        {"brave", "brave"},           {"duckduckgo", "duckduckgo"}, {"exa", "exa"},
        {"firecrawl", "firecrawl"},   {"firecrawl-free", "firecrawl"}, {"kimi", "moonshot"},
        {"parallel", "parallel"},     {"parallel-free", "parallel"}, {"perplexity", "perplexity"},
        {"searxng", "searxng"},       {"tavily", "tavily"},
};
/* bundled channel ids (configurable ones) and their aliases, for heartbeat targets */
static const char *const CHANNELS[] = {
        "a2a", "buzz", "clickclack", "discord", "feishu", "googlechat", "imessage", "irc", "line", "matrix",
        "mattermost", "msteams", "nextcloud-talk", "nostr", "raft", "reef", "signal", "slack", "sms",
        "synology-chat", "telegram", "tlon", "twitch", "whatsapp", "zalo", "zalouser", NULL,
};
static const char *const CHANNEL_ALIASES[] = {
        "lark", "gchat", "google-chat", "imsg", "internet-relay-chat", "teams", "nc", "nc-talk", "twitch-chat",
        "zl", "zlu", NULL,
};
static const char *const RETIRED_PLUGINS[] = {"google-antigravity-auth", "google-gemini-cli-auth", "skill-workshop", NULL};

static bool listed(const char *const *l, const char *s) {
        for (; *l; l++)
                if (!strcmp(*l, s))
                        return true;
        return false;
}

/* trim + toLowerCase (normalizeLowercaseStringOrEmpty) */
static char *lower_trim(const char *s) {
        _cleanup_free_ char *t = sbx_strdup_trim(s);
        return t ? sbx_strdup_lower(t) : NULL;
}

/* normalizePluginId: lower-cased, trimmed, the built-in aliases folded */
static char *plugin_id(const char *s) {
        static const char *const ALIASES[][2] = {
                {"google-gemini-cli", "google"}, {"minimax-portal", "minimax"}, {"minimax-portal-auth", "minimax"},
        };
        char *n = lower_trim(s);
        for (size_t i = 0; n && i < ELEMENTSOF(ALIASES); i++)
                if (!strcmp(n, ALIASES[i][0])) {
                        free(n);
                        return strdup(ALIASES[i][1]);
                }
        return n;
}

/* A configured load path that is missing or cannot be inspected: OpenClaw keeps the plugin
 * settings it cannot check (findUninspectedPluginDiagnostic). */
static bool preserved(struct json_object *root) {
        struct json_object *paths = jget(jget(jget(root, "plugins"), "load"), "paths");
        for (size_t i = 0; json_object_is_type(paths, json_type_array) && i < json_object_array_length(paths); i++) {
                struct json_object *p = json_object_array_get_idx(paths, i);
                if (!json_object_is_type(p, json_type_string))
                        continue;
                _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(p));
                if (!t || !*t)
                        continue;
                _cleanup_free_ char *abs = sbx_expand_user_path(t);
                struct stat st;
                if (abs && stat(abs, &st) < 0)
                        return true;
        }
        return false;
}

/* plugins.allow, plugins.entries (and installs) naming one of the ids (normalised) */
static bool plugin_evidence(struct json_object *root, const char *a, const char *b) {
        _cleanup_free_ char *na = plugin_id(a), *nb = b ? plugin_id(b) : NULL;
        struct json_object *plugins = jget(root, "plugins");
        struct json_object *allow = jget(plugins, "allow"), *entries = jget(plugins, "entries");
#define MATCHES(s)                                                                                          \
        ({                                                                                                  \
                _cleanup_free_ char *_n = plugin_id(s);                                                     \
                _n && *_n && ((na && !strcmp(_n, na)) || (nb && !strcmp(_n, nb)));                         \
        })
        for (size_t i = 0; json_object_is_type(allow, json_type_array) && i < json_object_array_length(allow); i++) {
                struct json_object *e = json_object_array_get_idx(allow, i);
                if (json_object_is_type(e, json_type_string) && MATCHES(json_object_get_string(e)))
                        return true;
        }
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        (void) e;
                        if (MATCHES(k))
                                return true;
                }
        }
#undef MATCHES
        return false;
}

static void heartbeat_target(struct vctx *v, struct json_object *hb) {
        struct json_object *t = jget(hb, "target");
        if (!json_object_is_type(t, json_type_string))
                return;
        _cleanup_free_ char *n = lower_trim(json_object_get_string(t));
        if (!n)
                return;
        jpath_push_key(&v->path, "heartbeat");
        jpath_push_key(&v->path, "target");
        if (!*n)
                issue(v, "heartbeat target must not be empty");
        else if (strcmp(n, "owner") && strcmp(n, "last") && strcmp(n, "none") && !listed(CHANNELS, n) &&
                 !listed(CHANNEL_ALIASES, n))
                issue(v, "unknown heartbeat target: %s", json_object_get_string(t));
        jpath_pop(&v->path);
        jpath_pop(&v->path);
}

static void web_search_provider(struct vctx *v, struct json_object *root) {
        struct json_object *p = jget(jget(jget(jget(root, "tools"), "web"), "search"), "provider");
        if (!json_object_is_type(p, json_type_string))
                return;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(p));
        if (!t || listed(ACTIVE_SEARCH, t))
                return;
        jpath pp = v->path;
        jpath_push_key(&v->path, "tools");
        jpath_push_key(&v->path, "web");
        jpath_push_key(&v->path, "search");
        jpath_push_key(&v->path, "provider");
        const char *plugin = NULL;
        for (size_t i = 0; i < ELEMENTSOF(CATALOG_SEARCH); i++)
                if (!strcmp(CATALOG_SEARCH[i][0], t))
                        plugin = CATALOG_SEARCH[i][1];
        _cleanup_free_ char *n = plugin_id(t);
        if (!*t)
                issue(v, "web_search provider must not be empty");
        else if (plugin) {
                if (!plugin_evidence(root, t, plugin))
                        issue(v, "web_search provider is not available: %s (install or enable plugin \"%s\", then run "
                                 "openclaw doctor --fix)", t, plugin);
        } else if (!(n && *n && !listed(BUNDLED_PLUGINS, n) && plugin_evidence(root, t, NULL)))
                issue(v, "unknown web_search provider: %s", t);
        v->path = pp;
}

/* plugins.slots.memory, when set: a plugin id as written (trimmed; "none" turns it off) */
static void memory_slot(struct vctx *v, struct json_object *root) {
        struct json_object *m = jget(jget(jget(root, "plugins"), "slots"), "memory");
        if (!json_object_is_type(m, json_type_string))
                return;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(m));
        _cleanup_free_ char *n = t ? plugin_id(t) : NULL;
        if (!t || !n || !*t || !strcmp(n, "none") || listed(BUNDLED_PLUGINS, t) || listed(RETIRED_PLUGINS, n) ||
            !strcmp(t, "memory-lancedb"))
                return;
        jpath pp = v->path;
        jpath_push_key(&v->path, "plugins");
        jpath_push_key(&v->path, "slots");
        jpath_push_key(&v->path, "memory");
        issue(v, "plugin not found: %s", t);
        v->path = pp;
}

/* plugins.entries.<id>.config of a bundled plugin (the key normalised), enabled or not,
 * against its config schema */
static void plugin_configs(struct vctx *v, struct json_object *root) {
        struct json_object *entries = jget(jget(root, "plugins"), "entries");
        if (!json_object_is_type(entries, json_type_object))
                return;
        json_object_object_foreach(entries, k, e) {
                struct json_object *c = jget(e, "config");
                _cleanup_free_ char *id = plugin_id(k);
                if (!json_object_is_type(c, json_type_object) || !id || !listed(BUNDLED_PLUGINS, id))
                        continue;
                jpath pp = v->path;
                jpath_push_key(&v->path, "plugins");
                jpath_push_key(&v->path, "entries");
                jpath_push_key(&v->path, id);
                jpath_push_key(&v->path, "config");
                sbx_config_check_plugin_config(v, id, c);
                v->path = pp;
        }
}

void sbx_config_validate_plugins(struct json_object *root, struct vctx *v) {
        if (preserved(root))
                return;
        jpath pp = v->path;
        jpath_push_key(&v->path, "agents");
        jpath_push_key(&v->path, "defaults");
        heartbeat_target(v, jget(jget(jget(root, "agents"), "defaults"), "heartbeat"));
        v->path = pp;
        struct json_object *entries = jget(jget(root, "agents"), "entries");
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        if (!json_object_is_type(e, json_type_object))
                                continue;
                        jpath_push_key(&v->path, "agents");
                        jpath_push_key(&v->path, "entries");
                        jpath_push_key(&v->path, k);
                        heartbeat_target(v, jget(e, "heartbeat"));
                        v->path = pp;
                }
        }
        web_search_provider(v, root);
        if (jhas(root, "plugins")) {
                memory_slot(v, root);
                plugin_configs(v, root);
        }
}

/* SPDX-License-Identifier: MIT */
/* The checks OpenClaw 2026.9.6 makes against its plugin registry once the schema passed
 * (validatePreparedConfigWithPlugins): heartbeat targets name a channel, the web_search
 * provider is one a plugin provides, no model ref names a model a plugin suppresses, an
 * explicit memory slot names a plugin, a plugin's
 * config fits its schema. The registry
 * of a fresh install is fixed: the bundled plugins below, the official external catalog's
 * web_search providers, nothing installed; each bundled plugin's config is checked against
 * its JSON Schema (the "plugin" rows of config-shapes.h). A configured plugin load path that cannot be
 * inspected makes OpenClaw keep ("preserve") all of these as written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
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

/* plugins.load.paths[i] trimmed and with ~ expanded (allocated); NULL: not a string, blank,
 * or out of memory */
static char *load_path(struct json_object *paths, size_t i) {
        struct json_object *p = json_object_array_get_idx(paths, i);
        if (!json_object_is_type(p, json_type_string))
                return NULL;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(p));
        return t && *t ? sbx_expand_user_path(t) : NULL;
}

static size_t load_paths_n(struct json_object *paths) {
        return json_object_is_type(paths, json_type_array) ? json_object_array_length(paths) : 0;
}

/* A configured load path that is missing or cannot be inspected: OpenClaw keeps the plugin
 * settings it cannot check (findUninspectedPluginDiagnostic). */
bool sbx_config_plugins_preserved(struct json_object *root) {
        struct json_object *paths = jget(jget(jget(root, "plugins"), "load"), "paths");
        for (size_t i = 0; i < load_paths_n(paths); i++) {
                _cleanup_free_ char *abs = load_path(paths, i);
                struct stat st;
                if (!abs)
                        continue;
                if (stat(abs, &st) < 0 || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
                        return true; /* missing, or neither a file nor a directory */
                if (S_ISDIR(st.st_mode)) {
                        DIR *d = opendir(abs);
                        if (!d)
                                return true;
                        closedir(d);
                }
        }
        return false;
}

/* isExtensionFile: a plugin entry file's name */
static bool extension_file(const char *p) {
        static const char *const EXTS[] = {".ts", ".js", ".mts", ".cts", ".mjs", ".cjs", NULL};
        const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p, *dot = strrchr(base, '.');
        if (!dot || dot == base || !listed(EXTS, dot))
                return false;
        size_t n = strlen(base);
        if (n >= 5 && (!strcmp(base + n - 5, ".d.ts") || (n >= 6 && (!strcmp(base + n - 6, ".d.mts") || !strcmp(base + n - 6, ".d.cts")))))
                return false;
        _cleanup_free_ char *lower = sbx_strdup_lower(base);
        return lower && !strstr(lower, ".test.");
}

/* a configured load path naming a regular file that is no plugin entry (discoverFromPath):
 * the registry's error, an issue whenever the plugins section is read */
static void unsupported_load_files(struct vctx *v, struct json_object *root) {
        struct json_object *paths = jget(jget(jget(root, "plugins"), "load"), "paths");
        for (size_t i = 0; i < load_paths_n(paths); i++) {
                _cleanup_free_ char *abs = load_path(paths, i);
                struct stat st;
                if (!abs || stat(abs, &st) < 0 || !S_ISREG(st.st_mode) || extension_file(abs))
                        continue;
                jpath pp = v->path;
                jpath_push_key(&v->path, "plugins");
                issue(v, "plugin: plugin path is not a supported file: %s", abs);
                v->path = pp;
        }
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

static void heartbeat_target(struct vctx *v, struct json_object *hb, bool keep) {
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
        else if (!keep && strcmp(n, "owner") && strcmp(n, "last") && strcmp(n, "none") && !listed(CHANNELS, n) &&
                 !listed(CHANNEL_ALIASES, n))
                issue(v, "unknown heartbeat target: %s", json_object_get_string(t));
        jpath_pop(&v->path);
        jpath_pop(&v->path);
}

static void web_search_provider(struct vctx *v, struct json_object *root, bool keep) {
        struct json_object *p = jget(jget(jget(jget(root, "tools"), "web"), "search"), "provider");
        if (!json_object_is_type(p, json_type_string))
                return;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(p));
        if (!t || listed(ACTIVE_SEARCH, t) || (*t && keep))
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

/* planManifestModelCatalogSuppressions of the bundled plugins, those without a "when":
 * models a configured ref may not name ("provider/model" lower-cased), and the reason OpenClaw
 * prints after "Unknown model: <ref>." (from dist/extensions/<plugin>/openclaw.plugin.json
 * modelCatalog.suppressions, in file order: google, openai, xai). */
static const struct {
        const char *ref, *reason;
} SUPPRESSED_MODELS[] = {
        {"google/gemini-1.5-flash", "Google shut down Gemini 1.5 Flash on 2025-09-29. Use google/gemini-2.5-flash."},
        {"google/gemini-1.5-flash-8b", "Google shut down Gemini 1.5 Flash-8B on 2025-09-29. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-1.5-pro", "Google shut down Gemini 1.5 Pro on 2025-09-29. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.0-flash", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-flash-001", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-flash-exp", "Google shut down this Gemini 2.0 experimental model. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-flash-exp-image-generation", "Google shut down this Gemini 2.0 image preview. Use google/gemini-2.5-flash-image."},
        {"google/gemini-2.0-flash-live-001", "Google shut down this Gemini Live model on 2025-12-09. Use google/gemini-3.1-flash-live-preview."},
        {"google/gemini-2.0-flash-lite", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-2.0-flash-lite-001", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-2.0-flash-lite-preview", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-2.0-flash-lite-preview-02-05", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-2.0-flash-preview-image-generation", "Google shut down this Gemini 2.0 image preview. Use google/gemini-2.5-flash-image."},
        {"google/gemini-2.0-flash-thinking-exp", "Google shut down this Gemini 2.0 thinking experiment. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-flash-thinking-exp-01-21", "Google shut down this Gemini 2.0 thinking experiment. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-flash-thinking-exp-1219", "Google shut down this Gemini 2.0 thinking experiment. Use google/gemini-2.5-flash."},
        {"google/gemini-2.0-pro-exp", "Google shut down this Gemini 2.0 Pro experiment. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.0-pro-exp-02-05", "Google shut down this Gemini 2.0 Pro experiment. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.5-flash-exp-native-audio-thinking-dialog", "Google shut down this Gemini native-audio preview. Use google/gemini-3.1-flash-live-preview."},
        {"google/gemini-2.5-flash-image-preview", "Google shut down this Gemini image preview on 2026-01-15. Use google/gemini-2.5-flash-image."},
        {"google/gemini-2.5-flash-lite-preview-06-17", "Google shut down this Gemini 2.5 Flash-Lite preview on 2025-11-18. Use google/gemini-2.5-flash-lite."},
        {"google/gemini-2.5-flash-lite-preview-09-25", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google/gemini-3.1-flash-lite."},
        {"google/gemini-2.5-flash-lite-preview-09-2025", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google/gemini-3.1-flash-lite."},
        {"google/gemini-2.5-flash-preview-04-17", "Google shut down this Gemini 2.5 Flash preview on 2025-07-15. Use google/gemini-2.5-flash."},
        {"google/gemini-2.5-flash-preview-05-20", "Google shut down this Gemini 2.5 Flash preview on 2025-11-18. Use google/gemini-2.5-flash."},
        {"google/gemini-2.5-flash-preview-09-25", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google/gemini-3-flash-preview."},
        {"google/gemini-2.5-flash-preview-09-2025", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google/gemini-3-flash-preview."},
        {"google/gemini-2.5-flash-preview-native-audio-dialog", "Google shut down this Gemini native-audio preview. Use google/gemini-3.1-flash-live-preview."},
        {"google/gemini-2.5-pro-exp-03-25", "Google shut down this Gemini 2.5 Pro experiment. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.5-pro-preview-03-25", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.5-pro-preview-05-06", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-2.5-pro-preview-06-05", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-3-pro-preview", "Google shut down Gemini 3 Pro Preview on 2026-03-09. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-3.1-pro-preview-customtools", "This is not a public Google Gemini chat model ID. Use google/gemini-3.1-pro-preview."},
        {"google/gemini-live-2.5-flash", "This is not a current public Gemini chat model ID. Use google/gemini-3.1-flash-live-preview for Live API."},
        {"google/gemini-live-2.5-flash-preview", "Google shut down this Gemini Live model on 2025-12-09. Use google/gemini-3.1-flash-live-preview."},
        {"google/gemini-live-2.5-flash-preview-native-audio", "Google shut down this Gemini Live preview. Use google/gemini-3.1-flash-live-preview."},
        {"google-gemini-cli/gemini-1.5-flash", "Google shut down Gemini 1.5 Flash on 2025-09-29. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-1.5-flash-8b", "Google shut down Gemini 1.5 Flash-8B on 2025-09-29. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-1.5-pro", "Google shut down Gemini 1.5 Pro on 2025-09-29. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.0-flash", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-flash-001", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-flash-exp", "Google shut down this Gemini 2.0 experimental model. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-flash-exp-image-generation", "Google shut down this Gemini 2.0 image preview. Use google-gemini-cli/gemini-2.5-flash-image."},
        {"google-gemini-cli/gemini-2.0-flash-live-001", "Google shut down this Gemini Live model on 2025-12-09. Use google-gemini-cli/gemini-3.1-flash-live-preview."},
        {"google-gemini-cli/gemini-2.0-flash-lite", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-2.0-flash-lite-001", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-2.0-flash-lite-preview", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-2.0-flash-lite-preview-02-05", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-2.0-flash-preview-image-generation", "Google shut down this Gemini 2.0 image preview. Use google-gemini-cli/gemini-2.5-flash-image."},
        {"google-gemini-cli/gemini-2.0-flash-thinking-exp", "Google shut down this Gemini 2.0 thinking experiment. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-flash-thinking-exp-01-21", "Google shut down this Gemini 2.0 thinking experiment. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-flash-thinking-exp-1219", "Google shut down this Gemini 2.0 thinking experiment. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.0-pro-exp", "Google shut down this Gemini 2.0 Pro experiment. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.0-pro-exp-02-05", "Google shut down this Gemini 2.0 Pro experiment. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.5-flash-exp-native-audio-thinking-dialog", "Google shut down this Gemini native-audio preview. Use google-gemini-cli/gemini-3.1-flash-live-preview."},
        {"google-gemini-cli/gemini-2.5-flash-image-preview", "Google shut down this Gemini image preview on 2026-01-15. Use google-gemini-cli/gemini-2.5-flash-image."},
        {"google-gemini-cli/gemini-2.5-flash-lite-preview-06-17", "Google shut down this Gemini 2.5 Flash-Lite preview on 2025-11-18. Use google-gemini-cli/gemini-2.5-flash-lite."},
        {"google-gemini-cli/gemini-2.5-flash-lite-preview-09-25", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google-gemini-cli/gemini-3.1-flash-lite."},
        {"google-gemini-cli/gemini-2.5-flash-lite-preview-09-2025", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google-gemini-cli/gemini-3.1-flash-lite."},
        {"google-gemini-cli/gemini-2.5-flash-preview-04-17", "Google shut down this Gemini 2.5 Flash preview on 2025-07-15. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.5-flash-preview-05-20", "Google shut down this Gemini 2.5 Flash preview on 2025-11-18. Use google-gemini-cli/gemini-2.5-flash."},
        {"google-gemini-cli/gemini-2.5-flash-preview-09-25", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google-gemini-cli/gemini-3-flash-preview."},
        {"google-gemini-cli/gemini-2.5-flash-preview-09-2025", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google-gemini-cli/gemini-3-flash-preview."},
        {"google-gemini-cli/gemini-2.5-flash-preview-native-audio-dialog", "Google shut down this Gemini native-audio preview. Use google-gemini-cli/gemini-3.1-flash-live-preview."},
        {"google-gemini-cli/gemini-2.5-pro-exp-03-25", "Google shut down this Gemini 2.5 Pro experiment. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.5-pro-preview-03-25", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.5-pro-preview-05-06", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-2.5-pro-preview-06-05", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-3-pro-preview", "Google shut down Gemini 3 Pro Preview on 2026-03-09. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-3.1-pro-preview-customtools", "This is not a public Google Gemini chat model ID. Use google-gemini-cli/gemini-3.1-pro-preview."},
        {"google-gemini-cli/gemini-live-2.5-flash", "This is not a current public Gemini chat model ID. Use google-gemini-cli/gemini-3.1-flash-live-preview for Live API."},
        {"google-gemini-cli/gemini-live-2.5-flash-preview", "Google shut down this Gemini Live model on 2025-12-09. Use google-gemini-cli/gemini-3.1-flash-live-preview."},
        {"google-gemini-cli/gemini-live-2.5-flash-preview-native-audio", "Google shut down this Gemini Live preview. Use google-gemini-cli/gemini-3.1-flash-live-preview."},
        {"google-vertex/gemini-1.5-flash", "Google retired Gemini 1.5 Flash. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-1.5-flash-8b", "Google retired Gemini 1.5 Flash-8B. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-1.5-pro", "Google retired Gemini 1.5 Pro. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.0-flash", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-flash-001", "Google shut down Gemini 2.0 Flash on 2026-06-01. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-flash-exp", "Google shut down this Gemini 2.0 experimental model. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-flash-exp-image-generation", "Google shut down this Gemini 2.0 image preview. Use google-vertex/gemini-2.5-flash-image."},
        {"google-vertex/gemini-2.0-flash-live-001", "Google shut down this Gemini Live model on 2025-12-09. Use google-vertex/gemini-3.1-flash-live-preview."},
        {"google-vertex/gemini-2.0-flash-lite", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-2.0-flash-lite-001", "Google shut down Gemini 2.0 Flash-Lite on 2026-06-01. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-2.0-flash-lite-preview", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-2.0-flash-lite-preview-02-05", "Google shut down this Gemini 2.0 Flash-Lite preview on 2025-12-09. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-2.0-flash-preview-image-generation", "Google shut down this Gemini 2.0 image preview. Use google-vertex/gemini-2.5-flash-image."},
        {"google-vertex/gemini-2.0-flash-thinking-exp", "Google shut down this Gemini 2.0 thinking experiment. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-flash-thinking-exp-01-21", "Google shut down this Gemini 2.0 thinking experiment. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-flash-thinking-exp-1219", "Google shut down this Gemini 2.0 thinking experiment. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.0-pro-exp", "Google shut down this Gemini 2.0 Pro experiment. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.0-pro-exp-02-05", "Google shut down this Gemini 2.0 Pro experiment. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.5-flash-exp-native-audio-thinking-dialog", "Google shut down this Gemini native-audio preview. Use google-vertex/gemini-3.1-flash-live-preview."},
        {"google-vertex/gemini-2.5-flash-image-preview", "Google shut down this Gemini image preview on 2026-01-15. Use google-vertex/gemini-2.5-flash-image."},
        {"google-vertex/gemini-2.5-flash-lite-preview-06-17", "Google shut down this Gemini 2.5 Flash-Lite preview on 2025-11-18. Use google-vertex/gemini-2.5-flash-lite."},
        {"google-vertex/gemini-2.5-flash-lite-preview-09-25", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google-vertex/gemini-3.1-flash-lite."},
        {"google-vertex/gemini-2.5-flash-lite-preview-09-2025", "Google shut down this Gemini 2.5 Flash-Lite preview on 2026-03-31. Use google-vertex/gemini-3.1-flash-lite."},
        {"google-vertex/gemini-2.5-flash-preview-04-17", "Google shut down this Gemini 2.5 Flash preview on 2025-07-15. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.5-flash-preview-05-20", "Google shut down this Gemini 2.5 Flash preview on 2025-11-18. Use google-vertex/gemini-2.5-flash."},
        {"google-vertex/gemini-2.5-flash-preview-09-25", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google-vertex/gemini-3-flash-preview."},
        {"google-vertex/gemini-2.5-flash-preview-09-2025", "Google shut down this Gemini 2.5 Flash preview on 2026-02-17. Use google-vertex/gemini-3-flash-preview."},
        {"google-vertex/gemini-2.5-flash-preview-native-audio-dialog", "Google shut down this Gemini native-audio preview. Use google-vertex/gemini-3.1-flash-live-preview."},
        {"google-vertex/gemini-2.5-pro-exp-03-25", "Google shut down this Gemini 2.5 Pro experiment. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.5-pro-preview-03-25", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.5-pro-preview-05-06", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-2.5-pro-preview-06-05", "Google shut down this Gemini 2.5 Pro preview on 2025-12-02. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-3-pro-preview", "Google shut down Gemini 3 Pro Preview on 2026-03-09. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-3.1-pro-preview-customtools", "This is not a public Google Gemini chat model ID. Use google-vertex/gemini-3.1-pro-preview."},
        {"google-vertex/gemini-live-2.5-flash", "This is not a current public Gemini chat model ID. Use google-vertex/gemini-3.1-flash-live-preview for Live API."},
        {"google-vertex/gemini-live-2.5-flash-preview", "Google shut down this Gemini Live model on 2025-12-09. Use google-vertex/gemini-3.1-flash-live-preview."},
        {"google-vertex/gemini-live-2.5-flash-preview-native-audio", "Google shut down this Gemini Live preview. Use google-vertex/gemini-3.1-flash-live-preview."},
        {"azure-openai-responses/gpt-5.3-codex-spark", "gpt-5.3-codex-spark is available only through ChatGPT/Codex OAuth. Run `openclaw models auth login --provider openai` and use openai/gpt-5.3-codex-spark with that OAuth profile; Azure/OpenAI API-key auth cannot use this model."},
        {"xai/grok-4.20-multi-agent-0309", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent-latest", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent-beta-latest", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent-experimental-beta-0304", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent-experimental-beta-latest", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
        {"xai/grok-4.20-multi-agent-beta-0309", "OpenClaw does not currently support xAI multi-agent models; choose another xAI model. See https://docs.openclaw.ai/providers/xai."},
};

/* A configured model ref ("provider/model", each part trimmed and lower-cased) naming a
 * suppressed model (validateConfiguredModelRefs). path: where it is, for the issue. */
static void model_ref(struct vctx *v, struct json_object *ref, const char *path) {
        if (!json_object_is_type(ref, json_type_string))
                return;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(ref));
        const char *slash = t ? strchr(t, '/') : NULL;
        if (!slash || slash == t || !slash[1])
                return;
        _cleanup_free_ char *prov0 = strndup(t, (size_t) (slash - t));
        _cleanup_free_ char *prov = prov0 ? lower_trim(prov0) : NULL, *model = lower_trim(slash + 1);
        if (!prov || !model || !*prov || !*model)
                return;
        _cleanup_free_ char *key = NULL;
        if (asprintf(&key, "%s/%s", prov, model) < 0)
                return;
        const char *reason = NULL;
        for (size_t i = 0; i < ELEMENTSOF(SUPPRESSED_MODELS) && !reason; i++)
                if (!strcmp(SUPPRESSED_MODELS[i].ref, key))
                        reason = SUPPRESSED_MODELS[i].reason;
        if (!reason)
                return;
        /* the default agent's model selector and model table are materialised first: Google's
         * model ids normalised (normalizeGoogleModelId: gemini-3-pro-preview, as written, is
         * gemini-3.1-pro-preview by then) */
        _cleanup_free_ char *raw = sbx_strdup_trim(slash + 1);
        if (!strncmp(path, "agents.defaults.model", 21) &&
            (!strcmp(prov, "google") || !strcmp(prov, "google-gemini-cli") || !strcmp(prov, "google-vertex")) && raw &&
            !strcmp(raw, "gemini-3-pro-preview"))
                return;
        jpath pp = v->path; /* OpenClaw's path here is dotted text as it is ("fallbacks.1") */
        int n = snprintf(v->path.buf + v->path.len, sizeof(v->path.buf) - v->path.len, "%s%s",
                         v->path.len ? "." : "", path);
        if (n > 0)
                v->path.len = MIN(v->path.len + (size_t) n, sizeof(v->path.buf) - 1);
        issue(v, "Unknown model: %s. %s", key, reason);
        v->path = pp;
}

/* a model selector: a string, or {primary, fallbacks[]} (visitModelSelectorRefs) */
static void model_selector(struct vctx *v, struct json_object *sel, const char *path) {
        if (json_object_is_type(sel, json_type_string)) {
                model_ref(v, sel, path);
                return;
        }
        if (!json_object_is_type(sel, json_type_object))
                return;
        _cleanup_free_ char *pp = NULL;
        if (asprintf(&pp, "%s.primary", path) >= 0)
                model_ref(v, jget(sel, "primary"), pp);
        struct json_object *fb = jget(sel, "fallbacks");
        for (size_t i = 0; json_object_is_type(fb, json_type_array) && i < json_object_array_length(fb); i++) {
                _cleanup_free_ char *fp = NULL;
                if (asprintf(&fp, "%s.fallbacks.%zu", path, i) >= 0)
                        model_ref(v, json_object_array_get_idx(fb, i), fp);
        }
}

static void model_at(struct vctx *v, struct json_object *o, const char *base, const char *rel, bool selector) {
        _cleanup_free_ char *path = NULL;
        if (asprintf(&path, "%s.%s", base, rel) < 0)
                return;
        if (selector)
                model_selector(v, o, path);
        else
                model_ref(v, o, path);
}

/* the model refs of agents.defaults or one roster entry (collectConfiguredModelRefs) */
static void agent_models(struct vctx *v, struct json_object *a, const char *base, bool entry) {
        static const char *const KEYS[] = {"model", "utilityModel", "imageModel", "voiceModel", "pdfModel", NULL};
        static const char *const MEDIA[] = {"image", "video", "music", NULL};
        if (!json_object_is_type(a, json_type_object))
                return;
        for (size_t i = 0; KEYS[i]; i++)
                model_at(v, jget(a, KEYS[i]), base, KEYS[i], true);
        for (size_t i = 0; MEDIA[i]; i++) {
                _cleanup_free_ char *rel = NULL;
                if (asprintf(&rel, "mediaModels.%s", MEDIA[i]) >= 0)
                        model_at(v, jget(jget(a, "mediaModels"), MEDIA[i]), base, rel, true);
        }
        model_at(v, jget(jget(a, "heartbeat"), "model"), base, "heartbeat.model", false);
        model_at(v, jget(jget(a, "subagents"), "model"), base, "subagents.model", true);
        model_at(v, jget(jget(a, "compaction"), "model"), base, "compaction.model", false);
        model_at(v, jget(jget(jget(a, "compaction"), "memoryFlush"), "model"), base, "compaction.memoryFlush.model", false);
        struct json_object *models = jget(a, "models");
        if (json_object_is_type(models, json_type_object)) {
                json_object_object_foreach(models, k, m) {
                        (void) m;
                        struct json_object *ks = json_object_new_string(k);
                        _cleanup_free_ char *rel = NULL;
                        if (ks && asprintf(&rel, "models.%s", k) >= 0)
                                model_at(v, ks, base, rel, false);
                        json_object_put(ks);
                }
        }
        if (entry) {
                model_at(v, jget(jget(jget(jget(a, "tools"), "exec"), "reviewer"), "model"), base, "tools.exec.reviewer.model", true);
                model_at(v, jget(jget(a, "tts"), "summaryModel"), base, "tts.summaryModel", false);
        }
}

static void discord_voice(struct vctx *v, struct json_object *voice, const char *base) {
        model_at(v, jget(voice, "model"), base, "model", false);
        model_at(v, jget(jget(voice, "tts"), "summaryModel"), base, "tts.summaryModel", false);
}

static void model_refs(struct vctx *v, struct json_object *root) {
        static const char *const MEDIA[] = {"image", "audio", "video", NULL};
        struct json_object *tools = jget(root, "tools");
        model_selector(v, jget(jget(jget(tools, "exec"), "reviewer"), "model"), "tools.exec.reviewer.model");
        for (size_t i = 0; MEDIA[i]; i++) {
                _cleanup_free_ char *rel = NULL;
                if (asprintf(&rel, "media.%s.preferredModel", MEDIA[i]) >= 0)
                        model_at(v, jget(jget(jget(tools, "media"), MEDIA[i]), "preferredModel"), "tools", rel, false);
        }
        struct json_object *agents = jget(root, "agents");
        agent_models(v, jget(agents, "defaults"), "agents.defaults", false);
        struct json_object *entries = jget(agents, "entries");
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        _cleanup_free_ char *base = NULL;
                        if (asprintf(&base, "agents.entries.%s", k) >= 0)
                                agent_models(v, e, base, true);
                }
        }
        struct json_object *mbc = jget(jget(root, "channels"), "modelByChannel");
        if (json_object_is_type(mbc, json_type_object)) {
                json_object_object_foreach(mbc, ch, map) {
                        if (!json_object_is_type(map, json_type_object))
                                continue;
                        json_object_object_foreach(map, target, ref) {
                                _cleanup_free_ char *path = NULL;
                                if (asprintf(&path, "channels.modelByChannel.%s.%s", ch, target) >= 0)
                                        model_ref(v, ref, path);
                        }
                }
        }
        struct json_object *maps = jget(jget(root, "hooks"), "mappings");
        for (size_t i = 0; json_object_is_type(maps, json_type_array) && i < json_object_array_length(maps); i++) {
                _cleanup_free_ char *path = NULL;
                if (asprintf(&path, "hooks.mappings.%zu.model", i) >= 0)
                        model_ref(v, jget(json_object_array_get_idx(maps, i), "model"), path);
        }
        model_ref(v, jget(jget(jget(root, "hooks"), "gmail"), "model"), "hooks.gmail.model");
        model_ref(v, jget(jget(root, "tts"), "summaryModel"), "tts.summaryModel");
        struct json_object *discord = jget(jget(root, "channels"), "discord");
        discord_voice(v, jget(discord, "voice"), "channels.discord.voice");
        struct json_object *accts = jget(discord, "accounts");
        if (json_object_is_type(accts, json_type_object)) {
                json_object_object_foreach(accts, id, acct) {
                        _cleanup_free_ char *base = NULL;
                        if (asprintf(&base, "channels.discord.accounts.%s.voice", id) >= 0)
                                discord_voice(v, jget(acct, "voice"), base);
                }
        }
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

/* An unknown channel id that plugins.allow or plugins.entries name (normalised), not a
 * bundled plugin's: stale plugin config OpenClaw only warns about. */
bool sbx_config_stale_channel(struct json_object *root, const char *channel) {
        _cleanup_free_ char *n = plugin_id(channel);
        return n && *n && !listed(BUNDLED_PLUGINS, n) && plugin_evidence(root, n, NULL);
}

void sbx_config_validate_plugins(struct json_object *root, struct vctx *v) {
        bool keep = sbx_config_plugins_preserved(root); /* what cannot be checked is kept; blank values are not */
        jpath pp = v->path;
        jpath_push_key(&v->path, "agents");
        jpath_push_key(&v->path, "defaults");
        heartbeat_target(v, jget(jget(jget(root, "agents"), "defaults"), "heartbeat"), keep);
        v->path = pp;
        struct json_object *entries = jget(jget(root, "agents"), "entries");
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        if (!json_object_is_type(e, json_type_object))
                                continue;
                        jpath_push_key(&v->path, "agents");
                        jpath_push_key(&v->path, "entries");
                        jpath_push_key(&v->path, k);
                        heartbeat_target(v, jget(e, "heartbeat"), keep);
                        v->path = pp;
                }
        }
        web_search_provider(v, root, keep);
        model_refs(v, root); /* the manifests' suppressions: no load path keeps these */
        if (jhas(root, "plugins"))
                unsupported_load_files(v, root);
        if (jhas(root, "plugins") && !keep) { /* validateExplicitPluginConfig */
                memory_slot(v, root);
                plugin_configs(v, root);
        }
}

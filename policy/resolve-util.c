/* SPDX-License-Identifier: MIT */
/* Naming rules shared by the resolver: agent ids, paths, slugs, scope keys,
 * container names and session-key shapes (OpenClaw 2026.9.6). */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/util.h"
#include "policy.h"
#include "resolve-internal.h"

/* Length of the JavaScript white space or line terminator (String.prototype.trim) that
 * starts at s, in UTF-8 bytes, or 0: ASCII \t\n\v\f\r and space, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF. */
static size_t js_space_at(const unsigned char *s) {
        if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
                return 1;
        if (s[0] == 0xc2 && s[1] == 0xa0)
                return 2;
        if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
                return 3;
        if (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8a) || s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
                return 3;
        if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
                return 3;
        if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
                return 3;
        if (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
                return 3;
        return 0;
}

/* The same, for the sequence that ends at s + n (n bytes before it), or 0. */
static size_t js_space_before(const unsigned char *s, size_t n) {
        for (size_t k = 1; k <= 3 && k <= n; k++)
                if (js_space_at(s + n - k) == k)
                        return k;
        return 0;
}

char *sbx_strdup_trim(const char *s) {
        size_t k;
        if (!s)
                return NULL;
        while ((k = js_space_at((const unsigned char *) s)))
                s += k;
        size_t n = strlen(s);
        while (n > 0 && (k = js_space_before((const unsigned char *) s, n)))
                n -= k;
        return strndup(s, n);
}

static bool valid_id(const char *s) {
        size_t n = strlen(s);
        if (n < 1 || n > 64 || !isalnum((unsigned char) s[0]))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!isalnum((unsigned char) s[i]) && s[i] != '_' && s[i] != '-')
                        return false;
        return true;
}

/* S lower-cased, each run of characters other than a-z, 0-9 and those of KEEP replaced by one '-',
 * the dashes at both ends dropped, cut to MAX bytes. */
static char *slugify(const char *raw, const char *keep, size_t max) {
        _cleanup_free_ char *s = sbx_strdup_lower(raw);
        if (!s)
                return NULL;
        size_t n = strlen(s), o = 0, start = 0;
        char *r = malloc(n + 1);
        bool run = false;

        if (!r)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char) s[i];
                if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr(keep, c)) {
                        r[o++] = (char) c;
                        run = false;
                } else if (!run) {
                        r[o++] = '-';
                        run = true;
                }
        }
        r[o] = '\0';
        while (r[start] == '-')
                start++;
        memmove(r, r + start, o - start + 1);
        o -= start;
        while (o > 0 && r[o - 1] == '-')
                r[--o] = '\0';
        if (o > max)
                r[max] = '\0';
        return r;
}

char *sbx_normalize_agent_id(const char *s) {
        _cleanup_free_ char *trimmed = sbx_strdup_trim(s ?: "");
        _cleanup_free_ char *t = trimmed ? sbx_strdup_lower(trimmed) : NULL;
        if (!t)
                return NULL;
        if (valid_id(t))
                return TAKE_PTR(t);
        char *r = slugify(t, "_-", 64);
        if (!r)
                return NULL;
        if (!*r) {
                free(r);
                return strdup("main");
        }
        return r;
}

/* the environment as OpenClaw reads it after the config's env.vars were applied, or as
 * its modules read it when they were loaded (before any config) */
typedef const char *(*env_fn)(const char *name);
static const char *process_getenv(const char *name) {
        return getenv(name);
}

/* a trimmed value that is not "", "undefined" or "null" (normalizeHomeDirValue) */
static char *home_value(const char *v) {
        _cleanup_free_ char *t = v ? sbx_strdup_trim(v) : NULL;
        if (!t || !*t || !strcmp(t, "undefined") || !strcmp(t, "null"))
                return NULL;
        return TAKE_PTR(t);
}

/* resolveEffectiveHomeDir: OPENCLAW_HOME (its ~ is the OS home), else the OS home */
static char *home_dir_in(env_fn get) {
        _cleanup_free_ char *explicit_home = home_value(get("OPENCLAW_HOME"));
        _cleanup_free_ char *os_home = home_value(get("HOME"));
        if (!os_home) {
                struct passwd *pw = getpwuid(getuid());
                os_home = strdup(pw && pw->pw_dir ? pw->pw_dir : "/");
                if (!os_home)
                        return NULL;
        }
        if (explicit_home) {
                const char *t = explicit_home;
                if (t[0] == '~' && (t[1] == '\0' || t[1] == '/' || t[1] == '\\')) {
                        _cleanup_free_ char *x = NULL;
                        if (asprintf(&x, "%s%s", os_home, t + 1) < 0)
                                return NULL;
                        return sbx_path_resolve(x);
                }
                return sbx_path_resolve(t);
        }
        return sbx_path_resolve(os_home);
}

char *sbx_home_dir(void) {
        return home_dir_in(sbx_policy_getenv);
}

bool sbx_policy_path_next(const char **s, size_t *ret_len) {
        const char *e;

        while (**s == '/')
                (*s)++;
        if (!**s)
                return false;
        e = strchr(*s, '/');
        *ret_len = e ? (size_t) (e - *s) : strlen(*s);
        return true;
}

char *sbx_policy_path_normalize(const char *p) {
        char *out = malloc(strlen(p) + 2);
        size_t o = 0, len;

        if (!out)
                return NULL;
        for (const char *s = p; sbx_policy_path_next(&s, &len); s += len) {
                if (len == 2 && s[0] == '.' && s[1] == '.') {
                        while (o > 0 && out[o - 1] != '/')
                                o--;
                        if (o > 0)
                                o--;
                } else if (!(len == 1 && s[0] == '.')) {
                        out[o++] = '/';
                        memcpy(out + o, s, len);
                        o += len;
                }
        }
        if (o == 0)
                out[o++] = '/';
        out[o] = '\0';
        return out;
}

/* node's path.resolve for POSIX: absolute against the cwd, '.', '..' and '//' removed */
char *sbx_path_resolve(const char *p) {
        _cleanup_free_ char *joined = NULL;
        if (p[0] != '/') {
                _cleanup_free_ char *cwd = getcwd(NULL, 0);
                if (asprintf(&joined, "%s/%s", cwd ?: "/", p) < 0)
                        return NULL;
        } else
                joined = strdup(p);
        if (!joined)
                return NULL;
        return sbx_policy_path_normalize(joined);
}

static char *expand_user_path_in(const char *p, env_fn get) {
        _cleanup_free_ char *t = sbx_strdup_trim(p ?: "");
        if (!t)
                return NULL;
        if (!*t)
                return TAKE_PTR(t);
        if (t[0] == '~' && (t[1] == '\0' || t[1] == '/' || t[1] == '\\')) {
                _cleanup_free_ char *home = home_dir_in(get), *x = NULL;
                if (!home || asprintf(&x, "%s%s", home, t + 1) < 0)
                        return NULL;
                return sbx_path_resolve(x);
        }
        return sbx_path_resolve(t);
}

char *sbx_expand_user_path(const char *p) {
        return expand_user_path_in(p, sbx_policy_getenv);
}

static char *state_dir_in(env_fn get) {
        const char *s = get("OPENCLAW_STATE_DIR");
        if (s && *s) {
                _cleanup_free_ char *t = sbx_strdup_trim(s);
                if (t && *t)
                        return expand_user_path_in(t, get);
        }
        return expand_user_path_in("~/.openclaw", get);
}

char *sbx_state_dir(void) {
        return state_dir_in(sbx_policy_getenv);
}

char *sbx_process_state_dir(void) {
        return state_dir_in(process_getenv);
}

/* OpenClaw's profile names: ^[a-z0-9][a-z0-9_-]{0,63}$, case-insensitive */
static bool valid_profile(const char *p) {
        size_t n = strlen(p);
        if (n == 0 || n > 64 || !isalnum((unsigned char) p[0]))
                return false;
        for (size_t i = 1; i < n; i++)
                if (!(isalnum((unsigned char) p[i]) || p[i] == '_' || p[i] == '-') || (unsigned char) p[i] >= 0x80)
                        return false;
        return (unsigned char) p[0] < 0x80;
}

int sbx_default_agent_workspace(char **ret) {
        const char *w = sbx_policy_getenv("OPENCLAW_WORKSPACE_DIR"), *s = sbx_policy_getenv("OPENCLAW_STATE_DIR");
        const char *profile = sbx_policy_getenv("OPENCLAW_PROFILE");

        *ret = NULL;
        if (w && *w) {
                _cleanup_free_ char *t = sbx_strdup_trim(w);
                if (t && *t)
                        return (*ret = sbx_path_resolve(t)) ? 0 : -ENOMEM;
        }
        if (s && *s) {
                _cleanup_free_ char *t = sbx_strdup_trim(s), *st = NULL;
                if (t && *t) {
                        st = sbx_state_dir();
                        return st && asprintf(ret, "%s/workspace", st) >= 0 ? 0 : (*ret = NULL, -ENOMEM);
                }
        }
        if (profile && *profile) {
                _cleanup_free_ char *t = sbx_strdup_trim(profile);
                if (!t)
                        return -ENOMEM;
                if (*t && strcasecmp(t, "default") != 0) {
                        if (!valid_profile(t))
                                return -EINVAL; /* "Invalid profile name" */
                        _cleanup_free_ char *home = sbx_home_dir();
                        return home && asprintf(ret, "%s/.openclaw-%s/workspace", home, t) >= 0 ? 0
                                                                                                : (*ret = NULL, -ENOMEM);
                }
        }
        return (*ret = sbx_expand_user_path("~/.openclaw/workspace")) ? 0 : -ENOMEM;
}

static bool has_workspace_suffix(const char *k) {
        size_t n = strlen(k);
        if (n < 11 + 32)
                return false;
        const char *s = k + n - 43;
        if (strncasecmp(s, ":workspace:", 11) != 0)
                return false;
        for (size_t i = 11; i < 43; i++)
                if (!isxdigit((unsigned char) s[i]))
                        return false;
        return true;
}

char *sbx_slugify_session_key(const char *key) {
        _cleanup_free_ char *t = sbx_strdup_trim(key ?: "");
        char hex[65], *r;

        if (!t)
                return NULL;
        if (!*t) {
                free(t);
                t = strdup("session");
                if (!t)
                        return NULL;
        }
        sbx_sha256_hex_js(t, hex);
        if (has_workspace_suffix(t)) {
                if (asprintf(&r, "workspace-%.32s", hex) < 0)
                        return NULL;
                return r;
        }
        _cleanup_free_ char *b = slugify(t, "._-", 32);
        if (!b)
                return NULL;
        if (asprintf(&r, "%s-%.8s", *b ? b : "session", hex) < 0)
                return NULL;
        return r;
}

static bool workspace_slug(const char *s) {
        if (strncasecmp(s, "workspace-", 10) != 0 || strlen(s) != 42)
                return false;
        for (size_t i = 10; i < 42; i++)
                if (!isxdigit((unsigned char) s[i]))
                        return false;
        return true;
}

char *sbx_container_name(const char *prefix, const char *slug) {
        _cleanup_free_ char *full = NULL;
        char hex[65], *r;

        /* 63 UTF-16 units at most (String.length, slice) */
        if (asprintf(&full, "%s%s", prefix, slug) < 0)
                return NULL;
        if (sbx_js_length(full) <= 63)
                return TAKE_PTR(full);
        sbx_sha256_hex_js(full, hex);
        if (workspace_slug(slug)) {
                int budget = 63 - (int) (1 + strlen(slug) + 1 + 12);
                _cleanup_free_ char *head = sbx_js_slice(prefix, budget < 0 ? 0 : (size_t) budget);
                if (!head || asprintf(&r, "%s-%s-%.12s", head, slug, hex) < 0)
                        return NULL;
                return r;
        }
        _cleanup_free_ char *head = sbx_js_slice(full, 50);
        if (!head || asprintf(&r, "%s-%.12s", head, hex) < 0)
                return NULL;
        return r;
}

char *sbx_scope_key(sbx_scope scope, const char *session_key, const char *agent_workspace_dir,
                    const char *agent_id) {
        _cleanup_free_ char *t = sbx_strdup_trim(session_key ?: ""), *ws = NULL, *id = NULL;
        char hex[65], *r;

        if (!t)
                return NULL;
        if (scope == SBX_SCOPE_SHARED)
                return strdup("shared");
        if (!*t) {
                free(t);
                t = strdup("main");
                if (!t)
                        return NULL;
        }
        ws = sbx_expand_user_path(agent_workspace_dir);
        if (!ws)
                return NULL;
        sbx_sha256_hex_js(ws, hex);
        if (scope == SBX_SCOPE_SESSION) {
                if (asprintf(&r, "%s:workspace:%.32s", t, hex) < 0)
                        return NULL;
                return r;
        }
        if (agent_id)
                id = sbx_normalize_agent_id(agent_id);
        else {
                bool malformed;
                _cleanup_free_ char *raw = sbx_session_key_agent(t, &malformed);
                id = sbx_normalize_agent_id(raw ?: "main");
        }
        if (!id || asprintf(&r, "agent:%s:workspace:%.32s", id, hex) < 0)
                return NULL;
        return r;
}

char *sbx_bind_source(const char *bind) {
        size_t skip = 0;
        if (isalpha((unsigned char) bind[0]) && bind[1] == ':' && (bind[2] == '/' || bind[2] == '\\'))
                skip = 2;
        const char *c = strchr(bind + skip, ':');
        return c ? strndup(bind, (size_t) (c - bind)) : strdup(bind);
}

int sbx_bind_options_read_only(const char *opts, bool *ret) {
        _cleanup_free_ char *ol = sbx_strdup_lower(opts);
        if (!ol)
                return -ENOMEM;
        *ret = false;
        for (char *tok = ol, *save = NULL; (tok = strtok_r(tok, ",", &save)); tok = NULL) {
                _cleanup_free_ char *t = sbx_strdup_trim(tok);
                if (!t)
                        return -ENOMEM;
                if (!strcmp(t, "ro"))
                        *ret = true;
        }
        return 0;
}

bool sbx_bind_source_absolute(const char *src) {
        if (!strncmp(src, "\\\\?\\", 4) || !strncmp(src, "//?/", 4))
                src += 4;
        return src[0] == '/' ||
               (isalpha((unsigned char) src[0]) && src[1] == ':' && (src[2] == '/' || src[2] == '\\'));
}

/* parseAgentSessionKey: case-folded, "agent:<id>:<rest>" with non-empty id and rest
 * that does not start with ':' */
char *sbx_session_key_agent(const char *key, bool *ret_malformed) {
        _cleanup_free_ char *t = sbx_strdup_trim(key ?: "");
        *ret_malformed = false;
        if (!t || !*t)
                return NULL;
        if (strncasecmp(t, "agent:", 6) != 0)
                return NULL;
        char *end = strchr(t + 6, ':');
        if (!end) {
                *ret_malformed = true;
                return NULL;
        }
        _cleanup_free_ char *id = strndup(t + 6, (size_t) (end - (t + 6)));
        _cleanup_free_ char *idt = sbx_strdup_trim(id);
        const char *rest = end + 1;
        if (!idt || !*idt || !*rest || rest[0] == ':') {
                *ret_malformed = true;
                return NULL;
        }
        return sbx_strdup_lower(idt);
}

static const char *key_rest(const char *lower) {
        if (strncmp(lower, "agent:", 6) != 0)
                return lower;
        const char *e = strchr(lower + 6, ':');
        return e && e[1] && e[1] != ':' ? e + 1 : lower;
}

unsigned sbx_subagent_depth(const char *session_key) {
        _cleanup_free_ char *t = sbx_strdup_trim(session_key ?: ""), *l = NULL;
        unsigned n = 0;
        if (!t || !*t || !(l = sbx_strdup_lower(t)))
                return 0;
        /* like JS /(^|:)subagent:/g: a match consumes its leading ':' */
        const char *rest = key_rest(l), *consumed = rest;
        for (const char *p = rest; (p = strstr(p, "subagent:")); p++)
                if (p == rest || (p[-1] == ':' && p - 1 >= consumed)) {
                        n++;
                        consumed = p + 9;
                }
        return n;
}

bool sbx_is_subagent_key(const char *session_key) {
        _cleanup_free_ char *t = sbx_strdup_trim(session_key ?: ""), *l = NULL;
        if (!t || !*t || !(l = sbx_strdup_lower(t)))
                return false;
        if (!strncmp(l, "subagent:", 9))
                return true;
        return !strncmp(key_rest(l), "subagent:", 9) && strncmp(l, "agent:", 6) == 0;
}

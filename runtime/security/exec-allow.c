/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "security.h"

bool sbx_exec_pattern_is_glob(const char *pattern) {
        return strpbrk(pattern, "*?") != NULL;
}

/* Backtracking matcher: "**" any run of characters, "*" any run without '/',
 * "?" one character other than '/', everything else literal. */
bool sbx_exec_glob_match(const char *p, const char *s) {
        if (!*p)
                return !*s;
        if (p[0] == '*' && p[1] == '*') {
                for (const char *t = s;; t++) {
                        if (sbx_exec_glob_match(p + 2, t))
                                return true;
                        if (!*t)
                                return false;
                }
        }
        if (*p == '*') {
                for (const char *t = s;; t++) {
                        if (sbx_exec_glob_match(p + 1, t))
                                return true;
                        if (!*t || *t == '/')
                                return false;
                }
        }
        if (!*s)
                return false;
        if (*p == '?')
                return *s != '/' && sbx_exec_glob_match(p + 1, s + 1);
        return *p == *s && sbx_exec_glob_match(p + 1, s + 1);
}

int sbx_exec_allow_match(const sbx_exec_rules *r, const char *path) {
        for (size_t i = 0; i < r->n_patterns; i++) {
                const char *pat = r->patterns[i];
                if (!strcmp(pat, "*"))
                        return (int) i;
                if (!strpbrk(pat, "/\\~"))
                        continue;       /* bare names never match (OpenClaw) */
                if (r->resolved && r->resolved[i]) {
                        /* a literal: the file it leads to, nothing else */
                        if (!strcmp(r->resolved[i], path))
                                return (int) i;
                        continue;
                }
                if (pat[0] == '/' && sbx_exec_glob_match(pat, path))
                        return (int) i;
        }
        return -1;
}

void sbx_exec_decide(const sbx_exec_rules *r, const sbx_exec_target *t, sbx_exec_verdict *ret) {
        *ret = (sbx_exec_verdict) { .decided = true, .allow = true };
        snprintf(ret->file, sizeof(ret->file), "%s", t->n_chain ? t->chain[0].path : "");
        snprintf(ret->key, sizeof(ret->key), "%s", r->active && r->key ? r->key : "");
        if (r->refuse_all_rule) {
                ret->allow = false;
                snprintf(ret->rule, sizeof(ret->rule), "%s", r->refuse_all_rule);
                snprintf(ret->key, sizeof(ret->key), "%s", r->refuse_all_key ?: "");
                return;
        }
        if (!r->active) {
                snprintf(ret->rule, sizeof(ret->rule), "no exec allowlist: every command may run");
                return;
        }
        for (size_t i = 0; i < t->n_chain; i++) {
                const char *f = t->chain[i].path;
                int m = sbx_exec_allow_match(r, f);
                if (m >= 0) {
                        if (i == 0)
                                snprintf(ret->rule, sizeof(ret->rule), "exec-allow: '%s' matches %s pattern '%s'",
                                         f, r->key ?: "allowlist", r->patterns[m]);
                        continue;
                }
                ret->allow = false;
                snprintf(ret->file, sizeof(ret->file), "%s", f);
                if (i == 0)
                        snprintf(ret->rule, sizeof(ret->rule), "exec-allow: '%s' matches no pattern of %s", f,
                                 r->key ?: "the allowlist");
                else
                        snprintf(ret->rule, sizeof(ret->rule),
                                 "exec-allow: interpreter '%s' of '%s' matches no pattern of %s", f,
                                 t->chain[i - 1].path, r->key ?: "the allowlist");
                return;
        }
}

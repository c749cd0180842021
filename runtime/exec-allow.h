/* SPDX-License-Identifier: MIT */
/* The exec decision (issue 6): a pure function of the resolved command and
 * the exec allowlist, made in the parent before anything is created.
 *
 * Patterns follow OpenClaw's exec-approvals allowlist (spec §5.5): a bare
 * "*" matches every executable; other patterns count only if they contain
 * '/', '\' or '~' (bare names such as "rg" never match); "~" is the sandbox
 * HOME; "**" matches across '/', "*" within one segment, "?" one non-'/'
 * character; anchored at both ends, case-sensitive; matched against the
 * resolved absolute path. sbx adds one thing: a pattern without wildcards is
 * itself resolved in the sandbox (so "/bin/sh" names the file /bin/sh leads
 * to), and the decision is on that file.
 *
 * Every file the kernel will execute for the command is decided on: the
 * command and each #! interpreter (a script is only as narrow as its
 * interpreter). The ELF loader (ld-linux) is implied, never decided on. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "exec-resolve.h"

typedef struct sbx_exec_rules {
        bool active;                  /* false: no allowlist, every command allowed */
        char *const *patterns;
        size_t n_patterns;
        const char *const *resolved;  /* per pattern: its file resolved in the sandbox, or NULL */
        const char *key;              /* option / config key the list comes from */
        const char *refuse_all_rule;  /* set: every exec refused with this rule ... */
        const char *refuse_all_key;   /* ... and this config key */
} sbx_exec_rules;

typedef struct sbx_exec_verdict {
        bool decided;                 /* false: no decision was made (error before) */
        bool allow;
        char file[4096];              /* the file refused, or the command's resolved file */
        char rule[512];               /* "exec-allow: '/usr/bin/id' matches no pattern of --exec-allow" */
        char key[128];                /* config key / option behind the rule */
        int status;                   /* sbx exit status when refused (126) or not found (127), else 0 */
} sbx_exec_verdict;

/* OpenClaw glob semantics; true when pattern matches the whole path. */
bool sbx_exec_glob_match(const char *pattern, const char *path);
/* True when the pattern has wildcards (then it is not resolved as a path). */
bool sbx_exec_pattern_is_glob(const char *pattern);
/* Index of the first pattern allowing path (resolved: the pattern's own
 * resolved file or NULL), or -1. */
int sbx_exec_allow_match(const sbx_exec_rules *r, const char *path);
/* Decide on every file of t. Pure: no syscalls. */
void sbx_exec_decide(const sbx_exec_rules *r, const sbx_exec_target *t, sbx_exec_verdict *ret);

/* SPDX-License-Identifier: MIT */
/* OpenClaw's bind-mount safety rules (validateSandboxSecurity), applied before a
 * resolved sandbox is turned into a launch plan:
 *   - blocked sources: '/', system dirs, the docker socket, home credential dirs;
 *     checked as written (normalised) and again through the deepest existing
 *     ancestor's realpath, so a symlinked parent cannot smuggle them in;
 *   - reserved targets /workspace and /agent unless dangerouslyAllowReservedContainerTargets;
 *   - sources outside the sandbox and agent workspaces unless
 *     dangerouslyAllowExternalBindSources.
 * Reads the filesystem (realpath) but changes nothing. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "resolve-internal.h"
#include "util/util.h"

static const char *const BLOCKED[] = {
        "/etc",
        "/private/etc",
        "/proc",
        "/sys",
        "/dev",
        "/root",
        "/boot",
        "/run",
        "/var/run",
        "/private/var/run",
        "/var/run/docker.sock",
        "/private/var/run/docker.sock",
        "/run/docker.sock",
        NULL,
};
static const char *const HOME_CREDENTIALS[] = {
        ".aws", ".cargo", ".config", ".docker", ".gnupg", ".netrc", ".npm", ".ssh", NULL,
};

static bool inside(const char *root, const char *p) {
        size_t n = strlen(root);
        if (!strcmp(root, "/"))
                return true;
        return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

/* realpath of the deepest existing ancestor, with the missing tail re-appended */
static char *canonical(const char *p) {
        _cleanup_free_ char *cur = strdup(p);
        char buf[PATH_MAX];
        if (!cur)
                return NULL;
        for (;;) {
                if (realpath(cur, buf)) {
                        const char *tail = p + strlen(cur);
                        char *r;
                        if (asprintf(&r, "%s%s", strcmp(buf, "/") || !*tail ? buf : "", tail) < 0)
                                return NULL;
                        return r;
                }
                char *slash = strrchr(cur, '/');
                if (!slash || slash == cur)
                        return strdup(p);
                *slash = '\0';
        }
}

/* why p may never be mounted, or NULL: p is '/', or equal to or below a blocked
 * path ("is"), or above one ("covers": /var holds /var/run, a home dir its .ssh;
 * OpenClaw's getBlockedReasonForSourcePath, kind "covers") */
static const char *blocked_reason(const char *p, const char *home, const char **verb) {
        *verb = "is";
        if (!strcmp(p, "/"))
                return "the host root";
        for (size_t i = 0; BLOCKED[i]; i++) {
                if (inside(BLOCKED[i], p))
                        return BLOCKED[i];
                if (inside(p, BLOCKED[i]))
                        return *verb = "covers", BLOCKED[i];
        }
        for (size_t i = 0; home && HOME_CREDENTIALS[i]; i++) {
                char cred[PATH_MAX];
                snprintf(cred, sizeof(cred), "%s/%s", home, HOME_CREDENTIALS[i]);
                if (inside(cred, p))
                        return "a home credential directory";
                if (inside(p, cred))
                        return *verb = "covers", "a home credential directory";
        }
        return NULL;
}

/* docker's ValidateMountMode (moby volume/mounts linux_parser.go) for a -v
 * bind: each option one of rw/ro, z/Z, a propagation, nocopy, a consistency
 * (the last three no-ops on Linux), at most one of each kind, case as
 * written. OpenClaw passes docker.binds verbatim: docker refuses the rest. */
static bool docker_mount_mode_valid(const char *mode) {
        static const char *const kinds[][7] = {
                { "rw", "ro" },
                { "z", "Z" },
                { "private", "rprivate", "slave", "rslave", "shared", "rshared" },
                { "nocopy" },
                { "consistent", "cached", "delegated" },
        };
        unsigned count[ELEMENTSOF(kinds)] = {};

        for (const char *o = mode; *o;) {
                size_t n = strcspn(o, ",");
                bool found = false;
                for (size_t k = 0; k < ELEMENTSOF(kinds) && !found; k++)
                        for (size_t j = 0; j < ELEMENTSOF(kinds[k]) && kinds[k][j] && !found; j++)
                                if (strlen(kinds[k][j]) == n && !strncmp(o, kinds[k][j], n))
                                        found = true, count[k]++;
                if (!found)
                        return false;
                o += n;
                if (*o == ',' && !*++o)
                        return false;
        }
        for (size_t k = 0; k < ELEMENTSOF(kinds); k++)
                if (count[k] > 1)
                        return false;
        return true;
}

int sbx_check_bind_safety(const sbx_resolved *r, char **ret_canonical, size_t *ret_index, sbx_error *reterr) {
        _cleanup_free_ char *home = sbx_home_dir();
        _cleanup_free_ char *home_c = home ? canonical(home) : NULL;
        /* the OS home too, as given (normalised) and canonical: OpenClaw's
         * getBlockedHomeRoots takes both forms of every home it knows */
        const char *os_home_raw = getenv("HOME");
        _cleanup_free_ char *os_home = os_home_raw && *os_home_raw ? sbx_policy_path_normalize(os_home_raw) : NULL;
        _cleanup_free_ char *os_home_c = os_home ? canonical(os_home) : NULL;
        if (os_home_raw && *os_home_raw && (!os_home || !os_home_c))
                return -ENOMEM;

        for (size_t i = 0; i < r->docker.binds.n; i++) {
                const char *spec = r->docker.binds.v[i];
                if (ret_index)
                        *ret_index = i; /* the bind at fault, when this one is refused */
                _cleanup_free_ char *src = sbx_bind_source(spec);
                if (!src)
                        return -ENOMEM;
                const char *rest = spec + strlen(src);
                _cleanup_free_ char *dst = *rest == ':' ? strdup(rest + 1) : strdup(src);
                if (!dst)
                        return -ENOMEM;
                char *colon = strchr(dst, ':');
                if (colon)
                        *colon = '\0';
                if (colon && !docker_mount_mode_valid(colon + 1))
                        return sbx_error_set(reterr, -EPERM,
                                             "docker.binds[%zu] \"%s\": invalid mode: %s (docker refuses it: one "
                                             "each of ro/rw, z/Z, a propagation, nocopy, a consistency)",
                                             i, spec, colon + 1);
                _cleanup_free_ char *n = sbx_policy_path_normalize(src), *c = n ? canonical(n) : NULL,
                                    *nd = sbx_policy_path_normalize(dst);
                if (!n || !c || !nd)
                        return -ENOMEM;
                const char *homes[] = {home, home_c, os_home, os_home_c};
                for (size_t h = 0; h < ELEMENTSOF(homes); h++) {
                        if (homes[h] && !strcmp(homes[h], "/"))
                                continue; /* OpenClaw skips a home that is '/' */
                        const char *verb, *why = blocked_reason(n, homes[h], &verb);
                        if (!why)
                                why = blocked_reason(c, homes[h], &verb);
                        if (why)
                                return sbx_error_set(
                                        reterr, -EPERM,
                                        "docker.binds[%zu] \"%s\": source %s %s, which sandboxes may "
                                        "never mount",
                                        i, spec, verb, why);
                }
                if (r->docker.allow_reserved_targets != SBX_TRUE &&
                    (inside("/workspace", nd) || inside("/agent", nd)))
                        return sbx_error_set(
                                reterr, -EPERM,
                                "docker.binds[%zu] \"%s\": target %s is reserved for the workspace "
                                "(set docker.dangerouslyAllowReservedContainerTargets to allow it)",
                                i, spec, nd);
                if (r->docker.allow_external_binds != SBX_TRUE) {
                        /* both the source as written (normalised) and where it leads
                         * (canonical) must lie in a root, each root taken as written and
                         * canonical (OpenClaw's validateBindMounts: enforceSourcePathPolicy
                         * on both): a symlink the sandbox planted in its workspace leads
                         * nowhere outside it */
                        bool ok_n = false, ok_c = false;
                        const char *roots[] = {r->host_workspace_dir, r->agent_workspace_dir};
                        for (size_t k = 0; k < ELEMENTSOF(roots); k++) {
                                if (!roots[k] || roots[k][0] != '/')
                                        continue;
                                _cleanup_free_ char *rn = sbx_policy_path_normalize(roots[k]),
                                                    *rc = rn ? canonical(rn) : NULL;
                                if (!rn || !rc)
                                        return -ENOMEM;
                                ok_n = ok_n || inside(rn, n) || inside(rc, n);
                                ok_c = ok_c || inside(rn, c) || inside(rc, c);
                        }
                        if (!ok_n || !ok_c)
                                return sbx_error_set(
                                        reterr, -EPERM,
                                        "docker.binds[%zu] \"%s\": source %s%s is outside the sandbox and "
                                        "agent workspaces (set docker.dangerouslyAllowExternalBindSources "
                                        "to allow it)",
                                        i, spec, ok_n ? "leads to " : "", ok_n ? c : n);
                }
                if (ret_canonical)
                        ret_canonical[i] = TAKE_PTR(c);
        }
        return 0;
}

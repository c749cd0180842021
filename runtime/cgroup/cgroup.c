/* SPDX-License-Identifier: MIT */
/* Resource limits on cgroup v2 (issue 5).
 *
 * One cgroup per sandbox, <base>/sbx-<name>, created and configured here in
 * the parent before clone3; the launcher passes ret->dirfd as clone3's
 * .cgroup with CLONE_INTO_CGROUP, so the child never runs outside it.
 *
 * Where <base> is:
 *   - $SBX_CGROUP_ROOT if set (a directory inside the cgroup2 mount);
 *   - as root: <cgroup2 mount>/sbx.slice, a subtree sbx owns;
 *   - unprivileged: the parent of the caller's own cgroup (/proc/self/cgroup
 *     "0::/path"), i.e. sandbox cgroups are siblings of the caller's leaf
 *     inside its delegated subtree (systemd user@.service Delegate=, or a
 *     directory root chowned to the user). sbx never writes above that parent.
 *
 * Safety of the writes (why each is ours to do):
 *   - subtree_control: only from the anchor (mount root as root, the
 *     delegated parent otherwise) down to <base>; a cgroup that holds
 *     processes refuses with EBUSY (no internal processes rule) and we report
 *     it instead of moving anybody: sbx never moves processes it did not start.
 *   - mkdir/limits/cgroup.kill/rmdir: only on <base>/sbx-<name>, which this
 *     call created (a stale empty one from a crash is removed and recreated;
 *     a populated one is refused as "in use").
 *   - Unprivileged, the sandbox runs with the caller's uid, which owns the
 *     cgroup files. It cannot raise its limits or leave only because the
 *     launcher gives it a cgroup namespace rooted at its cgroup
 *     (CLONE_NEWCGROUP with CLONE_INTO_CGROUP) and cgroup2 is mounted with
 *     nsdelegate, which makes the namespace root's interface files and
 *     migrations across it read-only from inside
 *     (Documentation/admin-guide/cgroup-v2.rst, "Delegation Containment").
 *     Without nsdelegate the delegated limits are therefore not enforceable.
 *
 * A limit that cannot be enforced is an error naming the limit, the
 * controller and the fix, unless limits->best_effort, which records it in
 * ret->unenforced (never silently unlimited).
 */
#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-internal.h"
#include "util/util.h"

static inline void fclosep_(FILE **f) {
        if (*f)
                fclose(*f);
}

#define CPU_PERIOD_USEC 100000
#define CPU_QUOTA_MIN_USEC 1000                 /* kernel minimum: cpus >= 0.01 */
#define MEMORY_MIN_BYTES (6 * 1024 * 1024)      /* Docker's minimum --memory */

/* ------------------------------------------------------------------------ */
/* Docker units                                                              */

int sbx_parse_size(const char *s, int64_t *ret) {
        char *end;
        double v;
        double mul = 1;

        if (!s || !*s || isspace((unsigned char) *s) || *s == '-' || *s == '+')
                return -EINVAL;
        errno = 0;
        v = strtod(s, &end);
        if (errno || end == s || v < 0 || !isfinite(v))
                return -EINVAL;
        /* strtod also accepts hex, "inf" and exponents: digits and '.' only */
        for (const char *p = s; p < end; p++)
                if (!isdigit((unsigned char) *p) && *p != '.')
                        return -EINVAL;
        /* docker's units (go-units RAMInBytes): one optional space, then b,
         * or k m g t p with an optional b or ib, any case */
        if (*end == ' ' && end[1])
                end++;
        if (*end) {
                switch (tolower((unsigned char) *end)) {
                case 'b': mul = 1; break;
                case 'k': mul = 1024.0; break;
                case 'm': mul = 1024.0 * 1024; break;
                case 'g': mul = 1024.0 * 1024 * 1024; break;
                case 't': mul = 1024.0 * 1024 * 1024 * 1024; break;
                case 'p': mul = 1024.0 * 1024 * 1024 * 1024 * 1024; break;
                default: return -EINVAL;
                }
                end++;
                if (mul > 1 && (*end == 'i' || *end == 'I') && (end[1] == 'b' || end[1] == 'B'))
                        end++;
                if (mul > 1 && (*end == 'b' || *end == 'B'))
                        end++;
                if (*end)
                        return -EINVAL;
        }
        v *= mul;
        if (v >= 9223372036854775807.0)
                return -ERANGE;
        *ret = (int64_t) v;
        return 0;
}

int sbx_parse_cpus(const char *s, int64_t *ret) {
        char *end;
        double v;
        int64_t m;

        if (!s || !*s || isspace((unsigned char) *s))
                return -EINVAL;
        for (const char *p = s; *p; p++)
                if (!isdigit((unsigned char) *p) && *p != '.')
                        return -EINVAL;
        errno = 0;
        v = strtod(s, &end);
        if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e6)
                return -EINVAL;
        m = (int64_t) (v * 1000 + 0.5);
        if (m <= 0)
                return -EINVAL;
        *ret = m;
        return 0;
}

/* ------------------------------------------------------------------------ */
/* small file helpers                                                        */

int cg_read_small(int dirfd, const char *path, char *buf, size_t len) {
        _cleanup_close_ int fd = -EBADF;
        ssize_t n;

        fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, len - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
                buf[--n] = '\0';
        return (int) n;
}

int cg_write_small(int dirfd, const char *path, const char *value) {
        _cleanup_close_ int fd = -EBADF;
        size_t len = strlen(value);
        ssize_t n;

        fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = write(fd, value, len);
        if (n < 0)
                return -errno;
        if ((size_t) n != len)
                return -EIO;
        return 0;
}

bool sbx_cgroup_list_has(const char *list, const char *c) {
        size_t l = strlen(c);

        for (const char *p = list; p && (p = strstr(p, c)); p += l)
                if ((p == list || p[-1] == ' ') && (p[l] == '\0' || p[l] == ' '))
                        return true;
        return false;
}

const char *sbx_cgroup_mode_to_string(sbx_cgroup_mode m) {
        switch (m) {
        case SBX_CGROUP_MODE_NONE:   return "none";
        case SBX_CGROUP_MODE_V1:     return "v1";
        case SBX_CGROUP_MODE_HYBRID: return "hybrid";
        case SBX_CGROUP_MODE_V2:     return "v2";
        case _SBX_CGROUP_MODE_MAX:
        default:                     return "invalid";
        }
}

/* ------------------------------------------------------------------------ */
/* host discovery                                                            */

static void unescape_mount_path(char *s) {
        char *w = s;

        for (char *r = s; *r; ) {
                if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
                    r[3] >= '0' && r[3] <= '7') {
                        *w++ = (char) ((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
                        r += 4;
                } else
                        *w++ = *r++;
        }
        *w = '\0';
}

/* A v1 mount: keep it if it carries a controller sbx uses and is not a
 * second mount of a hierarchy already seen. */
static void add_v1_hierarchy(sbx_cgroup_host *h, const char *mnt, const char *opts) {
        static const char *const used[] = { "memory", "pids", "cpu", "cpuacct", "cpuset", "blkio",
                                             "freezer", "devices" };
        char ctrl[64] = "";

        for (const char *p = opts; *p; ) {
                size_t l = strcspn(p, ",");
                for (size_t i = 0; i < ELEMENTSOF(used); i++)
                        if (strlen(used[i]) == l && !strncmp(p, used[i], l))
                                snprintf(ctrl + strlen(ctrl), sizeof(ctrl) - strlen(ctrl), "%s%s",
                                         *ctrl ? " " : "", used[i]);
                p += l + (p[l] == ',');
        }
        if (!*ctrl || h->n_v1 >= SBX_CGROUP_V1_MAX || strlen(mnt) >= sizeof(h->v1_mount[0]))
                return;
        for (unsigned i = 0; i < h->n_v1; i++)
                if (!strcmp(h->v1_controllers[i], ctrl))
                        return;
        snprintf(h->v1_mount[h->n_v1], sizeof(h->v1_mount[0]), "%s", mnt);
        snprintf(h->v1_controllers[h->n_v1], sizeof(h->v1_controllers[0]), "%s", ctrl);
        h->n_v1++;
}

/* Scan /proc/self/mounts: the cgroup2 mount to use (the canonical places
 * first) and whether any v1 hierarchy exists. */
static void probe_mounts(sbx_cgroup_host *h) {
        _cleanup_(fclosep_) FILE *f = NULL;
        char line[4096];
        bool v1 = false;
        int best = 99;

        f = fopen("/proc/self/mounts", "re");
        if (!f)
                return;
        while (fgets(line, sizeof(line), f)) {
                char dev[256], mnt[2048], type[64], opts[1024];
                int rank;

                if (sscanf(line, "%255s %2047s %63s %1023s", dev, mnt, type, opts) != 4)
                        continue;
                if (!strcmp(type, "cgroup")) {
                        v1 = true;
                        unescape_mount_path(mnt);
                        add_v1_hierarchy(h, mnt, opts);
                        continue;
                }
                if (strcmp(type, "cgroup2"))
                        continue;
                unescape_mount_path(mnt);
                rank = !strcmp(mnt, "/sys/fs/cgroup") ? 0 :
                       !strcmp(mnt, "/sys/fs/cgroup/unified") ? 1 : 2;
                if (rank >= best)
                        continue;
                best = rank;
                snprintf(h->mount, sizeof(h->mount), "%s", mnt);
                h->nsdelegate = sbx_cgroup_list_has(opts, "nsdelegate") ||
                                strstr(opts, ",nsdelegate") || !strncmp(opts, "nsdelegate", 10);
        }
        if (h->mount[0])
                h->mode = v1 ? SBX_CGROUP_MODE_HYBRID : SBX_CGROUP_MODE_V2;
        else
                h->mode = v1 ? SBX_CGROUP_MODE_V1 : SBX_CGROUP_MODE_NONE;
}

static void probe_self(sbx_cgroup_host *h) {
        _cleanup_(fclosep_) FILE *f = NULL;
        char line[PATH_MAX + 16];

        f = fopen("/proc/self/cgroup", "re");
        if (!f)
                return;
        while (fgets(line, sizeof(line), f)) {
                if (strncmp(line, "0::", 3))
                        continue;
                line[strcspn(line, "\n")] = '\0';
                snprintf(h->self, sizeof(h->self), "%s", line + 3);
                return;
        }
}

static bool path_is_inside(const char *path, const char *dir) {
        size_t l = strlen(dir);

        return !strncmp(path, dir, l) && (path[l] == '\0' || path[l] == '/') &&
               !strstr(path, "/../") && !strstr(path, "/./") &&
               (strlen(path) < 3 || strcmp(path + strlen(path) - 3, "/.."));
}

static bool writable(const char *path) {
        return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

/* The deepest common ancestor directory of two paths below the mount. */
static void common_ancestor(const char *a, const char *b, char *buf, size_t len) {
        size_t i = 0, last = 0;

        while (a[i] && a[i] == b[i]) {
                if (a[i] == '/')
                        last = i;
                i++;
        }
        if ((a[i] == '\0' && (b[i] == '/' || b[i] == '\0')) || (b[i] == '\0' && a[i] == '/'))
                last = i;
        snprintf(buf, len, "%.*s", (int) last, a);
}

static int set_problem(sbx_cgroup_host *h, int code, const char *fmt, ...) _printf_(3, 4);
static int set_problem(sbx_cgroup_host *h, int code, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(h->problem, sizeof(h->problem), fmt, ap);
        va_end(ap);
        h->usable = code;
        return code;
}

/* Decide base and anchor; check the base is usable at all. */
static void probe_base(sbx_cgroup_host *h) {
        const char *env = getenv(SBX_CGROUP_ROOT_ENV);
        char own[PATH_MAX + 64], procs[PATH_MAX + 32], ancestor[PATH_MAX];
        char *slash;

        snprintf(own, sizeof(own), "%s%s", h->mount, strcmp(h->self, "/") ? h->self : "");
        snprintf(procs, sizeof(procs), "%s/cgroup.subtree_control", h->mount);
        h->privileged = geteuid() == 0 && writable(procs);

        if (env && *env) {
                h->from_env = true;
                if (env[0] != '/' || !path_is_inside(env, h->mount) || strlen(env) >= PATH_MAX) {
                        set_problem(h, -EINVAL, "%s='%s' is not a directory inside the cgroup2 "
                                    "mount %s", SBX_CGROUP_ROOT_ENV, env, h->mount);
                        return;
                }
                snprintf(h->base, sizeof(h->base), "%s", env);
                while (strlen(h->base) > 1 && h->base[strlen(h->base) - 1] == '/')
                        h->base[strlen(h->base) - 1] = '\0';
                snprintf(h->anchor, sizeof(h->anchor), "%s", h->privileged ? h->mount : h->base);
        } else if (h->privileged) {
                snprintf(h->base, sizeof(h->base), "%s/sbx.slice", h->mount);
                snprintf(h->anchor, sizeof(h->anchor), "%s", h->mount);
        } else {
                if (!h->self[0] || !strcmp(h->self, "/") || strstr(h->self, "/..")) {
                        set_problem(h, -EPERM, "not root and this process's cgroup ('%s') has no "
                                    "parent to create sandbox cgroups in; fix: run sbx in a "
                                    "delegated cgroup (systemd-run --user --scope -p Delegate=yes "
                                    "sbx ...) or set %s to a cgroup directory you own",
                                    h->self[0] ? h->self : "?", SBX_CGROUP_ROOT_ENV);
                        return;
                }
                snprintf(h->base, sizeof(h->base), "%s", own);
                slash = strrchr(h->base, '/');
                *slash = '\0';
                snprintf(h->anchor, sizeof(h->anchor), "%s", h->base);
        }

        if (access(h->anchor, F_OK) < 0) {
                set_problem(h, -ENOENT, "cgroup '%s' does not exist; fix: create it (mkdir) and "
                            "delegate it, or unset %s", h->anchor, SBX_CGROUP_ROOT_ENV);
                return;
        }
        snprintf(procs, sizeof(procs), "%s/cgroup.controllers", h->anchor);
        (void) cg_read_small(AT_FDCWD, procs, h->available, sizeof(h->available));

        if (h->privileged)
                return;
        /* Delegated: we need the directory and its subtree_control (to create
         * and configure children) and the cgroup.procs of the common ancestor
         * of our cgroup and the sandbox's (clone3 into it is a migration). */
        snprintf(procs, sizeof(procs), "%s/cgroup.subtree_control", h->anchor);
        if (!writable(h->anchor) || !writable(procs)) {
                set_problem(h, -EACCES, "cgroup '%s' is not delegated to uid %u (cannot write it "
                            "or its cgroup.subtree_control); fix: run sbx under systemd user "
                            "delegation (systemd-run --user --scope -p Delegate=yes sbx ...), "
                            "or as root chown that directory with its cgroup.procs, "
                            "cgroup.subtree_control and cgroup.threads to you, or set %s",
                            h->anchor, (unsigned) geteuid(), SBX_CGROUP_ROOT_ENV);
                return;
        }
        common_ancestor(own, h->base, ancestor, sizeof(ancestor));
        snprintf(procs, sizeof(procs), "%s/cgroup.procs", ancestor);
        if (!path_is_inside(ancestor, h->mount) || !writable(procs)) {
                set_problem(h, -EACCES, "cannot move sandboxes from this process's cgroup to '%s': "
                            "'%s' (their common ancestor) is not writable by uid %u; fix: delegate "
                            "the common ancestor or set %s below this process's delegated parent",
                            h->base, procs, (unsigned) geteuid(), SBX_CGROUP_ROOT_ENV);
                return;
        }
        if (!h->nsdelegate)
                set_problem(h, -EPERM, "cgroup2 at %s is mounted without nsdelegate, so a "
                            "sandbox running as your uid could raise its own limits; fix: "
                            "remount with nsdelegate (mount -o remount,nsdelegate %s; systemd "
                            "does this by default) or run sbx as root", h->mount, h->mount);
}

int sbx_cgroup_probe_host(sbx_cgroup_host *ret) {
        sbx_cgroup_host *h = ret;
        char path[PATH_MAX + 32];

        memset(h, 0, sizeof(*h));
        probe_mounts(h);
        probe_self(h);
        if (h->mount[0]) {
                snprintf(path, sizeof(path), "%s/cgroup.controllers", h->mount);
                (void) cg_read_small(AT_FDCWD, path, h->root_controllers, sizeof(h->root_controllers));
        }
        /* v1 carries the limits when cgroup2 has none of the controllers */
        h->use_v1 = h->n_v1 > 0 && !sbx_cgroup_list_has(h->root_controllers, "memory") &&
                    !sbx_cgroup_list_has(h->root_controllers, "pids") &&
                    !sbx_cgroup_list_has(h->root_controllers, "cpu");
        if (h->use_v1) {
                cg_v1_probe_base(h);
                return 0;
        }
        if (!h->mount[0]) {
                set_problem(h, -EOPNOTSUPP, "no cgroup v2 hierarchy is mounted (cgroup mode %s); "
                            "fix: boot with systemd.unified_cgroup_hierarchy=1 (Debian 11+ "
                            "default)", sbx_cgroup_mode_to_string(h->mode));
                return 0;
        }
        probe_base(h);
        return 0;
}

const char *sbx_cgroup_host_hierarchy(const sbx_cgroup_host *h) {
        if (h->use_v1)
                return "v1";
        return h->mount[0] ? "v2" : "none";
}

void sbx_cgroup_missing_fix(const sbx_cgroup_host *h, const char *c, char *buf, unsigned len) {
        if (h->use_v1) {
                snprintf(buf, len, "no cgroup v1 hierarchy of this host has the %s controller "
                         "mounted (v1 controllers here: %s); fix: mount it (mount -t cgroup -o %s "
                         "cgroup /sys/fs/cgroup/%s)", c, h->available[0] ? h->available : "none",
                         c, c);
        } else if (!sbx_cgroup_list_has(h->root_controllers, c)) {
                if (h->mode == SBX_CGROUP_MODE_HYBRID)
                        snprintf(buf, len, "this host has hybrid cgroups: the %s controller is "
                                 "bound to cgroup v1, the cgroup2 hierarchy at %s does not have "
                                 "it; fix: boot with systemd.unified_cgroup_hierarchy=1 "
                                 "cgroup_no_v1=all", c, h->mount);
                else
                        snprintf(buf, len, "the %s controller is not available in the cgroup2 "
                                 "hierarchy at %s; fix: enable it in the kernel or free it from "
                                 "cgroup v1 (cgroup_no_v1=%s)", c, h->mount, c);
        } else if (h->privileged)
                snprintf(buf, len, "the %s controller is not enabled down to %s; fix: enable "
                         "it in the parents' cgroup.subtree_control", c, h->anchor);
        else
                snprintf(buf, len, "the %s controller is not delegated to %s; fix: delegate it "
                         "(systemctl edit user@.service: [Service] Delegate=cpu memory pids), "
                         "or enable it in the parent's cgroup.subtree_control", c, h->anchor);
}

/* ------------------------------------------------------------------------ */
/* limits                                                                    */

enum {
        LIM_MEMORY,
        LIM_SWAP,
        LIM_PIDS,
        LIM_CPUS,
        _LIM_MAX,
};

static const struct {
        const char *key;         /* openclaw docker.* key (also used in ret->unenforced) */
        const char *flag;        /* sbx run option */
        const char *controller;
} limit_desc[_LIM_MAX] = {
        [LIM_MEMORY] = { "memory",     "--memory",      "memory" },
        [LIM_SWAP]   = { "memorySwap", "--memory-swap", "memory" },
        [LIM_PIDS]   = { "pidsLimit",  "--pids-limit",  "pids" },
        [LIM_CPUS]   = { "cpus",       "--cpus",        "cpu" },
};

/* What to write: "" = nothing. explicit[] marks limits the user set (an
 * implied swap limit that cannot be written is not an error). */
typedef struct limit_values {
        char value[_LIM_MAX][64];
        bool explicit_set[_LIM_MAX];
} limit_values;

static bool is_set(int64_t v) {
        return v != SBX_LIMIT_UNSET;
}

/* Docker's semantics: memory 0 = unlimited; memorySwap is memory + swap
 * (-1 = unlimited swap, unset = same amount of swap as memory), needs
 * memory and must not be below it; pidsLimit 0/-1 = unlimited; cpus in
 * 0.01 .. online CPUs, period 100 ms. */
static int limits_compile(const sbx_limits *l, limit_values *v, sbx_error *reterr) {
        bool mem = is_set(l->memory) && l->memory > 0;

        memset(v, 0, sizeof(*v));
        if (is_set(l->memory)) {
                v->explicit_set[LIM_MEMORY] = true;
                if (mem && l->memory < MEMORY_MIN_BYTES)
                        return sbx_error_set(reterr, -EINVAL, "--memory (docker.memory) %lld bytes "
                                             "is below the minimum of 6m",
                                             (long long) l->memory);
                if (l->memory < 0 && l->memory != SBX_LIMIT_UNLIMITED)
                        return sbx_error_set(reterr, -EINVAL, "--memory (docker.memory) must not "
                                             "be negative");
                if (mem)
                        snprintf(v->value[LIM_MEMORY], 64, "%lld", (long long) l->memory);
                else
                        snprintf(v->value[LIM_MEMORY], 64, "max");
        }
        if (is_set(l->memory_swap) && l->memory_swap != 0) {
                v->explicit_set[LIM_SWAP] = true;
                if (!mem)
                        return sbx_error_set(reterr, -EINVAL, "--memory-swap (docker.memorySwap) "
                                             "needs --memory (docker.memory): memorySwap is the "
                                             "total of memory and swap");
                if (l->memory_swap == SBX_LIMIT_UNLIMITED)
                        snprintf(v->value[LIM_SWAP], 64, "max");
                else if (l->memory_swap < l->memory)
                        return sbx_error_set(reterr, -EINVAL, "--memory-swap (docker.memorySwap) "
                                             "%lld must not be below --memory (docker.memory) "
                                             "%lld: it is the total of memory and swap",
                                             (long long) l->memory_swap, (long long) l->memory);
                else
                        snprintf(v->value[LIM_SWAP], 64, "%lld",
                                 (long long) (l->memory_swap - l->memory));
        } else if (mem)
                snprintf(v->value[LIM_SWAP], 64, "%lld", (long long) l->memory);
        if (!is_set(l->pids)) {
                /* sbx's default cap (issue 15): not explicit, so a host
                 * without a pids controller skips it instead of refusing */
                int64_t d = sbx_limits_default_pids();
                if (d > 0)
                        snprintf(v->value[LIM_PIDS], 64, "%lld", (long long) d);
        } else {
                v->explicit_set[LIM_PIDS] = true;
                if (l->pids > 0)
                        snprintf(v->value[LIM_PIDS], 64, "%lld", (long long) l->pids);
                else if (l->pids == 0 || l->pids == SBX_LIMIT_UNLIMITED) {
                        /* none: nothing to enforce, never refused */
                        snprintf(v->value[LIM_PIDS], 64, "max");
                        v->explicit_set[LIM_PIDS] = false;
                }
                else
                        return sbx_error_set(reterr, -EINVAL, "--pids-limit (docker.pidsLimit) "
                                             "must be a positive number, 0 or -1 (unlimited)");
        }
        if (is_set(l->cpu_millis) && l->cpu_millis != 0) {
                long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
                v->explicit_set[LIM_CPUS] = true;
                if (l->cpu_millis == SBX_LIMIT_UNLIMITED)
                        snprintf(v->value[LIM_CPUS], 64, "max %d", CPU_PERIOD_USEC);
                else if (l->cpu_millis < 0 || l->cpu_millis * (CPU_PERIOD_USEC / 1000) <
                                                      CPU_QUOTA_MIN_USEC)
                        return sbx_error_set(reterr, -EINVAL, "--cpus (docker.cpus) must be at "
                                             "least 0.01");
                else if (ncpu > 0 && l->cpu_millis > ncpu * 1000)
                        return sbx_error_set(reterr, -EINVAL, "--cpus (docker.cpus) %lld.%03lld "
                                             "is more than the %ld CPUs available",
                                             (long long) l->cpu_millis / 1000,
                                             (long long) l->cpu_millis % 1000, ncpu);
                else
                        snprintf(v->value[LIM_CPUS], 64, "%lld %d",
                                 (long long) l->cpu_millis * (CPU_PERIOD_USEC / 1000),
                                 CPU_PERIOD_USEC);
        }
        return 0;
}

int64_t sbx_limits_default_pids(void) {
        const char *e = getenv(SBX_DEFAULT_PIDS_LIMIT_ENV);
        char *end;
        long long v;

        if (!e || !*e)
                return SBX_DEFAULT_PIDS_LIMIT;
        errno = 0;
        v = strtoll(e, &end, 10);
        if (errno || *end || v < 0)
                return SBX_DEFAULT_PIDS_LIMIT;   /* sbx_limits_check_env() reports it */
        return v;
}

int sbx_limits_check_env(sbx_error *reterr) {
        const char *e = getenv(SBX_DEFAULT_PIDS_LIMIT_ENV);
        char *end;
        long long v;

        if (!e || !*e)
                return 0;
        errno = 0;
        v = strtoll(e, &end, 10);
        if (errno || *end || v < 0)
                return sbx_error_set(reterr, -EINVAL, "%s='%s': must be a number of processes, "
                                     "0 for no default cap", SBX_DEFAULT_PIDS_LIMIT_ENV, e);
        return 0;
}

static int sanitize_name(const char *name, char *buf, size_t len, sbx_error *reterr) {
        size_t n = 0;

        if (!name || !*name)
                return sbx_error_set(reterr, -EINVAL, "sandbox cgroup name is empty");
        if (strncmp(name, "sbx-", 4))
                n = (size_t) snprintf(buf, len, "sbx-");
        for (const char *p = name; *p && n + 1 < len && n < 128; p++)
                buf[n++] = (isalnum((unsigned char) *p) || strchr("-_.", *p)) ? *p : '_';
        buf[n] = '\0';
        return 0;
}

/* ------------------------------------------------------------------------ */
/* creation                                                                  */

/* Enable controllers c[] from the anchor down to the base, creating the
 * directories in between (root: sbx.slice). */
int cg_v2_enable_down(const sbx_cgroup_host *h, const char *ctrl, sbx_error *reterr) {
        char dir[PATH_MAX], file[PATH_MAX + 32], have[256];
        size_t alen = strlen(h->anchor);
        int r;

        if (strncmp(h->base, h->anchor, alen))
                return sbx_error_set(reterr, -EINVAL, "cgroup base '%s' outside '%s'", h->base,
                                     h->anchor);
        snprintf(dir, sizeof(dir), "%s", h->anchor);
        for (;;) {
                const char *next;
                char want[256] = "";

                if (strlen(dir) > alen)
                        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                                return sbx_error_set(reterr, -errno, "create cgroup '%s'", dir);
                snprintf(file, sizeof(file), "%s/cgroup.subtree_control", dir);
                have[0] = '\0';
                (void) cg_read_small(AT_FDCWD, file, have, sizeof(have));
                for (const char *p = ctrl; *p; ) {
                        size_t l = strcspn(p, " ");
                        char c[32];
                        snprintf(c, sizeof(c), "%.*s", (int) l, p);
                        if (*c && !sbx_cgroup_list_has(have, c))
                                snprintf(want + strlen(want), sizeof(want) - strlen(want),
                                         "%s+%s", *want ? " " : "", c);
                        p += l + (p[l] == ' ');
                }
                if (*want) {
                        r = cg_write_small(AT_FDCWD, file, want);
                        if (r == -EBUSY)
                                return sbx_error_set(reterr, r, "enable '%s' in %s: the cgroup "
                                                     "holds processes itself (cgroup v2 'no "
                                                     "internal processes' rule); fix: move them "
                                                     "into a leaf cgroup, or set %s", want, file,
                                                     SBX_CGROUP_ROOT_ENV);
                        if (r < 0)
                                return sbx_error_set(reterr, r, "enable '%s' in %s", want, file);
                }
                if (!strcmp(dir, h->base))
                        return 0;
                next = h->base + strlen(dir) + 1;
                snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%.*s",
                         (int) strcspn(next, "/"), next);
        }
}

int cg_populated(const char *path) {
        char file[PATH_MAX + 32], buf[512];
        int r;

        snprintf(file, sizeof(file), "%s/cgroup.procs", path);
        r = cg_read_small(AT_FDCWD, file, buf, sizeof(buf));
        return r < 0 ? r : r > 0;
}

int cg_v2_make_leaf(const char *path, sbx_error *reterr) {
        int r;

        if (mkdir(path, 0755) == 0)
                return 0;
        if (errno != EEXIST)
                return sbx_error_set(reterr, -errno, "create cgroup '%s'", path);
        /* Left by a crashed sbx if empty; in use by a running sandbox if not. */
        r = cg_populated(path);
        if (r != 0)
                return sbx_error_set(reterr, r < 0 ? r : -EBUSY, "cgroup '%s' already exists and "
                                     "is in use by another sandbox of that name", path);
        if (rmdir(path) < 0 || mkdir(path, 0755) < 0)
                return sbx_error_set(reterr, -errno, "recreate stale cgroup '%s'", path);
        return 0;
}

static const char *lim_file(int i) {
        switch (i) {
        case LIM_MEMORY: return "memory.max";
        case LIM_SWAP:   return "memory.swap.max";
        case LIM_PIDS:   return "pids.max";
        case LIM_CPUS:   return "cpu.max";
        default:         return NULL;
        }
}

static void append_key(char *buf, size_t len, const char *key) {
        char a[300], b[64];

        snprintf(a, sizeof(a), ",%s,", buf);
        snprintf(b, sizeof(b), ",%s,", key);
        if (!strstr(a, b))
                snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "", key);
}

/* "max" -> SBX_LIMIT_UNLIMITED, a number -> itself. */
static int64_t value_num(const char *s) {
        return strncmp(s, "max", 3) ? strtoll(s, NULL, 10) : SBX_LIMIT_UNLIMITED;
}

/* v1 hierarchies (issue 15): the same limits as memory.max, memory.swap.max,
 * pids.max and cpu.max, in the v1 files. */
static int prepare_v1(const sbx_cgroup_host *h, const char *leaf, const char *ctrl, const sbx_limits *limits,
                      const limit_values *v, const bool enforce[_LIM_MAX], char *keys, size_t keys_len,
                      char *why, size_t why_len, sbx_cgroup *cg, sbx_error *reterr) {
        sbx_cgroup_resources res;
        char rel[SBX_CGROUP_V1_PATH], used[96];
        int r;

        sbx_cgroup_resources_init(&res);
        if (enforce[LIM_MEMORY])
                res.memory = value_num(v->value[LIM_MEMORY]);
        if (enforce[LIM_SWAP] && !h->v1_memsw) {
                /* no swap accounting: memory.memsw.* missing */
                if (v->explicit_set[LIM_SWAP]) {
                        if (!limits->best_effort)
                                return sbx_error_set(reterr, -EOPNOTSUPP, "resource limits "
                                                     "[memorySwap] cannot be enforced: --memory-swap "
                                                     "(docker.memorySwap) needs swap accounting "
                                                     "(memory.memsw.limit_in_bytes is missing); fix: "
                                                     "boot with swapaccount=1, or rerun with --limits "
                                                     "best-effort to run without it");
                        append_key(keys, keys_len, limit_desc[LIM_SWAP].key);
                        if (!*why)
                                snprintf(why, why_len, "--memory-swap (docker.memorySwap) needs swap "
                                         "accounting (memory.memsw.limit_in_bytes is missing); fix: "
                                         "boot with swapaccount=1");
                }
        } else if (enforce[LIM_SWAP]) {
                int64_t sw = value_num(v->value[LIM_SWAP]);
                res.memory_swap = sw == SBX_LIMIT_UNLIMITED || res.memory == SBX_LIMIT_UNLIMITED
                                          ? SBX_LIMIT_UNLIMITED : res.memory + sw;
        }
        if (enforce[LIM_PIDS])
                res.pids = value_num(v->value[LIM_PIDS]);
        if (enforce[LIM_CPUS]) {
                res.cpu_quota = value_num(v->value[LIM_CPUS]);
                res.cpu_period = strtoll(strchr(v->value[LIM_CPUS], ' ') + 1, NULL, 10);
        }
        snprintf(rel, sizeof(rel), "%s/%s", strcmp(h->v1_base, "/") ? h->v1_base : "", leaf);
        /* As v2 enables only these: the hierarchies of the controllers that
         * enforce a limit, and the freezer (pause, teardown), besides the
         * first (the cgroup's path). A memory cgroup alone costs ~150 KiB of
         * kernel memory; no limit needs one. */
        snprintf(used, sizeof(used), "%s freezer", ctrl);
        r = cg_v1_create(h, rel, used, cg, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "resource limits");
        r = cg_v1_apply(cg, &res, reterr);
        if (r < 0) {
                (void) cg_v1_remove(cg);
                return sbx_error_wrap(reterr, "resource limits");
        }
        return 0;
}

int sbx_cgroup_prepare(const char *name, const sbx_limits *limits, sbx_cgroup *ret,
                       sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup_host *h = NULL;
        _cleanup_free_ sbx_cgroup *cg = NULL;
        limit_values v;
        char leaf[160], ctrl[64] = "", why[SBX_ERROR_MSG_MAX] = "", keys[256] = "";
        bool enforce[_LIM_MAX] = {};
        int r;

        cg = calloc(1, sizeof(*cg));
        h = calloc(1, sizeof(*h));
        if (!cg || !h)
                return sbx_error_set(reterr, -ENOMEM, "cgroup");
        cg->dirfd = -EBADF;
        r = sbx_limits_check_env(reterr);
        if (r < 0)
                return r;
        if (!sbx_limits_any(limits) && sbx_limits_default_pids() == 0) {
                *ret = *cg;
                return 0;
        }
        r = limits_compile(limits, &v, reterr);
        if (r < 0)
                return r;
        r = sanitize_name(name, leaf, sizeof(leaf), reterr);
        if (r < 0)
                return r;
        (void) sbx_cgroup_probe_host(h);
        if (h->from_env && h->usable == -EINVAL)   /* bad configuration, not a host limitation */
                return sbx_error_set(reterr, -EINVAL, "resource limits: %s", h->problem);

        /* Which limits can be enforced here, and which controllers they need. */
        for (int i = 0; i < _LIM_MAX; i++) {
                const char *c = limit_desc[i].controller;
                if (!v.value[i][0])
                        continue;
                if (h->usable == 0 && sbx_cgroup_list_has(h->available, c)) {
                        enforce[i] = true;
                        if (!sbx_cgroup_list_has(ctrl, c))
                                snprintf(ctrl + strlen(ctrl), sizeof(ctrl) - strlen(ctrl), "%s%s",
                                         *ctrl ? " " : "", c);
                        continue;
                }
                if (!v.explicit_set[i])
                        continue;   /* the implied swap limit goes with memory */
                append_key(keys, sizeof(keys), limit_desc[i].key);
                if (!*why) {
                        char fix[SBX_ERROR_MSG_MAX];
                        /* the host-wide reason (hybrid, no controller) first */
                        if (h->usable < 0 && (!h->mount[0] || h->use_v1 ||
                                              sbx_cgroup_list_has(h->root_controllers, c)))
                                snprintf(fix, sizeof(fix), "%s", h->problem);
                        else
                                sbx_cgroup_missing_fix(h, c, fix, sizeof(fix));
                        snprintf(why, sizeof(why), "%s (docker.%s) needs the cgroup %s %s "
                                 "controller: %s", limit_desc[i].flag, limit_desc[i].key,
                                 h->use_v1 ? "v1" : "v2", c, fix);
                }
        }
        if (*keys && !limits->best_effort)
                return sbx_error_set(reterr, h->usable < 0 ? h->usable : -EOPNOTSUPP,
                                     "resource limits [%s] cannot be enforced: %s; or rerun with "
                                     "--limits best-effort to run without them", keys, why);

        if (h->usable < 0 || !*ctrl) {
                /* best-effort and no cgroup at all, or only sbx's default
                 * pids cap and no pids controller to enforce it with */
                snprintf(cg->unenforced, sizeof(cg->unenforced), "%s", keys);
                snprintf(cg->unenforced_reason, sizeof(cg->unenforced_reason), "%s", why);
                *ret = *cg;
                return 0;
        }

        cg->pids_default = enforce[LIM_PIDS] && !is_set(limits->pids);
        if (h->use_v1) {
                r = prepare_v1(h, leaf, ctrl, limits, &v, enforce, keys, sizeof(keys), why, sizeof(why),
                               cg, reterr);
                if (r < 0)
                        return r;
                snprintf(cg->unenforced, sizeof(cg->unenforced), "%s", keys);
                snprintf(cg->unenforced_reason, sizeof(cg->unenforced_reason), "%s", why);
                *ret = *cg;
                return 0;
        }
        r = cg_v2_enable_down(h, ctrl, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "resource limits");
        snprintf(cg->path, sizeof(cg->path), "%s/%s", h->base, leaf);
        r = cg_v2_make_leaf(cg->path, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "resource limits");
        cg->dirfd = open(cg->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (cg->dirfd < 0) {
                r = sbx_error_set(reterr, -errno, "open cgroup '%s'", cg->path);
                goto fail;
        }
        for (int i = 0; i < _LIM_MAX; i++) {
                if (!enforce[i])
                        continue;
                r = cg_write_small(cg->dirfd, lim_file(i), v.value[i]);
                if (r == -ENOENT && i == LIM_SWAP) {
                        /* no swap accounting (CONFIG_MEMCG_SWAP / swapaccount=0) */
                        if (!v.explicit_set[i])
                                continue;
                        if (!limits->best_effort) {
                                r = sbx_error_set(reterr, -EOPNOTSUPP, "resource limits "
                                                  "[memorySwap] cannot be enforced: --memory-swap "
                                                  "(docker.memorySwap) needs swap accounting "
                                                  "(memory.swap.max is missing); fix: boot with "
                                                  "swapaccount=1, or rerun with --limits "
                                                  "best-effort to run without it");
                                goto fail;
                        }
                        append_key(keys, sizeof(keys), limit_desc[i].key);
                        if (!*why)
                                snprintf(why, sizeof(why), "--memory-swap (docker.memorySwap) "
                                         "needs swap accounting (memory.swap.max is missing); "
                                         "fix: boot with swapaccount=1");
                        continue;
                }
                if (r < 0) {
                        r = sbx_error_set(reterr, r, "resource limits: write %s=\"%s\" (%s) to "
                                          "%s/%s", limit_desc[i].flag, v.value[i],
                                          limit_desc[i].key, cg->path, lim_file(i));
                        goto fail;
                }
        }
        snprintf(cg->unenforced, sizeof(cg->unenforced), "%s", keys);
        snprintf(cg->unenforced_reason, sizeof(cg->unenforced_reason), "%s", why);
        *ret = *cg;
        return 0;
fail:
        (void) sbx_cgroup_cleanup(cg);
        return r;
}

/* An orphan is a directory named sbx-* (sanitize_name's prefix), owned by
 * the caller (another user's sandbox cgroup in a shared base is not ours
 * to judge: root too leaves it), older than older_than, and empty: rmdir
 * removes only a cgroup with no process and no child (EBUSY), so a live
 * sandbox's is never touched. */
static int gc_dir(const char *dir, time_t older_than) {
        _cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
        struct dirent *de;
        int n = 0;

        if (!d)
                return 0;
        dfd = -EBADF; /* the DIR's now */
        while ((de = readdir(d))) {
                struct stat st;
                if (de->d_type != DT_DIR || strncmp(de->d_name, "sbx-", 4))
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
                    st.st_uid == geteuid() && st.st_mtime < older_than &&
                    unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == 0)
                        n++;
        }
        closedir(d);
        return n;
}

/* Each directory a cgroup NAME may have (v2: one; v1: one per hierarchy),
 * or, with name NULL, each base directory; fn(path, data) for every one. */
static int for_each_dir(const sbx_cgroup_host *h, const char *leaf, int (*fn)(const char *dir, void *data),
                        void *data) {
        char dir[PATH_MAX + SBX_CGROUP_V1_PATH + 160];
        int n = 0;

        if (!h->use_v1) {
                snprintf(dir, sizeof(dir), "%s%s%s", h->base, leaf ? "/" : "", leaf ?: "");
                return fn(dir, data);
        }
        for (unsigned i = 0; i < h->n_v1; i++) {
                snprintf(dir, sizeof(dir), "%s%s%s%s", h->v1_mount[i], strcmp(h->v1_base, "/") ? h->v1_base : "",
                         leaf ? "/" : "", leaf ?: "");
                n += fn(dir, data);
        }
        return n;
}

static int gc_one(const char *dir, void *data) {
        return gc_dir(dir, *(const time_t *) data);
}

static int rmdir_one(const char *dir, void *data) {
        if (rmdir(dir) == 0)
                return 1;
        if (errno == EBUSY)
                *(bool *) data = true;
        return 0;
}

int sbx_cgroup_remove_stale(const char *name) {
        _cleanup_free_ sbx_cgroup_host *h = calloc(1, sizeof(*h));
        char leaf[160];

        if (!h || sanitize_name(name, leaf, sizeof(leaf), NULL) < 0)
                return 0;
        (void) sbx_cgroup_probe_host(h);
        if (h->usable < 0 || !h->base[0])
                return 0;
        bool busy = false;
        int n = for_each_dir(h, leaf, rmdir_one, &busy);
        return busy ? -EBUSY : n;
}

int sbx_cgroup_gc(unsigned min_age_sec) {
        _cleanup_free_ sbx_cgroup_host *h = calloc(1, sizeof(*h));
        time_t older_than = time(NULL) - (time_t) min_age_sec;

        if (!h)
                return -ENOMEM;
        (void) sbx_cgroup_probe_host(h);
        if (h->usable < 0)
                return 0;
        return for_each_dir(h, NULL, gc_one, &older_than);
}

int sbx_cgroup_open(const char *name, sbx_cgroup *ret, sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup_host *h = NULL;
        char leaf[160];
        int fd, r;

        r = sanitize_name(name, leaf, sizeof(leaf), reterr);
        if (r < 0)
                return r;
        h = calloc(1, sizeof(*h));
        if (!h)
                return sbx_error_set(reterr, -ENOMEM, "cgroup");
        (void) sbx_cgroup_probe_host(h);
        if (!h->base[0])
                return sbx_error_set(reterr, h->usable ? h->usable : -ENOENT, "%s", h->problem);
        memset(ret->path, 0, sizeof(ret->path));
        snprintf(ret->path, sizeof(ret->path), "%s/%s", h->base, leaf);
        fd = open(ret->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
                r = sbx_error_set(reterr, -errno, "open sandbox cgroup '%s'", ret->path);
                ret->path[0] = '\0';
                return r;
        }
        ret->dirfd = fd;
        ret->unenforced[0] = ret->unenforced_reason[0] = '\0';
        return 0;
}

int sbx_cgroup_attach_pid(const sbx_cgroup *cg, int pid, sbx_error *reterr) {
        char buf[32];
        int r;

        if (cg->n_v1 > 0)
                return cg_v1_attach(cg, pid, reterr);
        if (cg->dirfd < 0)
                return 0;
        snprintf(buf, sizeof(buf), "%d", pid);
        r = cg_write_small(cg->dirfd, "cgroup.procs", buf);
        if (r < 0)
                return sbx_error_set(reterr, r, "move pid %d into cgroup '%s'", pid, cg->path);
        return 0;
}

/* A small file of the sandbox cgroup into BUF (v1: in the hierarchy its
 * name's prefix names, "pids.events" in "pids"). */
static int read_cg_file(const sbx_cgroup *cg, const char *file, char *buf, size_t size) {
        if (cg && cg->n_v1 > 0) {
                char c[32], path[SBX_CGROUP_V1_PATH + 64];
                const char *dir;
                snprintf(c, sizeof(c), "%.*s", (int) strcspn(file, "."), file);
                dir = cg_v1_dir(cg, c);
                if (!dir)
                        return -ENOENT;
                snprintf(path, sizeof(path), "%s/%s", dir, file);
                return cg_read_small(AT_FDCWD, path, buf, size);
        }
        if (!cg || cg->dirfd < 0)
                return -EBADF;
        return cg_read_small(cg->dirfd, file, buf, size);
}

int sbx_cgroup_read_key(const sbx_cgroup *cg, const char *file, const char *key, uint64_t *ret) {
        char buf[4096];
        size_t kl = strlen(key);
        int r = read_cg_file(cg, file, buf, sizeof(buf));

        if (r < 0)
                return r;
        for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
                if (!strncmp(p, key, kl) && p[kl] == ' ') {
                        *ret = strtoull(p + kl + 1, NULL, 10);
                        return 0;
                }
        return -ENOENT;
}

int sbx_cgroup_pids_dir(const sbx_cgroup *cg) {
        const char *dir = cg && cg->n_v1 > 0 ? cg_v1_dir(cg, "pids") : NULL;
        int fd;

        if (cg && cg->n_v1 > 0 && !dir)
                return -ENOENT;
        if (!dir && (!cg || cg->dirfd < 0))
                return -EBADF;
        fd = dir ? open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : openat(cg->dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        return fd < 0 ? -errno : fd;
}

/* One number of a pids file in DIRFD ("max": no limit, -EINVAL). */
static int read_pids_number(int dirfd, const char *file, uint64_t *ret) {
        char buf[64], *end;
        int r = cg_read_small(dirfd, file, buf, sizeof(buf));

        if (r < 0)
                return r;
        errno = 0;
        *ret = strtoull(buf, &end, 10);
        return errno || end == buf ? -EINVAL : 0;
}

int sbx_cgroup_pids_at_max_in(int dirfd, uint64_t *ret_max) {
        uint64_t cur, max;

        if (dirfd < 0 || read_pids_number(dirfd, "pids.max", &max) < 0 ||
            read_pids_number(dirfd, "pids.current", &cur) < 0)
                return 0;
        *ret_max = max;
        return cur >= max;
}

int sbx_cgroup_pids_at_max(const sbx_cgroup *cg, uint64_t *ret_max) {
        _cleanup_close_ int fd = sbx_cgroup_pids_dir(cg);

        return sbx_cgroup_pids_at_max_in(fd, ret_max);
}

int sbx_cgroup_oom_kills(const sbx_cgroup *cg, uint64_t *ret) {
        /* v1: memory.oom_control has "oom_kill N" (kernel >= 4.13) */
        return sbx_cgroup_read_key(cg, cg->n_v1 ? "memory.oom_control" : "memory.events", "oom_kill",
                                   ret);
}

void sbx_format_size(int64_t v, char *buf, size_t len) {
        static const char units[] = "kmgt";
        int u = -1;

        while (v > 0 && v % 1024 == 0 && u < 3) {
                v /= 1024;
                u++;
        }
        if (u < 0)
                snprintf(buf, len, "%lld", (long long) v);
        else
                snprintf(buf, len, "%lld%c", (long long) v, units[u]);
}

int sbx_cgroup_oom_message(const sbx_cgroup *cg, const sbx_limits *limits, char *buf,
                           size_t len) {
        char size[32] = "?";
        uint64_t n = 0;
        int r;

        r = sbx_cgroup_oom_kills(cg, &n);
        if (r < 0)
                return r;
        if (n == 0)
                return 0;
        if (limits && limits->memory > 0)
                sbx_format_size(limits->memory, size, sizeof(size));
        snprintf(buf, len, "killed: memory limit (docker.memory=%s) exceeded%s", size,
                 n > 1 ? " (several OOM kills)" : "");
        return 1;
}

/* ------------------------------------------------------------------------ */
/* teardown                                                                  */

/* Fallback for kernels without cgroup.kill (< 5.14): SIGKILL every member;
 * members forking meanwhile are caught by the next round. */
static int kill_members(const char *path) {
        char file[PATH_MAX + 32];
        _cleanup_(fclosep_) FILE *f = NULL;
        int n = 0, pid;

        snprintf(file, sizeof(file), "%s/cgroup.procs", path);
        f = fopen(file, "re");
        if (!f)
                return -errno;
        while (fscanf(f, "%d", &pid) == 1)
                if (pid > 0 && kill(pid, SIGKILL) == 0)
                        n++;
        return n;
}

int sbx_cgroup_cleanup(sbx_cgroup *cg) {
        char file[PATH_MAX + 32];
        int r = 0;

        if (!cg)
                return 0;
        /* path "" = nothing of ours (never created, or handed over to a
         * persistent sandbox), on v1 too */
        if (cg->n_v1 > 0 && cg->path[0])
                r = cg_v1_remove(cg);
        else if (cg->path[0] && cg->n_v1 == 0) {
                snprintf(file, sizeof(file), "%s/cgroup.kill", cg->path);
                bool have_kill = cg_write_small(AT_FDCWD, file, "1") == 0;
                for (int i = 0; i < 500; i++) {   /* up to ~5 s */
                        if (rmdir(cg->path) == 0 || errno == ENOENT) {
                                r = 0;
                                break;
                        }
                        r = -errno;
                        if (r != -EBUSY)
                                break;
                        if (!have_kill || i % 50 == 49)
                                (void) kill_members(cg->path);
                        nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
                }
                if (r == 0)
                        cg->path[0] = '\0';
        }
        if (cg->dirfd >= 0)
                close(cg->dirfd);
        cg->dirfd = -EBADF;
        return r;
}

/* SPDX-License-Identifier: MIT */
/* One cgroup v2 per sandbox: created and configured in the parent before
 * clone3, entered atomically with CLONE_INTO_CGROUP, killed and removed on
 * teardown (issue 5). */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

#define SBX_LIMIT_UNSET (-1)

typedef struct sbx_limits {
        int64_t memory;          /* bytes, docker.memory, SBX_LIMIT_UNSET if none */
        int64_t memory_swap;     /* bytes, docker.memorySwap (-1 in docker = unlimited: use SBX_LIMIT_UNLIMITED) */
        int64_t pids;            /* docker.pidsLimit */
        int64_t cpu_millis;      /* docker.cpus * 1000 */
        bool best_effort;        /* --limits best-effort: run without limits that cannot be enforced */
} sbx_limits;

#define SBX_LIMIT_UNLIMITED (-2)

static inline void sbx_limits_init(sbx_limits *l) {
        l->memory = l->memory_swap = l->pids = l->cpu_millis = SBX_LIMIT_UNSET;
        l->best_effort = false;
}
static inline bool sbx_limits_any(const sbx_limits *l) {
        return l->memory != SBX_LIMIT_UNSET || l->memory_swap != SBX_LIMIT_UNSET ||
               l->pids != SBX_LIMIT_UNSET || l->cpu_millis != SBX_LIMIT_UNSET;
}

typedef struct sbx_cgroup {
        int dirfd;               /* O_PATH|O_DIRECTORY fd for clone3's .cgroup, -EBADF if none */
        char path[PATH_MAX];     /* absolute path under /sys/fs/cgroup, "" if none */
        char unenforced[256];    /* best-effort: the limits that are not enforced, "" if all are */
        /* added by issue 5 (after the original fields): */
        char unenforced_reason[SBX_ERROR_MSG_MAX]; /* why, with the fix; "" if all enforced */
} sbx_cgroup;

/* Docker size units: "512m", "1g", "1024", "1.5g" -> bytes. */
int sbx_parse_size(const char *s, int64_t *ret);
/* Docker --cpus "0.5" -> 500 millis. */
int sbx_parse_cpus(const char *s, int64_t *ret);

/* Parent, before clone3. With no limit set, *ret gets dirfd = -EBADF and
 * nothing is created. A limit that cannot be enforced is an error naming the
 * limit, the controller and the fix, unless limits->best_effort. */
int sbx_cgroup_prepare(const char *name, const sbx_limits *limits, sbx_cgroup *ret,
                       sbx_error *reterr);
/* Parent, teardown: cgroup.kill, wait for it to empty, rmdir. Idempotent. */
int sbx_cgroup_cleanup(sbx_cgroup *cg);

/* ---- added by issue 5 (cgroup.c) ----------------------------------------
 *
 * For the launcher:
 *  - clone3 with CLONE_INTO_CGROUP | CLONE_NEWCGROUP, .cgroup = cg.dirfd (when
 *    dirfd >= 0): the kernel roots the new cgroup namespace at the sandbox
 *    cgroup. Never bind the host's /sys/fs/cgroup into the sandbox; mount a
 *    fresh cgroup2 inside if needed (it is rooted at the sandbox cgroup and,
 *    with nsdelegate, its limits are read-only from inside).
 *  - prepare's errors: -EINVAL is bad input (--memory-swap without --memory,
 *    ranges, bad SBX_CGROUP_ROOT): exit 2; anything else (a limit the host
 *    cannot enforce): exit 125. With best_effort, print a warning naming
 *    cg.unenforced and cg.unenforced_reason.
 *  - after the child exits and before sbx_cgroup_cleanup(): call
 *    sbx_cgroup_oom_message() and print it when it returns 1.
 *  - no clone3/CLONE_INTO_CGROUP: clone, then sbx_cgroup_attach_pid() before
 *    releasing the child. */

/* Join an existing sandbox cgroup (persistent sandboxes: later execs enter
 * it with clone3 CLONE_INTO_CGROUP too). Fills *ret (dirfd, path); the
 * caller must not cleanup it unless it owns the sandbox. -ENOENT if absent. */
int sbx_cgroup_open(const char *name, sbx_cgroup *ret, sbx_error *reterr);
/* Fallback when clone3 cannot take CLONE_INTO_CGROUP: move pid in. */
int sbx_cgroup_attach_pid(const sbx_cgroup *cg, int pid, sbx_error *reterr);
/* "KEY N" line of a flat-keyed file of the sandbox cgroup, e.g.
 * ("memory.events", "oom_kill") or ("pids.events", "max"). -ENOENT if the
 * file or key is missing (controller not enabled). */
int sbx_cgroup_read_key(const sbx_cgroup *cg, const char *file, const char *key, uint64_t *ret);
/* OOM kills in the sandbox so far (memory.events oom_kill). Read it after the
 * sandboxed process exited and before sbx_cgroup_cleanup(). */
int sbx_cgroup_oom_kills(const sbx_cgroup *cg, uint64_t *ret);
/* If the sandbox had an OOM kill, write "killed: memory limit
 * (docker.memory=64m) exceeded" into buf and return 1; else 0 (or a
 * negative errno when memory.events cannot be read). For the launcher's
 * message after a SIGKILL exit; call it before sbx_cgroup_cleanup(). */
int sbx_cgroup_oom_message(const sbx_cgroup *cg, const sbx_limits *limits, char *buf,
                           size_t len);
/* Docker-style size for messages: 67108864 -> "64m". */
void sbx_format_size(int64_t bytes, char *buf, size_t len);

/* What the host offers; used by prepare and by `sbx doctor`. */
typedef enum sbx_cgroup_mode {
        SBX_CGROUP_MODE_NONE,    /* no cgroup filesystem mounted */
        SBX_CGROUP_MODE_V1,      /* only v1 hierarchies */
        SBX_CGROUP_MODE_HYBRID,  /* v1 hierarchies plus a cgroup2 mount (usually .../unified) */
        SBX_CGROUP_MODE_V2,      /* pure unified hierarchy */
        _SBX_CGROUP_MODE_MAX,
} sbx_cgroup_mode;

typedef struct sbx_cgroup_host {
        sbx_cgroup_mode mode;
        char mount[PATH_MAX];          /* cgroup2 mount point, "" if none */
        bool nsdelegate;               /* cgroup2 mounted with nsdelegate */
        char root_controllers[256];    /* cgroup.controllers at the cgroup2 mount root */
        char self[PATH_MAX];           /* this process's "0::" cgroup path */
        bool privileged;               /* root: sbx owns <mount>/sbx.slice */
        bool from_env;                 /* base came from SBX_CGROUP_ROOT */
        char base[PATH_MAX];           /* sandbox cgroups are created as <base>/sbx-<name> */
        char anchor[PATH_MAX];         /* highest cgroup sbx writes to (subtree_control) */
        char available[256];           /* controllers sbx may enable: anchor's cgroup.controllers */
        int usable;                    /* 0, or negative errno: base cannot be used at all */
        char problem[SBX_ERROR_MSG_MAX]; /* why not, with the fix */
} sbx_cgroup_host;

#define SBX_CGROUP_ROOT_ENV "SBX_CGROUP_ROOT"

int sbx_cgroup_probe_host(sbx_cgroup_host *ret);
const char *sbx_cgroup_mode_to_string(sbx_cgroup_mode m);
/* Is controller c (e.g. "memory") in the space-separated list? */
bool sbx_cgroup_list_has(const char *list, const char *c);
/* The fix text for a controller missing from host->available. */
void sbx_cgroup_missing_fix(const sbx_cgroup_host *host, const char *controller, char *buf,
                            unsigned len);

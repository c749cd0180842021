/* SPDX-License-Identifier: MIT */
/* One cgroup v2 per sandbox: created and configured in the parent before
 * clone3, entered atomically with CLONE_INTO_CGROUP, killed and removed on
 * teardown (issue 5). */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"

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

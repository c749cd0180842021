/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER (issue 5 replaces it): unit parsing is real; any configured
 * limit is refused (never silently unlimited) unless best-effort. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

int sbx_parse_size(const char *s, int64_t *ret) {
        char *end;
        double v;
        double mul = 1;

        if (!s || !*s || isspace((unsigned char) *s))
                return -EINVAL;
        errno = 0;
        v = strtod(s, &end);
        if (errno || end == s || v < 0 || !isfinite(v))
                return -EINVAL;
        if (*end) {
                switch (tolower((unsigned char) *end)) {
                case 'b': mul = 1; break;
                case 'k': mul = 1024.0; break;
                case 'm': mul = 1024.0 * 1024; break;
                case 'g': mul = 1024.0 * 1024 * 1024; break;
                case 't': mul = 1024.0 * 1024 * 1024 * 1024; break;
                default: return -EINVAL;
                }
                end++;
                if (*end == 'b' || *end == 'B')
                        end++;
                if (*end)
                        return -EINVAL;
        }
        v *= mul;
        if (v > (double) INT64_MAX)
                return -ERANGE;
        *ret = (int64_t) v;
        return 0;
}

int sbx_parse_cpus(const char *s, int64_t *ret) {
        char *end;
        double v;

        if (!s || !*s)
                return -EINVAL;
        errno = 0;
        v = strtod(s, &end);
        if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e6)
                return -EINVAL;
        *ret = (int64_t) (v * 1000 + 0.5);
        if (*ret <= 0)
                return -EINVAL;
        return 0;
}

int sbx_cgroup_prepare(const char *name, const sbx_limits *limits, sbx_cgroup *ret,
                       sbx_error *reterr) {
        memset(ret, 0, sizeof(*ret));
        ret->dirfd = -EBADF;
        if (!sbx_limits_any(limits))
                return 0;
        if (limits->best_effort) {
                snprintf(ret->unenforced, sizeof(ret->unenforced), "memory,memorySwap,pidsLimit,cpus");
                return 0;
        }
        return sbx_error_set(reterr, -EOPNOTSUPP,
                             "resource limits: cgroup v2 enforcement is not available in this build; "
                             "rerun with --limits best-effort to run without them");
}

int sbx_cgroup_cleanup(sbx_cgroup *cg) {
        return 0;
}

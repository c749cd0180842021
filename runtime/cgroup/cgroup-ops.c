/* SPDX-License-Identifier: MIT */
/* The low-level cgroup API (issue 15): create a cgroup at a path on every
 * hierarchy, apply limits, freeze/thaw, list and signal its processes,
 * remove it; for cgroup v2 (here) and v1 (cgroup-v1.c). sbx run's limits
 * (cgroup.c) and the OCI runtime use it; see cgroup.h for the contract. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-internal.h"
#include "util/util.h"

void sbx_cgroup_resources_init(sbx_cgroup_resources *r) {
        *r = (sbx_cgroup_resources) {
                .memory = SBX_LIMIT_UNSET, .memory_swap = SBX_LIMIT_UNSET, .pids = SBX_LIMIT_UNSET,
                .memory_reservation = SBX_LIMIT_UNSET, .memory_swappiness = SBX_LIMIT_UNSET,
                .cpu_shares = SBX_LIMIT_UNSET, .cpu_quota = SBX_LIMIT_UNSET,
                .cpu_period = SBX_LIMIT_UNSET, .blkio_weight = SBX_LIMIT_UNSET,
        };
}

static sbx_cgroup_host *probe(sbx_error *reterr) {
        sbx_cgroup_host *h = calloc(1, sizeof(*h));

        if (!h) {
                sbx_error_set(reterr, -ENOMEM, "cgroup");
                return NULL;
        }
        (void) sbx_cgroup_probe_host(h);
        return h;
}

bool sbx_cgroup_devices_usable(void) {
        sbx_error e = {};
        _cleanup_free_ sbx_cgroup_host *h = probe(&e);

        if (!h || !h->privileged)
                return false;
        return h->use_v1 ? sbx_cgroup_list_has(h->available, "devices") : h->mount[0] != '\0';
}

static void reset(sbx_cgroup *cg) {
        memset(cg, 0, sizeof(*cg));
        cg->dirfd = -EBADF;
}

int sbx_cgroup_create(const char *rel, sbx_cgroup *ret, sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup_host *h = probe(reterr);
        sbx_cgroup_host sub;
        char path[PATH_MAX];
        int r;

        if (!h)
                return -ENOMEM;
        reset(ret);
        if (!cg_rel_valid(rel))
                return sbx_error_set(reterr, -EINVAL, "cgroup path '%s': must start with '/' and "
                                     "have no '.', '..' or empty component", rel ? rel : "");
        if (h->use_v1)
                return cg_v1_create(h, rel, NULL, ret, reterr);
        if (!h->mount[0])
                return sbx_error_set(reterr, -EOPNOTSUPP, "%s", h->problem);
        if (!h->privileged)
                return sbx_error_set(reterr, -EPERM, "create cgroup '%s': only root creates cgroups "
                                     "at a path of its choice (unprivileged sandboxes use %s)", rel,
                                     h->base[0] ? h->base : "a delegated cgroup");
        /* every controller of the root, enabled from the root down to the parent */
        sub = *h;
        snprintf(path, sizeof(path), "%s%s", h->mount, rel);
        snprintf(sub.base, sizeof(sub.base), "%s", path);
        *strrchr(sub.base, '/') = '\0';
        snprintf(sub.anchor, sizeof(sub.anchor), "%s", h->mount);
        r = cg_v2_enable_down(&sub, h->root_controllers, reterr);
        if (r < 0)
                return r;
        r = cg_v2_make_leaf(path, reterr);
        if (r < 0)
                return r;
        ret->dirfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (ret->dirfd < 0) {
                r = sbx_error_set(reterr, -errno, "open cgroup '%s'", path);
                (void) rmdir(path);
                return r;
        }
        snprintf(ret->path, sizeof(ret->path), "%s", path);
        return 0;
}

int sbx_cgroup_open_path(const char *path, sbx_cgroup *ret, sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup_host *h = probe(reterr);
        char full[PATH_MAX];
        int r;

        if (!h)
                return -ENOMEM;
        reset(ret);
        if (!path || path[0] != '/')
                return sbx_error_set(reterr, -EINVAL, "cgroup path '%s' is not absolute", path ? path : "");
        /* a recorded directory in a v1 hierarchy: the same path in all */
        for (unsigned i = 0; i < h->n_v1; i++) {
                size_t l = strlen(h->v1_mount[i]);
                if (!strncmp(path, h->v1_mount[i], l) && path[l] == '/') {
                        r = cg_v1_open(h, path + l, ret);
                        return r < 0 ? sbx_error_set(reterr, r, "open cgroup '%s'", path) : 0;
                }
        }
        if (h->mount[0] && !strncmp(path, h->mount, strlen(h->mount)) && path[strlen(h->mount)] == '/')
                snprintf(full, sizeof(full), "%s", path);
        else if (h->use_v1) {
                r = cg_v1_open(h, path, ret);
                return r < 0 ? sbx_error_set(reterr, r, "open cgroup '%s' (cgroup v1)", path) : 0;
        } else
                snprintf(full, sizeof(full), "%s%s", h->mount, path);
        ret->dirfd = open(full, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (ret->dirfd < 0)
                return sbx_error_set(reterr, -errno, "open cgroup '%s'", full);
        snprintf(ret->path, sizeof(ret->path), "%s", full);
        return 0;
}

static int v2_write(const sbx_cgroup *cg, const char *file, const char *value, const char *ctrl,
                    sbx_error *reterr) {
        int r = cg_write_small(cg->dirfd, file, value);

        if (r == -ENOENT)
                return sbx_error_set(reterr, -EOPNOTSUPP, "%s/%s does not exist: the %s controller "
                                     "is not enabled for this cgroup", cg->path, file, ctrl);
        if (r < 0)
                return sbx_error_set(reterr, r, "write '%s' to %s/%s", value, cg->path, file);
        return 0;
}

static void v2_num(char *buf, size_t len, int64_t v) {
        if (v == SBX_LIMIT_UNLIMITED || v < 0)
                snprintf(buf, len, "max");
        else
                snprintf(buf, len, "%lld", (long long) v);
}

int cg_v2_swap_max(const sbx_cgroup_resources *res, int64_t *ret, sbx_error *reterr) {
        *ret = -1;
        if (res->memory_swap == SBX_LIMIT_UNLIMITED || res->memory <= 0)
                return 0;
        if (res->memory_swap < res->memory)
                return sbx_error_set(reterr, -EINVAL, "memory+swap %lld is below memory %lld",
                                     (long long) res->memory_swap, (long long) res->memory);
        *ret = res->memory_swap - res->memory;
        return 0;
}

static int v2_apply(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        char v[64];
        int r;

        if (res->memory != SBX_LIMIT_UNSET) {
                v2_num(v, sizeof(v), res->memory);
                if ((r = v2_write(cg, "memory.max", v, "memory", reterr)) < 0)
                        return r;
        }
        if (res->memory_swap != SBX_LIMIT_UNSET) {
                int64_t swap;
                if ((r = cg_v2_swap_max(res, &swap, reterr)) < 0)
                        return r;
                v2_num(v, sizeof(v), swap);
                if ((r = v2_write(cg, "memory.swap.max", v, "memory (swap accounting)", reterr)) < 0)
                        return r;
        }
        if (res->memory_reservation != SBX_LIMIT_UNSET) {
                v2_num(v, sizeof(v), res->memory_reservation);
                if ((r = v2_write(cg, "memory.low", v, "memory reservation", reterr)) < 0)
                        return r;
        }
        if (res->memory_swappiness != SBX_LIMIT_UNSET)
                return sbx_error_set(reterr, -EOPNOTSUPP, "memory swappiness: cgroup v2 has no such control");
        for (size_t i = 0; i < res->n_throttles; i++) {
                static const char *const keys[] = { "rbps", "wbps", "riops", "wiops" };
                const sbx_cgroup_throttle *t = &res->throttles[i];
                snprintf(v, sizeof(v), "%u:%u %s=%llu", t->major, t->minor, keys[t->kind],
                         (unsigned long long) t->rate);
                if ((r = v2_write(cg, "io.max", v, "io", reterr)) < 0)
                        return r;
        }
        if (res->disable_oom_killer)
                return sbx_error_set(reterr, -EOPNOTSUPP, "disabling the OOM killer: cgroup v2 has no such control");
        if (res->pids != SBX_LIMIT_UNSET) {
                v2_num(v, sizeof(v), res->pids);
                if ((r = v2_write(cg, "pids.max", v, "pids", reterr)) < 0)
                        return r;
        }
        if (res->cpu_shares != SBX_LIMIT_UNSET) {
                /* runc's conversion: shares 2..262144 -> weight 1..10000 */
                snprintf(v, sizeof(v), "%lld", cg_shares_to_weight(res->cpu_shares));
                if ((r = v2_write(cg, "cpu.weight", v, "cpu", reterr)) < 0)
                        return r;
        }
        if (res->cpu_quota != SBX_LIMIT_UNSET || res->cpu_period != SBX_LIMIT_UNSET) {
                char q[32];
                if (res->cpu_quota == SBX_LIMIT_UNSET || res->cpu_quota == SBX_LIMIT_UNLIMITED)
                        snprintf(q, sizeof(q), "max");
                else
                        snprintf(q, sizeof(q), "%lld", (long long) res->cpu_quota);
                snprintf(v, sizeof(v), "%s %lld", q, res->cpu_period > 0 ? (long long) res->cpu_period : 100000LL);
                if ((r = v2_write(cg, "cpu.max", v, "cpu", reterr)) < 0)
                        return r;
        }
        if (res->cpuset_cpus && (r = v2_write(cg, "cpuset.cpus", res->cpuset_cpus, "cpuset", reterr)) < 0)
                return r;
        if (res->cpuset_mems && (r = v2_write(cg, "cpuset.mems", res->cpuset_mems, "cpuset", reterr)) < 0)
                return r;
        if (res->blkio_weight != SBX_LIMIT_UNSET) {
                /* BFQ takes the v1 range as is; io.weight is 1..10000 */
                if (faccessat(cg->dirfd, "io.bfq.weight", F_OK, 0) == 0) {
                        snprintf(v, sizeof(v), "%lld", (long long) res->blkio_weight);
                        r = v2_write(cg, "io.bfq.weight", v, "io", reterr);
                } else {
                        snprintf(v, sizeof(v), "default %lld", cg_blkio_to_io_weight(res->blkio_weight));
                        r = v2_write(cg, "io.weight", v, "io", reterr);
                }
                if (r < 0)
                        return r;
        }
        return cg_v2_apply_devices(cg->path, res, reterr);
}

int sbx_cgroup_apply_devices(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        if (cg->n_v1 > 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "device rules: a cgroup v2 call");
        return cg_v2_apply_devices(cg->path, res, reterr);
}

int sbx_cgroup_apply(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        if (cg->n_v1 > 0)
                return cg_v1_apply(cg, res, reterr);
        if (cg->dirfd < 0)
                return sbx_error_set(reterr, -EBADF, "apply limits: no cgroup");
        return v2_apply(cg, res, reterr);
}

/* The freezer's state file and the values meaning frozen/thawed. */
static int freezer_file(const sbx_cgroup *cg, char *path, size_t len) {
        const char *dir;

        if (cg->n_v1 > 0) {
                dir = cg_v1_dir(cg, "freezer");
                if (!dir)
                        return -EOPNOTSUPP;
                snprintf(path, len, "%s/freezer.state", dir);
                return 1;
        }
        if (!cg->path[0])
                return -EBADF;
        snprintf(path, len, "%s/cgroup.freeze", cg->path);
        return access(path, F_OK) == 0 ? 2 : -EOPNOTSUPP;
}

int sbx_cgroup_frozen(const sbx_cgroup *cg) {
        char path[SBX_CGROUP_V1_PATH + 64], buf[512];
        int kind = freezer_file(cg, path, sizeof(path)), r;

        if (kind < 0)
                return kind;
        if (kind == 1) {
                r = cg_read_small(AT_FDCWD, path, buf, sizeof(buf));
                return r < 0 ? r : !strcmp(buf, "FROZEN");
        }
        snprintf(path + strlen(path) - strlen("cgroup.freeze"), 32, "cgroup.events");
        r = cg_read_small(AT_FDCWD, path, buf, sizeof(buf));
        return r < 0 ? r : strstr(buf, "frozen 1") != NULL;
}

int sbx_cgroup_freeze(const sbx_cgroup *cg, bool frozen, sbx_error *reterr) {
        char path[SBX_CGROUP_V1_PATH + 64];
        int kind = freezer_file(cg, path, sizeof(path)), r;

        if (kind == -EOPNOTSUPP)
                return sbx_error_set(reterr, kind, "%s: no freezer (%s)", frozen ? "freeze" : "thaw",
                                     cg->n_v1 ? "no cgroup v1 hierarchy has the freezer controller"
                                              : "cgroup.freeze missing: kernel < 5.2");
        if (kind < 0)
                return sbx_error_set(reterr, kind, "freeze: no cgroup");
        r = cg_write_small(AT_FDCWD, path, kind == 1 ? (frozen ? "FROZEN" : "THAWED") : (frozen ? "1" : "0"));
        if (r < 0)
                return sbx_error_set(reterr, r, "write %s", path);
        /* v1 reports FREEZING until every task stopped; v2 sets "frozen 1" */
        for (int i = 0; i < 200; i++) {     /* up to ~2 s */
                r = sbx_cgroup_frozen(cg);
                if (r < 0 || r == frozen)
                        return r < 0 ? sbx_error_set(reterr, r, "read the freezer state of %s", cg->path) : 0;
                if (kind == 1 && frozen && i % 20 == 19)
                        (void) cg_write_small(AT_FDCWD, path, "FROZEN");   /* v1: retry */
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        }
        return sbx_error_set(reterr, -ETIMEDOUT, "%s %s: the kernel did not report it within 2 s",
                             frozen ? "freeze" : "thaw", cg->path);
}

int cg_collect_pids(const char *dir, int **pids, size_t *n, size_t *cap) {
        char path[PATH_MAX + 32];
        DIR *d;
        FILE *f;
        struct dirent *de;
        int pid, r = 0;

        snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
        f = fopen(path, "re");
        if (!f)
                return -errno;
        while (fscanf(f, "%d", &pid) == 1) {
                if (*n == *cap) {
                        size_t c = *cap ? *cap * 2 : 64;
                        int *np = realloc(*pids, c * sizeof(int));
                        if (!np) {
                                fclose(f);
                                return -ENOMEM;
                        }
                        *pids = np;
                        *cap = c;
                }
                (*pids)[(*n)++] = pid;
        }
        fclose(f);
        d = opendir(dir);
        if (!d)
                return -errno;
        while ((de = readdir(d)) && r >= 0) {
                if (de->d_type != DT_DIR || de->d_name[0] == '.')
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                r = cg_collect_pids(path, pids, n, cap);
                if (r == -ENOENT)
                        r = 0;      /* removed meanwhile */
        }
        closedir(d);
        return r;
}

int sbx_cgroup_pids(const sbx_cgroup *cg, int **ret, size_t *ret_n) {
        int *pids = NULL;
        size_t n = 0, cap = 0;
        int r;

        *ret = NULL;
        *ret_n = 0;
        if (!cg->path[0])
                return -EBADF;
        r = cg_collect_pids(cg->n_v1 ? cg->v1[0] : cg->path, &pids, &n, &cap);
        if (r < 0) {
                free(pids);
                return r;
        }
        *ret = pids;
        *ret_n = n;
        return 0;
}

int sbx_cgroup_kill(const sbx_cgroup *cg, int sig) {
        _cleanup_free_ int *pids = NULL;
        char path[PATH_MAX + 32];
        size_t n = 0;
        int was, r, count = 0;

        if (!cg->path[0])
                return -EBADF;
        /* v2: the kernel kills the whole tree, forks included */
        if (cg->n_v1 == 0 && sig == SIGKILL) {
                snprintf(path, sizeof(path), "%s/cgroup.kill", cg->path);
                r = sbx_cgroup_pids(cg, &pids, &n);
                if (cg_write_small(AT_FDCWD, path, "1") == 0)
                        return r < 0 ? 0 : (int) n;
                free(pids);
                pids = NULL;
        }
        /* else: freeze so nothing forks past us, signal all, thaw if we
         * froze it or the signal is SIGKILL (v1 delivers it only thawed) */
        was = sbx_cgroup_frozen(cg);
        if (was == 0 && sbx_cgroup_freeze(cg, true, NULL) < 0)
                was = -1;
        for (int pass = 0; pass < (was < 0 ? 2 : 1); pass++) {
                r = sbx_cgroup_pids(cg, &pids, &n);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < n; i++)
                        if (kill(pids[i], sig) == 0)
                                count++;
                free(pids);
                pids = NULL;
        }
        if (was == 0 || (was == 1 && sig == SIGKILL))
                (void) sbx_cgroup_freeze(cg, false, NULL);
        return count;
}

int sbx_cgroup_remove(sbx_cgroup *cg) {
        return sbx_cgroup_cleanup(cg);
}

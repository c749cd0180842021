/* SPDX-License-Identifier: MIT */
/* cgroup v1 (and the v1 half of hybrid hosts), issue 15.
 *
 * One directory per v1 hierarchy sbx uses, at the same path below each
 * hierarchy's root (<mount>/sbx.slice/sbx-<name> for sbx run; any path for
 * the OCI runtime). v1 differs from v2 where it matters here:
 *   - clone3 CLONE_INTO_CGROUP takes only a cgroup2 fd, so the launcher
 *     moves the child in by pid (cgroup.procs of every hierarchy) before it
 *     releases it: the child runs nothing of the sandbox's before that;
 *   - no cgroup.kill: teardown freezes (freezer), SIGKILLs every task,
 *     thaws, and retries until rmdir succeeds;
 *   - a new cpuset cgroup starts with empty cpuset.cpus/mems (tasks cannot
 *     join it): they are copied from the parent on mkdir;
 *   - memory + swap is memory.memsw.limit_in_bytes (a total, like docker's
 *     --memory-swap), present only with swap accounting; it must stay >=
 *     memory.limit_in_bytes, so the order of the two writes depends on the
 *     current values;
 *   - there is no safe delegation to unprivileged users: only root uses v1.
 * Safety: sbx writes only in directories it created (or an empty one at the
 * same path, left by a crash); sandboxes never see the host's cgroupfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-internal.h"
#include "util/util.h"

static bool writable(const char *path) {
        return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

/* rel: "/a/b", no "." or ".." component, no "//" */
bool cg_rel_valid(const char *rel) {
        if (!rel || rel[0] != '/' || strlen(rel) >= SBX_CGROUP_V1_PATH - 256)
                return false;
        for (const char *p = rel; *p; ) {
                size_t l;
                p++;
                l = strcspn(p, "/");
                if ((l == 0 && p[l]) || (l == 1 && p[0] == '.') || (l == 2 && !strncmp(p, "..", 2)))
                        return false;
                p += l;
        }
        return true;
}

void cg_v1_probe_base(sbx_cgroup_host *h) {
        const char *env = getenv(SBX_CGROUP_ROOT_ENV);
        char path[PATH_MAX];

        h->privileged = geteuid() == 0 && h->n_v1 > 0 && writable(h->v1_mount[0]);
        h->available[0] = '\0';
        for (unsigned i = 0; i < h->n_v1; i++)
                snprintf(h->available + strlen(h->available), sizeof(h->available) - strlen(h->available),
                         "%s%s", h->available[0] ? " " : "", h->v1_controllers[i]);
        snprintf(h->v1_base, sizeof(h->v1_base), "/sbx.slice");
        if (env && *env) {
                bool found = false;
                h->from_env = true;
                for (unsigned i = 0; i < h->n_v1 && !found; i++) {
                        size_t l = strlen(h->v1_mount[i]);
                        if (!strncmp(env, h->v1_mount[i], l) && env[l] == '/' && cg_rel_valid(env + l)) {
                                snprintf(h->v1_base, sizeof(h->v1_base), "%s", env + l);
                                found = true;
                        }
                }
                while (strlen(h->v1_base) > 1 && h->v1_base[strlen(h->v1_base) - 1] == '/')
                        h->v1_base[strlen(h->v1_base) - 1] = '\0';
                if (!found) {
                        h->usable = -EINVAL;
                        snprintf(h->problem, sizeof(h->problem), "%s='%s' is not a directory inside "
                                 "a cgroup v1 hierarchy (e.g. %s/sbx-test); this host's limits use "
                                 "cgroup v1", SBX_CGROUP_ROOT_ENV, env, h->v1_mount[0]);
                        return;
                }
        }
        snprintf(h->base, sizeof(h->base), "%s%s", h->v1_mount[0], h->v1_base);
        snprintf(h->anchor, sizeof(h->anchor), "%s", h->v1_mount[0]);
        if (!h->privileged) {
                h->usable = -EPERM;
                snprintf(h->problem, sizeof(h->problem), "this host's limits use cgroup v1, which "
                         "only root may use (v1 has no safe delegation to uid %u); fix: run sbx as "
                         "root, or boot with systemd.unified_cgroup_hierarchy=1 for cgroup v2 "
                         "delegation", (unsigned) geteuid());
                return;
        }
        for (unsigned i = 0; i < h->n_v1; i++)
                if (sbx_cgroup_list_has(h->v1_controllers[i], "memory")) {
                        snprintf(path, sizeof(path), "%s/memory.memsw.limit_in_bytes", h->v1_mount[i]);
                        h->v1_memsw = access(path, F_OK) == 0;
                }
}

const char *cg_v1_dir(const sbx_cgroup *cg, const char *c) {
        for (unsigned i = 0; i < cg->n_v1; i++)
                if (sbx_cgroup_list_has(cg->v1_controllers[i], c))
                        return cg->v1[i];
        return NULL;
}

/* cpuset: a new cgroup has empty cpus/mems; copy the parent's. */
static int cpuset_init(const char *dir) {
        static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
        char parent[SBX_CGROUP_V1_PATH], file[SBX_CGROUP_V1_PATH + 32], v[512];
        int r;

        snprintf(parent, sizeof(parent), "%s", dir);
        *strrchr(parent, '/') = '\0';
        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                snprintf(file, sizeof(file), "%s/%s", dir, files[i]);
                if (cg_read_small(AT_FDCWD, file, v, sizeof(v)) > 0)
                        continue;
                snprintf(file, sizeof(file), "%s/%s", parent, files[i]);
                r = cg_read_small(AT_FDCWD, file, v, sizeof(v));
                if (r < 0)
                        return r;
                snprintf(file, sizeof(file), "%s/%s", dir, files[i]);
                r = cg_write_small(AT_FDCWD, file, v);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Remove what create made: dir and its parents down to length keep. */
static void undo_mkdirs(const char *path, size_t keep) {
        char dir[SBX_CGROUP_V1_PATH];

        snprintf(dir, sizeof(dir), "%s", path);
        while (strlen(dir) > keep) {
                (void) rmdir(dir);
                *strrchr(dir, '/') = '\0';
        }
}

/* mkdir -p mount+rel; *keep = length of the part that existed before. */
static int mkdir_p(const char *mount, const char *rel, bool cpuset, char *dir, size_t len,
                   size_t *keep, sbx_error *reterr) {
        size_t ml = strlen(mount), n;
        int r;

        snprintf(dir, len, "%s%s", mount, rel);
        n = strlen(dir);
        *keep = SIZE_MAX;
        for (size_t k = ml + 1; k <= n; k++) {
                char save = dir[k];
                if (save != '/' && save != '\0')
                        continue;
                dir[k] = '\0';
                if (mkdir(dir, 0755) == 0) {
                        if (*keep == SIZE_MAX)
                                *keep = (size_t) (strrchr(dir, '/') - dir);
                        r = cpuset ? cpuset_init(dir) : 0;
                        if (r < 0) {
                                sbx_error_set(reterr, r, "cgroup v1: copy cpuset.cpus/mems into '%s'", dir);
                                dir[k] = save;
                                return r;
                        }
                } else if (errno != EEXIST) {
                        r = sbx_error_set(reterr, -errno, "cgroup v1: create '%s'", dir);
                        dir[k] = save;
                        return r;
                } else if (k == n && *keep == SIZE_MAX && (r = cg_populated(dir)) != 0)
                        return sbx_error_set(reterr, r < 0 ? r : -EBUSY, "cgroup '%s' already exists "
                                             "and is in use", dir);
                dir[k] = save;
        }
        return 0;
}

/* Does hierarchy i carry one of the controllers in list ("a b c"; NULL: all)?
 * The first one always: a cgroup's path is its directory there (h->base). */
static bool wanted(const sbx_cgroup_host *h, unsigned i, const char *list) {
        char one[64];

        if (!list || i == 0)
                return true;
        for (const char *p = list; *p; p += strspn(p, " ")) {
                size_t l = strcspn(p, " ");
                snprintf(one, sizeof(one), "%.*s", (int) l, p);
                if (l && sbx_cgroup_list_has(h->v1_controllers[i], one))
                        return true;
                p += l;
        }
        return false;
}

int cg_v1_create(const sbx_cgroup_host *h, const char *rel, const char *controllers, sbx_cgroup *cg,
                 sbx_error *reterr) {
        size_t keep[SBX_CGROUP_V1_MAX];
        int r = 0;

        if (!cg_rel_valid(rel))
                return sbx_error_set(reterr, -EINVAL, "cgroup path '%s': must start with '/' and "
                                     "have no '.', '..' or empty component", rel ? rel : "");
        if (!h->privileged)
                return sbx_error_set(reterr, -EPERM, "%s", h->problem);
        cg->n_v1 = 0;
        cg->dirfd = -EBADF;
        for (unsigned i = 0; i < h->n_v1; i++) {
                unsigned k = cg->n_v1;
                if (!wanted(h, i, controllers))
                        continue;
                r = mkdir_p(h->v1_mount[i], rel, sbx_cgroup_list_has(h->v1_controllers[i], "cpuset"),
                            cg->v1[k], sizeof(cg->v1[k]), &keep[k], reterr);
                snprintf(cg->v1_controllers[k], sizeof(cg->v1_controllers[k]), "%s", h->v1_controllers[i]);
                cg->n_v1 = k + 1;
                if (r < 0)
                        goto fail;
        }
        if (cg->n_v1 == 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "cgroup v1: no hierarchy has the controllers %s",
                                     controllers);
        snprintf(cg->path, sizeof(cg->path), "%s", cg->v1[0]);
        return 0;
fail:
        for (unsigned i = 0; i < cg->n_v1; i++)
                if (keep[i] != SIZE_MAX)
                        undo_mkdirs(cg->v1[i], keep[i]);
        cg->n_v1 = 0;
        cg->path[0] = '\0';
        return r;
}

int cg_v1_open(const sbx_cgroup_host *h, const char *rel, sbx_cgroup *cg) {
        if (!cg_rel_valid(rel))
                return -EINVAL;
        cg->n_v1 = 0;
        for (unsigned i = 0; i < h->n_v1; i++) {
                char dir[SBX_CGROUP_V1_PATH];
                snprintf(dir, sizeof(dir), "%s%s", h->v1_mount[i], rel);
                if (access(dir, F_OK) < 0)
                        continue;
                snprintf(cg->v1[cg->n_v1], sizeof(cg->v1[0]), "%s", dir);
                snprintf(cg->v1_controllers[cg->n_v1], sizeof(cg->v1_controllers[0]), "%s",
                         h->v1_controllers[i]);
                cg->n_v1++;
        }
        if (cg->n_v1 == 0)
                return -ENOENT;
        cg->dirfd = -EBADF;
        snprintf(cg->path, sizeof(cg->path), "%s", cg->v1[0]);
        return 0;
}

static int write_file(const sbx_cgroup *cg, const char *ctrl, const char *file, const char *value,
                      const char *what, sbx_error *reterr) {
        const char *dir = cg_v1_dir(cg, ctrl);
        char path[SBX_CGROUP_V1_PATH + 64];
        int r;

        if (!dir)
                return sbx_error_set(reterr, -EOPNOTSUPP, "%s needs the cgroup v1 %s controller, "
                                     "which no hierarchy of this host has mounted; fix: mount it "
                                     "(mount -t cgroup -o %s cgroup /sys/fs/cgroup/%s)", what,
                                     ctrl, ctrl, ctrl);
        snprintf(path, sizeof(path), "%s/%s", dir, file);
        r = cg_write_small(AT_FDCWD, path, value);
        if (r == -ENOENT)
                return sbx_error_set(reterr, -EOPNOTSUPP, "%s: %s does not exist (%s)", what, path,
                                     !strcmp(file, "memory.memsw.limit_in_bytes")
                                             ? "no swap accounting; fix: boot with swapaccount=1"
                                             : "the kernel lacks this knob");
        if (r < 0)
                return sbx_error_set(reterr, r, "%s: write '%s' to %s", what, value, path);
        return 0;
}

static void num(char *buf, size_t len, int64_t v) {
        if (v == SBX_LIMIT_UNLIMITED)
                snprintf(buf, len, "-1");
        else
                snprintf(buf, len, "%lld", (long long) v);
}

static int read_num(const sbx_cgroup *cg, const char *ctrl, const char *file, int64_t *ret) {
        const char *dir = cg_v1_dir(cg, ctrl);
        char path[SBX_CGROUP_V1_PATH + 64], buf[64];
        int r;

        if (!dir)
                return -EOPNOTSUPP;
        snprintf(path, sizeof(path), "%s/%s", dir, file);
        r = cg_read_small(AT_FDCWD, path, buf, sizeof(buf));
        if (r < 0)
                return r;
        *ret = strtoll(buf, NULL, 10);
        return 0;
}

/* memory.limit_in_bytes <= memory.memsw.limit_in_bytes at all times: raise
 * memsw first when the new memory limit is above the current memsw. */
static int apply_memory(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        char m[32], s[32];
        int64_t cur_sw = -1;
        bool swap_first = false;
        int r;

        num(m, sizeof(m), res->memory);
        num(s, sizeof(s), res->memory_swap);
        if (res->memory_swap != SBX_LIMIT_UNSET && read_num(cg, "memory", "memory.memsw.limit_in_bytes", &cur_sw) == 0)
                swap_first = res->memory == SBX_LIMIT_UNLIMITED ||
                             (res->memory != SBX_LIMIT_UNSET && res->memory > cur_sw);
        if (swap_first && (r = write_file(cg, "memory", "memory.memsw.limit_in_bytes", s, "memory+swap limit", reterr)) < 0)
                return r;
        if (res->memory != SBX_LIMIT_UNSET &&
            (r = write_file(cg, "memory", "memory.limit_in_bytes", m, "memory limit", reterr)) < 0)
                return r;
        if (!swap_first && res->memory_swap != SBX_LIMIT_UNSET &&
            (r = write_file(cg, "memory", "memory.memsw.limit_in_bytes", s, "memory+swap limit", reterr)) < 0)
                return r;
        num(m, sizeof(m), res->memory_reservation);
        if (res->memory_reservation != SBX_LIMIT_UNSET &&
            (r = write_file(cg, "memory", "memory.soft_limit_in_bytes", m, "memory reservation", reterr)) < 0)
                return r;
        num(m, sizeof(m), res->memory_swappiness);
        if (res->memory_swappiness != SBX_LIMIT_UNSET &&
            (r = write_file(cg, "memory", "memory.swappiness", m, "memory swappiness", reterr)) < 0)
                return r;
        if (res->disable_oom_killer &&
            (r = write_file(cg, "memory", "memory.oom_control", "1", "disabling the OOM killer", reterr)) < 0)
                return r;
        return 0;
}

/* The device cgroup: deny all, then each rule in order (the kernel keeps the
 * exceptions list; runc writes the same). */
static int apply_devices(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        char v[64], maj[24], min[24];
        int r;

        if (!res->devices)
                return 0;
        if ((r = write_file(cg, "devices", "devices.deny", "a", "the device rules", reterr)) < 0)
                return r;
        for (size_t i = 0; i < res->n_devices; i++) {
                const sbx_cgroup_device_rule *d = &res->devices[i];
                if (d->major < 0)
                        snprintf(maj, sizeof(maj), "*");
                else
                        num(maj, sizeof(maj), d->major);
                if (d->minor < 0)
                        snprintf(min, sizeof(min), "*");
                else
                        num(min, sizeof(min), d->minor);
                if (d->type == 'a')
                        snprintf(v, sizeof(v), "a");
                else
                        snprintf(v, sizeof(v), "%c %s:%s %s", d->type, maj, min, d->access);
                r = write_file(cg, "devices", d->allow ? "devices.allow" : "devices.deny", v,
                               "a device rule", reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "device rule %zu ('%s')", i, v), r;
        }
        return 0;
}

int cg_v1_apply(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr) {
        static const char *const throttle_files[] = {
                "blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
                "blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device",
        };
        char v[64];
        int r;

        r = apply_memory(cg, res, reterr);
        if (r < 0)
                return r;
        for (size_t i = 0; i < res->n_throttles; i++) {
                const sbx_cgroup_throttle *t = &res->throttles[i];
                snprintf(v, sizeof(v), "%u:%u %llu", t->major, t->minor, (unsigned long long) t->rate);
                if ((r = write_file(cg, "blkio", throttle_files[t->kind], v, "block I/O limit", reterr)) < 0)
                        return r;
        }
        if (res->pids != SBX_LIMIT_UNSET) {
                if (res->pids == SBX_LIMIT_UNLIMITED)
                        snprintf(v, sizeof(v), "max");
                else
                        num(v, sizeof(v), res->pids);
                if ((r = write_file(cg, "pids", "pids.max", v, "pids limit", reterr)) < 0)
                        return r;
        }
        if (res->cpu_shares != SBX_LIMIT_UNSET) {
                num(v, sizeof(v), res->cpu_shares);
                if ((r = write_file(cg, "cpu", "cpu.shares", v, "cpu shares", reterr)) < 0)
                        return r;
        }
        /* period before quota: the quota is checked against it */
        if (res->cpu_period != SBX_LIMIT_UNSET) {
                num(v, sizeof(v), res->cpu_period);
                if ((r = write_file(cg, "cpu", "cpu.cfs_period_us", v, "cpu period", reterr)) < 0)
                        return r;
        }
        if (res->cpu_quota != SBX_LIMIT_UNSET) {
                num(v, sizeof(v), res->cpu_quota);
                if ((r = write_file(cg, "cpu", "cpu.cfs_quota_us", v, "cpu quota", reterr)) < 0)
                        return r;
        }
        if (res->cpuset_cpus && (r = write_file(cg, "cpuset", "cpuset.cpus", res->cpuset_cpus, "cpuset cpus", reterr)) < 0)
                return r;
        if (res->cpuset_mems && (r = write_file(cg, "cpuset", "cpuset.mems", res->cpuset_mems, "cpuset mems", reterr)) < 0)
                return r;
        if (res->blkio_weight != SBX_LIMIT_UNSET) {
                const char *dir = cg_v1_dir(cg, "blkio");
                char path[SBX_CGROUP_V1_PATH + 64];
                num(v, sizeof(v), res->blkio_weight);
                /* CFQ's blkio.weight, or BFQ's blkio.bfq.weight (same range) */
                snprintf(path, sizeof(path), "%s/blkio.weight", dir ? dir : "");
                r = write_file(cg, "blkio", dir && access(path, F_OK) == 0 ? "blkio.weight" : "blkio.bfq.weight",
                               v, "blkio weight", reterr);
                if (r < 0)
                        return r;
        }
        return apply_devices(cg, res, reterr);
}

int cg_v1_attach(const sbx_cgroup *cg, int pid, sbx_error *reterr) {
        char path[SBX_CGROUP_V1_PATH + 32], v[32];
        int r;

        snprintf(v, sizeof(v), "%d", pid);
        for (unsigned i = 0; i < cg->n_v1; i++) {
                snprintf(path, sizeof(path), "%s/cgroup.procs", cg->v1[i]);
                r = cg_write_small(AT_FDCWD, path, v);
                if (r < 0)
                        return sbx_error_set(reterr, r, "move pid %d into cgroup '%s'", pid, cg->v1[i]);
        }
        return 0;
}

int sbx_cgroup_open_tasks(const sbx_cgroup *cg, int fds[static SBX_CGROUP_V1_MAX], sbx_error *reterr) {
        char path[SBX_CGROUP_V1_PATH + 32];

        for (unsigned i = 0; i < SBX_CGROUP_V1_MAX; i++)
                fds[i] = -EBADF;
        for (unsigned i = 0; i < cg->n_v1; i++) {
                snprintf(path, sizeof(path), "%s/tasks", cg->v1[i]);
                fds[i] = open(path, O_WRONLY | O_CLOEXEC);
                if (fds[i] < 0) {
                        int r = -errno;
                        for (unsigned j = 0; j < i; j++) {
                                close(fds[j]);
                                fds[j] = -EBADF;
                        }
                        fds[i] = -EBADF;
                        return sbx_error_set(reterr, r, "open '%s' to join the cgroup", path);
                }
        }
        return 0;
}

int sbx_cgroup_join_self(const int fds[], unsigned n, unsigned *ret_failed) {
        int r = 0;

        for (unsigned i = 0; i < n; i++) {
                if (r == 0 && write(fds[i], "0", 1) != 1) {
                        r = fds[i] < 0 ? -EBADF : -errno;
                        *ret_failed = i;
                }
                if (fds[i] >= 0)
                        close(fds[i]);
        }
        return r;
}

int sbx_cgroup_join_v1(const sbx_cgroup *cg, sbx_error *reterr) {
        int fds[SBX_CGROUP_V1_MAX];
        unsigned failed = 0;
        int r = sbx_cgroup_open_tasks(cg, fds, reterr);

        if (r >= 0 && (r = sbx_cgroup_join_self(fds, cg->n_v1, &failed)) < 0)
                return sbx_error_set(reterr, r, "join the cgroup '%s'", cg->v1[failed]);
        return r;
}

int cg_v1_remove(sbx_cgroup *cg) {
        int r = 0;

        for (int round = 0; round < 500; round++) {   /* up to ~5 s */
                bool busy = false;
                r = 0;
                for (unsigned i = 0; i < cg->n_v1; i++) {
                        if (!cg->v1[i][0])
                                continue;
                        if (rmdir(cg->v1[i]) == 0 || errno == ENOENT) {
                                cg->v1[i][0] = '\0';
                                continue;
                        }
                        r = -errno;
                        busy = busy || r == -EBUSY;
                }
                if (r == 0 || !busy)
                        break;
                if (round % 50 == 0)
                        (void) sbx_cgroup_kill(cg, SIGKILL);
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        }
        if (r == 0) {
                cg->n_v1 = 0;
                cg->path[0] = '\0';
        }
        return r;
}

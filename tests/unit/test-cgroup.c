/* SPDX-License-Identifier: MIT */
/* Unit tests for runtime/cgroup/: Docker unit parsing, limit validation,
 * the refusal / best-effort paths against this host's real cgroups, and
 * (issue 15) the default pids cap and the low-level API on cgroup v1.
 * As root on a v1/hybrid host every cgroup goes below a sub-hierarchy this
 * test makes (<each v1 hierarchy>/sbx-unit-<pid>, via SBX_CGROUP_ROOT) and
 * removes at the end; nothing else is touched. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "unit.h"

#define MiB (1024LL * 1024)

START_TEST(test_parse_size_docker_units) {
        int64_t v;

        ck_assert_int_eq(sbx_parse_size("1024", &v), 0);
        ck_assert_int_eq(v, 1024);
        ck_assert_int_eq(sbx_parse_size("512m", &v), 0);
        ck_assert_int_eq(v, 512 * MiB);
        ck_assert_int_eq(sbx_parse_size("512M", &v), 0);
        ck_assert_int_eq(v, 512 * MiB);
        ck_assert_int_eq(sbx_parse_size("1g", &v), 0);
        ck_assert_int_eq(v, 1024 * MiB);
        ck_assert_int_eq(sbx_parse_size("1.5g", &v), 0);
        ck_assert_int_eq(v, 1536 * MiB);
        ck_assert_int_eq(sbx_parse_size("64kb", &v), 0);
        ck_assert_int_eq(v, 65536);
        ck_assert_int_eq(sbx_parse_size("100b", &v), 0);
        ck_assert_int_eq(v, 100);
        ck_assert_int_eq(sbx_parse_size("2t", &v), 0);
        ck_assert_int_eq(v, 2 * 1024 * 1024 * MiB);
        /* go-units RAMInBytes: "ib", p, one space before the unit */
        ck_assert_int_eq(sbx_parse_size("1GiB", &v), 0);
        ck_assert_int_eq(v, 1024 * MiB);
        ck_assert_int_eq(sbx_parse_size("512 m", &v), 0);
        ck_assert_int_eq(v, 512 * MiB);
        ck_assert_int_eq(sbx_parse_size("1p", &v), 0);
        ck_assert_int_eq(v, 1024LL * 1024 * 1024 * MiB);
}
END_TEST

START_TEST(test_parse_size_rejects_garbage) {
        int64_t v = 42;
        const char *bad[] = { "", " 1m", "-1", "+5", "m", "1x", "1mm", "1bb", "0x10", "inf",
                              "nan", "1e3", "1  m", "12m ", "99999999999t", "1ib", "1kibb", "1bib", "1 " };

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(sbx_parse_size(bad[i], &v) < 0, "'%s' accepted", bad[i]);
        ck_assert_int_eq(sbx_parse_size(NULL, &v), -EINVAL);
        ck_assert_int_eq(v, 42);  /* ret_ untouched on failure */
}
END_TEST

START_TEST(test_parse_cpus) {
        int64_t v;

        ck_assert_int_eq(sbx_parse_cpus("0.5", &v), 0);
        ck_assert_int_eq(v, 500);
        ck_assert_int_eq(sbx_parse_cpus("2", &v), 0);
        ck_assert_int_eq(v, 2000);
        ck_assert_int_eq(sbx_parse_cpus("1.25", &v), 0);
        ck_assert_int_eq(v, 1250);
        ck_assert_int_eq(sbx_parse_cpus("0.01", &v), 0);
        ck_assert_int_eq(v, 10);
        v = 7;
        ck_assert_int_lt(sbx_parse_cpus("0", &v), 0);
        ck_assert_int_lt(sbx_parse_cpus("-1", &v), 0);
        ck_assert_int_lt(sbx_parse_cpus("abc", &v), 0);
        ck_assert_int_lt(sbx_parse_cpus("1e2", &v), 0);
        ck_assert_int_lt(sbx_parse_cpus("0.0001", &v), 0);
        ck_assert_int_lt(sbx_parse_cpus("", &v), 0);
        ck_assert_int_eq(v, 7);
}
END_TEST

START_TEST(test_no_limits_creates_nothing) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};

        setenv(SBX_DEFAULT_PIDS_LIMIT_ENV, "0", 1);     /* no default cap either */
        sbx_limits_init(&l);
        ck_assert_int_eq(sbx_cgroup_prepare("unit-nothing", &l, &cg, &e), 0);
        ck_assert_int_lt(cg.dirfd, 0);
        ck_assert_str_eq(cg.path, "");
        ck_assert_str_eq(cg.unenforced, "");
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);
}
END_TEST

START_TEST(test_memory_swap_without_memory_is_config_error) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};

        sbx_limits_init(&l);
        l.memory_swap = 128 * MiB;
        l.best_effort = true;   /* a config error is not a host limitation */
        ck_assert_int_eq(sbx_cgroup_prepare("unit-swap", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "docker.memorySwap"));
        ck_assert_ptr_nonnull(strstr(e.msg, "--memory"));

        l.memory = 256 * MiB;   /* total below memory */
        ck_assert_int_eq(sbx_cgroup_prepare("unit-swap", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "must not be below"));
}
END_TEST

START_TEST(test_limit_ranges_rejected) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};

        sbx_limits_init(&l);
        l.best_effort = true;
        l.memory = 1 * MiB;
        ck_assert_int_eq(sbx_cgroup_prepare("unit-range", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "docker.memory"));
        sbx_limits_init(&l);
        l.best_effort = true;
        l.cpu_millis = 5;
        ck_assert_int_eq(sbx_cgroup_prepare("unit-range", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "docker.cpus"));
        l.cpu_millis = 1000 * (sysconf(_SC_NPROCESSORS_ONLN) + 1);
        ck_assert_int_eq(sbx_cgroup_prepare("unit-range", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "CPUs available"));
        sbx_limits_init(&l);
        l.pids = -7;
        ck_assert_int_eq(sbx_cgroup_prepare("unit-range", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "docker.pidsLimit"));
}
END_TEST

/* Is the memory controller usable by sbx here? (read independently of the
 * library: from the mount table and the cgroup2 root's controller list) */
static bool host_has_v2_memory(void) {
        struct statfs sf;
        const char *root = NULL;
        char path[256], buf[512] = "";
        FILE *f;

        if (statfs("/sys/fs/cgroup", &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
                root = "/sys/fs/cgroup";
        else if (statfs("/sys/fs/cgroup/unified", &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
                root = "/sys/fs/cgroup/unified";
        if (!root)
                return false;
        snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
        f = fopen(path, "re");
        if (!f)
                return false;
        if (!fgets(buf, sizeof(buf), f))
                buf[0] = '\0';
        fclose(f);
        return sbx_cgroup_list_has(buf, "memory");
}

/* Would sbx enforce a memory limit here? cgroup v2 with memory in the root,
 * or (issue 15) root on a host with a v1 memory hierarchy and a cgroup2
 * without it. */
static bool host_enforces_memory(void) {
        struct statfs sf;

        if (host_has_v2_memory())
                return true;
        return geteuid() == 0 && statfs("/sys/fs/cgroup/memory", &sf) == 0 &&
               sf.f_type == CGROUP_SUPER_MAGIC &&
               access("/sys/fs/cgroup/memory/memory.limit_in_bytes", F_OK) == 0;
}

static int read_file(const char *dir, const char *file, char *buf, size_t len);

/* The limit file of a prepared cgroup, v1 or v2 ("memory", "pids"). */
static int read_limit(const sbx_cgroup *cg, const char *what, char *buf, size_t len) {
        bool mem = !strcmp(what, "memory");

        for (unsigned i = 0; i < cg->n_v1; i++)
                if (sbx_cgroup_list_has(cg->v1_controllers[i], what))
                        return read_file(cg->v1[i], mem ? "memory.limit_in_bytes" : "pids.max", buf, len);
        return read_file(cg->path, mem ? "memory.max" : "pids.max", buf, len);
}

START_TEST(test_refuses_unenforceable_memory_limit) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        int r;

        sbx_limits_init(&l);
        l.memory = 64 * MiB;
        if (host_enforces_memory()) {
                /* the other direction: enforced, the limit is in the file */
                char v[64];
                r = sbx_cgroup_prepare("unit-enforce", &l, &cg, &e);
                ck_assert_msg(r == 0, "%s", e.msg);
                ck_assert_int_eq(read_limit(&cg, "memory", v, sizeof(v)), 0);
                ck_assert_str_eq(v, "67108864");
                ck_assert_str_eq(cg.unenforced, "");
                ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);
                return;
        }
        r = sbx_cgroup_prepare("unit-refuse", &l, &cg, &e);
        ck_assert_int_lt(r, 0);
        ck_assert_int_eq(r, e.code);
        ck_assert_msg(strstr(e.msg, "--memory") && strstr(e.msg, "docker.memory"),
                      "limit not named: %s", e.msg);
        ck_assert_msg(strstr(e.msg, "memory controller"), "controller not named: %s", e.msg);
        ck_assert_msg(strstr(e.msg, "fix:") && strstr(e.msg, "--limits best-effort"),
                      "no fix: %s", e.msg);
}
END_TEST

START_TEST(test_best_effort_records_unenforced) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        int fd;

        if (host_enforces_memory()) {
                fprintf(stderr, "# this host enforces memory limits; nothing unenforced (see test_refuses_unenforceable_memory_limit)\n");
                return;
        }
        sbx_limits_init(&l);
        l.memory = 64 * MiB;
        l.memory_swap = SBX_LIMIT_UNLIMITED;
        l.pids = 50;
        l.best_effort = true;
        ck_assert_int_eq(sbx_cgroup_prepare("unit-best-effort", &l, &cg, &e), 0);
        ck_assert_msg(strstr(cg.unenforced, "memory") != NULL, "unenforced: '%s'", cg.unenforced);
        ck_assert_ptr_nonnull(strstr(cg.unenforced, "memorySwap"));
        ck_assert_ptr_nonnull(strstr(cg.unenforced_reason, "memory controller"));
        /* whatever cgroup it created (root on a hybrid host: one without
         * controllers, still useful for cgroup.kill) is removed by cleanup */
        if (cg.path[0]) {
                char path[PATH_MAX];
                snprintf(path, sizeof(path), "%s", cg.path);
                ck_assert_int_ge(cg.dirfd, 0);
                ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);
                ck_assert_int_eq(access(path, F_OK), -1);
        }
        fd = cg.dirfd;
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);   /* idempotent */
        ck_assert_int_lt(fd, 0);
}
END_TEST

START_TEST(test_format_size_docker_style) {
        char b[32];

        sbx_format_size(64 * MiB, b, sizeof(b));
        ck_assert_str_eq(b, "64m");
        sbx_format_size(1024 * MiB, b, sizeof(b));
        ck_assert_str_eq(b, "1g");
        sbx_format_size(1536 * MiB, b, sizeof(b));
        ck_assert_str_eq(b, "1536m");
        sbx_format_size(1000, b, sizeof(b));
        ck_assert_str_eq(b, "1000");
        sbx_format_size(4096, b, sizeof(b));
        ck_assert_str_eq(b, "4k");
}
END_TEST

/* issue 15: runc's systemd cgroupsPath "slice:prefix:name" -> slice, scope unit */
START_TEST(test_systemd_unit_names) {
        char slice[256], unit[256];
        sbx_error e = {};

        ck_assert_int_eq(sbx_cgroup_systemd_unit("", "c1", slice, unit, &e), 0);
        ck_assert_str_eq(slice, "system.slice");
        ck_assert_str_eq(unit, "sbx-runc-c1.scope");
        ck_assert_int_eq(sbx_cgroup_systemd_unit("machine.slice:libpod:abc", "x", slice, unit, &e), 0);
        ck_assert_str_eq(slice, "machine.slice");
        ck_assert_str_eq(unit, "libpod-abc.scope");
        ck_assert_int_eq(sbx_cgroup_systemd_unit(":cri-containerd:f00", "x", slice, unit, &e), 0);
        ck_assert_str_eq(slice, "system.slice");
        ck_assert_str_eq(unit, "cri-containerd-f00.scope");
        ck_assert_int_eq(sbx_cgroup_systemd_unit("a-b.slice::n", "x", slice, unit, &e), 0);
        ck_assert_str_eq(unit, "n.scope");
        ck_assert_int_eq(sbx_cgroup_systemd_unit("/sbx/c1", "x", slice, unit, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'slice:prefix:name'"));
        ck_assert_int_eq(sbx_cgroup_systemd_unit("a:b:c:d", "x", slice, unit, &e), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_systemd_unit("notaslice:p:n", "x", slice, unit, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "slice 'notaslice'"));
        ck_assert_int_eq(sbx_cgroup_systemd_unit("system.slice:p:", "x", slice, unit, &e), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_systemd_unit("system.slice:p:a/b", "x", slice, unit, &e), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_systemd_unit("system.slice:p:x.slice", "x", slice, unit, &e), -EOPNOTSUPP);
}
END_TEST

/* AllowedCPUs / AllowedMemoryNodes: systemd's byte-per-8-cpus bitmask */
START_TEST(test_cpulist_mask) {
        uint8_t m[4];

        ck_assert_int_eq(sbx_cgroup_cpulist_mask("1", m, sizeof(m)), 1);
        ck_assert_int_eq(m[0], 0x02);
        ck_assert_int_eq(sbx_cgroup_cpulist_mask("0-2,9", m, sizeof(m)), 2);
        ck_assert_int_eq(m[0], 0x07);
        ck_assert_int_eq(m[1], 0x02);
        ck_assert_int_eq(sbx_cgroup_cpulist_mask("", m, sizeof(m)), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_cpulist_mask("3-1", m, sizeof(m)), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_cpulist_mask("1;2", m, sizeof(m)), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_cpulist_mask("40", m, sizeof(m)), -EINVAL);
}
END_TEST

START_TEST(test_cgroup_root_env_outside_mount_refused) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};

        setenv("SBX_CGROUP_ROOT", "/tmp/not-a-cgroup", 1);
        sbx_limits_init(&l);
        l.pids = 10;
        ck_assert_int_lt(sbx_cgroup_prepare("unit-env", &l, &cg, &e), 0);
        ck_assert_msg(strstr(e.msg, "SBX_CGROUP_ROOT") != NULL, "%s", e.msg);
        unsetenv("SBX_CGROUP_ROOT");
}
END_TEST

START_TEST(test_name_cannot_escape_base) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        sbx_cgroup_host h;

        sbx_limits_init(&l);
        l.pids = 10;
        l.best_effort = true;
        ck_assert_int_eq(sbx_cgroup_prepare("../../evil/name x", &l, &cg, &e), 0);
        sbx_cgroup_probe_host(&h);
        if (cg.path[0]) {
                size_t bl = strlen(h.base);
                ck_assert_msg(!strncmp(cg.path, h.base, bl) && cg.path[bl] == '/' &&
                              !strchr(cg.path + bl + 1, '/'), "path %s", cg.path);
                ck_assert_str_eq(cg.path + bl + 1, "sbx-.._.._evil_name_x");
        }
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);
        ck_assert_int_eq(sbx_cgroup_prepare("", &l, &cg, &e), -EINVAL);
}
END_TEST

/* The pids controller is usable by sbx here (independent read). */
static bool host_enforces_pids(void) {
        sbx_cgroup_host h;

        sbx_cgroup_probe_host(&h);
        return h.usable == 0 && sbx_cgroup_list_has(h.available, "pids");
}

START_TEST(test_default_pids_cap) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        char v[64];

        sbx_limits_init(&l);
        unsetenv(SBX_DEFAULT_PIDS_LIMIT_ENV);
        ck_assert_int_eq(sbx_limits_default_pids(), SBX_DEFAULT_PIDS_LIMIT);
        ck_assert_msg(sbx_cgroup_prepare("unit-default", &l, &cg, &e) == 0, "%s", e.msg);
        if (!host_enforces_pids()) {
                /* skipped, not refused, without a usable pids controller */
                fprintf(stderr, "# no usable pids controller here: the default cap is skipped\n");
                ck_assert_str_eq(cg.path, "");
                ck_assert_str_eq(cg.unenforced, "");
                return;
        }
        ck_assert_msg(cg.path[0], "no cgroup for the default pids cap");
        ck_assert(cg.pids_default);
        ck_assert_int_eq(read_limit(&cg, "pids", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "1024");
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);

        setenv(SBX_DEFAULT_PIDS_LIMIT_ENV, "77", 1);
        ck_assert_msg(sbx_cgroup_prepare("unit-default", &l, &cg, &e) == 0, "%s", e.msg);
        ck_assert_int_eq(read_limit(&cg, "pids", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "77");
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);

        /* an explicit limit wins over the default; 0 = none */
        l.pids = 0;
        ck_assert_msg(sbx_cgroup_prepare("unit-default", &l, &cg, &e) == 0, "%s", e.msg);
        ck_assert(!cg.pids_default);
        ck_assert_int_eq(read_limit(&cg, "pids", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "max");
        ck_assert_int_eq(sbx_cgroup_cleanup(&cg), 0);

        /* SBX_DEFAULT_PIDS_LIMIT=0: no default, no cgroup */
        sbx_limits_init(&l);
        setenv(SBX_DEFAULT_PIDS_LIMIT_ENV, "0", 1);
        ck_assert_int_eq(sbx_cgroup_prepare("unit-default", &l, &cg, &e), 0);
        ck_assert_str_eq(cg.path, "");

        setenv(SBX_DEFAULT_PIDS_LIMIT_ENV, "lots", 1);
        ck_assert_int_eq(sbx_cgroup_prepare("unit-default", &l, &cg, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, SBX_DEFAULT_PIDS_LIMIT_ENV));
}
END_TEST

static char unit_root[64];      /* "/sbx-unit-<pid>": the sub-hierarchy of this run */

static int read_file(const char *dir, const char *file, char *buf, size_t len) {
        char path[PATH_MAX + 64];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", dir, file);
        f = fopen(path, "re");
        if (!f)
                return -errno;
        if (!fgets(buf, (int) len, f))
                buf[0] = '\0';
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
        return 0;
}

static const char *dir_of(const sbx_cgroup *cg, const char *c) {
        for (unsigned i = 0; i < cg->n_v1; i++)
                if (sbx_cgroup_list_has(cg->v1_controllers[i], c))
                        return cg->v1[i];
        return NULL;
}

/* The low-level API on cgroup v1 (issue 15): what the OCI runtime uses. */
START_TEST(test_v1_api) {
        sbx_cgroup_host h;
        sbx_cgroup cg, again;
        sbx_cgroup_resources res;
        sbx_error e = {};
        char rel[128], v[512], path[PATH_MAX];
        int *pids = NULL, status;
        size_t n = 0;
        pid_t child;

        sbx_cgroup_probe_host(&h);
        if (!h.use_v1 || h.usable != 0) {
                fprintf(stderr, "# SKIP test_v1_api: no usable cgroup v1 here (%s)\n", h.problem);
                return;
        }
        snprintf(rel, sizeof(rel), "%s/api", unit_root);
        ck_assert_int_eq(sbx_cgroup_create("/../x", &cg, &e), -EINVAL);
        ck_assert_int_eq(sbx_cgroup_create("relative", &cg, &e), -EINVAL);
        ck_assert_msg(sbx_cgroup_create(rel, &cg, &e) == 0, "%s", e.msg);
        ck_assert_uint_eq(cg.n_v1, h.n_v1);
        ck_assert_int_lt(cg.dirfd, 0);
        ck_assert(sbx_cgroup_needs_attach(&cg));
        for (unsigned i = 0; i < cg.n_v1; i++) {
                snprintf(path, sizeof(path), "%s%s", h.v1_mount[i], rel);
                ck_assert_str_eq(cg.v1[i], path);
                ck_assert_int_eq(access(path, F_OK), 0);
        }
        if (dir_of(&cg, "cpuset")) {
                ck_assert_int_eq(read_file(dir_of(&cg, "cpuset"), "cpuset.cpus", v, sizeof(v)), 0);
                ck_assert_msg(v[0], "cpuset.cpus not initialised");
        }

        /* limits land in the v1 files */
        sbx_cgroup_resources_init(&res);
        res.memory = 64 * MiB;
        res.memory_swap = h.v1_memsw ? 96 * MiB : SBX_LIMIT_UNSET;
        res.pids = 33;
        res.cpu_shares = 512;
        res.cpu_period = 50000;
        res.cpu_quota = 25000;
        res.cpuset_cpus = "0";
        res.blkio_weight = dir_of(&cg, "blkio") ? 300 : SBX_LIMIT_UNSET;
        ck_assert_msg(sbx_cgroup_apply(&cg, &res, &e) == 0, "%s", e.msg);
        ck_assert_int_eq(read_file(dir_of(&cg, "memory"), "memory.limit_in_bytes", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "67108864");
        if (h.v1_memsw) {
                ck_assert_int_eq(read_file(dir_of(&cg, "memory"), "memory.memsw.limit_in_bytes", v, sizeof(v)), 0);
                ck_assert_str_eq(v, "100663296");
        }
        ck_assert_int_eq(read_file(dir_of(&cg, "pids"), "pids.max", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "33");
        ck_assert_int_eq(read_file(dir_of(&cg, "cpu"), "cpu.shares", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "512");
        ck_assert_int_eq(read_file(dir_of(&cg, "cpu"), "cpu.cfs_quota_us", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "25000");
        ck_assert_int_eq(read_file(dir_of(&cg, "cpuset"), "cpuset.cpus", v, sizeof(v)), 0);
        ck_assert_str_eq(v, "0");
        /* raising memory above memsw works (memsw is written first) */
        sbx_cgroup_resources_init(&res);
        res.memory = 256 * MiB;
        res.memory_swap = h.v1_memsw ? 512 * MiB : SBX_LIMIT_UNSET;
        ck_assert_msg(sbx_cgroup_apply(&cg, &res, &e) == 0, "%s", e.msg);
        /* a bad value is an error naming the file */
        sbx_cgroup_resources_init(&res);
        res.cpuset_cpus = "999";
        ck_assert_int_lt(sbx_cgroup_apply(&cg, &res, &e), 0);
        ck_assert_ptr_nonnull(strstr(e.msg, "cpuset.cpus"));

        /* attach, list, freeze, thaw, kill */
        child = fork();
        if (child == 0) {
                for (;;)
                        pause();
        }
        ck_assert_msg(sbx_cgroup_attach_pid(&cg, child, &e) == 0, "%s", e.msg);
        for (unsigned i = 0; i < cg.n_v1; i++) {
                ck_assert_int_eq(read_file(cg.v1[i], "cgroup.procs", v, sizeof(v)), 0);
                ck_assert_int_eq(atoi(v), child);
        }
        ck_assert_int_eq(sbx_cgroup_pids(&cg, &pids, &n), 0);
        ck_assert_uint_eq(n, 1);
        ck_assert_int_eq(pids[0], child);
        free(pids);
        /* populated: a second create at the same path is refused */
        ck_assert_int_eq(sbx_cgroup_create(rel, &again, &e), -EBUSY);
        if (dir_of(&cg, "freezer")) {
                ck_assert_int_eq(sbx_cgroup_frozen(&cg), 0);
                ck_assert_msg(sbx_cgroup_freeze(&cg, true, &e) == 0, "%s", e.msg);
                ck_assert_int_eq(sbx_cgroup_frozen(&cg), 1);
                ck_assert_int_eq(read_file(dir_of(&cg, "freezer"), "freezer.state", v, sizeof(v)), 0);
                ck_assert_str_eq(v, "FROZEN");
                ck_assert_msg(sbx_cgroup_freeze(&cg, false, &e) == 0, "%s", e.msg);
                ck_assert_int_eq(sbx_cgroup_frozen(&cg), 0);
                /* SIGKILL reaches a frozen cgroup's tasks (thawed after) */
                ck_assert_msg(sbx_cgroup_freeze(&cg, true, &e) == 0, "%s", e.msg);
        }
        ck_assert_int_eq(sbx_cgroup_kill(&cg, SIGKILL), 1);
        ck_assert_int_eq(waitpid(child, &status, 0), child);
        ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        /* another process reopens it from the recorded path, or from rel */
        ck_assert_msg(sbx_cgroup_open_path(cg.path, &again, &e) == 0, "%s", e.msg);
        ck_assert_uint_eq(again.n_v1, cg.n_v1);
        ck_assert_msg(sbx_cgroup_open_path(rel, &again, &e) == 0, "%s", e.msg);
        ck_assert_str_eq(again.path, cg.path);
        ck_assert_int_eq(sbx_cgroup_remove(&again), 0);
        for (unsigned i = 0; i < cg.n_v1; i++)
                ck_assert_int_eq(access(cg.v1[i], F_OK), -1);
        ck_assert_int_eq(sbx_cgroup_open_path(rel, &again, &e), -ENOENT);
}
END_TEST

/* Make <each v1 hierarchy>/sbx-unit-<pid> and point SBX_CGROUP_ROOT at it;
 * or nothing where v1 is not used. */
static void make_unit_root(void) {
        sbx_cgroup_host h;
        char path[PATH_MAX];

        sbx_cgroup_probe_host(&h);
        if (!h.use_v1 || geteuid() != 0)
                return;
        snprintf(unit_root, sizeof(unit_root), "/sbx-unit-%d", (int) getpid());
        for (unsigned i = 0; i < h.n_v1; i++) {
                snprintf(path, sizeof(path), "%s%s", h.v1_mount[i], unit_root);
                if (mkdir(path, 0755) < 0)
                        continue;
                if (sbx_cgroup_list_has(h.v1_controllers[i], "cpuset")) {
                        char v[256], file[PATH_MAX + 32];
                        FILE *f;
                        for (int k = 0; k < 2; k++) {
                                const char *name = k ? "cpuset.mems" : "cpuset.cpus";
                                snprintf(file, sizeof(file), "%s/%s", h.v1_mount[i], name);
                                f = fopen(file, "re");
                                if (!f || !fgets(v, sizeof(v), f))
                                        v[0] = '\0';
                                if (f)
                                        fclose(f);
                                snprintf(file, sizeof(file), "%s/%s", path, name);
                                f = fopen(file, "we");
                                if (f) {
                                        fputs(v, f);
                                        fclose(f);
                                }
                        }
                }
        }
        snprintf(path, sizeof(path), "%s%s", h.v1_mount[0], unit_root);
        setenv("SBX_CGROUP_ROOT", path, 1);
}

static void remove_unit_root(void) {
        sbx_cgroup_host h;
        char path[PATH_MAX];

        if (!unit_root[0])
                return;
        sbx_cgroup_probe_host(&h);
        for (unsigned i = 0; i < h.n_v1; i++) {
                snprintf(path, sizeof(path), "%s%s", h.v1_mount[i], unit_root);
                if (rmdir(path) < 0 && errno != ENOENT)
                        fprintf(stderr, "# left behind: %s (%m)\n", path);
        }
}

int main(void) {
        const TTest *tests[] = { test_parse_size_docker_units, test_parse_size_rejects_garbage,
                                 test_parse_cpus, test_format_size_docker_style,
                                 test_no_limits_creates_nothing, test_cgroup_root_env_outside_mount_refused,
                                 test_name_cannot_escape_base,
                                 test_memory_swap_without_memory_is_config_error, test_limit_ranges_rejected,
                                 test_refuses_unenforceable_memory_limit,
                                 test_best_effort_records_unenforced, test_default_pids_cap,
                                 test_v1_api, test_systemd_unit_names, test_cpulist_mask };

        int r;

        make_unit_root();
        r = unit_main("cgroup", "core", 30, CK_SILENT, tests, UNIT_N(tests));
        remove_unit_root();
        return r;
}

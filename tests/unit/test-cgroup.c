/* SPDX-License-Identifier: MIT */
/* Unit tests for runtime/cgroup/cgroup.c: Docker unit parsing, limit validation,
 * and the refusal / best-effort paths against this host's real cgroups. */
#include <errno.h>
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
}
END_TEST

START_TEST(test_parse_size_rejects_garbage) {
        int64_t v = 42;
        const char *bad[] = { "", " 1m", "-1", "+5", "m", "1x", "1mm", "1bb", "0x10", "inf",
                              "nan", "1e3", "1 m", "12m ", "99999999999t" };

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

START_TEST(test_refuses_unenforceable_memory_limit) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        int r;

        if (host_has_v2_memory()) {
                /* ck has no skip: say so and check the other direction instead */
                fprintf(stderr, "# host has a cgroup v2 memory controller; refusal not reachable\n");
                return;
        }
        sbx_limits_init(&l);
        l.memory = 64 * MiB;
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

        if (host_has_v2_memory()) {
                fprintf(stderr, "# host has a cgroup v2 memory controller; nothing unenforced\n");
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

int main(void) {
        const TTest *tests[] = { test_parse_size_docker_units, test_parse_size_rejects_garbage,
                                 test_parse_cpus, test_format_size_docker_style,
                                 test_no_limits_creates_nothing, test_cgroup_root_env_outside_mount_refused,
                                 test_name_cannot_escape_base,
                                 test_memory_swap_without_memory_is_config_error, test_limit_ranges_rejected,
                                 test_refuses_unenforceable_memory_limit,
                                 test_best_effort_records_unenforced };

        return unit_main("cgroup", "core", 30, CK_SILENT, tests, UNIT_N(tests));
}

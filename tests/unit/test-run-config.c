/* SPDX-License-Identifier: MIT */
/* Unit tests for the `sbx run` option specs (runtime/launch/run-config.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "launch/launch.h"
#include "unit.h"

START_TEST(test_ulimit_soft_and_hard) {
        sbx_rlimit r;
        sbx_error e = {};

        ck_assert_int_eq(sbx_parse_ulimit("nofile=1024:2048", &r, &e), 0);
        ck_assert_int_eq(r.resource, RLIMIT_NOFILE);
        ck_assert_uint_eq(r.soft, 1024);
        ck_assert_uint_eq(r.hard, 2048);
        ck_assert_int_eq(sbx_parse_ulimit("core=0", &r, &e), 0);
        ck_assert_uint_eq(r.soft, 0);
        ck_assert_uint_eq(r.hard, 0);
        ck_assert_int_eq(sbx_parse_ulimit("stack=8388608:unlimited", &r, &e), 0);
        ck_assert_uint_eq(r.hard, RLIM_INFINITY);
}
END_TEST

START_TEST(test_ulimit_rejects_bad_specs) {
        static const char *const bad[] = { "nofile", "nofile=", "nofile=abc", "bogus=1", "nofile=10:5",
                                           "nofile=-5", "nofile=1:2:3", "=1", "nofile=unlimited:10" };
        sbx_rlimit r;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                sbx_error e = {};
                ck_assert_msg(sbx_parse_ulimit(bad[i], &r, &e) == -EINVAL, "accepted '%s'", bad[i]);
                ck_assert_msg(strstr(e.msg, "--ulimit"), "message for '%s' does not name the option: %s", bad[i], e.msg);
        }
}
END_TEST

START_TEST(test_tmpfs_specs) {
        sbx_tmpfs t;
        sbx_error e = {};

        ck_assert_int_eq(sbx_parse_tmpfs("/tmp", &t, &e), 0);
        ck_assert_str_eq(t.path, "/tmp");
        ck_assert_uint_eq(t.size, 0);
        ck_assert_uint_eq(t.mode, 01777);
        free(t.path);
        ck_assert_int_eq(sbx_parse_tmpfs("/run:size=64m,mode=755", &t, &e), 0);
        ck_assert_str_eq(t.path, "/run");
        ck_assert_uint_eq(t.size, 64ull << 20);
        ck_assert_uint_eq(t.mode, 0755);
        free(t.path);
}
END_TEST

START_TEST(test_tmpfs_rejects_bad_specs) {
        static const char *const bad[] = { "tmp", "/", "/a/../b", "/tmp:size=", "/tmp:size=abc",
                                           "/tmp:mode=999", "/tmp:uid=0", "" };
        sbx_tmpfs t;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                sbx_error e = {};
                ck_assert_msg(sbx_parse_tmpfs(bad[i], &t, &e) == -EINVAL, "accepted '%s'", bad[i]);
        }
        /* docker's --tmpfs (and docker.tmpfs): nothing on or inside /proc, as runc */
        static const char *const proc[] = { "/proc", "/proc/sys", "/proc/self/fd:size=1m" };
        for (size_t i = 0; i < sizeof(proc) / sizeof(proc[0]); i++) {
                sbx_error e = {};
                ck_assert_msg(sbx_parse_tmpfs_docker(proc[i], &t, &e) == -EINVAL, "accepted '%s'", proc[i]);
                ck_assert_ptr_nonnull(strstr(e.msg, "cannot be mounted because it is"));
        }
        sbx_error e = {};
        ck_assert_int_eq(sbx_parse_tmpfs_docker("/procx", &t, &e), 0);
        ck_assert_str_eq(t.path, "/procx");
        free(t.path);
}
END_TEST

START_TEST(test_env_specs) {
        sbx_error e = {};

        ck_assert_int_eq(sbx_parse_env("FOO=bar", &e), 0);
        ck_assert_int_eq(sbx_parse_env("FOO=", &e), 0);
        ck_assert_int_eq(sbx_parse_env("_A1=x=y", &e), 0);
        ck_assert_int_eq(sbx_parse_env("FOO", &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_env("=bar", &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_env("1FOO=bar", &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_env("FO-O=bar", &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "--env"));
}
END_TEST

START_TEST(test_bind_and_user_specs) {
        sbx_bind b;
        sbx_error e = {};
        uint32_t u, g;

        ck_assert_int_eq(sbx_parse_bind("--bind", "/src:/dst:ro", &b, &e), 0);
        ck_assert_str_eq(b.src, "/src");
        ck_assert_str_eq(b.dst, "/dst");
        ck_assert(b.ro);
        free(b.src);
        free(b.dst);
        ck_assert_int_eq(sbx_parse_bind("--bind", "/data", &b, &e), 0);
        ck_assert_str_eq(b.dst, "/data");
        ck_assert(!b.ro);
        free(b.src);
        free(b.dst);
        ck_assert_int_eq(sbx_parse_bind("--bind", "/src:/", &b, &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_bind("--bind", "/src:rel", &b, &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_bind("--bind", "/src:/a/../b", &b, &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_bind("--bind", "/src:/dst:rx", &b, &e), -EINVAL);

        ck_assert_int_eq(sbx_parse_user("1000:100", &u, &g, &e), 0);
        ck_assert_uint_eq(u, 1000);
        ck_assert_uint_eq(g, 100);
        ck_assert_int_eq(sbx_parse_user("7", &u, &g, &e), 0);
        ck_assert_uint_eq(g, 7);
        ck_assert_int_eq(sbx_parse_user("65536", &u, &g, &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_user("root", &u, &g, &e), -EINVAL);
        ck_assert_int_eq(sbx_parse_user("-1", &u, &g, &e), -EINVAL);
}
END_TEST

START_TEST(test_workspace_access_names) {
        ck_assert_int_eq(sbx_workspace_access_from_string("none"), SBX_WORKSPACE_NONE);
        ck_assert_int_eq(sbx_workspace_access_from_string("ro"), SBX_WORKSPACE_RO);
        ck_assert_int_eq(sbx_workspace_access_from_string("rw"), SBX_WORKSPACE_RW);
        ck_assert_int_eq(sbx_workspace_access_from_string("RW"), _SBX_WORKSPACE_ACCESS_INVALID);
        ck_assert_str_eq(sbx_workspace_access_to_string(SBX_WORKSPACE_RO), "ro");
}
END_TEST

START_TEST(test_config_appenders_override_rlimits) {
        sbx_run_config c;
        sbx_rlimit a = { RLIMIT_NOFILE, 10, 20 }, b = { RLIMIT_NOFILE, 30, 40 };

        sbx_run_config_init(&c);
        ck_assert(c.read_only_root);
        ck_assert_int_eq(sbx_run_config_add_rlimit(&c, &a), 0);
        ck_assert_int_eq(sbx_run_config_add_rlimit(&c, &b), 0);
        ck_assert_uint_eq(c.n_rlimits, 1);
        ck_assert_uint_eq(c.rlimits[0].soft, 30);
        ck_assert_int_eq(sbx_run_config_add_env(&c, "A=1"), 0);
        ck_assert_str_eq(c.envv[0], "A=1");
        ck_assert_ptr_null(c.envv[1]);
        sbx_run_config_free(&c);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_ulimit_soft_and_hard, test_ulimit_rejects_bad_specs, test_tmpfs_specs,
                                 test_tmpfs_rejects_bad_specs, test_env_specs, test_bind_and_user_specs,
                                 test_workspace_access_names, test_config_appenders_override_rlimits };

        return unit_main("run-config", "parse", 0, CK_SILENT, tests, UNIT_N(tests));
}

/* SPDX-License-Identifier: MIT */
/* Unit tests for persistent-sandbox records (runtime/sandbox/sandbox-record.c,
 * sandbox.c): names, the config hash, record round trips, stale detection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "sandbox/sandbox-internal.h"
#include "unit.h"

START_TEST(test_sandbox_names_follow_docker_rules) {
        static const char *const good[] = { "a", "box", "openclaw-sbx-workspace-0123", "A.b_c-d", "9lives" };
        static const char *const bad[] = { "", "-x", ".x", "_x", "a/b", "a b", "a:b", "../x", "x\n" };
        char longname[SBX_SANDBOX_NAME_MAX + 2];

        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
                ck_assert_msg(sbx_sandbox_name_valid(good[i]), "rejected '%s'", good[i]);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(!sbx_sandbox_name_valid(bad[i]), "accepted '%s'", bad[i]);
        memset(longname, 'a', sizeof(longname));
        longname[SBX_SANDBOX_NAME_MAX + 1] = '\0';
        ck_assert(!sbx_sandbox_name_valid(longname));
        longname[SBX_SANDBOX_NAME_MAX] = '\0';
        ck_assert(sbx_sandbox_name_valid(longname));
}
END_TEST

START_TEST(test_config_hash_tracks_every_setting) {
        sbx_run_config a, b;
        char ha[SBX_SANDBOX_HASH_MAX + 1], hb[SBX_SANDBOX_HASH_MAX + 1];
        sbx_bind bind = { .src = (char *) "/src", .dst = (char *) "/dst", .ro = true };

        sbx_run_config_init(&a);
        sbx_run_config_init(&b);
        ck_assert_int_eq(sbx_sandbox_config_hash(&a, ha), 0);
        ck_assert_int_eq(sbx_sandbox_config_hash(&b, hb), 0);
        ck_assert_str_eq(ha, hb);
        ck_assert_int_eq(strlen(ha), 32);
        ck_assert_int_eq(sbx_run_config_add_bind(&b, &bind), 0);
        ck_assert_int_eq(sbx_sandbox_config_hash(&b, hb), 0);
        ck_assert_str_ne(ha, hb);
        ck_assert_int_eq(sbx_run_config_add_bind(&a, &bind), 0);
        ck_assert_int_eq(sbx_sandbox_config_hash(&a, ha), 0);
        ck_assert_str_eq(ha, hb);
        a.read_only_root = false;
        ck_assert_int_eq(sbx_sandbox_config_hash(&a, ha), 0);
        ck_assert_str_ne(ha, hb);
        sbx_run_config_free(&a);
        sbx_run_config_free(&b);
}
END_TEST

START_TEST(test_record_round_trip) {
        char root[] = "/tmp/sbx-unit-XXXXXX", dir[PATH_MAX];
        _cleanup_(sbx_record_freep) sbx_record *r = calloc(1, sizeof(sbx_record));
        sbx_record *back = NULL;
        sbx_tmpfs t = { .path = (char *) "/scratch", .size = 1 << 20, .mode = 0700 };
        sbx_rlimit rl = { .resource = 7, .soft = 10, .hard = 20 };
        sbx_label labels[2] = { { (char *) "openclaw.sandbox", (char *) "1" }, { (char *) "k", (char *) "" } };
        sbx_error e = {};

        ck_assert_ptr_nonnull(mkdtemp(root));
        ck_assert_int_eq(sbx_sandbox_root_set(root, &e), 0);
        snprintf(dir, sizeof(dir), "%s/rt", root);
        ck_assert_int_eq(mkdir(dir, 0700), 0);
        snprintf(r->s.name, sizeof(r->s.name), "rt");
        memset(r->s.id, 'a', SBX_SANDBOX_ID_LEN);
        r->s.state = SBX_SANDBOX_RUNNING;
        r->s.created_ms = 1234;
        r->s.init_pid = 42;
        r->s.init_start_time = 99;
        r->s.workspace_mode = SBX_WORKSPACE_MODE_OVERLAY;
        r->complete = true;
        snprintf(r->run_dir, sizeof(r->run_dir), "run-abcdef");
        snprintf(r->s.config_hash, sizeof(r->s.config_hash), "hash");
        r->s.labels = labels;
        r->s.n_labels = 2;
        sbx_run_config_init(&r->s.config);
        r->s.config.workspace = strdup("/ws");
        r->s.config.workspace_access = SBX_WORKSPACE_NONE;
        ck_assert_int_eq(sbx_run_config_add_env(&r->s.config, "A=1"), 0);
        ck_assert_int_eq(sbx_run_config_add_tmpfs(&r->s.config, &t), 0);
        ck_assert_int_eq(sbx_run_config_add_rlimit(&r->s.config, &rl), 0);
        ck_assert_int_eq(sbx_record_save(r, &e), 0);
        r->s.labels = NULL;   /* not ours to free */
        r->s.n_labels = 0;

        ck_assert_int_eq(sbx_record_load("rt", &back, &e), 0);
        ck_assert_str_eq(back->s.name, "rt");
        ck_assert_int_eq(back->s.state, SBX_SANDBOX_RUNNING);
        ck_assert_int_eq(back->s.init_pid, 42);
        ck_assert_uint_eq(back->s.init_start_time, 99);
        ck_assert_str_eq(back->run_dir, "run-abcdef");
        ck_assert_str_eq(sbx_sandbox_label(&back->s, "openclaw.sandbox"), "1");
        ck_assert_str_eq(sbx_sandbox_label(&back->s, "k"), "");
        ck_assert_ptr_null(sbx_sandbox_label(&back->s, "missing"));
        ck_assert_str_eq(back->s.config.envv[0], "A=1");
        ck_assert_int_eq(back->s.config.n_tmpfs, 1);
        ck_assert_uint_eq(back->s.config.tmpfs[0].mode, 0700);
        ck_assert_int_eq(back->s.config.n_rlimits, 1);
        ck_assert_uint_eq(back->s.config.rlimits[0].hard, 20);
        ck_assert_ptr_nonnull(back->s.upper_dir);
        ck_assert(strstr(back->s.upper_dir, "run-abcdef/upper"));
        /* the mounts as they are mounted: the tmpfs, then the overlay /workspace */
        ck_assert_int_eq(back->s.n_mounts, 2);
        ck_assert_int_eq(back->s.mounts[0].type, SBX_SANDBOX_MOUNT_TMPFS);
        ck_assert_int_eq(back->s.mounts[1].type, SBX_SANDBOX_MOUNT_OVERLAY);
        ck_assert_str_eq(back->s.mounts[1].dst, "/workspace");
        sbx_record_free(back);

        /* A torn or foreign record is refused, never guessed at. */
        snprintf(dir, sizeof(dir), "%s/rt/sandbox.json", root);
        FILE *f = fopen(dir, "w");
        fputs("{\"version\": 1, \"name\": \"rt\"", f);
        fclose(f);
        ck_assert_int_eq(sbx_record_load("rt", &back, &e), -EBADMSG);
        unit_rm_rf(root);
}
END_TEST

START_TEST(test_init_pidfd_refuses_a_reused_pid) {
        uint64_t st;
        int fd;

        ck_assert_int_eq(sbx_proc_start_time(getpid(), &st), 0);
        fd = sbx_init_pidfd(getpid(), st);
        ck_assert_int_ge(fd, 0);
        close(fd);
        /* same pid, another start time: not the recorded process */
        ck_assert_int_eq(sbx_init_pidfd(getpid(), st + 1), -ESRCH);
        ck_assert_int_eq(sbx_init_pidfd(0, st), -ESRCH);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_sandbox_names_follow_docker_rules,
                                 test_config_hash_tracks_every_setting, test_record_round_trip,
                                 test_init_pidfd_refuses_a_reused_pid };

        return unit_main("sandbox-record", "core", 0, CK_NORMAL, tests, UNIT_N(tests));
}

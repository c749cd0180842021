/* SPDX-License-Identifier: MIT */
/* Unit tests for persistent-sandbox records (runtime/sandbox/sandbox-record.c,
 * sandbox.c): names, the config hash, record round trips, stale detection. */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* sbx ls --json writes its text straight out (sbx_jw_*): byte for byte what
 * json-c prints for the same tree, escapes, empty containers and a tree
 * written inside included, by the rule of sbx_json_terminal_safe() for DEL,
 * C1 and bytes that are not UTF-8. */
START_TEST(test_json_writer_matches_json_c) {
        char odd[256], *text = NULL, *safe;
        size_t len = 0;
        json_object *a = json_object_new_array(), *o = json_object_new_object(), *sub = json_object_new_object(),
                    *m = json_object_new_array();
        sbx_jw w = {};

        for (int i = 1; i < 256; i++)
                odd[i - 1] = (char) i;
        odd[255] = '\0';
        json_object_object_add(o, "s", json_object_new_string(odd));
        json_object_object_add(o, "k\"/\n", json_object_new_string("/a/b \"q\" \\ é"));
        json_object_object_add(o, "null", NULL);
        json_object_object_add(o, "u", json_object_new_uint64(18446744073709551615ull));
        json_object_object_add(o, "i", json_object_new_int64(-42));
        json_object_object_add(o, "t", json_object_new_boolean(true));
        json_object_object_add(o, "empty", json_object_new_object());
        json_object_object_add(o, "none", json_object_new_array());
        json_object_array_add(m, json_object_new_string("x"));
        json_object_array_add(m, json_object_new_object());
        json_object_object_add(o, "arr", m);
        json_object_object_add(sub, "rules", json_object_new_array());
        json_object_object_add(sub, "deep", json_object_new_string("v"));
        json_object_object_add(o, "tree", json_object_get(sub));
        json_object_array_add(a, o);
        json_object_array_add(a, json_object_new_object());

        w.f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(w.f);
        sbx_jw_begin(&w, '[');
        sbx_jw_begin(&w, '{');
        sbx_jw_key(&w, "s");
        sbx_jw_str(&w, odd);
        sbx_jw_key(&w, "k\"/\n");
        sbx_jw_str(&w, "/a/b \"q\" \\ é");
        sbx_jw_key(&w, "null");
        sbx_jw_str(&w, NULL);
        sbx_jw_key(&w, "u");
        sbx_jw_u64(&w, 18446744073709551615ull);
        sbx_jw_key(&w, "i");
        sbx_jw_i64(&w, -42);
        sbx_jw_key(&w, "t");
        sbx_jw_bool(&w, true);
        sbx_jw_key(&w, "empty");
        sbx_jw_begin(&w, '{');
        sbx_jw_end(&w, '}');
        sbx_jw_key(&w, "none");
        sbx_jw_begin(&w, '[');
        sbx_jw_end(&w, ']');
        sbx_jw_key(&w, "arr");
        sbx_jw_begin(&w, '[');
        sbx_jw_str(&w, "x");
        sbx_jw_begin(&w, '{');
        sbx_jw_end(&w, '}');
        sbx_jw_end(&w, ']');
        sbx_jw_key(&w, "tree");
        sbx_jw_tree(&w, sub);
        sbx_jw_end(&w, '}');
        sbx_jw_begin(&w, '{');
        sbx_jw_end(&w, '}');
        sbx_jw_end(&w, ']');
        fclose(w.f);
        /* json-c's text by the one rule for bytes >= 0x7f (DEL, C1, not UTF-8: util.h) */
        safe = sbx_json_terminal_safe(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
        ck_assert_ptr_nonnull(safe);
        ck_assert_str_eq(text, safe);
        ck_assert(strstr(text, "\\u007f\\udc80") && strstr(text, "\\udcff"));
        free(safe);
        free(text);
        json_object_put(sub);
        json_object_put(a);
}
END_TEST

static void write_file(const char *root, const char *rel, const char *text) {
        char path[PATH_MAX];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(text, f);
        fclose(f);
}

/* The list: a running exec seen through /proc/locks (the busy file flocked),
 * and the leftover sweep still removes a dir without a lock file and a
 * dangling by-id link while keeping a listed sandbox's link. */
START_TEST(test_list_counts_execs_and_sweeps_leftovers) {
        char root[] = "/tmp/sbx-unit-XXXXXX", path[PATH_MAX], link[PATH_MAX];
        _cleanup_(sbx_record_freep) sbx_record *r = calloc(1, sizeof(sbx_record));
        sbx_sandbox **list = NULL;
        size_t n = 0;
        sbx_error e = {};
        struct stat st;
        int busy;

        ck_assert_ptr_nonnull(mkdtemp(root));
        ck_assert_int_eq(sbx_sandbox_root_set(root, &e), 0);
        snprintf(path, sizeof(path), "%s/box", root);
        ck_assert_int_eq(mkdir(path, 0700), 0);
        snprintf(r->s.name, sizeof(r->s.name), "box");
        memset(r->s.id, 'b', SBX_SANDBOX_ID_LEN);
        r->s.state = SBX_SANDBOX_STOPPED;
        r->s.created_ms = 1;
        r->s.started_ms = 2;
        r->complete = true;
        sbx_run_config_init(&r->s.config);
        ck_assert_int_eq(sbx_record_save(r, &e), 0);
        write_file(root, "box/lock", "");
        write_file(root, "box/busy", "");
        snprintf(path, sizeof(path), "%s/.by-id", root);
        ck_assert_int_eq(mkdir(path, 0700), 0);
        snprintf(link, sizeof(link), "%s/.by-id/%s", root, r->s.id);
        ck_assert_int_eq(symlink("../box", link), 0);
        snprintf(path, sizeof(path), "%s/.by-id/cccc", root);
        ck_assert_int_eq(symlink("../gone", path), 0);
        snprintf(path, sizeof(path), "%s/junk", root);
        ck_assert_int_eq(mkdir(path, 0700), 0);

        snprintf(path, sizeof(path), "%s/box/busy", root);
        busy = open(path, O_RDONLY | O_CLOEXEC);
        ck_assert_int_ge(busy, 0);
        ck_assert_int_eq(flock(busy, LOCK_SH), 0);
        ck_assert_int_eq(sbx_sandbox_list(NULL, 0, &list, &n, &e), 1);
        ck_assert_str_eq(list[0]->name, "box");
        ck_assert_uint_eq(list[0]->running_execs, 1);
        sbx_sandbox_list_free(list, n);
        close(busy);
        ck_assert_int_eq(sbx_sandbox_list(NULL, 0, &list, &n, &e), 1);
        ck_assert_uint_eq(list[0]->running_execs, 0);
        ck_assert_uint_eq(list[0]->last_used_ms > 2, true);
        sbx_sandbox_list_free(list, n);

        snprintf(path, sizeof(path), "%s/junk", root);
        ck_assert_int_eq(lstat(path, &st), -1);
        snprintf(path, sizeof(path), "%s/.by-id/cccc", root);
        ck_assert_int_eq(lstat(path, &st), -1);
        ck_assert_int_eq(lstat(link, &st), 0);
        unit_rm_rf(root);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_sandbox_names_follow_docker_rules,
                                 test_config_hash_tracks_every_setting, test_record_round_trip,
                                 test_init_pidfd_refuses_a_reused_pid, test_json_writer_matches_json_c,
                                 test_list_counts_execs_and_sweeps_leftovers };

        return unit_main("sandbox-record", "core", 0, CK_NORMAL, tests, UNIT_N(tests));
}

/* SPDX-License-Identifier: MIT */
/* Image names, store location, resolution for the launcher, apt mirror
 * discovery and entry-name normalisation (rootfs-tools/). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-tools/image.h"
#include "rootfs-tools/tree.h"
#include "unit.h"

static char tmpdir[64];

static void setup_tmp(void) {
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/sbx-test-image.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
        setenv("SBX_IMAGE_DIR", tmpdir, 1);
}

static void teardown_tmp(void) {
        unit_rm_rf(tmpdir);
}

START_TEST(test_ref_parse_defaults_tag_latest_and_strips_docker_io) {
        struct sbx_image_ref r;

        ck_assert_int_eq(sbx_image_ref_parse("openclaw-sandbox:bookworm-slim", &r, NULL), 0);
        ck_assert_str_eq(r.name, "openclaw-sandbox");
        ck_assert_str_eq(r.tag, "bookworm-slim");
        ck_assert_int_eq(sbx_image_ref_parse("debian", &r, NULL), 0);
        ck_assert_str_eq(r.tag, "latest");
        ck_assert_int_eq(sbx_image_ref_parse("docker.io/library/debian:12", &r, NULL), 0);
        ck_assert_str_eq(r.name, "debian");
        ck_assert_int_eq(sbx_image_ref_parse("docker.io/me/tool:1.0", &r, NULL), 0);
        ck_assert_str_eq(r.name, "me/tool");
        ck_assert_int_eq(sbx_image_ref_parse("registry.local:5000/team/img", &r, NULL), 0);
        ck_assert_str_eq(r.name, "registry.local:5000/team/img");
        ck_assert_str_eq(r.tag, "latest");
}
END_TEST

START_TEST(test_ref_parse_rejects_bad_names) {
        static const char *const bad[] = {"",     "Upper:1", "a/../b",      "/abs",    "a//b", "x:",
                                          "x:-t", "x:a/b",   "x@sha256:00", ".hidden", "a b"};
        struct sbx_image_ref r;
        sbx_error e = {};

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(sbx_image_ref_parse(bad[i], &r, &e) == -EINVAL, "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(test_store_dir_precedence) {
        char p[4096];

        setenv("SBX_IMAGE_DIR", "/x/y", 1);
        ck_assert_int_eq(sbx_image_store_dir(p, sizeof(p), NULL), 0);
        ck_assert_str_eq(p, "/x/y");
        setenv("SBX_IMAGE_DIR", "relative", 1);
        ck_assert_int_eq(sbx_image_store_dir(p, sizeof(p), NULL), -EINVAL);
        unsetenv("SBX_IMAGE_DIR");
        setenv("XDG_DATA_HOME", "/xdg", 1);
        ck_assert_int_eq(sbx_image_store_dir(p, sizeof(p), NULL), 0);
        ck_assert_str_eq(p, geteuid() == 0 ? "/var/lib/sbx/images" : "/xdg/sbx/images");
}
END_TEST

START_TEST(test_resolve_missing_image_says_no_such_image_and_how) {
        char p[4096];
        sbx_error e = {};

        ck_assert_int_eq(sbx_image_resolve("nothere", p, sizeof(p), NULL, &e), -ENOENT);
        ck_assert_ptr_nonnull(strstr(e.msg, "No such image: nothere:latest"));
        ck_assert_ptr_nonnull(strstr(e.msg, "sbx rootfs build nothere:latest"));
        ck_assert_ptr_nonnull(strstr(e.msg, "sbx rootfs import"));
}
END_TEST

START_TEST(test_resolve_returns_rootfs_and_config) {
        struct sbx_image_config cfg = {};
        char p[4096], want[4096], dir[4096];
        sbx_error e = {};

        snprintf(dir, sizeof(dir), "%s/images", tmpdir);
        ck_assert_int_eq(mkdir(dir, 0700), 0);
        snprintf(dir, sizeof(dir), "%s/images/team+img@v1", tmpdir);
        ck_assert_int_eq(mkdir(dir, 0700), 0);
        snprintf(want, sizeof(want), "%s/rootfs", dir);
        ck_assert_int_eq(mkdir(want, 0755), 0);
        snprintf(p, sizeof(p), "%s/image.json", dir);
        unit_write_file(
                p,
                "{\"ref\":\"team/img:v1\",\"layers\":[],\"config\":{\"Env\":[\"A=1\",\"B=2\"],"
                "\"WorkingDir\":\"/home/sandbox\",\"User\":\"sandbox\",\"Cmd\":[\"sleep\",\"infinity\"]}}");
        ck_assert_int_eq(sbx_image_resolve("team/img:v1", p, sizeof(p), &cfg, &e), 0);
        ck_assert_str_eq(p, want);
        ck_assert_str_eq(cfg.env[0], "A=1");
        ck_assert_str_eq(cfg.env[1], "B=2");
        ck_assert_ptr_null(cfg.env[2]);
        ck_assert_str_eq(cfg.working_dir, "/home/sandbox");
        ck_assert_str_eq(cfg.user, "sandbox");
        ck_assert_str_eq(cfg.cmd[1], "infinity");
        ck_assert_ptr_null(cfg.entrypoint);
        sbx_image_config_done(&cfg);
        /* a too-small buffer is an error, never a truncated path */
        ck_assert_int_eq(sbx_image_resolve("team/img:v1", p, 8, NULL, &e), -ENAMETOOLONG);
        /* the same name with another tag is a different image */
        ck_assert_int_eq(sbx_image_resolve("team/img", p, sizeof(p), NULL, &e), -ENOENT);
}
END_TEST

START_TEST(test_resolve_corrupt_record_is_an_error) {
        char p[4096];
        sbx_error e = {};

        snprintf(p, sizeof(p), "%s/images", tmpdir);
        mkdir(p, 0700);
        snprintf(p, sizeof(p), "%s/images/bad@latest", tmpdir);
        mkdir(p, 0700);
        snprintf(p, sizeof(p), "%s/images/bad@latest/image.json", tmpdir);
        unit_write_file(p, "{\"ref\": ");
        ck_assert_int_eq(sbx_image_resolve("bad", p, sizeof(p), NULL, &e), -EBADMSG);
        ck_assert_ptr_nonnull(strstr(e.msg, "not valid JSON"));
}
END_TEST

START_TEST(test_apt_mirror_from_deb822_and_list) {
        char p[4096], m[512];

        snprintf(p, sizeof(p), "%s/etc", tmpdir);
        mkdir(p, 0755);
        snprintf(p, sizeof(p), "%s/etc/apt", tmpdir);
        mkdir(p, 0755);
        snprintf(p, sizeof(p), "%s/etc/apt/sources.list.d", tmpdir);
        mkdir(p, 0755);
        snprintf(p, sizeof(p), "%s/etc/apt/sources.list.d/debian.sources", tmpdir);
        unit_write_file(
                p,
                "Types: deb\n# comment\nURIs: http://security.example/debian-security\nSuites: "
                "bookworm-security\n\n"
                "Types: deb deb-src\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\n"
                "Components: main\n");
        setenv("SBX_APT_ROOT", tmpdir, 1);
        ck_assert_int_eq(sbx_apt_mirror("bookworm", m, sizeof(m), NULL), 0);
        ck_assert_str_eq(m, "http://mirror.example/debian");
        ck_assert_int_eq(sbx_apt_mirror("trixie", m, sizeof(m), NULL), -ENOENT);
        snprintf(p, sizeof(p), "%s/etc/apt/sources.list", tmpdir);
        unit_write_file(p, "# x\ndeb [signed-by=/k.gpg] https://list.example/debian trixie main\n");
        ck_assert_int_eq(sbx_apt_mirror("trixie", m, sizeof(m), NULL), 0);
        ck_assert_str_eq(m, "https://list.example/debian");
        unsetenv("SBX_APT_ROOT");
}
END_TEST

START_TEST(test_path_normalize_refuses_escapes) {
        char out[4096];

        ck_assert_int_eq(sbx_path_normalize("./a//b/./c/", out, sizeof(out), NULL), 0);
        ck_assert_str_eq(out, "a/b/c");
        ck_assert_int_eq(sbx_path_normalize("./", out, sizeof(out), NULL), 0);
        ck_assert_str_eq(out, "");
        ck_assert_int_eq(sbx_path_normalize("..data/x", out, sizeof(out), NULL), 0);
        ck_assert_int_eq(sbx_path_normalize("a/../b", out, sizeof(out), NULL), -EPERM);
        ck_assert_int_eq(sbx_path_normalize("..", out, sizeof(out), NULL), -EPERM);
        ck_assert_int_eq(sbx_path_normalize("/etc/passwd", out, sizeof(out), NULL), -EPERM);
        ck_assert_int_eq(sbx_path_normalize("a/b", out, 3, NULL), -ENAMETOOLONG);
}
END_TEST

/* sbx_tree_rm_rf_at (the image store's removal): a directory its owner
 * cannot open (mode 000, unprivileged) is made 0700 first, and that chmod
 * acts on the entry itself, never on what a symlink put there meanwhile
 * points to. A racer swaps such a directory and a symlink to a file of the
 * same user ("the host's": outside the tree) with renameat2
 * RENAME_EXCHANGE while the tree is removed, many times; the file's mode
 * never changes. Root runs it as nobody (root opens any directory). */
static atomic_bool race_stop;
static int race_tfd;

static void *swapper(void *arg) {
        (void) arg;
        while (!atomic_load(&race_stop))
                (void) syscall(SYS_renameat2, race_tfd, "d", race_tfd, "s", RENAME_EXCHANGE);
        return NULL;
}

START_TEST(test_tree_rm_chmod_never_follows_a_symlink) {
        char base[] = "/tmp/sbx-test-tree-rm.XXXXXX", host[64];
        struct stat st;
        pid_t pid;
        int status;

        ck_assert_ptr_nonnull(mkdtemp(base));
        ck_assert_int_eq(chmod(base, 0755), 0);
        if (geteuid() == 0)
                ck_assert_int_eq(chown(base, 65534, 65534), 0);
        snprintf(host, sizeof(host), "%s/host-file", base);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                int bfd, changed = 0;

                if (geteuid() == 0 && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
                                       setresuid(65534, 65534, 65534) < 0))
                        _exit(2);
                unit_write_file(host, "x\n");
                if (chmod(host, 0644) < 0 || (bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
                        _exit(2);
                for (int i = 0; i < 2000 && !changed; i++) {
                        pthread_t t;

                        if (mkdirat(bfd, "t", 0755) < 0 || (race_tfd = openat(bfd, "t", O_RDONLY | O_DIRECTORY)) < 0 ||
                            mkdirat(race_tfd, "d", 0) < 0 || symlinkat(host, race_tfd, "s") < 0)
                                _exit(2);
                        atomic_store(&race_stop, false);
                        if (pthread_create(&t, NULL, swapper, NULL) != 0)
                                _exit(2);
                        (void) sbx_tree_rm_rf_at(bfd, "t");
                        atomic_store(&race_stop, true);
                        pthread_join(t, NULL);
                        close(race_tfd);
                        /* what the race left: removed without one */
                        (void) fchmodat(bfd, "t/d", 0700, AT_SYMLINK_NOFOLLOW);
                        (void) unlinkat(bfd, "t/s", 0);
                        (void) unlinkat(bfd, "t/d", 0);
                        (void) unlinkat(bfd, "t/d", AT_REMOVEDIR);
                        (void) unlinkat(bfd, "t/s", AT_REMOVEDIR);
                        (void) unlinkat(bfd, "t", AT_REMOVEDIR);
                        if (stat(host, &st) < 0)
                                _exit(2);
                        changed = (st.st_mode & 07777) != 0644;
                }
                _exit(changed);
        }
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_int_eq(stat(host, &st), 0);
        unit_rm_rf(base);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 2, "the racing child could not run (status %d)", status);
        ck_assert_msg((st.st_mode & 07777) == 0644, "the file a symlink in the tree points to became %o", st.st_mode & 07777);
        ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

int main(void) {
        Suite *s = suite_create("image");
        TCase *names = unit_tcase(s, "names", 0), *store = unit_tcase(s, "store", 0);

        tcase_add_test(names, test_ref_parse_defaults_tag_latest_and_strips_docker_io);
        tcase_add_test(names, test_ref_parse_rejects_bad_names);
        tcase_add_test(names, test_path_normalize_refuses_escapes);
        tcase_add_checked_fixture(store, setup_tmp, teardown_tmp);
        tcase_add_test(store, test_store_dir_precedence);
        tcase_add_test(store, test_resolve_missing_image_says_no_such_image_and_how);
        tcase_add_test(store, test_resolve_returns_rootfs_and_config);
        tcase_add_test(store, test_resolve_corrupt_record_is_an_error);
        tcase_add_test(store, test_apt_mirror_from_deb822_and_list);
        tcase_add_test(unit_tcase(s, "tree", 120), test_tree_rm_chmod_never_follows_a_symlink);
        return unit_run(s, CK_SILENT);
}

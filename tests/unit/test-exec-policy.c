/* SPDX-License-Identifier: MIT */
/* Unit tests for issue 6: command resolution inside the sandbox view
 * (runtime/security/exec-resolve.c) and the allowlist matching and decision
 * (runtime/security/exec-allow.c). The view is built on real directories. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "security/security.h"
#include "unit.h"

static char base[] = "/tmp/sbx-unit-exec.XXXXXX";
static sbx_view view;

static void put(const char *rel, const char *text, mode_t mode) {
        char p[PATH_MAX];

        snprintf(p, sizeof(p), "%s/%s", base, rel);
        unit_write_file(p, text);
        ck_assert_int_eq(chmod(p, mode), 0);
}

static void link_at(const char *target, const char *rel) {
        char p[PATH_MAX];

        snprintf(p, sizeof(p), "%s/%s", base, rel);
        ck_assert_int_eq(symlink(target, p), 0);
}

static int src(const char *rel) {
        char p[PATH_MAX];
        int fd;

        snprintf(p, sizeof(p), "%s/%s", base, rel);
        fd = open(p, O_PATH | O_CLOEXEC);
        ck_assert_int_ge(fd, 0);
        return fd;
}

/* Host tree: root/usr/bin/{tool,plain,script.sh,loop}, ws/{...}, secret.
 * View: / empty, /usr = root/usr, /bin -> usr/bin, /workspace = ws, /tmp tmpfs. */
static void setup(void) {
        char p[PATH_MAX];

        ck_assert_ptr_nonnull(mkdtemp(base));
        for (const char *d = "root\0root/usr\0root/usr/bin\0ws\0"; *d; d += strlen(d) + 1) {
                snprintf(p, sizeof(p), "%s/%s", base, d);
                ck_assert_int_eq(mkdir(p, 0755), 0);
        }
        put("root/usr/bin/tool", "not an ELF file", 0755);
        put("root/usr/bin/plain", "data", 0644);
        put("root/usr/bin/script.sh", "#!/bin/tool -x  \necho\n", 0755);
        put("root/usr/bin/nested.sh", "#! /usr/bin/script.sh\n", 0755);
        put("root/usr/bin/badbang", "#!", 0755);
        put("secret", "host secret", 0755);
        link_at("loop", "root/usr/bin/loop");
        link_at("/etc/../../secret", "ws/abs-escape");
        link_at("../../../../../secret", "ws/rel-escape");
        link_at("../../..", "ws/up");
        link_at("/bin/tool", "ws/tool-link");
        memset(&view, 0, sizeof(view));
        ck_assert_int_eq(sbx_view_add(&view, "/", -EBADF, NULL, false), 0);
        ck_assert_int_eq(sbx_view_add(&view, "usr", src("root/usr"), NULL, false), 0);
        ck_assert_int_eq(sbx_view_add(&view, "bin", -EBADF, "usr/bin", false), 0);
        ck_assert_int_eq(sbx_view_add(&view, "workspace", src("ws"), NULL, false), 0);
        ck_assert_int_eq(sbx_view_add(&view, "tmp", -EBADF, NULL, false), 0);
}

static void teardown(void) {
        sbx_view_done(&view);
        unit_rm_rf(base);
}

static int resolve(const char *path, char out[static PATH_MAX]) {
        int fd = -EBADF, r = sbx_view_resolve(&view, path, "/workspace", out, &fd);
        if (fd >= 0)
                close(fd);
        return r;
}

START_TEST(test_resolve_follows_symlinks_within_the_view) {
        char out[PATH_MAX];

        ck_assert_int_eq(resolve("/bin/tool", out), 0);
        ck_assert_str_eq(out, "/usr/bin/tool");
        ck_assert_int_eq(resolve("tool-link", out), 0);          /* relative to the workdir */
        ck_assert_str_eq(out, "/usr/bin/tool");
        ck_assert_int_eq(resolve("/workspace/../bin/./tool", out), 0);
        ck_assert_str_eq(out, "/usr/bin/tool");
}
END_TEST

START_TEST(test_resolve_symlinks_cannot_leave_the_sandbox_root) {
        char out[PATH_MAX];

        /* The host file exists one level above ws; the sandbox has no such path. */
        ck_assert_int_eq(resolve("/workspace/abs-escape", out), -ENOENT);
        ck_assert_int_eq(resolve("/workspace/rel-escape", out), -ENOENT);
        /* ".." from a bind's top goes to the sandbox's parent dir, not the host's. */
        ck_assert_int_eq(resolve("/workspace/up/usr/bin/tool", out), 0);
        ck_assert_str_eq(out, "/usr/bin/tool");
        ck_assert_int_eq(resolve("/workspace/../../../secret", out), -ENOENT);
}
END_TEST

START_TEST(test_resolve_errors) {
        char out[PATH_MAX];

        ck_assert_int_eq(resolve("/usr/bin/loop", out), -ELOOP);
        ck_assert_int_eq(resolve("/tmp/anything", out), -ENOENT);       /* an empty tmpfs */
        ck_assert_int_eq(resolve("/usr/bin/tool/x", out), -ENOTDIR);
        ck_assert_int_eq(resolve("/nonexistent", out), -ENOENT);
}
END_TEST

START_TEST(test_exec_resolve_path_lookup_and_shebang_chain) {
        sbx_exec_target t;
        sbx_error e = {};
        char *argv[] = { "nested.sh", "a", NULL }, **out;

        ck_assert_int_eq(sbx_exec_resolve(&view, "nested.sh", "/nope:/bin", "/workspace", &t, &e), 0);
        ck_assert_uint_eq(t.n_chain, 3);
        ck_assert_str_eq(t.chain[0].path, "/usr/bin/nested.sh");
        ck_assert_str_eq(t.chain[1].path, "/usr/bin/script.sh");
        ck_assert_str_eq(t.chain[1].arg, "");
        ck_assert_str_eq(t.chain[2].path, "/usr/bin/tool");
        ck_assert_str_eq(t.chain[2].arg, "-x");          /* trailing blanks dropped */
        /* the kernel's rewrite, twice: tool -x script.sh nested.sh a */
        out = sbx_exec_argv(&t, argv);
        ck_assert_ptr_nonnull(out);
        ck_assert_str_eq(out[0], "/usr/bin/tool");
        ck_assert_str_eq(out[1], "-x");
        ck_assert_str_eq(out[2], "/usr/bin/script.sh");
        ck_assert_str_eq(out[3], "/usr/bin/nested.sh");
        ck_assert_str_eq(out[4], "a");
        ck_assert_ptr_null(out[5]);
        free(out);
        sbx_exec_target_done(&t);
}
END_TEST

START_TEST(test_exec_resolve_refuses_non_executables) {
        sbx_exec_target t;
        sbx_error e = {};

        ck_assert_int_eq(sbx_exec_resolve(&view, "plain", "/bin", "/", &t, &e), -EACCES);
        sbx_exec_target_done(&t);
        ck_assert_int_eq(sbx_exec_resolve(&view, "missing", "/bin", "/", &t, &e), -ENOENT);
        sbx_exec_target_done(&t);
        ck_assert_int_eq(sbx_exec_resolve(&view, "/usr/bin", "", "/", &t, &e), -EACCES);  /* a directory */
        sbx_exec_target_done(&t);
        ck_assert_int_eq(sbx_exec_resolve(&view, "/usr/bin/badbang", "", "/", &t, &e), -ENOEXEC);
        ck_assert_ptr_nonnull(strstr(e.msg, "/usr/bin/badbang"));
        sbx_exec_target_done(&t);
}
END_TEST

START_TEST(test_glob_semantics_match_openclaw) {
        ck_assert(sbx_exec_glob_match("/usr/bin/*", "/usr/bin/ls"));
        ck_assert(!sbx_exec_glob_match("/usr/bin/*", "/usr/bin/x/ls"));      /* * stays in a segment */
        ck_assert(sbx_exec_glob_match("/usr/**", "/usr/bin/x/ls"));          /* ** crosses '/' */
        ck_assert(sbx_exec_glob_match("/usr/**/ls", "/usr/a/b/ls"));
        ck_assert(sbx_exec_glob_match("/usr/bin/l?", "/usr/bin/ls"));
        ck_assert(!sbx_exec_glob_match("/usr/bin?ls", "/usr/bin/ls"));       /* ? is never '/' */
        ck_assert(!sbx_exec_glob_match("/usr/bin/ls", "/usr/bin/lsx"));      /* anchored */
        ck_assert(!sbx_exec_glob_match("/usr/bin/ls", "/x/usr/bin/ls"));
        ck_assert(!sbx_exec_glob_match("/usr/bin/LS", "/usr/bin/ls"));       /* case-sensitive */
}
END_TEST

START_TEST(test_allowlist_matching_rules) {
        char *pats[] = { "rg", "/usr/bin/g*", "/bin/sh" };
        const char *resolved[] = { NULL, NULL, "/usr/bin/dash" };
        sbx_exec_rules r = { .active = true, .patterns = pats, .n_patterns = 3, .resolved = resolved };
        char *star[] = { "*" };
        sbx_exec_rules all = { .active = true, .patterns = star, .n_patterns = 1 };

        ck_assert_int_eq(sbx_exec_allow_match(&r, "/usr/bin/rg"), -1);      /* bare names never match */
        ck_assert_int_eq(sbx_exec_allow_match(&r, "/usr/bin/grep"), 1);
        ck_assert_int_eq(sbx_exec_allow_match(&r, "/usr/bin/dash"), 2);     /* the literal's resolved file */
        ck_assert_int_eq(sbx_exec_allow_match(&r, "/bin/sh"), -1);          /* the decision is on the file */
        ck_assert_int_eq(sbx_exec_allow_match(&all, "/anything/at/all"), 0);
}
END_TEST

static sbx_exec_target chain2(const char *script, const char *interp) {
        sbx_exec_target t;

        sbx_exec_target_init(&t);
        snprintf(t.chain[0].path, PATH_MAX, "%s", script);
        snprintf(t.chain[1].path, PATH_MAX, "%s", interp);
        t.n_chain = 2;
        return t;
}

START_TEST(test_decide_on_every_file_of_the_chain) {
        char *pats[] = { "/workspace/run.sh", "/usr/bin/dash" };
        sbx_exec_rules r = { .active = true, .patterns = pats, .n_patterns = 2, .key = "--exec-allow" };
        sbx_exec_target ok = chain2("/workspace/run.sh", "/usr/bin/dash");
        sbx_exec_target bad = chain2("/workspace/run.sh", "/usr/bin/perl");
        sbx_exec_verdict v;

        sbx_exec_decide(&r, &ok, &v);
        ck_assert(v.decided && v.allow);
        ck_assert_str_eq(v.file, "/workspace/run.sh");
        ck_assert_ptr_nonnull(strstr(v.rule, "matches --exec-allow pattern '/workspace/run.sh'"));
        sbx_exec_decide(&r, &bad, &v);
        ck_assert(!v.allow);
        ck_assert_str_eq(v.file, "/usr/bin/perl");
        ck_assert_str_eq(v.rule, "exec-allow: interpreter '/usr/bin/perl' of '/workspace/run.sh' "
                                 "matches no pattern of --exec-allow");
        ck_assert_str_eq(v.key, "--exec-allow");
        r.active = false;
        sbx_exec_decide(&r, &bad, &v);
        ck_assert(v.allow);
        ck_assert_str_eq(v.key, "");
}
END_TEST

int main(void) {
        Suite *s = suite_create("exec-policy");
        TCase *tc = unit_tcase(s, "resolve", 0);
        TCase *tm = unit_tcase(s, "allowlist", 0);

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_resolve_follows_symlinks_within_the_view);
        tcase_add_test(tc, test_resolve_symlinks_cannot_leave_the_sandbox_root);
        tcase_add_test(tc, test_resolve_errors);
        tcase_add_test(tc, test_exec_resolve_path_lookup_and_shebang_chain);
        tcase_add_test(tc, test_exec_resolve_refuses_non_executables);
        tcase_add_test(tm, test_glob_semantics_match_openclaw);
        tcase_add_test(tm, test_allowlist_matching_rules);
        tcase_add_test(tm, test_decide_on_every_file_of_the_chain);
        return unit_run(s, CK_NORMAL);
}

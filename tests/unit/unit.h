/* What every Check-based unit test (suite 'unit') shares: the runner that prints TAP on stdout
 * and sets the exit status, test cases added in one call, and the temporary files and
 * directories the tests make and remove. Each test-*.c builds its Suite and ends in
 * `return unit_run(s, CK_...);`. */
#pragma once

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A test case NAME, already added to S; TIMEOUT in seconds, 0 for Check's default. */
static inline TCase *unit_tcase(Suite *s, const char *name, double timeout) {
        TCase *tc = tcase_create(name);

        if (timeout > 0)
                tcase_set_timeout(tc, timeout);
        suite_add_tcase(s, tc);
        return tc;
}

/* Runs every test of S, TAP on stdout (MODE: what Check prints besides, CK_SILENT or
 * CK_NORMAL); returns the exit status: 0 when every test passed, else 1. */
static inline int unit_run(Suite *s, enum print_output mode) {
        SRunner *sr = srunner_create(s);
        int failed;

        srunner_set_tap(sr, "-");
        srunner_run_all(sr, mode);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? 1 : 0;
}

/* The main() of a test file with one test case: suite SUITE, test case NAME (TIMEOUT as for
 * unit_tcase()) holding TESTS in order, run as unit_run() runs it. */
static inline int unit_main(const char *suite, const char *name, double timeout, enum print_output mode,
                            const TTest *const *tests, size_t n) {
        Suite *s = suite_create(suite);
        TCase *tc = unit_tcase(s, name, timeout);

        for (size_t i = 0; i < n; i++)
                tcase_add_test(tc, tests[i]);
        return unit_run(s, mode);
}

#define UNIT_N(a) (sizeof(a) / sizeof((a)[0]))

/* Writes TEXT to the file PATH (created or truncated); the test fails if it cannot. */
static inline void unit_write_file(const char *path, const char *text) {
        FILE *f = fopen(path, "we");

        ck_assert_msg(f != NULL, "cannot write %s", path);
        fputs(text, f);
        ck_assert_int_eq(fclose(f), 0);
}

static inline int unit_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
        (void) st;
        (void) ftw;
        return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Removes the tree DIR made by the test (links are removed, never followed); the test fails if
 * anything is left. */
static inline void unit_rm_rf(const char *dir) {
        ck_assert_msg(nftw(dir, unit_rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0, "cannot remove %s", dir);
}

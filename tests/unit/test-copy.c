/* SPDX-License-Identifier: MIT */
/* util/file.c sbx_copy_sparse: what sbx commit and the image store copy
 * keeps its holes (a file of any size the other side made at no cost must
 * not cost the host more blocks than it holds) and every byte of its data. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "unit.h"

static int tmpfile_fd(void) {
        char path[] = "/var/tmp/sbx-copy-XXXXXX";     /* a disk file system: SEEK_DATA, holes */
        int fd = mkstemp(path);

        ck_assert_int_ge(fd, 0);
        unlink(path);
        return fd;
}

static off_t blocks_kib(int fd) {
        struct stat st;

        ck_assert_int_eq(fstat(fd, &st), 0);
        return (off_t) st.st_blocks / 2;
}

static void expect_same(int a, int b) {
        char x[65536], y[65536];
        struct stat sa, sb;

        ck_assert_int_eq(fstat(a, &sa), 0);
        ck_assert_int_eq(fstat(b, &sb), 0);
        ck_assert_int_eq(sa.st_size, sb.st_size);
        for (off_t off = 0; off < sa.st_size; off += (off_t) sizeof(x)) {
                ssize_t n = pread(a, x, sizeof(x), off), m = pread(b, y, sizeof(y), off);
                ck_assert_int_eq(n, m);
                ck_assert(memcmp(x, y, (size_t) n) == 0);
        }
}

START_TEST(test_copy_sparse_keeps_holes) {
        int in = tmpfile_fd(), out = tmpfile_fd();

        /* data at 0, at 10 MiB and a hole to 64 MiB */
        ck_assert_int_eq(pwrite(in, "head", 4, 0), 4);
        ck_assert_int_eq(pwrite(in, "mid", 3, 10 << 20), 3);
        ck_assert_int_eq(ftruncate(in, (off_t) 64 << 20), 0);
        ck_assert_int_eq(sbx_copy_sparse(in, out), 0);
        ck_assert_int_le(blocks_kib(out), blocks_kib(in) + 64);
        expect_same(in, out);
        close(in);
        close(out);
}
END_TEST

START_TEST(test_copy_dense_and_empty) {
        int in = tmpfile_fd(), out = tmpfile_fd(), e = tmpfile_fd(), eo = tmpfile_fd();
        char buf[200000];

        for (size_t i = 0; i < sizeof(buf); i++)
                buf[i] = (char) (i * 7 + 1);
        ck_assert_int_eq(write(in, buf, sizeof(buf)), (ssize_t) sizeof(buf));
        ck_assert_int_eq(sbx_copy_sparse(in, out), 0);
        expect_same(in, out);
        ck_assert_int_eq(sbx_copy_sparse(e, eo), 0);
        expect_same(e, eo);
        close(in);
        close(out);
        close(e);
        close(eo);
}
END_TEST

START_TEST(test_copy_data_at_the_end) {
        int in = tmpfile_fd(), out = tmpfile_fd();

        ck_assert_int_eq(pwrite(in, "tail", 4, (off_t) 20 << 20), 4);
        ck_assert_int_eq(sbx_copy_sparse(in, out), 0);
        ck_assert_int_le(blocks_kib(out), blocks_kib(in) + 64);
        expect_same(in, out);
        close(in);
        close(out);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_copy_sparse_keeps_holes, test_copy_dense_and_empty, test_copy_data_at_the_end };

        return unit_main("copy", "copy", 0, CK_SILENT, tests, UNIT_N(tests));
}

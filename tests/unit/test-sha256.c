/* SPDX-License-Identifier: MIT */
/* SHA-256 against the FIPS 180-4 / NIST example vectors. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"

static void expect(const char *msg, size_t len, const char *hex) {
        char got[SBX_SHA256_HEX_SIZE];

        sbx_sha256_hex(msg, len, got);
        ck_assert_str_eq(got, hex);
}

START_TEST(test_sha256_nist_vectors) {
        expect("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        expect("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        expect("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        expect("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmno"
               "pqrsmnopqrstnopqrstu",
               112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(test_sha256_million_a_in_odd_chunks) {
        struct sbx_sha256 s;
        char got[SBX_SHA256_HEX_SIZE], *buf = malloc(1000000);
        size_t off = 0, step = 1;

        memset(buf, 'a', 1000000);
        sbx_sha256_init(&s);
        while (off < 1000000) { /* chunk sizes 1, 2, 3, ... cross every block boundary */
                size_t n = step < 1000000 - off ? step : 1000000 - off;
                sbx_sha256_update(&s, buf + off, n);
                off += n, step = step % 131 + 1;
        }
        sbx_sha256_final_hex(&s, got);
        ck_assert_str_eq(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        free(buf);
}
END_TEST

START_TEST(test_sha256_padding_boundaries_match_oneshot) {
        /* 55, 56, 63, 64, 65 bytes: the lengths where padding spills over. */
        static const size_t lens[] = {55, 56, 63, 64, 65, 119, 120};
        char buf[128];

        memset(buf, 'x', sizeof(buf));
        for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
                struct sbx_sha256 s;
                char a[SBX_SHA256_HEX_SIZE], b[SBX_SHA256_HEX_SIZE];
                sbx_sha256_hex(buf, lens[i], a);
                sbx_sha256_init(&s);
                sbx_sha256_update(&s, buf, 1);
                sbx_sha256_update(&s, buf + 1, lens[i] - 1);
                sbx_sha256_final_hex(&s, b);
                ck_assert_str_eq(a, b);
        }
        /* 64 x 'x' checked against coreutils sha256sum */
        expect(buf, 64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_sha256_nist_vectors, test_sha256_million_a_in_odd_chunks,
                                 test_sha256_padding_boundaries_match_oneshot };

        return unit_main("sha256", "vectors", 0, CK_SILENT, tests, UNIT_N(tests));
}

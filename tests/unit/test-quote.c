/* SPDX-License-Identifier: MIT */
/* util/quote.c: names a sandbox chose, made safe for the operator's terminal. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"

static void expect_json(const char *in, const char *want);

static void expect(const char *in, const char *want) {
        char *got = sbx_quoted(in);

        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, want);
        free(got);
}

START_TEST(test_quote_plain_text_as_it_is) {
        expect("", "");
        expect("src/main.c", "src/main.c");
        expect("a b (1).txt", "a b (1).txt");
        expect("na\xc3\xafve/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80", "na\xc3\xafve/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80");
}
END_TEST

START_TEST(test_quote_controls_and_bad_bytes) {
        expect("a\nb", "\"a\\nb\"");
        expect("zz\r\x1b[2K", "\"zz\\r\\033[2K\"");
        expect("\a\b\t\v\f", "\"\\a\\b\\t\\v\\f\"");
        expect("\x7f", "\"\\177\"");
        expect("say \"hi\" \\o/", "\"say \\\"hi\\\" \\\\o/\"");
        /* C1 CSI as UTF-8 (U+009B) and raw; not UTF-8; overlong ESC; a surrogate */
        expect("\xc2\x9b" "2J", "\"\\302\\233" "2J\"");
        expect("\x9b" "2J", "\"\\233" "2J\"");
        expect("\xff\xfe", "\"\\377\\376\"");
        expect("\xe0\x80\x9b", "\"\\340\\200\\233\"");
        expect("\xed\xa0\x80", "\"\\355\\240\\200\"");
        /* a sequence cut short at the end */
        expect("a\xe6\x97", "\"a\\346\\227\"");
        /* printable UTF-8 next to a control keeps its bytes */
        expect("\xc3\xa9\n", "\"\xc3\xa9\\n\"");
}
END_TEST

/* red15: a bidirectional control (Trojan Source, CVE-2021-42574) reorders the
 * rest of the operator's line: quoted as a C1 control is; other RTL text prints */
START_TEST(test_quote_bidi_controls) {
        expect("\xe2\x80\xaetxt.sh", "\"\\342\\200\\256txt.sh\"");                 /* U+202E RLO */
        expect("a\xe2\x81\xa6" "b\xe2\x81\xa9", "\"a\\342\\201\\246b\\342\\201\\251\"");  /* LRI, PDI */
        expect("\xe2\x80\x8f\xd8\x9c", "\"\\342\\200\\217\\330\\234\"");        /* RLM, ALM */
        expect("\xe2\x80\xaa\xe2\x80\xac", "\"\\342\\200\\252\\342\\200\\254\"");  /* LRE, PDF */
        /* neighbours that are no control print: U+2010, U+202F, U+2065, U+206A; Hebrew, Arabic */
        expect("\xe2\x80\x90\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
               "\xe2\x80\x90\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
        expect("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xd8\xb3\xd9\x84\xd8\xa7\xd9\x85",
               "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xd8\xb3\xd9\x84\xd8\xa7\xd9\x85");
        ck_assert(!sbx_text_plain_line("+\tif (admin) { \xe2\x80\xae } \xe2\x81\xa6// ok"));
        expect_json("[\"\xe2\x80\xae" "evil\", \"\xd8\x9c\xe2\x81\xa9\"]", "[\"\\u202eevil\", \"\\u061c\\u2069\"]");
        expect_json("\xe2\x80\x8e\xe2\x80\xab", "\\u200e\\u202b");
}
END_TEST

static void expect_scrub(const char *in, const char *want) {
        char buf[64];

        snprintf(buf, sizeof(buf), "%s", in);
        sbx_text_scrub(buf);
        ck_assert_str_eq(buf, want);
}

/* an error message quoting what a sandbox chose: '?' per byte, the length kept */
START_TEST(test_text_scrub) {
        expect_scrub("interpreter '/bin/sh'", "interpreter '/bin/sh'");
        expect_scrub("na\xc3\xafve \xe6\x97\xa5 \xf0\x9f\x98\x80", "na\xc3\xafve \xe6\x97\xa5 \xf0\x9f\x98\x80");
        expect_scrub("a\x1b[2J\rb\x7f\tc", "a?[2J?b??c");
        expect_scrub("\xc2\x9b" "2J \x9b" "2J", "??2J ?2J");                     /* C1 CSI: UTF-8, raw */
        expect_scrub("\xe2\x80\xae" "cod \xd8\x9c", "???cod ??");                  /* RLO, ALM */
        expect_scrub("\xff\xe6\x97" "a\xc0\xaf", "???a??");                         /* cut short, overlong */
}
END_TEST

START_TEST(test_text_plain_for_messages) {
        ck_assert(sbx_text_plain("exec '/usr/bin/x': \"quoted\" \\ ok \xc3\xa9"));
        ck_assert(!sbx_text_plain("commit: stat 'a\rb'"));
        ck_assert(!sbx_text_plain("\xc2\x9b"));
        ck_assert(!sbx_text_plain("\xff"));
        ck_assert(!sbx_text_plain("\tindented"));
}
END_TEST

/* a line of a patch (sbx diff on a terminal): tabs are plain, nothing else is */
START_TEST(test_text_plain_line) {
        ck_assert(sbx_text_plain_line("+\tif (x) \"y\"; \xc3" "\xa9"));
        ck_assert(!sbx_text_plain_line("+ok\rhidden"));
        ck_assert(!sbx_text_plain_line("+\x1b[1A\x1b[2K"));
        ck_assert(!sbx_text_plain_line("+\xc2\x9b" "31m"));
        ck_assert(!sbx_text_plain_line("+\x7f"));
        ck_assert(!sbx_text_plain_line("+\xff"));
}
END_TEST

static void expect_json(const char *in, const char *want) {
        char *got = sbx_json_terminal_safe(in);

        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, want);
        free(got);
}

START_TEST(test_json_c1_and_del_escaped) {
        expect_json("{\"path\": \"a.txt\"}", "{\"path\": \"a.txt\"}");
        expect_json("[\"c1\xc2\x9b" "2J\x7f\"]", "[\"c1\\u009b2J\\u007f\"]");
        expect_json("\xc2\x80\xc2\x9f\xc2\xa0", "\\u0080\\u009f\xc2\xa0");     /* U+00A0 prints: kept */
        expect_json("\xc3\xa9\xe6\x97\xa5", "\xc3\xa9\xe6\x97\xa5");
}
END_TEST

/* what is not UTF-8: \udcXX per byte (PEP 383), so the text parses and keeps the bytes */
START_TEST(test_json_invalid_utf8_as_lone_surrogates) {
        expect_json("[\"a\xff\"]", "[\"a\\udcff\"]");
        expect_json("end\xc3", "end\\udcc3");                                 /* a lone lead byte */
        expect_json("\xc0\xaf\xe0\x80\x9b", "\\udcc0\\udcaf\\udce0\\udc80\\udc9b");   /* overlong */
        expect_json("\xed\xa0\x80", "\\udced\\udca0\\udc80");             /* a surrogate in UTF-8 */
        expect_json("\x9b" "2J", "\\udc9b2J");                                  /* a raw C1 byte */
        expect_json("\xf4\x90\x80\x80\xf0\x9f\x98\x80", "\\udcf4\\udc90\\udc80\\udc80\xf0\x9f\x98\x80"); /* > U+10FFFF */
}
END_TEST

/* Go's text/tabwriter as docker ps and runc list use it: cells padded to the
 * column's widest + padding (at least minwidth), in characters; the last cell as is */
START_TEST(test_tabwrite_as_go) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        ck_assert_ptr_nonnull(f);
        sbx_tabwrite(f, "ID\tPID\tNAME\nabcdefghijkl\t1\tx\n\xe2\x80\xa6\t22\ty y\n", 10, 3);
        fclose(f);
        /* column 1: 12 + 3 = 15 wide; column 2: 3 + 3 < 10, so 10 */
        ck_assert_str_eq(buf, "ID             PID       NAME\n"
                              "abcdefghijkl   1         x\n"
                              "\xe2\x80\xa6              22        y y\n");
        free(buf);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_quote_plain_text_as_it_is, test_quote_controls_and_bad_bytes, test_quote_bidi_controls,
                                 test_text_scrub, test_text_plain_for_messages, test_text_plain_line, test_json_c1_and_del_escaped,
                                 test_json_invalid_utf8_as_lone_surrogates, test_tabwrite_as_go };

        return unit_main("quote", "quote", 0, CK_SILENT, tests, UNIT_N(tests));
}

/* SPDX-License-Identifier: MIT */
/* policy/json5.c: every JSON5 feature and error, replayed against what the npm json5 package
 * (OpenClaw's parser) answered for the same inputs (json5/oracle.jsonl), plus what the oracle
 * cannot show: json-c types, invalid UTF-8, limits, the API contract. Leaks on error paths are
 * caught by running this under ASan (the sanitizers lane) or valgrind (see meson.build). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-config.h"
#include "policy/policy.h"
#include "json5-canon.h"
#include "unit.h"

static struct json_object *oracle; /* array of the oracle file's records */

static int parse(const char *text, struct json_object **ret, sbx_error *err) {
        return sbx_json5_parse(text, strlen(text), ret, err);
}

/* Every number is an int exactly when its value is integral and inside int64. */
static void check_number_types(struct json_object *o) {
        switch (json_object_get_type(o)) {
        case json_type_double: {
                double d = json_object_get_double(o);

                ck_assert_msg(!(isfinite(d) && d == trunc(d) && d >= -0x1p63 && d < 0x1p63),
                              "integral value %.17g stored as double", d);
                break;
        }
        case json_type_array:
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        check_number_types(json_object_array_get_idx(o, i));
                break;
        case json_type_object: {
                json_object_object_foreach(o, k, v) {
                        (void) k;
                        check_number_types(v);
                }
                break;
        }
        default:
                break;
        }
}

static const char *field(struct json_object *rec, const char *name) {
        struct json_object *v;

        return json_object_object_get_ex(rec, name, &v) ? json_object_get_string(v) : NULL;
}

START_TEST(test_json5_matches_npm_json5_oracle) {
        struct json_object *rec = json_object_array_get_idx(oracle, (size_t) _i), *in, *val = NULL;
        const char *ok = field(rec, "ok"), *pos = field(rec, "err"), *dev = field(rec, "dev");
        sbx_error err = {};
        int r;

        ck_assert(json_object_object_get_ex(rec, "in", &in));
        r = sbx_json5_parse(json_object_get_string(in), (size_t) json_object_get_string_len(in), &val, &err);

        if (ok) {
                char *got;

                ck_assert_msg(r == 0, "case %d %s: json5 accepts, sbx said %d %s", _i,
                              json_object_get_string(in), r, err.msg);
                got = json5_canon(val);
                ck_assert_str_eq(got, ok);
                check_number_types(val);
                free(got);
                json_object_put(val);
        } else if (pos) {
                const char *msg = field(rec, "msg");
                char want[600];
                size_t n;

                ck_assert_msg(r == -EINVAL, "case %d: json5 refuses (%s at %s), sbx said %d", _i, msg, pos,
                              r);
                /* "L:C" -> "line L col C: " + json5's words; for characters json5 prints raw
                 * (DEL, C1 controls, non-ASCII) compare up to the quote only. */
                snprintf(want, sizeof(want), "line %.*s col %s: %s", (int) strcspn(pos, ":"), pos,
                         strchr(pos, ':') + 1, msg);
                n = strlen(want);
                for (const unsigned char *c = (const unsigned char *) msg; *c; c++)
                        if (*c < 0x20 || *c >= 0x7F) {
                                n = (size_t) (strchr(want, '\'') + 1 - want);
                                break;
                        }
                ck_assert_msg(strncmp(err.msg, want, n) == 0, "case %d: want \"%s\", got \"%s\"", _i, want,
                              err.msg);
        } else {
                ck_assert_ptr_nonnull(dev);
                if (strcmp(dev, "depth") == 0) {
                        ck_assert_int_eq(r, -E2BIG);
                        ck_assert_ptr_nonnull(strstr(err.msg, "nesting deeper than 128"));
                } else
                        ck_abort_msg("case %d: unknown deviation %s", _i, dev);
                ck_assert_ptr_null(val);
        }
}
END_TEST

START_TEST(test_json5_numbers_map_to_int_or_double) {
        static const struct {
                const char *text;
                enum json_type type;
                int64_t i;
                double d;
        } cases[] = {
                {"1", json_type_int, 1, 0},
                {"+1", json_type_int, 1, 0},
                {"-0", json_type_int, 0, 0},
                {"1e3", json_type_int, 1000, 0},
                {"2.0", json_type_int, 2, 0},
                {"0x10", json_type_int, 16, 0},
                {"-0xFF", json_type_int, -255, 0},
                {"0x7FFFFFFFFFFFFC00", json_type_int, INT64_C(0x7FFFFFFFFFFFFC00), 0},
                {"-9223372036854775808", json_type_int, INT64_MIN, 0},
                {"9223372036854775807", json_type_double, 0, 0x1p63}, /* rounds to 2^63 */
                {"1.5", json_type_double, 0, 1.5},
                {".5", json_type_double, 0, 0.5},
                {"5.", json_type_int, 5, 0},
                {"1e-3", json_type_double, 0, 0.001},
                {"1e400", json_type_double, 0, INFINITY},
                {"Infinity", json_type_double, 0, INFINITY},
                {"-Infinity", json_type_double, 0, -INFINITY},
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct json_object *o = NULL;

                ck_assert_int_eq(parse(cases[i].text, &o, NULL), 0);
                ck_assert_msg(json_object_get_type(o) == cases[i].type, "%s", cases[i].text);
                if (cases[i].type == json_type_int)
                        ck_assert(json_object_get_int64(o) == cases[i].i);
                else
                        ck_assert(json_object_get_double(o) == cases[i].d);
                json_object_put(o);
        }
        for (const char *const *t = (const char *const[]){"NaN", "-NaN", "+NaN", NULL}; *t; t++) {
                struct json_object *o = NULL;

                ck_assert_int_eq(parse(*t, &o, NULL), 0);
                ck_assert(json_object_is_type(o, json_type_double));
                ck_assert(isnan(json_object_get_double(o)));
                json_object_put(o);
        }
}
END_TEST

START_TEST(test_json5_strings_keep_nul_and_decode_escapes) {
        struct json_object *o = NULL;

        /* U+0000 is C0 80: C strings keep it and what follows (js-string.c prints \u0000) */
        ck_assert_int_eq(parse("'a\\0b\\x00\\u0000'", &o, NULL), 0);
        ck_assert_int_eq(json_object_get_string_len(o), 8);
        ck_assert_str_eq(json_object_get_string(o), "a\xC0\x80" "b\xC0\x80\xC0\x80");
        json_object_put(o);

        /* unpaired surrogates in their 3-byte form ("WTF-8"), a pair as one character */
        ck_assert_int_eq(parse("'\\uD83Dx\\uDE00\\uD83D\\uD83D\\uDE00'", &o, NULL), 0);
        ck_assert_str_eq(json_object_get_string(o), "\xED\xA0\xBDx\xED\xB8\x80\xED\xA0\xBD\xF0\x9F\x98\x80");
        json_object_put(o);

        /* surrogate pair -> one 4-byte UTF-8 character; \u2028 raw and escaped */
        ck_assert_int_eq(parse("\"\\uD83D\\uDE00\u2028\\u2029\\x41\\\n\\v\"", &o, NULL), 0);
        ck_assert_str_eq(json_object_get_string(o), "\xF0\x9F\x98\x80\u2028\u2029A\v");
        json_object_put(o);

        /* a raw NUL byte inside a string is a character like any other (json5 agrees) */
        ck_assert_int_eq(sbx_json5_parse("\"\0\"", 3, &o, NULL), 0);
        ck_assert_int_eq(json_object_get_string_len(o), 2);
        ck_assert_str_eq(json_object_get_string(o), "\xC0\x80");
        json_object_put(o);

        /* NUL in a key: the key keeps it the same way */
        ck_assert_int_eq(parse("{'a\\0b': 1}", &o, NULL), 0);
        json_object_object_foreach(o, k, v) {
                ck_assert_str_eq(k, "a\xC0\x80" "b");
                (void) v;
        }
        json_object_put(o);
}
END_TEST

START_TEST(test_json5_null_root_and_duplicate_keys) {
        struct json_object *o = (struct json_object *) 0x1, *v;
        int n = 0;

        ck_assert_int_eq(parse(" null // nothing\n", &o, NULL), 0);
        ck_assert_ptr_null(o);

        /* last value wins, at the place of the first key (as JavaScript objects keep it) */
        ck_assert_int_eq(parse("{a: 1, b: 2, a: {x: 3}, b: null}", &o, NULL), 0);
        ck_assert_int_eq(json_object_object_length(o), 2);
        json_object_object_foreach(o, k, val) {
                ck_assert_str_eq(k, n++ == 0 ? "a" : "b");
                (void) val;
        }
        ck_assert(json_object_object_get_ex(o, "a", &v));
        ck_assert(json_object_is_type(v, json_type_object));
        ck_assert(json_object_object_get_ex(o, "b", &v));
        ck_assert_ptr_null(v);
        json_object_put(o);
}
END_TEST

START_TEST(test_json5_rejects_invalid_utf8_with_position) {
        static const struct {
                const char *text;
                size_t len;
                const char *msg;
        } cases[] = {
                {"\x80", 1, "line 1 col 1: invalid UTF-8 (byte 0x80)"},
                {"\"ab\xff\"", 5, "line 1 col 4: invalid UTF-8 (byte 0xff)"},
                {"{a: 1}\n// \xC0\x80", 12, "line 2 col 4: invalid UTF-8 (byte 0xc0)"},
                {"'\xE0\x80\x80'", 5, "line 1 col 2: invalid UTF-8 (byte 0xe0)"},
                {"'\xED\xA0\x80'", 5, "line 1 col 2: invalid UTF-8 (byte 0xed)"}, /* U+D800 */
                {"'\xF4\x90\x80\x80'", 6, "line 1 col 2: invalid UTF-8 (byte 0xf4)"},
                {"'\xF5\x80\x80\x80'", 6, "line 1 col 2: invalid UTF-8 (byte 0xf5)"},
                {"'\xF0\x9F\x98\x80'\xE2\x82", 8, "line 1 col 5: invalid UTF-8 (byte 0xe2)"},
                {"/* \xC3 */ 1", 10, "line 1 col 4: invalid UTF-8 (byte 0xc3)"},
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct json_object *o = NULL;
                sbx_error err = {};

                ck_assert_int_eq(sbx_json5_parse(cases[i].text, cases[i].len, &o, &err), -EINVAL);
                ck_assert_str_eq(err.msg, cases[i].msg);
                ck_assert_ptr_null(o);
        }
}
END_TEST

START_TEST(test_json5_size_limit) {
        size_t max = SBX_JSON5_MAX_SIZE;
        char *text = malloc(max + 1);
        struct json_object *o = NULL;
        sbx_error err = {};

        ck_assert_ptr_nonnull(text);
        /* exactly the limit: one string filling it parses */
        memset(text, 'x', max + 1);
        text[0] = '"';
        text[max - 1] = '"';
        ck_assert_int_eq(sbx_json5_parse(text, max, &o, &err), 0);
        ck_assert_int_eq(json_object_get_string_len(o), (int) max - 2);
        json_object_put(o);
        o = NULL;

        /* one byte more is refused before anything is read */
        text[max] = ' ';
        ck_assert_int_eq(sbx_json5_parse(text, max + 1, &o, &err), -E2BIG);
        ck_assert_str_eq(err.msg, "input is 2097153 bytes, more than the 2097152 allowed");
        ck_assert_ptr_null(o);
        free(text);
}
END_TEST

START_TEST(test_json5_depth_limit) {
        char text[1024];
        struct json_object *o = NULL;
        sbx_error err = {};
        size_t n = 0;

        /* 128 nested containers parse */
        for (int i = 0; i < 64; i++)
                n += (size_t) sprintf(text + n, "{a:[");
        for (int i = 0; i < 64; i++)
                n += (size_t) sprintf(text + n, "]}");
        ck_assert_int_eq(sbx_json5_parse(text, n, &o, &err), 0);
        json_object_put(o);
        o = NULL;

        /* the 129th is refused at its bracket, before the rest is read (no closing at all) */
        memset(text, '[', 300);
        ck_assert_int_eq(sbx_json5_parse(text, 300, &o, &err), -E2BIG);
        ck_assert_str_eq(err.msg, "line 1 col 129: nesting deeper than 128 objects/arrays");
        ck_assert_ptr_null(o);
}
END_TEST

START_TEST(test_json5_error_contract) {
        struct json_object *sentinel = (struct json_object *) 0x1, *o = sentinel;
        sbx_error err = {};

        /* empty input, NULL text of length 0, blanks only: "an empty file is an error" */
        ck_assert_int_eq(sbx_json5_parse(NULL, 0, &o, &err), -EINVAL);
        ck_assert_str_eq(err.msg, "line 1 col 1: invalid end of input; expected a value");
        ck_assert_int_eq(parse("", &o, &err), -EINVAL);
        ck_assert_int_eq(parse(" \n /* */ // x", &o, &err), -EINVAL);
        ck_assert_str_eq(err.msg, "line 2 col 12: invalid end of input; expected a value");
        ck_assert_int_eq(err.code, -EINVAL);
        /* *ret untouched on every failure, reterr optional */
        ck_assert_int_eq(parse("{a: [1, 2, {b: 'c'}], d: @}", &o, NULL), -EINVAL);
        ck_assert_ptr_eq(o, sentinel);
        ck_assert_int_eq(sbx_json5_parse("1", 1, NULL, &err), -EINVAL);
        ck_assert_int_eq(sbx_json5_parse(NULL, 1, &o, &err), -EINVAL);
        ck_assert_ptr_eq(o, sentinel);
}
END_TEST

/* After json5's words (which the oracle pins), each message says what was expected there. */
START_TEST(test_json5_error_messages_say_what_was_expected) {
        static const char *const cases[][2] = {
                {"{a: 1 b: 2}", "line 1 col 7: invalid character 'b'; expected ',' or '}'"},
                {"[1 2]", "line 1 col 4: invalid character '2'; expected ',' or ']'"},
                {"{a 1}", "line 1 col 4: invalid character '1'; expected ':' after the key"},
                {"{1: 2}",
                 "line 1 col 2: invalid character '1'; expected a key (identifier or quoted string)"},
                {"[1,,]", "line 1 col 4: invalid character ','; expected a value"},
                {"tru", "line 1 col 4: invalid end of input; expected true"},
                {"{}\n}", "line 2 col 1: invalid character '}'; expected the end of input after the value"},
                {"'a\nb'", "line 2 col 0: invalid character '\\n'; strings cannot span lines (use \\n, or a "
                           "backslash before the line break)"},
                {"'\\01'", "line 1 col 4: invalid character '1'; octal escapes are not allowed"},
                {"'\\8'", "line 1 col 3: invalid character '8'; \\1..\\9 escapes are not allowed"},
                {"'\\x4g'", "line 1 col 5: invalid character 'g'; expected a hex digit"},
                {"{\\x61: 1}", "line 1 col 3: invalid character 'x'; only \\u escapes are allowed in keys"},
                {"{\\u0031: 1}", "line 1 col 2: invalid identifier character"},
                {"0x", "line 1 col 3: invalid end of input; expected a hex digit after 0x"},
                {"1e+x", "line 1 col 4: invalid character 'x'; expected a digit in the exponent"},
                {"-.e1", "line 1 col 3: invalid character 'e'; expected a digit after '.'"},
                {"/* open", "line 1 col 8: invalid end of input; unterminated /* comment"},
                {"1 / 2", "line 1 col 4: invalid character ' '; '/' starts a comment only as // or /*"},
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct json_object *o = NULL;
                sbx_error err = {};

                ck_assert_int_eq(parse(cases[i][0], &o, &err), -EINVAL);
                ck_assert_str_eq(err.msg, cases[i][1]);
        }
}
END_TEST

/* Errors late in big trees: everything built so far must be freed (ASan/valgrind prove it). */
START_TEST(test_json5_error_deep_in_tree_frees_everything) {
        static const char *const texts[] = {
                "{a: [1, 'two', {b: [true, null, {c: 'x'}], d: 0x10}], e: {f: [[[]]], g: 1 @}}",
                "[[1, [2, [3, {k: 'v', k: 'w', z: [\"\\uD800\" 1]}]]]]",
                "{a: {b: {c: {d: 'e'}}}, 'x\\u0000': 1,, }",
                "{a: {b: {c: {d: 'e'}}}, f: [1, 2, 3,,]}",
                "{a: 1, b: [1, 2, {c: 3}], d: '\\01'}",
                "{a: 1, b: [1, 2, {c: 3}], d: 'unterminated",
                "{a: 1, b: [1, 2, {c: 3}], d: 1} 2",
        };

        for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
                struct json_object *o = NULL;

                ck_assert_int_eq(parse(texts[i], &o, NULL), -EINVAL);
                ck_assert_ptr_null(o);
        }
}
END_TEST

static int load_oracle(void) {
        const char *root = getenv("SBX_SOURCE_ROOT");
        char path[4096];
        FILE *f;
        char *line = NULL;
        size_t cap = 0;

        snprintf(path, sizeof(path), "%s/tests/unit/json5/oracle.jsonl", root ? root : SBX_SOURCE_ROOT);
        f = fopen(path, "re");
        if (!f) {
                fprintf(stderr, "cannot open %s: %m\n", path);
                return -1;
        }
        oracle = json_object_new_array();
        while (getline(&line, &cap, f) > 0) {
                struct json_object *rec = json_tokener_parse(line);

                if (!rec) {
                        fprintf(stderr, "%s: bad line %s", path, line);
                        return -1;
                }
                json_object_array_add(oracle, rec);
        }
        free(line);
        fclose(f);
        return 0;
}

int main(void) {
        Suite *s = suite_create("json5");
        TCase *tc = unit_tcase(s, "json5", 60);
        int status;

        if (load_oracle() < 0)
                return 1;
        tcase_add_loop_test(tc, test_json5_matches_npm_json5_oracle, 0,
                            (int) json_object_array_length(oracle));
        tcase_add_test(tc, test_json5_numbers_map_to_int_or_double);
        tcase_add_test(tc, test_json5_strings_keep_nul_and_decode_escapes);
        tcase_add_test(tc, test_json5_null_root_and_duplicate_keys);
        tcase_add_test(tc, test_json5_rejects_invalid_utf8_with_position);
        tcase_add_test(tc, test_json5_size_limit);
        tcase_add_test(tc, test_json5_depth_limit);
        tcase_add_test(tc, test_json5_error_contract);
        tcase_add_test(tc, test_json5_error_messages_say_what_was_expected);
        tcase_add_test(tc, test_json5_error_deep_in_tree_frees_everything);
        status = unit_run(s, CK_SILENT);
        json_object_put(oracle);
        return status;
}

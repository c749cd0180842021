/* SPDX-License-Identifier: MIT */
/* The option tables (runtime/cli/cli.h) every parser, --help, man page and
 * completion is made from: no option without help text, no name twice in a
 * command, the getopt arrays match the tables, and every rendering names
 * every option. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "docker/docker.h"
#include "unit.h"

#define MAX_CMDS 64

/* sbx's commands, then docker's. */
static size_t all_commands(const sbx_cli_cmd **out) {
        const sbx_cli_cmd *const *docker = sbx_docker_commands();
        size_t n = 0;

        for (size_t i = 0; sbx_cli_commands[i]; i++)
                out[n++] = sbx_cli_commands[i];
        for (size_t i = 0; docker[i]; i++)
                out[n++] = docker[i];
        ck_assert_uint_le(n, MAX_CMDS);
        out[n] = NULL;
        return n;
}

static bool blank(const char *s) {
        return !s || !*s || strspn(s, " \t\n") == strlen(s);
}

/* What is wrong with a command's tables, as text (empty: nothing). */
static void table_problems(const sbx_cli_cmd *c, char *buf, size_t len) {
        const sbx_cli_opt *seen[256], *o;
        size_t n_seen = 0, off = 0;

        buf[0] = '\0';
#define PROBLEM(...) (off += (size_t) snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
        if (blank(c->name) || blank(c->page) || !c->usage || blank(c->summary))
                PROBLEM("%s: name, page, usage or summary missing; ", c->name ? c->name : "?");
        for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(c, &it));) {
                if (blank(o->name))
                        PROBLEM("%s: an option without a name; ", c->name);
                if (blank(o->help))
                        PROBLEM("%s --%s: no help text; ", c->name, o->name);
                if (o->arg && blank(o->arg))
                        PROBLEM("%s --%s: an empty argument name; ", c->name, o->name);
                for (size_t i = 0; i < n_seen; i++) {
                        if (!strcmp(seen[i]->name, o->name))
                                PROBLEM("%s --%s: listed twice; ", c->name, o->name);
                        if (o->short_name && seen[i]->short_name == o->short_name)
                                PROBLEM("%s -%c: two options share it; ", c->name, o->short_name);
                }
                if (n_seen < ELEMENTSOF(seen))
                        seen[n_seen++] = o;
        }
#undef PROBLEM
}

START_TEST(test_every_option_has_help_text) {
        const sbx_cli_cmd *cmds[MAX_CMDS + 1];
        size_t n = all_commands(cmds), n_opts = 0;
        char problems[8192];

        ck_assert_uint_ge(n, 30);   /* sbx's 25 and docker's 11 */
        for (size_t i = 0; i < n; i++) {
                table_problems(cmds[i], problems, sizeof(problems));
                ck_assert_msg(!problems[0], "%s", problems);
                for (sbx_cli_iter it = {}; sbx_cli_next_opt(cmds[i], &it);)
                        n_opts++;
        }
        ck_assert_uint_ge(n_opts, 150);
}
END_TEST

/* The check above can fail: a table with a hole, a duplicate and a shared
 * short name is reported for each. */
START_TEST(test_the_check_finds_a_missing_help_text) {
        static const sbx_cli_opt bad[] = {
                { "fine", 'f', NULL, 1, "has help", NULL },
                { "nohelp", 0, "X", 2, "", NULL },
                { "fine", 0, NULL, 3, "again", NULL },
                { "other", 'f', NULL, 4, "same short", NULL },
                SBX_CLI_OPT_END
        };
        const sbx_cli_cmd c = { .name = "bad", .page = "sbx-bad", .usage = "", .summary = "a bad table",
                                .opts = { bad, NULL } };
        char problems[1024];

        table_problems(&c, problems, sizeof(problems));
        ck_assert_ptr_nonnull(strstr(problems, "bad --nohelp: no help text"));
        ck_assert_ptr_nonnull(strstr(problems, "bad --fine: listed twice"));
        ck_assert_ptr_nonnull(strstr(problems, "bad -f: two options share it"));
}
END_TEST

/* The getopt_long arrays say what the tables say: every long option with
 * its argument kind and value, every short one with ':' when it takes one. */
START_TEST(test_getopt_arrays_match_the_tables) {
        for (size_t i = 0; sbx_cli_commands[i]; i++) {
                const sbx_cli_cmd *c = sbx_cli_commands[i];
                const sbx_cli_opt *o;
                sbx_cli_getopt g;
                size_t n = 0, k = 0, k_arg = 0;

                sbx_cli_getopt_init(&g, c->opts, c->in_order);
                ck_assert_int_eq(g.shortopts[0] == '+', c->in_order);
                for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(c, &it));) {
                        ck_assert_str_eq(g.longopts[n].name, o->name);
                        ck_assert_int_eq(g.longopts[n].has_arg, o->arg ? required_argument : no_argument);
                        ck_assert_int_eq(g.longopts[n].val, o->val);
                        if (o->short_name) {
                                const char *p = strchr(g.shortopts, o->short_name);
                                ck_assert_msg(p, "%s: -%c missing from '%s'", c->name, o->short_name,
                                              g.shortopts);
                                ck_assert_int_eq(p[1] == ':', o->arg != NULL);
                                /* getopt returns the letter for -X, val for --NAME */
                                ck_assert_msg(o->short_name == o->val, "%s: -%c and --%s differ",
                                              c->name, o->short_name, o->name);
                                k++;
                                k_arg += o->arg != NULL;
                        }
                        n++;
                }
                ck_assert_ptr_null(g.longopts[n].name);
                ck_assert_uint_eq(strlen(g.shortopts), (c->in_order ? 1u : 0u) + k + k_arg);
        }
}
END_TEST

static char *render(void (*fn)(FILE *, const sbx_cli_cmd *), const sbx_cli_cmd *c) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        ck_assert_ptr_nonnull(f);
        fn(f, c);
        ck_assert_int_eq(fclose(f), 0);
        return buf;
}

/* --help names every option (--NAME and its argument), and no line is
 * wider than 80 columns unless one word is. */
START_TEST(test_help_names_every_option) {
        const sbx_cli_cmd *cmds[MAX_CMDS + 1];
        size_t n = all_commands(cmds);

        for (size_t i = 0; i < n; i++) {
                char *help = render(sbx_cli_usage, cmds[i]), want[128];
                const sbx_cli_opt *o;
                ck_assert_msg(!strncmp(help, "usage: ", 7), "%s: %s", cmds[i]->name, help);
                for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(cmds[i], &it));) {
                        snprintf(want, sizeof(want), "--%s%s%s", o->name, o->arg ? " " : "",
                                 o->arg ? o->arg : "");
                        ck_assert_msg(strstr(help, want), "%s --help lacks '%s'", cmds[i]->name, want);
                }
                for (char *line = help, *end; *line; line = end + 1) {
                        end = strchrnul(line, '\n');
                        if (end - line > 80)
                                ck_assert_msg(!memchr(line + 28, ' ', (size_t) (end - line - 28)) ||
                                                      !strncmp(line, "usage: ", 7) || !strncmp(line, "       ", 7),
                                              "%s --help: a line of %d columns: %.*s", cmds[i]->name,
                                              (int) (end - line), (int) (end - line), line);
                        if (!*end)
                                break;
                }
                free(help);
        }
}
END_TEST

static char *render_all(void (*fn)(FILE *, const char *, const sbx_cli_cmd *const *)) {
        const sbx_cli_cmd *cmds[MAX_CMDS + 1];
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        all_commands(cmds);
        fn(f, "sbx", cmds);
        ck_assert_int_eq(fclose(f), 0);
        return buf;
}

/* The completion scripts offer every option of every command. */
START_TEST(test_completion_offers_every_option) {
        const sbx_cli_cmd *cmds[MAX_CMDS + 1];
        size_t n = all_commands(cmds);
        char *bash = render_all(sbx_cli_bash_completion), *zsh = render_all(sbx_cli_zsh_completion), want[128];
        const sbx_cli_opt *o;

        ck_assert_ptr_nonnull(strstr(bash, "complete -F _sbx sbx\n"));
        ck_assert_ptr_null(strstr(bash, "complete -F _sbx docker"));   /* docker is never taken over */
        ck_assert_ptr_nonnull(strstr(zsh, "#compdef sbx\n"));
        for (size_t i = 0; i < n; i++)
                for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(cmds[i], &it));) {
                        snprintf(want, sizeof(want), " --%s", o->name);
                        ck_assert_msg(strstr(bash, want), "bash completion lacks %s of %s", want,
                                      cmds[i]->name);
                        snprintf(want, sizeof(want), "'*--%s%s[", o->name, o->arg ? "=" : "");
                        ck_assert_msg(strstr(zsh, want), "zsh completion lacks %s of %s", want,
                                      cmds[i]->name);
                }
        free(bash);
        free(zsh);
}
END_TEST

/* A man page: every option of its commands, hyphens escaped for troff, no
 * line that troff would read as a request by accident. */
START_TEST(test_man_page_names_every_option) {
        const sbx_cli_cmd *cmds[MAX_CMDS + 1], *sel[MAX_CMDS + 1];
        const sbx_cli_opt *o;
        size_t n = all_commands(cmds), k = 0;
        const sbx_cli_page page = { "sbx-sandbox", "persistent sandboxes", "Text.", "sbx(1)" };
        char *buf = NULL, want[160];
        size_t len = 0;
        FILE *f;

        for (size_t i = 0; i < n; i++)
                if (!strcmp(cmds[i]->page, "sbx-sandbox"))
                        sel[k++] = cmds[i];
        sel[k] = NULL;
        ck_assert_uint_ge(k, 10);
        f = open_memstream(&buf, &len);
        sbx_cli_man(f, &page, sel, "0");
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_ptr_nonnull(strstr(buf, ".TH \"SBX-SANDBOX\" 1"));
        for (size_t i = 0; i < k; i++)
                for (sbx_cli_iter it = {}; (o = sbx_cli_next_opt(sel[i], &it));) {
                        snprintf(want, sizeof(want), "\\fB\\-\\-");
                        for (const char *p = o->name; *p; p++)
                                snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s",
                                         *p == '-' ? "\\-" : (char[]) { *p, 0 });
                        ck_assert_msg(strstr(buf, want), "man page lacks %s (%s)", want, sel[i]->name);
                }
        for (char *line = buf; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
                if (*line == '\'')
                        ck_abort_msg("a line starts with ': %.40s", line);
                if (*line == '.' && !strchr("TSPIBb\\", line[1]))
                        ck_abort_msg("an unknown request: %.40s", line);
        }
        free(buf);
}
END_TEST

/* Help text wraps at word boundaries under its column and keeps "\n". */
START_TEST(test_help_wraps_and_breaks) {
        static const sbx_cli_opt opts[] = {
                { "long", 'l', "ARG", 'l', "one two three four five six seven eight nine ten eleven twelve "
                  "thirteen fourteen fifteen sixteen", NULL },
                { "a-very-long-option-name-indeed", 0, "SOMETHING", 1, "first\nsecond", NULL },
                SBX_CLI_OPT_END
        };
        const sbx_cli_cmd c = { .name = "t", .page = "sbx-t", .usage = "[X]\nY", .summary = "s",
                                .opts = { opts, NULL } };
        char *out = render(sbx_cli_usage, &c);

        ck_assert_str_eq(out, "usage: sbx t [X]\n"
                              "       sbx t Y\n"
                              "\n"
                              "  -l, --long ARG            one two three four five six seven eight nine ten\n"
                              "                            eleven twelve thirteen fourteen fifteen sixteen\n"
                              "      --a-very-long-option-name-indeed SOMETHING\n"
                              "                            first\n"
                              "                            second\n");
        free(out);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_every_option_has_help_text, test_the_check_finds_a_missing_help_text,
                                 test_getopt_arrays_match_the_tables, test_help_names_every_option,
                                 test_completion_offers_every_option, test_man_page_names_every_option,
                                 test_help_wraps_and_breaks };

        return unit_main("cli-opts", "tables", 0, CK_SILENT, tests, UNIT_N(tests));
}

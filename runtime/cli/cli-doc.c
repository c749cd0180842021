/* SPDX-License-Identifier: MIT */
/* Everything made from the option tables (cli.h): the getopt_long arrays the
 * parsers use, --help, the man pages and the bash and zsh completion. One
 * table, five renderings: none of them can mention an option another lacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/util.h"

#define HELP_COL 28    /* --help: where the option help starts */
#define HELP_WIDTH 79  /* --help: the right margin */

typedef void (*opt_fn)(const sbx_cli_opt *o, void *userdata);

/* Every option (not the headings) of a list of tables. */
static void each_opt(const sbx_cli_opt *const *tables, opt_fn fn, void *userdata) {
        for (size_t t = 0; tables[t]; t++)
                for (const sbx_cli_opt *o = tables[t]; o->name || o->help; o++)
                        if (o->name)
                                fn(o, userdata);
}

/* ------------------------------------------------------------ getopt */

static void add_getopt(const sbx_cli_opt *o, void *userdata) {
        sbx_cli_getopt *g = userdata;
        size_t n = 0, k = strlen(g->shortopts);

        while (g->longopts[n].name)
                n++;
        /* the first of two equal names wins, as getopt_long would pick it */
        for (size_t i = 0; i < n; i++)
                if (!strcmp(g->longopts[i].name, o->name))
                        return;
        if (n >= SBX_CLI_GETOPT_MAX)
                abort();   /* a table larger than the array: a build-time mistake */
        g->longopts[n] = (struct option) { o->name, o->arg ? required_argument : no_argument, NULL, o->val };
        if (o->short_name && !strchr(g->shortopts, o->short_name)) {
                g->shortopts[k++] = (char) o->short_name;
                if (o->arg)
                        g->shortopts[k++] = ':';
                g->shortopts[k] = '\0';
        }
}

void sbx_cli_getopt_init(sbx_cli_getopt *g, const sbx_cli_opt *const *tables, bool in_order) {
        memset(g, 0, sizeof(*g));
        if (in_order)
                g->shortopts[0] = '+';
        each_opt(tables, add_getopt, g);
}

static const char *prefix_of(const sbx_cli_cmd *c);

const char *sbx_cli_bad_option_text(const sbx_cli_getopt *g, int argc, char **argv, char *buf, size_t len) {
        const char *w = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
        const char *what = "bad option", *after = "";
        char shown[64];

        if (!strncmp(w, "--", 2) && w[2]) {
                size_t n = strcspn(w + 2, "=");
                const struct option *match = NULL;
                int matches = 0;
                for (const struct option *o = g->longopts; o->name; o++)
                        if (!strncmp(o->name, w + 2, n)) {
                                match = o;
                                if (strlen(o->name) == n) {
                                        matches = 1;
                                        break;
                                }
                                matches++;
                        }
                snprintf(shown, sizeof(shown), "%.*s", (int) n + 2, w);
                if (matches > 1)
                        what = "ambiguous option";
                else if (matches == 1 && match->has_arg == required_argument && !w[2 + n]) {
                        snprintf(shown, sizeof(shown), "--%s", match->name);
                        what = "option", after = " needs a value";
                } else if (matches == 1 && match->has_arg == no_argument && w[2 + n] == '=') {
                        snprintf(shown, sizeof(shown), "--%s", match->name);
                        what = "option", after = " takes no value";
                }
        } else if (optopt > 0 && optopt < 128 && optopt != ':' && optopt != '+') {
                const char *s = strchr(g->shortopts, optopt);
                snprintf(shown, sizeof(shown), "-%c", optopt);
                if (s && s[1] == ':')
                        what = "option", after = " needs a value";
        } else
                snprintf(shown, sizeof(shown), "%s", w);
        snprintf(buf, len, "%s '%s'%s", what, shown, after);
        return buf;
}

void sbx_cli_bad_option(const sbx_cli_cmd *c, const sbx_cli_getopt *g, int argc, char **argv) {
        const char *p = prefix_of(c);
        char buf[128];

        fprintf(stderr, "%s%s: %s (see '%s%s --help')\n", p, c->name,
                sbx_cli_bad_option_text(g, argc, argv, buf, sizeof(buf)), p, c->name);
}

int sbx_cli_parse(const sbx_cli_cmd *c, int argc, char **argv, int (*fn)(int opt, const char *arg, void *userdata),
                  void *userdata, int *status) {
        sbx_cli_getopt g;
        int opt;

        sbx_cli_getopt_init(&g, c->opts, c->in_order);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) >= 0) {
                if (opt == 'h') {
                        sbx_cli_usage(stdout, c);
                        *status = 0;
                        return -1;
                }
                if (opt == '?' || opt == ':')
                        sbx_cli_bad_option(c, &g, argc, argv);
                if (opt == '?' || opt == ':' || !fn || fn(opt, optarg, userdata) < 0) {
                        *status = SBX_EXIT_USAGE;
                        return -1;
                }
        }
        return optind;
}

const sbx_cli_opt *sbx_cli_next_opt(const sbx_cli_cmd *c, sbx_cli_iter *it) {
        while (c->opts[it->table]) {
                for (const sbx_cli_opt *o = it->next ? it->next : c->opts[it->table]; o->name || o->help; o++)
                        if (o->name) {
                                it->next = o + 1;
                                return o;
                        }
                it->table++;
                it->next = NULL;
        }
        return NULL;
}

int sbx_cli_opt_val(const sbx_cli_opt *table, const char *name) {
        for (const sbx_cli_opt *o = table; o->name || o->help; o++)
                if (o->name && !strcmp(o->name, name))
                        return o->val;
        return -1;
}

/* ------------------------------------------------------------ --help */

/* Words of text from column col, wrapped at HELP_WIDTH, continuation lines
 * indented to indent; "\n" in text breaks the line. */
static void wrap(FILE *f, const char *text, int col, int indent) {
        const char *p = text;

        while (*p) {
                size_t w = strcspn(p, " \n");
                if (col > indent && col + 1 + (int) w > HELP_WIDTH) {
                        fprintf(f, "\n%*s", indent, "");
                        col = indent;
                } else if (col > indent) {
                        fputc(' ', f);
                        col++;
                }
                fwrite(p, 1, w, f);
                col += (int) w;
                p += w;
                if (*p == '\n') {
                        fprintf(f, "\n%*s", indent, "");
                        col = indent;
                }
                while (*p == ' ' || *p == '\n')
                        p++;
        }
        fputc('\n', f);
}

/* Paragraphs ("\n\n"-separated), each wrapped from column 0; single "\n"
 * keep their line break. */
static void paragraphs(FILE *f, const char *text) {
        const char *p = text;

        while (*p) {
                const char *end = strstr(p, "\n\n");
                size_t n = end ? (size_t) (end - p) : strlen(p);
                char *para = strndup(p, n);
                if (!para)
                        return;
                wrap(f, para, 0, 0);
                free(para);
                p += n;
                if (*p) {
                        fputc('\n', f);
                        p += 2;
                }
        }
}

static const char *prefix_of(const sbx_cli_cmd *c) {
        return strncmp(c->name, "docker", 6) ? "sbx " : "";
}

bool sbx_cli_help_word(int argc, char **argv, void (*usage)(FILE *f), int *status) {
        if (argc < 2) {
                usage(stderr);
                *status = SBX_EXIT_USAGE;
                return true;
        }
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
                usage(stdout);
                *status = 0;
                return true;
        }
        return false;
}

const char *sbx_cli_usage_line(const sbx_cli_cmd *c, char *buf, size_t len) {
        snprintf(buf, len, "usage: %s%s %.*s", prefix_of(c), c->name, (int) strcspn(c->usage, "\n"), c->usage);
        return buf;
}

static void usage_opt(FILE *f, const sbx_cli_opt *o) {
        int col;

        col = o->short_name ? fprintf(f, "  -%c, --%s", o->short_name, o->name) : fprintf(f, "      --%s", o->name);
        if (o->arg)
                col += fprintf(f, " %s", o->arg);
        if (col + 2 > HELP_COL) {
                fprintf(f, "\n%*s", HELP_COL, "");
                col = HELP_COL;
        } else {
                fprintf(f, "%*s", HELP_COL - col, "");
                col = HELP_COL;
        }
        wrap(f, o->help, col, HELP_COL);
}

void sbx_cli_usage(FILE *f, const sbx_cli_cmd *c) {
        const char *u = c->usage;
        bool first = true;

        while (*u) {
                size_t n = strcspn(u, "\n");
                fprintf(f, "%s%s%s %.*s\n", first ? "usage: " : "       ", prefix_of(c), c->name, (int) n, u);
                u += n + (u[n] == '\n');
                first = false;
        }
        if (c->text) {
                fputc('\n', f);
                paragraphs(f, c->text);
        }
        for (size_t t = 0; c->opts[t]; t++)
                for (const sbx_cli_opt *o = c->opts[t]; o->name || o->help; o++) {
                        if (!o->name)
                                fprintf(f, "\n%s:\n", o->help);
                        else {
                                if (o == c->opts[0])
                                        fputc('\n', f);
                                usage_opt(f, o);
                        }
                }
        if (c->footer) {
                fputc('\n', f);
                paragraphs(f, c->footer);
        }
}

/* ------------------------------------------------------------ man (troff) */

/* Text for troff: backslashes and hyphens escaped, a leading '.' or '\''
 * defused; "\n\n" becomes a new paragraph, "\n" a line break. */
static void roff(FILE *f, const char *s) {
        bool bol = true;

        for (; *s; s++) {
                if (bol && (*s == '.' || *s == '\''))
                        fputs("\\&", f);
                bol = false;
                if (*s == '\\')
                        fputs("\\e", f);
                else if (*s == '-')
                        fputs("\\-", f);
                else if (*s == '\n' && s[1] == '\n') {
                        fputs("\n.PP\n", f);
                        s++;
                        bol = true;
                } else if (*s == '\n') {
                        fputs("\n.br\n", f);
                        bol = true;
                } else
                        fputc(*s, f);
        }
}

static void man_opt(FILE *f, const sbx_cli_opt *o) {
        fputs(".TP\n", f);
        if (o->short_name)
                fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
        fputs("\\fB\\-\\-", f);
        roff(f, o->name);
        fputs("\\fR", f);
        if (o->arg) {
                fputs(" \\fI", f);
                roff(f, o->arg);
                fputs("\\fR", f);
        }
        fputc('\n', f);
        roff(f, o->help);
        fputc('\n', f);
}

static void man_cmd(FILE *f, const sbx_cli_cmd *c, bool own_page) {
        const char *u = c->usage;

        if (!own_page) {
                fprintf(f, ".SS \"%s%s\"\n", prefix_of(c), c->name);
                roff(f, c->summary);
                fputs(".\n.PP\n", f);
        }
        while (*u) {
                size_t n = strcspn(u, "\n");
                char *form = strndup(u, n);
                fprintf(f, "%s\\fB%s%s\\fR ", u == c->usage ? "" : ".br\n", prefix_of(c), c->name);
                if (form)
                        roff(f, form);
                free(form);
                fputc('\n', f);
                u += n + (u[n] == '\n');
        }
        if (c->text) {
                fputs(".PP\n", f);
                roff(f, c->text);
                fputc('\n', f);
        }
        for (size_t t = 0; c->opts[t]; t++)
                for (const sbx_cli_opt *o = c->opts[t]; o->name || o->help; o++) {
                        if (!o->name) {
                                fputs(".PP\n\\fI", f);
                                roff(f, o->help);
                                fputs(":\\fR\n", f);
                        } else
                                man_opt(f, o);
                }
        if (c->footer) {
                fputs(".PP\n", f);
                roff(f, c->footer);
                fputc('\n', f);
        }
}

/* .TH and NAME of a page. */
static void man_head(FILE *f, const sbx_cli_page *page, const char *version) {
        char upper[64];

        snprintf(upper, sizeof(upper), "%s", page->name);
        for (char *p = upper; *p; p++)
                if (*p >= 'a' && *p <= 'z')
                        *p = (char) (*p - 'a' + 'A');
        fprintf(f, ".\\\" Generated by sbx-gendoc from the option tables of runtime/cli and runtime/docker.\n"
                   ".\\\" Do not edit: change the tables (and their --help follows).\n");
        fprintf(f, ".TH \"%s\" 1 \"\" \"sbx %s\" \"sbx manual\"\n", upper, version);
        fputs(".SH NAME\n", f);
        roff(f, page->name);
        fputs(" \\- ", f);
        roff(f, page->summary);
        fputc('\n', f);
}

static void man_tail(FILE *f, const sbx_cli_page *page) {
        if (page->see_also) {
                fputs(".SH SEE ALSO\n", f);
                roff(f, page->see_also);
                fputc('\n', f);
        }
}

void sbx_cli_man(FILE *f, const sbx_cli_page *page, const sbx_cli_cmd *const *cmds, const char *version) {
        size_t n = 0;

        while (cmds[n])
                n++;
        man_head(f, page, version);
        fputs(".SH SYNOPSIS\n", f);
        for (size_t i = 0; i < n; i++) {
                const char *u = cmds[i]->usage;
                while (*u) {
                        size_t k = strcspn(u, "\n");
                        char *form = strndup(u, k);
                        fprintf(f, "\\fB%s%s\\fR ", prefix_of(cmds[i]), cmds[i]->name);
                        if (form)
                                roff(f, form);
                        free(form);
                        fputs("\n.br\n", f);
                        u += k + (u[k] == '\n');
                }
        }
        fputs(".SH DESCRIPTION\n", f);
        if (page->text) {
                roff(f, page->text);
                fputc('\n', f);
        }
        if (n == 1) {
                fputs(".PP\n", f);
                man_cmd(f, cmds[0], true);
        } else {
                fputs(".SH COMMANDS\n", f);
                for (size_t i = 0; i < n; i++)
                        man_cmd(f, cmds[i], false);
        }
        man_tail(f, page);
}

void sbx_cli_man_index(FILE *f, const sbx_cli_page *page, const sbx_cli_cmd *const *cmds, const char *version) {
        man_head(f, page, version);
        fputs(".SH SYNOPSIS\n\\fBsbx\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\-\\- \\fICMD\\fR "
              "[\\fIARGS\\fR...]]\n.br\n\\fBsbx\\fR \\-\\-help | \\-\\-version\n", f);
        fputs(".SH DESCRIPTION\n", f);
        roff(f, page->text);
        fputs("\n.SH COMMANDS\n", f);
        for (size_t i = 0; cmds[i]; i++) {
                if (strchr(cmds[i]->name, ' '))
                        continue;
                fprintf(f, ".TP\n\\fB%s\\fR\n", cmds[i]->name);
                roff(f, cmds[i]->summary);
                fprintf(f, " (%s(1))\n", cmds[i]->page);
        }
        man_tail(f, page);
}

/* ------------------------------------------------------------ bash */

/* A command's key in the scripts: its words joined by '_' ("rootfs_build"). */
static void key_of(const sbx_cli_cmd *c, char *buf, size_t len) {
        snprintf(buf, len, "%s", c->name);
        for (char *p = buf; *p; p++)
                if (*p == ' ' || *p == '-')
                        *p = '_';
}

static void bash_word(const sbx_cli_opt *o, void *userdata) {
        FILE *f = userdata;

        fprintf(f, " --%s", o->name);
        if (o->short_name)
                fprintf(f, " -%c", o->short_name);
}

static void bash_arg(const sbx_cli_opt *o, void *userdata) {
        FILE *f = userdata;

        if (!o->arg)
                return;
        fprintf(f, "                ");
        if (o->short_name)
                fprintf(f, "-%c|", o->short_name);
        fprintf(f, "--%s) _sbx_value '%s'; return ;;\n", o->name, o->values ? o->values : "");
}

/* "build" for ("rootfs build", "rootfs"); NULL when c is no sub-command of parent. */
static const char *sub_of(const sbx_cli_cmd *c, const char *parent) {
        size_t n = strlen(parent);

        return !strncmp(c->name, parent, n) && c->name[n] == ' ' ? c->name + n + 1 : NULL;
}

/* The sub-command words of a parent ("rootfs" -> "build import ..."; of
 * "docker image inspect" only "image"). */
static void sub_words(FILE *f, const sbx_cli_cmd *const *cmds, const char *parent) {
        for (size_t i = 0; cmds[i]; i++) {
                const char *sub = sub_of(cmds[i], parent);
                if (sub)
                        fprintf(f, " %.*s", (int) strcspn(sub, " "), sub);
        }
}

static bool has_subs(const sbx_cli_cmd *const *cmds, const char *name) {
        for (size_t i = 0; cmds[i]; i++)
                if (sub_of(cmds[i], name))
                        return true;
        return false;
}

/* One case of a parent's dispatch: the sub-command's first word (first_len
 * bytes of first), its second word or NULL, its function's key. */
typedef void (*sub_case_fn)(FILE *f, const char *first, int first_len, const char *second, const char *key);

static void each_sub(FILE *f, const sbx_cli_cmd *const *cmds, const char *parent, sub_case_fn fn) {
        char key[64];

        for (size_t i = 0; cmds[i]; i++) {
                const char *sub = sub_of(cmds[i], parent), *space;
                if (!sub)
                        continue;
                key_of(cmds[i], key, sizeof(key));
                space = strchr(sub, ' ');
                fn(f, sub, space ? (int) (space - sub) : (int) strlen(sub), space ? space + 1 : NULL, key);
        }
}

static void bash_sub_case(FILE *f, const char *first, int first_len, const char *second, const char *key) {
        if (second)   /* two words: "image inspect" */
                fprintf(f, "                \"%.*s \"*)\n"
                           "                        [ \"$COMP_CWORD\" -eq 3 ] && "
                           "{ COMPREPLY=($(compgen -W \"%s\" -- \"$w3\")); return; }\n"
                           "                        _sbx_cmd_%s 4 ;;\n",
                        first_len, first, second, key);
        else
                fprintf(f, "                \"%.*s \"*) _sbx_cmd_%s 3 ;;\n", first_len, first, key);
}

static void zsh_sub_case(FILE *f, const char *first, int first_len, const char *second, const char *key) {
        if (second)
                fprintf(f, "                \"%.*s \"*)\n"
                           "                        if (( CURRENT == 4 )); then compadd -- %s; return; fi\n"
                           "                        shift 3 words; (( CURRENT -= 3 )); _sbx_cmd_%s ;;\n",
                        first_len, first, second, key);
        else
                fprintf(f, "                \"%.*s \"*) shift 2 words; (( CURRENT -= 2 )); _sbx_cmd_%s ;;\n",
                        first_len, first, key);
}

/* One shell function per command, _sbx_cmd_KEY, its body from body(). */
static void cmd_functions(FILE *f, const sbx_cli_cmd *const *cmds,
                          void (*body)(FILE *f, const sbx_cli_cmd *c)) {
        char key[64];

        for (size_t i = 0; cmds[i]; i++) {
                key_of(cmds[i], key, sizeof(key));
                fprintf(f, "_sbx_cmd_%s() {\n", key);
                body(f, cmds[i]);
        }
}

static void bash_cmd_body(FILE *f, const sbx_cli_cmd *c) {
        fputs("        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i\n", f);
        /* after a "--", or past the first positional of an in-order command: not ours */
        fputs("        for ((i = $1; i < COMP_CWORD; i++)); do\n"
              "                [ \"${COMP_WORDS[i]}\" = -- ] && { _sbx_value '@command'; return; }\n"
              "        done\n", f);
        fputs("        case $prev in\n", f);
        each_opt(c->opts, bash_arg, f);
        fputs("        esac\n", f);
        fputs("        if [[ $cur == -* ]]; then\n                COMPREPLY=($(compgen -W \"", f);
        each_opt(c->opts, bash_word, f);
        fputs("\" -- \"$cur\"))\n", f);
        fprintf(f, "        else\n                _sbx_value '%s'\n        fi\n}\n\n",
                c->positional ? c->positional : "@file");
}

/* How a shell's top-level dispatch reads: a parent's case (its name, head,
 * its sub-command words, mid, one case per sub-command, the end) and a plain
 * command's case (its name, leaf_pre, the call of its function, leaf_post). */
typedef struct shell_cases {
        const char *head, *mid, *leaf_pre, *leaf_post;
        sub_case_fn sub_case;
} shell_cases;

static const shell_cases bash_cases = {
        .head = "                if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
                "                        COMPREPLY=($(compgen -W \"",
        .mid = "\" -- \"$w2\"))\n                        return\n                fi\n"
               "                case \"$w2 $w3\" in\n",
        .leaf_pre = "",
        .leaf_post = " 2",
        .sub_case = bash_sub_case,
}, zsh_cases = {
        .head = "                if (( CURRENT == 3 )); then\n"
                "                        compadd --",
        .mid = "\n                        return\n                fi\n"
               "                case \"${words[3]} ${words[4]}\" in\n",
        .leaf_pre = "shift words; (( CURRENT-- )); ",
        .leaf_post = "",
        .sub_case = zsh_sub_case,
};

/* The top-level commands' cases, in order: the parents (a parent: its
 * sub-command words, then the sub-command's function), the others, or both. */
static void top_cases(FILE *f, const sbx_cli_cmd *const *cmds, const shell_cases *sh, bool parents,
                      bool leaves) {
        char key[64];

        for (size_t i = 0; cmds[i]; i++) {
                const sbx_cli_cmd *c = cmds[i];
                bool parent = has_subs(cmds, c->name);
                if (strchr(c->name, ' ') || !(parent ? parents : leaves))
                        continue;
                if (!parent) {
                        key_of(c, key, sizeof(key));
                        fprintf(f, "        %s) %s_sbx_cmd_%s%s ;;\n", c->name, sh->leaf_pre, key,
                                sh->leaf_post);
                        continue;
                }
                fprintf(f, "        %s)\n%s", c->name, sh->head);
                sub_words(f, cmds, c->name);
                fputs(sh->mid, f);
                each_sub(f, cmds, c->name, sh->sub_case);
                fputs("                esac\n                ;;\n", f);
        }
}

void sbx_cli_bash_completion(FILE *f, const char *prog, const sbx_cli_cmd *const *cmds) {
        fprintf(f, "# bash completion for %s. Generated by sbx-gendoc from the option tables\n"
                   "# of runtime/cli and runtime/docker: do not edit.\n\n", prog);
        fputs("# _sbx_value KIND: complete the argument of an option (or a positional)\n"
              "_sbx_value() {\n"
              "        local cur=${COMP_WORDS[COMP_CWORD]}\n"
              "        case $1 in\n"
              "        @file) COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null ;;\n"
              "        @dir) COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null ;;\n"
              "        @sandbox) COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" ls -q 2>/dev/null)\" -- \"$cur\")) ;;\n"
              "        @image) COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" rootfs ls --json 2>/dev/null |\n"
              "                        sed -n 's/^ *\"ref\": *\"\\(.*\\)\",*$/\\1/p')\" -- \"$cur\")) ;;\n"
              "        @command) COMPREPLY=($(compgen -c -- \"$cur\")) ;;\n"
              "        '') COMPREPLY=() ;;\n"
              "        *) COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")) ;;\n"
              "        esac\n"
              "}\n\n", f);
        cmd_functions(f, cmds, bash_cmd_body);
        fprintf(f, "_sbx() {\n"
                   "        local w1=${COMP_WORDS[1]} w2=${COMP_WORDS[2]} w3=${COMP_WORDS[3]}\n"
                   "        [ \"${COMP_WORDS[0]##*/}\" = docker ] && {\n"
                   "                w3=$w2; w2=$w1; w1=docker; COMP_WORDS=(sbx \"${COMP_WORDS[@]}\"); COMP_CWORD=$((COMP_CWORD + 1))\n"
                   "        }\n"
                   "        if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                   "                COMPREPLY=($(compgen -W \"--help --version");
        for (size_t i = 0; cmds[i]; i++)
                if (!strchr(cmds[i]->name, ' '))
                        fprintf(f, " %s", cmds[i]->name);
        fputs("\" -- \"$w1\"))\n                return\n        fi\n        case $w1 in\n", f);
        top_cases(f, cmds, &bash_cases, true, false);
        top_cases(f, cmds, &bash_cases, false, true);
        fprintf(f, "        esac\n}\ncomplete -F _sbx %s\n", prog);
}

/* ------------------------------------------------------------ zsh */

/* Text inside a single-quoted _arguments spec: ' [ ] : \ escaped. */
static void zsh_quote(FILE *f, const char *s, size_t max) {
        for (size_t i = 0; s[i] && i < max; i++) {
                if (s[i] == '\'')
                        fputs("'\\''", f);
                else if (s[i] == '[' || s[i] == ']' || s[i] == ':' || s[i] == '\\')
                        fprintf(f, "\\%c", s[i]);
                else if (s[i] == '\n')
                        fputc(' ', f);
                else
                        fputc(s[i], f);
        }
}

/* The help's first sentence (or line), for zsh's one-line descriptions. */
static size_t first_sentence(const char *s) {
        const char *p = s;

        for (; *p && *p != '\n'; p++)
                if ((*p == '.' || *p == ';') && (p[1] == ' ' || !p[1]))
                        break;
        return (size_t) (p - s);
}

static void zsh_action(FILE *f, const char *values) {
        if (!values)
                fputs(" ", f);
        else if (!strcmp(values, "@file"))
                fputs("_files", f);
        else if (!strcmp(values, "@dir"))
                fputs("_files -/", f);
        else if (!strcmp(values, "@sandbox"))
                fputs("_sbx_sandboxes", f);
        else if (!strcmp(values, "@image"))
                fputs("_sbx_images", f);
        else if (!strcmp(values, "@command"))
                fputs("_command_names -e", f);
        else {
                fputc('(', f);
                zsh_quote(f, values, strlen(values));
                fputc(')', f);
        }
}

static void zsh_spec(const sbx_cli_opt *o, void *userdata) {
        FILE *f = userdata;
        for (int k = 0; k < (o->short_name ? 2 : 1); k++) {
                fputs(" \\\n                '*", f);
                if (k == 0)
                        fprintf(f, "--%s%s", o->name, o->arg ? "=" : "");
                else
                        fprintf(f, "-%c", o->short_name);
                fputc('[', f);
                zsh_quote(f, o->help, first_sentence(o->help));
                fputc(']', f);
                if (o->arg) {
                        fputc(':', f);
                        zsh_quote(f, o->arg, strlen(o->arg));
                        fputc(':', f);
                        zsh_action(f, o->values);
                }
                fputc('\'', f);
        }
}

static void zsh_cmd_body(FILE *f, const sbx_cli_cmd *c) {
        fputs("        _arguments -s -S", f);
        each_opt(c->opts, zsh_spec, f);
        fputs(" \\\n                '*:", f);
        fputs(c->positional && !strcmp(c->positional, "@command") ? "command" : "argument", f);
        fputs(":", f);
        zsh_action(f, c->positional ? c->positional : "@file");
        fputs("'\n}\n\n", f);
}

void sbx_cli_zsh_completion(FILE *f, const char *prog, const sbx_cli_cmd *const *cmds) {
        fprintf(f, "#compdef %s\n# zsh completion for %s. Generated by sbx-gendoc from the option tables\n"
                   "# of runtime/cli and runtime/docker: do not edit.\n\n", prog, prog);
        fputs("_sbx_sandboxes() {\n"
              "        local -a s\n"
              "        s=(${(f)\"$($_sbx_prog ls -q 2>/dev/null)\"})\n"
              "        compadd -a s\n"
              "}\n"
              "_sbx_images() {\n"
              "        local -a s\n"
              "        s=(${(f)\"$($_sbx_prog rootfs ls --json 2>/dev/null |\n"
              "                sed -n 's/^ *\"ref\": *\"\\(.*\\)\",*$/\\1/p')\"})\n"
              "        compadd -a s\n"
              "}\n\n", f);
        cmd_functions(f, cmds, zsh_cmd_body);
        fputs("_sbx() {\n        local -a cmds\n        cmds=(\n", f);
        for (size_t i = 0; cmds[i]; i++)
                if (!strchr(cmds[i]->name, ' ')) {
                        fprintf(f, "                '%s:", cmds[i]->name);
                        zsh_quote(f, cmds[i]->summary, strlen(cmds[i]->summary));
                        fputs("'\n", f);
                }
        fputs("        )\n"
              "        local _sbx_prog=${words[1]}\n"
              "        if [[ ${words[1]:t} == docker ]]; then\n"
              "                words=(sbx \"${words[@]}\"); (( CURRENT++ ))\n"
              "        fi\n"
              "        if (( CURRENT == 2 )); then\n"
              "                _describe -t commands command cmds\n"
              "                return\n"
              "        fi\n"
              "        case ${words[2]} in\n", f);
        top_cases(f, cmds, &zsh_cases, true, true);
        fputs("        esac\n}\n\n_sbx \"$@\"\n", f);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests for the docker entry point's pure parts (issue 9): the argv
 * parser, the Go-template subset for --format (every template of
 * docker-surface.md §2 against docker-shaped data), env files, -v specs. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docker/docker.h"
#include "util/util.h"
#include "unit.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static sbx_docker_args args;

static int parse(char **argv, int argc, sbx_error *e) {
        return sbx_docker_parse(argc, argv, &args, e);
}

START_TEST(test_argv_create_in_openclaw_order) {
        char *argv[] = { "create", "--name", "openclaw-sbx-x", "--init", "--label", "openclaw.sandbox=1",
                         "--read-only", "--tmpfs", "/tmp:size=64m", "--network", "none", "--user", "0:0",
                         "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--pids-limit", "256",
                         "--ulimit", "nofile=1024:2048", "--workdir", "/workspace", "-v", "/a:/workspace:z",
                         "-v", "/a/s:/workspace/s:ro,z", "--env-file", "/tmp/e", "img:tag", "sleep", "infinity" };
        sbx_error e = {};

        ck_assert_int_eq(parse(argv, N(argv), &e), 0);
        ck_assert_int_eq(args.verb, SBX_DOCKER_CREATE);
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_NAME), "openclaw-sbx-x");
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_INIT));
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_READ_ONLY));
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_VOLUME), "/a/s:/workspace/s:ro,z");
        /* flags end at the image: the command keeps its own words */
        ck_assert_uint_eq(args.n_pos, 3);
        ck_assert_str_eq(args.pos[0], "img:tag");
        ck_assert_str_eq(args.pos[2], "infinity");
        /* both -v kept, in order (nested binds: parent first) */
        size_t nv = 0;
        for (size_t i = 0; i < args.n_opts; i++)
                if (args.opts[i].flag == SBX_DF_VOLUME)
                        ck_assert_str_eq(args.opts[i].value, nv++ ? "/a/s:/workspace/s:ro,z" : "/a:/workspace:z");
        ck_assert_uint_eq(nv, 2);
}
END_TEST

START_TEST(test_argv_exec_flags_stop_at_container) {
        char *argv[] = { "exec", "-i", "-w", "/workspace", "--env-file", "/tmp/x", "0123abcd", "/bin/sh", "-lc",
                         "echo -e hi" };
        char *combined[] = { "exec", "-it", "-wfoo", "c", "ls", "-la" };
        sbx_error e = {};

        ck_assert_int_eq(parse(argv, N(argv), &e), 0);
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_INTERACTIVE));
        ck_assert(!sbx_docker_opt_has(&args, SBX_DF_TTY));
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_WORKDIR), "/workspace");
        ck_assert_uint_eq(args.n_pos, 4);
        ck_assert_str_eq(args.pos[0], "0123abcd");
        ck_assert_str_eq(args.pos[2], "-lc"); /* not taken as a flag */
        ck_assert_int_eq(parse(combined, N(combined), &e), 0);
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_INTERACTIVE));
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_TTY));
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_WORKDIR), "foo");
        ck_assert_str_eq(args.pos[2], "-la");
}
END_TEST

START_TEST(test_argv_f_means_format_or_force_by_verb) {
        char *insp[] = { "inspect", "-f", "{{.State.Running}}", "name" };
        char *insp2[] = { "inspect", "name", "--format={{.Id}}", "--type", "container" };
        char *rm[] = { "rm", "-f", "name" };
        char *img[] = { "image", "inspect", "openclaw-sandbox:bookworm-slim" };
        char *ps[] = { "ps", "-a", "--filter", "label=openclaw.sandboxBrowser=1", "--format", "{{.Names}}" };
        sbx_error e = {};

        ck_assert_int_eq(parse(insp, N(insp), &e), 0);
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_FORMAT), "{{.State.Running}}");
        ck_assert_int_eq(parse(insp2, N(insp2), &e), 0);
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_FORMAT), "{{.Id}}");
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_TYPE), "container");
        ck_assert_uint_eq(args.n_pos, 1);
        ck_assert_str_eq(args.pos[0], "name");
        ck_assert_int_eq(parse(rm, N(rm), &e), 0);
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_FORCE));
        ck_assert_uint_eq(args.n_pos, 1);
        ck_assert_int_eq(parse(img, N(img), &e), 0);
        ck_assert_int_eq(args.verb, SBX_DOCKER_IMAGE_INSPECT);
        ck_assert_str_eq(args.pos[0], "openclaw-sandbox:bookworm-slim");
        ck_assert_int_eq(parse(ps, N(ps), &e), 0);
        ck_assert(sbx_docker_opt_has(&args, SBX_DF_ALL));
        ck_assert_str_eq(sbx_docker_opt_last(&args, SBX_DF_FILTER), "label=openclaw.sandboxBrowser=1");
}
END_TEST

START_TEST(test_argv_unknown_flags_and_verbs_are_named) {
        char *unk[] = { "create", "--privileged", "img" };
        char *unk_short[] = { "exec", "-x", "c", "ls" };
        char *wrong_verb[] = { "rm", "--format", "x", "n" };
        char *verb[] = { "run", "img" };
        char *sub[] = { "image", "rm", "img" };
        char *missing[] = { "inspect", "--format" };
        char *badbool[] = { "create", "--init=maybe", "img" };
        sbx_error e = {};

        ck_assert_int_eq(parse(unk, N(unk), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "--privileged"));
        ck_assert_int_eq(parse(unk_short, N(unk_short), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'x'"));
        ck_assert_int_eq(parse(wrong_verb, N(wrong_verb), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "--format"));
        ck_assert_int_eq(parse(verb, N(verb), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "\"run\""));
        ck_assert_int_eq(parse(sub, N(sub), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "image rm"));
        ck_assert_int_eq(parse(missing, N(missing), &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "needs an argument"));
        ck_assert_int_eq(parse(badbool, N(badbool), &e), -EINVAL);
}
END_TEST

/* ---- templates ---- */

static const char *inspect_json =
        "{\"Id\":\"61a9469218a014c9ef76e7f7b52c4b90c6a391b2038ab4e0d4214db0751e3c30\","
        "\"State\":{\"Running\":true,\"Paused\":false},"
        "\"Config\":{\"Image\":\"openclaw-sandbox:bookworm-slim\","
        "\"Labels\":{\"openclaw.configHash\":\"9623\",\"openclaw.browserConfigEpoch\":\"e1\"},"
        "\"Env\":[\"LANG=C.UTF-8\",\"A=<b>&\"]},"
        "\"HostConfig\":{\"Tmpfs\":{\"/tmp\":\"\"}},"
        "\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"/s\",\"Destination\":\"/workspace\",\"Mode\":\"z\",\"RW\":true}],"
        "\"Names\":\"n1\",\"Server\":{\"Version\":\"1.2.3\"},\"Nothing\":null,"
        "\"Empty\":[],\"Code\":137,\"Ratio\":0.25}";

/* what docker.c marks: Go maps, and structs with their field order */
static const sbx_docker_tmpl_struct_shape test_mount_shape = {
        .fields = (const char *const[]) { "Type", "Name", "Source", "Destination", "Driver", "Mode", "RW",
                                          "Propagation", NULL },
};
static const sbx_docker_tmpl_struct_shape test_state_shape = {
        .pointer = true, .fields = (const char *const[]) { "Running", "Paused", "*Health", NULL },
};

static char *render(const char *tmpl, sbx_error *e) {
        json_object *o = json_tokener_parse(inspect_json);
        char *out = NULL;

        ck_assert_ptr_nonnull(o);
        sbx_docker_tmpl_map(json_object_object_get(json_object_object_get(o, "Config"), "Labels"),
                            SBX_TMPL_MAP_STRING);
        sbx_docker_tmpl_map(json_object_object_get(json_object_object_get(o, "HostConfig"), "Tmpfs"),
                            SBX_TMPL_MAP_STRING);
        sbx_docker_tmpl_struct(json_object_array_get_idx(json_object_object_get(o, "Mounts"), 0), &test_mount_shape);
        sbx_docker_tmpl_struct(json_object_object_get(o, "State"), &test_state_shape);
        if (sbx_docker_template(tmpl, o, &out, e) < 0)
                out = NULL;
        json_object_put(o);
        return out;
}

static void expect(const char *tmpl, const char *want) {
        sbx_error e = {};
        char *got = render(tmpl, &e);

        ck_assert_msg(got, "template '%s' failed: %s", tmpl, e.msg);
        ck_assert_msg(!strcmp(got, want), "template '%s': got '%s', want '%s'", tmpl, got, want);
        free(got);
}

START_TEST(test_template_every_openclaw_format) {
        expect("{{.State.Running}}", "true");
        expect("{{.State.Paused}}", "false");
        expect("{{ index .Config.Labels \"openclaw.configHash\" }}", "9623");
        expect("{{.Id}}", "61a9469218a014c9ef76e7f7b52c4b90c6a391b2038ab4e0d4214db0751e3c30");
        expect("{{.Config.Image}}", "openclaw-sandbox:bookworm-slim");
        expect("{\"Mounts\":{{json .Mounts}},\"Tmpfs\":{{json .HostConfig.Tmpfs}}}",
               "{\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"/s\",\"Destination\":\"/workspace\",\"Mode\":\"z\","
               "\"RW\":true}],\"Tmpfs\":{\"/tmp\":\"\"}}");
        expect("{\"Id\":{{json .ID}},\"Tmpfs\":{{json .Nothing}}}",
               "{\"Id\":\"61a9469218a014c9ef76e7f7b52c4b90c6a391b2038ab4e0d4214db0751e3c30\",\"Tmpfs\":null}");
        expect("{{.Id}} {{.State.Running}} {{.State.Paused}}",
               "61a9469218a014c9ef76e7f7b52c4b90c6a391b2038ab4e0d4214db0751e3c30 true false");
        expect("{{range .Config.Env}}{{println .}}{{end}}", "LANG=C.UTF-8\nA=<b>&\n");
        expect("{{ index .Config.Labels \"openclaw.configHash\" }}\t{{ index .Config.Labels "
               "\"openclaw.browserConfigEpoch\" }}",
               "9623\te1");
        expect("{{.Names}}", "n1");
        expect("{{.Server.Version}}", "1.2.3");
}
END_TEST

START_TEST(test_template_go_conventions) {
        sbx_error e = {};
        char *bad;

        /* Docker's rule per case (its typed structs first, then the JSON
         * as maps with missingkey=error): index of a map[string]string's
         * missing key is "" (the zero value), .K of it <no value>; of the
         * JSON fallback's map <no value> */
        expect("{{ index .Config.Labels \"missing\" }}", "");
        expect("{{.Config.Labels.missing}}", "<no value>");
        expect("{{ index .State \"missing\" }}", "<no value>");
        /* a map's keys are exact (Labels has openclaw.configHash only) */
        expect("{{ index .Config.Labels \"openclaw.confighash\" }}", "");
        /* a struct field the JSON omits prints its zero value; a pointer <nil> */
        expect("{{.State.Health}}", "<nil>");
        expect("{{range .Mounts}}[{{.Name}}]{{end}}", "[]");
        /* fmt's %v of a struct: field order, zero values, &{} for a pointer */
        expect("{{.Mounts}}", "[{bind  /s /workspace  z true }]");
        expect("{{.State}}", "&{true false <nil>}");
        /* if/else if/else/with, Go's truth: false, 0, "", empty, nil, missing */
        expect("{{if .State.Running}}up{{else}}down{{end}}", "up");
        expect("{{if .State.Paused}}p{{else if .State.Health}}h{{else if .Config.Env}}env{{else}}x{{end}}", "env");
        expect("{{if .Config.Labels.missing}}y{{else}}n{{end}}|{{if .Nothing}}y{{else}}n{{end}}", "n|n");
        expect("{{if .State}}s{{end}}{{if .HostConfig.Tmpfs}}t{{end}}{{if .State.Health}}h{{end}}", "st");
        expect("{{with .Config}}{{.Image}}{{end}}|{{with .State.Health}}h{{else}}none{{end}}",
               "openclaw-sandbox:bookworm-slim|none");
        expect("{{range .Mounts}}{{if .RW}}{{.Destination}} rw{{end}}{{end}}", "/workspace rw");
        expect("a {{- if .State.Running -}} b {{- end -}} c", "abc");
        /* not, len, eq, ne (a piped value is the last argument) */
        expect("{{if eq .Config.Image \"x\" \"openclaw-sandbox:bookworm-slim\"}}img{{end}}", "img");
        expect("{{if ne .State.Running true}}down{{else}}up{{end}}|{{not .State.Paused}}|{{.State.Paused | not}}",
               "up|true|true");
        expect("{{len .Config.Env}} {{len .Mounts}} {{len .Names}} {{.Config.Labels | len}}", "2 1 2 2");
        expect("{{range .Mounts}}{{if eq .Destination \"/workspace\"}}ws{{end}}{{end}}", "ws");
        /* variables: $ (the data), {{$x := P}} (to the end of its block), range's $i/$k and $v */
        expect("{{range $k, $v := .Config.Labels}}{{$k}}={{$v}};{{end}}",
               "openclaw.browserConfigEpoch=e1;openclaw.configHash=9623;");
        expect("{{range $i, $e := .Config.Env}}{{$i}}:{{$e}} {{end}}", "0:LANG=C.UTF-8 1:A=<b>& ");
        expect("{{range $m := .Mounts}}{{$m.Destination}} {{$.Config.Image}}{{end}}",
               "/workspace openclaw-sandbox:bookworm-slim");
        expect("{{$img := .Config.Image}}{{range .Mounts}}{{$img}}{{end}}|{{$n := \"x\"}}{{$n}}",
               "openclaw-sandbox:bookworm-slim|x");
        expect("{{if .State.Running}}{{$in := 1}}{{$in}}{{end}}", "1");
        expect("{{range $.Config.Env}}{{.}};{{end}}", "LANG=C.UTF-8;A=<b>&;");
        /* range over a map: sorted keys, as Go */
        expect("{{range .Config.Labels}}{{.}} {{end}}", "e1 9623 ");
        expect("{{.Nothing}}", "<nil>");
        expect("{{json .Config.Env}}", "[\"LANG=C.UTF-8\",\"A=\\u003cb\\u003e\\u0026\"]");
        expect("{{.Config.Env}}", "[LANG=C.UTF-8 A=<b>&]");
        expect("{{.HostConfig.Tmpfs}}", "map[/tmp:]");
        expect("{{.Config.Image | json}}", "\"openclaw-sandbox:bookworm-slim\"");
        expect("a {{- .Names -}} b", "an1b");
        expect("{{/* comment */}}x", "x");
        expect("plain text", "plain text");
        /* .M "k": a method of one string argument on a map (docker ps's {{.Label "k"}}) */
        expect("{{.Config.Labels \"openclaw.configHash\"}}|{{.Config.Labels \"missing\"}}", "9623|");
        /* errors name the action */
        static const char *const errors[] = { "{{.State.Running", "{{if .X}}y{{end}}", "{{printf \"%s\" .X}}",
                                              "{{range .Config.Env}}x", "{{index .Config.Labels 3}}",
                                              "{{.Names.Sub}}", "{{range .Names}}{{end}}", "{{}}",
                                              "{{.Names \"k\"}}", "{{.Nothing \"k\"}}",
                                              /* no such field: Docker's "map has no entry for key" */
                                              "{{.No.Such.Field}}", "{{.State.Missing}}", "{{.Config.labelz}}",
                                              "{{json .Missing}}" };
        static const char *const branch_errors[] = { "{{if .State.Running}}x", "{{if .State.Running}}x{{else foo}}y{{end}}",
                                                     "{{else}}", "{{end}}", "{{if .State.Bogus}}x{{end}}",
                                                     "{{eq .State.Running \"true\"}}", "{{eq .Nothing .Nothing}}",
                                                     "{{len .State.Running}}", "{{not}}", "{{ne .Names}}",
                                                     "{{$nope}}", "{{if .State.Running}}{{$in := 1}}{{end}}{{$in}}",
                                                     "{{range $a $b := .Mounts}}{{end}}" };
        for (size_t i = 0; i < N(branch_errors); i++) {
                bad = render(branch_errors[i], &e);
                ck_assert_msg(!bad, "'%s' rendered '%s'", branch_errors[i], bad ?: "");
                free(bad);
        }
        for (size_t i = 0; i < N(errors); i++) {
                bad = render(errors[i], &e);
                ck_assert_msg(!bad, "'%s' rendered '%s'", errors[i], bad ?: "");
                ck_assert_msg(strstr(e.msg, "--format"), "'%s': %s", errors[i], e.msg);
                if (i >= N(errors) - 4)
                        ck_assert_msg(strstr(e.msg, "map has no entry for key"), "'%s': %s", errors[i], e.msg);
        }
}
END_TEST

/* printf, parentheses, range ... else: the outputs Go's text/template and
 * fmt give (fmt's rules: Sprint spaces only between two non-strings, a
 * piped value is the last argument, %!verb(type=value), MISSING, EXTRA) */
START_TEST(test_template_printf_parens_range_else) {
        sbx_error e = {};
        char *bad;

        /* printf: strings */
        expect("{{printf \"%s:%v\" .Config.Image .State.Running}}", "openclaw-sandbox:bookworm-slim:true");
        expect("{{printf \"[%6s][%-4s][%.2s][%5.1s]\" \"ab\" \"ab\" \"h\xc3\xa9llo\" \"xyz\"}}", "[    ab][ab  ][h\xc3\xa9][    x]");
        expect("{{printf \"%q %x %X\" \"a\\\"b\\n\" \"hi\" \"hi\"}}", "\"a\\\"b\\n\" 6869 6869");
        expect("{{printf \"100%% %t\" true}}", "100% true");
        /* integers */
        expect("{{printf \"%d|%5d|%-5d|%05d|%+d|%.3d|%8.3d\" .Code 42 42 -42 5 7 7}}",
               "137|   42|42   |-0042|+5|007|     007");
        expect("{{printf \"%x %#x %X %o %b %c %v\" 255 255 -255 8 5 65 .Code}}", "ff 0xff -FF 10 101 A 137");
        /* floats */
        expect("{{printf \"%v %g %.1f|%6.2f|%e|%+.1e|%08.3f\" .Ratio .Ratio .Ratio .Ratio .Ratio .Ratio .Ratio}}",
               "0.25 0.25 0.2|  0.25|2.500000e-01|+2.5e-01|0000.250");
        /* lists and maps: %v, %s of strings */
        expect("{{printf \"%v %s %s\" .Config.Env .Config.Env .Config.Labels}}",
               "[LANG=C.UTF-8 A=<b>&] [LANG=C.UTF-8 A=<b>&] map[openclaw.browserConfigEpoch:e1 openclaw.configHash:9623]");
        expect("{{printf \"%v\" .Mounts}}", "[{bind  /s /workspace  z true }]");
        /* fmt's own error texts */
        expect("{{printf \"%d %s %t\" \"x\" 5 .Names}}", "%!d(string=x) %!s(int=5) %!t(string=n1)");
        expect("{{printf \"%s|%v|%d\" .Nothing .Nothing .Config.Labels.missing}}", "%!s(<nil>)|<nil>|%!d(<nil>)");
        expect("{{printf \"%s %s\" \"a\"}}|{{printf \"%s\" \"a\" \"b\" 3}}|{{printf \"x%\"}}",
               "a %!s(MISSING)|a%!(EXTRA string=b, int=3)|x%!(NOVERB)");
        /* print/println/printf return strings: piped (last), in parens, into functions */
        expect("{{.Config.Image | printf \"%.8s\"}}|{{\"x\" | printf \"%s-%s\" \"y\"}}", "openclaw|y-x");
        expect("{{print 1 2 \"a\" 3 true}}|{{println \"a\" 1}}|{{print}}|{{\"v\" | print \"k=\"}}",
               "1 2a3 true|a 1\n||k=v");
        expect("{{printf \"%s\" .Names | len}} {{json .Names | len}} {{if eq (printf \"%d\" .Code) \"137\"}}y{{end}}",
               "2 4 y");
        /* parentheses: a pipeline's value, as an argument, a condition, with .Field after */
        expect("{{(index .Config.Labels \"openclaw.configHash\")}}", "9623");
        expect("{{if eq (index .Config.Labels \"openclaw.configHash\") \"9623\"}}y{{else}}n{{end}}", "y");
        expect("{{(.State).Running}} {{(index . \"Config\").Image}} {{ ( .Names ) }}",
               "true openclaw-sandbox:bookworm-slim n1");
        expect("{{printf \"%s=%s\" \"a\" (printf \"%d\" (len .Config.Env))}}", "a=2");
        expect("{{printf \"%s\" (print (index .Config.Labels \"openclaw.browserConfigEpoch\") \")\")}}", "e1)");
        expect("{{with (index .Config.Labels \"openclaw.configHash\")}}{{.}}{{end}}|{{(json .Config.Env)}}",
               "9623|[\"LANG=C.UTF-8\",\"A=\\u003cb\\u003e\\u0026\"]");
        expect("{{$h := (index .Config.Labels \"openclaw.configHash\")}}{{$h}}", "9623");
        /* range ... else: the else body when nothing was ranged over, dot unchanged */
        expect("{{range .Empty}}x{{else}}{{.Names}}{{end}}", "n1");
        expect("{{range .Nothing}}x{{else}}nil{{end}}|{{range .Config.Labels.missing}}x{{else}}none{{end}}",
               "nil|none");
        expect("{{range .Config.Env}}{{.}};{{else}}none{{end}}", "LANG=C.UTF-8;A=<b>&;");
        expect("{{range $i, $e := .Mounts}}{{$i}}{{$e.Type}}{{else}}-{{end}}", "0bind");
        expect("{{range $k, $v := .HostConfig.Tmpfs}}[{{$k}}]{{else}}-{{end}}", "[/tmp]");
        expect("{{range .Empty}}{{range .X}}{{else}}in{{end}}{{else}}out{{end}}", "out");
        expect("{{range .Config.Env}}{{range $.Empty}}{{else}}e{{end}}{{else}}out{{end}}", "ee");
        expect("{{range .Empty}}x{{else}}{{if .Nothing}}a{{else}}b{{end}}{{end}}", "b");
        expect("<{{range .Empty -}} x {{- else -}} y {{- end}}>", "<y>");

        /* refused, naming the action */
        static const char *const errors[] = {
                "{{(.Names}}", "{{()}}", "{{(.Names)x}}", "{{printf}}", "{{printf 5}}", "{{printf \"%*d\" 3 4}}",
                "{{printf \"%[1]s\" \"a\"}}", "{{printf \"%y\" 1}}", "{{printf \"%q\" 5}}", "{{printf \"%5v\" .Mounts}}",
                "{{printf \"%s\" .Mounts}}", "{{printf \"%d\" .Config.Env}}", "{{json}}",
                "{{range .Empty}}x{{else if .Names}}y{{end}}", "{{range .Empty}}x{{else}}y",
                "{{range .Empty}}x{{else with .Names}}y{{end}}", "{{(.Names).Sub}}" };
        for (size_t i = 0; i < N(errors); i++) {
                bad = render(errors[i], &e);
                ck_assert_msg(!bad, "'%s' rendered '%s'", errors[i], bad ?: "");
                ck_assert_msg(strstr(e.msg, "--format"), "'%s': %s", errors[i], e.msg);
        }
        bad = render("{{range .Empty}}x{{else if .Names}}y{{end}}", &e);
        ck_assert_msg(!bad && strstr(e.msg, "range ... else if/with is not supported"), "%s", e.msg);
}
END_TEST

/* ---- env files, volumes ---- */

START_TEST(test_env_file_docker_rules) {
        const char *text = "# comment\n\nB=2\r\nA=1 with spaces\nEMPTY=\nFROM_ENV\nUNSET_VAR_X\n  C=x=y\nB=3\n";
        char **envv = NULL;
        size_t n = 0;
        sbx_error e = {};

        setenv("FROM_ENV", "inherited", 1);
        unsetenv("UNSET_VAR_X");
        ck_assert_int_eq(sbx_docker_env_parse(text, strlen(text), "t.env", &envv, &n, &e), 0);
        ck_assert_uint_eq(n, 5);
        ck_assert_str_eq(envv[0], "B=3");   /* a later value wins, in place */
        ck_assert_str_eq(envv[1], "A=1 with spaces");
        ck_assert_str_eq(envv[2], "EMPTY=");
        ck_assert_str_eq(envv[3], "FROM_ENV=inherited");
        ck_assert_str_eq(envv[4], "C=x=y");
        ck_assert_ptr_null(envv[5]);
        sbx_docker_env_free(envv, n);
        envv = NULL;
        n = 0;
        ck_assert_int_eq(sbx_docker_env_parse("OK=1\nBAD KEY=1\n", 17, "t.env", &envv, &n, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "t.env:2"));
        ck_assert_int_eq(sbx_docker_env_parse("=x\n", 3, "t.env", &envv, &n, &e), -EINVAL);
        sbx_docker_env_free(envv, n);
}
END_TEST

START_TEST(test_env_file_read_from_disk) {
        char path[] = "/tmp/sbx-test-envXXXXXX";
        int fd = mkstemp(path);
        char **envv = NULL;
        size_t n = 0;
        sbx_error e = {};

        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, "LANG=C.UTF-8\nOPENCLAW_CLI=1\n", 28), 28);
        close(fd);
        ck_assert_int_eq(sbx_docker_env_file(path, &envv, &n, &e), 0);
        ck_assert_uint_eq(n, 2);
        ck_assert_str_eq(envv[1], "OPENCLAW_CLI=1");
        unlink(path);
        ck_assert_int_eq(sbx_docker_env_file(path, &envv, &n, &e), -ENOENT);
        ck_assert_ptr_nonnull(strstr(e.msg, path));
        ck_assert_int_eq(sbx_docker_env_file("/dev", &envv, &n, &e), -EINVAL);
        sbx_docker_env_free(envv, n);
}
END_TEST

START_TEST(test_volume_specs) {
        sbx_docker_volume v;
        sbx_error e = {};

        ck_assert_int_eq(sbx_docker_parse_volume("/h/ws:/workspace:z", &v, &e), 0);
        ck_assert_str_eq(v.src, "/h/ws");
        ck_assert_str_eq(v.dst, "/workspace");
        ck_assert_str_eq(v.mode, "z");
        ck_assert(!v.ro);
        ck_assert_int_eq(sbx_docker_parse_volume("/h/s:/workspace/skills:ro,z", &v, &e), 0);
        ck_assert(v.ro);
        ck_assert_str_eq(v.mode, "ro,z");
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/extra:ro", &v, &e), 0);
        ck_assert(v.ro);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y", &v, &e), 0);
        ck_assert_str_eq(v.mode, "");
        ck_assert_int_eq(sbx_docker_parse_volume("named:/y", &v, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "named volumes"));
        ck_assert_int_eq(sbx_docker_parse_volume("/x:rel", &v, &e), -EINVAL);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:shared", &v, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'shared'"));
        ck_assert_int_eq(sbx_docker_parse_volume("/x", &v, &e), -EINVAL);
        /* docker's ValidMountMode: one of each kind ("ro,rw" was writable) */
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:ro,rw", &v, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "ro/rw given more than once"));
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:rw,ro", &v, &e), -EINVAL);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:ro,ro", &v, &e), -EINVAL);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:z,Z", &v, &e), -EINVAL);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:private,rprivate", &v, &e), -EINVAL);
        ck_assert_int_eq(sbx_docker_parse_volume("/x:/y:rw,z,rprivate", &v, &e), 0);
        ck_assert(!v.ro);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_argv_create_in_openclaw_order, test_argv_exec_flags_stop_at_container,
                                 test_argv_f_means_format_or_force_by_verb,
                                 test_argv_unknown_flags_and_verbs_are_named,
                                 test_template_every_openclaw_format, test_template_go_conventions,
                                 test_template_printf_parens_range_else,
                                 test_env_file_docker_rules, test_env_file_read_from_disk,
                                 test_volume_specs };

        return unit_main("docker", "core", 0, CK_NORMAL, tests, UNIT_N(tests));
}

/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the docker entry point's parsers (issue 9; STYLE.md
 * rule 21). The first byte picks the parser, the rest is its input:
 *   0: docker argv (NUL-separated words), 1: a --format template rendered
 *   against docker-inspect-shaped data, 2: an env file, 3: a -v spec.
 * Contract besides "no crash, no leak, no UB": a failure is a negative errno
 * with a message; argv results point into argv and stay in bounds. */
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "docker/docker.h"

#define MAX_WORDS 512

static const char *data_json =
        "{\"Id\":\"61a9\",\"State\":{\"Running\":true,\"Paused\":false},"
        "\"Config\":{\"Image\":\"i\",\"Labels\":{\"openclaw.configHash\":\"h\"},\"Env\":[\"A=1\",\"B=2\"]},"
        "\"HostConfig\":{\"Tmpfs\":null},\"Mounts\":[{\"Type\":\"bind\",\"RW\":true}],\"N\":1.5}";

static void check_error(int r, const sbx_error *e) {
        if (r < 0 && (e->msg[0] == '\0' || r == -EFAULT))
                abort();
}

static void fuzz_argv(char *buf, size_t len) {
        static sbx_docker_args a;
        char *argv[MAX_WORDS + 1];
        int argc = 0;
        sbx_error e = {};
        int r;

        for (size_t i = 0; i <= len && argc < MAX_WORDS;) {
                argv[argc++] = buf + i;
                i += strlen(buf + i) + 1;
        }
        argv[argc] = NULL;
        r = sbx_docker_parse(argc, argv, &a, &e);
        check_error(r, &e);
        if (r < 0)
                return;
        if (a.n_opts > SBX_DOCKER_OPTS_MAX || a.n_pos > (size_t) argc)
                abort();
        for (size_t i = 0; i < a.n_pos; i++)
                if (!a.pos[i])
                        abort();
        for (size_t i = 0; i < a.n_opts; i++)
                if (!a.opts[i].value || a.opts[i].flag < 0 || a.opts[i].flag >= _SBX_DF_MAX)
                        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *buf;
        sbx_error e = {};
        int r;

        if (size < 1 || size > 65536)
                return 0;
        buf = malloc(size + 1);
        if (!buf)
                return 0;
        memcpy(buf, data + 1, size - 1);
        buf[size - 1] = '\0';
        switch (data[0] % 4) {
        case 0:
                fuzz_argv(buf, size - 1);
                break;
        case 1: {
                static const char *const mount_fields[] = { "Type", "Name", "Source", "RW", NULL },
                                         *const state_fields[] = { "Running", "Paused", "*Health", NULL };
                static const sbx_docker_tmpl_struct_shape mount = { .fields = mount_fields },
                                                          state = { .pointer = true, .fields = state_fields };
                json_object *o = json_tokener_parse(data_json);
                char *out = NULL;
                /* as docker.c marks inspect's data: Go maps and structs */
                sbx_docker_tmpl_map(json_object_object_get(json_object_object_get(o, "Config"), "Labels"),
                                    SBX_TMPL_MAP_STRING);
                sbx_docker_tmpl_struct(json_object_array_get_idx(json_object_object_get(o, "Mounts"), 0), &mount);
                sbx_docker_tmpl_struct(json_object_object_get(o, "State"), &state);
                r = sbx_docker_template(buf, o, &out, &e);
                check_error(r, &e);
                if (r >= 0 && !out)
                        abort();
                free(out);
                json_object_put(o);
                break;
        }
        case 2: {
                char **envv = NULL;
                size_t n = 0;
                r = sbx_docker_env_parse(buf, size - 1, "fuzz.env", &envv, &n, &e);
                check_error(r, &e);
                for (size_t i = 0; i < n; i++)
                        if (!strchr(envv[i], '='))
                                abort();
                sbx_docker_env_free(envv, n);
                break;
        }
        default: {
                sbx_docker_volume v;
                r = sbx_docker_parse_volume(buf, &v, &e);
                check_error(r, &e);
                if (r >= 0 && (v.src[0] != '/' || v.dst[0] != '/'))
                        abort();
                break;
        }
        }
        free(buf);
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* `docker ...` (sbx installed or symlinked as docker) and `sbx docker ...`:
 * the docker CLI subset OpenClaw uses, on sbx's persistent sandboxes. Error
 * texts and exit codes are docker's where OpenClaw parses them
 * (docker-surface.md §0): "No such object/container/image", exit 1 for an
 * error from the "daemon", 125 when create fails or a command's flags do
 * not parse (the docker CLI's FlagErrorFunc), the command's own status for
 * exec. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rootfs-tools/image.h"
#include "util/util.h"
#include "cli/cli.h"
#include "build-config.h"
#include "docker.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define DOCKER_EXIT_ERROR 1      /* docker CLI: an error response */
#define DOCKER_EXIT_CREATE 125   /* docker create/run: the container could not be made; a flag error */

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_putp)

const sbx_cli_cmd sbx_cmd_docker = {
        .name = "docker", .page = "sbx-docker", .fn = cli_docker, .positional = "",
        .usage = "COMMAND ...",
        .summary = "the docker CLI subset OpenClaw uses (also: sbx installed as 'docker')",
        .text = "The subset of the docker CLI that OpenClaw drives, on sbx persistent sandboxes (an OpenClaw "
                "container is an sbx sandbox: 'sbx ls' lists it). 'sbx docker ARGS' and a program named "
                "'docker' that is sbx (a symlink: sbx looks at argv[0]) are the same. sbx installs no such "
                "symlink; make one in a directory early on PATH only where sbx should stand in for docker.\n\n"
                "FORMAT: Go templates as docker: {{.State.Running}}, {{json .Mounts}}, "
                "{{ index .Config.Labels \"k\" }}, {{range .Config.Env}}{{println .}}{{end}}, "
                "{{if .State.Running}}..{{else if P}}..{{else}}..{{end}}, {{with P}}..{{end}}, "
                "eq/ne/not/len, {{range $k, $v := .Config.Labels}}{{$k}}={{$v}}{{end}}, {{$x := P}}, $.Id, ... "
                "(not yet: printf, parentheses, other functions)",
        .opts = { (const sbx_cli_opt[]) { { "help", 0, NULL, 'h', "show this help and exit", NULL },
                                          SBX_CLI_OPT_END }, NULL },
        .footer = "See README.md, \"OpenClaw via docker\", and 'docker COMMAND --help'.",
};

/* docker --help: what it is, then one line per verb. */
static void docker_usage(FILE *f) {
        const sbx_cli_cmd *const *cmds = sbx_docker_commands();

        sbx_cli_usage(f, &sbx_cmd_docker);
        fputs("\nCommands:\n", f);
        for (size_t i = 1; cmds[i]; i++)
                fprintf(f, "  %-15s %s\n", cmds[i]->name + 7, cmds[i]->summary);
}

static int print_template(const char *fmt, json_object *o) {
        _cleanup_free_ char *out = NULL;
        sbx_error e = {};

        if (sbx_docker_template(fmt, o, &out, &e) < 0) {
                fprintf(stderr, "template parsing error: %s\n", e.msg);
                return -EINVAL;
        }
        fputs(out, stdout);
        fputc('\n', stdout);
        return 0;
}

/* Print a list of objects: with a format, one rendering each; without, a
 * JSON array as docker inspect does. */
static int print_objects(const char *fmt, json_object *arr) {
        int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;

        if (!fmt) {
                /* names a sandbox or a user chose: valid UTF-8, no raw C1 (util.h) */
                _cleanup_free_ char *safe = sbx_json_terminal_safe(
                        json_object_array_length(arr) == 0 ? "[]" : json_object_to_json_string_ext(arr, flags));
                if (!safe)
                        return -ENOMEM;
                puts(safe);
                return 0;
        }
        for (size_t i = 0; i < json_object_array_length(arr); i++)
                if (print_template(fmt, json_object_array_get_idx(arr, i)) < 0)
                        return -EINVAL;
        return 0;
}

/* ------------------------------------------------------------- create/start */

static int docker_create(const sbx_docker_args *a) {
        _cleanup_(sbx_docker_create_done) sbx_docker_create c = {};
        _cleanup_(cli_policy_free) sbx_sandbox_policy policy = {};
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        char id[SBX_SANDBOX_ID_LEN + 1], gen[32];
        char why[SBX_ERROR_MSG_MAX + 64];
        sbx_sandbox_opts opts = {};
        sbx_error e = {};
        int r;

        r = sbx_docker_create_prepare(a, &c, &e);
        if (r < 0) {
                /* the errno's text once (ERRORS.md): "--env-file 'F': No such file or directory" */
                fprintf(stderr, "Error response from daemon: %s\n",
                        r == -EINVAL || !strncmp(e.msg, "No such ", 8) ? e.msg : sbx_error_why(&e, why, sizeof(why)));
                return DOCKER_EXIT_CREATE;
        }
        /* issue 14: a container OpenClaw creates for a scope gets its agent's
         * rules; no config or no label: none. A config that cannot be read
         * fails the create (never a silently unrestricted sandbox). */
        for (size_t i = 0; i < c.n_labels; i++)
                if (!strcmp(c.labels[i].key, "openclaw.sessionKey")) {
                        r = cli_agent_rules(NULL, -EBADF, true, c.labels[i].value, NULL, NULL, &c.config, &policy, &e);
                        if (r < 0) {
                                fprintf(stderr, "Error response from daemon: sbx policy: %s\n", e.msg);
                                return DOCKER_EXIT_CREATE;
                        }
                }
        if (!c.name) {
                sbx_docker_self_id(id);
                snprintf(gen, sizeof(gen), "docker-%.12s%04x", id, (unsigned) getpid() & 0xffff);
                c.name = gen;
        }
        opts = (sbx_sandbox_opts) { .labels = c.labels, .n_labels = c.n_labels, .config_hash = c.config_hash,
                                    .image = c.image, .start = false, .policy = &policy, .id = c.id };
        r = sbx_sandbox_create(c.name, &c.config, &opts, id, &e);
        if (r == -EEXIST) {
                fprintf(stderr, "Error response from daemon: Conflict. The container name \"/%s\" is already in use "
                                "(%s)\n", c.name, e.msg);
                return DOCKER_EXIT_CREATE;
        }
        if (r < 0) {
                fprintf(stderr, "Error response from daemon: %s\n", sbx_error_why(&e, why, sizeof(why)));
                return DOCKER_EXIT_CREATE;
        }
        r = sbx_sandbox_lookup(id, &s, &e);
        if (r >= 0)
                r = sbx_docker_meta_save(s, c.meta, &e);
        if (r < 0) {
                (void) sbx_sandbox_remove(id, true, NULL);
                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                return DOCKER_EXIT_CREATE;
        }
        c.keep_dirs = true; /* the sandbox binds them now */
        printf("%s\n", id);
        return 0;
}

static void no_such_container(const char *ref) {
        fprintf(stderr, "Error response from daemon: No such container: %s\n", ref);
}

static bool sandbox_exists(const char *ref) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;

        return sbx_sandbox_lookup(ref, &s, NULL) >= 0;
}

/* The sandbox ref's --network container:NAME when NAME is no container
 * (docker says "No such container: NAME" at start, not at create), or NULL.
 * *ret is malloc'd. */
static char *missing_network_container(const char *ref) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;

        if (sbx_sandbox_lookup(ref, &s, NULL) < 0 || s->config.network != SBX_NETWORK_CONTAINER ||
            !s->config.network_container || sandbox_exists(s->config.network_container))
                return NULL;
        return strdup(s->config.network_container);
}

/* pause/unpause of a sandbox in the wrong state: the daemon's text, which
 * names the container by its id (Container ID is already paused / is not
 * running / is not paused). NULL for any other failure. */
static const char *pause_refusal(const char *what, const char *ref, int r, char *buf, size_t size) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        bool pause = !strcmp(what, "pause");

        if ((r != -EALREADY && r != -ESRCH) || (!pause && strcmp(what, "unpause")) ||
            sbx_sandbox_lookup(ref, &s, NULL) < 0)
                return NULL;
        snprintf(buf, size, "Container %s is %s", s->id,
                 !pause ? "not paused" : r == -EALREADY ? "already paused" : "not running");
        return buf;
}

/* start/pause/unpause: each ref, printed back on success. As docker: a
 * failed start is named again on the last line, a failed pause/unpause
 * only in its own error. */
static int docker_each(const sbx_docker_args *a, int (*fn)(const char *, sbx_error *), const char *what) {
        _cleanup_free_ char *failed = NULL;
        size_t n_failed = 0;

        if (a->n_pos == 0) {
                fprintf(stderr, "docker %s: requires at least 1 argument\n", what);
                return DOCKER_EXIT_ERROR;
        }
        for (size_t i = 0; i < a->n_pos; i++) {
                _cleanup_free_ char *net = NULL;
                char refusal[128];
                sbx_error e = {};
                int r = fn(a->pos[i], &e);
                /* "No such container" only when it is so: a start that
                 * fails on a missing file of an existing sandbox (a -v
                 * source removed since create) says which file. */
                if (r == -ENOENT && !sandbox_exists(a->pos[i]))
                        no_such_container(a->pos[i]);
                else if (r == -ENOENT && (net = missing_network_container(a->pos[i])))
                        no_such_container(net);
                else if (r < 0 && pause_refusal(what, a->pos[i], r, refusal, sizeof(refusal)))
                        fprintf(stderr, "Error response from daemon: %s\n", refusal);
                else if (r < 0)
                        fprintf(stderr, "Error response from daemon: %s: %s%s\n", what, e.msg,
                                strstr(e.msg, "cannot be enforced")
                                        ? " (docker: set SBX_DOCKER_LIMITS=best-effort in the caller's environment "
                                          "at create, or drop the limit)"
                                        : "");
                else
                        printf("%s\n", a->pos[i]);
                if (r < 0) {
                        char *f = NULL;

                        if (asprintf(&f, "%s%s%s", failed ?: "", n_failed ? ", " : "", a->pos[i]) >= 0) {
                                free(failed);
                                failed = f;
                        }
                        n_failed++;
                }
        }
        if (n_failed && !strcmp(what, "start"))
                fprintf(stderr, "Error: failed to %s containers: %s\n", what, failed ?: "");
        return n_failed ? DOCKER_EXIT_ERROR : 0;
}

static int docker_rm(const sbx_docker_args *a) {
        bool force = sbx_docker_opt_has(a, SBX_DF_FORCE);
        int ret = 0;

        if (a->n_pos == 0) {
                fputs("docker rm: requires at least 1 argument\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        for (size_t i = 0; i < a->n_pos; i++) {
                sbx_error e = {};
                int r = sbx_sandbox_remove(a->pos[i], force, &e);
                if (r == -ENOENT && force)
                        continue; /* docker >= 23: rm -f of a missing container is not an error */
                if (r == -ENOENT)
                        no_such_container(a->pos[i]);
                else if (r == -EBUSY)
                        fprintf(stderr, "Error response from daemon: cannot remove container \"/%s\": container "
                                        "is running: stop the container before removing or force remove\n",
                                a->pos[i]);
                else if (r < 0)
                        fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                else
                        printf("%s\n", a->pos[i]);
                if (r < 0)
                        ret = DOCKER_EXIT_ERROR;
        }
        return ret;
}

/* ------------------------------------------------------------- exec */

/* The self-probe's exec: this host is the "container", so run the command
 * right here (same mount namespace, same user): OpenClaw compares the boot
 * id and mount namespace it prints with its own. Whoever can run this
 * already runs commands on the host as this user, so nothing is granted. */
static void trace_self_exec(const sbx_docker_args *a);

static int exec_on_host(const sbx_docker_args *a, char **envv, size_t n_env) {
        const char *wd = sbx_docker_opt_last(a, SBX_DF_WORKDIR);

        if (sbx_docker_opt_has(a, SBX_DF_TTY) || sbx_docker_opt_last(a, SBX_DF_USER)) {
                fputs("Error response from daemon: sbx: exec in the host itself takes no -t/-u\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        for (size_t i = 0; i < n_env; i++)
                if (putenv(envv[i]) < 0)
                        return DOCKER_EXIT_ERROR;
        if (wd && chdir(wd) < 0) {
                fprintf(stderr, "Error response from daemon: chdir %s: %m\n", wd);
                return SBX_EXIT_CANNOT_EXEC;
        }
        if (!sbx_docker_opt_has(a, SBX_DF_INTERACTIVE) && !freopen("/dev/null", "r", stdin))
                return DOCKER_EXIT_ERROR;
        fflush(stdout);
        trace_self_exec(a);
        execvp(a->pos[1], a->pos + 1);
        fprintf(stderr, "OCI runtime exec failed: exec: \"%s\": %m\n", a->pos[1]);
        return errno == ENOENT ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_EXEC;
}

static int exec_env(const sbx_docker_args *a, char ***envv, size_t *n_env) {
        sbx_error e = {};

        for (size_t i = 0; i < a->n_opts; i++) {
                int r = 0;
                if (a->opts[i].flag == SBX_DF_ENV_FILE)
                        r = sbx_docker_env_file(a->opts[i].value, envv, n_env, &e);
                else if (a->opts[i].flag == SBX_DF_ENV)
                        /* one variable, newlines and all, as docker's -e (the
                         * env-file parser split "X=a\nPATH=/evil" in two) */
                        r = sbx_docker_env_add(a->opts[i].value, envv, n_env, &e);
                if (r < 0) {
                        fprintf(stderr, "docker exec: %s\n", e.msg);
                        /* docker's CLI: a bad -e is a flag error (125) */
                        return a->opts[i].flag == SBX_DF_ENV ? -EINVAL : -EIO;
                }
        }
        return 0;
}

static int docker_exec(const sbx_docker_args *a) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        _cleanup_(sbx_run_config_free) sbx_run_config now = {};
        const char *user = sbx_docker_opt_last(a, SBX_DF_USER);
        sbx_exec_request req = { .uid = SBX_ID_UNSET, .gid = SBX_ID_UNSET };
        char **envv = NULL;
        size_t n_env = 0;
        char why[SBX_ERROR_MSG_MAX + 64];
        sbx_error e = {};
        int r;

        if (a->n_pos < 2) {
                fputs("docker exec: requires at least 2 arguments (CONTAINER COMMAND...)\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        if (sbx_docker_opt_has(a, SBX_DF_DETACH)) {
                fputs("docker exec: -d/--detach is not supported by sbx\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        r = exec_env(a, &envv, &n_env);
        if (r < 0)
                return r == -EINVAL ? DOCKER_EXIT_CREATE : DOCKER_EXIT_ERROR;
        r = sbx_sandbox_lookup(a->pos[0], &s, &e);
        if (r == -ENOENT && sbx_docker_is_self(a->pos[0]))
                return exec_on_host(a, envv, n_env); /* envv is used by putenv: not freed */
        if (r == -ENOENT) {
                no_such_container(a->pos[0]);
                r = DOCKER_EXIT_ERROR;
                goto out;
        }
        if (r < 0) {
                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                r = DOCKER_EXIT_ERROR;
                goto out;
        }
        if (s->state != SBX_SANDBOX_RUNNING) {
                fprintf(stderr, "Error response from daemon: container %s is %s\n", s->id,
                        s->state == SBX_SANDBOX_PAUSED ? "paused, unpause the container before exec"
                                                       : "not running");
                r = DOCKER_EXIT_ERROR;
                goto out;
        }
        if (user && sbx_parse_user(user, &req.uid, &req.gid, &e) < 0) {
                fprintf(stderr, "docker exec: %s\n", e.msg);
                r = DOCKER_EXIT_ERROR;
                goto out;
        }
        req.argv = a->pos + 1;
        req.envv = envv;
        req.n_env = n_env;
        req.workdir = sbx_docker_opt_last(a, SBX_DF_WORKDIR);
        req.tty = sbx_docker_opt_has(a, SBX_DF_TTY);
        req.stdin_mode = sbx_docker_opt_has(a, SBX_DF_INTERACTIVE) ? SBX_STDIN_INHERIT : SBX_STDIN_NULL;
        /* issue 14: openclaw.json changed since create: its rules on top; unreadable: refused */
        r = cli_exec_rules_now(s->id, &now, &e);
        if (r < 0) {
                fprintf(stderr, "Error response from daemon: sbx policy: %s\n", e.msg);
                r = DOCKER_EXIT_ERROR;
                goto out;
        }
        req.rules_now = r > 0 ? &now : NULL;
        fflush(stdout);
        r = sbx_sandbox_exec(s->id, &req, &e);
        if (e.code < 0)
                fprintf(stderr, "OCI runtime exec failed: %s\n", sbx_error_why(&e, why, sizeof(why)));
out:
        sbx_docker_env_free(envv, n_env);
        return r;
}

/* ------------------------------------------------------------- inspect */

static int docker_inspect(const sbx_docker_args *a) {
        const char *type = sbx_docker_opt_last(a, SBX_DF_TYPE), *fmt = sbx_docker_opt_last(a, SBX_DF_FORMAT);
        _cleanup_json_ json_object *arr = json_object_new_array();
        int ret = 0;

        if (type && strcmp(type, "container")) {
                fprintf(stderr, "docker inspect: --type '%s' is not supported by sbx (only container; use "
                                "'docker image inspect')\n", type);
                return DOCKER_EXIT_ERROR;
        }
        if (a->n_pos == 0) {
                fputs("docker inspect: requires at least 1 argument\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        for (size_t i = 0; i < a->n_pos; i++) {
                _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
                sbx_error e = {};
                int r = sbx_sandbox_lookup(a->pos[i], &s, &e);

                if (r >= 0)
                        json_object_array_add(arr, sbx_docker_inspect_json(s));
                else if (r == -ENOENT && sbx_docker_is_self(a->pos[i]))
                        json_object_array_add(arr, sbx_docker_self_inspect_json());
                else {
                        if (r == -ENOENT)
                                fprintf(stderr, "Error: No such %s: %s\n", type ? "container" : "object",
                                        a->pos[i]);
                        else
                                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                        ret = DOCKER_EXIT_ERROR;
                }
        }
        if (print_objects(fmt, arr) < 0)
                return DOCKER_EXIT_ERROR;
        return ret;
}

static json_object *image_json(const char *name, const char *rootfs, const struct sbx_image_config *cfg) {
        json_object *o = json_object_new_object(), *c = json_object_new_object(), *tags = json_object_new_array();
        char digest[SBX_SANDBOX_ID_LEN + 1], id[80];
        void *rec = NULL;
        const char *created = "";

        /* An id docker-shaped and stable for the image record. */
        sbx_sha256_hex(rootfs, strlen(rootfs), digest);
        snprintf(id, sizeof(id), "sha256:%s", digest);
        if (sbx_image_inspect(name, &rec, NULL) >= 0) {
                json_object *v = NULL;
                if (json_object_object_get_ex(rec, "created", &v))
                        created = json_object_get_string(v);
                json_object_array_add(tags, json_object_new_string(
                                                    json_object_get_string(json_object_object_get(rec, "ref"))));
        } else
                json_object_array_add(tags, json_object_new_string(name));
        json_object_object_add(o, "Id", json_object_new_string(id));
        json_object_object_add(o, "RepoTags", tags);
        json_object_object_add(o, "RepoDigests", json_object_new_array());
        json_object_object_add(o, "Created", json_object_new_string(created));
        json_object_object_add(o, "Architecture", json_object_new_string("amd64"));
        json_object_object_add(o, "Os", json_object_new_string("linux"));
        json_object_object_add(c, "User", json_object_new_string(cfg->user ?: ""));
        json_object_object_add(c, "WorkingDir", json_object_new_string(cfg->working_dir ?: ""));
        json_object_object_add(c, "Cmd", cfg->cmd ? sbx_json_strings(cfg->cmd, SIZE_MAX) : NULL);
        json_object_object_add(c, "Entrypoint",
                               cfg->entrypoint ? sbx_json_strings(cfg->entrypoint, SIZE_MAX) : NULL);
        json_object_object_add(c, "Env", sbx_json_strings(cfg->env, SIZE_MAX));
        json_object_object_add(c, "Labels", json_object_new_object());
        sbx_docker_tmpl_map(json_object_object_get(c, "Labels"), SBX_TMPL_MAP_STRING);
        json_object_object_add(o, "Config", c);
        json_object_put(rec);
        return o;
}

static int docker_image_inspect(const sbx_docker_args *a) {
        const char *fmt = sbx_docker_opt_last(a, SBX_DF_FORMAT);
        _cleanup_json_ json_object *arr = json_object_new_array();
        int ret = 0;

        if (a->n_pos == 0) {
                fputs("docker image inspect: requires at least 1 argument\n", stderr);
                return DOCKER_EXIT_ERROR;
        }
        for (size_t i = 0; i < a->n_pos; i++) {
                struct sbx_image_config cfg = {};
                char rootfs[4096];
                sbx_error e = {};
                int r = sbx_image_resolve(a->pos[i], rootfs, sizeof(rootfs), &cfg, &e);

                if (r >= 0)
                        json_object_array_add(arr, image_json(a->pos[i], rootfs, &cfg));
                else if (r == -ENOENT)
                        fprintf(stderr, "Error response from daemon: No such image: %s (build or import it with "
                                        "'sbx rootfs build' / 'sbx rootfs import')\n", a->pos[i]);
                else
                        fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                sbx_image_config_done(&cfg);
                if (r < 0)
                        ret = DOCKER_EXIT_ERROR;
        }
        if (print_objects(fmt, arr) < 0)
                return DOCKER_EXIT_ERROR;
        return ret;
}

/* ------------------------------------------------------------- ps, version */

/* docker ps --filter: label=KEY[=VALUE], name=RE (a regular expression,
 * against the name with and without docker's leading '/'), id=PREFIX,
 * status=created|running|paused|exited. Filters of one kind match any
 * (OR), of different kinds all (AND), as docker's. */
typedef struct ps_filter {
        const char *kind, *value;
        regex_t re;
        bool have_re;
} ps_filter;

static void ps_filters_done(ps_filter *f, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (f[i].have_re)
                        regfree(&f[i].re);
}

static int ps_filters(const sbx_docker_args *a, ps_filter *f, size_t max, size_t *n) {
        *n = 0;
        for (size_t i = 0; i < a->n_opts; i++) {
                const char *v = a->opts[i].value, *eq = strchr(v, '=');
                static const char *const kinds[] = { "label", "name", "id", "status" };
                const char *kind = NULL;
                if (a->opts[i].flag != SBX_DF_FILTER)
                        continue;
                for (size_t k = 0; eq && k < ELEMENTSOF(kinds); k++)
                        if ((size_t) (eq - v) == strlen(kinds[k]) && !strncmp(v, kinds[k], strlen(kinds[k])))
                                kind = kinds[k];
                if (!kind) {
                        fprintf(stderr, "Error response from daemon: invalid filter '%.*s' (sbx implements label=, "
                                        "name=, id=, status=)\n", eq ? (int) (eq - v) : (int) strlen(v), v);
                        ps_filters_done(f, *n);
                        return -EINVAL;
                }
                if (*n >= max) {
                        fprintf(stderr, "Error response from daemon: more than %zu filters\n", max);
                        ps_filters_done(f, *n);
                        return -E2BIG;
                }
                f[*n] = (ps_filter) { .kind = kind, .value = eq + 1 };
                if (!strcmp(kind, "status") && strcmp(eq + 1, "created") && strcmp(eq + 1, "running") &&
                    strcmp(eq + 1, "paused") && strcmp(eq + 1, "exited") && strcmp(eq + 1, "restarting") &&
                    strcmp(eq + 1, "removing") && strcmp(eq + 1, "dead")) {
                        fprintf(stderr, "Error response from daemon: invalid filter 'status=%s'\n", eq + 1);
                        ps_filters_done(f, *n);
                        return -EINVAL;
                }
                if (!strcmp(kind, "name")) {
                        if (regcomp(&f[*n].re, eq + 1, REG_EXTENDED | REG_NOSUB) != 0) {
                                fprintf(stderr, "Error response from daemon: invalid filter 'name=%s': not a "
                                                "regular expression\n", eq + 1);
                                ps_filters_done(f, *n);
                                return -EINVAL;
                        }
                        f[*n].have_re = true;
                }
                (*n)++;
        }
        return 0;
}

static bool ps_filter_one(const ps_filter *f, const sbx_sandbox *s, const char *state) {
        char slashed[SBX_SANDBOX_NAME_MAX + 2];

        if (!strcmp(f->kind, "label")) {
                const char *eq = strchr(f->value, '='), *v;
                char key[512];
                snprintf(key, sizeof(key), "%.*s", eq ? (int) (eq - f->value) : (int) strlen(f->value), f->value);
                v = sbx_sandbox_label(s, key);
                return v && (!eq || !strcmp(v, eq + 1));
        }
        if (!strcmp(f->kind, "name")) {
                snprintf(slashed, sizeof(slashed), "/%s", s->name);
                return regexec(&f->re, slashed, 0, NULL, 0) == 0 || regexec(&f->re, s->name, 0, NULL, 0) == 0;
        }
        if (!strcmp(f->kind, "id"))
                return !strncmp(s->id, f->value, strlen(f->value));
        return !strcmp(state, f->value);
}

static bool ps_match(const ps_filter *f, size_t n, const sbx_sandbox *s, const char *state) {
        static const char *const kinds[] = { "label", "name", "id", "status" };

        for (size_t k = 0; k < ELEMENTSOF(kinds); k++) {
                bool any = false, hit = false;
                for (size_t i = 0; i < n; i++)
                        if (!strcmp(f[i].kind, kinds[k])) {
                                any = true;
                                /* labels: every one must hold (docker's rule for label=) */
                                if (!strcmp(kinds[k], "label") && !ps_filter_one(&f[i], s, state))
                                        return false;
                                hit = hit || ps_filter_one(&f[i], s, state);
                        }
                if (any && !hit)
                        return false;
        }
        return true;
}

/* units.HumanDuration, as docker ps's Status says "Up 3 minutes" */
static void human_duration(uint64_t ms, char *buf, size_t len) {
        uint64_t sec = ms / 1000, min = sec / 60, h = min / 60, hr = (sec + 1800) / 3600;

        if (sec < 1)
                snprintf(buf, len, "Less than a second");
        else if (sec == 1)
                snprintf(buf, len, "1 second");
        else if (sec < 60)
                snprintf(buf, len, "%llu seconds", (unsigned long long) sec);
        else if (min == 1)
                snprintf(buf, len, "About a minute");
        else if (min < 60)
                snprintf(buf, len, "%llu minutes", (unsigned long long) min);
        else if (hr == 1)
                snprintf(buf, len, "About an hour");
        else if (hr < 48)   /* from here Go compares the rounded hours */
                snprintf(buf, len, "%llu hours", (unsigned long long) hr);
        else if (hr < 24 * 7 * 2)
                snprintf(buf, len, "%llu days", (unsigned long long) (hr / 24));
        else if (hr < 24 * 30 * 2)
                snprintf(buf, len, "%llu weeks", (unsigned long long) (hr / 24 / 7));
        else if (hr < 24 * 365 * 2)
                snprintf(buf, len, "%llu months", (unsigned long long) (hr / 24 / 30));
        else
                snprintf(buf, len, "%llu years", (unsigned long long) (h / 24 / 365));
}

static uint64_t now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

/* docker ps's State and Status: created/running/paused/exited (sbx's
 * "stopped" is docker's "exited"), "Created", "Up 5 minutes (Paused)";
 * sbx keeps no exit code of init, so a stopped one is "Exited" alone. */
static const char *ps_state(const sbx_sandbox *s, char *status, size_t len) {
        char up[64];
        uint64_t now = now_ms();

        human_duration(s->started_ms && now > s->started_ms ? now - s->started_ms : 0, up, sizeof(up));
        switch (s->state) {
        case SBX_SANDBOX_CREATED:
                snprintf(status, len, "Created");
                return "created";
        case SBX_SANDBOX_RUNNING:
                snprintf(status, len, "Up %s", up);
                return "running";
        case SBX_SANDBOX_PAUSED:
                snprintf(status, len, "Up %s (Paused)", up);
                return "paused";
        default: {
                /* docker's "Exited (143) 5 minutes ago"; a record from
                 * before sbx kept the time: "Exited (0)" alone */
                char ago[64];
                if (!s->finished_ms) {
                        snprintf(status, len, "Exited (%d)", sbx_docker_exit_code(s));
                        return "exited";
                }
                human_duration(now > s->finished_ms ? now - s->finished_ms : 0, ago, sizeof(ago));
                snprintf(status, len, "Exited (%d) %s ago", sbx_docker_exit_code(s), ago);
                return "exited";
        }
        }
}

/* docker ps's Command: the command line, cut to 20 characters with "…"
 * (docker's Ellipsis, in runes) unless --no-trunc, in Go's double quotes. */
static json_object *ps_command(json_object *full, bool trunc) {
        json_object *cmd = json_object_object_get(json_object_object_get(full, "Config"), "Cmd");
        _cleanup_free_ char *line = NULL, *q = NULL;
        size_t n = 0, runes = 0, cut = 0, k = 0;

        for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++)
                n += strlen(json_object_get_string(json_object_array_get_idx(cmd, i)) ?: "") + 1;
        line = calloc(n + 1, 1);
        q = malloc(4 * n + 16);
        if (!line || !q)
                return json_object_new_string("\"\"");
        for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++) {
                if (i)
                        strcat(line, " ");
                strcat(line, json_object_get_string(json_object_array_get_idx(cmd, i)) ?: "");
        }
        for (size_t i = 0; line[i]; i++)
                if (((unsigned char) line[i] & 0xc0) != 0x80 && ++runes == 20)
                        cut = i;
        trunc = trunc && runes > 20;
        q[k++] = '"';
        for (size_t i = 0; line[i] && (!trunc || i < cut); i++) {
                unsigned char c = (unsigned char) line[i];
                if (c == '"' || c == '\\') {
                        q[k++] = '\\';
                        q[k++] = (char) c;
                } else if (c < 0x20)
                        k += (size_t) sprintf(q + k, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\x%02x", c);
                else
                        q[k++] = (char) c;
        }
        if (trunc)
                k += (size_t) sprintf(q + k, "\u2026");
        q[k++] = '"';
        q[k] = '\0';
        return json_object_new_string(q);
}

/* The ps object's JSON ({{json .}}) is docker's fields alone: without the
 * "Label" map that only {{.Label "k"}} reads. */
static int ps_to_json(json_object *o, struct printbuf *pb, int level, int flags) {
        json_object *pub = json_object_get_userdata(o);
        const char *text = json_object_to_json_string_ext(pub, flags);

        (void) level;
        return printbuf_memappend(pb, text, (int) strlen(text));
}

static void ps_userdata_free(json_object *o, void *userdata) {
        (void) o;
        json_object_put(userdata);
}

static json_object *ps_object(const sbx_sandbox *s, bool trunc) {
        _cleanup_json_ json_object *full = sbx_docker_inspect_json(s);
        json_object *o = json_object_new_object(), *pub = json_object_new_object(),
                    *labels = json_object_object_get(json_object_object_get(full, "Config"), "Labels");
        json_object *net = json_object_object_get(json_object_object_get(full, "NetworkSettings"), "Networks");
        _cleanup_free_ char *lab = NULL, *nets = NULL;
        char id[SBX_SANDBOX_ID_LEN + 1], status[96], ago[80], created[80];
        size_t used = 0;
        FILE *f;
        time_t ct = (time_t) (s->created_ms / 1000);
        struct tm tm;

        snprintf(id, sizeof(id), "%.*s", trunc ? 12 : SBX_SANDBOX_ID_LEN, s->id);
        f = open_memstream(&lab, &used);
        if (f) {
                bool first = true;
                json_object_object_foreach(labels, k, v) {
                        fprintf(f, "%s%s=%s", first ? "" : ",", k, json_object_get_string(v));
                        first = false;
                }
                fclose(f);
        }
        f = open_memstream(&nets, &used);
        if (f) {
                bool first = true;
                json_object_object_foreach(net, k, v) {
                        (void) v;
                        fprintf(f, "%s%s", first ? "" : ",", k);
                        first = false;
                }
                fclose(f);
        }
        human_duration(now_ms() > s->created_ms ? now_ms() - s->created_ms : 0, ago, sizeof(ago) - 4);
        strcat(ago, " ago");
        /* Go's time.Time String(): "2006-01-02 15:04:05 -0700 MST" */
        if (!localtime_r(&ct, &tm) || !strftime(created, sizeof(created), "%Y-%m-%d %H:%M:%S %z %Z", &tm))
                created[0] = '\0';
        json_object_object_add(pub, "Command", ps_command(full, trunc));
        json_object_object_add(pub, "CreatedAt", json_object_new_string(created));
        json_object_object_add(pub, "ID", json_object_new_string(id));
        json_object_object_add(pub, "Image", json_object_new_string(s->image ?: ""));
        json_object_object_add(pub, "Labels", json_object_new_string(lab ?: ""));
        json_object_object_add(pub, "LocalVolumes", json_object_new_string("0"));
        json_object_object_add(pub, "Mounts", json_object_new_string(""));
        json_object_object_add(pub, "Names", json_object_new_string(s->name));
        json_object_object_add(pub, "Networks", json_object_new_string(nets ?: ""));
        json_object_object_add(pub, "Ports", json_object_new_string(""));
        json_object_object_add(pub, "RunningFor", json_object_new_string(ago));
        json_object_object_add(pub, "Size", json_object_new_string("0B"));
        json_object_object_add(pub, "State", json_object_new_string(ps_state(s, status, sizeof(status))));
        json_object_object_add(pub, "Status", json_object_new_string(status));
        json_object_object_foreach(pub, k, v) json_object_object_add(o, k, json_object_get(v));
        json_object_object_add(o, "Label", json_object_get(labels));
        json_object_set_serializer(o, ps_to_json, pub, ps_userdata_free);
        return o;
}

/* docker's formatter: "table" first prints a header row and aligns the
 * tab-separated cells (text/tabwriter: minwidth 10, padding 3); \t and \n
 * written as two characters are a tab and a newline. */
static char *ps_format_text(const char *fmt, bool *ret_table) {
        char *out = malloc(strlen(fmt) + 1), *o = out;
        const char *p = fmt;

        *ret_table = !strncmp(p, "table", 5);
        if (*ret_table)
                p += 5;
        while (*p == ' ')
                p++;
        if (!out)
                return NULL;
        for (; *p; p++)
                if (p[0] == '\\' && (p[1] == 't' || p[1] == 'n')) {
                        *o++ = p[1] == 't' ? '\t' : '\n';
                        p++;
                } else
                        *o++ = *p;
        while (o > out && o[-1] == ' ')
                o--;
        *o = '\0';
        return out;
}

static int cmp_newest_first(const void *a, const void *b) {
        const sbx_sandbox *x = *(sbx_sandbox *const *) a, *y = *(sbx_sandbox *const *) b;

        return x->created_ms < y->created_ms ? 1 : x->created_ms > y->created_ms ? -1 : strcmp(x->name, y->name);
}

static int docker_ps(const sbx_docker_args *a) {
        static const char *const headers[][2] = {
                { "Command", "COMMAND" },    { "CreatedAt", "CREATED AT" }, { "ID", "CONTAINER ID" },
                { "Image", "IMAGE" },        { "Labels", "LABELS" },        { "LocalVolumes", "LOCAL VOLUMES" },
                { "Mounts", "MOUNTS" },      { "Names", "NAMES" },          { "Networks", "NETWORKS" },
                { "Ports", "PORTS" },        { "RunningFor", "CREATED" },   { "Size", "SIZE" },
                { "State", "STATE" },        { "Status", "STATUS" },
        };
        const char *fmt = sbx_docker_opt_last(a, SBX_DF_FORMAT);
        bool all = sbx_docker_opt_has(a, SBX_DF_ALL), quiet = sbx_docker_opt_has(a, SBX_DF_QUIET),
             trunc = !sbx_docker_opt_has(a, SBX_DF_NO_TRUNC), table = false;
        _cleanup_free_ char *tmpl = NULL, *text = NULL;
        size_t n_filter = 0, n = 0, text_len = 0;
        ps_filter filter[16];
        sbx_sandbox **l = NULL;
        sbx_error e = {};
        FILE *out;
        int r, ret = 0;

        if (ps_filters(a, filter, ELEMENTSOF(filter), &n_filter) < 0)
                return DOCKER_EXIT_ERROR;
        r = sbx_sandbox_list(NULL, 0, &l, &n, &e);
        if (r < 0) {
                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                ps_filters_done(filter, n_filter);
                return DOCKER_EXIT_ERROR;
        }
        if (n > 1)
                qsort(l, n, sizeof(*l), cmp_newest_first);
        tmpl = ps_format_text(quiet ? "{{.ID}}"
                                    : fmt ?: "table {{.ID}}\\t{{.Image}}\\t{{.Command}}\\t{{.RunningFor}}\\t"
                                             "{{.Status}}\\t{{.Ports}}\\t{{.Names}}",
                              &table);
        out = open_memstream(&text, &text_len);
        if (!tmpl || !out) {
                ret = DOCKER_EXIT_ERROR;
                goto done;
        }
        if (table) {
                _cleanup_json_ json_object *h = json_object_new_object();
                _cleanup_free_ char *row = NULL;
                sbx_error te = {};
                for (size_t i = 0; i < ELEMENTSOF(headers); i++)
                        json_object_object_add(h, headers[i][0], json_object_new_string(headers[i][1]));
                json_object_object_add(h, "Label", json_object_new_object());
                if (sbx_docker_template(tmpl, h, &row, &te) < 0) {
                        fprintf(stderr, "template parsing error: %s\n", te.msg);
                        ret = DOCKER_EXIT_ERROR;
                        goto done;
                }
                fprintf(out, "%s\n", row);
        }
        for (size_t i = 0; i < n && ret == 0; i++) {
                sbx_sandbox *s = l[i];
                char status[96];
                const char *state = ps_state(s, status, sizeof(status));
                _cleanup_json_ json_object *o = NULL;
                _cleanup_free_ char *row = NULL;
                sbx_error te = {};

                if (!(all || s->state == SBX_SANDBOX_RUNNING || s->state == SBX_SANDBOX_PAUSED) ||
                    !ps_match(filter, n_filter, s, state))
                        continue;
                o = ps_object(s, trunc);
                if (sbx_docker_template(tmpl, o, &row, &te) < 0) {
                        fprintf(stderr, "template parsing error: %s\n", te.msg);
                        ret = DOCKER_EXIT_ERROR;
                        break;
                }
                fprintf(out, "%s\n", row);
        }
done:
        if (out)
                fclose(out);
        if (ret == 0 && text) {
                if (table)
                        sbx_tabwrite(stdout, text, 10, 3);   /* docker/cli formatter's */
                else
                        fputs(text, stdout);
        }
        ps_filters_done(filter, n_filter);
        sbx_sandbox_list_free(l, n);
        return ret;
}

static int docker_version(const sbx_docker_args *a) {
        const char *fmt = sbx_docker_opt_last(a, SBX_DF_FORMAT);
        _cleanup_json_ json_object *o = json_object_new_object();
        json_object *c = json_object_new_object(), *s = json_object_new_object();

        json_object_object_add(c, "Version", json_object_new_string(SBX_VERSION));
        json_object_object_add(c, "Platform", json_object_new_string("sbx"));
        json_object_object_add(s, "Version", json_object_new_string(SBX_VERSION));
        json_object_object_add(s, "Platform", json_object_new_string("sbx"));
        json_object_object_add(o, "Client", c);
        json_object_object_add(o, "Server", s);
        if (fmt)
                return print_template(fmt, o) < 0 ? DOCKER_EXIT_ERROR : 0;
        printf("Client: sbx docker shim\n Version: %s\n\nServer: sbx (persistent sandboxes, no daemon)\n"
               " Version: %s\n", SBX_VERSION, SBX_VERSION);
        return 0;
}

/* ------------------------------------------------------------- entry */

static uint64_t now_us(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

/* SBX_DOCKER_TRACE=FILE: one JSON line per call (argv, exit status, wall
 * time in ms), the shape of ../shared/spec/docker-traces, for the bench and
 * for debugging a client. Opened before anything else: exec joins the
 * sandbox's mount namespace, where the file is not visible. */
static int trace_fd = -EBADF;

static void trace_open(void) {
        const char *path = getenv("SBX_DOCKER_TRACE");

        if (path && *path)
                trace_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
}

static void trace_call(int argc, char **argv, int rc, uint64_t t0) {
        _cleanup_json_ json_object *o = NULL;
        json_object *av;
        const char *line;

        if (trace_fd < 0)
                return;
        o = json_object_new_object();
        av = json_object_new_array();
        for (int i = 1; i < argc; i++)
                json_object_array_add(av, json_object_new_string(argv[i]));
        json_object_object_add(o, "argv", av);
        json_object_object_add(o, "pid", json_object_new_int((int) getpid()));
        json_object_object_add(o, "rc", json_object_new_int(rc));
        json_object_object_add(o, "ms", json_object_new_double((double) (now_us() - t0) / 1000.0));
        line = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        (void) !write(trace_fd, line, strlen(line));
        (void) !write(trace_fd, "\n", 1);
}

static int docker_dispatch(int argc, char **argv);

static uint64_t call_t0;
static int call_argc;
static char **call_argv;

/* The self-probe's exec replaces this process: log it now (rc -1). */
static void trace_self_exec(const sbx_docker_args *a) {
        (void) a;
        trace_call(call_argc, call_argv, -1, call_t0);
}

int cli_docker(int argc, char **argv) {
        uint64_t t0 = now_us();
        int r;

        trace_open();
        call_t0 = t0;
        call_argc = argc;
        call_argv = argv;
        r = docker_dispatch(argc, argv);

        fflush(stdout);
        trace_call(argc, argv, r, t0);
        return r;
}

/* docker port NAME [PORT[/PROTO]]: sbx publishes no ports (docker create
 * -p is not implemented), so Docker's answer for a container without any:
 * nothing for NAME alone, "No public port" for one port (exit 1). */
static int docker_port(const sbx_docker_args *a) {
        if (a->n_pos < 1 || a->n_pos > 2) {
                fprintf(stderr, "\"docker port\" requires at least 1 and at most 2 arguments.\n"
                                "See 'docker port --help'.\n\n"
                                "Usage:  docker port CONTAINER [PRIVATE_PORT[/PROTO]]\n\n"
                                "List port mappings or a specific mapping for the container\n");
                return DOCKER_EXIT_ERROR;
        }
        if (!sandbox_exists(a->pos[0])) {
                no_such_container(a->pos[0]);
                return DOCKER_EXIT_ERROR;
        }
        if (a->n_pos == 2) {
                fprintf(stderr, "Error: No public port '%s' published for %s\n", a->pos[1], a->pos[0]);
                return DOCKER_EXIT_ERROR;
        }
        return 0;
}

/* docker stop [-t SECONDS] NAME...: sbx stop of each (docker's default wait: 10 s) */
static unsigned stop_timeout;

static int stop_one(const char *ref, sbx_error *e) {
        return sbx_sandbox_stop(ref, stop_timeout, e);
}

static int docker_stop(const sbx_docker_args *a) {
        const char *t = sbx_docker_opt_last(a, SBX_DF_TIME);
        char *end = NULL;
        long v = 10;

        if (t) {
                errno = 0;
                v = strtol(t, &end, 10);
                if (errno || !*t || *end || v < 0 || v > 86400) {
                        fprintf(stderr, "invalid argument \"%s\" for \"-t, --time\" flag: want whole seconds, "
                                        "0 to 86400\nSee 'docker stop --help'.\n", t);
                        return DOCKER_EXIT_CREATE;   /* the docker CLI's status for a flag error */
                }
        }
        stop_timeout = (unsigned) v;
        return docker_each(a, stop_one, "stop");
}

/* What each verb runs: its own function, or docker_each over its refs. */
static const struct {
        int (*run)(const sbx_docker_args *a);
        int (*each)(const char *ref, sbx_error *e);
        const char *what;
} verbs[_SBX_DOCKER_VERB_MAX] = {
        [SBX_DOCKER_CREATE] = { .run = docker_create },
        [SBX_DOCKER_START] = { .each = sbx_sandbox_start, .what = "start" },
        [SBX_DOCKER_EXEC] = { .run = docker_exec },
        [SBX_DOCKER_INSPECT] = { .run = docker_inspect },
        [SBX_DOCKER_IMAGE_INSPECT] = { .run = docker_image_inspect },
        [SBX_DOCKER_RM] = { .run = docker_rm },
        [SBX_DOCKER_PS] = { .run = docker_ps },
        [SBX_DOCKER_PAUSE] = { .each = sbx_sandbox_pause, .what = "pause" },
        [SBX_DOCKER_UNPAUSE] = { .each = sbx_sandbox_unpause, .what = "unpause" },
        [SBX_DOCKER_STOP] = { .run = docker_stop },
        [SBX_DOCKER_PORT] = { .run = docker_port },
        [SBX_DOCKER_VERSION] = { .run = docker_version },
};

static int docker_dispatch(int argc, char **argv) {
        sbx_docker_args *a = calloc(1, sizeof(sbx_docker_args));
        sbx_error e = {};
        int r;

        /* argv[0] is "docker" (argv[0] dispatch or 'sbx docker'). */
        if (!a)
                return DOCKER_EXIT_ERROR;
        /* docker network create/ls/inspect/rm: the records sbx network keeps (issue 18) */
        if (argc > 1 && !strcmp(argv[1], "network")) {
                free(a);
                return cli_network_docker(argc - 1, argv + 1, sbx_docker_template);
        }
        if (sbx_docker_parse(argc - 1, argv + 1, a, &e) < 0) {
                /* a known command's flags: docker's 125; an unknown command: 1 */
                r = a->verb >= 0 ? DOCKER_EXIT_CREATE : DOCKER_EXIT_ERROR;
                fprintf(stderr, "%s\n", e.msg);
                free(a);
                return r;
        }
        if (a->verb == SBX_DOCKER_HELP || sbx_docker_opt_has(a, SBX_DF_HELP)) {
                if (a->verb == SBX_DOCKER_HELP)
                        docker_usage(stdout);
                else
                        sbx_cli_usage(stdout, sbx_docker_verb_command(a->verb));
                free(a);
                return 0;
        }
        if (a->verb < 0 || a->verb >= _SBX_DOCKER_VERB_MAX || !(verbs[a->verb].run || verbs[a->verb].each)) {
                docker_usage(stderr);
                r = DOCKER_EXIT_ERROR;
        } else if (verbs[a->verb].run)
                r = verbs[a->verb].run(a);
        else
                r = docker_each(a, verbs[a->verb].each, verbs[a->verb].what);
        free(a);
        return r;
}

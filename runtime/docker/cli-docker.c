/* SPDX-License-Identifier: MIT */
/* `docker ...` (sbx installed or symlinked as docker) and `sbx docker ...`:
 * the docker CLI subset OpenClaw uses, on sbx's persistent sandboxes. Error
 * texts and exit codes are docker's where OpenClaw parses them
 * (docker-surface.md §0): "No such object/container/image", exit 1 for an
 * error from the "daemon", 125 when create fails or a command's flags do
 * not parse (the docker CLI's FlagErrorFunc), the command's own status for
 * exec. */
#include <fcntl.h>
#include <json-c/json.h>
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
                "{{ index .Config.Labels \"k\" }}, {{range .Config.Env}}{{println .}}{{end}}, ...",
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
                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
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
                        r = sbx_docker_env_parse(a->opts[i].value, strlen(a->opts[i].value), "-e", envv, n_env,
                                                 &e);
                if (r < 0) {
                        fprintf(stderr, "docker exec: %s\n", e.msg);
                        return -EINVAL;
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
        if (exec_env(a, &envv, &n_env) < 0)
                return DOCKER_EXIT_ERROR;
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

static int ps_filters(const sbx_docker_args *a, sbx_label *filter, size_t *n, char *buf, size_t len) {
        size_t used = 0;

        *n = 0;
        for (size_t i = 0; i < a->n_opts; i++) {
                const char *v = a->opts[i].value, *eq;
                size_t vl;
                if (a->opts[i].flag != SBX_DF_FILTER)
                        continue;
                if (strncmp(v, "label=", 6)) {
                        fprintf(stderr, "docker ps: --filter '%s' is not supported by sbx (only label=KEY[=VALUE])\n",
                                v);
                        return -EINVAL;
                }
                v += 6;
                vl = strlen(v);
                if (*n >= 16 || used + vl + 2 > len)
                        return -E2BIG;
                memcpy(buf + used, v, vl + 1);
                eq = strchr(buf + used, '=');
                filter[*n].key = buf + used;
                filter[*n].value = NULL;
                if (eq) {
                        *(char *) eq = '\0';
                        filter[*n].value = (char *) eq + 1;
                }
                used += vl + 1;
                (*n)++;
        }
        return 0;
}

static int docker_ps(const sbx_docker_args *a) {
        const char *fmt = sbx_docker_opt_last(a, SBX_DF_FORMAT);
        bool all = sbx_docker_opt_has(a, SBX_DF_ALL), quiet = sbx_docker_opt_has(a, SBX_DF_QUIET);
        sbx_label filter[16];
        char buf[4096];
        sbx_sandbox **l = NULL;
        size_t n_filter, n = 0;
        sbx_error e = {};
        int r, ret = 0;

        if (ps_filters(a, filter, &n_filter, buf, sizeof(buf)) < 0)
                return DOCKER_EXIT_ERROR;
        /* sbx's list matches keys and values exactly; label=KEY alone
         * matches any value, so filter those here. */
        r = sbx_sandbox_list(NULL, 0, &l, &n, &e);
        if (r < 0) {
                fprintf(stderr, "Error response from daemon: %s\n", e.msg);
                return DOCKER_EXIT_ERROR;
        }
        if (!fmt && !quiet)
                printf("%-14s %-32s %-22s %-10s %s\n", "CONTAINER ID", "IMAGE", "CREATED", "STATUS", "NAMES");
        for (size_t i = 0; i < n && ret == 0; i++) {
                sbx_sandbox *s = l[i];
                bool match = all || s->state == SBX_SANDBOX_RUNNING || s->state == SBX_SANDBOX_PAUSED;
                for (size_t k = 0; match && k < n_filter; k++) {
                        const char *v = sbx_sandbox_label(s, filter[k].key);
                        match = v && (!filter[k].value || !strcmp(v, filter[k].value));
                }
                if (!match)
                        continue;
                if (quiet) {
                        printf("%.12s\n", s->id);
                        continue;
                }
                _cleanup_json_ json_object *full = sbx_docker_inspect_json(s);
                json_object *o = json_object_new_object(), *labels = json_object_object_get(
                                                                       json_object_object_get(full, "Config"), "Labels");
                char id[13], lab[4096] = "";
                size_t used = 0;
                snprintf(id, sizeof(id), "%.12s", s->id);
                json_object_object_foreach(labels, k, v) used += (size_t) snprintf(
                        lab + MIN(used, sizeof(lab) - 1), sizeof(lab) - MIN(used, sizeof(lab) - 1), "%s%s=%s",
                        used ? "," : "", k, json_object_get_string(v));
                json_object_object_add(o, "ID", json_object_new_string(id));
                json_object_object_add(o, "Names", json_object_new_string(s->name));
                json_object_object_add(o, "Image", json_object_new_string(s->image ?: ""));
                json_object_object_add(o, "State", json_object_new_string(sbx_sandbox_state_to_string(s->state)));
                json_object_object_add(o, "Status", json_object_new_string(sbx_sandbox_state_to_string(s->state)));
                json_object_object_add(o, "CreatedAt", json_object_new_string(json_object_get_string(
                                                               json_object_object_get(full, "Created"))));
                json_object_object_add(o, "Labels", json_object_new_string(lab));
                json_object_object_add(o, "Mounts", json_object_new_string(""));
                json_object_object_add(o, "Command", json_object_new_string("\"sleep infinity\""));
                if (fmt) {
                        if (print_template(fmt, o) < 0)
                                ret = DOCKER_EXIT_ERROR;
                } else
                        printf("%-14s %-32s %-22s %-10s %s\n", id, s->image ?: "", json_object_get_string(
                                                                                     json_object_object_get(o, "CreatedAt")),
                               sbx_sandbox_state_to_string(s->state), s->name);
                json_object_put(o);
        }
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

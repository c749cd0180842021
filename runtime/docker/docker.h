/* SPDX-License-Identifier: MIT */
/* The docker-compatible entry point (issue 9): the subset of the docker CLI
 * that OpenClaw 2026.9.6 drives (../shared/spec/docker-surface.md), mapped
 * onto sbx's persistent sandboxes (runtime/sandbox/sandbox.h).
 *
 * Data flow, one direction: argv -> sbx_docker_args (docker-argv.c, pure)
 * -> a command handler in cli-docker.c -> sbx_run_config / sbx_exec_request
 * (docker.c) -> sandbox.h. Output goes the other way only as json-c objects
 * shaped like `docker inspect` (docker.c) rendered by the Go-template subset
 * (docker-template.c, pure). Nothing here prints; cli-docker.c does. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"
#include "launch/launch.h"
#include "sandbox/sandbox.h"
#include "cli/cli.h"

typedef enum sbx_docker_verb {
        SBX_DOCKER_CREATE,
        SBX_DOCKER_START,
        SBX_DOCKER_EXEC,
        SBX_DOCKER_INSPECT,
        SBX_DOCKER_IMAGE_INSPECT,
        SBX_DOCKER_RM,
        SBX_DOCKER_PS,
        SBX_DOCKER_PAUSE,
        SBX_DOCKER_UNPAUSE,
        SBX_DOCKER_STOP,
        SBX_DOCKER_PORT,
        SBX_DOCKER_VERSION,
        SBX_DOCKER_HELP,
        _SBX_DOCKER_VERB_MAX,
        _SBX_DOCKER_VERB_INVALID = -EINVAL,
} sbx_docker_verb;

/* Every flag the shim knows; which verb accepts which is in docker-argv.c. */
typedef enum sbx_docker_flag {
        SBX_DF_NAME, SBX_DF_INIT, SBX_DF_LABEL, SBX_DF_READ_ONLY, SBX_DF_TMPFS, SBX_DF_NETWORK,
        SBX_DF_USER, SBX_DF_CAP_DROP, SBX_DF_SECURITY_OPT, SBX_DF_DNS, SBX_DF_ADD_HOST,
        SBX_DF_PIDS_LIMIT, SBX_DF_MEMORY, SBX_DF_MEMORY_SWAP, SBX_DF_CPUS, SBX_DF_ULIMIT,
        SBX_DF_WORKDIR, SBX_DF_VOLUME, SBX_DF_ENV, SBX_DF_ENV_FILE, SBX_DF_HOSTNAME,
        SBX_DF_INTERACTIVE, SBX_DF_TTY, SBX_DF_DETACH, SBX_DF_FORMAT, SBX_DF_TYPE, SBX_DF_FORCE,
        SBX_DF_ALL, SBX_DF_FILTER, SBX_DF_QUIET, SBX_DF_NO_TRUNC, SBX_DF_TIME, SBX_DF_HELP,
        _SBX_DF_MAX,
        _SBX_DF_INVALID = -EINVAL,
} sbx_docker_flag;

typedef struct sbx_docker_opt {
        sbx_docker_flag flag;
        const char *value;        /* points into argv (or "true" for booleans) */
} sbx_docker_opt;

#define SBX_DOCKER_OPTS_MAX 256

typedef struct sbx_docker_args {
        sbx_docker_verb verb;
        sbx_docker_opt opts[SBX_DOCKER_OPTS_MAX];
        size_t n_opts;
        char **pos;               /* positional arguments: into argv (create, exec) or posv */
        size_t n_pos;
        char *posv[SBX_DOCKER_OPTS_MAX];
} sbx_docker_args;

/* argv[0] is the verb ("create", "image", ...), as after "docker". Flags may
 * come as --flag VALUE, --flag=VALUE, -f VALUE, -fVALUE, or combined short
 * booleans (-it). For create and exec, flags end at the first positional
 * (the image / the container), like docker. Unknown verbs and flags fail
 * with -EINVAL and a message naming them. Pure: no syscalls. */
int sbx_docker_parse(int argc, char **argv, sbx_docker_args *ret, sbx_error *reterr);
const char *sbx_docker_flag_name(sbx_docker_flag f);

/* `docker` (cli-docker.c) and one command per verb, made from the parser's
 * flag table (docker-argv.c): what --help, sbx-docker(1) and the completion
 * show. NULL-terminated; the first is `docker` itself. */
extern const sbx_cli_cmd sbx_cmd_docker;
const sbx_cli_cmd *const *sbx_docker_commands(void);
/* The command of one verb (NULL for SBX_DOCKER_HELP). */
const sbx_cli_cmd *sbx_docker_verb_command(sbx_docker_verb verb);
/* The last value given for a flag, or NULL. */
const char *sbx_docker_opt_last(const sbx_docker_args *a, sbx_docker_flag f);
bool sbx_docker_opt_has(const sbx_docker_args *a, sbx_docker_flag f);

/* Go text/template subset for --format: text, {{.A.B}}, {{json PIPE}},
 * {{index .M "key"}}, print/println/printf (fmt's Sprint, Sprintln, Sprintf:
 * verbs v s q x X d o b c t f F e E g G with flags, width and precision; a
 * list, map or struct only as plain %v, or %s of strings; no '*' or [n];
 * refused otherwise), (PIPE) and (PIPE).Field as a value, {{range
 * PIPE}}...[{{else}}...]{{end}} (with . = the element; else when nothing was
 * ranged over), {{if PIPE}}..{{else if PIPE}}..{{else}}..{{end}}, {{with
 * PIPE}} (Go's truth), eq/ne/not/len with "str", true, false, integers,
 * variables ($, {{$x := PIPE}}, {{range $k, $v := PIPE}}, $x.Field),
 * {{- / -}} trimming. data is a json-c object (void * so this
 * header needs no json-c). *ret is malloc'd; no trailing newline is added.
 *
 * Docker renders inspect's template on its typed structs first, then on the
 * JSON decoded into maps with missingkey=error (docker/cli inspect's
 * TemplateInspector); the objects a caller marks below say which is which:
 *   - an object marked a Go map (sbx_docker_tmpl_map: Config.Labels,
 *     HostConfig.Tmpfs, NetworkSettings.Networks): .K matches K exactly, a
 *     missing K prints "<no value>"; index M "K" of a missing K prints the
 *     map's zero value: "" for map[string]string, "<nil>" for pointer values;
 *   - any other object is a struct (or the JSON fallback's map): .K matches
 *     the JSON key exactly or case-insensitively (.ID and .Id both find "Id"),
 *     a missing one is an error ("map has no entry for key"), as Docker's;
 *     index of a missing key prints "<no value>";
 *   - an object marked a struct (sbx_docker_tmpl_struct) prints as fmt's %v
 *     of a Go struct: "{v1 v2 ...}" in the given field order ("&{...}" for a
 *     pointer at the top), a field the JSON lacks as its zero value ("" or,
 *     for a name starting with '*', "<nil>"); unmarked objects print as maps,
 *     "map[k:v ...]", keys sorted. */
int sbx_docker_template(const char *tmpl, const void *data, char **ret, sbx_error *reterr);

typedef enum sbx_docker_tmpl_map_kind {
        SBX_TMPL_MAP_STRING, /* map[string]string */
        SBX_TMPL_MAP_POINTER, /* map[string]*T */
} sbx_docker_tmpl_map_kind;
/* A Go struct's fields in declaration order (JSON names), NULL-ended;
 * pointer: printed "&{...}" at the top of a template's value. */
typedef struct sbx_docker_tmpl_struct_shape {
        bool pointer;
        const char *const *fields;
} sbx_docker_tmpl_struct_shape;
/* State.ExitCode: 0 unless stopped; then init's status as docker gives a
 * process's (128+N for signal N: 143 after a stop, 137 killed), 137 for one
 * that died outside sbx stop (its status unseen). */
int sbx_docker_exit_code(const sbx_sandbox *s);

/* Mark a json-c object (its userdata: not for objects that have their own). */
void sbx_docker_tmpl_map(void *o, sbx_docker_tmpl_map_kind kind);
void sbx_docker_tmpl_struct(void *o, const sbx_docker_tmpl_struct_shape *shape);

/* An --env-file: KEY=VALUE lines; blank lines and lines starting with '#'
 * are skipped; a bare KEY takes the value from environ (dropped if unset),
 * as docker does. Values are taken verbatim (no quote processing). Appends
 * "K=V" strings to *envv / *n_env (malloc'd). Names the file and line on
 * error. Parses text (text_len bytes) already read; source = the file name. */
int sbx_docker_env_parse(const char *text, size_t text_len, const char *source, char ***envv, size_t *n_env,
                         sbx_error *reterr);
int sbx_docker_env_file(const char *path, char ***envv, size_t *n_env, sbx_error *reterr);
/* One -e/--env KEY=VALUE (or bare KEY, from environ): the whole argument is
 * one variable, a newline in the value included, as docker's. */
int sbx_docker_env_add(const char *spec, char ***envv, size_t *n_env, sbx_error *reterr);
void sbx_docker_env_free(char **envv, size_t n);

/* -v SRC:DST[:OPTS] with docker's option words; z/Z (SELinux relabel) are
 * accepted and ignored, ro/rw set the access. */
typedef struct sbx_docker_volume {
        char src[4096];
        char dst[4096];
        char mode[64];            /* the option text as given ("ro,z"), for inspect's Mode */
        bool ro;
} sbx_docker_volume;
int sbx_docker_parse_volume(const char *spec, sbx_docker_volume *ret, sbx_error *reterr);

/* create: the parsed args -> a run config + sandbox options. Reads the
 * --env-file(s) now (OpenClaw deletes them when the call returns), resolves
 * the image. *ret_meta is the docker-only view (json-c object, caller puts)
 * kept next to the record for inspect. */
typedef struct sbx_docker_create {
        sbx_run_config config;
        sbx_label *labels;
        size_t n_labels;
        const char *name;         /* into argv */
        const char *image;        /* into argv */
        const char *config_hash;  /* the openclaw.configHash label, or NULL */
        void *meta;               /* json_object *: Cmd, Volumes (Mode), Tmpfs, Image, User, Env */
        struct sbx_docker_made_dir *made_dirs; /* the -v sources' directories this create
                                   * made, in order (docker.c; see sbx_docker_create_done) */
        size_t n_made_dirs;
        bool keep_dirs;           /* set once the sandbox is created: done() then keeps them */
        char id[SBX_SANDBOX_ID_LEN + 1]; /* the container's id, chosen here: the default hostname
                                   * is its first 12 characters, as docker's */
} sbx_docker_create;
int sbx_docker_create_prepare(const sbx_docker_args *a, sbx_docker_create *ret, sbx_error *reterr);
/* Frees c; unless c->keep_dirs, first removes (newest first: only while
 * empty) the -v source directories it made, so that a create that fails
 * leaves nothing behind on the host. Only what this call made: each is
 * removed through its held parent fd, and only while the entry there is
 * still the directory this call made (its inode, birth time and file
 * handle, which carries the inode's generation: an inode number the
 * filesystem reused does not match); a directory
 * someone put at that path since (a concurrent create of the same name
 * that removed ours and made its own, say) is left alone. */
void sbx_docker_create_done(sbx_docker_create *c);

/* The meta file next to a sandbox's record. */
int sbx_docker_meta_save(const sbx_sandbox *s, const void *meta, sbx_error *reterr);

/* `docker inspect`'s object for a sandbox (json_object *, caller puts). */
void *sbx_docker_inspect_json(const sbx_sandbox *s);

/* This host as a container (the Docker-outside-of-Docker self-probe):
 * true if /.dockerenv or /run/.containerenv exists and ref is the hostname,
 * the self id, or a 64-hex id from /proc/self/cgroup or mountinfo. */
bool sbx_docker_is_self(const char *ref);
/* The self id: sha256 of the boot id and hostname (stable per boot). */
void sbx_docker_self_id(char ret[SBX_SANDBOX_ID_LEN + 1]);
void *sbx_docker_self_inspect_json(void);

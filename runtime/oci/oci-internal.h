/* SPDX-License-Identifier: MIT */
/* runtime/oci internals: config.json -> sbx_container, the state dir, hooks. */
#pragma once

#include <json-c/json.h>
#include <stdbool.h>
#include <sys/types.h>

#include "launch/launch.h"
#include "util/util.h"

typedef struct oci_hook {
        char *path;
        char **args, **env;              /* NULL-terminated */
        int timeout;                     /* seconds, 0 = none */
} oci_hook;

enum { OCI_HOOK_PRESTART, OCI_HOOK_CREATE_RUNTIME, OCI_HOOK_CREATE_CONTAINER, OCI_HOOK_START_CONTAINER,
       OCI_HOOK_POSTSTART, OCI_HOOK_POSTSTOP, _OCI_HOOK_MAX };
extern const char *const oci_hook_names[_OCI_HOOK_MAX];

/* Whose rules a container enforces (oci-policy.c): as resolved at create, recorded in
 * the state dir's policy.json; strings owned. */
typedef struct oci_policy_who {
        char *agent, *session, *scope_key, *config;     /* config: the file's real path */
        char config_sha256[SBX_SHA256_HEX_SIZE];         /* of its content at create */
} oci_policy_who;

/* What config.json says, parsed and validated (oci-config.c). */
typedef struct oci_config {
        json_object *root;               /* the parsed config.json */
        char bundle[PATH_MAX];
        sbx_container ctr;
        oci_hook *hooks[_OCI_HOOK_MAX];
        size_t n_hooks[_OCI_HOOK_MAX];
        sbx_cgroup_resources res;        /* linux.resources */
        bool res_set;                    /* some limit is set */
        char cgroups_path[PATH_MAX];
        char systemd_unit[256];          /* --systemd-cgroup: the scope made at create, "" = none */
        bool sbx_seccomp_default;        /* annotation org.sbx.seccomp=default */
        bool home_default;               /* process.env had no HOME: the user's, added (oci-config.c) */
        /* annotations org.sbx.openclaw.config, org.sbx.policy.agent and
         * org.sbx.policy.session (strings of root); NULL = not given */
        const char *policy_config, *policy_agent, *policy_session;
        sbx_run_config rules;            /* the agent's rules (oci-policy.c); ctr.rules points here */
        oci_policy_who who;              /* whose they are (oci-policy.c) */
        size_t cgroup_v1[16];            /* v1 hosts: the indices of the `cgroup` mounts (now tmpfs) */
        size_t n_cgroup_v1;
        /* what the parser took but did not apply, as runc and crun (a
         * capability this kernel or sbx does not know, syscall names
         * libseccomp does not know): logged as a warning, "; "-joined */
        char warnings[1024];
        char *strings_owned[4096];       /* everything the parser allocated */
        size_t n_owned;
} oci_config;

/* Parse bundle/config.json. Errors name the JSON path ("linux.mounts[2].type"). */
int oci_config_load(const char *bundle, oci_config *ret, sbx_error *reterr);
/* Same, reading config_path (the state dir's copy); relative paths are the bundle's. */
int oci_config_load_at(const char *bundle, const char *config_path, oci_config *ret, sbx_error *reterr);
/* `update --resources FILE` ("-": stdin): linux.resources alone into ret->res */
int oci_config_load_resources(const char *path, oci_config *ret, sbx_error *reterr);
/* cgroup v1/hybrid hosts, once the container's cgroup exists: each `cgroup`
 * mount is a tmpfs (mode 755) with the container's own cgroup of every
 * hierarchy bound in at <dst>/<controllers> ("pids", "cpu,cpuacct"), with
 * the mount's ro/nosuid/nodev/noexec, as runc does; a read-only one has
 * its tmpfs made read-only after. cg without v1 dirs: the empty tmpfs. */
int oci_config_cgroup_mounts(oci_config *c, const sbx_cgroup *cg, sbx_error *reterr);
/* Parse a process object (exec --process, or built from exec flags). */
int oci_config_parse_process(oci_config *c, json_object *proc, const char *jpath, sbx_error *reterr);
/* config.json / --process FILE: a regular file of at most OCI_JSON_MAX bytes
 * (a FIFO or /dev/zero named there blocked or grew sbx-runc without end),
 * parsed; NULL with *reterr set otherwise. */
#define OCI_JSON_MAX (64u << 20)
json_object *oci_json_file(const char *path, sbx_error *reterr);
void oci_config_free(oci_config *c);
/* p freed with c (oci_config_free); NULL (p freed) when p is NULL or c's
 * table is full. */
void *oci_config_own(oci_config *c, void *p);
/* Append one message to c->warnings (cut short when full). */
void oci_config_warn(oci_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The state dir <root>/<id> (oci-state.c). */
typedef struct oci_state {
        char id[256];
        char dir[PATH_MAX];
        char bundle[PATH_MAX];
        char rootfs[PATH_MAX];           /* root.path made absolute ("rootfs" of `state`, as runc) */
        pid_t pid;
        unsigned long long start_time;   /* /proc/<pid>/stat field 22, against pid reuse */
        char created[64];                /* RFC 3339 */
        char cgroup[PATH_MAX];           /* "" = none */
        char systemd_unit[256];          /* the container's systemd scope, "" = none */
        json_object *annotations;        /* owned */
} oci_state;

typedef enum oci_status { OCI_CREATING, OCI_CREATED, OCI_RUNNING, OCI_PAUSED, OCI_STOPPED } oci_status;

int oci_check_id(const char *id, sbx_error *reterr);
/* The state root (--root) must be ours and writable by no one else: a
 * state dir is trusted (its pid is signalled, its config's hooks run).
 * 0 when it does not exist yet. */
int oci_check_root(const char *root, sbx_error *reterr);
/* --pid-file PATH (NULL: nothing): PATH.sbx-tmp made afresh (never through
 * a symlink planted there), renamed over PATH. */
int oci_write_pid_file(const char *path, pid_t pid, sbx_error *reterr);
int oci_state_load(const char *root, const char *id, oci_state *ret, sbx_error *reterr);
int oci_state_save(const oci_state *s, sbx_error *reterr);
void oci_state_done(oci_state *s);
oci_status oci_state_status(const oci_state *s);
const char *oci_status_to_string(oci_status st);
unsigned long long oci_proc_start_time(pid_t pid);
/* /proc/<pid>/stat's state letter ('R', 'S', 'Z', ...), 0 if gone. */
char oci_proc_state(pid_t pid);
/* The state JSON of the runtime-spec ("ociVersion", "id", "status", "pid", "bundle", "annotations"). */
json_object *oci_state_json(const oci_state *s, oci_status st);
/* Every pid in the container (its cgroup, else its pid namespace). */
int oci_state_pids(const oci_state *s, pid_t **ret, size_t *ret_n);

/* /proc/sys/kernel/cap_last_cap (40 if unreadable) */
int oci_cap_last(void);
/* Hooks (oci-hooks.c): run each of kind with the state JSON on stdin;
 * ns_pid > 0: inside that process's namespaces (createContainer,
 * startContainer; startContainer also as the container's process, with
 * c's compiled seccomp filter: oci_seccomp_prepare). */
int oci_hooks_run(const oci_config *c, int kind, const char *state_json, pid_t ns_pid, sbx_error *reterr);

/* The annotations' OpenClaw agent, if any (oci-policy.c): at create, its
 * rules from openclaw.json, derived as for the docker drop-in's sandboxes,
 * into c->rules (c->ctr.rules set, no_new_privs on) and c->who. The file
 * is opened only under the rule of --annotation-config-dir (config_dirs:
 * ':'-separated, NULL/"" = none); a refused file reads as a missing one.
 * Errors name the annotation. Before oci_seccomp_prepare. */
int oci_policy_prepare(oci_config *c, const char *config_dirs, sbx_error *reterr);
/* create: c's rules and who into <state_dir>/policy.json (nothing without rules). */
int oci_policy_record(const oci_config *c, const char *state_dir, sbx_error *reterr);
/* start, exec: the rules recorded at create (openclaw.json is not read);
 * a container with the annotations and no valid record fails. */
int oci_policy_load(oci_config *c, const char *state_dir, sbx_error *reterr);
/* The audit log, when c has rules (else ret->fd = -EBADF): audit_log (--audit-log,
 * NULL/"" = none), else <st->dir>/audit.jsonl; records carry c->who's names and st->id. */
int oci_policy_audit_open(const oci_config *c, const oci_state *st, const char *audit_log, sbx_audit *ret,
                          sbx_error *reterr);
void oci_policy_who_done(oci_policy_who *w);

/* linux.seccomp + sbx's layer (annotation, device rule) into c->ctr.seccomp (oci-seccomp.c). */
int oci_seccomp_prepare(oci_config *c, sbx_error *reterr);

/* `exec` (oci-exec.c): a process in a running container. log prints errors.
 * Returns the process's status, OCI_EXEC_FAILED when it could not be
 * started (runc's "exec failed"), 1 for bad flags. */
#define OCI_EXEC_FAILED 255
int oci_exec_main(const char *root, const char *audit_log, int argc, char **argv, void (*log)(const char *msg));

/* --console-socket: pass the pty master over the AF_UNIX socket (SCM_RIGHTS), as runc does. */
/* Re-run this command from a sealed memfd copy of our binary unless we are
 * one already (0): before create, run and exec (oci-sealed.c). Returns
 * only on error. argv is cli_oci's (argv[0] replaced). */
int oci_run_sealed(char **argv, sbx_error *reterr);
int oci_send_console(const char *sock_path, int master, sbx_error *reterr);

/* SPDX-License-Identifier: MIT */
/* Shared between sandbox.c (lifecycle), sandbox-record.c (the JSON record),
 * join.c (sbx exec) and sandbox-diff.c (overlay review). Not an API. */
#pragma once

#include <dirent.h>
#include <limits.h>

#include "util/util.h"
#include "sandbox.h"

#define SBX_RECORD_FILE "sandbox.json"
#define SBX_LOCK_FILE "lock"
#define SBX_BUSY_FILE "busy"
#define SBX_BPF_FILE "seccomp.bpf"
#define SBX_BPF_LAYER_FILE "seccomp-layer.bpf"  /* sbx's always-on layer (sbx_bpf.layer_insns) */
/* the seccomp profile as it was at create: every start reads this copy (cfgred16) */
#define SBX_SECCOMP_PROFILE_FILE "seccomp-profile.json"
#define SBX_RECORD_VERSION 1

/* What sandbox.json holds beyond the public record. */
typedef struct sbx_record {
        sbx_sandbox s;                /* public part; s.state_dir set by the loader */
        bool complete;                /* false while create runs: a crash leaves it false */
        bool starting;                /* true while start runs: init may not be recorded yet */
        bool crashed;                 /* init died without being stopped */
        char run_dir[32];             /* "run-XXXXXX" inside the state dir, "" if none */
        char *cgroup;                 /* cgroup path (owned), NULL if none */
        uint64_t svc_ino;             /* init's exec service socket (its inode) while it
                                       * runs, 0 if none: listed in /proc/net/unix as
                                       * long as init lives (sbx ls, issue 16) */
} sbx_record;

/* sandbox-policy.c (issue 14) */
struct json_object;
void sbx_sandbox_policy_done(sbx_sandbox_policy *p);
int sbx_sandbox_policy_copy(sbx_sandbox_policy *d, const sbx_sandbox_policy *s);
struct json_object *sbx_policy_record_json(const sbx_sandbox *s);
int sbx_policy_record_parse(struct json_object *o, sbx_sandbox *s);

/* <root>/<name> into buf. */
int sbx_sandbox_dir(const char *name, char *buf, size_t len);
int sbx_record_load(const char *name, sbx_record **ret, sbx_error *reterr);
/* The same with paths below rootfd (the open <root>, or AT_FDCWD); ret_busy
 * (may be NULL): the busy file's stat (st_nlink 0: there is none). */
struct stat;
int sbx_record_load_at(int rootfd, const char *name, struct stat *ret_busy, sbx_record **ret, sbx_error *reterr);
/* Atomic: temp file + fsync + rename. */
int sbx_record_save(const sbx_record *r, sbx_error *reterr);
sbx_record *sbx_record_free(sbx_record *r);
static inline void sbx_record_freep(sbx_record **r) {
        if (*r)
                *r = sbx_record_free(*r);
}
/* Deep copy of a run config (argv not copied). */
int sbx_run_config_copy(sbx_run_config *dst, const sbx_run_config *src);
/* Canonical JSON text of a config (for the hash), malloc'd. */
char *sbx_run_config_to_json_text(const sbx_run_config *c);
/* The mounts the config produces, as they appear inside. */
int sbx_record_fill_mounts(sbx_sandbox *s);

/* The configuration a later create asked for (requested.json). */
int sbx_record_save_requested(const char *name, const sbx_run_config *c, const char *hash, sbx_error *reterr);
int sbx_record_load_requested(const char *name, sbx_run_config *ret, char hash[SBX_SANDBOX_HASH_MAX + 1]);
/* Resolve a ref (name, id, id prefix) to a name. */
int sbx_sandbox_resolve(const char *ref, char name[SBX_SANDBOX_NAME_MAX + 1], sbx_error *reterr);
/* Open <dir>/<file> and flock it; -ENOENT if it (or the sandbox) is gone. */
int sbx_sandbox_lock(const char *name, const char *file, int op, sbx_error *reterr);
/* A pidfd for the recorded init, or -ESRCH if it is gone (or the pid was reused). */
int sbx_init_pidfd(pid_t pid, uint64_t start_time);
uint64_t sbx_now_ms(void);

/* exec-service.c (issue 16): sbx exec through the sandbox's init. Listen:
 * bind <dir>/exec.sock (start hands the socket to init). Connect: 0 with
 * *ret_fd; without error -ENOENT (no socket) or -ECONNREFUSED (init does
 * not listen) when the sandbox has no service. Run: send
 * the decided plan p, relay, return the exit status (lockfd is released once
 * the command runs). Status: init's word on the command's end. */
int sbx_exec_service_listen(const char *dir, int *ret_fd, sbx_error *reterr);
int sbx_exec_service_connect(const char *dir, int *ret_fd, sbx_error *reterr);
int sbx_exec_service_run(int conn, const sbx_record *rec, sbx_plan *p, const sbx_exec_request *req, int *lockfd,
                         sbx_error *reterr);
int sbx_exec_service_status(int conn, const char *name, sbx_error *reterr);
/* Whether the plan's workdir, argv and environment fit one request
 * (SBX_SVC_MAX_DATA bytes, SBX_SVC_MAX_STRINGS strings): a larger exec is
 * joined, where the kernel's limit on execve's arguments is the only one. */
bool sbx_exec_service_fits(const sbx_plan *p);
/* <dir>/exec.fast for the `sbx exec` front end (exec-service.h): written from
 * the record while the sandbox runs and the service can run its execs,
 * removed otherwise. Called by sbx_record_save. */
int sbx_exec_service_describe(const sbx_record *rec, const char *dir, sbx_error *reterr);
/* join.c: forward signals to pid's group, relay the pty (master), return the
 * exit status: waited for by pidfd, or read from status_conn (the service). */
int sbx_exec_supervise(int pidfd, pid_t pid, int master, int status_conn, const char *name, sbx_error *reterr);

/* ls-cache.c (issue 16): the listing cache of <root> (rootfd). open: never
 * NULL but out of memory; an unusable cache file counts as none. get: the
 * cached brief record of name if its dir (its fstatat()) is the one it was
 * stored with, else -ENOENT/-ESTALE. add: store a record read now (its dir
 * stat()ed before it was read). done: write the new cache if it changed
 * (complete: the listing saw every dir), free. */
typedef struct sbx_ls_cache sbx_ls_cache;
sbx_ls_cache *sbx_ls_cache_open(int rootfd);
int sbx_ls_cache_get(sbx_ls_cache *c, const char *name, const struct stat *dir, sbx_record **ret);
void sbx_ls_cache_add(sbx_ls_cache *c, const sbx_record *rec, const struct stat *dir);
void sbx_ls_cache_done(sbx_ls_cache *c, int rootfd, bool complete);
/* The busy file of name below rootfd: rec's last use (its mtime, else the
 * creation), and its stat in *ret_busy (may be NULL; st_nlink 0: none). */
void sbx_record_busy_at(int rootfd, const char *name, sbx_record *rec, struct stat *ret_busy);

static inline void closedirp(DIR **d) {
        if (*d) {
                closedir(*d);
                *d = NULL;
        }
}

/* SPDX-License-Identifier: MIT */
/* Persistent sandboxes (issue 4): the in-process API behind `sbx create/exec/ls/
 * stop/rm/prune/recreate/diff/commit/reset` and the docker-compatible shim
 * (issue 9). Plain C structs in, plain C structs out; nothing prints.
 *
 * A sandbox is a tiny init process (pid 1 of the sandbox's pid namespace,
 * runtime/sandbox/init.c) plus a state directory:
 *
 *   <root>/<name>/sandbox.json   the record (atomically replaced, see below)
 *   <root>/<name>/lock           flock: LOCK_EX for state changes, LOCK_SH to join
 *   <root>/<name>/busy           flock: every running exec holds LOCK_SH on it
 *   <root>/<name>/seccomp.bpf    the compiled filter every exec installs
 *   <root>/<name>/seccomp-layer.bpf  and the always-on layer installed with it
 *   <root>/<name>/run-XXXXXX/    the launcher's per-run dir (root mountpoint,
 *                                overlay upper/work of --workspace-mode overlay)
 *   <root>/.lock                 flock: LOCK_EX while a name is created/removed
 *
 * <root> is $XDG_RUNTIME_DIR/sbx/sandboxes, /run/sbx/sandboxes as root,
 * /tmp/sbx-$UID/sandboxes otherwise (sbx_sandbox_root_set() overrides it).
 * Workspace data lives outside <root> (the configured workspace dir) and is
 * never deleted by stop, rm, prune or crash cleanup.
 *
 * Every mount of a sandbox exists only in its own mount namespace, which dies
 * with its init: a dead init leaves no host mount behind, only its state dir
 * and (with limits) its cgroup, which the next command touching the sandbox
 * removes ("stale" sandboxes are cleaned on lookup, list, prune and create).
 *
 * Return values follow runtime/ERRORS.md: 0 / a count on success, a negative
 * errno with *reterr filled on failure. Errnos callers can rely on:
 *   -ENOENT    no sandbox of that name or id ("No such container")
 *   -ENOTUNIQ  an id prefix matches more than one sandbox
 *   -EEXIST    create: the name is taken (and !exist_ok)
 *   -EBUSY     rm without force of a running sandbox; prune skips busy ones
 *   -EINVAL    bad name, label, option or config (reterr names it)
 *   -ESRCH     the sandbox is not running (exec, pause)
 */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/util.h"
#include "launch/launch.h"

#define SBX_SANDBOX_NAME_MAX 128      /* docker: [a-zA-Z0-9][a-zA-Z0-9_.-]* */
#define SBX_SANDBOX_ID_LEN 64         /* lowercase hex */
#define SBX_SANDBOX_HASH_MAX 128      /* config hash text (sha256 hex = 64) */

typedef enum sbx_sandbox_state {
        SBX_SANDBOX_CREATED,          /* record exists, never started (docker create) */
        SBX_SANDBOX_RUNNING,          /* init alive */
        SBX_SANDBOX_PAUSED,           /* init alive, every process stopped */
        SBX_SANDBOX_STOPPED,          /* init gone (stopped, or died: then cleaned) */
        _SBX_SANDBOX_STATE_MAX,
        _SBX_SANDBOX_STATE_INVALID = -EINVAL,
} sbx_sandbox_state;

typedef enum sbx_workspace_mode {
        SBX_WORKSPACE_MODE_DIRECT,    /* /workspace as config.workspace_access says */
        SBX_WORKSPACE_MODE_OVERLAY,   /* /workspace = overlay: lower = the real workspace,
                                       * upper in the sandbox state; see sbx_sandbox_diff() */
        _SBX_WORKSPACE_MODE_MAX,
        _SBX_WORKSPACE_MODE_INVALID = -EINVAL,
} sbx_workspace_mode;

typedef struct sbx_label {
        char *key;                    /* non-empty, no '=' and no control characters */
        char *value;                  /* may be empty */
} sbx_label;

/* One mount as it is really mounted in the sandbox (what `inspect .Mounts`
 * and `/proc/self/mountinfo` inside must agree on). */
typedef enum sbx_sandbox_mount_type {
        SBX_SANDBOX_MOUNT_BIND,       /* src = host path */
        SBX_SANDBOX_MOUNT_TMPFS,      /* src = NULL, options = "mode=1777,size=..." */
        SBX_SANDBOX_MOUNT_OVERLAY,    /* /workspace in overlay mode: src = the lower (real) dir */
        _SBX_SANDBOX_MOUNT_TYPE_MAX,
        _SBX_SANDBOX_MOUNT_TYPE_INVALID = -EINVAL,
} sbx_sandbox_mount_type;

typedef struct sbx_sandbox_mount {
        sbx_sandbox_mount_type type;
        char *src;                    /* absolute host path, NULL for tmpfs */
        char *dst;                    /* absolute path in the sandbox */
        bool rw;
        char *options;                /* tmpfs options, else NULL */
} sbx_sandbox_mount;

/* Whose rules a sandbox enforces (issue 14): the OpenClaw agent and scope it
 * was created for. agent NULL: no policy ("policy: none", today's behaviour).
 * The rules themselves are in config (read_only_fs, exec_allow*,
 * exec_refused_*, seccomp.deny_inet_sockets). */
typedef struct sbx_sandbox_policy {
        char *agent;                  /* the resolved agent id */
        char *session;                /* the session key it was resolved for */
        char *scope_key;              /* OpenClaw's scope key (openclaw.sessionKey) */
        char *config_path;            /* the openclaw.json read, NULL: OpenClaw's defaults */
        char config_stamp[96];        /* its inode, size and mtime at create ("" none): an exec
                                       * re-derives the rules only when it changed */
} sbx_sandbox_policy;

#define SBX_POLICY_HASH_LEN 64        /* sha256 hex */

/* Whether <state_dir>/exec.sock is a socket, as the list saw it (issue 16:
 * sbx_sandbox_exec_via() looks itself when unknown). */
typedef enum sbx_exec_sock {
        SBX_EXEC_SOCK_UNKNOWN,
        SBX_EXEC_SOCK_YES,
        SBX_EXEC_SOCK_NO,
} sbx_exec_sock;

typedef struct sbx_sandbox {
        char name[SBX_SANDBOX_NAME_MAX + 1];
        char id[SBX_SANDBOX_ID_LEN + 1];
        sbx_sandbox_state state;
        uint64_t created_ms;          /* CLOCK_REALTIME, milliseconds */
        uint64_t started_ms;          /* last start, 0 if never */
        uint64_t finished_ms;         /* when init last ended (stopped or found dead), 0 if never */
        int exit_status;              /* init's wait status then (sbx stop: 128+SIGTERM after a
                                       * clean stop, SIGKILL after the grace period; the kernel's
                                       * word, PIDFD_INFO_EXIT), -1 if never stopped or not seen
                                       * (init died outside sbx stop) */
        uint64_t last_used_ms;        /* last create/start/exec */
        sbx_label *labels;
        size_t n_labels;
        char config_hash[SBX_SANDBOX_HASH_MAX + 1];  /* given at create, or computed */
        bool config_changed;          /* a later create/run asked for another config
                                       * (exist_ok); sbx_sandbox_check_config() sets it too */
        char *image;                  /* as given at create (informational), may be NULL */
        sbx_sandbox_mount *mounts;    /* binds, workspace, tmpfs: in mount order */
        size_t n_mounts;
        sbx_workspace_mode workspace_mode;
        char *workspace;              /* host dir behind /workspace, NULL if none */
        char *state_dir;              /* <root>/<name> */
        char *upper_dir;              /* overlay mode: the upper layer on the host, else NULL */
        pid_t init_pid;               /* host pid of the sandbox's pid 1, 0 when not running */
        uint64_t init_start_time;     /* /proc/<pid>/stat starttime (detects pid reuse) */
        unsigned running_execs;       /* execs in flight (0 or >0: "at least one") */
        char ip_address[16];          /* network bridge as root: eth0's IPv4 address while
                                       * running, "" otherwise (pasta copies the host's) */
        char gateway[16];             /* its default gateway (= host-gateway), "" if none */
        sbx_run_config config;        /* the configuration it was created with (owned;
                                       * config.argv is NULL) */
        sbx_sandbox_policy policy;    /* issue 14: owned */
        char policy_hash[SBX_POLICY_HASH_LEN + 1];  /* of identity + rules, "" with no policy */
        bool policy_stale;            /* the current openclaw.json derives other rules
                                       * (set by sbx_sandbox_mark_policy(); recreate clears it) */
        sbx_exec_sock exec_sock;      /* set by the lists */
        bool brief;                   /* from sbx_sandbox_list_brief()'s cache: see there */
} sbx_sandbox;

typedef struct sbx_sandbox_opts {
        const sbx_label *labels;      /* copied */
        size_t n_labels;
        const char *config_hash;      /* NULL: computed from the config */
        const char *image;            /* NULL: none (informational) */
        const sbx_sandbox_policy *policy; /* issue 14: NULL = no policy (copied) */
        const char *id;               /* 64 lowercase hex chosen by the caller (docker create: its
                                       * hostname names it); NULL: random */
        sbx_workspace_mode workspace_mode;
        bool start;                   /* start init now (sbx create); false = docker create */
        bool exist_ok;                /* the name exists: return its id and 1 (not -EEXIST);
                                       * if the config differs it is recorded as requested
                                       * (ls: changed; recreate applies it) */
} sbx_sandbox_opts;

typedef enum sbx_stdin_mode {
        SBX_STDIN_NULL,               /* /dev/null (docker exec without -i) */
        SBX_STDIN_INHERIT,            /* the caller's stdin (docker exec -i) */
        _SBX_STDIN_MODE_MAX,
        _SBX_STDIN_MODE_INVALID = -EINVAL,
} sbx_stdin_mode;

typedef struct sbx_exec_request {
        char *const *argv;            /* NULL-terminated, required */
        char *const *envv;            /* "K=V", on top of the sandbox's environment */
        size_t n_env;
        const char *workdir;          /* NULL: the sandbox's workdir (default /workspace) */
        uint32_t uid, gid;            /* SBX_ID_UNSET: the sandbox's user */
        bool tty;                     /* a pty from the sandbox's devpts (docker exec -t) */
        sbx_stdin_mode stdin_mode;
        /* issue 14: the rules the sandbox's agent gets from openclaw.json now,
         * when they differ from the recorded ones (stale): decided on and
         * enforced on top of those (a change only tightens). NULL: none. */
        const sbx_run_config *rules_now;
} sbx_exec_request;

typedef struct sbx_prune_opts {
        double idle_hours;            /* remove if last used longer ago; 0 disables */
        double max_age_days;          /* remove if created longer ago; 0 disables */
        const sbx_label *filter;      /* only sandboxes carrying all these labels */
        size_t n_filter;
        bool dry_run;
} sbx_prune_opts;

/* Where records live; NULL restores the default. Not thread-safe (sbx is
 * single-threaded). */
int sbx_sandbox_root_set(const char *dir, sbx_error *reterr);
const char *sbx_sandbox_root(void);

/* Names: 1..128 chars of [a-zA-Z0-9_.-], starting alphanumeric. */
bool sbx_sandbox_name_valid(const char *name);

/* Create a sandbox from a config (argv ignored; config.workdir/uid/env are
 * the defaults for every exec). Copies c. With opts->start, init is running
 * when this returns. Writes the 64-hex id into ret_id (may be NULL).
 * Returns 0 when it created one, 1 when exist_ok found it already there. */
int sbx_sandbox_create(const char *name, const sbx_run_config *c, const sbx_sandbox_opts *opts,
                       char ret_id[SBX_SANDBOX_ID_LEN + 1], sbx_error *reterr);

/* ref = a name, a full id, or an unambiguous id prefix. */
int sbx_sandbox_start(const char *ref, sbx_error *reterr);          /* running already: 0 */
int sbx_sandbox_stop(const char *ref, unsigned timeout_sec, sbx_error *reterr); /* SIGTERM, then SIGKILL */
int sbx_sandbox_remove(const char *ref, bool force, sbx_error *reterr);
/* sbx_sandbox_remove() of each of REFS[0..n), the read of the state root
 * for trash left by killed removers once at the end instead of after each;
 * done (may be NULL) is called after each, r < 0 and *e set on failure.
 * Returns 0 or the first failure. */
int sbx_sandbox_remove_many(const char *const *refs, size_t n, bool force,
                            void (*done)(size_t i, int r, const sbx_error *e, void *userdata), void *userdata);
/* SIGKILL the init of every listed running sandbox (the recorded process
 * only: pid and start time checked), waiting for none: `rm -f --all` lets
 * them all die at once, then removes each. */
void sbx_sandbox_kill_all(sbx_sandbox *const *list, size_t n);
int sbx_sandbox_pause(const char *ref, sbx_error *reterr);
int sbx_sandbox_unpause(const char *ref, sbx_error *reterr);

/* Run a command inside a running sandbox: setns into all of its namespaces,
 * its cgroup, the same caps drop / no_new_privs / seccomp / rlimits as the
 * first process. stdout/stderr (and stdin with SBX_STDIN_INHERIT) pass
 * through; SIGINT/SIGTERM/SIGHUP to the caller go to the command's process
 * group; if the caller dies the command is killed. Returns the command's
 * exit status (128+N if killed by signal N, 125/126/127 per ERRORS.md with
 * *reterr filled). Must be called from a single-threaded process; it forks. */
int sbx_sandbox_exec(const char *ref, const sbx_exec_request *req, sbx_error *reterr);

/* A record by ref (stale sandboxes are cleaned first and show as STOPPED). */
int sbx_sandbox_lookup(const char *ref, sbx_sandbox **ret, sbx_error *reterr);
/* network container:REF (issue 7): fds of the network and user namespaces of
 * the running sandbox REF (name or id), and of its init's /proc/<pid> (for
 * its id maps; NULL: not wanted). Fails with -ENOENT (no such sandbox),
 * -ESRCH (not running), -EBUSY (being created, started or removed: also a
 * sandbox naming itself). */
int sbx_sandbox_open_ns(const char *ref, int *ret_netns, int *ret_userns, int *ret_proc, sbx_error *reterr);
/* Every sandbox carrying all the filter labels (n_filter 0: all), by name. */
int sbx_sandbox_list(const sbx_label *filter, size_t n_filter, sbx_sandbox ***ret, size_t *ret_n,
                     sbx_error *reterr);
/* The same for showing them (sbx ls, issue 16): a sandbox without an agent
 * policy whose dir and record are unchanged since an earlier listing comes
 * from the listing cache (<root>/.ls-cache) instead of its record: then
 * brief is true, and of its config only network, network_name,
 * network_container, exec_allow_set and exec_refused_rule are set, and
 * upper_dir is NULL. State, last use, running execs and exec_sock are
 * looked up as in sbx_sandbox_list(). */
int sbx_sandbox_list_brief(const sbx_label *filter, size_t n_filter, sbx_sandbox ***ret, size_t *ret_n,
                           sbx_error *reterr);
sbx_sandbox *sbx_sandbox_free(sbx_sandbox *s);
void sbx_sandbox_list_free(sbx_sandbox **l, size_t n);
static inline void sbx_sandbox_freep(sbx_sandbox **s) {
        if (*s)
                *s = sbx_sandbox_free(*s);
}

/* issue 14: an agent's rules in c (exec allowlist, exec refusal, read-only fs,
 * landlock best-effort) as JSON keys added to o (only those set), and back
 * (-EBADMSG, -ENOMEM). Also what sbx-runc records in a container's state. */
struct json_object;
void sbx_rules_config_add(struct json_object *o, const sbx_run_config *c);
int sbx_rules_config_parse(struct json_object *o, sbx_run_config *c);
/* issue 14: "ino:size:mtime" of a config file into buf ("" if unreadable). */
void sbx_sandbox_policy_stamp(const char *path, char buf[96]);
/* issue 14: the policy hash of identity + the rules in c (sha256 hex). */
void sbx_sandbox_policy_hash(const sbx_sandbox_policy *p, const sbx_run_config *c,
                             char ret[SBX_POLICY_HASH_LEN + 1]);
/* A json_object: {"policy": "none"} or {"policy": "openclaw", agent, session,
 * scopeKey, config, hash, stale, rules: {...}} (for ls --json, inspect, the
 * docker inspect Sbx key). Caller puts it. */
void *sbx_sandbox_policy_json(const sbx_sandbox *s);
/* Record that the current config derives rules hashing to current_hash:
 * sets/clears policy_stale in the record. Returns 1 when stale. */
int sbx_sandbox_mark_policy(const char *ref, const char *current_hash, sbx_error *reterr);

/* issue 16: how `sbx exec` (as the sandbox's own user) enters a running
 * sandbox: "service" (its init's exec service) or "setns" (joined: an older
 * sandbox without the service, or one of the refusals below); NULL when it
 * is not running. */
const char *sbx_sandbox_exec_via(const sbx_sandbox *s);
/* Why the exec service cannot run execs into s exactly as a join would
 * (NULL: it can). */
const char *sbx_exec_service_refusal(const sbx_sandbox *s);

/* Label value of a record, NULL if absent. */
const char *sbx_sandbox_label(const sbx_sandbox *s, const char *key);
/* Set s->config_changed: does c (plus opts->config_hash, if given) hash
 * differently from what the sandbox was created with? */
int sbx_sandbox_check_config(sbx_sandbox *s, const sbx_run_config *c, const char *config_hash);
/* The hash sbx records when none is given (hex, NUL-terminated). */
int sbx_sandbox_config_hash(const sbx_run_config *c, char ret[SBX_SANDBOX_HASH_MAX + 1]);

/* Remove what prune's rules select and nothing with a running exec. Returns
 * the number removed; names of the removed ones in *ret_names (may be NULL;
 * free each and the array). */
int sbx_sandbox_prune(const sbx_prune_opts *opts, char ***ret_names, size_t *ret_n, sbx_error *reterr);

/* Rebuild: rm -f + create, keeping name, labels and workspace, from c when
 * not NULL, else from the config a later create asked for (config_changed),
 * else from the recorded one. */
int sbx_sandbox_recreate(const char *ref, const sbx_run_config *c, const char *config_hash,
                         sbx_error *reterr);

/* ---- reviewable workspace changes (--workspace-mode overlay) ---- */

typedef enum sbx_change_kind {
        SBX_CHANGE_ADDED,
        SBX_CHANGE_MODIFIED,          /* content, symlink target, type or permissions */
        SBX_CHANGE_DELETED,
        _SBX_CHANGE_KIND_MAX,
        _SBX_CHANGE_KIND_INVALID = -EINVAL,
} sbx_change_kind;

typedef struct sbx_change {
        char *path;                   /* relative to /workspace, no leading '/' */
        sbx_change_kind kind;
        mode_t mode;                  /* new type+permissions (0 for DELETED) */
        mode_t old_mode;              /* in the real workspace (0 for ADDED) */
        bool content_changed;         /* MODIFIED: the bytes (or link target) differ */
        char *target;                 /* a symlink's target as read in the walk, else NULL */
        char content_hash[SBX_SHA256_HEX_SIZE]; /* a file's, by sbx_sandbox_diff_digest, else "" */
} sbx_change;

/* The digest of a list of changes as sbx diff shows it, which sbx commit
 * --expect compares with what it is about to apply ("sha256:" + 64 hex):
 * SHA-256 over each change (sorted by path) as its letter, its mode, its
 * path, a symlink's target and a regular file's content hash, the content
 * read from the upper layer now (beneath its root, no symlink followed). */
#define SBX_CHANGES_DIGEST_SIZE (7 + SBX_SHA256_HEX_SIZE)
int sbx_sandbox_diff_digest(const sbx_sandbox *s, sbx_change *c, size_t n,
                            char ret[SBX_CHANGES_DIGEST_SIZE], sbx_error *reterr);
/* The content hash the digest uses, of the file fd (size, then each 64 KiB
 * chunk that is not all zeros, holes skipped): 0 or -errno. */
int sbx_content_hash(int fd, char ret[SBX_SHA256_HEX_SIZE]);

/* Changes in the upper layer against the real workspace, sorted by path.
 * -ENOTSUP if the sandbox is not in overlay mode. */
int sbx_sandbox_diff(const char *ref, sbx_change **ret, size_t *ret_n, sbx_error *reterr);
void sbx_changes_free(sbx_change *c, size_t n);
/* The workspace's (upper false) or the upper layer's version of a changed
 * file, opened for reading beneath that layer's root without following any
 * symlink (the sandbox may swap one in at any time while it runs): an fd of
 * a regular file, or -errno (-EINVAL: not a regular file). */
int sbx_sandbox_change_open(const sbx_sandbox *s, const char *path, bool upper, sbx_error *reterr);
/* Apply the changes (all, or those at/under paths) to the real workspace:
 * per file write-temp + rename, deletions, permissions; never follows a
 * symlink in the workspace; a FIFO, socket or device of the sandbox's is
 * skipped (counted in *ret_skipped, may be NULL), not an error. Returns the
 * number of changes applied. */
int sbx_sandbox_commit(const char *ref, char *const *paths, size_t n_paths, size_t *ret_skipped,
                       sbx_error *reterr);
/* The same for every change, but only if they are the ones whose digest
 * (sbx_sandbox_diff_digest) is expect: every file and symlink is first
 * copied into a staging directory of the workspace and the digest taken of
 * those copies, so what is checked is what is applied, however the sandbox
 * changes its layer meanwhile. A mismatch applies nothing: -ESTALE. */
int sbx_sandbox_commit_expect(const char *ref, const char *expect, size_t *ret_skipped, sbx_error *reterr);
/* Discard the upper layer (restarts a running sandbox: its processes end). */
int sbx_sandbox_reset(const char *ref, sbx_error *reterr);

const char *sbx_sandbox_state_to_string(sbx_sandbox_state s);
const char *sbx_workspace_mode_to_string(sbx_workspace_mode m);
sbx_workspace_mode sbx_workspace_mode_from_string(const char *s);

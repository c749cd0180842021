/* SPDX-License-Identifier: MIT */
/* runtime/security/security.h: the public interface of runtime/security/ (see ARCHITECTURE.md). */
#pragma once

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <seccomp.h>
#include <limits.h>

#include "util/util.h"

/* ---- from seccomp-filter.h ---- */
/* Seccomp: compiled in the parent with libseccomp (from Docker/OCI-format JSON
 * profiles kept as data in seccomp-profiles/), installed in the child with a
 * raw seccomp(2) call as the very last step before exec. */



/* A compiled classic-BPF program, owned by the parent, read-only in the child. */
typedef struct sbx_bpf {
        struct sock_filter *insns;
        unsigned short len;
        /* Added (issue 6): sbx's always-on layer (seccomp-profiles/always-on.json
         * plus derived rules such as derived-no-network.json), a second filter
         * installed next to insns. The kernel runs every stacked filter and
         * applies the most restrictive action, so no profile in insns can
         * re-allow what this layer refuses. NULL/0 when absent. */
        struct sock_filter *layer_insns;
        unsigned short layer_len;
        /* Added (issue 16): insns stacked over layer_insns as one program
         * (sbx_bpf_stack()), attached instead of the two by
         * sbx_seccomp_setup_child(): one attach, one filter per syscall. Set
         * by sbx_seccomp_compile() for the embedded profiles (precompiled);
         * NULL for a user profile and where the two come from elsewhere (a
         * joined exec reads both from the state dir; sbx-runc). */
        struct sock_filter *stacked_insns;
        unsigned short stacked_len;
        /* seccomp(2) flags of insns' install (an OCI profile's `flags`:
         * SECCOMP_FILTER_FLAG_TSYNC, _LOG, _SPEC_ALLOW); 0 elsewhere */
        unsigned flags;
} sbx_bpf;

typedef struct sbx_seccomp_opts {
        /* NULL: the embedded default profile (seccomp-profiles/default.json).
         * Otherwise a Docker-format profile file (docker.seccompProfile); sbx's
         * always-on rules are layered on top of it. */
        const char *profile_path;
        /* Derived from the tool policy (issue 6): refuse AF_INET/AF_INET6/
         * AF_PACKET/AF_NETLINK sockets. */
        bool deny_inet_sockets;
        /* Added: let a user profile's architectures/archMap add non-native
         * ABIs (x86, x32, ...). Off: they are an error naming the JSON path. */
        bool allow_foreign_arches;
        /* Tests and benchmarks only: the programs as libseccomp and the
         * prefixes wrote them, without sbx_bpf_optimize(). */
        bool unoptimized;
} sbx_seccomp_opts;

/* Parent: compile the profile into *ret (free with sbx_bpf_free): the base
 * program (embedded default, precompiled at build time, or opts->profile_path
 * compiled now) plus the always-on layer (with derived rules). Errors name the
 * profile file and JSON path. See seccomp-profiles/README.md. */
int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr);
void sbx_bpf_free(sbx_bpf *bpf);

/* Child, async-signal-safe, no allocation: requires no_new_privs (or
 * CAP_SYS_ADMIN) already set. Installs layer_insns (if any), then insns: two
 * raw seccomp(SECCOMP_SET_MODE_FILTER) calls, the second with bpf->flags. Returns 0 or a
 * negative errno. */
int sbx_seccomp_setup_child(const sbx_bpf *bpf);

/* issue 14: the exec log filter. SECCOMP_RET_USER_NOTIF for execve and
 * execveat (native ABI and, on x86-64, x32 and i386), everything else
 * allowed (the sandbox's own filter decides the rest), except (x86-64) the
 * one execveat whose unused sixth argument is cookie: sbx's own exec of the
 * command it decided on, which then costs no round trip. Parent; free() *ret. */
int sbx_seccomp_compile_exec_notify(uint64_t cookie, struct sock_filter **ret, unsigned short *ret_len,
                                    sbx_error *reterr);
/* Child, async-signal-safe: install it with a new listener (no_new_privs
 * set). Returns the listener fd (O_CLOEXEC) or a negative errno. Once the
 * listener is closed by everyone holding it, every execve/execveat of this
 * process tree fails with ENOSYS: exec fails closed. */
int sbx_seccomp_exec_notify_child(const struct sock_filter *insns, unsigned short len);

/* Added: what the compiled filters do to each syscall the native ABI has
 * (for `sbx explain`/doctor). Parent only. */
typedef struct sbx_seccomp_verdict {
        char name[48];
        int nr;
        unsigned action;        /* SCMP_ACT_* of the unconditional verdict */
        bool conditional;       /* argument filters decide (e.g. clone, socket) */
        bool always_on;         /* refused by sbx's always-on layer */
} sbx_seccomp_verdict;

/* Every syscall number libseccomp knows for the native ABI that is not plainly
 * allowed: unconditionally refused, or decided by argument filters. *ret is an
 * array of *ret_n entries, free() it. */
int sbx_seccomp_list_restricted(const sbx_seccomp_opts *opts, sbx_seccomp_verdict **ret,
                                size_t *ret_n, sbx_error *reterr);

/* ---- from seccomp-profile.h ---- */
/* Docker/OCI-format seccomp profiles: strict JSON text -> plain C rules.
 *
 * Parent only (allocates, uses json-c and libseccomp's name tables). The
 * result holds no json_object: the JSON tree is released before returning.
 * Compiling the rules into BPF is seccomp-filter.c's job. */



#define SBX_SECCOMP_PROFILE_SIZE_MAX (1024 * 1024)
#define SBX_SECCOMP_PROFILE_DEPTH_MAX 8
#define SBX_SECCOMP_RULES_MAX 8192
#define SBX_SECCOMP_ARCHES_MAX 8

typedef struct sbx_seccomp_rule {
        int nr;          /* native number, or libseccomp's negative
                          * pseudo number for a syscall this
                          * architecture lacks */
        uint32_t action; /* SCMP_ACT_* including the errno */
        unsigned entry;  /* index in syscalls[], for messages */
        unsigned n_args;
        struct scmp_arg_cmp args[6];
        char name[48];
} sbx_seccomp_rule;

typedef struct sbx_seccomp_profile {
        char origin[160]; /* "embedded default.json" or the path */
        uint32_t default_action;
        uint32_t arches[SBX_SECCOMP_ARCHES_MAX]; /* beyond the native one */
        size_t n_arches;
        sbx_seccomp_rule *rules;
        size_t n_rules;
        int max_nr; /* highest native number named by an
                     * entry that applies here, -1 if none */
        unsigned filter_flags; /* SECCOMP_FILTER_FLAG_* of `flags` (SBX_SECCOMP_PARSE_OCI) */
        size_t n_unknown;      /* syscall names skipped (SBX_SECCOMP_PARSE_OCI) */
} sbx_seccomp_profile;

typedef enum sbx_seccomp_parse_flags {
        /* Let architectures/archMap add non-native architectures (x86, x32,
         * ...) to the filter. Without it they are an error. */
        SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES = 1 << 0,
        /* The runtime-spec's linux.seccomp as runc and crun read it: a syscall
         * name libseccomp does not know is skipped (counted in n_unknown), not
         * an error, and `flags` may name SECCOMP_FILTER_FLAG_TSYNC, _LOG and
         * _SPEC_ALLOW (filter_flags). Without it both are errors. */
        SBX_SECCOMP_PARSE_OCI = 1 << 1,
} sbx_seccomp_parse_flags;

/* Parse len bytes of JSON (need not be NUL-terminated). origin names the
 * profile in error messages. */
int sbx_seccomp_profile_parse(const char *buf, size_t len, const char *origin, unsigned flags,
                              sbx_seccomp_profile *ret, sbx_error *reterr);
/* Read and parse a profile file (docker.seccompProfile). */
int sbx_seccomp_profile_load_file(const char *path, unsigned flags, sbx_seccomp_profile *ret,
                                  sbx_error *reterr);
/* Parse one of the embedded profiles by name ("default", "always-on", ...). */
int sbx_seccomp_profile_load_embedded(const char *name, sbx_seccomp_profile *ret, sbx_error *reterr);
void sbx_seccomp_profile_done(sbx_seccomp_profile *p);

/* "SCMP_ACT_ERRNO(EPERM)"-style text for an action, into buf. */
const char *sbx_seccomp_action_to_string(uint32_t action, char *buf, size_t len);

/* Compile one parsed profile into a base program (with the ENOSYS prefix),
 * without the always-on layer: for the fuzzer and tests. Defined in
 * seccomp-filter.c. */
int sbx_seccomp_compile_profile(const sbx_seccomp_profile *p, sbx_bpf *ret, sbx_error *reterr);
/* p (default allow) as sbx's layer: behind the prefix that refuses syscalls
 * newer than libseccomp (seccomp-filter.c build_layer_stub()); into ret->insns. */
int sbx_seccomp_compile_layer(const sbx_seccomp_profile *p, sbx_bpf *ret, sbx_error *reterr);

/* Rewrite a seccomp program into one with the same verdict for every input:
 * arch and nr tested by a balanced tree of ranges, argument checks kept as
 * they are (seccomp-optimize.c). *ret is malloc'ed. -EOPNOTSUPP for a program
 * outside the handled subset (the caller keeps the input), -E2BIG, -ENOMEM. */
int sbx_bpf_optimize(const struct sock_filter *in, size_t n, struct sock_filter **ret, size_t *ret_len);
/* One program with the verdict the kernel gives for `older` attached first and
 * `newer` after it (the lowest action wins, the newer filter's on a tie), in
 * the same form; errors as sbx_bpf_optimize(). */
int sbx_bpf_stack(const struct sock_filter *newer, size_t n_newer, const struct sock_filter *older,
                  size_t n_older, struct sock_filter **ret, size_t *ret_len);

/* sbx_seccomp_compile() without the build-time precompiled fast path for the
 * embedded profiles: for the generator (seccomp-profiles/gen-bpf.c) and the
 * test that keeps both identical. */
int sbx_seccomp_compile_uncached(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr);

/* ---- from landlock.h ---- */
/* Landlock (issue 6): the derived file-system rules, enforced by the kernel
 * for the whole process tree of the sandbox.
 *
 *  - read-only file system: every write right is handled, and granted only
 *    beneath the tmpfs mounts and /dev, so writes to /workspace, binds and
 *    the root fail with EACCES even where the mount itself is read-write;
 *  - exec allowlist: LANDLOCK_ACCESS_FS_EXECUTE is handled, and granted only
 *    on the allowlisted files and the ELF loaders they need, so a copy of an
 *    allowed binary, a symlink to a denied one, a script whose interpreter is
 *    not allowed, a binary written into /tmp all fail with EACCES.
 *
 * sbx_landlock_prepare() (parent, before clone3) probes the ABI, creates the
 * ruleset and adds every rule for a file the parent can open (the exec
 * files, as the fds exec-resolve.c found). The writable places are tmpfs
 * mounts that exist only once the child has mounted them, so their rules
 * are added by sbx_landlock_setup_child() from paths fixed in the plan
 * (landlock_add_rule is one syscall, no allocation), then
 * landlock_restrict_self(): after no_new_privs, before seccomp. */



#define SBX_LANDLOCK_MAX_WRITABLE 64
#define SBX_LANDLOCK_MAX_EXEC 600

typedef struct sbx_landlock {
        int abi;                        /* probed: 0 = no Landlock */
        int ruleset_fd;                 /* -EBADF: nothing to enforce */
        uint64_t handled;               /* handled_access_fs */
        uint64_t write_rights;          /* granted beneath writable[] */
        const char *writable[SBX_LANDLOCK_MAX_WRITABLE];  /* sandbox paths (not owned) */
        bool writable_optional[SBX_LANDLOCK_MAX_WRITABLE];
        unsigned n_writable;
        /* EXECUTE again by canonical sandbox path, added in the child: the
         * parent's inode rules do not reach files seen through an overlay
         * (--image root, the /workspace overlay has its own inodes). */
        const char *exec_paths[SBX_LANDLOCK_MAX_EXEC];
        unsigned n_exec_paths;
        char unenforced[256];           /* best-effort without Landlock: the rules not enforced */
} sbx_landlock;

typedef struct sbx_landlock_request {
        bool read_only_fs;
        bool exec_restrict;
        const int *exec_files;          /* O_PATH fds granted EXECUTE (files) */
        unsigned n_exec_files;
        const int *exec_dirs;           /* O_PATH fds granted EXECUTE beneath (widened globs) */
        unsigned n_exec_dirs;
        bool best_effort;               /* --landlock best-effort */
} sbx_landlock_request;

void sbx_landlock_init(sbx_landlock *l);
/* The Landlock ABI version, or a negative errno (-ENOSYS, -EOPNOTSUPP). */
int sbx_landlock_abi(void);
/* Parent, before clone3. Refuses (-EOPNOTSUPP, naming the rules) when
 * Landlock is absent and the request is not best-effort; best-effort fills
 * l->unenforced instead. writable[] must be filled before (plan order). */
int sbx_landlock_prepare(sbx_landlock *l, const sbx_landlock_request *req, sbx_error *reterr);
/* Child, after no_new_privs, before seccomp; cwd-independent (paths are
 * absolute in the new root). Async-signal-safe, no allocation. */
int sbx_landlock_setup_child(const sbx_landlock *l, sbx_error *reterr);
void sbx_landlock_cleanup(sbx_landlock *l);
/* "read-only file system", "exec allowlist" as text, for explain/doctor. */
const char *sbx_landlock_describe(const sbx_landlock_request *req, char *buf, unsigned len);

/* ---- from exec-resolve.h ---- */
/* Exec decided before fork (issue 6): the command is resolved in the parent,
 * inside the sandbox's file system as the launch plan will build it, and the
 * file found is opened as an O_PATH fd that the child runs with execveat().
 *
 * The "view" is the plan's mount list read as a table: sandbox path ->
 * source fd (a bind's host dir or the detached tree the parent cloned), an
 * empty dir (tmpfs, mountpoints), or a symlink (merged-/usr /bin -> usr/bin).
 * Resolution walks one component at a time: each step is an
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) below the source fd of the
 * mount that holds it, and every symlink is read and spliced into the rest
 * of the path by us, absolute targets restarting at the sandbox root. That
 * is RESOLVE_IN_ROOT over the whole multi-mount tree: nothing resolves to a
 * host path the sandbox cannot see, and the file we decide on is the fd we
 * run. */



struct sbx_plan;

typedef struct sbx_view_entry {
        char *dst;            /* canonical absolute sandbox path ("/" for the root) */
        int fd;               /* O_PATH source (dir or file), -EBADF: empty (tmpfs, dir, proc) */
        char *link;           /* symlink target, or NULL */
        bool file;            /* a file mountpoint without a source (generated /etc file) */
        int upper_fd;         /* overlay root (--image): the upper dir, looked at first; else -EBADF */
} sbx_view_entry;

typedef struct sbx_view {
        sbx_view_entry *e;
        size_t n;
} sbx_view;

/* Add one entry (dst absolute; fd is taken over, link copied). */
int sbx_view_add(sbx_view *v, const char *dst, int fd, const char *link, bool file);
void sbx_view_done(sbx_view *v);

/* Resolve path (relative ones against cwd) inside the view, following every
 * symlink within the view (at most 40). On success *ret_fd is an O_PATH fd of
 * the final object and ret_path its canonical sandbox path. */
int sbx_view_resolve(const sbx_view *v, const char *path, const char *cwd, char ret_path[static PATH_MAX],
                     int *ret_fd);

#define SBX_EXEC_MAX_CHAIN 6  /* the command + 5 #! interpreters: exec_binprm() fails with ELOOP at depth > 5 */

typedef struct sbx_exec_file {
        char path[PATH_MAX];  /* canonical path in the sandbox */
        int fd;               /* O_PATH, -EBADF if none */
        char arg[256];        /* #! optional argument of the file *before* this one ("" = none) */
} sbx_exec_file;

typedef struct sbx_exec_target {
        /* chain[0] is the command; chain[i + 1] the #! interpreter of chain[i];
         * the last one is the binary the kernel loads (ELF, or not a script). */
        sbx_exec_file chain[SBX_EXEC_MAX_CHAIN];
        size_t n_chain;
        sbx_exec_file loader; /* PT_INTERP (ld-linux) of the last, fd -EBADF when static */
} sbx_exec_target;

void sbx_exec_target_init(sbx_exec_target *t);
void sbx_exec_target_done(sbx_exec_target *t);

/* execvp's lookup in the view: name with a '/' is resolved against workdir,
 * otherwise each PATH entry is tried; then #! interpreters and the ELF loader
 * are resolved the same way. Returns 0, -ENOENT (not found), -EACCES (found,
 * not an executable regular file), -ELOOP, -ENOEXEC (bad #! line). reterr
 * names the path at fault. */
int sbx_exec_resolve(const sbx_view *v, const char *name, const char *path_env, const char *workdir,
                     sbx_exec_target *ret, sbx_error *reterr);

/* The argv the child passes to execveat(chain[last].fd): the kernel's #!
 * rewrite done by us, since a CLOEXEC script fd cannot be handed to the
 * interpreter as /dev/fd/N. argv[0] is kept for plain binaries. NULL-terminated,
 * pointers into t and argv; free() the array only. */
char **sbx_exec_argv(const sbx_exec_target *t, char *const *argv);
/* Where O_PATH fds are reopened to read their head (#!, ELF): an fd of our
 * /proc/self/fd opened before setns() into a sandbox (its /proc does not
 * show us); -1: /proc/self/fd (the default). */
void sbx_exec_resolve_set_proc_fd_dir(int dirfd);

/* ---- from exec-allow.h ---- */
/* The exec decision (issue 6): a pure function of the resolved command and
 * the exec allowlist, made in the parent before anything is created.
 *
 * Patterns follow OpenClaw's exec-approvals allowlist (spec §5.5): a bare
 * "*" matches every executable; other patterns count only if they contain
 * '/', '\' or '~' (bare names such as "rg" never match); "~" is the sandbox
 * HOME; "**" matches across '/', "*" within one segment, "?" one non-'/'
 * character; anchored at both ends, case-sensitive; matched against the
 * resolved absolute path. sbx adds one thing: a pattern without wildcards is
 * itself resolved in the sandbox (so "/bin/sh" names the file /bin/sh leads
 * to), and the decision is on that file.
 *
 * Every file the kernel will execute for the command is decided on: the
 * command and each #! interpreter (a script is only as narrow as its
 * interpreter). The ELF loader (ld-linux) is implied, never decided on. */



typedef struct sbx_exec_rules {
        bool active;                  /* false: no allowlist, every command allowed */
        char *const *patterns;
        size_t n_patterns;
        const char *const *resolved;  /* per pattern: its file resolved in the sandbox, or NULL */
        const char *key;              /* option / config key the list comes from */
        const char *refuse_all_rule;  /* set: every exec refused with this rule ... */
        const char *refuse_all_key;   /* ... and this config key */
} sbx_exec_rules;

typedef struct sbx_exec_verdict {
        bool decided;                 /* false: no decision was made (error before) */
        bool allow;
        char file[4096];              /* the file refused, or the command's resolved file */
        char rule[512];               /* "exec-allow: '/usr/bin/id' matches no pattern of --exec-allow" */
        char key[128];                /* config key / option behind the rule */
        int status;                   /* sbx exit status when refused (126) or not found (127), else 0 */
} sbx_exec_verdict;

/* OpenClaw glob semantics; true when pattern matches the whole path. */
bool sbx_exec_glob_match(const char *pattern, const char *path);
/* True when the pattern has wildcards (then it is not resolved as a path). */
bool sbx_exec_pattern_is_glob(const char *pattern);
/* Index of the first pattern allowing path (resolved: the pattern's own
 * resolved file or NULL), or -1. */
int sbx_exec_allow_match(const sbx_exec_rules *r, const char *path);
/* Decide on every file of t. Pure: no syscalls. */
void sbx_exec_decide(const sbx_exec_rules *r, const sbx_exec_target *t, sbx_exec_verdict *ret);

/* ---- from audit.h ---- */
/* The audit log (issue 6): JSON Lines, one record per event, appended by the
 * parent only (the child never writes it). Default: <state dir>/audit.jsonl
 * (the base state dir, next to the run-* dirs), mode 0600.
 *
 * Records (all have "time" (RFC 3339 UTC, ms), "event", "agent", "session",
 * "scopeKey" (null when not run for an agent)):
 *   exec     argv, resolved (file the decision is on), decision allow|deny,
 *            rule, configKey
 *   start    pid (host), argv
 *   exit     exitCode | signal, status (sbx's exit status)
 *   timeout  timeoutSec (the sandbox was killed)
 *   oom      message (memory limit kill, from the cgroup)
 *   seccomp-kill  signal 31 (the workload died of SIGSYS)
 *   setup-error   message, status */


typedef struct sbx_audit {
        int fd;                         /* -EBADF: auditing off */
        const char *agent, *session, *scope_key;  /* not owned, may be NULL */
        const char *container;          /* sbx-runc: the container id, a "container" key; NULL: none */
} sbx_audit;

/* path NULL: <base>/audit.jsonl; base created 0711 if missing. */
int sbx_audit_open(sbx_audit *a, const char *path, const char *base, sbx_error *reterr);
void sbx_audit_close(sbx_audit *a);
int sbx_audit_exec(const sbx_audit *a, char *const *argv, const sbx_exec_verdict *v);
/* issue 14: an execve/execveat the seccomp listener saw in a sandbox (event
 * "exec-seen"): pid (host), the path as asked, argv (bounded), the verdict of
 * the sandbox's rules on the file it resolves to. Written only while the log
 * (a regular file) is smaller than SBX_AUDIT_SEEN_MAX; the record that
 * crosses it is followed by one "exec-seen-limit" record; later ones are
 * dropped (-EFBIG). */
#define SBX_AUDIT_SEEN_MAX ((off_t) 16 << 20)
int sbx_audit_exec_seen(const sbx_audit *a, int pid, const char *path, char *const *argv, bool argv_truncated,
                        const sbx_exec_verdict *v);
int sbx_audit_start(const sbx_audit *a, int pid, char *const *argv);
/* status: sbx's exit status; raw: the workload's (code, or 128+signal). */
int sbx_audit_exit(const sbx_audit *a, int status, bool timed_out, const char *oom_message);
int sbx_audit_setup_error(const sbx_audit *a, int status, const sbx_error *e);

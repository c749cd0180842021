/* SPDX-License-Identifier: MIT */
/* runtime/launch/launch.h: the public interface of runtime/launch/ (see ARCHITECTURE.md). */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <limits.h>
#include <signal.h>
#include <termios.h>

#include "cgroup/cgroup.h"
#include "util/util.h"
#include "security/security.h"
#include "net/net.h"

/* ---- from run-config.h ---- */
/* Everything `sbx run` can be told, as one plain C struct (issue 2).
 *
 * Data flow: CLI options (runtime/cli/cli-run.c) or openclaw.json (policy/, via the
 * policy engine) -> struct sbx_run_config -> sbx_plan_prepare() -> clone3.
 * No json-c here: the policy engine copies values in, and nothing in this
 * struct points into a parser's memory.
 *
 * Ownership: every char * field and array (rootfs, workspace, workdir,
 * hostname, state_dir, envv, dns, extra_hosts, binds, tmpfs) is malloc'd and
 * freed by sbx_run_config_free(); use the sbx_run_config_add_* helpers or
 * strdup() to fill them. Not owned: argv (points into the caller's argv) and
 * seccomp.profile_path. */



typedef enum sbx_workspace_access {
        SBX_WORKSPACE_NONE,   /* /workspace = overlay over the dir, writes land in the per-run upper */
        SBX_WORKSPACE_RO,     /* /workspace and /agent = the dir, read-only */
        SBX_WORKSPACE_RW,     /* /workspace = the dir itself, writes go through */
        _SBX_WORKSPACE_ACCESS_MAX,
        _SBX_WORKSPACE_ACCESS_INVALID = -EINVAL,
} sbx_workspace_access;

typedef enum sbx_network_mode {
        SBX_NETWORK_NONE,     /* new, empty network namespace with lo up */
        SBX_NETWORK_BRIDGE,   /* + eth0: veth on sbx0 with NAT as root, pasta otherwise (issue 7, net.h) */
        SBX_NETWORK_CONTAINER, /* the network namespace of the persistent sandbox network_container */
        _SBX_NETWORK_MODE_MAX,
        _SBX_NETWORK_MODE_INVALID = -EINVAL,
} sbx_network_mode;

typedef struct sbx_bind {
        char *src;            /* host path (absolute) */
        char *dst;            /* path in the sandbox (absolute) */
        bool ro;
        bool pinned;          /* src is the canonical path a policy check approved:
                               * opened as is, following no symlink, so one planted
                               * after the check fails the run instead of being bound */
} sbx_bind;

typedef struct sbx_tmpfs {
        char *path;           /* absolute path in the sandbox */
        uint64_t size;        /* bytes, 0 = the kernel default (half of RAM) */
        unsigned mode;        /* e.g. 01777 */
        bool noexec;          /* docker's noexec option (exec: false; the last one wins) */
} sbx_tmpfs;

typedef struct sbx_rlimit {
        int resource;         /* RLIMIT_* */
        uint64_t soft, hard;  /* RLIM_INFINITY allowed */
} sbx_rlimit;

#define SBX_RLIMITS_MAX 16
#define SBX_ID_UNSET ((uint32_t) -1)

typedef struct sbx_run_config {
        /* Root filesystem: NULL = the embedded default (host /usr, /bin, /lib*, /sbin
         * read-only on a fresh tmpfs). */
        char *rootfs;
        bool read_only_root;                  /* default true */
        /* read_only_root false with a rootfs: the image is the lower layer of an
         * overlay whose upper/work dirs live here. NULL = "root-upper" and
         * "root-work" in the per-run state dir (gone with the run); a persistent
         * sandbox points it at its own state dir (upper + work created inside). */
        char *root_layer_dir;

        /* Workspace: NULL = an empty per-run dir. */
        char *workspace;
        sbx_workspace_access workspace_access;
        /* ro only: no /agent view of the workspace (docker's -v SRC:/workspace:ro
         * is that one bind; OpenClaw binds its own /agent next to it) */
        bool workspace_no_agent;
        /* where the workspace is mounted: NULL = /workspace (docker: a -v at
         * --workdir, OpenClaw's docker.workdir, when none is at /workspace) */
        char *workspace_dst;
        /* docker's --workdir: a directory made (0755, the sandbox root's) in
         * the new root when missing, as runc makes the cwd, before the root is
         * made read-only; NULL: none */
        char *make_dir;
        /* A persistent sandbox: the "none" overlay's upper/work stay in the run
         * dir (sbx diff/commit read them). Otherwise they live on a tmpfs the
         * child makes and that goes with the run: nothing of the workload's
         * writes touches the state dir's file system (ext4: journal traffic). */
        bool keep_layers;
        /* issue 15: sbx created the workspace directory itself (the agent's
         * per-sandbox workspace, sbx create's <workspace root>/NAME). As root
         * on a file system without idmapped mounts (ramfs, NFS, tmpfs before
         * Linux 6.3) sbx may then give it to the sandbox's mapped owner
         * (chown); any other directory is refused there, with the reason. */
        bool workspace_sbx_owned;

        /* Process. argv is NULL-terminated; envv holds "K=V" strings set on top of
         * the sane defaults (PATH, HOME, LANG, TERM) which they may override. */
        char **argv;
        char **envv;
        size_t n_env;
        char *workdir;                        /* NULL = /workspace */
        uint32_t uid, gid;                    /* sandbox user; default 0:0 (no capabilities) */
        bool user_set;                        /* uid/gid given explicitly (an image's User yields) */
        char *hostname;                       /* NULL = "sbx" */

        sbx_rlimit rlimits[SBX_RLIMITS_MAX];
        size_t n_rlimits;

        /* Mounts. tmpfs NULL/0 = the defaults /tmp, /var/tmp, /run (docker.tmpfs). */
        sbx_tmpfs *tmpfs;
        size_t n_tmpfs;
        bool tmpfs_set;                       /* true: tmpfs replaces the defaults */
        sbx_bind *binds;
        size_t n_binds;

        /* Network. dns: nameserver addresses for resolv.conf; extra_hosts: "name:ip"
         * lines (docker.extraHosts) appended to /etc/hosts. */
        sbx_network_mode network;
        char *network_container;              /* SBX_NETWORK_CONTAINER: the sandbox's name or id */
        char *network_name;                   /* SBX_NETWORK_BRIDGE on a named network (issue 18), else NULL */
        bool allow_container_join;            /* dangerouslyAllowContainerNamespaceJoin */
        char **dns;
        size_t n_dns;
        char **extra_hosts;
        size_t n_extra_hosts;

        sbx_limits limits;
        sbx_seccomp_opts seccomp;

        /* setupCommand: run once with `sh -lc` inside the new sandbox, after its
         * mounts and network are up and before argv; a failure fails the run. */
        char *setup_command;

        unsigned timeout_sec;                 /* 0 = none */
        char *state_dir;                      /* NULL = $XDG_RUNTIME_DIR/sbx, /run/sbx, /tmp/sbx-$UID */
        /* issue 16: the state root whose templates/ holders this run uses
         * (a persistent sandbox's run: the root its sandboxes/ is in, shared
         * by all of them); NULL = the state dir's */
        char *template_base;
        bool tty;                             /* give the sandbox its own pty (default: stdin is a tty) */
        /* issue 5: notices for the user (limits not enforced under --limits
         * best-effort, an OOM kill); the CLI prints them. NULL = dropped. */
        void (*notice)(const char *msg);

        /* issue 6: exec decided before fork, kernel-enforced derived rules, audit.
         * exec_allow: OpenClaw allowlist patterns (owned, see exec-allow.h);
         * exec_allow_key names their source for messages and the audit log
         * ("--exec-allow", or the config key). */
        bool read_only_fs;                    /* Landlock: no writes outside tmpfs and /dev */
        char **exec_allow;
        size_t n_exec_allow;
        bool exec_allow_set;                  /* the allowlist is enforced (even when empty) */
        char *exec_allow_key;                 /* owned; NULL = "--exec-allow" */
        char *exec_refused_rule, *exec_refused_key;  /* owned; set: every exec refused (security deny,
                                                      * exec tool removed by the tool policy) */
        bool landlock_best_effort;            /* run without Landlock rules it cannot enforce, saying so */
        char *audit_log;                      /* NULL = <state base>/audit.jsonl */
        const char *agent, *session, *scope_key;  /* for the audit log, not owned */
        /* An executable sbx itself opened (sbx-init of a persistent sandbox):
         * run this fd, with argv, instead of looking argv[0] up in the sandbox.
         * Not owned; not subject to the exec allowlist (sbx's own binary). */
        bool exec_fd_set;
        int exec_fd;
} sbx_run_config;

void sbx_run_config_init(sbx_run_config *c);
void sbx_run_config_free(sbx_run_config *c);

/* Parsers shared by the CLI and the policy engine. Each returns 0 or a negative
 * errno and fills reterr naming the option/spec at fault. */
int sbx_parse_ulimit(const char *spec, sbx_rlimit *ret, sbx_error *reterr);        /* nofile=1024[:2048] */
const char *sbx_rlimit_name(int resource);                                          /* RLIMIT_NOFILE -> "nofile" */
int sbx_parse_tmpfs(const char *spec, sbx_tmpfs *ret, sbx_error *reterr);          /* /tmp[:size=64m,mode=1777] */
/* Docker's --tmpfs: noexec unless the options say exec (docker create, docker.tmpfs) */
int sbx_parse_tmpfs_docker(const char *spec, sbx_tmpfs *ret, sbx_error *reterr);
int sbx_parse_bind(const char *opt, const char *spec, sbx_bind *ret, sbx_error *reterr); /* SRC:DST[:ro|rw]; errors name OPT */
int sbx_parse_env(const char *spec, sbx_error *reterr);                            /* K=V validation */
int sbx_parse_user(const char *spec, uint32_t *ret_uid, uint32_t *ret_gid, sbx_error *reterr);
sbx_network_mode sbx_network_mode_from_string(const char *s);
const char *sbx_network_mode_to_string(sbx_network_mode m);
/* --network / docker.network VALUE: "none", "bridge", "container:NAME" (the
 * latter is checked against allow_container_join; the CLI passes true and
 * checks later with sbx_run_config_check_network(), order-free). */
int sbx_run_config_set_network(sbx_run_config *c, const char *value, bool allow_container_join,
                               sbx_error *reterr);
int sbx_run_config_check_network(const sbx_run_config *c, sbx_error *reterr);
/* a tmpfs at the workspace, /agent or a bind's target: refused, as docker's
 * "Duplicate mount point" */
int sbx_run_config_check_mounts(const sbx_run_config *c, sbx_error *reterr);
/* --memory SIZE / --memory-swap SIZE|-1 (-1: unlimited swap) into c->limits;
 * zero: a size of 0 is taken (docker's "no limit"), else refused. -EINVAL for
 * anything else (the caller names the option). */
int sbx_run_config_set_memory(sbx_run_config *c, bool swap, const char *value, bool zero);
sbx_workspace_access sbx_workspace_access_from_string(const char *s);
const char *sbx_workspace_access_to_string(sbx_workspace_access a);

/* Appenders (strdup their arguments). */
int sbx_run_config_add_env(sbx_run_config *c, const char *kv);
int sbx_run_config_add_bind(sbx_run_config *c, const sbx_bind *b);
int sbx_run_config_add_tmpfs(sbx_run_config *c, const sbx_tmpfs *t);
/* The run's tmpfs mounts: those configured (--tmpfs, also none), else the defaults /tmp, /var/tmp
 * and /run; *ret_n of them. */
const sbx_tmpfs *sbx_run_config_tmpfs(const sbx_run_config *c, size_t *ret_n);
/* T's mount options ("mode=1777,size=536870912"; without a size, the kernel's default). */
#define SBX_TMPFS_OPTIONS_MAX 96
void sbx_tmpfs_options(const sbx_tmpfs *t, char ret[static SBX_TMPFS_OPTIONS_MAX]);
/* nr_inodes= for a tmpfs of SIZE bytes */
uint64_t sbx_tmpfs_inodes(uint64_t size);
int sbx_run_config_add_rlimit(sbx_run_config *c, const sbx_rlimit *r);
/* The sandbox's host name (it lands in the UTS namespace and /etc/hosts):
 * RFC 1123, so no line can be injected; the message names OPTION. */
int sbx_check_hostname(const char *option, const char *name, sbx_error *reterr);
int sbx_run_config_add_dns(sbx_run_config *c, const char *ns);
int sbx_run_config_add_extra_host(sbx_run_config *c, const char *line);
int sbx_run_config_add_exec_allow(sbx_run_config *c, const char *pattern);

/* --image NAME[:TAG] (runtime/launch/image-run.c): resolve through the image store,
 * set rootfs, merge the image's Env under envv, take its WorkingDir unless
 * workdir is set and its User unless user_set. -ENOENT + "No such image: ..."
 * (with the command that builds or imports it) when missing. */
int sbx_run_config_apply_image(sbx_run_config *c, const char *name, sbx_error *reterr);
/* The home directory (field 6) of uid's line in rootfs's own /etc/passwd,
 * read inside rootfs (RESOLVE_IN_ROOT, a regular file): true and *ret set,
 * or false when there is none (image-run.c; sbx-runc's default HOME). */
bool sbx_rootfs_home(const char *rootfs, uint32_t uid, char *ret, size_t len);
/* docker's --user/User in a root's /etc/passwd and /etc/group (rootfs NULL:
 * sbx's default root, root and nobody): uid, uid:gid, name, name:group; a
 * bare uid's gid from passwd, else 0. ret_home (may be NULL): the user's
 * home there, "" if none. what names the value in errors. */
int sbx_rootfs_user(const char *rootfs, const char *user, const char *what, uint32_t *ret_uid, uint32_t *ret_gid,
                    char *ret_home, size_t home_len, sbx_error *reterr);

/* Run it: plan, clone3, supervise, tear down. Returns the exit status per the
 * contract in runtime/ERRORS.md (125 with *reterr filled when sbx failed). */
int sbx_run(const sbx_run_config *c, sbx_error *reterr);

/* ---- from plan.h ---- */
/* The launch plan: everything the child needs, decided and allocated in the
 * parent before clone3 (STYLE §A.3). The child only reads it: no malloc, no
 * JSON, no libseccomp after clone. A later `sbx exec` builds an sbx_exec_plan
 * the same way and runs sbx_exec_setup_child() after setns(). */



typedef enum sbx_mount_kind {
        SBX_MOUNT_TMPFS,      /* fresh tmpfs at dst (data = options) */
        SBX_MOUNT_BIND,       /* clone of src_fd (recursive) at dst, flags applied recursively */
        SBX_MOUNT_DETACHED,   /* move the prepared detached tree src_fd (e.g. idmapped) to dst */
        SBX_MOUNT_OVERLAY,    /* overlay at dst, data = "lowerdir=..,upperdir=..,workdir=..,userxattr" */
        SBX_MOUNT_PROC,       /* proc of the new pid ns at dst */
        SBX_MOUNT_DEVPTS,     /* devpts newinstance at dst, plus dev/ptmx symlink */
        SBX_MOUNT_MQUEUE,     /* mqueue at dst */
        SBX_MOUNT_SYMLINK,    /* symlink dst -> data */
        SBX_MOUNT_DIR,        /* mkdir -p dst */
        SBX_MOUNT_FILE,       /* create dst with contents data (in a tmpfs we own) */
        SBX_MOUNT_MASK,       /* hide dst (/dev/null on files, empty ro tmpfs on dirs); skipped if absent */
        SBX_MOUNT_READONLY,   /* make the mount at dst read-only (bind onto itself); skipped if absent */
        SBX_MOUNT_FS,         /* container: mount(fstype, dst, ms_flags, data), then propagation */
        SBX_MOUNT_DEVICE,     /* container: mknod dst (data: "c"/"b"/"p"), or bind the host node in a user ns */
        _SBX_MOUNT_KIND_MAX,
        _SBX_MOUNT_KIND_INVALID = -EINVAL,
} sbx_mount_kind;

enum {
        SBX_MNT_RO       = 1 << 0,
        SBX_MNT_NOSUID   = 1 << 1,
        SBX_MNT_NODEV    = 1 << 2,
        SBX_MNT_NOEXEC   = 1 << 3,
        SBX_MNT_OPTIONAL = 1 << 4,   /* a missing source/target is not an error */
        SBX_MNT_FILE     = 1 << 5,   /* the source is not a directory: bind onto a file */
        SBX_MNT_LOWER_IN_ROOT = 1 << 6, /* OVERLAY: the lower layer is what is mounted at dst now */
        SBX_MNT_SCRATCH  = 1 << 7,   /* OVERLAY: upper and work on a tmpfs the child makes (gone with
                                      * it), attached on `upper` (a dir in the run dir); src NULL =
                                      * an empty lower dir there too */
        SBX_MNT_COPYUP   = 1 << 8,   /* FS tmpfs: copy what was at dst into it (crun's "tmpcopyup") */
        SBX_MNT_TEMPLATE = 1 << 9,   /* issue 16: part of the shared read-only root a template holder
                                      * builds once (template.c); a run from a template skips it */
        SBX_MNT_NOT_ON_PROC = 1 << 10, /* an OCI mount: refused (EPERM) when its mountpoint, resolved
                                        * in the root, is on a procfs (runc's checkProcMount) */
};

typedef struct sbx_mount_op {
        sbx_mount_kind kind;
        unsigned flags;          /* SBX_MNT_* */
        int src_fd;              /* detached tree fd (DETACHED), else -EBADF */
        const char *src;         /* host path (BIND/OVERLAY lower), canonical, opened by the
                                  * child in its own mount ns with RESOLVE_NO_SYMLINKS */
        const char *upper, *work; /* OVERLAY: host paths of the upper and work dirs */
        const char *dst;         /* path relative to the new root, no leading '/' */
        const char *data;        /* fs options, symlink target or file contents */
        unsigned mode;           /* DIR/FILE mode */
        const char *what;        /* for error messages: the host path or option behind this op */
        /* container mounts (SBX_MOUNT_FS, and BIND/DETACHED from config.json) */
        const char *fstype;
        unsigned long ms_flags;  /* MS_* for mount(2) (FS) */
        unsigned long propagation; /* MS_SHARED/SLAVE/PRIVATE/UNBINDABLE (| MS_REC), 0 = leave */
        bool nonrecursive;       /* "bind" rather than "rbind" */
        unsigned long dev;       /* DEVICE: makedev(major, minor) */
        uint32_t dev_uid, dev_gid;
} sbx_mount_op;

typedef struct sbx_plan {
        /* identity */
        char state_dir[PATH_MAX];        /* per-run dir, removed by sbx_plan_free */
        int state_fd;                    /* O_DIRECTORY fd of state_dir */
        int lock_fd;                     /* flock held while the run lives (stale-dir collection) */
        const char *root_dir;            /* state_dir/root: where the new root is built */
        bool privileged;                 /* host root: map a subordinate id range */
        bool spawn_released;             /* spawn() wrote the maps and sent #1 (sbx run, issue 16) */
        uid_t host_uid;                  /* first host id of the mapping */
        gid_t host_gid;
        uint32_t map_count;              /* ids mapped (1 unprivileged) */
        uint32_t uid, gid;               /* sandbox user */
        char uid_map[512], gid_map[512]; /* map text written by the parent */
        bool ipc_owner;                  /* rootless as uid != 0 (ipc14): the child's user namespace
                                          * is nested in one mapping 0 to the caller, which owns its
                                          * IPC namespace (so the child may bound it: ipc-limits.c);
                                          * the child maps "uid 0 1" */
        bool setgroups_allow;            /* container with its own maps: keep setgroups(2) */
        char inotify_instances[24];      /* user.max_inotify_{instances,watches} of the new user ns: */
        char inotify_watches[24];        /* an eighth of its creator's (userns.c) */
        char fanotify_groups[24];        /* user.max_fanotify_{groups,marks}: the same ("": */
        char fanotify_marks[24];         /* a kernel without fanotify) */

        /* mounts, in order */
        sbx_mount_op *mounts;
        size_t n_mounts;
        bool read_only_root;
        const char *make_dir;            /* the config's: made before / is read-only, or NULL */
        /* --writable-root over a rootfs (overlay.c): the root is an overlay of
         * the image (lower), upper and work; upper == NULL: a tmpfs root. */
        struct {
                const char *lower, *upper, *work;
                int lower_tree;          /* as root: the image, idmapped to the sandbox ids */
                bool is_volatile;        /* per-run layers: no syncs needed */
                /* under an exec allowlist (exec-decide.c): the overlay is
                 * noexec, and exec_dirs (relative, each a directory or an
                 * allowed file of the image) are bound onto themselves
                 * read-only, keeping exec */
                bool noexec;
                const char *exec_dirs[24];
                unsigned n_exec_dirs;
        } root_overlay;
        char **owned;                    /* every string the plan allocated */
        size_t n_owned;

        /* process */
        const char *hostname;
        char **argv;                     /* NULL-terminated */
        char **envp;                     /* NULL-terminated, built by the parent */
        const char *path_env;            /* the sandbox's PATH value for command lookup */
        const char *workdir;
        const char *setup_command;       /* setupCommand, NULL = none */
        sbx_rlimit rlimits[SBX_RLIMITS_MAX];
        size_t n_rlimits;
        int cap_last;                    /* /proc/sys/kernel/cap_last_cap */

        /* kernel objects prepared in the parent */
        sbx_bpf bpf;
        sbx_cgroup cgroup;
        int cgroup_tasks[SBX_CGROUP_V1_MAX]; /* v1: each hierarchy's "tasks", open for the child to join
                                              * (sbx_cgroup_open_tasks), -EBADF where unused */
        bool tty;                        /* the sandbox gets a pty from its own devpts */
        int tty_fd;                      /* child: the pty slave, -EBADF for none */
        int tty_master;                  /* parent: the master, received over the sync socket */
        int passed_tty;                  /* without -t: the caller's terminal among fds 0-2, -1 none */
        struct termios passed_tio;       /* ... its modes, read before the spawn, put back at the end */
        unsigned passed_ttys;            /* ... bit fd: fds 0-2 that are terminals (output restarted at the end) */
        unsigned passed_nxcl;            /* ... bit fd: those not in exclusive mode (TIOCNXCL at the end) */
        int passed_fl[3];                /* without -t: fds 0-2's file status flags (O_NONBLOCK, O_ASYNC...:
                                          * a terminal's, pipe's or socket's open file description is the
                                          * caller's too), put back at the end; -1 none */
        dev_t passed_dev[3];             /* without -t: fds 0-2's files (a terminal, a FIFO), -1 none ... */
        ino_t passed_ino[3];
        mode_t passed_mode[3];           /* ... and their modes, put back at the end (a rootless
                                          * sandbox owns them: fchmod 0666 of the operator's terminal) */

        int ignored_signals[64];         /* SIG_IGN in sbx, reset to SIG_DFL in the child */
        size_t n_ignored_signals;
        sbx_net_plan net;                /* network (issue 7): host side + rendered /etc files */

        unsigned timeout_sec;
        int sync_fd;                     /* child's end of the sync socket (in the child) */

        /* issue 6: the exec decided in the parent (exec-decide.c) */
        sbx_exec_target *exec_target;    /* the resolved command; owns the fds and paths below */
        int exec_fd;                     /* O_PATH fd execveat runs (borrowed from exec_target) */
        bool exec_fd_own;                /* it is sbx's own binary (sbx-init), not a file of the sandbox */
        struct sock_filter *notify_insns; /* issue 14: the exec log's filter (owned), NULL: no exec log */
        unsigned short notify_len;
        uint64_t notify_cookie;          /* ... and the cookie of our own execveat it lets through */
        bool memfd_noexec;               /* issue 14: under an exec allowlist, as host root: the pid ns's
                                          * vm.memfd_noexec = 2 (Landlock does not see memfd files) */
        int setup_sh_fd;                 /* setupCommand: /bin/sh resolved in the sandbox, or -EBADF */
        char **exec_argv;                /* argv for it, #! rewrite done; NULL-terminated */
        sbx_landlock landlock;           /* ruleset built before clone3 */

        /* An OCI container (container.c): NULL for sbx's own sandboxes. */
        const struct sbx_container *container;
        uint64_t clone_flags;            /* container: the namespaces to create */
        const char *root_bind;           /* container: the rootfs, bound onto itself as the new root */
        unsigned long root_propagation;  /* container: rootfsPropagation, 0 = private */
        bool no_pivot;                   /* container (--no-pivot): MS_MOVE onto / + chroot (mount.c) */

        /* issue 16: a template mount namespace (template.c). Decided in the
         * parent before clone3: eligible (sbx_mount_prepare: the plan's
         * SBX_MNT_TEMPLATE ops are a root a holder can keep), then used once a
         * live, fresh holder was found or built; the child then runs only the
         * other ops, in a copy of the holder's mount table, without pivot_root. */
        struct {
                bool eligible;
                bool shared_only;                /* rootless below SBX_TEMPLATE_THREADS host threads:
                                                  * used only by a spawner on our memory
                                                  * (spawn_template_shared), not a forked one */
                bool used;
                const char *dir;                 /* <state base>/templates */
                char key[65];                    /* sha256 of the template part, hex */
                int holder_pidfd;                /* -EBADF */
                int use_fd;                      /* the launcher's shared lock on the holder's `use`
                                                  * file from the acquire to the clone: -EBADF */
                bool direct;                     /* root: the holder has no user namespace of its own; the
                                                  * launcher enters its mount namespace for the clone
                                                  * (sbx_template_enter_mnt), no spawner */
                pid_t spawner;                   /* the launcher's: the spawner, reaped after the release */
                int fatal_fd;                    /* > 0: where a failed return from the holder's
                                                  * namespace is reported (a persistent sandbox's start
                                                  * has init's stdio at 0-2); else stderr */
                int host_proc;                   /* the child's: the host's /proc (the template's shows the
                                                  * holder alone), for its own maps; 0 = none */
        } tmpl;
} sbx_plan;

int sbx_plan_prepare(const sbx_run_config *c, sbx_plan **ret, sbx_error *reterr);
/* The same, and the exec decision in *ret_verdict (filled whenever one was
 * made, also on refusal: then the return is -EACCES and status 126). */
int sbx_plan_prepare_decided(const sbx_run_config *c, sbx_plan **ret, sbx_exec_verdict *ret_verdict,
                             sbx_error *reterr);
/* Parent, after sbx_exec_prepare: resolve the command in the plan's view,
 * decide, open the exec fd, build the Landlock ruleset (exec-decide.c). */
/* network container:NAME needs NAME's network and user namespaces and its
 * init's /proc/<pid>; only the persistent-sandbox layer above can find them
 * (sandbox/sandbox.c: sbx_sandbox_open_ns). main.c hands that function to the
 * launcher once at start-up, so the launcher never includes an upper layer.
 * Unset, container:NAME fails with -ENOTSUP. */
typedef int (*sbx_container_ns_opener)(const char *ref, int *ret_netns, int *ret_userns, int *ret_proc,
                                       sbx_error *reterr);
void sbx_plan_set_container_opener(sbx_container_ns_opener fn);
/* The sandbox file system as the plan describes it (parent, before clone;
 * exec-decide.c). */
int sbx_view_from_plan(const sbx_plan *p, sbx_view *ret, sbx_error *reterr);
int sbx_exec_decide_prepare(sbx_plan *p, const sbx_run_config *c, sbx_exec_verdict *ret_verdict,
                            sbx_error *reterr);
/* sbx exec, after setns() into a live sandbox (root_fd -EBADF): resolve the
 * command in its root, decide on it against c's rules (exec refused /
 * allowlist, issue 14), set exec_fd/exec_argv and build the same Landlock
 * ruleset as the sandbox's init has (a domain does not follow setns;
 * writable: the sandbox's tmpfs paths, for read_only_fs). From outside
 * (root_fd: /proc/<init>/root, the exec service of issue 16): the same in
 * that tree, without a ruleset (the command inherits init's domain).
 * Returns 0 or the exit status (127, 126, 125) with reterr filled;
 * *ret_verdict is filled whenever a decision was made. */
int sbx_exec_resolve_joined(sbx_plan *p, const sbx_run_config *c, int root_fd, const char *const *writable,
                            size_t n_writable, sbx_exec_verdict *ret_verdict, sbx_error *reterr);
/* issue 14: the verdict c's rules give to an exec a sandboxed process asked
 * for (the exec log): path (relative: to cwd, a sandbox path) resolved in
 * the view whose root is root_fd (/proc/<pid>/root). Pure but for reads.
 * 0 with *ret filled (decided), or a negative errno. */
int sbx_exec_decide_path(const sbx_run_config *c, int root_fd, const char *path, const char *cwd,
                         sbx_exec_verdict *ret);
/* issue 14: start the exec log's listener process for one joined exec
 * (exec-listen.c): parent, before setns. *ret_sock is where the listener fd
 * the child sends (SBX_SYNC_LISTENER) is to be passed on; closing it without
 * doing so ends the listener. c (its exec rules; now: the current ones of a
 * stale sandbox, also applied, may be NULL) and audit are copied by the fork.
 * log_all: every exec (a sandbox's exec log), else only the refused ones
 * (sbx run, whose own record is the decision before fork). *ret_pid (may be
 * NULL): the listener, our child. */
int sbx_exec_listener_start(const sbx_run_config *c, const sbx_run_config *now, const sbx_audit *audit, bool log_all,
                            int *ret_sock, pid_t *ret_pid, sbx_error *reterr);
/* issue 14: the exec log daemon of a persistent sandbox (exec-listen.c):
 * one process outside the sandbox serving the listeners of every exec into
 * it, so an exec costs no fork. Connects to <dir>/exec-log.sock, starting
 * the daemon first if none answers (it then serves c's rules, writes to
 * audit, and exits once init_pidfd's process is gone and no tree is left).
 * *ret_conn takes one SBX_SYNC_LISTENER record. Parent, before setns. */
int sbx_exec_log_connect(const char *dir, const sbx_run_config *c, const sbx_audit *audit, int init_pidfd,
                         int *ret_conn, sbx_error *reterr);
/* ---- from template.c (issue 16) ---- */
/* Parent, before clone3, for an eligible plan: find the live holder of p's
 * template (pidfd + recorded start time), or build one (under the template's
 * lock), checking that every host file it bound is still the same inode;
 * sets p->tmpl.used and holder_pidfd. Any failure: -errno, p unchanged, and
 * the run builds its root as before (same view). */
int sbx_template_acquire(sbx_plan *p);
/* The clone is done: the holder is not in use by this run any more (its
 * `use` lock let go; a collection by another sbx binary may stop it). */
void sbx_template_release(sbx_plan *p);
/* The spawner's part (a forked child of the launcher, rootless): enter the
 * holder's user and mount namespaces. */
int sbx_template_enter(const sbx_plan *p);
/* Root (p->tmpl.direct): the launcher itself enters the holder's mount
 * namespace (of the initial user namespace) around its clone, no spawner.
 * sbx_template_enter_mnt: our own mount namespace, root and cwd kept as
 * CLOEXEC fds in *back, then setns(holder, CLONE_NEWNS); -errno and nothing
 * entered on failure (the run then builds its root). Between the two calls
 * nothing may resolve a path (it would resolve in the template's tree).
 * sbx_template_leave: back (setns, root, cwd), the fds closed; a no-op when
 * nothing was entered; -errno when it failed: the caller must not go on. */
struct sbx_template_back {
        bool entered;
        int mnt, root, cwd;     /* -EBADF */
};
int sbx_template_enter_mnt(const sbx_plan *p, struct sbx_template_back *back);
int sbx_template_leave(struct sbx_template_back *back);
/* The holder's own image (main.c, argv[0] "sbx-template", pid 1 of its pid
 * namespace): non-dumpable, signals ignored, until fd 0 (the watch on its
 * template dir) says the dir is gone. */
int sbx_template_holder_main(void);
/* sbx rm -f --all: kill every holder under base/templates, remove the dirs.
 * Returns the number removed or -errno. */
int sbx_template_remove_all(const char *base);
/* Closes every fd, removes the state dir. NULL-safe. Returns NULL. */
sbx_plan *sbx_plan_free(sbx_plan *p);
static inline void sbx_plan_freep(sbx_plan **p) {
        if (*p)
                *p = sbx_plan_free(*p);
}

/* An empty plan, every fd -EBADF (NULL: out of memory). */
sbx_plan *sbx_plan_new(void);
/* Plan building blocks used by the facility *_prepare functions. */
const char *sbx_plan_strdup(sbx_plan *p, const char *s);
const char *sbx_plan_strdupf(sbx_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
sbx_mount_op *sbx_plan_add_mount(sbx_plan *p, sbx_mount_kind kind, const char *dst, sbx_error *reterr);

/* ---- from launch.h ---- */
/* The launcher's steps that persistent sandboxes (sandbox.c) reuse. */



/* -EDEADLK unless the process has exactly one thread (clone3/setns need it). */
int sbx_assert_single_threaded(sbx_error *reterr);
/* clone3 with every namespace, then the id maps (as sbx_run() does). The
 * caller blocked the forwarded signals (oldmask is what the child restores).
 * Returns 0 with the child's pidfd and the parent's end of the sync socket;
 * the child runs the plan and execs its command without further handshake.
 * On failure the child is killed and reaped. */
int sbx_launch_start(sbx_plan *p, const sigset_t *oldmask, int *ret_pidfd, int *ret_sync, sbx_error *reterr);
/* After the child exited with status: the setup error it reported, if any
 * (fills *reterr, returns the status sbx should report), else status. */
int sbx_launch_child_error(int sync_parent, int status, sbx_error *reterr);
/* The pid a pidfd refers to (from /proc/self/fdinfo), -1 if unknown. */
pid_t sbx_pidfd_pid(int pidfd);

/* ---- from exec.h ---- */
/* The last steps before the workload runs, shared by `sbx run` (after the
 * mounts) and a future `sbx exec` (after setns into a running sandbox):
 * rlimits -> setsid + session keyring -> capabilities + user -> no_new_privs
 * -> Landlock -> close_range sweep -> chdir -> seccomp -> execveat of the fd the
 * parent resolved and decided on (exec-decide.c). */



typedef struct sbx_exec_plan {
        char *const *argv;               /* NULL-terminated */
        char *const *envp;               /* NULL-terminated */
        const char *path_env;            /* PATH used to look argv[0] up, inside the sandbox */
        const char *workdir;
        const sbx_rlimit *rlimits;
        size_t n_rlimits;
        int cap_last;
        uint32_t uid, gid;
        const sbx_bpf *bpf;
        int tty_fd;                      /* pty slave: becomes fds 0-2 and the ctty; -EBADF = inherit */
        int exec_fd;                     /* issue 6: O_PATH fd decided on in the parent */
        char *const *exec_argv;          /* argv for exec_fd (#! rewrite done) */
        const char *exec_path;           /* issue 14: exec_fd's canonical path in the sandbox; the child
                                          * runs the file reopened there (the same inode, checked), so
                                          * /proc/self/exe is the sandbox's view; NULL: exec_fd as is */
        const sbx_landlock *landlock;    /* NULL: none */
        const sbx_landlock *landlock_now; /* issue 14: a stale sandbox's current rules, stacked on top */
        /* A stale sandbox whose current rules need mount flags its mounts were
         * not made with (join.c): the command gets its own copy of the mount
         * table, every writable mount but tmpfs and /dev read-only, and/or
         * every writable mount noexec but where landlock_now lets a file run. */
        bool mounts_ro_now, mounts_noexec_now;
        const char *const *root_exec_dirs_now; /* the writable root's noexec + read-only binds */
        size_t n_root_exec_dirs_now;
        bool root_noexec_now;
        int setup_sh_fd;                 /* setupCommand's /bin/sh, decided in the parent */
        bool parent_outside_pidns;       /* sbx exec (join.c): the parent is outside our pid ns, so a
                                          * non-zero getppid() after PR_SET_PDEATHSIG means it died */
        bool parent_is_notify_sock;      /* a run's pid 1 (launch.c): notify_sock is the launcher's
                                          * sync socket, so its EOF after PR_SET_PDEATHSIG means it died */
        /* issue 14: the exec log. Set: install this filter with a new
         * listener just before seccomp and send the listener over
         * notify_sock (SBX_SYNC_LISTENER); the parent hands it to the exec
         * listener (exec-listen.c), so our own execveat is the first exec seen. */
        const struct sock_filter *notify_insns;
        unsigned short notify_len;
        int notify_sock;
        uint64_t notify_cookie;          /* passed as execveat's unused sixth argument */
        /* An OCI container's process (container.c): exactly the spec's
         * credentials instead of sbx's "no capabilities, no_new_privs". */
        const struct sbx_container_proc *proc;
        bool keyring_joined;             /* the fresh session keyring was joined before the id switch
                                          * (launch.c child_main): new_session joins none */
} sbx_exec_plan;
/* Under an exec allowlist, the writable root mount ROOTFD noexec and DIRS
 * beneath it bound onto themselves read-only with exec (mount.c). */
int sbx_mount_exec_binds(int rootfd, const char *const *dirs, size_t n, sbx_error *reterr);
/* issue 14: a random non-zero cookie for the exec log filter. */
uint64_t sbx_exec_cookie(void);

/* Parent: argv, env, workdir, rlimits and hostname into the plan. */
int sbx_exec_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* The sbx_exec_plan view of a run plan. */
void sbx_exec_plan_from(const sbx_plan *p, sbx_exec_plan *ret);

/* Child: never returns on success. On failure fills *reterr and returns the
 * exit status sbx should report (125 setup, 126 not executable, 127 not
 * found). Async-signal-safe, no allocation. */
int sbx_exec_setup_child(const sbx_exec_plan *e, sbx_error *reterr);

/* setupCommand (issue 8), child side, inside the sandbox's namespaces with
 * its mounts and network in place: fork, run `/bin/sh -lc cmd` through
 * sbx_exec_setup_child() (the same user, capabilities, no_new_privs, seccomp
 * and workdir as the workload), stdin /dev/null, stdout and stderr on our
 * fd 2, and wait for it. 0 when it exited 0; else a negative errno with
 * reterr naming setupCommand and the exit status or signal. Used by `sbx
 * run` before the command, and callable by a persistent sandbox's create.
 * Async-signal-safe, no allocation. */
int sbx_exec_setup_command_child(const sbx_exec_plan *e, const char *cmd, sbx_error *reterr);

/* ---- from caps.h ---- */
/* Capabilities: every set emptied before exec, root made powerless. */


int sbx_caps_prepare(sbx_plan *p, sbx_error *reterr);
/* Child: lock securebits, drop the bounding set, switch to the sandbox user,
 * clear ambient/inheritable/permitted/effective. Async-signal-safe. */
int sbx_caps_setup_child(int cap_last, uint32_t uid, uint32_t gid, sbx_error *reterr);

/* ---- from sync.h ---- */
/* Parent <-> child handshake over one SOCK_SEQPACKET|SOCK_CLOEXEC pair
 * (STYLE §D.14). Fixed-size records, numbered at both ends:
 *   #1 parent -> child  SBX_SYNC_MAPS_WRITTEN  id maps are in place, go on
 *   #2 child -> parent  SBX_SYNC_PTY           (--tty only) the master of a pty made in
 *                                              the sandbox's own devpts, as SCM_RIGHTS
 *   #3 child -> parent  SBX_SYNC_ERROR         setup or exec failed (status + sbx_error)
 *      or EOF on the child's CLOEXEC end       the exec happened
 * Every read has a timeout; EOF from the peer aborts. */



enum {
        SBX_SYNC_MAPS_WRITTEN = 1,
        SBX_SYNC_ERROR = 2,
        SBX_SYNC_PTY = 3,
        SBX_SYNC_LISTENER = 4,  /* issue 14: child -> parent, the exec log's seccomp listener (SCM_RIGHTS) */
        /* OCI containers (container.c): */
        SBX_SYNC_HOOKS = 5,      /* child -> parent: run prestart/createRuntime hooks now */
        SBX_SYNC_CONTINUE = 6,   /* parent -> child: they passed */
        SBX_SYNC_READY = 7,      /* child -> parent: set up, stopped before exec */
};

typedef struct sbx_sync_msg {
        uint32_t seq;           /* the sync point number */
        uint32_t type;          /* SBX_SYNC_* */
        int32_t status;         /* SBX_SYNC_ERROR: the exit status sbx should return */
        sbx_error error;
} sbx_sync_msg;

int sbx_sync_pair(int ret_fds[2], sbx_error *reterr);
/* The same pair as the parent's end and the child's. */
int sbx_sync_open(int *ret_parent, int *ret_child, sbx_error *reterr);
/* Async-signal-safe. */
int sbx_sync_send(int fd, uint32_t seq, uint32_t type, int status, const sbx_error *e);
/* Child: true when the other end is closed and nothing is left to read (the parent died).
 * After a PR_SET_PDEATHSIG (credential changes clear it): a parent that died before it is not
 * signalled, and getppid() says nothing to a pid namespace's init. Async-signal-safe. */
bool sbx_sync_peer_gone(int fd);
/* Same, passing pass_fd along with SCM_RIGHTS. */
int sbx_sync_send_fd(int fd, uint32_t seq, uint32_t type, int pass_fd);
/* 0 and *ret filled; -EPIPE on EOF; -ETIMEDOUT; -EPROTO on a bad record. */
int sbx_sync_recv(int fd, int timeout_ms, sbx_sync_msg *ret);
/* Same, and *ret_fd gets a passed fd (CLOEXEC) or -EBADF. */
int sbx_sync_recv_fd(int fd, int timeout_ms, sbx_sync_msg *ret, int *ret_fd);

/* Sets ARGS so that clone3 starts the child inside the plan's cgroup, when it has one; -EOPNOTSUPP
 * when sbx was built without CLONE_INTO_CGROUP. */
int sbx_clone_into_cgroup(const sbx_plan *p, struct clone_args *args);

/* ---- from supervise.h ---- */
/* The parent while the sandbox runs: pidfd wait, signal forwarding, timeout,
 * pty relay, exit status. */



/* Parent, before clone3: whether the sandbox gets a terminal. */
int sbx_supervise_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Child, after /dev/pts is mounted: a pty pair in the sandbox's own devpts.
 * The slave is chowned to the sandbox user. Async-signal-safe. */
int sbx_tty_setup_child(uint32_t uid, uint32_t gid, int *ret_master, int *ret_slave, sbx_error *reterr);
/* Parent: adopt the master; copy the caller's termios and window size. */
void sbx_tty_attach(sbx_plan *p, int master);
/* Parent, before clone3: block the forwarded signals (the child unblocks). */
int sbx_supervise_block_signals(sigset_t *ret_old);
/* With a pty (MASTER >= 0), the caller's terminal (stdin) goes raw; true when it did, *saved then
 * holds the settings to put back (tcsetattr) at the end. */
struct termios;
bool sbx_tty_make_raw(int master, struct termios *saved);
/* A signalfd (CLOEXEC, non-blocking) for the signals a supervisor passes on to the command; they must
 * be blocked. */
int sbx_supervise_signalfd(void);
/* Parent: run until the sandbox's pid 1 exits; return the exit status
 * (the command's, 128+N for signal N, SBX_EXIT_TIMEOUT on --timeout). */
int sbx_supervise(sbx_plan *p, int pidfd, sbx_error *reterr);

/* Copy what is readable from `from` to `to`; false on EOF or error (pty relays). */
bool sbx_relay(int from, int to);

/* ---- from stdio-guard.c: a pipe, never a host file or the caller's terminal, as a sandbox's stdio ---- */
/* Before a command that hands its stdio to a sandbox (run, exec): a stdout or
 * stderr that is a file (regular, directory, block device) becomes a pipe
 * copied into that file by a relay process outside the sandbox, so that no
 * sandbox holds the host file. 0: nothing to guard; 1: guarded (sbx waits
 * at exit until the relay emptied the pipes); -errno. */
int sbx_stdio_guard(void);

/* A command run in a sandbox without a pty (no -t) never gets the caller's
 * terminal (it would read what the user types after sbx returned, change the
 * terminal's modes): each of our fds 0-2 that is a terminal (0 only
 * WITH_STDIN: the command's stdin is ours) becomes a pipe until
 * sbx_tty_guard_stop, copied to and from the terminal by a relay process
 * outside the sandbox. 0: nothing to guard; 1: guarded; -errno (nothing
 * changed). Before any fd the relay must not hold (locks, sockets) exists. */
typedef struct sbx_tty_guard {
        pid_t relay;                    /* 0: not guarded (any more) */
        int ctl;                        /* the relay's control socket, our end */
        int saved[3];                   /* our fds 0-2 as they were (CLOEXEC copies), -EBADF */
} sbx_tty_guard;
int sbx_tty_guard_start(sbx_tty_guard *g, bool with_stdin);
/* The command ended (or never ran): our fds 0-2 are the terminal again, the
 * relay copies what the output pipes hold and ends (waited for, 5 s at most).
 * Nothing a sandbox kept holds the terminal. Safe to call when not guarded. */
void sbx_tty_guard_stop(sbx_tty_guard *g);
/* A command left running (sbx-runc exec --detach): our fds are the terminal
 * again, the relay goes on until the process PIDFD names ends (pidfd is
 * ours still). 0: not guarded, 1, -errno (then stopped). */
int sbx_tty_guard_detach(sbx_tty_guard *g, int pidfd);

/* ---- from statedir.h ---- */
/* The per-run state directory: new-root mountpoint, overlay upper/work, the
 * default empty workspace, generated /etc files. Removed after every run. */


/* The base dir the run-* dirs (and audit.jsonl) live in. */
int sbx_statedir_base(const sbx_run_config *c, char *buf, size_t len);
int sbx_statedir_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* A host path a sandbox will see (canonical; opt names it) must not show
 * it the state dir base (every sandbox's record and exec service: rootless,
 * the sandbox's root owns them): -EPERM if path is, holds or lies in it. */
int sbx_statedir_outside(const char *path, const char *base, const char *opt, sbx_error *reterr);
/* A host mount source (opt names it in errors) opened from / following no
 * symlink in any component (a relative path: from the cwd), and its
 * canonical path read back from that fd into *ret (malloc'ed). -ELOOP, the
 * error naming the link and the path without links, for a path through
 * one. (mount-source.c) */
int sbx_mount_source_resolve(const char *path, const char *opt, char **ret, sbx_error *reterr);
int sbx_statedir_chown(sbx_plan *p, sbx_error *reterr);
/* Write a file (contents) in the state dir, mode 0644. */
int sbx_statedir_write(sbx_plan *p, const char *name, const char *contents, sbx_error *reterr);
void sbx_statedir_cleanup(sbx_plan *p);
/* Remove dirfd/name recursively, staying on one file system. */
int sbx_rm_rf_at(int dirfd, const char *name);

/* ---- from container.c ---- */
/* An OCI container (runtime-spec 1.0-1.2, used by runtime/oci): the plan is
 * exactly what config.json says, no sbx defaults. The front end parses and
 * validates config.json into this struct; the launcher makes the plan,
 * clones, and the child sets the container up and stops before exec,
 * reading one byte from wait_fd (the created -> running contract: `start`
 * writes it). Every string is owned by the front end. */
enum {
        SBX_CTR_NS_USER, SBX_CTR_NS_MNT, SBX_CTR_NS_PID, SBX_CTR_NS_NET, SBX_CTR_NS_IPC,
        SBX_CTR_NS_UTS, SBX_CTR_NS_CGROUP, SBX_CTR_NS_TIME, _SBX_CTR_NS_MAX,
};

typedef struct sbx_ctr_mount {
        char *dst, *type, *src, *data;   /* data: the fs options left after the flags */
        unsigned long flags;             /* MS_* (MS_BIND for bind/rbind) */
        unsigned long propagation;
        bool recursive;                  /* rbind */
        bool copyup;                     /* tmpfs "tmpcopyup": the dir's contents copied in */
        bool on_proc_ok;                 /* a procfs, or one of the /proc files lxcfs emulates: may
                                          * land on a procfs (others may not: SBX_MNT_NOT_ON_PROC) */
        const char *what;                /* "mounts[3]" for messages */
} sbx_ctr_mount;

typedef struct sbx_ctr_device {
        char *path;
        char type;                       /* 'c', 'b', 'u' (= c), 'p' */
        uint32_t major, minor, mode, uid, gid;
} sbx_ctr_device;

typedef struct sbx_container_proc {
        char **argv, **envp;             /* NULL-terminated */
        const char *cwd;
        uint32_t uid, gid;
        uint32_t groups[64];
        size_t n_groups;
        int umask;                       /* -1: leave */
        uint64_t caps[5];                /* bounding, effective, inheritable, permitted, ambient */
        bool no_new_privs;
        bool new_keyring;                /* a fresh session keyring (not --no-new-keyring) */
        int preserve_fds;                /* fds 3 .. 3+n-1 cross exec */
        const char *path_env;            /* PATH for argv[0] lookup, in the container */
} sbx_container_proc;

typedef struct sbx_container {
        char *rootfs;                    /* absolute (bundle-relative resolved) */
        bool rootfs_readonly;
        unsigned long rootfs_propagation;
        uint64_t clone_flags;            /* CLONE_NEW* to create */
        int join_fds[_SBX_CTR_NS_MAX];   /* namespaces to join (by path), -EBADF = none */
        char uid_map[512], gid_map[512]; /* "inner outer count\n" lines, "" = none */
        sbx_ctr_mount *mounts;
        size_t n_mounts;
        char **masked, **readonly;
        size_t n_masked, n_readonly;
        sbx_ctr_device *devices;
        size_t n_devices;
        char **sysctl;                   /* "key=value" */
        size_t n_sysctl;
        char *hostname, *domainname;
        sbx_rlimit rlimits[SBX_RLIMITS_MAX];
        size_t n_rlimits;
        bool oom_score_adj_set;
        int oom_score_adj;
        bool personality_set;
        unsigned long personality;
        bool terminal;
        bool no_pivot;                   /* --no-pivot: MS_MOVE + chroot instead of pivot_root */
        int wait_fd;                     /* the exec fifo, O_RDWR: read before exec; -EBADF = none */
        int cgroup_fd;                   /* cgroup to clone into, -EBADF = ours */
        sbx_bpf seccomp;                 /* compiled by the front end; len 0 = none */
        sbx_container_proc proc;
        /* sbx's rules for an OpenClaw agent (runtime/oci's org.sbx.policy.*
         * annotations), NULL = none: the exec decided before clone3 against
         * its exec rules (refused: create fails), the Landlock ruleset
         * (read-only fs, exec allowlist) applied after no_new_privs, and the
         * decided file run (exec.c), as for sbx's own sandboxes. Its
         * seccomp rule (deny_inet_sockets) is the front end's, in seccomp. */
        const struct sbx_run_config *rules;
        /* With rules: the audit log the decision on the process is written
         * to (allowed or refused), NULL = none. */
        const sbx_audit *audit;
        /* Called in the parent when the child reached the createRuntime
         * point (namespaces made, before its mounts): prestart and
         * createRuntime hooks. Non-zero fails the create. NULL = none. */
        int (*on_create_runtime)(void *userdata, pid_t pid, sbx_error *reterr);
        void *userdata;
} sbx_container;

void sbx_container_init(sbx_container *c);

/* Parent: plan, clone3 into the namespaces, id maps, wait until the child is
 * set up and stopped before exec. *ret_pid, *ret_pidfd: the container's
 * process; *ret_pty: the terminal's master (terminal), else -EBADF. On error
 * nothing is left running. */
int sbx_container_create(const sbx_container *c, pid_t *ret_pid, int *ret_pidfd, int *ret_pty,
                         sbx_error *reterr);
/* Child side of the credentials: bounding set, groups, user, capability
 * sets, ambient. Async-signal-safe. */
int sbx_caps_setup_container_child(int cap_last, const sbx_container_proc *proc, sbx_error *reterr);

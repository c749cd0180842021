/* SPDX-License-Identifier: MIT */
/* Everything `sbx run` can be told, as one plain C struct (issue 2).
 *
 * Data flow: CLI options (runtime/cli-run.c) or openclaw.json (policy/, via the
 * policy engine) -> struct sbx_run_config -> sbx_plan_prepare() -> clone3.
 * No json-c here: the policy engine copies values in, and nothing in this
 * struct points into a parser's memory.
 *
 * Ownership: every char * field and array (rootfs, workspace, workdir,
 * hostname, state_dir, envv, dns, extra_hosts, binds, tmpfs) is malloc'd and
 * freed by sbx_run_config_free(); use the sbx_run_config_add_* helpers or
 * strdup() to fill them. Not owned: argv (points into the caller's argv) and
 * seccomp.profile_path. */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"
#include "error.h"
#include "seccomp-filter.h"

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
} sbx_bind;

typedef struct sbx_tmpfs {
        char *path;           /* absolute path in the sandbox */
        uint64_t size;        /* bytes, 0 = the kernel default (half of RAM) */
        unsigned mode;        /* e.g. 01777 */
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
int sbx_parse_tmpfs(const char *spec, sbx_tmpfs *ret, sbx_error *reterr);          /* /tmp[:size=64m,mode=1777] */
int sbx_parse_bind(const char *spec, sbx_bind *ret, sbx_error *reterr);            /* SRC:DST[:ro|rw] */
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
sbx_workspace_access sbx_workspace_access_from_string(const char *s);
const char *sbx_workspace_access_to_string(sbx_workspace_access a);

/* Appenders (strdup their arguments). */
int sbx_run_config_add_env(sbx_run_config *c, const char *kv);
int sbx_run_config_add_bind(sbx_run_config *c, const sbx_bind *b);
int sbx_run_config_add_tmpfs(sbx_run_config *c, const sbx_tmpfs *t);
int sbx_run_config_add_rlimit(sbx_run_config *c, const sbx_rlimit *r);
/* The sandbox's host name (it lands in the UTS namespace and /etc/hosts):
 * RFC 1123, so no line can be injected; the message names OPTION. */
int sbx_check_hostname(const char *option, const char *name, sbx_error *reterr);
int sbx_run_config_add_dns(sbx_run_config *c, const char *ns);
int sbx_run_config_add_extra_host(sbx_run_config *c, const char *line);
int sbx_run_config_add_exec_allow(sbx_run_config *c, const char *pattern);

/* --image NAME[:TAG] (runtime/image-run.c): resolve through the image store,
 * set rootfs, merge the image's Env under envv, take its WorkingDir unless
 * workdir is set and its User unless user_set. -ENOENT + "No such image: ..."
 * (with the command that builds or imports it) when missing. */
int sbx_run_config_apply_image(sbx_run_config *c, const char *name, sbx_error *reterr);

/* Run it: plan, clone3, supervise, tear down. Returns the exit status per the
 * contract in runtime/ERRORS.md (125 with *reterr filled when sbx failed). */
int sbx_run(const sbx_run_config *c, sbx_error *reterr);

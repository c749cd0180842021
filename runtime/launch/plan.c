/* SPDX-License-Identifier: MIT */
/* The frozen launch plan (STYLE §A.3): built by the facility *_prepare
 * functions in the parent, read-only in the child, torn down here. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch.h"
#include "util/util.h"
#include "mount.h"
#include "userns.h"

static const char *plan_own(sbx_plan *p, char *s) {
        char **n;

        if (!s)
                return NULL;
        n = realloc(p->owned, sizeof(char *) * (p->n_owned + 1));
        if (!n) {
                free(s);
                return NULL;
        }
        p->owned = n;
        p->owned[p->n_owned++] = s;
        return s;
}

const char *sbx_plan_strdup(sbx_plan *p, const char *s) {
        return s ? plan_own(p, strdup(s)) : NULL;
}

const char *sbx_plan_strdupf(sbx_plan *p, const char *fmt, ...) {
        va_list ap;
        char *s;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        return r < 0 ? NULL : plan_own(p, s);
}

sbx_mount_op *sbx_plan_add_mount(sbx_plan *p, sbx_mount_kind kind, const char *dst, sbx_error *reterr) {
        sbx_mount_op *n, *op;

        n = realloc(p->mounts, sizeof(*n) * (p->n_mounts + 1));
        if (!n) {
                sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
                return NULL;
        }
        p->mounts = n;
        while (*dst == '/')
                dst++;
        op = &p->mounts[p->n_mounts++];
        *op = (sbx_mount_op) { .kind = kind, .src_fd = -EBADF, .dst = sbx_plan_strdup(p, dst), .mode = 0755 };
        if (!op->dst) {
                p->n_mounts--;
                sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
                return NULL;
        }
        return op;
}

sbx_plan *sbx_plan_free(sbx_plan *p) {
        if (!p)
                return NULL;
        for (size_t i = 0; i < p->n_mounts; i++)
                closep(&p->mounts[i].src_fd);
        free(p->mounts);
        if (p->exec_target) {
                sbx_exec_target_done(p->exec_target);
                free(p->exec_target);
        }
        free(p->exec_argv);
        free(p->notify_insns);
        closep(&p->setup_sh_fd);
        sbx_landlock_cleanup(&p->landlock);
        sbx_bpf_free(&p->bpf);
        for (unsigned i = 0; i < SBX_CGROUP_V1_MAX; i++)
                closep(&p->cgroup_tasks[i]);
        sbx_cgroup_cleanup(&p->cgroup);
        closep(&p->cgroup.dirfd);
        closep(&p->tty_fd);
        closep(&p->tty_master);
        /* after the child is gone: removes veth/bridge/nft state or stops pasta */
        sbx_net_cleanup(&p->net);
        closep(&p->root_overlay.lower_tree);
        closep(&p->tmpl.holder_pidfd);
        closep(&p->tmpl.use_fd);
        sbx_statedir_cleanup(p);
        free(p->argv);
        free(p->envp);
        for (size_t i = 0; i < p->n_owned; i++)
                free(p->owned[i]);
        free(p->owned);
        free(p);
        return NULL;
}

/* Is id inside one of the ranges of a uid_map/gid_map ("inside outside count")? */
static bool id_mapped(int procfd, const char *file, uint32_t id) {
        _cleanup_close_ int fd = openat(procfd, file, O_RDONLY | O_CLOEXEC);
        char buf[4096], *line, *save = NULL;
        unsigned long in, out, n;
        ssize_t len;

        if (fd < 0 || (len = read(fd, buf, sizeof(buf) - 1)) <= 0)
                return false;
        buf[len] = '\0';
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
                if (sscanf(line, "%lu %lu %lu", &in, &out, &n) == 3 && id >= in && id - in < n)
                        return true;
        return false;
}

static sbx_container_ns_opener container_opener;

void sbx_plan_set_container_opener(sbx_container_ns_opener fn) {
        container_opener = fn;
}

/* network container:NAME: the network namespace of the running persistent
 * sandbox NAME, opened now so the decision and the namespace cannot drift
 * apart. As root the sandbox keeps its own user namespace and the launcher
 * enters NAME's network for the clone; unprivileged only NAME's own user
 * namespace may enter it, so the sandbox is made inside that one (it must
 * then have a user NAME's maps know). See launch.c. */
static int plan_join_target(const sbx_plan *p, const sbx_run_config *c, int *ret_net, int *ret_user,
                            sbx_error *reterr) {
        _cleanup_close_ int procfd = -EBADF, userfd = -EBADF;
        int r;

        if (c->network != SBX_NETWORK_CONTAINER)
                return 0;
        r = sbx_run_config_check_network(c, reterr);
        if (r < 0)
                return r;
        if (!container_opener)
                return sbx_error_set(reterr, -ENOTSUP, "network 'container:%s': no sandbox lookup in this program",
                                     c->network_container);
        r = container_opener(c->network_container, ret_net, &userfd, &procfd, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "network 'container:%s'", c->network_container), r;
        if (p->privileged)
                return 0;
        if (!id_mapped(procfd, "uid_map", p->uid) || !id_mapped(procfd, "gid_map", p->gid))
                return sbx_error_set(reterr, -EINVAL,
                                     "network 'container:%s': without root the sandbox shares the user "
                                     "namespace of '%s', which has no user %u:%u (give the same --user as '%s')",
                                     c->network_container, c->network_container, (unsigned) p->uid,
                                     (unsigned) p->gid, c->network_container);
        *ret_user = TAKE_FD(userfd);
        return 0;
}

sbx_plan *sbx_plan_new(void) {
        sbx_plan *p = calloc(1, sizeof(*p));

        if (!p)
                return NULL;
        p->state_fd = p->lock_fd = p->tty_fd = p->tty_master = p->sync_fd = -EBADF;
        p->cgroup.dirfd = p->root_overlay.lower_tree = -EBADF;
        for (unsigned i = 0; i < SBX_CGROUP_V1_MAX; i++)
                p->cgroup_tasks[i] = -EBADF;
        p->exec_fd = p->setup_sh_fd = -EBADF;
        p->passed_tty = -1;
        p->tmpl.holder_pidfd = p->tmpl.use_fd = -EBADF;
        sbx_landlock_init(&p->landlock);
        sbx_net_plan_init(&p->net);
        return p;
}

/* config -> plan, one facility at a time; each step only reads the config and
 * what earlier steps put into the plan. */
int sbx_plan_prepare(const sbx_run_config *c, sbx_plan **ret, sbx_error *reterr) {
        sbx_exec_verdict v;

        return sbx_plan_prepare_decided(c, ret, &v, reterr);
}

int sbx_plan_prepare_decided(const sbx_run_config *c, sbx_plan **ret, sbx_exec_verdict *ret_verdict,
                             sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_close_ int join_fd = -EBADF, join_userns_fd = -EBADF;
        char audit_path[PATH_MAX] = "";
        int r;

        *ret_verdict = (sbx_exec_verdict) {};
        p = sbx_plan_new();
        if (!p)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        p->read_only_root = c->read_only_root;
        p->make_dir = c->make_dir ? sbx_plan_strdup(p, c->make_dir) : NULL;
        if (c->make_dir && !p->make_dir)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        p->timeout_sec = c->timeout_sec;

        /* The per-run state dir first: everything else may put files in it. */
        if ((r = sbx_statedir_prepare(p, c, reterr)) < 0)
                return r;
        /* Who we are on the host decides the id maps and who owns the state files. */
        if ((r = sbx_userns_prepare(p, c, reterr)) < 0)
                return r;
        if ((r = sbx_statedir_chown(p, reterr)) < 0)
                return r;
        /* Network before mounts: it decides the addresses /etc/hosts names
         * (host-gateway) and, for bridge, creates the host side (issue 7). */
        if ((r = plan_join_target(p, c, &join_fd, &join_userns_fd, reterr)) < 0)
                return r;
        /* the audit log an allowlist network's resolver writes to (issue 18) */
        if (!c->audit_log) {
                sbx_statedir_base(c, audit_path, sizeof(audit_path));
                if (strlen(audit_path) + sizeof("/audit.jsonl") <= sizeof(audit_path))
                        strcat(audit_path, "/audit.jsonl");
        }
        r = sbx_net_prepare(&(sbx_net_request) {
                                .bridge = c->network == SBX_NETWORK_BRIDGE,
                                .join = c->network == SBX_NETWORK_CONTAINER,
                                .join_fd = TAKE_FD(join_fd),
                                .join_userns_fd = TAKE_FD(join_userns_fd),
                                .join_name = c->network_container,
                                .network_name = c->network_name,
                                .audit_path = c->audit_log ?: audit_path,
                                .audit_agent = c->agent, .audit_session = c->session,
                                .audit_scope = c->scope_key, .audit_sandbox = c->hostname,
                                .dns = c->dns, .n_dns = c->n_dns,
                                .extra_hosts = c->extra_hosts, .n_extra_hosts = c->n_extra_hosts,
                                .hostname = c->hostname ?: "sbx",
                        }, &p->net, reterr);
        if (r < 0)
                return r;
        /* ipc14: rootless as another uid than 0 the sandbox's single-id map
         * has no root, and only its IPC namespace's root may bound it: that
         * namespace comes from a user namespace of its own mapping 0 to us,
         * the sandbox's nested in it (launch.c spawn_via_helper). Not with
         * network container:NAME (the sandbox shares NAME's user namespace:
         * the helper takes that one's parent when it is such an owner,
         * sbx_ipc_owner_join). */
        p->ipc_owner = !p->privileged && p->uid != 0 && p->net.kind != SBX_NET_KIND_JOIN;
        /* The mount list: root, /etc, /proc, /dev, tmpfs, workspace, binds. */
        if ((r = sbx_mount_prepare(p, c, reterr)) < 0)
                return r;
        /* argv, env, workdir, rlimits, hostname. */
        if ((r = sbx_exec_prepare(p, c, reterr)) < 0)
                return r;
        /* The exec decision and the Landlock ruleset, before anything runs
         * and before the cgroup exists: a refusal leaves nothing behind. */
        if ((r = sbx_exec_decide_prepare(p, c, ret_verdict, reterr)) < 0)
                return r;
        if ((r = sbx_caps_prepare(p, reterr)) < 0)
                return r;
        /* seccomp BPF compiled here, never in the child (STYLE §E.18). Its
         * messages already start with "seccomp" and name the profile file. */
        if ((r = sbx_seccomp_compile(&c->seccomp, &p->bpf, reterr)) < 0)
                return r;
        /* cgroup last: it creates a kernel object that teardown must remove. */
        /* named after the run dir ("run-XXXXXX"): unique while the run lives */
        if ((r = sbx_cgroup_prepare(strrchr(p->state_dir, '/') + 1, &c->limits, &p->cgroup, reterr)) < 0)
                return r;
        /* v1: the child joins it itself (issue 16), through these */
        if (sbx_cgroup_needs_attach(&p->cgroup) && (r = sbx_cgroup_open_tasks(&p->cgroup, p->cgroup_tasks, reterr)) < 0)
                return r;
        if ((r = sbx_supervise_prepare(p, c, reterr)) < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}

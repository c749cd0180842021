/* SPDX-License-Identifier: MIT */
/* struct sbx_run_config: defaults, parsers for the option specs, appenders. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/util.h"
#include "net/net.h"
#include "launch.h"

void sbx_run_config_init(sbx_run_config *c) {
        memset(c, 0, sizeof(*c));
        c->read_only_root = true;
        c->workspace_access = SBX_WORKSPACE_NONE;
        c->uid = 0;
        c->gid = 0;
        c->network = SBX_NETWORK_NONE;
        sbx_limits_init(&c->limits);
}

static void strv_free(char **v, size_t n) {
        for (size_t i = 0; v && i < n; i++)
                free(v[i]);
        free(v);
}

void sbx_run_config_free(sbx_run_config *c) {
        if (!c)
                return;
        free_many(c->rootfs, c->workspace, c->workspace_dst, c->workdir, c->hostname, c->state_dir, c->root_layer_dir, c->template_base,
                  c->setup_command, c->network_container, c->network_name, c->audit_log, c->exec_allow_key,
                  c->exec_refused_rule, c->exec_refused_key, c->make_dir);
        strv_free(c->envv, c->n_env);
        strv_free(c->dns, c->n_dns);
        strv_free(c->extra_hosts, c->n_extra_hosts);
        strv_free(c->exec_allow, c->n_exec_allow);
        for (size_t i = 0; i < c->n_binds; i++)
                free_many(c->binds[i].src, c->binds[i].dst);
        free(c->binds);
        for (size_t i = 0; i < c->n_tmpfs; i++)
                free(c->tmpfs[i].path);
        free(c->tmpfs);
        /* argv belongs to the caller (main's argv). */
        memset(c, 0, sizeof(*c));
}

static const struct {
        const char *name;
        int resource;
} rlimit_names[] = {
        { "as", RLIMIT_AS },           { "core", RLIMIT_CORE },
        { "cpu", RLIMIT_CPU },         { "data", RLIMIT_DATA },
        { "fsize", RLIMIT_FSIZE },     { "locks", RLIMIT_LOCKS },
        { "memlock", RLIMIT_MEMLOCK }, { "msgqueue", RLIMIT_MSGQUEUE },
        { "nice", RLIMIT_NICE },       { "nofile", RLIMIT_NOFILE },
        { "nproc", RLIMIT_NPROC },     { "rss", RLIMIT_RSS },
        { "rtprio", RLIMIT_RTPRIO },   { "rttime", RLIMIT_RTTIME },
        { "sigpending", RLIMIT_SIGPENDING }, { "stack", RLIMIT_STACK },
};

const char *sbx_rlimit_name(int resource) {
        for (size_t i = 0; i < ELEMENTSOF(rlimit_names); i++)
                if (rlimit_names[i].resource == resource)
                        return rlimit_names[i].name;
        return "?";
}

static int parse_rlim_value(const char *s, size_t len, uint64_t *ret) {
        char buf[32], *end;
        unsigned long long v;

        if (len == 0 || len >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (!strcmp(buf, "unlimited") || !strcmp(buf, "-1")) {
                *ret = RLIM_INFINITY;
                return 0;
        }
        if (!isdigit((unsigned char) buf[0]))
                return -EINVAL;
        errno = 0;
        v = strtoull(buf, &end, 10);
        if (errno || *end)
                return -EINVAL;
        *ret = v;
        return 0;
}

/* Docker's --ulimit: name=soft[:hard]; hard defaults to soft. */
int sbx_parse_ulimit(const char *spec, sbx_rlimit *ret, sbx_error *reterr) {
        const char *eq = strchr(spec, '='), *colon;
        size_t nlen;
        sbx_rlimit r = { .resource = -1 };

        if (!eq)
                return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': expected NAME=SOFT[:HARD]", spec);
        nlen = eq - spec;
        for (size_t i = 0; i < ELEMENTSOF(rlimit_names); i++)
                if (strlen(rlimit_names[i].name) == nlen && !strncmp(spec, rlimit_names[i].name, nlen))
                        r.resource = rlimit_names[i].resource;
        if (r.resource < 0)
                return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': unknown limit name '%.*s'",
                                     spec, (int) nlen, spec);
        colon = strchr(eq + 1, ':');
        if (parse_rlim_value(eq + 1, colon ? (size_t) (colon - eq - 1) : strlen(eq + 1), &r.soft) < 0)
                return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': bad soft value", spec);
        if (colon) {
                if (parse_rlim_value(colon + 1, strlen(colon + 1), &r.hard) < 0)
                        return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': bad hard value", spec);
        } else
                r.hard = r.soft;
        if (r.soft != RLIM_INFINITY && (r.hard == RLIM_INFINITY ? false : r.soft > r.hard))
                return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': soft limit above hard limit", spec);
        if (r.soft == RLIM_INFINITY && r.hard != RLIM_INFINITY)
                return sbx_error_set(reterr, -EINVAL, "--ulimit '%s': soft limit above hard limit", spec);
        *ret = r;
        return 0;
}

static bool path_ok(const char *p) {
        if (!p || p[0] != '/' || strlen(p) >= 4096)
                return false;
        /* No "..", no empty components that hide tricks, no control characters. */
        for (const char *s = p; *s; s++)
                if ((unsigned char) *s < 0x20)
                        return false;
        for (const char *s = p; (s = strstr(s, "..")); s += 2)
                if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
                        return false;
        return true;
}

static const sbx_tmpfs tmpfs_defaults[] = {
        { .path = (char *) "/tmp", .size = 512ull << 20, .mode = 01777 },
        { .path = (char *) "/var/tmp", .size = 512ull << 20, .mode = 01777 },
        { .path = (char *) "/run", .size = 16ull << 20, .mode = 0755 },
};

/* Docker's --tmpfs: PATH[:size=64m,mode=1777]. */
const sbx_tmpfs *sbx_run_config_tmpfs(const sbx_run_config *c, size_t *ret_n) {
        *ret_n = c->tmpfs_set ? c->n_tmpfs : ELEMENTSOF(tmpfs_defaults);
        return c->tmpfs_set ? c->tmpfs : tmpfs_defaults;
}

/* A tmpfs without size= (docker's --tmpfs /tmp, OpenClaw's default
 * docker.tmpfs /tmp /var/tmp /run) got the kernel's default, half of RAM,
 * each: one sandbox could fill several halves of the host's memory. It gets
 * sbx's default size for its path, else that of /tmp. */
void sbx_tmpfs_options(const sbx_tmpfs *t, char ret[static SBX_TMPFS_OPTIONS_MAX]) {
        uint64_t size = t->size;

        for (size_t i = 0; !size && i < ELEMENTSOF(tmpfs_defaults); i++)
                if (t->path && !strcmp(t->path, tmpfs_defaults[i].path))
                        size = tmpfs_defaults[i].size;
        size = size ?: tmpfs_defaults[0].size;
        snprintf(ret, SBX_TMPFS_OPTIONS_MAX, "mode=%o,size=%llu,nr_inodes=%llu", t->mode, (unsigned long long) size,
                 (unsigned long long) sbx_tmpfs_inodes(size));
}

/* size= bounds a tmpfs's pages, not its inodes: the kernel's default is
 * half of RAM in pages, and each empty file, directory or symlink holds
 * about 1 KiB of unswappable kernel memory, so one sandbox's 512 MiB /tmp
 * held millions of them (gigabytes) at no cost to its size. Two inodes per
 * page of size: a tree of small files meets size= first. */
uint64_t sbx_tmpfs_inodes(uint64_t size) {
        return size / 2048 > 64 ? size / 2048 : 64;
}

static int parse_tmpfs(const char *spec, bool noexec, sbx_tmpfs *ret, sbx_error *reterr) {
        _cleanup_free_ char *copy = strdup(spec);
        char *opts, *tok, *save = NULL;
        sbx_tmpfs t = { .mode = 01777, .noexec = noexec };

        if (!copy)
                return sbx_error_set(reterr, -ENOMEM, "--tmpfs: out of memory");
        opts = strchr(copy, ':');
        if (opts)
                *opts++ = '\0';
        if (!path_ok(copy) || !strcmp(copy, "/"))
                return sbx_error_set(reterr, -EINVAL, "--tmpfs '%s': path must be absolute, not '/', without '..'", spec);
        for (tok = opts ? strtok_r(opts, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
                if (!strncmp(tok, "size=", 5)) {
                        int64_t sz;
                        if (sbx_parse_size(tok + 5, &sz) < 0 || sz <= 0)
                                return sbx_error_set(reterr, -EINVAL, "--tmpfs '%s': bad size '%s'", spec, tok + 5);
                        t.size = (uint64_t) sz;
                } else if (!strncmp(tok, "mode=", 5)) {
                        char *end;
                        unsigned long m;
                        errno = 0;
                        m = strtoul(tok + 5, &end, 8);
                        if (errno || *end || end == tok + 5 || m > 07777)
                                return sbx_error_set(reterr, -EINVAL, "--tmpfs '%s': bad mode '%s'", spec, tok + 5);
                        t.mode = m;
                } else if (!strcmp(tok, "noexec") || !strcmp(tok, "exec")) {
                        /* honoured: was accepted and ignored, so a caller's
                         * noexec /tmp ran what was written there */
                        t.noexec = tok[0] == 'n';
                } else if (!strcmp(tok, "rw") || !strcmp(tok, "nosuid") || !strcmp(tok, "nodev")) {
                        /* Accepted for Docker compatibility; tmpfs is always nosuid,nodev. */
                } else
                        return sbx_error_set(reterr, -EINVAL, "--tmpfs '%s': unknown option '%s'", spec, tok);
        }
        t.path = strdup(copy);
        if (!t.path)
                return sbx_error_set(reterr, -ENOMEM, "--tmpfs: out of memory");
        *ret = t;
        return 0;
}

/* sbx's own --tmpfs: exec unless the options say noexec. */
int sbx_parse_tmpfs(const char *spec, sbx_tmpfs *ret, sbx_error *reterr) {
        return parse_tmpfs(spec, false, ret, reterr);
}

/* Docker mounts a --tmpfs (and so OpenClaw's docker.tmpfs, which it passes
 * as --tmpfs) noexec,nosuid,nodev unless its options say exec: the same
 * config must not get more from sbx as the container runtime. */
int sbx_parse_tmpfs_docker(const char *spec, sbx_tmpfs *ret, sbx_error *reterr) {
        int r = parse_tmpfs(spec, true, ret, reterr);

        /* runc's checkProcMount: nothing but proc on /proc, nothing inside
         * it; docker (so OpenClaw's docker.tmpfs) fails such a container,
         * sbx hid the sandbox's /proc (or a part) under a tmpfs */
        if (r >= 0 && !strncmp(ret->path, "/proc", 5) && (ret->path[5] == '\0' || ret->path[5] == '/')) {
                r = sbx_error_set(reterr, -EINVAL, "--tmpfs '%s': \"%s\" cannot be mounted because it is %s", spec,
                                  ret->path, ret->path[5] ? "inside /proc" : "not of type proc");
                free(ret->path);
                ret->path = NULL;
        }
        return r;
}

/* SRC:DST[:ro|rw]; DST defaults to SRC. OPT: the option it came with, for
 * the errors (--bind, --ro-bind). */
int sbx_parse_bind(const char *opt, const char *spec, sbx_bind *ret, sbx_error *reterr) {
        _cleanup_free_ char *copy = strdup(spec);
        char *dst, *mode = NULL;
        sbx_bind b = {};

        if (!copy)
                return sbx_error_set(reterr, -ENOMEM, "%s: out of memory", opt);
        dst = strchr(copy, ':');
        if (dst) {
                *dst++ = '\0';
                mode = strchr(dst, ':');
                if (mode)
                        *mode++ = '\0';
        }
        if (mode && !strcmp(mode, "ro"))
                b.ro = true;
        else if (mode && strcmp(mode, "rw"))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': mode must be ro or rw", opt, spec);
        /* The source is canonicalised with realpath() later; the destination is
         * a path in the sandbox and must be clean. */
        if (!copy[0])
                return sbx_error_set(reterr, -EINVAL, "%s '%s': empty source", opt, spec);
        if (!dst && !path_ok(copy))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': give SRC:DST with an absolute DST", opt, spec);
        if (dst && !path_ok(dst))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': destination must be an absolute path without '..'", opt, spec);
        if (!strcmp(dst ?: copy, "/"))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': cannot bind over /", opt, spec);
        b.src = strdup(copy);
        b.dst = strdup(dst ?: copy);
        if (!b.src || !b.dst) {
                free(b.src);
                free(b.dst);
                return sbx_error_set(reterr, -ENOMEM, "%s: out of memory", opt);
        }
        *ret = b;
        return 0;
}

int sbx_parse_env(const char *spec, sbx_error *reterr) {
        const char *eq = strchr(spec, '=');

        if (!eq || eq == spec)
                return sbx_error_set(reterr, -EINVAL, "--env '%s': expected KEY=VALUE", spec);
        for (const char *s = spec; s < eq; s++)
                if (!(isalnum((unsigned char) *s) || *s == '_') || (s == spec && isdigit((unsigned char) *s)))
                        return sbx_error_set(reterr, -EINVAL, "--env '%s': invalid variable name", spec);
        return 0;
}

static int parse_id(const char *s, size_t len, uint32_t *ret) {
        char buf[16], *end;
        unsigned long v;

        if (len == 0 || len >= sizeof(buf) || !isdigit((unsigned char) s[0]))
                return -EINVAL;
        memcpy(buf, s, len);
        buf[len] = '\0';
        errno = 0;
        v = strtoul(buf, &end, 10);
        if (errno || *end || v >= 65536)
                return -ERANGE;
        *ret = v;
        return 0;
}

/* uid[:gid], numeric, below 65536 (the size of the mapped range). */
int sbx_parse_user(const char *spec, uint32_t *ret_uid, uint32_t *ret_gid, sbx_error *reterr) {
        const char *colon = strchr(spec, ':');
        uint32_t u, g;

        if (parse_id(spec, colon ? (size_t) (colon - spec) : strlen(spec), &u) < 0)
                return sbx_error_set(reterr, -EINVAL, "--user '%s': expected numeric UID[:GID] below 65536", spec);
        if (colon) {
                if (parse_id(colon + 1, strlen(colon + 1), &g) < 0)
                        return sbx_error_set(reterr, -EINVAL, "--user '%s': expected numeric UID[:GID] below 65536", spec);
        } else
                g = u;
        *ret_uid = u;
        *ret_gid = g;
        return 0;
}

static const char *const access_names[_SBX_WORKSPACE_ACCESS_MAX] = {
        [SBX_WORKSPACE_NONE] = "none",
        [SBX_WORKSPACE_RO] = "ro",
        [SBX_WORKSPACE_RW] = "rw",
};

SBX_DEFINE_NAME_TABLE(sbx_workspace_access, sbx_workspace_access, access_names)

static const char *const network_names[_SBX_NETWORK_MODE_MAX] = {
        [SBX_NETWORK_NONE] = "none",
        [SBX_NETWORK_BRIDGE] = "bridge",
        [SBX_NETWORK_CONTAINER] = "container",
};

SBX_DEFINE_NAME_TABLE(sbx_network_mode, sbx_network_mode, network_names)

/* network container:NAME needs dangerouslyAllowContainerNamespaceJoin, given
 * in any order with --network: checked once every option is in. */
int sbx_run_config_check_network(const sbx_run_config *c, sbx_error *reterr) {
        _cleanup_free_ char *value = NULL;

        if (c->network != SBX_NETWORK_CONTAINER || c->allow_container_join)
                return 0;
        if (asprintf(&value, "container:%s", c->network_container ?: "") < 0) {
                value = NULL;
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        /* the refusal (and its message) is the parser's */
        return sbx_net_mode_parse(value, false, NULL, reterr);
}

/* path a and b name the same place once repeated and trailing '/' are
 * dropped (docker compares cleaned paths; '..' is refused earlier) */
static bool same_mount_point(const char *a, const char *b) {
        for (;;) {
                while (a[0] == '/' && (a[1] == '/' || a[1] == '\0'))
                        a++;
                while (b[0] == '/' && (b[1] == '/' || b[1] == '\0'))
                        b++;
                if (*a != *b)
                        return false;
                if (!*a)
                        return true;
                a++, b++;
        }
}

/* A tmpfs where a bind or the workspace is mounted too: docker refuses the
 * container ("Duplicate mount point", the daemon's check of HostConfig.Tmpfs
 * against the binds), so OpenClaw's docker.tmpfs over its workspace mount
 * (docker.workdir), /agent or a docker.binds target never runs there. sbx
 * mounted both, the workspace on top: refused now, naming the path. */
int sbx_run_config_check_mounts(const sbx_run_config *c, sbx_error *reterr) {
        const char *ws = c->workspace_dst ?: "/workspace";
        bool agent = c->workspace && c->workspace_access == SBX_WORKSPACE_RO && !c->workspace_no_agent;

        for (size_t i = 0; i < c->n_tmpfs; i++) {
                const char *t = c->tmpfs[i].path;
                const char *dup = NULL;
                if (c->workspace && same_mount_point(t, ws))
                        dup = "the workspace";
                else if (agent && same_mount_point(t, "/agent"))
                        dup = "the workspace's /agent view";
                for (size_t j = 0; !dup && j < c->n_binds; j++)
                        if (same_mount_point(t, c->binds[j].dst))
                                dup = "a bind";
                if (dup)
                        return sbx_error_set(reterr, -EINVAL,
                                             "tmpfs '%s': Duplicate mount point: %s is mounted there (docker "
                                             "refuses a tmpfs and a bind at one path)", t, dup);
        }
        return 0;
}

int sbx_run_config_set_memory(sbx_run_config *c, bool swap, const char *value, bool zero) {
        int64_t v;

        if (swap && !strcmp(value, "-1")) {
                c->limits.memory_swap = SBX_LIMIT_UNLIMITED;
                return 0;
        }
        if (sbx_parse_size(value, &v) < 0 || (!zero && v <= 0))
                return -EINVAL;
        *(swap ? &c->limits.memory_swap : &c->limits.memory) = v;
        return 0;
}

/* --network VALUE (also docker.network): mode and, for container:NAME, the name. */
int sbx_run_config_set_network(sbx_run_config *c, const char *value, bool allow_container_join,
                               sbx_error *reterr) {
        const char *name = NULL;
        int mode = sbx_net_mode_parse(value, allow_container_join, &name, reterr);

        if (mode < 0)
                return mode;
        free(c->network_container);
        free(c->network_name);
        c->network_container = c->network_name = NULL;
        if (mode == SBX_NET_MODE_NAMED) {
                c->network_name = strdup(name);
                if (!c->network_name)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                c->network = SBX_NETWORK_BRIDGE;
        } else if (mode == SBX_NET_MODE_CONTAINER) {
                c->network_container = strdup(name);
                if (!c->network_container)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                c->network = SBX_NETWORK_CONTAINER;
        } else
                c->network = mode == SBX_NET_MODE_BRIDGE ? SBX_NETWORK_BRIDGE : SBX_NETWORK_NONE;
        return 0;
}

static int strv_add(char ***v, size_t *n, const char *s) {
        char **nv = realloc(*v, sizeof(char *) * (*n + 2));
        if (!nv)
                return -ENOMEM;
        *v = nv;
        nv[*n] = strdup(s);
        if (!nv[*n])
                return -ENOMEM;
        (*n)++;
        nv[*n] = NULL;
        return 0;
}

int sbx_run_config_add_env(sbx_run_config *c, const char *kv) {
        return strv_add(&c->envv, &c->n_env, kv);
}

/* RFC 1123 host name: dot-separated labels of [A-Za-z0-9-], 1..63 bytes,
 * not starting or ending with '-'; at most 64 bytes in all (the UTS limit). */
static bool hostname_ok(const char *n) {
        size_t label = 0, len = strlen(n);

        if (len == 0 || len > 64)
                return false;
        for (size_t i = 0; i <= len; i++) {
                char ch = n[i];
                if (ch == '.' || ch == '\0') {
                        if (label == 0 || label > 63 || n[i - 1] == '-')
                                return false;
                        label = 0;
                        continue;
                }
                if (!isalnum((unsigned char) ch) && ch != '-')
                        return false;
                if (ch == '-' && label == 0)
                        return false;
                label++;
        }
        return true;
}

int sbx_check_hostname(const char *option, const char *name, sbx_error *reterr) {
        if (!hostname_ok(name))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': not a valid host name "
                                     "(letters, digits, '-' and '.', at most 64 bytes)", option, name);
        return 0;
}

int sbx_run_config_add_dns(sbx_run_config *c, const char *ns) {
        return strv_add(&c->dns, &c->n_dns, ns);
}

int sbx_run_config_add_extra_host(sbx_run_config *c, const char *line) {
        return strv_add(&c->extra_hosts, &c->n_extra_hosts, line);
}

int sbx_run_config_add_exec_allow(sbx_run_config *c, const char *pattern) {
        c->exec_allow_set = true;
        return strv_add(&c->exec_allow, &c->n_exec_allow, pattern);
}

int sbx_run_config_add_bind(sbx_run_config *c, const sbx_bind *b) {
        sbx_bind *nb = realloc(c->binds, sizeof(*nb) * (c->n_binds + 1));
        if (!nb)
                return -ENOMEM;
        c->binds = nb;
        nb[c->n_binds].src = strdup(b->src);
        nb[c->n_binds].dst = strdup(b->dst);
        nb[c->n_binds].ro = b->ro;
        nb[c->n_binds].pinned = b->pinned;
        if (!nb[c->n_binds].src || !nb[c->n_binds].dst) {
                free(nb[c->n_binds].src);
                free(nb[c->n_binds].dst);
                return -ENOMEM;
        }
        c->n_binds++;
        return 0;
}

int sbx_run_config_add_tmpfs(sbx_run_config *c, const sbx_tmpfs *t) {
        sbx_tmpfs *nt = realloc(c->tmpfs, sizeof(*nt) * (c->n_tmpfs + 1));
        if (!nt)
                return -ENOMEM;
        c->tmpfs = nt;
        nt[c->n_tmpfs] = *t;
        nt[c->n_tmpfs].path = strdup(t->path);
        if (!nt[c->n_tmpfs].path)
                return -ENOMEM;
        c->n_tmpfs++;
        c->tmpfs_set = true;
        return 0;
}

int sbx_run_config_add_rlimit(sbx_run_config *c, const sbx_rlimit *r) {
        for (size_t i = 0; i < c->n_rlimits; i++)
                if (c->rlimits[i].resource == r->resource) {
                        c->rlimits[i] = *r;
                        return 0;
                }
        if (c->n_rlimits >= SBX_RLIMITS_MAX)
                return -E2BIG;
        c->rlimits[c->n_rlimits++] = *r;
        return 0;
}

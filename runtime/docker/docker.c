/* SPDX-License-Identifier: MIT */
/* docker create's flags -> sbx_run_config; a sandbox record -> docker
 * inspect's JSON; env files; the Docker-outside-of-Docker self identity.
 * Library code: nothing prints (cli-docker.c does). */
#include <fcntl.h>
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/sysmacros.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rootfs-tools/image.h"
#include "util/util.h"
#include "cgroup/cgroup.h"
#include "net/net.h"
#include "docker.h"

#define META_FILE "docker.json"
#define ENV_FILE_MAX (1u << 20)

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_putp)

/* ------------------------------------------------------------- env */

void sbx_docker_env_free(char **envv, size_t n) {
        for (size_t i = 0; i < n; i++)
                free(envv[i]);
        free(envv);
}

/* Set KEY=VALUE in the list: a later value for the same key replaces the
 * earlier one in place (docker's precedence: image < env-file/-e in order). */
static int env_set(char ***envv, size_t *n, const char *kv, size_t len) {
        const char *eq = memchr(kv, '=', len);
        size_t klen = eq ? (size_t) (eq - kv) : len;
        char *copy = strndup(kv, len), **l;

        if (!copy)
                return -ENOMEM;
        for (size_t i = 0; i < *n; i++)
                if (!strncmp((*envv)[i], kv, klen) && (*envv)[i][klen] == '=') {
                        free((*envv)[i]);
                        (*envv)[i] = copy;
                        return 0;
                }
        l = realloc(*envv, sizeof(char *) * (*n + 2));
        if (!l) {
                free(copy);
                return -ENOMEM;
        }
        *envv = l;
        l[(*n)++] = copy;
        l[*n] = NULL;
        return 0;
}

/* One "-e" / env-file entry: KEY=VALUE, or KEY taken from our environment. */
static int env_add_spec(char ***envv, size_t *n, const char *spec, size_t len, const char *source, unsigned line,
                        sbx_error *reterr) {
        const char *eq = memchr(spec, '=', len);
        size_t klen = eq ? (size_t) (eq - spec) : len;
        char key[256];
        int r;

        if (klen == 0 || klen >= sizeof(key) || memchr(spec, '\0', len))
                return sbx_error_set(reterr, -EINVAL, "%s:%u: invalid variable '%.*s'", source, line,
                                     (int) (len < 64 ? len : 64), spec);
        for (size_t i = 0; i < klen; i++)
                if (spec[i] == ' ' || spec[i] == '\t')
                        return sbx_error_set(reterr, -EINVAL, "%s:%u: variable '%.*s' contains whitespaces", source,
                                             line, (int) klen, spec);
        if (eq)
                r = env_set(envv, n, spec, len);
        else {
                _cleanup_free_ char *kv = NULL;
                const char *v;
                memcpy(key, spec, klen);
                key[klen] = '\0';
                v = getenv(key);
                if (!v)
                        return 0; /* docker drops an unset bare KEY */
                if (asprintf(&kv, "%s=%s", key, v) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                r = env_set(envv, n, kv, strlen(kv));
        }
        return r < 0 ? sbx_error_set(reterr, r, "out of memory") : 0;
}

int sbx_docker_env_add(const char *spec, char ***envv, size_t *n_env, sbx_error *reterr) {
        return env_add_spec(envv, n_env, spec, strlen(spec), "-e", 1, reterr);
}

int sbx_docker_env_parse(const char *text, size_t text_len, const char *source, char ***envv, size_t *n_env,
                         sbx_error *reterr) {
        const char *p = text, *end = text + text_len;
        unsigned line = 0;
        int r;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t) (end - p)), *e = nl ?: end, *s = p;
                line++;
                p = nl ? nl + 1 : end;
                if (e > s && e[-1] == '\r')
                        e--;
                while (s < e && (*s == ' ' || *s == '\t'))
                        s++;
                if (s == e || *s == '#')
                        continue;
                r = env_add_spec(envv, n_env, s, (size_t) (e - s), source, line, reterr);
                if (r < 0)
                        return r;
        }
        return 0;
}

int sbx_docker_env_file(const char *path, char ***envv, size_t *n_env, sbx_error *reterr) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        _cleanup_free_ char *buf = NULL;
        size_t len = 0;
        ssize_t n;
        struct stat st;

        if (fd < 0 || fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "--env-file '%s'", path);
        if (!S_ISREG(st.st_mode) || st.st_size > ENV_FILE_MAX)
                return sbx_error_set(reterr, -EINVAL, "--env-file '%s': not a regular file of at most %u bytes", path,
                                     ENV_FILE_MAX);
        buf = malloc((size_t) st.st_size + 1);
        if (!buf)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        while (len < (size_t) st.st_size && (n = read(fd, buf + len, (size_t) st.st_size - len)) > 0)
                len += (size_t) n;
        return sbx_docker_env_parse(buf, len, path, envv, n_env, reterr);
}

/* ------------------------------------------------------------- volumes */

int sbx_docker_parse_volume(const char *spec, sbx_docker_volume *ret, sbx_error *reterr) {
        const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        size_t slen, dlen;

        *ret = (sbx_docker_volume) {};
        if (!c1 || spec[0] != '/')
                return sbx_error_set(reterr, -EINVAL,
                                     "-v '%s': expected /HOST/PATH:/CONTAINER/PATH[:OPTIONS] (named volumes are not "
                                     "supported)",
                                     spec);
        slen = (size_t) (c1 - spec);
        dlen = c2 ? (size_t) (c2 - c1 - 1) : strlen(c1 + 1);
        if (slen >= sizeof(ret->src) || dlen >= sizeof(ret->dst) || dlen == 0 || c1[1] != '/')
                return sbx_error_set(reterr, -EINVAL, "-v '%s': the container path must be absolute", spec);
        memcpy(ret->src, spec, slen);
        memcpy(ret->dst, c1 + 1, dlen);
        if (c2) {
                const char *o = c2 + 1;
                if (strlen(o) >= sizeof(ret->mode))
                        return sbx_error_set(reterr, -EINVAL, "-v '%s': options too long", spec);
                snprintf(ret->mode, sizeof(ret->mode), "%s", o);
                /* docker's ValidMountMode: at most one of each kind. "ro,rw"
                 * was a writable bind here (the last one won), where docker
                 * refuses it and OpenClaw, which passes docker.binds
                 * verbatim, takes it for read-only (an "ro" among them) */
                unsigned n_rw = 0, n_label = 0, n_prop = 0;
                while (*o) {
                        size_t n = strcspn(o, ",");
                        if (n == 2 && !strncmp(o, "ro", 2))
                                ret->ro = true, n_rw++;
                        else if (n == 2 && !strncmp(o, "rw", 2))
                                ret->ro = false, n_rw++;
                        else if (n == 1 && (o[0] == 'z' || o[0] == 'Z'))
                                n_label++;
                        else if ((n == 8 && !strncmp(o, "rprivate", 8)) || (n == 7 && !strncmp(o, "private", 7)))
                                n_prop++;
                        else
                                return sbx_error_set(reterr, -EINVAL,
                                                     "-v '%s': unsupported option '%.*s' (sbx accepts ro, rw, z, Z, "
                                                     "private, rprivate)",
                                                     spec, (int) n, o);
                        o += n;
                        if (*o == ',')
                                o++;
                }
                if (n_rw > 1 || n_label > 1 || n_prop > 1)
                        return sbx_error_set(reterr, -EINVAL,
                                             "-v '%s': invalid mode: %s given more than once (as docker, one of each)",
                                             spec, n_rw > 1 ? "ro/rw" : n_label > 1 ? "z/Z" : "a propagation");
        }
        return 0;
}

/* What tells one directory from another that took its name: its inode,
 * birth time and file handle (ext4, xfs and btrfs put the inode's
 * generation in it, so an inode number the filesystem reused for a new
 * directory still differs). Zeroed first: compared with memcmp. */
typedef struct dir_identity {
        dev_t dev;
        uint64_t ino;
        struct statx_timestamp btime;
        int handle_type;
        unsigned handle_bytes;
        unsigned char handle[MAX_HANDLE_SZ];
} dir_identity;

static int dir_identity_get(int parent_fd, const char *name, dir_identity *ret) {
        struct {
                struct file_handle fh;
                unsigned char f_handle[MAX_HANDLE_SZ];
        } h = { .fh.handle_bytes = MAX_HANDLE_SZ };
        struct statx stx;
        int mnt_id;

        memset(ret, 0, sizeof(*ret));
        if (statx(parent_fd, name, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO | STATX_BTIME,
                  &stx) < 0)
                return -errno;
        if (!S_ISDIR(stx.stx_mode))
                return -ENOTDIR;
        ret->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
        ret->ino = stx.stx_ino;
        if (stx.stx_mask & STATX_BTIME)
                ret->btime = stx.stx_btime;
        if (name_to_handle_at(parent_fd, name, &h.fh, &mnt_id, 0) == 0 && h.fh.handle_bytes <= MAX_HANDLE_SZ) {
                ret->handle_type = h.fh.handle_type;
                ret->handle_bytes = h.fh.handle_bytes;
                memcpy(ret->handle, h.fh.f_handle, h.fh.handle_bytes);
        }
        return 0;
}

/* A -v source directory a create made: its parent held open (O_PATH), its
 * name there, and its identity right after mkdirat. */
struct sbx_docker_made_dir {
        int parent_fd;
        char *name;
        dir_identity id;
};

/* Docker creates a missing bind source as a directory; so do we (0755).
 * Each directory made is recorded in c->made_dirs by its parent fd, name
 * and identity, for sbx_docker_create_done to take back (that directory
 * and no other) if the create fails. */
static int made_dir(sbx_docker_create *c, int parent_fd, const char *name, const char *path, sbx_error *reterr) {
        struct sbx_docker_made_dir *v = realloc(c->made_dirs, sizeof(*v) * (c->n_made_dirs + 1));
        int r;

        if (!v)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        c->made_dirs = v;
        v = &v[c->n_made_dirs];
        *v = (struct sbx_docker_made_dir) { .parent_fd = -EBADF };
        r = dir_identity_get(parent_fd, name, &v->id);
        if (r < 0)
                return sbx_error_set(reterr, r, "-v: the source directory '%s' just made", path);
        v->parent_fd = fcntl(parent_fd, F_DUPFD_CLOEXEC, 3);
        v->name = strdup(name);
        if (v->parent_fd < 0 || !v->name) {
                r = v->parent_fd < 0 ? -errno : -ENOMEM;
                if (v->parent_fd >= 0)
                        close(v->parent_fd);
                free(v->name);
                return sbx_error_set(reterr, r, "-v: record the source directory '%s' just made", path);
        }
        c->n_made_dirs++;
        return 0;
}

/* Take back one directory made_dir recorded: only while the entry under
 * its parent is still that directory (and empty: unlinkat says ENOTEMPTY
 * otherwise). */
static void unmake_dir(const struct sbx_docker_made_dir *d) {
        dir_identity now;

        if (dir_identity_get(d->parent_fd, d->name, &now) == 0 && !memcmp(&now, &d->id, sizeof(now)))
                (void) unlinkat(d->parent_fd, d->name, AT_REMOVEDIR);
}

/* Made one component at a time beneath the one before, following no
 * symlink: a link on the path (a sandbox may have planted it in a directory
 * it writes) is neither followed nor made through; create's own resolve
 * (sbx_mount_source_resolve) then refuses the source naming the link. */
static int ensure_source(sbx_docker_create *c, const char *path, sbx_error *reterr) {
        char buf[4096];
        struct stat st;
        _cleanup_close_ int dfd = -EBADF;

        if (lstat(path, &st) == 0 || path[0] != '/')
                return 0;
        if (snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf))
                return sbx_error_set(reterr, -ENAMETOOLONG, "-v: source '%s': path too long", path);
        dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "-v: open /");
        for (char *comp = buf + 1;;) {
                char *slash = strchr(comp, '/');
                int nfd;

                if (slash)
                        *slash = '\0';
                if (*comp && strcmp(comp, ".") && strcmp(comp, "..")) {
                        if (mkdirat(dfd, comp, 0755) == 0) {
                                int r = made_dir(c, dfd, comp, buf, reterr);

                                if (r < 0)
                                        return r;
                        } else if (!slash && errno != EEXIST) {
                                return sbx_error_set(reterr, -errno, "-v: create the source directory '%s'", path);
                        }
                        nfd = openat(dfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (nfd < 0)
                                return 0;   /* a symlink or a file: create's resolve says which */
                        close(dfd);
                        dfd = nfd;
                } else if (*comp)
                        return 0;           /* '.' or '..': left to create's resolve */
                if (!slash)
                        break;
                *slash = '/';
                comp = slash + 1;
        }
        return 0;
}

/* ------------------------------------------------------------- create */

void sbx_docker_create_done(sbx_docker_create *c) {
        for (size_t i = c->n_made_dirs; i > 0; i--) {
                struct sbx_docker_made_dir *d = &c->made_dirs[i - 1];

                if (!c->keep_dirs)
                        unmake_dir(d);
                close(d->parent_fd);
                free(d->name);
        }
        free(c->made_dirs);
        sbx_run_config_free(&c->config);
        for (size_t i = 0; i < c->n_labels; i++) {
                free(c->labels[i].key);
                free(c->labels[i].value);
        }
        free(c->labels);
        json_object_put(c->meta);
        *c = (sbx_docker_create) {};
}

static int add_label(sbx_docker_create *c, const char *spec, sbx_error *reterr) {
        const char *eq = strchr(spec, '=');
        sbx_label *l = realloc(c->labels, sizeof(sbx_label) * (c->n_labels + 1));

        if (!l)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        c->labels = l;
        l = &c->labels[c->n_labels];
        l->key = eq ? strndup(spec, (size_t) (eq - spec)) : strdup(spec);
        l->value = strdup(eq ? eq + 1 : "");
        if (!l->key || !l->value) {
                free(l->key);
                free(l->value);
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        c->n_labels++;
        if (!strcmp(l->key, "openclaw.configHash"))
                c->config_hash = l->value;
        return 0;
}

static bool host_has_apparmor(void) {
        char buf[4] = "";
        _cleanup_close_ int fd = open("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);

        return fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 && buf[0] == 'Y';
}

static int apply_security_opt(sbx_run_config *cfg, const char *v, sbx_error *reterr) {
        if (!strcmp(v, "no-new-privileges") || !strcmp(v, "no-new-privileges:true") ||
            !strcmp(v, "no-new-privileges=true"))
                return 0; /* sbx always sets no_new_privs */
        if (!strncmp(v, "seccomp=", 8) || !strncmp(v, "seccomp:", 8)) {
                if (!strcmp(v + 8, "unconfined"))
                        return sbx_error_set(reterr, -EINVAL,
                                             "--security-opt '%s': sbx never runs without a seccomp filter", v);
                /* docker's name for its default profile, never a file */
                if (!strcmp(v + 8, "builtin")) {
                        cfg->seccomp.profile_path = NULL;
                        return 0;
                }
                /* named here as the caller wrote it (create checks the
                 * file again under sbx's own flag name) */
                if (access(v + 8, R_OK) < 0)
                        return sbx_error_set(reterr, -errno, "--security-opt '%s': opening seccomp profile '%s' failed",
                                             v, v + 8);
                cfg->seccomp.profile_path = v + 8;
                return 0;
        }
        if (!strcmp(v, "apparmor=unconfined") || !strcmp(v, "apparmor:unconfined"))
                return 0; /* sbx applies no AppArmor profile */
        /* docker applies a profile only where the host has AppArmor
         * (apparmor.HostSupports()) and ignores it elsewhere; sbx cannot
         * load one, so it refuses a profile only where docker would apply it */
        if ((!strncmp(v, "apparmor=", 9) || !strncmp(v, "apparmor:", 9)) && v[9] && !host_has_apparmor())
                return 0;
        return sbx_error_set(reterr, -EINVAL,
                             "--security-opt '%s': not supported by sbx (no-new-privileges, seccomp=FILE and "
                             "apparmor=unconfined are, and any apparmor= profile on a host without AppArmor, "
                             "which docker ignores there; sbx cannot load AppArmor or SELinux profiles)",
                             v);
}

/* docker's --cap-drop: ALL or a capability name, with or without CAP_, any
 * case. A sandbox has no capabilities at all, so every valid drop holds
 * (and more: inspect shows CapDrop ["ALL"]); an unknown name is docker's
 * error. */
static int check_cap_drop(const char *v, sbx_error *reterr) {
        char name[64];

        if (!strcasecmp(v, "ALL"))
                return 0;
        snprintf(name, sizeof(name), "%s%s", strncasecmp(v, "CAP_", 4) ? "CAP_" : "", v);
        if (strlen(v) >= sizeof(name) - 4 || sbx_cap_from_name(name) < 0)
                return sbx_error_set(reterr, -EINVAL, "--cap-drop '%s': invalid CapDrop: unknown capability: \"%s\"",
                                     v, name);
        return 0;
}

static int apply_limit(sbx_run_config *cfg, sbx_docker_flag f, const char *v, sbx_error *reterr) {
        int64_t n;
        char *end;

        switch (f) {
        case SBX_DF_PIDS_LIMIT:
                errno = 0;
                n = strtoll(v, &end, 10);
                if (errno || end == v || *end)
                        return sbx_error_set(reterr, -EINVAL, "--pids-limit '%s': not a number", v);
                /* docker: 0/-1 = unlimited (also no default cap, issue 15) */
                cfg->limits.pids = n <= 0 ? SBX_LIMIT_UNLIMITED : n;
                return 0;
        case SBX_DF_MEMORY:
        case SBX_DF_MEMORY_SWAP:
                if (sbx_run_config_set_memory(cfg, f == SBX_DF_MEMORY_SWAP, v, true) < 0)
                        return sbx_error_set(reterr, -EINVAL, "--%s '%s': expected a size like 512m or 1g",
                                             sbx_docker_flag_name(f), v);
                return 0;
        case SBX_DF_CPUS:
                if (sbx_parse_cpus(v, &cfg->limits.cpu_millis) < 0)
                        return sbx_error_set(reterr, -EINVAL, "--cpus '%s': expected a number like 1.5", v);
                return 0;
        default:
                return -EINVAL;
        }
}

/* A -v: /workspace becomes the sandbox's workspace (so, as root, it is
 * attached through sbx's idmapped mount and the sandbox user can write
 * it); every other one is a bind. */
static int apply_volume(sbx_docker_create *c, const char *spec, json_object *vols, sbx_error *reterr) {
        sbx_docker_volume v;
        sbx_run_config *cfg = &c->config;
        json_object *o;
        int r;

        r = sbx_docker_parse_volume(spec, &v, reterr);
        if (r < 0)
                return r;
        r = ensure_source(c, v.src, reterr);
        if (r < 0)
                return r;
        if (!strcmp(v.dst, "/workspace") && !cfg->workspace) {
                cfg->workspace = strdup(v.src);
                if (!cfg->workspace)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                cfg->workspace_access = v.ro ? SBX_WORKSPACE_RO : SBX_WORKSPACE_RW;
                cfg->workspace_no_agent = true;
        } else {
                sbx_bind b = { .src = v.src, .dst = v.dst, .ro = v.ro };
                if (sbx_run_config_add_bind(cfg, &b) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        o = json_object_new_object();
        json_object_object_add(o, "Destination", json_object_new_string(v.dst));
        json_object_object_add(o, "Mode", json_object_new_string(v.mode));
        json_object_object_add(o, "Spec", json_object_new_string(spec));   /* HostConfig.Binds */
        json_object_array_add(vols, o);
        return 0;
}

static int apply_create_flag(sbx_docker_create *c, const sbx_docker_opt *o, char ***envv, size_t *n_env,
                             json_object *meta, sbx_error *reterr) {
        sbx_run_config *cfg = &c->config;
        sbx_tmpfs t;
        sbx_rlimit rl;
        int r;

        switch (o->flag) {
        case SBX_DF_NAME:
                c->name = o->value;
                return 0;
        case SBX_DF_INIT:
                /* sbx's init is always pid 1 */
                return 0;
        case SBX_DF_CAP_DROP:
                return check_cap_drop(o->value, reterr);
        case SBX_DF_LABEL:
                return add_label(c, o->value, reterr);
        case SBX_DF_READ_ONLY:
                cfg->read_only_root = strcmp(o->value, "false") != 0;
                return 0;
        case SBX_DF_TMPFS: {
                /* docker keeps the option text: inspect's HostConfig.Tmpfs shows it */
                const char *colon = strchr(o->value, ':');
                _cleanup_free_ char *path = colon ? strndup(o->value, (size_t) (colon - o->value))
                                                  : strdup(o->value);
                r = sbx_parse_tmpfs_docker(o->value, &t, reterr);
                if (r < 0)
                        return r;
                r = sbx_run_config_add_tmpfs(cfg, &t);
                free(t.path);
                if (r < 0 || !path)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                json_object_object_add(json_object_object_get(meta, "Tmpfs"), path,
                                       json_object_new_string(colon ? colon + 1 : ""));
                return 0;
        }
        case SBX_DF_NETWORK:
                /* none | bridge | container:NAME (the docker CLI takes
                 * container: as is; OpenClaw checked its override), host and
                 * other names refused naming the value */
                /* "" and "default": docker's default network, the bridge */
                r = sbx_run_config_set_network(cfg, !o->value[0] || !strcmp(o->value, "default") ? "bridge" : o->value,
                                               true, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "--network"), r;
                cfg->allow_container_join = cfg->network == SBX_NETWORK_CONTAINER;
                return 0;
        case SBX_DF_USER:
                json_object_object_add(meta, "User", json_object_new_string(o->value));
                /* docker's: names and a bare uid's group from the image */
                return sbx_rootfs_user(cfg->rootfs, o->value, "--user", &cfg->uid, &cfg->gid, NULL, 0, reterr);
        case SBX_DF_SECURITY_OPT:
                return apply_security_opt(cfg, o->value, reterr);
        case SBX_DF_DNS:
        case SBX_DF_ADD_HOST: {
                /* as docker's CLI: the address trimmed and canonical,
                 * HOST=IP and [IPv6] taken */
                _cleanup_free_ char *v = NULL;
                r = o->flag == SBX_DF_DNS ? sbx_docker_dns_normalize(o->value, &v, reterr)
                                          : sbx_docker_extra_host_normalize(o->value, &v, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "--%s", sbx_docker_flag_name(o->flag)), r;
                r = o->flag == SBX_DF_DNS ? sbx_run_config_add_dns(cfg, v) : sbx_run_config_add_extra_host(cfg, v);
                return r < 0 ? sbx_error_set(reterr, -ENOMEM, "out of memory") : 0;
        }
        case SBX_DF_PIDS_LIMIT:
        case SBX_DF_MEMORY:
        case SBX_DF_MEMORY_SWAP:
        case SBX_DF_CPUS:
                return apply_limit(cfg, o->flag, o->value, reterr);
        case SBX_DF_ULIMIT:
                r = sbx_parse_ulimit(o->value, &rl, reterr);
                if (r < 0)
                        return r;
                return sbx_run_config_add_rlimit(cfg, &rl) < 0
                               ? sbx_error_set(reterr, -E2BIG, "--ulimit '%s': too many limits", o->value)
                               : 0;
        case SBX_DF_WORKDIR:
                if (o->value[0] != '/')
                        return sbx_error_set(reterr, -EINVAL, "--workdir '%s': must be absolute", o->value);
                free(cfg->workdir);
                cfg->workdir = strdup(o->value);
                free(cfg->make_dir);
                cfg->make_dir = strdup(o->value);
                if (!cfg->make_dir)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                return cfg->workdir ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
        case SBX_DF_VOLUME:
                return apply_volume(c, o->value, json_object_object_get(meta, "Volumes"), reterr);
        case SBX_DF_ENV:
                return env_add_spec(envv, n_env, o->value, strlen(o->value), "-e", 1, reterr);
        case SBX_DF_ENV_FILE:
                return sbx_docker_env_file(o->value, envv, n_env, reterr);
        case SBX_DF_HOSTNAME:
                if (!o->value[0] || strlen(o->value) > 64 || strpbrk(o->value, "/ \t\n"))
                        return sbx_error_set(reterr, -EINVAL, "--hostname '%s': invalid", o->value);
                free(cfg->hostname);
                cfg->hostname = strdup(o->value);
                return cfg->hostname ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
        default:
                return sbx_error_set(reterr, -EINVAL, "docker create: --%s is not supported",
                                     sbx_docker_flag_name(o->flag));
        }
}

static size_t path_depth(const char *p) {
        size_t n = 0;
        for (; *p; p++)
                n += *p == '/' && p[1] && p[1] != '/';
        return n;
}

/* Like docker: a bind inside another is mounted after it, whatever the -v
 * order (stable insertion sort by depth; a handful of binds). */
/* No -v at /workspace, and one at --workdir (OpenClaw's docker.workdir:
 * its workspace mount goes there): that one is the workspace, mounted at
 * the workdir, so as root it is attached idmapped like /workspace and the
 * sandbox user writes it, as container root writes it under docker. */
static int workspace_at_workdir(sbx_run_config *c, sbx_error *reterr) {
        if (c->workspace || !c->workdir || !strcmp(c->workdir, "/workspace"))
                return 0;
        for (size_t i = 0; i < c->n_binds; i++) {
                sbx_bind b = c->binds[i];
                if (strcmp(b.dst, c->workdir))
                        continue;
                c->workspace_dst = strdup(c->workdir);
                if (!c->workspace_dst)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
                c->workspace = b.src;           /* taken over from the bind */
                c->workspace_access = b.ro ? SBX_WORKSPACE_RO : SBX_WORKSPACE_RW;
                c->workspace_no_agent = true;
                free(b.dst);
                memmove(&c->binds[i], &c->binds[i + 1], (c->n_binds - i - 1) * sizeof(c->binds[0]));
                c->n_binds--;
                return 0;
        }
        return 0;
}

static void sort_binds_parent_first(sbx_run_config *c) {
        for (size_t i = 1; i < c->n_binds; i++) {
                sbx_bind b = c->binds[i];
                size_t j = i;
                while (j > 0 && path_depth(c->binds[j - 1].dst) > path_depth(b.dst)) {
                        c->binds[j] = c->binds[j - 1];
                        j--;
                }
                c->binds[j] = b;
        }
}

/* The daemon's checks of the resources (moby's verifyPlatformContainerResources),
 * with its words: a value docker refuses is refused here too. */
static int check_resources(const sbx_limits *l, sbx_error *reterr) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

        if (l->memory > 0 && l->memory < 6 * 1024 * 1024)
                return sbx_error_set(reterr, -EINVAL, "--memory: Minimum memory limit allowed is 6MB");
        if (l->memory_swap > 0 && l->memory <= 0)
                return sbx_error_set(reterr, -EINVAL, "--memory-swap: You should always set the Memory limit when "
                                     "using Memoryswap limit, see usage");
        if (l->memory_swap > 0 && l->memory_swap < l->memory)
                return sbx_error_set(reterr, -EINVAL, "--memory-swap: Minimum memoryswap limit should be larger "
                                     "than memory limit, see usage");
        if (l->cpu_millis > 0 && ncpu > 0 && (l->cpu_millis < 10 || l->cpu_millis > ncpu * 1000))
                return sbx_error_set(reterr, -EINVAL, "--cpus: Range of CPUs is from 0.01 to %ld.00, as there are "
                                     "only %ld CPUs available", ncpu, ncpu);
        return 0;
}

/* Docker's process environment besides the image's and the flags':
 * HOSTNAME (the hostname inside) and, unless set, HOME from the image's
 * /etc/passwd for the user's uid, "/" when it has none. */
static int add_docker_env(const sbx_run_config *cfg, char ***envv, size_t *n_env, sbx_error *reterr) {
        char kv[1100], home[1024];
        bool has_home = false;

        for (size_t i = 0; i < *n_env; i++)
                has_home = has_home || !strncmp((*envv)[i], "HOME=", 5);
        snprintf(kv, sizeof(kv), "HOSTNAME=%s", cfg->hostname ?: "sbx");
        if (env_set(envv, n_env, kv, strlen(kv)) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (has_home)
                return 0;
        if (!sbx_rootfs_home(cfg->rootfs, cfg->uid, home, sizeof(home)))
                snprintf(home, sizeof(home), "/");
        snprintf(kv, sizeof(kv), "HOME=%s", home);
        return env_set(envv, n_env, kv, strlen(kv)) < 0 ? sbx_error_set(reterr, -ENOMEM, "out of memory") : 0;
}

int sbx_docker_create_prepare(const sbx_docker_args *a, sbx_docker_create *ret, sbx_error *reterr) {
        char rootfs[4096];
        struct sbx_image_config icfg = {};
        char **envv = NULL;
        size_t n_env = 0;
        const char *lim;
        int r;

        *ret = (sbx_docker_create) {};
        sbx_run_config_init(&ret->config);
        ret->meta = json_object_new_object();
        if (!ret->meta)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        json_object *meta = ret->meta;
        json_object_object_add(meta, "Volumes", json_object_new_array());
        json_object_object_add(meta, "Tmpfs", json_object_new_object());
        if (a->n_pos < 1)
                return sbx_error_set(reterr, -EINVAL, "docker create: requires at least 1 argument (the image)");
        ret->image = a->pos[0];
        /* Docker's defaults: writable root, no tmpfs, the image's env. */
        ret->config.read_only_root = false;
        ret->config.tmpfs_set = true;
        r = sbx_image_resolve(ret->image, rootfs, sizeof(rootfs), &icfg, reterr);
        if (r < 0)
                goto out;
        ret->config.rootfs = strdup(rootfs);
        for (size_t i = 0; icfg.env && icfg.env[i]; i++)
                if (strchr(icfg.env[i], '=') && env_set(&envv, &n_env, icfg.env[i], strlen(icfg.env[i])) < 0) {
                        r = sbx_error_set(reterr, -ENOMEM, "out of memory");
                        goto out;
                }
        for (size_t i = 0; i < a->n_opts; i++) {
                r = apply_create_flag(ret, &a->opts[i], &envv, &n_env, meta, reterr);
                if (r < 0)
                        goto out;
        }
        r = workspace_at_workdir(&ret->config, reterr);
        if (r >= 0)
                r = sbx_run_config_check_mounts(&ret->config, reterr);
        if (r < 0)
                goto out;
        sort_binds_parent_first(&ret->config);
        /* the id now: docker's default hostname is its first 12 characters */
        {
                unsigned char rnd[SBX_SANDBOX_ID_LEN / 2];
                if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd)) {
                        r = sbx_error_set(reterr, -errno, "getrandom");
                        goto out;
                }
                for (size_t i = 0; i < sizeof(rnd); i++)
                        snprintf(ret->id + 2 * i, 3, "%02x", rnd[i]);
                if (!ret->config.hostname && !(ret->config.hostname = strndup(ret->id, 12))) {
                        r = sbx_error_set(reterr, -ENOMEM, "out of memory");
                        goto out;
                }
        }
        r = check_resources(&ret->config.limits, reterr);
        /* inspect's Config.Env: the image's and the flags' (docker adds
         * HOSTNAME and HOME when it starts the process) */
        json_object_object_add(meta, "Env", sbx_json_strings(envv, n_env));
        if (r >= 0 && ret->config.rootfs)
                r = add_docker_env(&ret->config, &envv, &n_env, reterr);
        if (r < 0)
                goto out;
        if (ret->config.workspace_access == SBX_WORKSPACE_RO && !ret->config.workspace) {
                r = sbx_error_set(reterr, -EINVAL, "internal: ro workspace without a dir");
                goto out;
        }
        /* Limits a host cannot enforce fail create (strict, sbx's rule);
         * SBX_DOCKER_LIMITS=best-effort runs without them, with a notice. */
        lim = getenv("SBX_DOCKER_LIMITS");
        ret->config.limits.best_effort = lim && !strcmp(lim, "best-effort");
        for (size_t i = 0; i < n_env; i++)
                if (sbx_run_config_add_env(&ret->config, envv[i]) < 0) {
                        r = sbx_error_set(reterr, -ENOMEM, "out of memory");
                        goto out;
                }
        json_object_object_add(meta, "Image", json_object_new_string(ret->image));
        json_object_object_add(meta, "Cmd", sbx_json_strings(a->pos + 1, a->n_pos - 1));
        json_object_object_add(meta, "ReadonlyRootfs", json_object_new_boolean(ret->config.read_only_root));
        json_object_object_add(meta, "WorkingDir",
                               json_object_new_string(ret->config.workdir ?: icfg.working_dir ?: "/"));
        if (!ret->config.rootfs)
                r = sbx_error_set(reterr, -ENOMEM, "out of memory");
out:
        sbx_image_config_done(&icfg);
        sbx_docker_env_free(envv, n_env);
        return r;
}

/* ------------------------------------------------------------- meta + inspect */

int sbx_docker_meta_save(const sbx_sandbox *s, const void *meta, sbx_error *reterr) {
        const char *text = json_object_to_json_string_ext((json_object *) meta, JSON_C_TO_STRING_PLAIN);
        char path[4096];
        int r;

        snprintf(path, sizeof(path), "%s/" META_FILE, s->state_dir);
        r = sbx_write_file_atomic(path, text, strlen(text), 0644, false);
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': write %s", s->name, path);
        return 0;
}

static json_object *meta_load(const sbx_sandbox *s) {
        char path[4096];

        snprintf(path, sizeof(path), "%s/" META_FILE, s->state_dir);
        if (access(path, R_OK) < 0)
                return NULL;
        return json_object_from_file(path);
}

static void iso_time(uint64_t ms, char buf[64]) {
        time_t t = (time_t) (ms / 1000);
        struct tm tm;

        if (ms == 0 || !gmtime_r(&t, &tm))
                snprintf(buf, 64, "0001-01-01T00:00:00Z");
        else
                snprintf(buf, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                         tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned) (ms % 1000));
}

/* Docker's inspect holds Go values: a nil slice or map is JSON null, but a
 * template prints a nil slice "[]" and a nil map "map[]" ({{.HostConfig.CapAdd}}
 * is "[]" on Docker, never "<nil>": only a nil pointer prints that). An empty
 * array or object whose JSON text is "null" gives both renderings. */
static int nil_to_json(json_object *o, struct printbuf *pb, int level, int flags) {
        (void) o, (void) level, (void) flags;
        return printbuf_memappend(pb, "null", 4);
}

static json_object *nil_slice(void) {
        json_object *o = json_object_new_array();
        json_object_set_serializer(o, nil_to_json, NULL, NULL);
        return o;
}

static json_object *nil_map(void) {
        json_object *o = json_object_new_object();
        json_object_set_serializer(o, nil_to_json, NULL, NULL);
        return o;
}

/* docker's types.MountPoint, fmt's order ({{.Mounts}}: "[{bind  /src /dst   true rprivate}]") */
static const sbx_docker_tmpl_struct_shape mount_shape = {
        .fields = (const char *const[]) { "Type", "Name", "Source", "Destination", "Driver", "Mode", "RW",
                                          "Propagation", NULL },
};
/* *types.ContainerState ({{.State}}: "&{exited false ... 143  2026-... 2026-... <nil>}") */
static const sbx_docker_tmpl_struct_shape state_shape = {
        .pointer = true,
        .fields = (const char *const[]) { "Status", "Running", "Paused", "Restarting", "OOMKilled", "Dead", "Pid",
                                          "ExitCode", "Error", "StartedAt", "FinishedAt", "*Health", NULL },
};

static const char *meta_mode(json_object *meta, const char *dst) {
        json_object *vols = meta ? json_object_object_get(meta, "Volumes") : NULL;

        for (size_t i = 0; vols && i < json_object_array_length(vols); i++) {
                json_object *v = json_object_array_get_idx(vols, i);
                if (!strcmp(json_object_get_string(json_object_object_get(v, "Destination")), dst))
                        return json_object_get_string(json_object_object_get(v, "Mode"));
        }
        return NULL;
}

/* Mounts as mounted (the record mirrors mount.c), the topmost per place,
 * limited to what create was asked for (sbx's own /agent next to a ro
 * workspace is not a docker mount). */
static json_object *mounts_json(const sbx_sandbox *s, json_object *meta) {
        json_object *a = json_object_new_array();
        bool *shown = calloc(s->n_mounts + 1, sizeof(bool));

        for (size_t i = s->n_mounts; shown && i > 0; i--) {
                const sbx_sandbox_mount *m = &s->mounts[i - 1];
                bool later = false;
                for (size_t k = i; k < s->n_mounts; k++)
                        later = later || (shown[k] && !strcmp(s->mounts[k].dst, m->dst));
                if (m->type == SBX_SANDBOX_MOUNT_TMPFS || later || (meta && !meta_mode(meta, m->dst)))
                        continue;
                shown[i - 1] = true;
        }
        for (size_t i = 0; shown && i < s->n_mounts; i++) {
                const sbx_sandbox_mount *m = &s->mounts[i];
                json_object *o;
                if (!shown[i])
                        continue;
                o = json_object_new_object();
                json_object_object_add(o, "Type", json_object_new_string("bind"));
                json_object_object_add(o, "Source", json_object_new_string(m->src ?: ""));
                json_object_object_add(o, "Destination", json_object_new_string(m->dst));
                json_object_object_add(o, "Mode", json_object_new_string(meta_mode(meta, m->dst) ?: ""));
                json_object_object_add(o, "RW", json_object_new_boolean(m->rw));
                json_object_object_add(o, "Propagation", json_object_new_string("rprivate"));
                sbx_docker_tmpl_struct(o, &mount_shape);
                json_object_array_add(a, o);
        }
        free(shown);
        return a;
}

/* HostConfig.Binds: the -v specs as given, as docker keeps them (nil
 * without any; a record from before the "Spec" key: nil) */
static json_object *binds_json(json_object *meta) {
        json_object *vols = meta ? json_object_object_get(meta, "Volumes") : NULL, *a = NULL;

        for (size_t i = 0; vols && i < json_object_array_length(vols); i++) {
                json_object *spec = json_object_object_get(json_object_array_get_idx(vols, i), "Spec");
                if (!spec)
                        continue;
                if (!a)
                        a = json_object_new_array();
                json_object_array_add(a, json_object_get(spec));
        }
        return a ?: nil_slice();
}

static json_object *tmpfs_json(const sbx_sandbox *s, json_object *meta) {
        json_object *t = meta ? json_object_object_get(meta, "Tmpfs") : NULL, *o;

        if (t) {
                o = json_object_object_length(t) ? json_object_get(t) : nil_map();
                sbx_docker_tmpl_map(o, SBX_TMPL_MAP_STRING);
                return o;
        }
        o = json_object_new_object();
        sbx_docker_tmpl_map(o, SBX_TMPL_MAP_STRING);
        for (size_t i = 0; i < s->n_mounts; i++)
                if (s->mounts[i].type == SBX_SANDBOX_MOUNT_TMPFS)
                        json_object_object_add(o, s->mounts[i].dst, json_object_new_string(s->mounts[i].options ?: ""));
        return o;
}

int sbx_docker_exit_code(const sbx_sandbox *s) {
        int ws = s->exit_status;

        if (s->state != SBX_SANDBOX_STOPPED || !s->finished_ms)
                return 0;
        if (ws < 0)
                return 128 + SIGKILL;
        return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

static json_object *meta_get(json_object *meta, const char *key, json_object *fallback) {
        json_object *v = meta ? json_object_object_get(meta, key) : NULL;
        if (v) {
                json_object_put(fallback);
                return json_object_get(v);
        }
        return fallback;
}

/* HostConfig.NetworkMode as docker shows it: none, bridge, container:NAME */
static const char *network_mode(const sbx_run_config *c, char *buf, size_t len) {
        if (c->network == SBX_NETWORK_CONTAINER) {
                snprintf(buf, len, "container:%s", c->network_container ?: "");
                return buf;
        }
        if (c->network_name)
                return c->network_name;
        return c->network == SBX_NETWORK_BRIDGE ? "bridge" : "none";
}

/* NetworkSettings as docker shows it for the modes sbx has: the bridge's
 * address and gateway while running ("" otherwise, as docker does). */
static json_object *network_settings(const sbx_sandbox *s) {
        json_object *ns = json_object_new_object(), *nets = json_object_new_object(), *n;

        json_object_object_add(ns, "IPAddress", json_object_new_string(s->ip_address));
        json_object_object_add(ns, "Gateway", json_object_new_string(s->gateway));
        if (s->config.network != SBX_NETWORK_CONTAINER) {
                n = json_object_new_object();
                json_object_object_add(n, "IPAddress", json_object_new_string(s->ip_address));
                json_object_object_add(n, "Gateway", json_object_new_string(s->gateway));
                json_object_object_add(nets, s->config.network_name ? s->config.network_name
                                             : s->config.network == SBX_NETWORK_BRIDGE ? "bridge" : "none", n);
        }
        sbx_docker_tmpl_map(nets, SBX_TMPL_MAP_POINTER);
        json_object_object_add(ns, "Networks", nets);
        return ns;
}

void *sbx_docker_inspect_json(const sbx_sandbox *s) {
        _cleanup_json_ json_object *meta = meta_load(s);
        char mode[SBX_SANDBOX_NAME_MAX + 80];
        json_object *o = json_object_new_object(), *state = json_object_new_object(), *cfg = json_object_new_object(),
                    *host = json_object_new_object(), *labels = json_object_new_object(), *cmd;
        const char *status;
        char created[64], started[64], finished[64], name[SBX_SANDBOX_NAME_MAX + 2];

        switch (s->state) {
        case SBX_SANDBOX_CREATED:
                status = "created";
                break;
        case SBX_SANDBOX_RUNNING:
                status = "running";
                break;
        case SBX_SANDBOX_PAUSED:
                status = "paused";
                break;
        case SBX_SANDBOX_STOPPED:
        case _SBX_SANDBOX_STATE_MAX:
        case _SBX_SANDBOX_STATE_INVALID:
        default:
                status = "exited";
                break;
        }
        iso_time(s->created_ms, created);
        iso_time(s->started_ms, started);
        iso_time(s->finished_ms, finished);
        snprintf(name, sizeof(name), "/%s", s->name);
        cmd = meta_get(meta, "Cmd", json_object_new_array());

        json_object_object_add(o, "Id", json_object_new_string(s->id));
        json_object_object_add(o, "Created", json_object_new_string(created));
        json_object_object_add(o, "Path", json_object_new_string(
                                                  json_object_array_length(cmd)
                                                          ? json_object_get_string(json_object_array_get_idx(cmd, 0))
                                                          : ""));
        json_object_object_add(state, "Status", json_object_new_string(status));
        json_object_object_add(state, "Running", json_object_new_boolean(s->state == SBX_SANDBOX_RUNNING ||
                                                                          s->state == SBX_SANDBOX_PAUSED));
        json_object_object_add(state, "Paused", json_object_new_boolean(s->state == SBX_SANDBOX_PAUSED));
        json_object_object_add(state, "Restarting", json_object_new_boolean(false));
        json_object_object_add(state, "OOMKilled", json_object_new_boolean(false));
        json_object_object_add(state, "Dead", json_object_new_boolean(false));
        json_object_object_add(state, "Pid", json_object_new_int(s->init_pid));
        json_object_object_add(state, "ExitCode", json_object_new_int(sbx_docker_exit_code(s)));
        json_object_object_add(state, "Error", json_object_new_string(""));
        json_object_object_add(state, "StartedAt", json_object_new_string(started));
        json_object_object_add(state, "FinishedAt", json_object_new_string(finished));
        sbx_docker_tmpl_struct(state, &state_shape);
        json_object_object_add(o, "State", state);
        json_object_object_add(o, "Image", json_object_new_string(s->image ?: ""));
        json_object_object_add(o, "Name", json_object_new_string(name));
        json_object_object_add(host, "Tmpfs", tmpfs_json(s, meta));
        json_object_object_add(host, "ReadonlyRootfs", json_object_new_boolean(s->config.read_only_root));
        /* What holds, whatever --cap-drop asked: a sandbox has no
         * capabilities at all (SECURITY.md §7), Docker's CapDrop ["ALL"];
         * Docker would keep its defaults minus a shorter list. */
        json_object_object_add(host, "CapAdd", nil_slice());
        json_object_object_add(host, "CapDrop", json_object_new_array());
        json_object_array_add(json_object_object_get(host, "CapDrop"), json_object_new_string("ALL"));
        {
                /* as docker keeps them: 0 unset, -1 unlimited swap, PidsLimit a pointer (null unset) */
                const sbx_limits *l = &s->config.limits;
                json_object_object_add(host, "Memory", json_object_new_int64(l->memory > 0 ? l->memory : 0));
                json_object_object_add(host, "MemorySwap",
                                       json_object_new_int64(l->memory_swap == SBX_LIMIT_UNLIMITED ? -1
                                                             : l->memory_swap > 0 ? l->memory_swap : 0));
                json_object_object_add(host, "NanoCpus",
                                       json_object_new_int64(l->cpu_millis > 0 ? l->cpu_millis * 1000000 : 0));
                json_object_object_add(host, "PidsLimit", l->pids > 0 ? json_object_new_int64(l->pids) : NULL);
        }
        json_object_object_add(host, "Binds", binds_json(meta));
        json_object_object_add(host, "Privileged", json_object_new_boolean(false));
        json_object_object_add(host, "NetworkMode", json_object_new_string(network_mode(&s->config, mode,
                                                                                       sizeof(mode))));
        json_object_object_add(o, "HostConfig", host);
        json_object_object_add(o, "NetworkSettings", network_settings(s));
        json_object_object_add(o, "Mounts", mounts_json(s, meta));
        for (size_t i = 0; i < s->n_labels; i++)
                json_object_object_add(labels, s->labels[i].key, json_object_new_string(s->labels[i].value));
        json_object_object_add(cfg, "Hostname", json_object_new_string(s->config.hostname ?: "sbx"));
        json_object_object_add(cfg, "User", meta_get(meta, "User", json_object_new_string("")));
        json_object_object_add(cfg, "Env",
                               meta_get(meta, "Env", sbx_json_strings(s->config.envv, s->config.n_env)));
        json_object_object_add(cfg, "Cmd", cmd);
        json_object_object_add(cfg, "Entrypoint", nil_slice());   /* sbx runs Cmd itself */
        json_object_object_add(cfg, "Image", json_object_new_string(s->image ?: ""));
        json_object_object_add(cfg, "WorkingDir",
                               json_object_new_string(s->config.workdir ?: "/workspace"));
        sbx_docker_tmpl_map(labels, SBX_TMPL_MAP_STRING);
        json_object_object_add(cfg, "Labels", labels);
        json_object_object_add(o, "Config", cfg);
        /* issue 14: sbx's own key (docker has none by that name): the policy,
         * its rules and hash ({"policy": "none"} without an agent) */
        json_object_object_add(o, "Sbx", sbx_sandbox_policy_json(s));
        return o;
}

/* ------------------------------------------------------------- self */

static void read_line(const char *path, char *buf, size_t len) {
        FILE *f = fopen(path, "re");

        buf[0] = '\0';
        if (f) {
                if (fgets(buf, (int) len, f))
                        buf[strcspn(buf, "\n")] = '\0';
                fclose(f);
        }
}

void sbx_docker_self_id(char ret[SBX_SANDBOX_ID_LEN + 1]) {
        char text[512], boot[128], host[256] = "";

        read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
        (void) gethostname(host, sizeof(host) - 1);
        snprintf(text, sizeof(text), "sbx-docker-self\n%s\n%s", boot, host);
        sbx_sha256_hex(text, strlen(text), ret);
}

bool sbx_docker_is_self(const char *ref) {
        char host[256] = "", id[SBX_SANDBOX_ID_LEN + 1];
        size_t n = strlen(ref);

        if (access("/.dockerenv", F_OK) < 0 && access("/run/.containerenv", F_OK) < 0)
                return false;
        (void) gethostname(host, sizeof(host) - 1);
        if (host[0] && !strcmp(ref, host))
                return true;
        sbx_docker_self_id(id);
        return n >= 12 && n <= SBX_SANDBOX_ID_LEN && !strncmp(ref, id, n);
}

void *sbx_docker_self_inspect_json(void) {
        json_object *o = json_object_new_object(), *state = json_object_new_object(),
                    *mounts = json_object_new_array(), *m = json_object_new_object(),
                    *host = json_object_new_object(), *cfg = json_object_new_object();
        char id[SBX_SANDBOX_ID_LEN + 1], hn[256] = "", name[260];

        sbx_docker_self_id(id);
        (void) gethostname(hn, sizeof(hn) - 1);
        snprintf(name, sizeof(name), "/%s", hn);
        json_object_object_add(o, "Id", json_object_new_string(id));
        json_object_object_add(o, "Name", json_object_new_string(name));
        json_object_object_add(state, "Status", json_object_new_string("running"));
        json_object_object_add(state, "Running", json_object_new_boolean(true));
        json_object_object_add(state, "Paused", json_object_new_boolean(false));
        json_object_object_add(state, "Pid", json_object_new_int((int) getpid()));
        json_object_object_add(o, "State", state);
        /* Host paths map to themselves: the sbx sandboxes' bind sources are
         * the paths OpenClaw names. */
        json_object_object_add(m, "Type", json_object_new_string("bind"));
        json_object_object_add(m, "Source", json_object_new_string("/"));
        json_object_object_add(m, "Destination", json_object_new_string("/"));
        json_object_object_add(m, "Mode", json_object_new_string(""));
        json_object_object_add(m, "RW", json_object_new_boolean(true));
        json_object_object_add(m, "Propagation", json_object_new_string("rprivate"));
        sbx_docker_tmpl_struct(m, &mount_shape);
        json_object_array_add(mounts, m);
        json_object_object_add(o, "Mounts", mounts);
        json_object_object_add(host, "Tmpfs", nil_map());
        sbx_docker_tmpl_map(json_object_object_get(host, "Tmpfs"), SBX_TMPL_MAP_STRING);
        json_object_object_add(o, "HostConfig", host);
        json_object_object_add(cfg, "Hostname", json_object_new_string(hn));
        json_object_object_add(cfg, "Labels", json_object_new_object());
        sbx_docker_tmpl_map(json_object_object_get(cfg, "Labels"), SBX_TMPL_MAP_STRING);
        json_object_object_add(o, "Config", cfg);
        return o;
}

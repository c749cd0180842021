/* SPDX-License-Identifier: MIT */
/* config.json (runtime-spec 1.0-1.2, the Linux parts) -> sbx_container.
 *
 * Every object's keys are checked against the spec's list: an unknown key,
 * or a known one sbx cannot honour, fails with its JSON path named, before
 * anything is created. Nothing is half-applied. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

/* JSON paths in messages are bounded on purpose: truncation is harmless */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include "oci-internal.h"

json_object *oci_json_file(const char *path, sbx_error *reterr) {
        _cleanup_free_ char *text = NULL;
        json_tokener *tok;
        json_object *o;
        size_t len;

        if (sbx_read_file("the JSON file", path, OCI_JSON_MAX, &text, &len, reterr) < 0)
                return NULL;
        tok = json_tokener_new();
        if (!tok) {
                sbx_error_set(reterr, -ENOMEM, "out of memory");
                return NULL;
        }
        o = json_tokener_parse_ex(tok, text, (int) len);
        if (!o)
                sbx_error_set(reterr, -EINVAL, "%s: not valid JSON (%s)", path,
                              json_tokener_error_desc(json_tokener_get_error(tok)));
        json_tokener_free(tok);
        return o;
}

const char *const oci_hook_names[_OCI_HOOK_MAX] = {
        "prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop",
};

static int perr(sbx_error *e, int code, const char *jpath, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int perr(sbx_error *e, int code, const char *jpath, const char *fmt, ...) {
        char msg[SBX_ERROR_MSG_MAX - 160];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        return sbx_error_set(e, code, "config.json: %s: %s", jpath, msg);
}

static void *own(oci_config *c, void *s) {
        if (!s || c->n_owned >= ELEMENTSOF(c->strings_owned)) {
                free(s);
                return NULL;
        }
        return c->strings_owned[c->n_owned++] = s;
}

void *oci_config_own(oci_config *c, void *p) {
        return own(c, p);
}

static char *own_strdup(oci_config *c, const char *s) {
        return own(c, strdup(s));
}

#define JP(buf, fmt, ...) (snprintf(buf, sizeof(buf), fmt, __VA_ARGS__), buf)

/* Keys of obj must be in the NULL-terminated list. */
static int check_keys(json_object *obj, const char *jpath, const char *const *keys, sbx_error *e) {
        json_object_object_foreach(obj, key, val) {
                bool known = false;
                (void) val;
                for (size_t i = 0; keys[i] && !known; i++)
                        known = !strcmp(keys[i], key);
                if (!known)
                        return perr(e, -EINVAL, jpath, "unknown or unsupported field '%s'", key);
        }
        return 0;
}

static int want(json_object *v, json_type t, const char *jpath, sbx_error *e) {
        static const char *const names[] = { "null", "boolean", "number", "number", "object", "array", "string" };
        if (!json_object_is_type(v, t) && !(t == json_type_double && json_object_is_type(v, json_type_int)))
                return perr(e, -EINVAL, jpath, "must be a %s", names[t]);
        /* "\u0000" in a string: sbx would use the text before it (an env
         * entry, an argument, a path cut short), so it is refused */
        if (t == json_type_string && strlen(json_object_get_string(v)) != (size_t) json_object_get_string_len(v))
                return perr(e, -EINVAL, jpath, "must not contain a NUL byte");
        return 0;
}

static json_object *get(json_object *o, const char *key) {
        json_object *v = NULL;
        return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int get_string(json_object *o, const char *key, const char *jpath, const char **ret, sbx_error *e) {
        json_object *v = get(o, key);
        char p[256];

        *ret = NULL;
        if (!v)
                return 0;
        if (want(v, json_type_string, JP(p, "%s%s%s", jpath, *jpath ? "." : "", key), e) < 0)
                return -EINVAL;
        *ret = json_object_get_string(v);
        return 1;
}

static int get_u64(json_object *v, const char *jpath, uint64_t max, uint64_t *ret, sbx_error *e) {
        int64_t x;

        if (!json_object_is_type(v, json_type_int))
                return perr(e, -EINVAL, jpath, "must be an integer");
        x = json_object_get_int64(v);
        if (x < 0 || (uint64_t) x > max)
                return perr(e, -ERANGE, jpath, "out of range (0..%llu)", (unsigned long long) max);
        *ret = (uint64_t) x;
        return 0;
}

static int get_bool(json_object *o, const char *key, const char *jpath, bool *ret, sbx_error *e) {
        json_object *v = get(o, key);
        char p[256];

        if (!v)
                return 0;
        if (want(v, json_type_boolean, JP(p, "%s.%s", jpath, key), e) < 0)
                return -EINVAL;
        *ret = json_object_get_boolean(v);
        return 1;
}

/* A field sbx refuses unless it is empty/absent. */
static int refuse_set(json_object *o, const char *key, const char *jpath, const char *why, sbx_error *e) {
        json_object *v = get(o, key);
        char p[256];

        if (!v || json_object_is_type(v, json_type_null) ||
            (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0) ||
            (json_object_is_type(v, json_type_array) && json_object_array_length(v) == 0) ||
            (json_object_is_type(v, json_type_object) && json_object_object_length(v) == 0))
                return 0;
        return perr(e, -EOPNOTSUPP, JP(p, "%s.%s", jpath, key), "not supported by sbx: %s", why);
}

static int string_array(oci_config *c, json_object *arr, const char *jpath, char ***ret, size_t *ret_n,
                        sbx_error *e) {
        size_t n;
        char **v;
        char p[256];

        if (want(arr, json_type_array, jpath, e) < 0)
                return -EINVAL;
        n = json_object_array_length(arr);
        v = own(c, calloc(n + 1, sizeof(char *)));
        if (!v)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                json_object *s = json_object_array_get_idx(arr, i);
                if (want(s, json_type_string, JP(p, "%s[%zu]", jpath, i), e) < 0)
                        return -EINVAL;
                v[i] = own_strdup(c, json_object_get_string(s));
                if (!v[i])
                        return -ENOMEM;
        }
        *ret = v;
        if (ret_n)
                *ret_n = n;
        return 0;
}

/* ---------------------------------------------------------------- mounts */

static const struct { const char *name; unsigned long set, clear; } mount_flags[] = {
        { "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY }, { "nosuid", MS_NOSUID, 0 }, { "suid", 0, MS_NOSUID },
        { "nodev", MS_NODEV, 0 }, { "dev", 0, MS_NODEV }, { "noexec", MS_NOEXEC, 0 }, { "exec", 0, MS_NOEXEC },
        { "sync", MS_SYNCHRONOUS, 0 }, { "async", 0, MS_SYNCHRONOUS }, { "dirsync", MS_DIRSYNC, 0 },
        { "remount", MS_REMOUNT, 0 }, { "mand", MS_MANDLOCK, 0 }, { "nomand", 0, MS_MANDLOCK },
        { "atime", 0, MS_NOATIME }, { "noatime", MS_NOATIME, 0 }, { "diratime", 0, MS_NODIRATIME },
        { "nodiratime", MS_NODIRATIME, 0 }, { "relatime", MS_RELATIME, 0 }, { "norelatime", 0, MS_RELATIME },
        { "strictatime", MS_STRICTATIME, 0 }, { "nostrictatime", 0, MS_STRICTATIME },
        { "silent", MS_SILENT, 0 }, { "loud", 0, MS_SILENT }, { "defaults", 0, 0 },
};
static const struct { const char *name; unsigned long flags; } propagations[] = {
        { "private", MS_PRIVATE }, { "rprivate", MS_PRIVATE | MS_REC }, { "shared", MS_SHARED },
        { "rshared", MS_SHARED | MS_REC }, { "slave", MS_SLAVE }, { "rslave", MS_SLAVE | MS_REC },
        { "unbindable", MS_UNBINDABLE }, { "runbindable", MS_UNBINDABLE | MS_REC },
};

static int parse_propagation(const char *s, unsigned long *ret) {
        for (size_t i = 0; i < ELEMENTSOF(propagations); i++)
                if (!strcmp(propagations[i].name, s)) {
                        *ret = propagations[i].flags;
                        return 0;
                }
        return -EINVAL;
}

/* runc's checkProcMount: /proc is only ever a procfs (a new one, or a bind
 * of one), and nothing is mounted inside it but the files lxcfs emulates.
 * A bind or tmpfs there (a volume the container or its image fills) gave
 * the bundle the /proc the runtime itself reads once inside the container
 * (a startContainer hook's cap_last_cap), and hid what maskedPaths and
 * readonlyPaths protect behind files of its own. dst: absolute; compared
 * after removing "." components, repeated '/' and ".." lexically (the
 * child checks again where the path really leads: mount.c
 * SBX_MNT_NOT_ON_PROC). 1: /proc itself, 2: inside it (not allowed),
 * 3: inside it, allowed, 0: elsewhere. */
static const char *const proc_mounts_allowed[] = { "/proc/cpuinfo", "/proc/diskstats", "/proc/meminfo",
                                                   "/proc/stat", "/proc/swaps", "/proc/uptime", "/proc/loadavg",
                                                   "/proc/slabinfo", "/proc/net/dev", "/proc/sys/kernel/ns_last_pid",
                                                   NULL };

static int proc_place(const char *dst) {
        char clean[PATH_MAX] = "";
        size_t n = 0;

        for (const char *s = dst; *s;) {
                size_t len;
                while (*s == '/')
                        s++;
                len = strcspn(s, "/");
                if (len == 0 || (len == 1 && s[0] == '.')) {
                        s += len;
                        continue;
                }
                if (len == 2 && s[0] == '.' && s[1] == '.') {
                        while (n > 0 && clean[n - 1] != '/')
                                n--;
                        if (n > 0)
                                n--;
                        clean[n] = '\0';
                        s += len;
                        continue;
                }
                if (n + len + 2 >= sizeof(clean))
                        return 2;
                clean[n++] = '/';
                memcpy(clean + n, s, len);
                n += len;
                clean[n] = '\0';
                s += len;
        }
        if (!strcmp(clean, "/proc"))
                return 1;
        if (strncmp(clean, "/proc/", 6))
                return 0;
        for (size_t i = 0; proc_mounts_allowed[i]; i++)
                if (!strcmp(clean, proc_mounts_allowed[i]))
                        return 3;
        return 2;
}

static int parse_mount(oci_config *c, json_object *m, size_t idx, sbx_ctr_mount *ret, sbx_error *e) {
        static const char *const keys[] = { "destination", "type", "source", "options", "uidMappings",
                                             "gidMappings", NULL };
        static const char *const fstypes[] = { "tmpfs", "proc", "sysfs", "mqueue", "devpts", "cgroup",
                                               "cgroup2", "bind", "overlay", "none", NULL };
        char jp[64], p[256], data[4096] = "";
        const char *dst, *type, *src;
        json_object *opts;
        bool bind = false;

        JP(jp, "mounts[%zu]", idx);
        if (want(m, json_type_object, jp, e) < 0 || check_keys(m, jp, keys, e) < 0)
                return -EINVAL;
        if (refuse_set(m, "uidMappings", jp, "idmapped mounts", e) < 0 ||
            refuse_set(m, "gidMappings", jp, "idmapped mounts", e) < 0)
                return -EOPNOTSUPP;
        if (get_string(m, "destination", jp, &dst, e) < 0 || get_string(m, "type", jp, &type, e) < 0 ||
            get_string(m, "source", jp, &src, e) < 0)
                return -EINVAL;
        /* runtime-spec 1.1: a relative destination is deprecated but taken,
         * relative to "/" (runc and crun do) */
        if (!dst || !dst[0])
                return perr(e, -EINVAL, JP(p, "%s.destination", jp), "missing");
        *ret = (sbx_ctr_mount) { .what = own_strdup(c, jp) };
        opts = get(m, "options");
        if (opts) {
                if (want(opts, json_type_array, JP(p, "%s.options", jp), e) < 0)
                        return -EINVAL;
                for (size_t i = 0; i < json_object_array_length(opts); i++) {
                        json_object *o = json_object_array_get_idx(opts, i);
                        const char *s;
                        bool done = false;
                        unsigned long prop;

                        JP(p, "%s.options[%zu]", jp, i);
                        if (want(o, json_type_string, p, e) < 0)
                                return -EINVAL;
                        s = json_object_get_string(o);
                        if (!strcmp(s, "bind") || !strcmp(s, "rbind")) {
                                bind = true;
                                ret->recursive = s[0] == 'r';
                                continue;
                        }
                        if (parse_propagation(s, &prop) == 0) {
                                ret->propagation = prop;
                                continue;
                        }
                        for (size_t k = 0; k < ELEMENTSOF(mount_flags) && !done; k++)
                                if (!strcmp(mount_flags[k].name, s)) {
                                        ret->flags = (ret->flags & ~mount_flags[k].clear) | mount_flags[k].set;
                                        done = true;
                                }
                        if (done)
                                continue;
                        if (!strcmp(s, "idmap") || !strcmp(s, "ridmap"))
                                return perr(e, -EOPNOTSUPP, p, "idmapped mounts are not supported by sbx");
                        if (!strcmp(s, "tmpcopyup")) {
                                ret->copyup = true;
                                continue;
                        }
                        if (!strcmp(s, "copy-symlink") || !strncmp(s, "X-", 2))
                                return perr(e, -EOPNOTSUPP, p, "option '%s' is not supported by sbx", s);
                        if (strpbrk(s, "\n") || strlen(data) + strlen(s) + 2 >= sizeof(data))
                                return perr(e, -EINVAL, p, "bad option");
                        if (data[0])
                                strcat(data, ",");
                        strcat(data, s);
                }
        }
        if (type && !strcmp(type, "bind"))
                bind = true;
        if (!bind) {
                bool known = false;
                if (!type || !type[0])
                        return perr(e, -EINVAL, JP(p, "%s.type", jp), "missing (and no bind option)");
                for (size_t i = 0; fstypes[i]; i++)
                        known = known || !strcmp(fstypes[i], type);
                if (!known)
                        return perr(e, -EOPNOTSUPP, JP(p, "%s.type", jp), "file system type '%s' is not supported by sbx",
                                    type);
        }
        if (ret->flags & MS_REMOUNT)
                return perr(e, -EOPNOTSUPP, JP(p, "%s.options", jp), "'remount' is not supported by sbx");
        if (dst[0] != '/') {
                char *abs;
                if (asprintf(&abs, "/%s", dst) < 0)
                        abs = NULL;
                ret->dst = own(c, abs);
        } else
                ret->dst = own_strdup(c, dst);
        if (bind) {
                char path[PATH_MAX], *canon;
                if (!src || !src[0])
                        return perr(e, -EINVAL, JP(p, "%s.source", jp), "a bind mount needs a source");
                if (data[0])
                        return perr(e, -EOPNOTSUPP, JP(p, "%s.options", jp), "bind mount option(s) '%s' not supported",
                                    data);
                snprintf(path, sizeof(path), "%s%s%s", src[0] == '/' ? "" : c->bundle, src[0] == '/' ? "" : "/", src);
                canon = realpath(path, NULL);
                if (!canon)
                        return sbx_error_set(e, -errno, "config.json: %s.source: '%s'", jp, src);
                ret->src = own(c, canon);
                ret->flags |= MS_BIND;
                /* runc takes a bind of a procfs at /proc (the source
                 * checked here; the child opens it by this name) */
                if (proc_place(ret->dst) == 1) {
                        struct statfs sf;
                        if (statfs(canon, &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC)
                                return perr(e, -EPERM, JP(p, "%s.destination", jp),
                                            "'%s' cannot be mounted there: not a procfs (runc's checkProcMount)",
                                            ret->src);
                }
                ret->type = own_strdup(c, "bind");
        } else {
                /* cgroup v1/hybrid hosts: as runc, a tmpfs with the container's
                 * own cgroup of each hierarchy bound in (oci_config_cgroup_mounts,
                 * once the cgroup exists) */
                struct stat st;
                bool v2 = stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0;
                if (!strcmp(type, "cgroup") || !strcmp(type, "cgroup2")) {
                        ret->type = own_strdup(c, v2 ? "cgroup2" : "tmpfs");
                        ret->src = own_strdup(c, v2 ? "cgroup2" : "tmpfs");
                        snprintf(data, sizeof(data), "%s", v2 ? "" : "mode=755");
                        if (!v2) {
                                if (c->n_cgroup_v1 >= ELEMENTSOF(c->cgroup_v1))
                                        return perr(e, -E2BIG, jp, "too many cgroup mounts");
                                c->cgroup_v1[c->n_cgroup_v1++] = idx;
                        }
                } else {
                        ret->type = own_strdup(c, type);
                        ret->src = src && src[0] ? own_strdup(c, src) : NULL;
                }
                if (proc_place(ret->dst) == 1 && strcmp(type, "proc"))
                        return perr(e, -EPERM, JP(p, "%s.destination", jp),
                                    "a '%s' mount cannot be /proc: it is of type proc only (runc's checkProcMount)", type);
                ret->data = data[0] ? own_strdup(c, data) : NULL;
                if (ret->copyup && strcmp(ret->type, "tmpfs"))
                        return perr(e, -EINVAL, JP(p, "%s.options", jp), "'tmpcopyup' is for tmpfs mounts only");
        }
        if (ret->dst && proc_place(ret->dst) == 2)
                return perr(e, -EPERM, JP(p, "%s.destination", jp),
                            "'%s' is inside /proc: only the files lxcfs emulates may be mounted there "
                            "(runc's checkProcMount)", dst);
        /* /proc itself (a procfs, checked above) and the lxcfs files are
         * meant to land on a procfs; the child refuses any other mount
         * whose place turns out to be on one (an image's symlink into /proc) */
        ret->on_proc_ok = (ret->dst && proc_place(ret->dst) != 0) || (ret->type && !strcmp(ret->type, "proc"));
        return ret->dst && ret->type ? 0 : -ENOMEM;
}

int oci_config_cgroup_mounts(oci_config *c, const sbx_cgroup *cg, sbx_error *e) {
        size_t n = c->ctr.n_mounts + c->n_cgroup_v1 * cg->n_v1, k = 0, next = 0;
        sbx_ctr_mount *m;
        char **ro;

        if (!c->n_cgroup_v1)
                return 0;
        m = own(c, calloc(n + 1, sizeof(*m)));
        ro = own(c, calloc(c->ctr.n_readonly + c->n_cgroup_v1 + 1, sizeof(char *)));
        if (!m || !ro)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (c->ctr.n_readonly)
                memcpy(ro, c->ctr.readonly, c->ctr.n_readonly * sizeof(char *));
        for (size_t i = 0; i < c->ctr.n_mounts; i++) {
                const sbx_ctr_mount *cgm = &c->ctr.mounts[i];
                m[k++] = *cgm;
                if (next >= c->n_cgroup_v1 || c->cgroup_v1[next] != i)
                        continue;
                next++;
                /* the tmpfs is made writable for the mountpoints, read-only after them */
                m[k - 1].flags &= ~MS_RDONLY;
                if (cgm->flags & MS_RDONLY)
                        ro[c->ctr.n_readonly++] = cgm->dst;
                for (unsigned h = 0; h < cg->n_v1; h++) {
                        char name[64], *dst;
                        snprintf(name, sizeof(name), "%s", cg->v1_controllers[h]);
                        for (char *sp = name; (sp = strchr(sp, ' '));)
                                *sp = ',';      /* "cpu cpuacct" -> "cpu,cpuacct", the hierarchy's name */
                        if (asprintf(&dst, "%s/%s", cgm->dst, name) < 0 || !own(c, dst))
                                return sbx_error_set(e, -ENOMEM, "out of memory");
                        m[k++] = (sbx_ctr_mount) {
                                .dst = dst, .type = "bind", .src = (char *) cg->v1[h], .what = cgm->what,
                                .flags = MS_BIND | (cgm->flags & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)),
                        };
                }
        }
        c->ctr.mounts = m;
        c->ctr.n_mounts = k;
        c->ctr.readonly = ro;
        return 0;
}

/* ----------------------------------------------------------- process */


static const struct { const char *name; int res; } rlimit_names[] = {
        { "RLIMIT_AS", RLIMIT_AS }, { "RLIMIT_CORE", RLIMIT_CORE }, { "RLIMIT_CPU", RLIMIT_CPU },
        { "RLIMIT_DATA", RLIMIT_DATA }, { "RLIMIT_FSIZE", RLIMIT_FSIZE }, { "RLIMIT_LOCKS", RLIMIT_LOCKS },
        { "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK }, { "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE }, { "RLIMIT_NICE", RLIMIT_NICE },
        { "RLIMIT_NOFILE", RLIMIT_NOFILE }, { "RLIMIT_NPROC", RLIMIT_NPROC }, { "RLIMIT_RSS", RLIMIT_RSS },
        { "RLIMIT_RTPRIO", RLIMIT_RTPRIO }, { "RLIMIT_RTTIME", RLIMIT_RTTIME }, { "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING },
        { "RLIMIT_STACK", RLIMIT_STACK },
};

/* A name sbx does not know (a capability newer than its table) is left out
 * with a warning, as runc and crun do (the spec: a capability that cannot be
 * granted is logged, not an error): a set only ever loses by it. */
static int parse_caps(oci_config *c, json_object *caps, const char *jpath, uint64_t sets[5], sbx_error *e) {
        static const char *const keys[] = { "bounding", "effective", "inheritable", "permitted", "ambient", NULL };
        char p[256];

        if (want(caps, json_type_object, jpath, e) < 0 || check_keys(caps, jpath, keys, e) < 0)
                return -EINVAL;
        for (size_t s = 0; s < 5; s++) {
                json_object *arr = get(caps, keys[s]);
                sets[s] = 0;
                if (!arr)
                        continue;
                if (want(arr, json_type_array, JP(p, "%s.%s", jpath, keys[s]), e) < 0)
                        return -EINVAL;
                for (size_t i = 0; i < json_object_array_length(arr); i++) {
                        json_object *v = json_object_array_get_idx(arr, i);
                        const char *name;
                        int cap;

                        JP(p, "%s.%s[%zu]", jpath, keys[s], i);
                        if (want(v, json_type_string, p, e) < 0)
                                return -EINVAL;
                        name = json_object_get_string(v);
                        cap = sbx_cap_from_name(name);
                        if (cap < 0) {
                                oci_config_warn(c, "%s: unknown capability '%s' ignored", p, name);
                                continue;
                        }
                        sets[s] |= 1ull << cap;
                }
        }
        return 0;
}

static int parse_user(json_object *u, const char *jpath, sbx_container_proc *proc, sbx_error *e) {
        static const char *const keys[] = { "uid", "gid", "umask", "additionalGids", "username", NULL };
        json_object *v;
        uint64_t x;
        char p[256];

        if (want(u, json_type_object, jpath, e) < 0 || check_keys(u, jpath, keys, e) < 0)
                return -EINVAL;
        if (refuse_set(u, "username", jpath, "Windows only", e) < 0)
                return -EOPNOTSUPP;
        if ((v = get(u, "uid")) && get_u64(v, JP(p, "%s.uid", jpath), UINT32_MAX - 1, &x, e) < 0)
                return -EINVAL;
        proc->uid = v ? (uint32_t) x : 0;
        if ((v = get(u, "gid")) && get_u64(v, JP(p, "%s.gid", jpath), UINT32_MAX - 1, &x, e) < 0)
                return -EINVAL;
        proc->gid = v ? (uint32_t) x : 0;
        if ((v = get(u, "umask"))) {
                if (get_u64(v, JP(p, "%s.umask", jpath), 0777, &x, e) < 0)
                        return -EINVAL;
                proc->umask = (int) x;
        }
        if ((v = get(u, "additionalGids"))) {
                if (want(v, json_type_array, JP(p, "%s.additionalGids", jpath), e) < 0)
                        return -EINVAL;
                if (json_object_array_length(v) > ELEMENTSOF(proc->groups))
                        return perr(e, -E2BIG, p, "more than %zu groups", ELEMENTSOF(proc->groups));
                proc->n_groups = 0;
                for (size_t i = 0; i < json_object_array_length(v); i++) {
                        if (get_u64(json_object_array_get_idx(v, i), JP(p, "%s.additionalGids[%zu]", jpath, i),
                                    UINT32_MAX - 1, &x, e) < 0)
                                return -EINVAL;
                        proc->groups[proc->n_groups++] = (uint32_t) x;
                }
        }
        return 0;
}

static int parse_rlimits(json_object *arr, const char *jpath, sbx_container *ctr, sbx_error *e) {
        char p[256];

        if (want(arr, json_type_array, jpath, e) < 0)
                return -EINVAL;
        ctr->n_rlimits = 0;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
                static const char *const keys[] = { "type", "soft", "hard", NULL };
                json_object *r = json_object_array_get_idx(arr, i);
                const char *type;
                uint64_t soft, hard;
                int res = -1;

                JP(p, "%s[%zu]", jpath, i);
                if (want(r, json_type_object, p, e) < 0 || check_keys(r, p, keys, e) < 0 ||
                    get_string(r, "type", p, &type, e) < 0)
                        return -EINVAL;
                for (size_t k = 0; type && k < ELEMENTSOF(rlimit_names); k++)
                        if (!strcmp(rlimit_names[k].name, type))
                                res = rlimit_names[k].res;
                if (res < 0)
                        return perr(e, -EINVAL, p, "unknown rlimit type '%s'", type ?: "");
                if (!get(r, "soft") || !get(r, "hard"))
                        return perr(e, -EINVAL, p, "needs soft and hard");
                if (get_u64(get(r, "soft"), JP(p, "%s[%zu].soft", jpath, i), UINT64_MAX >> 1, &soft, e) < 0 ||
                    get_u64(get(r, "hard"), JP(p, "%s[%zu].hard", jpath, i), UINT64_MAX >> 1, &hard, e) < 0)
                        return -EINVAL;
                if (ctr->n_rlimits >= SBX_RLIMITS_MAX)
                        return perr(e, -E2BIG, jpath, "too many");
                /* json-c caps at INT64_MAX: the spec's 2^64-1 means infinity */
                ctr->rlimits[ctr->n_rlimits++] = (sbx_rlimit) {
                        .resource = res,
                        .soft = soft >= (UINT64_MAX >> 1) ? RLIM_INFINITY : soft,
                        .hard = hard >= (UINT64_MAX >> 1) ? RLIM_INFINITY : hard,
                };
        }
        return 0;
}

/* HOME when env has none, as runc: the user's home in the rootfs's
 * /etc/passwd, else "/". */
static int default_home(oci_config *c, sbx_container_proc *pr) {
        char home[512] = "/", kv[sizeof(home) + 8];
        size_t n;
        char **env;

        c->home_default = false;
        for (n = 0; pr->envp[n]; n++)
                if (!strncmp(pr->envp[n], "HOME=", 5))
                        return 0;
        if (c->ctr.rootfs && !sbx_rootfs_home(c->ctr.rootfs, pr->uid, home, sizeof(home)))
                snprintf(home, sizeof(home), "/");
        snprintf(kv, sizeof(kv), "HOME=%s", home);
        c->home_default = true;
        env = own(c, calloc(n + 2, sizeof(char *)));
        if (!env)
                return -ENOMEM;
        if (n)
                memcpy(env, pr->envp, n * sizeof(char *));
        if (!(env[n] = own_strdup(c, kv)))
                return -ENOMEM;
        pr->envp = env;
        return 0;
}

int oci_config_parse_process(oci_config *c, json_object *proc, const char *jpath, sbx_error *e) {
        static const char *const keys[] = { "terminal", "consoleSize", "cwd", "env", "args", "commandLine",
                                             "rlimits", "apparmorProfile", "capabilities", "noNewPrivileges",
                                             "oomScoreAdj", "selinuxLabel", "user", "ioPriority", "scheduler",
                                             "execCPUAffinity", NULL };
        sbx_container *ctr = &c->ctr;
        sbx_container_proc *pr = &ctr->proc;
        json_object *v;
        const char *cwd;
        char p[256];

        if (want(proc, json_type_object, jpath, e) < 0 || check_keys(proc, jpath, keys, e) < 0)
                return -EINVAL;
        if (refuse_set(proc, "commandLine", jpath, "Windows only", e) < 0 ||
            refuse_set(proc, "apparmorProfile", jpath, "AppArmor is not used by sbx", e) < 0 ||
            refuse_set(proc, "selinuxLabel", jpath, "SELinux is not used by sbx", e) < 0 ||
            refuse_set(proc, "ioPriority", jpath, "I/O priority", e) < 0 ||
            refuse_set(proc, "scheduler", jpath, "scheduling policy", e) < 0 ||
            refuse_set(proc, "execCPUAffinity", jpath, "CPU affinity", e) < 0)
                return -EOPNOTSUPP;
        if (get_bool(proc, "terminal", jpath, &ctr->terminal, e) < 0)
                return -EINVAL;
        if ((v = get(proc, "consoleSize"))) {
                static const char *const ck[] = { "height", "width", NULL };
                if (want(v, json_type_object, JP(p, "%s.consoleSize", jpath), e) < 0 || check_keys(v, p, ck, e) < 0)
                        return -EINVAL;
        }
        if (get_string(proc, "cwd", jpath, &cwd, e) < 0)
                return -EINVAL;
        if (!cwd || cwd[0] != '/')
                return perr(e, -EINVAL, JP(p, "%s.cwd", jpath), "must be an absolute path");
        pr->cwd = own_strdup(c, cwd);
        if (!(v = get(proc, "args")) || json_object_array_length(v) == 0)
                return perr(e, -EINVAL, JP(p, "%s.args", jpath), "missing or empty");
        if (string_array(c, v, JP(p, "%s.args", jpath), &pr->argv, NULL, e) < 0)
                return -EINVAL;
        if ((v = get(proc, "env"))) {
                if (string_array(c, v, JP(p, "%s.env", jpath), &pr->envp, NULL, e) < 0)
                        return -EINVAL;
        } else if (!(pr->envp = own(c, calloc(1, sizeof(char *)))))
                return -ENOMEM;
        pr->path_env = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
        for (char **env = pr->envp; *env; env++)
                if (!strncmp(*env, "PATH=", 5))
                        pr->path_env = *env + 5;
        if ((v = get(proc, "rlimits")) && parse_rlimits(v, JP(p, "%s.rlimits", jpath), ctr, e) < 0)
                return -EINVAL;
        memset(pr->caps, 0, sizeof(pr->caps));
        if ((v = get(proc, "capabilities")) && parse_caps(c, v, JP(p, "%s.capabilities", jpath), pr->caps, e) < 0)
                return -EINVAL;
        if (get_bool(proc, "noNewPrivileges", jpath, &pr->no_new_privs, e) < 0)
                return -EINVAL;
        if ((v = get(proc, "oomScoreAdj"))) {
                int64_t x = json_object_get_int64(v);
                if (!json_object_is_type(v, json_type_int) || x < -1000 || x > 1000)
                        return perr(e, -EINVAL, JP(p, "%s.oomScoreAdj", jpath), "must be an integer in -1000..1000");
                ctr->oom_score_adj_set = true;
                ctr->oom_score_adj = (int) x;
        }
        if ((v = get(proc, "user")) && parse_user(v, JP(p, "%s.user", jpath), pr, e) < 0)
                return -EINVAL;
        if (default_home(c, pr) < 0)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        return 0;
}

/* --------------------------------------------------------------- linux */

static int parse_namespaces(oci_config *c, json_object *arr, sbx_error *e) {
        static const struct { const char *name; int idx; uint64_t flag; } types[] = {
                { "user", SBX_CTR_NS_USER, CLONE_NEWUSER }, { "mount", SBX_CTR_NS_MNT, CLONE_NEWNS },
                { "pid", SBX_CTR_NS_PID, CLONE_NEWPID }, { "network", SBX_CTR_NS_NET, CLONE_NEWNET },
                { "ipc", SBX_CTR_NS_IPC, CLONE_NEWIPC }, { "uts", SBX_CTR_NS_UTS, CLONE_NEWUTS },
                { "cgroup", SBX_CTR_NS_CGROUP, CLONE_NEWCGROUP }, { "time", SBX_CTR_NS_TIME, CLONE_NEWTIME },
        };
        char p[256];

        if (want(arr, json_type_array, "linux.namespaces", e) < 0)
                return -EINVAL;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
                static const char *const keys[] = { "type", "path", NULL };
                json_object *n = json_object_array_get_idx(arr, i);
                const char *type, *path;
                int k = -1;

                JP(p, "linux.namespaces[%zu]", i);
                if (want(n, json_type_object, p, e) < 0 || check_keys(n, p, keys, e) < 0 ||
                    get_string(n, "type", p, &type, e) < 0 || get_string(n, "path", p, &path, e) < 0)
                        return -EINVAL;
                for (size_t t = 0; type && t < ELEMENTSOF(types); t++)
                        if (!strcmp(types[t].name, type))
                                k = (int) t;
                if (k < 0)
                        return perr(e, -EINVAL, JP(p, "linux.namespaces[%zu].type", i), "unknown namespace type '%s'",
                                    type ?: "");
                if ((c->ctr.clone_flags & types[k].flag) || c->ctr.join_fds[types[k].idx] >= 0)
                        return perr(e, -EINVAL, p, "namespace '%s' given twice", type);
                if (!path || !path[0]) {
                        c->ctr.clone_flags |= types[k].flag;
                        continue;
                }
                if (types[k].idx == SBX_CTR_NS_USER)
                        return perr(e, -EOPNOTSUPP, JP(p, "linux.namespaces[%zu].path", i),
                                    "joining a user namespace is not supported by sbx");
                c->ctr.join_fds[types[k].idx] = open(path, O_RDONLY | O_CLOEXEC);
                if (c->ctr.join_fds[types[k].idx] < 0)
                        return sbx_error_set(e, -errno, "config.json: linux.namespaces[%zu].path: '%s'", i, path);
        }
        return 0;
}

static int parse_idmaps(json_object *arr, const char *jpath, char *buf, size_t len, sbx_error *e) {
        char p[256];

        buf[0] = '\0';
        if (want(arr, json_type_array, jpath, e) < 0)
                return -EINVAL;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
                static const char *const keys[] = { "containerID", "hostID", "size", NULL };
                json_object *m = json_object_array_get_idx(arr, i);
                uint64_t in, out, n;
                size_t used = strlen(buf);

                JP(p, "%s[%zu]", jpath, i);
                if (want(m, json_type_object, p, e) < 0 || check_keys(m, p, keys, e) < 0)
                        return -EINVAL;
                if (!get(m, "containerID") || !get(m, "hostID") || !get(m, "size"))
                        return perr(e, -EINVAL, p, "needs containerID, hostID and size");
                if (get_u64(get(m, "containerID"), p, UINT32_MAX, &in, e) < 0 ||
                    get_u64(get(m, "hostID"), p, UINT32_MAX, &out, e) < 0 ||
                    get_u64(get(m, "size"), p, UINT32_MAX, &n, e) < 0)
                        return -EINVAL;
                if ((size_t) snprintf(buf + used, len - used, "%llu %llu %llu\n", (unsigned long long) in,
                                      (unsigned long long) out, (unsigned long long) n) >= len - used)
                        return perr(e, -E2BIG, jpath, "too many mappings");
        }
        return 0;
}

static bool has_dotdot(const char *path) {
        for (const char *q = path; (q = strstr(q, "..")); q += 2)
                if ((q == path || q[-1] == '/') && (q[2] == '/' || q[2] == '\0'))
                        return true;
        return false;
}

static int parse_devices(oci_config *c, json_object *arr, sbx_error *e) {
        char p[256];
        size_t n;

        if (want(arr, json_type_array, "linux.devices", e) < 0)
                return -EINVAL;
        n = json_object_array_length(arr);
        c->ctr.devices = own(c, calloc(n + 1, sizeof(sbx_ctr_device)));
        if (!c->ctr.devices)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                static const char *const keys[] = { "type", "path", "major", "minor", "fileMode", "uid", "gid", NULL };
                json_object *d = json_object_array_get_idx(arr, i), *v;
                sbx_ctr_device *dev = &c->ctr.devices[c->ctr.n_devices++];
                const char *type, *path;
                uint64_t x;

                JP(p, "linux.devices[%zu]", i);
                if (want(d, json_type_object, p, e) < 0 || check_keys(d, p, keys, e) < 0 ||
                    get_string(d, "type", p, &type, e) < 0 || get_string(d, "path", p, &path, e) < 0)
                        return -EINVAL;
                if (!path || path[0] != '/')
                        return perr(e, -EINVAL, JP(p, "linux.devices[%zu].path", i), "must be an absolute path");
                /* in a user namespace the node is the host's of that name,
                 * bound in: '/dev/../etc/shadow' named a host file */
                if (has_dotdot(path))
                        return perr(e, -EINVAL, JP(p, "linux.devices[%zu].path", i),
                                    "'%s' has a '..' component", path);
                if (!type || strlen(type) != 1 || !strchr("cbup", type[0]))
                        return perr(e, -EINVAL, JP(p, "linux.devices[%zu].type", i), "must be c, b, u or p");
                dev->path = own_strdup(c, path);
                dev->type = type[0] == 'u' ? 'c' : type[0];
                dev->mode = 0666;
                if ((v = get(d, "major"))) {
                        if (get_u64(v, JP(p, "linux.devices[%zu].major", i), UINT32_MAX, &x, e) < 0)
                                return -EINVAL;
                        dev->major = (uint32_t) x;
                }
                if ((v = get(d, "minor"))) {
                        if (get_u64(v, JP(p, "linux.devices[%zu].minor", i), UINT32_MAX, &x, e) < 0)
                                return -EINVAL;
                        dev->minor = (uint32_t) x;
                }
                /* the permission bits; podman gives the node's type bits
                 * too (020666 for a 'c' device), as Go's os.FileMode of the
                 * host's node: taken when they are the type's (runc ORs them in) */
                if ((v = get(d, "fileMode"))) {
                        mode_t ifmt = dev->type == 'b' ? S_IFBLK : dev->type == 'p' ? S_IFIFO : S_IFCHR;
                        if (get_u64(v, JP(p, "linux.devices[%zu].fileMode", i), S_IFMT | 07777, &x, e) < 0)
                                return -EINVAL;
                        if ((x & S_IFMT) && (x & S_IFMT) != ifmt)
                                return perr(e, -EINVAL, p, "0%llo: file type bits that are not a '%c' device's",
                                            (unsigned long long) x, type[0]);
                        dev->mode = (uint32_t) (x & 07777);
                }
                if ((v = get(d, "uid"))) {
                        if (get_u64(v, JP(p, "linux.devices[%zu].uid", i), UINT32_MAX, &x, e) < 0)
                                return -EINVAL;
                        dev->uid = (uint32_t) x;
                }
                if ((v = get(d, "gid"))) {
                        if (get_u64(v, JP(p, "linux.devices[%zu].gid", i), UINT32_MAX, &x, e) < 0)
                                return -EINVAL;
                        dev->gid = (uint32_t) x;
                }
                if (dev->type != 'p' && (!get(d, "major") || !get(d, "minor")))
                        return perr(e, -EINVAL, p, "a '%c' device needs major and minor", dev->type);
        }
        return 0;
}

/* The device cgroup, as runc builds it: deny all, then the rules of
 * linux.resources.devices in order, then runc's default allow list (mknod
 * of any node; the standard character devices; /dev/pts/N, /dev/net/tun),
 * then each of linux.devices (rwm). Applied by runtime/cgroup where the host
 * can (sbx_cgroup_devices_usable()); elsewhere oci-seccomp.c refuses mknod
 * of devices instead. */
static const sbx_cgroup_device_rule default_device_rules[] = {
        { true, 'c', -1, -1, "m" }, { true, 'b', -1, -1, "m" },
        { true, 'c', 1, 3, "rwm" }, { true, 'c', 1, 8, "rwm" }, { true, 'c', 1, 7, "rwm" },
        { true, 'c', 5, 0, "rwm" }, { true, 'c', 1, 5, "rwm" }, { true, 'c', 1, 9, "rwm" },
        { true, 'c', 136, -1, "rwm" }, { true, 'c', 5, 2, "rwm" }, { true, 'c', 10, 200, "rwm" },
};

static int get_dev_num(json_object *r, const char *key, const char *p, int64_t *ret, sbx_error *e) {
        json_object *v = get(r, key);

        *ret = -1;
        if (!v || json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < -1 ||
            json_object_get_int64(v) > UINT32_MAX)
                return perr(e, -EINVAL, p, "'%s' must be an integer (-1: any)", key);
        *ret = json_object_get_int64(v);
        return 0;
}

static int parse_device_rules(oci_config *c, json_object *arr, sbx_error *e) {
        size_t n, k = 0;
        sbx_cgroup_device_rule *rules;
        char p[256];

        if (arr && want(arr, json_type_array, "linux.resources.devices", e) < 0)
                return -EINVAL;
        n = arr ? json_object_array_length(arr) : 0;
        rules = own(c, calloc(n + ELEMENTSOF(default_device_rules) + c->ctr.n_devices + 1, sizeof(*rules)));
        if (!rules)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                static const char *const keys[] = { "allow", "type", "major", "minor", "access", NULL };
                json_object *r = json_object_array_get_idx(arr, i), *v;
                sbx_cgroup_device_rule *d = &rules[k++];
                const char *type = NULL, *access = NULL;

                JP(p, "linux.resources.devices[%zu]", i);
                if (want(r, json_type_object, p, e) < 0 || check_keys(r, p, keys, e) < 0 ||
                    get_string(r, "type", p, &type, e) < 0 || get_string(r, "access", p, &access, e) < 0)
                        return -EINVAL;
                if (!(v = get(r, "allow")) || !json_object_is_type(v, json_type_boolean))
                        return perr(e, -EINVAL, p, "needs a boolean 'allow'");
                d->allow = json_object_get_boolean(v);
                if (type && *type && (strlen(type) != 1 || !strchr("abc", type[0])))
                        return perr(e, -EINVAL, JP(p, "linux.resources.devices[%zu].type", i),
                                    "must be a, b or c");
                d->type = type && *type ? type[0] : 'a';
                if (access && (strlen(access) > 3 || strspn(access, "rwm") != strlen(access)))
                        return perr(e, -EINVAL, JP(p, "linux.resources.devices[%zu].access", i),
                                    "must be a combination of r, w and m");
                snprintf(d->access, sizeof(d->access), "%s", access && *access ? access : "rwm");
                if (get_dev_num(r, "major", p, &d->major, e) < 0 || get_dev_num(r, "minor", p, &d->minor, e) < 0)
                        return -EINVAL;
        }
        memcpy(rules + k, default_device_rules, sizeof(default_device_rules));
        k += ELEMENTSOF(default_device_rules);
        for (size_t i = 0; i < c->ctr.n_devices; i++) {
                const sbx_ctr_device *dev = &c->ctr.devices[i];
                if (dev->type == 'p')
                        continue;
                rules[k++] = (sbx_cgroup_device_rule) { true, dev->type == 'b' ? 'b' : 'c', dev->major,
                                                        dev->minor, "rwm" };
        }
        c->res.devices = rules;
        c->res.n_devices = k;
        return 0;
}

static int res_int(json_object *o, const char *key, int64_t *ret, bool *set) {
        json_object *v = NULL;

        if (!json_object_object_get_ex(o, key, &v) || !v || json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_int))
                return -EINVAL;
        *ret = json_object_get_int64(v);
        *set = true;
        return 1;
}

/* blockIO.throttle{Read,Write}{Bps,IOPS}Device (keys in sbx_cgroup_throttle_kind
 * order): {major, minor, rate} each, as runc writes them. */
static int parse_throttles(oci_config *c, json_object *bio, const char *const keys[4], sbx_error *e) {
        static const char *const tk[] = { "major", "minor", "rate", NULL };
        sbx_cgroup_throttle *t;
        size_t n = 0;
        char p[128];

        for (size_t k = 0; k < 4; k++) {
                json_object *arr = get(bio, keys[k]);
                if (arr && want(arr, json_type_array, JP(p, "linux.resources.blockIO.%s", keys[k]), e) < 0)
                        return -EINVAL;
                n += arr ? json_object_array_length(arr) : 0;
        }
        if (!n)
                return 0;
        if (!(t = own(c, calloc(n, sizeof(*t)))))
                return sbx_error_set(e, -ENOMEM, "out of memory");
        c->res.throttles = t;
        for (size_t k = 0; k < 4; k++) {
                json_object *arr = get(bio, keys[k]);
                for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
                        json_object *d = json_object_array_get_idx(arr, i), *v;
                        uint64_t x[3];
                        JP(p, "linux.resources.blockIO.%s[%zu]", keys[k], i);
                        if (want(d, json_type_object, p, e) < 0 || check_keys(d, p, tk, e) < 0)
                                return -EINVAL;
                        for (size_t f = 0; f < 3; f++) {
                                char fp[160];
                                snprintf(fp, sizeof(fp), "%s.%s", p, tk[f]);
                                if (!(v = get(d, tk[f])))
                                        return perr(e, -EINVAL, fp, "missing");
                                if (get_u64(v, fp, f < 2 ? UINT32_MAX : UINT64_MAX, &x[f], e) < 0)
                                        return -EINVAL;
                        }
                        t[c->res.n_throttles++] = (sbx_cgroup_throttle) {
                                .kind = (sbx_cgroup_throttle_kind) k, .major = (uint32_t) x[0],
                                .minor = (uint32_t) x[1], .rate = x[2] };
                }
        }
        return 0;
}

/* linux.resources -> runtime/cgroup's resources (v1 and v2 alike). */
static int parse_resources(oci_config *c, json_object *res, sbx_error *e) {
        static const char *const keys[] = { "devices", "memory", "cpu", "pids", "blockIO", "hugepageLimits",
                                            "network", "rdma", "unified", NULL };
        sbx_cgroup_resources *r = &c->res;
        json_object *v, *x;
        const char *s;
        int64_t n;
        bool set = false;

        if (want(res, json_type_object, "linux.resources", e) < 0 ||
            check_keys(res, "linux.resources", keys, e) < 0)
                return -EINVAL;
        if ((v = get(res, "memory"))) {
                static const char *const mk[] = { "limit", "reservation", "swap", "kernel", "kernelTCP", "swappiness",
                                                  "disableOOMKiller", "useHierarchy", "checkBeforeUpdate", NULL };
                if (want(v, json_type_object, "linux.resources.memory", e) < 0 ||
                    check_keys(v, "linux.resources.memory", mk, e) < 0)
                        return -EINVAL;
                if (res_int(v, "limit", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.memory.limit", "must be an integer");
                if (set)
                        r->memory = n < 0 ? SBX_LIMIT_UNLIMITED : n;
                set = false;
                if (res_int(v, "swap", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.memory.swap", "must be an integer");
                if (set)
                        r->memory_swap = n < 0 ? SBX_LIMIT_UNLIMITED : n;
                set = false;
                if (res_int(v, "reservation", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.memory.reservation", "must be an integer");
                if (set)
                        r->memory_reservation = n < 0 ? SBX_LIMIT_UNLIMITED : n;
                set = false;
                if (res_int(v, "swappiness", &n, &set) < 0 || (set && (n < 0 || n > 100)))
                        return perr(e, -EINVAL, "linux.resources.memory.swappiness", "must be an integer in 0..100");
                if (set)
                        r->memory_swappiness = n;
                if (refuse_set(v, "kernel", "linux.resources.memory", "kernel memory limit", e) < 0 ||
                    refuse_set(v, "kernelTCP", "linux.resources.memory", "kernel TCP memory limit", e) < 0)
                        return -EOPNOTSUPP;
                if ((x = get(v, "disableOOMKiller")) && get_bool(v, "disableOOMKiller", "linux.resources.memory",
                                                                 &r->disable_oom_killer, e) < 0)
                        return -EINVAL;
        }
        if ((v = get(res, "cpu"))) {
                static const char *const ck[] = { "shares", "quota", "burst", "period", "realtimeRuntime",
                                                  "realtimePeriod", "cpus", "mems", "idle", NULL };
                if (want(v, json_type_object, "linux.resources.cpu", e) < 0 ||
                    check_keys(v, "linux.resources.cpu", ck, e) < 0)
                        return -EINVAL;
                set = false;
                if (res_int(v, "shares", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.cpu.shares", "must be an integer");
                if (set && n != 0)
                        r->cpu_shares = n;
                set = false;
                if (res_int(v, "quota", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.cpu.quota", "must be an integer");
                if (set && n != 0)
                        r->cpu_quota = n < 0 ? SBX_LIMIT_UNLIMITED : n;
                set = false;
                if (res_int(v, "period", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.cpu.period", "must be an integer");
                if (set && n > 0)
                        r->cpu_period = n;
                if (get_string(v, "cpus", "linux.resources.cpu", &s, e) < 0)
                        return -EINVAL;
                if (s && s[0])
                        r->cpuset_cpus = own_strdup(c, s);
                if (get_string(v, "mems", "linux.resources.cpu", &s, e) < 0)
                        return -EINVAL;
                if (s && s[0])
                        r->cpuset_mems = own_strdup(c, s);
                if (refuse_set(v, "realtimeRuntime", "linux.resources.cpu", "realtime scheduling", e) < 0 ||
                    refuse_set(v, "realtimePeriod", "linux.resources.cpu", "realtime scheduling", e) < 0 ||
                    refuse_set(v, "burst", "linux.resources.cpu", "CPU burst", e) < 0 ||
                    refuse_set(v, "idle", "linux.resources.cpu", "SCHED_IDLE cgroups", e) < 0)
                        return -EOPNOTSUPP;
        }
        if ((v = get(res, "pids"))) {
                static const char *const pk[] = { "limit", NULL };
                if (want(v, json_type_object, "linux.resources.pids", e) < 0 ||
                    check_keys(v, "linux.resources.pids", pk, e) < 0)
                        return -EINVAL;
                set = false;
                if (res_int(v, "limit", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.pids.limit", "must be an integer");
                /* runtime-spec: 0 or -1 = no limit */
                if (set)
                        r->pids = n > 0 ? n : SBX_LIMIT_UNLIMITED;
        }
        if ((v = get(res, "blockIO"))) {
                static const char *const bk[] = { "weight", "leafWeight", "weightDevice", "throttleReadBpsDevice",
                                                  "throttleWriteBpsDevice", "throttleReadIOPSDevice",
                                                  "throttleWriteIOPSDevice", NULL };
                if (want(v, json_type_object, "linux.resources.blockIO", e) < 0 ||
                    check_keys(v, "linux.resources.blockIO", bk, e) < 0)
                        return -EINVAL;
                set = false;
                if (res_int(v, "weight", &n, &set) < 0)
                        return perr(e, -EINVAL, "linux.resources.blockIO.weight", "must be an integer");
                if (set && n != 0)
                        r->blkio_weight = n;
                for (size_t i = 1; i < 3; i++)
                        if (refuse_set(v, bk[i], "linux.resources.blockIO", "block I/O leaf and per-device weights", e) < 0)
                                return -EOPNOTSUPP;
                if (parse_throttles(c, v, bk + 3, e) < 0)
                        return -EINVAL;
        }
        if (refuse_set(res, "hugepageLimits", "linux.resources", "hugepage limits", e) < 0 ||
            refuse_set(res, "network", "linux.resources", "network classes", e) < 0 ||
            refuse_set(res, "rdma", "linux.resources", "RDMA limits", e) < 0 ||
            refuse_set(res, "unified", "linux.resources", "raw cgroup v2 files", e) < 0)
                return -EOPNOTSUPP;
        c->res_set = r->memory != SBX_LIMIT_UNSET || r->memory_swap != SBX_LIMIT_UNSET ||
                     r->pids != SBX_LIMIT_UNSET || r->cpu_shares != SBX_LIMIT_UNSET ||
                     r->cpu_quota != SBX_LIMIT_UNSET || r->cpu_period != SBX_LIMIT_UNSET || r->cpuset_cpus ||
                     r->cpuset_mems || r->blkio_weight != SBX_LIMIT_UNSET ||
                     r->memory_reservation != SBX_LIMIT_UNSET || r->memory_swappiness != SBX_LIMIT_UNSET ||
                     r->disable_oom_killer || r->n_throttles;
        return 0;
}

static int parse_linux(oci_config *c, json_object *lx, sbx_error *e) {
        static const char *const keys[] = { "namespaces", "uidMappings", "gidMappings", "timeOffsets", "devices",
                                            "netDevices", "cgroupsPath", "rootfsPropagation", "resources",
                                            "intelRdt", "sysctl", "seccomp", "maskedPaths", "readonlyPaths",
                                            "mountLabel", "personality", "memoryPolicy", NULL };
        sbx_container *ctr = &c->ctr;
        json_object *v;
        const char *s;

        if (want(lx, json_type_object, "linux", e) < 0 || check_keys(lx, "linux", keys, e) < 0)
                return -EINVAL;
        if (refuse_set(lx, "timeOffsets", "linux", "time namespace offsets", e) < 0 ||
            refuse_set(lx, "netDevices", "linux", "moving network devices", e) < 0 ||
            refuse_set(lx, "intelRdt", "linux", "Intel RDT", e) < 0 ||
            refuse_set(lx, "mountLabel", "linux", "SELinux is not used by sbx", e) < 0 ||
            refuse_set(lx, "memoryPolicy", "linux", "NUMA memory policy", e) < 0)
                return -EOPNOTSUPP;
        if ((v = get(lx, "namespaces")) && parse_namespaces(c, v, e) < 0)
                return -EINVAL;
        if ((v = get(lx, "uidMappings")) && parse_idmaps(v, "linux.uidMappings", ctr->uid_map, sizeof(ctr->uid_map), e) < 0)
                return -EINVAL;
        if ((v = get(lx, "gidMappings")) && parse_idmaps(v, "linux.gidMappings", ctr->gid_map, sizeof(ctr->gid_map), e) < 0)
                return -EINVAL;
        if ((ctr->uid_map[0] || ctr->gid_map[0]) && !(ctr->clone_flags & CLONE_NEWUSER))
                return perr(e, -EINVAL, "linux.uidMappings", "id mappings without a new user namespace");
        if ((v = get(lx, "devices")) && parse_devices(c, v, e) < 0)
                return -EINVAL;
        if (get_string(lx, "cgroupsPath", "linux", &s, e) < 0)
                return -EINVAL;
        if (s)
                snprintf(c->cgroups_path, sizeof(c->cgroups_path), "%s", s);
        if (get_string(lx, "rootfsPropagation", "linux", &s, e) < 0)
                return -EINVAL;
        if (s && s[0] && parse_propagation(s, &ctr->rootfs_propagation) < 0)
                return perr(e, -EINVAL, "linux.rootfsPropagation", "unknown propagation '%s'", s);
        if ((v = get(lx, "resources")) && parse_resources(c, v, e) < 0)
                return -EINVAL;
        if (parse_device_rules(c, v ? get(v, "devices") : NULL, e) < 0)
                return -EINVAL;
        if ((v = get(lx, "sysctl"))) {
                if (want(v, json_type_object, "linux.sysctl", e) < 0)
                        return -EINVAL;
                ctr->sysctl = own(c, calloc(json_object_object_length(v) + 1, sizeof(char *)));
                if (!ctr->sysctl)
                        return -ENOMEM;
                json_object_object_foreach(v, key, val) {
                        char p[256];
                        if (want(val, json_type_string, JP(p, "linux.sysctl.%s", key), e) < 0)
                                return -EINVAL;
                        if (strstr(key, "..") || strchr(key, '/'))
                                return perr(e, -EINVAL, p, "bad sysctl name");
                        if (asprintf(&ctr->sysctl[ctr->n_sysctl], "%s=%s", key, json_object_get_string(val)) < 0 ||
                            !own(c, ctr->sysctl[ctr->n_sysctl++]))
                                return -ENOMEM;
                }
        }
        if ((v = get(lx, "maskedPaths")) && string_array(c, v, "linux.maskedPaths", &ctr->masked, &ctr->n_masked, e) < 0)
                return -EINVAL;
        if ((v = get(lx, "readonlyPaths")) &&
            string_array(c, v, "linux.readonlyPaths", &ctr->readonly, &ctr->n_readonly, e) < 0)
                return -EINVAL;
        if ((v = get(lx, "personality"))) {
                static const char *const pk[] = { "domain", "flags", NULL };
                if (want(v, json_type_object, "linux.personality", e) < 0 ||
                    check_keys(v, "linux.personality", pk, e) < 0 || get_string(v, "domain", "linux.personality", &s, e) < 0)
                        return -EINVAL;
                if (refuse_set(v, "flags", "linux.personality", "personality flags", e) < 0)
                        return -EOPNOTSUPP;
                if (!s || (strcmp(s, "LINUX") && strcmp(s, "LINUX32")))
                        return perr(e, -EINVAL, "linux.personality.domain", "must be LINUX or LINUX32");
                ctr->personality_set = true;
                ctr->personality = !strcmp(s, "LINUX32") ? 0x0008 : 0;
        }
        return 0;
}

static int parse_hooks(oci_config *c, json_object *hooks, sbx_error *e) {
        static const char *const keys[] = { "prestart", "createRuntime", "createContainer", "startContainer",
                                            "poststart", "poststop", NULL };
        char p[256];

        if (want(hooks, json_type_object, "hooks", e) < 0 || check_keys(hooks, "hooks", keys, e) < 0)
                return -EINVAL;
        for (int k = 0; k < _OCI_HOOK_MAX; k++) {
                json_object *arr = get(hooks, oci_hook_names[k]);
                size_t n;

                if (!arr)
                        continue;
                if (want(arr, json_type_array, JP(p, "hooks.%s", oci_hook_names[k]), e) < 0)
                        return -EINVAL;
                n = json_object_array_length(arr);
                c->hooks[k] = own(c, calloc(n + 1, sizeof(oci_hook)));
                if (!c->hooks[k])
                        return -ENOMEM;
                for (size_t i = 0; i < n; i++) {
                        static const char *const hk[] = { "path", "args", "env", "timeout", NULL };
                        json_object *h = json_object_array_get_idx(arr, i), *v;
                        oci_hook *hook = &c->hooks[k][c->n_hooks[k]++];
                        const char *path;

                        JP(p, "hooks.%s[%zu]", oci_hook_names[k], i);
                        if (want(h, json_type_object, p, e) < 0 || check_keys(h, p, hk, e) < 0 ||
                            get_string(h, "path", p, &path, e) < 0)
                                return -EINVAL;
                        if (!path || path[0] != '/')
                                return perr(e, -EINVAL, JP(p, "hooks.%s[%zu].path", oci_hook_names[k], i),
                                            "must be an absolute path");
                        hook->path = own_strdup(c, path);
                        if ((v = get(h, "args")) &&
                            string_array(c, v, JP(p, "hooks.%s[%zu].args", oci_hook_names[k], i), &hook->args, NULL, e) < 0)
                                return -EINVAL;
                        if ((v = get(h, "env")) &&
                            string_array(c, v, JP(p, "hooks.%s[%zu].env", oci_hook_names[k], i), &hook->env, NULL, e) < 0)
                                return -EINVAL;
                        if ((v = get(h, "timeout"))) {
                                if (!json_object_is_type(v, json_type_int) || json_object_get_int(v) < 1)
                                        return perr(e, -EINVAL, JP(p, "hooks.%s[%zu].timeout", oci_hook_names[k], i),
                                                    "must be a positive integer");
                                hook->timeout = json_object_get_int(v);
                        }
                }
        }
        return 0;
}

/* sbx's opt-in hardening (README "sbx as an OCI runtime"); every other
 * org.sbx.* key is refused, so a typo never runs a container unhardened. */
static int parse_annotations(oci_config *c, json_object *a, sbx_error *e) {
        char p[256];

        if (want(a, json_type_object, "annotations", e) < 0)
                return -EINVAL;
        json_object_object_foreach(a, key, val) {
                const char *s;
                if (want(val, json_type_string, JP(p, "annotations.%s", key), e) < 0)
                        return -EINVAL;
                if (strncmp(key, "org.sbx.", 8))
                        continue;
                s = json_object_get_string(val);
                if (!strcmp(key, "org.sbx.seccomp")) {
                        if (strcmp(s, "default"))
                                return perr(e, -EINVAL, p, "'%s': the only value is 'default'", s);
                        c->sbx_seccomp_default = true;
                        continue;
                }
                if (!s[0])
                        return perr(e, -EINVAL, p, "must not be empty");
                if (!strcmp(key, "org.sbx.openclaw.config"))
                        c->policy_config = s;
                else if (!strcmp(key, "org.sbx.policy.agent"))
                        c->policy_agent = s;
                else if (!strcmp(key, "org.sbx.policy.session"))
                        c->policy_session = s;
                else
                        return perr(e, -EOPNOTSUPP, p, "unknown sbx annotation (known: org.sbx.seccomp, "
                                    "org.sbx.openclaw.config, org.sbx.policy.agent, org.sbx.policy.session)");
        }
        if (c->policy_config && !c->policy_agent)
                return perr(e, -EINVAL, "annotations.org.sbx.openclaw.config", "needs org.sbx.policy.agent (whose rules)");
        if (c->policy_agent && !c->policy_config)
                return perr(e, -EINVAL, "annotations.org.sbx.policy.agent", "needs org.sbx.openclaw.config (the "
                            "openclaw.json to read)");
        if (c->policy_session && !c->policy_agent)
                return perr(e, -EINVAL, "annotations.org.sbx.policy.session", "needs org.sbx.policy.agent");
        return 0;
}

int oci_config_load(const char *bundle, oci_config *c, sbx_error *e) {
        return oci_config_load_at(bundle, NULL, c, e);
}

/* linux.sysctl: only a sysctl of a namespace the container has of its own
 * (runc's rule): net.* (network), kernel.msg*, sem, shm* and fs.mqueue.*
 * (ipc), kernel.hostname and domainname (uts). The child writes them
 * before /proc is the container's, so any other one (kernel.core_pattern,
 * vm.*) would be the host's. A namespace joined by path counts unless it
 * is the runtime's own. */
/* key (klen bytes) is one of list's words ("a.b" exactly, "a.*" a prefix) */
static bool sysctl_in(const char *key, size_t klen, const char *list) {
        for (const char *w = list; *w;) {
                size_t n = strcspn(w, " ");
                if (w[n - 1] == '*' ? klen > n - 1 && !strncmp(key, w, n - 1) : klen == n && !strncmp(key, w, n))
                        return true;
                w += n + (w[n] == ' ');
        }
        return false;
}

static int check_sysctls(const oci_config *c, sbx_error *e) {
        static const struct { const char *keys; int idx; unsigned long flag; const char *ns; } owned[] = {
                { "net.*", SBX_CTR_NS_NET, CLONE_NEWNET, "net" },
                { "fs.mqueue.* kernel.msgmax kernel.msgmnb kernel.msgmni kernel.sem kernel.shmall kernel.shmmax "
                  "kernel.shmmni kernel.shm_rmid_forced", SBX_CTR_NS_IPC, CLONE_NEWIPC, "ipc" },
                { "kernel.hostname kernel.domainname", SBX_CTR_NS_UTS, CLONE_NEWUTS, "uts" },
        };

        for (size_t i = 0; i < c->ctr.n_sysctl; i++) {
                const char *kv = c->ctr.sysctl[i];
                size_t klen = strcspn(kv, "="), t;
                char p[300], own[64];
                struct stat a, b;
                int fd;

                JP(p, "linux.sysctl.%.*s", (int) klen, kv);
                for (t = 0; t < ELEMENTSOF(owned) && !sysctl_in(kv, klen, owned[t].keys); t++)
                        ;
                if (t == ELEMENTSOF(owned))
                        return perr(e, -EPERM, p, "not in a namespace of the container (the host's sysctl)");
                if (c->ctr.clone_flags & owned[t].flag)
                        continue;
                fd = c->ctr.join_fds[owned[t].idx];
                snprintf(own, sizeof(own), "/proc/self/ns/%s", owned[t].ns);
                if (fd < 0 || fstat(fd, &a) < 0 || stat(own, &b) < 0 || (a.st_dev == b.st_dev && a.st_ino == b.st_ino))
                        return perr(e, -EPERM, p, "needs a %s namespace of the container's own (linux.namespaces)",
                                    owned[t].ns);
        }
        return 0;
}


/* `update --resources FILE|-` (runc's; "-": stdin, as containerd's runc shim
 * passes it): a linux.resources object alone, checked as config.json's is. */
int oci_config_load_resources(const char *path, oci_config *c, sbx_error *e) {
        int r;

        memset(c, 0, sizeof(*c));
        sbx_container_init(&c->ctr);
        sbx_cgroup_resources_init(&c->res);
        if (!strcmp(path, "-")) {
                enum { RES_MAX = 1 << 20 };     /* a resources object is a few hundred bytes */
                _cleanup_free_ char *text = malloc(RES_MAX + 1);
                size_t len = 0;
                ssize_t n;

                if (!text)
                        return sbx_error_set(e, -ENOMEM, "out of memory");
                while (len <= RES_MAX && (n = read(STDIN_FILENO, text + len, RES_MAX + 1 - len)) != 0) {
                        if (n < 0 && errno == EINTR)
                                continue;
                        if (n < 0)
                                return sbx_error_set(e, -errno, "--resources -: read stdin");
                        len += (size_t) n;
                }
                if (len > RES_MAX)
                        return sbx_error_set(e, -EFBIG, "--resources -: more than %d bytes", RES_MAX);
                text[len] = 0;
                c->root = json_tokener_parse(text);
                if (!c->root)
                        return sbx_error_set(e, -EINVAL, "--resources -: not valid JSON");
        } else if (!(c->root = oci_json_file(path, e)))
                return e->code ?: -EINVAL;
        r = get(c->root, "devices") ? perr(e, -EOPNOTSUPP, "linux.resources.devices",
                                           "not changed by update (the device rules stay those of create)")
                                    : parse_resources(c, c->root, e);
        /* the object is the update's, not config.json's: its path alone */
        if (r < 0 && !strncmp(e->msg, "config.json: ", 13))
                memmove(e->msg, e->msg + 13, strlen(e->msg + 13) + 1);
        return r;
}

int oci_config_load_at(const char *bundle, const char *config_path, oci_config *c, sbx_error *e) {
        static const char *const keys[] = { "ociVersion", "root", "mounts", "process", "hostname", "domainname",
                                            "hooks", "annotations", "linux", "solaris", "windows", "vm", "zos",
                                            "uidMappings", NULL };
        char path[PATH_MAX], rootfs[PATH_MAX];
        _cleanup_free_ char *canon = NULL;
        json_object *root, *v;
        const char *s;
        int r;

        memset(c, 0, sizeof(*c));
        sbx_container_init(&c->ctr);
        sbx_cgroup_resources_init(&c->res);
        canon = realpath(bundle, NULL);
        if (!canon)
                return sbx_error_set(e, -errno, "bundle '%s': %s", bundle, strerror(errno));
        snprintf(c->bundle, sizeof(c->bundle), "%s", canon);
        if (config_path)
                snprintf(path, sizeof(path), "%s", config_path);
        else
                snprintf(path, sizeof(path), "%s/config.json", c->bundle);
        c->root = root = oci_json_file(path, e);
        if (!root)
                return e->code ?: -EINVAL;
        if (want(root, json_type_object, "$", e) < 0 || check_keys(root, "(top level)", keys, e) < 0)
                return -EINVAL;
        if (refuse_set(root, "solaris", "(top level)", "not Linux", e) < 0 ||
            refuse_set(root, "windows", "(top level)", "not Linux", e) < 0 ||
            refuse_set(root, "vm", "(top level)", "VM-based containers", e) < 0 ||
            refuse_set(root, "zos", "(top level)", "not Linux", e) < 0 ||
            refuse_set(root, "uidMappings", "(top level)", "use linux.uidMappings", e) < 0)
                return -EOPNOTSUPP;
        r = get_string(root, "ociVersion", "", &s, e);
        if (r < 0)
                return r;
        if (!s || strncmp(s, "1.", 2))
                return perr(e, -EINVAL, "ociVersion", "'%s' is not a 1.x runtime-spec version", s ?: "");
        if (!(v = get(root, "root")))
                return perr(e, -EINVAL, "root", "missing");
        {
                static const char *const rk[] = { "path", "readonly", NULL };
                if (want(v, json_type_object, "root", e) < 0 || check_keys(v, "root", rk, e) < 0 ||
                    get_string(v, "path", "root", &s, e) < 0 || get_bool(v, "readonly", "root", &c->ctr.rootfs_readonly, e) < 0)
                        return -EINVAL;
                if (!s || !s[0])
                        return perr(e, -EINVAL, "root.path", "missing");
                snprintf(rootfs, sizeof(rootfs), "%s%s%s", s[0] == '/' ? "" : c->bundle, s[0] == '/' ? "" : "/", s);
                c->ctr.rootfs = own(c, realpath(rootfs, NULL));
                if (!c->ctr.rootfs)
                        return sbx_error_set(e, -errno, "config.json: root.path: '%s'", rootfs);
        }
        if (!(v = get(root, "process")))
                return perr(e, -EINVAL, "process", "missing (sbx runs the process config.json names)");
        r = oci_config_parse_process(c, v, "process", e);
        if (r < 0)
                return r;
        if (get_string(root, "hostname", "", &s, e) < 0)
                return -EINVAL;
        if (s && s[0])
                c->ctr.hostname = own_strdup(c, s);
        if (get_string(root, "domainname", "", &s, e) < 0)
                return -EINVAL;
        if (s && s[0])
                c->ctr.domainname = own_strdup(c, s);
        if (!(v = get(root, "linux")))
                return perr(e, -EINVAL, "linux", "missing (sbx runs Linux containers)");
        r = parse_linux(c, v, e);
        if (r < 0)
                return r;
        if (!(c->ctr.clone_flags & CLONE_NEWNS))
                return perr(e, -EOPNOTSUPP, "linux.namespaces", "sbx needs a new mount namespace (type 'mount', no path)");
        if ((c->ctr.hostname || c->ctr.domainname) && !(c->ctr.clone_flags & CLONE_NEWUTS))
                return perr(e, -EINVAL, c->ctr.hostname ? "hostname" : "domainname",
                            "needs a new uts namespace (linux.namespaces)");
        if ((r = check_sysctls(c, e)) < 0)
                return r;
        if ((v = get(root, "mounts"))) {
                size_t n;
                if (want(v, json_type_array, "mounts", e) < 0)
                        return -EINVAL;
                n = json_object_array_length(v);
                c->ctr.mounts = own(c, calloc(n + 1, sizeof(sbx_ctr_mount)));
                if (!c->ctr.mounts)
                        return -ENOMEM;
                for (size_t i = 0; i < n; i++) {
                        r = parse_mount(c, json_object_array_get_idx(v, i), i, &c->ctr.mounts[i], e);
                        if (r < 0)
                                return r;
                        c->ctr.n_mounts++;
                }
                if (n && !(c->ctr.clone_flags & CLONE_NEWNS) && c->ctr.join_fds[SBX_CTR_NS_MNT] < 0)
                        return perr(e, -EINVAL, "mounts", "mounts need a new mount namespace (linux.namespaces)");
        }
        if ((v = get(root, "hooks")) && (r = parse_hooks(c, v, e)) < 0)
                return r;
        if ((v = get(root, "annotations")) && (r = parse_annotations(c, v, e)) < 0)
                return r;
        return 0;
}

void oci_config_warn(oci_config *c, const char *fmt, ...) {
        size_t n = strlen(c->warnings);
        va_list ap;

        if (n + 3 >= sizeof(c->warnings))
                return;
        if (n)
                n += (size_t) snprintf(c->warnings + n, sizeof(c->warnings) - n, "; ");
        va_start(ap, fmt);
        vsnprintf(c->warnings + n, sizeof(c->warnings) - n, fmt, ap);
        va_end(ap);
}

void oci_config_free(oci_config *c) {
        for (size_t i = 0; i < _SBX_CTR_NS_MAX; i++)
                closep(&c->ctr.join_fds[i]);
        closep(&c->ctr.wait_fd);
        closep(&c->ctr.cgroup_fd);
        sbx_bpf_free(&c->ctr.seccomp);
        if (c->ctr.rules)
                sbx_run_config_free(&c->rules);
        c->ctr.rules = NULL;
        oci_policy_who_done(&c->who);
        for (size_t i = 0; i < c->n_owned; i++)
                free(c->strings_owned[i]);
        c->n_owned = 0;
        if (c->root)
                json_object_put(c->root);
        c->root = NULL;
}

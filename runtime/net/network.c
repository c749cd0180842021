/* SPDX-License-Identifier: MIT */
/* Named networks (issue 18): records in sbx's state, one JSON file per
 * network (<dir>/<name>.json, dir = $SBX_NETWORK_DIR or the data dir's
 * networks/), and the egress allowlist's parsing and matching. See net.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net.h"
#include "util/util.h"

#define RECORD_MAX (1 << 20)

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_putp)

/* ---- names and rules ---- */

int sbx_network_name_check(const char *name, sbx_error *reterr) {
        static const char *const reserved[] = { "none", "bridge", "host", "default", NULL };
        size_t n = name ? strlen(name) : 0;

        if (n == 0 || n > SBX_NETWORK_NAME_MAX)
                return sbx_error_set(reterr, -EINVAL, "network name '%s': must be 1 to %d characters",
                                     name ?: "", SBX_NETWORK_NAME_MAX);
        if (!isalnum((unsigned char) name[0]))
                goto bad;
        for (const char *p = name; *p; p++)
                if (!isalnum((unsigned char) *p) && !strchr("_.-", *p))
                        goto bad;
        for (size_t i = 0; reserved[i]; i++)
                if (strcasecmp(name, reserved[i]) == 0)
                        return sbx_error_set(reterr, -EINVAL, "network name '%s' is reserved (a network mode)",
                                             name);
        return 0;
bad:
        return sbx_error_set(reterr, -EINVAL,
                             "network name '%s': only letters, digits and '_.-', starting with a letter or digit",
                             name);
}

static int port_parse(const char *s, uint16_t *ret) {
        char *end;
        unsigned long v;

        errno = 0;
        v = strtoul(s, &end, 10);
        if (errno || *end || end == s || v == 0 || v > 65535 || !isdigit((unsigned char) s[0]))
                return -EINVAL;
        *ret = (uint16_t) v;
        return 0;
}

/* A DNS name (lower-cased in place): labels of 1..63 of [a-z0-9-], not
 * starting or ending with '-', at most 253 in all; one trailing dot dropped.
 * All-numeric final label refused (an IPv4 literal is not a name). */
static bool dns_name_ok(char *s) {
        size_t n = strlen(s), label = 0;
        char *last;

        if (n && s[n - 1] == '.')
                s[--n] = '\0';
        if (n == 0 || n > 253)
                return false;
        for (char *p = s; *p; p++) {
                *p = (char) tolower((unsigned char) *p);
                if (*p == '.') {
                        if (label == 0 || p[-1] == '-')
                                return false;
                        label = 0;
                        continue;
                }
                if (!isalnum((unsigned char) *p) && !(*p == '-' && label > 0 && p[1] != '.' && p[1]))
                        if (*p != '_')
                                return false;
                if (++label > 63)
                        return false;
        }
        last = strrchr(s, '.');
        last = last ? last + 1 : s;
        return strspn(last, "0123456789") != strlen(last);
}

int sbx_egress_rule_parse(const char *spec, bool cidr, sbx_egress_rule *ret, sbx_error *reterr) {
        const char *what = cidr ? "--egress-allow-cidr" : "--egress-allow";
        char buf[300], *colon, *slash;
        sbx_egress_rule r = {};

        if (!spec || strlen(spec) >= sizeof(buf) || !*spec)
                return sbx_error_set(reterr, -EINVAL, "%s '%s': empty or too long", what, spec ?: "");
        snprintf(buf, sizeof(buf), "%s", spec);
        if (strchr(buf, '[') || strchr(buf, ']') || strchr(buf, ':') != strrchr(buf, ':'))
                return sbx_error_set(reterr, -EINVAL,
                                     "%s '%s': IPv6 is not supported (sandbox networks are IPv4 only)",
                                     what, spec);
        colon = strchr(buf, ':');
        if (colon) {
                *colon = '\0';
                if (port_parse(colon + 1, &r.port) < 0)
                        return sbx_error_set(reterr, -EINVAL, "%s '%s': port '%s' is not 1..65535", what,
                                             spec, colon + 1);
        }
        if (cidr) {
                unsigned long len = 32;
                char *end;

                slash = strchr(buf, '/');
                if (slash) {
                        *slash = '\0';
                        errno = 0;
                        len = strtoul(slash + 1, &end, 10);
                        if (errno || *end || end == slash + 1 || len > 32)
                                return sbx_error_set(reterr, -EINVAL,
                                                     "%s '%s': expected A.B.C.D[/LEN][:PORT] with LEN 0..32",
                                                     what, spec);
                }
                if (inet_pton(AF_INET, buf, &r.net) != 1)
                        return sbx_error_set(reterr, -EINVAL,
                                             "%s '%s': expected A.B.C.D[/LEN][:PORT] (an IPv4 address or range)",
                                             what, spec);
                r.prefixlen = (unsigned) len;
                if (len < 32 && (ntohl(r.net.s_addr) & (len ? 0xffffffffu >> len : 0xffffffffu)))
                        return sbx_error_set(reterr, -EINVAL, "%s '%s': host bits are set after /%lu", what,
                                             spec, len);
                r.cidr = true;
        } else {
                struct in_addr a;
                const char *name = buf;

                if (inet_pton(AF_INET, buf, &a) == 1)
                        return sbx_error_set(reterr, -EINVAL,
                                             "%s '%s': an IP address, not a host name (use --egress-allow-cidr "
                                             "%s/32)", what, spec, buf);
                if (strncmp(buf, "*.", 2) == 0) {
                        r.wildcard = true;
                        name = buf + 2;
                }
                if (strchr(name, '*') || strlen(name) >= sizeof(r.host) ||
                    !dns_name_ok(r.host[0] ? r.host : strcpy(r.host, name)))
                        return sbx_error_set(reterr, -EINVAL,
                                             "%s '%s': expected HOST[:PORT] or *.DOMAIN[:PORT] (a DNS name; a "
                                             "wildcard only as the whole first label)", what, spec);
        }
        *ret = r;
        return 0;
}

bool sbx_egress_rule_matches(const sbx_egress_rule *r, const char *name) {
        size_t n, h;

        if (r->cidr)
                return false;
        n = strlen(name);
        h = strlen(r->host);
        if (!r->wildcard)
                return strcasecmp(name, r->host) == 0;
        /* "*.example.org": one or more labels before ".example.org", never the apex */
        return n > h + 1 && name[n - h - 1] == '.' && strcasecmp(name + n - h, r->host) == 0;
}

/* ---- the record ---- */

void sbx_network_done(sbx_network *n) {
        if (!n)
                return;
        sbx_strv_free(&n->dns);
        sbx_strv_free(&n->allow);
        sbx_strv_free(&n->allow_cidr);
        *n = (sbx_network) {};
}

bool sbx_network_enforced(const sbx_network *n) {
        return n->internal || n->allow.n > 0 || n->allow_cidr.n > 0;
}

int sbx_network_validate(const sbx_network *n, sbx_error *reterr) {
        sbx_egress_rule r;
        int k = sbx_network_name_check(n->name, reterr);

        for (size_t i = 0; k >= 0 && i < n->allow.n; i++)
                k = sbx_egress_rule_parse(n->allow.v[i], false, &r, reterr);
        for (size_t i = 0; k >= 0 && i < n->allow_cidr.n; i++)
                k = sbx_egress_rule_parse(n->allow_cidr.v[i], true, &r, reterr);
        for (size_t i = 0; k >= 0 && i < n->dns.n; i++)
                k = sbx_dns_parse(n->dns.v[i], reterr);
        if (k >= 0 && n->internal && (n->allow.n || n->allow_cidr.n))
                k = sbx_error_set(reterr, -EINVAL,
                                  "network '%s': --internal (no egress) and --egress-allow contradict each other",
                                  n->name);
        return k < 0 ? k : 0;
}

static json_object *strv_json(const sbx_strv *l) {
        json_object *a = json_object_new_array();

        for (size_t i = 0; i < l->n; i++)
                json_object_array_add(a, json_object_new_string(l->v[i]));
        return a;
}

json_object *sbx_network_to_json(const sbx_network *n) {
        json_object *o = json_object_new_object();

        json_object_object_add(o, "name", json_object_new_string(n->name));
        json_object_object_add(o, "id", json_object_new_string(n->id));
        json_object_object_add(o, "created", json_object_new_string(n->created));
        json_object_object_add(o, "driver", json_object_new_string("bridge"));
        json_object_object_add(o, "internal", json_object_new_boolean(n->internal));
        json_object_object_add(o, "egress", json_object_new_string(
                                       n->internal ? "none" : sbx_network_enforced(n) ? "allowlist" : "any"));
        json_object_object_add(o, "egress_allow", strv_json(&n->allow));
        json_object_object_add(o, "egress_allow_cidr", strv_json(&n->allow_cidr));
        json_object_object_add(o, "dns", strv_json(&n->dns));
        return o;
}

static int strv_from_json(json_object *o, const char *key, sbx_strv *ret) {
        json_object *a;

        if (!json_object_object_get_ex(o, key, &a))
                return 0;
        if (!json_object_is_type(a, json_type_array))
                return -EBADMSG;
        for (size_t i = 0; i < json_object_array_length(a); i++) {
                json_object *s = json_object_array_get_idx(a, i);
                if (!json_object_is_type(s, json_type_string))
                        return -EBADMSG;
                if (sbx_strv_push(ret, json_object_get_string(s)) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int str_from_json(json_object *o, const char *key, char *ret, size_t len) {
        json_object *s;

        if (!json_object_object_get_ex(o, key, &s) || !json_object_is_type(s, json_type_string) ||
            strlen(json_object_get_string(s)) >= len)
                return -EBADMSG;
        snprintf(ret, len, "%s", json_object_get_string(s));
        return 0;
}

int sbx_network_from_json(json_object *o, sbx_network *ret, sbx_error *reterr) {
        sbx_network n = {};
        json_object *b;
        int k;

        k = str_from_json(o, "name", n.name, sizeof(n.name));
        if (k >= 0)
                k = str_from_json(o, "id", n.id, sizeof(n.id));
        if (k >= 0)
                k = str_from_json(o, "created", n.created, sizeof(n.created));
        if (k >= 0 && json_object_object_get_ex(o, "internal", &b))
                n.internal = json_object_get_boolean(b);
        if (k >= 0)
                k = strv_from_json(o, "egress_allow", &n.allow);
        if (k >= 0)
                k = strv_from_json(o, "egress_allow_cidr", &n.allow_cidr);
        if (k >= 0)
                k = strv_from_json(o, "dns", &n.dns);
        if (k < 0) {
                sbx_network_done(&n);
                return sbx_error_set(reterr, k, "network record: a field is missing or has the wrong type");
        }
        k = sbx_network_validate(&n, reterr);
        if (k < 0) {
                sbx_network_done(&n);
                return sbx_error_wrap(reterr, "network record");
        }
        *ret = n;
        return 0;
}

/* ---- the store ---- */

int sbx_network_dir(char *ret, size_t len, sbx_error *reterr) {
        return sbx_data_dir("networks", "SBX_NETWORK_DIR", ret, len, reterr);
}

static int dir_open(bool create, sbx_error *reterr) {
        char dir[PATH_MAX];
        int fd, k;

        k = sbx_network_dir(dir, sizeof(dir), reterr);
        if (k < 0)
                return k;
        if (create) {
                k = sbx_mkdir_p(dir, 0755);
                if (k < 0)
                        return sbx_error_set(reterr, k, "create the network directory '%s'", dir);
        }
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, negative_errno(), "open the network directory '%s'", dir);
        return fd;
}

static int dir_lock(int dfd, sbx_error *reterr) {
        int fd = openat(dfd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

        if (fd < 0)
                return sbx_error_set(reterr, negative_errno(), "open the network directory's lock");
        if (flock(fd, LOCK_EX) < 0) {
                int k = negative_errno();
                close(fd);
                return sbx_error_set(reterr, k, "lock the network directory");
        }
        return fd;
}

static int not_found(const char *name, sbx_error *reterr) {
        return sbx_error_set(reterr, -ENOENT, "network '%s' not found ('sbx network ls' lists the networks; "
                             "'sbx network create %s' makes it)", name, name);
}

/* The directory of an existing record NAME (valid name, directory there). */
static int dir_open_named(const char *name, sbx_error *reterr) {
        int k = sbx_network_name_check(name, reterr);

        if (k < 0)
                return k;
        k = dir_open(false, reterr);
        return k == -ENOENT ? not_found(name, reterr) : k;
}

static int load_at(int dfd, const char *name, sbx_network *ret, sbx_error *reterr) {
        _cleanup_json_ json_object *o = NULL;
        char file[SBX_NETWORK_NAME_MAX + 8];
        int k;

        snprintf(file, sizeof(file), "%s.json", name);
        k = sbx_json_read_at(dfd, file, RECORD_MAX, false, &o, reterr);
        if (k == -ENOENT)
                return not_found(name, reterr);
        if (k < 0)
                return k;
        k = sbx_network_from_json(o, ret, reterr);
        if (k >= 0 && strcmp(ret->name, name) != 0) {
                sbx_network_done(ret);
                return sbx_error_set(reterr, -EBADMSG, "network record '%s' names another network", file);
        }
        return k;
}

int sbx_network_load(const char *name, sbx_network *ret, sbx_error *reterr) {
        _cleanup_close_ int dfd = dir_open_named(name, reterr);

        if (dfd < 0)
                return dfd;
        return load_at(dfd, name, ret, reterr);
}

int sbx_network_save(sbx_network *n, bool create, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, lock = -EBADF;
        _cleanup_json_ json_object *o = NULL;
        char file[SBX_NETWORK_NAME_MAX + 8], path[PATH_MAX];
        struct stat st;
        int k;

        k = sbx_network_validate(n, reterr);
        if (k < 0)
                return k;
        dfd = dir_open(true, reterr);
        if (dfd < 0)
                return dfd;
        lock = dir_lock(dfd, reterr);
        if (lock < 0)
                return lock;
        snprintf(file, sizeof(file), "%s.json", n->name);
        k = fstatat(dfd, file, &st, AT_SYMLINK_NOFOLLOW) < 0 ? negative_errno() : 0;
        if (create && k == 0)
                return sbx_error_set(reterr, -EEXIST, "network with name %s already exists", n->name);
        if (!create && k < 0)
                return not_found(n->name, reterr);
        if (create) {
                uint8_t rnd[32];
                time_t now = time(NULL);
                struct tm tm;

                if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
                        return sbx_error_set(reterr, negative_errno(), "getrandom");
                sbx_sha256_hex(rnd, sizeof(rnd), n->id);
                gmtime_r(&now, &tm);
                strftime(n->created, sizeof(n->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
        }
        o = sbx_network_to_json(n);
        k = sbx_network_dir(path, sizeof(path), reterr);
        if (k < 0)
                return k;
        if (strlen(path) + strlen(file) + 2 > sizeof(path))
                return sbx_error_set(reterr, -ENAMETOOLONG, "network directory path too long");
        strcat(strcat(path, "/"), file);
        return sbx_json_write(path, o, 0644, reterr);
}

int sbx_network_remove(const char *name, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, lock = -EBADF;
        char file[SBX_NETWORK_NAME_MAX + 8];

        dfd = dir_open_named(name, reterr);
        if (dfd < 0)
                return dfd;
        lock = dir_lock(dfd, reterr);
        if (lock < 0)
                return lock;
        snprintf(file, sizeof(file), "%s.json", name);
        if (unlinkat(dfd, file, 0) < 0)
                return errno == ENOENT ? not_found(name, reterr)
                                       : sbx_error_set(reterr, negative_errno(), "remove network %s", name);
        return 0;
}

static int network_cmp(const void *a, const void *b) {
        return strcmp(((const sbx_network *) a)->name, ((const sbx_network *) b)->name);
}

int sbx_network_list(sbx_network **ret, size_t *ret_n, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF;
        sbx_network *v = NULL;
        size_t n = 0;
        struct dirent *de;
        DIR *d;

        *ret = NULL;
        *ret_n = 0;
        dfd = dir_open(false, reterr);
        if (dfd == -ENOENT)
                return 0;
        if (dfd < 0)
                return dfd;
        d = fdopendir(TAKE_FD(dfd));
        if (!d)
                return sbx_error_set(reterr, negative_errno(), "read the network directory");
        while ((de = readdir(d))) {
                char name[SBX_NETWORK_NAME_MAX + 1];
                size_t len = strlen(de->d_name);
                sbx_network *nv;

                if (de->d_name[0] == '.' || len < 6 || len - 5 > SBX_NETWORK_NAME_MAX ||
                    strcmp(de->d_name + len - 5, ".json") != 0)
                        continue;
                snprintf(name, sizeof(name), "%.*s", (int) (len - 5), de->d_name);
                nv = realloc(v, (n + 1) * sizeof(*v));
                if (!nv)
                        break;
                v = nv;
                if (sbx_network_name_check(name, NULL) < 0 || load_at(dirfd(d), name, &v[n], NULL) < 0)
                        continue;   /* not a record of ours: ls skips it, inspect names the problem */
                n++;
        }
        closedir(d);
        if (n)
                qsort(v, n, sizeof(*v), network_cmp);
        *ret = v;
        *ret_n = n;
        return 0;
}

void sbx_network_list_free(sbx_network *v, size_t n) {
        for (size_t i = 0; i < n; i++)
                sbx_network_done(&v[i]);
        free(v);
}

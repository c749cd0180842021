/* SPDX-License-Identifier: MIT */
/* sbx run --image NAME[:TAG] (issue 8): resolve the name through the image
 * store and fold the image's config into struct sbx_run_config. A config
 * stage step (STYLE §A.2): it runs before the plan and only fills the config.
 *
 *   rootfs    the image's flattened root (read-only unless --writable-root)
 *   Env       merged *under* what the caller set explicitly (--env wins)
 *   WorkingDir the default for --workdir
 *   User      the default for --user: numeric, or a name (and optional group)
 *             looked up in the image's own /etc/passwd and /etc/group;
 *             HOME then defaults to the user's home from that passwd line. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-tools/image.h"
#include "util/util.h"
#include "launch.h"

static bool env_has_key(char *const *envv, size_t n, const char *kv) {
        size_t klen = strcspn(kv, "=");

        for (size_t i = 0; i < n; i++)
                if (!strncmp(envv[i], kv, klen) && envv[i][klen] == '=')
                        return true;
        return false;
}

/* Image Env first, explicit entries after (and they win on a shared key). */
static int merge_env(sbx_run_config *c, char *const *image_env) {
        char **explicit = c->envv;
        size_t n_explicit = c->n_env;
        int r = 0;

        c->envv = NULL;
        c->n_env = 0;
        for (size_t i = 0; image_env && image_env[i] && r >= 0; i++)
                if (strchr(image_env[i], '=') && !env_has_key(explicit, n_explicit, image_env[i]))
                        r = sbx_run_config_add_env(c, image_env[i]);
        for (size_t i = 0; i < n_explicit; i++) {
                if (r >= 0)
                        r = sbx_run_config_add_env(c, explicit[i]);
                free(explicit[i]);
        }
        free(explicit);
        return r;
}

/* Read etc/<name> of the image, resolved inside it (an image's symlinks
 * cannot make us read the host's files). */
static char *read_image_file(const char *rootfs, const char *name) {
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        struct stat st;
        char *buf;
        ssize_t n;

        dfd = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                return NULL;
        /* the image's (its author's) file: O_NONBLOCK and a regular file
         * only, so that a FIFO there cannot hang sbx */
        fd = sys_openat2(dfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                         RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return NULL;
        buf = malloc(1 << 20);
        if (!buf)
                return NULL;
        n = read(fd, buf, (1 << 20) - 1);
        if (n < 0) {
                free(buf);
                return NULL;
        }
        buf[n] = '\0';
        return buf;
}

/* Field `field` (0-based, ':'-separated) of the line whose field 0 or, when
 * by_id, field 2 equals key. Copies it into ret. */
static bool db_lookup(const char *db, const char *key, bool by_id, int field, char *ret, size_t len) {
        for (const char *line = db; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
                const char *f[8] = { line };
                size_t nf = 1, klen = strlen(key);
                const char *end = strchr(line, '\n') ?: line + strlen(line);

                for (const char *s = line; s < end && nf < 8; s++)
                        if (*s == ':')
                                f[nf++] = s + 1;
                if ((int) nf <= field || nf < 3)
                        continue;
                const char *k = f[by_id ? 2 : 0];
                if (strncmp(k, key, klen) || (k[klen] != ':' && k + klen != end))
                        continue;
                const char *v = f[field], *vend = (size_t) field + 1 < nf ? f[field + 1] - 1 : end;
                snprintf(ret, len, "%.*s", (int) (vend - v), v);
                return true;
        }
        return false;
}

static bool all_digits(const char *s) {
        return *s && strspn(s, "0123456789") == strlen(s);
}

bool sbx_rootfs_home(const char *rootfs, uint32_t uid, char *ret, size_t len) {
        _cleanup_free_ char *passwd = read_image_file(rootfs, "etc/passwd");
        char key[16];

        snprintf(key, sizeof(key), "%u", uid);
        return passwd && db_lookup(passwd, key, true, 5, ret, len) && ret[0] == '/' && !strpbrk(ret, "\n");
}

/* The passwd and group files of sbx's default root (mount.c etc_contents)
 * before the sandbox user's line: what a name there resolves in. */
static const char default_passwd[] = "root:x:0:0:root:/root:/bin/sh\n"
                                     "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
static const char default_group[] = "root:x:0:\nnogroup:x:65534:\n";

/* docker's User (runc's GetExecUser): uid, uid:gid, name, name:group, names
 * and a bare uid's group looked up in the root's own /etc/passwd and
 * /etc/group (an image's; sbx's generated ones for the default root, rootfs
 * NULL: root and nobody, groups root and nogroup). A uid not in passwd and
 * no group: gid 0, as docker. what names the value in errors. */
int sbx_rootfs_user(const char *rootfs, const char *user, const char *what, uint32_t *ret_uid, uint32_t *ret_gid,
                    char *ret_home, size_t home_len, sbx_error *reterr) {
        _cleanup_free_ char *passwd_buf = NULL, *group_buf = NULL, *u = strdup(user);
        const char *passwd, *group;
        char uid[32], gid[32] = "0", home[512] = "", spec[80];
        char *g;

        if (!u)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (rootfs) {
                passwd = passwd_buf = read_image_file(rootfs, "etc/passwd");
                group = group_buf = read_image_file(rootfs, "etc/group");
        } else {
                passwd = default_passwd;
                group = default_group;
        }
        g = strchr(u, ':');
        if (g)
                *g++ = '\0';
        if (!u[0] || (g && !g[0]))
                return sbx_error_set(reterr, -EINVAL, "%s '%s': empty user or group", what, user);
        if (all_digits(u)) {
                snprintf(uid, sizeof(uid), "%s", u);
                if (passwd)
                        (void) db_lookup(passwd, u, true, 3, gid, sizeof(gid));
                if (passwd)
                        (void) db_lookup(passwd, u, true, 5, home, sizeof(home));
        } else if (passwd && db_lookup(passwd, u, false, 2, uid, sizeof(uid))) {
                (void) db_lookup(passwd, u, false, 3, gid, sizeof(gid));
                (void) db_lookup(passwd, u, false, 5, home, sizeof(home));
        } else
                return sbx_error_set(reterr, -ENOENT, "%s '%s' is not in the %s /etc/passwd%s", what, user,
                                     rootfs ? "image's" : "sandbox's",
                                     rootfs ? "" : " (sbx's default root: root and nobody; give UID[:GID])");
        if (g && all_digits(g))
                snprintf(gid, sizeof(gid), "%s", g);
        else if (g && !(group && db_lookup(group, g, false, 2, gid, sizeof(gid))))
                return sbx_error_set(reterr, -ENOENT, "%s '%s': group '%s' is not in the %s /etc/group%s", what, user, g,
                                     rootfs ? "image's" : "sandbox's",
                                     rootfs ? "" : " (sbx's default root: root and nogroup; give UID:GID)");
        snprintf(spec, sizeof(spec), "%s:%s", uid, gid);
        if (sbx_parse_user(spec, ret_uid, ret_gid, reterr) < 0)
                return sbx_error_set(reterr, -EINVAL, "%s '%s' (%s): ids must be below 65536", what, user, spec);
        if (ret_home)
                snprintf(ret_home, home_len, "%s", home[0] == '/' && !strpbrk(home, "\n") ? home : "");
        return 0;
}

/* docker's User: uid, uid:gid, name, name:group (names from the image). */
static int apply_user(sbx_run_config *c, const char *image, const char *user, sbx_error *reterr) {
        char what[300], home[512];
        int r;

        snprintf(what, sizeof(what), "image %s: User", image);
        r = sbx_rootfs_user(c->rootfs, user, what, &c->uid, &c->gid, home, sizeof(home), reterr);
        if (r < 0)
                return r;
        if (home[0]) {
                char kv[sizeof(home) + 8];
                snprintf(kv, sizeof(kv), "HOME=%s", home);
                if (!env_has_key(c->envv, c->n_env, kv) && sbx_run_config_add_env(c, kv) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        return 0;
}

int sbx_run_config_apply_image(sbx_run_config *c, const char *name, sbx_error *reterr) {
        struct sbx_image_config ic = {};
        char path[4096];
        int r;

        r = sbx_image_resolve(name, path, sizeof(path), &ic, reterr);
        if (r < 0)
                return r;
        free(c->rootfs);
        c->rootfs = strdup(path);
        r = c->rootfs ? merge_env(c, ic.env) : -ENOMEM;
        if (r >= 0 && !c->workdir && ic.working_dir && ic.working_dir[0] == '/')
                r = (c->workdir = strdup(ic.working_dir)) ? 0 : -ENOMEM;
        if (r < 0) {
                sbx_image_config_done(&ic);
                return sbx_error_set(reterr, r, "image %s: out of memory", name);
        }
        if (!c->user_set && ic.user && ic.user[0])
                r = apply_user(c, name, ic.user, reterr);
        sbx_image_config_done(&ic);
        return r;
}

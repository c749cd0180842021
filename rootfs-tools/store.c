/* SPDX-License-Identifier: MIT */
/* The image store: names, records, resolution, listing and removal. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "store.h"
#include "tree.h"


static void strv_free(char **v) {
        if (!v)
                return;
        for (char **p = v; *p; p++)
                free(*p);
        free(v);
}

void sbx_image_config_done(struct sbx_image_config *c) {
        if (!c)
                return;
        strv_free(c->env);
        strv_free(c->entrypoint);
        strv_free(c->cmd);
        free(c->working_dir);
        free(c->user);
        *c = (struct sbx_image_config){};
}

/* ---- names ---- */

static bool tag_valid(const char *t) {
        size_t n = strlen(t);

        if (n == 0 || n >= SBX_IMAGE_TAG_MAX || t[0] == '.' || t[0] == '-')
                return false;
        for (; *t; t++)
                if (!(('a' <= *t && *t <= 'z') || ('A' <= *t && *t <= 'Z') || ('0' <= *t && *t <= '9') ||
                      *t == '_' || *t == '.' || *t == '-'))
                        return false;
        return true;
}

static bool name_valid(const char *s) {
        const char *colon = strchr(s, ':'), *slash = strchr(s, '/');
        size_t n = strlen(s);

        /* ':' only as the registry's "host:port/" */
        if (colon && (!slash || colon > slash || colon + 1 == slash ||
                      strspn(colon + 1, "0123456789") != (size_t) (slash - colon - 1)))
                return false;

        if (n == 0 || n >= SBX_IMAGE_NAME_MAX || s[0] == '/' || s[n - 1] == '/' || s[0] == '.' ||
            strstr(s, "//") || strstr(s, "..") || strstr(s, "/."))
                return false;
        for (; *s; s++)
                if (!(('a' <= *s && *s <= 'z') || ('0' <= *s && *s <= '9') || *s == '_' || *s == '.' ||
                      *s == '-' || *s == '/' || *s == ':'))
                        return false;
        return true;
}

int sbx_image_ref_parse(const char *s, struct sbx_image_ref *ret, sbx_error *reterr) {
        struct sbx_image_ref r = {};
        const char *colon, *slash, *name = s;
        size_t nl;

        if (!s || !*s)
                return sbx_error_set(reterr, -EINVAL, "empty image name");
        if (strchr(s, '@'))
                return sbx_error_set(reterr, -EINVAL,
                                     "image '%.200s': references by digest are not supported, use name:tag",
                                     s);
        if (!strncmp(name, "docker.io/library/", 18))
                name += 18;
        else if (!strncmp(name, "docker.io/", 10))
                name += 10;
        colon = strrchr(name, ':');
        slash = strrchr(name, '/');
        if (colon && (!slash || colon > slash)) {
                nl = (size_t) (colon - name);
                if (!tag_valid(colon + 1))
                        return sbx_error_set(
                                reterr, -EINVAL,
                                "image '%.200s': invalid tag (letters, digits, '_', '.', '-'; at most 127)",
                                s);
                snprintf(r.tag, sizeof(r.tag), "%s", colon + 1);
        } else {
                nl = strlen(name);
                snprintf(r.tag, sizeof(r.tag), "latest");
        }
        if (nl >= sizeof(r.name))
                return sbx_error_set(reterr, -EINVAL, "image '%.200s': name too long", s);
        memcpy(r.name, name, nl);
        r.name[nl] = '\0';
        if (!name_valid(r.name))
                return sbx_error_set(
                        reterr, -EINVAL,
                        "image '%.200s': invalid name (lower-case letters, digits, '.', '_', '-', '/')", s);
        *ret = r;
        return 0;
}

/* The directory name of an image: "name@tag" with '/' -> '+' and ':' (a
 * registry port) -> '%'. Injective (none of "@+%" is valid in a name or tag)
 * and free of ',' and ':' so the launcher can put the path in overlayfs
 * mount options. */
void sbx_image_ref_key(const struct sbx_image_ref *ref, char ret[SBX_IMAGE_KEY_MAX]) {
        snprintf(ret, SBX_IMAGE_KEY_MAX, "%s@%s", ref->name, ref->tag);
        for (char *p = ret; *p; p++)
                if (*p == '/')
                        *p = '+';
                else if (*p == ':')
                        *p = '%';
}

/* ---- the store directory ---- */

int sbx_image_store_dir(char *ret, size_t len, sbx_error *reterr) {
        return sbx_data_dir("images", "SBX_IMAGE_DIR", ret, len, reterr);
}

int sbx_store_open(char *ret_path, size_t len, sbx_error *reterr) {
        static const char *const sub[] = {"layers", "images", "tmp"};
        int fd, r;

        r = sbx_image_store_dir(ret_path, len, reterr);
        if (r < 0)
                return r;
        /* World-traversable (not writable): as root the launcher's sandbox root
         * is a subordinate uid that must reach images/<key>/rootfs to bind it.
         * tmp/ stays private; nothing in the store is secret beyond what the
         * image's own modes protect. */
        r = sbx_mkdir_p(ret_path, 0755);
        if (r < 0)
                return sbx_error_set(reterr, r, "create image store '%s'", ret_path);
        fd = open(ret_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "open image store '%s': %s", ret_path, strerror(errno));
        for (size_t i = 0; i < ELEMENTSOF(sub); i++)
                if (mkdirat(fd, sub[i], strcmp(sub[i], "tmp") ? 0755 : 0700) < 0 && errno != EEXIST) {
                        r = sbx_error_set(reterr, -errno, "create '%s/%s': %s", ret_path, sub[i],
                                          strerror(errno));
                        close(fd);
                        return r;
                }
        return fd;
}

int sbx_store_lock(int storefd, sbx_error *reterr) {
        int fd = openat(storefd, ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

        if (fd < 0)
                return sbx_error_set(reterr, -errno, "open image store lock: %s", strerror(errno));
        if (flock(fd, LOCK_EX) < 0) {
                int r = sbx_error_set(reterr, -errno, "lock image store: %s", strerror(errno));
                close(fd);
                return r;
        }
        return fd;
}

/* A work directory whose build or import died (killed, Ctrl-C): no one
 * holds its lock, so it is removed; one a running build or import holds
 * stays. */
static void collect_stale_work(int storefd) {
        int tfd = openat(storefd, "tmp", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct dirent *de;
        DIR *d;

        if (tfd < 0 || !(d = fdopendir(tfd))) {
                if (tfd >= 0)
                        close(tfd);
                return;
        }
        while ((de = readdir(d))) {
                int fd;
                if (de->d_name[0] == '.')
                        continue;   /* ".new-*": being made (not locked yet) */
                fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0)
                        continue;
                if (flock(fd, LOCK_EX | LOCK_NB) == 0)
                        (void) sbx_tree_rm_rf_at(dirfd(d), de->d_name);
                close(fd);
        }
        closedir(d);
}

int sbx_store_mktemp(int storefd, char *ret_rel, size_t len, sbx_error *reterr) {
        collect_stale_work(storefd);
        for (int attempt = 0; attempt < 16; attempt++) {
                char fresh[64];
                uint64_t rnd;
                int fd;

                if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
                        return sbx_error_set(reterr, -errno, "getrandom: %s", strerror(errno));
                /* made as ".new-X", locked, then renamed to X: a collector
                 * never sees it unlocked; the lock lives as long as the fd
                 * the caller keeps for the whole build or import */
                snprintf(fresh, sizeof(fresh), "tmp/.new-%016llx", (unsigned long long) rnd);
                snprintf(ret_rel, len, "tmp/%016llx", (unsigned long long) rnd);
                if (mkdirat(storefd, fresh, 0700) < 0) {
                        if (errno == EEXIST)
                                continue;
                        return sbx_error_set(reterr, -errno, "create work directory in the image store: %s",
                                             strerror(errno));
                }
                fd = openat(storefd, fresh, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 || flock(fd, LOCK_EX) < 0 || renameat2(storefd, fresh, storefd, ret_rel, RENAME_NOREPLACE) < 0) {
                        int r = sbx_error_set(reterr, -errno, "open work directory: %s", strerror(errno));
                        if (fd >= 0)
                                close(fd);
                        (void) unlinkat(storefd, fresh, AT_REMOVEDIR);
                        return r;
                }
                return fd;
        }
        return sbx_error_set(reterr, -EEXIST, "cannot create a work directory in the image store");
}

/* ---- records ---- */

static int write_file_at(int dirfd, const char *name, const char *data) {
        _cleanup_close_ int fd =
                openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        size_t len = strlen(data);

        if (fd < 0)
                return -errno;
        for (size_t off = 0; off < len;) {
                ssize_t k = write(fd, data + off, len - off);
                if (k < 0)
                        return -errno;
                off += (size_t) k;
        }
        return fsync(fd) < 0 ? -errno : 0;
}

int sbx_store_commit_image(int storefd, const char *workrel, const struct sbx_image_ref *ref,
                           json_object *record, sbx_error *reterr) {
        _cleanup_close_ int wfd = -EBADF;
        char key[SBX_IMAGE_KEY_MAX], dst[SBX_IMAGE_KEY_MAX + 16], old[64];
        int r;

        wfd = openat(storefd, workrel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (wfd < 0)
                return sbx_error_set(reterr, -errno, "open work directory: %s", strerror(errno));
        if (fchmod(wfd, 0755) < 0)
                return sbx_error_set(reterr, -errno, "chmod work directory: %s", strerror(errno));
        r = write_file_at(wfd, "image.json",
                          json_object_to_json_string_ext(record, JSON_C_TO_STRING_PRETTY |
                                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
        if (r < 0)
                return sbx_error_set(reterr, r, "write image record");
        sbx_image_ref_key(ref, key);
        snprintf(dst, sizeof(dst), "images/%s", key);
        if (renameat(storefd, workrel, storefd, dst) == 0)
                return 0;
        if (errno != EEXIST && errno != ENOTEMPTY)
                return sbx_error_set(reterr, -errno, "store image %s:%s: %s", ref->name, ref->tag,
                                     strerror(errno));
        /* Replace atomically: swap, then remove the old tree (now at workrel). */
        if (renameat2(storefd, workrel, storefd, dst, RENAME_EXCHANGE) < 0)
                return sbx_error_set(reterr, -errno, "replace image %s:%s: %s", ref->name, ref->tag,
                                     strerror(errno));
        snprintf(old, sizeof(old), "%s", workrel);
        (void) sbx_tree_rm_rf_at(storefd, old);
        return 0;
}

static const char *now_rfc3339(char buf[32]) {
        time_t t = time(NULL);
        struct tm tm;

        gmtime_r(&t, &tm);
        strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
        return buf;
}

json_object *sbx_record_new(const struct sbx_image_ref *ref, const char *source);
json_object *sbx_record_new(const struct sbx_image_ref *ref, const char *source) {
        json_object *o = json_object_new_object();
        char ts[32], full[SBX_IMAGE_KEY_MAX];

        snprintf(full, sizeof(full), "%s:%s", ref->name, ref->tag);
        json_object_object_add(o, "ref", json_object_new_string(full));
        json_object_object_add(o, "name", json_object_new_string(ref->name));
        json_object_object_add(o, "tag", json_object_new_string(ref->tag));
        json_object_object_add(o, "source", json_object_new_string(source));
        json_object_object_add(o, "created", json_object_new_string(now_rfc3339(ts)));
        return o;
}

/* ---- resolve / list / inspect / rm ---- */

static int missing(const struct sbx_image_ref *ref, sbx_error *reterr) {
        return sbx_error_set(reterr, -ENOENT,
                             "No such image: %s:%s (create it with 'sbx rootfs build %s:%s' or "
                             "'sbx rootfs import FILE' from a docker save / OCI layout tarball)",
                             ref->name, ref->tag, ref->name, ref->tag);
}

static int load_record(const char *store, const struct sbx_image_ref *ref, json_object **ret,
                       sbx_error *reterr) {
        _cleanup_close_ int sfd = -EBADF;
        char key[SBX_IMAGE_KEY_MAX], rel[SBX_IMAGE_KEY_MAX + 32];
        sbx_error e = {};

        sfd = open(store, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (sfd < 0 && errno == ENOENT)
                return missing(ref, reterr);
        if (sfd < 0)
                return sbx_error_set(reterr, -errno, "open image store '%s': %s", store, strerror(errno));
        sbx_image_ref_key(ref, key);
        snprintf(rel, sizeof(rel), "images/%s/image.json", key);
        if (sbx_json_read_at(sfd, rel, 1 << 20, false, ret, &e) < 0) {
                if (e.code == -ENOENT)
                        return missing(ref, reterr);
                *reterr = e;
                return sbx_error_wrap(reterr, "image %s:%s", ref->name, ref->tag);
        }
        return 0;
}

static int config_from_record(json_object *rec, struct sbx_image_config *ret) {
        struct sbx_image_config c = {};
        json_object *cfg, *x;

        if (json_object_object_get_ex(rec, "config", &cfg)) {
                if (sbx_json_strv(json_object_object_get(cfg, "Env"), &c.env) < 0 ||
                    sbx_json_strv(json_object_object_get(cfg, "Entrypoint"), &c.entrypoint) < 0 ||
                    sbx_json_strv(json_object_object_get(cfg, "Cmd"), &c.cmd) < 0)
                        goto oom;
                if (json_object_object_get_ex(cfg, "WorkingDir", &x) &&
                    json_object_is_type(x, json_type_string) &&
                    !(c.working_dir = strdup(json_object_get_string(x))))
                        goto oom;
                if (json_object_object_get_ex(cfg, "User", &x) && json_object_is_type(x, json_type_string) &&
                    !(c.user = strdup(json_object_get_string(x))))
                        goto oom;
        }
        *ret = c;
        return 0;
oom:
        sbx_image_config_done(&c);
        return -ENOMEM;
}

/* The image NAME: its parsed name, its record and the path of its root directory. */
static int open_image(const char *name, struct sbx_image_ref *ref, json_object **ret_rec,
                      char ret_rootfs[static PATH_MAX], sbx_error *reterr) {
        char store[PATH_MAX], key[SBX_IMAGE_KEY_MAX];
        int r;

        r = sbx_image_ref_parse(name, ref, reterr);
        if (r < 0)
                return r;
        r = sbx_image_store_dir(store, sizeof(store), reterr);
        if (r < 0)
                return r;
        r = load_record(store, ref, ret_rec, reterr);
        if (r < 0)
                return r;
        sbx_image_ref_key(ref, key);
        if (snprintf(ret_rootfs, PATH_MAX, "%s/images/%s/rootfs", store, key) >= PATH_MAX) {
                json_object_put(*ret_rec);
                *ret_rec = NULL;
                return sbx_error_set(reterr, -ENAMETOOLONG, "image %s:%s: rootfs path too long", ref->name,
                                     ref->tag);
        }
        return 0;
}

int sbx_image_resolve(const char *name, char *ret_rootfs_path, size_t len, struct sbx_image_config *ret_cfg,
                      sbx_error *reterr) {
        _cleanup_json_ json_object *rec = NULL;
        struct sbx_image_ref ref;
        char path[PATH_MAX];
        struct stat st;
        int r;

        r = open_image(name, &ref, &rec, path, reterr);
        if (r < 0)
                return r;
        if (strlen(path) >= len)
                return sbx_error_set(reterr, -ENAMETOOLONG, "image %s:%s: rootfs path too long", ref.name,
                                     ref.tag);
        if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
                return sbx_error_set(reterr, -ENOENT,
                                     "image %s:%s: root directory '%s' is missing "
                                     "(remove and re-create the image)",
                                     ref.name, ref.tag, path);
        if (ret_cfg && config_from_record(rec, ret_cfg) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        memcpy(ret_rootfs_path, path, strlen(path) + 1);
        return 0;
}

static int ref_cmp(const void *a, const void *b) {
        json_object *x = *(json_object *const *) a, *y = *(json_object *const *) b;
        return strcmp(json_object_get_string(json_object_object_get(x, "ref")),
                      json_object_get_string(json_object_object_get(y, "ref")));
}

int sbx_image_list(void **ret_json_array, sbx_error *reterr) {
        _cleanup_json_ json_object *arr = json_object_new_array();
        _cleanup_close_ int sfd = -EBADF;
        DIR *d;
        struct dirent *de;
        char store[PATH_MAX];
        int r;

        r = sbx_image_store_dir(store, sizeof(store), reterr);
        if (r < 0)
                return r;
        sfd = open(store, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (sfd >= 0) {
                int dfd = openat(sfd, "images", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                d = dfd >= 0 ? fdopendir(dfd) : NULL;
                while (d && (de = readdir(d))) {
                        json_object *rec = NULL;
                        char rel[NAME_MAX + 32], p[PATH_MAX];

                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(rel, sizeof(rel), "%s/image.json", de->d_name);
                        if (sbx_json_read_at(dirfd(d), rel, 1 << 20, false, &rec, NULL) < 0)
                                continue; /* not a record: ignore half-removed entries */
                        snprintf(p, sizeof(p), "%s/images/%s/rootfs", store, de->d_name);
                        json_object_object_add(rec, "rootfs", json_object_new_string(p));
                        json_object_array_add(arr, rec);
                }
                if (d)
                        closedir(d);
                else if (dfd >= 0)
                        close(dfd);
        } else if (errno != ENOENT)
                return sbx_error_set(reterr, -errno, "open image store '%s': %s", store, strerror(errno));
        json_object_array_sort(arr, ref_cmp);
        *ret_json_array = TAKE_PTR(arr);
        return 0;
}

int sbx_image_inspect(const char *name, void **ret_json_object, sbx_error *reterr) {
        json_object *rec = NULL;
        struct sbx_image_ref ref;
        char p[PATH_MAX];
        int r;

        r = open_image(name, &ref, &rec, p, reterr);
        if (r < 0)
                return r;
        json_object_object_add(rec, "rootfs", json_object_new_string(p));
        *ret_json_object = rec;
        return 0;
}

/* Remove layers/<hex> that no image record lists any more. */
static int gc_layers(int sfd) {
        _cleanup_json_ json_object *used = json_object_new_object();
        DIR *d;
        struct dirent *de;
        int dfd;

        dfd = openat(sfd, "images", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        d = dfd >= 0 ? fdopendir(dfd) : NULL;
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                _cleanup_json_ json_object *rec = NULL;
                json_object *layers;
                char rel[NAME_MAX + 32];

                if (de->d_name[0] == '.')
                        continue;
                snprintf(rel, sizeof(rel), "%s/image.json", de->d_name);
                if (sbx_json_read_at(dirfd(d), rel, 1 << 20, false, &rec, NULL) < 0) {
                        closedir(d);
                        return -EBUSY; /* unreadable record: keep every layer */
                }
                if (json_object_object_get_ex(rec, "layers", &layers) &&
                    json_object_is_type(layers, json_type_array))
                        for (size_t i = 0; i < json_object_array_length(layers); i++) {
                                const char *dg =
                                        json_object_get_string(json_object_array_get_idx(layers, i));
                                if (dg && !strncmp(dg, "sha256:", 7))
                                        json_object_object_add(used, dg + 7, NULL);
                        }
        }
        closedir(d);
        dfd = openat(sfd, "layers", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        d = dfd >= 0 ? fdopendir(dfd) : NULL;
        if (!d)
                return -errno;
        while ((de = readdir(d)))
                if (de->d_name[0] != '.' && !json_object_object_get_ex(used, de->d_name, NULL))
                        (void) sbx_tree_rm_rf_at(dirfd(d), de->d_name);
        closedir(d);
        return 0;
}

int sbx_image_remove(const char *name, sbx_error *reterr) {
        _cleanup_close_ int sfd = -EBADF, lock = -EBADF, wfd = -EBADF;
        struct sbx_image_ref ref;
        char store[PATH_MAX], key[SBX_IMAGE_KEY_MAX], rel[SBX_IMAGE_KEY_MAX + 16], work[64];
        struct stat st;
        int r;

        r = sbx_image_ref_parse(name, &ref, reterr);
        if (r < 0)
                return r;
        r = sbx_image_store_dir(store, sizeof(store), reterr);
        if (r < 0)
                return r;
        if (stat(store, &st) < 0)
                return missing(&ref, reterr);
        sfd = sbx_store_open(store, sizeof(store), reterr);
        if (sfd < 0)
                return sfd;
        lock = sbx_store_lock(sfd, reterr);
        if (lock < 0)
                return lock;
        sbx_image_ref_key(&ref, key);
        snprintf(rel, sizeof(rel), "images/%s", key);
        if (fstatat(sfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return missing(&ref, reterr);
        /* Rename out of images/ first so a crash mid-removal leaves no half image. */
        wfd = sbx_store_mktemp(sfd, work, sizeof(work), reterr);
        if (wfd < 0)
                return wfd;
        if (renameat(sfd, rel, wfd, "image") < 0)
                return sbx_error_set(reterr, -errno, "remove image %s:%s: %s", ref.name, ref.tag,
                                     strerror(errno));
        r = sbx_tree_rm_rf_at(sfd, work);
        if (r < 0)
                return sbx_error_set(reterr, r, "remove '%s/%s'", store, work);
        (void) gc_layers(sfd);
        return 0;
}

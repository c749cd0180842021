/* SPDX-License-Identifier: MIT */
/*
 * sbx rootfs import: docker-save archives and OCI image layout tarballs.
 *
 * Steps (all below a fresh tmp/ work directory of the store, so a refused or
 * interrupted import leaves nothing in layers/ or images/):
 *   1. extract the outer tar safely into work/archive (tree.c rules apply);
 *   2. read manifest.json (docker) or index.json (OCI) from it, opening every
 *      file with RESOLVE_IN_ROOT so archive-internal symlinks stay inside;
 *   3. per layer: hash the blob while libarchive extracts it into
 *      work/layer-<hex>, compare with the digest the manifest promises;
 *      a layer already in the store is only hashed;
 *   4. flatten the layers in order into work/img-N/rootfs (hard links);
 *   5. take the store lock, rename new layers into layers/, the images into
 *      images/<key>.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "archive-dl.h"
#include "util/util.h"
#include "store.h"
#include "tree.h"

#define LAYERS_MAX 256
#define MANIFEST_MAX (16u << 20)

json_object *sbx_record_new(const struct sbx_image_ref *ref, const char *source);

struct layer {
        char hex[SBX_SHA256_HEX_SIZE]; /* expected digest of the blob file */
        char path[PATH_MAX];           /* inside work/archive */
};

struct image_plan {
        const char *source;
        json_object *refs;   /* array of "name:tag" strings */
        json_object *config; /* the image config blob */
        char config_hex[SBX_SHA256_HEX_SIZE];
        struct layer *layers;
        unsigned n_layers;
};

struct import_ctx {
        int storefd, workfd, archivefd;
        char work[64];
        const struct sbx_progress *progress;
        bool keep_owner;
        struct sbx_import_limits limits;
        struct image_plan *images;
        unsigned n_images;
        unsigned layers_done, layers_total;
        struct sbx_extract_stats stats;
};

static void import_ctx_done(struct import_ctx *c) {
        for (unsigned i = 0; i < c->n_images; i++) {
                json_object_put(c->images[i].refs);
                json_object_put(c->images[i].config);
                free(c->images[i].layers);
        }
        free(c->images);
        if (c->archivefd >= 0)
                close(c->archivefd);
        if (c->workfd >= 0) {
                close(c->workfd);
                (void) sbx_tree_rm_rf_at(c->storefd, c->work);
        }
        if (c->storefd >= 0)
                close(c->storefd);
}

/* ---- reading with a running hash ---- */

struct blob_reader {
        int fd;
        struct sbx_sha256 sha;
        uint64_t bytes;
        const struct sbx_progress *progress;
        const char *phase;
        unsigned item, items;
        uint8_t buf[1 << 17];
};

static la_ssize_t blob_read(struct archive *a, void *userdata, const void **ret_buf) {
        struct blob_reader *b = userdata;
        ssize_t k;

        do
                k = read(b->fd, b->buf, sizeof(b->buf));
        while (k < 0 && errno == EINTR);
        if (k < 0) {
                archive_set_error(a, errno, "read error");
                return -1;
        }
        sbx_sha256_update(&b->sha, b->buf, (size_t) k);
        b->bytes += (uint64_t) k;
        sbx_progress_emit(b->progress, SBX_PROGRESS_TICK, b->phase, b->item, b->items, b->bytes, NULL);
        *ret_buf = b->buf;
        return k;
}

static int blob_drain(struct blob_reader *b) {
        const void *p;
        la_ssize_t k;

        while ((k = blob_read(NULL, b, &p)) > 0)
                ;
        return k < 0 ? -EIO : 0;
}

static void archive_freep(struct archive **a) {
        if (*a)
                archive_read_free(*a);
}

static int extract_stream(struct blob_reader *b, int rootfd, const struct sbx_extract_opts *o,
                          struct sbx_extract_stats *stats, sbx_error *reterr) {
        _cleanup_(archive_freep) struct archive *a = NULL;
        int r;

        r = sbx_archive_load(reterr);    /* libarchive is loaded on first use */
        if (r < 0)
                return r;
        a = archive_read_new();
        if (!a)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        archive_read_support_filter_all(a);
        archive_read_support_format_tar(a);
        if (archive_read_open(a, b, NULL, blob_read, NULL) != ARCHIVE_OK)
                return sbx_error_set(reterr, -EBADMSG, "%s: %s", o->what,
                                     archive_error_string(a) ?: "not a tar archive");
        return sbx_extract(a, rootfd, o, stats, reterr);
}

/* Open a file of the archive: symlinks inside it resolve inside it. */
static int open_in_archive(struct import_ctx *c, const char *path, sbx_error *reterr) {
        /* O_NONBLOCK: a FIFO the archive holds fails the check, never blocks */
        struct open_how how = {.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,
                               .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
        struct stat st;
        int fd;

        fd = (int) syscall(SYS_openat2, c->archivefd, path, &how, sizeof(how));
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "archive member '%.200s': %s", path, strerror(errno));
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                return sbx_error_set(reterr, -EBADMSG, "archive member '%.200s' is not a regular file",
                                     path);
        }
        return fd;
}

static int hash_member(struct import_ctx *c, const char *path, char ret_hex[SBX_SHA256_HEX_SIZE],
                       sbx_error *reterr) {
        _cleanup_free_ struct blob_reader *b = calloc(1, sizeof(*b));
        _cleanup_close_ int fd = -EBADF;

        if (!b)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        fd = open_in_archive(c, path, reterr);
        if (fd < 0)
                return fd;
        b->fd = fd;
        sbx_sha256_init(&b->sha);
        if (blob_drain(b) < 0)
                return sbx_error_set(reterr, -EIO, "read '%.200s'", path);
        sbx_sha256_final_hex(&b->sha, ret_hex);
        return 0;
}

/* ---- digests and JSON helpers ---- */

static bool hex64(const char *s) {
        if (strlen(s) != 64)
                return false;
        for (; *s; s++)
                if (!(('0' <= *s && *s <= '9') || ('a' <= *s && *s <= 'f')))
                        return false;
        return true;
}

static int parse_digest(const char *d, char ret_hex[SBX_SHA256_HEX_SIZE], sbx_error *reterr) {
        if (!d || strncmp(d, "sha256:", 7) || !hex64(d + 7))
                return sbx_error_set(reterr, -EBADMSG, "digest '%.100s' is not sha256:<64 hex digits>",
                                     d ?: "(missing)");
        memcpy(ret_hex, d + 7, SBX_SHA256_HEX_SIZE);
        return 0;
}

/* "blobs/sha256/<hex>" or "<hex>.json" names its own digest. */
static bool digest_from_name(const char *path, char ret_hex[SBX_SHA256_HEX_SIZE]) {
        const char *b = strrchr(path, '/');
        char tmp[80];

        b = b ? b + 1 : path;
        snprintf(tmp, sizeof(tmp), "%s", b);
        if (strlen(tmp) == 69 && !strcmp(tmp + 64, ".json"))
                tmp[64] = '\0';
        if (!hex64(tmp))
                return false;
        memcpy(ret_hex, tmp, SBX_SHA256_HEX_SIZE);
        return true;
}

static const char *jstr(json_object *o, const char *key) {
        json_object *v;

        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
                return NULL;
        return json_object_get_string(v);
}

static json_object *jarr(json_object *o, const char *key) {
        json_object *v;

        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
                return NULL;
        return v;
}

static int read_config(struct import_ctx *c, const char *path, const char *want_hex, struct image_plan *img,
                       sbx_error *reterr) {
        int r;

        r = hash_member(c, path, img->config_hex, reterr);
        if (r < 0)
                return r;
        if (want_hex && strcmp(want_hex, img->config_hex))
                return sbx_error_set(
                        reterr, -EBADMSG,
                        "image config '%.200s': digest mismatch (sha256:%s, expected sha256:%s)", path,
                        img->config_hex, want_hex);
        r = sbx_json_read_at(c->archivefd, path, MANIFEST_MAX, true, &img->config, reterr);
        if (r < 0)
                return r;
        if (!json_object_is_type(img->config, json_type_object))
                return sbx_error_set(reterr, -EBADMSG, "image config '%.200s' is not a JSON object", path);
        return 0;
}

static int plan_add(struct import_ctx *c, struct image_plan **ret) {
        struct image_plan *v;

        if (c->n_images >= 64)
                return -E2BIG;
        v = realloc(c->images, (c->n_images + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        c->images = v;
        *ret = &v[c->n_images++];
        **ret = (struct image_plan){.refs = json_object_new_array()};
        return 0;
}

static int plan_layers(struct image_plan *img, size_t n, sbx_error *reterr) {
        if (n == 0 || n > LAYERS_MAX)
                return sbx_error_set(reterr, -EBADMSG, "image has %zu layers (1 to %d supported)", n,
                                     LAYERS_MAX);
        img->layers = calloc(n, sizeof(struct layer));
        if (!img->layers)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        img->n_layers = (unsigned) n;
        return 0;
}

/* ---- docker save ---- */

static int plan_docker(struct import_ctx *c, sbx_error *reterr) {
        _cleanup_json_ json_object *m = NULL;
        int r;

        r = sbx_json_read_at(c->archivefd, "manifest.json", MANIFEST_MAX, true, &m, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "docker archive");
        if (!json_object_is_type(m, json_type_array) || json_object_array_length(m) == 0)
                return sbx_error_set(reterr, -EBADMSG,
                                     "docker archive: manifest.json is not a non-empty array");
        for (size_t i = 0; i < json_object_array_length(m); i++) {
                json_object *e = json_object_array_get_idx(m, i), *layers, *tags, *diff_ids = NULL, *rootfs;
                const char *cfg = jstr(e, "Config");
                struct image_plan *img;
                char want[SBX_SHA256_HEX_SIZE];

                layers = jarr(e, "Layers");
                if (!cfg || !layers)
                        return sbx_error_set(reterr, -EBADMSG,
                                             "docker archive: manifest.json[%zu] lacks Config or Layers", i);
                if (plan_add(c, &img) < 0)
                        return sbx_error_set(reterr, -E2BIG, "docker archive: too many images");
                img->source = "docker-archive";
                r = read_config(c, cfg, digest_from_name(cfg, want) ? want : NULL, img, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "docker archive");
                if (json_object_object_get_ex(img->config, "rootfs", &rootfs))
                        diff_ids = jarr(rootfs, "diff_ids");
                r = plan_layers(img, json_object_array_length(layers), reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "docker archive");
                for (unsigned k = 0; k < img->n_layers; k++) {
                        const char *lp = json_object_get_string(json_object_array_get_idx(layers, k));
                        struct layer *l = &img->layers[k];

                        if (!lp || snprintf(l->path, sizeof(l->path), "%s", lp) >= (int) sizeof(l->path))
                                return sbx_error_set(reterr, -EBADMSG, "docker archive: bad layer path");
                        /* A blobs/sha256/<hex> path names the blob's digest; a
                         * legacy <id>/layer.tar is the uncompressed tar whose
                         * digest is the config's rootfs.diff_ids[k]. */
                        if (!strncmp(lp, "blobs/sha256/", 13) && digest_from_name(lp, l->hex))
                                continue;
                        if (!diff_ids || json_object_array_length(diff_ids) != img->n_layers)
                                return sbx_error_set(
                                        reterr, -EBADMSG,
                                        "docker archive: config rootfs.diff_ids does not list %u layers",
                                        img->n_layers);
                        r = parse_digest(json_object_get_string(json_object_array_get_idx(diff_ids, k)),
                                         l->hex, reterr);
                        if (r < 0)
                                return sbx_error_wrap(reterr, "docker archive: layer %u", k + 1);
                }
                tags = jarr(e, "RepoTags");
                for (size_t t = 0; tags && t < json_object_array_length(tags); t++)
                        json_object_array_add(img->refs,
                                              json_object_get(json_object_array_get_idx(tags, t)));
        }
        return 0;
}

/* ---- OCI image layout ---- */

static const char *host_arch(void) {
#if defined(__x86_64__)
        return "amd64";
#elif defined(__aarch64__)
        return "arm64";
#else
        static struct utsname u;
        uname(&u);
        return u.machine;
#endif
}

static int read_blob_json(struct import_ctx *c, json_object *desc, json_object **ret, sbx_error *reterr) {
        char hex[SBX_SHA256_HEX_SIZE], got[SBX_SHA256_HEX_SIZE], path[128];
        int r;

        r = parse_digest(jstr(desc, "digest"), hex, reterr);
        if (r < 0)
                return r;
        snprintf(path, sizeof(path), "blobs/sha256/%s", hex);
        r = hash_member(c, path, got, reterr);
        if (r < 0)
                return r;
        if (strcmp(hex, got))
                return sbx_error_set(reterr, -EBADMSG,
                                     "blob sha256:%s: digest mismatch (content is sha256:%s)", hex, got);
        return sbx_json_read_at(c->archivefd, path, MANIFEST_MAX, true, ret, reterr);
}

static bool is_index(const char *mt) {
        return mt && (!strcmp(mt, "application/vnd.oci.image.index.v1+json") ||
                      !strcmp(mt, "application/vnd.docker.distribution.manifest.list.v2+json"));
}

static int plan_oci_manifest(struct import_ctx *c, json_object *desc, const char *refname, unsigned depth,
                             sbx_error *reterr) {
        _cleanup_json_ json_object *m = NULL;
        json_object *layers, *cfgdesc;
        struct image_plan *img;
        char hex[SBX_SHA256_HEX_SIZE], path[128];
        int r;

        r = read_blob_json(c, desc, &m, reterr);
        if (r < 0)
                return r;
        if (is_index(jstr(desc, "mediaType")) || is_index(jstr(m, "mediaType"))) {
                /* A multi-platform index: take the manifest for this host. */
                json_object *ms = jarr(m, "manifests");
                if (depth > 4 || !ms)
                        return sbx_error_set(reterr, -EBADMSG, "OCI layout: nested index without manifests");
                for (size_t i = 0; i < json_object_array_length(ms); i++) {
                        json_object *d = json_object_array_get_idx(ms, i), *pf;
                        if (json_object_object_get_ex(d, "platform", &pf) &&
                            (strcmp(jstr(pf, "os") ?: "", "linux") ||
                             strcmp(jstr(pf, "architecture") ?: "", host_arch())))
                                continue;
                        return plan_oci_manifest(c, d, refname, depth + 1, reterr);
                }
                return sbx_error_set(reterr, -ENOENT, "OCI layout: no manifest for linux/%s", host_arch());
        }
        if (!json_object_object_get_ex(m, "config", &cfgdesc) || !(layers = jarr(m, "layers")))
                return sbx_error_set(reterr, -EBADMSG, "OCI layout: manifest %s lacks config or layers",
                                     jstr(desc, "digest"));
        if (plan_add(c, &img) < 0)
                return sbx_error_set(reterr, -E2BIG, "OCI layout: too many images");
        img->source = "oci-layout";
        if (refname)
                json_object_array_add(img->refs, json_object_new_string(refname));
        r = parse_digest(jstr(cfgdesc, "digest"), hex, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "OCI layout: config");
        snprintf(path, sizeof(path), "blobs/sha256/%s", hex);
        r = read_config(c, path, hex, img, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "OCI layout");
        r = plan_layers(img, json_object_array_length(layers), reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "OCI layout");
        for (unsigned k = 0; k < img->n_layers; k++) {
                struct layer *l = &img->layers[k];
                r = parse_digest(jstr(json_object_array_get_idx(layers, k), "digest"), l->hex, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "OCI layout: layer %u", k + 1);
                snprintf(l->path, sizeof(l->path), "blobs/sha256/%s", l->hex);
        }
        return 0;
}

static int plan_oci(struct import_ctx *c, sbx_error *reterr) {
        _cleanup_json_ json_object *idx = NULL;
        json_object *ms;
        int r;

        r = sbx_json_read_at(c->archivefd, "index.json", MANIFEST_MAX, true, &idx, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "OCI layout");
        ms = jarr(idx, "manifests");
        if (!ms || json_object_array_length(ms) == 0)
                return sbx_error_set(reterr, -EBADMSG, "OCI layout: index.json lists no manifests");
        for (size_t i = 0; i < json_object_array_length(ms); i++) {
                json_object *d = json_object_array_get_idx(ms, i), *ann;
                const char *name = NULL;

                if (json_object_object_get_ex(d, "annotations", &ann)) {
                        name = jstr(ann, "io.containerd.image.name");
                        if (!name)
                                name = jstr(ann, "org.opencontainers.image.ref.name");
                }
                r = plan_oci_manifest(c, d, name, 0, reterr);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* ---- layers ---- */

static bool layer_in_store(struct import_ctx *c, const char *hex) {
        char p[96];
        struct stat st;

        snprintf(p, sizeof(p), "layers/%s", hex);
        return fstatat(c->storefd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

static bool layer_in_work(struct import_ctx *c, const char *hex) {
        char p[96];
        struct stat st;

        snprintf(p, sizeof(p), "layer-%s", hex);
        return fstatat(c->workfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int import_layer(struct import_ctx *c, const struct layer *l, sbx_error *reterr) {
        _cleanup_free_ struct blob_reader *b = calloc(1, sizeof(*b));
        _cleanup_close_ int fd = -EBADF, lfd = -EBADF;
        char got[SBX_SHA256_HEX_SIZE], name[96], what[96];
        struct sbx_extract_opts o = {.keep_owner = c->keep_owner,
                                     .report = true,
                                     .what = what,
                                     .progress = c->progress,
                                     .max_unpacked = c->limits.bytes,
                                     .max_entries = c->limits.entries};
        bool extract;
        int r;

        if (!b)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        c->layers_done++;
        snprintf(what, sizeof(what), "layer sha256:%.12s", l->hex);
        if (layer_in_work(c, l->hex))
                return 0;
        extract = !layer_in_store(c, l->hex);
        sbx_progress_emit(c->progress, SBX_PROGRESS_PHASE, extract ? "layer" : "verify", c->layers_done,
                          c->layers_total, 0, what);
        fd = open_in_archive(c, l->path, reterr);
        if (fd < 0)
                return sbx_error_wrap(reterr, "%s", what);
        *b = (struct blob_reader){.fd = fd,
                                  .progress = c->progress,
                                  .phase = "layer",
                                  .item = c->layers_done,
                                  .items = c->layers_total};
        sbx_sha256_init(&b->sha);
        snprintf(name, sizeof(name), "layer-%s", l->hex);
        if (extract) {
                if (mkdirat(c->workfd, name, 0755) < 0 ||
                    (lfd = openat(c->workfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
                        return sbx_error_set(reterr, -errno, "create %s: %s", name, strerror(errno));
                r = extract_stream(b, lfd, &o, &c->stats, reterr);
                if (r < 0)
                        return r;
        }
        if (blob_drain(b) < 0)
                return sbx_error_set(reterr, -EIO, "read %s", what);
        sbx_sha256_final_hex(&b->sha, got);
        if (strcmp(got, l->hex))
                return sbx_error_set(reterr, -EBADMSG,
                                     "%s: digest mismatch, the blob is sha256:%s "
                                     "(corrupt or truncated archive)",
                                     what, got);
        if (!extract) /* mark as verified for this import */
                (void) symlinkat("(in store)", c->workfd, name);
        return 0;
}

static int layer_dirfd(struct import_ctx *c, const char *hex) {
        char p[96];
        struct stat st;

        snprintf(p, sizeof(p), "layer-%s", hex);
        if (fstatat(c->workfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
                return openat(c->workfd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        snprintf(p, sizeof(p), "layers/%s", hex);
        return openat(c->storefd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int flatten(struct import_ctx *c, const struct image_plan *img, const char *dir, sbx_error *reterr) {
        _cleanup_close_ int dfd = -EBADF, rfd = -EBADF;
        int r;

        if (mkdirat(c->workfd, dir, 0755) < 0 ||
            (dfd = openat(c->workfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
            mkdirat(dfd, "rootfs", 0755) < 0 ||
            (rfd = openat(dfd, "rootfs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
                return sbx_error_set(reterr, -errno, "create image directory: %s", strerror(errno));
        for (unsigned k = 0; k < img->n_layers; k++) {
                _cleanup_close_ int lfd = layer_dirfd(c, img->layers[k].hex);

                sbx_progress_emit(c->progress, SBX_PROGRESS_PHASE, "flatten", k + 1, img->n_layers, 0, NULL);
                if (lfd < 0)
                        return sbx_error_set(reterr, -errno, "open layer sha256:%.12s: %s",
                                             img->layers[k].hex, strerror(errno));
                r = sbx_tree_apply_layer(lfd, rfd, c->keep_owner, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "apply layer %u (sha256:%.12s)", k + 1,
                                              img->layers[k].hex);
        }
        return 0;
}

static json_object *record_for(struct import_ctx *c, const struct image_plan *img,
                               const struct sbx_image_ref *ref) {
        static const char *const keep[] = {"Env", "WorkingDir", "User", "Entrypoint", "Cmd"};
        json_object *rec = sbx_record_new(ref, img->source), *cfg = json_object_new_object(), *src, *v;
        json_object *layers = json_object_new_array(), *notes = json_object_new_object();
        char buf[80];

        snprintf(buf, sizeof(buf), "sha256:%s", img->config_hex);
        json_object_object_add(rec, "id", json_object_new_string(buf));
        for (unsigned k = 0; k < img->n_layers; k++) {
                snprintf(buf, sizeof(buf), "sha256:%s", img->layers[k].hex);
                json_object_array_add(layers, json_object_new_string(buf));
        }
        json_object_object_add(rec, "layers", layers);
        if (json_object_object_get_ex(img->config, "config", &src) &&
            json_object_is_type(src, json_type_object))
                for (size_t i = 0; i < ELEMENTSOF(keep); i++)
                        if (json_object_object_get_ex(src, keep[i], &v) && v)
                                json_object_object_add(cfg, keep[i], json_object_get(v));
        json_object_object_add(rec, "config", cfg);
        if (json_object_object_get_ex(img->config, "architecture", &v))
                json_object_object_add(rec, "architecture", json_object_get(v));
        if (json_object_object_get_ex(img->config, "os", &v))
                json_object_object_add(rec, "os", json_object_get(v));
        json_object_object_add(notes, "setuid_stripped", json_object_new_int64(c->stats.setid_stripped));
        json_object_object_add(notes, "devices_skipped", json_object_new_int64(c->stats.devices_skipped));
        json_object_object_add(rec, "import_notes", notes);
        return rec;
}

static int read_outer(struct import_ctx *c, int fd, sbx_error *reterr) {
        _cleanup_free_ struct blob_reader *b = calloc(1, sizeof(*b));
        struct sbx_extract_opts o = {.what = "archive",
                                     .progress = c->progress,
                                     .max_unpacked = c->limits.bytes,
                                     .max_entries = c->limits.entries};
        int r;

        if (!b)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        *b = (struct blob_reader){.fd = fd, .progress = c->progress, .phase = "read"};
        sbx_sha256_init(&b->sha);
        if (mkdirat(c->workfd, "archive", 0700) < 0 ||
            (c->archivefd = openat(c->workfd, "archive", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) <
                    0)
                return sbx_error_set(reterr, -errno, "create work directory: %s", strerror(errno));
        sbx_progress_emit(c->progress, SBX_PROGRESS_PHASE, "read", 0, 0, 0, NULL);
        /* the outer archive counts against the limits; its notes are not the image's */
        r = extract_stream(b, c->archivefd, &o, &c->stats, reterr);
        c->stats.setid_stripped = c->stats.devices_skipped = 0;
        return r < 0 ? r : 0;
}

static int plan(struct import_ctx *c, const char *name_override, sbx_error *reterr) {
        struct stat st;
        int r;

        if (fstatat(c->archivefd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
                r = plan_docker(c, reterr);
        else if (fstatat(c->archivefd, "index.json", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                 fstatat(c->archivefd, "oci-layout", &st, AT_SYMLINK_NOFOLLOW) == 0)
                r = plan_oci(c, reterr);
        else
                return sbx_error_set(reterr, -EBADMSG,
                                     "not a docker save archive (no manifest.json) "
                                     "nor an OCI image layout (no oci-layout + index.json)");
        if (r < 0)
                return r;
        if (name_override) {
                if (c->n_images != 1)
                        return sbx_error_set(reterr, -EINVAL,
                                             "--name: the archive holds %u images, name needs exactly one",
                                             c->n_images);
                json_object_put(c->images[0].refs);
                c->images[0].refs = json_object_new_array();
                json_object_array_add(c->images[0].refs, json_object_new_string(name_override));
        }
        for (unsigned i = 0; i < c->n_images; i++) {
                if (json_object_array_length(c->images[i].refs) == 0)
                        return sbx_error_set(reterr, -EINVAL,
                                             "image %u of the archive has no name: pass --name NAME[:TAG]",
                                             i + 1);
                for (size_t t = 0; t < json_object_array_length(c->images[i].refs); t++) {
                        struct sbx_image_ref ref;
                        const char *s =
                                json_object_get_string(json_object_array_get_idx(c->images[i].refs, t));
                        if (!strchr(s ?: "", ':') && !strchr(s ?: "", '/') && !name_override)
                                return sbx_error_set(reterr, -EINVAL,
                                                     "the archive names the image only by tag '%.100s': "
                                                     "pass --name NAME[:TAG]",
                                                     s ?: "");
                        r = sbx_image_ref_parse(s, &ref, reterr);
                        if (r < 0)
                                return r;
                }
                c->layers_total += c->images[i].n_layers;
        }
        return 0;
}

static int commit(struct import_ctx *c, unsigned *ret_count, sbx_error *reterr) {
        _cleanup_close_ int lock = -EBADF;
        unsigned count = 0, dirs = 0;
        int r;

        /* Flatten one root per name:tag before touching the store. */
        for (unsigned i = 0; i < c->n_images; i++)
                for (size_t t = 0; t < json_object_array_length(c->images[i].refs); t++) {
                        char dir[32];
                        snprintf(dir, sizeof(dir), "img-%u", dirs++);
                        r = flatten(c, &c->images[i], dir, reterr);
                        if (r < 0)
                                return r;
                }
        sbx_progress_emit(c->progress, SBX_PROGRESS_PHASE, "commit", 0, 0, 0, NULL);
        lock = sbx_store_lock(c->storefd, reterr);
        if (lock < 0)
                return lock;
        for (unsigned i = 0; i < c->n_images; i++)
                for (unsigned k = 0; k < c->images[i].n_layers; k++) {
                        char from[96], to[96];
                        struct stat st;
                        snprintf(from, sizeof(from), "layer-%s", c->images[i].layers[k].hex);
                        snprintf(to, sizeof(to), "layers/%s", c->images[i].layers[k].hex);
                        if (fstatat(c->workfd, from, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
                                continue;
                        if (renameat(c->workfd, from, c->storefd, to) < 0 && errno != EEXIST &&
                            errno != ENOTEMPTY)
                                return sbx_error_set(reterr, -errno, "store layer sha256:%s: %s",
                                                     c->images[i].layers[k].hex, strerror(errno));
                }
        dirs = 0;
        for (unsigned i = 0; i < c->n_images; i++)
                for (size_t t = 0; t < json_object_array_length(c->images[i].refs); t++) {
                        _cleanup_json_ json_object *rec = NULL;
                        struct sbx_image_ref ref;
                        char rel[128];

                        r = sbx_image_ref_parse(
                                json_object_get_string(json_object_array_get_idx(c->images[i].refs, t)),
                                &ref, reterr);
                        if (r < 0)
                                return r;
                        rec = record_for(c, &c->images[i], &ref);
                        snprintf(rel, sizeof(rel), "%s/img-%u", c->work, dirs++);
                        r = sbx_store_commit_image(c->storefd, rel, &ref, rec, reterr);
                        if (r < 0)
                                return r;
                        count++;
                }
        *ret_count = count;
        return 0;
}

int sbx_image_import(int fd, const char *name_override, const struct sbx_import_limits *limits,
                     const struct sbx_progress *progress, unsigned *ret_count, sbx_error *reterr) {
        _cleanup_(import_ctx_done) struct import_ctx c = {
                .storefd = -EBADF,
                .workfd = -EBADF,
                .archivefd = -EBADF,
                .progress = progress,
                .keep_owner = geteuid() == 0,
                .limits = limits ? *limits
                                 : (struct sbx_import_limits){.bytes = SBX_IMPORT_MAX_BYTES_DEFAULT,
                                                              .entries = SBX_IMPORT_MAX_ENTRIES_DEFAULT},
        };
        char store[PATH_MAX];
        unsigned count = 0;
        int r;

        if (name_override) {
                struct sbx_image_ref ref;
                r = sbx_image_ref_parse(name_override, &ref, reterr);
                if (r < 0)
                        return sbx_error_wrap(reterr, "--name");
        }
        /* 1. a work directory inside the store (same filesystem: rename + link) */
        c.storefd = sbx_store_open(store, sizeof(store), reterr);
        if (c.storefd < 0)
                return c.storefd;
        c.workfd = sbx_store_mktemp(c.storefd, c.work, sizeof(c.work), reterr);
        if (c.workfd < 0)
                return c.workfd;
        /* 2. the outer tar, safely extracted */
        r = read_outer(&c, fd, reterr);
        if (r < 0)
                return r;
        /* 3. what it holds: manifests, configs, expected digests */
        r = plan(&c, name_override, reterr);
        if (r < 0)
                return r;
        /* 4. every layer extracted (or found in the store) and verified */
        for (unsigned i = 0; i < c.n_images; i++)
                for (unsigned k = 0; k < c.images[i].n_layers; k++) {
                        r = import_layer(&c, &c.images[i].layers[k], reterr);
                        if (r < 0)
                                return r;
                }
        /* 5. flatten, then move into the store under its lock */
        r = commit(&c, &count, reterr);
        if (r < 0)
                return r;
        *ret_count = count;
        return 0;
}

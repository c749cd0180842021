/* SPDX-License-Identifier: MIT */
/* The image store: names, records, resolution for the launcher, import and
 * build. See rootfs-tools/README.md for the on-disk layout. Library code: it
 * never prints; progress and notices go through struct sbx_progress. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define SBX_IMAGE_DEFAULT "openclaw-sandbox:bookworm-slim"
#define SBX_IMAGE_NAME_MAX 256
#define SBX_IMAGE_TAG_MAX 128

/* The runtime config an image carries (OCI config.config subset). Every
 * string array is NULL-terminated; every field may be NULL/empty. */
struct sbx_image_config {
        char **env; /* "KEY=VALUE" */
        char *working_dir;
        char *user;
        char **entrypoint;
        char **cmd;
};
void sbx_image_config_done(struct sbx_image_config *c);

/* "name[:tag]" as docker.image names it; tag defaults to "latest". A
 * "docker.io/library/" or "docker.io/" prefix is dropped like docker does. */
struct sbx_image_ref {
        char name[SBX_IMAGE_NAME_MAX];
        char tag[SBX_IMAGE_TAG_MAX];
};
int sbx_image_ref_parse(const char *s, struct sbx_image_ref *ret, sbx_error *reterr);

/* The store directory: $SBX_IMAGE_DIR, else /var/lib/sbx/images as root, else
 * ${XDG_DATA_HOME:-~/.local/share}/sbx/images. */
int sbx_image_store_dir(char *ret, size_t len, sbx_error *reterr);

/* Resolve an image name for --rootfs: writes the absolute path of the image's
 * flattened root directory and (if ret_cfg) its config. A missing image fails
 * with -ENOENT and "No such image: NAME" plus the command that provides it. */
int sbx_image_resolve(const char *name, char *ret_rootfs_path, size_t len, struct sbx_image_config *ret_cfg,
                      sbx_error *reterr);

/* Progress and notices from long operations; only CLI front ends render them. */

/* Import a docker-save archive or OCI layout tarball from fd. name_override
 * (may be NULL) names the image instead of the archive's own tags. On success
 * writes the number of image records created into *ret_count. */
/* What one import may unpack, against compression bombs and huge archives
 * (the store's disk, inodes): refused beyond it, nothing imported. */
struct sbx_import_limits {
        uint64_t bytes;   /* tar bytes after decompression: the outer archive's and every layer's */
        uint64_t entries; /* entries of the outer archive and every layer */
};
#define SBX_IMPORT_MAX_BYTES_DEFAULT (64ull << 30)
#define SBX_IMPORT_MAX_ENTRIES_DEFAULT 2000000ull

/* limits NULL: the defaults above. */
int sbx_image_import(int fd, const char *name_override, const struct sbx_import_limits *limits,
                     const struct sbx_progress *progress, unsigned *ret_count, sbx_error *reterr);

struct sbx_build_options {
        const char *name;     /* default SBX_IMAGE_DEFAULT */
        const char *suite;    /* default "bookworm" */
        const char *mirror;   /* default: from /etc/apt/sources.list(.d) */
        const char *packages; /* comma list; default SBX_BUILD_DEFAULT_PACKAGES */
        const char *user;     /* default "sandbox"; "" for none */
};
#define SBX_BUILD_DEFAULT_PACKAGES "bash,ca-certificates,curl,git,jq,python3,ripgrep"
int sbx_image_build(const struct sbx_build_options *o, const struct sbx_progress *progress,
                    sbx_error *reterr);
/* The mirror of the first apt source for suite (for tests and --help). */
int sbx_apt_mirror(const char *suite, char *ret, size_t len, sbx_error *reterr);

/* Records. sbx_image_list returns a json-c array (caller puts) of the records,
 * sorted by reference; sbx_image_inspect one record. Returned as opaque
 * pointers so this header needs no json-c. */
int sbx_image_list(void **ret_json_array, sbx_error *reterr);
int sbx_image_inspect(const char *name, void **ret_json_object, sbx_error *reterr);
/* Remove an image record and its root; drop layers no image uses any more. */
int sbx_image_remove(const char *name, sbx_error *reterr);

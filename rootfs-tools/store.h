/* SPDX-License-Identifier: MIT */
/* Internal helpers of the image store shared by import.c, build.c and
 * store.c. Layout (below the store directory):
 *   layers/<hex>/        one extracted layer tree per blob digest (whiteouts kept as .wh.* files)
 *   images/<key>/image.json   the record of name:tag (key = "name@tag", '/' -> '+', ':' -> '%')
 *   images/<key>/rootfs/ the flattened root: layers applied in order, files hard-linked from layers/
 *   tmp/                 work directories; renamed into place only when complete
 *   .lock                flock(LOCK_EX) held by import, build and rm */
#pragma once

#include <json-c/json.h>

#include "image.h"

#define SBX_IMAGE_KEY_MAX (SBX_IMAGE_NAME_MAX + SBX_IMAGE_TAG_MAX + 2)

static inline void json_object_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_object_putp)

/* Open (creating) the store; ret_path gets its absolute path. */
int sbx_store_open(char *ret_path, size_t len, sbx_error *reterr);
/* Take the store lock; returns the lock fd. */
int sbx_store_lock(int storefd, sbx_error *reterr);
/* mkdir a fresh tmp/<random> work dir; returns its fd and writes "tmp/<random>". */
int sbx_store_mktemp(int storefd, char *ret_rel, size_t len, sbx_error *reterr);
void sbx_image_ref_key(const struct sbx_image_ref *ref, char ret[SBX_IMAGE_KEY_MAX]);
/* Move <storefd>/<workrel> (which holds rootfs/) to images/<key>, writing
 * record as image.json first; replaces an older image of the same name. */
int sbx_store_commit_image(int storefd, const char *workrel, const struct sbx_image_ref *ref,
                           json_object *record, sbx_error *reterr);
/* sbx_json_read_at(), sbx_json_strv(): util.h */

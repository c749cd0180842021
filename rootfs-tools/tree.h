/* SPDX-License-Identifier: MIT */
/* Directory-tree primitives for the image store: safe tar extraction relative
 * to a root dirfd, applying an extracted layer onto a flattened root, and
 * recursive removal. Internal to rootfs-tools/. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/util.h"
#include "image.h"

struct archive;

#define SBX_TREE_DEPTH_MAX 128 /* path components per entry */

struct sbx_extract_opts {
        bool keep_owner;  /* chown to the archive's numeric uid/gid (root only) */
        bool report;      /* emit notices for skipped devices / stripped bits */
        const char *what; /* "layer sha256:..." for error messages */
        const struct sbx_progress *progress;
        uint64_t max_unpacked; /* stats->unpacked may not exceed it (0: no limit) */
        uint64_t max_entries;  /* nor stats->entries */
};

/* Counted across every sbx_extract() given the same stats (one import). */
struct sbx_extract_stats {
        uint64_t unpacked; /* tar bytes read, after decompression */
        uint64_t entries;
        uint64_t bytes; /* file content written */
        unsigned devices_skipped;
        unsigned setid_stripped;
};

/* "a/./b//c" -> "a/b/c"; "./" -> "". Refuses absolute paths and any ".."
 * component with -EPERM, over-deep paths with -ENAMETOOLONG. */
int sbx_path_normalize(const char *in, char *ret, size_t len, sbx_error *reterr);

/* Extract every entry of archive a below rootfd. Never follows a symlink:
 * each parent is walked component by component with O_NOFOLLOW. Hard links
 * must point at an entry already extracted into this tree. Whiteout entries
 * (.wh.*) are kept as empty files for sbx_tree_apply_layer(). */
int sbx_extract(struct archive *a, int rootfd, const struct sbx_extract_opts *o,
                struct sbx_extract_stats *stats, sbx_error *reterr);

/* Apply one extracted layer tree (srcfd) onto the flattened root (dstfd):
 * opaque markers clear the directory, .wh.NAME removes NAME, everything else
 * replaces what is there. Files are hard-linked from the layer (same fs) and
 * copied when linking is refused. */
int sbx_tree_apply_layer(int srcfd, int dstfd, bool keep_owner, sbx_error *reterr);

/* Recursively remove dirfd/name without following symlinks; ENOENT is 0. */
int sbx_tree_rm_rf_at(int dirfd, const char *name);

/* Walk every entry below rootfd (no symlink following), call fn with the
 * relative path and its stat; fn returns <0 to stop. */
int sbx_tree_walk(int rootfd, int (*fn)(const char *path, const struct stat *st, void *userdata),
                  void *userdata, sbx_error *reterr);

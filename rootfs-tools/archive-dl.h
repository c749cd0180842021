/* SPDX-License-Identifier: MIT */
/* libarchive, loaded on first use (dlopen) instead of linked into sbx.
 *
 * Why: libarchive pulls in libxml2, ICU, libstdc++, nettle, lzma, zstd, lz4,
 * bz2, acl. Linked (with -z now), the dynamic loader maps and relocates all
 * of them at every start of sbx: ~2.7 ms of CPU per `sbx run` on the dev VM,
 * a third of the launcher's total (bench/README.md). Only `sbx rootfs
 * import` needs it, so only that path loads it.
 *
 * Use: include this instead of <archive.h>/<archive_entry.h>; call
 * sbx_archive_load() before the first archive_read_new(). The archive_*
 * names used by rootfs-tools are macros for the loaded functions; their
 * types come from libarchive's own headers (typeof), so the compiler checks
 * every call as before. */
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "util/util.h"

#define SBX_ARCHIVE_FUNCS(X)                                                                       \
        X(archive_entry_filetype) X(archive_entry_gid) X(archive_entry_hardlink)                   \
        X(archive_entry_mtime) X(archive_entry_mtime_nsec) X(archive_entry_pathname)               \
        X(archive_entry_perm) X(archive_entry_size) X(archive_entry_size_is_set)                   \
        X(archive_entry_symlink) X(archive_entry_uid) X(archive_filter_bytes)                      \
        X(archive_error_string) X(archive_read_data_block) X(archive_read_free) X(archive_read_new) \
        X(archive_read_next_header) X(archive_read_open) X(archive_read_support_filter_all)        \
        X(archive_read_support_format_tar) X(archive_set_error)

struct sbx_archive_api {
        SBX_ARCHIVE_FUNCS(SBX_DL_MEMBER)
};
extern struct sbx_archive_api sbx_archive_api;

/* dlopen libarchive and resolve every function above, once. 0 or -ELIBACC
 * with reterr naming the library. */
int sbx_archive_load(sbx_error *reterr);

#ifndef SBX_ARCHIVE_DL_IMPL
#define archive_entry_filetype (*sbx_archive_api.archive_entry_filetype)
#define archive_entry_gid (*sbx_archive_api.archive_entry_gid)
#define archive_entry_hardlink (*sbx_archive_api.archive_entry_hardlink)
#define archive_entry_mtime (*sbx_archive_api.archive_entry_mtime)
#define archive_entry_mtime_nsec (*sbx_archive_api.archive_entry_mtime_nsec)
#define archive_entry_pathname (*sbx_archive_api.archive_entry_pathname)
#define archive_entry_perm (*sbx_archive_api.archive_entry_perm)
#define archive_entry_size (*sbx_archive_api.archive_entry_size)
#define archive_entry_size_is_set (*sbx_archive_api.archive_entry_size_is_set)
#define archive_entry_symlink (*sbx_archive_api.archive_entry_symlink)
#define archive_entry_uid (*sbx_archive_api.archive_entry_uid)
#define archive_error_string (*sbx_archive_api.archive_error_string)
#define archive_filter_bytes (*sbx_archive_api.archive_filter_bytes)
#define archive_read_data_block (*sbx_archive_api.archive_read_data_block)
#define archive_read_free (*sbx_archive_api.archive_read_free)
#define archive_read_new (*sbx_archive_api.archive_read_new)
#define archive_read_next_header (*sbx_archive_api.archive_read_next_header)
#define archive_read_open (*sbx_archive_api.archive_read_open)
#define archive_read_support_filter_all (*sbx_archive_api.archive_read_support_filter_all)
#define archive_read_support_format_tar (*sbx_archive_api.archive_read_support_format_tar)
#define archive_set_error (*sbx_archive_api.archive_set_error)
#endif

/* SPDX-License-Identifier: MIT */
/* libarchive loaded on first use: see archive-dl.h for why. */
#define SBX_ARCHIVE_DL_IMPL 1
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

#include "archive-dl.h"

/* ARCHIVE_VERSION_NUMBER 3xxxxxx ships as libarchive.so.13. */
#define SBX_LIBARCHIVE_SONAME "libarchive.so.13"

struct sbx_archive_api sbx_archive_api;
static void *handle;

int sbx_archive_load(sbx_error *reterr) {
        const char *missing = NULL;

        if (handle)
                return 0;
        handle = dlopen(SBX_LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (!handle)
                return sbx_error_set(reterr, -ELIBACC, "load %s (Debian package libarchive13): %s",
                                     SBX_LIBARCHIVE_SONAME, dlerror() ?: "not found");
#define SBX_ARCHIVE_RESOLVE(f)                                              \
        if (!missing && !(sbx_archive_api.f = (typeof(f) *) dlsym(handle, #f))) \
                missing = #f;
        SBX_ARCHIVE_FUNCS(SBX_ARCHIVE_RESOLVE)
#undef SBX_ARCHIVE_RESOLVE
        if (missing) {
                dlclose(handle);
                handle = NULL;
                return sbx_error_set(reterr, -ELIBACC, "%s: no symbol %s", SBX_LIBARCHIVE_SONAME, missing);
        }
        return 0;
}

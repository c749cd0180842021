/* SPDX-License-Identifier: MIT */
/* libarchive loaded on first use: see archive-dl.h for why. */
#define SBX_ARCHIVE_DL_IMPL 1
#include <stddef.h>

#include "archive-dl.h"

/* ARCHIVE_VERSION_NUMBER 3xxxxxx ships as libarchive.so.13. */
#define SBX_LIBARCHIVE_SONAME "libarchive.so.13"

struct sbx_archive_api sbx_archive_api;
static void *handle;

int sbx_archive_load(sbx_error *reterr) {
#define SLOT(f) (void **) &sbx_archive_api.f,
        static const char *const names[] = { SBX_ARCHIVE_FUNCS(SBX_DL_NAME) };
        void **const slots[] = { SBX_ARCHIVE_FUNCS(SLOT) };
#undef SLOT

        return sbx_dl_load(&handle, SBX_LIBARCHIVE_SONAME, "libarchive13", names, slots, ELEMENTSOF(names),
                           reterr);
}

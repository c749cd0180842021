/* SPDX-License-Identifier: MIT */
/* Libraries loaded on first use: see util.h. */
#include <dlfcn.h>
#include <errno.h>

#include "util.h"

int sbx_dl_load(void **handle, const char *soname, const char *package, const char *const *names,
                void **const *slots, size_t n, sbx_error *reterr) {
        void *h;

        if (*handle)
                return 0;
        h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (!h)
                return sbx_error_set(reterr, -ELIBACC, "load %s (Debian package %s): %s", soname, package,
                                     dlerror() ?: "not found");
        for (size_t i = 0; i < n; i++)
                if (!(*slots[i] = dlsym(h, names[i]))) {
                        dlclose(h);
                        return sbx_error_set(reterr, -ELIBACC, "%s: no symbol %s", soname, names[i]);
                }
        *handle = h;
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* Enum <-> name tables: an array of names indexed by the enum's values. */
#include <string.h>

#include "util.h"

int sbx_name_to_index(const char *const *names, size_t n, const char *s) {
        for (size_t i = 0; s && i < n; i++)
                if (names[i] && !strcmp(s, names[i]))
                        return (int) i;
        return -EINVAL;
}

const char *sbx_index_to_name(const char *const *names, size_t n, int i) {
        return i >= 0 && (size_t) i < n ? names[i] : NULL;
}

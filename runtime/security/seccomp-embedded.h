/* SPDX-License-Identifier: MIT */
/* The profiles of seccomp-profiles/ (*.json), embedded at build time by
 * seccomp-profiles/embed-profiles.py (see seccomp-profiles/meson.build). */
#pragma once

#include <stddef.h>

typedef struct sbx_embedded_profile {
        const char *name;          /* file name without ".json" */
        const unsigned char *data; /* the JSON text, not NUL-terminated */
        size_t size;
} sbx_embedded_profile;

extern const sbx_embedded_profile sbx_embedded_profiles[];
extern const size_t sbx_embedded_profiles_count;

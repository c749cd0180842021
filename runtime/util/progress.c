/* SPDX-License-Identifier: MIT */
/* Progress events: the library reports, the front end decides how to print. */
#include "util.h"

void sbx_progress_emit(const struct sbx_progress *p, enum sbx_progress_kind kind, const char *phase,
                       unsigned item, unsigned items, uint64_t bytes, const char *detail) {
        struct sbx_progress_event ev = {
                .kind = kind,
                .phase = phase,
                .item = item,
                .items = items,
                .bytes = bytes,
                .detail = detail,
        };

        if (p && p->fn)
                p->fn(p->userdata, &ev);
}

/* SPDX-License-Identifier: MIT */
/* String vectors: the one list type of config, policy and launcher. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void sbx_strv_free(sbx_strv *l) {
        if (!l)
                return;
        for (size_t i = 0; i < l->n; i++)
                free(l->v[i]);
        free(l->v);
        *l = (sbx_strv){};
}

int sbx_strv_push(sbx_strv *l, const char *s) {
        char **nv = realloc(l->v, (l->n + 2) * sizeof(char *));
        if (!nv)
                return -ENOMEM;
        l->v = nv;
        l->v[l->n] = strdup(s ?: "");
        if (!l->v[l->n])
                return -ENOMEM;
        l->n++;
        l->v[l->n] = NULL;
        l->set = true;
        return 0;
}

bool sbx_strv_contains(const sbx_strv *l, const char *s) {
        for (size_t i = 0; l && i < l->n; i++)
                if (!strcmp(l->v[i], s))
                        return true;
        return false;
}

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

static int uniq_cmp(const void *a, const void *b, void *list) {
        const sbx_strv *l = list;
        size_t i = *(const size_t *) a, j = *(const size_t *) b;
        int k = strcmp(l->v[i], l->v[j]);
        return k ? k : (i > j) - (i < j);
}

/* Drops every entry from index `from` on that equals an earlier one, keeping the order: the
 * list that pushing each of those entries only when not yet present gives, in O(n log n) (a
 * list of a few thousand entries from a config is not n^2 string compares). */
int sbx_strv_uniq_from(sbx_strv *l, size_t from) {
        if (!l || l->n < 2 || from >= l->n)
                return 0;
        _cleanup_free_ size_t *idx = calloc(l->n, sizeof(size_t));
        _cleanup_free_ bool *drop = calloc(l->n, sizeof(bool));
        if (!idx || !drop)
                return -ENOMEM;
        for (size_t i = 0; i < l->n; i++)
                idx[i] = i;
        qsort_r(idx, l->n, sizeof(size_t), uniq_cmp, l);
        /* in each run of equal strings the first index sorts first: drop the rest */
        for (size_t i = 1; i < l->n; i++)
                if (!strcmp(l->v[idx[i - 1]], l->v[idx[i]]) && idx[i] >= from)
                        drop[idx[i]] = true;
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++) {
                if (drop[i])
                        free(l->v[i]);
                else
                        l->v[n++] = l->v[i];
        }
        l->n = n;
        l->v[n] = NULL;
        return 0;
}

int sbx_strv_uniq(sbx_strv *l) {
        return sbx_strv_uniq_from(l, 0);
}

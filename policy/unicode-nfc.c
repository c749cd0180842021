/* SPDX-License-Identifier: MIT */
/* Unicode normalization form C as String.prototype.normalize("NFC") and the UTS 46 step of
 * url.domainToASCII (map, then NFC) give it, with node's own tables (unicode-nfc.h, generated
 * by tests/conformance/gen/nfc-table.mjs): full canonical decomposition, canonical ordering of
 * the non-starters, canonical composition; Hangul syllables algorithmically (Unicode §3.12). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "config-internal.h"
#include "util/util.h"
#include "unicode-nfc.h"

enum { SBASE = 0xAC00, LBASE = 0x1100, VBASE = 0x1161, TBASE = 0x11A7, LCOUNT = 19, VCOUNT = 21, TCOUNT = 28,
       NCOUNT = VCOUNT * TCOUNT, SCOUNT = LCOUNT * NCOUNT };

static int decomp_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key, e = ((const struct nfc_decomp *) elem)->cp;
        return k < e ? -1 : k > e;
}

static int rank_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key;
        const struct nfc_rank *r = elem;
        return k < r->from ? -1 : k > r->to;
}

static int pair_cmp(const void *key, const void *elem) {
        const struct nfc_pair *k = key, *e = elem;
        return k->a != e->a ? (k->a < e->a ? -1 : 1) : k->b < e->b ? -1 : k->b > e->b;
}

static int mark_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key;
        const uint32_t *r = elem;
        return k < r[0] ? -1 : k > r[1];
}

/* the canonical combining class's rank: 0 for a starter */
static unsigned nfc_rank(uint32_t cp) {
        const struct nfc_rank *r = cp < 0x300 ? NULL : bsearch(&cp, NFC_RANK, ELEMENTSOF(NFC_RANK), sizeof(NFC_RANK[0]), rank_cmp);
        return r ? r->rank : 0;
}

bool sbx_unicode_is_mark(uint32_t cp) {
        return cp >= 0x300 && bsearch(&cp, IDNA_MARK, ELEMENTSOF(IDNA_MARK), sizeof(IDNA_MARK[0]), mark_cmp);
}

static uint32_t nfc_compose(uint32_t a, uint32_t b) {
        if (a >= LBASE && a < LBASE + LCOUNT && b >= VBASE && b < VBASE + VCOUNT)
                return SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT;
        if (a >= SBASE && a < SBASE + SCOUNT && (a - SBASE) % TCOUNT == 0 && b > TBASE && b < TBASE + TCOUNT)
                return a + (b - TBASE);
        struct nfc_pair k = {a, b, 0};
        const struct nfc_pair *p = bsearch(&k, NFC_COMP, ELEMENTSOF(NFC_COMP), sizeof(NFC_COMP[0]), pair_cmp);
        return p ? p->c : 0;
}

size_t sbx_unicode_nfc(const uint32_t *in, size_t n, uint32_t *out, size_t cap) {
        size_t o = 0;
        /* decompose, each non-starter moved back past those of a higher rank (stable) */
        for (size_t i = 0; i < n; i++) {
                uint32_t cp = in[i], hang[3];
                const uint32_t *d = &in[i];
                size_t dn = 1;
                if (cp >= SBASE && cp < SBASE + SCOUNT) {
                        uint32_t s = cp - SBASE;
                        hang[0] = LBASE + s / NCOUNT;
                        hang[1] = VBASE + (s % NCOUNT) / TCOUNT;
                        hang[2] = TBASE + s % TCOUNT;
                        d = hang;
                        dn = hang[2] == TBASE ? 2 : 3;
                } else {
                        const struct nfc_decomp *e = cp < 0xC0 ? NULL
                                : bsearch(&cp, NFC_DECOMP, ELEMENTSOF(NFC_DECOMP), sizeof(NFC_DECOMP[0]), decomp_cmp);
                        if (e)
                                d = &NFC_POOL[e->off], dn = e->len;
                }
                for (size_t j = 0; j < dn; j++) {
                        if (o == cap)
                                return SIZE_MAX;
                        unsigned r = nfc_rank(d[j]);
                        size_t at = o;
                        while (r && at > 0 && nfc_rank(out[at - 1]) > r)
                                at--;
                        for (size_t m = o; m > at; m--)
                                out[m] = out[m - 1];
                        out[at] = d[j];
                        o++;
                }
        }
        /* compose: each character with the last starter unless blocked (a character between of
         * rank 0 or of a rank not below its own) */
        size_t w = 0, starter = SIZE_MAX;
        unsigned last = 0;
        for (size_t i = 0; i < o; i++) {
                uint32_t cp = out[i];
                unsigned r = nfc_rank(cp);
                uint32_t c = starter != SIZE_MAX && (w == starter + 1 || (last != 0 && last < r)) ? nfc_compose(out[starter], cp) : 0;
                if (c) {
                        out[starter] = c;
                        continue;
                }
                if (r == 0)
                        starter = w;
                last = r;
                out[w++] = cp;
        }
        return w;
}

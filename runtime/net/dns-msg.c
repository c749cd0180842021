/* SPDX-License-Identifier: MIT */
/* DNS messages for the egress resolver (issue 18): parse a sandbox's query,
 * build sbx's own query upstream, rebuild the answer the sandbox gets and
 * the addresses it may then reach. Pure functions over buffers (fuzzable).
 *
 * The sandbox never talks to a DNS server: it gets a message sbx built, with
 * the question it asked and only the answer records of the name's CNAME
 * chain (owner = the name or a CNAME target reached from it), CNAME and A
 * only; nothing from the authority or additional sections, no AAAA (the
 * sandbox network is IPv4 only). Upstream gets a fresh query sbx built
 * (new id, one question, no EDNS data of the sandbox's). */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "net.h"

#define HDR 12

static uint16_t get16(const uint8_t *p) {
        return (uint16_t) (p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v) {
        p[0] = (uint8_t) (v >> 8);
        p[1] = (uint8_t) v;
}

/* A (possibly compressed) name at *off into out (presentation form, lower
 * case, no trailing dot; "" for the root). Labels may hold [a-z0-9_-] only:
 * anything else (dots or bytes inside a label) is -EBADMSG. *off moves past
 * the name as it is stored. */
static int name_read(const uint8_t *m, size_t n, size_t *off, char *out, size_t outlen) {
        size_t o = *off, len = 0, end = 0;
        unsigned jumps = 0;

        for (;;) {
                uint8_t l;

                if (o >= n)
                        return -EBADMSG;
                l = m[o];
                if ((l & 0xc0) == 0xc0) {
                        if (o + 1 >= n || ++jumps > 16)
                                return -EBADMSG;
                        if (!end)
                                end = o + 2;
                        o = (size_t) ((l & 0x3f) << 8 | m[o + 1]);
                        continue;
                }
                if (l & 0xc0)
                        return -EBADMSG;
                o++;
                if (l == 0)
                        break;
                if (o + l > n || len + l + 2 > outlen || len + l + 1 > 254)
                        return -EBADMSG;
                if (len)
                        out[len++] = '.';
                for (uint8_t i = 0; i < l; i++) {
                        char c = (char) tolower(m[o + i]);
                        if (!isalnum((unsigned char) c) && c != '-' && c != '_')
                                return -EBADMSG;
                        out[len++] = c;
                }
                o += l;
        }
        out[len] = '\0';
        *off = end ? end : o;
        return 0;
}

static int name_write(uint8_t *out, size_t cap, size_t *off, const char *name) {
        size_t o = *off;
        const char *p = name;

        while (*p) {
                const char *dot = strchr(p, '.');
                size_t l = dot ? (size_t) (dot - p) : strlen(p);
                if (l == 0 || l > 63 || o + l + 1 >= cap)
                        return -EMSGSIZE;
                out[o++] = (uint8_t) l;
                memcpy(out + o, p, l);
                o += l;
                p += l + (dot ? 1 : 0);
        }
        if (o >= cap)
                return -EMSGSIZE;
        out[o++] = 0;
        *off = o;
        return 0;
}

int sbx_dns_query_parse(const uint8_t *m, size_t n, sbx_dns_query *ret) {
        size_t off = HDR;

        *ret = (sbx_dns_query) {};
        if (n < HDR)
                return -EBADMSG;
        ret->id = get16(m);
        ret->rd = m[2] & 0x01;
        /* a query (QR 0), opcode QUERY, exactly one question */
        if ((m[2] & 0x80) || ((m[2] >> 3) & 0x0f) != 0 || get16(m + 4) != 1)
                return -EBADMSG;
        if (name_read(m, n, &off, ret->name, sizeof(ret->name)) < 0 || off + 4 > n)
                return -EBADMSG;
        ret->qtype = get16(m + off);
        ret->qclass = get16(m + off + 2);
        ret->edns_size = 512;
        /* the EDNS payload size, only to know how much a UDP reply may hold */
        off += 4;
        if (get16(m + 10) == 1 && off + 11 <= n && m[off] == 0 && get16(m + off + 1) == 41) {
                uint16_t sz = get16(m + off + 3);
                ret->edns_size = sz < 512 ? 512 : sz > 4096 ? 4096 : sz;
                ret->edns = true;
        }
        return 0;
}

static size_t header_question(uint8_t *out, size_t cap, uint16_t id, uint16_t flags, const sbx_dns_query *q,
                              uint16_t ancount) {
        size_t off = HDR;

        if (cap < HDR + 4)
                return 0;
        memset(out, 0, HDR);
        put16(out, id);
        put16(out + 2, flags);
        put16(out + 4, 1);
        put16(out + 6, ancount);
        if (name_write(out, cap - 4, &off, q->name) < 0)
                return 0;
        put16(out + off, q->qtype);
        put16(out + off + 2, q->qclass);
        return off + 4;
}

size_t sbx_dns_query_build(const sbx_dns_query *q, uint16_t id, uint8_t *out, size_t cap) {
        /* RD, nothing else */
        return header_question(out, cap, id, 0x0100, q, 0);
}

size_t sbx_dns_reply_rcode(const sbx_dns_query *q, unsigned rcode, uint8_t *out, size_t cap) {
        /* QR, RD as asked, RA, the rcode */
        return header_question(out, cap, q->id, (uint16_t) (0x8080 | (q->rd ? 0x0100 : 0) | (rcode & 0x0f)), q, 0);
}

static bool in_chain(char chain[][254], size_t n, const char *name) {
        for (size_t i = 0; i < n; i++)
                if (strcmp(chain[i], name) == 0)
                        return true;
        return false;
}

int sbx_dns_answer_rebuild(const sbx_dns_query *q, uint16_t upstream_id, const uint8_t *m, size_t n,
                           uint8_t *out, size_t cap, size_t *ret_len, sbx_dns_addr *addrs, size_t max_addrs,
                           size_t *ret_addrs) {
        char chain[SBX_DNS_CHAIN_MAX][254], owner[254], target[254];
        size_t n_chain = 1, off = HDR, rr_start, o, n_addr = 0;
        uint16_t qd, an, ancount = 0, flags;
        bool grew;
        int k;

        *ret_len = 0;
        *ret_addrs = 0;
        if (n < HDR || get16(m) != upstream_id || !(m[2] & 0x80))
                return -EBADMSG;
        qd = get16(m + 4);
        an = get16(m + 6);
        if (qd != 1 || name_read(m, n, &off, owner, sizeof(owner)) < 0 || off + 4 > n ||
            strcmp(owner, q->name) != 0 || get16(m + off) != q->qtype)
                return -EBADMSG;
        off += 4;
        rr_start = off;
        snprintf(chain[0], sizeof(chain[0]), "%s", q->name);
        /* the chain first (CNAMEs may come in any order), then the records */
        do {
                grew = false;
                o = rr_start;
                for (uint16_t i = 0; i < an; i++) {
                        uint16_t type, rdlen;
                        size_t rd;

                        if (name_read(m, n, &o, owner, sizeof(owner)) < 0 || o + 10 > n)
                                return -EBADMSG;
                        type = get16(m + o);
                        rdlen = get16(m + o + 8);
                        rd = o + 10;
                        if (rd + rdlen > n)
                                return -EBADMSG;
                        o = rd + rdlen;
                        if (type != 5 || !in_chain(chain, n_chain, owner))
                                continue;
                        size_t t = rd;
                        if (name_read(m, n, &t, target, sizeof(target)) < 0)
                                return -EBADMSG;
                        if (!in_chain(chain, n_chain, target)) {
                                if (n_chain >= SBX_DNS_CHAIN_MAX)
                                        return -ELOOP;
                                snprintf(chain[n_chain++], sizeof(chain[0]), "%s", target);
                                grew = true;
                        }
                }
        } while (grew);

        /* QR, RD/RA and rcode from upstream; AA, TC, AD, CD dropped */
        flags = (uint16_t) (0x8000 | (get16(m + 2) & 0x0180) | (get16(m + 2) & 0x000f));
        if (q->rd)
                flags |= 0x0100;
        *ret_len = header_question(out, cap, q->id, flags, q, 0);
        if (!*ret_len)
                return -EMSGSIZE;
        o = rr_start;
        for (uint16_t i = 0; i < an; i++) {
                uint16_t type, klass, rdlen;
                uint32_t ttl;
                size_t rd, w;

                k = name_read(m, n, &o, owner, sizeof(owner));
                if (k < 0)
                        return k;
                type = get16(m + o);
                klass = get16(m + o + 2);
                ttl = (uint32_t) get16(m + o + 4) << 16 | get16(m + o + 6);
                rdlen = get16(m + o + 8);
                rd = o + 10;
                o = rd + rdlen;
                if (klass != 1 || !in_chain(chain, n_chain, owner))
                        continue;
                if (!(type == 5 && (q->qtype == 1 || q->qtype == 5)) && !(type == 1 && q->qtype == 1))
                        continue;
                if (type == 1 && rdlen != 4)
                        return -EBADMSG;
                w = *ret_len;
                if (name_write(out, cap, &w, owner) < 0 || w + 10 > cap)
                        return -EMSGSIZE;
                put16(out + w, type);
                put16(out + w + 2, 1);
                put16(out + w + 4, (uint16_t) (ttl >> 16));
                put16(out + w + 6, (uint16_t) ttl);
                if (type == 5) {
                        size_t t = rd, len_at = w + 8;
                        w += 10;
                        if (name_read(m, n, &t, target, sizeof(target)) < 0 || name_write(out, cap, &w, target) < 0)
                                return -EMSGSIZE;
                        put16(out + len_at, (uint16_t) (w - len_at - 2));
                } else {
                        put16(out + w + 8, 4);
                        if (w + 14 > cap)
                                return -EMSGSIZE;
                        memcpy(out + w + 10, m + rd, 4);
                        w += 14;
                        if (n_addr < max_addrs) {
                                memcpy(&addrs[n_addr].addr, m + rd, 4);
                                addrs[n_addr].ttl = ttl > 0x7fffffff ? 0 : ttl;
                                n_addr++;
                        }
                }
                *ret_len = w;
                ancount++;
        }
        put16(out + 6, ancount);
        *ret_addrs = n_addr;
        return 0;
}

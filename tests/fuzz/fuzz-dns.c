/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the egress resolver's DNS messages (issue 18): the
 * query comes from the sandbox, the answer from upstream, both hostile.
 * The first byte picks: 0 a query alone; 1 a fixed query for "a.test" (A)
 * answered by the rest; 2 the rest split at its first 0xff byte into a
 * query and an answer. Contract besides "no crash, no UB": the rebuilt reply
 * fits the buffer, answers the query's id, and every address it returns
 * appears in the upstream message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"

static void rebuild(const sbx_dns_query *q, const uint8_t *m, size_t n) {
        uint8_t out[4096], rc[600];
        sbx_dns_addr addrs[16];
        size_t len = 0, na = 0;
        uint16_t id = n >= 2 ? (uint16_t) (m[0] << 8 | m[1]) : 0;

        if (sbx_dns_answer_rebuild(q, id, m, n, out, sizeof(out), &len, addrs, 16, &na) == 0) {
                if (len < 12 || len > sizeof(out) || (out[0] << 8 | out[1]) != q->id || na > 16)
                        abort();
                for (size_t i = 0; i < na; i++)
                        if (!memmem(m, n, &addrs[i].addr, 4))
                                abort();
        }
        len = sbx_dns_reply_rcode(q, 3, rc, sizeof(rc));
        if (len && (len < 12 || len > sizeof(rc)))
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const uint8_t fixed[] = { 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1 };
        sbx_dns_query q;
        const uint8_t *sep;

        if (size < 1)
                return 0;
        switch (data[0] % 3) {
        case 0:
                if (sbx_dns_query_parse(data + 1, size - 1, &q) == 0 && strlen(q.name) > 253)
                        abort();
                break;
        case 1:
                if (sbx_dns_query_parse(fixed, sizeof(fixed), &q) != 0)
                        abort();
                rebuild(&q, data + 1, size - 1);
                break;
        default:
                sep = memchr(data + 1, 0xff, size - 1);
                if (sep && sbx_dns_query_parse(data + 1, (size_t) (sep - data - 1), &q) == 0)
                        rebuild(&q, sep + 1, size - (size_t) (sep - data) - 1);
                break;
        }
        return 0;
}

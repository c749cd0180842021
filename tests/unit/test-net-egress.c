/* SPDX-License-Identifier: MIT */
/* Unit tests for named networks (issue 18): allowlist entries and matching,
 * network records (in a temporary SBX_NETWORK_DIR), and the resolver's DNS
 * messages: query parsing, the rebuilt answer (CNAME chain only, A only,
 * nothing out of the chain), malformed input. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/net.h"
#include "unit.h"

START_TEST(test_rule_forms) {
        sbx_egress_rule r;
        sbx_error e = {};

        ck_assert_int_eq(sbx_egress_rule_parse("Api.Example.ORG.", false, &r, &e), 0);
        ck_assert_str_eq(r.host, "api.example.org");
        ck_assert(!r.wildcard && r.port == 0);
        ck_assert_int_eq(sbx_egress_rule_parse("*.mirror.test:443", false, &r, &e), 0);
        ck_assert(r.wildcard && r.port == 443);
        ck_assert_str_eq(r.host, "mirror.test");
        ck_assert_int_eq(sbx_egress_rule_parse("10.1.0.0/16:80", true, &r, &e), 0);
        ck_assert(r.cidr && r.prefixlen == 16 && r.port == 80);
        ck_assert_int_eq(sbx_egress_rule_parse("10.1.2.3", true, &r, &e), 0);
        ck_assert(r.prefixlen == 32);
}
END_TEST

START_TEST(test_rule_refusals_name_the_entry) {
        static const char *const bad_hosts[] = { "1.2.3.4", "a*.b", "*", "*.", "x.*.y", "-a.b", "a..b",
                                                 "x.test:0", "x.test:65536", "x.test:8o", "[::1]", "fd00::1",
                                                 "", "a.123", NULL };
        static const char *const bad_cidrs[] = { "10.0.0.1/8", "10.0.0.0/33", "host.test", "fd00::/8",
                                                 "10.0.0.0/8:0", NULL };
        sbx_egress_rule r;
        sbx_error e = {};

        for (size_t i = 0; bad_hosts[i]; i++) {
                ck_assert_msg(sbx_egress_rule_parse(bad_hosts[i], false, &r, &e) == -EINVAL, "%s", bad_hosts[i]);
                ck_assert_ptr_nonnull(strstr(e.msg, "--egress-allow"));
        }
        for (size_t i = 0; bad_cidrs[i]; i++)
                ck_assert_msg(sbx_egress_rule_parse(bad_cidrs[i], true, &r, &e) == -EINVAL, "%s", bad_cidrs[i]);
        ck_assert_int_eq(sbx_egress_rule_parse("1.2.3.4", false, &r, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "--egress-allow-cidr 1.2.3.4/32"));
}
END_TEST

START_TEST(test_rule_matching_is_explicit) {
        sbx_egress_rule exact, wild, cidr;

        ck_assert_int_eq(sbx_egress_rule_parse("api.test", false, &exact, NULL), 0);
        ck_assert_int_eq(sbx_egress_rule_parse("*.mirror.test", false, &wild, NULL), 0);
        ck_assert_int_eq(sbx_egress_rule_parse("10.0.0.0/8", true, &cidr, NULL), 0);
        ck_assert(sbx_egress_rule_matches(&exact, "api.test"));
        ck_assert(sbx_egress_rule_matches(&exact, "API.test"));
        /* no implied subdomains, no suffix tricks */
        ck_assert(!sbx_egress_rule_matches(&exact, "x.api.test"));
        ck_assert(!sbx_egress_rule_matches(&exact, "evilapi.test"));
        ck_assert(!sbx_egress_rule_matches(&exact, "api.test.evil"));
        ck_assert(sbx_egress_rule_matches(&wild, "a.mirror.test"));
        ck_assert(sbx_egress_rule_matches(&wild, "a.b.mirror.test"));
        ck_assert(!sbx_egress_rule_matches(&wild, "mirror.test"));
        ck_assert(!sbx_egress_rule_matches(&wild, "evilmirror.test"));
        ck_assert(!sbx_egress_rule_matches(&cidr, "10.0.0.1"));
}
END_TEST

START_TEST(test_records_round_trip) {
        char dir[] = "/tmp/sbx-unit-net.XXXXXX";
        sbx_network n = {}, back = {}, *v = NULL;
        size_t nv = 0;
        sbx_error e = {};

        ck_assert_ptr_nonnull(mkdtemp(dir));
        setenv("SBX_NETWORK_DIR", dir, 1);
        snprintf(n.name, sizeof(n.name), "web");
        ck_assert_int_eq(sbx_strv_push(&n.allow, "api.test:443"), 0);
        ck_assert_int_eq(sbx_strv_push(&n.allow_cidr, "10.0.0.0/8"), 0);
        ck_assert_int_eq(sbx_network_save(&n, true, &e), 0);
        ck_assert_int_eq(strlen(n.id), 64);
        ck_assert_int_eq(sbx_network_save(&n, true, &e), -EEXIST);
        ck_assert_int_eq(sbx_network_load("web", &back, &e), 0);
        ck_assert(sbx_network_enforced(&back));
        ck_assert_str_eq(back.allow.v[0], "api.test:443");
        ck_assert_str_eq(back.id, n.id);
        sbx_network_done(&back);
        ck_assert_int_eq(sbx_network_load("nope", &back, &e), -ENOENT);
        ck_assert_ptr_nonnull(strstr(e.msg, "sbx network ls"));
        ck_assert_int_eq(sbx_network_list(&v, &nv, &e), 0);
        ck_assert_int_eq(nv, 1);
        sbx_network_list_free(v, nv);
        /* a record that contradicts itself is refused */
        n.internal = true;
        ck_assert_int_eq(sbx_network_save(&n, false, &e), -EINVAL);
        ck_assert_int_eq(sbx_network_remove("web", &e), 0);
        ck_assert_int_eq(sbx_network_remove("web", &e), -ENOENT);
        sbx_network_done(&n);
        char lock[sizeof(dir) + 8];
        snprintf(lock, sizeof(lock), "%s/.lock", dir);
        ck_assert_int_eq(unlink(lock), 0);
        ck_assert_int_eq(rmdir(dir), 0);
        unsetenv("SBX_NETWORK_DIR");
}
END_TEST

/* ---- DNS messages ---- */

static size_t put_name(uint8_t *m, size_t o, const char *name) {
        const char *p = name;
        while (*p) {
                const char *d = strchr(p, '.');
                size_t l = d ? (size_t) (d - p) : strlen(p);
                m[o++] = (uint8_t) l;
                memcpy(m + o, p, l);
                o += l;
                p += l + (d ? 1 : 0);
        }
        m[o++] = 0;
        return o;
}

static size_t put_rr(uint8_t *m, size_t o, const char *owner, uint16_t type, uint32_t ttl, const char *data) {
        o = put_name(m, o, owner);
        m[o++] = (uint8_t) (type >> 8), m[o++] = (uint8_t) type;
        m[o++] = 0, m[o++] = 1;
        m[o++] = (uint8_t) (ttl >> 24), m[o++] = (uint8_t) (ttl >> 16), m[o++] = (uint8_t) (ttl >> 8),
        m[o++] = (uint8_t) ttl;
        if (type == 1) {
                m[o++] = 0, m[o++] = 4;
                inet_pton(AF_INET, data, m + o);
                return o + 4;
        }
        size_t len_at = o;
        o = put_name(m, o + 2, data);
        m[len_at] = (uint8_t) ((o - len_at - 2) >> 8), m[len_at + 1] = (uint8_t) (o - len_at - 2);
        return o;
}

static size_t query(uint8_t *m, uint16_t id, const char *name, uint16_t type) {
        size_t o;
        memset(m, 0, 12);
        m[0] = (uint8_t) (id >> 8), m[1] = (uint8_t) id, m[2] = 0x01, m[5] = 1;
        o = put_name(m, 12, name);
        m[o++] = (uint8_t) (type >> 8), m[o++] = (uint8_t) type, m[o++] = 0, m[o++] = 1;
        return o;
}

START_TEST(test_query_parse) {
        uint8_t m[512];
        sbx_dns_query q;
        size_t n = query(m, 0x1234, "API.Test", 1);

        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), 0);
        ck_assert_str_eq(q.name, "api.test");
        ck_assert_int_eq(q.id, 0x1234);
        ck_assert_int_eq(q.qtype, 1);
        /* a label with a dot or a NUL in it is no host name */
        n = query(m, 1, "a.test", 1);
        m[13] = '.';
        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), -EBADMSG);
        m[13] = 0;
        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), -EBADMSG);
        /* a response, two questions, truncation, a pointer loop */
        n = query(m, 1, "a.test", 1);
        m[2] |= 0x80;
        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), -EBADMSG);
        n = query(m, 1, "a.test", 1);
        m[5] = 2;
        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), -EBADMSG);
        n = query(m, 1, "a.test", 1);
        ck_assert_int_eq(sbx_dns_query_parse(m, 15, &q), -EBADMSG);
        m[12] = 0xc0, m[13] = 12;
        ck_assert_int_eq(sbx_dns_query_parse(m, n, &q), -EBADMSG);
}
END_TEST

START_TEST(test_answer_keeps_only_the_chain) {
        uint8_t up[1024], out[1024];
        sbx_dns_query q;
        sbx_dns_addr a[8];
        size_t n, len, na;
        char ip[INET_ADDRSTRLEN];

        ck_assert_int_eq(sbx_dns_query_parse(up, query(up, 7, "cdn.test", 1), &q), 0);
        /* upstream: id 99, chain cdn.test -> edge.host -> A 10.0.0.3, plus an
         * unrelated A record, an AAAA and an answer for another name */
        n = query(up, 99, "cdn.test", 1);
        up[2] = 0x81, up[3] = 0x80;
        n = put_rr(up, n, "edge.host", 1, 30, "10.0.0.3");
        n = put_rr(up, n, "cdn.test", 5, 300, "edge.host");
        n = put_rr(up, n, "injected.test", 1, 300, "10.6.6.6");
        up[7] = 3;
        ck_assert_int_eq(sbx_dns_answer_rebuild(&q, 99, up, n, out, sizeof(out), &len, a, 8, &na), 0);
        ck_assert_int_eq(na, 1);
        inet_ntop(AF_INET, &a[0].addr, ip, sizeof(ip));
        ck_assert_str_eq(ip, "10.0.0.3");
        ck_assert_int_eq(a[0].ttl, 30);
        ck_assert_int_eq(out[0] << 8 | out[1], 7);          /* the sandbox's id */
        ck_assert_int_eq(out[6] << 8 | out[7], 2);          /* CNAME + A, no injected record */
        ck_assert_ptr_null(memmem(out, len, "injected", 8));
        /* the wrong id or question is not an answer */
        ck_assert_int_eq(sbx_dns_answer_rebuild(&q, 98, up, n, out, sizeof(out), &len, a, 8, &na), -EBADMSG);
        /* a CNAME loop ends */
        n = query(up, 5, "cdn.test", 1);
        up[2] = 0x81, up[3] = 0x80, up[7] = 2;
        n = put_rr(up, n, "cdn.test", 5, 300, "x.test");
        n = put_rr(up, n, "x.test", 5, 300, "cdn.test");
        ck_assert_int_eq(sbx_dns_answer_rebuild(&q, 5, up, n, out, sizeof(out), &len, a, 8, &na), 0);
        ck_assert_int_eq(na, 0);
}
END_TEST

START_TEST(test_rcode_reply) {
        uint8_t m[512], out[512];
        sbx_dns_query q;
        size_t len;

        ck_assert_int_eq(sbx_dns_query_parse(m, query(m, 42, "no.test", 1), &q), 0);
        len = sbx_dns_reply_rcode(&q, 3, out, sizeof(out));
        ck_assert_uint_gt(len, 12);
        ck_assert_int_eq(out[0] << 8 | out[1], 42);
        ck_assert_int_eq(out[3] & 0x0f, 3);
        ck_assert_int_eq(out[2] & 0x80, 0x80);
        ck_assert_int_eq(out[6] << 8 | out[7], 0);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_rule_forms, test_rule_refusals_name_the_entry, test_rule_matching_is_explicit,
                                 test_records_round_trip, test_query_parse, test_answer_keeps_only_the_chain,
                                 test_rcode_reply };

        return unit_main("net-egress", "egress", 0, CK_SILENT, tests, UNIT_N(tests));
}

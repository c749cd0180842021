/* SPDX-License-Identifier: MIT */
/* The egress resolver (issue 18): one small process per sandbox on a network
 * with an allowlist, outside the sandbox (host pid and network namespace),
 * serving DNS on sockets that egress.c made inside the sandbox's network
 * namespace (127.0.0.53:53, UDP and TCP).
 *
 *  - a name the network allows: asked upstream (the network's --dns, else the
 *    host's resolv.conf servers) with sbx's own query; the rebuilt answer
 *    (dns-msg.c) goes back only after the addresses it holds were added,
 *    with their TTL, to the sandbox's nft sets (nft.c), so the connect that
 *    follows the lookup finds them;
 *  - any other name: NXDOMAIN, and a JSONL audit record;
 *  - AAAA and other types of allowed names: an empty answer (IPv4 only).
 * It follows the network's record (inotify): an edited allowlist replaces
 * the sandbox's rules and sets within a second. Refused connections arrive
 * from the nft log group (nflog) and go to the audit log. It ends when the
 * sandbox's pid 1 does, removing the sandbox's nft state if its veth is
 * gone or still its own (a new sandbox may have the same veth name). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_log.h>
#include <netinet/ip.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net.h"
#include "nft.h"
#include "rtnl.h"
#include "util/util.h"

#define UPSTREAM_TIMEOUT_MS 2000
#define TCP_CLIENT_TIMEOUT_MS 3000
#define TTL_MIN 10                       /* s: an answer with TTL 0 still serves the connect after it */
#define TTL_MAX 86400
#define CACHE_MAX 1024
#define MAX_UPSTREAM 4

typedef struct cached {
        char name[254];
        struct in_addr addr;
        time_t expires;
} cached;

typedef struct fwd {
        const sbx_dns_forwarder *cfg;
        sbx_network net;
        sbx_egress_rule *rules;
        size_t n_rules;
        struct sockaddr_storage up[MAX_UPSTREAM];
        socklen_t up_len[MAX_UPSTREAM];
        size_t n_up;
        cached cache[CACHE_MAX];
        size_t n_cache, cache_next;
        int audit_fd;
        bool audit_full;                /* the egress-log-limit record is written */
} fwd;

/* ---- audit ---- */

/* Every record here comes as fast as the sandbox asks for names outside its
 * allowlist or opens connections it may not (a datagram to a new port is a
 * new connection): unbounded, they filled the host's disk, or the tmpfs of
 * /run/sbx, through the host-side log. Past the exec log's limit (16 MiB of
 * log, SBX_AUDIT_SEEN_MAX in security.h) they are dropped after one
 * "egress-log-limit" record, as exec-seen records are. */
#define EGRESS_AUDIT_MAX ((off_t) 16 << 20)

static void audit(fwd *f, const char *event, json_object *o) {
        char t[64], buf[4096];
        const char *s;
        struct stat st;
        size_t n;

        if (f->audit_fd < 0 || (fstat(f->audit_fd, &st) == 0 && st.st_size >= EGRESS_AUDIT_MAX && f->audit_full)) {
                json_object_put(o);
                return;
        }
        if (st.st_size >= EGRESS_AUDIT_MAX) {
                /* say so, once */
                json_object_put(o);
                o = json_object_new_object();
                json_object_object_add(o, "limitBytes", json_object_new_int64(EGRESS_AUDIT_MAX));
                json_object_object_add(o, "message", json_object_new_string(
                        "the audit log reached its limit: later egress-deny records are not written"));
                event = "egress-log-limit";
                f->audit_full = true;
        }
        sbx_time_rfc3339_ms(t, sizeof(t));
        json_object_object_add(o, "time", json_object_new_string(t));
        json_object_object_add(o, "event", json_object_new_string(event));
        json_object_object_add(o, "agent", f->cfg->agent ? json_object_new_string(f->cfg->agent) : NULL);
        json_object_object_add(o, "session", f->cfg->session ? json_object_new_string(f->cfg->session) : NULL);
        json_object_object_add(o, "scopeKey", f->cfg->scope_key ? json_object_new_string(f->cfg->scope_key) : NULL);
        json_object_object_add(o, "sandbox", f->cfg->sandbox ? json_object_new_string(f->cfg->sandbox) : NULL);
        json_object_object_add(o, "network", json_object_new_string(f->cfg->network));
        s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        n = strlen(s);
        if (n + 1 < sizeof(buf)) {
                memcpy(buf, s, n);
                buf[n++] = '\n';
                /* one write on an O_APPEND fd: lines never interleave */
                (void) !write(f->audit_fd, buf, n);
        }
        json_object_put(o);
}

static void audit_name(fwd *f, const sbx_dns_query *q, const char *why) {
        json_object *o = json_object_new_object();

        json_object_object_add(o, "name", json_object_new_string(q->name));
        json_object_object_add(o, "qtype", json_object_new_int(q->qtype));
        json_object_object_add(o, "reason", json_object_new_string(why));
        audit(f, "egress-deny-name", o);
}

/* ---- the network's rules ---- */

static int rules_load(fwd *f, sbx_error *reterr) {
        sbx_network n;
        sbx_egress_rule *r;
        size_t k = 0;
        int e;

        e = sbx_network_load(f->cfg->network, &n, reterr);
        if (e < 0)
                return e;
        r = calloc(n.allow.n + n.allow_cidr.n + 1, sizeof(*r));
        if (!r) {
                sbx_network_done(&n);
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < n.allow.n; i++)
                if (sbx_egress_rule_parse(n.allow.v[i], false, &r[k], NULL) >= 0)
                        k++;
        for (size_t i = 0; i < n.allow_cidr.n; i++)
                if (sbx_egress_rule_parse(n.allow_cidr.v[i], true, &r[k], NULL) >= 0)
                        k++;
        sbx_network_done(&f->net);
        free(f->rules);
        f->net = n;
        f->rules = r;
        f->n_rules = k;
        return 0;
}

static bool name_allowed(const fwd *f, const char *name) {
        if (f->net.internal)
                return false;
        for (size_t i = 0; i < f->n_rules; i++)
                if (sbx_egress_rule_matches(&f->rules[i], name))
                        return true;
        return false;
}

/* "add element" lines for addr allowed for name (any port, or the ports of
 * the matching HOST:PORT entries); "add; delete; add" refreshes a timeout. */
static int elements_for(const fwd *f, const char *name, struct in_addr addr, unsigned ttl, char **script) {
        char a[INET_ADDRSTRLEN], el[64], *s;

        inet_ntop(AF_INET, &addr, a, sizeof(a));
        for (size_t i = 0; i < f->n_rules; i++) {
                const sbx_egress_rule *r = &f->rules[i];
                if (!sbx_egress_rule_matches(r, name))
                        continue;
                if (r->port)
                        snprintf(el, sizeof(el), "%s . %u", a, r->port);
                else
                        snprintf(el, sizeof(el), "%s", a);
                if (asprintf(&s, "%1$sadd element %2$s { %3$s timeout %4$us }\n"
                             "delete element %2$s { %3$s }\n"
                             "add element %2$s { %3$s timeout %4$us }\n",
                             *script ?: "", r->port ? f->cfg->nft.set_p : f->cfg->nft.set_a, el, ttl) < 0)
                        return -ENOMEM;
                free(*script);
                *script = s;
        }
        return 0;
}

/* The CIDR entries as rules of the sandbox's chain. */
static char *cidr_rules(const fwd *f) {
        char *s = strdup(""), *t, a[INET_ADDRSTRLEN], port[64];

        for (size_t i = 0; s && i < f->n_rules; i++) {
                const sbx_egress_rule *r = &f->rules[i];
                if (!r->cidr || f->net.internal)
                        continue;
                inet_ntop(AF_INET, &r->net, a, sizeof(a));
                port[0] = '\0';
                if (r->port)
                        snprintf(port, sizeof(port), " meta l4proto { tcp, udp } th dport %u", r->port);
                if (asprintf(&t, "%sadd rule %s ip daddr %s/%u%s accept\n", s, f->cfg->nft.chain, a,
                             r->prefixlen, port) < 0)
                        t = NULL;
                free(s);
                s = t;
        }
        return s;
}

/* The set still holds addr for name for at least half of ttl: no nft call
 * (a lookup repeated within its TTL costs only the upstream round trip). */
static bool cache_fresh(const fwd *f, const char *name, struct in_addr addr, unsigned ttl) {
        time_t now = time(NULL);

        for (size_t i = 0; i < f->n_cache; i++)
                if (f->cache[i].addr.s_addr == addr.s_addr && strcmp(f->cache[i].name, name) == 0)
                        return f->cache[i].expires - now >= (time_t) (ttl / 2);
        return false;
}

static void cache_put(fwd *f, const char *name, struct in_addr addr, unsigned ttl) {
        time_t now = time(NULL);
        cached *c = NULL;

        for (size_t i = 0; i < f->n_cache; i++)
                if (f->cache[i].addr.s_addr == addr.s_addr && strcmp(f->cache[i].name, name) == 0)
                        c = &f->cache[i];
        if (!c) {
                if (f->n_cache < CACHE_MAX)
                        c = &f->cache[f->n_cache++];
                else
                        c = &f->cache[f->cache_next++ % CACHE_MAX];
        }
        snprintf(c->name, sizeof(c->name), "%s", name);
        c->addr = addr;
        c->expires = now + ttl;
}

/* The record changed: new chain rules, sets refilled from the answers
 * given before that are still allowed and unexpired, in one transaction. */
static void reload(fwd *f) {
        _cleanup_free_ char *rules = NULL, *elements = NULL;
        time_t now = time(NULL);
        sbx_error e = {};

        if (rules_load(f, &e) < 0)
                return;         /* removed or broken: keep the last rules */
        for (size_t i = 0; i < f->n_cache; i++)
                if (f->cache[i].expires > now && name_allowed(f, f->cache[i].name))
                        (void) elements_for(f, f->cache[i].name, f->cache[i].addr,
                                            (unsigned) (f->cache[i].expires - now), &elements);
        rules = cidr_rules(f);
        if (rules)
                (void) sbx_nft_egress_update(&f->cfg->nft, rules, f->cfg->log_group, elements, NULL);
}

/* ---- upstream ---- */

static void upstream_from_resolv(fwd *f) {
        FILE *fp;
        char line[512], addr[INET6_ADDRSTRLEN + 1];

        for (size_t i = 0; i < f->net.dns.n && f->n_up < MAX_UPSTREAM; i++) {
                struct sockaddr_in *s4 = (struct sockaddr_in *) &f->up[f->n_up];
                struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) &f->up[f->n_up];
                if (inet_pton(AF_INET, f->net.dns.v[i], &s4->sin_addr) == 1) {
                        s4->sin_family = AF_INET;
                        s4->sin_port = htons(53);
                        f->up_len[f->n_up++] = sizeof(*s4);
                } else if (inet_pton(AF_INET6, f->net.dns.v[i], &s6->sin6_addr) == 1) {
                        s6->sin6_family = AF_INET6;
                        s6->sin6_port = htons(53);
                        f->up_len[f->n_up++] = sizeof(*s6);
                }
        }
        if (f->n_up)
                return;
        fp = fopen("/etc/resolv.conf", "re");
        if (!fp)
                return;
        while (fgets(line, sizeof(line), fp) && f->n_up < MAX_UPSTREAM) {
                struct sockaddr_in *s4 = (struct sockaddr_in *) &f->up[f->n_up];
                struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) &f->up[f->n_up];
                if (sscanf(line, " nameserver %46s", addr) != 1)
                        continue;
                if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
                        s4->sin_family = AF_INET;
                        s4->sin_port = htons(53);
                        f->up_len[f->n_up++] = sizeof(*s4);
                } else if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
                        s6->sin6_family = AF_INET6;
                        s6->sin6_port = htons(53);
                        f->up_len[f->n_up++] = sizeof(*s6);
                }
        }
        fclose(fp);
}

static long ms_now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read exactly n bytes before the deadline. */
static int read_full(int fd, uint8_t *buf, size_t n, long deadline) {
        size_t got = 0;

        while (got < n) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                long left = deadline - ms_now();
                ssize_t k;

                if (left <= 0 || poll(&p, 1, (int) left) <= 0)
                        return -ETIMEDOUT;
                k = read(fd, buf + got, n - got);
                if (k <= 0)
                        return k == 0 ? -ECONNRESET : -errno;
                got += (size_t) k;
        }
        return 0;
}

static ssize_t ask_tcp(const struct sockaddr *sa, socklen_t len, const uint8_t *q, size_t qn, uint8_t *ans,
                       size_t cap) {
        _cleanup_close_ int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        long deadline = ms_now() + UPSTREAM_TIMEOUT_MS;
        uint8_t hdr[2] = { (uint8_t) (qn >> 8), (uint8_t) qn };
        struct timeval tv = { .tv_sec = UPSTREAM_TIMEOUT_MS / 1000 };
        size_t n;

        if (fd < 0)
                return -errno;
        (void) setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
        if (connect(fd, sa, len) < 0 || write(fd, hdr, 2) != 2 || write(fd, q, qn) != (ssize_t) qn)
                return -EIO;
        if (read_full(fd, hdr, 2, deadline) < 0)
                return -EIO;
        n = (size_t) (hdr[0] << 8 | hdr[1]);
        if (n > cap || read_full(fd, ans, n, deadline) < 0)
                return -EIO;
        return (ssize_t) n;
}

/* One upstream exchange for q: each server in turn, UDP then TCP if the
 * answer was truncated. Returns the answer's length. */
static ssize_t ask_upstream(fwd *f, const sbx_dns_query *q, uint16_t *ret_id, uint8_t *ans, size_t cap) {
        uint8_t query[512];
        uint16_t id;
        size_t qn;

        if (getrandom(&id, sizeof(id), 0) != sizeof(id))
                return -EIO;
        *ret_id = id;
        qn = sbx_dns_query_build(q, id, query, sizeof(query));
        if (!qn)
                return -EMSGSIZE;
        for (size_t i = 0; i < f->n_up; i++) {
                const struct sockaddr *sa = (const struct sockaddr *) &f->up[i];
                _cleanup_close_ int fd = socket(sa->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
                long deadline = ms_now() + UPSTREAM_TIMEOUT_MS;
                ssize_t k;

                if (fd < 0 || connect(fd, sa, f->up_len[i]) < 0 || send(fd, query, qn, 0) != (ssize_t) qn)
                        continue;
                for (;;) {
                        struct pollfd p = { .fd = fd, .events = POLLIN };
                        long left = deadline - ms_now();
                        if (left <= 0 || poll(&p, 1, (int) left) <= 0)
                                break;
                        k = recv(fd, ans, cap, 0);
                        if (k < 12 || ans[0] != (uint8_t) (id >> 8) || ans[1] != (uint8_t) id)
                                continue;   /* not ours: keep waiting */
                        if (ans[2] & 0x02)  /* truncated: the same server over TCP */
                                k = ask_tcp(sa, f->up_len[i], query, qn, ans, cap);
                        if (k > 0)
                                return k;
                        break;
                }
        }
        return -EHOSTUNREACH;
}

/* ---- one query ---- */

/* The reply for the sandbox's message (m, n) into out; 0: no reply. */
static size_t answer(fwd *f, const uint8_t *m, size_t n, uint8_t *out, size_t cap) {
        static uint8_t ans[65535];
        sbx_dns_addr addrs[64];
        sbx_dns_query q;
        _cleanup_free_ char *elements = NULL;
        size_t len, n_addrs;
        uint16_t id;
        ssize_t k;

        if (sbx_dns_query_parse(m, n, &q) < 0) {
                /* not a plain query, or a name with bytes no host name has */
                if (n >= 12) {
                        json_object *o = json_object_new_object();
                        json_object_object_add(o, "reason", json_object_new_string("malformed query"));
                        audit(f, "egress-deny-name", o);
                        memcpy(out, m, 12);
                        out[2] = (uint8_t) (0x80 | (m[2] & 0x01));
                        out[3] = 0x80 | 1;   /* FORMERR */
                        memset(out + 4, 0, 8);
                        return 12;
                }
                return 0;
        }
        if (q.qclass != 1 || !name_allowed(f, q.name)) {
                audit_name(f, &q, f->net.internal ? "network is internal" : "not in the allowlist");
                return sbx_dns_reply_rcode(&q, 3, out, cap);
        }
        if (q.qtype != 1 && q.qtype != 5)
                return sbx_dns_reply_rcode(&q, 0, out, cap);   /* IPv4 only: no AAAA, nothing else */
        k = ask_upstream(f, &q, &id, ans, sizeof(ans));
        if (k < 0 || sbx_dns_answer_rebuild(&q, id, ans, (size_t) k, out, cap, &len, addrs, ELEMENTSOF(addrs),
                                            &n_addrs) < 0)
                return sbx_dns_reply_rcode(&q, 2, out, cap);
        for (size_t i = 0; i < n_addrs; i++) {
                unsigned ttl = addrs[i].ttl < TTL_MIN ? TTL_MIN : addrs[i].ttl > TTL_MAX ? TTL_MAX : addrs[i].ttl;
                if (cache_fresh(f, q.name, addrs[i].addr, ttl))
                        continue;
                if (elements_for(f, q.name, addrs[i].addr, ttl, &elements) < 0)
                        return sbx_dns_reply_rcode(&q, 2, out, cap);
                cache_put(f, q.name, addrs[i].addr, ttl);
        }
        /* the addresses first: the sandbox connects as soon as it has them */
        if (elements && sbx_nft_egress_allow(&f->cfg->nft, elements, NULL) < 0)
                return sbx_dns_reply_rcode(&q, 2, out, cap);
        return len;
}

static void serve_udp(fwd *f) {
        static uint8_t in[4096], out[65535];
        struct sockaddr_storage from;
        socklen_t fl = sizeof(from);
        ssize_t n = recvfrom(f->cfg->udp_fd, in, sizeof(in), MSG_DONTWAIT, (struct sockaddr *) &from, &fl);
        sbx_dns_query q;
        size_t len, limit = 512;

        if (n <= 0)
                return;
        if (sbx_dns_query_parse(in, (size_t) n, &q) >= 0)
                limit = q.edns_size;
        len = answer(f, in, (size_t) n, out, sizeof(out));
        if (len > limit) {
                /* too big for the sandbox's UDP: header + question with TC set (it retries over TCP) */
                len = sbx_dns_reply_rcode(&q, 0, out, sizeof(out));
                out[2] |= 0x02;
        }
        if (len)
                (void) sendto(f->cfg->udp_fd, out, len, MSG_DONTWAIT, (struct sockaddr *) &from, fl);
}

static void serve_tcp(fwd *f) {
        static uint8_t in[65535], out[65535 + 2];
        _cleanup_close_ int c = accept4(f->cfg->tcp_fd, NULL, NULL, SOCK_CLOEXEC);
        long deadline = ms_now() + TCP_CLIENT_TIMEOUT_MS;
        uint8_t hdr[2];
        size_t n, len;

        if (c < 0)
                return;
        /* one connection at a time, each query answered in turn */
        while (read_full(c, hdr, 2, deadline) == 0) {
                n = (size_t) (hdr[0] << 8 | hdr[1]);
                if (read_full(c, in, n, deadline) < 0)
                        return;
                len = answer(f, in, n, out + 2, sizeof(out) - 2);
                if (!len)
                        return;
                out[0] = (uint8_t) (len >> 8);
                out[1] = (uint8_t) len;
                if (write(c, out, len + 2) != (ssize_t) (len + 2))
                        return;
        }
}

/* ---- refused connections (nflog) ---- */

/* fd: a NETLINK_NETFILTER socket made inside the sandbox (pasta), or -1 */
static int nflog_open(int fd, unsigned group, struct mnl_socket **ret) {
        struct mnl_socket *nl = fd >= 0 ? mnl_socket_fdopen(fd) : mnl_socket_open2(NETLINK_NETFILTER,
                                                                                 SOCK_CLOEXEC | SOCK_NONBLOCK);
        char buf[8192];
        struct nlmsghdr *nlh;
        struct nfgenmsg *nfg;
        struct nfulnl_msg_config_mode mode = { .copy_range = htonl(64), .copy_mode = NFULNL_COPY_PACKET };

        if (!nl || (fd < 0 && mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0))
                goto fail;
        for (int step = 0; step < 2; step++) {
                nlh = mnl_nlmsg_put_header(buf);
                nlh->nlmsg_type = (NFNL_SUBSYS_ULOG << 8) | NFULNL_MSG_CONFIG;
                nlh->nlmsg_flags = NLM_F_REQUEST;
                nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
                nfg->nfgen_family = AF_UNSPEC;
                nfg->version = NFNETLINK_V0;
                nfg->res_id = htons((uint16_t) group);
                if (step == 0) {
                        struct nfulnl_msg_config_cmd cmd = { .command = NFULNL_CFG_CMD_BIND };
                        mnl_attr_put(nlh, NFULA_CFG_CMD, sizeof(cmd), &cmd);
                } else
                        mnl_attr_put(nlh, NFULA_CFG_MODE, sizeof(mode), &mode);
                if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
                        goto fail;
        }
        *ret = nl;
        return mnl_socket_get_fd(nl);
fail:
        if (nl)
                mnl_socket_close(nl);
        return -EIO;
}

static int nflog_attr(const struct nlattr *a, void *data) {
        const struct nlattr **tb = data;

        if (mnl_attr_type_valid(a, NFULA_MAX) > 0)
                tb[mnl_attr_get_type(a)] = a;
        return MNL_CB_OK;
}

static int nflog_msg(const struct nlmsghdr *nlh, void *data) {
        const struct nlattr *tb[NFULA_MAX + 1] = {};
        fwd *f = data;
        const uint8_t *p;
        uint16_t len;
        char dst[INET_ADDRSTRLEN];
        struct iphdr ip;
        json_object *o;

        if (mnl_attr_parse(nlh, sizeof(struct nfgenmsg), nflog_attr, tb) < 0 || !tb[NFULA_PAYLOAD])
                return MNL_CB_OK;
        p = mnl_attr_get_payload(tb[NFULA_PAYLOAD]);
        len = mnl_attr_get_payload_len(tb[NFULA_PAYLOAD]);
        if (len < sizeof(ip))
                return MNL_CB_OK;
        memcpy(&ip, p, sizeof(ip));
        if (ip.version != 4)
                return MNL_CB_OK;
        inet_ntop(AF_INET, &ip.daddr, dst, sizeof(dst));
        o = json_object_new_object();
        json_object_object_add(o, "destination", json_object_new_string(dst));
        json_object_object_add(o, "protocol", json_object_new_string(ip.protocol == 6 ? "tcp" : ip.protocol == 17
                                                                      ? "udp" : ip.protocol == 1 ? "icmp" : "other"));
        if ((ip.protocol == 6 || ip.protocol == 17) && len >= ip.ihl * 4u + 4)
                json_object_object_add(o, "port", json_object_new_int(p[ip.ihl * 4 + 2] << 8 | p[ip.ihl * 4 + 3]));
        audit(f, "egress-deny-connect", o);
        return MNL_CB_OK;
}

static void serve_nflog(fwd *f, struct mnl_socket *nl) {
        static char buf[8192];
        ssize_t n;

        while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0)
                (void) mnl_cb_run(buf, (size_t) n, 0, 0, nflog_msg, f);
}

/* ---- the process ---- */

static _Noreturn void forwarder_main(const sbx_dns_forwarder *cfg, int ready_fd) {
        static fwd f;
        struct mnl_socket *nl = NULL;
        char dir[PATH_MAX], file[SBX_NETWORK_NAME_MAX + 8];
        int ino, nlfd;
        sbx_error e = {};

        /* its cmdline and environ: this title, not the argv and environment of
         * the sbx run/create that forked it */
        (void) prctl(PR_SET_NAME, "sbx-resolver", 0, 0, 0);
        snprintf(dir, sizeof(dir), "sbx-resolver %s", cfg->ifname ? cfg->ifname : "");
        (void) sbx_proc_set_title(dir);
        f.cfg = cfg;
        f.audit_fd = cfg->audit_path ? open(cfg->audit_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
                                            O_CLOEXEC | O_NOCTTY, 0600) : -EBADF;
        if (rules_load(&f, &e) < 0)
                _exit(1);
        upstream_from_resolv(&f);
        snprintf(file, sizeof(file), "%s.json", cfg->network);
        ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
        if (ino < 0 || sbx_network_dir(dir, sizeof(dir), NULL) < 0 ||
            inotify_add_watch(ino, dir, IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE) < 0)
                _exit(1);
        nlfd = nflog_open(cfg->nflog_fd, cfg->log_group, &nl);
        /* the CIDR entries into the chain made without them */
        reload(&f);
        (void) !write(ready_fd, "R", 1);
        close(ready_fd);
        for (;;) {
                struct pollfd p[5] = {
                        { .fd = cfg->udp_fd, .events = POLLIN },
                        { .fd = cfg->tcp_fd, .events = POLLIN },
                        { .fd = cfg->sandbox_pidfd, .events = POLLIN },
                        { .fd = ino, .events = POLLIN },
                        { .fd = nlfd, .events = POLLIN },
                };
                if (poll(p, nlfd >= 0 ? 5 : 4, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        break;
                }
                if (p[2].revents)
                        break;
                if (p[3].revents & POLLIN) {
                        char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
                        bool mine = false;
                        ssize_t n;
                        while ((n = read(ino, buf, sizeof(buf))) > 0)
                                for (char *q = buf; q < buf + n;) {
                                        struct inotify_event *ev = (struct inotify_event *) q;
                                        if (ev->len && strcmp(ev->name, file) == 0)
                                                mine = true;
                                        q += sizeof(*ev) + ev->len;
                                }
                        if (mine)
                                reload(&f);
                }
                if (p[4].revents & POLLIN)
                        serve_nflog(&f, nl);
                if (p[0].revents & POLLIN)
                        serve_udp(&f);
                if (p[1].revents & POLLIN)
                        serve_tcp(&f);
        }
        /* our sandbox is gone: its nft state on the host goes too (inside its
         * namespace, it went with it) */
        if (!cfg->nft.in_pid)
                (void) sbx_egress_remove(cfg->ifname, cfg->addr, cfg->owner, cfg->owner_start);
        _exit(0);
}

int sbx_dns_forwarder_start(const sbx_dns_forwarder *cfg, pid_t *ret_pid, sbx_error *reterr) {
        int ready[2], pidpipe[2], status;
        pid_t mid, pid = 0;
        char c = 0;

        if (pipe2(ready, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, negative_errno(), "egress resolver: pipe");
        if (pipe2(pidpipe, O_CLOEXEC) < 0) {
                int k = negative_errno();
                close(ready[0]);
                close(ready[1]);
                return sbx_error_set(reterr, k, "egress resolver: pipe");
        }
        /* Twice, so that it is nobody's child: it outlives a persistent
         * sandbox's sbx and ends with the sandbox itself. */
        mid = fork();
        if (mid < 0) {
                int k = negative_errno();
                close(ready[0]);
                close(ready[1]);
                close(pidpipe[0]);
                close(pidpipe[1]);
                return sbx_error_set(reterr, k, "egress resolver: fork");
        }
        if (mid == 0) {
                sigset_t none;
                int keep[] = { cfg->udp_fd, cfg->tcp_fd, cfg->sandbox_pidfd, cfg->nflog_fd, ready[1] };
                int devnull;
                pid_t p;

                sigemptyset(&none);
                (void) sigprocmask(SIG_SETMASK, &none, NULL);
                for (int s = 1; s < NSIG; s++)
                        (void) signal(s, SIG_DFL);
                (void) setsid();
                p = fork();
                if (p != 0) {
                        (void) !write(pidpipe[1], &p, sizeof(p));
                        _exit(p < 0);
                }
                /* everything but the fds it serves is closed */
                devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (devnull >= 0) {
                        dup2(devnull, 0);
                        dup2(devnull, 1);
                        dup2(devnull, 2);
                }
                for (int fd = 3; fd < 1024; fd++) {
                        bool k = false;
                        for (size_t i = 0; i < ELEMENTSOF(keep); i++)
                                k |= keep[i] == fd;
                        if (!k)
                                close(fd);
                }
                forwarder_main(cfg, ready[1]);
        }
        close(ready[1]);
        close(pidpipe[1]);
        (void) waitpid(mid, &status, 0);
        if (read(pidpipe[0], &pid, sizeof(pid)) != sizeof(pid) || pid <= 0) {
                close(pidpipe[0]);
                close(ready[0]);
                return sbx_error_set(reterr, -ECHILD, "egress resolver: could not start");
        }
        close(pidpipe[0]);
        {
                struct pollfd p = { .fd = ready[0], .events = POLLIN };
                if (poll(&p, 1, 5000) <= 0 || read(ready[0], &c, 1) != 1 || c != 'R') {
                        close(ready[0]);
                        (void) kill(pid, SIGKILL);
                        return sbx_error_set(reterr, -ECHILD, "egress resolver for network '%s' did not start "
                                             "(its record, the network directory or inotify)", cfg->network);
                }
        }
        close(ready[0]);
        *ret_pid = pid;
        return 0;
}

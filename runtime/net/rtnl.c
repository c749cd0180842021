/* SPDX-License-Identifier: MIT */
/* rtnetlink over libmnl: see rtnl.h. One request at a time, each waiting for
 * its ack (or the end of its dump) before the next is sent; messages are
 * matched by sequence number and port id so a stray multicast or a reply to an
 * earlier request can never be taken for ours. */
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "rtnl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct sbx_rtnl {
        struct mnl_socket *nl;
        unsigned portid;
        unsigned seq;
};

#define RTNL_BUF 32768

int sbx_rtnl_open(sbx_rtnl **ret, sbx_error *reterr) {
        _cleanup_free_ sbx_rtnl *r = calloc(1, sizeof(*r));
        int one = 1;

        if (!r)
                return sbx_error_set(reterr, -ENOMEM, "rtnetlink: out of memory");
        r->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
        if (!r->nl)
                return sbx_error_set(reterr, negative_errno(), "rtnetlink: open NETLINK_ROUTE socket");
        /* Best effort: with extended acks the kernel says *why* it refused. */
        (void) mnl_socket_setsockopt(r->nl, NETLINK_EXT_ACK, &one, sizeof(one));
        if (mnl_socket_bind(r->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
                int e = negative_errno();
                mnl_socket_close(r->nl);
                return sbx_error_set(reterr, e, "rtnetlink: bind");
        }
        r->portid = mnl_socket_get_portid(r->nl);
        r->seq = (unsigned) time(NULL);
        *ret = TAKE_PTR(r);
        return 0;
}

/* Safe because the launcher is single-threaded (asserted at its start): for
 * the few instructions between the two setns() calls no other code of ours
 * runs in the foreign namespace, and a netlink socket stays bound to the
 * namespace it was created in for its whole life. If switching back fails we
 * cannot go on in a foreign namespace, so that is fatal for the process. */
int sbx_rtnl_open_in(int netns_fd, sbx_rtnl **ret, sbx_error *reterr) {
        _cleanup_close_ int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        int r;

        if (self < 0)
                return sbx_error_set(reterr, negative_errno(), "open /proc/self/ns/net");
        if (setns(netns_fd, CLONE_NEWNET) < 0)
                return sbx_error_set(reterr, negative_errno(), "setns into the sandbox network namespace");
        r = sbx_rtnl_open(ret, reterr);
        if (setns(self, CLONE_NEWNET) < 0)
                abort();
        return r;
}

sbx_rtnl *sbx_rtnl_close(sbx_rtnl *r) {
        if (!r)
                return NULL;
        if (r->nl)
                mnl_socket_close(r->nl);
        free(r);
        return NULL;
}

static struct nlmsghdr *rtnl_msg(sbx_rtnl *r, char *buf, uint16_t type, uint16_t flags) {
        struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

        nlh->nlmsg_type = type;
        nlh->nlmsg_flags = NLM_F_REQUEST | flags;
        nlh->nlmsg_seq = ++r->seq;
        return nlh;
}

/* Error record -> negative errno; the extended-ack text (if any) into ext. */
static int rtnl_error(const struct nlmsghdr *nlh, char *ext, size_t extlen) {
        const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
        const struct nlattr *a;
        size_t off = sizeof(*e);

        if (e->error == 0)
                return 0;
        if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
                if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
                        off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
                mnl_attr_for_each(a, nlh, off)
                        if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
                            mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
                                snprintf(ext, extlen, " (%s)", mnl_attr_get_str(a));
        }
        return e->error < 0 ? e->error : -EIO;
}

/* Send nlh and read until its ack or the end of its dump; cb sees each data
 * message. Fills reterr with "what: <extack>" on failure. */
static int rtnl_talk(sbx_rtnl *r, struct nlmsghdr *nlh,
                     int (*cb)(const struct nlmsghdr *, void *), void *data,
                     const char *what, sbx_error *reterr) {
        char buf[RTNL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
        char ext[200] = "";
        unsigned seq = nlh->nlmsg_seq;
        /* NLM_F_DUMP is two bits, one of them shared with NLM_F_EXCL */
        bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;

        if (!dump)
                nlh->nlmsg_flags |= NLM_F_ACK;
        if (mnl_socket_sendto(r->nl, nlh, nlh->nlmsg_len) < 0)
                return sbx_error_set(reterr, negative_errno(), "rtnetlink: %s: send", what);
        for (;;) {
                ssize_t n = mnl_socket_recvfrom(r->nl, buf, sizeof(buf));
                const struct nlmsghdr *m = (const struct nlmsghdr *) buf;
                int len = (int) n;

                if (n < 0)
                        return sbx_error_set(reterr, negative_errno(), "rtnetlink: %s: receive", what);
                for (; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
                        int k;

                        if (m->nlmsg_seq != seq || m->nlmsg_pid != r->portid)
                                continue;
                        if (m->nlmsg_type == NLMSG_ERROR) {
                                k = rtnl_error(m, ext, sizeof(ext));
                                if (k < 0)
                                        return sbx_error_set(reterr, k, "rtnetlink: %s%s", what, ext);
                                if (!dump)
                                        return 0;
                                continue;
                        }
                        if (m->nlmsg_type == NLMSG_DONE)
                                return 0;
                        if (cb) {
                                k = cb(m, data);
                                if (k < 0)
                                        return sbx_error_set(reterr, k, "rtnetlink: %s", what);
                        }
                }
        }
}

/* ---- links ---- */

static void link_parse_linkinfo(const struct nlattr *li, sbx_link_info *l) {
        const struct nlattr *a;

        mnl_attr_for_each_nested(a, li)
                if (mnl_attr_get_type(a) == IFLA_INFO_KIND &&
                    mnl_attr_validate(a, MNL_TYPE_STRING) >= 0)
                        snprintf(l->kind, sizeof(l->kind), "%.*s",
                                 (int) mnl_attr_get_payload_len(a),
                                 (const char *) mnl_attr_get_payload(a));
}

static void link_parse(const struct nlmsghdr *m, sbx_link_info *l) {
        const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(m);
        const struct nlattr *a;

        memset(l, 0, sizeof(*l));
        l->ifindex = ifi->ifi_index;
        l->flags = ifi->ifi_flags;
        mnl_attr_for_each(a, m, sizeof(*ifi)) {
                unsigned plen = mnl_attr_get_payload_len(a);
                const char *p = mnl_attr_get_payload(a);

                switch (mnl_attr_get_type(a)) {
                case IFLA_IFNAME:
                        snprintf(l->name, sizeof(l->name), "%.*s", (int) strnlen(p, plen), p);
                        break;
                case IFLA_IFALIAS:
                        snprintf(l->alias, sizeof(l->alias), "%.*s", (int) strnlen(p, plen), p);
                        break;
                case IFLA_MTU:
                        if (plen >= 4)
                                l->mtu = mnl_attr_get_u32(a);
                        break;
                case IFLA_MASTER:
                        if (plen >= 4)
                                l->master = (int) mnl_attr_get_u32(a);
                        break;
                case IFLA_GROUP:
                        if (plen >= 4)
                                l->group = mnl_attr_get_u32(a);
                        break;
                case IFLA_LINKINFO:
                        link_parse_linkinfo(a, l);
                        break;
                default:
                        break;
                }
        }
}

struct link_dump {
        sbx_link_cb cb;
        void *userdata;
};

static int link_dump_cb(const struct nlmsghdr *m, void *data) {
        struct link_dump *d = data;
        sbx_link_info l;

        if (m->nlmsg_type != RTM_NEWLINK)
                return 0;
        link_parse(m, &l);
        return d->cb(&l, d->userdata);
}

/* A dump request of TYPE for FAMILY, its family-specific header HDR_LEN bytes (ifinfomsg, rtmsg:
 * each starts with the family byte, as rtgenmsg); each answer to CB. */
static int rtnl_dump(sbx_rtnl *r, uint16_t type, size_t hdr_len, unsigned char family,
                     int (*cb)(const struct nlmsghdr *, void *), void *data, const char *what,
                     sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, type, NLM_F_DUMP);
        struct rtgenmsg *g = mnl_nlmsg_put_extra_header(nlh, hdr_len);

        g->rtgen_family = family;
        return rtnl_talk(r, nlh, cb, data, what, reterr);
}

int sbx_rtnl_links(sbx_rtnl *r, sbx_link_cb cb, void *userdata, sbx_error *reterr) {
        struct link_dump d = { cb, userdata };

        return rtnl_dump(r, RTM_GETLINK, sizeof(struct ifinfomsg), AF_UNSPEC, link_dump_cb, &d, "list links",
                         reterr);
}

static int link_get_cb(const struct nlmsghdr *m, void *data) {
        if (m->nlmsg_type == RTM_NEWLINK)
                link_parse(m, data);
        return 0;
}

int sbx_rtnl_link_get(sbx_rtnl *r, const char *name, sbx_link_info *ret, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_GETLINK, 0);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
        sbx_link_info l = {};
        sbx_error ignored;
        int k;

        ifi->ifi_family = AF_UNSPEC;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
        /* A get answers with the link, then (we asked for one) an ack. */
        k = rtnl_talk(r, nlh, link_get_cb, &l, "get link", reterr ? reterr : &ignored);
        if (k == -ENODEV)
                return k;
        if (k < 0) {
                sbx_error_wrap(reterr, "link '%s'", name);
                return k;
        }
        if (l.ifindex <= 0)
                return -ENODEV;
        *ret = l;
        return 0;
}

int sbx_rtnl_link_set_alias(sbx_rtnl *r, const char *name, const char *alias, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_SETLINK, 0);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
        int k;

        ifi->ifi_family = AF_UNSPEC;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
        mnl_attr_put_strz(nlh, IFLA_IFALIAS, alias);
        k = rtnl_talk(r, nlh, NULL, NULL, "set alias", reterr);
        if (k < 0)
                sbx_error_wrap(reterr, "'%s'", name);
        return k;
}

int sbx_rtnl_bridge_add(sbx_rtnl *r, const char *name, const uint8_t mac[6], const char *alias,
                        sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
        struct nlattr *li;
        int k;

        ifi->ifi_family = AF_UNSPEC;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
        mnl_attr_put_u32(nlh, IFLA_GROUP, SBX_LINK_GROUP);
        mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac);
        li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
        mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
        mnl_attr_nest_end(nlh, li);
        k = rtnl_talk(r, nlh, NULL, NULL, "create bridge", reterr);
        if (k < 0) {
                sbx_error_wrap(reterr, "'%s'", name);
                return k;
        }
        /* IFLA_IFALIAS is only honoured by a change, not in a create request. */
        return alias ? sbx_rtnl_link_set_alias(r, name, alias, reterr) : 0;
}

int sbx_rtnl_veth_add(sbx_rtnl *r, const char *name, const char *peer, int peer_netns_fd,
                      const char *alias, unsigned mtu, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi)), *pifi;
        struct nlattr *li, *data, *pa;
        int k;

        ifi->ifi_family = AF_UNSPEC;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
        if (mtu > 0)
                mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
        li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
        mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
        data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
        /* VETH_INFO_PEER carries a struct ifinfomsg followed by the peer's attributes. */
        pa = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
        pifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*pifi));
        pifi->ifi_family = AF_UNSPEC;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
        if (mtu > 0)
                mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
        if (peer_netns_fd >= 0)
                mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t) peer_netns_fd);
        mnl_attr_nest_end(nlh, pa);
        mnl_attr_nest_end(nlh, data);
        mnl_attr_nest_end(nlh, li);
        k = rtnl_talk(r, nlh, NULL, NULL, "create veth pair", reterr);
        if (k < 0) {
                sbx_error_wrap(reterr, "'%s'/'%s'", name, peer);
                return k;
        }
        /* veth ignores IFLA_IFALIAS in the create request, so set it afterwards,
         * on this end only: the peer moves into the sandbox, which need not
         * learn our bookkeeping. */
        return alias ? sbx_rtnl_link_set_alias(r, name, alias, reterr) : 0;
        return 0;
}

int sbx_rtnl_link_del(sbx_rtnl *r, int ifindex, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_DELLINK, 0);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

        ifi->ifi_family = AF_UNSPEC;
        ifi->ifi_index = ifindex;
        return rtnl_talk(r, nlh, NULL, NULL, "delete link", reterr);
}

int sbx_rtnl_link_set(sbx_rtnl *r, int ifindex, const sbx_link_change *c, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_NEWLINK, 0);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

        ifi->ifi_family = AF_UNSPEC;
        ifi->ifi_index = ifindex;
        if (c->up) {
                ifi->ifi_flags = IFF_UP;
                ifi->ifi_change = IFF_UP;
        }
        if (c->master > 0)
                mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t) c->master);
        if (c->mtu > 0)
                mnl_attr_put_u32(nlh, IFLA_MTU, c->mtu);
        if (c->netns_fd >= 0)
                mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t) c->netns_fd);
        if (c->rename)
                mnl_attr_put_strz(nlh, IFLA_IFNAME, c->rename);
        return rtnl_talk(r, nlh, NULL, NULL, "change link", reterr);
}

int sbx_rtnl_brport_isolate(sbx_rtnl *r, int ifindex, bool isolated, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_SETLINK, 0);
        struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
        struct nlattr *pi;

        /* Bridge port options go to the bridge family as nested IFLA_PROTINFO. */
        ifi->ifi_family = AF_BRIDGE;
        ifi->ifi_index = ifindex;
        pi = mnl_attr_nest_start(nlh, IFLA_PROTINFO);
        mnl_attr_put_u8(nlh, IFLA_BRPORT_ISOLATED, isolated ? 1 : 0);
        mnl_attr_nest_end(nlh, pi);
        return rtnl_talk(r, nlh, NULL, NULL, "set bridge port isolation", reterr);
}

/* ---- addresses and routes ---- */

int sbx_rtnl_addr4_add(sbx_rtnl *r, int ifindex, struct in_addr a, unsigned prefixlen,
                       sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
        struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
        struct in_addr brd = a;

        ifa->ifa_family = AF_INET;
        ifa->ifa_prefixlen = (unsigned char) prefixlen;
        ifa->ifa_scope = RT_SCOPE_UNIVERSE;
        ifa->ifa_index = (unsigned) ifindex;
        if (prefixlen < 31)
                brd.s_addr |= htonl(prefixlen == 0 ? 0xffffffffu : (1u << (32 - prefixlen)) - 1);
        mnl_attr_put(nlh, IFA_LOCAL, sizeof(a), &a);
        mnl_attr_put(nlh, IFA_ADDRESS, sizeof(a), &a);
        if (prefixlen < 31)
                mnl_attr_put(nlh, IFA_BROADCAST, sizeof(brd), &brd);
        return rtnl_talk(r, nlh, NULL, NULL, "add address", reterr);
}

int sbx_rtnl_route4_default_add(sbx_rtnl *r, int ifindex, struct in_addr gateway,
                                sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE];
        struct nlmsghdr *nlh = rtnl_msg(r, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
        struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

        rtm->rtm_family = AF_INET;
        rtm->rtm_dst_len = 0;
        rtm->rtm_table = RT_TABLE_MAIN;
        rtm->rtm_protocol = RTPROT_BOOT;
        rtm->rtm_scope = RT_SCOPE_UNIVERSE;
        rtm->rtm_type = RTN_UNICAST;
        mnl_attr_put(nlh, RTA_GATEWAY, sizeof(gateway), &gateway);
        mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t) ifindex);
        return rtnl_talk(r, nlh, NULL, NULL, "add default route", reterr);
}

struct route_dump {
        sbx_route_cb cb;
        void *userdata;
};

static int route_dump_cb(const struct nlmsghdr *m, void *data) {
        struct route_dump *d = data;
        const struct rtmsg *rtm = mnl_nlmsg_get_payload(m);
        const struct nlattr *a;
        sbx_route_info ri = {};

        if (m->nlmsg_type != RTM_NEWROUTE || rtm->rtm_family != AF_INET)
                return 0;
        ri.dst_len = rtm->rtm_dst_len;
        ri.table = rtm->rtm_table;
        ri.type = rtm->rtm_type;
        mnl_attr_for_each(a, m, sizeof(*rtm)) {
                unsigned plen = mnl_attr_get_payload_len(a);

                switch (mnl_attr_get_type(a)) {
                case RTA_DST:
                        if (plen == 4)
                                memcpy(&ri.dst, mnl_attr_get_payload(a), 4);
                        break;
                case RTA_GATEWAY:
                        if (plen == 4)
                                memcpy(&ri.gateway, mnl_attr_get_payload(a), 4);
                        break;
                case RTA_OIF:
                        if (plen == 4)
                                ri.oif = (int) mnl_attr_get_u32(a);
                        break;
                case RTA_TABLE:
                        if (plen == 4)
                                ri.table = mnl_attr_get_u32(a);
                        break;
                default:
                        break;
                }
        }
        return d->cb(&ri, d->userdata);
}

int sbx_rtnl_routes4(sbx_rtnl *r, sbx_route_cb cb, void *userdata, sbx_error *reterr) {
        struct route_dump d = { cb, userdata };

        return rtnl_dump(r, RTM_GETROUTE, sizeof(struct rtmsg), AF_INET, route_dump_cb, &d, "list routes",
                         reterr);
}

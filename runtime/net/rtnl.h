/* SPDX-License-Identifier: MIT */
/* A small rtnetlink client over libmnl (issue 7): just the link, address and
 * route operations sbx needs for its bridge network. Every socket is opened
 * with mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC) in the network namespace
 * the calling thread is in (or in a given one, see sbx_rtnl_open_in()).
 * Fallible functions return 0 or a negative errno and fill reterr; the
 * kernel's extended ack text, when it sends one, is part of the message. */
#pragma once

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

typedef struct sbx_rtnl sbx_rtnl;

int sbx_rtnl_open(sbx_rtnl **ret, sbx_error *reterr);
/* Open the socket inside the network namespace netns_fd: setns there, open,
 * setns back. Needs CAP_SYS_ADMIN over that namespace; the caller must be
 * single-threaded (sbx's launcher is). */
int sbx_rtnl_open_in(int netns_fd, sbx_rtnl **ret, sbx_error *reterr);
sbx_rtnl *sbx_rtnl_close(sbx_rtnl *r);
static inline void sbx_rtnl_closep(sbx_rtnl **r) {
        if (*r)
                *r = sbx_rtnl_close(*r);
}

typedef struct sbx_link_info {
        int ifindex;
        int master;                      /* ifindex of the bridge, 0 = none */
        unsigned mtu;
        unsigned flags;                  /* IFF_* */
        char name[IFNAMSIZ];
        char kind[16];                   /* "bridge", "veth", ... ("" unknown) */
        char alias[128];                 /* IFLA_IFALIAS ("" none) */
        unsigned group;                  /* IFLA_GROUP (0 = the default group) */
} sbx_link_info;

/* The link group sbx puts its bridge in at creation (IFLA_GROUP is honoured in
 * a create request, the alias only afterwards): a bridge killed between the
 * two is still recognisable as sbx's. "sbx" in ASCII. */
#define SBX_LINK_GROUP 0x736278u

typedef struct sbx_route_info {
        struct in_addr dst;
        unsigned dst_len;
        struct in_addr gateway;          /* 0 = none */
        int oif;
        unsigned table;
        unsigned type;                   /* RTN_* */
} sbx_route_info;

typedef int (*sbx_link_cb)(const sbx_link_info *l, void *userdata);
typedef int (*sbx_route_cb)(const sbx_route_info *r, void *userdata);

/* Dumps: the callback returns 0 to go on, < 0 to stop with that error. It must
 * not send a request on the same socket (the reply loop would eat the dump). */
int sbx_rtnl_links(sbx_rtnl *r, sbx_link_cb cb, void *userdata, sbx_error *reterr);
int sbx_rtnl_routes4(sbx_rtnl *r, sbx_route_cb cb, void *userdata, sbx_error *reterr);
/* -ENODEV when there is no such link. */
int sbx_rtnl_link_get(sbx_rtnl *r, const char *name, sbx_link_info *ret, sbx_error *reterr);

/* mac: the bridge's own MAC address (6 bytes). Given at creation, the kernel
 * counts it as set (NET_ADDR_SET) and keeps it; a bridge with a random one
 * takes the lowest MAC of its ports instead and changes it whenever a port
 * comes or goes. */
int sbx_rtnl_bridge_add(sbx_rtnl *r, const char *name, const uint8_t mac[6], const char *alias,
                        sbx_error *reterr);
int sbx_rtnl_link_set_alias(sbx_rtnl *r, const char *name, const char *alias, sbx_error *reterr);
/* A veth pair: name in the socket's namespace, peer in peer_netns_fd (-1: the
 * same), mtu on both (0 = default), alias on the first end only. Creating the
 * peer in its namespace directly avoids a later move (which waits for RCU). */
int sbx_rtnl_veth_add(sbx_rtnl *r, const char *name, const char *peer, int peer_netns_fd,
                      const char *alias, unsigned mtu, sbx_error *reterr);
int sbx_rtnl_link_del(sbx_rtnl *r, int ifindex, sbx_error *reterr);

/* RTM_SETLINK pieces; fields left at their "unset" value are not sent. */
typedef struct sbx_link_change {
        int master;                      /* > 0: enslave to this ifindex */
        unsigned mtu;                    /* > 0 */
        bool up;
        int netns_fd;                    /* >= 0: move to this namespace */
        const char *rename;              /* new name (with netns_fd: the name over there) */
} sbx_link_change;
#define SBX_LINK_CHANGE_INIT { .netns_fd = -1 }
int sbx_rtnl_link_set(sbx_rtnl *r, int ifindex, const sbx_link_change *c, sbx_error *reterr);
/* IFLA_BRPORT_ISOLATED on a bridge port: isolated ports cannot talk to each other. */
int sbx_rtnl_brport_isolate(sbx_rtnl *r, int ifindex, bool isolated, sbx_error *reterr);

int sbx_rtnl_addr4_add(sbx_rtnl *r, int ifindex, struct in_addr a, unsigned prefixlen,
                       sbx_error *reterr);
int sbx_rtnl_route4_default_add(sbx_rtnl *r, int ifindex, struct in_addr gateway,
                                sbx_error *reterr);

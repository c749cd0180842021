/* SPDX-License-Identifier: MIT */
/* network "bridge" as root (issue 7): the sbx-owned bridge sbx0 with its own
 * range, one veth pair per sandbox, masquerading NAT (nft.c).
 *
 * Host state and why it is safe to create and remove:
 *  - sbx0 carries the alias "sbx:bridge subnet=S[ fwd=restore]" and every host
 *    veth end "sbx:veth pid=P start=T ip=A": sbx only ever deletes links that
 *    carry its alias, never a link it did not make. The alias also records the
 *    address a sandbox holds (allocation needs no state file) and the launcher
 *    that made it (P plus its start time T, so a recycled pid is not mistaken
 *    for a live owner).
 *  - The range is checked against every IPv4 route of the host namespace
 *    before the bridge is made; an overlap is refused with the route named,
 *    so sbx never shadows or hijacks a network the host already reaches.
 *  - net.ipv4.ip_forward must be 1 for NAT. If it was 0 we set it, note
 *    fwd=restore on the bridge, and set it back to 0 when the bridge goes.
 *    (Writing ip_forward also resets conf/all forwarding settings; the host is
 *    a router for as long as sandboxes on the bridge exist: see README.)
 *  - route_localnet is set on sbx0 only (for host-gateway -> host loopback);
 *    it disappears with the bridge.
 *  - sbx0 gets its own random MAC address when it is made (bridge_mac). A
 *    bridge without one takes the lowest MAC of its ports and changes it as
 *    ports come and go: stopping one sandbox then left every other one with
 *    the old gateway MAC in its ARP cache (REACHABLE, so not asked again for
 *    up to 45 s), and its packets to the gateway were dropped meanwhile.
 *  - All of it happens under an exclusive flock on /run/sbx/net.lock, and the
 *    last sandbox to leave (no port left on sbx0) removes bridge, table and
 *    the ip_forward change, so a clean host stays clean.
 * Ports are isolated (IFLA_BRPORT_ISOLATED): sandboxes cannot reach each other
 * at layer 2, and nft.c drops sbx0 -> sbx0 forwarding at layer 3. Set
 * SBX_BRIDGE_ISOLATE=0 to let sandboxes on the bridge talk to each other. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <linux/rtnetlink.h>
#include <unistd.h>

#include "util/util.h"
#include "net.h"
#include "nft.h"
#include "rtnl.h"

#define BRIDGE_NAME "sbx0"
#define BRIDGE_DEFAULT_SUBNET "10.237.0.0/16"
#define ALIAS_BRIDGE "sbx:bridge"
#define ALIAS_BRIDGE_INIT "sbx:bridge-init"   /* while bridge_create() runs */
#define ALIAS_VETH "sbx:veth"
#define LOCK_DIR "/run/sbx"
#define LOCK_PATH LOCK_DIR "/net.lock"

typedef struct subnet {
        struct in_addr net;              /* network byte order */
        unsigned len;
        char text[INET_ADDRSTRLEN + 4];
} subnet;

static uint32_t mask_of(unsigned len) {
        return len == 0 ? 0 : 0xffffffffu << (32 - len);
}

static int subnet_parse(const char *s, subnet *ret, sbx_error *reterr) {
        char addr[INET_ADDRSTRLEN];
        const char *slash = strchr(s, '/');
        char *end;
        unsigned long len;
        subnet n = {};

        if (!slash || (size_t) (slash - s) >= sizeof(addr))
                goto bad;
        memcpy(addr, s, (size_t) (slash - s));
        addr[slash - s] = '\0';
        errno = 0;
        len = strtoul(slash + 1, &end, 10);
        if (errno || *end || end == slash + 1 || len < 8 || len > 29 ||
            inet_pton(AF_INET, addr, &n.net) != 1)
                goto bad;
        if (ntohl(n.net.s_addr) & ~mask_of((unsigned) len))
                return sbx_error_set(reterr, -EINVAL,
                                     "SBX_BRIDGE_SUBNET '%s': host bits are set (did you mean %s/%lu "
                                     "with the last bits zero?)", s, addr, len);
        n.len = (unsigned) len;
        snprintf(n.text, sizeof(n.text), "%s/%u", addr, n.len);
        *ret = n;
        return 0;
bad:
        return sbx_error_set(reterr, -EINVAL,
                             "SBX_BRIDGE_SUBNET '%s': expected an IPv4 range A.B.C.D/LEN with LEN 8..29", s);
}

static bool prefixes_overlap(struct in_addr a, unsigned alen, struct in_addr b, unsigned blen) {
        uint32_t m = mask_of(alen < blen ? alen : blen);

        return (ntohl(a.s_addr) & m) == (ntohl(b.s_addr) & m);
}

/* Start time of a live process, 0 if it is gone or a zombie: a SIGKILLed
 * launcher whose parent has not reaped it yet owns nothing. */
static unsigned long long proc_starttime(pid_t pid) {
        uint64_t t;

        return sbx_proc_start_time(pid, &t) < 0 ? 0 : (unsigned long long) t;
}

static bool owner_alive(const char *alias) {
        unsigned long long start;
        int pid;

        if (sscanf(alias, ALIAS_VETH " pid=%d start=%llu", &pid, &start) != 2 || pid <= 0)
                return false;
        return proc_starttime(pid) == start;
}

static int write_sysctl(const char *path, const char *value) {
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);

        if (fd < 0)
                return negative_errno();
        if (write(fd, value, strlen(value)) != (ssize_t) strlen(value))
                return negative_errno();
        return 0;
}

/* No IPv6 on the host side of the bridge: the nft table filters IPv4 only,
 * and with IPv6 on, a sandbox could reach host services bound to [::] at the
 * bridge's link-local address. With disable_ipv6 the host stack drops every
 * IPv6 packet arriving on the interface. Absent file = no IPv6 in this kernel. */
static int disable_ipv6(const char *ifname, sbx_error *reterr) {
        char path[128];
        int k;

        snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
        k = write_sysctl(path, "1");
        if (k < 0 && k != -ENOENT)
                return sbx_error_set(reterr, k, "write %s", path);
        return 0;
}

static int read_sysctl_char(const char *path) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        char c;

        if (fd < 0 || read(fd, &c, 1) != 1)
                return -EIO;
        return c;
}

int sbx_net_lock(sbx_error *reterr) {
        int fd;

        if (mkdir(LOCK_DIR, 0755) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, negative_errno(), "create %s", LOCK_DIR);
        fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
                return sbx_error_set(reterr, negative_errno(), "open %s", LOCK_PATH);
        if (flock(fd, LOCK_EX) < 0) {
                int e = negative_errno();
                close(fd);
                return sbx_error_set(reterr, e, "lock %s", LOCK_PATH);
        }
        return fd;
}

/* ---- scanning the host namespace ---- */

typedef struct scan {
        int bridge_ifindex;
        unsigned ports;                  /* links enslaved to the bridge */
        uint8_t *used;                   /* one byte per host number in the range */
        size_t n_used;
        subnet sn;
        /* route clash / default route */
        const sbx_route_info *clash;
        sbx_route_info clash_copy;
        int default_oif;
        struct in_addr default_gw;
        int stale[64];                   /* gc: ifindexes to delete after the dump */
        size_t n_stale;
} scan;

static int scan_link(const sbx_link_info *l, void *userdata) {
        scan *s = userdata;
        char ip[INET_ADDRSTRLEN];
        const char *p;
        struct in_addr a;

        if (s->bridge_ifindex > 0 && l->master == s->bridge_ifindex)
                s->ports++;
        if (strncmp(l->alias, ALIAS_VETH " ", strlen(ALIAS_VETH) + 1) != 0)
                return 0;
        p = strstr(l->alias, " ip=");
        if (s->used && p && sscanf(p + 4, "%15s", ip) == 1 && inet_pton(AF_INET, ip, &a) == 1 &&
            prefixes_overlap(a, 32, s->sn.net, s->sn.len)) {
                size_t host = ntohl(a.s_addr) & ~mask_of(s->sn.len);
                if (host < s->n_used)
                        s->used[host] = 1;
        }
        return 0;
}

/* Stale: an sbx veth whose launcher is gone (SIGKILLed, or finished while its
 * pair was still dying with the sandbox's namespace). Collected during the
 * dump and deleted after it: a request sent on the socket while its dump is
 * still being read would swallow the rest of the dump. */
static int gc_collect(const sbx_link_info *l, void *userdata) {
        scan *s = userdata;

        if (strncmp(l->alias, ALIAS_VETH " ", strlen(ALIAS_VETH) + 1) == 0 && !owner_alive(l->alias) &&
            s->n_stale < ELEMENTSOF(s->stale))
                s->stale[s->n_stale++] = l->ifindex;
        return 0;
}

static void gc_stale(sbx_rtnl *r) {
        scan s = {};

        if (sbx_rtnl_links(r, gc_collect, &s, NULL) < 0)
                return;
        for (size_t i = 0; i < s.n_stale; i++)
                (void) sbx_rtnl_link_del(r, s.stale[i], NULL);
}

static int scan_route(const sbx_route_info *r, void *userdata) {
        scan *s = userdata;

        if (r->dst_len == 0) {
                if (r->table == RT_TABLE_MAIN && s->default_oif == 0 && r->oif > 0) {
                        s->default_oif = r->oif;
                        s->default_gw = r->gateway;
                }
                return 0;
        }
        if (r->oif > 0 && r->oif == s->bridge_ifindex)
                return 0;
        if (!s->clash && prefixes_overlap(r->dst, r->dst_len, s->sn.net, s->sn.len)) {
                s->clash_copy = *r;
                s->clash = &s->clash_copy;
        }
        return 0;
}

static int routes_scan(sbx_rtnl *r, scan *s, sbx_error *reterr) {
        s->clash = NULL;
        s->default_oif = 0;
        return sbx_rtnl_routes4(r, scan_route, s, reterr);
}

/* ---- the bridge ---- */

/* The upper half of the range: addresses for sandboxes that asked for
 * host-gateway, the only ones nft.c lets reach the host. */
static void hostgw_range(const subnet *sn, char *ret, size_t len) {
        struct in_addr upper = { htonl(ntohl(sn->net.s_addr) + (1u << (31 - sn->len))) };
        char a[INET_ADDRSTRLEN];

        inet_ntop(AF_INET, &upper, a, sizeof(a));
        snprintf(ret, len, "%s/%u", a, sn->len + 1);
}

/* A random, locally administered unicast MAC address for sbx0 (see the top). */
static int bridge_mac(uint8_t mac[6], sbx_error *reterr) {
        if (getrandom(mac, 6, 0) != 6)
                return sbx_error_set(reterr, negative_errno(), "getrandom (MAC address of bridge %s)",
                                     BRIDGE_NAME);
        mac[0] = (uint8_t) ((mac[0] & 0xfe) | 0x02);
        return 0;
}

static int bridge_create(sbx_rtnl *r, const subnet *sn, struct in_addr gw, sbx_link_info *ret,
                         sbx_error *reterr) {
        char alias[128], gwtext[INET_ADDRSTRLEN], hostgw[INET_ADDRSTRLEN + 4], path[128];
        sbx_link_change up = SBX_LINK_CHANGE_INIT;
        scan s = { .sn = *sn };
        bool restore_fwd = false;
        uint8_t mac[6];
        int k, fwd;

        /* Refuse a range the host already routes: we would shadow it. */
        k = routes_scan(r, &s, reterr);
        if (k < 0)
                return k;
        if (s.clash) {
                char dst[INET_ADDRSTRLEN], dev[IF_NAMESIZE] = "?";
                inet_ntop(AF_INET, &s.clash->dst, dst, sizeof(dst));
                if (s.clash->oif > 0)
                        (void) if_indextoname((unsigned) s.clash->oif, dev);
                return sbx_error_set(reterr, -EADDRINUSE,
                                     "bridge range %s overlaps the host route %s/%u dev %s (table %u); "
                                     "set SBX_BRIDGE_SUBNET to a free IPv4 range",
                                     sn->text, dst, s.clash->dst_len, dev, s.clash->table);
        }
        k = bridge_mac(mac, reterr);
        if (k < 0)
                return k;
        fwd = read_sysctl_char("/proc/sys/net/ipv4/ip_forward");
        if (fwd < 0)
                return sbx_error_set(reterr, fwd, "read /proc/sys/net/ipv4/ip_forward");
        restore_fwd = fwd == '0';
        /* The table first, so that "bridge exists" implies "table exists" even
         * if we are killed half-way (its rules match the bridge by name). */
        inet_ntop(AF_INET, &gw, gwtext, sizeof(gwtext));
        hostgw_range(sn, hostgw, sizeof(hostgw));
        k = sbx_nft_setup(BRIDGE_NAME, sn->text, gwtext, hostgw, reterr);
        if (k < 0)
                return k;
        /* "being made" until every step below is done: a bridge left by a
         * kill in between is recognised and discarded (bridge_half_made) */
        snprintf(alias, sizeof(alias), ALIAS_BRIDGE_INIT " subnet=%s%s", sn->text,
                 restore_fwd ? " fwd=restore" : "");
        k = sbx_rtnl_bridge_add(r, BRIDGE_NAME, mac, alias, reterr);
        if (k < 0) {
                (void) sbx_nft_remove(NULL);
                return k;
        }
        k = sbx_rtnl_link_get(r, BRIDGE_NAME, ret, reterr);
        if (k < 0)
                return k;
        up.up = true;
        k = disable_ipv6(BRIDGE_NAME, reterr);
        if (k >= 0)
                k = sbx_rtnl_addr4_add(r, ret->ifindex, gw, sn->len, reterr);
        if (k >= 0)
                k = sbx_rtnl_link_set(r, ret->ifindex, &up, reterr);
        if (k < 0)
                goto fail;
        snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/route_localnet", BRIDGE_NAME);
        k = write_sysctl(path, "1");
        if (k < 0) {
                sbx_error_set(reterr, k, "write %s", path);
                goto fail;
        }
        if (restore_fwd) {
                k = write_sysctl("/proc/sys/net/ipv4/ip_forward", "1");
                if (k < 0) {
                        sbx_error_set(reterr, k, "write /proc/sys/net/ipv4/ip_forward");
                        goto fail;
                }
        }
        snprintf(alias, sizeof(alias), ALIAS_BRIDGE " subnet=%s%s", sn->text, restore_fwd ? " fwd=restore" : "");
        k = sbx_rtnl_link_set_alias(r, BRIDGE_NAME, alias, reterr);
        if (k < 0)
                goto fail;
        return 0;
fail:
        (void) sbx_nft_remove(NULL);
        (void) sbx_rtnl_link_del(r, ret->ifindex, NULL);
        return k;
}

/* A bridge whose bridge_create() did not finish (its sbx was killed): in
 * sbx's link group without an alias yet, or still "being made". It has no
 * port (ports come only after a finished create). */
static bool bridge_half_made(const sbx_link_info *br) {
        return (br->group == SBX_LINK_GROUP && !br->alias[0]) ||
               strncmp(br->alias, ALIAS_BRIDGE_INIT, strlen(ALIAS_BRIDGE_INIT)) == 0;
}

/* Lock held. The table goes first, as in bridge_create()'s failure path. */
static int bridge_discard_half_made(sbx_rtnl *r, const sbx_link_info *br, sbx_error *reterr) {
        int k;

        k = sbx_nft_remove(reterr);
        if (k < 0)
                return k;
        k = sbx_rtnl_link_del(r, br->ifindex, reterr);
        if (k < 0)
                return k;
        /* It was 0 before that create (which may or may not have set it). */
        if (strstr(br->alias, " fwd=restore"))
                return write_sysctl("/proc/sys/net/ipv4/ip_forward", "0");
        return 0;
}

/* Remove bridge, table and our ip_forward change if no port is left; ports
 * whose launcher is gone are deleted first. Lock held. */
static int bridge_remove_if_unused(sbx_rtnl *r, sbx_error *reterr) {
        sbx_link_info br;
        scan s = {};
        int k;

        gc_stale(r);
        k = sbx_rtnl_link_get(r, BRIDGE_NAME, &br, NULL);
        if (k == -ENODEV) {
                /* Table without bridge (a crash mid-setup): drop it too. */
                if (sbx_nft_present(NULL) == 1)
                        return sbx_nft_remove(reterr);
                return 0;
        }
        if (k < 0)
                return 0;
        if (bridge_half_made(&br))
                return bridge_discard_half_made(r, &br, reterr);
        if (strncmp(br.alias, ALIAS_BRIDGE " ", strlen(ALIAS_BRIDGE) + 1) != 0)
                return 0;
        s.bridge_ifindex = br.ifindex;
        k = sbx_rtnl_links(r, scan_link, &s, reterr);
        if (k < 0 || s.ports > 0)
                return k;
        k = sbx_nft_remove(reterr);
        if (k < 0)
                return k;
        k = sbx_rtnl_link_del(r, br.ifindex, reterr);
        if (k < 0)
                return k;
        if (strstr(br.alias, " fwd=restore"))
                return write_sysctl("/proc/sys/net/ipv4/ip_forward", "0");
        return 0;
}

static int bridge_ensure(sbx_rtnl *r, const subnet *sn, struct in_addr gw, sbx_link_info *ret,
                         sbx_error *reterr) {
        char want[64];
        int k;

        k = sbx_rtnl_link_get(r, BRIDGE_NAME, ret, reterr);
        if (k >= 0 && bridge_half_made(ret)) {
                k = bridge_discard_half_made(r, ret, reterr);
                if (k < 0)
                        return k;
                k = -ENODEV;
        }
        if (k == -ENODEV)
                return bridge_create(r, sn, gw, ret, reterr);
        if (k < 0)
                return k;
        if (strncmp(ret->alias, ALIAS_BRIDGE " ", strlen(ALIAS_BRIDGE) + 1) != 0)
                return sbx_error_set(reterr, -EEXIST,
                                     "a link named '%s' exists that sbx did not create; "
                                     "remove or rename it to use network 'bridge'", BRIDGE_NAME);
        snprintf(want, sizeof(want), "subnet=%s", sn->text);
        if (!strstr(ret->alias, want))
                return sbx_error_set(reterr, -EEXIST,
                                     "bridge %s is in use with another range (%s) than "
                                     "SBX_BRIDGE_SUBNET %s; wait for its sandboxes to end",
                                     BRIDGE_NAME, ret->alias, sn->text);
        return 0;
}

/* Lowest free address: from the lower half for ordinary sandboxes, from the
 * upper half (hostgw_range) for those that asked for host-gateway. */
static int addr_allocate(sbx_rtnl *r, const subnet *sn, bool host_gateway, struct in_addr *ret,
                         sbx_error *reterr) {
        size_t n = (size_t) 1 << (32 - sn->len), half = n / 2;
        scan s = { .sn = *sn };
        _cleanup_free_ uint8_t *used = calloc(n, 1);
        int k;

        if (!used)
                return sbx_error_set(reterr, -ENOMEM, "allocate bridge address");
        s.used = used;
        s.n_used = n;
        k = sbx_rtnl_links(r, scan_link, &s, reterr);
        if (k < 0)
                return k;
        /* .0 network, .1 the bridge, last broadcast */
        for (size_t h = host_gateway ? half : 2; h < (host_gateway ? n - 1 : half); h++)
                if (!used[h]) {
                        ret->s_addr = htonl(ntohl(sn->net.s_addr) + (uint32_t) h);
                        return 0;
                }
        return sbx_error_set(reterr, -ENOSPC, "bridge range %s is full (%zu sandboxes%s); "
                             "set SBX_BRIDGE_SUBNET to a larger range", sn->text,
                             host_gateway ? n - 1 - half : half - 2,
                             host_gateway ? " with host-gateway" : "");
}

static unsigned default_mtu(sbx_rtnl *r) {
        char name[IF_NAMESIZE];
        sbx_link_info l;
        scan s = {};

        if (routes_scan(r, &s, NULL) < 0 || s.default_oif <= 0 ||
            !if_indextoname((unsigned) s.default_oif, name) ||
            sbx_rtnl_link_get(r, name, &l, NULL) < 0 || l.mtu < 576)
                return 1500;
        return l.mtu;
}

/* The lock every sbx creating or removing bridge state takes (serialised), then a netlink socket. */
static int lock_rtnl(int *ret_lock, sbx_rtnl **ret, sbx_error *reterr) {
        *ret_lock = sbx_net_lock(reterr);
        return *ret_lock < 0 ? *ret_lock : sbx_rtnl_open(ret, reterr);
}

/* Parent, before clone: bridge + table exist, address and names decided; the
 * lock stays held (in p->bridge_lock) until attach has made the veth, so no
 * other sbx can take the same address or remove the bridge in between. */
int sbx_bridge_prepare(sbx_net_plan *p, sbx_error *reterr) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *r = NULL;
        _cleanup_close_ int lock = -EBADF;
        const char *env = getenv("SBX_BRIDGE_SUBNET");
        sbx_link_info br;
        subnet sn;
        int k;

        k = subnet_parse(env && *env ? env : BRIDGE_DEFAULT_SUBNET, &sn, reterr);
        if (k < 0)
                return k;
        k = lock_rtnl(&lock, &r, reterr);
        if (k < 0)
                return k;
        /* veths of SIGKILLed runs go first, so their addresses are free again */
        gc_stale(r);
        p->gateway.s_addr = htonl(ntohl(sn.net.s_addr) + 1);
        p->prefixlen = sn.len;
        k = bridge_ensure(r, &sn, p->gateway, &br, reterr);
        if (k >= 0)
                k = addr_allocate(r, &sn, p->host_gateway, &p->addr, reterr);
        if (k < 0) {
                sbx_error_wrap(reterr, "network bridge");
                (void) bridge_remove_if_unused(r, NULL);
                return k;
        }
        p->mtu = default_mtu(r);
        snprintf(p->bridge, sizeof(p->bridge), "%s", BRIDGE_NAME);
        snprintf(p->host_if, sizeof(p->host_if), "sbxv%d", (int) getpid());
        inet_ntop(AF_INET, &p->gateway, p->gateway_addr, sizeof(p->gateway_addr));
        p->bridge_lock = TAKE_FD(lock);
        return 0;
}

/* Parent, after clone, before the child is released: the veth pair with its
 * peer made directly in the sandbox as eth0, the host end on the bridge
 * (isolated port, no IPv6), then eth0 configured from inside (address, up,
 * default route). */
int sbx_bridge_attach(sbx_net_plan *p, pid_t child, int netns_fd, sbx_error *reterr) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *host = NULL, *sb = NULL;
        sbx_link_change ch = SBX_LINK_CHANGE_INIT, up = SBX_LINK_CHANGE_INIT;
        const char *iso = getenv("SBX_BRIDGE_ISOLATE");
        char alias[128], ip[INET_ADDRSTRLEN];
        /* The owner whose death makes the veth stale: this launcher for a
         * one-shot run, the sandbox's pid 1 for a persistent sandbox (which
         * outlives us); the host end is named after it, so names stay unique
         * among live owners. */
        pid_t owner = p->persistent ? child : getpid();
        unsigned long long start = proc_starttime(owner);
        sbx_link_info br, l;
        int k;

        if (start == 0)
                return sbx_error_set(reterr, -ESRCH, "network bridge: the sandbox's process %d is gone",
                                     (int) owner);
        snprintf(p->host_if, sizeof(p->host_if), "sbxv%d", (int) owner);
        inet_ntop(AF_INET, &p->addr, ip, sizeof(ip));
        snprintf(alias, sizeof(alias), ALIAS_VETH " pid=%d start=%llu ip=%s", (int) owner, start, ip);
        k = sbx_rtnl_open(&host, reterr);
        if (k >= 0)
                k = sbx_rtnl_link_get(host, BRIDGE_NAME, &br, reterr);
        if (k >= 0)
                k = sbx_rtnl_veth_add(host, p->host_if, "eth0", netns_fd, alias, p->mtu, reterr);
        if (k >= 0)
                k = sbx_rtnl_link_get(host, p->host_if, &l, reterr);
        if (k >= 0)
                k = disable_ipv6(p->host_if, reterr);
        ch.master = br.ifindex;
        ch.up = true;
        if (k >= 0)
                k = sbx_rtnl_link_set(host, l.ifindex, &ch, reterr);
        if (k >= 0)
                k = sbx_rtnl_brport_isolate(host, l.ifindex, !(iso && strcmp(iso, "0") == 0), reterr);
        /* an allowlist network: its rules and resolver before the child runs,
         * under the lock (a stale veth name's state is not removed meanwhile) */
        if (k >= 0 && p->egress)
                k = sbx_egress_attach(p, child, owner, start, l.ifindex, reterr);
        else if (k >= 0)
                sbx_egress_clear_stale(p->host_if, p->addr);
        /* the veth carries its address in its alias now: others may allocate */
        closep(&p->bridge_lock);
        p->bridge_lock = -EBADF;
        if (k >= 0)
                k = sbx_rtnl_open_in(netns_fd, &sb, reterr);
        if (k >= 0)
                k = sbx_rtnl_link_get(sb, "eth0", &l, reterr);
        if (k >= 0)
                k = sbx_rtnl_addr4_add(sb, l.ifindex, p->addr, p->prefixlen, reterr);
        up.up = true;
        if (k >= 0)
                k = sbx_rtnl_link_set(sb, l.ifindex, &up, reterr);
        if (k >= 0)
                k = sbx_rtnl_route4_default_add(sb, l.ifindex, p->gateway, reterr);
        if (k < 0)
                sbx_error_wrap(reterr, "network bridge: attach eth0");
        return k < 0 ? k : 0;
}

void sbx_bridge_cleanup(sbx_net_plan *p) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *r = NULL;
        _cleanup_close_ int lock = -EBADF;
        sbx_link_info l, br;
        scan s = {};

        if (!p->bridge[0])
                return;
        if (p->bridge_lock >= 0) {
                /* prepared, never attached: we still hold the lock */
                lock = TAKE_FD(p->bridge_lock);
        } else
                lock = sbx_net_lock(NULL);
        if (sbx_rtnl_open(&r, NULL) < 0)
                return;
        /* ports of launchers that are gone must not keep the bridge alive */
        gc_stale(r);
        /* Our pair dies with the sandbox's namespace, which the kernel frees
         * asynchronously. Deleting it ourselves costs an RCU grace period, so
         * do it only when the bridge is to go with it (no other port);
         * otherwise any run's gc deletes it once we are gone. */
        if (p->host_if[0] && sbx_rtnl_link_get(r, p->host_if, &l, NULL) >= 0 &&
            sbx_rtnl_link_get(r, BRIDGE_NAME, &br, NULL) >= 0) {
                s.bridge_ifindex = br.ifindex;
                if (sbx_rtnl_links(r, scan_link, &s, NULL) >= 0 && s.ports <= 1)
                        (void) sbx_rtnl_link_del(r, l.ifindex, NULL);
        }
        if (s.ports <= 1)
                (void) bridge_remove_if_unused(r, NULL);
        p->bridge[0] = p->host_if[0] = '\0';
}

int sbx_bridge_gc(sbx_error *reterr) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *r = NULL;
        _cleanup_close_ int lock = -EBADF;
        int k;

        k = lock_rtnl(&lock, &r, reterr);
        return k < 0 ? k : bridge_remove_if_unused(r, reterr);
}

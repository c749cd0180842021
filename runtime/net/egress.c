/* SPDX-License-Identifier: MIT */
/* A sandbox on a network with an egress allowlist (issue 18), as root: at
 * attach, with the veth made and the child not yet released, its nft chain
 * and sets (nft.c: everything refused until the resolver adds addresses),
 * the resolver's sockets inside its network namespace (127.0.0.53:53, UDP
 * and TCP; /etc/resolv.conf names only that), and the resolver process
 * (dns.c). At cleanup the resolver is stopped and the nft state removed. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "net.h"
#include "nft.h"
#include "rtnl.h"
#include "util/util.h"

/* nflog groups for refused connections: one per sandbox, from its veth's
 * ifindex (unique among the host's live links) */
#define LOG_GROUP_BASE 0x8000u

/* In the child inside the sandbox: the resolver's UDP and TCP sockets on
 * 127.0.0.53:53 and, for pasta, the nflog socket (the refused connections
 * are logged in there). lo comes up later, in the sandbox: bind before its
 * address exists (IP_FREEBIND). Port 53: we hold CAP_NET_BIND_SERVICE here. */
struct sockets_in {
        bool nflog;
};

static int sockets_child(int sock, void *userdata) {
        struct sockets_in *in = userdata;
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(53) };
        struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
        int one = 1, fds[3];
        size_t n = 2;

        inet_pton(AF_INET, SBX_EGRESS_RESOLVER, &sa.sin_addr);
        fds[0] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        fds[1] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fds[0] < 0 || fds[1] < 0 ||
            setsockopt(fds[0], SOL_IP, IP_FREEBIND, &one, sizeof(one)) < 0 ||
            setsockopt(fds[1], SOL_IP, IP_FREEBIND, &one, sizeof(one)) < 0 ||
            setsockopt(fds[1], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
            bind(fds[0], (struct sockaddr *) &sa, sizeof(sa)) < 0 || bind(fds[1], (struct sockaddr *) &sa, sizeof(sa)) < 0 ||
            listen(fds[1], 16) < 0)
                return sbx_ns_reply(sock, NULL, 0, "egress resolver: listen on " SBX_EGRESS_RESOLVER ":53 in the sandbox");
        if (in->nflog) {
                fds[2] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_NETFILTER);
                if (fds[2] < 0 || bind(fds[2], (struct sockaddr *) &nl, sizeof(nl)) < 0)
                        return sbx_ns_reply(sock, NULL, 0, "egress resolver: netlink socket in the sandbox");
                n = 3;
        }
        return sbx_ns_reply(sock, fds, n, NULL);
}

/* ---- stale host state ----
 * A sandbox's host-side egress state is keyed by its address (the map
 * element) and its veth name (the bridge-port element). Its resolver removes
 * it when the sandbox ends; if the resolver was killed first, the state
 * stays and would restrict (or drop the traffic of) the next sandbox that
 * gets the same address or name. So each key has a marker file under
 * /run/sbx/egress ("a-ADDR", "i-IFNAME", holding "IFNAME ADDR"), written at
 * setup and removed with the state; a plain bridged sandbox removes the
 * state its keys' markers name before it runs. Under the net lock. */
#define MARKER_DIR "/run/sbx/egress"

static void marker_path(char *buf, size_t len, char kind, const char *key) {
        snprintf(buf, len, MARKER_DIR "/%c-%s", kind, key);
}

static void markers_write(const char *ifname, const char *addr) {
        char path[128], text[64];
        int n = snprintf(text, sizeof(text), "%s %s\n", ifname, addr);

        (void) mkdir(MARKER_DIR, 0700);
        marker_path(path, sizeof(path), 'a', addr);
        (void) sbx_write_file_atomic(path, text, (size_t) n, 0600, false);
        marker_path(path, sizeof(path), 'i', ifname);
        (void) sbx_write_file_atomic(path, text, (size_t) n, 0600, false);
}

static void markers_remove(const char *ifname, const char *addr) {
        char path[128];

        marker_path(path, sizeof(path), 'a', addr);
        (void) unlink(path);
        marker_path(path, sizeof(path), 'i', ifname);
        (void) unlink(path);
}

void sbx_egress_clear_stale(const char *ifname, struct in_addr addr) {
        char ip[INET_ADDRSTRLEN], path[128], text[64], old_if[SBX_IFNAMSIZ], old_ip[INET_ADDRSTRLEN];
        const char *keys[2];

        inet_ntop(AF_INET, &addr, ip, sizeof(ip));
        keys[0] = ip;
        keys[1] = ifname;
        for (size_t i = 0; i < 2; i++) {
                _cleanup_close_ int fd = -EBADF;
                ssize_t n;

                marker_path(path, sizeof(path), i == 0 ? 'a' : 'i', keys[i]);
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                if (fd < 0)
                        continue;       /* the common case: one failed open, nothing else */
                n = read(fd, text, sizeof(text) - 1);
                text[n > 0 ? n : 0] = '\0';
                if (sscanf(text, "%15s %15s", old_if, old_ip) == 2 &&
                    sbx_nft_egress_remove(old_if, old_ip, NULL) >= 0)
                        markers_remove(old_if, old_ip);
        }
}

int sbx_egress_attach(sbx_net_plan *p, pid_t child, pid_t owner, uint64_t owner_start, int ifindex,
                      sbx_error *reterr) {
        bool inside = p->kind == SBX_NET_KIND_PASTA;
        /* refused connections: an nflog group per sandbox; on the host from its
         * veth's ifindex (unique among live links), inside its own namespace any */
        unsigned group = inside ? LOG_GROUP_BASE : LOG_GROUP_BASE | ((unsigned) ifindex & 0x7fffu);
        struct sockets_in in = { .nflog = inside };
        int fds[3] = { -EBADF, -EBADF, -EBADF };
        _cleanup_close_ int pidfd = -EBADF;
        char addr[INET_ADDRSTRLEN];
        sbx_dns_forwarder f = {
                .network = p->network,
                .ifname = p->host_if,
                .addr = p->addr,
                .log_group = group,
                .owner = owner,
                .owner_start = owner_start,
                .audit_path = p->audit_path[0] ? p->audit_path : NULL,
                .agent = p->audit_agent[0] ? p->audit_agent : NULL,
                .session = p->audit_session[0] ? p->audit_session : NULL,
                .scope_key = p->audit_scope[0] ? p->audit_scope : NULL,
                .sandbox = p->audit_sandbox[0] ? p->audit_sandbox : NULL,
        };
        int k;

        /* rules first: everything refused until the resolver adds addresses */
        if (inside) {
                sbx_egress_nft_inside(&f.nft, child);
                k = sbx_nft_egress_setup_inside(&f.nft, group, reterr);
        } else {
                sbx_egress_nft_host(&f.nft, p->host_if);
                inet_ntop(AF_INET, &p->addr, addr, sizeof(addr));
                k = sbx_nft_egress_setup(p->host_if, addr, "", group, reterr);
                if (k >= 0)
                        markers_write(p->host_if, addr);
        }
        if (k < 0)
                return sbx_error_wrap(reterr, "network '%s'", p->network);
        p->egress_set = !inside;
        k = sbx_ns_run(child, sockets_child, &in, fds, inside ? 3 : 2, reterr);
        if (k < 0)
                return k;
        f.udp_fd = fds[0];
        f.tcp_fd = fds[1];
        f.nflog_fd = inside ? fds[2] : -EBADF;
        pidfd = (int) syscall(SYS_pidfd_open, child, 0);
        if (pidfd < 0)
                k = sbx_error_set(reterr, negative_errno(), "egress resolver: pidfd_open(%d)", (int) child);
        else {
                f.sandbox_pidfd = pidfd;
                k = sbx_dns_forwarder_start(&f, &p->dns_pid, reterr);
        }
        for (size_t i = 0; i < ELEMENTSOF(fds); i++)
                closep(&fds[i]);
        if (k < 0)
                return k;
        p->dns_pidfd = (int) syscall(SYS_pidfd_open, p->dns_pid, 0);
        p->egress_owner = owner;
        p->egress_owner_start = owner_start;
        return 0;
}

typedef struct claim {
        const char *ifname, *ip, *mine;
        bool other;
} claim;

static int claim_link(const sbx_link_info *l, void *userdata) {
        claim *c = userdata;
        const char *ip = strstr(l->alias, " ip=");

        if (strncmp(l->alias, "sbx:veth ", 9) != 0 || strstr(l->alias, c->mine))
                return 0;
        if (strcmp(l->name, c->ifname) == 0 || (ip && strcmp(ip + 4, c->ip) == 0))
                c->other = true;
        return 0;
}

int sbx_egress_remove(const char *ifname, struct in_addr addr, pid_t owner, uint64_t owner_start) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *r = NULL;
        _cleanup_close_ int lock = sbx_net_lock(NULL);
        char ip[INET_ADDRSTRLEN], mine[64];
        claim c = { .ifname = ifname, .ip = ip, .mine = mine };

        inet_ntop(AF_INET, &addr, ip, sizeof(ip));
        snprintf(mine, sizeof(mine), " pid=%d start=%llu ", (int) owner, (unsigned long long) owner_start);
        /* A live veth of another owner with this name or address: its
         * sandbox's rules are under these keys now; leave them. */
        if (sbx_rtnl_open(&r, NULL) < 0 || sbx_rtnl_links(r, claim_link, &c, NULL) < 0 || c.other)
                return 0;
        if (sbx_nft_egress_remove(ifname, ip, NULL) < 0)
                return -EIO;
        markers_remove(ifname, ip);
        return 0;
}

void sbx_egress_cleanup(sbx_net_plan *p) {
        if (p->dns_pidfd >= 0) {
                (void) sys_pidfd_send_signal(p->dns_pidfd, SIGKILL);
                closep(&p->dns_pidfd);
                p->dns_pidfd = -EBADF;
        }
        p->dns_pid = 0;
        if (p->egress_set && p->host_if[0])
                (void) sbx_egress_remove(p->host_if, p->addr, p->egress_owner, p->egress_owner_start);
        p->egress_set = false;
}

void sbx_egress_release(sbx_net_plan *p) {
        /* the resolver is the sandbox's now; it removes the state itself */
        closep(&p->dns_pidfd);
        p->dns_pidfd = -EBADF;
        p->dns_pid = 0;
        p->egress_set = false;
}

/* SPDX-License-Identifier: MIT */
/* runtime/net/net.h: the public interface of runtime/net/ (see ARCHITECTURE.md). */
#pragma once

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/types.h>
#include <arpa/inet.h>
#include <stddef.h>

#include "util/util.h"

/* ---- from net.h ---- */
/* Sandbox networking (issue 7): the network modes beyond "none".
 *
 *   none    the launcher's new, empty network namespace with only lo (default)
 *   bridge  as root: a veth pair per sandbox on the sbx-owned bridge sbx0, with
 *           masquerading NAT set up by net-bridge.c / nft.c;
 *           unprivileged: pasta (Debian package passt) attached to the
 *           sandbox's namespace by net-pasta.c
 *   host    refused (OpenClaw refuses it: it would share the host's network)
 *   container:NAME  only with dangerouslyAllowContainerNamespaceJoin: the
 *           network namespace of the live persistent sandbox NAME, entered
 *           by the launcher before clone (unprivileged: from inside NAME's
 *           user namespace; see launch.c)
 *
 * Flow (STYLE §A.5): sbx_net_prepare() in the parent before clone (validates,
 * decides addresses, creates host-side objects, renders /etc/hosts and
 * /etc/resolv.conf), sbx_net_attach() in the parent once the child's network
 * namespace exists and before the child is released, sbx_net_cleanup() at
 * teardown. The child itself does nothing network-specific beyond lo.
 *
 * Persistent sandboxes (sandbox.c): the host side must outlive the sbx that
 * made it. With `persistent` set before attach, the veth is owned (in its
 * alias) by the sandbox's pid 1 instead of the launcher, and the pasta record
 * names that pid already; sbx_net_release() then drops this process's
 * ownership, and sbx_net_gc() after the sandbox's init is gone removes what
 * is left (stale veth, unused bridge + nft table, orphaned pasta). */



/* ---- named networks (network.c, issue 18) ----
 * `sbx network create NAME` records a network in sbx's state
 * (<data dir>/networks/NAME.json, $SBX_NETWORK_DIR overrides the directory).
 * A sandbox on it is on the bridge like 'bridge'; with an egress allowlist
 * (or --internal) its egress is enforced (egress.c, dns.c): names resolve
 * only through sbx's forwarder for it, which answers only allowed names, and
 * packets leave only to the addresses those answers returned (for their
 * TTL) or to the allowed ranges. */
#define SBX_NETWORK_NAME_MAX 64

typedef struct sbx_egress_rule {
        bool cidr;                       /* --egress-allow-cidr */
        bool wildcard;                   /* "*.host": any name below host, never host itself */
        char host[254];                  /* lower case, no trailing dot */
        struct in_addr net;              /* cidr */
        unsigned prefixlen;
        uint16_t port;                   /* 0: any */
} sbx_egress_rule;

typedef struct sbx_network {
        char name[SBX_NETWORK_NAME_MAX + 1];
        char id[65];
        char created[32];
        bool internal;                   /* no egress at all */
        sbx_strv allow;                  /* HOST[:PORT] | *.DOMAIN[:PORT] */
        sbx_strv allow_cidr;             /* A.B.C.D[/LEN][:PORT] */
        sbx_strv dns;                    /* upstream servers of the forwarder (default: the host's) */
} sbx_network;

int sbx_network_name_check(const char *name, sbx_error *reterr);
/* One allowlist entry; errors name the flag and the entry. */
int sbx_egress_rule_parse(const char *spec, bool cidr, sbx_egress_rule *ret, sbx_error *reterr);
/* name (lower case, no trailing dot) is allowed by the host rule r. */
bool sbx_egress_rule_matches(const sbx_egress_rule *r, const char *name);
/* Egress is limited (allowlist or internal): the forwarder and nft rules apply. */
bool sbx_network_enforced(const sbx_network *n);
int sbx_network_validate(const sbx_network *n, sbx_error *reterr);
void sbx_network_done(sbx_network *n);
struct json_object *sbx_network_to_json(const sbx_network *n);
int sbx_network_from_json(struct json_object *o, sbx_network *ret, sbx_error *reterr);
int sbx_network_dir(char *ret, size_t len, sbx_error *reterr);
/* -ENOENT with a message naming NAME and `sbx network ls`. */
int sbx_network_load(const char *name, sbx_network *ret, sbx_error *reterr);
/* create: a new record (id and created set here; -EEXIST if the name is
 * taken); else replace the existing record (-ENOENT if there is none). */
int sbx_network_save(sbx_network *n, bool create, sbx_error *reterr);
int sbx_network_remove(const char *name, sbx_error *reterr);
/* Every valid record, sorted by name. */
int sbx_network_list(sbx_network **ret, size_t *n, sbx_error *reterr);
void sbx_network_list_free(sbx_network *v, size_t n);

/* ---- the egress resolver's messages (dns-msg.c) ---- */
#define SBX_DNS_CHAIN_MAX 8              /* names in one CNAME chain */
typedef struct sbx_dns_query {
        uint16_t id, qtype, qclass, edns_size;
        bool rd, edns;
        char name[254];                  /* lower case, no trailing dot */
} sbx_dns_query;
typedef struct sbx_dns_addr {
        struct in_addr addr;
        uint32_t ttl;
} sbx_dns_addr;
/* A query with one question whose labels are [A-Za-z0-9_-] (else -EBADMSG). */
int sbx_dns_query_parse(const uint8_t *m, size_t n, sbx_dns_query *ret);
/* sbx's upstream query for q (id, RD, one question); 0 if cap is too small. */
size_t sbx_dns_query_build(const sbx_dns_query *q, uint16_t id, uint8_t *out, size_t cap);
/* A reply with no records and rcode (3 NXDOMAIN, 0 NODATA, 2 SERVFAIL, 5 REFUSED). */
size_t sbx_dns_reply_rcode(const sbx_dns_query *q, unsigned rcode, uint8_t *out, size_t cap);
/* The sandbox's reply from upstream's (m, n, which must answer upstream_id
 * and q's question): CNAME/A records of q->name's chain only; the A records'
 * addresses and TTLs in addrs. */
int sbx_dns_answer_rebuild(const sbx_dns_query *q, uint16_t upstream_id, const uint8_t *m, size_t n,
                           uint8_t *out, size_t cap, size_t *ret_len, sbx_dns_addr *addrs, size_t max_addrs,
                           size_t *ret_addrs);

/* IFNAMSIZ without <net/if.h>, which clashes with <linux/if.h> in netns.c */
#define SBX_IFNAMSIZ 16

typedef enum sbx_net_kind {
        SBX_NET_KIND_NONE,
        SBX_NET_KIND_BRIDGE,             /* root: veth + sbx0 + nft NAT */
        SBX_NET_KIND_PASTA,              /* unprivileged: pasta */
        SBX_NET_KIND_JOIN,               /* container:NAME: that sandbox's namespace (join_fd) */
        _SBX_NET_KIND_MAX,
        _SBX_NET_KIND_INVALID = -EINVAL,
} sbx_net_kind;

/* What the caller asks for; strings are borrowed for the duration of prepare. */
typedef struct sbx_net_request {
        bool bridge;                     /* false: none */
        bool join;                       /* container:NAME: join_fd is its network namespace */
        int join_fd;                     /* (taken by prepare, also on failure) */
        int join_userns_fd;              /* unprivileged: its user namespace (taken; -1 as root) */
        const char *join_name;           /* NAME, for messages */
        char *const *dns;
        size_t n_dns;
        char *const *extra_hosts;        /* docker.extraHosts: "host:ip" | "host:host-gateway" */
        size_t n_extra_hosts;
        const char *hostname;            /* NULL: no hostname line in /etc/hosts */
        const char *network_name;        /* a named network (bridge must be set), NULL: none */
        /* for the egress resolver's audit records (any may be NULL) */
        const char *audit_path, *audit_agent, *audit_session, *audit_scope, *audit_sandbox;
} sbx_net_request;

typedef struct sbx_net_plan {
        sbx_net_kind kind;
        bool persistent;                 /* host side owned by the sandbox's pid 1, not by us */
        bool host_gateway;               /* extraHosts asks for host-gateway */
        char gateway_addr[INET_ADDRSTRLEN]; /* where host-gateway points ("" none) */

        /* rendered files for the sandbox's /etc (malloc'd, owned by the plan) */
        char *hosts;
        char *resolv_conf;
        char *hostname_file;

        /* bridge */
        char bridge[SBX_IFNAMSIZ];
        char host_if[SBX_IFNAMSIZ];          /* host end of the veth, on the bridge */
        char peer_if[SBX_IFNAMSIZ];          /* the other end, "eth0" once in the sandbox */
        struct in_addr addr, gateway;
        unsigned prefixlen, mtu;
        int bridge_lock;                 /* flock held from prepare until attach is done */

        /* container:NAME: the launcher enters this namespace before clone3
         * (and clones without CLONE_NEWNET); owned by the plan. Unprivileged,
         * the sandbox is made inside NAME's user namespace (join_userns_fd),
         * the only one that may enter NAME's network (see launch.c). */
        int join_fd;
        int join_userns_fd;

        /* pasta */
        char pasta_if[SBX_IFNAMSIZ];         /* host interface pasta copies */
        struct in_addr pasta_gw;
        pid_t pasta_pid;
        int pasta_pidfd;
        char pasta_record[256];          /* state file naming pasta for a later gc */

        /* a named network (issue 18); egress: its allowlist is enforced (root) */
        char network[SBX_NETWORK_NAME_MAX + 1];
        bool egress;
        bool egress_set;                 /* nft chain/sets made */
        pid_t dns_pid;                   /* the resolver (dns.c) */
        pid_t egress_owner;              /* the veth's owner, for sbx_egress_remove() */
        uint64_t egress_owner_start;
        int dns_pidfd;
        char audit_path[4096];
        char audit_agent[128], audit_session[256], audit_scope[256], audit_sandbox[128];
} sbx_net_plan;

/* "none" | "bridge" | "container:NAME" (the latter only with
 * allow_container_join; *ret_container then points at NAME inside value) |
 * the name of a network `sbx network create` made (*ret_container = value;
 * an unknown name is refused naming it and `sbx network ls`).
 * "host" and anything else are refused with a message naming the value
 * (-EINVAL, -EPERM). Returns SBX_NET_MODE_*. */
enum { SBX_NET_MODE_NONE, SBX_NET_MODE_BRIDGE, SBX_NET_MODE_CONTAINER, SBX_NET_MODE_NAMED };
int sbx_net_mode_parse(const char *value, bool allow_container_join, const char **ret_container,
                       sbx_error *reterr);
/* Validation of dns/extraHosts alone (for the CLI before anything is created). */
int sbx_net_request_validate(const sbx_net_request *req, sbx_error *reterr);

void sbx_net_plan_init(sbx_net_plan *p);
int sbx_net_prepare(const sbx_net_request *req, sbx_net_plan *p, sbx_error *reterr);
/* child: the sandbox's pid (pasta joins its namespaces by pid); netns_fd: an
 * fd of its network namespace (e.g. /proc/PID/ns/net opened via the pidfd). */
int sbx_net_attach(sbx_net_plan *p, pid_t child, int netns_fd, sbx_error *reterr);
/* The same with the namespace taken from a /proc/<pid> dirfd. */
int sbx_net_attach_proc(sbx_net_plan *p, pid_t child, int proc_pid_fd, sbx_error *reterr);
/* Removes everything prepare/attach created; safe on a half-prepared plan and
 * twice. Frees the rendered files. */
void sbx_net_cleanup(sbx_net_plan *p);
/* A persistent sandbox started: its host side is now the sandbox's (owned by
 * its pid 1), so forget it without removing anything. Frees the files. */
void sbx_net_release(sbx_net_plan *p);
/* Removes what SIGKILLed runs left behind (stale veths, a bridge without
 * ports and its nft table, orphaned pasta processes of this user). */
int sbx_net_gc(sbx_error *reterr);

/* net-bridge.c */
int sbx_bridge_prepare(sbx_net_plan *p, sbx_error *reterr);
int sbx_bridge_attach(sbx_net_plan *p, pid_t child, int netns_fd, sbx_error *reterr);
void sbx_bridge_cleanup(sbx_net_plan *p);
int sbx_bridge_gc(sbx_error *reterr);

/* egress.c: a sandbox on a network with an allowlist (root) */
#define SBX_EGRESS_RESOLVER "127.0.0.53"
int sbx_egress_attach(sbx_net_plan *p, pid_t child, pid_t owner, uint64_t owner_start, int ifindex,
                      sbx_error *reterr);
void sbx_egress_cleanup(sbx_net_plan *p);
void sbx_egress_release(sbx_net_plan *p);
/* Remove a sandbox's egress state (lock taken), unless a live veth of
 * another owner has its name or address now. */
int sbx_egress_remove(const char *ifname, struct in_addr addr, pid_t owner, uint64_t owner_start);
/* A plain bridged sandbox (net lock held): remove egress state a killed
 * resolver left under its address or veth name. */
void sbx_egress_clear_stale(const char *ifname, struct in_addr addr);
/* net-bridge.c: the lock every change of sbx's host network state takes */
int sbx_net_lock(sbx_error *reterr);

/* nsenter.c: run fn in a child inside pid's network namespace (and its user
 * namespace when unprivileged, with CAP_NET_ADMIN ambient); fn answers with
 * sbx_ns_reply(), whose fds land in fds[n_fds]. */
int sbx_ns_run(pid_t pid, int (*fn)(int sock, void *userdata), void *userdata, int *fds, size_t n_fds,
               sbx_error *reterr);
int sbx_ns_reply(int sock, const int *fds, size_t n_fds, const char *error);

/* Where a sandbox's egress chain and sets are (nft.c): the host's table ip
 * sbx (root, bridge) or a table inet sbx inside its namespace (pasta). */
typedef struct sbx_egress_nft {
        pid_t in_pid;                    /* 0: the host's table; else inside this process's netns */
        char chain[64];                  /* "ip sbx e_IF" | "inet sbx out" */
        char set_a[64], set_p[64];       /* "ip sbx a_IF" | "inet sbx a", ... p */
} sbx_egress_nft;
void sbx_egress_nft_host(sbx_egress_nft *w, const char *ifname);
void sbx_egress_nft_inside(sbx_egress_nft *w, pid_t pid);

/* dns.c: the resolver process; the fds are the caller's (the process has copies) */
typedef struct sbx_dns_forwarder {
        const char *network;             /* the record it follows */
        const char *ifname;              /* the sandbox's host veth: names its nft chain and sets */
        struct in_addr addr;             /* the sandbox's address */
        unsigned log_group;              /* nflog group of its refused connections */
        pid_t owner;                     /* the veth's owner (alias pid=, start=) */
        uint64_t owner_start;
        int sandbox_pidfd;               /* it ends when this process does */
        int udp_fd, tcp_fd;              /* bound in the sandbox's namespace */
        int nflog_fd;                    /* NETLINK_NETFILTER made in it (pasta), -1: make one here */
        sbx_egress_nft nft;              /* where its chain and sets are */
        const char *audit_path;          /* JSONL, NULL: none */
        const char *agent, *session, *scope_key, *sandbox;
} sbx_dns_forwarder;
int sbx_dns_forwarder_start(const sbx_dns_forwarder *f, pid_t *ret_pid, sbx_error *reterr);

/* net-pasta.c */
int sbx_pasta_prepare(sbx_net_plan *p, sbx_error *reterr);
int sbx_pasta_attach(sbx_net_plan *p, pid_t child, sbx_error *reterr);
void sbx_pasta_cleanup(sbx_net_plan *p);
int sbx_pasta_gc(sbx_error *reterr);

/* ---- from hosts.h ---- */
/* The sandbox's name-resolution files (issue 7): /etc/hosts from the hostname
 * and docker.extraHosts, /etc/resolv.conf from docker.dns, /etc/hostname.
 * Pure functions over strings: the launcher puts the text into its plan as
 * file mounts; nothing here touches the sandbox. */



#define SBX_HOST_GATEWAY "host-gateway"

typedef struct sbx_extra_host {
        char name[254];
        char addr[INET6_ADDRSTRLEN];     /* "" when host_gateway */
        bool host_gateway;
} sbx_extra_host;

/* docker's "host:ip" or "host:host-gateway" (split at the first ':', so IPv6
 * addresses work: "db:fd00::5"). Errors name the entry. */
int sbx_extra_host_parse(const char *spec, sbx_extra_host *ret, sbx_error *reterr);
/* A nameserver address (IPv4 or IPv6 literal). */
int sbx_dns_parse(const char *spec, sbx_error *reterr);
/* docker's --dns / --add-host as its CLI hands them to the daemon
 * (ValidateIPAddress, ValidateExtraHost): an address trimmed of whitespace
 * and in canonical form; HOST=IP or HOST:IP, [IPv6] unbracketed, giving
 * "HOST:IP". *ret is malloc'd. Refused: the messages of the parsers above. */
int sbx_docker_dns_normalize(const char *spec, char **ret, sbx_error *reterr);
int sbx_docker_extra_host_normalize(const char *spec, char **ret, sbx_error *reterr);
/* True if any entry asks for host-gateway (entries must already be valid). */
bool sbx_extra_hosts_want_gateway(char *const *extra, size_t n);

/* /etc/hosts: localhost lines, "self_addr hostname" (self_addr NULL = 127.0.1.1),
 * then extraHosts with host-gateway replaced by gateway. gateway may be NULL only
 * if no entry asks for host-gateway (-EADDRNOTAVAIL otherwise). *ret is malloc'd. */
int sbx_hosts_render(const char *hostname, const char *self_addr, const char *gateway,
                     char *const *extra, size_t n_extra, char **ret, sbx_error *reterr);
/* /etc/resolv.conf: "nameserver" per dns entry; with none and copy_host, the
 * host's nameserver/search/options lines minus loopback resolvers (they are
 * not reachable from another network namespace). *ret is malloc'd. */
int sbx_resolv_render(char *const *dns, size_t n_dns, bool copy_host, const char *host_resolv_path,
                      char **ret, sbx_error *reterr);

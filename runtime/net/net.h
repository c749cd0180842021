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
} sbx_net_plan;

/* "none" | "bridge" | "container:NAME" (the latter only with
 * allow_container_join; *ret_container then points at NAME inside value).
 * "host" and anything else are refused with a message naming the value
 * (-EINVAL, -EPERM). Returns SBX_NET_MODE_*. */
enum { SBX_NET_MODE_NONE, SBX_NET_MODE_BRIDGE, SBX_NET_MODE_CONTAINER };
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

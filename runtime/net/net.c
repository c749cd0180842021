/* SPDX-License-Identifier: MIT */
/* Sandbox networking: mode parsing, refusals and the dispatch to the bridge
 * (root) or pasta (unprivileged) backend. See net.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "net.h"
#include "util/util.h"

static int access_network(const char *name, sbx_error *reterr) {
        sbx_network n;
        int k = sbx_network_load(name, &n, reterr);

        if (k == -ENOENT)
                sbx_error_set(reterr, -EINVAL, "network '%s' not found: it is neither a mode (none, bridge, "
                              "container:NAME) nor a network 'sbx network ls' lists", name);
        if (k < 0)
                return k;
        sbx_network_done(&n);
        return 0;
}

int sbx_net_mode_parse(const char *value, bool allow_container_join, const char **ret_container,
                       sbx_error *reterr) {
        if (ret_container)
                *ret_container = NULL;
        if (!value || strcmp(value, "none") == 0)
                return SBX_NET_MODE_NONE;
        if (strcmp(value, "bridge") == 0)
                return SBX_NET_MODE_BRIDGE;
        if (strcasecmp(value, "host") == 0)
                return sbx_error_set(reterr, -EINVAL,
                                     "network '%s' is refused: it would give the sandbox the host's "
                                     "network namespace (OpenClaw refuses it too); use 'none' or 'bridge'",
                                     value);
        if (strncasecmp(value, "container:", 10) == 0) {
                if (!allow_container_join)
                        return sbx_error_set(reterr, -EPERM,
                                             "network '%s' joins another sandbox's network namespace; "
                                             "it needs dangerouslyAllowContainerNamespaceJoin "
                                             "(sbx run/create: --dangerously-allow-container-namespace-join)",
                                             value);
                /* docker's join mode is "container:" as written (IsContainer);
                 * "CONTAINER:x" is a network name there, and no network has
                 * a ':': docker fails it, so OpenClaw (which refuses any case
                 * without the flag) gets no join with it either */
                if (strncmp(value, "container:", 10))
                        return sbx_error_set(reterr, -EINVAL,
                                             "network '%s': the join mode is 'container:' in lower case, as "
                                             "docker's (which takes '%.10s' for a network name, and finds none)",
                                             value, value);
                if (!value[10])
                        return sbx_error_set(reterr, -EINVAL, "network '%s': no sandbox named after "
                                             "'container:'", value);
                if (ret_container)
                        *ret_container = value + 10;
                return SBX_NET_MODE_CONTAINER;
        }
        if (sbx_network_name_check(value, NULL) < 0)
                return sbx_error_set(reterr, -EINVAL,
                                     "network '%s' is neither a mode (none, bridge, container:NAME) nor a "
                                     "network name", value);
        /* unknown: a usage error (exit 2), as an unknown mode */
        if (access_network(value, reterr) < 0)
                return -EINVAL;
        if (ret_container)
                *ret_container = value;
        return SBX_NET_MODE_NAMED;
}

int sbx_net_request_validate(const sbx_net_request *req, sbx_error *reterr) {
        /* As docker: a joined namespace has its owner's names and servers. */
        if (req->join && (req->n_dns > 0 || req->n_extra_hosts > 0))
                return sbx_error_set(reterr, -EINVAL,
                                     "network 'container:%s': dns and extraHosts cannot be set for a sandbox "
                                     "that joins another one's network (set them on '%s')",
                                     req->join_name ?: "?", req->join_name ?: "?");
        for (size_t i = 0; i < req->n_dns; i++) {
                int k = sbx_dns_parse(req->dns[i], reterr);
                if (k < 0)
                        return k;
        }
        for (size_t i = 0; i < req->n_extra_hosts; i++) {
                sbx_extra_host h;
                int k = sbx_extra_host_parse(req->extra_hosts[i], &h, reterr);
                if (k < 0)
                        return k;
                if (h.host_gateway && !req->bridge)
                        return sbx_error_set(reterr, -EINVAL,
                                             "extraHosts entry '%s': host-gateway needs network 'bridge' "
                                             "(with 'none' there is no host to reach)",
                                             req->extra_hosts[i]);
        }
        return 0;
}

void sbx_net_plan_init(sbx_net_plan *p) {
        *p = (sbx_net_plan) { .kind = SBX_NET_KIND_NONE, .pasta_pidfd = -EBADF, .dns_pidfd = -EBADF,
                              .bridge_lock = -EBADF, .join_fd = -EBADF,
                              .join_userns_fd = -EBADF };
}

static int render_files(const sbx_net_request *req, const sbx_strv *dns, sbx_net_plan *p, sbx_error *reterr) {
        char self[INET_ADDRSTRLEN];
        const char *self_addr = NULL;
        int k;

        if (p->kind == SBX_NET_KIND_BRIDGE && inet_ntop(AF_INET, &p->addr, self, sizeof(self)))
                self_addr = self;
        k = sbx_hosts_render(req->hostname, self_addr, p->gateway_addr[0] ? p->gateway_addr : NULL,
                             req->extra_hosts, req->n_extra_hosts, &p->hosts, reterr);
        if (k < 0)
                return k;
        /* With 'none' there is nothing to ask, so only explicit dns goes in.
         * On an allowlist network only sbx's resolver answers. */
        if (p->egress) {
                char *const ours[] = { (char *) SBX_EGRESS_RESOLVER, NULL };
                k = sbx_resolv_render(ours, 1, false, NULL, &p->resolv_conf, reterr);
        } else if (req->n_dns == 0 && dns->n > 0)
                k = sbx_resolv_render(dns->v, dns->n, false, NULL, &p->resolv_conf, reterr);
        else
                k = sbx_resolv_render(req->dns, req->n_dns, p->kind != SBX_NET_KIND_NONE, NULL,
                                      &p->resolv_conf, reterr);
        if (k < 0)
                return k;
        if (req->hostname && asprintf(&p->hostname_file, "%s\n", req->hostname) < 0) {
                p->hostname_file = NULL;
                return sbx_error_set(reterr, -ENOMEM, "render /etc/hostname");
        }
        return 0;
}

/* A named network: its record decides egress; the audit identity is kept
 * for its resolver. */
static int named_prepare(const sbx_net_request *req, sbx_net_plan *p, sbx_network *n, sbx_error *reterr) {
        int k;

        k = sbx_network_load(req->network_name, n, reterr);
        if (k < 0)
                return k;
        snprintf(p->network, sizeof(p->network), "%s", n->name);
        p->egress = sbx_network_enforced(n);
        if (!p->egress)
                return 0;
        if (req->n_dns > 0)
                return sbx_error_set(reterr, -EINVAL,
                                     "network '%s' has an egress allowlist: names resolve only through sbx's "
                                     "resolver, so dns cannot be set for the sandbox (set the network's "
                                     "upstream with 'sbx network create --dns')", n->name);
        if (sbx_extra_hosts_want_gateway(req->extra_hosts, req->n_extra_hosts))
                return sbx_error_set(reterr, -EINVAL,
                                     "network '%s' has an egress allowlist: extraHosts host-gateway would "
                                     "reach the host around it", n->name);
#define COPY(f, v) snprintf(p->f, sizeof(p->f), "%s", (v) ?: "")
        COPY(audit_path, req->audit_path);
        COPY(audit_agent, req->audit_agent);
        COPY(audit_session, req->audit_session);
        COPY(audit_scope, req->audit_scope);
        COPY(audit_sandbox, req->audit_sandbox);
#undef COPY
        return 0;
}

int sbx_net_prepare(const sbx_net_request *req, sbx_net_plan *p, sbx_error *reterr) {
        _cleanup_(sbx_network_done) sbx_network named = {};
        int k;

        sbx_net_plan_init(p);
        if (req->network_name && req->bridge) {
                k = named_prepare(req, p, &named, reterr);
                if (k < 0)
                        return k;
        }
        k = sbx_net_request_validate(req, reterr);
        if (k < 0) {
                if (req->join && req->join_fd >= 0)
                        close(req->join_fd);
                if (req->join && req->join_userns_fd >= 0)
                        close(req->join_userns_fd);
                return k;
        }
        if (req->join) {
                p->kind = SBX_NET_KIND_JOIN;
                p->join_fd = req->join_fd;
                p->join_userns_fd = req->join_userns_fd;
        }
        p->host_gateway = req->bridge && sbx_extra_hosts_want_gateway(req->extra_hosts,
                                                                      req->n_extra_hosts);
        if (req->bridge) {
                /* Root gets the kernel bridge; anyone else the user-mode pasta. */
                p->kind = geteuid() == 0 ? SBX_NET_KIND_BRIDGE : SBX_NET_KIND_PASTA;
                k = p->kind == SBX_NET_KIND_BRIDGE ? sbx_bridge_prepare(p, reterr)
                                                   : sbx_pasta_prepare(p, reterr);
                if (k < 0) {
                        p->kind = SBX_NET_KIND_NONE;
                        return k;
                }
        }
        k = render_files(req, &named.dns, p, reterr);
        sbx_network_done(&named);
        if (k < 0) {
                sbx_net_cleanup(p);
                return k;
        }
        return 0;
}

int sbx_net_attach(sbx_net_plan *p, pid_t child, int netns_fd, sbx_error *reterr) {
        switch (p->kind) {
        case SBX_NET_KIND_NONE:
        case SBX_NET_KIND_JOIN:
                return 0;
        case SBX_NET_KIND_BRIDGE:
                return sbx_bridge_attach(p, child, netns_fd, reterr);
        case SBX_NET_KIND_PASTA: {
                int k = sbx_pasta_attach(p, child, reterr);
                /* an allowlist: its rules and resolver inside, before the child runs */
                if (k >= 0 && p->egress)
                        k = sbx_egress_attach(p, child, 0, 0, 0, reterr);
                return k;
        }
        case _SBX_NET_KIND_MAX:
        case _SBX_NET_KIND_INVALID:
        default:
                return sbx_error_set(reterr, -EINVAL, "network: bad plan");
        }
}

int sbx_net_attach_proc(sbx_net_plan *p, pid_t child, int proc_pid_fd, sbx_error *reterr) {
        _cleanup_close_ int nsfd = -EBADF;

        if (p->kind == SBX_NET_KIND_NONE || p->kind == SBX_NET_KIND_JOIN)
                return 0;
        nsfd = openat(proc_pid_fd, "ns/net", O_RDONLY | O_CLOEXEC);
        if (nsfd < 0)
                return sbx_error_set(reterr, negative_errno(), "network: open /proc/%d/ns/net", (int) child);
        return sbx_net_attach(p, child, nsfd, reterr);
}

void sbx_net_cleanup(sbx_net_plan *p) {
        if (!p)
                return;
        sbx_egress_cleanup(p);
        if (p->kind == SBX_NET_KIND_BRIDGE)
                sbx_bridge_cleanup(p);
        else if (p->kind == SBX_NET_KIND_PASTA)
                sbx_pasta_cleanup(p);
        p->kind = SBX_NET_KIND_NONE;
        closep(&p->join_fd);
        closep(&p->join_userns_fd);
        p->join_fd = p->join_userns_fd = -EBADF;
        free(p->hosts);
        free(p->resolv_conf);
        free(p->hostname_file);
        p->hosts = p->resolv_conf = p->hostname_file = NULL;
}

void sbx_net_release(sbx_net_plan *p) {
        if (!p)
                return;
        sbx_egress_release(p);
        if (p->kind == SBX_NET_KIND_BRIDGE) {
                /* attach closed the lock; the veth is the sandbox's now */
                p->bridge[0] = p->host_if[0] = '\0';
        } else if (p->kind == SBX_NET_KIND_PASTA) {
                /* pasta lives on; its record (named after the sandbox's
                 * pid 1) lets sbx_pasta_gc() stop it once the sandbox is gone */
                closep(&p->pasta_pidfd);
                p->pasta_pidfd = -EBADF;
                p->pasta_record[0] = '\0';
                p->pasta_pid = 0;
        }
        sbx_net_cleanup(p);
}

int sbx_net_gc(sbx_error *reterr) {
        if (geteuid() == 0)
                return sbx_bridge_gc(reterr);
        return sbx_pasta_gc(reterr);
}

/* SPDX-License-Identifier: MIT */
/* Sandbox networking: mode parsing, refusals and the dispatch to the bridge
 * (root) or pasta (unprivileged) backend. See net.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosts.h"
#include "macro.h"
#include "net.h"

int sbx_net_mode_parse(const char *value, bool allow_container_join, bool *ret_bridge,
                       sbx_error *reterr) {
        if (!value || strcmp(value, "none") == 0) {
                *ret_bridge = false;
                return 0;
        }
        if (strcmp(value, "bridge") == 0) {
                *ret_bridge = true;
                return 0;
        }
        if (strcmp(value, "host") == 0)
                return sbx_error_set(reterr, -EINVAL,
                                     "network 'host' is refused: it would give the sandbox the host's "
                                     "network namespace (OpenClaw refuses it too); use 'none' or 'bridge'");
        if (strncmp(value, "container:", 10) == 0) {
                if (!allow_container_join)
                        return sbx_error_set(reterr, -EPERM,
                                             "network '%s' joins another sandbox's network namespace; "
                                             "it needs dangerouslyAllowContainerNamespaceJoin", value);
                return sbx_error_set(reterr, -ENOENT,
                                     "network '%s': joining requires a live sandbox named '%s', and "
                                     "there is none (persistent sandboxes are not implemented yet)",
                                     value, value + 10);
        }
        return sbx_error_set(reterr, -EINVAL, "network '%s' is not a known mode (none, bridge)", value);
}

int sbx_net_request_validate(const sbx_net_request *req, sbx_error *reterr) {
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
        *p = (sbx_net_plan) { .kind = SBX_NET_KIND_NONE, .pasta_pidfd = -EBADF,
                              .bridge_lock = -EBADF };
}

static int render_files(const sbx_net_request *req, sbx_net_plan *p, sbx_error *reterr) {
        char self[INET_ADDRSTRLEN];
        const char *self_addr = NULL;
        int k;

        if (p->kind == SBX_NET_KIND_BRIDGE && inet_ntop(AF_INET, &p->addr, self, sizeof(self)))
                self_addr = self;
        k = sbx_hosts_render(req->hostname, self_addr, p->gateway_addr[0] ? p->gateway_addr : NULL,
                             req->extra_hosts, req->n_extra_hosts, &p->hosts, reterr);
        if (k < 0)
                return k;
        /* With 'none' there is nothing to ask, so only explicit dns goes in. */
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

int sbx_net_prepare(const sbx_net_request *req, sbx_net_plan *p, sbx_error *reterr) {
        int k;

        sbx_net_plan_init(p);
        k = sbx_net_request_validate(req, reterr);
        if (k < 0)
                return k;
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
        k = render_files(req, p, reterr);
        if (k < 0) {
                sbx_net_cleanup(p);
                return k;
        }
        return 0;
}

int sbx_net_attach(sbx_net_plan *p, pid_t child, int netns_fd, sbx_error *reterr) {
        switch (p->kind) {
        case SBX_NET_KIND_NONE:
                return 0;
        case SBX_NET_KIND_BRIDGE:
                return sbx_bridge_attach(p, netns_fd, reterr);
        case SBX_NET_KIND_PASTA:
                return sbx_pasta_attach(p, child, reterr);
        case _SBX_NET_KIND_MAX:
        case _SBX_NET_KIND_INVALID:
        default:
                return sbx_error_set(reterr, -EINVAL, "network: bad plan");
        }
}

int sbx_net_attach_proc(sbx_net_plan *p, pid_t child, int proc_pid_fd, sbx_error *reterr) {
        _cleanup_close_ int nsfd = -EBADF;

        if (p->kind == SBX_NET_KIND_NONE)
                return 0;
        nsfd = openat(proc_pid_fd, "ns/net", O_RDONLY | O_CLOEXEC);
        if (nsfd < 0)
                return sbx_error_set(reterr, negative_errno(), "network: open /proc/%d/ns/net", (int) child);
        return sbx_net_attach(p, child, nsfd, reterr);
}

void sbx_net_cleanup(sbx_net_plan *p) {
        if (!p)
                return;
        if (p->kind == SBX_NET_KIND_BRIDGE)
                sbx_bridge_cleanup(p);
        else if (p->kind == SBX_NET_KIND_PASTA)
                sbx_pasta_cleanup(p);
        p->kind = SBX_NET_KIND_NONE;
        free(p->hosts);
        free(p->resolv_conf);
        free(p->hostname_file);
        p->hosts = p->resolv_conf = p->hostname_file = NULL;
}

int sbx_net_gc(sbx_error *reterr) {
        if (geteuid() == 0)
                return sbx_bridge_gc(reterr);
        return sbx_pasta_gc(reterr);
}

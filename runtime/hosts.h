/* SPDX-License-Identifier: MIT */
/* The sandbox's name-resolution files (issue 7): /etc/hosts from the hostname
 * and docker.extraHosts, /etc/resolv.conf from docker.dns, /etc/hostname.
 * Pure functions over strings: the launcher puts the text into its plan as
 * file mounts; nothing here touches the sandbox. */
#pragma once

#include <arpa/inet.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

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

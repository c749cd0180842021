/* SPDX-License-Identifier: MIT */
/* The sbx nftables table (issue 7), managed through the `nft` tool (Debian
 * package nftables): `nft -f -` applies a whole script in one transaction, so
 * the table appears complete or not at all. One table, `table ip sbx`, owned
 * by sbx and created with its bridge; nothing else of the host's ruleset is
 * touched. */
#pragma once

#include <stdbool.h>

#include "net.h"

#include "util/util.h"

#define SBX_NFT_TABLE "sbx"

/* Create (or replace) table ip sbx for bridge/subnet with gateway gw; the
 * addresses in hostgw (a sub-range) may reach the host (host-gateway). */
int sbx_nft_setup(const char *bridge, const char *subnet, const char *gw, const char *hostgw,
                  sbx_error *reterr);
/* 1 if table ip sbx exists, 0 if not. */
int sbx_nft_present(sbx_error *reterr);
/* Delete table ip sbx and table bridge sbx (absent is fine). */
int sbx_nft_remove(sbx_error *reterr);

/* Per-sandbox egress (issue 18): forwarded packets from the sandbox's address
 * go to its chain e_IF (IF: its host veth); a bridge-family table (also
 * named sbx) drops frames from its port with another source address or
 * IPv6, so the address cannot be forged around the chain.
 * rules: extra "add rule ip sbx e_IF ... accept" lines (the CIDR entries);
 * log_group: the nflog group refused new connections are logged to.
 * setup makes (or replaces) set, chain and map element; update replaces the
 * rules, empties the sets and adds elements (a script of "add element" lines,
 * may be NULL); allow runs an "add element" script; remove deletes it all. */
int sbx_nft_egress_setup(const char *ifname, const char *addr, const char *rules, unsigned log_group,
                         sbx_error *reterr);
/* Unprivileged (pasta): the same chain and sets in a table inet sbx inside
 * the sandbox's own network namespace (output hook, also IPv6 refused),
 * which the sandbox has no capability to change; nft runs there through
 * sbx_ns_run(). */
int sbx_nft_egress_setup_inside(const sbx_egress_nft *w, unsigned log_group, sbx_error *reterr);
int sbx_nft_egress_update(const sbx_egress_nft *w, const char *rules, unsigned log_group, const char *elements,
                          sbx_error *reterr);
int sbx_nft_egress_allow(const sbx_egress_nft *w, const char *elements, sbx_error *reterr);
int sbx_nft_egress_remove(const char *ifname, const char *addr, sbx_error *reterr);

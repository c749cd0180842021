/* SPDX-License-Identifier: MIT */
/* The sbx nftables table (issue 7), managed through the `nft` tool (Debian
 * package nftables): `nft -f -` applies a whole script in one transaction, so
 * the table appears complete or not at all. One table, `table ip sbx`, owned
 * by sbx and created with its bridge; nothing else of the host's ruleset is
 * touched. */
#pragma once

#include <stdbool.h>

#include "util/util.h"

#define SBX_NFT_TABLE "sbx"

/* Create (or replace) table ip sbx for bridge/subnet with gateway gw; the
 * addresses in hostgw (a sub-range) may reach the host (host-gateway). */
int sbx_nft_setup(const char *bridge, const char *subnet, const char *gw, const char *hostgw,
                  sbx_error *reterr);
/* 1 if table ip sbx exists, 0 if not. */
int sbx_nft_present(sbx_error *reterr);
/* Delete table ip sbx (absent is fine). */
int sbx_nft_remove(sbx_error *reterr);

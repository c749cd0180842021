/* SPDX-License-Identifier: MIT */
/* The sbx nftables table: see nft.h.
 *
 * Why each rule is there (the bridge is sbx0, the range SUBNET, its address GW):
 *  - postrouting masquerade: sandboxes reach beyond the host with the host's
 *    address; traffic inside the range is never rewritten.
 *  - forward: sbx0 -> sbx0 is dropped, so two sandboxes cannot reach each other
 *    through the host's routing (the bridge ports are isolated at layer 2 as
 *    well); sbx0 -> elsewhere is accepted; elsewhere -> sbx0 only for replies,
 *    so nothing outside can open a connection into a sandbox.
 *  - input: a sandbox may not talk to the host itself (any host address) unless
 *    its address is in HOSTGW, the upper half of the range, from which
 *    net-bridge.c gives addresses only to sandboxes whose extraHosts ask for
 *    host-gateway; replies to connections the host opened are fine. A static
 *    range rather than a per-sandbox set: nothing to add or remove per run,
 *    so nothing stale after a kill -9. (A sandbox cannot change its address:
 *    it has no CAP_NET_ADMIN.)
 *  - prerouting: for HOSTGW, GW is the host's loopback (dnat to 127.0.0.1;
 *    route_localnet is set on sbx0 only), the same meaning host-gateway has
 *    with pasta's gateway mapping.
 * An accept here does not override a drop in another table (nftables runs
 * every base chain), so a host firewall that drops forwarding still wins. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nft.h"
#include "util/util.h"

#define NFT_TIMEOUT_MS 10000

static int nft_run(const char *const *argv, const char *script, const char *what,
                   sbx_error *reterr) {
        char err[300];
        int k = sbx_tool_run(argv, script, NFT_TIMEOUT_MS, err, sizeof(err), reterr);

        if (k == -ENOENT)
                return sbx_error_set(reterr, k, "%s: the 'nft' tool is missing (Debian package nftables)",
                                     what);
        if (k < 0)
                return sbx_error_wrap(reterr, "%s", what), k;
        if (k != 0)
                return sbx_error_set(reterr, -EIO, "%s: nft exited with %d: %s", what, k,
                                     err[0] ? err : "(no message)");
        return 0;
}

int sbx_nft_setup(const char *bridge, const char *subnet, const char *gw, const char *hostgw,
                  sbx_error *reterr) {
        static const char *const argv[] = { "nft", "-f", "-", NULL };
        char script[2048];

        snprintf(script, sizeof(script),
                 /* "add" then "delete" makes the script work whether or not an old
                  * table is there: the table is replaced as one transaction. */
                 "add table ip " SBX_NFT_TABLE "\n"
                 "delete table ip " SBX_NFT_TABLE "\n"
                 "table ip " SBX_NFT_TABLE " {\n"
                 "  comment \"sbx: NAT for bridge %1$s (%2$s); removed with its last sandbox\"\n"
                 "  chain prerouting {\n"
                 "    type nat hook prerouting priority dstnat; policy accept;\n"
                 "    iifname \"%1$s\" ip saddr %4$s ip daddr %3$s dnat to 127.0.0.1\n"
                 "  }\n"
                 "  chain postrouting {\n"
                 "    type nat hook postrouting priority srcnat; policy accept;\n"
                 "    ip saddr %2$s ip daddr != %2$s masquerade\n"
                 "  }\n"
                 "  chain forward {\n"
                 "    type filter hook forward priority filter; policy accept;\n"
                 "    iifname \"%1$s\" oifname \"%1$s\" drop\n"
                 "    iifname \"%1$s\" accept\n"
                 "    oifname \"%1$s\" ct state established,related accept\n"
                 "    oifname \"%1$s\" drop\n"
                 "  }\n"
                 "  chain input {\n"
                 "    type filter hook input priority filter; policy accept;\n"
                 "    iifname \"%1$s\" ct state established,related accept\n"
                 "    iifname \"%1$s\" ip saddr %4$s accept\n"
                 "    iifname \"%1$s\" drop\n"
                 "  }\n"
                 "}\n",
                 bridge, subnet, gw, hostgw);
        return nft_run(argv, script, "set up nftables table ip " SBX_NFT_TABLE, reterr);
}

int sbx_nft_present(sbx_error *reterr) {
        static const char *const argv[] = { "nft", "list", "table", "ip", SBX_NFT_TABLE, NULL };
        char err[300];
        int k = sbx_tool_run(argv, NULL, NFT_TIMEOUT_MS, err, sizeof(err), reterr);

        if (k < 0)
                return k;
        return k == 0;
}

int sbx_nft_remove(sbx_error *reterr) {
        static const char *const argv[] = { "nft", "-f", "-", NULL };

        return nft_run(argv,
                       "add table ip " SBX_NFT_TABLE "\ndelete table ip " SBX_NFT_TABLE "\n",
                       "remove nftables table ip " SBX_NFT_TABLE, reterr);
}

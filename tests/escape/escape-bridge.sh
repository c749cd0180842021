#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite: attacks from a sandbox on network "bridge" (issue 7), one
# named attack per subtest, each with the errno only the restriction gives and,
# where it can be made, a positive control that the same probe succeeds where
# the restriction does not apply.
#
# Root: sbx runs inside network namespaces made here (net-lib.sh), so no rule
# or link touches the real host and no packet leaves this machine. Rootless
# (pasta) runs as uid 65534 inside the same H.
# net-lib.sh first (its namespaces H and R), then the escape helpers (which
# make $TMP): H is the "host" (up0 10.77.0.1/24, default via R at
# 10.77.0.2), with 127.0.0.1:9090 on its loopback; we add 0.0.0.0:$PA.
. "$(dirname "$0")/../integration/net-lib.sh"
. "$(dirname "$0")/lib.sh"

if ! is_root; then
        echo "1..0 # SKIP needs root to make the test's own network namespace (the rootless attacks run from the root test as uid 65534)"
        exit 77
fi
net_require
PA=7301
PL=9090
on_exit 'net_namespaces_down; rm -rf "$TMP"'
net_namespaces_up
setsid -f ip netns exec $H socat TCP-LISTEN:$PA,bind=0.0.0.0,fork,reuseaddr SYSTEM:'echo any' </dev/null >/dev/null 2>&1
for i in $(seq 50); do ip netns exec $H ss -Hltn | grep -q ":$PA " && break; sleep 0.1; done
# a bridged sandbox inside H: bsbx [OPTIONS] -- CMD
bsbx() { timeout -k 5 60 ip netns exec $H "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" --network bridge "$@"; }
hprobe() { ip netns exec $H "$SBX_PROBE" "$@"; }

if ! nft list tables >/dev/null 2>&1; then
        echo "1..0 # SKIP nftables does not work here"
        exit 77
fi

# ---- reaching the host from a bridged sandbox without host-gateway ----
control "the host reaches its own 10.77.0.1:$PA" "$(hprobe connect 10.77.0.1 $PA)" OK
is "bridge-host-address: the host's uplink address 10.77.0.1:$PA is dropped (ETIMEDOUT)" \
        "$(bsbx -- /sbx-probe connect 10.77.0.1 $PA)" ETIMEDOUT
is "bridge-gateway-address: the bridge address 10.237.0.1:$PA is dropped (ETIMEDOUT)" \
        "$(bsbx -- /sbx-probe connect 10.237.0.1 $PA)" ETIMEDOUT
is "bridge-gateway-loopback: 10.237.0.1:$PL (the host-gateway DNAT) is dropped without host-gateway" \
        "$(bsbx -- /sbx-probe connect 10.237.0.1 $PL)" ETIMEDOUT
is "bridge-own-loopback: 127.0.0.1:$PL inside is the sandbox's own lo (ECONNREFUSED)" \
        "$(bsbx -- /sbx-probe connect 127.0.0.1 $PL)" ECONNREFUSED
# the positive control of the DNAT: with host-gateway the same address connects
is "control: with host-gateway, 10.237.0.1:$PL reaches the host's loopback" \
        "$(bsbx --add-host gw:host-gateway -- /sbx-probe connect 10.237.0.1 $PL)" OK

# ---- changing the sandbox's own network (would let it take another
# sandbox's address, e.g. one from the host-gateway half) ----
control "root on the host opens a packet socket" "$(hprobe socket packet)" OK
is "bridge-packet-socket: AF_PACKET (spoofed frames) is EPERM" "$(bsbx -- /sbx-probe socket packet)" EPERM
is "bridge-raw-socket: raw ICMP (spoofed packets) is EPERM" "$(bsbx -- /sbx-probe socket raw)" EPERM
out=$(bsbx -- ip addr add 10.237.128.77/16 dev eth0 2>&1)
like "bridge-change-address: taking a host-gateway address on eth0 is refused" "$out" "Operation not permitted"
out=$(bsbx -- ip route replace default via 10.237.0.77 dev eth0 2>&1)
like "bridge-change-route: replacing the default route is refused" "$out" "Operation not permitted"
out=$(bsbx -- ip link set eth0 address 02:00:00:00:00:01 2>&1)
like "bridge-change-mac: changing eth0's MAC is refused" "$out" "Operation not permitted"
# control: the sandbox does own a working eth0
like "control: the bridged sandbox has eth0 with a lower-half address" \
        "$(bsbx -- ip -4 -o addr show dev eth0 2>&1)" "inet 10\.237\.(0|[1-9]|[1-9][0-9]|1[01][0-9]|12[0-7])\."

# ---- the bridge's own state from inside: nothing of the host's firewall ----
unlike "bridge-sysctl: /proc/sys/net/ipv4/ip_forward cannot be written from inside" \
        "$(bsbx -- /sbx-probe write /proc/sys/net/ipv4/ip_forward 0 2>&1)" "^OK"

# ---- rootless (pasta), uid 65534 inside H ----
if ! command -v pasta >/dev/null; then
        for i in 1 2 3; do skip "rootless: pasta (Debian package passt) is not installed"; done
else
        ustate=$(mktemp -d "$TMP/u.XXXXXX")
        chown 65534 "$ustate"
        chmod 755 "$TMP"
        rl() {
                timeout -k 5 60 unshare -m --propagation private sh -c '
                        u=$1; shift
                        mount -t tmpfs -o mode=755 tmpfs /dev/net && mknod -m 666 /dev/net/tun c 10 200 &&
                        exec ip netns exec "$0" setpriv --reuid=65534 --regid=65534 --clear-groups \
                                env -i PATH=/usr/bin:/bin HOME=/ TMPDIR=/tmp XDG_RUNTIME_DIR="$u" "$@"' \
                        "$H" "$ustate" "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" --network bridge "$@"
        }
        out=$(rl -- /sbx-probe connect 127.0.0.1 $PL 2>&1)
        if printf '%s' "$out" | grep -q 'pasta exited\|tun'; then
                for i in 1 2 3; do skip "rootless: pasta cannot run here: $(printf '%s' "$out" | head -1)"; done
        else
                is "pasta-own-loopback: 127.0.0.1:$PL inside is not the host's (-T none): ECONNREFUSED" "$out" ECONNREFUSED
                is "pasta-gateway: without host-gateway 10.77.0.2:$PL is the real gateway (nothing listens: ETIMEDOUT through pasta), not the host's loopback" \
                        "$(rl -- /sbx-probe connect 10.77.0.2 $PL 2>&1)" ETIMEDOUT
                is "control: with host-gateway the same gateway address is the host's loopback" \
                        "$(rl --add-host gw:host-gateway -- /sbx-probe connect 10.77.0.2 $PL 2>&1)" OK
        fi
fi
is "no sbx link, nft table or ip_forward change is left in H" \
        "$(ip -n $H -br link | grep -c sbx; ip netns exec $H nft list tables | grep -c sbx; ip netns exec $H cat /proc/sys/net/ipv4/ip_forward)" \
        "$(printf '0\n0\n0')"
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Networking (issue 7): none, bridge (root: veth + sbx0 + nft NAT; rootless:
# pasta), dns, extraHosts, host-gateway, refusals, cleanup.
#
# No traffic leaves this machine: the namespaces H ("host", where sbx runs) and
# R ("remote", the servers) are made by net-lib.sh (see there) and deleted at
# exit.
#
#   harness ($1) or NET_RUNNER=harness sandboxes made by tests/helpers/sbx-net-harness
#                       (the network library around a bare unshare)
#   NET_RUNNER=sbx      sandboxes made by `sbx run` (the default)
. "$(dirname "$0")/net-lib.sh"

runner=${1:-${NET_RUNNER:-sbx}}
net_require
if [ "$runner" = harness ]; then
        RUN=("${SBX_NET_HARNESS:?}")
else
        RUN=("${SBX:?}" run)
fi
net_setup

# sb OPTIONS -- CMD...: a sandbox inside H
sb() { timeout 30 ip netns exec $H "${RUN[@]}" "$@"; }

# ---- refusals (exit 2, value named, nothing created) ----
out=$(sb --network host -- true 2>&1); rc=$?
is "--network host is refused with exit 2" "$rc" 2
like "the refusal names 'host'" "$out" "'host'"
out=$(sb --network container:other -- true 2>&1); rc=$?
is "--network container:NAME is refused with exit 2" "$rc" 2
like "the refusal names dangerouslyAllowContainerNamespaceJoin" "$out" "dangerouslyAllowContainerNamespaceJoin"
out=$(sb --network wifi -- true 2>&1); rc=$?
is "an unknown network mode is refused with exit 2" "$rc" 2
like "the error names the value" "$out" "'wifi'"
out=$(sb --network bridge --add-host 'no-colon' -- true 2>&1); rc=$?
is "a malformed --add-host is refused with exit 2" "$rc" 2
like "the error names the entry" "$out" "no-colon"
out=$(sb --network bridge --dns 10.0.0.300 -- true 2>&1); rc=$?
is "a malformed --dns is refused with exit 2" "$rc" 2
out=$(sb --network none --add-host gw:host-gateway -- true 2>&1); rc=$?
is "host-gateway with network none is refused with exit 2" "$rc" 2
is "refusals leave the host namespace as it was" "$(snapshot)" "$before"

# ---- none ----
out=$(sb --network none -- bash -c "$FETCH" 10.99.0.1 8080 2>&1); rc=$?
like "network none: connect fails with ENETUNREACH" "$out" "Network is unreachable"
out=$(sb --network none -- cat /proc/net/dev 2>&1)
is "network none: only lo exists" "$(printf '%s\n' "$out" | awk -F: 'NR>2 {gsub(/ /,"",$1); print $1}')" "lo"

# ---- bridge as root ----
if ! nft list tables >/dev/null 2>&1; then
        for d in "reaches the server" "dns/extraHosts" "host-gateway" "no IPv6" "isolation" "warm runs" "clash" "stale"; do
                skip "bridge $d: nftables does not work here"
        done
else
        out=$(sb --network bridge -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)
        is "bridge: the sandbox reaches the server, which sees the host's address (NAT)" "$out" "peer=10.77.0.1"
        is "bridge: afterwards the host has exactly its links, addresses, routes and nft rules" "$(snapshot)" "$before"

        out=$(sb --network bridge --dns 10.99.0.53 --dns fd00::53 --add-host db:10.1.2.3 \
                --add-host gw:host-gateway -- sh -c 'cat /etc/resolv.conf /etc/hosts' 2>&1)
        like "bridge: --dns lands in /etc/resolv.conf" "$out" "^nameserver 10.99.0.53$"
        like "bridge: every --dns, IPv6 too" "$out" "^nameserver fd00::53$"
        like "bridge: --add-host lands in /etc/hosts" "$out" "^10.1.2.3	db$"
        like "bridge: host-gateway resolves to the bridge address" "$out" "^10.237.0.1	gw$"

        out=$(sb --network bridge --add-host gw:host-gateway -- bash -c "$FETCH" gw 9090 2>&1)
        like "bridge: host-gateway connects to the host's loopback" "$out" "^loop="
        out=$(sb --network bridge -- bash -c "$FETCH_T" 10.237.0.1 9090 2>&1); rc=$?
        unlike "bridge: without host-gateway the host is not reachable" "$out" "^loop="

        # isolation: A listens, B tries; the host (positive control) can connect.
        setsid -f ip netns exec $H "${RUN[@]}" --network bridge -- bash -c \
                'awk '\''$2=="sbx"{print $1}'\'' /etc/hosts; exec timeout 8 socat TCP-LISTEN:7000,fork SYSTEM:"echo from-a"' \
                </dev/null >"$TMP/a.out" 2>&1
        for i in $(seq 50); do [ -s "$TMP/a.out" ] && break; sleep 0.1; done
        a_ip=$(head -1 "$TMP/a.out")
        sleep 0.5
        is "no IPv6 on the host side of the bridge (nft filters IPv4 only)" \
                "$(ip -n $H -6 addr show dev sbx0 2>&1)" ""
        ctl=$(ip netns exec $H timeout 3 bash -c "$FETCH" "$a_ip" 7000 2>&1)
        is "isolation: sandbox A ($a_ip) serves (reached from the host)" "$ctl" "from-a"
        out=$(sb --network bridge -- bash -c "$FETCH_T" "$a_ip" 7000 2>&1)
        unlike "isolation: a second sandbox on the bridge cannot reach A" "$out" "from-a"
        # A keeps the bridge alive: ended runs leave their veth to the kernel,
        # and the next runs collect the ones that are still there
        n_ok=0
        for i in 1 2 3 4 5; do sb --network bridge -- true >/dev/null 2>&1 && n_ok=$((n_ok + 1)); done
        is "while a bridged sandbox runs, 5 more bridged runs in a row all finish" "$n_ok" 5
        # A's sbx removes the bridge, then restores ip_forward: wait for A to be
        # done with both (up to 20 s under load), then compare.
        for i in $(seq 200); do [ "$(snapshot)" = "$before" ] && break; sleep 0.1; done
        is "isolation: after both ended the host namespace is as before" "$(snapshot)" "$before"

        out=$(SBX_BRIDGE_SUBNET=10.77.0.0/24 sb --network bridge -- true 2>&1); rc=$?
        is "a bridge range that clashes with a host route is refused (exit 125)" "$rc" 125
        like "the error names the clashing route and SBX_BRIDGE_SUBNET" "$out" "10.77.0.0/24.*SBX_BRIDGE_SUBNET"
        is "the refused run left nothing behind" "$(snapshot)" "$before"

        # stale state from a SIGKILLed run is removed by the next run
        setsid -f ip netns exec $H "${RUN[@]}" --network bridge -- sleep 20 </dev/null >/dev/null 2>&1
        for i in $(seq 50); do ip -n $H link show sbx0 >/dev/null 2>&1 && break; sleep 0.1; done
        sleep 0.3
        # kill -9 the launcher (sbx's sandbox dies with it by PDEATHSIG; the
        # harness has none, so its child goes first)
        ip netns pids $H | while read -r p; do
                case "$(cat /proc/$p/comm 2>/dev/null)" in
                sbx-net-harness) pkill -9 -P "$p"; kill -9 "$p";;
                sbx) kill -9 "$p";;
                esac
        done
        sleep 0.5
        stale=$(ip -n $H -br link show sbx0 2>/dev/null | wc -l)
        sb --network bridge -- true >/dev/null 2>&1
        is "after kill -9 the bridge stays ($stale) until the next run, which removes it" "$(snapshot)" "$before"
fi

# ---- rootless: pasta ----
if ! command -v pasta >/dev/null; then
        for i in 1 2 3 4; do skip "rootless: pasta (Debian package passt) is not installed"; done
else
        # as uid 65534, with a private 0666 /dev/net/tun (see in_h_nobody)
        rl() { in_h_nobody "${RUN[@]}" "$@"; }
        out=$(rl --network bridge -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)
        if printf '%s' "$out" | grep -q 'pasta exited\|tun'; then
                for i in 1 2 3 4; do skip "rootless: pasta cannot run here: $(printf '%s' "$out" | head -1)"; done
        else
                is "rootless (pasta): the sandbox reaches the server" "$out" "peer=10.77.0.1"
                out=$(rl --network bridge --add-host gw:host-gateway -- bash -c \
                        'grep -w gw /etc/hosts; '"$FETCH" gw 9090 2>&1)
                like "rootless: host-gateway is the gateway pasta maps to the host" "$out" "^10.77.0.2	gw"
                like "rootless: host-gateway connects to the host's loopback" "$out" "loop=127.0.0.1"
                out=$(rl --network bridge -- bash -c "$FETCH_T" 10.77.0.2 9090 2>&1)
                unlike "rootless: without host-gateway the gateway is not the host's loopback" "$out" "loop="
        fi
        sleep 0.3
        is "rootless: no pasta process is left" "$(nobody_pasta)" ""
        is "rootless: the host namespace is as before" "$(snapshot)" "$before"
fi

done_testing

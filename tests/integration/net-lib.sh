# SPDX-License-Identifier: MIT
# Shared by the network tests (sourced by net.sh and net-persist.sh): TAP
# helpers, the test's own network namespaces and servers, snapshot() of the
# "host" namespace, and the FETCH strings run inside sandboxes.
#
# No traffic leaves this machine: net_setup makes two network namespaces,
#   H ("host", where sbx runs)  up0 10.77.0.1/24, default via 10.77.0.2
#   R ("remote")                down0 10.77.0.2/24, 10.99.0.1/32 on lo
# R serves 10.99.0.1:8080 (replies "peer=<client address>", so NAT is visible)
# and H serves its own loopback 127.0.0.1:9090 (for host-gateway). Every
# address used exists only inside these namespaces; both are deleted at exit
# (after net_before_cleanup, if the script defines it).
#
# Order of use: . net-lib.sh; net_require; (the script's own checks); net_setup.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

# Root (for ip netns add) and the tools every network test uses, else exit 77.
net_require() {
        if [ "$(id -u)" != 0 ]; then
                echo "1..0 # SKIP needs root to make the test's own network namespaces (ip netns add)"
                exit 77
        fi
        for t in ip socat nft timeout setpriv unshare; do
                if ! command -v $t >/dev/null; then
                        echo "1..0 # SKIP '$t' is missing (Debian: iproute2 socat nftables coreutils util-linux)"
                        exit 77
                fi
        done
}

H=sbxtH-$$
R=sbxtR-$$
TMP=
# H and R with their link, addresses, routes and the two servers (killed with
# their namespaces); exit 77 if namespaces cannot be made.
net_namespaces_up() {
        local i
        ip netns add $H && ip netns add $R || { echo "1..0 # SKIP cannot create network namespaces"; exit 77; }
        # A new namespace copies the host's ip_forward (devconf_inherit_init_net
        # 0), which podman or containerd may have set to 1: H starts at 0, as a
        # clean host, so "sbx restores ip_forward" is checked whatever the host's.
        ip netns exec $H sh -c 'echo 0 > /proc/sys/net/ipv4/ip_forward'
        ip -n $H link add up0 type veth peer name down0 netns $R
        ip -n $H addr add 10.77.0.1/24 dev up0
        ip -n $H link set up0 up
        ip -n $H link set lo up
        ip -n $R addr add 10.77.0.2/24 dev down0
        ip -n $R link set down0 up
        ip -n $R link set lo up
        ip -n $R addr add 10.99.0.1/32 dev lo
        ip -n $H route add default via 10.77.0.2
        setsid -f ip netns exec $R socat TCP-LISTEN:8080,bind=10.99.0.1,fork,reuseaddr \
                SYSTEM:'echo peer=$SOCAT_PEERADDR' </dev/null >/dev/null 2>&1
        setsid -f ip netns exec $H socat TCP-LISTEN:9090,bind=127.0.0.1,fork,reuseaddr \
                SYSTEM:'echo loop=$SOCAT_PEERADDR' </dev/null >/dev/null 2>&1
        for i in $(seq 50); do
                ip netns exec $R ss -ltn | grep -q 10.99.0.1:8080 && ip netns exec $H ss -ltn | grep -q 127.0.0.1:9090 && break
                sleep 0.1
        done
}
# Every process in them killed, both deleted.
net_namespaces_down() {
        for ns in $H $R; do
                ip netns pids $ns 2>/dev/null | xargs -r kill -9 2>/dev/null
                ip netns del $ns 2>/dev/null
        done
}
net_cleanup() {
        if declare -F net_before_cleanup >/dev/null; then net_before_cleanup; fi
        net_namespaces_down
        [ -z "$TMP" ] || rm -rf "$TMP"
}

# The namespaces, the two servers, $TMP (0755) and $before = snapshot().
net_setup() {
        TMP=$(mktemp -d /tmp/sbx-net-test.XXXXXX)
        chmod 755 "$TMP"
        on_exit net_cleanup
        net_namespaces_up
        before=$(snapshot)
}

# What the host namespace holds; must be identical after every run.
snapshot() {
        ip netns exec $H sh -c 'ip -br link; ip -br addr; ip route; ip rule;
                nft list ruleset; cat /proc/sys/net/ipv4/ip_forward' 2>&1 | sed 's/@if[0-9]*//'
}
# snapshot_is DESC: ok if H is as $before, polled for up to 5 s (the kernel
# frees a dead sandbox's namespace asynchronously; a leak still fails), else
# not ok with the difference.
snapshot_is() {
        local i now
        for i in $(seq 50); do
                now=$(snapshot)
                [ "$now" = "$before" ] && break
                sleep 0.1
        done
        if [ "$now" = "$before" ]; then ok "$1"; else
                not_ok "$1"
                diff <(printf '%s\n' "$before") <(printf '%s\n' "$now") | sed 's/^/#   /' | head -30
        fi
}

# in_h_nobody [VAR=VALUE...] CMD...: CMD in H as uid/gid 65534 with a clean
# environment (plus the VAR=VALUE given). pasta opens /dev/net/tun as the
# user. This machine's node may be 0600 (no udev); give the test a private
# 0666 node instead of changing the host's.
in_h_nobody() {
        timeout 30 unshare -m --propagation private sh -c '
                mount -t tmpfs -o mode=755 tmpfs /dev/net && mknod -m 666 /dev/net/tun c 10 200 &&
                exec ip netns exec "$0" setpriv --reuid=65534 --regid=65534 --clear-groups \
                        env -i PATH=/usr/bin:/bin HOME=/ TMPDIR=/tmp "$@"' "$H" "$@"
}
# Live pasta/passt processes of uid 65534 in H (pid, stat, comm): those of
# this test's sandboxes. pasta stays in the namespace sbx ran in (H) and
# daemonizes (its parent is pid 1), so H is what tells them from the pasta
# of another job's rootless tests on the same machine; a leaked one of ours
# is still in H here (H goes only at exit).
nobody_pasta() {
        local hns pid stat comm
        hns=$(stat -Lc %i "/run/netns/$H" 2>/dev/null) || return 0
        ps -o pid=,stat=,comm= -u 65534 | while read -r pid stat comm; do
                case "$stat" in *Z*) continue ;; esac
                case "$comm" in pasta*|passt*) ;; *) continue ;; esac
                [ "$(stat -Lc %i "/proc/$pid/ns/net" 2>/dev/null)" = "$hns" ] && echo "$pid $stat $comm"
        done
}

# a TCP round trip from inside a sandbox: fetch HOST PORT (the server closes at
# once; the timeout only bounds a failure, and is generous for a loaded machine)
FETCH='exec 3<>/dev/tcp/$0/$1 && timeout 10 cat <&3'
# the same for connections that may hang (dropped SYN): give up after 4 s
FETCH_T='timeout 4 bash -c "exec 3<>/dev/tcp/$0/$1 && timeout 3 cat <&3" "$0" "$1"'

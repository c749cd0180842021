#!/bin/bash
# SPDX-License-Identifier: MIT
# Start-up cost of networking (issue 7): `sbx run -- true` with --network none
# vs bridge, and `sbx create` + `sbx rm -f` of a persistent sandbox with none
# vs bridge, paired (alternating in one loop, so drift hits both alike),
# medians in milliseconds. Runs inside a network namespace made for the
# bench ("host" with one veth uplink and a default route), so nothing on the
# real host is touched and no packet leaves the machine.
#
#   bench/bench-net.sh [N]        (root; default N=30; SBX=path/to/sbx)
#
# Rows:
#   none                 an empty netns with lo (the default)
#   bridge (cold)        root: bridge sbx0 + nft table created and removed by
#                        every run (no other bridged sandbox alive)
#   bridge (warm)        root: another bridged sandbox keeps sbx0 alive, so a
#                        run only adds its veth pair (the common case under load)
#   none / pasta         unprivileged (uid 65534): none vs pasta
#   create (persistent)  root: `sbx create NAME` + `sbx rm -f NAME`, none vs
#                        bridge; the only bridged sandbox, so sbx0 and the nft
#                        table come with its create and go with its rm
set -eu
N=${1:-30}
SBX=${SBX:-$(cd "$(dirname "$0")/.." && pwd)/build/sbx}
[ "$(id -u)" = 0 ] || { echo "bench-net: needs root (it makes its own network namespace)" >&2; exit 1; }
H=sbxbench-$$
S=   # the persistent sandboxes' state dir
cleanup() {
        if [ -n "$S" ]; then
                "$SBX" ls --state-dir "$S" -q 2>/dev/null |
                        xargs -r ip netns exec $H "$SBX" rm --state-dir "$S" -f >/dev/null 2>&1 || true
                rm -rf "$S"
        fi
        ip netns pids $H 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del $H 2>/dev/null || true
}
trap cleanup EXIT
ip netns add $H
ip -n $H link add up0 type veth peer name up1
ip -n $H addr add 10.77.0.1/24 dev up0
ip -n $H link set up0 up
ip -n $H link set up1 up
ip -n $H link set lo up
ip -n $H route add default via 10.77.0.2

ms() { # ms CMD...: wall time of one run in ms (fails loudly)
        local t0 t1
        t0=$(date +%s%N)
        local err
        err=$("$@" 2>&1 >/dev/null) || { echo "bench-net: failed ($?): $*: $err" >&2; exit 1; }
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000))
}
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }
inH() { ip netns exec $H "$@"; }
# unprivileged, with a private 0666 /dev/net/tun (this machine's may be 0600)
unpriv() {
        unshare -m --propagation private sh -c '
                mount -t tmpfs -o mode=755 tmpfs /dev/net && mknod -m 666 /dev/net/tun c 10 200 &&
                exec ip netns exec "$0" setpriv --reuid=65534 --regid=65534 --clear-groups \
                        env -i PATH=/usr/bin:/bin HOME=/ "$@"' "$H" "$@"
}

T=$(mktemp -d)
for i in $(seq "$N"); do
        ms inH "$SBX" run --network none -- true >>"$T/none"
        ms inH "$SBX" run --network bridge -- true >>"$T/cold"
done
# persistent: create + rm -f (private state dir and workspace root)
S=$(mktemp -d /dev/shm/sbx-bench-net.XXXXXX 2>/dev/null || mktemp -d)
chmod 711 "$S"
export SBX_WORKSPACE_ROOT=$T/ws
create_rm() { # create_rm MODE NAME
        inH "$SBX" create --state-dir "$S" --network "$1" "$2" >/dev/null &&
                inH "$SBX" rm --state-dir "$S" -f "$2" >/dev/null
}
for i in $(seq "$N"); do
        ms create_rm none pn >>"$T/pnone"
        ms create_rm bridge pb >>"$T/pbridge"
done
# keep the bridge alive with one long-running bridged sandbox
setsid -f ip netns exec $H "$SBX" run --network bridge -- sleep 600 </dev/null >/dev/null 2>&1
for _ in $(seq 50); do ip -n $H link show sbx0 >/dev/null 2>&1 && break; sleep 0.1; done
for i in $(seq "$N"); do
        ms inH "$SBX" run --network none -- true >>"$T/none2"
        ms inH "$SBX" run --network bridge -- true >>"$T/warm"
done
pasta_ok=1
unpriv "$SBX" run --network bridge -- true >/dev/null 2>&1 || pasta_ok=0
if [ $pasta_ok = 1 ]; then
        for i in $(seq "$N"); do
                ms unpriv "$SBX" run --network none -- true >>"$T/unone"
                ms unpriv "$SBX" run --network bridge -- true >>"$T/pasta"
        done
fi
echo "sbx run -- true, median of $N paired runs (ms), $(uname -r), $(nproc) cpus"
printf '%-28s %8s   %-28s %8s\n' "root: none" "$(median <"$T/none")" "root: bridge (cold)" "$(median <"$T/cold")"
printf '%-28s %8s   %-28s %8s\n' "root: none" "$(median <"$T/none2")" "root: bridge (warm)" "$(median <"$T/warm")"
if [ $pasta_ok = 1 ]; then
        printf '%-28s %8s   %-28s %8s\n' "uid 65534: none" "$(median <"$T/unone")" "uid 65534: bridge (pasta)" "$(median <"$T/pasta")"
else
        echo "uid 65534: pasta cannot run here (skipped)"
fi
echo "sbx create NAME + sbx rm -f NAME (persistent), median of $N paired runs (ms)"
printf '%-28s %8s   %-28s %8s\n' "root: create none" "$(median <"$T/pnone")" "root: create bridge" "$(median <"$T/pbridge")"
rm -rf "$T"

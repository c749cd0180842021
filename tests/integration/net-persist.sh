#!/bin/bash
# SPDX-License-Identifier: MIT
# Networking of PERSISTENT sandboxes (sbx create/exec/stop/start/rm/prune):
# --network bridge as root (veth on sbx0, NAT, dns, extraHosts,
# host-gateway, isolated ports) and rootless (pasta); the network lasts
# across execs and stop/start; the host side is restored by rm, by rm/prune
# after a kill -9 of init or of a create in progress; refusals; joining a
# sandbox's namespace with container:NAME; `sbx docker create --network bridge`.
#
# No traffic leaves this machine: the namespaces H ("host") and R ("remote",
# the servers) are made by net-lib.sh (see there). Every sbx command runs
# inside H (the host-side collection works in the namespace where it runs),
# with a private state dir and workspace root; snapshot() of H must be as
# before whenever no bridged sandbox is left.
. "$(dirname "$0")/net-lib.sh"

net_require
: "${SBX:?SBX must point at the built sbx binary}"
if ! command -v python3 >/dev/null; then
        echo "1..0 # SKIP python3 is missing (reads sbx ls --json)"
        exit 77
fi
net_setup

# docker's default state base is $XDG_RUNTIME_DIR/sbx: the same as --state-dir
mkdir -p "$TMP/xdg" "$TMP/ws"
chmod 700 "$TMP/xdg"
export XDG_RUNTIME_DIR=$TMP/xdg SBX_WORKSPACE_ROOT=$TMP/ws SBX_IMAGE_DIR=$TMP/images
STATE=$XDG_RUNTIME_DIR/sbx
NB=$TMP/nobody            # the rootless section's dirs, owned by uid 65534

# sbxh CMD ARGS...: `sbx CMD` in H on the test's state dir; a command that
# hangs says so on stderr (a failed check shows why its output is empty)
sbxh() {
        local rc
        timeout 30 ip netns exec "$H" "$SBX" "$1" --state-dir "$STATE" "${@:2}"
        rc=$?
        [ "$rc" != 124 ] || echo "(sbx $1 killed after 30 s)" >&2
        return "$rc"
}
# nb CMD ARGS...: the same as uid 65534 (private /dev/net/tun) on its own dirs
nb() {
        in_h_nobody SBX_WORKSPACE_ROOT="$NB/ws" XDG_RUNTIME_DIR="$NB/run" \
                "$SBX" "$1" --state-dir "$NB/state" "${@:2}"
}
# created [nb] OPTIONS... NAME: sbx create; sets $rc and $out. The output
# goes through a file: a process that outlives sbx (init, pasta) must not
# hold the pipe of a $(...).
created() {
        local via=sbxh
        if [ "$1" = nb ]; then via=nb; shift; fi
        $via create "$@" >"$TMP/create.out" 2>&1
        rc=$?
        out=$(cat "$TMP/create.out")
}
# one field of a sandbox in `sbx ls --json`: field NAME KEY
field() {
        sbxh ls --json | python3 -c 'import json, sys
for s in json.load(sys.stdin):
    if s["name"] == sys.argv[1]: print(s.get(sys.argv[2], ""))' "$1" "$2"
}
# init pids of every sandbox listed in a `sbx ls --json` on stdin
init_pids() {
        python3 -c 'import json, sys
for s in json.load(sys.stdin): print(s.get("initPid") or "")' 2>/dev/null
}
# eaddr NAME: eth0's IPv4 address/prefix inside NAME
EADDR='ip -4 -o addr show dev eth0 | while read -r _ _ _ a _; do echo "$a"; done'
eaddr() { sbxh exec "$1" -- sh -c "$EADDR" 2>&1; }
# netns NAME: the network namespace an exec into NAME is in
netns() { sbxh exec "$1" -- readlink /proc/self/ns/net 2>&1; }
# host_veth NAME: the name, in H, of the peer of NAME's eth0
host_veth() {
        local idx
        idx=$(sbxh exec "$1" -- ip -o link show dev eth0 2>/dev/null | sed -n 's/^[0-9]*: eth0@if\([0-9]*\):.*/\1/p')
        [ -n "$idx" ] && ip -n "$H" -o link show | awk -F': ' -v i="$idx" '$1 == i { sub(/@.*/, "", $2); print $2 }'
}
# brmac: sbx0's MAC address in H (empty without sbx0)
brmac() { ip -n "$H" -br link show dev sbx0 2>/dev/null | awk '{ print $3 }'; }
# gwmac NAME: the MAC address NAME's ARP cache holds for the gateway 10.237.0.1
# (empty if it holds none)
gwmac() {
        sbxh exec "$1" -- ip neigh show 10.237.0.1 2>/dev/null |
                awk '{ for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i + 1) }'
}
# link_gone LINK: LINK is (or becomes within 5 s) absent from H
link_gone() {
        local i
        [ -n "$1" ] || return 1
        for i in $(seq 50); do ip -n "$H" link show dev "$1" >/dev/null 2>&1 || return 0; sleep 0.1; done
        return 1
}
# fetch_until WANT HOST PORT [NAME]: a TCP round trip from H (or from inside
# NAME), retried for up to 5 s until it answers WANT (a listener that was
# just started in the background needs a moment); prints the last answer
fetch_until() {
        local i got
        for i in $(seq 25); do
                if [ -n "${4:-}" ]; then
                        got=$(sbxh exec "$4" -- bash -c "$FETCH" "$2" "$3" 2>&1)
                else
                        got=$(ip netns exec "$H" timeout 3 bash -c "$FETCH" "$2" "$3" 2>&1)
                fi
                [ "$got" = "$1" ] && break
                sleep 0.2
        done
        printf '%s' "$got"
}
# listen NAME PORT TEXT [BIND]: a background socat in NAME, started by one
# exec and left running for later steps
listen() {
        sbxh exec "$1" -- sh -c 'setsid socat TCP-LISTEN:$0,fork,reuseaddr${2:+,bind=$2} SYSTEM:"echo $1" \
                </dev/null >/dev/null 2>&1 &' "$2" "$3" "${4:-}"
}
# Alive = exists and is neither a zombie nor exiting.
alive() {
        local st
        [ -n "$1" ] && [ "$1" != 0 ] || return 1
        st=$(grep '^State:' "/proc/$1/status" 2>/dev/null) || return 1
        case "$st" in *Z*|*X*) return 1 ;; esac
}
# Live sbx-init processes of this test's sandboxes (their /workspace comes from
# under $TMP: other sbx users of the machine do not count); inits_settle N
# polls up to 5 s for N.
inits() {
        local n=0 p
        for p in $(pgrep -x sbx-init || true); do
                alive "$p" && grep -qF "/${TMP##*/}/" "/proc/$p/mountinfo" 2>/dev/null && n=$((n + 1))
        done
        echo $n
}
inits_settle() {
        local n i
        for i in $(seq 50); do n=$(inits); [ "$n" = "$1" ] && break; sleep 0.1; done
        echo "$n"
}
# kill_init NAME: SIGKILL NAME's init (initPid of sbx ls --json), wait until
# it is dead; prints the pid (nothing if there is none)
kill_init() {
        local p
        p=$(field "$1" initPid)
        case "$p" in ''|0|*[!0-9]*) return 0 ;; esac
        kill -KILL "$p" 2>/dev/null
        for _ in $(seq 50); do alive "$p" || break; sleep 0.1; done
        echo "$p"
}
# kill_sbx_child TPID: SIGKILL the child of `timeout` (TPID), i.e. the sbx
# process (ip netns exec execs it); says whether one was there to kill
kill_sbx_child() {
        local p
        p=$(pgrep -P "$1" | head -1)
        if [ -n "$p" ] && alive "$p" && kill -KILL "$p" 2>/dev/null; then echo yes; else echo no; fi
}

# kill_create NAME AFTER: start a slow bridged create of NAME in H, SIGKILL
# sbx AFTER seconds after sbx0 appeared; sets $inprogress (yes/no)
kill_create() {
        local tpid i seen=0
        timeout 30 ip netns exec "$H" "$SBX" create --state-dir "$STATE" --network bridge \
                --setup-command 'sleep 5' "$1" </dev/null >"$TMP/kc.out" 2>&1 &
        tpid=$!
        for i in $(seq 200); do
                ip -n "$H" link show sbx0 >/dev/null 2>&1 && { seen=1; break; }
                kill -0 "$tpid" 2>/dev/null || break
                sleep 0.05
        done
        [ "$seen" = 1 ] && sleep "$2"
        inprogress=no
        [ "$seen" = 1 ] && inprogress=$(kill_sbx_child "$tpid")
        wait "$tpid" 2>/dev/null
        [ "$inprogress" = yes ] || sed 's/^/#   create: /' "$TMP/kc.out" | head -5
}

# reset_h: after a failed check, remove every sandbox and put H back as
# $before by hand (links named sbx*, table ip sbx, ip_forward), so that one
# leak does not fail every later section; says so in a TAP comment
reset_h() {
        local names l
        names=$(sbxh ls -q 2>/dev/null | sort -r)
        [ -z "$names" ] || sbxh rm -f $names >/dev/null 2>&1
        [ "$(snapshot)" = "$before" ] && return 0
        echo "# resetting H by hand for the next checks (sbx0, veths, table ip sbx, ip_forward)"
        for l in $(ip -n "$H" -o link show | awk -F': ' '$2 ~ /^sbx/ { sub(/@.*/, "", $2); print $2 }'); do
                ip -n "$H" link del "$l" 2>/dev/null
        done
        ip netns exec "$H" nft delete table ip sbx 2>/dev/null
        ip netns exec "$H" sh -c 'echo "$0" > /proc/sys/net/ipv4/ip_forward' "$(printf '%s\n' "$before" | tail -1)"
}

# At exit: rm -f every sandbox (inside H, so the host side is collected
# there), then SIGKILL whatever init or pasta of ours is still alive; the
# namespaces go after this.
net_before_cleanup() {
        local pids p names
        [ -n "$TMP" ] || return 0
        pids=$(sbxh ls --json 2>/dev/null | init_pids)
        # the joined sandbox (container:ja) before the one it joined
        names=$(sbxh ls -q 2>/dev/null | sort -r)
        [ -z "$names" ] || sbxh rm -f $names >/dev/null 2>&1
        if [ -d "$NB/state" ]; then
                pids="$pids $(nb ls --json 2>/dev/null | init_pids)"
                names=$(nb ls -q 2>/dev/null)
                [ -z "$names" ] || nb rm -f $names >/dev/null 2>&1
        fi
        for p in $pids $(cat "$TMP/pasta.pids" 2>/dev/null); do
                case "$(cat /proc/"$p"/comm 2>/dev/null)" in
                sbx-init|pasta*|passt*) kill -KILL "$p" 2>/dev/null ;;
                esac
        done
}


# ---- the record: where the init pid is (the crash checks use it) ----
created --network none p0
is "create --network none in H on a private state dir: exit 0" "$rc" 0
like "... prints a 64-hex id" "$out" '^[0-9a-f]{64}$'
like "sbx ls --json gives the init pid as initPid" "$(field p0 initPid)" '^[1-9][0-9]*$'
sbxh rm -f p0 >/dev/null 2>&1

# ---- refusals (exit 2, value named, nothing created) ----
created --network host h1
is "create --network host is refused with exit 2" "$rc" 2
like "... the refusal names 'host'" "$out" "'host'"
created --network container:p0 j0
is "create --network container:NAME without --dangerously-allow-container-namespace-join: exit 2" "$rc" 2
like "... the refusal names dangerouslyAllowContainerNamespaceJoin" "$out" "dangerouslyAllowContainerNamespaceJoin"
is "refused creates: sbx ls shows nothing" "$(sbxh ls -q 2>&1)" ""
snapshot_is "refused creates leave the host namespace as it was"

# ---- bridge as root: one sandbox, across execs and stop/start ----
bridge_root() {
        created --network bridge --dns 10.99.0.53 --add-host db:10.1.2.3 a
        is "create --network bridge: exit 0" "$rc" 0
        like "... prints a 64-hex id" "$out" '^[0-9a-f]{64}$'
        [ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /' | head -5
        like "the bridge sbx0 exists in H with the gateway 10.237.0.1" "$(ip -n "$H" -4 -o addr show dev sbx0 2>&1)" ' 10\.237\.0\.1/16 '
        a_addr=$(eaddr a)
        like "the first bridged sandbox's eth0 is 10.237.0.2" "$a_addr" '^10\.237\.0\.2/'
        like "... its default route is via 10.237.0.1" "$(sbxh exec a -- ip route show default 2>&1)" '^default via 10\.237\.0\.1 '
        out=$(sbxh exec a -- cat /etc/resolv.conf /etc/hosts 2>&1)
        like "--dns lands in /etc/resolv.conf" "$out" '^nameserver 10\.99\.0\.53$'
        like "--add-host lands in /etc/hosts" "$out" $'^10\\.1\\.2\\.3\tdb$'
        out=$(sbxh exec a -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)
        is "exec reaches the server in R through NAT (it sees 10.77.0.1)" "$out" "peer=10.77.0.1"
        a_ns=$(netns a)
        is "a second exec sees the same eth0 address" "$(eaddr a)" "$a_addr"
        is "... and the same network namespace" "$(netns a)" "$a_ns"
        out=$(sbxh exec a -- bash -c "$FETCH_T" 10.237.0.1 9090 2>&1)
        unlike "without host-gateway the host's loopback is not reachable" "$out" "^loop="
        is "sbx ls --json: ipAddress and gateway are eth0's" "$(field a ipAddress) $(field a gateway)" \
                "${a_addr%/*} 10.237.0.1"
        a_veth=$(host_veth a)
        like "the sandbox's veth ($a_veth) is a port of sbx0 in H" "$(ip -n "$H" -o link show dev "${a_veth:-none}" 2>&1)" ' master sbx0 '

        out=$(sbxh stop a 2>&1); rc=$?
        is "stop: exit 0" "$rc" 0
        link_gone "$a_veth" && ok "stop: the sandbox's veth is gone" || not_ok "stop: the sandbox's veth ($a_veth) is gone"
        snapshot_is "stop of the only bridged sandbox: H as before (links, addrs, routes, rules, nft, ip_forward)"
        is "... sbx0 is gone" "$(ip -n "$H" -br link show sbx0 2>/dev/null)" ""
        is "... nft table ip sbx is gone" "$(ip netns exec "$H" nft list table ip sbx 2>/dev/null)" ""
        out=$(sbxh start a 2>&1); rc=$?
        is "start: exit 0" "$rc" 0
        a_addr=$(eaddr a)
        like "start: eth0 has a bridge address again" "$a_addr" '^10\.237\.'
        out=$(sbxh exec a -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)
        is "start: the sandbox reaches the server again" "$out" "peer=10.77.0.1"
        # sbx0's MAC is its own, not its lowest port's: a bridge that takes
        # its ports' MACs changes it as sandboxes come and go, and the others
        # keep the old one in their ARP cache (packets to the gateway dropped
        # for up to 45 s: the "stop g: a still reaches the server" flake)
        mac0=$(brmac)
        like "sbx0 has a MAC address" "$mac0" '^([0-9a-f]{2}:){5}[0-9a-f]{2}$'
        isnt_port=yes
        for l in $(ip -n "$H" -o link show master sbx0 | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
                [ "$(ip -n "$H" -br link show dev "$l" | awk '{ print $3 }')" = "$mac0" ] && isnt_port="no: $l's"
        done
        is "... which is not its port's (a's veth) MAC" "$isnt_port" yes

        # ---- more bridged sandboxes: host-gateway, isolation, a listener across execs ----
        created --network bridge b
        is "a second bridged sandbox b: create exit 0" "$rc" 0
        created --network bridge --add-host gw:host-gateway g
        is "a host-gateway sandbox g: create exit 0" "$rc" 0
        is "the test counts its own running inits (a, b, g)" "$(inits)" 3
        b_addr=$(eaddr b)
        g_addr=$(eaddr g)
        like "b (no host-gateway) gets an address from the lower half (10.237.0.0/17)" "$b_addr" \
                '^10\.237\.([0-9]|[1-9][0-9]|1[01][0-9]|12[0-7])\.[0-9]+/'
        like "g (host-gateway) gets an address from the upper half (10.237.128.0/17)" "$g_addr" \
                '^10\.237\.(12[89]|1[3-9][0-9]|2[0-5][0-9])\.[0-9]+/'
        like "host-gateway in /etc/hosts is the bridge address 10.237.0.1" "$(sbxh exec g -- cat /etc/hosts 2>&1)" $'^10\\.237\\.0\\.1\tgw$'
        out=$(sbxh exec g -- bash -c "$FETCH" gw 9090 2>&1)
        like "host-gateway connects to H's 127.0.0.1:9090" "$out" "^loop="

        listen a 7000 from-a; rc=$?
        is "an exec that starts a background listener in a returns 0" "$rc" 0
        a_ip=${a_addr%/*}
        is "the listener is reachable from H at a's address ($a_ip) in a later step" "$(fetch_until from-a "$a_ip" 7000)" "from-a"
        out=$(sbxh exec b -- bash -c "$FETCH_T" "$a_ip" 7000 2>&1)
        unlike "ports isolated: b cannot reach a's listener" "$out" "from-a"
        is "... which a later exec in a still reaches" "$(sbxh exec a -- bash -c "$FETCH" 127.0.0.1 7000 2>&1)" "from-a"

        is "creating b and g leaves sbx0's MAC address as it was" "$(brmac)" "$mac0"
        # a's ARP cache holds the gateway (REACHABLE) while g stops
        is "a reaches the server before stop g" "$(sbxh exec a -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)" "peer=10.77.0.1"
        g_veth=$(host_veth g)
        out=$(sbxh stop g 2>&1); rc=$?
        is "stop g (a and b running): exit 0" "$rc" 0
        link_gone "$g_veth" && ok "stop g: its veth is gone from H" || not_ok "stop g: its veth ($g_veth) is gone from H"
        like "stop g: sbx0 stays for a and b" "$(ip -n "$H" -br link show sbx0 2>&1)" '^sbx0 '
        is "stop g: sbx0 keeps its MAC address" "$(brmac)" "$mac0"
        got=$(gwmac a)
        is "stop g: the gateway MAC in a's ARP cache is still sbx0's" "${got:-none}" "$(brmac)"
        is "stop g: a still reaches the server" "$(sbxh exec a -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)" "peer=10.77.0.1"
        out=$(sbxh start g 2>&1); rc=$?
        is "start g: exit 0" "$rc" 0
        like "start g: host-gateway works again" "$(sbxh exec g -- bash -c "$FETCH" gw 9090 2>&1)" "^loop="
        out=$(sbxh rm -f g 2>&1); rc=$?
        is "rm -f g: exit 0" "$rc" 0

        # ---- two sandboxes: removing one keeps the other's network ----
        out=$(sbxh rm -f a 2>&1); rc=$?
        is "rm -f a (b still there): exit 0" "$rc" 0
        link_gone "$a_veth" && ok "rm -f a: a's veth is gone" || not_ok "rm -f a: a's veth ($(host_veth a)) is gone"
        is "rm -f a: b still reaches the server" "$(sbxh exec b -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)" "peer=10.77.0.1"
        is "rm -f a: b keeps its address" "$(eaddr b)" "$b_addr"
        is "rm -f a: sbx0 keeps the MAC address it had with a alone" "$(brmac)" "$mac0"
        out=$(sbxh rm -f b 2>&1); rc=$?
        is "rm -f b, the last one: exit 0" "$rc" 0
        snapshot_is "rm -f of the last bridged sandbox: H exactly as before"
        is "... no sbx-init left" "$(inits_settle 0)" 0
}

# ---- kill -9 of init, then rm -f / prune ----
crashes() {
        created --network bridge c1
        c1_init=$(kill_init c1)
        out=$(sbxh rm -f c1 2>&1); rc=$?
        is "kill -9 of init ($c1_init), then rm -f: exit 0" "$rc" 0
        snapshot_is "kill -9 of init, then rm -f: H as before"
        is "... sbx ls shows nothing" "$(sbxh ls -q 2>&1)" ""

        created --network bridge c2
        c2_init=$(kill_init c2)
        out=$(sbxh prune --idle-hours 0 --max-age-days 0 2>&1); rc=$?
        is "kill -9 of init ($c2_init), then prune: it removes the crashed sandbox" "$out" c2
        snapshot_is "kill -9 of init, then prune: H as before"
        is "... sbx ls shows nothing" "$(sbxh ls -q 2>&1)" ""
        is "... no sbx-init left" "$(inits_settle 0)" 0

        # ---- kill -9 of a create in progress (slowed by --setup-command) ----
        kill_create k1 0.3
        is "kill -9 of sbx create (after sbx0 appeared): the create was still in progress" "$inprogress" yes
        out=$(sbxh prune --idle-hours 0 --max-age-days 0 2>&1); rc=$?
        is "... then prune: exit 0" "$rc" 0
        snapshot_is "... then prune: H as before"
        is "... no sbx-init left" "$(inits_settle 0)" 0
        is "... sbx ls does not list k1" "$(sbxh ls -q 2>&1)" ""

        kill_create k2 0
        is "kill -9 of sbx create (as sbx0 appeared): the create was still in progress" "$inprogress" yes
        sbxh rm -f k2 >/dev/null 2>&1
        is "... then rm -f k2: sbx ls does not list it" "$(sbxh ls -q 2>&1)" ""
        snapshot_is "... then rm -f: H as before"
        is "... no sbx-init left" "$(inits_settle 0)" 0

        # SIGKILL at fixed delays (no setup command: some creates finish first),
        # each followed by prune + rm -f and a look at H
        leaks=
        for d in 0.005 0.01 0.015 0.02 0.03 0.05 0.1 0.2; do
                timeout 30 ip netns exec "$H" "$SBX" create --state-dir "$STATE" --network bridge sw \
                        </dev/null >/dev/null 2>&1 &
                tpid=$!
                sleep "$d"
                kill_sbx_child "$tpid" >/dev/null
                wait "$tpid" 2>/dev/null
                sbxh prune --idle-hours 0 --max-age-days 0 >/dev/null 2>&1
                sbxh rm -f sw >/dev/null 2>&1
                for _ in $(seq 20); do [ "$(snapshot)" = "$before" ] && break; sleep 0.1; done
                if [ "$(snapshot)" != "$before" ]; then
                        leaks="$leaks $d"
                        echo "# killed after $d s, then prune + rm -f: H differs:"
                        diff <(printf '%s\n' "$before") <(snapshot) | sed 's/^/#   /' | head -8
                        reset_h
                fi
        done
        is "SIGKILL of create --network bridge at 8 points, each followed by prune + rm -f: H as before every time" \
                "${leaks# }" ""
        is "... no sbx-init left" "$(inits_settle 0)" 0
}

# ==== container join as root: --network container:NAME (rootless: in rootless()) ====
container_join() {
        created --network bridge ja
        is "join: a bridged sandbox ja: create exit 0" "$rc" 0
        ja_addr=$(eaddr ja)
        listen ja 7100 from-ja 127.0.0.1
        created --network container:ja --dangerously-allow-container-namespace-join jb
        is "join: create --network container:ja --dangerously-allow-container-namespace-join jb: exit 0" "$rc" 0
        [ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /' | head -5
        is "join: jb sees ja's eth0 address" "$(eaddr jb)" "$ja_addr"
        is "join: jb is in ja's network namespace" "$(netns jb)" "$(netns ja)"
        is "join: jb reaches the server in R" "$(sbxh exec jb -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)" "peer=10.77.0.1"
        is "join: ja's listener on 127.0.0.1:7100 is reachable from jb at 127.0.0.1:7100" \
                "$(fetch_until from-ja 127.0.0.1 7100 jb)" "from-ja"
        created --network container:missing --dangerously-allow-container-namespace-join jc
        is "join: container:missing fails with exit 125" "$rc" 125
        like "... naming the sandbox 'missing'" "$out" "missing"
        is "... and creates nothing" "$(sbxh ls -q 2>&1 | sort | tr '\n' ' ')" "ja jb "
        out=$(sbxh rm -f jb ja 2>&1); rc=$?
        is "join: rm -f jb ja: exit 0" "$rc" 0
        snapshot_is "join: after rm -f of both, H as before"
}

# ---- sbx docker create --network bridge (a tiny imported image) ----
docker_bridge() {
        img=sbx-test/docker:v1
        if ! python3 "$(dirname "$0")/rootfs-mkarchive.py" docker "$TMP/img.tar" ||
                ! timeout 60 "$SBX" rootfs import "$TMP/img.tar" >"$TMP/import.out" 2>&1; then
                sed 's/^/# /' "$TMP/import.out" 2>/dev/null | head -5
                skip "docker create --network bridge: cannot import the test image"
                return
        fi
        dk() { timeout 30 ip netns exec "$H" "$SBX" docker "$@"; }
        dk create --name dk1 --network bridge "$img" sleep infinity >"$TMP/dk.out" 2>&1; rc=$?
        is "sbx docker create --network bridge is accepted (exit 0)" "$rc" 0
        like "... prints a 64-hex id" "$(cat "$TMP/dk.out")" '^[0-9a-f]{64}$'
        is "docker inspect {{.HostConfig.NetworkMode}} says bridge" \
                "$(dk inspect -f '{{.HostConfig.NetworkMode}}' dk1 2>&1)" bridge
        dk start dk1 >"$TMP/dk.out" 2>&1; rc=$?
        is "docker start of the bridged container: exit 0" "$rc" 0
        is "... puts one veth on sbx0 in H" "$(ip -n "$H" -o link show master sbx0 2>/dev/null | wc -l)" 1
        like "docker inspect NetworkSettings: the address on the bridge and its gateway" \
                "$(dk inspect -f '{{.NetworkSettings.IPAddress}} {{.NetworkSettings.Networks.bridge.Gateway}}' dk1 2>&1)" \
                '^10\.237\.[0-9]+\.[0-9]+ 10\.237\.0\.1$'
        dk rm -f dk1 >/dev/null 2>&1
        snapshot_is "docker rm -f: H as before"
}

# ---- rootless: pasta, as uid 65534 ----
rootless() {
        if ! command -v pasta >/dev/null; then
                skip "rootless: pasta (Debian package passt) is not installed"
                return
        fi
        mkdir -p "$NB/state" "$NB/ws" "$NB/run"
        chmod 700 "$NB/run"
        chown -R 65534:65534 "$NB"
        out=$(in_h_nobody XDG_RUNTIME_DIR="$NB/run" "$SBX" run --network bridge -- true 2>&1)
        if printf '%s' "$out" | grep -q 'pasta exited\|tun'; then
                skip "rootless: pasta cannot run here: $(printf '%s' "$out" | head -1)"
                return
        fi
        pasta_before=$(nobody_pasta | awk '{print $1}')
        created nb --network bridge r1
        is "rootless: create --network bridge as uid 65534: exit 0" "$rc" 0
        like "... prints a 64-hex id" "$out" '^[0-9a-f]{64}$'
        [ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /' | head -5
        nobody_pasta | awk '{print $1}' | grep -vxF -e "${pasta_before:-none}" >>"$TMP/pasta.pids"
        out=$(nb exec r1 -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)
        is "rootless (pasta): exec reaches the server in R" "$out" "peer=10.77.0.1"
        n1=$(nb exec r1 -- sh -c 'readlink /proc/self/ns/net; ip -4 -o addr show scope global' 2>&1)
        like "rootless: the sandbox has the host's address (pasta)" "$n1" 'inet 10\.77\.0\.1/'
        is "rootless: a second exec sees the same network (namespace, addresses)" \
                "$(nb exec r1 -- sh -c 'readlink /proc/self/ns/net; ip -4 -o addr show scope global' 2>&1)" "$n1"
        # container join without root: r2 is made inside r1's user namespace
        created nb --network container:r1 --dangerously-allow-container-namespace-join r2
        is "rootless join: create --network container:r1 r2: exit 0" "$rc" 0
        [ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /' | head -5
        is "rootless join: r2 is in r1's network namespace, with its addresses" \
                "$(nb exec r2 -- sh -c 'readlink /proc/self/ns/net; ip -4 -o addr show scope global' 2>&1)" "$n1"
        is "rootless join: r2 reaches the server in R" "$(nb exec r2 -- bash -c "$FETCH" 10.99.0.1 8080 2>&1)" \
                "peer=10.77.0.1"
        unlike "rootless join: r2 has its own mount namespace" \
                "$(nb exec r2 -- readlink /proc/self/ns/mnt 2>&1)" "^$(nb exec r1 -- readlink /proc/self/ns/mnt 2>&1)\$"
        nb exec r1 -- sh -c 'setsid sleep 31407 </dev/null >/dev/null 2>&1 &'
        SEEN='for f in /proc/[0-9]*/cmdline; do tr "\\0" " " <"$f"; echo; done 2>/dev/null | grep -c "^[s]leep 31407"'
        is "control: r1 sees its own background sleep" "$(nb exec r1 -- sh -c "$SEEN" 2>&1)" 1
        is "rootless join: r2 does not see r1's processes (own pid namespace)" \
                "$(nb exec r2 -- sh -c "$SEEN" 2>&1)" 0
        is "rootless join: r2 has no capabilities" "$(nb exec r2 -- grep CapEff /proc/self/status 2>&1)" \
                "CapEff:	0000000000000000"
        created nb --user 1000 --network container:r1 --dangerously-allow-container-namespace-join r3
        is "rootless join: a user r1's namespace does not map is refused (exit 2)" "$rc" 2
        like "... naming the user and the sandbox" "$out" "no user 1000:1000.*--user"
        out=$(nb rm -f r2 2>&1); rc=$?
        is "rootless join: rm -f r2: exit 0" "$rc" 0
        out=$(nb rm -f r1 2>&1); rc=$?
        is "rootless: rm -f: exit 0" "$rc" 0
        for _ in $(seq 30); do [ -z "$(nobody_pasta)" ] && break; sleep 0.1; done
        is "rootless: no pasta/passt process of uid 65534 is left" "$(nobody_pasta)" ""
        is "rootless: sbx ls shows nothing" "$(nb ls -q 2>&1)" ""
        snapshot_is "rootless: H as before"
}

# ---- run the sections ----
if nft list tables >/dev/null 2>&1; then
        bridge_root; reset_h
        crashes; reset_h
        container_join; reset_h
        docker_bridge; reset_h
else
        skip "bridge as root, crashes, container join, docker: nftables does not work here"
fi
rootless

# ---- the end ----
is "at the end: sbx ls shows nothing" "$(sbxh ls -q 2>&1)" ""
is "at the end: no sbx-init left" "$(inits_settle 0)" 0
snapshot_is "at the end: H as before"
done_testing

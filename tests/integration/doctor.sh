#!/bin/bash
# sbx doctor tells the truth about this host: its --json parses, and its cgroup
# verdict matches what we read ourselves from /proc/mounts and cgroup.controllers.
set -u
: "${SBX:?SBX must point at the sbx binary}"
n=0 fail=0
ok()  { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $*"; }
t()   { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

out=$("$SBX" doctor --json); rc=$?
t "sbx doctor --json exits 0 (user namespaces present here)" [ "$rc" = 0 ]
get() { printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
has() { get "$1" >/dev/null; }
t "--json output parses" has 'len(d["checks"])'

# independent reading of the cgroup mode
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then mode=v2; root=/sys/fs/cgroup
elif awk '$3=="cgroup2"{f=1} END{exit !f}' /proc/mounts; then
        mode=hybrid; root=$(awk '$3=="cgroup2"{print $2; exit}' /proc/mounts)
        awk '$3=="cgroup"{f=1} END{exit !f}' /proc/mounts || mode=v2
elif awk '$3=="cgroup"{f=1} END{exit !f}' /proc/mounts; then mode=v1; root=
else mode=none; root=; fi
echo "# /proc/mounts says: mode=$mode cgroup2=${root:-none}"
t "cgroup mode '$(get 'd["cgroup"]["mode"]')' matches /proc/mounts ($mode)" \
        [ "$(get 'd["cgroup"]["mode"]')" = "$mode" ]
t "cgroup2 mount matches /proc/mounts" [ "$(get 'd["cgroup"]["mount"] or ""')" = "$root" ]
have_all=1
for c in memory pids cpu; do
        [ -n "$root" ] && grep -qw "$c" "$root/cgroup.controllers" || have_all=0
done
# issue 15: v1 hierarchies carry the limits when cgroup2 has none of them
v1_all=1
for c in memory pids cpu; do
        awk -v c="$c" '$3=="cgroup" && ("," $4 ",") ~ ("," c ",") {f=1} END{exit !f}' /proc/mounts || v1_all=0
done
v2_any=0
for c in memory pids cpu; do [ -n "$root" ] && grep -qw "$c" "$root/cgroup.controllers" && v2_any=1; done
if [ "$have_all" = 0 ] && [ "$v1_all" = 1 ] && [ "$v2_any" = 0 ]; then
        echo "# memory, pids and cpu are cgroup v1 hierarchies here"
        t "doctor says limits use cgroup v1" [ "$(get 'd["cgroup"]["hierarchy"]')" = v1 ]
        t "doctor lists the v1 memory/pids/cpu hierarchies" has \
                'all(any(c in h["controllers"].split() for h in d["cgroup"]["v1"]) for c in ("memory","pids","cpu")) or sys.exit(1)'
        t "cgroup check is ok (the controllers exist)" \
                [ "$(get '[c["status"] for c in d["checks"] if c["id"]=="cgroup"][0]')" = ok ]
        if [ "$(id -u)" = 0 ]; then
                t "as root: limits_enforceable (cgroup v1)" [ "$(get 'd["cgroup"]["limits_enforceable"]')" = True ]
                t "human output says enforced with cgroup v1" sh -c '"$SBX" doctor | grep -q "enforced with cgroup v1"'
                t "default pids cap reported (1024)" [ "$(get 'd["cgroup"]["default_pids_limit"]')" = 1024 ]
                t "SBX_DEFAULT_PIDS_LIMIT=0: no default cap reported" \
                        sh -c '[ "$(SBX_DEFAULT_PIDS_LIMIT=0 "$SBX" doctor --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"cgroup\"][\"default_pids_limit\"])")" = 0 ]'
        else
                t "unprivileged: limits not enforceable on v1, with the reason" \
                        [ "$(get '(d["cgroup"]["limits_enforceable"], "only root" in d["cgroup"]["problem"])')" = "(False, True)" ]
                t "human output says limits are refused" sh -c '"$SBX" doctor | grep -q "REFUSED on this host unless --limits best-effort"'
                t "unprivileged: no default pids cap here" [ "$(get 'd["cgroup"]["default_pids_limit"]')" = 0 ]
                ok "# SKIP SBX_DEFAULT_PIDS_LIMIT=0 check: no default cap unprivileged on v1"
        fi
elif [ "$have_all" = 0 ]; then
        t "limits_enforceable is false (memory/pids/cpu not all on cgroup v2 here)" \
                [ "$(get 'd["cgroup"]["limits_enforceable"]')" = False ]
        t "cgroup check is not 'ok' and carries a fix" \
                [ "$(get '[c["status"] + "|" + str(bool(c["fix"])) for c in d["checks"] if c["id"]=="cgroup"][0]')" = "warn|True" ]
        t "human output says limits are refused" sh -c '"$SBX" doctor | grep -q "REFUSED on this host unless --limits best-effort"'
else
        t "cgroup check is ok where memory/pids/cpu are on cgroup v2" \
                [ "$(get '[c["status"] for c in d["checks"] if c["id"]=="cgroup"][0]')" = ok ]
        t "doctor says limits use cgroup v2" [ "$(get 'd["cgroup"]["hierarchy"]')" = v2 ]
        ok "# SKIP human refusal line: this host has the controllers"
fi
t "every check has a known status, and a fix unless ok" has \
        'all(c["status"] in ("ok","warn","missing") and (c["status"]=="ok" or c["fix"]) for c in d["checks"]) or sys.exit(1)'
for id in userns cgroup cgroup-delegation overlay-userns seccomp landlock idmapped-mounts network-bridge subids clone3 openat2; do
        t "check '$id' reported" has "[c for c in d['checks'] if c['id']=='$id'][0]['id']"
done
# independent probes of two checks
if unshare -Ur true 2>/dev/null; then us=ok; else us=missing; fi
t "userns verdict matches 'unshare -Ur true' ($us)" \
        [ "$(get '[c["status"] for c in d["checks"] if c["id"]=="userns"][0]')" != "$([ $us = ok ] && echo missing || echo ok)" ]
# network bridge: as root nft must work; otherwise pasta on PATH and /dev/net/tun read-write
if [ "$(id -u)" = 0 ]; then
        if nft list tables >/dev/null 2>&1; then nb=ok; else nb=warn; fi
        why="nft list tables"
else
        if command -v pasta >/dev/null && [ -r /dev/net/tun ] && [ -w /dev/net/tun ]; then nb=ok; else nb=warn; fi
        why="pasta on PATH, /dev/net/tun rw"
fi
t "network-bridge verdict matches '$why' ($nb)" \
        [ "$(get '[c["status"] for c in d["checks"] if c["id"]=="network-bridge"][0]')" = "$nb" ]
"$SBX" doctor --bogus >/dev/null 2>&1; t "unknown option is a usage error (2)" [ $? = 2 ]
t "--help exits 0 and mentions --json" sh -c '"$SBX" doctor --help | grep -q -- --json'
t "no probe directory left in /tmp" sh -c '! ls -d /tmp/sbx-doctor-* 2>/dev/null | grep -q .'
echo "1..$n"
exit $fail

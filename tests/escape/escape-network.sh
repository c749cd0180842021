#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite (issue 10): reaching the host over the network from a
# `--network none` sandbox: a TCP listener on the host's 127.0.0.1 and an
# abstract unix socket listener (abstract names are scoped by the network
# namespace). Positive controls: both are reachable from the host.
. "$(dirname "$0")/lib.sh"

port=$(( 20000 + $$ % 20000 ))
name="sbx-escape-$$"
"$SBX_PROBE" listen tcp $port > "$TMP/tcp.out" & tcp_pid=$!
"$SBX_PROBE" listen abstract "$name" > "$TMP/abs.out" & abs_pid=$!
on_exit 'kill $tcp_pid $abs_pid 2>/dev/null; rm -rf "$TMP"'
for i in $(seq 50); do
        grep -q ready "$TMP/tcp.out" && grep -q ready "$TMP/abs.out" && break
        sleep 0.1
done
is "host listeners are up" "$(cat "$TMP/tcp.out" "$TMP/abs.out" | tr '\n' ' ')" "ready ready "

control "the host reaches its TCP listener on 127.0.0.1:$port" "$("$SBX_PROBE" connect 127.0.0.1 $port)" OK
is "host-loopback-tcp: 127.0.0.1:$port is ECONNREFUSED inside (the sandbox's own lo)" \
        "$(tsbx --network none -- /sbx-probe connect 127.0.0.1 $port)" ECONNREFUSED
is "host-loopback-tcp: also with the default network mode" "$(tsbx -- /sbx-probe connect 127.0.0.1 $port)" ECONNREFUSED
hostip=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ split($4, a, "/"); print a[1]; exit }')
if [ -n "$hostip" ]; then
        is "host-address-tcp: the host's $hostip is ENETUNREACH inside" "$(tsbx -- /sbx-probe connect "$hostip" $port)" ENETUNREACH
else
        skip "host-address-tcp: the host has no global IPv4 address"
fi
control "the host reaches its abstract unix socket @$name" "$("$SBX_PROBE" connect-abstract "$name")" OK
is "host-abstract-unix: @$name is ECONNREFUSED inside" "$(tsbx --network none -- /sbx-probe connect-abstract "$name")" ECONNREFUSED
# the host's named (filesystem) sockets: not mounted, so not there
if [ -S /run/systemd/private ] || [ -S /var/run/docker.sock ]; then
        is "host-named-unix: /run/systemd/private and /var/run/docker.sock are absent" \
                "$(tsbx -- /sbx-probe open /run/systemd/private)$(tsbx -- /sbx-probe open /var/run/docker.sock)" ENOENTENOENT
else
        is "host-named-unix: the host's /run is not visible (an empty tmpfs)" "$("$SBX" run -- /bin/ls -A /run)" ""
fi
is "egress: 1.1.1.1:80 is ENETUNREACH" "$(tsbx -- /sbx-probe connect 1.1.1.1 80)" ENETUNREACH
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

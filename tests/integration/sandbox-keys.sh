#!/bin/bash
# SPDX-License-Identifier: MIT
# Kernel key quota (launch.c child_main): each sandbox joins a fresh session
# keyring (none of the caller's keys in it) before it takes the sandbox's
# ids, so as root the keyring is charged to host root's quota
# (kernel.keys.root_maxkeys), not to the mapped host uid that every root
# sandbox shares (kernel.keys.maxkeys, 200): before, `sbx create` failed with
# EDQUOT ("keyctl: join a new session keyring") after ~200 sandboxes.
# SBX_KEYS_N sandboxes (250; above maxkeys).
. "$(dirname "$0")/sandbox-lib.sh"

n=${SBX_KEYS_N:-250}
# key-users: "uid: usage keys/instantiated qkeys/maxkeys qbytes/maxbytes"
qkeys() { awk -v u="$1:" '$1 == u {split($4, a, "/"); print a[1]; f = 1} END {if (!f) print 0}' /proc/key-users; }
if [ "$(id -u)" != 0 ]; then
        skip "rootless sandboxes run as the caller: their keyrings are the caller's to count"
        done_testing
fi
if [ ! -r /proc/key-users ]; then
        skip "no /proc/key-users (kernel without CONFIG_KEYS)"
        done_testing
fi
sbx_create k0 >/dev/null
mapped=$(sbx exec k0 -- cat /proc/self/uid_map | awk '$1 == 0 {print $2}')
like "a root sandbox's root is a mapped host uid" "$mapped" '^[1-9][0-9]*$'
root0=$(qkeys 0); mapped0=$(qkeys "$mapped")
fails=0
for i in $(seq 1 "$n"); do
        sbx_create "k$i" >/dev/null 2>"$TMP/err" || { fails=$((fails + 1)); cp "$TMP/err" "$TMP/first-err" 2>/dev/null; }
done
is "$n more sandboxes are created (above kernel.keys.maxkeys $(cat /proc/sys/kernel/keys/maxkeys))" \
        "$fails$(cat "$TMP/first-err" 2>/dev/null)" 0
# other jobs on the host may create root sandboxes meanwhile: margins, not counts
d_root=$(( $(qkeys 0) - root0 )); d_mapped=$(( $(qkeys "$mapped") - mapped0 ))
if [ "$d_root" -ge "$n" ]; then ok "... their keyrings are charged to host root ($d_root keys more)"
else not_ok "... their keyrings are charged to host root ($d_root keys more, want >= $n)"; fi
if [ "$d_mapped" -lt $((n / 2)) ]; then ok "... not to the mapped uid $mapped ($d_mapped keys more)"
else not_ok "... not to the mapped uid $mapped ($d_mapped keys more, want < $((n / 2)))"; fi
is "an exec in the last one runs" "$(sbx exec "k$n" -- echo hi)" hi
sbx rm -f --all >/dev/null
is "rm -f --all: nothing listed" "$(sbx ls -q)" ""
for _ in $(seq 50); do [ $(( $(qkeys 0) - root0 )) -lt "$n" ] && break; sleep 0.1; done
if [ $(( $(qkeys 0) - root0 )) -lt "$n" ]; then ok "... and their keyrings are gone"
else not_ok "... and their keyrings are gone ($(( $(qkeys 0) - root0 )) left)"; fi
done_testing

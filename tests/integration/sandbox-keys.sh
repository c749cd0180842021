#!/bin/bash
# SPDX-License-Identifier: MIT
# Kernel key quota (launch.c child_main): each sandbox joins a fresh session
# keyring (none of the caller's keys in it) before it takes the sandbox's
# ids, so as root the keyring is charged to host root's quota
# (kernel.keys.root_maxkeys), not to the mapped host uid that every root
# sandbox shares (kernel.keys.maxkeys, 200): before, `sbx create` failed with
# EDQUOT ("keyctl: join a new session keyring") after ~200 sandboxes.
# SBX_KEYS_N sandboxes (250; above maxkeys). Other jobs on the host create and
# remove root sandboxes (and keys) meanwhile, so host root's key count
# (/proc/key-users) moves by itself: the keyrings are counted by serial
# instead, in /proc/keys (host root views every key it owns): the anonymous
# session keyrings ("_ses") owned by uid 0 that appear during the creates
# (ours, and at most those of other jobs' sandboxes made at the same time)
# and, after rm, how many of those are gone.
. "$(dirname "$0")/sandbox-lib.sh"

n=${SBX_KEYS_N:-250}
# key-users: "uid: usage keys/instantiated qkeys/maxkeys qbytes/maxbytes"
qkeys() { awk -v u="$1:" '$1 == u {split($4, a, "/"); print a[1]; f = 1} END {if (!f) print 0}' /proc/key-users; }
# /proc/keys: "serial flags usage expiry perm uid gid type description: summary"
root_ses() { awk '$6 == 0 && $8 == "keyring" && $9 == "_ses:" {print $1}' /proc/keys | sort; }
if [ "$(id -u)" != 0 ]; then
        skip "rootless sandboxes run as the caller: their keyrings are the caller's to count"
        done_testing
fi
if [ ! -r /proc/key-users ] || [ ! -r /proc/keys ]; then
        skip "no /proc/key-users or /proc/keys (kernel without CONFIG_KEYS)"
        done_testing
fi
sbx_create k0 >/dev/null
mapped=$(sbx exec k0 -- cat /proc/self/uid_map | awk '$1 == 0 {print $2}')
like "a root sandbox's root is a mapped host uid" "$mapped" '^[1-9][0-9]*$'
root_ses >"$TMP/ses0"; mapped0=$(qkeys "$mapped")
fails=0
for i in $(seq 1 "$n"); do
        sbx_create "k$i" >/dev/null 2>"$TMP/err" || { fails=$((fails + 1)); cp "$TMP/err" "$TMP/first-err" 2>/dev/null; }
done
is "$n more sandboxes are created (above kernel.keys.maxkeys $(cat /proc/sys/kernel/keys/maxkeys))" \
        "$fails$(cat "$TMP/first-err" 2>/dev/null)" 0
# new root session keyrings: ours (n), plus any other job's made meanwhile
root_ses | comm -13 "$TMP/ses0" - >"$TMP/ses-new"
d_root=$(wc -l <"$TMP/ses-new"); d_mapped=$(( $(qkeys "$mapped") - mapped0 ))
if [ "$d_root" -ge "$n" ]; then ok "... their keyrings are charged to host root ($d_root new root session keyrings)"
else not_ok "... their keyrings are charged to host root ($d_root new root session keyrings, want >= $n)"; fi
if [ "$d_mapped" -lt $((n / 2)) ]; then ok "... not to the mapped uid $mapped ($d_mapped keys more)"
else not_ok "... not to the mapped uid $mapped ($d_mapped keys more, want < $((n / 2)))"; fi
is "an exec in the last one runs" "$(sbx exec "k$n" -- echo hi)" hi
sbx rm -f --all >/dev/null
is "rm -f --all: nothing listed" "$(sbx ls -q)" ""
# of the new ones at least n are gone (other jobs' sandboxes may live on);
# the kernel frees a keyring a moment after its last holder: up to 5 s
gone() { root_ses | comm -23 "$TMP/ses-new" - | wc -l; }
for _ in $(seq 50); do [ "$(gone)" -ge "$n" ] && break; sleep 0.1; done
g=$(gone)
if [ "$g" -ge "$n" ]; then ok "... and their keyrings are gone ($g of the $d_root new ones)"
else not_ok "... and their keyrings are gone (only $g of the $d_root new ones, want >= $n)"; fi
done_testing

#!/bin/bash
# (red team round 6) the latency of a neighbour sandbox's `sbx create` started while `sbx rm -f`
# removes a sandbox whose overlay upper layer holds N empty files, once that sandbox's init is
# gone. Before round 6 the create waited for the whole delete (the state root's lock).
# neighbour create latency while `sbx rm -f` of a sandbox with N files in its upper layer runs
# usage: bench-rm-neighbour.sh SBX N -> prints "create_ms rm_ms"
S=$1 N=$2
st=$(mktemp -d /tmp/r6b.XXXXXX); ws=$(mktemp -d /tmp/r6bw.XXXXXX)
$S create --state-dir $st --name fat --workspace $ws --workspace-mode overlay >/dev/null 2>&1
$S exec --state-dir $st fat -- python3 -c "import os
os.mkdir('/workspace/m'); os.chdir('/workspace/m')
for i in range($N): open(str(i), 'w').close()"
ipid=$($S ls --state-dir $st --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["initPid"])')
t0=$(date +%s%N)
( $S rm -f --state-dir $st fat >/dev/null 2>&1; echo $(( ($(date +%s%N) - t0) / 1000000 )) > $st.rm ) &
rp=$!
for _ in $(seq 400); do s=$(sed -n "s/^.*) \([A-Z]\).*/\1/p" /proc/$ipid/stat 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ] || break; sleep 0.01; done
c0=$(date +%s%N)
$S create --state-dir $st --name nb --read-only >/dev/null 2>&1
c1=$(date +%s%N)
wait $rp
echo "$(( (c1 - c0) / 1000000 )) $(cat $st.rm)"
$S rm -f --state-dir $st nb >/dev/null 2>&1
rm -rf $st $st.rm $ws

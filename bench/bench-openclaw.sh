#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenClaw's new-session docker sequence through sbx as `docker` (issue 16):
# the calls of ../shared/spec/openclaw-spec.md §6.1 in order, with the argv
# OpenClaw 2026.9.6 sends (../shared/spec/docker-traces/
# docker-trace-first-exec-new-session.jsonl, no setupCommand):
#   inspect -f {{.State.Running}} NAME   (miss: exit 1)
#   image inspect IMAGE
#   create --name NAME --init --label ... -v WS:/workspace:z ... IMAGE sleep infinity
#   start NAME
#   exec -i -w /workspace --env-file F NAME /bin/sh -lc '<PATH prefix>; echo hi'
# then M later execs of the same command. Every round also times, paired and
# in rotated order, a cold `sbx run -- /bin/true` and a warm
# `sbx exec NAME -- /bin/sh -lc ...` of the same command, so the ratios are
# per round; medians over N rounds.
#
#   bench/bench-openclaw.sh [-n N] [-m M] [--state-fs tmpfs|disk] [SBX]
#
# Needs root and the image openclaw-sandbox:bookworm-slim (sbx rootfs build;
# the e2e lane builds it). State goes to a fresh dir on /dev/shm (tmpfs) or
# /var/tmp (disk), removed at the end.
set -u
N=30
M=5
STATE_FS=tmpfs
IMAGE=openclaw-sandbox:bookworm-slim
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        -m) M=$2; shift 2 ;;
        --state-fs) STATE_FS=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) SBX=$1; shift ;;
        esac
done
. "$(dirname "$0")/lib.sh"
bench_sbx "${SBX:-}"
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 1; }
"$SBX" rootfs inspect "$IMAGE" >/dev/null 2>&1 ||
        { echo "bench: image $IMAGE not found (sbx rootfs build)" >&2; exit 1; }
case $STATE_FS in
tmpfs) base=/dev/shm ;;
disk) base=/var/tmp ;;
*) echo "bench: --state-fs tmpfs|disk" >&2; exit 1 ;;
esac

T=$(mktemp -d "$base/sbx-bench-oc.XXXXXX")
chmod 755 "$T"
mkdir -p -m 0700 "$T/run"
mkdir -p "$T/bin" "$T/ws/skills"
ln -s "$SBX" "$T/bin/docker"
D=$T/bin/docker
export XDG_RUNTIME_DIR=$T/run
printf 'LANG=C.UTF-8\nOPENCLAW_CLI=1\n' > "$T/container.env"
names=()
cleanup() {
        for n in "${names[@]}"; do "$D" rm -f "$n" >/dev/null 2>&1; done
        rm -rf "$T"
}
trap cleanup EXIT

CMD='export PATH="${OPENCLAW_PREPEND_PATH}:$PATH"; unset OPENCLAW_PREPEND_PATH; echo hi'
now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }

session() {     # session NAME: prints "inspect image create start exec1" in us
        local name=$1 t0 t1 t2 t3 t4 t5 rc
        t0=$(now_us)
        "$D" inspect -f '{{.State.Running}}' "$name" >/dev/null 2>&1; rc=$?
        [ "$rc" = 1 ] || { echo "bench: inspect of a new name gave $rc" >&2; exit 1; }
        t1=$(now_us)
        "$D" image inspect "$IMAGE" >/dev/null || exit 1
        t2=$(now_us)
        "$D" create --name "$name" --init --label openclaw.sandbox=1 \
                --label "openclaw.sessionKey=agent:bench:$name" --label "openclaw.createdAtMs=${t2:0:13}" \
                --label openclaw.mountFormatVersion=4 --label openclaw.createArgsEpoch=2026-08-25-container-env-file \
                --label openclaw.configHash=962325489288769e7209c1c499d4a71255c7a2eac756a70b9ea22ce8755b1c55 \
                --read-only --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run --network none --user 0:0 \
                --cap-drop ALL --security-opt no-new-privileges --workdir /workspace \
                -v "$T/ws:/workspace:z" -v "$T/ws/skills:/workspace/skills:ro,z" \
                --env-file "$T/container.env" "$IMAGE" sleep infinity >/dev/null || exit 1
        t3=$(now_us)
        "$D" start "$name" >/dev/null || exit 1
        t4=$(now_us)
        out=$("$D" exec -i -w /workspace --env-file "$T/container.env" -e "OPENCLAW_PREPEND_PATH=/usr/local/bin" \
                "$name" /bin/sh -lc "$CMD" </dev/null) || exit 1
        [ "$out" = hi ] || { echo "bench: first exec printed '$out'" >&2; exit 1; }
        t5=$(now_us)
        echo "$((t1 - t0)) $((t2 - t1)) $((t3 - t2)) $((t4 - t3)) $((t5 - t4))"
}

later_pair() {  # later_pair NAME I: prints "docker-exec sbx-exec" in us, order rotated
        local name=$1 i=$2 t0 t1 a b
        for k in 0 1; do
                if [ $(((i + k) % 2)) = 0 ]; then
                        t0=$(now_us)
                        "$D" exec -i -w /workspace --env-file "$T/container.env" -e "OPENCLAW_PREPEND_PATH=/usr/local/bin" \
                                "$name" /bin/sh -lc "$CMD" </dev/null >/dev/null || exit 1
                        t1=$(now_us); a=$((t1 - t0))
                else
                        t0=$(now_us)
                        "$SBX" exec -w /workspace "$name" -- /bin/sh -lc "$CMD" </dev/null >/dev/null || exit 1
                        t1=$(now_us); b=$((t1 - t0))
                fi
        done
        echo "$a $b"
}

cold() { local t0 t1; t0=$(now_us); "$SBX" run -- /bin/true || exit 1; t1=$(now_us); echo $((t1 - t0)); }


echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), state on $STATE_FS ($T), $(date -u +%FT%TZ)"
S=$T/rounds
: > "$S"
for _ in 1 2; do cold >/dev/null; done
for i in $(seq "$N"); do
        name=oc-bench-$$-$i
        names+=("$name")
        if [ $((i % 2)) = 0 ]; then c=$(cold); s=$(session "$name"); else s=$(session "$name"); c=$(cold); fi
        [ -n "$s" ] && [ -n "$c" ] || exit 1
        for j in $(seq "$M"); do
                echo "$c $s $(later_pair "$name" "$j")" >> "$S"
        done
        "$D" rm -f "$name" >/dev/null 2>&1
done
# columns: cold inspect image create start exec1 docker-exec sbx-exec
col() { awk -v c="$1" '{ print $c }' "$S" | median; }
ms() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1000 }'; }
printf "%-34s %8s ms\n" "cold sbx run -- /bin/true" "$(ms "$(col 1)")"
printf "%-34s %8s ms\n" "inspect (miss)" "$(ms "$(col 2)")" "image inspect" "$(ms "$(col 3)")" \
        "create" "$(ms "$(col 4)")" "start" "$(ms "$(col 5)")" "first exec" "$(ms "$(col 6)")"
seq_ratio=$(awk '{ print ($2 + $3 + $4 + $5 + $6) / $1 }' "$S" | median)
seq_ms=$(awk '{ print $2 + $3 + $4 + $5 + $6 }' "$S" | median)
printf "%-34s %8s ms  = %.2fx a cold run (median of paired ratios; target <= 5x)\n" \
        "new-session sequence (5 calls)" "$(ms "$seq_ms")" "$seq_ratio"
printf "%-34s %8s ms\n" "later docker exec" "$(ms "$(col 7)")" "warm sbx exec (same command)" "$(ms "$(col 8)")"
printf "%-34s %8.2fx (median of paired ratios; target <= 1.5x)\n" "later docker exec / sbx exec" \
        "$(awk '{ print $7 / $8 }' "$S" | median)"

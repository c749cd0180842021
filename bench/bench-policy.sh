#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 14: the cost of an agent's rules on the warm exec path. Two running
# sandboxes of the same image and settings: "off" (no agent: policy none) and
# "on" (sbx create --scope for an agent with tools.exec.security allowlist:
# the decision before fork, the Landlock ruleset re-applied on join, the exec
# log's seccomp listener). Paired and interleaved (order alternates), N
# rounds each of `sbx exec NAME -- CMD` for CMD = /bin/true and
# `sh -c 'true; /bin/true'` (two execs, one through the listener). Medians
# and the median of the paired ratios on/off.
#
#   bench/bench-policy.sh [-n N] [SBX]
set -u
. "$(dirname "$0")/lib.sh"
bench_args 200 "$@"
bench_sbx "${ARGS[0]:-}"
bench_state_dir
WORK=$(mktemp -d)
trap '"$SBX" rm --state-dir "$STATE" -f $("$SBX" ls --state-dir "$STATE" -q) >/dev/null 2>&1; rm -rf "$STATE" "$WORK"' EXIT
export HOME=$WORK/home SBX_WORKSPACE_ROOT=$WORK/ws
mkdir -p "$HOME" "$SBX_WORKSPACE_ROOT"
cat > "$WORK/openclaw.json" <<'J'
{ agents: { defaults: { sandbox: { mode: 'all', scope: 'session' } },
            list: [ { id: 'main', default: true },
                    { id: 'bench', tools: { exec: { security: 'allowlist', safeBins: ['true'] } } } ] } }
J
sbx() { "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
us() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }

sbx create off >/dev/null || exit 1
sbx create --scope session --agent bench --config "$WORK/openclaw.json" on >/dev/null 2>&1 || exit 1
sbx exec on -- /bin/true || { echo "bench: exec into the policy sandbox failed" >&2; exit 1; }

run_pair() {        # label CMD...: N paired rounds, prints medians and the paired ratio
        local label=$1 i a b; shift
        : > "$STATE/on.t"; : > "$STATE/off.t"; : > "$STATE/ratio.t"
        for i in $(seq "$N"); do
                if [ $((i % 2)) = 0 ]; then
                        a=$(us); sbx exec on -- "$@"; b=$(us); echo $((b - a)) >> "$STATE/on.t"
                        a=$(us); sbx exec off -- "$@"; b=$(us); echo $((b - a)) >> "$STATE/off.t"
                else
                        a=$(us); sbx exec off -- "$@"; b=$(us); echo $((b - a)) >> "$STATE/off.t"
                        a=$(us); sbx exec on -- "$@"; b=$(us); echo $((b - a)) >> "$STATE/on.t"
                fi
                paste -d' ' <(tail -1 "$STATE/on.t") <(tail -1 "$STATE/off.t") |
                        awk '{ printf "%.4f\n", $1 / $2 }' >> "$STATE/ratio.t"
        done
        printf '%-28s on %7.2f ms   off %7.2f ms   on/off (paired) %5.3f x\n' "$label" \
                "$(median < "$STATE/on.t" | awk '{print $1/1000}')" \
                "$(median < "$STATE/off.t" | awk '{print $1/1000}')" "$(median < "$STATE/ratio.t")"
}
printf 'rounds: %d (%s), load %s\n' "$N" "$( [ "$(id -u)" = 0 ] && echo root || echo rootless)" \
        "$(cut -d' ' -f1 /proc/loadavg)"
run_pair "warm exec /bin/true" /bin/true
run_pair "warm exec sh -c (2 execs)" sh -c 'true; /bin/true'

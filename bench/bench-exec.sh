#!/bin/bash
# SPDX-License-Identifier: MIT
# Persistent sandboxes (issue 4): warm `sbx exec NAME -- /bin/true` vs
# `nsenter` into the same seven namespaces vs a cold
# `sbx run -- /bin/true`, paired and interleaved (one of each per round, the
# order rotated), N rounds, medians and ratios; the init's RSS/PSS. (Many
# idle sandboxes: bench-scale.sh.) Where cc is installed, also exec-floor
# (bench/exec-floor.c, cc -static: one request to the sandbox's exec service,
# no record, locks, policy or resolution; issue 16): the service's own floor.
# --before OLD adds another sbx binary (say, main before a change): its own
# sandbox, created by it, and its `exec` in every round, so that before/after
# are paired too (both ratios are to the same round's nsenter).
#
#   bench/bench-exec.sh [-n N] [--before OLD] [SBX]
set -u
. "$(dirname "$0")/lib.sh"
OLD=
for ((k = 1; k <= $#; k++)); do
        if [ "${!k}" = --before ]; then
                v=$((k + 1)); OLD=$(realpath "${!v}")
                set -- "${@:1:k-1}" "${@:k+2}"
                break
        fi
done
bench_args 200 "$@"
bench_sbx "${ARGS[0]:-}"
command -v nsenter >/dev/null || { echo "bench: nsenter (util-linux) is needed" >&2; exit 1; }
bench_state_dir
WS=$(mktemp -d)
trap '"$SBX" rm --state-dir "$STATE" -f $("$SBX" ls --state-dir "$STATE" -q) >/dev/null 2>&1
      [ -z "$OLD" ] || "$OLD" rm --state-dir "$STATE/before" -f $("$OLD" ls --state-dir "$STATE/before" -q) >/dev/null 2>&1
      rm -rf "$STATE" "$WS"' EXIT
export SBX_WORKSPACE_ROOT=$WS
sbx() { "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }

# The clock in microseconds, read without a fork: $(...) would put a subshell's exit and the
# next one's fork inside every timed interval (~0.35 ms each side here, added alike to every
# contestant: it pulled every ratio towards 1).

sbx create warm >/dev/null || exit 1
pid=$(sbx ls --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["initPid"])')
nsenter_cmd=(nsenter -t "$pid" -U -m -p -n -i -u -C --preserve-credentials /bin/true)
"${nsenter_cmd[@]}" || { echo "bench: nsenter into pid $pid failed" >&2; exit 1; }
floor=$STATE/exec-floor
contestants=(exec nsenter run)
if [ -n "$OLD" ]; then
        mkdir -m 711 "$STATE/before"
        "$OLD" create --state-dir "$STATE/before" warm >/dev/null || exit 1
        contestants+=(before)
fi
if command -v cc >/dev/null && cc -static -O2 -o "$floor" "$(dirname "$0")/exec-floor.c" 2>/dev/null &&
   "$floor" "$STATE/sandboxes/warm/exec.sock" "$pid" /usr/bin/true; then
        contestants+=(floor)
fi

# so would a file as stderr (bench-exec.sh 2>log): then the contestants' stderr is /dev/null
if [ -f /proc/self/fd/2 ]; then exec 3>/dev/null; else exec 3>&2; fi
: > "$STATE/exec.t"; : > "$STATE/nsenter.t"; : > "$STATE/run.t"; : > "$STATE/floor.t"; : > "$STATE/before.t"
: > "$STATE/ratio.t"
for i in $(seq "$N"); do
        k=$((i % ${#contestants[@]}))
        order=("${contestants[@]:$k}" "${contestants[@]:0:$k}")
        declare -A t=([floor]=0 [before]=0)
        for name in "${order[@]}"; do
                t0=${EPOCHREALTIME/[.,]/}
                case $name in
                exec) "$SBX" exec --state-dir "$STATE" warm -- /bin/true ;;
                nsenter) "${nsenter_cmd[@]}" ;;
                run) "$SBX" run --state-dir "$STATE" -- /bin/true ;;
                floor) "$floor" "$STATE/sandboxes/warm/exec.sock" "$pid" /usr/bin/true ;;
                before) "$OLD" exec --state-dir "$STATE/before" warm -- /bin/true ;;
                esac >/dev/null 2>&3 3>&-       # a file as stdout would cost sbx its relay (stdio-guard.c)
                t1=${EPOCHREALTIME/[.,]/}
                t[$name]=$((t1 - t0))
                echo "${t[$name]}" >> "$STATE/$name.t"
        done
        awk -v e="${t[exec]}" -v n="${t[nsenter]}" -v r="${t[run]}" -v f="${t[floor]}" -v b="${t[before]}" \
                'BEGIN {printf "%.4f %.4f %.4f %.4f %.4f\n", e/n, e/r, f/n, b/n, e/(b ? b : 1)}' >> "$STATE/ratio.t"
done
me=$(median < "$STATE/exec.t"); mn=$(median < "$STATE/nsenter.t"); mr=$(median < "$STATE/run.t")
rn=$(cut -d' ' -f1 "$STATE/ratio.t" | median); rr=$(cut -d' ' -f2 "$STATE/ratio.t" | median)
printf 'rounds: %d (%s), load %s\n' "$N" "$( [ "$(id -u)" = 0 ] && echo root || echo rootless)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'warm sbx exec /bin/true   median %7.2f ms\n' "$(awk -v x="$me" 'BEGIN{print x/1000}')"
printf 'nsenter /bin/true         median %7.2f ms\n' "$(awk -v x="$mn" 'BEGIN{print x/1000}')"
printf 'cold sbx run /bin/true    median %7.2f ms\n' "$(awk -v x="$mr" 'BEGIN{print x/1000}')"
printf 'exec/nsenter (paired)     median %7.2f x\n' "$rn"
printf 'exec/cold run (paired)    median %7.2f x\n' "$rr"
if [ -n "$OLD" ]; then
        printf 'before: sbx exec /bin/true median %7.2f ms (%s)\n' "$(median < "$STATE/before.t" | awk '{print $1/1000}')" "$OLD"
        printf 'before/nsenter (paired)   median %7.2f x\n' "$(cut -d' ' -f4 "$STATE/ratio.t" | median)"
        printf 'exec/before (paired)      median %7.2f x\n' "$(cut -d' ' -f5 "$STATE/ratio.t" | median)"
fi
if [ -s "$STATE/floor.t" ]; then
        printf 'exec-floor /bin/true      median %7.2f ms\n' "$(median < "$STATE/floor.t" | awk '{print $1/1000}')"
        printf 'exec-floor/nsenter (paired) median %5.2f x\n' "$(cut -d' ' -f3 "$STATE/ratio.t" | median)"
fi
printf 'init VmRSS %s KiB, Pss %s KiB\n' "$(awk '/VmRSS/ {print $2}' /proc/$pid/status)" \
        "$(awk '/^Pss:/ {print $2}' /proc/$pid/smaps_rollup)"
# Many idle sandboxes (create rate, memory, ls, exec into the last, rm): bench-scale.sh.

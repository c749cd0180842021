#!/bin/bash
# SPDX-License-Identifier: MIT
# The kernel's floor for a cold pivot_root sandbox (issue 16 target 1): what
# the steps every such launcher takes cost beside `unshare -Urmpnif
# --mount-proc /bin/true`, and where sbx is against them. bench/launch-floor.c
# (built here with cc) does only the kernel steps, one letter each, added one
# at a time: clone3 with the 7 namespaces and /proc (""), a tmpfs root with
# /usr and its own /proc (r), pivot_root (p), the old root's detach (d), the
# per-run cgroup v1 in 3 hierarchies (c, root only), sbx's two seccomp
# filters (s, from the sbx build's precompiled BPF); and T: no root built
# and no pivot_root, the child's mount namespace copied from a template's
# that holds only the root (a holder process made once per mode; see
# launch-floor.c); M (root): as T, but the holder has no user namespace of
# its own, so the launcher enters its mount namespace, clones and comes back
# (no spawner process); rows with M also print their paired ratio to the
# same steps with rpd instead of M. N interleaved rounds, order rotated; the
# median time and the median of per-round ratios to unshare. As root, then
# rootless (sbx-ci; ROOT_ONLY=1 skips it).
# With THREADS=K in the environment, K idle processes (bench/mem-floor.c)
# exist during the run (pivot_root walks every thread of the host).
#
#   [THREADS=K] bench/bench-floor.sh [-n N] [path/to/sbx]
set -u
. "$(dirname "$0")/lib.sh"
bench_args 100 "$@"
bench_sbx "${ARGS[0]:-}"
command -v cc >/dev/null || { echo "bench: cc is needed to build launch-floor" >&2; exit 1; }
bench_state_dir
floor=$STATE/launch-floor
top=$(cd "$(dirname "$0")/.." && pwd)
filters=$(dirname "$SBX")/seccomp-profiles/seccomp-precompiled.c     # sbx's own filters, from its build
if [ -f "$filters" ]; then
        cc -O2 -DSBX_FILTERS -I "$top/runtime" -o "$floor" "$top/bench/launch-floor.c" "$filters" || exit 1
else
        echo "# no $filters: floor 's' loads two allow-all filters of sbx's sizes" >&2
        cc -O2 -o "$floor" "$top/bench/launch-floor.c" || exit 1
fi
chmod 755 "$STATE" "$floor"
TEMPLATE=
TEMPLATE_ROOT=
IDLERS=
cleanup() {
        # the holder is its pid namespace's init: only SIGKILL reaches it from outside
        [ -z "$TEMPLATE" ] || kill -KILL "$TEMPLATE" 2>/dev/null
        [ -z "$TEMPLATE_ROOT" ] || kill -KILL "$TEMPLATE_ROOT" 2>/dev/null
        [ -z "$IDLERS" ] || { echo go >&"${IDLE[1]}"; wait "$IDLERS"; }
        rm -rf "$STATE"
}
trap cleanup EXIT
TEMPLATE=$("$floor" --template) || exit 1
export FLOOR_TEMPLATE=$TEMPLATE
if [ "$(id -u)" = 0 ]; then
        TEMPLATE_ROOT=$("$floor" --template-root) || exit 1
        export FLOOR_TEMPLATE_ROOT=$TEMPLATE_ROOT
fi
if [ "${THREADS:-0}" -gt 0 ] && [ "${BENCH_INNER:-}" != 1 ]; then
        cc -O2 -static -o "$STATE/mem-floor" "$top/bench/mem-floor.c" &&
                cc -O2 -static -nostdlib -fno-stack-protector -o "$STATE/mem-idle" "$top/bench/mem-idle.c" || exit 1
        coproc IDLE { "$STATE/mem-floor" "$THREADS" - "$STATE/mem-idle"; }
        IDLERS=$IDLE_PID
        read -r line <&"${IDLE[0]}"
        [ "$line" = ready ] || exit 1
fi

bench() {       # bench LABEL STEPS...: N rounds of unshare, each floor variant, sbx
        local label=$1 f c i k s name
        shift
        local names=(unshare "$@" sbx)
        k=${#names[@]}
        f=$(mktemp)
        for i in $(seq 0 "$N"); do
                local order=("${names[@]:$((i % k))}" "${names[@]:0:$((i % k))}")
                local -A us=()
                for name in "${order[@]}"; do
                        local t0=$EPOCHREALTIME
                        case $name in
                        unshare) unshare -Urmpnif --mount-proc /bin/true ;;
                        sbx) XDG_RUNTIME_DIR=$STATE "$SBX" run -- /bin/true ;;
                        *) "$floor" "${name#floor:}" ;;
                        esac >/dev/null || { echo "bench: $name failed" >&2; exit 1; }
                        local t1=$EPOCHREALTIME
                        us[$name]=$(( ${t1/./} - ${t0/./} ))
                done
                [ "$i" = 0 ] && continue        # warm-up round
                for name in "${names[@]}"; do printf '%s ' "${us[$name]}"; done >> "$f"
                echo >> "$f"
        done
        printf '%-9s N=%-4d load %s\n' "$label" "$N" "$(cut -d' ' -f1-3 /proc/loadavg)"
        c=1
        for name in "${names[@]}"; do
                s=${name#floor:}
                [ "$name" != "$s" ] && s="floor '${s}'" || s=$name
                printf '  %-14s %7.2f ms  paired %5.2fx\n' "$s" \
                        "$(awk -v c=$c '{ print $c / 1000 }' "$f" | median)" \
                        "$(awk -v c=$c '{ print $c / $1 }' "$f" | median)"
                c=$((c + 1))
        done
        # M against the same steps with rpd (root template without a spawner vs pivot_root)
        c=1
        for name in "${names[@]}"; do
                local other=${name/M/rpd} oc=1 n2
                if [ "$name" != "$other" ]; then
                        for n2 in "${names[@]}"; do [ "$n2" = "$other" ] && break; oc=$((oc + 1)); done
                        [ "$oc" -le "${#names[@]}" ] &&
                                printf '  %-14s paired %5.3fx of %s\n' "${name#floor:}" \
                                        "$(awk -v c=$c -v o=$oc '{ print $c / $o }' "$f" | median)" "${other#floor:}"
                fi
                c=$((c + 1))
        done
        rm -f "$f"
}

if [ "${BENCH_INNER:-}" = 1 ]; then
        bench rootless floor: floor:r floor:rp floor:rpd floor:rpds floor:T floor:Ts
        exit 0
fi
echo "# $(uname -r), $(nproc) cpus, $(date -u +%FT%TZ), $(ps -eLf --no-headers | wc -l) threads on the host"
if [ "$(id -u)" = 0 ]; then
        bench root floor: floor:r floor:rp floor:rpd floor:rpdc floor:rpdcs floor:T floor:Ts floor:M floor:Mcs
        [ "${ROOT_ONLY:-}" = 1 ] && exit 0
        id sbx-ci >/dev/null 2>&1 ||
                useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin sbx-ci
        setpriv --reuid sbx-ci --regid "$(id -g sbx-ci)" --init-groups \
                env -i PATH=/usr/local/bin:/usr/bin:/bin BENCH_INNER=1 \
                bash "$0" -n "$N" "$SBX"
else
        BENCH_INNER=1 bench rootless floor: floor:r floor:rp floor:rpd floor:rpds floor:T floor:Ts
fi

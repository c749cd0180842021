#!/bin/bash
# SPDX-License-Identifier: MIT
# The ceiling of a warm sbx server and of pre-made sandboxes for a cold
# `sbx run -- /bin/true` (issue 16 target 1, session 16), by construction,
# paired against `unshare -Urmpnif --mount-proc /bin/true` (bench/pair.py).
# Builds bench/serve-ceiling.c (one binary: the three throwaway servers,
# linked with sbx's own main() and libsbx-core.a from the sbx build, and its
# precompiled seccomp filters) and bench/serve-client.c (a no-libc client, as
# the `sbx` front end is), starts the servers on sockets in a fresh state
# dir, and times, interleaved:
#   unshare                          the baseline
#   sbx run -- /bin/true             today's cold run (its own state root)
#   sbx --version                    the front end + the full sbx's start
#   sbx run -- /nonexistent/cmd      + the decision (refused before fork, 127)
#   client null                      any server's floor: the client's exec,
#                                    argv + 3 fds sent, one round trip
#   client fork run -- /bin/true     (a) a warm sbx: a forked worker runs
#                                    sbx's main() (own state root), no exec
#   client premade /bin/true         (b) a child pre-made in 7 namespaces
#                                    with /proc takes the fds, sets sbx's two
#                                    filters and execs; the holder refills
#                                    (K of them, -k K, default 2)
#   client handover /bin/true        (b) with the rest of a real hand-over
#                                    (session 16, pool16): the holder makes
#                                    a run dir and sbx's per-run cgroup for
#                                    each child before any run; the child
#                                    also sets RLIMIT_CORE, drops every
#                                    capability and closes its other fds;
#                                    after the exit, before answering, the
#                                    holder tears down the cgroup and the
#                                    run dir (sbx_cgroup_cleanup, rmdir) and
#                                    appends the two audit lines
#   client handover-late /bin/true   the same, the teardown after the answer
#   client handover-nocg /bin/true   handover without the per-run cgroup
#   client handover-nocpu /bin/true  handover, the child outside the run's
#                                    v1 cpu cgroup (its own CFS group)
# pair.py counts only the client's CPU: each server's own CPU (getrusage,
# itself and its reaped children) is printed per run served after the
# paired table. Then the "drained" figure: DRAIN runs (default N) of the
# premade client alone, back to back, K=1 (each run waits for the refill
# its predecessor started) and K, with unshare alone before them.
# As root; with --rootless as root, the same again as the unprivileged user
# sbx-ci (through setpriv, a clean environment, as bench-run.sh); run by
# another user, rootless only.
#
#   bench/bench-serve.sh [-n N] [-k K] [--rootless] [path/to/sbx]
set -u
. "$(dirname "$0")/lib.sh"
K=2
ROOTLESS=
a=()
while [ $# -gt 0 ]; do
        case $1 in
        -k) K=$2; shift 2 ;;
        --rootless) ROOTLESS=1; shift ;;
        *) a+=("$1"); shift ;;
        esac
done
bench_args 200 "${a[@]}"
bench_sbx "${ARGS[0]:-}"
if [ -n "$ROOTLESS" ] && [ "$(id -u)" = 0 ]; then
        bash "$0" -n "$N" -k "$K" "$SBX"
        id sbx-ci >/dev/null 2>&1 ||
                useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin sbx-ci
        home=$(mktemp -d /tmp/sbx-bench.XXXXXX)
        chown sbx-ci: "$home"
        echo "# rootless (sbx-ci)"
        setpriv --reuid sbx-ci --regid "$(id -g sbx-ci)" --init-groups \
                env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" bash "$0" -n "$N" -k "$K" "$SBX"
        rc=$?
        rm -rf "$home"
        exit $rc
fi
top=$(cd "$(dirname "$0")/.." && pwd)
B=$(dirname "$SBX")
for f in "$B/libexec/sbx.p/.._runtime_main.c.o" "$B/libsbx-core.a" "$B/seccomp-profiles/seccomp-precompiled.c"; do
        [ -f "$f" ] || { echo "bench-serve: $f missing (ninja -C $B)" >&2; exit 1; }
done
bench_state_dir
pids=()
cleanup() {
        for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
        wait 2>/dev/null
        for s in "$STATE"/sbx-*; do [ -d "$s" ] && XDG_RUNTIME_DIR=$s "$SBX" rm -f --all >/dev/null 2>&1; done
        rm -rf "$STATE"
}
trap cleanup EXIT
objcopy --redefine-sym main=sbx_real_main "$B/libexec/sbx.p/.._runtime_main.c.o" "$STATE/main.o" &&
        cc -O2 -DSBX_MAIN -DSBX_FILTERS -I "$top/runtime" -o "$STATE/serve-ceiling" "$top/bench/serve-ceiling.c" \
                "$B/seccomp-profiles/seccomp-precompiled.c" "$STATE/main.o" -Wl,-z,now -Wl,-z,relro \
                -Wl,--start-group "$B/libsbx-core.a" -lseccomp -lmnl -ljson-c -lm -Wl,--end-group &&
        cc -O2 -ffreestanding -fno-stack-protector -fno-builtin -fno-pie -fno-asynchronous-unwind-tables \
                -U_FORTIFY_SOURCE -nostdlib -static -no-pie -I "$top/runtime" -o "$STATE/serve-client" \
                "$top/bench/serve-client.c" || exit 1
mkdir "$STATE/sbx-run" "$STATE/sbx-fork"
C=$STATE/serve-client
start() {       # start MODE [K]: a server on $STATE/MODE.sock, its report in $STATE/MODE.log
        XDG_RUNTIME_DIR=$STATE/sbx-fork "$STATE/serve-ceiling" "$1" "$STATE/$1.sock" ${2:-} 2>"$STATE/$1.log" &
        pids+=($!)
        for _ in $(seq 50); do [ -S "$STATE/$1.sock" ] && return; sleep 0.1; done
        echo "bench-serve: the $1 server did not start" >&2; cat "$STATE/$1.log" >&2; exit 1
}
stop_report() { # stop_report: SIGTERM the servers; their CPU per run served
        for p in "${pids[@]}"; do kill "$p"; done
        wait
        pids=()
        for m in null fork premade handover handover-late handover-nocg handover-nocpu; do
                [ -f "$STATE/$m.log" ] || continue
                awk -v m="$m" '$1 == "served" && $2 > 0 {
                        printf "  server %-8s served %5d  CPU per run: itself %6.0f us, its children %6.0f us; minor faults %4.0f / %4.0f\n",
                                m, $2, $3 / $2, $4 / $2, $5 / $2, $6 / $2 } $1 != "served"' "$STATE/$m.log"
                rm -f "$STATE/$m.log"
        done
}
label() {        # label NAME...: pair.py's rows (after its load line) named NAME... (its labels are paths)
        awk -v names="$(printf '%s\n' "$@")" 'BEGIN { n = split(names, a, "\n") }
                /^load/ { print; next } { printf "%-24s%s\n", a[++i], substr($0, 61) }'
}
echo "# $(uname -r), $(nproc) cpus, $(date -u +%FT%TZ), K=$K, N=$N"
start null
start fork
start premade "$K"
start handover "$K"
start handover-late "$K"
start handover-nocg "$K"
start handover-nocpu "$K"
# warm-up: the page cache, both state roots' template holders
for _ in 1 2 3 4 5; do
        XDG_RUNTIME_DIR=$STATE/sbx-run "$SBX" run -- /bin/true
        "$C" "$STATE/fork.sock" sbx run -- /bin/true
        "$C" "$STATE/premade.sock" /bin/true
        "$C" "$STATE/handover.sock" /bin/true
        "$C" "$STATE/handover-late.sock" /bin/true
        "$C" "$STATE/handover-nocg.sock" /bin/true
        "$C" "$STATE/handover-nocpu.sock" /bin/true
done
# each server runs what it is sent: an exit status passes through
for s in fork:"sbx run -- /bin/sh -c" premade:"/bin/sh -c" handover:"/bin/sh -c" handover-late:"/bin/sh -c" handover-nocg:"/bin/sh -c" handover-nocpu:"/bin/sh -c"; do
        read -ra cmd <<< "${s#*:}"
        "$C" "$STATE/${s%%:*}.sock" "${cmd[@]}" 'exit 7'
        r=$?
        [ $r = 7 ] || { echo "bench-serve: the ${s%%:*} server's run exited $r, not 7" >&2; exit 1; }
done
python3 "$top/bench/pair.py" "$N" unshare -Urmpnif --mount-proc /bin/true \
        ::: XDG_RUNTIME_DIR="$STATE/sbx-run" "$SBX" run -- /bin/true \
        ::: "$SBX" --version \
        ::: XDG_RUNTIME_DIR="$STATE/sbx-run" "$SBX" run -- /nonexistent/cmd \
        ::: "$C" "$STATE/null.sock" /bin/true \
        ::: "$C" "$STATE/fork.sock" sbx run -- /bin/true \
        ::: "$C" "$STATE/premade.sock" /bin/true \
        ::: "$C" "$STATE/handover.sock" /bin/true \
        ::: "$C" "$STATE/handover-late.sock" /bin/true \
        ::: "$C" "$STATE/handover-nocg.sock" /bin/true \
        ::: "$C" "$STATE/handover-nocpu.sock" /bin/true | label unshare "sbx run" "sbx --version" "sbx decides (127)" \
        "client null" "client fork (a)" "client premade (b)" "client handover (b)" "client handover-late" \
        "client handover-nocg" "client handover-nocpu" |
        tee "$STATE/pair.txt"
# (b) with the full sbx still started and deciding per run, by construction:
# the premade run + (the refused run - the client's own start and round trip)
awk '{ for (i = 1; i < NF; i++) if ($i == "paired") { r[NR] = $(i + 1); break } }
        END { printf "  by construction: (b) with the full sbx deciding per run %.2fx, wall\n", r[8] + r[5] - r[6]
              printf "  by construction: (b) with the real hand-over'"'"'s other parts (handover) and the full sbx deciding %.2fx, wall\n", r[9] + r[5] - r[6]
              printf "  by construction: the same, the teardown after the answer (handover-late) %.2fx, wall\n", r[10] + r[5] - r[6]
              printf "  by construction: the same without the per-run cgroup (handover-nocg) %.2fx, wall\n", r[11] + r[5] - r[6]
              printf "  by construction: the same outside the v1 cpu cgroup (handover-nocpu) %.2fx, wall\n", r[12] + r[5] - r[6] }' "$STATE/pair.txt"
stop_report
echo "# drained: back to back, no other command between runs"
python3 "$top/bench/pair.py" "${DRAIN:-$N}" unshare -Urmpnif --mount-proc /bin/true | sed 1d | label unshare
for k in $(printf '%s\n' 1 "$K" | sort -un); do
        for m in premade handover handover-late handover-nocg; do
                start $m "$k"
                "$C" "$STATE/$m.sock" /bin/true
                python3 "$top/bench/pair.py" "${DRAIN:-$N}" "$C" "$STATE/$m.sock" /bin/true | sed 1d |
                        label "client $m K=$k"
                stop_report
        done
done

#!/bin/bash
# SPDX-License-Identifier: MIT
# What attaching sbx's two seccomp filters costs the kernel (issue 16 target
# 1): bench/seccomp-attach.c, built here with cc against one or two sbx
# builds' precompiled BPF (build/seccomp-profiles/seccomp-precompiled.c),
# attaches in N rounds of forked children, order rotated: a one-instruction
# filter (the fixed cost per filter), the always-on layer, the base and both,
# for each build; the median of the children's own CPU time over the
# seccomp(2) calls (the classic-to-eBPF conversion, the JIT, the per-syscall
# cache the kernel prepares), with the programs' instruction counts; for a
# build that has it, also the one program `sbx run` attaches instead of the two
# (base over layer, seccomp-profiles/README.md).
#
#   bench/bench-seccomp.sh [-n N] [SBX_A [SBX_B]]
set -u
. "$(dirname "$0")/lib.sh"
bench_args 300 "$@"
bench_bins
command -v cc >/dev/null || { echo "bench: cc is needed to build seccomp-attach" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
objs=()
tag=a
for b in "${BINS[@]:0:2}"; do
        f=$(dirname "$b")/seccomp-profiles/seccomp-precompiled.c
        [ -f "$f" ] || { echo "bench: no $f (an sbx build dir's sbx is needed)" >&2; exit 1; }
        echo "# ${tag^^} = $b"
        cc -O2 -c -I "$top/runtime" -o "$d/$tag.o" "$f" \
                -Dsbx_precompiled_base=${tag}_base -Dsbx_precompiled_base_len=${tag}_base_len \
                -Dsbx_precompiled_layer=${tag}_layer -Dsbx_precompiled_layer_len=${tag}_layer_len \
                -Dsbx_precompiled_layer_no_network=${tag}_layer_nn \
                -Dsbx_precompiled_layer_no_network_len=${tag}_layer_nn_len \
                -Dsbx_precompiled_stacked=${tag}_stacked -Dsbx_precompiled_stacked_len=${tag}_stacked_len \
                -Dsbx_stacked_plain=${tag}_stacked_plain -Dsbx_stacked_no_network=${tag}_stacked_nn \
                -Dsbx_stacked_plain_len=${tag}_stacked_plain_len \
                -Dsbx_stacked_no_network_len=${tag}_stacked_nn_len || exit 1
        objs+=("$d/$tag.o")
        tag=b
done
def=()
[ ${#objs[@]} -lt 2 ] || def=(-DHAVE_B)
cc -O2 "${def[@]}" -o "$d/seccomp-attach" "$top/bench/seccomp-attach.c" "${objs[@]}" || exit 1
echo "# $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), N=$N, $(date -u +%FT%TZ)"
"$d/seccomp-attach" "$N"

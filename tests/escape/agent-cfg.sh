# SPDX-License-Identifier: MIT
# Sourced after lib.sh by the config rounds (escape-round14b, escape-round15b):
# a state root and workspace root of this run's, a workspace $W (mode 1777)
# holding f ("inside"), and:
# cfg 'DOCKER' [SANDBOX]: agent main, sandboxed, docker: { DOCKER }, more sandbox keys
# brun CMD: run CMD as agent main with $CFG (default the file cfg writes);
#           prints rc|output (notes dropped)
export XDG_RUNTIME_DIR=$TMP/run SBX_WORKSPACE_ROOT=$TMP/sbxws
mkdir -p "$XDG_RUNTIME_DIR"
W=$TMP/ws
mkdir -p "$W"
echo inside > "$W/f"
chmod 1777 "$W"
chmod 644 "$W/f"
chmod -R a+rX "$TMP" 2>/dev/null
cfg() {
        cat > "$TMP/oc.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', ${2:-} docker: { $1 } } },
            entries: { main: { workspace: '$W' } } } }
J
}
brun() {
        local out rc
        out=$(HOME=$TMP/home timeout -k 5 60 "$SBX" run --no-tty --config "${CFG:-$TMP/oc.json}" --agent main -- /bin/sh -c "$1" 2>&1 </dev/null)
        rc=$?
        echo "$rc|$(grep -v ' note: ' <<<"$out" | tr '\n' ' ')"
}

#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 13b (cfgred15): a hostile or careless openclaw.json's
# docker.binds against OpenClaw's validateSandboxSecurity, through
# `sbx run --config F --agent A`. Found and fixed (policy/bind-safety.c):
# - allowed source roots: sbx took a source whose *written* path lay in the
#   workspace even when it *led* (a symlink the sandbox can plant in its own
#   workspace) anywhere else on the host, and bound that place. OpenClaw
#   requires both the written and the canonical source inside a root.
# - "covers": a source above a blocked path (/var holds /var/run and the
#   docker socket, a home dir holds .ssh) was bound with
#   dangerouslyAllowExternalBindSources; OpenClaw refuses it ("covers
#   blocked path") whatever the overrides.
# - the OS home's canonical form: with OPENCLAW_HOME elsewhere and HOME a
#   symlink, <real home>/.ssh was not a credential dir to sbx.
# Guards (held on main): other spellings of blocked sources and reserved
# targets, relative sources, a forged read-only option.
. "$(dirname "$0")/lib.sh"

export XDG_RUNTIME_DIR=$TMP/run SBX_WORKSPACE_ROOT=$TMP/sbxws
mkdir -p "$XDG_RUNTIME_DIR"
H=$TMP/home W=$TMP/ws O=$TMP/other
mkdir -p "$H/.ssh" "$W/real" "$O"
echo "ssh-key-$$" > "$H/.ssh/id"
echo inside > "$W/real/f"
echo "other-$$" > "$O/f"
chmod -R a+rX "$TMP" 2>/dev/null
# cfg BIND [EXTRA]: a config whose only bind is BIND, the agent workspace $W
cfg() {
        cat > "$TMP/oc.json" <<J
{ agents: { defaults: { sandbox: { mode: 'all', docker: { binds: ['$1'] ${2:-} } } },
            entries: { main: { workspace: '$W' } } } }
J
}
# brun CMD: run CMD as agent main; prints rc|output (notes dropped)
brun() {
        local out rc
        out=$(HOME=$H timeout -k 5 60 "$SBX" run --no-tty --config "$TMP/oc.json" --agent main -- /bin/sh -c "$1" 2>&1 </dev/null)
        rc=$?
        echo "$rc|$(grep -v ' note: ' <<<"$out" | tr '\n' ' ')"
}
EXT=", dangerouslyAllowExternalBindSources: true"

# --- allowed roots: a symlink in the workspace leading out of it
ln -s "$SECRET_DIR" "$W/link"
cfg "$W/real:/data:ro"
control "a bind inside the agent workspace works" "$(brun 'cat /data/f')" "0|inside "
cfg "$W/link:/data:ro"
like "bind-source-symlink-out-of-workspace: refused (2), naming where it leads" "$(brun 'cat /data/secret')" \
        "^2\|.*docker.binds\[0\] \"$W/link:/data:ro\": source leads to $SECRET_DIR is outside the sandbox and agent workspaces"
cfg "$W/link/sub:/data:ro"
like "... also for a missing leaf below the symlink" "$(brun 'true')" "^2\|.*source leads to $SECRET_DIR/sub is outside"
cfg "$W/link/../real:/data:ro"
control "a '..' after the symlink is taken lexically, as OpenClaw does (inside)" "$(brun 'cat /data/f')" "0|inside "
cfg "$W/link:/data:ro" "$EXT"
control "with dangerouslyAllowExternalBindSources the same bind is allowed" "$(brun 'cat /data/secret')" "0|host-secret-$$ "
cfg "$W/../other:/data:ro"
like "bind-source-dotdot-out-of-workspace: refused (2)" "$(brun 'cat /data/f')" "^2\|.*source $O is outside"

# --- covers: a source above a blocked path, even with external sources allowed
cfg "$H:/h:ro" "$EXT"
like "bind-source-covers-home-credentials: \$HOME refused (2)" "$(brun 'cat /h/.ssh/id')" \
        "^2\|.*source covers a home credential directory, which sandboxes may never mount"
cfg "$H/:/h:ro" "$EXT"
like "... \$HOME/ (trailing slash) too" "$(brun 'cat /h/.ssh/id')" "^2\|.*source covers a home credential"
cfg "/var:/v:ro" "$EXT"
like "bind-source-covers-var-run: /var refused (2)" "$(brun 'ls /v/run/')" "^2\|.*source covers /var/run"
cfg "//var/./:/v:ro" "$EXT"
like "... //var/./ too" "$(brun 'ls /v/run/')" "^2\|.*source covers /var/run"
ln -s /var "$TMP/varlink"
cfg "$TMP/varlink:/v:ro" "$EXT"
like "... a symlink to /var too" "$(brun 'ls /v/run/')" "^2\|.*source covers /var/run"
cfg "$O:/o:ro" "$EXT"
control "an external source that covers nothing blocked is allowed with the override" "$(brun 'cat /o/f')" "0|other-$$ "

# --- the OS home reached through a symlink, OPENCLAW_HOME elsewhere
ln -s "$H" "$TMP/homelink"
cfg "$H/.ssh:/s:ro" "$EXT"
got=$(HOME=$TMP/homelink OPENCLAW_HOME=$TMP/ochome timeout -k 5 60 "$SBX" run --no-tty --config "$TMP/oc.json" \
        --agent main -- /bin/cat /s/id 2>&1 </dev/null; echo "rc=$?")
like "bind-source-canonical-os-home: <real home>/.ssh with HOME a symlink refused" "$(tr '\n' ' ' <<<"$got")" \
        "source is a home credential directory.*rc=2"
unlike "... and the key was not read" "$got" "ssh-key-$$"

# --- other spellings of blocked sources (guards)
for s in //etc /etc/. /./etc /etc/ /tmp/../etc /etc//ssl /proc/self/.. /run/. /var/run/docker.sock; do
        cfg "$s:/x:ro" "$EXT"
        like "bind-source-spelling '$s': refused (2)" "$(brun 'true')" "^2\|.*source is /(etc|proc|run|var/run)"
done
ln -s /etc "$TMP/etclink"
cfg "$TMP/etclink/ssl:/x:ro" "$EXT"
like "bind-source-symlink-to-etc: refused (2)" "$(brun 'true')" "^2\|.*source is /etc"
for s in etc ./x '~/.ssh'; do
        cfg "$s:/x:ro" "$EXT"
        like "bind-source-not-absolute '$s': refused" "$(brun 'true')" "^2\|"
done
cfg '${HOME}/.ssh:/x:ro' "$EXT"
like "bind-source-env-substituted \${HOME}/.ssh: refused (2)" "$(brun 'cat /x/id')" "^2\|.*home credential directory"

# --- reserved targets by other spellings (guards)
for t in /workspace/. //workspace /agent/../workspace/x /workspace/ /agent//sub /./agent; do
        cfg "$W/real:$t:ro"
        like "bind-target-reserved '$t': refused (2)" "$(brun 'true')" "^2\|.*is reserved for the workspace"
done
cfg "$W/real:/workspacex:ro"
control "a target that only starts with /workspace is not reserved" "$(brun 'cat /workspacex/f')" "0|inside "

# --- a forged read-only option: 'rw,ro' (guard; since round 15b refused as
# docker's create refuses the mode, before: read-only, ro winning)
chmod 1777 "$W/real"
cfg "$W/real:/d:rw,ro"
like "bind-options 'rw,ro': refused (2) as docker's invalid mode, never writable" "$(brun 'echo x > /d/g')" "^2\|.*invalid mode"
is "... nothing written through it" "$(ls "$W/real" | grep -cx g)" 0
cfg "$W/real:/d:rw"
control "bind-options 'rw': writable inside" "$(brun 'echo x > /d/g && echo w')" "0|w "
rm -f "$W/real/g"

# --- the drop-in given flags OpenClaw never sends (guards): refused by the
# parser, exit 125, naming the flag, before any image or state is looked at
mkdir -p "$TMP/bin"
ln -sf "$(readlink -f "$SBX")" "$TMP/bin/docker"
for f in --privileged "--cap-add SYS_ADMIN" "--pid host" --pid=host "--ipc host" "--userns host" "--uts host" \
        "--cgroupns host" "--device /dev/sda" "--mount type=bind,src=/,dst=/h" "--group-add 0"; do
        # shellcheck disable=SC2086
        got=$(timeout 20 "$TMP/bin/docker" create $f nosuchimage:13b true 2>&1; echo "rc=$?")
        like "docker-create-unsent-flag '$f': refused (125), named" "$(tr '\n' ' ' <<<"$got")" \
                "unknown flag: ${f%%[ =]*} .*rc=125"
done
got=$(timeout 20 "$TMP/bin/docker" create --cap-drop ALL nosuchimage:13b true 2>&1; echo "rc=$?")
like "control: a flag OpenClaw sends gets past the parser (to the image lookup)" "$(tr '\n' ' ' <<<"$got")" \
        "No such image: nosuchimage:13b.*rc=125"

done_testing

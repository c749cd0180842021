#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape suite, round 9: attacks no other file of the suite made, on the
# host-side readers of what a sandbox wrote (sbx diff's patch on the
# operator's terminal, overlay xattrs under sbx diff/commit, sbx commit into
# a workspace a neighbour swaps), the exec decision on a persistent sandbox
# (FIFOs and #! loops the sandbox plants, an allowlist through env -S, sh -c
# and #! chains by sbx exec), kernel memory a sandbox holds in pipes, and
# which template holders sbx rm -f --all --state-dir DIR ends.
# Each blocked call is asserted with the errno or observation only the
# restriction gives, with a control where the restriction does not apply.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws       # the sandboxes' workspaces go with the test
export XDG_DATA_HOME=$TMP/data          # so does the image store of the docker part
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
# py CODE: python3's answer inside, "OK" or the errno's name
pyx() { printf 'import os, errno\ndef t(f, *a):\n    try:\n        f(*a); return "OK"\n    except OSError as e: return errno.errorcode[e.errno]\n%s\n' "$1"; }

# --- sbx diff's unified diff is the sandbox's file content, printed on the
# operator's terminal (the review before sbx commit): an OSC sets the
# terminal's title, ESC[1A ESC[2K and a bare CR move up and overwrite the
# lines under review. On a terminal such a line is printed quoted; piped,
# the patch stays diff(1)'s bytes.
W=$TMP/ws-diff
mkdir -p "$W/dir"
printf 'keep\n' > "$W/notes"
printf 'a\n' > "$W/dir/a"
printf 'b\n' > "$W/dir/b"
if sx create --workspace "$W" --workspace-access none dx >/dev/null; then
        sx exec dx -- /bin/sh -c 'printf "keep\nhidden\033]0;pwned\007\033[1A\033[2K\rok \302\23331m\n\tplain tab line\n" > /workspace/notes'
        if command -v script >/dev/null; then
                script -qec "timeout -k 5 60 '$SBX' diff --state-dir '$STATE' dx" /dev/null > "$TMP/pty-diff" 2>&1
                is "diff-patch-terminal: no ESC, C1 control or bare CR from the file's content reaches the terminal" \
                        "$(python3 -c 'import re,sys; d=open(sys.argv[1],"rb").read(); print(len(re.findall(rb"\x1b|\xc2[\x80-\x9f]|\r(?!\n)", d)))' "$TMP/pty-diff")" 0
                like "diff-patch-terminal: ... the line is printed quoted after diff's mark" "$(cat "$TMP/pty-diff")" \
                        '^\+"hidden\\033\]0;pwned\\a\\033\[1A\\033\[2K\\rok \\302\\23331m"'
                like "diff-patch-terminal: control: a plain line (a tab in it) is printed as it is" \
                        "$(tr -d '\r' < "$TMP/pty-diff")" $'^\\+\tplain tab line$'
        else
                skip "diff-patch-terminal: no script(1) to give sbx diff a terminal"
                skip "diff-patch-terminal: no script(1)"
                skip "diff-patch-terminal: no script(1)"
        fi
        is "diff-patch-terminal: control: piped, the patch keeps the file's bytes (one ESC[1A)" \
                "$(sx diff dx | grep -c $'\033\\[1A')" 1

        # --- overlay xattrs from inside: user.overlay.* set through the
        # overlay on its upper layer would, read raw, make sbx diff and
        # commit see an opaque dir (every lower entry deleted), a whiteout or
        # a redirect. The kernel (>= 6.7) stores them escaped
        # (user.overlay.overlay.*), older ones refuse them; trusted.* needs
        # the host's CAP_SYS_ADMIN.
        out=$(sx exec dx -- python3 -c "$(pyx '
open("/workspace/new", "w").close()
print(" ".join(t(os.setxattr, p, n, b"y") for p, n in [("/workspace/dir", "user.overlay.opaque"),
      ("/workspace/new", "user.overlay.whiteout"), ("/workspace/notes", "user.overlay.metacopy"),
      ("/workspace/dir", "user.overlay.redirect")]))
print(" ".join(t(os.setxattr, "/workspace/dir", n, b"y") for n in ["trusted.overlay.opaque", "trusted.overlay.redirect"]))
print(t(os.setxattr, "/workspace/dir", "user.note", b"x"))')" 2>&1)
        like "overlay-xattr: trusted.overlay.* from inside: EPERM" "$out" '^EPERM EPERM$'
        like "overlay-xattr: control: a plain user xattr works" "$out" 'OK$'
        d=$(sx diff --name-status dx 2>&1)
        unlike "overlay-xattr: sbx diff does not take the dir for opaque (no D dir/a)" "$d" '^D dir/'
        like "overlay-xattr: ... nor the new file for a whiteout (A new)" "$d" '^A new$'
        upper=$(ls -d "$STATE"/sandboxes/dx/run-*/upper 2>/dev/null | head -1)
        is "overlay-xattr: the upper layer holds no raw user.overlay.* the sandbox set" \
                "$(python3 -c 'import os,sys
print(sum(n in ("user.overlay.opaque", "user.overlay.whiteout", "user.overlay.metacopy", "user.overlay.redirect")
          for f in ("dir", "new", "notes") for n in os.listxattr(os.path.join(sys.argv[1], f), follow_symlinks=False)))' "$upper" 2>&1)" 0
        sx exec dx -- rm /workspace/dir/b
        like "overlay-xattr: control: a real delete is listed (D dir/b)" "$(sx diff --name-status dx 2>&1)" '^D dir/b$'
        sx commit dx >/dev/null 2>&1
        is "overlay-xattr: after sbx commit the host's dir/a is there, dir/b (deleted) is gone" \
                "$(cat "$W/dir/a" 2>&1) $([ -e "$W/dir/b" ] && echo b-left)" "a "
        is "overlay-xattr: ... and no overlay xattr reached the host's files" \
                "$(python3 -c 'import os,sys
print(sum(n.startswith(("user.overlay.", "trusted.overlay.")) for f in ("dir", "new", "notes")
          for n in os.listxattr(os.path.join(sys.argv[1], f))))' "$W" 2>&1)" 0
        sx rm -f dx >/dev/null
else
        not_ok "create a persistent sandbox with an overlay workspace"
fi

# --- sbx commit into a workspace a neighbour (a sandbox with the same
# workspace read-write, OpenClaw's shared scope) changes: dir replaced by a
# symlink to a host dir after the overlay sandbox wrote dir/x, then flipped
# between the two (RENAME_EXCHANGE) while commit writes 350 files under it.
W=$TMP/ws-commit
OUT=$TMP/outside
mkdir -p "$W/dir" "$OUT"
ln -s "$OUT" "$W/link"
if sx create --workspace "$W" --workspace-access none cx >/dev/null; then
        sx exec cx -- /bin/sh -c 'echo pwn > /workspace/dir/x; mkdir /workspace/dir/d
                for i in $(seq 300); do echo $i > /workspace/dir/f$i; done
                for i in $(seq 50); do echo $i > /workspace/dir/d/g$i; done'
        control "a host write through the workspace's link lands in the host dir" \
                "$(touch "$W/link/probe" && ls "$OUT" && rm -f "$OUT/probe")" probe
        flipper() { timeout -k 5 60 "$SBX" run --workspace "$W" --workspace-access rw --ro-bind "$SBX_PROBE:/sbx-probe" \
                        -w /workspace -- /sbx-probe flip dir link "$1" 2>&1; }
        flips=
        for _ in 1 2 3 4; do
                flipper 3 > "$TMP/flip.out" &
                sleep 0.5
                sx commit cx >/dev/null 2>&1
                wait
                # OK: it swapped for 3 s; ENOENT: it was swapping when the commit
                # replaced the symlink by a directory (a name missing for an instant)
                flips+="$(tr '\n' ' ' < "$TMP/flip.out" | sed 's/ $//')|"
        done
        echo "# the neighbour's flippers said: $flips"
        is "commit-lower-symlink-race: 4 commits while a neighbour flips dir and a symlink to a host dir: nothing outside" \
                "$(ls -A "$OUT")" ""
        control "the neighbour's flips ran (each OK, or ENOENT when the commit's repair raced it)" \
                "$(printf '%s' "$flips" | sed 's/ENOENT|/OK|/g')" "OK|OK|OK|OK|"
        flipper 0 >/dev/null    # one swap: dir is now the symlink
        [ -L "$W/dir" ] || flipper 0 >/dev/null
        sx commit cx >/dev/null 2>&1
        is "commit-lower-symlink: with dir a symlink to a host dir, commit writes nothing through it" "$(ls -A "$OUT")" ""
        is "commit-lower-symlink: ... it replaces the link with the sandbox's directory" \
                "$([ -L "$W/dir" ] && echo link; cat "$W/dir/x" 2>&1)" pwn
        sx rm -f cx >/dev/null
else
        not_ok "create a persistent sandbox for the commit test"
fi

# --- what the exec decision reads on the host side (sbx exec resolves the
# command and each #! interpreter in the sandbox's tree before anything
# starts): a FIFO as the command or as an interpreter would block that read
# forever, a #! loop never end. Each fails at once as the kernel would:
# 126 (EACCES; ELOOP for the loop, as Docker and a shell say); a chain of
# regular scripts runs.
if sx create fx >/dev/null; then
        sx exec fx -- /bin/sh -c 'cd /workspace && mkfifo fifo && printf "#!/workspace/fifo\n" > s-fifo &&
                printf "#!/workspace/loop\n" > loop && printf "#!/bin/sh\necho ran\n" > ok &&
                printf "#!/workspace/ok\n" > chain && chmod 755 fifo s-fifo loop ok chain'
        for c in fifo:126 s-fifo:126 loop:126 chain:0; do
                start=$SECONDS
                out=$(sx exec fx -- "/workspace/${c%:*}" 2>&1)
                rc=$?
                is "exec-fifo ($c): sbx exec /workspace/${c%:*} exits ${c#*:} within 10 s" \
                        "$rc $((SECONDS - start < 10))" "${c#*:} 1"
        done
        like "exec-fifo: ... the refusal names the FIFO interpreter" "$(sx exec fx -- /workspace/s-fifo 2>&1)" \
                "interpreter '/workspace/fifo'.*Permission denied"
        is "exec-fifo: control: the chain of regular scripts ran its last one" "$(sx exec fx -- /workspace/chain 2>&1)" ran
        sx rm -f fx >/dev/null
else
        not_ok "create a persistent sandbox for the FIFO test"
fi

# --- an exec allowlist on the persistent path (sbx exec joins by setns;
# OpenClaw's docker exec takes the same): every program the allowed env, sh
# or a #! line of a workspace script asks for is decided by the kernel
# (Landlock EXECUTE), not only the first one sbx decided on.
W=$TMP/ws-allow
mkdir -p "$W"
printf '#!/usr/bin/id\n' > "$W/toid"
printf '#!/usr/bin/env id\n' > "$W/envid"
printf '#!/workspace/toid\n' > "$W/chain"
printf '#!/bin/sh\necho script-ok\n' > "$W/good"
chmod 755 "$W"/*
if sx create --workspace "$W" --workspace-access ro --exec-allow /usr/bin/dash --exec-allow /usr/bin/env \
        --exec-allow '/workspace/*' ax >/dev/null 2>"$TMP/ax.err"; then
        is "exec-allow-persistent: control: an allowed #!/bin/sh script of the workspace runs" \
                "$(sx exec ax -- /workspace/good 2>&1)" script-ok
        for c in "/usr/bin/env -S id" "/usr/bin/env id" "/bin/sh -c id" "/bin/sh -c /workspace/toid" \
                 "/workspace/envid" "/usr/bin/env -S /workspace/toid"; do
                out=$(sx exec ax -- $c 2>&1)
                rc=$?
                like "exec-allow-persistent ($c): the denied program is refused by the kernel (126, Permission denied)" \
                        "$rc $out" '^126 .*Permission denied'
        done
        for c in /workspace/toid /workspace/chain; do
                like "exec-allow-persistent ($c): a #! chain to a denied interpreter: 126 before anything runs" \
                        "$(printf '%s' "$(sx exec ax -- $c 2>&1; echo " rc=$?")" | tr '\n' ' ')" "interpreter '/usr/bin/id'.* rc=126"
        done
        unlike "exec-allow-persistent: no uid= line (id never ran)" \
                "$(for c in "/usr/bin/env -S id" "/bin/sh -c /workspace/toid" /workspace/chain; do sx exec ax -- $c; done 2>&1)" 'uid='
        sx rm -f ax >/dev/null
else
        not_ok "create a persistent sandbox with an exec allowlist ($(head -c 300 "$TMP/ax.err"))"
fi

# --- kernel memory held in pipe buffers (F_SETPIPE_SZ to 1 MiB each) is
# charged to the sandbox's memory limit: the sandbox is killed at it, no
# host memory past it. Control: a few such pipes fit.
cat > "$TMP/pipes.py" <<'EOF'
import os, fcntl, sys
held, pipes = 0, []
for i in range(int(sys.argv[1])):
    r, w = os.pipe()
    try:
        fcntl.fcntl(w, 1031, 1 << 20)   # F_SETPIPE_SZ
    except OSError:     # the host uid is over fs.pipe-user-pages-soft (other sandboxes' pipes too)
        print("SHRUNK", i, held >> 20); sys.exit(0)
    os.set_blocking(w, False)
    try:
        while True:
            held += os.write(w, b"x" * 65536)
    except BlockingIOError:
        pass
    pipes.append((r, w))
print("held", held >> 20)
EOF
if "$SBX" run --memory 48m -- /bin/true 2>/dev/null; then
        out=$(timeout -k 5 60 "$SBX" run --memory 48m --ro-bind "$TMP/pipes.py:/p.py" -- python3 /p.py 4 2>&1)
        if [ "${out%% *}" = SHRUNK ]; then
                skip "pipe-memory: this host uid is over fs.pipe-user-pages-soft (other sandboxes hold pipes)"
                skip "pipe-memory: (same)"
        else
                is "pipe-memory: control: 4 pipes of 1 MiB under --memory 48m" "$out" "held 4"
                out=$( (timeout -k 5 60 "$SBX" run --memory 48m --ro-bind "$TMP/pipes.py:/p.py" -- python3 /p.py 200 2>&1
                        echo "rc=$?") | tr '\n' ' ')
                if [ "${out%% *}" = SHRUNK ]; then
                        skip "pipe-memory: this host uid reached fs.pipe-user-pages-soft first ($out)"
                else
                        like "pipe-memory: 200 pipes of 1 MiB: killed at the memory limit (137, named)" "$out" \
                                'memory limit.*rc=137'
                fi
        fi
else
        skip "pipe-memory: no memory limit here ($("$SBX" run --memory 48m -- /bin/true 2>&1 | head -1))"
        skip "pipe-memory: no memory limit here"
fi

# --- the same FIFO planted under docker exec (OpenClaw's path): at once
if busybox_image sbx-test/r9:v1; then
        if timeout 60 "$D" create --name r9-d-$$ --tmpfs /tmp sbx-test/r9:v1 sleep infinity >/dev/null 2>&1 &&
           timeout 60 "$D" start r9-d-$$ >/dev/null 2>&1; then
                timeout 60 "$D" exec r9-d-$$ sh -c 'mkfifo /tmp/fifo && chmod 755 /tmp/fifo &&
                        printf "#!/tmp/fifo\n" > /tmp/s && chmod 755 /tmp/s'
                start=$SECONDS
                out=$( (timeout 60 "$D" exec r9-d-$$ /tmp/fifo; echo "rc=$?"; timeout 60 "$D" exec r9-d-$$ /tmp/s
                        echo "rc=$?") 2>&1 | tr '\n' ' ')
                like "exec-fifo (docker exec): a FIFO command and a #! FIFO interpreter: 126 each, at once" \
                        "$out $((SECONDS - start < 10))" 'rc=126.*rc=126 +1$'
                is "exec-fifo (docker exec): control: the container's shell runs" \
                        "$(timeout 60 "$D" exec r9-d-$$ sh -c 'echo up')" up
                timeout 60 "$D" rm -f r9-d-$$ >/dev/null 2>&1
        else
                not_ok "docker create/start of a busybox image"
        fi
else
        skip "exec-fifo (docker exec): no static busybox or the test image did not import"
        skip "exec-fifo (docker exec): no test image"
fi

# --- sbx rm -f --all --state-dir DIR removes DIR's sandboxes and the
# template holders their creates made in DIR/templates; it killed the
# holders of the caller's default state root instead (shared by every other
# sbx run of that user, root's by all of the host's) and left DIR's running.
holder_alive() { local f; for f in "$1"/templates/*/holder; do
        [ -f "$f" ] && read -r pid start < "$f" && [ "$(awk '{print $22}' /proc/"$pid"/stat 2>/dev/null)" = "$start" ] && echo alive
        done; }
timeout -k 5 60 "$SBX" run -- /bin/true     # a holder in the default root ($XDG_RUNTIME_DIR/sbx), if templates are used here
sx create tx >/dev/null
if [ -n "$(holder_alive "$STATE")" ] && [ -n "$(holder_alive "$XDG_RUNTIME_DIR/sbx")" ]; then
        sx rm -f --all >/dev/null
        for _ in $(seq 50); do [ -z "$(holder_alive "$STATE")" ] && break; sleep 0.2; done
        is "rm-all-templates: rm -f --all --state-dir DIR ends DIR's template holders" "$(holder_alive "$STATE")" ""
        like "rm-all-templates: ... and not the default state root's" "$(holder_alive "$XDG_RUNTIME_DIR/sbx")" alive
        timeout -k 5 60 "$SBX" rm -f --all >/dev/null
        for _ in $(seq 50); do [ -z "$(holder_alive "$XDG_RUNTIME_DIR/sbx")" ] && break; sleep 0.2; done
        is "rm-all-templates: control: rm -f --all without --state-dir ends the default root's" \
                "$(holder_alive "$XDG_RUNTIME_DIR/sbx")" ""
else
        sx rm -f tx >/dev/null
        skip "rm-all-templates: no template holders here (rootless persistent sandboxes build their own root)"
        skip "rm-all-templates: (same)"
        skip "rm-all-templates: (same)"
fi

is "no sandbox left" "$(sx ls -q 2>/dev/null)" ""
is "no run directory left in the state dir" "$(leftovers)" ""
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Persistent sandboxes from template holders (issue 16 target 5, session 11;
# root only): `sbx create` and `sbx run --name` with a workspace directory
# (read-write, sbx create's default, or read-only) copy a holder's mount
# table, as one-shot runs do. One set of holders per state root (not one per
# sandbox). The sandbox cannot see or signal the holder, cannot reach another
# sandbox's workspace or the state dir (run dir, exec socket, records) through
# the shared tree; sbx is back in its own mount namespace, root and cwd once
# the sandbox is made; a failed return is fatal and leaves no sandbox; kill -9
# of the holder or of sbx mid-create leaves nothing behind. Each with a
# control where the same call is allowed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/template-lib.sh"
is_root || { skip "root only: rootless persistent sandboxes build their root per run"; done_testing; }
case $(uname -r) in
[0-5].* | 6.[0-9].* | 6.1[0-4].*)
        skip "template holders need Linux >= 6.15 (overlayfs layers on a detached mount); kernel $(uname -r) builds each sandbox's root"
        done_testing ;;
esac
unset SBX_TEMPLATE      # the default as root: templates
export XDG_RUNTIME_DIR="$TMP/xdg" SBX_WORKSPACE_ROOT="$TMP/ws"
mkdir -m 700 "$XDG_RUNTIME_DIR"
ROOT="$XDG_RUNTIME_DIR/sbx"
tdir="$ROOT/templates"
holders() { local f; for f in "$tdir"/*/holder; do [ -f "$f" ] && head -1 "$f" | cut -d' ' -f1; done; }
live() { grep -q '^State:.*[RSDT]' "/proc/$1/status" 2>/dev/null; }
procfs() { "$SBX" exec "$1" -- grep -c " /proc [^ ]* - proc " /proc/self/mountinfo; }
held() { local h n=0; for h in $(holders); do n=$((n + $(in_ns "$h"))); done; echo $n; }
py() {  # python3 of the host's /usr in sandbox $1, errno names
        "$SBX" exec "$1" -- /usr/bin/python3 -c "$PY_PROBE
$2" 2>&1
}

# --- the template path is taken, one holder for every sandbox
"$SBX" create a >/dev/null && "$SBX" create b >/dev/null && "$SBX" create --workspace-access ro r >/dev/null
is "three creates: holders under the state root's templates/ (rw and ro workspaces: two)" "$(holders | wc -l)" 2
is "no templates/ in a sandbox's own dir" "$(ls -d "$ROOT"/sandboxes/*/templates 2>/dev/null | wc -l)" 0
is "from the template, /proc is over the holder's procfs" "$(procfs a)" 2
SBX_TEMPLATE=0 "$SBX" create perrun >/dev/null
control "SBX_TEMPLATE=0: the sandbox builds its own root (one procfs)" "$(procfs perrun)" 1
h=$(head -1 "$(grep -l . "$tdir"/*/holder | head -1)" | cut -d' ' -f1)
is "the holder has no user namespace of its own" "$(readlink "/proc/$h/ns/user")" "$(readlink /proc/self/ns/user)"
is "nothing but the holder is in its mount namespace" "$(held)" 0

# --- both directions: the workspace, the shared root
is "rw workspace: writable from inside" "$(py a "t(lambda: open('/workspace/from-a', 'w').write('a'))")" OK
is "... the write is in the host's workspace dir" "$(cat "$SBX_WORKSPACE_ROOT/a/from-a")" a
echo host > "$SBX_WORKSPACE_ROOT/r/seen"
control "ro workspace: the host's file is read" "$("$SBX" exec r -- cat /workspace/seen)" host
is "ro workspace: a write is refused" "$(py r "t(lambda: open('/workspace/x', 'w'))")" EROFS
is "the shared root: a write is refused" "$(py a "t(lambda: os.mkdir('/planted'))")" EROFS
is "the shared root: remount read-write refused" "$(py a "r(libc.mount(None, b'/', None, 32 | 4096, None))")" EPERM
is "umount of /workspace from inside" "$(py a "r(libc.umount2(b'/workspace', 2))")" EPERM
control "the sandbox's own /tmp is writable" "$(py a "t(lambda: os.mkdir('/tmp/mine'))")" OK

# --- a workspace overlay (--workspace-mode overlay): its layers in the run
# dir, staged by the child and detached before anything of the workload runs
mkdir -p "$TMP/ovl" && echo base > "$TMP/ovl/base"
"$SBX" create --workspace "$TMP/ovl" --workspace-mode overlay ov >/dev/null
is "overlay: from the template too" "$(procfs ov)" 2
is "overlay: a write from inside succeeds" "$(py ov "t(lambda: open('/workspace/base', 'a').write('more'))")" OK
is "... it is not in the host's directory" "$(cat "$TMP/ovl/base")" base
like "... it is in the sandbox's upper layer (sbx diff)" "$("$SBX" diff ov)" "M base"
is "... two mounts at /workspace (the lower, the overlay): no staging left" \
        "$("$SBX" exec ov -- cat /proc/self/mountinfo | awk '$5 == "/workspace"' | wc -l)" 2
is "... no mount of the run dir in the sandbox's table" \
        "$("$SBX" exec ov -- cat /proc/self/mountinfo | grep -c -e "/xdg/" || true)" 0
"$SBX" stop ov >/dev/null && "$SBX" start ov >/dev/null
is "... the layer outlives init (stop, start)" "$("$SBX" exec ov -- cat /workspace/base)" "base
more"

mkdir -p "$TMP/ovl2"
"$SBX_DENY_SYSCALLS" setns "$SBX" create --workspace "$TMP/ovl2" --workspace-mode overlay ovfb >/dev/null
is "setns refused: the overlay sandbox builds its own root (one procfs), from the same clones" "$(procfs ovfb)" 1
is "... its write lands in its upper layer" "$("$SBX" exec ovfb -- /bin/sh -c 'echo n > /workspace/n' && "$SBX" diff ovfb)" "A n"
is "... not in the directory" "$(ls "$TMP/ovl2")" ""

# --- what the sandbox cannot see: the holder, other sandboxes, the state dir
is "no process of the sandbox's /proc is the holder" \
        "$("$SBX" exec a -- /bin/sh -c 'cat /proc/[0-9]*/comm 2>/dev/null' | grep -c sbx-template || true)" 0
is "kill of the holder's host pid from inside: no such process" "$(py a "r(libc.kill($h, 9))")" ESRCH
is "b does not see a's workspace file" "$("$SBX" exec b -- /bin/sh -c 'ls /workspace; find / -xdev -name from-a 2>/dev/null' | wc -l)" 0
control "a sees its own" "$("$SBX" exec a -- ls /workspace)" from-a
is "no mount of the sandbox is of the state root (run dir, layers, records)" \
        "$("$SBX" exec a -- cat /proc/self/mountinfo | grep -c -e "/xdg/" || true)" 0
is "the exec socket and records are not reachable" \
        "$("$SBX" exec a -- /bin/sh -c 'find / -xdev \( -name exec.sock -o -name sandbox.json -o -name "run-*" \) 2>/dev/null' | wc -l)" 0
is "init's root is the template's copy, not the host's" \
        "$("$SBX" exec a -- /bin/sh -c 'ls /proc/1/root/ 2>&1 | grep -c -e "^home$" -e "^root$" -e "^var$"' || true)" 0

# --- sbx back in its own mount namespace, root and cwd (sbx run --name keeps
# running while the command does)
mkdir -p "$TMP/cwd here"
(cd "$TMP/cwd here" && exec "$SBX" run --name rn -- /bin/sh -c 'echo up; exec sleep 3') > "$TMP/up" 2>&1 & pid=$!
for i in $(seq 100); do grep -q up "$TMP/up" && break; sleep 0.05; done
is "run --name: sbx is in its own mount namespace after the create" \
        "$(readlink "/proc/$pid/ns/mnt")" "$(readlink /proc/self/ns/mnt)"
is "... with its own root" "$(readlink "/proc/$pid/root")" /
is "... and its own cwd" "$(readlink "/proc/$pid/cwd")" "$TMP/cwd here"
is "... the sandbox came from the template" "$(procfs rn)" 2
wait $pid
is "nothing but the holders are in their mount namespaces" "$(held)" 0

# --- the return fails: fatal (125), no sandbox, no record
out=$("$SBX_DENY_SYSCALLS" fchdir "$SBX" create back 2>&1); rc=$?
is "a failed return to sbx's own mount namespace is fatal (125)" "$rc" 125
like "... and says so" "$out" "cannot return to the launcher's mount namespace"
sleep 0.3
is "... no sandbox 'back' is listed" "$("$SBX" ls -q | grep -c '^back$' || true)" 0
is "... nothing is left in the holders' mount namespaces" "$(held)" 0
is "... the next create works" "$("$SBX" create next >/dev/null && "$SBX" exec next -- /bin/echo ok)" ok

# --- kill -9 of the holder while a create builds it; of sbx mid-create
bad=0
for delay in 0 0.0005 0.001 0.002 0.004 0.008; do
        "$SBX" rm -f --all >/dev/null
        before=" $(pgrep -x sbx-template | tr '\n' ' ') "
        ("$SBX" create "k$RANDOM" > "$TMP/k9" 2>&1) & pid=$!
        sleep $delay
        for p in $(pgrep -x sbx-template); do
                case "$before" in *" $p "*) ;; *) kill -KILL "$p" 2>/dev/null ;; esac
        done
        wait $pid || bad=$((bad + 1))
done
is "kill -9 of the holder while it builds: every create works (without a template)" "$bad" 0
is "... each sandbox runs" "$(for n in $("$SBX" ls -q); do "$SBX" exec "$n" -- /bin/echo ok; done | sort -u)" ok
marker=0
for delay in 0.001 0.002 0.003 0.005 0.008 $(for i in $(seq 20); do echo "0.0$((RANDOM % 30))"; done); do
        "$SBX" create "x$marker" >/dev/null 2>&1 & pid=$!
        marker=$((marker + 1))
        sleep "$delay"
        kill -KILL "$pid" 2>/dev/null
        wait $pid 2>/dev/null
done
sleep 0.5
is "kill -9 of sbx mid-create (25 times): no process (a killed sbx) is left in a holder's mount namespace" "$(held)" 0
"$SBX" ls >/dev/null 2>&1      # cleans what a killed create left
is "... every listed sandbox runs" \
        "$(for n in $("$SBX" ls -q); do "$SBX" exec "$n" -- /bin/echo ok 2>&1; done | sort -u | grep -vc '^ok$' || true)" 0
"$SBX" rm -f --all >/dev/null
sleep 0.3
is "rm -f --all: no sandbox, no holder, no templates/ left" \
        "$("$SBX" ls -q | wc -l) $(for h in $(pgrep -x sbx-template); do grep -qs "^$h " "$tdir"/*/holder && echo "$h"; done | wc -l) $(ls -A "$ROOT" | grep -c templates)" "0 0 0"
is "no mount under the state root" "$(grep -c "$XDG_RUNTIME_DIR" /proc/self/mountinfo || true)" 0
done_testing

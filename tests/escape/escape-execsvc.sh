#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape and crash suite of sbx-init's exec service (issue 16): `sbx exec`
# hands a decided request to the sandbox's init over <state dir>/exec.sock;
# init forks and execs it. Attacks: a sandboxed process reaching the socket
# (path, init's fds through /proc/1/fd and pidfd_getfd), forged requests
# (from a process in the sandbox's pid namespace that can see the socket,
# malformed ones from the host), ptrace and SIGKILL of init. Crashes: init
# killed while a command runs and while it holds a request; clients killed.
# Each attack has a control where the barrier does not apply.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws      # the sandboxes' workspaces go with the test
FORGE=$(dirname "$0")/execsvc-forge.py
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
init_pid() { sx inspect "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["initPid"])'; }
# the fds init holds (host side, /proc/<init>/fd), "?" if unreadable
init_fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
gone() { ! pgrep -f "$1" >/dev/null; }
settle() { for _ in $(seq 50); do "$@" && return 0; sleep 0.1; done; return 1; }

if ! sx create --ro-bind "$SBX_PROBE:/sbx-probe" svc >/dev/null; then
        not_ok "create a persistent sandbox"
        done_testing
        exit
fi
sock=$STATE/sandboxes/svc/exec.sock
ipid=$(init_pid svc)
case "$ipid" in [1-9]*[0-9]) ;; *) not_ok "the sandbox's init pid ($ipid)"; done_testing; exit ;; esac
running() { sx exec svc -- /bin/true && echo running; }

# --- the socket: only in the host-only state dir
control "the exec service's socket is in the state dir, mode 0700 (its owner only)" "$(stat -c '%F %a' "$sock")" "socket 700"
is "execsvc-socket-path: nothing in the sandbox's tree is the socket or the state dir" \
        "$(sx exec svc -- sh -c "find / -path /proc -prune -o -name exec.sock -print 2>/dev/null; test -e '$STATE' && echo state-dir-visible")" ""
is "execsvc-init-fds: init's fds (the socket among them) do not open through /proc/1/fd" \
        "$(sx exec svc -- sh -c 'for f in $(ls /proc/1/fd); do /sbx-probe open /proc/1/fd/$f; done | sort -u')" EACCES
control "a process's own /proc/self/fd/0 opens" "$(sx exec svc -- /sbx-probe open /proc/self/fd/0)" OK
is "execsvc-pidfd-getfd: pidfd_getfd of init's fds is refused" "$(sx exec svc -- /sbx-probe getfd 1)" EPERM
control "pidfd_getfd of its own fds works outside the sandbox" "$("$SBX_PROBE" getfd self)" OK
is "execsvc-ptrace-init: ptrace(PTRACE_ATTACH) of init is refused" "$(sx exec svc -- /sbx-probe ptrace 1)" EPERM
sleep 30 & victim=$!
if is_root; then
        control "ptrace(PTRACE_ATTACH) of a process works outside the sandbox" "$("$SBX_PROBE" ptrace $victim)" OK
else
        control "ptrace of a process outside the sandbox" "" "" "Yama may refuse a non-child without root"
fi
kill -9 $victim 2>/dev/null; wait $victim 2>/dev/null   # -9: a TERM before bash exec'd sleep runs our EXIT trap (rm -rf $TMP) in the child
is "execsvc-kill-init: SIGKILL to init from inside is sent..." "$(sx exec svc -- /sbx-probe kill 1 9)" OK
is "execsvc-kill-init: ... and dropped: the sandbox runs, same init" "$(running) $(init_pid svc)" "running $ipid"

# --- the caller's stdio closed: the fd sbx opens next must not become the command's
sx exec svc -- sh -c 'echo stdio-leak-x; readlink /proc/self/fd/3 3>&1 >&2' >&- 2>"$TMP/fd1"
is "execsvc-closed-stdio: with the caller's stdout closed, the command's fd 1 is /dev/null" "$(cat "$TMP/fd1")" /dev/null
is "execsvc-closed-stdio: ... and nothing it wrote landed in a file of the state dir" \
        "$(grep -rl stdio-leak-x "$STATE" 2>/dev/null)" ""
is "execsvc-closed-stdio: with the caller's stdin closed, the command's fd 0 is /dev/null" \
        "$(sx exec -i svc -- readlink /proc/self/fd/0 <&-)" /dev/null

# --- forged requests
sx exec svc -- rm -f /tmp/forged-pidns /tmp/forged-host
if nsenter -t "$ipid" -U -p --preserve-credentials true 2>/dev/null || nsenter -t "$ipid" -p true 2>/dev/null; then
        ns=(nsenter -t "$ipid" -p)
        nsenter -t "$ipid" -p true 2>/dev/null || ns=(nsenter -t "$ipid" -U -p --preserve-credentials)
        is "execsvc-forge-pidns: a request from inside the sandbox's pid namespace (socket reachable) is refused" \
                "$("${ns[@]}" python3 "$FORGE" "$sock" "$ipid" valid /usr/bin/touch /tmp/forged-pidns 2>&1)" refused
        is "execsvc-forge-pidns: ... and nothing ran" "$(sx exec svc -- sh -c 'test -e /tmp/forged-pidns && echo ran')" ""
else
        skip "execsvc-forge-pidns: nsenter into the sandbox's pid namespace is not possible here"
        skip "execsvc-forge-pidns: ... and nothing ran"
fi
control "the same request from the host (outside its pid namespace) runs" \
        "$(python3 "$FORGE" "$sock" "$ipid" valid /usr/bin/touch /tmp/forged-host 2>&1)" "ran 0"
control "... and its command ran in the sandbox" "$(sx exec svc -- sh -c 'test -e /tmp/forged-host && echo ran')" ran
# An idle init holds two fds: its signalfd and the listening socket. (A finished exec's
# connection is closed right after its status is sent: the client may be gone first.)
fds0=2
fds_back() { test "$(init_fds "$ipid")" = "$fds0"; }
settle fds_back && ok "execsvc-idle-fds: an idle init holds $fds0 fds" ||
        not_ok "execsvc-idle-fds: an idle init holds $fds0 fds ($(init_fds "$ipid"))"
for k in bad-magic bad-version few-fds many-fds no-nul count-mismatch zero-argv huge-len short-data header-only garbage; do
        is "execsvc-malformed-$k: init drops the request" \
                "$(python3 "$FORGE" "$sock" "$ipid" "$k" /usr/bin/touch "/tmp/forged-$k" 2>&1)" refused
done
is "execsvc-malformed: none of them ran anything" "$(sx exec svc -- sh -c 'ls /tmp | grep -c forged-[a-z]*-')" 0
is "execsvc-malformed: init survives them all (same pid, still serving)" "$(running) $(init_pid svc)" "running $ipid"
settle fds_back && ok "execsvc-malformed: init holds no fd more than before (received fds closed)" ||
        not_ok "execsvc-malformed: init holds no fd more than before ($(init_fds "$ipid") fds, was $fds0)"

# --- clients killed: the command dies with its client, init frees its slot
for i in 1 2 3; do
        "$SBX" exec --state-dir "$STATE" svc -- sleep 3140$i$$ & c=$!
        settle pgrep -f "sleep 3140$i$$\$" >/dev/null
        kill -KILL $c; wait $c 2>/dev/null
done
settle gone "sleep 3140[123]$$\$" && ok "execsvc-client-killed: SIGKILL of 3 clients kills their commands" ||
        not_ok "execsvc-client-killed: SIGKILL of 3 clients kills their commands"
settle fds_back && ok "execsvc-client-killed: init closed their connections" ||
        not_ok "execsvc-client-killed: init closed their connections ($(init_fds "$ipid") fds, was $fds0)"
# finished execs leave nothing taken in init (a slot holds a connection fd)
n=0
for i in $(seq 50); do "$SBX" exec --state-dir "$STATE" svc -- /bin/true && n=$((n + 1)); done
is "execsvc-slots: 50 execs in a row all run..." "$n" 50
settle fds_back && ok "execsvc-slots: ... and init holds no connection after them" ||
        not_ok "execsvc-slots: ... and init holds no connection after them ($(init_fds "$ipid") fds, was $fds0)"
rcs=$(for i in $(seq 12); do ("$SBX" exec --state-dir "$STATE" svc -- sh -c "exit $i"; echo $?) & done; wait)
is "execsvc-parallel: 12 concurrent execs each get their own exit status" "$(echo $rcs | tr ' ' '\n' | sort -n | tr '\n' ' ')" \
        "1 2 3 4 5 6 7 8 9 10 11 12 "

is "execsvc-umask: the command has the caller's umask, as a joined exec has" \
        "$( (umask 027; sx exec svc -- sh -c umask) ) $( (umask 077; sx exec svc -- sh -c umask) )" "0027 0077"

# --- the child's memory: cloned with CLONE_VM, it runs in init's memory until
# its exec, on a stack in a region that holds its request; init takes the
# region back only when the kernel says the child left it (exec or exit)
vmsize() { awk '/^VmSize:/ {print $2}' "/proc/$ipid/status"; }
vm1=$(vmsize)          # after the execs above: one free region kept
args=$(for i in $(seq 12); do ("$SBX" exec --state-dir "$STATE" svc -- sh -c 'echo "$1${#2}"' sh "a$i-" "$(head -c 3000 /dev/zero | tr '\0' "$((i % 10))")") & done; wait)
is "execsvc-child-memory: 12 concurrent execs (regions in flight together) each run their own argv" \
        "$(echo $args | tr ' ' '\n' | sort -V | tr '\n' ' ')" "a1-3000 a2-3000 a3-3000 a4-3000 a5-3000 a6-3000 a7-3000 a8-3000 a9-3000 a10-3000 a11-3000 a12-3000 "
big=$(head -c 100000 /dev/zero | tr '\0' x)
is "execsvc-child-memory: a request larger than the kept region (2 x 100 KB arguments) runs" \
        "$(sx exec svc -- sh -c 'echo ${#1} ${#2}' sh "$big" "$big")" "100000 100000"
is "execsvc-child-memory: ... and a small one after it" "$(sx exec svc -- echo small)" small
vm_back() { test "$(vmsize)" = "$vm1"; }
settle vm_back && ok "execsvc-child-memory: init's address space is back to one kept region (VmSize $vm1 kB)" ||
        not_ok "execsvc-child-memory: init's address space is back to one kept region (VmSize $(vmsize) kB, was $vm1)"
# a filter that refuses CLONE_VM (no threads in the sandbox): init forks instead
prof=$TMP/no-clone-vm.json
python3 - "$SBX_SOURCE_ROOT/seccomp-profiles/default.json" "$prof" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for r in p["syscalls"]:        # clone allowed only without CLONE_VM (0x100) too: else the default, EPERM
    if r["names"] == ["clone"] and r["action"] == "SCMP_ACT_ALLOW":
        r["args"][0]["value"] |= 0x100
json.dump(p, open(sys.argv[2], "w"))
PY
if sx create --seccomp-profile "$prof" novm >/dev/null; then
        is "execsvc-clone-vm-refused: control: the filter refuses a thread in the sandbox (EPERM)" \
                "$(sx exec novm -- python3 -c 'import threading
try:
    threading.Thread(target=int).start(); print("started")
except RuntimeError as e: print("refused")' 2>&1)" refused
        is "execsvc-clone-vm-refused: execs still run (init forks)" "$(sx exec novm -- sh -c 'echo ran; exit 4'; echo $?)" "ran
4"
        sx rm -f novm >/dev/null
else
        not_ok "create a sandbox with a seccomp profile that refuses CLONE_VM"
fi

# --- the fallback: a sandbox without the socket (as started by an older sbx)
via() { sx ls --json | python3 -c 'import json,sys; print([s["execVia"] for s in json.load(sys.stdin) if s["name"] == sys.argv[1]][0])' "$1"; }
is "execsvc-via: ls --json says execs go through the service" "$(via svc)" service
mv "$sock" "$sock.moved"
is "execsvc-via: ... and setns without the socket" "$(via svc)" setns
is "execsvc-fallback: without the socket, exec joins by setns..." "$(sx exec svc -- echo joined 2>/dev/null)" joined
like "execsvc-fallback: ... and says so" "$(sx exec svc -- true 2>&1)" "has no exec service .* joining it by setns"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET).bind(sys.argv[1])' "$sock"
is "execsvc-fallback: a socket nobody listens on (an older sbx-init): exec joins by setns..." \
        "$(sx exec svc -- echo joined 2>/dev/null)" joined
like "execsvc-fallback: ... and says so" "$(sx exec svc -- true 2>&1)" "its sbx-init is older than sbx"
rm -f "$sock"
mv "$sock.moved" "$sock"
# an exec allowlist: Landlock's execute rights are per command, init's domain cannot give them
if sx create --exec-allow /usr/bin/true al >/dev/null; then
        is "execsvc-via: a sandbox with an exec allowlist is joined by setns" "$(via al)" setns
        sx exec al -- /usr/bin/true; is "... and an allowed command runs" "$?" 0
        sx exec al -- /usr/bin/id >/dev/null 2>&1; is "... and another is refused (126)" "$?" 126
        sx rm -f al >/dev/null
else
        not_ok "create a sandbox with an exec allowlist"
fi

# --- crashes: init SIGKILLed while a command runs
"$SBX" exec --state-dir "$STATE" svc -- sleep 31410$$ 2>"$TMP/crash.err" & c=$!
settle pgrep -f "sleep 31410$$\$" >/dev/null
kill -KILL "$ipid"
wait $c; rc=$?
is "execsvc-crash-running: init killed mid-exec: the client exits 125" "$rc" 125
like "execsvc-crash-running: ... saying the sandbox's init exited while the command ran" "$(cat "$TMP/crash.err")" \
        "stopped while the command ran"
settle gone "sleep 31410$$\$" && ok "execsvc-crash-running: ... the command is gone" || not_ok "execsvc-crash-running: ... the command is gone"
sx rm -f svc >/dev/null
is "execsvc-crash-running: rm -f leaves no state" "$(ls -A "$STATE/sandboxes" 2>/dev/null | grep -v '^\.' || true)" ""

# --- a bind or workspace that shows the sandbox the state root: every
# sandbox's record and exec service (rootless, its root is the owner: it could
# connect to a sibling's exec.sock, init taking it for the host)
for spec in "--bind $STATE:/mnt" "--ro-bind $TMP:/mnt" "--bind $STATE/sandboxes/.by-id:/mnt" "--workspace $STATE/sandboxes"; do
        out=$(sx create $spec cover 2>&1); rc=$?
        is "execsvc-state-bind: create $spec (the state root, above it, in it) is refused, nothing left" \
                "$([ "$rc" -ne 0 ] && echo refused) $(test -e "$STATE/sandboxes/cover" && echo left)" "refused "
        like "execsvc-state-bind: ... naming the option and the state dir" "$out" "${spec%% *} '.*': .*state dir"
        sx rm -f cover >/dev/null 2>&1
done
out=$(sx run --bind "$STATE:/mnt" -- true 2>&1); rc=$?
is "execsvc-state-bind: sbx run --bind of the state dir is refused too (125)" "$rc" 125
like "execsvc-state-bind: ... naming --bind and the state dir" "$out" "--bind '.*': .*state dir"
mkdir -p "$TMP/other"
is "execsvc-state-bind: control: sbx run --bind beside it runs" "$(sx run --bind "$TMP/other:/mnt" -- echo ran 2>&1)" ran
mkdir -p "$TMP/other"
if sx create --bind "$TMP/other:/mnt" cover >/dev/null; then
        ok "execsvc-state-bind: control: a bind beside the state root is allowed"
        is "execsvc-state-bind: ... and shows no exec.sock" "$(sx exec cover -- sh -c 'find /mnt -type s | wc -l')" 0
        sx rm -f cover >/dev/null
else
        not_ok "execsvc-state-bind: control: a bind beside the state root is allowed"
fi
# --- crashes: init SIGKILLed while it holds a request (stopped first)
sx create svc2 >/dev/null
ipid=$(init_pid svc2)
kill -STOP "$ipid"
"$SBX" exec --state-dir "$STATE" svc2 -- echo never > "$TMP/held.out" 2>"$TMP/held.err" & c=$!
sleep 0.5
kill -KILL "$ipid"
wait $c; rc=$?
is "execsvc-crash-request: init killed holding a request: the client exits 125" "$rc" 125
like "execsvc-crash-request: ... saying init did not run the command" "$(cat "$TMP/held.err")" "did not run the command"
is "execsvc-crash-request: ... and nothing ran" "$(cat "$TMP/held.out")" ""
sx rm -f svc2 >/dev/null
is "execsvc-crash-request: rm -f leaves no state" "$(ls -A "$STATE/sandboxes" 2>/dev/null | grep -v '^\.' || true)" ""
# --- another state dir of this user: a session's $XDG_RUNTIME_DIR/sbx and
# the default without it (cron, a service) are both in use; a sandbox of one
# that was shown the other's dir by a bind reached its exec services (init
# cannot tell such a peer from the host: outside its pid namespace, its
# uid) and ran commands in those sandboxes (rootless; as root the socket is
# the host root's, mode 0700). sbx refuses a bind that shows any default
# state dir of its user, not only the one it uses.
oname=execsvc-other-$$
mkdir -p "$TMP/xdgA" "$TMP/wsB" && chmod 700 "$TMP/xdgA"
if env -u XDG_RUNTIME_DIR timeout -k 5 60 "$SBX" create --workspace "$TMP/wsB" "$oname" >/dev/null; then
        odir=$(env -u XDG_RUNTIME_DIR timeout 60 "$SBX" inspect "$oname" |
               python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["stateDir"])')
        out=$(XDG_RUNTIME_DIR=$TMP/xdgA timeout -k 5 60 "$SBX" run --ro-bind "$FORGE:/forge.py" --bind "$odir:/other" -- \
                python3 /forge.py /other/exec.sock 1 valid /usr/bin/touch /workspace/forged-other 2>&1; echo "rc=$?")
        out=$(printf '%s' "$out" | tr '\n' ' ')
        like "execsvc-other-state-dir: a bind showing another default state dir of this user is refused (125, named)" \
                "$out" "shows sbx's default state dir .*rc=125"
        is "execsvc-other-state-dir: ... and nothing ran in that sandbox" "$(ls "$TMP/wsB")" ""
        parent=${odir%/sandboxes/*}; parent=${parent%/*}
        like "execsvc-other-state-dir: ... nor a bind of its parent ($parent)" \
                "$(XDG_RUNTIME_DIR=$TMP/xdgA timeout -k 5 60 "$SBX" run --bind "$parent:/p" -- true 2>&1 | tr "\\n" " "; echo " rc=${PIPESTATUS[0]}")" \
                "shows sbx's default state dir .*rc=125"
        control "a bind beside it runs (its workspace)" \
                "$(XDG_RUNTIME_DIR=$TMP/xdgA timeout -k 5 60 "$SBX" run --bind "$TMP/wsB:/w" -- ls /w; echo "rc=$?")" "rc=0"
        env -u XDG_RUNTIME_DIR timeout 60 "$SBX" rm -f "$oname" >/dev/null
else
        not_ok "create a sandbox in the default state dir"
fi
is "no exec client of this test is left" "$(pgrep -f -- "--state-dir $STATE" | wc -l)" 0
done_testing

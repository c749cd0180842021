#!/bin/bash
# SPDX-License-Identifier: MIT
# Escape and crash suite of the `sbx` front end (issue 16, runtime/sandbox/
# exec-front.c): a libc-free binary that runs `sbx exec NAME -- CMD` itself
# from the sandbox's exec.fast and init's exec service, the child finding CMD
# in the sandbox's PATH (SBX_SVC_SEARCH), and hands everything else to the full
# sbx. Attacks: a hostile init answering the front end (bad records, statuses,
# an fd slipped in, a lying exec.fast), forged SEARCH requests to the real
# init, the allowlist and pause states the front end must not bypass, a name
# resolved on the host instead of in the sandbox. Crashes: the front end
# killed mid-exec, init killed under it, a lone copy without the full sbx.
. "$(dirname "$0")/lib.sh"

STATE=$TMP/state
export SBX_WORKSPACE_ROOT=$TMP/ws
FAKE=$(dirname "$0")/exec-front-fakeinit.py
FORGE=$(dirname "$0")/execsvc-forge.py
sx() { timeout -k 5 60 "$SBX" "$1" --state-dir "$STATE" "${@:2}"; }
init_pid() { sx inspect "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d, list) else d)["initPid"])'; }
settle() { for _ in $(seq 50); do "$@" && return 0; sleep 0.1; done; return 1; }
gone() { ! pgrep -f "$1" >/dev/null; }

# the sandbox's PATH starts with a dir only it has (on its /tmp tmpfs); the
# same path on the host holds a file the sandbox must not find
P=/tmp/sbx-front-$$
if ! sx create -e PATH=$P:/usr/bin:/bin fe >/dev/null; then
        not_ok "create a persistent sandbox"
        done_testing
        exit
fi
dir=$STATE/sandboxes/fe
ipid=$(init_pid fe)

# --- the fast path is taken, and is the sandbox's
is "front-fast: sbx exec runs the command with its exit status" "$(sx exec fe -- sh -c 'echo in; exit 3'; echo $?)" "in
3"
if command -v strace >/dev/null; then
        strace -f -qq -e trace=execve -o "$TMP/st" "$SBX" exec --state-dir "$STATE" fe -- true
        is "front-fast: ... without starting the full sbx (one execve: the front end's)" \
                "$(grep -c 'execve(' "$TMP/st")" 1
        strace -f -qq -e trace=execve -o "$TMP/st" "$SBX" ls --state-dir "$STATE" -q >/dev/null
        like "front-full: any other command is the full sbx's, argv unchanged" "$(cat "$TMP/st")" \
                "libexec/sbx\", \\[\"$SBX\", \"ls\", \"--state-dir\""
        # a file as stdout/stderr: the relays are forked before the front end
        # opens anything they could inherit (the sandbox's locks, init's
        # socket, the sync socketpair): a late relay's copy of the sync
        # socket hid init's hang-up (front-fake-eof failed under load)
        strace -qq -e trace=clone,openat,socket,socketpair -o "$TMP/st" \
                "$SBX" exec --state-dir "$STATE" fe -- echo relayed >"$TMP/relayed" 2>&1
        is "front-relay: stdout and stderr files: two relays, forked before any lock or socket is opened" \
                "$(awk '/^clone\(/ { c++; if (o) late = 1 } /^(openat|socket|socketpair)\(/ { o = 1 }
                        END { print c + 0, late ? "late" : "first" }' "$TMP/st") $(cat "$TMP/relayed")" "2 first relayed"
else
        skip "front-fast: strace is not installed (.ci/bootstrap installs it)"
        skip "front-full: strace is not installed"
        skip "front-relay: strace is not installed"
fi
# a relay that keeps a copy of its own pipe's write end never sees EOF: it
# outlived the command, and a $(...) around the exec waited for it for ever
# (fault-injection, where close_range is refused)
if [ -x "${SBX_DENY_SYSCALLS:-}" ]; then
        out=$(timeout 20 "$SBX_DENY_SYSCALLS" close_range "$SBX" exec --state-dir "$STATE" fe -- \
                sh -c 'echo out; echo err >&2' 2>"$TMP/nocr.err" >"$TMP/nocr.out"; echo "rc=$?")
        settle gone "^$SBX exec --state-dir $STATE fe -- sh -c echo out"
        is "front-relay-no-close-range: close_range refused: the output is relayed and no relay outlives the exec" \
                "$out $(cat "$TMP/nocr.out" "$TMP/nocr.err" | tr '\n' ' ')$(pgrep -fc "^$SBX exec --state-dir $STATE fe -- sh -c echo out")" \
                "rc=0 out err 0"
else
        skip "front-relay-no-close-range: SBX_DENY_SYSCALLS is not set (meson test sets it)"
fi
is "front-state-dir: --state-dir=DIR works as --state-dir DIR" "$("$SBX" exec --state-dir="$STATE" fe -- echo ok)" ok
is "front-stdin: stdin is /dev/null without -i..." "$(echo leak | sx exec fe -- cat)" ""
is "front-stdin: ... and passed through with -i" "$(echo through | sx exec -i fe -- cat)" through
control "exec.fast: in the host-only state dir, mode 0600" "$(stat -c %a "$dir/exec.fast")" 600
is "front-env: the command gets the sandbox's environment, not the caller's" \
        "$(SECRET_VAR=host sx exec fe -- sh -c 'echo "$PATH ${SECRET_VAR:-unset}"')" "$P:/usr/bin:/bin unset"
# connect() names init's socket relative to the checked sandbox dir, made
# the working directory (the caller's again before the full sbx runs); where
# the caller's cannot be opened (no search permission), through
# /proc/self/fd/N as before: both paths run the command, and a command the
# child cannot find still goes to the full sbx, which says why
mkdir -p "$TMP/cwd"
is "front-cwd: from a working directory of the caller's: runs, and a missing command is the full sbx's 127" \
        "$(cd "$TMP/cwd" && sx exec fe -- echo ran; sx exec fe -- nothere-$$ 2>&1; echo "rc=$?")" \
        "ran
sbx exec: resolve 'nothere-$$' in the sandbox: No such file or directory
rc=127"
is "front-cwd: ... the same from one without search permission (unprivileged: the /proc/self/fd path)" \
        "$(cd "$TMP/cwd" && chmod 0 "$TMP/cwd" && sx exec fe -- echo ran; sx exec fe -- nothere-$$ 2>&1; echo "rc=$?"
           chmod 755 "$TMP/cwd")" \
        "ran
sbx exec: resolve 'nothere-$$' in the sandbox: No such file or directory
rc=127"

# --- the command is found in the sandbox's PATH, inside its root
sx exec fe -- sh -c "mkdir -p $P && printf '#!/bin/sh\necho inside\n' > $P/onlyin && chmod +x $P/onlyin"
is "front-search: a bare name is found in the sandbox's own PATH" "$(sx exec fe -- onlyin)" inside
mkdir -p "$P" && printf '#!/bin/sh\necho host\n' > "$P/hostonly" && chmod +x "$P/hostonly"
sx exec fe -- hostonly >"$TMP/ho" 2>&1; rc=$?
is "front-search: a file only at the same path on the host is not found (127)" "$rc $(grep -cx host "$TMP/ho")" "127 0"
control "the host's file runs on the host" "$(PATH=$P hostonly)" host
like "front-search: ... with the full sbx's message" "$(cat "$TMP/ho")" "resolve 'hostonly' in the sandbox"
rm -rf "$P"
sx exec fe -- sh -c "printf x > $P/noexec"
sx exec fe -- noexec 2>"$TMP/ne"; rc=$?
is "front-search: a file without execute permission: 126, the full sbx's message" "$rc $(grep -c 'sbx exec:' "$TMP/ne")" "126 1"
sx exec -w / fe -- nothere-$$ 2>/dev/null; rc=$?
is "front-search: an option the front end leaves to the full sbx (-w) still works (127)" "$rc" 127
# an empty PATH entry is the working directory (POSIX, execvp), on both paths
if sx create -e PATH=:/usr/bin:/bin ep >/dev/null; then
        sx exec ep -- sh -c 'printf "#!/bin/sh\necho wd\n" > /workspace/inwd && chmod +x /workspace/inwd'
        is "front-search-empty: an empty PATH entry finds the workdir's file (front end)" "$(sx exec ep -- inwd 2>&1)" wd
        is "front-search-empty: ... and the same through the full sbx (-e)" "$(sx exec -e X=1 ep -- inwd 2>&1)" wd
        sx exec -w /tmp ep -- inwd >/dev/null 2>&1; rc=$?
        is "front-search-empty: ... the working directory's, not /workspace's: from /tmp not found (127)" "$rc" 127
        sx rm -f ep >/dev/null
else
        not_ok "create a sandbox with an empty PATH entry"
fi

# --- what the front end must not bypass
if sx create --exec-allow /usr/bin/true al >/dev/null; then
        is "front-allowlist: a sandbox with an exec allowlist has no exec.fast" "$(test -e "$STATE/sandboxes/al/exec.fast" && echo yes)" ""
        sx exec al -- /usr/bin/true; is "front-allowlist: an allowed command runs" "$?" 0
        sx exec al -- /usr/bin/id >/dev/null 2>&1; is "front-allowlist: ... and another is refused (126)" "$?" 126
        sx exec al -- id >/dev/null 2>&1; is "front-allowlist: ... also by a bare name (126)" "$?" 126
        sx rm -f al >/dev/null
else
        not_ok "create a sandbox with an exec allowlist"
fi
if sx pause fe >/dev/null 2>&1; then
        is "front-pause: a paused sandbox has no exec.fast" "$(test -e "$dir/exec.fast" && echo yes)" ""
        out=$(timeout 20 "$SBX" exec --state-dir "$STATE" fe -- true 2>&1); rc=$?
        is "front-pause: exec into it fails at once (125), as the full sbx says" "$rc" 125
        like "front-pause: ... naming the state" "$out" "paused"
        sx unpause fe >/dev/null
        is "front-pause: unpaused, exec.fast is back and exec runs" "$(test -e "$dir/exec.fast" && sx exec fe -- echo back)" back
else
        skip "front-pause: sbx pause is not possible here"
        skip "front-pause: exec into it fails"
        skip "front-pause: naming the state"
        skip "front-pause: unpaused"
fi

# --- forged SEARCH requests to the real init
is "front-forge: a SEARCH request from the host runs a bare name" \
        "$(python3 "$FORGE" "$dir/exec.sock" "$ipid" search touch /tmp/forged-search 2>&1)" "ran 0"
for k in search-exec-fd search-no-path; do
        is "front-forge-$k: init drops the request" \
                "$(python3 "$FORGE" "$dir/exec.sock" "$ipid" "$k" /usr/bin/touch "/tmp/forged-$k" 2>&1)" refused
done
is "front-forge: none of the malformed ones ran" "$(sx exec fe -- sh -c 'ls /tmp | grep -c "forged-search-"')" 0
is "front-forge: init survives them (same pid, still serving)" "$(sx exec fe -- echo up) $(init_pid fe)" "up $ipid"

# --- a hostile init: every byte from it is checked
FS=$TMP/fake
fake() {        # fake KIND: "<front end's rc> <fake's words>" and its stderr in $TMP/fake.err
        rm -rf "$FS" "$TMP/fake.out"; mkdir -p -m 711 "$FS"
        python3 "$FAKE" "$FS" box "$1" > "$TMP/fake.out" & fk=$!
        settle grep -q ready "$TMP/fake.out"
        timeout 20 "$SBX" exec --state-dir "$FS" box -- /bin/true >/dev/null 2>"$TMP/fake.err"; rc=$?
        wait $fk 2>/dev/null
        echo "$rc $(grep -v ready "$TMP/fake.out" | tr '\n' ' ' | sed 's/ $//')"
}
is "front-fake-eof: init hangs up: 125..." "$(fake eof)" "125 served"
like "front-fake-eof: ... it did not run the command" "$(cat "$TMP/fake.err")" "did not run the command"
is "front-fake-bad-ready: a READY without the magic: 125..." "$(fake bad-ready)" "125 served"
like "front-fake-bad-ready: ... as the full sbx says it" "$(cat "$TMP/fake.err")" "exec service: sandbox 'box'"
is "front-fake-bad-status: a status wait4 never gives (stopped): 125..." "$(fake bad-status)" "125 served"
like "front-fake-bad-status: ... a bad exit status" "$(cat "$TMP/fake.err")" "a bad exit status"
is "front-fake-short-status: 3 bytes of status: 125..." "$(fake short-status)" "125 served"
like "front-fake-short-status: ... no exit status" "$(cat "$TMP/fake.err")" "no exit status"
is "front-fake-stopped: init gone after READY: 125..." "$(fake stopped)" "125 served"
like "front-fake-stopped: ... the sandbox stopped while the command ran" "$(cat "$TMP/fake.err")" "stopped while the command ran"
is "front-fake-fd: an fd init attaches to READY is closed at once; the status is passed on" "$(fake fd-in-ready)" "7 closed"
is "front-fake-corrupt-fast: an exec.fast whose length lies is not used (no request sent)" \
        "$(fake corrupt-fast | cut -d' ' -f2-)" "no-connection"
is "front-fake-loose-fast: an exec.fast others may read (not sbx's 0600) is not used" \
        "$(fake loose-fast | cut -d' ' -f2-)" "no-connection"

# --- crashes
"$SBX" exec --state-dir "$STATE" fe -- sh -c 'trap "exit 42" TERM; sleep 31601'$$' & wait' & c=$!
# (anchored: the front end's and sh's own command lines hold the words too)
settle pgrep -f "^sleep 31601$$\$" >/dev/null
kill -TERM $c; wait $c; rc=$?
is "front-signal: SIGTERM to the front end reaches the command's group (its trap exits 42)" "$rc" 42
settle gone "^sleep 31601$$\$" && ok "front-signal: ... and the group's sleep is gone too" || not_ok "front-signal: the group's sleep is gone"
# a signal in the first milliseconds, before the front end took READY (it
# takes it then, to have the command's pidfd; a command that ends within
# 20 ms costs it one sleep: READY is read after the end). No trap in this
# sh: a TERM that comes while it forks would find the child still running
# the shell's handler, which then execs sleep regardless (the shell's race,
# not the front end's); with default dispositions the child dies too.
rcs=
for k in 1 2 3 4 5; do
        "$SBX" exec --state-dir "$STATE" fe -- sh -c 'sleep 3161'$k$$' & wait' & c=$!
        sleep 0.00$k
        kill -TERM $c; wait $c; rcs="$rcs $?"
done
like "front-signal-early: SIGTERM within 5 ms of the start ends each exec (143: the command's, or the front end's before its mask)" \
        "$rcs" "^( 143){5}$"
settle gone "^sleep 3161[1-5]$$\$" && ok "front-signal-early: ... and no command is left" ||
        not_ok "front-signal-early: ... and no command is left ($(pgrep -fa "^sleep 3161[1-5]$$\$"))"
is "front-short: a command that ends at once (READY read after its end) gives its status" \
        "$(sx exec fe -- sh -c 'echo out; exit 7'; echo $?)" "out
7"
"$SBX" exec --state-dir "$STATE" fe -- sleep 31602$$ & c=$!
settle pgrep -f "^sleep 31602$$\$" >/dev/null
kill -KILL $c; wait $c 2>/dev/null
settle gone "^sleep 31602$$\$" && ok "front-crash-client: SIGKILL of the front end kills its command" ||
        not_ok "front-crash-client: SIGKILL of the front end kills its command"
# (init killed under a running front end: escape-execsvc's crash tests, whose sbx is this front end)
ipid=$(init_pid fe)
kill -KILL "$ipid"
settle eval '! kill -0 "$ipid" 2>/dev/null'
is "front-crash-init: init killed, exec.fast still there (the record says running)" "$(test -e "$dir/exec.fast" && echo yes)" yes
sx exec fe -- true 2>"$TMP/dead.err"; rc=$?
is "front-crash-init: ... the front end finds nobody listening: the full sbx says it is not running (125)" "$rc $(grep -c 'is not running' "$TMP/dead.err")" "125 1"
sx rm -f fe >/dev/null
is "front-crash-init: rm -f leaves no state" "$(ls -A "$STATE/sandboxes" 2>/dev/null | grep -v '^\.' || true)" ""

# --- a lone copy of the front end: says where the full sbx should be
mkdir -p "$TMP/lone"; cp "$SBX" "$TMP/lone/sbx"
out=$("$TMP/lone/sbx" ls 2>&1); rc=$?
if [ "$rc" = 125 ]; then
        like "front-lone: a lone front end fails (125) naming where it looked and what to do" "$out" \
                "full sbx program was not found.*$TMP/lone/libexec/sbx.*ninja -C build install"
else
        skip "front-lone: the full sbx is installed at the configured prefix, so a lone copy finds it"
fi
is "no exec client of this test is left" "$(pgrep -f -- "--state-dir $STATE" | wc -l)" 0
done_testing

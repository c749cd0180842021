#!/bin/bash
# SPDX-License-Identifier: MIT
# --help says what the parsers do, and bad input gets one clear line (round
# 5). Parsed from the printed --help itself (not the tables, which cli-docs.sh
# walks): every option a command's --help lists is its table's and each the
# table has is listed; every --option its prose names exists; an unknown
# option, and each option given last without its value, is refused with one
# line naming it (exit 2; the docker CLI: 1); the exit statuses and defaults
# the help states are the real ones; sbx-runc's hand-written --help lists
# every option its parser compares (read from the source) and each option it
# lists is taken; sbx-init run by hand says what it is. Root and unprivileged.
# Cost: ~15 s.
. "$(dirname "$0")/lib.sh"
: "${SBX_BUILD_ROOT:?}"
GENDOC=$SBX_BUILD_ROOT/sbx-gendoc
RUNC=$SBX_BUILD_ROOT/sbx-runc
export HOME=$TMP/home SBX_IMAGE_DIR=$TMP/images SBX_WORKSPACE_ROOT=$TMP/ws SBX_NETWORK_DIR=$TMP/nets
unset OPENCLAW_CONFIG_PATH OPENCLAW_STATE_DIR
mkdir -p "$HOME"
ST=$TMP/state

table=$("$GENDOC" options)
cmds=$(cut -f1 <<<"$table" | sort -u)
all_opts=$(cut -f2 <<<"$table" | sort -u)
# the option lines of a --help: "  -x, --name ARG" or "      --name ARG" (help
# text wraps at column 28, so a continuation line never starts at 6 spaces + --)
help_opts() { grep -oE -- '^(  -[A-Za-z0-9], |      )--[a-z0-9-]+' | sed 's/.*--/--/' | sort -u; }
words_of() { local -n _w=$2; read -r -a _w <<<"$1"; }

# --- the top level: sbx --help lists every command that has a table, and each listed one answers --help
top=$("$SBX" --help); rc=$?
is "sbx --help: exit 0" "$rc" 0
listed=$(sed -n '/^commands:/,/^$/p' <<<"$top" | grep -oE '^  [a-z]+' | tr -d ' ' | sort -u)
missing=; for c in $(cut -d' ' -f1 <<<"$cmds" | sort -u); do grep -qx "$c" <<<"$listed" || missing+="$c "; done
is "sbx --help lists every command with options" "$missing" ""
bad=; for c in $listed; do "$SBX" "$c" --help >/dev/null 2>&1 || bad+="$c "; done
is "every command sbx --help lists answers 'sbx COMMAND --help' with 0" "$bad" ""
is "sbx help rm is sbx rm --help" "$("$SBX" help rm)" "$("$SBX" rm --help)"
out=$("$SBX" help no-such-command 2>&1); rc=$?
is "sbx help no-such-command: exit 2, one line naming it" "$rc|$out" "2|sbx help: unknown command 'no-such-command' (see 'sbx --help')"
out=$("$SBX" version extra 2>&1); rc=$?
is "sbx version extra: exit 2, one line naming it" "$rc|$out" "2|sbx version: unexpected argument 'extra'"
like "sbx --version" "$("$SBX" --version)" '^sbx [0-9]'
is "sbx version --json: {\"version\": ...}, the same version" \
        "$("$SBX" version --json | python3 -c 'import json,sys; print("sbx", json.load(sys.stdin)["version"])')" "$("$SBX" --version)"
out=$("$SBX" version --json extra 2>&1 >/dev/null); rc=$?
is "sbx version --json extra: exit 2, named" "$rc|$out" "2|sbx version: unexpected argument 'extra'"

# --- --json errors (README "Exit status"): a command with --json given it
# anywhere before "--" answers an error it exits non-zero for with one JSON
# object on stdout too, also for a bad option given before --json; without
# --json stdout stays empty
jerr() { python3 -c 'import json,sys; o=json.load(sys.stdin); print(o["error"], o["code"], o["exitCode"], o["message"])'; }
while IFS=$'\t' read -r jc _; do
        words_of "$jc" jw
        [ "${jw[0]}" = network ] && jw+=(ls)
        out=$("$SBX" "${jw[@]}" --bogus --json 2>"$TMP/jerr"); rc=$?
        is "sbx $jc --bogus --json: exit 2, the JSON error object naming --bogus, the line on stderr" \
                "$rc|$(jerr <<<"$out" 2>&1)|$(wc -l <"$TMP/jerr")" \
                "2|True USAGE 2 bad option '--bogus' (see 'sbx $jc --help')|1"
        out=$("$SBX" "${jw[@]}" --bogus 2>/dev/null); rc=$?
        is "sbx $jc --bogus (no --json): exit 2, nothing on stdout" "$rc|$out" "2|"
done < <("$GENDOC" options | awk -F'\t' '$2 == "--json" && $1 !~ /^docker /')
out=$("$SBX" diff --state-dir "$ST" nope --json 2>/dev/null); rc=$?
is "sbx diff NAME --json of a missing sandbox: exit 1, {code NOT_FOUND}" "$rc|$(jerr <<<"$out" 2>&1)" \
        "1|True NOT_FOUND 1 No such sandbox: nope"
out=$("$SBX" ls --state-dir "$ST" -j 2>/dev/null); rc=$?
is "sbx ls -j that succeeds: exit 0, its JSON array (no error object)" "$rc|$(python3 -c 'import json,sys; print(type(json.load(sys.stdin)).__name__)' <<<"$out" 2>&1)" "0|list"
out=$("$SBX" version --json --bogus 2>/dev/null); rc=$?
is "sbx version --json --bogus: exit 2, the JSON error object" "$rc|$(jerr <<<"$out" 2>&1)" \
        "2|True USAGE 2 unexpected argument '--bogus'"
like "sbx --help states each exit status of README's table" "$(tr '\n' ' ' <<<"$top")" \
        "128\+N if killed by signal N; 1 no such sandbox .*2 bad usage or config; 124 sbx run --timeout expired; +125 sbx failed; 126 not executable or refused; 127 not found"

# --- each command's --help: its option lines are its table's, both ways; the
# --options its prose names exist; an unknown option and a missing value are
# refused with one line naming them
drift=; prose=; refused=; novalue=
while read -r cmd; do
        words_of "$cmd" w
        pre=("${w[@]}"); post=()
        case $cmd in
        network) pre=(network ls) ;;
        "docker network") pre=(docker network ls) ;;
        docker) continue ;;   # only --help; its commands are the "docker X" ones
        run) post=(-- /bin/true) ;;
        esac
        h=$("$SBX" "${w[@]}" --help 2>&1)
        mine=$(awk -F'\t' -v c="$cmd" '$1 == c { print $2 }' <<<"$table" | sort -u)
        # sbx rootfs --help shows its commands' help too
        [ "$cmd" = rootfs ] && mine=$(awk -F'\t' '$1 ~ /^rootfs/ { print $2 }' <<<"$table" | sort -u)
        [ "$(help_opts <<<"$h")" = "$mine" ] || drift+="$cmd: help [$(help_opts <<<"$h" | tr '\n' ' ')] table [$(tr '\n' ' ' <<<"$mine")]; "
        for t in $(grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]+' <<<"$h" | sed 's/^[^-]*--/--/' | sort -u); do
                grep -qxF -- "$t" <<<"$all_opts" || prose+="$cmd: $t; "
        done
        # an unknown option
        out=$("$SBX" "${pre[@]}" --no-such-option-q "${post[@]}" 2>&1 </dev/null); rc=$?
        want=2; [[ $cmd == docker* ]] && want=125   # the docker CLI: 125 for a flag error
        [ "$rc" = "$want" ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "--no-such-option-q" <<<"$out" ||
                refused+="$cmd: $rc [$out]; "
        # each option that takes a value, last and without it
        while IFS=$'\t' read -r opt arg; do
                [ "$arg" = - ] && continue
                out=$(timeout 20 "$SBX" "${pre[@]}" "$opt" 2>&1 </dev/null); rc=$?
                # sbx create --agent/--session/--config say first that they need --scope,
                # sbx run's persistent-sandbox options that they need --name
                [ "$rc" = "$want" ] && [ "$(wc -l <<<"$out")" = 1 ] &&
                        grep -qE -- "option '$opt' needs a value|flag needs an argument: $opt|^sbx create: $opt chooses|^sbx run: $opt is for a persistent" \
                                <<<"$out" || novalue+="$cmd $opt: $rc [$(head -2 <<<"$out" | tr '\n' ' ')]; "
        done < <(awk -F'\t' -v c="$cmd" '$1 == c { print $2 "\t" $3 }' <<<"$table")
done <<<"$cmds"
# --- each option of the tables is one its command's parser takes (the
# getopt arrays come from the tables, but a parser without a case for one
# refuses it "unknown option"): OPTION [VALUE] then an unknown option, and
# the answer names the unknown one (OPTION was taken) or OPTION itself (its
# value refused), never "unknown option"; sbx's commands and the docker
# ones. The parsers are the same for every uid: root only; and not under
# ASan (the sanitizers lane: 20 s there for a check of the tables, not of
# memory). Cost: ~4 s at load 15, 220 runs of sbx that stop at parsing.
asan=; ldd "$SBX_BUILD_ROOT/libexec/sbx" 2>/dev/null | grep -q libasan && asan=1
if [ "$(id -u)" = 0 ] && [ -z "$asan" ]; then
        nottaken=; n=0
        while IFS=$'\t' read -r cmd opt arg _; do
                [[ $cmd == docker || $opt == --help ]] && continue
                words_of "$cmd" w
                [ "$cmd" = network ] && w=(network ls)
                [ "$cmd" = "docker network" ] && w=(docker network ls)
                a=("$opt"); [ "$arg" = - ] || a+=(1)
                [ "$opt" = --agent ] && a=("$opt" main)
                out=$(timeout 20 "$SBX" "${w[@]}" "${a[@]}" --no-such-option-q 2>&1 </dev/null)
                n=$((n + 1))
                if grep -q "unknown option" <<<"$out" || ! grep -qE -- "--no-such-option-q|$opt( |:|'|\"|$)" <<<"$out"; then
                        nottaken+="$cmd $opt: [$(tail -1 <<<"$out")]; "
                fi
        done <<<"$table"
        [ "$n" -ge 200 ] && ok "$n options of sbx's and its docker commands tried" || not_ok "options of the commands tried: only $n"
        is "every option of every command's table is taken by its parser (or its value refused naming it)" "$nottaken" ""
        out=$("$SBX" run --ro-bind 1 -- true 2>&1)
        is "control: a refused value names the option it came with (--ro-bind, not --bind)" "$out" \
                "sbx run: --ro-bind '1': give SRC:DST with an absolute DST"
else
        skip "every option of the tables is taken by its parser (root only, not under ASan: the parsers are the same for every uid and build)"
        skip "... the control"
        skip "... --ro-bind named"
fi
is "every command's --help lists exactly its table's options" "$drift" ""
is "every --option the help texts name is an option of sbx" "$prose" ""
is "an unknown option: one line naming it, exit 2 (docker: 125), every command" "$refused" ""
is "an option given last without its value: one line saying so, every option of every command" "$novalue" ""
# ... and the checks above can fail
is "control: a help option line is seen" "$("$SBX" rm --help | help_opts | tr '\n' ' ')" "--all --force --help --state-dir "
out=$("$SBX" run --workdir 2>&1)
is "control: sbx run --workdir (no value)" "$out" "sbx run: option '--workdir' needs a value (see 'sbx run --help')"
out=$("$SBX" run --work /tmp -- true 2>&1); rc=$?
is "an ambiguous abbreviation is refused, named" "$rc|$out" "2|sbx run: ambiguous option '--work' (see 'sbx run --help')"
out=$("$SBX" run --tty=yes -- true 2>&1); rc=$?
is "a value given to a flag is refused, named" "$rc|$out" "2|sbx run: option '--tty' takes no value (see 'sbx run --help')"
out=$("$SBX" run --label a=b -- true 2>&1); rc=$?
is "a persistent-sandbox option of sbx run without --name says so" "$rc|$out" \
        "2|sbx run: --label is for a persistent sandbox: give --name NAME or --scope SCOPE too (see 'sbx run --help')"
out=$("$SBX" rm -fz x 2>&1); rc=$?
is "an unknown short option in a cluster is named alone" "$rc|$out" "2|sbx rm: bad option '-z' (see 'sbx rm --help')"

# --- the exit statuses the help states: NAME commands, create, run, check, explain
foot_bad=; st_bad=
for c in start stop rm pause unpause inspect diff commit reset recreate; do
        like_foot=$("$SBX" $c --help | tr '\n' ' ')
        [[ $like_foot == *"1 no such sandbox"* ]] || foot_bad+="$c "
        out=$("$SBX" $c --state-dir "$ST" no-such-box 2>&1 >/dev/null); rc=$?
        [ "$rc|$out" = "1|sbx $c: No such sandbox: no-such-box" ] || st_bad+="$c: $rc [$out]; "
done
out=$("$SBX" logs --exec --state-dir "$ST" no-such-box 2>&1); rc=$?
[ "$rc|$out" = "1|sbx logs: No such sandbox: no-such-box" ] || st_bad+="logs: $rc [$out]; "
out=$("$SBX" exec --state-dir "$ST" no-such-box -- true 2>&1); rc=$?
[ "$rc|$out" = "1|sbx exec: No such sandbox: no-such-box" ] || st_bad+="exec: $rc [$out]; "
is "the NAME commands' --help states '1 no such sandbox'" "$foot_bad" ""
is "... and each exits 1 with one line 'No such sandbox: NAME'" "$st_bad" ""
# a missing file that is not the sandbox is sbx failing (125), not 1
out=$("$SBX" create --state-dir "$ST" --no-start --bind "$TMP/no-such-src:/x" hb 2>&1); rc=$?
is "create --bind MISSING: 125 naming the source (not 1, 'no such sandbox')" "$rc|$out" \
        "125|sbx create: --bind '$TMP/no-such-src': No such file or directory"
"$SBX" create --state-dir "$ST" --no-start hb >/dev/null
out=$("$SBX" create --state-dir "$ST" --no-start hb 2>&1); rc=$?
like "create of an existing NAME: 1, as its --help says" "$rc|$out" '^1\|sbx create: .*hb'
"$SBX" rm --state-dir "$ST" hb >/dev/null
is "run: CMD's own status" "$("$SBX" run -- /bin/sh -c 'exit 7'; echo $?)" 7
# pid 1 ignores a signal it has no handler for; the second SIGTERM is a SIGKILL
"$SBX" run -- /bin/sleep 30 & p=$!
sleep 1; kill -TERM $p; sleep 0.3; kill -TERM $p
wait $p; is "run: 128+N when killed by signal N (the second SIGTERM: SIGKILL)" "$?" 137
is "run: 124 when --timeout expires" "$("$SBX" run --timeout 1 -- /bin/sleep 30 2>/dev/null; echo $?)" 124
is "run: 127 not found" "$("$SBX" run -- /no/such/cmd 2>/dev/null; echo $?)" 127
is "run: 126 not executable" "$("$SBX" run -- /etc/passwd 2>/dev/null; echo $?)" 126
is "run: 126 refused by the exec policy" "$("$SBX" run --exec-allow /bin/ls -- /bin/true 2>/dev/null; echo $?)" 126
printf '{ agents: { list: [ { id: "a" } ] } }' > "$TMP/ok.json5"
printf '{ agents: { defaults: { sandbox: { mode: "sometimes" } } } }' > "$TMP/bad.json5"
is "check: 0 valid, 2 invalid (its --help)" \
        "$("$SBX" check --config "$TMP/ok.json5" >/dev/null 2>&1; echo $?) $("$SBX" check --config "$TMP/bad.json5" >/dev/null 2>&1; echo $?)" "0 2"
is "explain: 2 for an unknown agent (its --help)" \
        "$("$SBX" explain --config "$TMP/ok.json5" --agent nosuch >/dev/null 2>&1; echo $?)" 2

# --- the defaults sbx run --help states
is "run: --hostname default sbx, -w default /workspace, -u default 0:0" \
        "$("$SBX" run -- /bin/sh -c 'echo $(hostname) $(pwd) $(id -u):$(id -g)')" "sbx /workspace 0:0"
is "run: --network default none (only lo)" "$("$SBX" run -- /bin/ls /sys/class/net 2>/dev/null || "$SBX" run -- /bin/sh -c 'cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d " "')" lo
mkdir -p "$TMP/wsd"
"$SBX" run --workspace "$TMP/wsd" -- /bin/sh -c 'echo x > /workspace/f'
is "run: --workspace-access default none (writes stay in the sandbox)" "$(ls -A "$TMP/wsd")" ""
is "run: no --tty when stdin is no tty" "$("$SBX" run -- /bin/sh -c 'test -t 0 && echo tty || echo notty' </dev/null)" notty
mkdir -p "$TMP/ocst"
printf '{}' > "$TMP/ocst/openclaw.json"
mkdir -p "$HOME/.openclaw"; printf '{}' > "$HOME/.openclaw/openclaw.json"
like "--config default: ~/.openclaw/openclaw.json last" "$("$SBX" check --json 2>&1)" "\"config\": *\"$HOME/.openclaw/openclaw.json\""
like "--config default: \$OPENCLAW_STATE_DIR/openclaw.json before it" \
        "$(OPENCLAW_STATE_DIR=$TMP/ocst "$SBX" check --json 2>&1)" "\"config\": *\"$TMP/ocst/openclaw.json\""
like "--config default: \$OPENCLAW_CONFIG_PATH first" \
        "$(OPENCLAW_CONFIG_PATH=$TMP/ok.json5 OPENCLAW_STATE_DIR=$TMP/ocst "$SBX" check --json 2>&1)" "\"config\": *\"$TMP/ok.json5\""
rm -r "$HOME/.openclaw"
mkdir -m 700 -p "$TMP/xdg"
XDG_RUNTIME_DIR=$TMP/xdg "$SBX" create --no-start dflt >/dev/null
is "--state-dir default: \$XDG_RUNTIME_DIR/sbx" "$(ls "$TMP/xdg/sbx/sandboxes" 2>&1)" dflt
XDG_RUNTIME_DIR=$TMP/xdg "$SBX" rm dflt >/dev/null
is "--workspace-root default: \$SBX_WORKSPACE_ROOT/NAME" "$(ls -d "$TMP/ws/dflt")" "$TMP/ws/dflt"

# --- sbx-runc: its --help and its parser (hand-written) agree both ways
rh=$("$RUNC" --help); rc=$?
is "sbx-runc --help: exit 0" "$rc" 0
is "sbx oci --help is sbx-runc --help" "$("$SBX" oci --help)" "$rh"
src=$(cat "$SBX_SOURCE_ROOT/runtime/oci/oci-cli.c" "$SBX_SOURCE_ROOT/runtime/oci/oci-exec.c")
parsed=$(grep -oE '(opt_value\(&[a-z], argc, argv, |strcmp\((a|argv\[k\]), |is_opt\(a, |VAL\()"-[-a-z]+' <<<"$src" |
        grep -oE '"-[-a-z]+' | tr -d '"' | sort -u)
n=$(wc -l <<<"$parsed")
[ "$n" -ge 30 ] && ok "sbx-runc: $n option words read from its parser" || not_ok "sbx-runc: option words read from its parser ($n)"
unlisted=; for o in $parsed; do
        [ "$o" = -- ] && continue
        grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<<"$rh" || unlisted+="$o "
done
is "sbx-runc: every option its parser takes is in its --help" "$unlisted" ""
# every option --help lists is taken: global ones before 'list', a command's after it
R=(--root "$TMP/runc")
global=$(sed -n '/^global options:/,/^commands:/p' <<<"$rh" | grep -oE -- '(^|[ (\[])--?[a-z][a-z-]*' | grep -oE -- '--?[a-z-]+' | sort -u)
notaken=
for o in $global; do
        case $o in --help|-h|--version|-v|--root) continue ;; esac
        # in $TMP: --log takes "list" for its FILE and makes it
        out=$(cd "$TMP" && "$RUNC" "${R[@]}" "$o" list 2>&1)
        grep -q "needs a value" <<<"$out" && out=$(cd "$TMP" && "$RUNC" "${R[@]}" "$o" "$TMP/x" list 2>&1)
        grep -qi "unknown" <<<"$out" && notaken+="$o [$out] "
done
is "sbx-runc: every global option its --help lists is taken (or refused naming why)" "$notaken" ""
while read -r line; do
        c=$(awk '{print $1}' <<<"$line")
        for o in $(grep -oE -- '[ \[|]--?[a-z][a-z-]*' <<<"$line" | grep -oE -- '--?[a-z-]+' | sort -u); do
                out=$(cd "$TMP" && timeout 20 "$RUNC" "${R[@]}" "$c" "$o" no-such-ctr 2>&1 </dev/null)
                grep -q "needs a value" <<<"$out" && out=$(cd "$TMP" && timeout 20 "$RUNC" "${R[@]}" "$c" "$o" 1 no-such-ctr 2>&1 </dev/null)
                grep -qiE "unknown|unexpected" <<<"$out" && notaken+="$c $o [$out] "
        done
done < <(sed -n '/^commands:/,/^config.json/p' <<<"$rh" | grep -E '^  (create|run|kill|delete|exec|ps|list|spec) ')
is "sbx-runc: every option of create/run/kill/delete/exec/ps/list/spec its --help lists is taken" "$notaken" ""
out=$("$RUNC" "${R[@]}" create --no-such-opt x 2>&1); rc=$?
is "control: sbx-runc create --no-such-opt: 1, named" "$rc|$out" "1|sbx-runc: create: unknown option '--no-such-opt'"
out=$("$RUNC" --root 2>&1); rc=$?
is "sbx-runc --root without a value: 1, says so" "$rc|$out" "1|sbx-runc: option '--root' needs a value (see --help)"
for v in abc -5 1x ""; do
        out=$(cd "$TMP" && "$RUNC" "${R[@]}" create --preserve-fds "$v" x 2>&1); rc=$?
        like "sbx-runc create --preserve-fds '$v': 1, naming it" "$rc|$out" "^1\|sbx-runc: create: --preserve-fds '$v': a number"
done
out=$("$RUNC" "${R[@]}" create -b "$TMP/no-such-bundle" x 2>&1); rc=$?
is "sbx-runc create -b MISSING: 1, the bundle and the reason" "$rc|$out" \
        "1|sbx-runc: bundle '$TMP/no-such-bundle': No such file or directory"
is "sbx-runc: nothing made under --root by the refusals" "$(ls -A "$TMP/runc" 2>/dev/null)" ""

# --- sbx-init is no command
INIT=$SBX_BUILD_ROOT/runtime/sandbox/sbx-init
out=$("$INIT" --help 2>&1); rc=$?
like "sbx-init run by hand: 127 and what it is" "$rc|$out" "^127\|sbx-init: the pid 1 of a persistent sandbox"

is "nothing left in the state dir" "$(ls -A "$ST/sandboxes" 2>/dev/null | grep -v '^\.' || true)" ""
done_testing

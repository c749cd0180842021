#!/bin/bash
# SPDX-License-Identifier: MIT
# The option tables are the parsers' (issue 17): every option the tables
# (and so --help, the man pages and the completion) list is accepted by its
# command's parser; the generated bash and zsh completion complete real
# command lines; the man pages render; `meson install` lays out sbx, sbx-init,
# the profiles, the man pages and the completion, and the installed sbx runs
# persistent sandboxes (it finds its sbx-init); a lone copied sbx says how to
# install. Cost: ~10 s.
. "$(dirname "$0")/lib.sh"
: "${SBX_BUILD_ROOT:?}"
GENDOC=$SBX_BUILD_ROOT/sbx-gendoc
export HOME=$TMP/home SBX_IMAGE_DIR=$TMP/images SBX_WORKSPACE_ROOT=$TMP/ws
mkdir -p "$HOME"
ST=(--state-dir "$TMP/state")

# --- every option of every table reaches its parser
# `sbx CMD --OPT [x] --help`: the parser takes --OPT (or rejects its value,
# naming it), then prints help; nothing runs. sbx run without a command
# stops after its options. A table option the parser does not know would
# print "bad option" / "unknown option" / "unknown flag".
opts=$("$GENDOC" options)
n_opts=$(wc -l <<<"$opts")
[ "$n_opts" -ge 150 ] && ok "sbx-gendoc lists $n_opts options" || not_ok "sbx-gendoc lists the options ($n_opts)"
bad=
while IFS=$'\t' read -r cmd opt arg _; do
        [ "$opt" = --help ] && continue
        val=(); [ "$arg" != - ] && val=(x)
        read -r -a words <<<"$cmd"
        case $cmd in
        run) args=(run "${ST[@]}" "$opt" "${val[@]}") ;;
        network|"docker network") args=("${words[@]}" ls "$opt" "${val[@]}" --help) ;;
        *) args=("${words[@]}" "$opt" "${val[@]}" --help) ;;
        esac
        out=$(timeout 20 "$SBX" "${args[@]}" </dev/null 2>&1)
        # sbx run's persistent-sandbox options go with --name (or --scope)
        [ "$cmd" = run ] && grep -q "^sbx run: $opt is for a persistent sandbox" <<<"$out" &&
                out=$(timeout 20 "$SBX" run "${ST[@]}" --name cli-docs-probe "$opt" "${val[@]}" </dev/null 2>&1)
        if grep -qiE "bad option|unknown option|unknown flag|unrecognized option|invalid option" <<<"$out"; then
                bad+="sbx ${args[*]}: $(head -1 <<<"$out")"$'\n'
        fi
done <<<"$opts"
is "every option in the tables is accepted by its command's parser" "$bad" ""
# ... and the check above sees a parser refusing an option
out=$("$SBX" rm --no-such-option 2>&1)
like "a refused option says 'bad option' (what the loop above looks for)" "$out" "bad option '--no-such-option'"
out=$("$SBX" docker ps --no-such-flag 2>&1)
like "docker: a refused flag says 'unknown flag'" "$out" "unknown flag: --no-such-flag"
is "nothing was created by the option walk" "$(ls -A "$TMP/state/sandboxes" 2>/dev/null | grep -v '^\.' || true)" ""
is "run options without --name are refused, saying they need --name (the walk retried those with --name)" \
        "$("$SBX" run "${ST[@]}" --label a=b -- true 2>&1)" \
        "sbx run: --label is for a persistent sandbox: give --name NAME or --scope SCOPE too (see 'sbx run --help')"

# --- --help is the table's
h=$("$SBX" rm --help)
like "sbx rm --help: both forms" "$h" $'usage: sbx rm \\[-f\\] NAME...\n       sbx rm \\[-f\\] --all'
like "sbx exec --help: -i, --interactive with its help" "$h$("$SBX" exec --help)" "-i, --interactive +pass stdin through"
like "docker create --help: the verb's own flags" "$("$SBX" docker create --help)" "--security-opt OPT"

# --- bash completion, generated
BASHC=$SBX_BUILD_ROOT/doc/sbx
complete_bash() {   # complete_bash WORD... (the last one is being completed)
        bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sbx; printf "%s\n" "${COMPREPLY[@]}"' \
                _ "$BASHC" "$@" 2>&1 | sort | tr '\n' ' '
}
# the first word must be a runnable sbx for the dynamic lists
mkdir -p "$TMP/bin"; ln -sf "$SBX" "$TMP/bin/sbx"; export PATH="$TMP/bin:$PATH"
is "bash: sbx <TAB> offers the commands" "$(complete_bash sbx ex)" "exec explain "
is "bash: sbx run --work<TAB>" "$(complete_bash sbx run --work)" \
        "--workdir --workspace --workspace-access --workspace-mode --workspace-root "
is "bash: sbx run --network <TAB> offers the modes" "$(complete_bash sbx run --network '')" "bridge container: none "
is "bash: sbx rootfs b<TAB>" "$(complete_bash sbx rootfs b)" "build "
is "bash: sbx rootfs build --<TAB> has its options" "$(complete_bash sbx rootfs build --pr)" "--print-mirror "
is "bash: sbx docker image i<TAB>" "$(complete_bash sbx docker image i)" "inspect "
is "bash: sbx docker ps --<TAB>" "$(complete_bash sbx docker ps --f)" "--filter --format "
"$SBX" create "${ST[@]}" --no-start boxa >/dev/null && "$SBX" create "${ST[@]}" --no-start boxb >/dev/null
# the sandbox list comes from `sbx ls -q` in the default state dir
XDG_RUNTIME_DIR=$TMP/xdg; mkdir -p -m 0700 "$XDG_RUNTIME_DIR"; export XDG_RUNTIME_DIR
"$SBX" create --no-start boxc >/dev/null
is "bash: sbx rm <TAB> offers the sandboxes" "$(complete_bash sbx rm '')" "boxc "
like "bash: after --, commands" "$(complete_bash sbx exec boxc -- ech)" "echo"
"$SBX" rm --all >/dev/null; "$SBX" rm "${ST[@]}" --all >/dev/null

# --- zsh completion: the dispatch, with _arguments and friends stubbed to print
if command -v zsh >/dev/null; then
        ZSHC=$SBX_BUILD_ROOT/doc/_sbx
        zsh -n "$ZSHC"; is "zsh: _sbx parses (zsh -n)" "$?" 0
        complete_zsh() {   # complete_zsh WORD...
                zsh -fc 'f=$1; shift; words=("$@"); CURRENT=$#
                         _arguments() { print -l -- "$@" }; _describe() { print -l -- ${(P)${@[-1]}} }
                         compadd() { print -l -- "$@" }
                         source $f' _ "$ZSHC" "$@" 2>&1
        }
        like "zsh: sbx run --<TAB>: run's specs" "$(complete_zsh sbx run --)" "\*--workdir=\[working directory inside"
        like "zsh: sbx <TAB>: the commands with their summaries" "$(complete_zsh sbx '')" "rm:remove a sandbox"
        like "zsh: sbx rootfs build --<TAB>" "$(complete_zsh sbx rootfs build --)" "\*--print-mirror\["
        like "zsh: sbx docker image inspect --<TAB>" "$(complete_zsh sbx docker image inspect --)" "\*--format=\["
        unlike "zsh: sbx rm --<TAB> is rm's, not run's" "$(complete_zsh sbx rm --)" "--workdir"
else
        skip "zsh completion: zsh is not installed (Debian package zsh)"
fi

# --- man pages render, without troff warnings
if command -v man >/dev/null && command -v groff >/dev/null; then
        for p in sbx sbx-run sbx-sandbox sbx-policy sbx-rootfs sbx-doctor sbx-network sbx-docker; do
                warn=$(groff -man -Tutf8 -ww -z "$SBX_BUILD_ROOT/doc/$p.1" 2>&1)
                is "man $p: no troff warning" "$warn" ""
        done
        like "man sbx-run: the --workdir option with its help" \
                "$(MANWIDTH=100 man -l "$SBX_BUILD_ROOT/doc/sbx-run.1" 2>/dev/null)" "-w, --workdir DIR"
        like "man sbx: every command and its page" "$(MANWIDTH=100 man -l "$SBX_BUILD_ROOT/doc/sbx.1" 2>/dev/null)" \
                "rm +remove a sandbox \(keeps its workspace\) \(sbx-sandbox\(1\)\)"
else
        skip "man pages: man/groff are not installed (Debian packages man-db, groff-base)"
fi

# --- install: meson install into a DESTDIR, then the installed sbx
D=$TMP/destdir
if out=$(meson install -C "$SBX_BUILD_ROOT" --no-rebuild --destdir "$D" 2>&1); then
        ok "meson install --destdir"
        prefix=$(meson introspect "$SBX_BUILD_ROOT" --buildoptions | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["prefix"], o["bindir"], o["libexecdir"], o["datadir"], o["mandir"])')
        read -r P bindir libexecdir datadir mandir <<<"$prefix"
        R=$D$P
        missing=
        for f in "$bindir/sbx" "$libexecdir/sbx/sbx-init" "$datadir/sbx/seccomp/default.json" \
                 "$mandir/man1/sbx.1" "$mandir/man1/sbx-run.1" "$mandir/man1/sbx-sandbox.1" \
                 "$mandir/man1/sbx-policy.1" "$mandir/man1/sbx-rootfs.1" "$mandir/man1/sbx-doctor.1" \
                 "$mandir/man1/sbx-network.1" \
                 "$mandir/man1/sbx-docker.1" "$datadir/bash-completion/completions/sbx" \
                 "$datadir/zsh/site-functions/_sbx"; do
                [ -f "$R/$f" ] || missing+="$f "
        done
        is "installed: sbx, sbx-init, the profiles, 8 man pages, bash and zsh completion" "$missing" ""
        is "installed: nothing named docker (no hijack)" "$(find "$D" -name 'docker*' | wc -l)" 0
        is "installed: sbx-gendoc and the test programs are not installed" \
                "$(find "$D" -name 'sbx-gendoc' -o -name 'sbx-probe' -o -name 'test-*' | wc -l)" 0
        # the installed tree is under DESTDIR, not at PREFIX: the installed sbx
        # finds sbx-init relative to itself (PREFIX/bin -> PREFIX/libexec/sbx)
        I=$R/$bindir/sbx
        id=$("$I" create "${ST[@]}" inst 2>&1); rc=$?
        is "the installed sbx: create (sbx-init found in the installed tree)" "$rc" 0
        is "the installed sbx: exec" "$("$I" exec "${ST[@]}" inst -- cat /proc/1/comm 2>&1)" sbx-init
        is "the installed sbx: rm" "$("$I" rm "${ST[@]}" -f inst 2>&1)" inst
        like "the installed sbx: man page from the installed tree" \
                "$(MANWIDTH=80 man -l "$R/$mandir/man1/sbx-sandbox.1" 2>/dev/null)" 'sbx rm \[-f\] --all'
        # a docker symlink, as README's Install section describes: argv[0] dispatch
        ln -s sbx "$R/$bindir/docker"
        like "a docker symlink to the installed sbx is the docker CLI" \
                "$("$R/$bindir/docker" version --format '{{.Client.Version}}' 2>&1)" '^[0-9]'
        rm "$R/$bindir/docker"
else
        not_ok "meson install --destdir"
        echo "$out" | sed 's/^/# /'
fi
# a lone copy of sbx (no sbx-init beside it, none installed at the prefix it
# names): the error says what to do. (The full sbx: $SBX is the front end,
# which execs it; a lone copy of that is escape-exec-front's.)
mkdir -p "$TMP/lone"; cp "$SBX_BUILD_ROOT/libexec/sbx" "$TMP/lone/sbx"
if [ ! -e "$(meson introspect "$SBX_BUILD_ROOT" --buildoptions | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["prefix"] + "/" + o["libexecdir"])')/sbx/sbx-init" ]; then
        out=$("$TMP/lone/sbx" create "${ST[@]}" lone 2>&1); rc=$?
        is "a lone sbx: create fails (125)" "$rc" 125
        like "... saying where it looked and how to install" "$out" \
                "sbx-init not found next to sbx \('$TMP/lone/sbx-init'\).*ninja -C build install"
        is "... and leaves no sandbox" "$("$SBX" ls "${ST[@]}" -q)" ""
else
        skip "a lone sbx: sbx-init is installed at the configured prefix, so a lone copy finds it"
fi
done_testing

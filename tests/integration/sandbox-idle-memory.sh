#!/bin/bash
# SPDX-License-Identifier: MIT
# An idle sandbox's init (issue 16 target 5, memory): sbx-init runs on its
# own stack in .bss and unmaps the stack and vDSO the kernel gave it, so
# only its binary stays mapped (and the page tables of that one corner);
# it still serves execs, forwards signals, stops and starts again. Its
# sealed copy (a memfd, CVE-2019-5736) holds only what the kernel's loader
# reads of sbx-init: the bytes before the end of its last segment, not the
# section headers, symbols and debug info behind it.
. "$(dirname "$0")/sandbox-lib.sh"

sbx_create idle >/dev/null
pid=$(field idle initPid)
if maps=$(cat "/proc/$pid/maps" 2>/dev/null) && [ -n "$maps" ]; then
        unlike "init: no [stack] mapping left" "$maps" '\[stack\]'
        unlike "init: no [vdso]/[vvar] mapping left" "$maps" '\[(vdso|vvar)'
        is "init: only its binary and its .bss are mapped (and vsyscall)" \
                "$(grep -vc -e sbx-init -e '\[vsyscall\]' -e ' 00:00 0 *$' <<<"$maps")" 0
        like "init: at most 12 kB of page tables" "$(grep VmPTE "/proc/$pid/status")" 'VmPTE:[[:space:]]+([0-9]|1[0-2]) kB'
else
        for _ in 1 2 3 4; do skip "init's maps are not readable here (non-dumpable, not root)"; done
fi
init_file=$SBX_BUILD_ROOT/runtime/sandbox/sbx-init
if [ -f "$init_file" ] && copy=$(stat -L -c %s "/proc/$pid/exe" 2>/dev/null) && readlink "/proc/$pid/exe" | grep -q '^/memfd:sbx-init'; then
        # the end of the program headers and of every segment's file part (readelf)
        want=0
        while read -r type off _ _ fsz _; do
                [[ $type =~ ^[A-Z_]+$ && $off == 0x* && $fsz == 0x* ]] || continue
                [ $((off + fsz)) -gt "$want" ] && want=$((off + fsz))
        done < <(LC_ALL=C readelf -lW "$init_file")
        phoff=$(LC_ALL=C readelf -hW "$init_file" | sed -n 's/.*Start of program headers: *\([0-9]*\).*/\1/p')
        phnum=$(LC_ALL=C readelf -hW "$init_file" | sed -n 's/.*Number of program headers: *\([0-9]*\).*/\1/p')
        [ $((phoff + phnum * 56)) -gt "$want" ] && want=$((phoff + phnum * 56))
        is "init's sealed copy ends with its last segment ($want of $(stat -c %s "$init_file") bytes)" "$copy" "$want"
        cmp -s -n "$copy" "/proc/$pid/exe" "$init_file" && ok "... and is those bytes of sbx-init" ||
                not_ok "... and is those bytes of sbx-init"
else
        for _ in 1 2; do skip "init's exe is not a readable sealed copy here (non-dumpable, not root, or vm.memfd_noexec)"; done
fi
is "exec still runs (exec service)" "$(sbx exec idle -- echo hi)" hi
sbx exec idle -- sh -c 'trap "echo got > /tmp/usr1" USR1; echo ready > /tmp/ready; while [ ! -s /tmp/usr1 ]; do sleep 0.05; done' & bg=$!
for _ in $(seq 100); do [ "$(sbx exec idle -- cat /tmp/ready 2>/dev/null)" = ready ] && break; sleep 0.05; done
kill -USR1 "$pid"
wait "$bg"
is "a signal from outside is forwarded to the sandbox's processes" "$(sbx exec idle -- cat /tmp/usr1)" got
# "at once": under 4 s, against init's 5 s grace. A loaded host (other jobs)
# can stall one stop past 4 s: up to 3 tries (stop, start again), the first
# one under 4 s counts; an init that waits out its grace fails all three.
for try in 1 2 3; do
        t0=$(date +%s%N)
        sbx stop idle >/dev/null
        ms=$(( ($(date +%s%N) - t0) / 1000000 ))
        [ "$ms" -lt 4000 ] || [ "$try" = 3 ] && break
        echo "# stop took $ms ms (try $try of 3): again"
        sbx start idle >/dev/null
done
is "stop: stopped" "$(field idle state)" stopped
[ "$ms" -lt 4000 ] && ok "... at once (init ended on SIGTERM, not after the grace; $ms ms)" ||
        not_ok "... at once (init ended on SIGTERM, not after the grace; $ms ms, try $try of 3)"
sbx start idle >/dev/null
is "start again: exec runs" "$(sbx exec idle -- echo again)" again
sbx rm -f idle >/dev/null
is "rm: nothing listed" "$(sbx ls -q)" ""
done_testing

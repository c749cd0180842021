#!/bin/bash
# SPDX-License-Identifier: MIT
# Load (issue 10): N concurrent `sbx run` loops for a bounded time, then: no
# failed run, and nothing leaked: sbx's own fds stay bounded, no mount, no
# process, no cgroup, no state dir left; memory flat (the peak RSS of sbx
# processes in the last quarter of the run is not above the first quarter's, and
# MemAvailable comes back). CI: 64 x 30 s. By hand: SBX_LOAD_SECONDS=300.
. "$(dirname "$0")/lib.sh"
N=${SBX_LOAD_N:-64}
SECS=${SBX_LOAD_SECONDS:-30}
marker="sbx-load-$$"
# the cgroups of our runs only (lib.sh own_cgroups): other jobs' come and go
own_cgroups_init
cg_count() { own_cgroups | wc -l; }
mem_avail() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }

"$SBX" run -- /bin/true   # warm caches
before_m=$(our_mounts)
before_cg=$(cg_count)
before_mem=$(mem_avail)
end=$(( $(date +%s) + SECS ))
mkdir "$TMP/w"
worker() {
        local i=$1 n=0 f=0 out
        local pause
        while [ "$(date +%s)" -lt "$end" ]; do
                # every 8th run lingers a second, so that the monitor sees live sbx processes
                pause=0.1; [ $(( (n + i) % 8 )) = 0 ] && pause=1
                out=$(timeout -k 5 60 "$SBX" run --ro-bind "$SBX_PROBE:/sbx-probe" -- /bin/sh -c "/sbx-probe fds | wc -l; sleep $pause; : $marker" 2>&1)
                if [ "$?" = 0 ] && [ "$out" = 3 ]; then n=$((n + 1)); else f=$((f + 1)); echo "$out" | head -3 >> "$TMP/w/err.$i"; fi
        done
        echo "$n $f" > "$TMP/w/res.$i"
}
for i in $(seq "$N"); do worker "$i" & done
# monitor: five times a second, the live sbx processes' fd counts and RSS
t0=$(date +%s)
: > "$TMP/mon"
while [ "$(date +%s)" -lt "$end" ]; do
        now=$(( $(date +%s) - t0 ))
        now=$(( $(date +%s) - t0 ))
        while read -r p rss args; do
                case "$args" in "$SBX run --ro-bind"*) ;; *) continue ;; esac
                fdl=(/proc/$p/fd/*)     # a glob, no fork: the runs are short
                [ -e "${fdl[0]}" ] && echo "$now ${#fdl[@]} $rss" >> "$TMP/mon"
        done < <(ps -C sbx -o pid=,rss=,args= 2>/dev/null)
        sleep 0.2
done
wait
runs=0; fails=0
for f in "$TMP"/w/res.*; do read -r n e < "$f"; runs=$((runs + n)); fails=$((fails + e)); done
echo "# $N concurrent for ${SECS}s: $runs runs ($(( runs / SECS )) per second), $fails failed"
is "load: no run failed" "$fails" 0
[ "$fails" = 0 ] || cat "$TMP"/w/err.* 2>/dev/null | sort | uniq -c | sort -rn | head -5 | sed 's/^/#   /'
like "load: runs happened" "$runs" '^[1-9]'
maxfd=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "$TMP/mon")
samples=$(wc -l < "$TMP/mon")
echo "# $samples samples of live sbx processes; most fds held by one sbx: $maxfd"
like "load: sbx's own fds stay bounded (at most 32 at any sample)" "$maxfd" '^([0-9]|[12][0-9]|3[0-2])$'
tenth=$(( SECS / 4 > 0 ? SECS / 4 : 1 ))   # a quarter
first=$(awk -v t=$tenth '$1 < t && $3 > m { m = $3 } END { print m + 0 }' "$TMP/mon")
last=$(awk -v t=$(( SECS - tenth )) '$1 >= t && $3 > m { m = $3 } END { print m + 0 }' "$TMP/mon")
echo "# peak RSS of an sbx process: first quarter ${first} kB, last quarter ${last} kB"
if [ "$first" -gt 0 ] && [ "$last" -gt 0 ]; then
        like "load: memory flat (last-quarter peak RSS <= first-quarter + 25%)" "$(( last <= first * 5 / 4 ))" 1
else
        skip "load: not enough RSS samples in the first and last quarter"
fi
sleep 1
after_mem=$(mem_avail)
echo "# MemAvailable: before ${before_mem} kB, after ${after_mem} kB"
# (MemAvailable is host-wide and other users' work moves it: reported, not asserted)
is "load: no sandbox process left" "$(pgrep -fc "$marker" || true)" 0
is "load: no sbx process left" "$(pgrep -fc "^$SBX run --ro-bind" || true)" 0
is "load: the host mount table is unchanged" "$(our_mounts)" "$before_m"
if [ -n "$cg_problem" ]; then
        skip "load: no cgroup left: uid $(id -u) gets none here ($cg_problem)"
else
        is "load: no cgroup left${cg_sub:+ (below $SBX_CGROUP_ROOT)}" "$(cg_count)" "$before_cg"
fi
is "load: no run directory left in the state dir" "$(leftovers)" ""
done_testing

#!/bin/bash
# SPDX-License-Identifier: MIT
# Red team round 14c (session 16): a hostile bundle against sbx-runc, each
# verdict beside runc's for the same bundle (runc's checkProcMount is the
# reference). What a mount may do to /proc:
# - a bind or tmpfs inside /proc (a volume the image or a neighbour fills)
#   replaced files the runtime itself reads once inside the container: a
#   startContainer hook read /proc/sys/kernel/cap_last_cap there, and a '5'
#   left CAP_SYS_ADMIN and the rest in its bounding set; an image's hook run
#   as uid 0 got them all (CapEff 000001fffeffffeb: host root). Refused now,
#   by name at parse time and by where the path leads in the child (an
#   image's symlink into /proc); the hook reads cap_last_cap before it
#   enters the container, and the bounding set is dropped up to 63.
# - /proc itself only a procfs (a new one, or a bind of one); inside it only
#   the files lxcfs emulates.
# Root only. ~5 s.
. "$(dirname "$0")/oci-lib.sh"
need_root
busybox_static >/dev/null || { echo "1..0 # SKIP no static busybox (busybox-static)"; exit 0; }
versus_runc esc16
# run RT BUNDLE ID -> $out (stdout+stderr), $st
runit() { local rt=$1 b=$2 id=$3; out=$(cd "$b" && rt_$rt run "$id" 2>&1 </dev/null); st=$?; }

# the image's startContainer hook reports its capabilities to /out
mkdir -p "$T/fake/kernel" "$T/hout"; chmod 777 "$T/hout"
echo 5 > "$T/fake/kernel/cap_last_cap"
printf '#!/bin/sh\ngrep -E "CapEff|CapBnd" /proc/self/status > /out/$1\n' > "$T/rootfs/hook.sh"
chmod 755 "$T/rootfs/hook.sh"
ln -s /proc/sys "$T/rootfs/psys"
echo 4242.00 1.00 > "$T/uptime"
hook() { # NAME DESTINATION-OF-THE-FAKE-DIR
        bundle "$1" "c['mounts'].append({'destination':'/out','type':'bind','source':'$T/hout','options':['rbind','rw']})
c['mounts'].append({'destination':'$2','type':'bind','source':'$T/fake/kernel','options':['rbind','rw']})
c['process']['noNewPrivileges']=False
c['hooks']={'startContainer':[{'path':'/hook.sh','args':['hook.sh','$1']}]}"
}

for rt in "${RUNTIMES[@]}"; do
        R="[$rt]"
        # --- the hook escalation: a fake kernel dir at /proc/sys/kernel
        b=$(hook hk-$rt /proc/sys/kernel)
        runit $rt "$b" hk
        [ "$st" != 0 ] && ok "$R proc-inside: a bind inside /proc (/proc/sys/kernel) fails create" ||
                not_ok "$R proc-inside: a bind inside /proc (/proc/sys/kernel) fails create (exit 0)"
        [ $rt = sbx ] && like "$R proc-inside: ... naming the mount and runc's rule" "$out" \
                "mounts\\[6\\]\\.destination: '/proc/sys/kernel' is inside /proc.*checkProcMount"
        is "$R proc-inside: ... the image's startContainer hook never ran (no capabilities reported)" \
                "$(cat "$T/hout/hk-$rt" 2>/dev/null)" ""
        b=$(hook hkok-$rt /fake)
        runit $rt "$b" hkok
        is "$R control: the same bundle with the dir outside /proc runs the hook, with the config's bounding set" \
                "$st:$(grep CapBnd "$T/hout/hkok-$rt" 2>&1)" $'0:CapBnd:\t00000000200004eb'

        # --- an image's symlink into /proc (/psys -> /proc/sys) as the place
        b=$(bundle sym-$rt "c['process']['args']=['cat','/proc/sys/kernel/cap_last_cap']
c['mounts'].append({'destination':'/psys/kernel','type':'bind','source':'$T/fake/kernel','options':['rbind']})")
        runit $rt "$b" sym
        like "$R proc-symlink: a bind at /psys/kernel (an image symlink to /proc/sys) fails create" "$st" '^[1-9]'
        unlike "$R proc-symlink: ... the container never reads the fake cap_last_cap" "$out" '^5$'
        [ $rt = sbx ] && like "$R proc-symlink: ... naming the mount and where it leads" "$out" \
                "bind '/psys/kernel'.*on the container's /proc"
        # a file system (not a bind) inside /proc: runc 1.1 checks binds
        # only and mounts it; sbx refuses every kind (by name and by place)
        for d in /proc/sys /psys/kernel; do
                b=$(bundle tmp-$rt "c['process']['args']=['true']
c['mounts'].append({'destination':'$d','type':'tmpfs','source':'tmpfs'})")
                runit $rt "$b" tmp
                if [ $rt = sbx ]; then
                        like "$R proc-inside: a tmpfs at $d fails create" "$st:$out" '^1:.*checkProcMount'
                else
                        echo "# runc's verdict on a tmpfs at $d: exit $st"
                fi
        done

        # --- /proc itself: no tmpfs, no bind of a dir that is no procfs
        b=$(bundle ptmp-$rt "c['mounts'].append({'destination':'/proc','type':'tmpfs','source':'tmpfs'})")
        runit $rt "$b" ptmp
        like "$R proc-root: a tmpfs at /proc fails create" "$st" '^[1-9]'
        b=$(bundle pdir-$rt "c['mounts'].append({'destination':'/proc','type':'bind','source':'$T/fake','options':['rbind']})")
        runit $rt "$b" pdir
        like "$R proc-root: a bind of a plain dir at /proc fails create" "$st" '^[1-9]'
        [ $rt = sbx ] && like "$R proc-root: ... naming it" "$out" "mounts\\[5\\]\\.destination: '$T/fake' cannot be mounted there: not a procfs"
        for d in /proc/./sys/kernel //proc/sys /tmp/../proc/sys; do
                b=$(bundle lex-$rt "c['mounts'].append({'destination':'$d','type':'bind','source':'$T/fake','options':['rbind']})")
                runit $rt "$b" lex
                like "$R proc-inside: a bind at '$d' fails create" "$st" '^[1-9]'
        done

        # --- allowed: a bind of a procfs at /proc, the files lxcfs emulates
        b=$(bundle pproc-$rt "c['process']['args']=['sh','-c','test -d /proc/1 && echo proc']
c['mounts'].append({'destination':'/proc','type':'bind','source':'/proc','options':['rbind']})")
        runit $rt "$b" pproc
        is "$R control: a bind of a procfs at /proc runs" "$st:$out" "0:proc"
        b=$(bundle lxcfs-$rt "c['process']['args']=['cat','/proc/uptime']
c['mounts'].append({'destination':'/proc/uptime','type':'bind','source':'$T/uptime','options':['bind','ro']})")
        runit $rt "$b" lxcfs
        is "$R control: a file bound at /proc/uptime (lxcfs) runs and is read" "$st:$out" "0:4242.00 1.00"
done

done_testing

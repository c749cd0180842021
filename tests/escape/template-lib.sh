# SPDX-License-Identifier: MIT
# Shared by escape-template.sh and escape-template-create.sh (sourced).
# in_ns PID: the number of processes in the mount namespace of PID, but PID.
in_ns() {
        local ns p n=0
        ns=$(readlink "/proc/$1/ns/mnt" 2>/dev/null) || { echo 0; return; }
        for p in /proc/[0-9]*; do
                [ "${p#/proc/}" = "$1" ] && continue
                [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && n=$((n + 1))
        done
        echo $n
}
# The head of a python3 probe run inside a sandbox: r(ret) of a libc call,
# t(f) of an os call, each printing OK or the errno's name.
PY_PROBE="import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def r(x): print('OK' if x >= 0 else errno.errorcode[ctypes.get_errno()])
def t(f):
    try: f(); print('OK')
    except OSError as e: print(errno.errorcode[e.errno])"

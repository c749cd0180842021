#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a process WITH every capability in a sandbox's user namespace could
do to a template (issue 16, runtime/launch/template.c): the workload never
has them (empty bounding set, no_new_privs, seccomp), so this builds the
same situation from outside, the way the launcher does: enter the
holder's user and mount namespaces (pidfd setns; as root its mount namespace
alone: it has no user namespace of its own), take the sandbox's host id, make a nested user + mount + pid namespace (the spawner writes its id
map from the template's namespace), and try from there. Prints one line per
attempt: NAME RESULT (an errno name, or OK).

    template-caps.py HOLDER_PID UID GID"""
import ctypes, errno, os, sys

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x20000, 0x10000000, 0x20000000
MS_RDONLY, MS_REMOUNT, MS_BIND, MNT_DETACH = 1, 32, 4096, 2
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]


def res(rc):
    return 'OK' if rc >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def mount(src, dst, fstype, flags):
    return res(libc.mount(src and src.encode(), dst.encode(), fstype and fstype.encode(), flags, None))


def tryfn(fn):
    try:
        fn()
        return 'OK'
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def attack():
    out = []
    out.append(('remount-root-rw', mount(None, '/', None, MS_REMOUNT | MS_BIND)))
    out.append(('remount-usr-rw', mount(None, '/usr', None, MS_REMOUNT | MS_BIND)))
    out.append(('umount-usr', res(libc.umount2(b'/usr', MNT_DETACH))))
    out.append(('umount-template-proc', res(libc.umount2(b'/proc', MNT_DETACH))))
    out.append(('write-root', tryfn(lambda: os.mkdir('/x'))))
    out.append(('write-etc', tryfn(lambda: open('/etc/passwd', 'a').close())))
    # control: the capabilities are real where nothing is locked
    os.makedirs('/tmp', exist_ok=True)
    out.append(('control-tmpfs-ro', mount('none', '/tmp', 'tmpfs', MS_RDONLY)))
    out.append(('control-remount-rw', mount(None, '/tmp', None, MS_REMOUNT)))
    # a sandbox's own procfs over the template's, unmounted again: what is
    # beneath is the holder's procfs, pid 1 the holder
    out.append(('mount-own-proc', mount('proc', '/proc', 'proc', 0)))
    out.append(('umount-own-proc', res(libc.umount2(b'/proc', MNT_DETACH))))
    out.append(('revealed-pid1', tryfn(lambda: open('/proc/1/comm').read()) + ':' +
                (open('/proc/1/comm').read().strip() if os.path.exists('/proc/1/comm') else '-')))
    out.append(('holder-environ', tryfn(lambda: open('/proc/1/environ').read())))
    out.append(('holder-mem', tryfn(lambda: open('/proc/1/mem', 'rb').close())))
    out.append(('holder-fds', tryfn(lambda: os.listdir('/proc/1/fd'))))
    out.append(('holder-root', tryfn(lambda: os.listdir('/proc/1/root/'))))
    out.append(('holder-ptrace', res(libc.ptrace(16, 1, None, None))))    # PTRACE_ATTACH
    return out


def main():
    holder, uid, gid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    hostproc = os.open('/proc', os.O_PATH | os.O_DIRECTORY)
    pidfd = os.pidfd_open(holder)
    # as root the holder has no user namespace of its own (sbx enters its
    # mount namespace itself for the clone): the mount namespace alone
    own_userns = os.readlink('/proc/%d/ns/user' % holder) != os.readlink('/proc/self/ns/user')
    if libc.setns(pidfd, (CLONE_NEWUSER if own_userns else 0) | CLONE_NEWNS) < 0:
        print('setns', res(-1))
        return 1
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    libc.prctl(4, 1, 0, 0, 0)      # PR_SET_DUMPABLE: our child's /proc files stay ours
    r, w = os.pipe()
    r2, w2 = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(w)
        os.close(r2)
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) < 0:
            os.write(w2, b'x')
            os._exit(1)
        os.write(w2, b'u')
        os.read(r, 1)              # maps written
        kid = os.fork()            # pid 1 of the new pid namespace
        if kid == 0:
            os.setresgid(0, 0, 0)
            os.setresuid(0, 0, 0)
            for name, result in attack():
                print(name, result, flush=True)
            os._exit(0)
        os.waitpid(kid, 0)
        os._exit(0)
    os.close(r)
    os.close(w2)
    if os.read(r2, 1) != b'u':
        print('unshare', 'failed')
        return 1
    for f, m in (('uid_map', '0 %d 1\n' % uid), ('setgroups', 'deny'), ('gid_map', '0 %d 1\n' % gid)):
        fd = os.open('%d/%s' % (pid, f), os.O_WRONLY, dir_fd=hostproc)
        os.write(fd, m.encode())
        os.close(fd)
    os.write(w, b'g')
    os.waitpid(pid, 0)
    return 0


sys.exit(main())

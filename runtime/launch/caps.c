/* SPDX-License-Identifier: MIT */
/* Why this order: the securebits (NOROOT, NO_SETUID_FIXUP, KEEP_CAPS off, all
 * locked) and the bounding set need CAP_SETPCAP, and the user switch needs
 * CAP_SETUID/CAP_SETGID, so they come first; then capset() clears what is
 * left. With SECBIT_NOROOT locked and an empty bounding set, exec of any
 * binary (even setuid-root or with file capabilities, which no_new_privs also
 * neuters) as uid 0 gains nothing. Raw syscalls: libcap's cap_set_proc may
 * allocate, and we run after clone. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"
#include "util/util.h"

int sbx_caps_prepare(sbx_plan *p, sbx_error *reterr) {
        char buf[16] = {};
        _cleanup_close_ int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);

        if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
                return sbx_error_set(reterr, fd < 0 ? -errno : -EIO, "capabilities: read /proc/sys/kernel/cap_last_cap");
        p->cap_last = atoi(buf);
        if (p->cap_last < 30 || p->cap_last > 63)
                return sbx_error_set(reterr, -EINVAL, "capabilities: odd cap_last_cap %d", p->cap_last);
        return 0;
}

int sbx_caps_setup_child(int cap_last, uint32_t uid, uint32_t gid, sbx_error *reterr) {
        struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
        struct __user_cap_data_struct data[2] = {};

        if (prctl(PR_SET_SECUREBITS,
                  SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                  SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                  SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "capabilities: lock securebits");
        for (int c = 0; c <= cap_last; c++)
                if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
                        return sbx_error_set(reterr, -errno, "capabilities: drop %d from the bounding set", c);
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
                return sbx_error_set(reterr, -errno, "capabilities: clear the ambient set");
        if (sys_setresgid(gid, gid, gid) < 0)
                return sbx_error_set(reterr, -errno, "user: setresgid(%u)", gid);
        if (sys_setresuid(uid, uid, uid) < 0)
                return sbx_error_set(reterr, -errno, "user: setresuid(%u)", uid);
        if (syscall(SYS_capset, &hdr, data) < 0)
                return sbx_error_set(reterr, -errno, "capabilities: clear permitted/effective/inheritable");
        return 0;
}

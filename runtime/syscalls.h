/* SPDX-License-Identifier: MIT */
/* Raw wrappers for calls glibc 2.36 lacks or wraps in ways unsafe after a raw
 * clone3 (setxid broadcast). All async-signal-safe. */
#pragma once

#include <linux/openat2.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int sys_openat2(int dirfd, const char *path, unsigned long long flags,
                              unsigned long long resolve) {
        struct open_how how = { .flags = flags, .resolve = resolve };
        return (int) syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

static inline long sys_clone3(struct clone_args *args) {
        return syscall(SYS_clone3, args, sizeof(*args));
}

static inline int sys_pivot_root(const char *new_root, const char *put_old) {
        return (int) syscall(SYS_pivot_root, new_root, put_old);
}

static inline int sys_setresuid(uid_t r, uid_t e, uid_t s) {
        return (int) syscall(SYS_setresuid, r, e, s);
}

static inline int sys_setresgid(gid_t r, gid_t e, gid_t s) {
        return (int) syscall(SYS_setresgid, r, e, s);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig) {
        return (int) syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

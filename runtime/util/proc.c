/* SPDX-License-Identifier: MIT */
/* Facts about host processes from /proc, shared by the sandbox records and
 * the network's owner checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

int sbx_proc_start_time(pid_t pid, uint64_t *ret) {
        char path[64], buf[1024], *p;
        _cleanup_close_ int fd = -EBADF;
        ssize_t n;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, sizeof(buf) - 1);
        if (n <= 0)
                return -EIO;
        buf[n] = '\0';
        p = strrchr(buf, ')');
        if (!p || p[1] != ' ')
                return -EIO;
        p += 2;
        /* Field 3 is the state: a zombie is dead for our purposes. */
        if (*p == 'Z' || *p == 'X')
                return -ESRCH;
        /* Field 22 (starttime) is the 20th after the state. */
        for (int i = 0; i < 19; i++) {
                p = strchr(p, ' ');
                if (!p)
                        return -EIO;
                p++;
        }
        *ret = strtoull(p, NULL, 10);
        return 0;
}

int sbx_proc_pidfd(pid_t pid, uint64_t start_time) {
        uint64_t st;
        int fd;

        if (pid <= 0)
                return -ESRCH;
        fd = (int) syscall(SYS_pidfd_open, pid, 0);
        if (fd < 0)
                return -ESRCH;
        /* Checked after the pidfd exists: if it matches now, the pidfd is
         * the recorded process and stays so (a pidfd never moves to a new
         * process with the same number). */
        if (sbx_proc_start_time(pid, &st) < 0 || st != start_time) {
                close(fd);
                return -ESRCH;
        }
        return fd;
}

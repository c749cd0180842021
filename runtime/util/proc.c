/* SPDX-License-Identifier: MIT */
/* Facts about host processes from /proc, shared by the sandbox records and
 * the network's owner checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/prctl.h>
#include <unistd.h>

#include "util.h"

/* /proc/PID/stat (pid 0: self) into BUF; *RET_STATE: field 3, the state,
 * after the comm (which may hold spaces and parentheses). */
static int read_stat(pid_t pid, char *buf, size_t len, char **ret_state) {
        char path[64], *p;
        _cleanup_close_ int fd = -EBADF;
        ssize_t n;

        if (pid > 0)
                snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        else
                snprintf(path, sizeof(path), "/proc/self/stat");
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, len - 1);
        if (n <= 0)
                return -EIO;
        buf[n] = '\0';
        p = strrchr(buf, ')');
        if (!p || p[1] != ' ')
                return -EIO;
        *ret_state = p + 2;
        return 0;
}

int sbx_proc_start_time(pid_t pid, uint64_t *ret) {
        char buf[1024], *p;
        int r = pid > 0 ? read_stat(pid, buf, sizeof(buf), &p) : -ENOENT;

        if (r < 0)
                return r;
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

int sbx_proc_zombie_status(pid_t pid, uint64_t start_time) {
        char buf[1024], *p;
        uint64_t st = 0;
        int r = pid > 0 ? read_stat(pid, buf, sizeof(buf), &p) : -ENOENT;

        if (r < 0)
                return r;
        if (*p != 'Z')
                return -ESRCH;
        /* starttime (22) is the 19th field after the state (3), exit_code
         * (52) the 49th */
        for (int i = 1; i <= 49; i++) {
                p = strchr(p, ' ');
                if (!p)
                        return -EIO;
                p++;
                if (i == 19)
                        st = strtoull(p, NULL, 10);
        }
        if (st != start_time)
                return -ESRCH;
        /* The kernel prints exit_code only to a reader that may ptrace the
         * task (else "0"): a rootless caller may not, once its init is a
         * zombie. The same check guards /proc/PID/cwd, which a zombie no
         * longer has: ENOENT when we may read, EACCES when we may not. */
        {
                char cwd[64], target[8];
                snprintf(cwd, sizeof(cwd), "/proc/%d/cwd", (int) pid);
                if (readlink(cwd, target, sizeof(target)) < 0 && (errno == EACCES || errno == EPERM))
                        return -EACCES;
        }
        return (int) strtol(p, NULL, 10);
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

/* Fields N.. of /proc/self/stat (1-based, N > 3) as numbers into v. */
static int self_stat_fields(int first, unsigned long *v, int n) {
        char buf[4096], *p;
        int r = read_stat(0, buf, sizeof(buf), &p);

        if (r < 0)
                return r;
        p--;                                    /* " S ...": field 3 next */
        for (int f = 3; f < first; f++)
                if (!(p = strchr(p + 1, ' ')))
                        return -EIO;
        for (int i = 0; i < n; i++) {
                char *end;
                v[i] = strtoul(p + 1, &end, 10);
                if (end == p + 1)
                        return -EIO;
                p = end;
        }
        return 0;
}

int sbx_proc_set_title(const char *title) {
        static char buf[128];   /* the new argument range; never freed */
        unsigned long code[3], data[7];
        size_t n = strnlen(title, sizeof(buf) - 2);
        unsigned long a, e;
        int r;

        memset(buf, 0, sizeof(buf));
        memcpy(buf, title, n);
        a = (unsigned long) buf;
        e = a + n + 1;                          /* ends with its NUL: nothing read past it */
        /* 26-28 start_code end_code start_stack; 45-51 start_data end_data
         * start_brk arg_start arg_end env_start env_end */
        r = self_stat_fields(26, code, 3);
        if (r == 0)
                r = self_stat_fields(45, data, 7);
        if (r == 0) {
                struct prctl_mm_map m = {
                        .start_code = code[0], .end_code = code[1], .start_stack = code[2],
                        .start_data = data[0], .end_data = data[1], .start_brk = data[2],
                        .brk = (unsigned long) syscall(SYS_brk, 0),
                        .arg_start = a, .arg_end = e, .env_start = e, .env_end = e,
                        .exe_fd = (uint32_t) -1,
                };
                if (prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long) &m, sizeof(m), 0) == 0)
                        return 0;
        }
        /* one range at a time (buf lies below the stack's strings: start <= end at every step) */
        if (prctl(PR_SET_MM, PR_SET_MM_ARG_START, a, 0, 0) < 0 || prctl(PR_SET_MM, PR_SET_MM_ARG_END, e, 0, 0) < 0 ||
            prctl(PR_SET_MM, PR_SET_MM_ENV_START, e, 0, 0) < 0 || prctl(PR_SET_MM, PR_SET_MM_ENV_END, e, 0, 0) < 0)
                return -errno;
        return 0;
}

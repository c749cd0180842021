/* SPDX-License-Identifier: MIT */
/* See tool-exec.h. The launcher is single-threaded, so fork() here is plain. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int sbx_tool_find(const char *tool, char *ret_path, size_t len) {
        static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                snprintf(ret_path, len, "%s/%s", dirs[i], tool);
                if (access(ret_path, X_OK) == 0)
                        return 0;
        }
        return -ENOENT;
}

static void tool_child(const char *path, const char *const *argv, int in_fd, int err_fd) {
        static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };
        int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
        sigset_t none;

        /* The launcher blocks the signals it forwards; the tool (pasta lives on
         * as a daemon) must start with a clean mask and default SIGPIPE. */
        sigemptyset(&none);
        (void) sigprocmask(SIG_SETMASK, &none, NULL);
        (void) signal(SIGPIPE, SIG_DFL);

        if (null_fd < 0 || dup2(in_fd >= 0 ? in_fd : null_fd, 0) < 0 || dup2(null_fd, 1) < 0 ||
            dup2(err_fd, 2) < 0)
                _exit(126);
        execve(path, (char *const *) argv, envp);
        _exit(127);
}

static long now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void trim(char *s) {
        size_t n = strlen(s);

        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
                s[--n] = '\0';
        for (char *p = s; *p; p++)
                if (*p == '\n')
                        *p = ' ';
}

int sbx_tool_run(const char *const *argv, const char *input, unsigned timeout_ms,
                 char *errbuf, size_t errlen, sbx_error *reterr) {
        _cleanup_close_ int in_r = -EBADF, in_w = -EBADF, err_r = -EBADF, err_w = -EBADF;
        _cleanup_close_ int pidfd = -EBADF;
        char path[64];
        size_t used = 0;
        long deadline;
        int p[2], status;
        pid_t pid;

        errbuf[0] = '\0';
        if (sbx_tool_find(argv[0], path, sizeof(path)) < 0)
                return sbx_error_set(reterr, -ENOENT, "'%s' not found in /usr/sbin, /usr/bin, /sbin, /bin",
                                     argv[0]);
        if (input) {
                if (pipe2(p, O_CLOEXEC) < 0)
                        return sbx_error_set(reterr, negative_errno(), "pipe");
                in_r = p[0], in_w = p[1];
        }
        if (pipe2(p, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, negative_errno(), "pipe");
        err_r = p[0], err_w = p[1];

        pid = fork();
        if (pid < 0)
                return sbx_error_set(reterr, negative_errno(), "fork for '%s'", argv[0]);
        if (pid == 0)
                tool_child(path, argv, in_r, err_w);
        pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
        if (pidfd < 0) {
                int e = negative_errno();
                kill(pid, SIGKILL);
                (void) waitpid(pid, NULL, 0);
                return sbx_error_set(reterr, e, "pidfd_open for '%s'", argv[0]);
        }
        closep(&in_r);
        closep(&err_w);
        if (input) {
                /* Our inputs are a few hundred bytes, far below the pipe size. */
                size_t n = strlen(input);
                if (write(in_w, input, n) != (ssize_t) n) {
                        kill(pid, SIGKILL);
                        (void) waitpid(pid, NULL, 0);
                        return sbx_error_set(reterr, -EIO, "write input to '%s'", argv[0]);
                }
                closep(&in_w);
        }
        (void) fcntl(err_r, F_SETFL, O_NONBLOCK);
        deadline = now_ms() + timeout_ms;
        for (bool exited = false, eof = false; !exited;) {
                struct pollfd pfd[2] = { { pidfd, POLLIN, 0 }, { err_r, POLLIN, 0 } };
                long left = deadline - now_ms();
                char chunk[512];
                ssize_t n;

                if (left <= 0) {
                        kill(pid, SIGKILL);
                        (void) waitpid(pid, NULL, 0);
                        return sbx_error_set(reterr, -ETIMEDOUT, "'%s' did not finish in %u ms",
                                             argv[0], timeout_ms);
                }
                if (poll(pfd, eof ? 1 : 2, (int) left) < 0 && errno != EINTR)
                        return sbx_error_set(reterr, negative_errno(), "poll on '%s'", argv[0]);
                exited = pfd[0].revents & POLLIN;
                /* A daemonizing tool (pasta) may hand stderr on to its daemon: once
                 * the process we started has exited, take what is there and stop. */
                while (!eof && (n = read(err_r, chunk, sizeof(chunk))) >= 0) {
                        if (n == 0) {
                                eof = true;
                                break;
                        }
                        if (used + 1 < errlen) {
                                size_t c = (size_t) n < errlen - 1 - used ? (size_t) n : errlen - 1 - used;
                                memcpy(errbuf + used, chunk, c);
                                used += c;
                                errbuf[used] = '\0';
                        }
                }
        }
        if (waitpid(pid, &status, 0) != pid)
                return sbx_error_set(reterr, negative_errno(), "wait for '%s'", argv[0]);
        trim(errbuf);
        if (WIFSIGNALED(status))
                return 128 + WTERMSIG(status);
        return WEXITSTATUS(status);
}

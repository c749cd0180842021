/* SPDX-License-Identifier: MIT */
/* Doing something inside a sandbox's network namespace from outside it
 * (issue 18): a forked child enters the namespaces of the sandbox's pid (its
 * user namespace first when we are not root: only from there may an
 * unprivileged user enter the network namespace it owns; it then holds every
 * capability in it), and either makes sockets there, handed back over a
 * socketpair (SCM_RIGHTS), or runs a host tool there with CAP_NET_ADMIN as an
 * ambient capability (nft). The caller never changes namespace itself. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net.h"
#include "util/util.h"

/* In the child: the namespaces of pid, and CAP_NET_ADMIN kept across exec. */
static int enter(pid_t pid) {
        char path[64];
        int fd, k = 0;

        if (geteuid() != 0) {
                snprintf(path, sizeof(path), "/proc/%d/ns/user", (int) pid);
                fd = open(path, O_RDONLY | O_CLOEXEC);
                if (fd < 0 || setns(fd, CLONE_NEWUSER) < 0)
                        return -errno;
                close(fd);
        }
        snprintf(path, sizeof(path), "/proc/%d/ns/net", (int) pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
                return -errno;
        close(fd);
        if (geteuid() != 0) {
                struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
                struct __user_cap_data_struct d[2] = {};

                if (syscall(SYS_capget, &h, d) < 0)
                        return -errno;
                d[0].inheritable |= 1u << CAP_NET_ADMIN;
                if (syscall(SYS_capset, &h, d) < 0 ||
                    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) < 0)
                        k = -errno;
        }
        return k;
}

int sbx_ns_run(pid_t pid, int (*fn)(int sock, void *userdata), void *userdata, int *fds, size_t n_fds,
               sbx_error *reterr) {
        int sv[2], status, k;
        char msg[SBX_ERROR_MSG_MAX];
        int got_fds[SBX_FDS_MAX];
        size_t got = 0;
        ssize_t n;
        pid_t child;

        if (n_fds > SBX_FDS_MAX)
                return sbx_error_set(reterr, -EINVAL, "too many fds");
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return sbx_error_set(reterr, negative_errno(), "socketpair");
        child = fork();
        if (child < 0) {
                k = negative_errno();
                close(sv[0]);
                close(sv[1]);
                return sbx_error_set(reterr, k, "fork");
        }
        if (child == 0) {
                close(sv[0]);
                k = enter(pid);
                if (k < 0) {
                        snprintf(msg, sizeof(msg), "enter the namespaces of process %d: %s", (int) pid, strerror(-k));
                        (void) !send(sv[1], msg, strlen(msg) + 1, MSG_NOSIGNAL);
                        _exit(1);
                }
                _exit(fn(sv[1], userdata) < 0 ? 1 : 0);
        }
        close(sv[1]);
        msg[0] = '\0';
        n = sbx_recv_fds(sv[0], msg, sizeof(msg), 0, got_fds, n_fds, &got);
        close(sv[0]);
        (void) waitpid(child, &status, 0);
        if (n > 0 && got == n_fds && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                for (size_t i = 0; i < n_fds; i++)     /* (fds may be NULL with none) */
                        fds[i] = got_fds[i];
                return 0;
        }
        for (size_t i = 0; i < got; i++)
                close(got_fds[i]);
        msg[sizeof(msg) - 1] = '\0';
        return sbx_error_set(reterr, -EIO, "%s", msg[0] ? msg : "the helper in the sandbox's namespaces failed");
}

/* In the child: pass fds (or an error text) back. */
int sbx_ns_reply(int sock, const int *fds, size_t n_fds, const char *error) {
        ssize_t n = error ? sbx_send_fds(sock, error, strlen(error) + 1, NULL, 0) : sbx_send_fds(sock, "", 1, fds, n_fds);

        return n < 0 ? (int) n : (error ? -EIO : 0);
}

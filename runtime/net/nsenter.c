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
        struct iovec iov = { .iov_base = msg, .iov_len = sizeof(msg) };
        union {
                char buf[CMSG_SPACE(sizeof(int) * 8)];
                struct cmsghdr align;
        } u = {};
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
        struct cmsghdr *c;
        ssize_t n;
        pid_t child;

        if (n_fds > 8)
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
        n = recvmsg(sv[0], &mh, MSG_CMSG_CLOEXEC);
        close(sv[0]);
        (void) waitpid(child, &status, 0);
        c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
        if (c && c->cmsg_type == SCM_RIGHTS) {
                size_t got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                memcpy(fds, CMSG_DATA(c), sizeof(int) * (got < n_fds ? got : n_fds));
                if (got == n_fds && WIFEXITED(status) && WEXITSTATUS(status) == 0)
                        return 0;
                for (size_t i = 0; i < got; i++)
                        close(((int *) CMSG_DATA(c))[i]);
        } else if (n > 0 && n_fds == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        msg[sizeof(msg) - 1] = '\0';
        return sbx_error_set(reterr, -EIO, "%s", msg[0] ? msg : "the helper in the sandbox's namespaces failed");
}

/* In the child: pass fds (or an error text) back. */
int sbx_ns_reply(int sock, const int *fds, size_t n_fds, const char *error) {
        union {
                char buf[CMSG_SPACE(sizeof(int) * 8)];
                struct cmsghdr align;
        } u = {};
        char ok[] = "";
        struct iovec iov = { .iov_base = (void *) (error ?: ok), .iov_len = error ? strlen(error) + 1 : 1 };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
        struct cmsghdr *c;

        if (!error && n_fds) {
                mh.msg_control = u.buf;
                mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
                c = CMSG_FIRSTHDR(&mh);
                c->cmsg_level = SOL_SOCKET;
                c->cmsg_type = SCM_RIGHTS;
                c->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
                memcpy(CMSG_DATA(c), fds, sizeof(int) * n_fds);
        }
        return sendmsg(sock, &mh, MSG_NOSIGNAL) < 0 ? -errno : (error ? -EIO : 0);
}

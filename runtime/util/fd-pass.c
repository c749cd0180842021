/* SPDX-License-Identifier: MIT */
/* Passing file descriptors over an AF_UNIX socket (SCM_RIGHTS): one place
 * for the control-message arithmetic every sender and receiver shares. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "util/util.h"

ssize_t sbx_send_fds(int sock, const void *data, size_t len, const int *fds, size_t n_fds) {
        union {
                struct cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int) * SBX_FDS_MAX)];
        } ctl;
        struct iovec iov = { .iov_base = (void *) data, .iov_len = len };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        if (n_fds > SBX_FDS_MAX)
                return -EINVAL;
        if (n_fds > 0) {
                memset(&ctl, 0, sizeof(ctl));
                mh.msg_control = ctl.buf;
                mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
                ctl.h.cmsg_level = SOL_SOCKET;
                ctl.h.cmsg_type = SCM_RIGHTS;
                ctl.h.cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
                memcpy(CMSG_DATA(&ctl.h), fds, sizeof(int) * n_fds);
        }
        do
                n = sendmsg(sock, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        return n < 0 ? -errno : n;
}

ssize_t sbx_recv_fds(int sock, void *data, size_t len, int flags, int *ret_fds, size_t max_fds, size_t *ret_n) {
        union {
                struct cmsghdr h;
                char buf[CMSG_SPACE(sizeof(int) * SBX_FDS_MAX)];
        } ctl;
        struct iovec iov = { .iov_base = data, .iov_len = len };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
        size_t got = 0;
        ssize_t n;

        if (max_fds > SBX_FDS_MAX)
                return -EINVAL;
        for (size_t i = 0; i < max_fds; i++)
                ret_fds[i] = -EBADF;
        n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
        if (n < 0)
                return -errno;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
                size_t k;

                if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                        continue;
                k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < k; i++) {
                        int fd;

                        memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                        if (got < max_fds)
                                ret_fds[got++] = fd;
                        else
                                close(fd);
                }
        }
        if (ret_n)
                *ret_n = got;
        if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
                for (size_t i = 0; i < got; i++) {
                        close(ret_fds[i]);
                        ret_fds[i] = -EBADF;
                }
                if (ret_n)
                        *ret_n = 0;
                return -EPROTO;
        }
        return n;
}

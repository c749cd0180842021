/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "launch.h"

int sbx_sync_pair(int ret_fds[2], sbx_error *reterr) {
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ret_fds) < 0)
                return sbx_error_set(reterr, -errno, "sync: socketpair");
        return 0;
}

int sbx_sync_open(int *ret_parent, int *ret_child, sbx_error *reterr) {
        int fds[2], r = sbx_sync_pair(fds, reterr);

        if (r < 0)
                return r;
        *ret_parent = fds[0];
        *ret_child = fds[1];
        return 0;
}

static int send_msg(int fd, const sbx_sync_msg *m, int pass_fd) {
        union {
                char buf[CMSG_SPACE(sizeof(int))];
                struct cmsghdr align;
        } u;
        struct iovec iov = { .iov_base = (void *) m, .iov_len = sizeof(*m) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        if (pass_fd >= 0) {
                struct cmsghdr *c;
                memset(&u, 0, sizeof(u));
                mh.msg_control = u.buf;
                mh.msg_controllen = sizeof(u.buf);
                c = CMSG_FIRSTHDR(&mh);
                c->cmsg_level = SOL_SOCKET;
                c->cmsg_type = SCM_RIGHTS;
                c->cmsg_len = CMSG_LEN(sizeof(int));
                memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
        }
        do
                n = sendmsg(fd, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        return n == sizeof(*m) ? 0 : -EIO;
}

bool sbx_sync_peer_gone(int fd) {
        char c;

        return poll(&(struct pollfd) { .fd = fd, .events = POLLIN }, 1, 0) > 0 &&
               recv(fd, &c, sizeof(c), MSG_PEEK | MSG_DONTWAIT) == 0;
}

int sbx_sync_send(int fd, uint32_t seq, uint32_t type, int status, const sbx_error *e) {
        sbx_sync_msg m;

        memset(&m, 0, sizeof(m));
        m.seq = seq;
        m.type = type;
        m.status = status;
        if (e)
                m.error = *e;
        return send_msg(fd, &m, -1);
}

int sbx_sync_send_fd(int fd, uint32_t seq, uint32_t type, int pass_fd) {
        sbx_sync_msg m;

        memset(&m, 0, sizeof(m));
        m.seq = seq;
        m.type = type;
        return send_msg(fd, &m, pass_fd);
}

int sbx_sync_recv_fd(int fd, int timeout_ms, sbx_sync_msg *ret, int *ret_fd) {
        union {
                char buf[CMSG_SPACE(sizeof(int))];
                struct cmsghdr align;
        } u;
        struct iovec iov = { .iov_base = ret, .iov_len = sizeof(*ret) };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        struct cmsghdr *c;
        ssize_t n;
        int r, passed = -EBADF;

        do
                r = poll(&pfd, 1, timeout_ms);
        while (r < 0 && errno == EINTR);
        if (r < 0)
                return -errno;
        if (r == 0)
                return -ETIMEDOUT;
        /* A peer that exits with our record unread in its queue makes the
         * first recv fail with ECONNRESET (and clears it): what it sent us
         * before is still queued, so read again. */
        for (int reset = 0;;) {
                n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | (timeout_ms == 0 ? MSG_DONTWAIT : 0));
                if (n >= 0 || (errno != EINTR && !(errno == ECONNRESET && reset++ == 0)))
                        break;
        }
        if (n < 0)
                return errno == ECONNRESET ? -EPIPE : errno == EAGAIN ? -ETIMEDOUT : -errno;
        for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
                    c->cmsg_len == CMSG_LEN(sizeof(int)))
                        memcpy(&passed, CMSG_DATA(c), sizeof(int));
        if (ret_fd)
                *ret_fd = passed;
        else if (passed >= 0)
                close(passed);
        if (n == 0)
                return -EPIPE;
        if (n != sizeof(*ret) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
                return -EPROTO;
        ret->error.msg[sizeof(ret->error.msg) - 1] = '\0';
        return 0;
}

int sbx_sync_recv(int fd, int timeout_ms, sbx_sync_msg *ret) {
        return sbx_sync_recv_fd(fd, timeout_ms, ret, NULL);
}

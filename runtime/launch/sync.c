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
        ssize_t n = sbx_send_fds(fd, m, sizeof(*m), &pass_fd, pass_fd >= 0);

        if (n < 0)
                return (int) n;
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
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;
        int r, passed;

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
                n = sbx_recv_fds(fd, ret, sizeof(*ret), timeout_ms == 0 ? MSG_DONTWAIT : 0, &passed, 1, NULL);
                if (n >= 0 || (n != -EINTR && !(n == -ECONNRESET && reset++ == 0)))
                        break;
        }
        if (n < 0)
                return n == -ECONNRESET ? -EPIPE : n == -EAGAIN ? -ETIMEDOUT : (int) n;
        if (ret_fd)
                *ret_fd = passed;
        else if (passed >= 0)
                close(passed);
        if (n == 0)
                return -EPIPE;
        if (n != sizeof(*ret))
                return -EPROTO;
        ret->error.msg[sizeof(ret->error.msg) - 1] = '\0';
        return 0;
}

int sbx_sync_recv(int fd, int timeout_ms, sbx_sync_msg *ret) {
        return sbx_sync_recv_fd(fd, timeout_ms, ret, NULL);
}

/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "sync.h"

int sbx_sync_pair(int ret_fds[2], sbx_error *reterr) {
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ret_fds) < 0)
                return sbx_error_set(reterr, -errno, "sync: socketpair");
        return 0;
}

int sbx_sync_send(int fd, uint32_t seq, uint32_t type, int status, const sbx_error *e) {
        sbx_sync_msg m;
        ssize_t n;

        memset(&m, 0, sizeof(m));
        m.seq = seq;
        m.type = type;
        m.status = status;
        if (e)
                m.error = *e;
        do
                n = send(fd, &m, sizeof(m), MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        return n == sizeof(m) ? 0 : -EIO;
}

int sbx_sync_recv(int fd, int timeout_ms, sbx_sync_msg *ret) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;
        int r;

        do
                r = poll(&pfd, 1, timeout_ms);
        while (r < 0 && errno == EINTR);
        if (r < 0)
                return -errno;
        if (r == 0)
                return -ETIMEDOUT;
        do
                n = recv(fd, ret, sizeof(*ret), 0);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return errno == ECONNRESET ? -EPIPE : -errno;
        if (n == 0)
                return -EPIPE;
        if (n != sizeof(*ret))
                return -EPROTO;
        ret->error.msg[sizeof(ret->error.msg) - 1] = '\0';
        return 0;
}

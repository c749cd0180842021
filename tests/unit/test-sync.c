/* SPDX-License-Identifier: MIT */
/* Unit tests for the parent<->child sync records (runtime/launch/sync.c) and
 * the fd passing under them (runtime/util/fd-pass.c). */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch/launch.h"
#include "unit.h"

/* A child that fails before reading #1 exits with our record unread in its
 * queue: the first recv then sees ECONNRESET, and its error record must
 * still arrive (it names the failing step for the user). */
START_TEST(test_sync_error_record_survives_unread_peer_queue) {
        int fds[2];
        sbx_sync_msg m;
        sbx_error e = { .code = -ENOENT };
        pid_t pid;
        int r;

        ck_assert_int_eq(sbx_sync_pair(fds, NULL), 0);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                close(fds[0]);
                /* Wait until the parent's record is queued (but leave it
                 * unread), else a fast child exits first and the parent's
                 * send sees EPIPE (seen under ASan). */
                (void) poll(&(struct pollfd) { .fd = fds[1], .events = POLLIN }, 1, 5000);
                strcpy(e.msg, "mount: open new root '/x'");
                sbx_sync_send(fds[1], 3, SBX_SYNC_ERROR, 125, &e);
                _exit(125);
        }
        close(fds[1]);
        /* The child may already be gone (-EPIPE) or not (0): the launcher
         * handles both, and either way its error record must still be read. */
        r = sbx_sync_send(fds[0], 1, SBX_SYNC_MAPS_WRITTEN, 0, NULL);
        ck_assert_msg(r == 0 || r == -EPIPE, "send #1: %d", r);
        waitpid(pid, NULL, 0);
        ck_assert_int_eq(sbx_sync_recv(fds[0], 1000, &m), 0);
        ck_assert_uint_eq(m.type, SBX_SYNC_ERROR);
        ck_assert_int_eq(m.status, 125);
        ck_assert_int_eq(m.error.code, -ENOENT);
        ck_assert_str_eq(m.error.msg, "mount: open new root '/x'");
        ck_assert_int_eq(sbx_sync_recv(fds[0], 1000, &m), -EPIPE);
        close(fds[0]);
}
END_TEST

START_TEST(test_sync_passes_an_fd_and_times_out) {
        int fds[2], passed = -1, devnull;
        sbx_sync_msg m;
        struct stat a, b;

        ck_assert_int_eq(sbx_sync_pair(fds, NULL), 0);
        ck_assert_int_eq(sbx_sync_recv(fds[0], 0, &m), -ETIMEDOUT);
        ck_assert_int_eq(sbx_sync_recv(fds[0], 10, &m), -ETIMEDOUT);
        devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
        ck_assert_int_eq(sbx_sync_send_fd(fds[1], 2, SBX_SYNC_PTY, devnull), 0);
        ck_assert_int_eq(sbx_sync_recv_fd(fds[0], 1000, &m, &passed), 0);
        ck_assert_uint_eq(m.type, SBX_SYNC_PTY);
        ck_assert_int_ge(passed, 0);
        ck_assert_int_eq(fcntl(passed, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
        ck_assert_int_eq(fstat(passed, &a), 0);
        ck_assert_int_eq(fstat(devnull, &b), 0);
        ck_assert_uint_eq(a.st_rdev, b.st_rdev);
        close(fds[1]);
        ck_assert_int_eq(sbx_sync_recv(fds[0], 1000, &m), -EPIPE);
        close(passed);
        close(devnull);
        close(fds[0]);
}
END_TEST

START_TEST(test_sync_socket_is_cloexec_seqpacket) {
        int fds[2], type;
        socklen_t len = sizeof(type);

        ck_assert_int_eq(sbx_sync_pair(fds, NULL), 0);
        ck_assert_int_eq(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
        ck_assert_int_eq(fcntl(fds[1], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
        ck_assert_int_eq(getsockopt(fds[0], SOL_SOCKET, SO_TYPE, &type, &len), 0);
        ck_assert_int_eq(type, SOCK_SEQPACKET);
        close(fds[0]);
        close(fds[1]);
}
END_TEST

/* util/fd-pass.c: the fds arrive CLOEXEC and in order; fds beyond what the
 * receiver takes are closed, not left in its table; a message whose
 * control part was cut keeps no fd at all. */
static int open_fds(void) {
        int n = 0;
        for (int fd = 0; fd < 1024; fd++)
                n += fcntl(fd, F_GETFD) >= 0;
        return n;
}

START_TEST(test_fd_pass_order_cloexec_and_extras_closed) {
        int sv[2], send_fds[3], got[2] = { -1, -1 }, before;
        struct stat a, b;
        size_t n_got = 9;
        char buf[4] = {};

        ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
        send_fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
        send_fds[1] = open("/dev/zero", O_RDONLY | O_CLOEXEC);
        send_fds[2] = open("/dev/full", O_RDONLY | O_CLOEXEC);
        ck_assert_int_eq(sbx_send_fds(sv[0], "abc", 3, send_fds, 3), 3);
        before = open_fds();
        ck_assert_int_eq(sbx_recv_fds(sv[1], buf, sizeof(buf), 0, got, 2, &n_got), 3);
        ck_assert_str_eq(buf, "abc");
        ck_assert_uint_eq(n_got, 2);
        /* two kept, the third closed by the receiver */
        ck_assert_int_eq(open_fds(), before + 2);
        for (int i = 0; i < 2; i++) {
                ck_assert_int_eq(fcntl(got[i], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
                ck_assert_int_eq(fstat(got[i], &a), 0);
                ck_assert_int_eq(fstat(send_fds[i], &b), 0);
                ck_assert_uint_eq(a.st_rdev, b.st_rdev);
                close(got[i]);
        }
        /* no fds: plain data, nothing kept; too many to send: refused */
        ck_assert_int_eq(sbx_send_fds(sv[0], "x", 1, NULL, 0), 1);
        ck_assert_int_eq(sbx_recv_fds(sv[1], buf, sizeof(buf), 0, got, 2, &n_got), 1);
        ck_assert_uint_eq(n_got, 0);
        ck_assert_int_eq(got[0], -EBADF);
        ck_assert_int_eq(sbx_send_fds(sv[0], "x", 1, send_fds, SBX_FDS_MAX + 1), -EINVAL);
        /* the peer gone: EPIPE without SIGPIPE, EOF reads 0 */
        close(sv[0]);
        ck_assert_int_eq(sbx_recv_fds(sv[1], buf, sizeof(buf), MSG_DONTWAIT, got, 2, NULL), 0);
        for (int i = 0; i < 3; i++)
                close(send_fds[i]);
        close(sv[1]);
}
END_TEST

START_TEST(test_fd_pass_truncated_keeps_nothing) {
        int sv[2], fd = open("/dev/null", O_RDONLY | O_CLOEXEC), got = -1, before;
        char buf[2];

        ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
        ck_assert_int_eq(sbx_send_fds(sv[0], "long message", 12, &fd, 1), 12);
        before = open_fds();
        ck_assert_int_eq(sbx_recv_fds(sv[1], buf, sizeof(buf), 0, &got, 1, NULL), -EPROTO);
        ck_assert_int_eq(got, -EBADF);
        ck_assert_int_eq(open_fds(), before);
        close(fd);
        close(sv[0]);
        close(sv[1]);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_sync_error_record_survives_unread_peer_queue,
                                 test_sync_passes_an_fd_and_times_out,
                                 test_sync_socket_is_cloexec_seqpacket,
                                 test_fd_pass_order_cloexec_and_extras_closed,
                                 test_fd_pass_truncated_keeps_nothing };

        return unit_main("sync", "records", 10, CK_SILENT, tests, UNIT_N(tests));
}

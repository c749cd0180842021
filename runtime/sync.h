/* SPDX-License-Identifier: MIT */
/* Parent <-> child handshake over one SOCK_SEQPACKET|SOCK_CLOEXEC pair
 * (STYLE §D.14). Fixed-size records, numbered at both ends:
 *   #1 parent -> child  SBX_SYNC_MAPS_WRITTEN  id maps are in place, go on
 *   #2 child -> parent  SBX_SYNC_PTY           (--tty only) the master of a pty made in
 *                                              the sandbox's own devpts, as SCM_RIGHTS
 *   #3 child -> parent  SBX_SYNC_ERROR         setup or exec failed (status + sbx_error)
 *      or EOF on the child's CLOEXEC end       the exec happened
 * Every read has a timeout; EOF from the peer aborts. */
#pragma once

#include <stdint.h>

#include "error.h"

enum {
        SBX_SYNC_MAPS_WRITTEN = 1,
        SBX_SYNC_ERROR = 2,
        SBX_SYNC_PTY = 3,
};

typedef struct sbx_sync_msg {
        uint32_t seq;           /* the sync point number */
        uint32_t type;          /* SBX_SYNC_* */
        int32_t status;         /* SBX_SYNC_ERROR: the exit status sbx should return */
        sbx_error error;
} sbx_sync_msg;

int sbx_sync_pair(int ret_fds[2], sbx_error *reterr);
/* Async-signal-safe. */
int sbx_sync_send(int fd, uint32_t seq, uint32_t type, int status, const sbx_error *e);
/* Same, passing pass_fd along with SCM_RIGHTS. */
int sbx_sync_send_fd(int fd, uint32_t seq, uint32_t type, int pass_fd);
/* 0 and *ret filled; -EPIPE on EOF; -ETIMEDOUT; -EPROTO on a bad record. */
int sbx_sync_recv(int fd, int timeout_ms, sbx_sync_msg *ret);
/* Same, and *ret_fd gets a passed fd (CLOEXEC) or -EBADF. */
int sbx_sync_recv_fd(int fd, int timeout_ms, sbx_sync_msg *ret, int *ret_fd);

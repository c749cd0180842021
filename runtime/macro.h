/* SPDX-License-Identifier: MIT */
/* Small helpers shared by every module: cleanup attributes, ownership
 * transfer and errno wrapping (systemd-style, see ../shared/STYLE.md §C). */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

static inline void freep(void *p) {
        free(*(void **) p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void closep(int *fd) {
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}
#define _cleanup_close_ _cleanup_(closep)

/* Hand ownership over: returns the value and leaves the variable empty. */
#define TAKE_PTR(p)                            \
        ({                                     \
                __typeof__(p) _tp = (p);       \
                (p) = NULL;                    \
                _tp;                           \
        })
#define TAKE_FD(fd)                            \
        ({                                     \
                int _tf = (fd);                \
                (fd) = -EBADF;                 \
                _tf;                           \
        })

/* libc result (-1 + errno) -> negative errno. */
#define RET_NERRNO(expr)                       \
        ({                                     \
                long _r = (long) (expr);       \
                _r < 0 ? -errno : (int) _r;    \
        })

static inline int negative_errno(void) {
        return errno > 0 ? -errno : -EIO;
}

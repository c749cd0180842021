/* SPDX-License-Identifier: MIT */
/* Where persistent sandboxes live by default (sbx_sandbox_root(), sandbox.c),
 * shared with the `sbx exec` front end (exec-front.c, no libc): the rule is
 * written once, here, and the file system probes are the caller's. Not an
 * API. */
#pragma once

#include <stdbool.h>

typedef struct sbx_root_probe {
        bool (*usable)(const char *dir);        /* access(dir, W_OK | X_OK) == 0 */
        bool (*tmpfs)(const char *dir);         /* a tmpfs or ramfs */
} sbx_root_probe;

/* buf = a + b + c; false (buf "") when it does not fit in len. */
static inline bool sbx_root_join(char *buf, unsigned long len, const char *a, const char *b, const char *c) {
        const char *parts[3] = { a, b, c };
        unsigned long at = 0;

        for (int i = 0; i < 3; i++)
                for (const char *s = parts[i]; *s; s++) {
                        if (at + 1 >= len) {
                                buf[0] = '\0';
                                return false;
                        }
                        buf[at++] = *s;
                }
        buf[at] = '\0';
        return true;
}

/* <the launcher's state base>/sandboxes (the same order as statedir.c):
 * $XDG_RUNTIME_DIR/sbx if usable, /run/sbx as root on a tmpfs /run,
 * /dev/shm/sbx-UID, /run/sbx as root, /tmp/sbx-UID. */
static inline bool sbx_root_default(char *buf, unsigned long len, const char *xdg, unsigned uid,
                                    const sbx_root_probe *p) {
        char num[12], rev[12];
        int n = 0, k = 0;

        do
                rev[n++] = (char) ('0' + uid % 10);
        while ((uid /= 10) > 0);
        while (n > 0)
                num[k++] = rev[--n];
        num[k] = '\0';
        if (xdg && xdg[0] == '/' && p->usable(xdg))
                return sbx_root_join(buf, len, xdg, "/sbx/sandboxes", "");
        if (num[0] == '0' && !num[1] && p->tmpfs("/run"))
                return sbx_root_join(buf, len, "/run/sbx/sandboxes", "", "");
        if (p->tmpfs("/dev/shm") && p->usable("/dev/shm"))
                return sbx_root_join(buf, len, "/dev/shm/sbx-", num, "/sandboxes");
        if (num[0] == '0' && !num[1])
                return sbx_root_join(buf, len, "/run/sbx/sandboxes", "", "");
        return sbx_root_join(buf, len, "/tmp/sbx-", num, "/sandboxes");
}

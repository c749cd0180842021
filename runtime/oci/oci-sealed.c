/* SPDX-License-Identifier: MIT */
/* CVE-2019-5736: before create, run or exec enters a container, the runtime
 * runs from a sealed copy of its own binary (a memfd), as runc does. A
 * process of the container that reaches the runtime's executable (its
 * /proc/<pid>/exe while the runtime works in the container, or a file of
 * the image whose "#!" names /proc/self/exe, which `exec` would run as the
 * runtime's own binary) then holds the copy: it cannot write it (sealed),
 * and nothing of it leads to the host's file that root runs next. The copy
 * is a read-only bind mount of our own file, detached (as root or in a user
 * namespace that owns our mounts: no copy, the same page cache), else a
 * sealed memfd. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oci-internal.h"

extern char **environ;

/* /proc/self/exe on a detached read-only bind mount of itself, or -1 */
static int ro_bind_self(void) {
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
        int t = (int) syscall(SYS_open_tree, AT_FDCWD, "/proc/self/exe", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

        if (t >= 0 && syscall(SYS_mount_setattr, t, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
                close(t);
                return -1;
        }
        return t;
}

int oci_run_sealed(char **argv, sbx_error *reterr) {
        _cleanup_close_ int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), copy = -EBADF;
        int seals = self >= 0 ? fcntl(self, F_GET_SEALS) : -1;
        struct statvfs vfs;

        if (self < 0)
                return sbx_error_set(reterr, -errno, "open /proc/self/exe (to run from a sealed copy)");
        if ((seals >= 0 && (seals & F_SEAL_WRITE)) || (fstatvfs(self, &vfs) == 0 && (vfs.f_flag & ST_RDONLY)))
                return 0;       /* we are the copy (or on a read-only mount already) */
        copy = ro_bind_self();
        if (copy >= 0)
                goto run;
        copy = sbx_sealed_copy(self, "sbx-runc", reterr);
        if (copy < 0)
                return copy;
run:
        /* main dispatches on the name: the copy is sbx-runc, whatever ran */
        argv[0] = (char *) "sbx-runc";
        syscall(SYS_execveat, copy, "", argv, environ, AT_EMPTY_PATH);
        return sbx_error_set(reterr, -errno, "run the sealed copy of the runtime");
}

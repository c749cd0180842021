/* SPDX-License-Identifier: MIT */
/* CVE-2019-5736: before create, run or exec enters a container, the runtime
 * runs from a sealed copy of its own binary (a memfd), as runc does. A
 * process of the container that reaches the runtime's executable (its
 * /proc/<pid>/exe while the runtime works in the container, or a file of
 * the image whose "#!" names /proc/self/exe, which `exec` would run as the
 * runtime's own binary) then holds the copy: it cannot write it (sealed),
 * and nothing of it leads to the host's file that root runs next. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oci-internal.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

extern char **environ;

int oci_run_sealed(char **argv, sbx_error *reterr) {
        _cleanup_close_ int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), copy = -EBADF;
        int seals = self >= 0 ? fcntl(self, F_GET_SEALS) : -1;
        struct stat st;
        off_t off = 0;

        if (self < 0)
                return sbx_error_set(reterr, -errno, "open /proc/self/exe (to run from a sealed copy)");
        if (seals >= 0 && (seals & F_SEAL_WRITE))
                return 0;       /* we are the copy */
        if (fstat(self, &st) < 0)
                return sbx_error_set(reterr, -errno, "stat /proc/self/exe");
        copy = memfd_create("sbx-runc", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
        if (copy < 0 && errno == EINVAL)        /* before Linux 6.3: no MFD_EXEC, executable anyway */
                copy = memfd_create("sbx-runc", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (copy < 0)
                return sbx_error_set(reterr, -errno, "memfd_create (a sealed copy of the runtime: is "
                                     "vm.memfd_noexec 2?)");
        while (off < st.st_size) {
                ssize_t n = sendfile(copy, self, &off, (size_t) (st.st_size - off));
                if (n <= 0)
                        return sbx_error_set(reterr, n < 0 ? -errno : -EIO, "copy /proc/self/exe into a memfd");
        }
        if (fcntl(copy, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) < 0)
                return sbx_error_set(reterr, -errno, "seal the runtime's copy");
        /* main dispatches on the name: the copy is sbx-runc, whatever ran */
        argv[0] = (char *) "sbx-runc";
        syscall(SYS_execveat, copy, "", argv, environ, AT_EMPTY_PATH);
        return sbx_error_set(reterr, -errno, "run the sealed copy of the runtime");
}

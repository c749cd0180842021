/* SPDX-License-Identifier: MIT */
/* A sealed copy of an executable in a memfd (CVE-2019-5736). What runs from
 * the copy has it as /proc/<pid>/exe, and so has a "#!/proc/self/exe" script
 * it executes: a process of a sandbox that reaches it holds the copy, which
 * it cannot write (sealed), and nothing of it leads to the host's file that
 * the next sbx runs. sbx-runc re-executes itself from one (oci-sealed.c);
 * sbx-init, pid 1 of every persistent sandbox, runs from one (sandbox.c). */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

int sbx_sealed_copy(int fd, const char *name, sbx_error *reterr) {
        _cleanup_close_ int copy = -EBADF;
        struct stat st;
        off_t off = 0;

        if (fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "stat '%s' (to run a sealed copy)", name);
        copy = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
        if (copy < 0 && errno == EINVAL)        /* before Linux 6.3: no MFD_EXEC, executable anyway */
                copy = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (copy < 0)
                return sbx_error_set(reterr, -errno, "memfd_create (a sealed copy of '%s': is vm.memfd_noexec 2?)",
                                     name);
        while (off < st.st_size) {
                ssize_t n = sendfile(copy, fd, &off, (size_t) (st.st_size - off));
                if (n <= 0)
                        return sbx_error_set(reterr, n < 0 ? -errno : -EIO, "copy '%s' into a memfd", name);
        }
        if (fcntl(copy, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) < 0)
                return sbx_error_set(reterr, -errno, "seal the copy of '%s'", name);
        return TAKE_FD(copy);
}

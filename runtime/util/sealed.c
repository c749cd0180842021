/* SPDX-License-Identifier: MIT */
/* A sealed copy of an executable in a memfd (CVE-2019-5736). What runs from
 * the copy has it as /proc/<pid>/exe, and so has a "#!/proc/self/exe" script
 * it executes: a process of a sandbox that reaches it holds the copy, which
 * it cannot write (sealed), and nothing of it leads to the host's file that
 * the next sbx runs. sbx-runc re-executes itself from one (oci-sealed.c);
 * sbx-init, pid 1 of every persistent sandbox, runs from one (sandbox.c). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* The bytes of a 64-bit ELF file the kernel's loader reads: its header, the
 * program headers and every segment's file part (issue 16 target 5: an idle
 * persistent sandbox's init runs from its own copy, whose pages are charged
 * to it; the section headers, symbols and debug info behind the segments are
 * read by no exec). SIZE when FD is anything else or the headers are not
 * plain: the whole file is copied, as before. */
static off_t elf_loaded_size(int fd, off_t size) {
        Elf64_Ehdr eh;
        Elf64_Phdr ph[64];
        uint64_t end;
        size_t n;

        if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t) sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
            eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
            eh.e_phnum > sizeof(ph) / sizeof(ph[0]) || eh.e_phoff > (uint64_t) size)
                return size;
        n = (size_t) eh.e_phnum * sizeof(Elf64_Phdr);
        if (pread(fd, ph, n, (off_t) eh.e_phoff) != (ssize_t) n)
                return size;
        end = eh.e_phoff + n;
        if (end < sizeof(eh))
                end = sizeof(eh);
        for (size_t i = 0; i < eh.e_phnum; i++) {
                if (ph[i].p_offset > (uint64_t) size || ph[i].p_filesz > (uint64_t) size - ph[i].p_offset)
                        return size;
                if (ph[i].p_offset + ph[i].p_filesz > end)
                        end = ph[i].p_offset + ph[i].p_filesz;
        }
        return end < (uint64_t) size ? (off_t) end : size;
}

static int sealed_copy(int fd, const char *name, bool loaded_only, sbx_error *reterr) {
        _cleanup_close_ int copy = -EBADF;
        struct stat st;
        off_t off = 0;

        if (fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "stat '%s' (to run a sealed copy)", name);
        if (loaded_only && S_ISREG(st.st_mode))
                st.st_size = elf_loaded_size(fd, st.st_size);
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

int sbx_sealed_copy(int fd, const char *name, sbx_error *reterr) {
        return sealed_copy(fd, name, false, reterr);
}

int sbx_sealed_copy_loaded(int fd, const char *name, sbx_error *reterr) {
        return sealed_copy(fd, name, true, reterr);
}

/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER (to be replaced by the profile compiler, see issue 2/6): a
 * hard-coded minimal deny list so the launcher can be wired end to end. */
#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "macro.h"
#include "seccomp-filter.h"

static int export_bpf(scmp_filter_ctx ctx, sbx_bpf *ret, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;
        int r;

        fd = memfd_create("sbx-bpf", MFD_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "seccomp: memfd_create");
        r = seccomp_export_bpf(ctx, fd);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: export BPF");
        if (fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "seccomp: fstat");
        if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) ||
            st.st_size / sizeof(struct sock_filter) > BPF_MAXINSNS)
                return sbx_error_set(reterr, -E2BIG, "seccomp: BPF program of %lld bytes",
                                     (long long) st.st_size);
        ret->insns = malloc(st.st_size);
        if (!ret->insns)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: out of memory");
        if (pread(fd, ret->insns, st.st_size, 0) != st.st_size) {
                free(ret->insns);
                ret->insns = NULL;
                return sbx_error_set(reterr, -EIO, "seccomp: read back BPF");
        }
        ret->len = st.st_size / sizeof(struct sock_filter);
        return 0;
}

int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr) {
        static const char *const denied[] = {
                "bpf", "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd",
                "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load",
                "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
                "mount", "umount2", "pivot_root", "unshare", "setns", "ptrace",
                "open_by_handle_at", "name_to_handle_at",
        };
        scmp_filter_ctx ctx;
        int r;

        if (opts && opts->profile_path)
                return sbx_error_set(reterr, -EOPNOTSUPP, "seccomp: custom profiles not supported yet");
        ctx = seccomp_init(SCMP_ACT_ALLOW);
        if (!ctx)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: init");
        for (size_t i = 0; i < ELEMENTSOF(denied); i++) {
                int nr = seccomp_syscall_resolve_name(denied[i]);
                if (nr == __NR_SCMP_ERROR)
                        continue;
                r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
                if (r < 0) {
                        seccomp_release(ctx);
                        return sbx_error_set(reterr, r, "seccomp: rule for %s", denied[i]);
                }
        }
        r = export_bpf(ctx, ret, reterr);
        seccomp_release(ctx);
        return r;
}

void sbx_bpf_free(sbx_bpf *bpf) {
        if (!bpf)
                return;
        free(bpf->insns);
        bpf->insns = NULL;
        bpf->len = 0;
}

int sbx_seccomp_setup_child(const sbx_bpf *bpf) {
        struct sock_fprog prog = { .len = bpf->len, .filter = bpf->insns };

        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
                return -errno;
        return 0;
}

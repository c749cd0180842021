/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes -> Docker-format seccomp profile parser -> libseccomp
 * -> BPF, the path a user's docker.seccompProfile takes. Built only with
 * -Dfuzz=true (CC=clang); see tests/fuzz/meson.build. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "security/security.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        sbx_seccomp_profile p;
        sbx_error err = {};
        sbx_bpf bpf = {};
        int r;

        r = sbx_seccomp_profile_parse((const char *) data, size, "fuzz", 0, &p, &err);
        if (r == -EPERM) /* foreign architecture: try the opt-in path too */
                r = sbx_seccomp_profile_parse((const char *) data, size, "fuzz",
                                              SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES, &p, &err);
        if (r < 0)
                return 0;
        if (sbx_seccomp_compile_profile(&p, &bpf, &err) == 0)
                sbx_bpf_free(&bpf);
        sbx_seccomp_profile_done(&p);
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* Docker/OCI-format seccomp profiles: strict JSON text -> plain C rules.
 *
 * Parent only (allocates, uses json-c and libseccomp's name tables). The
 * result holds no json_object: the JSON tree is released before returning.
 * Compiling the rules into BPF is seccomp-filter.c's job. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <seccomp.h>

#include "error.h"
#include "seccomp-filter.h"

#define SBX_SECCOMP_PROFILE_SIZE_MAX (1024 * 1024)
#define SBX_SECCOMP_PROFILE_DEPTH_MAX 8
#define SBX_SECCOMP_RULES_MAX 8192
#define SBX_SECCOMP_ARCHES_MAX 8

typedef struct sbx_seccomp_rule {
        int nr;          /* native number, or libseccomp's negative
                          * pseudo number for a syscall this
                          * architecture lacks */
        uint32_t action; /* SCMP_ACT_* including the errno */
        unsigned entry;  /* index in syscalls[], for messages */
        unsigned n_args;
        struct scmp_arg_cmp args[6];
        char name[48];
} sbx_seccomp_rule;

typedef struct sbx_seccomp_profile {
        char origin[160]; /* "embedded default.json" or the path */
        uint32_t default_action;
        uint32_t arches[SBX_SECCOMP_ARCHES_MAX]; /* beyond the native one */
        size_t n_arches;
        sbx_seccomp_rule *rules;
        size_t n_rules;
        int max_nr; /* highest native number named by an
                     * entry that applies here, -1 if none */
} sbx_seccomp_profile;

typedef enum sbx_seccomp_parse_flags {
        /* Let architectures/archMap add non-native architectures (x86, x32,
         * ...) to the filter. Without it they are an error. */
        SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES = 1 << 0,
} sbx_seccomp_parse_flags;

/* Parse len bytes of JSON (need not be NUL-terminated). origin names the
 * profile in error messages. */
int sbx_seccomp_profile_parse(const char *buf, size_t len, const char *origin, unsigned flags,
                              sbx_seccomp_profile *ret, sbx_error *reterr);
/* Read and parse a profile file (docker.seccompProfile). */
int sbx_seccomp_profile_load_file(const char *path, unsigned flags, sbx_seccomp_profile *ret,
                                  sbx_error *reterr);
/* Parse one of the embedded profiles by name ("default", "always-on", ...). */
int sbx_seccomp_profile_load_embedded(const char *name, sbx_seccomp_profile *ret, sbx_error *reterr);
void sbx_seccomp_profile_done(sbx_seccomp_profile *p);

/* "SCMP_ACT_ERRNO(EPERM)"-style text for an action, into buf. */
const char *sbx_seccomp_action_to_string(uint32_t action, char *buf, size_t len);

/* Compile one parsed profile into a base program (with the ENOSYS prefix),
 * without the always-on layer: for the fuzzer and tests. Defined in
 * seccomp-filter.c. */
int sbx_seccomp_compile_profile(const sbx_seccomp_profile *p, sbx_bpf *ret, sbx_error *reterr);

/* sbx_seccomp_compile() without the build-time precompiled fast path for the
 * embedded profiles: for the generator (seccomp-profiles/gen-bpf.c) and the
 * test that keeps both identical. */
int sbx_seccomp_compile_uncached(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr);

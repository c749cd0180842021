/* SPDX-License-Identifier: MIT */
/* Seccomp: compiled in the parent with libseccomp (from Docker/OCI-format JSON
 * profiles kept as data in seccomp-profiles/), installed in the child with a
 * raw seccomp(2) call as the very last step before exec. */
#pragma once

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* A compiled classic-BPF program, owned by the parent, read-only in the child. */
typedef struct sbx_bpf {
        struct sock_filter *insns;
        unsigned short len;
        /* Added (issue 6): sbx's always-on layer (seccomp-profiles/always-on.json
         * plus derived rules such as derived-no-network.json), a second filter
         * installed next to insns. The kernel runs every stacked filter and
         * applies the most restrictive action, so no profile in insns can
         * re-allow what this layer refuses. NULL/0 when absent. */
        struct sock_filter *layer_insns;
        unsigned short layer_len;
} sbx_bpf;

typedef struct sbx_seccomp_opts {
        /* NULL: the embedded default profile (seccomp-profiles/default.json).
         * Otherwise a Docker-format profile file (docker.seccompProfile); sbx's
         * always-on rules are layered on top of it. */
        const char *profile_path;
        /* Derived from the tool policy (issue 6): refuse AF_INET/AF_INET6/
         * AF_PACKET/AF_NETLINK sockets. */
        bool deny_inet_sockets;
        /* Added: let a user profile's architectures/archMap add non-native
         * ABIs (x86, x32, ...). Off: they are an error naming the JSON path. */
        bool allow_foreign_arches;
} sbx_seccomp_opts;

/* Parent: compile the profile into *ret (free with sbx_bpf_free): the base
 * program (embedded default, precompiled at build time, or opts->profile_path
 * compiled now) plus the always-on layer (with derived rules). Errors name the
 * profile file and JSON path. See seccomp-profiles/README.md. */
int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr);
void sbx_bpf_free(sbx_bpf *bpf);

/* Child, async-signal-safe, no allocation: requires no_new_privs (or
 * CAP_SYS_ADMIN) already set. Installs layer_insns (if any), then insns: two
 * raw seccomp(SECCOMP_SET_MODE_FILTER) calls, no flags. Returns 0 or a
 * negative errno. */
int sbx_seccomp_setup_child(const sbx_bpf *bpf);

/* Added: what the compiled filters do to each syscall the native ABI has
 * (for `sbx explain`/doctor). Parent only. */
typedef struct sbx_seccomp_verdict {
        char name[48];
        int nr;
        unsigned action;        /* SCMP_ACT_* of the unconditional verdict */
        bool conditional;       /* argument filters decide (e.g. clone, socket) */
        bool always_on;         /* refused by sbx's always-on layer */
} sbx_seccomp_verdict;

/* Every syscall number libseccomp knows for the native ABI that is not plainly
 * allowed: unconditionally refused, or decided by argument filters. *ret is an
 * array of *ret_n entries, free() it. */
int sbx_seccomp_list_restricted(const sbx_seccomp_opts *opts, sbx_seccomp_verdict **ret,
                                size_t *ret_n, sbx_error *reterr);

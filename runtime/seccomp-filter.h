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
} sbx_bpf;

typedef struct sbx_seccomp_opts {
        /* NULL: the embedded default profile (seccomp-profiles/default.json).
         * Otherwise a Docker-format profile file (docker.seccompProfile); sbx's
         * always-on rules are layered on top of it. */
        const char *profile_path;
        /* Derived from the tool policy (issue 6): refuse AF_INET/AF_INET6/
         * AF_PACKET/AF_NETLINK sockets. */
        bool deny_inet_sockets;
} sbx_seccomp_opts;

/* Parent: compile the profile into *ret (free with sbx_bpf_free). */
int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr);
void sbx_bpf_free(sbx_bpf *bpf);

/* Child, async-signal-safe, no allocation: requires no_new_privs (or
 * CAP_SYS_ADMIN) already set. Returns 0 or a negative errno. */
int sbx_seccomp_setup_child(const sbx_bpf *bpf);

/* SPDX-License-Identifier: MIT */
/* `sbx doctor`: what this host supports and what sbx will do about it
 * (issue 5). Every probe really tries the feature, in a forked child where
 * it changes process state; nothing here prints. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cgroup/cgroup.h"

typedef enum sbx_check_status {
        SBX_CHECK_OK,
        SBX_CHECK_WARN,
        SBX_CHECK_MISSING,
        _SBX_CHECK_STATUS_MAX,
} sbx_check_status;

typedef struct sbx_check {
        const char *id;            /* stable key for --json: "userns", "cgroup", ... */
        const char *title;
        sbx_check_status status;
        bool required;             /* sbx cannot run at all without it */
        char detail[512];
        char fix[512];             /* "" when there is nothing to do */
} sbx_check;

#define SBX_DOCTOR_CHECKS_MAX 16

typedef struct sbx_doctor_report {
        sbx_check checks[SBX_DOCTOR_CHECKS_MAX];
        size_t n;
        sbx_cgroup_host cgroup;    /* the cgroup facts behind the "cgroup" check */
        bool limits_enforceable;   /* memory, pids and cpu limits would all be enforced */
        int landlock_abi;          /* 0 if none */
        /* added by issue 15 */
        int64_t default_pids_limit; /* every sandbox's pids cap here, 0 if none */
        bool freezer;              /* sbx pause freezes the cgroup (else SIGSTOP) */
} sbx_doctor_report;

/* Run every probe. Always succeeds; failures are findings. */
void sbx_doctor_run(sbx_doctor_report *ret);
const char *sbx_check_status_to_string(sbx_check_status s);
/* true if a required check is missing */
bool sbx_doctor_hard_failure(const sbx_doctor_report *r);

/* SPDX-License-Identifier: MIT */
/* The audit log (issue 6): JSON Lines, one record per event, appended by the
 * parent only (the child never writes it). Default: <state dir>/audit.jsonl
 * (the base state dir, next to the run-* dirs), mode 0600.
 *
 * Records (all have "time" (RFC 3339 UTC, ms), "event", "agent", "session",
 * "scopeKey" (null when not run for an agent)):
 *   exec     argv, resolved (file the decision is on), decision allow|deny,
 *            rule, configKey
 *   start    pid (host), argv
 *   exit     exitCode | signal, status (sbx's exit status)
 *   timeout  timeoutSec (the sandbox was killed)
 *   oom      message (memory limit kill, from the cgroup)
 *   seccomp-kill  signal 31 (the workload died of SIGSYS)
 *   setup-error   message, status */
#pragma once

#include "error.h"
#include "exec-allow.h"

typedef struct sbx_audit {
        int fd;                         /* -EBADF: auditing off */
        const char *agent, *session, *scope_key;  /* not owned, may be NULL */
} sbx_audit;

/* path NULL: <base>/audit.jsonl; base created 0711 if missing. */
int sbx_audit_open(sbx_audit *a, const char *path, const char *base, sbx_error *reterr);
void sbx_audit_close(sbx_audit *a);
int sbx_audit_exec(const sbx_audit *a, char *const *argv, const sbx_exec_verdict *v);
int sbx_audit_start(const sbx_audit *a, int pid, char *const *argv);
/* status: sbx's exit status; raw: the workload's (code, or 128+signal). */
int sbx_audit_exit(const sbx_audit *a, int status, bool timed_out, const char *oom_message);
int sbx_audit_setup_error(const sbx_audit *a, int status, const sbx_error *e);

/* SPDX-License-Identifier: MIT */
/* User namespace: id maps decided in the parent, written from /proc/<pid>. */
#pragma once

#include "launch.h"

/* Fallback subordinate range for root when /etc/subuid has no entry for root
 * (documented in README.md): 65536 ids at this base. */
#define SBX_FALLBACK_ID_BASE 1879048192u
#define SBX_ID_COUNT 65536u

int sbx_userns_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr);
/* Parent, after clone3: uid_map -> setgroups=deny -> gid_map via the pid's /proc dirfd. */
int sbx_userns_write_maps(const sbx_plan *p, int proc_pid_fd, sbx_error *reterr);
/* Child, unprivileged: write our own single-id maps (allowed for the
 * namespace's creator mapping only its own ids). */
int sbx_userns_write_own_maps(const sbx_plan *p, sbx_error *reterr);
/* Child, as namespace root: no nested user namespaces and the plan's inotify
 * shares (kernel-enforced, per user namespace, independent of the seccomp
 * profile). *ret_proc: the detached procfs of our pid namespace it wrote
 * through (for /proc), or -EBADF. */
int sbx_userns_limit_child(const sbx_plan *p, int *ret_proc, sbx_error *reterr);
/* Child, after the maps: become the setup identity (ns root when mapped). */
int sbx_userns_setup_child(const sbx_plan *p, sbx_error *reterr);
/* Child, as the IPC namespace's root: bound its SysV message queues,
 * semaphores and shared memory (ipc-limits.c); proc_fd: a procfs or -EBADF
 * for /proc. */
int sbx_ipc_limit_child(int proc_fd, sbx_error *reterr);
/* A spawner, rootless (ipc14): a new user namespace mapping 0 onto our own
 * ids (written through procdir, the host's /proc), and a new IPC namespace
 * owned by it, which a child cloned from here without CLONE_NEWIPC shares:
 * its root is our host uid, so the child may bound it as any sandbox user.
 * -errno. */
int sbx_ipc_owner_enter(int procdir);
/* A helper about to enter USERNS_FD (network container:NAME, rootless as a
 * uid other than 0): NAME's user namespace's parent when it is one of
 * sbx_ipc_owner_enter()'s (NAME runs as such a uid too), and a new IPC
 * namespace there. 0, or -errno (then perhaps already in that parent, from
 * where USERNS_FD may still be entered). */
int sbx_ipc_owner_join(int userns_fd);

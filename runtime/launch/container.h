/* SPDX-License-Identifier: MIT */
/* The OCI container's child (container.c), started by launch.c's spawn. */
#pragma once

#include <signal.h>

#include "launch.h"

/* Child: set the container up as the plan says, stop before exec until
 * `start`, exec. Never returns. */
_Noreturn void sbx_container_child_main(const sbx_plan *p, int sync_fd, const sigset_t *oldmask);
/* launch.c's clone3 (namespaces, cgroup, joins), for container.c. */
pid_t sbx_launch_spawn(sbx_plan *p, int sync_child, int sync_parent, const sigset_t *oldmask, int *ret_pidfd,
                       sbx_error *reterr);

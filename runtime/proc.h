/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>
#include <sys/types.h>

/* The start time of a live process (clock ticks after boot, field 22 of
 * /proc/PID/stat): identifies it across pid reuse. -ESRCH for a zombie (dead
 * for our purposes), -ENOENT if there is no such process, else -errno/-EIO. */
int sbx_proc_start_time(pid_t pid, uint64_t *ret);

/* SPDX-License-Identifier: MIT */
/* SysV IPC limits of a sandbox's own IPC namespace (red13).
 *
 * A new IPC namespace starts with the kernel's defaults, which bound
 * nothing: 32,000 message queues of 16 KiB each (and 16,384 messages each:
 * one-byte messages cost a 64-byte kernel object apiece, ~1.1 MiB a queue),
 * semaphore sets up to 1,024,000,000 semaphores of 64 bytes, and shared
 * memory segments up to 16 EiB in all. All of it is kernel or shmem memory
 * that no process owns: it stays after the process that made it exits (for
 * a persistent sandbox until `sbx rm`), the OOM killer cannot free it, and
 * no tmpfs size bounds it. Measured on the CI host: 32 queues held 36 MiB
 * of slab with a 9 MiB process. Here each kind is bounded to about the
 * sandbox's /dev/shm size (64 MiB), as a file there is. A segment nobody
 * has attached stays, as under Docker (kernel.shm_rmid_forced is left 0: a
 * later exec may attach what an earlier one made), counted in the bound.
 *
 * The kernel lets only the IPC namespace's root write these: a process
 * whose effective host uid is the one uid 0 of the user namespace that
 * owns it maps to (ipc_permissions(), no capability involved). The child
 * does, before anything of the sandbox runs: as that root (host root's
 * subordinate range, or rootless as uid 0), or, rootless as another uid,
 * where its single-id map has no root (ipc14), in an IPC namespace a
 * spawner made in a user namespace of its own that maps 0 to the caller
 * (sbx_ipc_owner_enter): the child's user namespace is nested in that one
 * and runs on the same host uid, the root of the IPC namespace's owner.
 * The sandbox's /proc/sys is read-only (mount.c), so nothing it runs may
 * raise them again. */
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "userns.h"

/* Bytes of memory each SysV kind may hold: the /dev/shm size (mount.c). */
#define IPC_BUDGET (64ul << 20)

int sbx_ipc_limit_child(int proc_fd, sbx_error *reterr) {
        /* shmall is in pages; sem: SEMMSL SEMMNS SEMOPM SEMMNI, SEMMNS
         * semaphores of 64 bytes; msgmni queues of ~1.1 MiB at most. */
        char shmmax[24], shmall[24], sem[48];
        long page = sysconf(_SC_PAGESIZE);
        const char *const limits[][2] = {
                { "sys/kernel/shmmax", shmmax },
                { "sys/kernel/shmall", shmall },
                { "sys/kernel/msgmni", "56" },
                { "sys/kernel/sem", sem },
        };
        _Static_assert(IPC_BUDGET / (1152ul << 10) >= 56, "msgmni follows IPC_BUDGET");

        snprintf(shmmax, sizeof(shmmax), "%lu", IPC_BUDGET);
        snprintf(shmall, sizeof(shmall), "%lu", IPC_BUDGET / (unsigned long) (page > 0 ? page : 4096));
        snprintf(sem, sizeof(sem), "32000 %lu 500 1024", IPC_BUDGET / 64);
        for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
                size_t len = strlen(limits[i][1]);
                int fd = proc_fd >= 0 ? openat(proc_fd, limits[i][0], O_WRONLY | O_CLOEXEC) : -EBADF;

                if (fd < 0) {
                        char path[64];
                        snprintf(path, sizeof(path), "/proc/%s", limits[i][0]);
                        fd = open(path, O_WRONLY | O_CLOEXEC);
                }
                if (fd < 0 && errno == ENOENT)  /* a kernel without SysV IPC: nothing to bound */
                        continue;
                /* an older kernel where only host root may write them (before
                 * the IPC sysctls became the namespace root's): its defaults */
                if (fd < 0 && errno == EACCES && i == 0)
                        return 0;
                if (fd < 0 || write(fd, limits[i][1], len) != (ssize_t) len) {
                        int r = -errno;
                        if (fd >= 0)
                                close(fd);
                        return sbx_error_set(reterr, r, "ipc namespace: write '%s' to /proc/%s", limits[i][1],
                                             limits[i][0]);
                }
                close(fd);
        }
        return 0;
}

static int write_self(int procdir, const char *name, const char *text) {
        char path[32];
        size_t len = strlen(text);
        int fd, r = 0;

        snprintf(path, sizeof(path), "self/%s", name);
        fd = openat(procdir, path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (write(fd, text, len) != (ssize_t) len)
                r = -errno;
        close(fd);
        return r;
}

int sbx_ipc_owner_enter(int procdir) {
        char um[32], gm[32];
        int r;

        snprintf(um, sizeof(um), "0 %u 1\n", (unsigned) geteuid());
        snprintf(gm, sizeof(gm), "0 %u 1\n", (unsigned) getegid());
        if (unshare(CLONE_NEWUSER) < 0)
                return -errno;
        if ((r = write_self(procdir, "uid_map", um)) < 0 || (r = write_self(procdir, "setgroups", "deny")) < 0 ||
            (r = write_self(procdir, "gid_map", gm)) < 0)
                return r;
        return unshare(CLONE_NEWIPC) < 0 ? -errno : 0;
}

int sbx_ipc_owner_join(int userns_fd) {
        int parent = ioctl(userns_fd, NS_GET_PARENT), r = 0;

        if (parent < 0)
                return -errno;
        /* the initial user namespace (NAME runs as uid 0, its own map's
         * root): EPERM, nothing changed */
        if (setns(parent, CLONE_NEWUSER) < 0 || unshare(CLONE_NEWIPC) < 0)
                r = -errno;
        close(parent);
        return r;
}

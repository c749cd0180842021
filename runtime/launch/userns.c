/* SPDX-License-Identifier: MIT */
/* Id maps. Sandbox uid 0 is never host uid 0:
 *  - as host root we map sandbox 0..65535 onto a subordinate range (root's
 *    entry in /etc/subuid and /etc/subgid, else SBX_FALLBACK_ID_BASE), so
 *    nothing in the sandbox owns a host file it was not given;
 *  - unprivileged we can only map ourselves: the caller becomes the sandbox
 *    user (uid 0 by default, with every capability dropped before exec).
 * setgroups is denied before gid_map is written (CVE-2014-8989); as root the
 * parent also drops its supplementary groups before clone3 so that host gid 0
 * is not carried into the sandbox as a supplementary group. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "util/util.h"
#include "userns.h"

/* Root's range in /etc/subuid-style file: "root:100000:65536" or "0:...". */
static int read_subid(const char *file, unsigned long *ret_base) {
        _cleanup_free_ char *line = NULL;
        size_t n = 0;
        FILE *f = fopen(file, "re");
        int r = -ENOENT;

        if (!f)
                return -errno;
        while (getline(&line, &n, f) > 0) {
                char name[64];
                unsigned long base, count;
                if (sscanf(line, "%63[^:]:%lu:%lu", name, &base, &count) != 3)
                        continue;
                if ((strcmp(name, "root") && strcmp(name, "0")) || count < SBX_ID_COUNT || base == 0 ||
                    base > 0xFFFFFFFFul - SBX_ID_COUNT)
                        continue;
                *ret_base = base;
                r = 0;
                break;
        }
        fclose(f);
        return r;
}

/* The kernel charges every inotify instance and watch, and every fanotify
 * group and mark, made in a user namespace to its creator's uid in the
 * parent namespace too (host root, or rootless the caller: the gateway),
 * against the parent's user.max_{inotify,fanotify}_*. A new namespace's own
 * limit is INT_MAX: one sandbox could take the whole budget, and every other
 * process of that user (file watchers, tail -f, template holders) got
 * EMFILE/ENOSPC. A sandbox gets an eighth of its creator's, written into its
 * namespace by the child. A kernel without fanotify has no such file: ""
 * (nothing to limit). */
static int creator_share(const char *name, bool optional, char *ret, size_t size, sbx_error *reterr) {
        char path[64], buf[24] = {};
        _cleanup_close_ int fd = -EBADF;
        long v;

        snprintf(path, sizeof(path), "/proc/sys/user/%s", name);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT && optional) {
                ret[0] = '\0';
                return 0;
        }
        if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0 || (v = strtol(buf, NULL, 10)) <= 0)
                return sbx_error_set(reterr, fd < 0 ? -errno : -EIO, "user namespace: read %s", path);
        snprintf(ret, size, "%ld", v / 8 > 0 ? v / 8 : 1);
        return 0;
}

int sbx_userns_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        int r;

        if ((r = creator_share("max_inotify_instances", false, p->inotify_instances, sizeof(p->inotify_instances), reterr)) < 0 ||
            (r = creator_share("max_inotify_watches", false, p->inotify_watches, sizeof(p->inotify_watches), reterr)) < 0 ||
            (r = creator_share("max_fanotify_groups", true, p->fanotify_groups, sizeof(p->fanotify_groups), reterr)) < 0 ||
            (r = creator_share("max_fanotify_marks", true, p->fanotify_marks, sizeof(p->fanotify_marks), reterr)) < 0)
                return r;
        p->uid = c->uid;
        p->gid = c->gid;
        p->privileged = geteuid() == 0;
        if (p->privileged) {
                unsigned long ub = SBX_FALLBACK_ID_BASE, gb = SBX_FALLBACK_ID_BASE;
                (void) read_subid("/etc/subuid", &ub);
                (void) read_subid("/etc/subgid", &gb);
                p->host_uid = ub;
                p->host_gid = gb;
                p->map_count = SBX_ID_COUNT;
                snprintf(p->uid_map, sizeof(p->uid_map), "0 %lu %u\n", ub, SBX_ID_COUNT);
                snprintf(p->gid_map, sizeof(p->gid_map), "0 %lu %u\n", gb, SBX_ID_COUNT);
                /* See the comment at the top: no host gid 0 inside. */
                if (setgroups(0, NULL) < 0)
                        return sbx_error_set(reterr, -errno, "user namespace: drop supplementary groups");
        } else {
                p->host_uid = geteuid();
                p->host_gid = getegid();
                p->map_count = 1;
                snprintf(p->uid_map, sizeof(p->uid_map), "%u %u 1\n", p->uid, (unsigned) p->host_uid);
                snprintf(p->gid_map, sizeof(p->gid_map), "%u %u 1\n", p->gid, (unsigned) p->host_gid);
        }
        return 0;
}

static int write_at(int dirfd, const char *name, const char *text, sbx_error *reterr) {
        _cleanup_close_ int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
        size_t len = strlen(text);

        if (fd < 0)
                return sbx_error_set(reterr, -errno, "user namespace: open /proc/<pid>/%s", name);
        if (write(fd, text, len) != (ssize_t) len)
                return sbx_error_set(reterr, -errno, "user namespace: write /proc/<pid>/%s '%.*s'",
                                     name, (int) strcspn(text, "\n"), text);
        return 0;
}

static int write_maps(const char *uid_map, const char *gid_map, int proc_pid_fd, sbx_error *reterr) {
        int r;

        r = write_at(proc_pid_fd, "uid_map", uid_map, reterr);
        if (r < 0)
                return r;
        r = write_at(proc_pid_fd, "setgroups", "deny", reterr);
        if (r < 0)
                return r;
        return write_at(proc_pid_fd, "gid_map", gid_map, reterr);
}

int sbx_userns_write_maps(const sbx_plan *p, int proc_pid_fd, sbx_error *reterr) {
        return write_maps(p->uid_map, p->gid_map, proc_pid_fd, reterr);
}

int sbx_userns_write_own_maps(const sbx_plan *p, sbx_error *reterr) {
        int fd, r;

        /* issue 16: from a template our /proc is the holder's, where we are
         * not: the host's, opened by the spawner ("self" is us there too) */
        fd = p->tmpl.host_proc > 0 ? openat(p->tmpl.host_proc, "self", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                   : open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "user namespace: open /proc/self");
        if (p->ipc_owner) {
                /* ipc14: our parent user namespace maps only its root, to
                 * the caller (sbx_ipc_owner_enter): the sandbox user onto it */
                char um[32], gm[32];
                snprintf(um, sizeof(um), "%u 0 1\n", (unsigned) p->uid);
                snprintf(gm, sizeof(gm), "%u 0 1\n", (unsigned) p->gid);
                r = write_maps(um, gm, fd, reterr);
        } else
                r = sbx_userns_write_maps(p, fd, reterr);
        close(fd);
        return r;
}

int sbx_userns_setup_child(const sbx_plan *p, sbx_error *reterr) {
        /* Privileged: become sandbox root (host_uid), so files made during setup
         * are owned by mapped ids. Capabilities in the new user namespace are
         * kept: the old ids (host 0) were not this namespace's root. */
        uid_t u = p->privileged ? 0 : p->uid;
        gid_t g = p->privileged ? 0 : p->gid;

        if (sys_setresgid(g, g, g) < 0)
                return sbx_error_set(reterr, -errno, "user namespace: setresgid(%u)", (unsigned) g);
        if (sys_setresuid(u, u, u) < 0)
                return sbx_error_set(reterr, -errno, "user namespace: setresuid(%u)", (unsigned) u);
        return 0;
}

/* user.max_user_namespaces is a per-user-namespace limit: 0 in ours means
 * nothing in the sandbox can create a user namespace (ENOSPC), the way in to
 * capabilities over fresh mount/net/... namespaces, whatever the seccomp
 * profile allows. The host's value is untouched. Then the inotify and fanotify shares
 * the parent decided (sbx_userns_prepare).
 *
 * Opened through a detached procfs of our own pid namespace where it can be
 * (issue 16): the host's /proc keeps one cached dentry of this file per user
 * namespace that ever opened it, all in one dcache hash chain, so with
 * thousands of sandboxes every lookup there walks thousands of entries; our
 * own procfs instance has only ours. The host's /proc where that mount is
 * not allowed (no pid namespace of our own). *ret_proc: that detached procfs
 * (nosuid, nodev, noexec; the caller's, CLOEXEC), or -EBADF. */
int sbx_userns_limit_child(const sbx_plan *p, int *ret_proc, sbx_error *reterr) {
        _cleanup_close_ int fs = fsopen("proc", FSOPEN_CLOEXEC);
        const char *limits[][2] = {
                { "max_user_namespaces", "0" },
                { "max_inotify_instances", p->inotify_instances },
                { "max_inotify_watches", p->inotify_watches },
                { "max_fanotify_groups", p->fanotify_groups },
                { "max_fanotify_marks", p->fanotify_marks },
        };
        int fd = -EBADF, mnt = -EBADF;

        *ret_proc = -EBADF;
        if (fs >= 0 && fsconfig(fs, FSCONFIG_SET_STRING, "source", "proc", 0) == 0 &&
            fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
                mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
        for (size_t i = 0; i < ELEMENTSOF(limits); i++) {
                char path[64];
                size_t len = strlen(limits[i][1]);

                if (len == 0)
                        continue;
                snprintf(path, sizeof(path), "/proc/sys/user/%s", limits[i][0]);
                fd = mnt >= 0 ? openat(mnt, path + strlen("/proc/"), O_WRONLY | O_CLOEXEC) : -EBADF;
                if (fd < 0)
                        fd = open(path, O_WRONLY | O_CLOEXEC);
                if (fd < 0 || write(fd, limits[i][1], len) != (ssize_t) len) {
                        int r = -errno;
                        if (fd >= 0)
                                close(fd);
                        if (mnt >= 0)
                                close(mnt);
                        return sbx_error_set(reterr, r, "user namespace: write %s to %s", limits[i][1], path);
                }
                close(fd);
        }
        /* issue 16: this procfs becomes the sandbox's /proc (the mount step
         * moves it there): no second instance, and no dissolve of this one
         * (a detached mount closed waits out an RCU grace period) */
        *ret_proc = mnt;
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* A container's state dir <root>/<id>: state.json (what `state` reports),
 * config.json (a copy: delete runs its poststop hooks), exec.fifo (present
 * while created: the container's process reads one byte from it before
 * exec, and `start` writes it). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci-internal.h"

int oci_check_id(const char *id, sbx_error *reterr) {
        size_t n = strlen(id);

        if (n == 0 || n >= 256 || !strcmp(id, ".") || !strcmp(id, "..") || strspn(id,
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.") != n)
                return sbx_error_set(reterr, -EINVAL, "invalid container id '%.64s' (letters, digits, _+-. only)", id);
        return 0;
}

int oci_check_root(const char *root, sbx_error *reterr) {
        struct stat st;

        if (stat(root, &st) < 0)
                return errno == ENOENT ? 0 : sbx_error_set(reterr, -errno, "--root '%s'", root);
        if (st.st_uid != geteuid() || (st.st_mode & 022))
                return sbx_error_set(reterr, -EPERM, "--root '%s': owned by uid %u, mode %04o: another user could "
                                     "plant a container's state there (it must be ours, not group/other-writable)",
                                     root, (unsigned) st.st_uid, (unsigned) (st.st_mode & 07777));
        return 0;
}

int oci_write_pid_file(const char *path, pid_t pid, sbx_error *reterr) {
        char tmp[PATH_MAX];
        int fd, n, r = 0;

        if (!path)
                return 0;
        if (snprintf(tmp, sizeof(tmp), "%s.sbx-tmp", path) >= (int) sizeof(tmp))
                return sbx_error_set(reterr, -ENAMETOOLONG, "--pid-file '%s'", path);
        /* a stale (or planted) entry goes; O_EXCL: whatever appears in its
         * place before the open fails it instead of being written through */
        (void) unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "--pid-file '%s': create %s", path, tmp);
        n = dprintf(fd, "%d", (int) pid);
        if (n <= 0 || close(fd) < 0 || rename(tmp, path) < 0) {
                r = sbx_error_set(reterr, -errno ?: -EIO, "--pid-file '%s'", path);
                (void) unlink(tmp);
        }
        return r;
}

/* The text of /proc/<pid>/stat after the command's ")": "S ppid ..." ("" if gone). */
static const char *proc_stat_tail(pid_t pid, char *buf, size_t len) {
        char path[64], *p;
        int fd, n;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return "";
        n = (int) read(fd, buf, len - 1);
        close(fd);
        if (n <= 0)
                return "";
        buf[n] = '\0';
        p = strrchr(buf, ')');
        return p && p[1] == ' ' ? p + 2 : "";
}

unsigned long long oci_proc_start_time(pid_t pid) {
        char buf[1024];
        unsigned long long t = 0;

        /* start time is field 22; the tail starts at field 3 */
        if (sscanf(proc_stat_tail(pid, buf, sizeof(buf)),
                   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &t) != 1)
                return 0;
        return t;
}

char oci_proc_state(pid_t pid) {
        char buf[1024];
        return proc_stat_tail(pid, buf, sizeof(buf))[0];
}

int oci_state_load(const char *root, const char *id, oci_state *s, sbx_error *reterr) {
        char path[PATH_MAX + 16];
        json_object *j, *v;
        int r;

        memset(s, 0, sizeof(*s));
        r = oci_check_id(id, reterr);
        if (r < 0)
                return r;
        r = oci_check_root(root, reterr);
        if (r < 0)
                return r;
        snprintf(s->id, sizeof(s->id), "%s", id);
        snprintf(s->dir, sizeof(s->dir), "%s/%s", root, id);
        snprintf(path, sizeof(path), "%s/state.json", s->dir);
        if (access(s->dir, F_OK) < 0)
                return sbx_error_set(reterr, -ENOENT, "container does not exist: '%s'", id);
        j = json_object_from_file(path);
        if (!j)
                return sbx_error_set(reterr, -EIO, "container '%s': unreadable %s", id, path);
        if (json_object_object_get_ex(j, "pid", &v))
                s->pid = json_object_get_int(v);
        if (json_object_object_get_ex(j, "bundle", &v))
                snprintf(s->bundle, sizeof(s->bundle), "%s", json_object_get_string(v));
        if (json_object_object_get_ex(j, "rootfs", &v))
                snprintf(s->rootfs, sizeof(s->rootfs), "%s", json_object_get_string(v));
        if (json_object_object_get_ex(j, "created", &v))
                snprintf(s->created, sizeof(s->created), "%s", json_object_get_string(v));
        if (json_object_object_get_ex(j, "cgroup", &v))
                snprintf(s->cgroup, sizeof(s->cgroup), "%s", json_object_get_string(v));
        if (json_object_object_get_ex(j, "systemdUnit", &v))
                snprintf(s->systemd_unit, sizeof(s->systemd_unit), "%s", json_object_get_string(v));
        if (json_object_object_get_ex(j, "startTime", &v))
                s->start_time = (unsigned long long) json_object_get_int64(v);
        if (json_object_object_get_ex(j, "annotations", &v))
                s->annotations = json_object_get(v);
        json_object_put(j);
        return 0;
}

int oci_state_save(const oci_state *s, sbx_error *reterr) {
        char path[PATH_MAX + 16], tmp[PATH_MAX + 16];
        json_object *j = json_object_new_object();
        int r = 0;

        json_object_object_add(j, "id", json_object_new_string(s->id));
        json_object_object_add(j, "pid", json_object_new_int(s->pid));
        json_object_object_add(j, "bundle", json_object_new_string(s->bundle));
        json_object_object_add(j, "rootfs", json_object_new_string(s->rootfs));
        json_object_object_add(j, "created", json_object_new_string(s->created));
        json_object_object_add(j, "cgroup", json_object_new_string(s->cgroup));
        if (s->systemd_unit[0])
                json_object_object_add(j, "systemdUnit", json_object_new_string(s->systemd_unit));
        json_object_object_add(j, "startTime", json_object_new_int64((int64_t) s->start_time));
        if (s->annotations)
                json_object_object_add(j, "annotations", json_object_get(s->annotations));
        snprintf(path, sizeof(path), "%s/state.json", s->dir);
        snprintf(tmp, sizeof(tmp), "%s/.state.json.tmp", s->dir);
        if (json_object_to_file_ext(tmp, j, JSON_C_TO_STRING_PLAIN) < 0 || rename(tmp, path) < 0)
                r = sbx_error_set(reterr, -errno ?: -EIO, "write %s", path);
        json_object_put(j);
        return r;
}

void oci_state_done(oci_state *s) {
        if (s->annotations)
                json_object_put(s->annotations);
        s->annotations = NULL;
}

static bool frozen(const oci_state *s) {
        sbx_cgroup cg = { .dirfd = -EBADF };
        sbx_error e = {};
        int r;

        if (!s->cgroup[0] || sbx_cgroup_open_path(s->cgroup, &cg, &e) < 0)
                return false;
        r = sbx_cgroup_frozen(&cg);
        closep(&cg.dirfd);
        return r == 1;
}

oci_status oci_state_status(const oci_state *s) {
        char fifo[PATH_MAX + 16];
        char st;

        if (s->pid <= 0)
                return OCI_CREATING;
        st = oci_proc_state(s->pid);
        if (!st || st == 'Z' || st == 'X' || oci_proc_start_time(s->pid) != s->start_time)
                return OCI_STOPPED;
        /* frozen first, as runc: a created container that was paused is
         * "paused" (it was "created": resume refused, frozen for good) */
        if (frozen(s))
                return OCI_PAUSED;
        snprintf(fifo, sizeof(fifo), "%s/exec.fifo", s->dir);
        return access(fifo, F_OK) == 0 ? OCI_CREATED : OCI_RUNNING;
}

const char *oci_status_to_string(oci_status st) {
        static const char *const names[] = { "creating", "created", "running", "paused", "stopped" };
        return names[st];
}

json_object *oci_state_json(const oci_state *s, oci_status st) {
        json_object *j = json_object_new_object();

        json_object_object_add(j, "ociVersion", json_object_new_string("1.2.0"));
        json_object_object_add(j, "id", json_object_new_string(s->id));
        json_object_object_add(j, "status", json_object_new_string(oci_status_to_string(st)));
        json_object_object_add(j, "pid", json_object_new_int(st == OCI_STOPPED ? 0 : s->pid));
        json_object_object_add(j, "bundle", json_object_new_string(s->bundle));
        json_object_object_add(j, "rootfs", json_object_new_string(s->rootfs));
        json_object_object_add(j, "created", json_object_new_string(s->created));
        json_object_object_add(j, "owner", json_object_new_string(""));
        json_object_object_add(j, "annotations", s->annotations ? json_object_get(s->annotations) : json_object_new_object());
        return j;
}

static bool same_ns(pid_t a, const struct stat *ns) {
        char path[64];
        struct stat st;

        snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int) a);
        return stat(path, &st) == 0 && st.st_ino == ns->st_ino && st.st_dev == ns->st_dev;
}

int oci_state_pids(const oci_state *s, pid_t **ret, size_t *ret_n) {
        char path[PATH_MAX + 32];
        pid_t *pids = NULL;
        size_t n = 0;

        *ret = NULL;
        *ret_n = 0;
        if (s->cgroup[0]) {
                sbx_cgroup cg = { .dirfd = -EBADF };
                sbx_error e = {};
                int *list = NULL;
                if (sbx_cgroup_open_path(s->cgroup, &cg, &e) == 0 && sbx_cgroup_pids(&cg, &list, &n) == 0) {
                        closep(&cg.dirfd);
                        *ret = (pid_t *) list;
                        *ret_n = n;
                        return 0;
                }
                closep(&cg.dirfd);
                n = 0;
        }
        /* no cgroup: the processes in the container's pid namespace; in
         * ours (no pid namespace of its own) that would be every process
         * we may signal, so only its own process */
        {
                struct stat ns, own;
                DIR *d;
                struct dirent *de;

                snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int) s->pid);
                if (stat(path, &ns) < 0)
                        return 0;
                if (stat("/proc/self/ns/pid", &own) == 0 && own.st_ino == ns.st_ino && own.st_dev == ns.st_dev) {
                        pids = malloc(sizeof(pid_t));
                        if (!pids)
                                return -ENOMEM;
                        pids[0] = s->pid;
                        *ret = pids;
                        *ret_n = 1;
                        return 0;
                }
                d = opendir("/proc");
                if (!d)
                        return -errno;
                while ((de = readdir(d))) {
                        pid_t pid = atoi(de->d_name);
                        pid_t *np;
                        if (pid <= 0 || !same_ns(pid, &ns))
                                continue;
                        np = realloc(pids, sizeof(pid_t) * (n + 1));
                        if (!np)
                                break;
                        pids = np;
                        pids[n++] = pid;
                }
                closedir(d);
        }
        *ret = pids;
        *ret_n = n;
        return 0;
}

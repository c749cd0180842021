/* SPDX-License-Identifier: MIT */
/* Template holders (issue 16 targets 1 and 5): the read-only part of a
 * sandbox's root, built once per (template part, host ids) by a holder
 * process and copied by every run's mount namespace, instead of building a
 * root per run and pivoting into it.
 *
 * A holder is pid 1 of its own pid namespace, in its own mount namespace.
 * Rootless it also has a user namespace of its own, which maps the caller's
 * id onto itself; the sandbox's user namespace is nested in it with the map
 * it has without a template, and a "spawner" enters it to clone each
 * sandbox (a setns into a user namespace cannot be undone): since session 13
 * one on sbx's memory, as the sandbox child (launch.c
 * spawn_template_shared), where the run allows that, else a fork. As root (session
 * 10, p->tmpl.direct) it has none: its mount namespace belongs to the
 * initial user namespace, so the launcher itself enters it around its clone
 * and comes back (sbx_template_enter_mnt, sbx_template_leave), no extra
 * process; the sandbox's user namespace is a child of the initial one, as
 * without a template. Either way it runs as the sandbox's first host id and
 * every mount a sandbox copies from it is locked (copied into a less
 * privileged user namespace). Its mount table holds one tree: a read-only root tmpfs
 * with sbx's /etc files, the read-only binds of /usr and the rest, the /dev
 * node binds, the mountpoints of every per-run mount, and a procfs of its
 * own pid namespace on /proc (it shows the holder alone; a new procfs may
 * only be mounted where one is fully visible). It is non-dumpable, holds
 * no descriptor at all, and waits for SIGKILL (the only signal that reaches
 * a pid namespace's init from outside).
 *
 * On disk, <state base>/templates/<key>/: `lock` (flock, held while one is
 * built or removed), `exe` (the identity of the sbx binary that built it),
 * `use` (flock, shared by each run from finding the holder to its clone;
 * holders of other binaries not in use go when one is built), `holder` (written atomically once the holder said its
 * tree is complete: "pid starttime", then per bound host path its identity),
 * `root` (the holder's mountpoint, empty in the host's table). A holder is
 * found by pidfd and the recorded start time, never by a bare pid; one
 * that is gone or whose host files changed (a bind keeps the inode it was
 * made from: an /etc/ld.so.cache replaced by ldconfig would stay old) is
 * killed and built again. Whatever fails here, the run builds its root as
 * before, to the same view.
 *
 * The key: sha256 of this sbx binary's identity, the host ids, the maps,
 * every template op (kind, flags, source, destination, contents, mode) and
 * the destination of every per-run op (its mountpoint is in the tree). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/fsuid.h>
#include <grp.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "launch.h"
#include "mount.h"
#include "userns.h"

#define TEMPLATE_VERSION "sbx-template 2"     /* 2: root holders without a user namespace */
#define BUILD_TIMEOUT_MS 10000
#define TEMPLATES_MAX 16

static void key_add(struct sbx_sha256 *h, const char *s) {
        sbx_sha256_update(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* This sbx binary's identity (another build, an upgrade, has another). */
static void exe_id(char buf[static 96]) {
        struct statx self = {};

        (void) statx(AT_FDCWD, "/proc/self/exe", AT_STATX_DONT_SYNC, STATX_INO | STATX_MTIME, &self);
        snprintf(buf, 96, "%u:%u:%llu:%lld.%u\n", self.stx_dev_major, self.stx_dev_minor,
                 (unsigned long long) self.stx_ino, (long long) self.stx_mtime.tv_sec, self.stx_mtime.tv_nsec);
}

static void template_key(const sbx_plan *p, char key[static 65]) {
        struct sbx_sha256 h;
        char num[96];

        sbx_sha256_init(&h);
        key_add(&h, TEMPLATE_VERSION);
        /* this sbx binary: another build (an upgrade) makes its own */
        exe_id(num);
        key_add(&h, num);
        snprintf(num, sizeof(num), "%d %u %u %u %u", p->privileged, (unsigned) p->host_uid, (unsigned) p->host_gid,
                 p->uid, p->gid);
        key_add(&h, num);
        key_add(&h, p->uid_map);
        key_add(&h, p->gid_map);
        for (size_t i = 0; i < p->n_mounts; i++) {
                const sbx_mount_op *op = &p->mounts[i];
                bool t = op->flags & SBX_MNT_TEMPLATE;

                snprintf(num, sizeof(num), "%d %u %u", (int) op->kind, op->flags, op->mode);
                key_add(&h, num);
                key_add(&h, op->dst);
                key_add(&h, t ? op->src : NULL);
                key_add(&h, t ? op->data : NULL);
        }
        sbx_sha256_final_hex(&h, key);
}

/* The identity of a template bind's host source: the inode the bind would
 * show now, and the mount it is on. */
static int source_id(const char *src, char *buf, size_t len) {
        struct statx stx;

        if (statx(AT_FDCWD, src, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_INO | STATX_MNT_ID, &stx) < 0)
                return snprintf(buf, len, "-"), 0;      /* an optional source that is missing */
        snprintf(buf, len, "%u:%u:%llu:%llu", stx.stx_dev_major, stx.stx_dev_minor,
                 (unsigned long long) stx.stx_ino, (unsigned long long) stx.stx_mnt_id);
        return 0;
}

/* The record's body after the first line: one identity per template bind. */
static int sources_text(const sbx_plan *p, char *buf, size_t len) {
        size_t off = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < p->n_mounts; i++) {
                const sbx_mount_op *op = &p->mounts[i];
                char id[96];

                if (!(op->flags & SBX_MNT_TEMPLATE) || op->kind != SBX_MOUNT_BIND)
                        continue;
                source_id(op->src, id, sizeof(id));
                off += (size_t) snprintf(buf + off, len - off, "%zu %s\n", i, id);
                if (off >= len)
                        return -E2BIG;
        }
        return 0;
}

/* A live holder of the record at dirfd/holder whose sources are unchanged:
 * its pidfd; -ESTALE (record there, holder gone or stale: *ret_pidfd is
 * its pidfd when it lives, for the kill), -ENOENT (no record). */
static int holder_open(const sbx_plan *p, int dirfd, int *ret_stale_pidfd) {
        char rec[4096], now[4096];
        unsigned long long start = 0;
        ssize_t n;
        int fd, pid = 0, pidfd;
        char *body;

        *ret_stale_pidfd = -EBADF;
        fd = openat(dirfd, "holder", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -ENOENT;
        n = read(fd, rec, sizeof(rec) - 1);
        close(fd);
        if (n <= 0)
                return -ESTALE;
        rec[n] = '\0';
        body = strchr(rec, '\n');
        if (!body || sscanf(rec, "%d %llu", &pid, &start) != 2 || pid <= 1)
                return -ESTALE;
        body++;
        pidfd = sbx_proc_pidfd(pid, start);
        if (pidfd < 0)
                return -ESTALE;
        if (sources_text(p, now, sizeof(now)) < 0 || strcmp(now, body)) {
                *ret_stale_pidfd = pidfd;
                return -ESTALE;
        }
        return pidfd;
}

static void evict_oldest(const char *path);
static void collect_other_binaries(const char *path, const char *key);

/* Close fds FROM..TO: close_range, else one by one (a filter may refuse
 * close_range, as fault-injection's does; a holder must not keep a caller's
 * pipe open for its lifetime). */
static void close_from(unsigned from, unsigned to) {
        struct rlimit rl;
        unsigned max = 65536;

        if (from > to || close_range(from, to, 0) == 0)
                return;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < max)
                max = (unsigned) rl.rlim_cur;
        for (unsigned fd = from; fd <= to && fd < max; fd++)
                (void) close((int) fd);
}

static void kill_holder(int pidfd) {
        if (pidfd >= 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                close(pidfd);
        }
}

/* The holder, after clone3 into its namespaces: wait for its maps, take the
 * sandbox's host ids, build the tree, say so, and once recorded exec itself
 * as the holder proper (sbx_template_holder_main). */
static _Noreturn void holder_main(const sbx_plan *p, const char *root, int go, int report) {
        char dir[PATH_MAX];
        sbx_error err = {};
        sbx_sync_msg msg;
        char b;
        int fd, watch, self;

        if (read(go, &b, 1) != 1)
                _exit(SBX_EXIT_FAILURE);
        close(go);
        (void) setsid();
        (void) prctl(PR_SET_NAME, "sbx-template", 0, 0, 0);
        /* the mountpoint, opened with the creator's host ids (the state
         * dir may be closed to the template's) */
        fd = sys_openat2(AT_FDCWD, root, O_PATH | O_DIRECTORY | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        /* It ends itself when its template dir goes (the state dir
         * removed, as tests do): an inotify watch, its one descriptor */
        snprintf(dir, sizeof(dir), "%s", root);
        *strrchr(dir, '/') = '\0';
        watch = inotify_init1(IN_CLOEXEC);
        if (watch < 0 || inotify_add_watch(watch, dir, IN_DELETE_SELF | IN_MOVE_SELF) < 0)
                fd = -1;
        /* our own binary, to exec once the tree is built */
        self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        if (self < 0)
                fd = -1;
        if (fd < 0) {
                sbx_error_set(&err, -errno, "template: open '%s'", root);
                _exit(sbx_sync_send(report, 2, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        /* root (no user namespace of ours: mounts need host root's
         * CAP_SYS_ADMIN): the sandbox's host ids for the files we make
         * (group and fsuid), the real ones only once the tree is built */
        if ((p->privileged ? setgroups(0, NULL) < 0 || sys_setresgid(p->host_gid, p->host_gid, p->host_gid) < 0 ||
                                     (setfsuid(p->host_uid), (uid_t) setfsuid((uid_t) -1) != p->host_uid)
                           : sys_setresgid(p->host_gid, p->host_gid, p->host_gid) < 0 ||
                                     sys_setresuid(p->host_uid, p->host_uid, p->host_uid) < 0) ||
            prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
                sbx_error_set(&err, errno ? -errno : -EPERM, "template: take the sandbox's host ids");
                _exit(sbx_sync_send(report, 2, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        if (sbx_mount_template_build(p, fd, &err) < 0)
                _exit(sbx_sync_send(report, 2, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        /* root: no capability left (host root's ids given up; the exec of
         * a non-root id gains none) */
        if (p->privileged && (sys_setresuid(p->host_uid, p->host_uid, p->host_uid) < 0 ||
                              prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)) {
                sbx_error_set(&err, -errno, "template: take the sandbox's host ids");
                _exit(sbx_sync_send(report, 2, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        /* built; held only once the builder has recorded us (if it dies
         * first, so do we: no holder without a record) */
        if (sbx_sync_send(report, 2, SBX_SYNC_READY, 0, NULL) < 0 ||
            sbx_sync_recv(report, BUILD_TIMEOUT_MS, &msg) < 0 || msg.type != SBX_SYNC_CONTINUE)
                _exit(SBX_EXIT_FAILURE);
        /* Nothing of sbx's run: a fresh image of our own binary (its mm
         * then belongs to the template's user namespace, so the holder can
         * be non-dumpable and still be entered by its creator: a pidfd
         * setns() needs ptrace access, which a non-dumpable process grants
         * only to CAP_SYS_PTRACE over its mm's user namespace; the
         * sandboxes, nested below, never have it), no environment, no
         * descriptor but the watch on 0 (stdio included). */
        if (dup2(watch, 0) < 0)         /* the one descriptor meant to cross the exec */
                _exit(SBX_EXIT_FAILURE);
        /* and the report socket, CLOEXEC: its close tells the builder the
         * exec is done (holder_build) */
        unsigned lo = (unsigned) (report < self ? report : self), hi = (unsigned) (report < self ? self : report);
        close_from(1, lo - 1);
        close_from(lo + 1, hi - 1);
        close_from(hi + 1, ~0U);
        syscall(SYS_execveat, self, "", (char *[]) { (char *) "sbx-template", NULL }, (char *[]) { NULL },
                AT_EMPTY_PATH);
        _exit(SBX_EXIT_FAILURE);
}

int sbx_template_holder_main(void) {
        char ev[4096];

        if (getpid() != 1)
                return SBX_EXIT_USAGE;
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                return SBX_EXIT_FAILURE;
        (void) prctl(PR_SET_NAME, "sbx-template", 0, 0, 0);
        for (int sig = 1; sig < _NSIG; sig++)
                if (sig != SIGKILL && sig != SIGSTOP)
                        (void) signal(sig, SIG_IGN);
        /* until the template dir goes (or SIGKILL) */
        for (;;)
                if (read(0, ev, sizeof(ev)) > 0 || errno != EINTR)
                        return 0;
}

/* Forked by the launcher: clone3 the holder, write its maps (as the creator,
 * in the parent user namespace; root: no user namespace, no maps), let it
 * go, hand its pidfd back, exit: the holder is reparented and outlives the
 * run. */
static _Noreturn void starter_main(const sbx_plan *p, const char *root, int report) {
        struct clone_args args = { .flags = (p->privileged ? 0 : CLONE_NEWUSER) | CLONE_NEWNS | CLONE_NEWPID |
                                            CLONE_PIDFD,
                                   .exit_signal = SIGCHLD };
        int pipefd[2], pidfd = -EBADF, procfd;
        char path[32];
        sbx_error err = {};
        /* the holder's maps: the host ids the sandbox runs on, each onto
         * itself (as root the subordinate range, unprivileged the caller):
         * the sandbox's own map, inside it, is then the one it has without
         * a template, and reads the same from inside */
        static sbx_plan q;
        long pid;

        q = *p;
        snprintf(q.uid_map, sizeof(q.uid_map), "%u %u %u\n", (unsigned) p->host_uid, (unsigned) p->host_uid,
                 p->map_count);
        snprintf(q.gid_map, sizeof(q.gid_map), "%u %u %u\n", (unsigned) p->host_gid, (unsigned) p->host_gid,
                 p->map_count);

        args.pidfd = (uintptr_t) &pidfd;
        if (pipe2(pipefd, O_CLOEXEC) < 0)
                _exit(SBX_EXIT_FAILURE);
        pid = sys_clone3(&args);
        if (pid < 0) {
                sbx_error_set(&err, -errno, "template: clone3 the holder");
                _exit(sbx_sync_send(report, 1, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        if (pid == 0) {
                close(pipefd[1]);
                holder_main(p, root, pipefd[0], report);
        }
        close(pipefd[0]);
        snprintf(path, sizeof(path), "/proc/%ld", pid);
        procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (procfd < 0 || (!p->privileged && sbx_userns_write_maps(&q, procfd, &err) < 0)) {
                if (procfd < 0)
                        sbx_error_set(&err, -errno, "template: open %s", path);
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                _exit(sbx_sync_send(report, 1, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err) < 0);
        }
        /* the pidfd first: the holder's report comes after it */
        if (sbx_sync_send_fd(report, 1, SBX_SYNC_MAPS_WRITTEN, pidfd) < 0 || write(pipefd[1], "g", 1) != 1) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                _exit(SBX_EXIT_FAILURE);
        }
        _exit(0);
}

/* Build a holder (the caller holds the lock); its pidfd, the record written. */
static int holder_build(const sbx_plan *p, int dirfd, const char *dir) {
        _cleanup_close_ int back_r = -EBADF, back_w = -EBADF, pidfd = -EBADF;
        char root[PATH_MAX], rec[4200], sources[4096];
        sbx_error err = {};
        sbx_sync_msg msg;
        uint64_t start = 0;
        pid_t starter, pid;
        int r, len;

        if ((size_t) snprintf(root, sizeof(root), "%s/root", dir) >= sizeof(root))
                return -ENAMETOOLONG;
        if (mkdirat(dirfd, "root", 0700) < 0 && errno != EEXIST)
                return -errno;
        /* whose it is (the collection of other binaries' holders) and the
         * lock every run using it holds shared (sbx_template_acquire) */
        exe_id(rec);
        if ((size_t) snprintf(root, sizeof(root), "%s/exe", dir) >= sizeof(root) ||
            sbx_write_file_atomic(root, rec, strlen(rec), 0600, false) < 0)
                return -EIO;
        r = openat(dirfd, "use", O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (r < 0)
                return -errno;
        close(r);
        if ((size_t) snprintf(root, sizeof(root), "%s/root", dir) >= sizeof(root))
                return -ENAMETOOLONG;
        if (sources_text(p, sources, sizeof(sources)) < 0)
                return -E2BIG;
        r = sbx_sync_open(&back_r, &back_w, &err);
        if (r < 0)
                return r;
        starter = fork();
        if (starter < 0)
                return -errno;
        if (starter == 0) {
                /* keep only the report socket (at 3): not our lock, not the run's fds */
                if (back_w != 3 && dup3(back_w, 3, O_CLOEXEC) < 0)
                        _exit(SBX_EXIT_FAILURE);
                close_from(4, ~0U);
                /* and none of the caller's stdio: /dev/null instead */
                int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0)
                        _exit(SBX_EXIT_FAILURE);
                if (nul > 3)
                        close(nul);
                starter_main(p, root, 3);
        }
        closep(&back_w);
        back_w = -EBADF;
        r = sbx_sync_recv_fd(back_r, BUILD_TIMEOUT_MS, &msg, &pidfd);
        (void) waitpid(starter, NULL, 0);
        if (r < 0 || msg.type != SBX_SYNC_MAPS_WRITTEN || pidfd < 0)
                return r < 0 ? r : -EIO;
        /* its tree complete, or nothing is recorded (kill -9 of the holder
         * at any point: EOF here) */
        r = sbx_sync_recv(back_r, BUILD_TIMEOUT_MS, &msg);
        if (r < 0 || msg.type != SBX_SYNC_READY) {
                kill_holder(TAKE_FD(pidfd));
                return r < 0 ? r : -EIO;
        }
        pid = sbx_pidfd_pid(pidfd);
        if (pid <= 0 || sbx_proc_start_time(pid, &start) < 0 || sys_pidfd_send_signal(pidfd, 0) < 0) {
                kill_holder(TAKE_FD(pidfd));
                return -ESRCH;
        }
        len = snprintf(rec, sizeof(rec), "%d %llu\n%s", (int) pid, (unsigned long long) start, sources);
        if (len < 0 || (size_t) len >= sizeof(rec) || (size_t) snprintf(root, sizeof(root), "%s/holder", dir) >= sizeof(root) ||
            sbx_write_file_atomic(root, rec, (size_t) len, 0600, false) < 0 ||
            sbx_sync_send(back_r, 3, SBX_SYNC_CONTINUE, 0, NULL) < 0) {
                kill_holder(TAKE_FD(pidfd));
                (void) unlinkat(dirfd, "holder", 0);
                return -EIO;
        }
        /* Until its exec (which closes its end of the socket) the holder is
         * a non-dumpable process whose mm is the initial user namespace's:
         * a rootless spawner's setns() into it fails (EPERM) and the run
         * that built it built its own root instead (12 first runs in 20,
         * session 17). Wait for the close: EOF, or an error. */
        (void) sbx_sync_recv(back_r, BUILD_TIMEOUT_MS, &msg);
        return TAKE_FD(pidfd);
}

/* The holder at dirfd in use by us: a shared lock on its `use` file, held
 * until the clone is done (sbx_template_release). A collection of it holds
 * that lock exclusively from before the kill to the removal of the dir: if
 * ours is granted and the holder still lives, no collection killed it or
 * will while we hold it. */
static int use_holder(int dirfd, int pidfd) {
        int fd = openat(dirfd, "use", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        if (flock(fd, LOCK_SH | LOCK_NB) < 0 || sys_pidfd_send_signal(pidfd, 0) < 0) {
                int e = errno == EWOULDBLOCK ? -EBUSY : -errno;
                close(fd);
                return e;
        }
        return fd;
}

int sbx_template_acquire(sbx_plan *p) {
        _cleanup_close_ int dirfd = -EBADF, lock = -EBADF;
        char dir[PATH_MAX];
        int pidfd, stale = -EBADF, use;
        bool built = false;

        if (!p->tmpl.eligible)
                return -EINVAL;
        template_key(p, p->tmpl.key);
        if ((size_t) snprintf(dir, sizeof(dir), "%s/%s", p->tmpl.dir, p->tmpl.key) >= sizeof(dir))
                return -ENAMETOOLONG;
        /* the common case: a live, fresh holder, no lock taken */
        dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dirfd >= 0) {
                pidfd = holder_open(p, dirfd, &stale);
                kill_holder(stale);
                if (pidfd >= 0)
                        goto found;
                closep(&dirfd);
        }
        if (mkdir(p->tmpl.dir, 0700) < 0 && errno != EEXIST)
                return -errno;
        if (dirfd < 0)          /* a new template: room for it */
                evict_oldest(p->tmpl.dir);
        if (mkdir(dir, 0700) < 0 && errno != EEXIST)
                return -errno;
        dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dirfd < 0)
                return -errno;
        lock = openat(dirfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (lock < 0 || flock(lock, LOCK_EX) < 0)
                return -errno;
        /* another run may have built it while we waited */
        pidfd = holder_open(p, dirfd, &stale);
        kill_holder(stale);
        if (pidfd < 0) {
                (void) unlinkat(dirfd, "holder", 0);
                pidfd = holder_build(p, dirfd, dir);
                if (pidfd < 0)
                        return pidfd;
                built = true;
        }
found:
        use = use_holder(dirfd, pidfd);
        if (use < 0) {
                close(pidfd);
                return use;
        }
        /* a new holder: those of other sbx binaries that no run uses go */
        if (built) {
                closep(&lock);
                lock = -EBADF;
                collect_other_binaries(p->tmpl.dir, p->tmpl.key);
        }
        p->tmpl.use_fd = use;
        p->tmpl.holder_pidfd = pidfd;
        p->tmpl.direct = p->privileged;
        p->tmpl.used = true;
        return 0;
}

/* Root (issue 16 session 10): the launcher into the holder's mount
 * namespace for its clone and back, instead of a spawner process. The
 * holder's namespace belongs to the initial user namespace, where we have
 * CAP_SYS_ADMIN, so setns() can be undone; it sets root and cwd to the
 * template's, so ours are kept as fds, with our namespace, and put back. */
int sbx_template_enter_mnt(const sbx_plan *p, struct sbx_template_back *back) {
        int e;

        *back = (struct sbx_template_back) { .mnt = -EBADF, .root = -EBADF, .cwd = -EBADF };
        back->mnt = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
        back->root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        back->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (back->mnt >= 0 && back->root >= 0 && back->cwd >= 0 && setns(p->tmpl.holder_pidfd, CLONE_NEWNS) == 0) {
                back->entered = true;
                return 0;
        }
        e = -errno;
        closep(&back->mnt);
        closep(&back->root);
        closep(&back->cwd);
        back->mnt = back->root = back->cwd = -EBADF;
        return e;
}

int sbx_template_leave(struct sbx_template_back *back) {
        int r = 0;

        if (!back->entered)
                return 0;
        /* our namespace (root and cwd: its root), then our own root and cwd */
        if (setns(back->mnt, CLONE_NEWNS) < 0 || fchdir(back->root) < 0 || chroot(".") < 0 || fchdir(back->cwd) < 0)
                r = -errno;
        else
                back->entered = false;
        closep(&back->mnt);
        closep(&back->root);
        closep(&back->cwd);
        back->mnt = back->root = back->cwd = -EBADF;
        return r;
}

/* Then the sandbox's first host id (host root is unmapped there, and a
 * user namespace is made only by an id its parent maps): the sandbox's
 * user namespace is owned by that id, as the holder runs as it. The id
 * change made us non-dumpable, and the child would inherit it: its
 * /proc/<pid>/uid_map would then be host root's, which the spawner writes
 * as the template's root. Dumpable again (the child's own id switch clears
 * it once more, as in every run): nothing that runs as the template's root
 * can see the spawner's pid (sandboxes have pid namespaces of their own;
 * the holder's shows itself). */
int sbx_template_enter(const sbx_plan *p) {
        if (setns(p->tmpl.holder_pidfd, CLONE_NEWUSER | CLONE_NEWNS) < 0 ||
            sys_setresgid(p->host_gid, p->host_gid, p->host_gid) < 0 ||
            sys_setresuid(p->host_uid, p->host_uid, p->host_uid) < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
                return -errno;
        return 0;
}

void sbx_template_release(sbx_plan *p) {
        closep(&p->tmpl.use_fd);
        p->tmpl.use_fd = -EBADF;
}

/* Kill the holder of templates/NAME (under its lock) and remove the dir.
 * if_unused: only when no build or removal holds its lock and no run its
 * `use` lock (both taken without waiting, kept until the dir is gone);
 * -EBUSY else. */
static int remove_template(int tfd, const char *name, bool if_unused) {
        _cleanup_close_ int kfd = -EBADF, lock = -EBADF, use = -EBADF;
        char rec[128];
        unsigned long long start = 0;
        int pid = 0, pidfd, fd;
        ssize_t len;

        kfd = openat(tfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (kfd < 0)
                return -errno;
        lock = openat(kfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (if_unused) {
                use = openat(kfd, "use", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) < 0 || (use >= 0 && flock(use, LOCK_EX | LOCK_NB) < 0))
                        return -EBUSY;
        } else if (lock >= 0)
                (void) flock(lock, LOCK_EX);
        fd = openat(kfd, "holder", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        len = fd >= 0 ? read(fd, rec, sizeof(rec) - 1) : -1;
        if (fd >= 0)
                close(fd);
        if (len > 0) {
                rec[len] = '\0';
                if (sscanf(rec, "%d %llu", &pid, &start) == 2 && pid > 1 && (pidfd = sbx_proc_pidfd(pid, start)) >= 0) {
                        struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
                        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                        /* not our child: readable once it has exited */
                        (void) poll(&pfd, 1, 5000);
                        close(pidfd);
                }
        }
        return sbx_rm_rf_at(tfd, name);
}

int sbx_template_remove_all(const char *base) {
        _cleanup_close_ int tfd = -EBADF;
        char path[PATH_MAX];
        struct dirent *d;
        DIR *dir;
        int n = 0;

        snprintf(path, sizeof(path), "%s/templates", base);
        tfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (tfd < 0)
                return errno == ENOENT ? 0 : -errno;
        dir = fdopendir(dup(tfd));
        if (!dir)
                return -errno;
        while ((d = readdir(dir)))
                if (d->d_name[0] != '.' && remove_template(tfd, d->d_name, false) == 0)
                        n++;
        closedir(dir);
        (void) unlinkat(AT_FDCWD, path, AT_REMOVEDIR);    /* when empty */
        return n;
}

/* At most TEMPLATES_MAX holders per state dir (each ≈0.5 MiB and its
 * namespaces): before a new one is built, the oldest built goes. */
static void evict_oldest(const char *path) {
        _cleanup_close_ int tfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        char oldest[128] = "";
        struct timespec when = {};
        struct dirent *d;
        DIR *dir;
        int n = 0;

        if (tfd < 0 || !(dir = fdopendir(dup(tfd))))
                return;
        while ((d = readdir(dir))) {
                char rec[PATH_MAX];
                struct stat st;

                if (d->d_name[0] == '.' || strlen(d->d_name) >= sizeof(oldest))
                        continue;
                n++;
                snprintf(rec, sizeof(rec), "%s/holder", d->d_name);
                if (fstatat(tfd, rec, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (!oldest[0] || st.st_mtim.tv_sec < when.tv_sec ||
                    (st.st_mtim.tv_sec == when.tv_sec && st.st_mtim.tv_nsec < when.tv_nsec)) {
                        when = st.st_mtim;
                        snprintf(oldest, sizeof(oldest), "%s", d->d_name);
                }
        }
        closedir(dir);
        if (n >= TEMPLATES_MAX && oldest[0])
                (void) remove_template(tfd, oldest, false);
}

/* Holders that another sbx binary built (an older build or version: its
 * key can never be ours again) and that no run uses now are stopped and
 * their dirs removed. Called after we built one, so a state root keeps
 * no more than the holders of the binaries still in use. A dir without an
 * `exe` record is from a binary older than this collection. */
static void collect_other_binaries(const char *path, const char *key) {
        _cleanup_close_ int tfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        char self[96], rec[96];
        struct dirent *d;
        DIR *dir;

        if (tfd < 0 || !(dir = fdopendir(dup(tfd))))
                return;
        exe_id(self);
        while ((d = readdir(dir))) {
                ssize_t n = 0;
                int fd;

                if (d->d_name[0] == '.' || !strcmp(d->d_name, key) || strlen(d->d_name) > 64)
                        continue;
                snprintf(rec, sizeof(rec), "%s/exe", d->d_name);
                fd = openat(tfd, rec, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                if (fd >= 0) {
                        n = read(fd, rec, sizeof(rec) - 1);
                        close(fd);
                }
                rec[n > 0 ? n : 0] = '\0';
                if (!strcmp(rec, self))
                        continue;
                (void) remove_template(tfd, d->d_name, true);
        }
        closedir(dir);
}

/* SPDX-License-Identifier: MIT */
/* Persistent sandboxes: names, locks, create/start/stop/rm/pause, lookup,
 * list, prune, recreate, crash cleanup. See sandbox.h for the layout.
 *
 * Locks, always taken in this order (never the reverse, so no deadlock):
 *   <root>/.lock   LOCK_EX  create (while it reserves the name) and rm (the name
 *                           space), leftover cleanup; never held while waiting
 *                           for a busy <name>/lock (lock_name_under_root), and a
 *                           create of a busy existing name fails at once
 *   <name>/busy    LOCK_SH  held by every exec for its whole life; prune needs
 *                           LOCK_EX|LOCK_NB, so it never removes a busy sandbox
 *   <name>/lock    LOCK_EX  state changes (start, stop, rm, pause, crash cleanup)
 *                  LOCK_SH  exec while it joins (so rm cannot pull the
 *                           namespaces away halfway)
 * A lock file that was unlinked while we waited for it (rm won the race) has
 * st_nlink 0: we report "no such sandbox" instead of using a dead sandbox.
 *
 * Crash safety: every step that creates something records it first:
 *   record (complete=false) -> run dir + cgroup (starting=true) -> init pid
 *   -> running. Whoever next holds the sandbox lock with LOCK_EX and finds
 *   complete=false or starting=true knows the creator died (it held the lock
 *   for the whole operation), kills the recorded init (pid + start time, so a
 *   reused pid is never hit), removes the cgroup and, for an unfinished
 *   create, the whole state dir. Mounts need no cleanup: they exist only in
 *   the sandbox's mount namespace, which dies with its init. Workspace dirs
 *   are outside the state dir and are never removed. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build-config.h"
#include "launch/launch.h"
#include "util/util.h"
#include "net/net.h"
#include "security/security.h"
#include "exec-service.h"
#include "sandbox-internal.h"
#include "state-root.h"

#define INIT_READY_TIMEOUT_MS 10000
#define BY_ID ".by-id"

static char root_buf[PATH_MAX];

int sbx_sandbox_root_set(const char *dir, sbx_error *reterr) {
        if (!dir) {
                root_buf[0] = '\0';
                return 0;
        }
        if (dir[0] != '/' || strlen(dir) > PATH_MAX - 256 || strpbrk(dir, ",:"))
                return sbx_error_set(reterr, -EINVAL, "--state-dir '%s': must be an absolute path without ',' or ':'",
                                     dir);
        snprintf(root_buf, sizeof(root_buf), "%s", dir);
        return 0;
}

static bool is_tmpfs(const char *path) {
        struct statfs sfs;

        return statfs(path, &sfs) == 0 && (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC);
}

static bool dir_usable(const char *dir) {
        return access(dir, W_OK | X_OK) == 0;
}

/* <the launcher's state base>/sandboxes: the rule is in state-root.h. */
const char *sbx_sandbox_root(void) {
        static const sbx_root_probe probe = { dir_usable, is_tmpfs };

        if (root_buf[0])
                return root_buf;
        (void) sbx_root_default(root_buf, sizeof(root_buf), getenv("XDG_RUNTIME_DIR"), (unsigned) geteuid(), &probe);
        return root_buf;
}

bool sbx_sandbox_name_valid(const char *name) {
        size_t n = name ? strlen(name) : 0;

        if (n == 0 || n > SBX_SANDBOX_NAME_MAX)
                return false;
        for (size_t i = 0; i < n; i++) {
                char ch = name[i];
                bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
                if (!alnum && (i == 0 || (ch != '_' && ch != '.' && ch != '-')))
                        return false;
        }
        return true;
}

/* mkdir one level, then insist it is ours and not writable by others. */
static int make_private_dir(const char *path, sbx_error *reterr) {
        struct stat st;

        if (mkdir(path, 0711) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, -errno, "state dir: create '%s': %s", path, strerror(errno));
        if (lstat(path, &st) < 0)
                return sbx_error_set(reterr, -errno, "state dir: stat '%s': %s", path, strerror(errno));
        if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
                return sbx_error_set(reterr, -EPERM,
                                     "state dir '%s': must be a directory owned by uid %u and not group/world-writable",
                                     path, (unsigned) geteuid());
        return 0;
}

static int ensure_root(sbx_error *reterr) {
        char path[PATH_MAX];
        char *slash;
        int r;

        snprintf(path, sizeof(path), "%s", sbx_sandbox_root());
        slash = strrchr(path, '/');
        if (slash && slash != path) {
                *slash = '\0';
                r = make_private_dir(path, reterr);
                if (r < 0)
                        return r;
                *slash = '/';
        }
        r = make_private_dir(path, reterr);
        if (r < 0)
                return r;
        snprintf(path + strlen(path), sizeof(path) - strlen(path), "/" BY_ID);
        return make_private_dir(path, reterr);
}

static int lock_file(const char *path, int op, bool create, sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
        if (fd < 0)
                return errno == ENOENT ? -ENOENT : sbx_error_set(reterr, -errno, "lock '%s'", path);
        if (flock(fd, op) < 0)
                return errno == EWOULDBLOCK ? -EWOULDBLOCK : sbx_error_set(reterr, -errno, "lock '%s'", path);
        /* Removed while we waited: the sandbox is gone. */
        if (fstat(fd, &st) < 0 || st.st_nlink == 0)
                return -ENOENT;
        return TAKE_FD(fd);
}

static int lock_root(int op, sbx_error *reterr) {
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/.lock", sbx_sandbox_root());
        return lock_file(path, op, true, reterr);
}

int sbx_sandbox_lock(const char *name, const char *file, int op, sbx_error *reterr) {
        char path[PATH_MAX];

        if (snprintf(path, sizeof(path), "%s/%s/%s", sbx_sandbox_root(), name, file) >= (int) sizeof(path))
                return sbx_error_set(reterr, -ENAMETOOLONG, "sandbox '%s': path too long", name);
        return lock_file(path, op, false, reterr);
}

/* ------------------------------------------------------------- processes */

int sbx_init_pidfd(pid_t pid, uint64_t start_time) {
        return sbx_proc_pidfd(pid, start_time);
}

static bool pidfd_wait(int pidfd, int timeout_ms) {
        struct pollfd p = { .fd = pidfd, .events = POLLIN };

        return poll(&p, 1, timeout_ms) > 0;
}

/* Every process in the sandbox's pid namespace (host pids), via /proc.
 * The namespace is read from the recorded init, held by a pidfd checked
 * against its start time, and the pidfd is checked again after the read: a
 * dead init whose pid was reused meanwhile would name another namespace.
 * Never the caller's own pid namespace (a sandbox's init always has its own). */
static int for_each_sandbox_pid(pid_t init_pid, uint64_t init_start_time, int sig) {
        char path[300], ns[64], other[64];
        _cleanup_close_ int pidfd = sbx_init_pidfd(init_pid, init_start_time);
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        ssize_t n;

        if (pidfd < 0)
                return -ESRCH;
        snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int) init_pid);
        n = readlink(path, ns, sizeof(ns) - 1);
        if (n < 0)
                return -errno;
        ns[n] = '\0';
        if (sys_pidfd_send_signal(pidfd, 0) < 0)
                return -ESRCH;
        n = readlink("/proc/self/ns/pid", other, sizeof(other) - 1);
        if (n < 0)
                return -errno;
        other[n] = '\0';
        if (!strcmp(ns, other))
                return -EPERM;
        d = opendir("/proc");
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                if (de->d_name[0] < '0' || de->d_name[0] > '9')
                        continue;
                snprintf(path, sizeof(path), "/proc/%s/ns/pid", de->d_name);
                n = readlink(path, other, sizeof(other) - 1);
                if (n < 0)
                        continue;
                other[n] = '\0';
                if (!strcmp(ns, other))
                        (void) kill(atoi(de->d_name), sig);
        }
        return 0;
}

/* pause/unpause with the cgroup freezer (v1 freezer.state, v2
 * cgroup.freeze; issue 15): 1 if done, 0 if the sandbox has no cgroup or no
 * freezer (then the caller signals), negative errno on failure. */
static int freeze_sandbox(const sbx_record *rec, bool frozen, sbx_error *reterr) {
        _cleanup_free_ sbx_cgroup *cg = calloc(1, sizeof(*cg));
        int r;

        if (!cg)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (!rec->cgroup || sbx_cgroup_open_path(rec->cgroup, cg, NULL) < 0)
                return 0;
        r = sbx_cgroup_frozen(cg);
        if (r == -EOPNOTSUPP || (r == 0 && !frozen))
                r = 0;          /* no freezer; or not frozen by us: SIGCONT */
        else if (r >= 0)
                r = sbx_cgroup_freeze(cg, frozen, reterr) < 0 ? reterr->code : 1;
        closep(&cg->dirfd);
        return r;
}

/* ------------------------------------------------------------- teardown */

/* Kill the recorded init (if it is still that process) and wait for it. */
static void kill_init(sbx_record *rec) {
        _cleanup_close_ int pidfd = sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time);

        if (pidfd < 0)
                return;
        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        (void) pidfd_wait(pidfd, 10000);
}

static void remove_cgroup(sbx_record *rec) {
        _cleanup_free_ sbx_cgroup *cg = calloc(1, sizeof(*cg));

        if (!rec->cgroup || !cg)
                return;
        /* v2, or the same path on every v1 hierarchy (issue 15) */
        if (sbx_cgroup_open_path(rec->cgroup, cg, NULL) == 0)
                (void) sbx_cgroup_cleanup(cg);
        /* The interim cgroup.c has no teardown: do the minimum ourselves. */
        (void) rmdir(rec->cgroup);
        free(rec->cgroup);
        rec->cgroup = NULL;
}

/* The sandbox no longer runs: kill what is left, drop the cgroup. The run
 * dir stays (it holds the overlay upper: uncommitted work). */
static void teardown_runtime(sbx_record *rec) {
        kill_init(rec);
        remove_cgroup(rec);
        /* init is gone, so its veth (or pasta) is stale: remove it, and the
         * bridge + nft table if no other sandbox uses them (issue 7) */
        if (rec->s.config.network == SBX_NETWORK_BRIDGE)
                (void) sbx_net_gc(NULL);
        rec->s.init_pid = 0;
        rec->s.init_start_time = 0;
        rec->svc_ino = 0;
        rec->s.ip_address[0] = rec->s.gateway[0] = '\0';
        rec->starting = false;
        rec->s.state = rec->s.started_ms ? SBX_SANDBOX_STOPPED : SBX_SANDBOX_CREATED;
}

static int remove_state(const char *name, const char *id) {
        _cleanup_close_ int rootfd = open(sbx_sandbox_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        char link[SBX_SANDBOX_ID_LEN + 16];

        if (rootfd < 0)
                return -errno;
        if (id && id[0]) {
                snprintf(link, sizeof(link), BY_ID "/%s", id);
                (void) unlinkat(rootfd, link, 0);
        }
        return sbx_rm_rf_at(rootfd, name);
}

/* With the sandbox lock held exclusively: make the record tell the truth
 * (saved unless !save: a removal, which deletes it next, skips the write).
 * Returns -ENOENT if it was an unfinished create and is now gone. */
static int refresh_locked(sbx_record *rec, bool save, sbx_error *reterr) {
        bool alive;
        _cleanup_close_ int pidfd = -EBADF;

        if (!rec->complete) {
                /* Its creator held this lock until done: it died. */
                teardown_runtime(rec);
                (void) remove_state(rec->s.name, rec->s.id);
                return -ENOENT;
        }
        if (rec->s.state != SBX_SANDBOX_RUNNING && rec->s.state != SBX_SANDBOX_PAUSED && !rec->starting)
                return 0;
        pidfd = sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time);
        alive = pidfd >= 0;
        if (alive && !rec->starting)
                return 0;
        /* init died (crashed: killed, OOM, or its sbx start was killed). */
        rec->crashed = !rec->starting || !alive;
        if (!rec->starting) {
                /* when it was found dead; its status while it is a zombie
                 * nobody reaped yet, else not seen (-1) */
                rec->s.finished_ms = sbx_now_ms();
                rec->s.exit_status = sbx_proc_zombie_status(rec->s.init_pid, rec->s.init_start_time);
                if (rec->s.exit_status < 0)
                        rec->s.exit_status = -1;
        }
        teardown_runtime(rec);
        return save ? sbx_record_save(rec, reterr) : 0;
}

/* Without the exclusive lock: just report what is true. */
static void refresh_readonly(sbx_record *rec) {
        _cleanup_close_ int pidfd = -EBADF;

        if (rec->s.state != SBX_SANDBOX_RUNNING && rec->s.state != SBX_SANDBOX_PAUSED)
                return;
        pidfd = sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time);
        if (pidfd < 0) {
                rec->s.state = SBX_SANDBOX_STOPPED;
                rec->crashed = true;
                rec->s.finished_ms = sbx_now_ms();
                rec->s.exit_status = sbx_proc_zombie_status(rec->s.init_pid, rec->s.init_start_time);
                if (rec->s.exit_status < 0)
                        rec->s.exit_status = -1;
                rec->s.init_pid = 0;
        }
}

static unsigned count_execs(const char *name) {
        int fd = sbx_sandbox_lock(name, SBX_BUSY_FILE, LOCK_EX | LOCK_NB, NULL);

        if (fd >= 0) {
                close(fd);
                return 0;
        }
        return fd == -EWOULDBLOCK ? 1 : 0;
}

/* Load a record and clean it if stale. *ret_lockfd (may be NULL) receives the
 * sandbox lock, held LOCK_EX when exclusive is true. */
/* A dir without a record is a create that died before its first record
 * only if no create is between its mkdir and that record: creates hold the
 * root lock over that stretch, so clear it only with the root lock (held by
 * our caller, root_held, or free now). Without this, a list that locked the
 * new dir before its creator did removed it under the creator's feet. */
static void remove_recordless(const char *name, bool root_held) {
        _cleanup_close_ int rootlock = root_held ? -EBADF : lock_root(LOCK_EX | LOCK_NB, NULL);

        if (root_held || rootlock >= 0)
                (void) remove_state(name, NULL);
}

/* The rest of load_fresh(): the record of NAME whose sandbox lock LOCKFD we
 * hold (LOCK_EX when ex), cleaned if stale (the cleaned record saved unless
 * !save). */
static int load_held(const char *name, int lockfd_in, bool ex, bool root_held, bool save, sbx_record **ret,
                     int *ret_lockfd, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int lockfd = lockfd_in;
        int r;

        r = sbx_record_load(name, &rec, reterr);
        if (r == -ENOENT || r == -EBADMSG) {
                /* A create that died before its first record, or one still
                 * before it. */
                if (ex)
                        remove_recordless(name, root_held);
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", name);
        }
        if (r < 0)
                return r;
        if (ex) {
                r = refresh_locked(rec, save, reterr);
                if (r == -ENOENT)
                        return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", name);
                if (r < 0)
                        return r;
        } else {
                if (!rec->complete)
                        return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", name);
                refresh_readonly(rec);
        }
        rec->s.running_execs = count_execs(name);
        *ret = TAKE_PTR(rec);
        if (ret_lockfd)
                *ret_lockfd = TAKE_FD(lockfd);
        return 0;
}

static int load_fresh(const char *name, bool exclusive, bool root_held, sbx_record **ret, int *ret_lockfd,
                      sbx_error *reterr) {
        int lockfd;
        bool ex = true;

        lockfd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_EX | (exclusive ? 0 : LOCK_NB), reterr);
        if (lockfd == -EWOULDBLOCK) {
                /* Someone is changing it: wait for them, then only read. */
                ex = false;
                lockfd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_SH, reterr);
        }
        if (lockfd == -ENOENT)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", name);
        if (lockfd < 0)
                return lockfd;
        return load_held(name, lockfd, ex, root_held, true, ret, ret_lockfd, reterr);
}

/* The sandbox lock of NAME, LOCK_EX, with the root lock *ROOTLOCK held
 * around it, never waited for while the root lock is held: a busy NAME (a
 * start, stop or rm of it, an exec joining it) would stop every other create
 * and rm meanwhile. Busy: the root lock is let go, NAME's lock waited for
 * (wait) or -EWOULDBLOCK returned with the root lock held (!wait), and both
 * are taken again. -ENOENT: NAME has no lock file (no such sandbox). */
static int lock_name_under_root(const char *name, int *rootlock, bool wait, sbx_error *reterr) {
        for (;;) {
                int fd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_EX | LOCK_NB, reterr);

                if (fd != -EWOULDBLOCK || !wait)
                        return fd;
                closep(rootlock);
                fd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_EX, NULL);
                closep(&fd);
                *rootlock = lock_root(LOCK_EX, reterr);
                if (*rootlock < 0)
                        return *rootlock;
        }
}

/* Root lock held: NAME's record, loaded fresh with its lock LOCK_EX as
 * load_fresh(), the wait for a busy NAME without the root lock
 * (lock_name_under_root). For rm only: a stale record is cleaned (init
 * killed, cgroup removed) but not saved, as the removal deletes it next; a
 * remover killed before that leaves the old record, which the next holder
 * of the lock cleans again. */
static int load_fresh_under_root(const char *name, int *rootlock, sbx_record **ret, int *ret_lockfd,
                                 sbx_error *reterr) {
        int lockfd = lock_name_under_root(name, rootlock, true, reterr);

        if (lockfd == -ENOENT)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", name);
        if (lockfd < 0)
                return lockfd;
        return load_held(name, lockfd, true, true, false, ret, ret_lockfd, reterr);
}

/* What start, stop and pause do to a sandbox record, loaded fresh and locked
 * exclusively (name: the sandbox's name). */
typedef int (*locked_fn)(sbx_record *rec, const char *name, const void *arg, sbx_error *reterr);

/* Load the sandbox REF names, lock it and run fn on its record; the lock is
 * released and the record freed after. */
static int with_ref(const char *ref, locked_fn fn, const void *arg, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int lockfd = -EBADF;
        char name[SBX_SANDBOX_NAME_MAX + 1];
        int r = sbx_sandbox_resolve(ref, name, reterr);

        if (r >= 0)
                r = load_fresh(name, true, false, &rec, &lockfd, reterr);
        return r < 0 ? r : fn(rec, name, arg, reterr);
}

/* ------------------------------------------------------------- lookup */

static bool is_hex(const char *s) {
        if (!*s)
                return false;
        for (; *s; s++)
                if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
                        return false;
        return true;
}

int sbx_sandbox_resolve(const char *ref, char name[SBX_SANDBOX_NAME_MAX + 1], sbx_error *reterr) {
        char path[PATH_MAX], target[SBX_SANDBOX_NAME_MAX + 8];
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        struct stat st;
        size_t len = ref ? strlen(ref) : 0;
        int found = 0;
        ssize_t n;

        if (!ref || !*ref)
                return sbx_error_set(reterr, -EINVAL, "no sandbox name or id given");
        /* 1. a name */
        if (sbx_sandbox_name_valid(ref) && snprintf(path, sizeof(path), "%s/%s", sbx_sandbox_root(), ref) > 0 &&
            lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                snprintf(name, SBX_SANDBOX_NAME_MAX + 1, "%s", ref);
                return 0;
        }
        if (!is_hex(ref) || len > SBX_SANDBOX_ID_LEN)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref);
        /* 2. an id or an unambiguous id prefix (the by-id index) */
        snprintf(path, sizeof(path), "%s/" BY_ID, sbx_sandbox_root());
        d = opendir(path);
        if (!d)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref);
        while ((de = readdir(d))) {
                if (strncmp(de->d_name, ref, len) || strlen(de->d_name) != SBX_SANDBOX_ID_LEN)
                        continue;
                n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);
                if (n <= 0)
                        continue;
                target[n] = '\0';
                if (found++ == 0)
                        snprintf(name, SBX_SANDBOX_NAME_MAX + 1, "%.*s", SBX_SANDBOX_NAME_MAX,
                                 target + (strncmp(target, "../", 3) ? 0 : 3));
                if (len == SBX_SANDBOX_ID_LEN)
                        break;
        }
        if (found == 0)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref);
        if (found > 1)
                return sbx_error_set(reterr, -ENOTUNIQ, "sandbox id prefix '%s' is ambiguous", ref);
        return 0;
}

int sbx_sandbox_lookup(const char *ref, sbx_sandbox **ret, sbx_error *reterr) {
        char name[SBX_SANDBOX_NAME_MAX + 1];
        sbx_record *rec = NULL;
        int r;

        r = sbx_sandbox_resolve(ref, name, reterr);
        if (r < 0)
                return r;
        r = load_fresh(name, false, false, &rec, NULL, reterr);
        if (r < 0)
                return r;
        *ret = &rec->s;
        return 0;
}

int sbx_sandbox_open_ns(const char *ref, int *ret_netns, int *ret_userns, int *ret_proc, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int lockfd = -EBADF, pidfd = -EBADF, procfd = -EBADF, netfd = -EBADF, userfd = -EBADF;
        char name[SBX_SANDBOX_NAME_MAX + 1], path[64];
        int r;

        r = sbx_sandbox_resolve(ref, name, reterr);
        if (r < 0)
                return r;
        /* Never wait here: the one holding it may be our own create. */
        lockfd = sbx_sandbox_lock(name, SBX_LOCK_FILE, LOCK_SH | LOCK_NB, reterr);
        if (lockfd == -EWOULDBLOCK)
                return sbx_error_set(reterr, -EBUSY,
                                     "sandbox '%s' is being created, started or removed (a sandbox cannot "
                                     "join its own network)", name);
        if (lockfd < 0)
                return lockfd == -ENOENT ? sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref) : lockfd;
        r = sbx_record_load(name, &rec, reterr);
        if (r < 0 || !rec->complete)
                return sbx_error_set(reterr, -ENOENT, "No such sandbox: %s", ref);
        pidfd = rec->s.state == SBX_SANDBOX_RUNNING || rec->s.state == SBX_SANDBOX_PAUSED
                        ? sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time) : -ESRCH;
        if (pidfd < 0)
                return sbx_error_set(reterr, -ESRCH, "sandbox '%s' is not running (start it first)", name);
        snprintf(path, sizeof(path), "/proc/%d", (int) rec->s.init_pid);
        procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (procfd >= 0)
                netfd = openat(procfd, "ns/net", O_RDONLY | O_CLOEXEC);
        if (netfd >= 0)
                userfd = openat(procfd, "ns/user", O_RDONLY | O_CLOEXEC);
        if (userfd < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': open the namespaces of %s", name, path);
        /* still the recorded init after the opens: the namespaces are its */
        if (sys_pidfd_send_signal(pidfd, 0) < 0)
                return sbx_error_set(reterr, -ESRCH, "sandbox '%s' stopped while being joined", name);
        *ret_netns = TAKE_FD(netfd);
        if (ret_userns)
                *ret_userns = TAKE_FD(userfd);
        if (ret_proc)
                *ret_proc = TAKE_FD(procfd);
        return 0;
}

static bool labels_match(const sbx_sandbox *s, const sbx_label *filter, size_t n) {
        for (size_t i = 0; i < n; i++) {
                const char *v = sbx_sandbox_label(s, filter[i].key);
                if (!v || (filter[i].value && strcmp(v, filter[i].value)))
                        return false;
        }
        return true;
}

static int cmp_names(const void *a, const void *b) {
        return strcmp((*(sbx_sandbox *const *) a)->name, (*(sbx_sandbox *const *) b)->name);
}

static int cmp_str(const void *a, const void *b) {
        return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Leftovers no command can reach any more: dirs without a lock file (a
 * create killed right after mkdir) and dangling by-id links. Only when no
 * create or rm runs (root lock free). Candidates only: the dirs the list
 * could not show (unlisted) and the by-id links not named by the id of a
 * listed sandbox (a listed one's link points at its existing dir; the
 * links of those a filter left out are checked); each is
 * checked again under the lock, so nothing else needs a syscall. */
static void sweep_leftovers(int rootfd, char **unlisted, size_t n_unlisted, const char **ids, size_t n_ids) {
        _cleanup_close_ int rootlock = -EBADF, byid = -EBADF;
        _cleanup_(closedirp) DIR *d = NULL;
        char path[PATH_MAX];
        struct dirent *de;
        struct stat st;

        byid = openat(rootfd, BY_ID, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (byid >= 0)
                d = fdopendir(byid);
        if (d)
                byid = -EBADF; /* the DIR owns it */
        qsort(ids, n_ids, sizeof(*ids), cmp_str);
        while (d && (de = readdir(d))) {
                const char *id = de->d_name;
                if (id[0] == '.' || bsearch(&id, ids, n_ids, sizeof(*ids), cmp_str))
                        continue;
                if (rootlock < 0 && (rootlock = lock_root(LOCK_EX | LOCK_NB, NULL)) < 0)
                        return;
                if (fstatat(dirfd(d), id, &st, 0) < 0 && errno == ENOENT)
                        (void) unlinkat(dirfd(d), id, 0);
        }
        for (size_t i = 0; i < n_unlisted; i++) {
                if (rootlock < 0 && (rootlock = lock_root(LOCK_EX | LOCK_NB, NULL)) < 0)
                        return;
                if (snprintf(path, sizeof(path), "%s/" SBX_LOCK_FILE, unlisted[i]) > 0 &&
                    fstatat(rootfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
                        (void) sbx_rm_rf_at(rootfd, unlisted[i]);
        }
}

/* A sorted set of (dev, ino) pairs read from one /proc file. */
typedef struct flocked {
        dev_t dev;
        ino_t ino;
} flocked;

typedef struct flock_set {
        flocked *v;
        size_t n, cap;
} flock_set;

static int flock_set_add(flock_set *set, dev_t dev, ino_t ino) {
        if (set->n == set->cap) {
                flocked *nv = realloc(set->v, sizeof(*nv) * (set->cap = set->cap * 2 + 64));
                if (!nv)
                        return -ENOMEM;
                set->v = nv;
        }
        set->v[set->n++] = (flocked) { .dev = dev, .ino = ino };
        return 0;
}

static int cmp_flocked(const void *a, const void *b) {
        const flocked *x = a, *y = b;

        if (x->dev != y->dev)
                return x->dev < y->dev ? -1 : 1;
        return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static bool flock_set_has(const flock_set *set, dev_t dev, ino_t ino) {
        flocked k = { .dev = dev, .ino = ino };

        return set->n && bsearch(&k, set->v, set->n, sizeof(k), cmp_flocked);
}

/* Read path line by line into set with parse (false: skip the line), then
 * sort it. -errno when unreadable. */
static int flock_set_read_file(const char *path, bool (*parse)(const char *line, flocked *ret), flock_set *ret) {
        FILE *f = fopen(path, "re");
        _cleanup_free_ char *line = NULL;
        size_t len = 0;
        int r = 0;

        *ret = (flock_set) {};
        if (!f)
                return -errno;
        (void) setvbuf(f, NULL, _IOFBF, 1 << 16); /* /proc/net/unix: ~100 bytes a socket */
        while (r == 0 && getline(&line, &len, f) > 0) {
                flocked e;
                if (parse(line, &e))
                        r = flock_set_add(ret, e.dev, e.ino);
        }
        if (r == 0 && ferror(f))
                r = -EIO;
        fclose(f);
        if (r < 0) {
                free(ret->v);
                *ret = (flock_set) {};
                return r;
        }
        if (ret->n)
                qsort(ret->v, ret->n, sizeof(*ret->v), cmp_flocked);
        return 0;
}

/* /proc/locks: "1: FLOCK  ADVISORY  READ 1234 08:01:5678 0 EOF"; waiters
 * ("1: -> FLOCK ...") hold nothing. Every running exec holds its sandbox's
 * busy file shared: what count_execs()'s try-lock tells, for all at once. */
static bool parse_lock(const char *line, flocked *ret) {
        unsigned maj, min;
        unsigned long ino;
        char type[16];

        if (sscanf(line, "%*d: %15s %*s %*s %*d %x:%x:%lu", type, &maj, &min, &ino) != 4 || strcmp(type, "FLOCK"))
                return false;
        *ret = (flocked) { .dev = makedev(maj, min), .ino = (ino_t) ino };
        return true;
}

/* Is the recorded init alive? Its pid with the recorded start time (pid
 * reuse; a zombie is dead). Not its exec service socket listening (one read
 * of /proc/net/unix for every sandbox, until session 11): a copy of the
 * socket's fd held on the host (pidfd_getfd, a leak) keeps it listening
 * after init died, and a killed init stays a zombie as long as the host's
 * reaper lets it (ls-stale-socket). load_fresh() decides with a pidfd and the
 * start time whenever this says dead; exec, stop and rm always do. */
static bool init_alive(const sbx_record *rec) {
        uint64_t start;

        return rec->s.init_pid > 0 && sbx_proc_start_time(rec->s.init_pid, &start) == 0 &&
               start == rec->s.init_start_time;
}

/* Whether <name>/exec.sock below rootfd is a socket (what exec_via tells). */
static sbx_exec_sock exec_sock_at(int rootfd, const char *name) {
        char rel[SBX_SANDBOX_NAME_MAX + 32];
        struct stat st;

        snprintf(rel, sizeof(rel), "%s/" SBX_SVC_SOCKET, name);
        return fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode) ? SBX_EXEC_SOCK_YES
                                                                                          : SBX_EXEC_SOCK_NO;
}

/* A record for the list. The common case, a finished sandbox whose state
 * is true (its init runs with the recorded start time, or it is stopped),
 * needs no lock: records are replaced atomically, so an unlocked read sees
 * a whole one. Anything else (a create or start in progress or killed, an
 * init that died) goes through load_fresh(), which waits for or cleans it.
 * With a cache (sbx_sandbox_list_brief), the record comes from it when the
 * dir is unchanged, and a record read is stored in it (the dir stat()ed
 * first: a change after that only makes the entry miss).
 * Paths are relative to rootfd, the open <root>. */
static int load_listed(int rootfd, const char *name, const flock_set *locks,
                       sbx_ls_cache *cache, sbx_record **ret) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        struct stat busy, dir;
        bool keyed = false, cached = false;
        bool live;

        if (cache) {
                keyed = fstatat(rootfd, name, &dir, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(dir.st_mode);
                cached = keyed && sbx_ls_cache_get(cache, name, &dir, &rec) == 0;
        }
        if (cached)
                sbx_record_busy_at(rootfd, name, rec, &busy);
        else if (sbx_record_load_at(rootfd, name, &busy, &rec, NULL) < 0 || !rec->complete || rec->starting)
                return load_fresh(name, false, false, ret, NULL, NULL);
        live = rec->s.state != SBX_SANDBOX_RUNNING && rec->s.state != SBX_SANDBOX_PAUSED;
        if (!live)
                live = init_alive(rec);
        if (!live)
                return load_fresh(name, false, false, ret, NULL, NULL);
        if (!cached && cache) {
                rec->s.exec_sock = exec_sock_at(rootfd, name);
                if (keyed)
                        sbx_ls_cache_add(cache, rec, &dir);
        }
        /* locks: NULL when /proc/locks was unreadable */
        rec->s.running_execs = !locks ? count_execs(name) : busy.st_nlink > 0 && flock_set_has(locks, busy.st_dev, busy.st_ino);
        *ret = TAKE_PTR(rec);
        return 0;
}

static int list(const sbx_label *filter, size_t n_filter, bool brief, sbx_sandbox ***ret, size_t *ret_n,
                sbx_error *reterr) {
        _cleanup_(closedirp) DIR *d = NULL;
        sbx_sandbox **list = NULL;
        char **unlisted = NULL;
        size_t n = 0, n_unlisted = 0, cap = 0, cap_u = 0;
        flock_set locks = {};
        sbx_ls_cache *cache = NULL;
        bool have_locks;
        struct dirent *de;
        int r = 0;

        *ret = NULL;
        *ret_n = 0;
        d = opendir(sbx_sandbox_root());
        if (!d)
                return errno == ENOENT ? 0 : sbx_error_set(reterr, -errno, "list '%s'", sbx_sandbox_root());
        have_locks = flock_set_read_file("/proc/locks", parse_lock, &locks) == 0;
        if (brief)
                cache = sbx_ls_cache_open(dirfd(d));
        while ((de = readdir(d))) {
                sbx_record *rec = NULL;

                if (de->d_name[0] == '.' || !sbx_sandbox_name_valid(de->d_name))
                        continue;
                if (load_listed(dirfd(d), de->d_name, have_locks ? &locks : NULL, cache, &rec) < 0) {
                        if (n_unlisted == cap_u) {
                                char **nu = realloc(unlisted, sizeof(*nu) * (cap_u = cap_u * 2 + 8));
                                if (!nu) {
                                        r = -ENOMEM;
                                        break;
                                }
                                unlisted = nu;
                        }
                        if (!(unlisted[n_unlisted] = strdup(de->d_name))) {
                                r = -ENOMEM;
                                break;
                        }
                        n_unlisted++;
                        continue;
                }
                if (!labels_match(&rec->s, filter, n_filter)) {
                        sbx_record_free(rec);
                        continue;
                }
                if (n == cap) {
                        sbx_sandbox **nl = realloc(list, sizeof(*nl) * (cap = cap * 2 + 16));
                        if (!nl) {
                                sbx_record_free(rec);
                                r = -ENOMEM;
                                break;
                        }
                        list = nl;
                }
                list[n++] = &rec->s;
        }
        if (r >= 0) {
                const char **lid = malloc(sizeof(*lid) * (n + 1));
                if (lid) {
                        for (size_t i = 0; i < n; i++)
                                lid[i] = list[i]->id;
                        sweep_leftovers(dirfd(d), unlisted, n_unlisted, lid, n);
                        free(lid);
                }
        }
        sbx_ls_cache_done(cache, dirfd(d), r >= 0);
        for (size_t i = 0; i < n_unlisted; i++)
                free(unlisted[i]);
        free(unlisted);
        free(locks.v);
        if (r < 0) {
                sbx_sandbox_list_free(list, n);
                return sbx_error_set(reterr, r, "out of memory");
        }
        if (n)
                qsort(list, n, sizeof(*list), cmp_names);
        *ret = list;
        *ret_n = n;
        return (int) n;
}

int sbx_sandbox_list(const sbx_label *filter, size_t n_filter, sbx_sandbox ***ret, size_t *ret_n,
                     sbx_error *reterr) {
        return list(filter, n_filter, false, ret, ret_n, reterr);
}

int sbx_sandbox_list_brief(const sbx_label *filter, size_t n_filter, sbx_sandbox ***ret, size_t *ret_n,
                           sbx_error *reterr) {
        return list(filter, n_filter, true, ret, ret_n, reterr);
}

/* ------------------------------------------------------------- hashing */

int sbx_sandbox_config_hash(const sbx_run_config *c, char ret[SBX_SANDBOX_HASH_MAX + 1]) {
        _cleanup_free_ char *text = sbx_run_config_to_json_text(c);
        uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;

        if (!text)
                return -ENOMEM;
        /* Two FNV-1a lanes: a change detector, not a security boundary. */
        for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
                h1 = (h1 ^ *p) * 0x100000001b3ull;
                h2 = (h2 ^ (*p + 0x5bu)) * 0x100000001b3ull;
        }
        snprintf(ret, SBX_SANDBOX_HASH_MAX + 1, "%016llx%016llx", (unsigned long long) h1, (unsigned long long) h2);
        return 0;
}

int sbx_sandbox_check_config(sbx_sandbox *s, const sbx_run_config *c, const char *config_hash) {
        char h[SBX_SANDBOX_HASH_MAX + 1];

        if (!config_hash) {
                int r = sbx_sandbox_config_hash(c, h);
                if (r < 0)
                        return r;
                config_hash = h;
        }
        s->config_changed = strcmp(s->config_hash, config_hash) != 0;
        return s->config_changed;
}

/* ------------------------------------------------------------- start */

/* sbx-init, in this order: next to the sbx binary (a copied pair), in the
 * build tree (build/sbx + build/runtime/sandbox/sbx-init), in the installed
 * layout relative to the binary (PREFIX/bin/sbx + PREFIX/libexec/sbx/sbx-init,
 * so an installed tree still works when moved), then the configured
 * libexecdir. Opened in the parent; the child execs it through
 * /proc/self/fd/N, so nothing of the host needs to be mounted for it. */
static int open_init(sbx_error *reterr) {
        char exe[PATH_MAX], path[PATH_MAX + 64];
        const char *cands[] = { "sbx-init", "../runtime/sandbox/sbx-init", "runtime/sandbox/sbx-init",
                                SBX_LIBEXECDIR_FROM_BINDIR "/sbx-init", NULL };
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        int fd;

        if (n > 0) {
                exe[n] = '\0';
                *strrchr(exe, '/') = '\0';
                for (size_t i = 0; cands[i]; i++) {
                        snprintf(path, sizeof(path), "%s/%s", exe, cands[i]);
                        fd = open(path, O_RDONLY | O_CLOEXEC);
                        if (fd >= 0)
                                return fd;
                }
        } else
                snprintf(exe, sizeof(exe), "(unknown)");
        fd = open(SBX_LIBEXECDIR "/sbx-init", O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno,
                                     "sbx-init not found next to sbx ('%s/sbx-init'), in '%s/" SBX_LIBEXECDIR_FROM_BINDIR
                                     "' or in '" SBX_LIBEXECDIR "': install sbx with 'meson setup build --prefix "
                                     "PREFIX && ninja -C build install' (sbx-init goes to PREFIX/libexec/sbx), or "
                                     "copy build/runtime/sandbox/sbx-init next to the sbx binary",
                                     exe, exe);
        return fd;
}


static int write_bpf(const char *dir, const sbx_bpf *bpf, sbx_error *reterr) {
        char path[PATH_MAX + 32];
        int r;

        snprintf(path, sizeof(path), "%s/%s", dir, SBX_BPF_FILE);
        r = sbx_write_file_atomic(path, bpf->insns, (size_t) bpf->len * sizeof(*bpf->insns), 0600, false);
        if (r < 0)
                return sbx_error_set(reterr, r, "write compiled seccomp filter '%s'", path);
        /* the always-on layer (and derived rules: no inet sockets) too: an
         * exec that joins installs both, as the sandbox's init has them */
        snprintf(path, sizeof(path), "%s/%s", dir, SBX_BPF_LAYER_FILE);
        if (!bpf->layer_insns || !bpf->layer_len)
                return sbx_error_set(reterr, -EINVAL, "compiled seccomp filter: no always-on layer");
        r = sbx_write_file_atomic(path, bpf->layer_insns, (size_t) bpf->layer_len * sizeof(*bpf->layer_insns), 0600,
                                  false);
        if (r < 0)
                return sbx_error_set(reterr, r, "write compiled seccomp filter '%s'", path);
        return 0;
}

/* The overlay upper (uncommitted work) survives stop/start. Before the new
 * plan (PARK): park RUN/upper as <dir>/upper.keep and drop the old run dir RUN
 * (the launcher collects run dirs nobody holds, and that one is nobody's now);
 * after the plan: move it into the new run dir RUN, where the child mounts it. */
static int carry_upper(const char *dir, const char *run, bool park, sbx_error *reterr) {
        _cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        char upper[64];
        struct stat st;
        bool kept;

        if (dfd < 0)
                return sbx_error_set(reterr, -errno, "open '%s'", dir);
        if (park && !run[0])
                return 0;
        kept = fstatat(dfd, "upper.keep", &st, AT_SYMLINK_NOFOLLOW) == 0;
        snprintf(upper, sizeof(upper), "%s/upper", run);
        if (park) {
                if (!kept && fstatat(dfd, upper, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    renameat(dfd, upper, dfd, "upper.keep") < 0)
                        return sbx_error_set(reterr, -errno, "keep the workspace changes: move '%s/%s'", dir,
                                             upper);
                (void) sbx_rm_rf_at(dfd, run);
        } else if (kept && (unlinkat(dfd, upper, AT_REMOVEDIR) < 0 || renameat(dfd, "upper.keep", dfd, upper) < 0))
                return sbx_error_set(reterr, -errno, "keep the workspace changes: move '%s/upper.keep'", dir);
        return 0;
}

typedef struct saved_stdio {
        int fd[3];
} saved_stdio;

static int stdio_swap(saved_stdio *s, int in, int out, int err) {
        const int to[3] = { in, out, err };

        for (int i = 0; i < 3; i++)
                s->fd[i] = fcntl(i, F_DUPFD_CLOEXEC, 3);
        for (int i = 0; i < 3; i++)
                if (dup2(to[i], i) < 0)
                        return -errno;
        return 0;
}

static void stdio_restore(saved_stdio *s) {
        for (int i = 0; i < 3; i++)
                if (s->fd[i] >= 0) {
                        (void) dup2(s->fd[i], i);
                        close(s->fd[i]);
                        s->fd[i] = -1;
                } else
                        close(i);
}

/* "G" to init, with the exec service's listening socket (SCM_RIGHTS). */
static int send_go(int fd, int svc) {
        ssize_t n = sbx_send_fds(fd, "G", 1, &svc, 1);

        return n == 1 ? 0 : n < 0 ? (int) n : -EIO;
}

/* Launch init for a record (sandbox lock held LOCK_EX). On success the
 * record says running and names init's pid and start time. */
static int start_locked(sbx_record *rec, sbx_error *reterr) {
        _cleanup_(sbx_plan_freep) sbx_plan *p = NULL;
        _cleanup_close_ int init_fd = -EBADF, pidfd = -EBADF, ready_r = -EBADF, ready_w = -EBADF, devnull = -EBADF,
                            sync_parent = -EBADF, go_r = -EBADF, go_w = -EBADF, svc = -EBADF;
        _cleanup_(sbx_run_config_free) sbx_run_config cfg = {};
        char argv0[32], dir[PATH_MAX], profile[PATH_MAX + 32], ready = 0;
        char *argv[2] = { argv0, NULL };
        const char *run;
        saved_stdio saved;
        sigset_t oldmask;
        int fds[2], r;
        ssize_t n;

        r = sbx_assert_single_threaded(reterr);
        if (r < 0)
                return r;
        init_fd = open_init(reterr);
        if (init_fd < 0)
                return init_fd;
        /* CVE-2019-5736: init runs from a sealed copy. Its children (the
         * exec service's commands) have it as /proc/self/exe until their
         * exec, and a "#!/proc/self/exe" script they run executes it again
         * inside the sandbox, dumpable: /proc/<pid>/exe then reached the
         * host's sbx-init (writable by its owner: rootless, a build or
         * install of the caller's own). Where memfds may not be executable
         * (vm.memfd_noexec = 2) init runs from its file, as before; so it
         * does under an exec allowlist, whose Landlock rule must name init's
         * file (Landlock takes no memfd) and whose execs never go through
         * the exec service (joins resolve no interpreter through a magic
         * link). */
        if (!rec->s.config.exec_allow_set) {
                sbx_error e = {};
                r = sbx_sealed_copy_loaded(init_fd, "sbx-init", &e);
                if (r >= 0) {
                        closep(&init_fd);
                        init_fd = r;
                } else if (r != -EACCES && r != -EPERM)
                        return sbx_error_set(reterr, r, "%s", e.msg);
        }
        snprintf(dir, sizeof(dir), "%s", rec->s.state_dir);
        r = sbx_run_config_copy(&cfg, &rec->s.config);
        free((char *) cfg.seccomp.profile_path);
        cfg.seccomp.profile_path = rec->s.config.seccomp.profile_path;
        /* the profile as create read it (docker reads the file once, at
         * create): the file named may lie where the sandbox writes (its
         * workspace), and a restart must not load the sandbox's own edit.
         * A record made before sbx kept the copy has none: its path. */
        snprintf(profile, sizeof(profile), "%s/" SBX_SECCOMP_PROFILE_FILE, dir);
        if (cfg.seccomp.profile_path && faccessat(AT_FDCWD, profile, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
                cfg.seccomp.profile_path = profile;
        if (r < 0)
                return sbx_error_set(reterr, r, "out of memory");
        /* init: pid 1 with the sandbox's restrictions, in "/", no tty. */
        snprintf(argv0, sizeof(argv0), "/proc/self/fd/%d", init_fd);
        cfg.argv = argv;
        cfg.exec_fd_set = true;          /* issue 6: run this fd, not a lookup in the sandbox */
        cfg.exec_fd = init_fd;
        free(cfg.workdir);
        free(cfg.state_dir);
        cfg.workdir = strdup("/");
        cfg.state_dir = strdup(dir);
        cfg.tty = false;
        cfg.timeout_sec = 0;
        cfg.keep_layers = true;         /* the workspace's upper outlives init: diff, commit, restart */
        /* issue 16: one set of template holders for every sandbox of this
         * state root (<root>/templates, as sbx run --state-dir <root>), not
         * one per sandbox dir */
        snprintf(dir, sizeof(dir), "%s", sbx_sandbox_root());
        if (strrchr(dir, '/') > dir)
                *strrchr(dir, '/') = '\0';
        cfg.template_base = strdup(dir);
        snprintf(dir, sizeof(dir), "%s", rec->s.state_dir);
        if (!cfg.workdir || !cfg.state_dir || !cfg.template_base)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");

        r = carry_upper(dir, rec->run_dir, true, reterr);
        if (r < 0)
                return r;
        rec->run_dir[0] = '\0';
        /* The launcher's plan: mounts, maps, seccomp BPF, cgroup; its run dir
         * is created inside our state dir. */
        r = sbx_plan_prepare(&cfg, &p, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "sandbox '%s'", rec->s.name);
        run = strrchr(p->state_dir, '/') + 1;
        r = carry_upper(dir, run, false, reterr);
        if (r < 0)
                return r;
        /* Record what now exists before anything can die with it. */
        snprintf(rec->run_dir, sizeof(rec->run_dir), "%s", run);
        /* From here the run dir is the sandbox's (it may hold carried-over
         * workspace changes): the plan must not remove it on failure. */
        p->state_dir[0] = '\0';
        free(rec->cgroup);
        rec->cgroup = p->cgroup.path[0] ? strdup(p->cgroup.path) : NULL;
        if (p->cgroup.path[0] && !rec->cgroup)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        rec->starting = true;
        rec->s.init_pid = 0;
        r = sbx_record_save(rec, reterr);
        if (r < 0)
                return r;
        /* Every exec installs exactly this filter. */
        r = write_bpf(dir, &p->bpf, reterr);
        if (r < 0)
                return r;
        /* issue 16: the exec service's socket, handed to init with its "go" */
        r = sbx_exec_service_listen(dir, &svc, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "sandbox '%s'", rec->s.name);
        {
                struct stat sst;
                rec->svc_ino = fstat(svc, &sst) == 0 ? (uint64_t) sst.st_ino : 0;
        }

        /* init's stdio: a socket for our "go" (a stream socket, so the "go" to
         * an init that already died is an EPIPE error, not a SIGPIPE that would
         * kill us before we report its error), a pipe for its "ready", /dev/null. */
        if (pipe2(fds, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, -errno, "pipe");
        ready_r = fds[0];
        ready_w = fds[1];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
                return sbx_error_set(reterr, -errno, "socketpair");
        go_r = fds[0];
        go_w = fds[1];
        devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (devnull < 0)
                return sbx_error_set(reterr, -errno, "open /dev/null");
        if (sbx_supervise_block_signals(&oldmask) < 0)
                return sbx_error_set(reterr, -errno, "sigprocmask");
        /* The network's host side is owned by init, not by us (net.h). */
        p->net.persistent = true;
        r = stdio_swap(&saved, go_r, ready_w, devnull);
        p->tmpl.fatal_fd = saved.fd[2];         /* our stderr, not init's /dev/null */
        if (r >= 0)
                r = sbx_launch_start(p, &oldmask, &pidfd, &sync_parent, reterr);
        stdio_restore(&saved);
        (void) sigprocmask(SIG_SETMASK, &oldmask, NULL);
        closep(&ready_w);
        closep(&go_r);
        if (r < 0)
                return sbx_error_wrap(reterr, "sandbox '%s': start init", rec->s.name);

        /* Record the pid before anything else: from the moment init clears
         * its parent-death signal it outlives us, and a crash cleanup must
         * be able to find it. */
        rec->s.init_pid = sbx_pidfd_pid(pidfd);
        if (rec->s.init_pid <= 0 || sbx_proc_start_time(rec->s.init_pid, &rec->s.init_start_time) < 0)
                rec->s.init_start_time = 0;
        r = sbx_record_save(rec, reterr);
        if (r < 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                return r;
        }
        /* "G" with the exec service's socket: init may outlive us now. "R" =
         * it runs and cleared its parent-death signal; EOF = the child died
         * during setup: its error record says why. */
        (void) send_go(go_w, svc);
        closep(&go_w);
        go_w = -EBADF;
        closep(&svc);
        svc = -EBADF;
        struct pollfd pfd = { .fd = ready_r, .events = POLLIN };
        n = poll(&pfd, 1, INIT_READY_TIMEOUT_MS) > 0 ? read(ready_r, &ready, 1) : -1;
        if (n != 1 || ready != 'R') {
                siginfo_t info = {};
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                (void) waitid(P_PIDFD, pidfd, &info, WEXITED);
                if (n == 0 && sbx_launch_child_error(sync_parent, 0, reterr) != 0)
                        return sbx_error_wrap(reterr, "sandbox '%s': start init", rec->s.name);
                return sbx_error_set(reterr, n == 0 ? -ECHILD : -ETIMEDOUT, "sandbox '%s': init did not start",
                                     rec->s.name);
        }
        if (rec->s.init_start_time == 0 &&
            sbx_proc_start_time(rec->s.init_pid, &rec->s.init_start_time) < 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                return sbx_error_set(reterr, -ESRCH, "sandbox '%s': init exited at once", rec->s.name);
        }
        rec->s.state = SBX_SANDBOX_RUNNING;
        rec->starting = false;
        rec->crashed = false;
        /* what docker inspect's NetworkSettings and sbx ls show */
        if (p->net.kind == SBX_NET_KIND_BRIDGE)
                inet_ntop(AF_INET, &p->net.addr, rec->s.ip_address, sizeof(rec->s.ip_address));
        snprintf(rec->s.gateway, sizeof(rec->s.gateway), "%s", p->net.gateway_addr);
        rec->s.started_ms = sbx_now_ms();
        r = sbx_record_save(rec, reterr);
        if (r < 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                return r;
        }
        /* The cgroup and the network's host side now belong to the sandbox,
         * not to this plan; teardown_runtime() removes them. */
        p->cgroup.path[0] = '\0';
        sbx_net_release(&p->net);
        return 0;
}

static void touch_busy(const char *name) {
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/%s/" SBX_BUSY_FILE, sbx_sandbox_root(), name);
        (void) utimensat(AT_FDCWD, path, NULL, 0);
}

static int start_ref(sbx_record *rec, const char *name, const void *arg, sbx_error *reterr) {
        int r;

        if (rec->s.state == SBX_SANDBOX_RUNNING || rec->s.state == SBX_SANDBOX_PAUSED)
                return 0;
        r = start_locked(rec, reterr);
        if (r < 0) {
                teardown_runtime(rec);
                (void) sbx_record_save(rec, NULL);
                return r;
        }
        touch_busy(name);
        return 0;
}

int sbx_sandbox_start(const char *ref, sbx_error *reterr) {
        return with_ref(ref, start_ref, NULL, reterr);
}

/* ------------------------------------------------------------- create */

static int validate_opts(const char *name, const sbx_sandbox_opts *o, sbx_error *reterr) {
        if (!sbx_sandbox_name_valid(name))
                return sbx_error_set(reterr, -EINVAL,
                                     "sandbox name '%s': use 1-%d characters of [a-zA-Z0-9_.-], starting with a "
                                     "letter or digit",
                                     name ?: "", SBX_SANDBOX_NAME_MAX);
        for (size_t i = 0; i < o->n_labels; i++) {
                const char *k = o->labels[i].key;
                if (!k || !*k || strchr(k, '=') || strpbrk(k, "\n\r\t") ||
                    (o->labels[i].value && strpbrk(o->labels[i].value, "\n\r")))
                        return sbx_error_set(reterr, -EINVAL, "--label '%s': invalid key or value", k ?: "");
        }
        if (o->config_hash && (strlen(o->config_hash) > SBX_SANDBOX_HASH_MAX || strpbrk(o->config_hash, "\n\"")))
                return sbx_error_set(reterr, -EINVAL, "config hash: longer than %d characters or not text",
                                     SBX_SANDBOX_HASH_MAX);
        if (o->workspace_mode < 0 || o->workspace_mode >= _SBX_WORKSPACE_MODE_MAX)
                return sbx_error_set(reterr, -EINVAL, "--workspace-mode: invalid value");
        return 0;
}

/* The record's config: host paths canonical, so inspect shows real sources. */
/* *path made absolute and free of links (realpath), in place; opt names it in the error. */
static int canonical_path(char **path, const char *opt, sbx_error *reterr) {
        char *canon = realpath(*path, NULL);

        if (!canon) {
                int err = errno;
                return sbx_error_set(reterr, -err, "%s '%s': %s", opt, *path, strerror(err));
        }
        free(*path);
        *path = canon;
        return 0;
}

/* The state dir base: the dir holding sandboxes/ (launch.h sbx_statedir_outside). */
static int outside_state(const char *path, const char *opt, sbx_error *reterr) {
        char root[PATH_MAX], *slash;

        snprintf(root, sizeof(root), "%s", sbx_sandbox_root());
        slash = strrchr(root, '/');
        if (slash && slash != root)
                *slash = '\0';
        return sbx_statedir_outside(path, root, opt, reterr);
}

/* A mount source (--workspace, --bind, docker -v) is resolved following no
 * symlink in any component (sbx_mount_source_resolve), and the record holds
 * the canonical path read back from what was opened: that name lies in
 * directories someone can write, and in OpenClaw's layout a sandbox can. A
 * shared-scope sandbox has the whole workspaceRoot read-write at
 * /workspace, holding every other session's and agent's workspace dir
 * (<workspaceRoot>/<slug>, bound at their /workspace, <slug>/skills at
 * /workspace/skills); replacing one (or a directory above an operator's
 * bind inside an rw workspace) with a symlink to a host directory (~/.ssh,
 * ~/.openclaw, /root) gave that directory, read-write, to the sandbox
 * created next (realpath followed it). start reopens the canonical path
 * following none. */
static int mount_source(char **path, const char *opt, sbx_error *reterr) {
        char *canon = NULL;
        int r = sbx_mount_source_resolve(*path, opt, &canon, reterr);

        if (r < 0)
                return r;
        free(*path);
        *path = canon;
        return 0;
}

static int canonical_config(sbx_run_config *c, sbx_workspace_mode mode, sbx_error *reterr) {
        int r = 0;

        if (mode == SBX_WORKSPACE_MODE_OVERLAY) {
                if (!c->workspace)
                        return sbx_error_set(reterr, -EINVAL, "--workspace-mode overlay: needs --workspace DIR");
                c->workspace_access = SBX_WORKSPACE_NONE;
        }
        if (c->workspace && (r = mount_source(&c->workspace, "--workspace", reterr)) >= 0)
                r = outside_state(c->workspace, "--workspace", reterr);
        for (size_t i = 0; r >= 0 && i < c->n_binds; i++) {
                const char *opt = c->binds[i].ro ? "--ro-bind" : "--bind";
                if ((r = mount_source(&c->binds[i].src, opt, reterr)) >= 0)
                        r = outside_state(c->binds[i].src, opt, reterr);
        }
        if (r >= 0 && c->rootfs)
                r = canonical_path(&c->rootfs, "--rootfs", reterr);
        /* absolute ones too: a missing profile fails create, not every start */
        if (r >= 0 && c->seccomp.profile_path)
                r = canonical_path((char **) &c->seccomp.profile_path, "--seccomp-profile", reterr);
        if (r < 0)
                return r;
        /* Text that start writes into the sandbox's /etc (hostname, hosts,
         * resolv.conf) is checked here with start's own rules, whichever
         * front end filled the config (sbx create checks it while parsing;
         * docker create did not): a record is only made for a config that
         * can start, and nothing is created for one that cannot. */
        if (c->hostname && (r = sbx_check_hostname("--hostname", c->hostname, reterr)) < 0)
                return r;
        for (size_t i = 0; i < c->n_dns; i++)
                if ((r = sbx_dns_parse(c->dns[i], reterr)) < 0)
                        return sbx_error_wrap(reterr, "--dns"), r;
        for (size_t i = 0; i < c->n_extra_hosts; i++) {
                sbx_extra_host h;
                if ((r = sbx_extra_host_parse(c->extra_hosts[i], &h, reterr)) < 0)
                        return sbx_error_wrap(reterr, "--add-host"), r;
        }
        free(c->state_dir);
        c->state_dir = NULL;
        return 0;
}

static int new_record(const char *name, const sbx_run_config *c, const sbx_sandbox_opts *o, sbx_record **ret,
                      sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = calloc(1, sizeof(sbx_record));
        unsigned char rnd[SBX_SANDBOX_ID_LEN / 2];
        char dir[PATH_MAX];
        int r;

        if (!rec)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        rec->s.exit_status = -1;
        snprintf(rec->s.name, sizeof(rec->s.name), "%s", name);
        if (o->id) {
                if (strlen(o->id) != SBX_SANDBOX_ID_LEN || strspn(o->id, "0123456789abcdef") != SBX_SANDBOX_ID_LEN)
                        return sbx_error_set(reterr, -EINVAL, "sandbox id '%s': not %d lowercase hex digits", o->id,
                                             SBX_SANDBOX_ID_LEN);
                snprintf(rec->s.id, sizeof(rec->s.id), "%s", o->id);
        } else {
                if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd))
                        return sbx_error_set(reterr, -errno, "getrandom");
                for (size_t i = 0; i < sizeof(rnd); i++)
                        snprintf(rec->s.id + 2 * i, 3, "%02x", rnd[i]);
        }
        rec->s.state = SBX_SANDBOX_CREATED;
        rec->s.created_ms = sbx_now_ms();
        rec->s.workspace_mode = o->workspace_mode;
        r = sbx_run_config_copy(&rec->s.config, c);
        if (r < 0)
                return sbx_error_set(reterr, r, "out of memory");
        r = canonical_config(&rec->s.config, o->workspace_mode, reterr);
        if (r < 0)
                return r;
        if (o->config_hash)
                snprintf(rec->s.config_hash, sizeof(rec->s.config_hash), "%s", o->config_hash);
        else if (sbx_sandbox_config_hash(&rec->s.config, rec->s.config_hash) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        /* issue 14: whose rules, and their hash */
        if (sbx_sandbox_policy_copy(&rec->s.policy, o->policy) < 0)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        if (rec->s.policy.agent) {
                sbx_sandbox_policy_hash(&rec->s.policy, &rec->s.config, rec->s.policy_hash);
                if (!rec->s.policy.config_stamp[0])
                        sbx_sandbox_policy_stamp(rec->s.policy.config_path, rec->s.policy.config_stamp);
        }
        rec->s.labels = calloc(o->n_labels + 1, sizeof(sbx_label));
        if (!rec->s.labels || (o->image && !(rec->s.image = strdup(o->image))))
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        for (size_t i = 0; i < o->n_labels; i++) {
                /* A repeated key: the last one wins, as in docker. */
                size_t k = 0;
                while (k < rec->s.n_labels && strcmp(rec->s.labels[k].key, o->labels[i].key))
                        k++;
                if (k == rec->s.n_labels) {
                        rec->s.labels[k].key = strdup(o->labels[i].key);
                        rec->s.n_labels++;
                }
                free(rec->s.labels[k].value);
                rec->s.labels[k].value = strdup(o->labels[i].value ?: "");
                if (!rec->s.labels[k].key || !rec->s.labels[k].value)
                        return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        sbx_sandbox_dir(name, dir, sizeof(dir));
        rec->s.state_dir = strdup(dir);
        if (!rec->s.state_dir || (rec->s.config.workspace && !(rec->s.workspace = strdup(rec->s.config.workspace))))
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        *ret = TAKE_PTR(rec);
        return 0;
}

/* The seccomp profile's text as it is now, into the state dir, which only
 * sbx writes: every start loads that copy, as docker reads the file once
 * at create (start_locked). */
static int copy_seccomp_profile(const sbx_record *rec, sbx_error *reterr) {
        const char *src = rec->s.config.seccomp.profile_path;
        char path[PATH_MAX + 32];
        _cleanup_free_ char *buf = NULL;
        size_t n;
        int r;

        if (!src)
                return 0;
        r = sbx_read_file("--seccomp-profile", src, SBX_SECCOMP_PROFILE_SIZE_MAX, &buf, &n, reterr);
        if (r < 0)
                return r;
        snprintf(path, sizeof(path), "%s/" SBX_SECCOMP_PROFILE_FILE, rec->s.state_dir);
        r = sbx_write_file_atomic(path, buf, n, 0600, false);
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': write '%s'", rec->s.name, path);
        return 0;
}

/* mkdir <name>, its lock (taken) and busy files, the record, the id link. */
static int create_state(sbx_record *rec, int *ret_lockfd, sbx_error *reterr) {
        char path[PATH_MAX + 64], link[PATH_MAX];
        _cleanup_close_ int fd = -EBADF;
        int r;

        if (mkdir(rec->s.state_dir, 0711) < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': create '%s'", rec->s.name, rec->s.state_dir);
        snprintf(path, sizeof(path), "%s/" SBX_LOCK_FILE, rec->s.state_dir);
        *ret_lockfd = lock_file(path, LOCK_EX, true, reterr);
        if (*ret_lockfd == -ENOENT)
                return sbx_error_set(reterr, -EIO, "sandbox '%s': '%s' was removed while being created",
                                     rec->s.name, rec->s.state_dir);
        if (*ret_lockfd < 0)
                return *ret_lockfd;
        snprintf(path, sizeof(path), "%s/" SBX_BUSY_FILE, rec->s.state_dir);
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': create '%s'", rec->s.name, path);
        r = copy_seccomp_profile(rec, reterr);
        if (r < 0)
                return r;
        r = sbx_record_save(rec, reterr);
        if (r < 0)
                return r;
        snprintf(link, sizeof(link), "%s/" BY_ID "/%s", sbx_sandbox_root(), rec->s.id);
        snprintf(path, sizeof(path), "../%s", rec->s.name);
        if (symlink(path, link) < 0)
                return sbx_error_set(reterr, -errno, "sandbox '%s': id link '%s'", rec->s.name, link);
        return 0;
}

int sbx_sandbox_create(const char *name, const sbx_run_config *c, const sbx_sandbox_opts *opts,
                       char ret_id[SBX_SANDBOX_ID_LEN + 1], sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int rootlock = -EBADF, lockfd = -EBADF;
        sbx_sandbox_opts none = {};
        struct stat st;
        int r;

        opts = opts ?: &none;
        r = validate_opts(name, opts, reterr);
        if (r < 0)
                return r;
        r = ensure_root(reterr);
        if (r < 0)
                return r;
        /* One create/rm at a time reserves a name: N parallel create-or-exec make
         * one sandbox. The root lock covers only the reservation (create_state);
         * the start runs under the sandbox's own lock, in parallel with other
         * creates. */
        rootlock = lock_root(LOCK_EX, reterr);
        if (rootlock < 0)
                return rootlock;
        r = new_record(name, c, opts, &rec, reterr);
        if (r < 0)
                return r;
        if (lstat(rec->s.state_dir, &st) == 0) {
                _cleanup_(sbx_record_freep) sbx_record *old = NULL;
                /* NAME exists and another sbx is changing it (starting, stopping,
                 * removing it, an exec joining it): a plain create says so at
                 * once, from its record; no create or rm waits for NAME with
                 * the root lock held. */
                lockfd = lock_name_under_root(name, &rootlock, opts->exist_ok, NULL);
                if (lockfd == -EWOULDBLOCK) {
                        if (sbx_record_load(name, &old, NULL) == 0 && old->complete)
                                return sbx_error_set(reterr, -EEXIST, "sandbox '%s' already exists (id %.12s)",
                                                     name, old->s.id);
                        old = sbx_record_free(old);
                        lockfd = lock_name_under_root(name, &rootlock, true, NULL);
                }
                if (rootlock < 0)
                        return sbx_error_set(reterr, rootlock, "sandbox '%s': lock the state root", name);
                r = lockfd < 0 ? lockfd : load_held(name, TAKE_FD(lockfd), true, true, true, &old, &lockfd, NULL);
                if (r == 0) {
                        if (!opts->exist_ok)
                                return sbx_error_set(reterr, -EEXIST, "sandbox '%s' already exists (id %.12s)", name,
                                                     old->s.id);
                        /* Asked for another configuration: keep it for ls and recreate. */
                        if (strcmp(old->s.config_hash, rec->s.config_hash))
                                (void) sbx_record_save_requested(name, &rec->s.config, rec->s.config_hash, NULL);
                        if (opts->start && old->s.state != SBX_SANDBOX_RUNNING && old->s.state != SBX_SANDBOX_PAUSED) {
                                r = start_locked(old, reterr);
                                if (r < 0) {
                                        teardown_runtime(old);
                                        (void) sbx_record_save(old, NULL);
                                        return r;
                                }
                        }
                        if (ret_id)
                                memcpy(ret_id, old->s.id, SBX_SANDBOX_ID_LEN + 1);
                        return 1;
                }
                /* A leftover of a create that died: clear it and go on. */
                closep(&lockfd);
                (void) remove_state(name, NULL);
        }
        r = create_state(rec, &lockfd, reterr);
        /* The name is taken (its dir, lock held, record complete=false): other
         * creates and rms of this name wait on its lock, and every other
         * name is free to be created meanwhile. */
        closep(&rootlock);
        if (r == 0 && opts->start) {
                r = start_locked(rec, reterr);
                /* -EEXIST and -ENOENT tell the caller about NAME itself ("exists",
                 * exit 1); a start that failed on something else (a link in the
                 * way, a network container that is missing) is sbx failing. */
                if (r == -EEXIST || r == -ENOENT)
                        r = -EIO;
        }
        if (r < 0) {
                /* Nothing half-created is left behind. */
                teardown_runtime(rec);
                (void) remove_state(name, rec->s.id);
                return r;
        }
        rec->complete = true;
        r = sbx_record_save(rec, reterr);
        if (r < 0) {
                teardown_runtime(rec);
                (void) remove_state(name, rec->s.id);
                return r;
        }
        touch_busy(name);
        if (ret_id)
                memcpy(ret_id, rec->s.id, SBX_SANDBOX_ID_LEN + 1);
        return 0;
}

/* ------------------------------------------------------------- stop/rm */

/* The wait status of init, which ended, from the kernel: while it is a
 * zombie from /proc/PID/stat (its parent now, the host's pid 1 or a
 * subreaper, reaps it when it will), once reaped from the pidfd opened
 * before (Linux >= 6.15: PIDFD_GET_INFO, PIDFD_INFO_EXIT). Asked for up to
 * 0.1 s (the two answers cross at the reap); -1 if neither says. */
struct pidfd_info_v0 {
        uint64_t mask, cgroupid;
        uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
        int32_t exit_code;
};
#define PIDFD_GET_INFO_V0 _IOWR(0xFF, 11, struct pidfd_info_v0)
#define PIDFD_INFO_EXIT_BIT (1ULL << 3)

static int init_exit_status(int pidfd, pid_t pid, uint64_t start_time) {
        for (int i = 0; i < 10; i++) {
                struct pidfd_info_v0 info = { .mask = PIDFD_INFO_EXIT_BIT };
                int r = sbx_proc_zombie_status(pid, start_time);
                if (r >= 0)
                        return r;
                if (ioctl(pidfd, PIDFD_GET_INFO_V0, &info) == 0 && (info.mask & PIDFD_INFO_EXIT_BIT))
                        return info.exit_code;
                (void) usleep(10000);
        }
        return -1;
}

static int stop_locked(sbx_record *rec, unsigned timeout_sec, bool kill_now) {
        _cleanup_close_ int pidfd = sbx_init_pidfd(rec->s.init_pid, rec->s.init_start_time);

        if (pidfd >= 0) {
                bool killed = false;
                if (rec->s.state == SBX_SANDBOX_PAUSED) {
                        (void) freeze_sandbox(rec, false, &(sbx_error) {});
                        (void) for_each_sandbox_pid(rec->s.init_pid, rec->s.init_start_time, SIGCONT);
                }
                /* init answers SIGTERM by stopping everything (see init.c). A
                 * timeout of 0 is SIGKILL at once, as docker stop -t 0 (its wait
                 * for the stop signal is 0 s): exit status 137, never 143. */
                if (kill_now || !timeout_sec || sys_pidfd_send_signal(pidfd, SIGTERM) < 0 ||
                    !pidfd_wait(pidfd, (int) timeout_sec * 1000)) {
                        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                        (void) pidfd_wait(pidfd, 10000);
                        killed = true;
                }
                rec->s.finished_ms = sbx_now_ms();
                rec->s.exit_status = init_exit_status(pidfd, rec->s.init_pid, rec->s.init_start_time);
                if (rec->s.exit_status < 0) /* an older kernel: what init gives on each path */
                        rec->s.exit_status = killed ? SIGKILL : (128 + SIGTERM) << 8;
        }
        teardown_runtime(rec);
        rec->crashed = false;
        return 0;
}

static int stop_ref(sbx_record *rec, const char *name, const void *timeout_sec, sbx_error *reterr) {
        if (rec->s.state != SBX_SANDBOX_RUNNING && rec->s.state != SBX_SANDBOX_PAUSED)
                return 0;
        stop_locked(rec, *(const unsigned *) timeout_sec, false);
        return sbx_record_save(rec, reterr);
}

int sbx_sandbox_stop(const char *ref, unsigned timeout_sec, sbx_error *reterr) {
        return with_ref(ref, stop_ref, &timeout_sec, reterr);
}

/* A removed sandbox's state dir is deleted after the root lock is let go.
 * Its layers (a writable root's upper, an overlay workspace's) are the
 * sandbox's own files, as many as it made: 300,000 empty files took 5.5 s
 * to delete, and with the root lock held that long every create and rm of
 * every other sandbox of the state root (OpenClaw's other sessions and
 * agents) waited. Under the locks the dir is only renamed to ".rm-<random>"
 * (out of the name space: list() skips dot names) and flock()ed, its lock
 * and busy files unlinked (a waiting exec sees "no such sandbox", as
 * before); the tree goes after. A trash dir nobody holds (its remover was
 * killed) is collected by the next rm or prune. */
#define TRASH_PREFIX ".rm-"

typedef struct trash {
        int dirfd;                      /* the renamed dir, flock()ed LOCK_EX */
        char name[sizeof(TRASH_PREFIX) + 16];
} trash;

static int trash_state(const char *name, const char *id, trash *t) {
        _cleanup_close_ int rootfd = open(sbx_sandbox_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), dfd = -EBADF;
        unsigned char rnd[8];
        char link[SBX_SANDBOX_ID_LEN + 16];

        if (rootfd < 0)
                return -errno;
        dfd = openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0)
                return -errno;
        if (flock(dfd, LOCK_EX | LOCK_NB) < 0 || getrandom(rnd, sizeof(rnd), 0) != (ssize_t) sizeof(rnd))
                return -errno;
        snprintf(t->name, sizeof(t->name), TRASH_PREFIX "%02x%02x%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2],
                 rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
        if (renameat(rootfd, name, rootfd, t->name) < 0)
                return -errno;
        if (id && id[0]) {
                snprintf(link, sizeof(link), BY_ID "/%s", id);
                (void) unlinkat(rootfd, link, 0);
        }
        (void) unlinkat(dfd, SBX_LOCK_FILE, 0);
        (void) unlinkat(dfd, SBX_BUSY_FILE, 0);
        t->dirfd = TAKE_FD(dfd);
        return 0;
}

/* Delete the tree trash_state() set aside (root lock NOT held). */
static int trash_delete(int rootfd, trash *t) {
        int r = 0;

        if (t->name[0])
                r = rootfd >= 0 ? sbx_rm_rf_at(rootfd, t->name) : -EBADF;
        closep(&t->dirfd);
        t->dirfd = -EBADF;
        return r;
}

/* Any trash dir no remover holds (its remover was killed). This reads the
 * whole state root, so a batch (sbx_sandbox_remove_many) does it once at
 * its end, not after each removal: at 10,000 sandboxes one read of the
 * root is ~10,000 entries, and per removal that made rm --all O(N^2). */
static void trash_sweep(int rootfd) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int dfd;

        if (rootfd < 0 || (dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3)) < 0)
                return;
        d = fdopendir(dfd);
        if (!d) {
                close(dfd);
                return;
        }
        while ((de = readdir(d))) {
                _cleanup_close_ int fd = -EBADF;
                if (strncmp(de->d_name, TRASH_PREFIX, strlen(TRASH_PREFIX)) != 0)
                        continue;
                fd = openat(rootfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
                        (void) sbx_rm_rf_at(rootfd, de->d_name);
        }
}

/* Root lock *ROOTLOCK held (let go while a busy NAME is waited for). idle_only:
 * skip (-EBUSY) if an exec runs. The state dir is set aside in *t;
 * trash_delete() deletes it once the root lock is free. */
static int remove_locked(const char *name, int *rootlock, bool force, bool idle_only, trash *t, sbx_error *reterr) {
        _cleanup_(sbx_record_freep) sbx_record *rec = NULL;
        _cleanup_close_ int lockfd = -EBADF, busy = -EBADF;
        int r;

        r = load_fresh_under_root(name, rootlock, &rec, &lockfd, reterr);
        if (r < 0)
                return r;
        if (idle_only) {
                busy = sbx_sandbox_lock(name, SBX_BUSY_FILE, LOCK_EX | LOCK_NB, NULL);
                if (busy < 0)
                        return sbx_error_set(reterr, -EBUSY, "sandbox '%s' has a running exec", name);
        }
        if ((rec->s.state == SBX_SANDBOX_RUNNING || rec->s.state == SBX_SANDBOX_PAUSED) && !force)
                return sbx_error_set(reterr, -EBUSY,
                                     "sandbox '%s' is running: stop it first or remove it with -f (force)", name);
        stop_locked(rec, 0, true);
        /* set aside (renamed, O(1)); where that fails, deleted here as before */
        r = trash_state(name, rec->s.id, t);
        if (r < 0) {
                t->name[0] = '\0';
                r = remove_state(name, rec->s.id);
        }
        if (r < 0)
                return sbx_error_set(reterr, r, "sandbox '%s': remove '%s'", name, rec->s.state_dir);
        return 0;
}

/* One removal (root lock taken and let go here), its trash deleted at
 * once; rootfd: the open state root. */
static int remove_one(int rootfd, const char *ref, bool force, sbx_error *reterr) {
        _cleanup_close_ int rootlock = -EBADF;
        char name[SBX_SANDBOX_NAME_MAX + 1];
        trash t = { .dirfd = -EBADF };
        int r, q;

        r = sbx_sandbox_resolve(ref, name, reterr);
        if (r < 0)
                return r;
        rootlock = lock_root(LOCK_EX, reterr);
        if (rootlock < 0)
                return rootlock;
        /* a bridged sandbox's host side goes in teardown_runtime() (issue 7) */
        r = remove_locked(name, &rootlock, force, false, &t, reterr);
        closep(&rootlock);
        rootlock = -EBADF;
        q = trash_delete(rootfd, &t);
        if (r >= 0 && q < 0)
                return sbx_error_set(reterr, q, "sandbox '%s': remove its state dir", name);
        return r;
}

int sbx_sandbox_remove(const char *ref, bool force, sbx_error *reterr) {
        _cleanup_close_ int rootfd = open(sbx_sandbox_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int r = remove_one(rootfd, ref, force, reterr);

        trash_sweep(rootfd);
        return r;
}

int sbx_sandbox_remove_many(const char *const *refs, size_t n, bool force,
                            void (*done)(size_t i, int r, const sbx_error *e, void *userdata), void *userdata) {
        _cleanup_close_ int rootfd = open(sbx_sandbox_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int ret = 0;

        for (size_t i = 0; i < n; i++) {
                sbx_error e = {};
                int r = remove_one(rootfd, refs[i], force, &e);

                if (r < 0 && ret == 0)
                        ret = r;
                if (done)
                        done(i, r, &e, userdata);
        }
        trash_sweep(rootfd);
        return ret;
}

void sbx_sandbox_kill_all(sbx_sandbox *const *list, size_t n) {
        for (size_t i = 0; i < n; i++) {
                _cleanup_close_ int pidfd = -EBADF;
                if (list[i]->state != SBX_SANDBOX_RUNNING && list[i]->state != SBX_SANDBOX_PAUSED)
                        continue;
                pidfd = sbx_init_pidfd(list[i]->init_pid, list[i]->init_start_time);
                if (pidfd >= 0)
                        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
        }
}

static int set_paused(sbx_record *rec, const char *name, const void *arg, sbx_error *reterr) {
        bool pause = *(const bool *) arg;
        int r;

        if (rec->s.state != (pause ? SBX_SANDBOX_RUNNING : SBX_SANDBOX_PAUSED))
                return sbx_error_set(reterr, rec->s.state == SBX_SANDBOX_STOPPED || rec->s.state == SBX_SANDBOX_CREATED
                                                     ? -ESRCH : -EALREADY,
                                     "sandbox '%s' is %s", name, sbx_sandbox_state_to_string(rec->s.state));
        /* The cgroup freezer where the sandbox has one (issue 15: v1
         * freezer or v2 cgroup.freeze; every sandbox with the default pids
         * cap has a cgroup). Without: stop every process, two passes catch
         * what forked during the first. */
        r = freeze_sandbox(rec, pause, reterr);
        if (r < 0)
                return sbx_error_wrap(reterr, "sandbox '%s'", name);
        for (int pass = 0; pass < (r == 0 ? (pause ? 2 : 1) : 0); pass++) {
                r = for_each_sandbox_pid(rec->s.init_pid, rec->s.init_start_time, pause ? SIGSTOP : SIGCONT);
                if (r < 0)
                        return sbx_error_set(reterr, r, "sandbox '%s': signal its processes", name);
        }
        rec->s.state = pause ? SBX_SANDBOX_PAUSED : SBX_SANDBOX_RUNNING;
        return sbx_record_save(rec, reterr);
}

int sbx_sandbox_pause(const char *ref, sbx_error *reterr) {
        return with_ref(ref, set_paused, &(const bool) { true }, reterr);
}

int sbx_sandbox_unpause(const char *ref, sbx_error *reterr) {
        return with_ref(ref, set_paused, &(const bool) { false }, reterr);
}

/* ------------------------------------------------------------- prune */

int sbx_sandbox_prune(const sbx_prune_opts *o, char ***ret_names, size_t *ret_n, sbx_error *reterr) {
        sbx_sandbox **list = NULL;
        char **names = NULL;
        size_t n = 0, removed = 0;
        uint64_t now = sbx_now_ms();
        _cleanup_close_ int rootfd = -EBADF;
        int r;

        if (ret_names) {
                *ret_names = NULL;
                *ret_n = 0;
        }
        r = sbx_sandbox_list(o->filter, o->n_filter, &list, &n, reterr);
        if (r < 0)
                return r;
        rootfd = open(sbx_sandbox_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        for (size_t i = 0; i < n; i++) {
                const sbx_sandbox *s = list[i];
                const sbx_record *rec = (const sbx_record *) s;
                bool idle = o->idle_hours > 0 && now - s->last_used_ms > (uint64_t) (o->idle_hours * 3600e3);
                bool old = o->max_age_days > 0 && now - s->created_ms > (uint64_t) (o->max_age_days * 86400e3);
                _cleanup_close_ int rootlock = -EBADF;
                trash t = { .dirfd = -EBADF };

                if (!idle && !old && !rec->crashed)
                        continue;
                if (o->dry_run)
                        r = 0;
                else {
                        rootlock = lock_root(LOCK_EX, NULL);
                        r = rootlock < 0 ? rootlock : remove_locked(s->name, &rootlock, true, true, &t, NULL);
                        closep(&rootlock);
                        rootlock = -EBADF;
                        (void) trash_delete(rootfd, &t);
                }
                if (r < 0)
                        continue;
                removed++;
                if (ret_names) {
                        char **nn = realloc(names, sizeof(char *) * (removed + 1));
                        if (nn) {
                                names = nn;
                                names[removed - 1] = strdup(s->name);
                                names[removed] = NULL;
                        }
                }
        }
        sbx_sandbox_list_free(list, n);
        if (!o->dry_run)
                trash_sweep(rootfd);
        /* what crashed sandboxes and SIGKILLed runs left on the host (issue 7) */
        if (!o->dry_run) {
                (void) sbx_net_gc(NULL);
                /* empty sandbox cgroups of SIGKILLed creates/starts (issue 15) */
                (void) sbx_cgroup_gc(60);
        }
        if (ret_names) {
                *ret_names = names;
                *ret_n = names ? removed : 0;
        }
        return (int) removed;
}

/* ------------------------------------------------------------- recreate */

int sbx_sandbox_recreate(const char *ref, const sbx_run_config *c, const char *config_hash, sbx_error *reterr) {
        _cleanup_(sbx_sandbox_freep) sbx_sandbox *s = NULL;
        sbx_sandbox_opts o;
        char name[SBX_SANDBOX_NAME_MAX + 1];
        int r;

        _cleanup_(sbx_run_config_free) sbx_run_config requested = {};
        char requested_hash[SBX_SANDBOX_HASH_MAX + 1];
        bool have_requested;

        r = sbx_sandbox_lookup(ref, &s, reterr);
        if (r < 0)
                return r;
        snprintf(name, sizeof(name), "%s", s->name);
        have_requested = !c && sbx_record_load_requested(name, &requested, requested_hash) == 0;
        if (have_requested) {
                c = &requested;
                config_hash = config_hash ?: requested_hash;
        }
        o = (sbx_sandbox_opts) {
                .labels = s->labels, .n_labels = s->n_labels, .image = s->image,
                .workspace_mode = s->workspace_mode, .start = true, .policy = &s->policy,
                /* An explicit hash, or the old one when the config is unchanged. */
                .config_hash = config_hash ?: (c ? NULL : s->config_hash),
        };
        r = sbx_sandbox_remove(name, true, reterr);
        if (r < 0)
                return r;
        r = sbx_sandbox_create(name, c ?: &s->config, &o, NULL, reterr);
        if (have_requested) {
                free((char *) requested.seccomp.profile_path);
                requested.seccomp.profile_path = NULL;
        }
        return r < 0 ? r : 0;
}

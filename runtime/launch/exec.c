/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include "launch.h"
#include "util/util.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static int env_set(char **envp, size_t *n, const char *kv) {
        size_t klen = strcspn(kv, "=");

        for (size_t i = 0; i < *n; i++)
                if (!strncmp(envp[i], kv, klen) && envp[i][klen] == '=') {
                        envp[i] = (char *) kv;
                        return 0;
                }
        envp[(*n)++] = (char *) kv;
        return 0;
}

/* The kernel charges a sandbox's POSIX message queue bytes, queued signals
 * and SHM_LOCKed memory to its user namespace's creator too (host root, or
 * rootless the caller: the gateway), against the creator's own rlimits. With
 * ours, one sandbox took the whole budget, and the creator's other processes
 * got EMFILE from mq_open, EAGAIN from sigqueue, ENOMEM from SHM_LOCK while it
 * held it. Unless the run sets one (--ulimit), a sandbox gets an eighth of
 * ours, soft and hard, so it cannot raise it back; unlimited stays unlimited. */
/* Processes and threads: without a pids cgroup (a hybrid host, none
 * delegated: sbx's default pids cap is skipped there) only RLIMIT_NPROC stops
 * a fork bomb, and ours can be above the host's kernel.pid_max or
 * kernel.threads-max (root's 96363 against 32768 pids): one sandbox took
 * every pid, and no host process, root's included, could fork. A sandbox gets
 * at most an eighth of the smaller of the two. */
static uint64_t nproc_share(uint64_t cur) {
        long pid_max = sbx_read_sysctl("/proc/sys/kernel/pid_max");
        long threads = sbx_read_sysctl("/proc/sys/kernel/threads-max");
        long host = pid_max > 0 && (threads <= 0 || pid_max < threads) ? pid_max : threads;
        uint64_t share;

        if (host <= 0)
                return cur;
        share = host / 8 > 0 ? (uint64_t) host / 8 : 1;
        return share < cur ? share : cur;
}

static void creator_shares(sbx_plan *p) {
        static const int charged[] = { RLIMIT_MSGQUEUE, RLIMIT_SIGPENDING, RLIMIT_MEMLOCK, RLIMIT_NPROC };

        for (size_t i = 0; i < ELEMENTSOF(charged); i++) {
                struct rlimit rl;
                uint64_t share;
                bool set = false;

                for (size_t j = 0; j < p->n_rlimits; j++)
                        set = set || p->rlimits[j].resource == charged[i];
                if (set || p->n_rlimits >= SBX_RLIMITS_MAX || getrlimit(charged[i], &rl) < 0)
                        continue;
                if (charged[i] == RLIMIT_NPROC)
                        share = nproc_share(rl.rlim_cur);
                else if (rl.rlim_cur == RLIM_INFINITY)
                        continue;
                else
                        share = rl.rlim_cur / 8;
                p->rlimits[p->n_rlimits++] = (sbx_rlimit) { .resource = charged[i], .soft = share, .hard = share };
        }
}

/* A crash inside a sandbox with a piped kernel.core_pattern (apport,
 * systemd-coredump) starts the helper as host root, in the host's
 * namespaces, whatever RLIMIT_CORE is, with one exception: a soft limit of
 * exactly 1, the kernel's guard against a crashing helper, which is also
 * below every file dump's minimum. Unless --ulimit sets it, a sandbox's
 * RLIMIT_CORE is 1:1 (it may not raise it) and the always-on filter answers
 * a change of it (down to 0, which would open the pipe again) with success
 * and no effect. */
static void no_core_helper(sbx_plan *p) {
        for (size_t j = 0; j < p->n_rlimits; j++)
                if (p->rlimits[j].resource == RLIMIT_CORE)
                        return;
        if (p->n_rlimits < SBX_RLIMITS_MAX)
                p->rlimits[p->n_rlimits++] = (sbx_rlimit) { .resource = RLIMIT_CORE, .soft = 1, .hard = 1 };
}

int sbx_exec_prepare(sbx_plan *p, const sbx_run_config *c, sbx_error *reterr) {
        size_t argc = 0, n = 0;
        const char *term = getenv("TERM");

        if (!c->argv || !c->argv[0] || !c->argv[0][0])
                return sbx_error_set(reterr, -EINVAL, "no command given");
        while (c->argv[argc])
                argc++;
        p->argv = calloc(argc + 1, sizeof(char *));
        p->envp = calloc(c->n_env + 6, sizeof(char *));
        if (!p->argv || !p->envp)
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        memcpy(p->argv, c->argv, argc * sizeof(char *));

        /* A clean environment: sane defaults, then exactly what was configured. */
        env_set(p->envp, &n, "PATH=" DEFAULT_PATH);
        env_set(p->envp, &n, c->uid == 0 ? "HOME=/root" : "HOME=/workspace");
        env_set(p->envp, &n, "LANG=C.UTF-8");
        if (c->tty)
                env_set(p->envp, &n, sbx_plan_strdupf(p, "TERM=%s", term && *term && !strchr(term, '/') ? term : "xterm"));
        for (size_t i = 0; i < c->n_env; i++)
                env_set(p->envp, &n, c->envv[i]);
        p->envp[n] = NULL;
        p->path_env = DEFAULT_PATH;
        for (size_t i = 0; i < n; i++)
                if (!strncmp(p->envp[i], "PATH=", 5))
                        p->path_env = p->envp[i] + 5;

        p->workdir = sbx_plan_strdup(p, c->workdir ?: "/workspace");
        if (c->setup_command && !(p->setup_command = sbx_plan_strdup(p, c->setup_command)))
                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
        p->hostname = sbx_plan_strdup(p, c->hostname ?: "sbx");
        if (!p->workdir || !p->hostname || p->workdir[0] != '/')
                return sbx_error_set(reterr, -EINVAL, "--workdir '%s': must be an absolute path", c->workdir ?: "");
        if (strlen(p->hostname) > 64)
                return sbx_error_set(reterr, -EINVAL, "--hostname '%s': longer than 64 bytes", p->hostname);
        memcpy(p->rlimits, c->rlimits, sizeof(p->rlimits));
        p->n_rlimits = c->n_rlimits;
        creator_shares(p);
        no_core_helper(p);
        return 0;
}

void sbx_exec_plan_from(const sbx_plan *p, sbx_exec_plan *ret) {
        *ret = (sbx_exec_plan) {
                .argv = p->argv, .envp = p->envp, .path_env = p->path_env, .workdir = p->workdir,
                .rlimits = p->rlimits, .n_rlimits = p->n_rlimits, .cap_last = p->cap_last,
                .uid = p->uid, .gid = p->gid, .bpf = &p->bpf, .tty_fd = -EBADF,
                .exec_fd = p->exec_fd, .exec_argv = p->exec_argv, .landlock = &p->landlock,
                .setup_sh_fd = p->setup_sh_fd, .notify_insns = p->notify_insns, .notify_len = p->notify_len,
                .notify_cookie = p->notify_cookie,
        };
        /* a file decided in the sandbox (not sbx's own binary, opened by name) */
        if (!p->exec_fd_own && p->exec_target && p->exec_target->n_chain > 0 &&
            p->exec_target->chain[p->exec_target->n_chain - 1].path[0] == '/')
                ret->exec_path = p->exec_target->chain[p->exec_target->n_chain - 1].path;
}

#define OVERLAYFS_MAGIC 0x794c7630

/* The decided file, reopened by its sandbox path from inside the sandbox: the
 * fd the parent opened belongs to the parent's mounts, so exec'ing it would
 * make /proc/self/exe name (and reopen) the host's file, past a read-only
 * bind or an overlay. The one found must be the one decided on: the same
 * inode (through an overlay: the same inode number, size and mtime, as
 * overlayfs reports the lower file's). Returns the fd to run or -errno. */
static int reopen_in_sandbox(const sbx_exec_plan *e) {
        struct stat want, got;
        struct statfs fs;
        int fd;

        if (!e->exec_path)
                return e->exec_fd;
        fd = sys_openat2(AT_FDCWD, e->exec_path, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (fd < 0)
                return -errno;
        if (fstat(e->exec_fd, &want) < 0 || fstat(fd, &got) < 0 || !S_ISREG(got.st_mode))
                goto changed;
        if (want.st_dev == got.st_dev && want.st_ino == got.st_ino)
                return fd;
        if (fstatfs(fd, &fs) == 0 && fs.f_type == OVERLAYFS_MAGIC && want.st_ino == got.st_ino &&
            want.st_size == got.st_size && want.st_mtim.tv_sec == got.st_mtim.tv_sec &&
            want.st_mtim.tv_nsec == got.st_mtim.tv_nsec)
                return fd;
changed:
        close(fd);
        return -ESTALE;
}

/* ---------------------------------------------------------------- child */

/* Fallback when close_range() is missing: mark every fd >= 3 CLOEXEC. */
static int cloexec_sweep_proc(void) {
        char buf[1024];
        int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        long n;

        if (dfd < 0)
                return -errno;
        while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
                for (long off = 0; off < n;) {
                        struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; } *d =
                                (void *) (buf + off);
                        int fd = atoi(d->name);
                        if (d->name[0] >= '0' && d->name[0] <= '9' && fd >= 3 && fd != dfd &&
                            fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
                                close(dfd);
                                return -errno;
                        }
                        off += d->reclen;
                }
        }
        close(dfd);
        return n < 0 ? -errno : 0;
}

/* A new session: no controlling terminal shared with the caller (TIOCSTI
 * on the caller's tty needs it as ctty, or CAP_SYS_ADMIN); the pty, if any,
 * becomes stdio and the ctty; a fresh anonymous session keyring. */
static int new_session(const sbx_exec_plan *e, sbx_error *reterr) {
        if (setsid() < 0)
                return sbx_error_set(reterr, -errno, "setsid");
        if (e->tty_fd >= 0) {
                if (ioctl(e->tty_fd, TIOCSCTTY, 0) < 0)
                        return sbx_error_set(reterr, -errno, "tty: make the pty the controlling terminal");
                for (int i = 0; i < 3; i++)
                        if (dup2(e->tty_fd, i) < 0)
                                return sbx_error_set(reterr, -errno, "tty: dup2 onto fd %d", i);
        }
        if (!e->keyring_joined && (!e->proc || e->proc->new_keyring) && syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 &&
            errno != ENOSYS)
                return sbx_error_set(reterr, -errno, "keyctl: join a new session keyring");
        return 0;
}

static int fail(sbx_error *reterr, int status, int code, const char *step, const char *what) {
        sbx_error_set(reterr, code, "%s '%s'", step, what);
        return status;
}

/* chdir(dir), then insist the result lies inside our root: a dir of
 * /proc/self/fd/N resolves through an fd still open here (one the caller
 * passed without CLOEXEC: marked CLOEXEC, not closed) to a directory of the
 * host; the kernel then gives getcwd() "(unreachable)..." and glibc ENOENT
 * (CVE-2024-21626's class, as runc checks it). */
static int chdir_inside(sbx_error *reterr, const char *step, const char *dir) {
        char cwd[PATH_MAX];

        if (chdir(dir) < 0)
                return fail(reterr, SBX_EXIT_FAILURE, -errno, step, dir);
        if (!getcwd(cwd, sizeof(cwd)) || cwd[0] != '/')
                return sbx_error_set(reterr, -EPERM, "%s '%s': outside the root (an fd of the caller's?)", step,
                                     dir), SBX_EXIT_FAILURE;
        return 0;
}

/* An OCI container's argv[0]: a path, or looked up in the process's PATH
 * inside the container (as runc does); no allocation. */
static int exec_container(const sbx_exec_plan *e) {
        const char *name = e->argv[0], *path = e->path_env;
        char buf[PATH_MAX];
        int last = ENOENT;

        if (strchr(name, '/')) {
                execve(name, e->argv, e->envp);
                return -errno;
        }
        while (path && *path) {
                size_t len = strcspn(path, ":");
                if (len + strlen(name) + 2 <= sizeof(buf)) {
                        memcpy(buf, len ? path : ".", len ? len : 1);
                        buf[len ? len : 1] = '/';
                        strcpy(buf + (len ? len : 1) + 1, name);
                        execve(buf, e->argv, e->envp);
                        if (errno != ENOENT && errno != ENOTDIR)
                                last = errno;
                }
                path += len + (path[len] == ':');
        }
        return -last;
}

/* The decided file reopened in the sandbox: 0 with *ret_fd, or the exit
 * status with reterr filled. */
static int open_decided(const sbx_exec_plan *e, int *ret_fd, sbx_error *reterr) {
        int fd = reopen_in_sandbox(e);

        if (fd == -ESTALE)
                return fail(reterr, SBX_EXIT_CANNOT_EXEC, fd, "exec: the file changed between the decision and the exec:",
                            e->exec_path);
        if (fd < 0)
                return fail(reterr, SBX_EXIT_CANNOT_EXEC, fd, "exec: reopen in the sandbox", e->exec_path);
        *ret_fd = fd;
        return 0;
}

/* An OCI container after its credentials: exactly the spec's process. */
/* issue 14: the exec log's filter, and its listener out to the parent. */
static int exec_log_child(const sbx_exec_plan *e, sbx_error *reterr) {
        int lfd, r;

        if (!e->notify_insns)
                return 0;
        lfd = sbx_seccomp_exec_notify_child(e->notify_insns, e->notify_len);
        if (lfd < 0)
                return sbx_error_set(reterr, lfd, "seccomp: install the exec log filter"), SBX_EXIT_FAILURE;
        r = sbx_sync_send_fd(e->notify_sock, 1, SBX_SYNC_LISTENER, lfd);
        close(lfd);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: hand the exec log listener out"), SBX_EXIT_FAILURE;
        return 0;
}

static int exec_container_rest(const sbx_exec_plan *e, sbx_error *reterr) {
        const sbx_container_proc *pr = e->proc;
        int r, exec_fd = -EBADF;

        if (pr->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "process.noNewPrivileges"), SBX_EXIT_FAILURE;
        /* an agent's rules (the front end set no_new_privs with them) */
        if (e->landlock && sbx_landlock_setup_child(e->landlock, reterr) < 0)
                return SBX_EXIT_FAILURE;
        if (pr->umask >= 0)
                umask((mode_t) pr->umask);
        if (close_range(3 + (unsigned) pr->preserve_fds, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
                r = cloexec_sweep_proc();
                if (r < 0)
                        return sbx_error_set(reterr, r, "close stray fds"), SBX_EXIT_FAILURE;
        }
        r = chdir_inside(reterr, "process.cwd: chdir", e->workdir);
        if (r > 0)
                return r;
        if (e->exec_fd >= 0 && (r = open_decided(e, &exec_fd, reterr)) > 0)
                return r;
        /* an agent's rules in `sbx-runc exec`: every exec of the tree logged */
        r = exec_log_child(e, reterr);
        if (r > 0)
                return r;
        /* seccomp last; without no_new_privs the filter needs CAP_SYS_ADMIN,
         * which the spec's sets may have dropped: the kernel says so */
        if (pr->no_new_privs && e->bpf && e->bpf->len) {
                r = sbx_seccomp_setup_child(e->bpf);
                if (r < 0)
                        return sbx_error_set(reterr, r, "linux.seccomp: install filter"), SBX_EXIT_FAILURE;
        }
        /* an agent's rules: the file decided on before clone3, run after seccomp */
        if (exec_fd >= 0) {
                syscall(SYS_execveat, exec_fd, "", e->exec_argv, e->envp, AT_EMPTY_PATH, e->notify_cookie);
                return fail(reterr, errno == ENOENT ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_EXEC, -errno, "exec",
                            e->exec_argv[0]);
        }
        r = exec_container(e);
        if (r == -ENOENT)
                return fail(reterr, SBX_EXIT_NOT_FOUND, r, "exec: process.args[0]", e->argv[0]);
        return fail(reterr, SBX_EXIT_CANNOT_EXEC, r, "exec: process.args[0]", e->argv[0]);
}

/* a and b (absolute) are the same path or one lies beneath the other */
static bool path_overlaps(const char *a, const char *b) {
        size_t la = strlen(a), lb = strlen(b), l = la < lb ? la : lb;

        if (!strcmp(a, "/") || !strcmp(b, "/"))
                return true;
        return !strncmp(a, b, l) && (la == lb || (la > l ? a[l] : b[l]) == '/');
}

/* mountinfo's octal escapes (\040 space, \011, \012, \134) undone in place */
static void unescape_octal(char *s) {
        char *w = s;

        for (; *s; s++, w++) {
                if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
                    s[3] <= '7') {
                        *w = (char) ((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
                        s += 3;
                } else
                        *w = *s;
        }
        *w = '\0';
}

/* What mountinfo line LINE's mount needs: MOUNT_ATTR_RDONLY and/or
 * MOUNT_ATTR_NOEXEC, 0 for nothing; its id and mount point in *id, *mp. */
static uint64_t mount_needs(const sbx_exec_plan *e, char *line, unsigned long *id, char **mp) {
        char *f[6], *sep, *fstype, *save = NULL;
        bool rw = false, noexec = false, exec_there = false, dev;
        uint64_t set = 0;

        sep = strstr(line, " - ");
        if (!sep)
                return 0;
        *sep = '\0';
        fstype = strtok_r(sep + 3, " ", &save);
        save = NULL;
        for (int i = 0; i < 6; i++)
                if (!(f[i] = strtok_r(i ? NULL : line, " ", &save)))
                        return 0;
        *id = strtoul(f[0], NULL, 10);
        unescape_octal(f[4]);
        *mp = f[4];
        save = NULL;
        for (char *o = strtok_r(f[5], ",", &save); o; o = strtok_r(NULL, ",", &save)) {
                rw = rw || !strcmp(o, "rw");
                noexec = noexec || !strcmp(o, "noexec");
        }
        if (!rw || !fstype || !strcmp(fstype, "proc") || !strcmp(fstype, "sysfs"))
                return 0;
        dev = !strcmp(*mp, "/dev") || !strncmp(*mp, "/dev/", 5);
        /* (the root keeps its flags, as at create: exec-decide.c readonly_mounts) */
        if (e->mounts_ro_now && strcmp(*mp, "/") && strcmp(fstype, "tmpfs") && !dev && strcmp(fstype, "devpts") &&
            strcmp(fstype, "mqueue"))
                set |= MOUNT_ATTR_RDONLY;
        if (e->mounts_noexec_now && !noexec && e->landlock_now) {
                for (unsigned k = 0; k < e->landlock_now->n_exec_paths && !exec_there; k++)
                        exec_there = e->landlock_now->exec_paths[k][0] == '/' &&
                                     path_overlaps(*mp, e->landlock_now->exec_paths[k]);
                if (!exec_there)
                        set |= MOUNT_ATTR_NOEXEC;
        }
        return set;
}

/* A stale sandbox's exec under rules that need mount flags its mounts lack
 * (openclaw.json took the agent's write tools, or set an exec allowlist,
 * after create): Landlock's write rights do not cover chmod, utimes or
 * xattrs, its EXECUTE right not mmap(PROT_EXEC), so the command gets its own
 * copy of the sandbox's mount table (unshare: the same user namespace owns
 * it, so nothing is locked more) with those flags added. Each mount is
 * reached by an fd of its mount point and checked to be the mount
 * mountinfo named (a hidden one is out of reach anyway); a pass that
 * changed nothing ends it, a table that keeps changing fails closed. */
static int tighten_mounts(const sbx_exec_plan *e, sbx_error *reterr) {
        if (!e->mounts_ro_now && !e->mounts_noexec_now)
                return 0;
        if (unshare(CLONE_NEWNS) < 0)
                return sbx_error_set(reterr, -errno, "exec: a mount namespace for the current rules");
        /* a writable root holding the allowed files: as at create (mount.c) */
        if (e->root_noexec_now) {
                _cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
                struct statfs sf;
                if (root < 0 || fstatfs(root, &sf) < 0)
                        return sbx_error_set(reterr, -errno, "exec: open /");
                if (!(sf.f_flags & ST_RDONLY) && !(sf.f_flags & ST_NOEXEC) &&
                    sbx_mount_exec_binds(root, e->root_exec_dirs_now, e->n_root_exec_dirs_now, reterr) < 0)
                        return -EPERM;
        }
        for (int pass = 0; pass < 4; pass++) {
                _cleanup_free_ char *buf = NULL;
                char *save = NULL;
                size_t len;
                int changed = 0, r;

                r = sbx_read_file("mount table", "/proc/self/mountinfo", 4 << 20, &buf, &len, reterr);
                if (r < 0)
                        return r;
                for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                        struct mount_attr attr = {};
                        struct statx stx;
                        unsigned long id = 0;
                        char *mp = NULL;
                        _cleanup_close_ int fd = -EBADF;

                        attr.attr_set = mount_needs(e, line, &id, &mp);
                        if (!attr.attr_set)
                                continue;
                        fd = open(mp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                        if (fd < 0 || statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
                            !(stx.stx_mask & STATX_MNT_ID) || stx.stx_mnt_id != id)
                                continue;       /* hidden under another mount, or moved: the next pass */
                        if (mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
                                return sbx_error_set(reterr, -errno, "exec: make '%s' %s for the current rules", mp,
                                                     attr.attr_set & MOUNT_ATTR_RDONLY ? "read-only" : "noexec");
                        changed++;
                }
                if (!changed)
                        return 0;
        }
        return sbx_error_set(reterr, -EAGAIN, "exec: the sandbox's mounts kept moving while made %s",
                             e->mounts_ro_now ? "read-only" : "noexec");
}

int sbx_exec_setup_child(const sbx_exec_plan *e, sbx_error *reterr) {
        int r, exec_fd;

        /* Not dumpable until the exec (which makes the command dumpable as
         * any exec does). Once our capabilities are gone, a process of the
         * sandbox with our ids (rootless sbx exec, an OCI container's root
         * without a user namespace) could otherwise open /proc/<us>/exe, the
         * host's sbx binary (CVE-2019-5736), and /proc/<us>/fd, the host fds
         * a joining client still holds until the exec. */
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "prctl(PR_SET_DUMPABLE, 0)"), SBX_EXIT_FAILURE;
        /* rlimits while we may still raise hard limits in this user ns. */
        for (size_t i = 0; i < e->n_rlimits; i++) {
                struct rlimit rl = { .rlim_cur = e->rlimits[i].soft, .rlim_max = e->rlimits[i].hard };
                if (setrlimit(e->rlimits[i].resource, &rl) < 0) {
                        int err = errno;
                        struct rlimit now = { 0 };
                        char hard[64] = "";
                        /* The key at fault: the user's flag, or config.json's. */
                        const char *key = e->proc ? "process.rlimits" : "--ulimit";

                        if (getrlimit(e->rlimits[i].resource, &now) == 0)
                                snprintf(hard, sizeof hard, " (hard limit %llu)", (unsigned long long) now.rlim_max);
                        return sbx_error_set(reterr, -err, "%s %s=%llu:%llu: setrlimit%s%s%s",
                                             key, sbx_rlimit_name(e->rlimits[i].resource),
                                             (unsigned long long) rl.rlim_cur, (unsigned long long) rl.rlim_max,
                                             err == EPERM ? " above the hard limit" : "", hard,
                                             err == EPERM ? "; raising a hard limit needs CAP_SYS_RESOURCE, "
                                                            "and nofile never exceeds fs.nr_open" : ""),
                               SBX_EXIT_FAILURE;
                }
        }
        if (new_session(e, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* while we hold capabilities in the sandbox's user namespace */
        if (tighten_mounts(e, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* A container without no_new_privs: the filter goes in while we
         * still have CAP_SYS_ADMIN (as runc does), so it also covers the
         * credential calls below; the profiles allow them. */
        if (e->proc && !e->proc->no_new_privs && e->bpf && e->bpf->len &&
            (r = sbx_seccomp_setup_child(e->bpf)) < 0)
                return sbx_error_set(reterr, r, "linux.seccomp: install filter"), SBX_EXIT_FAILURE;
        /* Capabilities (and the user switch) before no_new_privs. */
        r = e->proc ? sbx_caps_setup_container_child(e->cap_last, e->proc, reterr)
                    : sbx_caps_setup_child(e->cap_last, e->uid, e->gid, reterr);
        if (r < 0)
                return SBX_EXIT_FAILURE;
        if (e->proc)
                return exec_container_rest(e, reterr);
        /* Credential changes clear the parent-death signal: set it again. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "prctl(PR_SET_PDEATHSIG)"), SBX_EXIT_FAILURE;
        /* ... and if the parent died before it was set, we were reparented
         * (sbx exec), or, as a pid namespace's init, see its end closed. */
        if (e->parent_outside_pidns && getppid() != 0)
                return sbx_error_set(reterr, -ESRCH, "the sbx exec client exited"), SBX_EXIT_FAILURE;
        if (e->parent_is_notify_sock && sbx_sync_peer_gone(e->notify_sock))
                _exit(SBX_EXIT_FAILURE);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return sbx_error_set(reterr, -errno, "prctl(PR_SET_NO_NEW_PRIVS)"), SBX_EXIT_FAILURE;
        /* Landlock after no_new_privs (it requires it) and before seccomp (the
         * filter need not allow landlock_*); binds this process and every
         * descendant, whatever they exec. */
        if (e->landlock && sbx_landlock_setup_child(e->landlock, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* a second domain: both must allow (issue 14, a stale sandbox) */
        if (e->landlock_now && sbx_landlock_setup_child(e->landlock_now, reterr) < 0)
                return SBX_EXIT_FAILURE;
        /* Nothing but stdio crosses exec; the sync socket is CLOEXEC already. */
        if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
                r = cloexec_sweep_proc();
                if (r < 0)
                        return sbx_error_set(reterr, r, "close stray fds"), SBX_EXIT_FAILURE;
        }
        r = chdir_inside(reterr, "--workdir: chdir", e->workdir);
        if (r > 0)
                return r;
        if (e->exec_fd < 0)
                return fail(reterr, SBX_EXIT_FAILURE, -EBADF, "exec: no decided command for", e->argv[0]);
        r = open_decided(e, &exec_fd, reterr);
        if (r > 0)
                return r;
        r = exec_log_child(e, reterr);
        if (r > 0)
                return r;
        /* seccomp last: the filter need not allow any setup call. */
        r = sbx_seccomp_setup_child(e->bpf);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: install filter"), SBX_EXIT_FAILURE;
        /* The file the parent resolved and decided on, not a path looked up
         * again: #! scripts were rewritten to their interpreter already. */
        /* with the exec log: the cookie its filter lets through (issue 14) */
        syscall(SYS_execveat, exec_fd, "", e->exec_argv, e->envp, AT_EMPTY_PATH, e->notify_cookie);
        r = -errno;
        if (r == -ENOENT)
                return fail(reterr, SBX_EXIT_NOT_FOUND, r, "exec", e->exec_argv[0]);
        return fail(reterr, SBX_EXIT_CANNOT_EXEC, r, "exec", e->exec_argv[0]);
}

uint64_t sbx_exec_cookie(void) {
        uint64_t c = 0;

        while (c == 0)
                if (getrandom(&c, sizeof(c), 0) != sizeof(c))
                        c = 0;
        return c;
}

int sbx_exec_setup_command_child(const sbx_exec_plan *e, const char *cmd, sbx_error *reterr) {
        char *const argv[] = { (char *) "/bin/sh", (char *) "-lc", (char *) cmd, NULL };
        sbx_exec_plan se = *e;
        int status, r;
        pid_t pid;

        se.argv = se.exec_argv = argv;
        se.exec_fd = e->setup_sh_fd;
        se.exec_path = NULL;    /* /bin/sh as resolved in the parent */
        se.tty_fd = -EBADF;
        /* Operator config (docker.setupCommand), run before the workload: not
         * an agent exec, so neither the exec allowlist nor the tool-derived
         * Landlock rules apply to it; seccomp and everything else do. */
        se.landlock = se.landlock_now = NULL;
        se.notify_insns = NULL;         /* nor the exec log */
        pid = fork();
        if (pid < 0)
                return sbx_error_set(reterr, -errno, "setupCommand: fork");
        if (pid == 0) {
                sbx_error ignored;
                int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
                /* The workload's stdin is not the setup's; its output is log. */
                if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
                        _exit(SBX_EXIT_FAILURE);
                _exit(sbx_exec_setup_child(&se, &ignored));
        }
        while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
                ;
        if (r < 0)
                return sbx_error_set(reterr, -errno, "setupCommand: wait");
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        if (WIFSIGNALED(status))
                return sbx_error_set(reterr, -ECANCELED, "setupCommand '%.120s' killed by signal %d", cmd,
                                     WTERMSIG(status));
        return sbx_error_set(reterr, -ECANCELED, "setupCommand '%.120s' failed with exit status %d", cmd,
                             WEXITSTATUS(status));
}

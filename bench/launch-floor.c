/* SPDX-License-Identifier: MIT */
/* launch-floor: the least a pivot_root sandbox launcher does, step by step,
 * to measure what the kernel charges for each step (bench-floor.sh times it
 * against `unshare -Urmpnif --mount-proc /bin/true`). Not part of sbx.
 *
 *   launch-floor STEPS      STEPS: a subset of the letters below, in any order
 *
 * Always: clone3 with the 7 namespaces of `sbx run`, the child maps its own
 * id (0 -> the caller's), then execs /usr/bin/true.
 *   (none) /proc mounted over the host's /proc copy, as unshare --mount-proc
 *   r      a new root instead: a tmpfs with /usr bound (open_tree, recursive),
 *          bin/lib/lib64 symlinks and its own /proc (no pivot: exec from the
 *          host tree, the root is only built)
 *   p      pivot_root(".", ".") into it (with r)
 *   d      detach the old root (umount2 MNT_DETACH; with p)
 *   c      per-run cgroup v1 in the pids, freezer and cpu hierarchies, as sbx
 *          (mkdir, pids.max 1024, the child writes 0 to each tasks file, the
 *          parent removes them after the child); root only
 *   s      sbx's two seccomp filters (its build's precompiled layer and base,
 *          when built with -DSBX_FILTERS and build/seccomp-profiles/
 *          seccomp-precompiled.c; else two allow-all compare chains of their
 *          sizes, 51 and 403 instructions), loaded last before exec
 *   T      instead of r, p and d: no root built and no pivot. The parent
 *          enters (setns) a template's user and mount namespaces, kept by a
 *          holder process (the environment variable FLOOR_TEMPLATE names its
 *          pid), whose mount table holds only such a root (tmpfs, /usr,
 *          symlinks, a procfs of the holder's own pid namespace: a new
 *          procfs needs a visible one), made once by `launch-floor
 *          --template` (which prints the holder's pid); clone3 then copies
 *          that small table, and the child only mounts its /proc. What a
 *          template namespace would save each run; pivot_root's walk of
 *          every host thread is gone with it. The holder is its pid
 *          namespace's init: only SIGKILL ends it from outside.
 *   M      root only, instead of r, p and d: as T, but the holder (made once
 *          by `launch-floor --template-root`, its pid in FLOOR_TEMPLATE_ROOT)
 *          has a mount namespace of the initial user namespace and no user
 *          namespace of its own, so the launcher can come back: it saves
 *          its own mount namespace, root and cwd (fds), setns()es into the
 *          holder's mount namespace, clone3s (the copied mounts are locked
 *          in the child's new user namespace), setns()es back and restores
 *          root and cwd. No extra process, unlike a spawner in T's holder.
 * Built with cc -O2 by bench-floor.sh; exit 111 and a message on any failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define OPEN_TREE_CLONE_ 1
#define AT_RECURSIVE_ 0x8000
#define MOVE_MOUNT_F_EMPTY_PATH_ 4
#define FSCONFIG_CMD_CREATE_ 6

static const char *const hierarchies[] = { "cpu", "freezer", "pids" };
#define N_HIER (sizeof(hierarchies) / sizeof(hierarchies[0]))

/* what the parent made (cgroups, the root's mountpoint), removed again on any exit */
static char made[N_HIER + 1][128];
static pid_t maker;

static _Noreturn void die(const char *what) {
        fprintf(stderr, "launch-floor: %s: %s\n", what, strerror(errno));
        if (getpid() == maker)
                for (size_t i = 0; i <= N_HIER; i++)
                        if (made[i][0])
                                (void) rmdir(made[i]);
        _exit(111);
}

static void write_file(int dirfd, const char *path, const char *s) {
        int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);

        if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t) strlen(s))
                die(path);
        close(fd);
}

#ifdef SBX_FILTERS
#include "security/seccomp-precompiled.h"
#endif

static void load(const struct sock_filter *f, unsigned short len) {
        struct sock_fprog prog = { .len = len, .filter = (struct sock_filter *) f };

        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
                die("seccomp");
}

static __attribute__((unused)) void load_filter(unsigned short len) {
        struct sock_filter f[403];
        struct sock_fprog prog = { .len = len, .filter = f };

        f[0] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
        for (unsigned short i = 1; i + 1 < len; i++)
                f[i] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 100000u + i, 0, 0);
        f[len - 1] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        load(prog.filter, prog.len);
}

/* r: a tmpfs attached at dir with /usr bound (open_tree, recursive), the
 * merged-/usr symlinks and a procfs of our pid namespace; our cwd is left
 * in it (for the pivot). */
static void build_root(const char *dir) {
        int fs = (int) syscall(SYS_fsopen, "tmpfs", 1), mnt, root, usr;

        if (fs < 0 || syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0) < 0 ||
            (mnt = (int) syscall(SYS_fsmount, fs, 1, 0)) < 0)
                die("tmpfs root");
        if (syscall(SYS_move_mount, mnt, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH_) < 0)
                die("attach the root");
        root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (root < 0 || mkdirat(root, "usr", 0755) < 0 || mkdirat(root, "proc", 0555) < 0 ||
            symlinkat("usr/bin", root, "bin") < 0 || symlinkat("usr/lib", root, "lib") < 0 ||
            symlinkat("usr/lib64", root, "lib64") < 0)
                die("populate the root");
        usr = (int) syscall(SYS_open_tree, AT_FDCWD, "/usr", OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE_);
        if (usr < 0 || fchdir(root) < 0 || syscall(SYS_move_mount, usr, "", AT_FDCWD, "usr", MOVE_MOUNT_F_EMPTY_PATH_) < 0)
                die("bind /usr");
        if (mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                die("mount proc");
        close(usr);
        close(root);
        close(mnt);
        close(fs);
}

static void child(const char *steps, const char *rootdir, const int *tasks, uid_t uid, gid_t gid) {
        char map[64];

        if (strchr(steps, 'c'))
                for (size_t i = 0; i < N_HIER; i++)
                        if (write(tasks[i], "0", 1) != 1)
                                die("join the cgroup");
        /* T: the template has no /proc to write the id maps through yet */
        if ((strchr(steps, 'T') || strchr(steps, 'M')) && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                die("mount proc");
        snprintf(map, sizeof(map), "0 %u 1", (unsigned) uid);
        write_file(AT_FDCWD, "/proc/self/uid_map", map);
        write_file(AT_FDCWD, "/proc/self/setgroups", "deny");
        snprintf(map, sizeof(map), "0 %u 1", (unsigned) gid);
        write_file(AT_FDCWD, "/proc/self/gid_map", map);
        if (!strchr(steps, 'T') && !strchr(steps, 'M') && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                die("make / private");
        if (strchr(steps, 'r')) {
                build_root(rootdir);
                if (strchr(steps, 'p')) {
                        if (syscall(SYS_pivot_root, ".", ".") < 0)
                                die("pivot_root");
                        if (strchr(steps, 'd') && umount2(".", MNT_DETACH) < 0)
                                die("detach the old root");
                        if (chdir("/") < 0)
                                die("chdir /");
                }
        } else if (!strchr(steps, 'T') && !strchr(steps, 'M') && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                die("mount proc");
        if (strchr(steps, 's')) {
                if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                        die("no_new_privs");
#ifdef SBX_FILTERS
                load(sbx_precompiled_layer, sbx_precompiled_layer_len);
                load(sbx_precompiled_base, sbx_precompiled_base_len);
#else
                load_filter(51);
                load_filter(403);
#endif
        }
        execl("/usr/bin/true", "true", (char *) NULL);
        die("exec /usr/bin/true");
}

/* --template: a holder in its own user and mount namespaces whose root is
 * only the sandbox's (pivot_root, old root detached); prints its pid. */
static int make_template(bool own_userns) {
        struct clone_args a = { .flags = (own_userns ? CLONE_NEWUSER : 0) | CLONE_NEWNS | CLONE_NEWPID,
                                .exit_signal = SIGCHLD };
        uid_t uid = geteuid();
        gid_t gid = getegid();
        int ready[2];
        long pid;
        char c, dir[64];

        snprintf(dir, sizeof(dir), "/dev/shm/launch-floor-template-%d", (int) getpid());
        if (pipe2(ready, O_CLOEXEC) < 0)
                die("pipe");
        pid = syscall(SYS_clone3, &a, sizeof(a));
        if (pid < 0)
                die("clone3 the template");
        if (pid == 0) {
                char map[64];
                int nul = open("/dev/null", O_RDWR | O_CLOEXEC);

                /* no stdio of the caller held open (a $(...) would wait on it) */
                if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0)
                        die("stdio to /dev/null");
                close(nul);

                if (own_userns) {
                        snprintf(map, sizeof(map), "0 %u 1", (unsigned) uid);
                        write_file(AT_FDCWD, "/proc/self/uid_map", map);
                        write_file(AT_FDCWD, "/proc/self/setgroups", "deny");
                        snprintf(map, sizeof(map), "0 %u 1", (unsigned) gid);
                        write_file(AT_FDCWD, "/proc/self/gid_map", map);
                }
                if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                        die("make / private");
                if (mkdir(dir, 0755) < 0)
                        die("mkdir the template's mountpoint");
                /* A new procfs is refused where no procfs is fully visible
                 * (mount_too_revealing): the template keeps one of its own
                 * pid namespace (only the holder in it) for each run's /proc
                 * to go over, mounted by build_root while the host's is
                 * still visible. */
                build_root(dir);
                if (syscall(SYS_pivot_root, ".", ".") < 0 || umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
                        die("pivot_root");
                if (write(ready[1], "r", 1) != 1)
                        die("ready");
                for (;;)
                        pause();
        }
        close(ready[1]);
        if (read(ready[0], &c, 1) != 1)
                return 111;
        if (rmdir(dir) < 0)
                die("rmdir the template's mountpoint");
        printf("%ld\n", pid);
        return 0;
}

/* M: into the root holder's mount namespace, our own kept in *own (and
 * our root and cwd in root[0], root[1]) for the way back */
static void enter_template_root(int own[3]) {
        const char *holder = getenv("FLOOR_TEMPLATE_ROOT");
        char path[64];
        int m;

        if (!holder)
                die("M without FLOOR_TEMPLATE_ROOT");
        own[0] = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
        own[1] = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        own[2] = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        snprintf(path, sizeof(path), "/proc/%s/ns/mnt", holder);
        m = open(path, O_RDONLY | O_CLOEXEC);
        if (own[0] < 0 || own[1] < 0 || own[2] < 0 || m < 0 || setns(m, CLONE_NEWNS) < 0)
                die("enter the root template");
        close(m);
}

/* back: our mount namespace, root and cwd; fatal when it fails */
static void leave_template_root(const int own[3]) {
        if (setns(own[0], CLONE_NEWNS) < 0 || fchdir(own[1]) < 0 || chroot(".") < 0 || fchdir(own[2]) < 0) {
                fprintf(stderr, "launch-floor: back to our mount namespace: %s\n", strerror(errno));
                _exit(112);
        }
        for (int i = 0; i < 3; i++)
                close(own[i]);
}

static void enter_template(void) {
        const char *holder = getenv("FLOOR_TEMPLATE");
        char path[64];
        int u, m;

        if (!holder)
                die("T without FLOOR_TEMPLATE");
        snprintf(path, sizeof(path), "/proc/%s/ns/user", holder);
        u = open(path, O_RDONLY | O_CLOEXEC);
        snprintf(path, sizeof(path), "/proc/%s/ns/mnt", holder);
        m = open(path, O_RDONLY | O_CLOEXEC);
        if (u < 0 || m < 0 || setns(u, CLONE_NEWUSER) < 0 || setns(m, CLONE_NEWNS) < 0)
                die("enter the template");
        close(u);
        close(m);
}

int main(int argc, char **argv) {
        const char *steps = argc > 1 ? argv[1] : "";
        struct clone_args a = {
                .flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
                         CLONE_NEWCGROUP,
                .exit_signal = SIGCHLD,
        };
        char *rootdir = made[N_HIER], (*cg)[128] = made;
        int tasks[N_HIER], status, own[3] = { -1, -1, -1 };
        uid_t uid = geteuid();
        gid_t gid = getegid();
        long pid;

        /* the new root's mountpoint: any directory; it is mounted on in the
         * child's own (private) mount namespace only */
        maker = getpid();
        if (!strcmp(steps, "--template"))
                return make_template(true);
        if (!strcmp(steps, "--template-root"))
                return make_template(false);
        if (strchr(steps, 'M') && (strchr(steps, 'r') || strchr(steps, 'T')))
                die("M goes with neither r nor T");
        if (strchr(steps, 'T')) {
                if (strchr(steps, 'r') || strchr(steps, 'c'))
                        die("T goes with neither r nor c");
                uid = 0;        /* ids as the template's user namespace sees them */
                gid = 0;
        }
        if (strchr(steps, 'r')) {
                snprintf(rootdir, sizeof(made[0]), "/dev/shm/launch-floor-%d", (int) getpid());
                if (mkdir(rootdir, 0755) < 0) {
                        rootdir[0] = '\0';
                        die("mkdir the root's mountpoint");
                }
        }
        if (strchr(steps, 'c'))
                for (size_t i = 0; i < N_HIER; i++) {
                        char path[192];
                        snprintf(cg[i], sizeof(cg[i]), "/sys/fs/cgroup/%s/launch-floor-%d", hierarchies[i],
                                 (int) getpid());
                        if (mkdir(cg[i], 0755) < 0) {
                                cg[i][0] = '\0';
                                die("mkdir a cgroup");
                        }
                        if (!strcmp(hierarchies[i], "pids"))
                                write_file(AT_FDCWD, strcat(strcpy(path, cg[i]), "/pids.max"), "1024");
                        tasks[i] = open(strcat(strcpy(path, cg[i]), "/tasks"), O_WRONLY | O_CLOEXEC);
                        if (tasks[i] < 0)
                                die(path);
                }
        if (strchr(steps, 'T'))
                enter_template();
        if (strchr(steps, 'M'))
                enter_template_root(own);
        pid = syscall(SYS_clone3, &a, sizeof(a));
        if (pid < 0)
                die("clone3");
        if (pid == 0)
                child(steps, rootdir, tasks, uid, gid);
        if (strchr(steps, 'M'))
                leave_template_root(own);
        if (waitpid((pid_t) pid, &status, 0) < 0)
                die("waitpid");
        for (size_t i = 0; i <= N_HIER; i++)
                if (made[i][0] && rmdir(made[i]) < 0) {
                        fprintf(stderr, "launch-floor: rmdir %s: %s\n", made[i], strerror(errno));
                        return 111;
                }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 111;
}

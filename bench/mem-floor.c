/* SPDX-License-Identifier: MIT */
/* mem-floor: what the kernel charges for an idle process holding a given
 * set of namespaces, with nothing of sbx in it (bench-memfloor.sh reads the
 * memory figures around it). Not part of sbx.
 *
 *   mem-floor N NS     NS: letters, any order ("-" for none):
 *       U user (the child maps its own id: 0 -> the caller's)
 *       m mount   p pid   n net   i ipc   t uts   c cgroup
 *       r with m: a tmpfs root with the host's /usr bound read-only
 *         (open_tree, recursive), pivot_root into it, the old root
 *         detached, and a /proc of the new pid namespace (sbx's least root)
 *
 * Starts N children with clone3(NS); each sets its namespaces up and execs
 * IDLE (bench/mem-idle.c: a static binary with no libc that only pause()s,
 * as an idle sandbox's init: one page of text, a stack, nothing else),
 * opened before any pivot. Prints "ready" when all sleep and waits for a
 * line on stdin; then kills and reaps them all. Built with cc -O2 -static
 * by bench-memfloor.sh.
 *
 *   mem-floor N NS IDLE */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define OPEN_TREE_CLONE_ 1
#define AT_RECURSIVE_ 0x8000
#define MOVE_MOUNT_F_EMPTY_PATH_ 4

static int write_file(const char *path, const char *s) {
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        ssize_t n;

        if (fd < 0)
                return -1;
        n = write(fd, s, strlen(s));
        close(fd);
        return n == (ssize_t) strlen(s) ? 0 : -1;
}

static void fail(const char *what) {
        dprintf(2, "mem-floor child: %s: %s\n", what, strerror(errno));
        _exit(111);
}

static int new_root(void) {
        int usr, rootfd;

        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                fail("make / private");
        usr = (int) syscall(SYS_open_tree, AT_FDCWD, "/usr", OPEN_TREE_CLONE_ | AT_RECURSIVE_ | O_CLOEXEC);
        if (usr < 0)
                fail("open_tree /usr");
        if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") < 0)
                fail("tmpfs");
        rootfd = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (rootfd < 0 || mkdirat(rootfd, "usr", 0755) < 0 || mkdirat(rootfd, "proc", 0555) < 0 ||
            symlinkat("usr/bin", rootfd, "bin") < 0 || symlinkat("usr/lib", rootfd, "lib") < 0 ||
            symlinkat("usr/lib64", rootfd, "lib64") < 0)
                fail("root contents");
        if (syscall(SYS_move_mount, usr, "", rootfd, "usr", MOVE_MOUNT_F_EMPTY_PATH_) < 0)
                fail("move /usr");
        if (mount("proc", "/tmp/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                fail("proc");
        if (fchdir(rootfd) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 || umount2(".", MNT_DETACH) < 0 ||
            chdir("/") < 0)
                fail("pivot_root");
        close(usr);
        close(rootfd);
        return 0;
}

int main(int argc, char **argv) {
        unsigned long long flags = 0;
        int n, root = 0, user = 0, idle;
        char *const idle_argv[] = { "mem-idle", NULL }, *const idle_env[] = { NULL };
        pid_t *kids;
        char line[16], map[64];
        uid_t uid = getuid();
        gid_t gid = getgid();

        if (argc != 4 || (n = atoi(argv[1])) <= 0) {
                fprintf(stderr, "usage: mem-floor N NS IDLE\n");
                return 2;
        }
        for (const char *s = argv[2]; *s; s++)
                switch (*s) {
                case 'U': flags |= CLONE_NEWUSER; user = 1; break;
                case 'm': flags |= CLONE_NEWNS; break;
                case 'p': flags |= CLONE_NEWPID; break;
                case 'n': flags |= CLONE_NEWNET; break;
                case 'i': flags |= CLONE_NEWIPC; break;
                case 't': flags |= CLONE_NEWUTS; break;
                case 'c': flags |= CLONE_NEWCGROUP; break;
                case 'r': root = 1; break;
                case '-': break;
                default: fprintf(stderr, "mem-floor: unknown letter %c\n", *s); return 2;
                }
        if (root && !(flags & CLONE_NEWNS)) {
                fprintf(stderr, "mem-floor: r needs m\n");
                return 2;
        }
        kids = calloc((size_t) n, sizeof(*kids));
        idle = open(argv[3], O_PATH | O_CLOEXEC);
        if (!kids || idle < 0)
                return 111;
        for (int i = 0; i < n; i++) {
                struct clone_args a = { .flags = flags, .exit_signal = SIGCHLD };
                int go[2];
                char c;
                pid_t pid;

                if (pipe2(go, O_CLOEXEC) < 0)
                        return 111;
                pid = (pid_t) syscall(SYS_clone3, &a, sizeof(a));
                if (pid < 0) {
                        fprintf(stderr, "mem-floor: clone3 #%d: %s\n", i, strerror(errno));
                        return 111;
                }
                if (pid == 0) {
                        close(go[1]);
                        if (read(go[0], &c, 1) != 1)
                                _exit(111);
                        if (user) {
                                (void) write_file("/proc/self/setgroups", "deny");
                                snprintf(map, sizeof(map), "0 %u 1", uid);
                                if (write_file("/proc/self/uid_map", map) < 0)
                                        fail("uid_map");
                                snprintf(map, sizeof(map), "0 %u 1", gid);
                                if (write_file("/proc/self/gid_map", map) < 0)
                                        fail("gid_map");
                        }
                        if (root)
                                new_root();
                        close(go[0]);
                        syscall(SYS_execveat, idle, "", idle_argv, idle_env, AT_EMPTY_PATH);
                        fail("exec IDLE");
                }
                close(go[0]);
                if (write(go[1], "g", 1) != 1)
                        return 111;
                close(go[1]);
                kids[i] = pid;
        }
        /* every child has run its setup when its /proc status says S (sleeping in pause) */
        for (int i = 0; i < n; i++)
                for (int tries = 0; tries < 10000; tries++) {
                        char p[64], buf[512];
                        int fd;
                        ssize_t r;
                        snprintf(p, sizeof(p), "/proc/%d/stat", kids[i]);
                        fd = open(p, O_RDONLY | O_CLOEXEC);
                        if (fd < 0)
                                break;
                        r = read(fd, buf, sizeof(buf) - 1);
                        close(fd);
                        buf[r > 0 ? r : 0] = 0;
                        {
                                char *e = strrchr(buf, ')');
                                if (e && e[1] == ' ' && (e[2] == 'S' || e[2] == 'Z'))
                                        break;
                        }
                        usleep(100);
                }
        printf("ready\n");
        fflush(stdout);
        if (!fgets(line, sizeof(line), stdin))
                line[0] = 0;
        for (int i = 0; i < n; i++)
                kill(kids[i], SIGKILL);
        for (int i = 0; i < n; i++) {
                int st;
                (void) waitpid(kids[i], &st, 0);
        }
        return 0;
}

/* SPDX-License-Identifier: MIT */
/* sbx-probe: the in-sandbox workload of the integration tests. Each
 * subcommand reports one property on stdout, in a form a shell test can
 * compare. Static, so it runs on any rootfs. Results of calls are printed as
 * "OK" or the errno's name (EPERM, EFAULT, ...). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int result(int r) {
        if (r < 0) {
                const char *n = strerrorname_np(errno);
                printf("%s\n", n ? n : "E?");
                return 1;
        }
        printf("OK\n");
        return 0;
}

static int cat(const char *path) {
        char buf[4096];
        ssize_t n;
        int fd = open(path, O_RDONLY | O_CLOEXEC);

        if (fd < 0)
                return result(-1);
        while ((n = read(fd, buf, sizeof(buf))) > 0)
                fwrite(buf, 1, n, stdout);
        close(fd);
        return 0;
}

static int status_fields(void) {
        static const char *const keys[] = { "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:",
                                             "NoNewPrivs:", "Seccomp:" };
        char line[256];
        FILE *f = fopen("/proc/self/status", "re");

        if (!f)
                return result(-1);
        while (fgets(line, sizeof(line), f))
                for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
                        if (!strncmp(line, keys[i], strlen(keys[i]))) {
                                char *v = line + strlen(keys[i]);
                                v += strspn(v, " \t");
                                printf("%.*s %s", (int) strlen(keys[i]) - 1, keys[i], v);
                        }
        fclose(f);
        return 0;
}

static int fds(void) {
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;

        if (!d)
                return result(-1);
        while ((de = readdir(d))) {
                char link[256] = "", path[300];
                if (de->d_name[0] == '.' || atoi(de->d_name) == dirfd(d))
                        continue;
                snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
                if (readlink(path, link, sizeof(link) - 1) < 0)
                        strcpy(link, "?");
                printf("%s %s\n", de->d_name, link);
        }
        closedir(d);
        return 0;
}

static int pidns(void) {
        DIR *d = opendir("/proc");
        struct dirent *de;
        int n = 0;

        if (!d)
                return result(-1);
        while ((de = readdir(d)))
                if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
                        n++;
        closedir(d);
        printf("pid=%d ppid=%d sid=%d procs=%d\n", getpid(), getppid(), getsid(0), n);
        return 0;
}

static int ifaces(void) {
        struct if_nameindex *ifs = if_nameindex(), *i;

        if (!ifs)
                return result(-1);
        for (i = ifs; i->if_index; i++) {
                struct ifreq ifr = {};
                int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
                snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", i->if_name);
                bool up = s >= 0 && ioctl(s, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP);
                if (s >= 0)
                        close(s);
                printf("%s %s\n", i->if_name, up ? "up" : "down");
        }
        if_freenameindex(ifs);
        return 0;
}

/* Each call with arguments that make an allowed call fail harmlessly. */
static int try_syscall(const char *name) {
        static const struct {
                const char *name;
                long nr, a[6];
        } calls[] = {
                { "read", SYS_read, { -1, 0, 0 } },                         /* EBADF */
                { "write", SYS_write, { -1, 0, 0 } },                       /* EBADF */
                { "openat", SYS_openat, { AT_FDCWD, 1, 0 } },               /* EFAULT */
                { "mount", SYS_mount, { 1, 1, 1, 0, 0 } },                  /* EFAULT */
                { "umount2", SYS_umount2, { 1, 0 } },                       /* EFAULT */
                { "pivot_root", SYS_pivot_root, { 1, 1 } },                 /* EFAULT */
                { "unshare", SYS_unshare, { -1 } },                         /* EINVAL */
                { "setns", SYS_setns, { -1, 0 } },                          /* EBADF */
                { "bpf", SYS_bpf, { -1, 0, 0 } },                           /* EINVAL/EPERM */
                { "keyctl", SYS_keyctl, { -1, 0 } },                        /* EOPNOTSUPP */
                { "add_key", SYS_add_key, { 1, 1, 0, 0, 0 } },              /* EFAULT */
                { "request_key", SYS_request_key, { 1, 1, 0, 0 } },         /* EFAULT */
                { "perf_event_open", SYS_perf_event_open, { 1, 0, -1, -1, 0 } }, /* EFAULT */
                { "userfaultfd", SYS_userfaultfd, { -1 } },                 /* EINVAL */
                { "io_uring_setup", SYS_io_uring_setup, { 1, 1 } },         /* EFAULT */
                { "ptrace", SYS_ptrace, { -1, 0, 0, 0 } },                  /* EIO/ESRCH */
                { "kexec_load", SYS_kexec_load, { 0, 0, 1, 0 } },           /* EPERM */
                { "init_module", SYS_init_module, { 1, 0, 1 } },            /* EPERM */
                { "open_by_handle_at", SYS_open_by_handle_at, { -1, 1, 0 } },/* EPERM */
                { "getcwd", SYS_getcwd, { 1, 4096 } },                      /* EFAULT */
                { "clone3", SYS_clone3, { 1, 0 } },                         /* EINVAL */
                { "close", SYS_close, { -1 } },                             /* EBADF */
        };

        for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
                if (!strcmp(calls[i].name, name))
                        return result((int) syscall(calls[i].nr, calls[i].a[0], calls[i].a[1], calls[i].a[2],
                                                    calls[i].a[3], calls[i].a[4], calls[i].a[5]));
        fprintf(stderr, "sbx-probe: unknown syscall %s\n", name);
        return 2;
}

static int sock(const char *fam) {
        int f = !strcmp(fam, "inet") ? AF_INET : !strcmp(fam, "inet6") ? AF_INET6 :
                !strcmp(fam, "unix") ? AF_UNIX : !strcmp(fam, "netlink") ? AF_NETLINK :
                !strcmp(fam, "packet") ? AF_PACKET : -1;
        int t = f == AF_PACKET || f == AF_NETLINK ? SOCK_RAW : SOCK_STREAM;

        if (f < 0) {
                fprintf(stderr, "sbx-probe: unknown family %s\n", fam);
                return 2;
        }
        return result(socket(f, t | SOCK_CLOEXEC, 0));
}

static int connect_inet(const char *ip, int port) {
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
        int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (s < 0 || inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
                return result(-1);
        return result(connect(s, (struct sockaddr *) &sa, sizeof(sa)));
}

static volatile sig_atomic_t got;
static void on_signal(int sig) {
        got = sig;
}

static int wait_signal(void) {
        struct sigaction sa = { .sa_handler = on_signal };

        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        printf("ready\n");
        fflush(stdout);
        while (!got)
                pause();
        printf("got %s\n", sigabbrev_np(got));
        return 40 + got;
}

static void usage(void) {
        fputs("usage: sbx-probe caps|uidmap|mounts|ifaces|pidns|fds|env|hostname|tty|userns\n"
              "       sbx-probe try-syscall NAME | open PATH | read PATH | write PATH TEXT | mkdir PATH\n"
              "       sbx-probe socket inet|inet6|unix|netlink|packet | connect IP PORT\n"
              "       sbx-probe exec PATH [ARGS...] | exit N | segv | sleep N | wait-signal | tiocsti\n",
              stderr);
}

int main(int argc, char **argv) {
        const char *c = argc > 1 ? argv[1] : "";

        setvbuf(stdout, NULL, _IOLBF, 0);
        if (!strcmp(c, "caps"))
                return status_fields();
        if (!strcmp(c, "uidmap"))
                return cat("/proc/self/uid_map") | cat("/proc/self/gid_map");
        if (!strcmp(c, "mounts"))
                return cat("/proc/self/mountinfo");
        if (!strcmp(c, "ifaces"))
                return ifaces();
        if (!strcmp(c, "pidns"))
                return pidns();
        if (!strcmp(c, "fds"))
                return fds();
        if (!strcmp(c, "env")) {
                for (char **e = environ; *e; e++)
                        printf("%s\n", *e);
                return 0;
        }
        if (!strcmp(c, "hostname")) {
                struct utsname u;
                uname(&u);
                printf("%s\n", u.nodename);
                return 0;
        }
        if (!strcmp(c, "tty")) {
                printf("isatty0=%d isatty1=%d\n", isatty(0), isatty(1));
                return 0;
        }
        if (!strcmp(c, "tiocsti")) {
                char ch = 'x';
                return result(ioctl(0, TIOCSTI, &ch));
        }
        if (!strcmp(c, "wait-signal"))
                return wait_signal();
        if (!strcmp(c, "userns")) {
                /* clone(CLONE_NEWUSER): a nested user namespace, whatever the filter says of unshare */
                long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
                if (pid == 0)
                        _exit(0);
                if (pid > 0)
                        waitpid(pid, NULL, 0);
                return result(pid < 0 ? -1 : 0);
        }
        if (!strcmp(c, "segv")) {
                /* A fault's SIGSEGV kills even a pid namespace's init. */
                volatile int *null = NULL;
                return *null;
        }
        if (argc < 3) {
                usage();
                return 2;
        }
        if (!strcmp(c, "try-syscall"))
                return try_syscall(argv[2]);
        if (!strcmp(c, "open")) {
                int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
                return result(fd);
        }
        if (!strcmp(c, "read"))
                return cat(argv[2]);
        if (!strcmp(c, "mkdir"))
                return result(mkdir(argv[2], 0755));
        if (!strcmp(c, "write")) {
                int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                const char *t = argc > 3 ? argv[3] : "";
                if (fd < 0)
                        return result(-1);
                return result(write(fd, t, strlen(t)) < 0 ? -1 : close(fd));
        }
        if (!strcmp(c, "socket"))
                return sock(argv[2]);
        if (!strcmp(c, "connect") && argc > 3)
                return connect_inet(argv[2], atoi(argv[3]));
        if (!strcmp(c, "exec")) {
                execv(argv[2], argv + 2);
                return result(-1);
        }
        if (!strcmp(c, "exit"))
                return atoi(argv[2]);
        if (!strcmp(c, "sleep")) {
                sleep(atoi(argv[2]));
                return 0;
        }
        usage();
        return 2;
}

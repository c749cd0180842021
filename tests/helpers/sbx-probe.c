/* SPDX-License-Identifier: MIT */
/* sbx-probe: the in-sandbox workload of the integration tests. Each
 * subcommand reports one property on stdout, in a form a shell test can
 * compare. Static, so it runs on any rootfs. Results of calls are printed as
 * "OK" or the errno's name (EPERM, EFAULT, ...). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/vm_sockets.h>
#include <mqueue.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
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
                /* issue 10 (escape suite): root outside gets the errno in the comment */
                { "reboot", SYS_reboot, { 0, 0, 0, 0 } },                   /* EINVAL (bad magic) */
                { "clock_settime", SYS_clock_settime, { -1, 1 } },          /* EINVAL */
                { "settimeofday", SYS_settimeofday, { 1, 0 } },             /* EFAULT */
                { "kexec_file_load", SYS_kexec_file_load, { -1, -1, 0, 0, -1 } }, /* EINVAL */
                { "finit_module", SYS_finit_module, { -1, 0, 0 } },         /* EBADF */
                { "delete_module", SYS_delete_module, { 1, 0 } },           /* EFAULT */
                { "chroot", SYS_chroot, { 1 } },                            /* EFAULT */
                { "name_to_handle_at", SYS_name_to_handle_at, { -1, 1, 1, 1, 0 } }, /* EFAULT/EBADF */
                { "swapon", SYS_swapon, { 1, 0 } },                         /* EFAULT */
                { "acct", SYS_acct, { 1 } },                                /* EFAULT */
                { "process_vm_readv", SYS_process_vm_readv, { 0, 0, 0, 0, 0, 1 } }, /* EINVAL */
                { "kcmp", SYS_kcmp, { -1, -1, 0, 0, 0 } },                  /* ESRCH/EINVAL */
                { "fsopen", SYS_fsopen, { 1, 0 } },                         /* EFAULT */
                { "open_tree", SYS_open_tree, { -1, 1, 0 } },               /* EFAULT/EBADF */
                { "move_mount", SYS_move_mount, { -1, 1, -1, 1, 0 } },      /* EFAULT/EBADF */
                { "mount_setattr", SYS_mount_setattr, { -1, 1, 0, 1, 0 } }, /* EINVAL */
                { "quotactl", SYS_quotactl, { 0, 1, 0, 0 } },               /* EFAULT */
                { "iopl", SYS_iopl, { 4 } },                                /* EINVAL */
                { "ioperm", SYS_ioperm, { 0, 1, 1 } },                      /* EPERM w/o CAP_SYS_RAWIO */
                { "lookup_dcookie", SYS_lookup_dcookie, { 0, 1, 0 } },      /* EFAULT/ENOSYS */
                { "memfd_secret", 447, { -1 } },                            /* EINVAL (ENOSYS: secretmem off) */
                { "memfd_create", SYS_memfd_create, { 1, 0 } },             /* EFAULT */
                /* newer than libseccomp 2.5.4 (same number on every ABI since 424) */
                { "futex_requeue", 456, { 0, 0, 0, 0 } },                   /* EINVAL: libseccomp's newest */
                { "statmount", 457, { 0, 0, 0, 0 } },                       /* EFAULT (6.8+) */
                { "open_tree_attr", 467, { -1, 0, 0, 0, 0 } },              /* EFAULT (6.15+) */
                { "file_getattr", 468, { -1, 0, 0, 0, 0 } },                /* EINVAL (6.17+) */
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
                !strcmp(fam, "packet") ? AF_PACKET : !strcmp(fam, "raw") ? AF_INET :
                !strcmp(fam, "vsock") ? AF_VSOCK : -1;
        int t = f == AF_PACKET || f == AF_NETLINK || !strcmp(fam, "raw") ? SOCK_RAW : SOCK_STREAM;
        int proto = !strcmp(fam, "raw") ? IPPROTO_ICMP : 0;

        if (f < 0) {
                fprintf(stderr, "sbx-probe: unknown family %s\n", fam);
                return 2;
        }
        return result(socket(f, t | SOCK_CLOEXEC, proto));
}

/* Abstract unix socket address "\0NAME". */
static socklen_t abstract_addr(const char *name, struct sockaddr_un *sa) {
        size_t n = strnlen(name, sizeof(sa->sun_path) - 1);

        memset(sa, 0, sizeof(*sa));
        sa->sun_family = AF_UNIX;
        memcpy(sa->sun_path + 1, name, n);
        return (socklen_t) (offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int connect_abstract(const char *name) {
        struct sockaddr_un sa;
        socklen_t len = abstract_addr(name, &sa);
        int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (s < 0)
                return result(-1);
        return result(connect(s, (struct sockaddr *) &sa, len));
}

/* A listener for the host side of the network tests: prints "ready", then
 * accepts (and closes) connections until killed. */
static int listen_on(const char *kind, const char *arg) {
        int s;

        if (!strcmp(kind, "abstract")) {
                struct sockaddr_un sa;
                socklen_t len = abstract_addr(arg, &sa);
                s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
                if (s < 0 || bind(s, (struct sockaddr *) &sa, len) < 0)
                        return result(-1);
        } else {
                struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(atoi(arg)),
                                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
                s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
                if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &(int) { 1 }, sizeof(int)) < 0 ||
                    bind(s, (struct sockaddr *) &sa, sizeof(sa)) < 0)
                        return result(-1);
        }
        if (listen(s, 64) < 0)
                return result(-1);
        printf("ready\n");
        fflush(stdout);
        for (;;) {
                int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
                if (c >= 0)
                        close(c);
        }
}

/* open_by_handle_at on PATH's own handle (the "shocker" attack's primitive). */
static int by_handle(const char *path) {
        struct { struct file_handle h; unsigned char b[MAX_HANDLE_SZ]; } fh = { .h.handle_bytes = MAX_HANDLE_SZ };
        int mnt_id, mfd, fd;

        if (name_to_handle_at(AT_FDCWD, path, &fh.h, &mnt_id, 0) < 0)
                return result(-1);
        mfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (mfd < 0)
                return result(-1);
        fd = open_by_handle_at(mfd, &fh.h, O_RDONLY | O_CLOEXEC);
        return result(fd);
}

/* Count how many of something can be had before the kernel says no; print
 * "N ERRNO" (or "N OK" when the cap was reached). */
static int exhaust_fds(int cap) {
        int n = 0;

        for (; n < cap; n++)
                if (open("/dev/null", O_RDONLY | O_CLOEXEC) < 0) {
                        printf("%d %s\n", n, strerrorname_np(errno));
                        return 1;
                }
        printf("%d OK\n", n);
        return 0;
}

/* inotify CAP DIR HOLD: up to CAP inotify instances, then in each a watch on
 * every entry of DIR until one fails; prints "I ERR|OK W ERR|OK" and holds
 * them HOLD seconds (the per-user budget a sandbox can take from its host). */
static int exhaust_inotify(int cap, const char *dir, int hold) {
        static int fds[1024];
        const char *ierr = "OK", *werr = "OK";
        long w = 0;
        int n = 0;

        if (cap > 1024)
                cap = 1024;
        for (; n < cap; n++)
                if ((fds[n] = inotify_init1(IN_CLOEXEC)) < 0) {
                        ierr = strerrorname_np(errno);
                        break;
                }
        for (int i = 0; i < n && !strcmp(werr, "OK"); i++) {
                DIR *d = opendir(dir);
                struct dirent *e;
                char path[4096];

                if (!d)
                        return perror(dir), 2;
                while ((e = readdir(d))) {
                        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
                        if (inotify_add_watch(fds[i], path, IN_MODIFY | IN_DONT_FOLLOW) >= 0)
                                w++;
                        else if (errno == ENOSPC || errno == ENOMEM) {
                                werr = strerrorname_np(errno);
                                break;
                        }
                }
                closedir(d);
        }
        printf("%d %s %ld %s\n", n, ierr, w, werr);
        sleep(hold);
        return 0;
}

/* charged mqueue|sigpending|fanotify|pty HOLD: what the kernel charges to
 * the user namespace's creator or a host-wide pool, taken until it fails:
 * POSIX message queues of 10 x 8 KiB (mq_open), realtime signals queued to
 * ourselves (sigqueue), unprivileged fanotify groups (fanotify_init), ptys
 * (/dev/ptmx), or native AIO contexts of 256 events (io_setup; aio-one: one).
 * Prints "COUNT ERRNO" (OK: 100000 taken), then holds them HOLD seconds. */
static int exhaust_charged(const char *kind, int hold) {
        const char *err = "OK";
        long n = 0;

        if (!strcmp(kind, "mqueue")) {
                struct mq_attr a = { .mq_maxmsg = 10, .mq_msgsize = 8192 };
                char name[64];

                for (; n < 256; n++) {
                        snprintf(name, sizeof(name), "/sbx-probe-%d-%ld", (int) getpid(), n);
                        if (mq_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600, &a) < 0) {
                                err = strerrorname_np(errno);
                                break;
                        }
                        mq_unlink(name);
                }
        } else if (!strcmp(kind, "sigpending")) {
                sigset_t set;

                sigemptyset(&set);
                sigaddset(&set, SIGRTMIN);
                sigprocmask(SIG_BLOCK, &set, NULL);
                for (; n < 1000000; n++)
                        if (sigqueue(getpid(), SIGRTMIN, (union sigval) { .sival_int = 0 }) < 0) {
                                err = strerrorname_np(errno);
                                break;
                        }
        } else if (!strcmp(kind, "aio") || !strcmp(kind, "aio-one")) {
                unsigned long ctx;

                for (; n < (kind[3] ? 1 : 4096); n++)
                        if ((ctx = 0, syscall(SYS_io_setup, 256, &ctx)) < 0) {
                                err = strerrorname_np(errno);
                                break;
                        }
        } else if (!strcmp(kind, "pty")) {
                for (; n < 8192; n++)
                        if (open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC) < 0) {
                                err = strerrorname_np(errno);
                                break;
                        }
        } else if (!strcmp(kind, "fanotify")) {
                for (; n < 4096; n++)
                        if (fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC, O_RDONLY) < 0) {
                                err = strerrorname_np(errno);
                                break;
                        }
        } else
                return fprintf(stderr, "charged: unknown kind %s\n", kind), 2;
        printf("%ld %s\n", n, err);
        fflush(stdout);
        sleep(hold);
        return 0;
}

static int exhaust_procs(int cap) {
        static pid_t pids[4096];
        int n = 0, e = 0;

        if (cap > 4096)
                cap = 4096;
        for (; n < cap; n++) {
                pid_t p = fork();
                if (p == 0) {
                        pause();
                        _exit(0);
                }
                if (p < 0) {
                        e = errno;
                        break;
                }
                pids[n] = p;
        }
        /* Only our own children: never kill(0) (outside, that is the test's group). */
        for (int i = 0; i < n; i++)
                kill(pids[i], SIGKILL);
        while (wait(NULL) > 0)
                ;
        printf("%d %s\n", n, e ? strerrorname_np(e) : "OK");
        return e ? 1 : 0;
}

static int fill(const char *path, long cap_kib) {
        char buf[65536] = {};
        long n = 0;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        if (fd < 0)
                return result(-1);
        for (; n < cap_kib; n += 64)
                if (write(fd, buf, sizeof(buf)) < 0) {
                        printf("%ld %s\n", n, strerrorname_np(errno));
                        return 1;
                }
        printf("%ld OK\n", n);
        return 0;
}

/* a dropped SYN must not hang the test: ETIMEDOUT after 3 s */
static int connect_timed(int s, const struct sockaddr *sa, socklen_t len) {
        struct timeval tv = { .tv_sec = 3 };

        (void) setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
        if (connect(s, sa, len) == 0)
                return result(0);
        /* a blocking connect that ran out of SO_SNDTIMEO says EINPROGRESS */
        if (errno == EINPROGRESS)
                errno = ETIMEDOUT;
        return result(-1);
}

/* A TCP connect to IP:PORT; family AF_INET6 for an IPv6 address (issue 18:
 * v4-mapped ones included). */
static int connect_ip(int family, const char *ip, int port) {
        struct sockaddr_in sa4 = { .sin_family = AF_INET, .sin_port = htons(port) };
        struct sockaddr_in6 sa6 = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
        bool v6 = family == AF_INET6;
        int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (s < 0 || inet_pton(family, ip, v6 ? (void *) &sa6.sin6_addr : (void *) &sa4.sin_addr) != 1)
                return result(-1);
        return v6 ? connect_timed(s, (struct sockaddr *) &sa6, sizeof(sa6))
                  : connect_timed(s, (struct sockaddr *) &sa4, sizeof(sa4));
}

/* issue 18: one UDP datagram from SRC (bound with IP_FREEBIND, which needs no
 * privilege: the address need not be the sandbox's) to IP:PORT; "OK" once sent.
 * Whether it arrived is for the receiver to say. */
static int udp_send_from(const char *src, const char *ip, int port, const char *msg) {
        struct sockaddr_in from = { .sin_family = AF_INET }, to = { .sin_family = AF_INET, .sin_port = htons(port) };
        int one = 1, s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

        if (s < 0 || inet_pton(AF_INET, src, &from.sin_addr) != 1 || inet_pton(AF_INET, ip, &to.sin_addr) != 1)
                return result(-1);
        if (setsockopt(s, SOL_IP, IP_FREEBIND, &one, sizeof(one)) < 0 ||
            bind(s, (struct sockaddr *) &from, sizeof(from)) < 0)
                return result(-1);
        return result(sendto(s, msg, strlen(msg), 0, (struct sockaddr *) &to, sizeof(to)) < 0 ? -1 : 0);
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

/* grab-exe SECONDS PATTERN: step every other process of the sandbox
 * (SIGSTOP, look, SIGCONT) while its /proc/<pid>/exe names PATTERN and print
 * "GOT <exe> fds=N" for the first one whose exe and fd table could be opened
 * (a joining `sbx exec` child between its capability drop and its exec: the
 * host's sbx binary, CVE-2019-5736), else "nothing" after SECONDS. */
static int grab_check(int pid, const char *pattern) {
        char p[64], l[4096] = {};
        DIR *d;
        int n = 0, fd;

        snprintf(p, sizeof(p), "/proc/%d/exe", pid);
        if (readlink(p, l, sizeof(l) - 1) <= 0)
                return errno == ENOENT || errno == ESRCH ? -1 : 0;
        if (!strstr(l, pattern))
                return -1;
        fd = open(p, O_PATH | O_CLOEXEC);
        if (fd < 0)
                return 0;
        close(fd);
        snprintf(p, sizeof(p), "/proc/%d/fd", pid);
        d = opendir(p);
        if (!d)
                return 0;
        for (struct dirent *de; (de = readdir(d));)
                n += de->d_name[0] != '.';
        closedir(d);
        printf("GOT %s fds=%d\n", l, n);
        return 1;
}

static int grab_exe(int secs, const char *pattern) {
        static char seen[1 << 16];
        struct sigaction sa = { .sa_handler = on_signal };
        time_t end = time(NULL) + secs;

        sigaction(SIGTERM, &sa, NULL);  /* the test is done joining: say so */
        printf("ready\n");
        fflush(stdout);
        while (time(NULL) < end && !got) {
                DIR *d = opendir("/proc");
                for (struct dirent *de; d && (de = readdir(d));) {
                        int pid = atoi(de->d_name);
                        if (pid <= 1 || pid == getpid() || pid >= (int) sizeof(seen) || seen[pid])
                                continue;
                        /* a process not (or no longer) PATTERN is looked at
                         * again on the next pass: it may exec PATTERN */
                        for (int i = 0; i < 100000; i++) {
                                int r;
                                if (kill(pid, SIGSTOP) < 0) {
                                        seen[pid] = 1;  /* gone */
                                        break;
                                }
                                r = grab_check(pid, pattern);
                                kill(pid, SIGCONT);
                                if (r == 1) {
                                        closedir(d);
                                        return 0;
                                }
                                if (r < 0)
                                        break;
                        }
                }
                if (d)
                        closedir(d);
        }
        printf("nothing\n");
        return 1;
}

/* sigqueue PID SIG: a signal whose siginfo we write ourselves (SI_QUEUE,
 * si_pid 0: "from outside the pid namespace"). sigio PID SIG: the kernel
 * sends SIG to PID for us (F_SETOWN + F_SETSIG + O_ASYNC on a socket that
 * becomes readable). Each prints OK once sent. */
static int sig_queue(pid_t pid, int sig) {
        siginfo_t si = { .si_signo = sig, .si_code = SI_QUEUE };

        si.si_pid = 0;
        return result((int) syscall(SYS_rt_sigqueueinfo, pid, sig, &si));
}

static int sig_io(pid_t pid, int sig) {
        int sv[2];

        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || fcntl(sv[0], F_SETOWN, pid) < 0 ||
            fcntl(sv[0], F_SETSIG, sig) < 0 || fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_ASYNC) < 0 ||
            write(sv[1], "x", 1) != 1)
                return result(-1);
        usleep(100000);
        return result(0);
}

/* flip A B SECONDS: swap the names A and B (renameat2 RENAME_EXCHANGE) as
 * fast as possible (0 seconds: once): a path that is a directory one instant and a symlink the
 * next, for time-of-check/time-of-use attacks on the host's resolution. */
static int flip(const char *a, const char *b, int secs) {
        time_t end = time(NULL) + secs;
        long n = 0;

        if (secs == 0)  /* one swap */
                return result(syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) < 0 ? -1 : 0);
        while (time(NULL) < end)
                for (int i = 0; i < 1000; i++, n++)
                        if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) < 0)
                                return result(-1);
        /* an even number of swaps: the names are back where they were */
        if (n % 2 && syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2) < 0)
                return result(-1);
        return result(0);
}

/* round 8: IPC objects by name, made, looked up and removed by the same
 * probe inside and outside (sysv KEY: a shared memory segment; mq NAME: a
 * POSIX message queue). */
static int ipc_obj(const char *kind, const char *op, const char *name) {
        bool make = !strcmp(op, "make"), rm = !strcmp(op, "rm");

        if (!strcmp(kind, "sysv")) {
                int id = shmget((key_t) strtol(name, NULL, 0), 4096, make ? IPC_CREAT | IPC_EXCL | 0600 : 0);
                if (id < 0 || !rm)
                        return result(id);
                return result(shmctl(id, IPC_RMID, NULL));
        }
        if (rm)
                return result(mq_unlink(name));
        struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 16 };
        mqd_t q = make ? mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &a) : mq_open(name, O_RDWR | O_CLOEXEC);
        return result(q == (mqd_t) -1 ? -1 : 0);
}

/* key-session CMD...: CMD in a session keyring of its own holding one key
 * ("user" sbx-test-key, payload host-key-secret), its id in $SBX_KEY_ID: the
 * key goes with the session, nothing is left in the caller's keyrings.
 * key-read ID: the key's payload, or the errno. */
static int key_session(char **cmd) {
        char id[32];
        long k;

        if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0)
                return result(-1);
        k = syscall(SYS_add_key, "user", "sbx-test-key", "host-key-secret", 15, KEY_SPEC_SESSION_KEYRING);
        if (k < 0)
                return result(-1);
        snprintf(id, sizeof(id), "%ld", k);
        setenv("SBX_KEY_ID", id, 1);
        execvp(cmd[0], cmd);
        return result(-1);
}

static int key_read(long id) {
        char buf[64] = "";
        long n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf) - 1);

        if (n < 0)
                return result(-1);
        printf("%.*s\n", (int) n, buf);
        return 0;
}

static void usage(void) {
        fputs("usage: sbx-probe caps|uidmap|mounts|ifaces|pidns|fds|env|hostname|tty|userns\n"
              "       sbx-probe try-syscall NAME | open PATH | read PATH | write PATH TEXT | mkdir PATH\n"
              "       sbx-probe chroot-escape DIR PATH...\n"
              "       sbx-probe socket inet|inet6|unix|netlink|packet | connect IP PORT | connect6 IP6 PORT\n"
              "       sbx-probe udp-send-from SRC IP PORT MSG\n"
              "       sbx-probe exec PATH [ARGS...] | exit N | segv | sleep N | wait-signal | tiocsti | tiocsetd\n"
              "       sbx-probe mmap-exec PATH (PROT_EXEC mapping of a file: OK or the errno)\n"
              "       sbx-probe x32 getpid | int80 unshare-user\n"
              "       sbx-probe ids | cwd | self-exe | kill PID SIG | ptrace PID | getfd PID|self | mknod PATH | link OLD NEW\n"
              "       sbx-probe handle PATH | write-open PATH | umount PATH | mount-tmpfs PATH\n"
              "       sbx-probe connect-abstract NAME | listen tcp PORT | listen abstract NAME\n"
              "       sbx-probe exhaust-fds CAP | exhaust-procs CAP | fill PATH CAP_KIB | inotify CAP DIR HOLD\n"
              "       sbx-probe charged mqueue|sigpending|fanotify|pty|aio|aio-one HOLD\n"
              "       sbx-probe grab-exe SECONDS PATTERN | flip A B SECONDS | sigqueue PID SIG | sigio PID SIG\n"
              "       sbx-probe tioclinux | personality VALUE | prctl-mm | unshare-time | syscall-nr N\n"
              "       sbx-probe sysv make|find|rm KEY | mq make|find|rm /NAME | key-session CMD... | key-read ID\n",
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
        if (!strcmp(c, "mmap-exec") && argc == 3) {
                int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
                void *m;
                if (fd < 0)
                        return result(-1);
                m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
                close(fd);
                return result(m == MAP_FAILED ? -1 : 0);
        }
        if (!strcmp(c, "tiocsetd")) {
                int disc = 0;   /* N_TTY, what the terminal has: no change if allowed */
                return result(ioctl(0, TIOCSETD, &disc));
        }
        if (!strcmp(c, "ids")) {
                uid_t r, e, ss;
                gid_t gr, ge, gs;
                getresuid(&r, &e, &ss);
                getresgid(&gr, &ge, &gs);
                printf("ruid=%u euid=%u suid=%u rgid=%u egid=%u sgid=%u\n", r, e, ss, gr, ge, gs);
                return 0;
        }
        if (!strcmp(c, "cwd")) {
                char b[4096];
                if (!getcwd(b, sizeof(b)))
                        return result(-1);
                printf("%s\n", b);
                return 0;
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
        if (!strcmp(c, "self-exe")) {
                /* issue 14: what /proc/self/exe names and which mount it is on */
                char b[4096];
                struct statvfs sv;
                ssize_t n = readlink("/proc/self/exe", b, sizeof(b) - 1);
                if (n < 0)
                        return result(-1);
                b[n] = '\0';
                printf("%s %s\n", b, statvfs("/proc/self/exe", &sv) == 0 && (sv.f_flag & ST_RDONLY) ? "ro" : "rw");
                return 0;
        }
        if (!strcmp(c, "tioclinux")) {
                char sub = 3;   /* TIOCL_PASTESEL: the console selection as input */
                return result(ioctl(0, TIOCLINUX, &sub));
        }
        if (!strcmp(c, "prctl-mm"))     /* the start of argv, as CRIU restores it: the same value */
                return result(prctl(PR_SET_MM, PR_SET_MM_ARG_START, (unsigned long) argv[0], 0, 0));
        if (!strcmp(c, "unshare-time"))
                return result(unshare(CLONE_NEWTIME));
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
        if (!strcmp(c, "chroot-escape") && argc > 3) {
                /* the classic escape (needs CAP_SYS_CHROOT): chroot into a
                 * subdir with the cwd left outside it, climb, chroot there;
                 * then stat each PATH: "PATH OK" or "PATH ENOENT" */
                int r = 0;
                if (mkdir(argv[2], 0700) < 0 && errno != EEXIST)
                        return result(-1);
                if (chroot(argv[2]) < 0)
                        return result(-1);
                for (int i = 0; i < 256; i++)
                        (void) chdir("..");
                if (chroot(".") < 0)
                        return result(-1);
                for (int i = 3; i < argc; i++) {
                        struct stat st;
                        printf("%s ", argv[i]);
                        r |= result(stat(argv[i], &st));
                }
                return r;
        }
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
                return connect_ip(AF_INET, argv[2], atoi(argv[3]));
        if (!strcmp(c, "connect6") && argc > 3)
                return connect_ip(AF_INET6, argv[2], atoi(argv[3]));
        if (!strcmp(c, "udp-send-from") && argc > 5)
                return udp_send_from(argv[2], argv[3], atoi(argv[4]), argv[5]);
        if (!strcmp(c, "exec")) {
                execv(argv[2], argv + 2);
                return result(-1);
        }
        if (!strcmp(c, "exit"))
                return atoi(argv[2]);
        if (!strcmp(c, "int80") && !strcmp(argv[2], "unshare-user")) {
#if defined(__x86_64__)
                /* the i386 ABI from a 64-bit process: unshare(CLONE_NEWUSER),
                 * i386 number 310; sbx's filter kills it (SIGSYS) */
                long ret;
                __asm__ volatile("int $0x80" : "=a"(ret) : "a"(310), "b"(CLONE_NEWUSER) : "memory");
                errno = ret < 0 ? (int) -ret : 0;
                return result(ret < 0 ? -1 : 0);
#else
                printf("ENOSYS\n");
                return 1;
#endif
        }
        if (!strcmp(c, "x32") && !strcmp(argv[2], "getpid")) {
                /* issue 6: an x32-ABI call, which sbx's filter answers with SIGSYS */
                return result((int) syscall(0x40000000 | SYS_getpid));
        }
        if (!strcmp(c, "kill") && argc > 3)
                return result(kill(atoi(argv[2]), atoi(argv[3])));
        /* getfd PID|self: pidfd_getfd of any of its fds 0-63 (OK if one came) */
        if (!strcmp(c, "getfd") && argc > 2) {
                pid_t pid = !strcmp(argv[2], "self") ? getpid() : atoi(argv[2]);
                int pfd = (int) syscall(SYS_pidfd_open, pid, 0), r = -1;
                if (pfd < 0)
                        return result(-1);
                for (int fd = 0; fd < 64 && r < 0; fd++)
                        if ((r = (int) syscall(SYS_pidfd_getfd, pfd, fd, 0)) < 0 && errno == EBADF && fd < 63)
                                continue;
                return result(r);
        }
        if (!strcmp(c, "ptrace")) {
                pid_t pid = atoi(argv[2]);
                if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0)
                        return result(-1);
                waitpid(pid, NULL, __WALL);
                ptrace(PTRACE_DETACH, pid, 0, 0);
                return result(0);
        }
        if (!strcmp(c, "mknod"))
                return result(mknod(argv[2], S_IFCHR | 0666, makedev(1, 3)));
        if (!strcmp(c, "link") && argc > 3)
                return result(link(argv[2], argv[3]));
        if (!strcmp(c, "handle"))
                return by_handle(argv[2]);
        if (!strcmp(c, "write-open"))
                return result(open(argv[2], O_WRONLY | O_CLOEXEC));
        if (!strcmp(c, "umount"))
                return result(umount2(argv[2], MNT_DETACH));
        if (!strcmp(c, "mount-tmpfs"))
                return result(mount("none", argv[2], "tmpfs", 0, NULL));
        if (!strcmp(c, "connect-abstract"))
                return connect_abstract(argv[2]);
        if (!strcmp(c, "listen") && argc > 3)
                return listen_on(argv[2], argv[3]);
        if (!strcmp(c, "exhaust-fds"))
                return exhaust_fds(atoi(argv[2]));
        if (!strcmp(c, "inotify") && argc > 4)
                return exhaust_inotify(atoi(argv[2]), argv[3], atoi(argv[4]));
        if (!strcmp(c, "charged") && argc > 3)
                return exhaust_charged(argv[2], atoi(argv[3]));
        if (!strcmp(c, "exhaust-procs"))
                return exhaust_procs(atoi(argv[2]));
        if (!strcmp(c, "fill") && argc > 3)
                return fill(argv[2], atol(argv[3]));
        if (!strcmp(c, "sigqueue") && argc > 3)
                return sig_queue(atoi(argv[2]), atoi(argv[3]));
        if (!strcmp(c, "sigio") && argc > 3)
                return sig_io(atoi(argv[2]), atoi(argv[3]));
        if (!strcmp(c, "flip") && argc > 4)
                return flip(argv[2], argv[3], atoi(argv[4]));
        if (!strcmp(c, "grab-exe") && argc > 3)
                return grab_exe(atoi(argv[2]), argv[3]);
        if (!strcmp(c, "personality") && argc > 2)
                return result(personality(strtoul(argv[2], NULL, 0)));
        if (!strcmp(c, "syscall-nr") && argc > 2)
                return result((int) syscall(strtol(argv[2], NULL, 0), 0, 0, 0, 0, 0, 0));
        if ((!strcmp(c, "sysv") || !strcmp(c, "mq")) && argc > 3)
                return ipc_obj(c, argv[2], argv[3]);
        if (!strcmp(c, "key-session") && argc > 2)
                return key_session(argv + 2);
        if (!strcmp(c, "key-read") && argc > 2)
                return key_read(atol(argv[2]));
        if (!strcmp(c, "sleep")) {
                sleep(atoi(argv[2]));
                return 0;
        }
        usage();
        return 2;
}

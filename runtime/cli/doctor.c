/* SPDX-License-Identifier: MIT */
/* Host probes behind `sbx doctor` (issue 5). Each probe tries the real
 * thing: namespaces, mounts and seccomp filters are attempted in a forked
 * child (fork_probe) so the caller's state never changes, and the child
 * reports 0 or an errno through its exit status. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doctor.h"
#include "util/util.h"

#pragma GCC diagnostic ignored "-Wformat-truncation"

const char *sbx_check_status_to_string(sbx_check_status s) {
        switch (s) {
        case SBX_CHECK_OK:      return "ok";
        case SBX_CHECK_WARN:    return "warn";
        case SBX_CHECK_MISSING: return "missing";
        case _SBX_CHECK_STATUS_MAX:
        default:                return "invalid";
        }
}

static sbx_check *add(sbx_doctor_report *r, const char *id, const char *title, bool required) {
        sbx_check *c = &r->checks[r->n++];

        memset(c, 0, sizeof(*c));
        c->id = id;
        c->title = title;
        c->required = required;
        return c;
}

static void say(char *buf, size_t len, const char *fmt, ...) _printf_(3, 4);
static void say(char *buf, size_t len, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(buf + strlen(buf), len - strlen(buf), fmt, ap);
        va_end(ap);
}
#define DETAIL(c, ...) say((c)->detail, sizeof((c)->detail), __VA_ARGS__)
#define FIX(c, ...) say((c)->fix, sizeof((c)->fix), __VA_ARGS__)

static int read_int_file(const char *path, long *ret) {
        FILE *f = fopen(path, "re");
        int ok;

        if (!f)
                return -errno;
        ok = fscanf(f, "%ld", ret) == 1;
        fclose(f);
        return ok ? 0 : -EIO;
}

static int write_file(const char *path, const char *s) {
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        ssize_t n;

        if (fd < 0)
                return -errno;
        n = write(fd, s, strlen(s));
        if (n < 0) {
                n = -errno;
                close(fd);
                return (int) n;
        }
        close(fd);
        return 0;
}

/* Run fn in a forked child with a 10 s alarm; returns the errno it reported
 * (0 = worked), or -1 if it died. */
static int fork_probe(int (*fn)(void *), void *arg) {
        int status;
        pid_t pid;

        pid = fork();
        if (pid < 0)
                return errno;
        if (pid == 0) {
                alarm(10);
                _exit(fn(arg) & 0xff);
        }
        if (waitpid(pid, &status, 0) < 0)
                return -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* In the child: new user + mount namespace, mapping the caller to 0. */
static int enter_userns(bool mount_ns) {
        char map[64];
        uid_t uid = geteuid();
        gid_t gid = getegid();

        if (unshare(CLONE_NEWUSER | (mount_ns ? CLONE_NEWNS : 0)) < 0)
                return errno;
        snprintf(map, sizeof(map), "0 %u 1", (unsigned) uid);
        if (write_file("/proc/self/uid_map", map) < 0)
                return errno;
        (void) write_file("/proc/self/setgroups", "deny");
        snprintf(map, sizeof(map), "0 %u 1", (unsigned) gid);
        if (write_file("/proc/self/gid_map", map) < 0)
                return errno;
        if (mount_ns && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return errno;
        return 0;
}

static int probe_userns_child(void *arg) {
        if (arg && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
                    setresuid(65534, 65534, 65534) < 0))
                return errno;
        /* the uid change made us non-dumpable: /proc/self/uid_map would be root's */
        if (arg && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
                return errno;
        return enter_userns(true);
}

static void check_userns(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "userns", "user namespaces", true);
        long max = -1, clone_ok = -1, aa = -1;
        int r, ru = -2;

        (void) read_int_file("/proc/sys/user/max_user_namespaces", &max);
        (void) read_int_file("/proc/sys/kernel/unprivileged_userns_clone", &clone_ok);
        (void) read_int_file("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", &aa);
        r = fork_probe(probe_userns_child, NULL);
        if (geteuid() == 0)
                ru = fork_probe(probe_userns_child, (void *) 1);

        DETAIL(c, "user.max_user_namespaces=%ld", max);
        if (clone_ok >= 0)
                DETAIL(c, ", kernel.unprivileged_userns_clone=%ld", clone_ok);
        if (aa >= 0)
                DETAIL(c, ", kernel.apparmor_restrict_unprivileged_userns=%ld", aa);
        DETAIL(c, "; unshare(user+mount) as uid %u: %s", (unsigned) geteuid(),
               r == 0 ? "works" : r > 0 ? strerror(r) : "crashed");
        if (ru != -2)
                DETAIL(c, "; as uid 65534: %s", ru == 0 ? "works" : ru > 0 ? strerror(ru) : "crashed");
        c->status = r == 0 ? SBX_CHECK_OK : SBX_CHECK_MISSING;
        if (r == 0 && ru > 0)
                c->status = SBX_CHECK_WARN;
        if (max == 0)
                FIX(c, "sysctl -w user.max_user_namespaces=15000");
        if (clone_ok == 0)
                FIX(c, "%ssysctl -w kernel.unprivileged_userns_clone=1", c->fix[0] ? "; " : "");
        if (aa == 1 && (r != 0 || ru > 0))
                FIX(c, "%ssysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor "
                    "profile allowing userns for sbx)", c->fix[0] ? "; " : "");
        if (c->status != SBX_CHECK_OK && !c->fix[0])
                FIX(c, "enable CONFIG_USER_NS, or check for a seccomp/LSM policy blocking unshare");
}

static void check_cgroup(sbx_doctor_report *rep) {
        sbx_cgroup_host *h = &rep->cgroup;
        sbx_check *c = add(rep, "cgroup", "cgroup hierarchy and controllers", false);
        sbx_check *d = add(rep, "cgroup-delegation", "cgroup for sandboxes (delegation)", false);
        static const char *const need[] = { "memory", "pids", "cpu" };
        const char *missing = NULL;

        (void) sbx_cgroup_probe_host(h);
        DETAIL(c, "mode %s", sbx_cgroup_mode_to_string(h->mode));
        if (h->use_v1) {
                /* issue 15: limits on the v1 hierarchies */
                DETAIL(c, ": limits use cgroup v1:");
                for (unsigned i = 0; i < h->n_v1; i++)
                        DETAIL(c, "%s %s at %s", i ? "," : "", h->v1_controllers[i], h->v1_mount[i]);
                if (h->mount[0])
                        DETAIL(c, "; cgroup2 at %s has %s", h->mount,
                               h->root_controllers[0] ? h->root_controllers : "no controllers");
                for (size_t i = 0; i < ELEMENTSOF(need); i++)
                        if (!sbx_cgroup_list_has(h->available, need[i]) && !missing)
                                missing = need[i];
                if (missing) {
                        char fix[SBX_ERROR_MSG_MAX];
                        c->status = SBX_CHECK_WARN;
                        DETAIL(c, "; %s limits are refused (--limits best-effort runs without them)",
                               missing);
                        sbx_cgroup_missing_fix(h, missing, fix, sizeof(fix));
                        FIX(c, "%s", strstr(fix, "fix: ") ? strstr(fix, "fix: ") + 5 : fix);
                } else
                        c->status = SBX_CHECK_OK;
        } else if (h->mount[0])
                DETAIL(c, ": cgroup2 at %s%s, controllers: %s", h->mount,
                       h->nsdelegate ? " (nsdelegate)" : "",
                       h->root_controllers[0] ? h->root_controllers : "none");
        for (size_t i = 0; i < ELEMENTSOF(need) && !h->use_v1; i++)
                if (!sbx_cgroup_list_has(h->root_controllers, need[i])) {
                        missing = need[i];
                        break;
                }
        if (h->use_v1)
                ;
        else if (!h->mount[0] || missing) {
                char fix[SBX_ERROR_MSG_MAX] = "";
                c->status = SBX_CHECK_WARN;
                DETAIL(c, "; memory/pids/cpu limits are refused (--limits best-effort runs "
                       "without them)");
                if (h->mount[0])
                        sbx_cgroup_missing_fix(h, missing, fix, sizeof(fix));
                else
                        snprintf(fix, sizeof(fix), "%s", h->problem);
                FIX(c, "%s", strstr(fix, "fix: ") ? strstr(fix, "fix: ") + 5 : fix);
        } else
                c->status = SBX_CHECK_OK;

        rep->limits_enforceable = h->usable == 0;
        for (size_t i = 0; i < ELEMENTSOF(need); i++)
                if (!sbx_cgroup_list_has(h->available, need[i]))
                        rep->limits_enforceable = false;
        if (h->base[0])
                DETAIL(d, "sandbox cgroups go to %s/sbx-<name> (%s%s); controllers available "
                       "there: %s", h->base,
                       h->privileged ? "root: a subtree sbx owns" : "delegated to this user",
                       h->from_env ? ", from " SBX_CGROUP_ROOT_ENV : "",
                       h->available[0] ? h->available : "none");
        if (h->usable < 0) {
                d->status = SBX_CHECK_WARN;
                const char *f = strstr(h->problem, "; fix: ");
                DETAIL(d, "%s%.*s", d->detail[0] ? "; " : "",
                       (int) (f ? (size_t) (f - h->problem) : strlen(h->problem)), h->problem);
        } else if (!rep->limits_enforceable) {
                d->status = SBX_CHECK_WARN;
                DETAIL(d, "; limits refused unless --limits best-effort");
                for (size_t i = 0; i < ELEMENTSOF(need); i++)
                        if (!sbx_cgroup_list_has(h->available, need[i])) {
                                char fix[SBX_ERROR_MSG_MAX];
                                sbx_cgroup_missing_fix(h, need[i], fix, sizeof(fix));
                                FIX(d, "%s", strstr(fix, "fix: ") ? strstr(fix, "fix: ") + 5 : fix);
                                break;
                        }
        } else {
                d->status = SBX_CHECK_OK;
                DETAIL(d, "; memory, pids and cpu limits are enforced (cgroup %s)",
                       sbx_cgroup_host_hierarchy(h));
        }
        /* issue 15: the default process cap of every sandbox */
        rep->default_pids_limit = h->usable == 0 && sbx_cgroup_list_has(h->available, "pids")
                                          ? sbx_limits_default_pids() : 0;
        if (rep->default_pids_limit > 0)
                DETAIL(d, "; every sandbox gets a default cap of %lld processes (%s; "
                       "--pids-limit/docker.pidsLimit per sandbox)", (long long) rep->default_pids_limit,
                       getenv(SBX_DEFAULT_PIDS_LIMIT_ENV) ? "from " SBX_DEFAULT_PIDS_LIMIT_ENV
                                                          : SBX_DEFAULT_PIDS_LIMIT_ENV "=0 turns it off");
        else
                DETAIL(d, "; no default process cap (%s)",
                       sbx_limits_default_pids() == 0 ? SBX_DEFAULT_PIDS_LIMIT_ENV "=0"
                                                      : "no usable pids controller");
        rep->freezer = h->use_v1 ? sbx_cgroup_list_has(h->available, "freezer") && h->usable == 0
                                 : h->usable == 0;
        if (h->usable < 0 && strstr(h->problem, "fix: "))
                FIX(d, "%s", strstr(h->problem, "fix: ") + 5);
}

static int probe_overlay_child(void *arg) {
        const char *dir = arg;
        char l[PATH_MAX], u[PATH_MAX], w[PATH_MAX], m[PATH_MAX], opts[4 * PATH_MAX];
        int r = enter_userns(true);

        if (r)
                return r;
        if (mount("tmpfs", dir, "tmpfs", 0, "mode=0755") < 0)
                return errno;
        snprintf(l, sizeof(l), "%s/l", dir);
        snprintf(u, sizeof(u), "%s/u", dir);
        snprintf(w, sizeof(w), "%s/w", dir);
        snprintf(m, sizeof(m), "%s/m", dir);
        if (mkdir(l, 0755) < 0 || mkdir(u, 0755) < 0 || mkdir(w, 0755) < 0 || mkdir(m, 0755) < 0)
                return errno;
        snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", l, u, w);
        if (mount("overlay", m, "overlay", 0, opts) < 0)
                return errno;
        return 0;
}

static int probe_idmap_child(void *arg) {
        const char *dir = arg;
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
        char path[64], b;
        int p[2], tfd, ufd, r;
        pid_t pid;

        r = enter_userns(true);
        if (r)
                return r;
        if (mount("tmpfs", dir, "tmpfs", 0, "mode=0755") < 0)
                return errno;
        tfd = (int) syscall(SYS_open_tree, AT_FDCWD, dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
        if (tfd < 0)
                return errno;
        if (pipe2(p, O_CLOEXEC) < 0)
                return errno;
        pid = fork();
        if (pid < 0)
                return errno;
        if (pid == 0) {
                /* the user namespace the mount gets idmapped to */
                if (unshare(CLONE_NEWUSER) < 0)
                        _exit(1);
                (void) !write(p[1], "x", 1);
                pause();
                _exit(0);
        }
        close(p[1]);
        if (read(p[0], &b, 1) != 1)
                return ECHILD;
        snprintf(path, sizeof(path), "/proc/%d/uid_map", (int) pid);
        r = write_file(path, "0 0 1");
        snprintf(path, sizeof(path), "/proc/%d/gid_map", (int) pid);
        if (r == 0)
                r = write_file(path, "0 0 1");
        snprintf(path, sizeof(path), "/proc/%d/ns/user", (int) pid);
        ufd = open(path, O_RDONLY | O_CLOEXEC);
        if (r == 0 && ufd < 0)
                r = -errno;
        attr.userns_fd = (uint64_t) ufd;
        if (r == 0 && syscall(SYS_mount_setattr, tfd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
                r = -errno;
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -r;
}

/* Probes that mount need a scratch directory; it stays empty on the host
 * (the mounts live in the child's mount namespace). */
static int probe_in_tmpdir(int (*fn)(void *)) {
        char dir[] = "/tmp/sbx-doctor-XXXXXX";
        int r;

        if (!mkdtemp(dir))
                return errno;
        r = fork_probe(fn, dir);
        (void) rmdir(dir);
        return r;
}

static const char *err_name(int r) {
        return r == 0 ? "works" : r > 0 ? strerror(r) : "probe crashed";
}

/* An optional feature a mount probe in a scratch directory shows: ok when
 * child works, else warn with fix. */
static void check_mount_probe(sbx_doctor_report *rep, const char *id, const char *title,
                              int (*child)(void *), const char *what, const char *fix) {
        sbx_check *c = add(rep, id, title, false);
        int r = probe_in_tmpdir(child);

        c->status = r == 0 ? SBX_CHECK_OK : SBX_CHECK_WARN;
        DETAIL(c, "%s: %s", what, err_name(r));
        if (r)
                FIX(c, "%s", fix);
}

static void check_overlay(sbx_doctor_report *rep) {
        check_mount_probe(rep, "overlay-userns", "overlayfs in a user namespace", probe_overlay_child,
                          "mount overlay (tmpfs layers) inside a new user+mount namespace",
                          "use a kernel >= 5.11 (unprivileged overlayfs); without it /workspace cannot be "
                          "an overlay");
}

static int probe_seccomp_child(void *arg) {
        struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
        struct sock_fprog prog = { .len = 1, .filter = allow };
        long fd;

        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return 20;
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
                return 20;
        fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
        return fd < 0 ? 10 : 0;
}

static void check_seccomp(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "seccomp", "seccomp filters and user notification", true);
        int r = fork_probe(probe_seccomp_child, NULL);

        c->status = r == 0 ? SBX_CHECK_OK : r == 10 ? SBX_CHECK_WARN : SBX_CHECK_MISSING;
        DETAIL(c, "seccomp filter: %s; user notification (NEW_LISTENER): %s",
               r == 0 || r == 10 ? "works" : "fails", r == 0 ? "works" : "fails");
        if (r == 10)
                FIX(c, "kernel >= 5.0 for SECCOMP_RET_USER_NOTIF");
        else if (r)
                FIX(c, "enable CONFIG_SECCOMP_FILTER; sbx cannot run without seccomp");
}

static void check_landlock(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "landlock", "Landlock LSM", false);
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        int e = errno;

        rep->landlock_abi = abi > 0 ? (int) abi : 0;
        if (abi > 0) {
                c->status = SBX_CHECK_OK;
                DETAIL(c, "ABI version %ld: enforces the derived rules read-only file system "
                       "(--read-only-fs%s) and exec allowlist (--exec-allow)", abi,
                       abi >= 3 ? "" : ", without the truncate right before ABI 3");
        } else {
                c->status = SBX_CHECK_WARN;
                DETAIL(c, "landlock_create_ruleset: %s; CANNOT enforce the derived rules read-only file "
                       "system (--read-only-fs) and exec allowlist (--exec-allow): sbx run refuses them "
                       "unless --landlock best-effort", strerror(e));
                FIX(c, e == EOPNOTSUPP ? "add landlock to the lsm= kernel command line" :
                                         "use a kernel with CONFIG_SECURITY_LANDLOCK (>= 5.13)");
        }
}

static void check_idmap(sbx_doctor_report *rep) {
        check_mount_probe(rep, "idmapped-mounts", "idmapped mounts", probe_idmap_child,
                          "mount_setattr(MOUNT_ATTR_IDMAP) on a tmpfs in a user namespace",
                          "kernel >= 6.3 for idmapped tmpfs; sbx works without (no uid shifting of binds)");
}

static bool in_path(const char *name, char *buf, size_t len) {
        const char *path = getenv("PATH");
        char dirs[4096];

        snprintf(dirs, sizeof(dirs), "%s", path && *path ? path : "/usr/bin:/bin:/usr/sbin:/sbin");
        for (char *s = NULL, *d = strtok_r(dirs, ":", &s); d; d = strtok_r(NULL, ":", &s)) {
                snprintf(buf, len, "%s/%s", d, name);
                if (access(buf, X_OK) == 0)
                        return true;
        }
        return false;
}

/* network "bridge": as root the kernel bridge with nft NAT (the nft tool must
 * work), otherwise pasta, which opens /dev/net/tun as the user. */
static void check_bridge_net(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "network-bridge", "network \"bridge\" (root: nft NAT; else pasta)", false);
        const char *const nft_argv[] = { "nft", "list", "tables", NULL };
        char p[PATH_MAX], err[200] = "";
        int fd, k;

        if (geteuid() == 0) {
                k = sbx_tool_run(nft_argv, NULL, 5000, err, sizeof(err), NULL);
                c->status = k == 0 ? SBX_CHECK_OK : SBX_CHECK_WARN;
                if (k == 0)
                        DETAIL(c, "nft works: veth on sbx0 with masquerading NAT");
                else {
                        DETAIL(c, "nft %s: %s", k < 0 ? "not found" : "fails", err[0] ? err : "(no message)");
                        FIX(c, "apt-get install nftables (and a kernel with nf_tables)");
                }
                return;
        }
        if (!in_path("pasta", p, sizeof(p))) {
                c->status = SBX_CHECK_WARN;
                DETAIL(c, "pasta not found in PATH");
                FIX(c, "apt-get install passt");
                return;
        }
        fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
        if (fd < 0) {
                c->status = SBX_CHECK_WARN;
                DETAIL(c, "%s found, but /dev/net/tun: %s", p, strerror(errno));
                FIX(c, "make /dev/net/tun mode 0666 (Debian's udev rule does; chmod 0666 /dev/net/tun)");
                return;
        }
        close(fd);
        c->status = SBX_CHECK_OK;
        DETAIL(c, "%s, /dev/net/tun usable", p);
}

static int count_subids(const char *file, const char *user, uid_t uid, unsigned long *ret) {
        FILE *f = fopen(file, "re");
        char line[512], id[32];
        int n = 0;

        *ret = 0;
        if (!f)
                return -errno;
        snprintf(id, sizeof(id), "%u", (unsigned) uid);
        while (fgets(line, sizeof(line), f)) {
                char *c1 = strchr(line, ':'), *c2;
                if (!c1 || !(c2 = strchr(c1 + 1, ':')))
                        continue;
                *c1 = '\0';
                if (strcmp(line, id) && (!user || strcmp(line, user)))
                        continue;
                n++;
                *ret += strtoul(c2 + 1, NULL, 10);
        }
        fclose(f);
        return n;
}

static void check_subids(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "subids", "subordinate id ranges", false);
        struct passwd *pw = getpwuid(geteuid());
        const char *user = pw ? pw->pw_name : NULL;
        unsigned long nu = 0, ng = 0;
        char p[PATH_MAX];
        int ru = count_subids("/etc/subuid", user, geteuid(), &nu);
        int rg = count_subids("/etc/subgid", user, geteuid(), &ng);
        bool tools = in_path("newuidmap", p, sizeof(p)) && in_path("newgidmap", p, sizeof(p));

        DETAIL(c, "%s (uid %u): %lu subuids, %lu subgids in /etc/subuid, /etc/subgid; "
               "newuidmap/newgidmap: %s", user ? user : "?", (unsigned) geteuid(),
               ru > 0 ? nu : 0, rg > 0 ? ng : 0, tools ? "present" : "missing");
        c->status = nu >= 65536 && ng >= 65536 && tools ? SBX_CHECK_OK : SBX_CHECK_WARN;
        if (c->status != SBX_CHECK_OK)
                DETAIL(c, "; sandboxes map a single uid");
        if (nu < 65536 || ng < 65536)
                FIX(c, "usermod --add-subuids 100000-165535 --add-subgids 100000-165535 %s",
                    user ? user : "USER");
        if (!tools)
                FIX(c, "%sapt-get install uidmap", c->fix[0] ? "; " : "");
}

static void check_clone3(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "clone3", "clone3 with CLONE_INTO_CGROUP", false);
        struct clone_args args = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD,
                                   .cgroup = 1000000 /* not an open fd */ };
        long r = syscall(SYS_clone3, &args, sizeof(args));
        int e = errno;

        if (r == 0)
                _exit(0);       /* cannot happen with a closed fd; never run on in the child */
        if (r > 0)
                waitpid((pid_t) r, NULL, 0);
        /* EBADF: the flag was accepted and the fd looked up */
        c->status = e == EBADF ? SBX_CHECK_OK : SBX_CHECK_WARN;
        DETAIL(c, "clone3(CLONE_INTO_CGROUP, closed fd): %s (%s)", strerror(e),
               e == EBADF ? "supported" : e == ENOSYS ? "no clone3" : "flag not supported");
        if (e != EBADF)
                FIX(c, "kernel >= 5.7; sbx then moves the child into its cgroup after clone");
}

static void check_openat2(sbx_doctor_report *rep) {
        sbx_check *c = add(rep, "openat2", "openat2 (RESOLVE_*)", false);
        struct open_how how = { .flags = O_PATH | O_CLOEXEC,
                                .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
        long fd = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));
        int e = errno;

        if (fd >= 0) {
                close((int) fd);
                c->status = SBX_CHECK_OK;
                DETAIL(c, "openat2(RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS) works");
        } else {
                c->status = SBX_CHECK_WARN;
                DETAIL(c, "openat2: %s; sbx falls back to an O_PATH walk", strerror(e));
                FIX(c, "kernel >= 5.6");
        }
}

void sbx_doctor_run(sbx_doctor_report *ret) {
        memset(ret, 0, sizeof(*ret));
        check_userns(ret);
        check_cgroup(ret);
        check_overlay(ret);
        check_seccomp(ret);
        check_landlock(ret);
        check_idmap(ret);
        check_bridge_net(ret);
        check_subids(ret);
        check_clone3(ret);
        check_openat2(ret);
}

bool sbx_doctor_hard_failure(const sbx_doctor_report *r) {
        for (size_t i = 0; i < r->n; i++)
                if (r->checks[i].required && r->checks[i].status == SBX_CHECK_MISSING)
                        return true;
        return false;
}

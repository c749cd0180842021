/* SPDX-License-Identifier: MIT */
/* cgtest: drives runtime/cgroup/cgroup.c the way the launcher does (prepare ->
 * clone3(CLONE_INTO_CGROUP, .cgroup = dirfd) -> wait -> oom report ->
 * cleanup) with real workloads, inside the cgroup-v2 VM (tests/vm/).
 *
 *   cgtest LABEL SCENARIO...
 *   scenarios: memory pids cpu swap contain attach join api refuse refuse-cpu
 *
 * Prints TAP test lines without numbers and without a plan ("ok - ...");
 * cgroup-suite.sh numbers nothing either and the host wrapper adds the plan.
 * Exit status 1 if any check failed. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"

#define MiB (1024LL * 1024)

static const char *label;
static int failed;

static void check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int cond, const char *fmt, ...) {
        va_list ap;

        printf("%s - [%s] ", cond ? "ok" : "not ok", label);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
        if (!cond)
                failed = 1;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
        va_list ap;

        printf("# [%s] ", label);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
}

static double now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the launcher does: the child starts life inside the cgroup. */
static pid_t spawn(const sbx_cgroup *cg, uint64_t flags, int (*fn)(void *), void *arg) {
        struct clone_args a = {
                .flags = CLONE_INTO_CGROUP | flags,
                .exit_signal = SIGCHLD,
                .cgroup = (uint64_t) cg->dirfd,
        };
        long pid;

        fflush(stdout);
        pid = syscall(SYS_clone3, &a, sizeof(a));
        if (pid == 0)
                _exit(fn(arg));
        return (pid_t) pid;
}

static int wait_status(pid_t pid) {
        int st = 0;

        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        return st;
}

static int read_file(const char *dir, const char *file, char *buf, size_t len) {
        char p[PATH_MAX + 64];
        FILE *f;
        size_t n;

        snprintf(p, sizeof(p), "%s/%s", dir, file);
        f = fopen(p, "re");
        if (!f)
                return -errno;
        n = fread(buf, 1, len - 1, f);
        buf[n] = '\0';
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
        return 0;
}

static int write_file(const char *path, const char *s) {
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        int r = 0;

        if (fd < 0)
                return errno;
        if (write(fd, s, strlen(s)) < 0)
                r = errno;
        close(fd);
        return r;
}

static int prepare(const char *scenario, const sbx_limits *l, sbx_cgroup *cg) {
        char name[64];
        sbx_error e = {};
        int r;

        snprintf(name, sizeof(name), "cgtest-%s-%d", scenario, (int) getpid());
        r = sbx_cgroup_prepare(name, l, cg, &e);
        check(r == 0 && cg->dirfd >= 0, "%s: sbx_cgroup_prepare creates %s%s%s", scenario,
              r == 0 ? cg->path : "nothing: ", r ? e.msg : "", "");
        return r == 0 && cg->dirfd >= 0 ? 0 : -1;
}

static void cleanup_checked(const char *scenario, sbx_cgroup *cg) {
        char path[PATH_MAX];
        int r;

        snprintf(path, sizeof(path), "%s", cg->path);
        r = sbx_cgroup_cleanup(cg);
        check(r == 0 && access(path, F_OK) < 0 && errno == ENOENT,
              "%s: cleanup killed everything and removed the cgroup (r=%d)", scenario, r);
}

/* ---- memory --------------------------------------------------------------- */

static int hog(void *arg) {
        size_t sz = (size_t) (long) arg * MiB;
        volatile char *p = malloc(sz);
        unsigned sum = 0;

        if (!p)
                return 3;
        for (size_t i = 0; i < sz; i += 4096)
                p[i] = (char) (i >> 12);
        for (size_t i = 0; i < sz; i += 4096)
                sum += (unsigned char) p[i];
        if (getenv("CGTEST_DEBUG"))
                fprintf(stderr, "hog %zu MiB touched (sum %u)\n", sz >> 20, sum);
        return sum == 0xdeadbeef ? 4 : 0;
}

static void scenario_memory(void) {
        sbx_limits l;
        sbx_cgroup cg;
        char buf[128] = "";
        uint64_t ooms = 0;
        int st, r;

        sbx_limits_init(&l);
        l.memory = 64 * MiB;
        if (prepare("memory", &l, &cg) < 0)
                return;
        read_file(cg.path, "memory.max", buf, sizeof(buf));
        check(!strcmp(buf, "67108864"), "memory: memory.max = %s (64m)", buf);
        read_file(cg.path, "memory.swap.max", buf, sizeof(buf));
        check(!strcmp(buf, "67108864"), "memory: memory.swap.max = %s (docker default: as much "
              "swap as memory)", buf);

        st = wait_status(spawn(&cg, 0, hog, (void *) 16L));
        check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "memory: a 16m job runs under 64m (status 0x%x)", st);
        r = sbx_cgroup_oom_kills(&cg, &ooms);
        check(r == 0 && ooms == 0, "memory: no OOM kill yet (%llu)", (unsigned long long) ooms);

        st = wait_status(spawn(&cg, 0, hog, (void *) 256L));
        {
                char peak[64] = "", mx[64] = "";
                read_file(cg.path, "memory.peak", peak, sizeof(peak));
                read_file(cg.path, "memory.max", mx, sizeof(mx));
                note("memory: after the hog: memory.peak=%s memory.max=%s", peak, mx);
        }
        check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "memory: a 256m hog is SIGKILLed "
              "(status 0x%x)", st);
        r = sbx_cgroup_oom_kills(&cg, &ooms);
        check(r == 0 && ooms >= 1, "memory: sbx_cgroup_oom_kills "
              "reports the OOM kill (oom_kill=%llu)", (unsigned long long) ooms);
        {
                char msg[128] = "";
                r = sbx_cgroup_oom_message(&cg, &l, msg, sizeof(msg));
                check(r == 1 && !strcmp(msg, "killed: memory limit (docker.memory=64m) exceeded"),
                      "memory: sbx_cgroup_oom_message: '%s'", msg);
        }
        cleanup_checked("memory", &cg);
}

/* Docker's memorySwap = memory + swap: what lands in memory.swap.max. */
static void scenario_swap(void) {
        static const struct { int64_t swap; const char *want; } cases[] = {
                { 128 * MiB, "67108864" },      /* 128m total - 64m memory */
                { 64 * MiB, "0" },              /* total == memory: no swap */
                { SBX_LIMIT_UNLIMITED, "max" }, /* -1: unlimited swap */
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                sbx_limits l;
                sbx_cgroup cg;
                char buf[64] = "";

                sbx_limits_init(&l);
                l.memory = 64 * MiB;
                l.memory_swap = cases[i].swap;
                if (prepare("swap", &l, &cg) < 0)
                        continue;
                read_file(cg.path, "memory.swap.max", buf, sizeof(buf));
                check(!strcmp(buf, cases[i].want), "swap: --memory 64m --memory-swap %lld -> "
                      "memory.swap.max=%s (want %s)", (long long) cases[i].swap, buf,
                      cases[i].want);
                cleanup_checked("swap", &cg);
        }
}

/* ---- pids ----------------------------------------------------------------- */

static int bomb(void *arg) {
        int n = 0;

        for (; n < 1000; n++) {
                pid_t p = fork();
                if (p < 0)
                        break;
                if (p == 0) {
                        pause();
                        _exit(0);
                }
        }
        return n > 250 ? 250 : n;
}

static void scenario_pids(void) {
        sbx_limits l;
        sbx_cgroup cg;
        char buf[128] = "";
        uint64_t cur = 0, ev = 0;
        int st;

        sbx_limits_init(&l);
        l.pids = 20;
        if (prepare("pids", &l, &cg) < 0)
                return;
        read_file(cg.path, "pids.max", buf, sizeof(buf));
        check(!strcmp(buf, "20"), "pids: pids.max = %s", buf);
        st = wait_status(spawn(&cg, 0, bomb, NULL));
        check(WIFEXITED(st) && WEXITSTATUS(st) == 19, "pids: fork loop stops at pidsLimit "
              "(itself + %d forks = 20)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        sbx_cgroup_read_key(&cg, "pids.events", "max", &ev);
        read_file(cg.path, "pids.current", buf, sizeof(buf));
        cur = strtoull(buf, NULL, 10);
        check(ev >= 1 && cur <= 20, "pids: pids.events max=%llu, %llu orphans still in the cgroup",
              (unsigned long long) ev, (unsigned long long) cur);
        cleanup_checked("pids", &cg);
}

/* ---- cpu ------------------------------------------------------------------ */

static int spin(void *arg) {
        double end = now() + (double) (long) arg;

        while (now() < end)
                ;
        return 0;
}

static void scenario_cpu(void) {
        sbx_limits l;
        sbx_cgroup cg;
        char buf[128] = "";
        uint64_t use = 0, thr = 0;
        double t0, wall, ratio;
        int st;

        sbx_limits_init(&l);
        l.cpu_millis = 500;
        if (prepare("cpu", &l, &cg) < 0)
                return;
        read_file(cg.path, "cpu.max", buf, sizeof(buf));
        check(!strcmp(buf, "50000 100000"), "cpu: cpu.max = '%s' (cpus 0.5)", buf);
        t0 = now();
        st = wait_status(spawn(&cg, 0, spin, (void *) 4L));
        wall = now() - t0;
        sbx_cgroup_read_key(&cg, "cpu.stat", "usage_usec", &use);
        sbx_cgroup_read_key(&cg, "cpu.stat", "nr_throttled", &thr);
        ratio = use / 1e6 / wall;
        note("cpu: spinner used %.2f s of CPU in %.2f s wall = %.2f CPUs, nr_throttled=%llu",
             use / 1e6, wall, ratio, (unsigned long long) thr);
        check(WIFEXITED(st) && ratio > 0.35 && ratio < 0.65 && thr > 0,
              "cpu: a spinner under cpus=0.5 gets about half a CPU (%.2f)", ratio);
        cleanup_checked("cpu", &cg);
}

/* ---- containment ---------------------------------------------------------- */

struct contain {
        const char *cg;         /* the sandbox cgroup (host path) */
        const char *home;       /* the cgroup we came from */
        const char *mnt;        /* empty directory for its own cgroup2 mount */
        int fd;                 /* pipe: results */
};

/* The sandbox's own cgroupfs view, as a launcher gives it (mounted inside
 * its cgroup namespace): rooted at its cgroup, with read-only limits.
 * Returns 0 if so, else an errno (or -1 if the root is another cgroup). */
static int own_view(const char *dir) {
        char pids[4096] = "", me[32], p[PATH_MAX + 32];

        if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount("cgroup2", dir, "cgroup2", 0, NULL) < 0)
                return 1000 + errno;
        read_file(dir, "cgroup.procs", pids, sizeof(pids));
        snprintf(me, sizeof(me), "%d", (int) getpid());
        if (strcmp(pids, me))
                return -1;              /* its view shows other processes: not its own cgroup */
        snprintf(p, sizeof(p), "%s/memory.max", dir);
        return write_file(p, "max") ? 0 : -2;
}

static int contained(void *arg) {
        struct contain *c = arg;
        char p[PATH_MAX + 64], before[256] = "", after[256] = "";
        int res[4];

        read_file("/proc/self", "cgroup", before, sizeof(before));
        snprintf(p, sizeof(p), "%s/memory.max", c->cg);
        res[0] = write_file(p, "max");          /* raise own memory limit */
        snprintf(p, sizeof(p), "%s/pids.max", c->cg);
        res[1] = write_file(p, "max");          /* raise own pids limit */
        snprintf(p, sizeof(p), "%s/cgroup.procs", c->home);
        res[2] = write_file(p, "0");            /* move itself out, home */
        res[3] = own_view(c->mnt);
        read_file("/proc/self", "cgroup", after, sizeof(after));
        if (write(c->fd, res, sizeof(res)) != sizeof(res))
                return 2;
        return strcmp(before, "0::/") || strcmp(after, "0::/") ? 1 : 0;
}

static void scenario_contain(void) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_cgroup_host h;
        char home[PATH_MAX + 16], buf[128] = "", pb[128] = "";
        struct contain c;
        int p[2], res[4] = {}, st;

        sbx_limits_init(&l);
        l.memory = 64 * MiB;
        l.pids = 50;
        if (prepare("contain", &l, &cg) < 0)
                return;
        sbx_cgroup_probe_host(&h);
        /* mount + own cgroup path: both bounded by PATH_MAX; a longer sum is
         * a failed check, not a silently cut path */
        int hn = snprintf(home, sizeof(home), "%s%s", h.mount, strcmp(h.self, "/") ? h.self : "");
        if (hn < 0 || hn >= (int) sizeof(home)) {
                check(0, "contain: the test's own cgroup path is too long (%d bytes)", hn);
                return;
        }
        if (pipe2(p, O_CLOEXEC) < 0)
                return;
        char mnt[] = "/tmp/cgtest-mnt-XXXXXX";
        if (!mkdtemp(mnt))
                return;
        c = (struct contain) { .cg = cg.path, .home = home, .mnt = mnt, .fd = p[1] };
        /* like the launcher: own user + cgroup namespace rooted at the sandbox cgroup */
        st = wait_status(spawn(&cg, CLONE_NEWUSER | CLONE_NEWCGROUP, contained, &c));
        close(p[1]);
        if (read(p[0], res, sizeof(res)) != sizeof(res))
                memset(res, 0, sizeof(res));
        close(p[0]);
        rmdir(mnt);
        check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "contain: sandbox sees its cgroup as / "
              "before and after the attempts (status 0x%x)", st);
        check(res[0] != 0, "contain: writing its own memory.max fails (%s)", strerror(res[0]));
        check(res[1] != 0, "contain: writing its own pids.max fails (%s)", strerror(res[1]));
        check(res[2] != 0, "contain: moving itself to %s fails (%s)", home, strerror(res[2]));
        check(res[3] == 0, "contain: a cgroup2 mount inside is rooted at its own cgroup, "
              "memory.max read-only there (%d)", res[3]);
        read_file(cg.path, "memory.max", buf, sizeof(buf));
        read_file(cg.path, "pids.max", pb, sizeof(pb));
        check(!strcmp(buf, "67108864") && !strcmp(pb, "50"), "contain: limits unchanged "
              "(memory.max=%s pids.max=%s)", buf, pb);
        cleanup_checked("contain", &cg);
}

/* ---- attach (fallback when clone3 cannot take CLONE_INTO_CGROUP) --------- */

static void scenario_attach(void) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_cgroup_host h;
        sbx_error e = {};
        char want[PATH_MAX + 8], got[PATH_MAX + 8] = "", proc[64];
        int p[2], r;
        pid_t pid;
        char b;

        sbx_limits_init(&l);
        l.pids = 10;
        if (prepare("attach", &l, &cg) < 0 || pipe2(p, O_CLOEXEC) < 0)
                return;
        pid = fork();
        if (pid == 0) {
                (void) !read(p[0], &b, 1);      /* wait until moved */
                _exit(0);
        }
        r = sbx_cgroup_attach_pid(&cg, pid, &e);
        sbx_cgroup_probe_host(&h);
        snprintf(want, sizeof(want), "0::%s", cg.path + strlen(h.mount));
        snprintf(proc, sizeof(proc), "/proc/%d", (int) pid);
        read_file(proc, "cgroup", got, sizeof(got));
        check(r == 0 && !strcmp(got, want), "attach: sbx_cgroup_attach_pid moved a forked "
              "child in (%s)", r ? e.msg : got);
        (void) !write(p[1], "x", 1);
        close(p[0]);
        close(p[1]);
        wait_status(pid);
        cleanup_checked("attach", &cg);
}

/* ---- join (persistent sandboxes: a later exec enters the same cgroup) ----- */

static int sleeper(void *arg) {
        pause();
        return 0;
}

static void scenario_join(void) {
        sbx_limits l;
        sbx_cgroup cg, joined = { .dirfd = -EBADF };
        sbx_error e = {};
        char name[64], cur[32] = "";
        pid_t a, b;
        int r;

        sbx_limits_init(&l);
        l.pids = 5;
        if (prepare("join", &l, &cg) < 0)
                return;
        a = spawn(&cg, 0, sleeper, NULL);
        snprintf(name, sizeof(name), "cgtest-join-%d", (int) getpid());
        r = sbx_cgroup_open(name, &joined, &e);
        check(r == 0 && !strcmp(joined.path, cg.path), "join: sbx_cgroup_open finds the running "
              "sandbox's cgroup (%s)", r ? e.msg : joined.path);
        b = r == 0 ? spawn(&joined, 0, sleeper, NULL) : -1;
        read_file(cg.path, "pids.current", cur, sizeof(cur));
        check(b > 0 && !strcmp(cur, "2"), "join: a second process entered it with "
              "CLONE_INTO_CGROUP (pids.current=%s)", cur);
        if (joined.dirfd >= 0)
                close(joined.dirfd);    /* not ours to clean up */
        cleanup_checked("join", &cg);  /* kills both */
        wait_status(a);
        if (b > 0)
                wait_status(b);
        r = sbx_cgroup_open(name, &joined, &e);
        check(r == -ENOENT, "join: after cleanup the name is gone (%d)", r);
}

/* ---- the low-level API on v2 (issue 15; the OCI runtime's) ---------------- */

static void scenario_api(void) {
        sbx_cgroup cg, again;
        sbx_cgroup_resources res;
        sbx_error e = {};
        char rel[64], parent[PATH_MAX], v[256] = "";
        int *pids = NULL, r;
        size_t n = 0;
        pid_t a;

        snprintf(rel, sizeof(rel), "/cgtest-api-%d/ctr", (int) getpid());
        r = sbx_cgroup_create(rel, &cg, &e);
        check(r == 0 && cg.dirfd >= 0 && !sbx_cgroup_needs_attach(&cg),
              "api: sbx_cgroup_create %s gives a cgroup2 fd for CLONE_INTO_CGROUP (%s)", rel,
              r ? e.msg : cg.path);
        if (r < 0)
                return;
        sbx_cgroup_resources_init(&res);
        res.memory = 64 * MiB;
        res.pids = 7;
        res.cpu_shares = 1024;
        res.cpu_quota = 50000;
        res.cpu_period = 100000;
        res.cpuset_cpus = "0";
        r = sbx_cgroup_apply(&cg, &res, &e);
        check(r == 0, "api: apply memory/pids/shares/quota/cpuset (%s)", r ? e.msg : "ok");
        read_file(cg.path, "memory.max", v, sizeof(v));
        check(!strcmp(v, "67108864"), "api: memory.max=%s", v);
        read_file(cg.path, "pids.max", v, sizeof(v));
        check(!strcmp(v, "7"), "api: pids.max=%s", v);
        read_file(cg.path, "cpu.max", v, sizeof(v));
        check(!strcmp(v, "50000 100000"), "api: cpu.max=%s", v);
        read_file(cg.path, "cpu.weight", v, sizeof(v));
        check(!strcmp(v, "39"), "api: cpu.shares 1024 -> cpu.weight %s (runc's conversion: 39)", v);
        a = spawn(&cg, 0, sleeper, NULL);
        r = sbx_cgroup_pids(&cg, &pids, &n);
        check(r == 0 && n == 1 && pids[0] == a, "api: sbx_cgroup_pids lists the child (%zu)", n);
        free(pids);
        r = sbx_cgroup_freeze(&cg, true, &e);
        read_file(cg.path, "cgroup.events", v, sizeof(v));
        check(r == 0 && sbx_cgroup_frozen(&cg) == 1, "api: freeze (cgroup.freeze; %s)", r ? e.msg : "frozen");
        r = sbx_cgroup_freeze(&cg, false, &e);
        check(r == 0 && sbx_cgroup_frozen(&cg) == 0, "api: thaw (%s)", r ? e.msg : "thawed");
        r = sbx_cgroup_kill(&cg, SIGKILL);
        check(r == 1 && WIFSIGNALED(wait_status(a)), "api: sbx_cgroup_kill SIGKILL (%d)", r);
        r = sbx_cgroup_open_path(rel, &again, &e);
        check(r == 0 && !strcmp(again.path, cg.path), "api: sbx_cgroup_open_path(rel) finds it");
        if (r == 0)
                close(again.dirfd);
        r = sbx_cgroup_remove(&cg);
        snprintf(parent, sizeof(parent), "/sys/fs/cgroup/cgtest-api-%d", (int) getpid());
        check(r == 0 && rmdir(parent) == 0, "api: removed, and the parent this test made (%d)", r);
}

/* ---- refusal -------------------------------------------------------------- */

static void scenario_refuse(const char *scenario, int64_t mem, int64_t cpu, const char *want) {
        sbx_limits l;
        sbx_cgroup cg;
        sbx_error e = {};
        int r;

        sbx_limits_init(&l);
        l.memory = mem;
        l.cpu_millis = cpu;
        r = sbx_cgroup_prepare("cgtest-refuse", &l, &cg, &e);
        note("%s: %s", scenario, r ? e.msg : "(accepted)");
        check(r < 0 && strstr(e.msg, want) && strstr(e.msg, "fix:") &&
              strstr(e.msg, "--limits best-effort"),
              "%s: limit refused, naming '%s' and a fix", scenario, want);
        l.best_effort = true;
        r = sbx_cgroup_prepare("cgtest-refuse", &l, &cg, &e);
        check(r == 0 && cg.unenforced[0], "%s: best-effort runs, unenforced='%s'", scenario,
              r == 0 ? cg.unenforced : e.msg);
        if (r == 0) {
                /* what it could enforce, it did */
                char buf[64] = "";
                if (cg.path[0] && mem > 0) {
                        read_file(cg.path, "memory.max", buf, sizeof(buf));
                        check(!strstr(cg.unenforced, "memory") == !!buf[0],
                              "%s: enforceable memory limit still set (memory.max='%s')",
                              scenario, buf);
                }
                cleanup_checked(scenario, &cg);
        }
}

int main(int argc, char **argv) {
        if (argc < 3) {
                fprintf(stderr, "usage: cgtest LABEL SCENARIO...\n");
                return 2;
        }
        label = argv[1];
        for (int i = 2; i < argc; i++) {
                const char *s = argv[i];
                if (!strcmp(s, "memory"))
                        scenario_memory();
                else if (!strcmp(s, "swap"))
                        scenario_swap();
                else if (!strcmp(s, "pids"))
                        scenario_pids();
                else if (!strcmp(s, "cpu"))
                        scenario_cpu();
                else if (!strcmp(s, "join"))
                        scenario_join();
                else if (!strcmp(s, "attach"))
                        scenario_attach();
                else if (!strcmp(s, "api"))
                        scenario_api();
                else if (!strcmp(s, "contain"))
                        scenario_contain();
                else if (!strcmp(s, "refuse"))      /* no delegation at all */
                        scenario_refuse("refuse", 64 * MiB, SBX_LIMIT_UNSET, "--memory");
                else if (!strcmp(s, "refuse-cpu"))  /* delegated without the cpu controller */
                        scenario_refuse("refuse-cpu", 64 * MiB, 500, "cpu controller");
                else {
                        fprintf(stderr, "cgtest: unknown scenario '%s'\n", s);
                        return 2;
                }
        }
        return failed;
}

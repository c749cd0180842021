/* SPDX-License-Identifier: MIT */
/* Red team round 12 (red14): the rewritten seccomp programs against the
 * unoptimized ones, on the real kernel (the unit test compares them in its own
 * BPF interpreter). For the embedded profiles (plain and no-network) the one
 * stacked program (`sbx run`) is compared with libseccomp's base + layer
 * attached as two filters (`unoptimized`); SBX_SECCOMP_VERDICTS_FULL=1 adds
 * the rewritten base + layer as two (a joined exec) and every variant below.
 * A probe thread adds a SECCOMP_RET_USER_NOTIF filter above them for every
 * call but exit(2): a call the filters under test allow is sent to the
 * supervisor (the main thread) and answered with a marker value instead of
 * running, so no probed syscall executes. Refused calls give their errno; a
 * kill ends the child, which is started again at the next probe. Probes:
 * every x86_64 syscall number 0..1100 and a few far ones, with and without
 * the x32 bit, i386 `int $0x80` numbers 0..500, with arguments all 0 (and all
 * ~0), and for the calls whose rules read arguments each of arguments 0..3
 * (0..5) over the constants the programs compare with an argument (every 4th
 * in the quick run; low word, high word set (shifted, ±1, the others ~0)).
 * Also: no high word turns a refusal of an argument the kernel reads as 32
 * bits (narrow_args) into an allow. Prints the counts and every input whose
 * verdicts differ; exit 0 when none differ, 1 when some do, 3 when the
 * control (plain against no-network, which differ at AF_INET) sees nothing,
 * 77 (SKIP) without USER_NOTIF. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "security/security.h"

#define MARK 0x5b5b5bL
enum { ABI_64, ABI_X32, ABI_I386 };

typedef struct probe {
        int abi;
        uint32_t nr;
        uint64_t a[6];
} probe;

static probe *probes;
static size_t n_probes, cap_probes;

static void add(int abi, uint32_t nr, const uint64_t a[6]) {
        if (n_probes == cap_probes) {
                cap_probes = cap_probes ? cap_probes * 2 : 4096;
                probes = realloc(probes, cap_probes * sizeof(*probes));
                if (!probes)
                        abort();
        }
        probes[n_probes].abi = abi;
        probes[n_probes].nr = nr;
        memcpy(probes[n_probes].a, a, sizeof(probes[n_probes].a));
        n_probes++;
}

/* result of probe i: 0 not run, 1 allowed (marker), 2+errno refused, -sig killed */
static long *results;
static volatile int *next_index;
static int listener = -1;

static long do_probe(const probe *p) {
        long r;
        if (p->abi == ABI_I386) {
                unsigned long ax = p->nr;
                __asm__ volatile("int $0x80"
                                 : "+a"(ax)
                                 : "b"((uint32_t) p->a[0]), "c"((uint32_t) p->a[1]), "d"((uint32_t) p->a[2]),
                                   "S"((uint32_t) p->a[3]), "D"((uint32_t) p->a[4])
                                 : "memory", "r8", "r9", "r10", "r11");
                r = (long) (int) ax;
                return r < 0 && r > -4096 ? 2 - r : (r == (int) MARK ? 1 : 2 + 100000);
        }
        r = syscall(p->abi == ABI_X32 ? (p->nr | 0x40000000u) : p->nr, p->a[0], p->a[1], p->a[2], p->a[3],
                    p->a[4], p->a[5]);
        if (r == MARK)
                return 1;
        return r < 0 ? 2 + errno : 2 + 200000;
}

static void *probe_thread(void *arg) {
        (void) arg;
        /* notify everything but exit(2) (x86_64) */
        struct sock_filter f[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 2),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};
        int fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
        if (fd < 0) {
                __atomic_store_n(&listener, -2, __ATOMIC_SEQ_CST);
                syscall(__NR_exit, 0);
        }
        __atomic_store_n(&listener, fd, __ATOMIC_SEQ_CST);
        for (;;) {
                int i = __atomic_load_n(next_index, __ATOMIC_SEQ_CST);
                if (i >= (int) n_probes)
                        break;
                results[i] = do_probe(&probes[i]);
                __atomic_store_n(next_index, i + 1, __ATOMIC_SEQ_CST);
        }
        syscall(__NR_exit, 0);
        return NULL;
}

static int install(const struct sock_filter *insns, unsigned short len) {
        struct sock_fprog prog = {.len = len, .filter = (struct sock_filter *) insns};
        return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0 ? -errno : 0;
}

/* mode 0: base+layer (two filters, layer first), 1: stacked */
static int run_child(const sbx_bpf *b, int mode) {
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                _exit(90);
        if (mode == 0) {
                if (install(b->layer_insns, b->layer_len) < 0 || install(b->insns, b->len) < 0)
                        _exit(91);
        } else if (install(b->stacked_insns, b->stacked_len) < 0)
                _exit(92);
        pthread_t t;
        if (pthread_create(&t, NULL, probe_thread, NULL) != 0)
                _exit(93);
        int fd;
        while ((fd = __atomic_load_n(&listener, __ATOMIC_SEQ_CST)) == -1)
                usleep(20); /* not a spin: the probe thread needs the CPU */
        if (fd < 0)
                _exit(77);
        struct seccomp_notif req;
        struct seccomp_notif_resp resp;
        for (;;) {
                if (__atomic_load_n(next_index, __ATOMIC_SEQ_CST) >= (int) n_probes)
                        _exit(0);
                memset(&req, 0, sizeof(req));
                if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
                        if (errno == EINTR)
                                continue;
                        _exit(errno == ENOENT ? 0 : 94);
                }
                memset(&resp, 0, sizeof(resp));
                resp.id = req.id;
                resp.val = MARK;
                ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
        }
}

static long *run_all(const sbx_bpf *b, int mode) {
        long *res = mmap(NULL, n_probes * sizeof(long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (res == MAP_FAILED)
                abort();
        results = res;
        *next_index = 0;
        while (*next_index < (int) n_probes) {
                int start = *next_index;
                pid_t pid = fork();
                if (pid == 0)
                        run_child(b, mode);
                int st;
                waitpid(pid, &st, 0);
                if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
                        printf("SKIP: no SECCOMP_FILTER_FLAG_NEW_LISTENER\n");
                        exit(77);
                }
                if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
                        printf("harness child failed: exit %d\n", WEXITSTATUS(st));
                        exit(2);
                }
                if (WIFSIGNALED(st)) {
                        int i = *next_index;
                        if (i < (int) n_probes && res[i] == 0)
                                res[i] = -WTERMSIG(st);
                        *next_index = i + 1;
                } else if (*next_index == start) {
                        printf("harness made no progress at %d\n", start);
                        exit(2);
                }
        }
        return res;
}

/* the constants compared with an argument word (or masked into one): in
 * libseccomp's output and in the rewrite the load of a word comes right before
 * its comparisons */
static void collect_consts(const struct sock_filter *f, unsigned short n, uint32_t **c, size_t *nc) {
        bool arg = false;
        for (unsigned short i = 0; i < n; i++) {
                if (f[i].code == (BPF_LD | BPF_W | BPF_ABS))
                        arg = f[i].k >= offsetof(struct seccomp_data, args);
                if (!arg)
                        continue;
                bool cmp = BPF_CLASS(f[i].code) == BPF_JMP && BPF_SRC(f[i].code) == BPF_K && BPF_OP(f[i].code) != BPF_JA;
                bool mask = BPF_CLASS(f[i].code) == BPF_ALU && BPF_SRC(f[i].code) == BPF_K;
                if (cmp || mask) {
                        size_t j = 0;
                        while (j < *nc && (*c)[j] != f[i].k)
                                j++;
                        if (j < *nc)
                                continue;
                        *c = realloc(*c, (*nc + 1) * sizeof(**c));
                        (*c)[(*nc)++] = f[i].k;
                }
        }
}

/* numbers whose verdict reads an argument: those whose probes with args 0 and
 * ~0 differ in the unoptimized program, plus the ones a rule names (below) */
static const char *arg_calls[] = {"clone", "personality", "socket", "ioctl", "chmod", "fchmod", "fchmodat",
                                  "fchmodat2", "creat", "mknod", "mknodat", "open", "openat", "setrlimit",
                                  "prlimit64", "sched_setscheduler", "sched_setattr", "sched_setparam",
                                  "setpriority", "ioprio_set", "unshare", NULL};
static bool full; /* SBX_SECCOMP_VERDICTS_FULL=1: every variant (~5.5 minutes) */

/* arguments the kernel reads as 32 bits (int, unsigned int) that a rule of
 * the layer compares: a value with its high word set must be refused
 * wherever the value without it is */
static const struct {
        const char *name;
        int arg;
} narrow_args[] = {{"setrlimit", 0}, {"prlimit64", 1}, {"socket", 0}, {"ioctl", 1}};

static const char *abi_name[] = {"x86_64", "x32", "i386"};

static int compare(const char *what, const long *x, const long *y) {
        int diffs = 0;
        for (size_t i = 0; i < n_probes; i++)
                if (x[i] != y[i]) {
                        if (diffs++ < 20)
                                printf("DIFF %s: %s nr %u args %llx %llx %llx %llx %llx %llx: %ld vs %ld\n", what,
                                       abi_name[probes[i].abi], probes[i].nr, (unsigned long long) probes[i].a[0],
                                       (unsigned long long) probes[i].a[1], (unsigned long long) probes[i].a[2],
                                       (unsigned long long) probes[i].a[3], (unsigned long long) probes[i].a[4],
                                       (unsigned long long) probes[i].a[5], x[i], y[i]);
                }
        return diffs;
}

static void build_probes(const uint32_t *consts, size_t nc) {
        uint64_t zero[6] = {0}, ones[6];
        memset(ones, 0xff, sizeof(ones));
        for (int abi = 0; abi < 3; abi++) {
                uint32_t max = abi == ABI_I386 ? 500 : 1100;
                for (uint32_t nr = 0; nr <= max; nr++) {
                        if (abi != ABI_I386 && nr == __NR_exit)
                                continue;
                        add(abi, nr, zero);
                        if (full || abi == ABI_64) /* a foreign ABI is killed whatever the arguments */
                                add(abi, nr, ones);
                }
        }
        uint32_t far[] = {0x3fffffff, 0x7fffffff, 0x80000000, 0xbfffffff, 0xfffffffe, 0xffffffff, 0x1000, 0xffff};
        for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++) {
                add(ABI_64, far[i], zero);
                add(ABI_64, far[i], ones);
        }
        for (const char **n = arg_calls; *n; n++) {
                int nr = seccomp_syscall_resolve_name(*n);
                if (nr < 0)
                        continue;
                bool narrow = false;
                for (size_t t = 0; t < sizeof(narrow_args) / sizeof(narrow_args[0]); t++)
                        narrow |= !strcmp(*n, narrow_args[t].name);
                for (int arg = 0; arg < (full ? 6 : 4); arg++)
                        /* quick: every 4th constant, all of them for the narrow calls */
                        for (size_t k = 0; k < nc; k += full || narrow ? 1 : 4)
                                for (int v = 0; v < (full ? 5 : 2); v++) {
                                        uint64_t c = consts[k];
                                        uint64_t vals[5] = {c, c | 0xffffffff00000000ull, c << 32, c + 1, c - 1};
                                        for (int others = 0; others < (full ? 2 : 1); others++) {
                                                uint64_t a[6];
                                                memset(a, others ? 0xff : 0, sizeof(a));
                                                if (nr == __NR_ioctl && arg != 0)
                                                        a[0] = ~0ull; /* never a real fd */
                                                a[arg] = vals[v];
                                                add(ABI_64, nr, a);
                                        }
                                }
        }
}

/* probes i and j differ only in the high word of a narrow argument: a
 * refusal of the low value that the high word turns into an allow */
static int narrow_check(const char *what, const long *res) {
        int bad = 0;
        for (size_t i = 0; i < n_probes; i++) {
                if (probes[i].abi != ABI_64)
                        continue;
                for (size_t t = 0; t < sizeof(narrow_args) / sizeof(narrow_args[0]); t++) {
                        int nr = seccomp_syscall_resolve_name(narrow_args[t].name), arg = narrow_args[t].arg;
                        if ((int) probes[i].nr != nr || (probes[i].a[arg] >> 32) != 0 || res[i] == 1)
                                continue;
                        for (size_t j = i + 1; j < n_probes && j < i + 16; j++) {
                                if (probes[j].nr != probes[i].nr || probes[j].abi != ABI_64 ||
                                    probes[j].a[arg] != (probes[i].a[arg] | 0xffffffff00000000ull))
                                        continue;
                                bool same = true;
                                for (int o = 0; o < 6; o++)
                                        if (o != arg && probes[j].a[o] != probes[i].a[o])
                                                same = false;
                                if (same && res[j] == 1 && bad++ < 20)
                                        printf("HIGH-WORD %s: %s(arg%d = 0x%llx) refused (%ld), with the high word set allowed\n",
                                               what, narrow_args[t].name, arg,
                                               (unsigned long long) probes[i].a[arg], res[i]);
                        }
                }
        }
        return bad;
}

int main(void) {
        full = getenv("SBX_SECCOMP_VERDICTS_FULL") != NULL;
        next_index = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        sbx_bpf opt[2] = {}, raw[2] = {};
        uint32_t *consts = NULL;
        size_t nc = 0;
        for (int net = 0; net < 2; net++) {
                sbx_error err = {};
                if (sbx_seccomp_compile(&(sbx_seccomp_opts){.deny_inet_sockets = net}, &opt[net], &err) < 0 ||
                    sbx_seccomp_compile(&(sbx_seccomp_opts){.deny_inet_sockets = net, .unoptimized = true},
                                        &raw[net], &err) < 0) {
                        printf("compile: %s\n", err.msg);
                        return 2;
                }
                if (!opt[net].stacked_insns) {
                        printf("no stacked program\n");
                        return 2;
                }
                collect_consts(raw[net].insns, raw[net].len, &consts, &nc);
                collect_consts(raw[net].layer_insns, raw[net].layer_len, &consts, &nc);
                collect_consts(opt[net].stacked_insns, opt[net].stacked_len, &consts, &nc);
        }
        build_probes(consts, nc);
        printf("# %zu argument constants, %zu probes per install\n", nc, n_probes);
        long *r_raw[2], *r_stk[2];
        int total_diffs = 0;
        for (int net = 0; net < 2; net++) {
                const char *name = net ? "no-network" : "plain";
                char what[64];
                r_raw[net] = run_all(&raw[net], 0);
                r_stk[net] = run_all(&opt[net], 1);
                size_t allowed = 0, killed = 0, refused = 0;
                for (size_t i = 0; i < n_probes; i++)
                        r_raw[net][i] == 1 ? allowed++ : r_raw[net][i] < 0 ? killed++ : refused++;
                printf("%s: %zu allowed, %zu refused, %zu killed by libseccomp's pair\n", name, allowed, refused,
                       killed);
                if (full) { /* the rewritten pair a joined exec attaches */
                        long *r_opt2 = run_all(&opt[net], 0);
                        snprintf(what, sizeof(what), "%s rewritten pair", name);
                        total_diffs += compare(what, r_raw[net], r_opt2);
                }
                snprintf(what, sizeof(what), "%s libseccomp pair", name);
                total_diffs += narrow_check(what, r_raw[net]);
                snprintf(what, sizeof(what), "%s stacked", name);
                total_diffs += narrow_check(what, r_stk[net]);
                snprintf(what, sizeof(what), "%s stacked", name);
                total_diffs += compare(what, r_raw[net], r_stk[net]);
        }
        /* control: the harness sees a real difference (the no-network layer
         * refuses AF_INET sockets the plain one allows) */
        int control = compare("control (plain pair vs no-network stacked, expected)", r_raw[0], r_stk[1]);
        printf("control: %d verdicts differ between the plain and the no-network programs\n", control);
        printf("%d verdicts differ\n", total_diffs);
        if (control == 0)
                return 3;
        return total_diffs ? 1 : 0;
}

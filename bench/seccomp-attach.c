/* SPDX-License-Identifier: MIT */
/* What attaching sbx's seccomp filters costs the kernel (issue 16 target 1):
 * each round forks one child per case (order rotated), which sets
 * no_new_privs and attaches the case's filters; the child's own CPU time
 * (CLOCK_THREAD_CPUTIME_ID, robust on a loaded machine) across the
 * seccomp(2) calls goes back over a pipe. Cases: a one-instruction allow
 * (the kernel's fixed cost per filter), the always-on layer alone, the base
 * alone, both as a joined exec attaches them (layer, then base) and, for a
 * build that has it (session 13 on), the one program `sbx run` attaches
 * instead (base stacked over layer), for build A and, if given, build B. Not part of sbx: bench-seccomp.sh compiles it against
 * each build's seccomp-profiles/seccomp-precompiled.c, A's symbols renamed
 * a_*, B's b_*.
 *
 *   seccomp-attach N        (built with -DHAVE_B for two builds) */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const struct sock_filter a_base[], a_layer[];
extern const unsigned short a_base_len, a_layer_len;
/* base over layer as one program (builds since session 13; weak: absent before) */
extern const struct sock_filter *const a_stacked[2] __attribute__((weak));
extern const unsigned short a_stacked_len[2] __attribute__((weak));
#ifdef HAVE_B
extern const struct sock_filter b_base[], b_layer[];
extern const unsigned short b_base_len, b_layer_len;
extern const struct sock_filter *const b_stacked[2] __attribute__((weak));
extern const unsigned short b_stacked_len[2] __attribute__((weak));
#endif

static const struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };

struct cse {
        const char *name;
        struct sock_fprog f[2];
        int n;
};

static double cpu_us(void) {
        struct timespec t;

        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
        double x = *(const double *) a, y = *(const double *) b;

        return x < y ? -1 : x > y;
}

#define PROG(p, l) { .len = (l), .filter = (struct sock_filter *) (p) }

int main(int argc, char **argv) {
        struct cse cases[] = {
                { "allow (1 insn)", { PROG(allow, 1) }, 1 },
                { "A layer", { PROG(a_layer, a_layer_len) }, 1 },
                { "A base", { PROG(a_base, a_base_len) }, 1 },
                { "A layer + base", { PROG(a_layer, a_layer_len), PROG(a_base, a_base_len) }, 2 },
                { "A as one (sbx run)", { PROG(a_stacked ? a_stacked[0] : NULL, a_stacked ? a_stacked_len[0] : 0) },
                  a_stacked && a_stacked_len[0] ? 1 : 0 },
#ifdef HAVE_B
                { "B layer", { PROG(b_layer, b_layer_len) }, 1 },
                { "B base", { PROG(b_base, b_base_len) }, 1 },
                { "B layer + base", { PROG(b_layer, b_layer_len), PROG(b_base, b_base_len) }, 2 },
                { "B as one (sbx run)", { PROG(b_stacked ? b_stacked[0] : NULL, b_stacked ? b_stacked_len[0] : 0) },
                  b_stacked && b_stacked_len[0] ? 1 : 0 },
#endif
        };
        int k = 0, n = argc > 1 ? atoi(argv[1]) : 200;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                if (cases[i].n > 0) /* a build without a stacked program: left out */
                        cases[k++] = cases[i];
        double *us = calloc((size_t) k * n, sizeof(double));

        if (n < 1 || !us)
                return 2;
        for (int i = 0; i < n; i++)
                for (int j0 = 0; j0 < k; j0++) {
                        int j = (i + j0) % k, p[2], st;
                        double d = -1;
                        pid_t c;

                        if (pipe(p) < 0 || (c = fork()) < 0)
                                return perror("seccomp-attach"), 2;
                        if (c == 0) {
                                double t0;

                                close(p[0]);
                                if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                                        _exit(1);
                                t0 = cpu_us();
                                for (int f = 0; f < cases[j].n; f++)
                                        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &cases[j].f[f]) < 0)
                                                _exit(1);
                                d = cpu_us() - t0;
                                _exit(write(p[1], &d, sizeof(d)) == sizeof(d) ? 0 : 1);
                        }
                        close(p[1]);
                        if (read(p[0], &d, sizeof(d)) != sizeof(d))
                                d = -1;
                        close(p[0]);
                        if (waitpid(c, &st, 0) < 0 || st != 0 || d < 0)
                                return fprintf(stderr, "seccomp-attach: %s failed\n", cases[j].name), 1;
                        us[(size_t) j * n + i] = d;
                }
        for (int j = 0; j < k; j++) {
                int insns = 0;

                for (int f = 0; f < cases[j].n; f++)
                        insns += cases[j].f[f].len;
                qsort(us + (size_t) j * n, n, sizeof(double), cmp);
                printf("  %-16s %4d insns  CPU median %7.1f us  p25 %7.1f  p75 %7.1f\n", cases[j].name, insns,
                       us[(size_t) j * n + n / 2], us[(size_t) j * n + n / 4], us[(size_t) j * n + 3 * n / 4]);
        }
        return 0;
}

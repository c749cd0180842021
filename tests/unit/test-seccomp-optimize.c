/* SPDX-License-Identifier: MIT */
/* sbx_bpf_optimize() (runtime/security/seccomp-optimize.c) keeps every verdict:
 * the programs sbx attaches, rewritten and as libseccomp wrote them, run
 * through a classic-BPF interpreter on every input that can tell them apart:
 * each arch value a program compares (±1) plus i386/x86_64/0/~0; each syscall
 * number 0..1023, with and without the x32 bit, each compared constant ±1 and
 * the 32-bit extremes; and, where the program reads arguments or the
 * instruction pointer, every argument word set to each boundary value (each
 * constant any jump or AND uses after loading an argument word, ±1, 0, 1,
 * all-ones, 0x7fffffff, 0x80000000) with the others at 0 and at all-ones,
 * the two halves of each argument and the low halves of each two arguments
 * over the constants, 0 and all-ones, and 1,000
 * random combinations of boundary values. One differing verdict
 * fails the test naming the input. The real filters are attached by the
 * enforcement tests of test-seccomp.c and the escape tests. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "security/security.h"
#include "unit.h"

#define X32_BIT 0x40000000U
#define WORDS (sizeof(struct seccomp_data) / 4)

/* Classic BPF as the kernel runs a seccomp filter (the whole instruction set).
 * No ck_assert on the hot path: each passing one writes to Check's pipe. */
static uint32_t run(const struct sock_filter *p, size_t n, const uint32_t *data, uint32_t *loaded) {
        uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = {0};

        for (size_t pc = 0; pc < n; pc++) {
                const struct sock_filter *f = &p[pc];
                uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;

                switch (BPF_CLASS(f->code)) {
                case BPF_LD:
                        if (BPF_MODE(f->code) == BPF_ABS) {
                                if (f->k % 4 || f->k / 4 >= WORDS)
                                        ck_abort_msg("load of offset %u at %zu", f->k, pc);
                                a = data[f->k / 4];
                                *loaded |= 1u << (f->k / 4);
                        } else if (BPF_MODE(f->code) == BPF_IMM)
                                a = f->k;
                        else if (BPF_MODE(f->code) == BPF_MEM)
                                a = mem[f->k];
                        else
                                a = sizeof(struct seccomp_data);
                        break;
                case BPF_LDX:
                        x = BPF_MODE(f->code) == BPF_MEM ? mem[f->k]
                            : BPF_MODE(f->code) == BPF_IMM ? f->k
                                                           : sizeof(struct seccomp_data);
                        break;
                case BPF_ST: mem[f->k] = a; break;
                case BPF_STX: mem[f->k] = x; break;
                case BPF_ALU:
                        switch (BPF_OP(f->code)) {
                        case BPF_ADD: a += src; break;
                        case BPF_SUB: a -= src; break;
                        case BPF_MUL: a *= src; break;
                        case BPF_DIV: a = src ? a / src : 0; break;
                        case BPF_MOD: a = src ? a % src : 0; break;
                        case BPF_AND: a &= src; break;
                        case BPF_OR: a |= src; break;
                        case BPF_XOR: a ^= src; break;
                        case BPF_LSH: a = src < 32 ? a << src : 0; break;
                        case BPF_RSH: a = src < 32 ? a >> src : 0; break;
                        case BPF_NEG: a = -a; break;
                        default: ck_abort_msg("bad ALU op 0x%x at %zu", f->code, pc);
                        }
                        break;
                case BPF_JMP: {
                        bool t;

                        switch (BPF_OP(f->code)) {
                        case BPF_JA: pc += f->k; continue;
                        case BPF_JEQ: t = a == src; break;
                        case BPF_JGT: t = a > src; break;
                        case BPF_JGE: t = a >= src; break;
                        case BPF_JSET: t = (a & src) != 0; break;
                        default: ck_abort_msg("bad jump 0x%x at %zu", f->code, pc);
                        }
                        pc += t ? f->jt : f->jf;
                        break;
                }
                case BPF_RET: return BPF_RVAL(f->code) == BPF_A ? a : f->k;
                case BPF_MISC:
                        if (BPF_MISCOP(f->code) == BPF_TAX)
                                x = a;
                        else
                                a = x;
                        break;
                default: ck_abort_msg("bad class 0x%x at %zu", f->code, pc);
                }
        }
        ck_abort_msg("program ran off its end");
        return 0;
}

typedef struct vals {
        uint32_t *v;
        size_t n;
} vals;

#define MAX_VALS 16384

/* Duplicates are removed by finish(). */
static void add(vals *s, uint32_t v) {
        if (!s->v) {
                s->v = malloc(MAX_VALS * sizeof(*s->v));
                ck_assert(s->v);
        }
        if (s->n >= MAX_VALS)
                ck_abort_msg("more than %d test values", MAX_VALS);
        s->v[s->n++] = v;
}

static int cmp_u32(const void *x, const void *y) {
        uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

        return a < b ? -1 : a > b;
}

static void finish(vals *s) {
        size_t m = 0;

        qsort(s->v, s->n, sizeof(*s->v), cmp_u32);
        for (size_t i = 0; i < s->n; i++)
                if (m == 0 || s->v[m - 1] != s->v[i])
                        s->v[m++] = s->v[i];
        s->n = m;
}

/* Constants the program compares (or ANDs) with, by what the latest load
 * before it read: arch (arch_like), nr, or an argument word (args). */
static void add_constants(vals *s, const struct sock_filter *p, size_t n, bool arch_like, bool args,
                          bool neighbours) {
        uint32_t last = 0;

        for (size_t i = 0; i < n; i++) {
                uint16_t c = p[i].code;
                bool cmp = BPF_CLASS(c) == BPF_JMP && BPF_OP(c) != BPF_JA;

                if (c == (BPF_LD | BPF_W | BPF_ABS))
                        last = p[i].k;
                if (!cmp && c != (BPF_ALU | BPF_AND | BPF_K))
                        continue;
                if (args ? last < 8 : last != (arch_like ? 4u : 0u))
                        continue;
                add(s, p[i].k);
                if (neighbours) {
                        add(s, p[i].k + 1);
                        add(s, p[i].k - 1);
                }
        }
}

typedef struct pair {
        const char *what;
        const struct sock_filter *a, *b;
        size_t na, nb;
        const struct sock_filter *a2; /* set: a attached after a2, as the kernel stacks them */
        size_t na2;
        long compared, mismatches;
        bool count_only; /* the self-check: count mismatches instead of failing */
} pair;

/* seccomp_run_filters(): the lowest action as a signed number, the newer filter's on a tie */
static uint32_t stack(uint32_t newer, uint32_t older) {
        return (int32_t) (older & SECCOMP_RET_ACTION_FULL) < (int32_t) (newer & SECCOMP_RET_ACTION_FULL) ? older
                                                                                                     : newer;
}

static void same(pair *t, const uint32_t *d) {
        uint32_t l = 0, va = run(t->a, t->na, d, &l), vb = run(t->b, t->nb, d, &l);

        if (t->a2)
                va = stack(va, run(t->a2, t->na2, d, &l));

        t->compared++;
        if (va != vb && t->count_only)
                t->mismatches++;
        else if (va != vb) {
                char args[256];
                size_t o = 0;

                for (size_t w = 2; w < WORDS; w++)
                        o += snprintf(args + o, sizeof(args) - o, " %x", d[w]);
                ck_abort_msg("%s: arch 0x%x nr 0x%x words%s: 0x%x as compiled, 0x%x rewritten", t->what, d[1],
                             d[0], args, va, vb);
        }
}

static uint32_t loaded_words(pair *t, const uint32_t *d) {
        uint32_t l = 0;

        run(t->a, t->na, d, &l);
        run(t->b, t->nb, d, &l);
        if (t->a2)
                run(t->a2, t->na2, d, &l);
        return l & ~3u; /* beyond nr and arch */
}

static void check_equivalent(pair *t) {
        if (!t->a2 && t->na == t->nb && memcmp(t->a, t->b, t->na * sizeof(*t->a)) == 0)
                return; /* the same program */
        vals arch = {}, nr = {}, arg = {}, pairv = {};
        unsigned seed = 1;

        add(&arch, AUDIT_ARCH_X86_64);
        add(&arch, AUDIT_ARCH_I386);
        add(&arch, 0);
        add(&arch, UINT32_MAX);
        add_constants(&arch, t->a, t->na, true, false, true);
        add_constants(&arch, t->b, t->nb, true, false, true);
        if (t->a2)
                add_constants(&arch, t->a2, t->na2, true, false, true);
        finish(&arch);
        for (uint32_t i = 0; i < 1024; i++) {
                add(&nr, i);
                add(&nr, i | X32_BIT);
        }
        for (uint32_t v = 0x3fffffff; v; v = v == 0x3fffffff ? 0x7fffffff : v == 0x7fffffff ? 0x80000000 : v == 0x80000000 ? UINT32_MAX : 0)
                add(&nr, v);
        add_constants(&nr, t->a, t->na, false, false, true);
        add_constants(&nr, t->b, t->nb, false, false, true);
        if (t->a2)
                add_constants(&nr, t->a2, t->na2, false, false, true);
        finish(&nr);
        for (uint32_t v = 0; v < 2; v++)
                add(&arg, v);
        add(&arg, UINT32_MAX);
        add(&arg, 0x7fffffff);
        add(&arg, 0x80000000);
        add_constants(&arg, t->a, t->na, false, true, true);
        add_constants(&arg, t->b, t->nb, false, true, true);
        if (t->a2)
                add_constants(&arg, t->a2, t->na2, false, true, true);
        finish(&arg);
        add(&pairv, 0);
        add(&pairv, UINT32_MAX);
        add_constants(&pairv, t->a, t->na, false, true, false);
        add_constants(&pairv, t->b, t->nb, false, true, false);
        if (t->a2)
                add_constants(&pairv, t->a2, t->na2, false, true, false);
        finish(&pairv);

        for (size_t ai = 0; ai < arch.n; ai++)
                for (size_t ni = 0; ni < nr.n; ni++) {
                        uint32_t d[WORDS] = {nr.v[ni], arch.v[ai]}, words;

                        same(t, d);
                        words = loaded_words(t, d);
                        if (!words)
                                continue;
                        /* one word at a time (each word read, until no new one
                         * is read), the others at 0 and at all-ones */
                        for (uint32_t done = 0; words != done;) {
                                uint32_t todo = words & ~done;

                                done = words;
                                for (uint32_t base = 0; base <= 1; base++)
                                        for (size_t w = 2; w < WORDS; w++) {
                                                if (!(todo & 1u << w))
                                                        continue;
                                                for (size_t vi = 0; vi < arg.n; vi++) {
                                                        for (size_t o = 2; o < WORDS; o++)
                                                                d[o] = base ? UINT32_MAX : 0;
                                                        d[w] = arg.v[vi];
                                                        words |= loaded_words(t, d);
                                                        same(t, d);
                                                }
                                        }
                        }
                        /* pairs of the words read over the constants, 0 and ~0, the rest 0 */
                        for (size_t w1 = 2; w1 < WORDS; w1++)
                                for (size_t w2 = w1 + 1; w2 < WORDS; w2++) {
                                        /* the two halves of one argument, or the low
                                         * halves of two (words 4+2i: low, 5+2i: high) */
                                        bool halves = w1 >= 4 && w1 % 2 == 0 && w2 == w1 + 1;
                                        bool lows = w1 >= 4 && w1 % 2 == 0 && w2 % 2 == 0;

                                        if (!(words & 1u << w1) || !(words & 1u << w2) || !(halves || lows))
                                                continue;
                                        memset(d + 2, 0, sizeof(d) - 2 * sizeof(*d));
                                        for (size_t i = 0; i < pairv.n; i++)
                                                for (size_t j = 0; j < pairv.n; j++) {
                                                        d[w1] = pairv.v[i];
                                                        d[w2] = pairv.v[j];
                                                        same(t, d);
                                                }
                                }
                        /* random combinations of boundary values */
                        for (int k = 0; k < 1000; k++) {
                                for (size_t w = 2; w < WORDS; w++)
                                        d[w] = words & 1u << w ? arg.v[rand_r(&seed) % arg.n] : 0;
                                same(t, d);
                        }
                }
        printf("# %s: %ld inputs (%zu arch, %zu nr, %zu argument values)\n", t->what, t->compared, arch.n, nr.n,
               arg.n);
        free(arch.v);
        free(nr.v);
        free(arg.v);
        free(pairv.v);
}

static void check_opts(const char *what, const sbx_seccomp_opts *opts) {
        sbx_seccomp_opts raw_opts = *opts;
        sbx_bpf fast = {}, raw = {};
        sbx_error err = {};
        char name[128];
        _cleanup_free_ struct sock_filter *stacked = NULL, *rewritten_base = NULL, *rewritten_layer = NULL;
        struct sock_filter *rewritten[2] = {}; /* borrowed: owned by the two above */
        size_t n_stacked = 0, n_rewritten[2] = {};

        raw_opts.unoptimized = true;
        ck_assert_msg(sbx_seccomp_compile(opts, &fast, &err) == 0, "%s", err.msg);
        ck_assert_msg(sbx_seccomp_compile(&raw_opts, &raw, &err) == 0, "%s", err.msg);
        /* the rewrite itself, also where sbx keeps the original (not shorter) */
        for (int layer = 0; layer <= 1; layer++) {
                const struct sock_filter *in = layer ? raw.layer_insns : raw.insns;
                size_t n_in = layer ? raw.layer_len : raw.len, n = 0;
                struct sock_filter *out = NULL;

                ck_assert_int_eq(sbx_bpf_optimize(in, n_in, &out, &n), 0);
                snprintf(name, sizeof(name), "%s, %s rewritten (%zu -> %zu insns)", what, layer ? "layer" : "base",
                         n_in, n);
                check_equivalent(&(pair){name, in, out, n_in, n});
                printf("# %s\n", name);
                rewritten[layer] = out;
                *(layer ? &rewritten_layer : &rewritten_base) = out;
                n_rewritten[layer] = n;
        }
        /* base over layer as one program, also where sbx attaches the two */
        {
                struct sock_filter *out = NULL;
                size_t n = 0;

                ck_assert_int_eq(sbx_bpf_stack(raw.insns, raw.len, raw.layer_insns, raw.layer_len, &out, &n), 0);
                snprintf(name, sizeof(name), "%s, base over layer as one (%u + %u -> %zu insns)", what, raw.len,
                         raw.layer_len, n);
                check_equivalent(&(pair){name, raw.insns, out, raw.len, n, raw.layer_insns, raw.layer_len});
                printf("# %s\n", name);
                stacked = out;
                n_stacked = n;
        }
        if (fast.stacked_insns && (fast.stacked_len != n_stacked ||
                                   memcmp(fast.stacked_insns, stacked, n_stacked * sizeof(*stacked)) != 0)) {
                snprintf(name, sizeof(name), "%s, attached as one (%u insns)", what, fast.stacked_len);
                check_equivalent(&(pair){name, raw.insns, fast.stacked_insns, raw.len, fast.stacked_len,
                                         raw.layer_insns, raw.layer_len});
        }
        /* what sbx attaches, where it is neither the input nor the rewrite checked above */
        if (fast.len != n_rewritten[0] || memcmp(fast.insns, rewritten[0], fast.len * sizeof(*fast.insns))) {
                snprintf(name, sizeof(name), "%s, base (%u -> %u insns)", what, raw.len, fast.len);
                check_equivalent(&(pair){name, raw.insns, fast.insns, raw.len, fast.len});
        }
        if (fast.layer_len != n_rewritten[1] ||
            memcmp(fast.layer_insns, rewritten[1], fast.layer_len * sizeof(*fast.insns))) {
                snprintf(name, sizeof(name), "%s, layer (%u -> %u insns)", what, raw.layer_len, fast.layer_len);
                check_equivalent(&(pair){name, raw.layer_insns, fast.layer_insns, raw.layer_len, fast.layer_len});
        }
        printf("# %s: base %u -> %u, layer %u -> %u, attached as one: %u instructions\n", what, raw.len,
               fast.len, raw.layer_len, fast.layer_len, fast.stacked_len);
        fflush(stdout);
        sbx_bpf_free(&fast);
        sbx_bpf_free(&raw);
}

START_TEST(test_default_filters_keep_every_verdict) {
        check_opts("default", &(sbx_seccomp_opts){});
        check_opts("default, no network", &(sbx_seccomp_opts){.deny_inet_sockets = true});
}
END_TEST

/* A user profile with every comparison operator, 64-bit values (both halves
 * differ), foreign ABIs (the arch tree), deny and allow by default. */
#define ARGS_PROFILE(DEFAULT, ACTION)                                                                    \
        "{\"defaultAction\":\"" DEFAULT "\",\"architectures\":[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X86\","  \
        "\"SCMP_ARCH_X32\"],\"syscalls\":["                                                              \
        "{\"names\":[\"read\",\"write\",\"close\",\"exit_group\"],\"action\":\"SCMP_ACT_ALLOW\"},"      \
        "{\"names\":[\"personality\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":0,\"value\":8,"     \
        "\"op\":\"SCMP_CMP_NE\"}]},"                                                                     \
        "{\"names\":[\"dup3\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":2,\"value\":4294967300,"   \
        "\"op\":\"SCMP_CMP_LT\"}]},"                                                                     \
        "{\"names\":[\"lseek\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":1,\"value\":5,"           \
        "\"op\":\"SCMP_CMP_LE\"},{\"index\":2,\"value\":1,\"op\":\"SCMP_CMP_EQ\"}]},"                    \
        "{\"names\":[\"kill\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":1,\"value\":9,"            \
        "\"op\":\"SCMP_CMP_GE\"}]},"                                                                     \
        "{\"names\":[\"mmap\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":3,\"value\":4294967297,"   \
        "\"op\":\"SCMP_CMP_GT\"}]},"                                                                     \
        "{\"names\":[\"fchmod\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":1,\"value\":3072,"       \
        "\"valueTwo\":1024,\"op\":\"SCMP_CMP_MASKED_EQ\"}]},"                                            \
        "{\"names\":[\"fchmod\"],\"action\":\"" ACTION "\",\"args\":[{\"index\":1,\"value\":3072,"       \
        "\"valueTwo\":2048,\"op\":\"SCMP_CMP_MASKED_EQ\"}]}]}"

START_TEST(test_user_profiles_with_arguments_keep_every_verdict) {
        static const struct {
                const char *what, *json;
        } cases[] = {
                {"deny by default", ARGS_PROFILE("SCMP_ACT_ERRNO", "SCMP_ACT_ALLOW")},
                {"allow by default", ARGS_PROFILE("SCMP_ACT_ALLOW", "SCMP_ACT_KILL_PROCESS")},
                {"log by default", ARGS_PROFILE("SCMP_ACT_LOG", "SCMP_ACT_TRAP")},
        };

        for (size_t i = 0; i < UNIT_N(cases); i++) {
                char path[] = "/tmp/sbx-test-optimize-XXXXXX";
                int fd = mkstemp(path);

                ck_assert_int_ge(fd, 0);
                close(fd);
                unit_write_file(path, cases[i].json);
                check_opts(cases[i].what, &(sbx_seccomp_opts){.profile_path = path, .allow_foreign_arches = true,
                                                              .deny_inet_sockets = i == 1});
                unlink(path);
        }
}
END_TEST

/* The comparison can fail: one verdict changed in a rewritten program (the
 * ENOSYS of syscalls newer than the profile made EPERM) is found. */
START_TEST(test_a_changed_verdict_is_found) {
        sbx_bpf raw = {};
        sbx_error err = {};
        struct sock_filter *out = NULL;
        size_t n = 0, changed = 0;

        ck_assert_msg(sbx_seccomp_compile(&(sbx_seccomp_opts){.unoptimized = true}, &raw, &err) == 0, "%s",
                      err.msg);
        ck_assert_int_eq(sbx_bpf_optimize(raw.insns, raw.len, &out, &n), 0);
        for (size_t i = 0; i < n; i++)
                if (out[i].code == (BPF_RET | BPF_K) && out[i].k == (SECCOMP_RET_ERRNO | ENOSYS)) {
                        out[i].k = SECCOMP_RET_ERRNO | EPERM;
                        changed++;
                }
        ck_assert_uint_gt(changed, 0);
        pair t = {"self-check", raw.insns, out, raw.len, n, .count_only = true};
        check_equivalent(&t);
        ck_assert_int_gt(t.mismatches, 0);
        free(out);
        sbx_bpf_free(&raw);
}
END_TEST

/* The rewriter refuses what it cannot prove (the X register here) instead of guessing. */
START_TEST(test_unsupported_program_is_refused) {
        const struct sock_filter p[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
                BPF_STMT(BPF_MISC | BPF_TAX, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_filter *out = NULL;
        size_t n = 0;

        ck_assert_int_eq(sbx_bpf_optimize(p, UNIT_N(p), &out, &n), -EOPNOTSUPP);
        ck_assert_ptr_null(out);
}
END_TEST

int main(void) {
        const TTest *const tests[] = {
                test_default_filters_keep_every_verdict,
                test_user_profiles_with_arguments_keep_every_verdict,
                test_a_changed_verdict_is_found,
                test_unsupported_program_is_refused,
        };

        return unit_main("seccomp-optimize", "equivalence", 120, CK_SILENT, tests, UNIT_N(tests));
}

/* SPDX-License-Identifier: MIT */
/* Seccomp for the sandbox: profile rules -> two classic-BPF programs in the
 * parent (libseccomp), raw seccomp(2) in the child. See seccomp-filter.h and
 * seccomp-profiles/README.md.
 *
 * The two programs, and why there are two:
 *
 *   base   the embedded default profile (seccomp-profiles/default.json) or
 *          the user's Docker-format profile (docker.seccompProfile), with a
 *          six-instruction prefix that answers ENOSYS for syscall numbers
 *          newer than any the profile names (see prepend_enosys_stub()).
 *   layer  sbx's always-on rules (always-on.json) plus the derived rules the
 *          tool policy asked for (derived-no-network.json), default allow,
 *          behind a prefix that refuses syscalls newer than libseccomp's
 *          table under every profile (see build_layer_stub()).
 *
 * The kernel runs every filter attached to a task and applies the most
 * restrictive action (kill-process < kill-thread < trap < errno < ... <
 * allow; Documentation/userspace-api/seccomp_filter.rst, "Return values"), so
 * whatever the base profile allows, a syscall the layer refuses stays
 * refused. Putting the layer's rules into the same libseccomp context instead
 * would depend on libseccomp's rule-merging order and would fail outright when
 * a profile already has an unconditional rule for the same syscall.
 */
#include <assert.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/util.h"
#include "security.h"

/* Room reserved in front of the base program for the ENOSYS prefix. */
#define ENOSYS_STUB_LEN 6
/* x86_64's x32 ABI marks its syscall numbers with this bit. */
#define X32_SYSCALL_BIT 0x40000000U

static void seccomp_releasep(scmp_filter_ctx *ctx) {
        if (*ctx)
                seccomp_release(*ctx);
}

static int ctx_new(uint32_t default_action, const sbx_seccomp_profile *arches, scmp_filter_ctx *ret,
                   sbx_error *reterr) {
        _cleanup_(seccomp_releasep) scmp_filter_ctx ctx = NULL;
        int r;

        ctx = seccomp_init(default_action);
        if (!ctx)
                return sbx_error_set(reterr, -EINVAL,
                                     "seccomp: cannot create a filter with default action 0x%x",
                                     default_action);
        /* A syscall from an ABI the filter does not list (x32, int 0x80 from
         * a 64-bit process) is an attack or a foreign binary: kill it,
         * visibly (exit contract: killed by SIGSYS). */
        r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: set bad-architecture action");
        /* The launcher sets no_new_privs itself; export ignores this anyway. */
        r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: clear NNP attribute");
        /* A binary tree instead of a linear scan over ~350 allowed syscalls. */
        r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: enable binary-tree optimisation");
        for (size_t i = 0; i < arches->n_arches; i++) {
                r = seccomp_arch_add(ctx, arches->arches[i]);
                if (r < 0 && r != -EEXIST)
                        return sbx_error_set(reterr, r, "seccomp: add architecture 0x%x", arches->arches[i]);
        }
        *ret = TAKE_PTR(ctx);
        return 0;
}

static int ctx_add_profile(scmp_filter_ctx ctx, uint32_t default_action, const sbx_seccomp_profile *p,
                           sbx_error *reterr) {
        for (size_t i = 0; i < p->n_rules; i++) {
                const sbx_seccomp_rule *rule = &p->rules[i];
                int r;

                /* Naming a syscall with the default action documents it (and
                 * raises max_nr) but needs no rule; libseccomp refuses one. */
                if (rule->action == default_action)
                        continue;
                r = seccomp_rule_add_array(ctx, rule->action, rule->nr, rule->n_args,
                                           rule->n_args ? rule->args : NULL);
                if (r < 0)
                        return sbx_error_set(reterr, r,
                                             "seccomp profile '%s': syscalls[%u]: libseccomp refused the "
                                             "rule for '%s' (conflicting or invalid comparisons?)",
                                             p->origin, rule->entry, rule->name);
        }
        return 0;
}

/* Export ctx as BPF into a fresh buffer with `front` free instructions first. */
static int export_bpf(scmp_filter_ctx ctx, size_t front, struct sock_filter **ret_insns, size_t *ret_len,
                      sbx_error *reterr) {
        _cleanup_close_ int fd = -EBADF;
        _cleanup_free_ struct sock_filter *insns = NULL;
        struct stat st;
        size_t n;
        int r;

        fd = memfd_create("sbx-bpf", MFD_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "seccomp: memfd_create");
        r = seccomp_export_bpf(ctx, fd);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: export BPF");
        if (fstat(fd, &st) < 0)
                return sbx_error_set(reterr, -errno, "seccomp: fstat exported BPF");
        if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter))
                return sbx_error_set(reterr, -EIO, "seccomp: exported BPF has %lld bytes",
                                     (long long) st.st_size);
        n = st.st_size / sizeof(struct sock_filter);
        if (n + front > BPF_MAXINSNS)
                return sbx_error_set(reterr, -E2BIG, "seccomp: BPF program of %zu instructions, limit %d",
                                     n + front, BPF_MAXINSNS);
        insns = calloc(n + front, sizeof(struct sock_filter));
        if (!insns)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: out of memory");
        if (pread(fd, insns + front, st.st_size, 0) != st.st_size)
                return sbx_error_set(reterr, -EIO, "seccomp: read back exported BPF");
        *ret_insns = TAKE_PTR(insns);
        *ret_len = n + front;
        return 0;
}

/* Whether syscalls newer than the profile should get ENOSYS: only for
 * deny-by-default profiles (an allow-list that does not know a syscall
 * would refuse it; ENOSYS lets libc fall back, as runc does), never for
 * allow-by-default ones, whose unknown syscalls stay allowed. */
static bool wants_enosys_stub(const sbx_seccomp_profile *p) {
        uint32_t kind = p->default_action & SECCOMP_RET_ACTION_FULL;

        return p->max_nr >= 0 && kind != SCMP_ACT_ALLOW && kind != SCMP_ACT_LOG &&
               p->default_action != SCMP_ACT_ERRNO(ENOSYS);
}

/* Fill the ENOSYS_STUB_LEN reserved instructions in front of the base program:
 *
 *   0  ld  [arch]
 *   1  jeq #native            ? 2 : 6      other ABIs: the base program decides
 *   2  ld  [nr]
 *   3  jge #X32_SYSCALL_BIT   ? 6 : 4      x32: the base program kills it
 *   4  jge #max_nr + 1        ? 5 : 6
 *   5  ret ERRNO(ENOSYS)                   newer than every name in the profile
 *   6  (base program)
 *
 * Jump offsets are relative to the next instruction; the base program's own
 * jumps are relative too, so prepending does not disturb them. */
static void prepend_enosys_stub(struct sock_filter *insns, int max_nr) {
        const struct sock_filter stub[ENOSYS_STUB_LEN] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, seccomp_arch_native(), 0, 4),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t) max_nr + 1, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        };

        memcpy(insns, stub, sizeof(stub));
}

/* Store insns (ownership passes) as *dst, with optimize rewritten by
 * sbx_bpf_optimize() (seccomp-optimize.c) when that gives fewer instructions;
 * a program it cannot rewrite is kept as it is. */
static int store(struct sock_filter **dst_insns, unsigned short *dst_len, struct sock_filter *insns,
                 size_t len, bool optimize) {
        struct sock_filter *o;
        size_t n;

        if (optimize && sbx_bpf_optimize(insns, len, &o, &n) == 0) {
                if (n < len) {
                        free(insns);
                        insns = o;
                        len = n;
                } else
                        free(o);
        }
        *dst_insns = insns;
        *dst_len = (unsigned short) len;
        return 0;
}

static int compile_base(const sbx_seccomp_profile *p, bool optimize, sbx_bpf *out, sbx_error *reterr) {
        _cleanup_(seccomp_releasep) scmp_filter_ctx ctx = NULL;
        struct sock_filter *insns;
        bool stub = wants_enosys_stub(p);
        size_t len;
        int r;

        r = ctx_new(p->default_action, p, &ctx, reterr);
        if (r < 0)
                return r;
        r = ctx_add_profile(ctx, p->default_action, p, reterr);
        if (r < 0)
                return r;
        r = export_bpf(ctx, stub ? ENOSYS_STUB_LEN : 0, &insns, &len, reterr);
        if (r < 0)
                return r;
        if (stub)
                prepend_enosys_stub(insns, p->max_nr);
        return store(&out->insns, &out->len, insns, len, optimize);
}

/* ---- the layer's prefix: syscalls newer than libseccomp ----
 *
 * A profile can only name syscalls this libseccomp knows (2.5.4 on Debian 12:
 * up to 456 on x86_64), so always-on.json cannot name newer ones and a user's
 * allow-by-default profile lets every one of them through: open_tree_attr (a
 * mount-API call), statmount/listmount, lsm_*, *xattrat, file_[gs]etattr and
 * whatever later kernels add. The layer therefore starts with a prefix that,
 * under every profile, answers
 *   - EPERM for the mount-API successors in layer_new_eperm[] (the errno
 *     always-on.json's @always-mount family gives), and
 *   - ENOSYS for every other number above the highest one libseccomp knows
 *     for that ABI (libc falls back, as under runc's default profile).
 * For each ABI the filter admits: the native one, i386 and x32 when a
 * profile admitted them (allow_foreign_arches); x32 shares the native arch
 * and marks its numbers with X32_SYSCALL_BIT, its own calls sit at 512..547
 * and the calls added since share the native numbers. Since 5.1 (424) new
 * syscalls have the same number on every ABI. Anything else falls through to
 * the libseccomp program, which reloads arch and nr itself. */
static const struct {
        int nr;
        const char *name;
} layer_new_eperm[] = {
        {467, "open_tree_attr"},
};
#define LAYER_STUB_MAX 32
#define X32_OWN_FIRST 512

/* The highest native-numbered syscall libseccomp knows for arch (x32: of its
 * own range with the bit set, minus the bit), or -1. */
static int libseccomp_max_nr(uint32_t arch) {
        uint32_t bit = arch == SCMP_ARCH_X32 ? X32_SYSCALL_BIT : 0;

        for (int nr = 1023; nr >= 0; nr--) {
                _cleanup_free_ char *name =
                        seccomp_syscall_resolve_num_arch(arch, (int) (bit | (uint32_t) nr));

                if (name)
                        return nr;
        }
        return -1;
}

static bool admits(const sbx_seccomp_profile *arches, uint32_t arch) {
        for (size_t i = 0; i < arches->n_arches; i++)
                if (arches->arches[i] == arch)
                        return true;
        return false;
}

/* Jump targets are instruction indexes in the finished stub, resolved when
 * the two return instructions and the program's start are known. */
enum { T_NEXT = -1, T_EPERM = -2, T_ENOSYS = -3, T_PROG = -4, T_NATIVE = -5, T_I386 = -6, T_X32 = -7 };
typedef struct stub_insn {
        struct sock_filter f;
        int jt, jf; /* absolute index or T_* */
} stub_insn;

static void emit(stub_insn *s, size_t *n, struct sock_filter f, int jt, int jf) {
        s[(*n)++] = (stub_insn){.f = f, .jt = jt, .jf = jf};
}

/* The checks for one ABI, A holding nr; base is 0 or X32_SYSCALL_BIT. */
static void emit_nr_checks(stub_insn *s, size_t *n, uint32_t base, int max_nr) {
        for (size_t i = 0; i < ELEMENTSOF(layer_new_eperm); i++)
                emit(s, n,
                     (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                   base | (uint32_t) layer_new_eperm[i].nr, 0, 0),
                     T_EPERM, T_NEXT);
        emit(s, n,
             (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, base | (uint32_t) (max_nr + 1), 0, 0),
             T_ENOSYS, T_PROG);
}

/* Build the prefix into out (LAYER_STUB_MAX entries); returns its length. */
static size_t build_layer_stub(const sbx_seccomp_profile *arches, struct sock_filter *out) {
        const uint32_t native = seccomp_arch_native();
        const int native_max = libseccomp_max_nr(native);
        bool i386 = native == SCMP_ARCH_X86_64 && admits(arches, SCMP_ARCH_X86);
        bool x32 = native == SCMP_ARCH_X86_64 && admits(arches, SCMP_ARCH_X32);
        stub_insn s[LAYER_STUB_MAX];
        size_t n = 0, at_native, at_i386 = 0, at_x32 = 0, at_eperm;

        emit(s, &n,
             (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)), 0,
             0);
        emit(s, &n, (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, seccomp_arch_native(), 0, 0),
             T_NATIVE, i386 ? T_NEXT : T_PROG);
        if (i386)
                emit(s, &n, (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 0),
                     T_I386, T_PROG);
        at_native = n;
        emit(s, &n,
             (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)), 0,
             0);
        /* x32: the base program kills it unless the profile admitted it */
        emit(s, &n, (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 0),
             x32 ? T_X32 : T_PROG, T_NEXT);
        emit_nr_checks(s, &n, 0, native_max);
        if (i386) {
                at_i386 = n;
                emit(s, &n,
                     (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                   offsetof(struct seccomp_data, nr)),
                     0, 0);
                emit_nr_checks(s, &n, 0, libseccomp_max_nr(SCMP_ARCH_X86));
        }
        if (x32) {
                at_x32 = n;
                /* X32|512..X32|(own max): x32's own calls, the program decides */
                emit(s, &n,
                     (struct sock_filter) BPF_JUMP(
                             BPF_JMP | BPF_JGE | BPF_K,
                             X32_SYSCALL_BIT | (uint32_t) (libseccomp_max_nr(SCMP_ARCH_X32) + 1), 0, 0),
                     T_ENOSYS, T_NEXT);
                emit(s, &n,
                     (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                                   X32_SYSCALL_BIT | X32_OWN_FIRST, 0, 0),
                     T_PROG, T_NEXT);
                emit_nr_checks(s, &n, X32_SYSCALL_BIT, native_max);
        }
        at_eperm = n;
        emit(s, &n, (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM), 0, 0);
        emit(s, &n, (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS), 0, 0);
        assert(n <= LAYER_STUB_MAX);
        for (size_t i = 0; i < n; i++) {
                int t[2] = {s[i].jt, s[i].jf};

                out[i] = s[i].f;
                if (BPF_CLASS(s[i].f.code) != BPF_JMP)
                        continue;
                for (int k = 0; k < 2; k++) {
                        size_t to = t[k] == T_NEXT     ? i + 1
                                    : t[k] == T_EPERM  ? at_eperm
                                    : t[k] == T_ENOSYS ? at_eperm + 1
                                    : t[k] == T_PROG   ? n
                                    : t[k] == T_NATIVE ? at_native
                                    : t[k] == T_I386   ? at_i386
                                                       : at_x32;

                        assert(to > i && to - i - 1 <= 255);
                        if (k == 0)
                                out[i].jt = (uint8_t) (to - i - 1);
                        else
                                out[i].jf = (uint8_t) (to - i - 1);
                }
        }
        return n;
}

static int compile_layer(const sbx_seccomp_profile *arches, const sbx_seccomp_profile *const *parts,
                         size_t n_parts, bool no_network, bool optimize, sbx_bpf *out, sbx_error *reterr) {
        _cleanup_(seccomp_releasep) scmp_filter_ctx ctx = NULL;
        struct sock_filter stub[LAYER_STUB_MAX], *insns;
        size_t len, n_stub;
        int r;

        /* Same ABIs as the base, or the layer would kill what the user's
         * profile deliberately admitted. */
        r = ctx_new(SCMP_ACT_ALLOW, arches, &ctx, reterr);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n_parts; i++) {
                if (parts[i]->default_action != SCMP_ACT_ALLOW)
                        return sbx_error_set(
                                reterr, -EINVAL,
                                "seccomp profile '%s': a layer must have defaultAction SCMP_ACT_ALLOW",
                                parts[i]->origin);
                r = ctx_add_profile(ctx, SCMP_ACT_ALLOW, parts[i], reterr);
                if (r < 0)
                        return r;
        }
        /* A profile that admits i386 (allow_foreign_arches) also admits its
         * socketcall(2) multiplexer, whose socket family sits in memory the
         * filter cannot read: with the network denied it is refused whole
         * (AF_UNIX included) for those ABIs. The native ABI has no
         * socketcall, so this adds nothing to the default filters. */
        if (no_network && arches->n_arches > 0) {
                r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketcall), 0);
                if (r < 0)
                        return sbx_error_set(reterr, r, "seccomp: refuse socketcall for compat ABIs");
        }
        n_stub = build_layer_stub(arches, stub);
        r = export_bpf(ctx, n_stub, &insns, &len, reterr);
        if (r < 0)
                return r;
        memcpy(insns, stub, n_stub * sizeof(*stub));
        return store(&out->layer_insns, &out->layer_len, insns, len, optimize);
}

int sbx_seccomp_compile_profile(const sbx_seccomp_profile *p, sbx_bpf *ret, sbx_error *reterr) {
        _cleanup_(sbx_bpf_free) sbx_bpf bpf = {};
        int r;

        r = compile_base(p, false, &bpf, reterr);
        if (r < 0)
                return r;
        *ret = bpf;
        bpf = (sbx_bpf){};
        return 0;
}

int sbx_seccomp_compile_layer(const sbx_seccomp_profile *p, sbx_bpf *ret, sbx_error *reterr) {
        _cleanup_(sbx_bpf_free) sbx_bpf bpf = {};
        int r;

        r = compile_layer(p, &p, 1, false, false, &bpf, reterr);
        if (r < 0)
                return r;
        *ret = (sbx_bpf){.insns = bpf.layer_insns, .len = bpf.layer_len};
        bpf = (sbx_bpf){};
        return 0;
}

/* Base over layer as one program (sbx_bpf_stack()) when that is shorter than
 * the two: the kernel then converts, JITs and runs one filter instead of two.
 * Without it (a program the rewriter refuses) the two are attached as before. */
static void stack_filters(sbx_bpf *bpf) {
        struct sock_filter *o;
        size_t n;

        if (bpf->flags || !bpf->layer_insns ||
            sbx_bpf_stack(bpf->insns, bpf->len, bpf->layer_insns, bpf->layer_len, &o, &n) < 0)
                return;
        if (n >= (size_t) bpf->len + bpf->layer_len) {
                free(o);
                return;
        }
        bpf->stacked_insns = o;
        bpf->stacked_len = (unsigned short) n;
}

typedef struct profiles {
        sbx_seccomp_profile base, always_on, no_network;
        bool have_no_network;
} profiles;

static void profiles_done(profiles *ps) {
        sbx_seccomp_profile_done(&ps->base);
        sbx_seccomp_profile_done(&ps->always_on);
        sbx_seccomp_profile_done(&ps->no_network);
}

static int load_profiles(const sbx_seccomp_opts *opts, profiles *ps, sbx_error *reterr) {
        unsigned flags = opts && opts->allow_foreign_arches ? SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES : 0;
        int r;

        if (opts && opts->profile_path)
                r = sbx_seccomp_profile_load_file(opts->profile_path, flags, &ps->base, reterr);
        else
                r = sbx_seccomp_profile_load_embedded("default", &ps->base, reterr);
        if (r < 0)
                return r;
        r = sbx_seccomp_profile_load_embedded("always-on", &ps->always_on, reterr);
        if (r < 0)
                return r;
        if (opts && opts->deny_inet_sockets) {
                r = sbx_seccomp_profile_load_embedded("derived-no-network", &ps->no_network, reterr);
                if (r < 0)
                        return r;
                ps->have_no_network = true;
        }
        return 0;
}

/* The rewrite (seccomp-optimize.c) costs ≈0.8 ms of CPU and saves ≈0.2 ms of
 * attach: it pays only done once, at build time, for the embedded profiles
 * (gen-bpf.c); a user profile compiled per run is attached as compiled. */
int sbx_seccomp_compile_uncached(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr) {
        _cleanup_(profiles_done) profiles ps = {};
        _cleanup_(sbx_bpf_free) sbx_bpf bpf = {};
        const sbx_seccomp_profile *parts[2];
        bool optimize = !(opts && (opts->unoptimized || opts->profile_path));
        int r;

        r = load_profiles(opts, &ps, reterr);
        if (r < 0)
                return r;
        r = compile_base(&ps.base, optimize, &bpf, reterr);
        if (r < 0)
                return r;
        parts[0] = &ps.always_on;
        parts[1] = &ps.no_network;
        r = compile_layer(&ps.base, parts, ps.have_no_network ? 2 : 1, ps.have_no_network, optimize, &bpf,
                          reterr);
        if (r < 0)
                return r;
        if (optimize)
                stack_filters(&bpf);
        *ret = bpf;
        bpf = (sbx_bpf){};
        return 0;
}

#ifdef SBX_SECCOMP_GENERATOR
int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr) {
        return sbx_seccomp_compile_uncached(opts, ret, reterr);
}
#else
#include "seccomp-precompiled.h"

static int copy_insns(const struct sock_filter *src, unsigned short len, struct sock_filter **ret,
                      sbx_error *reterr) {
        *ret = malloc(len * sizeof(*src));
        if (!*ret)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: out of memory");
        memcpy(*ret, src, len * sizeof(*src));
        return 0;
}

/* The embedded profiles do not depend on anything at run time (no minKernel
 * gates, native ABI only), so their BPF is compiled once at build time by
 * seccomp-profiles/gen-bpf.c with this very code, saving ~2 ms of libseccomp
 * work per sandbox. test_precompiled_bpf_matches_runtime_compile guards
 * that the two stay identical. A user profile is always compiled here. */
int sbx_seccomp_compile(const sbx_seccomp_opts *opts, sbx_bpf *ret, sbx_error *reterr) {
        _cleanup_(sbx_bpf_free) sbx_bpf bpf = {};
        bool no_network = opts && opts->deny_inet_sockets;
        int r;

        if (opts && (opts->profile_path || opts->unoptimized))
                return sbx_seccomp_compile_uncached(opts, ret, reterr);
        r = copy_insns(sbx_precompiled_base, sbx_precompiled_base_len, &bpf.insns, reterr);
        if (r < 0)
                return r;
        bpf.len = sbx_precompiled_base_len;
        r = copy_insns(no_network ? sbx_precompiled_layer_no_network : sbx_precompiled_layer,
                       no_network ? sbx_precompiled_layer_no_network_len : sbx_precompiled_layer_len,
                       &bpf.layer_insns, reterr);
        if (r < 0)
                return r;
        bpf.layer_len = no_network ? sbx_precompiled_layer_no_network_len : sbx_precompiled_layer_len;
        if (sbx_precompiled_stacked_len[no_network]) {
                r = copy_insns(sbx_precompiled_stacked[no_network], sbx_precompiled_stacked_len[no_network],
                               &bpf.stacked_insns, reterr);
                if (r < 0)
                        return r;
                bpf.stacked_len = sbx_precompiled_stacked_len[no_network];
        }
        *ret = bpf;
        bpf = (sbx_bpf){};
        return 0;
}
#endif

void sbx_bpf_free(sbx_bpf *bpf) {
        if (!bpf)
                return;
        free(bpf->insns);
        free(bpf->layer_insns);
        free(bpf->stacked_insns);
        *bpf = (sbx_bpf){};
}

/* Child side: async-signal-safe, no allocation, nothing but two syscalls
 * (one when sbx_seccomp_compile() stacked the two programs into one).
 *
 * The layer goes first: it allows seccomp(2) by default, whereas a user's base
 * profile might refuse it, which would make a second install fail. Precedence
 * does not depend on the order (most restrictive action wins); only between
 * two ERRNO verdicts does the newer filter's errno win, so the base profile's
 * errno is the one a process sees when both refuse. */
int sbx_seccomp_setup_child(const sbx_bpf *bpf) {
        struct sock_fprog layer = {.len = bpf->layer_len, .filter = bpf->layer_insns};
        struct sock_fprog base = {.len = bpf->len, .filter = bpf->insns};

        if (!bpf->insns || bpf->len == 0)
                return -EINVAL;
        if (bpf->stacked_insns && bpf->stacked_len > 0) {
                struct sock_fprog one = {.len = bpf->stacked_len, .filter = bpf->stacked_insns};

                return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, bpf->flags, &one) < 0 ? -errno : 0;
        }
        if (bpf->layer_insns && bpf->layer_len > 0 &&
            syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &layer) < 0)
                return -errno;
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, bpf->flags, &base) < 0)
                return -errno;
        return 0;
}

/* ---- introspection ---- */

/* The layer prefix's verdict for native nr (see build_layer_stub()), or
 * SCMP_ACT_ALLOW when it leaves nr to the layer's rules. */
static int64_t layer_new_verdict(int nr, int known_max) {
        for (size_t i = 0; i < ELEMENTSOF(layer_new_eperm); i++)
                if (layer_new_eperm[i].nr == nr)
                        return SCMP_ACT_ERRNO(EPERM);
        return nr > known_max ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ALLOW;
}

/* The unconditional action of p for nr, or -1 when argument filters decide. */
static int64_t profile_verdict(const sbx_seccomp_profile *p, int nr, bool stub) {
        int64_t verdict = p->default_action;
        bool seen = false;

        for (size_t i = 0; i < p->n_rules; i++) {
                if (p->rules[i].nr != nr)
                        continue;
                if (p->rules[i].n_args > 0)
                        return -1;
                verdict = p->rules[i].action;
                seen = true;
        }
        if (!seen && stub && nr > p->max_nr)
                return SCMP_ACT_ERRNO(ENOSYS);
        return verdict;
}

int sbx_seccomp_list_restricted(const sbx_seccomp_opts *opts, sbx_seccomp_verdict **ret, size_t *ret_n,
                                sbx_error *reterr) {
        _cleanup_(profiles_done) profiles ps = {};
        _cleanup_free_ sbx_seccomp_verdict *v = NULL;
        const int max_nr = 1024, known_max = libseccomp_max_nr(seccomp_arch_native());
        size_t n = 0;
        int r;

        r = load_profiles(opts, &ps, reterr);
        if (r < 0)
                return r;
        v = calloc(max_nr, sizeof(*v));
        if (!v)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: out of memory");
        for (int nr = 0; nr < max_nr; nr++) {
                _cleanup_free_ char *name = seccomp_syscall_resolve_num_arch(seccomp_arch_native(), nr);
                const sbx_seccomp_profile *layer[2] = {&ps.always_on, &ps.no_network};
                sbx_seccomp_verdict e = {.nr = nr};
                const char *new_name = NULL;
                int64_t base;

                /* Above libseccomp's table: one entry stands for the layer's
                 * ENOSYS range, others only for layer_new_eperm[]. */
                if (!name && nr == known_max + 1)
                        new_name = "(any newer syscall)";
                for (size_t i = 0; !name && i < ELEMENTSOF(layer_new_eperm); i++)
                        if (layer_new_eperm[i].nr == nr)
                                new_name = layer_new_eperm[i].name;
                if (!name && !new_name)
                        continue;
                base = profile_verdict(&ps.base, nr, wants_enosys_stub(&ps.base));
                e.conditional = base < 0;
                e.action = base < 0 ? SCMP_ACT_ALLOW : (unsigned) base;
                for (size_t i = 0; i < (ps.have_no_network ? 2u : 1u); i++) {
                        int64_t l = layer_new_verdict(nr, known_max);

                        if (l == SCMP_ACT_ALLOW)
                                l = profile_verdict(layer[i], nr, false);

                        if (l == SCMP_ACT_ALLOW)
                                continue;
                        if (!e.conditional && (e.action & SECCOMP_RET_ACTION_FULL) != SCMP_ACT_ALLOW)
                                continue; /* the base already refuses it outright */
                        e.always_on = true;
                        if (l < 0)
                                e.conditional = true;
                        else {
                                e.action = (unsigned) l;
                                e.conditional = false;
                        }
                }
                if (!e.conditional && (e.action & SECCOMP_RET_ACTION_FULL) == SCMP_ACT_ALLOW)
                        continue;
                snprintf(e.name, sizeof(e.name), "%s", name ? name : new_name);
                v[n++] = e;
        }
        *ret = TAKE_PTR(v);
        *ret_n = n;
        return 0;
}

/* ---- the exec log filter (issue 14) ---- */

static int compile_exec_notify(struct sock_filter **ret, unsigned short *ret_len, sbx_error *reterr);

#if defined(__x86_64__)
/* Written out (it is on every exec's path, libseccomp's compile is not):
 * x86-64 execve 59 / execveat 322, x32 520 / 545, i386 11 / 358. One
 * execveat passes: the one whose unused sixth argument is the cookie, i.e.
 * sbx's own exec of the command it decided on (the cookie is random per
 * exec, lives only in this filter and in sbx's memory that the exec
 * replaces; a filter cannot be read back without CAP_SYS_ADMIN). */
enum { L_ARCH, L_IS64, L_IS32, L_ALLOW0, L_NR, L_EXECVE, L_EXECVEAT, L_X32A, L_X32B, L_CLO, L_CLOJ, L_CHI,
       L_CHIJ, L_NR32, L_EXECVE32, L_EXECVEAT32, L_ALLOW, L_NOTIFY, L_LEN };
#define TO(from, to) ((to) - (from) - 1)

int sbx_seccomp_compile_exec_notify(uint64_t cookie, struct sock_filter **ret, unsigned short *ret_len,
                                    sbx_error *reterr) {
        const uint32_t args5 = offsetof(struct seccomp_data, args) + 5 * sizeof(uint64_t);
        const struct sock_filter prog[L_LEN] = {
                [L_ARCH] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                [L_IS64] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, TO(L_IS64, L_NR), 0),
                [L_IS32] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, TO(L_IS32, L_NR32), 0),
                [L_ALLOW0] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                [L_NR] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                [L_EXECVE] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 59, TO(L_EXECVE, L_NOTIFY), 0),
                [L_EXECVEAT] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 322, TO(L_EXECVEAT, L_CLO), 0),
                [L_X32A] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, X32_SYSCALL_BIT | 520, TO(L_X32A, L_NOTIFY), 0),
                [L_X32B] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, X32_SYSCALL_BIT | 545, TO(L_X32B, L_NOTIFY),
                                    TO(L_X32B, L_ALLOW)),
                [L_CLO] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, args5),
                [L_CLOJ] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) cookie, 0, TO(L_CLOJ, L_NOTIFY)),
                [L_CHI] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, args5 + 4),
                [L_CHIJ] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) (cookie >> 32), TO(L_CHIJ, L_ALLOW),
                                    TO(L_CHIJ, L_NOTIFY)),
                [L_NR32] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                [L_EXECVE32] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 11, TO(L_EXECVE32, L_NOTIFY), 0),
                [L_EXECVEAT32] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 358, TO(L_EXECVEAT32, L_NOTIFY),
                                          TO(L_EXECVEAT32, L_ALLOW)),
                [L_ALLOW] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                [L_NOTIFY] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
        };

        *ret = malloc(sizeof(prog));
        if (!*ret)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: exec log filter: out of memory");
        memcpy(*ret, prog, sizeof(prog));
        *ret_len = L_LEN;
        return 0;
}
#else
int sbx_seccomp_compile_exec_notify(uint64_t cookie, struct sock_filter **ret, unsigned short *ret_len,
                                    sbx_error *reterr) {
        (void) cookie;          /* every exec is notified, sbx's own too */
        return compile_exec_notify(ret, ret_len, reterr);
}
#endif

/* The same through libseccomp, for the other architectures. */
static __attribute__((unused)) int compile_exec_notify(struct sock_filter **ret, unsigned short *ret_len,
                                                       sbx_error *reterr) {
        _cleanup_(seccomp_releasep) scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
        static const char *const calls[] = { "execve", "execveat" };
        size_t len;
        int r;

        if (!ctx)
                return sbx_error_set(reterr, -ENOMEM, "seccomp: exec log filter: out of memory");
        /* foreign ABIs: the sandbox's filter kills them unless its profile
         * allows them; then they are logged too */
        r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW);
        if (r >= 0)
                r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
        if (r < 0)
                return sbx_error_set(reterr, r, "seccomp: exec log filter: attributes");
#if defined(__x86_64__)
        (void) seccomp_arch_add(ctx, SCMP_ARCH_X86);
        (void) seccomp_arch_add(ctx, SCMP_ARCH_X32);
#endif
        for (size_t i = 0; i < ELEMENTSOF(calls); i++) {
                r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, seccomp_syscall_resolve_name(calls[i]), 0);
                if (r < 0)
                        return sbx_error_set(reterr, r, "seccomp: exec log filter: rule for %s", calls[i]);
        }
        r = export_bpf(ctx, 0, ret, &len, reterr);
        if (r < 0)
                return r;
        *ret_len = (unsigned short) len;
        return 0;
}

int sbx_seccomp_exec_notify_child(const struct sock_filter *insns, unsigned short len) {
        struct sock_fprog prog = { .len = len, .filter = (struct sock_filter *) insns };
        long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);

        return fd < 0 ? -errno : (int) fd;
}

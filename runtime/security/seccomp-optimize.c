/* SPDX-License-Identifier: MIT */
/* Seccomp BPF rewriter (issue 16 target 1): a program in, the same verdicts out,
 * with fewer instructions. Attaching a filter costs the kernel ≈0.55 µs per
 * instruction (conversion to eBPF, JIT, the per-syscall cache emulation) and
 * every syscall runs it, so the embedded profiles' programs are rewritten at
 * build time (seccomp-profiles/gen-bpf.c) and sbx run attaches base and layer
 * stacked into one (sbx_bpf_stack()).
 *
 * How: the verdict of a seccomp program depends on arch and nr only through
 * comparisons of the loaded word with constants (JEQ/JGT/JGE K). Those
 * constants cut the 32-bit range of each into segments inside which every such
 * comparison answers the same, so one representative per segment stands for
 * all of it. For each (arch segment, nr segment) the program is partially
 * evaluated with arch and nr known: what is left (the residual) is either a
 * constant RET or the argument checks exactly as the program had them (loads
 * of args/instruction_pointer, ALU ops and jumps on those, folded where the
 * accumulator is known). Equal residuals are shared (hash-consed), adjacent nr
 * segments with the same residual merge into one range, and the ranges become
 * a balanced tree of JGE (JEQ for a lone number between two equal ranges):
 *
 *   ld [arch]; <tree over arch ranges>; each leaf: ld [nr]; <tree over nr ranges>
 *
 * Nothing is approximated: a program that uses an instruction outside the
 * handled subset (X register, scratch memory, ALU on arch/nr, JSET on arch/nr,
 * RET A of arch/nr) is refused with -EOPNOTSUPP and the caller keeps it as it
 * is. tests/unit/test-seccomp.c compares both programs with a BPF interpreter
 * on every arch, every nr 0..1023 (and with the x32 bit), every boundary and
 * argument boundary values. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "security.h"

#define OFF_NR 0u
#define OFF_ARCH 4u
#define MAX_NODES 65536
#define MAX_STEPS 100000

/* A node of the output: RET (leaf), STMT (one instruction, then child a) or
 * COND (a jump: true -> a, false -> b). Hash-consed: equal nodes, equal ids. */
enum { N_RET, N_STMT, N_COND };
typedef struct node {
        uint8_t kind;
        uint16_t code;
        uint32_t k;
        int a, b;
} node;

typedef struct opt {
        const struct sock_filter *in;
        size_t n_in;
        node *nodes;
        size_t n_nodes;
        size_t cap;  /* nodes room; sized from the input, at most MAX_NODES */
        int *hash;   /* open addressing, cap * 2 slots, -1 empty */
        long steps;
} opt;

static int mk(opt *o, uint8_t kind, uint16_t code, uint32_t k, int a, int b) {
        node x = {.kind = kind, .code = code, .k = k, .a = a, .b = b};
        uint32_t h = (kind * 31u + code) * 2654435761u ^ k * 40503u ^ (uint32_t) a * 97u ^ (uint32_t) b * 131u;

        if (kind == N_COND && a == b)
                return a; /* both ways lead to the same place */
        for (size_t i = h % (o->cap * 2);; i = (i + 1) % (o->cap * 2)) {
                int id = o->hash[i];

                if (id < 0) {
                        if (o->n_nodes >= o->cap)
                                return -E2BIG;
                        o->nodes[o->n_nodes] = x;
                        o->hash[i] = (int) o->n_nodes;
                        return (int) o->n_nodes++;
                }
                if (o->nodes[id].kind == kind && o->nodes[id].code == code && o->nodes[id].k == k &&
                    o->nodes[id].a == a && o->nodes[id].b == b)
                        return id;
        }
}

/* The accumulator during partial evaluation. */
enum { A_UNKNOWN, A_CONST, A_RAW, A_TAINTED }; /* RAW: arch or nr as loaded */
typedef struct acc {
        int state;
        uint32_t v;
} acc;

static uint32_t alu(uint16_t op, uint32_t a, uint32_t k, bool *ok) {
        switch (op) {
        case BPF_ADD: return a + k;
        case BPF_SUB: return a - k;
        case BPF_MUL: return a * k;
        case BPF_DIV: *ok = k != 0; return k ? a / k : 0;
        case BPF_MOD: *ok = k != 0; return k ? a % k : 0;
        case BPF_AND: return a & k;
        case BPF_OR: return a | k;
        case BPF_XOR: return a ^ k;
        case BPF_LSH: *ok = k < 32; return k < 32 ? a << k : 0;
        case BPF_RSH: *ok = k < 32; return k < 32 ? a >> k : 0;
        case BPF_NEG: return -a;
        default: *ok = false; return 0;
        }
}

static bool jump_taken(uint16_t op, uint32_t a, uint32_t k) {
        switch (op) {
        case BPF_JEQ: return a == k;
        case BPF_JGT: return a > k;
        case BPF_JGE: return a >= k;
        default: return (a & k) != 0; /* BPF_JSET */
        }
}

/* The residual of the program from pc with accumulator acc, for one (arch, nr). */
static int residual(opt *o, size_t pc, acc a, uint32_t arch, uint32_t nr) {
        while (pc < o->n_in) {
                const struct sock_filter *f = &o->in[pc];
                uint16_t cls = BPF_CLASS(f->code);

                if (++o->steps > MAX_STEPS)
                        return -E2BIG;
                if (f->code == (BPF_LD | BPF_W | BPF_ABS)) {
                        if (f->k == OFF_NR || f->k == OFF_ARCH) {
                                a = (acc){A_RAW, f->k == OFF_NR ? nr : arch};
                                pc++;
                                continue;
                        }
                        if (f->k % 4 || f->k >= sizeof(struct seccomp_data))
                                return -EOPNOTSUPP;
                        int child = residual(o, pc + 1, (acc){A_UNKNOWN, 0}, arch, nr);

                        return child < 0 ? child : mk(o, N_STMT, f->code, f->k, child, -1);
                }
                if (f->code == (BPF_LD | BPF_IMM)) {
                        a = (acc){A_CONST, f->k};
                        pc++;
                        continue;
                }
                if (cls == BPF_ALU && BPF_SRC(f->code) == BPF_K) {
                        if (a.state == A_UNKNOWN) {
                                int child = residual(o, pc + 1, a, arch, nr);

                                return child < 0 ? child : mk(o, N_STMT, f->code, f->k, child, -1);
                        }
                        bool ok = true;

                        a.v = alu(BPF_OP(f->code), a.v, f->k, &ok);
                        if (!ok)
                                return -EOPNOTSUPP;
                        if (a.state == A_RAW)
                                a.state = A_TAINTED;
                        pc++;
                        continue;
                }
                if (f->code == (BPF_JMP | BPF_JA)) {
                        if (f->k >= o->n_in - pc - 1)
                                return -EINVAL;
                        pc += 1 + f->k;
                        continue;
                }
                if (cls == BPF_JMP && BPF_SRC(f->code) == BPF_K && BPF_OP(f->code) != BPF_JA) {
                        uint16_t op = BPF_OP(f->code);

                        if (op != BPF_JEQ && op != BPF_JGT && op != BPF_JGE && op != BPF_JSET)
                                return -EOPNOTSUPP;
                        if (pc + 1 + f->jt >= o->n_in || pc + 1 + f->jf >= o->n_in)
                                return -EINVAL;
                        if (a.state == A_UNKNOWN) {
                                int t = residual(o, pc + 1 + f->jt, a, arch, nr);
                                int e = t < 0 ? t : residual(o, pc + 1 + f->jf, a, arch, nr);

                                return e < 0 ? e : mk(o, N_COND, f->code, f->k, t, e);
                        }
                        /* a jump on arch/nr must be one the segments account for */
                        if (a.state == A_TAINTED || (a.state == A_RAW && op == BPF_JSET))
                                return -EOPNOTSUPP;
                        pc += 1 + (jump_taken(op, a.v, f->k) ? f->jt : f->jf);
                        continue;
                }
                if (f->code == (BPF_RET | BPF_K))
                        return mk(o, N_RET, f->code, f->k, -1, -1);
                if (f->code == (BPF_RET | BPF_A)) {
                        if (a.state == A_UNKNOWN)
                                return mk(o, N_RET, f->code, 0, -1, -1);
                        if (a.state != A_CONST)
                                return -EOPNOTSUPP;
                        return mk(o, N_RET, BPF_RET | BPF_K, a.v, -1, -1);
                }
                return -EOPNOTSUPP; /* X register, scratch memory, other loads */
        }
        return -EINVAL; /* ran off the end */
}

/* Segment boundaries of arch and nr: every constant a jump compares a word
 * with, when that word may be arch (resp. nr) as loaded. A forward pass over
 * the program tracks which words the accumulator may hold at each pc. */
enum { S_NR = 1, S_ARCH = 2, S_OTHER = 4 };

static int add_bound(uint32_t **v, size_t *n, uint64_t b) {
        if (b > UINT32_MAX)
                return 0;
        if (*n % 64 == 0) {
                uint32_t *p = realloc(*v, (*n + 64) * sizeof(**v));

                if (!p)
                        return -ENOMEM;
                *v = p;
        }
        (*v)[(*n)++] = (uint32_t) b;
        return 0;
}

static int cmp_u32(const void *x, const void *y) {
        uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

        return a < b ? -1 : a > b;
}

static void sort_unique(uint32_t *v, size_t *n) {
        size_t m = 0;

        qsort(v, *n, sizeof(*v), cmp_u32);
        for (size_t i = 0; i < *n; i++)
                if (m == 0 || v[m - 1] != v[i])
                        v[m++] = v[i];
        *n = m;
}

static int bounds(const struct sock_filter *in, size_t n, uint32_t **nrb, size_t *n_nrb, uint32_t **archb,
                  size_t *n_archb) {
        _cleanup_free_ uint8_t *src = calloc(n + 1, 1);
        int r = 0;

        if (!src)
                return -ENOMEM;
        src[0] = S_OTHER; /* A starts as 0 */
        r = add_bound(nrb, n_nrb, 0);
        if (r >= 0)
                r = add_bound(archb, n_archb, 0);
        for (size_t pc = 0; pc < n && r >= 0; pc++) {
                const struct sock_filter *f = &in[pc];
                uint8_t s = src[pc], out = s;

                if (f->code == (BPF_LD | BPF_W | BPF_ABS))
                        out = f->k == OFF_NR ? S_NR : f->k == OFF_ARCH ? S_ARCH : S_OTHER;
                else if (BPF_CLASS(f->code) == BPF_LD)
                        out = S_OTHER;
                if (BPF_CLASS(f->code) == BPF_RET)
                        continue;
                if (BPF_CLASS(f->code) == BPF_JMP) {
                        size_t t = pc + 1 + (BPF_OP(f->code) == BPF_JA ? f->k : f->jt);
                        size_t e = pc + 1 + (BPF_OP(f->code) == BPF_JA ? f->k : f->jf);

                        if (t >= n || e >= n)
                                return -EINVAL;
                        src[t] |= s;
                        src[e] |= s;
                        if (BPF_OP(f->code) != BPF_JA) {
                                uint64_t lo = BPF_OP(f->code) == BPF_JGT ? (uint64_t) f->k + 1 : f->k;

                                for (int w = 0; w < 2 && r >= 0; w++) {
                                        uint32_t **v = w ? archb : nrb;
                                        size_t *nv = w ? n_archb : n_nrb;

                                        if (!(s & (w ? S_ARCH : S_NR)))
                                                continue;
                                        r = add_bound(v, nv, lo);
                                        if (r >= 0 && BPF_OP(f->code) == BPF_JEQ)
                                                r = add_bound(v, nv, (uint64_t) f->k + 1);
                                }
                        }
                        continue;
                }
                src[pc + 1] |= out;
        }
        if (r < 0)
                return r;
        sort_unique(*nrb, n_nrb);
        sort_unique(*archb, n_archb);
        return 0;
}

/* A balanced tree over ranges [lo[i], lo[i+1]) with leaves leaf[i] (adjacent
 * ranges have different leaves); the accumulator holds the word tested. */
static int range_tree(opt *o, const uint32_t *lo, const int *leaf, size_t n) {
        if (n == 1)
                return leaf[0];
        /* a lone value between two equal ranges: one JEQ */
        if (n == 3 && leaf[0] == leaf[2] && lo[2] == lo[1] + 1)
                return mk(o, N_COND, BPF_JMP | BPF_JEQ | BPF_K, lo[1], leaf[1], leaf[0]);
        size_t mid = n / 2;
        int left = range_tree(o, lo, leaf, mid);
        int right = left < 0 ? left : range_tree(o, lo + mid, leaf + mid, n - mid);

        return right < 0 ? right : mk(o, N_COND, BPF_JMP | BPF_JGE | BPF_K, lo[mid], right, left);
}

/* Merge adjacent segments with equal leaves (in place) and build their tree. */
static int merged_tree(opt *o, uint32_t *lo, int *leaf, size_t n) {
        size_t m = 0;

        for (size_t i = 0; i < n; i++)
                if (m == 0 || leaf[m - 1] != leaf[i]) {
                        lo[m] = lo[i];
                        leaf[m++] = leaf[i];
                }
        return range_tree(o, lo, leaf, m);
}

/* Layout: every node reached from the root is emitted once (argument checks
 * share their tails, as libseccomp wrote them), in an order where each node
 * comes after all that jump to it (classic BPF jumps forward only). A node
 * follows its fall-through child (a STMT's next, a COND's false side) when it
 * can; otherwise a STMT ends in a JA, and a COND whose target lies more than
 * 255 instructions ahead jumps through JAs: "jcc 0,1; ja T; ja F". */
typedef struct layout {
        int *order, *pos, *extra, *parents;
        size_t n;
} layout;

static int place_order(opt *o, int root, layout *l) {
        _cleanup_free_ int *ready = malloc(o->n_nodes * sizeof(int));
        _cleanup_free_ uint8_t *seen = calloc(o->n_nodes, 1);
        size_t n_ready = 0;
        int cur = root;

        if (!ready || !seen)
                return -ENOMEM;
        /* parents of each reachable node (ids: children below parents) */
        seen[root] = 1;
        for (int id = root; id >= 0; id--) {
                node *x = &o->nodes[id];

                if (!seen[id] || x->kind == N_RET)
                        continue;
                for (int k = 0; k < (x->kind == N_COND ? 2 : 1); k++) {
                        int c = k ? x->b : x->a;

                        seen[c] = 1;
                        l->parents[c]++;
                }
        }
        while (cur >= 0) {
                node *x = &o->nodes[cur];
                int next = -1;

                l->order[l->n++] = cur;
                if (x->kind != N_RET)
                        for (int k = 0; k < (x->kind == N_COND ? 2 : 1); k++) {
                                int c = k ? x->a : (x->kind == N_COND ? x->b : x->a);

                                if (--l->parents[c] == 0) {
                                        if (k == 0)
                                                next = c; /* fall-through child first */
                                        else
                                                ready[n_ready++] = c;
                                }
                        }
                cur = next >= 0 ? next : n_ready ? ready[--n_ready] : -1;
        }
        return 0;
}

/* Positions with each node's extra instructions; grows until stable. */
static void place(opt *o, layout *l) {
        bool grown = true;

        while (grown) {
                size_t at = 0;

                grown = false;
                for (size_t i = 0; i < l->n; i++) {
                        l->pos[l->order[i]] = (int) at;
                        at += 1 + l->extra[l->order[i]];
                }
                for (size_t i = 0; i < l->n; i++) {
                        int id = l->order[i], want = 0;
                        node *x = &o->nodes[id];
                        int next = i + 1 < l->n ? l->order[i + 1] : -1;

                        if (x->kind == N_STMT)
                                want = x->a != next;
                        else if (x->kind == N_COND)
                                want = (l->pos[x->a] - l->pos[id] - 1 > 255 || l->pos[x->b] - l->pos[id] - 1 > 255)
                                               ? 2
                                               : 0;
                        if (want > l->extra[id]) {
                                l->extra[id] = want;
                                grown = true;
                        }
                }
        }
}

/* A jump from the instruction at `at` to node id: the offset. */
static uint32_t to(const layout *l, size_t at, int id) {
        return (uint32_t) ((size_t) l->pos[id] - at - 1);
}

static size_t emit(opt *o, const layout *l, struct sock_filter *out) {
        size_t at = 0;

        for (size_t i = 0; i < l->n; i++) {
                int id = l->order[i];
                node *x = &o->nodes[id];

                if (x->kind != N_COND) {
                        out[at] = (struct sock_filter) BPF_STMT(x->code, x->k);
                        at++;
                        if (x->kind == N_STMT && l->extra[id]) {
                                out[at] = (struct sock_filter) BPF_STMT(BPF_JMP | BPF_JA, to(l, at, x->a));
                                at++;
                        }
                } else if (!l->extra[id]) {
                        out[at] = (struct sock_filter) BPF_JUMP(x->code, x->k, (uint8_t) to(l, at, x->a),
                                                                (uint8_t) to(l, at, x->b));
                        at++;
                } else {
                        out[at] = (struct sock_filter) BPF_JUMP(x->code, x->k, 0, 1);
                        out[at + 1] = (struct sock_filter) BPF_STMT(BPF_JMP | BPF_JA, to(l, at + 1, x->a));
                        out[at + 2] = (struct sock_filter) BPF_STMT(BPF_JMP | BPF_JA, to(l, at + 2, x->b));
                        at += 3;
                }
        }
        return at;
}

/* The kernel's verdict of two stacked filters (seccomp_run_filters()): the
 * lower action as a signed number wins, the newer filter's on a tie. */
static uint32_t stacked(uint32_t newer, uint32_t older) {
        return (int32_t) (older & SECCOMP_RET_ACTION_FULL) < (int32_t) (newer & SECCOMP_RET_ACTION_FULL) ? older
                                                                                                     : newer;
}

/* The older filter's residual y with each verdict stacked under the newer's v. */
static int under(opt *o, uint32_t v, int y) {
        node x = o->nodes[y];
        int a, b = -1;

        if (++o->steps > MAX_STEPS)
                return -E2BIG;
        if (x.kind == N_RET)
                return x.code != (BPF_RET | BPF_K) ? -EOPNOTSUPP
                                                   : mk(o, N_RET, x.code, stacked(v, x.k), -1, -1);
        a = under(o, v, x.a);
        if (a >= 0 && x.kind == N_COND)
                b = under(o, v, x.b);
        return a < 0 ? a : b < 0 && x.kind == N_COND ? b : mk(o, x.kind, x.code, x.k, a, b);
}

/* Residual x of the newer filter, then at each of its verdicts y's. Each
 * residual loads what it tests itself, so one can follow the other. */
static int combine(opt *o, int x, int y) {
        node n = o->nodes[x];
        int a, b = -1;

        if (++o->steps > MAX_STEPS)
                return -E2BIG;
        if (n.kind == N_RET) {
                if (n.code != (BPF_RET | BPF_K))
                        return -EOPNOTSUPP;
                if ((n.k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_KILL_PROCESS)
                        return x; /* nothing is lower */
                return under(o, n.k, y);
        }
        a = combine(o, n.a, y);
        if (a >= 0 && n.kind == N_COND)
                b = combine(o, n.b, y);
        return a < 0 ? a : b < 0 && n.kind == N_COND ? b : mk(o, n.kind, n.code, n.k, a, b);
}

/* in[0] alone, or in[0] attached after in[1] (n_in 2) as one program. */
static int rewrite(const struct sock_filter *const *in, const size_t *n, size_t n_in, struct sock_filter **ret,
                   size_t *ret_len) {
        _cleanup_free_ uint32_t *nrb = NULL, *archb = NULL, *alo = NULL;
        _cleanup_free_ int *leaves = NULL, *aleaf = NULL, *hash = NULL, *order = NULL, *pos = NULL,
                           *extra = NULL, *parents = NULL;
        _cleanup_free_ node *nodes = NULL;
        _cleanup_free_ uint32_t *lo = NULL;
        size_t n_nrb = 0, n_archb = 0;
        opt o = {};
        struct sock_filter *out;
        int root, r;

        for (size_t k = 0; k < n_in; k++) {
                if (n[k] == 0 || n[k] > BPF_MAXINSNS)
                        return -EINVAL;
                r = bounds(in[k], n[k], &nrb, &n_nrb, &archb, &n_archb);
                if (r < 0)
                        return r;
        }
        /* a node per input instruction and segment tree node is plenty for
         * what libseccomp emits; more: -E2BIG, the input is kept */
        o.cap = 4096;
        for (size_t k = 0; k < n_in; k++)
                o.cap += 8 * n[k];
        o.cap = o.cap > MAX_NODES ? MAX_NODES : o.cap;
        nodes = malloc(o.cap * sizeof(*nodes));
        hash = malloc(o.cap * 2 * sizeof(*hash));
        leaves = malloc(n_nrb * sizeof(*leaves));
        lo = malloc(n_nrb * sizeof(*lo));
        aleaf = malloc(n_archb * sizeof(*aleaf));
        alo = malloc(n_archb * sizeof(*alo));
        if (!nodes || !hash || !leaves || !lo || !aleaf || !alo)
                return -ENOMEM;
        memset(hash, 0xff, o.cap * 2 * sizeof(*hash));
        o.nodes = nodes;
        o.hash = hash;
        for (size_t i = 0; i < n_archb; i++) {
                for (size_t j = 0; j < n_nrb; j++) {
                        int res[2];

                        o.steps = 0; /* the budget is per (arch, nr) segment */

                        for (size_t k = 0; k < n_in; k++) {
                                o.in = in[k];
                                o.n_in = n[k];
                                res[k] = residual(&o, 0, (acc){A_CONST, 0}, archb[i], nrb[j]);
                                if (res[k] < 0)
                                        return res[k];
                        }
                        leaves[j] = n_in == 2 ? combine(&o, res[0], res[1]) : res[0];
                        if (leaves[j] < 0)
                                return leaves[j];
                }
                memcpy(lo, nrb, n_nrb * sizeof(*lo));
                aleaf[i] = merged_tree(&o, lo, leaves, n_nrb);
                if (aleaf[i] < 0)
                        return aleaf[i];
                if (o.nodes[aleaf[i]].kind == N_COND) /* it tests nr: load it */
                        aleaf[i] = mk(&o, N_STMT, BPF_LD | BPF_W | BPF_ABS, OFF_NR, aleaf[i], -1);
                if (aleaf[i] < 0)
                        return aleaf[i];
        }
        memcpy(alo, archb, n_archb * sizeof(*alo));
        root = merged_tree(&o, alo, aleaf, n_archb);
        if (root >= 0 && o.nodes[root].kind == N_COND)
                root = mk(&o, N_STMT, BPF_LD | BPF_W | BPF_ABS, OFF_ARCH, root, -1);
        if (root < 0)
                return root;
        order = malloc(o.n_nodes * sizeof(int));
        pos = calloc(o.n_nodes, sizeof(int));
        extra = calloc(o.n_nodes, sizeof(int));
        parents = calloc(o.n_nodes, sizeof(int));
        if (!order || !pos || !extra || !parents)
                return -ENOMEM;
        layout l = {.order = order, .pos = pos, .extra = extra, .parents = parents};

        r = place_order(&o, root, &l);
        if (r < 0)
                return r;
        place(&o, &l);
        size_t total = 0;

        for (size_t i = 0; i < l.n; i++)
                total += 1 + (size_t) extra[order[i]];
        if (total > BPF_MAXINSNS)
                return -E2BIG;
        out = calloc(total, sizeof(*out));
        if (!out)
                return -ENOMEM;
        *ret_len = emit(&o, &l, out);
        *ret = out;
        return 0;
}

int sbx_bpf_optimize(const struct sock_filter *in, size_t n, struct sock_filter **ret, size_t *ret_len) {
        return rewrite(&in, &n, 1, ret, ret_len);
}

int sbx_bpf_stack(const struct sock_filter *newer, size_t n_newer, const struct sock_filter *older,
                  size_t n_older, struct sock_filter **ret, size_t *ret_len) {
        const struct sock_filter *in[2] = {newer, older};
        size_t n[2] = {n_newer, n_older};

        return rewrite(in, n, 2, ret, ret_len);
}

/* SPDX-License-Identifier: MIT */
/* The device cgroup on cgroup v2: v2 has no devices controller; the kernel
 * asks a BPF_PROG_TYPE_CGROUP_DEVICE program attached to the cgroup on
 * every open and mknod of a device node (runc's devicefilter does the same).
 * The program is generated here from the rules, hand-assembled:
 *   type = ctx->access_type & 0xffff; access = ctx->access_type >> 16;
 *   major = ctx->major; minor = ctx->minor;
 *   for each rule, LAST first: if it matches, return allow ? 1 : 0;
 *   return 0;                              (deny all, as on v1)
 * (blocks below a rule that matches every device are left out: unreachable)
 * so the last matching rule wins, as v1's exception list (and runc) have it.
 * A rule matches when its type is 'a' or the device's, its major and minor
 * are -1 or the device's, and the access asked for is within its access. It
 * is attached with BPF_F_ALLOW_MULTI (programs above it still apply). */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup-internal.h"
#include "util/util.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define LDX_W(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define MOV_R(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_I(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define AND_I(d, i) INSN(BPF_ALU | BPF_AND | BPF_K, d, 0, 0, i)
#define RSH_I(d, i) INSN(BPF_ALU | BPF_RSH | BPF_K, d, 0, 0, i)
#define JNE_I(d, i, o) INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JNE_R(d, s, o) INSN(BPF_JMP | BPF_JNE | BPF_X, d, s, o, 0)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static unsigned access_bits(const char *a) {
        return (strchr(a, 'm') ? BPF_DEVCG_ACC_MKNOD : 0) | (strchr(a, 'r') ? BPF_DEVCG_ACC_READ : 0) |
               (strchr(a, 'w') ? BPF_DEVCG_ACC_WRITE : 0);
}

/* One rule's block into p (at most 9 instructions); returns its length. */
static size_t rule_block(const sbx_cgroup_device_rule *d, struct bpf_insn *p) {
        struct bpf_insn b[9];
        size_t n = 0;
        unsigned acc = access_bits(d->access), all = BPF_DEVCG_ACC_MKNOD | BPF_DEVCG_ACC_READ |
                                                    BPF_DEVCG_ACC_WRITE;

        /* the jumps' offsets (to the next block) are set below: marked off = -1 */
        if (d->type != 'a')
                b[n++] = JNE_I(BPF_REG_2, d->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, -1);
        if (acc != all) {
                b[n++] = MOV_R(BPF_REG_1, BPF_REG_3);
                b[n++] = AND_I(BPF_REG_1, (int) acc);
                b[n++] = JNE_R(BPF_REG_1, BPF_REG_3, -1);
        }
        if (d->major >= 0)
                b[n++] = JNE_I(BPF_REG_4, (int) d->major, -1);
        if (d->minor >= 0)
                b[n++] = JNE_I(BPF_REG_5, (int) d->minor, -1);
        b[n++] = MOV_I(BPF_REG_0, d->allow ? 1 : 0);
        b[n++] = EXIT();
        for (size_t i = 0; i < n; i++) {
                if (b[i].off == -1)
                        b[i].off = (short) (n - i - 1);
                p[i] = b[i];
        }
        return n;
}

static int load(const struct bpf_insn *insns, size_t n, char *log, size_t log_len) {
        union bpf_attr a;

        memset(&a, 0, sizeof(a));
        a.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
        a.insns = (uint64_t) (uintptr_t) insns;
        a.insn_cnt = (uint32_t) n;
        a.license = (uint64_t) (uintptr_t) "MIT";
        if (log) {      /* the verifier's reasons (a log too short for them fails the load) */
                a.log_buf = (uint64_t) (uintptr_t) log;
                a.log_size = (uint32_t) log_len;
                a.log_level = 1;
        }
        return (int) syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));
}

int cg_v2_apply_devices(const char *path, const sbx_cgroup_resources *res, sbx_error *reterr) {
        _cleanup_free_ struct bpf_insn *insns = NULL;
        _cleanup_close_ int cgfd = -EBADF, prog = -EBADF;
        char log[4096] = "";
        union bpf_attr a;
        size_t n = 0;
        bool all = false;

        if (!res->devices)
                return 0;
        insns = calloc(8 + 9 * res->n_devices, sizeof(*insns));
        if (!insns)
                return sbx_error_set(reterr, -ENOMEM, "device rules");
        insns[n++] = LDX_W(BPF_REG_2, BPF_REG_1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
        insns[n++] = AND_I(BPF_REG_2, 0xffff);
        insns[n++] = LDX_W(BPF_REG_3, BPF_REG_1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
        insns[n++] = RSH_I(BPF_REG_3, 16);
        insns[n++] = LDX_W(BPF_REG_4, BPF_REG_1, offsetof(struct bpf_cgroup_dev_ctx, major));
        insns[n++] = LDX_W(BPF_REG_5, BPF_REG_1, offsetof(struct bpf_cgroup_dev_ctx, minor));
        /* a rule matching every device ends the program: the verifier
         * refuses unreachable instructions after it */
        for (size_t i = res->n_devices; i-- > 0 && !all; ) {
                size_t l = rule_block(&res->devices[i], insns + n);
                n += l;
                all = l == 2;
        }
        if (!all) {
                insns[n++] = MOV_I(BPF_REG_0, 0);
                insns[n++] = EXIT();
        }
        prog = load(insns, n, NULL, 0);
        if (prog < 0) {
                int err = errno;
                (void) load(insns, n, log, sizeof(log));
                errno = err;
        }
        if (prog < 0)
                return sbx_error_set(reterr, -errno, "device rules: load the cgroup v2 device program "
                                     "(BPF_PROG_TYPE_CGROUP_DEVICE, %zu instructions)%s%s", n,
                                     log[0] ? ": " : "", log);
        cgfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cgfd < 0)
                return sbx_error_set(reterr, -errno, "device rules: open cgroup '%s'", path);
        memset(&a, 0, sizeof(a));
        a.target_fd = (uint32_t) cgfd;
        a.attach_bpf_fd = (uint32_t) prog;
        a.attach_type = BPF_CGROUP_DEVICE;
        a.attach_flags = BPF_F_ALLOW_MULTI;
        if (syscall(SYS_bpf, BPF_PROG_ATTACH, &a, sizeof(a)) < 0)
                return sbx_error_set(reterr, -errno, "device rules: attach the device program to cgroup '%s'",
                                     path);
        return 0;
}

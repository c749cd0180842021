/* SPDX-License-Identifier: MIT */
/* The few-KiB static binaries of this folder that run without any libc
 * (-nostdlib, raw syscalls): sbx-init (init.c) and the `sbx exec` front end
 * (exec-front.c). Their syscall convention, entry point and the kernel's ABI
 * of the socket records they use. Include it once, from the binary's .c
 * file, which defines
 *     _Noreturn void nolibc_main(long *sp);
 * (sp: the initial stack: argc, argv[], NULL, envp[], NULL). Not an API. */
#pragma once

#include <linux/errno.h>
#include <stddef.h>
#include <sys/syscall.h>

__attribute__((used)) _Noreturn void nolibc_main(long *sp);

#if defined(__x86_64__)
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
        long ret;
        register long r10 __asm__("r10") = d;
        register long r8 __asm__("r8") = e;
        register long r9 __asm__("r9") = f;
        __asm__ volatile("syscall"
                         : "=a"(ret)
                         : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                         : "rcx", "r11", "memory");
        return ret;
}
__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  xor %rbp, %rbp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call nolibc_main\n"
        "  hlt\n");
#elif defined(__aarch64__)
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
        register long x8 __asm__("x8") = n;
        register long x0 __asm__("x0") = a;
        register long x1 __asm__("x1") = b;
        register long x2 __asm__("x2") = c;
        register long x3 __asm__("x3") = d;
        register long x4 __asm__("x4") = e;
        register long x5 __asm__("x5") = f;
        __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
        return x0;
}
__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  mov x29, #0\n"
        "  mov x0, sp\n"
        "  bl nolibc_main\n"
        "  b .\n");
#else
#error "nolibc.h: add the syscall convention of this architecture"
#endif

#define sys(n, a, b, c, d) sys6((n), (long) (a), (long) (b), (long) (c), (long) (d), 0, 0)

/* Call fn(arg) on the stack that ends at top (16-byte aligned); it never
 * returns. sbx-init moves off the kernel's stack with it (init.c). */
static inline _Noreturn void nolibc_on_stack(void *top, void (*fn)(long *), long *arg) {
#if defined(__x86_64__)
        __asm__ volatile("mov %0, %%rsp\n"
                         "xor %%rbp, %%rbp\n"
                         "call *%1\n"
                         "hlt\n"
                         : : "r"(top), "r"(fn), "D"(arg) : "memory");
#elif defined(__aarch64__)
        __asm__ volatile("mov sp, %0\n"
                         "mov x29, #0\n"
                         "mov x0, %2\n"
                         "blr %1\n"
                         "b .\n"
                         : : "r"(top), "r"(fn), "r"(arg) : "x0", "x29", "x30", "memory");
#endif
        __builtin_unreachable();
}

/* The kernel's ABI of the few socket records we use (LP64). */
struct iov {
        void *base;
        unsigned long len;
};
struct mhdr {
        void *name;
        int namelen;
        struct iov *iov;
        unsigned long iovlen;
        void *control;
        unsigned long controllen;
        unsigned flags;
};
struct cmsg {
        unsigned long len;
        int level, type;
};
struct peercred {
        int pid;
        unsigned uid, gid;
};
struct timeval_k {
        long sec, usec;
};
#define SOL_SOCKET 1
#define SCM_RIGHTS 1
#define SO_PEERCRED 17
#define SO_RCVTIMEO 20
#define MSG_TRUNC 0x20
#define MSG_CTRUNC 0x08
#define MSG_DONTWAIT 0x40
#define MSG_NOSIGNAL 0x4000
#define MSG_CMSG_CLOEXEC 0x40000000
#define AT_FDCWD_K (-100)
#define AT_EMPTY_PATH_K 0x1000


static _Noreturn void quit(int status) {
        for (;;)
                sys(SYS_exit_group, status, 0, 0, 0);
}

static void close_fd(int fd) {
        if (fd >= 0)
                sys(SYS_close, fd, 0, 0, 0);
}

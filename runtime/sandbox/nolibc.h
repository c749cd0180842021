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

/* A compiler may call these for a struct's zeroing or copy even in a
 * freestanding build (clang does at -O0: the fuzz lane's debug build), so
 * a binary without libc defines them. String instructions on x86_64; a
 * byte loop through a volatile pointer elsewhere, which no optimiser turns
 * back into a call to itself. */
__attribute__((used)) void *memset(void *dst, int c, size_t n) {
#if defined(__x86_64__)
        void *d = dst;
        __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
#else
        volatile unsigned char *d = dst;
        while (n--)
                *d++ = (unsigned char) c;
#endif
        return dst;
}

__attribute__((used)) void *memcpy(void *dst, const void *src, size_t n) {
#if defined(__x86_64__)
        void *d = dst;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
#else
        volatile unsigned char *d = dst;
        const volatile unsigned char *s = src;
        while (n--)
                *d++ = *s++;
#endif
        return dst;
}

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

/* clone(2) with flags whose child starts on the stack that ends at top
 * (16-byte aligned) and runs fn(arg), which never returns; child_tid as
 * CLONE_CHILD_CLEARTID takes it. Returns the child's pid or -errno. With
 * CLONE_VM the child must touch nothing of ours but that stack and what
 * arg points to (sbx-init's exec service, init.c). */
static inline long nolibc_clone_on(unsigned long flags, void *top, int *child_tid, void (*fn)(void *),
                                   void *arg) {
#if defined(__x86_64__)
        /* clone(flags, newsp, parent_tid, child_tid, tls); r12 and r13 survive the syscall */
        register long rax __asm__("rax") = SYS_clone;
        register long rdi __asm__("rdi") = (long) flags;
        register long rsi __asm__("rsi") = (long) top;
        register long rdx __asm__("rdx") = 0;
        register long r10 __asm__("r10") = (long) child_tid;
        register long r8 __asm__("r8") = 0;
        register long r12 __asm__("r12") = (long) fn;
        register long r13 __asm__("r13") = (long) arg;
        __asm__ volatile("syscall\n"
                         "test %%rax, %%rax\n"
                         "jnz 1f\n"
                         "xor %%rbp, %%rbp\n"
                         "mov %%r13, %%rdi\n"
                         "call *%%r12\n"
                         "hlt\n"
                         "1:\n"
                         : "+r"(rax)
                         : "r"(rdi), "r"(rsi), "r"(rdx), "r"(r10), "r"(r8), "r"(r12), "r"(r13)
                         : "rcx", "r11", "memory");
        return rax;
#elif defined(__aarch64__)
        /* clone(flags, newsp, parent_tid, tls, child_tid); x19 and x20 survive the syscall */
        register long x8 __asm__("x8") = SYS_clone;
        register long x0 __asm__("x0") = (long) flags;
        register long x1 __asm__("x1") = (long) top;
        register long x2 __asm__("x2") = 0;
        register long x3 __asm__("x3") = 0;
        register long x4 __asm__("x4") = (long) child_tid;
        register long x19 __asm__("x19") = (long) fn;
        register long x20 __asm__("x20") = (long) arg;
        __asm__ volatile("svc #0\n"
                         "cbnz x0, 1f\n"
                         "mov x29, #0\n"
                         "mov x30, #0\n"
                         "mov x0, x20\n"
                         "blr x19\n"
                         "b .\n"
                         "1:\n"
                         : "+r"(x0)
                         : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x19), "r"(x20)
                         : "x29", "x30", "memory");
        return x0;
#endif
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

/* SPDX-License-Identifier: MIT */
/* sbx-init: pid 1 of a persistent sandbox (issue 4). Built as its own tiny
 * static binary with no libc at all (-nostdlib, raw syscalls): an idle
 * sandbox costs one process of a few KiB of RSS.
 *
 * It runs after the launcher's whole child sequence (mounts, caps dropped,
 * no_new_privs, seccomp), so it holds no privilege. Its jobs:
 *   - keep the namespaces alive (they live as long as it does);
 *   - reap every orphan reparented to it (SIGCHLD -> wait4(-1, WNOHANG));
 *   - stop cleanly: SIGTERM/SIGINT/SIGHUP/SIGPWR *from outside the sandbox*
 *     (si_pid 0 in our pid namespace) -> SIGTERM to every process, reap them,
 *     exit when none is left or after the grace period (the kernel then
 *     SIGKILLs whatever remains, because pid 1 exited);
 *   - forward other signals from outside (SIGUSR1, ...) to every process.
 * Signals sent from inside the sandbox are ignored (only kill/tgkill from
 * outside count, see the loop), and we are not dumpable: a sandboxed process can
 * not stop its own sandbox by signalling pid 1.
 *
 * Handshake with `sbx create`/`start` (fd 0 and 1 are pipes to it, fd 2 is
 * /dev/null): the launcher exec'd us with PR_SET_PDEATHSIG set, so we die
 * with sbx until we clear it. sbx first records our pid and start time, then
 * writes "G"; we clear the parent-death signal, answer "R" and close 0-2.
 * If sbx dies before "G" we exit: no init ever runs unrecorded. */
#include <linux/errno.h>
#include <linux/prctl.h>
#include <linux/signal.h>
#include <linux/time.h>
#include <linux/wait.h>
#include <stddef.h>
#ifndef SI_USER
#define SI_USER 0
#endif
#ifndef SI_TKILL
#define SI_TKILL (-6)
#endif
#include <sys/syscall.h>

#define STOP_GRACE_SEC 5

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
        "  and $-16, %rsp\n"
        "  call init_main\n"
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
        "  bl init_main\n"
        "  b .\n");
#else
#error "sbx-init: add the syscall convention of this architecture"
#endif

#define sys(n, a, b, c, d) sys6((n), (long) (a), (long) (b), (long) (c), (long) (d), 0, 0)

/* The kernel's siginfo layout prefix we need: signo, errno, code, then for
 * kill()/SIGCHLD the sender's pid in our namespace. */
struct kinfo {
        int signo, err, code;
        int pid;
        char pad[128 - 4 * sizeof(int)];
};

static void reap(void) {
        while (sys(SYS_wait4, -1, 0, WNOHANG, 0) > 0)
                ;
}

static _Noreturn void quit(int status) {
        for (;;)
                sys(SYS_exit_group, status, 0, 0, 0);
}

static _Noreturn void stop(const unsigned long *all) {
        struct timespec ts = { .tv_sec = 1 };
        struct kinfo info;

        /* Everyone but us (kill(-1) skips the caller). */
        sys(SYS_kill, -1, SIGTERM, 0, 0);
        for (int waited = 0; waited < STOP_GRACE_SEC;) {
                long r;
                reap();
                if (sys(SYS_wait4, -1, 0, WNOHANG, 0) == -ECHILD)
                        quit(0);
                r = sys6(SYS_rt_sigtimedwait, (long) all, (long) &info, (long) &ts, 8, 0, 0);
                if (r == -EAGAIN)
                        waited++;
        }
        quit(0);
}

__attribute__((used)) _Noreturn void init_main(void) {
        unsigned long all = ~0UL;
        struct kinfo info;

        /* kill(-1) below must only ever reach a sandbox: refuse to run as
         * anything but pid 1 of a pid namespace. */
        if (sys(SYS_getpid, 0, 0, 0, 0) != 1)
                quit(127);
        /* Not dumpable: the sandbox's processes have our ids, and through
         * /proc/1/mem could rewrite us (stop the sandbox from inside, or
         * answer its owner's signals as they please). ptrace is refused by
         * the filter; this closes /proc/1/mem, /proc/1/environ and the like. */
        if (sys(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0) < 0)
                quit(1);
        /* "G" on stdin: sbx recorded our pid (a crash cleanup can find us).
         * EOF: it died first; so do we (its parent-death signal may not
         * have reached us yet). */
        char go = 0;
        if (sys(SYS_read, 0, &go, 1, 0) != 1 || go != 'G')
                quit(1);
        /* Outlive the sbx that launched us (see the top comment). */
        sys(SYS_prctl, PR_SET_PDEATHSIG, 0, 0, 0);
        sys(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8);
        if (sys(SYS_write, 1, "R", 1, 0) != 1)
                quit(1);
        /* No fd of sbx's stays open: the sandbox holds nothing of the caller. */
        sys(SYS_close, 0, 0, 0, 0);
        sys(SYS_close, 1, 0, 0, 0);
        sys(SYS_close, 2, 0, 0, 0);
        sys(SYS_prctl, PR_SET_NAME, "sbx-init", 0, 0);

        for (;;) {
                long sig = sys(SYS_rt_sigtimedwait, &all, &info, 0, 8);
                if (sig <= 0)
                        continue;
                if (sig == SIGCHLD) {
                        reap();
                        continue;
                }
                /* Only kill()/tgkill() from outside our pid namespace count:
                 * for those (SI_USER, SI_TKILL) the kernel fills in si_pid,
                 * 0 for a sender it cannot name here. Anything else may come
                 * from inside: sigqueue (SI_QUEUE and other negative codes)
                 * lets the sender write si_pid itself, and a signal the
                 * kernel raises (positive codes) can be aimed at us by any
                 * process, e.g. SIGIO with F_SETOWN 1 + F_SETSIG SIGTERM. */
                if (info.pid != 0 || (info.code != SI_USER && info.code != SI_TKILL))
                        continue;
                if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGPWR)
                        stop(&all);
                sys(SYS_kill, -1, sig, 0, 0);
        }
}

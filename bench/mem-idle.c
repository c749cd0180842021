/* SPDX-License-Identifier: MIT */
/* mem-idle: an idle process and nothing else (bench-memfloor.sh): no libc,
 * pause() forever. Built with cc -O2 -static -nostdlib. Not part of sbx. */
#include <sys/syscall.h>

__attribute__((noreturn)) void _start(void) {
        for (;;)
                __asm__ volatile("syscall" : : "a"(SYS_pause) : "rcx", "r11", "memory");
}

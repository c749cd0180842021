/* SPDX-License-Identifier: MIT */
/* deny-syscalls NAME[,NAME...] CMD [ARGS...]: run CMD under a seccomp filter
 * that fails the named system calls with ENOSYS, as an older kernel (or a
 * container runtime's filter) would. Used to exercise sbx's fallback paths
 * (STYLE §F.25): each either works another way or fails naming the step. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
        scmp_filter_ctx ctx;
        char *list, *name, *save = NULL;

        if (argc < 3) {
                fprintf(stderr, "usage: deny-syscalls NAME[,NAME...] CMD [ARGS...]\n");
                return 2;
        }
        ctx = seccomp_init(SCMP_ACT_ALLOW);
        if (!ctx)
                return 125;
        list = strdup(argv[1]);
        for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
                int nr = seccomp_syscall_resolve_name(name);
                if (nr == __NR_SCMP_ERROR || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) < 0) {
                        fprintf(stderr, "deny-syscalls: unknown system call '%s'\n", name);
                        return 2;
                }
        }
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_load(ctx) < 0) {
                perror("deny-syscalls: load filter");
                return 125;
        }
        seccomp_release(ctx);
        execvp(argv[2], argv + 2);
        perror("deny-syscalls: exec");
        return 127;
}

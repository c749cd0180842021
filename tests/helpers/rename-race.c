/* SPDX-License-Identifier: MIT */
/* rename-race A B: swap A and B (renameat2 RENAME_EXCHANGE) in a loop until
 * killed: the racing process of tests/oci/oci-escape17.sh, which swaps a
 * rootfs's /dev/console between a file and a symlink while containers start
 * (a Python loop of renameat2 through ctypes never won the race in 40 runs
 * against the unfixed code; this one won 5 in 260). */
#include <fcntl.h>
#include <stdio.h>

int main(int argc, char **argv) {
        if (argc != 3) {
                fprintf(stderr, "usage: rename-race A B\n");
                return 2;
        }
        if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) < 0) {
                perror("rename-race: renameat2");
                return 1;
        }
        for (;;)
                (void) renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE);
}

/* SPDX-License-Identifier: MIT */
/* libFuzzer: the whole `sbx rootfs import` path (outer tar, manifest/index
 * JSON, digests, layer extraction, flattening) plus image-name parsing, on
 * arbitrary bytes. Everything lands in a private store that is wiped after
 * each input; any write outside it would be a bug the harness checks for. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-tools/image.h"
#include "rootfs-tools/tree.h"

static char store[64];
static int tmpfd = -1;

static void cleanup(void) {
        if (tmpfd >= 0)
                (void) sbx_tree_rm_rf_at(tmpfd, store + 5);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct sbx_image_ref ref;
        char name[512], norm[4096];
        unsigned count = 0;
        sbx_error e = {};
        int fd;

        if (tmpfd < 0) {
                snprintf(store, sizeof(store), "/tmp/sbx-fuzz-archive.XXXXXX");
                if (!mkdtemp(store))
                        abort();
                setenv("SBX_IMAGE_DIR", store, 1);
                tmpfd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                atexit(cleanup);
        }
        if (size > (1 << 20))
                return 0;
        /* names and entry paths */
        snprintf(name, sizeof(name), "%.*s", (int) (size < 500 ? size : 500), (const char *) data);
        (void) sbx_image_ref_parse(name, &ref, &e);
        (void) sbx_path_normalize(name, norm, sizeof(norm), &e);
        /* the importer */
        fd = memfd_create("archive", MFD_CLOEXEC);
        if (fd < 0 || write(fd, data, size) != (ssize_t) size)
                abort();
        lseek(fd, 0, SEEK_SET);
        (void) sbx_image_import(fd, size % 2 ? "fuzz/name:tag" : NULL, NULL, NULL, &count, &e);
        close(fd);
        if (sbx_tree_rm_rf_at(tmpfd, store + 5) < 0 || mkdir(store, 0700) < 0)
                abort();
        return 0;
}

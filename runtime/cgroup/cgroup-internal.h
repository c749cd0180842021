/* SPDX-License-Identifier: MIT */
/* Shared by cgroup.c (v2, probing, sbx run's limits) and cgroup-v1.c. */
#pragma once

#include <stddef.h>

#include "cgroup.h"

/* Paths here are bounded by PATH_MAX; a truncated one names no cgroup and
 * fails with ENOENT, so truncation is not silent. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* Read a small file (trailing newlines/spaces cut): length or -errno. */
int cg_read_small(int dirfd, const char *path, char *buf, size_t len);
/* Write value in one write(): 0 or -errno. */
int cg_write_small(int dirfd, const char *path, const char *value);
/* 1 if the cgroup directory has processes (cgroup.procs), 0 if not, -errno. */
int cg_populated(const char *path);
/* The directory of cg's v1 hierarchy that has controller c, or NULL. */
const char *cg_v1_dir(const sbx_cgroup *cg, const char *c);

/* v2 (cgroup.c): enable controllers ctrl from h->anchor down to h->base,
 * creating the directories; create a leaf (an empty existing one is
 * recreated, a populated one is -EBUSY). */
int cg_v2_enable_down(const sbx_cgroup_host *h, const char *ctrl, sbx_error *reterr);
int cg_v2_make_leaf(const char *path, sbx_error *reterr);

/* runc's conversions, for the v2 files and systemd's properties alike:
 * cpu shares 2..262144 -> cpu.weight 1..10000; blkio weight 10..1000 ->
 * io.weight 1..10000. */
static inline long long cg_shares_to_weight(int64_t shares) {
        return 1 + ((long long) shares - 2) * 9999 / 262142;
}
static inline long long cg_blkio_to_io_weight(int64_t weight) {
        return 1 + ((long long) weight - 10) * 9999 / 990;
}
/* v2 limits swap alone: res->memory_swap (memory + swap, OCI/docker) minus
 * res->memory into *ret, -1 for none ("max"). -EINVAL when below memory. */
int cg_v2_swap_max(const sbx_cgroup_resources *res, int64_t *ret, sbx_error *reterr);

/* cgroup v2's device rules (cgroup-devices.c): a BPF_CGROUP_DEVICE program
 * made from res->devices, attached to the cgroup directory path. */
int cg_v2_apply_devices(const char *path, const sbx_cgroup_resources *res, sbx_error *reterr);

/* "/a/b": absolute, no ".", ".." or empty component, short enough. */
bool cg_rel_valid(const char *rel);

/* The v1 backend (cgroup-v1.c). */
void cg_v1_probe_base(sbx_cgroup_host *h);
/* mkdir rel in the first hierarchy and those that carry one of controllers ("a b"; NULL: every one) */
int cg_v1_create(const sbx_cgroup_host *h, const char *rel, const char *controllers, sbx_cgroup *cg,
                 sbx_error *reterr);
int cg_v1_open(const sbx_cgroup_host *h, const char *rel, sbx_cgroup *cg);
int cg_v1_apply(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr);
int cg_v1_attach(const sbx_cgroup *cg, int pid, sbx_error *reterr);
int cg_v1_remove(sbx_cgroup *cg);
/* every pid of the tree under dir (cgroup.procs of it and its children) */
int cg_collect_pids(const char *dir, int **pids, size_t *n, size_t *cap);

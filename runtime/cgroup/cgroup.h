/* SPDX-License-Identifier: MIT */
/* One cgroup per sandbox: created and configured in the parent before the
 * child runs, killed and removed on teardown. cgroup v2 (issue 5): entered
 * atomically with clone3 CLONE_INTO_CGROUP. cgroup v1 and hybrid hosts
 * (issue 15): one directory per v1 hierarchy (memory, pids, cpu, cpuacct,
 * cpuset, blkio, freezer), the child is moved in by pid before it is
 * released (sbx_cgroup_needs_attach()). The low-level API at the end
 * (sbx_cgroup_create ... sbx_cgroup_remove) is the one the OCI runtime
 * uses for linux.resources / cgroupsPath / pause. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

#define SBX_LIMIT_UNSET (-1)
#define SBX_CGROUP_V1_MAX 8
#define SBX_CGROUP_V1_PATH 512

/* Default process cap of every sandbox where a pids controller is available
 * (v1 or v2), so a fork bomb is contained without any option. podman uses
 * 2048; sbx uses 1024: an agent's tool runs (compilers, npm, test runners)
 * stay far below it, and on a small host 1024 stuck processes are still
 * cheap to kill. Change it with SBX_DEFAULT_PIDS_LIMIT=N (0 = no default
 * cap); --pids-limit / docker.pidsLimit set the cap of one sandbox
 * (0 or -1: none). */
#define SBX_DEFAULT_PIDS_LIMIT 1024
#define SBX_DEFAULT_PIDS_LIMIT_ENV "SBX_DEFAULT_PIDS_LIMIT"

typedef struct sbx_limits {
        int64_t memory;          /* bytes, docker.memory, SBX_LIMIT_UNSET if none */
        int64_t memory_swap;     /* bytes, docker.memorySwap (-1 in docker = unlimited: use SBX_LIMIT_UNLIMITED) */
        int64_t pids;            /* docker.pidsLimit */
        int64_t cpu_millis;      /* docker.cpus * 1000 */
        bool best_effort;        /* --limits best-effort: run without limits that cannot be enforced */
} sbx_limits;

#define SBX_LIMIT_UNLIMITED (-2)

static inline void sbx_limits_init(sbx_limits *l) {
        l->memory = l->memory_swap = l->pids = l->cpu_millis = SBX_LIMIT_UNSET;
        l->best_effort = false;
}
static inline bool sbx_limits_any(const sbx_limits *l) {
        return l->memory != SBX_LIMIT_UNSET || l->memory_swap != SBX_LIMIT_UNSET ||
               l->pids != SBX_LIMIT_UNSET || l->cpu_millis != SBX_LIMIT_UNSET;
}

typedef struct sbx_cgroup {
        int dirfd;               /* O_PATH|O_DIRECTORY fd for clone3's .cgroup, -EBADF if none */
        char path[PATH_MAX];     /* absolute path under /sys/fs/cgroup, "" if none */
        char unenforced[256];    /* best-effort: the limits that are not enforced, "" if all are */
        /* added by issue 5 (after the original fields): */
        char unenforced_reason[SBX_ERROR_MSG_MAX]; /* why, with the fix; "" if all enforced */
        /* added by issue 15: cgroup v1. On v1 dirfd is -EBADF and path is
         * v1[0]; on v2 n_v1 is 0. */
        unsigned n_v1;                                  /* v1 hierarchies the cgroup is in */
        char v1[SBX_CGROUP_V1_MAX][SBX_CGROUP_V1_PATH]; /* e.g. /sys/fs/cgroup/pids/sbx.slice/sbx-x */
        char v1_controllers[SBX_CGROUP_V1_MAX][64];     /* that hierarchy's controllers, "cpu cpuacct" */
        bool pids_default;       /* the pids cap is sbx's default (no --pids-limit) */
} sbx_cgroup;

/* issue 15: the default pids cap, applied by sbx_cgroup_prepare() when
 * limits->pids is unset: $SBX_DEFAULT_PIDS_LIMIT if set (0 = none), else
 * SBX_DEFAULT_PIDS_LIMIT. Unlike an explicit --pids-limit it is skipped,
 * not refused, where no pids controller can be used (unprivileged without
 * delegation, v1 as non-root, no pids controller). */
int64_t sbx_limits_default_pids(void);
/* -EINVAL naming SBX_DEFAULT_PIDS_LIMIT if it is set but not a number >= 0. */
int sbx_limits_check_env(sbx_error *reterr);

/* Docker size units: "512m", "1g", "1024", "1.5g" -> bytes. */
int sbx_parse_size(const char *s, int64_t *ret);
/* Docker --cpus "0.5" -> 500 millis. */
int sbx_parse_cpus(const char *s, int64_t *ret);

/* Parent, before clone3. With no limit set, *ret gets dirfd = -EBADF and
 * nothing is created. A limit that cannot be enforced is an error naming the
 * limit, the controller and the fix, unless limits->best_effort. */
int sbx_cgroup_prepare(const char *name, const sbx_limits *limits, sbx_cgroup *ret,
                       sbx_error *reterr);
/* Parent, teardown: cgroup.kill (v1: freeze, SIGKILL all, thaw), wait for it
 * to empty, rmdir on every hierarchy. Idempotent; path "" means nothing to
 * remove (a persistent sandbox took the cgroup over). */
int sbx_cgroup_cleanup(sbx_cgroup *cg);

/* ---- added by issue 5 (cgroup.c) ----------------------------------------
 *
 * For the launcher:
 *  - clone3 with CLONE_INTO_CGROUP | CLONE_NEWCGROUP, .cgroup = cg.dirfd (when
 *    dirfd >= 0): the kernel roots the new cgroup namespace at the sandbox
 *    cgroup. Never bind the host's /sys/fs/cgroup into the sandbox; mount a
 *    fresh cgroup2 inside if needed (it is rooted at the sandbox cgroup and,
 *    with nsdelegate, its limits are read-only from inside).
 *  - prepare's errors: -EINVAL is bad input (--memory-swap without --memory,
 *    ranges, bad SBX_CGROUP_ROOT): exit 2; anything else (a limit the host
 *    cannot enforce): exit 125. With best_effort, print a warning naming
 *    cg.unenforced and cg.unenforced_reason.
 *  - after the child exits and before sbx_cgroup_cleanup(): call
 *    sbx_cgroup_oom_message() and print it when it returns 1.
 *  - no clone3/CLONE_INTO_CGROUP: clone, then sbx_cgroup_attach_pid() before
 *    releasing the child. */

/* issue 15: remove sandbox cgroups (sbx-*) left below the base by a launcher
 * killed between creating one and recording it (sbx create/start SIGKILLed):
 * only empty ones (the kernel refuses rmdir of a populated cgroup) owned by
 * the caller (never another user's) whose directory is older than
 * min_age_sec (a starting sandbox's is empty for a few milliseconds), on v2
 * or every v1 hierarchy; also those of SIGKILLed runs whose state root is
 * gone (no state dir left for the state-dir collector). Returns how many.
 * For `sbx prune`. */
int sbx_cgroup_gc(unsigned min_age_sec);
/* The cgroup of a run whose launcher died (kill -9: its processes died with
 * it by PDEATHSIG and the pid namespace), named as sbx_cgroup_prepare() named
 * it: removed where empty, on v2 or every v1 hierarchy. For the state-dir
 * collector, which knows the run is dead. Returns how many were removed, or
 * -EBUSY while one still has processes (they are dying: collect it later). */
int sbx_cgroup_remove_stale(const char *name);

/* Join an existing sandbox cgroup (persistent sandboxes: later execs enter
 * it with clone3 CLONE_INTO_CGROUP too). Fills *ret (dirfd, path); the
 * caller must not cleanup it unless it owns the sandbox. -ENOENT if absent. */
int sbx_cgroup_open(const char *name, sbx_cgroup *ret, sbx_error *reterr);
/* Fallback when clone3 cannot take CLONE_INTO_CGROUP: move pid in. */
int sbx_cgroup_attach_pid(const sbx_cgroup *cg, int pid, sbx_error *reterr);
/* "KEY N" line of a flat-keyed file of the sandbox cgroup, e.g.
 * ("memory.events", "oom_kill") or ("pids.events", "max"). -ENOENT if the
 * file or key is missing (controller not enabled). */
int sbx_cgroup_read_key(const sbx_cgroup *cg, const char *file, const char *key, uint64_t *ret);
/* 1 (and *RET_MAX) when the sandbox cgroup holds as many processes as its pids limit
 * (pids.current >= pids.max), else 0 (no limit, no pids controller, unreadable): for the
 * message of an exec whose process could not be forked. */
int sbx_cgroup_pids_at_max(const sbx_cgroup *cg, uint64_t *ret_max);
/* The directory holding the sandbox's pids.max and pids.current (v2 the cgroup's, v1 its
 * pids hierarchy's) as an O_PATH fd, CLOEXEC, or -errno: opened before a setns into the
 * sandbox hides the host's cgroupfs, read with sbx_cgroup_pids_at_max_in() after. */
int sbx_cgroup_pids_dir(const sbx_cgroup *cg);
/* sbx_cgroup_pids_at_max() through such a directory fd. */
int sbx_cgroup_pids_at_max_in(int dirfd, uint64_t *ret_max);
/* OOM kills in the sandbox so far (memory.events oom_kill). Read it after the
 * sandboxed process exited and before sbx_cgroup_cleanup(). */
int sbx_cgroup_oom_kills(const sbx_cgroup *cg, uint64_t *ret);
/* If the sandbox had an OOM kill, write "killed: memory limit
 * (docker.memory=64m) exceeded" into buf and return 1; else 0 (or a
 * negative errno when memory.events cannot be read). For the launcher's
 * message after a SIGKILL exit; call it before sbx_cgroup_cleanup(). */
int sbx_cgroup_oom_message(const sbx_cgroup *cg, const sbx_limits *limits, char *buf,
                           size_t len);
/* Docker-style size for messages: 67108864 -> "64m". */
void sbx_format_size(int64_t bytes, char *buf, size_t len);

/* What the host offers; used by prepare and by `sbx doctor`. */
typedef enum sbx_cgroup_mode {
        SBX_CGROUP_MODE_NONE,    /* no cgroup filesystem mounted */
        SBX_CGROUP_MODE_V1,      /* only v1 hierarchies */
        SBX_CGROUP_MODE_HYBRID,  /* v1 hierarchies plus a cgroup2 mount (usually .../unified) */
        SBX_CGROUP_MODE_V2,      /* pure unified hierarchy */
        _SBX_CGROUP_MODE_MAX,
} sbx_cgroup_mode;

typedef struct sbx_cgroup_host {
        sbx_cgroup_mode mode;
        char mount[PATH_MAX];          /* cgroup2 mount point, "" if none */
        bool nsdelegate;               /* cgroup2 mounted with nsdelegate */
        char root_controllers[256];    /* cgroup.controllers at the cgroup2 mount root */
        char self[PATH_MAX];           /* this process's "0::" cgroup path */
        bool privileged;               /* root: sbx owns <mount>/sbx.slice */
        bool from_env;                 /* base came from SBX_CGROUP_ROOT */
        char base[PATH_MAX];           /* sandbox cgroups are created as <base>/sbx-<name> */
        char anchor[PATH_MAX];         /* highest cgroup sbx writes to (subtree_control) */
        char available[256];           /* controllers sbx may enable: anchor's cgroup.controllers */
        int usable;                    /* 0, or negative errno: base cannot be used at all */
        char problem[SBX_ERROR_MSG_MAX]; /* why not, with the fix */
        /* added by issue 15: the v1 hierarchies sbx uses (memory, pids, cpu,
         * cpuacct, cpuset, blkio, freezer; name=systemd and the others are
         * left alone), and whether limits go there. use_v1 is true when the
         * cgroup2 hierarchy (if any) has none of memory/pids/cpu and v1 has
         * them: the hybrid hosts of Debian <= 10, Ubuntu <= 21.04, RHEL 8,
         * and this repository's CI host. Then base/available describe v1:
         * available is the union of the v1 controllers, v1_base the path
         * below each hierarchy's root (root: "/sbx.slice"; SBX_CGROUP_ROOT
         * may name a directory inside any v1 hierarchy instead). */
        unsigned n_v1;
        char v1_mount[SBX_CGROUP_V1_MAX][256];
        char v1_controllers[SBX_CGROUP_V1_MAX][64];   /* "cpu cpuacct" */
        bool use_v1;
        char v1_base[SBX_CGROUP_V1_PATH];
        bool v1_memsw;                 /* memory.memsw.limit_in_bytes exists (swap accounting) */
} sbx_cgroup_host;

#define SBX_CGROUP_ROOT_ENV "SBX_CGROUP_ROOT"

int sbx_cgroup_probe_host(sbx_cgroup_host *ret);
const char *sbx_cgroup_mode_to_string(sbx_cgroup_mode m);
/* Is controller c (e.g. "memory") in the space-separated list? */
bool sbx_cgroup_list_has(const char *list, const char *c);
/* The fix text for a controller missing from host->available. */
void sbx_cgroup_missing_fix(const sbx_cgroup_host *host, const char *controller, char *buf,
                            unsigned len);

/* "v1 (memory pids cpu ...)" or "v2 (memory pids cpu)": which hierarchy
 * sandbox limits use on this host, for `sbx doctor` and messages. */
const char *sbx_cgroup_host_hierarchy(const sbx_cgroup_host *h);

/* ---- added by issue 15: the low-level API (also the OCI runtime's) ------
 *
 * A cgroup at a path relative to the hierarchy roots ("/sbx.slice/ctr-1",
 * like an OCI cgroupsPath that is absolute; resolve a relative one against
 * your own cgroup first), on every hierarchy the host has: the cgroup2 one
 * (pure v2: with every controller of its root enabled down to it), or on
 * v1/hybrid hosts in each v1 hierarchy sbx uses (sbx_cgroup_host.v1_mount).
 * Typical use:
 *     sbx_cgroup cg;
 *     sbx_cgroup_create("/sbx.slice/ctr-1", &cg, &err);   // mkdir -p
 *     sbx_cgroup_apply(&cg, &res, &err);                  // linux.resources
 *     clone3: if (cg.dirfd >= 0) CLONE_INTO_CGROUP with .cgroup = cg.dirfd;
 *     if (sbx_cgroup_needs_attach(&cg)) sbx_cgroup_attach_pid(&cg, pid, &err)
 *         before the child runs anything of the container's;
 *     sbx_cgroup_freeze(&cg, true/false, &err);           // pause/resume
 *     sbx_cgroup_pids(&cg, &pids, &n);                    // ps, kill --all
 *     sbx_cgroup_kill(&cg, SIGKILL);
 *     sbx_cgroup_remove(&cg);   // = sbx_cgroup_cleanup: kill, wait, rmdir
 * Another process (state, delete, pause) reopens it with
 * sbx_cgroup_open_path(rel or recorded path, ...). All calls need root (v1
 * has no safe delegation); every error names the file or controller. */

/* One rule of the device cgroup (OCI linux.resources.devices, runc's
 * meaning): type 'a' (all), 'b' or 'c'; major/minor -1 = any; access a
 * subset of "rwm". */
typedef struct sbx_cgroup_device_rule {
        bool allow;
        char type;
        int64_t major, minor;
        char access[4];
} sbx_cgroup_device_rule;

/* One per-device block I/O limit (OCI linux.resources.blockIO.throttle*Device):
 * v1 blkio.throttle.<kind>_device "major:minor rate", v2 io.max "major:minor
 * rbps|wbps|riops|wiops=rate". */
typedef enum sbx_cgroup_throttle_kind {
        SBX_THROTTLE_READ_BPS, SBX_THROTTLE_WRITE_BPS, SBX_THROTTLE_READ_IOPS, SBX_THROTTLE_WRITE_IOPS,
} sbx_cgroup_throttle_kind;
typedef struct sbx_cgroup_throttle {
        sbx_cgroup_throttle_kind kind;
        uint32_t major, minor;
        uint64_t rate;
} sbx_cgroup_throttle;

typedef struct sbx_cgroup_resources {
        int64_t memory;          /* bytes; SBX_LIMIT_UNSET: leave; SBX_LIMIT_UNLIMITED: none */
        int64_t memory_swap;     /* memory + swap total, bytes (OCI/docker meaning); same */
        int64_t memory_reservation; /* soft limit, bytes (v1 memory.soft_limit_in_bytes, v2
                                     * memory.low, systemd MemoryLow); SBX_LIMIT_UNSET, _UNLIMITED */
        int64_t memory_swappiness;  /* 0..100, v1 memory.swappiness (v2 has none: an error); SBX_LIMIT_UNSET */
        bool disable_oom_killer;    /* v1 memory.oom_control 1 (v2 has none: an error) */
        int64_t pids;            /* max tasks; SBX_LIMIT_UNSET; SBX_LIMIT_UNLIMITED */
        int64_t cpu_shares;      /* v1 cpu.shares 2..262144 (v2: cpu.weight as runc converts) */
        int64_t cpu_quota;       /* usec per period; SBX_LIMIT_UNSET; SBX_LIMIT_UNLIMITED */
        int64_t cpu_period;      /* usec; SBX_LIMIT_UNSET (kernel default 100000) */
        const char *cpuset_cpus; /* "0-1"; NULL: inherit */
        const char *cpuset_mems; /* "0"; NULL: inherit */
        int64_t blkio_weight;    /* 10..1000 (v1 blkio.weight or blkio.bfq.weight; v2 io.weight
                                  * or io.bfq.weight, converted); SBX_LIMIT_UNSET */
        /* the device cgroup: NULL = left alone; else deny all, then these
         * rules in order, the last match winning (v1 devices.deny "a", then
         * each to devices.allow or devices.deny; v2 a BPF program). Enforced
         * where sbx_cgroup_devices_usable(). */
        const sbx_cgroup_device_rule *devices;
        size_t n_devices;
        /* per-device block I/O limits, in order (the systemd driver refuses them) */
        const sbx_cgroup_throttle *throttles;
        size_t n_throttles;
} sbx_cgroup_resources;

/* Does sbx_cgroup_apply() enforce resources.devices on this host? Root, on
 * a host whose v1 hierarchies (used for limits) include the devices
 * controller, or on cgroup v2 (a BPF_CGROUP_DEVICE program,
 * cgroup-devices.c). */
bool sbx_cgroup_devices_usable(void);
/* Only the device rules, on a v2 cgroup (the systemd driver's scope). */
int sbx_cgroup_apply_devices(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr);

void sbx_cgroup_resources_init(sbx_cgroup_resources *r);
/* mkdir -p rel on every hierarchy (v1: cpuset.cpus/mems copied from the
 * parent so tasks can join). An existing empty cgroup is reused, a
 * populated one is -EBUSY. On error nothing this call created is left. */
int sbx_cgroup_create(const char *rel, sbx_cgroup *ret, sbx_error *reterr);
/* Open an existing cgroup: rel (as for create) or an absolute cgroupfs
 * directory recorded earlier (sbx_cgroup.path). -ENOENT if absent. */
int sbx_cgroup_open_path(const char *path, sbx_cgroup *ret, sbx_error *reterr);
/* Write the limits that are set. -EOPNOTSUPP names a controller or file
 * the host lacks (e.g. memory.memsw.limit_in_bytes without swapaccount=1). */
int sbx_cgroup_apply(const sbx_cgroup *cg, const sbx_cgroup_resources *res, sbx_error *reterr);
/* v1: the child must be moved in by pid (clone3 cannot enter v1 cgroups). */
static inline bool sbx_cgroup_needs_attach(const sbx_cgroup *cg) {
        return cg->n_v1 > 0;
}
/* v1 (issue 16): the launcher opens every hierarchy's "tasks" file for
 * writing (O_CLOEXEC) into FDS[0..n_v1) before clone3, and the child moves
 * itself in with sbx_cgroup_join_self() before anything of the sandbox runs.
 * A thread that writes "0" to "tasks" takes no cgroup threadgroup lock, so it
 * waits out no RCU grace period, which a pid written to cgroup.procs does
 * (8-18 ms here when no other move happened just before). FDS are -EBADF
 * where unused; on failure none stays open. */
int sbx_cgroup_open_tasks(const sbx_cgroup *cg, int fds[static SBX_CGROUP_V1_MAX], sbx_error *reterr);
/* Child, single-threaded (its one thread is the whole process), async-signal-
 * safe: write "0" to each of the N fds and close them; -errno, with *ret_failed
 * the index of the hierarchy that refused. */
int sbx_cgroup_join_self(const int fds[], unsigned n, unsigned *ret_failed);
/* v1: the calling thread joins every hierarchy of CG at once (the two calls above); what it forks
 * after is inside. Of a single-threaded process: the whole process. */
int sbx_cgroup_join_v1(const sbx_cgroup *cg, sbx_error *reterr);
/* Freeze (true) or thaw: v2 cgroup.freeze, v1 freezer.state; waits until
 * the kernel reports FROZEN (up to ~2 s). -EOPNOTSUPP without a freezer. */
int sbx_cgroup_freeze(const sbx_cgroup *cg, bool frozen, sbx_error *reterr);
/* 1 if frozen, 0 if not, negative errno. */
int sbx_cgroup_frozen(const sbx_cgroup *cg);
/* Every pid in the cgroup and its descendants (v1: of the first hierarchy;
 * all hierarchies hold the same tasks). *ret is malloc'd. */
int sbx_cgroup_pids(const sbx_cgroup *cg, int **ret, size_t *ret_n);
/* Signal every process (SIGKILL on v2: cgroup.kill); a frozen v1 cgroup is
 * thawed after signalling so the signal is delivered. Returns how many. */
int sbx_cgroup_kill(const sbx_cgroup *cg, int sig);
/* Kill, wait for it to empty, rmdir on every hierarchy. = sbx_cgroup_cleanup. */
int sbx_cgroup_remove(sbx_cgroup *cg);

/* ---- added by issue 15: the systemd cgroup driver (cgroup-systemd.c) ----
 *
 * runc's --systemd-cgroup: where systemd is init and the hierarchy is the
 * unified one, the container's cgroup is a transient scope unit that
 * systemd makes (StartTransientUnit over sd-bus: Slice, Delegate=yes,
 * DefaultDependencies=no, PIDs, and the resources as unit properties:
 * MemoryMax, MemorySwapMax, TasksMax, CPUWeight, CPUQuotaPerSecUSec,
 * CPUQuotaPeriodUSec, AllowedCPUs, AllowedMemoryNodes, IOWeight), stopped
 * again on delete. libsystemd.so.0 is loaded on first use (dlopen, as
 * libarchive: linking it would cost every sbx start), and only when sbx was
 * built with libsystemd-dev. The caller joins the scope for the clone, so
 * the child enters it atomically (CLONE_INTO_CGROUP) and its cgroup
 * namespace is rooted there, then leaves it (meanwhile the caller counts as
 * one of TasksMax, and what it allocates counts against MemoryMax):
 *     sbx_cgroup_systemd_usable(&err)                  // else refuse
 *     sbx_cgroup_systemd_unit(cgroupsPath, id, slice, unit, &err)
 *     sbx_cgroup_systemd_start(slice, unit, &res, &cg, prev, &err)   // we are in it
 *     clone3 into cg.dirfd; sbx_cgroup_systemd_leave(prev, &err)
 *     ... sbx_cgroup_systemd_stop(unit, &err) on delete */

/* 0, or -EOPNOTSUPP with the reason: built without libsystemd-dev,
 * libsystemd.so.0 missing, systemd not running as init (sd_booted), or not
 * the unified hierarchy. */
int sbx_cgroup_systemd_usable(sbx_error *reterr);
/* runc's "slice:prefix:name" (cgroupsPath) -> slice ("system.slice" when
 * empty) and unit "<prefix>-<name>.scope"; "" means ":sbx-runc:<id>".
 * -EINVAL naming the part at fault. */
int sbx_cgroup_systemd_unit(const char *path, const char *id, char slice[256], char unit[256],
                            sbx_error *reterr);
/* Start the scope with the calling process in it and res as properties;
 * returns once the kernel shows us in it, with *ret opened on its cgroup
 * and prev = the cgroup directory we came from. */
int sbx_cgroup_systemd_start(const char *slice, const char *unit, const sbx_cgroup_resources *res,
                             sbx_cgroup *ret, char prev[PATH_MAX], sbx_error *reterr);
/* Move the calling process back to prev (start's). */
int sbx_cgroup_systemd_leave(const char *prev, sbx_error *reterr);
/* StopUnit (a scope already gone counts as stopped: systemd stops a scope
 * whose processes all exited), then wait up to 5 s for its cgroup
 * directory cg_path ("" = do not wait) to be removed. */
int sbx_cgroup_systemd_stop(const char *unit, const char *cg_path, sbx_error *reterr);
/* "0-2,5" -> bitmask bytes (byte i bit j = cpu 8i+j), systemd's
 * AllowedCPUs encoding. Returns the length, -EINVAL on a bad list. */
int sbx_cgroup_cpulist_mask(const char *list, uint8_t *mask, size_t max);

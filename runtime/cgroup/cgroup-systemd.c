/* SPDX-License-Identifier: MIT */
/* The systemd cgroup driver (issue 15): the container's cgroup is a
 * transient scope that systemd (pid 1) makes over sd-bus; see cgroup.h.
 *
 * libsystemd is loaded on first use (dlopen of libsystemd.so.0; its headers
 * give the types, so every call is still checked by the compiler). As root
 * the driver talks to systemd's private socket /run/systemd/private, as
 * systemctl does, so no dbus-daemon is needed; else the system bus. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build-config.h"
#include "cgroup-internal.h"

int sbx_cgroup_cpulist_mask(const char *list, uint8_t *mask, size_t max) {
        size_t len = 0;
        const char *p = list;

        memset(mask, 0, max);
        while (*p) {
                char *end;
                unsigned long a = strtoul(p, &end, 10), b = a;
                if (end == p)
                        return -EINVAL;
                if (*end == '-') {
                        p = end + 1;
                        b = strtoul(p, &end, 10);
                        if (end == p || b < a)
                                return -EINVAL;
                }
                if (b / 8 >= max)
                        return -EINVAL;
                for (unsigned long c = a; c <= b; c++)
                        mask[c / 8] |= (uint8_t) (1u << (c % 8));
                if (b / 8 + 1 > len)
                        len = b / 8 + 1;
                if (*end == ',')
                        end++;
                else if (*end)
                        return -EINVAL;
                p = end;
        }
        return len ? (int) len : -EINVAL;
}

/* unit name characters (systemd's unit_name_is_valid) */
static bool unit_chars_ok(const char *s) {
        return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.\\@") == strlen(s);
}

int sbx_cgroup_systemd_unit(const char *path, const char *id, char slice[256], char unit[256],
                            sbx_error *reterr) {
        char buf[768], *prefix, *name;
        const char *s;

        if (!path || !*path)
                snprintf(buf, sizeof(buf), ":sbx-runc:%s", id);
        else if (snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf))
                return sbx_error_set(reterr, -EINVAL, "cgroupsPath too long");
        prefix = strchr(buf, ':');
        name = prefix ? strchr(prefix + 1, ':') : NULL;
        if (!name || strchr(name + 1, ':'))
                return sbx_error_set(reterr, -EINVAL, "cgroupsPath '%s': with the systemd cgroup driver it "
                                     "must be 'slice:prefix:name'", path);
        *prefix++ = '\0';
        *name++ = '\0';
        s = *buf ? buf : "system.slice";
        if (!unit_chars_ok(s) || strlen(s) < 7 || strcmp(s + strlen(s) - 6, ".slice"))
                return sbx_error_set(reterr, -EINVAL, "cgroupsPath '%s': slice '%s' is not a slice unit name "
                                     "(NAME.slice)", path, s);
        if (!*name || !unit_chars_ok(name) || (*prefix && !unit_chars_ok(prefix)))
                return sbx_error_set(reterr, -EINVAL, "cgroupsPath '%s': prefix and name must be unit name "
                                     "characters (letters, digits, ':-_.\\@'), name not empty", path);
        if (strlen(name) > 6 && !strcmp(name + strlen(name) - 6, ".slice"))
                return sbx_error_set(reterr, -EOPNOTSUPP, "cgroupsPath '%s': a slice as the container's own "
                                     "unit is not supported (sbx makes a scope)", path);
        if (strlen(s) >= 256 ||
            snprintf(unit, 256, "%s%s%s.scope", prefix, *prefix ? "-" : "", name) >= 256)
                return sbx_error_set(reterr, -EINVAL, "cgroupsPath '%s': unit name too long", path);
        snprintf(slice, 256, "%s", s);
        return 0;
}

#if HAVE_LIBSYSTEMD
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#define SD_FUNCS(X)                                                                                  \
        X(sd_booted) X(sd_bus_new) X(sd_bus_set_address) X(sd_bus_start) X(sd_bus_open_system)       \
        X(sd_bus_flush_close_unref) X(sd_bus_message_new_method_call) X(sd_bus_message_append)       \
        X(sd_bus_message_append_array) X(sd_bus_message_open_container)                             \
        X(sd_bus_message_close_container) X(sd_bus_message_unref) X(sd_bus_call)                    \
        X(sd_bus_error_free) X(sd_bus_error_has_name)

static struct {
        SD_FUNCS(SBX_DL_MEMBER)
} sd;
static void *sd_handle;

static int sd_load(sbx_error *reterr) {
#define SLOT(f) (void **) &sd.f,
        static const char *const names[] = { SD_FUNCS(SBX_DL_NAME) };
        void **const slots[] = { SD_FUNCS(SLOT) };
#undef SLOT

        return sbx_dl_load(&sd_handle, "libsystemd.so.0", "libsystemd0", names, slots, ELEMENTSOF(names), reterr);
}

int sbx_cgroup_systemd_usable(sbx_error *reterr) {
        sbx_cgroup_host h;
        int r = sd_load(reterr);

        if (r < 0)
                return r;
        if (sd.sd_booted() <= 0)
                return sbx_error_set(reterr, -EOPNOTSUPP, "systemd is not running as init "
                                     "(/run/systemd/system is missing)");
        (void) sbx_cgroup_probe_host(&h);
        if (h.mode != SBX_CGROUP_MODE_V2)
                return sbx_error_set(reterr, -EOPNOTSUPP, "the systemd driver of sbx needs the unified cgroup "
                                     "v2 hierarchy (this host: %s)", sbx_cgroup_mode_to_string(h.mode));
        return 0;
}

static int bus_open(sd_bus **ret, sbx_error *reterr) {
        sd_bus *b = NULL;
        int r;

        if (geteuid() == 0 && access("/run/systemd/private", F_OK) == 0) {
                r = sd.sd_bus_new(&b);
                if (r >= 0)
                        r = sd.sd_bus_set_address(b, "unix:path=/run/systemd/private");
                if (r >= 0)
                        r = sd.sd_bus_start(b);
        } else
                r = sd.sd_bus_open_system(&b);
        if (r < 0) {
                if (b)
                        sd.sd_bus_flush_close_unref(b);
                return sbx_error_set(reterr, r, "connect to systemd over D-Bus");
        }
        *ret = b;
        return 0;
}

static int manager_call(sd_bus *bus, const char *method, sd_bus_message **m) {
        return sd.sd_bus_message_new_method_call(bus, m, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                                 "org.freedesktop.systemd1.Manager", method);
}

static int call_error(sd_bus_error *be, int r, sbx_error *reterr, const char *what, const char *unit) {
        sbx_error_set(reterr, r, "systemd %s %s: %s", what, unit, be->message ?: be->name ?: strerror(-r));
        sd.sd_bus_error_free(be);
        return r;
}

static uint64_t sd_limit(int64_t v) {
        return v == SBX_LIMIT_UNLIMITED || v < 0 ? UINT64_MAX : (uint64_t) v;
}

/* res as StartTransientUnit properties (runc's choice of properties). */
static int append_resources(sd_bus_message *m, const sbx_cgroup_resources *res, sbx_error *reterr) {
        struct { const char *name, *list; } sets[] = {
                { "AllowedCPUs", res->cpuset_cpus }, { "AllowedMemoryNodes", res->cpuset_mems },
        };
        int64_t swap;
        int r = 0;

        if (res->n_throttles)
                return sbx_error_set(reterr, -EOPNOTSUPP, "per-device block I/O limits: not passed to the systemd driver");
        if (res->memory_swappiness != SBX_LIMIT_UNSET || res->disable_oom_killer)
                return sbx_error_set(reterr, -EOPNOTSUPP, "%s: the systemd driver (cgroup v2) has no such control",
                                     res->disable_oom_killer ? "disabling the OOM killer" : "memory swappiness");

        if (res->memory != SBX_LIMIT_UNSET)
                r = sd.sd_bus_message_append(m, "(sv)", "MemoryMax", "t", sd_limit(res->memory));
        if (r >= 0 && res->memory_swap != SBX_LIMIT_UNSET) {
                if ((r = cg_v2_swap_max(res, &swap, reterr)) < 0)
                        return r;
                r = sd.sd_bus_message_append(m, "(sv)", "MemorySwapMax", "t", sd_limit(swap));
        }
        if (r >= 0 && res->memory_reservation != SBX_LIMIT_UNSET)
                r = sd.sd_bus_message_append(m, "(sv)", "MemoryLow", "t", sd_limit(res->memory_reservation));
        if (r >= 0 && res->pids != SBX_LIMIT_UNSET)
                r = sd.sd_bus_message_append(m, "(sv)", "TasksMax", "t", sd_limit(res->pids));
        if (r >= 0 && res->cpu_shares != SBX_LIMIT_UNSET)
                r = sd.sd_bus_message_append(m, "(sv)", "CPUWeight", "t", (uint64_t) cg_shares_to_weight(res->cpu_shares));
        if (r >= 0 && res->cpu_quota != SBX_LIMIT_UNSET) {
                int64_t period = res->cpu_period > 0 ? res->cpu_period : 100000;
                uint64_t per_sec = res->cpu_quota == SBX_LIMIT_UNLIMITED ? UINT64_MAX
                                                   : (uint64_t) res->cpu_quota * 1000000 / (uint64_t) period;
                r = sd.sd_bus_message_append(m, "(sv)", "CPUQuotaPerSecUSec", "t", per_sec);
        }
        if (r >= 0 && res->cpu_period > 0)
                r = sd.sd_bus_message_append(m, "(sv)", "CPUQuotaPeriodUSec", "t", (uint64_t) res->cpu_period);
        if (r >= 0 && res->blkio_weight != SBX_LIMIT_UNSET)
                r = sd.sd_bus_message_append(m, "(sv)", "IOWeight", "t", (uint64_t) cg_blkio_to_io_weight(res->blkio_weight));
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(sets); i++) {
                uint8_t mask[128];
                int n;
                if (!sets[i].list)
                        continue;
                n = sbx_cgroup_cpulist_mask(sets[i].list, mask, sizeof(mask));
                if (n < 0)
                        return sbx_error_set(reterr, -EINVAL, "%s '%s': not a list like 0-3,5", sets[i].name,
                                             sets[i].list);
                r = sd.sd_bus_message_open_container(m, 'r', "sv");
                if (r >= 0)
                        r = sd.sd_bus_message_append(m, "s", sets[i].name);
                if (r >= 0)
                        r = sd.sd_bus_message_open_container(m, 'v', "ay");
                if (r >= 0)
                        r = sd.sd_bus_message_append_array(m, 'y', mask, (size_t) n);
                if (r >= 0)
                        r = sd.sd_bus_message_close_container(m);
                if (r >= 0)
                        r = sd.sd_bus_message_close_container(m);
        }
        return r < 0 ? sbx_error_set(reterr, r, "build the StartTransientUnit message") : 0;
}

/* our own cgroup: "0::/path" -> path */
static int self_cgroup(char *buf, size_t len) {
        char line[PATH_MAX + 8];
        int r = cg_read_small(AT_FDCWD, "/proc/self/cgroup", line, sizeof(line));

        if (r < 0)
                return r;
        if (strncmp(line, "0::/", 4) || strchr(line, '\n'))
                return -EOPNOTSUPP;
        snprintf(buf, len, "%s", line + 3);
        return 0;
}

int sbx_cgroup_systemd_start(const char *slice, const char *unit, const sbx_cgroup_resources *res,
                             sbx_cgroup *ret, char prev[PATH_MAX], sbx_error *reterr) {
        sbx_cgroup_host h;
        sd_bus *bus = NULL;
        sd_bus_message *m = NULL, *reply = NULL;
        sd_bus_error be = SD_BUS_ERROR_NULL;
        char self[PATH_MAX], now[PATH_MAX];
        size_t ul = strlen(unit);
        int r;

        *ret = (sbx_cgroup) { .dirfd = -EBADF };
        (void) sbx_cgroup_probe_host(&h);
        if ((r = sd_load(reterr)) < 0)
                return r;
        if (self_cgroup(self, sizeof(self)) < 0 || !h.mount[0])
                return sbx_error_set(reterr, -EOPNOTSUPP, "systemd driver: no cgroup v2 path in /proc/self/cgroup");
        snprintf(prev, PATH_MAX, "%s%s", h.mount, self);
        if ((r = bus_open(&bus, reterr)) < 0)
                return r;
        r = manager_call(bus, "StartTransientUnit", &m);
        if (r >= 0)
                r = sd.sd_bus_message_append(m, "ss", unit, "fail");
        if (r >= 0)
                r = sd.sd_bus_message_open_container(m, 'a', "(sv)");
        if (r >= 0)
                r = sd.sd_bus_message_append(m, "(sv)(sv)(sv)(sv)(sv)", "Description", "s", "sbx-runc container",
                                             "Slice", "s", slice, "Delegate", "b", 1, "DefaultDependencies", "b", 0,
                                             "PIDs", "au", 1, (uint32_t) getpid());
        if (r < 0) {
                sbx_error_set(reterr, r, "build the StartTransientUnit message");
                goto out;
        }
        if ((r = append_resources(m, res, reterr)) < 0)
                goto out;
        r = sd.sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd.sd_bus_message_append(m, "a(sa(sv))", 0);
        if (r < 0) {
                sbx_error_set(reterr, r, "build the StartTransientUnit message");
                goto out;
        }
        r = sd.sd_bus_call(bus, m, 0, &be, &reply);
        if (r < 0) {
                call_error(&be, r, reterr, "StartTransientUnit", unit);
                goto out;
        }
        /* the job moves us; up to 5 s */
        r = -ETIMEDOUT;
        for (int i = 0; i < 500; i++) {
                size_t l;
                if (self_cgroup(now, sizeof(now)) == 0 && (l = strlen(now)) > ul && now[l - ul - 1] == '/' &&
                    !strcmp(now + l - ul, unit)) {
                        r = 0;
                        break;
                }
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        }
        if (r < 0) {
                sbx_error_set(reterr, r, "systemd started %s but did not move us into it within 5 s", unit);
                goto out;
        }
        r = sbx_cgroup_open_path(now, ret, reterr);
out:
        if (reply)
                sd.sd_bus_message_unref(reply);
        if (m)
                sd.sd_bus_message_unref(m);
        sd.sd_bus_flush_close_unref(bus);
        return r;
}

int sbx_cgroup_systemd_stop(const char *unit, const char *cg_path, sbx_error *reterr) {
        sd_bus *bus = NULL;
        sd_bus_message *m = NULL, *reply = NULL;
        sd_bus_error be = SD_BUS_ERROR_NULL;
        int r;

        if ((r = sd_load(reterr)) < 0 || (r = bus_open(&bus, reterr)) < 0)
                return r;
        r = manager_call(bus, "StopUnit", &m);
        if (r >= 0)
                r = sd.sd_bus_message_append(m, "ss", unit, "replace");
        if (r >= 0)
                r = sd.sd_bus_call(bus, m, 0, &be, &reply);
        if (r < 0 && sd.sd_bus_error_has_name(&be, "org.freedesktop.systemd1.NoSuchUnit")) {
                sd.sd_bus_error_free(&be);
                r = 0;
        } else if (r < 0)
                call_error(&be, r, reterr, "StopUnit", unit);
        if (reply)
                sd.sd_bus_message_unref(reply);
        if (m)
                sd.sd_bus_message_unref(m);
        sd.sd_bus_flush_close_unref(bus);
        for (int i = 0; r == 0 && cg_path && *cg_path && i < 500 && access(cg_path, F_OK) == 0; i++)
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        if (r == 0 && cg_path && *cg_path && access(cg_path, F_OK) == 0)
                return sbx_error_set(reterr, -EBUSY, "systemd stopped %s but %s is still there after 5 s", unit,
                                     cg_path);
        return r;
}
#else
int sbx_cgroup_systemd_usable(sbx_error *reterr) {
        return sbx_error_set(reterr, -EOPNOTSUPP, "sbx was built without libsystemd-dev (sd-bus)");
}
int sbx_cgroup_systemd_start(const char *slice, const char *unit, const sbx_cgroup_resources *res,
                             sbx_cgroup *ret, char prev[PATH_MAX], sbx_error *reterr) {
        (void) slice, (void) unit, (void) res, (void) prev;
        *ret = (sbx_cgroup) { .dirfd = -EBADF };
        return sbx_cgroup_systemd_usable(reterr);
}
int sbx_cgroup_systemd_stop(const char *unit, const char *cg_path, sbx_error *reterr) {
        (void) unit, (void) cg_path;
        return sbx_cgroup_systemd_usable(reterr);
}
#endif

int sbx_cgroup_systemd_leave(const char *prev, sbx_error *reterr) {
        char path[PATH_MAX + 16], pid[16];
        int r;

        snprintf(path, sizeof(path), "%s/cgroup.procs", prev);
        snprintf(pid, sizeof(pid), "%d", (int) getpid());
        r = cg_write_small(AT_FDCWD, path, pid);
        return r < 0 ? sbx_error_set(reterr, r, "move back to %s", prev) : 0;
}

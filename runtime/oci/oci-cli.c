/* SPDX-License-Identifier: MIT */
/* `sbx oci COMMAND` and sbx invoked as `sbx-runc`: the runc command line
 * (what podman's conmon, containerd's runc shim and Kubernetes drive).
 *
 * Global flags: --root DIR (state, default /run/sbx-runc; $XDG_RUNTIME_DIR/
 * sbx-runc without root, or as uid 0 of a user namespace: see default_root),
 * --log FILE, --log-format text|json, --debug,
 * --systemd-cgroup (the container's cgroup is a systemd scope: where systemd
 * is init on cgroup v2 and sbx was built with libsystemd-dev; else refused
 * with the reason), --rootless true|false|auto.
 * Errors go to stderr and, with --log, to the log file (runc's JSON lines:
 * {"level":"error","msg":...,"time":...}); exit status 1. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build-config.h"
#include "oci-internal.h"
#include "oci.h"

#if HAVE_LIBSYSTEMD
#define SYSTEMD_FEATURE "true"
#else
#define SYSTEMD_FEATURE "false"
#endif

static struct {
        const char *root;
        const char *log;
        bool log_json;
        bool debug;
        bool systemd;            /* --systemd-cgroup, usable here */
        FILE *logf;
        /* --annotation-config-dir DIR... (':'-joined), else $SBX_RUNC_ANNOTATION_CONFIG_DIRS */
        char config_dirs[4096];
        const char *audit_log;   /* --audit-log FILE, else $SBX_RUNC_AUDIT_LOG; NULL: <root>/<id>/audit.jsonl */
} g;

static void log_line(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(const char *level, const char *fmt, ...) {
        char msg[2048], ts[64];
        struct timespec now;
        struct tm tm;
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (!strcmp(level, "error"))
                fprintf(stderr, "sbx-runc: %s\n", msg);
        else if (g.debug)
                fprintf(stderr, "sbx-runc: %s: %s\n", level, msg);
        if (!g.logf || (!g.debug && strcmp(level, "error") && strcmp(level, "warning")))
                return;
        clock_gettime(CLOCK_REALTIME, &now);
        gmtime_r(&now.tv_sec, &tm);
        strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
        if (g.log_json) {
                json_object *j = json_object_new_object();
                json_object_object_add(j, "level", json_object_new_string(level));
                json_object_object_add(j, "msg", json_object_new_string(msg));
                json_object_object_add(j, "time", json_object_new_string(ts));
                fprintf(g.logf, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
                json_object_put(j);
        } else
                fprintf(g.logf, "time=\"%s\" level=%s msg=\"%s\"\n", ts, level, msg);
        fflush(g.logf);
}

static int fail_err(const sbx_error *e) {
        char buf[SBX_ERROR_MSG_MAX + 64];
        log_line("error", "%s", sbx_error_text(e, buf, sizeof(buf)));
        return 1;
}

#define FAIL(...) (log_line("error", __VA_ARGS__), 1)

static void now_rfc3339(char *buf, size_t len) {
        struct timespec now;
        struct tm tm;
        char base[32];

        clock_gettime(CLOCK_REALTIME, &now);
        gmtime_r(&now.tv_sec, &tm);
        strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(buf, len, "%s.%09ldZ", base, now.tv_nsec);
}

int oci_send_console(const char *sock_path, int master, sbx_error *e) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        static const char name[] = "/dev/ptmx";
        _cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (strlen(sock_path) >= sizeof(sa.sun_path))
                return sbx_error_set(e, -ENAMETOOLONG, "--console-socket '%s': path too long", sock_path);
        strcpy(sa.sun_path, sock_path);
        if (fd < 0 || connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0)
                return sbx_error_set(e, -errno, "--console-socket '%s': connect", sock_path);
        ssize_t n = sbx_send_fds(fd, name, sizeof(name) - 1, &master, 1);
        if (n < 0)
                return sbx_error_set(e, (int) n, "--console-socket '%s': send the pty", sock_path);
        return 0;
}

static void set_winsize(int master, json_object *root) {
        json_object *p, *cs, *h, *w;
        struct winsize ws = {};

        if (json_object_object_get_ex(root, "process", &p) && json_object_object_get_ex(p, "consoleSize", &cs) &&
            json_object_object_get_ex(cs, "height", &h) && json_object_object_get_ex(cs, "width", &w)) {
                ws.ws_row = (unsigned short) json_object_get_int(h);
                ws.ws_col = (unsigned short) json_object_get_int(w);
                (void) ioctl(master, TIOCSWINSZ, &ws);
        }
}

/* ------------------------------------------------------------- create */

typedef struct create_opts {
        const char *bundle, *pid_file, *console_socket;
        bool no_new_keyring, no_pivot;
        int preserve_fds;
} create_opts;

typedef struct hook_ctx {
        oci_config *cfg;
        oci_state *st;
} hook_ctx;

static char *state_text(const oci_state *s, oci_status st) {
        json_object *j = oci_state_json(s, st);
        char *t = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
        json_object_put(j);
        return t;
}

/* The child reached the createRuntime point: prestart (deprecated, same
 * time), createRuntime in our namespaces, createContainer in its. */
static int on_create_runtime(void *userdata, pid_t pid, sbx_error *e) {
        hook_ctx *h = userdata;
        _cleanup_free_ char *text = NULL;
        int r;

        h->st->pid = pid;
        h->st->start_time = oci_proc_start_time(pid);
        text = state_text(h->st, OCI_CREATING);
        if (!text)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        r = oci_hooks_run(h->cfg, OCI_HOOK_PRESTART, text, 0, e);
        if (r >= 0)
                r = oci_hooks_run(h->cfg, OCI_HOOK_CREATE_RUNTIME, text, 0, e);
        if (r >= 0)
                r = oci_hooks_run(h->cfg, OCI_HOOK_CREATE_CONTAINER, text, pid, e);
        return r;
}

static int copy_file(const char *from, const char *to, sbx_error *e) {
        char buf[65536];
        _cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC), out = -EBADF;
        ssize_t n;

        if (in < 0)
                return sbx_error_set(e, -errno, "open %s", from);
        out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (out < 0)
                return sbx_error_set(e, -errno, "create %s", to);
        while ((n = read(in, buf, sizeof(buf))) > 0)
                if (write(out, buf, (size_t) n) != n)
                        return sbx_error_set(e, -EIO, "write %s", to);
        return n < 0 ? sbx_error_set(e, -errno, "read %s", from) : 0;
}

/* --root as runc makes it: every missing parent too */
static int mkdir_p(const char *path, mode_t mode) {
        char buf[PATH_MAX];

        if (snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf))
                return -(errno = ENAMETOOLONG);
        for (char *p = buf + 1; *p; p++)
                if (*p == '/') {
                        *p = '\0';
                        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                                return -errno;
                        *p = '/';
                }
        return mkdir(buf, mode) < 0 && errno != EEXIST ? -errno : 0;
}

static void remove_state_dir(const char *dir) {
        static const char *const files[] = { "state.json", ".state.json.tmp", "config.json", "exec.fifo", "policy.json",
                                             "audit.jsonl" };
        char path[PATH_MAX + 32];

        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
                (void) unlink(path);
        }
        (void) rmdir(dir);
}

/* --systemd-cgroup: a scope systemd makes (cgroupsPath "slice:prefix:name",
 * default ":sbx-runc:<id>") with linux.resources as its properties; this
 * process is in it until leave_systemd_cgroup(), after the clone. */
static char systemd_prev[PATH_MAX];
static int prepare_systemd_cgroup(oci_config *cfg, const char *id, sbx_cgroup *cg, sbx_error *e) {
        char slice[256], unit[256];
        int r = sbx_cgroup_systemd_unit(cfg->cgroups_path, id, slice, unit, e);

        if (r < 0)
                return sbx_error_wrap(e, "config.json: linux.cgroupsPath"), r;
        r = sbx_cgroup_systemd_start(slice, unit, &cfg->res, cg, systemd_prev, e);
        if (r < 0)
                return r;
        snprintf(cfg->systemd_unit, sizeof(cfg->systemd_unit), "%s", unit);
        r = sbx_cgroup_apply_devices(cg, &cfg->res, e);
        if (r < 0)
                return sbx_error_wrap(e, "config.json: linux.resources.devices"), r;
        cfg->ctr.cgroup_fd = cg->dirfd;
        return 0;
}

static int leave_systemd_cgroup(const oci_config *cfg, sbx_error *e) {
        return cfg->systemd_unit[0] && systemd_prev[0] ? sbx_cgroup_systemd_leave(systemd_prev, e) : 0;
}

/* The container's cgroup, removed: a systemd scope is stopped (systemd
 * removes the cgroup), any other killed and removed here. */
static void remove_cgroup(sbx_cgroup *cg, const char *systemd_unit) {
        sbx_error e = {};

        if (!systemd_unit[0]) {
                (void) sbx_cgroup_remove(cg);
                return;
        }
        if (cg->path[0])
                (void) sbx_cgroup_kill(cg, SIGKILL);
        if (sbx_cgroup_systemd_stop(systemd_unit, cg->path, &e) < 0)
                log_line("warning", "%s", e.msg);
}

/* The container's cgroup (runtime/cgroup: v2, or every v1 hierarchy):
 * linux.cgroupsPath (a relative one under the hierarchy roots too), else
 * /sbx-runc/<id>; linux.resources applied. Without limits a host where it
 * cannot be made (not root) runs the container without one, with a
 * warning; with limits that is an error. */
static int prepare_cgroup(oci_config *cfg, const char *id, sbx_cgroup *cg, sbx_error *e) {
        char rel[PATH_MAX];
        int r;

        *cg = (sbx_cgroup) { .dirfd = -EBADF };
        if (g.systemd)
                return prepare_systemd_cgroup(cfg, id, cg, e);
        if (cfg->cgroups_path[0]) {
                /* never a silently shortened path: that would name another cgroup */
                int n = snprintf(rel, sizeof(rel), "%s%s", cfg->cgroups_path[0] == '/' ? "" : "/",
                                 cfg->cgroups_path);
                if (n < 0 || (size_t) n >= sizeof(rel))
                        return sbx_error_set(e, -ENAMETOOLONG, "config.json: linux.cgroupsPath is too long "
                                             "(%zu bytes)", strlen(cfg->cgroups_path));
        } else
                snprintf(rel, sizeof(rel), "/sbx-runc/%s", id);
        if (strchr(rel, ':') || strstr(rel, "/../") || strstr(rel, "/.."))
                return sbx_error_set(e, -EINVAL, "config.json: linux.cgroupsPath '%s': a cgroupfs path "
                                     "('slice:prefix:name' needs --systemd-cgroup)", cfg->cgroups_path);
        if (!sbx_cgroup_devices_usable())
                log_line("debug", "linux.resources.devices: not applied (no device cgroup: not root, or "
                         "no devices hierarchy): mknod of block and character devices is refused by "
                         "seccomp instead");
        r = sbx_cgroup_create(rel, cg, e);
        if (r < 0) {
                /* the device rules replace the seccomp mknod refusal here */
                if (!cfg->res_set && !sbx_cgroup_devices_usable()) {
                        log_line("warning", "no cgroup for the container (%s): pause, ps and kill --all "
                                 "use its pid namespace", e->msg);
                        *cg = (sbx_cgroup) { .dirfd = -EBADF };
                        *e = (sbx_error) {};
                        return 0;
                }
                return sbx_error_wrap(e, "config.json: linux.cgroupsPath '%s'", rel), r;
        }
        r = sbx_cgroup_apply(cg, &cfg->res, e);
        if (r < 0) {
                (void) sbx_cgroup_remove(cg);
                return sbx_error_wrap(e, "config.json: linux.resources"), r;
        }
        cfg->ctr.cgroup_fd = cg->dirfd;
        return 0;
}

/* A recorded cgroup, reopened (state, pause, delete). */
static int open_cgroup(const oci_state *st, sbx_cgroup *cg, sbx_error *e) {
        *cg = (sbx_cgroup) { .dirfd = -EBADF };
        if (!st->cgroup[0])
                return -ENOENT;
        return sbx_cgroup_open_path(st->cgroup, cg, e);
}

/* create, and run (with ret_pidfd: the caller waits). The state dir exists
 * only if this returns 0. */
static int do_create(const char *id, const create_opts *o, pid_t *ret_pid, int *ret_pidfd, int *ret_pty,
                     bool keep_pty) {
        oci_config cfg;
        oci_state st = {};
        sbx_cgroup cg = { .dirfd = -EBADF };
        sbx_error e = {};
        hook_ctx hctx = { &cfg, &st };
        sbx_audit audit = { .fd = -EBADF };
        char path[PATH_MAX + 32];
        int pidfd = -EBADF, pty = -EBADF, r;
        pid_t pid = 0;

        r = oci_check_id(id, &e);
        if (r < 0)
                return fail_err(&e);
        r = oci_config_load(o->bundle ?: ".", &cfg, &e);
        if (r >= 0)
                r = oci_policy_prepare(&cfg, g.config_dirs, &e);
        if (r >= 0)
                r = oci_seccomp_prepare(&cfg, &e);
        if (r < 0) {
                oci_config_free(&cfg);
                return fail_err(&e);
        }
        if (cfg.warnings[0])
                log_line("warning", "config.json: %s", cfg.warnings);
        if (cfg.ctr.terminal && !o->console_socket && !keep_pty) {
                oci_config_free(&cfg);
                return FAIL("process.terminal is true: --console-socket is required");
        }
        if (!cfg.ctr.terminal && o->console_socket) {
                oci_config_free(&cfg);
                return FAIL("--console-socket given but process.terminal is false");
        }
        cfg.ctr.proc.new_keyring = !o->no_new_keyring;
        cfg.ctr.no_pivot = o->no_pivot;
        cfg.ctr.proc.preserve_fds = o->preserve_fds;
        snprintf(st.id, sizeof(st.id), "%s", id);
        snprintf(st.dir, sizeof(st.dir), "%s/%s", g.root, id);
        snprintf(st.bundle, sizeof(st.bundle), "%s", cfg.bundle);
        snprintf(st.rootfs, sizeof(st.rootfs), "%s", cfg.ctr.rootfs ?: "");
        now_rfc3339(st.created, sizeof(st.created));
        {
                json_object *a;
                if (json_object_object_get_ex(cfg.root, "annotations", &a))
                        st.annotations = json_object_get(a);
        }
        if (mkdir_p(g.root, 0711) < 0) {
                r = FAIL("--root '%s': %s", g.root, strerror(errno));
                goto out_cfg;
        }
        if (oci_check_root(g.root, &e) < 0) {
                r = fail_err(&e);
                goto out_cfg;
        }
        if (mkdir(st.dir, 0700) < 0) {
                r = errno == EEXIST ? FAIL("container with id '%s' already exists", id)
                                    : FAIL("create state dir '%s': %s", st.dir, strerror(errno));
                goto out_cfg;
        }
        snprintf(path, sizeof(path), "%s/config.json", cfg.bundle);
        {
                char to[PATH_MAX + 32];
                snprintf(to, sizeof(to), "%s/config.json", st.dir);
                if (copy_file(path, to, &e) < 0)
                        goto fail;
        }
        /* the agent's rules as derived now: what start and exec apply; the decisions' log */
        if (oci_policy_record(&cfg, st.dir, &e) < 0 || oci_policy_audit_open(&cfg, &st, g.audit_log, &audit, &e) < 0)
                goto fail;
        cfg.ctr.audit = audit.fd >= 0 ? &audit : NULL;
        snprintf(path, sizeof(path), "%s/exec.fifo", st.dir);
        if (mkfifo(path, 0600) < 0) {
                sbx_error_set(&e, -errno, "mkfifo %s", path);
                goto fail;
        }
        cfg.ctr.wait_fd = open(path, O_RDWR | O_CLOEXEC);
        if (cfg.ctr.wait_fd < 0) {
                sbx_error_set(&e, -errno, "open %s", path);
                goto fail;
        }
        if (prepare_cgroup(&cfg, id, &cg, &e) < 0 || oci_config_cgroup_mounts(&cfg, &cg, &e) < 0) {
                (void) leave_systemd_cgroup(&cfg, NULL);
                goto fail;
        }
        snprintf(st.cgroup, sizeof(st.cgroup), "%s", cg.path);
        snprintf(st.systemd_unit, sizeof(st.systemd_unit), "%s", cfg.systemd_unit);
        if (cfg.n_hooks[OCI_HOOK_PRESTART] || cfg.n_hooks[OCI_HOOK_CREATE_RUNTIME] ||
            cfg.n_hooks[OCI_HOOK_CREATE_CONTAINER]) {
                cfg.ctr.on_create_runtime = on_create_runtime;
                cfg.ctr.userdata = &hctx;
        }
        r = sbx_container_create(&cfg.ctr, &pid, &pidfd, &pty, &e);
        if (r >= 0)
                r = leave_systemd_cgroup(&cfg, &e);
        else
                (void) leave_systemd_cgroup(&cfg, NULL);
        if (r < 0)
                goto fail;
        /* v1: moved in by pid, while it waits before exec */
        if (sbx_cgroup_needs_attach(&cg) && sbx_cgroup_attach_pid(&cg, pid, &e) < 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                goto fail;
        }
        st.pid = pid;
        st.start_time = oci_proc_start_time(pid);
        if (oci_state_save(&st, &e) < 0 || oci_write_pid_file(o->pid_file, pid, &e) < 0) {
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                goto fail;
        }
        if (pty >= 0) {
                set_winsize(pty, cfg.root);
                if (o->console_socket && oci_send_console(o->console_socket, pty, &e) < 0) {
                        (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                        goto fail;
                }
        }
        log_line("debug", "created container '%s', pid %d", id, (int) pid);
        *ret_pid = pid;
        if (ret_pidfd)
                *ret_pidfd = TAKE_FD(pidfd);
        if (ret_pty && keep_pty)
                *ret_pty = TAKE_FD(pty);
        r = 0;
        goto out;
fail:
        /* nothing left behind: the process (killed above or by the
         * launcher), its cgroup, the state dir */
        if (pidfd >= 0) {
                siginfo_t info;
                (void) sys_pidfd_send_signal(pidfd, SIGKILL);
                (void) waitid(P_PIDFD, pidfd, &info, WEXITED);
        }
        if (cg.path[0] || cg.n_v1 || cfg.systemd_unit[0])
                remove_cgroup(&cg, cfg.systemd_unit);
        remove_state_dir(st.dir);
        r = fail_err(&e);
out:
        sbx_audit_close(&audit);
        closep(&pidfd);
        closep(&pty);
        closep(&cg.dirfd);
        cfg.ctr.cgroup_fd = -EBADF;
out_cfg:
        oci_state_done(&st);
        oci_config_free(&cfg);
        return r;
}

/* -------------------------------------------------------------- start */

static int load_config_copy(const oci_state *st, oci_config *cfg, sbx_error *e) {
        /* the copy made at create: bundle-independent hooks */
        char path[PATH_MAX + 32];

        snprintf(path, sizeof(path), "%s/config.json", st->dir);
        return oci_config_load_at(st->bundle, path, cfg, e);
}

/* The copy, the agent's rules recorded at create and their audit log
 * (audit->fd -EBADF without rules). */
static int load_with_rules(const oci_state *st, oci_config *cfg, sbx_audit *audit, sbx_error *e) {
        int r = load_config_copy(st, cfg, e);

        if (r >= 0)
                r = oci_policy_load(cfg, st->dir, e);
        if (r >= 0)
                r = oci_policy_audit_open(cfg, st, g.audit_log, audit, e);
        return r;
}

/* run: the process's exit, in the audit log of a container with rules */
static void audit_exit(const char *id, int status) {
        _cleanup_(sbx_audit_close) sbx_audit audit = { .fd = -EBADF };
        oci_state st;
        oci_config cfg;
        sbx_error e = {};

        memset(&cfg, 0, sizeof(cfg));
        if (oci_state_load(g.root, id, &st, &e) < 0)
                return;
        if (load_with_rules(&st, &cfg, &audit, &e) >= 0 && audit.fd >= 0)
                (void) sbx_audit_exit(&audit, status, false, NULL);
        oci_config_free(&cfg);
        oci_state_done(&st);
}

static int do_start(const char *id) {
        oci_state st;
        oci_config cfg;
        sbx_error e = {};
        char path[PATH_MAX + 32];
        _cleanup_free_ char *text = NULL;
        _cleanup_(sbx_audit_close) sbx_audit audit = { .fd = -EBADF };
        int fd, r;

        if (oci_state_load(g.root, id, &st, &e) < 0)
                return fail_err(&e);
        if (oci_state_status(&st) != OCI_CREATED) {
                r = FAIL("cannot start a container that is %s (only 'created' can start)",
                         oci_status_to_string(oci_state_status(&st)));
                oci_state_done(&st);
                return r;
        }
        /* the bundle's config as it was at create: its hooks; the root path
         * in the copy is relative to the bundle, so parse in the bundle */
        memset(&cfg, 0, sizeof(cfg));
        r = load_with_rules(&st, &cfg, &audit, &e);
        text = state_text(&st, OCI_CREATED);
        /* startContainer runs as the container's process: its seccomp filter */
        if (r >= 0 && cfg.n_hooks[OCI_HOOK_START_CONTAINER])
                r = oci_seccomp_prepare(&cfg, &e);
        if (r >= 0)
                r = oci_hooks_run(&cfg, OCI_HOOK_START_CONTAINER, text, st.pid, &e);
        if (r < 0) {
                oci_config_free(&cfg);
                oci_state_done(&st);
                return fail_err(&e);
        }
        snprintf(path, sizeof(path), "%s/exec.fifo", st.dir);
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 || write(fd, "0", 1) != 1) {
                r = FAIL("start '%s': release the container (%s)", id, strerror(errno));
                if (fd >= 0)
                        close(fd);
                oci_config_free(&cfg);
                oci_state_done(&st);
                return r;
        }
        close(fd);
        (void) unlink(path);
        if (audit.fd >= 0)
                (void) sbx_audit_start(&audit, st.pid, cfg.ctr.proc.argv);
        free(text);
        text = state_text(&st, OCI_RUNNING);
        if (oci_hooks_run(&cfg, OCI_HOOK_POSTSTART, text, 0, &e) < 0)
                log_line("warning", "%s", e.msg);
        oci_config_free(&cfg);
        oci_state_done(&st);
        return 0;
}

/* ------------------------------------------------------- state / kill */

static int do_state(const char *id) {
        oci_state st;
        sbx_error e = {};
        json_object *j;

        if (oci_state_load(g.root, id, &st, &e) < 0)
                return fail_err(&e);
        j = oci_state_json(&st, oci_state_status(&st));
        (void) sbx_json_puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(j);
        oci_state_done(&st);
        return 0;
}

static int parse_signal(const char *s) {
        static const struct { const char *name; int sig; } sigs[] = {
                { "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL }, { "TRAP", SIGTRAP },
                { "ABRT", SIGABRT }, { "IOT", SIGIOT }, { "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
                { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 }, { "PIPE", SIGPIPE },
                { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "STKFLT", SIGSTKFLT }, { "CHLD", SIGCHLD },
                { "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN },
                { "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
                { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "IO", SIGIO },
                { "PWR", SIGPWR }, { "SYS", SIGSYS },
        };
        char *end;
        long n;

        if (!strncasecmp(s, "SIG", 3))
                s += 3;
        for (size_t i = 0; i < ELEMENTSOF(sigs); i++)
                if (!strcasecmp(sigs[i].name, s))
                        return sigs[i].sig;
        /* RTMIN, RTMIN+N, RTMAX, RTMAX-N (runc's names of the real-time signals) */
        if (!strncasecmp(s, "RTMIN", 5) || !strncasecmp(s, "RTMAX", 5)) {
                bool min = !strncasecmp(s, "RTMIN", 5);
                n = 0;
                if (s[5] && (s[5] != (min ? '+' : '-') || (n = strtol(s + 6, &end, 10)) <= 0 || *end || !s[6]))
                        return -1;
                n = min ? SIGRTMIN + n : SIGRTMAX - n;
                return n >= SIGRTMIN && n <= SIGRTMAX ? (int) n : -1;
        }
        /* a number, 0 included: runc sends signal 0 (is the process there?) */
        n = strtol(s, &end, 10);
        return *s && !*end && n >= 0 && n < NSIG ? (int) n : -1;
}

/* A signal whose default action ends a process (signal(7): Term, Core). */
static bool sig_terminates(int sig) {
        switch (sig) {
        case 0: case SIGCHLD: case SIGCONT: case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
        case SIGURG: case SIGWINCH:
                return false;
        default:
                return true;
        }
}

static int do_kill(const char *id, const char *sigtext, bool all) {
        oci_state st;
        sbx_error e = {};
        oci_status s;
        int sig = parse_signal(sigtext ?: "TERM"), r = 0;

        if (sig < 0)
                return FAIL("kill: unknown signal '%s'", sigtext);
        if (oci_state_load(g.root, id, &st, &e) < 0)
                return fail_err(&e);
        s = oci_state_status(&st);
        /* kill --all of a stopped container, as runc: what is left in its
         * cgroup (without a pid namespace of its own, processes outlive its
         * pid 1); nothing else, its pid may be another process's now */
        if (s == OCI_STOPPED && all) {
                sbx_cgroup cg = { .dirfd = -EBADF };
                int *list = NULL;
                size_t n = 0;
                if (st.cgroup[0] && sbx_cgroup_open_path(st.cgroup, &cg, &e) == 0 &&
                    sbx_cgroup_pids(&cg, &list, &n) == 0)
                        for (size_t i = 0; i < n; i++)
                                (void) kill(list[i], sig);
                free(list);
                closep(&cg.dirfd);
                oci_state_done(&st);
                return 0;
        }
        if (s != OCI_CREATED && s != OCI_RUNNING && s != OCI_PAUSED) {
                oci_state_done(&st);
                return FAIL("container '%s' is not running", id);
        }
        /* created: the process waiting for start is sbx's, pid 1 of its pid
         * namespace with no handlers, so the kernel drops SIGTERM & co. from
         * here; runc's (Go, with handlers) dies of them, and podman stop /
         * containerd count on that: the one signal that still ends it */
        if (s == OCI_CREATED && sig_terminates(sig))
                sig = SIGKILL;
        if (all) {
                pid_t *pids;
                size_t n;
                if (oci_state_pids(&st, &pids, &n) == 0) {
                        for (size_t i = 0; i < n; i++)
                                (void) kill(pids[i], sig);
                        free(pids);
                }
        } else {
                /* a pidfd, then the start time again: the signal reaches
                 * the container's process or no one (never a reused pid) */
                int pidfd = (int) syscall(SYS_pidfd_open, st.pid, 0);
                if (pidfd < 0 || oci_proc_start_time(st.pid) != st.start_time)
                        r = FAIL("kill: container '%s' is not running", id);
                else if (sys_pidfd_send_signal(pidfd, sig) < 0)
                        r = FAIL("kill %d: %s", (int) st.pid, strerror(errno));
                if (pidfd >= 0)
                        close(pidfd);
        }
        oci_state_done(&st);
        return r;
}

/* ------------------------------------------------------------- delete */


static bool wait_gone(pid_t pid, unsigned long long start, int ms) {
        for (int i = 0; i < ms / 10; i++) {
                if (oci_proc_start_time(pid) != start)
                        return true;
                {
                        /* a zombie whose parent is us (run) */
                        siginfo_t info = {};
                        if (waitid(P_PID, (id_t) pid, &info, WEXITED | WNOHANG) == 0 && info.si_pid == pid)
                                return true;
                }
                /* a zombie of someone else counts as gone */
                {
                        char c = oci_proc_state(pid);
                        if (!c || c == 'Z' || c == 'X')
                                return true;
                }
                usleep(10000);
        }
        return false;
}

static int do_delete(const char *id, bool force) {
        oci_state st;
        oci_config cfg;
        sbx_error e = {};
        oci_status s;
        _cleanup_free_ char *text = NULL;

        if (oci_state_load(g.root, id, &st, &e) < 0) {
                /* runc: delete --force of a missing container succeeds */
                return force && e.code == -ENOENT ? 0 : fail_err(&e);
        }
        s = oci_state_status(&st);
        if (s == OCI_RUNNING || s == OCI_PAUSED) {
                if (!force) {
                        oci_state_done(&st);
                        return FAIL("cannot delete container '%s' that is %s (use --force)", id, oci_status_to_string(s));
                }
        }
        if (s != OCI_STOPPED) {
                pid_t *pids;
                size_t n;
                if (s == OCI_PAUSED)
                        log_line("warning", "deleting a paused container");
                if (oci_state_pids(&st, &pids, &n) == 0) {
                        for (size_t i = 0; i < n; i++)
                                (void) kill(pids[i], SIGKILL);
                        free(pids);
                }
                (void) kill(st.pid, SIGKILL);
                if (!wait_gone(st.pid, st.start_time, 5000))
                        log_line("warning", "container '%s': pid %d still there after SIGKILL", id, (int) st.pid);
        }
        memset(&cfg, 0, sizeof(cfg));
        if (load_config_copy(&st, &cfg, &e) == 0) {
                text = state_text(&st, OCI_STOPPED);
                if (oci_hooks_run(&cfg, OCI_HOOK_POSTSTOP, text, 0, &e) < 0)
                        log_line("warning", "%s", e.msg);
        }
        oci_config_free(&cfg);
        {
                sbx_cgroup cg;
                sbx_error ce = {};
                if (open_cgroup(&st, &cg, &ce) == 0 || st.systemd_unit[0])
                        remove_cgroup(&cg, st.systemd_unit);
        }
        remove_state_dir(st.dir);
        oci_state_done(&st);
        return 0;
}

/* ---------------------------------------------------------------- run */

static volatile sig_atomic_t forwarded_sig;
static void on_signal(int sig) {
        forwarded_sig = sig;
}

static int do_run(const char *id, const create_opts *o, bool detach, bool keep) {
        pid_t pid;
        int pidfd = -EBADF, pty = -EBADF, r, status;
        siginfo_t info = {};
        bool tty_mode;

        r = do_create(id, o, &pid, &pidfd, &pty, !o->console_socket && !detach);
        if (r)
                return r;
        tty_mode = pty >= 0;
        if (detach) {
                closep(&pidfd);
                r = do_start(id);
                if (r)
                        (void) do_delete(id, true);
                return r;
        }
        {
                struct sigaction sa = { .sa_handler = on_signal };
                int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
                for (size_t i = 0; i < ELEMENTSOF(sigs); i++)
                        sigaction(sigs[i], &sa, NULL);
        }
        r = do_start(id);
        if (r) {
                closep(&pidfd);
                (void) do_delete(id, true);
                return r;
        }
        for (;;) {
                struct pollfd pf[3] = { { .fd = pidfd, .events = POLLIN },
                                        { .fd = tty_mode ? STDIN_FILENO : -1, .events = POLLIN },
                                        { .fd = tty_mode ? pty : -1, .events = POLLIN } };
                if (forwarded_sig) {
                        (void) sys_pidfd_send_signal(pidfd, forwarded_sig);
                        forwarded_sig = 0;
                }
                if (poll(pf, 3, -1) < 0 && errno != EINTR)
                        break;
                if (pf[2].revents & (POLLIN | POLLHUP))
                        if (!sbx_relay(pty, STDOUT_FILENO))
                                pf[2].fd = -1;
                if (pf[1].revents & POLLIN)
                        (void) sbx_relay(STDIN_FILENO, pty);
                if (pf[0].revents & POLLIN)
                        break;
        }
        while (tty_mode && sbx_relay(pty, STDOUT_FILENO))
                ;
        if (waitid(P_PIDFD, pidfd, &info, WEXITED) < 0)
                info.si_code = 0;
        closep(&pidfd);
        closep(&pty);
        status = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
        audit_exit(id, status);
        if (!keep)
                (void) do_delete(id, true);
        return status;
}

/* ---------------------------------------------------- ps, list, pause */

/* The table of `ps`, as runc prints it: ps(1) run with PS_ARGS (none:
 * -ef), its header, then its lines whose PID column is one of PIDS. */
static int ps_table(char *const *ps_args, size_t n_args, const pid_t *pids, size_t n) {
        char *argv[64] = { (char *) "ps" }, *out = NULL, *save = NULL, *line;
        size_t len = 0, cap = 0, pid_col = 0;
        int pipefd[2], status;
        bool header = true;
        pid_t child;

        if (n_args > ELEMENTSOF(argv) - 2)
                return FAIL("ps: too many ps options");
        if (n_args == 0)
                argv[1] = (char *) "-ef";
        for (size_t i = 0; i < n_args; i++)
                argv[1 + i] = ps_args[i];
        if (pipe2(pipefd, O_CLOEXEC) < 0)
                return FAIL("ps: pipe: %s", strerror(errno));
        fflush(stdout);
        child = fork();
        if (child < 0)
                return close(pipefd[0]), close(pipefd[1]), FAIL("ps: fork: %s", strerror(errno));
        if (child == 0) {
                if (dup2(pipefd[1], 1) < 0)
                        _exit(127);
                execvp("ps", argv);
                _exit(127);
        }
        close(pipefd[1]);
        for (;;) {
                ssize_t k;
                if (cap - len < 4096) {
                        char *o = cap < (64u << 20) ? realloc(out, cap + 65536) : NULL;
                        if (!o)
                                break;
                        out = o;
                        cap += 65536;
                }
                k = read(pipefd[0], out + len, cap - len - 1);
                if (k <= 0 && !(k < 0 && errno == EINTR))
                        break;
                if (k > 0)
                        len += (size_t) k;
        }
        close(pipefd[0]);
        (void) waitpid(child, &status, 0);
        if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                free(out);
                return FAIL("ps: 'ps %s' failed (exit status %d)", n_args ? ps_args[0] : "-ef",
                            WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        }
        out[len] = '\0';
        for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char copy[4096], *f, *fs = NULL;
                size_t col = 0;
                long pid = -1;

                snprintf(copy, sizeof(copy), "%s", line);
                for (f = strtok_r(copy, " \t", &fs); f; f = strtok_r(NULL, " \t", &fs), col++) {
                        if (header && !strcmp(f, "PID"))
                                break;
                        if (!header && col == pid_col) {
                                pid = strtol(f, NULL, 10);
                                break;
                        }
                }
                if (header) {
                        if (!f) {
                                free(out);
                                return FAIL("ps: no PID column in the output of ps");
                        }
                        pid_col = col;
                        header = false;
                        printf("%s\n", line);
                        continue;
                }
                for (size_t i = 0; i < n; i++)
                        if (pid == pids[i]) {
                                printf("%s\n", line);
                                break;
                        }
        }
        free(out);
        return 0;
}

static int do_ps(const char *id, bool json, char *const *ps_args, size_t n_args) {
        oci_state st;
        sbx_error e = {};
        pid_t *pids;
        size_t n;
        int r = 0;

        if (oci_state_load(g.root, id, &st, &e) < 0)
                return fail_err(&e);
        if (oci_state_status(&st) == OCI_STOPPED) {
                oci_state_done(&st);
                return json ? (printf("[]\n"), 0) : ps_table(ps_args, n_args, NULL, 0);
        }
        if (oci_state_pids(&st, &pids, &n) < 0) {
                oci_state_done(&st);
                return FAIL("ps: list the container's processes");
        }
        if (json) {
                printf("[");
                for (size_t i = 0; i < n; i++)
                        printf("%s%d", i ? "," : "", (int) pids[i]);
                printf("]\n");
        } else
                r = ps_table(ps_args, n_args, pids, n);
        free(pids);
        oci_state_done(&st);
        return r;
}

/* runc list's OWNER: the user owning the container's state dir, else #UID */
static void owner_of(const char *id, char *buf, size_t len) {
        struct stat sb;
        struct passwd pw, *res = NULL;
        char pwbuf[1024];

        char path[PATH_MAX];

        snprintf(buf, len, "?");
        snprintf(path, sizeof(path), "%s/%s", g.root, id);
        if (stat(path, &sb) < 0)
                return;
        if (getpwuid_r(sb.st_uid, &pw, pwbuf, sizeof(pwbuf), &res) == 0 && res)
                snprintf(buf, len, "%s", res->pw_name);
        else
                snprintf(buf, len, "#%u", (unsigned) sb.st_uid);
}

static int do_list(bool json, bool quiet) {
        struct dirent **names = NULL;
        json_object *arr = json_object_new_array();
        int n = scandir(g.root, &names, NULL, alphasort);
        _cleanup_free_ char *text = NULL;
        size_t text_len = 0;
        FILE *table = NULL;

        /* runc's table: text/tabwriter (minwidth 12, padding 3), OWNER last */
        if (!json && !quiet) {
                table = open_memstream(&text, &text_len);
                if (!table) {
                        json_object_put(arr);
                        return FAIL("list: out of memory");
                }
                fprintf(table, "ID\tPID\tSTATUS\tBUNDLE\tCREATED\tOWNER\n");
        }
        for (int i = 0; i < n; i++) {
                oci_state st;
                sbx_error e = {};
                oci_status s;

                if (names[i]->d_name[0] != '.' && oci_state_load(g.root, names[i]->d_name, &st, &e) == 0) {
                        s = oci_state_status(&st);
                        if (quiet)
                                printf("%s\n", st.id);
                        else if (json)
                                json_object_array_add(arr, oci_state_json(&st, s));
                        else {
                                char owner[256];
                                owner_of(st.id, owner, sizeof(owner));
                                fprintf(table, "%s\t%d\t%s\t%s\t%s\t%s\n", st.id, s == OCI_STOPPED ? 0 : (int) st.pid,
                                        oci_status_to_string(s), st.bundle, st.created, owner);
                        }
                        oci_state_done(&st);
                }
                free(names[i]);
        }
        free(names);
        if (table) {
                fclose(table);
                sbx_tabwrite(stdout, text ?: "", 12, 3);
        }
        if (json)
                (void) sbx_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(arr);
        return 0;
}

#define IN(s) (1u << (s))

/* pause, resume and update: container ID's state, loaded and in one of the
 * states the mask allows (not in a systemd scope when no_scope), and its
 * cgroup opened. Returns 0, or 1 with the error printed (naming VERB and
 * ID) and nothing held. */
static int container_cgroup(const char *verb, const char *id, unsigned allowed, bool no_scope, oci_state *st,
                            sbx_cgroup *cg) {
        sbx_error e = {};
        oci_status s;

        if (oci_state_load(g.root, id, st, &e) < 0)
                return fail_err(&e);
        s = oci_state_status(st);
        if (!(allowed & IN(s))) {
                oci_state_done(st);
                return FAIL("%s: container '%s' is %s", verb, id, oci_status_to_string(s));
        }
        if (no_scope && st->systemd_unit[0]) {
                oci_state_done(st);
                return FAIL("%s: container '%s' is in a systemd scope (--systemd-cgroup): not supported "
                            "by sbx's %s", verb, id, verb);
        }
        if (open_cgroup(st, cg, &e) < 0) {
                oci_state_done(st);
                return e.code ? fail_err(&e)
                              : FAIL("%s: container '%s' has no cgroup (it could not be made at create)", verb, id);
        }
        return 0;
}

static int do_pause(const char *id, bool pause) {
        oci_state st;
        sbx_cgroup cg;
        sbx_error e = {};
        int r;

        if (container_cgroup(pause ? "pause" : "resume", id, pause ? IN(OCI_RUNNING) | IN(OCI_CREATED) : IN(OCI_PAUSED),
                             false, &st, &cg))
                return 1;
        r = sbx_cgroup_freeze(&cg, pause, &e);
        closep(&cg.dirfd);
        oci_state_done(&st);
        return r < 0 ? fail_err(&e) : 0;
}

/* update --resources FILE|- ID: linux.resources applied to the container's
 * cgroup as create applies them (what podman update and containerd's
 * UpdateContainerResources run); runc's per-limit flags are not taken. */
static int do_update(const char *id, const char *res_path) {
        oci_config cfg;
        oci_state st;
        sbx_cgroup cg;
        sbx_error e = {};
        int r;

        if (container_cgroup("update", id, IN(OCI_CREATED) | IN(OCI_RUNNING) | IN(OCI_PAUSED), true, &st, &cg))
                return 1;
        r = oci_config_load_resources(res_path, &cfg, &e);
        if (r < 0) {
                oci_config_free(&cfg);
                closep(&cg.dirfd);
                oci_state_done(&st);
                return sbx_error_wrap(&e, "update: --resources '%s'", res_path), fail_err(&e);
        }
        r = sbx_cgroup_apply(&cg, &cfg.res, &e);
        closep(&cg.dirfd);
        oci_config_free(&cfg);
        oci_state_done(&st);
        return r < 0 ? (sbx_error_wrap(&e, "update: linux.resources"), fail_err(&e)) : 0;
}

/* ----------------------------------------------------- features / spec */

static int do_features(void) {
        printf("{\"ociVersionMin\":\"1.0.0\",\"ociVersionMax\":\"1.2.0\","
               "\"hooks\":[\"prestart\",\"createRuntime\",\"createContainer\",\"startContainer\",\"poststart\",\"poststop\"],"
               "\"mountOptions\":[\"ro\",\"rw\",\"nosuid\",\"suid\",\"nodev\",\"dev\",\"noexec\",\"exec\",\"sync\",\"async\","
               "\"dirsync\",\"mand\",\"nomand\",\"atime\",\"noatime\",\"diratime\",\"nodiratime\",\"relatime\",\"norelatime\","
               "\"strictatime\",\"nostrictatime\",\"silent\",\"loud\",\"defaults\",\"bind\",\"rbind\",\"private\",\"rprivate\","
               "\"shared\",\"rshared\",\"slave\",\"rslave\",\"unbindable\",\"runbindable\"],"
               "\"linux\":{\"namespaces\":[\"cgroup\",\"ipc\",\"mount\",\"network\",\"pid\",\"time\",\"user\",\"uts\"],"
               "\"capabilities\":[\"CAP_CHOWN\",\"CAP_DAC_OVERRIDE\",\"CAP_DAC_READ_SEARCH\",\"CAP_FOWNER\",\"CAP_FSETID\","
               "\"CAP_KILL\",\"CAP_SETGID\",\"CAP_SETUID\",\"CAP_SETPCAP\",\"CAP_LINUX_IMMUTABLE\",\"CAP_NET_BIND_SERVICE\","
               "\"CAP_NET_BROADCAST\",\"CAP_NET_ADMIN\",\"CAP_NET_RAW\",\"CAP_IPC_LOCK\",\"CAP_IPC_OWNER\",\"CAP_SYS_MODULE\","
               "\"CAP_SYS_RAWIO\",\"CAP_SYS_CHROOT\",\"CAP_SYS_PTRACE\",\"CAP_SYS_PACCT\",\"CAP_SYS_ADMIN\",\"CAP_SYS_BOOT\","
               "\"CAP_SYS_NICE\",\"CAP_SYS_RESOURCE\",\"CAP_SYS_TIME\",\"CAP_SYS_TTY_CONFIG\",\"CAP_MKNOD\",\"CAP_LEASE\","
               "\"CAP_AUDIT_WRITE\",\"CAP_AUDIT_CONTROL\",\"CAP_SETFCAP\",\"CAP_MAC_OVERRIDE\",\"CAP_MAC_ADMIN\",\"CAP_SYSLOG\","
               "\"CAP_WAKE_ALARM\",\"CAP_BLOCK_SUSPEND\",\"CAP_AUDIT_READ\",\"CAP_PERFMON\",\"CAP_BPF\",\"CAP_CHECKPOINT_RESTORE\"],"
               "\"cgroup\":{\"v1\":true,\"v2\":true,\"systemd\":" SYSTEMD_FEATURE ",\"systemdUser\":false},"
               "\"seccomp\":{\"enabled\":true,\"actions\":[\"SCMP_ACT_ALLOW\",\"SCMP_ACT_ERRNO\",\"SCMP_ACT_KILL\","
               "\"SCMP_ACT_KILL_PROCESS\",\"SCMP_ACT_KILL_THREAD\",\"SCMP_ACT_LOG\",\"SCMP_ACT_TRAP\",\"SCMP_ACT_TRACE\"],"
               "\"operators\":[\"SCMP_CMP_EQ\",\"SCMP_CMP_NE\",\"SCMP_CMP_LT\",\"SCMP_CMP_LE\",\"SCMP_CMP_GT\",\"SCMP_CMP_GE\","
               "\"SCMP_CMP_MASKED_EQ\"],\"supportedFlags\":[\"SECCOMP_FILTER_FLAG_TSYNC\",\"SECCOMP_FILTER_FLAG_LOG\",\"SECCOMP_FILTER_FLAG_SPEC_ALLOW\"]},"
               "\"apparmor\":{\"enabled\":false},\"selinux\":{\"enabled\":false},"
               "\"mountExtensions\":{\"idmap\":{\"enabled\":false}}},"
               "\"annotations\":{\"org.sbx.seccomp\":\"default: add sbx's always-on seccomp layer\","
               "\"org.sbx.openclaw.config\":\"PATH of openclaw.json (with org.sbx.policy.agent)\","
               "\"org.sbx.policy.agent\":\"an OpenClaw agent id: its derived exec, Landlock and seccomp rules\","
               "\"org.sbx.policy.session\":\"the session key the agent's rules are resolved for\"}}\n");
        return 0;
}

static int do_spec(const char *bundle, bool rootless) {
        char path[PATH_MAX];
        FILE *f;

        snprintf(path, sizeof(path), "%s/config.json", bundle ?: ".");
        if (access(path, F_OK) == 0)
                return FAIL("spec: '%s' exists; remove it first", path);
        f = fopen(path, "we");
        if (!f)
                return FAIL("spec: create '%s': %s", path, strerror(errno));
        fprintf(f,
                "{\n  \"ociVersion\": \"1.2.0\",\n  \"process\": {\n    \"terminal\": true,\n"
                "    \"user\": { \"uid\": 0, \"gid\": 0 },\n    \"args\": [ \"sh\" ],\n"
                "    \"env\": [ \"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\", \"TERM=xterm\" ],\n"
                "    \"cwd\": \"/\",\n    \"capabilities\": {\n"
                "      \"bounding\": [ \"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\" ],\n"
                "      \"effective\": [ \"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\" ],\n"
                "      \"permitted\": [ \"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\" ]\n    },\n"
                "    \"rlimits\": [ { \"type\": \"RLIMIT_NOFILE\", \"hard\": 1024, \"soft\": 1024 } ],\n"
                "    \"noNewPrivileges\": true\n  },\n"
                "  \"root\": { \"path\": \"rootfs\", \"readonly\": true },\n  \"hostname\": \"sbx\",\n"
                "  \"mounts\": [\n"
                "    { \"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\" },\n"
                "    { \"destination\": \"/dev\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", \"options\": [ \"nosuid\", \"strictatime\", \"mode=755\", \"size=65536k\" ] },\n"
                "    { \"destination\": \"/dev/pts\", \"type\": \"devpts\", \"source\": \"devpts\", \"options\": [ \"nosuid\", \"noexec\", \"newinstance\", \"ptmxmode=0666\", \"mode=0620\"%s ] },\n"
                "    { \"destination\": \"/dev/shm\", \"type\": \"tmpfs\", \"source\": \"shm\", \"options\": [ \"nosuid\", \"noexec\", \"nodev\", \"mode=1777\", \"size=65536k\" ] },\n"
                "    { \"destination\": \"/dev/mqueue\", \"type\": \"mqueue\", \"source\": \"mqueue\", \"options\": [ \"nosuid\", \"noexec\", \"nodev\" ] },\n"
                "    { \"destination\": \"/sys\", \"type\": \"%s\", \"source\": \"%s\", \"options\": [ %s\"nosuid\", \"noexec\", \"nodev\", \"ro\" ] }\n"
                "  ],\n  \"linux\": {\n%s"
                "    \"maskedPaths\": [ \"/proc/acpi\", \"/proc/asound\", \"/proc/kcore\", \"/proc/keys\", \"/proc/latency_stats\",\n"
                "      \"/proc/timer_list\", \"/proc/timer_stats\", \"/proc/sched_debug\", \"/sys/firmware\", \"/proc/scsi\" ],\n"
                "    \"readonlyPaths\": [ \"/proc/bus\", \"/proc/fs\", \"/proc/irq\", \"/proc/sys\", \"/proc/sysrq-trigger\" ],\n"
                "    \"namespaces\": [ { \"type\": \"pid\" }, { \"type\": \"network\" }, { \"type\": \"ipc\" },\n"
                "      { \"type\": \"uts\" }, { \"type\": \"mount\" }%s ]\n  }\n}\n",
                rootless ? "" : ", \"gid=5\"", rootless ? "bind" : "sysfs", rootless ? "/sys" : "sysfs",
                rootless ? "\"rbind\", " : "",
                rootless ? "    \"uidMappings\": [ { \"containerID\": 0, \"hostID\": UID, \"size\": 1 } ],\n"
                           "    \"gidMappings\": [ { \"containerID\": 0, \"hostID\": GID, \"size\": 1 } ],\n"
                         : "",
                rootless ? ", { \"type\": \"user\" }" : ", { \"type\": \"cgroup\" }");
        fclose(f);
        if (rootless) {
                /* fill in our ids */
                char buf[8192], out[8400];
                size_t n;
                f = fopen(path, "re");
                n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
                if (f)
                        fclose(f);
                buf[n] = '\0';
                {
                        char *u = strstr(buf, "UID"), *gg;
                        if (u) {
                                *u = '\0';
                                gg = strstr(u + 3, "GID");
                                if (gg) {
                                        *gg = '\0';
                                        snprintf(out, sizeof(out), "%s%u%s%u%s", buf, (unsigned) getuid(), u + 3,
                                                 (unsigned) getgid(), gg + 3);
                                        f = fopen(path, "we");
                                        if (f) {
                                                fputs(out, f);
                                                fclose(f);
                                        }
                                }
                        }
                }
        }
        return 0;
}

/* exec's errors go through the same log */
static void oci_log_error(const char *msg) {
        log_line("error", "%s", msg);
}

/* --------------------------------------------------------------- main */

static void usage(FILE *f) {
        fputs("usage: sbx-runc [GLOBAL OPTIONS] COMMAND [OPTIONS] ID   (also 'sbx oci COMMAND ...')\n"
              "\n"
              "sbx as an OCI runtime (runtime-spec 1.0-1.2, runc's command line): podman --runtime,\n"
              "containerd's runc shim (BinaryName) and Kubernetes RuntimeClass handlers drive it.\n"
              "\n"
              "global options: --root DIR (default /run/sbx-runc; $XDG_RUNTIME_DIR/sbx-runc, else\n"
              "  /tmp/sbx-runc-$UID, without root or as uid 0 of a user namespace, e.g. under rootless podman)\n"
              "  --log FILE  --log-format text|json  --debug  --rootless true|false|auto (checked, else\n"
              "  unused)  --criu PATH (ignored: no checkpoints)  -h, --help  -v, --version\n"
              "  --systemd-cgroup: the cgroup is a systemd scope (cgroupsPath slice:prefix:name), where\n"
              "  systemd is init on cgroup v2; refused elsewhere with the reason (=false: cgroupfs)\n"
              "  --annotation-config-dir DIR (repeatable; else $SBX_RUNC_ANNOTATION_CONFIG_DIRS=DIR[:DIR]):\n"
              "  the only directories org.sbx.openclaw.config may name a file in (see below)\n"
              "  --audit-log FILE (else $SBX_RUNC_AUDIT_LOG): the annotated containers' audit records, each\n"
              "  with its \"container\" id, kept after delete (default: <root>/<id>/audit.jsonl)\n"
              "\n"
              "commands:\n"
              "  create [-b|--bundle BUNDLE] [--pid-file F] [--console-socket S] [--no-pivot] [--no-new-keyring]\n"
              "         [--preserve-fds N] ID          set up, stopped before the process (state 'created');\n"
              "                                        --no-pivot: MS_MOVE + chroot instead of pivot_root, for a\n"
              "                                        rootfs on a ramdisk (the old root stays beneath, covered)\n"
              "  start ID                              run the process of a created container\n"
              "  run [create's options] [-d|--detach] [--keep] ID   create + start + wait + delete\n"
              "  state ID                              the runtime-spec state JSON\n"
              "  kill [-a|--all] ID [SIGNAL]           default SIGTERM (ends a created container, as runc)\n"
              "  delete [-f|--force] ID\n"
              "  exec [-p|--process P.json] [-d|--detach] [-t|--tty] [--console-socket S] [--pid-file F]\n"
              "       [-e|--env K=V] [--cwd D] [-u|--user UID[:GID]] [--preserve-fds N] [--no-new-privs]\n"
              "       [--ignore-paused] ID [CMD...]   (exit: CMD's status; 255 it could not be started;\n"
              "       1 bad flags; --process-label and --apparmor are refused unless empty)\n"
              "  ps [-f|--format table|json] ID [PS_OPTIONS]  (table: ps(1)'s lines of the container's\n"
              "       processes, 'ps -ef' by default, as runc; json: their pids)\n"
              "  list [-f|--format table|json] [-q|--quiet]\n"
              "  pause ID   resume ID   features   spec [-b|--bundle BUNDLE] [--rootless]\n"
              "  update -r|--resources FILE|- ID       linux.resources (a JSON object; -: stdin) applied\n"
              "                                        to the container's cgroup (not devices, not systemd)\n"
              "  checkpoint, restore, events: refused (not supported by sbx)\n"
              "Exit status: 0, or 1 with one line naming the option, file or container at fault\n"
              "(run: the container's status; exec: see above).\n"
              "\n"
              "config.json is applied exactly; a field sbx cannot honour fails create naming its\n"
              "JSON path. sbx's hardening is opt-in by annotation (with Kubernetes: pod annotations):\n"
              "  org.sbx.seccomp=default             sbx's always-on seccomp layer on top of linux.seccomp\n"
              "  org.sbx.openclaw.config=PATH        with org.sbx.policy.agent=ID [org.sbx.policy.session=KEY]:\n"
              "                                      that OpenClaw agent's derived rules (exec allowlist,\n"
              "                                      Landlock read-only fs, socket rule), in exec too.\n"
              "    PATH (relative: the bundle's) must be a regular file with one link (no hardlink), owned\n"
              "    by root or the runtime's user, writable by no group or other, with no symlink in its\n"
              "    path; it must be under an --annotation-config-dir if any is set, else readable by\n"
              "    others in directories others can search. A file refused reads as a missing one\n"
              "    (annotations are a pod author's: they cannot probe the host).\n"
              "    The rules are derived at create and recorded in the state dir (policy.json): start\n"
              "    and exec apply those, never openclaw.json as edited since (recreate the container).\n"
              "    Every decision (create, start, exec; allowed and refused) is appended to\n"
              "    <root>/<id>/audit.jsonl, sbx's audit record format, which delete removes with the\n"
              "    state; or to --audit-log FILE, kept (a refused create's record too).\n"
              "Any other org.sbx.* annotation fails create.\n"
              "See README.md, \"sbx as an OCI runtime\".\n",
              f);
}

static const char *opt_value(int *i, int argc, char **argv, const char *name) {
        size_t n = strlen(name);
        if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
                return argv[*i] + n + 1;
        if (!strcmp(argv[*i], name) && *i + 1 < argc)
                return argv[++*i];
        return NULL;
}

/* The error for an option of a value-taking set given last without one, or
 * NULL when a is none of them. */
static const char *missing_value(const char *a, const char *const *names) {
        static char msg[96];

        for (size_t i = 0; names[i]; i++)
                if (!strcmp(a, names[i])) {
                        snprintf(msg, sizeof(msg), "option '%s' needs a value", a);
                        return msg;
                }
        return NULL;
}

/* --preserve-fds N: a number of fds, 0..1024. */
static int preserve_fds(const char *v, int *ret) {
        char *end;
        long n;

        errno = 0;
        n = strtol(v, &end, 10);
        if (errno || end == v || *end || n < 0 || n > (1 << 20))
                return -EINVAL;
        *ret = (int) n;
        return 0;
}

static bool is_opt(const char *a, const char *name) {
        size_t n = strlen(name);
        return !strcmp(a, name) || (!strncmp(a, name, n) && a[n] == '=');
}

/* True when this process's user namespace is the initial one (its uid_map
 * is the identity over all 2^32 - 1 ids). */
static bool in_initial_userns(void) {
        FILE *f = fopen("/proc/self/uid_map", "re");
        unsigned long inner, outer, count;
        bool initial;

        if (!f)
                return true;
        initial = fscanf(f, "%lu %lu %lu", &inner, &outer, &count) == 3 && inner == 0 && outer == 0 &&
                  count == 4294967295UL;
        fclose(f);
        return initial;
}

/* The state root when --root is not given, runc's rule: /run/sbx-runc for
 * root; $XDG_RUNTIME_DIR/sbx-runc (else /tmp/sbx-runc-<uid>) for anyone else, and
 * for uid 0 of a user namespace that is not the initial one unless $USER is
 * root: rootless podman runs its runtime there, as the user's own uid 0,
 * unable to write /run. */
static const char *default_root(void) {
        static char path[PATH_MAX];
        const char *x = getenv("XDG_RUNTIME_DIR"), *user = getenv("USER");

        if (geteuid() == 0 && (in_initial_userns() || !x || !*x || (user && !strcmp(user, "root"))))
                return "/run/sbx-runc";
        if (x && *x)
                snprintf(path, sizeof(path), "%s/sbx-runc", x);
        else
                snprintf(path, sizeof(path), "/tmp/sbx-runc-%u", (unsigned) geteuid());
        return path;
}

int cli_oci(int argc, char **argv) {
        const char *cmd = NULL, *log_format = "text";
        int i = 1, r;

        g.root = default_root();
        for (; i < argc && argv[i][0] == '-'; i++) {
                const char *a = argv[i], *v;
                if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
                        usage(stdout);
                        return 0;
                }
                if (!strcmp(a, "--version") || !strcmp(a, "-v")) {
                        printf("sbx-runc version %s\nspec: 1.2.0\n", SBX_VERSION);
                        return 0;
                }
                if (!strcmp(a, "--debug"))
                        g.debug = true;
                else if (!strcmp(a, "--systemd-cgroup=false"))
                        g.systemd = false;
                else if (is_opt(a, "--systemd-cgroup")) {
                        sbx_error e = {};
                        if (sbx_cgroup_systemd_usable(&e) < 0) {
                                fprintf(stderr, "sbx-runc: --systemd-cgroup: no systemd cgroup driver here: %s (use "
                                                "cgroupfs: containerd SystemdCgroup = false, podman cgroup_manager = "
                                                "\"cgroupfs\")\n", e.msg);
                                return 1;
                        }
                        g.systemd = true;
                } else if ((v = opt_value(&i, argc, argv, "--root")))
                        g.root = v;
                else if ((v = opt_value(&i, argc, argv, "--audit-log"))) {
                        if (v[0] != '/') {
                                fprintf(stderr, "sbx-runc: --audit-log '%s': an absolute path\n", v);
                                return 1;
                        }
                        g.audit_log = v;
                } else if ((v = opt_value(&i, argc, argv, "--annotation-config-dir"))) {
                        size_t n = strlen(g.config_dirs);
                        if (v[0] != '/' || strchr(v, ':') ||
                            snprintf(g.config_dirs + n, sizeof(g.config_dirs) - n, "%s%s", n ? ":" : "", v) >=
                            (int) (sizeof(g.config_dirs) - n)) {
                                fprintf(stderr, "sbx-runc: --annotation-config-dir '%s': an absolute path "
                                                "without ':'\n", v);
                                return 1;
                        }
                }
                else if ((v = opt_value(&i, argc, argv, "--log")))
                        g.log = v;
                else if ((v = opt_value(&i, argc, argv, "--log-format")))
                        log_format = v;
                else if ((v = opt_value(&i, argc, argv, "--rootless"))) {
                        if (strcmp(v, "true") && strcmp(v, "false") && strcmp(v, "auto")) {
                                fprintf(stderr, "sbx-runc: --rootless: true, false or auto, not '%s'\n", v);
                                return 1;
                        }
                } else if ((v = opt_value(&i, argc, argv, "--criu")))
                        ;       /* checkpointing is not offered; the flag is harmless */
                else if ((v = missing_value(a, (const char *const[]) { "--root", "--audit-log",
                                 "--annotation-config-dir", "--log", "--log-format", "--rootless", "--criu", NULL }))) {
                        fprintf(stderr, "sbx-runc: %s (see --help)\n", v);
                        return 1;
                } else {
                        fprintf(stderr, "sbx-runc: unknown global option '%s' (see --help)\n", a);
                        return 1;
                }
        }
        if (!g.audit_log && getenv("SBX_RUNC_AUDIT_LOG") && *getenv("SBX_RUNC_AUDIT_LOG"))
                g.audit_log = getenv("SBX_RUNC_AUDIT_LOG");
        if (!g.config_dirs[0] && getenv("SBX_RUNC_ANNOTATION_CONFIG_DIRS"))
                snprintf(g.config_dirs, sizeof(g.config_dirs), "%s", getenv("SBX_RUNC_ANNOTATION_CONFIG_DIRS"));
        if (strcmp(log_format, "text") && strcmp(log_format, "json")) {
                fprintf(stderr, "sbx-runc: --log-format: text or json, not '%s'\n", log_format);
                return 1;
        }
        g.log_json = !strcmp(log_format, "json");
        if (g.log) {
                g.logf = fopen(g.log, "ae");
                if (!g.logf) {
                        fprintf(stderr, "sbx-runc: --log '%s': %s\n", g.log, strerror(errno));
                        return 1;
                }
        }
        if (i >= argc) {
                usage(stderr);
                return 1;
        }
        cmd = argv[i];
        if (!strcmp(cmd, "create") || !strcmp(cmd, "run") || !strcmp(cmd, "exec")) {
                sbx_error e = {};
                (void) oci_run_sealed(argv, &e);
                if (e.code)
                        return fail_err(&e);
        }
        i++;
        argc -= i;
        argv += i;
        r = -1;
        if (!strcmp(cmd, "create") || !strcmp(cmd, "run")) {
                create_opts o = {};
                bool detach = false, keep = false;
                const char *id = NULL, *v;
                for (int k = 0; k < argc; k++) {
                        const char *a = argv[k];
                        if ((v = opt_value(&k, argc, argv, "--bundle")) || (v = opt_value(&k, argc, argv, "-b")))
                                o.bundle = v;
                        else if ((v = opt_value(&k, argc, argv, "--pid-file")))
                                o.pid_file = v;
                        else if ((v = opt_value(&k, argc, argv, "--console-socket")))
                                o.console_socket = v;
                        else if ((v = opt_value(&k, argc, argv, "--preserve-fds"))) {
                                if (preserve_fds(v, &o.preserve_fds) < 0)
                                        return FAIL("%s: --preserve-fds '%s': a number of fds (0..1048576)", cmd, v);
                        }
                        else if (!strcmp(a, "--no-pivot"))
                                o.no_pivot = true;
                        else if (!strcmp(a, "--no-new-keyring"))
                                o.no_new_keyring = true;
                        else if (!strcmp(cmd, "run") && (!strcmp(a, "-d") || !strcmp(a, "--detach")))
                                detach = true;
                        else if (!strcmp(cmd, "run") && !strcmp(a, "--keep"))
                                keep = true;
                        else if ((v = missing_value(a, (const char *const[]) { "--bundle", "-b", "--pid-file",
                                         "--console-socket", "--preserve-fds", NULL })))
                                return FAIL("%s: %s", cmd, v);
                        else if (a[0] == '-' && a[1])
                                return FAIL("%s: unknown option '%s'", cmd, a);
                        else if (!id)
                                id = a;
                        else
                                return FAIL("%s: one container id, got '%s' too", cmd, a);
                }
                if (!id)
                        return FAIL("%s: a container id is required", cmd);
                if (!strcmp(cmd, "create")) {
                        pid_t pid;
                        r = do_create(id, &o, &pid, NULL, NULL, false);
                } else
                        r = do_run(id, &o, detach, keep);
        } else if (!strcmp(cmd, "start") || !strcmp(cmd, "state") || !strcmp(cmd, "pause") || !strcmp(cmd, "resume")) {
                if (argc != 1 || argv[0][0] == '-')
                        return FAIL("%s: exactly one container id", cmd);
                r = !strcmp(cmd, "start") ? do_start(argv[0]) : !strcmp(cmd, "state") ? do_state(argv[0])
                                                                                        : do_pause(argv[0], !strcmp(cmd, "pause"));
        } else if (!strcmp(cmd, "kill")) {
                bool all = false;
                const char *id = NULL, *sig = NULL;
                for (int k = 0; k < argc; k++) {
                        if (!strcmp(argv[k], "-a") || !strcmp(argv[k], "--all"))
                                all = true;
                        else if (!id)
                                id = argv[k];
                        else if (!sig)
                                sig = argv[k];
                        else
                                return FAIL("kill: ID [SIGNAL]");
                }
                if (!id)
                        return FAIL("kill: a container id is required");
                r = do_kill(id, sig, all);
        } else if (!strcmp(cmd, "delete")) {
                bool force = false;
                const char *id = NULL;
                for (int k = 0; k < argc; k++) {
                        if (!strcmp(argv[k], "-f") || !strcmp(argv[k], "--force"))
                                force = true;
                        else if (!strcmp(argv[k], "--") && !id && k + 1 < argc)
                                id = argv[++k];   /* runc: delete -f -- ID */
                        else if (!id)
                                id = argv[k];
                        else
                                return FAIL("delete: one container id");
                }
                if (!id)
                        return FAIL("delete: a container id is required");
                r = do_delete(id, force);
        } else if (!strcmp(cmd, "ps") || !strcmp(cmd, "list")) {
                bool json = false, quiet = false;
                const char *id = NULL, *v;
                char **ps_args = NULL;
                size_t n_ps_args = 0;
                for (int k = 0; k < argc; k++) {
                        /* ps ID [PS_OPTIONS]: what follows the id is ps(1)'s (runc) */
                        if (id && !strcmp(cmd, "ps")) {
                                k += !strcmp(argv[k], "--");
                                ps_args = argv + k;
                                n_ps_args = (size_t) (argc - k);
                                break;
                        }
                        if ((v = opt_value(&k, argc, argv, "--format")) || (v = opt_value(&k, argc, argv, "-f"))) {
                                if (strcmp(v, "json") && strcmp(v, "table"))
                                        return FAIL("%s: --format table or json", cmd);
                                json = !strcmp(v, "json");
                        } else if (!strcmp(argv[k], "-q") || !strcmp(argv[k], "--quiet"))
                                quiet = true;
                        else if (!id && argv[k][0] != '-')
                                id = argv[k];
                        else
                                return FAIL("%s: unexpected '%s'", cmd, argv[k]);
                }
                if (!strcmp(cmd, "ps") && !id)
                        return FAIL("ps: a container id is required");
                r = !strcmp(cmd, "ps") ? do_ps(id, json, ps_args, n_ps_args) : do_list(json, quiet);
        } else if (!strcmp(cmd, "exec")) {
                r = oci_exec_main(g.root, g.audit_log, argc, argv, oci_log_error);
        } else if (!strcmp(cmd, "features"))
                r = do_features();
        else if (!strcmp(cmd, "spec")) {
                const char *bundle = NULL, *v;
                bool rootless = false;
                for (int k = 0; k < argc; k++) {
                        if ((v = opt_value(&k, argc, argv, "--bundle")) || (v = opt_value(&k, argc, argv, "-b")))
                                bundle = v;
                        else if (!strcmp(argv[k], "--rootless"))
                                rootless = true;
                        else
                                return FAIL("spec: unexpected '%s'", argv[k]);
                }
                r = do_spec(bundle, rootless);
        } else if (!strcmp(cmd, "update")) {
                const char *id = NULL, *res = NULL, *v;
                for (int k = 0; k < argc; k++) {
                        if ((v = opt_value(&k, argc, argv, "--resources")) || (v = opt_value(&k, argc, argv, "-r")))
                                res = v;
                        else if (argv[k][0] == '-')
                                return FAIL("update: '%s' is not supported by sbx (use --resources FILE|-: a "
                                            "linux.resources object)", argv[k]);
                        else if (!id)
                                id = argv[k];
                        else
                                return FAIL("update: unexpected '%s'", argv[k]);
                }
                if (!id)
                        return FAIL("update: a container id is required");
                if (!res)
                        return FAIL("update: --resources FILE|- is required (runc's per-limit flags are not "
                                    "supported by sbx)");
                r = do_update(id, res);
        } else if (!strcmp(cmd, "checkpoint") || !strcmp(cmd, "restore") || !strcmp(cmd, "events"))
                r = FAIL("'%s' is not supported by sbx", cmd);
        else
                r = FAIL("unknown command '%s' (see --help)", cmd);
        if (g.logf)
                fclose(g.logf);
        return r;
}


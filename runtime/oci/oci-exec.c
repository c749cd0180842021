/* SPDX-License-Identifier: MIT */
/* `exec`: another process in a running container.
 *
 * The process is described by --process FILE (a runtime-spec process
 * object) or by the container's own process with the flags' changes. Data
 * flow: state + config copy -> process -> seccomp compiled here -> fork ->
 * join the cgroup, enter the namespaces (user first) -> fork (pid ns) ->
 * the launcher's exec steps (sbx_exec_setup_child: rlimits, session,
 * credentials, no_new_privs, fds, cwd, seccomp, execve). We are the
 * subreaper, so without --detach we wait for the process and return its
 * status (255 when it could not be started, 1 for bad flags, as runc); with it, the pid is written and the process is left to our
 * parent (conmon, the containerd shim), as runc does. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oci-internal.h"

#define SYNC_TIMEOUT_MS 30000

typedef struct exec_opts {
        const char *process, *console_socket, *pid_file, *cwd, *user;
        bool detach, tty, tty_set, no_new_privs;
        int preserve_fds;
        char **env;
        size_t n_env;
        char **args;
} exec_opts;

int oci_cap_last(void) {
        char buf[16] = {};
        int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);

        if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0) {
                if (fd >= 0)
                        close(fd);
                return 40;
        }
        close(fd);
        /* 63 (drop and test everything) for a value no kernel has */
        return atoi(buf) >= 30 && atoi(buf) <= 63 ? atoi(buf) : 63;
}

/* The process to run: --process, or the container's with the flags applied. */
/* A uid or gid of -u: decimal digits only, at most UINT32_MAX - 1 (as
 * process.user.uid in config.json). */
static int id_number(const char *s, size_t len, uint32_t *ret) {
        uint64_t v = 0;

        if (len == 0 || len > 10)
                return -EINVAL;
        for (size_t i = 0; i < len; i++) {
                if (s[i] < '0' || s[i] > '9')
                        return -EINVAL;
                v = v * 10 + (uint64_t) (s[i] - '0');
        }
        if (v >= UINT32_MAX)
                return -ERANGE;
        *ret = (uint32_t) v;
        return 0;
}

static int build_process(oci_config *cfg, const exec_opts *o, sbx_error *e) {
        sbx_container_proc *pr = &cfg->ctr.proc;
        size_t n_env = 0;
        char **env;

        if (o->process) {
                json_object *p = oci_json_file(o->process, e);
                int r;
                if (!p)
                        return sbx_error_wrap(e, "--process '%s'", o->process);
                cfg->ctr.terminal = false;
                pr->umask = -1;
                r = oci_config_parse_process(cfg, p, "process", e);
                json_object_put(p);
                if (r < 0)
                        return sbx_error_wrap(e, "--process '%s'", o->process), r;
                return 0;
        }
        if (!o->args || !o->args[0])
                return sbx_error_set(e, -EINVAL, "exec: a command (or --process) is required");
        pr->argv = o->args;
        if (o->cwd) {
                if (o->cwd[0] != '/')
                        return sbx_error_set(e, -EINVAL, "--cwd '%s': must be absolute", o->cwd);
                pr->cwd = o->cwd;
        }
        if (o->tty_set)
                cfg->ctr.terminal = o->tty;
        if (o->no_new_privs)
                pr->no_new_privs = true;
        if (o->user) {
                uint32_t u, gg = 0;
                const char *colon = strchr(o->user, ':');
                /* (uid_t) -1 is "unchanged" to setresuid: "-1" or 4294967295
                 * (which sscanf's %u took) left the process root */
                if (id_number(o->user, colon ? (size_t) (colon - o->user) : strlen(o->user), &u) < 0 ||
                    (colon && id_number(colon + 1, strlen(colon + 1), &gg) < 0))
                        return sbx_error_set(e, -EINVAL, "--user '%s': UID[:GID], numbers below 4294967295",
                                             o->user);
                pr->uid = u;
                pr->gid = gg;
        }
        while (pr->envp && pr->envp[n_env])
                n_env++;
        env = oci_config_own(cfg, calloc(n_env + o->n_env + 1, sizeof(char *)));
        if (!env)
                return sbx_error_set(e, -ENOMEM, "out of memory");
        if (n_env)
                memcpy(env, pr->envp, n_env * sizeof(char *));
        /* -u: HOME is that user's (the rootfs's /etc/passwd, else "/"), as
         * runc, unless process.env gave one (or -e does, below) */
        if (o->user && cfg->home_default) {
                char home[512] = "/", *kv;
                if (!cfg->ctr.rootfs || !sbx_rootfs_home(cfg->ctr.rootfs, pr->uid, home, sizeof(home)))
                        snprintf(home, sizeof(home), "/");
                if (asprintf(&kv, "HOME=%s", home) < 0 || !oci_config_own(cfg, kv))
                        return sbx_error_set(e, -ENOMEM, "out of memory");
                for (size_t k = 0; k < n_env; k++)
                        if (!strncmp(env[k], "HOME=", 5))
                                env[k] = kv;
        }
        for (size_t i = 0; i < o->n_env; i++) {
                size_t klen = strcspn(o->env[i], "=");
                bool replaced = false;
                for (size_t k = 0; k < n_env && !replaced; k++)
                        if (!strncmp(env[k], o->env[i], klen) && env[k][klen] == '=') {
                                env[k] = o->env[i];
                                replaced = true;
                        }
                if (!replaced)
                        env[n_env++] = o->env[i];
        }
        pr->envp = env;         /* freed with cfg */
        for (char **v = env; *v; v++)
                if (!strncmp(*v, "PATH=", 5))
                        pr->path_env = *v + 5;
        return 0;
}

/* B, inside the container, with an agent's rules (oci-policy.c): the
 * command resolved in the container's root and decided on against them, the
 * same Landlock ruleset as the container's process (writable: its tmpfs
 * mounts), the decided file run, as `sbx exec` does into a sandbox
 * (launch.h sbx_exec_resolve_joined). 0, or the exit status with *err. */
static int decide_joined(const oci_config *cfg, const sbx_audit *audit, sbx_exec_plan *ep, sbx_error *err) {
        const char *writable[SBX_LANDLOCK_MAX_WRITABLE];
        sbx_exec_verdict verdict = {};
        sbx_exec_plan decided;
        sbx_plan *p = sbx_plan_new();   /* lives until the exec */
        size_t n = 0;
        int status;

        if (!p)
                return sbx_error_set(err, -ENOMEM, "exec: out of memory"), SBX_EXIT_FAILURE;
        for (size_t i = 0; i < cfg->ctr.n_mounts && n < ELEMENTSOF(writable); i++)
                if (!strcmp(cfg->ctr.mounts[i].type, "tmpfs"))
                        writable[n++] = cfg->ctr.mounts[i].dst;
        p->argv = (char **) ep->argv;
        p->envp = (char **) ep->envp;
        p->path_env = ep->path_env ?: "";
        p->workdir = ep->workdir;
        status = sbx_exec_resolve_joined(p, cfg->ctr.rules, -EBADF, writable, n, &verdict, err);
        /* the decision, allowed or refused, logged before anything runs */
        if (verdict.decided && audit->fd >= 0 && sbx_audit_exec(audit, (char *const *) ep->argv, &verdict) < 0 &&
            !status)
                return sbx_error_set(err, -EIO, "exec: audit log: write the exec record"), SBX_EXIT_FAILURE;
        if (status)
                return status;
        sbx_exec_plan_from(p, &decided);
        ep->exec_fd = decided.exec_fd;
        ep->exec_argv = decided.exec_argv;
        ep->exec_path = decided.exec_path;
        ep->landlock = decided.landlock;
        return 0;
}

/* Child A: the container's cgroup and namespaces, then B. */
/* With an agent's rules: the exec log's seccomp filter (every execve of the
 * process's tree decided on and audited by a listener outside, as for a
 * `docker exec` into sbx's sandboxes); NULL insns: none. */
typedef struct exec_log {
        struct sock_filter *insns;
        unsigned short len;
        uint64_t cookie;
} exec_log;

static _Noreturn void enter_and_run(const oci_state *st, oci_config *cfg, const sbx_audit *audit,
                                    const exec_log *xl, int sync_fd, int cap_last) {
        static const struct { const char *name; int type; } order[] = {
                { "user", CLONE_NEWUSER }, { "ipc", CLONE_NEWIPC }, { "uts", CLONE_NEWUTS }, { "net", CLONE_NEWNET },
                { "pid", CLONE_NEWPID }, { "cgroup", CLONE_NEWCGROUP }, { "mnt", CLONE_NEWNS },
        };
        int fds[ELEMENTSOF(order)];
        sbx_error err = {};
        pid_t b;

        if (st->cgroup[0]) {
                char path[PATH_MAX + 32];
                int fd;
                snprintf(path, sizeof(path), "%s/cgroup.procs", st->cgroup);
                fd = open(path, O_WRONLY | O_CLOEXEC);
                if (fd < 0 || write(fd, "0", 1) != 1) {
                        sbx_error_set(&err, -errno, "exec: join the container's cgroup '%s'", st->cgroup);
                        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                        _exit(SBX_EXIT_FAILURE);
                }
                close(fd);
        }
        /* open all first: /proc/<pid> goes away from view after the mnt ns */
        for (size_t i = 0; i < ELEMENTSOF(order); i++) {
                char path[64], self[64];
                struct stat a, s;
                snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int) st->pid, order[i].name);
                snprintf(self, sizeof(self), "/proc/self/ns/%s", order[i].name);
                fds[i] = -EBADF;
                if (stat(path, &a) < 0 || stat(self, &s) < 0)
                        continue;
                if (a.st_ino == s.st_ino && a.st_dev == s.st_dev)
                        continue;       /* shared with us: nothing to enter */
                fds[i] = open(path, O_RDONLY | O_CLOEXEC);
                if (fds[i] < 0) {
                        sbx_error_set(&err, -errno, "exec: open %s", path);
                        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                        _exit(SBX_EXIT_FAILURE);
                }
        }
        /* the namespaces opened are the container's process's only if it
         * is still that process (a pid reused since the status check would
         * be a stranger's, perhaps the host's) */
        if (oci_proc_start_time(st->pid) != st->start_time) {
                sbx_error_set(&err, -ESRCH, "exec: the container's process %d is gone", (int) st->pid);
                (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                _exit(SBX_EXIT_FAILURE);
        }
        for (size_t i = 0; i < ELEMENTSOF(order); i++)
                if (fds[i] >= 0 && setns(fds[i], order[i].type) < 0) {
                        sbx_error_set(&err, -errno, "exec: enter the container's %s namespace", order[i].name);
                        (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                        _exit(SBX_EXIT_FAILURE);
                }
        b = fork();
        if (b < 0) {
                sbx_error_set(&err, -errno, "exec: fork");
                (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                _exit(SBX_EXIT_FAILURE);
        }
        if (b > 0)
                _exit(0);       /* B is reparented to the exec command (subreaper) */
        {
                sbx_exec_plan ep = {};
                int master = -EBADF, slave = -EBADF, status;
                const sbx_container_proc *pr = &cfg->ctr.proc;

                if (cfg->ctr.terminal) {
                        if (sbx_tty_setup_child(pr->uid, (uint32_t) -1, &master, &slave, &err) < 0 ||
                            sbx_sync_send_fd(sync_fd, 2, SBX_SYNC_PTY, master) < 0) {
                                if (!err.code)
                                        sbx_error_set(&err, -errno, "exec: pass the pty");
                                (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, SBX_EXIT_FAILURE, &err);
                                _exit(SBX_EXIT_FAILURE);
                        }
                        close(master);
                }
                ep.argv = ep.exec_argv = pr->argv;
                ep.envp = pr->envp;
                ep.path_env = pr->path_env;
                ep.workdir = pr->cwd ?: "/";
                ep.rlimits = cfg->ctr.rlimits;
                ep.n_rlimits = cfg->ctr.n_rlimits;
                ep.cap_last = cap_last;
                ep.uid = pr->uid;
                ep.gid = pr->gid;
                ep.bpf = &cfg->ctr.seccomp;
                ep.tty_fd = slave;
                ep.exec_fd = -EBADF;
                ep.setup_sh_fd = -EBADF;
                ep.proc = pr;
                ep.notify_insns = xl->insns;
                ep.notify_len = xl->len;
                ep.notify_cookie = xl->cookie;
                ep.notify_sock = sync_fd;
                status = cfg->ctr.rules ? decide_joined(cfg, audit, &ep, &err) : 0;
                if (status == 0)
                        status = sbx_exec_setup_child(&ep, &err);
                (void) sbx_sync_send(sync_fd, 3, SBX_SYNC_ERROR, status, &err);
                _exit(status);
        }
}

static int parse_opts(int argc, char **argv, exec_opts *o, const char **ret_id, char *errbuf, size_t len) {
        int k;

        o->env = calloc((size_t) argc + 1, sizeof(char *));
        if (!o->env)
                return -ENOMEM;
        for (k = 0; k < argc && argv[k][0] == '-'; k++) {
                const char *a = argv[k];
                const char *v = NULL;
#define VAL(name) ((!strcmp(a, name) && k + 1 < argc) ? argv[++k] \
                   : (!strncmp(a, name "=", strlen(name) + 1) ? a + strlen(name) + 1 : NULL))
                if ((v = VAL("--process")) || (v = VAL("-p")))
                        o->process = v;
                else if ((v = VAL("--console-socket")))
                        o->console_socket = v;
                else if ((v = VAL("--pid-file")))
                        o->pid_file = v;
                else if ((v = VAL("--cwd")))
                        o->cwd = v;
                else if ((v = VAL("--user")) || (v = VAL("-u")))
                        o->user = v;
                else if ((v = VAL("--env")) || (v = VAL("-e")))
                        o->env[o->n_env++] = (char *) v;
                else if ((v = VAL("--preserve-fds"))) {
                        char *end;
                        long n;
                        errno = 0;
                        n = strtol(v, &end, 10);
                        if (errno || end == v || *end || n < 0 || n > (1 << 20)) {
                                snprintf(errbuf, len, "exec: --preserve-fds '%s': a number of fds (0..1048576)", v);
                                return -EINVAL;
                        }
                        o->preserve_fds = (int) n;
                }
                else if ((v = VAL("--process-label")) || (v = VAL("--apparmor"))) {
                        if (*v) {
                                snprintf(errbuf, len, "exec: '%s' is not supported by sbx (no LSM labels)", a);
                                return -EOPNOTSUPP;
                        }
                } else if (!strcmp(a, "-d") || !strcmp(a, "--detach"))
                        o->detach = true;
                else if (!strcmp(a, "-t") || !strcmp(a, "--tty"))
                        o->tty = o->tty_set = true;
                else if (!strcmp(a, "--no-new-privs"))
                        o->no_new_privs = true;
                else if (!strcmp(a, "--ignore-paused"))
                        ;
                else if (!strcmp(a, "--"))
                        break;
                else if (!strcmp(a, "--process") || !strcmp(a, "-p") || !strcmp(a, "--console-socket") ||
                         !strcmp(a, "--pid-file") || !strcmp(a, "--cwd") || !strcmp(a, "--user") ||
                         !strcmp(a, "-u") || !strcmp(a, "--env") || !strcmp(a, "-e") ||
                         !strcmp(a, "--preserve-fds") || !strcmp(a, "--process-label") || !strcmp(a, "--apparmor")) {
                        snprintf(errbuf, len, "exec: option '%s' needs a value", a);
                        return -EINVAL;
                } else {
                        snprintf(errbuf, len, "exec: unknown or unsupported option '%s'", a);
                        return -EINVAL;
                }
#undef VAL
        }
        if (k < argc && !strcmp(argv[k], "--"))
                k++;
        if (k >= argc) {
                snprintf(errbuf, len, "exec: a container id is required");
                return -EINVAL;
        }
        *ret_id = argv[k++];
        if (k < argc && !strcmp(argv[k], "--"))
                k++;
        o->args = argv + k;
        return 0;
}

int oci_exec_main(const char *root, const char *audit_log, int argc, char **argv, void (*log)(const char *msg)) {
        exec_opts o = {};
        oci_state st = {};
        oci_config cfg;
        sbx_audit audit = { .fd = -EBADF };
        exec_log xl = {};
        sbx_tty_guard tg = { .relay = 0 };
        sbx_error e = {};
        char errbuf[512], msgbuf[SBX_ERROR_MSG_MAX + 64], cfgpath[PATH_MAX + 32];
        const char *id = NULL;
        int fds[2], sync_parent = -EBADF, pty = -EBADF, listener_sock = -EBADF, r, status = 1;
        pid_t a, b = -1, listener = 0;
        oci_status s;

        memset(&cfg, 0, sizeof(cfg));
        if (parse_opts(argc, argv, &o, &id, errbuf, sizeof(errbuf)) < 0) {
                log(errbuf);
                free(o.env);
                return 1;
        }
        if (oci_state_load(root, id, &st, &e) < 0)
                goto fail;
        s = oci_state_status(&st);
        if (s != OCI_RUNNING && s != OCI_CREATED) {
                sbx_error_set(&e, -EINVAL, "cannot exec in a container that is %s", oci_status_to_string(s));
                goto fail;
        }
        snprintf(cfgpath, sizeof(cfgpath), "%s/config.json", st.dir);
        if (oci_config_load_at(st.bundle, cfgpath, &cfg, &e) < 0 || build_process(&cfg, &o, &e) < 0 ||
            oci_policy_load(&cfg, st.dir, &e) < 0 || oci_seccomp_prepare(&cfg, &e) < 0 ||
            oci_policy_audit_open(&cfg, &st, audit_log, &audit, &e) < 0)
                goto fail;
        cfg.ctr.proc.preserve_fds = o.preserve_fds;
        cfg.ctr.proc.new_keyring = false;
        if (cfg.ctr.terminal && !o.console_socket && o.detach) {
                sbx_error_set(&e, -EINVAL, "exec: --tty with --detach needs --console-socket");
                goto fail;
        }
        /* without a pty, never the caller's terminal (a relay in between,
         * started before anything it could inherit exists) */
        if (!cfg.ctr.terminal && (r = sbx_tty_guard_start(&tg, true)) < 0) {
                sbx_error_set(&e, r, "exec: a pipe between the container and the terminal");
                goto fail;
        }
        /* the exec log: its listener started now, outside the container */
        if (cfg.ctr.rules) {
                xl.cookie = sbx_exec_cookie();
                if (sbx_seccomp_compile_exec_notify(xl.cookie, &xl.insns, &xl.len, &e) < 0 ||
                    sbx_exec_listener_start(cfg.ctr.rules, NULL, &audit, true, &listener_sock, &listener, &e) < 0)
                        goto fail;
        }
        if (sbx_sync_pair(fds, &e) < 0)
                goto fail;
        sync_parent = fds[0];
        /* the process ends up our child (A exits after forking it) */
        (void) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        a = fork();
        if (a < 0) {
                sbx_error_set(&e, -errno, "exec: fork");
                goto fail;
        }
        if (a == 0) {
                close(sync_parent);
                enter_and_run(&st, &cfg, &audit, &xl, fds[1], oci_cap_last());
        }
        close(fds[1]);
        (void) waitpid(a, &r, 0);
        /* B's pid: the only other child we have now */
        for (;;) {
                sbx_sync_msg msg;
                int passed = -EBADF;
                r = sbx_sync_recv_fd(sync_parent, SYNC_TIMEOUT_MS, &msg, &passed);
                if (r == -EPIPE)
                        break;  /* exec happened (CLOEXEC end closed) */
                if (r < 0) {
                        sbx_error_set(&e, r, "exec: no word from the process");
                        goto fail;
                }
                if (msg.type == SBX_SYNC_PTY) {
                        pty = passed;
                        continue;
                }
                if (msg.type == SBX_SYNC_LISTENER) {
                        /* on to the listener; its close ends it otherwise */
                        r = passed >= 0 && listener_sock >= 0 ?
                                sbx_sync_send_fd(listener_sock, 1, SBX_SYNC_LISTENER, passed) : -EPROTO;
                        closep(&passed);
                        closep(&listener_sock);
                        if (r < 0) {
                                sbx_error_set(&e, -EPROTO, "exec: hand the exec log listener over");
                                goto fail;
                        }
                        continue;
                }
                if (msg.type == SBX_SYNC_ERROR) {
                        e = msg.error;
                        if (!e.code)
                                e.code = -EIO;
                        (void) waitpid(-1, NULL, WNOHANG);
                        goto fail;
                }
        }
        {
                /* find B: our child in the container's pid ns (zombies are
                 * listed too); the exec log's listener is our other child */
                char path[64];
                FILE *f;
                int x;
                snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int) getpid());
                f = fopen(path, "re");
                while (f && b <= 0 && fscanf(f, "%d", &x) == 1)
                        if (x != listener && x != tg.relay)
                                b = x;
                if (f)
                        fclose(f);
        }
        if (b <= 0) {
                sbx_error_set(&e, -ESRCH, "exec: lost the process");
                goto fail;
        }
        if (oci_write_pid_file(o.pid_file, b, &e) < 0) {
                kill(b, SIGKILL);
                goto fail;
        }
        if (pty >= 0 && o.console_socket && oci_send_console(o.console_socket, pty, &e) < 0) {
                kill(b, SIGKILL);
                goto fail;
        }
        if (audit.fd >= 0)
                (void) sbx_audit_start(&audit, b, cfg.ctr.proc.argv);
        if (o.detach) {
                /* the relay goes on until the process ends */
                int pidfd = tg.relay > 0 ? (int) syscall(SYS_pidfd_open, b, 0) : -EBADF;
                r = tg.relay <= 0 ? 0 : pidfd < 0 ? -errno : sbx_tty_guard_detach(&tg, pidfd);
                closep(&pidfd);
                if (r < 0) {
                        kill(b, SIGKILL);
                        sbx_error_set(&e, r, "exec: a pipe between the container and the terminal");
                        goto fail;
                }
                status = 0;
                goto out;
        }
        for (;;) {
                int w;
                if (pty >= 0 && !o.console_socket) {
                        struct pollfd pf[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = pty, .events = POLLIN } };
                        if (poll(pf, 2, 100) > 0) {
                                if (pf[1].revents & (POLLIN | POLLHUP))
                                        (void) sbx_relay(pty, STDOUT_FILENO);
                                if (pf[0].revents & POLLIN)
                                        (void) sbx_relay(STDIN_FILENO, pty);
                        }
                        if (waitpid(b, &w, WNOHANG) == b) {
                                while (sbx_relay(pty, STDOUT_FILENO))
                                        ;
                                status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
                                break;
                        }
                        continue;
                }
                if (waitpid(b, &w, 0) == b) {
                        status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
                        break;
                }
                if (errno != EINTR)
                        break;
        }
        if (audit.fd >= 0)
                (void) sbx_audit_exit(&audit, status, false, NULL);
        goto out;
fail:
        /* runc: a process that could not be started (no container, not
         * found, not executable, bad cwd, ...) is 255, so that a caller can
         * tell it from any status of the process itself; bad flags are 1 */
        /* with the errno's text (create's error has it too): podman makes
         * exec's 127 and 126 from "no such file or directory" and
         * "permission denied" in the runtime's message */
        sbx_error_text(&e, msgbuf, sizeof(msgbuf));
        if (e.code < 0 && !strstr(msgbuf, strerror(-e.code))) {
                size_t n = strlen(msgbuf);
                snprintf(msgbuf + n, sizeof(msgbuf) - n, ": %s", strerror(-e.code));
        }
        log(msgbuf);
        status = OCI_EXEC_FAILED;
out:
        sbx_tty_guard_stop(&tg);
        sbx_audit_close(&audit);
        free(xl.insns);
        closep(&listener_sock);
        closep(&sync_parent);
        closep(&pty);
        oci_config_free(&cfg);
        oci_state_done(&st);
        free(o.env);
        return status;
}

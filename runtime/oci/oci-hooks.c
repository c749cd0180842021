/* SPDX-License-Identifier: MIT */
/* runtime-spec hooks: path, args, env, timeout; the state JSON on stdin.
 * A failing prestart/createRuntime/createContainer/startContainer hook fails
 * the operation; poststart/poststop failures are warnings (the caller
 * decides). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oci-internal.h"

/* startContainer runs in the container as its process would (runc's runc
 * init runs it right before the exec): its user namespace too, a child in
 * its pid namespace, not dumpable, the process's credentials, capabilities,
 * no_new_privs and seccomp filter (the parent of that child only waits for
 * it and exits with its status). The file is the container's: with the
 * runtime's privileges an image's file at that path would be host root. */
static void become_container_process(const oci_config *c, const char *kind, size_t idx, int cap_last) {
        const sbx_container_proc *pr = &c->ctr.proc;
        sbx_error e = {};
        int status;
        pid_t pid = fork();

        if (pid < 0)
                _exit(127);
        if (pid > 0) {
                while (waitpid(pid, &status, 0) < 0)
                        if (errno != EINTR)
                                _exit(127);
                _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        }
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 ||
            (!pr->no_new_privs && c->ctr.seccomp.len && sbx_seccomp_setup_child(&c->ctr.seccomp) < 0) ||
            sbx_caps_setup_container_child(cap_last, pr, &e) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
            (pr->no_new_privs && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
                                  (c->ctr.seccomp.len && sbx_seccomp_setup_child(&c->ctr.seccomp) < 0)))) {
                dprintf(STDERR_FILENO, "hooks.%s[%zu]: become the container's process: %s\n", kind, idx,
                        e.code ? e.msg : strerror(errno));
                _exit(127);
        }
        if (pr->umask >= 0)
                umask((mode_t) pr->umask);
}

static int run_hook(const oci_config *c, const oci_hook *h, const char *kind, size_t idx, const char *state_json,
                    pid_t ns_pid, bool as_container, sbx_error *reterr) {
        char *const noargs[] = { h->path, NULL };
        char *const noenv[] = { NULL };
        int in[2], status, pidfd;
        size_t len = strlen(state_json);
        pid_t pid;
        struct pollfd pfd;

        /* the host's, read before the hook enters the container's mount
         * namespace, whose /proc the bundle may have replaced */
        int cap_last = oci_cap_last();

        if (pipe2(in, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, -errno, "hooks.%s[%zu]: pipe", kind, idx);
        pid = fork();
        if (pid < 0) {
                close(in[0]);
                close(in[1]);
                return sbx_error_set(reterr, -errno, "hooks.%s[%zu]: fork", kind, idx);
        }
        if (pid == 0) {
                sigset_t none;
                sigemptyset(&none);
                sigprocmask(SIG_SETMASK, &none, NULL);
                /* only the hook holds the pipe: EOF when we are done */
                close(in[1]);
                if (dup2(in[0], STDIN_FILENO) < 0)
                        _exit(127);
                /* createContainer/startContainer: in the container's namespaces */
                if (ns_pid > 0) {
                        static const char *const names[] = { "user", "ipc", "uts", "net", "pid", "cgroup", "mnt" };
                        for (size_t i = !as_container; i < ELEMENTSOF(names); i++) {
                                char path[64], own[64];
                                struct stat a, b;
                                int fd;
                                snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int) ns_pid, names[i]);
                                snprintf(own, sizeof(own), "/proc/self/ns/%s", names[i]);
                                if (i == 0 && stat(path, &a) == 0 && stat(own, &b) == 0 && a.st_ino == b.st_ino &&
                                    a.st_dev == b.st_dev)
                                        continue;       /* our own user namespace: nothing to enter */
                                fd = open(path, O_RDONLY | O_CLOEXEC);
                                if (fd < 0 || setns(fd, 0) < 0) {
                                        dprintf(STDERR_FILENO, "hooks.%s[%zu]: enter the container's %s namespace: %s\n",
                                                kind, idx, names[i], strerror(errno));
                                        _exit(127);
                                }
                                close(fd);
                        }
                }
                if (as_container)
                        become_container_process(c, kind, idx, cap_last);
                /* stdout of a hook is not the runtime's output */
                (void) dup2(STDERR_FILENO, STDOUT_FILENO);
                execve(h->path, h->args ?: noargs, h->env ?: noenv);
                dprintf(STDERR_FILENO, "hooks.%s[%zu]: exec '%s': %s\n", kind, idx, h->path, strerror(errno));
                _exit(127);
        }
        close(in[0]);
        /* the state is small; a hook that does not read it gets EPIPE on us */
        {
                struct sigaction ign = { .sa_handler = SIG_IGN }, old;
                sigaction(SIGPIPE, &ign, &old);
                (void) !write(in[1], state_json, len);
                sigaction(SIGPIPE, &old, NULL);
        }
        close(in[1]);
        pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
        pfd = (struct pollfd) { .fd = pidfd, .events = POLLIN };
        if (pidfd >= 0 && h->timeout > 0 && poll(&pfd, 1, h->timeout * 1000) == 0) {
                kill(pid, SIGKILL);
                (void) waitpid(pid, &status, 0);
                close(pidfd);
                return sbx_error_set(reterr, -ETIMEDOUT, "hooks.%s[%zu] '%s': timed out after %d s", kind, idx, h->path,
                                     h->timeout);
        }
        if (pidfd >= 0)
                close(pidfd);
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return sbx_error_set(reterr, -errno, "hooks.%s[%zu]: wait", kind, idx);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        if (WIFSIGNALED(status))
                return sbx_error_set(reterr, -ECANCELED, "hooks.%s[%zu] '%s': killed by signal %d", kind, idx, h->path,
                                     WTERMSIG(status));
        return sbx_error_set(reterr, -ECANCELED, "hooks.%s[%zu] '%s': exit status %d", kind, idx, h->path,
                             WEXITSTATUS(status));
}

int oci_hooks_run(const oci_config *c, int kind, const char *state_json, pid_t ns_pid, sbx_error *reterr) {
        for (size_t i = 0; i < c->n_hooks[kind]; i++) {
                int r = run_hook(c, &c->hooks[kind][i], oci_hook_names[kind], i, state_json, ns_pid,
                                 kind == OCI_HOOK_START_CONTAINER, reterr);
                if (r < 0)
                        return r;
        }
        return 0;
}

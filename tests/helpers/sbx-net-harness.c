/* SPDX-License-Identifier: MIT */
/* A minimal launcher around runtime/net/net.c for tests (issue 7): runs CMD in a
 * new network + mount namespace (plus a user namespace when not root) with
 * the network sbx_net_prepare()/sbx_net_attach() give it, /etc/hosts and
 * /etc/resolv.conf bound over from the rendered text, then sbx_net_cleanup().
 * It proves the network library independently of `sbx run`; it is not a
 * sandbox (no seccomp, no capability drop).
 *
 *   sbx-net-harness [--network MODE] [--dns IP]... [--add-host H:IP]...
 *                   [--hostname NAME] -- CMD [ARGS...]
 * Exit: CMD's status, 2 for refused options, 125 for setup errors. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net/net.h"
#include "net/rtnl.h"

static void die_child(const char *what) {
        fprintf(stderr, "sbx-net-harness (child): %s: %s\n", what, strerror(errno));
        _exit(125);
}

static void bind_text(const char *text, const char *dst) {
        char src[] = "/dev/shm/sbx-net-harness-XXXXXX";
        int fd;

        /* A memfd cannot be a bind source (its mount is internal): use a file. */
        if (!text)
                return;
        fd = mkostemp(src, O_CLOEXEC);
        if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t) strlen(text))
                die_child("temporary file");
        close(fd);
        if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
                die_child(dst);
        (void) unlink(src);
}

static void child(const sbx_net_plan *p, int ready, int go, char **argv) {
        int flags = CLONE_NEWNET | CLONE_NEWNS | (geteuid() == 0 ? 0 : CLONE_NEWUSER);
        sbx_rtnl *r = NULL;
        sbx_link_info lo;
        sbx_link_change up = SBX_LINK_CHANGE_INIT;
        sbx_error err = {};
        char c = 0;

        if (unshare(flags) < 0)
                die_child("unshare");
        if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1 || c != 'g')
                _exit(125);
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                die_child("make / private");
        bind_text(p->hosts, "/etc/hosts");
        bind_text(p->resolv_conf, "/etc/resolv.conf");
        up.up = true;
        if (sbx_rtnl_open(&r, &err) < 0 || sbx_rtnl_link_get(r, "lo", &lo, &err) < 0 ||
            sbx_rtnl_link_set(r, lo.ifindex, &up, &err) < 0) {
                fprintf(stderr, "sbx-net-harness (child): lo up: %s\n", err.msg);
                _exit(125);
        }
        sbx_rtnl_close(r);
        execvp(argv[0], argv);
        die_child(argv[0]);
}

static int write_file(pid_t pid, const char *name, const char *text) {
        char path[64];
        int fd, k = 0;

        snprintf(path, sizeof(path), "/proc/%d/%s", (int) pid, name);
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t) strlen(text))
                k = -errno;
        if (fd >= 0)
                close(fd);
        return k;
}

int main(int argc, char **argv) {
        static const struct option opts[] = {
                { "network", required_argument, NULL, 'n' },
                { "dns", required_argument, NULL, 'd' },
                { "add-host", required_argument, NULL, 'a' },
                { "hostname", required_argument, NULL, 'h' },
                {}
        };
        char *dns[16], *hosts[16], map[64], nspath[64];
        sbx_net_request req = { .dns = dns, .extra_hosts = hosts, .hostname = "sbx" };
        sbx_net_plan plan;
        sbx_error err = {};
        int ready[2], go[2], c, k, status, nsfd;
        pid_t pid;

        while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1)
                switch (c) {
                case 'n':
                        k = sbx_net_mode_parse(optarg, false, NULL, &err);
                        req.bridge = k == SBX_NET_MODE_BRIDGE;
                        if (k < 0) {
                                fprintf(stderr, "sbx-net-harness: --network: %s\n", err.msg);
                                return 2;
                        }
                        break;
                case 'd':
                        if (req.n_dns < 16)
                                dns[req.n_dns++] = optarg;
                        break;
                case 'a':
                        if (req.n_extra_hosts < 16)
                                hosts[req.n_extra_hosts++] = optarg;
                        break;
                case 'h':
                        req.hostname = optarg;
                        break;
                default:
                        return 2;
                }
        if (optind >= argc) {
                fprintf(stderr, "usage: sbx-net-harness [OPTIONS] -- CMD [ARGS...]\n");
                return 2;
        }
        k = sbx_net_request_validate(&req, &err);
        if (k < 0) {
                fprintf(stderr, "sbx-net-harness: %s\n", err.msg);
                return 2;
        }
        k = sbx_net_prepare(&req, &plan, &err);
        if (k < 0) {
                fprintf(stderr, "sbx-net-harness: %s\n", err.msg);
                return 125;
        }
        if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0)
                return 125;
        pid = fork();
        if (pid == 0)
                child(&plan, ready[1], go[0], argv + optind);
        close(ready[1]);
        close(go[0]);
        if (read(ready[0], &c, 1) != 1)
                goto fail;
        if (geteuid() != 0) {
                snprintf(map, sizeof(map), "0 %u 1\n", (unsigned) getuid());
                if (write_file(pid, "uid_map", map) < 0 || write_file(pid, "setgroups", "deny") < 0)
                        goto fail;
                snprintf(map, sizeof(map), "0 %u 1\n", (unsigned) getgid());
                if (write_file(pid, "gid_map", map) < 0)
                        goto fail;
        }
        snprintf(nspath, sizeof(nspath), "/proc/%d/ns/net", (int) pid);
        nsfd = open(nspath, O_RDONLY | O_CLOEXEC);
        if (nsfd < 0 || sbx_net_attach(&plan, pid, nsfd, &err) < 0) {
                fprintf(stderr, "sbx-net-harness: %s\n", err.msg[0] ? err.msg : strerror(errno));
                goto fail;
        }
        close(nsfd);
        if (write(go[1], "g", 1) != 1)
                goto fail;
        if (waitpid(pid, &status, 0) != pid)
                goto fail;
        sbx_net_cleanup(&plan);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
fail:
        kill(pid, SIGKILL);
        (void) waitpid(pid, NULL, 0);
        sbx_net_cleanup(&plan);
        return 125;
}

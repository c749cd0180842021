/* SPDX-License-Identifier: MIT */
/* network "bridge" without root (issue 7): pasta (Debian package passt), the
 * way rootless podman does it. pasta runs as the calling user in the host's
 * network namespace, joins the sandbox's user and network namespaces to make
 * a tap interface there (eth0, addresses and routes copied from the host's
 * default-route interface, --config-net), and relays the sandbox's TCP/UDP
 * through ordinary sockets it opens as that user. So the sandbox can reach
 * exactly what the user can, nothing needs privileges, and there is no NAT
 * state on the host.
 *
 * Flags and why:
 *   -t none -u none    no port of the sandbox is published on the host
 *   -T none -U none    no port of the host's loopback is forwarded into the
 *                      sandbox's loopback
 *   --no-map-gw        unless extraHosts asks for host-gateway: otherwise pasta
 *                      maps connections to the gateway address onto the
 *                      host's loopback (that mapping *is* host-gateway)
 *   --no-dhcp --no-ndp --no-dhcpv6 --no-ra   --config-net configures the
 *                      interface; pasta need not answer anything else
 *   -4                 IPv4 only (sbx's bridge mode is IPv4 too)
 *   -i IF -g GW        the default route sbx chose, so the gateway in the
 *                      sandbox is the address sbx writes for host-gateway
 *   -P FILE            pasta daemonizes once the interface is configured; the
 *                      pid file lets sbx stop it at teardown. A record of it
 *                      stays in $XDG_RUNTIME_DIR/sbx-net (or /tmp/sbx-net-UID)
 *                      so a later run can stop a pasta whose sbx was killed. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/rtnetlink.h>
#include <unistd.h>

#include "util/util.h"
#include "net.h"
#include "rtnl.h"

#define PASTA_TIMEOUT_MS 10000

static int record_dir(char *ret, size_t len, sbx_error *reterr) {
        const char *xdg = getenv("XDG_RUNTIME_DIR");
        struct stat st;

        if (xdg && xdg[0] == '/')
                snprintf(ret, len, "%s/sbx-net", xdg);
        else
                snprintf(ret, len, "/tmp/sbx-net-%u", (unsigned) getuid());
        if (mkdir(ret, 0700) < 0 && errno != EEXIST)
                return sbx_error_set(reterr, negative_errno(), "create %s", ret);
        /* In /tmp someone else may have made it first: it must be ours, a real
         * directory, and private. */
        if (lstat(ret, &st) < 0)
                return sbx_error_set(reterr, negative_errno(), "stat %s", ret);
        if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
                return sbx_error_set(reterr, -EPERM, "%s is not a private directory owned by uid %u",
                                     ret, (unsigned) getuid());
        return 0;
}

typedef struct default_route {
        int oif;
        struct in_addr gw;
} default_route;

static int find_default(const sbx_route_info *r, void *userdata) {
        default_route *d = userdata;

        if (d->oif == 0 && r->dst_len == 0 && r->table == RT_TABLE_MAIN && r->oif > 0 &&
            r->gateway.s_addr != 0) {
                d->oif = r->oif;
                d->gw = r->gateway;
        }
        return 0;
}

int sbx_pasta_prepare(sbx_net_plan *p, sbx_error *reterr) {
        _cleanup_(sbx_rtnl_closep) sbx_rtnl *r = NULL;
        _cleanup_close_ int tun = -EBADF;
        default_route d = {};
        char path[64];
        int k;

        if (sbx_tool_find("pasta", path, sizeof(path)) < 0)
                return sbx_error_set(reterr, -ENOENT,
                                     "network bridge without root needs pasta (Debian package passt)");
        tun = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
        if (tun < 0)
                return sbx_error_set(reterr, negative_errno(),
                                     "network bridge without root: pasta cannot open /dev/net/tun "
                                     "(it must be readable and writable by your user; Debian's udev "
                                     "rule makes it 0666)");
        k = sbx_rtnl_open(&r, reterr);
        if (k >= 0)
                k = sbx_rtnl_routes4(r, find_default, &d, reterr);
        if (k < 0)
                return sbx_error_wrap(reterr, "network bridge (pasta)"), k;
        if (d.oif == 0 || !if_indextoname((unsigned) d.oif, p->pasta_if))
                return sbx_error_set(reterr, -ENETUNREACH,
                                     "network bridge without root: the host has no IPv4 default route "
                                     "via a gateway for pasta to use");
        p->pasta_gw = d.gw;
        inet_ntop(AF_INET, &d.gw, p->gateway_addr, sizeof(p->gateway_addr));
        (void) sbx_pasta_gc(NULL);
        return 0;
}

static int read_pid(const char *path, pid_t *ret) {
        char buf[32] = "";
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        int pid;

        if (fd < 0)
                return negative_errno();
        if (read(fd, buf, sizeof(buf) - 1) <= 0 || sscanf(buf, "%d", &pid) != 1 || pid <= 1)
                return -EBADMSG;
        *ret = pid;
        return 0;
}

static bool is_pasta(pid_t pid) {
        char path[64], comm[32] = "";
        _cleanup_close_ int fd = -EBADF;

        snprintf(path, sizeof(path), "/proc/%d/comm", (int) pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || read(fd, comm, sizeof(comm) - 1) <= 0)
                return false;
        /* pasta re-executes itself as passt.avx2 where the CPU has AVX2 */
        return strncmp(comm, "pasta", 5) == 0 || strncmp(comm, "passt", 5) == 0;
}

int sbx_pasta_attach(sbx_net_plan *p, pid_t child, sbx_error *reterr) {
        char dir[200], gw[INET_ADDRSTRLEN], pidarg[16], err[400];
        const char *argv[40];
        size_t n = 0;
        pid_t pid;
        int k;

        k = record_dir(dir, sizeof(dir), reterr);
        if (k < 0)
                return sbx_error_wrap(reterr, "network bridge (pasta)"), k;
        snprintf(p->pasta_record, sizeof(p->pasta_record), "%s/pasta-%d.pid", dir, (int) child);
        (void) unlink(p->pasta_record);
        inet_ntop(AF_INET, &p->pasta_gw, gw, sizeof(gw));
        snprintf(pidarg, sizeof(pidarg), "%d", (int) child);

        argv[n++] = "pasta";
        argv[n++] = "--config-net";
        argv[n++] = "--quiet";
        argv[n++] = "-4";
        argv[n++] = "-I";
        argv[n++] = "eth0";
        argv[n++] = "-i";
        argv[n++] = p->pasta_if;
        argv[n++] = "-g";
        argv[n++] = gw;
        argv[n++] = "-t";
        argv[n++] = "none";
        argv[n++] = "-u";
        argv[n++] = "none";
        argv[n++] = "-T";
        argv[n++] = "none";
        argv[n++] = "-U";
        argv[n++] = "none";
        argv[n++] = "--no-dhcp";
        argv[n++] = "--no-ndp";
        argv[n++] = "--no-dhcpv6";
        argv[n++] = "--no-ra";
        if (!p->host_gateway)
                argv[n++] = "--no-map-gw";
        argv[n++] = "-P";
        argv[n++] = p->pasta_record;
        argv[n++] = pidarg;               /* join the user + network namespace of the sandbox */
        argv[n] = NULL;

        k = sbx_tool_run(argv, NULL, PASTA_TIMEOUT_MS, err, sizeof(err), reterr);
        if (k < 0)
                return sbx_error_wrap(reterr, "network bridge (pasta)"), k;
        if (k != 0) {
                (void) unlink(p->pasta_record);
                p->pasta_record[0] = '\0';
                return sbx_error_set(reterr, -EIO, "network bridge (pasta): pasta exited with %d: %s",
                                     k, err[0] ? err : "(no message)");
        }
        k = read_pid(p->pasta_record, &pid);
        if (k < 0)
                return sbx_error_set(reterr, k, "network bridge (pasta): read pid file %s",
                                     p->pasta_record);
        p->pasta_pid = pid;
        p->pasta_pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
        if (p->pasta_pidfd < 0 || !is_pasta(pid))
                return sbx_error_set(reterr, -ESRCH, "network bridge (pasta): pasta (pid %d) is gone",
                                     (int) pid);
        return 0;
}

void sbx_pasta_cleanup(sbx_net_plan *p) {
        if (p->pasta_pidfd >= 0) {
                struct pollfd pfd = { p->pasta_pidfd, POLLIN, 0 };

                /* pasta is not our child (it daemonized): the pidfd turns readable
                 * once it has exited, so teardown ends with it really gone. */
                (void) syscall(SYS_pidfd_send_signal, p->pasta_pidfd, SIGKILL, NULL, 0);
                (void) poll(&pfd, 1, 2000);
                closep(&p->pasta_pidfd);
                p->pasta_pidfd = -EBADF;
        }
        if (p->pasta_record[0])
                (void) unlink(p->pasta_record);
        p->pasta_record[0] = '\0';
        p->pasta_pid = 0;
}

/* Alive = exists and is not a zombie: the pid 1 of a persistent sandbox
 * that its own sbx just killed is a zombie until that sbx reaps it. Unsure
 * (no access) counts as alive: never stop a pasta that may be in use. */
static bool sandbox_alive(pid_t pid) {
        uint64_t t;
        int r = sbx_proc_start_time(pid, &t);

        return r >= 0 || (r != -ENOENT && r != -ESRCH);
}

/* pasta-<sandbox pid>.pid records whose sandbox is gone: stop that pasta. */
int sbx_pasta_gc(sbx_error *reterr) {
        char dir[200];
        DIR *d;
        struct dirent *de;
        int k;

        k = record_dir(dir, sizeof(dir), reterr);
        if (k < 0)
                return k;
        d = opendir(dir);
        if (!d)
                return sbx_error_set(reterr, negative_errno(), "open %s", dir);
        while ((de = readdir(d))) {
                char path[512];
                int spid;
                pid_t pid;

                if (sscanf(de->d_name, "pasta-%d.pid", &spid) != 1 || spid <= 1)
                        continue;
                if (sandbox_alive(spid))
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                if (read_pid(path, &pid) >= 0 && is_pasta(pid)) {
                        _cleanup_close_ int pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
                        struct pollfd pfd = { pidfd, POLLIN, 0 };

                        (void) kill(pid, SIGKILL);
                        /* gone when we return: rm/prune leave nothing running */
                        if (pidfd >= 0)
                                (void) poll(&pfd, 1, 2000);
                }
                (void) unlink(path);
        }
        closedir(d);
        return 0;
}

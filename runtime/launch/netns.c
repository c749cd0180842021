/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "netns.h"

int sbx_netns_setup_child(const sbx_plan *p, sbx_error *reterr) {
        char buf[MNL_SOCKET_BUFFER_SIZE < 8192 ? MNL_SOCKET_BUFFER_SIZE : 8192];
        struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
        struct nlmsghdr *nlh;
        struct ifinfomsg *ifm;
        unsigned seq = (unsigned) time(NULL);
        ssize_t n;
        int fd, r;

        fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "network: open rtnetlink socket");
        nlh = mnl_nlmsg_put_header(buf);
        nlh->nlmsg_type = RTM_NEWLINK;
        nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
        nlh->nlmsg_seq = seq;
        ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
        ifm->ifi_family = AF_UNSPEC;
        ifm->ifi_index = 0;
        ifm->ifi_flags = IFF_UP;
        ifm->ifi_change = IFF_UP;
        mnl_attr_put_strz(nlh, IFLA_IFNAME, "lo");
        if (sendto(fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
                r = -errno;
                close(fd);
                return sbx_error_set(reterr, r, "network: send RTM_NEWLINK lo up");
        }
        n = recv(fd, buf, sizeof(buf), 0);
        if (n < 0) {
                r = -errno;
                close(fd);
                return sbx_error_set(reterr, r, "network: receive rtnetlink ack");
        }
        /* mnl_cb_run turns an NLMSG_ERROR with a non-zero code into -1/errno. */
        r = mnl_cb_run(buf, n, seq, 0, NULL, NULL);
        close(fd);
        if (r < 0)
                return sbx_error_set(reterr, -errno, "network: bring lo up");
        return 0;
}

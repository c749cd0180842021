/* SPDX-License-Identifier: MIT */
/* Unit tests for the pure parts of the network facility (issue 7): mode
 * refusals, extraHosts/dns parsing, /etc/hosts and resolv.conf rendering. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/net.h"
#include "unit.h"

START_TEST(test_net_mode_none_and_bridge_are_accepted) {
        const char *name = "x";
        ck_assert_int_eq(sbx_net_mode_parse("none", false, &name, NULL), SBX_NET_MODE_NONE);
        ck_assert_ptr_null(name);
        ck_assert_int_eq(sbx_net_mode_parse(NULL, false, NULL, NULL), SBX_NET_MODE_NONE);
        ck_assert_int_eq(sbx_net_mode_parse("bridge", false, NULL, NULL), SBX_NET_MODE_BRIDGE);
}
END_TEST

START_TEST(test_net_mode_host_is_refused_naming_it) {
        sbx_error e = {};
        ck_assert_int_eq(sbx_net_mode_parse("host", true, NULL, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'host'"));
        /* OpenClaw checks case-insensitively */
        ck_assert_int_eq(sbx_net_mode_parse("HOST", true, NULL, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'HOST'"));
}
END_TEST

START_TEST(test_net_mode_container_needs_the_dangerous_flag) {
        sbx_error e = {};
        const char *name = NULL;
        ck_assert_int_eq(sbx_net_mode_parse("container:peer", false, &name, &e), -EPERM);
        ck_assert_ptr_nonnull(strstr(e.msg, "dangerouslyAllowContainerNamespaceJoin"));
        ck_assert_int_eq(sbx_net_mode_parse("Container:peer", false, &name, &e), -EPERM);
        /* with it: the name of the sandbox to join */
        ck_assert_int_eq(sbx_net_mode_parse("container:peer", true, &name, &e), SBX_NET_MODE_CONTAINER);
        ck_assert_str_eq(name, "peer");
        ck_assert_int_eq(sbx_net_mode_parse("container:", true, &name, &e), -EINVAL);
}
END_TEST

START_TEST(test_net_mode_unknown_is_an_error_naming_the_value) {
        sbx_error e = {};
        ck_assert_int_eq(sbx_net_mode_parse("macvlan", false, NULL, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "'macvlan'"));
}
END_TEST

START_TEST(test_net_join_refuses_dns_and_extra_hosts) {
        char *dns[] = { "10.0.0.53", NULL };
        sbx_net_request req = { .join = true, .join_fd = -1, .join_name = "peer", .dns = dns, .n_dns = 1 };
        sbx_error e = {};
        ck_assert_int_eq(sbx_net_request_validate(&req, &e), -EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "container:peer"));
        req.n_dns = 0;
        ck_assert_int_eq(sbx_net_request_validate(&req, &e), 0);
}
END_TEST

START_TEST(test_extra_host_forms) {
        sbx_extra_host h;
        ck_assert_int_eq(sbx_extra_host_parse("db:10.0.0.5", &h, NULL), 0);
        ck_assert_str_eq(h.name, "db");
        ck_assert_str_eq(h.addr, "10.0.0.5");
        ck_assert(!h.host_gateway);
        ck_assert_int_eq(sbx_extra_host_parse("v6:fd00::5", &h, NULL), 0);
        ck_assert_str_eq(h.addr, "fd00::5");
        ck_assert_int_eq(sbx_extra_host_parse("host.docker.internal:host-gateway", &h, NULL), 0);
        ck_assert(h.host_gateway);
        ck_assert_int_eq(sbx_extra_host_parse("noport", &h, NULL), -EINVAL);
        ck_assert_int_eq(sbx_extra_host_parse(":1.2.3.4", &h, NULL), -EINVAL);
        ck_assert_int_eq(sbx_extra_host_parse("a b:1.2.3.4", &h, NULL), -EINVAL);
        ck_assert_int_eq(sbx_extra_host_parse("x:1.2.3.400", &h, NULL), -EINVAL);
        ck_assert_int_eq(sbx_extra_host_parse("x:1.2.3.4\nevil", &h, NULL), -EINVAL);
}
END_TEST

START_TEST(test_dns_must_be_an_address) {
        ck_assert_int_eq(sbx_dns_parse("1.1.1.1", NULL), 0);
        ck_assert_int_eq(sbx_dns_parse("2001:db8::1", NULL), 0);
        ck_assert_int_eq(sbx_dns_parse("dns.example", NULL), -EINVAL);
        ck_assert_int_eq(sbx_dns_parse("1.1.1.1\noptions evil", NULL), -EINVAL);
}
END_TEST

START_TEST(test_hosts_render_resolves_host_gateway) {
        char *extra[] = { "db:10.0.0.5", "gw:host-gateway" };
        char *out = NULL;
        ck_assert_int_eq(sbx_hosts_render("box", "10.237.0.2", "10.237.0.1", extra, 2, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "127.0.0.1\tlocalhost\n"));
        ck_assert_ptr_nonnull(strstr(out, "10.237.0.2\tbox\n"));
        ck_assert_ptr_nonnull(strstr(out, "10.0.0.5\tdb\n"));
        ck_assert_ptr_nonnull(strstr(out, "10.237.0.1\tgw\n"));
        free(out);
        /* no gateway (network none): host-gateway is refused */
        ck_assert_int_eq(sbx_hosts_render("box", NULL, NULL, extra, 2, &out, NULL), -EADDRNOTAVAIL);
}
END_TEST

START_TEST(test_resolv_render_filters_loopback_resolvers) {
        char path[] = "/tmp/test-resolv-XXXXXX", *out = NULL;
        char *dns[] = { "10.9.9.9" };
        int fd = mkstemp(path);
        const char *host = "nameserver 127.0.0.53\nnameserver 192.0.2.53\nsearch example\n";

        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, host, strlen(host)), (ssize_t) strlen(host));
        close(fd);
        ck_assert_int_eq(sbx_resolv_render(NULL, 0, true, path, &out, NULL), 0);
        ck_assert_ptr_null(strstr(out, "127.0.0.53"));
        ck_assert_ptr_nonnull(strstr(out, "nameserver 192.0.2.53\n"));
        ck_assert_ptr_nonnull(strstr(out, "search example\n"));
        free(out);
        /* explicit dns replaces the host's */
        ck_assert_int_eq(sbx_resolv_render(dns, 1, true, path, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "nameserver 10.9.9.9\n"));
        ck_assert_ptr_null(strstr(out, "192.0.2.53"));
        free(out);
        unlink(path);
}
END_TEST

START_TEST(test_net_prepare_none_renders_without_touching_the_host) {
        char *extra[] = { "db:10.0.0.5" }, *dns[] = { "10.9.9.9" };
        sbx_net_request req = { .bridge = false, .dns = dns, .n_dns = 1,
                                .extra_hosts = extra, .n_extra_hosts = 1, .hostname = "h" };
        sbx_net_plan p;

        ck_assert_int_eq(sbx_net_prepare(&req, &p, NULL), 0);
        ck_assert_int_eq(p.kind, SBX_NET_KIND_NONE);
        ck_assert_ptr_nonnull(strstr(p.hosts, "10.0.0.5\tdb"));
        ck_assert_ptr_nonnull(strstr(p.resolv_conf, "nameserver 10.9.9.9"));
        sbx_net_cleanup(&p);
        ck_assert_ptr_null(p.hosts);
}
END_TEST

int main(void) {
        const TTest *tests[] = { test_net_mode_none_and_bridge_are_accepted,
                                 test_net_mode_host_is_refused_naming_it,
                                 test_net_mode_container_needs_the_dangerous_flag,
                                 test_net_mode_unknown_is_an_error_naming_the_value,
                                 test_net_join_refuses_dns_and_extra_hosts, test_extra_host_forms,
                                 test_dns_must_be_an_address, test_hosts_render_resolves_host_gateway,
                                 test_resolv_render_filters_loopback_resolvers,
                                 test_net_prepare_none_renders_without_touching_the_host };

        return unit_main("net-config", "parse", 0, CK_SILENT, tests, UNIT_N(tests));
}

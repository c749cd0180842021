/* SPDX-License-Identifier: MIT */
/* Name-resolution files for the sandbox: see hosts.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "util/util.h"

static bool valid_hostname(const char *s, size_t len) {
        if (len == 0 || len > 253 || s[0] == '-' || s[0] == '.')
                return false;
        for (size_t i = 0; i < len; i++) {
                char c = s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_'))
                        return false;
        }
        return true;
}

static bool valid_ip(const char *s) {
        unsigned char b[sizeof(struct in6_addr)];

        return inet_pton(AF_INET, s, b) == 1 || inet_pton(AF_INET6, s, b) == 1;
}

int sbx_extra_host_parse(const char *spec, sbx_extra_host *ret, sbx_error *reterr) {
        const char *colon = spec ? strchr(spec, ':') : NULL;
        sbx_extra_host h = {};

        if (!colon)
                return sbx_error_set(reterr, -EINVAL,
                                     "extraHosts entry '%s': expected HOST:IP or HOST:host-gateway",
                                     spec ? spec : "");
        if (!valid_hostname(spec, (size_t) (colon - spec)))
                return sbx_error_set(reterr, -EINVAL,
                                     "extraHosts entry '%s': invalid host name '%.*s'", spec,
                                     (int) (colon - spec), spec);
        memcpy(h.name, spec, (size_t) (colon - spec));
        if (strcmp(colon + 1, SBX_HOST_GATEWAY) == 0)
                h.host_gateway = true;
        else if (valid_ip(colon + 1) && strlen(colon + 1) < sizeof(h.addr))
                strcpy(h.addr, colon + 1);
        else
                return sbx_error_set(reterr, -EINVAL,
                                     "extraHosts entry '%s': '%s' is neither an IP address nor host-gateway",
                                     spec, colon + 1);
        *ret = h;
        return 0;
}

int sbx_dns_parse(const char *spec, sbx_error *reterr) {
        if (!spec || !valid_ip(spec))
                return sbx_error_set(reterr, -EINVAL, "dns '%s': not an IPv4 or IPv6 address",
                                     spec ? spec : "");
        return 0;
}

/* ip trimmed of whitespace at both ends, in its canonical text (Go's
 * net.ParseIP(strings.TrimSpace(s)).String(), docker's ValidateIPAddress) */
static bool canonical_ip(const char *s, size_t len, char *ret, size_t ret_len) {
        unsigned char b[sizeof(struct in6_addr)];
        char buf[INET6_ADDRSTRLEN + 8];

        while (len > 0 && strchr(" \t\n\r\f\v", *s) && *s)
                s++, len--;
        while (len > 0 && strchr(" \t\n\r\f\v", s[len - 1]) && s[len - 1])
                len--;
        if (len == 0 || len >= sizeof(buf) || memchr(s, '\0', len))
                return false;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (inet_pton(AF_INET, buf, b) == 1)
                return inet_ntop(AF_INET, b, ret, ret_len) != NULL;
        if (inet_pton(AF_INET6, buf, b) != 1)
                return false;
        /* an IPv4-mapped address is its IPv4 form in Go */
        if (IN6_IS_ADDR_V4MAPPED((struct in6_addr *) b))
                return inet_ntop(AF_INET, b + 12, ret, ret_len) != NULL;
        return inet_ntop(AF_INET6, b, ret, ret_len) != NULL;
}

int sbx_docker_dns_normalize(const char *spec, char **ret, sbx_error *reterr) {
        char ip[INET6_ADDRSTRLEN];

        if (!spec || !canonical_ip(spec, strlen(spec), ip, sizeof(ip)))
                return sbx_error_set(reterr, -EINVAL, "dns '%s': not an IPv4 or IPv6 address", spec ? spec : "");
        *ret = strdup(ip);
        return *ret ? 0 : sbx_error_set(reterr, -ENOMEM, "out of memory");
}

int sbx_docker_extra_host_normalize(const char *spec, char **ret, sbx_error *reterr) {
        const char *sep = spec ? strchr(spec, '=') : NULL;
        char ip[INET6_ADDRSTRLEN];
        const char *v;
        size_t vlen;

        if (spec && !sep)
                sep = strchr(spec, ':');
        if (!sep || sep == spec || memchr(spec, ':', (size_t) (sep - spec)))
                return sbx_error_set(reterr, -EINVAL, "extraHosts entry '%s': expected HOST:IP or HOST:host-gateway",
                                     spec ? spec : "");
        v = sep + 1;
        vlen = strlen(v);
        if (strcmp(v, SBX_HOST_GATEWAY) == 0)
                snprintf(ip, sizeof(ip), "%s", SBX_HOST_GATEWAY);
        else {
                if (vlen > 2 && v[0] == '[' && v[vlen - 1] == ']')
                        v++, vlen -= 2;
                if (!canonical_ip(v, vlen, ip, sizeof(ip)))
                        return sbx_error_set(reterr, -EINVAL,
                                             "extraHosts entry '%s': '%s' is neither an IP address nor host-gateway",
                                             spec, sep + 1);
        }
        if (asprintf(ret, "%.*s:%s", (int) (sep - spec), spec, ip) < 0) {
                *ret = NULL;
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        return 0;
}

bool sbx_extra_hosts_want_gateway(char *const *extra, size_t n) {
        sbx_extra_host h;

        for (size_t i = 0; i < n; i++)
                if (sbx_extra_host_parse(extra[i], &h, NULL) >= 0 && h.host_gateway)
                        return true;
        return false;
}

/* An open_memstream() that is closed and freed on every path. */
typedef struct membuf {
        FILE *f;
        char *buf;
        size_t len;
} membuf;

static void membuf_done(membuf *m) {
        if (m->f)
                fclose(m->f);
        free(m->buf);
}

static int membuf_take(membuf *m, char **ret, sbx_error *reterr) {
        int k = fclose(m->f);

        m->f = NULL;
        if (k != 0 || !m->buf)
                return sbx_error_set(reterr, -ENOMEM, "render file: out of memory");
        *ret = TAKE_PTR(m->buf);
        return 0;
}

int sbx_hosts_render(const char *hostname, const char *self_addr, const char *gateway,
                     char *const *extra, size_t n_extra, char **ret, sbx_error *reterr) {
        _cleanup_(membuf_done) membuf m = {};

        m.f = open_memstream(&m.buf, &m.len);
        if (!m.f)
                return sbx_error_set(reterr, -ENOMEM, "render /etc/hosts");
        fputs("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n", m.f);
        if (hostname)
                fprintf(m.f, "%s\t%s\n", self_addr ? self_addr : "127.0.1.1", hostname);
        for (size_t i = 0; i < n_extra; i++) {
                sbx_extra_host h;
                int k = sbx_extra_host_parse(extra[i], &h, reterr);

                if (k < 0)
                        return k;
                if (h.host_gateway && !gateway)
                        return sbx_error_set(reterr, -EADDRNOTAVAIL,
                                             "extraHosts entry '%s': host-gateway needs network "
                                             "'bridge' (there is no host to reach with network 'none')",
                                             extra[i]);
                fprintf(m.f, "%s\t%s\n", h.host_gateway ? gateway : h.addr, h.name);
        }
        return membuf_take(&m, ret, reterr);
}

static bool loopback_resolver(const char *addr) {
        return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
               strcmp(addr, "0.0.0.0") == 0;
}

static void copy_host_resolv(FILE *out, const char *path) {
        _cleanup_free_ char *line = NULL;
        size_t cap = 0;
        FILE *in = fopen(path, "re");

        if (!in)
                return;
        while (getline(&line, &cap, in) > 0) {
                char word[32], addr[INET6_ADDRSTRLEN + 1];

                if (sscanf(line, "%31s", word) != 1)
                        continue;
                if (strcmp(word, "nameserver") == 0) {
                        if (sscanf(line, "%*s %46s", addr) == 1 && valid_ip(addr) &&
                            !loopback_resolver(addr))
                                fprintf(out, "nameserver %s\n", addr);
                } else if (strcmp(word, "search") == 0 || strcmp(word, "options") == 0)
                        fputs(line, out);
        }
        fclose(in);
}

int sbx_resolv_render(char *const *dns, size_t n_dns, bool copy_host, const char *host_resolv_path,
                      char **ret, sbx_error *reterr) {
        _cleanup_(membuf_done) membuf m = {};

        m.f = open_memstream(&m.buf, &m.len);
        if (!m.f)
                return sbx_error_set(reterr, -ENOMEM, "render /etc/resolv.conf");
        fputs("# generated by sbx\n", m.f);
        for (size_t i = 0; i < n_dns; i++) {
                int k = sbx_dns_parse(dns[i], reterr);
                if (k < 0)
                        return k;
                fprintf(m.f, "nameserver %s\n", dns[i]);
        }
        if (n_dns == 0 && copy_host)
                copy_host_resolv(m.f, host_resolv_path ? host_resolv_path : "/etc/resolv.conf");
        return membuf_take(&m, ret, reterr);
}

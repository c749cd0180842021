/* SPDX-License-Identifier: MIT */
/* The container's seccomp filters, compiled in the runtime before clone3:
 *  - linux.seccomp (the spec's JSON is Docker's profile format without
 *    archMap/includes: runtime/security's compiler takes it as is; errors
 *    name linux.seccomp.<path>), read as runc and crun do
 *    (SBX_SECCOMP_PARSE_OCI: a syscall name libseccomp does not know is
 *    skipped, `flags` TSYNC/LOG/SPEC_ALLOW go to seccomp(2));
 *  - sbx's layer (behind its prefix for syscalls newer than libseccomp,
 *    sbx_seccomp_compile_layer()): the always-on rules when the annotation
 *    org.sbx.seccomp=default asks for them, an OpenClaw agent's derived
 *    socket rule (org.sbx.policy.agent, oci-policy.c), and, when the process may hold
 *    CAP_MKNOD and the host gives no device cgroup (sbx_cgroup_devices_usable():
 *    not root, no devices hierarchy), a rule refusing block and character
 *    device nodes (EPERM) in its place; the nodes the runtime made stay. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci-internal.h"

#define CAP_MKNOD_BIT 27

/* value is the mask and valueTwo the masked result (Docker's and libseccomp's
 * order, as runc and crun read it): (mode & S_IFMT) == S_IFCHR or S_IFBLK. A
 * character node 0:0 is an overlayfs whiteout, which no device cgroup refuses
 * either (dev compared as 64 bits: a high word only refuses more). */
static const char device_rules[] =
        "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
        "{\"names\":[\"mknod\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1,"
        "\"args\":[{\"index\":1,\"value\":61440,\"valueTwo\":8192,\"op\":\"SCMP_CMP_MASKED_EQ\"},"
        "{\"index\":2,\"value\":0,\"op\":\"SCMP_CMP_NE\"}]},"
        "{\"names\":[\"mknod\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1,"
        "\"args\":[{\"index\":1,\"value\":61440,\"valueTwo\":24576,\"op\":\"SCMP_CMP_MASKED_EQ\"}]},"
        "{\"names\":[\"mknodat\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1,"
        "\"args\":[{\"index\":2,\"value\":61440,\"valueTwo\":8192,\"op\":\"SCMP_CMP_MASKED_EQ\"},"
        "{\"index\":3,\"value\":0,\"op\":\"SCMP_CMP_NE\"}]},"
        "{\"names\":[\"mknodat\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1,"
        "\"args\":[{\"index\":2,\"value\":61440,\"valueTwo\":24576,\"op\":\"SCMP_CMP_MASKED_EQ\"}]}]}";

/* Append b's rules to a (same default action assumed: ALLOW). */
static int merge(sbx_seccomp_profile *a, const sbx_seccomp_profile *b) {
        sbx_seccomp_rule *n = realloc(a->rules, sizeof(*n) * (a->n_rules + b->n_rules));

        if (!n)
                return -ENOMEM;
        a->rules = n;
        if (b->n_rules)
                memcpy(a->rules + a->n_rules, b->rules, sizeof(*n) * b->n_rules);
        a->n_rules += b->n_rules;
        for (size_t i = 0; i < b->n_rules; i++)
                if (b->rules[i].nr > a->max_nr)
                        a->max_nr = b->rules[i].nr;
        return 0;
}

/* more's rules into the layer (taken over when it is the first). */
static int add_to_layer(sbx_seccomp_profile *layer, bool *have_layer, sbx_seccomp_profile *more) {
        if (*have_layer)
                return merge(layer, more);
        *layer = *more;
        *more = (sbx_seccomp_profile) {};
        *have_layer = true;
        return 0;
}

int oci_seccomp_prepare(oci_config *c, sbx_error *reterr) {
        sbx_seccomp_profile layer = {}, more = {};
        sbx_bpf spec = {}, extra = {};
        json_object *lx = NULL, *sc = NULL;
        bool have_layer = false;
        int r = 0;

        if (json_object_object_get_ex(c->root, "linux", &lx))
                json_object_object_get_ex(lx, "seccomp", &sc);
        if (sc) {
                sbx_seccomp_profile prof = {};
                const char *text = json_object_to_json_string_ext(sc, JSON_C_TO_STRING_PLAIN);
                r = sbx_seccomp_profile_parse(text, strlen(text), "config.json linux.seccomp",
                                              SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES | SBX_SECCOMP_PARSE_OCI,
                                              &prof, reterr);
                if (r >= 0)
                        r = sbx_seccomp_compile_profile(&prof, &spec, reterr);
                spec.flags = prof.filter_flags;
                if (r >= 0 && prof.n_unknown)
                        oci_config_warn(c, "linux.seccomp: %zu syscall name(s) libseccomp does not know "
                                        "ignored (as runc and crun)", prof.n_unknown);
                sbx_seccomp_profile_done(&prof);
                if (r < 0)
                        return sbx_error_wrap(reterr, "config.json: linux.seccomp"), r;
        }
        if (c->sbx_seccomp_default) {
                r = sbx_seccomp_profile_load_embedded("always-on", &layer, reterr);
                if (r < 0)
                        goto out;
                have_layer = true;
        }
        /* an agent's derived rule (oci-policy.c): no sockets but AF_UNIX */
        if (c->ctr.rules && c->ctr.rules->seccomp.deny_inet_sockets) {
                r = sbx_seccomp_profile_load_embedded("derived-no-network", &more, reterr);
                if (r >= 0)
                        r = add_to_layer(&layer, &have_layer, &more);
                sbx_seccomp_profile_done(&more);
                if (r < 0)
                        goto out;
        }
        if ((c->ctr.proc.caps[0] & (1ull << CAP_MKNOD_BIT)) && !sbx_cgroup_devices_usable()) {
                r = sbx_seccomp_profile_parse(device_rules, strlen(device_rules), "sbx device rules", 0, &more, reterr);
                if (r >= 0)
                        r = add_to_layer(&layer, &have_layer, &more);
                sbx_seccomp_profile_done(&more);
                if (r < 0)
                        goto out;
        }
        if (have_layer) {
                r = sbx_seccomp_compile_layer(&layer, &extra, reterr);
                if (r < 0)
                        goto out;
        }
        /* base = the spec's filter (or, alone, our layer) */
        if (spec.len) {
                c->ctr.seccomp = spec;
                spec = (sbx_bpf) {};
                c->ctr.seccomp.layer_insns = extra.insns;
                c->ctr.seccomp.layer_len = extra.len;
                extra = (sbx_bpf) {};
        } else if (extra.len) {
                c->ctr.seccomp = extra;
                extra = (sbx_bpf) {};
        }
out:
        sbx_seccomp_profile_done(&layer);
        sbx_bpf_free(&spec);
        sbx_bpf_free(&extra);
        return r;
}

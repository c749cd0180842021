/* SPDX-License-Identifier: MIT */
/* sbx's hardening for an OpenClaw agent, opted into by annotations:
 *   org.sbx.openclaw.config=<openclaw.json>  org.sbx.policy.agent=<agentId>
 *   [org.sbx.policy.session=<sessionKey>]
 * The rules are the ones the docker drop-in gives that agent's sandboxes:
 * the same code path (runtime/cli cli_agent_rules -> runtime/agent
 * sbx_sandbox_rules_apply) into a run config, which the launcher enforces
 * in the container (runtime/launch container.c: exec decided before
 * clone3, Landlock) and oci-seccomp.c (the socket rule). The container's
 * shape (mounts, namespaces, resources, capabilities) stays config.json's;
 * no_new_privs is set, as in every sbx sandbox (Landlock needs it).
 *
 * Annotation values are the pod author's (Kubernetes passes pod
 * annotations through), and the runtime reads the file as root, so the
 * file is opened under a rule (open_config) and every refusal reads the
 * same as a missing file: the annotation cannot probe the host.
 *
 * The rules are derived once, at create, and recorded in the state dir
 * (policy.json); start and exec apply the recorded rules and never read
 * openclaw.json again: an edit after create neither widens nor narrows a
 * running container (recreate it). Decisions go to <state dir>/audit.jsonl,
 * or the operator's --audit-log. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "oci-internal.h"

#define POLICY_FILE "policy.json"

/* Without a directory list: path (absolute) opened O_PATH one component at a
 * time, each directory on the way searchable by others (a 0644 file in a 0700
 * dir is not every user's); -1 if not. */
static int open_public(const char *path, unsigned long long resolve) {
        char buf[PATH_MAX], *p = buf, *slash;
        struct stat st;
        int dfd, fd;

        if (path[0] != '/' || snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf))
                return -1;
        dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        for (; dfd >= 0 && (slash = strchr(p, '/')); p = slash + 1) {
                *slash = '\0';
                if (*p) {
                        fd = sys_openat2(dfd, p, O_PATH | O_DIRECTORY | O_CLOEXEC, resolve);
                        close(dfd);
                        dfd = fd;
                }
                if (dfd >= 0 && (fstat(dfd, &st) < 0 || !(st.st_mode & S_IXOTH))) {
                        close(dfd);
                        dfd = -1;
                }
        }
        if (dfd < 0)
                return -1;
        fd = sys_openat2(dfd, p, O_PATH | O_CLOEXEC, resolve);
        close(dfd);
        return fd;
}

/* The rule for the file: opened without following a symlink in any
 * component (openat2 RESOLVE_NO_SYMLINKS; beneath the directory with
 * RESOLVE_BENEATH when the operator lists directories), as O_PATH first (a
 * device named there is never opened), and then only if sbx_open_trusted
 * takes it (a regular file with one link: a hardlink would let whoever can
 * write a directory name any file of the same filesystem, a root-only one
 * too; owned by root or by the runtime's own uid, writable by no group or
 * other); without a directory list it must also be readable by others and
 * every directory on its path searchable by others (open_public), so the
 * runtime, root, reads nothing every host user could not. The files it
 * $includes are taken only under the same rule (sbx_config_load_fd). 0
 * with *ret_fd open for reading, else -1 (the reason is not told). */
static int open_config(const char *path, const char *dirs, int *ret_fd) {
        const unsigned long long resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        int pfd = -EBADF, fd;

        if (dirs && *dirs) {
                const char *d = dirs;
                while (*d && pfd < 0) {
                        size_t n = strcspn(d, ":"), k = n;
                        while (k > 1 && d[k - 1] == '/')
                                k--;
                        if (k > 0 && d[0] == '/' && !strncmp(path, d, k) && (path[k] == '/' || k == 1)) {
                                char dir[PATH_MAX];
                                int dfd;
                                snprintf(dir, sizeof(dir), "%.*s", (int) k, d);
                                dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
                                if (dfd >= 0) {
                                        pfd = sys_openat2(dfd, path + k + (k > 1), O_PATH | O_CLOEXEC,
                                                          resolve | RESOLVE_BENEATH);
                                        close(dfd);
                                }
                        }
                        d += n + (d[n] == ':');
                }
        } else
                pfd = open_public(path, resolve);
        fd = sbx_open_trusted(pfd, !(dirs && *dirs));
        if (fd < 0)
                return -1;
        *ret_fd = fd;
        return 0;
}

static void config_sha256(int fd, char hex[SBX_SHA256_HEX_SIZE]) {
        struct sbx_sha256 s;
        char buf[8192];
        ssize_t n;

        sbx_sha256_init(&s);
        while ((n = read(fd, buf, sizeof(buf))) > 0)
                sbx_sha256_update(&s, buf, (size_t) n);
        sbx_sha256_final_hex(&s, hex);
        (void) lseek(fd, 0, SEEK_SET);
}

static int dup_into(char **dst, const char *s) {
        *dst = s ? strdup(s) : NULL;
        return s && !*dst ? -ENOMEM : 0;
}

/* policy.json's names for who's strings */
#define WHO_FIELDS(w) { { "agent", &(w)->agent }, { "session", &(w)->session }, \
                        { "scopeKey", &(w)->scope_key }, { "config", &(w)->config } }
typedef struct who_field {
        const char *key;
        char **value;
} who_field;

int oci_policy_prepare(oci_config *c, const char *config_dirs, sbx_error *reterr) {
        sbx_sandbox_policy who = {};
        char path[2 * PATH_MAX + 2];
        int fd = -EBADF, r;

        if (!c->policy_agent)
                return 0;
        /* a relative path is the bundle's, like root.path */
        snprintf(path, sizeof(path), "%s%s%s", c->policy_config[0] == '/' ? "" : c->bundle,
                 c->policy_config[0] == '/' ? "" : "/", c->policy_config);
        if (open_config(path, config_dirs, &fd) < 0)
                return sbx_error_set(reterr, -ENOENT, "config.json: annotations org.sbx.openclaw.config '%s': "
                                     "No such file or directory, or it is not a regular file sbx-runc may read "
                                     "(see sbx-runc --help: one link, owned by root or the runtime's user, writable "
                                     "by no group or other, no symlink in its path; readable by others, or under an "
                                     "--annotation-config-dir)", c->policy_config);
        config_sha256(fd, c->who.config_sha256);
        sbx_run_config_init(&c->rules);
        c->ctr.rules = &c->rules;
        r = cli_agent_rules(path, fd, false, NULL, c->policy_agent, c->policy_session, &c->rules, &who, reterr);
        close(fd);
        {
                const char *from[] = { who.agent, who.session, who.scope_key, who.config_path };
                who_field to[] = WHO_FIELDS(&c->who);
                for (size_t i = 0; i < ELEMENTSOF(to) && r >= 0; i++)
                        if (dup_into(to[i].value, from[i]) < 0)
                                r = sbx_error_set(reterr, -ENOMEM, "out of memory");
        }
        cli_policy_free(&who);
        if (r < 0)
                return sbx_error_wrap(reterr, "config.json: annotations org.sbx.openclaw.config '%s', "
                                      "org.sbx.policy.agent '%s'", c->policy_config, c->policy_agent), r;
        c->ctr.proc.no_new_privs = true;
        return 0;
}

int oci_policy_record(const oci_config *c, const char *state_dir, sbx_error *reterr) {
        oci_policy_who *w = (oci_policy_who *) &c->who;
        who_field fields[] = WHO_FIELDS(w);
        json_object *o, *rules;
        char path[PATH_MAX + 32];
        const char *text;
        int r;

        if (!c->ctr.rules)
                return 0;
        o = json_object_new_object();
        rules = json_object_new_object();
        for (size_t i = 0; i < ELEMENTSOF(fields); i++)
                json_object_object_add(o, fields[i].key, sbx_json_string(*fields[i].value));
        json_object_object_add(o, "configSha256", json_object_new_string(c->who.config_sha256));
        /* sbx's sandbox records hold the same keys (sandbox-record.c) */
        json_object_object_add(rules, "deny_inet_sockets", json_object_new_boolean(c->rules.seccomp.deny_inet_sockets));
        sbx_rules_config_add(rules, &c->rules);
        json_object_object_add(o, "rules", rules);
        text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        snprintf(path, sizeof(path), "%s/" POLICY_FILE, state_dir);
        r = sbx_write_file_atomic(path, text, strlen(text), 0600, false);
        json_object_put(o);
        return r < 0 ? sbx_error_set(reterr, r, "state: write %s", path) : 0;
}

static const char *jstr(json_object *o, const char *key) {
        json_object *v;
        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
                json_object_get_string(v) : NULL;
}

int oci_policy_load(oci_config *c, const char *state_dir, sbx_error *reterr) {
        who_field fields[] = WHO_FIELDS(&c->who);
        _cleanup_free_ char *text = NULL;
        char path[PATH_MAX + 32];
        json_object *o = NULL, *rules, *v;
        size_t len;
        int r;

        if (!c->policy_agent)
                return 0;
        snprintf(path, sizeof(path), "%s/" POLICY_FILE, state_dir);
        r = sbx_read_file("the rules recorded at create", path, 1 << 20, &text, &len, reterr);
        if (r >= 0 && (!(o = json_tokener_parse(text)) || !json_object_object_get_ex(o, "rules", &rules) ||
                       !json_object_is_type(rules, json_type_object)))
                r = sbx_error_set(reterr, -EBADMSG, "'%s' is not valid", path);
        if (r < 0) {
                json_object_put(o);
                /* fail closed: never a container with annotations and no rules */
                return sbx_error_wrap(reterr, "the container's OpenClaw rules (annotation org.sbx.policy.agent "
                                      "'%s'): recreate the container", c->policy_agent), r;
        }
        sbx_run_config_init(&c->rules);
        c->ctr.rules = &c->rules;
        r = sbx_rules_config_parse(rules, &c->rules);
        if (json_object_object_get_ex(rules, "deny_inet_sockets", &v))
                c->rules.seccomp.deny_inet_sockets = json_object_get_boolean(v);
        for (size_t i = 0; i < ELEMENTSOF(fields) && r >= 0; i++)
                if (dup_into(fields[i].value, jstr(o, fields[i].key)) < 0)
                        r = -ENOMEM;
        snprintf(c->who.config_sha256, sizeof(c->who.config_sha256), "%s", jstr(o, "configSha256") ?: "");
        json_object_put(o);
        if (r < 0)
                return sbx_error_set(reterr, r, "'%s': the recorded rules are not valid: recreate the container",
                                     path);
        c->ctr.proc.no_new_privs = true;
        return 0;
}

int oci_policy_audit_open(const oci_config *c, const oci_state *st, const char *audit_log, sbx_audit *ret,
                          sbx_error *reterr) {
        *ret = (sbx_audit) { .fd = -EBADF, .agent = c->who.agent, .session = c->who.session,
                             .scope_key = c->who.scope_key, .container = st->id };
        if (!c->ctr.rules)
                return 0;
        return sbx_audit_open(ret, audit_log && *audit_log ? audit_log : NULL, st->dir, reterr);
}

void oci_policy_who_done(oci_policy_who *w) {
        free(w->agent);
        free(w->session);
        free(w->scope_key);
        free(w->config);
        *w = (oci_policy_who) {};
}

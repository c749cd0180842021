/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "security.h"
#include "util/util.h"

static void json_putp(json_object **o) {
        if (*o)
                json_object_put(*o);
}

int sbx_audit_open(sbx_audit *a, const char *path, const char *base, sbx_error *reterr) {
        char def[PATH_MAX];
        int fd;

        if (!path) {
                if (snprintf(def, sizeof(def), "%s/audit.jsonl", base) >= (int) sizeof(def))
                        return sbx_error_set(reterr, -ENAMETOOLONG, "--audit-log: state dir '%s' too long", base);
                if (mkdir(base, 0711) < 0 && errno != EEXIST)
                        return sbx_error_set(reterr, -errno, "--audit-log: create the state dir '%s'", base);
                path = def;
        }
        /* O_NONBLOCK: a FIFO no process reads fails (ENXIO) instead of
         * blocking the run for ever; then cleared (a FIFO read is written whole) */
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
        if (fd < 0 && errno == ENXIO)
                return sbx_error_set(reterr, -ENXIO, "--audit-log: '%s' is a FIFO no process reads, or a socket",
                                     path);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "--audit-log: open '%s'", path);
        (void) fcntl(fd, F_SETFL, O_APPEND);
        a->fd = fd;
        return 0;
}

void sbx_audit_close(sbx_audit *a) {
        closep(&a->fd);
        a->fd = -EBADF;
}

static json_object *record(const sbx_audit *a, const char *event) {
        char t[64];
        json_object *o = json_object_new_object();

        sbx_time_rfc3339_ms(t, sizeof(t));
        json_object_object_add(o, "time", json_object_new_string(t));
        json_object_object_add(o, "event", json_object_new_string(event));
        json_object_object_add(o, "agent", sbx_json_string(a->agent));
        json_object_object_add(o, "session", sbx_json_string(a->session));
        json_object_object_add(o, "scopeKey", sbx_json_string(a->scope_key));
        if (a->container)
                json_object_object_add(o, "container", json_object_new_string(a->container));
        return o;
}

/* One line, one write(2) on an O_APPEND fd: records from concurrent runs
 * do not interleave. */
static int emit(const sbx_audit *a, json_object *o) {
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        size_t n = strlen(s);
        char buf[16384];

        if (n + 2 > sizeof(buf))
                return -E2BIG;
        memcpy(buf, s, n);
        buf[n++] = '\n';
        return write(a->fd, buf, n) == (ssize_t) n ? 0 : -EIO;
}

/* What was decided: the resolved file, the decision, the rule and the config key behind it. */
static void add_verdict(json_object *o, const sbx_exec_verdict *v, const char *decision) {
        json_object_object_add(o, "resolved", sbx_json_string(v->file[0] ? v->file : NULL));
        json_object_object_add(o, "decision", json_object_new_string(decision));
        json_object_object_add(o, "rule", json_object_new_string(v->rule));
        json_object_object_add(o, "configKey", sbx_json_string(v->key[0] ? v->key : NULL));
}

int sbx_audit_exec(const sbx_audit *a, char *const *argv, const sbx_exec_verdict *v) {
        _cleanup_(json_putp) json_object *o = NULL;

        if (a->fd < 0)
                return 0;
        o = record(a, "exec");
        json_object_object_add(o, "argv", sbx_json_strings(argv, SIZE_MAX));
        add_verdict(o, v, v->allow ? "allow" : "deny");
        return emit(a, o);
}

/* The size of a regular-file audit log (-1: a FIFO, a socket, unknown). */
static off_t log_size(const sbx_audit *a) {
        struct stat st;

        return fstat(a->fd, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
}

int sbx_audit_exec_seen(const sbx_audit *a, int pid, const char *path, char *const *argv, bool argv_truncated,
                        const sbx_exec_verdict *v) {
        _cleanup_(json_putp) json_object *o = NULL;
        off_t size;
        int r;

        if (a->fd < 0)
                return 0;
        /* exec-seen records come as fast as the sandbox calls execve (up to
         * 16 KiB each, tens of thousands a second): past SBX_AUDIT_SEEN_MAX
         * bytes of log they are dropped, so that no sandbox fills the host's
         * disk (or the tmpfs of /run/sbx) through its host-side log. The
         * records sbx itself decides (exec, start, exit) are always written. */
        size = log_size(a);
        if (size >= SBX_AUDIT_SEEN_MAX)
                return -EFBIG;
        o = record(a, "exec-seen");
        json_object_object_add(o, "pid", json_object_new_int(pid));
        json_object_object_add(o, "path", json_object_new_string(path));
        json_object_object_add(o, "argv", sbx_json_strings(argv, SIZE_MAX));
        if (argv_truncated)
                json_object_object_add(o, "argvTruncated", json_object_new_boolean(true));
        add_verdict(o, v, v->allow ? "allow" : v->status == SBX_EXIT_NOT_FOUND ? "not-found" : "deny");
        r = emit(a, o);
        if (r == 0 && size >= 0 && log_size(a) >= SBX_AUDIT_SEEN_MAX) {
                /* the record that crossed the limit: say so, once */
                _cleanup_(json_putp) json_object *full = record(a, "exec-seen-limit");
                json_object_object_add(full, "limitBytes", json_object_new_int64(SBX_AUDIT_SEEN_MAX));
                json_object_object_add(full, "message",
                                       json_object_new_string("the audit log reached its limit: later exec-seen "
                                                              "records are not written"));
                r = emit(a, full);
        }
        return r;
}

int sbx_audit_start(const sbx_audit *a, int pid, char *const *argv) {
        _cleanup_(json_putp) json_object *o = NULL;

        if (a->fd < 0)
                return 0;
        o = record(a, "start");
        json_object_object_add(o, "pid", json_object_new_int(pid));
        json_object_object_add(o, "argv", sbx_json_strings(argv, SIZE_MAX));
        return emit(a, o);
}

int sbx_audit_exit(const sbx_audit *a, int status, bool timed_out, const char *oom_message) {
        _cleanup_(json_putp) json_object *o = NULL;
        int r = 0;

        if (a->fd < 0)
                return 0;
        if (timed_out) {
                _cleanup_(json_putp) json_object *t = record(a, "timeout");
                r = emit(a, t);
        }
        if (oom_message) {
                _cleanup_(json_putp) json_object *m = record(a, "oom");
                json_object_object_add(m, "message", json_object_new_string(oom_message));
                r = emit(a, m) ?: r;
        }
        if (!timed_out && status == 128 + SIGSYS) {
                _cleanup_(json_putp) json_object *k = record(a, "seccomp-kill");
                json_object_object_add(k, "signal", json_object_new_int(SIGSYS));
                r = emit(a, k) ?: r;
        }
        o = record(a, "exit");
        if (timed_out)
                json_object_object_add(o, "signal", json_object_new_int(SIGKILL));
        else if (status > 128 && status < 128 + 65)
                json_object_object_add(o, "signal", json_object_new_int(status - 128));
        else
                json_object_object_add(o, "exitCode", json_object_new_int(status));
        json_object_object_add(o, "status", json_object_new_int(status));
        return emit(a, o) ?: r;
}

int sbx_audit_setup_error(const sbx_audit *a, int status, const sbx_error *e) {
        _cleanup_(json_putp) json_object *o = NULL;

        if (a->fd < 0)
                return 0;
        o = record(a, "setup-error");
        json_object_object_add(o, "message", json_object_new_string(e->msg));
        json_object_object_add(o, "status", json_object_new_int(status));
        return emit(a, o);
}

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
                        return sbx_error_set(reterr, -ENAMETOOLONG, "state dir '%s': too long for the audit log in it", base);
                if (mkdir(base, 0711) < 0 && errno != EEXIST)
                        return sbx_error_set(reterr, -errno, "state dir: create '%s' (for the audit log)", base);
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

/* The strings a record takes from the sandbox or the caller (argv, a path)
 * are bounded by their size once escaped, so every record fits one write
 * of at most AUDIT_RECORD_MAX bytes. Before, a record over 16 KiB was
 * dropped without a trace: an exec whose argv held 16 KiB (a padded shell
 * command, OpenClaw's 24.5 KB file-write helper) left no "exec" record,
 * allowed or refused, and a sandbox hid its execve()s from the exec log by
 * giving them arguments of control characters (each escaped to \u00XX: the
 * listener's 32 x 256 bytes became 48 KiB). */
#define AUDIT_RECORD_MAX 16384
#define AUDIT_ARGV_MAX 8192             /* escaped bytes of argv's strings */
#define AUDIT_PATH_MAX 1024             /* escaped bytes of a path */

/* json-c's escaped size of c (JSON_C_TO_STRING_NOSLASHESCAPE) */
static size_t escaped_size(unsigned char c) {
        if (c == '"' || c == '\\' || c == '\b' || c == '\n' || c == '\r' || c == '\t' || c == '\f')
                return 2;
        return c < 0x20 ? 6 : 1;
}

/* s as a JSON string of at most *budget escaped bytes (cut at a UTF-8
 * character's start); *cut is set when it was cut. */
static json_object *bounded_string(const char *s, size_t *budget, bool *cut) {
        size_t n = 0, used = 0;

        for (; s[n]; n++) {
                size_t e = escaped_size((unsigned char) s[n]);
                if (used + e > *budget)
                        break;
                used += e;
        }
        if (s[n]) {
                while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
                        n--;
                *cut = true;
        }
        *budget -= used;
        return json_object_new_string_len(s, (int) n);
}

/* "<key>": the string bounded to AUDIT_PATH_MAX, "<key>Truncated": true if cut */
static void add_bounded(json_object *o, const char *key, const char *s) {
        size_t budget = AUDIT_PATH_MAX;
        bool cut = false;
        char k[64];

        if (!s) {
                json_object_object_add(o, key, NULL);
                return;
        }
        json_object_object_add(o, key, bounded_string(s, &budget, &cut));
        if (cut && snprintf(k, sizeof(k), "%sTruncated", key) < (int) sizeof(k))
                json_object_object_add(o, k, json_object_new_boolean(true));
}

/* "argv" bounded to AUDIT_ARGV_MAX; when cut, "argvTruncated": true,
 * "argvCount" and "argvSha256" of the whole argv as given (each string with
 * its NUL), so the record still names exactly what ran. cut_before: the
 * caller had only a bounded copy (the exec log's listener): "argvTruncated"
 * alone. */
static void add_argv(json_object *o, char *const *argv, bool cut_before) {
        json_object *arr = json_object_new_array();
        size_t budget = AUDIT_ARGV_MAX, n = 0;
        bool cut = false;

        for (; argv && argv[n]; n++)
                if (!cut)
                        json_object_array_add(arr, bounded_string(argv[n], &budget, &cut));
        json_object_object_add(o, "argv", arr);
        if (cut_before)
                json_object_object_add(o, "argvTruncated", json_object_new_boolean(true));
        else if (cut) {
                struct sbx_sha256 h;
                char hex[SBX_SHA256_HEX_SIZE];

                sbx_sha256_init(&h);
                for (size_t i = 0; i < n; i++)
                        sbx_sha256_update(&h, argv[i], strlen(argv[i]) + 1);
                sbx_sha256_final_hex(&h, hex);
                json_object_object_add(o, "argvTruncated", json_object_new_boolean(true));
                json_object_object_add(o, "argvCount", json_object_new_int64((int64_t) n));
                json_object_object_add(o, "argvSha256", json_object_new_string(hex));
        }
}

/* One line, one write(2) on an O_APPEND fd: records from concurrent runs
 * do not interleave. A record that would still be too large (long config
 * strings) is written as its time and event with "recordTruncated": never
 * dropped. */
static int emit(const sbx_audit *a, json_object *o) {
        /* names the sandbox chose: valid UTF-8, no raw C1 (util.h) */
        _cleanup_free_ char *s = sbx_json_terminal_safe(
                json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
        size_t n;

        if (!s)
                return -ENOMEM;
        n = strlen(s);
        char buf[AUDIT_RECORD_MAX];

        if (n + 2 > sizeof(buf)) {
                json_object *t = NULL, *e = NULL;
                n = (size_t) snprintf(buf, sizeof(buf), "{\"time\":%s,\"event\":%s,\"recordTruncated\":true,\"recordBytes\":%zu}",
                                      json_object_object_get_ex(o, "time", &t) ? json_object_to_json_string(t) : "null",
                                      json_object_object_get_ex(o, "event", &e) ? json_object_to_json_string(e) : "null",
                                      n);
                if (n + 2 > sizeof(buf))
                        return -E2BIG;
        } else
                memcpy(buf, s, n);
        buf[n++] = '\n';
        return write(a->fd, buf, n) == (ssize_t) n ? 0 : -EIO;
}

/* What was decided: the resolved file, the decision, the rule and the config key behind it. */
static void add_verdict(json_object *o, const sbx_exec_verdict *v, const char *decision) {
        add_bounded(o, "resolved", v->file[0] ? v->file : NULL);
        json_object_object_add(o, "decision", json_object_new_string(decision));
        json_object_object_add(o, "rule", json_object_new_string(v->rule));
        json_object_object_add(o, "configKey", sbx_json_string(v->key[0] ? v->key : NULL));
}

int sbx_audit_exec(const sbx_audit *a, char *const *argv, const sbx_exec_verdict *v) {
        _cleanup_(json_putp) json_object *o = NULL;

        if (a->fd < 0)
                return 0;
        o = record(a, "exec");
        add_argv(o, argv, false);
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
        add_bounded(o, "path", path);
        add_argv(o, argv, argv_truncated);
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
        add_argv(o, argv, false);
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

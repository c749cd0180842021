/* SPDX-License-Identifier: MIT */
/* Small JSON record files (image records, network records): strict reading
 * with a size cap, atomic writing (temp + fsync + rename), where sbx keeps
 * persistent state, and the small builders every record and --json output uses. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

void sbx_time_rfc3339_ms(char *buf, size_t len) {
        struct timespec ts;
        struct tm tm;
        size_t n;

        clock_gettime(CLOCK_REALTIME, &ts);
        gmtime_r(&ts.tv_sec, &tm);
        n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(buf + n, len - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

int sbx_data_dir(const char *what, const char *env, char *ret, size_t len, sbx_error *reterr) {
        const char *e = env ? getenv(env) : NULL, *x, *home;
        int n;

        if (e && *e)
                n = snprintf(ret, len, "%s", e);
        else if (geteuid() == 0)
                n = snprintf(ret, len, "/var/lib/sbx/%s", what);
        else if ((x = getenv("XDG_DATA_HOME")) && x[0] == '/')
                n = snprintf(ret, len, "%s/sbx/%s", x, what);
        else if ((home = getenv("HOME")) && home[0] == '/')
                n = snprintf(ret, len, "%s/.local/share/sbx/%s", home, what);
        else
                return sbx_error_set(reterr, -ENOENT, "no %s directory: set %s or HOME", what, env ?: "HOME");
        if (n < 0 || (size_t) n >= len)
                return sbx_error_set(reterr, -ENAMETOOLONG, "%s directory path too long", what);
        if (ret[0] != '/')
                return sbx_error_set(reterr, -EINVAL, "%s '%s' must be an absolute path", env ?: what, ret);
        return 0;
}

int sbx_mkdir_p(const char *path, mode_t mode) {
        char buf[PATH_MAX];

        if (snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf))
                return -ENAMETOOLONG;
        for (char *p = buf + 1; *p; p++)
                if (*p == '/') {
                        *p = '\0';
                        if (mkdir(buf, mode) < 0 && errno != EEXIST)
                                return -errno;
                        *p = '/';
                }
        if (mkdir(buf, mode) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

int sbx_json_read_at(int dirfd, const char *path, size_t max, bool in_root, json_object **ret,
                     sbx_error *reterr) {
        struct open_how how = {
                .flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,     /* a FIFO fails the check, never blocks */
                .resolve = in_root ? RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS : RESOLVE_NO_SYMLINKS,
        };
        _cleanup_close_ int fd = -EBADF;
        _cleanup_free_ char *buf = NULL;
        json_tokener *tok;
        json_object *o;
        struct stat st;
        size_t n = 0;
        ssize_t k;

        fd = (int) syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "open '%s': %s", path, strerror(errno));
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return sbx_error_set(reterr, -EBADMSG, "'%s' is not a regular file", path);
        if ((uint64_t) st.st_size > max)
                return sbx_error_set(reterr, -EFBIG, "'%s' is larger than %zu bytes", path, max);
        buf = malloc((size_t) st.st_size + 1);
        if (!buf)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        while (n < (size_t) st.st_size && (k = read(fd, buf + n, (size_t) st.st_size - n)) > 0)
                n += (size_t) k;
        buf[n] = '\0';
        tok = json_tokener_new_ex(64);
        if (!tok)
                return sbx_error_set(reterr, -ENOMEM, "out of memory");
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
        o = json_tokener_parse_ex(tok, buf, (int) n);
        if (!o || json_tokener_get_error(tok) != json_tokener_success || tok->char_offset != (int) n) {
                enum json_tokener_error je = json_tokener_get_error(tok);
                int r = sbx_error_set(reterr, -EBADMSG, "'%s' is not valid JSON: %s", path,
                                      je == json_tokener_continue  ? "unexpected end of input"
                                      : je == json_tokener_success ? "trailing data after the value"
                                                                   : json_tokener_error_desc(je));
                if (o)
                        json_object_put(o);
                json_tokener_free(tok);
                return r;
        }
        json_tokener_free(tok);
        *ret = o;
        return 0;
}

int sbx_json_write(const char *path, json_object *o, mode_t mode, sbx_error *reterr) {
        const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
        int r = sbx_write_file_atomic(path, text, strlen(text), mode, true);

        return r < 0 ? sbx_error_set(reterr, r, "write '%s'", path) : 0;
}

int sbx_json_strv(json_object *arr, char ***ret) {
        char **v;
        size_t n;

        *ret = NULL;
        if (!arr || !json_object_is_type(arr, json_type_array))
                return 0;
        n = json_object_array_length(arr);
        v = calloc(n + 1, sizeof(char *));
        if (!v)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                json_object *s = json_object_array_get_idx(arr, i);
                v[i] = strdup(json_object_is_type(s, json_type_string) ? json_object_get_string(s) : "");
                if (!v[i]) {
                        for (size_t j = 0; j < i; j++)
                                free(v[j]);
                        free(v);
                        return -ENOMEM;
                }
        }
        *ret = v;
        return 0;
}

struct json_object *sbx_json_string(const char *s) {
        return s ? json_object_new_string(s) : NULL;
}

struct json_object *sbx_json_strings(char *const *v, size_t n) {
        struct json_object *a = json_object_new_array();

        for (size_t i = 0; a && v && i < n && v[i]; i++)
                json_object_array_add(a, json_object_new_string(v[i]));
        return a;
}

/* ------------------------------------------------- streaming pretty JSON */

static void jw_indent(sbx_jw *w, int level) {
        static const char spaces[] = "                                                                ";

        for (size_t n = (size_t) level * 2; n > 0;) {
                size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
                fwrite_unlocked(spaces, 1, k, w->f);
                n -= k;
        }
}

/* Before a value inside an array (a value inside an object follows its key). */
static void jw_value(sbx_jw *w) {
        if (w->level == 0 || w->in_object & (1ull << w->level))
                return;
        fputs_unlocked(w->had & (1ull << w->level) ? ",\n" : "", w->f);
        w->had |= 1ull << w->level;
        jw_indent(w, w->level);
}

void sbx_jw_begin(sbx_jw *w, char open) {
        jw_value(w);
        fputc_unlocked(open, w->f);
        fputc_unlocked('\n', w->f);
        w->level++;
        w->had &= ~(1ull << w->level);
        if (open == '{')
                w->in_object |= 1ull << w->level;
        else
                w->in_object &= ~(1ull << w->level);
}

void sbx_jw_end(sbx_jw *w, char close) {
        if (w->had & (1ull << w->level))
                fputc_unlocked('\n', w->f);
        w->level--;
        jw_indent(w, w->level);
        fputc_unlocked(close, w->f);
}

/* json-c's json_escape_str(): the two-character escapes, "/" too, other
 * control characters as \u00xx; UTF-8 as is; DEL, C1 and what is not UTF-8
 * as sbx_json_terminal_safe() writes them. */
static void jw_string(sbx_jw *w, const char *s) {
        static const char hex[] = "0123456789abcdef";
        const unsigned char *p = (const unsigned char *) s;
        char buf[512];
        size_t n = 0;

        /* escaped into buf, written a buffer at a time (paths: a "\/" each) */
        buf[n++] = '"';
        for (; *p; p++) {
                char e = 0;
                if (n > sizeof(buf) - 8) {
                        fwrite_unlocked(buf, 1, n, w->f);
                        n = 0;
                }
                switch (*p) {
                case '\b': e = 'b'; break;
                case '\n': e = 'n'; break;
                case '\r': e = 'r'; break;
                case '\t': e = 't'; break;
                case '\f': e = 'f'; break;
                case '"': e = '"'; break;
                case '\\': e = '\\'; break;
                case '/': e = '/'; break;
                default:
                        break;
                }
                if (e) {
                        buf[n++] = '\\';
                        buf[n++] = e;
                } else if (*p < ' ') {
                        memcpy(buf + n, "\\u00", 4);
                        buf[n + 4] = hex[*p >> 4];
                        buf[n + 5] = hex[*p & 0xf];
                        n += 6;
                } else if (*p < 0x7f)
                        buf[n++] = (char) *p;
                else {          /* UTF-8 as it is, DEL, C1 and bytes not UTF-8 escaped (util.h) */
                        size_t used;
                        n += sbx_json_escape_byte((const char *) p, buf + n, &used);
                        p += used - 1;
                }
        }
        buf[n++] = '"';
        fwrite_unlocked(buf, 1, n, w->f);
}

void sbx_jw_key(sbx_jw *w, const char *key) {
        fputs_unlocked(w->had & (1ull << w->level) ? ",\n" : "", w->f);
        w->had |= 1ull << w->level;
        jw_indent(w, w->level);
        jw_string(w, key);
        fputs_unlocked(": ", w->f);
}

void sbx_jw_str(sbx_jw *w, const char *s) {
        jw_value(w);
        if (s)
                jw_string(w, s);
        else
                fputs_unlocked("null", w->f);
}

void sbx_jw_i64(sbx_jw *w, long long v) {
        jw_value(w);
        fprintf(w->f, "%lld", v);
}

void sbx_jw_u64(sbx_jw *w, unsigned long long v) {
        jw_value(w);
        fprintf(w->f, "%llu", v);
}

void sbx_jw_bool(sbx_jw *w, bool v) {
        jw_value(w);
        fputs_unlocked(v ? "true" : "false", w->f);
}

void sbx_jw_tree(sbx_jw *w, struct json_object *o) {
        _cleanup_free_ char *safe = NULL;
        const char *t;

        jw_value(w);
        if (!o) {
                fputs_unlocked("null", w->f);
                return;
        }
        /* json-c prints it at level 0: every line after the first moves in */
        safe = sbx_json_terminal_safe(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
        t = safe ? safe : "null";
        for (; *t; t++) {
                fputc_unlocked(*t, w->f);
                if (*t == '\n')
                        jw_indent(w, w->level);
        }
}

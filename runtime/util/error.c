/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* A message may quote what a sandbox chose (a #! line, a file name) and is
 * printed on a terminal or parsed line by line (docker's stderr): no C0
 * control, DEL, C1 control (U+009B is a CSI to a terminal that takes 8-bit
 * controls), bidirectional control or byte that is not UTF-8 in it. */
static void no_controls(char *s) {
        sbx_text_scrub(s);
}

int sbx_error_set(sbx_error *e, int code, const char *fmt, ...) {
        va_list ap;

        if (code > 0)
                code = -code;
        if (code == 0)
                code = -EINVAL;
        if (!e)
                return code;
        e->code = code;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        va_end(ap);
        no_controls(e->msg);
        return code;
}

int sbx_error_wrap(sbx_error *e, const char *fmt, ...) {
        char prefix[SBX_ERROR_MSG_MAX], old[SBX_ERROR_MSG_MAX];
        va_list ap;

        if (!e)
                return -EINVAL;
        va_start(ap, fmt);
        vsnprintf(prefix, sizeof(prefix), fmt, ap);
        va_end(ap);
        no_controls(prefix);
        memcpy(old, e->msg, sizeof(old));
        old[sizeof(old) - 1] = '\0';
        /* Truncation is acceptable: the message is for humans and stays NUL-terminated. */
        size_t n = strnlen(prefix, sizeof(e->msg) - 3);
        memcpy(e->msg, prefix, n);
        memcpy(e->msg + n, ": ", 2);
        n += 2;
        size_t m = strnlen(old, sizeof(e->msg) - n - 1);
        memcpy(e->msg + n, old, m);
        e->msg[n + m] = '\0';
        return e->code;
}

const char *sbx_error_text(const sbx_error *e, char *buf, unsigned len) {
        if (!e || e->code == 0) {
                snprintf(buf, len, "unknown error");
                return buf;
        }
        if (e->msg[0] == '\0')
                snprintf(buf, len, "%s", strerror(-e->code));
        else
                snprintf(buf, len, "%s", e->msg);
        return buf;
}

const char *sbx_error_why(const sbx_error *e, char *buf, unsigned len) {
        const char *why;

        sbx_error_text(e, buf, len);
        if (!e || e->code == 0 || e->msg[0] == '\0' || e->code == -ETIMEDOUT)
                return buf;
        why = strerror(-e->code);
        /* "No such sandbox: N" says ENOENT's text already */
        if (!strcasestr(buf, why) && !(e->code == -ENOENT && strstr(buf, "No such "))) {
                size_t n = strlen(buf);
                snprintf(buf + n, len > n ? len - n : 0, ": %s", why);
        }
        return buf;
}

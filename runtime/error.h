/* SPDX-License-Identifier: MIT */
/* Heap-free error records; see runtime/ERRORS.md for the contract. */
#pragma once

#include <stdarg.h>

#define SBX_ERROR_MSG_MAX 512

typedef struct sbx_error {
        int code;                       /* negative errno, 0 = no error */
        char msg[SBX_ERROR_MSG_MAX];    /* "outer: inner: detail" */
} sbx_error;

/* Fill *e (may be NULL) and return code (a negative errno). Async-signal-safe
 * enough for the forked child: vsnprintf on a fixed buffer, no allocation. */
int sbx_error_set(sbx_error *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefix context: "ctx: <old msg>". Returns e->code. */
int sbx_error_wrap(sbx_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message with the errno text appended when useful. */
const char *sbx_error_text(const sbx_error *e, char *buf, unsigned len);

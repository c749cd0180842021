/* SPDX-License-Identifier: MIT */
/* runtime/util/util.h: the public interface of runtime/util/ (see ARCHITECTURE.md). */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <stddef.h>


/* ---- from macro.h ---- */
/* Small helpers shared by every module: cleanup attributes, ownership
 * transfer and errno wrapping (systemd-style, see ../shared/STYLE.md §C). */


#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

static inline void freep(void *p) {
        free(*(void **) p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void sbx_free_many(void *const *p, size_t n) {
        for (size_t i = 0; i < n; i++)
                free(p[i]);
}
/* free() of each argument: free_many(c->a, c->b, ...). */
#define free_many(...) \
        sbx_free_many((void *const[]) { __VA_ARGS__ }, ELEMENTSOF(((void *const[]) { __VA_ARGS__ })))

static inline void closep(int *fd) {
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}
#define _cleanup_close_ _cleanup_(closep)

/* Hand ownership over: returns the value and leaves the variable empty. */
#define TAKE_PTR(p)                            \
        ({                                     \
                __typeof__(p) _tp = (p);       \
                (p) = NULL;                    \
                _tp;                           \
        })
#define TAKE_FD(fd)                            \
        ({                                     \
                int _tf = (fd);                \
                (fd) = -EBADF;                 \
                _tf;                           \
        })

/* libc result (-1 + errno) -> negative errno. */
#define RET_NERRNO(expr)                       \
        ({                                     \
                long _r = (long) (expr);       \
                _r < 0 ? -errno : (int) _r;    \
        })

static inline int negative_errno(void) {
        return errno > 0 ? -errno : -EIO;
}

/* ---- from syscalls.h ---- */
/* Raw wrappers for calls glibc 2.36 lacks or wraps in ways unsafe after a raw
 * clone3 (setxid broadcast). All async-signal-safe. */


static inline int sys_openat2(int dirfd, const char *path, unsigned long long flags,
                              unsigned long long resolve) {
        struct open_how how = { .flags = flags, .resolve = resolve };
        return (int) syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

static inline long sys_clone3(struct clone_args *args) {
        return syscall(SYS_clone3, args, sizeof(*args));
}

static inline int sys_pivot_root(const char *new_root, const char *put_old) {
        return (int) syscall(SYS_pivot_root, new_root, put_old);
}

static inline int sys_setresuid(uid_t r, uid_t e, uid_t s) {
        return (int) syscall(SYS_setresuid, r, e, s);
}

static inline int sys_setresgid(gid_t r, gid_t e, gid_t s) {
        return (int) syscall(SYS_setresgid, r, e, s);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig) {
        return (int) syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* ---- from error.h ---- */
/* Heap-free error records; see runtime/ERRORS.md for the contract. */


/* Exit statuses of sbx (runtime/ERRORS.md), shared by every layer. */
enum {
        SBX_EXIT_USAGE = 2,        /* bad usage / invalid configuration */
        SBX_EXIT_FAILURE = 125,    /* sbx itself failed */
        SBX_EXIT_CANNOT_EXEC = 126,/* not executable, or refused by policy */
        SBX_EXIT_NOT_FOUND = 127,  /* command not found in the sandbox */
        SBX_EXIT_TIMEOUT = 124,    /* sbx run --timeout expired; the sandbox was killed */
};

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
/* The message (the errno text if there is none). */
const char *sbx_error_text(const sbx_error *e, char *buf, unsigned len);
/* The message and the errno text, "what: why", unless the message gives it
 * already (or the code is ETIMEDOUT, whose message says how long): the one
 * line a failed operation of sbx run, create, exec, ... prints. */
const char *sbx_error_why(const sbx_error *e, char *buf, unsigned len);

/* ---- from proc.h ---- */
/* The start time of a live process (clock ticks after boot, field 22 of
 * /proc/PID/stat): identifies it across pid reuse. -ESRCH for a zombie (dead
 * for our purposes), -ENOENT if there is no such process, else -errno/-EIO. */
int sbx_proc_start_time(pid_t pid, uint64_t *ret);
/* The wait status of pid while it is a zombie that started at start_time
 * (field 52 of /proc/PID/stat: its parent has not reaped it yet), -ESRCH if
 * it is no such zombie. */
int sbx_proc_zombie_status(pid_t pid, uint64_t start_time);
/* A pidfd of pid if it is still the process that started at start_time
 * (checked after the pidfd exists, so it stays that process), or -ESRCH. */
int sbx_proc_pidfd(pid_t pid, uint64_t start_time);
/* What a long-lived helper sbx forks without exec (the exec log daemon, the
 * egress resolver) shows in /proc/self/cmdline and environ, world-readable
 * and owner-readable: TITLE alone and no environment, instead of the argv
 * and environment of the sbx that forked it (env values, commands). Points
 * the kernel's argument and environment ranges at a static copy of TITLE
 * (PR_SET_MM_MAP; PR_SET_MM_ARG_START.. with CAP_SYS_RESOURCE), so nothing
 * that still points into the old strings changes. -errno if neither works. */
int sbx_proc_set_title(const char *title);

/* ---- from tool-exec.h ---- */
/* Running a host tool (nft, pasta) from the launcher, issue 7: found in the
 * system directories only (never through $PATH), with a fixed environment,
 * stdin fed from a string, stdout discarded and the first part of stderr kept
 * for the error message. */



/* Absolute path of tool in /usr/sbin, /usr/bin, /sbin, /bin; -ENOENT if absent. */
int sbx_tool_find(const char *tool, char *ret_path, size_t len);
/* argv[0] is the tool's name; input may be NULL. Returns the exit status
 * (>= 0) or a negative errno; errbuf gets the tool's stderr (trimmed). Kills
 * the tool after timeout_ms. */
int sbx_tool_run(const char *const *argv, const char *input, unsigned timeout_ms,
                 char *errbuf, size_t errlen, sbx_error *reterr);

/* ---- from json.c ---- */
/* Now as RFC 3339 UTC with milliseconds ("2026-01-02T03:04:05.678Z"), for JSONL records. */
void sbx_time_rfc3339_ms(char *buf, size_t len);
/* Persistent state (images, networks): $ENV if set, else /var/lib/sbx/WHAT
 * as root, $XDG_DATA_HOME/sbx/WHAT or ~/.local/share/sbx/WHAT otherwise. */
int sbx_data_dir(const char *what, const char *env, char *ret, size_t len, sbx_error *reterr);
/* mkdir -p (existing directories are fine); -errno. */
int sbx_mkdir_p(const char *path, mode_t mode);
/* Read and parse a small JSON file (at most max bytes) relative to dirfd,
 * strictly (one value, UTF-8, nothing after it). */
struct json_object;
int sbx_json_read_at(int dirfd, const char *path, size_t max, bool in_root, struct json_object **ret,
                     sbx_error *reterr);
/* Write o to path atomically and durably (sbx_write_file_atomic) with mode. */
int sbx_json_write(const char *path, struct json_object *o, mode_t mode, sbx_error *reterr);
/* A JSON array of strings -> NULL-terminated strv (NULL if not an array). */
int sbx_json_strv(struct json_object *arr, char ***ret);
/* A JSON string; JSON null (NULL) for NULL. */
struct json_object *sbx_json_string(const char *s);
/* A JSON array of the strings V[0..N), ending early at a NULL entry (N = SIZE_MAX: a NULL-terminated
 * vector); V NULL: an empty array. */
struct json_object *sbx_json_strings(char *const *v, size_t n);
/* Streaming JSON text straight to F, byte for byte what json-c 0.16 prints with
 * JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED for the same tree (2-space
 * indent, "key": value, "\/" escaped), without building the tree: for output of
 * many records (sbx ls --json). begin/end take '{' '}' or '[' ']'; inside an
 * object every value follows sbx_jw_key(), inside an array none needs one. */
typedef struct sbx_jw {
        FILE *f;
        int level;
        unsigned long long had;       /* bit L: the container at level L has a member */
        unsigned long long in_object; /* bit L: it is an object */
} sbx_jw;
void sbx_jw_begin(sbx_jw *w, char open);
void sbx_jw_end(sbx_jw *w, char close);
void sbx_jw_key(sbx_jw *w, const char *key);
void sbx_jw_str(sbx_jw *w, const char *s); /* NULL: null */
void sbx_jw_i64(sbx_jw *w, long long v);
void sbx_jw_u64(sbx_jw *w, unsigned long long v);
void sbx_jw_bool(sbx_jw *w, bool v);
/* A json-c tree as a value here (NULL: null); the tree is not freed. */
void sbx_jw_tree(sbx_jw *w, struct json_object *o);

/* ---- from sha256.h ---- */
/* A compact SHA-256 (FIPS 180-4) for verifying image layer digests. */


#define SBX_SHA256_DIGEST_SIZE 32
#define SBX_SHA256_HEX_SIZE 65 /* 64 hex digits + NUL */

struct sbx_sha256 {
        uint32_t h[8];
        uint64_t length; /* bytes hashed so far */
        uint8_t block[64];
        size_t fill; /* bytes waiting in block */
};

void sbx_sha256_init(struct sbx_sha256 *s);
void sbx_sha256_update(struct sbx_sha256 *s, const void *data, size_t len);
void sbx_sha256_final(struct sbx_sha256 *s, uint8_t ret_digest[SBX_SHA256_DIGEST_SIZE]);
/* Finish and write the lower-case hex digest into ret_hex (65 bytes). */
void sbx_sha256_final_hex(struct sbx_sha256 *s, char ret_hex[SBX_SHA256_HEX_SIZE]);
/* One-shot helper. */
void sbx_sha256_hex(const void *data, size_t len, char ret_hex[SBX_SHA256_HEX_SIZE]);

/* ---- enum <-> name tables (names.c) ---- */
/* The index of S in NAMES[0..N) (an enum's names, indexed by its values), -EINVAL when it is not
 * there or S is NULL. */
int sbx_name_to_index(const char *const *names, size_t n, const char *s);
/* NAMES[I], NULL when I is out of range. */
const char *sbx_index_to_name(const char *const *names, size_t n, int i);
/* The number of capability NAME ("CAP_CHOWN"; case is ignored, as libcap and runc ignore it),
 * -EINVAL when it is not one the kernel headers sbx was written against know (0 .. 40,
 * CAP_CHECKPOINT_RESTORE). */
int sbx_cap_from_name(const char *name);
/* Defines TYPE PREFIX_from_string(const char *) (-EINVAL for an unknown name) and
 * const char *PREFIX_to_string(TYPE) (NULL for an unknown value) over NAMES, indexed by TYPE. */
#define SBX_DEFINE_NAME_TABLE(prefix, type, names)                                                          \
        type prefix##_from_string(const char *s) {                                                          \
                return (type) sbx_name_to_index(names, ELEMENTSOF(names), s);                               \
        }                                                                                                   \
        const char *prefix##_to_string(type v) {                                                            \
                return sbx_index_to_name(names, ELEMENTSOF(names), (int) v);                                \
        }

/* ---- whole files (file.c) ---- */
/* Reads PATH, which must be a regular file of at most MAX bytes, into a NUL-terminated buffer
 * (*ret, freed by the caller; *ret_len bytes). Errors name the file as WHAT 'PATH' ("config",
 * "seccomp profile"): -EINVAL not a regular file, -EFBIG too large, else -errno. */
int sbx_read_file(const char *what, const char *path, size_t max, char **ret, size_t *ret_len,
                  sbx_error *reterr);
/* The same from FD, opened by the caller (PATH names it in errors), read from its offset. */
int sbx_read_fd(const char *what, const char *path, int fd, size_t max, char **ret, size_t *ret_len,
                sbx_error *reterr);
/* The file O_PATH fd PFD names (closed here), opened for reading only if it is one its
 * owner alone decides: a regular file with one link (no hardlink to another's file),
 * owned by root or the caller's euid, writable by no group or other; with OTHERS_READ
 * also readable by others. The fd, or -1 (the reason is not told). */
int sbx_open_trusted(int pfd, bool others_read);
/* Writes LEN bytes of DATA to PATH through a temporary file beside it renamed over PATH: a reader
 * sees the old file or the new one, never a part. MODE: the new file's; SYNC: on disk before the
 * rename. -errno on failure, nothing left behind. */
int sbx_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode, bool sync);
/* chmod of the entry NAME in the open directory DIRFD itself, never what a
 * symlink there points to (fchmodat2 with AT_SYMLINK_NOFOLLOW, one call on
 * the parent's fd: no window for NAME to become a symlink in between, no
 * O_PATH + /proc/self/fd). A symlink: -EOPNOTSUPP; a kernel before 6.6:
 * -ENOSYS, nothing changed. 0 or -errno. */
int sbx_chmod_entry_at(int dirfd, const char *name, mode_t mode);
/* Copy the regular file from into to (both at offset 0, to empty), holes as
 * holes: only the data extents (SEEK_DATA/SEEK_HOLE) are read and written,
 * the size is set last. A file the other side made of any size at no cost
 * (truncate -s 1T: a sandbox's layer, an image's sparse entry) costs no
 * more blocks than from holds; a byte-by-byte copy wrote every zero. A file
 * system without SEEK_DATA reports all of it as data: a plain copy. Copies
 * up to from's size at the start (a file growing meanwhile is cut there).
 * 0 or -errno. */
int sbx_copy_sparse(int from, int to);
/* A sealed (no write, grow or shrink), executable memfd copy of the file FD reads,
 * CLOEXEC, named NAME (sealed.c: CVE-2019-5736); or -errno with reterr set. */
int sbx_sealed_copy(int fd, const char *name, sbx_error *reterr);
/* The same of an ELF executable, only the bytes the kernel's loader reads
 * (headers and segments; not the section headers, symbols or debug info
 * behind them): sbx-init's copy, one per persistent sandbox. A file that is
 * not a plain 64-bit ELF is copied whole. */
int sbx_sealed_copy_loaded(int fd, const char *name, sbx_error *reterr);
/* The number a /proc/sys file (or any small file) starts with; -1 if it cannot be read. */
long sbx_read_sysctl(const char *path);
/* Close every fd >= 3 but keep[] (close_range; best effort: a kernel or filter that refuses it
 * leaves them open). */
void sbx_close_all_but(const int *keep, size_t n);

/* ---- file descriptors over an AF_UNIX socket (fd-pass.c) ---- */
#define SBX_FDS_MAX 8
/* LEN bytes of DATA with N_FDS fds (at most SBX_FDS_MAX; SCM_RIGHTS), MSG_NOSIGNAL, retried on
 * EINTR. The bytes sent, or -errno. */
ssize_t sbx_send_fds(int sock, const void *data, size_t len, const int *fds, size_t n_fds);
/* One recvmsg (FLAGS | MSG_CMSG_CLOEXEC) of up to LEN bytes into DATA: the first MAX_FDS fds
 * passed land in RET_FDS (the rest -EBADF; *RET_N, if given, how many), every further fd is
 * closed. The bytes read (0: EOF), -errno, or -EPROTO when data or control was truncated (no
 * fd kept). */
ssize_t sbx_recv_fds(int sock, void *data, size_t len, int flags, int *ret_fds, size_t max_fds, size_t *ret_n);

/* ---- untrusted text on a terminal (quote.c) ---- */
/* TEXT as it is when it is plain text (printable ASCII, UTF-8 without C1 or bidirectional
 * controls), else
 * quoted as git quotes a path: in double quotes, with \a \b \t \n \v \f \r \" \\ and \ooo for
 * the other control bytes and what is not UTF-8. For names a sandbox chose, printed on the
 * operator's terminal: they can neither end a line, move the cursor, nor send the terminal
 * a command. Allocated (NULL: out of memory). */
char *sbx_quoted(const char *text);
/* Go's text/tabwriter over TEXT's lines (docker ps --format table, runc list): every
 * tab-ended cell padded to its column's widest (in UTF-8 characters) + PADDING, at least
 * MINWIDTH; a line's last cell as it is. */
void sbx_tabwrite(FILE *out, const char *text, size_t minwidth, size_t padding);
/* TEXT holds nothing sbx_quoted escapes but '"' and '\\' (a message that may be printed as it is). */
bool sbx_text_plain(const char *text);
/* The same, but a tab is plain too (a line of a file's text: code is indented with tabs). */
bool sbx_text_plain_line(const char *text);
/* TEXT made plain in place, its length kept: '?' for each byte of a C0 control, DEL, a C1
 * control, a bidirectional control or what is not UTF-8 (an error message that may quote what a
 * sandbox chose). */
void sbx_text_scrub(char *text);
/* JSON text (json-c's output) made valid UTF-8 and safe on a terminal, the one rule for every
 * JSON sbx writes with a name a sandbox or a user chose (diff/logs/ls/inspect/explain --json,
 * docker inspect, the audit log): the C1 controls (U+0080-U+009F) and DEL that json-c leaves
 * raw as \u escapes (the same value), and every byte that is not part of valid UTF-8 (0xff, a
 * lone 0xc3, an overlong form, a surrogate's 0xed 0xa0 0x80) as the lone surrogate \udcXX
 * (XX the byte: Python's "surrogateescape", PEP 383): the text parses, nothing is lost
 * (os.fsencode() of the string gives the exact bytes back), and no CSI reaches a terminal.
 * Raw bytes >= 0x80 occur in json-c's output only inside strings. NULL when out of memory. */
char *sbx_json_terminal_safe(const char *json);
/* The same rule for the text at TEXT: writes what one character (a valid UTF-8 sequence as it
 * is, or one escape) becomes into OUT, its length as the result, and sets *CONSUMED. */
size_t sbx_json_escape_byte(const char *text, char out[6], size_t *consumed);
/* JSON (json-c's output) on stdout by that rule, and a newline: 0, or -ENOMEM. */
int sbx_json_puts(const char *json);

/* ---- string vectors (strv.c) ---- */
/* A NULL-terminated vector with its count; set: the list was given (even empty). */
typedef struct sbx_strv {
        char **v;
        size_t n;
        bool set; /* the array was present (even empty) */
} sbx_strv;
void sbx_strv_free(sbx_strv *l);
int sbx_strv_push(sbx_strv *l, const char *s);
bool sbx_strv_contains(const sbx_strv *l, const char *s);
/* drop the entries (from index FROM on) equal to an earlier one, order kept, O(n log n) */
int sbx_strv_uniq(sbx_strv *l);
int sbx_strv_uniq_from(sbx_strv *l, size_t from);

/* ---- progress of long operations (progress.c): image import/build report
 * phases, counters and notices through a callback; the library never prints. */
enum sbx_progress_kind {
        SBX_PROGRESS_PHASE,  /* a new phase starts: phase set */
        SBX_PROGRESS_TICK,   /* counters moved */
        SBX_PROGRESS_NOTICE, /* something the user should know: detail set */
};
struct sbx_progress_event {
        enum sbx_progress_kind kind;
        const char *phase;    /* "read", "layer", "flatten", "download", ... */
        unsigned item, items; /* layer or package n of m (0 if unknown) */
        uint64_t bytes;       /* bytes processed in this phase */
        const char *detail;   /* digest, package or notice text */
};
struct sbx_progress {
        void (*fn)(void *userdata, const struct sbx_progress_event *ev);
        void *userdata;
};
void sbx_progress_emit(const struct sbx_progress *p, enum sbx_progress_kind kind, const char *phase,
                       unsigned item, unsigned items, uint64_t bytes, const char *detail);

/* ---- libraries loaded on first use (dl.c) ----
 * dlopen soname once (*handle) and resolve names[i] into *slots[i] (the
 * address of a typed function pointer: (void **) &api.f). A library that
 * only some commands need (libarchive, libsystemd) costs the others nothing.
 * 0, or -ELIBACC naming the library, its Debian package and a missing
 * symbol; nothing stays loaded then. Use with an X-macro list:
 *     #define NAME(f) #f,
 *     #define SLOT(f) (void **) &api.f,
 *     static const char *const names[] = { FUNCS(NAME) };
 *     void **slots[] = { FUNCS(SLOT) }; */
int sbx_dl_load(void **handle, const char *soname, const char *package, const char *const *names,
                void **const *slots, size_t n, sbx_error *reterr);
#define SBX_DL_NAME(f) #f,
#define SBX_DL_MEMBER(f) typeof(f) *f;

/* SPDX-License-Identifier: MIT */
/* The exec service of sbx-init (issue 16): the records between `sbx exec`
 * (exec-service.c, on the host) and a sandbox's init (init.c, no libc, so
 * this header includes nothing but <stdint.h>). Not an API.
 *
 * The channel: `sbx start` binds a SOCK_SEQPACKET socket at
 * <state dir>/exec.sock (mode 0700: its owner only; the host-only state dir: the sandbox's
 * mount namespace never shows it), listens, and hands the listening socket
 * to init with its "go" (SCM_RIGHTS). init accepts only peers outside its pid
 * namespace (SO_PEERCRED pid 0), never reads anything a sandboxed process
 * wrote, and runs exactly the request: sbx decided everything before.
 *
 * One exec, one connection:
 *   host -> init   sbx_svc_request + SBX_SVC_N_FDS fds (SCM_RIGHTS), then
 *                  `len` bytes of strings in records of at most SBX_SVC_CHUNK;
 *   init clones a child (CLONE_VM until its exec, init.c); the child (in every namespace, cgroup, Landlock domain and
 *   seccomp filter of init, with init's user, no capabilities and
 *   no_new_privs, all inherited) talks over the request's sync fd:
 *   child -> host  SBX_SVC_PTY (+ the pty master) with -t,
 *                  SBX_SVC_READY (about to exec; the kernel attaches the
 *                  child's credentials: its host pid, and with
 *                  SO_PASSPIDFD (Linux >= 6.5) a pidfd of it), or
 *                  SBX_SVC_FAILED (also after READY, if the exec fails);
 *   init -> host   SBX_SVC_FAILED step SBX_SVC_STEP_FORK over the same sync fd
 *                  when the clone itself failed (EAGAIN: the sandbox at its
 *                  pids limit, which the host then names);
 *   host -> child  one byte SBX_SVC_GO once it holds a pidfd of the child
 *                  (not awaited with SBX_SVC_NO_GO: the kernel gave it one);
 *   init -> host   sbx_svc_exit when the command was reaped.
 * The host closing the connection before that kills the command (SIGKILL),
 * as the parent-death signal of a joined exec does.
 *
 * SBX_SVC_SEARCH (the `sbx exec` front end, exec-front.c): no exec fd (the
 * request carries SBX_SVC_N_FDS - 1 fds: stdio and the sync fd) and one more
 * string after env, the PATH to search: the child execs argv[0] as execvp
 * would with that PATH, inside the sandbox's root, from its workdir. Only
 * for sandboxes without an exec allowlist or an agent's policy (nothing to
 * decide on the host: sbx start writes SBX_SVC_FAST_FILE only for those).
 *
 * SBX_SVC_FAST_FILE, <state dir>/exec.fast (0600), written with the record
 * while the sandbox runs and its execs may go through the service (removed
 * otherwise): what `sbx exec NAME -- CMD` sends for it without reading the
 * record: sbx_svc_fast, then `len` bytes of strings: workdir, the PATH to
 * search, n_env "K=V" (the sandbox's environment as an exec gets it). */
#pragma once

#include <stdint.h>

#define SBX_SVC_SOCKET "exec.sock"
#define SBX_SVC_MAGIC 0x53627845u          /* "ExbS" */
#define SBX_SVC_VERSION 1u
#define SBX_SVC_MAX_DATA (4u << 20)        /* argv + env + paths, bytes */
#define SBX_SVC_MAX_STRINGS 65536u
#define SBX_SVC_CHUNK 65536u               /* one data record */
#define SBX_SVC_MAX_EXECS 1024             /* execs in flight per sandbox */
#define SBX_SVC_TIMEOUT_SEC 5              /* init waits no longer for a request's records */
#define SBX_SVC_GO 'G'

enum {
        SBX_SVC_FD_STDIN,
        SBX_SVC_FD_STDOUT,
        SBX_SVC_FD_STDERR,
        SBX_SVC_FD_EXEC,                   /* O_PATH fd of the decided file (#! rewrite done) */
        SBX_SVC_FD_SYNC,                   /* the child's end of the host's sync socket */
        SBX_SVC_N_FDS,
};

enum {
        SBX_SVC_TTY = 1 << 0,              /* a pty from the sandbox's devpts */
        SBX_SVC_STDIN_NULL = 1 << 1,       /* stdin = the sandbox's /dev/null */
        SBX_SVC_NO_GO = 1 << 2,            /* exec right after READY */
        SBX_SVC_UMASK = 1 << 3,            /* the caller's umask is in bits 8-16 (a joined exec inherits it) */
        SBX_SVC_SEARCH = 1 << 4,           /* no exec fd: the child searches PATH (the last string) */
};
#define SBX_SVC_UMASK_SHIFT 8

/* Strings, each NUL-terminated, in this order: workdir, n_argv argv
 * (exec_argv, the #! rewrite done), n_env "K=V". */
struct sbx_svc_request {
        uint32_t magic, version, flags, n_argv, n_env, len;
};

enum {
        SBX_SVC_PTY = 1,
        SBX_SVC_READY = 2,
        SBX_SVC_FAILED = 3,
};

/* The child's setup steps, named in the host's error message. */
enum {
        SBX_SVC_STEP_STDIO = 1,
        SBX_SVC_STEP_TTY,
        SBX_SVC_STEP_SESSION,
        SBX_SVC_STEP_CHDIR,
        SBX_SVC_STEP_READY,
        SBX_SVC_STEP_EXEC,
        SBX_SVC_STEP_FORK,                 /* init's clone of the child failed (sent by init) */
};

struct sbx_svc_child {
        uint32_t magic, type;
        int32_t step, err;                 /* SBX_SVC_FAILED: the step and its errno */
};

struct sbx_svc_exit {
        uint32_t magic;
        int32_t wstatus;                   /* as wait4 gives it */
};

#define SBX_SVC_FAST_FILE "exec.fast"
#define SBX_SVC_FAST_MAGIC 0x74736146u     /* "Fast" */
struct sbx_svc_fast {
        uint32_t magic, version, n_env, len;
};

/* How the command ended, as sbx exec exits: 0-255, 128 + signal; -1: not a
 * status wait4 gives (init's word is not trusted). */
static inline int sbx_svc_exit_code(int32_t wstatus) {
        int sig = wstatus & 0x7f;

        if (sig == 0)
                return (wstatus >> 8) & 0xff;
        if (sig != 0x7f && sig < 65 && !(wstatus & ~0xff))
                return 128 + sig;
        return -1;
}

/* What sbx exec says when init's side fails (%s: the sandbox's name). */
#define SBX_SVC_MSG_PIDS_LIMIT(who) "exec: sandbox '%s' is at its pids limit (%llu processes): " who " could not " \
                                    "fork the command (its processes hold every slot; --pids-limit, docker.pidsLimit)"
#define SBX_SVC_MSG_PIDS_MAX SBX_SVC_MSG_PIDS_LIMIT("its init")
/* the same limit met by a setns join (join.c): sbx's own clone3 into the sandbox */
#define SBX_SVC_MSG_PIDS_MAX_JOIN SBX_SVC_MSG_PIDS_LIMIT("sbx")
#define SBX_SVC_MSG_NOT_RUN "exec: sandbox '%s': its init did not run the command (it refused the request, is out " \
                            "of exec slots, or exited)"
#define SBX_SVC_MSG_STOPPED "exec: sandbox '%s' stopped while the command ran (its init exited: stopped, removed " \
                            "or crashed); the command was killed"
#define SBX_SVC_MSG_NO_STATUS "exec service: no exit status from sandbox '%s''s init"
#define SBX_SVC_MSG_BAD_STATUS "exec service: a bad exit status from sandbox '%s''s init"
#define SBX_SVC_MSG_BAD_RECORD "exec service: a bad record from the sandbox's init"

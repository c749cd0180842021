/* SPDX-License-Identifier: MIT */
/* Exec decided before fork (issue 6): the command is resolved in the parent,
 * inside the sandbox's file system as the launch plan will build it, and the
 * file found is opened as an O_PATH fd that the child runs with execveat().
 *
 * The "view" is the plan's mount list read as a table: sandbox path ->
 * source fd (a bind's host dir or the detached tree the parent cloned), an
 * empty dir (tmpfs, mountpoints), or a symlink (merged-/usr /bin -> usr/bin).
 * Resolution walks one component at a time: each step is an
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) below the source fd of the
 * mount that holds it, and every symlink is read and spliced into the rest
 * of the path by us, absolute targets restarting at the sandbox root. That
 * is RESOLVE_IN_ROOT over the whole multi-mount tree: nothing resolves to a
 * host path the sandbox cannot see, and the file we decide on is the fd we
 * run. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct sbx_plan;

typedef struct sbx_view_entry {
        char *dst;            /* canonical absolute sandbox path ("/" for the root) */
        int fd;               /* O_PATH source (dir or file), -EBADF: empty (tmpfs, dir, proc) */
        char *link;           /* symlink target, or NULL */
        bool file;            /* a file mountpoint without a source (generated /etc file) */
        int upper_fd;         /* overlay root (--image): the upper dir, looked at first; else -EBADF */
} sbx_view_entry;

typedef struct sbx_view {
        sbx_view_entry *e;
        size_t n;
} sbx_view;

/* The sandbox file system as the plan describes it (parent, before clone). */
int sbx_view_from_plan(const struct sbx_plan *p, sbx_view *ret, sbx_error *reterr);
/* Add one entry (dst absolute; fd is taken over, link copied). */
int sbx_view_add(sbx_view *v, const char *dst, int fd, const char *link, bool file);
void sbx_view_done(sbx_view *v);

/* Resolve path (relative ones against cwd) inside the view, following every
 * symlink within the view (at most 40). On success *ret_fd is an O_PATH fd of
 * the final object and ret_path its canonical sandbox path. */
int sbx_view_resolve(const sbx_view *v, const char *path, const char *cwd, char ret_path[static PATH_MAX],
                     int *ret_fd);

#define SBX_EXEC_MAX_CHAIN 5  /* the command + 4 levels of #! (the kernel's BINPRM_MAX_RECURSION) */

typedef struct sbx_exec_file {
        char path[PATH_MAX];  /* canonical path in the sandbox */
        int fd;               /* O_PATH, -EBADF if none */
        char arg[256];        /* #! optional argument of the file *before* this one ("" = none) */
} sbx_exec_file;

typedef struct sbx_exec_target {
        /* chain[0] is the command; chain[i + 1] the #! interpreter of chain[i];
         * the last one is the binary the kernel loads (ELF, or not a script). */
        sbx_exec_file chain[SBX_EXEC_MAX_CHAIN];
        size_t n_chain;
        sbx_exec_file loader; /* PT_INTERP (ld-linux) of the last, fd -EBADF when static */
} sbx_exec_target;

void sbx_exec_target_init(sbx_exec_target *t);
void sbx_exec_target_done(sbx_exec_target *t);

/* execvp's lookup in the view: name with a '/' is resolved against workdir,
 * otherwise each PATH entry is tried; then #! interpreters and the ELF loader
 * are resolved the same way. Returns 0, -ENOENT (not found), -EACCES (found,
 * not an executable regular file), -ELOOP, -ENOEXEC (bad #! line). reterr
 * names the path at fault. */
int sbx_exec_resolve(const sbx_view *v, const char *name, const char *path_env, const char *workdir,
                     sbx_exec_target *ret, sbx_error *reterr);

/* The argv the child passes to execveat(chain[last].fd): the kernel's #!
 * rewrite done by us, since a CLOEXEC script fd cannot be handed to the
 * interpreter as /dev/fd/N. argv[0] is kept for plain binaries. NULL-terminated,
 * pointers into t and argv; free() the array only. */
char **sbx_exec_argv(const sbx_exec_target *t, char *const *argv);

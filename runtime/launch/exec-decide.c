/* SPDX-License-Identifier: MIT */
/* Exec decided before fork (issue 6): plan view -> resolved command ->
 * allowlist decision -> exec fd + argv -> Landlock ruleset. Parent only. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "security/security.h"
#include "util/util.h"
#include "launch.h"

/* ------------------------------------------------------------------ view of a plan */

/* One mount op as a view entry: its source fd, empty, or a symlink. */
static int view_add_op(sbx_view *v, const sbx_mount_op *op, sbx_error *reterr) {
        int fd = -EBADF;

        switch (op->kind) {
        case SBX_MOUNT_BIND:
        case SBX_MOUNT_DETACHED:
        case SBX_MOUNT_OVERLAY:
                if (op->kind == SBX_MOUNT_OVERLAY && (op->flags & SBX_MNT_LOWER_IN_ROOT))
                        return 0;       /* the lower layer is what the view has there already */
                if (op->kind == SBX_MOUNT_OVERLAY && !op->src)
                        return sbx_view_add(v, op->dst, -EBADF, NULL, false);  /* empty default workspace */
                fd = op->src_fd >= 0 ? fcntl(op->src_fd, F_DUPFD_CLOEXEC, 3) :
                                       open(op->src, O_PATH | O_CLOEXEC);
                if (fd < 0) {
                        if (errno == ENOENT && (op->flags & SBX_MNT_OPTIONAL))
                                return 0;
                        return sbx_error_set(reterr, -errno, "exec: open '%s' to resolve the command",
                                             op->what ?: op->dst);
                }
                return sbx_view_add(v, op->dst, fd, NULL, false);
        case SBX_MOUNT_SYMLINK:
                return sbx_view_add(v, op->dst, -EBADF, op->data, false);
        case SBX_MOUNT_FILE:
                return sbx_view_add(v, op->dst, -EBADF, NULL, true);
        case SBX_MOUNT_DEVICE:
                return sbx_view_add(v, op->dst, -EBADF, NULL, true);
        case SBX_MOUNT_FS:               /* an OCI container's tmpfs, proc, ...: nothing to run there */
        case SBX_MOUNT_TMPFS:
        case SBX_MOUNT_DIR:
        case SBX_MOUNT_PROC:
        case SBX_MOUNT_DEVPTS:
        case SBX_MOUNT_MQUEUE:
                return sbx_view_add(v, op->dst, -EBADF, NULL, false);
        case SBX_MOUNT_MASK:
        case SBX_MOUNT_READONLY:
        case _SBX_MOUNT_KIND_MAX:
        case _SBX_MOUNT_KIND_INVALID:
        default:
                return 0;
        }
}

int sbx_view_from_plan(const sbx_plan *p, sbx_view *ret, sbx_error *reterr) {
        sbx_view v = {};
        int r;

        r = sbx_view_add(&v, "/", -EBADF, NULL, false);
        /* --image: the root is an overlay; look in its upper dir (earlier
         * runs of a persistent scope), then in the image. Whiteouts hide. */
        if (r >= 0 && p->root_overlay.upper) {
                v.e[0].fd = p->root_overlay.lower_tree >= 0 ?
                        fcntl(p->root_overlay.lower_tree, F_DUPFD_CLOEXEC, 3) :
                        open(p->root_overlay.lower, O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (v.e[0].fd < 0)
                        r = sbx_error_set(reterr, -errno, "exec: open the image '%s' to resolve the command",
                                          p->root_overlay.lower);
                v.e[0].upper_fd = open(p->root_overlay.upper, O_PATH | O_DIRECTORY | O_CLOEXEC);
        }
        /* an OCI container: its rootfs, bound onto itself */
        if (r >= 0 && p->root_bind && (v.e[0].fd = open(p->root_bind, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
                r = sbx_error_set(reterr, -errno, "exec: open the rootfs '%s' to resolve the command", p->root_bind);
        for (size_t i = 0; r >= 0 && i < p->n_mounts; i++)
                r = view_add_op(&v, &p->mounts[i], reterr);
        if (r < 0) {
                sbx_view_done(&v);
                return r == -ENOMEM ? sbx_error_set(reterr, r, "exec: out of memory") : r;
        }
        *ret = v;
        return 0;
}

#define MAX_PATTERNS 256

/* The allowlist, prepared against the view: "~" expanded to the sandbox
 * HOME, literal patterns resolved to their file (fds kept for Landlock), the
 * literal directory part of globs resolved (so /bin/STAR means /usr/bin/STAR
 * on a merged-/usr root) and kept as the Landlock directory to grant. */
typedef struct allow_set {
        char *pat[MAX_PATTERNS];
        char *resolved[MAX_PATTERNS];
        int file_fd[MAX_PATTERNS];      /* literal: its file */
        int dir_fd[MAX_PATTERNS];       /* glob: the directory its wildcards start in */
        char *dir_path[MAX_PATTERNS];   /* ... and its canonical sandbox path */
        size_t n;
        bool everything;                /* a bare "*" */
} allow_set;

static void allow_set_done(allow_set *a) {
        for (size_t i = 0; i < a->n; i++) {
                free(a->pat[i]);
                free(a->resolved[i]);
                free(a->dir_path[i]);
                closep(&a->file_fd[i]);
                closep(&a->dir_fd[i]);
        }
        a->n = 0;
}

static const char *home_of(const sbx_plan *p) {
        for (size_t i = 0; p->envp[i]; i++)
                if (!strncmp(p->envp[i], "HOME=", 5))
                        return p->envp[i] + 5;
        return "/";
}

static int prepare_pattern(allow_set *a, const sbx_view *v, const char *home, const char *in) {
        char buf[PATH_MAX], canon[PATH_MAX];
        size_t i = a->n;
        int fd, r;

        a->file_fd[i] = a->dir_fd[i] = -EBADF;
        a->resolved[i] = a->dir_path[i] = NULL;
        if (in[0] == '~' && (in[1] == '/' || !in[1]))
                snprintf(buf, sizeof(buf), "%s%s", home, in + 1);
        else
                snprintf(buf, sizeof(buf), "%s", in);
        if (!strcmp(buf, "*"))
                a->everything = true;
        if (buf[0] == '/' && !sbx_exec_pattern_is_glob(buf)) {
                /* A literal path: the file it leads to in the sandbox (absent: matches nothing). */
                r = sbx_view_resolve(v, buf, "/", canon, &fd);
                if (r >= 0) {
                        a->resolved[i] = strdup(canon);
                        a->file_fd[i] = fd;
                }
        } else if (buf[0] == '/') {
                /* A glob: resolve its literal directory part, match below that. */
                size_t dl = strcspn(buf, "*?");
                while (dl > 0 && buf[dl - 1] != '/')
                        dl--;
                snprintf(canon, sizeof(canon), "%.*s", (int) (dl > 1 ? dl - 1 : 1), buf);
                r = sbx_view_resolve(v, canon, "/", canon, &fd);
                if (r >= 0) {
                        a->dir_fd[i] = fd;
                        a->dir_path[i] = strdup(canon);
                        snprintf(canon + strlen(canon), sizeof(canon) - strlen(canon), "%s%s",
                                 strcmp(canon, "/") ? "/" : "", buf + dl);
                        snprintf(buf, sizeof(buf), "%s", canon);
                }
        }
        a->pat[i] = strdup(buf);
        a->n++;
        return a->pat[i] ? 0 : -ENOMEM;
}

static void add_exec_path(sbx_plan *p, const char *path) {
        sbx_landlock *l = &p->landlock;

        for (unsigned i = 0; i < l->n_exec_paths; i++)
                if (!strcmp(l->exec_paths[i], path))
                        return;
        if (path && l->n_exec_paths < SBX_LANDLOCK_MAX_EXEC && (l->exec_paths[l->n_exec_paths] = sbx_plan_strdup(p, path)))
                l->n_exec_paths++;
}

/* a and b (absolute) are the same path or one lies beneath the other */
static bool paths_overlap(const char *a, const char *b) {
        size_t la = strlen(a), lb = strlen(b), l = la < lb ? la : lb;

        while (l > 0 && (a[l - 1] == '/' || b[l - 1] == '/') && (la == l ? a : b)[l - 1] == '/')
                l--;
        if (strncmp(a, b, l))
                return false;
        return la == lb || l == 0 || (la > l ? a[l] : b[l]) == '/';
}

/* Under an exec allowlist Landlock decides what execve may run, but not what
 * may be mapped executable: the loader maps LD_PRELOAD / LD_LIBRARY_PATH /
 * LD_AUDIT libraries (and dlopen what a program is told to) with mmap, so an
 * allowed `ls` ran a library the sandbox wrote to /tmp, and with it any code.
 * noexec, which the kernel checks for mmap(PROT_EXEC) too, on every mount the
 * sandbox can write, except where an allowed file or glob directory lies (what
 * the policy lets run there may as well be mapped). */
static void noexec_writable(sbx_plan *p) {
        const sbx_landlock *l = &p->landlock;

        for (size_t i = 0; i < p->n_mounts; i++) {
                sbx_mount_op *op = &p->mounts[i];
                char dst[PATH_MAX];
                bool writable, exec_there = false;

                writable = op->kind == SBX_MOUNT_TMPFS || op->kind == SBX_MOUNT_BIND ||
                           op->kind == SBX_MOUNT_DETACHED || op->kind == SBX_MOUNT_FS ||
                           (op->kind == SBX_MOUNT_OVERLAY && (op->work || (op->flags & SBX_MNT_SCRATCH)));
                if (!writable || (op->flags & (SBX_MNT_RO | SBX_MNT_NOEXEC)))
                        continue;
                snprintf(dst, sizeof(dst), "/%s", op->dst ?: "");
                /* ("": sbx-init's own file, on no mount of the sandbox) */
                for (unsigned k = 0; k < l->n_exec_paths && !exec_there; k++)
                        exec_there = l->exec_paths[k][0] == '/' && paths_overlap(dst, l->exec_paths[k]);
                if (!exec_there)
                        op->flags |= SBX_MNT_NOEXEC;
        }
}

static void root_exec_dir(sbx_plan *p, const char *dir) {
        typeof(p->root_overlay) *o = &p->root_overlay;

        while (*dir == '/')
                dir++;
        if (!*dir)
                return;
        for (unsigned i = 0; i < o->n_exec_dirs; i++)
                if (paths_overlap(o->exec_dirs[i], dir) && strlen(o->exec_dirs[i]) <= strlen(dir))
                        return;         /* beneath one bound already */
        if (o->n_exec_dirs < ELEMENTSOF(o->exec_dirs) && (o->exec_dirs[o->n_exec_dirs] = sbx_plan_strdup(p, dir)))
                o->n_exec_dirs++;
}

/* The same for a writable root (--writable-root, an image with a writable
 * layer, an OCI container's rootfs): an allowed file lies on it, so it kept exec, and a library the
 * sandbox wrote anywhere on it (LD_PRELOAD=/opt/x.so) was mapped. The root
 * is noexec; the image's system directories and each allowed file's
 * directory are bound onto themselves read-only, with exec: what runs or is
 * mapped from there, the sandbox cannot write. */
static void noexec_root(sbx_plan *p) {
        static const char *const system_dirs[] = { "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32" };
        const sbx_landlock *l = &p->landlock;

        if ((!p->root_overlay.upper && !p->root_bind) || p->read_only_root)
                return;
        p->root_overlay.noexec = true;
        for (size_t i = 0; i < ELEMENTSOF(system_dirs); i++)
                root_exec_dir(p, system_dirs[i]);
        for (unsigned k = 0; k < l->n_exec_paths; k++) {
                const char *e = l->exec_paths[k], *slash;
                bool other_mount = false;
                char dir[PATH_MAX];

                if (e[0] != '/')
                        continue;
                for (size_t i = 0; i < p->n_mounts && !other_mount; i++) {
                        char dst[PATH_MAX];
                        snprintf(dst, sizeof(dst), "/%s", p->mounts[i].dst ?: "");
                        other_mount = strcmp(dst, "/") && paths_overlap(dst, e) && strlen(dst) <= strlen(e);
                }
                if (other_mount)
                        continue;       /* noexec_writable's */
                slash = strrchr(e, '/');
                snprintf(dir, sizeof(dir), "%.*s", (int) (slash > e ? slash - e : (ptrdiff_t) strlen(e)), e);
                root_exec_dir(p, dir);
        }
}

/* Landlock's EXECUTE grants: each allowed literal file and the ELF loader
 * it needs, the directory of each glob, the command's loader. */
static int landlock_request(sbx_plan *p, const sbx_run_config *c, const sbx_view *v, const allow_set *a,
                            sbx_error *reterr) {
        int files[2 * MAX_PATTERNS + 1], dirs[MAX_PATTERNS];
        sbx_exec_target *lt = NULL;
        unsigned nf = 0, nd = 0;
        struct stat st;
        sbx_landlock_request req = {
                .read_only_fs = c->read_only_fs,
                .exec_restrict = c->exec_allow_set && !a->everything,
                .best_effort = c->landlock_best_effort,
        };
        int r;

        /* A memfd is on no path Landlock rules cover: executable memfds
         * would be a way around the allowlist. The pid namespace's sysctl
         * can only be set by host root (the child, before its ids change). */
        p->memfd_noexec = req.exec_restrict && p->privileged;

        if (req.exec_restrict) {
                lt = malloc(sizeof(*lt));
                if (!lt)
                        return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
                for (size_t i = 0; i < a->n; i++) {
                        bool seen = false;
                        if (a->dir_fd[i] >= 0) {
                                dirs[nd++] = a->dir_fd[i];
                                add_exec_path(p, a->dir_path[i]);
                        }
                        if (a->file_fd[i] < 0 || fstat(a->file_fd[i], &st) < 0 || !S_ISREG(st.st_mode))
                                continue;
                        /* /bin/X and /usr/bin/X on a merged-/usr root: one file, one rule */
                        for (size_t k = 0; k < i && !seen; k++)
                                seen = a->file_fd[k] >= 0 && a->resolved[k] && !strcmp(a->resolved[k], a->resolved[i]);
                        if (seen)
                                continue;
                        files[nf++] = a->file_fd[i];
                        add_exec_path(p, a->resolved[i]);
                        /* its loader, if it is a dynamic ELF binary */
                        if (sbx_exec_resolve(v, a->resolved[i], "", "/", lt, NULL) >= 0 && lt->loader.fd >= 0 &&
                            lt->n_chain == 1) {
                                int fd = fcntl(lt->loader.fd, F_DUPFD_CLOEXEC, 3);
                                if (fd >= 0)
                                        files[nf++] = fd;
                                add_exec_path(p, lt->loader.path);
                        }
                        sbx_exec_target_done(lt);
                }
                if (p->exec_target->loader.fd >= 0) {
                        files[nf++] = p->exec_target->loader.fd;
                        add_exec_path(p, p->exec_target->loader.path);
                }
                noexec_writable(p);
                noexec_root(p);
        }
        req.exec_files = files;
        req.n_exec_files = nf;
        req.exec_dirs = dirs;
        req.n_exec_dirs = nd;
        r = sbx_landlock_prepare(&p->landlock, &req, reterr);
        /* close the loader fds we duplicated (every other one is owned elsewhere) */
        for (unsigned i = 0; i < nf; i++) {
                bool owned = files[i] == p->exec_target->loader.fd;
                for (size_t k = 0; k < a->n && !owned; k++)
                        owned = files[i] == a->file_fd[k];
                if (!owned)
                        closep(&files[i]);
        }
        free(lt);
        return r;
}

/* setupCommand's shell, /bin/sh of the sandbox's view, opened for the child to run by fd (the
 * operator's config: not decided on). */
static int resolve_setup_shell(sbx_plan *p, const sbx_view *v, sbx_error *reterr) {
        char shp[PATH_MAX];
        int r;

        if (!p->setup_command)
                return 0;
        r = sbx_view_resolve(v, "/bin/sh", "/", shp, &p->setup_sh_fd);
        return r < 0 ? sbx_error_set(reterr, r, "setupCommand: resolve /bin/sh in the sandbox") : 0;
}

/* Landlock's write rights cover writes, not a file's metadata: under
 * --read-only-fs a read-only agent still changed the modes (chmod 000),
 * times and user xattrs of the host's files through an rw workspace or bind.
 * Every bind and overlay of the plan but the root and those under /dev (what
 * stays writable: they and every tmpfs) is made read-only as well, so the
 * kernel refuses those with EROFS. One that other mounts are made on (the
 * workspace with docker's -v .../skills:/workspace/skills) may need their
 * mountpoints created in it: it is made read-only after them, by an op at the
 * end, unless a tmpfs (writable) is among them. (The root keeps its flags.) */
static int readonly_mounts(sbx_plan *p, sbx_error *reterr) {
        size_t n = p->n_mounts;

        for (size_t i = 0; i < n; i++) {
                sbx_mount_op *op = &p->mounts[i];
                const char *dst = op->dst ?: "";
                size_t len = strlen(dst);
                bool nested = false, tmpfs_below = false;

                /* (a container's proc, sysfs, cgroup... mounts keep config.json's flags) */
                if (!(op->kind == SBX_MOUNT_BIND || op->kind == SBX_MOUNT_DETACHED ||
                      (op->kind == SBX_MOUNT_OVERLAY && (op->work || (op->flags & SBX_MNT_SCRATCH)))) ||
                    !dst[0] || !strcmp(dst, "dev") || !strncmp(dst, "dev/", 4) || (op->flags & SBX_MNT_RO))
                        continue;
                for (size_t j = i + 1; j < n; j++) {
                        const sbx_mount_op *o = &p->mounts[j];
                        if (!o->dst || strncmp(o->dst, dst, len) || o->dst[len] != '/')
                                continue;
                        nested = true;
                        tmpfs_below = tmpfs_below || o->kind == SBX_MOUNT_TMPFS ||
                                      (o->kind == SBX_MOUNT_FS && o->fstype && !strcmp(o->fstype, "tmpfs"));
                }
                if (!nested)
                        op->flags |= SBX_MNT_RO;
                else if (!tmpfs_below) {
                        char *d = strdup(dst);
                        sbx_mount_op *late = d ? sbx_plan_add_mount(p, SBX_MOUNT_READONLY, d, reterr) : NULL;
                        free(d);
                        if (!late)
                                return sbx_error_set(reterr, -ENOMEM, "plan: out of memory");
                        late->what = late->dst;
                }
        }
        return 0;
}

/* The places that stay writable under --read-only-fs: every tmpfs, and /dev
 * (device nodes such as /dev/null, the pty, /dev/shm). */
static int writable_places(sbx_plan *p, const char *const *joined, size_t n_joined, sbx_error *reterr) {
        sbx_landlock *l = &p->landlock;
        int r = readonly_mounts(p, reterr);

        if (r < 0)
                return r;

        l->writable[l->n_writable++] = "/dev";
        /* a joined exec: the live sandbox's tmpfs mounts, from its record */
        for (size_t i = 0; i < n_joined; i++) {
                if (l->n_writable >= SBX_LANDLOCK_MAX_WRITABLE)
                        return sbx_error_set(reterr, -E2BIG, "landlock: too many tmpfs mounts");
                l->writable_optional[l->n_writable] = true;
                l->writable[l->n_writable] = sbx_plan_strdup(p, joined[i]);
                if (!l->writable[l->n_writable++])
                        return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        }
        for (size_t i = 0; i < p->n_mounts; i++) {
                const sbx_mount_op *op = &p->mounts[i];
                if (op->kind != SBX_MOUNT_TMPFS && !(op->kind == SBX_MOUNT_FS && !strcmp(op->fstype, "tmpfs")))
                        continue;
                if (l->n_writable >= SBX_LANDLOCK_MAX_WRITABLE)
                        return sbx_error_set(reterr, -E2BIG, "landlock: too many tmpfs mounts");
                l->writable_optional[l->n_writable] = op->flags & SBX_MNT_OPTIONAL;
                l->writable[l->n_writable] = sbx_plan_strdupf(p, "/%s", op->dst);
                if (!l->writable[l->n_writable++])
                        return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        }
        return 0;
}

static int not_runnable(sbx_exec_verdict *v, int r, const char *name, const sbx_error *e) {
        /* Only "not found" and "not executable" are about the command; any
         * other error is sbx failing (125), with the step in the message. */
        if (r != -ENOENT && r != -ENOTDIR && r != -ELOOP && r != -EACCES && r != -ENOEXEC)
                return r;
        v->decided = true;
        v->allow = false;
        /* Docker's rule (and a shell's): 127 only when the command or a
         * directory on its way is missing; a file that exists but cannot be
         * run (no x bit, not an executable, a #! loop or chain deeper than
         * the kernel takes, a symlink loop: ELOOP) is 126. */
        v->status = r == -ENOENT || r == -ENOTDIR ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_EXEC;
        snprintf(v->file, sizeof(v->file), "%s", name);
        snprintf(v->rule, sizeof(v->rule), "%s: %.400s", v->status == SBX_EXIT_NOT_FOUND ? "not found" :
                 "not executable", e->msg);
        return r;
}

static int landlock_request(sbx_plan *p, const sbx_run_config *c, const sbx_view *v, const allow_set *a,
                            sbx_error *reterr);

static int own_binary(sbx_plan *p, const sbx_run_config *c, sbx_view *v, allow_set *a, sbx_exec_verdict *ret,
                      sbx_error *reterr) {
        sbx_exec_target *t = p->exec_target = malloc(sizeof(*t));
        int r;

        if (!t)
                return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        sbx_exec_target_init(t);
        t->n_chain = 1;
        t->chain[0].fd = fcntl(c->exec_fd, F_DUPFD_CLOEXEC, 3);
        snprintf(t->chain[0].path, sizeof(t->chain[0].path), "%s", c->argv[0]);
        if (t->chain[0].fd < 0)
                return sbx_error_set(reterr, -errno, "exec: duplicate the fd of '%s'", c->argv[0]);
        *ret = (sbx_exec_verdict) { .decided = true, .allow = true };
        snprintf(ret->file, sizeof(ret->file), "%s", c->argv[0]);
        snprintf(ret->rule, sizeof(ret->rule), "sbx's own binary, opened by sbx");
        p->exec_fd = t->chain[0].fd;
        p->exec_fd_own = true;
        p->exec_argv = sbx_exec_argv(t, p->argv);
        if (!p->exec_argv)
                return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        /* The sandbox's file system as the plan builds it: for the allowlist's
         * patterns and setupCommand's shell (sbx create --setup-command). */
        if (c->n_exec_allow > 0 || p->setup_command) {
                r = sbx_view_from_plan(p, v, reterr);
                if (r < 0)
                        return r;
        }
        r = resolve_setup_shell(p, v, reterr);
        if (r < 0)
                return r;
        if (c->read_only_fs) {
                r = writable_places(p, NULL, 0, reterr);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < c->n_exec_allow && i < MAX_PATTERNS; i++)
                if (prepare_pattern(a, v, home_of(p), c->exec_allow[i]) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        /* its own execute right: the init must start under an allowlist too */
        t->loader.fd = fcntl(c->exec_fd, F_DUPFD_CLOEXEC, 3);
        return landlock_request(p, c, v, a, reterr);
}

/* Every exec refused (the exec tool removed, security deny): no lookup can
 * change that, and a missing command must not hide it. */
static int refuse_all(const sbx_exec_rules *rules, const char *name, sbx_exec_verdict *ret_verdict,
                      sbx_error *reterr) {
        sbx_exec_target none;

        sbx_exec_target_init(&none);
        sbx_exec_decide(rules, &none, ret_verdict);
        snprintf(ret_verdict->file, sizeof(ret_verdict->file), "%s", name);
        ret_verdict->status = SBX_EXIT_CANNOT_EXEC;
        return sbx_error_set(reterr, -EACCES, "exec refused by policy: %s (%s)", ret_verdict->rule,
                             ret_verdict->key);
}

/* Steps 2-5 in a view of the sandbox: resolve, decide, exec fd + argv,
 * setupCommand's shell, Landlock. joined: the writable tmpfs paths of a live
 * sandbox (a joined exec has no mount plan). landlock false: no ruleset (the
 * command inherits the sandbox init's domain: the exec service). */
static int decide_in_view(sbx_plan *p, const sbx_run_config *c, const sbx_view *v, sbx_exec_rules *rules,
                          const char *const *joined, size_t n_joined, bool landlock, sbx_exec_verdict *ret_verdict,
                          sbx_error *reterr) {
        _cleanup_(allow_set_done) allow_set a = {};
        sbx_exec_target *t;
        int r;

        /* 2. The command, its #! interpreters and its loader, resolved in it. */
        t = p->exec_target = malloc(sizeof(*t));
        if (!t)
                return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        r = sbx_exec_resolve(v, p->argv[0], p->path_env, p->workdir, t, reterr);
        if (r < 0)
                return not_runnable(ret_verdict, r, p->argv[0], reterr);
        /* 3. The decision, on the resolved files. */
        for (size_t i = 0; i < c->n_exec_allow; i++)
                if (prepare_pattern(&a, v, home_of(p), c->exec_allow[i]) < 0)
                        return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        rules->patterns = a.pat;
        rules->n_patterns = a.n;
        rules->resolved = (const char *const *) a.resolved;
        sbx_exec_decide(rules, t, ret_verdict);
        if (!ret_verdict->allow) {
                ret_verdict->status = SBX_EXIT_CANNOT_EXEC;
                if (ret_verdict->key[0] && !strstr(ret_verdict->rule, ret_verdict->key))
                        return sbx_error_set(reterr, -EACCES, "exec refused by policy: %s (%s)", ret_verdict->rule,
                                             ret_verdict->key);
                return sbx_error_set(reterr, -EACCES, "exec refused by policy: %s", ret_verdict->rule);
        }
        /* 4. What the child runs: this fd, with the #! rewrite done here. */
        p->exec_fd = t->chain[t->n_chain - 1].fd;
        p->exec_argv = sbx_exec_argv(t, p->argv);
        if (!p->exec_argv)
                return sbx_error_set(reterr, -ENOMEM, "exec: out of memory");
        /* 4b. setupCommand's shell, resolved the same way (operator config: not decided on). */
        r = resolve_setup_shell(p, v, reterr);
        if (r < 0)
                return r;
        /* 5. Landlock: the ruleset now, the tmpfs rules in the child. */
        if (!landlock)
                return 0;
        if (c->read_only_fs) {
                r = writable_places(p, joined, n_joined, reterr);
                if (r < 0)
                        return r;
        }
        return landlock_request(p, c, v, &a, reterr);
}

static sbx_exec_rules rules_of(const sbx_run_config *c) {
        return (sbx_exec_rules) { .active = c->exec_allow_set, .key = c->exec_allow_key ?: "--exec-allow",
                                  .refuse_all_rule = c->exec_refused_rule, .refuse_all_key = c->exec_refused_key };
}

int sbx_exec_decide_prepare(sbx_plan *p, const sbx_run_config *c, sbx_exec_verdict *ret_verdict,
                            sbx_error *reterr) {
        _cleanup_(sbx_view_done) sbx_view v = {};
        _cleanup_(allow_set_done) allow_set a = {};
        sbx_exec_rules rules = rules_of(c);
        int r;

        if (c->n_exec_allow > MAX_PATTERNS)
                return sbx_error_set(reterr, -E2BIG, "%s: more than %d patterns", rules.key, MAX_PATTERNS);
        /* sbx's own binary (sbx-init), opened by sbx: nothing to look up or decide. */
        if (c->exec_fd_set)
                return own_binary(p, c, &v, &a, ret_verdict, reterr);
        /* 0. */
        if (c->exec_refused_rule)
                return refuse_all(&rules, p->argv[0], ret_verdict, reterr);
        /* 1. The sandbox's file system as the plan will build it. */
        r = sbx_view_from_plan(p, &v, reterr);
        if (r < 0)
                return r;
        return decide_in_view(p, c, &v, &rules, NULL, 0, true, ret_verdict, reterr);
}

static int exit_status_of(const sbx_exec_verdict *v) {
        if (v->decided && !v->allow)
                return v->status ?: SBX_EXIT_CANNOT_EXEC;
        return SBX_EXIT_FAILURE;
}

int sbx_exec_resolve_joined(sbx_plan *p, const sbx_run_config *c, int root_fd, const char *const *writable,
                            size_t n_writable, sbx_exec_verdict *ret_verdict, sbx_error *reterr) {
        _cleanup_(sbx_view_done) sbx_view v = {};
        sbx_exec_rules rules = rules_of(c);
        int fd, r;

        *ret_verdict = (sbx_exec_verdict) {};
        if (c->n_exec_allow > MAX_PATTERNS)
                return sbx_error_set(reterr, -E2BIG, "%s: more than %d patterns", rules.key, MAX_PATTERNS),
                       SBX_EXIT_FAILURE;
        /* 0. as for the first process: decided before anything starts */
        if (c->exec_refused_rule)
                return refuse_all(&rules, p->argv[0], ret_verdict, reterr), SBX_EXIT_CANNOT_EXEC;
        /* After setns(): our root is the sandbox's root, every mount of it
         * reachable from there; the view is that one tree. From outside: the
         * same tree through /proc/<init>/root. */
        fd = root_fd >= 0 ? fcntl(root_fd, F_DUPFD_CLOEXEC, 3) : open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return sbx_error_set(reterr, -errno, "exec: open the sandbox root"), SBX_EXIT_FAILURE;
        if (sbx_view_add(&v, "/", fd, NULL, false) < 0)
                return sbx_error_set(reterr, -ENOMEM, "exec: out of memory"), SBX_EXIT_FAILURE;
        r = decide_in_view(p, c, &v, &rules, writable, n_writable, root_fd < 0, ret_verdict, reterr);
        return r < 0 ? exit_status_of(ret_verdict) : 0;
}

/* The home the sandbox's processes get (for "~" in patterns): HOME from the
 * config's environment, else the launcher's default. */
static const char *config_home(const sbx_run_config *c) {
        for (size_t i = 0; i < c->n_env; i++)
                if (!strncmp(c->envv[i], "HOME=", 5))
                        return c->envv[i] + 5;
        return "/root";
}

int sbx_exec_decide_path(const sbx_run_config *c, int root_fd, const char *path, const char *cwd,
                         sbx_exec_verdict *ret) {
        _cleanup_(sbx_view_done) sbx_view v = {};
        _cleanup_(allow_set_done) allow_set a = {};
        sbx_exec_rules rules = rules_of(c);
        sbx_exec_target t;
        sbx_error e = {};
        char rel[PATH_MAX];
        int fd, r;

        *ret = (sbx_exec_verdict) {};
        sbx_exec_target_init(&t);
        if (c->exec_refused_rule) {
                (void) refuse_all(&rules, path, ret, &e);
                return 0;
        }
        fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
                return -errno;
        if (sbx_view_add(&v, "/", fd, NULL, false) < 0)
                return -ENOMEM;
        /* execve does no PATH lookup: a bare name is relative to cwd */
        snprintf(rel, sizeof(rel), "%s%s", strchr(path, '/') ? "" : "./", path);
        r = sbx_exec_resolve(&v, rel, "", cwd, &t, &e);
        if (r < 0) {
                r = not_runnable(ret, r, path, &e);
                sbx_exec_target_done(&t);
                return ret->decided ? 0 : r;
        }
        for (size_t i = 0; i < c->n_exec_allow && i < MAX_PATTERNS; i++)
                if (prepare_pattern(&a, &v, config_home(c), c->exec_allow[i]) < 0) {
                        sbx_exec_target_done(&t);
                        return -ENOMEM;
                }
        rules.patterns = a.pat;
        rules.n_patterns = a.n;
        rules.resolved = (const char *const *) a.resolved;
        sbx_exec_decide(&rules, &t, ret);
        sbx_exec_target_done(&t);
        return 0;
}

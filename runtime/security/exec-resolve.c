/* SPDX-License-Identifier: MIT */
/* Command resolution inside the sandbox's view, in the parent (issue 6).
 * See exec-resolve.h for why this walk equals RESOLVE_IN_ROOT over the
 * multi-mount tree the child will build. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "security.h"
#include "util/util.h"

#define MAX_LINKS 40
#define RESOLVE_STEP (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

enum { KIND_DIR, KIND_FILE, KIND_LINK };

/* ------------------------------------------------------------------ view */

static void normalize(const char *in, char out[static PATH_MAX]) {
        size_t n = 0;

        out[n++] = '/';
        for (const char *s = in; *s && n < PATH_MAX - 1; s++) {
                if (*s == '/' && out[n - 1] == '/')
                        continue;
                out[n++] = *s;
        }
        while (n > 1 && out[n - 1] == '/')
                n--;
        out[n] = '\0';
}

int sbx_view_add(sbx_view *v, const char *dst, int fd, const char *link, bool file) {
        char norm[PATH_MAX];
        sbx_view_entry *e = realloc(v->e, (v->n + 1) * sizeof(*e));

        if (!e) {
                closep(&fd);
                return -ENOMEM;
        }
        v->e = e;
        normalize(dst, norm);
        e[v->n] = (sbx_view_entry) { .dst = strdup(norm), .fd = fd, .link = link ? strdup(link) : NULL,
                                     .file = file, .upper_fd = -EBADF };
        if (!e[v->n].dst || (link && !e[v->n].link)) {
                free(e[v->n].dst);
                free(e[v->n].link);
                closep(&fd);
                return -ENOMEM;
        }
        v->n++;
        return 0;
}

void sbx_view_done(sbx_view *v) {
        for (size_t i = 0; i < v->n; i++) {
                free(v->e[i].dst);
                free(v->e[i].link);
                closep(&v->e[i].fd);
                closep(&v->e[i].upper_fd);
        }
        free(v->e);
        *v = (sbx_view) {};
}


/* The entry mounted exactly at path, or the deepest one containing it
 * (later mounts win over earlier ones at the same place). */
static const sbx_view_entry *view_find(const sbx_view *v, const char *path, bool *ret_exact) {
        const sbx_view_entry *best = NULL;
        size_t best_len = 0;

        for (size_t i = v->n; i-- > 0;)
                if (!strcmp(v->e[i].dst, path)) {
                        *ret_exact = true;
                        return &v->e[i];
                }
        for (size_t i = v->n; i-- > 0;) {
                size_t l = strlen(v->e[i].dst);
                bool prefix = l == 1 || (!strncmp(v->e[i].dst, path, l) && path[l] == '/');
                if (prefix && (!best || l > best_len)) {
                        best = &v->e[i];
                        best_len = l;
                }
        }
        *ret_exact = false;
        return best;
}

/* openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) without openat2 (ENOSYS:
 * an old kernel or a filter around us): the same walk one component at a
 * time with O_NOFOLLOW. rel never holds "." or ".." (the caller resolved
 * those lexically), so no step can leave dirfd or follow a link. */
static int open_beneath(int dirfd, const char *rel) {
        char comp[NAME_MAX + 1];
        int fd, cur = -EBADF;

        fd = sys_openat2(dirfd, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC, RESOLVE_STEP);
        if (fd >= 0 || errno != ENOSYS)
                return fd;
        if (!*rel)
                return fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
        while (*rel) {
                size_t len = strcspn(rel, "/");
                if (len > NAME_MAX) {
                        closep(&cur);
                        errno = ENAMETOOLONG;
                        return -1;
                }
                snprintf(comp, sizeof(comp), "%.*s", (int) len, rel);
                fd = openat(cur >= 0 ? cur : dirfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                closep(&cur);
                if (fd < 0)
                        return -1;
                cur = fd;
                rel += len;
                rel += strspn(rel, "/");
        }
        return cur;
}

/* Look at one canonical, symlink-free-prefix path: its kind, the link
 * target if it is a symlink, an O_PATH fd of it (or -EBADF when empty). */
static int view_step(const sbx_view *v, const char *path, char link[static PATH_MAX], int *ret_fd) {
        const sbx_view_entry *e;
        struct stat st;
        bool exact;
        ssize_t n;
        int fd;

        *ret_fd = -EBADF;
        e = view_find(v, path, &exact);
        if (!e)
                return -ENOENT;
        if (exact && e->link) {
                snprintf(link, PATH_MAX, "%s", e->link);
                return KIND_LINK;
        }
        if (exact && e->fd < 0)
                return e->file ? KIND_FILE : KIND_DIR;
        if (exact)
                fd = fcntl(e->fd, F_DUPFD_CLOEXEC, 3);
        else if (e->fd < 0)
                return e->file ? -ENOTDIR : -ENOENT;   /* below a tmpfs: empty at start */
        else {
                const char *rel = path + strlen(e->dst) + (strlen(e->dst) > 1);
                fd = -1;
                errno = ENOENT;
                if (e->upper_fd >= 0 && (fd = open_beneath(e->upper_fd, rel)) >= 0 &&
                    fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == 0) {
                        closep(&fd);    /* an overlay whiteout: deleted in the upper layer */
                        return -ENOENT;
                }
                if (fd < 0 && errno == ENOENT)
                        fd = open_beneath(e->fd, rel);
        }
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0) {
                closep(&fd);
                return -errno;
        }
        if (S_ISLNK(st.st_mode)) {
                n = readlinkat(fd, "", link, PATH_MAX - 1);
                closep(&fd);
                if (n < 0)
                        return -errno;
                link[n] = '\0';
                return KIND_LINK;
        }
        *ret_fd = fd;
        return S_ISDIR(st.st_mode) ? KIND_DIR : KIND_FILE;
}

static void pop_component(char *cur) {
        char *slash = strrchr(cur, '/');

        if (slash)
                *slash = '\0';
}

int sbx_view_resolve(const sbx_view *v, const char *path, const char *cwd, char ret_path[static PATH_MAX],
                     int *ret_fd) {
        char todo[2 * PATH_MAX], tmp[2 * PATH_MAX], cur[PATH_MAX] = "", cand[PATH_MAX], link[PATH_MAX];
        const char *rest;
        int links = 0, kind, fd;

        if (!path[0])
                return -ENOENT;
        if (snprintf(todo, sizeof(todo), "%s%s%s", path[0] == '/' ? "" : cwd, path[0] == '/' ? "" : "/",
                     path) >= (int) sizeof(todo))
                return -ENAMETOOLONG;
        rest = todo;
        for (;;) {
                size_t len;
                while (*rest == '/')
                        rest++;
                if (!*rest)
                        break;
                len = strcspn(rest, "/");
                if (len == 1 && rest[0] == '.') {
                        rest += len;
                        continue;
                }
                if (len == 2 && rest[0] == '.' && rest[1] == '.') {
                        pop_component(cur);
                        rest += len;
                        continue;
                }
                if (snprintf(cand, sizeof(cand), "%s/%.*s", cur, (int) len, rest) >= (int) sizeof(cand))
                        return -ENAMETOOLONG;
                rest += len;
                kind = view_step(v, cand, link, &fd);
                if (kind < 0)
                        return kind;
                closep(&fd);
                if (kind == KIND_LINK) {
                        /* Splice the target in; absolute ones restart at the sandbox root. */
                        if (++links > MAX_LINKS)
                                return -ELOOP;
                        if (snprintf(tmp, sizeof(tmp), "%s/%s", link, rest) >= (int) sizeof(tmp))
                                return -ENAMETOOLONG;
                        memcpy(todo, tmp, sizeof(todo));
                        rest = todo;
                        if (link[0] == '/')
                                cur[0] = '\0';
                        continue;
                }
                if (kind == KIND_FILE && rest[strspn(rest, "/")])
                        return -ENOTDIR;
                memcpy(cur, cand, sizeof(cur));
        }
        snprintf(ret_path, PATH_MAX, "%s", cur[0] ? cur : "/");
        kind = view_step(v, ret_path, link, &fd);
        if (kind < 0)
                return kind;
        if (kind == KIND_LINK)
                return -ELOOP;  /* changed under us */
        *ret_fd = fd;
        return 0;
}

/* ------------------------------------------------------------- commands */

void sbx_exec_target_init(sbx_exec_target *t) {
        memset(t, 0, sizeof(*t));
        for (size_t i = 0; i < SBX_EXEC_MAX_CHAIN; i++)
                t->chain[i].fd = -EBADF;
        t->loader.fd = -EBADF;
}

void sbx_exec_target_done(sbx_exec_target *t) {
        for (size_t i = 0; i < SBX_EXEC_MAX_CHAIN; i++)
                closep(&t->chain[i].fd);
        closep(&t->loader.fd);
        sbx_exec_target_init(t);
}

/* Resolve and check: a regular file with an execute bit (the kernel checks
 * the real permission as the sandbox user at execveat). */
static int resolve_exe(const sbx_view *v, const char *path, const char *cwd, sbx_exec_file *ret) {
        struct stat st;
        int fd, r;

        r = sbx_view_resolve(v, path, cwd, ret->path, &fd);
        if (r < 0)
                return r;
        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
                closep(&fd);
                return -EACCES;
        }
        ret->fd = fd;
        return 0;
}

static int lookup_command(const sbx_view *v, const char *name, const char *path_env, const char *workdir,
                          sbx_exec_file *ret) {
        char cand[PATH_MAX];
        bool denied = false;
        const char *s = path_env;
        int r;

        if (strchr(name, '/'))
                return resolve_exe(v, name, workdir, ret);
        while (s) {
                size_t dl = strcspn(s, ":");
                /* An empty PATH entry is the working directory ("."; not the root). */
                if (snprintf(cand, sizeof(cand), "%.*s/%s", (int) (dl ? dl : 1), dl ? s : ".", name) <
                    (int) sizeof(cand)) {
                        r = resolve_exe(v, cand, workdir, ret);
                        if (r == 0)
                                return 0;
                        denied = denied || r == -EACCES;
                }
                s = s[dl] ? s + dl + 1 : NULL;
        }
        return denied ? -EACCES : -ENOENT;
}

static int proc_fd_dir = AT_FDCWD;

void sbx_exec_resolve_set_proc_fd_dir(int dirfd) {
        proc_fd_dir = dirfd >= 0 ? dirfd : AT_FDCWD;
}

/* An O_PATH fd reopened for reading, or -errno: through procfs, our own /proc/self/fd, or the dir
 * sbx exec opened before it joined a sandbox (whose /proc does not show us). */
static int open_head(int opath_fd) {
        char proc[64];
        int fd;

        if (proc_fd_dir == AT_FDCWD)
                snprintf(proc, sizeof(proc), "/proc/self/fd/%d", opath_fd);
        else
                snprintf(proc, sizeof(proc), "%d", opath_fd);
        fd = openat(proc_fd_dir, proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        return fd < 0 ? -errno : fd;
}

static int read_at(int fd, void *buf, size_t len, off_t off) {
        ssize_t n = pread(fd, buf, len, off);
        return n < 0 ? -errno : (int) n;
}

static int read_head(int opath_fd, void *buf, size_t len, off_t off) {
        _cleanup_close_ int fd = open_head(opath_fd);

        return fd < 0 ? fd : read_at(fd, buf, len, off);
}

/* "#!interp [arg]\n" -> interp, arg (the kernel's rules: leading blanks
 * skipped, the rest of the line one argument, trailing blanks dropped). */
static int parse_shebang(const char *head, size_t n, char interp[static PATH_MAX], char arg[static 256]) {
        const char *nl = memchr(head, '\n', n), *s = head + 2, *e;

        if (!nl)
                return -ENOEXEC;
        while (s < nl && (*s == ' ' || *s == '\t'))
                s++;
        e = s;
        while (e < nl && *e != ' ' && *e != '\t')
                e++;
        if (e == s || e - s >= PATH_MAX)
                return -ENOEXEC;
        snprintf(interp, PATH_MAX, "%.*s", (int) (e - s), s);
        while (e < nl && (*e == ' ' || *e == '\t'))
                e++;
        while (nl > e && (nl[-1] == ' ' || nl[-1] == '\t' || nl[-1] == '\r'))
                nl--;
        if (nl - e >= 256)
                return -ENOEXEC;
        snprintf(arg, 256, "%.*s", (int) (nl - e), e);
        return 0;
}

/* The ELF program interpreter (PT_INTERP) of fd, "" when static/not ELF. */
static int elf_interp(int opath_fd, char ret[static PATH_MAX]) {
        unsigned char id[EI_NIDENT];
        bool is64;
        uint64_t phoff, off = 0, sz = 0;
        unsigned phnum, phentsize;
        _cleanup_close_ int fd = -EBADF;
        int r;

        ret[0] = '\0';
        /* one reading fd for every header read */
        fd = open_head(opath_fd);
        if (fd < 0)
                return 0;       /* as before: unreadable = not ELF */
        r = read_at(fd, id, sizeof(id), 0);
        if (r < (int) sizeof(id) || memcmp(id, ELFMAG, SELFMAG))
                return 0;
        is64 = id[EI_CLASS] == ELFCLASS64;
        if (is64) {
                Elf64_Ehdr eh;
                if (read_at(fd, &eh, sizeof(eh), 0) != sizeof(eh))
                        return -ENOEXEC;
                phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
        } else {
                Elf32_Ehdr eh;
                if (read_at(fd, &eh, sizeof(eh), 0) != sizeof(eh))
                        return -ENOEXEC;
                phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
        }
        for (unsigned i = 0; i < phnum && i < 128; i++) {
                if (is64) {
                        Elf64_Phdr ph;
                        if (read_at(fd, &ph, sizeof(ph), phoff + (uint64_t) i * phentsize) != sizeof(ph))
                                return -ENOEXEC;
                        if (ph.p_type == PT_INTERP)
                                off = ph.p_offset, sz = ph.p_filesz;
                } else {
                        Elf32_Phdr ph;
                        if (read_at(fd, &ph, sizeof(ph), phoff + (uint64_t) i * phentsize) != sizeof(ph))
                                return -ENOEXEC;
                        if (ph.p_type == PT_INTERP)
                                off = ph.p_offset, sz = ph.p_filesz;
                }
                if (sz)
                        break;
        }
        if (!sz)
                return 0;
        if (sz >= PATH_MAX || read_at(fd, ret, sz, off) != (int) sz)
                return -ENOEXEC;
        ret[sz] = '\0';
        return 0;
}

int sbx_exec_resolve(const sbx_view *v, const char *name, const char *path_env, const char *workdir,
                     sbx_exec_target *ret, sbx_error *reterr) {
        char head[512], interp[PATH_MAX];
        size_t i;
        int r, n;

        sbx_exec_target_init(ret);
        r = lookup_command(v, name, path_env, workdir, &ret->chain[0]);
        if (r < 0)
                return sbx_error_set(reterr, r, "resolve '%s' in the sandbox", name);
        /* #! scripts: the interpreter is resolved, and decided on, like the command. */
        for (i = 0;; i++) {
                n = read_head(ret->chain[i].fd, head, sizeof(head), 0);
                if (n < 2 || head[0] != '#' || head[1] != '!')
                        break;
                if (i + 1 >= SBX_EXEC_MAX_CHAIN)
                        return sbx_error_set(reterr, -ELOOP, "'%s': too many levels of #! interpreters",
                                             ret->chain[0].path);
                r = parse_shebang(head, n, interp, ret->chain[i + 1].arg);
                if (r < 0)
                        return sbx_error_set(reterr, r, "'%s': bad #! line", ret->chain[i].path);
                r = resolve_exe(v, interp, workdir, &ret->chain[i + 1]);
                if (r < 0)
                        return sbx_error_set(reterr, r, "'%s': resolve its interpreter '%s' in the sandbox",
                                             ret->chain[i].path, interp);
        }
        ret->n_chain = i + 1;
        /* The ELF loader: not decided on (every dynamic binary needs it), but
         * Landlock must let the kernel open it for execution. */
        r = elf_interp(ret->chain[i].fd, interp);
        if (r < 0)
                return sbx_error_set(reterr, r, "'%s': bad ELF program headers", ret->chain[i].path);
        if (interp[0]) {
                r = resolve_exe(v, interp, "/", &ret->loader);
                if (r < 0 && r != -EACCES)
                        return sbx_error_set(reterr, r, "'%s': resolve its ELF interpreter '%s' in the sandbox",
                                             ret->chain[i].path, interp);
                if (r == -EACCES)       /* a loader need not carry an x bit: resolve without that check */
                        r = sbx_view_resolve(v, interp, "/", ret->loader.path, &ret->loader.fd);
                if (r < 0)
                        return sbx_error_set(reterr, r, "resolve the ELF interpreter '%s'", interp);
        }
        return 0;
}

char **sbx_exec_argv(const sbx_exec_target *t, char *const *argv) {
        size_t argc = 0, n = 0;
        char **out, **cur;

        while (argv[argc])
                argc++;
        cur = calloc(argc + 1, sizeof(char *));
        if (!cur)
                return NULL;
        memcpy(cur, argv, argc * sizeof(char *));
        /* The kernel's rewrite per #! level: [interp, arg?, script, argv[1..]]. */
        for (size_t i = 0; i + 1 < t->n_chain; i++) {
                const sbx_exec_file *s = &t->chain[i], *in = &t->chain[i + 1];
                size_t old = argc;
                out = calloc(argc + 3, sizeof(char *));
                if (!out) {
                        free(cur);
                        return NULL;
                }
                n = 0;
                out[n++] = (char *) in->path;
                if (in->arg[0])
                        out[n++] = (char *) in->arg;
                out[n++] = (char *) s->path;
                for (size_t k = 1; k < old; k++)
                        out[n++] = cur[k];
                out[n] = NULL;
                argc = n;
                free(cur);
                cur = out;
        }
        return cur;
}

/* SPDX-License-Identifier: MIT */
/*
 * sbx rootfs build: OpenClaw's default image from Debian packages.
 *
 *   1. debootstrap --variant=minbase --include=PACKAGES SUITE into a work dir
 *      of the store, using the mirror apt already uses on this host;
 *   2. add the unprivileged "sandbox" user (uid 1000) with /home/sandbox;
 *   3. record the installed package list (dpkg-query) and clean apt caches;
 *   4. strip and report setuid/setgid files (the launcher mounts nosuid too);
 *   5. write the record (User sandbox, WorkingDir /home/sandbox, Cmd sleep
 *      infinity: the Config OpenClaw's own image carries) and rename it in.
 * debootstrap runs packages' maintainer scripts as root in a chroot: this is
 * the same trust as installing those Debian packages on the host.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"
#include "store.h"
#include "tree.h"

json_object *sbx_record_new(const struct sbx_image_ref *ref, const char *source);

/* ---- the apt mirror of this host ---- */

static bool word_in(const char *list, const char *w) {
        size_t n = strlen(w);

        for (const char *p = list; (p = strstr(p, w)); p += n)
                if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
                    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n'))
                        return true;
        return false;
}

static void trim(char *s) {
        size_t n = strlen(s);

        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
                s[--n] = '\0';
}

/* One-line format: "deb [opts] URI SUITE COMPONENTS". */
static bool mirror_from_list(FILE *f, const char *suite, char *ret, size_t len) {
        char line[1024];

        while (fgets(line, sizeof(line), f)) {
                char *p = line, *uri, *s;
                trim(line);
                if (strncmp(p, "deb ", 4) && strncmp(p, "deb\t", 4))
                        continue;
                p += 4;
                p += strspn(p, " \t");
                if (*p == '[' && (p = strchr(p, ']')))
                        p++;
                if (!p)
                        continue;
                p += strspn(p, " \t");
                uri = strsep(&p, " \t");
                s = p ? strsep(&p, " \t") : NULL;
                if (uri && s && !strcmp(s, suite) &&
                    (!strncmp(uri, "http://", 7) || !strncmp(uri, "https://", 8))) {
                        snprintf(ret, len, "%s", uri);
                        return true;
                }
        }
        return false;
}

/* deb822: stanzas of "Types:", "URIs:", "Suites:". */
static bool mirror_from_sources(FILE *f, const char *suite, char *ret, size_t len) {
        char line[1024], types[256] = "", uris[512] = "", suites[512] = "";
        bool eof = false;

        while (!eof) {
                eof = !fgets(line, sizeof(line), f);
                trim(line);
                if (eof || line[0] == '\0') {
                        char *u = uris, *first = strsep(&u, " \t");
                        if (word_in(types, "deb") && word_in(suites, suite) && first &&
                            (!strncmp(first, "http://", 7) || !strncmp(first, "https://", 8))) {
                                snprintf(ret, len, "%s", first);
                                return true;
                        }
                        types[0] = uris[0] = suites[0] = '\0';
                        continue;
                }
                if (line[0] == '#')
                        continue;
                if (!strncasecmp(line, "Types:", 6))
                        snprintf(types, sizeof(types), "%s", line + 6 + strspn(line + 6, " \t"));
                else if (!strncasecmp(line, "URIs:", 5))
                        snprintf(uris, sizeof(uris), "%s", line + 5 + strspn(line + 5, " \t"));
                else if (!strncasecmp(line, "Suites:", 7))
                        snprintf(suites, sizeof(suites), "%s", line + 7 + strspn(line + 7, " \t"));
        }
        return false;
}

int sbx_apt_mirror(const char *suite, char *ret, size_t len, sbx_error *reterr) {
        const char *root = getenv("SBX_APT_ROOT") ?: ""; /* tests point this at a fake /etc */
        char path[PATH_MAX];
        struct dirent **names = NULL;
        bool found = false;
        FILE *f;
        int n;

        snprintf(path, sizeof(path), "%s/etc/apt/sources.list", root);
        if ((f = fopen(path, "re"))) {
                found = mirror_from_list(f, suite, ret, len);
                fclose(f);
        }
        snprintf(path, sizeof(path), "%s/etc/apt/sources.list.d", root);
        n = scandir(path, &names, NULL, alphasort);
        for (int i = 0; i < n; i++) {
                const char *nm = names[i]->d_name;
                size_t l = strlen(nm);
                char p[PATH_MAX];

                if (!found && l > 5 &&
                    (!strcmp(nm + l - 5, ".list") || (l > 8 && !strcmp(nm + l - 8, ".sources")))) {
                        snprintf(p, sizeof(p), "%s/%s", path, nm);
                        if ((f = fopen(p, "re"))) {
                                found = !strcmp(nm + l - 5, ".list")
                                                ? mirror_from_list(f, suite, ret, len)
                                                : mirror_from_sources(f, suite, ret, len);
                                fclose(f);
                        }
                }
                free(names[i]);
        }
        free(names);
        if (!found)
                return sbx_error_set(reterr, -ENOENT,
                                     "no apt source for suite '%s' in %s/etc/apt/sources.list(.d); "
                                     "pass --mirror URL",
                                     suite, root);
        return 0;
}

/* ---- running helpers ---- */

struct line_sink {
        const struct sbx_progress *progress;
        char tail[8][200]; /* last lines, for the error message */
        unsigned ntail;
        unsigned packages;
        char phase[32];
        int storefd;
        const char *target;   /* relative to storefd: where debs land */
        json_object *capture; /* if set: every line appended here */
};

static uint64_t debs_bytes(int storefd, const char *target) {
        char p[PATH_MAX];
        uint64_t total = 0;
        struct dirent *de;
        DIR *d;
        int fd;

        snprintf(p, sizeof(p), "%s/var/cache/apt/archives", target);
        fd = openat(storefd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || !(d = fdopendir(fd))) {
                if (fd >= 0)
                        close(fd);
                return 0;
        }
        while ((de = readdir(d))) {
                struct stat st;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
                        total += (uint64_t) st.st_size;
        }
        closedir(d);
        return total;
}

static void sink_line(struct line_sink *s, const char *line) {
        static const struct {
                const char *prefix, *phase;
        } map[] = {
                {"I: Retrieving ", "download"},   {"I: Validating ", "validate"},
                {"I: Extracting ", "extract"},    {"I: Unpacking ", "unpack"},
                {"I: Configuring ", "configure"}, {"I: Installing ", "install"},
        };

        if (s->capture) {
                json_object_array_add(s->capture, json_object_new_string(line));
                return;
        }
        snprintf(s->tail[s->ntail++ % ELEMENTSOF(s->tail)], sizeof(s->tail[0]), "%s", line);
        for (size_t i = 0; i < ELEMENTSOF(map); i++) {
                size_t pl = strlen(map[i].prefix);
                if (strncmp(line, map[i].prefix, pl))
                        continue;
                if (strcmp(s->phase, map[i].phase)) {
                        snprintf(s->phase, sizeof(s->phase), "%s", map[i].phase);
                        s->packages = 0;
                        sbx_progress_emit(s->progress, SBX_PROGRESS_PHASE, s->phase, 0, 0, 0, NULL);
                }
                s->packages++;
                sbx_progress_emit(s->progress, SBX_PROGRESS_TICK, s->phase, s->packages, 0,
                                  debs_bytes(s->storefd, s->target), line + pl);
                return;
        }
        if (!strncmp(line, "W: ", 3) || !strncmp(line, "E: ", 3))
                sbx_progress_emit(s->progress, SBX_PROGRESS_NOTICE, s->phase, 0, 0, 0, line);
}

/* Run argv with stdout+stderr into sink line by line; returns the exit status. */
static int run_lines(char *const argv[], struct line_sink *s, sbx_error *reterr) {
        int p[2], status;
        char buf[4096], line[1024];
        size_t ll = 0;
        pid_t pid;
        ssize_t k;

        if (pipe2(p, O_CLOEXEC) < 0)
                return sbx_error_set(reterr, -errno, "pipe: %s", strerror(errno));
        pid = fork();
        if (pid < 0) {
                close(p[0]), close(p[1]);
                return sbx_error_set(reterr, -errno, "fork: %s", strerror(errno));
        }
        if (pid == 0) {
                int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
                if (nul >= 0)
                        dup2(nul, 0);
                dup2(p[1], 1);
                dup2(p[1], 2);
                setenv("LC_ALL", "C", 1);
                setenv("DEBIAN_FRONTEND", "noninteractive", 1);
                execv(argv[0], argv);
                _exit(127);
        }
        close(p[1]);
        while ((k = read(p[0], buf, sizeof(buf))) != 0) {
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        break;
                }
                for (ssize_t i = 0; i < k; i++) {
                        if (buf[i] == '\n' || ll == sizeof(line) - 1) {
                                line[ll] = '\0';
                                sink_line(s, line);
                                ll = 0;
                        }
                        if (buf[i] != '\n')
                                line[ll++] = buf[i];
                }
        }
        if (ll > 0) {
                line[ll] = '\0';
                sink_line(s, line);
        }
        close(p[0]);
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return sbx_error_set(reterr, -errno, "waitpid: %s", strerror(errno));
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int fail_with_tail(const struct line_sink *s, const char *what, int status, sbx_error *reterr) {
        const char *last = s->ntail ? s->tail[(s->ntail - 1) % ELEMENTSOF(s->tail)] : "";

        /* the most telling line is the last E: one, else the last line */
        for (unsigned i = s->ntail; i-- > 0 && i + ELEMENTSOF(s->tail) >= s->ntail;)
                if (!strncmp(s->tail[i % ELEMENTSOF(s->tail)], "E: ", 3)) {
                        last = s->tail[i % ELEMENTSOF(s->tail)];
                        break;
                }
        return sbx_error_set(reterr, -EIO, "%s failed (exit status %d): %s", what, status, last);
}

static int packages_valid(const char *pk, sbx_error *reterr) {
        for (const char *p = pk; *p; p++)
                if (!(('a' <= *p && *p <= 'z') || ('0' <= *p && *p <= '9') || *p == '.' || *p == '+' ||
                      *p == '-' || *p == ','))
                        return sbx_error_set(reterr, -EINVAL,
                                             "--packages '%.200s': package names are "
                                             "lower-case letters, digits, '.', '+', '-', separated by ','",
                                             pk);
        return 0;
}

struct setid_scan {
        int rootfd;
        json_object *paths;
        const struct sbx_progress *progress;
};

static int strip_setid(const char *path, const struct stat *st, void *userdata) {
        struct setid_scan *s = userdata;
        char msg[PATH_MAX + 64];

        if (!S_ISREG(st->st_mode) || !(st->st_mode & (S_ISUID | S_ISGID)))
                return 0;
        if (fchmodat(s->rootfd, path + 1, st->st_mode & 0777, 0) < 0)
                return -errno;
        json_object_array_add(s->paths, json_object_new_string(path));
        snprintf(msg, sizeof(msg), "stripped %s%s from %s", st->st_mode & S_ISUID ? "setuid" : "",
                 (st->st_mode & (S_ISUID | S_ISGID)) == (S_ISUID | S_ISGID) ? "+setgid"
                 : st->st_mode & S_ISUID                                    ? ""
                                                                            : "setgid",
                 path);
        sbx_progress_emit(s->progress, SBX_PROGRESS_NOTICE, "scan", 0, 0, 0, msg);
        return 0;
}

static void clean_dir(int rootfd, const char *rel, const char *suffix) {
        int fd = openat(rootfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct dirent *de;
        DIR *d;

        if (fd < 0 || !(d = fdopendir(fd))) {
                if (fd >= 0)
                        close(fd);
                return;
        }
        while ((de = readdir(d))) {
                size_t l = strlen(de->d_name), sl = strlen(suffix);
                if (de->d_name[0] != '.' && strcmp(de->d_name, "lock") && strcmp(de->d_name, "partial") &&
                    l >= sl && !strcmp(de->d_name + l - sl, suffix))
                        (void) sbx_tree_rm_rf_at(dirfd(d), de->d_name);
        }
        closedir(d);
}

static json_object *build_record(const struct sbx_build_options *o, const struct sbx_image_ref *ref,
                                 const char *suite, const char *mirror, const char *packages,
                                 json_object *installed, json_object *setid) {
        static const char *const env[] = {
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", NULL};
        static const char *const cmd[] = {"sleep", "infinity", NULL};
        json_object *rec = sbx_record_new(ref, "debootstrap"), *cfg = json_object_new_object();
        const char *user = o->user ? o->user : "sandbox";
        char home[300];

        json_object_object_add(rec, "layers", json_object_new_array());
        json_object_object_add(rec, "suite", json_object_new_string(suite));
        json_object_object_add(rec, "mirror", json_object_new_string(mirror));
        json_object_object_add(rec, "requested_packages", json_object_new_string(packages));
        json_object_object_add(rec, "packages", installed);
        json_object_object_add(rec, "setuid_stripped", setid);
        json_object_object_add(cfg, "Env", sbx_json_strings((char *const *) env, SIZE_MAX));
        snprintf(home, sizeof(home), "/home/%s", user);
        json_object_object_add(cfg, "WorkingDir", json_object_new_string(user[0] ? home : "/"));
        json_object_object_add(cfg, "User", json_object_new_string(user[0] ? user : "root"));
        json_object_object_add(cfg, "Cmd", sbx_json_strings((char *const *) cmd, SIZE_MAX));
        json_object_object_add(rec, "config", cfg);
        json_object_object_add(rec, "architecture", json_object_new_string("amd64"));
        json_object_object_add(rec, "os", json_object_new_string("linux"));
        return rec;
}

int sbx_image_build(const struct sbx_build_options *o, const struct sbx_progress *progress,
                    sbx_error *reterr) {
        _cleanup_close_ int sfd = -EBADF, wfd = -EBADF, rootfd = -EBADF, lock = -EBADF;
        _cleanup_json_ json_object *installed = json_object_new_array(), *setid = json_object_new_array(),
                                   *rec = NULL;
        struct line_sink sink = {.progress = progress};
        struct sbx_image_ref ref;
        const char *suite = o->suite ?: "bookworm", *packages = o->packages ?: SBX_BUILD_DEFAULT_PACKAGES;
        const char *user = o->user ? o->user : "sandbox";
        char store[PATH_MAX], work[64], target[PATH_MAX], rel[96], mirror[512], include[1200];
        char admindir[PATH_MAX + 32];
        int r, status;

        r = sbx_image_ref_parse(o->name ?: SBX_IMAGE_DEFAULT, &ref, reterr);
        if (r < 0)
                return r;
        r = packages_valid(packages, reterr);
        if (r < 0)
                return r;
        if (strlen(packages) > 1000 ||
            (user[0] && strspn(user, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(user)))
                return sbx_error_set(reterr, -EINVAL, "--packages too long or --user not a plain user name");
        if (geteuid() != 0)
                return sbx_error_set(reterr, -EPERM,
                                     "sbx rootfs build needs root (debootstrap installs packages as root); "
                                     "import an image built elsewhere with 'sbx rootfs import' instead");
        if (access("/usr/sbin/debootstrap", X_OK) < 0)
                return sbx_error_set(reterr, -ENOENT,
                                     "/usr/sbin/debootstrap not found: apt-get install debootstrap");
        if (o->mirror)
                snprintf(mirror, sizeof(mirror), "%s", o->mirror);
        else if ((r = sbx_apt_mirror(suite, mirror, sizeof(mirror), reterr)) < 0)
                return r;
        if (strncmp(mirror, "http://", 7) && strncmp(mirror, "https://", 8) && strncmp(mirror, "file:/", 6))
                return sbx_error_set(reterr, -EINVAL, "--mirror '%.200s' is not an http(s):// or file:/ URL",
                                     mirror);

        /* 1. debootstrap into a work dir of the store */
        sfd = sbx_store_open(store, sizeof(store), reterr);
        if (sfd < 0)
                return sfd;
        wfd = sbx_store_mktemp(sfd, work, sizeof(work), reterr);
        if (wfd < 0)
                return wfd;
        snprintf(rel, sizeof(rel), "%s/rootfs", work);
        snprintf(target, sizeof(target), "%s/%s", store, rel);
        sink.storefd = sfd;
        sink.target = rel;
        snprintf(include, sizeof(include), "--include=%s", packages);
        {
                char *argv[] = {"/usr/sbin/debootstrap",
                                "--variant=minbase",
                                include,
                                (char *) suite,
                                target,
                                mirror,
                                NULL};
                if (!packages[0])
                        memmove(&argv[2], &argv[3], 4 * sizeof(char *));
                sbx_progress_emit(progress, SBX_PROGRESS_PHASE, "debootstrap", 0, 0, 0, mirror);
                status = run_lines(argv, &sink, reterr);
        }
        if (status != 0) {
                r = status < 0 ? status : fail_with_tail(&sink, "debootstrap", status, reterr);
                goto fail;
        }
        rootfd = openat(sfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (rootfd < 0) {
                r = sbx_error_set(reterr, -errno, "open '%s': %s", target, strerror(errno));
                goto fail;
        }
        /* 2. the unprivileged user OpenClaw's image has */
        if (user[0]) {
                char *argv[] = {"/usr/sbin/chroot", target,        "useradd", "--create-home",
                                "--shell",          "/bin/bash",   "--uid",   "1000",
                                "--user-group",     (char *) user, NULL};
                sbx_progress_emit(progress, SBX_PROGRESS_PHASE, "user", 0, 0, 0, user);
                status = run_lines(argv, &sink, reterr);
                if (status != 0) {
                        r = status < 0 ? status
                                       : fail_with_tail(&sink, "useradd in the new root", status, reterr);
                        goto fail;
                }
        }
        /* 3. the package list, then drop caches that only cost space */
        sbx_progress_emit(progress, SBX_PROGRESS_PHASE, "packages", 0, 0, 0, NULL);
        snprintf(admindir, sizeof(admindir), "--admindir=%s/var/lib/dpkg", target);
        {
                char *argv[] = {"/usr/bin/dpkg-query", admindir, "-W", "-f=${Package}=${Version}\\n", NULL};
                sink.capture = installed;
                status = run_lines(argv, &sink, reterr);
                sink.capture = NULL;
                if (status != 0) {
                        r = status < 0 ? status
                                       : sbx_error_set(reterr, -EIO, "dpkg-query failed (exit status %d)",
                                                       status);
                        goto fail;
                }
        }
        clean_dir(rootfd, "var/cache/apt/archives", ".deb");
        clean_dir(rootfd, "var/lib/apt/lists", "");
        clean_dir(rootfd, "var/cache/apt", ".bin");
        /* 4. no setuid/setgid files in the store */
        sbx_progress_emit(progress, SBX_PROGRESS_PHASE, "scan", 0, 0, 0, NULL);
        {
                struct setid_scan sc = {.rootfd = rootfd, .paths = setid, .progress = progress};
                r = sbx_tree_walk(rootfd, strip_setid, &sc, reterr);
                if (r < 0) {
                        sbx_error_set(reterr, r, "scan for setuid files");
                        goto fail;
                }
        }
        /* 5. record and move into place */
        rec = build_record(o, &ref, suite, mirror, packages, json_object_get(installed),
                           json_object_get(setid));
        sbx_progress_emit(progress, SBX_PROGRESS_PHASE, "commit", 0, 0, 0, NULL);
        lock = sbx_store_lock(sfd, reterr);
        if (lock < 0) {
                r = lock;
                goto fail;
        }
        r = sbx_store_commit_image(sfd, work, &ref, rec, reterr);
        if (r < 0)
                goto fail;
        return 0;
fail:
        (void) sbx_tree_rm_rf_at(sfd, work);
        return r;
}

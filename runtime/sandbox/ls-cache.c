/* SPDX-License-Identifier: MIT */
/* The listing cache (issue 16 target 5): <root>/.ls-cache holds, for every
 * finished sandbox without an agent policy, what `sbx ls` shows of its
 * record, keyed by the identity of its dir (device, inode, size, mtime and
 * ctime in ns). A listing takes an entry only when one fstatat() of the dir
 * matches it; anything else is read from the record as before. It is only
 * a cache: a missing, short, corrupt, foreign (another owner, group/other
 * bits, not a regular file, a symlink) or otherwise odd file is ignored,
 * and the next listing writes a new one.
 *
 * Why the dir's identity: every file sbx writes in a sandbox dir that ls
 * shows something of (the record, requested.json, exec.sock) is replaced
 * by rename (sbx_write_file_atomic) or created or removed, each of which
 * moves the dir's mtime and ctime; one fstatat() covers all three.
 * Timestamps are coarse (a clock tick), so an entry whose dir changed less
 * than RACY_SEC before the listing began is not stored (as git does with
 * racy index entries): a later change then always has a later timestamp.
 *
 * Format (native byte order; the file is local): "SBXLSC1\n", u32 version,
 * u32 count, u64 body length, u64 checksum of the body, then count entries
 * sorted by name, each a u32 length and that many bytes. Written whole to
 * .ls-cache.tmp (0600) and renamed over, under a flock of the root dir
 * taken without waiting: a listing never blocks on it. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandbox-internal.h"

#define CACHE_FILE ".ls-cache"
#define CACHE_TMP ".ls-cache.tmp"
#define MAGIC "SBXLSC1\n"
#define VERSION 4u
#define HEADER_LEN (8 + 4 + 4 + 8 + 8)
#define MAX_FILE (256u << 20)
#define MAX_STR 65536u
#define RACY_SEC 2

typedef struct key {
        uint64_t dev, ino, size, mtime_ns, ctime_ns;
} key;

typedef struct slot {
        const char *name;             /* into the entry */
        const uint8_t *p;             /* the entry */
        uint32_t len;
        bool used;                    /* taken by this listing */
} slot;

struct sbx_ls_cache {
        uint8_t *file;                /* the old cache, whole */
        slot *old;
        size_t n_old;
        /* the new cache, built as the listing goes */
        uint8_t *buf;
        size_t len, cap;
        size_t n_new;
        bool failed;                  /* out of memory: write nothing */
        bool changed;                 /* differs from the old one */
        uint64_t since_ns;            /* entries changed after this are not stored */
};

static uint64_t checksum(const uint8_t *p, size_t n) {
        uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

        for (; n >= 8; p += 8, n -= 8) {
                uint64_t w;
                memcpy(&w, p, 8);
                h = (h ^ w) * 0x100000001b3ull;
                h ^= h >> 29;
        }
        for (; n; p++, n--)
                h = (h ^ *p) * 0x100000001b3ull;
        return h ^ (h >> 32);
}

static key key_of(const struct stat *st) {
        return (key) {
                .dev = st->st_dev, .ino = st->st_ino, .size = (uint64_t) st->st_size,
                .mtime_ns = (uint64_t) st->st_mtim.tv_sec * 1000000000ull + (uint64_t) st->st_mtim.tv_nsec,
                .ctime_ns = (uint64_t) st->st_ctim.tv_sec * 1000000000ull + (uint64_t) st->st_ctim.tv_nsec,
        };
}

/* ---- reading: a cursor that fails once and stays failed */

typedef struct cur {
        const uint8_t *p, *end;
        bool bad;
} cur;

static const uint8_t *take(cur *c, size_t n) {
        const uint8_t *p = c->p;

        if (c->bad || (size_t) (c->end - c->p) < n) {
                c->bad = true;
                return NULL;
        }
        c->p += n;
        return p;
}

/* n bytes into v (zeroed first: a failed read gives 0) */
static void get_n(cur *c, void *v, size_t n) {
        const uint8_t *p = take(c, n);

        memset(v, 0, n);
        if (p)
                memcpy(v, p, n);
}

static uint64_t get_u64(cur *c) {
        uint64_t v;

        get_n(c, &v, sizeof(v));
        return v;
}

static uint32_t get_u32(cur *c) {
        uint32_t v;

        get_n(c, &v, sizeof(v));
        return v;
}

/* A string written by put_str: NULL stays NULL; no NUL inside. Into *ret
 * (malloc'd) or, with cap, into a buffer of cap bytes. */
static void get_str(cur *c, char **ret, char *buf, size_t cap) {
        uint32_t n = get_u32(c);
        const uint8_t *p;

        if (ret)
                *ret = NULL;
        if (c->bad)
                return;
        if (n == UINT32_MAX) {
                if (buf) /* a fixed field is never NULL */
                        c->bad = true;
                return;
        }
        p = take(c, n);
        if (!p || n > MAX_STR || memchr(p, '\0', n) || (buf && n >= cap)) {
                c->bad = true;
                return;
        }
        if (buf) {
                memcpy(buf, p, n);
                buf[n] = '\0';
        } else if (!(*ret = strndup((const char *) p, n)))
                c->bad = true;
}

/* The name: first in every entry, NUL-terminated in the file so the index
 * can point into it. */
static void get_name(cur *c, char buf[SBX_SANDBOX_NAME_MAX + 1]) {
        uint32_t n = get_u32(c);
        const uint8_t *p = n <= SBX_SANDBOX_NAME_MAX ? take(c, (size_t) n + 1) : NULL;

        if (!p || n == 0 || p[n] != '\0' || memchr(p, '\0', n)) {
                c->bad = true;
                return;
        }
        memcpy(buf, p, (size_t) n + 1);
}

/* ---- writing */

static void put(sbx_ls_cache *c, const void *p, size_t n) {
        if (c->failed)
                return;
        if (c->len + n > c->cap) {
                size_t cap = c->cap ? c->cap : 65536;
                while (cap < c->len + n)
                        cap *= 2;
                uint8_t *nb = realloc(c->buf, cap);
                if (!nb) {
                        c->failed = true;
                        return;
                }
                c->buf = nb;
                c->cap = cap;
        }
        memcpy(c->buf + c->len, p, n);
        c->len += n;
}

static void put_u64(sbx_ls_cache *c, uint64_t v) {
        put(c, &v, 8);
}

static void put_u32(sbx_ls_cache *c, uint32_t v) {
        put(c, &v, 4);
}

static void put_str(sbx_ls_cache *c, const char *s) {
        size_t n = s ? strlen(s) : 0;

        if (s && n > MAX_STR) {
                c->failed = true;
                return;
        }
        put_u32(c, s ? (uint32_t) n : UINT32_MAX);
        if (s)
                put(c, s, n);
}

static void put_name(sbx_ls_cache *c, const char *name) {
        put_u32(c, (uint32_t) strlen(name));
        put(c, name, strlen(name) + 1);
}

static void put_key(sbx_ls_cache *c, const key *k) {
        put_u64(c, k->dev);
        put_u64(c, k->ino);
        put_u64(c, k->size);
        put_u64(c, k->mtime_ns);
        put_u64(c, k->ctime_ns);
}

static key get_key(cur *c) {
        key k;

        k.dev = get_u64(c);
        k.ino = get_u64(c);
        k.size = get_u64(c);
        k.mtime_ns = get_u64(c);
        k.ctime_ns = get_u64(c);
        return k;
}

/* ---- the old cache */

static int cmp_slot(const void *a, const void *b) {
        return strcmp(((const slot *) a)->name, ((const slot *) b)->name);
}

/* The old cache's entries, or none: every check failing means "no cache". */
static void load(sbx_ls_cache *c, int rootfd) {
        _cleanup_close_ int fd = openat(rootfd, CACHE_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        uint64_t body_len, sum;
        uint32_t count;
        struct stat st;
        size_t got = 0;
        cur h;

        if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
            (st.st_mode & 077) || st.st_size < HEADER_LEN || (uint64_t) st.st_size > MAX_FILE)
                return;
        c->file = malloc((size_t) st.st_size);
        if (!c->file)
                return;
        while (got < (size_t) st.st_size) {
                ssize_t n = read(fd, c->file + got, (size_t) st.st_size - got);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        goto bad;
                got += (size_t) n;
        }
        h = (cur) { .p = c->file, .end = c->file + got };
        if (memcmp(take(&h, 8), MAGIC, 8) || get_u32(&h) != VERSION)
                goto bad;
        count = get_u32(&h);
        body_len = get_u64(&h);
        sum = get_u64(&h);
        if (h.bad || body_len != got - HEADER_LEN || checksum(h.p, body_len) != sum ||
            count > body_len / 4 || !(c->old = calloc(count + 1, sizeof(*c->old))))
                goto bad;
        for (uint32_t i = 0; i < count; i++) {
                uint32_t len = get_u32(&h);
                const uint8_t *p = take(&h, len);
                cur e = { .p = p, .end = p ? p + len : NULL, .bad = !p };
                char name[SBX_SANDBOX_NAME_MAX + 1];

                get_name(&e, name);
                if (e.bad || !sbx_sandbox_name_valid(name))
                        goto bad;
                c->old[i] = (slot) { .name = (const char *) p + 4, .p = p, .len = len };
                if (i && strcmp(c->old[i - 1].name, c->old[i].name) >= 0)
                        goto bad; /* sorted, no duplicates */
        }
        if (h.p != h.end)
                goto bad;
        c->n_old = count;
        return;
bad:
        free(c->old);
        c->old = NULL;
        free(c->file);
        c->file = NULL;
        c->changed = true; /* replace it */
}

sbx_ls_cache *sbx_ls_cache_open(int rootfd) {
        sbx_ls_cache *c = calloc(1, sizeof(*c));
        struct timespec now;

        if (!c)
                return NULL;
        clock_gettime(CLOCK_REALTIME, &now);
        c->since_ns = now.tv_sec > RACY_SEC
                ? (uint64_t) (now.tv_sec - RACY_SEC) * 1000000000ull + (uint64_t) now.tv_nsec : 0;
        load(c, rootfd);
        return c;
}

static slot *find(sbx_ls_cache *c, const char *name) {
        slot k = { .name = name };

        return c->n_old ? bsearch(&k, c->old, c->n_old, sizeof(*c->old), cmp_slot) : NULL;
}

/* ---- one entry: name, keys, then the record's fields ls shows */

static int decode(const slot *s, const char *root, sbx_record **ret) {
        _cleanup_(sbx_record_freep) sbx_record *rec = calloc(1, sizeof(*rec));
        cur e = { .p = s->p, .end = s->p + s->len };
        sbx_sandbox *x;
        uint32_t v, n;
        char dir[PATH_MAX];

        if (!rec)
                return -ENOMEM;
        x = &rec->s;
        sbx_run_config_init(&x->config);
        get_name(&e, x->name);
        (void) get_key(&e);
        get_str(&e, NULL, x->id, sizeof(x->id));
        v = get_u32(&e);
        if (v >= _SBX_SANDBOX_STATE_MAX)
                e.bad = true;
        x->state = (sbx_sandbox_state) v;
        v = get_u32(&e);
        rec->crashed = v & 1;
        x->config_changed = v & 2;
        x->exec_sock = v & 4 ? SBX_EXEC_SOCK_YES : SBX_EXEC_SOCK_NO;
        x->config.exec_allow_set = v & 8;
        rec->complete = true;
        x->created_ms = get_u64(&e);
        x->started_ms = get_u64(&e);
        x->finished_ms = get_u64(&e);
        x->exit_status = (int) (int64_t) get_u64(&e);
        x->init_pid = (pid_t) get_u64(&e);
        x->init_start_time = get_u64(&e);
        rec->svc_ino = get_u64(&e);
        get_str(&e, NULL, x->config_hash, sizeof(x->config_hash));
        get_str(&e, &x->image, NULL, 0);
        get_str(&e, &x->workspace, NULL, 0);
        v = get_u32(&e);
        if (v >= _SBX_WORKSPACE_MODE_MAX)
                e.bad = true;
        x->workspace_mode = (sbx_workspace_mode) v;
        v = get_u32(&e);
        if (v >= _SBX_NETWORK_MODE_MAX)
                e.bad = true;
        x->config.network = (sbx_network_mode) v;
        get_str(&e, &x->config.network_name, NULL, 0);
        get_str(&e, &x->config.network_container, NULL, 0);
        get_str(&e, &x->config.exec_refused_rule, NULL, 0);
        get_str(&e, NULL, x->ip_address, sizeof(x->ip_address));
        get_str(&e, NULL, x->gateway, sizeof(x->gateway));
        get_str(&e, NULL, rec->run_dir, sizeof(rec->run_dir));
        get_str(&e, &rec->cgroup, NULL, 0);
        if (rec->cgroup && !rec->cgroup[0])
                e.bad = true;
        n = get_u32(&e);
        if (n > s->len / 8) /* more than the entry can hold: the loop below would index a NULL array */
                e.bad = true;
        if (!e.bad && n && !(x->labels = calloc(n, sizeof(*x->labels))))
                return -ENOMEM;
        for (uint32_t i = 0; !e.bad && i < n; i++) {
                x->n_labels++;
                get_str(&e, &x->labels[i].key, NULL, 0);
                get_str(&e, &x->labels[i].value, NULL, 0);
                if (!x->labels[i].key || !x->labels[i].value)
                        e.bad = true;
        }
        n = get_u32(&e);
        if (n > s->len / 8) /* more than the entry can hold: the loop below would index a NULL array */
                e.bad = true;
        if (!e.bad && n && !(x->mounts = calloc(n, sizeof(*x->mounts))))
                return -ENOMEM;
        for (uint32_t i = 0; !e.bad && i < n; i++) {
                sbx_sandbox_mount *m = &x->mounts[i];
                x->n_mounts++;
                v = get_u32(&e);
                if (v >= _SBX_SANDBOX_MOUNT_TYPE_MAX)
                        e.bad = true;
                m->type = (sbx_sandbox_mount_type) v;
                m->rw = get_u32(&e) != 0;
                get_str(&e, &m->src, NULL, 0);
                get_str(&e, &m->dst, NULL, 0);
                get_str(&e, &m->options, NULL, 0);
                if (!m->dst)
                        e.bad = true;
        }
        if (e.bad || e.p != e.end || strcmp(x->name, s->name) || strlen(x->id) != SBX_SANDBOX_ID_LEN)
                return -EBADMSG;
        if (snprintf(dir, sizeof(dir), "%s/%s", root, x->name) >= (int) sizeof(dir))
                return -ENAMETOOLONG;
        if (!(x->state_dir = strdup(dir)))
                return -ENOMEM;
        x->brief = true;
        *ret = TAKE_PTR(rec);
        return 0;
}

int sbx_ls_cache_get(sbx_ls_cache *c, const char *name, const struct stat *dir, sbx_record **ret) {
        slot *s = c ? find(c, name) : NULL;
        key kd = key_of(dir), ed;
        cur e;

        if (!s)
                return -ENOENT;
        e = (cur) { .p = s->p, .end = s->p + s->len };
        get_name(&e, (char[SBX_SANDBOX_NAME_MAX + 1]) {});
        ed = get_key(&e);
        if (e.bad || memcmp(&ed, &kd, sizeof(kd)))
                return -ESTALE;
        if (decode(s, sbx_sandbox_root(), ret) < 0)
                return -EBADMSG;
        s->used = true;
        /* the same bytes go to the new cache */
        put_u32(c, s->len);
        put(c, s->p, s->len);
        c->n_new++;
        return 0;
}

static bool racy(const sbx_ls_cache *c, const key *k) {
        return k->mtime_ns >= c->since_ns || k->ctime_ns >= c->since_ns;
}

void sbx_ls_cache_add(sbx_ls_cache *c, const sbx_record *rec, const struct stat *dir) {
        const sbx_sandbox *x = &rec->s;
        key kd = key_of(dir);
        size_t at;

        if (!c || !rec->complete || rec->starting || x->policy.agent || x->exec_sock == SBX_EXEC_SOCK_UNKNOWN)
                return;
        c->changed = true;
        if (racy(c, &kd))
                return;
        at = c->len;
        put_u32(c, 0); /* the length, filled in below */
        put_name(c, x->name);
        put_key(c, &kd);
        put_str(c, x->id);
        put_u32(c, (uint32_t) x->state);
        put_u32(c, (rec->crashed ? 1u : 0) | (x->config_changed ? 2u : 0) |
                           (x->exec_sock == SBX_EXEC_SOCK_YES ? 4u : 0) | (x->config.exec_allow_set ? 8u : 0));
        put_u64(c, x->created_ms);
        put_u64(c, x->started_ms);
        put_u64(c, x->finished_ms);
        put_u64(c, (uint64_t) (int64_t) x->exit_status);
        put_u64(c, (uint64_t) x->init_pid);
        put_u64(c, x->init_start_time);
        put_u64(c, rec->svc_ino);
        put_str(c, x->config_hash);
        put_str(c, x->image);
        put_str(c, x->workspace);
        put_u32(c, (uint32_t) x->workspace_mode);
        put_u32(c, (uint32_t) x->config.network);
        put_str(c, x->config.network_name);
        put_str(c, x->config.network_container);
        put_str(c, x->config.exec_refused_rule);
        put_str(c, x->ip_address);
        put_str(c, x->gateway);
        put_str(c, rec->run_dir);
        put_str(c, rec->cgroup);
        put_u32(c, (uint32_t) x->n_labels);
        for (size_t i = 0; i < x->n_labels; i++) {
                put_str(c, x->labels[i].key);
                put_str(c, x->labels[i].value);
        }
        put_u32(c, (uint32_t) x->n_mounts);
        for (size_t i = 0; i < x->n_mounts; i++) {
                put_u32(c, (uint32_t) x->mounts[i].type);
                put_u32(c, x->mounts[i].rw);
                put_str(c, x->mounts[i].src);
                put_str(c, x->mounts[i].dst);
                put_str(c, x->mounts[i].options);
        }
        if (c->failed)
                return;
        {
                uint32_t len = (uint32_t) (c->len - at - 4);
                memcpy(c->buf + at, &len, 4);
        }
        c->n_new++;
}

/* Entries sorted by name, as load() wants them. */
typedef struct ent {
        const char *name;
        const uint8_t *p;             /* length + entry */
        size_t len;
} ent;

static int cmp_ent(const void *a, const void *b) {
        return strcmp(((const ent *) a)->name, ((const ent *) b)->name);
}

static int write_sorted(int rootfd, const sbx_ls_cache *c) {
        _cleanup_free_ ent *v = calloc(c->n_new + 1, sizeof(*v));
        _cleanup_free_ uint8_t *out = NULL;
        _cleanup_close_ int fd = -EBADF;
        uint8_t *q;
        size_t at = 0;
        uint64_t body_len = c->len;
        uint32_t count = (uint32_t) c->n_new, version = VERSION;
        uint64_t sum;

        if (!v || !(out = malloc(HEADER_LEN + c->len)))
                return -ENOMEM;
        for (size_t i = 0; i < c->n_new; i++) {
                uint32_t len;
                memcpy(&len, c->buf + at, 4);
                v[i] = (ent) { .name = (const char *) c->buf + at + 8, .p = c->buf + at, .len = 4 + (size_t) len };
                at += 4 + len;
        }
        qsort(v, c->n_new, sizeof(*v), cmp_ent);
        q = out + HEADER_LEN;
        for (size_t i = 0; i < c->n_new; i++) {
                if (i && !strcmp(v[i - 1].name, v[i].name))
                        return -EEXIST; /* cannot happen: one readdir entry per name */
                memcpy(q, v[i].p, v[i].len);
                q += v[i].len;
        }
        sum = checksum(out + HEADER_LEN, body_len);
        memcpy(out, MAGIC, 8);
        memcpy(out + 8, &version, 4);
        memcpy(out + 12, &count, 4);
        memcpy(out + 16, &body_len, 8);
        memcpy(out + 24, &sum, 8);
        (void) unlinkat(rootfd, CACHE_TMP, 0);
        fd = openat(rootfd, CACHE_TMP, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return -errno;
        for (size_t done = 0, total = HEADER_LEN + c->len; done < total;) {
                ssize_t n = write(fd, out + done, total - done);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0) {
                        (void) unlinkat(rootfd, CACHE_TMP, 0);
                        return n < 0 ? -errno : -EIO;
                }
                done += (size_t) n;
        }
        if (renameat(rootfd, CACHE_TMP, rootfd, CACHE_FILE) < 0) {
                int r = -errno;
                (void) unlinkat(rootfd, CACHE_TMP, 0);
                return r;
        }
        return 0;
}

void sbx_ls_cache_done(sbx_ls_cache *c, int rootfd, bool complete) {
        if (!c)
                return;
        for (size_t i = 0; i < c->n_old && !c->changed; i++)
                if (!c->old[i].used)
                        c->changed = true;
        /* Only a listing that saw every dir writes: what it did not see
         * would be dropped, not wrong; but then it is not worth a write. */
        if (complete && c->changed && !c->failed) {
                _cleanup_close_ int lockfd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (lockfd >= 0 && flock(lockfd, LOCK_EX | LOCK_NB) == 0) {
                        if (c->n_new)
                                (void) write_sorted(rootfd, c);
                        else
                                (void) unlinkat(rootfd, CACHE_FILE, 0);
                }
        }
        free(c->old);
        free(c->file);
        free(c->buf);
        free(c);
}

/* SPDX-License-Identifier: MIT */
/* sbx rootfs: build, import, list, inspect and remove images (rootfs-tools/). */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "cli.h"
#include "rootfs-tools/image.h"
#include "util/util.h"

static const sbx_cli_opt help_only[] = { SBX_CLI_OPT_HELP, SBX_CLI_OPT_END };

const sbx_cli_cmd sbx_cmd_rootfs = {
        .name = "rootfs", .page = "sbx-rootfs", .fn = cli_rootfs, .positional = "",
        .usage = "COMMAND ...",
        .summary = "build, import, list and remove images",
        .text = "The image store: images 'sbx run --image' and 'sbx create --image' use as the root. NAME is "
                "name[:tag], tag 'latest' by default. The store is $SBX_IMAGE_DIR, else /var/lib/sbx/images as "
                "root, else ${XDG_DATA_HOME:-~/.local/share}/sbx/images. Progress: one updating line on a "
                "terminal, plain lines on stderr otherwise.",
        .opts = { help_only, NULL },
        .footer = "Commands: build, import, ls, inspect, rm ('sbx rootfs COMMAND --help').",
};

static const sbx_cli_opt build_opts[] = {
        { "packages", 0, "P1,P2,..", 'p', "packages to install (default " SBX_BUILD_DEFAULT_PACKAGES "; '' for "
          "minbase only)", NULL },
        { "mirror", 0, "URL", 'm', "the Debian mirror (default: the first apt source for SUITE)", NULL },
        { "suite", 0, "SUITE", 's', "the Debian suite (default bookworm)", NULL },
        { "user", 0, "USER", 'u', "an unprivileged user the image gets ('' for none)", NULL },
        { "print-mirror", 0, NULL, 'P', "print the mirror that would be used, build nothing", NULL },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_rootfs_build = {
        .name = "rootfs build", .page = "sbx-rootfs", .positional = "",
        .usage = "[NAME] [--packages P1,P2,..] [--mirror URL] [--suite SUITE] [--user USER] [--print-mirror]",
        .summary = "debootstrap a Debian image",
        .text = "debootstrap a Debian image NAME (default " SBX_IMAGE_DEFAULT ") into the store. Needs root.",
        .opts = { build_opts, NULL },
};

static const sbx_cli_opt import_opts[] = {
        { "name", 0, "NAME[:TAG]", 'n', "the name to store the image under (default: the archive's own)", NULL },
        { "max-bytes", 0, "SIZE", 'B',
          "refuse an archive that unpacks to more than SIZE bytes: the outer archive's and every layer's tar "
          "stream after decompression (k, m, g, t suffixes; default 64g)", NULL },
        { "max-entries", 0, "N", 'E',
          "refuse an archive with more than N entries, the outer archive's and every layer's (default 2000000)",
          NULL },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_rootfs_import = {
        .name = "rootfs import", .page = "sbx-rootfs", .positional = "@file",
        .usage = "FILE|- [--name NAME[:TAG]] [--max-bytes SIZE] [--max-entries N]",
        .summary = "import a 'docker save' archive or an OCI image layout tarball",
        .text = "Import a 'docker save' archive or an OCI image layout tarball (optionally gzip, xz or zstd "
                "compressed); - reads standard input. An archive past a limit (--max-bytes, --max-entries, "
                "or an entry name of more than 128 path components) is refused and nothing is imported.",
        .opts = { import_opts, NULL },
};

static const sbx_cli_opt ls_opts[] = {
        { "json", 0, NULL, 'j', "the image records as JSON", NULL },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_rootfs_ls = {
        .name = "rootfs ls", .page = "sbx-rootfs", .positional = "",
        .usage = "[--json]",
        .summary = "list images",
        .text = "List the images of the store: name, source, layers, creation time ('sbx rootfs list' is the "
                "same).",
        .opts = { ls_opts, NULL },
};

const sbx_cli_cmd sbx_cmd_rootfs_inspect = {
        .name = "rootfs inspect", .page = "sbx-rootfs", .positional = "@image",
        .usage = "NAME",
        .summary = "print an image record as JSON",
        .opts = { help_only, NULL },
};

const sbx_cli_cmd sbx_cmd_rootfs_rm = {
        .name = "rootfs rm", .page = "sbx-rootfs", .positional = "@image",
        .usage = "NAME...",
        .summary = "remove images (and the layers no other image uses)",
        .opts = { help_only, NULL },
};

static int fail(const sbx_error *e) {
        char buf[SBX_ERROR_MSG_MAX + 64];

        fprintf(stderr, "sbx rootfs: %s\n", sbx_error_text(e, buf, sizeof(buf)));
        return e->code == -EINVAL ? SBX_EXIT_USAGE : SBX_EXIT_FAILURE;
}

/* ---- progress rendering ---- */

struct render {
        const char *cmd;
        bool tty;
        bool line_open;
        char phase[32];
        struct timespec last;
};

static void human(uint64_t b, char *buf, size_t len) {
        if (b >= 1 << 20)
                snprintf(buf, len, "%.1f MiB", (double) b / (1 << 20));
        else
                snprintf(buf, len, "%.1f KiB", (double) b / 1024);
}

static void render_event(void *userdata, const struct sbx_progress_event *ev) {
        struct render *r = userdata;
        char bytes[32] = "", count[32] = "";
        struct timespec now;

        if (ev->kind == SBX_PROGRESS_NOTICE) {
                if (r->line_open)
                        fputs("\r\033[K", stderr);
                fprintf(stderr, "sbx rootfs %s: note: %s\n", r->cmd, ev->detail);
                r->line_open = false;
                return;
        }
        if (ev->phase)
                snprintf(r->phase, sizeof(r->phase), "%s", ev->phase);
        if (ev->items)
                snprintf(count, sizeof(count), " %u/%u", ev->item, ev->items);
        else if (ev->item)
                snprintf(count, sizeof(count), " %u", ev->item);
        if (ev->bytes)
                human(ev->bytes, bytes, sizeof(bytes));
        if (!r->tty) {
                /* Line-based and quiet: one line per phase. */
                if (ev->kind == SBX_PROGRESS_PHASE)
                        fprintf(stderr, "sbx rootfs %s: %s%s%s%s\n", r->cmd, r->phase, count,
                                ev->detail ? " " : "", ev->detail ?: "");
                return;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (ev->kind == SBX_PROGRESS_TICK &&
            (now.tv_sec - r->last.tv_sec) * 1000000000L + (now.tv_nsec - r->last.tv_nsec) < 100000000L)
                return;
        r->last = now;
        fprintf(stderr, "\r\033[K%s: %s%s %s %.40s", r->cmd, r->phase, count, bytes, ev->detail ?: "");
        r->line_open = true;
}

static void render_end(struct render *r) {
        if (r->line_open)
                fputs("\r\033[K", stderr);
        r->line_open = false;
}

/* ---- commands ---- */

struct build_args {
        struct sbx_build_options o;
        bool print_mirror;
};

static int build_opt(int c, const char *arg, void *userdata) {
        struct build_args *b = userdata;

        switch (c) {
        case 'p':
                b->o.packages = arg;
                return 0;
        case 'm':
                b->o.mirror = arg;
                return 0;
        case 's':
                b->o.suite = arg;
                return 0;
        case 'u':
                b->o.user = arg;
                return 0;
        case 'P':
                b->print_mirror = true;
                return 0;
        default:
                return -EINVAL;
        }
}

static int cmd_build(int argc, char **argv) {
        struct build_args b = {};
        struct sbx_build_options o;
        struct render rd = {.cmd = "build", .tty = isatty(2)};
        struct sbx_progress pg = {render_event, &rd};
        sbx_error e = {};
        time_t t0 = time(NULL);
        bool print_mirror;
        int status = 0;

        if (sbx_cli_parse(&sbx_cmd_rootfs_build, argc, argv, build_opt, &b, &status) < 0)
                return status;
        o = b.o;
        print_mirror = b.print_mirror;
        if (argc - optind > 1) {
                fprintf(stderr, "sbx rootfs build: one NAME at most\n");
                return SBX_EXIT_USAGE;
        }
        o.name = optind < argc ? argv[optind] : SBX_IMAGE_DEFAULT;
        if (print_mirror) {
                char m[512];
                if (o.mirror)
                        snprintf(m, sizeof(m), "%s", o.mirror);
                else if (sbx_apt_mirror(o.suite ?: "bookworm", m, sizeof(m), &e) < 0)
                        return fail(&e);
                printf("%s\n", m);
                return 0;
        }
        if (sbx_image_build(&o, &pg, &e) < 0) {
                render_end(&rd);
                return fail(&e);
        }
        render_end(&rd);
        fprintf(stderr, "sbx rootfs build: built %s in %lds\n", o.name, (long) (time(NULL) - t0));
        return 0;
}

struct import_args {
        const char *name;
        struct sbx_import_limits limits;
};

static int import_opt(int c, const char *arg, void *userdata) {
        struct import_args *a = userdata;
        int64_t v;

        switch (c) {
        case 'n':
                a->name = arg;
                return 0;
        case 'B':
                if (sbx_parse_size(arg, &v) < 0 || v <= 0) {
                        fprintf(stderr, "sbx rootfs import: --max-bytes '%s': not a size (e.g. 10g)\n", arg);
                        return -EINVAL;
                }
                a->limits.bytes = (uint64_t) v;
                return 0;
        case 'E': {
                char *end;
                unsigned long long n;
                errno = 0;
                n = strtoull(arg, &end, 10);
                if (errno || end == arg || *end || n == 0 || arg[0] == '-') {
                        fprintf(stderr, "sbx rootfs import: --max-entries '%s': not a positive number\n", arg);
                        return -EINVAL;
                }
                a->limits.entries = n;
                return 0;
        }
        default:
                return -EINVAL;
        }
}

static int cmd_import(int argc, char **argv) {
        struct render rd = {.cmd = "import", .tty = isatty(2)};
        struct sbx_progress pg = {render_event, &rd};
        struct import_args args = {.limits = {.bytes = SBX_IMPORT_MAX_BYTES_DEFAULT,
                                              .entries = SBX_IMPORT_MAX_ENTRIES_DEFAULT}};
        _cleanup_close_ int fd = -EBADF;
        unsigned count = 0;
        sbx_error e = {};
        int status = 0;

        if (sbx_cli_parse(&sbx_cmd_rootfs_import, argc, argv, import_opt, &args, &status) < 0)
                return status;
        if (argc - optind != 1) {
                fprintf(stderr, "sbx rootfs import: give one FILE, or - for standard input\n");
                return SBX_EXIT_USAGE;
        }
        if (!strcmp(argv[optind], "-")) {
                if (isatty(0)) {
                        fprintf(stderr,
                                "sbx rootfs import: standard input is a terminal, pipe an archive in\n");
                        return SBX_EXIT_USAGE;
                }
                fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
        } else
                fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
                fprintf(stderr, "sbx rootfs import: open '%s': %s\n", argv[optind], strerror(errno));
                return SBX_EXIT_FAILURE;
        }
        if (sbx_image_import(fd, args.name, &args.limits, &pg, &count, &e) < 0) {
                render_end(&rd);
                return fail(&e);
        }
        render_end(&rd);
        fprintf(stderr, "sbx rootfs import: imported %u image name%s\n", count, count == 1 ? "" : "s");
        return 0;
}

static int flag_opt(int c, const char *arg, void *userdata) {
        *(bool *) userdata = true;
        return 0;
}

static int cmd_ls(int argc, char **argv) {
        json_object *arr = NULL;
        bool json = false;
        sbx_error e = {};
        int status = 0, first = sbx_cli_parse(&sbx_cmd_rootfs_ls, argc, argv, flag_opt, &json, &status);

        if (first < 0)
                return status;
        if (first < argc) {
                fprintf(stderr, "usage: sbx rootfs ls [--json]\n");
                return SBX_EXIT_USAGE;
        }
        if (sbx_image_list((void **) &arr, &e) < 0)
                return fail(&e);
        if (json)
                (void) sbx_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
                                                                           JSON_C_TO_STRING_NOSLASHESCAPE));
        else {
                printf("%-44s %-15s %-7s %s\n", "IMAGE", "SOURCE", "LAYERS", "CREATED");
                for (size_t i = 0; i < json_object_array_length(arr); i++) {
                        json_object *r = json_object_array_get_idx(arr, i),
                                    *l = json_object_object_get(r, "layers");
                        printf("%-44s %-15s %-7zu %s\n",
                               json_object_get_string(json_object_object_get(r, "ref")),
                               json_object_get_string(json_object_object_get(r, "source")),
                               l ? json_object_array_length(l) : 0,
                               json_object_get_string(json_object_object_get(r, "created")));
                }
        }
        json_object_put(arr);
        return 0;
}

static int cmd_inspect(int argc, char **argv) {
        json_object *rec = NULL;
        sbx_error e = {};
        int status = 0, i = sbx_cli_parse(&sbx_cmd_rootfs_inspect, argc, argv, NULL, NULL, &status);

        if (i < 0)
                return status;
        if (argc - i != 1) {
                fprintf(stderr, "usage: sbx rootfs inspect NAME\n");
                return SBX_EXIT_USAGE;
        }
        if (sbx_image_inspect(argv[i], (void **) &rec, &e) < 0)
                return fail(&e);
        (void) sbx_json_puts(json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PRETTY |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(rec);
        return 0;
}

static int cmd_rm(int argc, char **argv) {
        int ret = 0, status = 0, first = sbx_cli_parse(&sbx_cmd_rootfs_rm, argc, argv, NULL, NULL, &status);

        if (first < 0)
                return status;
        if (first >= argc) {
                fprintf(stderr, "usage: sbx rootfs rm NAME...\n");
                return SBX_EXIT_USAGE;
        }
        for (int i = first; i < argc; i++) {
                sbx_error e = {};
                if (sbx_image_remove(argv[i], &e) < 0)
                        ret = fail(&e);
                else
                        printf("removed %s\n", argv[i]);
        }
        return ret;
}

/* sbx rootfs --help: the store, then every sub-command with its options. */
static void rootfs_usage(FILE *f) {
        const sbx_cli_cmd *subs[] = { &sbx_cmd_rootfs_build, &sbx_cmd_rootfs_import, &sbx_cmd_rootfs_ls,
                                      &sbx_cmd_rootfs_inspect, &sbx_cmd_rootfs_rm };

        sbx_cli_usage(f, &sbx_cmd_rootfs);
        for (size_t i = 0; i < ELEMENTSOF(subs); i++) {
                fputc('\n', f);
                sbx_cli_usage(f, subs[i]);
        }
}

int cli_rootfs(int argc, char **argv) {
        static const struct {
                const char *name;
                int (*fn)(int argc, char **argv);
        } sub[] = {
                {"build", cmd_build}, {"import", cmd_import},   {"ls", cmd_ls},
                {"list", cmd_ls},     {"inspect", cmd_inspect}, {"rm", cmd_rm},
        };
        int status;

        if (sbx_cli_help_word(argc, argv, rootfs_usage, &status))
                return status;
        for (size_t i = 0; i < ELEMENTSOF(sub); i++)
                if (!strcmp(argv[1], sub[i].name))
                        return sub[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "sbx rootfs: unknown command '%s' (see 'sbx rootfs --help')\n", argv[1]);
        return SBX_EXIT_USAGE;
}

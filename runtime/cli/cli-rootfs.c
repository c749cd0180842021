/* SPDX-License-Identifier: MIT */
/* sbx rootfs: build, import, list, inspect and remove images (rootfs-tools/). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rootfs-tools/image.h"
#include "util/util.h"

static const char usage_text[] =
        "usage: sbx rootfs COMMAND ...\n"
        "\n"
        "  build [NAME] [--packages P1,P2,..] [--mirror URL] [--suite SUITE] [--user USER]\n"
        "        [--print-mirror]\n"
        "        debootstrap a Debian image (default " SBX_IMAGE_DEFAULT ", packages\n"
        "        " SBX_BUILD_DEFAULT_PACKAGES ";\n"
        "        --packages '' for minbase only; --user '' for no user; the mirror is the\n"
        "        first apt source for SUITE, --print-mirror shows it). Needs root.\n"
        "  import FILE|- [--name NAME[:TAG]]\n"
        "        import a 'docker save' archive or an OCI image layout tarball\n"
        "        (optionally gzip/xz/zstd compressed); - reads standard input\n"
        "  ls [--json]        list images\n"
        "  inspect NAME       print an image record as JSON\n"
        "  rm NAME...         remove images (and layers no other image uses)\n"
        "\n"
        "NAME is name[:tag], tag 'latest' by default. The store is $SBX_IMAGE_DIR, else\n"
        "/var/lib/sbx/images as root, else ${XDG_DATA_HOME:-~/.local/share}/sbx/images.\n"
        "Progress: one updating line on a terminal, plain lines on stderr otherwise.\n";

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

static int cmd_build(int argc, char **argv) {
        static const struct option opts[] = {
                {"packages", required_argument, NULL, 'p'},
                {"mirror", required_argument, NULL, 'm'},
                {"suite", required_argument, NULL, 's'},
                {"user", required_argument, NULL, 'u'},
                {"print-mirror", no_argument, NULL, 'P'},
                {"help", no_argument, NULL, 'h'},
                {},
        };
        struct sbx_build_options o = {};
        struct render rd = {.cmd = "build", .tty = isatty(2)};
        struct sbx_progress pg = {render_event, &rd};
        sbx_error e = {};
        time_t t0 = time(NULL);
        bool print_mirror = false;
        int c;

        while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0)
                switch (c) {
                case 'p':
                        o.packages = optarg;
                        break;
                case 'm':
                        o.mirror = optarg;
                        break;
                case 's':
                        o.suite = optarg;
                        break;
                case 'u':
                        o.user = optarg;
                        break;
                case 'P':
                        print_mirror = true;
                        break;
                case 'h':
                        fputs(usage_text, stdout);
                        return 0;
                default:
                        return SBX_EXIT_USAGE;
                }
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

static int cmd_import(int argc, char **argv) {
        static const struct option opts[] = {
                {"name", required_argument, NULL, 'n'},
                {"help", no_argument, NULL, 'h'},
                {},
        };
        struct render rd = {.cmd = "import", .tty = isatty(2)};
        struct sbx_progress pg = {render_event, &rd};
        const char *name = NULL;
        _cleanup_close_ int fd = -EBADF;
        unsigned count = 0;
        sbx_error e = {};
        int c;

        while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0)
                switch (c) {
                case 'n':
                        name = optarg;
                        break;
                case 'h':
                        fputs(usage_text, stdout);
                        return 0;
                default:
                        return SBX_EXIT_USAGE;
                }
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
        if (sbx_image_import(fd, name, &pg, &count, &e) < 0) {
                render_end(&rd);
                return fail(&e);
        }
        render_end(&rd);
        fprintf(stderr, "sbx rootfs import: imported %u image name%s\n", count, count == 1 ? "" : "s");
        return 0;
}

static int cmd_ls(int argc, char **argv) {
        json_object *arr = NULL;
        bool json = argc > 1 && !strcmp(argv[1], "--json");
        sbx_error e = {};

        if (argc > 1 && !json) {
                fputs(strcmp(argv[1], "--help") ? "usage: sbx rootfs ls [--json]\n" : usage_text,
                      strcmp(argv[1], "--help") ? stderr : stdout);
                return strcmp(argv[1], "--help") ? SBX_EXIT_USAGE : 0;
        }
        if (sbx_image_list((void **) &arr, &e) < 0)
                return fail(&e);
        if (json)
                printf("%s\n", json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
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

        if (argc != 2) {
                fprintf(stderr, "usage: sbx rootfs inspect NAME\n");
                return SBX_EXIT_USAGE;
        }
        if (sbx_image_inspect(argv[1], (void **) &rec, &e) < 0)
                return fail(&e);
        printf("%s\n", json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PRETTY |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(rec);
        return 0;
}

static int cmd_rm(int argc, char **argv) {
        int ret = 0;

        if (argc < 2) {
                fprintf(stderr, "usage: sbx rootfs rm NAME...\n");
                return SBX_EXIT_USAGE;
        }
        for (int i = 1; i < argc; i++) {
                sbx_error e = {};
                if (sbx_image_remove(argv[i], &e) < 0)
                        ret = fail(&e);
                else
                        printf("removed %s\n", argv[i]);
        }
        return ret;
}

int cli_rootfs(int argc, char **argv) {
        static const struct {
                const char *name;
                int (*fn)(int argc, char **argv);
        } sub[] = {
                {"build", cmd_build}, {"import", cmd_import},   {"ls", cmd_ls},
                {"list", cmd_ls},     {"inspect", cmd_inspect}, {"rm", cmd_rm},
        };

        if (argc < 2) {
                fputs(usage_text, stderr);
                return SBX_EXIT_USAGE;
        }
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
                fputs(usage_text, stdout);
                return 0;
        }
        for (size_t i = 0; i < ELEMENTSOF(sub); i++)
                if (!strcmp(argv[1], sub[i].name))
                        return sub[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "sbx rootfs: unknown command '%s' (see 'sbx rootfs --help')\n", argv[1]);
        return SBX_EXIT_USAGE;
}

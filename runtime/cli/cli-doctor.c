/* SPDX-License-Identifier: MIT */
/* `sbx doctor [--json]`: print what runtime/cli/doctor.c found. Exit 0 unless a
 * hard requirement (user namespaces, seccomp) is missing, then 1. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "doctor.h"

static const sbx_cli_opt doctor_opts[] = {
        { "json", 0, NULL, 'j', "machine-readable output: ok, checks (id, title, status, required, detail, fix), "
          "cgroup (hierarchy, v1, default_pids_limit, freezer, ...), landlock_abi", NULL },
        SBX_CLI_OPT_HELP,
        SBX_CLI_OPT_END
};

const sbx_cli_cmd sbx_cmd_doctor = {
        .name = "doctor", .page = "sbx-doctor", .fn = cli_doctor, .positional = "",
        .usage = "[--json]",
        .summary = "report what this host supports",
        .text = "Probe what this host supports (user namespaces, cgroup v2 or v1 controllers and delegation, overlayfs "
                "in a user namespace, seccomp and user notification, Landlock, idmapped mounts, pasta, "
                "subordinate ids, clone3 CLONE_INTO_CGROUP, openat2) and what sbx will do about it. Each check "
                "is ok, warn or missing, with a fix where one exists.",
        .opts = { doctor_opts, NULL },
        .footer = "Exit status: 0, or 1 if a hard requirement is missing; 2 on bad usage.",
};

static json_object *report_json(const sbx_doctor_report *r) {
        json_object *o = json_object_new_object(), *a = json_object_new_array();
        json_object *cg = json_object_new_object();
        const sbx_cgroup_host *h = &r->cgroup;

        for (size_t i = 0; i < r->n; i++) {
                const sbx_check *c = &r->checks[i];
                json_object *j = json_object_new_object();
                json_object_object_add(j, "id", json_object_new_string(c->id));
                json_object_object_add(j, "title", json_object_new_string(c->title));
                json_object_object_add(j, "status",
                                       json_object_new_string(sbx_check_status_to_string(c->status)));
                json_object_object_add(j, "required", json_object_new_boolean(c->required));
                json_object_object_add(j, "detail", json_object_new_string(c->detail));
                json_object_object_add(j, "fix", c->fix[0] ? json_object_new_string(c->fix) : NULL);
                json_object_array_add(a, j);
        }
        json_object_object_add(cg, "mode", json_object_new_string(sbx_cgroup_mode_to_string(h->mode)));
        json_object_object_add(cg, "mount", h->mount[0] ? json_object_new_string(h->mount) : NULL);
        json_object_object_add(cg, "nsdelegate", json_object_new_boolean(h->nsdelegate));
        json_object_object_add(cg, "controllers", json_object_new_string(h->root_controllers));
        json_object_object_add(cg, "base", h->base[0] ? json_object_new_string(h->base) : NULL);
        json_object_object_add(cg, "privileged", json_object_new_boolean(h->privileged));
        json_object_object_add(cg, "available", json_object_new_string(h->available));
        json_object_object_add(cg, "limits_enforceable",
                               json_object_new_boolean(r->limits_enforceable));
        json_object_object_add(cg, "problem", h->problem[0] ? json_object_new_string(h->problem) : NULL);
        /* issue 15: which hierarchy the limits use, the v1 ones, the defaults */
        json_object_object_add(cg, "hierarchy", json_object_new_string(sbx_cgroup_host_hierarchy(h)));
        {
                json_object *v1 = json_object_new_array();
                for (unsigned i = 0; i < h->n_v1; i++) {
                        json_object *j = json_object_new_object();
                        json_object_object_add(j, "mount", json_object_new_string(h->v1_mount[i]));
                        json_object_object_add(j, "controllers", json_object_new_string(h->v1_controllers[i]));
                        json_object_array_add(v1, j);
                }
                json_object_object_add(cg, "v1", v1);
        }
        json_object_object_add(cg, "default_pids_limit", json_object_new_int64(r->default_pids_limit));
        json_object_object_add(cg, "freezer", json_object_new_boolean(r->freezer));
        json_object_object_add(o, "ok", json_object_new_boolean(!sbx_doctor_hard_failure(r)));
        json_object_object_add(o, "checks", a);
        json_object_object_add(o, "cgroup", cg);
        json_object_object_add(o, "landlock_abi", json_object_new_int(r->landlock_abi));
        return o;
}

static void report_human(const sbx_doctor_report *r) {
        for (size_t i = 0; i < r->n; i++) {
                const sbx_check *c = &r->checks[i];
                printf("%-8s %s%s\n         %s\n",
                       c->status == SBX_CHECK_OK ? "[ok]" :
                       c->status == SBX_CHECK_WARN ? "[warn]" : "[MISSING]",
                       c->title, c->required ? " (required)" : "", c->detail);
                if (c->fix[0])
                        printf("         fix: %s\n", c->fix);
        }
        printf("\nresource limits (--memory, --pids-limit, --cpus): %s\n",
               r->limits_enforceable ? (r->cgroup.use_v1 ? "enforced with cgroup v1" : "enforced with cgroup v2")
                                     : "REFUSED on this host unless --limits best-effort");
        if (r->default_pids_limit > 0)
                printf("default process cap per sandbox: %lld (SBX_DEFAULT_PIDS_LIMIT; 0 = off)\n",
                       (long long) r->default_pids_limit);
        else
                printf("default process cap per sandbox: none here\n");
        printf("verdict: %s\n", sbx_doctor_hard_failure(r) ? "sbx cannot run here"
                                                           : "sbx can run here");
}

int cli_doctor(int argc, char **argv) {
        static sbx_doctor_report rep;
        bool json = false;

        sbx_cli_getopt g;
        int opt;

        sbx_cli_getopt_init(&g, sbx_cmd_doctor.opts, false);
        optind = 1;
        opterr = 0;
        while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
                if (opt == 'j')
                        json = true;
                else if (opt == 'h') {
                        sbx_cli_usage(stdout, &sbx_cmd_doctor);
                        return 0;
                } else {
                        sbx_cli_bad_option(&sbx_cmd_doctor, &g, argc, argv);
                        return SBX_EXIT_USAGE;
                }
        }
        if (optind < argc) {
                fprintf(stderr, "sbx doctor: unexpected argument '%s' (see 'sbx doctor --help')\n", argv[optind]);
                return SBX_EXIT_USAGE;
        }
        fflush(stdout);   /* the probes fork */
        sbx_doctor_run(&rep);
        if (json) {
                json_object *o = report_json(&rep);
                (void) sbx_json_puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
                json_object_put(o);
        } else
                report_human(&rep);
        return sbx_doctor_hard_failure(&rep) ? 1 : 0;
}

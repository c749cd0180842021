/* SPDX-License-Identifier: MIT */
/* Seccomp profiles, compiler and real enforcement (issues 2 and 6).
 *
 * Check's default CK_FORK runs every test in its own child, so the
 * enforcement tests install the real filters in the test process itself:
 * nothing leaks into the next test. Each restriction is probed in both
 * directions (STYLE.md rule 23): before the filter the call fails harmlessly
 * with an errno the kernel gives (EINVAL, EFAULT, ENOTTY, ...), after it with
 * the errno only the filter gives. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "security/seccomp-embedded.h"
#include "security/security.h"
#include "unit.h"

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
/* A NULL the compiler cannot see, for "allowed call fails with EFAULT". */
static const char *volatile null_path = NULL;
#define NR_STATMOUNT 457 /* first x86_64 syscall newer than libseccomp 2.5.4's table */

#define ASSERT_ERRNO(expr, e)                                                                               \
        do {                                                                                                \
                errno = 0;                                                                                  \
                long _r = (long) (expr);                                                                    \
                int _e = errno;                                                                             \
                ck_assert_msg(_r == -1 && _e == (e), "%s: returned %ld, errno %s, expected %s", #expr, _r,  \
                              strerrorname_np(_e) ?: "0", strerrorname_np(e));                              \
        } while (0)

#define ASSERT_NOT_ERRNO(expr, e)                                                                           \
        do {                                                                                                \
                errno = 0;                                                                                  \
                long _r = (long) (expr);                                                                    \
                int _e = errno;                                                                             \
                ck_assert_msg(!(_r == -1 && _e == (e)), "%s: unexpectedly failed with %s", #expr,           \
                              strerrorname_np(e));                                                          \
        } while (0)

static int parse(const char *json, unsigned flags, sbx_seccomp_profile *p, sbx_error *err) {
        return sbx_seccomp_profile_parse(json, strlen(json), "test.json", flags, p, err);
}

/* Under -Db_sanitize (the sanitizers lane) LeakSanitizer checks at exit by
 * ptrace()ing the process, which the filter refuses: check for leaks now,
 * before the filter goes in (this also disables the exit-time check). */
extern void __lsan_do_leak_check(void) __attribute__((weak));

static void install(const sbx_seccomp_opts *opts) {
        sbx_bpf bpf = {};
        sbx_error err = {};
        int r;

        if (__lsan_do_leak_check)
                __lsan_do_leak_check();

        r = sbx_seccomp_compile(opts, &bpf, &err);
        ck_assert_msg(r == 0, "compile: %s", err.msg);
        ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
        r = sbx_seccomp_setup_child(&bpf);
        ck_assert_msg(r == 0, "install: %s", strerror(-r));
        sbx_bpf_free(&bpf);
}

static void install_default(void) {
        install(&(sbx_seccomp_opts){});
}

/* errno of fn() run in a throwaway child, for baselines that change state. */
static int errno_in_child(int (*fn)(void)) {
        int status;
        pid_t pid = fork();

        ck_assert_int_ge(pid, 0);
        if (pid == 0)
                _exit(fn() < 0 ? errno : 0);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFEXITED(status));
        return WEXITSTATUS(status);
}

/* ---- lint: the embedded profiles are data and must stay tidy ---- */

static const char *const dangerous[] = {
        "add_key",
        "bpf",
        "clone",
        "ioctl",
        "io_uring_setup",
        "kcmp",
        "keyctl",
        "mount",
        "perf_event_open",
        "personality",
        "prctl",
        "process_vm_readv",
        "process_vm_writev",
        "ptrace",
        "request_key",
        "seccomp",
        "setns",
        "socket",
        "umount2",
        "unshare",
        "userfaultfd",
        "landlock_restrict_self",
        NULL,
};

static bool is_dangerous(const char *name) {
        for (size_t i = 0; dangerous[i]; i++)
                if (strcmp(name, dangerous[i]) == 0)
                        return true;
        return false;
}

static const char *str_key(json_object *o, const char *key) {
        json_object *v;

        return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static void lint_profile(const sbx_embedded_profile *ep) {
        json_tokener *tok = json_tokener_new();
        json_object *root = json_tokener_parse_ex(tok, (const char *) ep->data, (int) ep->size);
        json_object *syscalls, *uncond = json_object_new_object(), *seen_entries = json_object_new_object();
        const char *prev_group = "";

        ck_assert_msg(root, "%s: not valid JSON", ep->name);
        ck_assert_msg(json_object_object_get_ex(root, "syscalls", &syscalls), "%s: no syscalls", ep->name);
        for (size_t i = 0; i < json_object_array_length(syscalls); i++) {
                json_object *e = json_object_array_get_idx(syscalls, i), *names, *args = NULL;
                const char *group = str_key(e, "group"), *comment = str_key(e, "comment");
                const char *action = str_key(e, "action"), *prev = "";
                bool conditional =
                        json_object_object_get_ex(e, "args", &args) && json_object_array_length(args) > 0;
                const char *key = json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN);

                ck_assert_msg(group && group[0] == '@', "%s: syscalls[%zu] has no @group", ep->name, i);
                ck_assert_msg(comment && strlen(comment) > 10, "%s: group %s has no help text", ep->name,
                              group);
                ck_assert_msg(strcmp(prev_group, group) <= 0, "%s: group %s sorted after %s", ep->name,
                              group, prev_group);
                prev_group = group;
                ck_assert_msg(!json_object_object_get_ex(seen_entries, key, NULL),
                              "%s: syscalls[%zu] duplicated", ep->name, i);
                json_object_object_add(seen_entries, key, NULL);
                ck_assert(json_object_object_get_ex(e, "names", &names));
                for (size_t j = 0; j < json_object_array_length(names); j++) {
                        const char *n = json_object_get_string(json_object_array_get_idx(names, j));
                        int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, n);

                        ck_assert_msg(nr >= 0, "%s: %s: '%s' is not an x86_64 syscall for libseccomp",
                                      ep->name, group, n);
                        ck_assert_msg(strcmp(prev, n) < 0,
                                      "%s: %s: '%s' not sorted or duplicated after '%s'", ep->name, group, n,
                                      prev);
                        prev = n;
                        if (strcmp(action, "SCMP_ACT_ALLOW") == 0 && is_dangerous(n))
                                ck_assert_msg(str_key(e, "reason"),
                                              "%s: %s allows dangerous '%s' without a reason", ep->name,
                                              group, n);
                        /* A name may have several conditional entries (one per
                         * argument value) but an unconditional one must be its
                         * only entry. */
                        if (!conditional) {
                                ck_assert_msg(!json_object_object_get_ex(uncond, n, NULL),
                                              "%s: '%s' listed twice", ep->name, n);
                                json_object_object_add(uncond, n, json_object_new_boolean(1));
                        }
                }
        }
        for (size_t i = 0; i < json_object_array_length(syscalls); i++) {
                json_object *e = json_object_array_get_idx(syscalls, i), *names, *args;

                if (!json_object_object_get_ex(e, "args", &args) || json_object_array_length(args) == 0)
                        continue;
                json_object_object_get_ex(e, "names", &names);
                for (size_t j = 0; j < json_object_array_length(names); j++) {
                        const char *n = json_object_get_string(json_object_array_get_idx(names, j));

                        ck_assert_msg(!json_object_object_get_ex(uncond, n, NULL),
                                      "%s: '%s' has both conditional and unconditional entries", ep->name,
                                      n);
                }
        }
        json_tokener_free(tok);
        json_object_put(root);
        json_object_put(uncond);
        json_object_put(seen_entries);
}

START_TEST(test_profiles_lint_sorted_unique_resolvable_with_reasons) {
        ck_assert_uint_ge(sbx_embedded_profiles_count, 3);
        for (size_t i = 0; i < sbx_embedded_profiles_count; i++)
                lint_profile(&sbx_embedded_profiles[i]);
}
END_TEST

START_TEST(test_profiles_embedded_parse_strictly) {
        for (size_t i = 0; i < sbx_embedded_profiles_count; i++) {
                sbx_seccomp_profile p;
                sbx_error err = {};

                ck_assert_msg(sbx_seccomp_profile_load_embedded(sbx_embedded_profiles[i].name, &p, &err) ==
                                      0,
                              "%s", err.msg);
                ck_assert_uint_gt(p.n_rules, 0);
                sbx_seccomp_profile_done(&p);
        }
}
END_TEST

START_TEST(test_default_profile_refuses_docker_refusals_and_more) {
        /* Docker's documented "significant syscalls blocked" (x86_64 ones)
         * plus sbx's additions; none may be allowed unconditionally. */
        static const char *const refused[] = {
                "acct",
                "add_key",
                "bpf",
                "clock_adjtime",
                "clock_settime",
                "create_module",
                "delete_module",
                "finit_module",
                "get_kernel_syms",
                "get_mempolicy",
                "init_module",
                "ioperm",
                "iopl",
                "kcmp",
                "kexec_file_load",
                "kexec_load",
                "keyctl",
                "lookup_dcookie",
                "mbind",
                "mount",
                "move_pages",
                "name_to_handle_at",
                "nfsservctl",
                "open_by_handle_at",
                "perf_event_open",
                "pivot_root",
                "process_vm_readv",
                "process_vm_writev",
                "ptrace",
                "query_module",
                "quotactl",
                "reboot",
                "request_key",
                "set_mempolicy",
                "setns",
                "settimeofday",
                "swapon",
                "swapoff",
                "sysfs",
                "_sysctl",
                "umount2",
                "unshare",
                "uselib",
                "userfaultfd",
                "ustat",
                "adjtimex",
                "syslog",
                "io_uring_setup",
                "io_uring_enter",
                "io_uring_register",
                "clone3",
                "fanotify_init",
                "modify_ldt",
        };
        sbx_seccomp_verdict *v = NULL;
        size_t n = 0;
        sbx_error err = {};

        ck_assert_msg(sbx_seccomp_list_restricted(&(sbx_seccomp_opts){}, &v, &n, &err) == 0, "%s", err.msg);
        for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
                bool found = false;

                for (size_t j = 0; j < n && !found; j++)
                        found = strcmp(v[j].name, refused[i]) == 0 && !v[j].conditional &&
                                (v[j].action & 0xffff0000U) == SCMP_ACT_ERRNO(0);
                ck_assert_msg(found, "default profile does not refuse %s", refused[i]);
        }
        for (size_t j = 0; j < n; j++) {
                ck_assert_msg(strcmp(v[j].name, "read") != 0, "read restricted?");
                if (strcmp(v[j].name, "clone") == 0)
                        ck_assert(v[j].conditional && v[j].always_on);
        }
        free(v);
}
END_TEST

START_TEST(test_precompiled_bpf_matches_runtime_compile) {
        for (int deny = 0; deny <= 1; deny++) {
                sbx_seccomp_opts opts = {.deny_inet_sockets = deny};
                sbx_bpf fast = {}, slow = {};
                sbx_error err = {};

                ck_assert_msg(sbx_seccomp_compile(&opts, &fast, &err) == 0, "%s", err.msg);
                ck_assert_msg(sbx_seccomp_compile_uncached(&opts, &slow, &err) == 0, "%s", err.msg);
                ck_assert_uint_eq(fast.len, slow.len);
                ck_assert_uint_eq(fast.layer_len, slow.layer_len);
                ck_assert(memcmp(fast.insns, slow.insns, fast.len * sizeof(*fast.insns)) == 0);
                ck_assert(memcmp(fast.layer_insns, slow.layer_insns, fast.layer_len * sizeof(*fast.insns)) ==
                          0);
                ck_assert_uint_eq(fast.stacked_len, slow.stacked_len);
                ck_assert(memcmp(fast.stacked_insns, slow.stacked_insns,
                                 fast.stacked_len * sizeof(*fast.insns)) == 0);
                sbx_bpf_free(&fast);
                sbx_bpf_free(&slow);
        }
}
END_TEST

/* ---- compiler: strict input ---- */

START_TEST(test_compile_unknown_syscall_is_error_naming_it) {
        sbx_seccomp_profile p;
        sbx_error err = {};
        int r = parse("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":["
                      "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"},"
                      "{\"names\":[\"write\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"}]}",
                      0, &p, &err);

        ck_assert_int_eq(r, -EINVAL);
        ck_assert_msg(strstr(err.msg, "'frobnicate'") && strstr(err.msg, "syscalls[1].names[1]"), "%s",
                      err.msg);
}
END_TEST

START_TEST(test_compile_bad_or_unsupported_action_is_error) {
        sbx_seccomp_profile p;
        sbx_error err = {};

        ck_assert_int_eq(parse("{\"defaultAction\":\"SCMP_ACT_MAYBE\"}", 0, &p, &err), -EINVAL);
        ck_assert_msg(strstr(err.msg, "defaultAction") && strstr(err.msg, "SCMP_ACT_MAYBE"), "%s", err.msg);
        ck_assert_int_eq(parse("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],"
                               "\"action\":\"SCMP_ACT_TRACE\"}]}",
                               0, &p, &err),
                         -EOPNOTSUPP);
        ck_assert_msg(strstr(err.msg, "syscalls[0].action"), "%s", err.msg);
        ck_assert_int_eq(parse("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"defaultErrnoRet\":1}", 0, &p, &err),
                         -EINVAL);
        ck_assert_int_eq(
                parse("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":99999}", 0, &p, &err),
                -ERANGE);
}
END_TEST

START_TEST(test_compile_foreign_arch_is_error_unless_allowed) {
        const char *arches = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"architectures\":[\"SCMP_ARCH_X86_64\","
                             "\"SCMP_ARCH_AARCH64\"]}";
        const char *docker_map =
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"archMap\":[{\"architecture\":"
                "\"SCMP_ARCH_X86_64\",\"subArchitectures\":[\"SCMP_ARCH_X86\",\"SCMP_ARCH_X32\"]},"
                "{\"architecture\":\"SCMP_ARCH_AARCH64\",\"subArchitectures\":[\"SCMP_ARCH_ARM\"]}]}";
        sbx_seccomp_profile p;
        sbx_error err = {};

        ck_assert_int_eq(parse(arches, 0, &p, &err), -EPERM);
        ck_assert_msg(strstr(err.msg, "architectures[1]") && strstr(err.msg, "SCMP_ARCH_AARCH64"), "%s",
                      err.msg);
        ck_assert_int_eq(parse(docker_map, 0, &p, &err), -EPERM);
        ck_assert_msg(strstr(err.msg, "archMap[0].subArchitectures[0]"), "%s", err.msg);
        ck_assert_int_eq(
                parse("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"architectures\":[\"SCMP_ARCH_VAX\"]}", 0, &p,
                      &err),
                -EINVAL);
        /* Allowed on request: the non-native archMap entry is ignored. */
        ck_assert_msg(parse(docker_map, SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES, &p, &err) == 0, "%s",
                      err.msg);
        ck_assert_uint_eq(p.n_arches, 2);
        sbx_seccomp_profile_done(&p);
}
END_TEST

START_TEST(test_compile_rejects_malformed_json) {
        static const char *const bad[] = {
                "",
                "{",
                "[]",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\"} x",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"bogus\":1}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],\"action\":"
                "\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":6,\"value\":1,\"op\":\"SCMP_CMP_EQ\"}]}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],\"action\":"
                "\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":-1,\"op\":\"SCMP_CMP_EQ\"}]}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[],\"action\":\"SCMP_ACT_"
                "ALLOW\"}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],\"action\":"
                "\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"four\"}}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],\"action\":"
                "\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"4.-8\"}}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],\"action\":"
                "\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_NONSENSE\"]}}]}",
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"flags\":[\"SECCOMP_FILTER_FLAG_LOG\"]}",
                "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]}",
        };
        sbx_seccomp_profile p;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                sbx_error err = {};
                int r = parse(bad[i], 0, &p, &err);

                ck_assert_msg(r < 0, "accepted: %s", bad[i]);
                ck_assert_msg(strstr(err.msg, "test.json"), "message lacks the profile name: %s", err.msg);
        }
}
END_TEST

START_TEST(test_compile_evaluates_docker_includes_excludes) {
        /* Docker's shape: caps-gated entries never apply (sbx holds no caps),
         * other-arch entries are skipped but their names must still exist. */
        const char *json =
                "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":1,\"syscalls\":["
                "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[],\"comment\":\"\","
                "\"includes\":{},\"excludes\":{}},"
                "{\"names\":[\"chroot\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_SYS_"
                "CHROOT\"]}},"
                "{\"names\":[\"s390_pci_mmio_read\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"arches\":"
                "[\"s390x\"]}},"
                "{\"names\":[\"write\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"arches\":[\"amd64\"],"
                "\"minKernel\":\"3.0\"}},"
                "{\"names\":[\"getpid\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"99.0\"}"
                "},"
                "{\"names\":[\"close\"],\"action\":\"SCMP_ACT_ALLOW\",\"excludes\":{\"caps\":[\"CAP_SYS_"
                "ADMIN\"]}}]}";
        sbx_seccomp_profile p;
        sbx_error err = {};

        ck_assert_msg(parse(json, 0, &p, &err) == 0, "%s", err.msg);
        ck_assert_uint_eq(p.n_rules, 3);
        ck_assert_str_eq(p.rules[0].name, "read");
        ck_assert_str_eq(p.rules[1].name, "write");
        ck_assert_str_eq(p.rules[2].name, "close");
        sbx_seccomp_profile_done(&p);
}
END_TEST

START_TEST(test_compile_user_profile_file_errors_name_the_path) {
        sbx_seccomp_opts opts = {.profile_path = "/nonexistent/sbx-profile.json"};
        sbx_bpf bpf = {};
        sbx_error err = {};

        ck_assert_int_eq(sbx_seccomp_compile(&opts, &bpf, &err), -ENOENT);
        ck_assert_msg(strstr(err.msg, "/nonexistent/sbx-profile.json"), "%s", err.msg);
        ck_assert_ptr_null(bpf.insns);
}
END_TEST

/* ---- enforcement in a real process ---- */

START_TEST(test_default_refuses_kernel_surface_with_eperm) {
        /* Before: the kernel rejects the bad arguments itself. */
        ck_assert_int_ne((errno = 0, syscall(SYS_bpf, -1, NULL, 0), errno), EPERM);
        ck_assert_int_ne((errno = 0, syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), errno), EPERM);
        ck_assert_int_ne((errno = 0, syscall(SYS_keyctl, -1, 0, 0, 0, 0), errno), EPERM);
        ck_assert_int_ne((errno = 0, syscall(SYS_userfaultfd, -1), errno), EPERM);
        ck_assert_int_ne((errno = 0, syscall(SYS_io_uring_setup, 0, NULL), errno), EPERM);
        install_default();
        ASSERT_ERRNO(syscall(SYS_bpf, -1, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_keyctl, -1, 0, 0, 0, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_add_key, NULL, NULL, NULL, 0, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_request_key, NULL, NULL, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_userfaultfd, -1), EPERM);
        ASSERT_ERRNO(syscall(SYS_io_uring_setup, 0, NULL), EPERM);
        ASSERT_ERRNO(syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0), EPERM);
}
END_TEST

static int chroot_null(void) {
        return chroot(null_path);
}

static int unshare_newuser_bad_flag(void) {
        return unshare(CLONE_NEWUSER | 0x80000000);
}

START_TEST(test_default_refuses_namespaces_and_mounts) {
        /* Before: EINVAL (unknown flag), EINVAL (NEWUSER|FS), EFAULT (bad
         * target pointer), ESRCH (not our tracee). */
        ck_assert_int_eq(errno_in_child(unshare_newuser_bad_flag), EINVAL);
        ASSERT_ERRNO(syscall(SYS_clone, CLONE_NEWUSER | CLONE_FS | SIGCHLD, 0, 0, 0, 0), EINVAL);
        ASSERT_ERRNO(mount(NULL, (const char *) 1, NULL, 0, NULL), EFAULT);
        ASSERT_ERRNO(ptrace(PTRACE_PEEKDATA, getppid(), NULL, NULL), ESRCH);
        install_default();
        ASSERT_ERRNO(unshare_newuser_bad_flag(), EPERM);
        ASSERT_ERRNO(syscall(SYS_clone, CLONE_NEWUSER | CLONE_FS | SIGCHLD, 0, 0, 0, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_clone, CLONE_NEWNET | CLONE_FS | SIGCHLD, 0, 0, 0, 0), EPERM);
        ASSERT_ERRNO(mount(NULL, (const char *) 1, NULL, 0, NULL), EPERM);
        ASSERT_ERRNO(umount2((const char *) 1, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_setns, -1, 0), EPERM);
        ASSERT_ERRNO(ptrace(PTRACE_PEEKDATA, getppid(), NULL, NULL), EPERM);
}
END_TEST

START_TEST(test_default_clone3_gets_enosys_and_fork_still_works) {
        int status;
        pid_t pid;

        ASSERT_ERRNO(syscall(SYS_clone3, NULL, 0), EINVAL);
        install_default();
        ASSERT_ERRNO(syscall(SYS_clone3, NULL, 0), ENOSYS);
        /* glibc's fork() uses clone(2) without namespace flags: allowed. */
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0)
                _exit(7);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
}
END_TEST

START_TEST(test_default_action_eperm_old_enosys_new) {
        /* Pins the choice of default action: a syscall the profile does not
         * name (chroot) gets EPERM; one newer than every name in the profile
         * gets ENOSYS so libc can fall back. */
        sbx_seccomp_profile p;
        sbx_error err = {};

        ck_assert_msg(sbx_seccomp_profile_load_embedded("default", &p, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(p.default_action, SCMP_ACT_ERRNO(EPERM));
        if (p.max_nr >= NR_STATMOUNT) {
                sbx_seccomp_profile_done(&p);
                ck_abort_msg("default.json names statmount or later: pick a newer probe syscall");
        }
        sbx_seccomp_profile_done(&p);
        ASSERT_ERRNO(chroot(null_path), EFAULT);
        ck_assert_int_ne((errno = 0, syscall(NR_STATMOUNT, NULL, NULL, 0, ~0UL), errno), ENOSYS);
        install_default();
        ASSERT_ERRNO(chroot(null_path), EPERM);
        ASSERT_ERRNO(syscall(NR_STATMOUNT, NULL, NULL, 0, ~0UL), ENOSYS);
        ASSERT_ERRNO(syscall(1000), ENOSYS);
        ASSERT_ERRNO(syscall(SYS_syslog, 9999, NULL, 0), EPERM);
}
END_TEST

START_TEST(test_default_allows_ordinary_calls_with_harmless_errors) {
        int sv[2];

        install_default();
        ASSERT_ERRNO(read(-1, NULL, 0), EBADF);
        ASSERT_ERRNO(write(-1, "", 0), EBADF);
        ASSERT_ERRNO(syscall(SYS_getcwd, NULL, 100), EFAULT);
        ASSERT_ERRNO(syscall(SYS_openat, AT_FDCWD, NULL, O_RDONLY), EFAULT);
        ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
        close(sv[0]);
        close(sv[1]);
        ck_assert_int_ge(syscall(SYS_personality, 0xffffffffUL), 0);
        ASSERT_ERRNO(syscall(SYS_personality, 0x0040000UL /* ADDR_NO_RANDOMIZE */), EPERM);
}
END_TEST

START_TEST(test_x32_syscall_kills_process) {
        setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
        install_default();
        syscall(0x40000000 | SYS_getpid);
        ck_abort_msg("x32 syscall returned");
}
END_TEST

START_TEST(test_tiocsti_and_tioclinux_refused_tcgets_allowed) {
        struct termios t;
        int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC), master, slave;

        ck_assert_int_ge(null_fd, 0);
        master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        ck_assert_int_ge(master, 0);
        ck_assert_int_eq(grantpt(master), 0);
        ck_assert_int_eq(unlockpt(master), 0);
        slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
        ck_assert_int_ge(slave, 0);
        /* Before: /dev/null is no terminal. */
        ASSERT_ERRNO(ioctl(null_fd, TIOCSTI, "x"), ENOTTY);
        ASSERT_ERRNO(ioctl(null_fd, TIOCLINUX, "x"), ENOTTY);
        install_default();
        ASSERT_ERRNO(ioctl(null_fd, TIOCSTI, "x"), EPERM);
        ASSERT_ERRNO(ioctl(slave, TIOCSTI, "x"), EPERM);
        ASSERT_ERRNO(ioctl(null_fd, TIOCLINUX, "x"), EPERM);
        /* Junk in the upper half of the command: the kernel would truncate it
         * to TIOCSTI, the mask in always-on.json catches it. */
        ASSERT_ERRNO(syscall(SYS_ioctl, slave, (1UL << 32) | TIOCSTI, "x"), EPERM);
        ck_assert_int_eq(ioctl(slave, TCGETS, &t), 0);
        ASSERT_ERRNO(ioctl(null_fd, TCGETS, &t), ENOTTY);
}
END_TEST

START_TEST(test_deny_inet_sockets_refuses_inet_allows_unix) {
        int fd;

        fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        close(fd);
        install(&(sbx_seccomp_opts){.deny_inet_sockets = true});
        ASSERT_ERRNO(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), EAFNOSUPPORT);
        ASSERT_ERRNO(socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0), EAFNOSUPPORT);
        ASSERT_ERRNO(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0), EAFNOSUPPORT);
        /* Junk in the upper half of the family does not sneak AF_INET past
         * (both filters compare all 64 bits; the base profile, installed
         * last, answers with its EPERM). */
        ASSERT_ERRNO(syscall(SYS_socket, (1UL << 32) | AF_INET, SOCK_DGRAM, 0), EPERM);
        /* Families the base profile refuses keep the base profile's EPERM. */
        ASSERT_ERRNO(socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0), EPERM);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        close(fd);
}
END_TEST

START_TEST(test_default_allows_inet_refuses_vsock) {
        int fd;

        install_default();
        fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        close(fd);
        ASSERT_ERRNO(socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0), EPERM);
}
END_TEST

static char *write_profile(const char *json) {
        char *path = strdup("/tmp/sbx-test-profile-XXXXXX");
        int fd = mkstemp(path);

        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, json, strlen(json)), (ssize_t) strlen(json));
        close(fd);
        return path;
}

static void install_user_profile(const char *json) {
        char *path = write_profile(json);
        sbx_seccomp_opts opts = {.profile_path = path};

        install(&opts);
        unlink(path);
        free(path);
}

START_TEST(test_user_profile_cannot_reallow_always_on) {
        int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);

        /* The most permissive profile there is, naming the calls on purpose. */
        install_user_profile("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"bpf\","
                             "\"clone3\",\"keyctl\",\"mount\",\"unshare\"],\"action\":\"SCMP_ACT_ALLOW\"},"
                             "{\"names\":[\"chroot\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":33}]}");
        ASSERT_ERRNO(syscall(SYS_bpf, -1, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_keyctl, -1, 0, 0, 0, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_clone3, NULL, 0), ENOSYS);
        ASSERT_ERRNO(mount(NULL, (const char *) 1, NULL, 0, NULL), EPERM);
        ASSERT_ERRNO(unshare_newuser_bad_flag(), EPERM);
        ASSERT_ERRNO(ioctl(null_fd, TIOCSTI, "x"), EPERM);
        /* ... while the profile itself is in force: its own errno, and what
         * it allows (and the layer does not touch) works. */
        ASSERT_ERRNO(chroot(null_path), EDOM);
        ASSERT_ERRNO(unshare(0x80000000), EINVAL);
        /* newer than libseccomp, so the profile cannot name it: the layer's ENOSYS */
        ASSERT_ERRNO(syscall(NR_STATMOUNT, NULL, NULL, 0, ~0UL), ENOSYS);
}
END_TEST

/* The shape of Docker's own default profile (written for this test): other
 * hosts' archMap entries, 32-bit-only and other-arch names, caps-, arch- and
 * kernel-gated entries. */
#define DOCKER_STYLE_PROFILE(SUBARCHES)                                                                     \
        "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":1,\"archMap\":["                         \
        "{\"architecture\":\"SCMP_ARCH_X86_64\",\"subArchitectures\":" SUBARCHES "},"                       \
        "{\"architecture\":\"SCMP_ARCH_AARCH64\",\"subArchitectures\":[\"SCMP_ARCH_ARM\"]},"                \
        "{\"architecture\":\"SCMP_ARCH_RISCV64\",\"subArchitectures\":null}],\"syscalls\":["                \
        "{\"names\":[\"_llseek\",\"arch_prctl\",\"brk\",\"chown32\",\"close\",\"exit_group\",\"fstat\","    \
        "\"futex\",\"getpid\",\"ioctl\",\"lseek\",\"mmap\",\"mprotect\",\"munmap\",\"newfstatat\","         \
        "\"openat\","                                                                                       \
        "\"prctl\",\"read\",\"rt_sigaction\",\"rt_sigprocmask\",\"rt_sigreturn\",\"seccomp\","              \
        "\"socket\", \"socketcall\","                                                                       \
        "\"umount\",\"wait4\",\"write\",\"exit\",\"getppid\",\"gettid\",\"kill\",\"tgkill\",\"timer_"       \
        "create\","                                                                                         \
        "\"timer_settime\",\"timer_delete\",\"clock_gettime\",\"rt_sigtimedwait\",\"pipe2\",\"dup2\","      \
        "\"fcntl\","                                                                                        \
        "\"getrusage\",\"unlink\",\"close_range\",\"sysinfo\"],\"action\":\"SCMP_ACT_ALLOW\"},"             \
        "{\"names\":[\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"4.8\"}},"      \
        "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":2114060288," \
        "\"op\":\"SCMP_CMP_MASKED_EQ\"}],\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"],\"arches\":[\"s390\","  \
        "\"s390x\"]}},"                                                                                     \
        "{\"names\":[\"s390_pci_mmio_read\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"arches\":["      \
        "\"s390x\"]}},"                                                                                     \
        "{\"names\":[\"bpf\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_BPF\"]}},"        \
        "{\"names\":[\"chroot\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_SYS_CHROOT\"]" \
        "}}]}"

START_TEST(test_docker_style_profile_compiles_and_gates_entries) {
        sbx_seccomp_profile p;
        sbx_error err = {};
        const char *with_compat = DOCKER_STYLE_PROFILE("[\"SCMP_ARCH_X86\",\"SCMP_ARCH_X32\"]");

        /* Docker's archMap admits i386 and x32: refused unless opted in. */
        ck_assert_int_eq(parse(with_compat, 0, &p, &err), -EPERM);
        ck_assert_msg(strstr(err.msg, "archMap[0].subArchitectures[0]"), "%s", err.msg);
        ck_assert_msg(parse(with_compat, SBX_SECCOMP_PARSE_ALLOW_FOREIGN_ARCHES, &p, &err) == 0, "%s",
                      err.msg);
        sbx_seccomp_profile_done(&p);

        ck_assert_msg(sbx_seccomp_profile_load_embedded("default", &p, &err) == 0, "%s", err.msg);
        sbx_seccomp_profile_done(&p);

        /* Native only: enforce it. ptrace applies (minKernel 4.8), bpf and
         * chroot do not (they need capabilities sbx never grants). */
        ck_assert_int_eq(errno_in_child(chroot_null), EFAULT);
        install_user_profile(DOCKER_STYLE_PROFILE("[]"));
        ASSERT_ERRNO(ptrace(PTRACE_PEEKDATA, getppid(), NULL, NULL), ESRCH);
        ASSERT_ERRNO(chroot(null_path), EPERM);
        ASSERT_ERRNO(syscall(SYS_bpf, -1, NULL, 0), EPERM);
}
END_TEST

START_TEST(test_docker_style_profile_with_compat_arches_when_allowed) {
        char *path = write_profile(DOCKER_STYLE_PROFILE("[\"SCMP_ARCH_X86\",\"SCMP_ARCH_X32\"]"));
        sbx_seccomp_opts opts = {.profile_path = path, .allow_foreign_arches = true};
        sbx_bpf bpf = {};
        sbx_error err = {};
        int r;

        r = sbx_seccomp_compile(&opts, &bpf, &err);
        unlink(path);
        free(path);
        ck_assert_msg(r == 0, "%s", err.msg);
        ck_assert_uint_gt(bpf.len, 0);
        ck_assert_uint_gt(bpf.layer_len, 0);
        sbx_bpf_free(&bpf);
}
END_TEST

/* i386 syscall through int 0x80 from this 64-bit process (arguments are
 * truncated to 32 bits by the kernel). */
static long int80(long nr, long a, long b) {
        long ret;

        __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(0L) : "memory");
        return ret;
}
#define I386_NR_SOCKETCALL 102
#define X32_BIT 0x40000000L
#define I386_NR_SOCKET 359

START_TEST(test_compat_arches_cannot_bypass_network_denial) {
        char *path = write_profile(DOCKER_STYLE_PROFILE("[\"SCMP_ARCH_X86\"]"));
        sbx_seccomp_opts opts = {
                .profile_path = path, .allow_foreign_arches = true, .deny_inet_sockets = true};

        /* Before: socketcall with an unreadable (truncated) argument pointer
         * fails with EFAULT; i386 socket(AF_INET, SOCK_DGRAM) works. */
        ck_assert_int_eq(int80(I386_NR_SOCKETCALL, 1 /* SYS_SOCKET */, 8), -EFAULT);
        ck_assert_int_ge(int80(I386_NR_SOCKET, AF_INET, SOCK_DGRAM), 0);
        install(&opts);
        unlink(path);
        free(path);
        ck_assert_int_eq(int80(I386_NR_SOCKETCALL, 1 /* SYS_SOCKET */, 8), -EAFNOSUPPORT);
        ck_assert_int_eq(int80(I386_NR_SOCKET, AF_INET, SOCK_DGRAM), -EAFNOSUPPORT);
        ck_assert_int_eq(int80(I386_NR_SOCKET, AF_INET6, SOCK_DGRAM), -EAFNOSUPPORT);
        ck_assert_int_ge(int80(I386_NR_SOCKET, AF_UNIX, SOCK_DGRAM), 0);
}
END_TEST

/* Syscalls newer than libseccomp (which the profiles cannot name) under an
 * allow-by-default user profile: the layer answers ENOSYS, EPERM for the
 * mount-API successor open_tree_attr; known syscalls still pass. Each probe's
 * errno without the filter is a different one (the control). */
#define NR_OPEN_TREE_ATTR 467
#define NR_FILE_GETATTR 468
#define NR_FUTEX_REQUEUE 456
START_TEST(test_user_allow_profile_new_syscalls_enosys_open_tree_attr_eperm) {
        ASSERT_ERRNO(syscall(NR_OPEN_TREE_ATTR, -1, NULL, 0, NULL, 0), EFAULT);
        ASSERT_ERRNO(syscall(NR_FILE_GETATTR, -1, NULL, NULL, 0, 0), EINVAL);
        ck_assert_int_ne((errno = 0, syscall(NR_STATMOUNT, NULL, NULL, 0, ~0UL), errno), ENOSYS);
        install_user_profile("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[]}");
        ASSERT_ERRNO(syscall(NR_OPEN_TREE_ATTR, -1, NULL, 0, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(NR_FILE_GETATTR, -1, NULL, NULL, 0, 0), ENOSYS);
        ASSERT_ERRNO(syscall(NR_STATMOUNT, NULL, NULL, 0, ~0UL), ENOSYS);
        ASSERT_ERRNO(syscall(470), ENOSYS);
        ASSERT_ERRNO(syscall(1000), ENOSYS);
        /* the highest syscall libseccomp knows here still reaches the kernel */
        ASSERT_ERRNO(syscall(NR_FUTEX_REQUEUE, NULL, 0, 0, 0), EINVAL);
        ASSERT_ERRNO(read(-1, NULL, 0), EBADF);
        ASSERT_ERRNO(syscall(SYS_open_tree, -1, "", 0), EPERM);
}
END_TEST

/* Under the default profile nothing changes: its own prefix answers ENOSYS
 * first (the newer filter's errno wins), open_tree_attr included. */
START_TEST(test_default_new_syscalls_stay_enosys) {
        install_default();
        ASSERT_ERRNO(syscall(NR_OPEN_TREE_ATTR, -1, NULL, 0, NULL, 0), ENOSYS);
        ASSERT_ERRNO(syscall(NR_FILE_GETATTR, -1, NULL, NULL, 0, 0), ENOSYS);
        ASSERT_ERRNO(read(-1, NULL, 0), EBADF);
}
END_TEST

/* The same numbers through i386's int 0x80 and x32 when a profile admits
 * those ABIs (allow_foreign_arches): no way around the prefix. */
START_TEST(test_compat_arches_cannot_reach_new_syscalls) {
        char *path =
                write_profile("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":"
                              "[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X86\",\"SCMP_ARCH_X32\"],\"syscalls\":[]}");
        sbx_seccomp_opts opts = {.profile_path = path, .allow_foreign_arches = true};
        bool x32 = syscall(X32_BIT | SYS_getpid) == getpid();

        ck_assert_int_eq(int80(NR_OPEN_TREE_ATTR, -1, 0), -EFAULT);
        ck_assert_int_eq(int80(NR_FILE_GETATTR, -1, 0), -EINVAL);
        install(&opts);
        unlink(path);
        free(path);
        ck_assert_int_eq(int80(NR_OPEN_TREE_ATTR, -1, 0), -EPERM);
        ck_assert_int_eq(int80(NR_FILE_GETATTR, -1, 0), -ENOSYS);
        ck_assert_int_eq(int80(NR_STATMOUNT, 0, 0), -ENOSYS);
        ck_assert_int_eq(int80(1000, 0, 0), -ENOSYS);
        ck_assert_int_eq(int80(20 /* i386 getpid */, 0, 0), getpid());
        /* x32: seccomp sees the number before the kernel looks for an x32
         * table, so EPERM comes from the filter even on a kernel without
         * CONFIG_X86_X32_ABI (which answers ENOSYS to everything else). */
        ASSERT_ERRNO(syscall(X32_BIT | NR_OPEN_TREE_ATTR, -1, NULL, 0, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(X32_BIT | NR_FILE_GETATTR, -1, NULL, NULL, 0, 0), ENOSYS);
        ASSERT_ERRNO(syscall(X32_BIT | 600), ENOSYS);
        if (x32)
                ck_assert_int_eq(syscall(X32_BIT | SYS_getpid), getpid());
        else
                ASSERT_ERRNO(syscall(X32_BIT | SYS_getpid), ENOSYS);
}
END_TEST

/* The listing shows the layer's prefix: under an allow-by-default profile
 * open_tree_attr is the layer's EPERM and the numbers above libseccomp's
 * table its ENOSYS; under the default profile the base's own ENOSYS. */
static const sbx_seccomp_verdict *find_verdict(const sbx_seccomp_verdict *v, size_t n, const char *name) {
        for (size_t i = 0; i < n; i++)
                if (strcmp(v[i].name, name) == 0)
                        return &v[i];
        return NULL;
}

START_TEST(test_list_restricted_shows_new_syscalls) {
        char *path = write_profile("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[]}");
        sbx_seccomp_verdict *v = NULL;
        const sbx_seccomp_verdict *e;
        size_t n = 0;
        sbx_error err = {};

        ck_assert_msg(sbx_seccomp_list_restricted(&(sbx_seccomp_opts){.profile_path = path}, &v, &n, &err) ==
                              0,
                      "%s", err.msg);
        unlink(path);
        free(path);
        e = find_verdict(v, n, "open_tree_attr");
        ck_assert_ptr_nonnull(e);
        ck_assert(e->always_on && !e->conditional && e->nr == NR_OPEN_TREE_ATTR);
        ck_assert_uint_eq(e->action, SCMP_ACT_ERRNO(EPERM));
        e = find_verdict(v, n, "(any newer syscall)");
        ck_assert_ptr_nonnull(e);
        ck_assert(e->always_on && e->nr == NR_STATMOUNT);
        ck_assert_uint_eq(e->action, SCMP_ACT_ERRNO(ENOSYS));
        ck_assert_ptr_null(find_verdict(v, n, "futex_requeue"));
        free(v);

        ck_assert_msg(sbx_seccomp_list_restricted(&(sbx_seccomp_opts){}, &v, &n, &err) == 0, "%s", err.msg);
        e = find_verdict(v, n, "open_tree_attr");
        ck_assert_ptr_nonnull(e);
        ck_assert(!e->always_on);
        ck_assert_uint_eq(e->action, SCMP_ACT_ERRNO(ENOSYS));
        free(v);
}
END_TEST

START_TEST(test_user_profile_refusing_seccomp_still_gets_layer) {
        /* The layer is installed before the profile, so a profile that
         * refuses seccomp(2) cannot keep the layer out. */
        install_user_profile("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"seccomp\"],"
                             "\"action\":\"SCMP_ACT_ERRNO\"}]}");
        ASSERT_ERRNO(syscall(SYS_bpf, -1, NULL, 0), EPERM);
        ASSERT_ERRNO(syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL), EPERM);
}
END_TEST

/* The allow-list is usable: a shell pipeline with coreutils and a Python
 * subprocess run to completion under the default filters. */
START_TEST(test_default_runs_real_programs) {
        const char *script =
                "set -e; ls / | sort | head -n 3 >/dev/null; cat /proc/self/status | grep -q '^Seccomp:.2'; "
                "x=$(echo sub); test \"$x\" = sub; "
                "if command -v python3 >/dev/null; then python3 -c 'import subprocess, threading; "
                "threading.Thread(target=print).start(); subprocess.run([\"true\"], check=True)' "
                ">/dev/null; fi";
        sbx_bpf bpf = {};
        sbx_error err = {};
        int status;
        pid_t pid;

        ck_assert_msg(sbx_seccomp_compile(&(sbx_seccomp_opts){}, &bpf, &err) == 0, "%s", err.msg);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || sbx_seccomp_setup_child(&bpf) < 0)
                        _exit(125);
                execl("/bin/sh", "sh", "-c", script, (char *) NULL);
                _exit(127);
        }
        sbx_bpf_free(&bpf);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "script failed: status 0x%x", status);
}
END_TEST

/* Docker profiles name capabilities ("includes": {"caps": [...]}); sbx's own table must number
 * them as the kernel does, every one up to the last the headers know. */
START_TEST(test_cap_names_match_the_kernel_numbers) {
        ck_assert_int_eq(sbx_cap_from_name("CAP_CHOWN"), CAP_CHOWN);
        ck_assert_int_eq(sbx_cap_from_name("CAP_SYS_ADMIN"), CAP_SYS_ADMIN);
        ck_assert_int_eq(sbx_cap_from_name("cap_net_raw"), CAP_NET_RAW);
        ck_assert_int_eq(sbx_cap_from_name("CAP_BPF"), CAP_BPF);
        ck_assert_int_eq(sbx_cap_from_name("CAP_CHECKPOINT_RESTORE"), CAP_CHECKPOINT_RESTORE);
        ck_assert_int_eq(CAP_LAST_CAP, CAP_CHECKPOINT_RESTORE);
        ck_assert_int_eq(sbx_cap_from_name("CAP_NONSENSE"), -EINVAL);
        ck_assert_int_eq(sbx_cap_from_name("CHOWN"), -EINVAL);
        ck_assert_int_eq(sbx_cap_from_name(""), -EINVAL);
        ck_assert_int_eq(sbx_cap_from_name(NULL), -EINVAL);
}
END_TEST

static Suite *seccomp_suite(void) {
        Suite *s = suite_create("seccomp");
        TCase *tc;

        tc = unit_tcase(s, "lint", 0);
        tcase_add_test(tc, test_profiles_lint_sorted_unique_resolvable_with_reasons);
        tcase_add_test(tc, test_profiles_embedded_parse_strictly);
        tcase_add_test(tc, test_default_profile_refuses_docker_refusals_and_more);
        tcase_add_test(tc, test_precompiled_bpf_matches_runtime_compile);

        tc = unit_tcase(s, "compiler", 0);
        tcase_add_test(tc, test_compile_unknown_syscall_is_error_naming_it);
        tcase_add_test(tc, test_compile_bad_or_unsupported_action_is_error);
        tcase_add_test(tc, test_compile_foreign_arch_is_error_unless_allowed);
        tcase_add_test(tc, test_compile_rejects_malformed_json);
        tcase_add_test(tc, test_compile_evaluates_docker_includes_excludes);
        tcase_add_test(tc, test_compile_user_profile_file_errors_name_the_path);

        tc = unit_tcase(s, "enforce", 30);
        tcase_add_test(tc, test_default_refuses_kernel_surface_with_eperm);
        tcase_add_test(tc, test_default_refuses_namespaces_and_mounts);
        tcase_add_test(tc, test_default_clone3_gets_enosys_and_fork_still_works);
        tcase_add_test(tc, test_default_action_eperm_old_enosys_new);
        tcase_add_test(tc, test_default_allows_ordinary_calls_with_harmless_errors);
        tcase_add_test(tc, test_default_runs_real_programs);
        tcase_add_test_raise_signal(tc, test_x32_syscall_kills_process, SIGSYS);
        tcase_add_test(tc, test_tiocsti_and_tioclinux_refused_tcgets_allowed);
        tcase_add_test(tc, test_deny_inet_sockets_refuses_inet_allows_unix);
        tcase_add_test(tc, test_default_allows_inet_refuses_vsock);
        tcase_add_test(tc, test_user_profile_cannot_reallow_always_on);
        tcase_add_test(tc, test_user_profile_refusing_seccomp_still_gets_layer);
        tcase_add_test(tc, test_docker_style_profile_compiles_and_gates_entries);
        tcase_add_test(tc, test_docker_style_profile_with_compat_arches_when_allowed);
        tcase_add_test(tc, test_compat_arches_cannot_bypass_network_denial);
        tcase_add_test(tc, test_user_allow_profile_new_syscalls_enosys_open_tree_attr_eperm);
        tcase_add_test(tc, test_default_new_syscalls_stay_enosys);
        tcase_add_test(tc, test_compat_arches_cannot_reach_new_syscalls);
        tcase_add_test(tc, test_list_restricted_shows_new_syscalls);
        tcase_add_test(tc, test_cap_names_match_the_kernel_numbers);
        return s;
}

int main(void) {
        /* every test installs filters or forks: each runs in a process of its own, whatever
         * CK_FORK says */
        setenv("CK_FORK", "yes", 1);
        return unit_run(seccomp_suite(), CK_SILENT);
}

/* SPDX-License-Identifier: MIT */
/* Enum <-> name tables: an array of names indexed by the enum's values. */
#include <string.h>

#include "util.h"

int sbx_name_to_index(const char *const *names, size_t n, const char *s) {
        for (size_t i = 0; s && i < n; i++)
                if (names[i] && !strcmp(s, names[i]))
                        return (int) i;
        return -EINVAL;
}

const char *sbx_index_to_name(const char *const *names, size_t n, int i) {
        return i >= 0 && (size_t) i < n ? names[i] : NULL;
}

/* Indexed by capability number (linux/capability.h); a char array, so no relocation at start-up. */
static const char cap_names[][24] = {
        "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL",
        "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE",
        "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER", "CAP_SYS_MODULE",
        "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE", "CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT",
        "CAP_SYS_NICE", "CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD", "CAP_LEASE",
        "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP", "CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN",
        "CAP_SYSLOG", "CAP_WAKE_ALARM", "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
        "CAP_CHECKPOINT_RESTORE",
};

int sbx_cap_from_name(const char *name) {
        for (size_t i = 0; name && i < ELEMENTSOF(cap_names); i++)
                if (!strcasecmp(name, cap_names[i]))
                        return (int) i;
        return -EINVAL;
}

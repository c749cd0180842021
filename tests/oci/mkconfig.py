#!/usr/bin/env python3
"""usage: mkconfig.py BUNDLE 'PY-EXPR-STATEMENTS' -- write BUNDLE/config.json:
a minimal runtime-spec 1.2 config (busybox rootfs, proc/dev/devpts/shm/sys,
pid/ipc/uts/mount/network namespaces), then exec the statements with `c`
bound to it (e.g. "c['process']['args']=['id']")."""
import json, os, sys

bundle, stmts = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
caps = ["CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_CHOWN", "CAP_SETUID", "CAP_SETGID",
        "CAP_DAC_OVERRIDE", "CAP_FOWNER"]
c = {
    "ociVersion": "1.2.0",
    "process": {"terminal": False, "user": {"uid": 0, "gid": 0}, "args": ["true"],
                "env": ["PATH=/bin", "TERM=xterm"], "cwd": "/",
                "capabilities": {k: list(caps) for k in ("bounding", "effective", "permitted")},
                "rlimits": [{"type": "RLIMIT_NOFILE", "hard": 1024, "soft": 1024}],
                "noNewPrivileges": True},
    "root": {"path": os.environ.get("ROOTFS", "rootfs"), "readonly": True},
    "hostname": "oci-test",
    "mounts": [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
        {"destination": "/dev/pts", "type": "devpts", "source": "devpts", "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]},
        {"destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]},
        {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "mode=1777"]},
    ],
    "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")],
              "maskedPaths": ["/proc/kcore", "/proc/keys", "/proc/timer_list"],
              "readonlyPaths": ["/proc/sys", "/proc/sysrq-trigger"]},
}
exec(stmts)
json.dump(c, open(bundle + "/config.json", "w"), indent=1)

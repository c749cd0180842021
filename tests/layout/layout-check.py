#!/usr/bin/env python3
"""Layering check (ARCHITECTURE.md): prints TAP, fails when

 1. a folder includes a header of a folder on its own or a higher layer
    (same-layer folders are independent of each other);
 2. code outside a folder includes anything of it but its one public header;
 3. a folder's source tree has an include cycle between folders;
 4. a source folder is missing from the table below (a new folder must be
    given its layer here and a line in ARCHITECTURE.md);
 5. ARCHITECTURE.md does not name a folder of the table;
 6. ARCHITECTURE.md names a file or folder of the repository that does not
    exist (a path with a '/', or a source file's name: `foo.c`), or a folder
    of the repository (top level, runtime/*, tests/*) has no line there.

Tests (tests/) may include any header: unit tests reach internals on purpose.
"""
import os, re, sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# folder -> (layer, public header)
LAYERS = {
    "runtime/util": (0, "util.h"),
    "policy": (1, "policy.h"),
    "rootfs-tools": (1, "image.h"),
    "runtime/security": (1, "security.h"),
    "runtime/cgroup": (1, "cgroup.h"),
    "runtime/net": (1, "net.h"),
    "runtime/launch": (2, "launch.h"),
    "runtime/sandbox": (3, "sandbox.h"),
    "runtime/agent": (3, "agent.h"),
    "runtime/cli": (4, "cli.h"),
    "runtime/docker": (5, "docker.h"),
    "runtime/oci": (5, "oci.h"),
    "runtime": (6, None),            # main.c: the entry point
    "seccomp-profiles": (6, None),   # gen-bpf.c: a build-time tool over security/
}
# names in ARCHITECTURE.md that are no file of the source tree (rule 6)
NOT_IN_TREE = {
    "libexec/sbx/sbx",      # the installed full sbx (PREFIX/libexec/sbx/sbx)
    "openclaw.json",        # OpenClaw's config file, the user's
}
SOURCE_EXT = (".c", ".h", ".py", ".sh", ".mjs", ".json", ".md", ".build")
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    return os.path.dirname(os.path.relpath(path, TOP))


def resolve(inc, includer):
    d = os.path.dirname(includer)
    for base in (d, os.path.join(TOP, "runtime"), TOP):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(p):
            return p
    return None


def tree():
    """-> (files, folders) of the source tree, relative to TOP: git's list in a
    clone, else a walk that skips build trees and hidden folders but .ci."""
    import subprocess
    try:
        r = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, check=True)
        files = [f for f in r.stdout.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
    if not files:
        for dp, dns, fns in os.walk(TOP):
            dns[:] = [d for d in dns if (not d.startswith(".") or d == ".ci") and
                      not os.path.exists(os.path.join(dp, d, "meson-private"))]
            files += [os.path.relpath(os.path.join(dp, f), TOP) for f in fns]
    folders = set()
    for f in files:
        while "/" in f:
            f = f.rsplit("/", 1)[0]
            folders.add(f)
    return set(files), folders


def architecture_names(arch):
    """-> problems of rule 6: what ARCHITECTURE.md names that does not exist,
    the folders it does not name."""
    files, folders = tree()
    names = {os.path.basename(f) for f in files}
    problems = []
    for t in sorted(set(re.findall(r"`([^`\s]+)`", arch))):
        if t.startswith("/") or "<" in t or t.startswith("PREFIX") or t in NOT_IN_TREE:
            continue                    # a path in a sandbox or of an install
        if "/" in t:
            s = t.rstrip("/")
            if not any(c in files or c in folders for c in (s, "runtime/" + s)):
                problems.append(f"ARCHITECTURE.md names `{t}`: no such file or folder")
        elif t.endswith(SOURCE_EXT) and t not in names:
            problems.append(f"ARCHITECTURE.md names `{t}`: no file of that name in the tree")
    described = [d for d in folders if d.count("/") == 0 or
                 (d.count("/") == 1 and d.split("/")[0] in ("runtime", "tests"))]
    for d in sorted(described):
        if f"`{d}/" not in arch and f"`{d}`" not in arch:
            problems.append(f"{d}/: a folder of the repository without a line in ARCHITECTURE.md")
    return problems


def main():
    files = []
    for root in ("runtime", "policy", "rootfs-tools", "seccomp-profiles"):
        for dp, _, fns in os.walk(os.path.join(TOP, root)):
            files += [os.path.join(dp, f) for f in fns if f.endswith((".c", ".h"))]
    problems, edges = [], {}
    for f in sorted(files):
        src = folder_of(f)
        if src not in LAYERS:
            problems.append(f"{src}: a source folder without a layer in tests/layout/layout-check.py")
            continue
        for inc in INC.findall(open(f, encoding="utf-8", errors="replace").read()):
            p = resolve(inc, f)
            if p is None:
                continue  # generated (build-config.h, seccomp-*.c outputs)
            dst = folder_of(p)
            if dst == src or dst not in LAYERS:
                continue
            rel = os.path.relpath(f, TOP)
            if LAYERS[dst][0] >= LAYERS[src][0]:
                problems.append(f"{rel}: includes {os.path.relpath(p, TOP)} (layer {LAYERS[dst][0]} "
                                f"from layer {LAYERS[src][0]}: lower layers never include upper ones)")
            if os.path.basename(p) != LAYERS[dst][1]:
                problems.append(f"{rel}: includes {os.path.relpath(p, TOP)}, not {dst}/{LAYERS[dst][1]} "
                                f"(the folder's public header)")
            edges.setdefault(src, set()).add(dst)
    # cycles between folders (implied by rule 1, checked on its own all the same)
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in edges.get(n, ()):
            if state.get(m) == 1:
                problems.append("include cycle: " + " -> ".join(stack + [n, m]))
            elif m not in state:
                visit(m, stack + [n])
        state[n] = 2
    for n in list(edges):
        if n not in state:
            visit(n, [])
    arch = open(os.path.join(TOP, "ARCHITECTURE.md"), encoding="utf-8").read()
    unnamed = [d for d in LAYERS if d != "runtime" and f"`{d}/" not in arch]
    named = architecture_names(arch)
    print("1..4")
    print(f"ok 1 - {len(files)} source files in {len(LAYERS)} folders scanned")
    if problems:
        for p in problems:
            print("# " + p)
        print(f"not ok 2 - layering: {len(problems)} violation(s)")
        print("ok 3 - ARCHITECTURE.md names every folder" if not unnamed else
              f"not ok 3 - ARCHITECTURE.md names every folder: missing {', '.join(unnamed)}")
        for p in named:
            print("# " + p)
        print("ok 4 - ARCHITECTURE.md: every name exists, every folder described" if not named else
              f"not ok 4 - ARCHITECTURE.md: {len(named)} problem(s)")
        return 1
    print("ok 2 - layering: every include goes to a lower layer's public header; no cycle")
    print(f"not ok 3 - ARCHITECTURE.md names every folder: missing {', '.join(unnamed)}" if unnamed else
          "ok 3 - ARCHITECTURE.md names every folder")
    for p in named:
        print("# " + p)
    print(f"not ok 4 - ARCHITECTURE.md: {len(named)} problem(s): a name that does not exist or a folder "
          "without a line" if named else
          "ok 4 - ARCHITECTURE.md: every file and folder it names exists; every folder has a line")
    return 1 if unnamed or named else 0


if __name__ == "__main__":
    sys.exit(main())

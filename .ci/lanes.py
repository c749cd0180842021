#!/usr/bin/env python3
"""Run every test lane of sbx and end with one line `N passed, M failed`.

Lanes (run in this order; name some to run only those):
  unit                Check unit tests                                  build/
  integration         the real binary, as the caller (root in CI)       build/
  integration-unpriv  the same tests re-run as an unprivileged uid      build/
  conformance         ../shared/conformance through `sbx explain --json` build/
  escape              named escape regression tests, root + unpriv      build/
                      (two at a time; the host-wide ones alone)
  vm                  cgroup-v2 limits inside a throwaway QEMU guest    build/
  oci                 sbx-runc under podman, containerd, OCI checks     build/
  e2e                 the real OpenClaw driving sbx as `docker`, and    build/
                      through podman with sbx-runc as its runtime (two
                      tests at a time, each its own scratch OpenClaw)
  package             the .deb: built, installed in a clean root, used,     build/
                      purged (~40 s; first run ~2 min: debootstrap, cached)
  sanitizers          unit + integration + conformance, ASan+UBSan      build-asan/
                      (generated corpus: its manual cases + every 10th)
  fuzz                a short libFuzzer run of every parser (two at     build-fuzz/
                      a time)

Before the first lane that reads images (integration, integration-unpriv, e2e,
sanitizers) the default image openclaw-sandbox:bookworm-slim is built into the
default store with `build/sbx rootfs build` (root, ~145 s, once per machine),
so no test skips for want of it.

Counts are per TAP subtest where a test speaks TAP, else per test. A test that
exits 77 (or a TAP `# SKIP`) is a skip, printed with its reason.
"""
import json, os, re, subprocess, sys, time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANES = [
    ("unit", "build", [], ["unit"]),
    ("integration", "build", [], ["integration"]),
    ("integration-unpriv", "build", [], ["integration-unpriv"]),
    ("conformance", "build", [], ["conformance"]),
    ("escape", "build", [], ["escape"]),
    ("vm", "build", [], ["vm"]),
    ("oci", "build", [], ["oci"]),
    ("e2e", "build", [], ["e2e"]),
    ("package", "build", [], ["package"]),
    ("sanitizers", "build-asan",
     ["-Db_sanitize=address,undefined", "-Db_lundef=false", "-Dbuildtype=debug"],
     ["unit", "integration", "conformance"]),
    ("fuzz", "build-fuzz", ["-Dfuzz=true", "-Dbuildtype=debug"], ["fuzz"]),
]
# Lane settings that only save time (measured in .ci/README.md):
#   JOBS: meson test --num-processes for the lane (else meson's default, the
#         number of CPUs); only tests not marked is_parallel : false share it
#   ENV:  the sanitizers lane runs a fixed sample of the generated conformance
#         corpus (tests/conformance/run-conformance.sh prints which); the
#         conformance lane runs every case un-sanitized.
JOBS = {"escape": 2, "fuzz": 2, "e2e": 2}
ENV = {"sanitizers": {"SBX_CONFORMANCE_SAMPLE": "10"}}
TAP_RE = re.compile(r"^(not ok|ok)\b\s*(\d+)?\s*-?\s*(.*)$")


def setup(builddir, opts):
    bd = os.path.join(TOP, builddir)
    env = dict(os.environ)
    if builddir == "build-fuzz":
        env["CC"] = "clang"
    if not os.path.exists(os.path.join(bd, "build.ninja")):
        r = subprocess.run(["meson", "setup", bd] + opts, cwd=TOP, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            return r.stdout[-3000:]
    r = subprocess.run(["ninja", "-C", bd], cwd=TOP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return r.stdout[-3000:]
    return None


def count_test(t):
    """-> (passed, failed, skipped, [failure lines], [skip lines])"""
    p = f = s = 0
    fails, skips = [], []
    name = t.get("name", "?")
    res = t.get("result", "ERROR")
    taplines = 0
    for line in (t.get("stdout") or "").splitlines():
        m = TAP_RE.match(line.strip())
        if not m:
            continue
        taplines += 1
        desc = m.group(3)
        if "# SKIP" in desc.upper():
            s += 1
            skips.append(f"{name}: {desc}")
        elif m.group(1) == "ok":
            p += 1
        elif "# TODO" in desc.upper():
            s += 1
            skips.append(f"{name}: {desc}")
        else:
            f += 1
            fails.append(f"{name}: not ok {desc}")
    if taplines == 0:
        if res in ("OK", "EXPECTEDFAIL"):
            p += 1
        elif res == "SKIP":
            s += 1
            why = (t.get("stdout") or "").strip().splitlines()
            skips.append(f"{name}: {why[-1] if why else 'skipped'}")
        else:
            f += 1
            fails.append(f"{name}: {res}")
    elif res not in ("OK", "EXPECTEDFAIL", "SKIP") and f == 0:
        f += 1
        fails.append(f"{name}: {res} (exit status / bail out)")
    return p, f, s, fails, skips


def run_lane(name, builddir, opts, suites):
    print(f"\n===== lane {name} =====", flush=True)
    t0 = time.time()
    err = setup(builddir, opts)
    if err:
        print(err)
        print(f"lane {name}: BUILD FAILED")
        return 0, 1, 0
    bd = os.path.join(TOP, builddir)
    logfile = os.path.join(bd, "meson-logs", "testlog.json")
    P = F = S = 0
    for suite in suites:
        if os.path.exists(logfile):
            os.unlink(logfile)
        cmd = ["meson", "test", "-C", bd, "--suite", suite, "--print-errorlogs",
               "--no-rebuild"] + (["--num-processes", str(JOBS[name])] if name in JOBS else [])
        r = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=dict(os.environ, **ENV.get(name, {})))
        out = r.stdout
        if not os.path.exists(logfile) or os.path.getsize(logfile) == 0:
            if "No suitable tests" in out or "No tests defined" in out:
                print(f"lane {name}/{suite}: no tests registered")
                continue
            print(out[-3000:])
            F += 1
            continue
        for line in open(logfile):
            t = json.loads(line)
            p, f, s, fails, skips = count_test(t)
            P, F, S = P + p, F + f, S + s
            print(f"  {t.get('result','?'):5} {t.get('name')}  ({p} passed, {f} failed, {s} skipped, {t.get('duration', 0):.1f}s)")
            for x in (t.get("stdout") or "").splitlines():
                if x.startswith("# sample:"):
                    print("    " + x[2:])
            for x in fails:
                print(f"    FAIL {x}")
            for x in skips:
                print(f"    SKIP {x}")
            if f:
                lines = (t.get("stdout") or "").splitlines()
                # each failed check with the diagnostics it printed (got/want)
                for i, x in enumerate(lines):
                    if x.startswith("not ok"):
                        print("    > " + x)
                        for y in lines[i + 1:i + 13]:
                            if not y.startswith("#"):
                                break
                            print("    > " + y)
                print("    --- output tail ---")
                for x in lines[-40:]:
                    print("    | " + x)
    print(f"lane {name}: {P} passed, {F} failed, {S} skipped ({time.time()-t0:.0f}s)", flush=True)
    return P, F, S


# The image the tests of these lanes run in (run-image, rootfs-build, docker-shim,
# e2e): made before the first lane, once per machine (the default store keeps it).
IMAGE = "openclaw-sandbox:bookworm-slim"
IMAGE_LANES = {"integration", "integration-unpriv", "e2e", "sanitizers"}


def prepare_images(lanes):
    """-> None when the images are there (or were built), else the reason."""
    if not IMAGE_LANES & set(lanes):
        return None
    print(f"\n===== prepare: image {IMAGE} =====", flush=True)
    err = setup("build", [])
    if err:
        return "build/ does not build:\n" + err
    sbx = os.path.join(TOP, "build", "sbx")
    if subprocess.run([sbx, "rootfs", "inspect", IMAGE], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        print(f"prepare: {IMAGE} present")
        return None
    if os.geteuid() != 0:
        print(f"prepare: {IMAGE} not built: `sbx rootfs build` needs root (its tests say so)")
        return None
    t0 = time.time()
    r = subprocess.run([sbx, "rootfs", "build"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return f"`sbx rootfs build` ({IMAGE}) failed:\n" + r.stdout[-3000:]
    print(f"prepare: built {IMAGE} ({time.time()-t0:.0f}s)", flush=True)
    return None


def main():
    want = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return 0
    names = [l[0] for l in LANES]
    for a in sys.argv[1:]:
        if a.startswith("-") or a not in names:
            print(f"lanes.py: unknown {'option' if a.startswith('-') else 'lane'} '{a}' "
                  f"(lanes: {', '.join(names)}; see --help)", file=sys.stderr)
            return 2
    P = F = S = 0
    summary = []
    err = prepare_images([l[0] for l in LANES if not want or l[0] in want])
    if err:
        print(err)
        F += 1
        summary.append(f"{'prepare':20} {0:5} passed {1:4} failed {0:4} skipped")
    for lane in LANES:
        if want and lane[0] not in want:
            continue
        p, f, s = run_lane(*lane)
        P, F, S = P + p, F + f, S + s
        summary.append(f"{lane[0]:20} {p:5} passed {f:4} failed {s:4} skipped")
    print("\n===== summary =====")
    for x in summary:
        print(x)
    print(f"{P} passed, {F} failed, {S} skipped")
    return 0 if F == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

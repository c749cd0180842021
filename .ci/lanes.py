#!/usr/bin/env python3
"""Run every test lane of sbx and end with one line `N passed, M failed, K skipped`.

Lanes (run in this order; name some to run only those):
  unit                Check unit tests                                  build/
  integration         the real binary, as the caller (root in CI)       build/
  integration-unpriv  the same tests re-run as an unprivileged uid      build/
  conformance         OpenClaw's recorded answers (tests/conformance/   build/
                      corpus/, or ../shared/conformance beside the
                      clone) through `sbx explain --json`
  escape              named escape regression tests, root + unpriv      build/
                      (two at a time; the host-wide ones alone)
  vm                  cgroup-v2 limits inside a throwaway QEMU guest    build/
  oci                 sbx-runc under podman, containerd, OCI checks     build/
  e2e                 the real OpenClaw driving sbx as `docker`, and    build/
                      through podman with sbx-runc as its runtime (two
                      tests at a time, each its own scratch OpenClaw)
  package             the .deb: built, installed in a clean root, used, build/
                      purged (~40 s; first run ~2 min: debootstrap, cached)
  sanitizers          unit + integration + conformance, two oci tests;  build-asan/
                      ASan+UBSan (the generated conformance corpus: its
                      manual cases + every 10th)
  fuzz                a short libFuzzer run of every parser (two at     build-fuzz/
                      a time); prints each target's executions, fails
                      one that fuzzed < FUZZ_MIN inputs past its seeds

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
     ["unit", "integration", "conformance", "oci/oci-conformance", "oci/oci-escape16"]),
    ("fuzz", "build-fuzz", ["-Dfuzz=true", "-Dbuildtype=debug"], ["fuzz"]),
]
# Lane settings that only save time (measured in .ci/README.md):
#   JOBS: meson test --num-processes for the lane (else meson's default, the
#         number of CPUs); only tests not marked is_parallel : false share it
#   ENV:  the sanitizers lane runs a fixed sample of the generated conformance
#         corpus (tests/conformance/run-conformance.sh prints which); the
#         conformance lane runs every case un-sanitized. The package lane's
#         clean Debian root (debootstrap, never written after it is made) is
#         kept once per machine, like the image, not once per build/.
#   BACKGROUND: tests of the lane run one after another in a second `meson test`
#         (log meson-logs/testlog-bg.json) beside the lane's suites, from the
#         lane's start, and are left out of the suites' runs. Only tests that
#         look at nothing host-wide (their own store, HOME, state root) and that
#         the others' checks cannot see: as root the second run has a private
#         mount namespace (debootstrap's /proc and /sys mounts in the chroot
#         would change the caller's mount count that run-basic, run-isolation,
#         sandbox-lifecycle and sandbox-crash check).
JOBS = {"escape": 2, "fuzz": 2, "e2e": 2}
ENV = {"sanitizers": {"SBX_CONFORMANCE_SAMPLE": "10"},
       "package": {"SBX_PACKAGE_CACHE": "/var/cache/sbx-ci"}}
#         Entries: "SUITE/TEST" (one test) or "SUITE" (every test of it); a test name is
#         only unique within its suite (unit and integration both have exec-policy).
#         cli-help and cli-docs (session 15) run sbx's parsers, --help, gendoc, the
#         completion and a meson install into a DESTDIR, each with its own HOME, state
#         root and sandboxes (the sandbox tests count only their own pid namespace's
#         inits; sandbox-keys only keyrings by serial).
BACKGROUND = {
    "integration": ["integration/rootfs-build", "integration/cli-help", "integration/cli-docs"],
    "sanitizers": ["integration/rootfs-build", "conformance", "unit"],
}


def suite_tests(bd, suite):
    """-> the names of a suite's tests in meson's order ([] if meson cannot list them)"""
    r = subprocess.run(["meson", "test", "-C", bd, "--suite", suite, "--list", "--no-rebuild"],
                       cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return [x.rsplit(" / ", 1)[1] for x in r.stdout.splitlines() if " / " in x] if r.returncode == 0 else []
TAP_RE = re.compile(r"^(not ok|ok)\b\s*(\d+)?\s*-?\s*(.*)$")
# fuzz lane: libFuzzer's "#N INITED" (the seeds and scratch corpus loaded) and "Done N runs";
# a target that ran fewer than FUZZ_MIN new inputs past its seeds fuzzed nothing: a failure
# (fuzz-config spent its 20 s on its 60 seeds until session 14: 1-3 s per input). Low
# enough for a loaded machine: fuzz-archive, the slowest, did 329 at load ~60.
FUZZ_MIN = 100
INITED_RE = re.compile(r"^#(\d+)\s+INITED\b", re.M)
DONE_RE = re.compile(r"^Done (\d+) runs in (\d+) second", re.M)


def fuzz_runs(t):
    """-> (line to print, failure or None) for a fuzz target's test record."""
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    ini, done = INITED_RE.findall(out), DONE_RE.findall(out)
    if not done or not ini:
        return "executions: none reported", "no libFuzzer 'INITED' / 'Done N runs' line"
    runs, secs, seeds = int(done[-1][0]), int(done[-1][1]), int(ini[-1])
    line = f"executions: {runs} in {secs}s, {runs - seeds} past the {seeds} loaded inputs"
    if runs - seeds < FUZZ_MIN:
        return line, f"fuzzed {runs - seeds} inputs past its seeds (< {FUZZ_MIN}): it fuzzed (nearly) nothing"
    return line, None


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
    env = dict(os.environ, **ENV.get(name, {}))
    bg = BACKGROUND.get(name, [])
    bgproc = None
    if bg:
        # one meson test per entry, one after another, each with its own log
        script = "; ".join(
            f'meson test -C "$0" --print-errorlogs --no-rebuild --num-processes 1 '
            f'--logbase testlog-bg{i} --suite {x.split("/")[0]} {x.split("/")[1] if "/" in x else ""}'
            for i, x in enumerate(bg))
        for i in range(len(bg)):
            f = os.path.join(bd, "meson-logs", f"testlog-bg{i}.json")
            if os.path.exists(f):
                os.unlink(f)
        cmd = ["bash", "-c", script, bd]
        if os.geteuid() == 0:
            cmd = ["unshare", "--mount", "--propagation", "private", "--"] + cmd
        # without the caller's XDG_RUNTIME_DIR each shell test takes a state root
        # of its own ($TMP/xdg, tests/integration/lib.sh): the suites' "no run dir
        # left" checks never see a background run's
        bgenv = {k: v for k, v in env.items() if k != "XDG_RUNTIME_DIR"}
        bgproc = subprocess.Popen(cmd, cwd=TOP, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=bgenv)
    P = F = S = 0

    def report(logf, out, what):
        nonlocal P, F, S
        if not os.path.exists(logf) or os.path.getsize(logf) == 0:
            if "No suitable tests" in out or "No tests defined" in out:
                print(f"lane {name}/{what}: no tests registered")
                return
            print(out[-3000:])
            F += 1
            return
        for line in open(logf):
            t = json.loads(line)
            p, f, s, fails, skips = count_test(t)
            fuzzline = None
            if name == "fuzz" and t.get("result") == "OK":
                fuzzline, why = fuzz_runs(t)
                if why:
                    p, f = p - 1, f + 1
                    fails.append(f"{t.get('name')}: {why}")
            P, F, S = P + p, F + f, S + s
            print(f"  {t.get('result','?'):5} {t.get('name')}  ({p} passed, {f} failed, {s} skipped, {t.get('duration', 0):.1f}s)")
            for x in (t.get("stdout") or "").splitlines():
                if x.startswith("# sample:"):
                    print("    " + x[2:])
            if fuzzline:
                print("    " + fuzzline)
            for x in fails:
                print(f"    FAIL {x}")
            for x in skips:
                print(f"    SKIP {x}")
            if f:
                lines = ((t.get("stdout") or "") + (t.get("stderr") or "")).splitlines()
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

    for entry in suites:
        # "SUITE" (every test of it) or "SUITE/TEST" (one test of another lane's
        # suite, e.g. an oci test under the sanitizers)
        suite, _, test = entry.partition("/")
        if os.path.exists(logfile):
            os.unlink(logfile)
        cmd = ["meson", "test", "-C", bd, "--suite", suite, "--print-errorlogs",
               "--no-rebuild"] + (["--num-processes", str(JOBS[name])] if name in JOBS else [])
        if test:
            cmd.append(test)
        elif bg:
            # the suite's tests in meson's order, without the background ones
            if suite in bg:
                continue
            skip = [x.split("/")[1] for x in bg if x.startswith(suite + "/")]
            names = suite_tests(bd, suite) if skip else []
            if names:     # else the whole suite (nothing left out)
                cmd += [x for x in names if x not in skip]
        r = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env)
        report(logfile, r.stdout, entry)
    if bgproc:
        out = bgproc.communicate()[0]
        print(f"  (background, beside the suites: {', '.join(bg)})")
        for i, x in enumerate(bg):
            report(os.path.join(bd, "meson-logs", f"testlog-bg{i}.json"), out, x)
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

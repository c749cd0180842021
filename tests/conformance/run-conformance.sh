#!/usr/bin/env bash
# TAP wrapper around ../shared/conformance/check.sh: one test line per case id.
#   run-conformance.sh [--extra] [CASES.jsonl]
# Needs $SBX (the built binary) and $SBX_SOURCE_ROOT; the corpus lives in
# $SBX_SOURCE_ROOT/../shared/conformance (CI keeps shared/ beside the clone).
# CASES names another corpus file of tests/conformance/corpus/ (the generated one,
# answers of the real OpenClaw for configs from tests/conformance/gen/).
set -u
extra=()
[ "${1:-}" = "--extra" ] && { extra=(--extra); shift; }
# The corpus and checker from ../shared/conformance when it sits beside the
# clone (CI), else the project's own copy in tests/conformance/corpus/.
dir="${SBX_CONFORMANCE_DIR:-${SBX_SOURCE_ROOT:-.}/../shared/conformance}"
[ -f "$dir/openclaw-2026.9.6.jsonl" ] || dir="${SBX_SOURCE_ROOT:-.}/tests/conformance/corpus"
cases="$dir/openclaw-2026.9.6.jsonl"
if [ -n "${1:-}" ]; then
        dir="${SBX_SOURCE_ROOT:-.}/tests/conformance/corpus"
        cases="$dir/$1"
fi
if [ ! -f "$cases" ] || [ ! -f "$dir/check.sh" ]; then
        echo "1..0 # SKIP conformance corpus not found at $dir (shared/ must sit beside the clone)"
        exit 0
fi
if ! command -v python3 >/dev/null; then
        echo "1..0 # SKIP python3 (needed by check.sh) is not installed"
        exit 0
fi
tmp="$(mktemp)"
sample="$(mktemp)"
trap 'rm -f "$tmp" "$sample"' EXIT
# SBX_CONFORMANCE_SAMPLE=N (set by the sanitizers lane, .ci/lanes.py): of a
# CASES file (the generated corpus) only a fixed sample runs: every case of
# category "manual" (hand-written) and, of each other category, its 1st,
# (N+1)th, (2N+1)th ... case in file order. The conformance lane runs them all.
if [ -n "${1:-}" ] && [ -n "${SBX_CONFORMANCE_SAMPLE:-}" ]; then
        python3 - "$cases" "$SBX_CONFORMANCE_SAMPLE" "$sample" <<'PY' || exit 1
import json, sys
cases, n, out = sys.argv[1], sys.argv[2], sys.argv[3]
if not n.isdigit() or int(n) < 1:
    print(f"Bail out! SBX_CONFORMANCE_SAMPLE={n!r}: want a whole number >= 1")
    sys.exit(1)
n, seen, total, kept = int(n), {}, 0, []
for line in open(cases, encoding="utf-8"):
    if not line.strip():
        continue
    total += 1
    cat = json.loads(line).get("category", "")
    k = seen[cat] = seen.get(cat, -1) + 1
    if cat == "manual" or k % n == 0:
        kept.append(line)
open(out, "w", encoding="utf-8").writelines(kept)
print(f"# sample: {len(kept)} of {total} cases (SBX_CONFORMANCE_SAMPLE={n}: every 'manual' "
      f"case, every {n}th of each other category; the conformance lane runs all)")
PY
        cases="$sample"
fi
# check.sh wipes and refills the fixed HOME /tmp/sbx-conf-home for every case
# (the recorded answers embed that path and hashes of it). As root each run
# gets its own view of it: a private mount namespace where /tmp is an overlay
# (lower: the real /tmp, read; upper: a tmpfs on /mnt of that namespace, gone
# with it), so two runs at once (this suite's tests, the sanitizers lane,
# another clone) never touch each other's HOME, and nothing is left behind.
# Elsewhere, or where that mount is refused, runs take turns on the real one
# (flock on /tmp/sbx-conf-home.lock).
private_tmp='mount -t tmpfs -o mode=0700 sbx-conf /mnt && mkdir /mnt/up /mnt/work &&
        mount -t overlay sbx-conf -o lowerdir=/tmp,upperdir=/mnt/up,workdir=/mnt/work /tmp || exit 125
        exec "$@"'
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
        unshare -m --propagation private sh -c "$private_tmp" sh true 2>/dev/null; then
        unshare -m --propagation private sh -c "$private_tmp" sh \
                bash "$dir/check.sh" "$SBX" "$cases" "${extra[@]}" >"$tmp" 2>&1
else
        flock /tmp/sbx-conf-home.lock bash "$dir/check.sh" "$SBX" "$cases" "${extra[@]}" >"$tmp" 2>&1
fi
python3 - "$cases" "$tmp" "${extra[*]:-plain}" <<'PY'
import json, re, sys
cases, outfile, mode = sys.argv[1], sys.argv[2], sys.argv[3]
out = open(outfile, encoding="utf-8", errors="replace").read()
fails = {}
for line in out.splitlines():
    m = re.match(r"^FAIL (\S+) (.*)$", line)
    if m:
        fails.setdefault(m.group(1), m.group(2))
ids = [json.loads(l)["id"] for l in open(cases) if l.strip()]
summary = [l for l in out.splitlines() if re.match(r"^\d+ passed, \d+ failed$", l)]
if not summary:
    last = out.strip().splitlines()[-1] if out.strip() else "no output"
    print("Bail out! check.sh did not finish: " + last)
    sys.exit(1)
print(f"1..{len(ids)}")
for n, cid in enumerate(ids, 1):
    if cid in fails:
        print(f"not ok {n} - {cid} ({mode}): {fails[cid]}")
    else:
        print(f"ok {n} - {cid} ({mode})")
print("# " + summary[-1])
PY

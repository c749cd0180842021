#!/usr/bin/env python3
"""wording.py SBX CASES.jsonl... : how often sbx's first issue is OpenClaw's first issue, word for word,
for the refused cases (expect.error with issues), grouped by cause. Run it on a private /tmp as root:
  unshare -m --propagation private sh -c 'mount -t tmpfs tmpfs /tmp && python3 wording.py SBX CASES'
Prints the totals, then the groups (OpenClaw's first issue's path with indices/keys folded, and
whether sbx named another path or the same path in other words), largest first, with an example."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HOME = "/tmp/sbx-conf-home"
sbx, files = sys.argv[1], sys.argv[2:]
env = {"HOME": HOME, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "TZ": "UTC"}
tot = same = 0
groups = collections.Counter()
ex = {}
ids = collections.defaultdict(list)
cfgdir = tempfile.mkdtemp(prefix="sbx-wording-")


def fold(path):
    return re.sub(r"\.\d+|\[\d+\]|\[\"[^\]]*\"\]", ".*", path)


for f in files:
    for line in open(f, encoding="utf-8"):
        c = json.loads(line)
        e = c["expect"]
        if not e.get("error") or not e.get("issues"):
            continue
        shutil.rmtree(HOME, ignore_errors=True)
        os.makedirs(HOME)
        d = os.path.join(cfgdir, "c")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        p = os.path.join(d, "openclaw.json")
        with open(p, "w", encoding="utf-8", newline="") as fh:
            fh.write(c["config_text"])
        for rel, text in (c.get("files") or {}).items():
            q = os.path.join(d, rel)
            os.makedirs(os.path.dirname(q), exist_ok=True)
            with open(q, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        argv = [sbx, "explain", "--config", p]
        if c.get("agent") is not None:
            argv += ["--agent", c["agent"]]
        if c.get("session") is not None:
            argv += ["--session", c["session"]]
        if c.get("subagent"):
            argv.append("--subagent")
        argv.append("--json")
        r = subprocess.run(argv, capture_output=True, cwd=HOME, env=env, stdin=subprocess.DEVNULL)
        try:
            got = json.loads(r.stdout.decode("utf-8", "replace"))
        except Exception:
            got = {}
        gi = (got.get("issues") or [""])[0] if isinstance(got, dict) else ""
        want = e["issues"][0]
        tot += 1
        if gi == want:
            same += 1
            continue
        wp, gp = want.split(": ", 1)[0], gi.split(": ", 1)[0]
        k = f"{fold(wp)[:70]} | {'same path' if wp == gp else 'other path' if gi else 'no issue (' + str(got.get('code') if isinstance(got, dict) else '?') + ')'}"
        groups[k] += 1
        ids[k].append(c["id"])
        ex.setdefault(k, (c["id"], want[:200], gi[:200]))
shutil.rmtree(cfgdir, ignore_errors=True)
print(f"{same}/{tot} refusals: sbx's first issue is OpenClaw's first issue word for word; {tot - same} differ")
for k, v in groups.most_common(int(os.environ.get("TOP", "40"))):
    print(f"{v:5d} {k}\n      {ex[k][0]}\n      OC : {ex[k][1]}\n      sbx: {ex[k][2]}")
if os.environ.get("IDS"):
    json.dump(ids, open(os.environ["IDS"], "w"))

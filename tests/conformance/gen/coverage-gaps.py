#!/usr/bin/env python3
"""coverage-gaps.py COVDIR DIST [FILE_REGEX]: the branches of OpenClaw's dist/ a corpus never took.
COVDIR holds node's V8 coverage of an oracle-batch.sh run (ORACLE_COVERAGE=COVDIR); DIST is the
openclaw package's dist/. For every dist file matching FILE_REGEX (default: the files of the
resolution oracle-batch.mjs asks and of config loading), prints each function that ran and the
blocks inside it that never did (count 0), as file:line and the block's first source line; then
the functions of those files that never ran. Block coverage is V8's (NODE_V8_COVERAGE)."""
import json, os, re, sys
cov, dist = sys.argv[1], sys.argv[2]
rx = re.compile(sys.argv[3] if len(sys.argv) > 3 else
                r"^(io\.|agent-id-|agent-scope|main-session-|session-key|runtime-status-|config-|tool-policy|shared-|backend-|"
                r"fs-paths-|conversation-|agent-tools\.policy-|tool-catalog-|sandbox|includes?-|env-|legacy|migrat|validation|"
                r"zod-schema|schema|paths-|defaults-|group-policy|channel-config|exact-hostname)")
merged = {}  # file -> {(start,end): count} of blocks, function ranges first
for f in os.listdir(cov):
    if not f.endswith(".json"):
        continue
    for script in json.load(open(os.path.join(cov, f)))["result"]:
        url = script["url"]
        if "/openclaw/dist/" not in url:
            continue
        name = url.split("/openclaw/dist/", 1)[1]
        if not rx.search(name.rsplit("/", 1)[-1]):
            continue
        m = merged.setdefault(name, {})
        for fn in script["functions"]:
            for i, r in enumerate(fn["ranges"]):
                key = (r["startOffset"], r["endOffset"], fn["functionName"] if i == 0 else None)
                m[key] = m.get(key, 0) + r["count"]
for name in sorted(merged):
    text = open(os.path.join(dist, name), encoding="utf-8").read()
    line = lambda off: text.count("\n", 0, off) + 1
    blocks = merged[name]
    funcs = sorted(k for k in blocks if k[2] is not None and k[1] - k[0] < len(text) - 1)
    dead_fn = [k for k in funcs if blocks[k] == 0]
    out = []
    for fs, fe, fname in funcs:
        if blocks[(fs, fe, fname)] == 0:
            continue
        for (s, e, nm) in sorted(blocks):
            if nm is None and fs <= s and e <= fe and blocks[(s, e, nm)] == 0:
                src = text[s:e].strip().split("\n")[0][:110]
                out.append(f"  {name}:{line(s)} in {fname or '(anonymous)'}: {src}")
    if out or dead_fn:
        print(f"== {name}: {len(funcs) - len(dead_fn)} of {len(funcs)} functions ran")
        print("\n".join(sorted(set(out), key=lambda l: int(l.split(':')[1].split()[0]))))
        for s, e, fname in dead_fn:
            print(f"  {name}:{line(s)} never ran: {fname or '(anonymous)'}")

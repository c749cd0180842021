#!/usr/bin/env python3
"""merge.py CASES.jsonl ANSWERS.jsonl > corpus.jsonl
Joins generated cases with oracle-batch.sh answers into the corpus line format
(../corpus/openclaw-2026.9.6.jsonl); cases the oracle crashed on are left out."""
import json, sys
ans = {}
for l in open(sys.argv[2]):
    if l.strip():
        a = json.loads(l); ans[a["id"]] = a
for l in open(sys.argv[1]):
    if not l.strip():
        continue
    c = json.loads(l)
    a = ans.get(c["id"])
    if not a or a["expect"].get("code") == "ORACLE_CRASH":
        continue
    c["expect"], c["expect_extra"], c["info"] = a["expect"], a["expect_extra"], a["info"]
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:  # a lone surrogate (a JSON5 "\ud83d" escape) stays escaped
        print(json.dumps(c))

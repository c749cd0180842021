"""doc-cases.py BLOCKS.jsonl > cases.jsonl: conformance cases from doc-blocks.mjs output: each block
as written, and for blocks about sandbox/tools/agents a group key, the main session (sometimes as a
subagent) and a direct key for up to three of its agent ids."""
import json, sys, random
import re
rng = random.Random(7)
out = []
for i, l in enumerate(open(sys.argv[1])):
    b = json.loads(l)
    t = b["text"]
    ids = re.findall(r'\bid\s*:\s*"([^"]+)"', t) + re.findall(r'"id"\s*:\s*"([^"]+)"', t)
    m = re.search(r'entries\s*"?\s*:\s*\{', t)
    rich = bool(re.search(r'sandbox|tools|agents', t))
    base = {"category": "doc-examples", "origin": f"docs/{b['file']}#{b['n']}", "syntax": "json5", "config_text": t}
    cases = [(None, None, False)]
    if rich:
        for a in (ids[:3] or ["main"]):
            cases.append((a, f"agent:{a}:whatsapp:group:120363@g.us", False))
            cases.append((a, None, rng.random() < 0.5))
            cases.append((a, f"agent:{a}:telegram:direct:12345", False))
    for j, (a, s, sub) in enumerate(cases):
        out.append(dict(id=f"d{i:04d}{j:02d}", agent=a, session=s, subagent=sub, **base))
for c in out:
    print(json.dumps(c, ensure_ascii=False))

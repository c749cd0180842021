#!/usr/bin/env python3
"""gen-neighbours.py CORPUS.jsonl SEED PER_CASE > cases.jsonl
The corpus configs with other agents, session keys and the subagent flag: the
held-out cases are of the same kinds, often the same config asked another way."""
import json, random, re, sys

SESSIONS = [None, "main", "home", "global", "agent:{a}:main", "agent:{a}:whatsapp:group:123@g.us",
            "agent:{a}:telegram:dm:42", "agent:{a}:telegram:group:-100123", "agent:{a}:telegram:group:-100123:topic:5",
            "agent:{a}:discord:channel:1", "agent:{a}:slack:channel:C01:thread:1700000000.1",
            "agent:{a}:cron:job1", "cron:job1", "hook:gmail:msg-1", "agent:{a}:subagent:abc",
            "agent:{a}:subagent:a:subagent:b", "subagent:x", "agent:{A}:Main", "agent:{a}:main:thread:9",
            "agent:{a}:feishu:group:oc_group_chat:topic:om_topic_root:sender:ou_topic_user",
            " agent:{a}:main ", "agent:{a}:acp:1", "agent:{a}:direct:+1555", "agent:{a}:whatsapp:group:555@g.us"]

def agents_of(text):
    ids = set(re.findall(r'"id"\s*:\s*"([^"]+)"', text))
    m = re.search(r'"entries"\s*:\s*\{', text)
    ids |= set(re.findall(r'"([A-Za-z0-9_-]+)"\s*:\s*\{\s*(?:"(?:sandbox|workspace|tools|name|agentDir|default)")', text))
    ids |= {"main"}
    return sorted(ids)

rng = random.Random(int(sys.argv[2]))
per = int(sys.argv[3])
n = 0
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c["expect"].get("error") and c["expect"].get("code") in ("INVALID_CONFIG", "JSON5_PARSE"):
        continue
    ids = agents_of(c["config_text"])
    for _ in range(per):
        a = rng.choice(ids)
        agent = rng.choice([None, a, a, c.get("agent")])
        s = rng.choice(SESSIONS)
        if s is not None:
            s = s.replace("{a}", a).replace("{A}", a.upper())
        n += 1
        print(json.dumps({"id": f"n{n:05d}", "category": c["category"], "origin": "neighbour of " + c["id"],
                          "syntax": c["syntax"], "config_text": c["config_text"], "agent": agent,
                          "session": s, "subagent": rng.random() < 0.25,
                          **({"files": c["files"]} if c.get("files") else {})}, ensure_ascii=False))

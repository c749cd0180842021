#!/usr/bin/env python3
"""gen-mainkey.py SEED COUNT > cases.jsonl

Which session is the main one (sandbox mode "non-main"): session.mainKey (case, padding,
odd characters), session.scope (global or not), the roster (main or not first, default
markers), asked with main aliases: "main", the mainKey, agent:<id>:main,
agent:<id>:<mainKey>, agent:main:<mainKey> of another agent, keys that only end in the
mainKey, with case and white space changed, as the agent, another agent or no --agent.
canonicalizeMainSessionAlias + resolveMainSessionKeyForSandbox decide; sbx must agree.
"""
import json
import random
import sys

MAINKEYS = [None, "main", "Main", "MAIN", " main ", "home", "Home", " home", "work", "x:y", "a b", "ü", "main:thread",
            "", "  ", "global", "agent", "sub:agent", "HOME ", "k-1", "k.1", "日本"]
IDS = [["main"], ["main", "work"], ["work", "main"], ["work"], ["ops", "work"], ["Main", "work"], ["home", "main"]]


def roster(ids):
    shape = rng.choice(["list", "entries", "none"]) if ids == ["main"] else rng.choice(["list", "entries"])
    sb = {"mode": rng.choice(["non-main", "non-main", "all", "off"])}
    if rng.random() < 0.3:
        sb["scope"] = rng.choice(["session", "agent", "shared"])
    a = {"defaults": {"sandbox": sb}}
    if shape == "list":
        lst = [{"id": i} for i in ids]
        if rng.random() < 0.3:
            rng.choice(lst)["default"] = True
        a["list"] = lst
    elif shape == "entries":
        a["ownership"] = "explicit"
        a["entries"] = {i: {} for i in ids}
        if rng.random() < 0.3:
            a["defaultAgentId"] = rng.choice(ids)
    if rng.random() < 0.2:
        e = a.get("entries") or {}
        for v in (e.values() if e else a.get("list", [])):
            if rng.random() < 0.4:
                v["sandbox"] = {"mode": rng.choice(["non-main", "all", "off"])}
    return a


def session_for(ids, mk):
    a = rng.choice(ids + ["main", "work", "nobody"])
    m = mk if isinstance(mk, str) else "main"
    cands = ["main", m, m.strip(), m.lower(), m.upper(), f"agent:{a}:main", f"agent:{a}:{m}", f"agent:{a}:{m.strip()}",
             f"agent:main:{m}", f"agent:{a}:{m.lower()}", f"agent:{a}:MAIN", f"agent:{a.upper()}:main",
             f"x:{m}", f"foo{m}", f"agent:{a}:sub:{m}", f"agent:{a}:{m}:thread:1", "global", "Global",
             f" agent:{a}:{m} ", f"agent:{a}:main ", f"{m}:main", f"agent:{a}:whatsapp:group:{m}",
             f"agent:{a}:subagent:{m}", f"agent:{a}:{m}:main", None]
    return rng.choice(cands)


def gen(i):
    ids = rng.choice(IDS)
    cfg = {"agents": roster(ids)}
    if cfg["agents"].get("defaultAgentId") is not None:
        del cfg["agents"]["defaultAgentId"]  # not a schema key in every version
    mk = rng.choice(MAINKEYS)
    sess = {}
    if mk is not None:
        sess["mainKey"] = mk
    if rng.random() < 0.4:
        sess["scope"] = rng.choice(["global", "per-sender", "global"])
    if rng.random() < 0.2:
        sess["dmScope"] = rng.choice(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])
    if sess:
        cfg["session"] = sess
    agent = rng.choice([None, None] + ids + [i.upper() for i in ids])
    return {"id": f"k{seed:03d}{i:05d}", "category": "session-keys", "origin": "gen:mainkey", "syntax": "json",
            "config_text": json.dumps(cfg, ensure_ascii=False, indent=rng.choice([None, 2])), "agent": agent,
            "session": session_for(ids, mk), "subagent": rng.random() < 0.1}


if __name__ == "__main__":
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for i in range(count):
        print(json.dumps(gen(i), ensure_ascii=False))

#!/usr/bin/env python3
"""gen-mutate.py SEEDS.jsonl SEED COUNT > cases.jsonl

Mutation fuzzing of the corpus: each case is a corpus config (as JSON, from
mutate-seeds.mjs) with 1-4 random edits: a value swapped for an odd one of a kindred
type (numbers as strings, negative, float, huge; strings re-cased, padded, unicode,
emptied; lists shuffled, doubled, grown with tool names or emptied; objects losing or
gaining keys), a subtree grafted from another seed at the same path (per-agent overrides
meet other defaults), a key re-cased, or an agent/session/subagent flag changed.  The
real OpenClaw answers them as any case (oracle-batch.sh); sbx must agree.  Deterministic
for a given SEED and seeds file.
"""
import copy
import json
import random
import sys

TOOLS = ["exec", "read", "write", "edit", "apply_patch", "process", "browser", "canvas", "message", "gateway",
         "sessions_spawn", "subagents", "web_search", "web_fetch", "memory_search", "image", "bash", "cron",
         "nodes", "tts", "pdf", "*", "group:fs", "group:runtime", "group:web", "group:ui", "group:sessions",
         "group:memory", "group:messaging", "group:automation", "group:openclaw", "group:plugins", "group:agents",
         "group:media", "group:nodes", "Group:FS", " group:web ", "GROUP:RUNTIME", "exe*", "*_get", "session*",
         "apply-patch", "EXEC", " read ", "", "unknown_tool", "ls", "code_execution", "x_search", "openclaw"]
STRS = ["", " ", "x", "X", "main", "Main", "work", "none", "ro", "rw", "all", "off", "non-main", "session",
        "agent", "shared", "docker", "Docker", " docker ", "podman", "ssh", "host", "bridge", "none", "/tmp",
        "/workspace", "~/ws", "~", "relative", "ünï", "日本", "🙂", "a" * 80, "512m", "1g", "1.5", "-1", "0",
        "1e3", "0x10", "true", "null", "${HOME}", "${NOPE}", "$${HOME}", "minimal", "coding", "messaging", "full",
        "/etc/passwd:/x:ro", "/srv/data:/data", "/srv/data:/data:rw", "/:/host", "unconfined", "default",
        "nobody", "1000:1000", "custom:1", "Custom:Tag", "openclaw-sandbox:bookworm-slim"]
NUMS = [0, 1, -1, 2, 7, 0.5, 1.5, -0.0, 100, 255, 256, 1024, 65536, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 + 2,
        1e21, 1e-7, 3.0, 24, 168, 999999999999]
KEYS = ["mode", "scope", "workspaceAccess", "workspaceRoot", "backend", "docker", "browser", "prune", "tools",
        "allow", "deny", "alsoAllow", "profile", "sandbox", "subagents", "byProvider", "toolsBySender", "exec",
        "fs", "image", "network", "env", "binds", "tmpfs", "memory", "cpus", "pidsLimit", "user", "readOnlyRoot",
        "capDrop", "ulimits", "workdir", "containerPrefix", "setupCommand", "dns", "extraHosts", "idleHours",
        "maxAgeDays", "perSession", "workspace", "default", "id", "name", "groups", "requireMention"]


def paths(v, p=()):
    yield p
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, p + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from paths(x, p + (i,))


def get(v, p):
    for k in p:
        v = v[k]
    return v


def put(v, p, x):
    get(v, p[:-1])[p[-1]] = x


def odd_str(s):
    ops = [lambda: s.upper(), lambda: s.lower(), lambda: s.capitalize(), lambda: " " + s + " ",
           lambda: s + "\t", lambda: "\u00a0" + s, lambda: "", lambda: s + s, lambda: s + "/",
           lambda: s.replace("-", "_"), lambda: s + "ü", lambda: rng.choice(STRS), lambda: rng.choice(STRS),
           lambda: s[: max(0, len(s) // 2)], lambda: s + ":ro", lambda: "~/" + s, lambda: "/" + s.strip("/")]
    return rng.choice(ops)()


def odd_num(n):
    ops = [lambda: str(n), lambda: -n, lambda: n + 0.5, lambda: n * 1024, lambda: 0, lambda: None,
           lambda: rng.choice(NUMS), lambda: rng.choice(NUMS), lambda: str(rng.choice(NUMS)), lambda: [n],
           lambda: bool(n)]
    return rng.choice(ops)()


ENUMS = {"mode": ["off", "all", "non-main"], "scope": ["session", "agent", "shared"],
         "workspaceAccess": ["none", "ro", "rw"], "backend": ["docker", "podman", "ssh", "Docker"],
         "profile": ["minimal", "coding", "messaging", "full"], "network": ["none", "bridge", "host", "custom-net"],
         "dmScope": ["main", "per-peer", "per-channel-peer", "per-account-channel-peer"],
         "ownership": ["explicit"], "perSession": [True, False], "readOnlyRoot": [True, False],
         "mainKey": ["main", "home", "Work", " x "], "workspace": ["~/ws", "/srv/w", "rel", "~/ws2"],
         "workspaceRoot": ["~/roots", "/srv/sb", "rel-root"], "image": ["img:1", "custom:2"],
         "containerPrefix": ["p-", "oc-"], "workdir": ["/w", "/workspace"]}


def kin_value(k, x):
    """a value of the same kind OpenClaw likely accepts: resolution, not validation, decides"""
    if isinstance(k, str) and k in ENUMS:
        return rng.choice(ENUMS[k])
    if isinstance(x, bool):
        return not x
    if isinstance(x, int):
        return max(0, x + rng.choice([-1, 1, 2, 10]))
    if isinstance(x, list) and all(isinstance(e, str) for e in x):
        y = list(x)
        op = rng.randrange(4)
        if op == 0 or not y:
            y.append(rng.choice(TOOLS))
        elif op == 1:
            y.pop(rng.randrange(len(y)))
        elif op == 2:
            y[rng.randrange(len(y))] = rng.choice(TOOLS)
        else:
            rng.shuffle(y)
        return y
    if isinstance(x, dict) and x and rng.random() < 0.5:
        y = dict(x)
        del y[rng.choice(list(y))]
        return y
    return None if isinstance(x, dict) else x


def odd_value(x):
    if isinstance(x, bool):
        return rng.choice([not x, str(x).lower(), int(x), None, [x]])
    if isinstance(x, (int, float)):
        return odd_num(x)
    if isinstance(x, str):
        return odd_str(x) if rng.random() < 0.85 else rng.choice([None, 1, [x], {}, True])
    if x is None:
        return rng.choice(["", 0, False, [], {}])
    if isinstance(x, list):
        y = list(x)
        op = rng.randrange(7)
        if op == 0:
            rng.shuffle(y)
        elif op == 1:
            y = y + y
        elif op == 2 or not y:
            y.append(rng.choice(TOOLS) if rng.random() < 0.7 else rng.choice(STRS))
        elif op == 3:
            y = []
        elif op == 4:
            y.insert(0, rng.choice(TOOLS))
        elif op == 5:
            y.pop(rng.randrange(len(y)))
        else:
            return y[0] if y else "x"
        return y
    if isinstance(x, dict):
        y = dict(x)
        if y and rng.random() < 0.5:
            del y[rng.choice(list(y))]
        elif rng.random() < 0.5:
            y[rng.choice(KEYS)] = rng.choice([rng.choice(STRS), rng.choice(NUMS), [rng.choice(TOOLS)], True, {}])
        else:
            y = {}
        return y
    return x


def graft(cfg, other):
    """a subtree of other at a path cfg has too (same parent), replacing or adding it"""
    ops = [p for p in paths(other) if p and isinstance(p[-1], str)]
    rng.shuffle(ops)
    for p in ops[:40]:
        try:
            parent = get(cfg, p[:-1])
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(parent, dict):
            parent[p[-1]] = copy.deepcopy(get(other, p))
            return "graft:" + ".".join(map(str, p))
    return None


PORTABLE = {"sandbox", "tools", "docker", "browser", "prune", "subagents", "toolsBySender", "byProvider", "ssh",
            "allow", "deny", "alsoAllow", "profile", "env", "binds", "tmpfs", "scope", "mode", "workspaceAccess"}


def transplant(cfg, other):
    """a subtree of other under key K put where cfg has K at another path (defaults <-> agent,
    global tools <-> agent tools <-> sandbox tools <-> group tools)"""
    src = [p for p in paths(other) if p and p[-1] in PORTABLE]
    dst = [p for p in paths(cfg) if p and p[-1] in PORTABLE]
    if not src or not dst:
        return None
    sp = rng.choice(src)
    cands = [p for p in dst if p[-1] == sp[-1] and p != sp]
    if not cands:
        return None
    dp = rng.choice(cands)
    put(cfg, dp, copy.deepcopy(get(other, sp)))
    return "move:" + ".".join(map(str, sp)) + ">" + ".".join(map(str, dp))


def recase_key(cfg):
    ps = [p for p in paths(cfg) if p and isinstance(p[-1], str)]
    if not ps:
        return None
    p = rng.choice(ps)
    parent = get(cfg, p[:-1])
    k = p[-1]
    nk = rng.choice([k.lower(), k.upper(), k + " ", k.capitalize()])
    if nk == k or nk in parent:
        return None
    parent[nk] = parent.pop(k)
    return "rekey:" + ".".join(map(str, p))


def mutate(cfg, seeds):
    what = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        r = rng.random()
        if r < 0.5:
            ps = [p for p in paths(cfg) if p]
            if not ps:
                continue
            p = rng.choice(ps)
            if rng.random() < 0.6:
                v = kin_value(p[-1], get(cfg, p))
                if v is None:
                    del get(cfg, p[:-1])[p[-1]]
                else:
                    put(cfg, p, v)
                what.append("kin:" + ".".join(map(str, p)))
            else:
                put(cfg, p, odd_value(get(cfg, p)))
                what.append("val:" + ".".join(map(str, p)))
        elif r < 0.95:
            other = rng.choice(seeds)["cfg"]
            w = transplant(cfg, other if rng.random() < 0.5 else cfg) if rng.random() < 0.4 else graft(cfg, other)
            if w:
                what.append(w)
        else:
            w = recase_key(cfg)
            if w:
                what.append(w)
    return what


def agent_ids(cfg):
    a = cfg.get("agents") if isinstance(cfg, dict) else None
    ids = []
    if isinstance(a, dict):
        if isinstance(a.get("list"), list):
            ids += [e.get("id") for e in a["list"] if isinstance(e, dict) and isinstance(e.get("id"), str)]
        if isinstance(a.get("entries"), dict):
            ids += list(a["entries"])
    return ids or ["main"]


def session_for(ids):
    a = rng.choice(ids)
    return rng.choice([None, "main", f"agent:{a}:main", f"agent:{a}:whatsapp:group:123@g.us",
                       f"agent:{a}:telegram:group:-100:topic:9", f"agent:{a}:discord:channel:77",
                       f"agent:{a}:slack:direct:U1", f"agent:{a}:cron:job", f"agent:{a}:subagent:s1",
                       f"agent:{a}:main:thread:T 1", f"agent:{a}:Signal:Group:ÄB", "global", f"agent:{a}:hook:x",
                       f"agent:{a}:whatsapp:group:1:sender:2", f"agent:{a}:subagent:a:subagent:b"])


if __name__ == "__main__":
    seeds = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    seed, count = int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    good = [s for s in seeds if s["ok"]]  # mostly configs OpenClaw accepts: resolution decides
    for i in range(count):
        s = rng.choice(good if good and rng.random() < 0.85 else seeds)
        cfg = copy.deepcopy(s["cfg"])
        what = mutate(cfg, seeds)
        agent, session, sub = s["agent"], s["session"], s["subagent"]
        r = rng.random()
        if r < 0.25:
            ids = agent_ids(cfg)
            agent = rng.choice([None, None] + ids)
            session = session_for(ids)
            sub = rng.random() < 0.2
            what.append("ask")
        try:  # an argv holds neither a NUL nor a lone surrogate
            if "\0" in (agent or "") + (session or ""):
                raise UnicodeError
            ((agent or "") + (session or "")).encode("utf-8")
        except UnicodeError:
            agent, session = None, None
        text = json.dumps(cfg, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.3)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate stays escaped (a file holds UTF-8)
            text = json.dumps(cfg, indent=2)
        c = {"id": f"m{seed:03d}{i:05d}", "category": "resolution", "origin": f"gen:mutate:{s['id']}:" + ",".join(what),
             "syntax": "json", "config_text": text, "agent": agent, "session": session, "subagent": sub}
        if s.get("files"):
            c["files"] = s["files"]
        print(json.dumps(c, ensure_ascii=True))

#!/usr/bin/env python3
"""gen-conf9.py SEED N AREA > cases.jsonl: conformance round 9 (ask the oracle with oracle-batch.sh,
join with merge.py; or GEN=gen-conf9.py run-round.sh OUT SEED N AREA).
  mix   random-but-valid mixes of every area at once (gen-conf7.py's configs: rosters, defaults and
        per-agent sandbox/docker/tools, channel groups, session settings, ${VAR}s, $include files)
        plus a retired key the load migrations rewrite (gen-configs.py's add_legacy), rendered as
        hostile-but-legal JSON5: keys spelled with \\u escapes, duplicate keys whose earlier value
        is a whole object (the last one wins, nothing is merged), numbers at the keys that take
        numbers written 1e3 / 0x10 / +Infinity / .5 / 5. / -0, empty strings where strings are
        free, very long agent ids and session keys, and deep nesting where the schema allows it
        (cloudWorkers settings, plugin entry config, a chain of $include files)
  gaps  the branches coverage-gaps.py showed the corpus never took (listed in gen_gaps)
Uses gen-conf7.py's generator (loaded without its main loop) and gen-configs.py's pools."""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

# gen-conf7.py's functions, its module-level code up to its main loop, with this seed
_src = open(os.path.join(HERE, "gen-conf7.py"), encoding="utf-8").read()
_src = _src[:_src.index("\npools = idn_pools()")]
_argv, sys.argv = sys.argv, ["gen-conf7.py", str(seed), str(count), "valid"]
g7 = {"__file__": os.path.join(HERE, "gen-conf7.py"), "__name__": "g7"}
exec(compile(_src, "gen-conf7.py", "exec"), g7)
sys.argv = _argv
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []


def case(cid, text, syntax, agent=None, session=None, subagent=False, files=None, category="resolution", origin=""):
    c = {"id": cid, "category": category, "origin": f"conf9:{area}:{origin}", "syntax": syntax, "config_text": text,
         "agent": agent, "session": session, "subagent": subagent}
    if files:
        c["files"] = files
    out.append(c)


# ------------------------------------------------------------ numbers at numeric keys
# (path from the config root, or from a sandbox block with "SB."; the value is written verbatim)
NUM_KEYS = ["SB.docker.pidsLimit", "SB.docker.cpus", "SB.docker.memory", "SB.docker.memorySwap", "SB.prune.idleHours",
            "SB.prune.maxAgeDays", "SB.docker.ulimits.nofile", "SB.docker.ulimits.nproc.soft", "SB.browser.cdpPort",
            "SB.browser.vncPort", "SB.browser.noVncPort", "agents.defaults.subagents.maxSpawnDepth",
            "agents.defaults.subagents.maxChildrenPerAgent", "agents.defaults.timeoutSeconds",
            "agents.defaults.contextTokens", "agents.defaults.maxConcurrent",
            "gateway.port"]
NUM_SPELL = ["1e3", "0x10", "+0x10", "5.", "1.5e1", "+7", "2e1", "0x40", "1e1", "3.", "+1e1"] * 2 + ["1e3", "1E2", "0x10", "0X1f", "+0x10", "+Infinity", "Infinity", "-Infinity", "NaN", ".5", "5.", "-0", "+7",
             "1e400", "0.0", "1.5e1", "2e-1", "0x0", "00", "4096", "-1", "0", "1"]


def set_path(cfg, path, value):
    node = cfg
    parts = path.split(".")
    for k in parts[:-1]:
        if not isinstance(node.get(k), dict):
            node[k] = {}
        node = node[k]
    node[parts[-1]] = value


class Raw(str):
    """a value written verbatim into the JSON5 text (a JSON5-only number spelling)"""


def sandbox_paths(cfg):
    ag = cfg.get("agents") if isinstance(cfg.get("agents"), dict) else {}
    spots = ["agents.defaults.sandbox"]
    if isinstance(ag.get("entries"), dict):
        spots += [f"agents.entries.{k}.sandbox" for k in ag["entries"] if "." not in k]
    return spots


def add_numbers(cfg):
    for _ in range(rng.randint(1, 3)):
        p = pick(NUM_KEYS)
        if p.startswith("SB."):
            p = pick(sandbox_paths(cfg)) + p[2:]
        set_path(cfg, p, Raw(pick(NUM_SPELL)))
    return "num"


# ------------------------------------------------------------ JSON5 rendering with hostile corners
def esc_key(k):
    """a key spelled with \\u escapes (quoted or as an identifier, both JSON5)"""
    n = rng.randrange(len(k)) if k else 0
    if not k:
        return '""'
    if k.isidentifier() and k.isascii() and maybe(0.5):
        return k[:n] + "\\u%04x" % ord(k[n]) + k[n + 1:]
    body = json.dumps(k, ensure_ascii=False)[1:-1]
    return '"' + "".join("\\u%04X" % ord(ch) if (ch.isascii() and ch.isalnum() and maybe(0.4)) else ch for ch in body) + '"'


def decoy(x):
    if isinstance(x, dict):
        return pick(['{"mode": "off", "scope": "agent"}', '{"allow": ["read"]}', "{}", '{"x": {"y": 1}}', "null"])
    return pick(g7["DECOYS"])


def j5(v, ind, depth):
    if isinstance(v, Raw):
        return str(v)
    pad = " " * (ind * (depth + 1))
    end = " " * (ind * depth)
    nl = "\n" if ind else ""
    if isinstance(v, dict):
        if not v:
            return pick(["{}", "{ }", "{/**/}"])
        items = []
        for k, x in v.items():
            key = esc_key(k) if maybe(0.15) else g7["j5key"](k)
            if maybe(0.08):  # a duplicate key: the earlier value (often a whole object) is dropped, not merged
                items.append(pad + (esc_key(k) if maybe(0.5) else g7["j5key"](k)) + ":" + decoy(x))
            items.append(pad + key + ":" + (" " if ind else "") + j5(x, ind, depth + 1))
        return "{" + nl + ("," + nl).join(items) + ("," if maybe(0.4) else "") + nl + end + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        items = [pad + j5(x, ind, depth + 1) for x in v]
        return "[" + nl + ("," + nl).join(items) + ("," if maybe(0.4) else "") + nl + end + "]"
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, (int, float)):
        return g7["j5num"](v)
    if isinstance(v, str):
        return g7["j5str"](v)
    return json.dumps(v)


def render(cfg):
    text = j5(cfg, pick([2, 0, 1]), 0)
    if maybe(0.2):
        text = pick(["/* head */\n", "// head\n", "\ufeff", "\n\n"]) + text
    return "json5", text


def plain(o):
    """the config as plain JSON data (Raw numbers become the number they spell, or are dropped)"""
    if isinstance(o, dict):
        return {k: plain(v) for k, v in o.items()}
    if isinstance(o, list):
        return [plain(v) for v in o]
    return o


# ------------------------------------------------------------ the other hostile corners
LONG_IDS = ["a" * 64, "a" * 65, "agent-" + "x" * 120, "b" * 300, "z" * 1000, "ü" * 70, "🙂" * 40, "A" * 64]


def long_ids(cfg, ids):
    """one agent renamed to a very long id (entries key or list id)"""
    ag = cfg.get("agents")
    if not isinstance(ag, dict):
        return None
    new = pick(LONG_IDS)
    old = pick(ids)
    if isinstance(ag.get("entries"), dict) and old in ag["entries"]:
        ag["entries"] = {(new if k == old else k): v for k, v in ag["entries"].items()}
    elif isinstance(ag.get("list"), list):
        for e in ag["list"]:
            if isinstance(e, dict) and e.get("id") == old:
                e["id"] = new
    else:
        return None
    ids[ids.index(old)] = new
    return "longid"


EMPTY_SPOTS = ["agents.defaults.workspace", "SB.docker.image", "SB.docker.containerPrefix", "SB.docker.workdir",
               "SB.docker.network", "SB.docker.user", "SB.workspaceRoot", "SB.docker.setupCommand", "session.mainKey",
               "SB.docker.image", "SB.docker.containerPrefix", "SB.docker.setupCommand", "SB.workspaceRoot",
               "tools.profile", "SB.mode", "SB.scope", "SB.workspaceAccess", "SB.backend", "SB.browser.image"]


def add_empty(cfg):
    p = pick(EMPTY_SPOTS)
    if p.startswith("SB."):
        p = pick(sandbox_paths(cfg)) + p[2:]
    set_path(cfg, p, pick(["", "", " ", "\t", "\u00a0", "\u3000"]))
    return "empty"


def nest(depth, leaf):
    v = leaf
    for d in range(depth):
        v = {pick(["a", "b", "k"]) + str(d): v} if maybe(0.8) else [v]
    return v


def add_deep(cfg, files):
    kind = pick(["cw", "cw", "plugin", "inc"])
    if kind == "cw":
        cfg["cloudWorkers"] = {"profiles": {"p": {"provider": "x", "settings": {"s": nest(pick([5, 20, 29, 30, 31, 32, 40]), 1)}}}}
    elif kind == "plugin":
        cfg.setdefault("plugins", {})["entries"] = {"my-plugin": {"enabled": True, "config": nest(pick([5, 20, 40, 80]), "x")}}
    else:  # a chain of $include files ending in the tools section
        d = rng.randint(2, 11)
        tools = cfg.pop("tools", None) or {"profile": "coding"}
        cfg["tools"] = {"$include": "./t0.json5"}
        for k in range(d):
            files[f"t{k}.json5"] = json.dumps({"$include": f"./t{k + 1}.json5"})
        files[f"t{d}.json5"] = json.dumps(plain(tools))
    return "deep:" + kind


def gen_mix():
    for i in range(count):
        cfg, ids, chs = g7["gen_cfg"]()
        files = {}
        origin = []
        if maybe(0.25):
            origin.append(g7["add_vars"](cfg))
        if maybe(0.15):
            origin.append(g7["add_include_file"](cfg, files))
        if maybe(0.1):
            gc.add_legacy(cfg)
            origin.append("legacy")
        if maybe(0.3):
            origin.append(add_numbers(cfg))
        if maybe(0.1):
            origin.append(long_ids(cfg, ids) or "")
        if maybe(0.2):
            origin.append(add_empty(cfg))
        if maybe(0.12):
            origin.append(add_deep(cfg, files))
        syntax, text = render(cfg)
        a = pick(ids)
        agent = None if maybe(0.4) else pick([a, a, a.upper(), "nosuch"])
        sess = g7["session_for"](ids, chs)
        if maybe(0.08):
            sess = f"agent:{a}:" + pick(["x" * 500, "telegram:group:" + "9" * 300, "ü" * 200, ":" * 100])
        case(f"c9-mix-{seed}-{i:04d}", text, syntax, agent=agent, session=sess, subagent=maybe(0.15), files=files,
             origin=",".join(o for o in origin if o))


def gen_gaps():
    raise SystemExit("gen-conf9.py: gaps is filled in from coverage-gaps.py's listing")


{"mix": gen_mix, "gaps": gen_gaps}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

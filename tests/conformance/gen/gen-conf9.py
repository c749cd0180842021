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

import gen7lib

HERE = os.path.dirname(os.path.abspath(__file__))
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

g7 = gen7lib.load(seed, count)   # gen-conf7.py's generators, this seed
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []


case = gen7lib.case_writer(out, f"conf9:{area}", tagged=True)


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


ODD_LIST = [[""], ["  "], ["\t"], ["group:nope"], ["group:plugins"], ["", " "], ["*"], [" * "], ["EXEC"], ["exec"],
            ["read", "exec"], ["group:fs"], ["web_*"], [], ["sessions_spawn"], ["nope_tool"], ["image"], ["view_image"]]


def pol(allow_p=0.7, also_p=0.6, deny_p=0.3):
    """allow and alsoAllow in one scope (the schema decides where that is refused), deny sometimes"""
    t = {}
    if maybe(allow_p):
        t["allow"] = pick(ODD_LIST)
    if maybe(also_p) and ("allow" not in t or maybe(0.15)):
        t["alsoAllow"] = pick(ODD_LIST)
    if maybe(deny_p):
        t["deny"] = pick(ODD_LIST)
    return t


GAP_GROUP_KEYS = ["G1", "g1", " G1 ", "G1:x:y", "-100123", "C01", "*", "120363@g.us"]


def gap_channels():
    chs = {}
    for ch in rng.sample(["telegram", "whatsapp", "signal"], rng.randint(1, 2)):
        groups = {}
        for gid in rng.sample(GAP_GROUP_KEYS, rng.randint(1, 3)):
            e = {}
            if maybe(0.8):
                e["tools"] = pol(0.6, 0.5, 0.3)
            if maybe(0.3):
                e["toolsBySender"] = {pick(["*", "id:U1", " * "]): pol(0.6, 0.5, 0.3)}
            groups[gid] = e
        chs[ch] = {"groups": groups}
    return chs


def gap_session(ids):
    a = pick(ids) if ids else "main"
    ch = pick(["telegram", "whatsapp", "discord", "slack", "TELEGRAM"])
    gid = pick(["G1", "g1", "G1:x:y", "-100123", "C01", "other", " G1 "])
    return pick([None, "main", " ", "\t", "MAIN", "x:main", "agent:ops:main", f"agent:{a}:MAIN", f"agent:{a}:main ",
                 f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:subagent:{ch}:group:{gid}", f"agent:{a}:{ch}::group:{gid}",
                 f"agent:{a}::{ch}:group:{gid}", f"agent:{a}:{ch}:GROUP:{gid}", f"agent:{a}:{ch}:channel:{gid}:thread:5",
                 f"{ch}:group:{gid}", f"subagent:{ch}:group:{gid}", f"agent:{a}:{ch}:group:", f"agent:{a}:{ch}:group: ",
                 f"agent:{a}:{ch}:group", "🙂", "---", "...", "agent:x:🙂", f"agent:{a}:home",
                 f"agent:{a}:x:home", "home", "agent:ghost:telegram:group:G1", "agent::main", "agent:"])


def gen_gaps():
    """the branches coverage-gaps.py listed for the corpus (2026.9.6 dist file:line):
    sandbox-tool-policy:12 unionAllow with allow and alsoAllow both non-empty in one scope, and
    agent-tools.policy:60 mergeConfiguredSubagentAllow (allow + alsoAllow at every level: global,
    agent, sandbox.tools, subagents.tools, byProvider, channel groups, toolsBySender);
    tool-policy:65 filterDefaultDenyForExplicitAllows whose explicit allows compile to no pattern;
    agent-tools.policy:242 an agents roster with no entries and an agent-prefixed session key;
    agent-tools.policy:157-166 resolveGroupContextFromSessionKey's fallback (empty segments,
    subagent prefix, upper-case kind, ids with ':' and blanks); shared:20-46 slugs that come out
    empty and blank session keys; main-session:67 main aliases by session.mainKey"""
    for j in range(count):
        roster_kind = pick(["entries", "entries", "list", "empty", "emptylist", "none"])
        ids = pick([["main"], ["main", "ops"], ["a", "b"]])
        defaults = {}
        if maybe(0.85):
            defaults["sandbox"] = {k: v for k, v in (("mode", pick(["all", "all", "non-main", "off"])),
                                                     ("scope", pick(["session", "agent", "shared"])),
                                                     ("workspaceAccess", pick(["none", "ro", "rw"]))) if maybe(0.8)}
        cfg = {}
        if roster_kind == "empty":
            cfg["agents"] = {"entries": {}, **({"defaults": defaults} if defaults else {})}
            ids = []
        elif roster_kind == "emptylist":
            cfg["agents"] = {"list": [], **({"defaults": defaults} if defaults else {})}
            ids = []
        elif roster_kind == "none":
            if defaults:
                cfg["agents"] = {"defaults": defaults}
            ids = []
        else:
            def entry(i):
                e = {}
                if maybe(0.5):
                    e["tools"] = pol(0.5, 0.5, 0.3)
                    if maybe(0.4):
                        e["tools"]["sandbox"] = {"tools": pol(0.6, 0.5, 0.2)}
                    if maybe(0.2):
                        e["tools"]["byProvider"] = {pick(["openai", "anthropic"]): pol()}
                if maybe(0.25):
                    e["sandbox"] = {"mode": pick(["off", "all", "non-main"])}
                return e
            cfg["agents"] = g7["gc"].roster(ids, entry, defaults)
            if roster_kind == "list":
                lst = [{"id": i, **entry(i)} for i in ids]
                if len(ids) > 1 and maybe(0.8):
                    lst[rng.randrange(len(lst))]["default"] = True
                cfg["agents"] = {"list": lst, **({"defaults": defaults} if defaults else {})}
        if maybe(0.85):
            t = pol(0.5, 0.5, 0.3)
            if maybe(0.6):
                t["sandbox"] = {"tools": pol(0.7, 0.5, 0.15)}
            if maybe(0.4):
                t["subagents"] = {"tools": pol(0.6, 0.6, 0.2)}
            if maybe(0.3):
                t["profile"] = pick(["minimal", "coding", "messaging", "full"])
            if maybe(0.15):
                t["toolsBySender"] = {pick(["*", "id:U1"]): pol()}
            cfg["tools"] = t
        if maybe(0.4):
            cfg["channels"] = gap_channels()
        if maybe(0.3):
            cfg["session"] = {"mainKey": pick(["home", "Home", " home ", "main", "work:x", "höme"])}
            if maybe(0.5):
                cfg["session"]["scope"] = pick(["per-sender", "global"])
        a = pick(ids) if ids else None
        agent = pick([a, a, None, "ops", "main"]) if ids else pick([None, None, "main", "ops"])
        syntax, text = (render(cfg) if maybe(0.3) else ("json", json.dumps(cfg, indent=2, ensure_ascii=False)))
        case(f"c9-gap-{seed}-{j:04d}", text, syntax, agent=agent, session=gap_session(ids), subagent=maybe(0.15),
             category="policy-layers", origin=roster_kind)


{"mix": gen_mix, "gaps": gen_gaps}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

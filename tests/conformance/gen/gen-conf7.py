#!/usr/bin/env python3
"""gen-conf7.py SEED N [valid] > cases.jsonl: conformance round 7, differential fuzzing with every
area in one config at once (gen-configs.py's areas each vary one corner on a small config).

Each case: a roster (entries or a legacy list, odd agent ids) with agents.defaults and per-agent
sandbox overrides (mode, scope, workspaceAccess, workspaceRoot, docker.* with binds/env/tmpfs/
ulimits/network/dns/extraHosts/setupCommand, browser, prune), tools (profile, allow/deny/alsoAllow,
byProvider, sandbox.tools, subagents.tools, toolsBySender, group: and plugin names) globally and per
agent, channel groups with tool policies, agents' subagents; then any of: ${VAR} references (values
in env.vars, or missing), a subtree moved into an $include file (deep merge with its siblings),
one invalid value; rendered as JSON or as JSON5 with its corners (comments, trailing commas, hex,
+/-Infinity/NaN, line continuations, \\x/\\u escapes in keys and strings, duplicate keys whose
last value wins, single quotes, odd white space); asked with an agent, a session key (main, group/
channel, cron, subagent, random characters) and the subagent flag.
"valid" skips the invalid value (the oracle then mostly resolves, so resolution is compared).
"idn": instead, hosts of secrets.egressProxy and gateway.publicOrigin made of the code points
policy/idna-map.h lists (mapped to non-ASCII text, refused anywhere) among plain and IDN letters,
some near the 63-unit label limit of the punycode.

Uses gen-configs.py's value pools and helpers (its module-level rng is this seed's)."""
import importlib.util
import json
import os
import random
import sys

_spec = importlib.util.spec_from_file_location("gc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-configs.py"))
gc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gc)

seed, count = int(sys.argv[1]), int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else ""
valid_only = mode == "valid"
rng = gc.rng = random.Random(seed)
pick, maybe, sample = gc.pick, gc.maybe, gc.sample

ODD_IDS = ["main", "work", "family", "ops", "research", "coder", "a_b", "x-y", "dot.id", "9lives", "Work", "ünï",
           "agent-" + "z" * 60, "-dash", "under_", "a b", "é", "日本", "k\u212a", "a:b", "a/b", "__proto__", "constructor"]


def agent_id_list():
    n = pick([1, 2, 2, 3, 3, 4])
    ids = ["main"] if maybe(0.55) else []
    while len(ids) < n:
        i = pick(ODD_IDS) if maybe(0.07) else pick(ODD_IDS[:6])
        if i not in ids:
            ids.append(i)
    return ids


def browser_full():
    b = gc.v_browser()
    if maybe(0.2):
        b[pick(["cdpPort", "vncPort", "noVncPort"])] = pick([1, 65535, 9222])
    return b


def sandbox_mix(level):
    s = gc.sandbox_ok(level, 0.6)
    if isinstance(s.get("docker"), dict) and s["docker"].get("gpus") == "" and maybe(0.9):
        s["docker"]["gpus"] = "all"
    if maybe(0.2):
        s["browser"] = browser_full()
    if maybe(0.06):
        s[pick(["sessionToolsVisibility", "prune"])] = pick(["spawned", "all", {"idleHours": 1000}, {"maxAgeDays": 0}])
    return s


def tools_mix(agent):
    t = gc.tools_ok(agent)
    if maybe(0.15):
        t["toolsBySender"] = {pick(["*", " * ", "id:+1555", "*"]): gc.policy3(0.4, 0.4, 0.2)}
    if maybe(0.1):
        t["byProvider"] = {pick(["openai", "anthropic", "openai/gpt-5", "OpenAI"]): gc.policy3(0.4, 0.4, 0.2)}
    if agent and maybe(0.1):
        t.pop("subagents", None)
    return t


# channels whose schema has groups (the others refuse the key)
GROUP_CHANNELS = [c for c in gc.CHANNELS if c not in ("a2a", "discord", "msteams", "nextcloud-talk", "nostr", "raft", "reef",
                                                      "slack", "sms", "tlon", "twitch", "zalo")]


def channels_mix():
    chs = {}
    for ch in sample(GROUP_CHANNELS if maybe(0.9) else gc.CHANNELS, 1, 2):
        groups = {}
        for g in sample(gc.CH_GROUP_IDS, 1, 3):
            e = {}
            if maybe(0.8):
                e["tools"] = gc.ch_policy()
            if maybe(0.3):
                e["toolsBySender"] = {pick(gc.CH_SENDERS): gc.ch_policy()}
            groups[g] = e
        c = {"groups": groups}
        if ch == "twitch":
            c.update({"username": "u", "accessToken": "t", "channel": "c"})
        chs[ch] = c
    return chs


def session_for(ids, chs):
    a = pick(ids)
    r = rng.random()
    if r < 0.4:
        return gc.key_for(a.strip().lower() if maybe(0.8) else a, ids)
    if r < 0.55 and chs:
        ch = pick(list(chs))
        gid = pick(list(chs[ch]["groups"]))
        gid = gid if gid != "*" else "777"
        return pick([f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:{ch}:channel:{gid}", f"{ch}:group:{gid}",
                     f"agent:{a}:{ch}:group:{gid}:topic:3", f"agent:{a}:{ch.upper()}:group:{gid}"])
    if r < 0.75:
        return gc.gen_session(ids, {})
    if r < 0.9:
        return gc.random_session(ids)
    return None


def gen_cfg():
    ids = agent_id_list()
    defaults = {"sandbox": sandbox_mix("defaults")} if maybe(0.85) else {}
    if maybe(0.25):
        defaults["workspace"] = pick(["~/agents", "/srv/agents", "~/.openclaw/workspace", "rel/ws"])
    if maybe(0.2):
        defaults["subagents"] = {k: v for k, v in (("maxSpawnDepth", pick([1, 2, 3])), ("maxChildrenPerAgent", pick([1, 5])),
                                                   ("allowAgents", pick([["*"], ids[:1], []]))) if maybe()}

    def entry(i):
        e = {}
        if maybe(0.6):
            e["sandbox"] = sandbox_mix("agent")
        if maybe(0.5):
            e["tools"] = tools_mix(True)
        if maybe(0.3):
            e["workspace"] = pick([f"~/ws-{i}", "/srv/x", "~/shared-ws", f"~/.openclaw/workspace-{i}", "~/a b"])
        if maybe(0.12):
            e["subagents"] = {"allowAgents": pick([["*"], ids[-1:], []])} if maybe(0.97) else {"maxSpawnDepth": 1}
        if maybe(0.08):
            e["name"] = pick(["Bot", "ünï bot", ""])
        return e
    cfg = {"agents": gc.roster(ids, entry, defaults)}
    if maybe(0.7):
        cfg["tools"] = tools_mix(False)
    chs = channels_mix() if maybe(0.35) else {}
    if chs:
        cfg["channels"] = chs
    if maybe(0.12):
        cfg["session"] = {k: v for k, v in (("scope", pick(["per-sender", "global"])),
                                            ("dmScope", pick(["main", "per-peer", "per-channel-peer"])),
                                            ("mainKey", pick(["main", "home", "Work"]))) if maybe()}
    return cfg, ids, chs


def strings_in(o, out, depth=0):
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, str):
                out.append((o, k))
            elif k != "$include":
                strings_in(v, out, depth + 1)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            if isinstance(v, str):
                out.append((o, i))
            else:
                strings_in(v, out, depth + 1)
    return out


def add_vars(cfg):
    """${VAR}: a string value moved to env.vars (or a missing name, an escape, a lower-case name)"""
    strs = strings_in(cfg, [])
    if not strs:
        return "novars"
    vars_ = {}
    what = []
    for n, (o, k) in enumerate(rng.sample(strs, min(len(strs), rng.randint(1, 3)))):
        name = pick(["ZV%d" % n, "ZV%d" % n, "zv%d" % n, "Z_%d" % n])
        r = rng.random()
        if r < 0.7:
            vars_[name] = o[k]
            o[k] = pick(["${%s}" % name, "${%s}" % name, "$${%s}" % name])
            what.append("var")
        elif r < 0.85:
            o[k] = "${ZMISSING%d}" % n
            what.append("missing")
        else:
            vars_[name] = o[k][:1]
            o[k] = "${%s}" % name + o[k][1:]
            what.append("prefix")
    cfg["env"] = pick([{"vars": vars_}] * 6 + [dict(vars_), {"vars": vars_, "shellEnv": {"enabled": False}}])
    return "vars:" + "+".join(what)


def add_include_file(cfg, files):
    """move part of an object into an $include file; its siblings stay (they win in the deep merge)"""
    spots = [("root", cfg)]
    ag = cfg.get("agents", {})
    for k in ("defaults",):
        if isinstance(ag.get(k), dict):
            spots.append(("defaults", ag[k]))
            if isinstance(ag[k].get("sandbox"), dict):
                spots.append(("sandbox", ag[k]["sandbox"]))
                if isinstance(ag[k]["sandbox"].get("docker"), dict):
                    spots.append(("docker", ag[k]["sandbox"]["docker"]))
    spots.append(("agents", ag))
    if isinstance(cfg.get("tools"), dict):
        spots.append(("tools", cfg["tools"]))
    if isinstance(ag.get("entries"), dict):
        for i, e in ag["entries"].items():
            if isinstance(e, dict) and e:
                spots.append(("entry", e))
    name, obj = pick(spots)
    keys = [k for k in obj if k != "$include"]
    if not keys:
        return "noinc"
    moved = rng.sample(keys, rng.randint(1, len(keys)))
    frag = {k: obj[k] for k in moved}
    if maybe(0.7):
        for k in moved:
            del obj[k]
    fname = pick(["inc.json5", "sub/part.json", "part.json"])
    if maybe(0.25) and len(frag) > 1:  # a second level: the file includes another with one of its keys
        k2 = pick(list(frag))
        inner = {k2: frag.pop(k2)}
        files["inner.json"] = json.dumps(inner, ensure_ascii=False)
        frag["$include"] = "../inner.json" if fname.startswith("sub/") else "./inner.json"
    files[fname] = render_text(frag)[1] if maybe(0.5) else json.dumps(frag, indent=2, ensure_ascii=False)
    obj["$include"] = pick(["./" + fname, fname, ["./" + fname]])
    return "include:" + name


# ---------------------------------------------------------------- JSON5 text with more corners
def j5num(v):
    r = rng.random()
    if isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, int):
        if r < 0.15 and v >= 0:
            return pick([hex(v), "0X" + format(v, "X"), "+" + hex(v)])
        if r < 0.22 and v >= 0:
            return "+" + str(v)
        if r < 0.27 and v > 0:
            return pick([str(v) + ".", str(v) + ".0", str(v) + "e0", "%de%d" % (v * 10, -1) if v < 10 ** 6 else str(v)])
        return str(v)
    s = repr(v)
    if s.startswith("0.") and maybe(0.5):
        return s[1:]
    return s


def j5str(v):
    if "\n" not in v and "'" not in v and "\\" not in v and maybe(0.35):
        return "'" + v + "'"
    s = json.dumps(v, ensure_ascii=maybe(0.3))
    if maybe(0.2):  # escape one ASCII letter as \xHH or \uHHHH
        idx = [n for n, c in enumerate(s) if c.isalpha() and c.isascii() and n > 0 and s[n - 1] != "\\"]
        if idx:
            n = pick(idx)
            s = s[:n] + pick(["\\x%02x" % ord(s[n]), "\\u%04X" % ord(s[n]), "\\u%04x" % ord(s[n])]) + s[n + 1:]
    if len(s) > 6 and maybe(0.12):  # a line continuation
        cut = rng.randint(1, len(s) - 2)
        if "\\" not in s[max(0, cut - 6):cut + 1]:
            s = s[:cut] + pick(["\\\n", "\\\r\n", "\\\u2028"]) + s[cut:]
    return s


def j5key(k):
    if k.isidentifier() and k.isascii() and maybe(0.6):
        if maybe(0.1) and len(k) > 1:
            return k[0] + "\\u%04x" % ord(k[1]) + k[2:]
        return k
    if maybe(0.3) and "'" not in k and "\\" not in k and "\n" not in k:
        return "'" + k + "'"
    return json.dumps(k, ensure_ascii=maybe(0.5))


DECOYS = ["null", "0", "'decoy'", "[]", "{}", "true"]


def j5(v, ind, depth):
    pad = " " * (ind * (depth + 1))
    end = " " * (ind * depth)
    nl = "\n" if ind else ""
    if isinstance(v, dict):
        if not v:
            return pick(["{}", "{ }", "{/**/}"])
        items = []
        for k, x in v.items():
            c = pick(["// c\n" + pad, "/* c */ ", "/*\n*/"]) if maybe(0.05) else ""
            if maybe(0.04):  # a duplicate key: the last one wins
                items.append(pad + j5key(k) + ":" + pick(DECOYS))
            items.append(pad + c + j5key(k) + ":" + (" " if ind else "") + j5(x, ind, depth + 1))
        return "{" + nl + ("," + nl).join(items) + ("," if maybe(0.4) else "") + nl + end + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        items = [pad + j5(x, ind, depth + 1) for x in v]
        return "[" + nl + ("," + nl).join(items) + ("," if maybe(0.4) else "") + nl + end + "]"
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, (int, float)):
        return j5num(v)
    if isinstance(v, str):
        return j5str(v)
    return json.dumps(v)


def render_text(cfg):
    if maybe(0.45):
        return "json", json.dumps(cfg, indent=pick([2, 4, None]), ensure_ascii=maybe(0.5)) + pick(["\n", ""])
    text = j5(cfg, pick([2, 0, 1]), 0)
    if maybe(0.2):
        text = pick(["/* head */\n", "// head\n", "\ufeff", "\n\n"]) + text
    if maybe(0.2):
        text += pick(["\n// end\n", "\n/* end */", "\n\n"])
    return "json5", text


NUM_ODD = ["Infinity", "-Infinity", "NaN", "+Infinity", "0x10", "1e400", "-0", ".5", "5."]


def odd_number(text):
    """one number of the JSON5 text replaced by a JSON5-only spelling (Infinity, NaN, ...)"""
    spots = [n for n in range(1, len(text)) if text[n].isdigit() and text[n - 1] in ": "]
    if not spots:
        return text
    n = pick(spots)
    m = n
    while m < len(text) and (text[m].isalnum() or text[m] in ".+-"):
        m += 1
    return text[:n] + pick(NUM_ODD) + text[m:]


def gen_case(i):
    cfg, ids, chs = gen_cfg()
    files = {}
    origin = ["mix"]
    if maybe(0.3):
        origin.append(add_vars(cfg))
    if maybe(0.25):
        origin.append(add_include_file(cfg, files))
    if not valid_only and maybe(0.2):
        origin.append("bad:" + ((gc.per_agent_invalid(cfg) if maybe(0.3) else None) or gc.mutate_invalid(cfg)))
    syntax, text = render_text(cfg)
    if syntax == "json5" and maybe(0.08):
        text = odd_number(text)
        origin.append("oddnum")
    a = pick(ids)
    r = rng.random()
    agent = None if r < 0.45 else pick([a, a, a.upper(), " " + a, "nosuch"])
    c = {"id": f"m{seed:04d}{i:05d}", "category": "resolution", "origin": "conf7:" + ",".join(origin), "syntax": syntax,
         "config_text": text, "agent": agent, "session": session_for(ids, chs), "subagent": maybe(0.2)}
    if files:
        c["files"] = files
    return c


def idn_pools():
    import re
    text = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../policy/idna-map.h")).read()
    refused = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\{0x([0-9a-f]+), 0x([0-9a-f]+)\}", text)]
    mapped = [int(a, 16) for a in re.findall(r"\{0x([0-9a-f]+), \"", text)]
    return refused, mapped


def idn_label(refused, mapped, plain):
    out = []
    for _ in range(rng.randint(1, pick([3, 8, 20, 40]))):
        r = rng.random()
        if r < 0.3:
            out.append(chr(pick(mapped)))
        elif r < 0.33:
            a, b = pick(refused)
            cp = rng.randint(a, b)
            out.append(chr(cp) if not 0xD800 <= cp <= 0xDFFF else "x")
        else:
            out.append(pick(plain))
    return "".join(out)


def gen_idn_case(i, pools):
    refused, mapped = pools
    plain = list("abcz09-") + ["é", "ü", "ß", "ø", "α", "ω", "д", "я", "中", "日", "한", "あ", "ア", "ー", "ก", "😀", "☃"]
    host = ".".join(idn_label(refused, mapped, plain) for _ in range(rng.randint(1, 3))) + pick([".com", ".example", ".рф", ""])
    if maybe(0.5):
        cfg = {"secrets": {"egressProxy": {"enabled": True, pick(["allowedHosts", "bypassHosts"]): [host]}}}
    else:
        cfg = {"gateway": {"publicOrigin": "https://" + host}}
    return {"id": f"c7-idn-{seed}-{i:04d}", "category": "invalid", "origin": "conf7:idn", "syntax": "json",
            "config_text": json.dumps(cfg, indent=2, ensure_ascii=False), "agent": None, "session": None, "subagent": False}


pools = idn_pools() if mode == "idn" else None
for n in range(count):
    print(json.dumps(gen_idn_case(n, pools) if pools else gen_case(n), ensure_ascii=False))

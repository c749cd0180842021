#!/usr/bin/env python3
"""gen-conf12.py SEED N AREA > cases.jsonl: conformance round 12 (ask the oracle with oracle-batch.sh,
join with merge.py; or GEN=gen-conf12.py run-round.sh OUT SEED N AREA). Aimed at what rounds 1-11
sampled least (they varied one corner on a small config, or every area at random; none wrote a
whole config the way a household or a team does, nor put unknown keys everywhere):
  whole     whole configs as users write them: a family / work / public setup (2-5 agents with their
            own workspaces, models, per-agent tools and sandbox blocks, a locked-down public agent,
            a kids agent), bindings (channel, accountId, peer, guildId / teamId), channels with
            accounts, groups and toolsBySender, heartbeat, session settings, plugins; hand-written
            JSON5 (comments, trailing commas, quoted and unquoted keys, hex numbers, duplicate keys,
            Infinity / NaN where numbers are expected); asked with session keys of every kind
  unknown   a whole (valid) config with one to three extra keys at random objects of it (top level,
            agents, defaults, an entry, sandbox, docker, browser, prune, tools, tools.sandbox.tools,
            byProvider, subagents, channels, a group, toolsBySender, bindings, match, peer, session,
            plugins, env): unknown names, names of other sections, `$schema`, `//`, `_comment`,
            `x-` keys, known-but-ignored keys (meta, wizard, retired markers): strict vs passthrough
  drift     the oldest and newest spellings the spec's drift list names, alone and mixed: agents.list
            + default markers vs entries + ownership, enableNoVnc vs noVncEnabled, image vs view_image,
            update_plan, sandbox.perSession, agentRuntime / embeddedPi, session.mainKey, tools.exec
            security / ask vs mode, elevated.enabled, browser network none, backends docker / podman /
            ssh / openshell, gpus, sessions_search / computer / canvas / secrets / bundle-mcp / mobile_ui
            in policies, deny write vs apply_patch, toolsBySender
  sesskind  session keys of every kind (main, direct, per-peer, group, channel, thread, topic, sender,
            cron, cron run, hook, subagent, nested subagent, acp, node, heartbeat, global, webchat,
            bare names) x mode (off / non-main / all) x scope (session / agent / shared) x access x
            rosters of 1-3 agents, with and without --agent and --subagent
Uses gen-configs.py's pools and gen-conf7.py's JSON5 writer (loaded without their main loops)."""
import copy
import json
import os
import sys

import gen7lib

HERE = os.path.dirname(os.path.abspath(__file__))
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

g7 = gen7lib.load(seed + 120000, count)   # gen-conf7.py's generators, this seed
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []


case = gen7lib.case_writer(out, f"conf12:{area}")


# ------------------------------------------------------------ hand-written JSON5
def hand_text(cfg, numspots):
    """cfg as a person writes it: JSON, or JSON5 with comments, trailing commas, quoted and unquoted
    keys, hex and other JSON5 numbers, a duplicate key or two; numspots: marker -> literal text"""
    if maybe(0.3):
        syntax, text = "json", json.dumps(cfg, indent=pick([2, 2, 4]), ensure_ascii=False) + "\n"
    else:
        syntax, text = g7["render_text"](cfg)
        if syntax == "json5" and maybe(0.5):
            text = pick(["// openclaw.json: edited by hand\n", "/* family setup\n   see docs */\n", "// ~/.openclaw/openclaw.json\n"]) + text
    for m, v in numspots.items():
        text = text.replace(json.dumps(m), v).replace("'" + m + "'", v)
        text = text.replace(json.dumps(m, ensure_ascii=False), v)
    if numspots and syntax == "json":
        syntax = "json5"
    return syntax, text


ODD_NUMS = ["Infinity", "-Infinity", "+Infinity", "NaN", "-NaN", "0x40", "0X10", "+0x20", "1e2", ".5", "5.", "-0", "1e400"]
NUM_PLACES = [("sandbox", "docker", "pidsLimit"), ("sandbox", "docker", "cpus"), ("sandbox", "docker", "memory"),
              ("sandbox", "prune", "idleHours"), ("sandbox", "prune", "maxAgeDays"), ("sandbox", "docker", "ulimits", "nofile"),
              ("sandbox", "browser", "cdpPort"), ("subagents", "maxSpawnDepth"), ("sandbox", "docker", "memorySwap")]


def put_num(obj, path, marks, good):
    o = obj
    for p in path[:-1]:
        if not isinstance(o.get(p, {}), dict):
            return
        o = o.setdefault(p, {})
    m = f"@{len(marks)}@"  # no letters, short: the JSON5 writer escapes neither
    marks[m] = pick(good) if maybe(0.6) else pick(ODD_NUMS)
    o[path[-1]] = m


# ------------------------------------------------------------ whole
PEOPLE = ["+15551230001", "+15551230002", "+447700900123", "U0ALICE", "bob@example.com", "1234567890"]
GIDS = {"whatsapp": ["120363025246125486@g.us", "120363@g.us"], "telegram": ["-1001234567890", "-100123"],
        "signal": ["group.aGVsbG8=", "g1"], "imessage": ["chat123", "iMessage;+;chat99"], "matrix": ["!room:matrix.org"],
        "googlechat": ["spaces/AAAA"], "mattermost": ["town-square"], "line": ["C1234"]}
TOOLSETS = {
    "kids": {"profile": "messaging", "deny": ["exec", "process", "browser", "group:web", "write", "edit", "apply_patch"]},
    "public": {"profile": "minimal", "allow": ["message", "session_status", "web_search"], "deny": ["group:runtime", "group:fs"]},
    "coder": {"profile": "coding", "alsoAllow": ["browser", "web_fetch"]},
    "work": {"profile": "coding", "deny": ["message"], "sandbox": {"tools": {"allow": ["group:fs", "group:runtime", "web_fetch"]}}},
    "family": {"allow": ["group:messaging", "group:sessions", "read", "web_search", "image_generate"], "deny": ["exec"]},
    "ops": {"profile": "full", "deny": ["gateway", "nodes"], "elevated": {"enabled": True}},
    "research": {"profile": "coding", "alsoAllow": ["group:web", "x_search", "pdf"]},
    "main": {},
}


def person_tools(role):
    t = copy.deepcopy(TOOLSETS.get(role, {}))
    if maybe(0.3):
        t.update(gc.policy3(0.3, 0.4, 0.2))
        if t.get("allow") and t.get("alsoAllow"):
            del t["alsoAllow"]
    if maybe(0.2):
        t["sandbox"] = {"tools": gc.policy3(0.5, 0.4, 0.2)}
    if maybe(0.1):
        t["byProvider"] = {pick(["openai", "anthropic", "openai/gpt-5.2"]): {"profile": pick(gc.PROFILES)}}
    return t


def person_sandbox(role):
    s = {}
    if role in ("kids", "public"):
        s = {"mode": "all", "scope": pick(["session", "agent"]), "workspaceAccess": pick(["none", "ro"])}
        if maybe(0.6):
            s["docker"] = {"network": "none", "readOnlyRoot": True, "memory": pick(["512m", "1g"]), "pidsLimit": pick([64, 128]),
                           "capDrop": ["ALL"]}
    elif role in ("work", "coder", "research"):
        s = {"mode": pick(["non-main", "all"]), "workspaceAccess": pick(["rw", "ro"])}
        if maybe(0.5):
            s["docker"] = {"image": pick(["openclaw-sandbox:bookworm-slim", "ghcr.io/acme/dev:latest"]),
                           "setupCommand": pick(["apt-get update && apt-get install -y git", ["pip install uv", "uv sync"]]),
                           "env": {"LANG": "C.UTF-8", "TZ": "Europe/Berlin"}}
            if maybe(0.4):
                s["docker"]["binds"] = [pick(["/srv/repos:/repos:ro", "/srv/cache:/cache", "/srv/data:/data:rw"])]
    elif role == "ops":
        s = {"mode": pick(["off", "non-main"])}
    elif maybe(0.5):
        s = gc.sandbox_ok("agent", 0.3)
    if maybe(0.2):
        s.update(gc.sandbox_ok("agent", 0.3))
    return s


def whole_cfg():
    setup = pick(["family", "work", "public", "family", "work", "mixed"])
    roles = {"family": ["main", "family", "kids"], "work": ["main", "work", "coder", "research", "ops"],
             "public": ["main", "public", "support"], "mixed": ["main", "family", "work", "public", "kids"]}[setup]
    ids = ["main"] + rng.sample(roles[1:], rng.randint(1, min(4, len(roles) - 1)))
    if maybe(0.15):
        ids = ids[1:] or ["main"]
    marks = {}
    defaults = {"sandbox": {"mode": pick(["non-main", "non-main", "all", "off"])}}
    if maybe(0.5):
        defaults["sandbox"]["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.4):
        defaults["sandbox"]["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.4):
        defaults["sandbox"]["docker"] = gc.docker_ok("defaults")
    if maybe(0.5):
        defaults["model"] = pick(["anthropic/claude-opus-4-6", {"primary": "openai/gpt-5.2", "fallbacks": ["anthropic/claude-opus-4-6"]}])
    if maybe(0.3):
        defaults["workspace"] = pick(["~/.openclaw/workspace", "~/agents/main"])
    if maybe(0.25):
        defaults["heartbeat"] = {"every": pick(["30m", "1h"]), "target": pick(["last", "none", "whatsapp"])}
    for path in rng.sample(NUM_PLACES, rng.randint(0, 2)):
        good = {"pidsLimit": ["64", "0x100", "256"], "cpus": ["1", "0.5", "2"], "memory": ["536870912", "0x20000000"],
                "idleHours": ["24", "0x18", "12"], "maxAgeDays": ["7", "14"], "nofile": ["1024", "0x400"],
                "cdpPort": ["9222"], "maxSpawnDepth": ["1", "2"], "memorySwap": ["-1", "1073741824"]}[path[-1]]
        put_num(defaults, path, marks, good)

    def entry(a):
        e = {}
        if a != "main" or maybe(0.3):
            e["workspace"] = pick([f"~/.openclaw/workspace-{a}", f"~/agents/{a}", f"/srv/openclaw/{a}"])
        if maybe(0.5):
            e["name"] = a.title()
        t = person_tools(a)
        if t and maybe(0.8):
            e["tools"] = t
        s = person_sandbox(a)
        if s and maybe(0.85):
            e["sandbox"] = s
        if maybe(0.3):
            e["model"] = pick(["openai/gpt-5.2", "anthropic/claude-opus-4-6", "ollama/llama3:8b"])
        if a in ("kids", "public") and maybe(0.3):
            e["subagents"] = {"allowAgents": pick([[], ["main"], ["*"]])}
        if maybe(0.1):
            put_num(e, pick(NUM_PLACES[:-2] + NUM_PLACES[-1:]), marks, ["1", "64", "24"])
        return e
    cfg = {"agents": gc.roster(ids, entry, defaults)}
    chs = {}
    for ch in rng.sample(["whatsapp", "telegram", "signal", "discord", "slack", "imessage"], rng.randint(1, 3)):
        c = {}
        if maybe(0.4):
            c["dmPolicy"] = pick(["pairing", "allowlist", "open", "disabled"])
            if c["dmPolicy"] == "open":
                c["allowFrom"] = ["*"]
            elif c["dmPolicy"] == "allowlist":
                c["allowFrom"] = rng.sample(PEOPLE, 2)
        if ch in GIDS and maybe(0.7):
            grp = {}
            for g in sample(GIDS[ch] + ["*"], 1, 2):
                ge = {"requireMention": pick([True, False])}
                if maybe(0.6):
                    ge["tools"] = gc.ch_policy()
                if maybe(0.3):
                    ge["toolsBySender"] = {pick(gc.CH_SENDERS): gc.ch_policy()}
                grp[g] = ge
            c["groups"] = grp
        if ch == "discord" and maybe(0.5):
            c["guilds"] = {"123456789012345678": {"requireMention": True}}
        if ch in ("telegram", "whatsapp") and maybe(0.25):
            c["accounts"] = {pick(["personal", "biz"]): {"name": "Biz"} | ({"groups": {"*": {"tools": gc.ch_policy()}}} if maybe(0.5) else {})}
        chs[ch] = c
    cfg["channels"] = chs
    if len(ids) > 1 and maybe(0.75):
        b = []
        for a in ids[1:]:
            ch = pick(list(chs))
            m = {"channel": ch}
            r = rng.random()
            if r < 0.3 and ch in GIDS:
                m["peer"] = {"kind": pick(["group", "group", "direct", "channel"]), "id": pick(GIDS[ch] + PEOPLE)}
            elif r < 0.45:
                m["accountId"] = pick(["personal", "biz", "*"])
            elif r < 0.55 and ch == "discord":
                m["guildId"] = "123456789012345678"
            elif r < 0.6 and ch == "slack":
                m["teamId"] = "T0123"
            b.append({"agentId": a, "match": m})
        cfg["bindings"] = b
    if maybe(0.5):
        cfg["tools"] = {}
        if maybe(0.5):
            cfg["tools"]["profile"] = pick(gc.PROFILES)
        if maybe(0.4):
            cfg["tools"]["sandbox"] = {"tools": gc.policy3(0.4, 0.5, 0.3)}
        if maybe(0.3):
            cfg["tools"]["web"] = {"search": {"enabled": True}, "fetch": {"enabled": pick([True, False])}}
        if maybe(0.2):
            cfg["tools"]["exec"] = pick([{"host": "sandbox"}, {"security": "allowlist", "safeBins": ["jq"]}, {"ask": "on-miss"}])
        if maybe(0.2):
            cfg["tools"]["subagents"] = {"tools": gc.policy3(0.3, 0.5, 0.2)}
        if maybe(0.15):
            cfg["tools"]["toolsBySender"] = {pick(["*", "id:+15551230001", "e164:+15551230002"]): gc.ch_policy()}
    if maybe(0.35):
        cfg["session"] = {k: v for k, v in (("dmScope", pick(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])),
                                           ("scope", pick(["per-sender", "global"])),
                                           ("reset", {"mode": "daily", "atHour": 4}),
                                           ("identityLinks", {"alice": ["whatsapp:+15551230001", "telegram:123"]})) if maybe(0.45)}
    if maybe(0.2):
        cfg["plugins"] = pick([{"allow": ["memory-core"]}, {"entries": {"memory-core": {"enabled": True}}}, {"enabled": True}])
    if maybe(0.15):
        cfg["messages"] = {"ackReaction": "👀", "groupChat": {"mentionPatterns": ["@bot", "hey bot"]}}
    if maybe(0.1):
        cfg["logging"] = {"level": pick(["info", "debug"])}
    return cfg, ids, chs, marks


def session_kinds(a, chs):
    ch = pick(list(chs) or ["whatsapp"])
    gid = pick(GIDS.get(ch, ["C0123"]))
    peer = pick(PEOPLE)
    return [f"agent:{a}:main", "main", f"agent:{a}:{ch}:direct:{peer}", f"agent:{a}:direct:{peer}",
            f"agent:{a}:{ch}:biz:direct:{peer}", f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:{ch}:channel:{gid}",
            f"agent:{a}:{ch}:group:{gid}:topic:42", f"agent:{a}:{ch}:channel:{gid}:thread:1700000000.1",
            f"agent:{a}:{ch}:group:{gid}:sender:{peer}", f"agent:{a}:cron:nightly", f"agent:{a}:cron:nightly:run:7",
            f"agent:{a}:hook:gmail:msg-1", f"agent:{a}:hook:webhook", f"agent:{a}:subagent:5b9d0e3c",
            f"agent:{a}:subagent:a:subagent:b", f"agent:{a}:{ch}:group:{gid}:subagent:x", f"agent:{a}:acp:sess-1",
            f"agent:{a}:node:phone-1", f"agent:{a}:heartbeat", "global", f"agent:{a}:webchat:tab1", f"agent:{a}:main:thread:9",
            f"{ch}:group:{gid}", "cron:nightly", "subagent:q", f"agent:{a}:global", None]


def gen_whole():
    for i in range(count):
        cfg, ids, chs, marks = whole_cfg()
        syntax, text = hand_text(cfg, marks)
        a = pick(ids)
        case(f"c12-wh-{seed}-{i:04d}", text, syntax, agent=pick([a, a, None]), session=pick(session_kinds(a, chs)),
             subagent=maybe(0.15), category="resolution")


# ------------------------------------------------------------ unknown
UNK_KEYS = ["bogus", "notes", "comment", "_comment", "//", "$schema", "x-note", "description", "enabled", "version",
            "mode", "scope", "tools", "sandbox", "docker", "id", "name", "default", "priority", "label", "Mode", "SCOPE",
            "allowlist", "denylist", "alsoDeny", "extends", "$ref", "meta", "wizard", "__proto__", "constructor", " mode",
            "image", "network", "profile", "type", "kind"]
UNK_VALS = [True, False, "x", "", 0, 1, None, [], {}, ["a"], {"a": 1}, "all"]
TOP_IGNORED = [("$schema", "https://openclaw.ai/config.schema.json"), ("meta", {"lastTouchedVersion": "2026.9.6"}),
               ("meta", {"lastTouchedAt": "2026-11-30T10:00:00Z"}), ("wizard", {"lastRunAt": "2026-11-30T10:00:00Z"}),
               ("wizard", {"lastRunVersion": "2026.9.6", "lastRunCommand": "onboard"}), ("update", {"channel": "stable"}),
               ("ui", {"seamColor": "#ff0000"}), ("diagnostics", {"enabled": False})]


def dict_paths(o, path=(), acc=None):
    acc = [] if acc is None else acc
    if isinstance(o, dict):
        acc.append(path)
        for k, v in o.items():
            dict_paths(v, path + (k,), acc)
    elif isinstance(o, list):
        for n, v in enumerate(o):
            dict_paths(v, path + (n,), acc)
    return acc


def at(o, path):
    for p in path:
        o = o[p]
    return o


def gen_unknown():
    for i in range(count):
        cfg, ids, chs, marks = whole_cfg()
        # plain-ish objects to add to: make sure the sandbox corners exist somewhere
        if maybe(0.5):
            sb = cfg["agents"].setdefault("defaults", {}).setdefault("sandbox", {})
            sb.setdefault(pick(["docker", "browser", "prune"]), {})
        paths = dict_paths(cfg)
        what = []
        for _ in range(pick([1, 1, 1, 2, 3])):
            if maybe(0.15):
                k, v = pick(TOP_IGNORED)
                cfg[k] = v
                what.append(k)
                continue
            p = pick(paths)
            o = at(cfg, p)
            k = pick(UNK_KEYS)
            if k in o:
                k = k + "X"
            o[k] = pick(UNK_VALS)
            what.append(".".join(map(str, p + (k,))))
        syntax, text = hand_text(cfg, marks)
        a = pick(ids)
        c = case(f"c12-unk-{seed}-{i:04d}", text, syntax, agent=pick([a, None]), session=pick(session_kinds(a, chs)[:12]),
                 subagent=maybe(0.1), category="invalid")


# ------------------------------------------------------------ drift
DRIFT_NAMES = ["image", "view_image", "update_plan", "sessions_search", "computer", "canvas", "secrets", "bundle-mcp",
               "mobile_ui", "heartbeat_respond", "apply_patch", "write", "suggest_task", "spawn_task", "group:openclaw",
               "group:nodes", "group:ui", "group:agents", "group:runtime", "ask_user", "skill_workshop", "get_goal"]


def drift_policy():
    p = {}
    r = rng.random()
    if r < 0.4:
        p["allow"] = sample(DRIFT_NAMES, 1, 3) + (gc.v_names(0, 2) if maybe(0.5) else [])
    elif r < 0.6:
        p["alsoAllow"] = sample(DRIFT_NAMES, 1, 2)
    if maybe(0.6):
        p["deny"] = sample(DRIFT_NAMES, 1, 2)
    if maybe(0.25):
        p["deny"] = ["write"] + p.get("deny", [])
    return p


def gen_drift():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["main", "work", "family"], ["work", "family"]])
        defaults = {"sandbox": {"mode": pick(["all", "all", "non-main", "off"])}}
        old = maybe(0.5)
        ag = {"defaults": defaults}
        ents = {a: {} for a in ids}
        picks = sample(["novnc", "names", "names", "perSession", "runtime", "mainKey", "exec", "elevated", "brnone",
                        "backend", "gpus", "bysender", "sbnames", "subnames", "profile"], 1, 4)
        cfg = {}
        for k in picks:
            tgt = defaults if maybe(0.5) else ents[pick(ids)]
            if k == "novnc":
                br = tgt.setdefault("sandbox", {}).setdefault("browser", {})
                br[pick(["enableNoVnc", "noVncEnabled", "enableNoVnc"])] = pick([True, False])
                if maybe(0.4):
                    br["enabled"] = True
            elif k == "names":
                cfg.setdefault("tools", {}).update(drift_policy())
            elif k == "sbnames":
                cfg.setdefault("tools", {})["sandbox"] = {"tools": drift_policy()}
            elif k == "subnames":
                cfg.setdefault("tools", {})["subagents"] = {"tools": drift_policy()}
            elif k == "profile":
                t = tgt.setdefault("tools", {}) if tgt is not defaults else cfg.setdefault("tools", {})
                t["profile"] = pick(gc.PROFILES)
                if maybe(0.5):
                    t.update(drift_policy())
                    if t.get("allow") and t.get("alsoAllow"):
                        del t["alsoAllow"]
            elif k == "perSession":
                tgt.setdefault("sandbox", {})["perSession"] = pick([True, False])
            elif k == "runtime":
                tgt[pick(["agentRuntime", "embeddedPi", "runtime"])] = pick([{}, {"id": "pi"}, {"type": "embedded"}])
            elif k == "mainKey":
                cfg.setdefault("session", {})["mainKey"] = pick(["main", "home", "work", "agent:main:home"])
            elif k == "exec":
                cfg.setdefault("tools", {})["exec"] = pick([{"security": "full", "ask": "off"}, {"mode": "allowlist"},
                                                            {"mode": "auto"}, {"security": "allowlist", "askFallback": "deny"},
                                                            {"mode": "full", "security": "full"}, {"host": "sandbox", "mode": "ask"}])
            elif k == "elevated":
                cfg.setdefault("tools", {})["elevated"] = pick([{"enabled": True}, {"enabled": False}, {},
                                                                {"enabled": True, "allowFrom": {"whatsapp": ["+15551230001"]}}])
            elif k == "brnone":
                tgt.setdefault("sandbox", {}).setdefault("browser", {})["network"] = pick(["none", "bridge", "openclaw-browser"])
            elif k == "backend":
                b = pick(["docker", "podman", "ssh", "openshell"])
                tgt.setdefault("sandbox", {})["backend"] = b
                if b == "ssh" and maybe(0.7):
                    tgt["sandbox"]["ssh"] = {"target": "me@host", "workspaceRoot": "/tmp/openclaw-sandboxes"}
                if b == "openshell" and maybe(0.6):
                    cfg.setdefault("plugins", {}).setdefault("entries", {})["openshell"] = {"enabled": True, "config": {}}
            elif k == "gpus":
                tgt.setdefault("sandbox", {}).setdefault("docker", {})["gpus"] = pick(["all", "device=0", " all "])
            elif k == "bysender":
                t = cfg.setdefault("tools", {}) if maybe(0.5) else ents[pick(ids)].setdefault("tools", {})
                t["toolsBySender"] = {pick(gc.SENDER_KEYS): drift_policy() for _ in range(rng.randint(1, 2))}
        if old:
            lst = []
            dflt = pick(ids) if len(ids) > 1 and maybe(0.8) else None
            for a in ids:
                e = {"id": a, **ents[a]}
                if a == dflt:
                    e["default"] = True
                lst.append(e)
            ag["list"] = lst
            if len(ids) > 1 and not dflt:
                ag["ownership"] = "explicit"
        else:
            ag["entries"] = ents
            if len(ids) > 1:
                ag["ownership"] = pick(["explicit"] * 9 + ["implicit"])
        if "tools" in cfg and maybe(0.05):
            defaults["tools"] = cfg.pop("tools")  # an old home for tools
        cfg["agents"] = ag
        syntax, text = g7["render_text"](cfg) if maybe(0.4) else ("json", json.dumps(cfg, indent=2))
        a = pick(ids)
        case(f"c12-dr-{seed}-{i:04d}", text, syntax, agent=pick([a, None]),
             session=pick([None, f"agent:{a}:main", f"agent:{a}:whatsapp:group:120363@g.us", f"agent:{a}:subagent:s",
                           f"agent:{a}:cron:c", "main"]), subagent=maybe(0.15), category="legacy")


# ------------------------------------------------------------ sesskind
def gen_sesskind():
    for i in range(count):
        ids = pick([["main"], ["main"], ["main", "work"], ["main", "work", "family"], ["work", "family"]])
        d = {"mode": pick(["off", "non-main", "all"]), "scope": pick(["session", "agent", "shared"])}
        if maybe(0.35):
            d["workspaceAccess"] = pick(["none", "ro", "rw"])
        if maybe(0.2):
            d["docker"] = {"containerPrefix": pick(["oc-", "family-", "X_"])}
        if maybe(0.1):
            d["backend"] = "podman"

        def entry(a):
            e = {}
            if maybe(0.35):
                e["sandbox"] = {k: v for k, v in (("mode", pick(["off", "non-main", "all"])),
                                                  ("scope", pick(["session", "agent", "shared"]))) if maybe(0.6)}
            if maybe(0.2):
                e["tools"] = {"sandbox": {"tools": gc.policy3(0.4, 0.4, 0.3)}}
            return e
        cfg = {"agents": gc.roster(ids, entry, {"sandbox": d})}
        if maybe(0.3):
            cfg["session"] = {k: v for k, v in (("dmScope", pick(["main", "per-peer", "per-channel-peer"])),
                                               ("scope", pick(["per-sender", "global"]))) if maybe(0.6)}
        chs = {pick(["whatsapp", "telegram", "signal", "discord"]): {}}
        a = pick(ids)
        s = pick(session_kinds(a, chs))
        if s and maybe(0.08):
            s = pick([s.upper(), " " + s + " ", s.replace(f"agent:{a}:", f"agent:{pick(ids)}:")])
        syntax, text = ("json", json.dumps(cfg)) if maybe(0.6) else g7["render_text"](cfg)
        case(f"c12-sk-{seed}-{i:04d}", text, syntax, agent=pick([None, a, a]), session=s, subagent=maybe(0.25),
             category="session-keys")


{"whole": gen_whole, "unknown": gen_unknown, "drift": gen_drift, "sesskind": gen_sesskind}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

#!/usr/bin/env python3
"""gen-conf10.py SEED N AREA > cases.jsonl: conformance round 10 (ask the oracle with oracle-batch.sh,
join with merge.py; or GEN=gen-conf10.py run-round.sh OUT SEED N AREA). Aimed at what rounds 1-9
sampled least, each area mostly valid so that resolution decides:
  override  2-4 agents, every sandbox key (mode/scope/access/root/backend/docker.*/browser.*/prune.*)
            set at the defaults and again at some agents, each agent with its own scope, asked
            for every agent with main / group / subagent keys
  sbtools   tools.sandbox.tools and agents.entries.*.tools.sandbox.tools with groups, profiles,
            wildcards, plugin names and groups, alsoAllow alone or with allow, deny over them,
            beside a global/agent profile and tools.subagents.tools
  keys      session keys of unusual shapes (channels, accounts, threads, topics, cron, hooks,
            subagent chains, unicode / very long / case-varied ids and segments) under every
            scope, non-main and dmScope, with container prefixes long and short
  roster    agents.list ordering, default flags (none, one, several, on later entries, false),
            duplicate ids (exact, case-varied, padded), ids that normalise alike, ownership,
            list entries with the agent's own sandbox/workspace, asked with and without --agent
  wsaccess  workspaceAccess x workspaceRoot x agent/default workspace paths (relative, ~, trailing
            slashes, dot segments, shared across agents) under every scope
  json5     JSON5 syntax corners around a valid sandbox config: comments everywhere, trailing
            commas, hex / Infinity / signs, escapes (\\x, \\u, surrogate pairs, line continuations,
            U+2028/2029), unquoted unicode identifier keys, duplicate keys, $include and ${VAR}
            (set, missing, escaped $${...}) in sandbox strings
  marker    agents.entries keys in any case with legacy default markers (one, several, false),
            ownership, defaults.workspace, asked by raw / lower / upper ids, long session keys
  legacy    the retired keys the load migrations rewrite (gen-configs.py's add_legacy) on top of
            the override / sbtools configs
Uses gen-configs.py's pools and gen-conf7.py's JSON5 writer (loaded without their main loops)."""
import json
import os
import sys

import gen7lib

HERE = os.path.dirname(os.path.abspath(__file__))
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

g7 = gen7lib.load(seed + 100000, count)   # gen-conf7.py's generators, this seed
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []


case = gen7lib.case_writer(out, f"conf10:{area}", tagged=True)


def as_text(cfg):
    if maybe(0.5):
        return "json", json.dumps(cfg, indent=pick([2, None]), ensure_ascii=maybe(0.3))
    return g7["render_text"](cfg)


# ------------------------------------------------------------ override
IDS = ["main", "work", "ops", "family", "a_b", "x-y", "9lives", "k2", "dot.id", "ünï", "q" * 70, "Z" * 40]
# (entries keys must match OpenClaw's agent id rule: "dot.id" and "ünï" are refused, so mostly the first 8)


def browser_val():
    return {k: v for k, v in (("enabled", pick([True, False])), ("image", pick(["b:1", "b:2", " b:3 "])),
                              ("containerPrefix", pick(["br-", "BR_", ""])), ("cdpPort", pick([9222, 9333, 1])),
                              ("vncPort", pick([5900, 5901])), ("noVncPort", pick([6080, 6081])),
                              ("headless", pick([True, False])), ("enableNoVnc" if maybe(0.05) else "headless", pick([True, False])),
                              ("allowHostControl", pick([True, False])), ("autoStart", pick([True, False])),
                              ("autoStartTimeoutMs", pick([1, 12000, 60000])), ("network", pick(["br-net", "bridge"])),
                              ("binds", pick([[], ["/srv/b:/b"], ["/srv/c:/c:ro"]])),
                              ("cdpSourceRange", pick(["172.21.0.1/32", "10.0.0.0/8"]))) if maybe(0.35)}


def sandbox_full(level):
    s = {}
    if maybe(0.85 if level == "defaults" else 0.5):
        s["mode"] = pick(["off", "non-main", "all", "all"])
    if maybe(0.6):
        s["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.5):
        s["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.3):
        s["workspaceRoot"] = pick(["~/sbx-root", "/srv/sandboxes", "rel/root", "~/", "/srv/sb/", "./x/../y", "~/a b", "~/r-" + level])
    if maybe(0.12):
        s["backend"] = pick(["docker", "podman", " Docker ", "PODMAN", "docker "])
    if maybe(0.75):
        d = {k: gc.MERGE_DOCKER[k]() for k in sample(list(gc.MERGE_DOCKER), 2, 12)}
        if maybe(0.3):
            d.update({k: v for k, v in gc.docker_ok(level).items()
                      if k not in ("binds", "network") and not k.startswith("dangerously")})
        if d.get("gpus") == "" and maybe(0.9):
            d["gpus"] = pick(["all", " all ", "device=1"])
        s["docker"] = d
    if maybe(0.35):
        s["prune"] = {k: pick([0, 1, 12, 48, 720]) for k in sample(["idleHours", "maxAgeDays"], 1, 2)}
    if maybe(0.3):
        s["browser"] = browser_val()
    return s


def key_any(a, ids, chs=()):
    ch = pick(list(chs) or ["telegram", "whatsapp", "discord", "slack"])
    return pick([None, "main", f"agent:{a}:main", f"agent:{a}:{ch}:group:G1", f"agent:{a}:{ch}:direct:+1555",
                 f"agent:{a}:subagent:s1", f"agent:{a}:cron:nightly", f"agent:{a}:hook:gmail:1", f"{ch}:group:G1",
                 f"agent:{a}:{ch}:channel:C1:thread:9", gc.key_for(a, ids)])


def gen_override():
    for i in range(count):
        ids = rng.sample(IDS[:8], rng.randint(2, 4)) if maybe(0.85) else rng.sample(IDS, rng.randint(1, 4))
        defaults = {"sandbox": sandbox_full("defaults")}
        if maybe(0.2):
            defaults["workspace"] = pick(["~/agents", "/srv/agents", "rel/ws", "~/.openclaw/ws"])

        def entry(a):
            e = {}
            if maybe(0.75):
                e["sandbox"] = sandbox_full("agent")
            if maybe(0.25):
                e["workspace"] = pick([f"~/ws-{a}", "/srv/x", "~/shared", "rel/" + a])
            if maybe(0.3):
                e["tools"] = gc.tools_ok(True)
            return e
        cfg = {"agents": gc.roster(ids, entry, defaults)}
        if maybe(0.4):
            cfg["tools"] = gc.tools_ok(False)
        origin = ""
        if area == "legacy":
            gc.add_legacy(cfg)
            origin = "legacy"
        syntax, text = as_text(cfg)
        a = pick(ids)
        case(f"c10-{area[:3]}-{seed}-{i:04d}", text, syntax, agent=pick([a, None, None]), session=key_any(a, ids),
             subagent=maybe(0.15), category="sandbox-matrix", origin=origin)


# ------------------------------------------------------------ sbtools
SBT_NAMES = gc.GROUPS + ["group:plugins", "group:FS", " Group:Web ", "group:nope", "lobster", "llm-task", "memory-core",
                         "voice-call", "bundle-mcp", "diffs", "browser", "*", " * ", "**", "exec", "READ", " write ",
                         "apply-patch", "bash", "cron", "image", "view_image", "message", "web_*", "*_list", "sessions_*",
                         "*search*", "memory_*", "*e*", "s*", "?", "exec*", "*exec", "x*", "nosuch", "canvas", "nodes",
                         "gateway", "subagents", "sessions_spawn", "agents_list", "tts", "pdf", "process", "update_plan",
                         "image_generate", "music_*", "*_generate", "group:*", "plugins", "openclaw", "feishu", "discord"]


def names(lo, hi):
    return [pick(SBT_NAMES) for _ in range(rng.randint(lo, hi))]


def sbpolicy():
    p = {}
    r = rng.random()
    if r < 0.3:
        p["alsoAllow"] = names(1, 4)
    elif r < 0.75:
        p["allow"] = names(0 if maybe(0.1) else 1, 5)
    elif r < 0.82:
        p["allow"], p["alsoAllow"] = names(1, 3), names(1, 3)  # refused or unioned, by the schema's rules
    if maybe(0.5):
        p["deny"] = names(0 if maybe(0.15) else 1, 3)
        if p.get("allow") and maybe(0.3):
            p["deny"].append(pick(p["allow"]))
    return p


def gen_sbtools():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["a", "b", "c"]])
        t = {}
        if maybe(0.4):
            t["profile"] = pick(gc.PROFILES)
        if maybe(0.4):
            t.update(gc.cpolicy())
        if maybe(0.85):
            t["sandbox"] = {"tools": sbpolicy()}
        if maybe(0.3):
            t["subagents"] = {"tools": sbpolicy()}

        def entry(a):
            e = {}
            if maybe(0.55):
                at = {}
                if maybe(0.3):
                    at["profile"] = pick(gc.PROFILES)
                if maybe(0.3):
                    at.update(gc.cpolicy())
                if maybe(0.7):
                    at["sandbox"] = {"tools": sbpolicy()}
                e["tools"] = at
            if maybe(0.3):
                e["sandbox"] = {"mode": pick(["all", "off", "non-main"])}
            return e
        d = {"sandbox": {"mode": pick(["all", "all", "non-main", "off"])}}
        cfg = {"tools": t, "agents": gc.roster(ids, entry, d)}
        if maybe(0.35):
            cfg["plugins"] = pick([{"allow": ["lobster", "llm-task"]}, {"entries": {"lobster": {"enabled": True}}},
                                   {"enabled": False}, {"deny": ["lobster"]}, {"allow": ["memory-core", "voice-call"]},
                                   {"entries": {"diffs": {"enabled": False}}}])
        syntax, text = as_text(cfg)
        a = pick(ids)
        case(f"c10-sbt-{seed}-{i:04d}", text, syntax, agent=pick([a, None]), session=key_any(a, ids),
             subagent=maybe(0.25), category="policy-layers")


# ------------------------------------------------------------ keys
SEGS = ["telegram", "TELEGRAM", "whatsapp", "discord", "slack", "signal", "matrix", "imessage", "webchat", "msteams",
        "group", "GROUP", "channel", "direct", "dm", "thread", "topic", "cron", "hook", "subagent", "SubAgent", "acp",
        "node", "heartbeat", "main", "MAIN", "global", "acct1", "-100123", "120363@g.us", "!room:matrix.org", "C0123",
        "1699999999.123", "+15551234567", "user@example.com", "ünï", "日本", "🙂", "İ", "K", "ß", "x" * 64, "y" * 100,
        "z" * 250, "", " ", "a b", "a/b", "..", "-", "_", "%20", "A" * 33, "é" * 50]


def gen_keys():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["main", "Ops-1"], ["main", "ünï" if maybe(0.1) else "k-2"]])
        ids = [x.lower() if x.isascii() else x for x in ids]
        d = {"mode": pick(["all", "all", "non-main"]), "scope": pick(["session", "session", "agent", "shared"])}
        if maybe(0.4):
            d["docker"] = {"containerPrefix": pick(["oc-", "", "P" * 40, "ü-", "x" * 63, "openclaw-sbx-", "A_"])}
        if maybe(0.15):
            d["backend"] = pick(["podman", "docker"])
        if maybe(0.2):
            d["workspaceAccess"] = pick(["ro", "rw"])
        cfg = {"agents": gc.roster(ids, lambda a: {}, {"sandbox": d})}
        if maybe(0.3):
            cfg["session"] = {k: v for k, v in (("scope", pick(["per-sender", "global"])),
                                                ("dmScope", pick(["main", "per-peer", "per-channel-peer",
                                                                  "per-account-channel-peer"]))) if maybe()}
        a = pick(ids)
        segs = [pick(SEGS) for _ in range(rng.randint(1, 6))]
        r = rng.random()
        if r < 0.55:
            pre = pick([a, a, a.upper(), " " + a, a + " ", a.title()])
            session = f"agent:{pre}:" + ":".join(segs)
        elif r < 0.7:
            session = ":".join(segs)
        elif r < 0.8:
            session = pick(["AGENT", "Agent", "agent"]) + f":{a}:" + ":".join(segs)
        else:
            session = f"agent:{a}:" + pick(["telegram:group:", "whatsapp:acct:group:", "subagent:", "cron:", "hook:",
                                            "discord:channel:", "slack:channel:C1:thread:", "subagent:x:subagent:"]) + ":".join(segs)
        if maybe(0.1):
            session = pick([" ", "\t", "", ":", "agent:", f"agent:{a}", f"agent:{a}:", "agent::x"]) if maybe(0.4) else session * 3
        case(f"c10-key-{seed}-{i:04d}", json.dumps(cfg, ensure_ascii=False), "json", agent=pick([None, None, a]),
             session=session, subagent=maybe(0.2), category="session-keys")


# ------------------------------------------------------------ roster
RIDS = ["main", "work", "Work", " work ", "WORK", "ops", "ünï", "ÜNÏ", "a_b", "a-b", "a.b", "A B", "x" * 70, "", "9", "-x-",
        "default", "agent", "main ", "Main"]


def gen_roster():
    for i in range(count):
        n = rng.randint(1, 4)
        ids = [pick(RIDS[:9] if maybe(0.7) else RIDS) for _ in range(n)]
        if maybe(0.2) and n > 1:
            ids[-1] = ids[0]  # an exact duplicate
        lst = []
        for x in ids:
            e = {"id": x}
            r = rng.random()
            if r < 0.3:
                e["default"] = True
            elif r < 0.4:
                e["default"] = False
            if maybe(0.45):
                e["sandbox"] = {k: v for k, v in (("mode", pick(["off", "all", "non-main"])),
                                                  ("scope", pick(["session", "agent", "shared"])),
                                                  ("workspaceAccess", pick(["none", "ro", "rw"]))) if maybe(0.6)}
            if maybe(0.3):
                e["workspace"] = pick(["~/ws-a", "~/ws-b", "/srv/w", "rel"])
            if maybe(0.2):
                e["tools"] = {"deny": [pick(["exec", "read", "group:fs"])]}
            if maybe(0.1):
                e["name"] = pick(["Bot", ""])
            lst.append(e)
        ag = {}
        if maybe(0.7):
            ag["defaults"] = {"sandbox": {"mode": pick(["all", "non-main", "off"])}}
        if maybe(0.85):
            ag["list"] = lst
        else:
            ag["entries"] = {}
            for e in lst:
                x = e.pop("id")
                e.pop("default", None) if maybe(0.6) else None
                ag["entries"][x] = e
        if maybe(0.35):
            ag["ownership"] = pick(["explicit", "explicit", "implicit", "auto"])
        cfg = {"agents": ag}
        a = pick(ids)
        agent = pick([None, None, a, a.strip().lower(), "nosuch", "main"])
        session = pick([None, None, "main", f"agent:{a.strip().lower()}:main", f"agent:{a}:telegram:group:1", "cron:x",
                        f"agent:{pick(ids)}:main"])
        syntax, text = as_text(cfg)
        case(f"c10-ros-{seed}-{i:04d}", text, syntax, agent=agent, session=session, subagent=maybe(0.1),
             category="resolution")


# ------------------------------------------------------------ wsaccess
WSP = ["~/ws", "~", "~/", "/srv/agents/x", "/srv/agents/x/", "relative/ws", "./rel", "../up", "/tmp/sbx-conf-home/abs",
       "~/a/../b", "~//double", "/a/./b", "~/.openclaw/workspace", "~/.openclaw/workspace-work", "~/sp ace", " ~/pad ",
       "~/ünï", "/", "."]


def gen_wsaccess():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["main", "work", "ops"]])
        d = {"mode": pick(["all", "all", "non-main", "off"]), "workspaceAccess": pick(["none", "ro", "rw"])}
        if maybe(0.6):
            d["scope"] = pick(["session", "agent", "shared"])
        if maybe(0.6):
            d["workspaceRoot"] = pick(WSP)
        defaults = {"sandbox": d}
        if maybe(0.5):
            defaults["workspace"] = pick(WSP)
        shared = pick(WSP)

        def entry(a):
            e = {}
            if maybe(0.5):
                e["workspace"] = shared if maybe(0.3) else pick(WSP)
            if maybe(0.5):
                e["sandbox"] = {k: v for k, v in (("workspaceAccess", pick(["none", "ro", "rw"])),
                                                  ("workspaceRoot", pick(WSP)), ("scope", pick(["session", "agent", "shared"])),
                                                  ("mode", pick(["all", "off"]))) if maybe(0.5)}
            if maybe(0.15):
                e["sandbox"] = dict(e.get("sandbox", {}), docker={"workdir": pick(["/w", "/workspace", "/home/u"])})
            return e
        cfg = {"agents": gc.roster(ids, entry, defaults)}
        a = pick(ids)
        syntax, text = as_text(cfg)
        case(f"c10-ws-{seed}-{i:04d}", text, syntax, agent=pick([None, a]), session=key_any(a, ids), subagent=maybe(0.15),
             category="sandbox-matrix")


# ------------------------------------------------------------ json5
def gen_json5():
    for i in range(count):
        files = {}
        lines = []
        com = lambda: pick(["", "", " /* c */ ", " // c\n", "/**/", " /* multi\nline */ ", "\n// only\n"])
        v = {"mode": pick(["'all'", '"non-main"', "'\\x61ll'", "'\\u0061ll'", '"al\\\nl"', "'off'", '"\\u006fff"']),
             "scope": pick(["'session'", '"agent"', "'sh\\x61red'", '"\\u0073ession"']),
             "workspaceAccess": pick(["'ro'", '"rw"', "'none'", "'r\\u006f'"]),
             "workspaceRoot": pick(["'~/r'", '"~/sp\\u0020ace"', "'~/\\u00fcn'", "'~/a\\\\b'", "'~/\\ud83d\\ude00'",
                                    '"${HOME}/x"', '"${SBXR}/y"', '"$${HOME}/z"', '"${MISSING_Q}"', "'~/tab\\tx'"])}
        keys = sample(list(v), 1, 4)
        body = []
        for k in keys:
            kk = pick([k, f'"{k}"', f"'{k}'", g7["j5key"](k)])
            body.append(f"{com()}{kk}{com()}:{com()}{v[k]}")
        dock = []
        if maybe(0.6):
            dock.append("pidsLimit: " + pick(["0x40", "+64", "64.", "6.4e1", "1e2", "0X10"]))
        if maybe(0.5):
            dock.append("cpus: " + pick([".5", "+1.5", "0x2", "2.", "1e0"]))
        if maybe(0.5):
            dock.append("env: {" + pick(["FOO: 'a\\u2028b'", "'B\\x41R': 'v'", "\\u0046OO: \"x\"", "ünï: 'x'",
                                         "FOO: '${SBXV}'", "FOO: '$${SBXV}'", "FOO: \"${NOPE_V}\"", "LANG: 'C',",
                                         "_X: '\\0'", "X: 'a\\\nb'"]) + "}")
        if maybe(0.3):
            dock.append("image: " + pick(["'img:\\x31'", '"${SBXI}:1"', "'i\\u006dg'"]))
        if dock:
            body.append("docker: {" + ", ".join(dock) + pick(["", ","]) + "}")
        if maybe(0.3):
            body.append("prune: {idleHours: " + pick(["0x0", "+0", "-0", "1e1", "Infinity", "NaN", "2."]) + "}")
        sb = "{" + ",".join(body) + pick(["", ",", ",\n"]) + "}"
        tools = ""
        if maybe(0.4):
            tools = ", tools: {" + pick(["allow: ['read', 'e\\x78ec',]", "deny: [\"\\u0065xec\"]", "sandbox: {tools: {allow: ['*',],},}",
                                         "profile: 'c\\u006fding'", "alsoAllow: ['group:w\\x65b']"]) + "}"
        if maybe(0.25):
            files["sb.json5"] = sb
            sb = pick(["{$include: './sb.json5'}", "{'$include': \"./sb.json5\"}", "{\"$include\": ['./sb.json5']}"])
        env = ""
        if maybe(0.4):
            env = ", env: {vars: {SBXR: '~/envroot', SBXV: 'val', SBXI: 'reg'}}"
        text = ("\ufeff" if maybe(0.05) else "") + com() + "{" + com() + f"agents: {{defaults: {{sandbox: {sb}}}}}" + tools + env + \
            pick(["", ",", ", // t\n"]) + "}" + com()
        case(f"c10-j5-{seed}-{i:04d}", text, "json5", agent=None, session=pick([None, "main", "agent:main:cron:x"]),
             subagent=maybe(0.1), files=files, category="resolution")


# ------------------------------------------------------------ marker
MKEYS = ["main", "Main", "MAIN", "work", "Work", "WORK", "ops", "Ops", "k9", "K9", "a_b", "A_B", "x-y", "X-Y"]
LONGSEG = ["x" * 200, "x" * 255, "y" * 256, "z" * 1000, "w" * 4000, "ü" * 300, "🙂" * 150, "Ab:" * 100]


def gen_marker():
    """agents.entries keys in any case with default markers (one, several, false, on any entry),
    ownership, defaults.workspace, asked by raw / lower / upper ids and long session keys"""
    for i in range(count):
        keys = []
        for k in rng.sample(MKEYS, rng.randint(1, 4)):
            if k.lower() not in [x.lower() for x in keys]:
                keys.append(k)
        entries = {}
        nmark = 0
        for k in keys:
            e = {}
            r = rng.random()
            if r < 0.35:
                e["default"] = True
                nmark += 1
            elif r < 0.45:
                e["default"] = False
            if maybe(0.3):
                e["workspace"] = pick(["~/w-" + k, "~/same", "/srv/" + k])
            if maybe(0.4):
                e["sandbox"] = {k2: v for k2, v in (("mode", pick(["off", "all", "non-main"])),
                                                    ("scope", pick(["session", "agent", "shared"])),
                                                    ("workspaceAccess", pick(["none", "ro", "rw"]))) if maybe(0.6)}
            entries[k] = e
        ag = {"entries": entries}
        if maybe(0.6):
            ag["defaults"] = {"sandbox": {"mode": pick(["all", "non-main", "off"]), "scope": pick(["session", "agent", "shared"])}}
            if maybe(0.3):
                ag["defaults"]["workspace"] = pick(["~/agents", "/srv/agents", "~/"])
        if len(keys) > 1 and (nmark != 1 or maybe(0.3)):
            ag["ownership"] = "explicit"
        cfg = {"agents": ag}
        if maybe(0.2):
            cfg["session"] = {"mainKey": pick(["main", "home"]), "scope": pick(["per-sender", "global"])}
        a = pick(keys)
        agent = pick([None, a, a.lower(), a.upper(), " " + a + " "])
        session = pick([None, None, "main", f"agent:{a}:main", f"agent:{a.lower()}:main", f"agent:{a}:telegram:group:G1",
                        f"agent:{a}:" + pick(LONGSEG), pick(LONGSEG), f"agent:{a}:subagent:" + pick(LONGSEG),
                        "agent:" + pick(LONGSEG) + ":main"])
        syntax, text = as_text(cfg)
        case(f"c10-mrk-{seed}-{i:04d}", text, syntax, agent=agent, session=session, subagent=maybe(0.15),
             category="resolution")


{"override": gen_override, "marker": gen_marker, "legacy": gen_override, "sbtools": gen_sbtools, "keys": gen_keys, "roster": gen_roster,
 "wsaccess": gen_wsaccess, "json5": gen_json5}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

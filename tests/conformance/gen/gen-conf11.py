#!/usr/bin/env python3
"""gen-conf11.py SEED N AREA > cases.jsonl: conformance round 11 (ask the oracle with oracle-batch.sh,
join with merge.py; or GEN=gen-conf11.py run-round.sh OUT SEED N AREA). Aimed at what rounds 1-10
sampled least:
  pipeline  the tool pipeline end to end with a model selected (agents.defaults.model / agent model,
            string or {primary}, odd case and shape), tools.byProvider keys of every shape (case,
            padding, provider/model, nested "/", trailing "/", "*") globally and per agent with
            profiles and alsoAllow, global allow + agent alsoAllow, group:* names unknown / mixed
            case, plugin ids and tool names, deny-wins over wildcards, tools.sandbox.tools beside the
            agent's tools and its own sandbox.tools, tools.subagents.tools, channel groups
  dockval   docker keys' types and ranges one at a time and together (memory / memorySwap strings and
            numbers, cpus fractional / zero / negative / strings, ulimits forms, pidsLimit bounds,
            tmpfs / binds / env / dns / extraHosts shapes, network none / host / custom / container:,
            readOnlyRoot, user, capDrop, gpus, setupCommand, profiles) at defaults and agent level
  nums      every numeric sandbox key (docker.pidsLimit/cpus/memory/memorySwap/ulimits, prune.*,
            browser ports and timeout, subagents.maxSpawnDepth) written in every JSON5 number form
            (hex, signs, leading / trailing dot, exponents, Infinity, NaN, -0, huge, fractions)
  inclenv   $include graphs with real files combined with ${VAR}: env.vars set in the main file or in
            an included one, ${VAR} inside included files and in $include paths, sibling keys over
            an include, arrays of includes merging, $${VAR} escapes, missing vars
  subkeys   subagent / cron / hook / thread / topic session keys under scope session / agent / shared,
            non-main, container prefixes, keys in NFC and NFD forms, fullwidth and compatibility
            characters, keys right at and around the slug / container-name length limits
Uses gen-configs.py's pools and gen-conf7.py's JSON5 writer (loaded without their main loops)."""
import json
import os
import sys

import gen7lib
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

g7 = gen7lib.load(seed + 110000, count)   # gen-conf7.py's generators, this seed
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []


case = gen7lib.case_writer(out, f"conf11:{area}")


def as_text(cfg):
    if maybe(0.5):
        return "json", json.dumps(cfg, indent=pick([2, None]), ensure_ascii=maybe(0.3))
    return g7["render_text"](cfg)


# ------------------------------------------------------------ pipeline
MODELS = ["openai/gpt-5", "OpenAI/GPT-5", "openai/gpt-5.2", " openai/gpt-5 ", "anthropic/claude-opus-4-6",
          "Anthropic/Claude-Opus-4-6", "openrouter/anthropic/claude-3", "ollama/llama3:8b", "google/gemini-2.5-pro",
          "gpt-5", "claude-opus-4-6", "xai/grok-4", "openai/", "/gpt-5"]
BP_KEYS = ["openai", "OpenAI", "OPENAI", " openai ", "openai/gpt-5", "OpenAI/GPT-5", "openai/gpt-5.2", "openai/",
           "anthropic", "anthropic/claude-opus-4-6", "Anthropic/Claude-Opus-4-6", "openrouter", "openrouter/anthropic",
           "openrouter/anthropic/claude-3", "anthropic/claude-3", "ollama", "ollama/llama3:8b", "google",
           "google/gemini-2.5-pro", "*", "gpt-5", "xai", "xai/grok-4", "/gpt-5", ""]
PNAMES = gc.GROUPS + ["group:plugins", "Group:FS", "GROUP:RUNTIME", " group:Web ", "group:nope", "group:", "group:*",
                      "group:fs ", "group:plugin", "lobster", "llm-task", "memory-core", "voice-call", "bundle-mcp", "diffs",
                      "LOBSTER", " llm-task ", "lobster*", "*task", "*", " * ", "**", "*_*", "exec", "Exec", "READ", "write",
                      "apply-patch", "Apply-Patch", "bash", "BASH", "cron", "CRON", "image", "view_image", "message", "web_*",
                      "WEB_*", "*_list", "sessions_*", "*search*", "memory_*", "s*", "?", "exec?", "e*c", "nosuch", "canvas",
                      "nodes", "gateway", "subagents", "sessions_spawn", "agents_list", "tts", "pdf", "process",
                      "update_plan", "image_generate", "*_generate", "plugins", "openclaw", "feishu", "discord", "x_search"]


def plist(lo, hi):
    return [pick(PNAMES) for _ in range(rng.randint(lo, hi))]


def ppol(also_p=0.3, allow_p=0.45, deny_p=0.5, conflict_p=0.01, profile_p=0.0):
    p = {}
    r = rng.random()
    if r < also_p:
        p["alsoAllow"] = plist(1, 3)
    elif r < also_p + allow_p:
        p["allow"] = plist(0 if maybe(0.08) else 1, 4)
    elif r < also_p + allow_p + conflict_p:
        p["allow"], p["alsoAllow"] = plist(1, 2), plist(1, 2)
    if maybe(deny_p):
        p["deny"] = plist(0 if maybe(0.1) else 1, 3)
        if p.get("allow") and maybe(0.35):
            p["deny"].append(pick(p["allow"]))
    if maybe(profile_p):
        p["profile"] = pick(gc.PROFILES + (["Coding", "nosuch"] if maybe(0.05) else []))
    return p


def model_val():
    m = pick(MODELS)
    return pick([m, m, {"primary": m}, {"primary": m, "fallbacks": [pick(MODELS)]}])


def gen_pipeline():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["main", "work", "ops"]])
        ch = pick(["telegram", "whatsapp"])  # (discord/slack groups live under guilds/channels)
        gid = pick(["-100123", "120363@g.us", "C01", "G1"])
        t = {}
        if maybe(0.5):
            t["profile"] = pick(gc.PROFILES)
        t.update(ppol())
        if maybe(0.7):
            t["byProvider"] = {pick(BP_KEYS): ppol(profile_p=0.5) for _ in range(rng.randint(1, 3))}
        if maybe(0.6):
            t["sandbox"] = {"tools": ppol()}
        if maybe(0.4):
            t["subagents"] = {"tools": ppol()}

        def entry(a):
            e = {}
            if maybe(0.65):
                at = {}
                if maybe(0.4):
                    at["profile"] = pick(gc.PROFILES)
                at.update(ppol(also_p=0.45))
                if maybe(0.4):
                    at["byProvider"] = {pick(BP_KEYS): ppol(profile_p=0.5) for _ in range(rng.randint(1, 2))}
                if maybe(0.45):
                    at["sandbox"] = {"tools": ppol()}
                e["tools"] = at
            if maybe(0.35):
                e["model"] = model_val()
            if maybe(0.3):
                e["sandbox"] = {"mode": pick(["all", "off", "non-main"])}
            return e
        d = {"sandbox": {"mode": pick(["all", "all", "non-main", "off"])}}
        if maybe(0.7):
            d["model"] = model_val()
        cfg = {"tools": t, "agents": gc.roster(ids, entry, d)}
        if maybe(0.4):
            grp = {}
            for k in sample([gid, "*"], 1, 2):
                grp[k] = {"tools": ppol()}
            cfg["channels"] = {ch: {"groups": grp}}
        if maybe(0.4):
            cfg["plugins"] = pick([{"allow": ["lobster", "llm-task"]}, {"entries": {"lobster": {"enabled": True}}},
                                   {"enabled": False}, {"deny": ["lobster"]}, {"allow": ["memory-core", "voice-call"]},
                                   {"entries": {"llm-task": {"enabled": True}, "diffs": {"enabled": True}}},
                                   {"allow": ["lobster"], "deny": ["lobster"]}])
        syntax, text = as_text(cfg)
        a = pick(ids)
        session = pick([None, f"agent:{a}:main", f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:{ch}:group:{gid}:topic:4",
                        f"agent:{a}:subagent:x", f"agent:{a}:{ch}:group:{gid}:subagent:q", f"agent:{a}:cron:j",
                        f"agent:{a}:{ch}:direct:+1555", f"agent:{a}:hook:gmail:1"])
        case(f"c11-pip-{seed}-{i:04d}", text, syntax, agent=pick([a, None]), session=session, subagent=maybe(0.2),
             category="policy-layers")


# ------------------------------------------------------------ dockval
DV = {
    "memory": ["1g", "512m", "512M", "1G", "1.5g", "0.5g", "1024", "1024b", "1k", "1kb", "1KB", "2t", "1p", "", " ", "1 g",
               " 512m ", "-1", "-1g", "0", "0m", "1e3", "0x10", "g", "m1", "1gb", "1GiB", "1mi", "abc", 0, 1, -1, 512, 1.5,
               6291456, 2 ** 53, True, None, [], {}, "999999999999g"],
    "memorySwap": ["1g", "-1", -1, -2, 0, "0", "2g", "unlimited", "", 1.5, 2147483648, "1.5g", True, None, "-1g"],
    "cpus": [0.5, 1, 2, 0.01, 0.001, 0, -1, -0.5, 1.5, 64, 1024, 1e9, "1", "0.5", "", "1.5", " 2 ", "x", True, None, [1]],
    "pidsLimit": [1, 0, -1, 64, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, "64", "", -0, 1e3, None, True, "unlimited"],
    "ulimits": [{"nofile": 1024}, {"nofile": "1024"}, {"nofile": "1024:2048"}, {"nofile": {"soft": 1, "hard": 2}},
                {"nofile": {"soft": 2, "hard": 1}}, {"nofile": {"soft": -1}}, {"nofile": -1}, {"nofile": 0},
                {"nofile": "unlimited"}, {"nofile": "x"}, {"nofile": ""}, {"nofile": 1.5}, {"nofile": {"soft": 1.5}},
                {"nofile": {"hard": 9}}, {"nofile": {}}, {"nofile": {"soft": 1, "hard": 2, "x": 3}}, {"NOFILE": 5},
                {"": 1}, {" nproc ": 3}, {"nproc": [1, 2]}, {"nproc": None}, {"core": True}, [], "nofile=1", {"a-b": 1},
                {"nofile": "1024:"}, {"nofile": ":2"}, {"nofile": "1:2:3"}, {"nofile": " 7 "}, {"nofile": 2 ** 53}],
    "tmpfs": [[], ["/tmp"], ["/tmp:size=64m"], ["/tmp:rw,noexec,nosuid,size=65536k"], ["rel"], [""], [" /tmp "],
              ["/tmp", "/tmp"], "/tmp", [5], [None], ["/run:mode=1777", "/var/tmp"], ["/tmp:"], [":size=1"]],
    "binds": [[], ["/data:/data"], ["/data:/data:ro"], ["/data"], ["/data:"], [":/data"], ["rel:/x"], ["/a:/b:c:d"],
              ["/srv/a:/workspace"], ["/srv/a:/workspace/sub:ro"], "/data:/data", [5], ["/data:/data:RO"],
              ["/data:/data:ro,z"], ["/srv/x:/etc"], ["/etc:/x"], ["/proc:/p"], [" /data:/data "], ["/data:rel"]],
    "env": [{}, {"FOO": "x"}, {"foo": "x"}, {"_": "x"}, {"1A": "x"}, {"A-B": "x"}, {"A B": "x"}, {"": "x"}, {"A": ""},
            {"A": "a\nb"}, {"A": "a\rb"}, {"A": 5}, {"A": True}, {"A": None}, {"A": ["x"]}, {"LANG": "en_US.UTF-8"},
            {"Ä": "x"}, {"A": "x" * 5000}, {"A=B": "c"}, {"A": "tab\tx"}, {"A": "\u2028"}, [], "FOO=x"],
    "dns": [[], ["1.1.1.1"], ["::1"], ["not-an-ip"], ["1.1.1"], ["256.1.1.1"], [""], [" 1.1.1.1 "], "1.1.1.1", [5],
            ["8.8.8.8", "fe80::1%eth0"], ["0.0.0.0"], ["1.1.1.1"] * 5],
    "extraHosts": [[], ["a:1.2.3.4"], ["a=1.2.3.4"], ["a:host-gateway"], ["a"], [":1.2.3.4"], ["a:"], ["h:::1"],
                   ["a:b:c"], "a:1.2.3.4", [5], [" a:1.2.3.4 "], ["a:not-ip"]],
    "network": ["none", "NONE", " none ", "bridge", "host", "HOST", " host ", "Host", "my-net", "", " ", "container:x",
                "container:", "CONTAINER:x", "default", "host:x", "hostx", "nat", 5, None, True, "none\n"],
    "readOnlyRoot": [True, False, "true", 1, 0, None, "yes"],
    "user": ["1000", "1000:1000", "0", "0:0", "root", "nobody:nogroup", "", " ", "u:g:x", ":1000", "1000:", "-1", 1000,
             0, None, "ünï"],
    "capDrop": [[], ["ALL"], ["all"], ["NET_RAW"], ["CAP_NET_RAW"], ["net_raw"], ["bogus"], [""], "ALL", [5],
                ["ALL", "ALL"], [" NET_RAW "]],
    "gpus": ["all", " all ", "", " ", "device=0", "2", 2, None, "ALL", "device=0,1"],
    "setupCommand": ["echo a", ["echo a", "echo b"], [], [""], "", " x ", ["a", 5], 5, None, ["a\nb", "c"]],
    "image": ["img:1", "", " ", " img ", "IMG", "a" * 300, 5, None, "img\n"],
    "containerPrefix": ["oc-", "", " ", "x" * 70, "A_", "ü-", 5, None, "a/b", "a b"],
    "workdir": ["/work", "", "rel", "/", " /w ", "~/w", 5, None, "/a b", "/w/"],
    "seccompProfile": ["default", "unconfined", "UNCONFINED", " unconfined ", "/s.json", "", 5, None],
    "apparmorProfile": ["docker-default", "unconfined", "Unconfined", "", 5, None],
    "dangerouslyAllowContainerNamespaceJoin": [True, False, "true", None],
    "dangerouslyAllowExternalBindSources": [True, False, 1],
    "dangerouslyAllowReservedContainerTargets": [True, False, "yes"],
}


def dock_vals(n_lo, n_hi):
    return {k: pick(DV[k]) for k in sample(list(DV), n_lo, n_hi)}


def gen_dockval():
    for i in range(count):
        ids = pick([["main"], ["main"], ["main", "work"]])
        d = {"mode": pick(["all", "all", "non-main", "off"])}
        if maybe(0.5):
            d["scope"] = pick(["session", "agent", "shared"])
        if maybe(0.1):
            d["backend"] = pick(["podman", "docker", "ssh"])
        d["docker"] = dock_vals(1, 1 if maybe(0.5) else 5)

        def entry(a):
            if a != "main" and maybe(0.7) or maybe(0.2):
                s = {"docker": dock_vals(1, 3)}
                if maybe(0.4):
                    s["scope"] = pick(["session", "agent", "shared"])
                return {"sandbox": s}
            return {}
        cfg = {"agents": gc.roster(ids, entry, {"sandbox": d})}
        syntax, text = as_text(cfg)
        a = pick(ids)
        case(f"c11-dv-{seed}-{i:04d}", text, syntax, agent=pick([a, None]),
             session=pick([None, f"agent:{a}:main", f"agent:{a}:telegram:group:1"]), subagent=maybe(0.1),
             category="docker")


# ------------------------------------------------------------ nums
NUMS = ["0", "1", "-1", "+1", "0x10", "0X1f", "+0x10", "-0x1", ".5", "5.", "-.5", "+.5", "1e2", "1E+2", "1e-2", "2.5e1",
        "-0", "+0", "0.0", "-0.0", "Infinity", "-Infinity", "+Infinity", "NaN", "-NaN", "1e400", "9007199254740993",
        "2147483647", "2147483648", "4294967296", "1.0", "64", "64.0", "6.4e1", "0x40", "100", "0.001", "1e-400",
        "24", "7", "9222", "65535", "65536", "12000", "0.5", "3", "1.5"]
NUM_KEYS = [("docker", "pidsLimit"), ("docker", "cpus"), ("docker", "memory"), ("docker", "memorySwap"),
            ("docker", "ulimits", "nofile"), ("docker", "ulimits", "nproc", "soft"), ("docker", "ulimits", "nproc", "hard"),
            ("prune", "idleHours"), ("prune", "maxAgeDays"), ("browser", "cdpPort"), ("browser", "vncPort"),
            ("browser", "noVncPort"), ("browser", "autoStartTimeoutMs")]


def gen_nums():
    for i in range(count):
        ids = pick([["main"], ["main", "work"]])
        marks = {}
        d = {"mode": pick(["all", "all", "non-main"])}
        if maybe(0.3):
            d["scope"] = pick(["session", "agent", "shared"])

        def put(sb, path):
            o = sb
            for p in path[:-1]:
                o = o.setdefault(p, {})
                if not isinstance(o, dict):
                    return
            m = f"@@N{len(marks)}@@"
            marks[m] = pick(NUMS)
            o[path[-1]] = m
        for path in rng.sample(NUM_KEYS, rng.randint(1, 4)):
            put(d, path)
        defaults = {"sandbox": d}
        if maybe(0.25):
            m = f"@@N{len(marks)}@@"
            marks[m] = pick(NUMS)
            defaults["subagents"] = {"maxSpawnDepth": m}

        def entry(a):
            if a != "main" and maybe(0.6):
                s = {}
                for path in rng.sample(NUM_KEYS, rng.randint(1, 2)):
                    put(s, path)
                if maybe(0.4):
                    s["scope"] = pick(["session", "agent", "shared"])
                return {"sandbox": s}
            return {}
        cfg = {"agents": gc.roster(ids, entry, defaults)}
        syntax, text = g7["render_text"](cfg) if maybe(0.5) else ("json5", json.dumps(cfg, indent=2))
        for m, v in marks.items():
            text = text.replace(json.dumps(m), v).replace("'" + m + "'", v)
        a = pick(ids)
        case(f"c11-num-{seed}-{i:04d}", text, "json5", agent=pick([a, None]), session=pick([None, f"agent:{a}:main"]),
             category="docker")


# ------------------------------------------------------------ inclenv
def gen_inclenv():
    for i in range(count):
        files = {}
        vars_ = {"SBM": pick(["all", "non-main", "off", "all", "bogus" if maybe(0.1) else "all"]), "SBS": pick(["session", "agent", "shared"]),
                 "SBI": pick(["img:1", "", "reg/x:${SBS}"]), "SBF": pick(["sb.json5", "./sb.json5", "nope.json5", "sub/sb.json5"]),
                 "SBR": pick(["~/r", "/srv/r", "rel"])}
        sbfile = {}
        for k, v in (("mode", pick(["${SBM}", "all", "${SBM}", "$${SBM}" if maybe(0.2) else "off", "${MISS_1}" if maybe(0.2) else "non-main"])),
                     ("scope", pick(["${SBS}", "agent", "${SBS}", "${SBS}${SBS}" if maybe(0.1) else "session"])),
                     ("workspaceRoot", pick(["${SBR}/x", "${HOME}/w", "~/w", "$${HOME}"])),
                     ("docker", pick([{"image": "${SBI}"}, {"env": {"V": "${SBS}", "W": "$${SBS}"}}, {"network": "${SBN}" if maybe(0.2) else "none"},
                                      {"binds": ["${SBR}:/r"]}]))):
            if maybe(0.55):
                sbfile[k] = v
        where_vars = pick(["main", "main", "included", "none", "both"])
        fname = pick(["sb.json5", "sub/sb.json5"])
        files[fname] = json.dumps(sbfile) if maybe(0.5) else g7["render_text"](sbfile)[1]
        inc = pick([f"./{fname}", fname, "${SBF}" if fname == "sb.json5" else f"./{fname}", [f"./{fname}"],
                    [f"./{fname}", "./more.json5"], "./nope.json5" if maybe(0.1) else f"./{fname}"])
        if isinstance(inc, list) and "./more.json5" in inc:
            files["more.json5"] = json.dumps({pick(["mode", "scope", "workspaceAccess"]): pick(["all", "agent", "ro"])})
        sb = {"$include": inc}
        if maybe(0.4):
            sb[pick(["mode", "scope", "workspaceAccess"])] = pick(["off", "session", "rw", "${SBM}"])
        if fname.startswith("sub/") and maybe(0.4):
            files["sub/inner.json5"] = json.dumps({"docker": {"image": "${SBI}", "pidsLimit": 9}})
            files[fname] = json.dumps(dict(sbfile, **{"$include": pick(["./inner.json5", "inner.json5", "../sub/inner.json5"])}))
        cfg = {"agents": {"defaults": {"sandbox": sb}}}
        if where_vars in ("main", "both"):
            cfg["env"] = {"vars": {k: v for k, v in vars_.items() if maybe(0.8)}} if maybe(0.8) else \
                {k: v for k, v in vars_.items() if maybe(0.8)}
        if where_vars in ("included", "both"):
            files["env.json5"] = json.dumps({"vars": {k: v for k, v in vars_.items() if maybe(0.8)}})
            cfg["env"] = {"$include": "./env.json5"} if where_vars == "included" else dict(cfg["env"], **{"$include": "./env.json5"}) \
                if isinstance(cfg.get("env"), dict) else {"$include": "./env.json5"}
        if maybe(0.3):
            cfg["tools"] = pick([{"$include": "./tools.json5"}, {"sandbox": {"tools": {"allow": ["${SBT}"]}}}])
            files["tools.json5"] = json.dumps({"deny": ["${SBT}"]})
            env = cfg.setdefault("env", {})
            env.setdefault("vars", {})["SBT"] = pick(["exec", "group:fs", "*", ""])
        syntax, text = as_text(cfg)
        case(f"c11-inc-{seed}-{i:04d}", text, syntax, session=pick([None, "main", "agent:main:cron:x"]),
             files=files, category="resolution")


# ------------------------------------------------------------ subkeys
def nfd(s):
    return unicodedata.normalize("NFD", s)


UNI = ["café", nfd("café"), "ÅNGSTRÖM", nfd("Ångström"), "ｆｕｌｌ", "ﬁle", "Ⅻ", "K", "İstanbul", "straße", "ΣΑΣ", "日本",
       "🙂", "a\u200bb", "\u00a0x", "x\u0301", "é" * 30, "ǅ", "ŉ"]
PARTS = ["x" * n for n in (30, 31, 32, 33, 40, 48, 50, 60, 63, 64, 65, 100, 200)] + ["ab:" * 20, "A" * 64, "-" * 40, "_" * 40]


def gen_subkeys():
    for i in range(count):
        ids = pick([["main"], ["main", "work"]])
        d = {"mode": pick(["all", "all", "non-main"]), "scope": pick(["session", "agent", "shared", "agent"])}
        if maybe(0.5):
            d["docker"] = {"containerPrefix": pick(["oc-", "", "openclaw-sbx-", "P" * 20, "x" * 40, "ü-", "Abc_"])}
        if maybe(0.15):
            d["backend"] = "podman"
        if maybe(0.2):
            d["workspaceAccess"] = pick(["ro", "rw"])
        cfg = {"agents": gc.roster(ids, lambda a: {"sandbox": {"scope": pick(["session", "agent", "shared"])}} if maybe(0.3) else {},
                                   {"sandbox": d})}
        if maybe(0.2):
            cfg["session"] = {"dmScope": pick(["main", "per-peer", "per-channel-peer"])}
        a = pick(ids)
        seg = pick(UNI + PARTS) if maybe(0.7) else pick(UNI) + pick(PARTS)
        kind = pick(["subagent:{s}", "subagent:{s}:subagent:{s}", "cron:{s}", "cron:{s}:run:1", "hook:gmail:{s}", "hook:{s}",
                     "telegram:group:{s}:topic:{s}", "slack:channel:{s}:thread:{s}", "discord:channel:{s}:thread:1",
                     "whatsapp:group:{s}", "{s}", "main:thread:{s}", "acp:{s}", "telegram:direct:{s}",
                     "telegram:group:{s}:subagent:{s}"])
        rest = kind.format(s=seg)
        session = pick([f"agent:{a}:{rest}", f"agent:{a}:{rest}", rest, f"agent:{a.upper()}:{rest}"])
        case(f"c11-sk-{seed}-{i:04d}", json.dumps(cfg, ensure_ascii=maybe(0.3)), "json", agent=pick([None, a]),
             session=session, subagent=maybe(0.25), category="session-keys")


{"pipeline": gen_pipeline, "dockval": gen_dockval, "nums": gen_nums, "inclenv": gen_inclenv, "subkeys": gen_subkeys}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

#!/usr/bin/env python3
"""gen-conf13.py SEED N AREA > cases.jsonl: conformance round 13 (ask the oracle with oracle-batch.sh,
join with merge.py; or GEN=gen-conf13.py run-round.sh OUT SEED N AREA). Aimed at what rounds 1-12
sampled least (measured on the corpus of 11,616 cases, 6,483 resolved: allow + alsoAllow + deny of
tools.sandbox.tools split across the global and the agent copy 0 resolved, workspaceRoot with
`${VAR}` 8, `$include` with `${VAR}` 27, `a*b` globs 47, mainKey under non-main 123,
session.scope global 109, webchat / heartbeat / node / acp / cron-run keys < 40 each):
  sbsplit   the sandbox tool policy's three lists each taken from the agent's or the global
            tools.sandbox.tools (`[]` included), beside global and per-agent allow / alsoAllow / deny,
            per-agent tools.profile vs the global one, the global or the agent's alsoAllow as the
            profile's addition, tools.exec / tools.fs at either level (implicit grants),
            tools.subagents.tools, asked from main, group and subagent keys with mode all / non-main
  names     one tool-name corner at a random layer (global, agent, byProvider, sandbox, subagents,
            channel group): globs (`*`, `exec*`, `*_web`, `web_*`, `*search*`, `a*b`, `**`, regex
            characters), case and white space (tabs, NBSP, padding), aliases, plugin ids and names,
            `group:plugins`, unknown groups
  mainness  sandbox.mode non-main with every way a session can be the main one: session.mainKey
            (case, padding, `agent:` prefixed, odd characters), session.scope per-sender / global,
            dmScope, agent-level mode, asked with the aliases (`main`, the mainKey, `global`,
            `agent:<id>:<mainKey>`, re-cased, padded, thread suffixes, direct keys); scope shared
            with slugs of odd keys
  wsroot    workspaceRoot (defaults and agent) with `~`, `~/`, `${HOME}`, `${VAR}` from env.vars,
            `$${VAR}`, dot segments, the sandbox block in an `$include` file with `${VAR}`s in it and in
            its path, x scope x workspaceAccess x agent workspaces
  keys      session keys with unusual channels (webchat, custom plugin channels, re-cased, dashed),
            thread / topic / sender suffixes, cron / cron run / hook / subagent / acp / node /
            heartbeat keys, under channel group tool policies the keys' group ids match or not
Uses gen-configs.py's pools and gen-conf7.py's JSON5 writer (loaded without their main loops)."""
import json
import sys

import gen7lib

seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

g7 = gen7lib.load(seed + 130000, count)
gc = g7["gc"]
rng = g7["rng"]
pick, maybe, sample = gc.pick, gc.maybe, gc.sample
out = []
case = gen7lib.case_writer(out, f"conf13:{area}")

PLUGINS = ["memory-core", "lobster", "llm-task", "voice-call", "diffs", "bundle-mcp", "openshell", "my-plugin",
           "group:plugins", "Group:Plugins", " group:plugins "]
GLOBS = ["*", "exec*", "*_web", "web_*", "*search*", "a*b", "s*s", "*_*", "**", "*.*", "e*c", "sessions_*",
         "*_generate", "memory_*", "*list", "r*", "*e", "re?d", "ex.c", "(exec)", "[re]ad", "exec+", "^exec$",
         "ex\\ec", "*|*", "*$", "group:*", "sess*ns_*", "*o*o*", "*ead", "w*e", "image*", "*image*", "view_*"]
CASES = ["EXEC", "Exec", " exec ", "\texec", "exec\n", "READ", " Read\t", "\u00a0write", "Write\u00a0", "BASH", "Bash",
         " bash ", "APPLY-PATCH", "Apply_Patch", "apply-patch", "GROUP:FS", "Group:Runtime", " group:web ",
         "group: fs", "group :fs", "SESSIONS_*", "*_LIST", "Web_*", "IMAGE", "View_Image", "MESSAGE", "Browser",
         "\u3000exec", "exec\ufeff", "e\u0301xec"]
UNKNOWN = ["group:nope", "group:", "group", "nosuch", "", "  ", "tool.dot", "x-y", "mcp__srv__t", "whatsapp_login",
           "update_plan", "image", "spawn_task", "canvas", "cron"]


def name():
    r = rng.random()
    if r < 0.35:
        return pick(gc.CORE)
    if r < 0.5:
        return pick(gc.ALLGROUPS)
    if r < 0.65:
        return pick(GLOBS)
    if r < 0.78:
        return pick(CASES)
    if r < 0.9:
        return pick(PLUGINS)
    return pick(UNKNOWN + gc.CHANNELS[:6])


def names(lo, hi):
    return [name() for _ in range(rng.randint(lo, hi))]


def lst(lo=0, hi=4):
    return [] if maybe(0.15) else names(max(lo, 1) if lo else 0, hi)


def policy(allow_p=0.5, deny_p=0.5, also_p=0.4):
    """allow / alsoAllow / deny: never a non-empty allow with a non-empty alsoAllow (the schema refuses it)"""
    p = {}
    if maybe(allow_p):
        p["allow"] = lst()
    if maybe(also_p):
        p["alsoAllow"] = lst() if not p.get("allow") else []
    if maybe(deny_p):
        p["deny"] = lst()
    return p


def sess_keys(a, ids, chs=("whatsapp", "telegram")):
    ch = pick(list(chs))
    return [None, "main", f"agent:{a}:main", f"agent:{a}:{ch}:group:g1", f"agent:{a}:{ch}:group:g1:topic:7",
            f"agent:{a}:subagent:s1", f"agent:{a}:subagent:s1:subagent:s2", f"agent:{a}:cron:nightly",
            f"agent:{a}:{ch}:direct:+15551230001", f"agent:{pick(ids)}:main"]


def render(cfg):
    if maybe(0.5):
        return "json", json.dumps(cfg, indent=2, ensure_ascii=False)
    return g7["render_text"](cfg)


def roster(ids, entry, defaults):
    return gc.roster(ids, entry, defaults)


# ------------------------------------------------------------ sbsplit
def gen_sbsplit():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["main", "work", "kids"], ["work", "kids"]])
        mode = pick(["all", "all", "non-main"])
        defaults = {"sandbox": {"mode": mode}}
        if maybe(0.3):
            defaults["sandbox"]["workspaceAccess"] = pick(["none", "ro", "rw"])
        tools = {}
        gsb = {}
        for k in ("allow", "alsoAllow", "deny"):
            if maybe(0.5):
                gsb[k] = lst()
        if gsb.get("allow") and gsb.get("alsoAllow"):
            gsb[pick(["allow", "alsoAllow"])] = []
        if gsb or maybe(0.2):
            tools["sandbox"] = {"tools": gsb}
        if maybe(0.5):
            tools["profile"] = pick(gc.PROFILES)
        if maybe(0.5):
            tools.update(policy(0.4, 0.4, 0.4))
        if maybe(0.2):
            tools["exec"] = pick([{}, {"host": "sandbox"}, {"security": "allowlist"}])
        if maybe(0.2):
            tools["fs"] = pick([{}, {"workspaceOnly": True}])
        if maybe(0.25):
            tools["subagents"] = {"tools": policy(0.4, 0.5, 0.4)}
        if maybe(0.1):
            tools["byProvider"] = {pick(["openai", "anthropic", "openai/gpt-5.2"]): policy(0.4, 0.4, 0.3) |
                                   ({"profile": pick(gc.PROFILES)} if maybe(0.4) else {})}

        def entry(a):
            e = {}
            t = {}
            asb = {}
            for k in ("allow", "alsoAllow", "deny"):
                if maybe(0.45):
                    asb[k] = lst()
            if asb.get("allow") and asb.get("alsoAllow"):
                asb[pick(["allow", "alsoAllow"])] = []
            if asb or maybe(0.1):
                t["sandbox"] = {"tools": asb}
            if maybe(0.4):
                t["profile"] = pick(gc.PROFILES)
            if maybe(0.4):
                t.update(policy(0.3, 0.4, 0.5))
            if maybe(0.15):
                t["exec"] = pick([{}, {"host": "sandbox"}])
            if maybe(0.15):
                t["fs"] = {}
            if t:
                e["tools"] = t
            if maybe(0.3):
                e["sandbox"] = {"mode": pick(["all", "non-main", "off"])}
            if maybe(0.2):
                e["model"] = pick(["openai/gpt-5.2", "anthropic/claude-opus-4-6"])
            return e
        cfg = {"agents": roster(ids, entry, defaults)}
        if tools:
            cfg["tools"] = tools
        if maybe(0.3):
            cfg["channels"] = {"whatsapp": {"groups": {pick(["g1", "*"]): {"tools": policy(0.5, 0.5, 0.3)}}}}
        if maybe(0.15):
            cfg["plugins"] = {"allow": sample(["memory-core", "lobster", "llm-task", "voice-call"], 1, 2)}
        syntax, text = render(cfg)
        a = pick(ids)
        case(f"c13-sb-{seed}-{i:04d}", text, syntax, agent=pick([a, a, None]), session=pick(sess_keys(a, ids)),
             subagent=maybe(0.1))


# ------------------------------------------------------------ names
def gen_names():
    for i in range(count):
        ids = pick([["main"], ["main", "work"]])
        a = pick(ids)
        defaults = {"sandbox": {"mode": pick(["all", "all", "non-main", "off"])}}
        if maybe(0.3):
            defaults["model"] = pick(["openai/gpt-5.2", "anthropic/claude-opus-4-6"])
        cfg = {}
        ents = {x: {} for x in ids}
        for _ in range(rng.randint(1, 3)):
            layer = pick(["global", "agent", "sandbox", "agentsandbox", "subagents", "byProvider", "group", "profile"])
            pol = {}
            key = pick(["allow", "alsoAllow", "deny", "deny", "allow"])
            pol[key] = sample(GLOBS + CASES + PLUGINS + UNKNOWN, 1, 3) + (names(0, 2) if maybe(0.5) else [])
            if maybe(0.3):
                k2 = pick([k for k in ("allow", "deny") if k != key] or ["deny"])
                pol[k2] = names(0, 3)
            if pol.get("allow") and pol.get("alsoAllow"):
                pol["alsoAllow"] = []
            if layer == "global":
                cfg.setdefault("tools", {}).update(pol)
            elif layer == "agent":
                ents[a].setdefault("tools", {}).update(pol)
            elif layer == "sandbox":
                cfg.setdefault("tools", {})["sandbox"] = {"tools": pol}
            elif layer == "agentsandbox":
                ents[a].setdefault("tools", {})["sandbox"] = {"tools": pol}
            elif layer == "subagents":
                cfg.setdefault("tools", {})["subagents"] = {"tools": pol}
            elif layer == "byProvider":
                defaults["model"] = pick(["openai/gpt-5.2", "anthropic/claude-opus-4-6"])
                cfg.setdefault("tools", {})["byProvider"] = {pick(["openai", "anthropic", "OpenAI", "openai/gpt-5.2"]): pol}
            elif layer == "group":
                cfg["channels"] = {"telegram": {"groups": {pick(["-100123", "*"]): {"tools": pol}}}}
            else:
                t = cfg.setdefault("tools", {}) if maybe(0.5) else ents[a].setdefault("tools", {})
                t["profile"] = pick(gc.PROFILES)
                t["alsoAllow"] = pol.get("allow") or pol.get("alsoAllow") or names(1, 2)
                t.pop("allow", None)
        for x in ids:
            t = ents[x].get("tools", {})
            if t.get("allow") and t.get("alsoAllow"):
                t["alsoAllow"] = []
        t = cfg.get("tools", {})
        if t.get("allow") and t.get("alsoAllow"):
            t["alsoAllow"] = []
        if maybe(0.2):
            cfg["plugins"] = {"allow": sample(["memory-core", "lobster", "llm-task", "voice-call", "diffs"], 1, 3)}
        cfg["agents"] = roster(ids, lambda x: ents[x], defaults)
        syntax, text = render(cfg)
        case(f"c13-nm-{seed}-{i:04d}", text, syntax, agent=pick([a, None]),
             session=pick([None, "main", f"agent:{a}:main", f"agent:{a}:telegram:group:-100123",
                           f"agent:{a}:telegram:group:-100123:topic:9", f"agent:{a}:subagent:x", f"agent:{a}:cron:c"]),
             subagent=maybe(0.1))


# ------------------------------------------------------------ mainness
MAINKEYS = ["main", "home", "Main", " work ", "HOME", "global", "agent:main:home", "agent:work:x", "a:b", "ünï", "x y",
            "", " ", "main:thread:1", "direct", "cron", "subagent", "MAIN", "work"]


def gen_mainness():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["work"], ["main", "work", "ops"]])
        d = {"mode": "non-main"}
        if maybe(0.6):
            d["scope"] = pick(["session", "agent", "shared", "shared"])
        if maybe(0.2):
            d["workspaceAccess"] = pick(["none", "ro", "rw"])
        if maybe(0.15):
            d["docker"] = {"containerPrefix": pick(["oc-", "Shared_", "x."])}
        sess = {}
        if maybe(0.6):
            sess["mainKey"] = pick(MAINKEYS)
        if maybe(0.5):
            sess["scope"] = pick(["per-sender", "global"])
        if maybe(0.4):
            sess["dmScope"] = pick(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])

        def entry(a):
            if maybe(0.25):
                return {"sandbox": {k: v for k, v in (("mode", pick(["non-main", "all", "off"])),
                                                      ("scope", pick(["session", "agent", "shared"]))) if maybe(0.7)}}
            return {}
        cfg = {"agents": roster(ids, entry, {"sandbox": d})}
        if sess:
            cfg["session"] = sess
        a = pick(ids)
        mk = str(sess.get("mainKey", "main"))
        o = pick(ids)
        s = pick([None, "main", "Main", " main ", "global", "GLOBAL", mk, mk.upper(), mk.strip(), f"agent:{a}:{mk}",
                  f"agent:{a}:{mk.strip()}", f"agent:{a}:{mk.strip().lower()}", f"agent:{o}:{mk}", f"agent:{a}:main",
                  f"agent:{a}:MAIN", f"agent:{a}:global", f"agent:{a}:{mk}:thread:1", f"agent:{a}:main:thread:1",
                  f"agent:{a}:telegram:direct:42", f"agent:{a}:direct:+15551230001", f"agent:{a}:whatsapp:biz:direct:1",
                  f"agent:{a}:whatsapp:group:1@g.us", f"agent:{a}:subagent:x", f"agent:{a}:cron:x",
                  f"agent:{a}:heartbeat", f"agent:{a}:webchat:t1", "agent:" + a, f"agent:{a}:", f"agent:{a}:{mk}:{mk}",
                  f"agent:{a.upper()}:main", f"AGENT:{a}:main", f"agent:{a}:Main:Thread:1", "subagent:x",
                  f"{mk}:subagent:x", f"agent:{a}:acp:1"])
        syntax, text = render(cfg)
        case(f"c13-mn-{seed}-{i:04d}", text, syntax, agent=pick([None, a, a]), session=s, subagent=maybe(0.15),
             category="session-keys")


# ------------------------------------------------------------ wsroot
WSR = ["~", "~/", "~/sb", "~/sb/", "~//sb", "~/a/../sb", "${HOME}/sb", "${HOME}", "${SBROOT}", "${SBROOT}/x",
       "$${HOME}/sb", "${HOME}/${SUB}", "/srv/sb", "/srv/sb/./x/", "/srv/${SUB}", "~/${SUB}", "rel/sb", "./sb",
       "${SBROOT}/../y", "/tmp/sbx-conf-home/sb", "~/sp ace", " ~/pad ", "${LANG}", "/${TZ}/x"]
WSP = [None, "~/ws", "~/ws-{a}", "${HOME}/w/{a}", "/srv/w/{a}", "rel/{a}", "${SBROOT}/ws"]


def gen_wsroot():
    for i in range(count):
        ids = pick([["main"], ["main", "work"], ["work", "kids"]])
        sb = {"mode": pick(["all", "all", "non-main"])}
        if maybe(0.8):
            sb["workspaceRoot"] = pick(WSR)
        if maybe(0.6):
            sb["scope"] = pick(["session", "agent", "shared"])
        if maybe(0.6):
            sb["workspaceAccess"] = pick(["none", "ro", "rw"])
        defaults = {}
        if maybe(0.4):
            defaults["workspace"] = pick([w for w in WSP if w]).replace("{a}", "d")
        env = {}
        cfgtext_vars = {"SBROOT": pick(["/srv/root", "~/root", "rel/root", "/srv/root/"]), "SUB": pick(["s1", "a/b", ".."])}
        if maybe(0.85):
            env = {"vars": {k: v for k, v in cfgtext_vars.items() if maybe(0.8)}}

        def entry(a):
            e = {}
            w = pick(WSP)
            if w:
                e["workspace"] = w.replace("{a}", a)
            if maybe(0.35):
                e["sandbox"] = {}
                if maybe(0.7):
                    e["sandbox"]["workspaceRoot"] = pick(WSR)
                if maybe(0.5):
                    e["sandbox"]["workspaceAccess"] = pick(["none", "ro", "rw"])
                if maybe(0.4):
                    e["sandbox"]["scope"] = pick(["session", "agent", "shared"])
            return e
        files = None
        if maybe(0.35):
            inc = pick(["sandbox.json5", "inc/sandbox.json", "sandbox.json5", "${SUBF}.json5"])
            files = {inc.replace("${SUBF}", "sbf"): json.dumps(sb)}
            defaults["sandbox"] = {"$include": inc}
            if "${SUBF}" in inc:
                env.setdefault("vars", {})["SUBF"] = "sbf"
            if maybe(0.3):
                defaults["sandbox"]["scope"] = pick(["agent", "shared"])
        else:
            defaults["sandbox"] = sb
        cfg = {"agents": roster(ids, entry, defaults)}
        if env:
            cfg["env"] = env
        syntax, text = render(cfg)
        a = pick(ids)
        case(f"c13-ws-{seed}-{i:04d}", text, syntax, agent=pick([a, None]),
             session=pick([None, f"agent:{a}:main", f"agent:{a}:telegram:group:-1", f"agent:{a}:subagent:x", "main"]),
             subagent=maybe(0.1), files=files)


# ------------------------------------------------------------ keys
GROUP_CHANNELS = ["whatsapp", "telegram", "signal", "imessage"]
ODD_CHANNELS = ["webchat", "my-plugin", "WhatsApp", "TELEGRAM", "x.y", "zalouser", "nextcloud-talk", "qa-channel",
                "voice", "node", "email", "sms", "irc", "mattermost", "msteams", "a2a", "googlechat", "line"]


def gen_keys():
    for i in range(count):
        ids = pick([["main"], ["main", "work"]])
        d = {"mode": pick(["all", "non-main", "non-main"]), "scope": pick(["session", "agent", "shared", "session"])}
        cfg = {"agents": roster(ids, lambda a: {}, {"sandbox": d})}
        a = pick(ids)
        ch = pick(ODD_CHANNELS + ["whatsapp", "telegram", "discord", "slack"])
        gid = pick(["g1", "G1", "-100123", "120363@g.us", "room:1", "#general", "spaces/AAA", "*"])
        # channels whose groups take tools (discord / slack / msteams / ... refuse groups): the key's
        # channel when it is one, else one of them (the key's group then matches no policy)
        chan_cfg = ch.lower() if ch.lower() in GROUP_CHANNELS and maybe(0.8) else pick(GROUP_CHANNELS)
        groups = {}
        for g in sample([gid, "*", "other", gid.upper()], 1, 2):
            ge = {}
            if maybe(0.8):
                ge["tools"] = policy(0.5, 0.5, 0.3)
            if maybe(0.3):
                ge["toolsBySender"] = {pick(["*", "id:+15551230001", "e164:+15551230001"]): policy(0.5, 0.5, 0.2)}
            groups[g] = ge
        if maybe(0.8):
            cfg["channels"] = {chan_cfg: {"groups": groups}}
        if maybe(0.3):
            cfg["session"] = {"dmScope": pick(["main", "per-peer", "per-channel-peer"])}
        kind = pick(["group", "channel", "group", "direct", "dm"])
        base = f"agent:{a}:{ch}:{kind}:{gid}"
        suffix = pick(["", "", ":topic:7", ":thread:1700000000.1", ":sender:+15551230001", ":topic:7:sender:u1",
                       ":thread:x:topic:y", ":subagent:s", ":TOPIC:7", ":Thread:1", ":topic:", ":thread"])
        s = pick([base + suffix, base + suffix, f"agent:{a}:{ch}:acct1:{kind}:{gid}{suffix}",
                  f"agent:{a}:cron:job:run:{rng.randint(1, 99)}", f"agent:{a}:cron:job", f"cron:job:run:2",
                  f"agent:{a}:hook:{ch}:m1", f"hook:{ch}:m2", f"agent:{a}:subagent:s{suffix}",
                  f"agent:{a}:subagent:s:{ch}:group:{gid}", f"agent:{a}:acp:{gid}", f"agent:{a}:node:{gid}",
                  f"agent:{a}:heartbeat{suffix}", f"agent:{a}:webchat:{gid}", f"{ch}:{kind}:{gid}{suffix}",
                  f"agent:{a}:main{suffix}", f"agent:{a}:{ch}:{gid}"])
        syntax, text = render(cfg)
        case(f"c13-ky-{seed}-{i:04d}", text, syntax, agent=pick([a, None]), session=s, subagent=maybe(0.15),
             category="session-keys")


{"sbsplit": gen_sbsplit, "names": gen_names, "mainness": gen_mainness, "wsroot": gen_wsroot, "keys": gen_keys}[area]()
for c in out:
    try:
        print(json.dumps(c, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(c))

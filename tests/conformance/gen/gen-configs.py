#!/usr/bin/env python3
"""gen-configs.py SEED COUNT [AREA,...] > cases.jsonl

Random OpenClaw configs (with an agent, a session key and the subagent flag) aimed at
the corners of the sandbox and tool-policy resolution the shipped corpus covers least:
legacy roster shapes, per-agent vs defaults for every sandbox/docker field, workspace
dirs, scope keys of odd session keys, subagents, tool lists at every level with groups,
aliases, globs and unknown names, exec/fs sections, invalid values, JSON5 syntax.

Each line is {id, category, origin, syntax, config_text, agent, session, subagent}; feed
it to oracle-batch.sh for the real OpenClaw's answers and to diff-sbx.py for sbx's.
Deterministic for a given SEED.  AREAs (default: the first seven, so old seeds repeat;
"all" adds the last ten): roster docker tools sessions invalid json5 misc legacy (retired keys the load migrations rewrite: perSession, browser
network none, spawn_task/image names, allow+alsoAllow, profile with configured sections,
agents.defaults.tools) provider (tools.byProvider with a configured model) env (${VAR},
env.vars, $include) deep (values deep in the sections only the schema tables check)
deepsb (the same in the sandbox and tool-policy sections checked by hand) keys (random
session keys of odd characters, for scope keys, slugs and container names) binds (bind
sources, targets and options with the dangerouslyAllow flags: mounts, bind safety) ssh (the
ssh backend's remote workdir) wsroot (odd workspaceRoot / workspace paths) channels (channel
groups with tools / toolsBySender, asked from group session keys).
"""
import json
import random
import sys

CORE = ("code_execution secrets web_search web_fetch x_search memory_search memory_get sessions "
        "sessions_list sessions_history sessions_search conversations_list conversations_send "
        "conversations_turn sessions_send sessions_spawn github_identity_status github_publish "
        "agents_wait sessions_yield subagents session_status suggest_task dismiss_task browser screen "
        "theme dashboard terminal portal show_widget message heartbeat_respond automations gateway "
        "plugins openclaw nodes computer mobile_ui agents_list get_goal create_goal update_goal "
        "progress_card ask_user skill_workshop view_image image_generate music_generate video_generate "
        "tts pdf ls read write edit apply_patch exec process canvas").split()
CHANNELS = ("feishu googlechat nostr buzz msteams mattermost nextcloud-talk matrix raft a2a line zalo "
            "clickclack zalouser sms synology-chat tlon discord imessage irc reef signal slack telegram "
            "twitch whatsapp").split()
GROUPS = ["group:" + g for g in "fs runtime web memory sessions ui messaging automation nodes agents media openclaw".split()]
ODD_NAMES = ["bash", "apply-patch", "cron", "image", "update_plan", "BASH", " Exec ", "READ", "Group:FS",
             "group:plugins", "group:nope", "group:clawdbot", "bundle-mcp", "whatsapp_login", "my_plugin_tool",
             "mcp__server__tool", "sandbox_exec", "structured_output", "*", "sess*", "*_get", "web_*", "*e*",
             "?", "re?d", "exe*", "ex*c", "", "  ", "memory_*", "group:*", "conversations_*", "*ch", "Web_*",
             "x", "tool.with.dots", "a*b*c", "**", "sessions_", "image_*", "canvas*", "*write*"]
PROFILES = ["minimal", "coding", "messaging", "full"]
SESSIONS_FIXED = [
    None, "main", "home", "Main", "agent:{a}:main", "agent:{a}:MAIN", "agent:{A}:main", " agent:{a}:main ",
    "agent:{a}:main:thread:42", "agent:{a}:whatsapp:group:120363@g.us", "agent:{a}:telegram:group:-100123:topic:7",
    "agent:{a}:discord:channel:999", "agent:{a}:slack:direct:U123", "agent:{a}:direct:+15551234567",
    "agent:{a}:cron:nightly", "cron:job-1", "hook:gmail:abc", "global", "GLOBAL", "agent:{a}:subagent:abc",
    "agent:{a}:subagent:1:subagent:2", "subagent:xyz", "agent:{a}:SubAgent:Q", "agent:{a}:main:subagent:k",
    "agent:{a}:ümlaut:gruppe", "agent:{a}:日本語:チャンネル", "agent:{a}:emoji:🙂🙂", "agent:{a}:a b c;d",
    "agent:{a}:" + "x" * 120, "agent:{a}:" + "Ab-_.%" * 15, "agent:{a}:..:..", "agent:{a}:-lead-trail-",
    "agent:{a}:::", "agent:{a}", "agent:", "agent::main", "opaque-id-123", "UPPER:CASE:KEY", "a:b",
    "agent:{a}:main ", "\tagent:{a}:tab", "agent:{a}:whatsapp:group:1:sender:2", "agent:{a}:acp:xyz",
    "agent:{a}:openai:abc", "agent:{o}:main", "agent:{o}:whatsapp:group:5", "agent:Nobody:main",
    "agent:{a}:main\u00a0", "\u3000agent:{a}:main", "\ufeffmain", "agent:\u212a:main", "agent:{a}:\u0130stanbul",
    "agent:{a}:main\u2028", "agent:{a}:\u00c9t\u00e9:group:1", "agent:{a}:subagent:\u00fc",
]
WS_PATHS = ["~/ws", "~", "~/", "/srv/agents/x", "relative/ws", "./rel", "../up", "/tmp/sbx-conf-home/abs",
            "~/spaces in name", "~/ünï", "/trailing/", "//double//slash", "~user/x", "/a/./b/../c", ""]


def R():
    return rng


def pick(xs):
    return rng.choice(xs)


def maybe(p=0.5):
    return rng.random() < p


def sample(xs, lo, hi):
    k = rng.randint(lo, min(hi, len(xs)))
    return rng.sample(xs, k)


def agent_ids():
    pool = ["main", "work", "family", "ops", "bot2", "a_b", "x-y", "Work", "OPS", " spaced ", "dot.id",
            "ünï", "a" * 70, "9lives", "-dash", "under_", "main2", "Main"]
    n = pick([1, 1, 2, 2, 2, 3, 4])
    ids = ["main"] if maybe(0.6) else []
    while len(ids) < n:
        i = pick(pool) if maybe(0.1) else pick(["main", "work", "family", "ops", "bot2", "research"])
        if i not in ids:
            ids.append(i)
    return ids


# ---------------------------------------------------------------- sandbox values
def v_docker(level):
    d = {}
    fields = {
        "image": lambda: pick(["custom:1", "ghcr.io/x/y:latest", "openclaw-sandbox:bookworm-slim", " padded:img ", "IMG"]),
        "containerPrefix": lambda: pick(["oc-", "my-prefix-", "X_", "openclaw-sbx-", "a-very-long-container-prefix-that-goes-on-", ""]),
        "workdir": lambda: pick(["/work", "/workspace", "/home/agent", "/w/"]),
        "readOnlyRoot": lambda: pick([True, False]),
        "tmpfs": lambda: pick([[], ["/tmp"], ["/tmp:size=64m", "/cache"], ["/run", "/tmp", "/var/tmp", "/x"]]),
        "network": lambda: pick(["none", "bridge", "sbx-allow", "my_net", "None", "container:abc", "default"]),
        "user": lambda: pick(["1000:1000", "0:0", "nobody", "1000", "65534:65534"]),
        "capDrop": lambda: pick([[], ["ALL"], ["NET_RAW", "SYS_ADMIN"], ["all"]]),
        "env": lambda: pick([{}, {"FOO": "bar"}, {"LANG": "en_US.UTF-8"}, {"LANG": "C", "TZ": "UTC"},
                              {"PATH": "/usr/bin", "_X1": ""}, {"API_TOKEN": "t", "lower_case": "v"}]),
        "setupCommand": lambda: pick(["apt-get update", ["echo a", "echo b"], [], ["single"], "", "  x  ",
                                      ["a", "", "b"], "line1\nline2"]),
        "pidsLimit": lambda: pick([1, 64, 4096]),
        "memory": lambda: pick(["512m", "1g", 1073741824, "2G", 0]),
        "memorySwap": lambda: pick(["1g", -1, 2147483648, "512m"]),
        "cpus": lambda: pick([1, 0.5, 2, 1.25]),
        "gpus": lambda: pick(["all", " all ", "device=0", "\"device=0,1\""]),
        "ulimits": lambda: pick([{}, {"nofile": 1024}, {"nofile": {"soft": 1024, "hard": 2048}},
                                 {"nproc": "512", "core": 0}, {"nofile": {"soft": 10}}, {"memlock": -1}]),
        "seccompProfile": lambda: pick(["/etc/sbx/seccomp.json", "default", "runtime/default"]),
        "apparmorProfile": lambda: pick(["docker-default", "openclaw", "runtime/default"]),
        "dns": lambda: pick([[], ["1.1.1.1"], ["8.8.8.8", "9.9.9.9"]]),
        "extraHosts": lambda: pick([[], ["host.docker.internal:host-gateway"], ["a:1.2.3.4", "b:5.6.7.8"]]),
        "binds": lambda: pick([[], ["/data:/data:ro"], ["/srv/a:/a", "/srv/b:/b:rw"], ["/tmp/sbx-conf-home/x:/x"],
                               ["/opt/tools:/workspace/tools:ro"]]),
        "dangerouslyAllowReservedContainerTargets": lambda: pick([True, False]),
        "dangerouslyAllowExternalBindSources": lambda: pick([True, False]),
        "dangerouslyAllowContainerNamespaceJoin": lambda: pick([True, False]),
    }
    for k in sample(list(fields), 0, 9):
        d[k] = fields[k]()
    if d.get("network", "").startswith("container:"):
        d["dangerouslyAllowContainerNamespaceJoin"] = True
    return d


def v_browser():
    fields = {
        "enabled": lambda: pick([True, False]),
        "image": lambda: pick(["chrome:1", "openclaw-sandbox-browser:bookworm-slim"]),
        "containerPrefix": lambda: pick(["br-", "openclaw-sbx-browser-"]),
        "network": lambda: pick(["openclaw-sandbox-browser", "bridge", "br-net"]),
        "cdpPort": lambda: pick([9222, 9333]),
        "cdpSourceRange": lambda: pick(["172.16.0.0/12", "10.0.0.0/8"]),
        "vncPort": lambda: pick([5900, 5901]),
        "noVncPort": lambda: pick([6080, 6081]),
        "headless": lambda: pick([True, False]),
        "noVncEnabled": lambda: pick([True, False]),
        "allowHostControl": lambda: pick([True, False]),
        "autoStart": lambda: pick([True, False]),
        "autoStartTimeoutMs": lambda: pick([5000, 12000, 60000]),
        "binds": lambda: pick([[], ["/srv/b:/b"]]),
    }
    return {k: fields[k]() for k in sample(list(fields), 0, 5)}


def v_sandbox(level):
    s = {}
    if maybe(0.75):
        s["mode"] = pick(["off", "non-main", "all", "all", "non-main"])
    if maybe(0.45):
        s["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.4):
        s["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.2):
        s["workspaceRoot"] = pick(["~/sbx-root", "/srv/sandboxes", "rel/root", "~/", "/srv/sb/", "./x/../y"])
    if maybe(0.15):
        s["backend"] = pick(["docker", "podman", "ssh", " Docker ", "PODMAN", "openshell", "custom-be"])
    if maybe(0.55):
        s["docker"] = v_docker(level)
    if maybe(0.15):
        s["browser"] = v_browser()
    if maybe(0.2):
        s["prune"] = {k: pick([0, 1, 12, 48, 30]) for k in sample(["idleHours", "maxAgeDays"], 0, 2)}
    if maybe(0.05):
        s["sessionToolsVisibility"] = pick(["spawned", "all"])
    return s


# ---------------------------------------------------------------- tool lists
def v_names(lo=0, hi=4):
    out = []
    for _ in range(rng.randint(lo, hi)):
        r = rng.random()
        if r < 0.4:
            out.append(pick(CORE))
        elif r < 0.6:
            out.append(pick(GROUPS))
        elif r < 0.7:
            out.append(pick(CHANNELS))
        else:
            out.append(pick(ODD_NAMES))
    return out


def v_policy(allow_p=0.5, deny_p=0.4, also_p=0.25):
    p = {}
    if maybe(allow_p):
        p["allow"] = v_names(0, 4)
    if maybe(deny_p):
        p["deny"] = v_names(0, 3)
    if maybe(also_p):
        if "allow" in p and p["allow"] and maybe(0.8):
            pass
        else:
            p["alsoAllow"] = v_names(1, 3)
    return p


def v_tools(agent):
    """tools (agent False) or agents.<id>.tools (agent True)"""
    t = v_policy(0.35, 0.35, 0.2)
    if maybe(0.3 if agent else 0.35):
        t["profile"] = pick(PROFILES)
    if maybe(0.3 if agent else 0.35):
        t["sandbox"] = {"tools": v_policy(0.5, 0.4, 0.3)}
    if not agent and maybe(0.2):
        t["subagents"] = {"tools": v_policy(0.3, 0.4, 0.3)}
    if maybe(0.1 if agent else 0.15):
        t["exec"] = pick([{}, {"security": pick(["deny", "allowlist", "full"])}, {"host": pick(["sandbox", "gateway", "auto"])},
                          {"safeBins": ["jq", "grep"]}, {"ask": pick(["off", "on-miss", "always"])}])
    if maybe(0.05 if agent else 0.1):
        t["fs"] = pick([{}, {"workspaceOnly": True}])
    if not agent and maybe(0.08):
        t["elevated"] = pick([{"enabled": False}, {"enabled": True}])
    return t


# ---------------------------------------------------------------- whole config
def gen_config(area):
    cfg = {}
    ids = agent_ids()
    agents = {}
    defaults = {}
    if maybe(0.8):
        defaults["sandbox"] = v_sandbox("defaults")
    if maybe(0.15):
        defaults["workspace"] = pick(WS_PATHS[:-1])
    if maybe(0.1):
        defaults["subagents"] = {"maxSpawnDepth": pick([1, 2, 3])}
    if defaults:
        agents["defaults"] = defaults
    shape = pick(["entries", "entries", "list", "list", "none"]) if area != "roster" else pick(["entries", "list", "list-default", "both", "none"])
    if len(ids) > 1 and maybe(0.75):
        agents["ownership"] = "explicit"
    elif maybe(0.05):
        agents["ownership"] = pick(["explicit", "implicit", "auto"])
    entries = {}
    for i in ids:
        e = {}
        if maybe(0.55):
            e["sandbox"] = v_sandbox("agent")
        if maybe(0.3):
            e["workspace"] = pick(WS_PATHS)
        if maybe(0.35):
            e["tools"] = v_tools(True)
        if maybe(0.08):
            e["name"] = pick(["Work Bot", "x"])
        entries[i] = e
    if shape == "none" and len(ids) == 1 and ids[0] == "main":
        pass
    elif shape.startswith("list") or (shape == "none"):
        lst = []
        dflt = pick(ids) if (shape == "list-default" or maybe(0.3)) else None
        if dflt and agents.get("ownership") == "explicit" and maybe(0.8):
            dflt = None
        for i in ids:
            e = {"id": i, **entries[i]}
            if i == dflt:
                e["default"] = True
            if maybe(0.05):
                e["default"] = False
            lst.append(e)
        agents["list"] = lst
    else:
        agents["entries"] = entries
        if shape == "both":
            agents["list"] = [{"id": pick(ids)}]
    if agents:
        cfg["agents"] = agents
    if maybe(0.7):
        cfg["tools"] = v_tools(False)
    if maybe(0.15):
        ses = {}
        if maybe(0.6):
            ses["scope"] = pick(["per-sender", "global"])
        if maybe(0.5):
            ses["mainKey"] = pick(["main", "home", "Work"])
        if maybe(0.3):
            ses["dmScope"] = pick(["main", "per-peer", "per-channel-peer"])
        cfg["session"] = ses
    if maybe(0.12):
        ch = pick(["whatsapp", "telegram", "whatsapp", "discord"])
        grp = {}
        for g in sample(["*", "120363@g.us", "-100123", "999", "G1"], 1, 2):
            grp[g] = {"tools": v_policy(0.5, 0.5, 0.2)}
            if maybe(0.3):
                grp[g]["toolsBySender"] = {pick(["*", "id:+1555"]): v_policy(0.5, 0.5, 0.0)}
        cfg["channels"] = {ch: {"groups": grp}}
    if maybe(0.05):
        cfg["tools"] = cfg.get("tools", {})
        cfg["tools"]["toolsBySender"] = {"*": v_policy(0.5, 0.5, 0.0)}
    return cfg, ids


def mutate_invalid(cfg):
    """One targeted invalid value somewhere sbx reads."""
    kinds = [
        ("agents.defaults.sandbox.mode", lambda: pick(["on", "ALL", True, 1, "Non-Main"])),
        ("agents.defaults.sandbox.scope", lambda: pick(["global", "Session", 0])),
        ("agents.defaults.sandbox.workspaceAccess", lambda: pick(["write", "RW", None])),
        ("agents.defaults.sandbox.docker.network", lambda: pick(["host", "HOST", "container:x", " host"])),
        ("agents.defaults.sandbox.docker.pidsLimit", lambda: pick([0, -1, 1.5, "100", 2 ** 40])),
        ("agents.defaults.sandbox.docker.cpus", lambda: pick([0, -1, "2", "two"])),
        ("agents.defaults.sandbox.docker.memory", lambda: pick([True, [], -5, "lots"])),
        ("agents.defaults.sandbox.docker.env", lambda: pick([{"1A": "x"}, {"A-B": "x"}, {"A": "x\ny"}, {"A": 1}, {"": "v"}])),
        ("agents.defaults.sandbox.docker.binds", lambda: pick([["rel:/x"], ["vol:/data"], [""], ["/ok:/ok", 5], "/a:/a"])),
        ("agents.defaults.sandbox.docker.seccompProfile", lambda: pick(["unconfined", "UNCONFINED", 5])),
        ("agents.defaults.sandbox.docker.apparmorProfile", lambda: pick(["Unconfined"])),
        ("agents.defaults.sandbox.docker.tmpfs", lambda: pick(["/tmp", [1], {}])),
        ("agents.defaults.sandbox.docker.ulimits", lambda: pick([{"nofile": True}, {"nofile": {"soft": "x"}}, {"nofile": {"bogus": 1}}, []])),
        ("agents.defaults.sandbox.docker.readOnlyRoot", lambda: pick(["yes", 1])),
        ("agents.defaults.sandbox.docker.capDrop", lambda: pick(["ALL", [1]])),
        ("agents.defaults.sandbox.docker.setupCommand", lambda: pick([5, [1, 2], {"a": 1}])),
        ("agents.defaults.sandbox.docker.bogusKey", lambda: 1),
        ("agents.defaults.sandbox.prune.idleHours", lambda: pick([-1, 1.5, "24"])),
        ("agents.defaults.sandbox.prune.maxAgeDays", lambda: pick([-3, 0.1])),
        ("agents.defaults.sandbox.browser.network", lambda: pick(["host", "container:y"])),
        ("agents.defaults.sandbox.browser.cdpPort", lambda: pick([0, 70000, "9222", -1])),
        ("agents.defaults.sandbox.backend", lambda: pick(["", "  ", 5])),
        ("agents.defaults.sandbox.workspaceRoot", lambda: pick([5, ""])),
        ("agents.defaults.sandbox.perSession", lambda: pick([True, False])),
        ("agents.defaults.workspace", lambda: pick([5, ""])),
        ("tools.profile", lambda: pick(["admin", "Coding", "", 5])),
        ("tools.allow", lambda: pick(["exec", [1], {"a": 1}])),
        ("tools.sandbox.tools.allow", lambda: pick(["exec", [None]])),
        ("tools.sandbox.bogus", lambda: 1),
        ("tools.subagents.tools.deny", lambda: pick(["x"])),
        ("tools.bogusKey", lambda: 1),
        ("bogusTopLevel", lambda: {}),
        ("agent", lambda: {"sandbox": {"mode": "all"}}),
        ("routing", lambda: {"agents": {}}),
        ("session.mainKey", lambda: pick([5, ""])),
        ("agents.ownership", lambda: pick(["yes", 1])),
    ]
    path, val = pick(kinds)
    parts = path.split(".")
    cur = cfg
    for p in parts[:-1]:
        if not isinstance(cur.get(p), dict):
            cur[p] = {}
        cur = cur[p]
    cur[parts[-1]] = val()
    return path


def per_agent_invalid(cfg):
    """Move an invalid value to an agent entry (list or entries) when there is one."""
    ag = cfg.get("agents", {})
    target = None
    if isinstance(ag.get("entries"), dict) and ag["entries"]:
        target = ag["entries"][pick(list(ag["entries"]))]
    elif isinstance(ag.get("list"), list) and ag["list"]:
        target = pick(ag["list"])
    if target is None:
        return None
    sb = target.setdefault("sandbox", {})
    k, v = pick([("docker", {"network": "host"}), ("docker", {"env": {"A B": "x"}}), ("prune", {"idleHours": -2}),
                 ("mode", "sometimes"), ("docker", {"binds": ["relative:/x"]}), ("docker", {"pidsLimit": 0}),
                 ("docker", {"network": "container:z", "dangerouslyAllowContainerNamespaceJoin": False}),
                 ("browser", {"network": "container:q"}), ("perSession", True), ("docker", {"bogus": True})])
    if isinstance(v, dict) and isinstance(sb.get(k), dict):
        sb[k].update(v)
    else:
        sb[k] = v
    return "agent." + k


# ---------------------------------------------------------------- legacy / load / tools2 shapes
LEGACY_NAMES = ["spawn_task", "Spawn_Task", "image", "IMAGE", "spawn*", "*task", "im*", "*image*", "view_image",
                "suggest_task", "suggest*", "view_*", "group:media", "group:sessions"]


def agent_scopes(cfg):
    """the agent containers of cfg: defaults plus every roster entry object"""
    ag = cfg.get("agents", {})
    out = []
    if isinstance(ag.get("entries"), dict):
        out += [e for e in ag["entries"].values() if isinstance(e, dict)]
    if isinstance(ag.get("list"), list):
        out += [e for e in ag["list"] if isinstance(e, dict)]
    return out


def add_legacy(cfg):
    """One retired/migrated key somewhere the load migrations or validator look."""
    ag = cfg.setdefault("agents", {})
    dflt = ag.setdefault("defaults", {})
    scopes = agent_scopes(cfg)
    where = pick(["defaults"] + (["agent"] * 2 if scopes else []))
    tgt = dflt if where == "defaults" else pick(scopes)
    kind = pick(["perSession", "perSession", "browserNone", "browserNone", "embeddedPi", "agentRuntime",
                 "toolName", "toolName", "toolName", "alsoConflict", "alsoConflict", "sections", "sections",
                 "memorySearch", "heartbeat", "typingMode", "contextTokens", "mainKey", "defaultsTools",
                 "defaultsTools", "agentDefault", "systemPromptOverride", "llm", "modelTimeout"])
    if kind == "perSession":
        sb = tgt.setdefault("sandbox", {}) if isinstance(tgt.get("sandbox", {}), dict) else tgt
        sb["perSession"] = pick([True, False, True, False, "yes", 1, None])
        if maybe(0.3):
            sb["scope"] = pick(["agent", "session", "shared"])
    elif kind == "browserNone":
        sb = tgt.setdefault("sandbox", {}) if isinstance(tgt.get("sandbox", {}), dict) else tgt
        br = sb.setdefault("browser", {}) if isinstance(sb.get("browser", {}), dict) else {}
        br["network"] = pick(["none", "None", " NONE ", "none", "bridge"])
        if maybe(0.6):
            br["enabled"] = pick([True, False])
        other = pick(scopes) if scopes and maybe(0.5) else None
        if other is not None:
            osb = other.setdefault("sandbox", {}) if isinstance(other.get("sandbox", {}), dict) else {}
            obr = osb.setdefault("browser", {}) if isinstance(osb.get("browser", {}), dict) else {}
            if maybe(0.5):
                obr["network"] = pick(["br-net", "none", "bridge"])
            if maybe(0.6):
                obr["enabled"] = pick([True, False])
    elif kind == "embeddedPi":
        tgt["embeddedPi"] = pick([{}, {"mode": "x"}, {"enabled": True}])
        if maybe(0.3):
            tgt["embeddedAgent"] = {}
    elif kind == "agentRuntime":
        tgt["agentRuntime"] = pick([{}, {"id": "pi"}, "pi", {"fallback": "none"}])
    elif kind == "toolName":
        levels = [cfg.setdefault("tools", {})] + [s.setdefault("tools", {}) for s in scopes if isinstance(s.get("tools", {}), dict)]
        t = pick(levels)
        sub = pick(["", "", "sandbox", "subagents"])
        if sub and isinstance(t.get(sub, {}), dict) and (sub == "sandbox" or t is levels[0]):
            t = t.setdefault(sub, {}).setdefault("tools", {})
        k = pick(["allow", "deny", "alsoAllow"])
        if isinstance(t.get(k), list):
            t[k].append(pick(LEGACY_NAMES))
        else:
            t[k] = [pick(LEGACY_NAMES)] + v_names(0, 2)
    elif kind == "alsoConflict":
        levels = [cfg.setdefault("tools", {})] + [s.setdefault("tools", {}) for s in scopes if isinstance(s.get("tools", {}), dict)]
        t = pick(levels)
        if maybe(0.3):
            t = t.setdefault("sandbox", {}).setdefault("tools", {})
        t["allow"] = v_names(1, 3)
        t["alsoAllow"] = v_names(1, 3)
        if maybe(0.5):
            t["profile"] = pick(PROFILES)
        if maybe(0.3):
            t["alsoAllow"].append(pick(["gateway", "group:openclaw", "*", "exec", "read"]))
    elif kind == "sections":
        levels = [cfg.setdefault("tools", {})] + [s.setdefault("tools", {}) for s in scopes if isinstance(s.get("tools", {}), dict)]
        t = pick(levels)
        sec = pick(["exec", "fs", "exec", "fs", "web", "message", "elevated"])
        t[sec] = pick({"exec": [{"security": "full"}, {"ask": "off"}, {"host": "sandbox"}, {}, {"safeBins": ["jq"]}],
                       "fs": [{"workspaceOnly": True}, {"workspaceOnly": False}, {}],
                       "web": [{"search": {"enabled": True}}, {"fetch": {"enabled": False}}, {}],
                       "message": [{"allowCrossContextSend": True}, {}],
                       "elevated": [{"enabled": True}, {"enabled": False}]}[sec])
        if maybe(0.7):
            t["profile"] = pick(PROFILES)
        if maybe(0.4):
            cfg["tools"]["profile"] = pick(PROFILES)
        if maybe(0.3):
            t["alsoAllow"] = v_names(1, 2)
    elif kind == "memorySearch":
        tgt["memorySearch"] = pick([{"enabled": True}, {"provider": "auto"}, {}])
    elif kind == "heartbeat":
        cfg["heartbeat"] = pick([{"every": "30m"}, {}])
    elif kind == "typingMode":
        cfg.setdefault("session", {})["typingMode"] = pick(["instant", "never"])
    elif kind == "contextTokens":
        tgt["contextTokens"] = pick([1000, 200000])
    elif kind == "mainKey":
        cfg.setdefault("session", {})["mainKey"] = pick(["main", "work", "Home", "  ", "agent:main:x"])
    elif kind == "defaultsTools":
        dflt["tools"] = v_tools(True)
        if maybe(0.5):
            dflt["tools"]["profile"] = pick(PROFILES)
        if maybe(0.4):
            cfg["agents"].pop("entries", None)
            cfg["agents"].pop("list", None)
    elif kind == "agentDefault":
        if isinstance(ag.get("entries"), dict):
            ag["entries"]["default"] = pick([{}, {"sandbox": {"mode": "all"}}, {"tools": {"deny": ["exec"]}}])
    elif kind == "systemPromptOverride":
        tgt["systemPromptOverride"] = "x"
    elif kind == "llm":
        dflt["llm"] = {"idleTimeoutSeconds": 30}
    elif kind == "modelTimeout":
        tgt["model"] = {"primary": "openai/gpt-5", "timeoutMs": 1000}
    if not dflt:
        ag.pop("defaults", None)
    return kind


def add_provider_policy(cfg):
    """tools.byProvider / agents.*.tools.byProvider with a configured model"""
    levels = [cfg.setdefault("tools", {})] + [s.setdefault("tools", {}) for s in agent_scopes(cfg) if isinstance(s.get("tools", {}), dict)]
    t = pick(levels)
    bp = {}
    for key in sample(["openai", "anthropic", "openai/gpt-5", "OpenAI", "google/gemini-2.5-pro", "*"], 1, 2):
        pol = v_policy(0.4, 0.4, 0.2)
        if maybe(0.5):
            pol["profile"] = pick(PROFILES)
        bp[key] = pol
    t["byProvider"] = bp
    if maybe(0.6):
        ag = cfg.setdefault("agents", {})
        tgt = pick([ag.setdefault("defaults", {})] + agent_scopes(cfg))
        tgt["model"] = pick(["openai/gpt-5", "anthropic/claude-opus-4", {"primary": "openai/gpt-5"}, "google/gemini-2.5-pro"])
    return "byProvider"


ENV_REFS = ["${HOME}", "${TZ}", "${LANG}", "${MISSING_X}", "$${HOME}", "${home}", "${HOME", "$HOME",
            "${HOME}${TZ}", "${ZZ_SET}", "${_U}", "pre-${TZ}-post", "$$${TZ}", "${A-B}", "${1X}"]


def add_env(cfg):
    """${VAR} substitution in string values, env.vars / env top-level vars"""
    strs = []

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if isinstance(v, str):
                    strs.append((o, k))
                else:
                    walk(v)
        elif isinstance(o, list):
            for i, v in enumerate(o):
                if isinstance(v, str):
                    strs.append((o, i))
                else:
                    walk(v)
    walk(cfg)
    if strs and maybe(0.7):
        for o, k in rng.sample(strs, min(len(strs), rng.randint(1, 3))):
            ref = pick(ENV_REFS)
            o[k] = pick([ref, o[k] + ref, ref + o[k]]) if isinstance(o[k], str) else ref
    else:
        ag = cfg.setdefault("agents", {}).setdefault("defaults", {})
        sb = ag.setdefault("sandbox", {}) if isinstance(ag.get("sandbox", {}), dict) else {}
        key = pick(["mode", "scope", "workspaceAccess", "workspaceRoot", "backend"])
        sb[key] = pick(["${ZZ_SET}", "${TZ}", "${HOME}/r", "${MISSING_X}"])
    if maybe(0.6):
        vals = {"ZZ_SET": pick(["all", "session", "rw", "/srv/z", "non-main", "docker", "", "shared"])}
        if maybe(0.3):
            vals[pick(["HOME", "TZ", "_U", "lower", "A B"])] = pick(["/nope", "x", "${TZ}"])
        if maybe(0.5):
            cfg["env"] = {"vars": vals}
        elif maybe(0.5):
            cfg["env"] = dict(vals)
        else:
            cfg["env"] = {"vars": vals, "shellEnv": {"enabled": False}}
    return "env"


def add_include(cfg):
    """a $include that cannot resolve here, or an empty/odd one, somewhere in the tree"""
    targets = [cfg]
    for k in ("agents", "tools", "session"):
        if isinstance(cfg.get(k), dict):
            targets.append(cfg[k])
    ag = cfg.get("agents", {})
    if isinstance(ag, dict) and isinstance(ag.get("defaults"), dict):
        targets.append(ag["defaults"])
        if isinstance(ag["defaults"].get("sandbox"), dict):
            targets.append(ag["defaults"]["sandbox"])
    t = pick(targets)
    t["$include"] = pick([[], [], "./nope.json", ["./a.json"], "", 5, None, {}, "../x.json", "/etc/passwd",
                          "${HOME}/x.json", [5], ["./a.json", "./a.json"]])
    return "include"


# paths (a sample of OpenClaw's schema below the keys sbx does not check by hand; "main"
# stands for a roster entry) and values for the deep area: the oracle says which are valid
DEEP_PATHS = [
    "acp.allowedAgents", "acp.dispatch", "acp.stream", "agents.defaults.blockStreamingBreak",
    "agents.defaults.blockStreamingCoalesce.minChars",
    "agents.defaults.compaction.midTurnPrecheck.enabled", "agents.defaults.compaction.model",
    "agents.defaults.compaction.thinkingLevel", "agents.defaults.contextInjection",
    "agents.defaults.contextPruning.hardClear", "agents.defaults.contextPruning.hardClear.placeholder",
    "agents.defaults.embeddedAgent.cyberFailover.cooloffMs",
    "agents.defaults.embeddedAgent.executionContract", "agents.defaults.heartbeat.accountId",
    "agents.defaults.imageModel.fallbacks", "agents.defaults.maxConcurrent",
    "agents.defaults.mediaModels.image.primary", "agents.defaults.models.x.pickerRuntimes",
    "agents.defaults.params", "agents.defaults.pdfModel.timeoutMs",
    "agents.defaults.sandbox.browser.containerPrefix", "agents.defaults.sandbox.docker.ulimits.x",
    "agents.defaults.sandbox.scope", "agents.defaults.sandbox.ssh.knownHostsFile",
    "agents.defaults.sessionStore", "agents.defaults.skipOptionalBootstrapFiles",
    "agents.defaults.startupContext.enabled", "agents.defaults.startupContext.maxFileChars",
    "agents.defaults.subagents.announceTimeoutMs", "agents.defaults.subagents.maxChildrenPerAgent",
    "agents.defaults.subagents.model", "agents.defaults.systemAgent.agentId",
    "agents.defaults.verboseDefault", "agents.defaults.voiceModel", "agents.entries.main.fastModeDefault",
    "agents.entries.main.groupChat.mentionPatterns", "agents.entries.main.memory.search.cache.enabled",
    "agents.entries.main.memory.search.extraPaths", "agents.entries.main.memory.search.query.maxResults",
    "agents.entries.main.sandbox.docker.dangerouslyAllowExternalBindSources",
    "agents.entries.main.skillsLimits", "agents.entries.main.tools.byProvider.x",
    "agents.entries.main.tools.codeMode.maxPendingToolCalls",
    "agents.entries.main.tools.elevated.allowFrom.x", "agents.entries.main.tools.exec.applyPatch",
    "agents.entries.main.tools.exec.safeBinProfiles.x", "agents.entries.main.tools.fs",
    "agents.entries.main.tools.fs.workspaceOnly", "agents.entries.main.tools.github.kind",
    "agents.entries.main.tools.sandbox.tools.allow", "agents.entries.main.tools.swarm.maxTotalPerGroup",
    "agents.entries.main.tts.modelOverrides.allowNormalization", "agents.entries.main.workspace", "auth",
    "auth.order", "auth.profiles", "auth.profiles.x.email", "browser.extensionRelay",
    "browser.ssrfPolicy.blockedHostnames", "browser.ssrfPolicy.dangerouslyAllowPrivateNetwork",
    "cloudWorkers.profiles.x.readyWorkers", "commands.debug", "commands.plugins", "gateway.auth.mode",
    "gateway.auth.rateLimit", "gateway.cliAgents.enabled", "gateway.controlUi.allowExternalEmbedUrls",
    "gateway.controlUi.sessionObserver", "gateway.http", "gateway.nodes", "gateway.roles.default",
    "hooks.allowRequestSessionKey", "hooks.gmail.maxBytes", "mcp.apps.sandboxOrigin",
    "messages.queue.byChannel.matrix", "messages.queue.byChannel.signal", "models.catalogRefresh.enabled",
    "models.providers", "models.providers.x.injectNumCtxForOpenAICompat", "nodeHost.mcp",
    "nodeHost.workerRuns.enabled", "plugins.slots.contextEngine", "secrets.defaults.file",
    "session.dmScope", "session.maintenance.coldStorage", "session.maintenance.highWaterBytes",
    "session.reset.atHour", "session.sharing.readOnly", "session.threadBindings",
    "session.threadBindings.spawnSessions", "skills.limits", "skills.limits.maxSkillsInPrompt",
    "surfaces.x", "talk.provider", "talk.realtime", "tools.agentToAgent", "tools.byProvider.x.allow",
    "tools.byProvider.x.profile", "tools.exec", "tools.exec.commandHighlighting",
    "tools.media.audio.language", "tools.media.audio.preferredModel", "tools.media.image.headers.x",
    "tools.media.image.scope.rules", "tools.media.image.timeoutSeconds", "tools.media.video.baseUrl",
    "tools.message.actions.allow", "tools.sessions.visibility", "tools.toolSearch.enabled",
    "tools.toolSearch.mode", "tools.toolsBySender.x", "tools.web.fetch.maxRedirects", "transcripts",
    "tts.personas.x", "tts.personas.x.label", "tts.providers.x.apiKey", "ui.prefs.themeMode",
    "ui.seamColor",
]
DEEP_VALUES = ["x", "", " ", 5, 0, -1, 0.5, 2 ** 40, True, False, None, [], ["a"], [1], {}, {"bogus": 1},
               "off", "on", "auto", "all", "none", "main", "openai/gpt-5", "30m", "http://localhost:1", "ü" * 25,
               "🙂" * 13, "日" * 70]


def set_deep(cfg, path, agent, defaults_p):
    """a random value (or a stray key in an object, or one more list item) at path; a
    path starting with agent is set in a roster entry, or agents.defaults"""
    path = path.split(".")
    if path[:len(agent)] == agent:
        scopes = agent_scopes(cfg)
        cur = pick(scopes) if scopes and not maybe(defaults_p) else cfg.setdefault("agents", {}).setdefault("defaults", {})
        path = path[len(agent):]
    else:
        cur = cfg
    for k in path[:-1]:
        if not isinstance(cur.get(k), dict):
            cur[k] = {}
        cur = cur[k]
    r = rng.random()
    if r < 0.3 and isinstance(cur.get(path[-1]), dict):
        cur[path[-1]]["bogus"] = pick(DEEP_VALUES)
    elif r < 0.5 and isinstance(cur.get(path[-1]), list):
        cur[path[-1]].append(pick(DEEP_VALUES))
    else:
        cur[path[-1]] = pick(DEEP_VALUES)
    return ".".join(path)


def add_deep(cfg):
    """a value at a path deep in a section sbx validates from the schema tables"""
    return set_deep(cfg, pick(DEEP_PATHS), ["agents", "entries", "main"], 0.0)


# paths of the sandbox and tool-policy sections sbx checks by hand (AGENT: agents.defaults
# or a roster entry), for the deepsb area: the same random values as the deep area
SANDBOX_PATHS = [
    "AGENT.sandbox", "AGENT.sandbox.backend", "AGENT.sandbox.browser",
    "AGENT.sandbox.browser.allowHostControl", "AGENT.sandbox.browser.autoStart",
    "AGENT.sandbox.browser.autoStartTimeoutMs", "AGENT.sandbox.browser.binds",
    "AGENT.sandbox.browser.cdpPort", "AGENT.sandbox.browser.cdpSourceRange",
    "AGENT.sandbox.browser.containerPrefix", "AGENT.sandbox.browser.enabled",
    "AGENT.sandbox.browser.headless", "AGENT.sandbox.browser.image", "AGENT.sandbox.browser.network",
    "AGENT.sandbox.browser.noVncEnabled", "AGENT.sandbox.browser.noVncPort",
    "AGENT.sandbox.browser.vncPort", "AGENT.sandbox.docker", "AGENT.sandbox.docker.apparmorProfile",
    "AGENT.sandbox.docker.binds", "AGENT.sandbox.docker.capDrop", "AGENT.sandbox.docker.containerPrefix",
    "AGENT.sandbox.docker.cpus", "AGENT.sandbox.docker.dangerouslyAllowContainerNamespaceJoin",
    "AGENT.sandbox.docker.dangerouslyAllowExternalBindSources",
    "AGENT.sandbox.docker.dangerouslyAllowReservedContainerTargets", "AGENT.sandbox.docker.dns",
    "AGENT.sandbox.docker.env", "AGENT.sandbox.docker.env.x", "AGENT.sandbox.docker.extraHosts",
    "AGENT.sandbox.docker.gpus", "AGENT.sandbox.docker.image", "AGENT.sandbox.docker.memory",
    "AGENT.sandbox.docker.memorySwap", "AGENT.sandbox.docker.network", "AGENT.sandbox.docker.pidsLimit",
    "AGENT.sandbox.docker.readOnlyRoot", "AGENT.sandbox.docker.seccompProfile",
    "AGENT.sandbox.docker.setupCommand", "AGENT.sandbox.docker.tmpfs", "AGENT.sandbox.docker.ulimits",
    "AGENT.sandbox.docker.ulimits.x", "AGENT.sandbox.docker.ulimits.x.hard",
    "AGENT.sandbox.docker.ulimits.x.soft", "AGENT.sandbox.docker.user", "AGENT.sandbox.docker.workdir",
    "AGENT.sandbox.mode", "AGENT.sandbox.prune", "AGENT.sandbox.prune.idleHours",
    "AGENT.sandbox.prune.maxAgeDays", "AGENT.sandbox.scope", "AGENT.sandbox.sessionToolsVisibility",
    "AGENT.sandbox.ssh", "AGENT.sandbox.ssh.certificateData", "AGENT.sandbox.ssh.certificateFile",
    "AGENT.sandbox.ssh.command", "AGENT.sandbox.ssh.identityData", "AGENT.sandbox.ssh.identityFile",
    "AGENT.sandbox.ssh.knownHostsData", "AGENT.sandbox.ssh.knownHostsFile",
    "AGENT.sandbox.ssh.strictHostKeyChecking", "AGENT.sandbox.ssh.target",
    "AGENT.sandbox.ssh.updateHostKeys", "AGENT.sandbox.ssh.workspaceRoot", "AGENT.sandbox.workspaceAccess",
    "AGENT.sandbox.workspaceRoot", "AGENT.subagents", "AGENT.subagents.allowAgents",
    "AGENT.subagents.announceTimeoutMs", "AGENT.subagents.archiveAfterMinutes",
    "AGENT.subagents.delegationMode", "AGENT.subagents.maxChildrenPerAgent",
    "AGENT.subagents.maxConcurrent", "AGENT.subagents.maxSpawnDepth", "AGENT.subagents.model",
    "AGENT.subagents.model.fallbacks", "AGENT.subagents.model.primary", "AGENT.subagents.requireAgentId",
    "AGENT.subagents.runTimeoutSeconds", "AGENT.subagents.thinking", "AGENT.tools", "AGENT.tools.allow",
    "AGENT.tools.alsoAllow", "AGENT.tools.byProvider", "AGENT.tools.byProvider.x",
    "AGENT.tools.byProvider.x.allow", "AGENT.tools.byProvider.x.alsoAllow",
    "AGENT.tools.byProvider.x.deny", "AGENT.tools.byProvider.x.profile", "AGENT.tools.codeMode",
    "AGENT.tools.codeMode.enabled", "AGENT.tools.codeMode.executor", "AGENT.tools.codeMode.maxOutputBytes",
    "AGENT.tools.codeMode.maxPendingToolCalls", "AGENT.tools.codeMode.maxSearchLimit",
    "AGENT.tools.codeMode.maxSnapshotBytes", "AGENT.tools.codeMode.memoryLimitBytes",
    "AGENT.tools.codeMode.mode", "AGENT.tools.codeMode.searchDefaultLimit",
    "AGENT.tools.codeMode.snapshotTtlSeconds", "AGENT.tools.codeMode.timeoutMs", "AGENT.tools.deny",
    "AGENT.tools.elevated", "AGENT.tools.elevated.allowFrom", "AGENT.tools.elevated.allowFrom.x",
    "AGENT.tools.elevated.enabled", "AGENT.tools.exec", "AGENT.tools.exec.applyPatch",
    "AGENT.tools.exec.applyPatch.allowModels", "AGENT.tools.exec.applyPatch.enabled",
    "AGENT.tools.exec.applyPatch.workspaceOnly", "AGENT.tools.exec.approvalRunningNoticeMs",
    "AGENT.tools.exec.ask", "AGENT.tools.exec.backgroundMs", "AGENT.tools.exec.cleanupMs",
    "AGENT.tools.exec.commandHighlighting", "AGENT.tools.exec.grantExpiryDays", "AGENT.tools.exec.host",
    "AGENT.tools.exec.mode", "AGENT.tools.exec.node", "AGENT.tools.exec.notifyOnExit",
    "AGENT.tools.exec.notifyOnExitEmptySuccess", "AGENT.tools.exec.pathPrepend",
    "AGENT.tools.exec.reviewer", "AGENT.tools.exec.reviewer.fastMode", "AGENT.tools.exec.reviewer.model",
    "AGENT.tools.exec.reviewer.model.fallbacks", "AGENT.tools.exec.reviewer.model.primary",
    "AGENT.tools.exec.reviewer.thinking", "AGENT.tools.exec.reviewer.timeoutMs",
    "AGENT.tools.exec.safeBinProfiles", "AGENT.tools.exec.safeBinProfiles.x",
    "AGENT.tools.exec.safeBinProfiles.x.allowedValueFlags",
    "AGENT.tools.exec.safeBinProfiles.x.deniedFlags", "AGENT.tools.exec.safeBinProfiles.x.maxPositional",
    "AGENT.tools.exec.safeBinProfiles.x.minPositional", "AGENT.tools.exec.safeBinTrustedDirs",
    "AGENT.tools.exec.safeBins", "AGENT.tools.exec.security", "AGENT.tools.exec.strictInlineEval",
    "AGENT.tools.exec.timeoutSeconds", "AGENT.tools.fs", "AGENT.tools.fs.workspaceOnly",
    "AGENT.tools.github", "AGENT.tools.github.gitAuthor", "AGENT.tools.github.gitAuthor.email",
    "AGENT.tools.github.gitAuthor.name", "AGENT.tools.github.kind", "AGENT.tools.github.profileId",
    "AGENT.tools.loopDetection", "AGENT.tools.loopDetection.enabled", "AGENT.tools.message",
    "AGENT.tools.message.actions", "AGENT.tools.message.actions.allow", "AGENT.tools.message.broadcast",
    "AGENT.tools.message.broadcast.enabled", "AGENT.tools.message.crossContext",
    "AGENT.tools.message.crossContext.allowAcrossProviders",
    "AGENT.tools.message.crossContext.allowWithinProvider", "AGENT.tools.message.crossContext.marker",
    "AGENT.tools.message.crossContext.marker.enabled", "AGENT.tools.message.crossContext.marker.prefix",
    "AGENT.tools.message.crossContext.marker.suffix", "AGENT.tools.profile", "AGENT.tools.sandbox",
    "AGENT.tools.sandbox.tools", "AGENT.tools.sandbox.tools.allow", "AGENT.tools.sandbox.tools.alsoAllow",
    "AGENT.tools.sandbox.tools.deny", "AGENT.tools.swarm", "AGENT.tools.swarm.defaultAgentId",
    "AGENT.tools.swarm.enabled", "AGENT.tools.swarm.maxChildrenPerGroup",
    "AGENT.tools.swarm.maxConcurrent", "AGENT.tools.swarm.maxTotalPerGroup",
    "AGENT.tools.swarm.waitTimeoutSecondsMax", "AGENT.tools.toolsBySender", "AGENT.tools.toolsBySender.x",
    "AGENT.tools.toolsBySender.x.allow", "AGENT.tools.toolsBySender.x.alsoAllow",
    "AGENT.tools.toolsBySender.x.deny", "tools.byProvider", "tools.byProvider.x",
    "tools.byProvider.x.allow", "tools.byProvider.x.alsoAllow", "tools.byProvider.x.deny",
    "tools.byProvider.x.profile", "tools.elevated", "tools.elevated.allowFrom",
    "tools.elevated.allowFrom.x", "tools.elevated.enabled", "tools.exec", "tools.exec.applyPatch",
    "tools.exec.applyPatch.allowModels", "tools.exec.applyPatch.enabled",
    "tools.exec.applyPatch.workspaceOnly", "tools.exec.approvalRunningNoticeMs", "tools.exec.ask",
    "tools.exec.backgroundMs", "tools.exec.cleanupMs", "tools.exec.commandHighlighting",
    "tools.exec.grantExpiryDays", "tools.exec.host", "tools.exec.mode", "tools.exec.node",
    "tools.exec.notifyOnExit", "tools.exec.notifyOnExitEmptySuccess", "tools.exec.pathPrepend",
    "tools.exec.reviewer", "tools.exec.reviewer.fastMode", "tools.exec.reviewer.model",
    "tools.exec.reviewer.model.fallbacks", "tools.exec.reviewer.model.primary",
    "tools.exec.reviewer.thinking", "tools.exec.reviewer.timeoutMs", "tools.exec.safeBinProfiles",
    "tools.exec.safeBinProfiles.x", "tools.exec.safeBinProfiles.x.allowedValueFlags",
    "tools.exec.safeBinProfiles.x.deniedFlags", "tools.exec.safeBinProfiles.x.maxPositional",
    "tools.exec.safeBinProfiles.x.minPositional", "tools.exec.safeBinTrustedDirs", "tools.exec.safeBins",
    "tools.exec.security", "tools.exec.strictInlineEval", "tools.exec.timeoutSeconds", "tools.sandbox",
    "tools.sandbox.tools", "tools.sandbox.tools.allow", "tools.sandbox.tools.alsoAllow",
    "tools.sandbox.tools.deny", "tools.subagents", "tools.subagents.tools", "tools.subagents.tools.allow",
    "tools.subagents.tools.alsoAllow", "tools.subagents.tools.deny", "tools.toolsBySender",
    "tools.toolsBySender.x", "tools.toolsBySender.x.allow", "tools.toolsBySender.x.alsoAllow",
    "tools.toolsBySender.x.deny",
]


def add_deep_sandbox(cfg):
    return set_deep(cfg, pick(SANDBOX_PATHS), ["AGENT"], 0.5)


# ---------------------------------------------------------------- matrices: binds / ssh / wsroot
H = "/tmp/sbx-conf-home"
BIND_SRCS = ["/data", "/srv/a/", "relative/x", "./x", "~/x", "~", "/", "/etc", "/etc/passwd", "/proc", "/sys", "/dev",
             "/var/run/docker.sock", "/run/docker.sock", "/home", "/root/.ssh", H, H + "/.openclaw", H + "/.openclaw/workspace",
             H + "/.openclaw/workspace/sub", H + "/.openclaw/sandboxes", H + "/.openclaw/sandboxes/x", H + "/ws", H + "/ws/sub",
             H + "/ws/../.ssh", "/a/../etc", "/data//x", "/usr/bin", "/var/lib/docker", "C:\\x", "C:/w", "/tmp", "/opt/x y",
             "/x/ ", " /sp", "vol", "/srv/ws", "/srv/ws/a", "~/ws/s"]
BIND_TGTS = ["/data", "/workspace", "/workspace/x", "/", "/etc", "/proc", "/sys", "/dev", "/tmp", "/run", "/var/tmp", "/agent",
             "/agent/x", "/workspace/", "/workspace/../etc", "rel", "/home/u", "/usr/local/bin", "/root", "/x:y", "/data/",
             "/work", "/work/x", "/skills", "/workspace/skills"]
BIND_MODES = [None, "ro", "rw", "z", "Z", "ro,z", "rw,Z", "bogus", "", "RO", "z, RO ", "rprivate", "ro,rslave", "rw,roo"]
SSH_ROOTS = [None, "/tmp/openclaw-sandboxes", "/srv/x/", "/", "//", "rel/x", "~/x", "/a/../b", "/a/./b//", "", " /padded ",
             "/x y", "/\u00fc"]
WS_ROOTS = [None, "~", "~/", "~/x/", "/", "//", "/a/../b", "/a/./b//", "rel", "./rel/../x", "../up", " ~/sp ", "~user/x",
            "/x y/z", "/\u00fc/\u00f1", "~//double", H + "/.openclaw/workspace", "${HOME}/r", "C:\\r", "/a/b/..", ".", ""]


def gen_matrix(area):
    """a config aimed at one resolution corner; returns (cfg, ids)"""
    d = {"mode": pick(["all", "all", "non-main"] + (["off"] if area == "wsroot" else []))}
    if maybe(0.5):
        d["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.4):
        d["scope"] = pick(["shared", "agent", "session"])
    cfg = {"agents": {"defaults": {"sandbox": d}}}
    ent = {}
    if area == "binds":
        binds = []
        for _ in range(pick([1, 1, 2, 3])):
            m = pick(BIND_MODES)
            binds.append(pick(BIND_SRCS) + ":" + pick(BIND_TGTS) + ("" if m is None else ":" + m))
        dock = {"binds": binds}
        for k in ("dangerouslyAllowReservedContainerTargets", "dangerouslyAllowExternalBindSources"):
            if maybe(0.35):
                dock[k] = pick([True, False])
        if maybe(0.25):
            dock["workdir"] = pick(["/work", "/data", "/workspace/x", "/agent"])
        if maybe(0.4):
            ent["sandbox"] = {"docker": dock}
            if maybe(0.5):
                d["docker"] = {"binds": [pick(BIND_SRCS) + ":" + pick(BIND_TGTS)]}
        else:
            d["docker"] = dock
        if maybe(0.3):
            ent["workspace"] = pick(["~/ws", "/srv/ws", "~/.openclaw/workspace-work", "~/wsx"])
    elif area == "ssh":
        d["backend"] = pick(["ssh", "SSH", " ssh ", "ssh"])
        ssh = {}
        r = pick(SSH_ROOTS)
        if r is not None:
            ssh["workspaceRoot"] = r
        if maybe(0.7):
            ssh["target"] = pick(["user@host", "host", "u@h:22", "", "h"])
        if maybe(0.2):
            ssh["command"] = pick(["ssh", "/usr/bin/ssh", ""])
        if maybe(0.2):
            ssh["strictHostKeyChecking"] = pick([True, False, "yes"])
        if maybe(0.5):
            d["ssh"] = ssh
        else:
            ent["sandbox"] = {"ssh": ssh}
            if maybe(0.3):
                d["ssh"] = {"workspaceRoot": pick(["/g", "/h/"])}
    else:  # wsroot
        r = pick(WS_ROOTS)
        if r is not None:
            d["workspaceRoot"] = r
        if maybe(0.5):
            cfg["agents"]["defaults"]["workspace"] = pick(WS_PATHS)
        if maybe(0.5):
            ent["workspace"] = pick(WS_PATHS)
        if maybe(0.3):
            ent["sandbox"] = {"workspaceRoot": pick(WS_ROOTS[1:])}
    cfg["agents"]["entries"] = {"main": ent}
    ids = ["main"]
    if maybe(0.3):
        cfg["agents"]["entries"]["work"] = {}
        cfg["agents"]["ownership"] = "explicit"
        ids.append("work")
    return cfg, ids


# ---------------------------------------------------------------- matrix: channel groups
CH_GROUP_IDS = ["*", "120363@g.us", "-100123", "999", "G1", "C01", "oc_group_chat", "group:1", "#room", "-100123:topic:7"]
CH_TOOLS = ["exec", "read", "write", "group:fs", "group:runtime", "web_search", "message", "browser", "*", "sessions_*",
            "process"]
CH_SENDERS = ["*", "id:+15551234567", "e164:+15551234567", "username:bob", "id:U123", "name:Bob"]


def ch_policy():
    p = {}
    if maybe(0.6):
        p["allow"] = sample(CH_TOOLS, 0, 3)
    if maybe(0.6):
        p["deny"] = sample(CH_TOOLS, 0, 3)
    if "allow" not in p and maybe(0.3):
        p["alsoAllow"] = sample(CH_TOOLS, 1, 2)
    return p


def gen_channels():
    """channels.<ch>.groups with tools / toolsBySender, asked from a group session key"""
    ch = pick(CHANNELS)
    groups = {}
    for g in sample(CH_GROUP_IDS, 1, 3):
        e = {}
        if maybe(0.8):
            e["tools"] = ch_policy()
        if maybe(0.35):
            e["toolsBySender"] = {pick(CH_SENDERS): ch_policy()}
        if maybe(0.1):
            e[pick(["requireMention", "bogus"])] = pick([True, "x"])
        groups[g] = e
    chcfg = {"groups": groups}
    if ch == "twitch" and maybe(0.7):
        chcfg.update({"username": "u", "accessToken": "t", "channel": "c"})
    if maybe(0.1):
        chcfg[pick(["enabled", "dmPolicy", "bogus"])] = pick([True, "open", "x"])
    cfg = {"channels": {ch: chcfg}}
    if maybe(0.5):
        cfg["agents"] = {"defaults": {"sandbox": {"mode": pick(["all", "non-main", "off"])}}}
    if maybe(0.4):
        cfg["tools"] = ch_policy()
    if maybe(0.2):
        cfg.setdefault("tools", {})["sandbox"] = {"tools": ch_policy()}
    gid = pick(CH_GROUP_IDS[1:]).split(":topic")[0]
    c2 = pick([ch, ch, pick(CHANNELS)])
    session = pick([f"agent:main:{c2}:group:{gid}", f"agent:main:{c2}:group:{gid}:topic:7", f"agent:main:{c2}:channel:{gid}",
                    f"agent:main:{c2}:group:{gid}:sender:+15551234567", f"agent:main:{c2}:direct:+15551234567",
                    f"agent:main:{c2}:group:{gid.upper()}", f"agent:main:{c2}:group:{gid}:thread:1", f"{c2}:group:{gid}",
                    f"agent:main:{c2.upper()}:group:{gid}", "agent:main:main"])
    return cfg, session


# ---------------------------------------------------------------- JSON5 text
def j5(v, ind, depth):
    pad = " " * (ind * (depth + 1))
    end = " " * (ind * depth)
    nl = "\n" if ind else ""
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = []
        for k, x in v.items():
            key = k
            if k.isidentifier() and k.isascii() and maybe(0.6):
                key = k
            elif maybe(0.3) and "'" not in k and "\\" not in k:
                key = "'" + k + "'"
            else:
                key = json.dumps(k, ensure_ascii=maybe(0.5))
            c = ("// c\n" + pad) if maybe(0.05) else ""
            items.append(pad + c + key + ":" + (" " if ind else "") + j5(x, ind, depth + 1))
        tail = "," if maybe(0.5) else ""
        return "{" + nl + ("," + nl).join(items) + tail + nl + end + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        items = [pad + j5(x, ind, depth + 1) for x in v]
        tail = "," if maybe(0.5) else ""
        return "[" + nl + ("," + nl).join(items) + tail + nl + end + "]"
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int):
        r = rng.random()
        if r < 0.15 and v >= 0:
            return hex(v) if maybe() else "0X" + format(v, "X")
        if r < 0.25 and v >= 0:
            return "+" + str(v)
        return str(v)
    if isinstance(v, float):
        s = repr(v)
        if s.startswith("0.") and maybe(0.5):
            return s[1:]
        if s.endswith(".0") and maybe(0.5):
            return s[:-1]
        return s
    if isinstance(v, str):
        if "'" not in v and "\\" not in v and "\n" not in v and maybe(0.4):
            return "'" + v + "'"
        s = json.dumps(v, ensure_ascii=maybe(0.3))
        if len(s) > 8 and maybe(0.1):
            cut = len(s) // 2
            if s[cut - 1] != "\\" and s[cut] != "\\":
                s = s[:cut] + "\\\n" + s[cut:]
        return s
    return json.dumps(v)


def render(cfg):
    if maybe(0.7):
        return "json", json.dumps(cfg, indent=pick([2, 2, 4, None]), ensure_ascii=maybe(0.5)) + pick(["\n", "", "\n\n"])
    text = j5(cfg, pick([2, 0, 1]), 0)
    if maybe(0.3):
        text = "/* generated */\n" + text
    if maybe(0.3):
        text += "\n// end\n"
    return "json5", text


def gen_session(ids, cfg):
    a = pick(ids) if ids else "main"
    other = pick(["zzz", "work", "main", "family"])
    s = pick(SESSIONS_FIXED)
    if s is None:
        return None
    return s.replace("{a}", a.strip().lower() if maybe(0.8) else a).replace("{A}", a.upper()).replace("{o}", other)


KEY_CHARS = list("abcxyzABCXYZ0189-_.:/@+#%~ ") + ["é", "ü", "İ", "K", "ß", "日", "🙂",
                                                   " ", "​", "	", "\\", "\"", "'", "́"]


def random_session(ids):
    """a random session key: agent-prefixed or not, random segments of odd characters"""
    segs = ["".join(pick(KEY_CHARS) for _ in range(rng.randint(0, pick([3, 8, 40, 90])))) for _ in range(rng.randint(1, 4))]
    if maybe(0.4):
        segs.insert(0, pick(["whatsapp", "telegram", "discord", "subagent", "cron", "main", "group", "direct", "thread"]))
    key = ":".join(segs)
    if maybe(0.7):
        a = pick(ids) if ids else "main"
        a = pick([a, a.upper(), " " + a, a + "x", "other"])
        key = "agent:" + a + ":" + key
    return key


# ---------------------------------------------------------------- round 7 areas: mostly valid configs
# (agents, policy, scope, wsaccess, dockerx, syntax): resolution, not validation, decides them
PLUGIN_NAMES = ["bundle-mcp", "memory-core", "lobster", "llm-task", "voice-call", "openshell", "diffs", "my-plugin",
                "group:plugins", "mcp__srv__t", "plugin_tool_x"]
CASED = ["EXEC", "Read", " write ", "GROUP:FS", "Group:Runtime", " group:web ", "Sessions_*", "*_LIST", "BASH",
         "Apply-Patch", "apply-patch", "bash", "update_plan", "canvas", "image", "view_image", "IMAGE"]
GLOBS = ["*", "web_*", "*_list", "sessions_*", "*search*", "*_generate", "memory_*", "s*", "*e", "conversations_*",
         "*.*", "group:*", "exe*", "*_status", "**", "*exec*", "read*", "*s", "a*_*"]
ALLGROUPS = GROUPS + ["group:plugins"]


def tool_name():
    r = rng.random()
    if r < 0.45:
        return pick(CORE)
    if r < 0.6:
        return pick(ALLGROUPS)
    if r < 0.7:
        return pick(GLOBS)
    if r < 0.8:
        return pick(CASED)
    if r < 0.9:
        return pick(PLUGIN_NAMES)
    return pick(CHANNELS + ["nosuch_tool", "unknown", "x-y", "tool.dot"])


def tool_list(lo, hi):
    return [tool_name() for _ in range(rng.randint(lo, hi))]


def policy3(allow_p=0.45, deny_p=0.4, also_p=0.3, conflict_p=0.03):
    """allow / alsoAllow / deny without the schema's allow+alsoAllow conflict (mostly)"""
    p = {}
    if maybe(allow_p):
        p["allow"] = tool_list(0, 5)
    if maybe(also_p) and (not p.get("allow") or maybe(conflict_p)):
        p["alsoAllow"] = tool_list(0, 3)
    if maybe(deny_p):
        p["deny"] = tool_list(0, 4)
    return p


def docker_ok(level):
    """docker settings that pass the schema (odd but valid values)"""
    fields = {
        "image": lambda: pick(["custom:1", "ghcr.io/x/y:latest", "IMG", "reg.local:5000/a/b@sha256:" + "a" * 64, "  sp  ", "ü:1"]),
        "containerPrefix": lambda: pick(["oc-", "X_", "", "p" * 70, "UPPER-", "dot.prefix.", "ünï-", "ü" * 30, "🙂" * 20,
                                         "a" * 50 + "🙂", "日本" * 12, "a" * 5 + "🙂" + "b" * 9]),
        "workdir": lambda: pick(["/work", "/workspace", "/home/agent", "/w/", "rel", "/", "~/w", "/a b"]),
        "readOnlyRoot": lambda: pick([True, False]),
        "tmpfs": lambda: pick([[], ["/tmp"], ["/tmp:size=64m,mode=1777", "/cache"], ["/run", "/run"], ["rel"], [""]]),
        "network": lambda: pick(["none", "bridge", "NONE", "Bridge", "my_net", "default", "sbx-allow", "", " none ",
                                 "container:abc", "CONTAINER:x", "host-net", "hostx"]),
        "user": lambda: pick(["1000:1000", "0:0", "nobody", "1000", "root", "", "u:g"]),
        "capDrop": lambda: pick([[], ["ALL"], ["NET_RAW", "SYS_ADMIN"], ["all"], ["cap_chown", "CHOWN"]]),
        "env": lambda: {pick(["FOO", "LANG", "lower", "A_B", "_U", "PATH", "HOME", "GITHUB_TOKEN", "MY_SECRET", "X_API_KEY",
                              "DB_PASSWORD", "Ümlaut", "LC_ALL", "OPENCLAW_CLI", "a.b", "AWS_SESSION_TOKEN"]):
                        pick(["v", "", "with space", "ünï", "x" * 100, "QUJD" * 30, "=eq=", "$HOME", "line\\n", "0"])
                        for _ in range(rng.randint(0, 4))},
        "setupCommand": lambda: pick(["apt-get update", ["echo a", "echo b"], [], ["single"], "", "  x  ", ["a", "", "b"]]),
        "pidsLimit": lambda: pick([1, 64, 4096, 2 ** 31 - 1]),
        "memory": lambda: pick(["512m", "1g", 1073741824, "2G", "1.5g", " 256m ", "1024", 4096, "512MB", "1e9", "0"]),
        "memorySwap": lambda: pick(["1g", -1, "-1", 2147483648, "512m", "0", 0]),
        "cpus": lambda: pick([1, 0.5, 2, 1.25, 0.01, 64, 3]),
        "gpus": lambda: pick(["all", "device=0", "2", ""]),
        "ulimits": lambda: {pick(["nofile", "nproc", "core", "memlock", "NOFILE", "stack", "x-y", "fsize"]):
                            pick([1024, "2048", "1024:2048", {"soft": 10, "hard": 20}, {"soft": 5}, {"hard": 9}, -1, 0, "unlimited",
                                  {"soft": 1, "hard": 1}, {}])
                            for _ in range(rng.randint(0, 3))},
        "seccompProfile": lambda: pick(["/etc/sbx/seccomp.json", "default", "runtime/default", ""]),
        "apparmorProfile": lambda: pick(["docker-default", "openclaw", ""]),
        "dns": lambda: pick([[], ["1.1.1.1"], ["8.8.8.8", "9.9.9.9"], ["::1"], ["not-an-ip"], ["1.1.1.1", "1.1.1.1"]]),
        "extraHosts": lambda: pick([[], ["host.docker.internal:host-gateway"], ["a:1.2.3.4", "b:5.6.7.8"], ["bad"], ["h:::1"]]),
        "binds": lambda: [pick(["/data", "/srv/a", H + "/ws", H + "/.openclaw/workspace", "/opt/x"]) + ":" +
                          pick(["/data", "/mnt/a", "/workspace/t", "/agent", "/x"]) +
                          pick(["", ":ro", ":rw", ":z", ":ro,Z", ":RO", ":rw,rslave", ":bogus"])
                          for _ in range(rng.randint(0, 3))],
        "dangerouslyAllowReservedContainerTargets": lambda: pick([True, False]),
        "dangerouslyAllowExternalBindSources": lambda: pick([True, False]),
        "dangerouslyAllowContainerNamespaceJoin": lambda: pick([True, False]),
    }
    d = {k: fields[k]() for k in sample(list(fields), 1, 8)}
    if str(d.get("network", "")).lower().startswith("container:"):
        d["dangerouslyAllowContainerNamespaceJoin"] = True
    return d


def sandbox_ok(level, docker_p=0.5):
    s = {}
    if maybe(0.8 if level == "defaults" else 0.4):
        s["mode"] = pick(["off", "non-main", "all", "all", "non-main"])
    if maybe(0.5):
        s["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.45):
        s["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.2):
        s["workspaceRoot"] = pick(["~/sbx-root", "/srv/sandboxes", "rel/root", "~/", "/srv/sb/", "./x/../y", "~/a b"])
    if maybe(0.08):
        s["backend"] = pick(["docker", "podman", " Docker ", "PODMAN"])
    if maybe(docker_p):
        s["docker"] = docker_ok(level)
    if maybe(0.1):
        s["prune"] = {k: pick([0, 1, 12, 48]) for k in sample(["idleHours", "maxAgeDays"], 1, 2)}
    if maybe(0.08):
        s["browser"] = {k: v for k, v in (("enabled", pick([True, False])), ("network", pick(["br-net", "bridge"])),
                                          ("binds", pick([[], ["/srv/b:/b"]]))) if maybe()}
    return s


def tools_ok(agent):
    t = policy3(0.35, 0.35, 0.2)
    if maybe(0.35):
        t["profile"] = pick(PROFILES)
    if maybe(0.4):
        t["sandbox"] = {"tools": policy3(0.5, 0.45, 0.3)}
    if not agent and maybe(0.25):
        t["subagents"] = {"tools": policy3(0.35, 0.45, 0.3)}
    if maybe(0.12):
        t["exec"] = pick([{}, {"security": "full"}, {"host": pick(["sandbox", "gateway", "auto"])}, {"safeBins": ["jq"]}])
    if maybe(0.08):
        t["fs"] = pick([{}, {"workspaceOnly": True}])
    if maybe(0.1):
        t["byProvider"] = {pick(["openai", "anthropic/claude-opus-4", "OpenAI", "openai/gpt-5", "google"]): policy3(0.4, 0.4, 0.2)}
    if not agent and maybe(0.05):
        t["elevated"] = {"enabled": pick([True, False])}
    return t


def roster(ids, entry_fn, defaults):
    """agents.entries (mostly) or agents.list from entry_fn(id) per agent"""
    ag = {}
    if defaults:
        ag["defaults"] = defaults
    if len(ids) > 1:
        ag["ownership"] = "explicit"
    if maybe(0.8):
        ag["entries"] = {i: entry_fn(i) for i in ids}
    else:
        lst = []
        dflt = pick(ids) if maybe(0.3) else None
        for i in ids:
            e = {"id": i, **entry_fn(i)}
            if i == dflt:
                e["default"] = True
            lst.append(e)
        ag["list"] = lst
        if dflt:
            ag.pop("ownership", None)
    return ag


def key_for(a, ids):
    """a session key of a realistic shape for agent a"""
    ch = pick(["whatsapp", "telegram", "discord", "slack", "signal", "matrix", "imessage", "webchat", "msteams"])
    peer = pick(["+15551234567", "U123ABC", "user@example.com", "1234567890", "Bob", "ünï", "a:b"])
    gid = pick(["120363@g.us", "-100123", "C0123", "999", "!room:matrix.org", "G1"])
    base = pick([
        "main", "main", f"direct:{peer}", f"{ch}:direct:{peer}", f"{ch}:acct1:direct:{peer}", f"{ch}:group:{gid}",
        f"{ch}:channel:{gid}", f"{ch}:group:{gid}:topic:7", f"{ch}:group:{gid}:sender:{peer}", "cron:nightly",
        "cron:job-1:run:42", "subagent:11111111-2222", "subagent:a:subagent:b", "hook:gmail:abc", "acp:sess-1",
        f"{ch}:group:{gid}:thread:1699999999.123", "main:thread:42", "webchat:x", "node:phone1", "heartbeat",
    ])
    k = f"agent:{a}:{base}"
    r = rng.random()
    if r < 0.06:
        k = k.upper()
    elif r < 0.1:
        k = base
    elif r < 0.13:
        k = " " + k + " "
    elif r < 0.16:
        k = f"agent:{pick(ids).upper()}:{base}"
    return k


def gen_agents():
    """a realistic multi-agent roster: defaults + per-agent sandbox/tools/workspace overrides"""
    ids = rng.sample(["main", "work", "family", "ops", "research", "support", "coder", "kids"], rng.randint(2, 5))
    if maybe(0.6) and "main" not in ids:
        ids[0] = "main"
    defaults = {"sandbox": sandbox_ok("defaults", 0.6)}
    if maybe(0.3):
        defaults["workspace"] = pick(["~/agents", "/srv/agents", "~/.openclaw/workspace"])
    if maybe(0.15):
        defaults["subagents"] = {"maxSpawnDepth": pick([1, 2, 3])}

    def entry(i):
        e = {}
        if maybe(0.6):
            e["sandbox"] = sandbox_ok("agent", 0.45)
        if maybe(0.5):
            e["tools"] = tools_ok(True)
        if maybe(0.3):
            e["workspace"] = pick([f"~/ws-{i}", f"/srv/{i}", "~/shared-ws", f"~/.openclaw/workspace-{i}"])
        if maybe(0.1):
            e["name"] = i.title() + " Bot"
        return e
    cfg = {"agents": roster(ids, entry, defaults)}
    if maybe(0.6):
        cfg["tools"] = tools_ok(False)
    a = pick(ids)
    agent = pick([a, a, None, a.upper()])
    session = key_for(a, ids) if maybe(0.8) else None
    return cfg, ids, agent, session


def gen_policy():
    """tool policy corners: profile x allow/alsoAllow/deny at every layer, globs, case, plugins"""
    ids = ["main"] if maybe(0.6) else ["main", "work"]
    cfg = {"tools": tools_ok(False)}
    if maybe(0.3):
        cfg["tools"].update({k: v for k, v in policy3(0.5, 0.5, 0.3).items() if k not in cfg["tools"]})
    sb = {"mode": pick(["all", "all", "non-main", "off"])}
    if maybe(0.3):
        sb["workspaceAccess"] = pick(["none", "ro", "rw"])
    cfg["agents"] = roster(ids, lambda i: {"tools": tools_ok(True)} if maybe(0.6) else {}, {"sandbox": sb})
    if maybe(0.15):
        cfg["agents"]["defaults"]["subagents"] = {"maxSpawnDepth": pick([1, 2, 3, 5])}
    if maybe(0.1):
        cfg["plugins"] = pick([{"allow": ["lobster"]}, {"entries": {"lobster": {"enabled": True}}}, {"enabled": False}])
    a = pick(ids)
    return cfg, ids, pick([a, None]), (key_for(a, ids) if maybe(0.5) else None)


ODD_SEGS = ["x" * 200, "Ab-_.%" * 20, "ünï", "日本語", "🙂", "a b", "a/b", "a\\\\b", "", " ", "..", "-", "_", ".", "Z" * 33,
            "q" * 31 + "-", "a:b:c", "%41", "\u00a0", "\u200b", "MiXeD", "0", "a" * 32 + "B", "tab\there", "é", "İ"]


def gen_scope():
    """scope (session/agent/shared, defaults vs agent) with session keys of every shape"""
    ids = ["main"] if maybe(0.5) else ["main", pick(["work", "ops", "Work", "a_b", "x-y"])]
    d = {"mode": pick(["all", "non-main", "non-main"])}
    if maybe(0.8):
        d["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.3):
        d["workspaceAccess"] = pick(["none", "ro", "rw"])
    if maybe(0.2):
        d["docker"] = {"containerPrefix": pick(["oc-", "", "p" * 60, "UP-"])}

    def entry(i):
        e = {}
        if maybe(0.4):
            e["sandbox"] = {k: v for k, v in (("scope", pick(["session", "agent", "shared"])),
                                              ("mode", pick(["all", "non-main", "off"]))) if maybe(0.6)}
        return e
    cfg = {"agents": roster([i.lower() if len(ids) > 1 else i for i in ids], entry, {"sandbox": d})}
    if maybe(0.25):
        cfg["session"] = {k: v for k, v in (("scope", pick(["per-sender", "global"])),
                                           ("dmScope", pick(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])))
                          if maybe(0.7)}
    a = pick(ids).lower()
    r = rng.random()
    if r < 0.5:
        session = key_for(a, ids)
    elif r < 0.8:
        segs = [pick(ODD_SEGS) for _ in range(rng.randint(1, 4))]
        session = "agent:" + pick([a, a.upper(), "other", "ünï", "a" * 70]) + ":" + ":".join(segs)
    else:
        session = pick(["main", "global", "Main", "cron:x", "subagent:y", "a" * 300, "x:" + "y" * 150,
                        ":".join(pick(ODD_SEGS) for _ in range(3)), "agent:" + a, "agent:" + a + ":", "agent::x"])
    return cfg, ids, pick([None, None, a]), session


def gen_wsaccess():
    """workspaceAccess x workspaceRoot x agent workspace x scope, default and other agents"""
    ids = ["main"] if maybe(0.4) else rng.sample(["main", "work", "ops"], 2)
    d = {"mode": pick(["all", "all", "non-main"]), "workspaceAccess": pick(["none", "ro", "rw"])}
    if maybe(0.6):
        d["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.6):
        d["workspaceRoot"] = pick(WS_ROOTS[1:] + ["~/sbx", "/srv/sbx"])
    defaults = {"sandbox": d}
    if maybe(0.5):
        defaults["workspace"] = pick(WS_PATHS + ["~/agents", "/srv/agents/"])

    def entry(i):
        e = {}
        if maybe(0.5):
            e["workspace"] = pick(WS_PATHS + [f"~/ws-{i}", "~/shared"])
        if maybe(0.5):
            e["sandbox"] = {k: v for k, v in (("workspaceAccess", pick(["none", "ro", "rw"])),
                                              ("workspaceRoot", pick(WS_ROOTS[1:])),
                                              ("scope", pick(["session", "agent", "shared"]))) if maybe(0.5)}
        return e
    cfg = {"agents": roster(ids, entry, defaults)}
    if maybe(0.1):
        cfg["env"] = {"vars": {"OPENCLAW_PROFILE": pick(["dev", "work", "default"])}}
    a = pick(ids)
    return cfg, ids, pick([a, a, None]), (key_for(a, ids) if maybe(0.6) else None)


def gen_dockerx():
    """odd but valid docker settings at defaults and agent level (merge rules)"""
    ids = ["main"] if maybe(0.5) else ["main", "work"]
    d = {"mode": pick(["all", "all", "non-main"]), "docker": docker_ok("defaults")}
    if maybe(0.4):
        d["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.2):
        d["backend"] = pick(["podman", "docker"])
    cfg = {"agents": roster(ids, lambda i: {"sandbox": {"docker": docker_ok("agent")}} if maybe(0.6) else {}, {"sandbox": d})}
    a = pick(ids)
    return cfg, ids, pick([a, None]), (key_for(a, ids) if maybe(0.4) else None)


# JSON5 syntax corners, spliced into a valid config's text
J5_NUMS = ["0x1F", "0XFF", "+1", "-0", ".5", "5.", "1e3", "1E-2", "Infinity", "-Infinity", "NaN", "+Infinity", "0x0",
           "010", "1_000", "0b1", "1.", "00", "-0x10", "+.5"]
J5_STRS = ["'single'", "'it\\'s'", '"dq \\"x\\""', "'\\x41\\u0042'", "'line\\\ncont'", "'tab\\tx'", "'\\0'", "'\\v\\f'",
           "'\u2028'", "'\u2029'", "\"\\u{41}\"", "'\\a'", "'\\8'", "'a\nb'", "\"\\ud83d\\ude42\"", "'\\ud83d'", "''",
           "'\\/'", "'日本'", "\"\\u00e9\""]
J5_WS = [" ", "\t", "\n", "\r\n", "\u00a0", "\ufeff", "\u2028", "\u2029", "\u000b", "\u000c", "\u3000", "\u200b", "\u0085"]
J5_COMMENTS = ["// c\n", "/* c */", "/* multi\nline */", "/**/", "/* nested /* x */", "// \u2028 after\n", "#hash\n"]


def gen_syntax():
    """JSON5 corners, ${VAR} and $include with real files"""
    ids = ["main"]
    sb = {"mode": pick(["all", "non-main"]), "scope": pick(["session", "agent", "shared"]),
          "workspaceAccess": pick(["none", "ro", "rw"]), "docker": {"image": "img:1", "cpus": 1, "env": {"A": "b"}}}
    cfg = {"agents": {"defaults": {"sandbox": sb}}, "tools": {"deny": ["browser"]}}
    files = None
    kind = pick(["num", "str", "ws", "comment", "key", "dup", "bom", "trail", "env", "env", "include", "include", "include",
                 "proto", "proto"])
    text = json.dumps(cfg, indent=2)
    if kind == "num":
        text = text.replace('"cpus": 1', '"cpus": ' + pick(J5_NUMS))
    elif kind == "str":
        text = text.replace('"img:1"', pick(J5_STRS))
    elif kind == "ws":
        for _ in range(rng.randint(1, 3)):
            pos = pick([m for m in range(len(text)) if text[m] in ",:{["])
            text = text[:pos + 1] + pick(J5_WS) + text[pos + 1:]
    elif kind == "comment":
        for _ in range(rng.randint(1, 2)):
            pos = pick([m for m in range(len(text)) if text[m] in ",{["])
            text = text[:pos + 1] + pick(J5_COMMENTS) + text[pos + 1:]
    elif kind == "key":
        text = text.replace('"image"', pick(["image", "'image'", "im\\u0061ge", "\\u0069mage", "$image", "_image", "imäge",
                                             "\"im\\u0061ge\"", "'imag\\x65'", "image\u200c"]))
    elif kind == "proto":
        key = pick(["__proto__", "constructor", "prototype", "'__proto__'", "__proto__"])
        val = pick(['"v"', "5", '{"A": "b"}', '{"mode": "off"}', "null", "[]"])
        anchor = pick(['"env": {', '"docker": {', '"sandbox": {', '"tools": {', '"defaults": {', '"agents": {'])
        text = text.replace(anchor, anchor + " " + (key if key.startswith("'") else '"' + key + '"') + ": " + val + ",", 1)
    elif kind == "dup":
        text = text.replace('"image": "img:1",', pick(['"image": "a:1", "image": "img:1",', '"image": "img:1", "image": "b:2",',
                                                       '"cpus": 4, "image": "img:1",']))
        if maybe(0.3):
            text = text.replace('"mode":', '"mode": "off", "mode":')
    elif kind == "bom":
        text = pick(["\ufeff", "\ufeff\ufeff", " \ufeff", "\n\ufeff"]) + text
    elif kind == "trail":
        text = text.replace('"b"\n', '"b",\n').replace('"browser"\n', pick(['"browser",\n', '"browser",,\n', '"browser"\n']))
        text = text.rstrip() + pick(["", ",", "\n// end", "\n/* end */", " x", "\u2028"])
    elif kind == "env":
        vals = {"ZMODE": pick(["all", "off", "non-main", "ALL", ""]), "ZIMG": pick(["from-env:1", "", "$x", "${ZMODE}"]),
                "zlow": "lower"}
        cfg["env"] = pick([{"vars": vals}, vals, {"vars": vals, "ZTOP": "top"}])
        sb["mode"] = pick(["${ZMODE}", "all"])
        sb["docker"]["image"] = pick(["${ZIMG}", "x-${ZIMG}-y", "$${ZIMG}", "${zlow}", "${ZTOP}", "${ZNONE}", "${HOME}/i",
                                      "$${ZIMG}${ZIMG}", "${ZIMG", "\\${ZIMG}"])
        if maybe(0.3):
            sb["workspaceRoot"] = pick(["${HOME}/r", "${ZNONE}/r", "~/${ZMODE}"])
        text = json.dumps(cfg, indent=2)
    else:  # include
        files = {}
        sub = {"docker": {"binds": ["/srv/inc:/inc:ro"], "env": {"INC": "1"}}, "scope": "agent"}
        target = pick(["root", "agents", "sandbox", "tools"])
        name = pick(["inc.json5", "sub/inc.json", "inc.json"])
        files[name] = pick([json.dumps(sub), "// c\n{docker: {binds: ['/srv/inc:/inc:ro'], env: {INC: '1'},}, scope: 'agent',}"])
        if target == "root":
            files[name] = json.dumps({"agents": {"defaults": {"sandbox": sub}}, "tools": {"deny": ["exec"]}})
            cfg["$include"] = pick(["./" + name, name, ["./" + name], ["./" + name, "./" + name]])
        elif target == "agents":
            files[name] = json.dumps({"defaults": {"sandbox": sub}, "entries": {"main": {"tools": {"allow": ["read"]}}}})
            cfg["agents"]["$include"] = "./" + name
        elif target == "sandbox":
            sb["$include"] = pick(["./" + name, [name]])
        else:
            files[name] = json.dumps({"deny": ["write"], "sandbox": {"tools": {"allow": ["exec", "read"]}}})
            cfg["tools"]["$include"] = "./" + name
        if maybe(0.3):  # a second level
            files["b.json"] = json.dumps({"docker": {"dns": ["1.1.1.1"]}})
            if target == "sandbox":
                files[name] = json.dumps({**sub, "$include": "./b.json"}) if not name.startswith("sub/") else \
                    json.dumps({**sub, "$include": "../b.json"})
        if maybe(0.2):
            files["env.json"] = json.dumps({"vars": {"ZINC": "from-include"}})
            cfg["env"] = {"$include": "./env.json"}
            sb["docker"]["image"] = "${ZINC}"
        text = json.dumps(cfg, indent=2)
    return cfg, ids, None, pick([None, "agent:main:whatsapp:group:1"]), text, files


def inc_fragment():
    """a small valid piece of config a file may hold at one of the include points"""
    return {
        "root": lambda: {k: v for k, v in (
            ("agents", {"defaults": {"sandbox": sandbox_ok("defaults", 0.5)}}),
            ("tools", policy3(0.4, 0.5, 0.3)),
            ("env", {"vars": {"ZINC": pick(["all", "rw", "img:inc"])}})) if maybe(0.6)},
        "agents": lambda: {k: v for k, v in (
            ("defaults", {"sandbox": sandbox_ok("defaults", 0.4)}),
            ("entries", {pick(["main", "work"]): {"tools": policy3(0.4, 0.4, 0.2)}})) if maybe(0.6)},
        "sandbox": lambda: sandbox_ok("defaults", 0.6),
        "docker": lambda: docker_ok("defaults"),
        "tools": lambda: policy3(0.5, 0.5, 0.3),
        "list": lambda: tool_list(0, 3),
    }


def gen_include():
    """$include with real files: merge order, siblings, arrays, nesting, depth, cycles, paths"""
    frags = inc_fragment()
    files = {}
    cfg = {"agents": {"defaults": {"sandbox": {"mode": pick(["all", "non-main"]), "docker": {"image": "root:1"}}}},
           "tools": {"deny": ["browser"]}}
    point = pick(["root", "root", "agents", "sandbox", "docker", "tools", "list"])
    names = ["a.json", "b.json5", "sub/c.json", "d.json", "sub/deeper/e.json"]

    def content(v):
        if maybe(0.2):
            return j5(v, pick([0, 2]), 0)
        return json.dumps(v, indent=pick([None, 2]))
    n = rng.randint(1, 3)
    used = rng.sample(names, n)
    for nm in used:
        files[nm] = content(frags[point]())
    spec = ["./" + u if maybe(0.7) else u for u in used]
    val = spec[0] if n == 1 and maybe(0.6) else spec
    if maybe(0.08):
        val = pick(["", [], [""], 5, None, {}, [5], "./nope.json", "../out.json", "/etc/hostname", "~/x.json", "sub",
                    "./sub/../a.json", "a.json ", "A.JSON"])
        files.setdefault("a.json", "{}")
    sb = cfg["agents"]["defaults"]["sandbox"]
    if point == "root":
        cfg["$include"] = val
        if maybe(0.4):
            cfg["tools"]["deny"] = pick([["exec"], ["browser", "exec"], []])
    elif point == "agents":
        cfg["agents"]["$include"] = val
    elif point == "sandbox":
        sb["$include"] = val
        if maybe(0.5):
            sb["scope"] = pick(["session", "shared"])
    elif point == "docker":
        sb["docker"]["$include"] = val
        if maybe(0.5):
            sb["docker"]["binds"] = ["/srv/root:/r"]
    elif point == "tools":
        cfg["tools"]["$include"] = val
    else:  # an array-valued file at a key, or inside an array
        if maybe(0.5):
            cfg["tools"]["deny"] = {"$include": val}
        else:
            cfg["tools"]["deny"] = ["browser", {"$include": val}]
    twist = pick(["none", "none", "nested", "cycle", "depth", "badfile", "env", "siblingonly", "escape", "nonobject",
                  "blocked", "blocked"])
    if twist == "nested":  # a file that includes another, relative to itself
        inner = pick(["sub/inner.json", "inner.json"])
        files[inner] = content(frags[point if point != "list" else "tools"]()) if point != "list" else json.dumps(tool_list(1, 2))
        host = used[0]
        rel = "inner.json" if inner.startswith("sub/") == host.startswith("sub/") and "deeper" not in host else \
            ("../inner.json" if host.startswith("sub/") and "deeper" not in host and not inner.startswith("sub/") else inner)
        try:
            obj = json.loads(files[host])
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            obj["$include"] = pick([rel, "./" + rel, [rel]])
            files[host] = json.dumps(obj)
    elif twist == "cycle":
        files[used[0]] = json.dumps({"$include": "./" + used[0] if "/" not in used[0] else used[0].split("/")[-1]})
    elif twist == "depth":
        k = rng.randint(9, 12)
        for j in range(k):
            files[f"l{j}.json"] = json.dumps({"$include": f"./l{j + 1}.json"} if j + 1 < k else {"tools": {"deny": ["exec"]}})
        cfg["$include"] = "./l0.json"
    elif twist == "badfile":
        files[used[0]] = pick(["", "  ", "{", "\ufeff{}", "// only a comment", "[1,2]", "\"str\"", "null", "5", "{a:1,}",
                               "{\"tools\": {\"bogusKey\": 1}}"])
    elif twist == "env":
        cfg["env"] = {"vars": {"ZINC": pick(["all", "off", "inc-img"])}}
        files["envd.json"] = json.dumps({"image": "${ZINC}", "network": "${ZNET}"})
        sb["docker"]["$include"] = "./envd.json"
        files["envv.json"] = json.dumps({"vars": {"ZNET": "bridge"}})
        if maybe(0.5):
            cfg["env"]["$include"] = "./envv.json"
    elif twist == "siblingonly":
        cfg["$include"] = "./a.json"
        files["a.json"] = json.dumps({"tools": {"deny": ["exec"], "allow": ["read"]}, "agents": {"defaults": {"sandbox": {"mode": "off"}}}})
    elif twist == "escape":
        files["sub/esc.json"] = json.dumps({"$include": pick(["../../x.json", "../a.json", "/x.json", "../sub/../a.json"])})
        files.setdefault("a.json", "{}")
        cfg["$include"] = "./sub/esc.json"
    elif twist == "nonobject":
        files["n.json"] = pick(["[1]", "\"x\"", "5", "null", "true", "[]"])
        cfg[pick(["$include", "tools"])] = "./n.json" if maybe(0.5) else {"$include": "./n.json"}
    elif twist == "blocked":  # keys JavaScript objects treat specially, in a file or beside $include
        key = pick(["__proto__", "constructor", "prototype"])
        val = pick(["v", 5, {"A": "b"}, {"mode": "off"}, [], None])
        if maybe(0.5):
            try:
                obj = json.loads(files[used[0]])
            except ValueError:
                obj = None
            objs = []

            def walk(o):
                if isinstance(o, dict):
                    objs.append(o)
                    for x in o.values():
                        walk(x)
            walk(obj)
            if objs:
                pick(objs)[key] = val
                files[used[0]] = json.dumps(obj)
        else:
            tgt = pick([cfg, cfg["tools"], sb, sb["docker"], sb["docker"].setdefault("env", {})])
            tgt[key] = val
    if maybe(0.1):
        cfg["$Include"] = "./a.json"
        files.setdefault("a.json", "{}")
    return cfg, files, point + ":" + twist


def gen_include_case(i):
    cfg, files, what = gen_include()
    syntax, text = render(cfg)
    a = pick(["main", None])
    return {"id": f"g{seed:03d}{i:05d}", "category": "loading", "origin": "gen:include:" + what, "syntax": syntax,
            "config_text": text, "agent": a, "session": pick([None, "agent:main:whatsapp:group:1", "main"]),
            "subagent": maybe(0.1), "files": files}


def gen_chacct():
    """channel groups at the channel and in accounts (the "default" account's groups replace
    the channel's; an empty one inherits them when there is at most one account)"""
    ch = pick(["whatsapp", "telegram", "discord", "slack", "signal", "matrix", "imessage", "googlechat", "msteams", "irc"])
    gid = pick(["120363@g.us", "-100123", "C01", "999", "G1"])

    def groups():
        g = {}
        for k in sample([gid, "*", "other", gid.upper()], 1, 2):
            g[k] = {"tools": policy3(0.5, 0.5, 0.2)} if maybe(0.85) else pick([{}, {"requireMention": True}])
            if maybe(0.2):
                g[k]["toolsBySender"] = {"*": policy3(0.5, 0.5, 0.0)}
        return g
    chcfg = {}
    if maybe(0.6):
        chcfg["groups"] = groups()
    accts = {}
    for name in sample(["default", "Default", " default ", "DEFAULT", "work", "acct2", "main"], 0, 3):
        a = {}
        if maybe(0.7):
            a["groups"] = pick([groups(), groups(), {}, None]) if maybe(0.9) else {}
            if a["groups"] is None:
                del a["groups"]
        if maybe(0.2):
            a["enabled"] = pick([True, False])
        accts[name] = a
    if accts or maybe(0.2):
        chcfg["accounts"] = accts
    if maybe(0.15):
        chcfg["defaultAccount"] = pick(["work", "default", "acct2"])
    cfg = {"channels": {ch: chcfg}, "agents": {"defaults": {"sandbox": {"mode": pick(["all", "off", "non-main"])}}}}
    if maybe(0.3):
        cfg["tools"] = policy3(0.4, 0.4, 0.2)
    session = pick([f"agent:main:{ch}:group:{gid}", f"agent:main:{ch}:channel:{gid}", f"agent:main:{ch}:group:{gid}:topic:3",
                    f"agent:main:{ch}:acct2:group:{gid}", f"agent:main:{ch}:work:group:{gid}", f"agent:main:{ch}:group:other"])
    return cfg, ["main"], None, session


ENVX_REFS = ["${ZA}", "${ZA}${ZB}", "$${ZA}", "$$${ZA}", "${ZA:-d}", "${ZA-d}", "${ za }", "${Za}", "${za}", "${ZA", "$ZA",
             "${}", "${_}", "${_9}", "${9A}", "${ZA}}", "{${ZA}}", "${${ZA}}", "\\${ZA}", "${ZC}", "${ZN}", "${ZE}",
             "a${ZA}b${ZA}c", "${ZLOW}", "${HOME}", "${LANG}", "${TZ}", "${OPENCLAW_X}", "${ZD}", "$$", "${ZS}"]


def gen_envx():
    """${VAR} substitution: which names, escapes and env sources (env.vars, env shorthand,
    process) give what; the values land in docker.image and docker.env"""
    vals = {"ZA": pick(["a", "", " ", "${ZB}", "x y", "ünï"]), "ZB": "b", "ZLOW": "l", "zlow": "lower",
            "ZN": pick(["5", "0"]), "ZE": "", "ZS": " ", "ZD": "$${ZA}"}
    vars_ = dict(rng.sample(sorted(vals.items()), rng.randint(1, len(vals))))
    if maybe(0.3):
        vars_[pick(["ZC", "HOME", "LANG", "TZ", "NODE_OPTIONS", "A B", "9X", "_x"])] = pick(["c", "/x", ""])
    if maybe(0.15):
        vars_["ZNUM"] = pick([5, True, None, ["x"], {"a": 1}])
    env = pick([{"vars": vars_}, {"vars": vars_}, dict(vars_), {"shellEnv": {"enabled": False}, "vars": vars_}])
    refs = [pick(ENVX_REFS) for _ in range(3)]
    cfg = {"env": env, "agents": {"defaults": {"sandbox": {"mode": "all", "docker": {
        "image": refs[0], "env": {"R1": refs[1], pick(["R2", "R2", "R2", "${ZA}", "K${ZB}"]): refs[2]}}}}}}
    if maybe(0.2):
        cfg["agents"]["defaults"]["sandbox"]["docker"]["binds"] = ["/srv/" + pick(ENVX_REFS) + ":/x"]
    if maybe(0.15):
        cfg["agents"]["defaults"]["sandbox"]["mode"] = pick(["${ZMODE}", "$${ZMODE}"])
        cfg["env"].setdefault("vars", {})["ZMODE"] = pick(["all", "off", "ALL"])
    return cfg, ["main"], None, None


# the config keys whose strings OpenClaw checks as URLs (zod url() and its refinements,
# the plugins' format "uri"), and the pieces of odd URLs for them
URL_KEYS = ["gateway.publicOrigin", "mcp.apps.sandboxOrigin", "mcp.servers.s.url", "mcp.servers.s.oauth.redirectUrl",
            "mcp.servers.s.oauth.clientMetadataUrl", "nodeHost.mcp.servers.s.url",
            "nodeHost.mcp.servers.s.oauth.redirectUrl", "proxy.proxyUrl", "channels.discord.activityUrl",
            "channels.telegram.apiRoot", "channels.telegram.accounts.a.apiRoot", "channels.msteams.serviceUrl",
            "channels.nostr.profile.website", "channels.feishu.domain", "channels.clickclack.baseUrl",
            "channels.qa-channel.baseUrl", "channels.reef.relayUrl", "channels.buzz.relayUrl",
            "channels.a2a.advertisedUrl", "channels.a2a.peers.p.url"]
URL_SCHEMES = ["http", "https", "http", "https", "http", "https", "HTTP", "HtTpS", "ws", "wss", "ftp", "file", "mailto", "a", "1http", "", "http+x", "h"]
URL_SEPS = ["://", "://", "://", ":", ":/", ":///", ":\\\\", "://\\", ":\\/", "//"]
URL_USERS = ["", "", "", "", "u@", "u:p@", "@", ":@", "%40@"]
URL_HOSTS = ["a", "example.com", "localhost", "LOCALHOST", "localhost.", "localhost.localdomain", "127.0.0.1", "127.1",
             "127.0.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "127.0.0.1.", "127.0.0.2", "127.0.0.256", "1.2.3.4.5",
             "256.1.1.1", "[::1]", "[0:0::1]", "[::0.0.0.1]", "[0000::1]", "[::2]", "[::1", "[x]", "%6cocalhost", "%61",
             "a%20b", "a%zz", "a%2", "\u00e4.com", "\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54", "loc\u00adalhost",
             "a b", "xn--a", "09", "0x", "1.2.3.08", "", "a..b", "a_b", "a*b", "a^b", "a|b", "a<b"]
URL_PORTS = ["", "", "", ":", ":80", ":443", ":0", ":65535", ":65536", ":99999", ":80x", ":-1", ":08"]
URL_PATHS = ["", "", "", "/", "/", "/x", "/.", "/..", "/%2e", "/%2E%2e", "/./", "//", "\\", "/x/..", "/ ", "/a b"]
URL_TAILS = ["", "", "", "", "?", "?q", "#", "#f", "?a=b#c"]
URL_WRAPS = ["", "", "", "", " ", "\t", "\n", "\u00a0", "\u0001", "\r\n"]


def gen_url():
    """an odd URL at a key OpenClaw checks as one (zod url() + refinements, format "uri")"""
    u = (pick(URL_SCHEMES) + pick(URL_SEPS) + pick(URL_USERS) + pick(URL_HOSTS) + pick(URL_PORTS) + pick(URL_PATHS)
         + pick(URL_TAILS))
    if maybe(0.1):
        at = rng.randint(0, len(u))
        u = u[:at] + pick(["\t", "\n", "\r"]) + u[at:]
    w = pick(URL_WRAPS)
    u = w + u + (w if maybe(0.5) else "")
    if maybe(0.05):
        u = pick(["", " ", "x", "http://", "https://a:80/", "http://localhost:18789", "https://[::1]:8443"])
    cfg = cur = {}
    path = pick(URL_KEYS).split(".")
    for k in path[:-1]:
        cur = cur.setdefault(k, {})
    cur[path[-1]] = u
    return cfg, ["main"], None, None


# ---------------------------------------------------------------- round s9: the plugin registry's checks
SEARCH_PROVIDERS = ["gemini", "grok", "minimax", "ollama", "brave", "perplexity", "kimi", "firecrawl", "firecrawl-free",
                    "tavily", "exa", "duckduckgo", "searxng", "parallel", "parallel-free", "jina", "openai", "google",
                    "codex", "", " ", " brave ", "Brave", "GEMINI", "gemini "]
HB_TARGETS = ["whatsapp", "telegram", "Telegram", " imsg ", "lark", "zl", "last", "none", "owner", "OWNER", "webchat",
              "qa-channel", "bogus", "", " ", "discord", "nc-talk", "reef", "a2a"]
MODELS = ["anthropic/claude-opus-4-6", "openai/gpt-5.2", "google/gemini-2.5-flash", "google/gemini-2.0-flash",
          "google/gemini-1.5-pro", "Google/Gemini-2.0-Flash", "google-vertex/gemini-2.0-flash-001",
          "google/gemini-3-pro-preview", "google-gemini-cli/gemini-3-pro-preview", "xai/grok-4.20-multi-agent",
          "xai/grok-4", "gemini-2.0-flash", "google/", "/x", " google / gemini-1.5-flash ",
          "azure-openai-responses/gpt-5.3-codex-spark", "openai/gpt-5.3-codex-spark"]
GOOD_SEARCH = ["gemini", "grok", "minimax", "ollama", " gemini "]
GOOD_HB = ["whatsapp", "telegram", "last", "none", "owner", "discord", "slack"]
GOOD_MODELS = ["anthropic/claude-opus-4-6", "openai/gpt-5.2", "google/gemini-2.5-flash", "xai/grok-4",
               "google/gemini-3-pro-preview"]


def mostly(good, everything, p=0.65):
    return pick(good) if maybe(p) else pick(everything)


PLUGIN_IDS = ["memory-core", "browser", "imap", "webhooks", "brave", "google", "nosuch", "Memory-Core", "skill-workshop",
              "moonshot", "tavily", "google-gemini-cli", "crabbox", "voice-call", "lobster"]


def model_sel():
    if maybe(0.6):
        return mostly(GOOD_MODELS, MODELS)
    sel = {"primary": mostly(GOOD_MODELS, MODELS)}
    if maybe(0.6):
        sel["fallbacks"] = [mostly(GOOD_MODELS, MODELS) for _ in range(rng.randint(0, 2))]
    return sel


def gen_plugins():
    """the checks OpenClaw makes against its plugin registry after the schema: web_search
    provider (with plugins.allow/entries evidence), heartbeat targets, suppressed model refs,
    memory slot, plugin entry configs, load paths that preserve, broadcast agent ids"""
    ids = ["main"] if maybe(0.6) else ["main", "work"]
    cfg = {"agents": roster(ids, lambda i: ({"model": model_sel()} if maybe(0.3) else {}) |
                            ({"heartbeat": {"target": mostly(GOOD_HB, HB_TARGETS)}} if maybe(0.2) else {}),
                            {"sandbox": {"mode": pick(["all", "non-main", "off"])}})}
    d = cfg["agents"]["defaults"]
    if maybe(0.4):
        d["model"] = model_sel()
    if maybe(0.2):
        d["models"] = {mostly(GOOD_MODELS, MODELS): {} for _ in range(rng.randint(1, 2))}
    if maybe(0.15):
        d[pick(["imageModel", "pdfModel", "utilityModel"])] = model_sel()
    if maybe(0.25):
        d["heartbeat"] = {"target": mostly(GOOD_HB, HB_TARGETS)} | ({"model": mostly(GOOD_MODELS, MODELS)} if maybe(0.3) else {})
    if maybe(0.45):
        cfg["tools"] = {"web": {"search": {"provider": mostly(GOOD_SEARCH, SEARCH_PROVIDERS, 0.5)}}}
    pl = {}
    if maybe(0.3):
        pl["allow"] = [pick(PLUGIN_IDS + SEARCH_PROVIDERS[:12]) for _ in range(rng.randint(1, 2))]
    if maybe(0.25):
        pl["entries"] = {}
        for _ in range(rng.randint(1, 2)):
            e = {}
            if maybe(0.5):
                e["enabled"] = pick([True, False])
            if maybe(0.4):
                e["config"] = pick([{}, {}, {"bogus": 1}, {"accounts": {"a": {}}}, {"dreaming": {"enabled": True}}])
            pl["entries"][pick(PLUGIN_IDS + SEARCH_PROVIDERS[:12])] = e
    if maybe(0.15):
        pl["slots"] = {"memory": pick(PLUGIN_IDS + ["none", "NONE", " ", "memory-lancedb"])}
    if maybe(0.08):
        pl["load"] = {"paths": [pick(["/nonexistent/p", "~/nope", "rel/x", "", "/tmp"])]}
    if pl:
        cfg["plugins"] = pl
    if maybe(0.15):
        peer = pick(["120363@g.us", "telegram:-100123", "x", "wa:1", "Wa:x\ny"])
        agents = [mostly(ids, ids + ["nobody", "Work", " main"], 0.8) for _ in range(rng.randint(0, 3))]
        cfg["broadcast"] = {peer: agents if maybe(0.6) else {"agents": agents}}
        if maybe(0.2):
            cfg["broadcast"]["strategy"] = pick(["parallel", "sequential"])
    a = pick(ids)
    return cfg, ids, a, (key_for(a, ids) if maybe(0.4) else None)


def browser_ok():
    """sandbox.browser settings (mostly valid), for the resolved browser block"""
    f = {
        "enabled": lambda: pick([True, False, True]),
        "image": lambda: pick(["my-browser:1", "ghcr.io/x/chrome:latest", "", " img "]),
        "containerPrefix": lambda: pick(["br-", "", "X" * 70, "oc-browser-"]),
        "network": lambda: pick(["bridge", "none", "my-net", "HOST", "host", "container:x", " bridge "]),
        "cdpPort": lambda: pick([9222, 9333, 1, 0, 65536, 1.5]),
        "cdpSourceRange": lambda: pick(["172.21.0.1/32", "10.0.0.0/8", "", "bogus"]),
        "vncPort": lambda: pick([5900, 5901, 2]),
        "noVncPort": lambda: pick([6080, 6081]),
        "headless": lambda: pick([True, False]),
        "noVncEnabled": lambda: pick([True, False]),
        "enableNoVnc": lambda: pick([True, False]),
        "allowHostControl": lambda: pick([True, False]),
        "autoStart": lambda: pick([True, False]),
        "autoStartTimeoutMs": lambda: pick([5000, 12000, 1, 2147483647, 3000000000, 0]),
        "binds": lambda: pick([[], ["/srv/b:/b"], ["/srv/b:/b:ro", "/data:/data"], ["rel:/x"], ["/var/run/docker.sock:/s"]]),
    }
    return {k: f[k]() for k in sample(list(f), 1, 5)}


def gen_sbbrowser():
    """sandbox.browser at defaults and agent level, with scope shared/agent/session"""
    ids = ["main"] if maybe(0.5) else ["main", "work"]
    d = {"mode": pick(["all", "all", "non-main", "off"])}
    if maybe(0.5):
        d["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.8):
        d["browser"] = browser_ok()
    if maybe(0.2):
        d["docker"] = {"network": pick(["bridge", "none", "my-net"])}

    def entry(i):
        e = {}
        if maybe(0.5):
            e["sandbox"] = {"browser": browser_ok()}
            if maybe(0.3):
                e["sandbox"]["scope"] = pick(["session", "agent", "shared"])
        return e
    cfg = {"agents": roster(ids, entry, {"sandbox": d})}
    if maybe(0.15):
        cfg["browser"] = pick([{"enabled": False}, {"enabled": True}, {"headless": True}, {"evaluateEnabled": False}])
    if maybe(0.15):
        cfg["tools"] = {"sandbox": {"tools": policy3(0.5, 0.4, 0.2)}}
    a = pick(ids)
    return cfg, ids, a, (key_for(a, ids) if maybe(0.5) else None)


ODD_CHARS = ["\u0000", "\ud800", "\udfff", "\ud83d", "\ude00", "\ud83d\ude00", "\u0000\u0000", "\udbff\udbff"]


def odd_str(base):
    """base with a NUL or an unpaired surrogate (JSON escapes: render writes them escaped)"""
    at = rng.randint(0, len(base))
    return base[:at] + pick(ODD_CHARS) + base[at:]


def gen_oddstr():
    """NULs and unpaired surrogates (OpenClaw keeps both) where the sandbox reads strings"""
    sb = {"mode": pick(["all", "non-main"]), "scope": pick(["session", "agent", "shared"])}
    d = {}
    for k, base in [("image", "img:1"), ("containerPrefix", "oc-"), ("workdir", "/work"), ("network", "net"),
                    ("user", "1000"), ("seccompProfile", "/p.json"), ("apparmorProfile", "aa")]:
        if maybe(0.2):
            d[k] = odd_str(base)
    if maybe(0.3):
        d["env"] = {pick(["A", "LANG", "X\u0000"]): odd_str("v")}
    if maybe(0.25):
        d["binds"] = [odd_str("/srv/a") + ":" + pick(["/a", odd_str("/b")]) + pick(["", ":ro"])]
    for k, base in [("tmpfs", "/t"), ("dns", "1.1.1.1"), ("extraHosts", "h:1.2.3.4"), ("capDrop", "NET_RAW")]:
        if maybe(0.1):
            d[k] = [odd_str(base)]
    if maybe(0.15):
        d["setupCommand"] = pick([odd_str("echo hi"), [odd_str("a"), "b"]])
    if d:
        sb["docker"] = d
    if maybe(0.2):
        sb["workspaceRoot"] = odd_str(pick(["~/root", "/srv/r"]))
    if maybe(0.3):
        sb["workspaceAccess"] = pick(["none", "ro", "rw"])
    defaults = {"sandbox": sb}
    if maybe(0.3):
        defaults["workspace"] = odd_str(pick(["~/ws", "/srv/ws"]))
    cfg = {"agents": {"defaults": defaults}}
    if maybe(0.3):
        cfg["tools"] = {pick(["allow", "deny", "alsoAllow"]): [odd_str(pick(["exec", "read", "group:fs", "*"])), "write"]}
    if maybe(0.15):
        cfg["env"] = {"vars": {"ODD": odd_str("x")}}
        cfg["agents"]["defaults"]["sandbox"].setdefault("docker", {})["image"] = "${ODD}"
    if maybe(0.1):
        cfg["gateway"] = {"publicOrigin": "https://" + odd_str("ex.com")}
    return cfg, ["main"], pick(["main", None]), pick([None, "agent:main:whatsapp:group:1", "agent:main:main"])


def gen_realistic():
    """a whole config as users write one: a roster with per-agent sandbox/tools, channels with
    group policies, bindings, models, heartbeat, web search, plugins, broadcast"""
    ids = rng.sample(["main", "work", "family", "ops", "coder"], rng.randint(1, 4))
    if "main" not in ids and maybe(0.6):
        ids[0] = "main"
    defaults = {"sandbox": sandbox_ok("defaults", 0.5)}
    if maybe(0.5):
        defaults["model"] = model_sel()
    if maybe(0.3):
        defaults["workspace"] = pick(["~/.openclaw/workspace", "~/agents", "/srv/agents"])
    if maybe(0.25):
        defaults["heartbeat"] = {"every": pick(["30m", "1h", "2h30m", "45", "bogus"]), "target": mostly(GOOD_HB, HB_TARGETS)}
        if maybe(0.3):
            defaults["heartbeat"]["activeHours"] = {"start": pick(["08:00", "09:30", "7:00"]), "end": pick(["22:00", "24:00", "23:59"])}

    def entry(i):
        e = {}
        if maybe(0.5):
            e["sandbox"] = sandbox_ok("agent", 0.3)
        if maybe(0.5):
            e["tools"] = tools_ok(True)
        if maybe(0.3):
            e["workspace"] = pick([f"~/.openclaw/workspace-{i}", f"~/ws-{i}", f"/srv/{i}"])
        if maybe(0.2):
            e["model"] = model_sel()
        if maybe(0.15):
            e["name"] = i.title()
        return e
    cfg = {"agents": roster(ids, entry, defaults)}
    if maybe(0.6):
        cfg["tools"] = tools_ok(False)
        if maybe(0.2):
            cfg["tools"]["web"] = {"search": {"enabled": True, "provider": mostly(GOOD_SEARCH, SEARCH_PROVIDERS, 0.7)}}
    ch = {}
    for c in rng.sample(["whatsapp", "telegram", "discord", "slack", "signal"], rng.randint(0, 2)):
        cc = {"enabled": pick([True, True, False])}
        if c in ("whatsapp", "telegram", "signal") and maybe(0.6):
            gid = {"whatsapp": "120363@g.us", "telegram": "-100123", "signal": "g1"}[c]
            cc["groups"] = {pick([gid, "*"]): {"requireMention": pick([True, False])} |
                            ({"tools": policy3(0.4, 0.6, 0.1)} if maybe(0.6) else {})}
        ch[c] = cc
    if ch:
        cfg["channels"] = ch
    if len(ids) > 1 and maybe(0.5):
        cfg["bindings"] = [{"agentId": pick(ids + ["ghost"] if maybe(0.1) else ids),
                            "match": {"channel": pick(list(ch) or ["whatsapp"])} | ({"peer": {"kind": "group", "id": "120363@g.us"}} if maybe(0.4) else {})}
                           for _ in range(rng.randint(1, 2))]
    if maybe(0.15):
        cfg["broadcast"] = {pick(["120363@g.us", "telegram:-100123"]): [pick(ids) for _ in range(rng.randint(1, 2))]}
    if maybe(0.2):
        cfg["plugins"] = pick([{"allow": ["memory-core"]}, {"entries": {"memory-core": {"enabled": True}}},
                               {"entries": {"brave": {"enabled": True}}}, {"slots": {"memory": "memory-core"}}])
    if maybe(0.2):
        cfg["session"] = {k: v for k, v in (("dmScope", pick(["main", "per-peer", "per-channel-peer"])),
                                           ("maintenance", {"pruneAfter": pick(["30d", "7d", 14, "0d"])})) if maybe(0.6)}
    a = pick(ids)
    return cfg, ids, pick([a, a, None]), (key_for(a, ids) if maybe(0.7) else None)


# JavaScript string rules in the names resolution compares: toLowerCase beyond ASCII (Kelvin
# sign, U+0130, final sigma, fullwidth, Cherokee), trim()'s white space beyond ASCII, and
# Object.prototype's property names where OpenClaw looks names up in objects
JS_CASE = ["\u212a", "\u0130", "\u03a3", "\u039f\u0394\u039f\u03a3", "\u03a3\u0391", "\uff25\uff38", "\u13a0",
           "\u01c5", "\u1e9e", "\u2126", "\u0391\u03a3\u0301", "\u0391\u00ad\u03a3"]
JS_WS = ["\u00a0", "\ufeff", "\u3000", "\u2028", "\u1680", "\u202f", "\u0085", "\u200b", "\u180e", "\u000b"]
PROTO_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "Constructor"]


def js_name(base):
    r = rng.random()
    if r < 0.3:
        i = rng.randint(0, len(base))
        return base[:i] + pick(JS_CASE) + base[i:]
    if r < 0.45:
        return base.replace("k", "\u212a").replace("K", "\u212a").upper()
    if r < 0.7:
        w = pick(JS_WS)
        return pick([w + base, base + w, w + base + w])
    if r < 0.85:
        return pick(PROTO_NAMES)
    return pick([base, base.upper(), "group:" + pick(PROTO_NAMES), "*" + pick(JS_CASE), "s\u212aill_*"])


def gen_jsnames():
    """JS string rules (Unicode case, white space, prototype names) in tool names, keys, ids"""
    ids = ["main"] if maybe(0.5) else ["main", "work"]
    bases = ["exec", "read", "skill_workshop", "group:fs", "sessions_*", "lobster", "browser", "apply-patch", "BASH"]
    lst = lambda: [js_name(pick(bases)) for _ in range(rng.randint(1, 3))] + (["read"] if maybe(0.5) else [])
    st = {k: lst() for k in ("allow", "alsoAllow", "deny") if maybe(0.4)}
    if "allow" in st and "alsoAllow" in st:
        del st["alsoAllow"]
    tools = {"sandbox": {"tools": st}} if st else {}
    if maybe(0.4):
        tools[pick(["allow", "alsoAllow", "deny"])] = lst()
    d = {"mode": pick(["all", "all", "non-main"]), "scope": pick(["session", "agent", "shared"])}
    if maybe(0.2):
        d["docker"] = {"env": {js_name("LANG"): "x"}}
    cfg = {"agents": roster(ids, lambda i: {"tools": {"deny": lst()}} if maybe(0.3) else {}, {"sandbox": d})}
    if tools:
        cfg["tools"] = tools
    if maybe(0.25):
        cfg["channels"] = {"telegram": {"groups": {"*": {"tools": {"deny": ["edit"]}},
                                                   js_name("g1"): {"tools": {"deny": lst()}}}}}
    a = pick(ids)
    r = rng.random()
    if r < 0.3:
        session = f"agent:{js_name(a)}:{pick(['main', 'x', js_name('main')])}"
    elif r < 0.5:
        session = f"agent:{a}:telegram:group:{js_name('g1')}"
    elif r < 0.65:
        session = js_name("main")
    else:
        session = key_for(a, ids)
    return cfg, ids, pick([None, a, js_name(a)]), session


# ---------------------------------------------------------------- round 5 (conf5) corners: resolution rules
# the generators above reach rarely: a policy at every layer at once (alsoAllow alone, groups an allow
# names and a deny takes back, plugin groups, toolsBySender keys), docker merges with both levels set,
# session keys made for scope keys and slugs, non-main with session.scope / dmScope / mainKey
SENDER_KEYS = ["*", " * ", "*", "\u00a0*", "*\t", "id:+1555", "e164:+15551234567", "username:@bob", "name:Bob", "**", "*:*", "ID:*", "x"]
PROVIDER_KEYS = ["openai", "OpenAI", "openai/gpt-5", "OpenAI/GPT-5.2", "anthropic/claude-opus-4-5", " anthropic ",
                 "google/gemini-2.5-pro/latest", "openrouter/anthropic/claude", "ollama/llama3:8b", "*", "x/"]
CORNER_NAMES = GROUPS + ["group:plugins", "group:FS", " group:runtime ", "group:nope", "lobster", "llm-task",
                         "memory-core", "voice-call", "bundle-mcp", "diffs", "*", "exec", "read", "write", "apply_patch",
                         "apply-patch", "bash", "BASH", "image", "cron", "update_plan", "canvas", "show_widget",
                         "sessions_*", "*_list", "web_*", "*search*", "memory_*", "nosuch", "x*", "*", "group:*",
                         "message", "browser", "nodes", "gateway", "sessions_spawn", "subagents", "agents_list"]


def clist(lo, hi):
    return [pick(CORNER_NAMES) for _ in range(rng.randint(lo, hi))]


def cpolicy(also_alone_p=0.35):
    """allow / alsoAllow / deny, often alsoAllow without an allow, often a deny of what the allow names"""
    p = {}
    r = rng.random()
    if r < also_alone_p:
        p["alsoAllow"] = clist(1, 3)
    elif r < 0.75:
        p["allow"] = clist(1, 4)
    if maybe(0.55):
        p["deny"] = clist(1, 3)
        if p.get("allow") and maybe(0.4):  # deny what the allow names (a group, or one of its tools)
            p["deny"].append(pick(p["allow"]))
    return p


def gen_polcorner():
    """every policy layer at once: profile (global, agent, byProvider), global, agent, channel group
    (and its toolsBySender), tools.toolsBySender, sandbox (global, agent), subagent, with plugins on"""
    ids = ["main"] if maybe(0.5) else ["main", "work"]
    ch = pick(["telegram", "whatsapp", "discord", "slack", "signal"])
    gid = pick(["-100123", "120363@g.us", "C01", "999"])
    t = {}
    if maybe(0.5):
        t["profile"] = pick(PROFILES)
    t.update(cpolicy())
    if maybe(0.4):
        t["byProvider"] = {pick(PROVIDER_KEYS): {k: v for k, v in [("profile", pick(PROFILES))] if maybe()} | cpolicy()}
    if maybe(0.3):
        t["toolsBySender"] = {pick(SENDER_KEYS): cpolicy() for _ in range(rng.randint(1, 3))}
    if maybe(0.6):
        t["sandbox"] = {"tools": cpolicy()}
    if maybe(0.5):
        t["subagents"] = {"tools": cpolicy()}
    if maybe(0.15):
        t["elevated"] = pick([{"enabled": True}, {"enabled": False}, {"enabled": True, "allowFrom": {"telegram": ["1"]}}])

    def entry(i):
        e = {}
        if maybe(0.6):
            at = {}
            if maybe(0.4):
                at["profile"] = pick(PROFILES)
            at.update(cpolicy())
            if maybe(0.35):
                at["sandbox"] = {"tools": cpolicy()}
            if maybe(0.2):
                at["toolsBySender"] = {pick(SENDER_KEYS): cpolicy() for _ in range(rng.randint(1, 3))}
            if maybe(0.15):
                at["byProvider"] = {pick(PROVIDER_KEYS): cpolicy()}
            if maybe(0.1):
                at["elevated"] = {"enabled": pick([True, False])}
            e["tools"] = at
        if maybe(0.3):
            e["sandbox"] = {"mode": pick(["all", "off", "non-main"])}
        if maybe(0.15):
            e["subagents"] = {"maxSpawnDepth": pick([1, 2, 3])}
        return e
    d = {"sandbox": {"mode": pick(["all", "all", "non-main", "off"])}}
    if maybe(0.25):
        d["subagents"] = {"maxSpawnDepth": pick([1, 2, 3, 5])}
    cfg = {"tools": t, "agents": roster(ids, entry, d)}
    if maybe(0.5):
        grp = {}
        for k in sample([gid, "*", gid.upper(), "other"], 1, 2):
            grp[k] = {"tools": cpolicy()} if maybe(0.8) else {}
            if maybe(0.3):
                grp[k]["toolsBySender"] = {pick(SENDER_KEYS): cpolicy() for _ in range(rng.randint(1, 3))}
        cfg["channels"] = {ch: {"groups": grp}}
    if maybe(0.35):
        cfg["plugins"] = pick([{"allow": ["lobster", "llm-task"]}, {"entries": {"lobster": {"enabled": True}}},
                               {"enabled": False}, {"deny": ["lobster"]}, {"allow": ["memory-core"]}])
    a = pick(ids)
    session = pick([None, f"agent:{a}:main", f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:{ch}:group:{gid.upper()}",
                    f"agent:{a}:{ch}:channel:{gid}", f"agent:{a}:{ch.upper()}:group:{gid}", f"agent:{a}:{ch}:group:{gid}:topic:9",
                    f"agent:{a}:subagent:x", f"agent:{a}:{ch}:group:{gid}:subagent:q", f"agent:{a}:cron:j",
                    f"agent:{a}:{ch}:direct:+1555", f"agent:{a}:{ch}:group:other"])
    return cfg, ids, pick([None, a]), session


MERGE_DOCKER = {
    "env": lambda: {pick(["LANG", "FOO", "BAR", "lang", "PATH", "_X"]): pick(["v", "", "C", "1"]) for _ in range(rng.randint(0, 3))},
    "binds": lambda: [pick(["/data:/data", "/srv/a:/mnt/a:ro", "/opt/x:/x:rw", "/data:/data"]) for _ in range(rng.randint(0, 2))],
    "tmpfs": lambda: pick([[], ["/tmp"], ["/tmp:exec"], ["/run", "/tmp:size=1m"], ["/cache:noexec"]]),
    "ulimits": lambda: {pick(["nofile", "nproc", "core", "NOFILE"]): pick([1, "2:3", {"soft": 4, "hard": 5}, {"soft": 6}, {}])
                        for _ in range(rng.randint(0, 2))},
    "dns": lambda: pick([[], ["1.1.1.1"], ["8.8.8.8", "1.1.1.1"]]),
    "extraHosts": lambda: pick([[], ["a:1.2.3.4"], ["b:5.6.7.8", "a:1.2.3.4"]]),
    "setupCommand": lambda: pick(["echo a", "echo a\necho b", ["echo a", "echo b"], [], [""], ["x"], " y ", "",
                                  ["a && b", "c; d"]]),
    "capDrop": lambda: pick([[], ["ALL"], ["NET_RAW"]]),
    "image": lambda: pick(["img:a", "img:b", " img:c "]),
    "network": lambda: pick(["none", "bridge", "net-a"]),
    "user": lambda: pick(["1000:1000", "0"]),
    "workdir": lambda: pick(["/w", "/workspace"]),
    "containerPrefix": lambda: pick(["a-", "b-"]),
    "readOnlyRoot": lambda: pick([True, False]),
    "pidsLimit": lambda: pick([5, 100]),
    "memory": lambda: pick(["1g", 512]),
    "cpus": lambda: pick([1, 0.5]),
    "gpus": lambda: pick(["all", ""]),
    "seccompProfile": lambda: pick(["/s.json", "default"]),
    "apparmorProfile": lambda: pick(["openclaw"]),
}


def gen_dockmerge():
    """docker at defaults and at the agent with the same keys, under every scope at either level"""
    keys = list(MERGE_DOCKER)
    both = sample(keys, 2, 7)
    dd = {k: MERGE_DOCKER[k]() for k in both + sample(keys, 0, 3)}
    ad = {k: MERGE_DOCKER[k]() for k in both + sample(keys, 0, 3)}
    if maybe(0.15):
        dd.pop("env", None)
    ds = {"mode": pick(["all", "all", "non-main"]), "docker": dd}
    if maybe(0.7):
        ds["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.2):
        ds["browser"] = {"enabled": pick([True, False]), "image": "b:1"}
    if maybe(0.2):
        ds["prune"] = {"idleHours": pick([0, 5])}
    asb = {"docker": ad}
    if maybe(0.5):
        asb["scope"] = pick(["session", "agent", "shared"])
    if maybe(0.2):
        asb["prune"] = {"maxAgeDays": pick([0, 3])}
    if maybe(0.15):
        asb["browser"] = {"enabled": pick([True, False])}
    ids = ["main", "work"] if maybe(0.6) else ["main"]
    cfg = {"agents": roster(ids, lambda i: {"sandbox": asb} if i == ids[-1] or maybe(0.3) else {}, {"sandbox": ds})}
    a = pick(ids)
    return cfg, ids, pick([a, None]), pick([None, f"agent:{a}:main", f"agent:{a}:telegram:group:1", "main"])


SLUG_KEYS = ["ünïcödé", "日本語チャンネル", "🙂🙂🙂", "x" * 64, "y" * 65, "z" * 200, "Ab" * 40, ":::", "::", "a::b",
             "a:::b:", ":lead", "trail:", "MiXeD:CaSe", "UPPER", "a b", "a\tb", "a/b/c", "..", ".", "-", "_-_",
             "a.b.c", "İ", "ß", "Ⅻ", "K", "é" * 40, "𝒜" * 20, "%2F", "a%3Ab", "tab\there", "q" * 31 + "!"]


def gen_slugkeys():
    """session keys built for scope keys, slugs and container names under scope session/agent"""
    ids = ["main"] if maybe(0.6) else ["main", "work"]
    d = {"mode": "all", "scope": pick(["session", "session", "agent", "shared"])}
    if maybe(0.3):
        d["docker"] = {"containerPrefix": pick(["oc-", "", "P" * 40, "ü-", "x" * 63])}
    if maybe(0.2):
        d["backend"] = pick(["podman", "docker"])
    cfg = {"agents": roster(ids, lambda i: {}, {"sandbox": d})}
    a = pick(ids)
    segs = [pick(SLUG_KEYS) for _ in range(rng.randint(1, 3))]
    r = rng.random()
    if r < 0.5:
        session = f"agent:{pick([a, a.upper(), a.title()])}:" + ":".join(segs)
    elif r < 0.7:
        session = ":".join(segs)
    elif r < 0.85:
        session = pick(segs)
    else:
        session = f"agent:{a}:" + pick(["telegram:group:", "whatsapp:group:", "subagent:", "cron:"]) + ":".join(segs)
    return cfg, ids, pick([None, None, a]), session


def gen_nonmain():
    """mode non-main: which sessions are the main one under session.scope / dmScope / mainKey"""
    ids = ["main"] if maybe(0.5) else ["main", pick(["work", "ops"])]
    d = {"mode": "non-main"}
    if maybe(0.5):
        d["scope"] = pick(["session", "agent", "shared"])
    sess = {}
    if maybe(0.6):
        sess["scope"] = pick(["per-sender", "global"])
    if maybe(0.4):
        sess["dmScope"] = pick(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])
    if maybe(0.3):
        sess["mainKey"] = pick(["main", "home", "Main", " work ", "global"])
    cfg = {"agents": roster(ids, lambda i: {"sandbox": {"mode": pick(["non-main", "all", "off"])}} if maybe(0.25) else {},
                            {"sandbox": d})}
    if sess:
        cfg["session"] = sess
    a = pick(ids)
    session = pick([None, "main", "global", "GLOBAL", " global ", "home", "Main", f"agent:{a}:main", f"agent:{a}:global",
                    f"agent:{a}:home", f"agent:{a}:MAIN", f"agent:{a}:main:thread:1", f"agent:{a}:telegram:direct:1",
                    f"agent:{a}:direct:+1555", f"agent:{a}:whatsapp:group:1@g.us", f"agent:{a}:cron:x", "cron:x",
                    f"agent:{a}:subagent:1", f"agent:{a}:hook:x", "hook:x", f"agent:{a}:telegram:acct:direct:5",
                    f"agent:{a}:node:phone", f"agent:{a}:heartbeat", f"agent:{a}:acp:1", "agent:" + a])
    return cfg, ids, pick([None, a]), session


NEW_AREAS = {"agents": gen_agents, "policy": gen_policy, "scope": gen_scope, "wsaccess": gen_wsaccess,
             "dockerx": gen_dockerx, "syntax": gen_syntax, "include": None, "chacct": gen_chacct,
             "envx": gen_envx, "url": gen_url, "plugins": gen_plugins, "sbbrowser": gen_sbbrowser, "oddstr": gen_oddstr, "realistic": gen_realistic,
             "jsnames": gen_jsnames, "polcorner": gen_polcorner, "dockmerge": gen_dockmerge, "slugkeys": gen_slugkeys,
             "nonmain": gen_nonmain}


def gen_new_case(i, area):
    if area == "include":
        return gen_include_case(i)
    r = NEW_AREAS[area]()
    cfg, ids, agent, session = r[:4]
    files = None
    if area == "syntax":
        syntax, text, files = "json5", r[4], r[5]
    elif area == "oddstr":  # escaped: UTF-8 cannot hold an unpaired surrogate
        syntax, text = "json", json.dumps(cfg, indent=2, ensure_ascii=True)
    else:
        syntax, text = render(cfg)
    sub = maybe(0.2)
    c = {"id": f"g{seed:03d}{i:05d}", "category": {"agents": "resolution", "policy": "policy-layers", "scope": "session-keys",
                                                  "wsaccess": "resolution", "dockerx": "docker", "syntax": "loading",
                                                  "chacct": "policy-layers", "envx": "loading", "url": "invalid",
                                                  "plugins": "invalid", "sbbrowser": "browser",
                                                  "oddstr": "loading", "realistic": "resolution",
                                                  "jsnames": "tool-names", "polcorner": "policy-layers",
                                                  "dockmerge": "docker", "slugkeys": "session-keys",
                                                  "nonmain": "sandbox-matrix"}[area],
         "origin": "gen:" + area, "syntax": syntax, "config_text": text, "agent": agent, "session": session, "subagent": sub}
    if files:
        c["files"] = files
    return c


def gen_case(i, areas):
    area = pick(areas)
    if area in NEW_AREAS:
        return gen_new_case(i, area)
    cfg, ids = gen_matrix(area) if area in ("binds", "ssh", "wsroot") else gen_config(area)
    origin = "gen:" + area
    if area == "legacy":
        origin += ":" + ",".join(add_legacy(cfg) for _ in range(rng.randint(1, 3)))
    elif area == "provider":
        origin += ":" + add_provider_policy(cfg)
    elif area == "deep":
        if maybe(0.5):  # on a config that is otherwise valid, so the value decides
            cfg = {"agents": {"defaults": {"sandbox": {"mode": pick(["all", "off", "non-main"])}}}}
            ids = ["main"]
        origin += ":" + ",".join(add_deep(cfg) for _ in range(rng.randint(1, 2)))
    elif area == "deepsb":
        if maybe(0.4):
            cfg = {"agents": {"defaults": {"sandbox": {"mode": pick(["all", "off", "non-main"])}}}}
            ids = ["main"]
        origin += ":" + ",".join(add_deep_sandbox(cfg) for _ in range(rng.randint(1, 2)))
    elif area == "env":
        origin += ":" + add_env(cfg)
        if maybe(0.15):
            origin += ":" + add_include(cfg)
    if area == "invalid" or maybe(0.07):
        if maybe(0.3):
            what = per_agent_invalid(cfg) or mutate_invalid(cfg)
        else:
            what = mutate_invalid(cfg)
        origin += ":" + what
        category = "invalid"
    else:
        category = {"roster": "legacy", "docker": "docker", "tools": "policy-layers", "sessions": "session-keys",
                    "json5": "sandbox-matrix", "misc": "resolution",
                    "legacy": "legacy", "provider": "policy-layers", "env": "loading", "deep": "invalid",
                    "deepsb": "invalid", "keys": "session-keys",
                    "binds": "docker", "ssh": "resolution", "wsroot": "resolution",
                    "channels": "policy-layers"}[area]
    if area == "json5":
        syntax, text = "json5", j5(cfg, pick([2, 0]), 0)
    else:
        syntax, text = render(cfg)
    agent = None
    r = rng.random()
    if r < 0.45:
        agent = pick(ids) if ids else "main"
        if maybe(0.1):
            agent = agent.upper()
        if maybe(0.05):
            agent = " " + agent + " "
    elif r < 0.5:
        agent = pick(["nosuch", "MAIN", "main"])
    session = gen_session(ids, cfg) if (area == "sessions" or maybe(0.6)) else None
    if area == "keys":
        session = random_session(ids)
    if area == "channels":
        cfg, session = gen_channels()
        syntax, text = render(cfg)
    sub = maybe(0.15 if area != "sessions" else 0.25)
    return {"id": f"g{seed:03d}{i:05d}", "category": category, "origin": origin, "syntax": syntax,
            "config_text": text, "agent": agent, "session": session, "subagent": sub}


if __name__ == "__main__":
    seed = int(sys.argv[1])
    count = int(sys.argv[2])
    old = ["roster", "docker", "tools", "sessions", "invalid", "json5", "misc"]
    areas = sys.argv[3].split(",") if len(sys.argv) > 3 else old
    if areas == ["all"]:
        areas = old + ["legacy", "provider", "env", "deep", "deepsb", "keys", "binds", "ssh", "wsroot", "channels"] + list(NEW_AREAS)
    elif areas == ["new"]:
        areas = list(NEW_AREAS)
    rng = random.Random(seed)
    for i in range(count):
        print(json.dumps(gen_case(i, areas), ensure_ascii=False))

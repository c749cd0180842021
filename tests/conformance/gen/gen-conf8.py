#!/usr/bin/env python3
"""gen-conf8.py SEED N AREA: conformance round 8's cases (cases.jsonl on stdout; ask the oracle with
oracle-batch.sh, join with merge.py; or GEN=gen-conf8.py run-round.sh OUT SEED N AREA).
  nfc   hosts where UTS 46's NFC step decides: egress-proxy hosts (length after NFC, a mark first
        beyond the common blocks), publicOrigin / catalogRefresh URLs and gateway.portals.ingress
        against an origin written decomposed (base + combining marks, Hangul jamo, two-part Indic
        vowels, singletons, composition exclusions, marks out of canonical order)
  gaps  the branches of OpenClaw's resolution no corpus case took (coverage-gaps.py on a V8
        coverage run of the corpus; allow + alsoAllow in one scope is refused by the schema, so
        mergeConfiguredSubagentAllow's merge cannot be reached from a config): subagent, sandbox
        tools whose explicit allow compiles to no pattern (empty, blank, unknown groups) with no
        deny, toolsBySender keys of every shape (typed prefixes with an empty value, blanks,
        several wildcards) in tools and channel groups, group entries
        without tools under a '*' with tools, padded/upper-case group ids, profile alsoAllow at
        agent and global level with implicit grants (tools.exec / tools.fs sections), backend ids
        blank or in odd case, with sandbox modes, scopes and session keys of every kind
  errors configs OpenClaw refuses or accepts at load: $include missing / cyclic / outside the
        root / not an object / arrays of them / nested too deep, ${VAR} unset in every section,
        unknown keys in strict and loose sections, wrong types at the keys sbx resolves
  hand  rosters that are empty, null or both kinds (listAgentIds / resolveSoleAgentId branches:
        "entries": null is a roster the schema refuses), blank default workspaces, and env's
        own string keys beside env.vars (OPENCLAW_HOME / STATE_DIR / PROFILE, blank, lower case,
        bad names), each with agent none/main/ops and a foreign session (SEED and N unused)"""
import importlib.util, json, os, random, sys, unicodedata
seed, count, area = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
R = random.Random(seed)
out = []


def case(cid, cfg, category="invalid", text=None, **kw):
    c = {"id": cid, "category": category, "origin": f"conf8:{area}", "syntax": "json",
         "config_text": text if text is not None else json.dumps(cfg, indent=2, ensure_ascii=False),
         "agent": None, "session": None, "subagent": False}
    c.update(kw)
    out.append(c)


# decomposed pieces: NFC joins each into one code point (or reorders / keeps it)
DECOMP = ["e\u0301", "u\u0308", "a\u030a", "o\u0302\u0301", "c\u0327\u0301", "o\u031b\u0323", "o\u0323\u031b",
          "\u1100\u1161", "\u1100\u1161\u11a8", "\uac00\u11a8", "\u0995\u09bc", "\u09c7\u09be", "\u0b47\u0b3e",
          "\u0627\u0653", "\u05d0\u05b7", "\u0915\u093c", "\u212b", "\u2126", "\u0344", "\u0958", "\u1e9b\u0323",
          "a\u0323\u0301", "a\u0301\u0323", "\u3046\u3099", "\u30cf\u309a", "i\u0307", "\u0391\u0301", "n\u0303",
          "\u0cbf\u0cd5", "\u0dd9\u0dcf\u0dca"]
MARKS = ["\u0301", "\u0b3c", "\u0dca", "\u1cd0", "\u302a", "\u0bcd", "\u0c3c", "\u1a17", "\u11a8", "\u0e31",
         "\U0001d165", "\u093c", "\u0f39", "\u20e3", "\ufe00", "\u0345", "\u1dfa", "\u0f7a", "\u0cbc", "\u09be"]
PLAIN = list("abcxyz019-") + ["é", "ü", "ß", "中", "가"]


def host():
    k = R.choice([1, 1, 2, 3])
    labels = []
    for _ in range(k):
        n = R.choice([1, 2, 5, 10, 15, 18, 20, 21, 22, 25, 30, 40])
        lab = "".join(R.choice(DECOMP) if R.random() < 0.6 else R.choice(PLAIN) for _ in range(n))
        if R.random() < 0.15:
            lab = R.choice(MARKS) + lab
        labels.append(lab)
    return ".".join(labels) + R.choice(["", ".com", ".example"])


def gen_nfc():
    i = 0
    for d in DECOMP + [m + "a" for m in MARKS] + ["a" + m for m in MARKS]:
        for k in ("allowedHosts", "bypassHosts"):
            case(f"c8-nfc-h{i:03d}", {"secrets": {"egressProxy": {"enabled": True, k: [d + ".example"]}}})
            i += 1
    for rep in range(18, 40):  # the 63 limit: composed vs decomposed lengths
        for d in ("e\u0301", "\u1100\u1161", "o\u0302\u0301", "\u09c7\u09be"):
            case(f"c8-nfc-l{i:03d}", {"secrets": {"egressProxy": {"enabled": True, "allowedHosts": [d * rep + ".example"]}}})
            i += 1
    for m in MARKS + DECOMP:
        case(f"c8-nfc-u{i:03d}", {"gateway": {"publicOrigin": "https://" + m + "x.example"}})
        case(f"c8-nfc-u{i + 1:03d}", {"models": {"catalogRefresh": {"url": "https://" + m + ".example/c.json"}}})
        i += 2
    for d in DECOMP:
        comp = unicodedata.normalize("NFC", d)
        for dom, origin in ((comp + ".example", "https://" + d + ".example"), (d + ".example", "https://x." + comp + ".example")):
            case(f"c8-nfc-g{i:03d}", {"gateway": {"portals": {"ingress": {"domain": dom, "port": 9000}}, "publicOrigin": origin}})
            i += 1
    for j in range(count):
        h = host()
        w = R.choice(["egress", "egress", "origin", "ingress"])
        if w == "egress":
            cfg = {"secrets": {"egressProxy": {"enabled": True, R.choice(["allowedHosts", "bypassHosts"]): [h]}}}
        elif w == "origin":
            cfg = {"gateway": {"publicOrigin": "https://" + h}}
        else:
            cfg = {"gateway": {"portals": {"ingress": {"domain": "example", "port": 9000}}, "publicOrigin": "https://" + h + ".example"}}
        case(f"c8-nfc-r{seed}-{j:04d}", cfg)


_spec = importlib.util.spec_from_file_location("gc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-configs.py"))
gc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gc)
gc.rng = random.Random(seed)
pick, maybe = gc.pick, gc.maybe

ODD_ALLOW = [[""], ["  "], ["group:nope"], ["group:plugins"], ["", "exec"], ["nope_tool"], ["*"], [" * "], ["EXEC"],
             ["group:fs", ""], ["bundle-mcp"], ["memory-core"], ["web_*"], [], ["sessions_spawn"], ["message"]]
SENDER_KEYS = ["*", " * ", "*  ", "", " ", "id:", "id: ", "e164:", "username:", "name:", "channel:", "channel:*", "id:*",
               "ID:*", "foo:bar", "U123", "+1555", "username:@bob", "e164:+1 555", "name:Bob Smith", "channel:telegram",
               "Channel:Telegram", "**", "*:*"]


def sender_map():
    m = {}
    for k in gc.rng.sample(SENDER_KEYS, gc.rng.randint(1, 4)):
        m[k] = pick([{}, gc.policy3(0.6, 0.5, 0.2), gc.policy3(0.6, 0.5, 0.2), {"allow": pick(ODD_ALLOW)},
                     {"deny": pick(ODD_ALLOW)}, {"alsoAllow": ["exec"]}])
    return m


def sb_tools():
    t = {}
    if maybe(0.7):
        t["allow"] = pick(ODD_ALLOW)
    elif maybe(0.5):
        t["alsoAllow"] = pick(ODD_ALLOW)
    if maybe(0.25):
        t["deny"] = pick(ODD_ALLOW)
    return t


def gap_tools(agent):
    t = gc.policy3(0.3, 0.3, 0.25) if maybe(0.6) else {}
    if maybe(0.4):
        t["profile"] = pick(gc.PROFILES + ["full", "coding"])
    if "allow" not in t and maybe(0.3):
        t["alsoAllow"] = pick(ODD_ALLOW + [["exec", "read"], ["group:runtime"]])
    if maybe(0.5):
        t["sandbox"] = {"tools": sb_tools()}
    if not agent and maybe(0.5):
        st = {}
        if maybe(0.7):
            st["allow"] = pick(ODD_ALLOW + [["read", "exec"], ["group:sessions"]])
        elif maybe(0.7):
            st["alsoAllow"] = pick(ODD_ALLOW + [["sessions_spawn"], ["subagents", "exec"]])
        if maybe(0.3):
            st["deny"] = pick(ODD_ALLOW)
        t["subagents"] = {"tools": st}
    if maybe(0.3):
        t["toolsBySender"] = sender_map()
    if maybe(0.2):
        t["exec"] = pick([{}, {"security": "full"}, {"host": "sandbox"}])
    if maybe(0.15):
        t["fs"] = pick([{}, {"workspaceOnly": True}])
    return t


GROUP_IDS = ["G1", "g1", " G1 ", "-100123", "120363@g.us", "C01", "c01", "*"]


def gap_channels():
    chs = {}
    for ch in gc.rng.sample(["telegram", "whatsapp", "signal", "imessage"], gc.rng.randint(1, 2)):
        groups = {}
        for gid in gc.rng.sample(GROUP_IDS, gc.rng.randint(1, 4)):
            e = {}
            if maybe(0.6):
                e["tools"] = gc.policy3(0.6, 0.5, 0.2)
            if maybe(0.3):
                e["toolsBySender"] = sender_map()
            if maybe(0.2):
                e["requireMention"] = pick([True, False])
            groups[gid] = e
        chs[ch] = {"groups": groups}
        if maybe(0.2):
            chs[ch]["groupPolicy"] = pick(["open", "allowlist", "disabled"])
    return chs


def gap_session(ids):
    a = pick(ids)
    ch = pick(["telegram", "whatsapp", "signal", "imessage"])
    gid = pick(["G1", "g1", "-100123", "120363@g.us", "C01", "c01", "other"])
    return a, pick([None, "main", f"agent:{a}:{ch}:group:{gid}", f"agent:{a}:{ch}:group:{gid}:sender:U123",
                    f"agent:{a}:{ch}:group:{gid}:topic:9", f"agent:{a}:{ch}:channel:{gid}", f"agent:{a}:{ch}:direct:bob",
                    f"agent:{a}:subagent:x", f"agent:{a}:subagent:x:subagent:y", f"{ch}:group:{gid}", "global",
                    f"agent:{a}:cron:j1"])


def gen_gaps():
    for j in range(count):
        ids = pick([["main"], ["main"], ["main", "ops"], ["a", "b", "c"]])
        defaults = {}
        if maybe(0.8):
            sb = {"mode": pick(["off", "non-main", "all", "all"]), "scope": pick(["session", "agent", "shared"])}
            if maybe(0.3):
                sb["backend"] = pick(["docker", "Docker", " docker ", "PODMAN", "podman", "ssh", " ", " \t"])
            if maybe(0.3):
                sb["workspaceAccess"] = pick(["none", "ro", "rw"])
            defaults["sandbox"] = sb
        cfg = {"agents": gc.roster(ids, lambda i: ({"tools": gap_tools(True)} if maybe(0.5) else {}) |
                                   ({"sandbox": {"mode": pick(["off", "all", "non-main"])}} if maybe(0.3) else {}), defaults)}
        if maybe(0.8):
            cfg["tools"] = gap_tools(False)
        if maybe(0.5):
            cfg["channels"] = gap_channels()
        a, sess = gap_session(ids)
        case(f"c8-gap-{seed}-{j:04d}", cfg, category="policy-layers", agent=pick([a, a, None]), session=sess,
             subagent=maybe(0.15))


def gen_errors():
    for j in range(count):
        files = {}
        cfg = {"agents": {"defaults": {"sandbox": {"mode": pick(["all", "off"])}}}}
        kind = pick(["inc_dir", "inc_nul", "inc_long", "inc_missing", "inc_cycle", "inc_outside", "inc_notobj", "inc_array", "inc_deep", "env_missing",
                     "unknown_key", "wrong_type", "inc_ok", "env_ok"])
        where = pick([["agents", "defaults"], ["tools"], ["agents", "defaults", "sandbox"], ["channels", "telegram"],
                      ["gateway"], ["session"], ["agents", "defaults", "sandbox", "docker"], []])
        node = cfg
        for k in where:
            node = node.setdefault(k, {})
        if kind == "inc_dir":
            node["$include"] = pick(["./sub", "sub/", "./sub/.", pick([["./sub"], ["./ok.json", "./sub"]])])
            files["sub/x.json"] = "{}"
            files["ok.json"] = "{}"
        elif kind == "inc_nul":
            node["$include"] = pick(["./a\u0000.json", "\u0000", ["./a.json", "a\u0000b"]])
            files["a.json"] = "{}"
        elif kind == "inc_long":
            node["$include"] = "./" + "x/" * pick([2040, 2100, 3000]) + "a.json"
        elif kind == "inc_missing":
            node["$include"] = pick(["./nope.json", "nope.json5", "sub/x.json", ""])
        elif kind == "inc_cycle":
            node["$include"] = "./a.json"
            files["a.json"] = json.dumps({"$include": pick(["./b.json", "./a.json"])})
            files["b.json"] = json.dumps({"$include": "./a.json"})
        elif kind == "inc_outside":
            node["$include"] = pick(["../x.json", "/etc/hostname", "sub/../../x.json", "/tmp/x.json"])
        elif kind == "inc_notobj":
            node["$include"] = "./v.json"
            files["v.json"] = pick(["[1,2]", "5", '"s"', "null", "true", "{bad json", "", "{}"])
        elif kind == "inc_array":
            node["$include"] = ["./a.json", pick(["./b.json", "./nope.json", 5, None, "./a.json"])]
            files["a.json"] = json.dumps(pick([{}, {"x": 1}, {"mode": "all"}]))
            files["b.json"] = json.dumps(pick([{}, [1], {"mode": "off"}]))
        elif kind == "inc_deep":
            d = gc.rng.randint(9, 12)
            node["$include"] = "./i0.json"
            for k in range(d):
                files[f"i{k}.json"] = json.dumps({"$include": f"./i{k + 1}.json"})
            files[f"i{d}.json"] = "{}"
        elif kind == "env_missing":
            node[pick(["image", "mode", "x", "profile", "workdir"])] = pick(["${OC8_MISSING}", "a${OC8_MISSING}b", "$${OC8_MISSING}"])
        elif kind == "env_ok":
            cfg["env"] = {"vars": {"OC8_SET": pick(["all", "off", "x", ""])}}
            node[pick(["image", "mode", "workdir"])] = "${OC8_SET}"
        elif kind == "unknown_key":
            node[pick(["bogus", "Mode", "allow ", "$inclde", "__proto__", "constructor"])] = pick([1, "x", {}, None])
        elif kind == "wrong_type":
            node[pick(["mode", "scope", "allow", "deny", "image", "enabled", "groups", "cpus", "pidsLimit"])] = pick(
                [1, "x", [], {}, None, True, -1, 1.5, ["exec"]])
        elif kind == "inc_ok":
            node["$include"] = "./ok.json"
            files["ok.json"] = json.dumps(pick([{}, {"mode": "all"}, {"profile": "coding"}, {"image": "x"}]))
        case(f"c8-err-{seed}-{j:04d}", cfg, category="invalid", files=files) if files else \
            case(f"c8-err-{seed}-{j:04d}", cfg, category="invalid")


def gen_hand():
    n = 0
    rosters = [{"entries": {}}, {"list": []}, {"entries": {}, "ownership": "explicit"},
               {"list": [], "defaults": {"sandbox": {"mode": "all"}}}, {"entries": None}, {"list": None},
               {"defaults": {"sandbox": {"mode": "all"}}}, {"entries": {"main": {}}, "list": []},
               {"defaults": {"workspace": "  "}, "entries": {"main": {}}}, {"defaults": {"workspace": ""}, "entries": {"main": {}}},
               {"entries": {"main": {"workspace": " "}}}, {"entries": None, "list": [{"id": "a"}]},
               {"entries": None, "ownership": "explicit"}, {"list": None, "entries": {"a": {}}}, {"list": [], "entries": None},
               {"entries": None, "list": [{"id": "main", "default": True}, {"id": "b"}]}]
    for r in rosters + [None]:
        for agent, sess in ((None, None), ("main", None), (None, "agent:x:main"), ("ops", None), ("a", None)):
            case(f"c8-hand-r{n}", {"agents": r}, category="resolution", agent=agent, session=sess)
            n += 1
    envs = [{"OPENCLAW_HOME": "/srv/h"}, {"OPENCLAW_HOME": "  "}, {"OPENCLAW_STATE_DIR": "/srv/st"},
            {"OPENCLAW_STATE_DIR": "/srv/st", "vars": {"OPENCLAW_STATE_DIR": "/srv/v"}},
            {"vars": {"OPENCLAW_HOME": "/srv/v"}, "OPENCLAW_HOME": "/srv/d"}, {"OPENCLAW_WORKSPACE_DIR": "/srv/ws"},
            {"openclaw_home": "/srv/h"}, {"OPENCLAW_HOME": 5}, {"OPENCLAW_HOME": "~/x"}, {"shellEnv": {"enabled": False}, "OPENCLAW_PROFILE": "work"},
            {"OPENCLAW_PROFILE": "bad profile!"}, {"1BAD": "x"}, {"A-B": "x"}, {"OPENCLAW_HOME": "/srv/h", "HOME": "/srv/home2"},
            {"HOME": "/srv/home2"}]
    for e in envs + [{"FOO": "bar"}, {"FOO": "  "}, {"FOO": "bar", "vars": {"FOO": "baz"}}]:
        for ops in (False, True):
            cfg = {"env": e, "agents": {}}
            if "FOO" in e:
                cfg["agents"]["defaults"] = {"sandbox": {"docker": {"image": "${FOO}"}}}
            if ops:
                cfg["agents"].update({"ownership": "explicit", "entries": {"main": {}, "ops": {"sandbox": {"mode": "all"}}}})
            case(f"c8-hand-e{n}", cfg, category="resolution", agent="ops" if ops else None)
            n += 1


{"nfc": gen_nfc, "gaps": gen_gaps, "errors": gen_errors, "hand": gen_hand}[area]()
for c in out:
    print(json.dumps(c, ensure_ascii=False))

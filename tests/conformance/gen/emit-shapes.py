#!/usr/bin/env python3
"""emit-shapes.py SHAPES.json VALIDATE.c > policy/config-shapes.h
emit-shapes.py SHAPES.json VALIDATE.c --patterns > policy/config-patterns.h
C tables of the shapes (from schema-shapes.mjs) of the keys that VALIDATE.c
(policy/config-validate.c) lists as known but not checked by hand: SNODES, the schema
nodes (deduplicated), and SHAPES, one row a (group, key) naming its node.
The tables hold no pointers (a pointer in a table is a relocation the dynamic loader
writes at every start of sbx): strings are offsets in one pool SPOOL (0: none), lists
of strings are indexes in SLISTS (a count, then that many offsets; 0: none), a node's
kids are a run of SKIDS, an enum's numbers a run of SNUMS.
With --patterns: SPATTERNS, each JSON Schema "pattern" (the plugins' schemas) as the ERE
SPOOL holds, then its source as written (ajv's "must match pattern" text names it); SZENUMS,
the value lists of zod's z.enum nodes (their issue says "expected one of", no hint)."""
import json, math, re, sys

shapes = json.load(open(sys.argv[1]))
src = open(sys.argv[2]).read()


def arr(name):
    m = re.search(r'static const char \*const ' + name + r'\[\] = \{(.*?)NULL', src, re.S)
    return re.findall(r'"([^"]+)"', m.group(1))


CHECKED_ROOT = {"agents", "tools", "session", "channels", "env", "bindings"}
groups = {"root": [k for k in arr("ROOT_KEYS") if k not in CHECKED_ROOT], "defaults": arr("DEFAULTS_KEYS"),
          "entry": arr("ENTRY_KEYS"), "tools": arr("TOOLS_KEYS"), "agenttools": arr("AGENT_TOOLS_KEYS"),
          "session": arr("SESSION_KEYS"), "subagents": arr("SUBAGENTS_KEYS")}
# the keys VALIDATE.c checks by hand (its table of fields) get a row too: the hand checks
# add the cross-field rules and sbx's notes, the schema the whole shape
CHECKED = {"tools": ["profile", "allow", "alsoAllow", "deny", "byProvider", "toolsBySender", "elevated", "exec",
                     "fs", "subagents", "sandbox"],
           "agenttools": ["profile", "allow", "alsoAllow", "deny", "byProvider", "toolsBySender", "elevated",
                          "exec", "fs", "sandbox"],
           "session": ["mainKey", "scope"],
           "defaults": ["workspace", "sandbox", "subagents"],
           "entry": ["default", "workspace", "name", "agentDir", "sandbox", "subagents"],
           "subagents": ["maxSpawnDepth"]}
for g, ks in CHECKED.items():
    groups[g] += [k for k in ks if k not in groups[g]]
# channels' own keys (defaults, modelByChannel) beside the channel ids v_channels checks
for k, d in (shapes.get("root.channels") or {}).get("keys", {}).items():
    shapes["channels." + k] = d
groups["channels"] = sorted((shapes.get("root.channels") or {}).get("keys", {}))
# each bundled channel's plugin schema (channels.<id>)
groups["channel"] = sorted(k.split(".", 1)[1] for k in shapes if k.startswith("channel."))
# each bundled plugin's config schema (plugins.entries.<id>.config)
groups["plugin"] = sorted(k.split(".", 1)[1] for k in shapes if k.startswith("plugin."))

nodes, index = [], {}


def num(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NAN"
    if isinstance(x, float) and math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    return repr(float(x))


def ere(rx):
    """a JS regex as a POSIX extended one (None when it uses what ERE lacks); \\d and \\w
    (ASCII in JS) become classes. JS's \\s (Unicode white space) only where a wider ERE
    class can only accept more: \\S outside brackets (no counted repeats in the regex: ERE
    counts bytes) and \\s in a negated bracket become their ASCII forms."""
    src = rx["src"].replace("(?![\\s\\S])", "$")  # "nothing follows": the end
    if set(rx["flags"]) - set("iu"):
        return None
    ws = " \t\n\v\f\r"
    out, i, inb, neg, start, dash, rbr = "", 0, False, False, 0, False, False
    while i < len(src):
        c = src[i]
        if c == "\\" and i + 1 < len(src):
            n = src[i + 1]
            cls = {"d": "0-9", "w": "A-Za-z0-9_"}.get(n)
            if cls:
                out += cls if inb else "[" + cls + "]"
            elif n == "S" and not inb and "{" not in src:
                out += "[^" + ws + "]"
            elif n == "s" and inb and neg:
                out += ws
            elif inb and n == "\\":
                out += "\\"  # in an ERE bracket a backslash is itself
            elif inb and n == "-":
                dash = True  # a literal '-' in a bracket: last, where ERE reads it as itself
            elif inb and n == "]":
                rbr = True  # a literal ']' in a bracket: first
            elif inb and n == "[" and src[i + 2:i + 3] not in (".", ":", "="):
                out += "["
            elif n in "/.-^$*+?()[]{}|\\" and not (inb and n in "[]\\^-"):
                out += ("\\" + n) if not inb and n != "/" else n
            else:
                return None  # \\b, \\p, escapes inside brackets ERE cannot say
            i += 2
            continue
        if src.startswith("(?:", i):
            out, i = out + "(", i + 3
            continue
        if src.startswith("(?", i):
            return None
        if c == "[" and not inb:
            inb, neg = True, src[i + 1:i + 2] == "^"
            out += "[^" if neg else "["
            i += 2 if neg else 1
            start = len(out)
            continue
        elif c == "]" and inb:
            inb = False
            if dash and not out.endswith("-"):
                out += "-"
            if rbr:
                out = out[:start] + "]" + out[start:]
            dash = rbr = False
        out += c
        i += 1
    return out, "i" in rx["flags"]


def node(d):
    """index of node d in SNODES (children first)"""
    if d["t"] == "union" and all(o["t"] == "enum" for o in d["o"]):  # z.union of literals
        d = {"t": "enum", "v": [v for o in d["o"] for v in o["v"]]}
    key = json.dumps(d, sort_keys=True)
    if key in index:
        return index[key]
    t = d["t"]
    f = {"type": "N_ANY", "keys": None, "kids": [], "extra": "X_ANY", "svals": None, "nums": [],
         "etrue": "false", "efalse": "false", "integer": "false", "trim": "false", "lo": "NAN", "lo_incl": "true",
         "hi": "NAN", "hi_incl": "true", "req": None, "re": None, "icase": "false", "custom": "K_NONE",
         "msg": None, "excl": None, "keyre": None, "url": "U_NONE", "hosts": None}
    if t == "object":
        ks = list(d["keys"])
        kids = [node(d["keys"][k]) for k in ks]
        f.update(type="N_OBJECT", keys=ks)
        for rx in d.get("keyre", []):
            e = ere(rx)
            if e:
                f["keyre"] = e[0]
                break
        if d.get("req"):
            f["req"] = list(d["req"])
        if d["extra"] == "no":
            f["extra"] = "X_NONE"
        elif isinstance(d["extra"], dict):
            kids.append(node(d["extra"]))
            f["extra"] = "X_NODE"
        f["kids"] = kids
    elif t in ("record", "array"):
        f.update(type="N_RECORD" if t == "record" else "N_ARRAY", kids=[node(d["v" if t == "record" else "e"])])
        if d.get("k"):
            f["kids"].append(node(d["k"]))
        if t == "array":
            f.update(lo=num(d.get("min")), hi=num(d.get("max")))
    elif t == "string":
        f.update(type="N_STRING", lo=num(d.get("min")), hi=num(d.get("max")), trim="true" if d.get("trim") else "false")
        if d.get("url"):
            f["url"] = "U_RAW" if d["url"] == "raw" else "U_ZOD"
        if d.get("excluded"):
            f["excl"] = list(d["excluded"])
        if d.get("hosts"):
            f["hosts"] = list(d["hosts"])
        if d.get("custom"):
            f["custom"] = "K_" + d["custom"].upper().replace("-", "_")
            if d.get("msg"):
                f["msg"] = d["msg"]
        for rx in d.get("re", []):
            if rx["src"] == "\\S" and f["custom"] == "K_NONE":  # JS white space is not ASCII's: told by trim
                f["custom"] = "K_NOT_BLANK"
                continue
            e = ere(rx)
            if e:
                f.update(re=e[0], icase="true" if e[1] else "false")
                if f["custom"] == "K_NONE":  # the regex's own message (zod: .regex(re, msg)), else zod's
                    f["msg"] = rx.get("msg")
                # \s in a negated bracket became ASCII's: the patterns that have one ("<literal
                # prefix>:[^\s...]...$") refuse JavaScript's other white space anywhere
                if re.search(r"\[\^[^\]]*\\s", rx["src"]) and f["custom"] == "K_NONE":
                    f["custom"] = "K_NO_JS_SPACE"
                break
    elif t == "number":
        f.update(type="N_NUMBER", integer="true" if d.get("int") else "false", lo=num(d.get("lo")),
                 lo_incl="true" if d.get("loIncl") else "false", hi=num(d.get("hi")),
                 hi_incl="true" if d.get("hiIncl") else "false")
    elif t == "boolean":
        f["type"] = "N_BOOL"
    elif t == "null":
        f["type"] = "N_NULL"
    elif t == "enum":
        strs = [v for v in d["v"] if isinstance(v, str)]
        nums = [v for v in d["v"] if isinstance(v, (int, float)) and not isinstance(v, bool)]
        f.update(type="N_ENUM", svals=strs, etrue="true" if True in [v for v in d["v"] if isinstance(v, bool)] else "false",
                 efalse="true" if False in [v for v in d["v"] if isinstance(v, bool)] else "false")
        if nums:
            f["nums"] = [num(v) for v in nums]
    elif t in ("union", "all"):
        kids = [node(o) for o in d["o"]]
        f.update(type="N_UNION" if t == "union" else "N_ALL", kids=kids)
    i = len(nodes)
    nodes.append(f)
    index[key] = i
    return i


rows = []
for g, keys in groups.items():
    for k in keys:
        d = shapes.get(g + "." + k)
        if d:
            rows.append((g, k, node(d)))

pool, offs = bytearray(b"\0"), {}  # offset 0: none


def soff(x):
    """offset of string x in SPOOL (0 for None)"""
    if x is None:
        return 0
    if x not in offs:
        offs[x] = len(pool)
        pool.extend(x.encode() + b"\0")
    return offs[x]


slists, lidx = [0], {}  # index 0: no list


def lst(xs):
    """index in SLISTS of the list of strings xs (0 for None)"""
    if xs is None:
        return 0
    key = tuple(xs)
    if key not in lidx:
        lidx[key] = len(slists)
        slists.extend([len(xs)] + [soff(x) for x in xs])
    return lidx[key]


def run(pool_, xs):
    """index of the run xs in pool_ (a list), appended unless it is already there"""
    n = len(xs)
    for i in range(len(pool_) - n + 1):
        if n and pool_[i:i + n] == xs:
            return i
    pool_.extend(xs)
    return len(pool_) - n if n else 0


skids, snums, out = [], [], []
for f in nodes:
    for a in ("keys", "svals", "req", "excl", "hosts"):
        f[a] = lst(f[a])
    for a in ("re", "msg", "keyre"):
        f[a] = soff(f[a])
    f["nkids"], f["kids"] = len(f["kids"]), run(skids, f["kids"])
    f["nnums"], f["nums"] = len(f["nums"]), run(snums, f["nums"])
    out.append(f"        {{{f['type']}, {f['extra']}, {f['integer']}, {f['trim']}, {f['etrue']}, {f['efalse']}, "
               f"{f['lo']}, {f['lo_incl']}, {f['hi']}, {f['hi_incl']}, {f['keys']}, {f['kids']}, {f['nkids']}, "
               f"{f['svals']}, {f['nums']}, {f['nnums']}, {f['req']}, {f['re']}, {f['icase']}, {f['custom']}, "
               f"{f['msg']}, {f['excl']}, {f['keyre']}, {f['url']}, {f['hosts']}}},")
shape_rows = [f"        {{{soff(g)}, {soff(k)}, {n}}}, /* {g}.{k} */" for g, k, n in rows]
assert max(skids, default=0) < 65536 and len(nodes) < 65536 and max(len(f) for f in lidx) <= 255


def cbytes(b):
    """b as the body of a C string literal (octal escapes: no digit can extend them)"""
    return "".join(chr(c) if 32 <= c < 127 and c not in b'"\\?' else "\\%03o" % c for c in b)


if "--patterns" in sys.argv[3:]:
    pats = {}

    def walk(o):
        if isinstance(o, dict):
            for rx in [x for a in ("re", "keyre") if isinstance(o.get(a), list) for x in o[a]]:
                if isinstance(rx, dict) and rx.get("flags") == "u" and isinstance(rx.get("src"), str):
                    e = ere(rx) if rx["src"] != "\\S" else ("\\S", False)
                    if e and e[0] not in pats:
                        pats[e[0]] = rx["src"]
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(shapes)
    # zod's z.enum (or a literal of several values): "Invalid option: expected one of"; a union of
    # literals (node() merges it into one enum) says "Invalid input" + the hint: the value lists
    # only the first kind has (a list both have is one node: the second kind's words)
    zen, uni = set(), set()

    def walk_enums(o):
        if isinstance(o, dict):
            if o.get("t") == "union" and o.get("o") and all(isinstance(x, dict) and x.get("t") == "enum" for x in o["o"]):
                uni.add(tuple(v for x in o["o"] for v in x["v"]))
                return
            if o.get("t") == "enum" and isinstance(o.get("v"), list) and len(o["v"]) >= 2 and \
                    all(isinstance(v, str) and v for v in o["v"]):
                zen.add(tuple(o["v"]))
            for v in o.values():
                walk_enums(v)
        elif isinstance(o, list):
            for v in o:
                walk_enums(v)
    walk_enums(shapes)
    print("/* SPDX-License-Identifier: MIT */")
    print("/* Generated by tests/conformance/gen/emit-shapes.py --patterns from OpenClaw 2026.9.6's")
    print(" * schema: each pattern of the bundled plugins' JSON Schemas as the ERE config-shapes.h holds")
    print(" * (the \\S one: the K_NOT_BLANK check), then its source as written; the value lists of the")
    print(" * zod schema's z.enum nodes. Do not edit by hand. */")
    print("static const char SPATTERNS[] =")
    for k in sorted(pats):
        print(f'        "{cbytes(k.encode())}\\0" "{cbytes(pats[k].encode())}\\0"')
    print('        "\\0";')
    print("/* the value lists of zod's z.enum nodes (each value, then an empty string; an empty list ends) */")
    print("static const char SZENUMS[] =")
    for vs in sorted(zen - uni):
        print("        " + " ".join(f'"{cbytes(v.encode())}\\0"' for v in vs) + ' "\\0"')
    print('        "\\0";')
    sys.exit(0)
print("/* SPDX-License-Identifier: MIT */")
print("/* Generated by tests/conformance/gen/emit-shapes.py from OpenClaw 2026.9.6's zod schema")
print(" * (schema-shapes.mjs): the shape of each config key sbx knows but does not check by")
print(" * hand, down to the leaves. Do not edit by hand. No pointers (no relocations): strings")
print(" * are offsets in SPOOL, lists of strings indexes in SLISTS (count, offsets). */")
print(f"#define SLIST_MAX {max(len(f) for f in lidx)} /* the longest list of SLISTS */")
print("static const char SPOOL[] =")
strs = pool[1:].split(b"\0")[:-1]
print('        "\\0"')
for x in strs:
    print(f'        "{cbytes(x)}\\0"')
print("        ;")
print("static const unsigned SLISTS[] = {")
i = 0
while i < len(slists):
    n = slists[i] if i else 0
    print("        " + ", ".join(str(x) for x in slists[i:i + n + 1]) + ",")
    i += n + 1
print("};")
print("static const unsigned short SKIDS[] = {")
for i in range(0, len(skids), 16):
    print("        " + ", ".join(str(x) for x in skids[i:i + 16]) + ",")
print("};")
print("static const double SNUMS[] = {" + ", ".join(snums) + "};")
print("static const struct snode SNODES[] = {")
print("\n".join(out))
print("};")
print("static const struct shape SHAPES[] = {")
print("\n".join(shape_rows))
print("        {0, 0, 0},")
print("};")

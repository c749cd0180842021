#!/usr/bin/env python3
"""gen-conf6.py AREA SEED N [valid]: conformance round 6's cases (cases.jsonl on stdout, ask the oracle with
oracle-batch.sh, join with merge.py).
  cwset      cloudWorkers.profiles.*.settings: every key class isSensitiveConfigPath knows (whitelisted
             suffixes, a final 'ref', keyRef, padded, Kelvin sign, non-BMP between api/key) with a valid
             SecretRef, an invalid one, a string; N random nested settings; isPluginJsonValue's bounds
  egressidn  secrets.egressProxy allowed/bypass hosts with non-ASCII names: hand-picked (punycode
             length limits, deleted and refused code points, Bidi, mappings) and N random ones
             (a pool with '_', soft hyphens, marks, Hebrew/Arabic; with "valid" one without them)
  urlhost    publicOrigin / catalogRefresh.url / a controlUi origin under portals.ingress with odd
             hosts (IPv4 numbers, IPv6 forms, IDN lookalikes), and ingress domains in xn-- form
             against IDN origins (N unused)"""
import json, random, sys
area, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
R = random.Random(seed)
out = []


def case(cid, cfg, syntax="json", text=None):
    out.append({"id": cid, "category": "invalid", "origin": f"conf6:{area}", "syntax": syntax,
                "config_text": text if text is not None else json.dumps(cfg, indent=2, ensure_ascii=False),
                "agent": None, "session": None, "subagent": False})


GOOD = [{"source": "env", "provider": "default", "id": "FOO_KEY"},
        {"source": "file", "provider": "vault", "id": "/a/b~1c"},
        {"source": "file", "provider": "f", "id": "value"},
        {"source": "exec", "provider": "op", "id": "item/field#x"},
        {"source": "store", "provider": "s_1", "id": "A"}]
BAD = [{"source": "env", "provider": "default", "id": "foo"},
       {"source": "env", "provider": "Default", "id": "FOO"},
       {"source": "env", "provider": "default", "id": "FOO", "x": 1},
       {"source": "env", "provider": "default"},
       {"source": "file", "provider": "f", "id": "rel/x"},
       {"source": "file", "provider": "f", "id": "/a~2"},
       {"source": "exec", "provider": "op", "id": "a/../b"},
       {"source": "exec", "provider": "op", "id": "-a"},
       {"source": "vault", "provider": "x", "id": "A"},
       {"source": "env", "provider": " ", "id": "A"},
       {"source": "env", "provider": "default", "id": " A"},
       "plain", 1, None, ["x"], {}]
KEYS = ["token", "Token", "apiKey", "api_key", "API-KEY", "apikey", "apiXkey", "api\u00e9key", "api\U0001F600key",
        "api\nkey", "apiKeyRef", "keyRef", "KEYREF", "keyref", "key", "tokenRef", "tokenref", "secretRef", "secret",
        "clientSecret", "password", "Passwd", "passwordFile", "passwordFileRef", "maxTokens", "maxTokensRef",
        "tokenCount", "totalTokens", "region", "name", "serviceAccount", "serviceAccountRef", "serviceaccountREF",
        "serviceAccountJson", "privateKey", "private_key", "privatekeyref", "encryptKey", "encrypt-key",
        "encryptionKey", "localService.env.X", "localservice.env.", "x.localservice.env.y", "token ", " token",
        "tok\u212Aen", "to\u212Aen", "maxto\u212Aens", "Ref", "ref", "REF", "refref", "tokenrefref", "passwordref",
        "mytoken", "tokens", "authToken", "\u00a0token", "token\u00a0", "passwordFILE", "maxTokens ", " maxtokens",
        "__proto__", "constructor"]
def val(depth=0):
    r = R.random()
    if r < 0.3: return R.choice(GOOD)
    if r < 0.55: return R.choice(BAD)
    if r < 0.7 and depth < 3: return {R.choice(KEYS): val(depth + 1) for _ in range(R.randint(1, 3))}
    if r < 0.8 and depth < 3: return [val(depth + 1) for _ in range(R.randint(1, 3))]
    return R.choice(["v", 3, True, None, 1.5])


def gen_cwset():
    n = 0
    for k in KEYS:  # each key with a good ref, a bad ref, a string
        for v in (GOOD[n % len(GOOD)], BAD[n % len(BAD)], "s3cr3t"):
            n += 1
            case(f"c6-cwset-k{n:03d}", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {k: v}}}}})
    for i in range(count):
        s = {R.choice(KEYS): val() for _ in range(R.randint(1, 4))}
        case(f"c6-cwset-r{seed}-{i:03d}", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": s}}}})
    deep = "x"
    for _ in range(33): deep = {"a": deep}
    case("c6-cwset-deep33", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": deep}}}})
    deep = "x"
    for _ in range(31): deep = {"a": deep}
    case("c6-cwset-deep31", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": deep}}}})
    deep = "x"
    for _ in range(32): deep = {"a": deep}
    case("c6-cwset-deep32", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": deep}}}})
    deep = "x"
    for _ in range(32): deep = [deep]
    case("c6-cwset-deeparr32", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": deep}}}}})
    case("c6-cwset-long65536", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": "x" * 65536}}}}})
    case("c6-cwset-long65537", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": "x" * 65537}}}}})
    case("c6-cwset-longu", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": "\u00e9" * 40000}}}}})
    case("c6-cwset-longkey", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"k" * 65537: 1}}}}})
    case("c6-cwset-keys512", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {f"k{i}": 1 for i in range(512)}}}}})
    case("c6-cwset-keys513", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {f"k{i}": 1 for i in range(513)}}}}})
    case("c6-cwset-nodes4095", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": [1] * 4094}}}}})
    case("c6-cwset-nodes4096", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {"a": [1] * 4095}}}}})
    case("c6-cwset-bytes", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {f"k{i}": "y" * 60000 for i in range(5)}}}}})
    case("c6-cwset-bytes-ok", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {f"k{i}": "y" * 60000 for i in range(4)}}}}})
    case("c6-cwset-bytes-esc", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {f"k{i}": "\"" * 33000 for i in range(4)}}}}})
    case("c6-cwset-empty", {"cloudWorkers": {"profiles": {"p": {"provider": "x", "settings": {}}}}})
    case("c6-cwset-inf", None, "json5", "{cloudWorkers: {profiles: {p: {provider: 'x', settings: {a: Infinity}}}}}")
    case("c6-cwset-1e999", None, "json", "{\"cloudWorkers\": {\"profiles\": {\"p\": {\"provider\": \"x\", \"settings\": {\"a\": 1e999}}}}}")
    case("c6-cwset-nan", None, "json5", "{cloudWorkers: {profiles: {p: {provider: 'x', settings: {token: NaN}}}}}")

IDN_HOSTS = ["bücher.de", "münchen.example", "BÜCHER.DE", "ß.example", "straße.de", "é"*55 + ".com", "é"*56 + ".com",
 "é"*57 + ".com", "é"*58+".com", "a"*50 + "é" + ".com", "a"*58 + "é.com", "a"*59+"é.com", "a"*60+"é.com",
 "😀.example", "☃.net", "💩.la", "例え.テスト", "пример.рф", "ПРИМЕР.РФ", "日本語"*10 + ".jp", "日本語"*7+".jp",
 "\u0301a.example", "a\u0301.example", "e\u0301.example", "\u00e9.example", "\u200b.example", "a\u200bb.example",
 "a\u200cb.example", "a\u200db.example", "\u0080.example", "a\u009fb.example", "\ufffd.example", "\ufeffa.example",
 "\u00ad.example", "a\u00adb.example", "ｅｘａｍｐｌｅ.com", "ｅｘａｍｐｌｅ．com", "例。テスト", "א1.example", "1א.example",
 "אב.example", "א.example", "aא.example", "العربية.example", "عربي1.example", "xn--bcher-kva.de", "xn--bcher.de",
 "xn--a.example", "xn--zca.example", "xn--.example", "-bücher.de", "bücher-.de", "bü--cher.de", "ab--ü.de",
 "bücher..de", ".bücher.de", "bücher.de.", "bücher.de..", "ü", "ü"*63, "\u2163.example", "\u2126.example",
 "\u212a.example", "\u0130.example", "ǅ.example", "ﬀ.example", "\u3002", "a\u3002b", "\u00b7.example", "l\u00b7l.example",
 "\u0375\u03b1.example", "\u30fb.example", "\u30fb\u30a2.example", "\u05f3.example", "\u0660\u06f0.example",
 "\U000e0001.example", "\U0001d400.example", "\ud7ff.example", "\uf900.example", "\u2028.example", "\u0378.example",
 "\U0010fffd.example", "\uffff.example", "\U0001f1e6\U0001f1e8.example", "ü.xn--pck", "ü:80", "ü/x", "[ü]", "ü@x", "*.ü.de",
 "ǉ.example", "\u1e9e.example", "\u03c2.example", "\u03a3.example", "\u0345.example", "a\u0345.example",
 ".".join(["ü"*20]*12), ".".join(["ü"*20]*11), ".".join(["é"]*126), ".".join(["é"]*127),
 ".".join(["ab"]*83) + ".é", ".".join(["ab"]*84) + ".é"]
IDN_POOL = ["a", "b", "z", "0", "9", "-", "é", "ü", "ß", "ø", "ñ", "ç", "ä", "ö", "É", "Ü", "α", "Σ", "ς", "ω", "д", "Ж", "я",
        "中", "文", "日", "本", "한", "국", "あ", "ア", "ー", "א", "ב", "ש", "ا", "ب", "ع", "١", "۱", "ह", "ि", "्", "ก", "ั",
        "😀", "🎉", "☃", "€", "©", "\u00ad", "\u200b", "\u0301", "\u0308", "\u3002", "ｆ", "Ｆ", "ﬁ", "\u2126", "\u212a",
        "\u00df", "\u0130", "\u1e9e", "\ufb01", "\u2460", "\u00b5", "\u0149", "\u017f", "_", "\U0001d41a", "\u0fb5", "ǆ"]
IDN_POOL_VALID = [c for c in IDN_POOL if c not in ("_", "\u0fb5", "\u00ad", "\u200b", "\u0301", "\u0308", "ि", "्", "ั",
                                                 "א", "ב", "ש", "ا", "ب", "ع", "١", "۱")]


def gen_egressidn():
    def one(cid, h, rng):
        k = rng.choice(["allowedHosts", "bypassHosts"])
        case(cid, {"secrets": {"egressProxy": {"enabled": True, k: [h]}}})
    hand = random.Random(1)  # the hand-picked hosts' lists as in the round
    for i, h in enumerate(IDN_HOSTS):
        one(f"c6-egidn-{i:03d}", h, hand)
    valid = sys.argv[4:] == ["valid"]
    pool = IDN_POOL_VALID if valid else IDN_POOL
    lens = [1, 2, 3, 5, 8, 12, 15, 20, 25, 30, 35, 40, 45, 50] if valid else [1, 2, 3, 5, 8, 15, 20, 25, 30, 40, 50, 60, 62, 63, 64]
    for i in range(count):
        labels = ["".join(R.choice(pool) for _ in range(R.choice(lens))) for _ in range(R.randint(1, 4))]
        one(f"c6-egidn-{'v' if valid else 'r'}{seed}-{i:03d}", ".".join(labels) + R.choice(["", ".com", ".example", ".", ".рф"]), R)


URL_HOSTS = ["localhost", "LOCALHOST", "127.0.0.1", "127.1", "0x7f.0.0.1", "2130706433", "0177.0.0.1", "127.0.0.1.", "localhost.",
 "[::1]", "[0:0:0:0:0:0:0:1]", "[::0.0.0.1]", "[0::1]", "[::01]", "[0000::0001]", "[::ffff:127.0.0.1]", "[::1%25lo]", "[::1]:80",
 "[::1]:8080", "[:::1]", "[::1::]", "[0:0:0:0:0:0:0.0.0.1]", "[::]", "[::2]", "[::1.2.3.4]", "[::%31]",
 "l\u043ecalhost", "\u00e9.localhost", "localhost\u00ad", "ｌｏｃａｌｈｏｓｔ", "local\u200bhost", "lo\u0441alhost", "\u212aocalhost",
 "localhost\u3002", "127\u30020.0.1", "１２７.０.０.１", "xn--localhost-", "loca%6chost", "%6cocalhost", "127.0.0.%31",
 "m\u00fcnchen", "\u0131ocalhost", "LOCALHOS\u0130", "user@localhost", "localhost:18789", "localhost:0"]
INGRESS_IDN = [("xn--9ca.example", "https://é.example"), ("xn--9ca.example", "https://a.é.example"),
               ("xn--9ca.example", "https://É.example"), ("xn--9ca.example", "https://e.example"),
               ("portal.example", "https://\u0080.portal.example"), ("portal.example", "https://a\u200cb.portal.example"),
               ("portal.example", "https://é.portal.example"), ("xn--mnchen-3ya.de", "https://münchen.de"),
               ("xn--mnchen-3ya.de", "https://x.MÜNCHEN.de"), ("xn--bcher-kva.example", "https://bücher.example:8443"),
               ("portal.example", "https://\u0301a.portal.example"), ("xn--zca.example", "https://ß.example"),
               ("xn--ss.example", "https://ß.example"), ("ss.example", "https://ß.example"),
               ("example.com", "https://ｅｘａｍｐｌｅ.com"), ("example.com", "https://x.ｅｘａｍｐｌｅ．com"),
               ("xn--e1afmkfd.xn--p1ai", "https://пример.рф")]


def gen_urlhost():
    i = 0
    for h in URL_HOSTS:
        u = "http://" + h
        case(f"c6-urlhost-po-{i:03d}", {"gateway": {"publicOrigin": u}})
        case(f"c6-urlhost-cr-{i + 1:03d}", {"models": {"catalogRefresh": {"url": u + "/catalog.json"}}})
        o = ("http://" + h + ".portal.example" if not h.startswith("[") else u).replace("http://", "https://")
        case(f"c6-urlhost-pi-{i + 2:03d}", {"gateway": {"publicOrigin": "https://gw.example", "controlUi": {"allowedOrigins": [o]},
                                                    "portals": {"ingress": {"domain": "portal.example", "port": 9000}}}})
        i += 3
    for i, u in enumerate(["https://%F0.example", "https://a%F0.example/", "https://%C3%A9.example", "https://%C3.example",
                           "https://%E2%80%8C.example", "https://%C2%80.example", "https://%ED%A0%80.example",
                           "https://%F0%9F%98%80.example", "https://x.%F0%9F%98"]):  # %-escaped IDN hosts
        case(f"c6-urlpct-{i}0", {"gateway": {"publicOrigin": u}}, text=json.dumps({"gateway": {"publicOrigin": u}}, indent=2))
        case(f"c6-urlpct-{i}1", None, text=json.dumps({"models": {"catalogRefresh": {"url": u + "/c.json"}}}, indent=2))
        case(f"c6-urlpct-{i}2", None, text=json.dumps({"mcp": {"servers": {"s": {"url": u}}}}, indent=2))
    for i, (d, o) in enumerate(INGRESS_IDN):
        for j, where in enumerate(("publicOrigin", "allowedOrigins")):
            gw = {"portals": {"ingress": {"domain": d, "port": 9000}}}
            if where == "publicOrigin":
                gw["publicOrigin"] = o
            else:
                gw["controlUi"] = {"allowedOrigins": [o]}
            case(f"c6-ingidn-{i:02d}{j}", {"gateway": gw})


{"cwset": gen_cwset, "egressidn": gen_egressidn, "urlhost": gen_urlhost}[area]()
for c in out:
    print(json.dumps(c, ensure_ascii=False))

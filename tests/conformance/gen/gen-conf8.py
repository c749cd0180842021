#!/usr/bin/env python3
"""gen-conf8.py SEED N AREA: conformance round 8's cases (cases.jsonl on stdout; ask the oracle with
oracle-batch.sh, join with merge.py; or GEN=gen-conf8.py run-round.sh OUT SEED N AREA).
  nfc   hosts where UTS 46's NFC step decides: egress-proxy hosts (length after NFC, a mark first
        beyond the common blocks), publicOrigin / catalogRefresh URLs and gateway.portals.ingress
        against an origin written decomposed (base + combining marks, Hangul jamo, two-part Indic
        vowels, singletons, composition exclusions, marks out of canonical order)"""
import json, random, sys, unicodedata
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


{"nfc": gen_nfc}[area]()
for c in out:
    print(json.dumps(c, ensure_ascii=False))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real, tiny DNS server and client for the egress tests (issue 18).

  dns-tool.py serve ADDR ZONE      answer on ADDR:53 (UDP and TCP) from ZONE:
                                   lines "NAME A ADDR [TTL]" / "NAME CNAME TARGET [TTL]";
                                   other names NXDOMAIN; every question asked is
                                   appended to ZONE.log ("NAME TYPE")
  dns-tool.py query [--tcp] SERVER NAME [TYPE]
                                   ask SERVER:53; prints "rcode=N" then one line per
                                   answer record ("NAME A ADDR" / "NAME CNAME T");
                                   exit 0 on an answer, 1 on a timeout or error
"""
import random, socket, struct, sys, threading

TYPES = {"A": 1, "CNAME": 5, "AAAA": 28, "TXT": 16}
NAMES = {v: k for k, v in TYPES.items()}


def enc_name(n):
    out = b""
    for label in n.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def dec_name(m, off):
    labels, end = [], None
    while True:
        ln = m[off]
        if ln & 0xC0 == 0xC0:
            if end is None:
                end = off + 2
            off = ((ln & 0x3F) << 8) | m[off + 1]
            continue
        off += 1
        if ln == 0:
            break
        labels.append(m[off:off + ln].decode("latin1"))
        off += ln
    return ".".join(labels).lower(), (end if end is not None else off)


def load_zone(path):
    zone = []
    for line in open(path):
        f = line.split()
        if len(f) >= 3:
            zone.append((f[0].lower().rstrip("."), f[1].upper(), f[2], int(f[3]) if len(f) > 3 else 300))
    return zone


def answer(m, zone_path):
    qid, flags, qd = struct.unpack("!HHH", m[:6])
    name, off = dec_name(m, 12)
    qtype, qclass = struct.unpack("!HH", m[off:off + 4])
    with open(zone_path + ".log", "a") as log:
        log.write(f"{name} {NAMES.get(qtype, qtype)}\n")
    zone = load_zone(zone_path)
    question = m[12:off + 4]
    rrs, cur, seen = [], name, set()
    while cur not in seen:
        seen.add(cur)
        recs = [r for r in zone if r[0] == cur]
        cname = [r for r in recs if r[1] == "CNAME"]
        if cname and qtype != 5:
            r = cname[0]
            rd = enc_name(r[2])
            rrs.append(enc_name(cur) + struct.pack("!HHIH", 5, 1, r[3], len(rd)) + rd)
            cur = r[2].lower().rstrip(".")
            continue
        for r in recs:
            if r[1] == "A" and qtype == 1:
                rrs.append(enc_name(cur) + struct.pack("!HHIH", 1, 1, r[3], 4) + socket.inet_aton(r[2]))
            if r[1] == "CNAME" and qtype == 5:
                rd = enc_name(r[2])
                rrs.append(enc_name(cur) + struct.pack("!HHIH", 5, 1, r[3], len(rd)) + rd)
            # an out-of-chain extra: names listed as "EXTRA" are added to every answer
        break
    extra = [r for r in zone if r[1] == "EXTRA"]
    for r in extra:
        rrs.append(enc_name(r[0]) + struct.pack("!HHIH", 1, 1, r[3], 4) + socket.inet_aton(r[2]))
    known = any(r[0] == name for r in zone)
    rcode = 0 if known else 3
    hdr = struct.pack("!HHHHHH", qid, 0x8180 | rcode, 1, len(rrs), 0, 0)
    return hdr + question + b"".join(rrs)


def serve(addr, zone_path):
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    u.bind((addr, 53))
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind((addr, 53))
    t.listen(16)

    def tcp():
        while True:
            c, _ = t.accept()
            try:
                c.settimeout(3)
                n = struct.unpack("!H", c.recv(2))[0]
                m = b""
                while len(m) < n:
                    m += c.recv(n - len(m))
                a = answer(m, zone_path)
                c.sendall(struct.pack("!H", len(a)) + a)
            except Exception:
                pass
            c.close()
    threading.Thread(target=tcp, daemon=True).start()
    while True:
        m, peer = u.recvfrom(4096)
        try:
            u.sendto(answer(m, zone_path), peer)
        except Exception:
            pass


def query(tcp, server, name, qtype):
    qid = random.randrange(65536)
    m = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + enc_name(name) + struct.pack("!HH", TYPES[qtype], 1)
    try:
        if tcp:
            s = socket.create_connection((server, 53), timeout=3)
            s.sendall(struct.pack("!H", len(m)) + m)
            n = struct.unpack("!H", s.recv(2))[0]
            r = b""
            while len(r) < n:
                r += s.recv(n - len(r))
        else:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.settimeout(3)
            s.sendto(m, (server, 53))
            r, _ = s.recvfrom(65535)
    except Exception as e:
        print(f"error={e}")
        return 1
    qd, an = struct.unpack("!HH", r[4:8])
    print(f"rcode={r[3] & 15}")
    off = 12
    for _ in range(qd):
        _, off = dec_name(r, off)
        off += 4
    for _ in range(an):
        owner, off = dec_name(r, off)
        t, _, _, ln = struct.unpack("!HHIH", r[off:off + 10])
        rd = r[off + 10:off + 10 + ln]
        if t == 1:
            print(f"{owner} A {socket.inet_ntoa(rd)}")
        elif t == 5:
            print(f"{owner} CNAME {dec_name(r, off + 10)[0]}")
        else:
            print(f"{owner} {NAMES.get(t, t)}")
        off += 10 + ln
    return 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "serve":
        serve(a[1], a[2])
    elif a and a[0] == "query":
        tcp = "--tcp" in a
        a = [x for x in a if x != "--tcp"]
        sys.exit(query(tcp, a[1], a[2], a[3] if len(a) > 3 else "A"))
    else:
        print(__doc__)
        sys.exit(2)

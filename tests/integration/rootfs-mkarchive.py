#!/usr/bin/env python3
"""Build test image archives for tests/integration/rootfs-import.sh.

usage: rootfs-mkarchive.py KIND OUT
       rootfs-mkarchive.py tree OUT DIR NAME:TAG   (DIR as a one-layer docker image, user root)
       rootfs-mkarchive.py layer OUT LAYER.tar NAME:TAG   (a tar made elsewhere as the one layer)
KIND: docker | oci | oci-index | traversal-dotdot | whiteout-dotdot | outer-symlink | manifest-escape | traversal-abs | through-symlink |
      hardlink-outside | bad-digest | truncated | bad-manifest | not-tar | no-name
"""
import gzip, hashlib, io, json, sys, tarfile


def entry(tf, name, kind="file", data=b"", mode=0o644, uid=0, gid=0, target=None, dev=(0, 0)):
    ti = tarfile.TarInfo(name)
    ti.mode, ti.uid, ti.gid, ti.mtime = mode, uid, gid, 1700000000
    if kind == "file":
        ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
        return
    ti.type = {"dir": tarfile.DIRTYPE, "sym": tarfile.SYMTYPE, "hard": tarfile.LNKTYPE,
               "chr": tarfile.CHRTYPE, "fifo": tarfile.FIFOTYPE}[kind]
    if target is not None:
        ti.linkname = target
    ti.devmajor, ti.devminor = dev
    tf.addfile(ti)


def tar_bytes(entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for e in entries:
            entry(tf, *e[:2], **(e[2] if len(e) > 2 else {}))
    return buf.getvalue()


def layers_default():
    l1 = [("etc", "dir", {"mode": 0o755}), ("etc/hostname", "file", {"data": b"base\n"}),
          ("etc/remove-me", "file", {"data": b"x"}), ("etc/keep", "file", {"data": b"keep\n"}),
          ("opq", "dir", {"mode": 0o755}), ("opq/old1", "file", {"data": b"1"}), ("opq/old2", "file", {"data": b"2"}),
          ("bin", "dir", {"mode": 0o755}), ("bin/tool", "file", {"data": b"#!/bin/sh\necho tool\n", "mode": 0o755}),
          ("usr/bin", "dir", {"mode": 0o755}),
          ("usr/bin/su-like", "file", {"data": b"suid", "mode": 0o4755}),
          ("usr/share/doc", "dir"), ("usr/share/doc/readme", "file", {"data": b"doc"}),
          ("dev", "dir", {"mode": 0o755}), ("dev/null", "chr", {"mode": 0o666, "dev": (1, 3)}),
          ("restricted", "dir", {"mode": 0o555}), ("restricted/inside", "file", {"data": b"in"}),
          ("owned", "file", {"data": b"o", "uid": 1234, "gid": 2345}),
          ("run-fifo", "fifo", {"mode": 0o600})]
    l2 = [("etc/.wh.remove-me", "file"), ("opq", "dir", {"mode": 0o755}), ("opq/.wh..wh..opq", "file"),
          ("opq/new", "file", {"data": b"new"}), ("etc/hostname", "file", {"data": b"layer2\n"}),
          ("etc/hostname2", "file", {"data": b"linked\n"}),
          ("etc/hostname-link", "hard", {"target": "etc/hostname2"}),
          ("rootlink", "sym", {"target": "/"}), ("uplink", "sym", {"target": ".."}),
          ("etc/passwd-link", "sym", {"target": "/etc/passwd"})]
    l3 = [("usr/share/.wh.doc", "file"), ("usr/bin/sg-like", "file", {"data": b"sgid", "mode": 0o2755}),
          ("./home/sandbox", "dir", {"mode": 0o750})]
    return [tar_bytes(l) for l in (l1, l2, l3)]


CONFIG = {"architecture": "amd64", "os": "linux",
          "config": {"Env": ["PATH=/usr/bin:/bin", "FOO=bar"], "WorkingDir": "/home/sandbox",
                     "User": "sandbox", "Cmd": ["sleep", "infinity"], "Entrypoint": None,
                     "Labels": {"x": "y"}}}


def sha(b):
    return hashlib.sha256(b).hexdigest()


def outer(files):
    """files: list of (name, bytes), (name, 'sym', target) or (name, None): a FIFO"""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for f in files:
            if len(f) == 3:
                entry(tf, f[0], "sym", target=f[2])
            elif f[1] is None:
                entry(tf, f[0], "fifo")
            else:
                entry(tf, f[0], "file", data=f[1])
    return buf.getvalue()


def docker(layers, tags=("sbx-test/docker:v1",), corrupt=None, manifest_text=None, config=CONFIG):
    cfg = dict(config, rootfs={"type": "layers", "diff_ids": ["sha256:" + sha(l) for l in layers]})
    cfgb = json.dumps(cfg).encode()
    files, paths = [], []
    for i, l in enumerate(layers):
        p = "%s/layer.tar" % sha(l)
        paths.append(p)
        if corrupt == i:
            l = l[:-1024] + b"X" * 1024  # same size, different content
        files.append((p, l))
    man = [{"Config": sha(cfgb) + ".json", "RepoTags": list(tags), "Layers": paths}]
    files.append((sha(cfgb) + ".json", cfgb))
    files.append(("manifest.json", manifest_text.encode() if manifest_text else json.dumps(man).encode()))
    files.append(("repositories", b"{}"))
    return outer(files)


def oci(layers, name="sbx-test/oci:v2", nested=False):
    blobs = {}
    ldesc = []
    for l in layers:
        gz = gzip.compress(l, mtime=0)
        blobs[sha(gz)] = gz
        ldesc.append({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                      "digest": "sha256:" + sha(gz), "size": len(gz)})
    cfg = dict(CONFIG, rootfs={"type": "layers", "diff_ids": ["sha256:" + sha(l) for l in layers]})
    cfgb = json.dumps(cfg).encode()
    blobs[sha(cfgb)] = cfgb
    man = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                      "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                                 "digest": "sha256:" + sha(cfgb), "size": len(cfgb)},
                      "layers": ldesc}).encode()
    blobs[sha(man)] = man
    mdesc = {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": "sha256:" + sha(man),
             "size": len(man), "platform": {"os": "linux", "architecture": "amd64"}}
    if nested:
        other = dict(mdesc, digest="sha256:" + "0" * 64, platform={"os": "linux", "architecture": "s390x"})
        idx2 = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                           "manifests": [other, mdesc]}).encode()
        blobs[sha(idx2)] = idx2
        mdesc = {"mediaType": "application/vnd.oci.image.index.v1+json", "digest": "sha256:" + sha(idx2),
                 "size": len(idx2)}
    if name:
        mdesc["annotations"] = {"io.containerd.image.name": name, "org.opencontainers.image.ref.name": "v2"}
    index = {"schemaVersion": 2, "manifests": [mdesc]}
    files = [("oci-layout", b'{"imageLayoutVersion": "1.0.0"}'), ("index.json", json.dumps(index).encode())]
    files += [("blobs/sha256/" + k, v) for k, v in blobs.items()]
    return outer(files)


def main():
    kind, out = sys.argv[1], sys.argv[2]
    L = layers_default()
    if kind == "docker":
        data = docker(L)
    elif kind == "tree":
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
            tf.add(sys.argv[3], arcname=".")
        user = sys.argv[5] if len(sys.argv) > 5 else ""   # the image config's User
        data = docker([buf.getvalue()], tags=(sys.argv[4],),
                      config=dict(CONFIG, config=dict(CONFIG["config"], User=user, WorkingDir="/")))
    elif kind == "layer":
        # LAYER (a tar made elsewhere, e.g. GNU tar --sparse) as a one-layer docker image
        data = docker([open(sys.argv[3], "rb").read()], tags=(sys.argv[4],))
    elif kind == "oci":
        data = gzip.compress(oci(L), mtime=0)  # the whole tarball compressed, too
    elif kind == "oci-index":
        data = oci(L, name="sbx-test/nested:v3", nested=True)
    elif kind == "no-name":
        data = oci(L, name=None)
    elif kind == "traversal-dotdot":
        data = docker([tar_bytes([("etc", "dir"), ("etc/../../escaped", "file", {"data": b"pwn"})])])
    elif kind == "traversal-abs":
        data = docker([tar_bytes([("/tmp/sbx-abs-escaped", "file", {"data": b"pwn"})])])
    elif kind == "through-symlink":
        data = docker([tar_bytes([("esc", "sym", {"target": "/tmp"}),
                                  ("esc/sbx-symlink-escaped", "file", {"data": b"pwn"})])])
    elif kind == "whiteout-dotdot":
        # ".wh..." would whiteout ".." (the parent) if it were applied
        data = docker([L[0], tar_bytes([("etc/.wh...", "file")])])
    elif kind == "outer-symlink":
        # manifest.json is a symlink to the host's /etc/os-release: it must
        # resolve inside the archive (RESOLVE_IN_ROOT), where it does not exist
        data = outer([("manifest.json", "sym", "/etc/os-release"), ("repositories", b"{}")])
    elif kind == "manifest-escape":
        # a layer path climbing out of the archive resolves inside it
        data = docker(L, manifest_text=json.dumps([{"Config": "x.json", "RepoTags": ["a:b"],
                                                    "Layers": ["../../../../../etc/os-release"]}]))
    elif kind == "hardlink-outside":
        data = docker([tar_bytes([("pw", "hard", {"target": "etc/shadow"})])])
    elif kind == "bad-digest":
        data = docker(L, corrupt=1)
    elif kind == "truncated":
        data = docker(L)
        data = data[:len(data) // 2]
    elif kind == "bad-manifest":
        data = docker(L, manifest_text='[{"Config": ')
    elif kind == "fifo-layer":
        # the layer the manifest names is a FIFO of the archive: the import
        # must refuse it, not block reading it
        data = outer([("manifest.json", json.dumps([{"Config": "c.json", "RepoTags": ["sbx-test/fifo:v1"],
                                                     "Layers": ["l.tar"]}]).encode()),
                      ("c.json", json.dumps(dict(CONFIG, rootfs={"type": "layers", "diff_ids": ["sha256:" + "0" * 64]})).encode()),
                      ("l.tar", None)])
    elif kind == "not-tar":
        data = b"this is not an archive\n" * 100
    else:
        sys.exit("unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()

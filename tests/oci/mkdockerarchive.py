#!/usr/bin/env python3
"""usage: mkdockerarchive.py ROOTFS.tar NAME:TAG OUT.tar -- a docker-archive
(`docker save` layout: manifest.json, the image config, one layer) of a
rootfs tarball, for `ctr image import` (no registry, no docker)."""
import hashlib, io, json, sys, tarfile

src, ref, out = sys.argv[1:4]
layer = open(src, "rb").read()
diff_id = "sha256:" + hashlib.sha256(layer).hexdigest()
config = json.dumps({
    "architecture": "amd64", "os": "linux",
    "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
               "Cmd": ["sh"]},
    "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    "history": [{"created_by": "sbx tests/oci/mkdockerarchive.py"}],
}).encode()
cfg_name = hashlib.sha256(config).hexdigest() + ".json"
layer_name = hashlib.sha256(layer).hexdigest() + "/layer.tar"
manifest = json.dumps([{"Config": cfg_name, "RepoTags": [ref], "Layers": [layer_name]}]).encode()
with tarfile.open(out, "w") as tf:
    for name, data in ((cfg_name, config), (layer_name, layer), ("manifest.json", manifest)):
        ti = tarfile.TarInfo(name)
        ti.size, ti.mtime = len(data), 1700000000
        tf.addfile(ti, io.BytesIO(data))

#!/usr/bin/env python3
"""bench/verify/generate.py OUT FILES: two OCI image layouts of one layer each, OUT/first and
OUT/second, holding FILES files, in which a known set of paths differ (content, mode, mtime,
present in one only). Prints the differing paths, one a line, to OUT/expected.txt.

Deterministic: the same FILES gives the same bytes. Uncompressed layers (tar), as
`buildah push --disable-compression` writes them."""
import hashlib, io, json, os, sys, tarfile

out, count = sys.argv[1], int(sys.argv[2])


def blob(layout, data):
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(layout, "blobs", "sha256", digest), "wb") as f:
        f.write(data)
    return "sha256:" + digest, len(data)


def layout(name, variant):
    root = os.path.join(out, name)
    os.makedirs(os.path.join(root, "blobs", "sha256"), exist_ok=True)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for i in range(count):
            folder = f"srv/app/d{i // 500:03d}"
            if i % 500 == 0:
                info = tarfile.TarInfo(folder)
                info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, 1700000000
                tar.addfile(info)
            if variant and i % 1000 == 999:
                continue  # only in the first
            content = f"file {i}\n".encode() * 20
            mode, mtime = 0o644, 1700000000
            if variant and i % 1000 == 7:
                content = f"file {i} built at 10:12:03\n".encode()
            if variant and i % 1000 == 13:
                mode = 0o664
            if variant and i % 1000 == 21:
                mtime = 1700000060
            info = tarfile.TarInfo(f"{folder}/f{i:06d}.txt")
            info.size, info.mode, info.mtime = len(content), mode, mtime
            tar.addfile(info, io.BytesIO(content))
        if variant:
            extra = tarfile.TarInfo("srv/app/only-second.txt")
            extra.size, extra.mtime = 2, 1700000000
            tar.addfile(extra, io.BytesIO(b"x\n"))
    layer = buffer.getvalue()
    diff_id, size = blob(root, layer)
    config = {"architecture": "amd64", "os": "linux", "config": {},
              "rootfs": {"type": "layers", "diff_ids": [diff_id]},
              "history": [{"created_by": "/bin/sh -c #(nop) COPY dir:app in /srv/app"}]}
    config_digest, config_size = blob(root, json.dumps(config).encode())
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config_digest, "size": config_size},
                "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": diff_id, "size": size}]}
    manifest_digest, manifest_size = blob(root, json.dumps(manifest).encode())
    with open(os.path.join(root, "index.json"), "w") as f:
        json.dump({"schemaVersion": 2, "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
                                                       "digest": manifest_digest, "size": manifest_size}]}, f)
    with open(os.path.join(root, "oci-layout"), "w") as f:
        f.write('{"imageLayoutVersion": "1.0.0"}')
    return os.path.join(root, "blobs", "sha256", diff_id[7:])


first = layout("first", False)
second = layout("second", True)
expected = []
for i in range(count):
    if i % 1000 in (7, 13, 21, 999):
        expected.append(f"/srv/app/d{i // 500:03d}/f{i:06d}.txt")
expected.append("/srv/app/only-second.txt")
with open(os.path.join(out, "expected.txt"), "w") as f:
    f.write("\n".join(sorted(expected)) + "\n")
print(first)
print(second)

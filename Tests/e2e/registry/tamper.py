"""A stand-in registry for Tests/e2e/registry: serves one manifest with one byte changed.

Usage: tamper.py PORT FOLDER. FOLDER/manifest.json holds the real manifest; its true digest is
announced in Docker-Content-Digest while the body differs in its last byte, as a mirror or a
proxy that altered the content would. For a digest reference (GET /v2/NAME/manifests/sha256:...)
the body does not hash to the digest asked for; for the tag "nodigest", HEAD answers without
Docker-Content-Digest so the client must GET and hash, and the digest announced on the GET does
not match the bytes. Also holds a socket bound to a port without listening (connections are
refused: a registry that is down) and writes that port to FOLDER/closed-port.

Two more tags serve bytes that are no manifest, each without Docker-Content-Digest so that the
client must GET and hash them: "badjson" answers `{not json` as an OCI image manifest, and
"bodytype" answers, with no Content-Type, a body that names the OCI manifest type and holds
nothing else (a misbehaving mirror or caching proxy).
"""

import hashlib
import http.server
import os
import socket
import sys

port = int(sys.argv[1])
folder = sys.argv[2]
with open(os.path.join(folder, "manifest.json"), "rb") as f:
    real = f.read()
true_digest = "sha256:" + hashlib.sha256(real).hexdigest()
altered = real[:-1] + (b" " if real[-1:] != b" " else b"\n")

closed = socket.socket()
closed.bind(("127.0.0.1", 0))
with open(os.path.join(folder, "closed-port.tmp"), "w") as f:
    f.write(str(closed.getsockname()[1]))
os.rename(os.path.join(folder, "closed-port.tmp"), os.path.join(folder, "closed-port"))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, with_body):
        if self.path == "/v2/":
            body = b"{}"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
        elif self.path.endswith("/manifests/badjson"):
            body = b"{not json"
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
        elif self.path.endswith("/manifests/bodytype"):
            body = b'{"mediaType":"application/vnd.oci.image.manifest.v1+json"}'
            self.send_response(200)
        elif "/manifests/" in self.path:
            reference = self.path.rsplit("/", 1)[1]
            body = altered
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
            if not (reference == "nodigest" and not with_body):
                self.send_header("Docker-Content-Digest", true_digest)
        else:
            body = b'{"errors":[{"code":"NAME_UNKNOWN","message":"repository name not known to registry"}]}'
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def do_GET(self):
        self.answer(True)

    def do_HEAD(self):
        self.answer(False)

    def log_message(self, format, *args):
        sys.stderr.write("tamper: " + (format % args) + "\n")


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()

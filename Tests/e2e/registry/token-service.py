"""A token service stand-in for the distribution registry's token authentication, on TLS.

Usage: token-service.py PORT FOLDER. FOLDER holds tls.pem/tls.key (its HTTPS certificate),
signing.pem/signing.key (the key tokens are signed with; the registry trusts signing.pem as its
rootcertbundle), users (USER:PASSWORD lines) and config (ISSUER and SERVICE lines).

GET /token?service=...&scope=repository:NAME:pull answers {"token": JWT} as Docker's token
specification asks: anonymously, or for a user of `users` given with HTTP Basic (a wrong
password is 401). The JWT is RS256-signed with openssl, carries the signing certificate in its
x5c header (distribution 2.8 checks it against its rootcertbundle) and grants pull on the scope.

Every request is recorded, one JSON line per request in FOLDER/requests.log: the path and the
Authorization header as it arrived (decoded to USER:PASSWORD for Basic), so a test can see
which credentials reached this token service, and that no other registry's did.
"""

import base64
import http.server
import json
import os
import ssl
import subprocess
import sys
import time
import urllib.parse

port = int(sys.argv[1])
folder = sys.argv[2]
config = dict(line.split(" ", 1) for line in open(os.path.join(folder, "config")).read().splitlines() if line)
users = dict(line.split(":", 1) for line in open(os.path.join(folder, "users")).read().splitlines() if line)
with open(os.path.join(folder, "signing.pem")) as f:
    pem = f.read()
der = base64.b64decode("".join(line for line in pem.splitlines() if not line.startswith("-----")))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(subject, scope):
    header = {"typ": "JWT", "alg": "RS256", "x5c": [base64.b64encode(der).decode()]}
    now = int(time.time())
    access = []
    parts = scope.split(":")
    if len(parts) == 3 and parts[0] == "repository":
        access.append({"type": "repository", "name": parts[1], "actions": ["pull"]})
    claims = {
        "iss": config["ISSUER"], "sub": subject, "aud": config["SERVICE"], "exp": now + 300, "nbf": now - 10,
        "iat": now, "jti": os.urandom(8).hex(), "access": access,
    }
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    signature = subprocess.run(
        ["openssl", "dgst", "-sha256", "-sign", os.path.join(folder, "signing.key")],
        input=signing_input.encode(), capture_output=True, check=True, timeout=10).stdout
    return signing_input + "." + b64url(signature)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        authorization = self.headers.get("Authorization")
        basic = None
        if authorization and authorization.lower().startswith("basic "):
            try:
                basic = base64.b64decode(authorization[6:].strip()).decode()
            except ValueError:
                basic = "(not base64)"
        with open(os.path.join(folder, "requests.log"), "a") as log:
            log.write(json.dumps({"path": self.path, "authorization": authorization, "basic": basic}) + "\n")
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path != "/token":
            return self.send(404, {"error": "not found"})
        subject = ""
        if basic is not None:
            user, _, password = basic.partition(":")
            if users.get(user) != password:
                return self.send(401, {"error": "wrong user name or password"})
            subject = user
        return self.send(200, {"token": token(subject, query.get("scope", [""])[0])})

    def send(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write("token-service: " + (format % args) + "\n")


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(folder, "tls.pem"), os.path.join(folder, "tls.key"))
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()

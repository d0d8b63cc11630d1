"""Raw HTTP/1.1 requests and nginx's answer to each: the oracle of serve's request handling.

Generates requests that cover the corners of RFC 9112 (request-line forms, methods, versions,
whitespace, bare LF and CR, obs-fold, field names, Host, Content-Length, Transfer-Encoding and
chunked bodies, Expect, lines near the size limits, NUL and high bytes, pipelining) plus
mutations of valid requests (byte insert, delete and flip, line duplication and removal). Each is
sent to a real nginx on a fresh loopback connection, and the answer is classified as
`SanityServerTests/Differential` classifies serve's: `1xx`..`5xx` for each final response, `closed`
(the connection ended with nothing, or nothing more, to read), `timeout` (nothing more within
--timeout seconds) or `other` (bytes that are not an HTTP/1.x response, e.g. HTTP/0.9's bare body).
A request of N pipelined requests reads up to N final answers: its class is their classes and,
when fewer arrive, how the reading ended, separated by spaces ("2xx 4xx", "2xx timeout").

nginx is started here on 127.0.0.1 with a generated configuration and its own prefix, as a
non-daemon, and stopped at the end. It proxies every request to a second server block of the same
nginx that answers 200: the proxy reads and checks the whole body before it answers (`return`
alone would answer before the body is read), so a malformed chunked body is refused as serve
refuses it. Limits are matched to serve's defaults: the body to 1 MiB (`client_max_body_size`), the
head to 16384 bytes counted from the request line (`client_header_buffer_size 64` and one 16k
`large_client_header_buffers`, so the whole head must fit in one 16 KiB buffer).

Usage:
    serve_differential.py --out FILE [--count N | --minutes M] [--seed S] [--timeout T]

Writes one JSON object a line: {"index", "kind", "request" (base64), "answers", "nginx"}. The seed
is printed first; the same seed and count give the same requests. `scripts/test` runs a fixed
count; a long run passes --minutes. STAGEBUILD_DIFFERENTIAL_SERVE=FILE swift test --filter
Differential compares serve with each line.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import json
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

# serve's defaults (ServerConfiguration): the limits the generator probes around.
MAX_HEADER_BYTES = 16384
MAX_BODY_BYTES = 1 << 20


@dataclass
class Case:
    """One raw request: its bytes, how many answers it can get, and what made it."""

    kind: str
    request: bytes
    answers: int = 1


# ---------------------------------------------------------------------------------------------
# Building blocks.

METHODS = [
    b"GET", b"GET", b"POST", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"HEAD", b"FOO", b"M-SEARCH",
    b"X_Y", b"get", b"Get", b"G(T", b"GE\x00T", b"!#$%&'*+-.^_`|~", b"GET\x80", b"TRACE", b"CONNECT",
    b"", b"G" * 40,
]
TARGETS = [
    b"/", b"/anything", b"/anything/a?b=c&d", b"/anything/%41%zz", b"/anything/../x", b"/anything/./x",
    b"/anything#frag", b"http://h/anything", b"HTTP://h/anything", b"http://h", b"https://h:443/anything?q",
    b"http://u@h/anything", b"http://@@/anything", b"h:80", b"*", b"/anything/\x80\xff", b"/anything/\xc3\xa9",
    b"/anything/\x00", b"/anything/\x7f", b"anything", b"/anything\\x", b"/anything?q=a|b{}", b"/../x",
    b"/anything/;p=1", b"x:/anything",
]
VERSIONS = [
    b"HTTP/1.1", b"HTTP/1.1", b"HTTP/1.0", b"HTTP/0.9", b"HTTP/2.0", b"HTTP/3.0", b"HTTP/1.10",
    b"HTTP/1.01", b"HTTP/01.1", b"http/1.1", b"Http/1.1", b"HTTP/1.9", b"HTTP/1", b"HTTP/11",
    b"HTTP /1.1", b"HTTP/1.1 ", b"HTTP/1.1\t", b"", b"HTTP/1.\x80",
]
SEPARATORS = [b" ", b" ", b" ", b"  ", b"\t", b" \t", b"\x0b", b"\x00"]
LEADING = [b"", b"", b"\r\n", b"\n", b"\r\n\r\n", b" \r\n", b"\r"]
ENDINGS = [b"\r\n", b"\r\n", b"\r\n", b"\n", b"\r", b"\r\r\n", b"\n\r"]
HOSTS = [
    b"h", b"h:80", b"h:", b"[::1]", b"[::1]:8080", b"127.0.0.1", b"u@h", b"h:8x", b"h h", b"h/x", b"a%20b",
    b"a%zz", b"ex_ample", b"a..b", b".a", b"-a", b"h:99999", b"\xc3\xa9.test", b"h\x00", b"[::1", b"h;x",
    b"h?x", b"h#x", b"h\\x", b"xn--bcher-kva.example", b"",
]
NAME_BYTES = b"!#$%&'*+-.^_`|~()<>@,;\\\"/[]?={}\x00\x01\x7f\x80\xff \t"
CONTENT_LENGTHS = [
    b"5", b"005", b"+5", b"-5", b" 5 ", b"5, 5", b"5,5", b"5 ,5", b"5, 6", b"0x5", b"5.0", b"", b"5;", b"\xd9\xa5",
    b"99999999999999999999", b"18446744073709551616", b"0", b"00", b"5 5",
]
CODINGS = [
    b"chunked", b"chunked", b"Chunked", b"CHUNKED", b" chunked ", b"chunked,", b",chunked", b", chunked",
    b"chunked, chunked", b"gzip, chunked", b"chunked, gzip", b"gzip", b"identity", b"", b"chunked;q=1",
    b"x-custom", b"chunked\x00", b"chunk", b"\tchunked",
]
EXPECTS = [b"100-continue", b"100-Continue", b"foo", b"", b"100-continue, foo", b"100-continue,", b" 100-continue"]


def pick(rng: random.Random, options: list[bytes]) -> bytes:
    """One option, uniformly."""
    return options[rng.randrange(len(options))]


def head(request_line: bytes, fields: list[bytes], ending: bytes = b"\r\n") -> bytes:
    """A request line, field lines and the empty line, each ended by `ending`."""
    return request_line + ending + b"".join(field + ending for field in fields) + ending


def valid(rng: random.Random) -> bytes:
    """A valid request serve echoes and nginx answers with 200."""
    choice = rng.randrange(5)
    if choice == 0:
        return head(b"GET /anything?a=1 HTTP/1.1", [b"Host: h", b"Accept: */*"])
    if choice == 1:
        return head(b"POST /anything HTTP/1.1", [b"Host: h", b"Content-Length: 5"]) + b"hello"
    if choice == 2:
        return head(b"POST / HTTP/1.1", [b"Host: h", b"Transfer-Encoding: chunked"]) + b"3\r\nabc\r\n0\r\n\r\n"
    if choice == 3:
        return head(b"GET /anything HTTP/1.0", [b"Connection: keep-alive"])
    return head(b"PUT /anything/x HTTP/1.1", [b"Host: h", b"Content-Length: 3", b"X-A: b"]) + b"abc"


# ---------------------------------------------------------------------------------------------
# Generators: each returns one Case that exercises a corner.


def request_lines(rng: random.Random) -> Case:
    """Methods, targets, versions, separators, leading empty lines and line endings."""
    method = pick(rng, METHODS) if rng.random() < 0.6 else b"GET"
    target = pick(rng, TARGETS) if rng.random() < 0.7 else b"/anything"
    version = pick(rng, VERSIONS) if rng.random() < 0.6 else b"HTTP/1.1"
    sep1 = pick(rng, SEPARATORS) if rng.random() < 0.3 else b" "
    sep2 = pick(rng, SEPARATORS) if rng.random() < 0.3 else b" "
    ending = pick(rng, ENDINGS) if rng.random() < 0.3 else b"\r\n"
    fields = [b"Host: h"]
    if method == b"CONNECT" and rng.random() < 0.7:
        target = b"h:443"
        fields = [b"Host: h:443"]
    if rng.random() < 0.1:
        # HTTP/0.9's simple request: no version, no fields.
        return Case("request-line:0.9", method + sep1 + target + ending)
    body = b""
    if method in (b"POST", b"PUT", b"PATCH") and rng.random() < 0.5:
        fields.append(b"Content-Length: 2")
        body = b"ok"
    return Case("request-line", pick(rng, LEADING) + head(method + sep1 + target + sep2 + version, fields, ending) + body)


def field_lines(rng: random.Random) -> Case:
    """Field names and values: odd bytes, whitespace around the colon, obs-fold, empty names."""
    fields = [b"Host: h", b"Accept: */*"]
    corner = rng.randrange(7)
    if corner == 0:
        name = bytes(rng.choice(b"Xx-") for _ in range(rng.randrange(1, 4)))
        name += bytes([rng.choice(NAME_BYTES)]) + bytes(rng.choice(b"ab") for _ in range(rng.randrange(0, 3)))
        line = name + b": v"
    elif corner == 1:
        line = b"X-A" + pick(rng, [b" ", b"\t", b"  "]) + b": v"
    elif corner == 2:
        line = pick(rng, [b": v", b":v", b" : v", b"X-A v", b"X-A", b":"])
    elif corner == 3:
        value = bytes([rng.choice(b"\x00\x01\x08\x0b\x0c\x1f\x7f\x80\xff\t ")])
        line = b"X-A: a" + value + b"b"
    elif corner == 4:
        fields.append(b"X-A: one")
        line = pick(rng, [b" two", b"\ttwo", b"  two", b" "])
    elif corner == 5:
        line = b"X-A: " + pick(rng, [b"", b" ", b"\t", b"a\tb", b"\"q\"", b"\xc3\xa9", b"a ", b"(c)"])
    else:
        # Whitespace before the first field line (section 2.2).
        return Case("fields:first-ws", head(b"GET /anything HTTP/1.1", [pick(rng, [b" Host: h", b"\tHost: h"])]))
    position = rng.randrange(len(fields) + 1)
    fields.insert(position, line)
    return Case("fields", head(b"GET /anything HTTP/1.1", fields))


def hosts(rng: random.Random) -> Case:
    """Missing, duplicate, conflicting and odd Host values, also with absolute-form targets."""
    version = pick(rng, [b"HTTP/1.1", b"HTTP/1.1", b"HTTP/1.0"])
    target = pick(rng, [b"/anything", b"/anything", b"http://a/anything", b"http://a:80/anything"])
    count = rng.choice([0, 1, 1, 1, 2])
    fields = [b"Host: " + pick(rng, HOSTS) for _ in range(count)]
    if count == 2 and rng.random() < 0.5:
        fields[1] = fields[0]
    if rng.random() < 0.2:
        fields = [pick(rng, [b"host: h", b"HOST: h", b"Host:h", b"Host:\th\t", b"Host:  h  "])]
    return Case("host", head(b"GET " + target + b" " + version, fields))


def content_lengths(rng: random.Random) -> Case:
    """Content-Length: duplicates, lists, signs, leading zeros, huge, with bodies that fit or not."""
    lines = [b"Content-Length: " + pick(rng, CONTENT_LENGTHS) for _ in range(rng.choice([1, 1, 1, 2]))]
    if len(lines) == 2 and rng.random() < 0.5:
        lines[1] = lines[0]
    body = pick(rng, [b"hello", b"hello", b"", b"hel", b"hellohello"])
    version = pick(rng, [b"HTTP/1.1", b"HTTP/1.1", b"HTTP/1.0"])
    return Case("content-length", head(b"POST /anything " + version, [b"Host: h"] + lines) + body)


def chunked_body(rng: random.Random) -> bytes:
    """A chunked body with odd sizes, extensions, terminators and trailers."""
    out = b""
    for _ in range(rng.randrange(0, 3)):
        data = bytes(rng.choice(b"abcdef") for _ in range(rng.randrange(1, 12)))
        size = format(len(data), rng.choice(["x", "X"]))
        size = pick(rng, [size.encode(), size.encode(), b"0" * rng.randrange(1, 4) + size.encode(), b"0x" + size.encode(),
                          b"-" + size.encode(), size.encode() + b" ", size.encode() + b"\t", b" " + size.encode()])
        ext = pick(rng, [b"", b"", b";a", b";a=b", b';a="q q"', b" ;a", b"; a = b", b";", b";a=\x01", b"\x00"])
        terminator = pick(rng, [b"\r\n", b"\r\n", b"\r\n", b"\n", b"\r", b"", b"XX"])
        out += size + ext + pick(rng, [b"\r\n", b"\r\n", b"\n"]) + data + terminator
    last = pick(rng, [b"0", b"0", b"00", b"0;a=b", b"000", b"0 "])
    out += last + b"\r\n"
    trailers = pick(rng, [[], [], [b"X-T: y"], [b"Content-Length: 5"], [b"X-T y"], [b"X-T: a", b" b"], [b"\x00: y"]])
    out += b"".join(t + b"\r\n" for t in trailers)
    return out + pick(rng, [b"\r\n", b"\r\n", b"\r\n", b"\n", b""])


def transfer_encodings(rng: random.Random) -> Case:
    """Transfer-Encoding values and combinations with Content-Length, and chunked bodies."""
    fields = [b"Host: h"]
    fields += [b"Transfer-Encoding: " + pick(rng, CODINGS) for _ in range(rng.choice([1, 1, 1, 2]))]
    if rng.random() < 0.2:
        fields.insert(rng.randrange(len(fields) + 1), b"Content-Length: " + pick(rng, [b"0", b"5", b"3"]))
    version = pick(rng, [b"HTTP/1.1"] * 5 + [b"HTTP/1.0"])
    return Case("transfer-encoding", head(b"POST /anything " + version, fields) + chunked_body(rng))


def expectations(rng: random.Random) -> Case:
    """Expect with and without a body, in HTTP/1.1 and 1.0."""
    version = pick(rng, [b"HTTP/1.1", b"HTTP/1.1", b"HTTP/1.0"])
    fields = [b"Host: h", b"Expect: " + pick(rng, EXPECTS)]
    body = b""
    if rng.random() < 0.6:
        fields.append(b"Content-Length: 3")
        body = b"abc"
    return Case("expect", head(b"PUT /anything " + version, fields) + body)


def long_lines(rng: random.Random) -> Case:
    """Request lines, field lines and bodies near serve's limits (16384-byte head, 1 MiB body)."""
    corner = rng.randrange(3)
    delta = rng.choice([-40, -3, -2, -1, 0, 1, 2, 3, 40])
    if corner == 0:
        # The whole head (request line through the empty line) is MAX_HEADER_BYTES + delta.
        fixed = len(b"GET /anything/ HTTP/1.1\r\nHost: h\r\n\r\n")
        return Case("long:request-line", head(b"GET /anything/" + b"a" * (MAX_HEADER_BYTES + delta - fixed) + b" HTTP/1.1",
                                              [b"Host: h"]))
    if corner == 1:
        fixed = len(b"GET /anything HTTP/1.1\r\nHost: h\r\nX-Long: \r\n\r\n")
        parts = rng.choice([1, 2, 4])
        total = MAX_HEADER_BYTES + delta - fixed - (parts - 1) * len(b"\r\nX-Long: ")
        values = [b"v" * (total // parts + (1 if i < total % parts else 0)) for i in range(parts)]
        return Case("long:head", head(b"GET /anything HTTP/1.1", [b"Host: h"] + [b"X-Long: " + v for v in values]))
    length = MAX_BODY_BYTES + delta
    if rng.random() < 0.5:
        return Case("long:body", head(b"POST /anything HTTP/1.1", [b"Host: h", b"Content-Length: %d" % length]) + b"b" * length)
    chunk = b"%x\r\n" % length + b"b" * length + b"\r\n0\r\n\r\n"
    return Case("long:chunked", head(b"POST /anything HTTP/1.1", [b"Host: h", b"Transfer-Encoding: chunked"]) + chunk)


def odd_bytes(rng: random.Random) -> Case:
    """A NUL, a high byte or another control byte anywhere in a valid request."""
    data = bytearray(valid(rng))
    position = rng.randrange(len(data))
    data.insert(position, rng.choice(b"\x00\x80\xff\x01\x7f\x0b\x0c"))
    return Case("odd-byte", bytes(data))


def pipelines(rng: random.Random) -> Case:
    """Two or three requests in one write; the last asks to close, so every answer can be read."""
    count = rng.choice([2, 2, 3])
    parts = []
    for _ in range(count):
        if rng.random() < 0.3:
            part = corner(rng).request
        else:
            part = valid(rng)
        parts.append(part)
    # The last request ends the connection, so reading stops at the server's close.
    parts[-1] = head(b"GET /anything HTTP/1.1", [b"Host: h", b"Connection: close"])
    data = b"".join(parts)
    if b"HEAD " in data:
        # A HEAD answer's Content-Length frames nothing; keep pipelines free of HEAD.
        data = data.replace(b"HEAD ", b"GET ")
    return Case("pipeline", data, answers=count)


CORNERS = [request_lines, field_lines, hosts, content_lengths, transfer_encodings, expectations, long_lines, odd_bytes]


def corner(rng: random.Random) -> Case:
    """A request from one of the corner generators."""
    return CORNERS[rng.randrange(len(CORNERS))](rng)


def mutate(rng: random.Random) -> Case:
    """A valid request (or pipeline of two) changed by one to three byte or line edits."""
    pipelined = rng.random() < 0.2
    data = bytearray(valid(rng) + (valid(rng) if pipelined else b""))
    operations = []
    for _ in range(rng.randrange(1, 4)):
        operation = rng.choice(["insert", "delete", "flip", "duplicate-line", "delete-line", "case"])
        operations.append(operation)
        position = rng.randrange(len(data))
        if operation == "insert":
            data.insert(position, rng.choice(b"\x00\r\n \t:;,\x7f\x80\xff0aZ" + bytes([rng.randrange(256)])))
        elif operation == "delete" and len(data) > 1:
            del data[position]
        elif operation == "flip":
            data[position] ^= 1 << rng.randrange(8)
        elif operation == "case":
            data[position : position + 1] = bytes(data[position : position + 1]).swapcase()
        elif operation in ("duplicate-line", "delete-line"):
            lines = bytes(data).split(b"\n")
            index = rng.randrange(len(lines))
            if operation == "duplicate-line":
                lines.insert(index, lines[index])
            elif len(lines) > 1:
                del lines[index]
            data = bytearray(b"\n".join(lines))
    return Case("mutated:" + "+".join(operations), bytes(data), answers=2 if pipelined else 1)


def generate(rng: random.Random) -> Case:
    """One case: a corner (55%), a pipeline (10%) or a mutation (35%)."""
    roll = rng.random()
    if roll < 0.55:
        return corner(rng)
    if roll < 0.65:
        return pipelines(rng)
    return mutate(rng)


# ---------------------------------------------------------------------------------------------
# Sending and classifying: the same rules as the Swift side (Differential/RawExchange.swift).


def classify(data: bytes, answers: int, port: int, timeout: float) -> str:
    """Sends `data` on a new connection and classifies up to `answers` final responses."""
    classes: list[str] = []
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        deadline = time.monotonic() + timeout
        try:
            connection.sendall(data)
        except OSError:
            pass  # The server may close before it read everything; what it answered still counts.
        pending = b""
        ended = ""

        def fill() -> bool:
            nonlocal pending, ended
            left = deadline - time.monotonic()
            if left <= 0:
                ended = "timeout"
                return False
            connection.settimeout(left)
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                ended = "timeout"
                return False
            except OSError:
                chunk = b""
            if not chunk:
                ended = "closed"
                return False
            pending += chunk
            return True

        while len(classes) < answers:
            while b"\r\n\r\n" not in pending:
                if pending[:7] != b"HTTP/1."[: len(pending[:7])]:
                    return " ".join(classes + ["other"])
                if not fill():
                    return " ".join(classes + [ended if not pending else "other"])
            end = pending.index(b"\r\n\r\n") + 4
            response_head = pending[:end]
            status_line = response_head.split(b"\r\n", 1)[0]
            parts = status_line.split(b" ")
            if not status_line.startswith(b"HTTP/1.") or len(parts) < 2 or not parts[1].isdigit() or len(parts[1]) != 3:
                return " ".join(classes + ["other"])
            status = int(parts[1])
            pending = pending[end:]
            if status < 200:
                continue  # An interim answer (100 Continue): the final one follows.
            classes.append(f"{status // 100}xx")
            if len(classes) == answers:
                break
            length = 0
            for line in response_head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length" and value.strip().isdigit():
                    length = int(value.strip())
            while len(pending) < length:
                if not fill():
                    return " ".join(classes + [ended])
            pending = pending[length:]
    return " ".join(classes)


# ---------------------------------------------------------------------------------------------
# nginx.


class Nginx:
    """nginx on two free loopback ports under its own prefix: a proxy in front of a 200."""

    def __init__(self) -> None:
        self.binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(self.binary):
            print("serve_differential: installing nginx-light", file=sys.stderr)
            subprocess.run([str(REPO / "Tests/e2e/apt-install"), "nginx-light"], check=True, timeout=600)
        self.prefix = Path(tempfile.mkdtemp(prefix="serve-differential-nginx."))
        (self.prefix / "tmp").mkdir()
        front, back = free_ports(2)
        self.port = front
        p = self.prefix
        # The workers run as this user, so that they can write the 0700 temporary prefix.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        (p / "nginx.conf").write_text(f"""{user}worker_processes 1;
pid {p}/nginx.pid;
error_log {p}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {p}/tmp/body;
    proxy_temp_path {p}/tmp/proxy;
    fastcgi_temp_path {p}/tmp/fastcgi;
    uwsgi_temp_path {p}/tmp/uwsgi;
    scgi_temp_path {p}/tmp/scgi;
    # serve's limits: a 16384-byte head (one buffer from the request line on), a 1 MiB body.
    client_header_buffer_size 64;
    large_client_header_buffers 1 16k;
    client_max_body_size 1m;
    client_body_buffer_size 1m;
    server {{
        listen 127.0.0.1:{back};
        location / {{ return 200 "ok\\n"; }}
    }}
    server {{
        listen 127.0.0.1:{front};
        location / {{ proxy_pass http://127.0.0.1:{back}; }}
    }}
}}
""")
        self.process = subprocess.Popen(
            [self.binary, "-p", str(p), "-e", str(p / "error.log"), "-c", str(p / "nginx.conf"), "-g", "daemon off;"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(p / "stderr.log", "wb"),
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"nginx exited: {(p / 'stderr.log').read_text()}{(p / 'error.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", front), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit("nginx did not listen within 10 s")

    def version(self) -> str:
        """`nginx -v`, e.g. `nginx/1.22.1`."""
        result = subprocess.run([self.binary, "-v"], capture_output=True, text=True, timeout=10)
        return result.stderr.strip().removeprefix("nginx version: ")

    def stop(self) -> None:
        """Stops the process this object started (SIGQUIT, then SIGKILL) and removes its prefix."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        shutil.rmtree(self.prefix, ignore_errors=True)


def free_ports(count: int) -> list[int]:
    """Ports the kernel picks, bound together so that they differ, then released."""
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def main() -> int:
    """Generates, asks nginx, writes the JSON lines; prints the seed and a summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--minutes", type=float, help="generate for this long instead of --count requests")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for the answers")
    parser.add_argument("--workers", type=int, default=16)
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"serve_differential: seed {seed}", file=sys.stderr)
    nginx = Nginx()
    started = time.monotonic()
    stop_at = started + arguments.minutes * 60 if arguments.minutes else None
    tally: dict[str, int] = {}
    written = 0
    try:
        print(f"serve_differential: {nginx.version()} on 127.0.0.1:{nginx.port}", file=sys.stderr)
        with arguments.out.open("w") as out, concurrent.futures.ThreadPoolExecutor(arguments.workers) as pool:
            index = 0
            while True:
                batch = []
                while len(batch) < 256 and (stop_at is not None or index < arguments.count):
                    # One generator per case, seeded by (seed, index): a case replays alone.
                    batch.append((index, generate(random.Random(seed * 1_000_003 + index))))
                    index += 1
                if not batch:
                    break
                futures = [pool.submit(classify, case.request, case.answers, nginx.port, arguments.timeout)
                           for _, case in batch]
                for (number, case), future in zip(batch, futures):
                    answer = future.result()
                    tally[answer] = tally.get(answer, 0) + 1
                    record = {"index": number, "seed": seed, "kind": case.kind, "answers": case.answers,
                              "request": base64.b64encode(case.request).decode(), "nginx": answer}
                    out.write(json.dumps(record) + "\n")
                    written += 1
                if stop_at is not None and time.monotonic() >= stop_at:
                    break
    finally:
        nginx.stop()
    summary = ", ".join(f"{count} {name}" for name, count in sorted(tally.items(), key=lambda item: -item[1]))
    print(f"serve_differential: {written} requests in {time.monotonic() - started:.1f} s (nginx: {summary})",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Tests/e2e/servers/negotiate-only.py FOLDER

A proxy that only ever asks for Negotiate or NTLM, for the probe's end-to-end tests (started by
Tests/e2e/servers/start): every request, CONNECT or plain, gets

    HTTP/1.1 407 Proxy Authentication Required
    Proxy-Authenticate: Negotiate
    Proxy-Authenticate: NTLM
    Content-Length: 0

whatever Proxy-Authorization it carries, so no client gets through. The story: a corporate proxy
that speaks only Kerberos/SPNEGO or NTLM, with no Kerberos realm to satisfy it on a test machine.

Binds 127.0.0.1 on a free port itself and writes FOLDER/ports (NEGOTIATE_ONLY_PORT=N) once
listening, as the silent listener does. Bounded: at most MAX_CONNECTIONS connections at once
(more are closed at once), IDLE_SECONDS without a byte closes a connection, a request head over
MAX_HEAD bytes or a body over MAX_BODY bytes ends it, and one connection answers at most
MAX_REQUESTS requests. One line per request on standard output (no credentials: only the scheme
word of a Proxy-Authorization header). Stdlib only; stops on SIGTERM.
"""

import os
import signal
import socket
import sys
import threading

MAX_CONNECTIONS = 64
IDLE_SECONDS = 10
MAX_HEAD = 64 * 1024
MAX_BODY = 1024 * 1024
MAX_REQUESTS = 100

slots = threading.BoundedSemaphore(MAX_CONNECTIONS)


def log(line):
    try:
        print(line[:300], flush=True)
    except (OSError, ValueError):
        pass


def response(keep_alive):
    return (
        "HTTP/1.1 407 Proxy Authentication Required\r\n"
        "Proxy-Authenticate: Negotiate\r\n"
        "Proxy-Authenticate: NTLM\r\n"
        "Content-Length: 0\r\n"
        "X-E2E-Server: negotiate-only\r\n"
        f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
        "\r\n"
    ).encode("ascii")


def read_head(connection, buffer):
    """The request head (bytes up to the blank line) and what follows, or None at EOF/limit."""
    while True:
        for separator in (b"\r\n\r\n", b"\n\n"):
            end = buffer.find(separator)
            if end >= 0:
                return buffer[:end], buffer[end + len(separator):]
        if len(buffer) > MAX_HEAD:
            return None
        chunk = connection.recv(16384)
        if not chunk:
            return None
        buffer += chunk


def discard(connection, rest, length):
    """Reads and drops a body of LENGTH bytes of which REST arrived already; what follows it."""
    if len(rest) >= length:
        return rest[length:]
    length -= len(rest)
    while length > 0:
        chunk = connection.recv(min(length, 65536))
        if not chunk:
            raise ConnectionError("closed inside the body")
        length -= len(chunk)
    return b""


def serve(connection, peer):
    try:
        connection.settimeout(IDLE_SECONDS)
        buffer = b""
        for _ in range(MAX_REQUESTS):
            got = read_head(connection, buffer)
            if got is None:
                return
            head, buffer = got
            lines = head.decode("latin-1").replace("\r\n", "\n").split("\n")
            while lines and not lines[0]:
                lines.pop(0)  # stray line breaks between requests (RFC 9112 section 2.2)
            if not lines:
                return
            parts = lines[0].split()
            method = parts[0] if parts else "?"
            version = parts[2] if len(parts) > 2 else "HTTP/1.0"
            headers = {}
            for line in lines[1:]:
                name, colon, value = line.partition(":")
                if colon:
                    headers[name.strip().lower()] = value.strip()
            connection_tokens = {
                token.strip().lower()
                for field in ("connection", "proxy-connection")
                for token in headers.get(field, "").split(",")
            }
            keep_alive = (
                "close" not in connection_tokens
                and (version.upper() != "HTTP/1.0" or "keep-alive" in connection_tokens)
                and "transfer-encoding" not in headers  # a chunked body is not read: close
            )
            length = 0
            if "content-length" in headers:
                try:
                    length = int(headers["content-length"])
                except ValueError:
                    keep_alive, length = False, 0
                if length < 0 or length > MAX_BODY:
                    keep_alive, length = False, 0
            scheme = headers.get("proxy-authorization", "").split(" ")[0] or "-"
            log(f"{peer} {lines[0][:200]} proxy-authorization={scheme[:20]} -> 407")
            if keep_alive and length:
                buffer = discard(connection, buffer, length)
            connection.sendall(response(keep_alive))
            if not keep_alive:
                return
    except OSError:  # ConnectionError and socket timeouts too
        pass
    finally:
        # Lingering close: a client whose unread bytes are still here would get a reset instead
        # of the 407, so stop writing, then read (bounded) until it closes its side.
        try:
            connection.shutdown(socket.SHUT_WR)
            connection.settimeout(1)
            drained = 0
            while drained < MAX_BODY:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                drained += len(chunk)
        except OSError:
            pass
        connection.close()
        slots.release()


def main():
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} FOLDER", file=sys.stderr)
        return 64
    folder = sys.argv[1]
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    with open(os.path.join(folder, "ports.tmp"), "w") as f:
        f.write(f"NEGOTIATE_ONLY_PORT={listener.getsockname()[1]}\n")
    os.rename(os.path.join(folder, "ports.tmp"), os.path.join(folder, "ports"))
    log(f"listening on 127.0.0.1:{listener.getsockname()[1]}")
    while True:
        try:
            connection, address = listener.accept()
        except OSError:
            continue
        if not slots.acquire(blocking=False):
            connection.close()  # over MAX_CONNECTIONS: refuse this one, keep serving the rest
            continue
        peer = f"{address[0]}:{address[1]}"
        try:
            threading.Thread(target=serve, args=(connection, peer), daemon=True).start()
        except RuntimeError:
            connection.close()
            slots.release()


if __name__ == "__main__":
    sys.exit(main())

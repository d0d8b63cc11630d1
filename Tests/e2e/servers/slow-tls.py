#!/usr/bin/env python3
"""Tests/e2e/servers/slow-tls.py FOLDER CERT KEY

Two TLS servers for the probe's time-limit tests (started by Tests/e2e/servers/start), both
with the self-signed certificate CERT/KEY (which no client trusts without -k):

  SLOW_TLS_PORT    begins every TLS handshake 2.5 s after the connection opens, then answers
                   200 to any request: a refused certificate takes 2.5 s to see, and the
                   second look at it would take as long again;
  SILENT_TLS_PORT  finishes the handshake at once and never answers the request.

Binds 127.0.0.1 on free ports itself and writes FOLDER/ports (KEY=PORT lines) once listening;
each connection accepted is a line of FOLDER/connections.log (the port that accepted it), so a
test can count the connections a call made.
Bounded: at most 64 connections at once, each closed after 30 s. Stdlib only; stops on SIGTERM.
"""

import os
import signal
import socket
import ssl
import sys
import threading
import time

folder, cert, key = sys.argv[1], sys.argv[2], sys.argv[3]
slots = threading.BoundedSemaphore(64)
lock = threading.Lock()
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)


def serve(connection, delay, silent):
    try:
        connection.settimeout(30)
        time.sleep(delay)
        with context.wrap_socket(connection, server_side=True) as tls:
            request = tls.recv(65536)
            if silent or not request:
                time.sleep(30)
                return
            body = b"stagebuild e2e slow tls\n"
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    except (OSError, ssl.SSLError):
        pass
    finally:
        connection.close()
        slots.release()


def listen(delay, silent):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)

    def accept():
        while True:
            connection, _ = listener.accept()
            with lock, open(folder + "/connections.log", "a") as log:
                log.write(f"{port}\n")
            if not slots.acquire(blocking=False):
                connection.close()
                continue
            threading.Thread(target=serve, args=(connection, delay, silent), daemon=True).start()

    port = listener.getsockname()[1]
    threading.Thread(target=accept, daemon=True).start()
    return port


signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
slow = listen(2.5, False)
silent = listen(0, True)
with open(folder + "/ports.tmp", "w") as f:
    f.write(f"SLOW_TLS_PORT={slow}\nSILENT_TLS_PORT={silent}\n")
os.rename(folder + "/ports.tmp", folder + "/ports")
while True:
    time.sleep(3600)

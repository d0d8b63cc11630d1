import Foundation
import TestSupport

/// One Python process on 127.0.0.1 with everything the loopback tests talk to, started once
/// per test process and gone when the test process closes its standard input (or dies).
///
/// - `http`: an origin: `/hello` (200, `X-Probe-Test: yes`, `hello, probe`), `/json`
///   (`{"status": "ok"}`), `/status/NNN` (that status), `/slow` (headers after 3 s);
/// - `tls[name]`: the same origin over TLS with each ``TestPKI`` leaf;
/// - `proxy`: a forward proxy (absolute-form forwarding with `Via`, CONNECT tunnels); it
///   refuses CONNECT to port 9 with 403, answers 502 when it cannot reach the target (with
///   `Proxy-Status: testproxy; error=destination_unavailable`, RFC 9209, when forwarding);
/// - `authProxy`: the same, requiring Basic credentials ``user``/``password`` (407 with
///   `Proxy-Authenticate: Basic realm="probe-test"` otherwise);
/// - `tlsProxy`: the open proxy spoken to over TLS (an `https://` proxy) with the `good` leaf;
/// - `silent`: a listener that never accepts: the kernel completes the handshake, nobody answers;
/// - `closed`: a port where nothing listens;
/// - `hangUp`: a listener that accepts and closes each connection before any answer.
final class LoopbackLab: @unchecked Sendable {
    static let user = "alice"
    static let password = "pr0xy-S3cret"

    let http: Int
    let tls: [String: Int]
    let proxy: Int
    let authProxy: Int
    let tlsProxy: Int
    let silent: Int
    let closed: Int
    let hangUp: Int
    private let process: BackgroundProcess

    static let shared = Result { try LoopbackLab(pki: TestPKI.shared.get()) }

    init(pki: TestPKI) throws {
        var arguments = ["python3", "-c", Self.script, Self.user + ":" + Self.password]
        for name in TestPKI.leafNames {
            arguments += [name, pki.certificatePath(name), pki.keyPath(name)]
        }
        let process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        let line = try process.line(within: .seconds(20)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let http = object["http"] as? Int, let tls = object["tls"] as? [String: Int], let proxy = object["proxy"] as? Int,
            let authProxy = object["authProxy"] as? Int, let tlsProxy = object["tlsProxy"] as? Int,
            let silent = object["silent"] as? Int,
            let closed = object["closed"] as? Int, let hangUp = object["hangUp"] as? Int
        else {
            // Closing its standard input ends it: a child of a test thread inherits that thread's
            // blocked signals, SIGTERM among them.
            process.stop()
            throw LabError.badStartLine(line)
        }
        (self.http, self.tls, self.proxy, self.authProxy, self.silent, self.closed, self.hangUp) = (
            http, tls, proxy, authProxy, silent, closed, hangUp
        )
        self.tlsProxy = tlsProxy
        self.process = process
    }

    /// `http://127.0.0.1:<http><path>`.
    func origin(_ path: String) -> String { "http://127.0.0.1:\(http)\(path)" }

    /// `https://<host>:<tls[name]><path>`.
    func secure(_ name: String, _ path: String = "/hello", host: String = "127.0.0.1") -> String {
        "https://\(host):\(tls[name] ?? 0)\(path)"
    }

    private static let script = #"""
        import base64, http.client, json, os, select, socket, ssl, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            def handle_error(self, request, client_address):
                pass

        class Origin(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass
            def reply(self, status, body, content_type="text/plain", extra=()):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("X-Probe-Test", "yes")
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
            def any_method(self):
                path = self.path
                if path == "/hello":
                    return self.reply(200, b"hello, probe\n")
                if path == "/json":
                    return self.reply(200, b'{"status": "ok"}\n', "application/json")
                if path.startswith("/status/"):
                    code = int(path[len("/status/"):])
                    return self.reply(code, ("status %d\n" % code).encode())
                if path == "/slow":
                    time.sleep(3)
                    return self.reply(200, b"slow\n")
                self.reply(404, b"not found\n")
            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = any_method

        class Proxy(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server_version = "testproxy/1"
            def log_message(self, *args):
                pass
            def authorized(self):
                need = self.server.credentials
                if not need:
                    return True
                wanted = "Basic " + base64.b64encode(need.encode()).decode()
                return self.headers.get("Proxy-Authorization", "") == wanted
            def answer(self, status, reason, extra=()):
                self.send_response(status, reason)
                for name, value in extra:
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def do_CONNECT(self):
                if not self.authorized():
                    return self.answer(407, "Proxy Authentication Required", [("Proxy-Authenticate", 'Basic realm="probe-test"')])
                host, _, port = self.path.rpartition(":")
                if int(port) == 9:
                    return self.answer(403, "Forbidden")
                try:
                    upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=5)
                except OSError:
                    return self.answer(502, "Bad Gateway")
                self.send_response(200, "Connection established")
                self.end_headers()
                self.close_connection = True
                sockets = [self.connection, upstream]
                try:
                    while True:
                        ready, _, _ = select.select(sockets, [], [], 30)
                        if not ready:
                            break
                        for source in ready:
                            data = source.recv(65536)
                            if not data:
                                return
                            (upstream if source is self.connection else self.connection).sendall(data)
                except OSError:
                    pass
                finally:
                    upstream.close()
            def forward(self):
                if not self.authorized():
                    return self.answer(407, "Proxy Authentication Required", [("Proxy-Authenticate", 'Basic realm="probe-test"')])
                url = urlsplit(self.path)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-authorization", "proxy-connection", "connection")}
                try:
                    connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=5)
                    connection.request(self.command, url.path or "/", headers=headers)
                    response = connection.getresponse()
                    body = response.read()
                except OSError:
                    return self.answer(502, "Bad Gateway", [("Proxy-Status", "testproxy; error=destination_unavailable")])
                self.send_response(response.status, response.reason)
                for name, value in response.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length", "server", "date"):
                        self.send_header(name, value)
                self.send_header("Via", "1.1 testproxy")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = forward

        def serve(server):
            threading.Thread(target=server.serve_forever, daemon=True).start()
            return server.server_address[1]

        ports = {"http": serve(Server(("127.0.0.1", 0), Origin)), "tls": {}}
        arguments = sys.argv[1:]
        credentials = arguments[0]
        for index in range(1, len(arguments), 3):
            name, certificate, key = arguments[index:index + 3]
            server = Server(("127.0.0.1", 0), Origin)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certificate, key)
            server.socket = context.wrap_socket(server.socket, server_side=True)
            ports["tls"][name] = serve(server)
        open_proxy = Server(("127.0.0.1", 0), Proxy)
        open_proxy.credentials = None
        ports["proxy"] = serve(open_proxy)
        tls_proxy = Server(("127.0.0.1", 0), Proxy)
        tls_proxy.credentials = None
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments[2], arguments[3])
        tls_proxy.socket = context.wrap_socket(tls_proxy.socket, server_side=True)
        ports["tlsProxy"] = serve(tls_proxy)
        auth_proxy = Server(("127.0.0.1", 0), Proxy)
        auth_proxy.credentials = credentials
        ports["authProxy"] = serve(auth_proxy)
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        ports["silent"] = silent.getsockname()[1]
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        ports["closed"] = closed.getsockname()[1]
        closed.close()
        hang_up = socket.socket()
        hang_up.bind(("127.0.0.1", 0))
        hang_up.listen(64)
        ports["hangUp"] = hang_up.getsockname()[1]

        def hang_up_each():
            while True:
                connection, _ = hang_up.accept()
                connection.close()

        threading.Thread(target=hang_up_each, daemon=True).start()
        print(json.dumps(ports), flush=True)
        sys.stdin.read()
        os._exit(0)
        """#
}

/// Why the ``LoopbackLab`` did not start.
enum LabError: Error {
    case badStartLine(String)
}

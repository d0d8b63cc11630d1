import Foundation
import TestSupport

/// A Python `http.server` on 127.0.0.1 with fixed routes, started by the tests.
///
/// Routes: `/hello` (200, `X-Probe-Test: yes`, `hello, probe\n`), `/big` (100 000 bytes),
/// `/echo` (the request line and headers as the body), `/drip` (100 bytes, one per 100 ms).
/// As a forward proxy it answers an absolute-form request itself with the request line and the
/// decoded `Proxy-Authorization` credentials, and answers CONNECT with 407. With a certificate it
/// serves TLS. The server exits when the test process closes its standard input (also when the
/// test process dies), so no server outlives the tests.
final class LoopbackServer: @unchecked Sendable {
    let port: Int
    private let process: BackgroundProcess

    /// One plain HTTP server for the whole test process.
    static let plain = Result { try LoopbackServer() }

    /// One TLS server for the whole test process, with ``TestCertificate/shared``.
    static let tls = Result { try LoopbackServer(certificate: TestCertificate.shared.get()) }

    /// Starts the server and waits up to 10 seconds for its port.
    init(certificate: TestCertificate? = nil) throws {
        var arguments = ["python3", "-c", Self.script]
        if let certificate {
            arguments += [certificate.certificatePath, certificate.keyPath]
        }
        let process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        let line = try process.line(within: .seconds(10)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            process.stop()
            throw LoopbackServerError.noPort(line)
        }
        self.port = port
        self.process = process
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String, scheme: String = "http", host: String = "127.0.0.1") -> String {
        "\(scheme)://\(host):\(port)\(path)"
    }

    private static let script = #"""
        import base64, os, ssl, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body, extra=()):
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("X-Probe-Test", "yes")
                for name, value in extra:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def any_method(self):
                if self.path.startswith("http://"):
                    auth = self.headers.get("Proxy-Authorization", "")
                    creds = base64.b64decode(auth[6:]).decode() if auth.startswith("Basic ") else ""
                    body = "proxied %s %s\ncredentials %s\n" % (self.command, self.path, creds)
                    return self.reply(200, body.encode())
                if self.path == "/hello":
                    return self.reply(200, b"hello, probe\n")
                if self.path == "/big":
                    return self.reply(200, b"a" * 100000)
                if self.path == "/echo":
                    body = "%s %s\n%s" % (self.command, self.path, self.headers)
                    return self.reply(200, body.encode())
                if self.path == "/drip":
                    self.send_response(200)
                    self.send_header("Content-Length", "100")
                    self.end_headers()
                    self.wfile.flush()
                    for _ in range(100):
                        time.sleep(0.1)
                        self.wfile.write(b"x")
                        self.wfile.flush()
                    return
                self.reply(404, b"not found\n")

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = any_method

            def do_CONNECT(self):
                self.send_response(407)
                self.send_header("Proxy-Authenticate", 'Basic realm="probe"')
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass

        server = Server(("127.0.0.1", 0), Handler)
        if len(sys.argv) == 3:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        server.serve_forever()
        """#
}

/// Why a ``LoopbackServer`` did not start.
enum LoopbackServerError: Error {
    case noPort(String)
}

import Foundation
import SanityServer
import Testing

extension LoopbackTests {
    /// Bad input over a real connection: the right status, `Connection: close`, then a clean close.
    @Suite struct ErrorStatusLoopbackTests {
        struct Case: CustomTestStringConvertible, Sendable {
            var name: String
            var request: String
            var status: Int
            var testDescription: String { "\(name) -> \(status)" }
        }

        static let cases: [Case] = [
            Case(name: "malformed request line", request: "GET / HTTP/1.1 extra\r\nHost: t\r\n\r\n", status: 400),
            Case(name: "obsolete line folding", request: "GET / HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n 2\r\n\r\n", status: 400),
            Case(name: "missing Host", request: "GET / HTTP/1.1\r\n\r\n", status: 400),
            Case(name: "invalid Host", request: "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n", status: 400),
            Case(
                name: "header section too large",
                request: "GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 3000))\r\n\r\n", status: 431),
            Case(name: "request line too long", request: "GET /\(String(repeating: "p", count: 3000)) HTTP/1.1\r\n", status: 414),
            Case(name: "body too large", request: "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n", status: 413),
            Case(
                name: "chunked body too large",
                request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n1001\r\n", status: 413),
            Case(
                name: "unknown transfer coding", request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: br\r\n\r\n",
                status: 501),
            Case(name: "HTTP/2.0", request: "GET / HTTP/2.0\r\nHost: t\r\n\r\n", status: 505),
            Case(name: "unknown expectation", request: "GET / HTTP/1.1\r\nHost: t\r\nExpect: magic\r\n\r\n", status: 417),
            // Refused when the bad line arrives, not at the read deadline (found beside nginx).
            Case(name: "bad field line, head unfinished", request: "GET / HTTP/1.1\r\nHost: t\r\nX: a\u{0}b\r\n", status: 400),
            Case(
                name: "bad chunk size, line unfinished",
                request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0x3", status: 400),
        ]

        @Test(arguments: cases)
        func answersStatusAndCloses(_ example: Case) throws {
            let server = try TestServer(ServerConfiguration(maxHeaderBytes: 2048, maxBodyBytes: 4096))
            let client = try server.client()
            try client.send(example.request)
            let response = try client.readResponse()
            #expect(response.status == example.status)
            #expect(response.field("Connection") == "close")
            #expect(try response.json["status"] as? Int == example.status)
            #expect(try client.serverClosed())
        }

        @Test func answers400WhenClientClosesMidRequest() throws {
            let server = try TestServer()
            let client = try server.client()
            try client.send("GET / HTTP/1.1\r\nHost: t\r\n")
            client.finishSending()
            #expect(try client.readResponse().status == 400)
        }

        @Test func answers408WhenHeadersArriveTooSlowly() throws {
            let server = try TestServer(ServerConfiguration(readDeadline: 0.5))
            let client = try server.client()
            let started = Date()
            try client.send("GET / HTTP/1.1\r\n")
            usleep(200_000)
            try client.send("Host: t\r\n")
            let response = try client.readResponse()
            let elapsed = Date().timeIntervalSince(started)
            #expect(response.status == 408)
            #expect(response.field("Connection") == "close")
            #expect(elapsed >= 0.45 && elapsed < 3)
            #expect(try client.serverClosed())
            // The access log is written by its own thread, just after the answer.
            #expect(server.eventually { server.log.map(\.status) == [408] }, "\(server.log.map(\.status))")
        }
    }
}

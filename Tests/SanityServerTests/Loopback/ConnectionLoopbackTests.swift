import Foundation
import SanityServer
import Testing

extension LoopbackTests {
    /// Persistent connections, pipelining, slow clients and deadlines (RFC 9112 section 9).
    @Suite struct ConnectionLoopbackTests {
        @Test func servesSeveralRequestsOnOneKeepAliveConnection() throws {
            let server = try TestServer()
            let client = try server.client()
            for index in 1...5 {
                try client.send("GET /anything/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.field("Connection") == nil)
                #expect(try response.json["path"] as? String == "/anything/\(index)")
                #expect(try (response.json["peer"] as? [String: Any])?["port"] as? Int == client.localPort)
            }
        }

        @Test func answersPipelinedRequestsInOrder() throws {
            let server = try TestServer()
            let client = try server.client()
            let targets = ["/delay/50", "/anything/second", "/status/204", "/anything/fourth"]
            try client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
            let first = try client.readResponse()
            #expect(try first.json["target"] as? String == "/delay/50")
            #expect(try client.readResponse().json["target"] as? String == "/anything/second")
            #expect(try client.readResponse().status == 204)
            #expect(try client.readResponse().json["target"] as? String == "/anything/fourth")
        }

        @Test func answersHeadersSentOneByteAtATime() throws {
            let server = try TestServer(ServerConfiguration(readDeadline: 3))
            let client = try server.client()
            for byte in "GET /headers HTTP/1.1\r\nHost: slow\r\nX-Slow: 1\r\n\r\n".utf8 {
                try client.send([byte])
                usleep(2000)
            }
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(
                try response.json["headers"] as? [[String: String]] == [
                    ["name": "Host", "value": "slow"], ["name": "X-Slow", "value": "1"],
                ])
        }

        @Test func answers408WhenBytesTrickleBeyondTheDeadline() throws {
            let server = try TestServer(ServerConfiguration(readDeadline: 0.4))
            let client = try server.client()
            var answered: TestResponse?
            for byte in "GET / HTTP/1.1\r\nHost: t\r\n\r\n".utf8.prefix(12) {
                guard (try? client.send([byte])) != nil else { break }
                usleep(60_000)
            }
            answered = try client.readResponse()
            #expect(answered?.status == 408)
        }

        @Test func closesIdleKeepAliveConnectionSilently() throws {
            let server = try TestServer(ServerConfiguration(readDeadline: 0.3))
            let client = try server.client()
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(try client.serverClosed())
            // The access log is written by its own thread, just after the answer.
            #expect(server.eventually { server.log.count == 1 }, "\(server.log.count)")
        }

        @Test func closesAfterResponseWhenClientAsksOrSpeaksHTTP10() throws {
            let server = try TestServer()
            let closing = try server.client()
            try closing.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(try closing.readResponse().field("Connection") == "close")
            #expect(try closing.serverClosed())

            let legacy = try server.client()
            try legacy.send("GET /healthz HTTP/1.0\r\n\r\n")
            #expect(try legacy.readResponse().field("Connection") == "close")
            #expect(try legacy.serverClosed())

            let legacyKeepAlive = try server.client()
            try legacyKeepAlive.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try legacyKeepAlive.readResponse().field("Connection") == "keep-alive")
            try legacyKeepAlive.send("GET /healthz HTTP/1.0\r\n\r\n")
            #expect(try legacyKeepAlive.readResponse().status == 200)
        }
    }
}

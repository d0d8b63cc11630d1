import Foundation
import SanityServer
import Testing

extension LoopbackTests {
    /// Each route answered by a real server over a real connection.
    @Suite struct RouteLoopbackTests {
        @Test(arguments: [
            ("/", 200), ("/anything", 200), ("/anything/a/b?c=d", 200), ("/headers", 200), ("/ip", 200),
            ("/status/201", 201), ("/status/503", 503), ("/status/abc", 400), ("/delay/5", 200), ("/healthz", 200),
            ("/no/such/route", 404),
        ])
        func answersEveryRoute(target: String, status: Int) throws {
            let server = try TestServer(ServerConfiguration(host: "127.0.0.1", name: "route-test"))
            let response = try server.request("GET \(target) HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(response.status == status)
            #expect(response.field("Server") == "route-test")
            #expect(response.field("Date")?.hasSuffix(" GMT") == true)
        }

        @Test func echoesPeerAndLocalAddressesOverIPv6() throws {
            let server = try TestServer(ServerConfiguration(host: "::1"))
            #expect(server.address.host == "::1")
            let client = try server.client()
            try client.send(
                "GET /anything?x=1 HTTP/1.1\r\nHost: [::1]\r\nX-Forwarded-For: 198.51.100.1\r\nVia: 1.1 nginx\r\nForwarded: for=198.51.100.1\r\n\r\n"
            )
            let echo = try client.readResponse().json
            let peer = try #require(echo["peer"] as? [String: Any])
            #expect(peer["address"] as? String == "::1")
            #expect(peer["port"] as? Int == client.localPort)
            let local = try #require(echo["local"] as? [String: Any])
            #expect(local["port"] as? Int == server.address.port)
            let headers = try #require(echo["headers"] as? [[String: String]])
            #expect(headers.compactMap { $0["name"] } == ["Host", "X-Forwarded-For", "Via", "Forwarded"])
        }

        @Test func echoesIPv4PeerOnDualStackListener() throws {
            // An IPv6 socket bound to the IPv4-mapped loopback sees IPv4 peers as ::ffff:127.0.0.1.
            let server = try TestServer(ServerConfiguration(host: "::ffff:127.0.0.1"))
            let client = try TestClient(SocketAddress(host: "127.0.0.1", port: server.address.port))
            try client.send("GET /ip HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().json["address"] as? String == "127.0.0.1")
        }

        @Test func echoesDigestOfChunkedUpload() throws {
            let server = try TestServer()
            let response = try server.request(
                "POST /anything HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n2\r\nbc\r\n0\r\nX-Sum: 1\r\n\r\n"
            )
            let body = try #require(try response.json["body"] as? [String: Any])
            #expect(body["length"] as? Int == 3)
            #expect(body["sha256"] as? String == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            #expect(try response.json["trailers"] as? [[String: String]] == [["name": "X-Sum", "value": "1"]])
        }

        @Test func rendersTextWhenClientPrefersPlainText() throws {
            let server = try TestServer()
            let response = try server.request("GET /headers HTTP/1.1\r\nHost: t\r\nAccept: text/plain\r\n\r\n")
            #expect(response.field("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.text == "Host: t\nAccept: text/plain\n")
        }

        @Test func answersHeadWithLengthButNoContent() throws {
            let server = try TestServer()
            let client = try server.client()
            try client.send("HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try client.readResponse(toHead: true)
            #expect(head.field("Content-Length") == "3")
            #expect(head.body.isEmpty)
            #expect(try client.readResponse().text == "ok\n")
        }

        @Test func capsDelayAtMaxDelay() throws {
            let server = try TestServer(ServerConfiguration(maxDelay: 0.2))
            let started = Date()
            let response = try server.request("GET /delay/60000 HTTP/1.1\r\nHost: t\r\n\r\n")
            let elapsed = Date().timeIntervalSince(started)
            #expect(response.status == 200)
            #expect(elapsed >= 0.19 && elapsed < 2)
            #expect(try response.json["delay"] as? [String: Int] == ["requestedMilliseconds": 60000, "appliedMilliseconds": 200])
        }

        @Test func sendsContinueBeforeReadingTheBody() throws {
            let server = try TestServer()
            let client = try server.client()
            try client.send("PUT /anything HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(try client.readResponse().status == 100)
            try client.send("data")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(try (response.json["body"] as? [String: Any])?["length"] as? Int == 4)
        }

        @Test func logsOneEntryPerAnsweredRequest() throws {
            let server = try TestServer()
            let client = try server.client()
            try client.send("POST /status/202 HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\nx")
            let response = try client.readResponse()
            #expect(server.eventually { server.log.count == 1 })
            let entry = try #require(server.log.first)
            #expect(entry.method == "POST")
            #expect(entry.target == "/status/202")
            #expect(entry.version == "HTTP/1.1")
            #expect(entry.status == 202)
            #expect(entry.bytes == response.body.count)
            #expect(entry.peer == SocketAddress(host: "127.0.0.1", port: client.localPort))
            #expect(entry.durationMilliseconds >= 0 && entry.durationMilliseconds < 5000)
        }

        @Test func failsToStartOnAPortInUseNamingTheCall() throws {
            let first = try TestServer()
            let second = SanityServer(configuration: ServerConfiguration(port: first.address.port))
            #expect(throws: ServerError.systemCall(call: "bind", errno: EADDRINUSE)) { try second.start() }
            #expect(throws: ServerError.invalidHost("localhost")) {
                try SanityServer(configuration: ServerConfiguration(host: "localhost", port: 0)).start()
            }
        }
    }
}

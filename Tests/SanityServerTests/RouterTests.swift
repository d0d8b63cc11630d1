import Foundation
import Testing

@testable import SanityServer

/// Routes without sockets: the router is pure, so every answer can be checked from a request value.
@Suite struct RouterTests {
    private let router = Router(serverName: "upstream-a", maxDelayMilliseconds: 250)
    private let peer = SocketAddress(host: "192.0.2.7", port: 50000)
    private let local = SocketAddress(host: "127.0.0.1", port: 8080)

    private func respond(
        _ method: String = "GET", _ target: String, fields: [HTTPField] = [], body: [UInt8] = []
    )
        -> HTTPResponse
    {
        let request = HTTPRequest(
            method: method, target: target, version: .http1_1,
            headerFields: [HTTPField(name: "Host", value: "example.com")] + fields, body: body)
        return router.response(to: request, peer: peer, local: local)
    }

    private func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func echoesEverythingThatReachedTheServer() throws {
        let response = respond(
            "POST", "/anything/deep/path?b=2&a=x%20y",
            fields: [HTTPField(name: "X-Real-IP", value: "10.1.1.1"), HTTPField(name: "via", value: "1.1 proxy")],
            body: Array("abc".utf8))
        #expect(response.status == 200)
        let echo = try json(response)
        #expect(echo["server"] as? String == "upstream-a")
        #expect(echo["method"] as? String == "POST")
        #expect(echo["path"] as? String == "/anything/deep/path")
        let query = try #require(echo["query"] as? [[String: String]])
        #expect(query == [["name": "b", "value": "2"], ["name": "a", "value": "x y"]])
        let headers = try #require(echo["headers"] as? [[String: String]])
        #expect(headers.map { $0["name"] ?? "" } == ["Host", "X-Real-IP", "via"])
        let peer = try #require(echo["peer"] as? [String: Any])
        #expect(peer["address"] as? String == "192.0.2.7")
        #expect(peer["port"] as? Int == 50000)
        let local = try #require(echo["local"] as? [String: Any])
        #expect(local["address"] as? String == "127.0.0.1")
        #expect(local["port"] as? Int == 8080)
        let body = try #require(echo["body"] as? [String: Any])
        #expect(body["length"] as? Int == 3)
        #expect(body["sha256"] as? String == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func rendersEchoAsTextWhenClientPrefersPlainText() {
        let response = respond("GET", "/", fields: [HTTPField(name: "Accept", value: "application/json;q=0.5, text/plain")])
        #expect(response.fields.first?.value == "text/plain; charset=utf-8")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix("GET / HTTP/1.1\nserver: upstream-a\npeer: 192.0.2.7:50000\n"))
        #expect(text.contains("\n  Accept: application/json;q=0.5, text/plain\n"))
    }

    /// RFC 9110's MUSTs for the statuses /status/CODE answers: 205 without content, 206 with
    /// Content-Range, 426 with Upgrade.
    @Test func statusAnswersCarryWhatTheirCodeRequires() {
        #expect(respond("GET", "/status/205").body.isEmpty)
        let partial = respond("GET", "/status/206")
        #expect(
            partial.fields.first { $0.name == "Content-Range" }?.value
                == "bytes 0-\(partial.body.count - 1)/\(partial.body.count)")
        #expect(respond("GET", "/status/426").fields.contains { $0.name == "Upgrade" })
    }

    /// An answer chosen by Accept says so, for caches (RFC 9110 section 12.5.5).
    @Test func answersChosenByAcceptVaryByIt() {
        for path in ["/", "/anything/x", "/headers", "/ip"] {
            #expect(respond("GET", path).fields.contains(HTTPField(name: "Vary", value: "Accept")), "\(path)")
        }
        #expect(!respond("GET", "/healthz").fields.contains { $0.name == "Vary" })
    }

    /// A decoded query value with a line feed cannot forge a line of the text echo.
    @Test func theTextEchoEscapesControlCharactersOfTheQuery() {
        let response = respond(
            "GET", "/anything?a=%0aheaders:%0a%20%20Fake:%20yes&b=%00", fields: [HTTPField(name: "Accept", value: "text/plain")])
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("  a = \\x0Aheaders:\\x0A  Fake: yes\n"), "\(text)")
        #expect(text.contains("  b = \\x00\n"))
        #expect(text.components(separatedBy: "\nheaders:\n").count == 2, "one headers block")
    }

    @Test func matchesAnythingOnlyAsAWholeSegment() {
        #expect(respond("GET", "/anything").status == 200)
        #expect(respond("GET", "/anything/").status == 200)
        #expect(respond("GET", "/anythingelse").status == 404)
    }

    @Test func listsRoutesInNotFoundBody() throws {
        let response = respond("GET", "/missing")
        #expect(response.status == 404)
        #expect(try json(response)["routes"] as? [String] == Router.routes)
    }

    @Test func answersIPFromTheTCPPeerNeverFromHeaders() throws {
        let response = respond("GET", "/ip", fields: [HTTPField(name: "X-Forwarded-For", value: "203.0.113.9")])
        #expect(try json(response)["address"] as? String == "192.0.2.7")
    }

    @Test(arguments: [200, 201, 204, 301, 401, 404, 405, 407, 418, 500, 503, 599])
    func answersAnyFinalStatusCode(code: Int) {
        let response = respond("GET", "/status/\(code)")
        #expect(response.status == code)
        let names = response.fields.map(\.name)
        if code == 401 { #expect(names.contains("WWW-Authenticate")) }
        if code == 405 { #expect(names.contains("Allow")) }
        if code == 407 { #expect(names.contains("Proxy-Authenticate")) }
        if code == 301 { #expect(names.contains("Location")) }
    }

    @Test(arguments: ["/status/99", "/status/600", "/status/abc", "/status/1000", "/delay/-1", "/delay/x", "/delay/1234567890"])
    func rejectsBadRouteArguments(target: String) {
        #expect(respond("GET", target).status == 400)
    }

    @Test func capsDelayAtTheConfiguredMaximum() throws {
        let response = respond("GET", "/delay/5000")
        #expect(response.delayMilliseconds == 250)
        let delay = try #require(try json(response)["delay"] as? [String: Int])
        #expect(delay == ["requestedMilliseconds": 5000, "appliedMilliseconds": 250])
        #expect(respond("GET", "/delay/100").delayMilliseconds == 100)
    }

    @Test func answersHealthCheck() {
        let response = respond("GET", "/healthz")
        #expect(response.status == 200)
        #expect(response.body == Array("ok\n".utf8))
    }

    @Test func routesAbsoluteFormByItsPath() {
        #expect(respond("GET", "http://example.com/healthz").body == Array("ok\n".utf8))
    }

    @Test func refusesConnectWithAllow() {
        let response = respond("CONNECT", "example.com:443")
        #expect(response.status == 405)
        #expect(response.fields.contains { $0.name == "Allow" })
    }
}

/// The README lists the routes from the one table, word for word.
@Test func theREADMEListsEveryRouteOfTheTable() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let rows = Route.table.map { "| `\($0.pattern)` | \($0.summary) |" }
    let block = (["| route | answers |", "| --- | --- |"] + rows).joined(separator: "\n") + "\n"
    #expect(text.contains(block), "README.md's route table differs from Route.table:\n\(block)")
}

import Foundation
import Testing

/// `-L` hop by hop against nginx on two loopback addresses (127.0.0.1 and 127.0.0.2, one port):
/// each hop takes the route curl would choose for its URL, runs under the run's TLS policy,
/// is reported with its own facts, and gets no `-H` credential meant for another origin.
/// The shared cases of this kind: `probe-redirect-route-not-remade`,
/// `probe-redirect-https-hop-tls-policy-dropped`, `probe-redirect-report-describes-first-hop`,
/// `probe-urlsession-redirect-sends-credentials-to-other-host`.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct RedirectHopTests {
    /// `http://127.0.0.1:HTTP/redirect/to?to=TARGET`: nginx answers 302 to TARGET.
    static func redirect(to target: String, from scheme: String = "http", portKey: String = "HTTP_PORT") throws -> String {
        let servers = try E2EServers.current()
        return servers.url(scheme, scheme == "https" ? "localhost" : "127.0.0.1", portKey, path: "/redirect/to?to=\(target)")
    }

    /// The echo on the other host, 127.0.0.2.
    static func otherHost(_ path: String = "/echo") throws -> String {
        try E2EServers.current().url("http", "127.0.0.2", "HTTP_PORT", path: path)
    }

    @Test(.timeLimit(.minutes(1)))
    func eachHopTakesTheRouteCurlChoosesForItsURL() async throws {
        let servers = try E2EServers.current()
        let proxy = servers.proxy("TINYPROXY_PORT")
        let url = try Self.redirect(to: try Self.otherHost())
        // A: the second host is exempt, so its hop goes direct (no Via from tinyproxy).
        let exempt = try await ProbeCall.run(
            ["-L", "--expect-body", "server=127\\.0\\.0\\.2\\n", "--expect-body", "via=\\n", url],
            variables: ["http_proxy": proxy, "NO_PROXY": "127.0.0.2"])
        try exempt.expectSucceeded()
        let hops = try #require(try exempt.probe.hops)
        #expect(hops.map(\.route) == ["proxy", "direct"], "\(exempt.json.summary)")
        #expect(hops.map(\.httpStatus) == [302, 200])
        #expect(try exempt.probe.route == "direct", "the call's route is its last hop's")
        // C: the first host is exempt and the second is not: its hop goes through the proxy.
        let proxied = try await ProbeCall.run(
            ["-L", "--expect-body", "via=1\\.1 [^\\n]*tinyproxy", url],
            variables: ["http_proxy": proxy, "NO_PROXY": "127.0.0.1"])
        try proxied.expectSucceeded()
        #expect(try proxied.probe.hops?.map(\.route) == ["direct", "proxy"], "\(proxied.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func anHTTPSHopGetsTheSchemesProxyAndTheRunsTLSPolicy() async throws {
        let servers = try E2EServers.current()
        let target = servers.url("https", "localhost", "TLS_VALID_PORT")
        let url = try Self.redirect(to: target)
        // B: http_proxy for the first hop, HTTPS_PROXY (squid, CONNECT) for the https one.
        let call = try await ProbeCall.run(
            ["-L", "--cacert", servers["CA_CERT"], url],
            variables: ["http_proxy": servers.proxy("TINYPROXY_PORT"), "https_proxy": servers.proxy("SQUID_PORT")])
        try call.expectSucceeded()
        let hops = try #require(try call.probe.hops)
        #expect(hops.map(\.proxy) == [servers.proxy("TINYPROXY_PORT"), servers.proxy("SQUID_PORT")], "\(call.json.summary)")
        #expect(hops.last?.connectStatus == 200)
        #expect(hops.last?.tls?.chainVerified == true && hops.last?.tls?.nameVerified == true, "\(call.json.summary)")
        #expect(try call.probe.appleClients?.isEmpty == false, "the https hop gets Apple verdicts")
        // -k reaches the https hop too; a wrong pin fails it, naming the hop.
        let insecure = try await ProbeCall.run(["-L", "-k", url])
        try insecure.expectSucceeded()
        let pinned = try await ProbeCall.run([
            "-L", "--cacert", servers["CA_CERT"], "--pinned-public-key", servers["OTHER_CERT_PIN"], url,
        ])
        try pinned.expectFailed("pinnedKeyMismatch", keywords: ["of hop 2"])
    }

    @Test(.timeLimit(.minutes(1)))
    func theReportDescribesTheHopThatFailed() async throws {
        let servers = try E2EServers.current()
        let closed = servers.url("http", "127.0.0.1", "CLOSED_PORT", path: "/next")
        let refused = try await ProbeCall.run(["-L", try Self.redirect(to: closed)])
        try refused.expectFailed("connectFailed", keywords: ["127.0.0.1:\(servers["CLOSED_PORT"])"])
        let probe = try refused.probe
        #expect(probe.message?.contains(":\(servers["CLOSED_PORT"])") == true, "\(refused.json.summary)")
        #expect(probe.httpStatus == nil, "the 302 belongs to hop 1: \(refused.json.summary)")
        #expect(probe.redirects?.map(\.location) == [closed])
        // An expired certificate on the second host: its own facts and verdicts.
        let expired = servers.url("https", "127.0.0.1", "TLS_EXPIRED_PORT", path: "/x")
        let start = try Self.redirect(to: expired, from: "https", portKey: "TLS_VALID_PORT")
        let call = try await ProbeCall.run(["-L", "--cacert", servers["CA_CERT"], start])
        try call.expectFailed("certificateExpired", keywords: ["of hop 2"])
        let failed = try call.probe
        #expect(failed.tls?.daysUntilExpiry.map { $0 < 0 } == true, "the expired certificate's facts: \(call.json.summary)")
        #expect(failed.appleClients?.allSatisfy { $0.outcome == "failed" } == true, "\(call.json.summary)")
        #expect(failed.hops?.first?.tls?.chainVerified == true, "hop 1's own certificate is valid")
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["curl", "urlsession"])
    func credentialsGivenWithHeadersNeverReachAnotherHost(engine: String) async throws {
        // X-Api-Key is a credential by the same rule that hides it in every output.
        let headers = [
            "-H", "Authorization: Bearer FIRST-HOST-TOKEN", "-H", "Cookie: session=FIRST-HOST-SESSION", "-H",
            "X-Api-Key: FIRST-HOST-KEY",
        ]
        let other = try await ProbeCall.run(
            ["--engine", engine, "-L"] + headers + [
                "--expect-body", "server=127\\.0\\.0\\.2\\nauthorization=\\ncookie=\\nx-api-key=\\n",
                try Self.redirect(to: try Self.otherHost()),
            ])
        try other.expectSucceeded()
        // The same origin keeps them, as curl does.
        let same = try E2EServers.current().url("http", "127.0.0.1", "HTTP_PORT", path: "/echo")
        let kept = try await ProbeCall.run(
            ["--engine", engine, "-L"] + headers + [
                "--expect-body",
                "authorization=Bearer FIRST-HOST-TOKEN\\ncookie=session=FIRST-HOST-SESSION\\nx-api-key=FIRST-HOST-KEY",
                try Self.redirect(to: same),
            ])
        try kept.expectSucceeded()
    }

    @Test(.timeLimit(.minutes(1)))
    func aRedirectToAnotherSchemeIsRefusedWithNothingSent() async throws {
        let call = try await ProbeCall.run(["-L", try Self.redirect(to: "ftp://127.0.0.2/file")])
        try call.expectFailed("redirectRefused", keywords: ["ftp://127.0.0.2/file"])
        #expect(try call.probe.urlError?.code == -1002, "\(call.json.summary)")
    }

    /// `-v -L` traces every hop in order, as `curl -v -L` does.
    @Test(.timeLimit(.minutes(1)))
    func theTraceShowsEveryHop() async throws {
        let run = try await StagebuildProcess.run(["probe", "-v", "-L", try Self.redirect(to: try Self.otherHost())])
        #expect(run.status == 0, "\(run.summary)")
        let requests = run.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET ") }
        #expect(requests.count == 2 && requests.first?.contains("/redirect/to") == true, "\(run.summary)")
        #expect(run.stderr.contains("< HTTP/1.1 302"), "\(run.summary)")
    }

    /// `--engine urlsession`: a loop is too many redirects (FoundationNetworking's own cap of 20
    /// said), and a failure at a later hop names that hop's host, as the curl engine does.
    @Test(.timeLimit(.minutes(1)))
    func urlSessionReportsALoopAndALaterHopsFailureAsTheCurlEngineDoes() async throws {
        let servers = try E2EServers.current()
        let loop = try await ProbeCall.run(
            ["--engine", "urlsession", "-L", servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/loop")])
        try loop.expectFailed("tooManyRedirects")
        #expect(try loop.probe.urlError?.code == -1007, "\(loop.json.summary)")
        #expect(try loop.probe.message?.contains("FoundationNetworking follows at most 20") == true, "\(loop.json.summary)")
        let closed = "http://127.0.0.2:\(servers["CLOSED_PORT"])/x"
        let later = try await ProbeCall.run(["--engine", "urlsession", "-L", try Self.redirect(to: closed)])
        try later.expectFailed("connectFailed", keywords: ["of hop 2"])
        let message = try later.probe.message ?? ""
        #expect(message.contains("127.0.0.2:\(servers["CLOSED_PORT"])"), "\(later.json.summary)")
        #expect(!message.contains("127.0.0.1:\(servers["HTTP_PORT"])"), "\(later.json.summary)")
    }
}

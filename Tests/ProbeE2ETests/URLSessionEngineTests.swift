import Testing

/// `--engine urlsession`: what a Swift app on Linux sees through FoundationNetworking, with the
/// hop and the Apple verdict still true.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct URLSessionEngineTests {
    /// An http:// target speaks no TLS: a TLS failure can only be the https:// proxy's.
    @Test(.timeLimit(.minutes(1)))
    func anHTTPSProxysUntrustedCertificateIsTheProxysHop() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--engine", "urlsession", "--proxy", servers.url("https", "localhost", "TLS_VALID_PORT"),
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectFailed("certificateNotTrusted")
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.hint?.hasPrefix("with --engine curl: --proxy-cacert FILE") == true, "\(call.json.summary)")
        #expect(probe.tls == nil, "\(call.json.summary)")
    }

    /// FoundationNetworking on Linux refuses IPv6 literal hosts itself: nothing was connected
    /// to, so no hop is blamed, and an Apple app would connect normally.
    @Test(.timeLimit(.minutes(1)), arguments: ["http", "https"])
    func anIPv6LiteralIsRefusedByTheEngineNotTheTarget(scheme: String) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--engine", "urlsession", servers.url(scheme, "[::1]", scheme == "http" ? "HTTP_PORT" : "TLS_VALID_PORT"),
        ])
        try call.expectFailed("engineRefusedURL")
        let probe = try call.probe
        #expect(probe.hop == "client", "\(call.json.summary)")
        #expect(probe.urlError?.code == -1000, "\(call.json.summary)")
        #expect(probe.urlError?.note?.contains("an app on Apple platforms connects normally") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--engine curl") == true, "\(call.json.summary)")
    }
}

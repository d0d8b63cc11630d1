import Foundation
import Testing

/// A proxy's own error answers in the words their error codes choose
/// (`probe-bump-squid-error-page-blamed-on-target`, `probe-proxy-read-timeout-called-unreachable`,
/// `probe-chained-proxy-407-blamed-on-password`): squid's page inside a bumped tunnel is squid's,
/// a read timeout is a slow target, and a 407 from a proxy behind the configured one is not the
/// user's password.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct ProxyOwnAnswerTests {
    /// squid bumps with its own inspection CA (given, as a developer behind it would) and
    /// cannot verify the expired origin: its 503 inside the tunnel is its own.
    @Test(.timeLimit(.minutes(1)))
    func aBumpingSquidsErrorPageIsSquidsNotTheTargets() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_BUMP_PORT"), "--cacert", servers["SQUID_BUMP_CA_CERT"], "--client",
            "urlsession", servers.url("https", "localhost", "TLS_EXPIRED_PORT"),
        ])
        try call.expectFailed("proxyBadGateway", keywords: ["err_secure_connect_fail", "certificate expired"])
        let probe = try call.probe
        #expect(probe.hop == "proxy" && probe.message?.hasPrefix("squid, which intercepts TLS,") == true)
        #expect(probe.hint?.contains("--expect-status") == false, "\(call.json.summary)")
        #expect(probe.certificateFrom == "interceptor", "\(call.json.summary)")
        #expect(probe.certificateFromEvidence?.contains("X-Squid-Error") == true, "\(call.json.summary)")
        let fixes = probe.appleClients?.first?.fixes ?? []
        #expect(fixes.allSatisfy { $0.hasPrefix("squid makes the certificates") }, "\(call.json.summary)")
    }

    /// squid (read_timeout 3 s) reached the target, which never answers: a slow target, not an
    /// unreachable one.
    @Test(.timeLimit(.minutes(1)))
    func aReadTimeoutIsATargetTooSlowForTheProxy() async throws {
        let servers = try E2EServers.current()
        let silent = "127.0.0.1:\(servers["SILENT_PORT"])"
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_BUMP_PORT"), "--max-time", "20", "http://\(silent)/",
        ])
        try call.expectFailed("timeout", keywords: ["err_read_timeout"])
        let probe = try call.probe
        #expect(probe.hop == "target", "\(call.json.summary)")
        #expect(probe.message?.contains("reached \(silent)") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("read_timeout") == true, "\(call.json.summary)")
        #expect(probe.message?.contains("could not reach") == false, "\(call.json.summary)")
    }

    /// squid-child forwards to squid's authenticating port and keeps the credentials: the 407
    /// is the parent's, and Via names both.
    @Test(.timeLimit(.minutes(1)))
    func aChainedProxysChallengeIsNotBlamedOnThePassword() async throws {
        let servers = try E2EServers.current()
        let proxy =
            "http://\(servers["SQUID_AUTH_USER"]):\(servers["SQUID_AUTH_PASSWORD"])@127.0.0.1:\(servers["SQUID_CHILD_PORT"])"
        let forwarded = try await ProbeCall.run(["--proxy", proxy, servers.url("http", "127.0.0.1", "HTTP_PORT")])
        try forwarded.expectFailed("proxyAuthenticationRequired", keywords: ["behind the one configured"])
        let probe = try forwarded.probe
        #expect(probe.message?.contains("rejected") == false, "\(forwarded.json.summary)")
        #expect(probe.hint?.contains("login=PASSTHRU") == true, "\(forwarded.json.summary)")
        #expect(!forwarded.json.output.contains(servers["SQUID_AUTH_PASSWORD"]))
        // Through CONNECT, squid relays the parent's 407 with one Via entry: the hint names the chain.
        let tunnelled = try await ProbeCall.run([
            "--proxy", proxy, "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try tunnelled.expectFailed("proxyAuthenticationRequired")
        #expect(try tunnelled.probe.hint?.contains("that one may be asking") == true, "\(tunnelled.json.summary)")
    }
}

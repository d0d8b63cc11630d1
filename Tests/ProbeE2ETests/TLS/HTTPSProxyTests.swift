import Foundation
import Testing

/// Through an HTTPS proxy (nginx `stream` as the TLS front of tinyproxy and of mitmdump) the two
/// TLS sessions stay apart (`probe-https-proxy-certificate-judged-as-target`,
/// `probe-urlsession-https-proxy-hop`): the target's certificate is judged as through a plain
/// proxy, `tls` holds the target's, `proxyTls` the proxy's, and no Apple verdict judges a
/// certificate the target never showed.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct HTTPSProxyTests {
    static func proxied(_ servers: E2EServers, _ portKey: String, proxyPort: String = "HTTPS_PROXY_PORT") -> [String] {
        [
            "--proxy", "https://localhost:\(servers[proxyPort])", "--proxy-cacert",
            servers["CA_CERT"], "--client", "urlsession", servers.url("https", "localhost", portKey),
        ]
    }

    @Test(.timeLimit(.minutes(1)))
    func aSelfSignedTargetIsNotTrustedAndShowsItsOwnCertificate() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(Self.proxied(servers, "TLS_SELF_SIGNED_PORT"))
        try call.expectFailed("certificateNotTrusted", keywords: ["self-signed certificate"])
        let probe = try call.probe
        #expect(probe.hop == "target", "\(call.json.summary)")
        #expect(probe.tls?.issuer == "CN = localhost" && probe.tls?.chainVerified == false, "\(call.json.summary)")
        #expect(probe.tls?.version == nil, "the session is the proxy's, not the target's\n\(call.json.summary)")
        #expect(probe.proxyTls?.issuer == "CN = stagebuild e2e test CA", "\(call.json.summary)")
        #expect(probe.appleClients?.map(\.outcome) == ["failed"], "\(call.json.summary)")
        #expect(probe.appleClients?.first?.errorCode == -1202, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func anExpiredTargetIsExpiredWithItsDates() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(Self.proxied(servers, "TLS_EXPIRED_PORT") + ["--cacert", servers["CA_CERT"]])
        try call.expectFailed("certificateExpired")
        let probe = try call.probe
        #expect(probe.hop == "target" && probe.message?.contains("not after") == true, "\(call.json.summary)")
        #expect((probe.tls?.daysUntilExpiry ?? 0) < 0, "the target's dates, not the proxy's\n\(call.json.summary)")
        #expect(probe.appleClients?.first?.errorCode == -1201, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aValidTargetSucceedsWithBothSessionsApart() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(Self.proxied(servers, "TLS_VALID_PORT") + ["--cacert", servers["CA_CERT"]])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.tls?.chainVerified == true && probe.tls?.version != nil, "\(call.json.summary)")
        #expect(probe.proxyTls?.chainVerified == true, "\(call.json.summary)")
        #expect(probe.appleClients?.map(\.outcome) == ["succeeded"], "\(call.json.summary)")
    }

    /// The proxy's certificate does not name the host asked for: the tunnel never opened, so
    /// there is no target certificate to show or judge.
    @Test(.timeLimit(.minutes(1)))
    func aProxyNameMismatchJudgesNoTargetCertificate() async throws {
        let servers = try E2EServers.current()
        let port = servers["HTTPS_PROXY_PORT"]
        let call = try await ProbeCall.run([
            "--proxy", "https://proxy.test:\(port)", "--resolve", "proxy.test:\(port):127.0.0.1", "--proxy-cacert",
            servers["CA_CERT"], "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("hostNameMismatch")
        let probe = try call.probe
        #expect(probe.hop == "proxy" && probe.message?.contains("the proxy's certificate names") == true)
        #expect(probe.tls == nil && probe.appleClients?.isEmpty != false, "\(call.json.summary)")
        #expect(probe.proxyTls?.nameVerified == false, "\(call.json.summary)")
    }

    /// mitmdump behind the TLS front: the certificate the tunnel shows is the interceptor's,
    /// and the report says so.
    @Test(.timeLimit(.minutes(1)))
    func anInterceptorBehindTheTLSFrontIsNamed() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(Self.proxied(servers, "TLS_VALID_PORT", proxyPort: "HTTPS_MITM_PORT"))
        try call.expectFailed("certificateNotTrusted")
        let probe = try call.probe
        #expect(probe.certificateFrom == "interceptor" && probe.tls?.issuer?.contains("mitmproxy") == true)
        #expect(probe.proxyTls?.issuer == "CN = stagebuild e2e test CA", "\(call.json.summary)")
    }

    /// FoundationNetworking trusts the system's roots for the proxy as for the target: the
    /// proxy's untrusted certificate is the proxy's failure, also on the way to an https:// target.
    @Test(.timeLimit(.minutes(1)), arguments: ["http", "https"])
    func theURLSessionEngineBlamesTheProxyForItsOwnCertificate(scheme: String) async throws {
        let servers = try E2EServers.current()
        let target =
            scheme == "http"
            ? servers.url("http", "127.0.0.1", "HTTP_PORT") : servers.url("https", "localhost", "TLS_VALID_PORT")
        let call = try await ProbeCall.run([
            "--engine", "urlsession", "--proxy", "https://localhost:\(servers["HTTPS_PROXY_PORT"])", target,
        ])
        try call.expectFailed("certificateNotTrusted")
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.hint?.contains("--proxy-cacert") == true, "\(call.json.summary)")
        // The failure is the proxy's TLS: its facts are proxyTls's, the target's tls never began.
        #expect(probe.tls == nil && probe.proxyTls?.chainVerified == false, "\(call.json.summary)")
    }

    /// Certificates the chain check refuses for what they are, not whom they trust: named as
    /// through a plain proxy.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ("TLS_SHA1_PORT", "CA signature digest algorithm too weak"), ("TLS_RSA1024_PORT", "EE certificate key too weak"),
            ("TLS_CLIENT_ONLY_PORT", "extendedKeyUsage lacks serverAuth"),
        ])
    func aWeakOrWrongPurposeTargetCertificateIsNamed(portKey: String, words: String) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(Self.proxied(servers, portKey) + ["--cacert", servers["CA_CERT"]])
        try call.expectFailed("certificateNotTrusted")
        let probe = try call.probe
        #expect(probe.message?.contains(words) == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--cacert") == false, "\(call.json.summary)")
    }
}

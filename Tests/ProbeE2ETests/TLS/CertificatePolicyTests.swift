import Testing

/// nginx serving TLS with certificates the start script made with openssl, probed directly:
/// the security policy's switches and what each failure says (issue 3, "Done when", second bullet).
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct CertificatePolicyTests {
    /// The valid certificate names both `localhost` and `127.0.0.1`.
    @Test(.timeLimit(.minutes(1)), arguments: ["localhost", "127.0.0.1"])
    func validCertificateSucceeds(host: String) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], "--expect-header", "X-E2E-Server=tls-valid",
            "--expect-body", "stagebuild e2e tls-valid", servers.url("https", host, "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.route == "direct")
        #expect(probe.httpStatus == 200)
        let tls = try #require(probe.tls, "\(call.json.summary)")
        #expect(tls.chainVerified == true && tls.nameVerified == true)
        #expect(tls.subject?.contains("localhost") == true, "\(call.json.summary)")
        let names = (tls.subjectAlternativeNames ?? []).joined(separator: " ")
        #expect(names.contains("localhost") && names.contains("127.0.0.1"), "\(call.json.summary)")
        #expect(tls.issuer?.contains("stagebuild e2e test CA") == true, "\(call.json.summary)")
        #expect(!(tls.notAfter ?? "").isEmpty)
        #expect(!(tls.notBefore ?? "").isEmpty)
        // The start script issues it for 30 days from yesterday.
        #expect((27...30).contains(tls.daysUntilExpiry ?? -1), "\(call.json.summary)")
        #expect(tls.version?.hasPrefix("TLSv1.") == true && !(tls.cipher ?? "").isEmpty, "\(call.json.summary)")
        #expect(tls.alpn == "http/1.1", "\(call.json.summary)")
        #expect(probe.remoteAddress?.contains("127.0.0.1") == true, "\(call.json.summary)")
        let timings = try #require(probe.timings)
        #expect((timings.totalMs ?? -1) > 0 && (timings.tlsMs ?? -1) >= 0, "\(call.json.summary)")
    }

    /// The chain verifies up to the CA given, but the certificate is for clients only: the hint
    /// is about the certificate, not the CA that was already passed.
    @Test(.timeLimit(.minutes(1)))
    func aClientOnlyCertificateIsNamedAsNotForTLSServers() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_CLIENT_ONLY_PORT"),
        ])
        try call.expectFailed("certificateNotTrusted", keywords: ["serverauth"])
        let probe = try call.probe
        #expect(
            probe.message?.contains("not for TLS servers: its extendedKeyUsage lacks serverAuth") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--cacert") == false, "\(call.json.summary)")
        #expect(probe.hint?.contains("extendedKeyUsage serverAuth") == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func certificateForAnotherNameIsHostNameMismatch() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_OTHER_NAME_PORT"),
        ])
        try call.expectFailed("hostNameMismatch", keywords: ["other.test", "localhost", "--no-validate-domain-name"])
        let probe = try call.probe
        #expect(probe.urlError?.code == -1202, "\(call.json.summary)")
        #expect(probe.hint?.contains("--no-validate-domain-name") == true, "\(call.json.summary)")
        #expect(probe.message?.contains("other.test") == true && probe.message?.contains("localhost") == true)
        #expect(probe.tls?.nameVerified != true)
        let names = (probe.tls?.subjectAlternativeNames ?? []).joined(separator: " ")
        #expect(names.contains("other.test"), "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func certificateForAnotherNameSucceedsWithoutDomainNameValidation() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], "--no-validate-domain-name",
            servers.url("https", "localhost", "TLS_OTHER_NAME_PORT"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(!(probe.warnings ?? []).isEmpty, "the report warns that the name was not verified\n\(call.json.summary)")
        #expect(probe.tls?.chainVerified == true, "the chain is still verified\n\(call.json.summary)")
        #expect(probe.tls?.nameVerified == false, "\(call.json.summary)")
        #expect(call.words.contains("warning"), "\(call.text.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func expiredCertificateFails() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_EXPIRED_PORT"),
        ])
        try call.expectFailed("certificateExpired")
        #expect(try call.probe.urlError?.code == -1201, "serverCertificateHasBadDate\n\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func notYetValidCertificateFails() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_NOT_YET_VALID_PORT"),
        ])
        try call.expectFailed("certificateNotYetValid")
        #expect(try call.probe.urlError?.code == -1204, "serverCertificateNotYetValid\n\(call.json.summary)")
    }

    /// Without `--cacert` (the system's CAs) and with the test CA that did not issue it.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func selfSignedCertificateIsNotTrusted(withTestCA: Bool) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(
            (withTestCA ? ["--cacert", servers["CA_CERT"]] : []) + [servers.url("https", "localhost", "TLS_SELF_SIGNED_PORT")])
        try call.expectFailed("certificateNotTrusted", keywords: ["--cacert"])
        let probe = try call.probe
        #expect(probe.urlError?.code == -1202, "\(call.json.summary)")
        #expect(probe.hint?.contains("--cacert") == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func selfSignedCertificateSucceedsWithItselfAsCA() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["SELF_SIGNED_CERT"], servers.url("https", "localhost", "TLS_SELF_SIGNED_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.tls?.chainVerified == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func selfSignedCertificateSucceedsWhenInvalidCertificatesAreAllowed() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--allow-invalid-certificates", servers.url("https", "localhost", "TLS_SELF_SIGNED_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.tls?.chainVerified == false, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func pinnedKeyThatMatchesSucceeds() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], "--pinned-public-key", servers["VALID_CERT_PIN"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
    }

    /// `--pinned-public-key` repeats: one matching key among several is enough.
    @Test(.timeLimit(.minutes(1)))
    func anyOfSeveralPinnedKeysMaySucceed() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], "--pinned-public-key", servers["OTHER_CERT_PIN"], "--pinned-public-key",
            servers["VALID_CERT_PIN"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
    }

    @Test(.timeLimit(.minutes(1)))
    func pinnedKeyThatDoesNotMatchFails() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--cacert", servers["CA_CERT"], "--pinned-public-key", servers["OTHER_CERT_PIN"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("pinnedKeyMismatch")
        #expect(try call.probe.urlError != nil, "\(call.json.summary)")
    }

    /// An `https://` proxy whose certificate fails verification: the handshake with the proxy
    /// ends before any CONNECT, so nginx's TLS servers stand in for such proxies. The report
    /// names the proxy's certificate from a look at it with verification off.
    @Test(.timeLimit(.minutes(1)))
    func anHTTPSProxyForAnotherNameSaysWhichNamesItsCertificateCarries() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.url("https", "localhost", "TLS_OTHER_NAME_PORT"), "--proxy-cacert", servers["CA_CERT"],
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectFailed("hostNameMismatch", keywords: ["other.test", "localhost", "--proxy-insecure"])
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.message?.contains("the proxy's certificate names other.test") == true, "\(call.json.summary)")
        #expect(probe.tls == nil, "the target's handshake never began\n\(call.json.summary)")
        #expect(probe.proxyTls?.nameVerified == false, "\(call.json.summary)")
        #expect(probe.proxyTls?.subject?.contains("other.test") == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func anUntrustedHTTPSProxyNamesItsCertificatesIssuer() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.url("https", "localhost", "TLS_VALID_PORT"), servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectFailed("certificateNotTrusted", keywords: ["--proxy-cacert"])
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.message?.hasSuffix("issued by CN = stagebuild e2e test CA") == true, "\(call.json.summary)")
        #expect(probe.proxyTls?.chainVerified == false, "\(call.json.summary)")
    }

    /// The three failures of an `https://` proxy's certificate behave alike for an `https://`
    /// target: the target's handshake never began, so `tls` stays null; the facts are in `proxyTls`.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ("TLS_VALID_PORT", "certificateNotTrusted"), ("TLS_EXPIRED_PORT", "certificateExpired"),
            ("TLS_OTHER_NAME_PORT", "hostNameMismatch"),
        ])
    func anHTTPSProxysCertificateNeverLandsInTheTargetsTLS(portKey: String, reason: String) async throws {
        let servers = try E2EServers.current()
        var arguments = ["--proxy", servers.url("https", "localhost", portKey)]
        if portKey != "TLS_VALID_PORT" { arguments += ["--proxy-cacert", servers["CA_CERT"]] }
        let call = try await ProbeCall.run(arguments + [servers.url("https", "localhost", "TLS_VALID_ALT_PORT")])
        try call.expectFailed(reason)
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.tls == nil, "\(call.json.summary)")
        #expect(probe.proxyTls != nil, "\(call.json.summary)")
        #expect(probe.message?.contains("the proxy's certificate") == true, "\(call.json.summary)")
    }
}

import Testing

/// mitmproxy intercepting TLS (issue 3, "Done when", third bullet), and the story behind the
/// probe: a proxy shows a certificate that lacks the asked host name, an app sees -1202 (or
/// -999 when it cancels the trust challenge), and the only "fix" is to stop validating the name.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct InterceptingProxyTests {
    @Test(.timeLimit(.minutes(1)))
    func interceptingProxyIsUntrustedWithoutItsCA() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("certificateNotTrusted", keywords: ["--cacert"])
        let probe = try call.probe
        #expect(probe.route == "proxy")
        #expect(probe.connectStatus == 200, "the tunnel opened; the certificate inside it is the proxy's")
        #expect(probe.urlError?.code == -1202, "\(call.json.summary)")
        #expect(probe.tls?.issuer?.contains("mitmproxy") == true, "the issuer is named\n\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func interceptingProxyIsTrustedWithItsCA() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--cacert", servers["MITM_CA_CERT"],
            "--expect-header", "X-E2E-Server=tls-valid", servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.tls?.chainVerified == true && probe.tls?.nameVerified == true, "\(call.json.summary)")
        #expect(probe.tls?.issuer?.contains("mitmproxy") == true, "\(call.json.summary)")
    }

    /// The story: the chain is trusted (the proxy's certificate comes from a CA the client
    /// trusts) but it names other.test, not localhost.
    @Test(.timeLimit(.minutes(1)))
    func proxyCertificateWithoutTheAskedNameReproducesTheStory() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_FIXED_PORT"), "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed(
            "hostNameMismatch", keywords: [servers["MITM_FIXED_NAME"], "localhost", "--no-validate-domain-name", "-1202"])
        let probe = try call.probe
        #expect(probe.route == "proxy")
        #expect(probe.connectStatus == 200)
        #expect(probe.urlError?.code == -1202, "\(call.json.summary)")
        #expect(probe.urlError?.name?.contains("serverCertificateUntrusted") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--no-validate-domain-name") == true, "\(call.json.summary)")
        #expect(probe.message?.contains(servers["MITM_FIXED_NAME"]) == true, "names the certificate's names")
        #expect(probe.message?.contains("localhost") == true, "names the name asked for")
        #expect(probe.tls?.chainVerified == true, "only the name failed\n\(call.json.summary)")
        let names = (probe.tls?.subjectAlternativeNames ?? []).joined(separator: " ")
        #expect(names.contains(servers["MITM_FIXED_NAME"]), "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theStorysSwitchMakesItSucceedWithAWarning() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_FIXED_PORT"), "--cacert", servers["CA_CERT"], "--no-validate-domain-name",
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(!(probe.warnings ?? []).isEmpty, "\(call.json.summary)")
        #expect(probe.tls?.nameVerified == false && probe.tls?.chainVerified == true, "\(call.json.summary)")
        #expect(call.words.contains("warning"), "\(call.text.summary)")
    }

    /// The origin story as an iOS developer lives it: an intercepting proxy re-signs TLS with
    /// its own CA for the right name; the app sets allowInvalidCertificates = YES and keeps
    /// validatesDomainName = YES. The probe's --allow-invalid-certificates alone passes, but
    /// AFNetworking 3 cancels the challenge (-999) and only validatesDomainName = NO gets through.
    @Test(.timeLimit(.minutes(1)))
    func eachAppleStackGetsWhatItsSourceGivesThroughAnInterceptor() async throws {
        let servers = try E2EServers.current()
        let target = servers.url("https", "localhost", "TLS_VALID_PORT")
        let call = try await ProbeCall.run(["--proxy", servers.proxy("MITM_PORT"), "--allow-invalid-certificates", target])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.appleClients?.map(\.client) == ["URLSession", "AFNetworking 3", "AFNetworking 4", "Alamofire 5"])
        let af3 = try #require(probe.verdict("AFNetworking 3"), "\(call.json.summary)")
        #expect(af3.outcome == "failed" && af3.errorCode == -999, "\(call.json.summary)")
        #expect(af3.fixes.first == "validatesDomainName = NO", "\(call.json.summary)")
        #expect(probe.verdict("AFNetworking 4")?.errorCode == -1202, "\(call.json.summary)")
        #expect(probe.verdict("URLSession")?.errorCode == -1202, "\(call.json.summary)")
        #expect(call.words.contains("afnetworking 3 fails, -999 cancelled"), "\(call.text.summary)")
        #expect(probe.certificateFrom == "interceptor", "\(call.json.summary)")
        #expect(probe.certificateFromEvidence?.contains("mitmproxy") == true, "\(call.json.summary)")
        let both = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--allow-invalid-certificates", "--no-validate-domain-name",
            "--client", "afnetworking3", target,
        ])
        try both.expectSucceeded()
        let verdicts = try both.probe.appleClients ?? []
        #expect(verdicts.map(\.client) == ["AFNetworking 3"], "\(both.json.summary)")
        #expect(verdicts.first?.outcome == "succeeded", "\(both.json.summary)")
        #expect(verdicts.first?.warnings.contains("neither the chain nor the name is verified") == true)
    }

    /// The interceptor's CA in this machine's store (a corporate laptop; `SSL_CERT_FILE` points
    /// OpenSSL's default store at it) is not on the device: every stack fails there, and each
    /// verdict says that installing the CA makes it pass (the shared case
    /// probe-apple-verdicts-trust-this-machines-store).
    @Test(.timeLimit(.minutes(1)))
    func aCAOnlyThisMachineTrustsFailsOnTheDeviceUnlessInstalled() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(
            ["--proxy", servers.proxy("MITM_PORT"), servers.url("https", "localhost", "TLS_VALID_PORT")],
            variables: ["SSL_CERT_FILE": servers["MITM_CA_CERT"]])
        let probe = try call.probe
        #expect(probe.appleRootOnlyThisMachineTrusts?.contains("mitmproxy") == true, "\(call.json.summary)")
        let verdicts = probe.appleClients ?? []
        #expect(verdicts.map(AppleClientMatrixTests.cell) == ["-1202", "-999", "-1202", "AF"], "\(call.json.summary)")
        for verdict in verdicts {
            #expect(verdict.condition?.contains("once the device trusts") == true, "\(verdict)")
            #expect(verdict.fixes.first?.hasPrefix("install CN = mitmproxy") == true, "\(verdict)")
        }
        #expect(call.words.contains("a root this machine trusts"), "\(call.text.summary)")
    }

    /// With the interceptor's CA installed (--cacert: trusted on the device), every stack passes.
    @Test(.timeLimit(.minutes(1)))
    func everyAppleStackPassesWithTheInterceptorsCAInstalled() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--cacert", servers["MITM_CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.appleClients?.allSatisfy { $0.outcome == "succeeded" } == true, "\(call.json.summary)")
    }

    /// An interceptor that refuses the target's certificate answers 502 inside the tunnel
    /// itself: the report names the proxy and says why, not "an unexpected status from the target".
    @Test(.timeLimit(.minutes(1)))
    func anInterceptorsOwn502IsTheProxysAnswer() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--cacert", servers["MITM_CA_CERT"],
            servers.url("https", "localhost", "TLS_EXPIRED_PORT"),
        ])
        try call.expectFailed("proxyBadGateway")
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(probe.message?.contains("certificate has expired") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--expect-status") != true, "\(call.json.summary)")
    }

    /// --compare-direct tells an interceptor's certificate from the target's by one direct
    /// handshake: squid's tunnel shows the target's own; mitmdump --certs shows other.test from
    /// the same CA, which no issuer table can tell. The verdicts' fixes then speak of the proxy.
    @Test(.timeLimit(.minutes(1)))
    func aDirectHandshakeTellsWhoseCertificateItIs() async throws {
        let servers = try E2EServers.current()
        let target = servers.url("https", "localhost", "TLS_VALID_PORT")
        let tunnel = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_PORT"), "--cacert", servers["CA_CERT"], "--compare-direct", target,
        ])
        try tunnel.expectSucceeded()
        #expect(try tunnel.probe.certificateFrom == "target", "\(tunnel.json.summary)")
        #expect(try tunnel.probe.certificateFromEvidence?.contains("shows the same certificate") == true)
        #expect(tunnel.words.contains("cert from  target: a direct tls handshake"), "\(tunnel.text.summary)")

        let fixed = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_FIXED_PORT"), "--cacert", servers["CA_CERT"], "--compare-direct", target,
        ])
        try fixed.expectFailed("hostNameMismatch")
        let probe = try fixed.probe
        #expect(probe.certificateFrom == "interceptor", "\(fixed.json.summary)")
        #expect(probe.certificateFromEvidence?.contains("CN = other.test") == true, "\(fixed.json.summary)")
        #expect(probe.message?.contains("this certificate is the proxy's, which intercepts TLS") == true)
        #expect(probe.hint?.contains("it must present one that names localhost") == true, "\(fixed.json.summary)")

        let unknown = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_FIXED_PORT"), "--cacert", servers["CA_CERT"], target,
        ])
        #expect(try unknown.probe.certificateFrom == "unknown", "\(unknown.json.summary)")
        #expect(try unknown.probe.certificateFromEvidence?.contains("--compare-direct tells them apart") == true)
    }

    /// A pin checked through an interceptor sees the interceptor's key: no verdict tells the
    /// developer to pin it, and URLSession, which has no pin, is told to install its CA.
    /// AFNetworking with allowInvalidCertificates = YES checks only the pin; Alamofire's
    /// PublicKeysTrustEvaluator still validates the host, which evaluates the chain.
    @Test(.timeLimit(.minutes(1)))
    func throughAnInterceptorTheFixesSpeakOfTheInterceptor() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("MITM_PORT"), "--cacert", servers["CA_CERT"], "--allow-invalid-certificates",
            "--pinned-public-key", servers["VALID_CERT_PIN"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("pinnedKeyMismatch")
        let probe = try call.probe
        #expect(probe.tls?.version?.hasPrefix("TLSv1.") == true, "the handshake finished: \(call.json.summary)")
        // Installing mitmproxy's CA would leave the pin unmatched: the pinning stacks are told to
        // go around the interceptor, and no fix pins its key.
        for client in ["AFNetworking 3", "AFNetworking 4", "Alamofire 5"] {
            let fixes = try #require(probe.verdict(client)?.fixes, "\(call.json.summary)")
            #expect(fixes.first?.contains("without mitmproxy in the path") == true, "\(client): \(fixes)")
            #expect(!fixes.contains { $0.hasPrefix("pin ") }, "\(client): \(fixes)")
        }
        let fix = try #require(probe.verdict("URLSession")?.fixes.first, "\(call.json.summary)")
        #expect(fix.contains("install mitmproxy's CA"), "URLSession: \(fix)")
    }
}

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
}

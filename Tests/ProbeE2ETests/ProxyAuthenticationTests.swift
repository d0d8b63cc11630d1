import Testing

/// Corporate proxy authentication as curl does it: squid with Digest only, squid with NTLM only
/// (its ntlm_fake_auth helper), and a proxy that offers only Negotiate and NTLM, which no
/// loopback test can satisfy (Negotiate needs a Kerberos realm): it is reported by name.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct ProxyAuthenticationTests {
    static let targets = ForwardProxyTests.authTargets

    @Test(.timeLimit(.minutes(1)), arguments: targets)
    func digestCredentialsPassWithProxyDigest(_ target: ForwardProxyTests.Target) async throws {
        let servers = try E2EServers.current()
        let credentials = servers["SQUID_DIGEST_USER"] + ":" + servers["SQUID_DIGEST_PASSWORD"]
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_DIGEST_PORT", credentials: credentials), "--proxy-digest", "--cacert",
            servers["CA_CERT"], target.url(servers),
        ])
        try call.expectSucceeded()
        #expect(!call.json.output.contains(servers["SQUID_DIGEST_PASSWORD"]))
    }

    /// Basic (the default) to a Digest-only proxy: the credentials were never checked, so the
    /// report names the offered scheme and its flag instead of doubting the password.
    @Test(.timeLimit(.minutes(1)), arguments: targets)
    func basicToADigestOnlyProxyNamesDigestAndItsFlag(_ target: ForwardProxyTests.Target) async throws {
        let servers = try E2EServers.current()
        let credentials = servers["SQUID_DIGEST_USER"] + ":" + servers["SQUID_DIGEST_PASSWORD"]
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_DIGEST_PORT", credentials: credentials), "--cacert", servers["CA_CERT"],
            target.url(servers),
        ])
        try call.expectFailed("proxyAuthenticationRequired", keywords: ["407"])
        let probe = try call.probe
        #expect(probe.message?.contains("so the credentials were not checked") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--proxy-digest") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("password") == false, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: targets)
    func ntlmCredentialsPassWithProxyNTLMAndAnyauth(_ target: ForwardProxyTests.Target) async throws {
        let servers = try E2EServers.current()
        let credentials = servers["SQUID_NTLM_USER"] + ":" + servers["SQUID_NTLM_PASSWORD"]
        for flag in ["--proxy-ntlm", "--proxy-anyauth"] {
            let call = try await ProbeCall.run([
                "--proxy", servers.proxy("SQUID_NTLM_PORT", credentials: credentials), flag, "--cacert", servers["CA_CERT"],
                target.url(servers),
            ])
            try call.expectSucceeded()
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: targets)
    func aNegotiateAndNTLMOnlyProxyIsReportedByName(_ target: ForwardProxyTests.Target) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("NEGOTIATE_ONLY_PORT", credentials: "alice:N0t-Checked"), "--cacert", servers["CA_CERT"],
            target.url(servers),
        ])
        try call.expectFailed("proxyAuthenticationRequired", keywords: ["407"])
        let probe = try call.probe
        #expect(probe.message?.contains("asks for Negotiate, NTLM") == true, "\(call.json.summary)")
        #expect(probe.message?.contains("answers with Basic (--proxy-basic)") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("--proxy-negotiate") == true, "\(call.json.summary)")
        #expect(!call.json.output.contains("N0t-Checked") && !call.text.output.contains("N0t-Checked"))
    }

    /// --proxy-negotiate without a Kerberos ticket: no token could be made, so nothing was
    /// sent; the report says so instead of doubting the password.
    @Test(.timeLimit(.minutes(1)))
    func negotiateWithoutATicketSaysSo() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy-negotiate", "--proxy", servers.proxy("NEGOTIATE_ONLY_PORT", credentials: "u:p"),
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectFailed("proxyAuthenticationRequired", keywords: ["407"])
        let probe = try call.probe
        #expect(probe.message?.contains("no Negotiate token could be made") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("kinit") == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func twoSchemeFlagsAreAUsageError() async throws {
        let run = try await StagebuildProcess.run(["probe", "--proxy-ntlm", "--proxy-digest", "http://127.0.0.1:9/"])
        #expect(run.status == 64, "\(run.summary)")
        #expect(run.stderr.contains("choose one of --proxy-digest and --proxy-ntlm"), "\(run.summary)")
    }
}

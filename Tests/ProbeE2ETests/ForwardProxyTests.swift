import Testing

/// tinyproxy and squid as forward proxies: plain HTTP forwarded, HTTPS through CONNECT, squid's
/// basic authentication and its ACL (issue 3, "Done when", first bullet).
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct ForwardProxyTests {
    /// A forward proxy without authentication, and what it writes into `Via`.
    struct ForwardProxy: Sendable, CustomTestStringConvertible {
        var portKey: String
        var via: String
        var testDescription: String { via }
    }

    static let proxies = [
        ForwardProxy(portKey: "TINYPROXY_PORT", via: "tinyproxy"), ForwardProxy(portKey: "SQUID_PORT", via: "squid"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: proxies)
    func forwardsPlainHTTPTarget(_ proxy: ForwardProxy) async throws {
        let servers = try E2EServers.current()
        // The upstream echoes Via: the body proves the request went through this proxy.
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy(proxy.portKey), "--expect-header", "X-E2E-Server=http",
            "--expect-body", "via=1.1 .*\(proxy.via)", servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/forwarded"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.route == "proxy")
        #expect(probe.proxy?.contains("127.0.0.1:\(servers[proxy.portKey])") == true, "\(call.json.summary)")
        #expect(probe.httpStatus == 200)
        #expect(probe.connectStatus == nil || probe.connectStatus == 0, "a forwarded request has no CONNECT")
        #expect(probe.outcome == "succeeded" && call.words.contains("200"), "\(call.text.summary)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: proxies)
    func tunnelsHTTPSTargetThroughConnect(_ proxy: ForwardProxy) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy(proxy.portKey), "--cacert", servers["CA_CERT"],
            "--expect-header", "X-E2E-Server=tls-valid", servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.route == "proxy")
        #expect(probe.connectStatus == 200, "\(call.json.summary)")
        #expect(probe.httpStatus == 200)
        #expect(probe.tls?.chainVerified == true && probe.tls?.nameVerified == true, "\(call.json.summary)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: proxies)
    func tunnelsPlainHTTPTargetWithProxytunnel(_ proxy: ForwardProxy) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy(proxy.portKey), "--proxytunnel", "--expect-header", "X-E2E-Server=http",
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.connectStatus == 200, "\(call.json.summary)")
    }

    /// The origin's own 404 through a proxy is the target's status, never blamed on the proxy.
    @Test(.timeLimit(.minutes(1)))
    func originStatusIsNotBlamedOnTheProxy() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_PORT"), servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/status/404"),
        ])
        try call.expectFailed("unexpectedStatus", keywords: ["404"])
        #expect(try call.probe.httpStatus == 404)
    }

    // MARK: - squid with basic authentication

    /// A target behind the authenticating squid.
    struct Target: Sendable, CustomTestStringConvertible {
        var scheme: String
        var host: String
        var portKey: String
        var testDescription: String { scheme }
        func url(_ servers: E2EServers) -> String { servers.url(scheme, host, portKey) }
    }

    /// An HTTPS target (the 407 answers CONNECT) and a plain HTTP one (it answers the forwarded request).
    static let authTargets = [
        Target(scheme: "https", host: "localhost", portKey: "TLS_VALID_PORT"),
        Target(scheme: "http", host: "127.0.0.1", portKey: "HTTP_PORT"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: authTargets)
    func squidAsksForCredentials(_ target: Target) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_AUTH_PORT"), "--cacert", servers["CA_CERT"],
            target.url(servers),
        ])
        try call.expectFailed("proxyAuthenticationRequired", keywords: ["407"])
        let probe = try call.probe
        #expect(probe.route == "proxy")
        if target.scheme == "https" {
            #expect(probe.connectStatus == 407, "\(call.json.summary)")
        } else {
            #expect(probe.httpStatus == 407, "\(call.json.summary)")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: authTargets)
    func squidAcceptsCredentials(_ target: Target) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_AUTH_PORT", credentials: servers.squidCredentials), "--cacert",
            servers["CA_CERT"], target.url(servers),
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.httpStatus == 200)
        #expect(probe.proxy?.contains("\(servers["SQUID_AUTH_USER"]):***@") == true, "masked: \(call.json.summary)")
        #expect(!call.json.output.contains(servers.squidPassword) && !call.text.output.contains(servers.squidPassword))
    }

    /// A user no other test sends: squid keeps one credentials record per user name, and a wrong
    /// password sent while another test's right one is being checked could share its verdict.
    @Test(.timeLimit(.minutes(1)))
    func squidRejectsAWrongPassword() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_AUTH_PORT", credentials: servers["SQUID_AUTH_OTHER_USER"] + ":wrong-password"),
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("proxyAuthenticationRequired", keywords: ["407"])
        #expect(try call.probe.connectStatus == 407)
        #expect(!call.json.output.contains("wrong-password") && !call.text.output.contains("wrong-password"))
    }

    // MARK: - squid with an ACL

    @Test(.timeLimit(.minutes(1)))
    func squidACLForbidsConnectToOnePort() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_ACL_PORT"), "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("proxyForbidden", keywords: ["403"])
        let probe = try call.probe
        #expect(probe.connectStatus == 403, "\(call.json.summary)")
        #expect(probe.httpStatus == nil || probe.httpStatus == 0, "no request reached the target")
    }

    /// The same squid port tunnels to the same certificate on another port: the 403 was the ACL's.
    @Test(.timeLimit(.minutes(1)))
    func squidACLAllowsConnectToOtherPorts() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_ACL_PORT"), "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_ALT_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.connectStatus == 200)
    }
}

/// A target that never answers behind squid, which forwards the request and waits: the probe
/// cannot see past the proxy, so it never claims the proxy is broken, and the target comes
/// first in the hint. Through CONNECT the same target is a timeout at the target too.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct SilentTargetBehindAProxyTests {
    @Test(.timeLimit(.minutes(1)))
    func aForwardedSilentTargetIsNotBlamedOnTheProxy() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SQUID_PORT"), "--max-time", "2", servers.url("http", "127.0.0.1", "SILENT_PORT"),
        ])
        try call.expectFailed("timeout", keywords: [])
        let probe = try call.probe
        #expect(probe.hop == "target", "\(call.json.summary)")
        #expect(probe.message?.contains("may be waiting for 127.0.0.1:\(servers["SILENT_PORT"])") == true, "\(call.json.summary)")
        #expect(probe.hint?.hasPrefix("check that 127.0.0.1:\(servers["SILENT_PORT"]) answers") == true, "\(call.json.summary)")
        #expect(probe.hint?.contains("is a working HTTP proxy") == false, "\(call.json.summary)")
    }
}

/// What a curl user reaches for: `-A`, `--proxy-header`, `-v`.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct CurlUserOptionsTests {
    /// The User-Agent reaches the target (the upstream echoes it); a proxy header goes to the
    /// proxy only: through CONNECT the target never sees it.
    @Test(.timeLimit(.minutes(1)))
    func userAgentReachesTheTargetAndProxyHeadersStayWithTheProxy() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "-x", servers.proxy("SQUID_PORT"), "--proxytunnel", "-A", "probe-e2e/1.0", "--proxy-header", "X-Probe: for-the-proxy",
            "--expect-body", "user-agent=probe-e2e/1.0\nx-probe=\n", servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectSucceeded()
    }

    @Test(.timeLimit(.minutes(1)))
    func theDefaultUserAgentIsStagebuildsOwn() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--expect-body", "user-agent=stagebuild/[0-9]", servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectSucceeded()
    }

    /// An https:// proxy URL for a server that speaks plain HTTP: tinyproxy waits for a request
    /// line (a TLS handshake that never ends), nginx answers the hello in plain HTTP (OpenSSL's
    /// "wrong version number"); either way the hint says to write http://. nginx answers at once,
    /// so its case has time to spare on a loaded machine (CI's took more than 2 s once);
    /// tinyproxy's case is the timeout itself.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [("TINYPROXY_PORT", "proxyTimeout", "2"), ("HTTP_PORT", "tlsHandshakeFailed", "15")])
    func anHTTPSProxyURLForAPlainProxySaysToWriteHTTP(portKey: String, reason: String, connectTimeout: String) async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", "https://127.0.0.1:\(servers[portKey])", "--connect-timeout", connectTimeout,
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectFailed(reason)
        let probe = try call.probe
        #expect(probe.hop == "proxy", "\(call.json.summary)")
        #expect(
            probe.hint?.contains("plain HTTP") == true && probe.hint?.contains("write http://") == true, "\(call.json.summary)")
    }

    /// `-L` follows redirects through the proxy and lists each; without it the 301 is the answer.
    @Test(.timeLimit(.minutes(1)))
    func locationFollowsRedirectsAndListsThem() async throws {
        let servers = try E2EServers.current()
        let url = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/twice")
        let call = try await ProbeCall.run([
            "-x", servers.proxy("SQUID_PORT"), "-L", "--expect-body", "target=/redirected", url,
        ])
        try call.expectSucceeded()
        let probe = try call.probe
        #expect(probe.redirects?.map(\.status) == [301, 302], "\(call.json.summary)")
        #expect(probe.redirects?.last?.location.hasSuffix("/redirected") == true, "\(call.json.summary)")
        #expect(call.words.contains("hop 1      get \(url.lowercased()) via http://"), "\(call.text.summary)")
        #expect(call.words.contains(": 301 to http://127.0.0.1:"), "\(call.text.summary)")
        #expect(probe.hops?.count == 3, "\(call.json.summary)")
        let limited = try await ProbeCall.run(["-L", "--max-redirs", "1", url])
        try limited.expectFailed("tooManyRedirects")
        #expect(try limited.probe.redirects?.map(\.status) == [301], "\(limited.json.summary)")
        #expect(try limited.probe.message?.contains("pointed to http://127.0.0.1:") == true, "\(limited.json.summary)")
        let unfollowed = try await ProbeCall.run(["--expect-status", "301", url])
        try unfollowed.expectSucceeded()
        #expect(try unfollowed.probe.redirects?.isEmpty == true)
    }

    /// URLSession follows `-L` as the curl engine does: the same list, the same limit.
    @Test(.timeLimit(.minutes(1)))
    func urlSessionFollowsRedirectsWithTheSameListAndLimit() async throws {
        let servers = try E2EServers.current()
        let url = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/twice")
        let call = try await ProbeCall.run(["--engine", "urlsession", "-x", servers.proxy("SQUID_PORT"), "-L", url])
        try call.expectSucceeded()
        #expect(try call.probe.redirects?.map(\.status) == [301, 302], "\(call.json.summary)")
        let limited = try await ProbeCall.run(["--engine", "urlsession", "-L", "--max-redirs", "1", url])
        try limited.expectFailed("tooManyRedirects")
        #expect(try limited.probe.redirects?.map(\.status) == [301], "\(limited.json.summary)")
        let unfollowed = try await ProbeCall.run(["--engine", "urlsession", "--expect-status", "301", url])
        try unfollowed.expectSucceeded()
    }

    /// `-v` prints libcurl's trace on stderr, the CONNECT exchange included, with no secret.
    @Test(.timeLimit(.minutes(1)))
    func verboseTracesTheCallWithoutSecrets() async throws {
        let servers = try E2EServers.current()
        let run = try await StagebuildProcess.run([
            "probe", "-v", "--proxy", servers.proxy("SQUID_AUTH_PORT", credentials: servers.squidCredentials), "--cacert",
            servers["CA_CERT"], "-H", "Authorization: Bearer tr4ce-S3cret", servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        #expect(run.status == 0, "\(run.summary)")
        for line in [
            "> CONNECT localhost:", "< HTTP/1.1 200", "> Proxy-Authorization: ***", "> Authorization: ***",
            "* SSL connection using TLSv",
        ] {
            #expect(run.stderr.contains(line), "\(line)\n\(run.summary)")
        }
        #expect(!run.output.contains("tr4ce-S3cret") && !run.output.contains(servers.squidPassword), "\(run.summary)")
        // A user name alone is a token: libcurl's "auth using Basic with user '...'" hides it too.
        let token = try await StagebuildProcess.run([
            "probe", "-v", "-x", "http://ghp_TOKENSECRET7@127.0.0.1:\(servers["SQUID_AUTH_PORT"])",
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        #expect(token.stderr.contains("with user '***'"), "\(token.summary)")
        #expect(!token.output.contains("TOKENSECRET7"), "\(token.summary)")
    }
}

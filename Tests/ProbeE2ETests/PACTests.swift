import Foundation
import Testing

/// `--pac`: PAC scripts served by nginx and run by libpacparser, their entries tried in order
/// through real proxies (tinyproxy, squid) that are down, silent, refuse with 403 or ask for
/// credentials, and the script's own failures (it throws, loops, answers garbage).
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct PACTests {
    /// Writes a PAC script into nginx's `/pac/` folder and returns its URL.
    private func served(_ script: String, _ servers: E2EServers, host: String = "127.0.0.1") throws -> String {
        let name = "\(UUID().uuidString).pac"
        try script.write(toFile: servers["PAC_DIR"] + "/" + name, atomically: true, encoding: .utf8)
        return "http://\(host):\(servers["HTTP_PORT"])/pac/\(name)"
    }

    private func answering(_ answer: String) -> String {
        "function FindProxyForURL(url, host) { return \"\(answer)\"; }\n"
    }

    /// The first proxy's port refuses: the device goes on to tinyproxy, which carries the call;
    /// DIRECT is never tried. The refused entry keeps its own reason and Apple error.
    @Test(.timeLimit(.minutes(1)))
    func aProxyThatIsDownIsLeftForTheNextEntry() async throws {
        let servers = try E2EServers.current()
        let closed = "127.0.0.1:\(servers["CLOSED_PORT"])"
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let pac = try served(answering("PROXY \(closed); PROXY \(tinyproxy); DIRECT"), servers)
        let call = try await ProbeCall.run(["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")])
        try call.expectSucceeded()
        let probe = try call.probe
        let decision = try #require(probe.pac, "\(call.json.summary)")
        #expect(decision.script == pac)
        #expect(
            decision.fates == [
                "PROXY \(closed) failedOver proxyUnreachable", "PROXY \(tinyproxy) ended", "DIRECT notTried",
            ], "\(call.json.summary)")
        #expect(decision.entries[0].urlError?.code == 306, "kCFErrorHTTPProxyConnectionFailure\n\(call.json.summary)")
        #expect(probe.proxy == "http://\(tinyproxy)", "\(call.json.summary)")
        #expect(call.words.contains("proxy \(closed): failed over after proxy unreachable"), "\(call.text.summary)")
        #expect(call.words.contains("direct: not tried"), "\(call.text.summary)")
    }

    /// A proxy that accepts and never answers is left after the connect limit, as a device
    /// leaves it; squid then carries the https:// call through its tunnel.
    @Test(.timeLimit(.minutes(1)))
    func aSilentProxyIsLeftAtTheConnectLimit() async throws {
        let servers = try E2EServers.current()
        let silent = "127.0.0.1:\(servers["SILENT_PORT"])"
        let squid = "127.0.0.1:\(servers["SQUID_PORT"])"
        let pac = try served(answering("PROXY \(silent); PROXY \(squid)"), servers)
        let call = try await ProbeCall.run([
            // Room for squid's tunnel and the handshake on a loaded machine: the limit holds for them too.
            "--pac", pac, "--connect-timeout", "3", "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectSucceeded()
        let decision = try #require(try call.probe.pac)
        #expect(decision.fates == ["PROXY \(silent) failedOver proxyTimeout", "PROXY \(squid) ended"], "\(call.json.summary)")
        #expect(try call.probe.connectStatus == 200)
    }

    /// A proxy that answers ends the list, whatever it answers: squid's 403 to CONNECT is the
    /// call's failure and tinyproxy after it is not tried (browsers do not fail over on a refused
    /// tunnel, crbug.com/680837).
    @Test(.timeLimit(.minutes(1)))
    func aProxyThatRefusesWith403EndsTheList() async throws {
        let servers = try E2EServers.current()
        let squidACL = "127.0.0.1:\(servers["SQUID_ACL_PORT"])"
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let pac = try served(answering("PROXY \(squidACL); PROXY \(tinyproxy)"), servers)
        let call = try await ProbeCall.run([
            "--pac", pac, "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "SQUID_ACL_DENIED_CONNECT_PORT"),
        ])
        try call.expectFailed("proxyForbidden", keywords: ["not tried"])
        let decision = try #require(try call.probe.pac)
        #expect(
            decision.fates == ["PROXY \(squidACL) ended proxyForbidden", "PROXY \(tinyproxy) notTried"], "\(call.json.summary)")
    }

    /// A proxy that asks for credentials ends the list too: the device answers the challenge
    /// (or its app gets the 407), it does not go round it.
    @Test(.timeLimit(.minutes(1)))
    func aProxyThatAsksForCredentialsEndsTheList() async throws {
        let servers = try E2EServers.current()
        let squidAuth = "127.0.0.1:\(servers["SQUID_AUTH_PORT"])"
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let pac = try served(answering("PROXY \(squidAuth); PROXY \(tinyproxy); DIRECT"), servers)
        let call = try await ProbeCall.run(["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")])
        try call.expectFailed("proxyAuthenticationRequired")
        let decision = try #require(try call.probe.pac)
        #expect(
            decision.fates == [
                "PROXY \(squidAuth) ended proxyAuthenticationRequired", "PROXY \(tinyproxy) notTried", "DIRECT notTried",
            ],
            "\(call.json.summary)")
    }

    /// An `HTTPS` entry is a proxy spoken to over TLS: its certificate, from a CA the run does
    /// not trust for proxies, fails the handshake at the proxy, which devices fail over on.
    @Test(.timeLimit(.minutes(1)))
    func anHTTPSProxyWhoseCertificateFailsIsLeftForTheNextEntry() async throws {
        let servers = try E2EServers.current()
        let httpsProxy = "localhost:\(servers["HTTPS_PROXY_PORT"])"
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let pac = try served(answering("HTTPS \(httpsProxy); PROXY \(tinyproxy)"), servers)
        let failingOver = try await ProbeCall.run(["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")])
        try failingOver.expectSucceeded()
        let decision = try #require(try failingOver.probe.pac)
        #expect(decision.entries.map(\.state) == ["failedOver", "ended"], "\(failingOver.json.summary)")
        #expect(decision.entries[0].hop == "proxy" && decision.entries[0].reason == "certificateNotTrusted")
        // Trusted, the HTTPS proxy carries the call itself.
        let trusted = try await ProbeCall.run([
            "--pac", pac, "--proxy-cacert", servers["CA_CERT"], servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try trusted.expectSucceeded()
        #expect(try trusted.probe.proxy == "https://\(httpsProxy)", "\(trusted.json.summary)")
    }

    /// A SOCKS entry is named, not silently skipped: the probe does not call through SOCKS.
    @Test(.timeLimit(.minutes(1)))
    func aSOCKSEntryIsSaidNotProbed() async throws {
        let servers = try E2EServers.current()
        let pac = try served(answering("SOCKS5 127.0.0.1:1080; DIRECT"), servers)
        let call = try await ProbeCall.run(["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")])
        try call.expectFailed("proxyNotProbed", keywords: ["socks5 127.0.0.1:1080"])
        #expect(try call.probe.pac?.fates == ["SOCKS5 127.0.0.1:1080 ended proxyNotProbed", "DIRECT notTried"])
    }

    /// `isInNet` asks `dnsResolve`, which answers `--resolve`'s names as the call reaches them:
    /// the name inside 127/8 goes direct; a name that does not resolve (the resolver refuses it
    /// without a query) is sent to the (closed) proxy instead.
    @Test(.timeLimit(.minutes(1)))
    func isInNetSeesTheAddressesOfResolve() async throws {
        let servers = try E2EServers.current()
        let closed = "127.0.0.1:\(servers["CLOSED_PORT"])"
        let script = """
            function FindProxyForURL(url, host) {
              if (isInNet(host, "127.0.0.0", "255.0.0.0")) return "DIRECT";
              return "PROXY \(closed)";
            }
            """
        let pac = try served(script, servers)
        let target = servers.url("http", "inside.pac.test", "HTTP_PORT")
        let inside = try await ProbeCall.run([
            "--pac", pac, "--resolve", "inside.pac.test:\(servers["HTTP_PORT"]):127.0.0.1", target,
        ])
        try inside.expectSucceeded()
        #expect(try inside.probe.route == "direct" && inside.probe.pac?.fates == ["DIRECT ended"])
        #expect(inside.words.contains("direct: the pac's answer says direct"), "\(inside.text.summary)")
        let outside = try await ProbeCall.run(["--pac", pac, "http://\(unresolvableHost)/"])
        try outside.expectFailed("proxyUnreachable")
        #expect(try outside.probe.pac?.fates == ["PROXY \(closed) ended proxyUnreachable"])
    }

    /// The script's own failures are the call's, with its words: a throw, a loop stopped at the
    /// engine's time limit, an answer no device can read. Nothing is sent to the target.
    @Test(.timeLimit(.minutes(1)))
    func theScriptsOwnFailuresAreReportedNeverAHang() async throws {
        let servers = try E2EServers.current()
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let cases: [(script: String, words: String)] = [
            ("function FindProxyForURL(url, host) { throw new Error('no route for ' + host); }", "no route for 127.0.0.1"),
            ("function FindProxyForURL(url, host) { for (;;) {} }", "used more than 5 s of processor time and was stopped"),
            (answering("GARBAGE in; PROXY"), "has no entry a device can use"),
            ("function FindProxyForURL(url, host) { return 'DIRECT' ", "line 1: syntaxerror: missing } after function body"),
        ]
        for (script, words) in cases {
            let pac = try served(script, servers)
            let call = try await ProbeCall.run(["--pac", pac, target])
            try call.expectFailed("pacFailed", keywords: [words])
            #expect(try call.probe.hop == "client" && call.probe.httpStatus == nil, "\(call.json.summary)")
        }
        // Entries that cannot be read are skipped with a warning, as browsers skip them.
        let partly = try served(answering("BOGUS x; PROXY 127.0.0.1:\(servers["TINYPROXY_PORT"])"), servers)
        let call = try await ProbeCall.run(["--pac", partly, target])
        try call.expectSucceeded()
        #expect(try call.probe.pac?.unreadable == ["BOGUS x"])
        #expect(call.words.contains("entries no device can read, skipped: \"bogus x\""), "\(call.text.summary)")
    }

    /// `--pac-only` prints each URL's answer without a call; an https:// PAC URL is fetched with
    /// `--cacert`; one that cannot be fetched stops the run with 69 before any call.
    @Test(.timeLimit(.minutes(1)))
    func pacOnlyPrintsTheDecisionsAndTheScriptIsFetchedDirectly() async throws {
        let servers = try E2EServers.current()
        let script = """
            function FindProxyForURL(url, host) {
              if (dnsDomainIs(host, ".intranet.test") || isPlainHostName(host)) return "DIRECT";
              if (shExpMatch(url, "https://*")) return "PROXY secure.test:3128; DIRECT";
              return "PROXY web.test:8080";
            }
            """
        let pac = try served(script, servers, host: "localhost")
            .replacingOccurrences(
                of: "http://localhost:\(servers["HTTP_PORT"])", with: "https://localhost:\(servers["TLS_VALID_PORT"])")
        let run = try await StagebuildProcess.run([
            "probe", "--pac", pac, "--cacert", servers["CA_CERT"], "--pac-only", "http://wiki/", "https://api.example.test/",
            "http://files.intranet.test/a", "http://example.test/",
        ])
        #expect(run.status == 0, "\(run.summary)")
        #expect(run.stdout.contains("http://wiki/  \"DIRECT\""), "\(run.summary)")
        #expect(run.stdout.contains("https://api.example.test/  \"PROXY secure.test:3128; DIRECT\""), "\(run.summary)")
        #expect(run.stdout.contains("http://files.intranet.test/a  \"DIRECT\""), "\(run.summary)")
        #expect(run.stdout.contains("http://example.test/  \"PROXY web.test:8080\""), "\(run.summary)")
        // Fetched directly: the proxy the environment names is never asked for the script.
        let missing = try await StagebuildProcess.run(
            ["probe", "--pac", servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/none.pac"), "http://a.test/"],
            variables: ["http_proxy": "http://127.0.0.1:\(servers["CLOSED_PORT"])"])
        #expect(missing.status == 69, "\(missing.summary)")
        #expect(missing.stderr.contains("answered HTTP 404"), "\(missing.summary)")
    }

    /// With proxy variables set too, the report says where curl (which ignores PAC) would go.
    @Test(.timeLimit(.minutes(1)))
    func whereCurlWouldGoIsNoted() async throws {
        let servers = try E2EServers.current()
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let pac = try served(answering("PROXY \(tinyproxy)"), servers)
        let call = try await ProbeCall.run(
            ["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")],
            variables: ["http_proxy": "http://127.0.0.1:\(servers["SQUID_PORT"])", "no_proxy": "example.test"])
        try call.expectSucceeded()
        // The same proxy either way: nothing to note.
        let same = try await ProbeCall.run(
            ["--pac", pac, servers.url("http", "127.0.0.1", "HTTP_PORT")], variables: ["http_proxy": "http://\(tinyproxy)"])
        #expect(try !(same.probe.warnings ?? []).contains { $0.hasPrefix("curl, Go and Python") }, "\(same.json.summary)")
        let warnings = try call.probe.warnings ?? []
        #expect(
            warnings.contains {
                $0.hasPrefix("curl, Go and Python do not read PAC scripts")
                    && $0.contains("proxy http://127.0.0.1:\(servers["SQUID_PORT"]) (from http_proxy)")
            }, "\(call.json.summary)")
    }
}

/// `--wpad`: the script found as browsers find it, `http://wpad.DOMAIN/wpad.dat` for each search
/// domain, those that do not answer passed over and said.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct WPADTests {
    @Test(.timeLimit(.minutes(1)))
    func theFirstWPADHostThatAnswersGivesTheScript() async throws {
        let servers = try E2EServers.current()
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        try "function FindProxyForURL(url, host) { return \"PROXY \(tinyproxy)\"; }\n"
            .write(toFile: servers["PAC_DIR"] + "/wpad.dat", atomically: true, encoding: .utf8)
        // No name is asked of DNS: each candidate is sent to loopback, the first to a closed port.
        let closed = "127.0.0.1:\(servers["CLOSED_PORT"])"
        let call = try await ProbeCall.run([
            "--wpad", "--wpad-domain", "a.wpad-e2e.test", "--wpad-domain", "wpad-e2e.test",
            "--connect-to", "wpad.a.wpad-e2e.test:80:\(closed)",
            "--connect-to", "wpad.wpad-e2e.test:80:127.0.0.1:\(servers["HTTP_PORT"])",
            servers.url("http", "127.0.0.1", "HTTP_PORT"),
        ])
        try call.expectSucceeded()
        #expect(try call.probe.pac?.script == "http://wpad.wpad-e2e.test/wpad.dat", "\(call.json.summary)")
        #expect(try call.probe.proxy == "http://\(tinyproxy)")
        #expect(call.json.stderr.contains("passed over http://wpad.a.wpad-e2e.test/wpad.dat"), "\(call.json.summary)")
        #expect(call.json.stderr.contains("--wpad uses http://wpad.wpad-e2e.test/wpad.dat"), "\(call.json.summary)")
        // Never a parent domain, and nothing found is 69 before any call.
        let none = try await StagebuildProcess.run([
            "probe", "--wpad", "--wpad-domain", "nowhere.wpad-e2e.test", "--connect-to",
            "wpad.nowhere.wpad-e2e.test:80:\(closed)", "http://a.test/",
        ])
        #expect(none.status == 69 && none.stderr.contains("WPAD found no PAC script"), "\(none.summary)")
        // --deadline bounds the whole search, silent hosts included.
        let silent = "127.0.0.1:\(servers["SILENT_PORT"])"
        let bounded = try await StagebuildProcess.run([
            "probe", "--wpad", "--wpad-domain", "s1.wpad-e2e.test", "--wpad-domain", "s2.wpad-e2e.test",
            "--connect-to", "wpad.s1.wpad-e2e.test:80:\(silent)", "--connect-to", "wpad.s2.wpad-e2e.test:80:\(silent)",
            "--connect-timeout", "2", "--deadline", "1.5", "--pac-only", "http://a.test/",
        ])
        // Two silent hosts at 2 s each would take 4 s: the search stops at 1.5 s (room for a loaded machine).
        #expect(bounded.status == 69 && bounded.elapsed < .seconds(3.5), "\(bounded.summary)")
        #expect(bounded.stderr.contains("a fetch may take 1.5 s: the least of --connect-timeout, --max-time and --deadline"))
        #expect(!none.stderr.contains("http://wpad.wpad-e2e.test/"), "\(none.summary)")
    }
}

/// With `-L`, every hop's URL is the script's own question: each hop keeps its own decision.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct PACRedirectTests {
    @Test(.timeLimit(.minutes(1)))
    func eachHopIsRoutedByTheScriptForItsOwnURL() async throws {
        let servers = try E2EServers.current()
        let tinyproxy = "127.0.0.1:\(servers["TINYPROXY_PORT"])"
        let script = """
            function FindProxyForURL(url, host) {
              if (shExpMatch(url, "*/redirected*")) return "DIRECT";
              return "PROXY \(tinyproxy)";
            }
            """
        let name = "\(UUID().uuidString).pac"
        try script.write(toFile: servers["PAC_DIR"] + "/" + name, atomically: true, encoding: .utf8)
        let call = try await ProbeCall.run([
            "--pac", servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/\(name)"), "-L",
            servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/twice"),
        ])
        try call.expectSucceeded()
        let hops = try call.probe.hops ?? []
        #expect(hops.map(\.route) == ["proxy", "proxy", "direct"], "\(call.json.summary)")
        #expect(try call.probe.pac?.fates == ["DIRECT ended"], "\(call.json.summary)")
    }
}

/// What a first trial of `--pac` found, each a test: credentials in an answer, a proxy that asks
/// for them, the target's TLS switches kept off the script's fetch, a redirected PAC URL, and
/// the time a script may take bounded by the call's.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct PACTrialTests {
    private func served(_ script: String, _ servers: E2EServers) throws -> String {
        let name = "\(UUID().uuidString).pac"
        try script.write(toFile: servers["PAC_DIR"] + "/" + name, atomically: true, encoding: .utf8)
        return name
    }

    /// User info in an answer is unreadable to devices and never shown; a 407 through a PAC's
    /// proxy is answered with --proxy-user, which the hint names, and never printed.
    @Test(.timeLimit(.minutes(1)))
    func credentialsAreNeverShownAndProxyUserAnswersAPACProxysChallenge() async throws {
        let servers = try E2EServers.current()
        let password = servers.squidPassword
        let squidAuth = "127.0.0.1:\(servers["SQUID_AUTH_PORT"])"
        let name = try served(
            "function FindProxyForURL(url, host) { return 'PROXY \(servers["SQUID_AUTH_USER"]):\(password)@\(squidAuth); "
                + "PROXY \(squidAuth)'; }", servers)
        let pac = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/\(name)")
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let challenged = try await ProbeCall.run(["--pac", pac, target])
        try challenged.expectFailed("proxyAuthenticationRequired", keywords: ["--proxy-user user:password"])
        #expect(try challenged.probe.pac?.unreadable == ["PROXY ***@\(squidAuth)"])
        let answered = try await ProbeCall.run(["--pac", pac, "--proxy-user", servers.squidCredentials, target])
        try answered.expectSucceeded()
        for run in [challenged.json, challenged.text, answered.json, answered.text] {
            #expect(!run.output.contains(password), "\(run.summary)")
        }
        let only = try await StagebuildProcess.run(["probe", "--pac", pac, "--pac-only", "--format", "json", target])
        #expect(only.status == 0 && !only.output.contains(password), "\(only.summary)")
    }

    /// `-k` is the target's switch: the script's own fetch is verified whatever it says, and a
    /// redirected PAC URL is followed.
    @Test(.timeLimit(.minutes(1)))
    func theScriptsFetchIsAlwaysVerifiedAndFollowsRedirects() async throws {
        let servers = try E2EServers.current()
        let name = try served("function FindProxyForURL(url, host) { return 'DIRECT'; }", servers)
        let expired = servers.url("https", "localhost", "TLS_EXPIRED_PORT", path: "/pac/\(name)")
        let refused = try await StagebuildProcess.run(["probe", "-k", "--pac", expired, "--pac-only", "http://a.test/"])
        #expect(refused.status == 69 && refused.stderr.contains("could not be fetched"), "\(refused.summary)")
        let redirected = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/redirect/to?to=/pac/\(name)")
        let followed = try await StagebuildProcess.run(["probe", "--pac", redirected, "--pac-only", "http://a.test/"])
        #expect(followed.status == 0 && followed.stdout.contains("http://a.test/  \"DIRECT\""), "\(followed.summary)")
    }

    /// A script that loops is waited for no longer than the call may take, and a --deadline
    /// cancels it like any call in flight.
    @Test(.timeLimit(.minutes(1)))
    func aLoopingScriptIsBoundedByTheCallsTime() async throws {
        let servers = try E2EServers.current()
        let name = try served("function FindProxyForURL(url, host) { for (;;) {} }", servers)
        let pac = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/\(name)")
        let target = servers.url("http", "127.0.0.1", "HTTP_PORT")
        let limited = try await ProbeCall.run(["--pac", pac, "--max-time", "1", target])
        try limited.expectFailed("pacFailed", keywords: ["no answer within 1 s"])
        #expect(limited.json.elapsed < .seconds(4), "\(limited.json.summary)")
        let cancelled = try await StagebuildProcess.run(["probe", "--pac", pac, "--deadline", "1", "--format", "json", target])
        #expect(cancelled.status == 1 && cancelled.elapsed < .seconds(4), "\(cancelled.summary)")
        #expect(try cancelled.report().probes.first?.outcome == "cancelled", "\(cancelled.summary)")
        // Cancelled while a silent proxy was tried: that entry carried nothing.
        let silent = try served(
            "function FindProxyForURL(url, host) { return 'PROXY 127.0.0.1:\(servers["SILENT_PORT"])'; }", servers)
        let waiting = try await ProbeCall.run([
            "--pac", servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/pac/\(silent)"), "--connect-timeout", "5",
            "--deadline", "1", servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        #expect(try waiting.probe.outcome == "cancelled", "\(waiting.json.summary)")
        #expect(try waiting.probe.pac?.entries.map(\.state) == ["cancelled"], "\(waiting.json.summary)")
        #expect(waiting.words.contains("being tried when the run was cancelled"), "\(waiting.text.summary)")
    }
}

import Foundation
import Testing

/// Every look a call makes counts inside its `--max-time` (`probe-extra-looks-exceed-time-limits`):
/// the second look at a refused certificate and `--compare-direct`'s handshake get what is left
/// of the call's time, or are skipped, and the report's total is the time the call took.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct TimeLimitTests {
    @Test(.timeLimit(.minutes(1)))
    func aRefusedCertificatesSecondLookFitsInMaxTime() async throws {
        let servers = try E2EServers.current()
        let started = ContinuousClock.now
        let call = try await ProbeCall.run(["--max-time", "3", servers.url("https", "localhost", "SLOW_TLS_PORT")])
        let wall = (ContinuousClock.now - started) / .seconds(1)
        // The report's total is the call's own wall clock, its looks included: a second look with
        // a budget of its own made it 5 s. The runs' wall time is looser (processes start under load).
        try call.expectFailed("certificateNotTrusted")
        let total = try #require(try call.probe.timings?.totalMs)
        // Room for a loaded machine (CI runs the suites side by side), below the 5 s of a look
        // with its own budget.
        #expect(total >= 2400 && total <= 4300, "the call outlived --max-time 3: \(total) ms")
        // The two runs go side by side, so the wall clock only guards against a hang: the
        // report's total above is what tells the fault. CI's loaded machine took 8.5 s once, 15.7 s another time.
        #expect(wall < 30, "\(wall) s")
    }

    /// The connections the slow and silent TLS servers accepted on a port so far.
    static func connections(to portKey: String) throws -> Int {
        let servers = try E2EServers.current()
        let log = (try? String(contentsOfFile: servers["STATE_DIR"] + "/slow-tls/connections.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0 == servers[portKey] }.count
    }

    @Test(.timeLimit(.minutes(1)))
    func compareDirectGetsWhatIsLeftOfMaxTime() async throws {
        let servers = try E2EServers.current()
        let before = try Self.connections(to: "SILENT_TLS_PORT")
        let call = try await ProbeCall.run([
            "--max-time", "2", "--compare-direct", "--proxy", servers.proxy("TINYPROXY_PORT"), "-k",
            servers.url("https", "localhost", "SILENT_TLS_PORT"),
        ])
        // One connection per run (text and JSON): the call's, through the proxy. No time was
        // left for the direct handshake, which would be a second.
        #expect(try Self.connections(to: "SILENT_TLS_PORT") - before == 2)
        try call.expectFailed("timeout")
        #expect(
            try call.probe.certificateFromEvidence?.contains("no time was left within --max-time for a direct TLS handshake")
                == true, "\(call.json.summary)")
        let total = try #require(try call.probe.timings?.totalMs)
        // Room for a loaded machine (CI's, beside 32 threads of the nginx differential, once took
        // 5.1 s), below the 7 s or more a direct look with its own 5 s takes; the connection count
        // above is what tells that fault first.
        #expect(total >= 1900 && total <= 6500, "\(total) ms")
    }
}

/// Body patterns read the whole body, up to `--body-size-limit` (`probe-body-regex-sees-first-mib-only`).
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct BodyLimitTests {
    @Test(.timeLimit(.minutes(1)))
    func aPatternPastTheFirstMiBIsSeen() async throws {
        let servers = try E2EServers.current()
        let huge = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/huge")
        let complete = try await ProbeCall.run(["--expect-body", "</html>\\s*$", huge])
        try complete.expectSucceeded()
        for engine in ["curl", "urlsession"] {
            let limited = try await ProbeCall.run(
                ["--engine", engine, "--expect-body", "</html>", "--body-size-limit", "1M", huge])
            try limited.expectFailed("expectationFailed")
            #expect(
                try limited.probe.message?.contains("larger than the --body-size-limit of 1048576 bytes") == true,
                "\(engine): \(limited.json.summary)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theExportersForbiddenPatternSeesTheWholeBody() throws {
        let servers = try E2EServers.current()
        let path = try ExporterE2ETests.configFile(
            """
            modules:
              no_error:
                prober: http
                http:
                  fail_if_body_matches_regexp: ["FATAL ERROR"]
              complete_page:
                prober: http
                http:
                  fail_if_body_not_matches_regexp: ["</html>"]
                  body_size_limit: 4MB

            """)
        let exporter = try ExporterE2ETests.RunningExporter(config: path)
        let huge = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/huge")
        let banner = try #require(ExporterE2ETests.get("\(exporter.url)/probe?module=no_error&target=\(huge)"))
        #expect(banner.body.contains("\nprobe_success 0\n"), "\(banner.body)")
        let page = try #require(ExporterE2ETests.get("\(exporter.url)/probe?module=complete_page&target=\(huge)"))
        #expect(page.body.contains("\nprobe_success 1\n"), "\(page.body)")
        #expect(exporter.stop() == 0)
    }
}

import Testing

/// A closed port, an unresolvable proxy name and a listener that accepts and never answers: each
/// the right reason, within its deadline (issue 3, "Done when", fourth bullet).
///
/// Wall times are measured around the whole process; ``slack`` covers its start and exit.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct DeadlineTests {
    static let slack: Duration = .seconds(3)

    /// Checks that both runs ended within `deadline` plus ``slack``, and, with `atLeast`, that
    /// they really waited that long (the deadline, not something else, ended them).
    func expectWall(
        _ call: ProbeCall, within deadline: Duration, atLeast: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for run in [call.json, call.text] {
            #expect(!run.killed && run.elapsed <= deadline + Self.slack, "\(run.summary)", sourceLocation: sourceLocation)
            if let atLeast {
                #expect(run.elapsed >= atLeast, "ended before its deadline: \(run.summary)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func closedPortIsConnectFailed() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run(["--connect-timeout", "2", servers.url("http", "127.0.0.1", "CLOSED_PORT")])
        try call.expectFailed("connectFailed")
        #expect(try call.probe.urlError?.code == -1004, "cannotConnectToHost\n\(call.json.summary)")
        expectWall(call, within: .seconds(2))
    }

    @Test(.timeLimit(.minutes(1)))
    func closedProxyPortIsProxyUnreachable() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("CLOSED_PORT"), "--connect-timeout", "2", "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("proxyUnreachable")
        #expect(try call.probe.route == "proxy")
        expectWall(call, within: .seconds(2))
    }

    /// A name with a label over 63 octets: the resolver refuses it without sending any query
    /// (RFC 1035 section 2.3.4), so the test stays on this machine.
    @Test(.timeLimit(.minutes(1)))
    func unresolvableProxyNameIsProxyNameNotResolved() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", "http://\(unresolvableHost):3128", "--connect-timeout", "2", "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("proxyNameNotResolved", keywords: [unresolvableHost])
        #expect(try call.probe.message?.contains(unresolvableHost) == true)
        expectWall(call, within: .seconds(2))
    }

    @Test(.timeLimit(.minutes(1)))
    func silentTargetTimesOutAtMaxTime() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--connect-timeout", "2", "--max-time", "3", servers.url("http", "127.0.0.1", "SILENT_PORT"),
        ])
        try call.expectFailed("timeout", keywords: ["--max-time"])
        #expect(try call.probe.urlError?.code == -1001, "timedOut\n\(call.json.summary)")
        expectWall(call, within: .seconds(3), atLeast: .milliseconds(2_500))
    }

    /// `--connect-timeout` includes the proxy's answer to CONNECT.
    @Test(.timeLimit(.minutes(1)))
    func silentProxyTimesOutAtConnectTimeout() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--proxy", servers.proxy("SILENT_PORT"), "--connect-timeout", "2", "--max-time", "20",
            "--cacert", servers["CA_CERT"], servers.url("https", "localhost", "TLS_VALID_PORT"),
        ])
        try call.expectFailed("proxyTimeout", keywords: ["--connect-timeout"])
        let probe = try call.probe
        #expect(probe.urlError?.code == -1001, "timedOut\n\(call.json.summary)")
        #expect(probe.connectStatus == nil || probe.connectStatus == 0, "\(call.json.summary)")
        expectWall(call, within: .seconds(2), atLeast: .milliseconds(1_500))
    }

    /// An overall `--deadline` that ends the run first reports the call cancelled (exit 1, not 130).
    @Test(.timeLimit(.minutes(1)))
    func overallDeadlineCancelsTheCallInFlight() async throws {
        let servers = try E2EServers.current()
        let call = try await ProbeCall.run([
            "--deadline", "2", "--max-time", "30", servers.url("http", "127.0.0.1", "SILENT_PORT"),
        ])
        let probe = try call.probe
        #expect(probe.outcome == "cancelled", "\(call.json.summary)")
        #expect(call.report.summary == .init(succeeded: 0, failed: 0, cancelled: 1))
        #expect(call.json.status == 1 && call.text.status == 1, "\(call.json.summary)\n\(call.text.summary)")
        #expect(call.words.contains("cancelled") && call.words.contains("0 succeeded, 0 failed, 1 cancelled"))
        expectWall(call, within: .seconds(2), atLeast: .milliseconds(1_500))
    }
}

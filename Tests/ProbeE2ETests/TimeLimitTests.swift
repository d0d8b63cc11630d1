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
        // Both runs (text and JSON) run side by side; each ends by about 3 s, where a second
        // look with a budget of its own took 5.
        #expect(wall < 4.7, "the call outlived --max-time 3: \(wall) s")
        try call.expectFailed("certificateNotTrusted")
        let total = try #require(try call.probe.timings?.totalMs)
        #expect(total >= 2400 && total <= 3300, "the report's total is the time the call took: \(total) ms")
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
        #expect(total >= 1900 && total <= 2600, "\(total) ms")
    }
}

import Foundation
import Testing

/// The three report formats describe the same calls: JSON one object per call, JUnit XML one
/// test case per call, text one summary line.
@Suite(.enabled(if: E2EServers.isConfigured, "needs STAGEBUILD_E2E_STATE (scripts/test starts the servers)"))
struct ReportFormatTests {
    /// A success, a proxy failure at squid's ACL, and a certificate failure, through squid.
    static func arguments(_ servers: E2EServers) -> [String] {
        [
            "--proxy", servers.proxy("SQUID_ACL_PORT"), "--cacert", servers["CA_CERT"],
            servers.url("https", "localhost", "TLS_VALID_ALT_PORT"), servers.url("https", "localhost", "TLS_VALID_PORT"),
            servers.url("https", "localhost", "TLS_EXPIRED_PORT"),
        ]
    }

    @Test(.timeLimit(.minutes(1)))
    func formatsAgreeOnEveryCall() async throws {
        let servers = try E2EServers.current()
        async let json = StagebuildProcess.run(["probe", "--format", "json"] + Self.arguments(servers))
        async let text = StagebuildProcess.run(["probe", "--format", "text"] + Self.arguments(servers))
        async let junit = StagebuildProcess.run(["probe", "--format", "junit"] + Self.arguments(servers))
        let runs = try await (json: json, text: text, junit: junit)
        for run in [runs.json, runs.text, runs.junit] {
            #expect(run.status == 1 && !run.signalled, "one call failed\n\(run.summary)")
        }

        let report = try runs.json.report()
        #expect(report.probes.count == 3, "\(runs.json.summary)")
        let reasons = Dictionary(uniqueKeysWithValues: report.probes.map { ($0.target, $0.reason ?? $0.outcome) })
        #expect(reasons[servers.url("https", "localhost", "TLS_VALID_ALT_PORT")] == "succeeded", "\(reasons)")
        #expect(reasons[servers.url("https", "localhost", "TLS_VALID_PORT")] == "proxyForbidden", "\(reasons)")
        #expect(reasons[servers.url("https", "localhost", "TLS_EXPIRED_PORT")] == "certificateExpired", "\(reasons)")
        #expect(report.summary == .init(succeeded: 1, failed: 2, cancelled: 0))

        let xml = runs.junit.stdout
        #expect(xml.hasPrefix("<?xml") || xml.hasPrefix("<testsuite"), "\(runs.junit.summary)")
        #expect(xml.components(separatedBy: "<testcase").count - 1 == 3, "one test case per call\n\(runs.junit.summary)")
        #expect(xml.components(separatedBy: "<failure").count - 1 == 2, "\(runs.junit.summary)")

        let words = runs.text.output.lowercased()
        #expect(words.contains("1 succeeded, 2 failed, 0 cancelled"), "\(runs.text.summary)")
        #expect(words.contains("proxy forbidden") && words.contains("expired"), "\(runs.text.summary)")
    }
}

import Foundation
import Testing

/// One `stagebuild probe` scenario run twice at once, `--format json` and `--format text`, so a
/// test checks the report's fields, the exit status and the words a person reads.
struct ProbeCall: Sendable {
    var json: StagebuildProcess.Run
    var text: StagebuildProcess.Run
    var report: ProbeReport

    /// The first (usually only) call of the report.
    var probe: ProbeReport.Probe {
        get throws { try #require(report.probes.first, "the report has no probe\n\(json.summary)") }
    }

    /// The text report, lower-cased, stdout and stderr together.
    var words: String { text.output.lowercased() }

    /// Runs `stagebuild probe ARGUMENTS...` in JSON and in text.
    ///
    /// - Parameters:
    ///   - arguments: the options and URLs after `probe`.
    ///   - limit: each run is killed when it lives longer than this.
    ///   - variables: environment variables for both runs (proxy variables, say).
    static func run(
        _ arguments: [String], limit: Duration = .seconds(60), variables: [String: String] = [:]
    ) async throws -> ProbeCall {
        async let json = StagebuildProcess.run(["probe", "--format", "json"] + arguments, limit: limit, variables: variables)
        async let text = StagebuildProcess.run(["probe", "--format", "text"] + arguments, limit: limit, variables: variables)
        let (jsonRun, textRun) = try await (json, text)
        return ProbeCall(json: jsonRun, text: textRun, report: try jsonRun.report())
    }

    /// The reasons in plain words, as issue 3 names them; the text report says them.
    static let reasonWords: [String: String] = [
        "proxyNameNotResolved": "proxy name not resolved", "proxyUnreachable": "proxy unreachable",
        "proxyTimeout": "proxy timeout", "proxyAuthenticationRequired": "proxy authentication required",
        "proxyForbidden": "proxy forbidden", "proxyBadGateway": "proxy bad gateway",
        "targetNameNotResolved": "target name not resolved", "connectFailed": "connect failed",
        "tooManyRedirects": "too many redirects", "redirectRefused": "redirect refused",
        "tlsHandshakeFailed": "tls handshake failed", "certificateNotTrusted": "not trusted",
        "hostNameMismatch": "host name mismatch", "certificateExpired": "expired",
        "certificateNotYetValid": "not yet valid", "pinnedKeyMismatch": "pinned key mismatch", "timeout": "timeout",
        "unexpectedStatus": "unexpected", "expectationFailed": "expectation failed",
        "proxyProtocolError": "proxy protocol error", "engineRefusedURL": "url refused by the engine",
        "pacFailed": "pac failed", "proxyNotProbed": "proxy not probed",
    ]

    /// Checks one successful call: exit 0, `succeeded`, no reason, the summary in both formats.
    func expectSucceeded(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let probe = try probe
        #expect(json.status == 0 && !json.signalled, "\(json.summary)", sourceLocation: sourceLocation)
        #expect(text.status == 0 && !text.signalled, "\(text.summary)", sourceLocation: sourceLocation)
        #expect(probe.outcome == "succeeded", "\(json.summary)", sourceLocation: sourceLocation)
        #expect(probe.reason == nil, "\(json.summary)", sourceLocation: sourceLocation)
        #expect(report.summary == .init(succeeded: 1, failed: 0, cancelled: 0), sourceLocation: sourceLocation)
        #expect(words.contains("succeeded"), "\(text.summary)", sourceLocation: sourceLocation)
        #expect(words.contains("1 succeeded, 0 failed, 0 cancelled"), "\(text.summary)", sourceLocation: sourceLocation)
    }

    /// Checks one failed call: exit 1, `failed` with `reason`, its plain words in the text report,
    /// and the summary in both formats.
    ///
    /// - Parameters:
    ///   - reason: the expected `reason`, e.g. `"hostNameMismatch"`.
    ///   - keywords: more words the text report must contain (lower case).
    func expectFailed(
        _ reason: String, keywords: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let probe = try probe
        #expect(json.status == 1 && !json.signalled, "\(json.summary)", sourceLocation: sourceLocation)
        #expect(text.status == 1 && !text.signalled, "\(text.summary)", sourceLocation: sourceLocation)
        #expect(probe.outcome == "failed", "\(json.summary)", sourceLocation: sourceLocation)
        #expect(probe.reason == reason, "\(json.summary)", sourceLocation: sourceLocation)
        #expect(!(probe.message ?? "").isEmpty, "a failure says why\n\(json.summary)", sourceLocation: sourceLocation)
        #expect(report.summary == .init(succeeded: 0, failed: 1, cancelled: 0), sourceLocation: sourceLocation)
        for word in ["failed", Self.reasonWords[reason] ?? reason] + keywords {
            #expect(words.contains(word), "the text report lacks \"\(word)\"\n\(text.summary)", sourceLocation: sourceLocation)
        }
        #expect(words.contains("0 succeeded, 1 failed, 0 cancelled"), "\(text.summary)", sourceLocation: sourceLocation)
    }
}

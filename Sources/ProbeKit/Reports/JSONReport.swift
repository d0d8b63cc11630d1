import Serialization

/// The JSON report: `{"probes": [one object per call], "summary": {"succeeded": N, "failed":
/// N, "cancelled": N}}`, keys in a fixed order, every key always present (`null` when it does
/// not apply) but in the compact record of a call that never started (target, method,
/// repetition, engine, outcome and message). The fields are documented in `docs/probe-json.md`; their names never change.
public struct JSONReport: Sendable {
    /// A report.
    public init() {}

    /// The report, with a trailing newline.
    ///
    /// - Parameter results: a run's results, already redacted.
    /// - Returns: the JSON text.
    public func render(_ results: [ProbeResult]) -> String {
        ReportFormat.json.render(results)
    }

    /// Appends one call's object as it stands in the `probes` array (two levels deep). A call
    /// that never started is written directly: a run may have a million of them.
    ///
    /// - Parameters:
    ///   - result: The call's result, already redacted.
    ///   - bytes: The report's UTF-8 so far.
    static func write(_ result: ProbeResult, to bytes: inout [UInt8]) {
        guard result.started else {
            // No tree: the same text as the tree's.
            JSONValue.appendLiteral("{\n      \"target\": ", to: &bytes)
            JSONValue.appendQuoted(result.target, to: &bytes)
            JSONValue.appendLiteral(",\n      \"method\": ", to: &bytes)
            JSONValue.appendQuoted(result.method, to: &bytes)
            JSONValue.appendLiteral(",\n      \"repetition\": ", to: &bytes)
            bytes += String(result.repetition).utf8
            JSONValue.appendLiteral(",\n      \"engine\": ", to: &bytes)
            JSONValue.appendQuoted(result.engine, to: &bytes)
            JSONValue.appendLiteral(",\n      \"outcome\": ", to: &bytes)
            JSONValue.appendQuoted(result.outcome.name, to: &bytes)
            JSONValue.appendLiteral(",\n      \"message\": ", to: &bytes)
            if let message = result.message {
                JSONValue.appendQuoted(message, to: &bytes)
            } else {
                JSONValue.appendLiteral("null", to: &bytes)
            }
            JSONValue.appendLiteral("\n    }", to: &bytes)
            return
        }
        object(result).write(to: &bytes, indent: 2)
    }

    /// One call's object.
    static func object(_ result: ProbeResult) -> JSONValue {
        let reason = result.outcome.failureReason
        var appleError = reason?.appleError
        if case .cancelled = result.outcome { appleError = .cancelled }
        return .object([
            ("target", .string(result.target)),
            ("method", .string(result.method)),
            ("repetition", .integer(result.repetition)),
            ("engine", .string(result.engine)),
            ("route", .string(result.routeKind)),
            ("proxy", .string(result.proxy)),
            ("noProxyMatch", .string(result.noProxyMatch?.entry)),
            ("outcome", .string(result.outcome.name)),
            ("reason", .string(reason?.code.rawValue)),
            ("message", .string(result.message)),
            ("hop", .string(reason?.hop.rawValue)),
            ("urlError", appleError.map(Self.object) ?? .null),
            ("hint", .string(reason?.hint)),
            ("warnings", .array(result.warnings.map(JSONValue.string))),
            ("httpStatus", .integer(result.httpStatus)),
            ("connectStatus", .integer(result.connectStatus)),
            (
                "redirects",
                .array(result.redirects.map { .object([("status", .integer($0.status)), ("location", .string($0.location))]) })
            ),
            ("hops", .array(result.hops.map(Self.object))),
            ("pac", result.pac.map(Self.object) ?? .null),
            ("tls", result.tls.map(Self.object) ?? .null),
            ("proxyTls", result.proxyTLS.map(Self.object) ?? .null),
            ("appleClients", .array(result.appleClients.map(Self.object))),
            ("certificateFrom", .string(result.certificateFrom?.origin.rawValue)),
            ("certificateFromEvidence", .string(result.certificateFrom?.evidence)),
            ("appleRootOnlyThisMachineTrusts", .string(result.appleRootOnlyThisMachineTrusts)),
            (
                "appleTrust",
                .array(
                    result.appleTrust.map {
                        .object([
                            ("rule", .string($0.rule)), ("passed", .bool($0.passed)), ("detail", .string($0.detail)),
                            ("source", .string($0.source)), ("policy", .string($0.scope.rawValue)),
                            ("securityError", .string($0.securityError)),
                        ])
                    })
            ),
            ("timings", result.timings.map(Self.object) ?? .null),
            ("remoteAddress", .string(result.remoteAddress)),
        ])
    }

    private static func object(_ hop: RedirectHop) -> JSONValue {
        .object([
            ("url", .string(hop.url)),
            ("method", .string(hop.method)),
            ("route", .string(hop.route.map { $0.server == nil ? "direct" : "proxy" })),
            ("proxy", .string(hop.route?.server?.description)),
            ("httpStatus", .integer(hop.httpStatus)),
            ("connectStatus", .integer(hop.connectStatus)),
            ("location", .string(hop.location)),
            ("tls", hop.tls.map(Self.object) ?? .null),
            ("certificateFrom", .string(hop.certificateFrom?.origin.rawValue)),
            ("appleClients", .array(hop.appleClients.map(Self.object))),
            ("timings", hop.timings.map(Self.object) ?? .null),
            ("remoteAddress", .string(hop.remoteAddress)),
            ("pac", hop.pac.map(Self.object) ?? .null),
        ])
    }

    private static func object(_ pac: PACDecision) -> JSONValue {
        .object([
            ("script", .string(pac.script)),
            ("answer", .string(pac.answer)),
            ("unreadable", .array(pac.unreadable.map(JSONValue.string))),
            (
                "entries",
                .array(
                    pac.entries.map { attempt in
                        .object([
                            ("entry", .string(attempt.entry.description)),
                            ("state", .string(attempt.state.rawValue)),
                            ("reason", .string(attempt.failure?.code.rawValue)),
                            ("hop", .string(attempt.failure?.hop.rawValue)),
                            ("message", .string(attempt.failure?.message)),
                            ("urlError", attempt.failure?.appleError.map(Self.object) ?? .null),
                            ("connectStatus", .integer(attempt.connectStatus)),
                            ("remoteAddress", .string(attempt.remoteAddress)),
                        ])
                    })
            ),
        ])
    }

    private static func object(_ error: AppleClientError) -> JSONValue {
        .object([
            ("code", .integer(error.code)), ("name", .string(error.name)), ("domain", .string(error.domain)),
            ("note", .string(error.note)),
        ])
    }

    private static func object(_ verdict: AppleClientVerdict) -> JSONValue {
        .object([
            ("client", .string(verdict.client.rawValue)),
            ("outcome", .string(verdict.succeeded ? "succeeded" : "failed")),
            ("errorDomain", .string(verdict.errorDomain)),
            ("errorCode", .integer(verdict.errorCode)),
            ("errorCase", .string(verdict.errorCase)),
            ("underlyingError", .string(verdict.underlyingError)),
            ("rule", .string(verdict.rule)),
            ("condition", .string(verdict.condition)),
            ("fixes", .array(verdict.fixes.map { .string($0.text) })),
            ("warnings", .array(verdict.warnings.map(JSONValue.string))),
            ("versions", .array(verdict.versions.map(JSONValue.string))),
        ])
    }

    private static func object(_ tls: TLSFacts) -> JSONValue {
        .object([
            ("chainVerified", .bool(tls.chainVerified)),
            ("nameVerified", .bool(tls.nameVerified)),
            ("subject", .string(tls.subject)),
            ("subjectAlternativeNames", .array(tls.subjectAlternativeNames.map(JSONValue.string))),
            ("issuer", .string(tls.issuer)),
            ("notBefore", .string(tls.notBefore)),
            ("notAfter", .string(tls.notAfter)),
            ("daysUntilExpiry", .integer(tls.daysUntilExpiry)),
            ("version", .string(tls.version)),
            ("cipher", .string(tls.cipher)),
            ("alpn", .string(tls.alpn)),
            ("secondLook", .bool(tls.secondLook)),
        ])
    }

    private static func object(_ timings: ProbeTimings) -> JSONValue {
        .object([
            ("dnsMs", .milliseconds(timings.dns)),
            ("connectMs", .milliseconds(timings.connect)),
            ("tlsMs", .milliseconds(timings.tls)),
            ("firstByteMs", .milliseconds(timings.firstByte)),
            ("totalMs", .milliseconds(timings.total)),
        ])
    }
}

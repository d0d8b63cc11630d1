import Serialization

/// The text report: one block per call, then `N succeeded, N failed, N cancelled`.
///
/// A block's first line is the outcome, method and target; indented lines follow for what is
/// known: reason, message, urlError, hint, route, status, tls, proxy tls, timings, remote, warnings.
/// Colour (ANSI SGR) marks the outcome word only, and only when asked for: the caller decides
/// (a terminal, and `NO_COLOR` unset).
public struct TextReport: Sendable {
    /// Whether the outcome word is coloured.
    public var colored: Bool

    /// A report.
    ///
    /// - Parameter colored: whether to colour the outcome word.
    public init(colored: Bool = false) {
        self.colored = colored
    }

    /// The report, with a trailing newline.
    ///
    /// - Parameter results: a run's results, already redacted.
    /// - Returns: the text.
    public func render(_ results: [ProbeResult]) -> String {
        ReportFormat.text.render(results, colored: colored)
    }

    /// One call's block, each line ending with a newline.
    public func block(_ result: ProbeResult) -> String {
        let word = result.outcome.name
        let padded = word.padding(toLength: 10)
        let shown: String
        if colored {
            let color = result.outcome == .succeeded ? "32" : (result.outcome.failureReason != nil ? "31" : "33")
            shown = "\u{1B}[\(color)m\(word)\u{1B}[0m" + String(padded.dropFirst(word.count))
        } else {
            shown = padded
        }
        var title = "\(result.method) \(result.target)"
        if result.repetition > 1 { title += " #\(result.repetition)" }
        if result.engine != ProbeEngineKind.curl.rawValue { title += " (\(result.engine))" }
        var block = shown + " " + ControlCharacters.escaped(title) + "\n"
        for (label, value) in Self.detailLines(result) {
            block += "  \(label.padding(toLength: 10)) \(ControlCharacters.escaped(value))\n"
        }
        return block
    }

    /// The labelled detail lines of a call, shared with the JUnit report.
    static func detailLines(_ result: ProbeResult) -> [(String, String)] {
        // A call that never started has only its cause to tell.
        guard result.started else { return result.message.map { [("message", $0)] } ?? [] }
        var lines: [(String, String)] = []
        if let reason = result.outcome.failureReason {
            let hop = result.hops.isEmpty ? "" : " of hop \(result.hops.count)"
            lines.append(("reason", "\(reason.code.words) (\(reason.code)) at the \(reason.hop)\(hop)"))
        }
        if let message = result.message { lines.append(("message", message)) }
        var appleError = result.outcome.failureReason?.appleError
        if case .cancelled = result.outcome { appleError = .cancelled }
        if let appleError {
            lines.append(("urlError", appleError.description + (appleError.note.map { "; \($0)" } ?? "")))
        }
        if let hint = result.outcome.failureReason?.hint { lines.append(("hint", hint)) }
        if let route = result.route { lines.append(("route", route.description)) }
        if let pac = result.pac {
            for (index, line) in Self.lines(pac).enumerated() { lines.append((index == 0 ? "pac" : "", line)) }
        }
        if result.httpStatus != nil || result.connectStatus != nil {
            var status = "HTTP \(result.httpStatus.map(String.init) ?? "-")"
            if let connect = result.connectStatus { status += ", CONNECT \(connect)" }
            lines.append(("status", status))
        }
        if result.hops.isEmpty {
            for redirect in result.redirects { lines.append(("redirect", "\(redirect.status) to \(redirect.location)")) }
        }
        for (index, hop) in result.hops.enumerated() { lines.append(("hop \(index + 1)", Self.line(hop))) }
        // Through a proxy the origin is news either way; direct, the certificate is the target's.
        if let from = result.certificateFrom, result.route?.server != nil {
            lines.append(("cert from", "\(from.origin.rawValue): \(from.evidence)"))
        }
        // One block, the label once: the requirements failed, then one line per client, the
        // names aligned.
        let apple =
            (result.appleRootOnlyThisMachineTrusts.map {
                [
                    "the chain leads to \($0), a root this machine trusts; the device is judged without it (Mozilla's roots "
                        + "stand for Apple's; --device-ca adds one it has)"
                ]
            } ?? [])
            + result.appleTrust.filter { !$0.passed }.map {
                "fails Apple's requirement \($0.rule): \($0.detail) (\($0.scope.rawValue); \($0.source))"
            }
            + result.appleClients.map(Self.line)
        for (index, line) in apple.enumerated() { lines.append((index == 0 ? "apple" : "", line)) }
        if let tls = result.tls { lines.append(("tls", describe(tls))) }
        if let tls = result.proxyTLS { lines.append(("proxy tls", describe(tls))) }
        if let timings = result.timings { lines.append(("timings", describe(timings))) }
        if let remote = result.remoteAddress { lines.append(("remote", remote)) }
        for warning in result.warnings { lines.append(("warning", warning)) }
        return lines
    }

    private static func describe(_ tls: TLSFacts) -> String {
        func verdict(_ value: Bool?, _ what: String) -> String {
            switch value {
            case true?: "\(what) verified"
            case false?: "\(what) NOT verified"
            case nil: "\(what) not checked"
            }
        }
        var parts = [verdict(tls.chainVerified, "chain") + ", " + verdict(tls.nameVerified, "name")]
        if let subject = tls.subject { parts.append("subject \(subject)") }
        if !tls.subjectAlternativeNames.isEmpty { parts.append("SANs \(tls.subjectAlternativeNames.joined(separator: ", "))") }
        if let issuer = tls.issuer { parts.append("issuer \(issuer)") }
        if let notBefore = tls.notBefore { parts.append("not before \(notBefore)") }
        if let notAfter = tls.notAfter {
            let days = tls.daysUntilExpiry.map { $0 < 0 ? " (expired \(-$0) days ago)" : " (\($0) days left)" }
            parts.append("not after \(notAfter)" + (days ?? ""))
        }
        if let version = tls.version {
            parts.append([version, tls.cipher, tls.alpn.map { "ALPN \($0)" }].compactMap { $0 }.joined(separator: " "))
        }
        if tls.secondLook { parts.append("(certificate from a second look with verification off)") }
        return parts.joined(separator: "; ")
    }

    private static func describe(_ timings: ProbeTimings) -> String {
        func shown(_ value: Double?) -> String { value.map { "\(Seconds.milliseconds($0)) ms" } ?? "-" }
        return "dns \(shown(timings.dns)), connect \(shown(timings.connect)), tls \(shown(timings.tls)), "
            + "first byte \(shown(timings.firstByte)), total \(shown(timings.total))"
    }

    /// One hop of a redirected call on one line: `GET http://a/ direct: 302 to https://b/`.
    /// The script's answer, then one line per entry: what came of it, and for an entry left the
    /// reason, with what an Apple client sees, as a call through that proxy alone says it.
    static func lines(_ pac: PACDecision) -> [String] {
        var lines = ["\(pac.script) answered \"\(pac.answer)\""]
        for attempt in pac.entries {
            switch attempt.state {
            case .ended:
                lines.append(
                    "\(attempt.entry): "
                        + (attempt.failure.map { "ended the call: \($0.code.words) (\($0.code))" } ?? "carried the call"))
            case .notTried:
                lines.append("\(attempt.entry): not tried")
            case .cancelled:
                lines.append("\(attempt.entry): being tried when the run was cancelled")
            case .failedOver:
                guard let failure = attempt.failure else { continue }
                let apple = failure.appleError.map { "; urlError \($0)" } ?? ""
                lines.append(
                    "\(attempt.entry): failed over after \(failure.code.words) (\(failure.code)): \(failure.message)\(apple)")
            }
        }
        return lines
    }

    static func line(_ hop: RedirectHop) -> String {
        var text = "\(hop.method) \(hop.url) " + (hop.route.map { $0.server.map { "via \($0)" } ?? "direct" } ?? "")
        if let status = hop.httpStatus { text += ": \(status)" }
        if let location = hop.location { text += " to \(location)" }
        if let tls = hop.tls, hop.location != nil, let subject = tls.subject { text += "; tls \(subject)" }
        return text
    }

    /// One Apple client's verdict on one line: `AFNetworking 3: fails with -999 cancelled (rule);
    /// fix: validatesDomainName = NO`.
    static func line(_ verdict: AppleClientVerdict) -> String {
        // "AFNetworking 3" is the longest name.
        var text = verdict.client.rawValue.padding(toLength: 14) + " "
        if verdict.succeeded {
            text += "succeeds: \(verdict.rule)"
        } else {
            let code = verdict.errorCode.map { AppleClientError.urlError(code: $0) }.map { "\($0.code) \($0.name)" }
            let error = verdict.errorCase.map { "\(verdict.errorDomain ?? "").\($0)" }
            let under = verdict.underlyingError ?? code
            text += "fails, " + [error, under].compactMap { $0 }.joined(separator: " with ")
            text += ": \(verdict.rule)"
            if let condition = verdict.condition { text += "; \(condition)" }
            if let fix = verdict.fixes.first { text += "; fix: \(fix.text)" }
        }
        for warning in verdict.warnings { text += "; warning: \(warning)" }
        return text
    }
}

extension String {
    /// The text padded with spaces to `length` characters (longer text unchanged).
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

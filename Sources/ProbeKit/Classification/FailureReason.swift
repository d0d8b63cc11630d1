/// Why a call failed: a stable code, the hop where it failed, the facts in plain words, the
/// error an Apple client would see, and the switch that changes the result when there is one.
///
/// Build one with the factory methods in `FailureReason+Catalog.swift`; they keep the message,
/// hint and Apple error of each code consistent.
public struct FailureReason: Sendable, Equatable, CustomStringConvertible {
    /// The stable code, e.g. ``FailureCode/hostNameMismatch``.
    public var code: FailureCode
    /// Where it failed: at the proxy or at the target.
    public var hop: ProbeHop
    /// The facts, e.g. `"the certificate names localhost, probe.test, not 127.0.0.1"`. Never
    /// holds a password or a credential header value.
    public var message: String
    /// The switch or change that makes the call succeed, e.g. `"--no-validate-domain-name, or a
    /// certificate that names 127.0.0.1"`; `nil` when there is none to give.
    public var hint: String?
    /// The error an app on Apple platforms would get; `nil` when such an app gets the HTTP
    /// response itself (a status or an expectation failed) rather than an error.
    public var appleError: AppleClientError?
    /// For timeouts, the phase that ran out of time.
    public var timeoutPhase: TimeoutPhase?
    /// For an expectation, whether a pattern (a regular expression on a header or the body)
    /// decided it (blackbox's `probe_failed_due_to_regex`).
    public var isPatternMismatch = false

    /// A reason.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - hop: proxy or target.
    ///   - message: the facts in plain words.
    ///   - hint: the switch that changes the result, or `nil`.
    ///   - appleError: what an Apple client sees, or `nil`.
    ///   - timeoutPhase: the phase of a timeout, or `nil`.
    public init(
        code: FailureCode, hop: ProbeHop, message: String, hint: String? = nil, appleError: AppleClientError? = nil,
        timeoutPhase: TimeoutPhase? = nil
    ) {
        self.code = code
        self.hop = hop
        self.message = message
        self.hint = hint
        self.appleError = appleError
        self.timeoutPhase = timeoutPhase
    }

    /// `"host name mismatch (hostNameMismatch, at the target): <message>"`.
    public var description: String { "\(code.words) (\(code), at the \(hop)): \(message)" }
}

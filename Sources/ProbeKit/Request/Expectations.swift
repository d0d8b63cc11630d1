/// What a response must look like for a call to succeed: its status, header fields and body.
public struct Expectations: Sendable, Equatable {
    /// The statuses that count as success; `200-399` by default.
    public var statuses: StatusList
    /// Header fields that must be present or have a value.
    public var headers: [HeaderExpectation]
    /// A pattern the body must match, or `nil`.
    public var body: BodyPattern?
    /// More patterns the body must each match (blackbox's `fail_if_body_not_matches_regexp`).
    public var requiredBodyPatterns: [BodyPattern] = []
    /// Patterns the body must not match (blackbox's `fail_if_body_matches_regexp`).
    public var forbiddenBodyPatterns: [BodyPattern] = []
    /// Header fields whose values must, or must not, match a pattern (blackbox's
    /// `fail_if_header_not_matches` and `fail_if_header_matches`).
    public var headerPatterns: [HeaderPattern] = []

    /// Only the default status list: `200-399`, no header or body checks.
    public static let `default` = Expectations()

    /// Expectations.
    ///
    /// - Parameters:
    ///   - statuses: the expected statuses.
    ///   - headers: header expectations.
    ///   - body: a body pattern, or `nil`.
    public init(statuses: StatusList = .default, headers: [HeaderExpectation] = [], body: BodyPattern? = nil) {
        self.statuses = statuses
        self.headers = headers
        self.body = body
    }

    /// Checks the header fields and the body (the status is checked by the caller, which must
    /// first tell a proxy's own answer from the target's).
    ///
    /// - Parameters:
    ///   - fields: the final response's header fields.
    ///   - body: the body bytes kept.
    ///   - bodyWasCut: whether the body was longer than what was kept.
    /// - Returns: ``FailureCode/expectationFailed`` for the first expectation that does not hold.
    public func failure(fields: [(name: String, value: String)], body: [UInt8], bodyWasCut: Bool) -> FailureReason? {
        for header in headers {
            if let found = header.failure(in: fields) { return .expectationFailed(found) }
        }
        for pattern in headerPatterns {
            if let found = pattern.failure(in: fields) { return .expectationFailed(found) }
        }
        let scope = bodyWasCut ? "the first \(body.count) bytes of the body" : "the body (\(body.count) bytes)"
        for pattern in (self.body.map { [$0] } ?? []) + requiredBodyPatterns where !pattern.matches(body) {
            return .expectationFailed("\(scope) \(bodyWasCut ? "do" : "does") not match the pattern /\(pattern)/")
        }
        for pattern in forbiddenBodyPatterns where pattern.matches(body) {
            return .expectationFailed("\(scope) \(bodyWasCut ? "match" : "matches") the pattern /\(pattern)/, which it must not")
        }
        return nil
    }
}

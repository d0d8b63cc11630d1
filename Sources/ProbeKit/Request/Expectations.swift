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
    /// The largest body the patterns are matched against, in bytes (`--body-size-limit`,
    /// blackbox's `body_size_limit`); `nil` for no limit. A longer body fails the call: its
    /// patterns cannot be decided.
    public var bodySizeLimit: Int? = Self.defaultBodySizeLimit

    /// The body size limit when none is given: 64 MiB.
    public static let defaultBodySizeLimit = 64 << 20

    /// Whether a pattern reads the body, so that the call must keep it.
    public var readsBody: Bool { body != nil || !requiredBodyPatterns.isEmpty || !forbiddenBodyPatterns.isEmpty }

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
    ///   - body: the body bytes kept: the whole body, unless it was longer than ``bodySizeLimit``.
    ///   - bodyByteCount: the whole body's length, in bytes.
    /// - Returns: ``FailureCode/expectationFailed`` for the first expectation that does not hold,
    ///   or for a body longer than ``bodySizeLimit`` when a pattern reads it.
    public func failure(fields: [(name: String, value: String)], body: [UInt8], bodyByteCount: Int) -> FailureReason? {
        for header in headers {
            if let found = header.failure(in: fields) { return .expectationFailed(found) }
        }
        for pattern in headerPatterns {
            if let found = pattern.failure(in: fields) { return .patternMismatch(found) }
        }
        guard readsBody else { return nil }
        if bodyByteCount > body.count, let limit = bodySizeLimit {
            return .expectationFailed(
                "the body is larger than the --body-size-limit of \(limit) bytes (body_size_limit), so its patterns were "
                    + "not decided: raise the limit, or match something the headers say")
        }
        for pattern in (self.body.map { [$0] } ?? []) + requiredBodyPatterns where !pattern.matches(body) {
            return .patternMismatch("the body (\(bodyByteCount) bytes) does not match the pattern /\(pattern)/")
        }
        for pattern in forbiddenBodyPatterns where pattern.matches(body) {
            return .patternMismatch("the body (\(bodyByteCount) bytes) matches the pattern /\(pattern)/, which it must not")
        }
        return nil
    }

    /// The body bytes a call keeps: the whole body up to ``bodySizeLimit`` (one byte more, to
    /// tell a longer one) when a pattern reads it, else a 64 KiB head (an interceptor's error
    /// page, for the report's words).
    public var bodyBytesKept: Int {
        guard readsBody else { return 64 << 10 }
        return bodySizeLimit.map { $0 + 1 } ?? Int.max
    }
}

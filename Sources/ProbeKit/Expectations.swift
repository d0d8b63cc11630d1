/// What a response must look like for a call to succeed: its status, header fields and body.
public struct Expectations: Sendable, Equatable {
    /// The statuses that count as success; `200-399` by default.
    public var statuses: StatusList
    /// Header fields that must be present or have a value.
    public var headers: [HeaderExpectation]
    /// A pattern the body must match, or `nil`.
    public var body: BodyPattern?

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
        if let pattern = self.body, !pattern.matches(body) {
            let scope = bodyWasCut ? "the first \(body.count) bytes of the body do" : "the body (\(body.count) bytes) does"
            return .expectationFailed("\(scope) not match the pattern /\(pattern)/")
        }
        return nil
    }
}

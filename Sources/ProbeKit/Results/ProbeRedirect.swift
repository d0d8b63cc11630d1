/// One redirect a call followed with `-L`: the 3xx status and where it pointed (RFC 9110
/// section 15.4; `Location`, section 10.2.2), user info redacted.
public struct ProbeRedirect: Sendable, Equatable {
    /// The status code, e.g. `301`.
    public var status: Int
    /// The `Location` value as sent, its user-info secret replaced by `***`.
    public var location: String

    /// A redirect.
    ///
    /// - Parameters:
    ///   - status: The 3xx status code.
    ///   - location: The `Location` value, redacted.
    public init(status: Int, location: String) {
        self.status = status
        self.location = location
    }
}

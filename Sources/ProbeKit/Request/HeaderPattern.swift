import Curl

/// A header field whose values must match a pattern, or must not: blackbox_exporter's
/// `fail_if_header_not_matches` and `fail_if_header_matches` (`prober/http.go`: every value of
/// the field is tried; a missing field fails unless `allow_missing`).
public struct HeaderPattern: Sendable, Equatable {
    /// The field name, compared case-insensitively (RFC 9110 section 5.1).
    public var name: String
    /// The pattern, RE2 syntax.
    public var pattern: BodyPattern
    /// `true`: some value must match; `false`: no value may match.
    public var mustMatch: Bool
    /// Whether a missing field passes.
    public var allowsMissing: Bool

    /// A header pattern.
    ///
    /// - Parameters: one per property.
    public init(name: String, pattern: BodyPattern, mustMatch: Bool, allowsMissing: Bool) {
        self.name = name
        self.pattern = pattern
        self.mustMatch = mustMatch
        self.allowsMissing = allowsMissing
    }

    /// Why the fields fail this pattern, or `nil`.
    ///
    /// - Parameter fields: The final response's header fields.
    func failure(in fields: [(name: String, value: String)]) -> String? {
        let values = fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        guard !values.isEmpty else { return allowsMissing ? nil : "the header \(name) is missing" }
        let matching = values.filter { pattern.matches(Array($0.utf8)) }
        if mustMatch && matching.isEmpty { return "no value of the header \(name) matches the pattern /\(pattern)/" }
        if !mustMatch, let value = matching.first {
            let shown = Redaction.isSecretHeaderName(name) ? "a value (not shown: it is a credential)" : "\"\(value)\""
            return "the header \(name) is \(shown), which matches the pattern /\(pattern)/ it must not"
        }
        return nil
    }
}

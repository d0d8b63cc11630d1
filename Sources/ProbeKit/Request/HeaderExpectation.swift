import Curl
import Foundation
import Serialization

/// A response header that must be present, or have a value: `--expect-header NAME[=VALUE]`.
///
/// Names compare case-insensitively (RFC 9110 section 5.1); a value compares exactly, after
/// the field value's own leading and trailing blanks are removed (RFC 9110 section 5.5). With
/// several fields of the name, one matching is enough.
public struct HeaderExpectation: Sendable, Equatable, CustomStringConvertible {
    /// The field name, e.g. `"Content-Type"`.
    public var name: String
    /// The exact value wanted, or `nil` when presence is enough.
    public var value: String?

    /// An expectation.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the value, or `nil` for presence.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// Parses `NAME` or `NAME=VALUE`; the first `=` splits.
    ///
    /// - Parameter text: e.g. `"X-Served-By"` or `"Content-Type=application/json"`.
    /// - Throws: ``ProbeInputError/invalidHeaderExpectation(_:reason:)`` when the name is not an
    ///   RFC 9110 token.
    public init(parsing text: String) throws(ProbeInputError) {
        let equals = text.firstIndex(of: "=")
        let name = equals.map { text[..<$0] } ?? text[...]
        guard HTTPToken.isToken(name) else {
            throw .invalidHeaderExpectation(text, reason: "the name must be a field name (RFC 9110 token characters)")
        }
        self.name = String(name)
        self.value = equals.map { String(text[text.index(after: $0)...]) }
    }

    /// Checks the response's header fields.
    ///
    /// - Parameter fields: the final response's fields as `(name, value)` pairs.
    /// - Returns: `nil` when the expectation holds, else what was found, e.g. `"the header
    ///   Content-Type is \"text/html\", not \"application/json\""`.
    public func failure(in fields: [(name: String, value: String)]) -> String? {
        let wanted = name.lowercased()
        let values = fields.filter { $0.name.lowercased() == wanted }.map {
            $0.value.trimmingHTTPWhitespace()
        }
        guard !values.isEmpty else { return "the response has no header \(name)" }
        guard let value else { return nil }
        if values.contains(value) { return nil }
        if Redaction.isSecretHeaderName(name) {
            return "the header \(name) has another value than the one expected (neither is shown: it is a credential)"
        }
        let found = values.map { "\"\($0)\"" }.joined(separator: ", ")
        return "the header \(name) is \(found), not \"\(value)\""
    }

    /// `"NAME"` or `"NAME=VALUE"`.
    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}

import Foundation
import Serialization

/// One request header field given with `-H 'Name: value'`.
///
/// The values of `Authorization` (RFC 9110 section 11.6.2) and `Proxy-Authorization`
/// (section 11.7.2) are credentials: ``description`` shows them as `***`, and reports never
/// show request headers at all.
public struct RequestHeader: Sendable, Equatable, CustomStringConvertible {
    /// The field name, e.g. `"Accept"`.
    public var name: String
    /// The field value, e.g. `"application/json"`.
    public var value: String
    /// Whether the value was given as a secret (the exporter's `http_headers` `secrets` and
    /// `files`): whatever the field's name, it goes only to the first URL's origin, as the
    /// credential fields do (``RedirectRules/isOriginBound(_:)``), and is shown as `***`.
    public var isSecret = false

    /// A header.
    ///
    /// - Parameters:
    ///   - name: an RFC 9110 token.
    ///   - value: a value without CR, LF or NUL.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `Name: value` as curl's `-H` takes it: the first `:` splits, blanks around the
    /// value are dropped.
    ///
    /// - Parameters:
    ///   - text: e.g. `"Accept: application/json"`.
    ///   - option: The option that gave it, for messages (`-H` or `--proxy-header`).
    /// - Throws: ``ProbeInputError/invalidRequestHeader(name:reason:option:)`` without a `:`,
    ///   with a name that is not a token, or with CR, LF or NUL in the value (which could add lines).
    public init(parsing text: String, option: String = "-H") throws(ProbeInputError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw .invalidRequestHeader(name: nil, reason: "write it as 'Name: value'", option: option)
        }
        let name = text[..<colon]
        guard HTTPToken.isToken(name) else {
            throw .invalidRequestHeader(
                name: nil, reason: "the name before ':' must be a field name (RFC 9110 token)", option: option)
        }
        let value = text[text.index(after: colon)...]
        guard HTTPToken.isFieldValue(value) else {
            throw .invalidRequestHeader(name: String(name), reason: "the value may not contain CR, LF or NUL", option: option)
        }
        self.name = String(name)
        self.value = value.trimmingHTTPWhitespace()
    }

    /// Whether the value is a credential: `Authorization` or `Proxy-Authorization`.
    public var isCredential: Bool {
        let lowered = name.lowercased()
        return lowered == "authorization" || lowered == "proxy-authorization"
    }

    /// The line for libcurl's `CURLOPT_HTTPHEADER`: `"Name: value"`.
    public var line: String { "\(name): \(value)" }

    /// `"Name: value"`, or `"Name: ***"` for a credential or a secret.
    public var description: String { isCredential || isSecret ? "\(name): ***" : line }
}

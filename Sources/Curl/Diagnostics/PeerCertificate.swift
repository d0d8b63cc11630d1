import Serialization

/// One certificate of the chain the TLS peer presented, as libcurl's OpenSSL backend describes
/// it in `CURLINFO_CERTINFO` (asked for with `CURLOPT_CERTINFO`).
///
/// libcurl gives each certificate as `Name:value` lines: `Subject`, `Issuer`, `Version`,
/// `Serial Number`, `Signature Algorithm`, `Start date`, `Expire date`, the X509v3 extensions
/// by OpenSSL's names (`X509v3 Subject Alternative Name`, ...) and `Cert` (PEM). Values are
/// OpenSSL's text: names like `"CN = localhost"`, dates like `"Jan  2 03:04:05 2025 GMT"`.
/// The first certificate is the peer's own (the leaf).
public struct PeerCertificate: Sendable, Equatable {
    /// Every `Name:value` pair, in libcurl's order.
    public var fields: [HeaderField]

    /// A certificate from libcurl's `Name:value` pairs.
    ///
    /// - Parameter fields: the pairs, in libcurl's order.
    public init(fields: [HeaderField]) {
        self.fields = fields
    }

    /// The first value for `name` (exact, as libcurl spells it), or `nil`.
    ///
    /// - Parameter name: a libcurl certinfo name, e.g. `"Subject"` or `"Expire date"`.
    /// - Returns: the value, or `nil` when the certificate has no such line.
    public func value(for name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The subject distinguished name (`Subject`), e.g. `"CN = localhost"`.
    public var subject: String? { value(for: "Subject") }

    /// The issuer distinguished name (`Issuer`).
    public var issuer: String? { value(for: "Issuer") }

    /// Start of validity (`Start date`), OpenSSL's text, e.g. `"Jan  2 03:04:05 2025 GMT"`.
    public var notBefore: String? { value(for: "Start date") }

    /// End of validity (`Expire date`), OpenSSL's text, e.g. `"Jan  2 03:04:05 2026 GMT"`.
    public var notAfter: String? { value(for: "Expire date") }

    /// The subject alternative names as OpenSSL prints them, e.g. `["DNS:localhost",
    /// "IP Address:127.0.0.1"]` (the `X509v3 Subject Alternative Name` line split at `", "`);
    /// empty when the certificate has none.
    public var subjectAlternativeNames: [String] {
        guard let line = value(for: "X509v3 Subject Alternative Name") else { return [] }
        return line.split(separator: ", ")
            .map { $0.trimmingLineWhitespace() }
            .filter { !$0.isEmpty }
    }

    /// The certificate in PEM (`Cert`), or `nil`.
    public var pem: String? { value(for: "Cert") }
}

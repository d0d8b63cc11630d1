import Foundation

/// A pinned public key in libcurl's form (`CURLOPT_PINNEDPUBLICKEY`): `"sha256//"` followed by
/// the base64 of the SHA-256 digest (32 bytes) of the key's DER `SubjectPublicKeyInfo`, as
/// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
/// base64` prints it (the form of RFC 7469's `pin-sha256`).
public struct PublicKeyPin: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The pin as written, e.g. `"sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="`.
    public let text: String

    /// Parses a pin.
    ///
    /// - Parameter text: `"sha256//"` + 44 base64 characters.
    /// - Throws: ``ProbeInputError/invalidPin(_:reason:)`` when the prefix is missing or the
    ///   base64 does not decode to 32 bytes.
    public init(parsing text: String) throws(ProbeInputError) {
        let prefix = "sha256//"
        guard text.hasPrefix(prefix) else {
            throw .invalidPin(
                text, reason: "a pin starts with \"sha256//\" followed by base64 (curl's CURLOPT_PINNEDPUBLICKEY form)")
        }
        guard let digest = Data(base64Encoded: String(text.dropFirst(prefix.count))), digest.count == 32 else {
            throw .invalidPin(text, reason: "the base64 after \"sha256//\" must decode to 32 bytes (a SHA-256 digest)")
        }
        self.text = text
    }

    /// A pin known to be well formed, e.g. a constant.
    init(wellFormed text: String) { self.text = text }

    /// The pin as written.
    public var description: String { text }
}

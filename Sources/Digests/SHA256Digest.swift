import Serialization

/// A SHA-256 digest (FIPS 180-4): 32 bytes, computed by OpenSSL's libcrypto (`EVP_sha256`).
///
/// Shown as 64 lower-case hex digits (``hex``) or in the OCI form `"sha256:" + 64 hex`
/// (``prefixedHex``; OCI image spec, "Digests"), which registries send in
/// `Docker-Content-Digest` and image references carry after `@`.
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes, big-endian words as FIPS 180-4 writes them.
    public let bytes: [UInt8]

    /// The digest of a message.
    ///
    /// - Parameter message: The bytes to hash, e.g. `Array(text.utf8)` or a `Data`.
    public init(of message: some Sequence<UInt8>) {
        var hasher = SHA256Hasher()
        hasher.update(message)
        self = hasher.finalize()
    }

    /// A digest from its 32 bytes.
    ///
    /// - Parameter bytes: Exactly 32 bytes; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A digest from 64 hex digits (upper or lower case), with or without the `sha256:` prefix.
    ///
    /// - Parameter text: e.g. `"sha256:e3b0c442…b855"`.
    /// - Returns: `nil` unless the text is 64 hex digits after an optional `sha256:`.
    public init?(hex text: String) {
        let digits = Array((text.hasPrefix("sha256:") ? text.dropFirst(7) : Substring(text)).utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = HexDigit.value(of: digits[index]), let low = HexDigit.value(of: digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// 64 lower-case hex digits, e.g. `"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"`
    /// for no bytes.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `"sha256:" + 64 lower-case hex digits`, the OCI digest form.
    public var prefixedHex: String { "sha256:" + hex }

    /// The OCI form, `"sha256:" + 64 hex`.
    public var description: String { prefixedHex }
}

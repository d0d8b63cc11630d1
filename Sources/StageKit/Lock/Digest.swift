import Digests

/// A content digest as image references, registries and the lockfile write it:
/// `ALGORITHM:HEX`, e.g. `"sha256:" + 64 hex`.
///
/// Accepted as Docker accepts them (the `go-digest` package behind `docker pull`): the
/// algorithms `sha256` (64 hex digits), `sha384` (96) and `sha512` (128), hex in lower case
/// only. OCI image spec, "Digests"; distribution spec, "Pulling manifests".
public struct Digest: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The algorithm, e.g. `sha256`.
    public let algorithm: String
    /// The encoded part: lower-case hex digits.
    public let hex: String

    /// The hex length of each algorithm Docker accepts.
    static let hexLengths = ["sha256": 64, "sha384": 96, "sha512": 128]

    /// Reads `ALGORITHM:HEX`.
    ///
    /// - Parameter text: e.g. `sha256:e3b0c442…b855`.
    /// - Throws: `DigestError` naming what is wrong: no `:`, an algorithm other than sha256,
    ///   sha384 and sha512, a wrong number of digits, or digits that are not lower-case hex.
    public init(parsing text: String) throws(DigestError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw DigestError(text: text, reason: "expected ALGORITHM:HEX, e.g. sha256: and 64 hex digits")
        }
        let algorithm = String(text[..<colon])
        let hex = String(text[text.index(after: colon)...])
        guard let length = Self.hexLengths[algorithm] else {
            throw DigestError(text: text, reason: "unsupported digest algorithm '\(algorithm)' (use sha256, sha384 or sha512)")
        }
        guard hex.utf8.count == length else {
            throw DigestError(
                text: text, reason: "a \(algorithm) digest has \(length) hex digits, this one has \(hex.utf8.count)")
        }
        guard hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw DigestError(text: text, reason: "the digits of a digest are lower-case hex (0-9, a-f)")
        }
        self.algorithm = algorithm
        self.hex = hex
    }

    /// The SHA-256 digest of bytes.
    ///
    /// - Parameter bytes: e.g. a manifest body or a template file's bytes.
    /// - Returns: `"sha256:" + 64 hex`.
    public static func sha256(of bytes: some Sequence<UInt8>) -> Digest {
        Digest(SHA256Digest(of: bytes))
    }

    /// The digest of a SHA-256 result.
    ///
    /// - Parameter digest: The 32 bytes.
    public init(_ digest: SHA256Digest) {
        algorithm = "sha256"
        hex = digest.hex
    }

    /// Whether bytes hash to this digest.
    ///
    /// - Parameter bytes: The content, e.g. a manifest body.
    /// - Returns: The answer, or `nil` for an algorithm other than sha256, which stagebuild
    ///   cannot compute.
    public func isDigest(of bytes: [UInt8]) -> Bool? {
        guard algorithm == "sha256" else { return nil }
        return Digest.sha256(of: bytes) == self
    }

    /// `ALGORITHM:HEX`.
    public var description: String { "\(algorithm):\(hex)" }

    /// Orders by the text form.
    public static func < (lhs: Digest, rhs: Digest) -> Bool { lhs.description < rhs.description }
}

/// Text that is not a digest Docker would accept.
public struct DigestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    /// `invalid digest 'TEXT': REASON`.
    public var description: String { "invalid digest '\(text)': \(reason)" }
}

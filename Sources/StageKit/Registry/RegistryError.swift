/// A registry resolution that failed, naming the image and the hop: which request to which
/// host, and what came back.
public struct RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// No answer from the registry or its token service (refused, name not resolved, proxy,
        /// TLS, deadline).
        case unreachable
        /// Authentication needed and not possible: no credentials for Basic, credentials or a
        /// token refused, a token service that did not give a token.
        case authentication
        /// The registry does not know the repository or the tag (404, `NAME_UNKNOWN`,
        /// `MANIFEST_UNKNOWN`).
        case unknownManifest
        /// The manifest's bytes do not hash to the digest asked for or announced.
        case digestMismatch
        /// Any other answer the distribution spec does not allow here.
        case unexpectedAnswer
    }

    /// The image as written, e.g. `debian:bookworm-slim`.
    public var image: String
    /// The request that failed, e.g. `HEAD https://registry-1.docker.io/v2/library/debian/manifests/bookworm-slim`.
    public var hop: String
    /// What went wrong.
    public var kind: Kind
    /// What happened and, where there is one, how to fix it.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - image: The image as written.
    ///   - hop: The failing request.
    ///   - kind: What went wrong.
    ///   - message: Details.
    public init(image: String, hop: String, kind: Kind, message: String) {
        self.image = image
        self.hop = hop
        self.kind = kind
        self.message = message
    }

    /// `image IMAGE: HOP: MESSAGE`.
    public var description: String { "image \(image): \(hop): \(message)" }
}

/// An image reference with the digest its registry serves for it.
public struct ResolvedImage: Sendable, Hashable {
    /// The reference resolved.
    public var reference: ImageReference
    /// The manifest's digest, `"sha256:" + 64 hex`: an image index's when the tag names
    /// several platforms.
    public var digest: Digest
    /// The manifest's media type, e.g. `application/vnd.oci.image.index.v1+json`.
    public var mediaType: String

    /// Creates a resolution.
    ///
    /// - Parameters:
    ///   - reference: The reference.
    ///   - digest: Its digest.
    ///   - mediaType: The manifest's media type.
    public init(reference: ImageReference, digest: Digest, mediaType: String) {
        self.reference = reference
        self.digest = digest
        self.mediaType = mediaType
    }
}

import Foundation

/// Resolves image references to digests through the registry HTTP API v2 (the OCI
/// distribution spec), over a ``RegistryTransport``.
///
/// For a tag: `HEAD /v2/NAME/manifests/TAG` with an `Accept` list of the OCI image index,
/// Docker manifest list, OCI image manifest and Docker image manifest v2 (distribution spec,
/// "Pulling manifests"), so that a multi-platform image answers with its index and the index
/// digest is pinned, not one platform's. The digest is the `Docker-Content-Digest` header;
/// without one (or without a media type), the manifest is fetched with `GET` and hashed, and a
/// digest header on that answer must match the bytes.
///
/// For a reference with a digest: `GET /v2/NAME/manifests/DIGEST`, and the body must hash to it.
///
/// A `401` is answered once, following its `WWW-Authenticate` challenge (Docker's token
/// authentication): `Bearer` asks the token service at `realm` for a pull token with the
/// challenge's `service` and `scope`; `Basic` sends the credentials. A registry's credentials
/// (``RegistryCredentialStore``: found for its host alone) go only to that registry's own API
/// host and to the token service its own challenge names, over HTTPS or to a registry named
/// insecure; a challenge from any other host (after a redirect) is answered anonymously.
/// Redirects (`301`, `302`, `303`, `307`, `308`) are followed up to five times;
/// `Authorization` is dropped when one leaves the host, and one from HTTPS to plain HTTP is
/// refused.
///
/// A manifest fetched with `GET` is pinned only when its body reads as the manifest or index
/// its media type names (``RegistryResponse/manifestMediaType()``).
public struct RegistryClient: Sendable {
    /// The manifest media types asked for, most wanted first.
    public static let manifestMediaTypes = [
        "application/vnd.oci.image.index.v1+json",
        "application/vnd.docker.distribution.manifest.list.v2+json",
        "application/vnd.oci.image.manifest.v1+json",
        "application/vnd.docker.distribution.manifest.v2+json",
    ]

    /// How requests are sent.
    public var transport: any RegistryTransport
    /// Where each registry's credentials are found; a registry it does not know is asked anonymously.
    public var credentials: RegistryCredentialStore
    /// Registries (`HOST:PORT` as in the reference, lower case) reached over plain HTTP.
    public var insecureRegistries: Set<String>

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: How requests are sent.
    ///   - credentials: Each registry's credentials.
    ///   - insecureRegistries: `HOST:PORT` values of registries that speak plain HTTP.
    public init(
        transport: any RegistryTransport, credentials: RegistryCredentialStore = .anonymous, insecureRegistries: [String] = []
    ) {
        self.transport = transport
        self.credentials = credentials
        self.insecureRegistries = Set(insecureRegistries.map { $0.lowercased() })
    }

    /// `https://HOST` (or `http://` for an insecure registry) where a reference's registry API lives.
    ///
    /// - Parameter reference: The image reference.
    public func baseURL(for reference: ImageReference) -> String {
        let scheme = insecureRegistries.contains(reference.domain.lowercased()) ? "http" : "https"
        return "\(scheme)://\(reference.apiHost)"
    }

    /// Resolves a reference to the digest its registry serves.
    ///
    /// - Parameter reference: The image reference.
    /// - Returns: The digest and media type.
    /// - Throws: `RegistryError` naming the image and the request that failed.
    public func resolve(_ reference: ImageReference) throws(RegistryError) -> ResolvedImage {
        var session = RegistrySession(client: self, reference: reference)
        let url = "\(baseURL(for: reference))/v2/\(reference.path)/manifests/"
        if let wanted = reference.digest { return try session.manifest(at: url, digest: wanted) }
        let manifestURL = url + reference.effectiveTag
        // A HEAD names the digest without counting as a pull; the manifest fetched by that digest
        // is what is pinned, once it hashes to it and reads as the manifest its type names.
        let (_, head) = try session.fetch("HEAD", manifestURL)
        if let header = head.header("Docker-Content-Digest"), let digest = try? Digest(parsing: header),
            digest.algorithm == "sha256"
        {
            return try session.manifest(at: url, digest: digest)
        }
        let (request, response) = try session.fetch("GET", manifestURL)
        let actual = Digest.sha256(of: response.body)
        if let header = response.header("Docker-Content-Digest"), let announced = try? Digest(parsing: header),
            announced.algorithm == "sha256", announced != actual
        {
            throw session.error(
                request, .digestMismatch,
                "digest mismatch: the registry announces \(announced) but the manifest it sent hashes to \(actual)")
        }
        return ResolvedImage(reference: reference, digest: actual, mediaType: try session.manifestMediaType(request, response))
    }
}

import JSONReader
import Serialization

extension RegistryResponse {
    /// `Content-Type` without parameters, lower case; `nil` when absent or empty.
    public var contentType: String? {
        guard let value = header("Content-Type") else { return nil }
        let type = value.prefix { $0 != ";" }.trimmingHTTPWhitespace()
        return type.isEmpty ? nil : type.lowercased()
    }

    /// The first error of a distribution-spec error body, `{"errors":[{"code":…,"message":…}]}`
    /// (OCI distribution spec, "Error Codes"); `nil` when the body holds none.
    public var distributionError: (code: String, message: String)? {
        guard let body = try? JSONDocument.parse(body), let first = body[member: "errors"]?.elements?.first,
            let code = first[member: "code"]?.stringValue
        else { return nil }
        return (code, first[member: "message"]?.stringValue ?? "")
    }

    /// The media type of a manifest answer, once its body has been read as the manifest or
    /// index that type names, as a client that pulls it would read it (containerd and crane
    /// decode the manifest before they use its digest).
    ///
    /// The type is `Content-Type` when it names one of ``RegistryClient/manifestMediaTypes``;
    /// when `Content-Type` is absent or the generic `application/json`, the body's own
    /// `mediaType`. The body must be a JSON object (read strictly: ``JSONDocument``) with
    /// `schemaVersion` 2 whose `mediaType`, when present, is the same type (Docker's types
    /// require it); a manifest has a `config` descriptor and a `layers` array of descriptors, an
    /// index a `manifests` array of descriptors, each descriptor with a `mediaType`, a
    /// `sha256`/`sha512` `digest` and a non-negative integer `size`.
    ///
    /// Source: OCI image spec v1.1, "Image Manifest", "Image Index", "Descriptors"; Docker's
    /// "Image Manifest V 2, Schema 2" (manifest and manifest list).
    ///
    /// - Returns: The media type, one of ``RegistryClient/manifestMediaTypes``.
    /// - Throws: ``ManifestAnswerError`` saying what was served instead.
    public func manifestMediaType() throws(ManifestAnswerError) -> String {
        let header = contentType
        let headerNamesManifest = header.map(RegistryClient.manifestMediaTypes.contains) ?? false
        if let header, !headerNamesManifest, header != "application/json" {
            throw ManifestAnswerError(served: header, problem: "not an image manifest")
        }
        let document: JSONValue
        do {
            document = try JSONDocument.parse(body)
        } catch {
            throw ManifestAnswerError(served: header ?? "a body", problem: "its body is not JSON (\(error))")
        }
        guard document.members != nil else {
            throw ManifestAnswerError(
                served: header ?? "a body", problem: "its body is a JSON \(document.typeName), not an object")
        }
        let bodyType = document[member: "mediaType"]
        if let bodyType, bodyType.stringValue == nil {
            throw ManifestAnswerError(served: header ?? "a body", problem: "its mediaType is a \(bodyType.typeName)")
        }
        let mediaType: String
        if let header, headerNamesManifest {
            if let named = bodyType?.stringValue, named != header {
                throw ManifestAnswerError(served: header, problem: "its body names another type, \(named)")
            }
            mediaType = header
        } else if let named = bodyType?.stringValue, RegistryClient.manifestMediaTypes.contains(named) {
            mediaType = named
        } else {
            let served = bodyType?.stringValue ?? header ?? "no media type"
            throw ManifestAnswerError(served: served, problem: "not an image manifest")
        }
        if mediaType.hasPrefix("application/vnd.docker.") && bodyType == nil {
            throw ManifestAnswerError(served: mediaType, problem: "its body has no mediaType, which Docker's format requires")
        }
        guard document[member: "schemaVersion"]?.integerValue == 2 else {
            throw ManifestAnswerError(served: mediaType, problem: "its body's schemaVersion is not 2")
        }
        if mediaType.hasSuffix(".index.v1+json") || mediaType.hasSuffix(".list.v2+json") {
            guard let manifests = document[member: "manifests"]?.elements else {
                throw ManifestAnswerError(served: mediaType, problem: "its body has no manifests array")
            }
            for (index, descriptor) in manifests.enumerated() {
                try Self.checkDescriptor(descriptor, "manifests[\(index)]", mediaType)
            }
        } else {
            guard let config = document[member: "config"] else {
                throw ManifestAnswerError(served: mediaType, problem: "its body has no config descriptor")
            }
            try Self.checkDescriptor(config, "config", mediaType)
            guard let layers = document[member: "layers"]?.elements else {
                throw ManifestAnswerError(served: mediaType, problem: "its body has no layers array")
            }
            for (index, descriptor) in layers.enumerated() {
                try Self.checkDescriptor(descriptor, "layers[\(index)]", mediaType)
            }
        }
        return mediaType
    }

    /// Checks one descriptor: `mediaType` a string, `digest` a digest, `size` an integer ≥ 0.
    private static func checkDescriptor(
        _ descriptor: JSONValue, _ path: String, _ mediaType: String
    ) throws(ManifestAnswerError) {
        guard descriptor[member: "mediaType"]?.stringValue != nil,
            let digest = descriptor[member: "digest"]?.stringValue, (try? Digest(parsing: digest)) != nil,
            let size = descriptor[member: "size"]?.integerValue, size >= 0
        else {
            throw ManifestAnswerError(
                served: mediaType, problem: "its \(path) is no descriptor (a mediaType, a digest and a size)")
        }
    }
}

/// A manifest answer that is no image manifest or index: what was served, and what is wrong.
public struct ManifestAnswerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The media type served (`Content-Type` or the body's), or `a body` when it named none.
    public var served: String
    /// What is wrong with it, e.g. `its body is not JSON (1:2: …)`.
    public var problem: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - served: What was served.
    ///   - problem: What is wrong.
    public init(served: String, problem: String) {
        self.served = served
        self.problem = problem
    }

    /// `the answer is SERVED, PROBLEM`.
    public var description: String { "the answer is \(served), \(problem)" }
}

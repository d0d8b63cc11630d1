import Digests
import Foundation
import JSONReader
import Serialization

/// One image of an OCI image layout (a folder with `oci-layout`, `index.json` and
/// `blobs/sha256/`), as a builder exported it: its manifest, its configuration and its layers.
///
/// Source: OCI image spec 1.1, "OCI Image Layout", "Image Manifest", "Image Configuration".
public struct OCIImage: Sendable {
    /// One layer of the manifest.
    public struct Layer: Sendable, Hashable {
        /// The blob's digest, `sha256:` and 64 hex digits: of its bytes as stored (compressed).
        public var digest: String
        /// The blob's media type, e.g. `application/vnd.oci.image.layer.v1.tar+gzip`.
        public var mediaType: String
        /// The blob's size, in bytes.
        public var size: Int
        /// The blob's path in the layout.
        public var path: String
        /// The digest of the uncompressed tar stream (the configuration's `rootfs.diff_ids`).
        public var diffID: String
    }

    /// One entry of the configuration's `history`.
    public struct HistoryEntry: Sendable, Hashable {
        /// `created_by`: the instruction as the builder recorded it.
        public var createdBy: String
        /// `empty_layer`: whether the instruction made no layer.
        public var emptyLayer: Bool
    }

    /// The manifest's digest (the image's digest as a registry names it).
    public var manifestDigest: String
    /// The configuration's digest (the image ID as buildah and Docker show it).
    public var configDigest: String
    /// The configuration as stored.
    public var configuration: JSONValue
    /// The layers, bottom first.
    public var layers: [Layer]
    /// The configuration's history, oldest first.
    public var history: [HistoryEntry]

    /// An image as a builder's own store describes it, without its blobs: its configuration
    /// and the configuration's digest (the image ID). Its layers are named by their diff IDs
    /// (the blobs' digests and paths are the diff IDs and empty), so it compares equal to
    /// another only by its configuration; a comparison that must read layers needs a layout.
    ///
    /// - Parameters:
    ///   - configuration: The configuration as the store keeps it.
    ///   - configDigest: Its digest, `sha256:` and 64 hex digits.
    public init(configuration: JSONValue, configDigest: String) {
        self.configuration = configuration
        self.configDigest = configDigest
        manifestDigest = configDigest
        let diffIDs = configuration[member: "rootfs"]?[member: "diff_ids"]?.elements?.compactMap(\.stringValue) ?? []
        layers = diffIDs.map { Layer(digest: $0, mediaType: "", size: 0, path: "", diffID: $0) }
        history = Self.history(of: configuration)
    }

    /// Reads the one image of a layout (its `index.json` names exactly one manifest, or one
    /// with the reference name given).
    ///
    /// - Parameters:
    ///   - folder: The layout's folder.
    ///   - referenceName: The `org.opencontainers.image.ref.name` to choose; `nil` takes the only one.
    ///   - fileSystem: Where the layout is read.
    /// - Throws: `VerifyError` naming the file that is missing, unreadable or not what the
    ///   spec says it is.
    ///
    /// A folder without `index.json` but with `manifest.json` is read as `docker save` wrote it
    /// before Docker 25 (``init(dockerArchive:fileSystem:)``).
    public init(layout folder: String, referenceName: String? = nil, fileSystem: any FileSystem) throws(VerifyError) {
        if fileSystem.status(at: folder + "/index.json") == nil, fileSystem.status(at: folder + "/manifest.json") != nil {
            self = try OCIImage(dockerArchive: folder, fileSystem: fileSystem)
            return
        }
        func document(_ path: String, digest: String? = nil) throws(VerifyError) -> JSONValue {
            try Self.document(path, inside: folder, digest: digest, fileSystem: fileSystem)
        }
        func blobPath(_ descriptor: JSONValue?) throws(VerifyError) -> (digest: String, path: String) {
            // The lockfile's digest reading: hex digits only, so no path can leave the layout.
            guard let text = descriptor?[member: "digest"]?.stringValue, let digest = try? Digest(parsing: text),
                digest.algorithm == "sha256"
            else { throw VerifyError("\(folder): a descriptor without a sha256 digest") }
            return (text, folder + "/blobs/sha256/" + digest.hex)
        }
        let manifests = try document(folder + "/index.json")[member: "manifests"]?.elements ?? []
        let chosen = manifests.filter { manifest in
            referenceName == nil
                || manifest[member: "annotations"]?[member: "org.opencontainers.image.ref.name"]?.stringValue
                    == referenceName
        }
        guard chosen.count == 1 else {
            throw VerifyError(
                "\(folder)/index.json names \(chosen.count) images\(referenceName.map { " called \($0)" } ?? ""), not one")
        }
        let manifestBlob = try blobPath(chosen[0])
        let manifest = try document(manifestBlob.path, digest: manifestBlob.digest)
        let configBlob = try blobPath(manifest[member: "config"])
        configuration = try document(configBlob.path, digest: configBlob.digest)
        manifestDigest = manifestBlob.digest
        configDigest = configBlob.digest
        let diffIDs = configuration[member: "rootfs"]?[member: "diff_ids"]?.elements?.compactMap(\.stringValue) ?? []
        let descriptors = manifest[member: "layers"]?.elements ?? []
        guard diffIDs.count == descriptors.count else {
            throw VerifyError(
                "\(configBlob.path): \(diffIDs.count) diff IDs for the manifest's \(descriptors.count) layers")
        }
        var layers: [Layer] = []
        for (descriptor, diffID) in zip(descriptors, diffIDs) {
            let blob = try blobPath(descriptor)
            try Self.checkInside(folder, blob.path)
            layers.append(
                Layer(
                    digest: blob.digest, mediaType: descriptor[member: "mediaType"]?.stringValue ?? "",
                    size: descriptor[member: "size"]?.integerValue ?? 0, path: blob.path, diffID: diffID))
        }
        self.layers = layers
        history = Self.history(of: configuration)
    }

    /// Reads the one image of an unpacked `docker save` archive in the form Docker wrote before
    /// version 25: `manifest.json` (`[{"Config": "HEX.json", "Layers": ["ID/layer.tar", …]}]`),
    /// the configuration in `HEX.json` (its name is its digest) and each layer an uncompressed
    /// tar stream, whose digest is its diff ID.
    ///
    /// Source: moby `image/spec/v1.2.md` ("Combined Image JSON + Filesystem Changeset Format").
    ///
    /// - Parameters:
    ///   - folder: The archive's folder.
    ///   - fileSystem: Where it is read.
    /// - Throws: `VerifyError` naming the file that is missing, unreadable or not that form.
    public init(dockerArchive folder: String, fileSystem: any FileSystem) throws(VerifyError) {
        let images = try Self.document(folder + "/manifest.json", inside: folder, fileSystem: fileSystem).elements ?? []
        guard images.count == 1, let configName = images[0][member: "Config"]?.stringValue else {
            throw VerifyError("\(folder)/manifest.json names \(images.count) images, not one")
        }
        // Each name must stay inside the folder: a name is a relative path without `..`.
        func inside(_ name: String) throws(VerifyError) -> String {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." }) else {
                throw VerifyError("\(folder)/manifest.json: \(name) is not a path inside the archive")
            }
            return folder + "/" + name
        }
        let hex = configName.hasSuffix(".json") ? String(configName.dropLast(5)) : ""
        guard let digest = try? Digest(parsing: "sha256:" + hex) else {
            throw VerifyError("\(folder)/manifest.json: the configuration \(configName) is not named HEX.json")
        }
        configDigest = digest.description
        configuration = try Self.document(try inside(configName), inside: folder, digest: configDigest, fileSystem: fileSystem)
        manifestDigest = configDigest
        let diffIDs = configuration[member: "rootfs"]?[member: "diff_ids"]?.elements?.compactMap(\.stringValue) ?? []
        let names = images[0][member: "Layers"]?.elements?.compactMap(\.stringValue) ?? []
        guard diffIDs.count == names.count else {
            throw VerifyError("\(folder)/\(configName): \(diffIDs.count) diff IDs for the manifest's \(names.count) layers")
        }
        var layers: [Layer] = []
        for (name, diffID) in zip(names, diffIDs) {
            let path = try inside(name)
            try Self.checkInside(folder, path)
            // The layer is stored uncompressed: its digest is its diff ID.
            layers.append(
                Layer(
                    digest: diffID, mediaType: "application/vnd.docker.image.rootfs.diff.tar", size: 0, path: path,
                    diffID: diffID))
        }
        self.layers = layers
        history = Self.history(of: configuration)
    }

    /// Checks that each layer's blob is what its digest says (SHA-256 of the file, read in
    /// parts): a layout whose blob was replaced, its configuration left as it was, would
    /// otherwise compare as the image its configuration names. The configuration and the
    /// manifest are checked as they are read.
    ///
    /// - Throws: `VerifyError` naming the first blob that cannot be read or is not its digest.
    public func checkLayerDigests() throws(VerifyError) {
        for layer in layers where !layer.path.isEmpty {
            guard let handle = FileHandle(forReadingAtPath: layer.path) else {
                throw VerifyError("cannot read \(layer.path)")
            }
            defer { try? handle.close() }
            var hasher = SHA256Hasher()
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
            let found = "sha256:" + hasher.finalize().hex
            guard found == layer.digest else {
                throw VerifyError("\(layer.path) is not the blob its digest names: \(layer.digest), found \(found)")
            }
        }
    }

    /// Refuses a path that leads outside the folder once symbolic links are followed (a blob or
    /// folder of the layout linked to a file elsewhere).
    private static func checkInside(_ folder: String, _ path: String) throws(VerifyError) {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw VerifyError("\(path) leads outside \(folder) (a symbolic link): not read")
        }
    }

    /// A JSON file of the layout, read and parsed once it is known to be inside the folder and,
    /// with a digest, to be the file the digest names.
    private static func document(
        _ path: String, inside folder: String, digest: String? = nil, fileSystem: any FileSystem
    ) throws(VerifyError) -> JSONValue {
        try checkInside(folder, path)
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readBytes(at: path)
        } catch {
            throw VerifyError("cannot read \(path): \(error.reason)")
        }
        if let digest, Digest.sha256(of: bytes).description != digest {
            throw VerifyError("\(path) is not the blob its digest names: \(digest)")
        }
        do {
            return try JSONDocument.parse(bytes)
        } catch {
            throw VerifyError("\(path) is not JSON: \(error)")
        }
    }

    private static func history(of configuration: JSONValue) -> [HistoryEntry] {
        (configuration[member: "history"]?.elements ?? []).map { entry in
            HistoryEntry(
                createdBy: entry[member: "created_by"]?.stringValue ?? "",
                emptyLayer: entry[member: "empty_layer"] == .bool(true))
        }
    }
}

/// An image layout or a build that cannot be read or compared, in words for the user.
public struct VerifyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error with its words.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) {
        self.message = message
    }

    /// The message as is.
    public var description: String { message }
}

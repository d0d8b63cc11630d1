import Foundation
import Serialization

extension Lockfile {
    /// The file's text: JSON, keys sorted by byte value, two-space indentation, one trailing newline.
    public var text: String {
        var imageMembers: [(String, JSONValue)] = []
        for (key, image) in images {
            imageMembers.append(
                (
                    key,
                    .sortedObject([
                        ("digest", .string(image.digest.description)), ("integrity", .string(image.integrity.description)),
                        ("mediaType", .string(image.mediaType)),
                        ("name", .string(image.name)), ("reference", .string(image.reference)),
                    ])
                ))
        }
        let templateMembers = templates.map { ($0.key, JSONValue.object([("digest", .string($0.value.description))])) }
        let packageMembers = packages.map { key, package in
            (
                key,
                JSONValue.sortedObject([
                    ("architecture", .string(package.architecture)), ("filename", .string(package.filename)),
                    ("integrity", .string(package.integrity.description)), ("name", .string(package.name)),
                    ("sha256", .string(package.sha256)), ("suite", .string(package.suite)), ("version", .string(package.version)),
                ])
            )
        }
        var members: [(String, JSONValue)] = [
            ("formatVersion", .integer(formatVersion)), ("images", .sortedObject(imageMembers)),
            ("inputsDigest", .string(inputsDigest.description)), ("packages", .sortedObject(packageMembers)),
            ("templates", .sortedObject(templateMembers)),
        ]
        if let debianSnapshot { members.append(("debianSnapshot", .string(debianSnapshot))) }
        let document = JSONValue.sortedObject(members)
        return document.text() + "\n"
    }

    /// Reads a lockfile's text.
    ///
    /// - Parameter text: The file's content.
    /// - Throws: `LockfileError` for text that is not JSON, a format version this stagebuild
    ///   does not read, a missing or mistyped field, an invalid digest, or an entry whose
    ///   `reference` differs from its key.
    public init(parsing text: String) throws(LockfileError) {
        let data = Data(text.utf8)
        let version: Int
        do {
            version = try JSONDecoder().decode(VersionField.self, from: data).formatVersion
        } catch {
            throw LockfileError("not a stagebuild lockfile (expected a JSON object with formatVersion): \(Self.describe(error))")
        }
        guard version == Self.formatVersion else {
            throw LockfileError(
                "format \(version) is not the format \(Self.formatVersion) this stagebuild reads; run stagebuild lock to rewrite it"
            )
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw LockfileError("malformed lockfile: \(Self.describe(error)); run stagebuild lock to rewrite it")
        }
        func digest(_ text: String, _ field: String) throws(LockfileError) -> Digest {
            do {
                return try Digest(parsing: text)
            } catch {
                throw LockfileError("\(field): \(error.description)")
            }
        }
        var images: [String: Image] = [:]
        for (key, entry) in document.images {
            guard entry.reference == key else {
                throw LockfileError("images.\(key): its reference is \(entry.reference), not its key")
            }
            var image = Image(
                reference: entry.reference, name: entry.name, digest: try digest(entry.digest, "images.\(key).digest"),
                mediaType: entry.mediaType)
            image.recordedIntegrity = try digest(entry.integrity, "images.\(key).integrity")
            images[key] = image
        }
        var templates: [String: Digest] = [:]
        for (name, entry) in document.templates {
            templates[name] = try digest(entry.digest, "templates.\(name).digest")
        }
        var packages: [String: Package] = [:]
        for (key, entry) in document.packages {
            var package = Package(
                ResolvedPackage(
                    written: key,
                    entry: PackagesIndex.Entry(
                        name: entry.name, version: entry.version, architecture: entry.architecture, filename: entry.filename,
                        sha256: entry.sha256), suite: entry.suite))
            package.recordedIntegrity = try digest(entry.integrity, "packages.\(key).integrity")
            packages[key] = package
        }
        if let snapshot = document.debianSnapshot, !DebianArchiveState.isSnapshotTime(snapshot) {
            throw LockfileError("debianSnapshot: '\(snapshot)' is no snapshot time YYYYMMDDTHHMMSSZ")
        }
        self.packages = packages
        self.debianSnapshot = document.debianSnapshot
        self.formatVersion = version
        self.images = images
        self.templates = templates
        self.inputsDigest = try digest(document.inputsDigest, "inputsDigest")
    }

    private struct VersionField: Decodable {
        var formatVersion: Int
    }

    private struct Document: Decodable {
        struct ImageEntry: Decodable {
            var digest: String
            var integrity: String
            var mediaType: String
            var name: String
            var reference: String
        }

        struct TemplateEntry: Decodable {
            var digest: String
        }

        struct PackageEntry: Decodable {
            var architecture: String
            var filename: String
            var integrity: String
            var name: String
            var sha256: String
            var suite: String
            var version: String
        }

        var debianSnapshot: String?
        var images: [String: ImageEntry]
        var packages: [String: PackageEntry]
        var inputsDigest: String
        var templates: [String: TemplateEntry]
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing field \((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not valid JSON" : "invalid value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default:
            return "\(error)"
        }
    }
}

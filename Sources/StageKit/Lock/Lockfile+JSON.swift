import JSONReader
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
                    ("architecture", .string(package.architecture)), ("archive", .string(package.archive)),
                    ("filename", .string(package.filename)),
                    ("integrity", .string(package.integrity.description)), ("name", .string(package.name)),
                    ("sha256", .string(package.sha256)), ("suite", .string(package.suite)), ("version", .string(package.version)),
                ])
            )
        }
        var members: [(String, JSONValue)] = [
            ("formatVersion", .integer(formatVersion)), ("images", .sortedObject(imageMembers)),
            ("inputsDigest", .string(inputsDigest.description)), ("packages", .sortedObject(packageMembers)),
            ("snapshots", .sortedObject(snapshots.map { ($0.key, JSONValue.string($0.value)) })),
            ("templates", .sortedObject(templateMembers)),
            ("unverifiedPackages", .array(unverifiedPackages.map(JSONValue.string))),
            ("packageArchives", .sortedObject(packageArchives.map { ($0.key, JSONValue.string($0.value)) })),
        ]
        if let architecture { members.append(("architecture", .string(architecture))) }
        let document = JSONValue.sortedObject(members)
        return document.text() + "\n"
    }

    /// Reads a lockfile's text, strictly: what `stagebuild lock` writes and nothing another
    /// reader could take differently.
    ///
    /// - Parameter text: The file's content.
    /// - Throws: `LockfileError` for text that is not JSON or that a strict reader refuses (a
    ///   member named twice, as a merge that kept both sides writes it: Foundation would read
    ///   the first, jq, Python and Go the last; see ``JSONReader/JSONDocument``), with its line
    ///   and column; a format version this stagebuild does not read; a member missing, of
    ///   another type or not one the format has; an invalid digest; an entry whose `reference`
    ///   differs from its key.
    public init(parsing text: String) throws(LockfileError) {
        let document: JSONValue
        do {
            document = try JSONDocument.parse(text)
        } catch {
            throw LockfileError(
                "not a stagebuild lockfile: \(error.message)", line: error.line,
                column: error.column)
        }
        let reader = Reader(path: "")
        let version = try reader.integer(document, "formatVersion")
        guard version == Self.formatVersion else {
            throw LockfileError(
                "format \(version) is not the format \(Self.formatVersion) this stagebuild reads"
            )
        }
        try reader.onlyMembers(
            of: document,
            [
                "architecture", "formatVersion", "images", "inputsDigest", "packageArchives", "packages", "snapshots",
                "templates", "unverifiedPackages",
            ])
        var images: [String: Image] = [:]
        for (key, entry) in try reader.object(document, "images") {
            let entryReader = Reader(path: "images.\(key)")
            try entryReader.onlyMembers(of: entry, ["digest", "integrity", "mediaType", "name", "reference"])
            let reference = try entryReader.string(entry, "reference")
            guard reference == key else {
                throw LockfileError("images.\(key): its reference is \(reference), not its key")
            }
            var image = Image(
                reference: reference, name: try entryReader.string(entry, "name"),
                digest: try entryReader.digest(entry, "digest"), mediaType: try entryReader.string(entry, "mediaType"))
            image.recordedIntegrity = try entryReader.digest(entry, "integrity")
            images[key] = image
        }
        var templates: [String: Digest] = [:]
        for (name, entry) in try reader.object(document, "templates") {
            let entryReader = Reader(path: "templates.\(name)")
            try entryReader.onlyMembers(of: entry, ["digest"])
            templates[name] = try entryReader.digest(entry, "digest")
        }
        var packages: [String: Package] = [:]
        for (key, entry) in try reader.object(document, "packages") {
            let entryReader = Reader(path: "packages.\(key)")
            try entryReader.onlyMembers(
                of: entry, ["architecture", "archive", "filename", "integrity", "name", "sha256", "suite", "version"])
            var package = Package(
                ResolvedPackage(
                    written: key,
                    entry: PackagesIndex.Entry(
                        name: try entryReader.string(entry, "name"), version: try entryReader.string(entry, "version"),
                        architecture: try entryReader.string(entry, "architecture"),
                        filename: try entryReader.string(entry, "filename"), sha256: try entryReader.string(entry, "sha256")),
                    suite: try entryReader.string(entry, "suite"), source: try entryReader.string(entry, "archive")))
            package.recordedIntegrity = try entryReader.digest(entry, "integrity")
            packages[key] = package
        }
        var snapshots: [String: String] = [:]
        for (parameter, _) in try reader.object(document, "snapshots") {
            let time = try Reader(path: "snapshots").string(document[member: "snapshots"] ?? .null, parameter)
            guard AptArchive.isSnapshotTime(time) else {
                throw LockfileError("snapshots.\(parameter): '\(time)' is no snapshot time YYYYMMDDTHHMMSSZ")
            }
            snapshots[parameter] = time
        }
        let unverifiedValue = try reader.value(document, "unverifiedPackages")
        guard let unverifiedElements = unverifiedValue.elements else {
            throw LockfileError("unverifiedPackages is a JSON \(unverifiedValue.typeName), not an array")
        }
        var unverified: [String] = []
        for element in unverifiedElements {
            guard let pin = element.stringValue else {
                throw LockfileError("unverifiedPackages holds a JSON \(element.typeName)")
            }
            unverified.append(pin)
        }
        var archives: [String: String] = [:]
        for (pin, value) in try reader.object(document, "packageArchives") {
            guard let text = value.stringValue else {
                throw LockfileError("packageArchives.\(pin) is a JSON \(value.typeName), not a string")
            }
            archives[pin] = text
        }
        self.packageArchives = archives
        self.architecture = document[member: "architecture"] == nil ? nil : try reader.string(document, "architecture")
        self.packages = packages
        self.snapshots = snapshots
        self.unverifiedPackages = unverified
        self.formatVersion = version
        self.images = images
        self.templates = templates
        self.inputsDigest = try reader.digest(document, "inputsDigest")
    }

    /// Reads the members of one object of the document, naming the path of what is wrong.
    private struct Reader {
        /// The object's path, e.g. `images.debian:bookworm-slim`; empty for the document.
        var path: String

        func name(_ member: String) -> String { path.isEmpty ? member : "\(path).\(member)" }

        func value(_ object: JSONValue, _ member: String) throws(LockfileError) -> JSONValue {
            guard object.members != nil else { throw LockfileError("\(path.isEmpty ? "the document" : path) is not an object") }
            guard let value = object[member: member] else { throw LockfileError("missing field \(name(member))") }
            return value
        }

        func string(_ object: JSONValue, _ member: String) throws(LockfileError) -> String {
            let value = try value(object, member)
            guard let text = value.stringValue else {
                throw LockfileError("\(name(member)) is a JSON \(value.typeName), not a string")
            }
            return text
        }

        func integer(_ object: JSONValue, _ member: String) throws(LockfileError) -> Int {
            let value = try value(object, member)
            guard let number = value.integerValue else {
                throw LockfileError("\(name(member)) is a JSON \(value.typeName), not an integer")
            }
            return number
        }

        func digest(_ object: JSONValue, _ member: String) throws(LockfileError) -> Digest {
            let text = try string(object, member)
            do {
                return try Digest(parsing: text)
            } catch {
                throw LockfileError("\(name(member)): \(error.description)")
            }
        }

        func object(_ object: JSONValue, _ member: String) throws(LockfileError) -> [(String, JSONValue)] {
            let value = try value(object, member)
            guard let members = value.members else {
                throw LockfileError("\(name(member)) is a JSON \(value.typeName), not an object")
            }
            return members
        }

        /// Refuses a member the format does not have: it would be read by no one, and a
        /// reviewer could take it for one that counts.
        func onlyMembers(of object: JSONValue, _ names: Set<String>) throws(LockfileError) {
            guard let members = object.members else {
                throw LockfileError("\(path.isEmpty ? "the document" : path) is a JSON \(object.typeName), not an object")
            }
            if let unknown = members.first(where: { !names.contains($0.0) }) {
                throw LockfileError("\(name(unknown.0)) is not a field of a stagebuild lockfile")
            }
        }
    }
}

import DockerfileSyntax

/// `stagebuild.lock`, the file beside the Stagefile that pins every image of the composition
/// by digest, every apt package pin to the `.deb` its build stage's archive holds for it, and
/// records each stage template's content digest.
///
/// It is JSON with keys sorted by byte value, two-space indentation and one trailing newline,
/// so the same lock is the same bytes on every machine. Each image and package entry carries
/// the SHA-256 of its own fields (`integrity`), so an accidental edit is caught offline, naming
/// the entry (the digest is not keyed: `lock --check --online` catches a forged one);
/// `inputsDigest` covers which images, package pins and templates there are, the snapshot
/// moments the Stagefile gives and those recorded, and the pins recorded as unverified.
/// `snapshots` holds the snapshot moment the packages were resolved at, per template parameter
/// (`DEBIAN_SNAPSHOT`, `UBUNTU_SNAPSHOT`; absent: the live archive); compose writes each where
/// the Stagefile gives that parameter none. `unverifiedPackages` lists the pins lock could not
/// check, because no template declares the archive their build stage reads them from.
///
/// ```json
/// {
///   "formatVersion": 4,
///   "images": {
///     "debian:bookworm-slim": {
///       "digest": "sha256:…",
///       "integrity": "sha256:…",
///       "mediaType": "application/vnd.oci.image.index.v1+json",
///       "name": "docker.io/library/debian:bookworm-slim",
///       "reference": "debian:bookworm-slim"
///     }
///   },
///   "inputsDigest": "sha256:…",
///   "packages": {
///     "curl=7.88.1-10+deb12u14": {
///       "architecture": "amd64",
///       "archive": "http://snapshot.debian.org/archive/debian-security/20251130T022141Z",
///       "filename": "pool/updates/main/c/curl/curl_7.88.1-10+deb12u14_amd64.deb",
///       "integrity": "sha256:…",
///       "name": "curl",
///       "sha256": "…64 hex…",
///       "suite": "bookworm-security",
///       "version": "7.88.1-10+deb12u14"
///     }
///   },
///   "snapshots": {
///     "DEBIAN_SNAPSHOT": "20251130T022141Z"
///   },
///   "templates": {
///     "debian": {
///       "digest": "sha256:…"
///     }
///   },
///   "unverifiedPackages": []
/// }
/// ```
public struct Lockfile: Sendable, Hashable {
    /// The lockfile's name; it lives in the Stagefile's folder.
    public static let fileName = "stagebuild.lock"
    /// The format this stagebuild reads and writes; bumped when the meaning of a field changes
    /// (2: each image entry has `integrity`; 3: Debian package pins and the snapshot time; 4:
    /// pins of any apt archive with the archive each came from, snapshots per parameter, pins
    /// left unverified).
    public static let formatVersion = 4

    /// One pinned image.
    public struct Image: Sendable, Hashable {
        /// The reference as written in the Stagefile or template, e.g. `debian:bookworm-slim`.
        public var reference: String
        /// The full name that was resolved, e.g. `docker.io/library/debian:bookworm-slim`.
        public var name: String
        /// The digest of what the registry served for the tag: an image index when the image
        /// has several platforms (`"sha256:" + 64 hex`).
        public var digest: Digest
        /// The manifest's media type, e.g. `application/vnd.oci.image.index.v1+json`.
        public var mediaType: String
        /// The `integrity` the file recorded for the entry; for an entry made in memory, its own.
        public var recordedIntegrity: Digest

        /// The SHA-256 of the entry's fields, one per line in key order: what `integrity`
        /// records, so that editing any of them shows.
        public var integrity: Digest { Self.integrity(digest: digest, mediaType: mediaType, name: name, reference: reference) }

        private static func integrity(digest: Digest, mediaType: String, name: String, reference: String) -> Digest {
            Digest.sha256(of: "\(digest)\n\(mediaType)\n\(name)\n\(reference)\n".utf8)
        }

        /// True when the file's `integrity` does not match the entry's fields: it was edited.
        public var isEdited: Bool { recordedIntegrity != integrity }

        /// Why the entry is not what `stagebuild lock` writes, even with a matching integrity
        /// digest (recomputed by hand): `nil` when it is.
        public var invalidity: String? {
            guard let parsed = try? ImageReference(parsing: reference) else { return "its reference does not parse" }
            if name != parsed.canonical { return "its name is \(name), not \(parsed.canonical)" }
            if !RegistryClient.manifestMediaTypes.contains(mediaType) {
                return "its media type \(mediaType) is no image manifest or index"
            }
            return nil
        }

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - reference: The reference as written.
        ///   - name: The full name resolved.
        ///   - digest: The resolved digest.
        ///   - mediaType: The manifest's media type.
        public init(reference: String, name: String, digest: Digest, mediaType: String) {
            self.reference = reference
            self.name = name
            self.digest = digest
            self.mediaType = mediaType
            self.recordedIntegrity = Self.integrity(digest: digest, mediaType: mediaType, name: name, reference: reference)
        }
    }

    /// One apt package pin as its archive holds it.
    public struct Package: Sendable, Hashable {
        /// The pin as written, e.g. `curl=7.88.1-10+deb12u14`: the entry's key.
        public var pin: String
        /// The package name, e.g. `curl`.
        public var name: String
        /// The version, e.g. `7.88.1-10+deb12u14`.
        public var version: String
        /// The `.deb`'s architecture, e.g. `amd64` or `all`.
        public var architecture: String
        /// The suite whose index holds it, e.g. `bookworm-security`.
        public var suite: String
        /// The archive URL that holds the suite, e.g. `http://deb.debian.org/debian-security`.
        public var archive: String
        /// The `.deb`'s path from the archive's root (the index's `Filename`).
        public var filename: String
        /// The `.deb`'s SHA-256, 64 lower-case hex (the index's `SHA256`).
        public var sha256: String
        /// The `integrity` the file recorded for the entry; for an entry made in memory, its own.
        public var recordedIntegrity: Digest

        /// The SHA-256 of the entry's fields, one per line in key order.
        public var integrity: Digest {
            Self.integrity(of: [architecture, archive, filename, name, pin, sha256, suite, version])
        }

        private static func integrity(of fields: [String]) -> Digest {
            Digest.sha256(of: fields.map { $0 + "\n" }.joined().utf8)
        }

        /// True when the file's `integrity` does not match the entry's fields: it was edited.
        public var isEdited: Bool { recordedIntegrity != integrity }

        /// Why the entry is not what `stagebuild lock` writes, even with a matching integrity
        /// digest (recomputed by hand): `nil` when it is.
        public var invalidity: String? {
            guard let parsed = PackagePin(operand: pin, file: "", location: SourceLocation(line: 1, column: 1), isQuoted: false)
            else { return "its key is no NAME=VERSION pin" }
            if parsed.name != name || parsed.version != version { return "its name and version are not its key's" }
            if sha256.utf8.count != 64 || !sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
                return "its sha256 is not 64 lower-case hex digits"
            }
            return nil
        }

        /// Creates an entry.
        ///
        /// - Parameter resolved: The pin as the archive holds it.
        public init(_ resolved: ResolvedPackage) {
            pin = resolved.written
            name = resolved.entry.name
            version = resolved.entry.version
            architecture = resolved.entry.architecture
            suite = resolved.suite
            archive = resolved.source
            filename = resolved.entry.filename
            sha256 = resolved.entry.sha256
            recordedIntegrity = Self.integrity(of: [
                architecture, archive, filename, name, pin, sha256, suite, version,
            ])
        }
    }

    /// The format version the file was written with.
    public var formatVersion: Int
    /// Pinned images by their reference as written.
    public var images: [String: Image]
    /// Content digests of the templates by name.
    public var templates: [String: Digest]
    /// Pinned apt packages by their pin as written.
    public var packages: [String: Package] = [:]
    /// The snapshot moments the packages were resolved at (`YYYYMMDDTHHMMSSZ`), by template
    /// parameter (`DEBIAN_SNAPSHOT`); a parameter without one was read at the live archive.
    public var snapshots: [String: String] = [:]
    /// The pins `stagebuild lock` could not check (their build stage's archive is not
    /// declared), sorted.
    public var unverifiedPackages: [String] = []
    /// The apt archives each pin was read from when the lockfile was written
    /// (``LockInputs/packageArchives``): another archive now (a URL, a release, a key, a pin
    /// moved to another build stage) makes the lockfile stale.
    public var packageArchives: [String: String] = [:]
    /// The build architecture the packages were resolved for, e.g. `amd64`; `nil` without pins.
    public var architecture: String?
    /// The digest of all inputs (``LockInputs/digest``) when the file was written.
    public var inputsDigest: Digest

    /// A lockfile for inputs and their resolved images.
    ///
    /// - Parameters:
    ///   - inputs: The composition's images, package pins and templates.
    ///   - resolved: The resolution of each image of `inputs` (others are ignored).
    ///   - packages: The resolution of each package pin of `inputs` (others are ignored).
    ///   - unverifiedPackages: The pins of `inputs` that could not be checked.
    ///   - snapshots: The snapshot moments they were resolved at, by parameter.
    public init(
        inputs: LockInputs, resolved: [ResolvedImage], packages: [ResolvedPackage] = [], unverifiedPackages: [String] = [],
        snapshots: [String: String] = [:]
    ) {
        if !inputs.packages.isEmpty {
            self.packageArchives = inputs.packageArchives
            self.architecture = inputs.architecture
        }
        let pins = Set(inputs.packages)
        for package in packages where pins.contains(package.written) { self.packages[package.written] = Package(package) }
        self.unverifiedPackages = Set(unverifiedPackages).intersection(pins).sorted(by: LockInputs.precedes)
        self.snapshots = snapshots
        var byWritten: [String: ResolvedImage] = [:]
        for image in resolved { byWritten[image.reference.written] = image }
        var images: [String: Image] = [:]
        for reference in inputs.images {
            guard let image = byWritten[reference.written] else { continue }
            images[reference.written] = Image(
                reference: reference.written, name: reference.canonical, digest: image.digest, mediaType: image.mediaType)
        }
        self.formatVersion = Self.formatVersion
        self.images = images
        self.templates = inputs.templates
        self.inputsDigest = inputs.digest(
            lockedSnapshots: snapshots, unverifiedPackages: self.unverifiedPackages, lockedArchitecture: architecture,
            lockedPackageArchives: packageArchives)
    }

    /// Why the lockfile does not match a composition's inputs; empty when it is current.
    ///
    /// Works without network access: it compares names and digests only.
    ///
    /// - Parameter inputs: The composition's inputs now.
    /// - Returns: Each difference: images, package pins, the snapshot, templates, then edited
    ///   entries, each sorted by name.
    public func staleness(against inputs: LockInputs) -> [LockStaleness] {
        guard formatVersion == Self.formatVersion else { return [.formatVersion(found: formatVersion)] }
        var reasons: [LockStaleness] = []
        let current = Set(inputs.images.map(\.written))
        let locked = Set(images.keys)
        reasons += current.subtracting(locked).sorted(by: LockInputs.precedes).map { .imageAdded($0) }
        reasons += locked.subtracting(current).sorted(by: LockInputs.precedes).map { .imageRemoved($0) }
        let currentPins = Set(inputs.packages)
        let lockedPins = Set(packages.keys).union(unverifiedPackages)
        reasons += currentPins.subtracting(lockedPins).sorted(by: LockInputs.precedes).map { .packageAdded($0) }
        reasons += lockedPins.subtracting(currentPins).sorted(by: LockInputs.precedes).map { .packageRemoved($0) }
        for parameter in inputs.snapshots.keys.sorted(by: LockInputs.precedes) {
            guard let wanted = inputs.snapshots[parameter], wanted != snapshots[parameter] else { continue }
            reasons.append(.snapshotChanged(parameter: parameter, locked: snapshots[parameter], current: wanted))
        }
        for name in Set(inputs.templates.keys).union(templates.keys).sorted(by: LockInputs.precedes) {
            switch (templates[name], inputs.templates[name]) {
            case (nil, .some): reasons.append(.templateAdded(name))
            case (.some, nil): reasons.append(.templateRemoved(name))
            case (.some(let old), .some(let new)) where old != new:
                reasons.append(.templateChanged(name, locked: old, current: new))
            default: break
            }
        }
        for key in images.keys.sorted(by: LockInputs.precedes) {
            guard let image = images[key] else { continue }
            if image.isEdited {
                reasons.append(.imageEdited(key))
            } else if let invalid = image.invalidity {
                reasons.append(.imageEntryInvalid(key, reason: invalid))
            }
        }
        for key in packages.keys.sorted(by: LockInputs.precedes) {
            guard let package = packages[key] else { continue }
            if package.isEdited {
                reasons.append(.packageEdited(key))
            } else if let invalid = package.invalidity {
                reasons.append(.packageEntryInvalid(key, reason: invalid))
            }
        }
        for pin in currentPins.intersection(lockedPins).sorted(by: LockInputs.precedes)
        where (inputs.packageArchives[pin] ?? "") != (packageArchives[pin] ?? "") {
            reasons.append(
                .packageArchivesChanged(pin, locked: packageArchives[pin] ?? "", current: inputs.packageArchives[pin] ?? ""))
        }
        if let wanted = inputs.architecture, let architecture, wanted != architecture, !packages.isEmpty {
            reasons.append(.architectureChanged(locked: architecture, current: wanted))
        }
        if reasons.isEmpty
            && inputsDigest
                != inputs.digest(
                    lockedSnapshots: snapshots, unverifiedPackages: unverifiedPackages, lockedArchitecture: architecture,
                    lockedPackageArchives: packageArchives)
        {
            reasons.append(.inputsDigestMismatch)
        }
        return reasons
    }
}

/// A lockfile that cannot be read.
public struct LockfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var reason: String
    /// The 1-based line of the text where it is, when the JSON reader says.
    public var line: Int?
    /// The 1-based column there, in Unicode scalars.
    public var column: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - line: The line, when known.
    ///   - column: The column, when known.
    public init(_ reason: String, line: Int? = nil, column: Int? = nil) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// The reason, after `LINE:COLUMN: ` when known.
    public var description: String { line.map { "\($0):\(column ?? 1): \(reason)" } ?? reason }
}

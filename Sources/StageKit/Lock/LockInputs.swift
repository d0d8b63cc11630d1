/// What a lockfile pins and checks: the image references of a composition (each once, as
/// written), the apt package pins of its `RUN`s (each once, as written), the snapshot moments
/// the Stagefile gives its templates, and the content digest of each stage template it used.
/// The Stagefile's other lines are not inputs: editing a `LABEL` does not make the lock stale.
public struct LockInputs: Sendable, Hashable {
    /// The image references, each written form once, sorted by it.
    public let images: [ImageReference]
    /// Each template's content digest (`"sha256:" + 64 hex` of its bytes), by template name.
    public let templates: [String: Digest]
    /// The package pins as written, e.g. `curl=7.88.1-10+deb12u12`, each once, sorted.
    public let packages: [String]
    /// The snapshot moments the Stagefile binds (`YYYYMMDDTHHMMSSZ`), by parameter, e.g.
    /// `DEBIAN_SNAPSHOT`.
    public let snapshots: [String: String]
    /// The apt archives each package pin is read from, by pin: the canonical line of each
    /// archive (``AptArchive/canonical(keyDigest:)``) of its build stage, `+` between archives
    /// of one stage, ` | ` between stages; empty for a stage that declares none.
    public var packageArchives: [String: String] = [:]
    /// The build's architecture when the lock is for one; `nil` when unknown (then not compared).
    public var architecture: String?

    /// Inputs from references and template digests.
    ///
    /// - Parameters:
    ///   - images: The references in any order; repeated written forms count once.
    ///   - templates: Content digests by template name.
    ///   - packages: Package pins as written, in any order; repeated ones count once.
    ///   - snapshots: The snapshot moments the Stagefile gives, by parameter.
    public init(
        images: [ImageReference], templates: [String: Digest], packages: [String] = [], snapshots: [String: String] = [:]
    ) {
        var seen: Set<String> = []
        self.images = images.filter { seen.insert($0.written).inserted }.sorted { Self.precedes($0.written, $1.written) }
        self.templates = templates
        self.packages = Set(packages).sorted(by: Self.precedes)
        self.snapshots = snapshots
    }

    /// The SHA-256 of all inputs in one canonical text (format version, then one line per image,
    /// per package pin and per template, sorted by byte value, and the snapshots), recorded in
    /// the lockfile as `inputsDigest`.
    ///
    /// - Parameters:
    ///   - lockedSnapshots: The snapshots the lockfile records (`lock --snapshot`), so that a
    ///     hand edit of one is caught as any other entry's.
    ///   - unverifiedPackages: The pins the lockfile records as not checked, likewise.
    ///   - lockedArchitecture: The architecture the lockfile records, likewise.
    ///   - lockedPackageArchives: The archives the lockfile records per pin, likewise.
    public func digest(
        lockedSnapshots: [String: String], unverifiedPackages: [String] = [], lockedArchitecture: String? = nil,
        lockedPackageArchives: [String: String] = [:]
    ) -> Digest {
        var lines = ["stagebuild.lock format \(Lockfile.formatVersion)"]
        lines += images.map { "image \($0.written)" }
        lines += packages.map { "package \($0)" }
        lines += unverifiedPackages.sorted(by: Self.precedes).map { "unverified-package \($0)" }
        lines += snapshots.keys.sorted(by: Self.precedes).map { "snapshot \($0) \(snapshots[$0] ?? "")" }
        lines += lockedSnapshots.keys.sorted(by: Self.precedes).map { "locked-snapshot \($0) \(lockedSnapshots[$0] ?? "")" }
        if let lockedArchitecture { lines.append("locked-architecture \(lockedArchitecture)") }
        lines += lockedPackageArchives.keys.sorted(by: Self.precedes).map {
            "locked-package-archives \($0) \(lockedPackageArchives[$0] ?? "")"
        }
        lines += templates.keys.sorted(by: Self.precedes).map { "template \($0) \(templates[$0]?.description ?? "")" }
        return Digest.sha256(of: (lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Byte-value order of UTF-8 text, the same on every machine and locale.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

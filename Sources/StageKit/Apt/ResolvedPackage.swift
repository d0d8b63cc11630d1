/// A package pin found in the archive: what `stagebuild.lock` records for it.
public struct ResolvedPackage: Sendable, Hashable {
    /// The pin as written (quotes removed), e.g. `curl=7.88.1-10+deb12u12`.
    public var written: String
    /// The archive's entry: name, version, architecture, `.deb` path and SHA-256.
    public var entry: PackagesIndex.Entry
    /// The suite whose index holds it, e.g. `bookworm-security` (the first in the sources' order).
    public var suite: String
    /// The archive URL that holds the suite, e.g. `http://deb.debian.org/debian-security`.
    public var source: String

    /// Creates a resolution.
    ///
    /// - Parameters: one per property.
    public init(written: String, entry: PackagesIndex.Entry, suite: String, source: String) {
        self.written = written
        self.entry = entry
        self.suite = suite
        self.source = source
    }
}

/// A package pin `stagebuild lock` could not resolve, or an archive it could not read or trust.
public struct PackageResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is, for the exit status.
    public enum Kind: Sendable, Hashable {
        /// The archive does not hold the version asked for (bad input: exit 65).
        case missingVersion
        /// The archive could not be reached, answered wrongly, or its signature or a checksum
        /// failed (exit 69).
        case archive
        /// The declaration does not match the archive: a component or suite it does not serve
        /// for the build's architecture (bad input: exit 65).
        case declaration
    }

    /// The kind.
    public var kind: Kind
    /// What is wrong, naming the package, the archive state and what is there.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - kind: The kind; `.archive` unless said.
    public init(_ message: String, kind: Kind = .archive) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// A tar stream that cannot be read: libarchive's message for it.
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What libarchive said, e.g. `Damaged tar archive`.
    public var reason: String

    /// An error with libarchive's words.
    ///
    /// - Parameter reason: The message.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The message as is.
    public var description: String { reason }
}

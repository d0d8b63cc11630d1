import Digests

/// One entry of a tar stream as its header and content describe it: what a layer of an image
/// holds at one path.
public struct TarEntry: Sendable, Hashable {
    /// What kind of file an entry is (POSIX `typeflag`).
    public enum FileType: String, Sendable, Hashable {
        case regular, directory, symbolicLink, hardLink, characterDevice, blockDevice, fifo, socket
    }

    /// The path as the header writes it, without a leading `./` or `/`; a directory's path
    /// without its trailing `/`.
    public var path: String
    /// The entry's type.
    public var type: FileType
    /// The permission bits with set-user-ID, set-group-ID and sticky (`mode & 0o7777`).
    public var permissions: UInt32
    /// The owner's numeric user ID.
    public var userID: Int64
    /// The owner's numeric group ID.
    public var groupID: Int64
    /// The modification time, in whole seconds since the epoch.
    public var modificationSeconds: Int64
    /// The nanoseconds of the modification time past its second (pax headers only; 0 otherwise).
    public var modificationNanoseconds: Int64
    /// The content's length, in bytes (0 for anything but a regular file).
    public var size: Int64
    /// A symbolic link's target, or the path a hard link names.
    public var linkTarget: String?
    /// Extended attributes (pax `SCHILY.xattr.` records), by name, with their values' SHA-256.
    public var extendedAttributes: [String: SHA256Digest]
    /// A regular file's content's SHA-256; `nil` for every other type.
    public var contentDigest: SHA256Digest?
    /// The first bytes of a regular file's content, as many as the reader was asked to keep
    /// for this path; the content's length is ``size``.
    public var contentPrefix: [UInt8]

    /// An entry as a reader builds it.
    public init(
        path: String, type: FileType, permissions: UInt32, userID: Int64, groupID: Int64, modificationSeconds: Int64,
        modificationNanoseconds: Int64 = 0, size: Int64, linkTarget: String? = nil,
        extendedAttributes: [String: SHA256Digest] = [:], contentDigest: SHA256Digest? = nil, contentPrefix: [UInt8] = []
    ) {
        self.path = path
        self.type = type
        self.permissions = permissions
        self.userID = userID
        self.groupID = groupID
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.size = size
        self.linkTarget = linkTarget
        self.extendedAttributes = extendedAttributes
        self.contentDigest = contentDigest
        self.contentPrefix = contentPrefix
    }
}

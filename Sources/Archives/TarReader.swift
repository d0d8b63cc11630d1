import CArchive
import Digests

/// A tar stream read entry by entry with libarchive, in whatever compression it has (gzip,
/// zstd, none, …), each entry's content hashed as it streams past, so memory does not grow
/// with the archive: what an image layer (an OCI layer blob) holds.
///
/// Source: POSIX.1-2017 `pax` (ustar and pax headers), libarchive's `archive_read(3)` and
/// `archive_entry(3)`; OCI image spec, "Image Layer Filesystem Changeset".
public final class TarReader {
    private let archive: OpaquePointer

    /// Opens a tar stream stored in a file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: `ArchiveError` when the file cannot be opened or is not a tar stream.
    public init(path: String) throws(ArchiveError) {
        guard let archive = archive_read_new() else { throw ArchiveError("libarchive could not start a reader") }
        self.archive = archive
        archive_read_support_filter_all(archive)
        archive_read_support_format_tar(archive)
        // An empty layer is an empty tar stream (two zero blocks), which libarchive calls empty.
        archive_read_support_format_empty(archive)
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            // deinit frees the reader: every stored property is set.
            throw ArchiveError(Self.message(archive))
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// The stream's compression as libarchive names it (`gzip`, `zstd`, `none`), known once
    /// the first entry is read.
    public var compression: String {
        guard let name = archive_filter_name(archive, 0) else { return "none" }
        return String(cString: name)
    }

    /// Reads the next entry and its content.
    ///
    /// - Parameter keepingPrefix: How many of a regular file's first bytes to keep in
    ///   `contentPrefix`, given its path; the rest is hashed and dropped.
    /// - Returns: The entry, or `nil` at the end of the stream.
    /// - Throws: `ArchiveError` for a damaged or truncated stream.
    public func next(keepingPrefix: (String) -> Int = { _ in 0 }) throws(ArchiveError) -> TarEntry? {
        var header: OpaquePointer?
        let status = archive_read_next_header(archive, &header)
        if status == ARCHIVE_EOF { return nil }
        guard status >= ARCHIVE_WARN, let header else { throw ArchiveError(Self.message(archive)) }
        let path = Self.normalized(archive_entry_pathname(header).map { String(cString: $0) } ?? "")
        let hardLink = archive_entry_hardlink(header).map { String(cString: $0) }
        let type = hardLink != nil ? .hardLink : Self.fileType(archive_entry_filetype(header))
        var entry = TarEntry(
            path: path, type: type, permissions: UInt32(archive_entry_perm(header)) | Self.specialBits(header),
            userID: archive_entry_uid(header), groupID: archive_entry_gid(header),
            modificationSeconds: Int64(archive_entry_mtime(header)),
            modificationNanoseconds: Int64(archive_entry_mtime_nsec(header)),
            size: type == .regular ? archive_entry_size(header) : 0,
            linkTarget: hardLink.map(Self.normalized) ?? archive_entry_symlink(header).map { String(cString: $0) })
        entry.extendedAttributes = Self.extendedAttributes(header)
        if type == .regular {
            try readContent(into: &entry, keeping: max(0, keepingPrefix(path)))
        }
        return entry
    }

    private func readContent(into entry: inout TarEntry, keeping limit: Int) throws(ArchiveError) {
        var hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else { throw ArchiveError(Self.message(archive)) }
            let chunk = buffer[..<count]
            hasher.update(chunk)
            if entry.contentPrefix.count < limit {
                entry.contentPrefix.append(contentsOf: chunk.prefix(limit - entry.contentPrefix.count))
            }
        }
        entry.contentDigest = hasher.finalize()
    }

    private static func normalized(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    private static func specialBits(_ header: OpaquePointer) -> UInt32 {
        UInt32(archive_entry_mode(header)) & 0o7000
    }

    private static func fileType(_ mode: mode_t) -> TarEntry.FileType {
        switch Int32(mode) & 0o170000 {
        case 0o040000: return .directory
        case 0o120000: return .symbolicLink
        case 0o020000: return .characterDevice
        case 0o060000: return .blockDevice
        case 0o010000: return .fifo
        case 0o140000: return .socket
        default: return .regular
        }
    }

    private static func extendedAttributes(_ header: OpaquePointer) -> [String: SHA256Digest] {
        var attributes: [String: SHA256Digest] = [:]
        guard archive_entry_xattr_reset(header) > 0 else { return attributes }
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        while archive_entry_xattr_next(header, &name, &value, &size) == ARCHIVE_OK, let name {
            let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
            attributes[String(cString: name)] = SHA256Digest(of: bytes)
        }
        return attributes
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive failed (\(archive_errno(archive)))"
    }
}

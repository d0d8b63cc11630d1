import Digests
import Foundation

/// The file operations StageKit needs, so that tests and the CLI choose where files come from.
public protocol FileSystem: Sendable {
    /// Reads a UTF-8 text file.
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The text.
    /// - Throws: `FileSystemError` when the file is missing, unreadable or not UTF-8.
    func readText(at path: String) throws(FileSystemError) -> String

    /// Writes a UTF-8 text file so that readers see the old content or the new, never a part
    /// (the CLI's outputs: compose's Dockerfile, the lockfile, rewritten pins).
    ///
    /// - Parameters:
    ///   - text: The new content.
    ///   - path: An absolute path.
    /// - Returns: False when the file already held exactly this text (it is left as is).
    /// - Throws: `FileSystemError` when it cannot be written; the file is then untouched.
    @discardableResult
    func write(_ text: String, to path: String) throws(FileSystemError) -> Bool

    /// Reads a file's bytes, whatever they are (a binary key, say).
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The bytes.
    /// - Throws: `FileSystemError` when the file is missing or unreadable.
    func readBytes(at path: String) throws(FileSystemError) -> [UInt8]

    /// The names of the entries of a directory, sorted by byte value so that no listing
    /// order of the underlying file system leaks into results.
    ///
    /// - Parameter path: An absolute directory path.
    /// - Returns: Entry names, or an empty array when the directory does not exist.
    func entries(ofDirectory path: String) -> [String]

    /// The path with every symbolic link resolved, or `nil` when it does not exist.
    ///
    /// - Parameter path: An absolute path.
    func resolvingSymlinks(_ path: String) -> String?

    /// Whether anything exists at the path itself, a dangling symbolic link included (a
    /// dangling `.stagebuild.yaml` is a config that cannot be read, not no config).
    ///
    /// - Parameter path: An absolute path.
    func entryExists(at path: String) -> Bool

    /// What is at the path itself (a symbolic link is not followed), as a build context holds
    /// it; `nil` when nothing is there.
    ///
    /// - Parameter path: An absolute path.
    func status(at path: String) -> FileStatus?

    /// The ID git gives a file's content (`GitObjectFormat.blobID(of:)`); a file system that
    /// knows it without reading the file (a git revision's tree) gives it so.
    ///
    /// - Parameters:
    ///   - path: An absolute path of a regular file.
    ///   - format: The repository's object format.
    /// - Throws: `FileSystemError` when the file cannot be read.
    func blobID(at path: String, format: GitObjectFormat) throws(FileSystemError) -> String

    /// The blob IDs of many files at once (one helper process for all, where one is needed);
    /// a file that cannot be read has none.
    ///
    /// - Parameters:
    ///   - paths: Absolute paths of regular files.
    ///   - format: The repository's object format.
    /// - Returns: Each readable file's ID by path.
    func blobIDs(at paths: [String], format: GitObjectFormat) -> [String: String]
}

extension FileSystem {
    /// A text file's UTF-8 bytes: a file system that holds only text reads bytes so.
    ///
    /// - Parameter path: An absolute path.
    public func readBytes(at path: String) throws(FileSystemError) -> [UInt8] { Array(try readText(at: path).utf8) }

    /// Whether the path resolves: a file system that knows no links has no dangling ones.
    ///
    /// - Parameter path: An absolute path.
    public func entryExists(at path: String) -> Bool { resolvingSymlinks(path) != nil }

    /// The blob ID of the file's bytes as read.
    public func blobID(at path: String, format: GitObjectFormat) throws(FileSystemError) -> String {
        format.blobID(of: try readBytes(at: path))
    }

    /// Each file's ``blobID(at:format:)``.
    public func blobIDs(at paths: [String], format: GitObjectFormat) -> [String: String] {
        var ids: [String: String] = [:]
        for path in paths { ids[path] = try? blobID(at: path, format: format) }
        return ids
    }

    /// A file system that holds only text: a path with entries below it is a folder, one it
    /// can read is a file with permissions 0644.
    ///
    /// - Parameter path: An absolute path.
    public func status(at path: String) -> FileStatus? {
        if (try? readText(at: path)) != nil { return .file(permissions: 0o644) }
        return entryExists(at: path) ? .directory(permissions: 0o755) : nil
    }

    /// The folders a project-level search looks in, nearest first: `directory` (symbolic links
    /// resolved) and each parent up to the repository root, the first folder that holds a
    /// `.git` entry; up to `/` when there is none. The catalog's `Stages/` and lint's
    /// `.stagebuild.yaml` are both found this way.
    ///
    /// - Parameter directory: An absolute folder.
    /// - Returns: The folders, and the repository root when one was found.
    public func foldersUpToRepositoryRoot(from directory: String) -> (folders: [String], repositoryRoot: String?) {
        var current = resolvingSymlinks(directory) ?? directory
        var folders: [String] = []
        // Bounded by the depth of the path: each step removes one component.
        while true {
            folders.append(current)
            if entryExists(at: current == "/" ? "/.git" : current + "/.git") { return (folders, current) }
            let parent = Paths.directory(of: current)
            if parent == current || current == "/" { return (folders, nil) }
            current = parent
        }
    }
}

/// What an entry of a folder is, with what a builder copies of it besides its bytes
/// (permission bits; a symbolic link's target), from lstat(2).
public enum FileStatus: Sendable, Hashable {
    /// A regular file and its permission bits (e.g. `0o755`).
    case file(permissions: Int)
    /// A folder and its permission bits.
    case directory(permissions: Int)
    /// A symbolic link and the path it holds.
    case symbolicLink(target: String)
    /// A device, socket or pipe: builders skip or refuse it.
    case other
}

extension FileSystem {
    /// A file system that only reads (a git revision, a test's files in memory) refuses every
    /// write.
    @discardableResult
    public func write(_ text: String, to path: String) throws(FileSystemError) -> Bool {
        throw FileSystemError(path: path, reason: "this file system is read only")
    }
}

/// A file that could not be read.
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// Why, e.g. `No such file or directory`.
    public var reason: String
    /// True when the file was read but its bytes are not UTF-8 text: bad input data rather
    /// than an I/O failure.
    public var isMalformedText: Bool

    /// True when there is no file at the path.
    public var isMissing: Bool { reason == Self.missingReason }

    /// The reason given for a path where no file exists (strerror of ENOENT).
    public static let missingReason = "No such file or directory"

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - reason: Why it failed.
    ///   - isMalformedText: Whether the file was read but is not UTF-8.
    public init(path: String, reason: String, isMalformedText: Bool = false) {
        self.path = path
        self.reason = reason
        self.isMalformedText = isMalformedText
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// The machine's own file system.
public struct LocalFileSystem: FileSystem {
    /// Creates the local file system.
    public init() {}

    /// Writes a file atomically (``AtomicFile``); see `FileSystem.write(_:to:)`.
    @discardableResult
    public func write(_ text: String, to path: String) throws(FileSystemError) -> Bool {
        try AtomicFile.write(text, to: path)
    }

    /// Reads a UTF-8 file; see `FileSystem.readText(at:)`.
    public func readText(at path: String) throws(FileSystemError) -> String {
        let bytes = try readBytes(at: path)
        // Not String(data:encoding:), which silently drops a byte order mark.
        do {
            return try LintSourceText.decode(bytes)
        } catch {
            let reason = "\(error.message) (line \(error.line), column \(error.column))"
            throw FileSystemError(path: path, reason: reason, isMalformedText: true)
        }
    }

    /// The most a file may hold: 64 MiB, far above any Stagefile, template, lockfile or config.
    public static let maximumFileBytes = 64 << 20

    /// A file's bytes, read with open(2) and read(2) so that a failure carries the system's
    /// reason (strerror) and a directory is named as such; see `FileSystem.readBytes(at:)`.
    /// Only a regular file is read, or a stream named for what it is (`/dev/stdin`,
    /// `/dev/fd/N`, as a shell's `<(…)` gives): a FIFO or device found under a file's name would
    /// block or never end. At most ``maximumFileBytes`` are read.
    public func readBytes(at path: String) throws(FileSystemError) -> [UInt8] {
        func failure(_ code: Int32) -> FileSystemError { FileSystemError(path: path, reason: String(cString: strerror(code))) }
        let isNamedStream = path == "/dev/stdin" || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/")
        // Non-blocking, so that opening a FIFO does not wait for a writer before it is looked at.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw FileSystemError(path: path, reason: "is a directory")
        case S_IFREG: break
        default:
            guard isNamedStream else {
                throw FileSystemError(path: path, reason: "is not a regular file (a FIFO, socket or device); give a file")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        let tooLarge = FileSystemError(
            path: path, reason: "is larger than \(Self.maximumFileBytes >> 20) MiB, more than stagebuild reads")
        guard status.st_size <= Self.maximumFileBytes else { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, status.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            bytes += chunk[..<count]
            if bytes.count > Self.maximumFileBytes { throw tooLarge }
        }
    }

    /// Sorted entry names; see `FileSystem.entries(ofDirectory:)`.
    public func entries(ofDirectory path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// lstat(2): true for any entry, a dangling symbolic link included.
    public func entryExists(at path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// lstat(2) and, for a symbolic link, readlink(2).
    public func status(at path: String) -> FileStatus? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let permissions = Int(status.st_mode) & 0o7777
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file(permissions: permissions)
        case S_IFDIR: return .directory(permissions: permissions)
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, Int(PATH_MAX))
            guard count >= 0 else { return .other }
            return .symbolicLink(target: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        default: return .other
        }
    }

    /// Resolves symbolic links with realpath(3).
    public func resolvingSymlinks(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

import Digests
import Foundation
import StageKit
import Synchronization

/// A git revision's files as a file system, at the working tree's own paths: the tree comes
/// from one `git ls-tree` (paths, modes, blob IDs), a file's bytes from `git cat-file`
/// when something reads it (the Stagefile, templates, the lockfile, `.dockerignore`), and a
/// build context file's content ID straight from the tree, so a revision is compared without
/// writing a checkout. Paths outside the repository are the machine's own (an installed catalog).
struct GitRevisionFileSystem: FileSystem {
    /// One entry of the tree.
    struct Entry: Sendable {
        /// git's mode: `040000` folder, `100644` file, `100755` executable, `120000` link,
        /// `160000` submodule.
        var mode: String
        /// The object's ID.
        var id: String
    }

    /// The repository's root (its working tree's, symbolic links resolved).
    let root: String
    /// git, run in the repository.
    let git: GitCommand
    /// Every entry by absolute path.
    let entries: [String: Entry]
    /// Each folder's entry names, sorted by byte value.
    let children: [String: [String]]
    /// Blobs read so far, by ID.
    private let blobs = BlobCache()
    /// The machine's files, outside the repository.
    private let local = LocalFileSystem()

    /// The most bytes one `git cat-file --batch` reads ahead for the files beside the one asked
    /// for: a catalog's templates are read one after another, one git process serves them all.
    static let readAheadLimit = 1 << 20

    /// Reads a revision's tree.
    ///
    /// - Parameters:
    ///   - root: The repository's root.
    ///   - git: git.
    ///   - listing: `git ls-tree -r -t -z --full-tree COMMIT`'s output.
    init(root: String, git: GitCommand, listing: [UInt8]) {
        self.root = root
        self.git = git
        var entries: [String: Entry] = [:]
        var children: [String: [String]] = [root: []]
        // Each record: MODE SP TYPE SP ID TAB PATH NUL.
        for record in listing.split(separator: 0) {
            guard let tab = record.firstIndex(of: 9) else { continue }
            let fields = record[..<tab].split(separator: 32)
            guard fields.count == 3 else { continue }
            let relative = String(decoding: record[(tab + 1)...], as: UTF8.self)
            let folder = relative.lastIndex(of: "/").map { root + "/" + relative[..<$0] } ?? root
            let name = relative.lastIndex(of: "/").map { String(relative[relative.index(after: $0)...]) } ?? relative
            entries[root + "/" + relative] = Entry(
                mode: String(decoding: fields[0], as: UTF8.self), id: String(decoding: fields[2], as: UTF8.self))
            children[folder, default: []].append(name)
        }
        self.entries = entries
        self.children = children.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    /// Whether a path is the repository's root or inside it.
    private func isInside(_ path: String) -> Bool { path == root || path.hasPrefix(root + "/") }

    func readText(at path: String) throws(FileSystemError) -> String {
        let bytes = try readBytes(at: path)
        do {
            return try LintSourceText.decode(bytes)
        } catch {
            throw FileSystemError(
                path: path, reason: "\(error.message) (line \(error.line), column \(error.column))", isMalformedText: true)
        }
    }

    func readBytes(at path: String) throws(FileSystemError) -> [UInt8] {
        // A link is read through, as the working tree's would be (a bounded number of them).
        var path = path
        for _ in 0..<8 {
            guard isInside(path), let entry = entries[path], entry.mode == "120000" else { break }
            let target = String(decoding: try blob(of: entry, at: path), as: UTF8.self)
            path = Paths.absolute(target, from: Paths.directory(of: path))
        }
        guard isInside(path) else { return try local.readBytes(at: path) }
        guard let entry = entries[path] else { throw FileSystemError(path: path, reason: FileSystemError.missingReason) }
        return try blob(of: entry, at: path)
    }

    /// An entry's own bytes (a link's are its target), with the files beside it read ahead.
    private func blob(of entry: Entry, at path: String) throws(FileSystemError) -> [UInt8] {
        guard entry.mode.hasPrefix("100") || entry.mode == "120000" else {
            throw FileSystemError(path: path, reason: entry.mode == "040000" ? "is a directory" : "is not a file")
        }
        if let known = blobs.blob(entry.id) { return known }
        // The files beside it come along, up to the read-ahead limit: their sizes first, from
        // the objects' headers only.
        let folder = Paths.directory(of: path)
        let siblings = (children[folder] ?? []).compactMap { name -> String? in
            guard let sibling = entries[folder + "/" + name], sibling.mode.hasPrefix("100"), sibling.id != entry.id,
                blobs.blob(sibling.id) == nil
            else { return nil }
            return sibling.id
        }
        var wanted = [entry.id]
        if !siblings.isEmpty {
            var budget = Self.readAheadLimit
            for (id, size) in try sizes(of: siblings, for: path) where size <= budget {
                wanted.append(id)
                budget -= size
            }
        }
        try fetch(wanted, for: path)
        guard let bytes = blobs.blob(entry.id) else {
            throw FileSystemError(path: path, reason: "git cat-file did not give blob \(entry.id)")
        }
        return bytes
    }

    /// `git cat-file` in a batch mode, one object ID per input line.
    private func catFile(_ mode: String, _ ids: [String], for path: String) throws(FileSystemError) -> [UInt8] {
        let result: ChildProcess.Result
        do {
            result = try git.run(["-C", root, "cat-file", mode], input: Array(ids.map { $0 + "\n" }.joined().utf8))
        } catch {
            throw FileSystemError(path: path, reason: error.reason)
        }
        guard result.status == 0 else {
            throw FileSystemError(
                path: path, reason: "git cat-file failed: " + String(decoding: result.errorOutput, as: UTF8.self))
        }
        return result.output
    }

    /// Blobs' sizes in bytes, in the order asked (`git cat-file --batch-check`: ID SP TYPE SP SIZE).
    private func sizes(of ids: [String], for path: String) throws(FileSystemError) -> [(String, Int)] {
        try catFile("--batch-check", ids, for: path).split(separator: 10).compactMap { line in
            let fields = line.split(separator: 32)
            guard fields.count == 3, let size = Int(String(decoding: fields[2], as: UTF8.self)) else { return nil }
            return (String(decoding: fields[0], as: UTF8.self), size)
        }
    }

    /// Reads blobs with one `git cat-file --batch` into the cache.
    private func fetch(_ ids: [String], for path: String) throws(FileSystemError) {
        // Each answer: ID SP TYPE SP SIZE LF, then SIZE bytes and LF.
        var output = try catFile("--batch", ids, for: path)[...]
        while let newline = output.firstIndex(of: 10) {
            let header = output[..<newline].split(separator: 32)
            guard header.count == 3, let size = Int(String(decoding: header[2], as: UTF8.self)) else { break }
            let start = output.index(after: newline)
            guard output.distance(from: start, to: output.endIndex) >= size else { break }
            let end = output.index(start, offsetBy: size)
            blobs.store(String(decoding: header[0], as: UTF8.self), Array(output[start..<end]))
            output = output[min(output.index(after: end), output.endIndex)...]
        }
    }

    func entries(ofDirectory path: String) -> [String] {
        isInside(path) ? children[path] ?? [] : local.entries(ofDirectory: path)
    }

    func resolvingSymlinks(_ path: String) -> String? {
        guard isInside(path) else { return local.resolvingSymlinks(path) }
        return path == root || entries[path] != nil ? path : nil
    }

    func entryExists(at path: String) -> Bool {
        // The root's .git marks the repository for the project searches, as in the working tree.
        guard isInside(path) else { return local.entryExists(at: path) }
        return path == root || path == root + "/.git" || entries[path] != nil
    }

    func status(at path: String) -> FileStatus? {
        guard isInside(path) else { return local.status(at: path) }
        if path == root { return .directory(permissions: 0o755) }
        guard let entry = entries[path] else { return nil }
        switch entry.mode {
        case "040000": return .directory(permissions: 0o755)
        case "100755": return .file(permissions: 0o755)
        case "100644": return .file(permissions: 0o644)
        case "120000":
            return (try? blob(of: entry, at: path)).map { .symbolicLink(target: String(decoding: $0, as: UTF8.self)) }
                ?? .other
        default: return .other
        }
    }

    func blobID(at path: String, format: GitObjectFormat) throws(FileSystemError) -> String {
        guard isInside(path), let entry = entries[path], entry.mode.hasPrefix("100") else {
            return format.blobID(of: try readBytes(at: path))
        }
        return entry.id
    }
}

/// Blob contents by ID, shared by the copies of one `GitRevisionFileSystem`.
private final class BlobCache: Sendable {
    private let blobs = Mutex<[String: [UInt8]]>([:])

    func blob(_ id: String) -> [UInt8]? { blobs.withLock { $0[id] } }

    func store(_ id: String, _ bytes: [UInt8]) { blobs.withLock { $0[id] = bytes } }
}

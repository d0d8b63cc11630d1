import Digests
import Foundation
import StageKit

/// The working tree as a fresh checkout of it would hold it, for comparing with a revision:
/// the files git tracks and the new files it does not ignore (`git ls-files --cached --others
/// --exclude-standard`), so that a file `.gitignore` names (build output, `node_modules`) and
/// `.git` itself are no change; content named as git names it (`git hash-object
/// --stdin-paths`: the repository's clean filters and line-end attributes applied, as the
/// revision's blobs were made). Everything is read from the machine's own files.
struct GitWorkingTreeFileSystem: FileSystem {
    /// The repository's root.
    let root: String
    /// The git program.
    let git: String
    /// The environment git runs with.
    let environment: [String: String]
    /// Each folder's visible entry names, sorted by byte value.
    let children: [String: [String]]
    /// The machine's files.
    private let local = LocalFileSystem()

    /// Reads what git sees of the working tree.
    ///
    /// - Parameters:
    ///   - root: The repository's root.
    ///   - git: The git program.
    ///   - environment: git's environment.
    ///   - listing: `git ls-files -z --cached --others --exclude-standard`'s output.
    init(root: String, git: String, environment: [String: String], listing: [UInt8]) {
        self.root = root
        self.git = git
        self.environment = environment
        var children: [String: Set<String>] = [:]
        for record in listing.split(separator: 0) {
            var path = root + "/" + String(decoding: record, as: UTF8.self)
            // Each folder up to the root holds the next.
            while path != root {
                let folder = Paths.directory(of: path)
                guard children[folder, default: []].insert(Paths.fileName(of: path)).inserted else { break }
                path = folder
            }
        }
        self.children = children.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    /// Whether a path is inside the repository.
    private func isInside(_ path: String) -> Bool { path.hasPrefix(root + "/") }

    /// Whether git sees a path: tracked, or new and not ignored (or a folder holding such).
    private func isVisible(_ path: String) -> Bool {
        guard isInside(path) else { return true }
        return children[Paths.directory(of: path)]?.contains(Paths.fileName(of: path)) ?? false
    }

    func readText(at path: String) throws(FileSystemError) -> String { try local.readText(at: path) }

    func readBytes(at path: String) throws(FileSystemError) -> [UInt8] { try local.readBytes(at: path) }

    func entries(ofDirectory path: String) -> [String] {
        path == root || isInside(path) ? children[path] ?? [] : local.entries(ofDirectory: path)
    }

    func resolvingSymlinks(_ path: String) -> String? { local.resolvingSymlinks(path) }

    func entryExists(at path: String) -> Bool { local.entryExists(at: path) }

    func status(at path: String) -> FileStatus? { isVisible(path) ? local.status(at: path) : nil }

    func blobID(at path: String, format: GitObjectFormat) throws(FileSystemError) -> String {
        guard let id = blobIDs(at: [path], format: format)[path] else {
            throw FileSystemError(path: path, reason: "git hash-object gave no ID")
        }
        return id
    }

    /// All the IDs from one `git hash-object --stdin-paths`.
    func blobIDs(at paths: [String], format: GitObjectFormat) -> [String: String] {
        guard !paths.isEmpty else { return [:] }
        // Hashed as read when git cannot say (a path git refuses, an unreadable file).
        let asRead = {
            Dictionary(
                uniqueKeysWithValues: paths.compactMap { path in
                    (try? local.readBytes(at: path)).map { (path, format.blobID(of: $0)) }
                })
        }
        guard
            let result = try? ChildProcess(
                program: git, arguments: ["-C", root, "hash-object", "--stdin-paths"], environment: environment,
                input: Array(paths.map { $0 + "\n" }.joined().utf8), deadline: 300
            ).run(), result.status == 0, !paths.contains(where: { $0.contains("\n") })
        else { return asRead() }
        let ids = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard ids.count == paths.count else { return asRead() }
        return Dictionary(zip(paths, ids), uniquingKeysWith: { first, _ in first })
    }
}

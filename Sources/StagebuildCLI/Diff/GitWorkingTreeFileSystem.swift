import Digests
import Foundation
import StageKit

/// The working tree as a fresh checkout of it would hold it, for comparing with a revision:
/// the files git tracks and the new files it does not ignore (`git ls-files`), so that a file
/// `.gitignore` names (build output, `node_modules`) and `.git` itself are no change. A tracked
/// file the working tree has not changed (`git diff-files` does not list it) is known from the
/// index — its mode and blob ID — without being read; any other file's content is named as git
/// names it (`git hash-object --stdin-paths`: the repository's clean filters and line-end
/// attributes applied, as the revision's blobs were made). Files are read from the machine.
struct GitWorkingTreeFileSystem: FileSystem {
    /// A tracked file the working tree holds as the index does.
    struct IndexEntry: Sendable {
        /// git's mode: `100644`, `100755`, `120000` (a link), `160000` (a submodule).
        var mode: String
        /// Its blob ID.
        var id: String
    }

    /// The repository's root.
    let root: String
    /// git, run in the repository.
    let git: GitCommand
    /// Each folder's visible entry names, sorted by byte value.
    let children: [String: [String]]
    /// The tracked files the working tree has not changed, by absolute path.
    let unchanged: [String: IndexEntry]
    /// The machine's files.
    private let local = LocalFileSystem()

    /// Reads what git sees of the working tree.
    ///
    /// - Parameters:
    ///   - root: The repository's root.
    ///   - git: git.
    ///   - staged: `git ls-files -z --stage`'s output (MODE SP ID SP STAGE TAB PATH NUL).
    ///   - untracked: `git ls-files -z --others --exclude-standard`'s output.
    ///   - modified: `git diff-files -z --name-only`'s output: tracked paths whose working-tree
    ///     copy differs from the index (content, mode, or gone).
    init(
        root: String, git: GitCommand, staged: [UInt8], untracked: [UInt8], modified: [UInt8]
    ) {
        self.root = root
        self.git = git
        let changed = Set(modified.split(separator: 0).map { root + "/" + String(decoding: $0, as: UTF8.self) })
        var unchanged: [String: IndexEntry] = [:]
        var paths: [String] = []
        for record in staged.split(separator: 0) {
            guard let tab = record.firstIndex(of: 9) else { continue }
            let fields = record[..<tab].split(separator: 32)
            let path = root + "/" + String(decoding: record[(tab + 1)...], as: UTF8.self)
            paths.append(path)
            // A conflicted path (stages 1 to 3) is read from the working tree.
            guard fields.count == 3, fields[2].elementsEqual("0".utf8), !changed.contains(path) else { continue }
            unchanged[path] = IndexEntry(
                mode: String(decoding: fields[0], as: UTF8.self), id: String(decoding: fields[1], as: UTF8.self))
        }
        paths += untracked.split(separator: 0).map { root + "/" + String(decoding: $0, as: UTF8.self) }
        var children: [String: Set<String>] = [:]
        for var path in paths {
            // Each folder up to the root holds the next.
            while path != root {
                let folder = Paths.directory(of: path)
                guard children[folder, default: []].insert(Paths.fileName(of: path)).inserted else { break }
                path = folder
            }
        }
        self.unchanged = unchanged
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

    func status(at path: String) -> FileStatus? {
        guard isVisible(path) else { return nil }
        switch unchanged[path]?.mode {
        case "100644"?: return .file(permissions: 0o644)
        case "100755"?: return .file(permissions: 0o755)
        default: return local.status(at: path)
        }
    }

    func blobID(at path: String, format: GitObjectFormat) throws(FileSystemError) -> String {
        guard let id = blobIDs(at: [path], format: format)[path] else {
            throw FileSystemError(path: path, reason: "git hash-object gave no ID")
        }
        return id
    }

    /// The index's IDs for unchanged files; one `git hash-object --stdin-paths` for the rest.
    func blobIDs(at paths: [String], format: GitObjectFormat) -> [String: String] {
        var ids: [String: String] = [:]
        var toHash: [String] = []
        for path in paths {
            if let entry = unchanged[path], entry.mode.hasPrefix("100") { ids[path] = entry.id } else { toHash.append(path) }
        }
        guard !toHash.isEmpty else { return ids }
        // Hashed as read when git cannot say (a path git refuses, an unreadable file).
        let asRead = {
            Dictionary(
                uniqueKeysWithValues: toHash.compactMap { path in
                    (try? local.readBytes(at: path)).map { (path, format.blobID(of: $0)) }
                })
        }
        guard !toHash.contains(where: { $0.contains("\n") }),
            let result = try? git.run(
                ["-C", root, "hash-object", "--stdin-paths"], input: Array(toHash.map { $0 + "\n" }.joined().utf8)),
            result.status == 0
        else { return ids.merging(asRead()) { known, _ in known } }
        let hashed = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard hashed.count == toHash.count else { return ids.merging(asRead()) { known, _ in known } }
        for (path, id) in zip(toHash, hashed) { ids[path] = id }
        return ids
    }
}

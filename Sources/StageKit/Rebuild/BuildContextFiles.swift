import Digests

/// A build context as a builder reads it for `COPY` and `ADD`: the files under its root that
/// `.dockerignore` lets through, each known by what a builder's cache compares and a git
/// checkout keeps: its content (by git's blob ID, so a revision's files are known from its
/// tree without being read) and whether it is executable, a link's target, that a folder is
/// there. Modification times and other permission bits are left out: they differ between two
/// checkouts of one commit (git sets neither; the umask decides).
public struct BuildContextFiles: Sendable {
    /// The context's absolute root.
    public let root: String
    /// Where its files are read.
    let fileSystem: any FileSystem
    /// What the context's `.dockerignore` keeps out.
    let ignored: DockerignorePatterns
    /// How file contents are named.
    let objectFormat: GitObjectFormat

    /// A context.
    ///
    /// - Parameters:
    ///   - root: The absolute folder.
    ///   - dockerfileName: The Dockerfile's file name: BuildKit reads `NAME.dockerignore` beside
    ///     it in preference to the context's `.dockerignore`.
    ///   - fileSystem: Where files are read.
    ///   - objectFormat: How file contents are named: the repository's object format, so that
    ///     a working tree's files and a revision's compare.
    public init(
        root: String, dockerfileName: String = "Dockerfile", fileSystem: any FileSystem,
        objectFormat: GitObjectFormat = .sha1
    ) {
        self.root = root
        self.fileSystem = fileSystem
        self.objectFormat = objectFormat
        let specific = (try? fileSystem.readText(at: root + "/" + dockerfileName + ".dockerignore"))
        ignored = DockerignorePatterns(text: specific ?? (try? fileSystem.readText(at: root + "/.dockerignore")) ?? "")
    }

    /// What each file a `COPY`/`ADD` source names holds, as its cache compares it.
    ///
    /// A source is a path relative to the root (a leading `/` or `./` means the root), each
    /// segment may hold `*`, `?` and `[…]` (Go's `filepath.Match`, as BuildKit expands
    /// sources); a folder stands for everything in it. Entries `.dockerignore` excludes are
    /// not there.
    ///
    /// - Parameter source: The source with variables already expanded.
    /// - Returns: Each entry's path relative to the root and its fingerprint
    ///   (`file x BLOB-ID` for an executable file, `file - BLOB-ID`, `dir`, `link TARGET`);
    ///   the folder a source names is not an entry of its own (its content is copied).
    public func fingerprints(of source: String) -> [String: String] {
        var result: [String: String] = [:]
        var files: [(relative: String, absolute: String, executable: Bool)] = []
        for path in matchingPaths(DockerignorePatterns.cleaned(source)[...], under: []) {
            var ancestors = Array(repeating: false, count: ignored.patterns.count)
            for count in stride(from: 1, to: path.count, by: 1) {
                ancestors = ignored.verdict(Array(path[..<count]), ancestors: ancestors).forEntries
            }
            add(path, isSource: true, ancestors: ancestors, to: &result, files: &files)
        }
        // The files' contents named in one go.
        let ids = fileSystem.blobIDs(at: files.map(\.absolute), format: objectFormat)
        for file in files {
            result[file.relative] = "file \(file.executable ? "x" : "-") \(ids[file.absolute] ?? "unreadable")"
        }
        return result
    }

    /// The context paths (as segments) a source's segments match, each existing and not excluded.
    private func matchingPaths(_ pattern: ArraySlice<String>, under prefix: [String]) -> [[String]] {
        guard let first = pattern.first else { return [prefix] }
        let folder = absolute(prefix)
        let names: [String]
        if first.contains(where: { "*?[\\".contains($0) }) {
            names = fileSystem.entries(ofDirectory: folder).filter { DockerignorePatterns.segmentMatches(first, $0) }
        } else {
            names = [first]
        }
        var paths: [[String]] = []
        for name in names {
            let path = prefix + [name]
            // An excluded folder is still entered when an exception may bring back some of it.
            guard fileSystem.status(at: absolute(path)) != nil, ignored.hasExceptions || !ignored.excludes(segments: path)
            else { continue }
            paths += matchingPaths(pattern.dropFirst(), under: path)
        }
        return paths
    }

    /// Adds an entry, and for a folder everything in it, to the fingerprints.
    ///
    /// - Parameter ancestors: Per `.dockerignore` pattern, whether it matched a parent folder.
    private func add(
        _ path: [String], isSource: Bool, ancestors: [Bool], to result: inout [String: String],
        files: inout [(relative: String, absolute: String, executable: Bool)]
    ) {
        let relative = path.isEmpty ? "." : path.joined(separator: "/")
        // The context root itself is not excluded by a pattern for its content.
        let verdict = path.isEmpty ? (excluded: false, forEntries: ancestors) : ignored.verdict(path, ancestors: ancestors)
        let excluded = verdict.excluded
        if excluded && !ignored.hasExceptions { return }
        switch fileSystem.status(at: absolute(path)) {
        case .file(let permissions)?:
            guard !excluded else { return }
            files.append((relative, absolute(path), permissions & 0o100 != 0))
        case .directory?:
            if !excluded && !isSource { result[relative] = "dir" }
            // An exception may bring back an entry of an excluded folder.
            // Two checkouts' .git folders are their own business, never the change's.
            for name in fileSystem.entries(ofDirectory: absolute(path)) where !(path.isEmpty && name == ".git") {
                add(path + [name], isSource: false, ancestors: verdict.forEntries, to: &result, files: &files)
            }
        case .symbolicLink(let target)?:
            if !excluded { result[relative] = "link \(target)" }
        case .other?, nil:
            return
        }
    }

    /// The absolute path of context-relative segments.
    private func absolute(_ path: [String]) -> String {
        path.isEmpty ? root : root + "/" + path.joined(separator: "/")
    }
}

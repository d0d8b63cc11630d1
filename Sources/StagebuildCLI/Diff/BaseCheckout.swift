import Digests
import Foundation
import StageKit

/// The base side of `stagebuild diff`: a git revision's tree read where it is stored
/// (`GitRevisionFileSystem`, at the working tree's own paths), or another checkout's folder,
/// whose paths map from the working tree's relative to the repository root.
struct BaseCheckout {
    /// Where the base side's files are read.
    var fileSystem: any FileSystem
    /// Where the working tree's files are read: as git sees them when the base is a revision.
    var workingFileSystem: any FileSystem
    /// The folder that stands for the repository root on the base side.
    var root: String
    /// The repository root of the working tree (or the working directory outside git).
    var workingRoot: String
    /// How messages name the base side: the revision or the folder as given.
    var label: String
    /// How file contents are named on both sides: the repository's object format.
    var objectFormat: GitObjectFormat

    /// The base side's path for a working-tree path: the same place relative to the
    /// repository root; a path outside it is the same on both sides.
    ///
    /// - Parameter path: An absolute path of the working tree (symbolic links resolved).
    func basePath(of path: String) -> String {
        guard path == workingRoot || path.hasPrefix(workingRoot + "/") else { return path }
        return root + path.dropFirst(workingRoot.count)
    }

    /// A base-side path as messages show it: `REV:path` or `DIR:path`, the path from the
    /// repository root, as `git show` names a file of a revision; a path outside it as it is.
    ///
    /// - Parameter path: An absolute base-side path.
    func shown(_ path: String) -> String {
        guard path.hasPrefix(root + "/") else { return path }
        return label + ":" + path.dropFirst(root.count + 1)
    }

    /// A git revision's tree.
    ///
    /// - Parameters:
    ///   - revision: Any revision git reads (`HEAD~1`, a branch, a commit).
    ///   - folder: A folder inside the repository (the Stagefile's).
    ///   - context: The environment (`PATH`, git's own variables).
    /// - Returns: The base side.
    /// - Throws: `CommandFailure`: 64 outside a git repository or without git, 65 for a
    ///   revision git does not know, 74 when git fails otherwise.
    static func revision(
        _ revision: String, from folder: String, context: CommandContext
    ) throws(CommandFailure)
        -> BaseCheckout
    {
        guard let program = ChildProcess.find("git", in: context.environment["PATH"] ?? "/usr/bin:/bin") else {
            throw CommandFailure.usage("--base needs git, which is not on PATH; give another checkout with --base-dir DIR")
        }
        let git = GitCommand(program: program, environment: context.environment)
        func run(_ arguments: [String]) throws(CommandFailure) -> ChildProcess.Result {
            do {
                return try git.run(arguments)
            } catch {
                throw CommandFailure.error(.ioError, error.reason)
            }
        }
        // One rev-parse: the repository's root, its object format, then the commit (missing
        // when git knows no such revision).
        let parsed = try run([
            "-C", folder, "rev-parse", "--show-toplevel", "--show-object-format", "--verify", "--quiet", "--end-of-options",
            revision + "^{commit}",
        ])
        let lines = String(decoding: parsed.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2 else {
            throw CommandFailure.usage(
                "\(folder) is not in a git repository, so --base has no revision to read; use --base-dir DIR")
        }
        let repository = lines[0]
        guard parsed.status == 0, lines.count == 3 else {
            let shallow = try run(["-C", repository, "rev-parse", "--is-shallow-repository"])
            let hint =
                String(decoding: shallow.output, as: UTF8.self).hasPrefix("true")
                ? "; this clone is shallow: fetch the base first (git fetch --deepen=1, or fetch-depth: 0 with actions/checkout)"
                : ""
            throw CommandFailure.error(.dataError, "git knows no revision '\(revision)' in \(repository)\(hint)")
        }
        let format = lines[1]
        let commit = lines[2]
        // The base's tree and the working tree's three listings are read side by side.
        let listings: [ChildProcess.Result]
        do {
            listings = try git.runSideBySide([
                ["-C", repository, "ls-tree", "-r", "-t", "-z", "--full-tree", commit],
                ["-C", repository, "ls-files", "-z", "--stage"],
                ["-C", repository, "ls-files", "-z", "--others", "--exclude-standard"],
                ["-C", repository, "diff-files", "-z", "--name-only"],
            ])
        } catch {
            throw CommandFailure.error(.ioError, error.reason)
        }
        let (listing, staged, untracked, modified) = (listings[0], listings[1], listings[2], listings[3])
        guard listing.status == 0 else {
            throw CommandFailure.error(.ioError, "git ls-tree \(revision) failed")
        }
        guard staged.status == 0, untracked.status == 0, modified.status == 0 else {
            throw CommandFailure.error(.ioError, "git ls-files or diff-files failed in \(repository)")
        }
        let (revisionFiles, workingFiles) = sideBySide(
            { GitRevisionFileSystem(root: repository, git: git, listing: listing.output) },
            {
                GitWorkingTreeFileSystem(
                    root: repository, git: git, staged: staged.output, untracked: untracked.output,
                    modified: modified.output)
            })
        return BaseCheckout(
            fileSystem: revisionFiles, workingFileSystem: workingFiles, root: repository, workingRoot: repository,
            label: revision,
            objectFormat: GitObjectFormat(rawValue: format) ?? .sha1)
    }

    /// Another checkout's folder as the base side.
    ///
    /// - Parameters:
    ///   - folder: The folder as given.
    ///   - workingFolder: A folder of the working tree (the Stagefile's).
    ///   - context: The file system and working directory.
    /// - Throws: `CommandFailure` (64) when the folder does not exist.
    static func folder(
        _ folder: String, workingFolder: String, context: CommandContext
    ) throws(CommandFailure)
        -> BaseCheckout
    {
        let fileSystem = context.fileSystem
        let path = Paths.absolute(folder, from: context.currentDirectory)
        let resolved = fileSystem.resolvingSymlinks(path) ?? path
        guard case .directory? = fileSystem.status(at: resolved) else {
            throw CommandFailure.usage("--base-dir \(folder) is not a folder")
        }
        let found = fileSystem.foldersUpToRepositoryRoot(from: workingFolder).repositoryRoot
        let workingRoot = found ?? (fileSystem.resolvingSymlinks(context.currentDirectory) ?? context.currentDirectory)
        return BaseCheckout(
            fileSystem: fileSystem, workingFileSystem: fileSystem, root: resolved, workingRoot: workingRoot, label: folder,
            objectFormat: .sha1)
    }
}

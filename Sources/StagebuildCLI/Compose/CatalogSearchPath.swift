import Foundation
import StageKit

/// The catalog folders `compose`, `lock` and `stages` search, in order: each `--stages DIR`,
/// then `STAGEBUILD_STAGES` (colon-separated), then the nearest `Stages/` folder from the
/// Stagefile's folder upwards (`stages` starts at the working directory), stopping at the
/// repository root (the first folder holding `.git`), then the catalog installed next to the
/// tool (`<prefix>/share/stagebuild/Stages` for `<prefix>/bin/stagebuild`). The working
/// directory is never searched as such: the same Stagefile composes the same from anywhere.
enum CatalogSearchPath {
    static let option = ArgumentScanner.Option(
        names: ["--stages"], takesValue: true, valueName: "DIR",
        help: "A catalog folder to search first (repeatable).")

    /// The catalog over the search path.
    ///
    /// - Parameters:
    ///   - arguments: The command's arguments (`--stages`).
    ///   - context: The environment, working directory and executable path.
    ///   - fileSystem: Where folders are looked up.
    ///   - startDirectory: The absolute folder the upward search for `Stages/` starts in: the
    ///     Stagefile's folder.
    ///   - display: How paths are shown in messages.
    static func catalog(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext, fileSystem: any FileSystem,
        startDirectory: String, display: @escaping @Sendable (String) -> String
    ) -> StageCatalog {
        let cwd = context.currentDirectory
        var origins: [String: StageCatalog.FolderOrigin] = [:]
        var folders: [String] = []
        func add(_ folder: String, _ origin: StageCatalog.FolderOrigin) {
            guard origins[folder] == nil else { return }
            origins[folder] = origin
            folders.append(folder)
        }
        for folder in arguments.all("--stages") { add(Paths.absolute(folder, from: cwd), .option) }
        for folder in (context.environment["STAGEBUILD_STAGES"] ?? "").split(separator: ":") {
            let path = Paths.absolute(String(folder), from: cwd)
            // Not an error, as a variable may be set for several projects; but never silent.
            if fileSystem.resolvingSymlinks(path) == nil {
                context.warn("STAGEBUILD_STAGES names \(folder), which does not exist; it is skipped")
            }
            add(path, .environment)
        }
        let project = projectCatalog(from: startDirectory, fileSystem: fileSystem)
        if let found = project.folder { add(found, .project) }
        let installed = installedFolder(context: context)
        add(installed, .installed)
        return StageCatalog(
            folders: folders, installedFolder: installed, fileSystem: fileSystem, display: display,
            projectRoot: project.root, projectFolder: project.folder, origins: origins)
    }

    /// The nearest non-empty `Stages/` folder from `directory` upwards and the project root:
    /// the repository root when there is one, else the folder that holds that `Stages/`, else
    /// `directory` itself. Symbolic links are resolved.
    static func projectCatalog(from directory: String, fileSystem: any FileSystem) -> (folder: String?, root: String) {
        let search = fileSystem.foldersUpToRepositoryRoot(from: directory)
        // An empty Stages/ holds no template: the search goes on above it.
        let found = search.folders.lazy.map { $0 == "/" ? "/Stages" : $0 + "/Stages" }
            .first { !fileSystem.entries(ofDirectory: $0).isEmpty }
        return (found, search.repositoryRoot ?? found.map(Paths.directory(of:)) ?? search.folders[0])
    }

    /// `<prefix>/share/stagebuild/Stages` for the tool at `<prefix>/bin/stagebuild`.
    static func installedFolder(context: CommandContext) -> String {
        Paths.absolute("../share/stagebuild/Stages", from: Paths.directory(of: context.executablePath))
    }

    /// Refuses a `--stages DIR` that is not a folder: a typo there would otherwise fall
    /// through to another catalog silently.
    static func checkExplicitFolders(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) {
        for folder in arguments.all("--stages") {
            let path = Paths.absolute(folder, from: context.currentDirectory)
            // A link to a folder is a folder, as the catalog reads it.
            guard let resolved = context.fileSystem.resolvingSymlinks(path),
                case .directory? = context.fileSystem.status(at: resolved)
            else {
                throw CommandFailure.usage("--stages \(folder) is not a folder")
            }
        }
    }
}

import Foundation
import StageKit

/// The catalog folders `compose` and `stages` search, in order: each `--stages DIR`, then
/// `STAGEBUILD_STAGES` (colon-separated), then `./Stages`, then the catalog installed next to
/// the tool (`<prefix>/share/stagebuild/Stages` for `<prefix>/bin/stagebuild`).
enum CatalogSearchPath {
    static let option = ArgumentScanner.Option(
        names: ["--stages"], takesValue: true, valueName: "DIR",
        help: "A catalog folder to search first (repeatable).")

    /// The catalog over the search path, its installed folder marked.
    static func catalog(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext, fileSystem: any FileSystem,
        display: @escaping @Sendable (String) -> String
    ) -> StageCatalog {
        StageCatalog(
            folders: folders(arguments, context: context), installedFolder: installedFolder(context: context),
            fileSystem: fileSystem, display: display)
    }

    static func folders(_ arguments: ArgumentScanner.Arguments, context: CommandContext) -> [String] {
        let cwd = context.currentDirectory
        var folders = arguments.all("--stages").map { Paths.absolute($0, from: cwd) }
        let fromEnvironment = (context.environment["STAGEBUILD_STAGES"] ?? "").split(separator: ":")
        folders += fromEnvironment.map { Paths.absolute(String($0), from: cwd) }
        folders.append(Paths.absolute("Stages", from: cwd))
        folders.append(installedFolder(context: context))
        var seen: Set<String> = []
        return folders.filter { seen.insert($0).inserted }
    }

    /// `<prefix>/share/stagebuild/Stages` for the tool at `<prefix>/bin/stagebuild`.
    static func installedFolder(context: CommandContext) -> String {
        Paths.absolute("../share/stagebuild/Stages", from: Paths.directory(of: context.executablePath))
    }

    /// Refuses a `--stages DIR` that is not a folder: a typo there would otherwise fall
    /// through to another catalog silently.
    static func checkExplicitFolders(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) {
        for folder in arguments.all("--stages") {
            var isDirectory: ObjCBool = false
            let path = Paths.absolute(folder, from: context.currentDirectory)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("--stages \(folder) is not a folder")
            }
        }
    }
}

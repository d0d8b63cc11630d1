import StageKit
import YAML

/// The lint config in force for each file `stagebuild lint` reads: `--config FILE` for every
/// file, else the nearest `.stagebuild.yaml` (or `.stagebuild.yml`) from the file's own folder
/// upwards, stopping at the repository root, so each file of a monorepo uses its own project's
/// (as hadolint finds `.hadolint.yaml`, and as compose finds `Stages/`). Each config file is
/// read once.
struct LintConfigurationSearch {
    /// The names looked for in each folder, in this order.
    static let fileNames = [".stagebuild.yaml", ".stagebuild.yml"]

    private let context: CommandContext
    private let explicitFile: String?
    /// Configs read so far, by absolute path.
    private var loaded: [String: Result<LintConfiguration, CommandFailure>] = [:]
    /// The config path found for each folder searched from (`nil`: none).
    private var nearest: [String: String?] = [:]

    /// A search for one run.
    ///
    /// - Parameters:
    ///   - context: Where files are read and the current directory.
    ///   - explicitFile: `--config`'s value, which then holds for every file.
    init(context: CommandContext, explicitFile: String?) {
        self.context = context
        self.explicitFile = explicitFile
    }

    /// The config for a file.
    ///
    /// - Parameter file: The file to lint, as given.
    /// - Returns: The config (the defaults when none is found), or why the one in force cannot
    ///   be used: it cannot be read (74) or is not a valid config (65, at `file:line:column`).
    mutating func configuration(forFile file: String) -> Result<LintConfiguration, CommandFailure> {
        if let explicitFile {
            return load(Paths.absolute(explicitFile, from: context.currentDirectory), shown: explicitFile, option: "--config ")
        }
        let folder = Paths.directory(of: Paths.absolute(file, from: context.currentDirectory))
        let found: String?
        if let cached = nearest[folder] {
            found = cached
        } else {
            found = context.fileSystem.foldersUpToRepositoryRoot(from: folder).folders.lazy.flatMap { folder in
                Self.fileNames.lazy.map { (folder == "/" ? "" : folder) + "/" + $0 }
            }.first { context.fileSystem.entryExists(at: $0) }
            nearest[folder] = found
        }
        guard let found else { return .success(LintConfiguration()) }
        return load(found, shown: Paths.shown(found, from: context.currentDirectory), option: "")
    }

    private mutating func load(
        _ path: String, shown: String, option: String
    ) -> Result<LintConfiguration, CommandFailure> {
        if let result = loaded[path] { return result }
        let result: Result<LintConfiguration, CommandFailure>
        do {
            let text = try context.fileSystem.readText(at: path)
            result = .success(try LintConfiguration(parsing: text, file: shown))
        } catch let error as FileSystemError {
            result = .failure(.unreadable("\(option)\(shown)", error))
        } catch let error as YAMLConfigError {
            let diagnostic = Diagnostic(
                file: error.file, line: error.line, column: error.column, severity: "error", message: error.message)
            result = .failure(CommandFailure(exitCode: .dataError, report: .diagnostic(diagnostic)))
        } catch {
            result = .failure(.error(.ioError, "cannot read \(option)\(shown): \(error)"))
        }
        loaded[path] = result
        return result
    }
}

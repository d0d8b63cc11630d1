import StageKit

/// What `stagebuild verify` builds: a Stagefile composed as `compose` composes it (with its
/// lockfile), each line knowing the template line that wrote it, or a Dockerfile as it is.
struct VerifySource {
    /// The Stagefile's or Dockerfile's absolute path.
    var path: String
    /// It as messages show it.
    var shownPath: String
    /// The Dockerfile text the builder reads.
    var text: String
    /// Each line's template or Stagefile origin (empty for `--dockerfile`).
    var lineOrigins: [Composition.LineOrigin?]
    /// The Stagefile's lockfile, when it has one.
    var lockfile: Lockfile?

    /// Reads the positional Stagefile or `--dockerfile`.
    ///
    /// - Throws: `CommandFailure`: 64 for both or for two Stagefiles, 65 for a Stagefile or
    ///   template error, 74 for a file that cannot be read.
    static func load(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> VerifySource {
        let cwd = context.currentDirectory
        if let dockerfile = arguments.value("--dockerfile") {
            guard arguments.positionals.isEmpty else {
                throw CommandFailure.usage("give a Stagefile or --dockerfile FILE, not both")
            }
            let path = Paths.absolute(dockerfile, from: cwd)
            do {
                let text = try context.fileSystem.readText(at: path)
                // A plain Dockerfile's lines are their own origins.
                let count = text.split(separator: "\n", omittingEmptySubsequences: false).count
                let origins = (0..<count).map { Composition.LineOrigin(file: dockerfile, line: $0 + 1) }
                return VerifySource(path: path, shownPath: dockerfile, text: text, lineOrigins: origins, lockfile: nil)
            } catch {
                throw CommandFailure.unreadable(dockerfile, error)
            }
        }
        let input = try StagefileInput.load(arguments, context: context)
        let lockfile = try input.lock.load(context: context)
        do {
            let composition = try input.composer.composition(of: input.stagefile, lockfile: lockfile)
            return VerifySource(
                path: input.path, shownPath: input.argument, text: composition.text, lineOrigins: composition.lineOrigins,
                lockfile: lockfile)
        } catch {
            throw CommandFailure(error)
        }
    }
}

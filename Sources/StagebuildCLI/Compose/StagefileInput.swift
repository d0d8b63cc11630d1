import StageKit

/// A Stagefile named on the command line, read and parsed, with the composer over its catalog
/// search path: what `lock` starts from (`compose` reads the same way).
struct StagefileInput {
    /// The Stagefile as the user named it (default `Stagefile`).
    var argument: String
    /// Its absolute path.
    var path: String
    /// The parsed Stagefile.
    var stagefile: Stagefile
    /// A composer over the catalog search path.
    var composer: Composer
    /// The lockfile beside the Stagefile.
    var lock: LockInput

    /// The Stagefile's absolute folder: the build context the templates' keys are read from.
    var directory: String { Paths.directory(of: path) }

    /// Reads the Stagefile; reports a failure on stderr and returns its exit status.
    ///
    /// compose, lock and stages all read it here.
    ///
    /// - Parameters:
    ///   - arguments: The scanned arguments (positional STAGEFILE, `--stages`).
    ///   - context: The command's context.
    ///   - outputPath: compose's absolute `-o` file, named in the composed file's "Regenerate
    ///     with" line; `nil` for commands that write no Dockerfile.
    /// - Returns: The input.
    /// - Throws: `CommandFailure`: 65 for a Stagefile that is not UTF-8 or does not parse
    ///   (file:line:column), 74 for one that cannot be read, 64 for a `--stages DIR` that is
    ///   not a folder.
    static func load(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext, outputPath: String? = nil
    ) throws(CommandFailure) -> StagefileInput {
        guard arguments.positionals.count <= 1 else {
            throw CommandFailure.usage("expected at most one Stagefile, got \(arguments.positionals.count)")
        }
        try CatalogSearchPath.checkExplicitFolders(arguments, context: context)
        let cwd = context.currentDirectory
        let argument = arguments.positionals.first ?? "Stagefile"
        let path = Paths.absolute(argument, from: cwd)
        let fileSystem = context.fileSystem
        let text: String
        do {
            text = try fileSystem.readText(at: path)
        } catch {
            throw CommandFailure.unreadable("Stagefile \(argument)", error)
        }
        let display = { @Sendable (path: String) in Paths.shown(path, from: cwd) }
        let catalog = CatalogSearchPath.catalog(
            arguments, context: context, fileSystem: fileSystem, startDirectory: Paths.directory(of: path), display: display)
        let composer = Composer(
            catalog: catalog, stagefileDirectory: Paths.directory(of: path), stagefileName: Paths.fileName(of: path),
            regenerateCommand: ComposeCommand.regenerateCommand(
                arguments, stagefilePath: path, outputPath: outputPath, catalog: catalog)
        )
        do {
            let stagefile = try Stagefile(text: text, displayPath: argument)
            let lock = LockInput(
                stagefileDirectory: Paths.directory(of: path), stagefileArgument: argument,
                stagesArguments: arguments.all("--stages"), display: display)
            return StagefileInput(argument: argument, path: path, stagefile: stagefile, composer: composer, lock: lock)
        } catch {
            throw CommandFailure(exitCode: .dataError, report: .diagnostic(.error(error)))
        }
    }
}

/// `stagebuild.lock` beside a Stagefile, as `compose` and `lock` read and check it.
struct LockInput {
    /// The lockfile's absolute path.
    var path: String
    /// The Stagefile as the user named it, for the hint `stagebuild lock STAGEFILE`.
    var stagefileArgument: String
    /// The `--stages` folders as the user gave them: the hint must find the same templates.
    var stagesArguments: [String]
    /// Shows an absolute path to the user.
    var display: @Sendable (String) -> String

    /// - Parameters:
    ///   - stagefileDirectory: The Stagefile's absolute folder.
    ///   - stagefileArgument: The Stagefile as named.
    ///   - stagesArguments: The `--stages` folders as given.
    ///   - display: Shows a path to the user.
    init(
        stagefileDirectory: String, stagefileArgument: String, stagesArguments: [String],
        display: @escaping @Sendable (String) -> String
    ) {
        self.path = stagefileDirectory + "/" + Lockfile.fileName
        self.stagefileArgument = stagefileArgument
        self.stagesArguments = stagesArguments
        self.display = display
    }

    /// The lock inputs of a composition, with the SHA-256 of each key file its templates name
    /// in the build context, the Stagefile's folder (a changed key makes the lockfile stale).
    ///
    /// - Parameters:
    ///   - composition: The composition.
    ///   - architecture: The build's architecture when the run names one.
    ///   - context: The file system.
    func inputs(
        of composition: Composition, architecture: String?, context: CommandContext
    ) throws(CompositionError) -> LockInputs {
        let folder = Paths.directory(of: path)
        return try composition.lockInputs(architecture: architecture) { relative in
            (try? context.fileSystem.readBytes(at: Paths.absolute(relative, from: folder))).map {
                Digest.sha256(of: $0).description
            }
        }
    }

    /// Whether a lockfile is there (a dangling link counts).
    func exists(_ context: CommandContext) -> Bool { context.fileSystem.entryExists(at: path) }

    /// The command that rewrites the lockfile, e.g. `stagebuild lock Stagefile --stages ../Stages`.
    var fix: String {
        (["stagebuild", "lock", stagefileArgument] + stagesArguments.flatMap { ["--stages", $0] })
            .map(ShellQuoting.quoted).joined(separator: " ")
    }

    /// Reads the lockfile.
    ///
    /// - Returns: The lockfile, `nil` when there is none.
    /// - Throws: `CommandFailure`: 65 for a malformed file (at its `file:line:column` when the
    ///   JSON reader names one) with the command that rewrites it, 74 for one that cannot be read.
    func load(context: CommandContext) throws(CommandFailure) -> Lockfile? {
        switch try read(context: context) {
        case nil: return nil
        case .success(let lockfile)?: return lockfile
        case .failure(let error)?:
            throw CommandFailure(
                exitCode: .dataError,
                report: .diagnostic(
                    Diagnostic(
                        file: display(path), line: error.line, column: error.column, severity: "error",
                        message: "\(error.reason); rewrite it with: \(fix)")))
        }
    }

    /// Reads the lockfile that `stagebuild lock` is about to replace: one that is not a
    /// lockfile this stagebuild reads (a merge left it half-edited, an older format) is
    /// replaced, with a warning that says why, not an error (the run succeeds).
    ///
    /// - Returns: The lockfile; `nil` when there is none or it will be replaced.
    /// - Throws: `CommandFailure` (74) for a file that cannot be read at all.
    func loadForRewrite(context: CommandContext) throws(CommandFailure) -> Lockfile? {
        switch try read(context: context) {
        case nil: return nil
        case .success(let lockfile)?: return lockfile
        case .failure(let error)?:
            context.warn("\(display(path)) is not a lockfile this stagebuild reads (\(error)); writing a new one")
            return nil
        }
    }

    /// The lockfile read and parsed; `nil` when there is none.
    private func read(context: CommandContext) throws(CommandFailure) -> Result<Lockfile, LockfileError>? {
        let text: String
        do {
            text = try context.fileSystem.readText(at: path)
        } catch {
            // A dangling link is a lockfile that cannot be read, not no lockfile: lock could not write through it either.
            if error.isMissing, !context.fileSystem.entryExists(at: path) { return nil }
            if error.isMissing {
                throw CommandFailure.error(.ioError, "cannot read \(display(path)): a symbolic link to a missing file")
            }
            if error.isMalformedText { return .failure(LockfileError("not UTF-8 text: \(error.reason)")) }
            throw CommandFailure.unreadable(display(path), error)
        }
        do {
            return .success(try Lockfile(parsing: text))
        } catch {
            return .failure(error)
        }
    }

    /// Compares the lockfile with a composition for `compose`: with `--locked` anything stale
    /// is an error (exit 1; 65 for an image no lock can hold); without, a warning on stderr.
    ///
    /// - Throws: `CommandFailure` when composing may not go on.
    func check(_ lockfile: Lockfile, of composition: Composition, locked: Bool, context: CommandContext) throws(CommandFailure) {
        let name = display(path)
        let reasons: [String]
        do {
            reasons = lockfile.staleness(against: try inputs(of: composition, architecture: nil, context: context))
                .map(\.description)
        } catch {
            guard locked else {
                context.warn("\(name) cannot pin every image: \(error.description)")
                return
            }
            throw CommandFailure(exitCode: .dataError, report: .diagnostic(.error(error)))
        }
        if reasons.isEmpty && !lockfile.unverifiedPackages.isEmpty {
            context.warn(
                "\(name) records \(lockfile.unverifiedPackages.count) package pin(s) as unverified (not stale: no template "
                    + "declares the apt archive of their build stage): "
                    + lockfile.unverifiedPackages.joined(separator: ", "))
        }
        guard !reasons.isEmpty else {
            // The lockfile holds every image, yet some could not be pinned where written.
            let unpinned = composition.unpinnedImages.map { "\($0.kind.rawValue)\($0.written) in \($0.origin)" }
            guard !unpinned.isEmpty else { return }
            let message =
                "cannot pin \(unpinned.joined(separator: ", ")) in place: write the reference without quotes, "
                + "so that the pinned reference can replace it"
            guard locked else {
                context.warn(message)
                return
            }
            throw CommandFailure.error(.dataError, message)
        }
        if locked {
            throw CommandFailure.error(
                .checkFailed, "\(name) is stale: \(reasons.joined(separator: "; ")); rewrite it with: \(fix)")
        }
        let unpinned = composition.unpinnedImages.map(\.written)
        let left = unpinned.isEmpty ? "" : "; left unpinned: " + unpinned.joined(separator: ", ")
        context.warn("\(name) is stale: \(reasons.joined(separator: "; "))\(left); rewrite it with: \(fix)")
    }
}

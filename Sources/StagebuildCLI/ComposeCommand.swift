import StageKit

/// `stagebuild compose`: layers stage templates and the Stagefile's own steps into one
/// reproducible Dockerfile.
enum ComposeCommand: Subcommand {
    static let name = "compose"
    static let summary = "Layer stage templates into one reproducible Dockerfile."
    static let usage = "compose [STAGEFILE] [-o FILE] [--check] [--stages DIR]..."
    static let discussion = """
        Reads STAGEFILE (default ./Stagefile): Dockerfile syntax plus `FROM stage:NAME [AS alias]`
        and `USE NAME [KEY=VALUE ...]`. Writes the Dockerfile to stdout, or atomically to FILE.
        The same inputs always give the same bytes.

        Catalog search path: each --stages DIR, then STAGEBUILD_STAGES (colon-separated), then
        ./Stages, then the catalog installed next to the tool.

        Exit status: 0 written or current, 1 --check found FILE stale (a diff is printed),
        64 usage, 65 a Stagefile or template error (file:line:column), 74 a file not readable
        or writable.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["-o", "--output"], takesValue: true, valueName: "FILE", help: "Write the Dockerfile to FILE atomically."),
        ArgumentScanner.Option(
            names: ["--check"], takesValue: false,
            help: "Do not write; exit 1 with a diff when FILE (default: Dockerfile beside the Stagefile) is stale."),
        ArgumentScanner.Option(
            names: ["--lint"], takesValue: false,
            help: "Also lint the composed Dockerfile; findings go to stderr, exit 1 at warning or above."),
        CatalogSearchPath.option,
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("expected at most one Stagefile, got \(arguments.positionals.count)")
        }
        let cwd = context.currentDirectory
        let stagefileArgument = arguments.positionals.first ?? "Stagefile"
        let stagefilePath = Paths.absolute(stagefileArgument, from: cwd)
        let stagefileDirectory = Paths.directory(of: stagefilePath)
        let checking = arguments.has("--check")
        let outputArgument = arguments.value("--output")
        let outputPath =
            outputArgument.map { Paths.absolute($0, from: cwd) }
            ?? (checking ? stagefileDirectory + "/Dockerfile" : nil)

        let fileSystem = LocalFileSystem()
        let text: String
        do {
            text = try fileSystem.readText(at: stagefilePath)
        } catch {
            context.reportError("cannot read Stagefile \(stagefileArgument): \(error.reason)")
            return error.isMalformedText ? .dataError : .ioError
        }
        let display = { @Sendable (path: String) in Paths.relative(path, from: cwd) }
        let folders = CatalogSearchPath.folders(arguments, context: context)
        let composer = Composer(
            catalog: StageCatalog(folders: folders, fileSystem: fileSystem, display: display),
            stagefileDirectory: stagefileDirectory,
            stagefileName: Paths.fileName(of: stagefilePath),
            regenerateCommand: regenerateCommand(
                arguments, stagefilePath: stagefilePath, outputPath: outputPath, context: context))
        let composed: String
        do {
            let stagefile = try Stagefile(text: text, displayPath: stagefileArgument)
            composed = try composer.compose(stagefile)
        } catch {
            context.standardError.write(Diagnostic.error(error).rendered(color: context.usesColor))
            return .dataError
        }

        let written = write(
            composed, to: outputPath, checking: checking, context: context, display: display,
            stagefile: stagefileArgument)
        guard written == .success, arguments.has("--lint") else { return written }
        return lint(composed, as: outputPath.map(display) ?? "<stdout>", context: context)
    }

    /// Writes the Dockerfile to stdout or FILE, or with `--check` compares it with FILE.
    private static func write(
        _ composed: String, to outputPath: String?, checking: Bool, context: CommandContext,
        display: (String) -> String, stagefile: String
    ) -> ExitCode {
        guard let outputPath else {
            context.standardOutput.write(composed)
            return .success
        }
        let outputDisplay = display(outputPath)
        if checking {
            let current = (try? LocalFileSystem().readText(at: outputPath)) ?? ""
            guard current != composed else { return .success }
            context.standardOutput.write(
                UnifiedDiff.diff(old: current, new: composed, oldName: "a/\(outputDisplay)", newName: "b/\(outputDisplay)"))
            context.reportError(
                "\(outputDisplay) is stale; regenerate it with: stagebuild compose \(stagefile) -o \(outputDisplay)")
            return .checkFailed
        }
        do {
            try AtomicFile.write(composed, to: outputPath)
        } catch {
            context.reportError("cannot write \(outputDisplay): \(error.reason)")
            return .ioError
        }
        return .success
    }

    /// `--lint`: the lint findings of the composed text on stderr; exit 1 when one reaches the
    /// default failure threshold (warning), as `stagebuild lint` would.
    private static func lint(_ composed: String, as name: String, context: CommandContext) -> ExitCode {
        let linter = Linter()
        guard let findings = try? linter.lint(text: composed) else {
            context.reportError("the composed Dockerfile does not parse; this is a bug in stagebuild")
            return .internalError
        }
        context.standardError.write(LintCommand.textReport([(name, findings)]))
        return linter.fails(findings) ? .checkFailed : .success
    }

    /// The command written into the header: paths relative to the Stagefile's folder, so the
    /// header does not depend on where the tool was run from, and the output named even when
    /// it went to stdout (`Dockerfile` beside the Stagefile, the file `--check` compares), so
    /// `compose > Dockerfile` and `compose -o Dockerfile` write the same bytes.
    static func regenerateCommand(
        _ arguments: ArgumentScanner.Arguments, stagefilePath: String, outputPath: String?, context: CommandContext
    ) -> String {
        let base = Paths.directory(of: stagefilePath)
        let output = outputPath ?? base + "/Dockerfile"
        var command = "stagebuild compose \(ShellQuoting.quoted(Paths.fileName(of: stagefilePath)))"
        command += " -o \(ShellQuoting.quoted(Paths.relative(output, from: base)))"
        for folder in arguments.all("--stages") {
            let relative = Paths.relative(Paths.absolute(folder, from: context.currentDirectory), from: base)
            command += " --stages \(ShellQuoting.quoted(relative))"
        }
        let localCatalog = Paths.absolute("Stages", from: context.currentDirectory)
        if arguments.all("--stages").isEmpty, localCatalog != base + "/Stages",
            !LocalFileSystem().entries(ofDirectory: localCatalog).isEmpty
        {
            command += " --stages \(ShellQuoting.quoted(Paths.relative(localCatalog, from: base)))"
        }
        return command + " (run in the Stagefile's folder)"
    }
}

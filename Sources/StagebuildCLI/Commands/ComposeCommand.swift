import Foundation
import StageKit

/// `stagebuild compose`: layers stage templates and the Stagefile's own steps into one
/// reproducible Dockerfile.
enum ComposeCommand: Subcommand {
    static let name = "compose"
    static let summary = "Layer stage templates into one reproducible Dockerfile."
    static let usage = "compose [STAGEFILE] [-o FILE] [--check] [--locked] [--lint [--format text|json]] [--stages DIR]..."
    static let discussion = """
        Reads STAGEFILE (default ./Stagefile): Dockerfile syntax plus
        `FROM stage:NAME [AS alias] [KEY=VALUE ...]` and `USE NAME [KEY=VALUE ...]`. Writes the Dockerfile to stdout (also with -o -), or
        atomically to FILE, keeping FILE's permissions. The same inputs always give the same
        bytes. FILE can never be the Stagefile or a file in a catalog folder.

        Catalog search path: each --stages DIR, then STAGEBUILD_STAGES (colon-separated), then
        the nearest Stages/ folder from the Stagefile's folder upwards (up to the repository root),
        then the catalog installed next to the tool.

        Lockfile: when stagebuild.lock (written by `stagebuild lock`) is beside the Stagefile,
        every image it holds comes out pinned, IMAGE:TAG@sha256:DIGEST, and the header names
        it. A stale lockfile gives a warning and leaves the images it lacks as written; with
        --locked a missing or stale lockfile is an error that names what is stale.

        Exit status: 0 written or current, 1 --check found FILE stale or missing (a diff is
        printed), --lint found a warning, or --locked found the lockfile missing or stale,
        64 usage, 65 a Stagefile, template or lockfile error (file:line:column), 74 a file not
        readable or writable.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["-o", "--output"], takesValue: true, valueName: "FILE", help: "Write the Dockerfile to FILE atomically."),
        ArgumentScanner.Option(
            names: ["--check"], takesValue: false,
            help: "Do not write; exit 1 with a diff when FILE (default: Dockerfile beside the Stagefile) is stale."),
        ArgumentScanner.Option(
            names: ["--locked"], takesValue: false,
            help: "Exit 1 unless stagebuild.lock is present and current; every image comes out pinned."),
        ArgumentScanner.Option(
            names: ["--lint"], takesValue: false,
            help: "Also lint the composed Dockerfile; findings go to stderr, exit 1 at warning or above."),
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "FORMAT",
            help: "--lint findings as text (stderr) or json (stdout; needs -o FILE)."),
        CatalogSearchPath.option,
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        let cwd = context.currentDirectory
        let stagefileArgument = arguments.positionals.first ?? "Stagefile"
        let stagefilePath = Paths.absolute(stagefileArgument, from: cwd)
        let stagefileDirectory = Paths.directory(of: stagefilePath)
        let checking = arguments.has("--check")
        let outputArgument = arguments.value("--output")
        if outputArgument == "" { throw CommandFailure.usage("-o needs a file name; use -o - for standard output") }
        let outputPath =
            outputArgument.flatMap { $0 == "-" ? nil : Paths.absolute($0, from: cwd) }
            ?? (checking ? stagefileDirectory + "/Dockerfile" : nil)
        if checking && outputArgument == "-" {
            throw CommandFailure.usage("--check compares with a file; -o - is standard output")
        }
        let format = try arguments.choice("--format", default: ArgumentScanner.TextOrJSON.text)
        if format == .json {
            guard arguments.has("--lint") else { throw CommandFailure.usage("--format sets how --lint reports; add --lint") }
            guard outputArgument != nil, outputArgument != "-", !checking else {
                throw CommandFailure.usage(
                    "--format json writes the findings to stdout, which holds the Dockerfile (or --check's diff); add -o FILE")
            }
        }
        let input = try StagefileInput.load(arguments, context: context, outputPath: outputPath)
        let display = { @Sendable (path: String) in Paths.shown(path, from: cwd) }
        let composer = input.composer
        let lock = input.lock
        if let outputPath {
            try refuseOverwritingInputs(
                outputPath, stagefile: stagefilePath, catalogFolders: composer.catalog.folders, context: context)
        }
        let lockfile = try lock.load(context: context)
        let locked = arguments.has("--locked")
        if locked && lockfile == nil {
            throw CommandFailure.error(
                .checkFailed, "\(display(lock.path)) is missing, so the images cannot be pinned; write it with: \(lock.fix)")
        }
        let composition: Composition
        do {
            composition = try composer.composition(of: input.stagefile, lockfile: lockfile)
        } catch {
            throw CommandFailure(error)
        }
        if let lockfile { try lock.check(lockfile, of: composition, locked: locked, context: context) }
        for warning in composition.warnings {
            let diagnostic = Diagnostic(
                file: warning.file, line: warning.location?.line, column: warning.location?.column, severity: "warning",
                message: warning.message)
            context.standardError.write(diagnostic.rendered(color: context.usesColor))
        }

        let rerun =
            (["stagebuild", "compose", stagefileArgument, "-o", outputArgument ?? outputPath.map(display) ?? "Dockerfile"]
            + arguments.all("--stages").flatMap { ["--stages", $0] }).map(ShellQuoting.quoted).joined(separator: " ")
        let composed = composition.text
        try write(composed, to: outputPath, checking: checking, context: context, display: display, rerun: rerun)
        guard arguments.has("--lint") else { return .success }
        // The output named as the user gave it, as the Stagefile is.
        return try lint(
            composed, as: outputArgument.flatMap { $0 == "-" ? nil : $0 } ?? outputPath.map(display) ?? "<stdout>",
            composition: composition, json: format == .json, stagefile: stagefilePath,
            context: context)
    }

    /// Writes the Dockerfile to stdout or FILE, or with `--check` compares it with FILE.
    ///
    /// - Throws: `CommandFailure`: 1 when `--check` finds FILE missing or stale (the diff on
    ///   stdout), 74 when FILE cannot be read or written.
    private static func write(
        _ composed: String, to outputPath: String?, checking: Bool, context: CommandContext,
        display: (String) -> String, rerun: String
    ) throws(CommandFailure) {
        guard let outputPath else {
            context.standardOutput.write(composed)
            return
        }
        let outputDisplay = display(outputPath)
        if checking {
            let current: String
            do {
                current = try context.fileSystem.readText(at: outputPath)
            } catch  where error.isMissing {
                context.standardOutput.write(
                    UnifiedDiff.diff(old: "", new: composed, oldName: "/dev/null", newName: "b/\(outputDisplay)"))
                throw CommandFailure.error(.checkFailed, "\(outputDisplay) does not exist; create it with: \(rerun)")
            } catch {
                throw CommandFailure.unreadable(outputDisplay, error)
            }
            guard current != composed else { return }
            // A checkout that writes CRLF (core.autocrlf, an eol=crlf attribute) changes every
            // line invisibly: say that instead of showing a diff of every line.
            if current.replacingOccurrences(of: "\r\n", with: "\n") == composed {
                throw CommandFailure.error(
                    .checkFailed,
                    "\(outputDisplay) differs only in its line ends: it has CRLF where compose writes LF, as a checkout "
                        + "with core.autocrlf=true or an eol=crlf attribute writes it; keep it LF with a .gitattributes "
                        + "line '\(Paths.fileName(of: outputPath)) text eol=lf', or regenerate it with: \(rerun)")
            }
            context.standardOutput.write(
                UnifiedDiff.diff(old: current, new: composed, oldName: "a/\(outputDisplay)", newName: "b/\(outputDisplay)"))
            let lineEnds = current.contains("\r\n") ? " (it also has CRLF line ends, where compose writes LF)" : ""
            throw CommandFailure.error(.checkFailed, "\(outputDisplay) is stale\(lineEnds); regenerate it with: \(rerun)")
        }
        do {
            try context.fileSystem.write(composed, to: outputPath)
        } catch {
            throw CommandFailure.unwritable(outputDisplay, error)
        }
    }

    /// `--lint`: the lint findings of the composed text, each at the template or Stagefile line
    /// that produced it, then its composed position. As text on stderr
    /// (`Stages/t.Dockerfile:3:5: warning: SB003 …` and `    composed: Dockerfile:8:66`); as JSON
    /// on stdout, `line`/`column` in `file` and `composedLine`/`composedColumn` in
    /// `composedFile`. The lint config is the Stagefile's nearest `.stagebuild.yaml`, as
    /// `stagebuild lint Stagefile` reads it. Exit 1 when a finding reaches its failure
    /// threshold (warning by default), as `stagebuild lint` would.
    private static func lint(
        _ composed: String, as name: String, composition: Composition, json: Bool, stagefile: String,
        context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        var search = LintConfigurationSearch(context: context, explicitFile: nil)
        let configuration = try search.configuration(forFile: stagefile).get()
        let linter = Linter(configuration: configuration)
        guard let findings = try? linter.lint(text: composed) else {
            throw CommandFailure.error(.internalError, "the composed Dockerfile does not parse; this is a bug in stagebuild")
        }
        var records: [LintCommand.Record] = []
        for finding in findings {
            let origin = composition.source(line: finding.line, column: finding.column)
            var record = LintCommand.Record(
                file: origin?.file ?? name, line: origin?.location.line ?? finding.line,
                column: origin?.location.column ?? finding.column, finding: finding)
            if origin != nil {
                record.composedFile = name
                record.composedLine = finding.line
                record.composedColumn = finding.column
            }
            records.append(record)
        }
        if json {
            context.standardOutput.write(LintCommand.jsonReport(records))
        } else {
            context.standardError.write(LintCommand.textReport(records))
        }
        return linter.fails(findings) ? .checkFailed : .success
    }

    /// The command written into the header: paths relative to the Stagefile's folder (symbolic
    /// links resolved), so the header does not depend on where the tool was run from or how a
    /// catalog folder was spelt, and the output named even when it went to stdout
    /// (`Dockerfile` beside the Stagefile, the file `--check` compares), so
    /// `compose > Dockerfile` and `compose -o Dockerfile` write the same bytes. Catalog folders
    /// from `--stages` or, inside the project, from `STAGEBUILD_STAGES` become `--stages`; the
    /// project's own `Stages/` is found again without one; a `STAGEBUILD_STAGES` folder with
    /// templates outside the project is named as the variable, and a `--stages` folder outside
    /// the project as `DIR` (its path differs between a laptop's checkout and a CI runner's, and
    /// the composed bytes must not).
    static func regenerateCommand(
        _ arguments: ArgumentScanner.Arguments, stagefilePath: String, outputPath: String?, catalog: StageCatalog
    ) -> String {
        let base = Paths.directory(of: stagefilePath)
        let output = outputPath ?? base + "/Dockerfile"
        var command = "stagebuild compose \(ShellQuoting.quoted(Paths.fileName(of: stagefilePath)))"
        command += " -o \(ShellQuoting.quoted(Paths.relative(output, from: base)))"
        let resolvedBase = catalog.resolved(base)
        var named: Set<String> = []
        // Only a folder that holds templates can change what is composed.
        let outside = catalog.folders.filter { !catalog.isInProject($0) && !catalog.names(in: $0).isEmpty }
        let environmentOutsideProject = outside.contains { catalog.origins[$0] == .environment }
        var outsideProject: [String] = []
        for folder in outside where catalog.origins[folder] == .option && !outsideProject.contains(catalog.resolved(folder)) {
            outsideProject.append(catalog.resolved(folder))
        }
        let placeholders = outsideProject.count == 1 ? ["DIR"] : outsideProject.indices.map { "DIR\($0 + 1)" }
        for folder in catalog.folders where catalog.origins[folder] == .option || catalog.origins[folder] == .environment {
            let resolved = catalog.resolved(folder)
            if let index = outsideProject.firstIndex(of: resolved) {
                if named.insert(resolved).inserted { command += " --stages \(placeholders[index])" }
            } else if catalog.isInProject(folder), resolved != catalog.projectFolder, named.insert(resolved).inserted {
                command += " --stages \(ShellQuoting.quoted(Paths.relative(resolved, from: resolvedBase)))"
            }
        }
        var notes = ["run in the Stagefile's folder" + (environmentOutsideProject ? " with STAGEBUILD_STAGES set" : "")]
        if !placeholders.isEmpty {
            notes.append(
                "\(placeholders.joined(separator: ", ")): the catalog \(placeholders.count == 1 ? "folder" : "folders") "
                    + "outside the project that --stages named")
        }
        return command + " (\(notes.joined(separator: "; ")))"
    }

    /// Refuses an output path that is the Stagefile itself (by inode, so also through links and
    /// other spellings) or a file in a catalog folder, so a slip of `-o` never destroys an input.
    private static func refuseOverwritingInputs(
        _ output: String, stagefile: String, catalogFolders: [String], context: CommandContext
    ) throws(CommandFailure) {
        var outputStatus = stat()
        var stagefileStatus = stat()
        if stat(output, &outputStatus) == 0, stat(stagefile, &stagefileStatus) == 0,
            outputStatus.st_dev == stagefileStatus.st_dev, outputStatus.st_ino == stagefileStatus.st_ino
        {
            throw CommandFailure.usage("the output \(output) is the Stagefile itself; choose another file with -o")
        }
        let fileSystem = context.fileSystem
        // A symbolic link is written through: what counts is the file it leads to.
        let target = fileSystem.resolvingSymlinks(output) ?? output
        let outputFolder = fileSystem.resolvingSymlinks(Paths.directory(of: target)) ?? Paths.directory(of: target)
        for folder in catalogFolders where fileSystem.resolvingSymlinks(folder) == outputFolder {
            throw CommandFailure.usage("the output \(output) is inside the catalog folder \(folder); choose another file with -o")
        }
    }
}

import Digests
import Foundation
import StageKit

/// `stagebuild diff`: what a change rebuilds, predicted from both sides' compositions before
/// anything is built.
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let summary = "Predict which layers a change rebuilds, and why, before building."
    static let usage =
        "diff [STAGEFILE] (--base REV | --base-dir DIR) [--builder buildkit|buildah] [--format text|markdown|json] "
        + "[--context DIR] [--fail-on-rebuild STAGE]... [--stages DIR]..."
    static let discussion = """
        Composes STAGEFILE (default ./Stagefile) twice: as the working tree has it, and as the
        base side has it (--base REV: the git revision's files, read from git's own store, no
        checkout written; --base-dir DIR: another checkout, paths mapped relative to the
        repository root). Each side is composed
        with its own stagebuild.lock, so a digest the lock moved shows. Then, per build stage, it
        predicts which steps the builder's cache misses when the working tree is built after the
        base side, following the builder's cache rules (docs/cache-rules.md): an instruction
        whose text or the values it sees changed, a base image that moved, a build argument,
        files of the build context a COPY or ADD reads (.dockerignore honoured; content and
        executable bit, not times), and everything after a miss. Each first miss is named at
        its template or Stagefile line with its cause: a parameter, a template line, a digest,
        a snapshot, context files. Advice follows where reordering a template would keep layers.

        The build context is the Stagefile's folder unless --context names another.

        With --base, the working tree is read as a fresh checkout of it would hold it: the files
        git tracks and new ones it does not ignore, contents named as git names them (its
        line-end attributes applied); .git is never compared. A base revision without the
        Stagefile makes every build stage new.

        Exit status: 0 compared (whatever it found), 1 a build stage named by --fail-on-rebuild
        rebuilds or may rebuild, 64 usage, 65 a Stagefile, template or lockfile error on either
        side (file:line:column) or a revision git does not know, 74 a file that cannot be read.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--base"], takesValue: true, valueName: "REV", help: "The git revision the cache was filled from."),
        ArgumentScanner.Option(
            names: ["--base-dir"], takesValue: true, valueName: "DIR", help: "Another checkout as the base side."),
        ArgumentScanner.Option(
            names: ["--builder"], takesValue: true, valueName: "NAME",
            help: "Whose cache rules: buildkit (default; docker build) or buildah (also podman)."),
        ArgumentScanner.Option(
            names: ["--format"], takesValue: true, valueName: "FORMAT", help: "text (default), markdown or json."),
        ArgumentScanner.Option(
            names: ["--context"], takesValue: true, valueName: "DIR",
            help: "The build context (default: the Stagefile's folder)."),
        ArgumentScanner.Option(
            names: ["--fail-on-rebuild"], takesValue: true, valueName: "STAGE",
            help: "Exit 1 when this build stage rebuilds or may rebuild (repeatable)."),
        CatalogSearchPath.option,
    ]

    /// The report formats (`--format`).
    enum Format: String, CaseIterable {
        case text, markdown, json
    }

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.count <= 1 else {
            throw CommandFailure.usage("expected at most one Stagefile, got \(arguments.positionals.count)")
        }
        let format = try arguments.choice("--format", default: Format.text)
        let builder = arguments.value("--builder") ?? "buildkit"
        guard let rules = builder == "podman" ? .buildah : CacheRules(rawValue: builder) else {
            throw CommandFailure.usage("--builder is buildkit, buildah or podman, not '\(builder)'")
        }
        try CatalogSearchPath.checkExplicitFolders(arguments, context: context)
        let cwd = context.currentDirectory
        let stagefilePath = Paths.absolute(arguments.positionals.first ?? "Stagefile", from: cwd)
        let fileSystem = context.fileSystem
        let stagefileFolder = Paths.directory(of: stagefilePath)
        let resolvedFolder = fileSystem.resolvingSymlinks(stagefileFolder) ?? stagefileFolder
        let checkout: BaseCheckout
        switch (arguments.value("--base"), arguments.value("--base-dir")) {
        case (let revision?, nil):
            guard fileSystem.status(at: resolvedFolder) != nil else {
                throw CommandFailure.error(
                    .ioError, "cannot read Stagefile \(arguments.positionals.first ?? "Stagefile"): its folder does not exist")
            }
            checkout = try BaseCheckout.revision(revision, from: resolvedFolder, context: context)
        case (nil, let folder?):
            checkout = try BaseCheckout.folder(folder, workingFolder: resolvedFolder, context: context)
        case (nil, nil):
            throw CommandFailure.usage("name the base side: --base REV (a git revision) or --base-dir DIR")
        default:
            throw CommandFailure.usage("--base and --base-dir both name the base side; give one")
        }
        let stagefile = resolvedFolder + "/" + Paths.fileName(of: stagefilePath)
        var contextRoot = resolvedFolder
        if let folder = arguments.value("--context") {
            let path = Paths.absolute(folder, from: cwd)
            contextRoot = fileSystem.resolvingSymlinks(path) ?? path
            guard case .directory? = fileSystem.status(at: contextRoot) else {
                throw CommandFailure.usage("--context \(folder) is not a folder")
            }
            if checkout.basePath(of: contextRoot) == contextRoot {
                context.warn(
                    "the build context \(folder) is outside the repository, so both sides read the same files there: "
                        + "no change of its files can show")
            }
        }
        let stages = arguments.all("--stages").map {
            let path = Paths.absolute($0, from: cwd)
            return fileSystem.resolvingSymlinks(path) ?? path
        }
        // Paths from the repository root, as git shows them: the same on every machine, so a
        // report pasted into a pull request names files its readers have.
        let workingRoot = checkout.workingRoot
        let display = { @Sendable (path: String) in
            path.hasPrefix(workingRoot + "/") ? String(path.dropFirst(workingRoot.count + 1)) : Paths.shown(path, from: cwd)
        }
        var newContext = context
        newContext.fileSystem = checkout.workingFileSystem
        let new = try side(
            stagefile: stagefile, stages: stages, contextRoot: contextRoot, objectFormat: checkout.objectFormat,
            display: display, context: newContext)
        let baseDisplay = { @Sendable (path: String) in checkout.shown(path) }
        var baseContext = context
        baseContext.fileSystem = checkout.fileSystem
        let baseStagefile = checkout.basePath(of: stagefile)
        // A Stagefile the base side lacks (the change adds it): every build stage is new.
        let baseHasStagefile = checkout.fileSystem.entryExists(at: baseStagefile)
        if !baseHasStagefile {
            context.warn("\(baseDisplay(baseStagefile)) does not exist, so every build stage is new")
        }
        let base = try side(
            stagefile: baseStagefile, stages: stages.map(checkout.basePath(of:)),
            contextRoot: checkout.basePath(of: contextRoot), objectFormat: checkout.objectFormat, display: baseDisplay,
            context: baseContext, isEmpty: !baseHasStagefile)
        let prediction = RebuildPrediction(base: base, new: new, rules: rules)
        let gated = arguments.all("--fail-on-rebuild")
        let names = prediction.stages.map(\.name)
        for stage in gated where !names.contains(where: { $0.lowercased() == stage.lowercased() }) {
            throw CommandFailure.usage(
                "--fail-on-rebuild \(stage): no build stage has that name (\(names.joined(separator: ", ")))")
        }
        let report = RebuildReport(prediction: prediction, advice: RebuildAdvice.advice(for: prediction), base: checkout.label)
        switch format {
        case .json: context.standardOutput.write(report.json())
        case .markdown: context.standardOutput.write(report.markdown())
        case .text: context.standardOutput.write(report.text())
        }
        let failing = prediction.stages.filter { outcome in
            gated.contains { $0.lowercased() == outcome.name.lowercased() }
                && (outcome.status == .rebuilds || outcome.status == .mayRebuild)
        }
        guard failing.isEmpty else {
            throw CommandFailure.errors(
                .checkFailed, failing.map { "build stage \($0.name) \($0.status == .rebuilds ? "rebuilds" : "may rebuild")" })
        }
        return .success
    }

    /// One side: its Stagefile read and composed over its catalog with its own lockfile, and
    /// its build context.
    private static func side(
        stagefile path: String, stages: [String], contextRoot: String, objectFormat: GitObjectFormat,
        display: @escaping @Sendable (String) -> String, context: CommandContext, isEmpty: Bool = false
    ) throws(CommandFailure) -> RebuildPrediction.Side {
        let fileSystem = context.fileSystem
        let contextFiles = BuildContextFiles(root: contextRoot, fileSystem: fileSystem, objectFormat: objectFormat)
        if isEmpty { return .empty(context: contextFiles) }
        let text: String
        do {
            text = try fileSystem.readText(at: path)
        } catch {
            throw CommandFailure.unreadable("Stagefile \(display(path))", error)
        }
        var arguments = ArgumentScanner.Arguments()
        arguments.values["--stages"] = stages
        let folder = Paths.directory(of: path)
        let catalog = CatalogSearchPath.catalog(
            arguments, context: context, fileSystem: fileSystem, startDirectory: folder, display: display)
        let composer = Composer(
            catalog: catalog, stagefileDirectory: folder, stagefileName: Paths.fileName(of: path),
            regenerateCommand: "stagebuild compose")
        let stagefile: Stagefile
        do {
            stagefile = try Stagefile(text: text, displayPath: display(path))
        } catch {
            throw CommandFailure(exitCode: .dataError, report: .diagnostic(.error(error)))
        }
        let lock = LockInput(
            stagefileDirectory: folder, stagefileArgument: display(path), stagesArguments: [], display: display)
        let lockfile = try lock.load(context: context)
        do {
            let composition = try composer.composition(of: stagefile, lockfile: lockfile)
            return try RebuildPrediction.Side(composition: composition, context: contextFiles)
        } catch let error as CompositionError {
            throw CommandFailure(error)
        } catch {
            throw CommandFailure.error(.internalError, "the composed Dockerfile does not parse (\(error)); this is a bug")
        }
    }
}

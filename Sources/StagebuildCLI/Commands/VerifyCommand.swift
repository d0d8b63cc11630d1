import DockerfileSyntax
import Foundation
import StageKit
import Synchronization

/// `stagebuild verify`: builds a composed Dockerfile twice under different conditions and
/// explains every difference between the two images at the template line that made it.
enum VerifyCommand: Subcommand {
    static let name = "verify"
    static let summary = "Build twice under different conditions and explain each difference at its template line."
    static let usage =
        "verify [STAGEFILE] [--dockerfile FILE] [--target STAGE]... [--context DIR] [--builder buildah|podman|docker] "
        + "[--network MODE] [--vary LIST] [--source-date-epoch SECONDS] [--rewrite-timestamp] [--build-arg NAME=VALUE]... "
        + "[--keep DIR] [--diffoscope] [--format text|json] [--stages DIR]...\n"
        + "       stagebuild verify --compare FIRST --compare SECOND [STAGEFILE | --dockerfile FILE] [--target STAGE] ..."
    static let discussion = """
        Composes STAGEFILE (default ./Stagefile) as compose does, with its stagebuild.lock, or
        takes any Dockerfile (--dockerfile), and builds each --target stage (default the last)
        twice with a real builder: without cache, one layer per instruction, the second build
        under other conditions, each one that differs between two CI runners (--vary, named as
        reprotest names them):

          time          the second build starts in another minute; its context's files carry
                        the time they were copied at (SOURCE_DATE_EPOCH stays the same)
          build_path    the second build's context is a copy at another path
          fileordering  the copy's entries are made in reverse order
          umask         the copy's files and folders are group-writable (umask 0002)
          num_cpus      the second build sees one CPU (taskset -c 0; not with docker)
          domain_host   each build's host name: buildah and podman give each build its own
                        (BuildKit names every one buildkitsandbox)
          user_group    not applied: the builders' chroot isolation builds as the host's users
          environment   the proxy variables the builder passes on (no_proxy), TZ and the
                        locale (not with docker: its daemon builds, not the client)

        --builder is buildah (default), podman, or docker: Docker's BuildKit (docker build
        with DOCKER_BUILDKIT=1, against the daemon DOCKER_HOST names; images exported with
        docker save). --network MODE is passed to each build (host, none…), for a builder
        whose default network cannot reach what a RUN fetches.

        --vary takes a comma-separated list (time,umask), or changes to all of them
        (-num_cpus,-time). Base images are found as the builder finds them: its own image
        store first, then registries. SOURCE_DATE_EPOCH is --source-date-epoch, else the
        lockfile's latest snapshot moment, else the last commit's time; both builds get it as a
        build argument. --rewrite-timestamp also clamps every file and configuration time to
        it (buildah's and podman's --timestamp), as a reproducible build is made; docker build
        has no such option (BuildKit's rewrite-timestamp is an exporter setting of docker
        buildx, which verify does not drive).

        Both images are exported as OCI image layouts and compared from the top: the manifest,
        each configuration field (history included), then each layer by its diff ID; a layer
        that differs is read entry by entry (paths in one only, type, mode, owner, mtime, size,
        content, link target, extended attributes, and the order of entries). Each differing
        layer is named by the instruction that made it, its line in the composed Dockerfile and
        the template line that wrote it, with the cause of each difference from a catalog and
        its fix in the template's terms. A package that two builds installed at different
        versions is named with both versions (dpkg's status database). --diffoscope hands each
        pair of files whose content differs (up to 10 an image) to Debian's diffoscope and adds
        its text (200 lines at most) under the path.

        --compare FIRST --compare SECOND builds nothing: it compares two OCI image layouts
        already made (say, one exported on each of two CI runners: buildah push IMAGE oci:DIR,
        skopeo copy, docker buildx --output type=oci,tar=false, or docker save's archive
        unpacked) and explains them against the Stagefile or --dockerfile when one is given or
        ./Stagefile exists. Every layer is checked against its digest first.

        The builder runs with this environment, so its own settings apply
        (CONTAINERS_STORAGE_CONF, BUILDAH_ISOLATION, CONTAINERS_REGISTRIES_CONF, DOCKER_HOST).
        Progress goes to standard error. --keep DIR (a new or empty folder outside the build
        context) keeps both layouts, the composed Dockerfile and the builds' logs there;
        otherwise they are removed, as are the images.

        Exit status: 0 every image is the same in both builds, 1 one differs, 64 usage, 65 a
        Stagefile, template or lockfile error, 69 no builder can be run, 70 a build failed (the
        tail of its log is shown), 74 a file cannot be read or written.
        """
    static let options = [
        ArgumentScanner.Option(
            names: ["--dockerfile"], takesValue: true, valueName: "FILE", help: "Build this Dockerfile instead of composing."),
        ArgumentScanner.Option(
            names: ["--target"], takesValue: true, valueName: "STAGE",
            help: "A build stage to verify (repeatable; default the last)."),
        ArgumentScanner.Option(
            names: ["--context"], takesValue: true, valueName: "DIR",
            help: "The build context (default: the Stagefile's or Dockerfile's folder)."),
        ArgumentScanner.Option(
            names: ["--builder"], takesValue: true, valueName: "NAME", help: "buildah (default), podman or docker."),
        ArgumentScanner.Option(
            names: ["--network"], takesValue: true, valueName: "MODE",
            help: "The network mode of each build's RUN steps (host, none…)."),
        ArgumentScanner.Option(
            names: ["--vary"], takesValue: true, valueName: "LIST", help: "The variations of the second build (default all)."),
        ArgumentScanner.Option(
            names: ["--source-date-epoch"], takesValue: true, valueName: "SECONDS", help: "SOURCE_DATE_EPOCH for both builds."),
        ArgumentScanner.Option(
            names: ["--rewrite-timestamp"], takesValue: false, help: "Clamp file and configuration times to SOURCE_DATE_EPOCH."),
        ArgumentScanner.Option(
            names: ["--build-arg"], takesValue: true, valueName: "NAME=VALUE",
            help: "A build argument for both builds (repeatable)."),
        ArgumentScanner.Option(
            names: ["--keep"], takesValue: true, valueName: "DIR", help: "Keep both image layouts and the logs in DIR."),
        ArgumentScanner.Option(
            names: ["--build-timeout"], takesValue: true, valueName: "SECONDS",
            help: "The longest one build may take (default 3600)."),
        ArgumentScanner.Option(
            names: ["--compare"], takesValue: true, valueName: "LAYOUT",
            help: "Compare two OCI layouts instead of building (give it twice)."),
        ArgumentScanner.Option(
            names: ["--diffoscope"], takesValue: false, help: "Add diffoscope's comparison of each differing file."),
        ArgumentScanner.Option(names: ["--format"], takesValue: true, valueName: "FORMAT", help: "text (default) or json."),
        CatalogSearchPath.option,
    ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        let format = try arguments.choice("--format", default: ArgumentScanner.TextOrJSON.text)
        let variations = try BuildVariations(arguments.value("--vary"))
        let cwd = context.currentDirectory
        let compared = arguments.all("--compare")
        guard compared.isEmpty || compared.count == 2 else {
            throw CommandFailure.usage("--compare takes two OCI layouts, the first build's and the second's")
        }
        let diffoscope = try diffoscopeProgram(arguments, context: context)
        if !compared.isEmpty {
            return try compare(compared, arguments: arguments, format: format, diffoscope: diffoscope, context: context)
        }
        // A signal stops the builder and the run; the defers remove the images and the work
        // folder. Taken from here on, before any child process starts a thread that would not
        // block it (git's for SOURCE_DATE_EPOCH, the builder's version).
        let stopSignal = Mutex<Int32?>(nil)
        let interruption =
            context.handlesInterrupts
            ? InterruptHandler { received in
                let first = stopSignal.withLock { stored in
                    defer { stored = stored ?? received }
                    return stored == nil
                }
                if first { ChildProcess.terminateAll() }
            } : nil
        defer { interruption?.stop() }
        let source = try VerifySource.load(arguments, context: context)
        let plan: BuildPlan
        do {
            plan = try BuildPlan(text: source.text, lineOrigins: source.lineOrigins)
        } catch {
            throw CommandFailure.error(.dataError, "\(source.shownPath): \(error)")
        }
        let targets = try targets(arguments.all("--target"), plan: plan)
        let epoch = try sourceDateEpoch(arguments, source: source, context: context)
        let timeout =
            try arguments.value("--build-timeout").map { (text: String) throws(CommandFailure) -> Double in
                guard let seconds = Double(text), seconds > 0 else {
                    throw CommandFailure.usage("--build-timeout \(text): give a number of seconds above 0")
                }
                return seconds
            } ?? 3600
        for argument in arguments.all("--build-arg") where !argument.contains("=") {
            throw CommandFailure.usage("--build-arg \(argument): give NAME=VALUE")
        }
        let builder = try findBuilder(arguments.value("--builder") ?? "buildah", context: context, deadline: timeout)
        if builder.kind == .docker, arguments.has("--rewrite-timestamp") {
            throw CommandFailure.usage(
                "--rewrite-timestamp: docker build has no such option (BuildKit's rewrite-timestamp is an exporter "
                    + "setting of docker buildx, which verify does not drive); leave it out to see what it would fix")
        }
        let builderVersion: String
        do {
            builderVersion = try builder.version()
        } catch {
            if let signal = stopSignal.withLock({ $0 }) { throw Self.stopped(by: signal, kept: nil) }
            throw CommandFailure.error(.unavailable, error.message)
        }
        let contextFolder = Paths.absolute(arguments.value("--context") ?? Paths.directory(of: source.path), from: cwd)
        guard case .directory? = context.fileSystem.status(at: contextFolder) else {
            throw CommandFailure.usage("the build context \(Paths.shown(contextFolder, from: cwd)) is not a folder")
        }
        let work = try VerifyWorkFolder(
            keep: arguments.value("--keep").map { Paths.absolute($0, from: cwd) }, context: contextFolder)
        defer { work.removeUnlessKept() }
        var run = VerifyRun(
            builder: builder, builderVersion: builderVersion, variations: variations, plan: plan, targets: targets,
            sourceText: source.text,
            contextFolder: contextFolder, work: work, sourceDateEpoch: epoch,
            rewriteTimestamp: arguments.has("--rewrite-timestamp"), buildArguments: arguments.all("--build-arg"),
            network: arguments.value("--network"),
            diffoscope: diffoscope.map {
                DiffoscopeComparison(program: $0, folder: work.path + "/diffoscope", environment: context.environment)
            }, context: context)
        run.stopSignal = { stopSignal.withLock { $0 } }
        let outcome: VerifyRun.Outcome
        do {
            outcome = try run.run()
        } catch {
            if let signal = stopSignal.withLock({ $0 }) { throw Self.stopped(by: signal, kept: work.kept) }
            throw CommandFailure.errors(
                .internalError, [error.message],
                detail: error.logTail.isEmpty ? "" : "--- the end of its log\n" + error.logTail + "\n")
        }
        let report = VerifyReport(
            source: source.shownPath, builder: outcome.builderVersion, sourceDateEpoch: epoch, notes: outcome.notes,
            explanations: outcome.explanations, diffoscope: outcome.diffoscope)
        context.standardOutput.write(format == .json ? report.json() : report.text())
        if let kept = work.kept {
            context.standardError.write("verify: kept the layouts and logs in \(Paths.shown(kept, from: cwd))\n")
        }
        return outcome.explanations.allSatisfy(\.reproducible) ? .success : .checkFailed
    }

    /// `--diffoscope`'s program, found in `PATH`; exit 69 when it is not there.
    private static func diffoscopeProgram(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext
    ) throws(CommandFailure) -> String? {
        guard arguments.has("--diffoscope") else { return nil }
        guard let program = ChildProcess.find("diffoscope", in: context.environment["PATH"] ?? "/usr/bin:/bin") else {
            throw CommandFailure.error(
                .unavailable, "--diffoscope: diffoscope is not in PATH (Debian: apt-get install diffoscope-minimal)")
        }
        return program
    }

    /// `--compare`: two layouts compared and explained, nothing built.
    private static func compare(
        _ layouts: [String], arguments: ArgumentScanner.Arguments, format: ArgumentScanner.TextOrJSON, diffoscope: String?,
        context: CommandContext
    ) throws(CommandFailure) -> ExitCode {
        let cwd = context.currentDirectory
        let folders = layouts.map { Paths.absolute($0, from: cwd) }
        for (folder, given) in zip(folders, layouts)
        where !["/index.json", "/manifest.json"].contains(where: { context.fileSystem.entryExists(at: folder + $0) }) {
            throw CommandFailure.usage(
                "--compare \(given): not an OCI image layout or an unpacked docker save archive (it has no index.json "
                    + "or manifest.json)")
        }
        var plan = BuildPlan(stages: [])
        var stage: BuildPlan.Stage?
        var shown = layouts.joined(separator: " and ")
        let named = !arguments.positionals.isEmpty || arguments.value("--dockerfile") != nil
        if named || context.fileSystem.entryExists(at: Paths.absolute("Stagefile", from: cwd)) {
            let source = try VerifySource.load(arguments, context: context)
            do {
                plan = try BuildPlan(text: source.text, lineOrigins: source.lineOrigins)
            } catch {
                throw CommandFailure.error(.dataError, "\(source.shownPath): \(error)")
            }
            stage = try targets(arguments.all("--target"), plan: plan).first
            shown += " against " + source.shownPath
        }
        let work = try VerifyWorkFolder(keep: arguments.value("--keep").map { Paths.absolute($0, from: cwd) }, context: nil)
        defer { work.removeUnlessKept() }
        let comparison = diffoscope.map {
            DiffoscopeComparison(program: $0, folder: work.path + "/diffoscope", environment: context.environment)
        }
        let (explanation, texts): (ImageExplanation, [String: String])
        do {
            (explanation, texts) = try VerifyRun.explain(
                layouts: (folders[0], folders[1]), stage: stage, plan: plan, conditions: BuildConditions(),
                diffoscope: comparison, started: ContinuousClock.now, context: context)
        } catch {
            throw CommandFailure.error(.dataError, error.message)
        }
        let report = VerifyReport(
            source: shown, builder: "no builder (--compare)", sourceDateEpoch: nil, notes: [], explanations: [explanation],
            diffoscope: texts)
        context.standardOutput.write(format == .json ? report.json() : report.text())
        return explanation.reproducible ? .success : .checkFailed
    }

    /// The build stages to verify, by `--target` (case as builders compare it) or the last.
    private static func targets(_ names: [String], plan: BuildPlan) throws(CommandFailure) -> [BuildPlan.Stage] {
        guard let last = plan.stages.last else { throw CommandFailure.error(.dataError, "the Dockerfile has no FROM") }
        guard !names.isEmpty else { return [last] }
        var chosen: [BuildPlan.Stage] = []
        for name in names {
            guard let stage = plan.stages.first(where: { $0.key == name.lowercased() }) else {
                let known = plan.stages.map(\.name).joined(separator: ", ")
                throw CommandFailure.usage("--target \(name): no build stage has that name (\(known))")
            }
            // A builder's --target takes a name: a build stage without one can be built only as the last.
            if stage.key.hasPrefix("#"), stage.key != last.key {
                throw CommandFailure.usage(
                    "--target \(name): build stage \(stage.name) has no name, and a builder's --target needs one (add AS NAME)")
            }
            if !chosen.contains(where: { $0.key == stage.key }) { chosen.append(stage) }
        }
        return chosen
    }

    /// SOURCE_DATE_EPOCH: the option, else the lockfile's latest snapshot moment, else the last
    /// commit's time (`git log -1 --format=%ct`), else 0.
    private static func sourceDateEpoch(
        _ arguments: ArgumentScanner.Arguments, source: VerifySource, context: CommandContext
    ) throws(CommandFailure) -> Int {
        if let text = arguments.value("--source-date-epoch") {
            guard let seconds = Int(text), seconds >= 0 else {
                throw CommandFailure.usage("--source-date-epoch \(text): give whole seconds since 1970, 0 or more")
            }
            return seconds
        }
        if let moment = source.lockfile?.snapshots.values.max(), let seconds = SnapshotTime.seconds(moment) {
            return seconds
        }
        if let git = ChildProcess.find("git", in: context.environment["PATH"] ?? "/usr/bin:/bin") {
            let child = ChildProcess(
                program: git, arguments: ["-C", Paths.directory(of: source.path), "log", "-1", "--format=%ct"],
                environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"], deadline: 30)
            if let result = try? child.run(), result.status == 0,
                let seconds = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return seconds
            }
        }
        context.warn("no --source-date-epoch, lockfile snapshot or git commit: SOURCE_DATE_EPOCH=0")
        return 0
    }

    /// A run a signal stopped: 130, 143 or 129, and what was removed.
    private static func stopped(by signal: Int32, kept: String?) -> CommandFailure {
        CommandFailure.error(
            ExitCode(signal: signal),
            kept == nil
                ? "verify stopped by a signal; the images and the work folder it made are removed"
                : "verify stopped by a signal; the images it made are removed, and --keep's folder holds what it wrote")
    }

    /// The builder program, found in `PATH`; exit 69 when it is not there.
    private static func findBuilder(
        _ name: String, context: CommandContext, deadline: Double
    ) throws(CommandFailure) -> ImageBuilder {
        let kinds = ImageBuilder.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        switch name {
        case "buildkit", "buildx", "buildctl":
            throw CommandFailure.error(
                .unavailable,
                "--builder \(name): verify drives BuildKit through docker build (--builder docker); buildx and buildctl are not driven yet"
            )
        default:
            break
        }
        guard let kind = ImageBuilder.Kind(rawValue: name) else {
            throw CommandFailure.usage("--builder is one of \(kinds), not '\(name)'")
        }
        guard let program = ChildProcess.find(name, in: context.environment["PATH"] ?? "/usr/bin:/bin") else {
            let package = kind == .docker ? "docker.io" : name
            throw CommandFailure.error(.unavailable, "\(name) is not in PATH: install it (Debian: apt-get install \(package))")
        }
        return ImageBuilder(kind: kind, program: program, environment: context.environment, deadline: deadline)
    }
}

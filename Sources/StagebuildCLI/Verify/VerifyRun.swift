import Foundation
import StageKit
import Synchronization

/// One `stagebuild verify` run: each target built twice (the second under the variations),
/// exported, compared and explained. Progress goes to standard error.
struct VerifyRun {
    /// What the run found.
    struct Outcome {
        /// The builder's version line.
        var builderVersion: String
        /// Each variation as applied, or why it was not.
        var notes: [VerifyReport.VariationNote]
        /// Each target's comparison, explained.
        var explanations: [ImageExplanation]
        /// diffoscope's text for each file pair it compared (`DiffoscopeComparison.key`).
        var diffoscope: [String: String]
    }

    var builder: ImageBuilder
    /// The builder's version line (`ImageBuilder.version()`).
    var builderVersion: String
    var variations: BuildVariations
    var plan: BuildPlan
    var targets: [BuildPlan.Stage]
    var sourceText: String
    var contextFolder: String
    var work: VerifyWorkFolder
    var sourceDateEpoch: Int
    var rewriteTimestamp: Bool
    var buildArguments: [String]
    /// `--network` for each build; `nil` is the builder's own.
    var network: String?
    var diffoscope: DiffoscopeComparison?
    var context: CommandContext
    /// When the run started, for the seconds each progress line shows.
    var started = ContinuousClock.now
    /// The signal that asked the run to stop, if one did (SIGINT, SIGTERM, SIGHUP).
    var stopSignal: @Sendable () -> Int32? = { nil }

    /// Where each build's files are: its Dockerfile, logs and layouts, and its context.
    private struct Folders {
        var first: String
        var second: String
        var secondContext: String
    }

    /// Builds, exports, compares and explains.
    ///
    /// - Throws: `ImageBuilder.Failure` for a build or export that failed, or an image layout
    ///   that cannot be read.
    func run() throws(ImageBuilder.Failure) -> Outcome {
        let folders = try prepareFolders()
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        let oneCPU = variations.applies(.numCPUs, with: builder.kind) && cpus > 1
        var made: [String] = []
        let before = builder.imageIDs()
        defer { builder.remove(made, keeping: before) }
        let firstStarted = context.now()
        for stage in targets {
            try stopIfAsked()
            progress("build 1 of 2: \(stage.name) (\(builder.name), no cache)")
            made.append(tag(1, stage))
            try build(1, of: stage, folder: folders.first, context: contextFolder, environment: builder.environment)
        }
        if variations.has(.time) { waitForAnotherMinute(than: firstStarted) }
        for stage in targets {
            try stopIfAsked()
            let varied = variations.chosen.filter { variations.applies($0, with: builder.kind) }
            progress("build 2 of 2: \(stage.name) (varied: \(varied.map(\.rawValue).joined(separator: ", ")))")
            made.append(tag(2, stage))
            try build(
                2, of: stage, folder: folders.second, context: folders.secondContext,
                environment: variations.secondEnvironment(builder.environment, builder: builder.kind), oneCPU: oneCPU)
        }
        let notes = VerifyReport.VariationNote.notes(
            for: variations, cpus: cpus, started: (firstStarted, context.now()), builder: builder.kind)
        let conditions = BuildConditions(
            cpuCounts: oneCPU ? (cpus, 1) : nil,
            contextPaths: variations.copiesContext ? (contextFolder, folders.secondContext) : nil,
            environmentMarker: variations.applies(.environment, with: builder.kind) ? BuildVariations.environmentMarker : nil)
        var explanations: [ImageExplanation] = []
        var texts: [String: String] = [:]
        for stage in targets {
            let (explanation, compared) = try explain(stage, folders: folders, conditions: conditions)
            explanations.append(explanation)
            texts.merge(compared) { $1 }
        }
        return Outcome(builderVersion: builderVersion, notes: notes, explanations: explanations, diffoscope: texts)
    }

    /// Writes the Dockerfile into both builds' folders and, when a variation asks, copies the
    /// build context for the second build.
    private func prepareFolders() throws(ImageBuilder.Failure) -> Folders {
        var folders = Folders(
            first: work.path + "/build-1", second: work.path + "/second-build-folder/build-2", secondContext: contextFolder)
        do {
            for folder in [folders.first, folders.second] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(sourceText.utf8).write(to: URL(fileURLWithPath: folder + "/Dockerfile"))
            }
        } catch {
            throw ImageBuilder.Failure(message: "cannot write into \(work.path): \(error.localizedDescription)", logTail: "")
        }
        if variations.copiesContext {
            progress("copying the build context for the second build")
            do {
                try variations.copyContext(from: contextFolder, to: folders.second + "/context")
            } catch {
                throw ImageBuilder.Failure(message: "cannot copy the build context: \(error.localizedDescription)", logTail: "")
            }
            folders.secondContext = folders.second + "/context"
        }
        return folders
    }

    /// The image name of one build of a stage.
    private func tag(_ build: Int, _ stage: BuildPlan.Stage) -> String {
        "localhost/stagebuild-verify-\(getpid())-\(build):\(stage.key.hasPrefix("#") ? "stage" + stage.key.dropFirst() : stage.key)"
    }

    /// One build of a stage, its output appended to the folder's `build.log`.
    private func build(
        _ round: Int, of stage: BuildPlan.Stage, folder: String, context: String, environment: [String: String],
        oneCPU: Bool = false
    ) throws(ImageBuilder.Failure) {
        let build = ImageBuilder.Build(
            dockerfile: folder + "/Dockerfile", context: context, target: target(stage), tag: tag(round, stage),
            buildArguments: ["SOURCE_DATE_EPOCH=\(sourceDateEpoch)"] + buildArguments,
            timestamp: rewriteTimestamp ? sourceDateEpoch : nil, network: network, environment: environment, oneCPU: oneCPU,
            log: folder + "/build.log")
        try builder.build(build, describedAs: "\(stage.name) (build \(round))")
    }

    /// One stage's two images compared and explained: the same image ID in the store is the
    /// same image, nothing to export or read (unless --keep asked for the layouts); else both
    /// are exported and read.
    private func explain(
        _ stage: BuildPlan.Stage, folders: Folders, conditions: BuildConditions
    ) throws(ImageBuilder.Failure) -> (ImageExplanation, [String: String]) {
        do {
            if work.kept == nil, let first = builder.inspect(tag(1, stage)), let second = builder.inspect(tag(2, stage)),
                first.configDigest == second.configDigest
            {
                progress("\(stage.name): both builds have the image ID \(first.configDigest), nothing to export")
                let comparison = try ImageComparison(first: first, second: second)
                let attribution = LayerAttribution(plan: plan, stage: stage.key, image: first)
                return (
                    ImageExplanation(comparison: comparison, stage: stage.name, attribution: attribution, conditions: conditions),
                    [:]
                )
            }
        } catch {
            throw ImageBuilder.Failure(message: error.message, logTail: "")
        }
        let layouts = (folders.first + "/" + safeName(stage), folders.second + "/" + safeName(stage))
        progress("exporting both images of \(stage.name)")
        try exportBoth((tag(1, stage), tag(2, stage)), to: layouts, logs: (folders.first, folders.second))
        do {
            return try Self.explain(
                layouts: layouts, stage: stage, plan: plan, conditions: conditions, diffoscope: diffoscope, started: started,
                context: context)
        } catch {
            throw ImageBuilder.Failure(message: error.message, logTail: "")
        }
    }

    /// Reads two OCI layouts of one stage, compares them and explains the differences; with
    /// diffoscope, compares the differing files too.
    ///
    /// - Parameters:
    ///   - layouts: The first and the second build's layout folders.
    ///   - stage: The build stage they were built for; `nil` when no Dockerfile is known.
    ///   - plan: The Dockerfile's plan.
    ///   - conditions: How the second build's conditions differed.
    ///   - diffoscope: The diffoscope comparison, when asked for.
    ///   - context: The command's context (its file system and standard error).
    /// - Returns: The explanation and diffoscope's texts.
    /// - Throws: `VerifyError` for a layout or layer that cannot be read.
    static func explain(
        layouts: (String, String), stage: BuildPlan.Stage?, plan: BuildPlan, conditions: BuildConditions,
        diffoscope: DiffoscopeComparison?, started: ContinuousClock.Instant, context: CommandContext
    ) throws(VerifyError) -> (ImageExplanation, [String: String]) {
        let name = stage?.name ?? "image"
        let first = try OCIImage(layout: layouts.0, fileSystem: context.fileSystem)
        let second = try OCIImage(layout: layouts.1, fileSystem: context.fileSystem)
        // The same configuration digest is taken as the same image only once every layer is
        // the blob its digest names.
        progress("checking the layers of \(name) against their digests", since: started, context: context)
        try first.checkLayerDigests()
        try second.checkLayerDigests()
        progress("comparing \(name)", since: started, context: context)
        let comparison = try ImageComparison(first: first, second: second) { index in
            progress(
                "comparing \(name): layer \(index + 1) of \(first.layers.count) differs, reading its entries", since: started,
                context: context)
        }
        let attribution = LayerAttribution(plan: plan, stage: stage?.key ?? "", image: first)
        let explanation = ImageExplanation(comparison: comparison, stage: name, attribution: attribution, conditions: conditions)
        progress("compared \(name)", since: started, context: context)
        guard let diffoscope, !explanation.reproducible else { return (explanation, [:]) }
        progress("diffoscope: comparing the differing files of \(name)", since: started, context: context)
        return (explanation, diffoscope.compare(explanation))
    }

    /// Waits until the minute is another than the first build's start: what a runner an hour
    /// later sees, as far as minute-resolution stamps tell. A signal ends the wait.
    private func waitForAnotherMinute(than start: Date) {
        let minute = Int(start.timeIntervalSince1970) / 60
        let now = context.now().timeIntervalSince1970
        guard Int(now) / 60 == minute else { return }
        let wait = Double(minute + 1) * 60 - now + 1
        progress("waiting \(Int(wait.rounded(.up))) s so the second build starts in another minute (--vary=-time skips it)")
        let until = context.now().addingTimeInterval(wait)
        while context.now() < until, stopSignal() == nil { Thread.sleep(forTimeInterval: 0.2) }
    }

    /// Ends the run when a signal asked it to stop.
    private func stopIfAsked() throws(ImageBuilder.Failure) {
        if let signal = stopSignal() { throw ImageBuilder.Failure(message: "stopped by signal \(signal)", logTail: "") }
    }

    /// Exports the two images side by side (each export compresses its layers: one core each).
    private func exportBoth(
        _ tags: (String, String), to layouts: (String, String), logs: (String, String)
    ) throws(ImageBuilder.Failure) {
        let failure = Mutex<ImageBuilder.Failure?>(nil)
        let builder = self.builder
        let jobs = [(tags.0, layouts.0, logs.0), (tags.1, layouts.1, logs.1)]
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (tag, layout, folder) = jobs[index]
            do throws(ImageBuilder.Failure) {
                try builder.export(tag, to: layout, log: folder + "/export.log")
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The `--target` for a stage: its alias; the last stage without one is built without.
    private func target(_ stage: BuildPlan.Stage) -> String? {
        stage.key.hasPrefix("#") ? nil : stage.name
    }

    private func safeName(_ stage: BuildPlan.Stage) -> String {
        "layout-" + String(stage.key.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    private func progress(_ message: String) {
        Self.progress(message, since: started, context: context)
    }

    /// A progress line on standard error with the seconds since the run started:
    /// `verify: [12.3 s] MESSAGE`.
    static func progress(_ message: String, since start: ContinuousClock.Instant, context: CommandContext) {
        let elapsed = ContinuousClock.now - start
        let seconds = ((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 10).rounded() / 10
        context.standardError.write("verify: [\(seconds) s] \(message)\n")
    }
}

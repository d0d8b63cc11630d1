import Foundation
import StageKit

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
    }

    var builder: ImageBuilder
    var variations: BuildVariations
    var plan: BuildPlan
    var targets: [BuildPlan.Stage]
    var sourceText: String
    var contextFolder: String
    var work: VerifyWorkFolder
    var sourceDateEpoch: Int
    var rewriteTimestamp: Bool
    var buildArguments: [String]
    var context: CommandContext

    /// Builds, exports, compares and explains.
    ///
    /// - Throws: `ImageBuilder.Failure` for a build or export that failed, or an image layout
    ///   that cannot be read.
    func run() throws(ImageBuilder.Failure) -> Outcome {
        let version = builder.version() ?? builder.name
        let firstFolder = work.path + "/build-1"
        let secondFolder = work.path + "/second-build-folder/build-2"
        do {
            for folder in [firstFolder, secondFolder] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(sourceText.utf8).write(to: URL(fileURLWithPath: folder + "/Dockerfile"))
            }
        } catch {
            throw ImageBuilder.Failure(message: "cannot write into \(work.path): \(error.localizedDescription)", logTail: "")
        }
        var notes: [VerifyReport.VariationNote] = []
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        var secondContext = contextFolder
        if variations.copiesContext {
            progress("copying the build context for the second build")
            do {
                try variations.copyContext(from: contextFolder, to: secondFolder + "/context")
            } catch {
                throw ImageBuilder.Failure(message: "cannot copy the build context: \(error.localizedDescription)", logTail: "")
            }
            secondContext = secondFolder + "/context"
        }
        let oneCPU = variations.has(.numCPUs) && cpus > 1
        let tag = { (build: Int, stage: BuildPlan.Stage) in
            "localhost/stagebuild-verify-\(getpid())-\(build):\(stage.key.hasPrefix("#") ? "stage" + stage.key.dropFirst() : stage.key)"
        }
        var made: [String] = []
        defer { builder.remove(made) }
        let arguments = ["SOURCE_DATE_EPOCH=\(sourceDateEpoch)"] + buildArguments
        let firstStarted = Date()
        for stage in targets {
            progress("build 1 of 2: \(stage.name) (\(builder.name), no cache)")
            let build = ImageBuilder.Build(
                dockerfile: firstFolder + "/Dockerfile", context: contextFolder, target: target(stage), tag: tag(1, stage),
                buildArguments: arguments, timestamp: rewriteTimestamp ? sourceDateEpoch : nil, options: [],
                environment: builder.environment, oneCPU: false, log: firstFolder + "/build.log")
            made.append(build.tag)
            try builder.build(build, describedAs: "\(stage.name) (build 1)")
        }
        if variations.has(.time) {
            // Another minute than the first build's start: what a runner an hour later sees,
            // as far as minute-resolution stamps tell.
            let minute = Int(firstStarted.timeIntervalSince1970) / 60
            let now = Date().timeIntervalSince1970
            if Int(now) / 60 == minute {
                let wait = Double(minute + 1) * 60 - now + 1
                progress(
                    "waiting \(Int(wait.rounded(.up))) s so the second build starts in another minute (--vary=-time skips it)")
                Thread.sleep(forTimeInterval: wait)
            }
        }
        for stage in targets {
            progress(
                "build 2 of 2: \(stage.name) (varied: \(variations.chosen.filter { $0 != .userGroup }.map(\.rawValue).joined(separator: ", ")))"
            )
            let build = ImageBuilder.Build(
                dockerfile: secondFolder + "/Dockerfile", context: secondContext, target: target(stage), tag: tag(2, stage),
                buildArguments: arguments, timestamp: rewriteTimestamp ? sourceDateEpoch : nil, options: [],
                environment: variations.secondEnvironment(builder.environment), oneCPU: oneCPU,
                log: secondFolder + "/build.log")
            made.append(build.tag)
            try builder.build(build, describedAs: "\(stage.name) (build 2)")
        }
        notes = VerifyReport.VariationNote.notes(
            for: variations, cpus: cpus, started: (firstStarted, Date()), builder: builder.name)
        var explanations: [ImageExplanation] = []
        let conditions = BuildConditions(
            cpuCounts: oneCPU ? (cpus, 1) : nil,
            contextPaths: variations.copiesContext ? (contextFolder, secondContext) : nil,
            environmentMarker: variations.has(.environment) ? BuildVariations.environmentMarker : nil)
        for stage in targets {
            let layouts = (firstFolder + "/" + safeName(stage), secondFolder + "/" + safeName(stage))
            progress("exporting both images of \(stage.name)")
            try builder.export(tag(1, stage), to: layouts.0, log: firstFolder + "/export.log")
            try builder.export(tag(2, stage), to: layouts.1, log: secondFolder + "/export.log")
            do {
                let first = try OCIImage(layout: layouts.0, fileSystem: context.fileSystem)
                let second = try OCIImage(layout: layouts.1, fileSystem: context.fileSystem)
                progress("comparing \(stage.name)")
                let comparison = try ImageComparison(first: first, second: second) { index in
                    progress("comparing \(stage.name): layer \(index + 1) of \(first.layers.count) differs, reading its entries")
                }
                let attribution = LayerAttribution(plan: plan, stage: stage.key, image: first)
                explanations.append(
                    ImageExplanation(comparison: comparison, stage: stage.name, attribution: attribution, conditions: conditions))
            } catch {
                throw ImageBuilder.Failure(message: error.message, logTail: "")
            }
        }
        return Outcome(builderVersion: version, notes: notes, explanations: explanations)
    }

    /// The `--target` for a stage: its alias; the last stage without one is built without.
    private func target(_ stage: BuildPlan.Stage) -> String? {
        stage.key.hasPrefix("#") ? nil : stage.name
    }

    private func safeName(_ stage: BuildPlan.Stage) -> String {
        "layout-" + String(stage.key.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    private func progress(_ message: String) {
        context.standardError.write("verify: \(message)\n")
    }
}

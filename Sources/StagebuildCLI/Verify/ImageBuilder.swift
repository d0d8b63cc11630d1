import Foundation
import JSONReader
import StageKit

/// The builder `stagebuild verify` drives: buildah (`bud`) or podman (`build`), which read the
/// same flags and keep images in the same containers storage (buildah-build(1), podman-build(1)).
/// Each build is made without cache and with one layer per instruction, and the image is
/// exported as an OCI image layout (`push … oci:DIR`).
struct ImageBuilder {
    /// `buildah` or `podman`.
    var name: String
    /// The program's absolute path.
    var program: String
    /// The environment the builder runs with: the user's, so its own settings
    /// (`CONTAINERS_STORAGE_CONF`, `BUILDAH_ISOLATION`, `CONTAINERS_REGISTRIES_CONF`, proxies) apply.
    var environment: [String: String]
    /// The longest one build may take, in seconds.
    var deadline: Double

    /// A finished build or export that failed.
    struct Failure: Error {
        /// What failed, e.g. `buildah bud of app (build 2) exited with status 1`.
        var message: String
        /// The tail of its output.
        var logTail: String
    }

    /// One build's request.
    struct Build {
        /// The Dockerfile's path.
        var dockerfile: String
        /// The build context's folder.
        var context: String
        /// The `--target` stage alias; `nil` builds the last stage.
        var target: String?
        /// The image name to tag it with.
        var tag: String
        /// `--build-arg` values, `NAME=VALUE`.
        var buildArguments: [String]
        /// `--timestamp`: file and configuration times clamped to these seconds since the epoch.
        var timestamp: Int?
        /// Extra options (`--userns-uid-map` …).
        var options: [String]
        /// The environment of this build's builder.
        var environment: [String: String]
        /// Runs the builder under `taskset -c 0` (one CPU visible).
        var oneCPU: Bool
        /// Where its output is written.
        var log: String
    }

    /// The builder's version line, e.g. `buildah version 1.28.2 (…)`.
    func version() -> String? {
        let child = ChildProcess(program: program, arguments: ["--version"], environment: environment, deadline: 30)
        guard let result = try? child.run(), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Builds an image.
    ///
    /// - Throws: `Failure` with the log's tail when the builder fails or passes its deadline.
    func build(_ build: Build, describedAs what: String) throws(Failure) {
        // --force-rm: a failed step's working container goes too.
        var arguments = [
            name == "podman" ? "build" : "bud", "--layers", "--no-cache", "--force-rm", "-f", build.dockerfile, "-t", build.tag,
        ]
        if let target = build.target { arguments += ["--target", target] }
        if let timestamp = build.timestamp { arguments += ["--timestamp", String(timestamp)] }
        arguments += build.buildArguments.flatMap { ["--build-arg", $0] }
        arguments += build.options
        arguments.append(build.context)
        var program = self.program
        if build.oneCPU, let taskset = ChildProcess.find("taskset", in: build.environment["PATH"] ?? "/usr/bin:/bin") {
            arguments = ["-c", "0", program] + arguments
            program = taskset
        }
        try run(program, arguments, environment: build.environment, log: build.log, what: "\(name) build of \(what)")
    }

    /// Exports an image as an OCI image layout.
    ///
    /// - Parameters:
    ///   - tag: The image.
    ///   - layout: The layout's folder (made).
    ///   - log: Where the output is appended.
    /// - Throws: `Failure` when the export fails.
    func export(_ tag: String, to layout: String, log: String) throws(Failure) {
        try run(program, ["push", "--quiet", tag, "oci:" + layout], environment: environment, log: log, what: "export of \(tag)")
    }

    /// The image as the builder's store describes it (`buildah inspect --type image`): its
    /// configuration and image ID, without exporting its layers.
    ///
    /// - Parameter tag: The image.
    /// - Returns: The image, or `nil` when the builder cannot say (podman's inspect gives no
    ///   configuration as stored; a failed call).
    func inspect(_ tag: String) -> OCIImage? {
        guard name == "buildah" else { return nil }
        let child = ChildProcess(
            program: program, arguments: ["inspect", "--type", "image", tag], environment: environment, deadline: 120)
        guard let result = try? child.run(), result.status == 0, let document = try? JSONDocument.parse(result.output),
            let id = document[member: "FromImageID"]?.stringValue, let text = document[member: "Config"]?.stringValue,
            let configuration = try? JSONDocument.parse(text)
        else { return nil }
        return OCIImage(configuration: configuration, configDigest: "sha256:" + id)
    }

    /// The IDs of every image in the store, intermediate ones included.
    func imageIDs() -> Set<String> {
        let child = ChildProcess(
            program: program, arguments: ["images", "--all", "--quiet", "--no-trunc"], environment: environment, deadline: 120)
        guard let result = try? child.run(), result.status == 0 else { return [] }
        return Set(String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// Removes the images this run made: its tags, then every image that was not in the store
    /// before it (the intermediate images of `--layers`, other stages', a failed build's).
    /// Failures are ignored: nothing depends on them, and an image another build now uses stays.
    ///
    /// - Parameters:
    ///   - tags: The images the run tagged.
    ///   - before: ``imageIDs()`` before the run.
    func remove(_ tags: [String], keeping before: Set<String>) {
        if !tags.isEmpty {
            _ = try? ChildProcess(
                program: program, arguments: ["rmi", "--force"] + tags, environment: environment, deadline: 120
            )
            .run()
        }
        let made = imageIDs().subtracting(before).sorted()
        if !made.isEmpty {
            _ = try? ChildProcess(program: program, arguments: ["rmi"] + made, environment: environment, deadline: 120).run()
        }
    }

    private func run(
        _ program: String, _ arguments: [String], environment: [String: String], log: String, what: String
    )
        throws(Failure)
    {
        let child = ChildProcess(program: program, arguments: arguments, environment: environment, deadline: deadline)
        let result: ChildProcess.Result
        do {
            result = try child.run()
        } catch {
            throw Failure(message: "\(what): \(error.reason)", logTail: "")
        }
        let output = result.output + result.errorOutput
        if let handle = FileHandle(forWritingAtPath: log)
            ?? (FileManager.default.createFile(atPath: log, contents: nil)
                ? FileHandle(forWritingAtPath: log) : nil)
        {
            handle.seekToEndOfFile()
            handle.write(Data(output))
            try? handle.close()
        }
        guard result.status == 0 else {
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            throw Failure(
                message: "\(what) exited with status \(result.status)", logTail: lines.suffix(20).joined(separator: "\n"))
        }
    }
}

import Foundation
import JSONReader
import Serialization
import StageKit

/// The builder `stagebuild verify` drives: buildah (`bud`) or podman (`build`), which read the
/// same flags and keep images in the same containers storage (buildah-build(1), podman-build(1)),
/// or Docker's BuildKit (`docker build` with `DOCKER_BUILDKIT=1`; Docker reference, "docker
/// build"). Each build is made without cache and with one layer per instruction; an image is
/// exported as an OCI image layout (`buildah push … oci:DIR`) or as `docker save` writes it.
struct ImageBuilder {
    /// Which builder.
    enum Kind: String, CaseIterable {
        case buildah, podman, docker

        /// Why a variation cannot be applied with this builder, or `nil` when it can.
        func unapplied(_ variation: BuildVariations.Variation) -> String? {
            switch (self, variation) {
            case (_, .userGroup):
                return self == .docker
                    ? "not applied: BuildKit runs each step with the daemon's user namespace, which a build cannot choose"
                    : "not applied: a build with another user namespace mapping cannot write the root file system "
                        + "\(rawValue)'s chroot isolation unpacks"
            case (.docker, .numCPUs):
                return "not applied: BuildKit gives each RUN every CPU of the daemon's machine (docker build's "
                    + "--cpuset-cpus is the legacy builder's)"
            case (.docker, .domainHost):
                return "not applied: BuildKit names every build's host buildkitsandbox"
            case (.docker, .environment):
                return "not applied: the Docker daemon builds, and the client's environment does not reach the build"
            default:
                return nil
            }
        }
    }

    /// Which builder.
    var kind: Kind
    /// The program's absolute path.
    var program: String
    /// The environment the builder runs with: the user's, so its own settings
    /// (`CONTAINERS_STORAGE_CONF`, `BUILDAH_ISOLATION`, `CONTAINERS_REGISTRIES_CONF`, `DOCKER_HOST`,
    /// proxies) apply.
    var environment: [String: String]
    /// The longest one build may take, in seconds.
    var deadline: Double

    /// `buildah`, `podman` or `docker`.
    var name: String { kind.rawValue }

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
        /// `--network`: the network mode of RUN steps (`host`, `none`…); `nil` is the builder's own.
        var network: String?
        /// The environment of this build's builder.
        var environment: [String: String]
        /// Runs the builder under `taskset -c 0` (one CPU visible).
        var oneCPU: Bool
        /// Where its output is written.
        var log: String
    }

    /// The builder's version line, e.g. `buildah version 1.28.2 (…)` or `docker 20.10.24
    /// (BuildKit)`, the Docker daemon's version.
    ///
    /// - Throws: `Failure` when the builder cannot be run, or Docker's daemon cannot be reached
    ///   (with what docker said).
    func version() throws(Failure) -> String {
        // Docker: the daemon's version and the client's, which decides how it builds, in one call.
        let arguments = kind == .docker ? ["version", "--format", "{{.Server.Version}} {{.Client.Version}}"] : ["--version"]
        let child = ChildProcess(program: program, arguments: arguments, environment: environment, deadline: 30)
        let result: ChildProcess.Result
        do {
            result = try child.run()
        } catch {
            throw Failure(message: "\(name) --version: \(error.reason)", logTail: "")
        }
        let text = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !text.isEmpty else {
            let said = String(decoding: result.errorOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                message: kind == .docker ? "the Docker daemon cannot be reached: \(said)" : "\(name) --version failed: \(said)",
                logTail: "")
        }
        guard kind == .docker else { return text }
        let versions = text.split(separator: " ")
        try checkBuildKitClient(version: versions.count == 2 ? String(versions[1]) : "")
        return "docker \(versions[0]) (BuildKit)"
    }

    /// A docker client from version 23 builds with BuildKit only through its buildx plugin
    /// (Docker Engine 23 release notes: `docker build` is `docker buildx build`); without the
    /// plugin, every build would fail with `BuildKit is enabled but the buildx component is
    /// missing`, which is no builder rather than a failed build. Clients before 23 have
    /// BuildKit built in.
    ///
    /// - Parameter version: The client's version, e.g. `28.0.1`.
    private func checkBuildKitClient(version: String) throws(Failure) {
        guard let major = Int(version.prefix { $0.isNumber }), major >= 23 else { return }
        let buildx = ChildProcess(program: program, arguments: ["buildx", "version"], environment: environment, deadline: 30)
        guard let result = try? buildx.run(), result.status == 0 else {
            throw Failure(
                message: "\(program) (docker \(version)) builds with BuildKit "
                    + "through the buildx plugin, which it does not find (docker buildx version failed): install the "
                    + "buildx plugin (docker-buildx-plugin), or put a docker client with BuildKit built in first in PATH",
                logTail: "")
        }
    }

    /// Builds an image.
    ///
    /// - Throws: `Failure` with the log's tail when the builder fails or passes its deadline.
    func build(_ build: Build, describedAs what: String) throws(Failure) {
        // --force-rm: a failed step's working container goes too (BuildKit keeps none).
        var arguments: [String]
        var environment = build.environment
        switch kind {
        case .buildah: arguments = ["bud", "--layers", "--no-cache", "--force-rm"]
        case .podman: arguments = ["build", "--layers", "--no-cache", "--force-rm"]
        case .docker:
            // BuildKit makes a layer for each instruction that changes files; the legacy
            // builder, the default of Docker before 23, is not what runners use.
            arguments = ["build", "--no-cache", "--progress", "plain"]
            environment["DOCKER_BUILDKIT"] = "1"
        }
        arguments += ["-f", build.dockerfile, "-t", build.tag]
        if let target = build.target { arguments += ["--target", target] }
        if let timestamp = build.timestamp { arguments += ["--timestamp", String(timestamp)] }
        if let network = build.network { arguments += ["--network", network] }
        arguments += build.buildArguments.flatMap { ["--build-arg", $0] }
        arguments.append(build.context)
        var program = self.program
        if build.oneCPU, let taskset = ChildProcess.find("taskset", in: build.environment["PATH"] ?? "/usr/bin:/bin") {
            arguments = ["-c", "0", program] + arguments
            program = taskset
        }
        try run(program, arguments, environment: environment, log: build.log, what: "\(name) build of \(what)")
    }

    /// Exports an image into a folder `OCIImage(layout:)` reads: an OCI image layout (`buildah
    /// push … oci:DIR`), or `docker save`'s archive unpacked (an OCI layout from Docker 25, the
    /// `manifest.json` form before).
    ///
    /// - Parameters:
    ///   - tag: The image.
    ///   - layout: The folder (made).
    ///   - log: Where the output is appended.
    /// - Throws: `Failure` when the export fails.
    func export(_ tag: String, to layout: String, log: String) throws(Failure) {
        guard kind == .docker else {
            try run(
                program, ["push", "--quiet", tag, "oci:" + layout], environment: environment, log: log, what: "export of \(tag)")
            return
        }
        let archive = layout + ".tar"
        try run(program, ["save", "-o", archive, tag], environment: environment, log: log, what: "docker save of \(tag)")
        defer { try? FileManager.default.removeItem(atPath: archive) }
        guard let tar = ChildProcess.find("tar", in: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw Failure(message: "tar is not in PATH: it unpacks docker save's archive", logTail: "")
        }
        do {
            try FileManager.default.createDirectory(atPath: layout, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot make \(layout): \(error.localizedDescription)", logTail: "")
        }
        try run(tar, ["-x", "-f", archive, "-C", layout], environment: environment, log: log, what: "unpacking \(archive)")
    }

    /// The image as the builder's store describes it, without exporting its layers: buildah's
    /// configuration as stored and its image ID (`buildah inspect --type image`), or Docker's
    /// image ID and diff IDs (`docker image inspect`; the ID is the configuration's digest, so
    /// two images of one ID are one image).
    ///
    /// - Parameter tag: The image.
    /// - Returns: The image, or `nil` when the builder cannot say (podman's inspect gives no
    ///   configuration as stored; a failed call).
    func inspect(_ tag: String) -> OCIImage? {
        switch kind {
        case .podman:
            return nil
        case .buildah:
            let child = ChildProcess(
                program: program, arguments: ["inspect", "--type", "image", tag], environment: environment, deadline: 120)
            guard let result = try? child.run(), result.status == 0, let document = try? JSONDocument.parse(result.output),
                let id = document[member: "FromImageID"]?.stringValue, let text = document[member: "Config"]?.stringValue,
                let configuration = try? JSONDocument.parse(text)
            else { return nil }
            return OCIImage(configuration: configuration, configDigest: "sha256:" + id)
        case .docker:
            let child = ChildProcess(
                program: program, arguments: ["image", "inspect", tag], environment: environment, deadline: 120)
            guard let result = try? child.run(), result.status == 0, let document = try? JSONDocument.parse(result.output),
                let image = document.elements?.first, let id = image[member: "Id"]?.stringValue
            else { return nil }
            let diffIDs = image[member: "RootFS"]?[member: "Layers"]?.elements?.compactMap(\.stringValue) ?? []
            let configuration = JSONValue.object([
                ("rootfs", .object([("diff_ids", .array(diffIDs.map { JSONValue.string($0) }))]))
            ])
            return OCIImage(configuration: configuration, configDigest: id)
        }
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

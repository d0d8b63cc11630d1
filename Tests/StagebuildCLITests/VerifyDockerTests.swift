import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild verify --builder docker` against a real Docker daemon and its BuildKit (Debian's
/// docker.io, a daemon of its own without a bridge, so builds run with `--network host`): the
/// fixture catalog of ``VerifyBuildahTests`` built twice, each cause BuildKit lets differ named
/// at its template line, the variations BuildKit cannot apply named with why, and nothing left
/// in the daemon's store. Needs `Tests/e2e/docker/start STATE` and
/// `STAGEBUILD_DOCKER_STATE=STATE` (scripts/test does both).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["STAGEBUILD_DOCKER_STATE"] != nil,
        "needs STAGEBUILD_DOCKER_STATE from Tests/e2e/docker/start"))
struct VerifyDockerTests {
    /// The environment that reaches the test's daemon: `DOCKER_HOST` from STATE/env, and a
    /// `PATH` with Debian's docker client.
    static func environment(home: String) throws -> [String: String] {
        let state = try #require(ProcessInfo.processInfo.environment["STAGEBUILD_DOCKER_STATE"])
        let env = try String(contentsOfFile: state + "/env", encoding: .utf8)
        let host = try #require(env.split(separator: "\n").first { $0.hasPrefix("DOCKER_HOST=") }?.dropFirst(12))
        return ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": home, "DOCKER_HOST": String(host)]
    }

    /// The IDs of every image in the daemon's store.
    static func images(_ environment: [String: String]) throws -> [String] {
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/docker"), ["images", "--all", "--quiet", "--no-trunc"], environment: environment,
            limit: .seconds(60))
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func eachCauseBuildKitLetsDifferIsNamedAtItsTemplateLine() throws {
        let server = try BackgroundProcess(try ProcessRun.builtExecutable("stagebuild"), ["serve", "--port", "0"])
        let url = try server.line(within: .seconds(10))
        let port = try #require(url.split(separator: ":").last.map { String($0.prefix { $0.isNumber }) })
        let scratch = try VerifyBuildahTests.catalog(port: port)
        let environment = try Self.environment(home: scratch.path)
        let before = try Self.images(environment)
        let run = scratch.run(
            [
                "verify", "--builder", "docker", "--network", "host", "--target", "fixtures", "--vary=-time",
                "--source-date-epoch", "1700000000", "--format", "json",
            ], environment: environment)
        _ = server.stop()
        #expect(run.status == .checkFailed, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((document["builder"] as? String)?.hasPrefix("docker ") == true, "\(run.stdout)")
        #expect((document["builder"] as? String)?.hasSuffix("(BuildKit)") == true, "\(run.stdout)")
        // BuildKit names every host buildkitsandbox and gives every CPU: not varied, and said so.
        let variations = try #require(document["variations"] as? [[String: Any]])
        for name in ["num_cpus", "domain_host", "environment", "user_group"] {
            let note = variations.first { $0["name"] as? String == name }
            #expect(note?["applied"] as? Bool == false, "\(name): \(variations)")
            #expect((note?["detail"] as? String)?.contains("not applied") == true, "\(name): \(variations)")
        }
        #expect(variations.first { $0["name"] as? String == "umask" }?["applied"] as? Bool == true)
        let images = try #require(document["images"] as? [[String: Any]])
        let layers = try #require(images.first?["layers"] as? [[String: Any]])
        // BuildKit's history (`RUN … # buildkit`, `COPY …`) names each layer's template line.
        let expected = VerifyBuildahTests.fixtures.filter {
            ["build-time", "package-manager-logs", "network-content", "context-permissions"].contains($0.cause)
        }
        #expect(expected.count == 4)
        for fixture in expected {
            let layer = layers.first { layer in
                let origin = (layer["instruction"] as? [String: Any])?["origin"] as? [String: Any]
                return origin?["file"] as? String == fixture.file && origin?["line"] as? Int == fixture.line
            }
            let causes = (layer?["causes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(causes.contains(fixture.cause), "\(fixture.file):\(fixture.line): \(causes) in \(run.stdout)")
        }
        // The configuration's times: BuildKit before 0.11 does not read SOURCE_DATE_EPOCH.
        let fields = try #require(images.first?["fields"] as? [[String: Any]])
        let created = fields.first { $0["path"] as? String == "created" }
        #expect(created?["cause"] as? String == "configuration-time", "\(fields)")
        #expect(try Self.images(environment) == before, "the run left images in the daemon's store")
    }

    @Test func optionsDockerCannotHonourAreRefused() throws {
        let scratch = try VerifyBuildahTests.catalog(port: "1")
        let environment = try Self.environment(home: scratch.path)
        let rewrite = scratch.run(
            ["verify", "--builder", "docker", "--target", "clean", "--rewrite-timestamp"], environment: environment)
        #expect(rewrite.status == .usage, "\(rewrite)")
        #expect(rewrite.stderr.contains("docker build has no such option"), "\(rewrite.stderr)")
        let inside = scratch.run(
            ["verify", "--builder", "docker", "--target", "clean", "--keep", "kept"], environment: environment)
        #expect(inside.status == .usage, "\(inside)")
        #expect(inside.stderr.contains("is inside the build context"), "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/kept"))
        var away = environment
        away["DOCKER_HOST"] = "unix://" + scratch.path + "/no-daemon.sock"
        let unreachable = scratch.run(["verify", "--builder", "docker", "--target", "clean"], environment: away)
        #expect(unreachable.status == .unavailable, "\(unreachable)")
        #expect(unreachable.stderr.contains("the Docker daemon cannot be reached"), "\(unreachable.stderr)")
    }

    /// SIGINT while BuildKit runs a step: the build is stopped, nothing is left (no image, no
    /// work folder), and the status is 130. The signal arrives after child processes (git, the
    /// builder's version) have started threads of their own, which must not take it.
    @Test func aSignalStopsTheBuildAndLeavesNothing() async throws {
        let scratch = try VerifyBuildahTests.catalog(port: "1")
        try scratch.write("FROM stage:base AS slow\nRUN sleep 30\n", to: "Stagefile")
        try FileManager.default.createDirectory(atPath: scratch.path + "/tmp", withIntermediateDirectories: true)
        var environment = try Self.environment(home: scratch.path)
        environment["TMPDIR"] = scratch.path + "/tmp"
        let before = try Self.images(environment)
        let run = try await ProcessRun.run(
            try ProcessRun.builtExecutable("stagebuild"), ["verify", "--builder", "docker", "--network", "none"],
            environment: environment, in: URL(fileURLWithPath: scratch.path), interruptAfter: .seconds(3), limit: .seconds(60))
        #expect(run.status == 130 && !run.signalled, "\(run)")
        #expect(run.stderr.contains("verify stopped by a signal"), "\(run)")
        #expect((run.afterInterrupt ?? .seconds(99)) < .seconds(20), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/tmp").isEmpty)
        #expect(try Self.images(environment) == before, "the run left images in the daemon's store")
    }

    /// A docker client from 23 on without its buildx plugin cannot build with BuildKit: no
    /// builder (69), said before any build. This machine's Docker 28 client in /usr/local/bin
    /// has no plugin; the test runs where such a client is.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/local/bin/docker")))
    func aClientWithoutBuildxIsNoBuilder() throws {
        let scratch = try VerifyBuildahTests.catalog(port: "1")
        var environment = try Self.environment(home: scratch.path)
        environment["PATH"] = "/usr/local/bin:" + (environment["PATH"] ?? "")
        let version = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/local/bin/docker"), ["buildx", "version"], environment: environment, limit: .seconds(30))
        try #require(version.status != 0, "this client has buildx: nothing to test")
        let run = scratch.run(["verify", "--builder", "docker", "--target", "clean"], environment: environment)
        #expect(run.status == .unavailable, "\(run)")
        #expect(run.stderr.contains("through the buildx plugin, which it does not find"), "\(run.stderr)")
        #expect(!run.stderr.contains("build 1 of 2"), "\(run.stderr)")
    }

    @Test func aBuildThatFailsShowsItsLogAndExits70() throws {
        let scratch = try VerifyBuildahTests.catalog(port: "1")
        try scratch.write("FROM stage:base AS broken\nRUN exit 3\n", to: "Stagefile")
        let environment = try Self.environment(home: scratch.path)
        let run = scratch.run(["verify", "--builder", "docker", "--network", "none", "--vary=-time"], environment: environment)
        #expect(run.status == .internalError, "\(run)")
        #expect(run.stderr.contains("docker build of broken (build 1) exited with status"), "\(run.stderr)")
        #expect(run.stderr.contains("exit 3"), "\(run.stderr)")
    }
}

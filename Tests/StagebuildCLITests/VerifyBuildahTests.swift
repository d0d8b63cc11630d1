import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild verify` against a real buildah: a catalog of templates that each make an image
/// unreproducible in one known way is built twice under the variations, and every cause must
/// be named at its template's own line; a clean stage must be reported reproducible. Each test
/// keeps a buildah storage of its own in its scratch folder. Needs
/// `Tests/e2e/buildah-cache/start STATE` and `STAGEBUILD_BUILDAH_STATE=STATE` (scripts/test
/// does both).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["STAGEBUILD_BUILDAH_STATE"] != nil,
        "needs STAGEBUILD_BUILDAH_STATE from Tests/e2e/buildah-cache/start"))
struct VerifyBuildahTests {
    /// Each fixture template: its file, the cause it must be found with, and the line that causes it.
    static let fixtures: [(file: String, text: String, cause: String, line: Int)] = [
        ("Stages/stamp.Dockerfile", "# summary: writes the time of the build\nRUN date > /etc/build-date\n", "build-time", 2),
        (
            "Stages/dpkg-log.Dockerfile", "# summary: leaves a dpkg log\nRUN mkdir -p /var/log && date > /var/log/dpkg.log\n",
            "package-manager-logs", 2
        ),
        ("Stages/workers.Dockerfile", "# summary: records the CPU count\nRUN nproc > /etc/workers\n", "cpu-count", 2),
        (
            "Stages/fetch.Dockerfile",
            "# summary: downloads from a server whose answer changes\n# param PORT: the server's port\nARG PORT=1\n"
                + "RUN wget -q -O /srv-latest.json \"http://127.0.0.1:${PORT}/\"\n",
            "network-content", 4
        ),
        (
            "Stages/bytecode.Dockerfile",
            "# summary: writes Python bytecode\nRUN mkdir -p /app/__pycache__ && hostname > /app/__pycache__/main.cpython-311.pyc\n",
            "python-bytecode", 2
        ),
        ("Stages/host.Dockerfile", "# summary: records the host name\nRUN hostname > /etc/built-on\n", "host-name", 2),
        ("Stages/conf.Dockerfile", "# summary: copies a config file\nCOPY app.conf /etc/app.conf\n", "context-permissions", 2),
    ]

    /// The catalog, the Stagefile (a fixtures stage using every template, a clean stage) and
    /// the config file, in a new scratch folder: the fixtures of every builder's tests.
    ///
    /// - Parameter port: The port of the server the `fetch` fixture downloads from.
    static func catalog(port: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("# summary: busybox\nFROM localhost/stagebuild-diff-base:1\n", to: "Stages/base.Dockerfile")
        for fixture in fixtures { try scratch.write(fixture.text, to: fixture.file) }
        try scratch.write(
            """
            FROM stage:base AS fixtures
            USE stamp
            USE dpkg-log
            USE workers
            USE fetch PORT=\(port)
            USE bytecode
            USE host
            USE conf
            FROM stage:base AS clean
            RUN echo stable > /stable

            """, to: "Stagefile")
        try scratch.write("key=value\n", to: "app.conf")
        chmod(scratch.path + "/app.conf", 0o644)
        return scratch
    }

    /// ``catalog(port:)`` with buildah's storage and chroot isolation in the environment.
    static func project(port: String) throws -> (Scratch, [String: String]) {
        let scratch = try catalog(port: port)
        // A storage of its own: the suites run side by side, and DiffBuildahTests prunes its
        // storage's images while builds here would hold containers there. The base is made
        // here from the busybox tree Tests/e2e/buildah-cache/start left.
        let state = try #require(ProcessInfo.processInfo.environment["STAGEBUILD_BUILDAH_STATE"])
        let storage = [
            "--root", scratch.path + "/storage/root", "--runroot", scratch.path + "/storage/run", "--storage-driver", "vfs",
        ]
        func buildah(_ arguments: [String]) throws -> String {
            let run = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/buildah"), storage + arguments,
                environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"],
                limit: .seconds(120))
            #expect(run.status == 0, "\(run)")
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let container = try buildah(["from", "scratch"])
        _ = try buildah(["copy", container, state + "/rootfs/", "/"])
        _ = try buildah(["config", "--env", "PATH=/bin", container])
        _ = try buildah(["commit", "-q", container, "localhost/stagebuild-diff-base:1"])
        _ = try buildah(["rm", container])
        try scratch.write(
            "[storage]\ndriver = \"vfs\"\ngraphroot = \"\(storage[1])\"\nrunroot = \"\(storage[3])\"\n", to: "storage.conf")
        let environment = [
            "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": scratch.path,
            "CONTAINERS_STORAGE_CONF": scratch.path + "/storage.conf",
            "BUILDAH_ISOLATION": "chroot",
        ]
        return (scratch, environment)
    }

    @Test func eachCauseIsNamedAtItsTemplateLine() throws {
        let server = try BackgroundProcess(try ProcessRun.builtExecutable("stagebuild"), ["serve", "--port", "0"])
        let url = try server.line(within: .seconds(10))
        let port = try #require(url.split(separator: ":").last.map { String($0.prefix { $0.isNumber }) })
        let (scratch, environment) = try Self.project(port: port)
        let run = scratch.run(
            ["verify", "--target", "fixtures", "--vary=-time", "--source-date-epoch", "1700000000", "--format", "json"],
            environment: environment)
        #expect(run.status == .checkFailed, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["reproducible"] as? Bool == false)
        let images = try #require(document["images"] as? [[String: Any]])
        let layers = try #require(images.first?["layers"] as? [[String: Any]])
        for fixture in Self.fixtures {
            let layer = layers.first { layer in
                let origin = (layer["instruction"] as? [String: Any])?["origin"] as? [String: Any]
                return origin?["file"] as? String == fixture.file && origin?["line"] as? Int == fixture.line
            }
            let causes = (layer?["causes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(causes.contains(fixture.cause), "\(fixture.file):\(fixture.line): \(causes) in \(run.stdout)")
        }
        // The text report names the same line and cause, with the fix.
        let text = scratch.run(
            ["verify", "--target", "fixtures", "--vary=num_cpus", "--source-date-epoch", "1700000000", "--rewrite-timestamp"],
            environment: environment)
        #expect(text.status == .checkFailed, "\(text)")
        #expect(text.stdout.contains("RUN nproc > /etc/workers  (composed line"), "\(text.stdout)")
        #expect(text.stdout.contains("from Stages/workers.Dockerfile:2)"), "\(text.stdout)")
        #expect(text.stdout.contains("cpu-count: the content depends on how many CPUs"), "\(text.stdout)")
        #expect(
            text.stdout.contains("/etc/workers: content \"2\" against \"1\"") || ProcessInfo.processInfo.activeProcessorCount != 2
        )
        #expect(text.stderr.contains(" s] build 2 of 2: fixtures (varied: num_cpus)"), "\(text.stderr)")
        _ = server.stop()
    }

    @Test func aCleanStageIsReproducibleUnderEveryVariation() throws {
        let (scratch, environment) = try Self.project(port: "1")
        // Outside the build context (the scratch folder), which verify refuses to keep in.
        let outside = try Scratch()
        let kept = outside.path + "/kept"
        let run = scratch.run(
            ["verify", "--target", "clean", "--rewrite-timestamp", "--source-date-epoch", "1700000000", "--keep", kept],
            environment: environment)
        #expect(run.status == .success, "\(run)")
        #expect(run.stdout.contains("clean: reproducible (sha256:"), "\(run.stdout)")
        #expect(run.stdout.contains("varied: time ("), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: kept + "/build-1/layout-clean/index.json"))
        #expect(FileManager.default.fileExists(atPath: kept + "/second-build-folder/build-2/layout-clean/index.json"))
        // Without --keep, the same image ID in buildah's store ends it: nothing is exported.
        let quick = scratch.run(
            ["verify", "--target", "clean", "--rewrite-timestamp", "--source-date-epoch", "1700000000", "--vary=-time"],
            environment: environment)
        #expect(quick.status == .success, "\(quick)")
        #expect(quick.stderr.contains("nothing to export") && !quick.stderr.contains("exporting"), "\(quick.stderr)")
    }

    /// podman reads buildah's flags and store: a clean stage is reproducible, and a stamp is
    /// named at its template line, with the layouts it exported (its inspect gives no
    /// configuration as stored, so it always exports).
    @Test func podmanBuildsAndIsExplainedAsBuildahIs() throws {
        let (scratch, environment) = try Self.project(port: "1")
        try scratch.write(
            "FROM stage:base AS clean\nRUN echo stable > /stable\nFROM stage:base AS stamped\nUSE stamp\n", to: "Stagefile")
        let run = scratch.run(
            [
                "verify", "--builder", "podman", "--target", "clean", "--target", "stamped", "--rewrite-timestamp",
                "--source-date-epoch", "1700000000", "--vary=-time", "--format", "json",
            ], environment: environment)
        #expect(run.status == .checkFailed, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((document["builder"] as? String)?.hasPrefix("podman version") == true, "\(run.stdout)")
        let images = try #require(document["images"] as? [[String: Any]])
        #expect(images.map { $0["reproducible"] as? Bool } == [true, false], "\(run.stdout)")
        let layers = images.last?["layers"] as? [[String: Any]] ?? []
        let stamp = layers.first { layer in
            let origin = (layer["instruction"] as? [String: Any])?["origin"] as? [String: Any]
            return origin?["file"] as? String == "Stages/stamp.Dockerfile" && origin?["line"] as? Int == 2
        }
        let causes = (stamp?["causes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(causes.contains("build-time"), "\(run.stdout)")
        #expect(run.stderr.contains("exporting both images of clean"), "\(run.stderr)")
    }

    @Test func aBuildThatFailsShowsItsLogAndExits70() throws {
        let (scratch, environment) = try Self.project(port: "1")
        try scratch.write("FROM stage:base AS broken\nRUN exit 3\n", to: "Stagefile")
        let run = scratch.run(["verify", "--vary=-time"], environment: environment)
        #expect(run.status == .internalError, "\(run)")
        #expect(run.stderr.contains("buildah build of broken (build 1) exited with status"), "\(run.stderr)")
        #expect(run.stderr.contains("RUN exit 3"), "\(run.stderr)")
    }
}

import Foundation
import TestSupport
import Testing

/// compose's refusal of an `ARG` after an `ENV` of the same name, held against buildah: the
/// Dockerfile compose used to write for such a Stagefile builds, and buildah keeps the `ENV`'s
/// value where BuildKit takes the parameter's (moby/buildkit `dockerfile2llb/convert.go`,
/// `dispatchArg` adds every ARG with a value to the build stage's environment; no BuildKit
/// daemon runs here), so the refused file means two things; renamed, the parameter's value is
/// what buildah builds. Needs `Tests/e2e/buildah-cache/start STATE` and
/// `STAGEBUILD_BUILDAH_STATE=STATE` (scripts/test does both).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["STAGEBUILD_BUILDAH_STATE"] != nil,
        "needs STAGEBUILD_BUILDAH_STATE from Tests/e2e/buildah-cache/start"))
struct EnvironmentSplitBuildahTests {
    static let files = [
        "Stages/base.Dockerfile": "# summary: busybox\nFROM localhost/stagebuild-diff-base:1\n",
        "Stages/app.Dockerfile":
            "# summary: app\n# param APP_DIR: where the app lives\nARG APP_DIR=/srv/app\nWORKDIR ${APP_DIR}\n",
    ]

    /// Builds a Dockerfile with buildah and returns the image's working folder.
    static func workingDirectory(building dockerfile: String, in scratch: Scratch, tag: String) throws -> String {
        try scratch.write(dockerfile, to: "Dockerfile")
        let storage = try DiffBuildahTests.storage()
        let environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": scratch.path]
        let image = "localhost/stagebuild-env-split:\(tag)"
        let build = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/buildah"),
            storage + ["bud", "--isolation", "chroot", "--pull-never", "-t", image, "-f", "Dockerfile", "."],
            environment: environment, in: scratch.url, limit: .seconds(120))
        #expect(build.status == 0, "\(build)")
        let inspect = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/buildah"),
            storage + ["inspect", "--type", "image", "--format", "{{.OCIv1.Config.WorkingDir}}", image],
            environment: environment, limit: .seconds(60))
        #expect(inspect.status == 0, "\(inspect)")
        _ = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/buildah"), storage + ["rmi", image], environment: environment, limit: .seconds(60))
        return inspect.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theRefusedFileMeansTheEnvUnderBuildahAndTheRenamedOneTheParameter() throws {
        let scratch = try Scratch()
        for (path, text) in Self.files { try scratch.write(text, to: path) }
        try scratch.write("FROM stage:base\nENV APP_DIR=/srv/from-env\nUSE app APP_DIR=/opt/app\n", to: "Stagefile")
        let refused = scratch.run(["compose"])
        #expect(refused.status == .dataError)
        #expect(refused.stderr.contains("Stages/app.Dockerfile:3:5: error: parameter APP_DIR"), "\(refused.stderr)")

        // What compose wrote before it refused: the Stagefile's ENV, then the parameter's ARG.
        let split = try Self.workingDirectory(
            building:
                "FROM localhost/stagebuild-diff-base:1\nENV APP_DIR=/srv/from-env\nARG APP_DIR=/opt/app\nWORKDIR ${APP_DIR}\n",
            in: scratch, tag: "split")
        #expect(split == "/srv/from-env")

        try scratch.write("FROM stage:base\nENV APP_HOME=/srv/from-env\nUSE app APP_DIR=/opt/app\n", to: "Stagefile")
        let renamed = scratch.run(["compose"])
        #expect(renamed.status == .success, "\(renamed.stderr)")
        #expect(try Self.workingDirectory(building: renamed.stdout, in: scratch, tag: "renamed") == "/opt/app")
    }
}

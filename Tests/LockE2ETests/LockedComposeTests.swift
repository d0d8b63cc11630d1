import Foundation
import TestSupport
import Testing

/// `compose` with the lockfile `stagebuild lock` wrote from the real registry, and a build of
/// the composed file with buildah from that registry.
@Suite(.enabled(if: Registries.isConfigured, "set STAGEBUILD_REGISTRY_STATE (Tests/e2e/registry/start)"), .serialized)
struct LockedComposeTests {
    /// A project with a catalog of two templates: a base template on the tiny image and a layer
    /// template that copies from the image index, used by the Stagefile.
    func catalogProject(syntax: Bool) throws -> (Project, Registries) {
        let registries = try Registries.current()
        let project = try Project()
        try project.write(
            """
            # summary: The tiny e2e image
            FROM \(registries.image("OPEN_PORT"))
            """ + "\n", to: "Stages/tiny-base.Dockerfile")
        try project.write(
            """
            # summary: Copies the greeting out of the image index
            COPY --from=\(registries.image("OPEN_PORT", tag: registries["INDEX_TAG"])) /hello.txt /from-index.txt
            """ + "\n", to: "Stages/from-index.Dockerfile")
        let directive = syntax ? "# syntax=\(registries.image("OPEN_PORT"))\n" : ""
        try project.write(
            directive + """
                FROM stage:tiny-base AS first
                USE from-index

                FROM stage:tiny-base
                COPY --from=first /from-index.txt /again.txt
                USER 1000
                """ + "\n", to: "Stagefile")
        return (project, registries)
    }

    @Test func composingWithTheLockPinsEveryImage() throws {
        let (project, registries) = try catalogProject(syntax: true)
        let lock = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(lock.status == 0, "\(lock)")
        #expect(try project.lockfile().templates.keys.sorted() == ["from-index", "tiny-base"])

        let run = try project.stagebuild(["compose", "--locked"])
        #expect(run.status == 0, "\(run)")
        let digest = registries["IMAGE_DIGEST"]
        let index = registries["INDEX_DIGEST"]
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "# syntax=\(registries.image("OPEN_PORT"))@\(digest)", "\(run)")
        #expect(lines.contains("FROM \(registries.image("OPEN_PORT"))@\(digest) AS first"), "\(run)")
        #expect(lines.contains("FROM \(registries.image("OPEN_PORT"))@\(digest)"), "\(run)")
        #expect(
            lines.contains(
                "COPY --from=\(registries.image("OPEN_PORT", tag: registries["INDEX_TAG"]))@\(index) /hello.txt /from-index.txt"),
            "\(run)")
        #expect(lines.contains("COPY --from=first /from-index.txt /again.txt"), "a build stage name is not an image\n\(run)")
        #expect(run.stdout.contains("from Stagefile and stagebuild.lock"), "\(run)")
        // Every image reference carries a digest.
        for line in lines where line.hasPrefix("FROM ") || line.contains("--from=127.") {
            #expect(line.contains("@sha256:"), "unpinned: \(line)")
        }
    }

    @Test func changingATemplateMakesLockedFail() throws {
        let (project, registries) = try catalogProject(syntax: false)
        let lock = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(lock.status == 0, "\(lock)")
        #expect(try project.stagebuild(["compose", "--locked"]).status == 0)

        let template = try #require(project.text("Stages/from-index.Dockerfile"))
        try project.write(template + "LABEL changed=yes\n", to: "Stages/from-index.Dockerfile")
        let run = try project.stagebuild(["compose", "--locked"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("template 'from-index' changed"), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        let check = try project.stagebuild(["lock", "--check"])
        #expect(check.status == 1, "\(check)")
        #expect(check.stderr.contains("template 'from-index' changed"), "\(check)")
        // Without --locked, compose still pins what the lock holds and warns.
        let lenient = try project.stagebuild(["compose"])
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.stderr.contains("warning: stagebuild.lock is stale"), "\(lenient)")
        #expect(lenient.stdout.contains("@\(registries["IMAGE_DIGEST"])"), "\(lenient)")
    }

    @Test func composedAndLockedFileBuildsTwiceToTheSameImage() throws {
        let (project, registries) = try catalogProject(syntax: false)
        let lock = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(lock.status == 0, "\(lock)")
        let compose = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(compose.status == 0, "\(compose)")

        let buildah = URL(fileURLWithPath: "/usr/bin/buildah")
        let storage = project.path + "/buildah"
        var ids: [String] = []
        for attempt in 1...2 {
            let run = try ProcessRun.run(
                buildah,
                [
                    "--root", storage + "/root", "--runroot", storage + "/runroot", "--storage-driver", "vfs", "bud",
                    "--isolation", "chroot", "--no-cache", "--timestamp", "0", "--tls-verify=false",
                    "--signature-policy", registries["BUILDAH_POLICY"], "--iidfile", "iid\(attempt)", "-f", "Dockerfile", ".",
                ],
                environment: Project.baseEnvironment.merging(
                    ["CONTAINERS_REGISTRIES_CONF": registries["BUILDAH_REGISTRIES_CONF"]]) { $1 },
                in: project.url, limit: .seconds(110))
            #expect(run.status == 0, "\(run)")
            ids.append(project.text("iid\(attempt)") ?? "")
        }
        try #require(ids.count >= 2)
        #expect(ids[0].hasPrefix("sha256:"), "\(ids)")
        #expect(ids[0] == ids[1])
    }
}

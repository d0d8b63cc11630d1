import Foundation
import Testing

/// `stagebuild lock` against the real distribution registry on loopback (Tests/e2e/registry).
@Suite(.enabled(if: Registries.isConfigured, "set STAGEBUILD_REGISTRY_STATE (Tests/e2e/registry/start)"), .serialized)
struct LockRegistryTests {
    /// A project whose Stagefile names `images` in FROM lines (the first one aliased `base`,
    /// so the last FROM can copy from it), ending with a non-root USER.
    func project(from images: [String]) throws -> Project {
        let project = try Project()
        var lines: [String] = []
        for (index, image) in images.enumerated() {
            lines.append("FROM \(image)" + (index == 0 && images.count > 1 ? " AS base" : ""))
        }
        lines.append("USER 1000")
        try project.write(lines.joined(separator: "\n") + "\n", to: "Stagefile")
        return project
    }

    @Test func writesExactlyTheDigestsTheRegistryReports() throws {
        let registries = try Registries.current()
        let project = try Project()
        let tagged = registries.image("OPEN_PORT")
        let index = registries.image("OPEN_PORT", tag: registries["INDEX_TAG"])
        try project.write(
            "FROM \(tagged) AS base\nFROM \(index)\nCOPY --from=\(tagged) /hello.txt /copied.txt\nUSER 1000\n", to: "Stagefile")
        let run = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.formatVersion == 4)
        #expect(Set(lockfile.images.keys) == [tagged, index])
        let image = try #require(lockfile.images[tagged])
        #expect(image.digest == registries["IMAGE_DIGEST"])
        #expect(image.mediaType == registries["IMAGE_MEDIA_TYPE"])
        #expect(image.reference == tagged)
        #expect(image.name == tagged)
        // A multi-platform tag pins the index, not one platform's manifest.
        let pinnedIndex = try #require(lockfile.images[index])
        #expect(pinnedIndex.digest == registries["INDEX_DIGEST"])
        #expect(pinnedIndex.mediaType == "application/vnd.oci.image.index.v1+json")
        #expect(run.stdout.contains("\(tagged) \(registries["IMAGE_DIGEST"])"), "\(run)")

        let text = try #require(project.text("stagebuild.lock"))
        #expect(text.hasSuffix("}\n") && text.contains("\n  \"images\": {\n"))
        // A second run resolves the same digests and leaves the file as it is.
        try project.backdate("stagebuild.lock")
        let stamp = try project.stamp("stagebuild.lock")
        let again = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("unchanged"), "\(again)")
        #expect(try project.stamp("stagebuild.lock") == stamp)
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
    }

    /// A reviewer cannot check a digest by eye: an edit of one is caught offline, naming the image.
    @Test func aHandEditedDigestIsCaughtOfflineNamingTheImage() throws {
        let registries = try Registries.current()
        let project = try Project()
        let tagged = registries.image("OPEN_PORT")
        try project.write("FROM \(tagged)\nUSER 1000\n", to: "Stagefile")
        let run = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        try #require(run.status == 0, "\(run)")
        let written = try #require(project.text("stagebuild.lock"))
        let digest = registries["IMAGE_DIGEST"]
        let edited = "sha256:0000" + digest.dropFirst("sha256:0000".count)
        try #require(edited != digest && written.contains(digest))
        try project.write(written.replacingOccurrences(of: digest, with: edited), to: "stagebuild.lock")
        for arguments in [["lock", "--check"], ["compose", "--locked"]] {
            let check = try project.stagebuild(arguments)
            #expect(check.status == 1, "\(arguments): \(check)")
            #expect(check.stderr.contains("the entry of image \(tagged) does not match its integrity digest"), "\(check)")
            #expect(!check.stdout.contains(edited))
        }
    }

    @Test func resolvesThroughTinyproxy() throws {
        let registries = try Registries.current()
        let project = try project(from: [registries.image("OPEN_PORT", tag: registries["INDEX_TAG"])])
        let run = try project.stagebuild([
            "lock", "--insecure-registry", registries.host("OPEN_PORT"), "--proxy", "http://" + registries.host("TINYPROXY_PORT"),
        ])
        #expect(run.status == 0, "\(run)")
        #expect(try project.lockfile().images.values.first?.digest == registries["INDEX_DIGEST"])
        let log = try String(contentsOfFile: registries["TINYPROXY_LOG"], encoding: .utf8)
        let request =
            "HEAD http://\(registries.host("OPEN_PORT"))/v2/\(registries["IMAGE_PATH"])/manifests/\(registries["INDEX_TAG"])"
        #expect(log.contains(request), "tinyproxy's log does not show \(request)")
    }

    @Test func proxyFromTheEnvironmentAsCurlReadsIt() throws {
        let registries = try Registries.current()
        let project = try project(from: [registries.image("OPEN_PORT")])
        // http_proxy (lower case) is read for plain-HTTP registries; NO_PROXY sends the host around it.
        let bypassed = try project.stagebuild(
            ["lock", "--insecure-registry", registries.host("OPEN_PORT")],
            environment: ["http_proxy": "http://" + registries.host("CLOSED_PORT"), "NO_PROXY": "127.0.0.1"])
        #expect(bypassed.status == 0, "\(bypassed)")
        let proxied = try project.stagebuild(
            ["lock", "--insecure-registry", registries.host("OPEN_PORT")],
            environment: ["http_proxy": "http://" + registries.host("CLOSED_PORT")])
        #expect(proxied.status == 69, "\(proxied)")
        #expect(proxied.stderr.contains("proxy"), "\(proxied)")
    }

    @Test func basicAuthWorksWithCredentials() throws {
        let registries = try Registries.current()
        let image = registries.image("AUTH_PORT")
        let project = try project(from: [image])
        let insecure = ["--insecure-registry", registries.host("AUTH_PORT")]
        let run = try project.stagebuild(
            ["lock"] + insecure + ["--registry-auth", registries.host("AUTH_PORT") + "=" + registries.credentials])
        #expect(run.status == 0, "\(run)")
        #expect(try project.lockfile().images[image]?.digest == registries["AUTH_IMAGE_DIGEST"])
        #expect(!run.output.contains(registries["AUTH_PASSWORD"]))

        let fromEnvironment = try project.stagebuild(
            ["lock"] + insecure,
            environment: ["STAGEBUILD_REGISTRY_AUTH": registries.host("AUTH_PORT") + "=" + registries.credentials])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(!fromEnvironment.output.contains(registries["AUTH_PASSWORD"]))
    }

    @Test func basicAuthFailsClearlyWithoutOrWithWrongCredentials() throws {
        let registries = try Registries.current()
        let project = try project(from: [registries.image("AUTH_PORT")])
        let insecure = ["--insecure-registry", registries.host("AUTH_PORT")]
        try project.write("not touched\n", to: "stagebuild.lock")
        try project.backdate("stagebuild.lock")
        let stamp = try project.stamp("stagebuild.lock")

        let without = try project.stagebuild(["lock"] + insecure)
        #expect(without.status == 69, "\(without)")
        #expect(without.stderr.contains("--registry-auth"), "\(without)")
        #expect(without.stderr.contains(registries.image("AUTH_PORT")), "the error names the image\n\(without)")

        let wrongPassword = registries["AUTH_PASSWORD"] + "-wrong"
        let wrong = try project.stagebuild(
            ["lock"] + insecure + [
                "--registry-auth", registries.host("AUTH_PORT") + "=" + registries["AUTH_USER"] + ":" + wrongPassword,
            ])
        #expect(wrong.status == 69, "\(wrong)")
        #expect(wrong.stderr.contains("refused the credentials of user \(registries["AUTH_USER"])"), "\(wrong)")
        #expect(!wrong.output.contains(wrongPassword))

        #expect(project.text("stagebuild.lock") == "not touched\n")
        #expect(try project.stamp("stagebuild.lock") == stamp)
    }

    /// A lockfile written by a good run, then a Stagefile whose image fails: the error names the
    /// image and the request, and the lockfile keeps every byte and its timestamp.
    func expectFailureLeavesLockfile(
        image: String, insecure: String, status: Int32, words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let registries = try Registries.current()
        let project = try project(from: [registries.image("OPEN_PORT")])
        let good = try project.stagebuild(["lock", "--insecure-registry", registries.host("OPEN_PORT")])
        #expect(good.status == 0, "\(good)", sourceLocation: sourceLocation)
        let before = try #require(project.data("stagebuild.lock"), sourceLocation: sourceLocation)
        try project.backdate("stagebuild.lock")
        let stamp = try project.stamp("stagebuild.lock")

        try project.write("FROM \(registries.image("OPEN_PORT")) AS base\nFROM \(image)\nUSER 1000\n", to: "Stagefile")
        let run = try project.stagebuild([
            "lock", "--insecure-registry", registries.host("OPEN_PORT"), "--insecure-registry", insecure,
            "--connect-timeout", "5", "--max-time", "10",
        ])
        #expect(run.status == status, "\(run)", sourceLocation: sourceLocation)
        for word in [image, "was not changed"] + words {
            #expect(run.stderr.contains(word), "stderr lacks \"\(word)\"\n\(run)", sourceLocation: sourceLocation)
        }
        #expect(project.data("stagebuild.lock") == before, sourceLocation: sourceLocation)
        #expect(try project.stamp("stagebuild.lock") == stamp, sourceLocation: sourceLocation)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)", sourceLocation: sourceLocation)
    }

    @Test func unknownTagIsAClearErrorAndKeepsTheLockfile() throws {
        let registries = try Registries.current()
        try expectFailureLeavesLockfile(
            image: registries.image("OPEN_PORT", tag: "no-such-tag"), insecure: registries.host("OPEN_PORT"), status: 65,
            words: ["HEAD http://", "tag no-such-tag", "MANIFEST_UNKNOWN"])
    }

    @Test func registryThatIsDownIsAClearErrorAndKeepsTheLockfile() throws {
        let registries = try Registries.current()
        try expectFailureLeavesLockfile(
            image: registries.image("CLOSED_PORT"), insecure: registries.host("CLOSED_PORT"), status: 69,
            words: ["cannot reach \(registries.host("CLOSED_PORT"))"])
    }

    @Test func digestMismatchIsAClearErrorAndKeepsTheLockfile() throws {
        let registries = try Registries.current()
        // A reference pinned by digest: the bytes served must hash to it.
        let pinned = registries.host("TAMPER_PORT") + "/" + registries["IMAGE_PATH"] + "@" + registries["IMAGE_DIGEST"]
        try expectFailureLeavesLockfile(
            image: pinned, insecure: registries.host("TAMPER_PORT"), status: 69,
            words: ["GET http://", "digest mismatch", registries["IMAGE_DIGEST"]])
        // A tag whose HEAD names the true digest while the bytes served differ: the manifest is
        // fetched by that digest and checked, never pinned from the HEAD alone.
        try expectFailureLeavesLockfile(
            image: registries.image("TAMPER_PORT", tag: "headonly"), insecure: registries.host("TAMPER_PORT"), status: 69,
            words: ["GET http://", "digest mismatch", registries["IMAGE_DIGEST"]])
        // A tag without Docker-Content-Digest on HEAD: the digest announced on GET must match the bytes.
        try expectFailureLeavesLockfile(
            image: registries.image("TAMPER_PORT", tag: "nodigest"), insecure: registries.host("TAMPER_PORT"), status: 69,
            words: ["digest mismatch", "announces \(registries["IMAGE_DIGEST"])"])
    }

    /// `compose-lock-pins-non-manifest`: bytes served with a manifest media type that are no
    /// manifest are never pinned.
    @Test(arguments: [("badjson", "its body is not JSON"), ("bodytype", "its body's schemaVersion is not 2")])
    func anAnswerThatIsNoManifestIsNeverPinned(tag: String, problem: String) throws {
        let registries = try Registries.current()
        try expectFailureLeavesLockfile(
            image: registries.image("TAMPER_PORT", tag: tag), insecure: registries.host("TAMPER_PORT"), status: 69,
            words: ["GET http://", problem, "is \(registries.host("TAMPER_PORT")) a container registry?"])
    }
}

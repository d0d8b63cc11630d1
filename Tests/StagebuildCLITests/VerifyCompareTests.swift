import Foundation
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild verify --compare`: two OCI image layouts made here (GNU tar layers, the JSON
/// blobs written by hand as the image spec lays them out) compared and explained against a
/// Dockerfile, with no builder.
@Suite struct VerifyCompareTests {
    /// Writes a blob into a layout and returns its `sha256:` digest and size.
    private func blob(_ data: Data, in layout: String) throws -> (String, Int) {
        let file = layout + "/blob.tmp"
        try data.write(to: URL(fileURLWithPath: file))
        let sum = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file], limit: .seconds(30))
        let hex = String(sum.stdout.prefix(64))
        try FileManager.default.moveItem(atPath: file, toPath: layout + "/blobs/sha256/" + hex)
        return ("sha256:" + hex, data.count)
    }

    /// A layout of one image whose one layer holds `files` (path: content), made by `COPY`.
    private func layout(
        _ scratch: Scratch, _ name: String, files: [String: String],
        createdBy: String = "/bin/sh -c #(nop) COPY file:x in /etc/app.conf"
    ) throws -> String {
        let layout = scratch.path + "/" + name
        try FileManager.default.createDirectory(atPath: layout + "/blobs/sha256", withIntermediateDirectories: true)
        for (path, text) in files { try scratch.write(text, to: "\(name)-tree/" + path) }
        let tar = scratch.path + "/\(name).tar"
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/tar"),
            [
                "--format=pax", "--mtime=@0", "--numeric-owner", "--owner=0", "--group=0", "-C", scratch.path + "/\(name)-tree",
                "-cf", tar,
            ] + files.keys.sorted(),
            limit: .seconds(30))
        #expect(run.status == 0, "\(run)")
        let (layer, layerSize) = try blob(try Data(contentsOf: URL(fileURLWithPath: tar)), in: layout)
        let config = """
            {"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["\(layer)"]},\
            "history":[{"created_by":"\(createdBy)"}]}
            """
        let (configDigest, configSize) = try blob(Data(config.utf8), in: layout)
        let manifest = """
            {"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",\
            "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"\(configDigest)","size":\(configSize)},\
            "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"\(layer)","size":\(layerSize)}]}
            """
        let (manifestDigest, manifestSize) = try blob(Data(manifest.utf8), in: layout)
        try scratch.write(
            """
            {"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json",\
            "digest":"\(manifestDigest)","size":\(manifestSize)}]}
            """, to: name + "/index.json")
        return name
    }

    /// An unpacked `docker save` archive as Docker wrote it before version 25 (`manifest.json`,
    /// the configuration named by its digest, a folder per layer), its history as BuildKit
    /// records it.
    private func dockerArchive(
        _ scratch: Scratch, _ name: String, files: [String: String], layer: String = "0a1b"
    )
        throws -> String
    {
        for (path, text) in files { try scratch.write(text, to: "\(name)-tree/" + path) }
        try FileManager.default.createDirectory(atPath: scratch.path + "/\(name)/\(layer)", withIntermediateDirectories: true)
        let tar = scratch.path + "/\(name)/\(layer)/layer.tar"
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/tar"),
            ["--format=pax", "--mtime=@0", "--numeric-owner", "-C", scratch.path + "/\(name)-tree", "-cf", tar]
                + files.keys.sorted(),
            limit: .seconds(30))
        #expect(run.status == 0, "\(run)")
        let sum = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [tar], limit: .seconds(30))
        let config = """
            {"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:\(sum.stdout.prefix(64))"]},\
            "history":[{"created_by":"COPY app.conf /etc/app.conf # buildkit"}]}
            """
        try scratch.write(config, to: "\(name)/config.tmp")
        let configSum = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/sha256sum"), [scratch.path + "/\(name)/config.tmp"], limit: .seconds(30))
        let configName = "\(configSum.stdout.prefix(64)).json"
        try FileManager.default.moveItem(
            atPath: scratch.path + "/\(name)/config.tmp", toPath: scratch.path + "/\(name)/\(configName)")
        try scratch.write(
            "[{\"Config\":\"\(configName)\",\"RepoTags\":[\"app:1\"],\"Layers\":[\"\(layer)/layer.tar\"]}]",
            to: name + "/manifest.json")
        return name
    }

    @Test func dockerSaveArchivesAreComparedAndBuildKitHistoryNamesTheLine() throws {
        let scratch = try Scratch()
        try scratch.write("FROM scratch AS app\nCOPY app.conf /etc/app.conf\n", to: "Dockerfile")
        let first = try dockerArchive(scratch, "first", files: ["etc/app.conf": "built 2026-12-03 10:11:59\n"])
        let second = try dockerArchive(scratch, "second", files: ["etc/app.conf": "built 2026-12-03 10:12:03\n"])
        let json = scratch.run([
            "verify", "--compare", first, "--compare", second, "--dockerfile", "Dockerfile", "--format", "json",
        ])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let layer = try #require(((document["images"] as? [[String: Any]])?.first?["layers"] as? [[String: Any]])?.first)
        let origin = (layer["instruction"] as? [String: Any])?["origin"] as? [String: Any]
        #expect(origin?["line"] as? Int == 2 && origin?["file"] as? String == "Dockerfile", "\(json.stdout)")
        #expect((layer["causes"] as? [[String: Any]])?.first?["id"] as? String == "build-time", "\(json.stdout)")
        #expect(scratch.run(["verify", "--compare", first, "--compare", first]).status == .success)
        // A manifest.json naming a file outside its folder is refused, not read.
        let escaping = try dockerArchive(scratch, "escaping", files: ["a": "a\n"], layer: "..")
        let refused = scratch.run(["verify", "--compare", escaping, "--compare", first])
        #expect(refused.status == .dataError, "\(refused)")
        #expect(refused.stderr.contains("../layer.tar is not a path inside the archive"), "\(refused.stderr)")
        // A layer replaced, its configuration left as it was, is not the image the configuration names.
        let files = FileManager.default
        try files.copyItem(atPath: scratch.path + "/first", toPath: scratch.path + "/tampered")
        try files.removeItem(atPath: scratch.path + "/tampered/0a1b/layer.tar")
        try files.copyItem(atPath: scratch.path + "/second/0a1b/layer.tar", toPath: scratch.path + "/tampered/0a1b/layer.tar")
        let tampered = scratch.run(["verify", "--compare", first, "--compare", "tampered"])
        #expect(tampered.status == .dataError, "\(tampered)")
        #expect(tampered.stderr.contains("layer.tar is not the blob its digest names"), "\(tampered.stderr)")
        // A file of the archive linked to one outside it is not read.
        try files.removeItem(atPath: scratch.path + "/tampered/0a1b/layer.tar")
        try files.createSymbolicLink(
            atPath: scratch.path + "/tampered/0a1b/layer.tar", withDestinationPath: scratch.path + "/second/0a1b/layer.tar")
        let linked = scratch.run(["verify", "--compare", first, "--compare", "tampered"])
        #expect(linked.status == .dataError, "\(linked)")
        #expect(linked.stderr.contains("leads outside"), "\(linked.stderr)")
    }

    @Test func twoLayoutsAreComparedAndTheLayerNamedByItsInstruction() throws {
        let scratch = try Scratch()
        try scratch.write("FROM scratch AS app\nCOPY app.conf /etc/app.conf\n", to: "Dockerfile")
        let first = try layout(scratch, "first", files: ["etc/app.conf": "built 2026-12-03 10:11:59\n"])
        let second = try layout(scratch, "second", files: ["etc/app.conf": "built 2026-12-03 10:12:03\n"])
        let run = scratch.run(["verify", "--compare", first, "--compare", second, "--dockerfile", "Dockerfile"])
        #expect(run.status == .checkFailed, "\(run)")
        #expect(run.stdout.contains("verify: first and second against Dockerfile, compared"), "\(run.stdout)")
        #expect(run.stdout.contains("app: not reproducible: 1 of 1 layers"), "\(run.stdout)")
        #expect(
            run.stdout.contains("layer 1: COPY app.conf /etc/app.conf  (composed line 2, from Dockerfile:2)"), "\(run.stdout)")
        #expect(run.stdout.contains("build-time: the content holds the time of the build"), "\(run.stdout)")
        #expect(run.stdout.contains("/etc/app.conf: content \"10:11:59\" against \"10:12:03\""), "\(run.stdout)")

        let json = scratch.run(["verify", "--compare", first, "--compare", second, "--format", "json"])
        #expect(json.status == .checkFailed)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["reproducible"] as? Bool == false)
        #expect(document["sourceDateEpoch"] is NSNull)

        let same = scratch.run(["verify", "--compare", first, "--compare", first])
        #expect(same.status == .success, "\(same)")
        #expect(same.stdout.contains("image: reproducible (sha256:"), "\(same.stdout)")
    }

    @Test func layoutsOfAnotherStageNameNoLine() throws {
        let scratch = try Scratch()
        try scratch.write("FROM scratch AS app\nRUN echo hello > /etc/greeting\n", to: "Dockerfile")
        let first = try layout(scratch, "first", files: ["etc/app.conf": "a\n"])
        let second = try layout(scratch, "second", files: ["etc/app.conf": "b\n"])
        let run = scratch.run(["verify", "--compare", first, "--compare", second, "--dockerfile", "Dockerfile"])
        #expect(run.status == .checkFailed, "\(run)")
        #expect(run.stdout.contains("(the image's history is not app's instructions: no layer is named by its line)"))
        #expect(run.stdout.contains("layer 1: no instruction known"), "\(run.stdout)")
        #expect(!run.stdout.contains("RUN echo hello"), "\(run.stdout)")
    }

    @Test func aPackageAtAnotherVersionIsNamedWithBothVersions() throws {
        let scratch = try Scratch()
        try scratch.write("FROM scratch AS app\nRUN apt-get install -y curl\n", to: "Dockerfile")
        func status(_ version: String) -> String {
            "Package: curl\nStatus: install ok installed\nArchitecture: amd64\nVersion: \(version)\n\n"
                + "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nVersion: 2.36-9\n"
        }
        let first = try layout(
            scratch, "first", files: ["var/lib/dpkg/status": status("7.88.1-10+deb12u7"), "usr/bin/curl": "old binary"],
            createdBy: "/bin/sh -c apt-get install -y curl")
        let second = try layout(
            scratch, "second", files: ["var/lib/dpkg/status": status("7.88.1-10+deb12u8"), "usr/bin/curl": "new binary"],
            createdBy: "/bin/sh -c apt-get install -y curl")
        let run = scratch.run(["verify", "--compare", first, "--compare", second, "--dockerfile", "Dockerfile"])
        #expect(run.status == .checkFailed, "\(run)")
        #expect(
            run.stdout.contains(
                "package curl: 7.88.1-10+deb12u7 against 7.88.1-10+deb12u8 (not pinned on this line: "
                    + "curl=7.88.1-10+deb12u7 or a snapshot would have held it)"), "\(run.stdout)")
        #expect(run.stdout.contains("package-version: a package was installed at another version"), "\(run.stdout)")
        #expect(run.stdout.contains("/usr/bin/curl: content"), "\(run.stdout)")
        #expect(!run.stdout.contains("libc6"), "\(run.stdout)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/diffoscope"),
            "needs Debian's diffoscope (scripts/setup installs diffoscope-minimal)"))
    func diffoscopesTextIsShownUnderThePath() throws {
        let scratch = try Scratch()
        let first = try layout(scratch, "first", files: ["etc/app.conf": "built 2026-12-03 10:11:59\n"])
        let second = try layout(scratch, "second", files: ["etc/app.conf": "built 2026-12-03 10:12:03\n"])
        let run = scratch.run(
            ["verify", "--compare", first, "--compare", second, "--diffoscope"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == .checkFailed, "\(run)")
        #expect(run.stdout.contains("        | -built 2026-12-03 10:11:59"), "\(run.stdout)")
        #expect(run.stdout.contains("        | +built 2026-12-03 10:12:03"), "\(run.stdout)")
        let missing = scratch.run(
            ["verify", "--compare", first, "--compare", second, "--diffoscope"], environment: ["PATH": scratch.path])
        #expect(missing.status == .unavailable && missing.stderr.contains("diffoscope is not in PATH"), "\(missing)")
    }

    @Test func aCompareThatCannotBeRunIsAUsageError() throws {
        let scratch = try Scratch()
        #expect(scratch.run(["verify", "--compare", "a"]).status == .usage)
        try scratch.write("{}", to: "not-a-layout/file")
        let run = scratch.run(["verify", "--compare", "not-a-layout", "--compare", "not-a-layout"])
        #expect(run.status == .usage && run.stderr.contains("not an OCI image layout or an unpacked docker save"), "\(run)")
        #expect(scratch.run(["verify", "--vary", "weather"]).stderr.contains("--vary weather: not a variation"))
        #expect(scratch.run(["verify", "--vary="]).stderr.contains("--vary takes a comma-separated list"))
        try scratch.write("FROM scratch\nCOPY a /a\nFROM scratch AS final\nCOPY b /b\n", to: "Dockerfile")
        let unnamed = scratch.run(["verify", "--dockerfile", "Dockerfile", "--target", "#1"])
        #expect(unnamed.status == .usage && unnamed.stderr.contains("build stage #1 has no name"), "\(unnamed)")
    }
}

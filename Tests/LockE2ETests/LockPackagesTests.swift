import Foundation
import TestSupport
import Testing

/// `stagebuild lock`'s Debian package pins against a stand-in of the archive on loopback
/// (Tests/e2e/debian-archive): Debian's own signed InRelease and Packages.xz files, so the
/// signature gpgv checks is the archive's real one.
@Suite(
    .enabled(if: DebianArchiveStandIn.isConfigured, "set STAGEBUILD_DEBIAN_ARCHIVE_STATE (Tests/e2e/debian-archive/start)"),
    .serialized)
struct LockPackagesTests {
    /// The shipped `debian` template, its FROM made `scratch` so that no registry is asked.
    static func debianTemplate() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: repository.appendingPathComponent("Stages/debian.Dockerfile"), encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\nFROM debian:${DEBIAN_RELEASE}-slim\n", with: "\nFROM scratch\n")
        try #require(edited != text, "Stages/debian.Dockerfile has no FROM debian:${DEBIAN_RELEASE}-slim line")
        return edited
    }

    /// A project: the `debian` template, a layer template `tools` pinning the security package,
    /// and a Stagefile pinning `stagefilePin`, with `bindings` on its `FROM stage:debian`.
    func project(bindings: String, stagefilePin: String, toolsPin: String) throws -> Project {
        let project = try Project()
        try project.write(try Self.debianTemplate(), to: "Stages/debian.Dockerfile")
        try project.write(
            """
            # summary: a tool from the security suite
            RUN apt-get update \\
                && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
                    \(toolsPin) \\
                && rm -rf /var/lib/apt/lists/*

            """, to: "Stages/tools.Dockerfile")
        try project.write(
            """
            FROM stage:debian \(bindings)
            USE tools
            RUN apt-get update && apt-get install -y --no-install-recommends \(stagefilePin) \\
                && rm -rf /var/lib/apt/lists/*
            USER 1000

            """, to: "Stagefile")
        return project
    }

    @Test func recordsEachPinAsTheSnapshotHoldsIt() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        let mark = archive.accessLogMark
        let run = try project.stagebuild(["lock"])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.formatVersion == 4)
        #expect(lockfile.snapshots == ["DEBIAN_SNAPSHOT": archive["SNAPSHOT"]])
        #expect(Set(lockfile.packages.keys) == [archive.mainPin, archive.securityPin])
        let main = try #require(lockfile.packages[archive.mainPin])
        #expect(main.name == archive["MAIN_PACKAGE"])
        #expect(main.version == archive["MAIN_VERSION"])
        #expect(main.architecture == "amd64")
        #expect(main.suite == "bookworm")
        #expect(main.archive == "\(archive.url)/archive/debian/\(archive["SNAPSHOT"])")
        // What Debian's own Packages.xz says, read by xz and awk in the start script.
        #expect(main.sha256 == archive["MAIN_SHA256"])
        #expect(main.filename == archive["MAIN_FILENAME"])
        let security = try #require(lockfile.packages[archive.securityPin])
        #expect(security.suite == "bookworm-security")
        #expect(run.stdout.contains("(0 images, 2 packages, 2 templates)"), "\(run)")
        // Every request went to the snapshot layout, each suite's InRelease before its index.
        let paths = archive.accessLog(since: mark).compactMap { $0.split(separator: "\"").dropFirst().first }
        let snapshot = archive["SNAPSHOT"]
        #expect(
            paths == [
                "GET /archive/debian/\(snapshot)/dists/bookworm/InRelease HTTP/1.1",
                "GET /archive/debian/\(snapshot)/dists/bookworm/main/binary-amd64/Packages.xz HTTP/1.1",
                "GET /archive/debian/\(snapshot)/dists/bookworm-updates/InRelease HTTP/1.1",
                "GET /archive/debian/\(snapshot)/dists/bookworm-updates/main/binary-amd64/Packages.xz HTTP/1.1",
                "GET /archive/debian-security/\(snapshot)/dists/bookworm-security/InRelease HTTP/1.1",
                "GET /archive/debian-security/\(snapshot)/dists/bookworm-security/main/binary-amd64/Packages.xz HTTP/1.1",
            ])
        // lock --check stays offline: it is current with the stand-in's port closed or not.
        let check = try project.stagebuild(["lock", "--check"])
        #expect(check.status == 0, "\(check)")
        #expect(archive.accessLog(since: mark).count == paths.count)
    }

    @Test func aVersionTheArchiveLacksFailsBeforeAnythingIsWritten() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let missing = archive["MAIN_PACKAGE"] + "=9:0.0-0"
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: missing,
            toolsPin: archive.securityPin)
        let run = try project.stagebuild(["lock"])
        #expect(run.status == 65, "\(run)")
        #expect(
            run.stderr.contains(
                "error: Stagefile:3:66: package \(archive["MAIN_PACKAGE"]) version 9:0.0-0 is not in Debian bookworm at "
                    + "snapshot \(archive["SNAPSHOT"]) (build stage 1) for amd64; it has \(archive["MAIN_VERSION"]) (bookworm)"),
            "\(run)")
        #expect(run.stderr.contains("stagebuild.lock was not written."), "\(run)")
        #expect(project.data("stagebuild.lock") == nil)
    }

    @Test func readsTheLiveSuitesThroughTheProxyCurlWouldUse() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(bindings: "", stagefilePin: archive.mainPin, toolsPin: archive.securityPin)
        let mark = archive.accessLogMark
        // The stand-in answers absolute-form requests (RFC 9112 section 3.2.2) as a forward proxy would.
        let run = try project.stagebuild(["lock"], environment: ["http_proxy": archive.url])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.snapshots.isEmpty)
        #expect(lockfile.packages[archive.securityPin]?.suite == "bookworm-security")
        #expect(lockfile.packages[archive.securityPin]?.archive == "http://deb.debian.org/debian-security")
        #expect(run.stdout.contains("packages of build stage 1 from Debian bookworm (live)"), "\(run)")
        let requests = archive.accessLog(since: mark)
        #expect(requests.count == 6)
        #expect(requests.allSatisfy { $0.contains("\"GET http://deb.debian.org/debian") }, "\(requests)")
    }

    @Test func aPinEditedToAnotherVersionMakesTheLockStale() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        #expect(try project.stagebuild(["lock"]).status == 0)
        // The template's pin edited to another version.
        let template = try #require(project.text("Stages/tools.Dockerfile"))
        let edited = archive["SECURITY_PACKAGE"] + "=1:1.0-1"
        try project.write(template.replacingOccurrences(of: archive.securityPin, with: edited), to: "Stages/tools.Dockerfile")
        let check = try project.stagebuild(["lock", "--check"])
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stderr.contains("package pin \(edited) was added; package pin \(archive.securityPin) was removed"),
            "\(check)")
        #expect(check.stderr.contains("template 'tools' changed"), "\(check)")
        let compose = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(compose.status == 1, "\(compose)")
        #expect(compose.stderr.contains("package pin \(edited) was added"), "\(compose)")
        #expect(project.data("Dockerfile") == nil)
        // A pin of the Stagefile itself, which is no template, is caught the same way.
        try project.write(template, to: "Stages/tools.Dockerfile")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
        let stagefile = try #require(project.text("Stagefile"))
        let stagefilePin = archive["MAIN_PACKAGE"] + "=1:1.0-1"
        try project.write(stagefile.replacingOccurrences(of: archive.mainPin, with: stagefilePin), to: "Stagefile")
        let again = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(again.status == 1, "\(again)")
        #expect(again.stderr.contains("package pin \(stagefilePin) was added"), "\(again)")
    }

    @Test func aHandEditedPackageEntryIsCaughtOffline() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        #expect(try project.stagebuild(["lock"]).status == 0)
        let text = try #require(project.text("stagebuild.lock"))
        let sha256 = archive["MAIN_SHA256"]
        try project.write(text.replacingOccurrences(of: sha256, with: String(sha256.reversed())), to: "stagebuild.lock")
        let check = try project.stagebuild(["lock", "--check"])
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stderr.contains("the entry of package pin \(archive.mainPin) does not match its integrity digest"), "\(check)")
    }

    /// The offline check sees accidental edits; `--check --online` looks every package entry up
    /// again, so one forged with a recomputed integrity digest fails, naming it.
    @Test func checkOnlineCatchesAForgedPackageEntry() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        try #require(try project.stagebuild(["lock"]).status == 0)
        let online = try project.stagebuild(["lock", "--check", "--online"])
        #expect(online.status == 0, "\(online)")
        let entry = try #require(try project.lockfile().packages[archive.mainPin])
        let forged = String(repeating: "ab", count: 32)
        func integrity(_ sha256: String) throws -> String {
            let fields = [
                entry.architecture, entry.archive, entry.filename, entry.name, archive.mainPin, sha256, entry.suite,
                entry.version,
            ]
            let run = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/sha256sum"), [], input: Data(fields.map { $0 + "\n" }.joined().utf8),
                limit: .seconds(10))
            return "sha256:" + run.stdout.prefix(64)
        }
        let text = try #require(project.text("stagebuild.lock"))
        try project.write(
            text.replacingOccurrences(of: entry.sha256, with: forged)
                .replacingOccurrences(of: try integrity(entry.sha256), with: try integrity(forged)), to: "stagebuild.lock")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0, "the offline check cannot see it")
        let caught = try project.stagebuild(["lock", "--check", "--online"])
        #expect(caught.status == 1, "\(caught)")
        #expect(caught.stderr.contains("error: stagebuild.lock: packages.\(archive.mainPin): the archive holds"), "\(caught)")
    }

    /// A checked pin moved by hand to `unverifiedPackages`, `inputsDigest` recomputed as
    /// `LockInputs.digest` does: the offline check cannot tell; `--check --online` finds the pin
    /// in its stage's declared archive and fails, naming it.
    @Test func checkOnlineCatchesAPinForgedAsUnverified() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let snapshot = archive["SNAPSHOT"]
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(snapshot) DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        try #require(try project.stagebuild(["lock"]).status == 0)
        let data = try #require(project.data("stagebuild.lock"))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var packages = try #require(json["packages"] as? [String: Any])
        packages.removeValue(forKey: archive.mainPin)
        json["packages"] = packages
        json["unverifiedPackages"] = [archive.mainPin]
        func sorted(_ keys: some Sequence<String>) -> [String] { keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        let pins = sorted(Set(packages.keys).union([archive.mainPin]))
        let snapshots = try #require(json["snapshots"] as? [String: String])
        let archives = try #require(json["packageArchives"] as? [String: String])
        let templates = try #require(json["templates"] as? [String: [String: Any]])
        var lines = ["stagebuild.lock format 4"] + sorted((json["images"] as? [String: Any] ?? [:]).keys).map { "image \($0)" }
        lines += pins.map { "package \($0)" } + ["unverified-package \(archive.mainPin)"]
        lines += ["snapshot DEBIAN_SNAPSHOT \(snapshot)"]
        lines += sorted(snapshots.keys).map { "locked-snapshot \($0) \(snapshots[$0] ?? "")" }
        if let architecture = json["architecture"] as? String { lines.append("locked-architecture \(architecture)") }
        lines += sorted(archives.keys).map { "locked-package-archives \($0) \(archives[$0] ?? "")" }
        lines += sorted(templates.keys).map { "template \($0) \(templates[$0]?["digest"] as? String ?? "")" }
        let hash = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/sha256sum"), [], input: Data((lines.joined(separator: "\n") + "\n").utf8),
            limit: .seconds(10))
        json["inputsDigest"] = "sha256:" + hash.stdout.prefix(64)
        try project.write(
            String(
                decoding: try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
                + "\n", to: "stagebuild.lock")
        let offline = try project.stagebuild(["lock", "--check"])
        #expect(offline.status == 0, "the offline check cannot see it: \(offline)")
        let caught = try project.stagebuild(["lock", "--check", "--online"])
        #expect(caught.status == 1, "\(caught)")
        #expect(
            caught.stderr.contains("unverifiedPackages: \(archive.mainPin): its build stage's declared archive holds it"),
            "\(caught)")
    }

    @Test func anAlteredInReleaseIsRefusedByGpgv() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)/tampered",
            stagefilePin: archive.mainPin, toolsPin: archive.securityPin)
        let run = try project.stagebuild(["lock"])
        #expect(run.status == 69, "\(run)")
        #expect(
            run.stderr.contains(
                "/dists/bookworm/InRelease: the signature does not check out against "
                    + "/usr/share/keyrings/debian-archive-keyring.gpg: gpgv exited with"), "\(run)")
        #expect(run.stderr.contains("BAD signature"), "\(run)")
        #expect(project.data("stagebuild.lock") == nil)
    }

    @Test func snapshotOptionIsRecordedAndComposedAsDebianSnapshot() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin, toolsPin: archive.securityPin)
        let run = try project.stagebuild(["lock", "--snapshot", archive["SNAPSHOT"]])
        #expect(run.status == 0, "\(run)")
        #expect(try project.lockfile().snapshots == ["DEBIAN_SNAPSHOT": archive["SNAPSHOT"]])
        // A second lock keeps the recorded snapshot.
        let again = try project.stagebuild(["lock"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("unchanged: stagebuild.lock"), "\(again)")
        let compose = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(compose.status == 0, "\(compose)")
        let dockerfile = try #require(project.text("Dockerfile"))
        #expect(dockerfile.contains("\nARG DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"])\n"), "\(dockerfile)")
        #expect(dockerfile.contains("\nARG DEBIAN_SNAPSHOT_URL=\(archive.url)\n"), "\(dockerfile)")
    }

    /// dpkg's `--compare-versions LEFT ge RIGHT`, the reference order.
    func dpkgHolds(_ left: String, _ relation: String, _ right: String) throws -> Bool {
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/dpkg"), ["--compare-versions", left, relation, right], limit: .seconds(30))
        return run.status == 0
    }

    @Test func updatePackagesRewritesEachPinWhereItIsWrittenAndMovesTheSnapshot() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let old = archive["MAIN_PACKAGE"] + "=0.1-1"
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=20250520T000000Z DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: old,
            toolsPin: archive.securityPin)
        let template = try #require(project.text("Stages/tools.Dockerfile"))
        let stagefile = try #require(project.text("Stagefile"))
        let run = try project.stagebuild(["lock", "--update-packages", "--snapshot", archive["SNAPSHOT"]])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.snapshots == ["DEBIAN_SNAPSHOT": archive["SNAPSHOT"]])
        let main = try #require(lockfile.packages.values.first { $0.name == archive["MAIN_PACKAGE"] })
        // The newest the archive holds: at least bookworm's, by dpkg's order.
        #expect(try dpkgHolds(main.version, "ge", archive["MAIN_VERSION"]), "\(main.version)")
        #expect(run.stdout.contains("0.1-1 "), "\(run)")
        #expect(run.stdout.contains("-> \(main.version)  \(main.suite)  Stagefile:3"), "\(run)")
        // Only the pin and the snapshot changed, every other byte as it was.
        let expected = stagefile.replacingOccurrences(of: old, with: archive["MAIN_PACKAGE"] + "=" + main.version)
            .replacingOccurrences(of: "DEBIAN_SNAPSHOT=20250520T000000Z", with: "DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"])")
        #expect(project.text("Stagefile") == expected)
        // The security pin is already the newest (or is rewritten to it, in place).
        let security = try #require(lockfile.packages.values.first { $0.name == archive["SECURITY_PACKAGE"] })
        #expect(
            project.text("Stages/tools.Dockerfile")
                == template.replacingOccurrences(
                    of: archive.securityPin, with: archive["SECURITY_PACKAGE"] + "=" + security.version))
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
    }

    /// A template that starts with a byte order mark has its pin on line 1 rewritten in place:
    /// positions count after the mark, as the parser counts them, and the mark stays.
    @Test func updatePackagesRewritesAPinOnTheFirstLineAfterAByteOrderMark() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try project(
            bindings: "DEBIAN_SNAPSHOT=20250520T000000Z DEBIAN_SNAPSHOT_URL=\(archive.url)", stagefilePin: archive.mainPin,
            toolsPin: archive.securityPin)
        let old = archive["SECURITY_PACKAGE"] + "=0.1-1"
        let template =
            "\u{FEFF}RUN apt-get update && apt-get install -y --no-install-recommends \(old) && rm -rf /var/lib/apt/lists/*\n"
        try project.write(template, to: "Stages/tools.Dockerfile")
        let run = try project.stagebuild(["lock", "--update-packages", "--snapshot", archive["SNAPSHOT"]])
        #expect(run.status == 0, "\(run)")
        let security = try #require(try project.lockfile().packages.values.first { $0.name == archive["SECURITY_PACKAGE"] })
        #expect(
            project.text("Stages/tools.Dockerfile")
                == template.replacingOccurrences(of: old, with: archive["SECURITY_PACKAGE"] + "=" + security.version))
    }

    /// The Stagefile sample of README.md ("A Stagefile"), as written there.
    static func readmeStagefile() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## A Stagefile\n"))
        let fence = try #require(readme.range(of: "```dockerfile\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: fence.upperBound..<readme.endIndex))
        return String(readme[fence.upperBound..<end.lowerBound])
    }

    @Test func theReadmeSampleLocksAtOneSnapshotAndComposesWithIt() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try Project()
        // The shipped catalog, with the stand-in as the snapshot service's default and no registry.
        let stages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Stages")
        for name in try FileManager.default.contentsOfDirectory(atPath: stages.path) where name.hasSuffix(".Dockerfile") {
            var text = try String(contentsOf: stages.appendingPathComponent(name), encoding: .utf8)
            if name == "debian.Dockerfile" {
                text = try Self.debianTemplate().replacingOccurrences(
                    of: "ARG DEBIAN_SNAPSHOT_URL=http://snapshot.debian.org\n", with: "ARG DEBIAN_SNAPSHOT_URL=\(archive.url)\n")
            }
            try project.write(text, to: "Stages/" + name)
        }
        try project.write(try Self.readmeStagefile(), to: "Stagefile")
        // README: stagebuild lock --snapshot now; the stand-in holds one moment, so that one.
        let lock = try project.stagebuild(["lock", "--snapshot", archive["SNAPSHOT"]])
        #expect(lock.status == 0, "\(lock)")
        let lockfile = try project.lockfile()
        #expect(lockfile.packages.keys.contains { $0.hasPrefix("nginx=") }, "\(lockfile.packages.keys)")
        #expect(lockfile.packages.keys.contains { $0.hasPrefix("nodejs=") }, "\(lockfile.packages.keys)")
        let compose = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(compose.status == 0, "\(compose)")
        let dockerfile = try #require(project.text("Dockerfile"))
        #expect(dockerfile.components(separatedBy: "\nARG DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"])\n").count == 3, "\(dockerfile)")
    }
}

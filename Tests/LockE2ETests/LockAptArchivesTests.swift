import Foundation
import TestSupport
import Testing

/// `stagebuild lock` with package pins of archives other than Debian 12's, each looked up in
/// the archive its build stage reads as its templates declare it: an Ubuntu-shaped archive and a
/// third-party repository, both made with apt-ftparchive and signed with a test key
/// (Tests/e2e/debian-archive); and pins no template declares an archive for, which are listed
/// as unverified while every image and other pin is locked (`compose-lock-apt-pins-assume-bookworm`).
/// Part of ``LockPackagesTests``, whose tests run one at a time: they read the stand-in's access log.
extension LockPackagesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A shipped template with its FROM made `scratch`, so that no registry is asked.
    static func template(_ name: String, from: String) throws -> String {
        let text = try String(contentsOf: repository.appendingPathComponent("Stages/\(name).Dockerfile"), encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\nFROM \(from)\n", with: "\nFROM scratch\n")
        try #require(edited != text, "Stages/\(name).Dockerfile has no FROM \(from) line")
        return edited
    }

    /// A project with the shipped debian, ubuntu and apt-repository templates.
    static func archivesProject(stagefile: String) throws -> Project {
        let project = try Project()
        try project.write(try template("debian", from: "debian:${DEBIAN_RELEASE}-slim"), to: "Stages/debian.Dockerfile")
        try project.write(try template("ubuntu", from: "ubuntu:${UBUNTU_RELEASE}"), to: "Stages/ubuntu.Dockerfile")
        let repository = try String(
            contentsOf: repository.appendingPathComponent("Stages/apt-repository.Dockerfile"), encoding: .utf8)
        try project.write(repository, to: "Stages/apt-repository.Dockerfile")
        try project.write(stagefile, to: "Stagefile")
        return project
    }

    static func install(_ pins: String) -> String {
        "RUN apt-get update && apt-get install -y --no-install-recommends \(pins) && rm -rf /var/lib/apt/lists/*"
    }

    @Test func aPinOfAnUbuntuStageIsLookedUpInTheUbuntuArchiveItsTemplateDeclares() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let pin = archive["UBUNTU_PACKAGE"] + "=" + archive["UBUNTU_VERSION"]
        let project = try Self.archivesProject(
            stagefile: """
                FROM stage:ubuntu UBUNTU_RELEASE=noble UBUNTU_SNAPSHOT=\(archive["SNAPSHOT"]) UBUNTU_SNAPSHOT_URL=\(archive.url) UBUNTU_KEYRING=\(archive["TEST_KEYRING"])
                \(Self.install(pin))
                USER 1000

                """)
        let run = try project.stagebuild(["lock", "--architecture", "amd64", "--require-verified-packages"])
        #expect(run.status == 0, "\(run)")
        let entry = try #require(try project.lockfile().packages[pin])
        #expect(entry.suite == "noble-updates")
        #expect(entry.archive == "\(archive.url)/ubuntu/\(archive["SNAPSHOT"])")
        #expect(entry.filename.hasSuffix("_amd64.deb"))
        #expect(try project.lockfile().snapshots == ["UBUNTU_SNAPSHOT": archive["SNAPSHOT"]])
        #expect(run.stdout.contains("from Ubuntu noble at snapshot \(archive["SNAPSHOT"])"), "\(run)")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
        // Another key than the archive's: gpgv refuses it, nothing is written.
        try project.write(
            try #require(project.text("Stagefile")).replacingOccurrences(of: archive["TEST_KEYRING"], with: "/dev/null"),
            to: "Stagefile")
        try FileManager.default.removeItem(atPath: project.path + "/stagebuild.lock")
        let refused = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(refused.status == 69, "\(refused)")
        #expect(refused.stderr.contains("the signature does not check out against /dev/null"), "\(refused)")
    }

    @Test func aThirdPartyRepositoryIsCheckedWithItsOwnKeyFromTheBuildContext() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let vendorPin = archive["VENDOR_PACKAGE"] + "=" + archive["VENDOR_VERSION"]
        let project = try Self.archivesProject(
            stagefile: """
                FROM stage:debian DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
                USE apt-repository APT_REPOSITORY_NAME=vendor APT_REPOSITORY_URL=\(archive.url)/vendor APT_REPOSITORY_SUITE=bookworm APT_REPOSITORY_COMPONENTS=stable APT_REPOSITORY_KEY=keys/vendor.asc
                \(Self.install("\(archive.mainPin) \(vendorPin)"))
                USER 1000

                """)
        try project.write(try String(contentsOfFile: archive["TEST_KEY_ASC"], encoding: .utf8), to: "keys/vendor.asc")
        let run = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        let vendor = try #require(lockfile.packages[vendorPin])
        #expect(vendor.archive == "\(archive.url)/vendor")
        #expect(vendor.suite == "bookworm")
        #expect(vendor.sha256 == archive["VENDOR_SHA256"])
        #expect(lockfile.packages[archive.mainPin]?.suite == "bookworm")
        #expect(lockfile.unverifiedPackages.isEmpty)
        #expect(run.stdout.contains("the apt repository \(archive.url)/vendor (bookworm)"), "\(run)")
        // The same repository signed with another key than the one in the build context.
        try project.write(try String(contentsOfFile: archive["OTHER_KEY_ASC"], encoding: .utf8), to: "keys/vendor.asc")
        let refused = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(refused.status == 69, "\(refused)")
        #expect(
            refused.stderr.contains("/vendor/dists/bookworm/InRelease: the signature does not check out against keys/vendor.asc"))
        #expect(refused.stderr.contains("stagebuild.lock was not changed."), "\(refused)")
    }

    /// The shared case: pins of a base no template declares still let lock pin everything else.
    @Test func pinsNoTemplateDeclaresAreListedAsUnverifiedAndLockStillWrites() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try Self.archivesProject(
            stagefile: """
                FROM scratch AS app
                \(Self.install("curl=8.5.0-2ubuntu10.6 docker-ce-cli=5:27.3.1-1~debian.12~bookworm"))
                USER 1000

                FROM stage:debian AS packaged DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
                \(Self.install(archive.mainPin))
                USER 1000

                """)
        let run = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("error:"), "\(run)")
        #expect(
            run.stderr.contains(
                "warning: Stagefile:2:66: package pin curl=8.5.0-2ubuntu10.6 is not checked: build stage app declares no apt "
                    + "archive; to check it, base it on a template that declares its apt archive"), "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.unverifiedPackages == ["curl=8.5.0-2ubuntu10.6", "docker-ce-cli=5:27.3.1-1~debian.12~bookworm"])
        #expect(lockfile.packages.keys.sorted() == [archive.mainPin], "the checkable pin is locked")
        #expect(run.stdout.contains("(0 images, 3 packages (2 unverified), 1 template)"), "\(run)")
        // CI's form: the same run fails, and the check tells unverified from stale.
        let strict = try project.stagebuild(["lock", "--architecture", "amd64", "--require-verified-packages"])
        #expect(strict.status == 1, "\(strict)")
        let check = try project.stagebuild(["lock", "--check"])
        #expect(check.status == 0, "\(check)")
        #expect(check.stderr.contains("is current, but 2 package pins are unverified"), "\(check)")
        #expect(!check.stderr.contains("stale"), "\(check)")
        let strictCheck = try project.stagebuild(["lock", "--check", "--require-verified-packages"])
        #expect(strictCheck.status == 1, "\(strictCheck)")
        #expect(strictCheck.stderr.contains("error: stagebuild.lock is current, but 2 package pins are unverified"))
        let compose = try project.stagebuild(["compose", "--locked", "-o", "Dockerfile"])
        #expect(compose.status == 0, "\(compose)")
        #expect(compose.stderr.contains("as unverified (not stale"), "\(compose)")
    }

    @Test func aStageThatAddsItsOwnSourcesOrASuiteNobodyDeclaresIsUnverifiedNotAnError() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try Self.archivesProject(
            stagefile: """
                FROM stage:debian DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
                RUN echo 'deb http://apt.example.test/ bookworm main' > /etc/apt/sources.list.d/example.list
                \(Self.install("\(archive.mainPin) example-tool=1.2.3-1"))
                RUN apt-get update && apt-get install -y -t bookworm-backports backported=2.0-1~bpo12+1
                USER 1000

                """)
        let run = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr.contains(
                "example-tool=1.2.3-1 is not checked: Debian bookworm at snapshot \(archive["SNAPSHOT"]) lacks it, and its "
                    + "build stage 1 adds apt sources at Stagefile:2"), "\(run)")
        #expect(run.stderr.contains("backported=2.0-1~bpo12+1 is not checked"), "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.packages.keys.sorted() == [archive.mainPin])
        #expect(lockfile.unverifiedPackages.count == 2)
    }

    /// Each build stage decides for its own pins: a version one stage's archive holds says
    /// nothing of another stage's archive.
    @Test func eachBuildStageChecksItsOwnPins() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let vendorPin = archive["VENDOR_PACKAGE"] + "=" + archive["VENDOR_VERSION"]
        let vendor =
            "USE apt-repository APT_REPOSITORY_NAME=vendor APT_REPOSITORY_URL=\(archive.url)/vendor "
            + "APT_REPOSITORY_SUITE=bookworm APT_REPOSITORY_COMPONENTS=stable APT_REPOSITORY_KEY=vendor.asc"
        let project = try Self.archivesProject(
            stagefile: """
                FROM stage:debian AS deb DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
                \(vendor)
                \(Self.install("\(archive.mainPin) \(vendorPin)"))
                FROM stage:ubuntu AS ub UBUNTU_SNAPSHOT=\(archive["SNAPSHOT"]) UBUNTU_SNAPSHOT_URL=\(archive.url) UBUNTU_KEYRING=\(archive["TEST_KEYRING"])
                \(Self.install(vendorPin))
                USER 1000

                """)
        try project.write(try String(contentsOfFile: archive["TEST_KEY_ASC"], encoding: .utf8), to: "vendor.asc")
        let run = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(run.status == 65, "the vendor's version is not in Ubuntu's archive: \(run)")
        #expect(run.stderr.contains("error: Stagefile:5:"), "\(run)")
        #expect(run.stderr.contains("is not in Ubuntu noble at snapshot \(archive["SNAPSHOT"]) (build stage ub)"), "\(run)")

        // The same pin in a stage with no archive declared is unverified there.
        try project.write(
            """
            FROM stage:debian AS deb DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
            \(Self.install(archive.mainPin))
            FROM scratch AS plain
            \(Self.install(archive.mainPin))
            USER 1000

            """, to: "Stagefile")
        let strict = try project.stagebuild(["lock", "--architecture", "amd64", "--require-verified-packages"])
        #expect(strict.status == 1, "\(strict)")
        #expect(try project.lockfile().unverifiedPackages == [archive.mainPin])
        #expect(strict.stderr.contains("build stage plain declares no apt archive"), "\(strict)")
    }

    /// What a pin is read from is part of the lock: another archive, key or architecture now is stale.
    @Test func anotherArchiveKeyOrArchitectureMakesTheLockStale() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let vendorPin = archive["VENDOR_PACKAGE"] + "=" + archive["VENDOR_VERSION"]
        let stagefile = """
            FROM stage:debian DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
            USE apt-repository APT_REPOSITORY_NAME=vendor APT_REPOSITORY_URL=\(archive.url)/vendor APT_REPOSITORY_SUITE=bookworm APT_REPOSITORY_COMPONENTS=stable APT_REPOSITORY_KEY=vendor.asc
            \(Self.install("\(archive.mainPin) \(vendorPin)"))
            USER 1000

            """
        let project = try Self.archivesProject(stagefile: stagefile)
        try project.write(try String(contentsOfFile: archive["TEST_KEY_ASC"], encoding: .utf8), to: "vendor.asc")
        try #require(try project.stagebuild(["lock", "--architecture", "amd64"]).status == 0)
        #expect(try project.lockfile().architecture == "amd64")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
        let other = try project.stagebuild(["lock", "--check", "--architecture", "arm64"])
        #expect(other.status == 1 && other.stderr.contains("the packages were locked for amd64, not arm64"), "\(other)")
        // Another repository URL.
        try project.write(stagefile.replacingOccurrences(of: "/vendor APT", with: "/other-vendor APT"), to: "Stagefile")
        let moved = try project.stagebuild(["lock", "--check"])
        #expect(moved.status == 1, "\(moved)")
        #expect(moved.stderr.contains("package pin \(vendorPin) is read from other apt archives now"), "\(moved)")
        // Another key in the build context, the Stagefile as it was.
        try project.write(stagefile, to: "Stagefile")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0)
        try project.write(try String(contentsOfFile: archive["OTHER_KEY_ASC"], encoding: .utf8), to: "vendor.asc")
        let rekeyed = try project.stagebuild(["lock", "--check"])
        #expect(rekeyed.status == 1 && rekeyed.stderr.contains("key=vendor.asc@sha256:"), "\(rekeyed)")
        // A key missing from the build context stops lock before any request, naming who names it.
        try FileManager.default.removeItem(atPath: project.path + "/vendor.asc")
        let missing = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(missing.status == 74, "\(missing)")
        #expect(
            missing.stderr.contains("cannot read the key vendor.asc that stage template 'apt-repository' at Stagefile:2:"),
            "\(missing)")
        // lock --check says the same, not "stale".
        let checked = try project.stagebuild(["lock", "--check"])
        #expect(checked.status == 74 && checked.stderr.contains("cannot read the key vendor.asc"), "\(checked)")
    }

    @Test func aCopiedSourcesFileOrAPinForAnArchitectureTheArchiveLacksIsNoArchiveError() throws {
        let archive = try DebianArchiveStandIn.shared.get()
        let project = try Self.archivesProject(
            stagefile: """
                FROM stage:debian DEBIAN_SNAPSHOT=\(archive["SNAPSHOT"]) DEBIAN_SNAPSHOT_URL=\(archive.url)
                COPY example.list /etc/apt/sources.list.d/example.list
                \(Self.install("example-tool=1.2.3-1"))
                USER 1000

                """)
        let copied = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(copied.status == 0, "\(copied)")
        #expect(copied.stderr.contains("adds apt sources at Stagefile:2"), "\(copied)")
        // The Ubuntu-shaped archive's Release lists amd64 only: an i386 pin is missing there, not an archive fault.
        try project.write(
            """
            FROM stage:ubuntu UBUNTU_RELEASE=noble UBUNTU_SNAPSHOT=\(archive["SNAPSHOT"]) UBUNTU_SNAPSHOT_URL=\(archive.url) UBUNTU_KEYRING=\(archive["TEST_KEYRING"])
            \(Self.install(archive["UBUNTU_PACKAGE"] + ":i386=" + archive["UBUNTU_VERSION"]))
            USER 1000

            """, to: "Stagefile")
        let foreign = try project.stagebuild(["lock", "--architecture", "amd64"])
        #expect(foreign.status == 65, "\(foreign)")
        #expect(foreign.stderr.contains("error: Stagefile:2:"), "\(foreign)")
        #expect(foreign.stderr.contains(archive["UBUNTU_PACKAGE"]) && foreign.stderr.contains("i386"), "\(foreign)")
    }
}

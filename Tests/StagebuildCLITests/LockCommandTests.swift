import Foundation
import StageKit
import StagebuildCLI
import TestSupport
import Testing

/// `stagebuild lock` and `compose --locked` without a registry: help, usage errors, `--check`,
/// an unreachable registry, and composing with a lockfile written here.
@Suite struct LockCommandTests {
    static let stagefile = "FROM stage:base AS app\nCOPY --from=nginx:1.27 /etc/nginx /etc/nginx\nUSER 1000\n"
    static let template = "# summary: base\nFROM debian:bookworm-slim\n"

    /// A project with a one-template catalog.
    static func project(stagefile: String = stagefile) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write(stagefile, to: "Stagefile")
        try scratch.write(template, to: "Stages/base.Dockerfile")
        return scratch
    }

    /// Writes the lockfile `stagebuild lock` would write if the registry answered with the
    /// SHA-256 of each reference's text.
    static func writeLockfile(in scratch: Scratch) throws {
        let composer = Composer(
            catalog: StageCatalog(folders: [scratch.path + "/Stages"], fileSystem: LocalFileSystem()),
            stagefileDirectory: scratch.path, stagefileName: "Stagefile", regenerateCommand: "")
        let stagefile = try Stagefile(text: try #require(scratch.text("Stagefile")), displayPath: "Stagefile")
        let inputs = try composer.composition(of: stagefile).lockInputs()
        let resolved = inputs.images.map {
            ResolvedImage(reference: $0, digest: digest($0.written), mediaType: "application/vnd.oci.image.index.v1+json")
        }
        try scratch.write(Lockfile(inputs: inputs, resolved: resolved).text, to: "stagebuild.lock")
    }

    static func digest(_ written: String) -> Digest { Digest.sha256(of: Array(written.utf8)) }

    @Test func helpListsItsOptionsAndExitStatuses() {
        let result = runStagebuild(["lock", "--help"], in: "/")
        #expect(result.status == .success)
        for word in [
            "USAGE: stagebuild lock [STAGEFILE] [--check [--online]]", "--online", "--proxy URL", "--noproxy LIST",
            "--cacert FILE",
            "--insecure-registry HOST:PORT", "--registry-auth HOST=USER:PASS", "--registry-auth-file FILE",
            "--connect-timeout SECONDS", "--max-time SECONDS", "credHelpers", "REGISTRY_AUTH_FILE",
            "--stages DIR", "STAGEBUILD_REGISTRY_AUTH", "registry-1.docker.io", "69 a registry unreachable", "65 bad input",
        ] {
            #expect(result.stdout.contains(word), "lock --help lacks \(word)")
        }
        #expect(runStagebuild(["--help"], in: "/").stdout.contains("  lock "))
        #expect(runStagebuild(["compose", "--help"], in: "/").stdout.contains("--locked"))
    }

    @Test(arguments: [
        (["lock", "--registry-auth", "no-colon-secret"], "--registry-auth takes HOST=USER:PASS"),
        (["lock", "--registry-auth", "deploy:no-colon-secret"], "credentials without a host would go to every registry"),
        (["lock", "--registry-auth", "team=deploy:no-colon-secret"], "the text before \"=\" names no registry host"),
        // An unscoped USER:PASS whose password holds "=": nothing of it is shown.
        (["lock", "--registry-auth", "deploy:no=colon:secret"], "the text before \"=\" names no registry host"),
        (["lock", "--insecure-registry", "http://r:5000"], "--insecure-registry takes HOST:PORT"),
        (["lock", "--connect-timeout", "0"], "--connect-timeout must be a number of seconds from 0.001 to 86400"),
        (["lock", "--max-time", "soon"], "--max-time must be a number of seconds from 0.001 to 86400"),
        (["lock", "a", "b"], "expected at most one Stagefile, got 2"),
        (["lock", "--proxy", "socks5://127.0.0.1:1"], "socks5"),
        (["lock", "--architecture", "x"], "--architecture takes one of Debian's and Ubuntu's architectures"),
        (["lock", "--snapshot", "20251340T000000Z"], "--snapshot takes now or a time YYYYMMDDTHHMMSSZ"),
        (["lock", "--snapshot", "20250230T000000Z"], "--snapshot takes now or a time YYYYMMDDTHHMMSSZ"),
        (["lock", "--snapshot", "20250520T250000Z"], "--snapshot takes now or a time YYYYMMDDTHHMMSSZ"),
        (["lock", "--snapshot", "29990101T000000Z"], "is in the future"),
    ])
    func refusesBadCommandLines(arguments: [String], message: String) throws {
        let scratch = try Self.project()
        let result = scratch.run(arguments)
        #expect(result.status == .usage, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("no-colon"))
        #expect(!scratch.exists("stagebuild.lock"))
    }

    @Test func takesCurlsProxyAuthenticationOptionsOneAtATime() throws {
        let scratch = try Self.project()
        let help = scratch.run(["lock", "--help"])
        for flag in [
            "--proxy-basic", "--proxy-digest", "--proxy-ntlm", "--proxy-negotiate", "--proxy-anyauth", "-x, --proxy URL",
        ] {
            #expect(help.stdout.contains("  \(flag)"), "\(flag)")
        }
        let both = scratch.run(["lock", "--proxy-ntlm", "--proxy-anyauth"])
        #expect(both.status == .usage)
        #expect(both.stderr.hasPrefix("error: choose one of --proxy-ntlm and --proxy-anyauth\n"), "\(both.stderr)")
        #expect(scratch.text("stagebuild.lock") == nil)
    }

    @Test func anUnreadableCAFileExits74AndWritesNothing() throws {
        let scratch = try Self.project()
        let result = scratch.run(["lock", "--cacert", "/no/such/ca.pem"])
        #expect(result.status == .ioError, "\(result.stderr)")
        #expect(result.stderr == "error: cannot read --cacert /no/such/ca.pem: No such file or directory\n", "as probe says it")
        #expect(!scratch.exists("stagebuild.lock"))
        // A file that holds no certificate is refused before any call, as probe refuses it.
        try "not a certificate\n".write(toFile: scratch.path + "/ca.pem", atomically: true, encoding: .utf8)
        let empty = scratch.run(["lock", "--cacert", "ca.pem"])
        #expect(empty.status == .dataError, "\(empty.stderr)")
        #expect(empty.stderr == "error: --cacert ca.pem holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n")
        #expect(!scratch.exists("stagebuild.lock"))
    }

    /// A quoted `--from` image is no image any builder reads: lock refuses the Stagefile before
    /// any registry is asked, and writes no lockfile for it; lint says the same (SB041).
    @Test func refusesAQuotedFromImageInsteadOfPinningIt() throws {
        let scratch = try Self.project(
            stagefile: "FROM 127.0.0.1:9/tiny:1.0 AS one\nCOPY --from=\"127.0.0.1:9/bb:1\" /bin/busybox /bb\n")
        let result = scratch.run(["lock"])
        #expect(result.status == .dataError, "\(result.stderr)")
        #expect(result.stderr.contains("Stagefile:2:6: error: COPY --from=\"127.0.0.1:9/bb:1\" is quoted"))
        #expect(!scratch.exists("stagebuild.lock"))
        let lint = scratch.run(["lint", "Stagefile"])
        #expect(lint.stdout.contains("Stagefile:2:6: error: SB041") || lint.stderr.contains("Stagefile:2:6: error:"))
    }

    @Test func refusesMalformedCredentialsFromTheEnvironmentWithoutShowingThem() throws {
        let scratch = try Self.project()
        let result = scratch.run(["lock"], environment: ["STAGEBUILD_REGISTRY_AUTH": "justasecret"])
        #expect(result.status == .usage)
        #expect(result.stderr.contains("STAGEBUILD_REGISTRY_AUTH takes HOST=USER:PASS"))
        #expect(!result.stderr.contains("justasecret"))
    }

    /// `compose-lock-duplicate-json-keys`: a second `images` member (a merge that kept both
    /// sides) is refused at its line by `--check` and `compose --locked`, whichever copy a
    /// reader would take.
    @Test func aMemberNamedTwiceIsRefusedAtItsLine() throws {
        let scratch = try Self.project()
        try Self.writeLockfile(in: scratch)
        let written = try #require(scratch.text("stagebuild.lock"))
        let forged = written.replacingOccurrences(
            of: "{\n  \"formatVersion\"", with: "{\n  \"images\": {},\n  \"formatVersion\"")
        try #require(forged != written)
        try scratch.write(forged, to: "stagebuild.lock")
        for arguments in [["lock", "--check"], ["compose", "--locked"]] {
            let result = scratch.run(arguments)
            #expect(result.status == .dataError, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("stagebuild.lock:4:"), "\(result.stderr)")
            #expect(
                result.stderr.contains("error: not a stagebuild lockfile: duplicate object key near '\"images\"'"),
                "\(result.stderr)")
        }
    }

    /// `compose-lock-error-then-success`: a run that succeeds prints no `error:` line.
    @Test(arguments: [#"{"sentinel": true}"#, "not json {", #"{"formatVersion": 2}"#])
    func anUnreadableOldLockfileIsReplacedWithAWarningNotAnError(old: String) throws {
        let scratch = try Self.project(stagefile: "FROM scratch AS app\nUSER 1000\n")
        try scratch.write(old, to: "stagebuild.lock")
        let result = scratch.run(["lock"])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("warning: stagebuild.lock is not a lockfile this stagebuild reads ("), "\(result.stderr)")
        #expect(result.stderr.contains("); writing a new one"), "\(result.stderr)")
        #expect(result.stdout.contains("wrote stagebuild.lock"), "\(result.stdout)")
        #expect(try Lockfile(parsing: try #require(scratch.text("stagebuild.lock"))).images.isEmpty)
    }

    @Test func anAuthFileThatCannotBeReadStopsTheRunWithoutShowingASecret() throws {
        let scratch = try Self.project()
        let missing = scratch.run(["lock", "--registry-auth-file", "no-such.json"])
        #expect(missing.status == .ioError, "\(missing.stderr)")
        #expect(missing.stderr.contains("cannot read the auth file"), "\(missing.stderr)")
        try scratch.write(#"{"auths": {"r.example": {"auth": "bm9jb2xvbnNlY3JldA=="}}}"#, to: "auth.json")
        let malformed = scratch.run(["lock", "--registry-auth-file", "auth.json"])
        #expect(malformed.status == .dataError, "\(malformed.stderr)")
        #expect(malformed.stderr.contains("auths.r.example.auth is not the base64 of USER:PASS"), "\(malformed.stderr)")
        #expect(!malformed.stderr.contains("nocolonsecret") && !malformed.stderr.contains("bm9jb2xvbnNlY3JldA"))
        // A file that is no JSON: its place, never the text there (an auth value holds a password).
        try scratch.write("{\"auths\":{\"r.example\":{\"auth\":\"SECRETVALUE\u{01}\"}}}", to: "broken.json")
        let broken = scratch.run(["lock", "--registry-auth-file", "broken.json"])
        #expect(broken.status == .dataError, "\(broken.stderr)")
        #expect(broken.stderr.contains("broken.json:1:"), "\(broken.stderr)")
        #expect(!broken.stderr.contains("SECRETVALUE"), "\(broken.stderr)")
        #expect(!scratch.exists("stagebuild.lock"))
    }

    /// A lockfile name that leads to a FIFO, a device or a dangling link is a file that cannot
    /// be read (74), never a wait for a writer, an endless read, or "there is none".
    @Test func aLockfileThatIsNoRegularFileIsAnErrorNotAHang() throws {
        let scratch = try Self.project()
        let path = scratch.path + "/stagebuild.lock"
        #expect(mkfifo(path, 0o600) == 0)
        for arguments in [["lock", "--check"], ["compose", "--locked"]] {
            let fifo = scratch.run(arguments)
            #expect(fifo.status == .ioError, "\(arguments): \(fifo.stderr)")
            #expect(fifo.stderr.contains("is not a regular file"), "\(fifo.stderr)")
        }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect(scratch.run(["lock", "--check"]).stderr.contains("is not a regular file"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: scratch.path + "/missing/x")
        let dangling = scratch.run(["lock", "--check"])
        #expect(dangling.status == .ioError, "\(dangling.stderr)")
        #expect(dangling.stderr.contains("a symbolic link to a missing file"), "\(dangling.stderr)")
    }

    @Test func checkSaysMissingThenCurrentThenStale() throws {
        let scratch = try Self.project()
        let missing = scratch.run(["lock", "--check"])
        #expect(missing.status == .checkFailed)
        #expect(
            missing.stderr.contains(
                "stagebuild.lock is stale: there is no stagebuild.lock; rewrite it with: stagebuild lock Stagefile"))

        try Self.writeLockfile(in: scratch)
        let current = scratch.run(["lock", "--check"])
        #expect(current.status == .success, "\(current.stderr)")
        #expect(current.stdout == "stagebuild.lock is current (2 images, 1 template)\n")

        try scratch.write(Self.stagefile + "FROM redis:7\n", to: "Stagefile")
        try scratch.write(Self.template + "LABEL a=b\n", to: "Stages/base.Dockerfile")
        let stale = scratch.run(["lock", "--check"])
        #expect(stale.status == .checkFailed)
        #expect(stale.stderr.contains("image redis:7 was added"), "\(stale.stderr)")
        #expect(stale.stderr.contains("template 'base' changed"), "\(stale.stderr)")
    }

    @Test func theStaleHintKeepsTheCatalogFoldersGiven() throws {
        let scratch = try Self.project()
        let result = scratch.run(["lock", "--check", "--stages", "Stages"])
        #expect(result.status == .checkFailed)
        #expect(result.stderr.contains("rewrite it with: stagebuild lock Stagefile --stages Stages\n"), "\(result.stderr)")
    }

    @Test func checkRefusesAMalformedLockfile() throws {
        let scratch = try Self.project()
        try scratch.write("{ not json", to: "stagebuild.lock")
        let result = scratch.run(["lock", "--check"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("stagebuild.lock:1:5: error: not a stagebuild lockfile"), "\(result.stderr)")
    }

    @Test func anUnreachableRegistryExits69AndLeavesTheLockfile() throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let scratch = try Self.project(stagefile: "FROM 127.0.0.1:1/app:1\nUSER 1000\n")
        try scratch.write("{\"old\": true}\n", to: "stagebuild.lock")
        try scratch.backdate("stagebuild.lock")
        let before = try scratch.stamp("stagebuild.lock")
        let result = scratch.run(["lock", "--insecure-registry", "127.0.0.1:1", "--connect-timeout", "2"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: image 127.0.0.1:1/app:1: HEAD http://127.0.0.1:1/v2/app/manifests/1: cannot reach 127.0.0.1:1"),
            "\(result.stderr)")
        #expect(result.stderr.contains("stagebuild.lock was not changed."))
        #expect(scratch.text("stagebuild.lock") == "{\"old\": true}\n")
        let after = try scratch.stamp("stagebuild.lock")
        #expect(after.modified == before.modified && after.inode == before.inode)
        #expect(scratch.listing() == ["Stagefile", "Stages", "Stages/base.Dockerfile", "stagebuild.lock"])
    }

    @Test func aFailedFirstLockSaysNothingWasWritten() throws {
        let scratch = try Self.project(stagefile: "FROM 127.0.0.1:1/app:1\nUSER 1000\n")
        let result = scratch.run(["lock", "--insecure-registry", "127.0.0.1:1", "--connect-timeout", "2"])
        #expect(result.status == .unavailable, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("stagebuild.lock was not written.\n"), "\(result.stderr)")
        #expect(scratch.listing() == ["Stagefile", "Stages", "Stages/base.Dockerfile"])
    }

    @Test func imagesNamedThroughVariablesAreBadInput() throws {
        let scratch = try Self.project(stagefile: "ARG BASE=debian:12\nFROM ${BASE}\nUSER 1000\n")
        let result = scratch.run(["lock"])
        #expect(result.status == .dataError)
        #expect(
            result.stderr.contains("Stagefile:2:6: error: FROM ${BASE} names its image through a variable"), "\(result.stderr)")
    }

    @Test func composeLockedNeedsACurrentLockfile() throws {
        let scratch = try Self.project()
        let missing = scratch.run(["compose", "--locked"])
        #expect(missing.status == .checkFailed)
        #expect(missing.stderr.contains("stagebuild.lock is missing"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)

        try Self.writeLockfile(in: scratch)
        let locked = scratch.run(["compose", "--locked"])
        #expect(locked.status == .success, "\(locked.stderr)")
        #expect(locked.stdout.contains("FROM debian:bookworm-slim@\(Self.digest("debian:bookworm-slim")) AS app\n"))
        #expect(locked.stdout.contains("COPY --from=nginx:1.27@\(Self.digest("nginx:1.27")) /etc/nginx /etc/nginx\n"))
        #expect(locked.stdout.contains("from Stagefile and stagebuild.lock. Do not edit."))

        try scratch.write(Self.template + "LABEL changed=1\n", to: "Stages/base.Dockerfile")
        let stale = scratch.run(["compose", "--locked", "-o", "Dockerfile"])
        #expect(stale.status == .checkFailed)
        #expect(stale.stderr.contains("stagebuild.lock is stale: template 'base' changed"), "\(stale.stderr)")
        #expect(!scratch.exists("Dockerfile"))

        let lenient = scratch.run(["compose"])
        #expect(lenient.status == .success)
        #expect(lenient.stderr.hasPrefix("warning: stagebuild.lock is stale: template 'base' changed"), "\(lenient.stderr)")
        #expect(lenient.stdout.contains("@\(Self.digest("nginx:1.27"))"))

        try scratch.write("{}", to: "stagebuild.lock")
        let malformed = scratch.run(["compose"])
        #expect(malformed.status == .dataError)
        #expect(malformed.stderr.contains("stagebuild.lock:"), "\(malformed.stderr)")
    }
}

extension LockCommandTests {
    @Test func composeLockedRefusesAnImageItCannotPinInPlace() throws {
        // BuildKit joins the continued line, so the lock holds nginx:1.27, but the composed text
        // has the reference over two lines where the pinned one would have to go.
        let scratch = try Self.project(stagefile: "FROM stage:base\nCOPY --from=nginx:\\\n1.27 /a /b\nUSER 1000\n")
        try Self.writeLockfile(in: scratch)
        let locked = scratch.run(["compose", "--locked"])
        #expect(locked.status == .dataError, "\(locked.stderr)")
        #expect(locked.stderr.contains("cannot pin COPY --from=nginx:1.27 in Stagefile in place"), "\(locked.stderr)")
        let lenient = scratch.run(["compose"])
        #expect(lenient.status == .success)
        #expect(lenient.stderr.hasPrefix("warning: cannot pin COPY --from=nginx:1.27"), "\(lenient.stderr)")
    }
}

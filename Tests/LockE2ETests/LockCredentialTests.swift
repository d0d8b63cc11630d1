import Foundation
import TestSupport
import Testing

/// Where `stagebuild lock` sends registry credentials, against the real registries on loopback:
/// the htpasswd (Basic) registry and the token registry, whose token service records every
/// `Authorization` it receives (Tests/e2e/registry). A credential reaches its own registry and
/// the token service that registry names, never another's (`compose-lock-credentials-every-registry`).
@Suite(.enabled(if: Registries.isConfigured, "set STAGEBUILD_REGISTRY_STATE (Tests/e2e/registry/start)"), .serialized)
struct LockCredentialTests {
    /// One record of the token service: the Basic credentials it received, if any.
    struct TokenRequest: Decodable {
        var path: String
        var authorization: String?
        var basic: String?
    }

    /// The token service's records since a mark (the log's length in lines).
    static func tokenRequests(since mark: Int, _ registries: Registries) throws -> [TokenRequest] {
        let text = try String(contentsOfFile: registries["TOKEN_LOG"], encoding: .utf8)
        return try text.split(separator: "\n").dropFirst(mark).map {
            try JSONDecoder().decode(TokenRequest.self, from: Data($0.utf8))
        }
    }

    static func tokenLogMark(_ registries: Registries) -> Int {
        ((try? String(contentsOfFile: registries["TOKEN_LOG"], encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// A project naming the Basic registry's image and the token registry's.
    static func twoRegistryProject(_ registries: Registries) throws -> Project {
        let project = try Project()
        try project.write(
            """
            # The team's private registry (Basic)
            FROM \(registries.image("AUTH_PORT")) AS private
            # A registry whose token service is HTTPS, as Docker Hub's auth.docker.io is
            FROM \(registries.image("TOKEN_REGISTRY_PORT")) AS public
            USER 1000

            """, to: "Stagefile")
        return project
    }

    static func insecure(_ registries: Registries) -> [String] {
        [
            "--insecure-registry", registries.host("AUTH_PORT"), "--insecure-registry", registries.host("TOKEN_REGISTRY_PORT"),
            "--cacert", registries["TOKEN_CA"],
        ]
    }

    @Test func thePrivateRegistrysPasswordNeverReachesTheOtherRegistrysTokenService() throws {
        let registries = try Registries.current()
        let project = try Self.twoRegistryProject(registries)
        let mark = Self.tokenLogMark(registries)
        let run = try project.stagebuild(
            ["lock"] + Self.insecure(registries) + [
                "--registry-auth", registries.host("AUTH_PORT") + "=" + registries.credentials,
            ])
        #expect(run.status == 0, "\(run)")
        let lockfile = try project.lockfile()
        #expect(lockfile.images[registries.image("AUTH_PORT")]?.digest == registries["AUTH_IMAGE_DIGEST"])
        #expect(lockfile.images[registries.image("TOKEN_REGISTRY_PORT")]?.digest == registries["TOKEN_IMAGE_DIGEST"])
        let requests = try Self.tokenRequests(since: mark, registries)
        #expect(!requests.isEmpty, "the token service was never asked")
        // Anonymous: the token registry has no credentials of its own in this run.
        #expect(requests.allSatisfy { $0.authorization == nil }, "\(requests)")
        #expect(!run.output.contains(registries["AUTH_PASSWORD"]))
    }

    @Test func eachRegistryGetsItsOwnCredentialsAndNoOther() throws {
        let registries = try Registries.current()
        let project = try Self.twoRegistryProject(registries)
        let mark = Self.tokenLogMark(registries)
        let tokenCredentials = registries["TOKEN_USER"] + ":" + registries["TOKEN_PASSWORD"]
        let run = try project.stagebuild(
            ["lock"] + Self.insecure(registries) + [
                "--registry-auth", registries.host("AUTH_PORT") + "=" + registries.credentials,
                "--registry-auth", registries.host("TOKEN_REGISTRY_PORT") + "=" + tokenCredentials,
            ])
        #expect(run.status == 0, "\(run)")
        let requests = try Self.tokenRequests(since: mark, registries)
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.basic == tokenCredentials }, "\(requests)")
        #expect(!run.output.contains(registries["AUTH_PASSWORD"]) && !run.output.contains(registries["TOKEN_PASSWORD"]))
    }

    @Test func aWrongTokenPasswordIsNamedWithItsSourceNotShown() throws {
        let registries = try Registries.current()
        let project = try Self.twoRegistryProject(registries)
        let wrong = registries["TOKEN_USER"] + ":not-" + registries["TOKEN_PASSWORD"]
        let run = try project.stagebuild(
            ["lock"] + Self.insecure(registries) + [
                "--registry-auth", registries.host("AUTH_PORT") + "=" + registries.credentials,
                "--registry-auth", registries.host("TOKEN_REGISTRY_PORT") + "=" + wrong,
            ])
        #expect(run.status == 69, "\(run)")
        #expect(
            run.stderr.contains(
                "the token service answered HTTP 401 (the credentials of user \(registries["TOKEN_USER"]) from --registry-auth were sent)"
            ), "\(run)")
        #expect(!run.output.contains("not-" + registries["TOKEN_PASSWORD"]))
        #expect(project.data("stagebuild.lock") == nil)
    }

    @Test func credentialsComeFromDockersConfigAndItsCredentialHelper() throws {
        let registries = try Registries.current()
        let project = try Self.twoRegistryProject(registries)
        let basic = Data(registries.credentials.utf8).base64EncodedString()
        try project.write(
            """
            {"auths": {"http://\(registries.host("AUTH_PORT"))": {"auth": "\(basic)"}},
             "credHelpers": {"\(registries.host("TOKEN_REGISTRY_PORT"))": "test"}}
            """, to: "docker/config.json")
        let helperMark = ((try? String(contentsOfFile: registries["HELPER_LOG"], encoding: .utf8)) ?? "").count
        let mark = Self.tokenLogMark(registries)
        let run = try project.stagebuild(
            ["lock"] + Self.insecure(registries),
            environment: [
                "DOCKER_CONFIG": project.path + "/docker", "PATH": registries["HELPER_DIR"] + ":/usr/bin:/bin",
            ])
        #expect(run.status == 0, "\(run)")
        let helperLog = try String(contentsOfFile: registries["HELPER_LOG"], encoding: .utf8).dropFirst(helperMark)
        #expect(helperLog == "get \(registries.host("TOKEN_REGISTRY_PORT"))\n", "the helper is asked for its host alone")
        let requests = try Self.tokenRequests(since: mark, registries)
        #expect(!requests.isEmpty)
        #expect(
            requests.allSatisfy { $0.basic == registries["TOKEN_USER"] + ":" + registries["TOKEN_PASSWORD"] }, "\(requests)")
    }

    @Test func theContainersAuthFileIsReadAsBuildahAndPodmanWriteIt() throws {
        let registries = try Registries.current()
        let project = try Project()
        try project.write("FROM \(registries.image("AUTH_PORT"))\nUSER 1000\n", to: "Stagefile")
        let basic = Data(registries.credentials.utf8).base64EncodedString()
        try project.write(#"{"auths": {"\#(registries.host("AUTH_PORT"))": {"auth": "\#(basic)"}}}"#, to: "auth.json")
        let run = try project.stagebuild(
            ["lock", "--insecure-registry", registries.host("AUTH_PORT")],
            environment: ["REGISTRY_AUTH_FILE": project.path + "/auth.json"])
        #expect(run.status == 0, "\(run)")
        #expect(try project.lockfile().images.values.first?.digest == registries["AUTH_IMAGE_DIGEST"])
        // The same file named on the command line, in place of the default files.
        let named = try project.stagebuild(
            ["lock", "--insecure-registry", registries.host("AUTH_PORT"), "--registry-auth-file", "auth.json"])
        #expect(named.status == 0, "\(named)")
        #expect(!named.output.contains(registries["AUTH_PASSWORD"]))
    }

    /// The offline check catches accidental edits only; `--online` fetches every recorded digest,
    /// so an entry forged with a recomputed integrity digest fails, naming the entry.
    @Test func checkOnlineCatchesAForgedEntryTheOfflineCheckPasses() throws {
        let registries = try Registries.current()
        let project = try Project()
        let image = registries.image("OPEN_PORT")
        try project.write("FROM \(image)\nUSER 1000\n", to: "Stagefile")
        let insecure = ["--insecure-registry", registries.host("OPEN_PORT")]
        try #require(try project.stagebuild(["lock"] + insecure).status == 0)
        let online = try project.stagebuild(["lock", "--check", "--online"] + insecure)
        #expect(online.status == 0, "\(online)")
        #expect(online.stdout.contains("stagebuild.lock is current and its entries check out online"), "\(online)")

        // A forger recomputes the entry's integrity: sha256 of digest, media type, name, reference.
        let forged = "sha256:" + String(repeating: "ab", count: 32)
        let written = try #require(project.text("stagebuild.lock"))
        let real = registries["IMAGE_DIGEST"]
        let oldIntegrity = try Self.integrity(real, registries["IMAGE_MEDIA_TYPE"], image, image)
        let newIntegrity = try Self.integrity(forged, registries["IMAGE_MEDIA_TYPE"], image, image)
        try project.write(
            written.replacingOccurrences(of: real, with: forged).replacingOccurrences(of: oldIntegrity, with: newIntegrity),
            to: "stagebuild.lock")
        #expect(try project.stagebuild(["lock", "--check"]).status == 0, "the offline check cannot see it")
        let caught = try project.stagebuild(["lock", "--check", "--online"] + insecure)
        #expect(caught.status == 1, "\(caught)")
        #expect(caught.stderr.contains("error: stagebuild.lock: images.\(image): "), "\(caught)")
        #expect(caught.stderr.contains("has no manifest \(forged)"), "\(caught)")
    }

    /// The entry digest `Lockfile.Image.integrity` records, computed as a forger would.
    static func integrity(_ digest: String, _ mediaType: String, _ name: String, _ reference: String) throws -> String {
        let text = "\(digest)\n\(mediaType)\n\(name)\n\(reference)\n"
        let run = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/sha256sum"), [], input: Data(text.utf8), limit: .seconds(10))
        return "sha256:" + run.stdout.prefix(64)
    }
}

import Foundation
import StageKit
import Testing

/// A registry's credentials reach that registry and the token service its own challenge names,
/// and nothing else (the shared case of a private registry's password sent to Docker Hub's
/// token service: `compose-lock-credentials-every-registry`).
@Suite struct RegistryCredentialScopeTests {
    static let privateCredentials = RegistryCredentials(user: "deploy", password: "private-registry-password")
    static let privateAuthorization = privateCredentials.basicAuthorization

    /// Two registries: `private.example` asks for Basic, `public.example` for a token from
    /// `https://auth.public.example/token`; `other.example` asks for Basic too.
    static func twoRegistries() -> ScriptedTransport {
        ScriptedTransport { request in
            let authorization = RegistryClientTests.header(request, "Authorization")
            if request.url.hasPrefix("https://auth.public.example/token") {
                return .success(
                    RegistryResponse(
                        statusCode: 200, headers: [.init(name: "Content-Type", value: "application/json")],
                        body: Array(#"{"token":"public-token"}"#.utf8)))
            }
            if request.url.hasPrefix("https://public.example/") {
                guard authorization == "Bearer public-token" else {
                    return .success(
                        RegistryResponse(
                            statusCode: 401,
                            headers: [
                                .init(
                                    name: "WWW-Authenticate",
                                    value: #"Bearer realm="https://auth.public.example/token",service="public""#)
                            ]))
                }
                return .success(RegistryClientTests.ok())
            }
            guard authorization != nil else {
                return .success(
                    RegistryResponse(statusCode: 401, headers: [.init(name: "WWW-Authenticate", value: #"Basic realm="r""#)]))
            }
            return .success(RegistryClientTests.ok())
        }
    }

    @Test func aRegistrysCredentialsNeverReachAnotherRegistrysTokenService() throws {
        let transport = Self.twoRegistries()
        let client = RegistryClient(
            transport: transport, credentials: RegistryClientTests.store("private.example", Self.privateCredentials))
        _ = try RegistryClientTests.resolve("private.example/team/app:1", client: client)
        _ = try RegistryClientTests.resolve("public.example/library/debian:12", client: client)
        let carrying = transport.requests.filter {
            RegistryClientTests.header($0, "Authorization") == Self.privateAuthorization
        }
        #expect(!carrying.isEmpty)
        #expect(carrying.allSatisfy { $0.url.hasPrefix("https://private.example/") }, "\(carrying.map(\.url))")
        let tokenRequests = transport.requests.filter { $0.url.hasPrefix("https://auth.public.example/") }
        #expect(tokenRequests.count == 1)
        #expect(tokenRequests.allSatisfy { RegistryClientTests.header($0, "Authorization") == nil })
    }

    @Test func anotherRegistryAskingBasicGetsNoCredentialsAndSaysWhichHostTheyAreFor() throws {
        let transport = Self.twoRegistries()
        let client = RegistryClient(
            transport: transport, credentials: RegistryClientTests.store("private.example", Self.privateCredentials))
        let error = try #require(throws: RegistryError.self) {
            try RegistryClientTests.resolve("other.example/app:1", client: client)
        }
        #expect(error.kind == .authentication)
        #expect(error.message.contains("--registry-auth other.example=USER:PASS"), "\(error)")
        #expect(transport.requests.allSatisfy { RegistryClientTests.header($0, "Authorization") == nil })
    }

    @Test func credentialsGoToTheTokenServiceTheRegistrysOwnChallengeNamesOverHTTPSOnly() throws {
        let credentials = RegistryCredentials(user: "ci", password: "token-pass")
        let transport = Self.twoRegistries()
        let client = RegistryClient(transport: transport, credentials: RegistryClientTests.store("public.example", credentials))
        _ = try RegistryClientTests.resolve("public.example/team/app:1", client: client)
        let token = try #require(transport.requests.first { $0.url.hasPrefix("https://auth.public.example/") })
        #expect(RegistryClientTests.header(token, "Authorization") == credentials.basicAuthorization)

        // A realm over plain HTTP gets no credentials (unless its host is a registry named insecure).
        let plain = ScriptedTransport { request in
            if request.url.hasPrefix("http://auth.public.example/") {
                return .success(RegistryResponse(statusCode: 200, body: Array(#"{"token":"t"}"#.utf8)))
            }
            if RegistryClientTests.header(request, "Authorization") == "Bearer t" { return .success(RegistryClientTests.ok()) }
            return .success(
                RegistryResponse(
                    statusCode: 401,
                    headers: [.init(name: "WWW-Authenticate", value: #"Bearer realm="http://auth.public.example/token""#)]))
        }
        _ = try RegistryClientTests.resolve(
            "public.example/team/app:1",
            client: RegistryClient(transport: plain, credentials: RegistryClientTests.store("public.example", credentials)))
        #expect(plain.requests.allSatisfy { RegistryClientTests.header($0, "Authorization") != credentials.basicAuthorization })
    }

    @Test func aBasicChallengeFromTheHostARedirectLeadsToGetsNoCredentials() throws {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix("https://private.example/") {
                return .success(
                    RegistryResponse(statusCode: 307, headers: [.init(name: "Location", value: "https://mirror.example/m")]))
            }
            return .success(RegistryResponse(statusCode: 401, headers: [.init(name: "WWW-Authenticate", value: "Basic")]))
        }
        let client = RegistryClient(
            transport: transport, credentials: RegistryClientTests.store("private.example", Self.privateCredentials))
        let error = try #require(throws: RegistryError.self) {
            try RegistryClientTests.resolve("private.example/app:1", client: client)
        }
        #expect(error.message.contains("mirror.example asks for a user name and password after a redirect"), "\(error)")
        #expect(transport.requests.allSatisfy { RegistryClientTests.header($0, "Authorization") == nil })
    }
}

/// Finding a registry's credentials as Docker and the containers tools find them.
@Suite struct RegistryCredentialStoreTests {
    static func reference(_ text: String) throws -> ImageReference { try ImageReference(parsing: text) }

    @Test(arguments: [
        ("https://index.docker.io/v1/", "docker.io"), ("index.docker.io", "docker.io"), ("registry-1.docker.io", "docker.io"),
        ("docker.io", "docker.io"), ("Registry.Example:5000", "registry.example:5000"),
        ("https://registry.example:5000/v2/", "registry.example:5000"), ("registry.example/team/", "registry.example/team"),
    ])
    func readsKeysAsContainerToolsDo(key: String, scope: String) {
        #expect(RegistryCredentialStore.scope(ofKey: key) == scope)
    }

    @Test func dockerHubsNamesAreOneHost() throws {
        let file = """
            {"auths": {"https://index.docker.io/v1/": {"auth": "\(Data("hub:secret".utf8).base64EncodedString())"}}}
            """
        let store = RegistryCredentialStore(layers: [try .init(authFile: Array(file.utf8), origin: "config.json")])
        #expect(try store.credentials(for: Self.reference("debian:12"))?.credentials.user == "hub")
        #expect(try store.credentials(for: Self.reference("docker.io/library/debian:12"))?.credentials.user == "hub")
        #expect(try store.credentials(for: Self.reference("index.docker.io/library/debian:12"))?.credentials.user == "hub")
        #expect(try store.credentials(for: Self.reference("ghcr.io/x/y:1")) == nil)
    }

    @Test func theLongestNamespaceWinsAndAnotherPortIsAnotherRegistry() throws {
        func entry(_ scope: String, _ user: String) -> RegistryCredentialStore.Entry {
            .init(scope: scope, source: .credentials(RegistryCredentials(user: user, password: "p")), origin: "auth.json")
        }
        let store = RegistryCredentialStore(layers: [
            .init(entries: [entry("r.example:5000", "host"), entry("r.example:5000/team", "team")], origin: "auth.json")
        ])
        #expect(try store.credentials(for: Self.reference("r.example:5000/team/app:1"))?.credentials.user == "team")
        #expect(try store.credentials(for: Self.reference("r.example:5000/teammate/app:1"))?.credentials.user == "host")
        #expect(try store.credentials(for: Self.reference("r.example:5001/team/app:1")) == nil)
        #expect(try store.credentials(for: Self.reference("r.example/team/app:1")) == nil)
    }

    @Test func helpersAreAskedPerHostThenTheStoreAndTheCommandLineComesFirst() throws {
        let file = """
            {"auths": {"a.example": {"auth": "\(Data("file:x".utf8).base64EncodedString())"}, "b.example": {}},
             "credHelpers": {"b.example": "test"}, "credsStore": "store"}
            """
        let runner = RecordingHelperRunner()
        let layer = try RegistryCredentialStore.Layer(authFile: Array(file.utf8), origin: "config.json")
        let store = RegistryCredentialStore(
            layers: [
                .init(
                    entries: [
                        .init(
                            scope: "c.example", source: .credentials(.init(user: "cli", password: "p")), origin: "--registry-auth"
                        )
                    ], origin: "the command line"), layer,
            ], helperRunner: runner)
        #expect(try store.credentials(for: Self.reference("b.example/x:1"))?.credentials.user == "test@b.example")
        // With a credsStore, Docker reads no auths entry: a.example is the store's.
        #expect(try store.credentials(for: Self.reference("a.example/x:1"))?.credentials.user == "store@a.example")
        #expect(try store.credentials(for: Self.reference("c.example/x:1"))?.credentials.user == "cli")
        #expect(try store.credentials(for: Self.reference("debian:12"))?.credentials.user == "store@https://index.docker.io/v1/")
        #expect(runner.asked == ["test b.example", "store a.example", "store https://index.docker.io/v1/"])
    }

    @Test func refusesAuthFilesItCannotReadWithoutShowingTheSecret() throws {
        let notBase64 = #"{"auths": {"r.example": {"auth": "c2VjcmV0LXdpdGhvdXQtY29sb24="}}}"#
        let error = try #require(throws: RegistryCredentialError.self) {
            try RegistryCredentialStore.Layer(authFile: Array(notBase64.utf8), origin: "auth.json")
        }
        #expect(error.reason == "auth.json: auths.r.example.auth is not the base64 of USER:PASS")
        let token = #"{"auths": {"r.example": {"identitytoken": "refresh-token-value"}}}"#
        let tokenError = try #require(throws: RegistryCredentialError.self) {
            try RegistryCredentialStore.Layer(authFile: Array(token.utf8), origin: "config.json")
        }
        #expect(tokenError.reason.contains("identity token"))
        #expect(!tokenError.reason.contains("refresh-token-value"))
        let duplicated = #"{"auths": {}, "auths": {}}"#
        let duplicate = try #require(throws: RegistryCredentialError.self) {
            try RegistryCredentialStore.Layer(authFile: Array(duplicated.utf8), origin: "config.json")
        }
        #expect(duplicate.reason.hasPrefix("config.json:1:"), "\(duplicate)")
        #expect(throws: RegistryCredentialError.self) {
            try RegistryCredentialStore.Layer(
                authFile: Array(#"{"credHelpers": {"r.example": "../../bin/sh"}}"#.utf8), origin: "c")
        }
    }
}

/// Answers `HELPER@SERVER` as the user name and records each question.
final class RecordingHelperRunner: CredentialHelperRunner, @unchecked Sendable {
    private let lock = NSLock()
    private var questions: [String] = []

    var asked: [String] { lock.withLock { questions } }

    func credentials(helper: String, serverURL: String) throws(RegistryCredentialError) -> RegistryCredentials? {
        lock.withLock { questions.append("\(helper) \(serverURL)") }
        return RegistryCredentials(user: "\(helper)@\(serverURL)", password: "from-helper")
    }
}

/// A manifest is pinned only when its body is the manifest its media type names
/// (`compose-lock-pins-non-manifest`).
@Suite struct ManifestAnswerTests {
    static func answer(_ body: String, contentType: String?) -> RegistryResponse {
        RegistryResponse(
            statusCode: 200, headers: contentType.map { [.init(name: "Content-Type", value: $0)] } ?? [],
            body: Array(body.utf8))
    }

    static let ociManifest = """
        {"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",\
        "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:\(String(repeating: "1", count: 64))","size":2},\
        "layers":[]}
        """

    @Test func readsManifestsAndIndexesOfEveryType() throws {
        #expect(
            try Self.answer(Self.ociManifest, contentType: "application/vnd.oci.image.manifest.v1+json; charset=utf-8")
                .manifestMediaType() == "application/vnd.oci.image.manifest.v1+json")
        #expect(
            try Self.answer(Self.ociManifest, contentType: nil).manifestMediaType()
                == "application/vnd.oci.image.manifest.v1+json")
        let list = #"{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.list.v2+json","manifests":[]}"#
        #expect(
            try Self.answer(list, contentType: "application/vnd.docker.distribution.manifest.list.v2+json")
                .manifestMediaType() == "application/vnd.docker.distribution.manifest.list.v2+json")
    }

    @Test(
        arguments: [
            ("{not json", "application/vnd.oci.image.manifest.v1+json", "its body is not JSON"),
            (#"{"mediaType":"application/vnd.oci.image.manifest.v1+json"}"#, nil, "schemaVersion is not 2"),
            (
                #"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}"#,
                "application/vnd.oci.image.manifest.v1+json", "its body names another type"
            ),
            (#"{"schemaVersion":2,"manifests":[]}"#, "application/vnd.docker.distribution.manifest.list.v2+json", "no mediaType"),
            (#"{"schemaVersion":2,"layers":[]}"#, "application/vnd.oci.image.manifest.v1+json", "no config descriptor"),
            (
                #"{"schemaVersion":2,"manifests":[{"mediaType":"x","digest":"sha256:12","size":1}]}"#,
                "application/vnd.oci.image.index.v1+json", "manifests[0] is no descriptor"
            ),
            (#"{"hello":1}"#, "application/json", "the answer is application/json, not an image manifest"),
            ("<html>captive portal</html>", "text/html", "the answer is text/html, not an image manifest"),
            (#"{"schemaVersion":2,"schemaVersion":2}"#, "application/vnd.oci.image.manifest.v1+json", "duplicate object key"),
        ] as [(String, String?, String)])
    func refusesWhatIsNoManifest(body: String, contentType: String?, problem: String) {
        let error = #expect(throws: ManifestAnswerError.self) {
            try Self.answer(body, contentType: contentType).manifestMediaType()
        }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }
}

import Foundation
import StageKit
import Testing

/// A transport that answers from a function and records every request.
final class ScriptedTransport: RegistryTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [RegistryRequest] = []
    private let answer: @Sendable (RegistryRequest) -> Result<RegistryResponse, RegistryTransportError>

    init(_ answer: @escaping @Sendable (RegistryRequest) -> Result<RegistryResponse, RegistryTransportError>) {
        self.answer = answer
    }

    var requests: [RegistryRequest] { lock.withLock { sent } }

    func send(_ request: RegistryRequest) throws(RegistryTransportError) -> RegistryResponse {
        lock.withLock { sent.append(request) }
        return try answer(request).get()
    }
}

@Suite struct RegistryClientTests {
    static let manifest = Array(#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}"#.utf8)
    static let digest = Digest.sha256(of: manifest)
    static let indexType = "application/vnd.oci.image.index.v1+json"

    static func ok(digestHeader: Bool = true, body: [UInt8] = manifest, contentType: String = indexType) -> RegistryResponse {
        var headers = [RegistryResponse.Field(name: "Content-Type", value: contentType)]
        if digestHeader { headers.append(.init(name: "docker-content-digest", value: digest.description)) }
        return RegistryResponse(statusCode: 200, headers: headers, body: body)
    }

    static func header(_ request: RegistryRequest, _ name: String) -> String? {
        request.headerLines.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map {
            String($0.drop(while: { $0 != ":" }).dropFirst()).trimmingCharacters(in: .whitespaces)
        }
    }

    /// A store that holds credentials for one registry.
    static func store(_ host: String, _ credentials: RegistryCredentials) -> RegistryCredentialStore {
        RegistryCredentialStore(layers: [
            .init(entries: [.init(scope: host, source: .credentials(credentials), origin: "--registry-auth")], origin: "test")
        ])
    }

    static func resolve(_ written: String, client: RegistryClient) throws -> ResolvedImage {
        try client.resolve(try ImageReference(parsing: written))
    }

    /// The HEAD names the digest; the manifest fetched by it is what is pinned, once checked.
    @Test func headsTheTagWithTheManifestAcceptListAndPinsTheIndexFetchedByItsDigest() throws {
        let transport = ScriptedTransport { _ in .success(Self.ok()) }
        let image = try Self.resolve("debian:bookworm-slim", client: RegistryClient(transport: transport))
        #expect(image.digest == Self.digest)
        #expect(image.mediaType == Self.indexType)
        let request = try #require(transport.requests.first)
        #expect(
            transport.requests.map(\.description) == [
                "HEAD https://registry-1.docker.io/v2/library/debian/manifests/bookworm-slim",
                "GET https://registry-1.docker.io/v2/library/debian/manifests/\(Self.digest)",
            ])
        #expect(request.method == "HEAD")
        #expect(request.url == "https://registry-1.docker.io/v2/library/debian/manifests/bookworm-slim")
        #expect(
            Self.header(request, "Accept")
                == "application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, "
                + "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json")
        #expect(Self.header(request, "Authorization") == nil)
    }

    @Test func speaksPlainHTTPOnlyToInsecureRegistries() throws {
        let transport = ScriptedTransport { _ in .success(Self.ok()) }
        _ = try Self.resolve(
            "localhost:5000/app", client: RegistryClient(transport: transport, insecureRegistries: ["LOCALHOST:5000"]))
        _ = try Self.resolve(
            "localhost:5001/app", client: RegistryClient(transport: transport, insecureRegistries: ["localhost:5000"]))
        #expect(
            transport.requests.map(\.url) == [
                "http://localhost:5000/v2/app/manifests/latest", "http://localhost:5000/v2/app/manifests/\(Self.digest)",
                "https://localhost:5001/v2/app/manifests/latest", "https://localhost:5001/v2/app/manifests/\(Self.digest)",
            ])
    }

    @Test func getsAndHashesTheManifestWithoutADigestHeader() throws {
        let transport = ScriptedTransport { request in
            .success(request.method == "HEAD" ? Self.ok(digestHeader: false) : Self.ok(digestHeader: false, body: Self.manifest))
        }
        let image = try Self.resolve("ghcr.io/o/app:1", client: RegistryClient(transport: transport))
        #expect(image.digest == Self.digest)
        #expect(transport.requests.map(\.method) == ["HEAD", "GET"])
    }

    @Test func refusesABodyThatDoesNotMatchTheAnnouncedDigest() throws {
        let transport = ScriptedTransport { request in
            if request.method == "HEAD" { return .success(Self.ok(digestHeader: false)) }
            return .success(Self.ok(body: Self.manifest + [0x20]))
        }
        let error = try #require(throws: RegistryError.self) {
            try Self.resolve("ghcr.io/o/app:1", client: RegistryClient(transport: transport))
        }
        #expect(error.kind == .digestMismatch)
        #expect(error.image == "ghcr.io/o/app:1")
        #expect(error.hop == "GET https://ghcr.io/v2/o/app/manifests/1")
    }

    @Test func verifiesAReferenceThatCarriesADigest() throws {
        let good = ScriptedTransport { _ in .success(Self.ok(body: Self.manifest)) }
        let written = "debian:12@" + Self.digest.description
        let image = try Self.resolve(written, client: RegistryClient(transport: good))
        #expect(image.digest == Self.digest)
        #expect(
            good.requests.map(\.description) == ["GET https://registry-1.docker.io/v2/library/debian/manifests/\(Self.digest)"])

        let altered = ScriptedTransport { _ in .success(Self.ok(body: Self.manifest + [0x0A])) }
        let error = try #require(throws: RegistryError.self) {
            try Self.resolve(written, client: RegistryClient(transport: altered))
        }
        #expect(error.kind == .digestMismatch)
        #expect(error.message.contains("hashes to"))
    }

    @Test func followsABearerChallengeWithAnAnonymousTokenRequest() throws {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix("https://auth.docker.io/token") {
                return .success(RegistryResponse(statusCode: 200, body: Array(#"{"token":"t0k3n"}"#.utf8)))
            }
            guard Self.header(request, "Authorization") == "Bearer t0k3n" else {
                return .success(
                    RegistryResponse(
                        statusCode: 401,
                        headers: [
                            .init(
                                name: "WWW-Authenticate",
                                value:
                                    #"Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/debian:pull""#
                            )
                        ]))
            }
            return .success(Self.ok())
        }
        let image = try Self.resolve("debian:12", client: RegistryClient(transport: transport))
        #expect(image.digest == Self.digest)
        let urls = transport.requests.map(\.url)
        // HEAD, the token, HEAD again with it, and the manifest fetched by its digest with the same token.
        #expect(urls.count == 4)
        #expect(Self.header(transport.requests[3], "Authorization") == "Bearer t0k3n")
        try #require(urls.count >= 2)
        #expect(urls[1] == "https://auth.docker.io/token?service=registry.docker.io&scope=repository%3Alibrary%2Fdebian%3Apull")
        #expect(Self.header(transport.requests[1], "Authorization") == nil, "anonymous without credentials")
    }

    @Test func answersBasicWithCredentialsAndFailsClearlyWithout() throws {
        let credentials = try #require(RegistryCredentials(parsing: "ci:pa:ss"))
        #expect(credentials.user == "ci" && credentials.password == "pa:ss")
        #expect(credentials.description == "ci:***")
        let expected = "Basic " + Data("ci:pa:ss".utf8).base64EncodedString()
        #expect(credentials.basicAuthorization == expected)
        let transport = ScriptedTransport { request in
            guard Self.header(request, "Authorization") == expected else {
                return .success(
                    RegistryResponse(statusCode: 401, headers: [.init(name: "WWW-Authenticate", value: #"Basic realm="r""#)]))
            }
            return .success(Self.ok())
        }
        let image = try Self.resolve(
            "r.example/app:1", client: RegistryClient(transport: transport, credentials: Self.store("r.example", credentials)))
        #expect(image.digest == Self.digest)

        let without = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example/app:1", client: RegistryClient(transport: transport))
        }
        #expect(without.kind == .authentication)
        #expect(without.message.contains("--registry-auth"))

        let wrong = try #require(RegistryCredentials(parsing: "ci:nope"))
        let refused = try #require(throws: RegistryError.self) {
            try Self.resolve(
                "r.example/app:1", client: RegistryClient(transport: transport, credentials: Self.store("r.example", wrong)))
        }
        #expect(refused.kind == .authentication)
        #expect(refused.message.contains("refused the credentials of user ci from --registry-auth"))
        #expect(!refused.description.contains("nope"))
    }

    @Test func namesUnknownTagsAndRepositories() throws {
        let transport = ScriptedTransport { request in
            let code = request.url.contains("/ghost/") ? "NAME_UNKNOWN" : "MANIFEST_UNKNOWN"
            let body = request.method == "GET" ? Array(#"{"errors":[{"code":"\#(code)","message":"unknown"}]}"#.utf8) : []
            return .success(RegistryResponse(statusCode: 404, body: body))
        }
        let tag = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example/app:nope", client: RegistryClient(transport: transport))
        }
        #expect(tag.kind == .unknownManifest)
        #expect(tag.message == "tag nope of app is not known to r.example (404 MANIFEST_UNKNOWN)")
        #expect(tag.hop == "HEAD https://r.example/v2/app/manifests/nope")
        let repository = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example/ghost/app:1", client: RegistryClient(transport: transport))
        }
        #expect(repository.message.contains("repository ghost/app is not known"))
    }

    @Test func reportsAnUnreachableRegistryWithTheHop() throws {
        let transport = ScriptedTransport { _ in .failure(RegistryTransportError(.unreachable, "Connection refused")) }
        let error = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example:5000/app", client: RegistryClient(transport: transport))
        }
        #expect(error.kind == .unreachable)
        #expect(
            error.description
                == "image r.example:5000/app: HEAD https://r.example:5000/v2/app/manifests/latest: cannot reach r.example:5000: Connection refused"
        )
    }

    @Test func followsRedirectsDroppingAuthorizationOffHost() throws {
        let credentials = RegistryCredentials(user: "u", password: "p")
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix("https://r.example/") {
                if Self.header(request, "Authorization") == nil {
                    return .success(RegistryResponse(statusCode: 401, headers: [.init(name: "WWW-Authenticate", value: "Basic")]))
                }
                return .success(
                    RegistryResponse(statusCode: 307, headers: [.init(name: "Location", value: "https://cdn.example/m")]))
            }
            return .success(Self.ok())
        }
        _ = try Self.resolve(
            "r.example/app:1", client: RegistryClient(transport: transport, credentials: Self.store("r.example", credentials)))
        let last = try #require(transport.requests.last)
        #expect(last.url == "https://cdn.example/m")
        #expect(Self.header(last, "Authorization") == nil)

        let downgrade = ScriptedTransport { _ in
            .success(RegistryResponse(statusCode: 302, headers: [.init(name: "Location", value: "http://r.example/x")]))
        }
        let error = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example/app:1", client: RegistryClient(transport: downgrade))
        }
        #expect(error.message.contains("plain HTTP refused"))
    }

    @Test func treatsGatewayErrorsAsUnavailable() throws {
        let transport = ScriptedTransport { _ in .success(RegistryResponse(statusCode: 502)) }
        let error = try #require(throws: RegistryError.self) {
            try Self.resolve("r.example/app:1", client: RegistryClient(transport: transport))
        }
        #expect(error.kind == .unreachable)
    }

    @Test func refusesAnAnswerThatIsNoImageManifest() throws {
        // A web server (or a captive portal) answering 200 with text is not a registry: its
        // hash must never be pinned.
        let transport = ScriptedTransport { _ in
            .success(Self.ok(digestHeader: false, body: Array("Hello from nginx\n".utf8), contentType: "text/plain"))
        }
        #expect {
            try Self.resolve(
                "localhost:5000/x:1", client: RegistryClient(transport: transport, insecureRegistries: ["localhost:5000"]))
        } throws: { error in
            guard let error = error as? RegistryError else { return false }
            return error.kind == .unexpectedAnswer && error.message.contains("the answer is text/plain, not an image manifest")
        }
    }
}

import StageKit
import Testing

@Suite struct ImageReferenceTests {
    static let digest = "sha256:" + String(repeating: "ab", count: 32)

    /// Written form -> domain, path, tag, digest, API host, canonical form.
    struct Shape: Sendable, CustomTestStringConvertible {
        var written: String
        var domain: String
        var path: String
        var tag: String?
        var digest: String?
        var apiHost: String
        var canonical: String

        var testDescription: String { written }
    }

    static let shapes: [Shape] = [
        Shape(
            written: "debian", domain: "docker.io", path: "library/debian", tag: nil, digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:latest"),
        Shape(
            written: "debian:bookworm-slim", domain: "docker.io", path: "library/debian", tag: "bookworm-slim", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:bookworm-slim"),
        Shape(
            written: "library/debian:12", domain: "docker.io", path: "library/debian", tag: "12", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:12"),
        Shape(
            written: "docker.io/debian", domain: "docker.io", path: "library/debian", tag: nil, digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:latest"),
        Shape(
            written: "index.docker.io/library/debian:12", domain: "docker.io", path: "library/debian", tag: "12", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:12"),
        Shape(
            written: "bitnami/nginx:1.27", domain: "docker.io", path: "bitnami/nginx", tag: "1.27", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/bitnami/nginx:1.27"),
        Shape(
            written: "docker/dockerfile:1", domain: "docker.io", path: "docker/dockerfile", tag: "1", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/docker/dockerfile:1"),
        Shape(
            written: "ghcr.io/owner/app:v1.2.3", domain: "ghcr.io", path: "owner/app", tag: "v1.2.3", digest: nil,
            apiHost: "ghcr.io", canonical: "ghcr.io/owner/app:v1.2.3"),
        Shape(
            written: "localhost/app", domain: "localhost", path: "app", tag: nil, digest: nil, apiHost: "localhost",
            canonical: "localhost/app:latest"),
        Shape(
            written: "localhost:5000/team/app:1", domain: "localhost:5000", path: "team/app", tag: "1", digest: nil,
            apiHost: "localhost:5000", canonical: "localhost:5000/team/app:1"),
        Shape(
            written: "127.0.0.1:5000/app@" + digest, domain: "127.0.0.1:5000", path: "app", tag: nil, digest: digest,
            apiHost: "127.0.0.1:5000", canonical: "127.0.0.1:5000/app@" + digest),
        Shape(
            written: "[::1]:5000/app:dev", domain: "[::1]:5000", path: "app", tag: "dev", digest: nil, apiHost: "[::1]:5000",
            canonical: "[::1]:5000/app:dev"),
        Shape(
            written: "registry.example.com:443/a/b/c:x_Y.z-1", domain: "registry.example.com:443", path: "a/b/c",
            tag: "x_Y.z-1", digest: nil, apiHost: "registry.example.com:443",
            canonical: "registry.example.com:443/a/b/c:x_Y.z-1"),
        Shape(
            written: "debian:12@" + digest, domain: "docker.io", path: "library/debian", tag: "12", digest: digest,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/debian:12@" + digest),
        Shape(
            written: "Registry/app", domain: "Registry", path: "app", tag: nil, digest: nil, apiHost: "Registry",
            canonical: "Registry/app:latest"),
        Shape(
            written: "my_org/my-app__x.y:1", domain: "docker.io", path: "my_org/my-app__x.y", tag: "1", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/my_org/my-app__x.y:1"),
        Shape(
            written: "a---b", domain: "docker.io", path: "library/a---b", tag: nil, digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/a---b:latest"),
        // `localhost:5000` alone is the image localhost with tag 5000, as Docker reads it.
        Shape(
            written: "localhost:5000", domain: "docker.io", path: "library/localhost", tag: "5000", digest: nil,
            apiHost: "registry-1.docker.io", canonical: "docker.io/library/localhost:5000"),
    ]

    @Test(arguments: shapes)
    func readsAsDockerDoes(shape: Shape) throws {
        let reference = try ImageReference(parsing: shape.written)
        #expect(reference.written == shape.written)
        #expect(reference.domain == shape.domain)
        #expect(reference.path == shape.path)
        #expect(reference.tag == shape.tag)
        #expect(reference.digest?.description == shape.digest)
        #expect(reference.apiHost == shape.apiHost)
        #expect(reference.canonical == shape.canonical)
        #expect(reference.name == shape.domain + "/" + shape.path)
    }

    /// Written form -> a word the error must contain.
    @Test(arguments: [
        ("", "empty"),
        ("Debian:12", "lowercase"),
        ("library/Debian", "lowercase"),
        ("debian:", "invalid tag"),
        ("debian:.hidden", "invalid tag"),
        ("debian:-x", "invalid tag"),
        ("debian:" + String(repeating: "a", count: 129), "invalid tag"),
        ("debian:a/b", "invalid registry"),
        ("debian@sha256:abc", "64 hex digits"),
        ("debian@sha256:" + String(repeating: "A", count: 64), "lower-case hex"),
        ("debian@md5:" + String(repeating: "a", count: 32), "unsupported digest algorithm"),
        ("debian@" + String(repeating: "a", count: 64), "ALGORITHM:HEX"),
        ("my..app", "invalid repository name"),
        ("-app", "invalid repository name"),
        ("app-", "invalid repository name"),
        ("a//b", "invalid repository name"),
        ("app/", "invalid repository name"),
        ("app name", "invalid"),
        ("reg istry.io/app", "invalid registry"),
        ("registry.io:port/app", "invalid registry"),
        ("-registry.io/app", "invalid registry"),
        ("[::1/app", "invalid registry"),
        (String(repeating: "a", count: 64), "image ID"),
        ("localhost/" + String(repeating: "a", count: 250), "255 characters"),
        (":tag", "missing"),
    ])
    func refusesWhatDockerRefuses(written: String, word: String) {
        #expect(throws: ImageReferenceError.self) { try ImageReference(parsing: written) }
        do {
            _ = try ImageReference(parsing: written)
        } catch {
            #expect(error.description.contains(word), "\(error.description)")
            #expect(error.reference == written)
        }
    }

    @Test func pinsKeepingTheWrittenFormAndTheTag() throws {
        let digest = try Digest(parsing: Self.digest)
        #expect(try ImageReference(parsing: "debian:12").pinned(to: digest) == "debian:12@" + Self.digest)
        #expect(try ImageReference(parsing: "debian").pinned(to: digest) == "debian:latest@" + Self.digest)
        #expect(
            try ImageReference(parsing: "localhost:5000/app").pinned(to: digest) == "localhost:5000/app:latest@" + Self.digest)
        let other = "sha256:" + String(repeating: "cd", count: 32)
        // Already pinned: kept as written.
        #expect(try ImageReference(parsing: "debian:12@" + other).pinned(to: digest) == "debian:12@" + other)
        #expect(try ImageReference(parsing: "debian").effectiveTag == "latest")
    }
}

@Suite struct DigestTests {
    @Test func readsTheAlgorithmsDockerAccepts() throws {
        for (algorithm, length) in [("sha256", 64), ("sha384", 96), ("sha512", 128)] {
            let text = algorithm + ":" + String(repeating: "0", count: length)
            let digest = try Digest(parsing: text)
            #expect(digest.algorithm == algorithm)
            #expect(digest.description == text)
        }
    }

    @Test func hashesAndVerifiesSHA256() throws {
        let empty = Digest.sha256(of: [UInt8]())
        #expect(empty.description == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(empty.isDigest(of: []) == true)
        #expect(empty.isDigest(of: [0]) == false)
        #expect(try Digest(parsing: "sha512:" + String(repeating: "0", count: 128)).isDigest(of: []) == nil)
    }

    @Test(arguments: ["sha256", "sha256:", "sha1:" + String(repeating: "0", count: 40), "sha256:xyz"])
    func refusesMalformedDigests(text: String) {
        #expect(throws: DigestError.self) { try Digest(parsing: text) }
    }
}

import Curl
import Testing

/// TLS against the Python server with a self-signed certificate for `localhost` and
/// `probe.test` (no IP address): chain, host name and pinned key checks, and certificate info.
@Suite struct EasyHandleTLSTests {
    private func tls() throws -> (server: LoopbackServer, certificate: TestCertificate) {
        (try LoopbackServer.tls.get(), try TestCertificate.shared.get())
    }

    @Test func trustedCertificateForTheNameSucceedsWithCertificateInfo() throws {
        let (server, certificate) = try tls()
        let response = try transfer([
            .url(server.url("/hello", scheme: "https", host: "probe.test")),
            .resolve(["probe.test:\(server.port):127.0.0.1"]), .caInfo(path: certificate.certificatePath),
            .certInfo(true),
        ]).result.get()

        #expect(response.statusCode == 200)
        #expect(response.tlsVerifyResult == 0)
        #expect(response.timings.appConnect >= response.timings.connect)
        #expect(response.timings.appConnect > 0)
        let leaf = try #require(response.certificates.first)
        #expect(leaf.subject == "CN = localhost")
        #expect(leaf.subject == leaf.issuer, "self-signed")
        #expect(leaf.subjectAlternativeNames == ["DNS:localhost", "DNS:probe.test"])
        #expect(leaf.notBefore?.hasSuffix("GMT") == true)
        #expect(leaf.notAfter?.hasSuffix("GMT") == true)
        #expect(leaf.pem?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
    }

    @Test func selfSignedCertificateIsNotTrustedByDefault() throws {
        let (server, _) = try tls()
        let (result, _) = try transfer([
            .url(server.url("/hello", scheme: "https", host: "localhost")), .resolve(["localhost:\(server.port):127.0.0.1"]),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .peerFailedVerification)
        #expect(error.message.contains("self-signed certificate"))
        #expect(error.partialResponse?.tlsVerifyResult == 18, "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT")
    }

    @Test func hostNameMismatchNamesBothSidesAndKeepsTheCertificate() throws {
        let (server, certificate) = try tls()
        let (result, _) = try transfer([
            .url(server.url("/hello", scheme: "https")), .caInfo(path: certificate.certificatePath), .certInfo(true),
            .verbose(true),
        ])

        let error = try #require(result.failure)
        #expect(error.code == .peerFailedVerification)
        #expect(error.message == "SSL: no alternative certificate subject name matches target host name '127.0.0.1'")
        let partial = try #require(error.partialResponse)
        #expect(partial.debugLog.contains("subjectAltName does not match 127.0.0.1"))
        #expect(partial.certificates.first?.subjectAlternativeNames == ["DNS:localhost", "DNS:probe.test"])
    }

    @Test func verifyHostOffAcceptsTheOtherNameButStillVerifiesTheChain() throws {
        let (server, certificate) = try tls()
        let accepted = try transfer([
            .url(server.url("/hello", scheme: "https")), .caInfo(path: certificate.certificatePath),
            .verifyHost(false),
        ]).result

        #expect((try? accepted.get())?.statusCode == 200)

        let untrusted = try transfer([.url(server.url("/hello", scheme: "https")), .verifyHost(false)]).result
        #expect(untrusted.failure?.code == .peerFailedVerification)
    }

    @Test func verifyPeerOffAcceptsAnything() throws {
        let (server, _) = try tls()
        let response = try transfer([
            .url(server.url("/hello", scheme: "https")), .verifyPeer(false), .verifyHost(false),
        ]).result.get()

        #expect(response.statusCode == 200)
    }

    @Test func pinnedPublicKeyMatchesAndMismatches() throws {
        let (server, certificate) = try tls()
        let pin = try certificate.publicKeyPin()
        let matching = try transfer([
            .url(server.url("/hello", scheme: "https", host: "localhost")), .resolve(["localhost:\(server.port):127.0.0.1"]),
            .caInfo(path: certificate.certificatePath),
            .pinnedPublicKey("sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;" + pin),
        ]).result
        #expect((try? matching.get())?.statusCode == 200)

        let other = try transfer([
            .url(server.url("/hello", scheme: "https", host: "localhost")), .resolve(["localhost:\(server.port):127.0.0.1"]),
            .caInfo(path: certificate.certificatePath), .pinnedPublicKey("sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="),
        ]).result
        #expect(other.failure?.code == .sslPinnedPublicKeyNotMatch)
    }

    @Test func missingCAFileIsItsOwnError() throws {
        let (server, _) = try tls()
        let (result, _) = try transfer([
            .url(server.url("/hello", scheme: "https")), .caInfo(path: "/nonexistent/ca.pem"),
        ])
        #expect(result.failure?.code == .sslCACertBadFile)
    }
}

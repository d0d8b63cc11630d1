import Digests
import Foundation
import ProbeKit
import TestSupport
import Testing

/// Apple's certificate requirements, checked on certificates made with the `openssl` command.
@Suite struct AppleTrustRulesTests {
    /// A self-signed certificate made by `openssl req -x509` with the given options.
    static func certificate(
        _ options: [String], key: [String] = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    )
        throws -> LeafCertificateFacts
    {
        let scratch = try Scratch(prefix: "apple-trust")
        let directory = scratch.path
        defer { withExtendedLifetime(scratch) {} }  // the folder must outlive the paths taken from it
        try Shell.run(
            ["openssl", "req", "-x509", "-nodes"] + key + ["-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"]
                + options)
        let pem = try String(contentsOfFile: directory + "/cert.pem", encoding: .utf8)
        return try #require(LeafCertificateFacts(pem: pem))
    }

    static func failed(_ leaf: LeafCertificateFacts, preloadedRoot: Bool = true) -> [String] {
        AppleTrustRules.checks(leaf: leaf, preloadedRoot: preloadedRoot, tls: nil).filter { !$0.passed }.map(\.rule)
    }

    @Test func aCertificateMadeToTheRulesPassesThemAll() throws {
        let leaf = try Self.certificate([
            "-days", "90", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-addext", "extendedKeyUsage=serverAuth",
        ])
        #expect(Self.failed(leaf).isEmpty)
        #expect(leaf.serverAuth == true && leaf.subjectAltNameCount == 1 && leaf.keyType == "EC")
    }

    @Test func eachBrokenRuleIsNamed() throws {
        let cnOnly = try Self.certificate(["-days", "90", "-subj", "/CN=localhost", "-addext", "extendedKeyUsage=serverAuth"])
        #expect(Self.failed(cnOnly) == ["DNS name in subjectAltName (a CommonName alone is not trusted)"])
        let noEKU = try Self.certificate(["-days", "90", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"])
        #expect(Self.failed(noEKU) == ["extendedKeyUsage with serverAuth"])
        let clientOnly = try Self.certificate([
            "-days", "90", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-addext", "extendedKeyUsage=clientAuth",
        ])
        #expect(Self.failed(clientOnly) == ["extendedKeyUsage with serverAuth"])
        let longLived = try Self.certificate([
            "-days", "1000", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-addext", "extendedKeyUsage=serverAuth",
        ])
        #expect(
            Self.failed(longLived) == ["validity at most 825 days", "validity at most 398 days (issued from 2020-09-01)"])
        // A root the user installs (--cacert) is held to 825 days, not 398.
        let yearAndAHalf = try Self.certificate([
            "-days", "500", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-addext", "extendedKeyUsage=serverAuth",
        ])
        #expect(Self.failed(yearAndAHalf, preloadedRoot: false).isEmpty)
        #expect(Self.failed(yearAndAHalf) == ["validity at most 398 days (issued from 2020-09-01)"])
        let smallRSA = try Self.certificate(
            [
                "-days", "90", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                "-addext", "extendedKeyUsage=serverAuth",
            ], key: ["-newkey", "rsa:1024"])
        #expect(Self.failed(smallRSA) == ["RSA keys of at least 2048 bits"])
    }

    @Test func atsRulesReadTheConnection() throws {
        let leaf = try Self.certificate([
            "-days", "90", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            "-addext", "extendedKeyUsage=serverAuth",
        ])
        var tls = TLSFacts()
        tls.version = "TLSv1.2"
        tls.cipher = "AES256-GCM-SHA384"
        let failed = AppleTrustRules.checks(leaf: leaf, preloadedRoot: true, tls: tls).filter { !$0.passed }
        #expect(failed.map(\.rule) == ["forward-secret cipher"])
        #expect(failed.allSatisfy { $0.isATS })
        let verdicts = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .trusted, nameMatches: true, failedATSRule: "forward-secret cipher"),
            policy: SecurityPolicy())
        #expect(verdicts.allSatisfy { !$0.succeeded && $0.errorCode == -1200 })
    }

    @Test func aFailedRequirementFailsEveryStackThatEvaluatesTrust() {
        let facts = TrustFacts(chain: .trusted, nameMatches: true, failedRequirement: "extendedKeyUsage with serverAuth")
        #expect(
            AppleClientVerdicts.verdicts(for: facts, policy: SecurityPolicy()).map(\.errorCode) == [-1202, -999, -1202, -999])
        // AFNetworking with both switches never evaluates the trust; neither does DisabledTrustEvaluator.
        let off = SecurityPolicy(validatesDomainName: false, allowsInvalidCertificates: true)
        #expect(AppleClientVerdicts.verdicts(for: facts, policy: off).map(\.succeeded) == [false, true, true, true])
    }
}

import Curl
import Foundation
import ProbeKit
import TestSupport
import Testing

/// Apple's trust rules as trustd applies them, on chains made with the `openssl` command and
/// judged by ``DeviceTrust`` against a root standing for a preloaded one (a folder of public
/// roots holding it) or a root the user installed (`installedRootFiles`).
@Suite struct AppleTrustRulesTests {
    static let pki = Result { try ChainPKI() }

    enum Root { case system, user }

    static func device(_ root: Root) throws -> AppleDevice {
        let pki = try pki.get()
        switch root {
        case .system:
            let folder = pki.directory + "/preloaded"
            if !FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: pki.rootPath, toPath: folder + "/Chain_Test_Root.crt")
            }
            return AppleDevice(publicRootsDirectory: folder)
        case .user:
            return AppleDevice(installedRootFiles: [pki.rootPath], publicRootsDirectory: pki.directory + "/no-public-roots")
        }
    }

    static func facts(_ pems: [String], _ root: Root, host: String = "localhost", tls: TLSFacts? = nil) throws -> TrustFacts {
        let chain = pems.map { PeerCertificate(fields: [HeaderField(name: "Cert", value: $0)]) }
        return try #require(
            DeviceTrust.facts(
                chain: chain, host: host, pins: [], device: try device(root), tls: tls, now: Int(Date().timeIntervalSince1970)))
    }

    static func failed(_ pems: [String], _ root: Root) throws -> [String] {
        try facts(pems, root).checks.filter { !$0.passed }.map(\.rule)
    }

    static let strictUsage = "serverAuth in extendedKeyUsage (for a preloaded root)"
    static let looseUsage = "extendedKeyUsage, when present, allows a TLS server"
    static let keys =
        "RSA keys of at least 2048 bits or EC keys of at least 256, no other kind (every certificate, the root included)"

    @Test func aCertificateMadeToTheRulesPassesThemUnderEitherRoot() throws {
        let leaf = try Self.pki.get().issue("good", extensions: ChainPKI.server)
        for root in [Root.system, .user] {
            let facts = try Self.facts([leaf], root)
            #expect(facts.chain == .trusted && facts.nameMatches)
            #expect(facts.anchor == (root == .system ? .system : .user))
            #expect(facts.checks.allSatisfy { $0.passed }, "\(facts.checks.filter { !$0.passed })")
        }
    }

    /// trustd's SecPolicyCheckServerAuthEKU: a preloaded root's leaf must hold serverAuth; a user
    /// root's is spared, and its leaf may have no extendedKeyUsage at all.
    @Test func serverAuthIsRequiredUnderAPreloadedRootOnly() throws {
        let pki = try Self.pki.get()
        let none = try pki.issue("no-eku", extensions: ["subjectAltName=DNS:localhost"])
        #expect(try Self.failed([none], .system) == [Self.strictUsage])
        #expect(try Self.failed([none], .user) == [])
        let any = try pki.issue("any-eku", extensions: ["subjectAltName=DNS:localhost", "extendedKeyUsage=anyExtendedKeyUsage"])
        #expect(try Self.failed([any], .user) == [])
        #expect(try Self.failed([any], .system) == [Self.strictUsage])
        let client = try pki.issue("client-eku", extensions: ["subjectAltName=DNS:localhost", "extendedKeyUsage=clientAuth"])
        #expect(try Self.failed([client], .user) == [Self.looseUsage])
        #expect(try Self.failed([client], .system) == [Self.looseUsage, Self.strictUsage])
    }

    /// trustd's SecPolicyCheckValidityPeriodMaximums: 398 days under a preloaded root from
    /// 2020-09-01 (825 before), 825 days under a user root for a leaf issued after 2019-07-01.
    @Test func validityLimitsFollowTheRootAndTheIssueDate() throws {
        let pki = try Self.pki.get()
        let yearAndAHalf = try pki.issue("days-500", extensions: ChainPKI.server, end: ChainPKI.date(days: 499))
        #expect(try Self.failed([yearAndAHalf], .system) == ["validity at most 398 days (issued from 2020-09-01)"])
        #expect(try Self.failed([yearAndAHalf], .user) == [])
        let long = try pki.issue("days-827", extensions: ChainPKI.server, end: ChainPKI.date(days: 826))
        #expect(try Self.failed([long], .user) == ["validity at most 825 days (issued after 2019-07-01)"])
        // Issued before trustd's 2019-07-01 (2019-06-30T23:00Z): no limit under a user root; 825
        // days under a preloaded one (from 2018-03-01).
        let before = try pki.issue(
            "june-2019", extensions: ChainPKI.server, start: "20190601000000Z", end: "20210906000000Z")
        #expect(try Self.failed([before], .user) == [])
        #expect(try Self.failed([before], .system) == ["validity at most 825 days (issued from 2018-03-01)"])
        let lastHour = try pki.issue(
            "june-30-2019", extensions: ChainPKI.server, start: "20190630233000Z", end: "20270601000000Z")
        #expect(try Self.failed([lastHour], .user) == ["validity at most 825 days (issued after 2019-07-01)"])
        // Whole seconds: 825 days and one hour pass, as trustd allows the hour.
        let edge = try pki.issue(
            "edge-825", extensions: ChainPKI.server, start: "20260101000000Z", end: "20280405010000Z")
        #expect(try Self.failed([edge], .user) == [])
    }

    /// Keys and signatures are judged on every certificate but the root, intermediates included.
    @Test func keysAndSignaturesOfEveryCertificateButTheRoot() throws {
        let pki = try Self.pki.get()
        let small = try pki.issue("rsa-1024", extensions: ChainPKI.server, key: ["-newkey", "rsa:1024"])
        #expect(try Self.failed([small], .system) == [Self.keys])
        let sha1 = try pki.issue("sha-1", extensions: ChainPKI.server, digest: "sha1")
        #expect(try Self.failed([sha1], .user) == ["no SHA-1 signature (every certificate but a self-signed one)"])
        let intermediate = try pki.issue("weak-ca", extensions: ChainPKI.intermediate, key: ["-newkey", "rsa:1024"])
        let leaf = try pki.issue("under-weak-ca", issuer: "weak-ca", extensions: ChainPKI.server)
        let facts = try Self.facts([leaf, intermediate], .user)
        #expect(facts.chain == .trusted)
        let failure = try #require(facts.checks.first { !$0.passed })
        #expect(failure.rule == Self.keys && failure.detail.contains("weak-ca"), "\(failure)")
        // An intermediate's extendedKeyUsage must allow a TLS server under any root.
        let clientCA = try pki.issue("client-ca", extensions: ChainPKI.intermediate + ["extendedKeyUsage=clientAuth"])
        let underClientCA = try pki.issue("under-client-ca", issuer: "client-ca", extensions: ChainPKI.server)
        #expect(
            try Self.failed([underClientCA, clientCA], .user) == [
                "each intermediate's extendedKeyUsage, when present, allows a TLS server"
            ])
    }

    /// A chain that stops below its root (the intermediate not sent) is errSecCreateChainFailed,
    /// and its fix is the server's, not the device's.
    @Test func aMissingIntermediateIsTheServersToSend() throws {
        let pki = try Self.pki.get()
        try pki.issue("sending-ca", extensions: ChainPKI.intermediate)
        let leaf = try pki.issue("sent-alone", issuer: "sending-ca", extensions: ChainPKI.server)
        let facts = try Self.facts([leaf], .user)
        #expect(facts.chain == .untrusted && facts.missingIssuer)
        let verdict = AppleClientVerdicts.verdicts(for: facts, policy: SecurityPolicy(), clients: [.alamofire5])[0]
        #expect(verdict.underlyingError == "NSOSStatusErrorDomain -25318 errSecCreateChainFailed", "\(verdict)")
        #expect(verdict.fixes.first?.changes == [.serverSendsChain], "\(verdict.fixes)")
    }

    /// Of several failures, the Security error is the one trustd ranks highest (key size, weak
    /// hash, validity, trust, usage, name, dates).
    @Test func theSecurityErrorIsTheHighestRankedFailure() throws {
        let pki = try Self.pki.get()
        let expiredElsewhere = try pki.issue(
            "expired-other", extensions: ["subjectAltName=DNS:other.example", "extendedKeyUsage=serverAuth"],
            start: ChainPKI.date(days: -30), end: ChainPKI.date(days: -1))
        let verdict = AppleClientVerdicts.verdicts(
            for: try Self.facts([expiredElsewhere], .user), policy: SecurityPolicy(), clients: [.alamofire5])[0]
        #expect(verdict.underlyingError == "NSOSStatusErrorDomain -67602 errSecHostNameMismatch", "\(verdict)")
    }

    /// The name is read from subjectAltName alone, and belongs to the SSL policy with a host.
    @Test func aCommonNameAloneDoesNotNameTheHost() throws {
        let cnOnly = try Self.pki.get().issue("localhost", extensions: ["extendedKeyUsage=serverAuth"])
        let facts = try Self.facts([cnOnly], .user)
        #expect(!facts.nameMatches)
        #expect(facts.checks.filter { !$0.passed }.map(\.scope) == [.serverHost])
    }

    @Test func atsRulesReadTheConnection() throws {
        let leaf = try Self.pki.get().issue("ats", extensions: ChainPKI.server)
        var tls = TLSFacts()
        tls.version = "TLSv1.2"
        tls.cipher = "DHE-RSA-AES256-GCM-SHA384"
        let facts = try Self.facts([leaf], .user, host: "localhost", tls: tls)
        #expect(facts.checks.filter { !$0.passed }.map(\.rule) == ["forward secrecy (an ECDHE cipher)"])
        tls.cipher = "ECDHE-RSA-AES256-GCM-SHA384"
        #expect(try Self.facts([leaf], .user, tls: tls).checks.allSatisfy { $0.passed })
        tls.version = "TLSv1.1"
        #expect(try Self.facts([leaf], .user, tls: tls).checks.filter { !$0.passed }.map(\.rule) == ["TLS 1.2 or later"])
    }

    /// Each rule holds under its own policy: AFNetworking's basic X.509 evaluation
    /// (`validatesDomainName = NO`) has none of the SSL server rules, and Alamofire's
    /// `DefaultTrustEvaluator(validateHost: false)` (the SSL policy without a host) no name rule.
    @Test func eachStackMeetsOnlyTheRulesOfThePolicyItEvaluatesWith() throws {
        let pki = try Self.pki.get()
        let noName = SecurityPolicy(validatesDomainName: false)
        func cells(_ pem: String, _ policy: SecurityPolicy) throws -> [String] {
            AppleClientVerdicts.verdicts(for: try Self.facts([pem], .user), policy: policy).map(AppleClientVerdictsTests.cell)
        }
        let cnOnly = try pki.issue("cn-only", extensions: ["extendedKeyUsage=serverAuth"])
        #expect(try cells(cnOnly, SecurityPolicy()) == ["-1202", "-999", "-1202", "AF"])
        #expect(try cells(cnOnly, noName) == ["-1202", "ok", "ok", "ok"])
        let sha1 = try pki.issue("sha1-leaf", extensions: ChainPKI.server, digest: "sha1")
        #expect(try cells(sha1, noName) == ["-1202", "ok", "ok", "AF"])
        let verdict = AppleClientVerdicts.verdicts(
            for: try Self.facts([sha1], .user), policy: noName, clients: [.alamofire5])[0]
        #expect(verdict.underlyingError == "NSOSStatusErrorDomain -67815 errSecInvalidDigestAlgorithm")
    }

    /// A self-signed leaf the user installs is spared the key-size rule: installing it alone is
    /// the smallest fix, not reissuing it and installing.
    @Test func installingASelfSignedLeafAloneIsTheSmallestFix() throws {
        let scratch = try Scratch(prefix: "self-signed-1024")
        try Shell.run([
            "openssl", "req", "-x509", "-nodes", "-newkey", "rsa:1024", "-keyout", scratch.path + "/k.pem", "-out",
            scratch.path + "/c.pem", "-days", "30", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
        ])
        let pem = try String(contentsOfFile: scratch.path + "/c.pem", encoding: .utf8)
        let chain = [PeerCertificate(fields: [HeaderField(name: "Cert", value: pem)])]
        let facts = try #require(
            DeviceTrust.facts(
                chain: chain, host: "localhost", pins: [], device: AppleDevice(publicRootsDirectory: scratch.path + "/none"),
                tls: nil, now: Int(Date().timeIntervalSince1970)))
        let verdict = AppleClientVerdicts.verdicts(for: facts, policy: SecurityPolicy(), clients: [.urlSession])[0]
        #expect(verdict.fixes.first?.changes == [.deviceTrustsRoot], "\(verdict.fixes)")
    }

    /// trustd's key-size table names RSA and EC only: an Ed25519 leaf fails the SSL policy.
    @Test func anEd25519LeafFailsTheSSLPolicysKeySizeRule() throws {
        let leaf = try Self.pki.get().issue("ed25519", extensions: ChainPKI.server, key: ["-newkey", "ed25519"])
        #expect(try Self.failed([leaf], .user) == [Self.keys])
    }
}

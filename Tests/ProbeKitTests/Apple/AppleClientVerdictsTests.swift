import Curl
import Foundation
import ProbeKit
import Testing

/// The verdict table: each row is facts about the chain shown × the probe's switches, with what
/// each stack gives. The sources: AFSecurityPolicy.m `evaluateServerTrust:forDomain:` and
/// AFURLSessionManager.m's challenge handlers (AFNetworking 3.1–3.2: cancel → -999; 4.0: stored
/// `serverTrustErrorForServerTrust:url:` → -1202), Alamofire 5 ServerTrustEvaluation.swift
/// (`DefaultTrustEvaluator`, `PublicKeysTrustEvaluator`, `DisabledTrustEvaluator`) and
/// SessionDelegate.swift (a thrown evaluation cancels the challenge), and URLSession's default
/// handling (-1201 expired, -1204 not yet valid, -1202 otherwise).
@Suite struct AppleClientVerdictsTests {
    /// One column as the tables write it: `ok`, the URL error code, or `AF` for Alamofire's
    /// `serverTrustEvaluationFailed`.
    static func cell(_ verdict: AppleClientVerdict) -> String {
        if verdict.succeeded { return "ok" }
        if verdict.errorCase?.hasPrefix("serverTrustEvaluationFailed") == true { return "AF" }
        return verdict.errorCode.map(String.init) ?? "?"
    }

    struct Row: CustomStringConvertible, Sendable {
        var chain: TrustFacts.Chain
        var nameMatches: Bool
        var pinMatches: Bool?
        var allowInvalid = false
        var validateName = true
        var atsCovers = false
        /// URLSession, AFNetworking 3, AFNetworking 4, Alamofire 5.
        var cells: String
        var description: String {
            "\(chain) name \(nameMatches) pin \(pinMatches.map(String.init) ?? "-") allowInvalid \(allowInvalid) "
                + "validateName \(validateName) ats \(atsCovers)"
        }
    }

    static let rows: [Row] = [
        // A trusted chain naming the host passes everywhere.
        Row(chain: .trusted, nameMatches: true, cells: "ok ok ok ok"),
        // The story: an interceptor's untrusted CA, right name, --allow-invalid-certificates alone.
        Row(chain: .untrusted, nameMatches: true, allowInvalid: true, cells: "-1202 -999 -1202 ok"),
        // ... and with --no-validate-domain-name too: AFNetworking gets through where ATS does not cover the host,
        Row(chain: .untrusted, nameMatches: true, allowInvalid: true, validateName: false, cells: "-1202 ok ok ok"),
        // ... and where ATS covers it, the default evaluation it keeps refuses the loosened trust.
        Row(
            chain: .untrusted, nameMatches: true, allowInvalid: true, validateName: false, atsCovers: true,
            cells: "-1202 -1200 -1200 -1200"),
        Row(chain: .untrusted, nameMatches: true, cells: "-1202 -999 -1202 AF"),
        Row(chain: .expired, nameMatches: true, cells: "-1201 -999 -1202 AF"),
        Row(chain: .notYetValid, nameMatches: true, cells: "-1204 -999 -1202 AF"),
        // Another name: only name validation off gets through, and plain URLSession never does.
        Row(chain: .trusted, nameMatches: false, cells: "-1202 -999 -1202 AF"),
        Row(chain: .trusted, nameMatches: false, validateName: false, cells: "-1202 ok ok ok"),
        Row(chain: .trusted, nameMatches: false, validateName: false, atsCovers: true, cells: "-1202 -1200 -1200 -1200"),
        // Pins: a match on a trusted chain passes; a mismatch fails the pinning stacks.
        Row(chain: .trusted, nameMatches: true, pinMatches: true, cells: "ok ok ok ok"),
        Row(chain: .trusted, nameMatches: true, pinMatches: false, cells: "ok -999 -1202 AF"),
        // A pinned key on an untrusted chain with --allow-invalid-certificates: AFNetworking pins only;
        // Alamofire's validateHost still evaluates the chain.
        Row(chain: .untrusted, nameMatches: true, pinMatches: true, allowInvalid: true, cells: "-1202 ok ok AF"),
    ]

    static func policy(_ row: Row) throws -> SecurityPolicy {
        SecurityPolicy(
            validatesDomainName: row.validateName, allowsInvalidCertificates: row.allowInvalid,
            pinnedPublicKeys: row.pinMatches == nil
                ? [] : [try PublicKeyPin(parsing: "sha256//" + String(repeating: "B", count: 43) + "=")])
    }

    @Test(arguments: rows)
    func eachStackDecidesAsItsSourceDoes(row: Row) throws {
        let facts = TrustFacts(
            chain: row.chain, nameMatches: row.nameMatches, pinMatches: row.pinMatches, atsCovers: row.atsCovers)
        let verdicts = AppleClientVerdicts.verdicts(for: facts, policy: try Self.policy(row))
        #expect(verdicts.map(\.client) == AppleClient.allCases)
        #expect(verdicts.map(Self.cell).joined(separator: " ") == row.cells, "\(row)")
    }

    @Test func theStorysFixNamesValidatesDomainNameAndWhatItGivesUp() {
        let facts = TrustFacts(chain: .untrusted, nameMatches: true, atsCovers: false)
        let verdict = AppleClientVerdicts.verdicts(
            for: facts, policy: SecurityPolicy(allowsInvalidCertificates: true), clients: [.afNetworking3])[0]
        #expect(verdict.errorCode == -999)
        #expect(verdict.rule.contains("without pinning"))
        #expect(verdict.fixes.first?.text == "validatesDomainName = NO")
        #expect(verdict.warnings.contains { $0.contains("neither the chain nor the name") })
        #expect(verdict.versions.first?.contains("3.0.0–3.0.4") == true)
        // Where ATS covers the host, the same switch needs the app's exception beside it.
        let covered = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .untrusted, nameMatches: true), policy: SecurityPolicy(allowsInvalidCertificates: true),
            clients: [.afNetworking3])[0]
        #expect(covered.fixes.contains { $0.changes == [.validatesDomainName(false), .atsException] })
        // Among fixes as small, the one that loosens nothing comes first.
        #expect(covered.fixes.first?.changes == [.allowsInvalidCertificates(false), .deviceTrustsRoot])
    }

    /// On a valid chain, `allowInvalidCertificates = YES` alone is what refuses: turning it off
    /// is the smallest fix, before `validatesDomainName = NO`, which gives up more.
    @Test func aValidChainRefusedForAllowInvalidCertificatesIsFixedByTurningItOff() {
        let verdict = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .trusted, nameMatches: true), policy: SecurityPolicy(allowsInvalidCertificates: true),
            clients: [.afNetworking4])[0]
        #expect(!verdict.succeeded)
        #expect(verdict.fixes.first?.text == "allowInvalidCertificates = NO")
    }

    /// An untrusted CA and a wrong name: installing the CA alone leaves the name, so the fix has both.
    @Test func aFixCoversEveryReasonTheCallFailsFor() {
        let verdict = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .untrusted, nameMatches: false), policy: SecurityPolicy(), clients: [.urlSession])[0]
        #expect(verdict.fixes.map(\.changes) == [[.deviceTrustsRoot, .certificateNamesHost]])
    }

    @Test func alamofireReportsItsOwnErrorWithTheSecurityErrorUnderIt() {
        let verdict = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .expired, nameMatches: true), policy: SecurityPolicy(), clients: [.alamofire5])[0]
        #expect(verdict.errorDomain == "Alamofire.AFError")
        #expect(verdict.errorCase == "serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))")
        #expect(verdict.underlyingError == "NSOSStatusErrorDomain -67818 errSecCertificateExpired")
        #expect(verdict.errorCode == nil)
    }

    /// A root only this machine trusts: the device fails, and the verdict says installing it passes.
    @Test func aRootOnlyThisMachineTrustsMakesTheVerdictConditional() {
        let facts = TrustFacts(chain: .untrusted, nameMatches: true, rootOnlyThisMachineTrusts: "CN = mitmproxy, O = mitmproxy")
        for verdict in AppleClientVerdicts.verdicts(for: facts, policy: SecurityPolicy()) {
            #expect(!verdict.succeeded)
            #expect(verdict.condition?.contains("once the device trusts CN = mitmproxy") == true, "\(verdict)")
            #expect(verdict.fixes.first?.text.hasPrefix("install CN = mitmproxy, O = mitmproxy on the device") == true)
        }
    }

    @Test func cleartextHTTPIsRefusedByATSWhereItCoversTheHost() {
        let refused = AppleClientVerdicts.cleartextVerdicts(
            host: "api.example.com", device: AppleDevice(), clients: AppleClient.allCases)
        #expect(refused.map(\.errorCode) == [-1022, -1022, -1022, -1022])
        #expect(refused.allSatisfy { $0.fixes.map(\.changes) == [[.atsException]] })
        // ATS covers no unqualified or .local name: the probe gives such a call no verdict at all.
        #expect(!AppTransportSecurity.covers(host: "localhost") && !AppTransportSecurity.covers(host: "nas.local"))
        #expect(AppTransportSecurity.covers(host: "127.0.0.1"))
        let excepted = AppleClientVerdicts.cleartextVerdicts(
            host: "api.example.com", device: AppleDevice(atsException: true), clients: [.urlSession])
        #expect(excepted.allSatisfy { $0.succeeded })
    }

    /// A pin is compared with the chain the device builds, root included: a pinned root key
    /// the server does not send matches.
    @Test func aPinnedRootKeyMatchesThoughTheServerDoesNotSendIt() throws {
        let pki = try TestPKI.shared.get()
        let leaf = PeerCertificate(
            fields: [HeaderField(name: "Cert", value: try String(contentsOfFile: pki.certificatePath("good"), encoding: .utf8))])
        let now = Int(Date().timeIntervalSince1970)
        let device = AppleDevice(installedRootFiles: [pki.caPath], publicRootsDirectory: pki.directory + "/none")
        for (pin, matches) in [(try pki.pin("good"), true), (try pki.pin("ca"), true), (try pki.pin("other"), false)] {
            let facts = try #require(
                DeviceTrust.facts(
                    chain: [leaf], host: "localhost", pins: [try PublicKeyPin(parsing: pin)], device: device, tls: nil, now: now))
            #expect(facts.chain == .trusted && facts.nameMatches && facts.anchor == .user)
            #expect(facts.pinMatches == matches, "\(pin)")
        }
    }

    /// Behind an untrusted chain the dates still count: trusting the root leaves the expiry.
    @Test func anExpiryBehindAnUntrustedChainIsPartOfTheFix() {
        let facts = TrustFacts(chain: .untrusted, nameMatches: true, dates: .expired)
        let verdict = AppleClientVerdicts.verdicts(for: facts, policy: SecurityPolicy(), clients: [.urlSession])[0]
        #expect(verdict.errorCode == -1202)
        #expect(verdict.fixes.map(\.changes) == [[.deviceTrustsRoot, .renewCertificate]], "\(verdict.fixes)")
    }

    /// trustd's TemporalValidity check reports a period not yet begun as errSecCertificateExpired.
    @Test func aPeriodNotYetBegunIsReportedAsTrustdReportsIt() {
        let verdict = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .notYetValid, nameMatches: true), policy: SecurityPolicy(), clients: [.alamofire5])[0]
        #expect(verdict.underlyingError == "NSOSStatusErrorDomain -67818 errSecCertificateExpired")
    }
}

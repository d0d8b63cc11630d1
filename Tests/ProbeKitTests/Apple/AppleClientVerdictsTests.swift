import Curl
import Foundation
import ProbeKit
import Testing

/// The verdict table: each row is facts about the chain shown × the probe's switches, with what
/// each stack gives. The sources: AFSecurityPolicy.m `evaluateServerTrust:forDomain:` and
/// AFURLSessionManager.m's challenge handlers (AFNetworking 3.2: cancel → -999; 4.0: stored
/// `serverTrustErrorForServerTrust:url:` → -1202), Alamofire 5 ServerTrustEvaluation.swift
/// (`DefaultTrustEvaluator`, `PublicKeysTrustEvaluator`, `DisabledTrustEvaluator`) and
/// SessionDelegate.swift (a thrown evaluation cancels the challenge), and URLSession's default
/// handling (-1201 expired, -1204 not yet valid, -1202 otherwise). `nil` is success.
@Suite struct AppleClientVerdictsTests {
    struct Row: CustomStringConvertible, Sendable {
        var chain: TrustFacts.Chain
        var nameMatches: Bool
        var pinMatches: Bool?
        var allowInvalid = false
        var validateName = true
        /// URLSession, AFNetworking 3, AFNetworking 4, Alamofire 5: the error code, `nil` for success.
        var codes: [Int?]
        var description: String {
            "\(chain) name \(nameMatches) pin \(pinMatches.map(String.init) ?? "-") allowInvalid \(allowInvalid) validateName \(validateName)"
        }
    }

    static let rows: [Row] = [
        // A trusted chain naming the host passes everywhere.
        Row(chain: .trusted, nameMatches: true, codes: [nil, nil, nil, nil]),
        // The story: an interceptor's untrusted CA, right name, --allow-invalid-certificates alone.
        Row(chain: .untrusted, nameMatches: true, allowInvalid: true, codes: [-1202, -999, -1202, nil]),
        // ... and with --no-validate-domain-name too: AFNetworking gets through.
        Row(chain: .untrusted, nameMatches: true, allowInvalid: true, validateName: false, codes: [-1202, nil, nil, nil]),
        Row(chain: .untrusted, nameMatches: true, codes: [-1202, -999, -1202, -999]),
        Row(chain: .expired, nameMatches: true, codes: [-1201, -999, -1202, -999]),
        Row(chain: .notYetValid, nameMatches: true, codes: [-1204, -999, -1202, -999]),
        // Another name: only name validation off gets through, and plain URLSession never does.
        Row(chain: .trusted, nameMatches: false, codes: [-1202, -999, -1202, -999]),
        Row(chain: .trusted, nameMatches: false, validateName: false, codes: [-1202, nil, nil, nil]),
        // Pins: a match on a trusted chain passes; a mismatch fails the pinning stacks.
        Row(chain: .trusted, nameMatches: true, pinMatches: true, codes: [nil, nil, nil, nil]),
        Row(chain: .trusted, nameMatches: true, pinMatches: false, codes: [nil, -999, -1202, -999]),
        // A pinned key on an untrusted chain with --allow-invalid-certificates: AFNetworking pins only;
        // Alamofire's validateHost still evaluates the chain.
        Row(chain: .untrusted, nameMatches: true, pinMatches: true, allowInvalid: true, codes: [-1202, nil, nil, -999]),
    ]

    @Test(arguments: rows)
    func eachStackDecidesAsItsSourceDoes(row: Row) {
        let facts = TrustFacts(chain: row.chain, nameMatches: row.nameMatches, pinMatches: row.pinMatches)
        let pins = row.pinMatches == nil ? [] : [try! PublicKeyPin(parsing: "sha256//" + String(repeating: "A", count: 43) + "=")]
        let policy = SecurityPolicy(
            validatesDomainName: row.validateName, allowsInvalidCertificates: row.allowInvalid, pinnedPublicKeys: pins)
        let verdicts = AppleClientVerdicts.verdicts(for: facts, policy: policy)
        #expect(verdicts.map(\.client) == AppleClient.allCases)
        #expect(verdicts.map(\.errorCode) == row.codes, "\(row)")
        #expect(verdicts.map(\.succeeded) == row.codes.map { $0 == nil }, "\(row)")
        for verdict in verdicts where !verdict.succeeded { #expect(!verdict.fixes.isEmpty, "\(verdict.client) \(row)") }
    }

    @Test func theStorysFixNamesValidatesDomainNameAndWhatItGivesUp() {
        let facts = TrustFacts(chain: .untrusted, nameMatches: true)
        let verdict = AppleClientVerdicts.verdicts(
            for: facts, policy: SecurityPolicy(allowsInvalidCertificates: true), clients: [.afNetworking3])[0]
        #expect(verdict.errorCode == -999)
        #expect(verdict.rule.contains("without pinning"))
        #expect(verdict.fixes.first == "validatesDomainName = NO")
        #expect(verdict.warnings.contains { $0.contains("neither the chain nor the name") })
        let both = AppleClientVerdicts.verdicts(
            for: facts, policy: SecurityPolicy(validatesDomainName: false, allowsInvalidCertificates: true),
            clients: [.afNetworking3])[0]
        #expect(both.succeeded)
        #expect(both.warnings == ["neither the chain nor the name is verified"])
    }

    @Test func alamofireWrapsTheCancelledChallengeInItsOwnError() {
        let verdict = AppleClientVerdicts.verdicts(
            for: TrustFacts(chain: .expired, nameMatches: true), policy: SecurityPolicy(), clients: [.alamofire5])[0]
        #expect(verdict.errorDomain == "Alamofire.AFError")
        #expect(verdict.errorCase == "serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))")
        #expect(verdict.errorCode == -999)
    }

    /// A pin names any key of the chain the server sent: the CA's pins as well as the leaf's.
    @Test func aPinnedKeyAnywhereInTheChainMatches() throws {
        let pki = try TestPKI.shared.get()
        let chain = try ["good", "ca"].map { name in
            let path = name == "ca" ? pki.caPath : pki.certificatePath(name)
            return PeerCertificate(fields: [HeaderField(name: "Cert", value: try String(contentsOfFile: path, encoding: .utf8))])
        }
        let now = Int(Date().timeIntervalSince1970)
        for (pin, matches) in [(try pki.pin("good"), true), (try pki.pin("ca"), true), (try pki.pin("other"), false)] {
            let policy = SecurityPolicy(caFile: pki.caPath, pinnedPublicKeys: [try PublicKeyPin(parsing: pin)])
            let facts = try #require(TrustFacts(chain: chain, host: "localhost", policy: policy, now: now))
            #expect(facts.chain == .trusted && facts.nameMatches)
            #expect(facts.pinMatches == matches, "\(pin)")
        }
    }
}

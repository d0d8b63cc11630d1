import ProbeKit
import Testing

/// Every fix offered makes the call pass: across every situation × switch combination × stack,
/// each failed verdict offers at least one fix, and the verdict decided again under each fix's
/// changes succeeds.
@Suite struct VerdictFixTests {
    static func check(_ rule: String, _ scope: AppleTrustCheck.Scope, passed: Bool) -> AppleTrustCheck {
        AppleTrustCheck(
            rule: rule, passed: passed, detail: "seen", source: "test", scope: scope, securityError: passed ? nil : "-1 test")
    }

    /// The situations: the chain, the name, a failed rule of each policy, ATS covering the host
    /// or not, a root only this machine trusts, an interceptor.
    static var situations: [TrustFacts] {
        var all: [TrustFacts] = []
        let failures: [AppleTrustCheck.Scope?] = [nil, .basic, .server, .ats]
        for chain in [TrustFacts.Chain.trusted, .untrusted, .expired, .notYetValid] {
            for nameMatches in [true, false] {
                for pinMatches in [nil, true, false] as [Bool?] {
                    for failing in failures {
                        for atsCovers in [true, false] {
                            for machineRoot in [nil, "CN = Corp Root"] as [String?]
                            where chain == .untrusted || machineRoot == nil {
                                var checks = AppleTrustCheck.Scope.allCases.map {
                                    check("rule \($0.rawValue)", $0, passed: $0 != failing)
                                }
                                checks.append(check("name", .serverHost, passed: nameMatches))
                                all.append(
                                    TrustFacts(
                                        chain: chain, nameMatches: nameMatches, pinMatches: pinMatches, checks: checks,
                                        checksIfRootInstalled: chain == .untrusted ? checks : nil,
                                        rootOnlyThisMachineTrusts: machineRoot, interceptor: machineRoot == nil ? nil : "Corp",
                                        atsCovers: atsCovers))
                            }
                        }
                    }
                }
            }
        }
        return all
    }

    static func policies(pinning: Bool) throws -> [SecurityPolicy] {
        let pins = pinning ? [try PublicKeyPin(parsing: "sha256//" + String(repeating: "C", count: 43) + "=")] : []
        return [(true, false), (false, false), (true, true), (false, true)].map {
            SecurityPolicy(validatesDomainName: $0.0, allowsInvalidCertificates: $0.1, pinnedPublicKeys: pins)
        }
    }

    @Test func everyFailedVerdictHasAFixAndEveryFixPasses() throws {
        var failedVerdicts = 0
        for facts in Self.situations {
            for policy in try Self.policies(pinning: facts.pinMatches != nil) {
                for verdict in AppleClientVerdicts.verdicts(for: facts, policy: policy) where !verdict.succeeded {
                    failedVerdicts += 1
                    #expect(!verdict.fixes.isEmpty, "no fix: \(verdict.client) \(facts) \(policy)")
                    for fix in verdict.fixes {
                        let again = AppleClientVerdicts.verdicts(
                            for: fix.applying(to: facts), policy: fix.applying(to: policy),
                            device: fix.applying(to: AppleDevice()), clients: [verdict.client])[0]
                        #expect(again.succeeded, "\(fix.text) does not fix \(verdict.client): \(again.rule)")
                    }
                }
            }
        }
        #expect(failedVerdicts > 1000)
    }
}

import Foundation
import Testing

/// Every Apple client verdict against the real servers: each certificate case × the policy
/// switches × the four stacks, in one table a reader can check against the sources cited in
/// docs/apple-clients.md. `--cacert CA_CERT` (the test CA, installed and fully trusted on the
/// device) is given in every row.
///
/// How each column decides, by source:
/// - URLSession: default handling, `SecTrustEvaluateWithError` with the SSL policy for the
///   host; the probe's switches have no equivalent, so they change nothing;
/// - AFNetworking 3 and 4: `-[AFSecurityPolicy evaluateServerTrust:forDomain:]`. With
///   `allowInvalidCertificates = YES`, `validatesDomainName = YES` and no pinning it returns NO
///   at once; with both YES/NO it returns YES without evaluating; else it evaluates (SSL policy
///   for the host, or basic X.509 with `validatesDomainName = NO`) and then checks pins. A NO
///   cancels the challenge: -999 in 3.x; 4.x completes with its stored -1202;
/// - Alamofire 5, with a `ServerTrustManager`: `DefaultTrustEvaluator(validateHost:)`,
///   `DisabledTrustEvaluator` for `--allow-invalid-certificates`, `PublicKeysTrustEvaluator`
///   for pins. A thrown error cancels the challenge: `AFError.serverTrustEvaluationFailed`
///   over -999 (`AF` in the table).
///
/// Apple's certificate rules belong to the policy an evaluation runs under (trustd's
/// SecPolicy.c): the SSL server policy holds a leaf to serverAuth (when it has extendedKeyUsage
/// at all, under an installed root), 2048-bit RSA, SHA-2 and 825 days; the basic X.509 policy
/// AFNetworking uses with `validatesDomainName = NO` holds it to none of them, and Alamofire's
/// `validateHost: false` (the SSL policy without a host) to all but the name.
@Suite(.enabled(if: E2EServers.isConfigured), .serialized)
struct AppleClientMatrixTests {
    /// A certificate case: the server, the proxy in between, the pin given.
    enum Case: String, CaseIterable {
        case interceptorsCA = "interceptor's own CA, right name (mitmdump)"
        case interceptorsOtherName = "interceptor's other.test certificate from the test CA (mitmdump --certs)"
        case expired, notYetValid = "not yet valid", selfSigned = "self-signed"
        case pinMatch = "pin matches", pinMismatch = "pin does not match"
        case pinThroughInterceptor = "the target's pin, through the interceptor"
        case noServerAuth = "no extendedKeyUsage", clientOnly = "extendedKeyUsage clientAuth only"
        case longValidity = "1000 days of validity", commonNameOnly = "CN only"
        case sha1 = "SHA-1 signature", rsa1024 = "RSA-1024 key"

        func arguments(_ servers: E2EServers) -> [String] {
            let url = { (key: String) in servers.url("https", "localhost", key) }
            switch self {
            case .interceptorsCA: return ["--proxy", servers.proxy("MITM_PORT"), url("TLS_VALID_PORT")]
            case .interceptorsOtherName: return ["--proxy", servers.proxy("MITM_FIXED_PORT"), url("TLS_VALID_PORT")]
            case .expired: return [url("TLS_EXPIRED_PORT")]
            case .notYetValid: return [url("TLS_NOT_YET_VALID_PORT")]
            case .selfSigned: return [url("TLS_SELF_SIGNED_PORT")]
            case .pinMatch: return ["--pinned-public-key", servers["VALID_CERT_PIN"], url("TLS_VALID_PORT")]
            case .pinMismatch: return ["--pinned-public-key", servers["OTHER_CERT_PIN"], url("TLS_VALID_PORT")]
            case .pinThroughInterceptor:
                return [
                    "--proxy", servers.proxy("MITM_PORT"), "--pinned-public-key", servers["VALID_CERT_PIN"],
                    url("TLS_VALID_PORT"),
                ]
            case .noServerAuth: return [url("TLS_NO_EKU_PORT")]
            case .clientOnly: return [url("TLS_CLIENT_ONLY_PORT")]
            case .longValidity: return [url("TLS_LONG_VALIDITY_PORT")]
            case .commonNameOnly: return [url("TLS_CN_ONLY_PORT")]
            case .sha1: return [url("TLS_SHA1_PORT")]
            case .rsa1024: return [url("TLS_RSA1024_PORT")]
            }
        }
    }

    static let none: [String] = []
    static let allowInvalid = ["--allow-invalid-certificates"]
    static let noName = ["--no-validate-domain-name"]
    static let neither = ["--allow-invalid-certificates", "--no-validate-domain-name"]

    /// `(case, switches, "URLSession AFNetworking3 AFNetworking4 Alamofire5")`: `ok` succeeds,
    /// a number is the URL error code the app gets, `AF` is Alamofire's
    /// `serverTrustEvaluationFailed`. `localhost` is outside App Transport Security (an
    /// unqualified name), so a trust a library loosens is not refused again by ATS here.
    static let table: [(Case, [String], String)] = [
        // An untrusted chain: only AFNetworking with both switches, or Alamofire's
        // DisabledTrustEvaluator, lets it through; allowInvalidCertificates alone is refused.
        (.interceptorsCA, none, "-1202 -999 -1202 AF"),
        (.interceptorsCA, allowInvalid, "-1202 -999 -1202 ok"),
        (.interceptorsCA, noName, "-1202 -999 -1202 AF"),
        (.interceptorsCA, neither, "-1202 ok ok ok"),
        (.selfSigned, none, "-1202 -999 -1202 AF"),
        (.selfSigned, allowInvalid, "-1202 -999 -1202 ok"),
        (.selfSigned, neither, "-1202 ok ok ok"),
        // Dates: URLSession names them (-1201, -1204); the libraries do not.
        (.expired, none, "-1201 -999 -1202 AF"),
        (.expired, noName, "-1201 -999 -1202 AF"),
        (.expired, neither, "-1201 ok ok ok"),
        (.notYetValid, none, "-1204 -999 -1202 AF"),
        (.notYetValid, neither, "-1204 ok ok ok"),
        // A trusted chain for another name: validatesDomainName = NO (validateHost: false) is the switch.
        (.interceptorsOtherName, none, "-1202 -999 -1202 AF"),
        (.interceptorsOtherName, allowInvalid, "-1202 -999 -1202 ok"),
        (.interceptorsOtherName, noName, "-1202 ok ok ok"),
        // Pins: URLSession has none; the libraries compare the chain's keys.
        (.pinMatch, none, "ok ok ok ok"),
        (.pinMatch, allowInvalid, "ok ok ok ok"),
        (.pinMismatch, none, "ok -999 -1202 AF"),
        (.pinMismatch, allowInvalid, "ok -999 -1202 AF"),
        (.pinThroughInterceptor, none, "-1202 -999 -1202 AF"),
        (.pinThroughInterceptor, allowInvalid, "-1202 -999 -1202 AF"),
        // Apple's rules under an installed root: a leaf without extendedKeyUsage passes (trustd
        // spares a user root the serverAuth rule); the others fail the SSL server policy, which
        // AFNetworking's basic X.509 evaluation (validatesDomainName = NO) does not apply.
        (.noServerAuth, none, "ok ok ok ok"),
        (.noServerAuth, neither, "ok ok ok ok"),
        (.clientOnly, none, "-1202 -999 -1202 AF"),
        (.clientOnly, noName, "-1202 ok ok AF"),
        (.longValidity, none, "-1202 -999 -1202 AF"),
        (.longValidity, allowInvalid, "-1202 -999 -1202 ok"),
        (.longValidity, noName, "-1202 ok ok AF"),
        // The name alone: Alamofire's validateHost: false (the SSL policy without a host) passes it.
        (.commonNameOnly, none, "-1202 -999 -1202 AF"),
        (.commonNameOnly, noName, "-1202 ok ok ok"),
        (.sha1, none, "-1202 -999 -1202 AF"),
        (.sha1, noName, "-1202 ok ok AF"),
        (.sha1, neither, "-1202 ok ok ok"),
        (.rsa1024, none, "-1202 -999 -1202 AF"),
        (.rsa1024, noName, "-1202 ok ok AF"),
    ]

    /// One column's value for a verdict, as the table writes it.
    static func cell(_ verdict: ProbeReport.AppleClientVerdict) -> String {
        if verdict.outcome == "succeeded" { return "ok" }
        if verdict.errorCase?.hasPrefix("serverTrustEvaluationFailed") == true { return "AF" }
        return verdict.errorCode.map(String.init) ?? "?"
    }

    @Test(.timeLimit(.minutes(2)), arguments: Array(table.indices))
    func eachStackDecidesAsItsSourceDoes(row: Int) async throws {
        let servers = try E2EServers.current()
        let (certificate, switches, expected) = Self.table[row]
        let run = try await StagebuildProcess.run(
            ["probe", "--format", "json", "--cacert", servers["CA_CERT"]] + switches + certificate.arguments(servers))
        let report = try run.report()
        let probe = try #require(report.probes.first, "\(run.summary)")
        let verdicts = try #require(probe.appleClients, "\(run.summary)")
        #expect(verdicts.map(\.client) == ["URLSession", "AFNetworking 3", "AFNetworking 4", "Alamofire 5"])
        let seen = verdicts.map(Self.cell).joined(separator: " ")
        #expect(seen == expected, "\(certificate.rawValue) with \(switches): \(run.summary)")
        for verdict in verdicts where verdict.outcome == "failed" {
            #expect(!verdict.fixes.isEmpty, "a failed verdict says what would pass: \(verdict)")
        }
    }

    /// Every case is in the table, and the requirement cases fail for the requirement, not by chance.
    @Test func theTableCoversEveryCase() {
        #expect(Set(Self.table.map(\.0)) == Set(Case.allCases))
    }

    /// Apple's requirement shows in `appleTrust` with its source, beside a verdict that names it.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ("TLS_CLIENT_ONLY_PORT", "extendedKeyUsage, when present, allows a TLS server"),
            ("TLS_LONG_VALIDITY_PORT", "validity at most 825 days (issued after 2019-07-01)"),
            ("TLS_CN_ONLY_PORT", "the host named in subjectAltName (a CommonName is not read)"),
            ("TLS_SHA1_PORT", "no SHA-1 signature (every certificate but a self-signed one)"),
            (
                "TLS_RSA1024_PORT",
                "RSA keys of at least 2048 bits or EC keys of at least 256, no other kind (every certificate, the root included)"
            ),
        ])
    func aFailedRequirementIsNamedWithItsSource(portKey: String, rule: String) async throws {
        let servers = try E2EServers.current()
        let run = try await StagebuildProcess.run([
            "probe", "--format", "json", "--cacert", servers["CA_CERT"], "--client", "urlsession",
            servers.url("https", "localhost", portKey),
        ])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.summary)")
        let probe = try #require((object["probes"] as? [[String: Any]])?.first)
        let checks = try #require(probe["appleTrust"] as? [[String: Any]], "\(run.summary)")
        let failed = checks.filter { $0["passed"] as? Bool == false }
        #expect(failed.map { $0["rule"] as? String } == [rule], "\(run.summary)")
        #expect((failed.first?["source"] as? String)?.hasPrefix("Apple: ") == true)
        let verdict = try #require((probe["appleClients"] as? [[String: Any]])?.first)
        // The name rule is told as the name check's failure; every other as the requirement.
        let told = rule.hasPrefix("the host named") ? "does not name the host in its subjectAltName" : rule
        #expect((verdict["rule"] as? String)?.contains(told) == true, "\(run.summary)")
    }
}

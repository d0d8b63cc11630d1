/// The platform's trust evaluation under each policy a stack uses, and the fixes that pass it.
extension AppleClientVerdicts {
    /// The policy an evaluation runs under (trustd's SecPolicy.c).
    enum Evaluation: Equatable {
        /// `SecPolicyCreateBasicX509()`: chain, dates, weak keys and signatures.
        case basicX509
        /// `SecPolicyCreateSSL(true, host)` or `SecPolicyCreateSSL(true, nil)`: Apple's server
        /// requirements, and the name when a host is given.
        case sslServer(host: Bool)

        var name: String {
            switch self {
            case .basicX509: "the basic X.509 policy"
            case .sslServer(host: true): "the SSL server policy for the host"
            case .sslServer(host: false): "the SSL server policy without a host"
            }
        }

        var scopes: Set<AppleTrustCheck.Scope> {
            switch self {
            case .basicX509: [.basic]
            case .sslServer(host: true): [.basic, .serverHost, .server]
            case .sslServer(host: false): [.basic, .server]
            }
        }
    }

    /// Why an evaluation fails, and the one change that removes this reason.
    struct Refusal {
        /// The `URLError` default handling reports.
        var urlError: Int
        var reason: String
        /// The Security framework's error, e.g. `"-67843 errSecNotTrusted"` (SecBase.h).
        var securityError: String
        var change: VerdictFix.Change
        /// trustd's rank of the failure (`SecTrustErrorSubType`, SecTrustInternal.h): of several,
        /// `SecTrustEvaluateWithError` reports the highest: key size, weak hash, compliance
        /// (validity limits), trust, usage, name, dates.
        var rank: Int
    }

    /// The rank of a requirement by the Security error it fails with.
    static func rank(_ securityError: String?) -> Int {
        switch securityError?.split(separator: " ").first {
        case "-67735": 6  // key size
        case "-67815": 5  // weak hash
        case "-67901": 4  // compliance
        case "-67609": 2  // usage
        case "-67602": 1  // name
        default: 3  // trust
        }
    }

    /// What `SecTrustEvaluateWithError` says under a policy: `nil` when trusted; of several
    /// failures, the one trustd ranks highest.
    static func platformTrust(_ facts: TrustFacts, _ evaluation: Evaluation) -> Refusal? {
        var refusals: [Refusal] = []
        switch facts.chain {
        case .expired:
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateHasBadDate.code, reason: "the certificate has expired",
                    securityError: "-67818 errSecCertificateExpired", change: .renewCertificate, rank: 0))
        case .notYetValid:
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateNotYetValid.code, reason: "the certificate is not yet valid",
                    // trustd's TemporalValidity check reports both ends of the period so.
                    securityError: "-67818 errSecCertificateExpired", change: .validityBegun, rank: 0))
        case .untrusted where facts.missingIssuer:
            // The path ends at a certificate that is not its own issuer (kSecPolicyCheckMissingIntermediate).
            let reason =
                facts.rootOnlyThisMachineTrusts.map {
                    "the chain the server sent stops below \($0), a root this machine trusts and the device does not"
                } ?? "the chain the server sent stops below its root, and the device has not got the missing issuer"
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateUntrusted.code, reason: reason,
                    securityError: "-25318 errSecCreateChainFailed",
                    change: facts.rootOnlyThisMachineTrusts == nil && facts.interceptor == nil
                        ? .serverSendsChain : .deviceTrustsRoot, rank: 3))
        case .untrusted:
            let reason =
                facts.rootOnlyThisMachineTrusts.map {
                    "the chain leads to \($0), a root this machine trusts and the device does not"
                } ?? "the chain leads to no root the device trusts"
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateUntrusted.code, reason: reason,
                    securityError: "-67843 errSecNotTrusted", change: .deviceTrustsRoot, rank: 3))
        case .trusted: break
        }
        // Behind an untrusted chain the dates still count, below trust.
        if facts.chain == .untrusted, facts.dates != .trusted {
            refusals.append(
                Refusal(
                    urlError: facts.dates == .expired
                        ? AppleClientError.serverCertificateHasBadDate.code : AppleClientError.serverCertificateNotYetValid.code,
                    reason: facts.dates == .expired ? "the certificate has expired" : "the certificate is not yet valid",
                    securityError: "-67818 errSecCertificateExpired",
                    change: facts.dates == .expired ? .renewCertificate : .validityBegun, rank: 0))
        }
        let scopes: Set<AppleTrustCheck.Scope> = evaluation == .basicX509 ? [.basic] : [.basic, .server]
        for failed in facts.checks where !failed.passed && scopes.contains(failed.scope) {
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateUntrusted.code,
                    reason: "the certificate fails Apple's requirement \(failed.rule) (\(failed.detail))",
                    securityError: failed.securityError ?? "-67843 errSecNotTrusted", change: .meetsRequirements,
                    rank: rank(failed.securityError)))
        }
        if evaluation == .sslServer(host: true), !facts.nameMatches {
            let detail = facts.checks.first { $0.scope == .serverHost && !$0.passed }.map { " (\($0.detail))" } ?? ""
            refusals.append(
                Refusal(
                    urlError: AppleClientError.serverCertificateUntrusted.code,
                    reason: "the certificate does not name the host in its subjectAltName\(detail)",
                    securityError: "-67602 errSecHostNameMismatch", change: .certificateNamesHost, rank: 1))
        }
        // The first of the highest rank, in the order above.
        return refusals.reduce(nil) { best, refusal in (best?.rank ?? -1) >= refusal.rank ? best : refusal }
    }

    /// The evaluations a stack runs with the probe's switches, in order: AFNetworking one
    /// (none when `allowInvalidCertificates = YES` leaves the decision to the pin or to nothing),
    /// Alamofire its evaluator's steps.
    static func evaluations(_ client: AppleClient, _ policy: SecurityPolicy) -> [(name: String, evaluation: Evaluation)] {
        let pinning = !policy.pinnedPublicKeys.isEmpty
        switch client {
        case .urlSession: return [("default handling", .sslServer(host: true))]
        case .afNetworking3, .afNetworking4:
            if policy.allowsInvalidCertificates { return [] }
            return [("evaluation", policy.validatesDomainName ? .sslServer(host: true) : .basicX509)]
        case .alamofire5:
            let host: (String, Evaluation) = ("host validation", .sslServer(host: true))
            let noHost: (String, Evaluation) = ("default validation", .sslServer(host: false))
            if pinning {
                return (policy.allowsInvalidCertificates ? [] : [noHost]) + (policy.validatesDomainName ? [host] : [])
            }
            if policy.allowsInvalidCertificates { return [] }
            return (policy.validatesDomainName ? [host] : []) + [noHost]
        }
    }

    /// The fixes for a failed verdict: each setting the stack has that could help, with what
    /// the server or device must change beside it, kept only when the call then passes.
    static func fixes(_ client: AppleClient, _ facts: TrustFacts, _ policy: SecurityPolicy, _ device: AppleDevice) -> [VerdictFix]
    {
        var bases: [[VerdictFix.Change]] = [[]]
        // Installing what the chain leads to (a root, or a self-signed leaf, which trustd then
        // spares the key size and validity rules) is tried on its own too; for a chain that stops
        // below its root the server sending its intermediates is the other way.
        if facts.chain == .untrusted { bases.append([.deviceTrustsRoot]) }
        // An ATS rule the server fails: the app's exception is a fix beside a better server.
        if facts.failedATSRule != nil, !device.atsException { bases.append([.atsException]) }
        if client != .urlSession {
            if policy.allowsInvalidCertificates { bases.append([.allowsInvalidCertificates(false)]) }
            if policy.validatesDomainName { bases.append([.validatesDomainName(false)]) }
            // Through an interceptor the keys seen are its own: the pin is fixed by going around it.
            if facts.interceptor != nil, facts.pinMatches == false {
                bases.append([.bypassInterceptor])
            } else if facts.interceptor == nil, policy.pinnedPublicKeys.isEmpty || facts.pinMatches == false {
                bases.append([.pinChainKey])
            }
        }
        var found: [[VerdictFix.Change]] = []
        for base in bases {
            var changes = base
            // Each round removes the reason the call still fails for, until it passes or none is left.
            for _ in 0..<8 where !passes(client, changes, facts, policy, device) {
                guard let next = nextChange(client, changes, facts, policy, device), !changes.contains(next) else { break }
                changes.append(next)
            }
            if !changes.isEmpty, passes(client, changes, facts, policy, device), !found.contains(changes) {
                found.append(changes)
            }
        }
        // A fix that holds another whole adds only what it need not give up; smallest first,
        // among equals the order above.
        let minimal = found.filter { fix in !found.contains { $0 != fix && Set($0).isSubset(of: Set(fix)) } }
        let ordered = minimal.enumerated().sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }.map(
            \.element)
        return ordered.map { changes in
            // The ATS keys a fix needs are those left once its other changes are made.
            let others = VerdictFix(changes: changes.filter { $0 != .atsException }, text: "")
            let after = others.applied(to: facts, policy: policy, device: device)
            let text = changes.map { change in
                change == .atsException ? describe(change, client, after.0, after.1) : describe(change, client, facts, policy)
            }
            return VerdictFix(changes: changes, text: text.joined(separator: ", and "))
        }
    }

    /// The change that removes the reason the call still fails after `changes`.
    static func nextChange(
        _ client: AppleClient, _ changes: [VerdictFix.Change], _ facts: TrustFacts, _ policy: SecurityPolicy,
        _ device: AppleDevice
    ) -> VerdictFix.Change? {
        let (facts, policy, device) = VerdictFix(changes: changes, text: "").applied(to: facts, policy: policy, device: device)
        if facts.failedATSRule != nil, !device.atsException { return .modernTLS }
        for step in evaluations(client, policy) {
            if let refusal = platformTrust(facts, step.evaluation) { return refusal.change }
        }
        // A trust the stack loosened: App Transport Security keeps the default evaluation.
        if facts.atsCovers, !device.atsException, platformTrust(facts, .sslServer(host: true)) != nil { return .atsException }
        return nil
    }

    /// A change in the stack's own terms.
    static func describe(
        _ change: VerdictFix.Change, _ client: AppleClient, _ facts: TrustFacts, _ policy: SecurityPolicy
    ) -> String {
        let library = client == .afNetworking3 || client == .afNetworking4
        let interceptor = facts.interceptor
        switch change {
        case .deviceTrustsRoot:
            let root =
                facts.rootOnlyThisMachineTrusts ?? interceptor.map { "\($0)'s CA (the intercepting proxy's)" } ?? "the issuing CA"
            return "install \(root) on the device and turn on full trust for it (Settings > General > About > "
                + "Certificate Trust Settings)"
        case .renewCertificate:
            return interceptor.map { "renew \($0)'s CA (the intercepting proxy's)" } ?? "renew the server's certificate"
        case .validityBegun:
            return "check the device's clock, or wait until the certificate's validity begins"
        case .certificateNamesHost:
            return interceptor.map {
                "\($0) makes the certificates it shows in the server's place: it must name the host in their subjectAltName"
            } ?? "a certificate whose subjectAltName names the host"
        case .meetsRequirements:
            let rules = facts.checks.filter { !$0.passed && ($0.scope == .basic || $0.scope == .server) }.map(\.rule)
            let list = rules.isEmpty ? "" : ": " + rules.joined(separator: "; ")
            return interceptor.map { "\($0) must issue the certificates it shows to meet Apple's requirements\(list)" }
                ?? "reissue the certificate to meet Apple's requirements\(list)"
        case .modernTLS:
            return "a server with TLS 1.2 or later and ECDHE ciphers"
        case .atsException:
            let failed = facts.atsCovers ? facts.checks.filter { $0.scope == .ats && !$0.passed }.map(\.rule) : []
            var keys: [String] = []
            if failed.contains(where: { $0.hasPrefix("TLS") }) {
                keys.append("NSExceptionMinimumTLSVersion = the server's TLS version")
            }
            if failed.contains(where: { $0.hasPrefix("forward secrecy") }) {
                keys.append("NSExceptionRequiresForwardSecrecy = NO")
            }
            if platformTrust(facts, .sslServer(host: true)) != nil || keys.isEmpty {
                keys.append("NSExceptionAllowsInsecureHTTPLoads = YES")
            }
            return "an App Transport Security exception for the host in Info.plist (NSAppTransportSecurity > "
                + "NSExceptionDomains > the host > \(keys.joined(separator: ", "))); it applies to the whole domain"
        case .validatesDomainName(let value):
            if library { return "validatesDomainName = \(value ? "YES" : "NO")" }
            return policy.pinnedPublicKeys.isEmpty
                ? "DefaultTrustEvaluator(validateHost: \(value))" : "PublicKeysTrustEvaluator(validateHost: \(value))"
        case .allowsInvalidCertificates(let value):
            if library { return "allowInvalidCertificates = \(value ? "YES" : "NO")" }
            if value { return "DisabledTrustEvaluator()" }
            return policy.pinnedPublicKeys.isEmpty
                ? "DefaultTrustEvaluator(validateHost: \(policy.validatesDomainName))"
                : "PublicKeysTrustEvaluator(performDefaultValidation: true)"
        case .pinChainKey:
            let key = "one of the chain's current public keys"
            return library ? "pin \(key) (AFSSLPinningModePublicKey)" : "PublicKeysTrustEvaluator with \(key)"
        case .serverSendsChain:
            return "the server sends its intermediate certificates, the whole chain up to a root the device trusts"
        case .bypassInterceptor:
            return "test the pin without \(interceptor ?? "the intercepting proxy") in the path (a proxy exception for the "
                + "host): the key seen is the interceptor's, and pinning it would defeat the pin"
        }
    }
}

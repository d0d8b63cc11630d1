/// Each Apple client stack's decision on a server's certificate, as its source code makes it,
/// with the probe's switches read as that stack's settings (docs/apple-clients.md):
///
/// - `--no-validate-domain-name`: AFNetworking's `validatesDomainName = NO`, Alamofire's
///   `validateHost: false`;
/// - `--allow-invalid-certificates`: AFNetworking's `allowInvalidCertificates = YES`,
///   Alamofire's `DisabledTrustEvaluator` (the nearest: it skips the host check too);
/// - `--pinned-public-key`: `AFSSLPinningModePublicKey`, Alamofire's `PublicKeysTrustEvaluator`.
///
/// Plain `URLSession` has none of these switches: its default handling checks chain and name.
public enum AppleClientVerdicts {
    /// The verdicts of the stacks asked for.
    ///
    /// - Parameters:
    ///   - facts: What the chain shown comes to.
    ///   - policy: The probe's switches.
    ///   - clients: The stacks, in report order.
    /// - Returns: One verdict per stack.
    public static func verdicts(
        for facts: TrustFacts, policy: SecurityPolicy, clients: [AppleClient] = AppleClient.allCases
    ) -> [AppleClientVerdict] {
        clients.map { client in
            if let rule = facts.failedATSRule { return atsFailure(client, rule: rule) }
            switch client {
            case .urlSession: return urlSession(facts, policy: policy)
            case .afNetworking3, .afNetworking4: return afNetworking(client, facts, policy: policy)
            case .alamofire5: return alamofire(facts, policy: policy)
            }
        }
    }

    /// What `SecTrustEvaluateWithError` says with the SSL policy for the host (`validatesHost`)
    /// or the basic X.509 policy: `nil` when trusted, else the `URLError` code and the reason.
    static func platformTrust(_ facts: TrustFacts, validatesHost: Bool) -> (code: Int, reason: String)? {
        switch facts.chain {
        case .expired: return (AppleClientError.serverCertificateHasBadDate.code, "the certificate has expired")
        case .notYetValid: return (AppleClientError.serverCertificateNotYetValid.code, "the certificate is not yet valid")
        case .untrusted: return (AppleClientError.serverCertificateUntrusted.code, "the chain leads to no trusted root")
        case .trusted:
            if validatesHost && !facts.nameMatches {
                return (AppleClientError.serverCertificateUntrusted.code, "the certificate does not name the host")
            }
            if let requirement = facts.failedRequirement {
                return (
                    AppleClientError.serverCertificateUntrusted.code,
                    "the certificate fails Apple's trust requirement \(requirement) (the code is what the platform returns)"
                )
            }
            return nil
        }
    }

    /// App Transport Security refuses the connection before any trust evaluation: every stack
    /// fails alike (-1200, as observed).
    static func atsFailure(_ client: AppleClient, rule: String) -> AppleClientVerdict {
        AppleClientVerdict(
            client: client, succeeded: false, errorDomain: AppleClientError.urlErrorDomain,
            errorCode: AppleClientError.secureConnectionFailed.code,
            rule: "App Transport Security: \(rule) (the code is what the platform returns)",
            fixes: [
                "a server with TLS 1.2 or later and ECDHE ciphers",
                "an NSAppTransportSecurity exception for the domain (NSExceptionDomains with NSExceptionMinimumTLSVersion "
                    + "or NSExceptionRequiresForwardSecrecy = NO)",
            ],
            warnings: ["an ATS exception lets the app use a connection Apple considers weak"])
    }

    /// The fixes for a failed platform evaluation, in any stack: what changes the facts.
    static func trustFixes(_ facts: TrustFacts) -> [String] {
        switch facts.chain {
        case .untrusted:
            let ca = facts.interceptor.map { "\($0)'s CA (the intercepting proxy's)" } ?? "the issuing CA"
            return [
                "install \(ca) on the device and turn on full trust for it (Settings > General > About > "
                    + "Certificate Trust Settings)"
            ]
        case .expired:
            // An interceptor makes the certificates it shows: the server's own is not the one to renew.
            if let interceptor = facts.interceptor { return ["renew \(interceptor)'s CA (the intercepting proxy's)"] }
            return ["renew the server's certificate"]
        case .notYetValid: return ["check the device's clock, or wait until the certificate's validity begins"]
        case .trusted:
            if let interceptor = facts.interceptor {
                let made = "\(interceptor) makes the certificates it shows in the server's place"
                if !facts.nameMatches { return ["\(made): it must name the host in their subjectAltName"] }
                return facts.failedRequirement.map { ["\(made): it must issue them to meet Apple's requirement: \($0)"] } ?? []
            }
            if !facts.nameMatches { return ["a certificate whose subjectAltName names the host"] }
            return facts.failedRequirement.map { ["reissue the certificate to meet Apple's requirement: \($0)"] } ?? []
        }
    }

    /// The fix for a pin that matches no key of the chain. Through an interceptor the chain is
    /// the interceptor's: pinning its key would defeat the pin, and the target's key cannot be
    /// seen through it.
    static func pinFixes(_ facts: TrustFacts) -> [String] {
        guard let interceptor = facts.interceptor else { return ["pin one of the chain's current public keys"] }
        return [
            "test the pin without \(interceptor) in the path: the key seen is the interceptor's, and pinning it would "
                + "defeat the pin"
        ]
    }

    // MARK: - URLSession

    /// Default handling: the system evaluates chain and name; a failure is the task's error.
    static func urlSession(_ facts: TrustFacts, policy: SecurityPolicy) -> AppleClientVerdict {
        var warnings: [String] = []
        let given = [
            policy.allowsInvalidCertificates ? "--allow-invalid-certificates" : nil,
            policy.validatesDomainName ? nil : "--no-validate-domain-name",
            policy.pinnedPublicKeys.isEmpty ? nil : "--pinned-public-key",
        ].compactMap { $0 }
        if !given.isEmpty {
            warnings.append(
                "default handling has no equivalent of \(given.joined(separator: ", ")): that takes a "
                    + "urlSession(_:didReceive:completionHandler:) delegate")
        }
        let rule = "default server-trust handling (SecTrustEvaluateWithError, SSL policy for the host)"
        guard let failure = platformTrust(facts, validatesHost: true) else {
            return AppleClientVerdict(
                client: .urlSession, succeeded: true, rule: rule, fixes: [], warnings: warnings)
        }
        return AppleClientVerdict(
            client: .urlSession, succeeded: false, errorDomain: AppleClientError.urlErrorDomain, errorCode: failure.code,
            rule: "\(rule): \(failure.reason)", fixes: trustFixes(facts), warnings: warnings)
    }

    // MARK: - AFNetworking

    /// `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` (AFNetworking 3.2 and 4.0 alike),
    /// called from `AFURLSessionManager`'s challenge handler; a NO cancels the challenge: -999
    /// in 3.x, and in 4.x the error it stores first, -1202 (`serverTrustErrorForServerTrust:url:`).
    static func afNetworking(_ client: AppleClient, _ facts: TrustFacts, policy: SecurityPolicy) -> AppleClientVerdict {
        let allowInvalid = policy.allowsInvalidCertificates
        let validatesName = policy.validatesDomainName
        let pinning = !policy.pinnedPublicKeys.isEmpty
        let settings =
            "allowInvalidCertificates = \(allowInvalid ? "YES" : "NO"), validatesDomainName = \(validatesName ? "YES" : "NO")"
            + (pinning ? ", SSLPinningMode = AFSSLPinningModePublicKey" : "")
        func failed(_ rule: String, fixes: [String], warnings: [String] = []) -> AppleClientVerdict {
            AppleClientVerdict(
                client: client, succeeded: false, errorDomain: AppleClientError.urlErrorDomain,
                errorCode: client == .afNetworking3
                    ? AppleClientError.cancelled.code : AppleClientError.serverCertificateUntrusted.code,
                rule: "\(settings): \(rule)", fixes: fixes, warnings: warnings)
        }
        func succeeded(_ rule: String, warnings: [String]) -> AppleClientVerdict {
            AppleClientVerdict(
                client: client, succeeded: true, rule: "\(settings): \(rule)", fixes: [], warnings: warnings)
        }
        if allowInvalid && validatesName && !pinning {
            return failed(
                "AFSecurityPolicy refuses to validate a domain name for an invalid certificate without pinning "
                    + "(evaluateServerTrust:forDomain:)",
                fixes: [
                    "validatesDomainName = NO", "pin the server's public key (AFSSLPinningModePublicKey)",
                ] + trustFixes(facts).map { "\($0), with allowInvalidCertificates = NO" },
                warnings: [
                    "validatesDomainName = NO with allowInvalidCertificates = YES verifies neither the chain nor the name",
                    "pinning with allowInvalidCertificates = YES checks the pin only: the name is not verified",
                ]
            )
        }
        let trust = platformTrust(facts, validatesHost: validatesName)
        if !pinning {
            if allowInvalid {
                return succeeded(
                    "allowInvalidCertificates = YES accepts the chain without evaluating it",
                    warnings: ["neither the chain nor the name is verified"])
            }
            guard let trust else { return succeeded("the server trust evaluates as valid", warnings: []) }
            var fixes = trustFixes(facts)
            if facts.chain == .trusted && !facts.nameMatches { fixes.append("validatesDomainName = NO") }
            return failed("the server trust does not evaluate as valid: \(trust.reason)", fixes: fixes)
        }
        if !allowInvalid, let trust {
            return failed("the server trust does not evaluate as valid: \(trust.reason)", fixes: trustFixes(facts))
        }
        guard facts.pinMatches == true else {
            return failed("no public key of the chain is among the pinned keys", fixes: pinFixes(facts))
        }
        return succeeded(
            "a pinned public key is in the chain",
            warnings: allowInvalid
                ? ["with allowInvalidCertificates = YES the pin is the only check: the name is not verified"] : [])
    }

    // MARK: - Alamofire

    /// Alamofire 5's `ServerTrustManager` evaluators (ServerTrustEvaluation.swift: on iOS 12 /
    /// macOS 10.14 and later each validation step throws `.trustEvaluationFailed(error:)`); a
    /// thrown error cancels the challenge (SessionDelegate.swift), so the request fails with
    /// `AFError.serverTrustEvaluationFailed(reason:)` over -999. Without a `ServerTrustManager`
    /// Alamofire leaves the challenge to URLSession (the URLSession verdict).
    static func alamofire(_ facts: TrustFacts, policy: SecurityPolicy) -> AppleClientVerdict {
        let validateHost = policy.validatesDomainName
        var warnings: [String] = []
        let evaluator: String
        var reason: String?
        // On iOS 12 / macOS 10.14 and later every validation step evaluates with
        // SecTrustEvaluateWithError and throws .trustEvaluationFailed(error:).
        func failed(in step: String) { reason = ".trustEvaluationFailed(error:) in \(step)" }
        var hostFix: String?
        if !policy.pinnedPublicKeys.isEmpty {
            let defaults = !policy.allowsInvalidCertificates
            evaluator = "PublicKeysTrustEvaluator(performDefaultValidation: \(defaults), validateHost: \(validateHost))"
            if defaults, platformTrust(facts, validatesHost: false) != nil {
                failed(in: "its default validation")
            } else if validateHost, platformTrust(facts, validatesHost: true) != nil {
                failed(in: "its host validation")
                if facts.chain == .trusted && !facts.nameMatches { hostFix = "validateHost: false" }
            } else if facts.pinMatches != true {
                reason = ".publicKeyPinningFailed"
            }
        } else if policy.allowsInvalidCertificates {
            evaluator = "DisabledTrustEvaluator()"
            if validateHost {
                warnings.append(
                    "Alamofire has no evaluator that skips the chain but checks the name: DisabledTrustEvaluator, the "
                        + "nearest, skips both")
            }
        } else {
            evaluator = "DefaultTrustEvaluator(validateHost: \(validateHost))"
            if validateHost, platformTrust(facts, validatesHost: true) != nil {
                failed(in: "its host validation")
                if facts.chain == .trusted && !facts.nameMatches && facts.failedRequirement == nil {
                    hostFix = "DefaultTrustEvaluator(validateHost: false)"
                }
            } else if platformTrust(facts, validatesHost: false) != nil {
                failed(in: "its default validation")
            }
        }
        guard let reason else {
            if evaluator.hasPrefix("DisabledTrustEvaluator") { warnings.append("neither the chain nor the name is verified") }
            return AppleClientVerdict(
                client: .alamofire5, succeeded: true, rule: "a ServerTrustManager with \(evaluator) passes", fixes: [],
                warnings: warnings)
        }
        var fixes = reason == ".publicKeyPinningFailed" ? pinFixes(facts) : trustFixes(facts)
        if let hostFix { fixes.append(hostFix) }
        let errorCase = reason.hasPrefix(".trustEvaluationFailed") ? ".trustEvaluationFailed(error:)" : reason
        return AppleClientVerdict(
            client: .alamofire5, succeeded: false, errorDomain: "Alamofire.AFError", errorCode: AppleClientError.cancelled.code,
            errorCase: "serverTrustEvaluationFailed(reason: \(errorCase))",
            rule: "a ServerTrustManager with \(evaluator) throws \(reason)",
            fixes: fixes, warnings: warnings)
    }
}

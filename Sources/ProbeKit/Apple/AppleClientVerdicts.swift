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
/// Each evaluation runs under the policy the stack gives it (``Evaluation``), and App Transport
/// Security has the last word on a trust a library loosened. Every fix offered is decided again
/// under its changes and kept only when the call then passes.
public enum AppleClientVerdicts {
    /// The verdicts of the stacks asked for.
    ///
    /// - Parameters:
    ///   - facts: What the chain shown comes to on the device.
    ///   - policy: The probe's switches.
    ///   - device: The device's installed roots and the app's ATS exception.
    ///   - clients: The stacks, in report order.
    /// - Returns: One verdict per stack.
    public static func verdicts(
        for facts: TrustFacts, policy: SecurityPolicy, device: AppleDevice = AppleDevice(),
        clients: [AppleClient] = AppleClient.allCases
    ) -> [AppleClientVerdict] {
        clients.map { client in
            var verdict = decide(client, facts, policy, device)
            guard !verdict.succeeded else { return verdict }
            verdict.fixes = fixes(client, facts, policy, device)
            if let root = facts.rootOnlyThisMachineTrusts, passes(client, [.deviceTrustsRoot], facts, policy, device) {
                verdict.condition =
                    "succeeds once the device trusts \(root) (a profile installed, full trust turned on), as this machine does"
            } else if facts.atsCovers, !device.atsException, passes(client, [.atsException], facts, policy, device) {
                verdict.condition = "succeeds where the app's Info.plist excepts the host from App Transport Security"
            }
            if client == .afNetworking3, verdict.errorCode == AppleClientError.cancelled.code {
                verdict.versions = [
                    "AFNetworking 3.1–3.2 cancel the challenge (-999); 3.0.0–3.0.4 rejected the protection space "
                        + "instead, and their own test of a refused pin expects -1202 serverCertificateUntrusted"
                ]
            }
            return verdict
        }
    }

    /// Through an `https://` proxy: whether the stack can reach one at all. Every stack sets its
    /// proxy on the URLSessionConfiguration it runs on; TLS to the proxy itself takes
    /// `proxyConfigurations` with a Network framework `ProxyConfiguration` whose `tlsOptions`
    /// are set (iOS 17, macOS 14); `connectionProxyDictionary` speaks to a proxy in cleartext.
    public static let httpsProxyNote =
        "this call reached its proxy over TLS (https://): an app does so only from iOS 17 / macOS 14, with "
        + "URLSessionConfiguration.proxyConfigurations holding a ProxyConfiguration with tlsOptions (Network framework); "
        + "connectionProxyDictionary speaks to a proxy in cleartext"

    /// App Transport Security's TLS rules not judged: the handshake's version and cipher were
    /// not seen (the probe's own check stopped it; a second look took only the certificates).
    public static let atsNotJudgedNote =
        "App Transport Security's TLS version and forward-secrecy rules were not judged: the handshake's version and "
        + "cipher were not seen"

    /// The verdicts for a cleartext `http://` call to a host App Transport Security covers
    /// (``AppTransportSecurity/covers(host:)``): it refuses it (-1022) unless the app excepts it.
    ///
    /// - Parameters:
    ///   - host: The host called.
    ///   - device: The app's ATS exception.
    ///   - clients: The stacks, in report order.
    /// - Returns: One verdict per stack.
    public static func cleartextVerdicts(host: String, device: AppleDevice, clients: [AppleClient]) -> [AppleClientVerdict] {
        clients.map { client in
            if device.atsException {
                return AppleClientVerdict(
                    client: client, succeeded: true, rule: "the app's App Transport Security exception allows cleartext HTTP",
                    warnings: ["the exception applies to every connection to the domain"])
            }
            let error = AppleClientError.appTransportSecurityRequiresSecureConnection
            var verdict = failure(
                client, code: error.code, rule: "App Transport Security requires https:// for \(host) (cleartext HTTP is refused)"
            )
            verdict.fixes = [
                VerdictFix(changes: [.atsException], text: describe(.atsException, client, TrustFacts.none, SecurityPolicy()))
            ]
            return verdict
        }
    }

    /// Whether the stack's call passes once the changes are made.
    static func passes(
        _ client: AppleClient, _ changes: [VerdictFix.Change], _ facts: TrustFacts, _ policy: SecurityPolicy,
        _ device: AppleDevice
    ) -> Bool {
        let (facts, policy, device) = VerdictFix(changes: changes, text: "").applied(to: facts, policy: policy, device: device)
        return decide(client, facts, policy, device).succeeded
    }

    /// The stack's decision, without fixes.
    static func decide(
        _ client: AppleClient, _ facts: TrustFacts, _ policy: SecurityPolicy, _ device: AppleDevice
    ) -> AppleClientVerdict {
        if let rule = facts.failedATSRule, !device.atsException {
            return failure(
                client, code: AppleClientError.secureConnectionFailed.code,
                rule: "App Transport Security: \(rule.rule), seen \(rule.detail) (the code is what the platform returns)")
        }
        switch client {
        case .urlSession: return urlSession(facts, policy: policy)
        case .afNetworking3, .afNetworking4: return afNetworking(client, facts, policy: policy, device: device)
        case .alamofire5: return alamofire(facts, policy: policy, device: device)
        }
    }

    /// A failure of the task itself: a `URLError`, which Alamofire wraps as `sessionTaskFailed`.
    static func failure(_ client: AppleClient, code: Int, rule: String, warnings: [String] = []) -> AppleClientVerdict {
        guard client == .alamofire5 else {
            return AppleClientVerdict(
                client: client, succeeded: false, errorDomain: AppleClientError.urlErrorDomain, errorCode: code, rule: rule,
                warnings: warnings)
        }
        return AppleClientVerdict(
            client: client, succeeded: false, errorDomain: "Alamofire.AFError", errorCode: code,
            errorCase: "sessionTaskFailed(error: URLError \(code))", rule: rule, warnings: warnings)
    }

    /// A library accepted the trust: App Transport Security still refuses a trust the default
    /// evaluation refuses, unless the app excepts the host ("NSExceptionAllowsInsecureHTTPLoads
    /// … to be able to loosen the server trust evaluation requirements").
    static func accepted(
        _ client: AppleClient, _ rule: String, warnings: [String], _ facts: TrustFacts, _ device: AppleDevice
    ) -> AppleClientVerdict {
        guard facts.atsCovers, !device.atsException, let refusal = platformTrust(facts, .sslServer(host: true)) else {
            return AppleClientVerdict(client: client, succeeded: true, rule: rule, warnings: warnings)
        }
        // CFNetwork's source is closed: devices report "ATS failed system trust", -1200 with
        // kCFStreamErrorDomainSSL -9802.
        return failure(
            client, code: AppleClientError.secureConnectionFailed.code,
            rule: "\(rule), but App Transport Security keeps the default evaluation for a host the app does not except "
                + "(-1200 with kCFStreamErrorDomainSSL -9802, as devices report it): \(refusal.reason)",
            warnings: warnings)
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
        let rule = "default server-trust handling (SecTrustEvaluateWithError, \(Evaluation.sslServer(host: true).name))"
        guard let refusal = platformTrust(facts, .sslServer(host: true)) else {
            return AppleClientVerdict(client: .urlSession, succeeded: true, rule: rule, warnings: warnings)
        }
        return failure(.urlSession, code: refusal.urlError, rule: "\(rule): \(refusal.reason)", warnings: warnings)
    }

    // MARK: - AFNetworking

    /// `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` (AFNetworking 3.1–3.2 and 4.0 alike),
    /// called from `AFURLSessionManager`'s challenge handler; a NO cancels the challenge: -999
    /// in 3.x, and in 4.x the error it stores first, -1202 (`serverTrustErrorForServerTrust:url:`).
    /// It evaluates with the SSL server policy for the host, or the basic X.509 policy with
    /// `validatesDomainName = NO`.
    static func afNetworking(
        _ client: AppleClient, _ facts: TrustFacts, policy: SecurityPolicy, device: AppleDevice
    ) -> AppleClientVerdict {
        let allowInvalid = policy.allowsInvalidCertificates
        let validatesName = policy.validatesDomainName
        let pinning = !policy.pinnedPublicKeys.isEmpty
        let evaluation: Evaluation = validatesName ? .sslServer(host: true) : .basicX509
        let settings =
            "allowInvalidCertificates = \(allowInvalid ? "YES" : "NO"), validatesDomainName = \(validatesName ? "YES" : "NO")"
            + (pinning ? ", SSLPinningMode = AFSSLPinningModePublicKey" : "")
        func refused(_ rule: String) -> AppleClientVerdict {
            AppleClientVerdict(
                client: client, succeeded: false, errorDomain: AppleClientError.urlErrorDomain,
                errorCode: client == .afNetworking3
                    ? AppleClientError.cancelled.code : AppleClientError.serverCertificateUntrusted.code,
                rule: "\(settings): \(rule)")
        }
        if allowInvalid && validatesName && !pinning {
            var verdict = refused(
                "AFSecurityPolicy refuses to validate a domain name for an invalid certificate without pinning "
                    + "(evaluateServerTrust:forDomain:)")
            verdict.warnings = [
                "validatesDomainName = NO with allowInvalidCertificates = YES verifies neither the chain nor the name",
                "pinning with allowInvalidCertificates = YES checks the pin only: the name is not verified",
            ]
            return verdict
        }
        let trust = platformTrust(facts, evaluation)
        if !pinning {
            if allowInvalid {
                return accepted(
                    client, "\(settings): allowInvalidCertificates = YES accepts the chain without evaluating it",
                    warnings: ["neither the chain nor the name is verified"], facts, device)
            }
            guard let trust else {
                return accepted(
                    client, "\(settings): the server trust evaluates as valid (\(evaluation.name))", warnings: [], facts, device)
            }
            return refused("the server trust does not evaluate as valid (\(evaluation.name)): \(trust.reason)")
        }
        if !allowInvalid, let trust {
            return refused("the server trust does not evaluate as valid (\(evaluation.name)): \(trust.reason)")
        }
        guard facts.pinMatches == true else {
            return refused("no public key of the chain the device builds is among the pinned keys")
        }
        var warnings =
            allowInvalid ? ["with allowInvalidCertificates = YES the pin is the only check: the name is not verified"] : []
        if let interceptor = facts.interceptor {
            warnings.append("the key pinned is \(interceptor)'s, the intercepting proxy's: pinning it defeats the pin")
        }
        return accepted(client, "\(settings): a pinned public key is in the chain", warnings: warnings, facts, device)
    }

    // MARK: - Alamofire

    /// Alamofire 5's `ServerTrustManager` evaluators (ServerTrustEvaluation.swift): host
    /// validation (`SecPolicyCreateSSL(true, host)`) and default validation
    /// (`SecPolicyCreateSSL(true, nil)`) each evaluate with `SecTrustEvaluateWithError` and throw
    /// `.trustEvaluationFailed(error:)` with the Security error; a thrown error cancels the
    /// challenge (SessionDelegate.swift) and the request fails with
    /// `AFError.serverTrustEvaluationFailed(reason:)`. Without a `ServerTrustManager` Alamofire
    /// leaves the challenge to URLSession (the URLSession verdict).
    static func alamofire(_ facts: TrustFacts, policy: SecurityPolicy, device: AppleDevice) -> AppleClientVerdict {
        let validateHost = policy.validatesDomainName
        let evaluator: String
        let steps = evaluations(.alamofire5, policy)
        var warnings: [String] = []
        if !policy.pinnedPublicKeys.isEmpty {
            evaluator =
                "PublicKeysTrustEvaluator(performDefaultValidation: \(!policy.allowsInvalidCertificates), validateHost: \(validateHost))"
        } else if policy.allowsInvalidCertificates {
            evaluator = "DisabledTrustEvaluator()"
            if validateHost {
                warnings.append(
                    "Alamofire has no evaluator that skips the chain but checks the name: DisabledTrustEvaluator, the "
                        + "nearest, skips both")
            }
        } else {
            evaluator = "DefaultTrustEvaluator(validateHost: \(validateHost))"
        }
        for step in steps {
            if let refusal = platformTrust(facts, step.evaluation) {
                return AppleClientVerdict(
                    client: .alamofire5, succeeded: false, errorDomain: "Alamofire.AFError",
                    errorCase: "serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))",
                    underlyingError: "NSOSStatusErrorDomain \(refusal.securityError)",
                    rule: "a ServerTrustManager with \(evaluator) throws in its \(step.name) (\(step.evaluation.name)): "
                        + refusal.reason,
                    warnings: warnings)
            }
        }
        if !policy.pinnedPublicKeys.isEmpty && facts.pinMatches != true {
            return AppleClientVerdict(
                client: .alamofire5, succeeded: false, errorDomain: "Alamofire.AFError",
                errorCase: "serverTrustEvaluationFailed(reason: .publicKeyPinningFailed(host:trust:pinnedKeys:serverKeys:))",
                rule: "a ServerTrustManager with \(evaluator): no public key of the chain the device builds is pinned",
                warnings: warnings)
        }
        if steps.isEmpty { warnings.append("neither the chain nor the name is verified") }
        if let interceptor = facts.interceptor, !policy.pinnedPublicKeys.isEmpty {
            warnings.append("the key pinned is \(interceptor)'s, the intercepting proxy's: pinning it defeats the pin")
        }
        return accepted(.alamofire5, "a ServerTrustManager with \(evaluator) passes", warnings: warnings, facts, device)
    }
}

extension TrustFacts {
    /// No facts: a call with no certificate.
    static let none = TrustFacts(chain: .trusted, nameMatches: true)
}

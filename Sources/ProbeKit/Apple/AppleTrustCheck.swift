/// One of Apple's requirements for a TLS server's chain or connection, checked on what the call
/// saw, with the trust policy it belongs to: a rule of the SSL server policy does not hold when
/// AFNetworking evaluates with the basic X.509 policy, and the name rule only when a host is
/// checked (trustd's SecPolicy.c: `SecPolicyCreateSSL`, `SecPolicyCreateBasicX509`).
public struct AppleTrustCheck: Sendable, Equatable {
    /// The trust policy a rule belongs to.
    public enum Scope: String, Sendable, Equatable, CaseIterable {
        /// Every evaluation, the basic X.509 policy included (weak keys and signatures).
        case basic = "basic X.509"
        /// The SSL server policy, with or without a host (`SecPolicyCreateSSL(true, host or nil)`).
        case server = "SSL server"
        /// The SSL server policy for a host: the name check.
        case serverHost = "SSL server with the host"
        /// App Transport Security, on the connection before any trust evaluation.
        case ats = "App Transport Security"
    }

    /// The requirement, e.g. `"serverAuth in extendedKeyUsage"`.
    public var rule: String
    /// Whether the chain or connection meets it.
    public var passed: Bool
    /// What was seen, e.g. `"validity 1000 days"`.
    public var detail: String
    /// Where Apple states it.
    public var source: String
    /// The policy it belongs to.
    public var scope: Scope
    /// The Security framework's error when it fails (SecBase.h), e.g. `"-67901 errSecCertificateValidityPeriodTooLong"`;
    /// `nil` for an ATS rule, which fails the connection instead.
    public var securityError: String?

    /// A check.
    ///
    /// - Parameters: one per property.
    public init(rule: String, passed: Bool, detail: String, source: String, scope: Scope, securityError: String? = nil) {
        self.rule = rule
        self.passed = passed
        self.detail = detail
        self.source = source
        self.scope = scope
        self.securityError = securityError
    }

    /// True for an App Transport Security rule (the connection), false for a certificate rule.
    public var isATS: Bool { scope == .ats }
}

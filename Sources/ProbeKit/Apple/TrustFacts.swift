/// What the device's trust evaluation (`SecTrustEvaluateWithError`) sees in the chain a server
/// showed: its standing with the device's roots, the name, the pins, and each of Apple's
/// certificate and App Transport Security rules with the policy it belongs to. Every stack
/// decides on these (``AppleClientVerdicts``).
public struct TrustFacts: Sendable, Equatable {
    /// How the chain stands with the device's roots (``DeviceTrust``).
    public enum Chain: String, Sendable, Equatable {
        /// It leads to a trusted root and every certificate is in its validity period.
        case trusted
        /// It leads to no root the device trusts (self-signed, an interceptor's CA, an unknown issuer).
        case untrusted
        /// A certificate's validity has ended.
        case expired
        /// A certificate's validity has not begun.
        case notYetValid
    }

    /// Where the root the chain leads to sits on the device: Apple's trust store treats a
    /// preloaded root and a root the user installed differently (trustd's
    /// `SecPolicyCheckValidityPeriodMaximums` and `SecPolicyCheckServerAuthEKU`).
    public enum Anchor: String, Sendable, Equatable {
        /// One of the roots standing for Apple's preloaded ones.
        case system
        /// A root the user installed and fully trusted (`--cacert`, `--device-ca`).
        case user
        /// No root the device trusts.
        case none
    }

    /// The chain's standing.
    public var chain: Chain
    /// Whose root it leads to.
    public var anchor: Anchor
    /// Whether the leaf's subjectAltName names the host asked for (Apple reads no CommonName).
    public var nameMatches: Bool
    /// Whether a key of the chain the device builds (the root included) is among
    /// `--pinned-public-key`; `nil` without pins.
    public var pinMatches: Bool?
    /// Apple's rules, each with its policy, as checked on the chain built and the connection.
    public var checks: [AppleTrustCheck]
    /// The checks as they would be with the chain's root installed on the device (a user root
    /// is spared rules a preloaded root is held to); `nil` when the chain is trusted.
    public var checksIfRootInstalled: [AppleTrustCheck]?
    /// The subject of a root this machine trusts and the device does not (a corporate or an
    /// interceptor's CA added to this machine's store), e.g. `"CN = mitmproxy, O = mitmproxy"`.
    public var rootOnlyThisMachineTrusts: String?
    /// Who re-signed the certificate when it is an intercepting proxy's
    /// (``CertificateSource/interceptor``), e.g. `"mitmproxy"`; `nil` when it is the target's
    /// or unknown. Trusting or pinning it is then about the proxy, not the target.
    public var interceptor: String?
    /// The validity dates alone, whatever the trust: `.trusted` when every certificate of the
    /// chain built is in its period, else `.expired` or `.notYetValid`. An untrusted chain's
    /// expiry is what is left once its root is trusted.
    public var dates: Chain
    /// For an untrusted chain: whether the chain the device built stops at a certificate that
    /// is not its own issuer (trustd's `kSecPolicyCheckMissingIntermediate`,
    /// errSecCreateChainFailed), rather than at a root it does not trust.
    public var missingIssuer: Bool
    /// Whether App Transport Security covers the host: not for an unqualified name or a
    /// `.local` name (``AppTransportSecurity/covers(host:)``).
    public var atsCovers: Bool

    /// Facts.
    ///
    /// - Parameters: one per property.
    public init(
        chain: Chain, anchor: Anchor? = nil, nameMatches: Bool, pinMatches: Bool? = nil, checks: [AppleTrustCheck] = [],
        checksIfRootInstalled: [AppleTrustCheck]? = nil, rootOnlyThisMachineTrusts: String? = nil,
        interceptor: String? = nil, atsCovers: Bool = true, missingIssuer: Bool = false, dates: Chain? = nil
    ) {
        self.chain = chain
        self.anchor = anchor ?? (chain == .untrusted ? .none : .system)
        self.nameMatches = nameMatches
        self.pinMatches = pinMatches
        self.checks = checks
        self.checksIfRootInstalled = checksIfRootInstalled
        self.rootOnlyThisMachineTrusts = rootOnlyThisMachineTrusts
        self.interceptor = interceptor
        self.atsCovers = atsCovers
        self.missingIssuer = missingIssuer
        self.dates = dates ?? (chain == .untrusted ? .trusted : chain)
    }

    /// The first failed check of a scope, `nil` when every one passed.
    ///
    /// - Parameter scopes: The policies whose checks count.
    func firstFailure(in scopes: Set<AppleTrustCheck.Scope>) -> AppleTrustCheck? {
        checks.first { !$0.passed && scopes.contains($0.scope) }
    }

    /// The first failed App Transport Security rule where ATS covers the host.
    var failedATSRule: AppleTrustCheck? { atsCovers ? firstFailure(in: [.ats]) : nil }
}

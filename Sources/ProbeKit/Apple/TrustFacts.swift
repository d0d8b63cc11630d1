/// What the platform's trust evaluation (`SecTrustEvaluateWithError`) sees in the chain a
/// server showed, and whether the leaf's key is pinned: the facts every stack decides on.
public struct TrustFacts: Sendable, Equatable {
    /// How the chain stands with the device's trust store (`--cacert`: a CA installed and
    /// fully trusted on the device; else the system's roots standing for Apple's preloaded ones).
    public enum Chain: String, Sendable, Equatable {
        /// It leads to a trusted root and every certificate is in its validity period.
        case trusted
        /// It leads to no trusted root (self-signed, an interceptor's CA, an unknown issuer).
        case untrusted
        /// A certificate's validity has ended.
        case expired
        /// A certificate's validity has not begun.
        case notYetValid
    }

    /// The chain's standing.
    public var chain: Chain
    /// Whether the leaf names the host asked for.
    public var nameMatches: Bool
    /// Whether the leaf's public key is among `--pinned-public-key`; `nil` without pins.
    public var pinMatches: Bool?
    /// The first of Apple's certificate requirements the leaf fails (``AppleTrustRules``), e.g.
    /// `"extendedKeyUsage with serverAuth"`; `nil` when it meets them.
    public var failedRequirement: String?
    /// The first App Transport Security rule the connection fails; `nil` when it meets them.
    public var failedATSRule: String?
    /// Who re-signed the certificate when it is an intercepting proxy's
    /// (``CertificateSource/interceptor``), e.g. `"mitmproxy"`; `nil` when it is the target's
    /// or unknown. Trusting or pinning it is then about the proxy, not the target.
    public var interceptor: String?

    /// Facts.
    ///
    /// - Parameters: one per property.
    public init(
        chain: Chain, nameMatches: Bool, pinMatches: Bool? = nil, failedRequirement: String? = nil,
        failedATSRule: String? = nil, interceptor: String? = nil
    ) {
        self.chain = chain
        self.nameMatches = nameMatches
        self.pinMatches = pinMatches
        self.failedRequirement = failedRequirement
        self.failedATSRule = failedATSRule
        self.interceptor = interceptor
    }
}

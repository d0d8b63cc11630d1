/// The Apple client stacks whose verdict on a server's certificate the probe reports
/// (`--client`), as each stack's own source decides it: docs/apple-clients.md.
public enum AppleClient: String, Sendable, CaseIterable {
    /// `URLSession` with default server-trust handling (no delegate answers the challenge);
    /// also Alamofire 5 without a `ServerTrustManager`.
    case urlSession = "URLSession"
    /// AFNetworking 3.x: `AFSecurityPolicy` in `AFURLSessionManager`'s challenge handler.
    case afNetworking3 = "AFNetworking 3"
    /// AFNetworking 4.x: the same policy; a refused challenge becomes -1202.
    case afNetworking4 = "AFNetworking 4"
    /// Alamofire 5 with a `ServerTrustManager` whose evaluator matches the probe's switches.
    case alamofire5 = "Alamofire 5"

    /// The stack for a `--client` value: `urlsession`, `afnetworking3`, `afnetworking4`,
    /// `alamofire5`; `nil` for anything else.
    ///
    /// - Parameter option: The value as given.
    public init?(option: String) {
        switch option.lowercased() {
        case "urlsession": self = .urlSession
        case "afnetworking3": self = .afNetworking3
        case "afnetworking4": self = .afNetworking4
        case "alamofire5": self = .alamofire5
        default: return nil
        }
    }
}

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

    /// Facts.
    ///
    /// - Parameters: one per property.
    public init(
        chain: Chain, nameMatches: Bool, pinMatches: Bool? = nil, failedRequirement: String? = nil,
        failedATSRule: String? = nil
    ) {
        self.chain = chain
        self.nameMatches = nameMatches
        self.pinMatches = pinMatches
        self.failedRequirement = failedRequirement
        self.failedATSRule = failedATSRule
    }
}

/// One stack's verdict on one call's certificate.
public struct AppleClientVerdict: Sendable, Equatable {
    /// The stack.
    public var client: AppleClient
    /// Whether the app would get the response.
    public var succeeded: Bool
    /// `NSURLErrorDomain`, or `Alamofire.AFError` for Alamofire's own error; `nil` on success.
    public var errorDomain: String?
    /// The `URLError` code the app sees, or underneath Alamofire's error (-999: it cancels
    /// the challenge); `nil` on success.
    public var errorCode: Int?
    /// The case of the stack's own error, e.g. `serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))`.
    public var errorCase: String?
    /// The rule that decided, in the stack's own terms.
    public var rule: String
    /// Changes in the stack's own terms that would make the call pass, smallest first.
    public var fixes: [String]
    /// What the verdict or a fix gives up, and where the probe's switch has no exact equivalent.
    public var warnings: [String]
}

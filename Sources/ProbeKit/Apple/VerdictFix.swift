/// A change that would make an Apple client's call pass, as data: the verdicts are decided
/// again under it, so a fix offered is a fix that works (``AppleClientVerdicts``).
public struct VerdictFix: Sendable, Equatable, CustomStringConvertible {
    /// One change to the server, the device, the app's settings or its Info.plist.
    public enum Change: Sendable, Hashable {
        /// The device trusts the chain's root: a profile installed and fully trusted.
        case deviceTrustsRoot
        /// The server sending its intermediate certificates, taken to lead to a root the device
        /// trusts (the device fetches no missing issuer under the basic policy, and this probe
        /// none at all).
        case serverSendsChain
        /// The server's (or interceptor's) certificate renewed.
        case renewCertificate
        /// The device's clock, or time, reaching the certificate's validity.
        case validityBegun
        /// A certificate whose subjectAltName names the host.
        case certificateNamesHost
        /// A certificate meeting every Apple requirement it failed.
        case meetsRequirements
        /// A server with TLS 1.2 or later and ECDHE ciphers.
        case modernTLS
        /// An App Transport Security exception for the host in the app's Info.plist.
        case atsException
        /// AFNetworking's `validatesDomainName`, Alamofire's `validateHost`.
        case validatesDomainName(Bool)
        /// AFNetworking's `allowInvalidCertificates`; Alamofire's `DisabledTrustEvaluator` when true.
        case allowsInvalidCertificates(Bool)
        /// Pinning one of the chain's public keys.
        case pinChainKey
        /// The call made without the intercepting proxy in the path, reaching the target's own
        /// certificate, taken to be valid and to hold the pinned key (`--compare-direct` looks
        /// at it): pinning what an interceptor shows would defeat the pin.
        case bypassInterceptor
    }

    /// The changes, all needed together.
    public var changes: [Change]
    /// The changes in the stack's own terms.
    public var text: String

    /// The text.
    public var description: String { text }

    /// A placeholder pin: applying ``Change/pinChainKey`` turns pinning on with a key that matches.
    static let chainKeyPin = PublicKeyPin(wellFormed: "sha256//" + String(repeating: "A", count: 43) + "=")

    /// The facts with the changes made.
    ///
    /// - Parameter facts: What the chain came to.
    /// - Returns: The facts as they would be.
    public func applying(to facts: TrustFacts) -> TrustFacts {
        applied(to: facts, policy: SecurityPolicy(), device: AppleDevice()).0
    }

    /// The switches with the changes made.
    ///
    /// - Parameter policy: The probe's switches.
    /// - Returns: The switches as they would be.
    public func applying(to policy: SecurityPolicy) -> SecurityPolicy {
        applied(to: TrustFacts.none, policy: policy, device: AppleDevice()).1
    }

    /// The device with the changes made.
    ///
    /// - Parameter device: The device and app.
    /// - Returns: The device as it would be.
    public func applying(to device: AppleDevice) -> AppleDevice {
        applied(to: TrustFacts.none, policy: SecurityPolicy(), device: device).2
    }

    /// The facts, policy and device with the changes made.
    func applied(to facts: TrustFacts, policy: SecurityPolicy, device: AppleDevice) -> (TrustFacts, SecurityPolicy, AppleDevice) {
        var (facts, policy, device) = (facts, policy, device)
        for change in changes {
            switch change {
            case .deviceTrustsRoot:
                if facts.chain == .untrusted { facts.chain = facts.dates }
                facts.anchor = .user
                facts.checks = facts.checksIfRootInstalled ?? facts.checks
                facts.checksIfRootInstalled = nil
                facts.rootOnlyThisMachineTrusts = nil
                facts.missingIssuer = false
            case .renewCertificate, .validityBegun:
                facts.dates = .trusted
                if facts.chain != .untrusted { facts.chain = .trusted }
            case .serverSendsChain:
                facts.chain = facts.dates
                facts.missingIssuer = false
            case .certificateNamesHost:
                facts.nameMatches = true
                Self.pass(&facts, [.serverHost])
            case .meetsRequirements: Self.pass(&facts, [.basic, .server])
            case .modernTLS: Self.pass(&facts, [.ats])
            case .atsException: device.atsException = true
            case .validatesDomainName(let value): policy.validatesDomainName = value
            case .allowsInvalidCertificates(let value): policy.allowsInvalidCertificates = value
            case .pinChainKey:
                if policy.pinnedPublicKeys.isEmpty { policy.pinnedPublicKeys = [Self.chainKeyPin] }
                facts.pinMatches = true
            case .bypassInterceptor:
                facts = TrustFacts(
                    chain: .trusted, nameMatches: true, pinMatches: facts.pinMatches.map { _ in true },
                    atsCovers: facts.atsCovers)
            }
        }
        return (facts, policy, device)
    }

    private static func pass(_ facts: inout TrustFacts, _ scopes: Set<AppleTrustCheck.Scope>) {
        for index in facts.checks.indices where scopes.contains(facts.checks[index].scope) {
            facts.checks[index].passed = true
            facts.checks[index].securityError = nil
        }
        if var installed = facts.checksIfRootInstalled {
            for index in installed.indices where scopes.contains(installed[index].scope) { installed[index].passed = true }
            facts.checksIfRootInstalled = installed
        }
    }
}

/// Whose certificate a call through a proxy saw for its target: the target's own, or one an
/// intercepting proxy made (it re-signs TLS with its own CA).
public enum CertificateOrigin: String, Sendable, Equatable {
    /// The target's: no proxy was in the path.
    case target
    /// An interceptor's: the issuer names a known interception product.
    case interceptor
    /// Through a proxy, with nothing that tells.
    case unknown
}

/// Whose certificate a call saw, and why the probe says so.
public struct CertificateSource: Sendable, Equatable {
    /// The target's, an interceptor's, or unknown.
    public var origin: CertificateOrigin
    /// The evidence in words.
    public var evidence: String
}

/// The interception products whose CA names the probe knows, matched on the certificate's
/// issuer (case-insensitively): one table, each entry tested.
public enum InterceptionProducts {
    /// `(product, words any of which in the issuer names it)`.
    public static let table: [(product: String, issuerWords: [String])] = [
        ("mitmproxy", ["mitmproxy"]),
        ("Charles Proxy", ["charles proxy", "charlesproxy"]),
        ("Proxyman", ["proxyman"]),
        ("Fiddler", ["fiddlerroot", "do_not_trust_fiddler"]),
        ("Burp Suite", ["portswigger"]),
        ("Zscaler", ["zscaler"]),
        ("Netskope", ["netskope"]),
        ("Palo Alto Networks", ["palo alto networks", "paloaltonetworks"]),
        ("Fortinet FortiGate", ["fortigate", "fortinet"]),
        ("Cisco Umbrella", ["cisco umbrella"]),
        ("Blue Coat ProxySG", ["blue coat", "bluecoat"]),
        ("Sophos", ["sophos"]),
        ("HTTP Toolkit", ["http toolkit", "httptoolkit"]),
    ]

    /// The product an issuer names, or `nil`.
    ///
    /// - Parameter issuer: The certificate's issuer as OpenSSL prints it, e.g. `"CN = mitmproxy, O = mitmproxy"`.
    public static func product(inIssuer issuer: String) -> String? {
        let lowered = issuer.lowercased()
        return table.first { entry in entry.issuerWords.contains { lowered.contains($0) } }?.product
    }

    /// Whose certificate it was, and why the probe says so.
    ///
    /// - Parameters:
    ///   - issuer: The target certificate's issuer; `nil` when unknown.
    ///   - throughProxy: Whether a proxy was in the path.
    /// - Returns: The origin and its evidence in words.
    public static func origin(issuer: String?, throughProxy: Bool) -> CertificateSource {
        guard throughProxy else { return CertificateSource(origin: .target, evidence: "no proxy was in the path") }
        if let issuer, let product = product(inIssuer: issuer) {
            return CertificateSource(
                origin: .interceptor,
                evidence:
                    "the issuer (\(issuer)) names \(product): the proxy re-signs TLS with its own CA, so an app must trust "
                    + "that CA (install it) or pin it")
        }
        return CertificateSource(
            origin: .unknown,
            evidence: "through a proxy; the target's certificate names no known interception product as its issuer, so it may be "
                + "the target's own or an interceptor's")
    }
}

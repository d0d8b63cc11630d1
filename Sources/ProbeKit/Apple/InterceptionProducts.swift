/// Whose certificate a call through a proxy saw for its target: the target's own, or one an
/// intercepting proxy made (it re-signs TLS with its own CA).
public enum CertificateOrigin: String, Sendable, Equatable {
    /// The target's: no proxy was in the path.
    case target
    /// An interceptor's: the issuer names a known interception product, or a direct handshake
    /// with the target (`--compare-direct`) shows another certificate.
    case interceptor
    /// Through a proxy, with nothing that tells.
    case unknown
}

/// What one direct TLS handshake with the target showed (`--compare-direct`), beside the
/// certificate seen through the proxy.
public enum DirectLook: Sendable, Equatable {
    /// The same leaf certificate.
    case sameCertificate
    /// Another leaf certificate, with its subject and issuer as OpenSSL prints them.
    case otherCertificate(subject: String, issuer: String)
    /// No handshake: the target is not reachable without the proxy.
    case unreachable
    /// None made: the call's `--max-time` had no time left for it.
    case outOfTime
}

/// Whose certificate a call saw, and why the probe says so.
public struct CertificateSource: Sendable, Equatable {
    /// The target's, an interceptor's, or unknown.
    public var origin: CertificateOrigin
    /// The evidence in words.
    public var evidence: String
    /// The interception product the issuer names, e.g. `"mitmproxy"`; `nil` when none.
    public var product: String?

    /// Who re-signed the certificate, for a sentence: the product, else "the proxy"; `nil`
    /// unless the certificate is an interceptor's.
    public var interceptor: String? {
        origin == .interceptor ? product ?? "the proxy" : nil
    }
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

    /// Whose certificate it was, and why the probe says so. A direct look decides when it
    /// reached the target (it sees the target's own certificate); else the issuer does.
    ///
    /// - Parameters:
    ///   - issuer: The target certificate's issuer; `nil` when unknown.
    ///   - subject: The target certificate's subject; `nil` when unknown.
    ///   - throughProxy: Whether a proxy was in the path.
    ///   - direct: What a direct handshake showed (`--compare-direct`); `nil` when none was made.
    ///   - answeredInside: The field of a proxy's own error page that the answer inside the TLS
    ///     tunnel carries (`X-Squid-Error: …`), with the proxy software it names: only a proxy
    ///     that decrypts the tunnel can write there. `nil` when there is none.
    /// - Returns: The origin and its evidence in words.
    public static func origin(
        issuer: String?, subject: String? = nil, throughProxy: Bool, direct: DirectLook? = nil,
        answeredInside: (evidence: String, product: String?)? = nil
    ) -> CertificateSource {
        guard throughProxy else { return CertificateSource(origin: .target, evidence: "no proxy was in the path") }
        let product = issuer.flatMap(product(inIssuer:))
        let resigns = "the proxy re-signs TLS with its own CA, so an app must trust that CA (install it) or pin it"
        switch direct {
        case .sameCertificate?:
            return CertificateSource(
                origin: .target,
                evidence: "a direct TLS handshake with the target (--compare-direct) shows the same certificate", product: product
            )
        case .otherCertificate(let directSubject, let directIssuer)?:
            let seen = "\(subject ?? "an unknown subject"), issued by \(issuer ?? "an unknown issuer")"
            return CertificateSource(
                origin: .interceptor,
                evidence: "a direct TLS handshake with the target (--compare-direct) shows another certificate "
                    + "(\(directSubject), issued by \(directIssuer)) than the proxy does (\(seen)"
                    + (product.map { ", \($0)" } ?? "") + "): the proxy intercepts TLS and shows a certificate of its own, "
                    + "so an app must trust its issuer (install it) or pin it",
                product: product)
        case .unreachable?, .outOfTime?, nil:
            let tried =
                switch direct {
                case .unreachable?: "; a direct TLS handshake (--compare-direct) could not reach the target"
                case .outOfTime?: "; no time was left within --max-time for a direct TLS handshake (--compare-direct)"
                default: ""
                }
            if let issuer, let product {
                return CertificateSource(
                    origin: .interceptor, evidence: "the issuer (\(issuer)) names \(product): " + resigns + tried,
                    product: product)
            }
            if let answeredInside {
                return CertificateSource(
                    origin: .interceptor,
                    evidence: "the error answer inside the TLS tunnel carries \(answeredInside.evidence), which only a "
                        + "proxy that decrypts the tunnel can write there" + (issuer.map { " (the issuer is \($0))" } ?? "")
                        + ": " + resigns + tried,
                    product: answeredInside.product)
            }
            return CertificateSource(
                origin: .unknown,
                evidence: "through a proxy; the target's certificate names no known interception product as its issuer, so it "
                    + "may be the target's own or an interceptor's"
                    + (direct == nil ? " (--compare-direct tells them apart when the target is reachable directly)" : tried))
        }
    }
}
